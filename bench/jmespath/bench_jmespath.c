/*
 * JMESPath: anvil against python3-jmespath, jmespath.js, the community
 * TypeScript engine and go-jmespath, on the same documents and expressions,
 * in one run. Every engine uses the same method: one warm-up, batches of
 * ~50 ms, median of 7. Then whole-process `anvil query` against `jp`.
 * A benchmark, not a test: it reads the real clock.
 *
 * Usage: bench_jmespath WORK_DIR DATA_DIR BENCHMARKS_JSON PEERS_DIR GO_PEER NODE_MODULES ANVIL JP
 */

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "anvil/anvil.h"
#include "read_file.h"

extern char **environ;

enum mode { MODE_INTERPRET, MODE_PARSE, MODE_FULL };
static const char *const s_mode_names[] = {"interpret", "parse", "full"};

#define MAX_CASES 32
#define MAX_PEERS 4

struct bench_case {
    char name[64];
    char doc[4096];
    char *expr;
    enum mode mode;
    double anvil;
    double peer[MAX_PEERS];
};

static struct bench_case s_cases[MAX_CASES];
static size_t s_count;

static const char *const s_peer_names[MAX_PEERS] = {"python 1.0.1", "jmespath.js", "community 1.3", "go 0.4"};

static double s_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int s_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void s_add(const char *name, const char *doc, const char *expr, enum mode mode) {
    struct bench_case *c = &s_cases[s_count++];
    snprintf(c->name, sizeof(c->name), "%s", name);
    snprintf(c->doc, sizeof(c->doc), "%s", doc);
    c->expr = strdup(expr);
    c->mode = mode;
}

/* One anvil operation for case `c`; returns 0 on success. */
struct anvil_state {
    struct anvil_json_doc *doc;
    struct anvil_jmespath *expr;
    struct anvil_arena *arena;
};

static int s_anvil_op(struct bench_case *c, struct anvil_state *st) {
    struct anvil_json result;
    if (c->mode == MODE_INTERPRET) {
        anvil_arena_reset(st->arena);
        return anvil_jmespath_search(st->expr, anvil_json_doc_root(st->doc), st->arena, &result, NULL);
    }
    struct anvil_jmespath *expr = NULL;
    int rc = anvil_jmespath_compile(NULL, c->expr, strlen(c->expr), NULL, &expr, NULL);
    if (rc == ANVIL_OK && c->mode == MODE_FULL) {
        anvil_arena_reset(st->arena);
        rc = anvil_jmespath_search(expr, anvil_json_doc_root(st->doc), st->arena, &result, NULL);
    }
    anvil_jmespath_destroy(expr);
    return rc;
}

static double s_measure_anvil(struct bench_case *c) {
    struct anvil_state st = {0};
    size_t len;
    char *text = anvil_test_read_file(c->doc, &len);
    if (!text || anvil_json_parse(NULL, text, len, NULL, &st.doc, NULL) != ANVIL_OK ||
        anvil_jmespath_compile(NULL, c->expr, strlen(c->expr), NULL, &st.expr, NULL) != ANVIL_OK ||
        anvil_arena_new(NULL, NULL, &st.arena) != ANVIL_OK) {
        fprintf(stderr, "anvil: cannot set up %s\n", c->name);
        exit(1);
    }
    free(text);
    s_anvil_op(c, &st);
    double start = s_now();
    if (s_anvil_op(c, &st) != ANVIL_OK) {
        fprintf(stderr, "anvil: %s failed\n", c->name);
        exit(1);
    }
    double once = s_now() - start;
    long iterations = once < 1e-7 ? 500000 : (long)(0.05 / once);
    iterations = iterations < 1 ? 1 : iterations;
    double samples[7];
    for (int s = 0; s < 7; s++) {
        start = s_now();
        for (long i = 0; i < iterations; i++) {
            s_anvil_op(c, &st);
        }
        samples[s] = (s_now() - start) / (double)iterations;
    }
    qsort(samples, 7, sizeof(double), s_cmp);
    anvil_arena_destroy(st.arena);
    anvil_jmespath_destroy(st.expr);
    anvil_json_doc_destroy(st.doc);
    return samples[3];
}

static void s_write_plan(const char *path) {
    FILE *f = fopen(path, "w");
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, 0);
    anvil_buf_append_byte(&buf, '[');
    for (size_t i = 0; i < s_count; i++) {
        anvil_buf_appendf(&buf, "%s{\"name\": ", i ? "," : "");
        anvil_json_write_string(anvil_sv_from_cstr(s_cases[i].name), 0, &buf);
        anvil_buf_append_cstr(&buf, ", \"doc\": ");
        anvil_json_write_string(anvil_sv_from_cstr(s_cases[i].doc), 0, &buf);
        anvil_buf_append_cstr(&buf, ", \"expr\": ");
        anvil_json_write_string(anvil_sv_from_cstr(s_cases[i].expr), 0, &buf);
        anvil_buf_appendf(&buf, ", \"mode\": \"%s\"}\n", s_mode_names[s_cases[i].mode]);
    }
    anvil_buf_append_byte(&buf, ']');
    fwrite(buf.data, 1, buf.len, f);
    fclose(f);
    anvil_buf_clean_up(&buf);
}

static void s_run_peer(int peer, const char *command) {
    fprintf(stderr, "  running %s ...\n", s_peer_names[peer]);
    FILE *p = popen(command, "r");
    char line[512];
    while (p && fgets(line, sizeof(line), p)) {
        char *tab = strchr(line, '\t');
        if (!tab) {
            continue;
        }
        *tab = '\0';
        for (size_t i = 0; i < s_count; i++) {
            if (strcmp(s_cases[i].name, line) == 0) {
                s_cases[i].peer[peer] = strtod(tab + 1, NULL);
            }
        }
    }
    if (!p || pclose(p) != 0) {
        fprintf(stderr, "  %s did not finish cleanly; its missing cases show as '-'\n", s_peer_names[peer]);
    }
}

/* Median wall time of running argv to completion (stdout to /dev/null), in seconds. */
static double s_process_time(char *const argv[], int runs) {
    double samples[16];
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    for (int r = 0; r < runs; r++) {
        double start = s_now();
        pid_t pid;
        int status = 0;
        if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0 || waitpid(pid, &status, 0) < 0 ||
            !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            posix_spawn_file_actions_destroy(&actions);
            return -1;
        }
        samples[r] = s_now() - start;
    }
    posix_spawn_file_actions_destroy(&actions);
    qsort(samples, (size_t)runs, sizeof(double), s_cmp);
    return samples[runs / 2];
}

static void s_print_time(double seconds) {
    if (seconds <= 0) {
        printf(" %12s", "-");
    } else if (seconds < 1e-3) {
        printf(" %10.2fus", seconds * 1e6);
    } else {
        printf(" %10.2fms", seconds * 1e3);
    }
}

int main(int argc, char **argv) {
    if (argc != 9) {
        fprintf(stderr, "usage: %s WORK DATA BENCHMARKS_JSON PEERS_DIR GO_PEER NODE_MODULES ANVIL JP\n", argv[0]);
        return 2;
    }
    const char *work = argv[1], *data = argv[2], *suite = argv[3], *peers = argv[4], *go_peer = argv[5],
               *node_modules = argv[6], *anvil = argv[7], *jp = argv[8];
    char path[4096], people[4096], ec2[4096];
    snprintf(path, sizeof(path), "%s/small.json", work);
    FILE *f = fopen(path, "w");
    fputs("{\"foo\": {\"bar\": {\"baz\": \"value\"}}, \"other\": [1, 2, 3]}", f);
    fclose(f);
    snprintf(people, sizeof(people), "%s/people.json", data);
    snprintf(ec2, sizeof(ec2), "%s/ec2.json", data);
    s_add("(a) foo.bar.baz", path, "foo.bar.baz", MODE_INTERPRET);
    s_add("(b) people filter", people, "people[?age > `20`].name", MODE_INTERPRET);
    s_add("(c) ec2 flatten", ec2, "Reservations[].Instances[].State.Name", MODE_INTERPRET);
    s_add("(d) ec2 waiter", ec2, "length(Reservations[].Instances[?State.Name != 'running'][]) == `0`", MODE_INTERPRET);

    /* (e) the bench cases of the official suite's benchmarks.json. */
    size_t len;
    char *text = anvil_test_read_file(suite, &len);
    struct anvil_json_doc *doc = NULL;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, NULL) != ANVIL_OK) {
        fprintf(stderr, "cannot read %s\n", suite);
        return 1;
    }
    const struct anvil_json *suites = anvil_json_doc_root(doc);
    for (size_t s = 0; s < anvil_json_len(suites); s++) {
        const struct anvil_json *given = anvil_json_object_get_cstr(anvil_json_array_at(suites, s), "given");
        const struct anvil_json *cases = anvil_json_object_get_cstr(anvil_json_array_at(suites, s), "cases");
        char given_path[4096];
        snprintf(given_path, sizeof(given_path), "%s/given-%zu.json", work, s);
        struct anvil_buf g;
        anvil_buf_init(&g, NULL, 0);
        anvil_json_write(given, 0, &g);
        f = fopen(given_path, "w");
        fwrite(g.data, 1, g.len, f);
        fclose(f);
        anvil_buf_clean_up(&g);
        for (size_t i = 0; i < anvil_json_len(cases) && s_count < MAX_CASES; i++) {
            const struct anvil_json *c = anvil_json_array_at(cases, i);
            const char *bench = anvil_json_string_ptr(anvil_json_object_get_cstr(c, "bench"));
            char name[64];
            snprintf(name, sizeof(name), "(e) %s", anvil_json_string_ptr(anvil_json_object_get_cstr(c, "comment")));
            s_add(name, given_path, anvil_json_string_ptr(anvil_json_object_get_cstr(c, "expression")),
                  strcmp(bench, "parse") == 0 ? MODE_PARSE : MODE_FULL);
        }
    }
    anvil_json_doc_destroy(doc);
    free(text);

    fprintf(stderr, "  running anvil ...\n");
    for (size_t i = 0; i < s_count; i++) {
        s_cases[i].anvil = s_measure_anvil(&s_cases[i]);
    }
    char plan[4096], command[16384];
    snprintf(plan, sizeof(plan), "%s/plan.json", work);
    s_write_plan(plan);
    snprintf(command, sizeof(command), "/usr/bin/python3 %s/peer.py %s", peers, plan);
    s_run_peer(0, command);
    snprintf(command, sizeof(command), "NODE_PATH=/usr/share/nodejs node %s/peer.js %s jmespath", peers, plan);
    s_run_peer(1, command);
    snprintf(command, sizeof(command), "NODE_PATH=%s node %s/peer.js %s @jmespath-community/jmespath", node_modules,
             peers, plan);
    s_run_peer(2, command);
    snprintf(command, sizeof(command), "%s %s", go_peer, plan);
    s_run_peer(3, command);

    printf("JMESPath in-process evaluation (median per operation; parse = compile only, full = compile + "
           "evaluate)\n\n");
    printf("%-36s %-9s %12s", "case", "mode", "anvil");
    for (int p = 0; p < MAX_PEERS; p++) {
        printf(" %12s", s_peer_names[p]);
    }
    printf(" %10s\n", "anvil vs best");
    for (size_t i = 0; i < s_count; i++) {
        struct bench_case *c = &s_cases[i];
        printf("%-36.36s %-9s", c->name, s_mode_names[c->mode]);
        s_print_time(c->anvil);
        double best = 0;
        for (int p = 0; p < MAX_PEERS; p++) {
            s_print_time(c->peer[p]);
            if (c->peer[p] > 0 && (best == 0 || c->peer[p] < best)) {
                best = c->peer[p];
            }
        }
        printf(" %9.1fx\n", best > 0 ? best / c->anvil : 0.0);
    }

    printf("\nWhole process: read the file, parse, compile, evaluate, print (median of 5 runs)\n\n");
    printf("%-24s %12s %12s %10s\n", "case", "anvil query", "jp -f", "anvil is");
    const char *files[2] = {people, ec2};
    const char *exprs[2] = {"people[?age > `20`].name", "Reservations[].Instances[].State.Name"};
    const char *names[2] = {"(b) people filter", "(c) ec2 flatten"};
    for (int i = 0; i < 2; i++) {
        char *a_argv[] = {(char *)anvil, "query", "-f", (char *)files[i], (char *)exprs[i], NULL};
        char *j_argv[] = {(char *)jp, "-f", (char *)files[i], (char *)exprs[i], NULL};
        double ta = s_process_time(a_argv, 5), tj = s_process_time(j_argv, 5);
        printf("%-24s", names[i]);
        s_print_time(ta);
        s_print_time(tj);
        printf(" %8.1fx faster\n", ta > 0 && tj > 0 ? tj / ta : 0.0);
    }
    for (size_t i = 0; i < s_count; i++) {
        free(s_cases[i].expr);
    }
    return 0;
}
