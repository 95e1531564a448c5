/*
 * botocore shapes as Smithy shapes. A botocore member reference is merged
 * over its target's definition (model.py ShapeResolver.resolve_shape_ref), so
 * what Smithy keeps on members (locationName, flattened, idempotencyToken,
 * hostLabel, xmlAttribute) is read from the reference and then from the
 * target; what Smithy keeps on shapes (streaming, jsonvalue) was settled in
 * botocore_model.c (s_plan_copies). docs/model.md has the whole mapping.
 */

#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/botocore_internal.h"

static const struct anvil_str_view s_none = {"", 0};

/* The definition of the shape a reference names (NULL when there is none). */
static const struct anvil_json *s_target_def(const struct anvil__boto *x, const struct anvil_json *ref, size_t *index) {
    const struct anvil_json *shape = anvil_json_object_get_cstr(ref, "shape");
    *index = anvil_json_is_string(shape) ? anvil__boto_index(x, anvil_json_string(shape)) : SIZE_MAX;
    return *index == SIZE_MAX ? NULL : &anvil_json_object_at(x->shapes, *index)->value;
}

/* `key` of the reference, else of its target's definition (botocore merges the two). */
static const struct anvil_json *s_merged(const struct anvil_json *ref, const struct anvil_json *def, const char *key) {
    const struct anvil_json *v = anvil_json_object_get_cstr(ref, key);
    return v ? v : anvil_json_object_get_cstr(def, key);
}

static struct anvil_str_view s_type(const struct anvil_json *def) {
    return anvil_json_string(anvil_json_object_get_cstr(def, "type"));
}

/* ---- what references say of their targets ---- */

static void s_scan(struct anvil__boto *x, const struct anvil_json *ref) {
    size_t index;
    if (!s_target_def(x, ref, &index)) {
        return;
    }
    struct anvil__boto_shape *info = &x->info[index];
    info->refs |= anvil_json_bool(anvil_json_object_get_cstr(ref, "streaming")) ? ANVIL__BOTO_REF_STREAMING
                                                                                : ANVIL__BOTO_REF_NOT_STREAMING;
    info->refs |= anvil_json_bool(anvil_json_object_get_cstr(ref, "jsonvalue")) ? ANVIL__BOTO_REF_JSON_VALUE
                                                                                : ANVIL__BOTO_REF_NOT_JSON_VALUE;
}

void anvil__boto_scan_references(struct anvil__boto *x) {
    for (size_t i = 0; i < x->count; i++) {
        const struct anvil_json *def = &anvil_json_object_at(x->shapes, i)->value;
        const struct anvil_json *members = anvil_json_object_get_cstr(def, "members");
        for (size_t k = 0; anvil_json_is_object(members) && k < anvil_json_len(members); k++) {
            s_scan(x, &anvil_json_object_at(members, k)->value);
        }
        s_scan(x, anvil_json_object_get_cstr(def, "member"));
        s_scan(x, anvil_json_object_get_cstr(def, "key"));
        s_scan(x, anvil_json_object_get_cstr(def, "value"));
    }
}

/* ---- members ---- */

enum s_kind { S_STRUCTURE, S_UNION, S_ELEMENT /* a list's member, a map's key or value */ };

/* The Smithy name of the shape a reference targets: a copy with @streaming or @mediaType when it asks. */
static struct anvil_str_view s_target_name(const struct anvil__boto *x, const struct anvil_json *ref) {
    size_t index;
    struct anvil_str_view shape = anvil_json_string(anvil_json_object_get_cstr(ref, "shape"));
    if (!s_target_def(x, ref, &index)) {
        return shape;
    }
    const struct anvil__boto_shape *info = &x->info[index];
    if (info->streaming.len && anvil_json_bool(anvil_json_object_get_cstr(ref, "streaming"))) {
        return info->streaming;
    }
    if (info->json_value.len && anvil_json_bool(anvil_json_object_get_cstr(ref, "jsonvalue"))) {
        return info->json_value;
    }
    return info->name;
}

/* `s` with its first letter upper-cased (a copy in the scratch arena when that changes it). */
static struct anvil_str_view s_upper_first(struct anvil__boto *x, struct anvil_str_view s) {
    if (!s.len || s.ptr[0] < 'a' || s.ptr[0] > 'z') {
        return s;
    }
    char *copy = anvil_arena_alloc(x->scratch, s.len, 1);
    if (!copy) {
        x->rc = ANVIL_ENOMEM;
        return s;
    }
    memcpy(copy, s.ptr, s.len);
    copy[0] = (char)(copy[0] - 'a' + 'A');
    return anvil_sv(copy, s.len);
}

/*
 * The name a member's element has in XML: botocore's parser (parsers.py _member_key_name) names a flattened
 * list's elements by the list member's locationName, whatever the structure member says; Smithy names them by
 * the structure member, so the list member's name moves there.
 */
static struct anvil_str_view s_xml_name(const struct anvil__boto *x, const struct anvil_json *ref,
                                        const struct anvil_json *def, struct anvil_str_view location_name) {
    if (anvil_json_bool(s_merged(ref, def, "flattened")) && anvil_sv_eq_cstr(s_type(def), "list")) {
        size_t index;
        const struct anvil_json *element = anvil_json_object_get_cstr(def, "member");
        const struct anvil_json *name = s_merged(element, s_target_def(x, element, &index), "locationName");
        if (anvil_json_is_string(name)) {
            return anvil_json_string(name);
        }
    }
    return location_name;
}

/* The HTTP binding of a member with a botocore `location`. */
static void s_location(struct anvil__boto *x, struct anvil__boto_traits *t, struct anvil_str_view owner,
                       struct anvil_str_view name, struct anvil_str_view location, struct anvil_str_view wire,
                       const struct anvil_json *def) {
    if (anvil_sv_eq_cstr(location, "uri")) {
        anvil__boto_trait_empty(x, t, "smithy.api#httpLabel"); /* the URI names it by the member (s_uri) */
    } else if (anvil_sv_eq_cstr(location, "querystring")) {
        if (anvil_sv_eq_cstr(s_type(def), "map")) {
            anvil__boto_trait_empty(x, t, "smithy.api#httpQueryParams");
        } else {
            anvil__boto_trait_str(x, t, "smithy.api#httpQuery", wire);
        }
    } else if (anvil_sv_eq_cstr(location, "header")) {
        anvil__boto_trait_str(x, t, "smithy.api#httpHeader", wire);
    } else if (anvil_sv_eq_cstr(location, "headers")) {
        anvil__boto_trait_str(x, t, "smithy.api#httpPrefixHeaders", wire);
    } else if (anvil_sv_eq_cstr(location, "statusCode")) {
        anvil__boto_trait_empty(x, t, "smithy.api#httpResponseCode");
    } else {
        struct anvil_str_view cut = anvil_sv(location.ptr, location.len < 100 ? location.len : 100);
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, name,
                          "botocore `location` `%.*s` is not one botocore knows (uri, querystring, header, headers, "
                          "statusCode)",
                          (int)cut.len, cut.ptr);
    }
}

/* The names a body member has on the wire: jsonName, xmlName, ec2QueryName as the service's protocols need. */
static void s_wire_names(struct anvil__boto *x, struct anvil__boto_traits *t, struct anvil_str_view owner,
                         struct anvil_str_view name, const struct anvil_json *ref, const struct anvil_json *def,
                         bool has_name, struct anvil_str_view location_name) {
    if ((x->protocols & ANVIL__BOTO_JSON) && has_name && !anvil_sv_eq(location_name, name)) {
        anvil__boto_trait_str(x, t, "smithy.api#jsonName", location_name);
    }
    struct anvil_str_view xml = s_xml_name(x, ref, def, has_name ? location_name : s_none);
    if ((x->protocols & ANVIL__BOTO_XML) && xml.len && !anvil_sv_eq(xml, name)) {
        anvil__boto_trait_str(x, t, "smithy.api#xmlName", xml);
    }
    if (x->protocols & ANVIL__BOTO_EC2) {
        /* botocore's EC2 serializer names a member by queryName, else by locationName with its first letter
         * upper-cased, else by its own name as it is; Smithy's by ec2QueryName, else by xmlName or its own name
         * with the first letter upper-cased. Said when the two differ. */
        struct anvil_str_view query;
        if (anvil__boto_string(x, ref, "queryName", owner, name, &query)) {
            anvil__boto_trait_str(x, t, "aws.protocols#ec2QueryName", query);
            return;
        }
        struct anvil_str_view botocore = has_name ? s_upper_first(x, location_name) : name;
        if (!anvil_sv_eq(botocore, s_upper_first(x, xml.len ? xml : name))) {
            anvil__boto_trait_str(x, t, "aws.protocols#ec2QueryName", botocore);
        }
    }
}

static void s_member(struct anvil__boto *x, struct anvil_str_view owner, struct anvil_str_view name,
                     const struct anvil_json *ref, enum s_kind kind, bool required, bool payload) {
    const struct anvil_json *shape = anvil_json_object_get_cstr(ref, "shape");
    if (!anvil_json_is_object(ref) || !anvil_json_is_string(shape)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, name,
                          "a botocore member must be an object with a string `shape`; found %s",
                          anvil_json_is_object(ref) ? "no `shape` string" : anvil__boto_kind(ref));
        return;
    }
    size_t index;
    const struct anvil_json *def = s_target_def(x, ref, &index);
    anvil_json_builder_key(x->b, name.ptr, name.len);
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "target");
    anvil__boto_id(x, s_target_name(x, ref));
    struct anvil__boto_traits t = {false};
    if (required) {
        anvil__boto_trait_empty(x, &t, "smithy.api#required");
    }
    struct anvil_str_view location, location_name;
    bool has_location = anvil__boto_string(x, ref, "location", owner, name, &location);
    bool has_name = anvil__boto_string(x, ref, "locationName", owner, name, &location_name);
    if (!has_name && anvil_json_is_string(anvil_json_object_get_cstr(def, "locationName"))) {
        has_name = true;
        location_name = anvil_json_string(anvil_json_object_get_cstr(def, "locationName"));
    }
    if (kind == S_ELEMENT) {
        if ((x->protocols & ANVIL__BOTO_XML) && has_name && location_name.len) {
            anvil__boto_trait_str(x, &t, "smithy.api#xmlName", location_name);
        }
    } else if (has_location) {
        s_location(x, &t, owner, name, location, has_name ? location_name : name, def);
    } else {
        if (payload) {
            anvil__boto_trait_empty(x, &t, "smithy.api#httpPayload");
        }
        s_wire_names(x, &t, owner, name, ref, def, has_name, location_name);
    }
    if (kind != S_ELEMENT) {
        static const char *const flags[][2] = {
            {"flattened", "smithy.api#xmlFlattened"},
            {"xmlAttribute", "smithy.api#xmlAttribute"},
            {"idempotencyToken", "smithy.api#idempotencyToken"},
            {"hostLabel", "smithy.api#hostLabel"},
            {"eventpayload", "smithy.api#eventPayload"},
            {"eventheader", "smithy.api#eventHeader"},
        };
        for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
            const struct anvil_json *v = s_merged(ref, def, flags[i][0]);
            if (v && !anvil_json_is_bool(v)) {
                anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, name, "botocore `%s` must be true or false; found %s",
                                  flags[i][0], anvil__boto_kind(v));
            } else if (anvil_json_bool(v)) {
                anvil__boto_trait_empty(x, &t, flags[i][1]);
            }
        }
        const struct anvil_json *context = anvil_json_object_get_cstr(ref, "contextParam");
        struct anvil_str_view param;
        if (context && anvil__boto_string(x, context, "name", owner, name, &param)) {
            anvil__boto_trait(x, &t, "smithy.rules#contextParam");
            anvil_json_builder_begin_object(x->b);
            anvil__boto_key(x, "name");
            anvil__boto_str(x, param);
            anvil_json_builder_end_object(x->b);
        }
        anvil__boto_deprecated(x, &t, ref, owner, name);
    }
    anvil__boto_timestamp_format(x, &t, ref, owner, name);
    anvil__boto_xml_namespace(x, &t, ref, owner, name);
    anvil__boto_traits_end(x, &t);
    anvil_json_builder_end_object(x->b);
}

/* Members of a structure or union, `required` and `payload` applied. */
static void s_members(struct anvil__boto *x, struct anvil_str_view owner, const struct anvil_json *def,
                      enum s_kind kind) {
    const struct anvil_json *members = anvil_json_object_get_cstr(def, "members");
    const struct anvil_json *required = anvil_json_object_get_cstr(def, "required");
    struct anvil_str_view payload;
    bool has_payload = anvil__boto_string(x, def, "payload", owner, s_none, &payload);
    if (members && !anvil_json_is_object(members)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "botocore `members` must be an object; found %s",
                          anvil__boto_kind(members));
        members = NULL;
    }
    if (required && !anvil_json_is_array(required)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "botocore `required` must be an array; found %s",
                          anvil__boto_kind(required));
        required = NULL;
    }
    if (has_payload && !anvil_json_object_get(members, payload.ptr, payload.len)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none,
                          "botocore `payload` names `%.*s`, which is not a member",
                          (int)(payload.len < 100 ? payload.len : 100), payload.ptr);
    }
    size_t count = anvil_json_len(members);
    /* Which members are required: marked by place, so a long `required` list costs one lookup a name. */
    bool *marks = NULL;
    if (count && anvil_json_len(required) && kind == S_STRUCTURE) {
        marks = anvil_mem_acquire(x->cv->allocator, count);
        if (!marks) {
            x->rc = ANVIL_ENOMEM;
            return;
        }
        memset(marks, 0, count);
    }
    for (size_t i = 0; i < anvil_json_len(required); i++) {
        const struct anvil_json *r = anvil_json_array_at(required, i);
        const struct anvil_json *m =
            anvil_json_is_string(r) ? anvil_json_object_get(members, anvil_json_string(r).ptr, anvil_json_string(r).len)
                                    : NULL;
        if (!anvil_json_is_string(r)) {
            anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none,
                              "botocore `required` must list member names; found %s", anvil__boto_kind(r));
        } else if (!m) {
            struct anvil_str_view n = anvil_json_string(r);
            anvil__boto_event(x, ANVIL_SEVERITY_WARNING, owner, s_none,
                              "botocore `required` names `%.*s`, which is not a member",
                              (int)(n.len < 100 ? n.len : 100), n.ptr);
        } else if (marks) {
            const struct anvil_json_member *member =
                (const struct anvil_json_member *)(const void *)((const char *)m -
                                                                 offsetof(struct anvil_json_member, value));
            marks[member - members->u.members] = true;
        }
    }
    anvil__boto_key(x, "members");
    anvil_json_builder_begin_object(x->b);
    for (size_t i = 0; i < count; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(members, i);
        struct anvil_str_view name = anvil_json_member_key(m);
        s_member(x, owner, name, &m->value, kind, marks && marks[i], has_payload && anvil_sv_eq(name, payload));
    }
    anvil_json_builder_end_object(x->b);
    anvil_mem_release(x->cv->allocator, marks);
}

/* A list's `member` or a map's `key` and `value`. */
static void s_element(struct anvil__boto *x, struct anvil_str_view owner, const struct anvil_json *def,
                      const char *key) {
    const struct anvil_json *ref = anvil_json_object_get_cstr(def, key);
    if (!ref) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "a botocore %.*s shape needs a `%s`",
                          (int)s_type(def).len, s_type(def).ptr, key);
        return;
    }
    s_member(x, owner, anvil_sv_from_cstr(key), ref, S_ELEMENT, false, false);
}

/* ---- shapes ---- */

/* botocore's type names and Smithy's. */
static const char *const s_types[][2] = {
    {"structure", "structure"},   {"list", "list"},        {"map", "map"},
    {"string", "string"},         {"integer", "integer"},  {"long", "long"},
    {"float", "float"},           {"double", "double"},    {"boolean", "boolean"},
    {"timestamp", "timestamp"},   {"blob", "blob"},        {"byte", "byte"},
    {"short", "short"},           {"character", "string"}, {"bigdecimal", "bigDecimal"},
    {"biginteger", "bigInteger"},
};

/* An exception's traits: @error, @httpError, @retryable, and the code awsQuery (and query-compatible) use. */
static void s_error_traits(struct anvil__boto *x, struct anvil__boto_traits *t, struct anvil_str_view owner,
                           struct anvil_str_view smithy_name, const struct anvil_json *def) {
    const struct anvil_json *error = anvil_json_object_get_cstr(def, "error");
    const struct anvil_json *status = anvil_json_object_get_cstr(error, "httpStatusCode");
    const struct anvil_json *sender = anvil_json_object_get_cstr(error, "senderFault");
    /* botocore's `fault` marks the service's own faults; a 5xx status is one too, whatever `senderFault` says
     * (the Smithy models call AutoScaling's ResourceContention, 500 with senderFault true, a server error). */
    bool server = anvil__boto_flag(x, def, "fault", owner, s_none) ||
                  (anvil_json_is_bool(sender) && !anvil_json_bool(sender)) ||
                  (anvil_json_is_int(status) && anvil_json_int(status) >= 500);
    if (error && !anvil_json_is_object(error)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "botocore `error` must be an object; found %s",
                          anvil__boto_kind(error));
    }
    anvil__boto_trait_str(x, t, "smithy.api#error", server ? ANVIL_SV("server") : ANVIL_SV("client"));
    if (status && (!anvil_json_is_int(status) || anvil_json_int(status) < 100 || anvil_json_int(status) > 999)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none,
                          "botocore `error.httpStatusCode` must be an HTTP status code; found %s",
                          anvil__boto_kind(status));
        status = NULL;
    }
    if (status) {
        anvil__boto_trait(x, t, "smithy.api#httpError");
        anvil_json_builder_int(x->b, anvil_json_int(status));
    }
    struct anvil_str_view code;
    bool has_code = anvil__boto_string(x, error, "code", owner, s_none, &code);
    /* botocore matches an error by its code, else by its shape's name (model.py error_code). */
    if (!has_code && !anvil_sv_eq(owner, smithy_name)) {
        has_code = true;
        code = owner;
    }
    if (has_code) {
        anvil__boto_trait(x, t, "aws.protocols#awsQueryError");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "code");
        anvil__boto_str(x, code);
        anvil__boto_key(x, "httpResponseCode");
        anvil_json_builder_int(x->b, status ? anvil_json_int(status) : server ? 500 : 400);
        anvil_json_builder_end_object(x->b);
    }
    const struct anvil_json *retryable = anvil_json_object_get_cstr(def, "retryable");
    if (retryable && !anvil_json_is_object(retryable) && !anvil_json_bool(retryable)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none,
                          "botocore `retryable` must be an object (with `throttling`); found %s",
                          anvil__boto_kind(retryable));
    } else if (retryable) {
        anvil__boto_trait(x, t, "smithy.api#retryable");
        anvil_json_builder_begin_object(x->b);
        if (anvil__boto_flag(x, retryable, "throttling", owner, s_none)) {
            anvil__boto_key(x, "throttling");
            anvil_json_builder_bool(x->b, true);
        }
        anvil_json_builder_end_object(x->b);
    }
}

static void s_enum(struct anvil__boto *x, struct anvil__boto_traits *t, struct anvil_str_view owner,
                   const struct anvil_json *values) {
    if (!anvil_json_is_array(values)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "botocore `enum` must be an array; found %s",
                          anvil__boto_kind(values));
        return;
    }
    /* The enum trait, not an enum shape: botocore's values ("t2.micro", "") are seldom identifiers. */
    anvil__boto_trait(x, t, "smithy.api#enum");
    anvil_json_builder_begin_array(x->b);
    for (size_t i = 0; i < anvil_json_len(values); i++) {
        const struct anvil_json *v = anvil_json_array_at(values, i);
        if (!anvil_json_is_string(v)) {
            anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "botocore `enum` must list strings; found %s",
                              anvil__boto_kind(v));
            continue;
        }
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "value");
        anvil__boto_str(x, anvil_json_string(v));
        anvil_json_builder_end_object(x->b);
    }
    anvil_json_builder_end_array(x->b);
}

/* Traits of the shape itself. */
static void s_shape_traits(struct anvil__boto *x, struct anvil_str_view owner, struct anvil_str_view smithy_name,
                           const struct anvil_json *def, struct anvil_str_view type, bool structure, unsigned add) {
    struct anvil__boto_traits t = {false};
    const struct anvil_json *values = anvil_json_object_get_cstr(def, "enum");
    if (values && anvil_sv_eq_cstr(type, "string")) {
        s_enum(x, &t, owner, values);
    }
    if (anvil__boto_flag(x, def, "sensitive", owner, s_none)) {
        anvil__boto_trait_empty(x, &t, "smithy.api#sensitive");
    }
    anvil__boto_deprecated(x, &t, def, owner, s_none);
    anvil__boto_timestamp_format(x, &t, def, owner, s_none);
    bool event_stream = anvil__boto_flag(x, def, "eventstream", owner, s_none);
    if (anvil__boto_flag(x, def, "streaming", owner, s_none) || event_stream || (add & ANVIL__BOTO_ADD_STREAMING)) {
        anvil__boto_trait_empty(x, &t, "smithy.api#streaming");
    }
    if (anvil__boto_flag(x, def, "requiresLength", owner, s_none)) {
        anvil__boto_trait_empty(x, &t, "smithy.api#requiresLength");
    }
    if (anvil__boto_flag(x, def, "jsonvalue", owner, s_none) || (add & ANVIL__BOTO_ADD_JSON_VALUE)) {
        anvil__boto_trait_str(x, &t, "smithy.api#mediaType", ANVIL_SV("application/json"));
    }
    if (anvil__boto_flag(x, def, "sparse", owner, s_none)) {
        anvil__boto_trait_empty(x, &t, "smithy.api#sparse");
    }
    if (structure && anvil__boto_flag(x, def, "exception", owner, s_none)) {
        s_error_traits(x, &t, owner, smithy_name, def);
    }
    if (structure) {
        /* The element a structure is written as when it is a request's root: what an operation's input
         * reference says (merged over the shape, as botocore reads it), else the shape's own locationName. */
        size_t index = anvil__boto_index(x, owner);
        const struct anvil_json *input = index != SIZE_MAX ? x->info[index].input : NULL;
        const struct anvil_json *root = s_merged(input, def, "locationName");
        if ((x->protocols & ANVIL__BOTO_XML) && anvil_json_is_string(root) &&
            !anvil_sv_eq(anvil_json_string(root), smithy_name)) {
            anvil__boto_trait_str(x, &t, "smithy.api#xmlName", anvil_json_string(root));
        }
        anvil__boto_xml_namespace(x, &t, anvil_json_object_get_cstr(input, "xmlNamespace") ? input : def, owner,
                                  s_none);
    } else {
        anvil__boto_xml_namespace(x, &t, def, owner, s_none);
    }
    anvil__boto_traits_end(x, &t);
}

void anvil__boto_emit_shape(struct anvil__boto *x, size_t index, struct anvil_str_view name, unsigned add) {
    const struct anvil_json_member *entry = anvil_json_object_at(x->shapes, index);
    const struct anvil_json *def = &entry->value;
    struct anvil_str_view owner = anvil_json_member_key(entry);
    struct anvil_str_view type;
    if (!anvil_json_is_object(def)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "a botocore shape must be an object; found %s",
                          anvil__boto_kind(def));
        return;
    }
    if (!anvil__boto_string(x, def, "type", owner, s_none, &type)) {
        if (!anvil_json_object_get_cstr(def, "type")) {
            anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "a botocore shape needs a `type`");
        }
        return;
    }
    const char *smithy = NULL;
    for (size_t i = 0; i < sizeof(s_types) / sizeof(s_types[0]) && !smithy; i++) {
        smithy = anvil_sv_eq_cstr(type, s_types[i][0]) ? s_types[i][1] : NULL;
    }
    if (!smithy) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, owner, s_none, "botocore type `%.*s` is not one botocore knows",
                          (int)(type.len < 64 ? type.len : 64), type.ptr);
        return;
    }
    bool structure = anvil_sv_eq_cstr(type, "structure");
    enum s_kind kind = S_STRUCTURE;
    if (structure && anvil__boto_flag(x, def, "document", owner, s_none)) {
        smithy = "document";
        structure = false;
    } else if (structure && (anvil__boto_flag(x, def, "union", owner, s_none) ||
                             anvil__boto_flag(x, def, "eventstream", owner, s_none))) {
        smithy = "union"; /* an event stream is a @streaming union in Smithy */
        kind = S_UNION;
    }
    anvil_buf_truncate(&x->id, x->ns_len);
    if (anvil_buf_append(&x->id, name.ptr, name.len) != ANVIL_OK) {
        x->rc = ANVIL_ENOMEM;
        return;
    }
    anvil_json_builder_key(x->b, x->id.data, x->id.len);
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "type");
    anvil__boto_str(x, anvil_sv_from_cstr(smithy));
    if (structure) {
        s_members(x, owner, def, kind);
    } else if (anvil_sv_eq_cstr(type, "list")) {
        s_element(x, owner, def, "member");
    } else if (anvil_sv_eq_cstr(type, "map")) {
        s_element(x, owner, def, "key");
        s_element(x, owner, def, "value");
    }
    s_shape_traits(x, owner, name, def, type, structure, add);
    anvil_json_builder_end_object(x->b);
}
