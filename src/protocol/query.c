/*
 * awsQuery (CloudFormation, RDS, SNS, IAM, STS, ...) and ec2Query (EC2):
 * every call is `POST /` with a form body `Action={operation}&Version=
 * {service version}` and the input flattened into dotted keys; the answer
 * is XML: `<{Op}Response><{Op}Result>...` for awsQuery, `<{Op}Response>...`
 * for ec2Query; errors `<ErrorResponse><Error>` and
 * `<Response><Errors><Error>`. The two differ in how keys are named and
 * how lists are written (research/protocols.md §4.2-4.5).
 */

#include <stdio.h>
#include <string.h>

#include "protocol/protocol_internal.h"

struct s_form {
    bool ec2;
    struct anvil_buf *body;
    struct anvil_buf key;
    struct anvil_buf text;
    struct anvil_diag *diag;
    size_t depth;
};

static int s_pair(struct s_form *f, struct anvil_str_view value) {
    int rc = anvil_buf_append_byte(f->body, '&');
    rc = rc == ANVIL_OK ? anvil__percent_encode(f->body, anvil_buf_view(&f->key), false) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(f->body, '=') : rc;
    return rc == ANVIL_OK ? anvil__percent_encode(f->body, value, false) : rc;
}

static int s_fail(struct s_form *f, const char *what) {
    return anvil_diag_set(f->diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: %s", (int)f->key.len, f->key.data ? f->key.data : "",
                          what);
}

/*
 * A member's key segment. awsQuery: its @xmlName, else its name. ec2Query:
 * its @ec2QueryName as given, else its @xmlName or its name with the first
 * letter upper-cased.
 */
static int s_segment(struct s_form *f, const struct anvil_member *m) {
    if (f->ec2) {
        struct anvil_str_view q = anvil__member_trait_string(m, "aws.protocols#ec2QueryName");
        if (q.len) {
            return anvil_buf_append_sv(&f->key, q);
        }
    }
    struct anvil_str_view name = anvil__xml_member_name(m);
    if (!f->ec2 || !name.len) {
        return anvil_buf_append_sv(&f->key, name);
    }
    char first = name.ptr[0] >= 'a' && name.ptr[0] <= 'z' ? (char)(name.ptr[0] - 'a' + 'A') : name.ptr[0];
    int rc = anvil_buf_append_byte(&f->key, first);
    return rc == ANVIL_OK ? anvil_buf_append(&f->key, name.ptr + 1, name.len - 1) : rc;
}

static int s_value(struct s_form *f, const struct anvil_member *m, const struct anvil_json *v);

/* Appends ".segment" to the key: a name, or (index > 0) a 1-based index. */
static int s_key_push(struct s_form *f, size_t index, struct anvil_str_view s) {
    if (f->key.len) {
        int rc = anvil_buf_append_byte(&f->key, '.');
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return index ? anvil_buf_appendf(&f->key, "%zu", index) : anvil_buf_append_sv(&f->key, s);
}

static int s_members(struct s_form *f, const struct anvil_shape *shape, const struct anvil_json *v) {
    if (!anvil_json_is_object(v)) {
        return s_fail(f, "expected an object");
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        struct anvil_str_view name = anvil_json_member_key(jm);
        const struct anvil_member *m = anvil_shape_member_sv(shape, name);
        if (!m) {
            struct anvil_str_view sn = anvil_shape_name(shape);
            size_t len = f->key.len;
            s_key_push(f, 0, name);
            rc = anvil_diag_set(f->diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: %.*s has no member `%.*s`", (int)f->key.len,
                                f->key.data, (int)sn.len, sn.ptr, (int)name.len, name.ptr);
            anvil_buf_truncate(&f->key, len);
            return rc;
        }
        if (anvil_json_is_null(&jm->value)) {
            continue;
        }
        size_t len = f->key.len;
        rc = f->key.len ? anvil_buf_append_byte(&f->key, '.') : ANVIL_OK;
        rc = rc == ANVIL_OK ? s_segment(f, m) : rc;
        rc = rc == ANVIL_OK ? s_value(f, m, &jm->value) : rc;
        anvil_buf_truncate(&f->key, len);
    }
    return rc;
}

static int s_list(struct s_form *f, const struct anvil_member *m, const struct anvil_json *v) {
    if (!anvil_json_is_array(v)) {
        return s_fail(f, "expected an array");
    }
    if (anvil_json_len(v) == 0) {
        /* awsQuery says "this list is empty" with an empty value; ec2Query sends nothing. */
        return f->ec2 ? ANVIL_OK : s_pair(f, anvil_sv("", 0));
    }
    const struct anvil_member *item = anvil_shape_member(m->target, "member");
    bool flat = f->ec2 || anvil__member_trait(m, "smithy.api#xmlFlattened");
    int rc = ANVIL_OK;
    size_t len = f->key.len;
    if (!flat) {
        rc = s_key_push(f, 0, item ? anvil__xml_member_name(item) : ANVIL_SV("member"));
    }
    size_t base = f->key.len;
    for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
        rc = s_key_push(f, i + 1, anvil_sv("", 0));
        rc = rc == ANVIL_OK ? s_value(f, item, anvil_json_array_at(v, i)) : rc;
        anvil_buf_truncate(&f->key, base);
    }
    anvil_buf_truncate(&f->key, len);
    return rc;
}

static int s_map(struct s_form *f, const struct anvil_member *m, const struct anvil_json *v) {
    if (!anvil_json_is_object(v)) {
        return s_fail(f, "expected an object (a map)");
    }
    const struct anvil_member *key = anvil_shape_member(m->target, "key");
    const struct anvil_member *value = anvil_shape_member(m->target, "value");
    bool flat = anvil__member_trait(m, "smithy.api#xmlFlattened") != NULL;
    int rc = ANVIL_OK;
    size_t len = f->key.len;
    if (!flat) {
        rc = s_key_push(f, 0, ANVIL_SV("entry"));
    }
    size_t base = f->key.len;
    for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        rc = s_key_push(f, i + 1, anvil_sv("", 0));
        size_t entry = f->key.len;
        rc = rc == ANVIL_OK ? s_key_push(f, 0, key ? anvil__xml_member_name(key) : ANVIL_SV("key")) : rc;
        rc = rc == ANVIL_OK ? s_pair(f, anvil_json_member_key(jm)) : rc;
        anvil_buf_truncate(&f->key, entry);
        rc = rc == ANVIL_OK ? s_key_push(f, 0, value ? anvil__xml_member_name(value) : ANVIL_SV("value")) : rc;
        rc = rc == ANVIL_OK ? s_value(f, value, &jm->value) : rc;
        anvil_buf_truncate(&f->key, base);
    }
    anvil_buf_truncate(&f->key, len);
    return rc;
}

static int s_value(struct s_form *f, const struct anvil_member *m, const struct anvil_json *v) {
    if (++f->depth > ANVIL__VALUE_MAX_DEPTH) {
        return anvil_diag_set(f->diag, ANVIL_ELIMIT, 0, 0, 0, "the input nests deeper than %d levels",
                              ANVIL__VALUE_MAX_DEPTH);
    }
    enum anvil_shape_type t = m && m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    int rc;
    if (anvil_json_is_null(v)) {
        rc = ANVIL_OK;
    } else if (t == ANVIL_SHAPE_STRUCTURE || t == ANVIL_SHAPE_UNION) {
        rc = s_members(f, m->target, v);
    } else if (t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET) {
        rc = s_list(f, m, v);
    } else if (t == ANVIL_SHAPE_MAP) {
        rc = s_map(f, m, v);
    } else {
        const char *why = "";
        anvil_buf_clear(&f->text);
        rc = anvil__scalar_text(m, v, ANVIL__TS_DATE_TIME, &f->text, &why);
        rc = rc == ANVIL_EINVAL ? s_fail(f, why) : rc;
        rc = rc == ANVIL_OK ? s_pair(f, anvil_buf_view(&f->text)) : rc;
    }
    f->depth--;
    return rc;
}

static int s_serialize(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                       const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag, bool ec2) {
    req->method = "POST";
    struct anvil_str_view name = anvil_shape_name(op);
    struct anvil_str_view version = anvil_service_version(ctx->model, ctx->service);
    int rc = anvil_buf_append_cstr(&req->target, "/");
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&req->body, "Action=") : rc;
    rc = rc == ANVIL_OK ? anvil__percent_encode(&req->body, name, false) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&req->body, "&Version=") : rc;
    rc = rc == ANVIL_OK ? anvil__percent_encode(&req->body, version, false) : rc;
    struct s_form f = {ec2, &req->body, {0}, {0}, diag, 0};
    anvil_buf_init(&f.key, NULL, 0);
    anvil_buf_init(&f.text, NULL, 0);
    const struct anvil_shape *shape = anvil_operation_input(op);
    if (rc == ANVIL_OK && shape && anvil_json_is_object(input)) {
        rc = s_members(&f, shape, input);
    }
    anvil_buf_clean_up(&f.key);
    anvil_buf_clean_up(&f.text);
    if (rc == ANVIL_OK) {
        rc = anvil__request_set_header(req, ANVIL_SV("Content-Type"), ANVIL_SV("application/x-www-form-urlencoded"));
    }
    return rc;
}

static int s_serialize_query(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                             const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    return s_serialize(ctx, op, input, req, diag, false);
}

static int s_serialize_ec2(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                           const struct anvil_json *input, struct anvil__request *req, struct anvil_diag *diag) {
    return s_serialize(ctx, op, input, req, diag, true);
}

/* ---- responses ---- */

/* The child of `node` whose local name is `a` followed by `b`. */
static const struct anvil_xml_node *s_child2(const struct anvil_xml_node *node, struct anvil_str_view a,
                                             const char *b) {
    size_t blen = strlen(b);
    for (const struct anvil_xml_node *c = node ? node->first_child : NULL; c; c = c->next_sibling) {
        if (c->local.len == a.len + blen && memcmp(c->local.ptr, a.ptr, a.len) == 0 &&
            memcmp(c->local.ptr + a.len, b, blen) == 0) {
            return c;
        }
    }
    return NULL;
}

/*
 * awsQuery's result element: `{Op}Result` (or the wrapper a botocore
 * model names); when the body has neither, the output has no members.
 */
static const struct anvil_xml_node *s_result(const struct anvil_shape *op, const struct anvil_xml_node *root) {
    struct anvil_str_view wrapper = anvil_json_string(anvil_shape_trait(op, "anvil.botocore#resultWrapper"));
    if (wrapper.len) {
        return anvil_xml_child(root, wrapper);
    }
    return s_child2(root, anvil_shape_name(op), "Result");
}

static int s_text_of(const struct anvil_xml_node *node, const char *name, struct anvil_str_view *out) {
    const struct anvil_xml_node *c = anvil_xml_child(node, anvil_sv_from_cstr(name));
    *out = c ? c->text : anvil_sv("", 0);
    return ANVIL_OK;
}

/* The `<Error>` element of an error document (awsQuery's ErrorResponse, ec2Query's Response/Errors), or NULL. */
static const struct anvil_xml_node *s_error_node(const struct anvil_xml_node *root) {
    if (!root) {
        return NULL;
    }
    if (anvil_sv_eq_cstr(root->local, "ErrorResponse")) {
        return anvil_xml_child(root, ANVIL_SV("Error"));
    }
    if (anvil_sv_eq_cstr(root->local, "Response")) {
        return anvil_xml_child(anvil_xml_child(root, ANVIL_SV("Errors")), ANVIL_SV("Error"));
    }
    return anvil_sv_eq_cstr(root->local, "Error") ? root : NULL;
}

int anvil__xml_error(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                     const struct anvil__response *res, const struct anvil_xml_node *root, bool query_codes,
                     struct anvil_arena *arena, struct anvil_operation_reply *reply, struct anvil__values *values,
                     struct anvil_json *error_data, struct anvil_buf *why) {
    const struct anvil_xml_node *error = s_error_node(root);
    struct anvil_str_view code, message;
    s_text_of(error, "Code", &code);
    s_text_of(error, "Message", &message);
    if (!message.len) {
        s_text_of(error, "message", &message);
    }
    const struct anvil_xml_node *request_id = anvil_xml_child(root, ANVIL_SV("RequestId"));
    request_id = request_id ? request_id : anvil_xml_child(root, ANVIL_SV("RequestID"));
    request_id = request_id ? request_id : anvil_xml_child(error, ANVIL_SV("RequestId"));
    int rc = anvil__reply_error(arena, code, message, res->status, reply);
    if (rc == ANVIL_OK && request_id && request_id->text.len) {
        rc = anvil__text_keep(arena, request_id->text, 256, &reply->request_id);
    }
    const struct anvil_shape *shape = code.len ? anvil__error_shape(ctx, op, code, query_codes) : NULL;
    if (rc == ANVIL_OK && shape && error_data) {
        size_t base = values->member_count;
        rc = error ? anvil__xml_decode_members(shape, error, values, why) : ANVIL_OK;
        rc = rc == ANVIL_OK ? anvil__values_fill_defaults(values, shape, base) : rc;
        rc = rc == ANVIL_OK ? anvil__values_object(values, base, error_data) : rc;
        if (rc == ANVIL_ESYNTAX) {
            /* A modelled error whose members do not fit its shape is still that error. */
            values->member_count = base;
            *error_data = anvil_json_make_null();
            rc = ANVIL_OK;
        }
    }
    return rc == ANVIL_OK ? ANVIL_ESERVICE : rc;
}

static int s_parse(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                   const struct anvil__response *res, struct anvil_arena *arena, struct anvil_operation_reply *reply,
                   struct anvil_json *error_data, bool ec2) {
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 1024);
    bool success = res->status >= 200 && res->status < 300;
    const struct anvil_xml_node *root = NULL;
    int rc = res->body_len ? anvil__xml_parse_body(arena, ctx->allocator, res, &root, &why) : ANVIL_OK;
    if (rc == ANVIL_ENOMEM || (rc != ANVIL_OK && success)) {
        rc = rc == ANVIL_ENOMEM ? rc : anvil__reply_unreadable(arena, &why, res->status, reply);
        anvil_buf_clean_up(&why);
        return rc;
    }
    if (rc != ANVIL_OK) {
        root = NULL; /* an error without an XML document: its status speaks */
    }
    struct anvil__values values;
    anvil__values_init(&values, ctx->allocator, arena);
    const struct anvil_shape *output = anvil_operation_output(op);
    if (success) {
        const struct anvil_xml_node *node = ec2 ? root : s_result(op, root);
        size_t base = values.member_count;
        rc = node && output ? anvil__xml_decode_members(output, node, &values, &why) : ANVIL_OK;
        rc = rc == ANVIL_OK && output ? anvil__values_fill_defaults(&values, output, base) : rc;
        rc = rc == ANVIL_OK ? anvil__values_object(&values, base, &reply->output) : rc;
        if (rc == ANVIL_ESYNTAX) {
            rc = anvil__reply_unreadable(arena, &why, res->status, reply);
        }
        if (rc == ANVIL_OK) {
            const struct anvil_xml_node *metadata = anvil_xml_child(root, ANVIL_SV("ResponseMetadata"));
            const struct anvil_xml_node *id =
                anvil_xml_child(metadata ? metadata : root, ec2 ? ANVIL_SV("requestId") : ANVIL_SV("RequestId"));
            if (id && id->text.len) {
                rc = anvil__text_keep(arena, id->text, 256, &reply->request_id);
            }
        }
    } else {
        rc = anvil__xml_error(ctx, op, res, root, true, arena, reply, &values, error_data, &why);
    }
    anvil__values_clean_up(&values);
    anvil_buf_clean_up(&why);
    return rc;
}

static int s_parse_query(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                         const struct anvil__response *res, struct anvil_arena *arena,
                         struct anvil_operation_reply *reply, struct anvil_json *error_data) {
    return s_parse(ctx, op, res, arena, reply, error_data, false);
}

static int s_parse_ec2(const struct anvil__protocol_context *ctx, const struct anvil_shape *op,
                       const struct anvil__response *res, struct anvil_arena *arena,
                       struct anvil_operation_reply *reply, struct anvil_json *error_data) {
    return s_parse(ctx, op, res, arena, reply, error_data, true);
}

const struct anvil__protocol anvil__aws_query = {"awsQuery", ANVIL_PROTOCOL_AWS_QUERY, s_serialize_query,
                                                 s_parse_query};
const struct anvil__protocol anvil__ec2_query = {"ec2Query", ANVIL_PROTOCOL_EC2_QUERY, s_serialize_ec2, s_parse_ec2};
