/*
 * The exec transport: real processes through /bin/sh, big inputs and
 * outputs both ways at once, the output cap, the deadline (on a fake clock
 * that is already past it, or that jumps past it, so nothing waits), the
 * cancel flag (set by a signal the command itself sends, so nothing is
 * timed), the command's process group, and error parsing.
 */

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static char *s_sh[] = {"sh", "-c", NULL, NULL};

static int s_sh_run(struct anvil_test *t, const char *script, const char *in, size_t in_len,
                    const struct anvil_exec_options *options, struct anvil_exec_result *result) {
    s_sh[2] = (char *)script;
    return anvil_exec_run(t->alloc, s_sh, in, in_len, options, result, NULL);
}

TEST(exec_captures_exit_status_stdout_and_stderr) {
    struct anvil_exec_result r = {0};
    CHECK_OK(s_sh_run(t, "read line; echo \"out:$line\"; echo oops >&2; exit 3", "hello\n", 6, NULL, &r));
    CHECK_EQ_INT(r.exit_status, 3);
    CHECK_EQ_INT(r.signal, 0);
    CHECK_MEM_EQ(r.out.data, r.out.len, "out:hello\n");
    CHECK_MEM_EQ(r.err.data, r.err.len, "oops\n");
    anvil_exec_result_clean_up(&r);
    CHECK_OK(s_sh_run(t, "kill -9 $$", NULL, 0, NULL, &r));
    CHECK_EQ_INT(r.exit_status, -1);
    CHECK_EQ_INT(r.signal, 9);
done:
    anvil_exec_result_clean_up(&r);
}

TEST(exec_moves_megabytes_both_ways_without_deadlock) {
    /* cat echoes 4 MiB while we are still writing: only a poll loop that reads as it writes survives. */
    size_t len = (size_t)4 << 20;
    char *big = anvil_mem_acquire(t->alloc, len);
    struct anvil_exec_result r = {0};
    CHECK_ALLOC(big);
    for (size_t i = 0; i < len; i++) {
        big[i] = (char)('a' + i % 26);
    }
    CHECK_OK(s_sh_run(t, "cat; cat /dev/null >&2", big, len, NULL, &r));
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_EQ_U64(r.out.len, len);
    CHECK(memcmp(r.out.data, big, len) == 0);
done:
    anvil_exec_result_clean_up(&r);
    anvil_mem_release(t->alloc, big);
}

TEST(exec_survives_a_command_that_ignores_its_input) {
    /* Writing 1 MiB to a command that exits at once raises SIGPIPE, which must not kill us. */
    size_t len = (size_t)1 << 20;
    char *big = anvil_mem_acquire(t->alloc, len);
    struct anvil_exec_result r = {0};
    CHECK_ALLOC(big);
    memset(big, 'x', len);
    CHECK_OK(s_sh_run(t, "exit 0", big, len, NULL, &r));
    CHECK_EQ_INT(r.exit_status, 0);
done:
    anvil_exec_result_clean_up(&r);
    anvil_mem_release(t->alloc, big);
}

TEST(exec_kills_a_command_past_the_output_cap) {
    struct anvil_exec_result r = {0};
    struct anvil_diag diag;
    struct anvil_exec_options options = {.max_output_bytes = 1000};
    s_sh[2] = "yes";
    CHECK_STATUS(anvil_exec_run(t->alloc, s_sh, NULL, 0, &options, &r, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "wrote more than 1000 bytes and was killed") != NULL);
    CHECK_EQ_INT(r.signal, 9);
done:
    anvil_exec_result_clean_up(&r);
}

TEST(exec_kills_a_command_at_the_deadline) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 5000, 1);
    struct anvil_exec_result r = {0};
    struct anvil_diag diag;
    struct anvil_exec_options options = {.env = &fake.env, .deadline_ms = 5000};
    s_sh[2] = "sleep 60";
    CHECK_STATUS(anvil_exec_run(t->alloc, s_sh, NULL, 0, &options, &r, &diag), ANVIL_ETIMEDOUT);
    CHECK_STR_EQ(diag.message, "`sh` was still running at the deadline and was killed");
    CHECK_EQ_INT(r.signal, 9);
done:
    anvil_exec_result_clean_up(&r);
}

/* Whether process `pid` is gone or a zombie (killed, not yet reaped by whoever inherited it). */
static bool s_dead_now(long pid) {
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return true;
    }
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close = strrchr(stat, ')');
    return close && (close[2] == 'Z' || close[2] == 'X');
}

/*
 * Whether `pid` dies: SIGKILL to a process group is delivered to each member
 * asynchronously, so a grandchild may need a moment after the call returns.
 * Polled for up to 5 s; a survivor is reported, not waited for.
 */
static bool s_dead(long pid) {
    for (int i = 0; i < 500; i++) {
        if (s_dead_now(pid)) {
            return true;
        }
        poll(NULL, 0, 10);
    }
    return false;
}

static volatile sig_atomic_t s_flag;

static void s_on_usr1(int sig) {
    (void)sig;
    s_flag = 1;
}

TEST(exec_cancel_flag_kills_the_command_and_its_group) {
    /* The command starts a grandchild, says its pid, then asks us (SIGUSR1) to cancel and waits forever. */
    struct sigaction action, old;
    memset(&action, 0, sizeof action);
    action.sa_handler = s_on_usr1;
    sigaction(SIGUSR1, &action, &old);
    s_flag = 0;
    struct anvil_exec_result r = {0};
    struct anvil_diag diag;
    struct anvil_exec_options options = {.cancel = &s_flag};
    s_sh[2] = "sleep 300 & echo $!; kill -USR1 $PPID; wait";
    CHECK_STATUS(anvil_exec_run(t->alloc, s_sh, NULL, 0, &options, &r, &diag), ANVIL_ECANCELED);
    CHECK_STR_EQ(diag.message, "cancelled: `sh` was killed");
    CHECK_EQ_INT(r.signal, 9);
    /* What it said before it was killed is kept; the grandchild died with the group. */
    CHECK(r.out.len > 1);
    long grandchild = strtol(r.out.data, NULL, 10);
    CHECK(grandchild > 1);
    CHECK(s_dead(grandchild));
    /* A flag already set starts nothing. */
    anvil_exec_result_clean_up(&r);
    CHECK_STATUS(anvil_exec_run(t->alloc, s_sh, NULL, 0, &options, &r, &diag), ANVIL_ECANCELED);
    CHECK_STR_EQ(diag.message, "cancelled before `sh` was started");
done:
    sigaction(SIGUSR1, &old, NULL);
    anvil_exec_result_clean_up(&r);
}

/* A clock that reads 0 until the command signals (SIGUSR1), then 10^9: the deadline passes while it runs. */
static uint64_t s_signalled_now(void *ctx) {
    (void)ctx;
    return s_flag ? 1000000000 : 0;
}

TEST(exec_deadline_holds_when_the_command_closes_its_outputs) {
    /* Closing stdout and stderr is no end: the command still runs, and the deadline still kills it. */
    struct sigaction action, old;
    memset(&action, 0, sizeof action);
    action.sa_handler = s_on_usr1;
    sigaction(SIGUSR1, &action, &old);
    s_flag = 0;
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    fake.env.now_ms = s_signalled_now;
    struct anvil_exec_result r = {0};
    struct anvil_diag diag;
    struct anvil_exec_options options = {.env = &fake.env, .deadline_ms = 5000};
    s_sh[2] = "exec >&- 2>&-; kill -USR1 $PPID; exec sleep 300";
    CHECK_STATUS(anvil_exec_run(t->alloc, s_sh, NULL, 0, &options, &r, &diag), ANVIL_ETIMEDOUT);
    CHECK_EQ_INT(r.signal, 9);
done:
    sigaction(SIGUSR1, &old, NULL);
    anvil_exec_result_clean_up(&r);
}

TEST(exec_returns_when_the_command_exits_whatever_it_left_running) {
    /* A background process still holds stdout: the command's exit is the end, with what it wrote. */
    struct anvil_exec_result r = {0};
    s_sh[2] = "sleep 300 & echo $! >&2; echo '{\"done\": true}'";
    CHECK_OK(anvil_exec_run(t->alloc, s_sh, NULL, 0, NULL, &r, NULL));
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_MEM_EQ(r.out.data, r.out.len, "{\"done\": true}\n");
    long left = r.err.len ? strtol(r.err.data, NULL, 10) : 0;
    CHECK(left > 1);
    /* It is not anvil's to kill; the test cleans up. */
    CHECK(!s_dead_now(left));
    kill((pid_t)left, SIGKILL);
done:
    anvil_exec_result_clean_up(&r);
}

TEST(exec_command_starts_with_default_signals) {
    /* An ignored SIGPIPE would survive exec: `yes | head -1` would then never end in the command. */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    struct anvil_exec_result r = {0};
    s_sh[2] = "yes | head -n 1; grep -E '^(SigBlk|SigIgn)' /proc/self/status >&2";
    CHECK_OK(anvil_exec_run(t->alloc, s_sh, NULL, 0, NULL, &r, NULL));
    CHECK_EQ_INT(r.exit_status, 0);
    CHECK_MEM_EQ(r.out.data, r.out.len, "y\n");
    /* SIGPIPE (bit 13) is neither blocked nor ignored in the command. */
    CHECK(r.err.len > 0);
    for (const char *line = r.err.data; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned long long mask = strtoull(line + 8, NULL, 16);
        CHECK((mask & (1ull << (SIGPIPE - 1))) == 0);
    }
done:
    signal(SIGPIPE, old);
    anvil_exec_result_clean_up(&r);
}

TEST(exec_reports_a_command_that_cannot_start) {
    char *argv[] = {"anvil-no-such-command-here", NULL};
    struct anvil_exec_result r = {0};
    struct anvil_diag diag;
    CHECK_STATUS(anvil_exec_run(t->alloc, argv, NULL, 0, NULL, &r, &diag), ANVIL_EIO);
    CHECK_STR_EQ(diag.message, "cannot run `anvil-no-such-command-here`: No such file or directory");
    char *none[] = {NULL};
    CHECK_STATUS(anvil_exec_run(t->alloc, none, NULL, 0, NULL, &r, &diag), ANVIL_EINVAL);
done:
    anvil_exec_result_clean_up(&r);
}

TEST(exec_parses_errors_from_stderr) {
    static const struct {
        const char *text, *code, *message;
        int status;
    } cases[] = {
        {"{\"code\": \"Throttling\", \"message\": \"slow down\", \"status\": 400}\n", "Throttling", "slow down", 400},
        {"{\"__type\": \"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException\", \"Message\": \"gone\"}",
         "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "gone", 0},
        {"{\"Code\": \"X\"}", "X", "", 0},
        {"\nAn error occurred (ResourceNotFoundException) when calling the DescribeTable operation: Requested "
         "resource not found: Table: t not found\n",
         "ResourceNotFoundException", "Requested resource not found: Table: t not found", 0},
        {"An error occurred (AccessDenied) when calling the X operation", "AccessDenied", "", 0},
        {"warning: something\nfatal: it broke\n\n", "", "fatal: it broke", 0},
        {"{\"no\": \"code\"}", "", "{\"no\": \"code\"}", 0},
        {"{broken", "", "{broken", 0},
        {"", "", "", 0},
        {"An error occurred () when", "", "An error occurred () when", 0},
    };
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_operation_error e;
        CHECK_OK(anvil_exec_parse_error(anvil_sv_from_cstr(cases[i].text), arena, &e));
        if (!anvil_sv_eq_cstr(e.code, cases[i].code) || !anvil_sv_eq_cstr(e.message, cases[i].message) ||
            e.http_status != cases[i].status) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: got code '%.*s' message '%.*s' status %d", i,
                            (int)e.code.len, e.code.ptr, (int)e.message.len, e.message.ptr, e.http_status);
        }
    }
done:
    anvil_arena_destroy(arena);
}

TEST(exec_operation_answers_outputs_and_errors) {
    char *ok_argv[] = {"sh", "-c", "cat", NULL};
    char *fail_argv[] = {"sh", "-c", "echo '{\"code\": \"Nope\", \"message\": \"no\"}' >&2; exit 1", NULL};
    char *garbage_argv[] = {"sh", "-c", "echo '{\"a\": '", NULL};
    char *quiet_argv[] = {"sh", "-c", "exit 4", NULL};
    struct anvil_exec_operation op = {ok_argv, {0}, t->alloc};
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *input = NULL;
    struct anvil_operation_reply reply = {0};
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_parse(t->alloc, "{\"Name\": \"n\"}", 13, NULL, &input, NULL));
    CHECK_OK(anvil_exec_operation(&op, anvil_json_doc_root(input), 0, arena, &reply));
    CHECK_EQ_INT(reply.http_status, 200);
    CHECK(anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(&reply.output, "Name")), "n"));
    op.argv = fail_argv;
    reply = (struct anvil_operation_reply){0};
    CHECK_STATUS(anvil_exec_operation(&op, NULL, 0, arena, &reply), ANVIL_ESERVICE);
    CHECK(anvil_sv_eq_cstr(reply.error.code, "Nope") && anvil_sv_eq_cstr(reply.error.message, "no"));
    op.argv = garbage_argv;
    reply = (struct anvil_operation_reply){0};
    CHECK_STATUS(anvil_exec_operation(&op, NULL, 0, arena, &reply), ANVIL_ESYNTAX);
    CHECK(anvil_sv_eq_cstr(reply.error.message, "the output of `sh` is not JSON: 1:6: expected a value, found end of "
                                                "input"));
    op.argv = quiet_argv;
    reply = (struct anvil_operation_reply){0};
    CHECK_STATUS(anvil_exec_operation(&op, NULL, 0, arena, &reply), ANVIL_ESERVICE);
    CHECK(anvil_sv_eq_cstr(reply.error.code, ""));
    CHECK(anvil_sv_eq_cstr(reply.error.message, "`sh` exited with status 4"));
done:
    anvil_json_doc_destroy(input);
    anvil_arena_destroy(arena);
}
