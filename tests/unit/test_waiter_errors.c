/*
 * Errors inside a poll (DESIGN.md, "Retries inside a waiter"): which errors
 * a waiter expects, so that a client hands them over at once instead of
 * retrying them, and a poll cut off at the deadline keeping the last error
 * it saw.
 */

#include "harness.h"
#include "waiter_trait.h"

static const char s_table_exists[] =
    "{\"TableExists\": {\"acceptors\": ["
    "{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"Table.TableStatus\", \"expected\": \"ACTIVE\","
    " \"comparator\": \"stringEquals\"}}},"
    "{\"state\": \"retry\", \"matcher\": {\"errorType\": \"ResourceNotFoundException\"}},"
    "{\"state\": \"failure\", \"matcher\": {\"errorType\": \"com.example#ThrottlingException\"}}]}}";

TEST(waiter_expects_the_errors_its_error_type_acceptors_name) {
    struct anvil_waiter_set *set = NULL;
    CHECK_OK(waiter_trait_set(t, s_table_exists, &set));
    const struct anvil_waiter *w = anvil_waiter_set_at(set, 0);
    struct anvil_operation_error e = {ANVIL_SV("ResourceNotFoundException"), ANVIL_SV(""), 400};
    CHECK_EQ_INT(anvil_waiter_expects_error(w, &e), 1);
    /* Codes as services send them: namespaced, with a suffix. */
    e.code = ANVIL_SV("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException:http://internal");
    CHECK_EQ_INT(anvil_waiter_expects_error(w, &e), 1);
    e.code = ANVIL_SV("ThrottlingException");
    CHECK_EQ_INT(anvil_waiter_expects_error(w, &e), 2);
    /* What no acceptor names is the client's to retry. */
    e.code = ANVIL_SV("ServiceUnavailable");
    e.http_status = 503;
    CHECK_EQ_INT(anvil_waiter_expects_error(w, &e), -1);
    e.code = ANVIL_SV("");
    e.http_status = 0;
    CHECK_EQ_INT(anvil_waiter_expects_error(w, &e), -1);
    CHECK_EQ_INT(anvil_waiter_expects_error(NULL, &e), -1);
    CHECK_EQ_INT(anvil_waiter_expects_error(w, NULL), -1);
done:
    anvil_waiter_set_destroy(set);
}

TEST(waiter_with_success_false_expects_every_error) {
    struct anvil_waiter_set *set = NULL;
    CHECK_OK(
        waiter_trait_set(t,
                         "{\"Gone\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": false}}]},"
                         " \"Done\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true}}]}}",
                         &set));
    const struct anvil_waiter *gone = anvil_waiter_set_find(set, "Gone", 4);
    const struct anvil_waiter *done_waiter = anvil_waiter_set_find(set, "Done", 4);
    CHECK(gone && done_waiter);
    struct anvil_operation_error e = {ANVIL_SV("ServiceUnavailable"), ANVIL_SV("busy"), 503};
    CHECK_EQ_INT(anvil_waiter_expects_error(gone, &e), 0);
    /* A transport failure is an error too. */
    e = (struct anvil_operation_error){ANVIL_SV(""), ANVIL_SV("connection reset"), 0};
    CHECK_EQ_INT(anvil_waiter_expects_error(gone, &e), 0);
    /* success: true expects no error. */
    CHECK_EQ_INT(anvil_waiter_expects_error(done_waiter, &e), -1);
done:
    anvil_waiter_set_destroy(set);
}

TEST(waiter_botocore_status_and_error_matchers_expect_errors) {
    static const char json[] =
        "{\"version\": 2, \"waiters\": {\"BucketNotExists\": {\"operation\": \"HeadBucket\", \"delay\": 5,"
        " \"maxAttempts\": 20, \"acceptors\": ["
        "{\"expected\": 200, \"matcher\": \"status\", \"state\": \"retry\"},"
        "{\"expected\": 404, \"matcher\": \"status\", \"state\": \"success\"}]},"
        " \"AnyError\": {\"operation\": \"Get\", \"delay\": 5, \"maxAttempts\": 20, \"acceptors\": ["
        "{\"expected\": true, \"matcher\": \"error\", \"state\": \"failure\"},"
        "{\"expected\": \"Ready\", \"matcher\": \"path\", \"argument\": \"State\", \"state\": \"success\"}]}}}";
    struct anvil_waiter_set *set = NULL;
    CHECK_OK(anvil_waiter_set_from_botocore(t->alloc, json, strlen(json), &set, NULL));
    const struct anvil_waiter *bucket = anvil_waiter_set_find(set, "BucketNotExists", 15);
    const struct anvil_waiter *any = anvil_waiter_set_find(set, "AnyError", 8);
    CHECK(bucket && any);
    struct anvil_operation_error e = {ANVIL_SV("NotFound"), ANVIL_SV(""), 404};
    CHECK_EQ_INT(anvil_waiter_expects_error(bucket, &e), 1);
    e.http_status = 500;
    CHECK_EQ_INT(anvil_waiter_expects_error(bucket, &e), -1);
    CHECK_EQ_INT(anvil_waiter_expects_error(any, &e), 0);
done:
    anvil_waiter_set_destroy(set);
}

/* An operation whose first poll says CREATING and whose second is cut off at the deadline after a 503. */
struct s_cut {
    struct anvil_fake_env *fake;
    size_t calls;
    bool say_error;
};

static int s_cut_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                      struct anvil_operation_reply *reply) {
    (void)input;
    struct s_cut *cut = user_data;
    if (cut->calls++ == 0) {
        static const char body[] = "{\"Table\": {\"TableStatus\": \"CREATING\"}}";
        return anvil_json_parse_into(arena, NULL, body, strlen(body), NULL, &reply->output, NULL);
    }
    /* The client retried a 503 until the deadline; the reply keeps that 503. */
    cut->fake->now_ms = deadline_ms;
    if (cut->say_error) {
        char *code = anvil_arena_strndup(arena, "ServiceUnavailable", 18);
        if (!code) {
            return ANVIL_ENOMEM;
        }
        reply->error.code = anvil_sv(code, 18);
        reply->error.message = ANVIL_SV("busy");
        reply->error.http_status = 503;
        reply->http_status = 503;
    }
    return ANVIL_ETIMEDOUT;
}

TEST(waiter_poll_cut_at_the_deadline_keeps_the_last_error_it_saw) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_cut cut = {&fake, 0, true};
    struct anvil_wait_call call = {s_cut_call, &cut, NULL, NULL, &fake.env, t->alloc};
    struct anvil_wait_options options = {.max_wait_ms = 20000, .min_delay_s = 5, .max_delay_s = 5};
    CHECK_OK(waiter_trait_set(t, s_table_exists, &set));
    CHECK_OK(anvil_wait(anvil_waiter_set_at(set, 0), NULL, &options, &call, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK_EQ_U64(result.outcome.elapsed_ms, 20000);
    CHECK(result.outcome.has_error);
    CHECK(!result.outcome.has_output);
    CHECK(anvil_sv_eq_cstr(result.outcome.error.code, "ServiceUnavailable"));
    CHECK_EQ_INT(result.outcome.error.http_status, 503);
    CHECK_EQ_INT(result.outcome.acceptor, -1);
    anvil_wait_result_clean_up(&result);
    /* A poll cut off before any answer keeps the poll before it. */
    cut = (struct s_cut){&fake, 0, false};
    fake.now_ms = 0;
    CHECK_OK(anvil_wait(anvil_waiter_set_at(set, 0), NULL, &options, &call, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK(result.outcome.has_output);
    CHECK(!result.outcome.has_error);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}

/* The client's ways of ending an attempt: cut off after a transport failure, or cancelled. */
struct s_end {
    struct anvil_fake_env *fake;
    int status;
};

static int s_end_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                      struct anvil_operation_reply *reply) {
    (void)input;
    (void)arena;
    struct s_end *end = user_data;
    end->fake->now_ms = end->status == ANVIL_ETIMEDOUT ? deadline_ms : end->fake->now_ms + 500;
    if (end->status == ANVIL_ETIMEDOUT) {
        reply->error.message = ANVIL_SV("Couldn't connect to server");
        reply->failed_status = ANVIL_ETRANSPORT;
    }
    return end->status;
}

TEST(waiter_poll_cut_after_a_transport_failure_keeps_it) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_waiter_set *set = NULL;
    struct anvil_wait_result result = {0};
    struct s_end end = {&fake, ANVIL_ETIMEDOUT};
    struct anvil_wait_call call = {s_end_call, &end, NULL, NULL, &fake.env, t->alloc};
    struct anvil_wait_options options = {.max_wait_ms = 9000};
    CHECK_OK(waiter_trait_set(t, s_table_exists, &set));
    CHECK_OK(anvil_wait(anvil_waiter_set_at(set, 0), NULL, &options, &call, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_TIMED_OUT);
    CHECK(result.outcome.has_error);
    CHECK(anvil_sv_eq_cstr(result.outcome.error.code, "ANVIL_ETRANSPORT"));
    CHECK(anvil_sv_eq_cstr(result.outcome.error.message, "Couldn't connect to server"));
    anvil_wait_result_clean_up(&result);
    /* An operation that saw the cancellation ends the wait as cancelled, not as an error. */
    end.status = ANVIL_ECANCELED;
    fake.now_ms = 0;
    CHECK_OK(anvil_wait(anvil_waiter_set_at(set, 0), NULL, &options, &call, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_CANCELLED);
    CHECK_EQ_U64(result.outcome.elapsed_ms, 500);
done:
    anvil_wait_result_clean_up(&result);
    anvil_waiter_set_destroy(set);
}
