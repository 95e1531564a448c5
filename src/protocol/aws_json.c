/*
 * awsJson1_0 and awsJson1_1 (DynamoDB, Kinesis, ...): every call is
 * `POST /` with `X-Amz-Target: {service}.{operation}` and the input as a
 * JSON document; the output is the body; an error names itself in the
 * X-Amzn-Errortype header or the body's `code` or `__type`. The two
 * versions differ only in their Content-Type. What restJson1 shares with
 * them (JSON bodies, error codes) lives here too.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/text.h"
#include "protocol/protocol_internal.h"

/* ---- shared with restJson1 ---- */

int anvil__json_parse_body(struct anvil_arena *arena, const struct anvil__response *res, struct anvil_json *out,
                           struct anvil_buf *why) {
    if (res->body_len == 0) {
        *out = anvil_json_make_null();
        return ANVIL_OK;
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_json_parse_into(arena, NULL, res->body, res->body_len, NULL, out, &diag);
    if (rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT) {
        anvil_buf_appendf(why, "the response body is not JSON (%zu:%zu: %s)", diag.line, diag.column, diag.message);
    }
    return rc;
}

/* A string member of the body, or of nothing. */
static struct anvil_str_view s_body_string(const struct anvil_json *body, const char *name) {
    return anvil_json_string(anvil_json_object_get_cstr(body, name));
}

const struct anvil_shape *anvil__json_error(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                                            const struct anvil__response *res, const struct anvil_json *body,
                                            struct anvil_arena *arena, struct anvil_operation_reply *reply, int *rc) {
    /* X-Amzn-Errortype, then the body's `code`, then `__type` (smithy-rs and botocore agree on this order). */
    const struct anvil_http_header *h = anvil__response_header(res, "x-amzn-errortype");
    struct anvil_str_view code = h ? h->value : anvil_sv("", 0);
    if (!code.len) {
        code = s_body_string(body, "code");
    }
    if (!code.len) {
        code = s_body_string(body, "__type");
    }
    struct anvil_str_view message = s_body_string(body, "message");
    if (!message.len) {
        message = s_body_string(body, "Message");
    }
    if (!message.len) {
        message = s_body_string(body, "errorMessage");
    }
    code = anvil_error_code_normalize(code);
    const struct anvil_shape *shape = anvil__error_shape(ctx, op, code, false);
    /*
     * A service moved off awsQuery (@awsQueryCompatible) still names its
     * errors by their awsQuery codes in x-amzn-query-error ("Code;Fault"):
     * waiters and callers written for the old protocol match those.
     */
    const struct anvil_http_header *query = anvil_shape_trait(ctx->service, "aws.protocols#awsQueryCompatible")
                                                ? anvil__response_header(res, "x-amzn-query-error")
                                                : NULL;
    if (query) {
        size_t semi = anvil_sv_find_byte(query->value, 0, ';');
        struct anvil_str_view qcode = anvil_sv_slice(query->value, 0, semi == SIZE_MAX ? query->value.len : semi);
        if (qcode.len) {
            code = qcode;
            const struct anvil_shape *by_query = anvil__error_shape(ctx, op, code, true);
            shape = by_query ? by_query : shape;
        }
    }
    *rc = anvil__reply_error(arena, code, message, res->status, reply);
    return shape;
}

/* ---- awsJson ---- */

static int s_serialize(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                       const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag,
                       const char *content_type) {
    static const struct anvil__json_codec codec = {false};
    req->method = "POST";
    int rc = anvil_buf_append_cstr(&req->target, "/");
    if (rc == ANVIL_OK) {
        rc = anvil__json_encode(&codec, anvil_operation_input(op), input, NULL, &req->body, diag);
    }
    /* X-Amz-Target names the service by its shape, or by the prefix a botocore model gives (CloudTrail's is dotted). */
    struct anvil_str_view svc = anvil_json_string(anvil_shape_trait(ctx->service, "anvil.botocore#targetPrefix"));
    svc = svc.len ? svc : anvil_shape_name(ctx->service);
    struct anvil_str_view name = anvil_shape_name(op);
    struct anvil_buf target;
    anvil_buf_init(&target, NULL, 0);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(&target, "%.*s.%.*s", (int)svc.len, svc.ptr, (int)name.len, name.ptr);
    }
    if (rc == ANVIL_OK) {
        rc = anvil__request_set_header(req, ANVIL_SV("Content-Type"), anvil_sv_from_cstr(content_type));
    }
    if (rc == ANVIL_OK) {
        rc = anvil__request_set_header(req, ANVIL_SV("X-Amz-Target"), anvil_buf_view(&target));
    }
    if (rc == ANVIL_OK && anvil_shape_trait(ctx->service, "aws.protocols#awsQueryCompatible")) {
        rc = anvil__request_set_header(req, ANVIL_SV("x-amzn-query-mode"), ANVIL_SV("true"));
    }
    anvil_buf_clean_up(&target);
    return rc;
}

static int s_serialize_1_0(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                           const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    return s_serialize(ctx, op, input, req, diag, "application/x-amz-json-1.0");
}

static int s_serialize_1_1(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                           const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    return s_serialize(ctx, op, input, req, diag, "application/x-amz-json-1.1");
}

static int s_parse(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                   const struct anvil__response *res, struct anvil_arena *arena, struct anvil_operation_reply *reply,
                   struct anvil_json *error_data) {
    static const struct anvil__json_codec codec = {false};
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 1024);
    struct anvil_json body;
    int rc = anvil__json_parse_body(arena, res, &body, &why);
    bool success = res->status >= 200 && res->status < 300;
    if (rc == ANVIL_ENOMEM || (rc != ANVIL_OK && success)) {
        rc = rc == ANVIL_ENOMEM ? rc : anvil__reply_unreadable(arena, &why, res->status, reply);
        anvil_buf_clean_up(&why);
        return rc;
    }
    if (rc != ANVIL_OK) {
        body = anvil_json_make_null(); /* an error without a JSON document: its status speaks */
    }
    struct anvil__values values;
    anvil__values_init(&values, ctx->allocator, arena);
    if (success) {
        const struct anvil_shape *output = anvil_operation_output(op);
        static const struct anvil_json empty = {ANVIL_JSON_OBJECT, {0}};
        rc = !output ? ANVIL_OK
                     : anvil__json_decode(&codec, output, anvil_json_is_null(&body) ? &empty : &body, NULL, &values,
                                          &reply->output, &why);
        if (!output) {
            reply->output = anvil_json_make_null();
        }
        if (rc == ANVIL_ESYNTAX) {
            rc = anvil__reply_unreadable(arena, &why, res->status, reply);
        }
    } else {
        const struct anvil_shape *shape = anvil__json_error(ctx, op, res, &body, arena, reply, &rc);
        static const struct anvil_json no_members = {ANVIL_JSON_OBJECT, {0}};
        if (rc == ANVIL_OK && shape && error_data) {
            /* The modelled error's members; a body that does not fit the shape leaves them out. */
            anvil_buf_clear(&why);
            const struct anvil_json *members = anvil_json_is_object(&body) ? &body : &no_members;
            if (anvil__json_decode(&codec, shape, members, NULL, &values, error_data, &why) == ANVIL_ENOMEM) {
                rc = ANVIL_ENOMEM;
            }
        }
        rc = rc == ANVIL_OK ? ANVIL_ESERVICE : rc;
    }
    anvil__values_clean_up(&values);
    anvil_buf_clean_up(&why);
    return rc;
}

const struct anvil__protocol anvil__aws_json_1_0 = {"awsJson1_0", ANVIL_PROTOCOL_AWS_JSON_1_0, s_serialize_1_0,
                                                    s_parse};
const struct anvil__protocol anvil__aws_json_1_1 = {"awsJson1_1", ANVIL_PROTOCOL_AWS_JSON_1_1, s_serialize_1_1,
                                                    s_parse};
