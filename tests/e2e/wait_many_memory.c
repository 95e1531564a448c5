/*
 * The memory of many waits at once (issue 22: it must stay flat): the bytes
 * anvil_client_wait_many() holds through the client's allocator at their
 * peak, against the scripted CloudFormation fake on 127.0.0.1, on a fake
 * clock. Flat means linear in the waits and not in their polls, and small
 * per wait:
 *   1,000 and 10,000 waits, each stack ready on its 3rd poll: the peak per
 *   wait stays under 4 KiB, and 10,000 cost at most 12 times 1,000;
 *   1,000 waits whose stacks need 30 polls: at most a quarter more than 3.
 * Every wait must succeed and be reported exactly once.
 * Usage: wait_many_memory MODEL PORT   (wait_many_memory.sh starts the fake)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"

/* ---- a counting allocator: live bytes and their peak ---- */

struct s_count {
    struct anvil_allocator base;
    size_t live, peak;
};

#define S_HEADER 16 /* keeps max_align_t alignment */

static void *s_acquire(struct anvil_allocator *a, size_t size) {
    struct s_count *c = (struct s_count *)a;
    unsigned char *p = malloc(size + S_HEADER);
    if (!p) {
        return NULL;
    }
    memcpy(p, &size, sizeof size);
    c->live += size;
    c->peak = c->live > c->peak ? c->live : c->peak;
    return p + S_HEADER;
}

static void s_release(struct anvil_allocator *a, void *ptr) {
    struct s_count *c = (struct s_count *)a;
    unsigned char *p = (unsigned char *)ptr - S_HEADER;
    size_t size;
    memcpy(&size, p, sizeof size);
    c->live -= size;
    free(p);
}

static void *s_realloc(struct anvil_allocator *a, void *ptr, size_t size) {
    struct s_count *c = (struct s_count *)a;
    unsigned char *p = (unsigned char *)ptr - S_HEADER;
    size_t old;
    memcpy(&old, p, sizeof old);
    unsigned char *q = realloc(p, size + S_HEADER);
    if (!q) {
        return NULL;
    }
    memcpy(q, &size, sizeof size);
    c->live = c->live - old + size;
    c->peak = c->live > c->peak ? c->live : c->peak;
    return q + S_HEADER;
}

/* ---- the fleet ---- */

static const char *s_env(void *ctx, const char *name) {
    (void)ctx;
    return strcmp(name, "AWS_ACCESS_KEY_ID") == 0       ? "AKIDEXAMPLE"
           : strcmp(name, "AWS_SECRET_ACCESS_KEY") == 0 ? "fake-secret"
                                                        : NULL;
}

struct s_seen {
    unsigned char *reports;
    size_t count, successes;
};

static void s_done(void *ctx, const struct anvil_wait_many_done *done) {
    struct s_seen *seen = ctx;
    seen->reports[done->index]++;
    seen->count++;
    seen->successes += done->result->outcome.reason == ANVIL_WAIT_REASON_SUCCESS;
}

/* Waits on stacks PREFIX1..PREFIXn; the peak bytes through the client's allocator, or 0 after a failure said. */
static size_t s_fleet(const struct anvil_model *model, const char *endpoint, const char *prefix, size_t n) {
    struct s_count count = {{s_acquire, s_realloc, s_release, NULL}, 0, 0};
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 1000, 1);
    struct anvil_client_options o = {
        .region = "us-east-1", .getenv = s_env, .endpoint_url = endpoint, .env = &fake.env};
    struct anvil_client *client = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    char *texts = malloc(n * 48);
    struct anvil_json *values = calloc(n, sizeof *values);
    const struct anvil_json **inputs = calloc(n, sizeof *inputs);
    struct anvil_arena *arena = NULL;
    struct s_seen seen = {calloc(n, 1), 0, 0};
    size_t peak = 0;
    int rc = texts && values && inputs && seen.reports ? anvil_arena_new(NULL, NULL, &arena) : ANVIL_ENOMEM;
    for (size_t i = 0; rc == ANVIL_OK && i < n; i++) {
        int len = snprintf(texts + i * 48, 48, "{\"StackName\": \"%s%zu\"}", prefix, i + 1);
        rc = anvil_json_parse_into(arena, NULL, texts + i * 48, (size_t)len, NULL, &values[i], NULL);
        inputs[i] = &values[i];
    }
    rc = rc == ANVIL_OK ? anvil_client_new(&count.base, model, NULL, &o, &client, &diag) : rc;
    /* The client's own memory (its endpoint rules, its retry strategy) is not the fleet's. */
    size_t before = count.live;
    count.peak = count.live;
    struct anvil_wait_many_options options = {
        .wait = {.max_wait_ms = 3600000, .min_delay_s = 5, .max_delay_s = 5}, .on_done = s_done, .ctx = &seen};
    rc = rc == ANVIL_OK ? anvil_client_wait_many(client, "StackCreateComplete", inputs, n, &options, &diag) : rc;
    if (rc != ANVIL_OK) {
        fprintf(stderr, "FAIL: %s%zu: %s: %s\n", prefix, n, anvil_status_name(rc), diag.message);
    } else if (seen.count != n || seen.successes != n) {
        fprintf(stderr, "FAIL: %s: %zu reports, %zu successes for %zu waits\n", prefix, seen.count, seen.successes, n);
    } else {
        peak = count.peak - before;
        for (size_t i = 0; i < n; i++) {
            if (seen.reports[i] != 1) {
                fprintf(stderr, "FAIL: %s%zu reported %d times\n", prefix, i + 1, seen.reports[i]);
                peak = 0;
            }
        }
    }
    anvil_client_destroy(client);
    if (peak && count.live != 0) {
        fprintf(stderr, "FAIL: %zu bytes still held after the client was destroyed\n", count.live);
        peak = 0;
    }
    anvil_arena_destroy(arena);
    free(seen.reports);
    free(inputs);
    free(values);
    free(texts);
    return peak;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL PORT\n", argv[0]);
        return 2;
    }
    char endpoint[64];
    snprintf(endpoint, sizeof endpoint, "http://127.0.0.1:%s", argv[2]);
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    if (anvil_model_load_file(NULL, argv[1], NULL, &model, &diag) != ANVIL_OK) {
        fprintf(stderr, "FAIL: %s: %s\n", argv[1], diag.message);
        return 1;
    }
    size_t thousand = s_fleet(model, endpoint, "c", 1000);
    size_t ten_thousand = thousand ? s_fleet(model, endpoint, "a", 10000) : 0;
    size_t thirty_polls = ten_thousand ? s_fleet(model, endpoint, "b", 1000) : 0;
    anvil_model_destroy(model);
    if (!thirty_polls) {
        return 1;
    }
    printf("peak bytes held: 1,000 waits %zu (%zu a wait); 10,000 waits %zu (%zu a wait); "
           "1,000 waits of 30 polls %zu\n",
           thousand, thousand / 1000, ten_thousand, ten_thousand / 10000, thirty_polls);
    int failed = 0;
    if (ten_thousand / 10000 >= 4096) {
        fprintf(stderr, "FAIL: %zu bytes a wait (at most 4 KiB)\n", ten_thousand / 10000);
        failed = 1;
    }
    if (ten_thousand > 12 * thousand) {
        fprintf(stderr, "FAIL: 10,000 waits hold more than 12 times what 1,000 do\n");
        failed = 1;
    }
    if (thirty_polls * 4 > thousand * 5) {
        fprintf(stderr, "FAIL: 30 polls a wait hold more than 3 polls a wait by over a quarter\n");
        failed = 1;
    }
    if (!failed) {
        printf("PASS the memory of many waits stays flat\n");
    }
    return failed;
}
