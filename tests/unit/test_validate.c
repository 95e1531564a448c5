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
           "[ERROR] ex#Get: Waiter `X`, acceptor 0: The `message` property is only valid on acceptors with a "
           "`failure` state, but found state `success`. | WaitableTrait");
    EXPECT("{\"X\": {\"acceptors\": [" OK_ACCEPTOR ", {\"state\": \"failure\", \"matcher\": {\"success\": false},"
           " \"message\": \"foo.@@invalid\"}]}}",
           NULL,
           "[ERROR] ex#Get: Waiter `X`, acceptor 1: Invalid JMESPath expression in `message` (foo.@@invalid): Syntax "
           "error at line 1 column 5: expected an identifier, '*', '[' or '{' after '.', found '@' | WaitableTrait");
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

TEST(validate_return_type_passes_what_fits) {
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    /* A comparison is a boolean; a member of the input/output pair is found by name. */
    CHECK_OK(s_events(t,
                      "{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
                      "\"length(status) > `0`\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}},"
                      "{\"state\": \"failure\", \"matcher\": {\"inputOutput\": {\"path\": \"output.status\", "
                      "\"expected\": \"DOWN\", \"comparator\": \"stringEquals\"}}}]}}",
                      NULL, &got));
    CHECK_EQ_U64(got.len, 0);
    /* A multi-select hash of 16 keys or more is an indexed object: looked up, not read past. */
    anvil_buf_clean_up(&got);
    anvil_buf_init(&got, t->alloc, 0);
    CHECK_OK(s_events(t,
                      "{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
                      "\"{k0: status, k1: ok, k2: ok, k3: status, k4: ok, k5: ok, k6: ok, k7: ok, k8: ok, k9: ok, "
                      "k10: ok, k11: ok, k12: ok, k13: ok, k14: ok, k15: ok, k16: ok}.k3\", \"expected\": \"UP\", "
                      "\"comparator\": \"stringEquals\"}}}]}}",
                      NULL, &got));
    CHECK_EQ_U64(got.len, 0);
done:
    anvil_buf_clean_up(&got);
}

/* The JMESPath linter's problems, as Smithy's TypeChecker words and places them. */
TEST(validate_lints_waiter_paths) {
    /* A member the output lacks: DANGER, and the path's type is then null. */
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"nope\", "
           "\"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 0: Problem found in JMESPath expression (nope): Object field 'nope' "
           "does not exist in object with properties [status, ok] (1:1) | "
           "WaitableTraitJmespathProblem.JmespathEventDanger.X.0");
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"nope\", "
           "\"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 0: Waiter acceptors with a booleanEquals comparator must return a "
           "`boolean` type, but this acceptor was statically determined to return a `null` type. | "
           "WaitableTraitJmespathProblem.ReturnTypeMismatch.X.0");
    /* A field taken from a string. */
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
           "\"status.code\", \"expected\": \"a\", \"comparator\": \"stringEquals\"}}}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 0: Problem found in JMESPath expression (status.code): Object field "
           "'code' extraction performed on string (1:8) | WaitableTraitJmespathProblem.JmespathEventDanger.X.0");
    /* A projection over an object, a comparator strings do not have, a function given a boolean. */
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
           "\"ok[*]\", \"expected\": \"a\", \"comparator\": \"allStringEquals\"}}}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 0: Problem found in JMESPath expression (ok[*]): Array projection "
           "performed on boolean (1:4) | WaitableTraitJmespathProblem.JmespathEventDanger.X.0");
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
           "\"status < 'b'\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}",
           NULL,
           "[WARNING] ex#Get: Waiter `X`, acceptor 0: Problem found in JMESPath expression (status < 'b'): Invalid "
           "comparator '<' for string (1:10) | WaitableTraitJmespathProblem.JmespathEventWarning.X.0");
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
           "\"length(ok) > `0`\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}",
           NULL,
           "[ERROR] ex#Get: Waiter `X`, acceptor 0: Problem found in JMESPath expression (length(ok) > `0`): length "
           "function argument 0 error: Expected one of [string, array, object], but found boolean (1:8) | "
           "WaitableTrait");
    /* An operation without output: its output is the empty Unit structure. */
    EXPECT("{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": "
           "\"status\", \"expected\": \"a\", \"comparator\": \"stringEquals\"}}}]}}",
           "\"ex#Other\": {\"type\": \"operation\", \"traits\": {\"smithy.waiters#waitable\": {\"Y\": "
           "{\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"foo\", "
           "\"expected\": \"a\", \"comparator\": \"stringEquals\"}}}]}}}}",
           "[DANGER] ex#Other: Waiter `Y`, acceptor 0: Problem found in JMESPath expression (foo): Object field 'foo' "
           "does not exist in object with properties [] (1:1) | WaitableTraitJmespathProblem.JmespathEventDanger.Y.0");
done:;
}

/* Smithy's own TypeChecker cases, as waiter paths: the same messages at the same places. */
TEST(validate_lint_matches_smithy_type_checker_cases) {
    static const struct {
        const char *path, *problem;
    } cases[] = {
        {"`true` | [1:10]", "[DANGER] Slice performed on boolean (1:11)"},
        {"`true` | []", "[DANGER] Array flatten performed on boolean (1:10)"},
        {"[status] | *", "[DANGER] Object projection performed on array (1:12)"},
        {"[status].baz", "[DANGER] Object field 'baz' extraction performed on array (1:10)"},
        {"`true` | [?baz == bar]", "[DANGER] Filter projection performed on boolean (1:19)"},
        {"`true` | [foo, [1], {bar: foo}]", "[DANGER] Array index '1' extraction performed on boolean (1:17)"},
        {"`{}` | foo", "[DANGER] Object field 'foo' does not exist in object with properties [] (1:8)"},
        {"starts_with(`true`, `false`)",
         "[ERROR] starts_with function argument 1 error: Expected argument to be string, but found boolean (1:21)"},
        {"avg(`[\\\"a\\\", false]`)",
         "[ERROR] avg function argument 0 error: Expected an array of number, but found string at index 0 (1:5)"},
        {"avg(`true`)",
         "[ERROR] avg function argument 0 error: Expected argument to be an array, but found boolean (1:5)"},
        {"{foo: `true`} | floor(@)",
         "[ERROR] floor function argument 0 error: Expected argument to be number, but found object (1:23)"},
        {"(&status) == (&status)", "[WARNING] Invalid comparator '==' for expression (1:14)"},
        {"length(`null` >= `null` && 'hi')", "[WARNING] Invalid comparator '>=' for null (1:18)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char waitable[512], line[512];
        snprintf(waitable, sizeof waitable,
                 "{\"X\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"%s\","
                 " \"expected\": \"a\", \"comparator\": \"anyStringEquals\"}}}]}}",
                 cases[i].path);
        /* "[SEV] message" -> the event's severity and text. */
        const char *close = strchr(cases[i].problem, ']');
        struct anvil_buf got;
        anvil_buf_init(&got, t->alloc, 0);
        int rc = s_events(t, waitable, NULL, &got);
        snprintf(line, sizeof line, "%.*s ex#Get: Waiter `X`, acceptor 0: Problem found in JMESPath expression (",
                 (int)(close - cases[i].problem + 1), cases[i].problem);
        bool found = false;
        for (const char *at = got.data ? strstr(got.data, line) : NULL; at && !found; at = strstr(at + 1, line)) {
            const char *eol = strchr(at, '\n');
            const char *msg = strstr(at, "): ");
            found = msg && eol && msg < eol && strncmp(msg + 3, close + 2, strlen(close + 2)) == 0 &&
                    msg[3 + strlen(close + 2)] == ' ';
        }
        if (rc == ANVIL_OK && !found) {
            anvil_test_fail(t, __FILE__, __LINE__, "%s: want %s, got:\n%s", cases[i].path, cases[i].problem,
                            got.data ? got.data : "(no events)");
        }
        anvil_buf_clean_up(&got);
        CHECK_OK(rc);
    }
done:;
}

TEST(validate_lints_acceptor_messages) {
    /* A boolean message is an ERROR; a missing field is a DANGER; a string passes. */
    EXPECT("{\"X\": {\"acceptors\": [" OK_ACCEPTOR ", {\"state\": \"failure\", \"matcher\": {\"success\": false}, "
           "\"message\": \"ok\"}]}}",
           NULL,
           "[ERROR] ex#Get: Waiter `X`, acceptor 1: The `message` JMESPath expression must resolve to a string or an "
           "array of strings, but this expression was statically determined to return a `boolean` type. | "
           "WaitableTrait");
    EXPECT("{\"X\": {\"acceptors\": [" OK_ACCEPTOR ", {\"state\": \"failure\", \"matcher\": {\"success\": false}, "
           "\"message\": \"reason\"}]}}",
           NULL,
           "[DANGER] ex#Get: Waiter `X`, acceptor 1: Problem found in JMESPath expression (reason): Object field "
           "'reason' does not exist in object with properties [status, ok] (1:1) | "
           "WaitableTraitJmespathProblem.JmespathEventDanger.X.1");
    struct anvil_buf got;
    anvil_buf_init(&got, t->alloc, 0);
    CHECK_OK(s_events(t,
                      "{\"X\": {\"acceptors\": [" OK_ACCEPTOR ", {\"state\": \"failure\", \"matcher\": "
                      "{\"success\": false}, \"message\": \"[status, 'down']\"}]}}",
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
