/* One hand-written invalid model per @waitable rule, each expecting its event. */

#include "harness.h"

/* Validates a whole model text and returns its events, one per line. */
static int s_model_events(struct anvil_test *t, const char *model_text, struct anvil_buf *out) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    int rc = anvil_model_load(t->alloc, model_text, strlen(model_text), NULL, &model, NULL);
    if (rc == ANVIL_OK) {
        rc = anvil_model_validate(model, t->alloc, &events);
    }
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_events_count(events); i++) {
        rc = anvil_event_format(anvil_events_at(events, i), out);
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(out, '\n');
        }
    }
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    return rc;
}

/* A service with operation ex#Get (output ex#Out {status: String, ok: Boolean}, error ex#Gone); `waitable` is spliced
 * in. */
static int s_events(struct anvil_test *t, const char *waitable, const char *extra_shapes, struct anvil_buf *out) {
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    int rc = anvil_buf_appendf(
        &text,
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Svc\": {\"type\": \"service\", \"operations\": [{\"target\": \"ex#Get\"}, {\"target\": \"ex#Other\"}]},"
        "\"ex#Get\": {\"type\": \"operation\", \"output\": {\"target\": \"ex#Out\"}, \"errors\": [{\"target\": \"ex#Gone\"}],"
        "  \"traits\": {\"smithy.waiters#waitable\": %s}},"
        "\"ex#Out\": {\"type\": \"structure\", \"members\": {\"status\": {\"target\": \"smithy.api#String\"},"
        "  \"ok\": {\"target\": \"smithy.api#Boolean\"}}},"
        "\"ex#Gone\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\"}}%s%s}}",
        waitable, ",", extra_shapes ? extra_shapes : "\"ex#Other\": {\"type\": \"operation\"}");
    if (rc == ANVIL_OK) {
        rc = s_model_events(t, text.data, out);
    }
    anvil_buf_clean_up(&text);
    return rc;
}

#define OK_ACCEPTOR                                                                                                    \
    "{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"status\", \"expected\": \"UP\", \"comparator\": \"stringEquals\"}}}"

#define EXPECT(waitable, extra, line)                                                                                  \
    do {                                                                                                               \
        struct anvil_buf got_;                                                                                         \
        anvil_buf_init(&got_, t->alloc, 0);                                                                            \
        int rc_ = s_events(t, waitable, extra, &got_);                                                                 \
        bool found_ = rc_ == ANVIL_OK && got_.data && strstr(got_.data, line "\n") != NULL;                            \
        if (rc_ == ANVIL_OK && !found_) {                                                                              \
            fprintf(stderr, "want: %s\ngot:\n%s\n", line, got_.data ? got_.data : "(no events)");                      \
        }                                                                                                              \
        anvil_buf_clean_up(&got_);                                                                                     \
        CHECK_OK(rc_);                                                                                                 \
        CHECK(found_);                                                                                                 \
    } while (0)

TEST(validate_valid_waiter_has_no_events) {
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    CHECK_OK(s_events(t,
                      "{\"Up\": {\"acceptors\": [" OK_ACCEPTOR
                      ", {\"state\": \"retry\", \"matcher\": {\"errorType\": \"ex#Gone\"}},"
                      "{\"state\": \"failure\", \"matcher\": {\"errorType\": \"Gone\"}, \"message\": \"status\"}]}}",
                      NULL, &got));
    CHECK_EQ_U64(got.len, 0);
done:
    anvil_buf_clean_up(&got);
}

TEST(validate_waiter_name_pattern) {
    EXPECT("{\"thingNotExists\": {\"acceptors\": [" OK_ACCEPTOR "]}}", NULL,
           "[ERROR] ex#Get: Error validating trait `smithy.waiters#waitable`.thingNotExists (map-key): String value "
           "provided for `smithy.waiters#WaiterName` must match regular expression: ^[A-Z]+[A-Za-z0-9]*$ | TraitValue");
done:;
}

TEST(validate_min_delay_above_max_delay) {
    EXPECT("{\"Bad\": {\"minDelay\": 10, \"maxDelay\": 5, \"acceptors\": [" OK_ACCEPTOR "]}}", NULL,
           "[ERROR] ex#Get: `smithy.waiters#waitable` trait waiter named `Bad` has a `minDelay` value of 10 that is "
           "greater than its `maxDelay` value of 5 | WaitableTrait");
    EXPECT("{\"Bad\": {\"minDelay\": 0, \"acceptors\": [" OK_ACCEPTOR "]}}", NULL,
           "[ERROR] ex#Get: Error validating trait `smithy.waiters#waitable`.Bad.minDelay: `minDelay` must be an "
           "integer of at least 1 | TraitValue");
done:;
}

TEST(validate_needs_a_success_acceptor) {
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"retry\", \"matcher\": {\"errorType\": \"Gone\"}}]}}", NULL,
           "[ERROR] ex#Get: No success state matcher found for `smithy.waiters#waitable` trait waiter named `X` | "
           "WaitableTrait");
    EXPECT("{\"X\": {\"acceptors\": []}}", NULL,
           "[ERROR] ex#Get: Error validating trait `smithy.waiters#waitable`.X.acceptors: at least one acceptor is "
           "required | TraitValue");
done:;
}

TEST(validate_message_only_on_failure_and_must_parse) {
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true}, \"message\": \"a\"}]}}",
           NULL,
           "[ERROR] ex#Get: The `message` property is only valid on acceptors with a `failure` state, but found state "
           "`success`. | WaitableTrait");
    EXPECT("{\"X\": {\"acceptors\": [" OK_ACCEPTOR ", {\"state\": \"failure\", \"matcher\": {\"success\": false},"
           " \"message\": \"foo.@@invalid\"}]}}",
           NULL,
           "[ERROR] ex#Get: Invalid JMESPath expression in `message` (foo.@@invalid): Syntax error at line 1 column 5: "
           "expected an identifier, '*', '[' or '{' after '.', found '@' | WaitableTrait");
done:;
}

TEST(validate_path_syntax_and_boolean_expected) {
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"||\", "
           "\"expected\": \"a\", \"comparator\": \"stringEquals\"}}}]}}",
           NULL,
           "[ERROR] ex#Get: Waiter `X`, acceptor 0: Invalid JMESPath expression (||): Syntax error at line 1 column 1: "
           "unexpected '||' | WaitableTrait");
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"ok\", "
           "\"expected\": \"foo\", \"comparator\": \"booleanEquals\"}}}]}}",
           NULL,
           "[ERROR] ex#Get: Waiter `X`, acceptor 0: Waiter acceptors with a booleanEquals comparator must set their "
           "`expected` value to 'true' or 'false', but found 'foo'. | WaitableTrait");
done:;
}

TEST(validate_matcher_is_a_union) {
    EXPECT(
        "{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true, \"errorType\": \"Gone\"}}]}}",
        NULL,
        "[ERROR] ex#Get: Error validating trait `smithy.waiters#waitable`.X.acceptors.0.matcher: the matcher union "
        "must have exactly one member set, found 2 | TraitValue");
done:;
}

TEST(validate_error_type_not_on_the_operation) {
    EXPECT("{\"X\": {\"acceptors\": [" OK_ACCEPTOR
           ", {\"state\": \"retry\", \"matcher\": {\"errorType\": \"Nope\"}}]}}",
           NULL,
           "[WARNING] ex#Get: Waiter `X`, acceptor 1: errorType 'Nope' not found on operation. This operation defines "
           "the following errors: [ex#Gone] | WaitableTraitInvalidErrorType.X.1");
done:;
}

TEST(validate_waiter_names_unique_in_the_service) {
    EXPECT("{\"Ready\": {\"acceptors\": [" OK_ACCEPTOR "]}}",
           "\"ex#Other\": {\"type\": \"operation\", \"traits\": {\"smithy.waiters#waitable\": {\"READY\": "
           "{\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true}}]}}}}",
           "[ERROR] ex#Get: `smithy.waiters#waitable` trait waiter name `ready` case-insensitively conflicts with "
           "waiters on other operations in the closure of service, `ex#Svc`: [ex#Other] | UniqueWaiterNames");
done:;
}

TEST(validate_no_waiters_on_event_streams) {
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    const char *model =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Sub\": {\"type\": \"operation\", \"output\": {\"target\": \"ex#SubOut\"},"
        "  \"traits\": {\"smithy.waiters#waitable\": {\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": "
        "{\"success\": true}}]}}}},"
        "\"ex#SubOut\": {\"type\": \"structure\", \"members\": {\"events\": {\"target\": \"ex#Events\"}}},"
        "\"ex#Events\": {\"type\": \"union\", \"members\": {\"a\": {\"target\": \"smithy.api#String\"}},"
        "  \"traits\": {\"smithy.api#streaming\": {}}}}}";
    struct anvil_model *m = NULL;
    struct anvil_events *events = NULL;
    CHECK_OK(anvil_model_load(t->alloc, model, strlen(model), NULL, &m, NULL));
    CHECK_OK(anvil_model_validate(m, t->alloc, &events));
    CHECK_EQ_U64(anvil_events_count(events), 1);
    CHECK_OK(anvil_event_format(anvil_events_at(events, 0), &got));
    CHECK_STR_EQ(got.data, "[ERROR] ex#Sub: Trait `smithy.waiters#waitable` cannot be applied to `ex#Sub`. This trait "
                           "may only be applied to shapes that match the following selector: operation "
                           ":not(-[input, output]-> structure > member > union[trait|streaming]) | TraitTarget");
done:
    anvil_events_destroy(events);
    anvil_model_destroy(m);
    anvil_buf_clean_up(&got);
}

TEST(validate_return_type_against_comparator) {
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"status\", "
           "\"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 0: Waiter acceptors with a booleanEquals comparator must return a "
           "`boolean` type, but this acceptor was statically determined to return a `string` type. | "
           "WaitableTraitJmespathProblem.ReturnTypeMismatch.X.0");
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"ok\", "
           "\"expected\": \"a\", \"comparator\": \"anyStringEquals\"}}}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 0: Waiter acceptors with a anyStringEquals comparator must return a "
           "`array` type, but this acceptor was statically determined to return a `boolean` type. | "
           "WaitableTraitJmespathProblem.ReturnTypeMismatch.X.0");
done:;
}

TEST(validate_return_type_skips_what_it_cannot_know) {
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    /* A missing field gives null (unknown), `length(...)` a number compared as a string is reported,
     * a function on the right type passes. */
    CHECK_OK(s_events(t,
                      "{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
                      "\"nope\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}},"
                      "{\"state\": \"retry\", \"matcher\": {\"output\": {\"path\": \"length(status) > `0`\", "
                      "\"expected\": \"true\", \"comparator\": \"booleanEquals\"}}},"
                      "{\"state\": \"failure\", \"matcher\": {\"inputOutput\": {\"path\": \"output.status\", "
                      "\"expected\": \"DOWN\", \"comparator\": \"stringEquals\"}}}]}}",
                      NULL, &got));
    CHECK_EQ_U64(got.len, 0);
done:
    anvil_buf_clean_up(&got);
}

TEST(validate_return_type_is_unknown_through_documents) {
    struct anvil_model *m = NULL;
    struct anvil_events *events = NULL;
    const char *model =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Get\": {\"type\": \"operation\", \"output\": {\"target\": \"ex#Out\"},"
        "  \"traits\": {\"smithy.waiters#waitable\": {\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": "
        "{\"output\": {\"path\": \"doc.anything\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}}},"
        "\"ex#Out\": {\"type\": \"structure\", \"members\": {\"doc\": {\"target\": \"smithy.api#Document\"}}}}}";
    CHECK_OK(anvil_model_load(t->alloc, model, strlen(model), NULL, &m, NULL));
    CHECK_OK(anvil_model_validate(m, t->alloc, &events));
    CHECK_EQ_U64(anvil_events_count(events), 0);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(m);
}

TEST(validate_request_compression) {
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    const char *model =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#NoInput\": {\"type\": \"operation\", \"traits\": {\"smithy.api#requestCompression\": {\"encodings\": [\"gzip\"]}}},"
        "\"ex#Empty\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#In\"},"
        "  \"traits\": {\"smithy.api#requestCompression\": {\"encodings\": []}}},"
        "\"ex#Bad\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#In\"},"
        "  \"traits\": {\"smithy.api#requestCompression\": {\"encodings\": [\"GZIP\", \"br\", \"zstd\"]}}},"
        "\"ex#Stream\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#StreamIn\"},"
        "  \"traits\": {\"smithy.api#requestCompression\": {\"encodings\": [\"gzip\"]}}},"
        "\"ex#In\": {\"type\": \"structure\", \"members\": {\"data\": {\"target\": \"smithy.api#Blob\"}}},"
        "\"ex#StreamIn\": {\"type\": \"structure\", \"members\": {\"body\": {\"target\": \"ex#Body\"}}},"
        "\"ex#Body\": {\"type\": \"blob\", \"traits\": {\"smithy.api#streaming\": {}, \"smithy.api#requiresLength\": {}}}}}";
    CHECK_OK(s_model_events(t, model, &got));
    CHECK_STR_EQ(
        got.data,
        "[ERROR] ex#Bad: Invalid compression algorithms found in `requestCompression` trait applied to "
        "`ex#Bad`: `br`, `zstd` | RequestCompressionTrait\n"
        "[ERROR] ex#Empty: There must be at least one compression algorithm in `encodings` for the "
        "`requestCompression` trait applied to `ex#Empty` | RequestCompressionTrait\n"
        "[ERROR] ex#NoInput: The `requestCompression` trait can only be applied to operations which have an "
        "input shape defined | RequestCompressionTrait\n"
        "[ERROR] ex#Stream: The `requestCompression` trait can only be applied to operations which do not have "
        "input members that target shapes with both the `streaming` and `requiresLength` traits applied, but "
        "found member `ex#StreamIn$body` targeting `ex#Body` | RequestCompressionTrait\n");
done:
    anvil_buf_clean_up(&got);
}

TEST(validate_idempotency_token_placement) {
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    const char *model =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Create\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#Token\"}},"
        "\"ex#Describe\": {\"type\": \"operation\", \"output\": {\"target\": \"ex#Token\"}, \"errors\": [{\"target\": \"ex#Token\"}]},"
        "\"ex#Wrapper\": {\"type\": \"structure\", \"members\": {\"inner\": {\"target\": \"ex#Token\"}}},"
        "\"ex#Token\": {\"type\": \"structure\", \"members\": {\"token\": {\"target\": \"smithy.api#String\","
        "  \"traits\": {\"smithy.api#idempotencyToken\": {}}}}},"
        "\"ex#Fine\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#FineIn\"}},"
        "\"ex#FineIn\": {\"type\": \"structure\", \"members\": {\"token\": {\"target\": \"smithy.api#String\","
        "  \"traits\": {\"smithy.api#idempotencyToken\": {}}}}},"
        "\"ex#NotString\": {\"type\": \"structure\", \"members\": {\"n\": {\"target\": \"smithy.api#Integer\","
        "  \"traits\": {\"smithy.api#idempotencyToken\": {}}}}}}}";
    CHECK_OK(s_model_events(t, model, &got));
    CHECK_STR_EQ(
        got.data,
        "[ERROR] ex#NotString$n: Trait `idempotencyToken` cannot be applied to `ex#NotString$n`. This trait "
        "may only be applied to shapes that match the following selector: structure > :test(member > string) "
        "| TraitTarget\n"
        "[WARNING] ex#Token$token: The `idempotencyToken` trait only has an effect when applied to a top-level "
        "operation input member, but it was applied and ignored in the following contexts: {output: "
        "[ex#Describe], error: [ex#Describe], member target: [ex#Wrapper$inner]} | IdempotencyTokenIgnored\n");
done:
    anvil_buf_clean_up(&got);
}
