/*
 * Waiters: the delay rule (the spec's worked example, bounds and uniformity),
 * every edge case of research/waiters.md section B as DESIGN.md decides it,
 * the comparators, descriptions from Smithy traits and waiters-2, the
 * blocking driver and the wait group. All on a fake clock; nothing sleeps.
 */

#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "waiter_trait.h"

/* A wait's outcome so far (the state is opaque: what a caller can read, the tests read). */
static struct anvil_wait_outcome s_out(const struct anvil_wait_state *state) {
    struct anvil_wait_outcome o;
    anvil_wait_outcome(state, &o);
    return o;
}

/* When a wait that is sleeping wants its next attempt (UINT64_MAX when it is not sleeping at `now`). */
static uint64_t s_next_at(struct anvil_wait_state *state, uint64_t now) {
    uint64_t at = UINT64_MAX;
    return anvil_wait_next(state, now, &at) == ANVIL_WAIT_SLEEP ? at : UINT64_MAX;
}

/* ---- helpers ---- */

/* A waiter set from the JSON of a `smithy.waiters#waitable` trait. */
/* A scripted service: each call answers the next reply; the last repeats. */
struct s_reply {
    const char *output; /* JSON text, or NULL for an error */
    const char *code;
    int status;
    uint64_t latency_ms;
};

struct s_service {
    const struct s_reply *replies;
    size_t count;
    size_t calls;
    struct anvil_fake_env *fake;
    int transport_status; /* when non-zero, every call fails with it */
};

static int s_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                  struct anvil_operation_reply *reply) {
    (void)input;
    (void)deadline_ms;
    struct s_service *svc = user_data;
    const struct s_reply *r = &svc->replies[svc->calls < svc->count ? svc->calls : svc->count - 1];
    svc->calls++;
    if (svc->fake) {
        anvil_fake_env_advance(svc->fake, r->latency_ms);
    }
    if (svc->transport_status) {
        return svc->transport_status;
    }
    reply->http_status = r->status;
    if (r->output) {
        return anvil_json_parse_into(arena, NULL, r->output, strlen(r->output), NULL, &reply->output, NULL);
    }
    reply->error.code = anvil_sv_from_cstr(r->code);
    reply->error.message = ANVIL_SV("it went wrong");
    reply->error.http_status = r->status;
    return ANVIL_ESERVICE;
}

/* Records what the observer saw. */
struct s_seen {
    uint64_t delays[64];
    uint64_t elapsed[64];
    enum anvil_waiter_state states[64];
    size_t count;
};

static void s_observe(void *user_data, const struct anvil_wait_progress *p) {
    struct s_seen *seen = user_data;
    if (seen->count < 64) {
        seen->delays[seen->count] = p->next_delay_ms;
        seen->elapsed[seen->count] = p->elapsed_ms;
        seen->states[seen->count] = p->state;
        seen->count++;
    }
}

/* Runs `waiter` against `svc` on a fake clock starting at 0 with seed 1. */
static int s_run(struct anvil_test *t, const struct anvil_waiter *waiter, struct s_service *svc,
                 const struct anvil_wait_options *options, struct anvil_fake_env *fake, struct s_seen *seen,
                 struct anvil_wait_result *result, struct anvil_diag *diag) {
    svc->fake = fake;
    struct anvil_wait_call call = {s_call, svc, seen ? s_observe : NULL, seen, &fake->env, t->alloc};
    return anvil_wait(waiter, NULL, options, &call, result, diag);
}

/* The state machine by hand: one attempt answered with `output` JSON at `now`. */
static int s_report_json(struct anvil_test *t, struct anvil_wait_state *s, uint64_t now, const char *json,
                         struct anvil_json_doc **doc) {
    anvil_json_doc_destroy(*doc);
    *doc = NULL;
    int rc = anvil_json_parse(t->alloc, json, strlen(json), NULL, doc, NULL);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_arena *scratch = NULL;
    rc = anvil_arena_new(t->alloc, NULL, &scratch);
    if (rc == ANVIL_OK) {
        rc = anvil_wait_report_output(s, now, anvil_json_doc_root(*doc), 200, scratch);
    }
    anvil_arena_destroy(scratch);
    return rc;
}

static const char s_status_waiter[] =
    "{\"Ready\": {\"minDelay\": 2, \"maxDelay\": 120, \"acceptors\": ["
    "  {\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"Status\", \"expected\": \"READY\","
    "    \"comparator\": \"stringEquals\"}}},"
    "  {\"state\": \"failure\", \"matcher\": {\"output\": {\"path\": \"Status\", \"expected\": \"BROKEN\","
    "    \"comparator\": \"stringEquals\"}}, \"message\": \"Reason\"},"
    "  {\"state\": \"retry\", \"matcher\": {\"errorType\": \"ns#Throttled\"}},"
    "  {\"state\": \"failure\", \"matcher\": {\"errorType\": \"Gone\"}, \"message\": \"[code, message]\"}"
    "]}}";

/* ---- the delay rule ---- */

/* An env whose random draws are scripted (the fake supplies the clock and sleep). */
struct s_scripted {
    struct anvil_fake_env fake; /* first: the fake's functions take this struct's address */
    const uint64_t *draws;
    size_t count, at;
};

static int s_scripted_random(void *ctx, void *out, size_t len) {
    struct s_scripted *s = ctx;
    uint64_t v = s->at < s->count ? s->draws[s->at++] : 0;
    unsigned char *bytes = out;
    for (size_t i = len; i > 0; i--, v >>= 8) { /* anvil_env_random_u64() reads big-endian */
        bytes[i - 1] = (unsigned char)v;
    }
    return ANVIL_OK;
}

TEST(waiter_delays_follow_the_spec_worked_example) {
    /* minDelay 2, maxDelay 120, maxWaitTime 300, requests taking 0 s: the spec's table, with the
     * random source forced to its choices (a draw d gives minDelay + d). */
    static const uint64_t chosen[] = {2, 3, 6, 6, 22, 62, 43, 24, 71, 42, 9, 6, 2};
    static const uint64_t delays[] = {2, 3, 6, 6, 22, 62, 43, 24, 71, 42, 9, 6, 4};
    static const uint64_t cumulative[] = {2, 5, 11, 17, 39, 101, 144, 168, 239, 281, 290, 296, 300};
    uint64_t draws[13];
    for (size_t i = 0; i < 13; i++) {
        draws[i] = chosen[i] - 2;
    }
    struct s_scripted env = {.draws = draws, .count = 13};
    anvil_fake_env_init(&env.fake, 0, 1);
    env.fake.env.ctx = &env;
    env.fake.env.random_bytes = s_scripted_random;
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_reply pending = {"{\"Status\": \"PENDING\"}", NULL, 200, 0};
    struct s_service svc = {&pending, 1, 0, NULL, 0};
    struct s_seen seen = {0};
    struct anvil_wait_options options = {.max_wait_ms = 300000};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &env.fake, &seen, &result, NULL));
    CHECK_EQ_U64(result.outcome.attempts, 14);
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK_EQ_U64(result.outcome.elapsed_ms, 300000);
    CHECK_EQ_U64(seen.count, 14);
    for (size_t i = 0; i < 13; i++) {
        CHECK_EQ_U64(seen.delays[i], delays[i] * 1000);
        CHECK_EQ_U64(seen.elapsed[i + 1], cumulative[i] * 1000);
    }
    CHECK_EQ_U64(seen.delays[13], 0);
    CHECK(result.outcome.has_output);
    CHECK_STR_EQ(anvil_json_string(anvil_json_object_get_cstr(result.outcome.output, "Status")).ptr, "PENDING");
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_delays_stay_in_bounds_and_are_uniform) {
    /* 100,000 seeded retries: whole seconds within [min, min(max, min * 2^(attempt-1))]. */
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 42);
    uint64_t counts[121] = {0};
    uint64_t uniform_draws = 0;
    for (uint64_t i = 0; i < 100000; i++) {
        uint64_t attempt = 1 + i % 12;
        uint64_t delay_ms;
        bool last;
        CHECK_OK(anvil_waiter_delay_ms(2, 120, attempt, UINT64_MAX / 2, &fake.env, &delay_ms, &last));
        CHECK(!last);
        CHECK_EQ_U64(delay_ms % 1000, 0);
        uint64_t ceiling = attempt - 1 < 6 ? (uint64_t)2 << (attempt - 1) : 120;
        CHECK(delay_ms >= 2000 && delay_ms <= ceiling * 1000);
        if (attempt >= 7) {
            counts[delay_ms / 1000]++;
            uniform_draws++;
        }
    }
    /* Chi-square over the 119 values of [2, 120]: 118 degrees of freedom, p = 0.001 at 163. */
    double expected = (double)uniform_draws / 119.0, chi2 = 0;
    for (size_t v = 2; v <= 120; v++) {
        double d = (double)counts[v] - expected;
        chi2 += d * d / expected;
    }
    CHECK(counts[2] > 0 && counts[120] > 0);
    CHECK(chi2 < 163.0);
done:;
}

TEST(waiter_delay_never_overflows) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 7);
    uint64_t delay_ms;
    bool last;
    static const uint64_t attempts[] = {32, 33, 64, 1000000, UINT64_MAX};
    for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; i++) {
        CHECK_OK(anvil_waiter_delay_ms(1, UINT32_MAX, attempts[i], UINT64_MAX, &fake.env, &delay_ms, &last));
        CHECK(delay_ms >= 1000 && delay_ms <= (uint64_t)UINT32_MAX * 1000);
        CHECK_OK(anvil_waiter_delay_ms(3, 3, attempts[i], UINT64_MAX, &fake.env, &delay_ms, &last));
        CHECK_EQ_U64(delay_ms, 3000);
    }
    CHECK_STATUS(anvil_waiter_delay_ms(0, 3, 1, 1000, &fake.env, &delay_ms, &last), ANVIL_EINVAL);
    CHECK_STATUS(anvil_waiter_delay_ms(4, 3, 1, 1000, &fake.env, &delay_ms, &last), ANVIL_EINVAL);
    CHECK_STATUS(anvil_waiter_delay_ms(1, 3, 0, 1000, &fake.env, &delay_ms, &last), ANVIL_EINVAL);
done:;
}

TEST(waiter_delay_uses_the_current_remaining_time_rule) {
    /* remaining - delay <= minDelay: wait the remaining time and make one last attempt. */
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 3);
    uint64_t delay_ms;
    bool last;
    CHECK_OK(anvil_waiter_delay_ms(15, 15, 1, 30000, &fake.env, &delay_ms, &last));
    CHECK(last); /* 30 - 15 <= 15 */
    CHECK_EQ_U64(delay_ms, 30000);
    CHECK_OK(anvil_waiter_delay_ms(15, 15, 1, 30001, &fake.env, &delay_ms, &last));
    CHECK(!last);
    CHECK_EQ_U64(delay_ms, 15000);
    CHECK_OK(anvil_waiter_delay_ms(2, 2, 1, 500, &fake.env, &delay_ms, &last));
    CHECK(last);
    CHECK_EQ_U64(delay_ms, 500);
done:;
}

/* ---- the workflow: research/waiters.md section B ---- */

TEST(waiter_first_call_is_immediate) {
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_state s;
    struct anvil_wait_options options = {.max_wait_ms = 60000};
    uint64_t at = 0;
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 5000, NULL));
    CHECK_EQ_INT(anvil_wait_next(&s, 5000, &at), ANVIL_WAIT_INVOKE);
    /* Asking again before the report answers INVOKE without counting another attempt. */
    CHECK_EQ_INT(anvil_wait_next(&s, 5001, &at), ANVIL_WAIT_INVOKE);
    CHECK_EQ_U64(s_out(&s).attempts, 1);
    CHECK_EQ_U64(anvil_wait_deadline_ms(&s), 65000);
    CHECK_EQ_U64(anvil_wait_min_delay_ms(&s), 2000); /* the waiter's minDelay */
    options.min_delay_s = 7;
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 5000, NULL));
    CHECK_EQ_U64(anvil_wait_min_delay_ms(&s), 7000); /* the options' */
done:
    anvil_waiter_set_destroy(set);
}

TEST(waiter_max_wait_below_min_delay_makes_a_last_attempt_at_the_deadline) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_reply pending = {"{\"Status\": \"PENDING\"}", NULL, 200, 0};
    struct s_service svc = {&pending, 1, 0, NULL, 0};
    struct s_seen seen = {0};
    struct anvil_wait_options options = {.max_wait_ms = 1000};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, &seen, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK_EQ_U64(result.outcome.attempts, 2);
    CHECK_EQ_U64(seen.delays[0], 1000);
    CHECK_EQ_U64(result.outcome.elapsed_ms, 1000);
    CHECK_EQ_U64(fake.now_ms, 1000);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_unmatched_error_fails_at_once) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_reply denied = {NULL, "AccessDeniedException", 403, 5};
    struct s_service svc = {&denied, 1, 0, NULL, 0};
    struct anvil_wait_options options = {.max_wait_ms = 600000};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_UNEXPECTED_ERROR);
    CHECK_EQ_INT(result.outcome.state, ANVIL_WAITER_FAILURE);
    CHECK_EQ_U64(result.outcome.attempts, 1);
    CHECK_EQ_U64(result.outcome.elapsed_ms, 5);
    CHECK_EQ_INT(result.outcome.acceptor, -1);
    CHECK(result.outcome.has_error && !result.outcome.has_output);
    CHECK(anvil_sv_eq_cstr(result.outcome.error.code, "AccessDeniedException"));
    CHECK(anvil_sv_eq_cstr(result.outcome.error.message, "it went wrong"));
    CHECK_EQ_INT(result.outcome.error.http_status, 403);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_unmatched_success_retries_then_succeeds) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    static const struct s_reply replies[] = {{"{\"Status\": \"CREATING\"}", NULL, 200, 100},
                                             {"{}", NULL, 200, 100},
                                             {"{\"Status\": \"READY\", \"Id\": 7}", NULL, 200, 100}};
    struct s_service svc = {replies, 3, 0, NULL, 0};
    struct s_seen seen = {0};
    struct anvil_wait_options options = {.max_wait_ms = 600000};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, &seen, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_EQ_INT(result.outcome.state, ANVIL_WAITER_SUCCESS);
    CHECK_EQ_U64(result.outcome.attempts, 3);
    CHECK_EQ_INT(result.outcome.acceptor, 0);
    CHECK_EQ_INT(seen.states[0], ANVIL_WAITER_RETRY);
    CHECK_EQ_INT(seen.states[2], ANVIL_WAITER_SUCCESS);
    CHECK_EQ_U64(result.outcome.elapsed_ms, 300 + seen.delays[0] + seen.delays[1]);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(result.outcome.output, "Id")), 7);
    CHECK_EQ_U64(result.message.len, 0);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_first_matching_acceptor_wins) {
    static const char json[] =
        "{\"W\": {\"acceptors\": ["
        "  {\"state\": \"failure\", \"matcher\": {\"output\": {\"path\": \"a\", \"expected\": \"x\","
        "    \"comparator\": \"stringEquals\"}}},"
        "  {\"state\": \"success\", \"matcher\": {\"success\": true}}]}}";
    struct anvil_waiter_set *set = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_wait_state s;
    struct anvil_wait_options options = {.max_wait_ms = 60000};
    struct anvil_wait_outcome outcome;
    CHECK_OK(waiter_trait_set(t, json, &set));
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 0, NULL));
    CHECK_EQ_INT(anvil_wait_next(&s, 0, NULL), ANVIL_WAIT_INVOKE);
    CHECK_OK(s_report_json(t, &s, 10, "{\"a\": \"x\"}", &doc));
    anvil_wait_outcome(&s, &outcome);
    CHECK_EQ_INT(outcome.reason, ANVIL_WAIT_REASON_FAILURE);
    CHECK_EQ_INT(outcome.acceptor, 0);
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 0, NULL));
    CHECK_EQ_INT(anvil_wait_next(&s, 0, NULL), ANVIL_WAIT_INVOKE);
    CHECK_OK(s_report_json(t, &s, 10, "{\"a\": \"y\"}", &doc));
    anvil_wait_outcome(&s, &outcome);
    CHECK_EQ_INT(outcome.reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_EQ_INT(outcome.acceptor, 1);
done:
    anvil_json_doc_destroy(doc);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_success_false_matches_any_error_and_no_output) {
    static const char json[] =
        "{\"Gone\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": false}},"
        "{\"state\": \"retry\", \"matcher\": {\"success\": true}}]}}";
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    static const struct s_reply replies[] = {{"{}", NULL, 200, 0}, {NULL, "Whatever", 500, 0}};
    struct s_service svc = {replies, 2, 0, NULL, 0};
    struct anvil_wait_options options = {.max_wait_ms = 600000};
    CHECK_OK(waiter_trait_set(t, json, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_EQ_U64(result.outcome.attempts, 2);
    CHECK(result.outcome.has_error);
    anvil_wait_result_clean_up(&result);
    /* A transport failure the callback could not describe is an error too, named by its status. */
    svc = (struct s_service){replies, 1, 0, NULL, ANVIL_ETRANSPORT};
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK(anvil_sv_eq_cstr(result.outcome.error.code, "ANVIL_ETRANSPORT"));
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_error_type_compares_normalised_codes) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    /* The acceptor says "ns#Throttled" (an absolute shape id: compared by name); the wire says
     * "aws.foo#Throttled:http://..."; then "Gone" fails the wait. */
    static const struct s_reply replies[] = {{NULL, "aws.foo#Throttled:http://internal/", 400, 0},
                                             {NULL, "Gone", 404, 0}};
    struct s_service svc = {replies, 2, 0, NULL, 0};
    struct anvil_wait_options options = {.max_wait_ms = 600000};
    CHECK(anvil_sv_eq_cstr(anvil_error_code_normalize(ANVIL_SV("com.amazonaws.dynamodb.v20120810#"
                                                               "ResourceNotFoundException:http://x#y")),
                           "ResourceNotFoundException"));
    CHECK(anvil_sv_eq_cstr(anvil_error_code_normalize(ANVIL_SV("Throttled")), "Throttled"));
    CHECK(anvil_sv_eq_cstr(anvil_error_code_normalize(ANVIL_SV("ns#Throttled")), "Throttled"));
    CHECK(anvil_sv_eq_cstr(anvil_error_code_normalize(ANVIL_SV("Throttled:Sender")), "Throttled"));
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_FAILURE);
    CHECK_EQ_INT(result.outcome.acceptor, 3);
    CHECK_EQ_U64(result.outcome.attempts, 2);
    /* The message expression sees the error as {code, message, status}. */
    CHECK_STR_EQ(result.message.ptr, "Gone, it went wrong");
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

/* One comparator check: `path` on `output` against `expected` with `comparator`. */
static int s_matches(struct anvil_test *t, const char *comparator, const char *expected, const char *output,
                     bool *matched) {
    char json[512];
    snprintf(json, sizeof json,
             "{\"W\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"v\","
             "\"expected\": \"%s\", \"comparator\": \"%s\"}}}]}}",
             expected, comparator);
    struct anvil_waiter_set *set = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_wait_state s;
    struct anvil_wait_options options = {.max_wait_ms = 60000};
    int rc = waiter_trait_set(t, json, &set);
    if (rc == ANVIL_OK) {
        rc = anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 0, NULL);
    }
    if (rc == ANVIL_OK) {
        anvil_wait_next(&s, 0, NULL);
        rc = s_report_json(t, &s, 0, output, &doc);
    }
    *matched = rc == ANVIL_OK && s_out(&s).reason == ANVIL_WAIT_REASON_SUCCESS;
    anvil_json_doc_destroy(doc);
    anvil_waiter_set_destroy(set);
    return rc;
}

TEST(waiter_comparators_on_null_missing_wrong_types_and_empty_arrays) {
    static const struct {
        const char *comparator, *expected, *output;
        bool match;
    } cases[] = {
        {"stringEquals", "a", "{\"v\": \"a\"}", true},
        {"stringEquals", "a", "{\"v\": \"b\"}", false},
        {"stringEquals", "a", "{}", false},
        {"stringEquals", "a", "{\"v\": null}", false},
        {"stringEquals", "1", "{\"v\": 1}", false},
        {"stringEquals", "a", "{\"v\": [\"a\"]}", false},
        {"stringEquals", "", "{}", false},
        {"booleanEquals", "true", "{\"v\": true}", true},
        {"booleanEquals", "false", "{\"v\": false}", true},
        {"booleanEquals", "false", "{}", false},
        {"booleanEquals", "false", "{\"v\": null}", false},
        {"booleanEquals", "true", "{\"v\": \"true\"}", false},
        {"booleanEquals", "false", "{\"v\": 0}", false},
        {"allStringEquals", "a", "{\"v\": [\"a\", \"a\"]}", true},
        {"allStringEquals", "a", "{\"v\": [\"a\", \"b\"]}", false},
        {"allStringEquals", "a", "{\"v\": []}", false},
        {"allStringEquals", "a", "{\"v\": \"a\"}", false},
        {"allStringEquals", "a", "{\"v\": [\"a\", null]}", false},
        {"allStringEquals", "a", "{}", false},
        {"anyStringEquals", "a", "{\"v\": [\"b\", \"a\"]}", true},
        {"anyStringEquals", "a", "{\"v\": []}", false},
        {"anyStringEquals", "a", "{\"v\": [\"b\", null]}", false},
        {"anyStringEquals", "a", "{\"v\": \"a\"}", false},
        {"anyStringEquals", "a", "{\"v\": null}", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool matched = false;
        CHECK_OK(s_matches(t, cases[i].comparator, cases[i].expected, cases[i].output, &matched));
        if (matched != cases[i].match) {
            anvil_test_fail(t, __FILE__, __LINE__, "%s %s on %s: expected %s", cases[i].comparator, cases[i].expected,
                            cases[i].output, cases[i].match ? "a match" : "no match");
        }
    }
done:;
}

TEST(waiter_input_output_sees_input_and_output) {
    static const char json[] =
        "{\"Same\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"inputOutput\": {"
        "\"path\": \"input.Name == output.Name\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}";
    struct anvil_waiter_set *set = NULL;
    struct anvil_json_doc *input = NULL, *doc = NULL;
    struct anvil_wait_state s;
    struct anvil_wait_options options = {.max_wait_ms = 60000};
    CHECK_OK(waiter_trait_set(t, json, &set));
    CHECK_OK(anvil_json_parse(t->alloc, "{\"Name\": \"n1\"}", 14, NULL, &input, NULL));
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), anvil_json_doc_root(input), &options, 0, NULL));
    anvil_wait_next(&s, 0, NULL);
    CHECK_OK(s_report_json(t, &s, 0, "{\"Name\": \"n2\"}", &doc));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_PENDING);
    CHECK_EQ_INT(anvil_wait_next(&s, 1000000, NULL), ANVIL_WAIT_INVOKE);
    CHECK_OK(s_report_json(t, &s, 1000000, "{\"Name\": \"n1\"}", &doc));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_EQ_U64(s_out(&s).attempts, 2);
done:
    anvil_json_doc_destroy(doc);
    anvil_json_doc_destroy(input);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_message_is_evaluated_on_the_matching_failure) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    static const struct s_reply replies[] = {{"{\"Status\": \"BROKEN\", \"Reason\": \"disk full\"}", NULL, 200, 0}};
    struct s_service svc = {replies, 1, 0, NULL, 0};
    struct anvil_wait_options options = {.max_wait_ms = 600000};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_FAILURE);
    CHECK_EQ_INT(result.outcome.acceptor, 1);
    CHECK_STR_EQ(result.message.ptr, "disk full");
    anvil_wait_result_clean_up(&result);
    /* A message of another type gives no message. */
    static const struct s_reply numeric[] = {{"{\"Status\": \"BROKEN\", \"Reason\": 3}", NULL, 200, 0}};
    svc = (struct s_service){numeric, 1, 0, NULL, 0};
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_U64(result.message.len, 0);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

static void s_cancel_after_two_sleeps(struct anvil_fake_env *fake, uint64_t slept_ms, void *user_data) {
    (void)slept_ms;
    (void)user_data;
    if (fake->sleep_calls == 2) {
        fake->cancel_sleeps = true;
    }
}

TEST(waiter_cancel_during_sleep_ends_the_wait) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    fake.on_sleep = s_cancel_after_two_sleeps;
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_reply pending = {"{\"Status\": \"PENDING\"}", NULL, 200, 0};
    struct s_service svc = {&pending, 1, 0, NULL, 0};
    struct anvil_wait_options options = {.max_wait_ms = 600000, .min_delay_s = 10, .max_delay_s = 10};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_CANCELLED);
    CHECK_EQ_U64(result.outcome.attempts, 1);
    /* Sleeps come in one-second slices, so the cancel is seen long before the 10 s delay ends. */
    CHECK_EQ_U64(fake.now_ms, 2000);
    CHECK(result.outcome.has_output);
    anvil_wait_result_clean_up(&result);
    /* The cancel flag, as a signal handler would set it. */
    volatile sig_atomic_t flag = 0;
    struct anvil_wait_state s;
    options.cancel = &flag;
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 0, NULL));
    CHECK_EQ_INT(anvil_wait_next(&s, 0, NULL), ANVIL_WAIT_INVOKE);
    flag = 1;
    CHECK_EQ_INT(anvil_wait_next(&s, 5, NULL), ANVIL_WAIT_DONE);
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_CANCELLED);
    CHECK_EQ_U64(s_out(&s).elapsed_ms, 5);
    CHECK_STATUS(anvil_wait_report_output(&s, 6, NULL, 200, NULL), ANVIL_EINVAL);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_invalid_options_are_rejected_before_any_call) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_reply pending = {"{}", NULL, 200, 0};
    struct s_service svc = {&pending, 1, 0, NULL, 0};
    struct anvil_diag diag;
    struct anvil_wait_options options = {0};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_STATUS(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, &diag), ANVIL_EINVAL);
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_INVALID);
    CHECK(strstr(diag.message, "maximum wait time") != NULL);
    anvil_wait_result_clean_up(&result);
    options = (struct anvil_wait_options){.max_wait_ms = 1000, .min_delay_s = 200};
    CHECK_STATUS(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the minimum delay (200 s) is greater than the maximum delay (120 s)");
    anvil_wait_result_clean_up(&result);
    options = (struct anvil_wait_options){.max_wait_ms = 1000, .min_delay_s = 5, .max_delay_s = 4};
    CHECK_STATUS(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, &diag), ANVIL_EINVAL);
    CHECK_EQ_U64(svc.calls, 0);
    CHECK_EQ_U64(fake.now_ms, 0);
    /* A hand-built waiter is checked too. */
    struct anvil_waiter bad = {.name = ANVIL_SV("Bad"), .min_delay_s = 2, .max_delay_s = 1};
    struct anvil_wait_state s;
    options = (struct anvil_wait_options){.max_wait_ms = 1000};
    CHECK_STATUS(anvil_wait_start(&s, &bad, NULL, &options, 0, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "waiter `Bad`: minDelay 2 is greater than maxDelay 1");
    CHECK_EQ_INT(anvil_wait_next(&s, 0, NULL), ANVIL_WAIT_DONE);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_counts_attempts_past_a_million) {
    static const char json[] = "{\"Forever\": {\"minDelay\": 1, \"maxDelay\": 1, \"acceptors\": ["
                               "{\"state\": \"success\", \"matcher\": {\"errorType\": \"Done\"}},"
                               "{\"state\": \"retry\", \"matcher\": {\"success\": true}}]}}";
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_state s;
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_wait_options options = {.max_wait_ms = UINT64_MAX / 2, .env = &fake.env};
    CHECK_OK(waiter_trait_set(t, json, &set));
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 0, NULL));
    uint64_t now = 0;
    for (uint64_t i = 0; i < 1100000; i++) {
        uint64_t at = 0;
        CHECK_EQ_INT(anvil_wait_next(&s, now, &at), ANVIL_WAIT_INVOKE);
        CHECK_OK(anvil_wait_report_output(&s, now, NULL, 200, NULL));
        CHECK_EQ_INT(anvil_wait_next(&s, now, &at), ANVIL_WAIT_SLEEP);
        CHECK_EQ_U64(at, now + 1000);
        now = at;
    }
    struct anvil_operation_error done_error = {ANVIL_SV("Done"), ANVIL_SV(""), 400};
    CHECK_EQ_INT(anvil_wait_next(&s, now, NULL), ANVIL_WAIT_INVOKE);
    CHECK_OK(anvil_wait_report_error(&s, now, &done_error, NULL));
    struct anvil_wait_outcome outcome;
    anvil_wait_outcome(&s, &outcome);
    CHECK_EQ_INT(outcome.reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_EQ_U64(outcome.attempts, 1100001);
    CHECK_EQ_U64(outcome.elapsed_ms, 1100000000);
done:
    anvil_waiter_set_destroy(set);
}

TEST(waiter_attempt_cap_ends_with_max_attempts) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_reply pending = {"{\"Status\": \"PENDING\"}", NULL, 200, 0};
    struct s_service svc = {&pending, 1, 0, NULL, 0};
    struct anvil_wait_options options = {.max_wait_ms = 3600000, .max_attempts = 4};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(s_run(t, anvil_waiter_set_at(set, 0), &svc, &options, &fake, NULL, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_MAX_ATTEMPTS);
    CHECK_EQ_U64(result.outcome.attempts, 4);
    CHECK_EQ_U64(svc.calls, 4);
    CHECK_STR_EQ(anvil_wait_reason_name(result.outcome.reason), "max-attempts");
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

/* ---- descriptions ---- */

TEST(waiter_set_reads_a_smithy_model_with_query_error_aliases) {
    static const char model_json[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Svc\": {\"type\": \"service\", \"operations\": [{\"target\": \"ex#GetUser\"}],"
        "  \"errors\": [{\"target\": \"ex#Throttling\"}]},"
        "\"ex#GetUser\": {\"type\": \"operation\", \"errors\": [{\"target\": \"ex#NoSuchEntityException\"}],"
        "  \"traits\": {\"smithy.waiters#waitable\": {\"UserExists\": {\"documentation\": \"Waits.\","
        "    \"minDelay\": 1, \"maxDelay\": 30, \"deprecated\": true, \"tags\": [\"iam\", \"slow\"], \"acceptors\": ["
        "    {\"state\": \"success\", \"matcher\": {\"success\": true}},"
        "    {\"state\": \"retry\", \"matcher\": {\"errorType\": \"NoSuchEntity\"}},"
        "    {\"state\": \"retry\", \"matcher\": {\"errorType\": \"ex#Throttling\"}}]}}}},"
        "\"ex#NoSuchEntityException\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\","
        "  \"aws.protocols#awsQueryError\": {\"code\": \"NoSuchEntity\", \"httpResponseCode\": 404}}},"
        "\"ex#Throttling\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\","
        "  \"aws.protocols#awsQueryError\": {\"code\": \"Throttling\", \"httpResponseCode\": 400}}}"
        "}}";
    struct anvil_model *model = NULL;
    struct anvil_waiter_set *set = NULL;
    CHECK_OK(anvil_model_load(t->alloc, model_json, strlen(model_json), NULL, &model, NULL));
    CHECK_OK(anvil_waiter_set_from_model(t->alloc, model, &set, NULL));
    anvil_model_destroy(model); /* the set keeps nothing of the model */
    model = NULL;
    CHECK_EQ_U64(anvil_waiter_set_count(set), 1);
    const struct anvil_waiter *w = anvil_waiter_set_find(set, "userexists", 10);
    CHECK(w != NULL);
    CHECK(anvil_sv_eq_cstr(w->name, "UserExists"));
    CHECK(anvil_sv_eq_cstr(w->operation, "ex#GetUser"));
    CHECK(anvil_sv_eq_cstr(w->documentation, "Waits."));
    CHECK(w->deprecated);
    CHECK_EQ_U64(w->tag_count, 2);
    CHECK(anvil_sv_eq_cstr(w->tags[1], "slow"));
    CHECK_EQ_U64(w->min_delay_s, 1);
    CHECK_EQ_U64(w->max_delay_s, 30);
    CHECK_EQ_U64(w->max_attempts, 0);
    /* "NoSuchEntity" (the awsQuery code) also matches the awsJson name NoSuchEntityException. */
    const struct anvil_waiter_acceptor *a = &w->acceptors[1];
    CHECK_EQ_U64(a->code_count, 2);
    CHECK(anvil_sv_eq_cstr(a->codes[0], "NoSuchEntity"));
    CHECK(anvil_sv_eq_cstr(a->codes[1], "NoSuchEntityException"));
    CHECK_EQ_U64(w->acceptors[2].code_count, 1);
    CHECK(anvil_sv_eq_cstr(w->acceptors[2].codes[0], "Throttling"));
    CHECK(anvil_waiter_set_find(set, "Nope", 4) == NULL);
done:
    anvil_model_destroy(model);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_set_rejects_broken_waiters_naming_them) {
    static const struct {
        const char *json, *message;
    } cases[] = {
        {"{\"W\": {\"acceptors\": []}}", "waiter `W` of `ex#Op`: `acceptors` must be a non-empty list"},
        {"{\"W\": {\"acceptors\": [{\"state\": \"retry\", \"matcher\": {\"success\": true}}]}}",
         "waiter `W` has no success acceptor (operation `ex#Op`)"},
        {"{\"W\": {\"minDelay\": 0, \"acceptors\": []}}",
         "waiter `W` of `ex#Op`: `minDelay` must be a whole number from 1 to 2147483647"},
        {"{\"W\": {\"minDelay\": 10, \"maxDelay\": 5, \"acceptors\": [{\"state\": \"success\", "
         "\"matcher\": {\"success\": true}}]}}",
         "waiter `W`: minDelay 10 is greater than maxDelay 5 (operation `ex#Op`)"},
        {"{\"W\": {\"acceptors\": [{\"state\": \"done\", \"matcher\": {\"success\": true}}]}}",
         "waiter `W` of `ex#Op`, acceptor 0: `state` must be \"success\", \"failure\" or \"retry\""},
        {"{\"W\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true, \"errorType\": \"x\"}}]}}",
         "waiter `W` of `ex#Op`, acceptor 0: `matcher` must be an object with exactly one member"},
        {"{\"W\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"a ||\", "
         "\"expected\": \"x\", \"comparator\": \"stringEquals\"}}}]}}",
         NULL},
        {"{\"W\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"a\", "
         "\"expected\": \"yes\", \"comparator\": \"booleanEquals\"}}}]}}",
         "waiter `W` of `ex#Op`, acceptor 0: a booleanEquals comparator needs `expected` \"true\" or \"false\", "
         "not \"yes\""},
        {"{\"W\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true}, \"message\": \"a\"}]}}",
         "waiter `W` of `ex#Op`, acceptor 0: `message` is only valid on acceptors with a `failure` state"},
        {"{\"W\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"nope\": 1}}]}}",
         "waiter `W` of `ex#Op`, acceptor 0: unknown matcher `nope` (expected output, inputOutput, success or "
         "errorType)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_json_doc *doc = NULL;
        struct anvil_waiter_set *set = NULL;
        struct anvil_diag diag;
        CHECK_OK(anvil_json_parse(t->alloc, cases[i].json, strlen(cases[i].json), NULL, &doc, NULL));
        int rc = anvil_waiter_set_from_trait(t->alloc, anvil_json_doc_root(doc), ANVIL_SV("ex#Op"), &set, &diag);
        anvil_json_doc_destroy(doc);
        CHECK(set == NULL);
        CHECK_STATUS(rc, ANVIL_EMODEL);
        if (cases[i].message) {
            CHECK_STR_EQ(diag.message, cases[i].message);
        } else {
            CHECK(strstr(diag.message, "invalid JMESPath expression in `path` (a ||)") != NULL);
        }
    }
done:;
}

static const char s_botocore[] =
    "{\"version\": 2, \"waiters\": {"
    "\"BucketExists\": {\"delay\": 5, \"operation\": \"HeadBucket\", \"maxAttempts\": 20, \"acceptors\": ["
    "  {\"expected\": 200, \"matcher\": \"status\", \"state\": \"success\"},"
    "  {\"expected\": 301, \"matcher\": \"status\", \"state\": \"success\"},"
    "  {\"expected\": 404, \"matcher\": \"status\", \"state\": \"retry\"}]},"
    "\"InstanceRunning\": {\"delay\": 15, \"operation\": \"DescribeInstances\", \"maxAttempts\": 40,"
    "  \"description\": \"Wait for running.\", \"acceptors\": ["
    "  {\"expected\": \"running\", \"matcher\": \"pathAll\", \"state\": \"success\","
    "   \"argument\": \"Reservations[].Instances[].State.Name\"},"
    "  {\"expected\": \"terminated\", \"matcher\": \"pathAny\", \"state\": \"failure\","
    "   \"argument\": \"Reservations[].Instances[].State.Name\"},"
    "  {\"expected\": true, \"matcher\": \"path\", \"state\": \"failure\", \"argument\": \"Broken\"},"
    "  {\"expected\": \"InvalidInstanceID.NotFound\", \"matcher\": \"error\", \"state\": \"retry\"},"
    "  {\"expected\": true, \"matcher\": \"error\", \"state\": \"failure\"}]}"
    "}}";

TEST(waiter_set_reads_botocore_waiters_2) {
    struct anvil_waiter_set *set = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_wait_state s;
    struct anvil_wait_options options = {.max_wait_ms = 3600000};
    CHECK_OK(anvil_waiter_set_from_botocore(t->alloc, s_botocore, strlen(s_botocore), &set, NULL));
    CHECK_EQ_U64(anvil_waiter_set_count(set), 2);
    const struct anvil_waiter *bucket = anvil_waiter_set_at(set, 0);
    const struct anvil_waiter *running = anvil_waiter_set_find(set, "InstanceRunning", 15);
    CHECK(anvil_sv_eq_cstr(bucket->operation, "HeadBucket"));
    CHECK_EQ_U64(bucket->min_delay_s, 5);
    CHECK_EQ_U64(bucket->max_delay_s, 5);
    CHECK_EQ_U64(bucket->max_attempts, 20);
    CHECK_EQ_INT(bucket->acceptors[0].matcher, ANVIL_MATCH_STATUS);
    CHECK(anvil_sv_eq_cstr(running->documentation, "Wait for running."));
    CHECK_EQ_INT(running->acceptors[0].comparator, ANVIL_CMP_ALL_EQUALS);
    CHECK_EQ_INT(running->acceptors[4].matcher, ANVIL_MATCH_SUCCESS);
    CHECK(!running->acceptors[4].success);

    /* status matchers read the HTTP status; a 404 error retries. */
    struct anvil_operation_error missing = {ANVIL_SV("404"), ANVIL_SV("Not Found"), 404};
    CHECK_OK(anvil_wait_start(&s, bucket, NULL, &options, 0, NULL));
    anvil_wait_next(&s, 0, NULL);
    CHECK_OK(anvil_wait_report_error(&s, 0, &missing, NULL));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_PENDING);
    CHECK_EQ_U64(s_next_at(&s, 0), 5000); /* a fixed delay */
    anvil_wait_next(&s, 5000, NULL);
    CHECK_OK(s_report_json(t, &s, 5000, "{}", &doc));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_SUCCESS);

    /* pathAny on an empty list is false; a typed `expected` (true) matches only a boolean. */
    CHECK_OK(anvil_wait_start(&s, running, NULL, &options, 0, NULL));
    anvil_wait_next(&s, 0, NULL);
    CHECK_OK(s_report_json(t, &s, 0, "{\"Reservations\": [], \"Broken\": \"true\"}", &doc));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_PENDING);
    anvil_wait_next(&s, 15000, NULL);
    CHECK_OK(s_report_json(t, &s, 15000,
                           "{\"Reservations\": [{\"Instances\": [{\"State\": {\"Name\": \"running\"}},"
                           "{\"State\": {\"Name\": \"running\"}}]}]}",
                           &doc));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_OK(anvil_wait_start(&s, running, NULL, &options, 0, NULL));
    anvil_wait_next(&s, 0, NULL);
    CHECK_OK(s_report_json(t, &s, 0, "{\"Broken\": true}", &doc));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_FAILURE);
    CHECK_EQ_INT(s_out(&s).acceptor, 2);
    /* error: true is any error, after the specific code. */
    struct anvil_operation_error denied = {ANVIL_SV("UnauthorizedOperation"), ANVIL_SV(""), 403};
    CHECK_OK(anvil_wait_start(&s, running, NULL, &options, 0, NULL));
    anvil_wait_next(&s, 0, NULL);
    CHECK_OK(anvil_wait_report_error(&s, 0, &denied, NULL));
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_FAILURE);
    CHECK_EQ_INT(s_out(&s).acceptor, 4);
done:
    anvil_json_doc_destroy(doc);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_set_rejects_broken_botocore_files) {
    static const char *const cases[] = {
        "[]",
        "{\"version\": 1, \"waiters\": {}}",
        "{\"version\": 2, \"waiters\": {\"W\": 1}}",
        "{\"version\": 2, \"waiters\": {\"W\": {\"operation\": \"Op\", \"delay\": 0, \"maxAttempts\": 1, "
        "\"acceptors\": []}}}",
        "{\"version\": 2, \"waiters\": {\"W\": {\"operation\": \"Op\", \"delay\": 1, \"maxAttempts\": 1, "
        "\"acceptors\": [{\"state\": \"success\", \"matcher\": \"path\", \"argument\": \"a[\", \"expected\": 1}]}}}",
        "{\"version\": 2, \"waiters\": {\"W\": {\"operation\": \"Op\", \"delay\": 1, \"maxAttempts\": 1, "
        "\"acceptors\": [{\"state\": \"success\", \"matcher\": \"status\", \"expected\": \"200\"}]}}}",
        "{\"version\": 2, \"waiters\": {\"W\": {\"operation\": \"Op\", \"delay\": 1, \"maxAttempts\": 1, "
        "\"acceptors\": [{\"state\": \"success\", \"matcher\": \"path\", \"argument\": \"a\"}]}}}",
        "{\"version\": 2, \"waiters\": {\"W\": {\"operation\": \"Op\", \"delay\": 1, \"maxAttempts\": 1, "
        "\"acceptors\": [{\"state\": \"success\", \"matcher\": \"magic\", \"expected\": 1}]}}}",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_waiter_set *set = NULL;
        struct anvil_diag diag;
        CHECK_STATUS(anvil_waiter_set_from_botocore(t->alloc, cases[i], strlen(cases[i]), &set, &diag), ANVIL_EMODEL);
        CHECK(set == NULL && diag.message[0] != '\0');
    }
    struct anvil_waiter_set *set = NULL;
    CHECK_STATUS(anvil_waiter_set_from_botocore(t->alloc, "{", 1, &set, NULL), ANVIL_ESYNTAX);
done:;
}

/* ---- many waits on one thread ---- */

TEST(waiter_group_drives_many_waits_in_time_order) {
    enum { N = 2000 };
    static const char json[] = "{\"W\": {\"minDelay\": 1, \"maxDelay\": 8, \"acceptors\": ["
                               "{\"state\": \"success\", \"matcher\": {\"errorType\": \"Done\"}},"
                               "{\"state\": \"retry\", \"matcher\": {\"success\": true}}]}}";
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_state *states = NULL;
    struct anvil_wait_group group;
    anvil_wait_group_init(&group, t->alloc);
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 9);
    struct anvil_wait_options options = {.max_wait_ms = 600000, .env = &fake.env};
    struct anvil_operation_error done_error = {ANVIL_SV("Done"), ANVIL_SV(""), 400};
    CHECK_OK(waiter_trait_set(t, json, &set));
    states = anvil_mem_acquire(t->alloc, N * sizeof *states);
    CHECK_ALLOC(states);
    CHECK(sizeof *states < 512);
    for (size_t i = 0; i < N; i++) {
        CHECK_OK(anvil_wait_start(&states[i], anvil_waiter_set_at(set, 0), NULL, &options, i, NULL));
        CHECK_OK(anvil_wait_group_schedule(&group, &states[i], i));
    }
    /* A wait taken out of the group is never driven. */
    anvil_wait_group_remove(&group, &states[7]);
    CHECK_EQ_U64(anvil_wait_group_count(&group), N - 1);
    uint64_t now = 0, last_due = 0, finished = 0, invocations = 0;
    for (;;) {
        enum anvil_wait_action action;
        uint64_t wake = 0;
        struct anvil_wait_state *s = anvil_wait_group_pop(&group, now, &action, &wake);
        if (!s) {
            if (wake == UINT64_MAX) {
                break;
            }
            CHECK(wake >= last_due);
            last_due = wake;
            now = wake;
            continue;
        }
        CHECK_EQ_INT(action, ANVIL_WAIT_INVOKE);
        invocations++;
        /* Each wait finishes on its fifth attempt. */
        if (s_out(s).attempts == 5) {
            CHECK_OK(anvil_wait_report_error(s, now, &done_error, NULL));
            finished++;
        } else {
            CHECK_OK(anvil_wait_report_output(s, now, NULL, 200, NULL));
        }
        CHECK_OK(anvil_wait_group_schedule(&group, s, now));
    }
    CHECK_EQ_U64(finished, N - 1);
    CHECK_EQ_U64(invocations, 5 * (N - 1));
    CHECK_EQ_INT(s_out(&states[7]).reason, ANVIL_WAIT_PENDING);
    CHECK_EQ_INT(s_out(&states[0]).reason, ANVIL_WAIT_REASON_SUCCESS);
done:
    anvil_wait_group_clean_up(&group);
    anvil_mem_release(t->alloc, states);
    anvil_waiter_set_destroy(set);
}

/* An operation that, from its second call on, runs until the deadline it was given and gives up. */
struct s_slow {
    struct anvil_fake_env *fake;
    uint64_t deadlines[8];
    size_t calls;
};

static int s_slow_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                       struct anvil_operation_reply *reply) {
    (void)input;
    struct s_slow *slow = user_data;
    slow->deadlines[slow->calls < 8 ? slow->calls : 7] = deadline_ms;
    if (slow->calls++ == 0) {
        return anvil_json_parse_into(arena, NULL, "{\"Status\": \"PENDING\"}", 21, NULL, &reply->output, NULL);
    }
    slow->fake->now_ms = deadline_ms;
    return ANVIL_ETIMEDOUT;
}

TEST(waiter_request_cut_at_the_deadline_times_the_wait_out) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_slow slow = {&fake, {0}, 0};
    struct anvil_wait_call call = {s_slow_call, &slow, NULL, NULL, &fake.env, t->alloc};
    struct anvil_wait_options options = {.max_wait_ms = 30000, .min_delay_s = 5, .max_delay_s = 5};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(anvil_wait(anvil_waiter_set_at(set, 0), NULL, &options, &call, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK_EQ_U64(result.outcome.attempts, 2);
    CHECK_EQ_U64(slow.deadlines[0], 30000);
    CHECK_EQ_U64(slow.deadlines[1], 30000); /* an attempt before the last is cut at the deadline */
    CHECK_EQ_U64(result.outcome.elapsed_ms, 30000);
    /* The outcome keeps the last result there was: the first attempt's output. */
    CHECK(result.outcome.has_output);
    CHECK(anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(result.outcome.output, "Status")), "PENDING"));
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

TEST(waiter_last_attempt_gets_min_delay_to_answer) {
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_state s;
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_wait_options options = {.max_wait_ms = 7000, .min_delay_s = 5, .max_delay_s = 5, .env = &fake.env};
    CHECK_OK(waiter_trait_set(t, s_status_waiter, &set));
    CHECK_OK(anvil_wait_start(&s, anvil_waiter_set_at(set, 0), NULL, &options, 1000, NULL));
    CHECK_EQ_INT(anvil_wait_next(&s, 1000, NULL), ANVIL_WAIT_INVOKE);
    CHECK_EQ_U64(anvil_wait_attempt_deadline_ms(&s, 1000), 8000);
    CHECK_OK(anvil_wait_report_output(&s, 1000, NULL, 200, NULL));
    /* 7 - 5 <= 5: the second attempt is the last, at the deadline, and may run 5 s past it. */
    uint64_t at = 0;
    CHECK_EQ_INT(anvil_wait_next(&s, 1000, &at), ANVIL_WAIT_SLEEP);
    CHECK_EQ_U64(at, 8000);
    CHECK_EQ_INT(anvil_wait_next(&s, 8000, NULL), ANVIL_WAIT_INVOKE);
    CHECK_EQ_U64(anvil_wait_attempt_deadline_ms(&s, 8000), 13000);
    anvil_wait_expire(&s, 13000, NULL);
    CHECK_EQ_INT(s_out(&s).reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK_EQ_U64(s_out(&s).elapsed_ms, 12000);
done:
    anvil_waiter_set_destroy(set);
}
