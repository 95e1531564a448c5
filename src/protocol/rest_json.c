/*
 * restJson1 (Lambda, API Gateway, EKS, ...): the HTTP binding traits place
 * members in the path, the query and headers; the rest go in a JSON body
 * (named by @jsonName), or one @httpPayload member is the whole body.
 * Errors name themselves as awsJson's do (X-Amzn-Errortype, `code`,
 * `__type`); an error's bound members come from its headers.
 */

#include <stdio.h>
#include <string.h>

#include "protocol/protocol_internal.h"

static const struct anvil__json_codec s_codec = {true};

/* The Content-Type of a payload: its @mediaType, else by its type. */
static struct anvil_str_view s_payload_type(const struct anvil_shape *target, const char *structured) {
    struct anvil_str_view media = anvil_json_string(anvil_shape_trait(target, "smithy.api#mediaType"));
    if (media.len) {
        return media;
    }
    switch (anvil_shape_type(target)) {
    case ANVIL_SHAPE_BLOB:
        return ANVIL_SV("application/octet-stream");
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_ENUM:
        return ANVIL_SV("text/plain");
    default:
        return anvil_sv_from_cstr(structured);
    }
}

int anvil__rest_payload_raw(const struct anvil_member *payload, const struct anvil_json *v, struct anvil__request *req,
                            struct anvil_diag *diag) {
    enum anvil_shape_type t = anvil_shape_type(payload->target);
    if (t == ANVIL_SHAPE_BLOB) {
        struct anvil_str_view b64 = anvil_json_string(v);
        if (!anvil_json_is_string(v) || anvil_base64_decode(&req->body, b64) == ANVIL_EVALUE) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: expected a blob as base64 text",
                                  (int)payload->name.len, payload->name.ptr);
        }
        return ANVIL_OK;
    }
    if (!anvil_json_is_string(v)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: expected a string", (int)payload->name.len,
                              payload->name.ptr);
    }
    return anvil_buf_append_sv(&req->body, anvil_json_string(v));
}

static int s_serialize(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                       const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    (void)ctx;
    int rc = anvil__http_bind_request(op, input, req, diag);
    const struct anvil_shape *shape = anvil_operation_input(op);
    const struct anvil_member *payload = anvil__http_payload_member(shape);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (payload) {
        const struct anvil_json *v = anvil_json_object_get(input, payload->name.ptr, payload->name.len);
        enum anvil_shape_type t = anvil_shape_type(payload->target);
        bool structured = t == ANVIL_SHAPE_STRUCTURE || t == ANVIL_SHAPE_UNION || t == ANVIL_SHAPE_DOCUMENT;
        if (anvil_json_is_null(v) && t != ANVIL_SHAPE_STRUCTURE) {
            return ANVIL_OK; /* nothing to send: no body, no Content-Type (an unset structure is `{}`) */
        }
        if (t == ANVIL_SHAPE_DOCUMENT) {
            rc = anvil_json_write(v, 0, &req->body);
        } else if (structured) {
            rc = anvil__json_encode(&s_codec, payload->target, v, NULL, &req->body, diag);
        } else {
            rc = anvil__rest_payload_raw(payload, v, req, diag);
        }
        if (rc == ANVIL_OK) {
            rc =
                anvil__request_default_header(req, "Content-Type", s_payload_type(payload->target, "application/json"));
        }
    } else if (anvil__http_has_body_members(shape)) {
        rc = anvil__json_encode(&s_codec, shape, input, anvil__http_unbound, &req->body, diag);
        if (rc == ANVIL_OK) {
            rc = anvil__request_default_header(req, "Content-Type", ANVIL_SV("application/json"));
        }
    }
    return rc;
}

int anvil__rest_payload_value(const struct anvil_member *payload, const struct anvil__response *res,
                              struct anvil__values *values, struct anvil_json *out) {
    struct anvil_str_view body = anvil_sv(res->body, res->body_len);
    if (anvil_shape_type(payload->target) == ANVIL_SHAPE_BLOB) {
        struct anvil_buf b64;
        anvil_buf_init(&b64, values->allocator, 0);
        int rc = anvil_base64_encode(&b64, body.ptr, body.len);
        if (rc == ANVIL_OK) {
            rc = anvil__values_string(values, anvil_buf_view(&b64), out);
        }
        anvil_buf_clean_up(&b64);
        return rc;
    }
    return anvil__values_string(values, body, out);
}

/*
 * The members of `shape` from a response: the bound ones from the status
 * and headers, then the payload member or the body's members.
 */
static int s_read_members(const struct anvil_shape *shape, const struct anvil__response *res,
                          const struct anvil_json *body, struct anvil__values *values, struct anvil_json *out,
                          struct anvil_buf *why) {
    size_t base = values->member_count;
    int rc = anvil__http_bind_response(shape, res, values, why);
    const struct anvil_member *payload = anvil__http_payload_member(shape);
    if (rc == ANVIL_OK && payload && res->body_len) {
        enum anvil_shape_type t = anvil_shape_type(payload->target);
        struct anvil_json v;
        if (t == ANVIL_SHAPE_STRUCTURE || t == ANVIL_SHAPE_UNION || t == ANVIL_SHAPE_DOCUMENT) {
            rc = anvil__json_decode_value(&s_codec, payload, body, values, &v, why);
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
    } else if (rc == ANVIL_OK && !payload && anvil_json_is_object(body)) {
        rc = anvil__json_decode_members(&s_codec, shape, body, anvil__http_unbound_response, values, why);
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

static int s_parse(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                   const struct anvil__response *res, struct anvil_arena *arena, struct anvil_operation_reply *reply,
                   struct anvil_json *error_data) {
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 1024);
    bool success = res->status >= 200 && res->status < 300;
    const struct anvil_shape *output = anvil_operation_output(op);
    /* A payload of raw bytes is not JSON; everything else is, when there is a body. */
    const struct anvil_member *payload = success ? anvil__http_payload_member(output) : NULL;
    bool raw = payload && anvil_shape_type(payload->target) != ANVIL_SHAPE_STRUCTURE &&
               anvil_shape_type(payload->target) != ANVIL_SHAPE_UNION &&
               anvil_shape_type(payload->target) != ANVIL_SHAPE_DOCUMENT;
    struct anvil_json body = anvil_json_make_null();
    int rc = raw ? ANVIL_OK : anvil__json_parse_body(arena, res, &body, &why);
    if (rc == ANVIL_ENOMEM || (rc != ANVIL_OK && success)) {
        rc = rc == ANVIL_ENOMEM ? rc : anvil__reply_unreadable(arena, &why, res->status, reply);
        anvil_buf_clean_up(&why);
        return rc;
    }
    if (rc != ANVIL_OK) {
        body = anvil_json_make_null();
    }
    struct anvil__values values;
    anvil__values_init(&values, ctx->allocator, arena);
    if (success) {
        rc = output ? s_read_members(output, res, &body, &values, &reply->output, &why) : ANVIL_OK;
        if (rc == ANVIL_ESYNTAX) {
            rc = anvil__reply_unreadable(arena, &why, res->status, reply);
        }
    } else {
        rc = ANVIL_OK;
        const struct anvil_shape *shape = anvil__json_error(ctx, op, res, &body, arena, reply, &rc);
        if (rc == ANVIL_OK && shape && error_data) {
            anvil_buf_clear(&why);
            if (s_read_members(shape, res, &body, &values, error_data, &why) == ANVIL_ENOMEM) {
                rc = ANVIL_ENOMEM;
            }
        }
        rc = rc == ANVIL_OK ? ANVIL_ESERVICE : rc;
    }
    anvil__values_clean_up(&values);
    anvil_buf_clean_up(&why);
    return rc;
}

const struct anvil__protocol anvil__rest_json_1 = {"restJson1", ANVIL_PROTOCOL_REST_JSON_1, s_serialize, s_parse};
