/*
 * The retry strategy beyond the conformance vectors: idempotency, cancelled
 * calls, the adaptive limiter's send tokens, partitions, reference counts,
 * and the explanations each decision carries.
 */

#include "harness.h"

#include "behavior/rate_limiter.h"

static struct anvil_retry_response s_status(int status, const char *code) {
    struct anvil_retry_response r = {0};
    r.http_status = status;
    r.code = anvil_sv_from_cstr(code ? code : "");
    r.retry_after_ms = -1;
    return r;
}

static struct anvil_retry_response s_io(enum anvil_retry_io_error io) {
    struct anvil_retry_response r = {0};
    r.io_error = io;
    r.retry_after_ms = -1;
    return r;
}

/* One attempt of a fresh operation (idempotent or not) that fails with `r`. */
static int s_decide(struct anvil_test *t, bool idempotent, const struct anvil_retry_response *r,
                    struct anvil_retry_decision *d) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_retry_options o = {.env = &fake.env};
    struct anvil_retry_strategy *s = NULL;
    int rc = anvil_retry_strategy_new(t->alloc, &o, &s);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_retry_token token;
    struct anvil_retry_call call = {.partition = "svc-region", .idempotent = idempotent};
    rc = anvil_retry_token_init(&token, s, &call);
    if (rc == ANVIL_OK) {
        rc = anvil_retry_after_attempt(&token, 0, r, d);
        anvil_retry_token_clean_up(&token);
    }
    anvil_retry_strategy_release(s);
    return rc;
}

TEST(retry_non_idempotent_operations_retry_only_safe_failures) {
    struct anvil_retry_decision d;
    /* A 500 on an open connection may have had an effect: not retried. */
    struct anvil_retry_response r = s_status(500, "InternalFailure");
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NOT_IDEMPOTENT);
    CHECK(strstr(d.explanation, "not idempotent") != NULL);
    /* The same 500 on an idempotent operation is retried. */
    CHECK_OK(s_decide(t, true, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    /* A connection reset after sending: not safe either. */
    r = s_io(ANVIL_RETRY_IO_RESET);
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NOT_IDEMPOTENT);
    /* 503, throttling, modelled retryable and a refused connection are safe for any operation. */
    r = s_status(503, "");
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    r = s_status(400, "ThrottlingException");
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_INT(d.type, ANVIL_RETRY_ERROR_THROTTLING);
    r = s_status(400, "SomethingModelled");
    r.modeled_retryable = true;
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    r = s_io(ANVIL_RETRY_IO_CONNECT_REFUSED);
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK(strstr(d.explanation, "retrying a transport error: connection refused (cost 14, quota 486)") != NULL);
done:;
}

TEST(retry_never_retries_a_cancelled_call_or_a_client_error) {
    struct anvil_retry_decision d;
    struct anvil_retry_response r = s_io(ANVIL_RETRY_IO_CANCELLED);
    CHECK_OK(s_decide(t, true, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NOT_RETRYABLE);
    CHECK_STR_EQ(d.explanation, "not retried: the call was cancelled");
    r = s_status(404, "ResourceNotFoundException");
    CHECK_OK(s_decide(t, true, &r, &d));
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NOT_RETRYABLE);
    CHECK_STR_EQ(d.explanation, "not retried: a client error is not retryable");
    /* A bare 429 without a throttling code is not retried (botocore#2635), even when safe. */
    r = s_status(429, "");
    CHECK_OK(s_decide(t, true, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    r = s_io(ANVIL_RETRY_IO_DNS_NOT_FOUND);
    CHECK_OK(s_decide(t, true, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    /* A clock-skew error the caller corrected its clock from: retried, even for a non-idempotent call. */
    r = s_status(400, "RequestTimeTooSkewed");
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    r.clock_corrected = true;
    CHECK_OK(s_decide(t, false, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_INT(d.type, ANVIL_RETRY_ERROR_TRANSIENT);
    /* An answer over the size cap would come back as large: not retried. */
    r = s_io(ANVIL_RETRY_IO_TOO_LARGE);
    CHECK_OK(s_decide(t, true, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_NOT_RETRYABLE);
done:;
}

TEST(retry_partitions_are_separate_and_case_insensitive) {
    struct anvil_retry_strategy *s = NULL;
    struct anvil_retry_token a, b;
    bool have_a = false, have_b = false;
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_retry_options o = {.capacity = 20, .env = &fake.env};
    CHECK_OK(anvil_retry_strategy_new(t->alloc, &o, &s));
    struct anvil_retry_call ca = {.partition = "DynamoDB-us-east-1", .service = "dynamodb", .idempotent = true};
    struct anvil_retry_call cb = {.partition = "dynamodb-US-EAST-1", .service = "dynamodb", .idempotent = true};
    CHECK_OK(anvil_retry_token_init(&a, s, &ca));
    have_a = true;
    CHECK_OK(anvil_retry_token_init(&b, s, &cb));
    have_b = true;
    struct anvil_retry_response r = s_status(500, "");
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&a, 0, &r, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    CHECK_EQ_U64(anvil_retry_quota(s, "dynamodb-us-east-1"), 6);
    /* The other token shares the bucket: 14 > 6. */
    CHECK_OK(anvil_retry_after_attempt(&b, 0, &r, &d));
    CHECK_EQ_INT(d.reason, ANVIL_RETRY_REASON_QUOTA_EXCEEDED);
    CHECK_STR_EQ(d.explanation, "retry quota exceeded: a server error costs 14, 6 left");
    /* Another partition is untouched. */
    CHECK_EQ_U64(anvil_retry_quota(s, "dynamodb-eu-west-1"), 20);
done:
    if (have_a) {
        anvil_retry_token_clean_up(&a);
    }
    if (have_b) {
        anvil_retry_token_clean_up(&b);
    }
    anvil_retry_strategy_release(s);
}

TEST(retry_strategy_lives_while_tokens_hold_it) {
    struct anvil_retry_strategy *s = NULL;
    struct anvil_retry_token token;
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_retry_options o = {.env = &fake.env};
    CHECK_OK(anvil_retry_strategy_new(t->alloc, &o, &s));
    CHECK_OK(anvil_retry_token_init(&token, s, NULL));
    anvil_retry_strategy_release(s); /* the token still holds it */
    s = NULL;
    struct anvil_retry_response ok = {.success = true, .retry_after_ms = -1};
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&token, 0, &ok, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_SUCCEED);
    CHECK_STR_EQ(d.explanation, "succeeded on attempt 1 (quota 500)");
    anvil_retry_token_clean_up(&token); /* frees it; the counting allocator checks */
done:
    anvil_retry_strategy_release(s);
}

TEST(retry_rejects_invalid_options_and_a_failing_random_source) {
    struct anvil_retry_strategy *s = NULL;
    struct anvil_retry_options bad = {.mode = (enum anvil_retry_mode)7};
    CHECK_STATUS(anvil_retry_strategy_new(t->alloc, &bad, &s), ANVIL_EINVAL);
    CHECK(s == NULL);
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    fake.fail_random = true;
    struct anvil_retry_options o = {.env = &fake.env};
    CHECK_OK(anvil_retry_strategy_new(t->alloc, &o, &s));
    struct anvil_retry_token token;
    CHECK_OK(anvil_retry_token_init(&token, s, NULL));
    struct anvil_retry_response r = s_status(503, "");
    struct anvil_retry_decision d;
    CHECK_STATUS(anvil_retry_after_attempt(&token, 0, &r, &d), ANVIL_EIO);
    CHECK_EQ_INT(d.action, ANVIL_RETRY_FAIL);
    CHECK_EQ_U64(anvil_retry_quota(s, NULL), 500); /* nothing was debited */
    anvil_retry_token_clean_up(&token);
done:
    anvil_retry_strategy_release(s);
}

TEST(retry_adaptive_limits_sending_after_a_throttle) {
    struct anvil_retry_strategy *s = NULL;
    struct anvil_retry_token token;
    bool have = false;
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_retry_options o = {.mode = ANVIL_RETRY_ADAPTIVE, .max_attempts = 10, .env = &fake.env};
    CHECK_OK(anvil_retry_strategy_new(t->alloc, &o, &s));
    CHECK_OK(anvil_retry_token_init(&token, s, NULL));
    have = true;
    uint64_t wait = 1;
    /* Until the first throttle, sending is free. */
    CHECK_OK(anvil_retry_before_attempt(&token, 1000, &wait));
    CHECK_EQ_U64(wait, 0);
    struct anvil_retry_response throttled = s_status(400, "Throttling");
    struct anvil_retry_decision d;
    CHECK_OK(anvil_retry_after_attempt(&token, 1000, &throttled, &d));
    CHECK_EQ_INT(d.action, ANVIL_RETRY_AGAIN);
    /* Now the bucket is empty (capacity 0, fill rate 0.5/s): a send token takes 2 s. */
    CHECK_OK(anvil_retry_before_attempt(&token, 1000, &wait));
    CHECK_EQ_U64(wait, 2000);
    CHECK_OK(anvil_retry_before_attempt(&token, 3000, &wait));
    CHECK_EQ_U64(wait, 0);
    anvil_retry_token_clean_up(&token);
    have = false;
    anvil_retry_strategy_release(s);
    s = NULL;
    /* Fail fast instead of waiting. */
    o.adaptive_fail_fast = true;
    CHECK_OK(anvil_retry_strategy_new(t->alloc, &o, &s));
    CHECK_OK(anvil_retry_token_init(&token, s, NULL));
    have = true;
    CHECK_OK(anvil_retry_after_attempt(&token, 1000, &throttled, &d));
    CHECK_STATUS(anvil_retry_before_attempt(&token, 1000, &wait), ANVIL_EQUOTA);
done:
    if (have) {
        anvil_retry_token_clean_up(&token);
    }
    anvil_retry_strategy_release(s);
}

TEST(retry_rate_limiter_never_goes_negative) {
    struct anvil__rate_limiter l;
    anvil__rate_limiter_init(&l, 0);
    anvil__rate_limiter_update(&l, 0.1, true); /* enables it */
    for (int i = 0; i < 1000; i++) {
        double now = 0.1 + i * 0.001;
        double wait = anvil__rate_limiter_acquire(&l, now, 1.0);
        CHECK(wait >= 0);
        CHECK(l.capacity >= 0);
    }
done:;
}

TEST(retry_reads_modelled_retryable_errors) {
    static const char json[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Svc\": {\"type\": \"service\", \"operations\": [{\"target\": \"ex#Put\"}],"
        "  \"errors\": [{\"target\": \"ex#Busy\"}]},"
        "\"ex#Put\": {\"type\": \"operation\", \"errors\": [{\"target\": \"ex#Slow\"}, {\"target\": \"ex#Bad\"}]},"
        "\"ex#Slow\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\","
        "  \"smithy.api#retryable\": {\"throttling\": true}, \"aws.protocols#awsQueryError\": {\"code\": \"Slow\"}}},"
        "\"ex#Busy\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"server\","
        "  \"smithy.api#retryable\": {}}},"
        "\"ex#Bad\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\"}}"
        "}}";
    struct anvil_model *m = NULL;
    CHECK_OK(anvil_model_load(t->alloc, json, strlen(json), NULL, &m, NULL));
    const struct anvil_shape *put = anvil_model_find(m, "ex#Put", 6);
    struct anvil_retry_response r = s_status(400, "Slow"); /* the awsQuery code of SlowException */
    anvil_retry_response_from_model(&r, m, put);
    CHECK(r.modeled_retryable && r.modeled_throttling);
    r = s_status(500, "ex#Busy:http://x"); /* a service error, by normalised name */
    anvil_retry_response_from_model(&r, m, put);
    CHECK(r.modeled_retryable && !r.modeled_throttling);
    r = s_status(400, "Bad");
    anvil_retry_response_from_model(&r, m, put);
    CHECK(!r.modeled_retryable);
    struct anvil_retry_class c;
    anvil_retry_classify(&r, &c);
    CHECK(!c.retryable);
done:
    anvil_model_destroy(m);
}
