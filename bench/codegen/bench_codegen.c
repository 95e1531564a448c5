/*
 * Waiter matchers compiled to C (`anvil gen`'s JMESPath compiler) against
 * anvil's own interpreter on the same acceptors (bench/codegen/cases.h):
 * EC2 InstanceRunning over a DescribeInstances answer of 17,842 instances
 * (bench_gen_docs' ec2.json) and DynamoDB/ECS acceptors over typical
 * answers. Both sides run in one process, alternating who goes first run
 * by run; every run checks they decide the same, and counts the heap
 * allocations a compiled match makes (the goal is none). Ratios are
 * min-median-max over the runs. The whole walks of the all-running
 * document are also set against their floor, the same reads at fixed
 * member positions: where memory bounds a walk, no code measures more than
 * the interpreter over that floor.
 *
 * Usage: bench_codegen [--smoke] [--runs N] DATA_DIR
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "bench_stats.h"
#include "cases.h"
#include "read_file.h"

extern int (*const bench_matchers[])(const struct anvil_json *, struct anvil_arena *, bool *);

#define MAX_RUNS 32

static const char s_dynamodb[] =
    "{\"Table\": {\"AttributeDefinitions\": [{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}], "
    "\"TableName\": \"orders\", \"KeySchema\": [{\"AttributeName\": \"id\", \"KeyType\": \"HASH\"}], "
    "\"TableStatus\": \"ACTIVE\", \"CreationDateTime\": 1764140000.123, \"ProvisionedThroughput\": "
    "{\"NumberOfDecreasesToday\": 0, \"ReadCapacityUnits\": 0, \"WriteCapacityUnits\": 0}, \"TableSizeBytes\": "
    "10240, \"ItemCount\": 42, \"TableArn\": \"arn:aws:dynamodb:us-east-1:123456789012:table/orders\", "
    "\"TableId\": \"1f5a9c4e-5b1d-4a0e-9f7b-2c3d4e5f6a7b\", \"BillingModeSummary\": {\"BillingMode\": "
    "\"PAY_PER_REQUEST\"}, \"DeletionProtectionEnabled\": false}}";

/* Three services, steady (one deployment each, running == desired), and no failures. */
static const char s_ecs[] =
    "{\"services\": ["
    "{\"serviceName\": \"web\", \"status\": \"ACTIVE\", \"desiredCount\": 3, \"runningCount\": 3, \"pendingCount\": 0, "
    "\"deployments\": [{\"id\": \"ecs-svc/1\", \"status\": \"PRIMARY\", \"desiredCount\": 3, \"runningCount\": 3}]},"
    "{\"serviceName\": \"api\", \"status\": \"ACTIVE\", \"desiredCount\": 2, \"runningCount\": 2, \"pendingCount\": 0, "
    "\"deployments\": [{\"id\": \"ecs-svc/2\", \"status\": \"PRIMARY\", \"desiredCount\": 2, \"runningCount\": 2}]},"
    "{\"serviceName\": \"worker\", \"status\": \"ACTIVE\", \"desiredCount\": 5, \"runningCount\": 5, \"pendingCount\": "
    "0, \"deployments\": [{\"id\": \"ecs-svc/3\", \"status\": \"PRIMARY\", \"desiredCount\": 5, \"runningCount\": 5}]}"
    "], \"failures\": []}";

/* A counting allocator over the default one: heap allocations made while a match runs. */
static atomic_size_t s_allocations;

static void *s_acquire(struct anvil_allocator *a, size_t size) {
    atomic_fetch_add(&s_allocations, 1);
    return anvil_mem_acquire(a->impl, size);
}

static void *s_realloc(struct anvil_allocator *a, void *ptr, size_t size) {
    atomic_fetch_add(&s_allocations, 1);
    struct anvil_allocator *parent = a->impl;
    return parent->mem_realloc(parent, ptr, size);
}

static void s_release(struct anvil_allocator *a, void *ptr) {
    anvil_mem_release(a->impl, ptr);
}

/* The waiter runtime's comparators (src/behavior/waiter_match.c), over what the interpreter gave. */
static bool s_compare(enum anvil_waiter_comparator cmp, const struct anvil_json *v, const struct anvil_json *e) {
    switch (cmp) {
    case ANVIL_CMP_STRING_EQUALS:
        return anvil_json_is_string(v) && anvil_sv_eq(anvil_json_string(v), anvil_json_string(e));
    case ANVIL_CMP_BOOLEAN_EQUALS:
        return anvil_json_is_bool(v) && anvil_json_bool(v) == anvil_json_bool(e);
    case ANVIL_CMP_ALL_STRING_EQUALS:
    case ANVIL_CMP_ANY_STRING_EQUALS: {
        bool all = cmp == ANVIL_CMP_ALL_STRING_EQUALS;
        size_t n = anvil_json_is_array(v) ? anvil_json_len(v) : 0;
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json *x = anvil_json_array_at(v, i);
            bool equal = anvil_json_is_string(x) && anvil_sv_eq(anvil_json_string(x), anvil_json_string(e));
            if (equal != all) {
                return !all;
            }
        }
        return all && n > 0;
    }
    default:
        return false;
    }
}

struct s_case {
    const struct bench_codegen_case *c;
    const struct anvil_json *doc;
    struct anvil_jmespath *expr;
    struct anvil_json_doc *expected;
    int (*compiled)(const struct anvil_json *, struct anvil_arena *, bool *);
};

/*
 * The loop alone: a matcher that does nothing, called the same way (an arena
 * reset and an indirect call per match), so the tables can give each side's
 * time net of what every match costs the harness.
 */
__attribute__((noinline)) static int s_empty_match(const struct anvil_json *subject, struct anvil_arena *scratch,
                                                   bool *matched) {
    (void)subject;
    (void)scratch;
    *matched = false;
    return ANVIL_OK;
}
static int (*s_empty)(const struct anvil_json *, struct anvil_arena *, bool *) = s_empty_match;

/*
 * The least any matcher of `Reservations[].Instances[].State.Name` can do
 * over the all-running document: each instance's State.Name read at the
 * member positions of the first instance (no lookup, no key compared) and
 * its word compared with "running". What bounds it is memory: two cache
 * lines an instance (its State member, State's Name member). Returns how
 * many names were "running"; the caller checks that is every instance, so
 * the fixed positions held.
 */
struct s_floor {
    size_t instances, state, name; /* member positions in a reservation, an instance and a State */
};

__attribute__((noinline)) static size_t s_floor_walk(const struct anvil_json *root, struct s_floor at) {
    static const uint64_t running = ANVIL_JSON_WORD('r', 'u', 'n', 'n', 'i', 'n', 'g');
    const struct anvil_json *reservations = anvil_json_object_get(root, "Reservations", 12);
    size_t n = anvil_json_len(reservations), count = 0;
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json *instances =
            &anvil_json_object_at(anvil_json_array_at(reservations, i), at.instances)->value;
        size_t m = anvil_json_len(instances);
        for (size_t j = 0; j < m; j++) {
            const struct anvil_json *state = &anvil_json_object_at(anvil_json_array_at(instances, j), at.state)->value;
            count += anvil_json_string_equals_word(&anvil_json_object_at(state, at.name)->value, "running", 7, running);
        }
    }
    return count;
}

/* The position of member `key` in object `v` (SIZE_MAX if none). */
static size_t s_position(const struct anvil_json *v, const char *key) {
    const struct anvil_json *found = anvil_json_object_get(v, key, strlen(key));
    for (size_t i = 0; found && i < anvil_json_len(v); i++) {
        if (&anvil_json_object_at(v, i)->value == found) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* The instances of the document, and where the floor walk finds their State.Name. */
static size_t s_floor_of(const struct anvil_json *root, struct s_floor *at) {
    const struct anvil_json *reservations = anvil_json_object_get(root, "Reservations", 12);
    const struct anvil_json *first = anvil_json_array_at(reservations, 0);
    at->instances = s_position(first, "Instances");
    const struct anvil_json *instance =
        at->instances == SIZE_MAX ? NULL : anvil_json_array_at(&anvil_json_object_at(first, at->instances)->value, 0);
    at->state = s_position(instance, "State");
    at->name = at->state == SIZE_MAX ? SIZE_MAX : s_position(&anvil_json_object_at(instance, at->state)->value, "Name");
    size_t total = 0;
    for (size_t i = 0; i < anvil_json_len(reservations); i++) {
        const struct anvil_json *instances =
            anvil_json_object_get(anvil_json_array_at(reservations, i), "Instances", 9);
        total += anvil_json_is_array(instances) ? anvil_json_len(instances) : 0;
    }
    return at->name == SIZE_MAX ? 0 : total;
}

/* One side, `iterations` times; the decision of the last one in *decided. Seconds per match. */
static double s_time(const struct s_case *k, bool compiled, struct anvil_arena *arena, long iterations, bool *decided) {
    double start = bench_now();
    for (long i = 0; i < iterations; i++) {
        anvil_arena_reset(arena);
        if (compiled) {
            if (k->compiled(k->doc, arena, decided) != ANVIL_OK) {
                *decided = false;
            }
        } else {
            struct anvil_json value = anvil_json_make_null();
            if (anvil_jmespath_search(k->expr, k->doc, arena, &value, NULL) != ANVIL_OK) {
                value = anvil_json_make_null();
            }
            *decided = s_compare(k->c->comparator, &value, anvil_json_doc_root(k->expected));
        }
    }
    return (bench_now() - start) / (double)iterations;
}

/* The floor walk, `iterations` times; seconds per walk. A walk that misses an instance sets *status. */
static double s_time_floor(const struct anvil_json *root, struct s_floor at, size_t instances, long iterations,
                           int *status) {
    size_t found = 0;
    double start = bench_now();
    for (long i = 0; i < iterations; i++) {
        found = s_floor_walk(root, at);
    }
    double t = (bench_now() - start) / (double)iterations;
    if (found != instances) {
        fprintf(stderr, "bench_codegen: the floor walk found %zu of %zu instances running\n", found, instances);
        *status = 1;
    }
    return t;
}

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", smoke ? 1 : 5, 1, MAX_RUNS);
    if (argc != 2) {
        fprintf(stderr, "usage: %s [--smoke] [--runs N] DATA_DIR (with bench_gen_docs' ec2.json)\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/ec2.json", argv[1]);
    size_t len = 0;
    char *ec2_text = anvil_test_read_file(path, &len);
    struct anvil_json_doc *ec2 = NULL, *ddb = NULL, *ecs = NULL;
    if (!ec2_text || anvil_json_parse(NULL, ec2_text, len, NULL, &ec2, NULL) != ANVIL_OK ||
        anvil_json_parse(NULL, s_dynamodb, sizeof s_dynamodb - 1, NULL, &ddb, NULL) != ANVIL_OK ||
        anvil_json_parse(NULL, s_ecs, sizeof s_ecs - 1, NULL, &ecs, NULL) != ANVIL_OK) {
        fprintf(stderr, "bench_codegen: cannot read %s (run bench_gen_docs)\n", path);
        return 1;
    }
    /* The same answer once every instance is running: a succeeding wait's last poll walks all of it. */
    static const char *const states[] = {"\"Name\": \"pending\"}", "\"Name\": \"stopped\"}",
                                         "\"Name\": \"terminated\"}"};
    for (size_t s = 0; s < sizeof states / sizeof states[0]; s++) {
        size_t n = strlen(states[s]);
        for (char *at = ec2_text; (at = strstr(at, states[s])) != NULL; at += n) {
            /* "running" is as long as "pending" and shorter than the others: pad with spaces inside the JSON. */
            memset(at, ' ', n);
            memcpy(at, "\"Name\": \"running\"}", 18);
        }
    }
    struct anvil_json_doc *running = NULL;
    if (anvil_json_parse(NULL, ec2_text, len, NULL, &running, NULL) != ANVIL_OK) {
        fprintf(stderr, "bench_codegen: the all-running document does not parse\n");
        return 1;
    }
    free(ec2_text);
    struct anvil_allocator counting = {s_acquire, s_realloc, s_release, anvil_allocator_default()};
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(&counting, NULL, &arena) != ANVIL_OK) {
        return 1;
    }
    int status = 0;
    struct s_floor floor_at;
    size_t floor_instances = s_floor_of(anvil_json_doc_root(running), &floor_at);
    struct anvil_buf floor_rows;
    anvil_buf_init(&floor_rows, NULL, 0);
    printf("| case | interpreted | compiled | compiled over interpreted (min-median-max) | the same net of the loop "
           "| heap allocations per compiled match |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < BENCH_CODEGEN_CASES; i++) {
        struct s_case k = {&bench_codegen_cases[i], NULL, NULL, NULL, bench_matchers[i]};
        k.doc = anvil_json_doc_root(strcmp(k.c->document, "ec2") == 0           ? ec2
                                    : strcmp(k.c->document, "ec2-running") == 0 ? running
                                    : strcmp(k.c->document, "dynamodb") == 0    ? ddb
                                                                                : ecs);
        if (anvil_jmespath_compile(NULL, k.c->path, strlen(k.c->path), NULL, &k.expr, NULL) != ANVIL_OK ||
            anvil_json_parse(NULL, k.c->expected, strlen(k.c->expected), NULL, &k.expected, NULL) != ANVIL_OK) {
            return 1;
        }
        /* Enough iterations for about 50 ms a side (a few in smoke mode). */
        bool a = false, b = false;
        double probe = s_time(&k, false, arena, 3, &a);
        long iterations = smoke ? 2 : (long)(0.05 / (probe > 1e-9 ? probe : 1e-9)) + 1;
        double ti[MAX_RUNS], tc[MAX_RUNS], tl[MAX_RUNS], ratio[MAX_RUNS], net[MAX_RUNS];
        struct s_case loop = k;
        loop.compiled = s_empty;
        bool unused = false;
        size_t allocations = 0;
        bool floor_case = floor_instances && strcmp(k.c->document, "ec2-running") == 0 && !smoke;
        double tf[MAX_RUNS];
        for (int r = 0; r < runs; r++) {
            if (floor_case) {
                tf[r] = s_time_floor(k.doc, floor_at, floor_instances, iterations, &status);
            }
            if (r % 2) {
                tc[r] = s_time(&k, true, arena, iterations, &b);
                ti[r] = s_time(&k, false, arena, iterations, &a);
            } else {
                ti[r] = s_time(&k, false, arena, iterations, &a);
                size_t before = atomic_load(&s_allocations);
                tc[r] = s_time(&k, true, arena, iterations, &b);
                allocations = atomic_load(&s_allocations) - before;
            }
            tl[r] = s_time(&loop, true, arena, iterations, &unused);
            ratio[r] = ti[r] / tc[r];
            net[r] = tc[r] > tl[r] ? (ti[r] - tl[r]) / (tc[r] - tl[r]) : 0;
            if (a != b) {
                fprintf(stderr, "bench_codegen: %s: compiled %d, interpreted %d\n", k.c->name, b, a);
                status = 1;
            }
        }
        struct bench_range rr = bench_range_of(ratio, (size_t)runs), rn = bench_range_of(net, (size_t)runs);
        if (floor_case) {
            double over_c[MAX_RUNS], over_i[MAX_RUNS];
            for (int r = 0; r < runs; r++) {
                over_c[r] = tc[r] / tf[r];
                over_i[r] = ti[r] / tf[r];
            }
            char c_text[64], i_text[64];
            (void)anvil_buf_appendf(&floor_rows, "| %s | %.3g µs | %s | %s |\n", k.c->name,
                                    bench_median(tf, (size_t)runs) * 1e6,
                                    bench_range_text(bench_range_of(over_c, (size_t)runs), c_text, sizeof c_text),
                                    bench_range_text(bench_range_of(over_i, (size_t)runs), i_text, sizeof i_text));
        }
        double mi = bench_median(ti, (size_t)runs), mc = bench_median(tc, (size_t)runs);
        double ml = bench_median(tl, (size_t)runs);
        char text[64], net_text[96], range[64];
        snprintf(net_text, sizeof net_text, "%s (loop %.3g µs)", bench_range_text(rn, range, sizeof range), ml * 1e6);
        printf("| %s (%s) | %.3g µs | %.3g µs | %s | %s | %.2f |\n", k.c->name, a ? "match" : "no match", mi * 1e6,
               mc * 1e6, smoke ? "(smoke)" : bench_range_text(rr, text, sizeof text), smoke ? "(smoke)" : net_text,
               (double)allocations / (double)iterations);
        anvil_jmespath_destroy(k.expr);
        anvil_json_doc_destroy(k.expected);
    }
    if (floor_rows.len) {
        printf("\nThe whole walks against their floor: every State.Name read at fixed member positions, no lookup "
               "(the least any matcher can do; memory bounds it). Interpreted over the floor is the most any compiled "
               "matcher could measure.\n\n| case | floor | compiled over the floor | interpreted over the floor "
               "|\n|---|---|---|---|\n%.*s",
               (int)floor_rows.len, floor_rows.data);
    }
    anvil_buf_clean_up(&floor_rows);
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(ec2);
    anvil_json_doc_destroy(running);
    anvil_json_doc_destroy(ddb);
    anvil_json_doc_destroy(ecs);
    return status;
}
