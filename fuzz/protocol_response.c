/*
 * libFuzzer target: what a hostile server sends, through every protocol's
 * response reader, and what a hostile caller gives, through every
 * protocol's request writer. One model of each protocol (below, IDL) holds
 * the shapes that make readers work: nested structures, wrapped and
 * flattened lists and maps, attributes, timestamps in every format, blobs,
 * unions, documents, header and prefix-header bindings, payloads, modelled
 * errors with query codes.
 *
 * Input: byte 0 picks the protocol and the direction, byte 1 the HTTP
 * status class; then "Name: value" header lines up to an empty line, then
 * the body (or, for requests, the input JSON). A reader must answer OK,
 * ESERVICE or ESYNTAX with printable text, never crash; an output must be a
 * value the JSON writer accepts; a writer must answer OK or EINVAL/ELIMIT.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "protocol/protocol_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "protocol fuzz: %s\n", what);
        abort();
    }
}

#define S_SHAPES                                                                                                       \
    "@input structure ThingInput {\n"                                                                                  \
    "  @required @httpLabel Name: String\n"                                                                            \
    "  @httpQuery(\"q\") Query: StringList\n"                                                                          \
    "  @httpHeader(\"x-when\") When: Timestamp\n"                                                                      \
    "  @httpPrefixHeaders(\"x-meta-\") Meta: StringMap\n"                                                              \
    "  Nested: Nested\n"                                                                                               \
    "  Count: Integer\n"                                                                                               \
    "  Ratio: Double\n"                                                                                                \
    "  Data: Blob\n"                                                                                                   \
    "  Choice: Choice\n"                                                                                               \
    "  @xmlFlattened Flat: StringList\n"                                                                               \
    "  Map: StringMap\n"                                                                                               \
    "}\n"                                                                                                              \
    "@output structure ThingOutput {\n"                                                                                \
    "  @httpHeader(\"x-count\") HeaderCount: Integer\n"                                                                \
    "  @httpHeader(\"x-list\") HeaderList: StringList\n"                                                               \
    "  @httpHeader(\"x-dates\") HeaderDates: DateList\n"                                                               \
    "  @httpPrefixHeaders(\"x-meta-\") Meta: StringMap\n"                                                              \
    "  @httpResponseCode Status: Integer\n"                                                                            \
    "  @xmlAttribute @xmlName(\"id\") Id: String\n"                                                                    \
    "  Nested: Nested\n"                                                                                               \
    "  Items: NestedList\n"                                                                                            \
    "  @xmlFlattened Flat: StringList\n"                                                                               \
    "  Map: StringMap\n"                                                                                               \
    "  @xmlFlattened FlatMap: StringMap\n"                                                                             \
    "  @timestampFormat(\"http-date\") Http: Timestamp\n"                                                              \
    "  @timestampFormat(\"epoch-seconds\") Epoch: Timestamp\n"                                                         \
    "  When: Timestamp\n"                                                                                              \
    "  Data: Blob\n"                                                                                                   \
    "  Flag: Boolean = false\n"                                                                                        \
    "  @required Ratio: Float\n"                                                                                       \
    "  Big: Long\n"                                                                                                    \
    "  Choice: Choice\n"                                                                                               \
    "  Sparse: SparseList\n"                                                                                           \
    "}\n"                                                                                                              \
    "structure Nested { @xmlName(\"inner\") Inner: Nested, Value: String, Tags: StringMap }\n"                         \
    "union Choice { S: String, N: Nested, L: StringList }\n"                                                           \
    "list StringList { member: String }\n"                                                                             \
    "list DateList { member: Timestamp }\n"                                                                            \
    "list NestedList { @xmlName(\"item\") member: Nested }\n"                                                          \
    "@sparse list SparseList { member: String }\n"                                                                     \
    "map StringMap { key: String, value: String }\n"                                                                   \
    "@error(\"client\") @awsQueryError(code: \"Custom.Code\", httpResponseCode: 400)\n"                                \
    "structure Problem { message: String, @httpHeader(\"x-reason\") Reason: String, Nested: Nested }\n"

static const char *const s_models[] = {
    "$version: \"2\"\nnamespace fuzz.json\nuse aws.protocols#awsJson1_1\nuse aws.protocols#awsQueryError\n"
    "@awsJson1_1 service S { version: \"2020-01-01\", operations: [Thing] }\n"
    "operation Thing { input: ThingInput, output: ThingOutput, errors: [Problem] }\n" S_SHAPES,
    "$version: \"2\"\nnamespace fuzz.rest\nuse aws.protocols#restJson1\nuse aws.protocols#awsQueryError\n"
    "@restJson1 service S { version: \"2020-01-01\", operations: [Thing] }\n"
    "@http(method: \"POST\", uri: \"/things/{Name}?x=1\") operation Thing { input: ThingInput, output: ThingOutput, "
    "errors: [Problem] }\n" S_SHAPES,
    "$version: \"2\"\nnamespace fuzz.query\nuse aws.protocols#awsQuery\nuse aws.protocols#awsQueryError\n"
    "@awsQuery @xmlNamespace(uri: \"https://example.com/\") service S { version: \"2020-01-01\", operations: "
    "[Thing] }\n"
    "operation Thing { input: ThingInput, output: ThingOutput, errors: [Problem] }\n" S_SHAPES,
    "$version: \"2\"\nnamespace fuzz.ec2\nuse aws.protocols#ec2Query\nuse aws.protocols#awsQueryError\n"
    "@ec2Query service S { version: \"2020-01-01\", operations: [Thing] }\n"
    "operation Thing { input: ThingInput, output: ThingOutput, errors: [Problem] }\n" S_SHAPES,
    "$version: \"2\"\nnamespace fuzz.xml\nuse aws.protocols#restXml\nuse aws.protocols#awsQueryError\n"
    "@restXml service S { version: \"2020-01-01\", operations: [Thing] }\n"
    "@http(method: \"PUT\", uri: \"/{Name+}\") operation Thing { input: ThingInput, output: ThingOutput, errors: "
    "[Problem] }\n" S_SHAPES,
};
#define S_PROTOCOLS (sizeof s_models / sizeof s_models[0])

static struct anvil_model *s_model[S_PROTOCOLS];

static void s_load(void) {
    if (s_model[0]) {
        return;
    }
    for (size_t i = 0; i < S_PROTOCOLS; i++) {
        struct anvil_model_source src = {"fuzz.smithy", s_models[i], strlen(s_models[i]), ANVIL_MODEL_FORMAT_IDL};
        struct anvil_diag diag;
        int rc = anvil_model_assemble(NULL, &src, 1, NULL, &s_model[i], NULL, &diag);
        if (rc != ANVIL_OK) {
            fprintf(stderr, "protocol fuzz: model %zu: %s\n", i, diag.message);
        }
        s_check(rc == ANVIL_OK, "a fuzz model does not assemble");
    }
}

static const struct anvil_shape *s_find(const struct anvil_model *m, const char *suffix) {
    for (size_t i = 0; i < anvil_model_shape_count(m); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(m, i);
        if (anvil_sv_eq_cstr(anvil_shape_name(s), suffix)) {
            return s;
        }
    }
    return NULL;
}

/* Every string of a value is UTF-8 and the writer takes the whole value. */
static void s_check_value(const struct anvil_json *v) {
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    s_check(anvil_json_write(v, 0, &out) == ANVIL_OK, "an output the JSON writer refuses");
    struct anvil_json_doc *doc = NULL;
    s_check(anvil_json_parse(NULL, out.data, out.len, NULL, &doc, NULL) == ANVIL_OK, "an output that is not JSON");
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&out);
}

static void s_response(struct anvil__protocol_context *ctx, const struct anvil__protocol *p,
                       const struct anvil_shape *op, int status, const struct anvil_http_header *headers,
                       size_t header_count, const uint8_t *body, size_t len) {
    struct anvil_arena *arena = NULL;
    s_check(anvil_arena_new(NULL, NULL, &arena) == ANVIL_OK, "arena");
    struct anvil__response res = {status, headers, header_count, (const char *)body, len};
    struct anvil_operation_reply reply;
    struct anvil_json error_data;
    int rc = anvil__response_read(p, ctx, op, &res, arena, &reply, &error_data);
    s_check(rc == ANVIL_OK || rc == ANVIL_ESERVICE || rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT,
            "a reader answered other than OK, ESERVICE, ESYNTAX or ELIMIT");
    if (rc == ANVIL_OK) {
        s_check_value(&reply.output);
    }
    if (rc == ANVIL_ESERVICE) {
        s_check_value(&error_data);
        s_check(reply.error.code.len <= 256, "an error code longer than its cap");
    }
    struct anvil_json message;
    s_check(anvil_json_new_string(arena, reply.error.message.ptr ? reply.error.message.ptr : "",
                                  reply.error.message.len, &message) == ANVIL_OK,
            "an error message that is not UTF-8");
    anvil_arena_destroy(arena);
}

static void s_request(struct anvil__protocol_context *ctx, const struct anvil__protocol *p,
                      const struct anvil_shape *op, const uint8_t *body, size_t len) {
    struct anvil_json_doc *doc = NULL;
    if (anvil_json_parse(NULL, (const char *)body, len, NULL, &doc, NULL) != ANVIL_OK) {
        return;
    }
    struct anvil_arena *arena = NULL;
    s_check(anvil_arena_new(NULL, NULL, &arena) == ANVIL_OK, "arena");
    struct anvil__request req;
    anvil__request_init(&req, NULL, arena);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil__request_build(p, ctx, op, anvil_json_doc_root(doc), &req, &diag);
    s_check(rc == ANVIL_OK || rc == ANVIL_EINVAL || rc == ANVIL_ELIMIT, "a writer answered other than OK or EINVAL");
    for (size_t i = 0; rc == ANVIL_OK && i < req.header_count; i++) {
        struct anvil_str_view v = req.headers[i].value;
        s_check(!memchr(v.ptr, '\r', v.len) && !memchr(v.ptr, '\n', v.len), "a header value with CR or LF");
    }
    for (size_t i = 0; rc == ANVIL_OK && i < req.target.len; i++) {
        unsigned char c = (unsigned char)req.target.data[i];
        s_check(c > ' ' && c < 0x7f, "a request target with a byte that cannot go in a request line");
    }
    anvil__request_clean_up(&req);
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) {
        return 0;
    }
    s_load();
    size_t which = data[0] % S_PROTOCOLS;
    bool request = (data[0] / S_PROTOCOLS) % 2 == 1;
    static const int statuses[] = {200, 201, 204, 301, 400, 403, 404, 500, 503, 200};
    int status = statuses[data[1] % 10];
    const struct anvil_model *model = s_model[which];
    const struct anvil_shape *service = s_find(model, "S");
    const struct anvil_shape *op = s_find(model, "Thing");
    const struct anvil__protocol *p = anvil__protocol_of(service);
    s_check(service && op && p, "the fuzz model has no service, operation or protocol");
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil__protocol_context ctx = {model, service, NULL, &fake.env, NULL, false};
    /* Header lines up to an empty line, then the body. */
    struct anvil_http_header headers[32];
    size_t count = 0, at = 2;
    while (at < size && count < 32) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - data) : size;
        if (end == at) {
            at++;
            break;
        }
        const uint8_t *colon = memchr(data + at, ':', end - at);
        if (colon) {
            headers[count].name = anvil_sv((const char *)data + at, (size_t)(colon - data) - at);
            headers[count].value = anvil_sv((const char *)colon + 1, end - (size_t)(colon - data) - 1);
            count++;
        }
        at = end + 1;
    }
    const uint8_t *body = at < size ? data + at : NULL;
    size_t len = at < size ? size - at : 0;
    if (request) {
        s_request(&ctx, p, op, body ? body : (const uint8_t *)"", len);
    } else {
        s_response(&ctx, p, op, status, headers, count, body, len);
    }
    return 0;
}
