/*
 * What some services need beyond their protocol, as every AWS SDK does it
 * (botocore's handlers.py names them): Glacier's API version header, its
 * "-" account id and its SHA-256 and tree-hash headers; API Gateway's
 * Accept header; Machine Learning's Predict sent to the endpoint its input
 * names. Each is keyed on the service's sdkId, and each has a Smithy
 * protocol test (restJson1/services, awsJson1_1/services).
 */

#include <string.h>

#include "core/crypto.h"
#include "protocol/protocol_internal.h"

enum s_service { S_OTHER, S_GLACIER, S_API_GATEWAY, S_MACHINE_LEARNING };

static enum s_service s_service(const struct anvil__protocol_context *ctx) {
    struct anvil_aws_service aws;
    if (!anvil_service_aws(ctx->service, &aws)) {
        return S_OTHER;
    }
    return anvil_sv_eq_cstr(aws.sdk_id, "Glacier")            ? S_GLACIER
           : anvil_sv_eq_cstr(aws.sdk_id, "API Gateway")      ? S_API_GATEWAY
           : anvil_sv_eq_cstr(aws.sdk_id, "Machine Learning") ? S_MACHINE_LEARNING
                                                              : S_OTHER;
}

int anvil__customize_input(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                           const struct anvil_json *input, struct anvil_arena *arena, const struct anvil_json **out) {
    *out = input;
    const struct anvil_shape *shape = anvil_operation_input(op);
    const struct anvil_member *account = shape ? anvil_shape_member(shape, "accountId") : NULL;
    if (s_service(ctx) != S_GLACIER || !account) {
        return ANVIL_OK;
    }
    /* Glacier: an account id left out or empty means the caller's own account, "-". */
    const struct anvil_json *given = anvil_json_object_get_cstr(input, "accountId");
    if (anvil_json_is_string(given) && anvil_json_len(given) > 0) {
        return ANVIL_OK;
    }
    size_t n = anvil_json_len(input);
    struct anvil__values values;
    anvil__values_init(&values, NULL, arena);
    int rc = ANVIL_OK;
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(input, i);
        if (!anvil_sv_eq_cstr(anvil_json_member_key(jm), "accountId")) {
            rc = anvil__values_member(&values, jm->key, jm->value);
        }
    }
    struct anvil_json dash;
    rc = rc == ANVIL_OK ? anvil__values_string(&values, ANVIL_SV("-"), &dash) : rc;
    rc = rc == ANVIL_OK ? anvil__values_member_named(&values, ANVIL_SV("accountId"), dash) : rc;
    struct anvil_json *object = anvil_arena_alloc(arena, sizeof *object, _Alignof(struct anvil_json));
    rc = rc == ANVIL_OK && !object ? ANVIL_ENOMEM : rc;
    rc = rc == ANVIL_OK ? anvil__values_object(&values, 0, object) : rc;
    anvil__values_clean_up(&values);
    if (rc == ANVIL_OK) {
        *out = object;
    }
    return rc;
}

static void s_hex(const unsigned char *digest, char out[65]) {
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < 32; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[64] = '\0';
}

static int s_sha256(const void *data, size_t len, unsigned char out[32]) {
    return anvil__digest(ANVIL__SHA256, data, len, out, NULL);
}

/*
 * Glacier's tree hash: the SHA-256 of each 1 MiB of the body, then of each
 * pair of hashes, level by level, until one is left.
 */
static int s_tree_hash(const char *body, size_t len, unsigned char out[32], struct anvil_allocator *allocator) {
    const size_t chunk = (size_t)1 << 20;
    size_t count = len ? (len + chunk - 1) / chunk : 1;
    unsigned char(*level)[32] = anvil_mem_acquire(allocator, count * 32);
    if (!level) {
        return ANVIL_ENOMEM;
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < count && rc == ANVIL_OK; i++) {
        size_t at = i * chunk;
        rc = s_sha256(len ? body + at : "", len - at < chunk ? len - at : chunk, level[i]);
    }
    while (count > 1 && rc == ANVIL_OK) {
        size_t next = 0;
        for (size_t i = 0; i < count && rc == ANVIL_OK; i += 2) {
            if (i + 1 < count) {
                unsigned char pair[64];
                memcpy(pair, level[i], 32);
                memcpy(pair + 32, level[i + 1], 32);
                rc = s_sha256(pair, 64, level[next]);
            } else {
                memmove(level[next], level[i], 32);
            }
            next++;
        }
        count = next;
    }
    if (rc == ANVIL_OK) {
        memcpy(out, level[0], 32);
    }
    anvil_mem_release(allocator, level);
    return rc;
}

static int s_glacier(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                     struct anvil__request *req) {
    int rc = anvil__request_set_header(req, ANVIL_SV("X-Amz-Glacier-Version"),
                                       anvil_service_version(ctx->model, ctx->service));
    struct anvil_str_view name = anvil_shape_name(op);
    bool upload = anvil_sv_eq_cstr(name, "UploadArchive") || anvil_sv_eq_cstr(name, "UploadMultipartPart");
    if (rc != ANVIL_OK || !upload) {
        return rc;
    }
    unsigned char digest[32];
    char hex[65];
    if (!anvil__request_header(req, "X-Amz-Content-Sha256")) {
        rc = s_sha256(req->body.data, req->body.len, digest);
        s_hex(digest, hex);
        rc = rc == ANVIL_OK ? anvil__request_set_header(req, ANVIL_SV("X-Amz-Content-Sha256"), anvil_sv(hex, 64)) : rc;
    }
    if (rc == ANVIL_OK && !anvil__request_header(req, "X-Amz-Sha256-Tree-Hash")) {
        rc = s_tree_hash(req->body.data, req->body.len, digest, ctx->allocator);
        s_hex(digest, hex);
        rc =
            rc == ANVIL_OK ? anvil__request_set_header(req, ANVIL_SV("X-Amz-Sha256-Tree-Hash"), anvil_sv(hex, 64)) : rc;
    }
    return rc;
}

/* Machine Learning's Predict goes to the endpoint its PredictEndpoint member names (an http(s) URL). */
static int s_predict_endpoint(const struct anvil_shape *op, const struct anvil_json *input, struct anvil__request *req,
                              struct anvil_diag *diag) {
    struct anvil_str_view url = anvil_json_string(anvil_json_object_get_cstr(input, "PredictEndpoint"));
    if (!anvil_sv_eq_cstr(anvil_shape_name(op), "Predict") || !url.len) {
        return ANVIL_OK;
    }
    size_t at = anvil_sv_starts_with(url, ANVIL_SV("https://"))  ? 8
                : anvil_sv_starts_with(url, ANVIL_SV("http://")) ? 7
                                                                 : 0;
    /* host[:port], then a path of printable bytes: no user information, no query, no fragment. */
    size_t host = at;
    while (at && host < url.len &&
           ((url.ptr[host] >= 'a' && url.ptr[host] <= 'z') || (url.ptr[host] >= 'A' && url.ptr[host] <= 'Z') ||
            (url.ptr[host] >= '0' && url.ptr[host] <= '9') || url.ptr[host] == '-' || url.ptr[host] == '.')) {
        host++;
    }
    bool ok = at && host > at;
    size_t i = host;
    if (ok && i < url.len && url.ptr[i] == ':') {
        unsigned long port = 0;
        size_t digits = 0;
        for (i++; i < url.len && url.ptr[i] >= '0' && url.ptr[i] <= '9' && digits < 6; i++, digits++) {
            port = port * 10 + (unsigned long)(url.ptr[i] - '0');
        }
        ok = digits > 0 && port >= 1 && port <= 65535;
    }
    ok = ok && (i == url.len || url.ptr[i] == '/');
    for (; ok && i < url.len; i++) {
        unsigned char c = (unsigned char)url.ptr[i];
        ok = c > ' ' && c < 0x7f && c != '?' && c != '#';
    }
    if (!ok || url.len > 1024) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "`PredictEndpoint`: expected an http:// or https:// URL of a host[:port] and a path");
    }
    char *copy = anvil_arena_strndup(req->arena, url.ptr, url.len);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    req->endpoint = copy;
    return ANVIL_OK;
}

int anvil__customize_request(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                             const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    switch (s_service(ctx)) {
    case S_GLACIER:
        return s_glacier(ctx, op, req);
    case S_API_GATEWAY:
        return anvil__request_set_header(req, ANVIL_SV("Accept"), ANVIL_SV("application/json"));
    case S_MACHINE_LEARNING:
        return s_predict_endpoint(op, input, req, diag);
    default:
        return ANVIL_OK;
    }
}
