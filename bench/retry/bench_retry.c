/*
 * Retry storms, simulated (issue 7): a deterministic discrete-event
 * simulation on a fake clock. 1,000 clients each start an (idempotent)
 * operation every second against a service that serves 1,200 requests a
 * second, throttles what it cannot serve, and drops to 30% of that for 60 s.
 * Compares no retries, standard 2.0, standard 2.1 and adaptive: goodput
 * (operations that succeeded / operations offered), amplification (requests
 * sent / operations offered), p99 latency of successful operations, and the
 * time after the outage until a second's operations succeed at 99% again.
 * Every client has its own strategy, as each SDK client does.
 * Usage: bench_retry [SECONDS]
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"

enum { CLIENTS = 1000 };
#define S_CAPACITY_PER_S 1200
#define S_OUTAGE_START_MS 60000
#define S_OUTAGE_END_MS 120000
#define S_OUTAGE_FACTOR 0.3
#define S_SLOT_MS 100
#define S_SERVE_MS 20
#define S_THROTTLE_MS 5

enum s_kind { EV_START, EV_SEND, EV_RESPONSE };

struct s_event {
    uint64_t at;
    uint32_t client;
    uint8_t kind;
    bool throttled;
};

struct s_heap {
    struct s_event *items;
    size_t count, cap;
};

static void s_push(struct s_heap *h, struct s_event e) {
    if (h->count == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 4096;
        h->items = realloc(h->items, h->cap * sizeof *h->items);
        if (!h->items) {
            abort();
        }
    }
    size_t i = h->count++;
    while (i > 0 && h->items[(i - 1) / 2].at > e.at) {
        h->items[i] = h->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->items[i] = e;
}

static struct s_event s_pop(struct s_heap *h) {
    struct s_event top = h->items[0], last = h->items[--h->count];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->count) {
            break;
        }
        if (c + 1 < h->count && h->items[c + 1].at < h->items[c].at) {
            c++;
        }
        if (last.at <= h->items[c].at) {
            break;
        }
        h->items[i] = h->items[c];
        i = c;
    }
    if (h->count) {
        h->items[i] = last;
    }
    return top;
}

struct s_client {
    struct anvil_retry_strategy *strategy;
    struct anvil_retry_token token;
    bool busy;
    uint64_t op_start;
};

struct s_result {
    const char *name;
    uint64_t offered, succeeded, sent, skipped;
    double p99_ms;
    double recover_s;
};

static int s_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void s_run(const char *name, const struct anvil_retry_options *options, uint64_t duration_ms, bool throttles,
                  struct s_result *out) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 12345);
    struct anvil_retry_options o = *options;
    o.env = &fake.env;
    struct s_client *clients = calloc(CLIENTS, sizeof *clients);
    struct s_heap heap = {0};
    size_t seconds = duration_ms / 1000 + 1;
    uint32_t *offered_by_s = calloc(seconds, sizeof *offered_by_s);
    uint32_t *ok_by_s = calloc(seconds, sizeof *ok_by_s);
    size_t lat_cap = (size_t)CLIENTS * seconds;
    uint32_t *latencies = malloc(lat_cap * sizeof *latencies);
    size_t lat_count = 0;
    uint64_t slots = duration_ms / S_SLOT_MS + 1000;
    uint32_t *served = calloc(slots, sizeof *served);
    if (!clients || !offered_by_s || !ok_by_s || !latencies || !served) {
        abort();
    }
    memset(out, 0, sizeof *out);
    out->name = name;
    for (uint32_t c = 0; c < CLIENTS; c++) {
        anvil_retry_strategy_new(NULL, &o, &clients[c].strategy);
        uint64_t offset;
        anvil_env_random_range(&fake.env, 0, 999, &offset);
        s_push(&heap, (struct s_event){offset, c, EV_START, false});
    }
    while (heap.count) {
        struct s_event e = s_pop(&heap);
        struct s_client *cl = &clients[e.client];
        if (e.kind == EV_START) {
            if (e.at + 1000 < duration_ms) {
                s_push(&heap, (struct s_event){e.at + 1000, e.client, EV_START, false});
            }
            out->offered++;
            offered_by_s[e.at / 1000]++;
            if (cl->busy) {
                out->skipped++; /* still busy with the last operation: this one is lost */
                continue;
            }
            cl->busy = true;
            cl->op_start = e.at;
            struct anvil_retry_call call = {.partition = "svc", .idempotent = true};
            anvil_retry_token_init(&cl->token, cl->strategy, &call);
            e.kind = EV_SEND;
        }
        if (e.kind == EV_SEND) {
            uint64_t wait = 0;
            anvil_retry_before_attempt(&cl->token, e.at, &wait);
            if (wait > 0) {
                s_push(&heap, (struct s_event){e.at + wait, e.client, EV_SEND, false});
                continue;
            }
            out->sent++;
            uint64_t slot = e.at / S_SLOT_MS;
            double factor = e.at >= S_OUTAGE_START_MS && e.at < S_OUTAGE_END_MS ? S_OUTAGE_FACTOR : 1.0;
            uint32_t limit = (uint32_t)(S_CAPACITY_PER_S * factor * S_SLOT_MS / 1000);
            bool throttled = slot >= slots || served[slot] >= limit;
            if (!throttled) {
                served[slot]++;
            }
            s_push(&heap,
                   (struct s_event){e.at + (throttled ? S_THROTTLE_MS : S_SERVE_MS), e.client, EV_RESPONSE, throttled});
            continue;
        }
        /* EV_RESPONSE */
        struct anvil_retry_response r = {.retry_after_ms = -1};
        if (e.throttled && throttles) {
            r.http_status = 400;
            r.code = ANVIL_SV("ThrottlingException");
        } else if (e.throttled) {
            r.http_status = 503;
            r.code = ANVIL_SV("ServiceUnavailable");
        } else {
            r.success = true;
            r.http_status = 200;
        }
        struct anvil_retry_decision d;
        anvil_retry_after_attempt(&cl->token, e.at, &r, &d);
        if (d.action == ANVIL_RETRY_AGAIN) {
            s_push(&heap, (struct s_event){e.at + d.delay_ms, e.client, EV_SEND, false});
            continue;
        }
        if (d.action == ANVIL_RETRY_SUCCEED) {
            out->succeeded++;
            ok_by_s[cl->op_start / 1000]++;
            if (lat_count < lat_cap) {
                latencies[lat_count++] = (uint32_t)(e.at - cl->op_start);
            }
        }
        anvil_retry_token_clean_up(&cl->token);
        cl->busy = false;
    }
    qsort(latencies, lat_count, sizeof *latencies, s_cmp_u32);
    out->p99_ms = lat_count ? latencies[(size_t)((double)lat_count * 0.99)] : 0;
    out->recover_s = -1;
    for (size_t s = S_OUTAGE_END_MS / 1000; s + 1 < seconds; s++) {
        if (offered_by_s[s] && ok_by_s[s] >= offered_by_s[s] * 0.99) {
            out->recover_s = (double)(s * 1000 - S_OUTAGE_END_MS) / 1000.0;
            break;
        }
    }
    for (uint32_t c = 0; c < CLIENTS; c++) {
        if (clients[c].busy) {
            anvil_retry_token_clean_up(&clients[c].token);
        }
        anvil_retry_strategy_release(clients[c].strategy);
    }
    free(clients);
    free(heap.items);
    free(offered_by_s);
    free(ok_by_s);
    free(latencies);
    free(served);
}

int main(int argc, char **argv) {
    uint64_t seconds = argc > 1 ? strtoull(argv[1], NULL, 10) : 240;
    if (seconds < 130) {
        seconds = 130;
    }
    struct {
        const char *name;
        struct anvil_retry_options options;
    } modes[] = {
        {"no retries", {.max_attempts = 1}},
        {"standard 2.0", {.behavior = ANVIL_RETRY_BEHAVIOR_2_0}},
        {"standard 2.1", {.behavior = ANVIL_RETRY_BEHAVIOR_2_1}},
        {"adaptive 2.1", {.mode = ANVIL_RETRY_ADAPTIVE}},
    };
    for (int variant = 0; variant < 2; variant++) {
        bool throttles = variant == 0;
        printf("== retry storm: %d clients x 1 operation/s, capacity %d/s, 30%% from %d s to %d s, %llu s simulated;"
               " the service answers what it cannot serve with %s\n",
               CLIENTS, S_CAPACITY_PER_S, S_OUTAGE_START_MS / 1000, S_OUTAGE_END_MS / 1000, (unsigned long long)seconds,
               throttles ? "400 ThrottlingException" : "503 ServiceUnavailable");
        printf("  %-14s %9s %14s %9s %22s\n", "mode", "goodput", "amplification", "p99 ms", "recovered after (s)");
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            struct s_result r;
            s_run(modes[i].name, &modes[i].options, seconds * 1000, throttles, &r);
            char recovered[32];
            if (r.recover_s < 0) {
                snprintf(recovered, sizeof recovered, "not within the run");
            } else {
                snprintf(recovered, sizeof recovered, "%.0f", r.recover_s);
            }
            printf("  %-14s %8.1f%% %13.2fx %9.0f %22s\n", r.name, 100.0 * (double)r.succeeded / (double)r.offered,
                   (double)r.sent / (double)r.offered, r.p99_ms, recovered);
        }
    }
    return 0;
}
