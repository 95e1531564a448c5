/*
 * The protocol layer's own pieces, below what Smithy's protocol tests
 * reach: timestamps in every format and at their edges, base64, percent
 * encoding, header lists, and a response whose structures outgrow the XML
 * decoder's name index (which moves while a value is read).
 */

#include <string.h>

#include "harness.h"
#include "protocol/protocol_internal.h"

static int64_t s_ts(const char *text, enum anvil__ts_format f) {
    int64_t ms = -1;
    return anvil__timestamp_parse(anvil_sv_from_cstr(text), f, &ms) == ANVIL_OK ? ms : INT64_MIN;
}

TEST(protocol_timestamps_read) {
    CHECK(s_ts("2019-12-16T23:48:18Z", ANVIL__TS_DATE_TIME) == INT64_C(1576540098000));
    CHECK(s_ts("2019-12-16T23:48:18.5Z", ANVIL__TS_DATE_TIME) == INT64_C(1576540098500));
    CHECK(s_ts("2019-12-16T23:48:18.123456Z", ANVIL__TS_DATE_TIME) == INT64_C(1576540098123));
    CHECK(s_ts("2019-12-16T22:48:18-01:00", ANVIL__TS_DATE_TIME) == INT64_C(1576540098000));
    CHECK(s_ts("2019-12-17t00:48:18+01:00", ANVIL__TS_DATE_TIME) == INT64_C(1576540098000));
    CHECK(s_ts("Mon, 16 Dec 2019 23:48:18 GMT", ANVIL__TS_HTTP_DATE) == INT64_C(1576540098000));
    CHECK(s_ts("Thu, 01 Jan 1970 00:00:00 GMT", ANVIL__TS_HTTP_DATE) == 0);
    CHECK(s_ts("1576540098", ANVIL__TS_EPOCH_SECONDS) == INT64_C(1576540098000));
    CHECK(s_ts("1576540098.25", ANVIL__TS_EPOCH_SECONDS) == INT64_C(1576540098250));
    CHECK(s_ts("-1.5", ANVIL__TS_EPOCH_SECONDS) == -1500);
    /* Not timestamps: wrong fields, impossible dates, trailing bytes, empty. */
    CHECK(s_ts("2019-02-30T00:00:00Z", ANVIL__TS_DATE_TIME) == INT64_MIN);
    CHECK(s_ts("2019-12-16T24:00:00Z", ANVIL__TS_DATE_TIME) == INT64_MIN);
    CHECK(s_ts("2019-12-16T23:48:18", ANVIL__TS_DATE_TIME) == INT64_MIN);
    CHECK(s_ts("2019-12-16T23:48:18.Z", ANVIL__TS_DATE_TIME) == INT64_MIN);
    CHECK(s_ts("2019-12-16T23:48:18Zjunk", ANVIL__TS_DATE_TIME) == INT64_MIN);
    CHECK(s_ts("Mon, 16 Foo 2019 23:48:18 GMT", ANVIL__TS_HTTP_DATE) == INT64_MIN);
    CHECK(s_ts("", ANVIL__TS_EPOCH_SECONDS) == INT64_MIN);
    CHECK(s_ts("12a", ANVIL__TS_EPOCH_SECONDS) == INT64_MIN);
    CHECK(s_ts("99999999999999999999999", ANVIL__TS_EPOCH_SECONDS) == INT64_MIN);
    /* Any format, as a response's timestamp in an unexpected one is read. */
    int64_t ms;
    CHECK(anvil__timestamp_parse_any(ANVIL_SV("Mon, 16 Dec 2019 23:48:18 GMT"), &ms) == ANVIL_OK &&
          ms == INT64_C(1576540098000));
done:;
}

static int s_write(struct anvil_buf *b, int64_t ms, enum anvil__ts_format f) {
    anvil_buf_clear(b);
    return anvil__timestamp_write(b, ms, f);
}

#define CHECK_WRITES(ms, f, want)                                                                                      \
    do {                                                                                                               \
        CHECK_OK(s_write(&b, (ms), (f)));                                                                              \
        CHECK_STR_EQ(b.data, (want));                                                                                  \
    } while (0)

TEST(protocol_timestamps_write) {
    struct anvil_buf b;
    anvil_buf_init(&b, t->alloc, 0);
    CHECK_WRITES(INT64_C(1576540098000), ANVIL__TS_DATE_TIME, "2019-12-16T23:48:18Z");
    CHECK_WRITES(INT64_C(1576540098120), ANVIL__TS_DATE_TIME, "2019-12-16T23:48:18.120Z");
    CHECK_WRITES(INT64_C(1576540098000), ANVIL__TS_HTTP_DATE, "Mon, 16 Dec 2019 23:48:18 GMT");
    CHECK_WRITES(INT64_C(1576540098000), ANVIL__TS_EPOCH_SECONDS, "1576540098");
    CHECK_WRITES(INT64_C(1576540098500), ANVIL__TS_EPOCH_SECONDS, "1576540098.5");
    CHECK_WRITES(INT64_C(1576540098120), ANVIL__TS_EPOCH_SECONDS, "1576540098.12");
    CHECK_WRITES(0, ANVIL__TS_HTTP_DATE, "Thu, 01 Jan 1970 00:00:00 GMT");
    CHECK_WRITES(-1500, ANVIL__TS_DATE_TIME, "1969-12-31T23:59:58.500Z");
    CHECK_WRITES(INT64_C(951782400000), ANVIL__TS_DATE_TIME, "2000-02-29T00:00:00Z");
    /* Data-model values: whole seconds an integer, else a double; out-of-range numbers refused. */
    struct anvil_json v = anvil__timestamp_json(INT64_C(1576540098000));
    CHECK(anvil_json_is_int(&v) && anvil_json_int(&v) == INT64_C(1576540098));
    v = anvil__timestamp_json(1500);
    CHECK(!anvil_json_is_int(&v) && anvil_json_double(&v) == 1.5);
    int64_t ms;
    struct anvil_json big = anvil_json_make_double(1e300);
    CHECK(anvil__timestamp_from_json(&big, &ms) == ANVIL_EVALUE);
    struct anvil_json huge = anvil_json_make_int(INT64_MAX);
    CHECK(anvil__timestamp_from_json(&huge, &ms) == ANVIL_EVALUE);
done:
    anvil_buf_clean_up(&b);
}

TEST(protocol_base64) {
    struct anvil_buf b;
    anvil_buf_init(&b, t->alloc, 0);
    CHECK_OK(anvil_base64_encode(&b, "hello", 5));
    CHECK_STR_EQ(b.data, "aGVsbG8=");
    anvil_buf_clear(&b);
    CHECK_OK(anvil_base64_decode(&b, ANVIL_SV("aGVsbG8=")));
    CHECK_MEM_EQ(b.data, b.len, "hello");
    anvil_buf_clear(&b);
    CHECK_OK(anvil_base64_decode(&b, ANVIL_SV("")));
    CHECK(b.len == 0);
    /* Strict: no white space, padding required, no stray bits, no '=' inside. */
    anvil_buf_clear(&b);
    CHECK_STATUS(anvil_base64_decode(&b, ANVIL_SV("aGVsbG8")), ANVIL_EVALUE);
    anvil_buf_clear(&b);
    CHECK_STATUS(anvil_base64_decode(&b, ANVIL_SV("aGVs bG8=")), ANVIL_EVALUE);
    anvil_buf_clear(&b);
    CHECK_STATUS(anvil_base64_decode(&b, ANVIL_SV("aGVsbG9=")), ANVIL_EVALUE);
    anvil_buf_clear(&b);
    CHECK_STATUS(anvil_base64_decode(&b, ANVIL_SV("aG=sbG8=")), ANVIL_EVALUE);
    CHECK(anvil__base64_valid(ANVIL_SV("aGVsbG8=")) && !anvil__base64_valid(ANVIL_SV("a=bc")) &&
          !anvil__base64_valid(ANVIL_SV("abc")));
done:
    anvil_buf_clean_up(&b);
}

TEST(protocol_percent_encoding) {
    struct anvil_buf b;
    anvil_buf_init(&b, t->alloc, 0);
    /* Smithy's RestJsonHttpRequestLabelEscaping: every byte but the unreserved ones. */
    CHECK_OK(anvil__percent_encode(&b, anvil_sv_from_cstr(" %:/?#[]@!$&'()*+,;=\xF0\x9F\x98\xB9"), false));
    CHECK_STR_EQ(b.data, "%20%25%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%F0%9F%98%B9");
    anvil_buf_clear(&b);
    CHECK_OK(anvil__percent_encode(&b, ANVIL_SV("a/b c/~._-"), true));
    CHECK_STR_EQ(b.data, "a/b%20c/~._-");
    anvil_buf_clear(&b);
    CHECK_OK(anvil__percent_encode(&b, anvil_sv("a\0\r\n", 4), false));
    CHECK_STR_EQ(b.data, "a%00%0D%0A");
done:
    anvil_buf_clean_up(&b);
}

static int s_model(struct anvil_test *t, const char *idl, struct anvil_model **model) {
    struct anvil_model_source src = {"test.smithy", idl, strlen(idl), ANVIL_MODEL_FORMAT_IDL};
    struct anvil_diag diag;
    int rc = anvil_model_assemble(t->alloc, &src, 1, NULL, model, NULL, &diag);
    if (rc != ANVIL_OK && rc != ANVIL_ENOMEM) {
        fprintf(stderr, "model: %s\n", diag.message);
    }
    return rc;
}

static const struct anvil_shape *s_shape(const struct anvil_model *m, const char *name) {
    for (size_t i = 0; i < anvil_model_shape_count(m); i++) {
        if (anvil_sv_eq_cstr(anvil_shape_name(anvil_model_shape_at(m, i)), name)) {
            return anvil_model_shape_at(m, i);
        }
    }
    return NULL;
}

/*
 * 60 structures of 20 members each, nested: the XML decoder's name index
 * grows (and moves) while the outer structures' members are being read.
 */
TEST(protocol_xml_index_grows_while_reading) {
    struct anvil_buf idl, body;
    struct anvil_model *model = NULL;
    struct anvil_arena *arena = NULL;
    anvil_buf_init(&idl, t->alloc, 0);
    anvil_buf_init(&body, t->alloc, 0);
    int rc = anvil_buf_append_cstr(&idl, "$version: \"2\"\nnamespace t\nuse aws.protocols#ec2Query\n"
                                         "@ec2Query service S { version: \"1\", operations: [Op] }\n"
                                         "operation Op { output: S0 }\n");
    for (int s = 0; s < 60 && rc == ANVIL_OK; s++) {
        rc = anvil_buf_appendf(&idl, "structure S%d {\n", s);
        for (int m = 0; m < 20 && rc == ANVIL_OK; m++) {
            rc = anvil_buf_appendf(&idl, "  @xmlName(\"m%d\") M%d: %s\n", m, m, m == 0 && s < 59 ? "" : "String");
            if (rc == ANVIL_OK && m == 0 && s < 59) {
                /* M0 nests the next structure; the rest are strings. */
                anvil_buf_truncate(&idl, idl.len - 1);
                rc = anvil_buf_appendf(&idl, "S%d\n", s + 1);
            }
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&idl, "}\n") : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&body, "<OpResponse>") : rc;
    for (int s = 0; s < 60 && rc == ANVIL_OK; s++) {
        for (int m = 19; m >= 1 && rc == ANVIL_OK; m--) {
            rc = anvil_buf_appendf(&body, "<m%d>v%d.%d</m%d>", m, s, m, m);
        }
        rc = rc == ANVIL_OK && s < 59 ? anvil_buf_append_cstr(&body, "<m0>") : rc;
    }
    for (int s = 0; s < 59 && rc == ANVIL_OK; s++) {
        rc = anvil_buf_append_cstr(&body, "</m0>");
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&body, "</OpResponse>") : rc;
    CHECK_OK(rc);
    CHECK_OK(s_model(t, idl.data, &model));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil__protocol_context ctx = {model, s_shape(model, "S"), t->alloc, NULL, NULL, false};
    struct anvil__response res = {200, NULL, 0, body.data, body.len};
    struct anvil_operation_reply reply;
    CHECK_OK(
        anvil__response_read(anvil__protocol_of(ctx.service), &ctx, s_shape(model, "Op"), &res, arena, &reply, NULL));
    /* The deepest structure's last member, through 59 levels of M0. */
    const struct anvil_json *v = &reply.output;
    for (int s = 0; s < 59; s++) {
        v = anvil_json_object_get_cstr(v, "M0");
    }
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_object_get_cstr(v, "M19")), "v59.19");
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_object_get_cstr(&reply.output, "M1")), "v0.1");
done:
    anvil_arena_destroy(arena);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&idl);
    anvil_buf_clean_up(&body);
}

/* Builds the request of `op` (a shape name) in `idl` for `input` (JSON); the status, and the diag's message. */
static int s_build(struct anvil_test *t, const char *idl, const char *op, const char *input, struct anvil_arena *arena,
                   struct anvil__request *req, struct anvil_diag *diag, struct anvil_model **model) {
    int rc = s_model(t, idl, model);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_json in;
    rc = anvil_json_parse_into(arena, t->alloc, input, strlen(input), NULL, &in, NULL);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil__protocol_context ctx = {*model, s_shape(*model, "S"), t->alloc, NULL, NULL, false};
    anvil_diag_clear(diag);
    return anvil__request_build(anvil__protocol_of(ctx.service), &ctx, s_shape(*model, op), &in, req, diag);
}

#define S_REST_JSON "$version: \"2\"\nnamespace t\nuse aws.protocols#restJson1\n"

/* What a model says goes into the request line and the host is checked, not trusted. */
TEST(protocol_model_text_is_checked) {
    static const char *const models[] = {
        S_REST_JSON "@restJson1 service S { version: \"1\", operations: [Op] }\n"
                    "@http(method: \"PUT /x HTTP/1.1\\r\\nX: y\", uri: \"/\") operation Op {}\n",
        S_REST_JSON "@restJson1 service S { version: \"1\", operations: [Op] }\n"
                    "@endpoint(hostPrefix: \"127.0.0.1:1/\") @http(method: \"GET\", uri: \"/\") operation Op {}\n",
        S_REST_JSON "@restJson1 service S { version: \"1\", operations: [Op] }\n"
                    "@http(method: \"GET\", uri: \"/a/{Name\") operation Op { input := { @required @httpLabel Name: "
                    "String } }\n",
        S_REST_JSON "@restJson1 service S { version: \"1\", operations: [Op] }\n"
                    "@http(method: \"GET\", uri: \"/a b\") operation Op {}\n",
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        struct anvil_model *model = NULL;
        struct anvil_arena *arena = NULL;
        struct anvil__request req;
        struct anvil_diag diag;
        CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
        anvil__request_init(&req, t->alloc, arena);
        int rc = s_build(t, models[i], "Op", "{\"Name\": \"n\"}", arena, &req, &diag, &model);
        anvil__request_clean_up(&req);
        anvil_arena_destroy(arena);
        anvil_model_destroy(model);
        CHECK_STATUS(rc, ANVIL_EMODEL);
        CHECK(diag.message[0] != '\0');
    }
done:;
}

/* An input cannot point the request at another host, set anvil's own headers, or lie about the body's length. */
TEST(protocol_input_cannot_steer_the_request) {
    static const char *const idl =
        S_REST_JSON "@restJson1 service S { version: \"1\", operations: [Op] }\n"
                    "@endpoint(hostPrefix: \"{Label}.\") @http(method: \"PUT\", uri: \"/\") operation Op { input := {\n"
                    "  @required @hostLabel Label: String\n"
                    "  @httpPrefixHeaders(\"\") Meta: Meta\n"
                    "  @httpHeader(\"Content-Length\") Length: Long\n"
                    "  Body: String\n"
                    "} }\n"
                    "map Meta { key: String, value: String }\n";
    static const struct {
        const char *input;
        int status;
    } cases[] = {
        {"{\"Label\": \"a..b\"}", ANVIL_EINVAL},
        {"{\"Label\": \"evil.com/\"}", ANVIL_EINVAL},
        {"{\"Label\": \".a\"}", ANVIL_EINVAL},
        {"{\"Label\": \"a\", \"Meta\": {\"Authorization\": \"x\"}}", ANVIL_EINVAL},
        {"{\"Label\": \"a\", \"Meta\": {\"host\": \"evil.com\"}}", ANVIL_EINVAL},
        {"{\"Label\": \"a\", \"Meta\": {\"x\": \"1\\r\\nInjected: yes\"}}", ANVIL_EINVAL},
        {"{\"Label\": \"a\", \"Length\": 1000, \"Body\": \"abc\"}", ANVIL_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_model *model = NULL;
        struct anvil_arena *arena = NULL;
        struct anvil__request req;
        struct anvil_diag diag;
        CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
        anvil__request_init(&req, t->alloc, arena);
        int rc = s_build(t, idl, "Op", cases[i].input, arena, &req, &diag, &model);
        bool honest = true;
        if (rc == ANVIL_OK) {
            /* The bound Content-Length (1000) gave way to the body's. */
            const struct anvil_str_view *length = anvil__request_header(&req, "Content-Length");
            char want[24];
            snprintf(want, sizeof want, "%zu", req.body.len);
            honest = length && anvil_sv_eq_cstr(*length, want) && !anvil_sv_eq_cstr(*length, "1000") &&
                     strcmp(req.host_prefix, "a.") == 0;
        }
        anvil__request_clean_up(&req);
        anvil_arena_destroy(arena);
        anvil_model_destroy(model);
        CHECK_STATUS(rc, cases[i].status);
        CHECK(honest);
    }
done:;
}

/*
 * A flattened list of a structure that holds the same flattened list: each
 * element gathers its own items once, however they stand among their
 * siblings; and a prefix-header binding on a member that is not a map
 * (a hostile model) is left alone rather than read.
 */
TEST(protocol_xml_flattened_recursion) {
    static const char *const idl =
        "$version: \"2\"\nnamespace t\nuse aws.protocols#restXml\n"
        "@restXml service S { version: \"1\", operations: [Op] }\n"
        "@http(method: \"GET\", uri: \"/\") operation Op { output: Node }\n"
        "structure Node { Name: String, @xmlFlattened Child: Nodes, @httpPrefixHeaders(\"x-p-\") Odd: String }\n"
        "list Nodes { member: Node }\n";
    static const char body[] = "<Node><Child><Name>a</Name><Child><Name>a1</Name></Child><X/><Child><Name>a2</Name>"
                               "</Child></Child><Name>root</Name><Child><Name>b</Name></Child></Node>";
    struct anvil_model *model = NULL;
    struct anvil_arena *arena = NULL;
    CHECK_OK(s_model(t, idl, &model));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil__protocol_context ctx = {model, s_shape(model, "S"), t->alloc, NULL, NULL, false};
    static const struct anvil_http_header headers[] = {{ANVIL_SV("x-p-a"), ANVIL_SV("1")}};
    struct anvil__response res = {200, headers, 1, body, sizeof body - 1};
    struct anvil_operation_reply reply;
    CHECK_OK(
        anvil__response_read(anvil__protocol_of(ctx.service), &ctx, s_shape(model, "Op"), &res, arena, &reply, NULL));
    const struct anvil_json *children = anvil_json_object_get_cstr(&reply.output, "Child");
    CHECK_EQ_U64(anvil_json_len(children), 2);
    CHECK_EQ_U64(anvil_json_len(anvil_json_object_get_cstr(anvil_json_array_at(children, 0), "Child")), 2);
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_object_get_cstr(anvil_json_array_at(children, 1), "Name")), "b");
    CHECK(!anvil_json_object_get_cstr(&reply.output, "Odd"));
done:
    anvil_arena_destroy(arena);
    anvil_model_destroy(model);
}
