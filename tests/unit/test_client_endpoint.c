/*
 * The client's endpoint step (client_endpoint.c) with a small service and
 * rule sets written here: what the rules give reaches the request (URL,
 * path, headers, how it is signed), what they give that cannot be sent is
 * refused by name, the caller's endpoint parameters are checked, and a
 * service without rules keeps its configured endpoint. AWS's own rule sets
 * are test_client_endpoint_aws.c's.
 */

#include <string.h>

#include "anvil/version.h"
#include "harness.h"
#include "transport/client_internal.h"

static const char s_idl[] = "$version: \"2\"\n"
                            "namespace t\n"
                            "use aws.api#service\n"
                            "use aws.auth#sigv4\n"
                            "use aws.protocols#awsJson1_0\n"
                            "@service(sdkId: \"Svc\", endpointPrefix: \"svc\")\n"
                            "@sigv4(name: \"svc\")\n"
                            "@awsJson1_0\n"
                            "@smithy.rules#clientContextParams(Mode: {type: \"string\"}, Flag: {type: \"boolean\"})\n"
                            "service Svc { version: \"2020-01-01\", operations: [Op, Fixed] }\n"
                            "operation Op { input: OpInput }\n"
                            "structure OpInput {\n"
                            "  @smithy.rules#contextParam(name: \"Name\")\n"
                            "  name: String\n"
                            "  @smithy.rules#contextParam(name: \"Flag\")\n"
                            "  flag: String\n"
                            "}\n"
                            "@smithy.rules#staticContextParams(Name: {value: \"static\"})\n"
                            "operation Fixed { input: OpInput }\n";

/* A rule set whose Mode parameter picks an endpoint that tries something. */
static const char s_rules[] =
    "{\"version\": \"1.0\", \"parameters\": {"
    " \"Region\": {\"type\": \"String\", \"builtIn\": \"AWS::Region\", \"required\": false},"
    " \"Name\": {\"type\": \"String\", \"required\": false},"
    " \"Flag\": {\"type\": \"Boolean\", \"required\": false},"
    " \"Mode\": {\"type\": \"String\", \"required\": true, \"default\": \"none\"}},"
    " \"rules\": ["
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"userinfo\"]}], \"endpoint\": {\"url\": \"https://user:pw@example.com\"}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"authz\"]}], \"endpoint\": {\"url\": \"https://example.com\", \"headers\": {\"Authorization\": [\"x\"]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"crlf\"]}], \"endpoint\": {\"url\": \"https://example.com\", \"headers\": {\"x-a\": [\"1\\r\\nx-b: 2\"]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"scope\"]}], \"endpoint\": {\"url\": \"https://example.com\", \"properties\": {\"authSchemes\": "
    "[{\"name\": \"sigv4\", \"signingName\": \"a/b\", \"signingRegion\": \"r\"}]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"sigv4a\"]}], \"endpoint\": {\"url\": \"https://example.com\", \"properties\": {\"authSchemes\": "
    "[{\"name\": \"sigv4a\", \"signingName\": \"svc\", \"signingRegionSet\": [\"*\"]}]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"path\"]}], \"endpoint\": {\"url\": \"https://example.com/a b\"}},"
    "  {\"type\": \"error\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"fail\"]}], \"error\": \"no good: {Mode}\"},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"dup\"]}], \"endpoint\": {\"url\": \"https://example.com\", \"headers\": {\"x-amz-target\": [\"t\"]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"stringEquals\", \"argv\": [{\"ref\": \"Mode\"}, "
    "\"ctl\"]}], \"endpoint\": {\"url\": \"https://example.com\", \"headers\": {\"x-a\": [\"\\u0001\"]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"isSet\", \"argv\": [{\"ref\": \"Name\"}]}],"
    "   \"endpoint\": {\"url\": \"https://{Name}.example.com/base/\", \"headers\": {\"x-amz-extra\": [\"one\", "
    "\"two\"]}, \"properties\": {\"authSchemes\": [{\"name\": \"sigv4a\", \"signingName\": \"svc\", "
    "\"signingRegionSet\": [\"*\"]}, {\"name\": \"sigv4\", \"signingName\": \"custom\", \"signingRegion\": "
    "\"eu-central-1\"}]}}},"
    "  {\"type\": \"endpoint\", \"conditions\": [], \"endpoint\": {\"url\": \"https://svc.{Region}.example.com\"}}"
    " ]}";

static const char *s_env(void *ctx, const char *name) {
    (void)ctx;
    if (strcmp(name, "HOME") == 0) {
        return "/nonexistent";
    }
    if (strcmp(name, "AWS_ACCESS_KEY_ID") == 0) {
        return "AKIDEXAMPLE";
    }
    if (strcmp(name, "AWS_SECRET_ACCESS_KEY") == 0) {
        return "secret";
    }
    return NULL;
}

struct s_fixture {
    struct anvil_model *model;
    struct anvil_json_doc *rules, *params;
    struct anvil_client *client;
    struct anvil_arena *arena;
    struct anvil_diag diag;
};

/* A client of Svc with the rules above (or none) and the endpoint parameters given (JSON, or NULL). */
static int s_client(struct anvil_test *t, struct s_fixture *f, bool with_rules, const char *params) {
    memset(f, 0, sizeof *f);
    anvil_diag_clear(&f->diag);
    struct anvil_model_source src = {"svc.smithy", s_idl, strlen(s_idl), ANVIL_MODEL_FORMAT_IDL};
    int rc = anvil_model_assemble(t->alloc, &src, 1, NULL, &f->model, NULL, &f->diag);
    rc =
        rc == ANVIL_OK && with_rules ? anvil_json_parse(t->alloc, s_rules, strlen(s_rules), NULL, &f->rules, NULL) : rc;
    rc = rc == ANVIL_OK && params ? anvil_json_parse(t->alloc, params, strlen(params), NULL, &f->params, NULL) : rc;
    rc = rc == ANVIL_OK ? anvil_arena_new(t->alloc, NULL, &f->arena) : rc;
    struct anvil_client_options o = {.region = "us-west-2", .getenv = s_env};
    o.endpoint_rule_set = f->rules ? anvil_json_doc_root(f->rules) : NULL;
    o.endpoint_params = f->params ? anvil_json_doc_root(f->params) : NULL;
    rc = rc == ANVIL_OK ? anvil_client_new(t->alloc, f->model, NULL, &o, &f->client, &f->diag) : rc;
    /* The client needs neither document once made. */
    anvil_json_doc_destroy(f->rules);
    anvil_json_doc_destroy(f->params);
    f->rules = f->params = NULL;
    return rc;
}

static void s_fixture_clean_up(struct s_fixture *f) {
    anvil_client_destroy(f->client);
    anvil_arena_destroy(f->arena);
    anvil_model_destroy(f->model);
    f->client = NULL;
    f->arena = NULL;
    f->model = NULL;
}

static bool s_contains(struct anvil_str_view s, const char *part) {
    size_t n = strlen(part);
    for (size_t i = 0; n <= s.len && i <= s.len - n; i++) {
        if (memcmp(s.ptr + i, part, n) == 0) {
            return true;
        }
    }
    return false;
}

/* The request Op (or `op`) with `input` would send. */
static int s_prepare(struct anvil_test *t, struct s_fixture *f, const char *op, const char *input,
                     struct anvil_http_request *out) {
    struct anvil_json in;
    int rc = anvil_json_parse_into(f->arena, t->alloc, input, strlen(input), NULL, &in, NULL);
    anvil_diag_clear(&f->diag);
    /* Finding the operation walks the service's closure, which allocates: under the sweep it may fail. */
    const struct anvil_shape *shape = anvil_client_operation(f->client, op);
    if (rc == ANVIL_OK && !shape) {
        return anvil_test_injected(t) ? ANVIL_ENOMEM : ANVIL_ENOTFOUND;
    }
    return rc == ANVIL_OK ? anvil_client_prepare(f->client, shape, &in, f->arena, out, &f->diag) : rc;
}

static struct anvil_str_view s_header(const struct anvil_http_request *r, const char *name) {
    for (size_t i = 0; i < r->header_count; i++) {
        if (anvil_sv_eq_cstr(r->headers[i].name, name)) {
            return r->headers[i].value;
        }
    }
    return anvil_sv("", 0);
}

TEST(client_endpoint_rules_give_url_headers_and_signing) {
    struct s_fixture f;
    struct anvil_http_request r;
    CHECK_OK(s_client(t, &f, true, NULL));
    /* The input binds Name: its endpoint, path kept, its headers sent (and signed), its sigv4 scheme chosen. */
    CHECK_OK(s_prepare(t, &f, "Op", "{\"name\": \"bucket-1\"}", &r));
    CHECK(anvil_sv_eq_cstr(r.url, "https://bucket-1.example.com/base/"));
    CHECK(anvil_sv_eq_cstr(s_header(&r, "Host"), "bucket-1.example.com"));
    CHECK(anvil_sv_eq_cstr(s_header(&r, "x-amz-extra"), "one"));
    struct anvil_str_view auth = s_header(&r, "Authorization");
    CHECK(s_contains(auth, "/eu-central-1/custom/aws4_request"));
    CHECK(s_contains(auth, "x-amz-extra"));
    /* Nothing bound: the default rule, signed as the service signs in the client's region. */
    CHECK_OK(s_prepare(t, &f, "Op", "{}", &r));
    CHECK(anvil_sv_eq_cstr(r.url, "https://svc.us-west-2.example.com/"));
    CHECK(s_contains(s_header(&r, "Authorization"), "/us-west-2/svc/aws4_request"));
    /* A static context parameter outranks the input's. */
    CHECK_OK(s_prepare(t, &f, "Fixed", "{\"name\": \"ignored\"}", &r));
    CHECK(anvil_sv_eq_cstr(r.url, "https://static.example.com/base/"));
done:
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_resolution_is_public) {
    struct s_fixture f;
    CHECK_OK(s_client(t, &f, true, NULL));
    struct anvil_endpoint e;
    struct anvil_json in;
    CHECK_OK(anvil_json_parse_into(f.arena, t->alloc, "{\"name\": \"n\"}", 13, NULL, &in, NULL));
    const struct anvil_shape *op = anvil_client_operation(f.client, "Op");
    CHECK_ALLOC(op);
    CHECK_OK(anvil_client_endpoint(f.client, op, &in, f.arena, &e, &f.diag));
    CHECK(anvil_sv_eq_cstr(e.url, "https://n.example.com/base/"));
    CHECK(anvil_json_len(anvil_json_object_get_cstr(&e.headers, "x-amz-extra")) == 2);
    CHECK(anvil_json_object_get_cstr(&e.properties, "authSchemes") != NULL);
    char path[64];
    anvil_endpoint_rule_path(anvil_client_endpoint_rules(f.client), e.rule, path, sizeof path);
    CHECK_STR_EQ(path, "rules[9]");
    /* Without an operation: the built-ins and the client's parameters only. */
    CHECK_OK(anvil_client_endpoint(f.client, NULL, NULL, f.arena, &e, &f.diag));
    CHECK(anvil_sv_eq_cstr(e.url, "https://svc.us-west-2.example.com"));
done:
    s_fixture_clean_up(&f);
}

/* The endpoint Mode picks, for Op with no input: the status, and the message in f->diag. */
static int s_mode(struct anvil_test *t, const char *mode, struct s_fixture *f) {
    char params[64];
    snprintf(params, sizeof params, "{\"Mode\": \"%s\"}", mode);
    int rc = s_client(t, f, true, params);
    struct anvil_http_request r;
    return rc == ANVIL_OK ? s_prepare(t, f, "Op", "{}", &r) : rc;
}

TEST(client_endpoint_refuses_what_cannot_be_sent) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    /* The rule set's own error, in its words. */
    CHECK_STATUS(s_mode(t, "fail", &f), ANVIL_ECONFIG);
    CHECK(strstr(f.diag.message, "no good: fail") != NULL);
    s_fixture_clean_up(&f);
    /* A URL with user information, or a path that must be encoded. */
    CHECK_STATUS(s_mode(t, "userinfo", &f), ANVIL_EMODEL);
    CHECK(strstr(f.diag.message, "user information") != NULL && strstr(f.diag.message, "pw") == NULL);
    s_fixture_clean_up(&f);
    CHECK_STATUS(s_mode(t, "path", &f), ANVIL_EMODEL);
    s_fixture_clean_up(&f);
    /* A header anvil sets itself, or one that would split the request. */
    CHECK_STATUS(s_mode(t, "authz", &f), ANVIL_EMODEL);
    CHECK(strstr(f.diag.message, "Authorization") != NULL);
    s_fixture_clean_up(&f);
    CHECK_STATUS(s_mode(t, "crlf", &f), ANVIL_EMODEL);
    s_fixture_clean_up(&f);
    /* A signing name that is not a word; a scheme anvil cannot sign with. */
    CHECK_STATUS(s_mode(t, "scope", &f), ANVIL_EMODEL);
    s_fixture_clean_up(&f);
    CHECK_STATUS(s_mode(t, "sigv4a", &f), ANVIL_EUNSUPPORTED);
    CHECK(strstr(f.diag.message, "sigv4a") != NULL);
    s_fixture_clean_up(&f);
    /* A header with a control character. */
    CHECK_STATUS(s_mode(t, "ctl", &f), ANVIL_EMODEL);
done:
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_headers_replace_the_requests_own) {
    /* S3 Control's rules set x-amz-account-id from an ARN, which the input also binds: the rules' value goes, once. */
    struct s_fixture f;
    CHECK_OK(s_client(t, &f, true, "{\"Mode\": \"dup\"}"));
    struct anvil_http_request r;
    CHECK_OK(s_prepare(t, &f, "Op", "{}", &r));
    size_t targets = 0;
    for (size_t i = 0; i < r.header_count; i++) {
        targets += anvil_sv_eq_ascii_nocase(r.headers[i].name, ANVIL_SV("X-Amz-Target"));
    }
    CHECK(targets == 1);
    CHECK(anvil_sv_eq_cstr(s_header(&r, "x-amz-target"), "t"));
done:
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_an_unsigned_client_needs_no_sigv4) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    struct anvil_model_source src = {"svc.smithy", s_idl, strlen(s_idl), ANVIL_MODEL_FORMAT_IDL};
    CHECK_OK(anvil_model_assemble(t->alloc, &src, 1, NULL, &f.model, NULL, &f.diag));
    CHECK_OK(anvil_json_parse(t->alloc, s_rules, strlen(s_rules), NULL, &f.rules, NULL));
    CHECK_OK(anvil_json_parse(t->alloc, "{\"Mode\": \"sigv4a\"}", 18, NULL, &f.params, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &f.arena));
    /* No credentials at all: the client is made, and its requests carry no signature. */
    struct anvil_client_options o = {.region = "us-west-2", .no_sign = true};
    o.getenv = s_env;
    o.endpoint_rule_set = anvil_json_doc_root(f.rules);
    o.endpoint_params = anvil_json_doc_root(f.params);
    CHECK_OK(anvil_client_new(t->alloc, f.model, NULL, &o, &f.client, &f.diag));
    struct anvil_http_request r;
    CHECK_OK(s_prepare(t, &f, "Op", "{}", &r));
    CHECK(anvil_sv_eq_cstr(r.url, "https://example.com/"));
    CHECK(s_header(&r, "Authorization").len == 0 && s_header(&r, "X-Amz-Date").len == 0);
done:
    anvil_json_doc_destroy(f.rules);
    anvil_json_doc_destroy(f.params);
    s_fixture_clean_up(&f);
}

static int s_no_page(void *ctx, const struct anvil_json *output, const struct anvil_paginate_page *page) {
    (void)ctx, (void)output, (void)page;
    return ANVIL_EINVAL;
}

static const char *s_env_app(void *ctx, const char *name) {
    return strcmp(name, "AWS_SDK_UA_APP_ID") == 0 ? "from-env" : s_env(ctx, name);
}

/* Every request names anvil in its User-Agent, unsigned, with the application's id when there is one. */
TEST(client_user_agent_names_anvil_and_the_app) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    struct anvil_model_source src = {"svc.smithy", s_idl, strlen(s_idl), ANVIL_MODEL_FORMAT_IDL};
    CHECK_OK(anvil_model_assemble(t->alloc, &src, 1, NULL, &f.model, NULL, &f.diag));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &f.arena));
    char want[200];
    struct {
        const char *app_id;
        anvil_client_getenv_fn *getenv;
        const char *app;
    } cases[] = {
        {NULL, s_env, NULL},
        {NULL, s_env_app, "from-env"},
        {"mine", s_env_app, "mine"}, /* the caller's over the environment's */
        /* A byte a User-Agent token cannot hold becomes '-'; 50 bytes kept. */
        {"my app/1\r\nX-Evil: 1", s_env, "my-app-1--X-Evil--1"},
        {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", s_env,
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_client_options o = {.region = "us-west-2", .app_id = cases[i].app_id, .getenv = cases[i].getenv};
        CHECK_OK(anvil_client_new(t->alloc, f.model, NULL, &o, &f.client, &f.diag));
        struct anvil_http_request r;
        CHECK_OK(s_prepare(t, &f, "Op", "{}", &r));
#if defined(__linux__)
        snprintf(want, sizeof want, "anvil/%s os/linux lang/c%s%s", anvil_version_string(), cases[i].app ? " app/" : "",
                 cases[i].app ? cases[i].app : "");
        CHECK(anvil_sv_eq_cstr(s_header(&r, "User-Agent"), want));
#endif
        CHECK(!s_contains(s_header(&r, "Authorization"), "user-agent"));
        anvil_client_destroy(f.client);
        f.client = NULL;
    }
done:
    s_fixture_clean_up(&f);
}

/* One-call waits and pagination name what the service lacks. */
TEST(client_wait_and_paginate_name_what_is_missing) {
    struct s_fixture f;
    CHECK_OK(s_client(t, &f, false, NULL));
    struct anvil_wait_options wait = {.max_wait_ms = 1000};
    struct anvil_wait_result result;
    CHECK_STATUS(anvil_client_wait(f.client, "TableExists", NULL, &wait, &result, &f.diag), ANVIL_ENOTFOUND);
    CHECK_STR_EQ(f.diag.message, "the service has no waiter `TableExists`");
    anvil_wait_result_clean_up(&result);
    CHECK_STATUS(anvil_client_wait(f.client, "TableExists", NULL, NULL, &result, &f.diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_client_paginate(f.client, "Op", NULL, NULL, NULL, NULL, &f.diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_client_paginate(f.client, "ListThings", NULL, NULL, s_no_page, NULL, &f.diag), ANVIL_ENOTFOUND);
    CHECK_STR_EQ(f.diag.message, "the service has no paginated operation `ListThings`");
    /* Operations by name or by id, from views that need not end in a NUL. */
    const struct anvil_shape *op = anvil_client_operation_sv(f.client, anvil_sv("OpX", 2));
    const struct anvil_shape *by_name = anvil_client_operation(f.client, "Op");
    const struct anvil_shape *by_id = anvil_client_operation_sv(f.client, ANVIL_SV("t#Op"));
    if ((!op || !by_name || !by_id) && anvil_test_injected(t)) {
        goto done; /* the walk over the service's closure allocates */
    }
    CHECK(op != NULL && op == by_name && op == by_id);
    CHECK(anvil_client_operation_sv(f.client, ANVIL_SV("u#Op")) == NULL);
done:
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_params_are_checked) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    CHECK_STATUS(s_client(t, &f, true, "{\"Nope\": true}"), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "no parameter `Nope`") != NULL);
    s_fixture_clean_up(&f);
    /* An operation's parameter (bound by contextParam) is not the client's to set for every call. */
    CHECK_STATUS(s_client(t, &f, true, "{\"Name\": \"x\"}"), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "an operation's") != NULL);
    s_fixture_clean_up(&f);
    CHECK_STATUS(s_client(t, &f, true, "{\"Flag\": \"yes\"}"), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "`Flag` takes a boolean") != NULL);
    s_fixture_clean_up(&f);
    CHECK_STATUS(s_client(t, &f, true, "[1]"), ANVIL_EINVAL);
    s_fixture_clean_up(&f);
    /* The region is the client's: set there, it signs too. */
    CHECK_STATUS(s_client(t, &f, true, "{\"Region\": \"eu-west-1\"}"), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "is the region") != NULL);
    s_fixture_clean_up(&f);
    /* Parameters without rules to take them; not an object, with or without. */
    CHECK_STATUS(s_client(t, &f, false, "{\"Mode\": \"x\"}"), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "no endpoint rules") != NULL);
    s_fixture_clean_up(&f);
    CHECK_STATUS(s_client(t, &f, false, "[]"), ANVIL_EINVAL);
    s_fixture_clean_up(&f);
    CHECK_OK(s_client(t, &f, false, "{}"));
    s_fixture_clean_up(&f);
    /* An input member of the wrong type for its parameter: the input's fault, named. */
    CHECK_OK(s_client(t, &f, true, NULL));
    struct anvil_http_request r;
    CHECK_STATUS(s_prepare(t, &f, "Op", "{\"flag\": \"text\"}", &r), ANVIL_EINVAL);
    CHECK(strstr(f.diag.message, "`Flag`") != NULL);
    /* The public resolution names no rule then. */
    struct anvil_endpoint e;
    struct anvil_json in;
    const struct anvil_shape *op = anvil_client_operation(f.client, "Op");
    CHECK_ALLOC(op);
    CHECK_OK(anvil_json_parse_into(f.arena, t->alloc, "{\"flag\": \"x\"}", 13, NULL, &in, NULL));
    CHECK_STATUS(anvil_client_endpoint(f.client, op, &in, f.arena, &e, &f.diag), ANVIL_EINVAL);
    CHECK(e.rule == SIZE_MAX);
done:
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_without_rules_keeps_the_configured_endpoint) {
    struct s_fixture f;
    CHECK_OK(s_client(t, &f, false, NULL));
    struct anvil_http_request r;
    CHECK_OK(s_prepare(t, &f, "Op", "{\"name\": \"n\"}", &r));
    CHECK(anvil_sv_eq_cstr(r.url, "https://svc.us-west-2.amazonaws.com/"));
    struct anvil_endpoint e;
    CHECK_OK(anvil_client_endpoint(f.client, NULL, NULL, f.arena, &e, &f.diag));
    CHECK(anvil_sv_eq_cstr(e.url, "https://svc.us-west-2.amazonaws.com") && e.rule == SIZE_MAX);
    CHECK(anvil_json_is_object(&e.headers) && anvil_json_len(&e.properties) == 0);
    CHECK(anvil_client_endpoint_rules(f.client) == NULL);
done:
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_a_rule_set_that_does_not_compile_is_the_models_fault) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    struct anvil_model_source src = {"svc.smithy", s_idl, strlen(s_idl), ANVIL_MODEL_FORMAT_IDL};
    CHECK_OK(anvil_model_assemble(t->alloc, &src, 1, NULL, &f.model, NULL, &f.diag));
    static const char broken[] = "{\"version\": \"1.0\", \"parameters\": {}, \"rules\": [{\"type\": \"endpoint\", "
                                 "\"conditions\": [{\"fn\": \"noSuchFunction\", \"argv\": []}], "
                                 "\"endpoint\": {\"url\": \"https://x\"}}]}";
    CHECK_OK(anvil_json_parse(t->alloc, broken, strlen(broken), NULL, &f.rules, NULL));
    struct anvil_client_options o = {.region = "us-west-2", .getenv = s_env};
    o.endpoint_rule_set = anvil_json_doc_root(f.rules);
    CHECK_STATUS(anvil_client_new(t->alloc, f.model, NULL, &o, &f.client, &f.diag), ANVIL_EMODEL);
    CHECK(strstr(f.diag.message, "t#Svc") != NULL && strstr(f.diag.message, "noSuchFunction") != NULL);
done:
    anvil_json_doc_destroy(f.rules);
    s_fixture_clean_up(&f);
}

TEST(client_endpoint_rules_without_a_configured_endpoint_give_way_to_one) {
    /* Rules that take no SDK::Endpoint would send elsewhere than the caller said: the endpoint given stands. */
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    struct anvil_model_source src = {"svc.smithy", s_idl, strlen(s_idl), ANVIL_MODEL_FORMAT_IDL};
    CHECK_OK(anvil_model_assemble(t->alloc, &src, 1, NULL, &f.model, NULL, &f.diag));
    CHECK_OK(anvil_json_parse(t->alloc, s_rules, strlen(s_rules), NULL, &f.rules, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &f.arena));
    struct anvil_client_options o = {.region = "us-west-2", .getenv = s_env, .endpoint_url = "http://127.0.0.1:9/base"};
    o.endpoint_rule_set = anvil_json_doc_root(f.rules);
    CHECK_OK(anvil_client_new(t->alloc, f.model, NULL, &o, &f.client, &f.diag));
    CHECK(anvil_client_endpoint_rules(f.client) == NULL);
    struct anvil_http_request r;
    CHECK_OK(s_prepare(t, &f, "Op", "{\"name\": \"n\"}", &r));
    CHECK(anvil_sv_eq_cstr(r.url, "http://127.0.0.1:9/base/"));
done:
    anvil_json_doc_destroy(f.rules);
    s_fixture_clean_up(&f);
}

/* An S3-like service: its rules put the bucket in the host when they take one. */
static const char s_s3_idl[] =
    "$version: \"2\"\n"
    "namespace b\n"
    "use aws.api#service\n"
    "use aws.auth#sigv4\n"
    "use aws.protocols#restXml\n"
    "@service(sdkId: \"S3\", endpointPrefix: \"s3\")\n"
    "@sigv4(name: \"s3\")\n"
    "@restXml(noErrorWrapping: true)\n"
    "service Store { version: \"2006-03-01\", operations: [GetThing, DeleteStore] }\n"
    "@http(method: \"GET\", uri: \"/{Bucket}/{Key+}\")\n"
    "operation GetThing { input := {\n"
    "  @required @httpLabel @smithy.rules#contextParam(name: \"Bucket\") Bucket: String\n"
    "  @required @httpLabel Key: String } }\n"
    "@http(method: \"DELETE\", uri: \"/{Bucket}\")\n"
    "operation DeleteStore { input := {\n"
    "  @required @httpLabel @smithy.rules#contextParam(name: \"Bucket\") Bucket: String } }\n";

static const char s_bucket_rules[] =
    "{\"version\": \"1.0\", \"parameters\": {\"Bucket\": {\"type\": \"String\", \"required\": false}},"
    " \"rules\": [{\"type\": \"endpoint\", \"conditions\": [{\"fn\": \"isSet\", \"argv\": [{\"ref\": \"Bucket\"}]}],"
    " \"endpoint\": {\"url\": \"https://{Bucket}.store.test\"}},"
    " {\"type\": \"endpoint\", \"conditions\": [], \"endpoint\": {\"url\": \"https://store.test\"}}]}";

static const char s_no_bucket_rules[] = "{\"version\": \"1.0\", \"parameters\": {},"
                                        " \"rules\": [{\"type\": \"endpoint\", \"conditions\": [],"
                                        " \"endpoint\": {\"url\": \"https://store.test\"}}]}";

/* The URL `op` of the S3-like service with `input` goes to, with `rules`; the status. */
static int s_s3_url(struct anvil_test *t, const char *rules, const char *op, const char *input, char *url, size_t size,
                    struct anvil_diag *diag) {
    struct s_fixture f;
    memset(&f, 0, sizeof f);
    struct anvil_model_source src = {"s3.smithy", s_s3_idl, strlen(s_s3_idl), ANVIL_MODEL_FORMAT_IDL};
    int rc = anvil_model_assemble(t->alloc, &src, 1, NULL, &f.model, NULL, diag);
    rc = rc == ANVIL_OK ? anvil_json_parse(t->alloc, rules, strlen(rules), NULL, &f.rules, NULL) : rc;
    rc = rc == ANVIL_OK ? anvil_arena_new(t->alloc, NULL, &f.arena) : rc;
    struct anvil_client_options o = {.region = "us-west-2", .getenv = s_env};
    o.endpoint_rule_set = f.rules ? anvil_json_doc_root(f.rules) : NULL;
    rc = rc == ANVIL_OK ? anvil_client_new(t->alloc, f.model, NULL, &o, &f.client, diag) : rc;
    struct anvil_http_request r;
    rc = rc == ANVIL_OK ? s_prepare(t, &f, op, input, &r) : rc;
    url[0] = '\0';
    if (rc == ANVIL_OK) {
        snprintf(url, size, "%.*s", (int)r.url.len, r.url.ptr);
    }
    *diag = f.diag;
    anvil_json_doc_destroy(f.rules);
    s_fixture_clean_up(&f);
    return rc;
}

TEST(client_endpoint_s3_bucket_leaves_the_path_only_for_the_endpoint) {
    char url[256];
    struct anvil_diag diag;
    CHECK_OK(
        s_s3_url(t, s_bucket_rules, "GetThing", "{\"Bucket\": \"bk1\", \"Key\": \"a/b\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.store.test/a/b");
    CHECK_OK(s_s3_url(t, s_bucket_rules, "DeleteStore", "{\"Bucket\": \"bk1\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.store.test/");
    /* An empty, blank or missing bucket is refused, never read from the key's first segment. */
    CHECK_STATUS(
        s_s3_url(t, s_bucket_rules, "GetThing", "{\"Bucket\": \"\", \"Key\": \"victim\"}", url, sizeof url, &diag),
        ANVIL_EINVAL);
    CHECK(strstr(diag.message, "`Bucket`") != NULL);
    CHECK_STATUS(s_s3_url(t, s_bucket_rules, "GetThing", "{\"Bucket\": \" \\t\", \"Key\": \"victim/x\"}", url,
                          sizeof url, &diag),
                 ANVIL_EINVAL);
    CHECK(strstr(diag.message, "blank") != NULL);
    CHECK_STATUS(s_s3_url(t, s_bucket_rules, "GetThing", "{\"Key\": \"victim\"}", url, sizeof url, &diag),
                 ANVIL_EINVAL);
    /* Rules that take no Bucket leave it in the path. */
    CHECK_OK(
        s_s3_url(t, s_no_bucket_rules, "GetThing", "{\"Bucket\": \"bk1\", \"Key\": \"k\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://store.test/bk1/k");
done:;
}

/* anvil__url_split's status for `url`, with its message in `why`. */
static int s_split(const char *url, struct anvil__url *u, char *why, size_t size) {
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil__url_split(anvil_sv_from_cstr(url), u, &diag);
    size_t n = strlen(diag.message);
    n = n < size - 1 ? n : size - 1;
    memcpy(why, diag.message, n);
    why[n] = '\0';
    return rc;
}

TEST(client_endpoint_urls_are_split_or_refused) {
    struct anvil__url u;
    char why[256];
    CHECK_OK(s_split("HTTPS://Bucket.example.com:443/a/b", &u, why, sizeof why));
    CHECK_STR_EQ(u.base, "https://Bucket.example.com:443");
    CHECK_STR_EQ(u.host, "Bucket.example.com");
    CHECK_STR_EQ(u.path, "/a/b");
    CHECK(u.host_prefix_allowed);
    CHECK_OK(s_split("http://[::1]:8080", &u, why, sizeof why));
    CHECK_STR_EQ(u.host, "[::1]:8080");
    CHECK_STR_EQ(u.path, "/");
    CHECK(!u.host_prefix_allowed);
    CHECK_OK(s_split("http://10.0.0.1", &u, why, sizeof why));
    CHECK(!u.host_prefix_allowed);
    /* No host: empty brackets, one number in them, a leading '-' or '.'. */
    static const char *const hostless[] = {"http://[]/", "http://[1]/", "http://-/",       "http://.x/",
                                           "http:///p",  "http://h:0/", "http://h:65536/", "http://h:/"};
    for (size_t i = 0; i < sizeof hostless / sizeof hostless[0]; i++) {
        CHECK_STATUS(s_split(hostless[i], &u, why, sizeof why), ANVIL_EINVAL);
        CHECK(strstr(why, "no valid host") != NULL);
    }
    CHECK_STATUS(s_split("ftp://h/", &u, why, sizeof why), ANVIL_EINVAL);
    CHECK_STATUS(s_split("http://h/?q", &u, why, sizeof why), ANVIL_EINVAL);
    CHECK_STATUS(s_split("http://h/a b", &u, why, sizeof why), ANVIL_EINVAL);
    /* User information is refused and never shown, whatever the password holds. */
    static const char *const secrets[] = {"http://user:pa/ss@h.test/", "http://user:pa#ss@h.test/",
                                          "http://user:pa?ss@h.test/", "https://u:p%40ss@h.test/x@y"};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
        CHECK_STATUS(s_split(secrets[i], &u, why, sizeof why), ANVIL_EINVAL);
        CHECK(strstr(why, "ss") == NULL && strstr(why, "***") != NULL);
    }
    /* A long URL is shown in part: the reason is never cut off. */
    char longer[900];
    memset(longer, 'a', sizeof longer);
    memcpy(longer, "http://h/", 9);
    longer[500] = ' ';
    longer[sizeof longer - 1] = '\0';
    CHECK_STATUS(s_split(longer, &u, why, sizeof why), ANVIL_EINVAL);
    CHECK(strstr(why, "a path anvil cannot send") != NULL);
done:;
}
