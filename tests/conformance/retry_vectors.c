/*
 * The retry conformance vectors of research/retries.md section C (C1-C10),
 * encoded in data/retry_vectors.json: standard 2.0 and 2.1 step tables,
 * long polling, multi-invocation, backoff with the random number forced to
 * 1, classification, quota costs, CUBIC, the adaptive end-to-end sending
 * rates, the rate clock and the send-token bucket. Prints counts per
 * section and `N passed, M failed`.
 * Usage: retry_vectors VECTORS_JSON
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "behavior/rate_limiter.h"
#include "read_file.h"

static size_t s_passed, s_failed;

ANVIL_PRINTF(2, 3)
static void s_result(bool ok, const char *fmt, ...) {
    if (ok) {
        s_passed++;
        return;
    }
    s_failed++;
    va_list args;
    va_start(args, fmt);
    printf("FAIL ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

static const struct anvil_json *s_get(const struct anvil_json *o, const char *key) {
    return anvil_json_object_get_cstr(o, key);
}

static double s_num(const struct anvil_json *o, const char *key, double fallback) {
    const struct anvil_json *v = s_get(o, key);
    return anvil_json_is_number(v) ? anvil_json_double(v) : fallback;
}

static const char *s_str(const struct anvil_json *o, const char *key) {
    const struct anvil_json *v = s_get(o, key);
    return anvil_json_is_string(v) ? anvil_json_string_ptr(v) : NULL;
}

/* Random bytes all 0xFF: anvil_env_random_unit() gives 1 - 2^-53, "random forced to 1". */
static int s_ones(void *ctx, void *out, size_t len) {
    (void)ctx;
    memset(out, 0xFF, len);
    return ANVIL_OK;
}

static uint64_t s_zero_clock(void *ctx) {
    (void)ctx;
    return 0;
}

static int s_no_sleep(void *ctx, uint64_t ms) {
    (void)ctx;
    (void)ms;
    return ANVIL_OK;
}

static const struct anvil_env s_random_one = {s_zero_clock, s_zero_clock, s_no_sleep, s_ones, NULL};

static enum anvil_retry_io_error s_io(const char *name) {
    static const char *const names[] = {"",    "connect_refused", "connect_timeout", "dns_temporary", "dns_not_found",
                                        "tls", "reset",           "read_timeout",    "cancelled",     "too_large"};
    for (size_t i = 1; name && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i]) == 0) {
            return (enum anvil_retry_io_error)i;
        }
    }
    return ANVIL_RETRY_IO_NONE;
}

/* A step's response: status 200 is a success. */
static struct anvil_retry_response s_response(const struct anvil_json *step) {
    struct anvil_retry_response r = {0};
    r.http_status = (int)s_num(step, "status", 0);
    r.success = r.http_status >= 200 && r.http_status < 300 && !s_str(step, "io");
    const char *code = s_str(step, "code");
    r.code = anvil_sv_from_cstr(code ? code : "");
    r.io_error = s_io(s_str(step, "io"));
    const char *modeled = s_str(step, "modeled");
    r.modeled_retryable = modeled != NULL;
    r.modeled_throttling = modeled && strcmp(modeled, "throttling") == 0;
    /* x-amz-retry-after: a non-negative integer of milliseconds, else ignored. */
    r.retry_after_ms = -1;
    const char *after = s_str(step, "retry_after");
    uint64_t ms;
    if (after && anvil_sv_parse_u64(anvil_sv_from_cstr(after), INT64_MAX, &ms) == ANVIL_OK) {
        r.retry_after_ms = (int64_t)ms;
    }
    return r;
}

static const char *s_outcome(const struct anvil_retry_decision *d) {
    switch (d->action) {
    case ANVIL_RETRY_SUCCEED:
        return "success";
    case ANVIL_RETRY_AGAIN:
        return "retry";
    default:
        break;
    }
    switch (d->reason) {
    case ANVIL_RETRY_REASON_MAX_ATTEMPTS:
        return "max_attempts_exceeded";
    case ANVIL_RETRY_REASON_QUOTA_EXCEEDED:
        return "retry_quota_exceeded";
    default:
        return "fail_request";
    }
}

static struct anvil_retry_options s_options(const struct anvil_json *c) {
    struct anvil_retry_options o = {0};
    const char *behavior = s_str(c, "behavior");
    o.behavior = behavior && strcmp(behavior, "2.0") == 0 ? ANVIL_RETRY_BEHAVIOR_2_0 : ANVIL_RETRY_BEHAVIOR_2_1;
    o.max_attempts = (uint32_t)s_num(c, "max_attempts", 0);
    o.max_backoff_ms = (uint64_t)llround(s_num(c, "max_backoff", 0) * 1000);
    o.env = &s_random_one;
    return o;
}

/* Runs one step table: calls named by "call" (default "A") each hold a token. */
static void s_standard(const struct anvil_json *c) {
    const char *name = s_str(c, "name");
    struct anvil_retry_options o = s_options(c);
    const struct anvil_json *capacity = s_get(c, "capacity");
    if (capacity) {
        o.capacity = anvil_json_int(capacity) == 0 ? ANVIL_RETRY_CAPACITY_NONE : (uint32_t)anvil_json_int(capacity);
    }
    struct anvil_retry_strategy *strategy = NULL;
    if (anvil_retry_strategy_new(NULL, &o, &strategy) != ANVIL_OK) {
        s_result(false, "%s: no strategy", name);
        return;
    }
    struct anvil_retry_token tokens[8];
    char names[8][16];
    size_t count = 0;
    const struct anvil_json *steps = s_get(c, "steps");
    bool ok = true;
    for (size_t i = 0; i < anvil_json_len(steps) && ok; i++) {
        const struct anvil_json *step = anvil_json_array_at(steps, i);
        const char *call_name = s_str(step, "call") ? s_str(step, "call") : "A";
        size_t t = 0;
        while (t < count && strcmp(names[t], call_name) != 0) {
            t++;
        }
        if (t == count && count < 8) {
            struct anvil_retry_call call = {.partition = s_str(step, "partition") ? s_str(step, "partition")
                                                                                  : s_str(c, "partition"),
                                            .service = s_str(c, "service"),
                                            .long_polling = anvil_json_bool(s_get(c, "long_polling")),
                                            .idempotent = true};
            snprintf(names[count], sizeof names[count], "%s", call_name);
            anvil_retry_token_init(&tokens[count++], strategy, &call);
        }
        struct anvil_retry_response r = s_response(step);
        struct anvil_retry_decision d;
        anvil_retry_after_attempt(&tokens[t], 0, &r, &d);
        const char *partition = s_str(step, "partition") ? s_str(step, "partition") : s_str(c, "partition");
        uint32_t quota = anvil_retry_quota(strategy, partition);
        const char *want = s_str(step, "outcome");
        double want_delay = s_num(step, "delay", -1);
        uint32_t want_quota = (uint32_t)s_num(step, "quota", quota);
        bool step_ok = (!want || strcmp(want, s_outcome(&d)) == 0) && quota == want_quota &&
                       (want_delay < 0 || llabs((long long)d.delay_ms - llround(want_delay * 1000)) <= 1);
        if (!step_ok) {
            printf("  %s step %zu: got %s, quota %u, delay %llu ms (%s)\n", name, i + 1, s_outcome(&d), quota,
                   (unsigned long long)d.delay_ms, d.explanation);
        }
        ok = step_ok;
    }
    for (size_t i = 0; i < count; i++) {
        anvil_retry_token_clean_up(&tokens[i]);
    }
    anvil_retry_strategy_release(strategy);
    s_result(ok, "%s (%s)", name, s_str(c, "section"));
}

static void s_backoff(const struct anvil_json *c) {
    struct anvil_retry_options o = s_options(c);
    o.max_attempts = 100;
    o.capacity = 100000;
    struct anvil_retry_strategy *strategy = NULL;
    struct anvil_retry_token token;
    anvil_retry_strategy_new(NULL, &o, &strategy);
    struct anvil_retry_call call = {.idempotent = true};
    anvil_retry_token_init(&token, strategy, &call);
    const char *code = s_str(c, "code");
    struct anvil_retry_response r = {
        .http_status = code ? 400 : 500, .code = anvil_sv_from_cstr(code ? code : ""), .retry_after_ms = -1};
    const struct anvil_json *delays = s_get(c, "delays");
    bool ok = true;
    for (size_t i = 0; i < anvil_json_len(delays); i++) {
        struct anvil_retry_decision d;
        anvil_retry_after_attempt(&token, 0, &r, &d);
        long long want = llround(anvil_json_double(anvil_json_array_at(delays, i)) * 1000);
        if (d.action != ANVIL_RETRY_AGAIN || llabs((long long)d.delay_ms - want) > 1) {
            printf("  %s retry %zu: got %llu ms, want %lld ms\n", s_str(c, "name"), i + 1,
                   (unsigned long long)d.delay_ms, want);
            ok = false;
        }
    }
    anvil_retry_token_clean_up(&token);
    anvil_retry_strategy_release(strategy);
    s_result(ok, "%s", s_str(c, "name"));
}

static void s_classification(const struct anvil_json *c) {
    struct anvil_retry_response r = s_response(c);
    if (anvil_json_bool(s_get(c, "success"))) {
        r.success = true;
    }
    struct anvil_retry_class k;
    anvil_retry_classify(&r, &k);
    bool want = anvil_json_bool(s_get(c, "retryable"));
    const char *type = s_str(c, "type");
    const struct anvil_json *safe = s_get(c, "safe");
    bool ok = k.retryable == want && (!type || strcmp(type, anvil_retry_error_type_name(k.type)) == 0) &&
              (!safe || anvil_json_bool(safe) == k.safe_for_any_operation);
    s_result(ok, "classify status %d code '%s' io '%s': got retryable %d type %s safe %d", r.http_status,
             s_str(c, "code") ? s_str(c, "code") : "", s_str(c, "io") ? s_str(c, "io") : "", k.retryable,
             anvil_retry_error_type_name(k.type), k.safe_for_any_operation);
}

static bool s_close(double got, double want, double tolerance) {
    return fabs(got - want) <= tolerance * (fabs(want) > 1 ? fabs(want) : 1);
}

static void s_cubic(const struct anvil_json *c) {
    struct anvil__rate_limiter l;
    anvil__rate_limiter_init(&l, 0);
    l.last_max_rate = s_num(c, "last_max_rate", 0);
    l.last_throttle = s_num(c, "last_throttle", 0);
    const struct anvil_json *k = s_get(c, "k");
    if (k) {
        /* cubic_success at last_throttle + K returns last_max_rate: K is where the curve is flat. */
        double at = anvil__rate_limiter_cubic_success(&l, l.last_throttle + anvil_json_double(k));
        s_result(s_close(at, l.last_max_rate, 1e-12), "%s: rate at K is %.17g", s_str(c, "name"), at);
        return;
    }
    const struct anvil_json *steps = s_get(c, "steps");
    double rate = 0;
    bool ok = true;
    for (size_t i = 0; i < anvil_json_len(steps); i++) {
        const struct anvil_json *step = anvil_json_array_at(steps, i);
        double t = anvil_json_double(anvil_json_array_at(step, 0));
        bool throttle = strcmp(anvil_json_string_ptr(anvil_json_array_at(step, 1)), "throttle") == 0;
        double want = anvil_json_double(anvil_json_array_at(step, 2));
        if (throttle) {
            /* The SEP: the last maximum is the rate before the cut. */
            l.last_max_rate = rate;
            l.last_throttle = t;
            rate = anvil__rate_limiter_cubic_throttle(rate);
        } else {
            rate = anvil__rate_limiter_cubic_success(&l, t);
        }
        if (!s_close(rate, want, 1e-9)) {
            printf("  %s t=%g: got %.17g, want %.17g\n", s_str(c, "name"), t, rate, want);
            ok = false;
        }
    }
    s_result(ok, "%s", s_str(c, "name"));
}

static void s_adaptive_e2e(const struct anvil_json *c) {
    struct anvil__rate_limiter l;
    anvil__rate_limiter_init(&l, 0);
    double tolerance = s_num(c, "tolerance", 5e-7);
    const struct anvil_json *steps = s_get(c, "steps");
    for (size_t i = 0; i < anvil_json_len(steps); i++) {
        const struct anvil_json *step = anvil_json_array_at(steps, i);
        double t = anvil_json_double(anvil_json_array_at(step, 0));
        bool throttle = strcmp(anvil_json_string_ptr(anvil_json_array_at(step, 1)), "throttle") == 0;
        anvil__rate_limiter_update(&l, t, throttle);
        double measured = anvil_json_double(anvil_json_array_at(step, 2));
        double fill = anvil_json_double(anvil_json_array_at(step, 3));
        s_result(s_close(l.measured_rate, measured, tolerance) && s_close(l.fill_rate, fill, tolerance),
                 "adaptive e2e t=%g: measured %.17g (want %g), fill %.17g (want %.17g)", t, l.measured_rate, measured,
                 l.fill_rate, fill);
    }
}

static void s_rate_clock(const struct anvil_json *c) {
    struct anvil__rate_limiter l;
    anvil__rate_limiter_init(&l, 0);
    const struct anvil_json *records = s_get(c, "records");
    for (size_t i = 0; i < anvil_json_len(records); i++) {
        anvil__rate_limiter_update(&l, anvil_json_double(anvil_json_array_at(records, i)), false);
    }
    double tps = s_num(c, "tps", 0);
    if (tps > 0) {
        size_t n = s_get(c, "count") ? (size_t)s_num(c, "count", 0) : (size_t)(s_num(c, "seconds", 0) * tps);
        for (size_t i = 1; i <= n; i++) {
            anvil__rate_limiter_update(&l, (double)i / tps, false);
        }
        if (s_get(c, "then")) {
            anvil__rate_limiter_update(&l, s_num(c, "then", 0), false);
        }
    }
    double lo = s_num(c, "min", 0), hi = s_num(c, "max", 0);
    s_result(l.measured_rate >= lo - 1e-12 && l.measured_rate <= hi + 1e-12, "%s: rate %.17g not in [%g, %g]",
             s_str(c, "name"), l.measured_rate, lo, hi);
}

static void s_token_bucket(const struct anvil_json *c) {
    struct anvil__rate_limiter l;
    anvil__rate_limiter_init(&l, 0);
    l.enabled = true;
    l.fill_rate = l.max_capacity = s_num(c, "rate", 1);
    l.capacity = 0;
    const struct anvil_json *steps = s_get(c, "steps");
    bool ok = true;
    for (size_t i = 0; i < anvil_json_len(steps); i++) {
        const struct anvil_json *step = anvil_json_array_at(steps, i);
        double t = anvil_json_double(anvil_json_array_at(step, 0));
        double amount = anvil_json_double(anvil_json_array_at(step, 1));
        double want = anvil_json_double(anvil_json_array_at(step, 2));
        double wait = anvil__rate_limiter_acquire(&l, t, amount);
        if (!s_close(wait, want, 1e-9) || l.capacity < 0) {
            printf("  %s t=%g: wait %.17g, want %g (capacity %g)\n", s_str(c, "name"), t, wait, want, l.capacity);
            ok = false;
        }
    }
    s_result(ok, "%s", s_str(c, "name"));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTORS_JSON\n", argv[0]);
        return 2;
    }
    size_t len;
    char *text = anvil_test_read_file(argv[1], &len);
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        free(text);
        return 2;
    }
    free(text);
    const struct anvil_json *root = anvil_json_doc_root(doc);
    static const struct {
        const char *key;
        void (*run)(const struct anvil_json *);
    } sections[] = {
        {"standard", s_standard}, {"backoff", s_backoff},       {"classification", s_classification},
        {"cubic", s_cubic},       {"rate_clock", s_rate_clock}, {"token_bucket", s_token_bucket},
    };
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
        size_t before = s_passed + s_failed, failed = s_failed;
        const struct anvil_json *cases = s_get(root, sections[s].key);
        for (size_t i = 0; i < anvil_json_len(cases); i++) {
            sections[s].run(anvil_json_array_at(cases, i));
        }
        printf("retry vectors %-15s %zu cases, %zu failed\n", sections[s].key, s_passed + s_failed - before,
               s_failed - failed);
    }
    size_t before = s_passed + s_failed, failed = s_failed;
    s_adaptive_e2e(s_get(root, "adaptive_e2e"));
    printf("retry vectors %-15s %zu steps, %zu failed\n", "adaptive_e2e", s_passed + s_failed - before,
           s_failed - failed);
    anvil_json_doc_destroy(doc);
    printf("retry vectors (research/retries.md C1-C10): %zu passed, %zu failed\n", s_passed, s_failed);
    return s_failed == 0 && s_passed > 0 ? 0 : 1;
}
