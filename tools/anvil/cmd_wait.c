/* anvil wait: run a model's waiter against an operation carried out by a command (--exec). */

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum {
    OPT_MAX_WAIT = 'w',
    OPT_MIN_DELAY = 1000,
    OPT_MAX_DELAY,
    OPT_MAX_ATTEMPTS,
    OPT_MANY,
    OPT_MAX_IN_FLIGHT,
    OPT_MAX_RPS,
    OPT_INPUT = 'i',
    OPT_OUTPUT = 'o',
    OPT_PROGRESS = 'p'
};

enum s_progress { PROGRESS_NONE, PROGRESS_LIVE, PROGRESS_JSON };

struct s_args {
    struct cli_exec_args exec; /* model, botocore, the waiter (exec.name), command */
    const char *input, *output, *progress, *many;
    uint64_t max_in_flight;
    double max_rps;
    uint64_t max_wait_ms;
    uint32_t min_delay_s, max_delay_s;
    uint64_t max_attempts;
};

static int s_parse_u32(const char *option, const char *text, uint64_t max, uint64_t *out) {
    if (anvil_sv_parse_u64(anvil_sv_from_cstr(text), max, out) != ANVIL_OK || *out == 0) {
        return cli_usage_error("wait", "%s takes a whole number from 1 to %llu, not '%s'", option,
                               (unsigned long long)max, text);
    }
    return CLI_EXIT_OK;
}

static int s_option(void *ctx, int id, const char *value) {
    struct s_args *a = ctx;
    uint64_t n = 0;
    int code = CLI_EXIT_OK;
    switch (id) {
    case OPT_MAX_WAIT:
        if (!cli_parse_seconds(value, UINT64_C(1) << 52, &a->max_wait_ms) || a->max_wait_ms == 0) {
            return cli_usage_error("wait", "--max-wait takes a number of seconds greater than 0, not '%s'", value);
        }
        break;
    case OPT_MIN_DELAY:
    case OPT_MAX_DELAY:
        code = s_parse_u32(id == OPT_MIN_DELAY ? "--min-delay" : "--max-delay", value, INT32_MAX, &n);
        *(id == OPT_MIN_DELAY ? &a->min_delay_s : &a->max_delay_s) = (uint32_t)n;
        break;
    case OPT_MAX_ATTEMPTS:
        code = s_parse_u32("--max-attempts", value, UINT32_MAX, &a->max_attempts);
        break;
    case OPT_INPUT:
        a->input = value;
        break;
    case OPT_MANY:
        a->many = value;
        break;
    case OPT_MAX_IN_FLIGHT:
        code = s_parse_u32("--max-in-flight", value, 4096, &a->max_in_flight);
        break;
    case OPT_MAX_RPS: {
        /* Whole or decimal requests per second, as --max-wait takes seconds (0.5 = one every 2 s). */
        uint64_t per_1000 = 0;
        if (!cli_parse_seconds(value, UINT64_C(1) << 40, &per_1000) || per_1000 == 0) {
            return cli_usage_error("wait", "--max-rps takes a number of requests per second greater than 0, not '%s'",
                                   value);
        }
        a->max_rps = (double)per_1000 / 1000.0;
        break;
    }
    case OPT_OUTPUT:
        a->output = value;
        break;
    case OPT_PROGRESS:
        a->progress = value;
        break;
    }
    return code;
}

const struct cli_option cli_wait_options[] = {
    CLI_OPTION_HELP,
    CLI_MODEL_OPTION,
    CLI_VALUE("botocore", 'b', CLI_OPT_BOTOCORE, "FILE", CLI_VALUE_FILE,
              "a botocore waiters-2.json that defines WAITER"),
    CLI_SERVICE_OPTION("the newest botocore data of NAME (ec2, s3, ...) from ANVIL_MODEL_PATH, ~/.aws/models, "
                       "python3-botocore or aws-cli v2's and pip's copies (docs/cli.md lists them)"),
    CLI_TEXT("max-wait", 'w', OPT_MAX_WAIT, "S", "the most time to wait, in seconds (required; e.g. 600 or 0.5)"),
    CLI_TEXT("min-delay", 0, OPT_MIN_DELAY, "S", "override the waiter's minimum delay (whole seconds)"),
    CLI_TEXT("max-delay", 0, OPT_MAX_DELAY, "S", "override the waiter's maximum delay (whole seconds)"),
    CLI_TEXT("max-attempts", 0, OPT_MAX_ATTEMPTS, "N", "stop after N calls (botocore waiters default to theirs)"),
    CLI_INPUT_OPTION(OPT_INPUT),
    CLI_VALUE("many", 0, OPT_MANY, "FILE", CLI_VALUE_FILE,
              "wait on every input of FILE at once (JSON lines, one input each; - = standard input): an outcome "
              "line per resource as it ends, exit status the worst outcome's"),
    CLI_TEXT("max-in-flight", 0, OPT_MAX_IN_FLIGHT, "N", "with --many: at most N requests at once (default 64)"),
    CLI_TEXT("max-rps", 0, OPT_MAX_RPS, "N",
             "with --many: at most N requests per second for the whole fleet, retries included (e.g. 20 or 0.5)"),
    CLI_CHOICE("output", 'o', OPT_OUTPUT, "FORMAT", "text json",
               "text (default: one line) or json (the whole outcome)"),
    CLI_QUERY_OPTION(
        "the last output through this JMESPath expression: json's \"output\", or a JSON line after text's"),
    CLI_CHOICE("progress", 'p', OPT_PROGRESS, "MODE", "auto json none",
               "auto (a live line on a terminal), json (a JSON line per attempt on standard error) or none"),
    CLI_EXEC_OPTION,
    CLI_HTTP_OPTIONS,
    CLI_OPTIONS_END,
};

static int s_parse(int argc, char **argv, struct s_args *a) {
    static const struct cli_exec_spec spec = {"wait", "WAITER", "waiters", cli_wait_options, true, false, s_option};
    int parsed = cli_parse_exec_command(argc, argv, &spec, a, &a->exec);
    if (parsed != CLI_EXIT_OK) {
        return parsed;
    }
    if (!a->max_wait_ms) {
        return cli_usage_error("wait", "--max-wait SECONDS is required: how long to wait at most");
    }
    if (a->many && (a->input || a->exec.command)) {
        return cli_usage_error("wait", "--many takes every input from its file and calls over HTTP: not with %s",
                               a->input ? "--input" : "--exec");
    }
    if (a->many && a->progress && strcmp(a->progress, "json") == 0) {
        return cli_usage_error("wait", "--progress json is per attempt of one wait; --many prints an outcome line "
                                       "per resource (--progress auto shows a live summary)");
    }
    if (a->many && a->output && strcmp(a->output, "json") != 0) {
        return cli_usage_error("wait", "--many prints one JSON line per resource: not with --output %s", a->output);
    }
    if (a->many) {
        /* A fleet shares one client: its adaptive limiter slows every wait down when the service throttles. */
        a->exec.default_retry_mode = "adaptive";
    }
    if ((a->max_in_flight || a->max_rps > 0) && !a->many) {
        return cli_usage_error("wait", "%s goes with --many", a->max_in_flight ? "--max-in-flight" : "--max-rps");
    }
    static const char *const outputs[] = {"text", "json", NULL};
    static const char *const progress[] = {"auto", "json", "none", NULL};
    if (a->output && strcmp(a->output, "text") != 0 && strcmp(a->output, "json") != 0) {
        const char *hint = cli_suggest(a->output, outputs);
        return cli_usage_error("wait", "--output takes text or json, not '%s'%s%s%s", a->output,
                               hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
    }
    if (a->progress && strcmp(a->progress, "auto") != 0 && strcmp(a->progress, "json") != 0 &&
        strcmp(a->progress, "none") != 0) {
        const char *hint = cli_suggest(a->progress, progress);
        return cli_usage_error("wait", "--progress takes auto, json or none, not '%s'%s%s%s", a->progress,
                               hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
    }
    return CLI_EXIT_OK;
}

/* ---- loading ---- */

static struct anvil_str_view s_waiter_at(const void *set, size_t index) {
    return anvil_waiter_set_at(set, index)->name;
}

static int s_find_waiter(const struct anvil_waiter_set *set, const char *name, const struct anvil_waiter **out) {
    *out = anvil_waiter_set_find(set, name, strlen(name));
    if (*out) {
        return CLI_EXIT_OK;
    }
    if (anvil_waiter_set_count(set) == 0) {
        return cli_usage_error("wait", "the model defines no waiters");
    }
    return cli_unknown_name("wait", name, anvil_waiter_set_count(set), s_waiter_at, set, "unknown waiter",
                            " ('anvil waiters FILE' lists them)");
}

/* ---- progress ---- */

struct s_observer {
    enum s_progress mode;
    const struct anvil_waiter *waiter;
    bool live_shown;
};

static void s_progress_json(const struct anvil_wait_progress *p) {
    struct anvil_buf line;
    anvil_buf_init(&line, NULL, 0);
    /* Acceptors are numbered from 1 in everything the CLI prints, as `anvil waiters` lists them. */
    char acceptor[24] = "null";
    if (p->acceptor >= 0) {
        snprintf(acceptor, sizeof acceptor, "%d", p->acceptor + 1);
    }
    int rc = anvil_buf_appendf(&line,
                               "{\"attempt\":%llu,\"state\":\"%s\",\"acceptor\":%s,\"elapsed_ms\":%llu,"
                               "\"next_delay_ms\":%llu,\"remaining_ms\":%llu",
                               (unsigned long long)p->attempt, anvil_waiter_state_name(p->state), acceptor,
                               (unsigned long long)p->elapsed_ms, (unsigned long long)p->next_delay_ms,
                               (unsigned long long)p->remaining_ms);
    if (rc == ANVIL_OK && p->error) {
        rc = anvil_buf_append_cstr(&line, ",\"error\":");
        if (rc == ANVIL_OK) {
            rc = anvil_json_write_string(p->error->code, 0, &line);
        }
    }
    if (rc == ANVIL_OK && (rc = anvil_buf_append_cstr(&line, "}\n")) == ANVIL_OK) {
        fwrite(line.data, 1, line.len, stderr);
        fflush(stderr);
    }
    anvil_buf_clean_up(&line);
}

static void s_observe(void *user_data, const struct anvil_wait_progress *p) {
    struct s_observer *o = user_data;
    if (o->mode == PROGRESS_JSON) {
        s_progress_json(p);
        return;
    }
    if (o->mode != PROGRESS_LIVE) {
        return;
    }
    /* The error code is the server's or the command's: escaped, so it cannot move the cursor or add lines. */
    struct anvil_buf line;
    anvil_buf_init(&line, NULL, 0);
    int rc = anvil_buf_append_cstr(&line, "\r\033[K");
    rc = rc == ANVIL_OK ? anvil_text_append_escaped(&line, o->waiter->name) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&line, ": attempt %llu: %s", (unsigned long long)p->attempt,
                                            anvil_waiter_state_name(p->state))
                        : rc;
    if (rc == ANVIL_OK && p->error) {
        rc = anvil_buf_append_cstr(&line, " (");
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(&line, p->error->code) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(&line, ')') : rc;
    }
    if (rc == ANVIL_OK && p->state == ANVIL_WAITER_RETRY) {
        rc = anvil_buf_appendf(&line, ", next in %.1f s, %.0f s left", (double)p->next_delay_ms / 1000.0,
                               (double)p->remaining_ms / 1000.0);
    }
    if (rc == ANVIL_OK) {
        fwrite(line.data, 1, line.len, stderr);
        fflush(stderr);
        o->live_shown = true;
    }
    anvil_buf_clean_up(&line);
}

/* ---- the outcome ---- */

int cli_wait_exit_code(enum anvil_wait_reason reason) {
    switch (reason) {
    case ANVIL_WAIT_REASON_SUCCESS:
        return CLI_EXIT_OK;
    case ANVIL_WAIT_REASON_FAILURE:
        return CLI_EXIT_FAILURE_STATE;
    case ANVIL_WAIT_REASON_TIMED_OUT:
    case ANVIL_WAIT_REASON_MAX_ATTEMPTS:
        return CLI_EXIT_TIMEOUT;
    case ANVIL_WAIT_REASON_CANCELLED:
        return cli_exit_for_cancel();
    default:
        return CLI_EXIT_SERVICE;
    }
}

int cli_wait_outcome_json(const struct anvil_waiter *w, const struct anvil_wait_result *r,
                          const struct anvil_json *output, struct anvil_str_view lead, struct anvil_buf *out) {
    const struct anvil_wait_outcome *o = &r->outcome;
    int rc = anvil_buf_append_byte(out, '{');
    rc = rc == ANVIL_OK ? anvil_buf_append_sv(out, lead) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\"waiter\":") : rc;
    if (rc == ANVIL_OK) {
        rc = anvil_json_write_string(w->name, 0, out);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(out, ",\"state\":\"%s\",\"reason\":\"%s\",\"attempts\":%llu,\"elapsed_ms\":%llu",
                               anvil_waiter_state_name(o->state), anvil_wait_reason_name(o->reason),
                               (unsigned long long)o->attempts, (unsigned long long)o->elapsed_ms);
    }
    if (rc == ANVIL_OK) {
        rc = o->acceptor >= 0 ? anvil_buf_appendf(out, ",\"acceptor\":%d", o->acceptor + 1)
                              : anvil_buf_append_cstr(out, ",\"acceptor\":null");
    }
    if (rc == ANVIL_OK && output) {
        rc = anvil_buf_append_cstr(out, ",\"output\":");
        if (rc == ANVIL_OK) {
            rc = anvil_json_write(output, 0, out);
        }
    }
    if (rc == ANVIL_OK && o->has_error) {
        rc = anvil_buf_append_cstr(out, ",\"error\":{\"code\":");
        if (rc == ANVIL_OK && (rc = anvil_json_write_string(o->error.code, 0, out)) == ANVIL_OK &&
            (rc = anvil_buf_append_cstr(out, ",\"message\":")) == ANVIL_OK &&
            (rc = anvil_json_write_string(o->error.message, 0, out)) == ANVIL_OK) {
            rc = o->error.http_status ? anvil_buf_appendf(out, ",\"status\":%d}", o->error.http_status)
                                      : anvil_buf_append_cstr(out, ",\"status\":null}");
        }
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_cstr(out, ",\"message\":");
    }
    if (rc == ANVIL_OK) {
        rc = r->message.len ? anvil_json_write_string(r->message, 0, out) : anvil_buf_append_cstr(out, "null");
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "}\n") : rc;
}

/*
 * The text outcome's one line; what came from the model, the server or the
 * command is escaped. With --query, `output` (the query's result) follows
 * as a JSON line.
 */
static int s_outcome_text(const struct anvil_waiter *w, const struct anvil_wait_result *r,
                          const struct anvil_json *output, struct anvil_buf *out) {
    const struct anvil_wait_outcome *o = &r->outcome;
    static const char *const words[] = {"pending",       "succeeded",
                                        "failed",        "failed on an unexpected error",
                                        "timed out",     "gave up after its attempt limit",
                                        "was cancelled", "is invalid"};
    int rc = anvil_text_append_escaped(out, w->name);
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out, " %s after %llu attempt%s (%.1f s)", words[o->reason],
                                            (unsigned long long)o->attempts, o->attempts == 1 ? "" : "s",
                                            (double)o->elapsed_ms / 1000.0)
                        : rc;
    if (rc == ANVIL_OK && o->acceptor >= 0 && o->reason == ANVIL_WAIT_REASON_FAILURE) {
        /* Numbered from 1, as `anvil waiters` lists them. */
        rc = anvil_buf_appendf(out, ": acceptor %d matched", o->acceptor + 1);
    }
    if (rc == ANVIL_OK && r->message.len) {
        rc = anvil_buf_append_cstr(out, ": ");
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(out, r->message) : rc;
    }
    if (rc == ANVIL_OK && o->has_error && o->reason != ANVIL_WAIT_REASON_SUCCESS) {
        rc = anvil_buf_appendf(out, "; %s error: ", o->reason == ANVIL_WAIT_REASON_FAILURE ? "the" : "last");
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(out, o->error.code) : rc;
        if (rc == ANVIL_OK && o->error.code.len && o->error.message.len) {
            rc = anvil_buf_append_cstr(out, ": ");
        }
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(out, o->error.message) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    if (rc == ANVIL_OK && output) {
        rc = anvil_json_write(output, 0, out);
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    }
    return rc;
}

/* ---- the command ---- */

/* A live line on standard error: --progress auto (the default) on a terminal. */
static bool s_live(const struct s_args *a) {
    return (!a->progress || strcmp(a->progress, "auto") == 0) && isatty(STDERR_FILENO);
}

/* The wait's options from the command line; Ctrl-C (and SIGTERM, SIGHUP) cancels. */
static struct anvil_wait_options s_wait_options(const struct s_args *a) {
    return (struct anvil_wait_options){a->max_wait_ms,  a->min_delay_s,     a->max_delay_s,
                                       a->max_attempts, &cli_cancel_signal, cli_env()};
}

static int s_run(const struct s_args *a, const struct anvil_waiter *waiter, const struct cli_target *target,
                 const struct anvil_jmespath *query) {
    const struct anvil_env *env = cli_env();
    const struct anvil_json *input = cli_target_input(target);
    struct s_observer observer = {PROGRESS_NONE, waiter, false};
    if (a->progress && strcmp(a->progress, "json") == 0) {
        observer.mode = PROGRESS_JSON;
    } else if (s_live(a)) {
        observer.mode = PROGRESS_LIVE;
    }
    struct anvil_exec_operation exec = {a->exec.command, {0, env, 0, &cli_cancel_signal}, NULL};
    struct anvil_wait_call call = {anvil_exec_operation, &exec, s_observe, &observer, env, NULL};
    struct anvil_client_operation http = {target->client, target->operation, waiter};
    if (target->client) {
        call.operation = anvil_client_operation_call;
        call.operation_data = &http;
    }
    struct anvil_wait_options options = s_wait_options(a);
    struct cli_signals signals;
    cli_signals_catch(&signals);
    struct anvil_wait_result result;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_wait(waiter, input, &options, &call, &result, &diag);
    cli_signals_restore(&signals);
    if (observer.live_shown) {
        fputc('\n', stderr);
    }
    int code;
    if (rc != ANVIL_OK) {
        cli_error("wait: %s", rc == ANVIL_EINVAL ? diag.message : anvil_status_str(rc));
        cli_debug_origin(&diag);
        code = rc == ANVIL_EINVAL ? CLI_EXIT_USAGE : cli_exit_for_status(rc);
    } else {
        struct anvil_buf out;
        anvil_buf_init(&out, NULL, 0);
        bool json = a->output && strcmp(a->output, "json") == 0;
        /* The output shown: the last one, through --query (text shows it only then), in the result's arena. */
        struct anvil_json shown;
        const struct anvil_json *output = result.outcome.has_output && (json || query) ? result.outcome.output : NULL;
        code = CLI_EXIT_OK;
        if (output && (code = cli_query_apply("wait", query, output, result.arena, &shown)) == CLI_EXIT_OK) {
            output = &shown;
        }
        if (code == CLI_EXIT_OK) {
            rc = json ? cli_wait_outcome_json(waiter, &result, output, anvil_sv("", 0), &out)
                      : s_outcome_text(waiter, &result, output, &out);
            code = rc == ANVIL_OK ? cli_write_output(out.data, out.len) : cli_exit_for_status(rc);
        }
        if (code == CLI_EXIT_OK) {
            code = cli_wait_exit_code(result.outcome.reason);
        }
        anvil_buf_clean_up(&out);
    }
    anvil_wait_result_clean_up(&result);
    return code;
}

int cli_cmd_wait(int argc, char **argv) {
    struct s_args a = {0};
    int code = s_parse(argc, argv, &a);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_waiter_set *set = NULL;
    struct cli_target target;
    const struct anvil_waiter *waiter = NULL;
    struct anvil_jmespath *query = NULL;
    if ((code = cli_query_compile("wait", a.exec.query, &query)) != CLI_EXIT_OK) {
        return code;
    }
    if ((code = cli_target_load(&target, "wait", &a.exec)) != CLI_EXIT_OK ||
        (code = cli_target_waiters(&target, &a.exec, &set)) != CLI_EXIT_OK ||
        (code = s_find_waiter(set, a.exec.name, &waiter)) != CLI_EXIT_OK ||
        (code = cli_target_read_input(&target, "--input", a.input)) != CLI_EXIT_OK ||
        (!a.exec.command && (code = cli_target_connect(&target, &a.exec, &waiter->operation, CLI_OPERATION_MODEL,
                                                       !a.many)) != CLI_EXIT_OK)) {
        goto done;
    }
    if (waiter->deprecated) {
        cli_error("warning: waiter '%.*s' is deprecated", (int)waiter->name.len, waiter->name.ptr);
    }
    if (a.many) {
        struct cli_wait_many many = {
            a.many,    waiter,    target.client, target.operation, query, s_wait_options(&a), (size_t)a.max_in_flight,
            a.max_rps, s_live(&a)};
        code = cli_wait_many_run(&many);
    } else {
        code = s_run(&a, waiter, &target, query);
    }
done:
    anvil_jmespath_destroy(query);
    anvil_waiter_set_destroy(set);
    cli_target_clean_up(&target);
    return code;
}
