#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static int s_load(struct anvil_test *t, const char *text, struct anvil_model **model, struct anvil_diag *diag) {
    return anvil_model_load(t->alloc, text, strlen(text), NULL, model, diag);
}

static const char s_weather[] =
    "{\"smithy\": \"2.0\", \"metadata\": {\"suppressions\": []}, \"shapes\": {"
    "\"ex#Weather\": {\"type\": \"service\", \"version\": \"2006-03-01\", \"operations\": [{\"target\": \"ex#Ping\"}],"
    "  \"resources\": [{\"target\": \"ex#City\"}], \"errors\": [{\"target\": \"ex#Oops\"}]},"
    "\"ex#City\": {\"type\": \"resource\", \"identifiers\": {\"cityId\": {\"target\": \"smithy.api#String\"}},"
    "  \"read\": {\"target\": \"ex#GetCity\"}, \"list\": {\"target\": \"ex#ListCities\"},"
    "  \"resources\": [{\"target\": \"ex#Forecast\"}]},"
    "\"ex#Forecast\": {\"type\": \"resource\", \"read\": {\"target\": \"ex#GetForecast\"}},"
    "\"ex#Ping\": {\"type\": \"operation\"},"
    "\"ex#GetCity\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#GetCityInput\"},"
    "  \"output\": {\"target\": \"ex#GetCityOutput\"}, \"errors\": [{\"target\": \"ex#NoSuchCity\"}],"
    "  \"traits\": {\"smithy.api#readonly\": {}, \"smithy.waiters#waitable\": {\"CityExists\": {\"acceptors\": []}}}},"
    "\"ex#ListCities\": {\"type\": \"operation\", \"traits\": {\"smithy.api#paginated\": {\"items\": \"items\"}}},"
    "\"ex#GetForecast\": {\"type\": \"operation\"},"
    "\"ex#GetCityInput\": {\"type\": \"structure\", \"mixins\": [{\"target\": \"ex#HasId\"}],"
    "  \"members\": {\"verbose\": {\"target\": \"smithy.api#PrimitiveBoolean\"}}, \"traits\": {\"smithy.api#input\": {}}},"
    "\"ex#HasId\": {\"type\": \"structure\", \"members\": {\"cityId\": {\"target\": \"smithy.api#String\","
    "  \"traits\": {\"smithy.api#required\": {}}}}, \"traits\": {\"smithy.api#mixin\": {}, \"smithy.api#tags\": [\"x\"]}},"
    "\"ex#GetCityOutput\": {\"type\": \"structure\", \"members\": {\"names\": {\"target\": \"ex#Names\"},"
    "  \"byId\": {\"target\": \"ex#ById\"}}},"
    "\"ex#Names\": {\"type\": \"list\", \"member\": {\"target\": \"smithy.api#String\"}},"
    "\"ex#ById\": {\"type\": \"map\", \"key\": {\"target\": \"smithy.api#String\"}, \"value\": {\"target\": \"ex#Names\"}},"
    "\"ex#Oops\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"server\"}},"
    "\"ex#NoSuchCity\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\"}},"
    "\"ex#Color\": {\"type\": \"enum\", \"members\": {\"RED\": {\"target\": \"smithy.api#Unit\","
    "  \"traits\": {\"smithy.api#enumValue\": \"red\"}}}},"
    "\"ex#GetCity$verbose\": {\"type\": \"apply\", \"traits\": {\"smithy.api#documentation\": \"hmm\"}},"
    "\"ex#GetCityInput$verbose\": {\"type\": \"apply\", \"traits\": {\"smithy.api#documentation\": \"More detail\"}},"
    "\"ex#Ping\": {\"type\": \"operation\"}"
    "}}";

TEST(model_rejects_a_shape_defined_twice_in_json) {
    /* The JSON layer keeps the last of duplicate keys, so "ex#Ping" twice is one shape, and
     * "ex#GetCity$verbose" applies to a member GetCity does not have. */
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    CHECK_STATUS(s_load(t, s_weather, &model, &diag), ANVIL_EMODEL);
    CHECK_STR_EQ(diag.message, "apply targets member `verbose`, which `ex#GetCity` does not have");
done:
    anvil_model_destroy(model);
}

static char *s_without_bad_apply(struct anvil_test *t) {
    const char *bad =
        "\"ex#GetCity$verbose\": {\"type\": \"apply\", \"traits\": {\"smithy.api#documentation\": \"hmm\"}},";
    const char *at = strstr(s_weather, bad);
    size_t before = (size_t)(at - s_weather), skip = strlen(bad);
    char *text = anvil_mem_acquire(t->alloc, sizeof(s_weather));
    if (text) {
        memcpy(text, s_weather, before);
        strcpy(text + before, at + skip);
    }
    return text;
}

struct s_seen {
    char names[16][32];
    size_t count;
};

static bool s_collect(const struct anvil_shape *op, void *user_data) {
    struct s_seen *seen = user_data;
    struct anvil_str_view name = anvil_shape_name(op);
    snprintf(seen->names[seen->count++], sizeof(seen->names[0]), "%.*s", (int)name.len, name.ptr);
    return true;
}

TEST(model_loads_shapes_members_and_traits) {
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    char *text = s_without_bad_apply(t);
    CHECK_ALLOC(text);
    CHECK_OK(s_load(t, text, &model, &diag));
    CHECK(anvil_sv_eq_cstr(anvil_model_version(model), "2.0"));
    CHECK(anvil_json_is_object(anvil_model_metadata(model)));
    CHECK_EQ_U64(anvil_model_shape_count(model), 15);

    const struct anvil_shape *get = anvil_model_find(model, "ex#GetCity", 10);
    CHECK(get && anvil_shape_type(get) == ANVIL_SHAPE_OPERATION);
    CHECK(anvil_sv_eq_cstr(anvil_shape_name(get), "GetCity"));
    CHECK(anvil_shape_trait(get, "smithy.api#readonly") != NULL);
    CHECK(anvil_shape_trait(get, "smithy.api#idempotent") == NULL);
    CHECK(anvil_json_object_get_cstr(anvil_shape_trait(get, "smithy.waiters#waitable"), "CityExists") != NULL);
    CHECK_EQ_U64(anvil_shape_error_count(get), 1);
    CHECK(anvil_sv_eq_cstr(anvil_shape_id(anvil_shape_error_at(get, 0)), "ex#NoSuchCity"));

    /* Input: mixin members first, own traits plus the mixin's (but not smithy.api#mixin), applied member traits. */
    const struct anvil_shape *input = anvil_operation_input(get);
    CHECK(anvil_sv_eq_cstr(anvil_shape_id(input), "ex#GetCityInput"));
    CHECK_EQ_U64(anvil_shape_member_count(input), 2);
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(input, 0)->name, "cityId"));
    CHECK(anvil_json_object_get_cstr(&anvil_shape_member_at(input, 0)->traits, "smithy.api#required") != NULL);
    CHECK(anvil_shape_trait(input, "smithy.api#tags") != NULL);
    CHECK(anvil_shape_trait(input, "smithy.api#mixin") == NULL);
    CHECK(anvil_shape_trait(input, "smithy.api#input") != NULL);
    const struct anvil_member *verbose = anvil_shape_member(input, "verbose");
    CHECK(verbose && anvil_shape_is_prelude(verbose->target));
    CHECK(anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(&verbose->traits, "smithy.api#documentation")),
                           "More detail"));
    CHECK(anvil_shape_type(verbose->target) == ANVIL_SHAPE_BOOLEAN);

    /* Output: list and map members; a missing input is smithy.api#Unit. */
    const struct anvil_shape *out = anvil_operation_output(get);
    const struct anvil_shape *by_id = anvil_shape_member(out, "byId")->target;
    CHECK(anvil_shape_type(by_id) == ANVIL_SHAPE_MAP);
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(by_id, 1)->name, "value"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_id(anvil_shape_member_at(by_id, 1)->target), "ex#Names"));
    const struct anvil_shape *ping = anvil_model_find(model, "ex#Ping", 7);
    CHECK(anvil_sv_eq_cstr(anvil_shape_id(anvil_operation_input(ping)), "smithy.api#Unit"));
    CHECK(anvil_operation_input(by_id) == NULL);
    CHECK_STR_EQ(anvil_shape_type_name(anvil_shape_type(anvil_model_find(model, "ex#Color", 8))), "enum");
    CHECK(anvil_model_find(model, "smithy.api#String", 17) != NULL);
    CHECK(anvil_model_find(model, "ex#Nope", 7) == NULL);

    /* The closure: service operations, resource lifecycle operations, nested resources. */
    struct s_seen seen = {0};
    const struct anvil_shape *svc = anvil_model_find(model, "ex#Weather", 10);
    size_t visited = 0;
    CHECK_OK(anvil_service_operations(model, svc, s_collect, &seen, &visited));
    CHECK_EQ_U64(visited, 4);
    CHECK_STR_EQ(seen.names[0], "Ping");
    CHECK_STR_EQ(seen.names[1], "GetCity");
    CHECK_STR_EQ(seen.names[2], "ListCities");
    CHECK_STR_EQ(seen.names[3], "GetForecast");
    CHECK_STATUS(anvil_service_operations(model, get, s_collect, &seen, &visited), ANVIL_EINVAL);
    CHECK_EQ_U64(visited, 0);
done:
    anvil_mem_release(t->alloc, text);
    anvil_model_destroy(model);
}

TEST(model_rejects_malformed_models) {
    static const struct {
        const char *text;
        int status;
        const char *message;
    } cases[] = {
        {"{\"smithy\": \"2.0\", \"shapes\": {", ANVIL_ESYNTAX, "expected a string key, found end of input"},
        {"[]", ANVIL_EMODEL, "a Smithy JSON AST model must be an object"},
        {"{\"smithy\": \"3.0\"}", ANVIL_EMODEL, "the `smithy` version must be \"1.0\" or \"2.0\""},
        {"{\"smithy\": \"2.0\", \"shapes\": []}", ANVIL_EMODEL, "`shapes` must be an object"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"Foo\": {\"type\": \"string\"}}}", ANVIL_EMODEL,
         "`Foo` is not an absolute shape id (namespace#Name)"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#B\": {\"type\": \"strnig\"}}}", ANVIL_EMODEL,
         "shape `a#B` has unknown type `strnig`"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#B\": 3}}", ANVIL_EMODEL,
         "shape `a#B` must be an object with a string `type`"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#B\": {\"type\": \"structure\", \"members\": {\"x\": "
         "{\"target\": \"a#Missing\"}}}}}",
         ANVIL_EMODEL, "shape `a#B`: member `x` targets `a#Missing`, which is not defined"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#B\": {\"type\": \"list\"}}}", ANVIL_EMODEL,
         "shape `a#B`: a list needs a `member` member"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#Op\": {\"type\": \"operation\", \"input\": \"a#In\"}}}", ANVIL_EMODEL,
         "shape `a#Op`: input must be an object with a string `target`"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#S\": {\"type\": \"service\", \"operations\": {}}}}", ANVIL_EMODEL,
         "shape `a#S`: `operations` must be an array"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#A\": {\"type\": \"structure\", \"mixins\": [{\"target\": \"a#B\"}]},"
         "\"a#B\": {\"type\": \"structure\", \"mixins\": [{\"target\": \"a#A\"}]}}}",
         ANVIL_EMODEL, "shape `a#A` is part of a mixin cycle"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#X\": {\"type\": \"apply\", \"traits\": {}}}}", ANVIL_EMODEL,
         "apply targets `a#X`, which is not defined in this model"},
        {"{\"smithy\": \"2.0\", \"shapes\": {\"a#B\": {\"type\": \"string\", \"traits\": []}}}", ANVIL_EMODEL,
         "shape `a#B`: `traits` must be an object"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct anvil_model *model = (struct anvil_model *)1;
        struct anvil_diag diag;
        int rc = s_load(t, cases[i].text, &model, &diag);
        CHECK(model == NULL);
        if (rc == ANVIL_ENOMEM) {
            CHECK_OK(rc);
        }
        if (rc != cases[i].status || strcmp(diag.message, cases[i].message) != 0) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: got %s \"%s\", want %s \"%s\"", i, anvil_status_name(rc),
                            diag.message, anvil_status_name(cases[i].status), cases[i].message);
            goto done;
        }
    }
done:;
}

TEST(model_shape_limit) {
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    struct anvil_model_options options = {.max_shapes = 1};
    const char *text =
        "{\"smithy\": \"2.0\", \"shapes\": {\"a#A\": {\"type\": \"string\"}, \"a#B\": {\"type\": \"string\"}}}";
    CHECK_STATUS(anvil_model_load(t->alloc, text, strlen(text), &options, &model, &diag), ANVIL_ELIMIT);
    CHECK_STATUS(anvil_model_load(t->alloc, NULL, 3, NULL, &model, &diag), ANVIL_EINVAL);
    CHECK_OK(anvil_model_load(t->alloc, "{\"smithy\": \"1.0\"}", 17, NULL, &model, &diag));
    CHECK_EQ_U64(anvil_model_shape_count(model), 0);
done:
    anvil_model_destroy(model);
}

TEST(model_deep_nesting_is_a_clean_error) {
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    size_t depth = 100000;
    const char *head = "{\"smithy\": \"2.0\", \"shapes\": {\"a#B\": {\"type\": \"string\", \"traits\": {\"a#t\": ";
    size_t head_len = strlen(head);
    char *text = anvil_mem_acquire(t->alloc, head_len + 2 * depth + 8);
    CHECK_ALLOC(text);
    memcpy(text, head, head_len);
    memset(text + head_len, '[', depth);
    memset(text + head_len + depth, ']', depth);
    memcpy(text + head_len + 2 * depth, "}}}}", 4);
    CHECK_STATUS(anvil_model_load(t->alloc, text, head_len + 2 * depth + 4, NULL, &model, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "nesting deeper") != NULL);
    CHECK(model == NULL);
done:
    anvil_mem_release(t->alloc, text);
}

TEST(model_mixin_members_in_order) {
    struct anvil_model *model = NULL;
    const char *text =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"a#S\": {\"type\": \"structure\", \"mixins\": [{\"target\": \"a#M1\"}, {\"target\": \"a#M2\"}],"
        "  \"members\": {\"own\": {\"target\": \"smithy.api#String\"}, \"shared\": {\"target\": \"smithy.api#Integer\"}}},"
        "\"a#M1\": {\"type\": \"structure\", \"members\": {\"one\": {\"target\": \"smithy.api#String\"},"
        "  \"shared\": {\"target\": \"smithy.api#String\"}}, \"traits\": {\"smithy.api#mixin\": {}}},"
        "\"a#M2\": {\"type\": \"structure\", \"members\": {\"two\": {\"target\": \"smithy.api#String\"},"
        "  \"one\": {\"target\": \"smithy.api#String\"}}, \"traits\": {\"smithy.api#mixin\": {}}}}}";
    CHECK_OK(anvil_model_load(t->alloc, text, strlen(text), NULL, &model, NULL));
    const struct anvil_shape *s = anvil_model_find(model, "a#S", 3);
    CHECK_EQ_U64(anvil_shape_member_count(s), 4);
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, 0)->name, "one"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, 1)->name, "two"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, 2)->name, "own"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, 3)->name, "shared"));
    /* The shape's own definition of a member wins over the mixin's. */
    CHECK(anvil_shape_type(anvil_shape_member(s, "shared")->target) == ANVIL_SHAPE_INTEGER);
done:
    anvil_model_destroy(model);
}

TEST(model_typed_trait_readers) {
    static const char json[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Svc\": {\"type\": \"service\", \"traits\": {\"aws.protocols#awsJson1_0\": {},"
        "  \"aws.protocols#awsQuery\": {}, \"aws.auth#sigv4\": {\"name\": \"svc\"},"
        "  \"aws.api#service\": {\"sdkId\": \"Svc\", \"endpointPrefix\": \"svc-ep\", \"arnNamespace\": \"svc\"}}},"
        "\"ex#Put\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#PutInput\"},"
        "  \"traits\": {\"smithy.api#requestCompression\": {\"encodings\": [\"gzip\", \"br\"]}}},"
        "\"ex#PutInput\": {\"type\": \"structure\", \"members\": {"
        "  \"token\": {\"target\": \"smithy.api#String\", \"traits\": {\"smithy.api#idempotencyToken\": {}}},"
        "  \"body\": {\"target\": \"ex#Body\"}}},"
        "\"ex#Body\": {\"type\": \"blob\", \"traits\": {\"smithy.api#streaming\": {}, \"smithy.api#requiresLength\": {}}},"
        "\"ex#Get\": {\"type\": \"operation\", \"traits\": {\"smithy.api#readonly\": {}}},"
        "\"ex#Del\": {\"type\": \"operation\", \"traits\": {\"smithy.api#idempotent\": {}}},"
        "\"ex#Post\": {\"type\": \"operation\"},"
        "\"ex#Slow\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\", \"smithy.api#httpError\": 429,"
        "  \"smithy.api#retryable\": {\"throttling\": true},"
        "  \"aws.protocols#awsQueryError\": {\"code\": \"Throttling\", \"httpResponseCode\": 400}}},"
        "\"ex#Oops\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"server\", \"smithy.api#retryable\": {}}},"
        "\"ex#Bad\": {\"type\": \"structure\", \"traits\": {\"smithy.api#error\": \"client\"}}"
        "}}";
    struct anvil_model *m = NULL;
    CHECK_OK(anvil_model_load(t->alloc, json, strlen(json), NULL, &m, NULL));
    const struct anvil_shape *svc = anvil_model_find(m, "ex#Svc", 6);
    enum anvil_protocol protocols[4];
    CHECK_EQ_U64(anvil_service_protocols(svc, protocols, 4), 2);
    CHECK_EQ_INT(protocols[0], ANVIL_PROTOCOL_AWS_JSON_1_0);
    CHECK_EQ_INT(protocols[1], ANVIL_PROTOCOL_AWS_QUERY);
    CHECK_STR_EQ(anvil_protocol_trait(protocols[1]), "aws.protocols#awsQuery");
    struct anvil_aws_service aws;
    CHECK(anvil_service_aws(svc, &aws));
    CHECK(anvil_sv_eq_cstr(aws.sdk_id, "Svc") && anvil_sv_eq_cstr(aws.endpoint_prefix, "svc-ep"));
    CHECK(aws.cloudformation_name.len == 0);
    CHECK(anvil_sv_eq_cstr(anvil_service_sigv4_name(svc), "svc"));
    const struct anvil_shape *put = anvil_model_find(m, "ex#Put", 6);
    CHECK(!anvil_operation_is_readonly(put) && !anvil_operation_is_idempotent(put));
    CHECK(anvil_operation_is_retry_safe(put)); /* it has an idempotency token */
    CHECK(anvil_sv_eq_cstr(anvil_operation_idempotency_token(put)->name, "token"));
    size_t n = 0;
    const struct anvil_json *encodings = anvil_operation_request_compression(put, &n);
    CHECK_EQ_U64(n, 2);
    CHECK(anvil_sv_eq_cstr(anvil_json_string(anvil_json_array_at(encodings, 1)), "br"));
    const struct anvil_shape *body = anvil_model_find(m, "ex#Body", 7);
    CHECK(anvil_shape_is_streaming(body) && anvil_shape_requires_length(body));
    CHECK(anvil_operation_is_readonly(anvil_model_find(m, "ex#Get", 6)));
    CHECK(anvil_operation_is_retry_safe(anvil_model_find(m, "ex#Del", 6)));
    CHECK(!anvil_operation_is_retry_safe(anvil_model_find(m, "ex#Post", 7)));
    CHECK(anvil_operation_request_compression(anvil_model_find(m, "ex#Post", 7), &n) == NULL && n == 0);
    const struct anvil_shape *slow = anvil_model_find(m, "ex#Slow", 7);
    bool throttling = false;
    CHECK(anvil_error_is_retryable(slow, &throttling) && throttling);
    CHECK_EQ_INT(anvil_error_fault(slow), ANVIL_FAULT_CLIENT);
    CHECK_EQ_INT(anvil_error_http_status(slow), 429);
    CHECK(anvil_sv_eq_cstr(anvil_error_query_code(slow), "Throttling"));
    const struct anvil_shape *oops = anvil_model_find(m, "ex#Oops", 7);
    CHECK(anvil_error_is_retryable(oops, &throttling) && !throttling);
    CHECK_EQ_INT(anvil_error_http_status(oops), 500);
    const struct anvil_shape *bad = anvil_model_find(m, "ex#Bad", 6);
    CHECK(!anvil_error_is_retryable(bad, NULL));
    CHECK_EQ_INT(anvil_error_http_status(bad), 400);
    CHECK_EQ_INT(anvil_error_fault(svc), ANVIL_FAULT_NONE);
    CHECK_EQ_INT(anvil_error_http_status(NULL), 0);
done:
    anvil_model_destroy(m);
}

/* A model from a file: the format told by name and text; a file that cannot be read is named. */
TEST(model_load_file_reads_a_file_and_names_a_missing_one) {
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    char path[512];
    snprintf(path, sizeof path, "%s/smithy-models/aws/dynamodb-2012-08-10.json", ANVIL_TESTDATA_DIR);
    CHECK_OK(anvil_model_load_file(t->alloc, path, NULL, &model, &diag));
    CHECK(anvil_model_find(model, "com.amazonaws.dynamodb#DescribeTable", 36) != NULL);
    anvil_model_destroy(model);
    model = NULL;
    CHECK_STATUS(anvil_model_load_file(t->alloc, "/nonexistent/model.json", NULL, &model, &diag), ANVIL_EIO);
    CHECK(model == NULL);
    CHECK_STR_EQ(diag.message, "/nonexistent/model.json: No such file or directory");
    /* A FIFO (or a device, or a folder) is refused at once: reading one could block forever or never end. */
    char dir[] = "/tmp/anvil-model-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/model.json", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    int fifo_rc = anvil_model_load_file(t->alloc, fifo, NULL, &model, &diag);
    unlink(fifo);
    CHECK_STATUS(fifo_rc, ANVIL_EIO);
    CHECK(strstr(diag.message, "/model.json: not a regular file") != NULL);
    CHECK_STATUS(anvil_model_load_file(t->alloc, dir, NULL, &model, &diag), ANVIL_EIO);
    CHECK(strstr(diag.message, ": not a regular file") != NULL);
    rmdir(dir);
done:
    anvil_model_destroy(model);
}
