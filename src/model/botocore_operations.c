/*
 * botocore operations as Smithy operations: input, output, errors, and the
 * traits botocore keys of the same meaning become (docs/model.md has the
 * table). REST operations get @http, with URI labels renamed from botocore's
 * locationName to the member's name, as Smithy binds labels by member.
 */

#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/botocore_internal.h"
#include "model/model_internal.h"

/* The request URI with labels renamed from botocore's locationName to the member's name, as Smithy binds them. */
static struct anvil_str_view s_uri(struct anvil__boto *x, struct anvil_str_view uri, const struct anvil_json *input) {
    const struct anvil_json *members = anvil_json_object_get_cstr(input, "members");
    struct anvil__boto_map labels = {0};
    for (size_t i = 0; i < anvil_json_len(members) && anvil_json_is_object(members); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(members, i);
        const struct anvil_json *name = anvil_json_object_get_cstr(&m->value, "locationName");
        if (anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(&m->value, "location")), "uri") &&
            anvil_json_is_string(name) && !anvil_sv_eq(anvil_json_string(name), anvil_json_member_key(m)) &&
            anvil__boto_map_put(x->cv->allocator, &labels, anvil_json_string(name), anvil_json_member_key(m)) !=
                ANVIL_OK) {
            x->rc = ANVIL_ENOMEM;
        }
    }
    if (labels.count == 0) {
        anvil__boto_map_clean_up(x->cv->allocator, &labels);
        return uri;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, x->cv->allocator, 0);
    int rc = ANVIL_OK;
    for (size_t i = 0; i < uri.len && rc == ANVIL_OK;) {
        size_t open = anvil_sv_find_byte(uri, i, '{');
        size_t close = open == SIZE_MAX ? SIZE_MAX : anvil_sv_find_byte(uri, open, '}');
        if (close == SIZE_MAX) {
            rc = anvil_buf_append(&out, uri.ptr + i, uri.len - i);
            break;
        }
        struct anvil_str_view label = anvil_sv(uri.ptr + open + 1, close - open - 1);
        bool greedy = label.len && label.ptr[label.len - 1] == '+';
        const struct anvil_str_view *member = anvil__boto_map_get(&labels, anvil_sv(label.ptr, label.len - greedy));
        rc = anvil_buf_append(&out, uri.ptr + i, open + 1 - i);
        rc = rc == ANVIL_OK ? anvil_buf_append(&out, member ? member->ptr : label.ptr, member ? member->len : label.len)
                            : rc;
        rc = rc == ANVIL_OK && member && greedy ? anvil_buf_append_byte(&out, '+') : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(&out, '}') : rc;
        i = close + 1;
    }
    char *copy = rc == ANVIL_OK ? anvil_arena_alloc(x->scratch, out.len + 1, 1) : NULL;
    if (copy) {
        memcpy(copy, out.data ? out.data : "", out.len);
    } else {
        x->rc = ANVIL_ENOMEM;
    }
    struct anvil_str_view result = copy ? anvil_sv(copy, out.len) : uri;
    anvil_buf_clean_up(&out);
    anvil__boto_map_clean_up(x->cv->allocator, &labels);
    return result;
}

static void s_http(struct anvil__boto *x, struct anvil__boto_traits *t, struct anvil_str_view name,
                   const struct anvil_json *op) {
    const struct anvil_json *http = anvil_json_object_get_cstr(op, "http");
    struct anvil_str_view method, uri;
    const struct anvil_json *code = anvil_json_object_get_cstr(http, "responseCode");
    if (!anvil_json_is_object(http) || !anvil__boto_string(x, http, "method", name, anvil_sv("", 0), &method) ||
        !anvil__boto_string(x, http, "requestUri", name, anvil_sv("", 0), &uri)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore operation `%.*s` needs `http` with a `method` and a `requestUri`",
                          (int)anvil__boto_cut(name).len, anvil__boto_cut(name).ptr);
        return;
    }
    if (code && (!anvil_json_is_int(code) || anvil_json_int(code) < 100 || anvil_json_int(code) > 999)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore operation `%.*s`: `responseCode` must be an HTTP status code",
                          (int)anvil__boto_cut(name).len, anvil__boto_cut(name).ptr);
        code = NULL;
    }
    const struct anvil_json *input = anvil_json_object_get_cstr(op, "input");
    const struct anvil_json *shape = anvil_json_object_get_cstr(input, "shape");
    size_t index = anvil_json_is_string(shape) ? anvil__boto_index(x, anvil_json_string(shape)) : SIZE_MAX;
    if (index != SIZE_MAX) {
        uri = s_uri(x, uri, &anvil_json_object_at(x->shapes, index)->value);
    }
    anvil__boto_trait(x, t, "smithy.api#http");
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "method");
    anvil__boto_str(x, method);
    anvil__boto_key(x, "uri");
    anvil__boto_str(x, uri);
    if (code) {
        anvil__boto_key(x, "code");
        anvil_json_builder_int(x->b, anvil_json_int(code));
    }
    anvil_json_builder_end_object(x->b);
}

/* `input`/`output`: {"shape": NAME} as {"target": ID}. */
static void s_io(struct anvil__boto *x, struct anvil_str_view op, const struct anvil_json *def, const char *key) {
    const struct anvil_json *ref = anvil_json_object_get_cstr(def, key);
    const struct anvil_json *shape = anvil_json_object_get_cstr(ref, "shape");
    if (!ref) {
        return;
    }
    if (!anvil_json_is_string(shape)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore operation `%.*s`: `%s` must be an object with a string `shape`",
                          (int)anvil__boto_cut(op).len, anvil__boto_cut(op).ptr, key);
        return;
    }
    anvil__boto_key(x, key);
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "target");
    anvil__boto_id(x, anvil__boto_name(x, anvil_json_string(shape)));
    anvil_json_builder_end_object(x->b);
}

static void s_errors(struct anvil__boto *x, struct anvil_str_view op, const struct anvil_json *def) {
    const struct anvil_json *errors = anvil_json_object_get_cstr(def, "errors");
    if (!errors) {
        return;
    }
    if (!anvil_json_is_array(errors)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore operation `%.*s`: `errors` must be an array; found %s",
                          (int)anvil__boto_cut(op).len, anvil__boto_cut(op).ptr, anvil__boto_kind(errors));
        return;
    }
    anvil__boto_key(x, "errors");
    anvil_json_builder_begin_array(x->b);
    for (size_t i = 0; i < anvil_json_len(errors); i++) {
        const struct anvil_json *shape = anvil_json_object_get_cstr(anvil_json_array_at(errors, i), "shape");
        if (!anvil_json_is_string(shape)) {
            anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                              "botocore operation `%.*s`: error %zu must be an object with a string `shape`",
                              (int)anvil__boto_cut(op).len, anvil__boto_cut(op).ptr, i + 1);
            continue;
        }
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "target");
        anvil__boto_id(x, anvil__boto_name(x, anvil_json_string(shape)));
        anvil_json_builder_end_object(x->b);
    }
    anvil_json_builder_end_array(x->b);
}

/* Operation traits from botocore keys of the same meaning. */
static void s_operation_traits(struct anvil__boto *x, struct anvil__boto_traits *t, struct anvil_str_view name,
                               const struct anvil_json *op) {
    const struct anvil_str_view none = anvil_sv("", 0);
    struct anvil_str_view text;
    if (x->protocols & ANVIL__BOTO_REST) {
        s_http(x, t, name, op);
    }
    if (anvil__boto_flag(x, op, "idempotent", name, none)) {
        anvil__boto_trait_empty(x, t, "smithy.api#idempotent");
    }
    if (anvil__boto_flag(x, op, "readonly", name, none)) {
        anvil__boto_trait_empty(x, t, "smithy.api#readonly");
    }
    anvil__boto_deprecated(x, t, op, name, none);
    const struct anvil_json *endpoint = anvil_json_object_get_cstr(op, "endpoint");
    if (anvil__boto_string(x, endpoint, "hostPrefix", name, none, &text)) {
        anvil__boto_trait(x, t, "smithy.api#endpoint");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "hostPrefix");
        anvil__boto_str(x, text);
        anvil_json_builder_end_object(x->b);
    }
    if (anvil__boto_flag(x, op, "httpChecksumRequired", name, none)) {
        anvil__boto_trait_empty(x, t, "smithy.api#httpChecksumRequired");
    }
    static const char *const copied[][2] = {
        {"httpChecksum", "aws.protocols#httpChecksum"},
        {"staticContextParams", "smithy.rules#staticContextParams"},
        {"operationContextParams", "smithy.rules#operationContextParams"},
    };
    for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]); i++) {
        const struct anvil_json *v = anvil_json_object_get_cstr(op, copied[i][0]);
        if (anvil_json_is_object(v)) {
            anvil__boto_trait(x, t, copied[i][1]);
            anvil__boto_copy(x, v);
        }
    }
    const struct anvil_json *compression = anvil_json_object_get_cstr(op, "requestcompression");
    const struct anvil_json *encodings = anvil_json_object_get_cstr(compression, "encodings");
    if (compression && !anvil_json_is_array(encodings)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, none, none,
                          "botocore operation `%.*s`: `requestcompression` needs an `encodings` array",
                          (int)anvil__boto_cut(name).len, anvil__boto_cut(name).ptr);
    } else if (compression) {
        anvil__boto_trait(x, t, "smithy.api#requestCompression");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "encodings");
        anvil__boto_copy(x, encodings);
        anvil_json_builder_end_object(x->b);
    }
    const struct anvil_json *discovered = anvil_json_object_get_cstr(op, "endpointdiscovery");
    if (anvil_json_is_object(discovered)) {
        anvil__boto_trait(x, t, "aws.api#clientDiscoveredEndpoint");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "required");
        anvil_json_builder_bool(x->b, anvil_json_bool(anvil_json_object_get_cstr(discovered, "required")));
        anvil_json_builder_end_object(x->b);
    }
    /* Unsigned operations: botocore's authtype "none" (older models), or an `auth` list (newer ones). */
    const struct anvil_json *auth = anvil_json_object_get_cstr(op, "auth");
    anvil__boto_string(x, op, "authtype", name, none, &text);
    if (anvil_json_is_array(auth)) {
        anvil__boto_trait(x, t, "smithy.api#auth");
        anvil_json_builder_begin_array(x->b);
        for (size_t i = 0; i < anvil_json_len(auth); i++) {
            struct anvil_str_view scheme = anvil_json_string(anvil_json_array_at(auth, i));
            if (scheme.len && !anvil_sv_eq_cstr(scheme, "smithy.api#noAuth")) {
                anvil__boto_str(x, scheme);
            }
        }
        anvil_json_builder_end_array(x->b);
    } else if (anvil_sv_eq_cstr(text, "none")) {
        anvil__boto_trait(x, t, "smithy.api#auth");
        anvil_json_builder_begin_array(x->b);
        anvil_json_builder_end_array(x->b);
    }
    if (anvil_sv_eq_cstr(text, "v4-unsigned-body") || anvil__boto_flag(x, op, "unsignedPayload", name, none)) {
        anvil__boto_trait_empty(x, t, "aws.auth#unsignedPayload");
    }
    /* Smithy's awsQuery reads a response from {Operation}Result; botocore from `resultWrapper`, or the root. */
    const struct anvil_json *output = anvil_json_object_get_cstr(op, "output");
    if ((x->protocols & ANVIL__BOTO_QUERY) && anvil_json_is_object(output)) {
        struct anvil_str_view wrapper;
        bool has = anvil__boto_string(x, output, "resultWrapper", name, none, &wrapper);
        if (!has || wrapper.len != name.len + 6 || memcmp(wrapper.ptr, name.ptr, name.len) != 0 ||
            memcmp(wrapper.ptr + name.len, "Result", 6) != 0) {
            anvil__boto_trait_str(x, t, "anvil.botocore#resultWrapper", wrapper);
        }
    }
}

void anvil__boto_emit_operation(struct anvil__boto *x, struct anvil_str_view name, const struct anvil_json *op) {
    x->in_operation = true; /* events name the operation, whatever shape shares its name */
    if (!anvil__identifier_valid(name) || !anvil_json_is_object(op)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          anvil_json_is_object(op) ? "botocore operation `%.*s` cannot be a Smithy operation: its "
                                                     "name is not an identifier"
                                                   : "botocore operation `%.*s` must be an object",
                          (int)anvil__boto_cut(name).len, anvil__boto_cut(name).ptr);
        return;
    }
    anvil_buf_truncate(&x->id, x->ns_len);
    if (anvil_buf_append(&x->id, name.ptr, name.len) != ANVIL_OK) {
        x->rc = ANVIL_ENOMEM;
    }
    anvil_json_builder_key(x->b, x->id.data, x->id.len);
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "type");
    anvil__boto_str(x, ANVIL_SV("operation"));
    s_io(x, name, op, "input");
    s_io(x, name, op, "output");
    s_errors(x, name, op);
    struct anvil__boto_traits t = {false};
    s_operation_traits(x, &t, name, op);
    anvil__boto_traits_end(x, &t);
    anvil_json_builder_end_object(x->b);
}
