/*
 * What every protocol shares: the table of protocols, the request being
 * built (headers in an arena, target and body in buffers), the steps of a
 * call that do not depend on the wire format (idempotency token, request
 * compression, Content-MD5), response header lookup, and finding the
 * modelled error a wire code names.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/idempotency.h"
#include "anvil/text.h"
#include "core/crypto.h"
#include "protocol/protocol_internal.h"

/* The most kept of an error's code and message (a hostile server may send megabytes of either). */
#define S_CODE_MAX 256
#define S_MESSAGE_MAX 4096
#define S_REQUEST_ID_MAX 256
/* The most of a body that is not an error document quoted in the message. */
#define S_BODY_QUOTE_MAX 200

static const struct anvil__protocol *const s_protocols[] = {
    &anvil__aws_json_1_0, &anvil__aws_json_1_1, &anvil__rest_json_1,
    &anvil__aws_query,    &anvil__ec2_query,    &anvil__rest_xml,
};

const struct anvil__protocol *anvil__protocol_get(enum anvil_protocol id) {
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_protocols); i++) {
        if (s_protocols[i]->id == id && s_protocols[i]->serialize) {
            return s_protocols[i];
        }
    }
    return NULL;
}

void anvil__protocol_names(char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_protocols) && n < size; i++) {
        int w = snprintf(out + n, size - n, "%s%s", i ? ", " : "", s_protocols[i]->name);
        n += w > 0 ? (size_t)w : 0;
    }
}

const struct anvil__protocol *anvil__protocol_of(const struct anvil_shape *service) {
    enum anvil_protocol ids[8];
    size_t n = anvil_service_protocols(service, ids, 8);
    for (size_t i = 0; i < n && i < 8; i++) {
        const struct anvil__protocol *p = anvil__protocol_get(ids[i]);
        if (p) {
            return p;
        }
    }
    return NULL;
}

/* ---- requests ---- */

void anvil__request_init(struct anvil__request *req, struct anvil_allocator *allocator, struct anvil_arena *arena) {
    memset(req, 0, sizeof *req);
    req->method = "POST";
    anvil_buf_init(&req->target, allocator, 0);
    anvil_buf_init(&req->body, allocator, 0);
    req->arena = arena;
}

void anvil__request_clean_up(struct anvil__request *req) {
    anvil_buf_clean_up(&req->target);
    anvil_buf_clean_up(&req->body);
    req->headers = NULL;
    req->header_count = 0;
    req->header_capacity = 0;
}

static int s_copy(struct anvil_arena *arena, struct anvil_str_view in, struct anvil_str_view *out) {
    char *copy = anvil_arena_strndup(arena, in.ptr ? in.ptr : "", in.len);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    *out = anvil_sv(copy, in.len);
    return ANVIL_OK;
}

int anvil__request_add_header(struct anvil__request *req, struct anvil_str_view name, struct anvil_str_view value) {
    if (req->header_count == req->header_capacity) {
        if (req->header_capacity >= ANVIL__REQUEST_MAX_HEADERS) {
            return ANVIL_ELIMIT;
        }
        size_t cap = req->header_capacity ? req->header_capacity * 2 : 16;
        struct anvil_http_header *grown =
            anvil_arena_alloc(req->arena, cap * sizeof *grown, _Alignof(struct anvil_http_header));
        if (!grown) {
            return ANVIL_ENOMEM;
        }
        if (req->header_count) {
            memcpy(grown, req->headers, req->header_count * sizeof *grown);
        }
        req->headers = grown;
        req->header_capacity = cap;
    }
    struct anvil_http_header *h = &req->headers[req->header_count];
    int rc = s_copy(req->arena, name, &h->name);
    if (rc == ANVIL_OK) {
        rc = s_copy(req->arena, value, &h->value);
    }
    if (rc == ANVIL_OK) {
        req->header_count++;
    }
    return rc;
}

int anvil__request_set_header(struct anvil__request *req, struct anvil_str_view name, struct anvil_str_view value) {
    size_t kept = 0;
    for (size_t i = 0; i < req->header_count; i++) {
        if (!anvil_sv_eq_ascii_nocase(req->headers[i].name, name)) {
            req->headers[kept++] = req->headers[i];
        }
    }
    req->header_count = kept;
    return anvil__request_add_header(req, name, value);
}

int anvil__request_default_header(struct anvil__request *req, const char *name, struct anvil_str_view value) {
    return anvil__request_header(req, name) ? ANVIL_OK
                                            : anvil__request_add_header(req, anvil_sv_from_cstr(name), value);
}

const struct anvil_str_view *anvil__request_header(const struct anvil__request *req, const char *name) {
    for (size_t i = 0; i < req->header_count; i++) {
        if (anvil_sv_eq_ascii_nocase(req->headers[i].name, anvil_sv_from_cstr(name))) {
            return &req->headers[i].value;
        }
    }
    return NULL;
}

const struct anvil_http_header *anvil__response_header(const struct anvil__response *res, const char *name) {
    for (size_t i = 0; i < res->header_count; i++) {
        if (anvil_sv_eq_ascii_nocase(res->headers[i].name, anvil_sv_from_cstr(name))) {
            return &res->headers[i];
        }
    }
    return NULL;
}

int anvil__request_content_length(struct anvil__request *req) {
    /* A GET or HEAD without a body says nothing of one; every other request says how long its body is. */
    if (req->body.len == 0 && (strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0)) {
        size_t kept = 0;
        for (size_t i = 0; i < req->header_count; i++) {
            if (!anvil_sv_eq_ascii_nocase(req->headers[i].name, ANVIL_SV("Content-Length"))) {
                req->headers[kept++] = req->headers[i];
            }
        }
        req->header_count = kept;
        return ANVIL_OK;
    }
    char n[24];
    snprintf(n, sizeof n, "%zu", req->body.len);
    return anvil__request_set_header(req, ANVIL_SV("Content-Length"), anvil_sv_from_cstr(n));
}

/* `@requestCompression`: gzip the body when the settings and its size say so, the encoding appended. */
static int s_compress(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                      struct anvil__request *req, struct anvil_diag *diag) {
    size_t count = 0;
    const struct anvil_json *encodings = anvil_operation_request_compression(op, &count);
    if (!encodings) {
        return ANVIL_OK;
    }
    const struct anvil_str_view *given = anvil__request_header(req, "Content-Encoding");
    struct anvil_compression_request creq = {encodings, req->body.len, false, false, given ? *given : anvil_sv("", 0)};
    struct anvil_compression_decision d;
    struct anvil_buf header;
    anvil_buf_init(&header, ctx->allocator, 0);
    int rc = anvil_compression_decide(ctx->compression, NULL, &creq, &d, &header, diag);
    if (rc == ANVIL_OK && d.compress) {
        struct anvil_buf gz;
        anvil_buf_init(&gz, ctx->allocator, 0);
        rc = anvil_gzip(req->body.data ? req->body.data : "", req->body.len, &gz);
        if (rc == ANVIL_OK) {
            anvil_buf_clean_up(&req->body);
            req->body = gz;
            rc = anvil__request_set_header(req, ANVIL_SV("Content-Encoding"), anvil_buf_view(&header));
        } else {
            anvil_buf_clean_up(&gz);
        }
    }
    anvil_buf_clean_up(&header);
    return rc;
}

/* `@httpChecksumRequired`: Content-MD5, the base64 MD5 of the body as sent. */
static int s_content_md5(const struct anvil_shape *op, struct anvil__request *req) {
    if (!anvil_shape_trait(op, "smithy.api#httpChecksumRequired") || anvil__request_header(req, "Content-MD5")) {
        return ANVIL_OK;
    }
    unsigned char digest[ANVIL__MD5];
    int rc = anvil__digest(ANVIL__MD5, req->body.data, req->body.len, digest, NULL);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_buf b64;
    anvil_buf_init(&b64, NULL, 0);
    rc = anvil_base64_encode(&b64, digest, sizeof digest);
    if (rc == ANVIL_OK) {
        rc = anvil__request_set_header(req, ANVIL_SV("Content-MD5"), anvil_buf_view(&b64));
    }
    anvil_buf_clean_up(&b64);
    return rc;
}

/* Whether `s` is host-name text: letters, digits, '-' and '.', no empty label (no leading '.', no ".."). */
static bool s_host_text(struct anvil_str_view s) {
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                  (c == '.' && i > 0 && s.ptr[i - 1] != '.');
        if (!ok) {
            return false;
        }
    }
    return true;
}

/*
 * `@endpoint(hostPrefix)`: "{Label}." parts filled from @hostLabel
 * members. The whole prefix, the model's text as well as the values, must
 * be host-name text (letters, digits, '-', and '.' between labels) that
 * does not start with '-' or '.': it goes in front of the endpoint's host,
 * ending in '.' (a label of its own) or not (Omics' "workflows-" makes
 * workflows-omics.us-east-1.amazonaws.com), so neither the model nor an
 * input can point a signed request at another host.
 */
static int s_host_prefix(const struct anvil_shape *op, const struct anvil_json *input, struct anvil__request *req,
                         struct anvil_diag *diag) {
    struct anvil_str_view prefix =
        anvil_json_string(anvil_json_object_get_cstr(anvil_shape_trait(op, "smithy.api#endpoint"), "hostPrefix"));
    if (!prefix.len) {
        return ANVIL_OK;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, ANVIL__HOST_PREFIX_MAX);
    int rc = ANVIL_OK;
    for (size_t i = 0; i < prefix.len && rc == ANVIL_OK;) {
        if (prefix.ptr[i] != '{') {
            rc = anvil_buf_append_byte(&out, prefix.ptr[i++]);
            continue;
        }
        size_t close = anvil_sv_find_byte(prefix, i, '}');
        if (close == SIZE_MAX || close == i + 1) {
            rc = anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                                "the operation's hostPrefix has a label that is not {name}");
            break;
        }
        struct anvil_str_view name = anvil_sv_slice(prefix, i + 1, close - i - 1);
        struct anvil_str_view label = anvil_json_string(anvil_json_object_get(input, name.ptr, name.len));
        if (!label.len || label.len > 63 || !s_host_text(label) || label.ptr[label.len - 1] == '.') {
            rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                "`%.*s`: goes in front of the host name, so it must be 1 to 63 letters, digits, "
                                "'-' or '.' (not at its end, and not two in a row)",
                                (int)name.len, name.ptr);
            break;
        }
        rc = anvil_buf_append_sv(&out, label);
        i = close + 1;
    }
    if (rc == ANVIL_ELIMIT) {
        rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the host prefix is longer than %d bytes",
                            ANVIL__HOST_PREFIX_MAX);
    } else if (rc == ANVIL_OK && (!s_host_text(anvil_buf_view(&out)) || out.data[0] == '-' || out.data[0] == '.')) {
        rc = anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                            "the operation's hostPrefix is not host-name text (letters, digits, '-' and '.' "
                            "between labels, not first)");
    }
    if (rc == ANVIL_OK) {
        memcpy(req->host_prefix, out.data, out.len);
        req->host_prefix[out.len] = '\0';
    }
    anvil_buf_clean_up(&out);
    return rc;
}

/*
 * Every header can go on the wire as it is: a token for a name, no CR, LF
 * or NUL in a value. Bound members were checked as they were set; this
 * catches what a model put there (a @mediaType with a line break, say).
 */
static int s_headers_sendable(const struct anvil__request *req, struct anvil_diag *diag) {
    for (size_t i = 0; i < req->header_count; i++) {
        struct anvil_str_view name = req->headers[i].name, value = req->headers[i].value;
        bool ok = name.len > 0;
        for (size_t k = 0; ok && k < name.len; k++) {
            unsigned char c = (unsigned char)name.ptr[k];
            ok = c > ' ' && c < 0x7f && c != ':';
        }
        for (size_t k = 0; ok && k < value.len; k++) {
            ok = value.ptr[k] != '\r' && value.ptr[k] != '\n' && value.ptr[k] != '\0';
        }
        if (!ok) {
            return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                                  "the header `%.*s` cannot be sent: a name that is not a token, or CR, LF or NUL in "
                                  "its value (from the model)",
                                  (int)(name.len > 64 ? 64 : name.len), name.ptr);
        }
    }
    return ANVIL_OK;
}

int anvil__request_build(const struct anvil__protocol *protocol, const struct anvil__protocol_context *ctx,
                         const struct anvil_shape *op, const struct anvil_json *input, struct anvil__request *req,
                         struct anvil_diag *diag) {
    if (input && !anvil_json_is_object(input) && !anvil_json_is_null(input)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the input must be a JSON object, not %s",
                              anvil_json_type_name(anvil_json_type(input)));
    }
    const struct anvil_json *filled = anvil_json_is_object(input) ? input : NULL;
    req->bucket_in_endpoint = ctx->bucket_in_endpoint;
    bool token = false;
    int rc = anvil__customize_input(ctx, op, filled, req->arena, &filled);
    if (rc == ANVIL_OK) {
        rc = anvil_idempotency_fill(op, filled, ctx->env, req->arena, &filled, &token);
    }
    if (rc == ANVIL_OK) {
        rc = protocol->serialize(ctx, op, filled, req, diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_host_prefix(op, filled, req, diag);
    }
    if (rc == ANVIL_OK) {
        rc = anvil__customize_request(ctx, op, filled, req, diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_compress(ctx, op, req, diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_content_md5(op, req);
    }
    if (rc == ANVIL_OK) {
        /* Last: the body is what it will be, and a Content-Length a bound member gave cannot disagree with it. */
        rc = anvil__request_content_length(req);
    }
    if (rc == ANVIL_OK) {
        rc = s_headers_sendable(req, diag);
    }
    if (rc == ANVIL_ELIMIT && diag && diag->code != ANVIL_ELIMIT) {
        anvil_diag_set(diag, rc, 0, 0, 0,
                       "the request would be past a limit (more than %d headers, or a part too long)",
                       ANVIL__REQUEST_MAX_HEADERS);
    }
    return rc;
}

/* ---- responses ---- */

const struct anvil_json *anvil__member_trait(const struct anvil_member *m, const char *id) {
    return m ? anvil_json_object_get_cstr(&m->traits, id) : NULL;
}

struct anvil_str_view anvil__member_trait_string(const struct anvil_member *m, const char *id) {
    const struct anvil_json *v = anvil__member_trait(m, id);
    return anvil_json_is_string(v) ? anvil_json_string(v) : anvil_sv("", 0);
}

static const struct anvil_shape *s_error_in(const struct anvil_shape *owner, struct anvil_str_view code,
                                            bool query_codes) {
    size_t n = owner ? anvil_shape_error_count(owner) : 0;
    for (size_t i = 0; i < n; i++) {
        const struct anvil_shape *e = anvil_shape_error_at(owner, i);
        struct anvil_str_view query = query_codes ? anvil_error_query_code(e) : anvil_sv("", 0);
        if (query.len ? anvil_sv_eq(query, code) : anvil_sv_eq(anvil_shape_name(e), code)) {
            return e;
        }
    }
    return NULL;
}

const struct anvil_shape *anvil__error_shape(const struct anvil__protocol_context *ctx,
                                             const struct anvil_shape *operation, struct anvil_str_view code,
                                             bool query_codes) {
    const struct anvil_shape *e = s_error_in(operation, code, query_codes);
    return e ? e : s_error_in(ctx->service, code, query_codes);
}

int anvil__reply_unreadable(struct anvil_arena *arena, const struct anvil_buf *why, int status,
                            struct anvil_operation_reply *reply) {
    int rc = anvil__reply_error(arena, anvil_sv("", 0), anvil_buf_view(why), status, reply);
    return rc == ANVIL_OK ? ANVIL_ESYNTAX : rc;
}

int anvil__reply_error(struct anvil_arena *arena, struct anvil_str_view code, struct anvil_str_view message,
                       int http_status, struct anvil_operation_reply *reply) {
    reply->error.http_status = http_status;
    reply->http_status = http_status;
    int rc = anvil__text_keep(arena, anvil_error_code_normalize(code), S_CODE_MAX, &reply->error.code);
    return rc == ANVIL_OK ? anvil__text_keep(arena, message, S_MESSAGE_MAX, &reply->error.message) : rc;
}

/*
 * An error without a message of its own (no error document, or one
 * without a message): say what came, in words a person can act on, quoting
 * a little of the body, or where a redirect points.
 */
static int s_status_message(struct anvil_arena *arena, const struct anvil__response *res,
                            struct anvil_operation_reply *reply) {
    struct anvil_buf said;
    anvil_buf_init(&said, NULL, 0);
    int rc = anvil_buf_appendf(&said, "HTTP %d", res->status);
    const struct anvil_http_header *location = anvil__response_header(res, "location");
    if (rc == ANVIL_OK && res->status >= 300 && res->status < 400) {
        rc = anvil_buf_append_cstr(&said, location ? ", a redirect to " : ", a redirect");
        if (rc == ANVIL_OK && location) {
            rc = anvil_text_append_utf8(&said, location->value, 512);
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_cstr(&said, " (anvil does not follow redirects: are the region and the "
                                              "endpoint right?)");
        }
    } else if (rc == ANVIL_OK && res->body_len) {
        rc = anvil_buf_append_cstr(&said, ": ");
        if (rc == ANVIL_OK) {
            rc = anvil_text_append_utf8(&said, anvil_sv(res->body, res->body_len), S_BODY_QUOTE_MAX);
        }
    }
    if (rc == ANVIL_OK) {
        rc = anvil__text_keep(arena, anvil_buf_view(&said), S_MESSAGE_MAX, &reply->error.message);
    }
    anvil_buf_clean_up(&said);
    return rc;
}

static int s_keep_headers(struct anvil_arena *arena, const struct anvil__response *res,
                          struct anvil_operation_reply *reply) {
    if (!res->header_count) {
        return ANVIL_OK;
    }
    struct anvil_http_header *kept =
        anvil_arena_alloc(arena, res->header_count * sizeof *kept, _Alignof(struct anvil_http_header));
    if (!kept) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < res->header_count; i++) {
        int rc = anvil__text_keep(arena, res->headers[i].name, 256, &kept[i].name);
        if (rc == ANVIL_OK) {
            rc = anvil__text_keep(arena, res->headers[i].value, 16384, &kept[i].value);
        }
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    reply->headers = kept;
    reply->header_count = res->header_count;
    return ANVIL_OK;
}

int anvil__response_read(const struct anvil__protocol *protocol, const struct anvil__protocol_context *ctx,
                         const struct anvil_shape *operation, const struct anvil__response *res,
                         struct anvil_arena *arena, struct anvil_operation_reply *reply,
                         struct anvil_json *error_data) {
    memset(reply, 0, sizeof *reply);
    if (error_data) {
        *error_data = anvil_json_make_null();
    }
    int result = protocol->parse(ctx, operation, res, arena, reply, error_data);
    reply->http_status = res->status;
    if (result == ANVIL_ESERVICE) {
        reply->error.http_status = res->status;
        if (!reply->error.message.len) {
            int rc = s_status_message(arena, res, reply);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
    } else if (result != ANVIL_OK && result != ANVIL_ESYNTAX) {
        return result;
    }
    const struct anvil_http_header *id = anvil__response_header(res, "x-amzn-requestid");
    id = id ? id : anvil__response_header(res, "x-amz-request-id");
    int rc = id && !reply->request_id.len ? anvil__text_keep(arena, id->value, S_REQUEST_ID_MAX, &reply->request_id)
                                          : ANVIL_OK;
    if (rc == ANVIL_OK) {
        rc = s_keep_headers(arena, res, reply);
    }
    return rc == ANVIL_OK ? result : rc;
}
