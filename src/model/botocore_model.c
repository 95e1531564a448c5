/*
 * botocore's service-2.json as a Smithy JSON AST: the service, its operations
 * and the names; botocore_shapes.c writes the shapes. The mapping, and why
 * each rule is what it is, is in docs/model.md ("botocore service models");
 * botocore's own reading of these files is botocore/model.py, serialize.py and
 * parsers.py.
 *
 * Nothing here recurses over the model: every shape is visited once, in file
 * order, so a chain of 100,000 references or a shape naming itself costs no
 * stack. Names that clash (an operation and a shape both called `Foo`, which
 * botocore allows and Smithy does not) are settled before anything is written.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/botocore_internal.h"
#include "model/model_internal.h"

/* ---- small helpers shared with botocore_shapes.c ---- */

const char *anvil__boto_kind(const struct anvil_json *v) {
    static const char *const kinds[] = {"null", "boolean", "number", "string", "array", "object"};
    return v ? kinds[anvil_json_type(v)] : "nothing";
}

struct anvil_str_view anvil__boto_cut(struct anvil_str_view s) {
    if (s.len <= ANVIL__BOTO_NAME_MAX) {
        return s;
    }
    size_t n = ANVIL__BOTO_NAME_MAX;
    while (n > 0 && ((unsigned char)s.ptr[n] & 0xC0) == 0x80) {
        n--;
    }
    return anvil_sv(s.ptr, n);
}

void anvil__boto_event(struct anvil__boto *x, enum anvil_severity severity, struct anvil_str_view shape,
                       struct anvil_str_view member, const char *fmt, ...) {
    if (x->events++ >= ANVIL__BOTO_MAX_EVENTS || !x->cv->event) {
        return;
    }
    char message[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    struct anvil_buf id;
    anvil_buf_init(&id, x->cv->allocator, 0);
    int rc = ANVIL_OK;
    if (shape.len) {
        size_t index = anvil__boto_index(x, shape);
        /* A shape's Smithy name may differ from botocore's; an operation keeps its name. */
        struct anvil_str_view name = index != SIZE_MAX && !x->in_operation ? x->info[index].name : shape;
        rc = anvil_buf_append(&id, x->id.data, x->ns_len);
        rc = rc == ANVIL_OK ? anvil_buf_append(&id, anvil__boto_cut(name).ptr, anvil__boto_cut(name).len) : rc;
        if (rc == ANVIL_OK && member.len) {
            rc = anvil_buf_append_byte(&id, '$');
            rc = rc == ANVIL_OK ? anvil_buf_append(&id, anvil__boto_cut(member).ptr, anvil__boto_cut(member).len) : rc;
        }
    }
    if (rc == ANVIL_OK) {
        x->cv->event(x->cv->event_ctx, severity, anvil_buf_view(&id), message);
    } else if (x->rc == ANVIL_OK) {
        x->rc = rc;
    }
    anvil_buf_clean_up(&id);
}

bool anvil__boto_string(struct anvil__boto *x, const struct anvil_json *obj, const char *key,
                        struct anvil_str_view shape, struct anvil_str_view member, struct anvil_str_view *out) {
    const struct anvil_json *v = anvil_json_object_get_cstr(obj, key);
    if (anvil_json_is_string(v)) {
        *out = anvil_json_string(v);
        return true;
    }
    if (v) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, shape, member, "botocore `%s` must be a string; found %s", key,
                          anvil__boto_kind(v));
    }
    *out = anvil_sv("", 0);
    return false;
}

bool anvil__boto_flag(struct anvil__boto *x, const struct anvil_json *obj, const char *key, struct anvil_str_view shape,
                      struct anvil_str_view member) {
    const struct anvil_json *v = anvil_json_object_get_cstr(obj, key);
    if (v && !anvil_json_is_bool(v)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, shape, member, "botocore `%s` must be true or false; found %s", key,
                          anvil__boto_kind(v));
    }
    return anvil_json_bool(v);
}

size_t anvil__boto_index(const struct anvil__boto *x, struct anvil_str_view name) {
    const struct anvil_json *v = anvil_json_object_get(x->shapes, name.ptr, name.len);
    if (!v) {
        return SIZE_MAX;
    }
    /* Members are one array in document order: the value's place is its member's. */
    const struct anvil_json_member *m =
        (const struct anvil_json_member *)(const void *)((const char *)v - offsetof(struct anvil_json_member, value));
    return (size_t)(m - x->shapes->u.members);
}

struct anvil_str_view anvil__boto_name(const struct anvil__boto *x, struct anvil_str_view name) {
    size_t index = anvil__boto_index(x, name);
    return index == SIZE_MAX ? name : x->info[index].name;
}

void anvil__boto_key(struct anvil__boto *x, const char *key) {
    anvil_json_builder_key(x->b, key, strlen(key));
}

void anvil__boto_str(struct anvil__boto *x, struct anvil_str_view s) {
    anvil_json_builder_string(x->b, s.ptr, s.len);
}

void anvil__boto_id(struct anvil__boto *x, struct anvil_str_view name) {
    anvil_buf_truncate(&x->id, x->ns_len);
    if (anvil_buf_append(&x->id, name.ptr, name.len) != ANVIL_OK && x->rc == ANVIL_OK) {
        x->rc = ANVIL_ENOMEM;
    }
    anvil_json_builder_string(x->b, x->id.data, x->id.len);
}

void anvil__boto_copy(struct anvil__boto *x, const struct anvil_json *v) {
    struct anvil_json copy;
    int rc = anvil_json_copy(x->cv->arena, v, &copy);
    if (rc != ANVIL_OK) {
        x->rc = x->rc == ANVIL_OK ? rc : x->rc;
        anvil_json_builder_null(x->b);
        return;
    }
    anvil_json_builder_value(x->b, &copy);
}

void anvil__boto_trait(struct anvil__boto *x, struct anvil__boto_traits *t, const char *id) {
    if (!t->open) {
        anvil__boto_key(x, "traits");
        anvil_json_builder_begin_object(x->b);
        t->open = true;
    }
    anvil__boto_key(x, id);
}

void anvil__boto_trait_empty(struct anvil__boto *x, struct anvil__boto_traits *t, const char *id) {
    anvil__boto_trait(x, t, id);
    anvil_json_builder_begin_object(x->b);
    anvil_json_builder_end_object(x->b);
}

void anvil__boto_trait_str(struct anvil__boto *x, struct anvil__boto_traits *t, const char *id,
                           struct anvil_str_view value) {
    anvil__boto_trait(x, t, id);
    anvil__boto_str(x, value);
}

void anvil__boto_traits_end(struct anvil__boto *x, struct anvil__boto_traits *t) {
    if (t->open) {
        anvil_json_builder_end_object(x->b);
        t->open = false;
    }
}

void anvil__boto_deprecated(struct anvil__boto *x, struct anvil__boto_traits *t, const struct anvil_json *obj,
                            struct anvil_str_view shape, struct anvil_str_view member) {
    if (!anvil__boto_flag(x, obj, "deprecated", shape, member)) {
        return;
    }
    struct anvil_str_view message, since;
    bool has_message = anvil__boto_string(x, obj, "deprecatedMessage", shape, member, &message);
    bool has_since = anvil__boto_string(x, obj, "deprecatedSince", shape, member, &since);
    anvil__boto_trait(x, t, "smithy.api#deprecated");
    anvil_json_builder_begin_object(x->b);
    if (has_message) {
        anvil__boto_key(x, "message");
        anvil__boto_str(x, message);
    }
    if (has_since) {
        anvil__boto_key(x, "since");
        anvil__boto_str(x, since);
    }
    anvil_json_builder_end_object(x->b);
}

void anvil__boto_timestamp_format(struct anvil__boto *x, struct anvil__boto_traits *t, const struct anvil_json *obj,
                                  struct anvil_str_view shape, struct anvil_str_view member) {
    struct anvil_str_view f;
    if (!anvil__boto_string(x, obj, "timestampFormat", shape, member, &f)) {
        return;
    }
    /* botocore's names (serialize.py _convert_timestamp_to_str) for Smithy's three formats. */
    const char *smithy = anvil_sv_eq_cstr(f, "iso8601")         ? "date-time"
                         : anvil_sv_eq_cstr(f, "unixTimestamp") ? "epoch-seconds"
                         : anvil_sv_eq_cstr(f, "rfc822")        ? "http-date"
                                                                : NULL;
    if (!smithy) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, shape, member,
                          "botocore `timestampFormat` is `%.*s`; it must be iso8601, unixTimestamp or rfc822",
                          (int)anvil__boto_cut(f).len, anvil__boto_cut(f).ptr);
        return;
    }
    anvil__boto_trait_str(x, t, "smithy.api#timestampFormat", anvil_sv_from_cstr(smithy));
}

void anvil__boto_xml_namespace(struct anvil__boto *x, struct anvil__boto_traits *t, const struct anvil_json *obj,
                               struct anvil_str_view shape, struct anvil_str_view member) {
    const struct anvil_json *ns = anvil_json_object_get_cstr(obj, "xmlNamespace");
    if (!ns) {
        return;
    }
    /* A URI, or {"uri": ..., "prefix": ...} (serialize.py _add_xml_namespace takes both). */
    const struct anvil_json *uri = anvil_json_is_string(ns) ? ns : anvil_json_object_get_cstr(ns, "uri");
    const struct anvil_json *prefix = anvil_json_object_get_cstr(ns, "prefix");
    if (!anvil_json_is_string(uri) || (prefix && !anvil_json_is_string(prefix))) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, shape, member,
                          "botocore `xmlNamespace` must be a URI or an object with a string `uri` (and `prefix`); "
                          "found %s",
                          anvil__boto_kind(ns));
        return;
    }
    anvil__boto_trait(x, t, "smithy.api#xmlNamespace");
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "uri");
    anvil__boto_str(x, anvil_json_string(uri));
    if (prefix && anvil_json_string(prefix).len) {
        anvil__boto_key(x, "prefix");
        anvil__boto_str(x, anvil_json_string(prefix));
    }
    anvil_json_builder_end_object(x->b);
}

/* ---- a small map of views ---- */

const struct anvil_str_view *anvil__boto_map_get(const struct anvil__boto_map *map, struct anvil_str_view key) {
    if (!map->slots) {
        return NULL;
    }
    for (size_t i = anvil_json_hash(key.ptr, key.len) & map->mask; map->slots[i].key.ptr; i = (i + 1) & map->mask) {
        if (anvil_sv_eq(map->slots[i].key, key)) {
            return &map->slots[i].value;
        }
    }
    return NULL;
}

int anvil__boto_map_put(struct anvil_allocator *allocator, struct anvil__boto_map *map, struct anvil_str_view key,
                        struct anvil_str_view value) {
    if ((map->count + 1) * 2 > (map->slots ? map->mask + 1 : 0)) {
        size_t size = map->slots ? (map->mask + 1) * 2 : 16;
        struct anvil__boto_slot *slots = anvil_mem_acquire(allocator, size * sizeof(*slots));
        if (!slots) {
            return ANVIL_ENOMEM;
        }
        memset(slots, 0, size * sizeof(*slots));
        for (size_t i = 0; map->slots && i <= map->mask; i++) {
            if (map->slots[i].key.ptr) {
                size_t j = anvil_json_hash(map->slots[i].key.ptr, map->slots[i].key.len) & (size - 1);
                while (slots[j].key.ptr) {
                    j = (j + 1) & (size - 1);
                }
                slots[j] = map->slots[i];
            }
        }
        anvil_mem_release(allocator, map->slots);
        map->slots = slots;
        map->mask = size - 1;
    }
    size_t i = anvil_json_hash(key.ptr, key.len) & map->mask;
    while (map->slots[i].key.ptr && !anvil_sv_eq(map->slots[i].key, key)) {
        i = (i + 1) & map->mask;
    }
    map->count += map->slots[i].key.ptr == NULL;
    /* An empty key is stored with a non-NULL pointer, so its slot reads as taken. */
    map->slots[i].key = key.ptr ? key : anvil_sv("", 0);
    map->slots[i].value = value;
    return ANVIL_OK;
}

void anvil__boto_map_clean_up(struct anvil_allocator *allocator, struct anvil__boto_map *map) {
    anvil_mem_release(allocator, map->slots);
    memset(map, 0, sizeof(*map));
}

/* ---- what kind of document ---- */

bool anvil__botocore_is_service(const struct anvil_json *root) {
    if (!anvil_json_is_object(root) || anvil_json_object_get_cstr(root, "smithy")) {
        return false;
    }
    const struct anvil_json *meta = anvil_json_object_get_cstr(root, "metadata");
    if (anvil_json_object_get_cstr(meta, "protocol") || anvil_json_object_get_cstr(meta, "protocols")) {
        return anvil_json_is_object(meta);
    }
    return anvil_json_object_get_cstr(root, "operations") && anvil_json_object_get_cstr(root, "shapes");
}

/* ---- the service ---- */

struct s_protocol {
    const char *botocore;
    unsigned bit;
    const char *trait;
};

static const struct s_protocol s_protocols[] = {
    {"json", ANVIL__BOTO_AWS_JSON_1_0, "aws.protocols#awsJson1_0"},
    {"json", ANVIL__BOTO_AWS_JSON_1_1, "aws.protocols#awsJson1_1"},
    {"rest-json", ANVIL__BOTO_REST_JSON, "aws.protocols#restJson1"},
    {"rest-xml", ANVIL__BOTO_REST_XML, "aws.protocols#restXml"},
    {"query", ANVIL__BOTO_QUERY, "aws.protocols#awsQuery"},
    {"ec2", ANVIL__BOTO_EC2, "aws.protocols#ec2Query"},
    {"smithy-rpc-v2-cbor", ANVIL__BOTO_CBOR, "smithy.protocols#rpcv2Cbor"},
    {"smithy-rpc-v2-json", ANVIL__BOTO_RPC_JSON, "smithy.protocols#rpcv2Json"},
};
#define S_PROTOCOL_COUNT (sizeof(s_protocols) / sizeof(s_protocols[0]))

/* The protocol one botocore name means (json: by metadata.jsonVersion); NULL when unknown. */
static const struct s_protocol *s_protocol(struct anvil__boto *x, struct anvil_str_view name) {
    if (anvil_sv_eq_cstr(name, "json")) {
        struct anvil_str_view version;
        anvil__boto_string(x, x->metadata, "jsonVersion", anvil_sv("", 0), anvil_sv("", 0), &version);
        /* botocore's JSON serializer needs jsonVersion; without one, 1.0 (newer services speak it). */
        return &s_protocols[anvil_sv_eq_cstr(version, "1.1") ? 1 : 0];
    }
    for (size_t i = 2; i < S_PROTOCOL_COUNT; i++) {
        if (anvil_sv_eq_cstr(name, s_protocols[i].botocore)) {
            return &s_protocols[i];
        }
    }
    anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                      "botocore protocol `%.*s` is not one anvil knows (json, rest-json, rest-xml, query, ec2, "
                      "smithy-rpc-v2-cbor, smithy-rpc-v2-json)",
                      (int)anvil__boto_cut(name).len, anvil__boto_cut(name).ptr);
    return NULL;
}

/* The protocols, in the service's order of preference (metadata.protocols, else metadata.protocol). */
static size_t s_read_protocols(struct anvil__boto *x, const struct s_protocol **out) {
    const struct anvil_json *list = anvil_json_object_get_cstr(x->metadata, "protocols");
    size_t n = 0;
    if (anvil_json_is_array(list) && anvil_json_len(list)) {
        for (size_t i = 0; i < anvil_json_len(list); i++) {
            const struct anvil_json *p = anvil_json_array_at(list, i);
            const struct s_protocol *known = anvil_json_is_string(p) ? s_protocol(x, anvil_json_string(p)) : NULL;
            if (!anvil_json_is_string(p)) {
                anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                                  "botocore metadata `protocols` must list strings; found %s", anvil__boto_kind(p));
            }
            if (known && !(x->protocols & known->bit) && n < S_PROTOCOL_COUNT) {
                x->protocols |= known->bit;
                out[n++] = known;
            }
        }
        return n;
    }
    if (list && !anvil_json_is_array(list)) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore metadata `protocols` must be an array; found %s", anvil__boto_kind(list));
    }
    struct anvil_str_view name;
    if (anvil__boto_string(x, x->metadata, "protocol", anvil_sv("", 0), anvil_sv("", 0), &name)) {
        const struct s_protocol *known = s_protocol(x, name);
        if (known) {
            x->protocols |= known->bit;
            out[n++] = known;
        }
    } else if (!anvil_json_object_get_cstr(x->metadata, "protocol")) {
        anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore metadata has no `protocol`");
    }
    return n;
}

/* Letters and digits of `s` (lower-cased when asked), as an identifier; `fallback` when none is left. */
static struct anvil_str_view s_identifier(struct anvil__boto *x, struct anvil_str_view s, bool lower,
                                          const char *fallback) {
    char *out = anvil_arena_alloc(x->scratch, s.len + 2, 1);
    if (!out) {
        x->rc = ANVIL_ENOMEM;
        return anvil_sv_from_cstr(fallback);
    }
    size_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        bool digit = c >= '0' && c <= '9';
        if (digit && n == 0) {
            out[n++] = fallback[0]; /* an identifier starts with a letter */
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit) {
            out[n++] = lower && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
    }
    return n ? anvil_sv(out, n) : anvil_sv_from_cstr(fallback);
}

/*
 * The namespace, as the Smithy models of AWS services have it: com.amazonaws. and the SDK id (serviceId)
 * lower-cased without spaces or hyphens ("Elastic Load Balancing v2" -> elasticloadbalancingv2; CloudWatch's is
 * cloudwatch though its endpoint prefix is monitoring). The service shape: metadata.targetPrefix's last dotted
 * part when there is one (awsJson's X-Amz-Target and rpcv2Cbor's path carry it), else the SDK id without spaces.
 */
static void s_names_of_service(struct anvil__boto *x, struct anvil_str_view *target_prefix) {
    struct anvil_str_view sdk_id, prefix, target;
    anvil__boto_string(x, x->metadata, "serviceId", anvil_sv("", 0), anvil_sv("", 0), &sdk_id);
    anvil__boto_string(x, x->metadata, "endpointPrefix", anvil_sv("", 0), anvil_sv("", 0), &prefix);
    struct anvil_str_view ns = s_identifier(x, sdk_id.len ? sdk_id : prefix, true, "service");
    int rc = anvil_buf_append_cstr(&x->id, "com.amazonaws.");
    rc = rc == ANVIL_OK ? anvil_buf_append(&x->id, ns.ptr, ns.len) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&x->id, '#') : rc;
    x->rc = rc != ANVIL_OK ? rc : x->rc;
    x->ns_len = x->id.len;
    *target_prefix = anvil_sv("", 0);
    if (anvil__boto_string(x, x->metadata, "targetPrefix", anvil_sv("", 0), anvil_sv("", 0), &target)) {
        size_t dot = target.len;
        while (dot > 0 && target.ptr[dot - 1] != '.') {
            dot--;
        }
        struct anvil_str_view last = anvil_sv(target.ptr + dot, target.len - dot);
        if (anvil__identifier_valid(last)) {
            x->service = last;
            *target_prefix = target;
            return;
        }
        anvil__boto_event(x, ANVIL_SEVERITY_WARNING, anvil_sv("", 0), anvil_sv("", 0),
                          "botocore metadata `targetPrefix` `%.*s` does not end in an identifier; the service "
                          "shape is named for the SDK id instead",
                          (int)anvil__boto_cut(target).len, anvil__boto_cut(target).ptr);
    }
    x->service = s_identifier(x, sdk_id.len ? sdk_id : prefix, false, "Service");
}

/* ---- names ---- */

static bool s_taken(const struct anvil__boto *x, struct anvil_str_view name) {
    return anvil_json_object_get(x->shapes, name.ptr, name.len) ||
           anvil_json_object_get(x->operations, name.ptr, name.len) || anvil_sv_eq(name, x->service) ||
           anvil__boto_map_get(&x->made, name);
}

/* A name no shape, operation or made-up name has: `base` + `suffix`, then a number when that is taken too. */
static struct anvil_str_view s_make_name(struct anvil__boto *x, struct anvil_str_view base, const char *suffix) {
    size_t cap = base.len + strlen(suffix) + 24;
    char *text = anvil_arena_alloc(x->scratch, cap, 1);
    if (!text) {
        x->rc = ANVIL_ENOMEM;
        return base;
    }
    struct anvil_str_view name = anvil_sv(text, 0);
    for (unsigned long n = 1;; n++) {
        int len = n == 1 ? snprintf(text, cap, "%.*s%s", (int)base.len, base.ptr, suffix)
                         : snprintf(text, cap, "%.*s%s%lu", (int)base.len, base.ptr, suffix, n);
        name.len = len > 0 ? (size_t)len : 0;
        if (!s_taken(x, name)) {
            break;
        }
    }
    if (anvil__boto_map_put(x->cv->allocator, &x->made, name, name) != ANVIL_OK) {
        x->rc = ANVIL_ENOMEM;
    }
    return name;
}

/*
 * Every shape's Smithy name. botocore keeps operations and shapes apart, so `Foo` may name both (MediaLive's
 * UpdateNodeState); Smithy has one namespace, so such a shape becomes `FooShape`, as the Smithy models name it.
 * Also notes which shapes an operation's input reference names with an XML root name or namespace.
 */
static void s_name_shapes(struct anvil__boto *x) {
    for (size_t i = 0; i < x->count; i++) {
        struct anvil_str_view name = anvil_json_member_key(anvil_json_object_at(x->shapes, i));
        struct anvil__boto_shape *info = &x->info[i];
        info->name = name;
        if (!anvil__identifier_valid(name)) {
            info->skip = true;
            anvil__boto_event(x, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), anvil_sv("", 0),
                              "botocore shape `%.*s` cannot be a Smithy shape: its name is not an identifier",
                              (int)anvil__boto_cut(name).len, anvil__boto_cut(name).ptr);
        } else if (anvil_json_object_get(x->operations, name.ptr, name.len) || anvil_sv_eq(name, x->service)) {
            info->name = s_make_name(x, name, "Shape");
        }
    }
    for (size_t i = 0; i < anvil_json_len(x->operations); i++) {
        const struct anvil_json *input =
            anvil_json_object_get_cstr(&anvil_json_object_at(x->operations, i)->value, "input");
        const struct anvil_json *shape = anvil_json_object_get_cstr(input, "shape");
        size_t index = anvil_json_is_string(shape) ? anvil__boto_index(x, anvil_json_string(shape)) : SIZE_MAX;
        if (index != SIZE_MAX &&
            (anvil_json_object_get_cstr(input, "locationName") || anvil_json_object_get_cstr(input, "xmlNamespace"))) {
            x->info[index].input = input;
        }
    }
}

/*
 * `streaming` and `jsonvalue` are member traits in botocore and shape traits in Smithy (@streaming,
 * @mediaType). When every reference to a shape says one, the shape gets the trait; when only some do, those
 * references target a copy of the shape that has it.
 */
static void s_plan_copies(struct anvil__boto *x) {
    for (size_t i = 0; i < x->count; i++) {
        struct anvil__boto_shape *info = &x->info[i];
        const struct anvil_json *def = &anvil_json_object_at(x->shapes, i)->value;
        if (info->skip) {
            continue;
        }
        if ((info->refs & ANVIL__BOTO_REF_STREAMING) &&
            !anvil_json_bool(anvil_json_object_get_cstr(def, "streaming"))) {
            if (info->refs & ANVIL__BOTO_REF_NOT_STREAMING) {
                info->streaming = s_make_name(x, info->name, "Streaming");
            } else {
                info->add |= ANVIL__BOTO_ADD_STREAMING;
            }
        }
        if ((info->refs & ANVIL__BOTO_REF_JSON_VALUE) &&
            !anvil_json_bool(anvil_json_object_get_cstr(def, "jsonvalue"))) {
            if (info->refs & ANVIL__BOTO_REF_NOT_JSON_VALUE) {
                info->json_value = s_make_name(x, info->name, "JsonValue");
            } else {
                info->add |= ANVIL__BOTO_ADD_JSON_VALUE;
            }
        }
    }
}

/* ---- the service shape ---- */

static void s_auth(struct anvil__boto *x, struct anvil__boto_traits *t) {
    struct anvil_str_view signing, prefix, version;
    anvil__boto_string(x, x->metadata, "endpointPrefix", anvil_sv("", 0), anvil_sv("", 0), &prefix);
    if (!anvil__boto_string(x, x->metadata, "signingName", anvil_sv("", 0), anvil_sv("", 0), &signing)) {
        signing = prefix; /* model.py ServiceModel.signing_name */
    }
    anvil__boto_string(x, x->metadata, "signatureVersion", anvil_sv("", 0), anvil_sv("", 0), &version);
    const struct anvil_json *auth = anvil_json_object_get_cstr(x->metadata, "auth");
    bool sigv4 = !anvil_sv_eq_cstr(version, "bearer"), sigv4a = false, bearer = !sigv4;
    if (anvil_json_is_array(auth) && anvil_json_len(auth)) {
        sigv4 = false;
        for (size_t i = 0; i < anvil_json_len(auth); i++) {
            struct anvil_str_view scheme = anvil_json_string(anvil_json_array_at(auth, i));
            sigv4 |= anvil_sv_eq_cstr(scheme, "aws.auth#sigv4");
            sigv4a |= anvil_sv_eq_cstr(scheme, "aws.auth#sigv4a");
            bearer |= anvil_sv_eq_cstr(scheme, "smithy.api#httpBearerAuth");
        }
    }
    if (sigv4 || sigv4a) {
        anvil__boto_trait(x, t, sigv4 ? "aws.auth#sigv4" : "aws.auth#sigv4a");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "name");
        anvil__boto_str(x, signing);
        anvil_json_builder_end_object(x->b);
    }
    if (sigv4 && sigv4a) {
        anvil__boto_trait(x, t, "aws.auth#sigv4a");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "name");
        anvil__boto_str(x, signing);
        anvil_json_builder_end_object(x->b);
    }
    if (bearer) {
        anvil__boto_trait_empty(x, t, "smithy.api#httpBearerAuth");
    }
}

static void s_service(struct anvil__boto *x, const struct anvil_json *root, const struct s_protocol *const *protocols,
                      size_t protocol_count, struct anvil_str_view target_prefix) {
    const struct anvil_str_view none = anvil_sv("", 0);
    anvil_buf_truncate(&x->id, x->ns_len);
    if (anvil_buf_append(&x->id, x->service.ptr, x->service.len) != ANVIL_OK) {
        x->rc = ANVIL_ENOMEM;
    }
    anvil_json_builder_key(x->b, x->id.data, x->id.len);
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "type");
    anvil__boto_str(x, ANVIL_SV("service"));
    struct anvil_str_view version, sdk_id, prefix, title, xml_ns;
    if (anvil__boto_string(x, x->metadata, "apiVersion", none, none, &version)) {
        anvil__boto_key(x, "version");
        anvil__boto_str(x, version);
    }
    anvil__boto_key(x, "operations");
    anvil_json_builder_begin_array(x->b);
    const struct anvil_json_member *discovery = NULL; /* the endpoint discovery operation */
    for (size_t i = 0; i < anvil_json_len(x->operations); i++) {
        const struct anvil_json_member *op = anvil_json_object_at(x->operations, i);
        if (anvil__identifier_valid(anvil_json_member_key(op)) && anvil_json_is_object(&op->value)) {
            anvil_json_builder_begin_object(x->b);
            anvil__boto_key(x, "target");
            anvil__boto_id(x, anvil_json_member_key(op));
            anvil_json_builder_end_object(x->b);
            if (!discovery && anvil_json_bool(anvil_json_object_get_cstr(&op->value, "endpointoperation"))) {
                discovery = op;
            }
        }
    }
    anvil_json_builder_end_array(x->b);
    struct anvil__boto_traits t = {false};
    anvil__boto_string(x, x->metadata, "endpointPrefix", none, none, &prefix);
    if (!anvil__boto_string(x, x->metadata, "serviceId", none, none, &sdk_id)) {
        sdk_id = prefix.len ? prefix : x->service; /* older models have no serviceId */
    }
    anvil__boto_trait(x, &t, "aws.api#service");
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "sdkId");
    anvil__boto_str(x, sdk_id);
    if (prefix.len) {
        anvil__boto_key(x, "endpointPrefix");
        anvil__boto_str(x, prefix);
    }
    anvil_json_builder_end_object(x->b);
    s_auth(x, &t);
    for (size_t i = 0; i < protocol_count; i++) {
        if (protocols[i]->bit == ANVIL__BOTO_REST_XML && anvil_sv_eq_cstr(sdk_id, "S3")) {
            /* S3's errors have <Error> as their root, as the Smithy model of S3 says; botocore's parser takes
             * both forms and its model does not say. S3 Control's are wrapped in <ErrorResponse>. */
            anvil__boto_trait(x, &t, protocols[i]->trait);
            anvil_json_builder_begin_object(x->b);
            anvil__boto_key(x, "noErrorWrapping");
            anvil_json_builder_bool(x->b, true);
            anvil_json_builder_end_object(x->b);
            continue;
        }
        anvil__boto_trait_empty(x, &t, protocols[i]->trait);
    }
    if (anvil_json_object_get_cstr(x->metadata, "awsQueryCompatible")) {
        anvil__boto_trait_empty(x, &t, "aws.protocols#awsQueryCompatible");
    }
    if (anvil__boto_string(x, x->metadata, "xmlNamespace", none, none, &xml_ns)) {
        anvil__boto_trait(x, &t, "smithy.api#xmlNamespace");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "uri");
        anvil__boto_str(x, xml_ns);
        anvil_json_builder_end_object(x->b);
    } else if (x->protocols & (ANVIL__BOTO_QUERY | ANVIL__BOTO_EC2)) {
        /* Smithy's awsQuery and ec2Query need one (their trait selector); responses carry this one. */
        struct anvil_buf uri;
        anvil_buf_init(&uri, x->cv->allocator, 0);
        if (anvil_buf_appendf(&uri, "http://%.*s.amazonaws.com/doc/%.*s/", (int)anvil__boto_cut(prefix).len,
                              anvil__boto_cut(prefix).ptr, (int)anvil__boto_cut(version).len,
                              anvil__boto_cut(version).ptr) != ANVIL_OK) {
            x->rc = ANVIL_ENOMEM;
        }
        anvil__boto_trait(x, &t, "smithy.api#xmlNamespace");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "uri");
        anvil__boto_str(x, anvil_buf_view(&uri));
        anvil_json_builder_end_object(x->b);
        anvil_buf_clean_up(&uri);
    }
    if (anvil__boto_string(x, x->metadata, "serviceFullName", none, none, &title)) {
        anvil__boto_trait_str(x, &t, "smithy.api#title", title);
    }
    const struct anvil_json *context = anvil_json_object_get_cstr(root, "clientContextParams");
    if (anvil_json_is_object(context)) {
        anvil__boto_trait(x, &t, "smithy.rules#clientContextParams");
        anvil__boto_copy(x, context);
    }
    if (discovery) {
        anvil__boto_trait(x, &t, "aws.api#clientEndpointDiscovery");
        anvil_json_builder_begin_object(x->b);
        anvil__boto_key(x, "operation");
        anvil__boto_id(x, anvil_json_member_key(discovery));
        anvil_json_builder_end_object(x->b);
    }
    if (target_prefix.len && !anvil_sv_eq(target_prefix, x->service)) {
        /* CloudTrail's is com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101: botocore sends all of it. */
        anvil__boto_trait_str(x, &t, "anvil.botocore#targetPrefix", target_prefix);
    }
    anvil__boto_traits_end(x, &t);
    anvil_json_builder_end_object(x->b);
}

/* ---- the document ---- */

static int s_build(struct anvil__boto *x, const struct anvil_json *root, struct anvil_json *out) {
    const struct s_protocol *protocols[S_PROTOCOL_COUNT];
    size_t protocol_count = s_read_protocols(x, protocols);
    struct anvil_str_view target_prefix;
    s_names_of_service(x, &target_prefix);
    x->count = anvil_json_len(x->shapes);
    if (x->count) {
        if (x->count > SIZE_MAX / sizeof(*x->info) ||
            !(x->info = anvil_mem_acquire(x->cv->allocator, x->count * sizeof(*x->info)))) {
            return ANVIL_ENOMEM;
        }
        memset(x->info, 0, x->count * sizeof(*x->info));
    }
    s_name_shapes(x);
    anvil__boto_scan_references(x);
    s_plan_copies(x);
    int rc = anvil_json_builder_new(x->cv->allocator, x->cv->arena, &x->b);
    if (rc != ANVIL_OK) {
        return rc;
    }
    anvil_json_builder_begin_object(x->b);
    anvil__boto_key(x, "smithy");
    anvil__boto_str(x, ANVIL_SV("2.0"));
    anvil__boto_key(x, "shapes");
    anvil_json_builder_begin_object(x->b);
    s_service(x, root, protocols, protocol_count, target_prefix);
    for (size_t i = 0; i < anvil_json_len(x->operations) && x->rc == ANVIL_OK; i++) {
        const struct anvil_json_member *op = anvil_json_object_at(x->operations, i);
        anvil__boto_emit_operation(x, anvil_json_member_key(op), &op->value);
    }
    x->in_operation = false;
    for (size_t i = 0; i < x->count && x->rc == ANVIL_OK; i++) {
        const struct anvil__boto_shape *info = &x->info[i];
        if (!info->skip) {
            anvil__boto_emit_shape(x, i, info->name, info->add);
        }
        if (info->streaming.len) {
            anvil__boto_emit_shape(x, i, info->streaming, info->add | ANVIL__BOTO_ADD_STREAMING);
        }
        if (info->json_value.len) {
            anvil__boto_emit_shape(x, i, info->json_value, info->add | ANVIL__BOTO_ADD_JSON_VALUE);
        }
    }
    anvil_json_builder_end_object(x->b);
    anvil_json_builder_end_object(x->b);
    rc = anvil_json_builder_finish(x->b, out);
    return x->rc != ANVIL_OK ? x->rc : rc;
}

int anvil__botocore_to_ast(const struct anvil__botocore_convert *cv, const struct anvil_json *root,
                           struct anvil_json *out) {
    const struct anvil_json *metadata = anvil_json_object_get_cstr(root, "metadata");
    const struct anvil_json *operations = anvil_json_object_get_cstr(root, "operations");
    const struct anvil_json *shapes = anvil_json_object_get_cstr(root, "shapes");
    if (!anvil_json_is_object(root)) {
        return anvil_diag_set(cv->diag, ANVIL_EMODEL, 0, 0, 0,
                              "a botocore service model must be a JSON object; found %s", anvil__boto_kind(root));
    }
    if (!anvil_json_is_object(metadata) || !anvil_json_is_object(operations) || !anvil_json_is_object(shapes)) {
        return anvil_diag_set(cv->diag, ANVIL_EMODEL, 0, 0, 0,
                              "a botocore service model needs `metadata`, `operations` and `shapes` objects; "
                              "found %s, %s and %s",
                              anvil__boto_kind(metadata), anvil__boto_kind(operations), anvil__boto_kind(shapes));
    }
    struct anvil__boto x;
    memset(&x, 0, sizeof(x));
    x.cv = cv;
    x.metadata = metadata;
    x.operations = operations;
    x.shapes = shapes;
    anvil_buf_init(&x.id, cv->allocator, 0);
    int rc = anvil_arena_new(cv->allocator, NULL, &x.scratch);
    if (rc == ANVIL_OK) {
        rc = s_build(&x, root, out);
    }
    if (rc == ANVIL_OK && x.events > ANVIL__BOTO_MAX_EVENTS && cv->event) {
        char message[160];
        snprintf(message, sizeof(message), "%zu more problems in this botocore model are not listed",
                 x.events - ANVIL__BOTO_MAX_EVENTS);
        cv->event(cv->event_ctx, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), message);
    }
    anvil_json_builder_destroy(x.b);
    anvil_arena_destroy(x.scratch);
    anvil_buf_clean_up(&x.id);
    anvil__boto_map_clean_up(cv->allocator, &x.made);
    anvil_mem_release(cv->allocator, x.info);
    if (rc == ANVIL_ENOMEM) {
        return anvil_diag_set(cv->diag, rc, 0, 0, 0, "out of memory");
    }
    if (rc != ANVIL_OK) {
        return anvil_diag_set(cv->diag, rc, 0, 0, 0, "the botocore model cannot be converted: %s",
                              anvil_status_str(rc));
    }
    return ANVIL_OK;
}

int anvil__botocore_parse(const struct anvil__botocore_convert *cv, const char *text, size_t len, bool botocore_only,
                          struct anvil_json *out, bool *converted) {
    *converted = false;
    struct anvil_json_doc *doc = NULL;
    int rc = anvil_json_parse(cv->allocator, text, len, NULL, &doc, cv->diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_json *root = anvil_json_doc_root(doc);
    if (botocore_only || anvil__botocore_is_service(root)) {
        rc = anvil__botocore_to_ast(cv, root, out);
        *converted = rc == ANVIL_OK;
    } else {
        rc = anvil_json_copy(cv->arena, root, out);
        if (rc != ANVIL_OK) {
            anvil_diag_set(cv->diag, rc, 0, 0, 0, "%s", rc == ANVIL_ENOMEM ? "out of memory" : anvil_status_str(rc));
        }
    }
    anvil_json_doc_destroy(doc);
    return rc;
}
