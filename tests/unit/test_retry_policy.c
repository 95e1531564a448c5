/*
 * Retry policies (the Kotlin design's RetryPolicy: terminate and succeed,
 * terminate and fail, retry as an error type) running before the default
 * classification, and the retry loop's max total time. Time is a number
 * handed in; randomness is a seeded fake.
 */

#include "harness.h"

static struct anvil_retry_response s_error(int status, const char *code) {
    struct anvil_retry_response r = {0};
    r.http_status = status;
    r.code = anvil_sv_from_cstr(code);
    r.retry_after_ms = -1;
    return r;
}

/* A policy with a fixed verdict for one code, counting its calls. */
struct s_policy {
    const char *code;
    struct anvil_retry_verdict verdict;
    int calls;
    bool saw_success;
};

static void s_policy(void *ctx, const struct anvil_retry_response *r, struct anvil_retry_verdict *v) {
    struct s_policy *p = ctx;
    p->calls++;
    p->saw_success = r->success;
    if (v->directive != ANVIL_RETRY_DIRECTIVE_DEFAULT || v->why) {
        p->calls += 1000; /* the verdict must arrive zeroed */
    }
    if (r->success ? p->code == NULL : p->code && anvil_sv_eq_cstr(r->code, p->code)) {
        *v = p->verdict;
    }
}

struct s_fixture {
    struct anvil_fake_env fake;
    struct anvil_retry_strategy *strategy;
    struct anvil_retry_token token;
    bool has_token;
};

static int s_start(struct anvil_test *t, struct s_fixture *f, const struct anvil_retry_options *options,
                   struct s_policy *policy, bool idempotent) {
    memset(f, 0, sizeof *f);
    anvil_fake_env_init(&f->fake, 0, 7);
    struct anvil_retry_options o = options ? *options : (struct anvil_retry_options){0};
    o.env = &f->fake.env;
    int rc = anvil_retry_strategy_new(t->alloc, &o, &f->strategy);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_retry_call call = {
        .partition = "svc-region", .idempotent = idempotent, .policy = policy ? s_policy : NULL, .policy_ctx = policy};
    rc = anvil_retry_token_init(&f->token, f->strategy, &call);
    f->has_token = rc == ANVIL_OK;
    return rc;
}

static void s_stop(struct s_fixture *f) {
    if (f->has_token) {
        anvil_retry_token_clean_up(&f->token);
    }
    anvil_retry_strategy_release(f->strategy);
}

TEST(retry_policy_makes_an_unmodelled_code_retryable) {
    struct s_fixture f;
    struct s_policy p = {.code = "ResourceInUseException",
                         .verdict = {ANVIL_RETRY_DIRECTIVE_RETRY, ANVIL_RETRY_ERROR_SERVER, "in use"}};
    CHECK_OK(s_start(t, &f, NULL, &p, true));
    struct anvil_retry_response r = s_error(400, "ResourceInUseException");
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 0, &r, &d));
    CHECK_EQ_INT(p.calls, 1);
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_INT(d.type, ANVIL_RETRY_ERROR_SERVER);
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), 500 - 14);
    CHECK(strstr(d.explanation, "server error: in use (cost 14") != NULL);
    /* Without the policy the same 400 is a client error, not retried. */
    s_stop(&f);
    CHECK_OK(s_start(t, &f, NULL, NULL, true));
    CHECK_OK(anvil_retry_after_attempt(&f.token, 0, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NOT_RETRYABLE);
done:
    s_stop(&f);
}

TEST(retry_policy_retry_prices_the_type_it_names_and_overrides_idempotency) {
    struct s_fixture f;
    struct s_policy p = {.code = "InternalFailure",
                         .verdict = {ANVIL_RETRY_DIRECTIVE_RETRY, ANVIL_RETRY_ERROR_THROTTLING, NULL}};
    CHECK_OK(s_start(t, &f, NULL, &p, false));
    struct anvil_retry_response r = s_error(500, "InternalFailure");
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 0, &r, &d));
    /* A 500 on a non-idempotent operation is retried because the policy says so, at the throttling price. */
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_INT(d.type, ANVIL_RETRY_ERROR_THROTTLING);
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), 500 - 5);
    /* Kotlin's Timeout is the transient class. */
    CHECK_EQ_INT(ANVIL_RETRY_ERROR_TIMEOUT, ANVIL_RETRY_ERROR_TRANSIENT);
    /* Max attempts still bound a policy's retries. */
    CHECK_OK(anvil_retry_after_attempt(&f.token, 10, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_OK(anvil_retry_after_attempt(&f.token, 20, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_MAX_ATTEMPTS);
done:
    s_stop(&f);
}

TEST(retry_policy_fail_stops_a_retryable_error_without_spending_quota) {
    struct s_fixture f;
    struct s_policy p = {.code = "ThrottlingException",
                         .verdict = {ANVIL_RETRY_DIRECTIVE_FAIL, ANVIL_RETRY_ERROR_SERVER, "expected"}};
    struct anvil_retry_options o = {.mode = ANVIL_RETRY_ADAPTIVE};
    CHECK_OK(s_start(t, &f, &o, &p, true));
    uint64_t wait = 0;
    CHECK_OK(anvil_retry_before_attempt(&f.token, 0, &wait));
    struct anvil_retry_response r = s_error(400, "ThrottlingException");
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 100, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_POLICY);
    CHECK_STR_EQ(d.explanation, "not retried: expected");
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), 500);
    /* The throttle still reached the adaptive limiter: the next send may have to wait. */
    struct anvil_retry_token second;
    struct anvil_retry_call call = {.partition = "svc-region", .idempotent = true};
    CHECK_OK(anvil_retry_token_init(&second, f.strategy, &call));
    uint64_t waited = 0;
    for (int i = 0; i < 8; i++) {
        CHECK_OK(anvil_retry_before_attempt(&second, 100, &wait));
        waited += wait;
    }
    anvil_retry_token_clean_up(&second);
    CHECK(waited > 0);
done:
    s_stop(&f);
}

TEST(retry_policy_succeed_ends_an_error_as_a_success) {
    struct s_fixture f;
    struct s_policy p = {.code = "ConditionalCheckFailedException",
                         .verdict = {ANVIL_RETRY_DIRECTIVE_SUCCEED, ANVIL_RETRY_ERROR_SERVER, "already done"}};
    struct anvil_retry_options o = {.capacity = 600};
    CHECK_OK(s_start(t, &f, &o, &p, true));
    struct anvil_retry_response r = s_error(400, "ConditionalCheckFailedException");
    struct anvil_retry_decision d;
    /* Spend some quota first so the first-try reward shows. */
    struct anvil_retry_response busy = s_error(503, "ServiceUnavailable");
    CHECK_OK(anvil_retry_after_attempt(&f.token, 0, &busy, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), 600 - 14);
    CHECK_OK(anvil_retry_after_attempt(&f.token, 10, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_SUCCEED);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_POLICY);
    CHECK(strstr(d.explanation, "a policy ended attempt 2 as a success: already done") != NULL);
    /* The last retry's cost comes back, as for a success. */
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), 600);
done:
    s_stop(&f);
}

TEST(retry_policy_default_leaves_the_classification_alone) {
    struct s_fixture f;
    struct s_policy p = {.code = "SomethingElse",
                         .verdict = {ANVIL_RETRY_DIRECTIVE_FAIL, ANVIL_RETRY_ERROR_SERVER, NULL}};
    CHECK_OK(s_start(t, &f, NULL, &p, true));
    struct anvil_retry_response r = s_error(503, "ServiceUnavailable");
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 0, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_RETRYING);
    /* The policy sees successes too. */
    struct anvil_retry_response ok = {.success = true, .retry_after_ms = -1};
    CHECK_OK(anvil_retry_after_attempt(&f.token, 10, &ok, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_SUCCEED);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NONE);
    CHECK_EQ_INT(p.calls, 2);
    CHECK(p.saw_success);
done:
    s_stop(&f);
}

TEST(retry_policy_may_retry_a_success) {
    struct s_fixture f;
    struct s_policy p = {.code = NULL,
                         .verdict = {ANVIL_RETRY_DIRECTIVE_RETRY, ANVIL_RETRY_ERROR_TIMEOUT, "empty page"}};
    CHECK_OK(s_start(t, &f, NULL, &p, false));
    struct anvil_retry_response ok = {.success = true, .retry_after_ms = -1};
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 0, &ok, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_INT(d.type, ANVIL_RETRY_ERROR_TRANSIENT);
    CHECK(strstr(d.explanation, "transient error: empty page") != NULL);
done:
    s_stop(&f);
}

TEST(retry_max_total_time_ends_the_loop_before_a_late_retry) {
    struct s_fixture f;
    struct anvil_retry_options o = {.max_total_ms = 2000, .max_attempts = 10};
    CHECK_OK(s_start(t, &f, &o, NULL, true));
    CHECK_EQ_U64(anvil_retry_token_deadline_ms(&f.token), 0); /* not started yet */
    uint64_t wait;
    CHECK_OK(anvil_retry_before_attempt(&f.token, 1000, &wait));
    CHECK_EQ_U64(anvil_retry_token_deadline_ms(&f.token), 3000);
    /* A 503 asking for 1.5 s at 1.1 s: the retry starts at 2.6 s, inside the limit. */
    struct anvil_retry_response r = s_error(503, "ServiceUnavailable");
    r.retry_after_ms = 1500;
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 1100, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_U64(d.delay_ms, 1500);
    CHECK_OK(anvil_retry_before_attempt(&f.token, 2600, &wait));
    CHECK_EQ_U64(anvil_retry_token_deadline_ms(&f.token), 3000); /* from the first attempt, not this one */
    /* The next one would start at 4.2 s: the loop ends with the reason, and no quota is spent on it. */
    uint32_t quota = anvil_retry_quota(f.strategy, "svc-region");
    CHECK_OK(anvil_retry_after_attempt(&f.token, 2700, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_MAX_TIME);
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), quota);
    CHECK(strstr(d.explanation, "max total time exceeded") != NULL);
    CHECK(strstr(d.explanation, "3200 ms into a loop limited to 2000 ms") != NULL);
done:
    s_stop(&f);
}

TEST(retry_max_total_time_counts_from_the_first_report_without_before_attempt) {
    struct s_fixture f;
    struct anvil_retry_options o = {.max_total_ms = 100, .max_attempts = 10};
    CHECK_OK(s_start(t, &f, &o, NULL, true));
    struct anvil_retry_response r = s_error(503, "ServiceUnavailable");
    r.retry_after_ms = 150;
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&f.token, 500, &r, &d));
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_MAX_TIME);
    CHECK_EQ_U64(anvil_retry_token_deadline_ms(&f.token), 600);
    /* No limit: no deadline. */
    s_stop(&f);
    CHECK_OK(s_start(t, &f, NULL, NULL, true));
    uint64_t wait;
    CHECK_OK(anvil_retry_before_attempt(&f.token, 500, &wait));
    CHECK_EQ_U64(anvil_retry_token_deadline_ms(&f.token), 0);
done:
    s_stop(&f);
}

TEST(retry_past_the_call_deadline_is_not_made_and_costs_nothing) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    anvil_fake_env_init(&f.fake, 0, 7);
    struct anvil_retry_options o = {.env = &f.fake.env, .max_total_ms = 10000};
    CHECK_OK(anvil_retry_strategy_new(t->alloc, &o, &f.strategy));
    struct anvil_retry_call call = {.partition = "svc-region", .idempotent = true, .deadline_ms = 2000};
    CHECK_OK(anvil_retry_token_init(&f.token, f.strategy, &call));
    f.has_token = true;
    uint64_t wait;
    CHECK_OK(anvil_retry_before_attempt(&f.token, 0, &wait));
    struct anvil_retry_response r = s_error(503, "ServiceUnavailable");
    r.retry_after_ms = 1500;
    struct anvil_retry_decision d;
    /* At 0.4 s a retry after 1.5 s starts at 1.9 s: made. */
    CHECK_OK(anvil_retry_after_attempt(&f.token, 400, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    uint32_t quota = anvil_retry_quota(f.strategy, "svc-region");
    /* At 1.9 s it would start at 3.4 s, past the call's deadline (the loop's 10 s limit is later). */
    CHECK_OK(anvil_retry_after_attempt(&f.token, 1900, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_DEADLINE);
    CHECK_EQ_U64(anvil_retry_quota(f.strategy, "svc-region"), quota);
    CHECK(strstr(d.explanation, "after the call's deadline, 100 ms away") != NULL);
done:
    s_stop(&f);
}
