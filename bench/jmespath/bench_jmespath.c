/*
 * JMESPath: anvil against python3-jmespath, jmespath.js, the community
 * TypeScript engine and go-jmespath, on the same documents and expressions.
 * Every engine measures every case the same way (one warm-up, batches of
 * ~50 ms, median of 7); the peers live in their own runtimes, so the engines
 * are interleaved round by round instead (a round runs each engine once over
 * every case, the first engine rotating), and anvil over the fastest peer is
 * reported per case as min-median-max over the rounds. Then whole-process
 * `anvil query` against `jp`, alternating, min-median-max over the pairs.
 * A benchmark, not a test: it reads the real clock. --smoke runs anvil alone,
 * one iteration per case, to check every case works (nothing is timed).
 *
 * Usage: bench_jmespath [--rounds N] WORK DATA BENCHMARKS_JSON PEERS_DIR GO_PEER NODE_MODULES ANVIL JP
 *        bench_jmespath --smoke WORK DATA BENCHMARKS_JSON
 */

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "anvil/anvil.h"
#include "bench_stats.h"
#include "read_file.h"

extern char **environ;

enum mode { MODE_INTERPRET, MODE_PARSE, MODE_FULL };
static const char *const s_mode_names[] = {"interpret", "parse", "full"};

#define MAX_CASES 32
#define MAX_PEERS 4
#define MAX_ROUNDS 20

struct bench_case {
    char name[64];
    char doc[4096];
    char *expr;
    enum mode mode;
    /* Seconds per operation, per round (0: the engine gave nothing). */
    double anvil[MAX_ROUNDS];
    double peer[MAX_PEERS][MAX_ROUNDS];
};

/* The batch length and the batches per measurement (smoke: one iteration, once). */
static double s_batch_seconds = 0.05;
static int s_batches = 7;

static struct bench_case s_cases[MAX_CASES];
static size_t s_count;

static const char *const s_peer_names[MAX_PEERS] = {"python 1.0.1", "jmespath.js", "community 1.3", "go 0.4"};

static double s_now(void) {
    return bench_now();
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
    long iterations = s_batch_seconds == 0 ? 1 : once < 1e-7 ? 500000 : (long)(s_batch_seconds / once);
    iterations = iterations < 1 ? 1 : iterations;
    double samples[7];
    for (int s = 0; s < s_batches; s++) {
        start = s_now();
        for (long i = 0; i < iterations; i++) {
            if (s_anvil_op(c, &st) != ANVIL_OK) {
                fprintf(stderr, "anvil: %s failed\n", c->name);
                exit(1);
            }
        }
        samples[s] = (s_now() - start) / (double)iterations;
    }
    double median = bench_median(samples, (size_t)s_batches);
    anvil_arena_destroy(st.arena);
    anvil_jmespath_destroy(st.expr);
    anvil_json_doc_destroy(st.doc);
    return median;
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

static void s_run_peer(int peer, const char *command, int round) {
    fprintf(stderr, "  round %d: %s ...\n", round + 1, s_peer_names[peer]);
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
                s_cases[i].peer[peer][round] = strtod(tab + 1, NULL);
            }
        }
    }
    if (!p || pclose(p) != 0) {
        fprintf(stderr, "  %s did not finish cleanly; its missing cases show as '-'\n", s_peer_names[peer]);
    }
}

/* Wall time of running argv to completion (stdout to /dev/null), in seconds; -1 when it failed. */
static double s_process_time(char *const argv[]) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    double start = s_now();
    pid_t pid;
    int status = 0;
    bool ok = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) == 0 && waitpid(pid, &status, 0) >= 0 &&
              WIFEXITED(status) && WEXITSTATUS(status) == 0;
    posix_spawn_file_actions_destroy(&actions);
    return ok ? s_now() - start : -1;
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

/* The median of one engine's rounds for a case (0 when it gave nothing). */
static double s_median_of(const double *rounds, int n) {
    double v[MAX_ROUNDS];
    size_t k = 0;
    for (int r = 0; r < n; r++) {
        if (rounds[r] > 0) {
            v[k++] = rounds[r];
        }
    }
    return bench_median(v, k);
}

static void s_add_cases(const char *work, const char *people, const char *ec2, const char *suite) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/small.json", work);
    FILE *f = fopen(path, "w");
    fputs("{\"foo\": {\"bar\": {\"baz\": \"value\"}}, \"other\": [1, 2, 3]}", f);
    fclose(f);
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
        exit(1);
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
}

/* Whole process: `anvil query -f` against `jp -f`, alternating (who goes first swaps), `pairs` times. */
static void s_whole_process(const char *anvil, const char *jp, const char *people, const char *ec2, int pairs) {
    printf("\nWhole process: read the file, parse, compile, evaluate, print (%d alternating pairs)\n\n", pairs);
    printf("%-24s %12s %12s %20s\n", "case", "anvil query", "jp -f", "anvil faster");
    const char *files[2] = {people, ec2};
    const char *exprs[2] = {"people[?age > `20`].name", "Reservations[].Instances[].State.Name"};
    const char *names[2] = {"(b) people filter", "(c) ec2 flatten"};
    for (int i = 0; i < 2; i++) {
        char *a_argv[] = {(char *)anvil, "query", "-f", (char *)files[i], (char *)exprs[i], NULL};
        char *j_argv[] = {(char *)jp, "-f", (char *)files[i], (char *)exprs[i], NULL};
        double ta[MAX_ROUNDS], tj[MAX_ROUNDS], ratio[MAX_ROUNDS];
        int ok = 1;
        for (int r = 0; r < pairs && ok; r++) {
            if (r % 2 == 0) {
                ta[r] = s_process_time(a_argv);
                tj[r] = s_process_time(j_argv);
            } else {
                tj[r] = s_process_time(j_argv);
                ta[r] = s_process_time(a_argv);
            }
            ok = ta[r] > 0 && tj[r] > 0;
            ratio[r] = ok ? tj[r] / ta[r] : 0;
        }
        printf("%-24s", names[i]);
        if (!ok) {
            printf(" %12s %12s %20s\n", "-", "-", "(a run failed)");
            continue;
        }
        char range[48];
        s_print_time(bench_median(ta, (size_t)pairs));
        s_print_time(bench_median(tj, (size_t)pairs));
        printf(" %20s\n", bench_range_text(bench_range_of(ratio, (size_t)pairs), range, sizeof range));
    }
}

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int rounds = bench_take_int(&argc, argv, "--rounds", smoke ? 1 : 3, 1, MAX_ROUNDS);
    if (smoke ? argc != 4 : argc != 9) {
        fprintf(stderr,
                "usage: %s [--rounds N] WORK DATA BENCHMARKS_JSON PEERS_DIR GO_PEER NODE_MODULES ANVIL JP\n"
                "       %s --smoke WORK DATA BENCHMARKS_JSON\n",
                argv[0], argv[0]);
        return 2;
    }
    const char *work = argv[1], *data = argv[2], *suite = argv[3];
    char people[4096], ec2[4096];
    snprintf(people, sizeof(people), "%s/people.json", data);
    snprintf(ec2, sizeof(ec2), "%s/ec2.json", data);
    s_add_cases(work, people, ec2, suite);
    if (smoke) {
        s_batch_seconds = 0;
        s_batches = 1;
        for (size_t i = 0; i < s_count; i++) {
            s_measure_anvil(&s_cases[i]);
            free(s_cases[i].expr);
        }
        printf("anvil ran all %zu cases\n", s_count);
        return 0;
    }
    const char *peers = argv[4], *go_peer = argv[5], *node_modules = argv[6], *anvil = argv[7], *jp = argv[8];
    char plan[4096], commands[MAX_PEERS][16384];
    snprintf(plan, sizeof(plan), "%s/plan.json", work);
    s_write_plan(plan);
    snprintf(commands[0], sizeof commands[0], "/usr/bin/python3 %s/peer.py %s", peers, plan);
    snprintf(commands[1], sizeof commands[1], "NODE_PATH=/usr/share/nodejs node %s/peer.js %s jmespath", peers, plan);
    snprintf(commands[2], sizeof commands[2], "NODE_PATH=%s node %s/peer.js %s @jmespath-community/jmespath",
             node_modules, peers, plan);
    snprintf(commands[3], sizeof commands[3], "%s %s", go_peer, plan);
    for (int r = 0; r < rounds; r++) {
        /* Engine 0 is anvil, 1.. the peers; who goes first rotates with the round. */
        for (int k = 0; k <= MAX_PEERS; k++) {
            int e = (k + r) % (MAX_PEERS + 1);
            if (e == 0) {
                fprintf(stderr, "  round %d: anvil ...\n", r + 1);
                for (size_t i = 0; i < s_count; i++) {
                    s_cases[i].anvil[r] = s_measure_anvil(&s_cases[i]);
                }
            } else {
                s_run_peer(e - 1, commands[e - 1], r);
            }
        }
    }

    printf("JMESPath in-process evaluation: median per operation over %d interleaved rounds (parse = compile only, "
           "full = compile + evaluate); anvil vs the fastest peer as min-median-max over the rounds\n\n",
           rounds);
    printf("%-36s %-9s %12s", "case", "mode", "anvil");
    for (int p = 0; p < MAX_PEERS; p++) {
        printf(" %12s", s_peer_names[p]);
    }
    printf(" %20s\n", "anvil vs fastest");
    for (size_t i = 0; i < s_count; i++) {
        struct bench_case *c = &s_cases[i];
        printf("%-36.36s %-9s", c->name, s_mode_names[c->mode]);
        s_print_time(s_median_of(c->anvil, rounds));
        for (int p = 0; p < MAX_PEERS; p++) {
            s_print_time(s_median_of(c->peer[p], rounds));
        }
        double ratio[MAX_ROUNDS];
        size_t n = 0;
        for (int r = 0; r < rounds; r++) {
            double best = 0;
            for (int p = 0; p < MAX_PEERS; p++) {
                best = c->peer[p][r] > 0 && (best == 0 || c->peer[p][r] < best) ? c->peer[p][r] : best;
            }
            if (best > 0 && c->anvil[r] > 0) {
                ratio[n++] = best / c->anvil[r];
            }
        }
        char range[48] = "-";
        if (n) {
            bench_range_text(bench_range_of(ratio, n), range, sizeof range);
        }
        printf(" %20s\n", range);
    }
    s_whole_process(anvil, jp, people, ec2, 2 * rounds + 1);
    for (size_t i = 0; i < s_count; i++) {
        free(s_cases[i].expr);
    }
    return 0;
}
