/*
 * Waiter costs (issue 6): one state-machine step (anvil_wait_next() plus
 * anvil_wait_report_output() running DynamoDB's TableExists acceptors on a
 * CREATING table), and 100,000 concurrent waits driven from one wait group
 * on a fake clock: time per step and bytes per wait. The peer is botocore's
 * waiter loop on the same waiters-2 definition (peer_botocore.py), with its
 * sleep stubbed out, in its own process: the two alternate round by round and
 * the ratio is min-median-max over the rounds. Goals: under 1 us per step,
 * under 512 bytes per wait. A benchmark, not a test: it reads the real clock
 * (--smoke: a few steps and a few peer attempts, to check both work).
 * Usage: bench_waiter [--rounds N] [--smoke] WAITERS_2_JSON PEER_SCRIPT
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "bench_stats.h"
#include "read_file.h"

static double s_now(void) {
    return bench_now();
}

static const char s_creating[] =
    "{\"Table\": {\"TableName\": \"orders\", \"TableStatus\": \"CREATING\", \"ItemCount\": 0}}";

static int s_die(const char *what) {
    fprintf(stderr, "bench_waiter: %s\n", what);
    return 1;
}

/* ns per step for one wait stepped `steps` times (median of 5 runs). */
static double s_single(const struct anvil_waiter *w, const struct anvil_json *output, struct anvil_arena *scratch,
                       const struct anvil_env *env, size_t steps) {
    double runs[5];
    for (int run = 0; run < 5; run++) {
        struct anvil_wait_state s;
        struct anvil_wait_options options = {.max_wait_ms = UINT64_MAX / 4, .max_attempts = UINT32_MAX, .env = env};
        anvil_wait_start(&s, w, NULL, &options, 0, NULL);
        uint64_t now = 0;
        double start = s_now();
        for (size_t i = 0; i < steps; i++) {
            uint64_t at = now;
            while (anvil_wait_next(&s, now, &at) == ANVIL_WAIT_SLEEP) {
                now = at;
            }
            anvil_wait_report_output(&s, now, output, 200, scratch);
            anvil_arena_reset(scratch);
        }
        runs[run] = (s_now() - start) * 1e9 / (double)steps;
    }
    return bench_median(runs, 5);
}

/* 100,000 waits in one group; each succeeds on its tenth attempt (a ResourceNotFound error never comes). */
static int s_many(const struct anvil_waiter *w, const struct anvil_json *creating, const struct anvil_json *active,
                  struct anvil_arena *scratch, const struct anvil_env *env, size_t N) {
    enum { ATTEMPTS = 10 };
    struct anvil_wait_state *states = calloc(N, sizeof *states);
    /* The attempts each wait has reported (the state is opaque; reading its outcome each step would cost more). */
    uint8_t *reported = calloc(N, 1);
    if (!states || !reported) {
        return s_die("out of memory");
    }
    struct anvil_wait_group group;
    anvil_wait_group_init(&group, NULL);
    struct anvil_wait_options options = {.max_wait_ms = 24 * 3600 * 1000, .env = env};
    for (size_t i = 0; i < N; i++) {
        anvil_wait_start(&states[i], w, NULL, &options, i % 1000, NULL);
        if (anvil_wait_group_schedule(&group, &states[i], 0) != ANVIL_OK) {
            return s_die("out of memory");
        }
    }
    uint64_t now = 0, steps = 0, done = 0;
    double start = s_now();
    for (;;) {
        enum anvil_wait_action action;
        uint64_t wake;
        struct anvil_wait_state *s = anvil_wait_group_pop(&group, now, &action, &wake);
        if (!s) {
            if (wake == UINT64_MAX) {
                break;
            }
            now = wake;
            continue;
        }
        size_t i = (size_t)(s - states);
        bool last = ++reported[i] == ATTEMPTS;
        anvil_wait_report_output(s, now, last ? active : creating, 200, scratch);
        anvil_arena_reset(scratch);
        steps++;
        if (last) {
            struct anvil_wait_outcome outcome;
            anvil_wait_outcome(s, &outcome);
            done += outcome.reason == ANVIL_WAIT_REASON_SUCCESS && outcome.attempts == ATTEMPTS;
        }
        anvil_wait_group_schedule(&group, s, now);
    }
    double seconds = s_now() - start;
    size_t heap_bytes = anvil_wait_group_memory(&group);
    double per_wait = (double)sizeof(struct anvil_wait_state) + (double)heap_bytes / (double)N;
    printf("  %zu concurrent waits, one thread: %llu steps in %.0f ms = %.0f ns per step (pop, acceptors, reschedule); "
           "%llu succeeded\n",
           N, (unsigned long long)steps, seconds * 1e3, seconds * 1e9 / (double)steps, (unsigned long long)done);
    printf("  memory per wait: %zu bytes of state + %.0f bytes of timer heap = %.0f bytes (goal < 512: %s)\n",
           sizeof(struct anvil_wait_state), (double)heap_bytes / (double)N, per_wait,
           per_wait < 512 ? "met" : "MISSED");
    anvil_wait_group_clean_up(&group);
    free(reported);
    free(states);
    return done == N ? 0 : s_die("not every wait succeeded");
}

static double s_peer(const char *script, const char *waiters_path, int attempts) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s' %d 2>/dev/null", script, waiters_path, attempts);
    FILE *p = popen(cmd, "r");
    double ns = 0;
    if (p) {
        if (fscanf(p, "botocore_ns_per_attempt %lf", &ns) != 1) {
            ns = 0;
        }
        pclose(p);
    }
    return ns;
}

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int rounds = bench_take_int(&argc, argv, "--rounds", smoke ? 1 : 5, 1, 50);
    if (argc != 3) {
        fprintf(stderr, "usage: %s [--rounds N] [--smoke] WAITERS_2_JSON PEER_SCRIPT\n", argv[0]);
        return 2;
    }
    size_t len;
    char *text = anvil_test_read_file(argv[1], &len);
    struct anvil_waiter_set *set = NULL;
    struct anvil_json_doc *creating = NULL, *active = NULL;
    struct anvil_arena *scratch = NULL;
    if (!text || anvil_waiter_set_from_botocore(NULL, text, len, &set, NULL) != ANVIL_OK) {
        return s_die("cannot load the waiters-2 file");
    }
    free(text);
    const struct anvil_waiter *w = anvil_waiter_set_find(set, "TableExists", 11);
    static const char s_active[] =
        "{\"Table\": {\"TableName\": \"orders\", \"TableStatus\": \"ACTIVE\", \"ItemCount\": 0}}";
    if (!w || anvil_json_parse(NULL, s_creating, strlen(s_creating), NULL, &creating, NULL) != ANVIL_OK ||
        anvil_json_parse(NULL, s_active, strlen(s_active), NULL, &active, NULL) != ANVIL_OK ||
        anvil_arena_new(NULL, NULL, &scratch) != ANVIL_OK) {
        return s_die("setup failed");
    }
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    printf("== waiter (DynamoDB TableExists from botocore's waiters-2.json, fake clock)\n");
    /* Alternating rounds: anvil in this process, then botocore's loop in its own (who goes first swaps). */
    double anvil_ns[50], peer_ns[50], ratio[50];
    size_t ratios = 0;
    for (int r = 0; r < rounds; r++) {
        if (r % 2 == 1) {
            peer_ns[r] = s_peer(argv[2], argv[1], smoke ? 20 : 20000);
        }
        anvil_ns[r] = s_single(w, anvil_json_doc_root(creating), scratch, &fake.env, smoke ? 100 : 2000000);
        if (r % 2 == 0) {
            peer_ns[r] = s_peer(argv[2], argv[1], smoke ? 20 : 20000);
        }
        if (peer_ns[r] > 0) {
            ratio[ratios++] = peer_ns[r] / anvil_ns[r];
        }
    }
    if (smoke) {
        printf("  anvil stepped; botocore's loop %s\n", ratios ? "ran" : "did not run (python3-botocore?)");
    } else {
        double anvil_median = bench_median(anvil_ns, (size_t)rounds);
        printf("  one step (next + report + acceptors): anvil %.0f ns, median of %d rounds (goal < 1000: %s)",
               anvil_median, rounds, anvil_median < 1000 ? "met" : "MISSED");
        if (ratios) {
            char range[48];
            double copy[50];
            memcpy(copy, peer_ns, sizeof copy);
            printf(", botocore %.0f ns per attempt: anvil %s faster (min-median-max)\n",
                   bench_median(copy, (size_t)rounds),
                   bench_range_text(bench_range_of(ratio, ratios), range, sizeof range));
        } else {
            printf(", botocore peer not available (python3-botocore)\n");
        }
    }
    int rc = s_many(w, anvil_json_doc_root(creating), anvil_json_doc_root(active), scratch, &fake.env,
                    smoke ? 1000 : 100000);
    anvil_arena_destroy(scratch);
    anvil_json_doc_destroy(creating);
    anvil_json_doc_destroy(active);
    anvil_waiter_set_destroy(set);
    return rc;
}
