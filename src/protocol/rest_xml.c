/*
 * restXml (S3, CloudFront, Route 53): the HTTP binding traits as restJson1
 * has them, with XML bodies: the input's unbound members under a root
 * named for the input structure, or one @httpPayload member as the whole
 * body. Errors are `<ErrorResponse><Error>` or, for S3, a bare `<Error>`;
 * an error without a body (S3's HEAD) is named by its status: 404 is
 * `NotFound`, which is what S3's waiters expect.
 */

#include <stdio.h>
#include <string.h>

#include "protocol/protocol_internal.h"

static bool s_structured(const struct anvil_shape *shape) {
    enum anvil_shape_type t = anvil_shape_type(shape);
    return t == ANVIL_SHAPE_STRUCTURE || t == ANVIL_SHAPE_UNION;
}

static int s_serialize(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                       const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    int rc = anvil__http_bind_request(op, input, req, diag);
    const struct anvil_shape *shape = anvil_operation_input(op);
    const struct anvil_member *payload = anvil__http_payload_member(shape);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (payload) {
        const struct anvil_json *v = anvil_json_object_get(input, payload->name.ptr, payload->name.len);
        if (anvil_json_is_null(v)) {
            return ANVIL_OK; /* nothing to send: no body, no Content-Type */
        }
        struct anvil_str_view media = anvil_json_string(anvil_shape_trait(payload->target, "smithy.api#mediaType"));
        if (s_structured(payload->target)) {
            rc = anvil__xml_encode_payload(payload, v, &req->body, diag);
            media = media.len ? media : ANVIL_SV("application/xml");
        } else {
            rc = anvil__rest_payload_raw(payload, v, req, diag);
            media = media.len                                               ? media
                    : anvil_shape_type(payload->target) == ANVIL_SHAPE_BLOB ? ANVIL_SV("application/octet-stream")
                                                                            : ANVIL_SV("text/plain");
        }
        if (rc == ANVIL_OK) {
            rc = anvil__request_default_header(req, "Content-Type", media);
        }
    } else if (anvil__http_has_body_members(shape) && input && anvil_json_len(input) &&
               anvil__xml_has_body_values(shape, input)) {
        struct anvil_str_view root = anvil_json_string(anvil_shape_trait(shape, "smithy.api#xmlName"));
        const struct anvil_json *ns = anvil_shape_trait(shape, "smithy.api#xmlNamespace");
        ns = ns ? ns : anvil_shape_trait(ctx->service, "smithy.api#xmlNamespace");
        rc = anvil__xml_encode(shape, root.len ? root : anvil_shape_name(shape), ns, input, anvil__http_unbound,
                               &req->body, diag);
        if (rc == ANVIL_OK) {
            rc = anvil__request_default_header(req, "Content-Type", ANVIL_SV("application/xml"));
        }
    }
    return rc;
}

/* The members of `shape` from a response: bound ones from the status and headers, then the body's. */
static int s_read_members(const struct anvil_shape *shape, const struct anvil__response *res,
                          const struct anvil_xml_node *root, struct anvil__values *values, struct anvil_json *out,
                          struct anvil_buf *why) {
    size_t base = values->member_count;
    int rc = anvil__http_bind_response(shape, res, values, why);
    const struct anvil_member *payload = anvil__http_payload_member(shape);
    if (rc == ANVIL_OK && payload && res->body_len) {
        struct anvil_json v;
        if (s_structured(payload->target)) {
            /* The payload is the document: its root element, whatever its name. */
            rc = root ? anvil__xml_decode_value(payload, root, values, &v, why) : ANVIL_ESYNTAX;
        } else {
            rc = anvil__rest_payload_value(payload, res, values, &v);
            if (rc == ANVIL_EVALUE) {
                anvil_buf_appendf(why, "the body of `%.*s` is not UTF-8 text", (int)payload->name.len,
                                  payload->name.ptr);
                rc = ANVIL_ESYNTAX;
            }
        }
        if (rc == ANVIL_OK) {
            rc = anvil__values_member_named(values, payload->name, v);
        }
    } else if (rc == ANVIL_OK && !payload && root) {
        rc = anvil__xml_decode_members(shape, root, values, why);
    }
    if (rc == ANVIL_OK) {
        rc = anvil__values_fill_defaults(values, shape, base);
    }
    if (rc != ANVIL_OK) {
        values->member_count = base;
        return rc;
    }
    return anvil__values_object(values, base, out);
}

/*
 * S3's GetBucketLocation (`@s3UnwrappedXmlOutput`): the root element's
 * text is the output's one member, not a structure around it.
 */
static int s_unwrapped(const struct anvil_shape *output, const struct anvil_xml_node *root,
                       struct anvil__values *values, struct anvil_json *out, struct anvil_buf *why) {
    size_t base = values->member_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_shape_member_count(output) && rc == ANVIL_OK && root; i++) {
        const struct anvil_member *m = anvil_shape_member_at(output, i);
        if (anvil__http_unbound_response(m)) {
            struct anvil_json v;
            rc = anvil__xml_decode_value(m, root, values, &v, why);
            rc = rc == ANVIL_OK ? anvil__values_member_named(values, m->name, v) : rc;
            break;
        }
    }
    if (rc != ANVIL_OK) {
        values->member_count = base;
        return rc;
    }
    return anvil__values_object(values, base, out);
}

/* The code of an error without a document: the status's reason phrase without spaces, as S3's SDKs name it. */
static struct anvil_str_view s_status_code(int status) {
    static const struct {
        int status;
        const char *code;
    } codes[] = {{301, "MovedPermanently"},
                 {302, "Found"},
                 {304, "NotModified"},
                 {307, "TemporaryRedirect"},
                 {400, "BadRequest"},
                 {401, "Unauthorized"},
                 {403, "Forbidden"},
                 {404, "NotFound"},
                 {405, "MethodNotAllowed"},
                 {409, "Conflict"},
                 {411, "LengthRequired"},
                 {412, "PreconditionFailed"},
                 {416, "RequestedRangeNotSatisfiable"},
                 {429, "TooManyRequests"},
                 {500, "InternalServerError"},
                 {501, "NotImplemented"},
                 {502, "BadGateway"},
                 {503, "ServiceUnavailable"},
                 {504, "GatewayTimeout"}};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(codes); i++) {
        if (codes[i].status == status) {
            return anvil_sv_from_cstr(codes[i].code);
        }
    }
    return anvil_sv("", 0);
}

/*
 * Whether a 200 answer is an error all the same: S3's CopyObject,
 * UploadPartCopy and CompleteMultipartUpload may send `<Error>` after the
 * status line went out (botocore's _looks_like_special_case_error).
 */
static bool s_error_in_200(const struct anvil_shape *output, const struct anvil_xml_node *root) {
    const struct anvil_member *payload = anvil__http_payload_member(output);
    return root && anvil_sv_eq_cstr(root->local, "Error") && (!payload || s_structured(payload->target)) &&
           !(output && anvil_shape_member_sv(output, ANVIL_SV("Error")));
}

static int s_parse(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                   const struct anvil__response *res, struct anvil_arena *arena, struct anvil_operation_reply *reply,
                   struct anvil_json *error_data) {
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 1024);
    bool success = res->status >= 200 && res->status < 300;
    const struct anvil_shape *output = anvil_operation_output(op);
    const struct anvil_member *payload = success ? anvil__http_payload_member(output) : NULL;
    bool raw = payload && !s_structured(payload->target);
    const struct anvil_xml_node *root = NULL;
    int rc = !raw && res->body_len ? anvil__xml_parse_body(arena, ctx->allocator, res, &root, &why) : ANVIL_OK;
    if (rc == ANVIL_ENOMEM || (rc != ANVIL_OK && success)) {
        rc = rc == ANVIL_ENOMEM ? rc : anvil__reply_unreadable(arena, &why, res->status, reply);
        anvil_buf_clean_up(&why);
        return rc;
    }
    if (rc != ANVIL_OK) {
        root = NULL; /* an error without an XML document: its status speaks */
    }
    if (success && s_error_in_200(output, root)) {
        success = false;
    }
    struct anvil__values values;
    anvil__values_init(&values, ctx->allocator, arena);
    if (success) {
        if (anvil_shape_trait(op, "aws.customizations#s3UnwrappedXmlOutput")) {
            rc = s_unwrapped(output, root, &values, &reply->output, &why);
        } else {
            rc = output ? s_read_members(output, res, root, &values, &reply->output, &why) : ANVIL_OK;
        }
        if (rc == ANVIL_ESYNTAX) {
            rc = anvil__reply_unreadable(arena, &why, res->status, reply);
        }
    } else {
        rc = anvil__xml_error(ctx, op, res, root, false, arena, reply, &values, error_data, &why);
        if (rc == ANVIL_ESERVICE && !reply->error.code.len) {
            /* No error document (a HEAD, a proxy's page): the status names the error. */
            int krc = anvil__reply_error(arena, s_status_code(res->status), reply->error.message, res->status, reply);
            const struct anvil_shape *shape = anvil__error_shape(ctx, op, reply->error.code, false);
            if (krc == ANVIL_OK && shape && error_data) {
                krc = s_read_members(shape, res, NULL, &values, error_data, &why) == ANVIL_ENOMEM ? ANVIL_ENOMEM
                                                                                                  : ANVIL_OK;
            }
            rc = krc == ANVIL_OK ? ANVIL_ESERVICE : krc;
        } else if (rc == ANVIL_ESERVICE && error_data && !anvil_json_is_null(error_data)) {
            /* Members of the error bound to headers (S3's x-amz-* on errors). */
            const struct anvil_shape *shape = anvil__error_shape(ctx, op, reply->error.code, false);
            size_t base = values.member_count;
            if (shape && anvil__http_bind_response(shape, res, &values, &why) == ANVIL_OK &&
                values.member_count > base) {
                for (size_t i = 0; i < anvil_json_len(error_data); i++) {
                    const struct anvil_json_member *jm = anvil_json_object_at(error_data, i);
                    anvil__values_member(&values, jm->key, jm->value);
                }
                if (anvil__values_object(&values, base, error_data) == ANVIL_ENOMEM) {
                    rc = ANVIL_ENOMEM;
                }
            }
            values.member_count = base;
        }
    }
    anvil__values_clean_up(&values);
    anvil_buf_clean_up(&why);
    return rc;
}

const struct anvil__protocol anvil__rest_xml = {"restXml", ANVIL_PROTOCOL_REST_XML, s_serialize, s_parse};
