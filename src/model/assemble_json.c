/*
 * Model assembly, JSON AST side: what Smithy's JsonAstLoader accepts, warns
 * about and rejects, and JSON AST shapes and `apply` entries -> the
 * assembler's shape records (see assemble.c).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/assemble_internal.h"
#include "model/idl_internal.h"
#include "model/model_internal.h"
#include "model/validate_internal.h"
#include "json/json_internal.h"

/* ---- JSON AST definitions: what Smithy's JsonAstLoader accepts, warns about and rejects ---- */

const char *const anvil__asm_top_props[] = {"metadata", "shapes", "smithy", NULL};
const char *const anvil__asm_apply_props[] = {"traits", "type", NULL};
static const char *const s_simple_props[] = {"mixins", "traits", "type", NULL};
static const char *const s_named_member_props[] = {"members", "mixins", "traits", "type", NULL};
static const char *const s_collection_props[] = {"member", "mixins", "traits", "type", NULL};
static const char *const s_map_props[] = {"key", "mixins", "traits", "type", "value", NULL};
static const char *const s_member_props[] = {"target", "traits", NULL};
static const char *const s_operation_props[] = {"errors", "input", "mixins", "output", "traits", "type", NULL};
static const char *const s_resource_props[] = {"collectionOperations",
                                               "create",
                                               "delete",
                                               "identifiers",
                                               "list",
                                               "mixins",
                                               "operations",
                                               "properties",
                                               "put",
                                               "read",
                                               "resources",
                                               "traits",
                                               "type",
                                               "update",
                                               NULL};
static const char *const s_service_props[] = {"errors", "mixins", "operations", "rename", "resources",
                                              "traits", "type",   "version",    NULL};

static bool s_listed(const char *const *names, struct anvil_str_view key) {
    for (; *names; names++) {
        if (anvil_sv_eq_cstr(key, *names)) {
            return true;
        }
    }
    return false;
}

static const char *const *s_props_of(enum anvil_shape_type type) {
    switch (type) {
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
        return s_collection_props;
    case ANVIL_SHAPE_MAP:
        return s_map_props;
    case ANVIL_SHAPE_STRUCTURE:
    case ANVIL_SHAPE_UNION:
    case ANVIL_SHAPE_ENUM:
    case ANVIL_SHAPE_INT_ENUM:
        return s_named_member_props;
    case ANVIL_SHAPE_OPERATION:
        return s_operation_props;
    case ANVIL_SHAPE_RESOURCE:
        return s_resource_props;
    case ANVIL_SHAPE_SERVICE:
        return s_service_props;
    default:
        return s_simple_props;
    }
}

/* Smithy's checkAdditionalProperties: a WARNING naming the allowed keys and the others, both sorted. */
void anvil__asm_json_props(struct anvil__asm *a, struct anvil_str_view shape, const struct anvil_json *obj,
                           const char *const *allowed) {
    struct anvil_str_view extra[32];
    size_t n = 0;
    for (size_t i = 0; i < anvil_json_len(obj) && n < 32; i++) {
        struct anvil_str_view key = anvil_json_member_key(anvil_json_object_at(obj, i));
        if (!s_listed(allowed, key)) {
            size_t at = n++;
            while (at > 0 && anvil_sv_cmp(extra[at - 1], key) > 0) {
                extra[at] = extra[at - 1];
                at--;
            }
            extra[at] = key;
        }
    }
    if (n == 0) {
        return;
    }
    char message[1024];
    size_t used = (size_t)snprintf(message, sizeof(message), "Expected an object with possible properties of ");
    for (size_t i = 0; allowed[i] && used < sizeof(message); i++) {
        used += (size_t)snprintf(message + used, sizeof(message) - used, "%s`%s`", i ? ", " : "", allowed[i]);
    }
    if (used < sizeof(message)) {
        used += (size_t)snprintf(message + used, sizeof(message) - used, ", but found additional properties: ");
    }
    for (size_t i = 0; i < n && used < sizeof(message); i++) {
        used += (size_t)snprintf(message + used, sizeof(message) - used, "%s`%.*s`", i ? ", " : "",
                                 (int)(extra[i].len < 100 ? extra[i].len : 100), extra[i].ptr);
    }
    anvil__asm_event(a, ANVIL_SEVERITY_WARNING, shape, "Model", "%s", message);
}

/* Node types as Smithy's AstReader.describe names them. */
const char *anvil__asm_json_kind(const struct anvil_json *v) {
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_OBJECT:
        return "object";
    case ANVIL_JSON_ARRAY:
        return "array";
    case ANVIL_JSON_STRING:
        return "string";
    case ANVIL_JSON_NUMBER:
        return "number";
    case ANVIL_JSON_BOOL:
        return "boolean";
    default:
        return "null";
    }
}

/* The traits of a JSON definition: absolute trait ids only (Smithy: "Invalid shape ID: x"). */
static void s_json_traits(struct anvil__asm *a, struct anvil_str_view owner, const struct anvil__idl_file *file,
                          const struct anvil_json *traits, struct anvil__asm_traits *out) {
    anvil__asm_traits_reserve(a, out, anvil_json_is_object(traits) ? anvil_json_len(traits) : 0);
    for (size_t i = 0; i < anvil_json_len(traits) && anvil_json_is_object(traits); i++) {
        const struct anvil_json_member *t = anvil_json_object_at(traits, i);
        struct anvil_str_view id = anvil_json_member_key(t);
        if (!anvil__shape_id_valid(id)) {
            size_t hash = anvil_sv_find_byte(owner, 0, '$');
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, hash == SIZE_MAX ? owner : anvil_sv_slice(owner, 0, hash),
                             "Model", "Invalid shape ID: %.*s", (int)(id.len < 200 ? id.len : 200), id.ptr);
            continue;
        }
        struct anvil__asm_trait add = {.id = id, .value = t->value, .file = file->number};
        anvil__asm_add_trait(a, owner, file->version, out, &add);
    }
}

/* A list of `{"target": id}` references: ERROR for an entry that is not an object. */
static bool s_json_references(struct anvil__asm *a, struct anvil_str_view shape, const struct anvil_json *list) {
    if (!anvil_json_is_array(list)) {
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, shape, "Model", "Expected array, but found %s.",
                         anvil__asm_json_kind(list));
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(list); i++) {
        const struct anvil_json *ref = anvil_json_array_at(list, i);
        if (!anvil_json_is_object(ref)) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, shape, "Model", "Expected object, but found %s.",
                             anvil__asm_json_kind(ref));
            return false;
        }
    }
    return true;
}

static void s_json_member(struct anvil__asm *a, struct anvil__asm_shape *s, struct anvil_str_view name,
                          const struct anvil_json *def) {
    if (!anvil__identifier_valid(name)) { /* Smithy builds `Shape$member` and its id parser refuses it */
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Invalid shape ID: %.*s$%.*s",
                         (int)(s->id.len < 200 ? s->id.len : 200), s->id.ptr, (int)(name.len < 200 ? name.len : 200),
                         name.ptr);
        return;
    }
    if (!anvil__asm_grow32(a, a->scratch, (void **)&s->members, s->member_count, &s->member_cap, sizeof(*s->members),
                           s->member_cap ? (size_t)s->member_cap * 2 : 4)) {
        return;
    }
    struct anvil__asm_member *m = &s->members[s->member_count++];
    memset(m, 0, sizeof(*m));
    m->name = name;
    m->target = anvil_json_string(anvil_json_object_get_cstr(def, "target"));
    const struct anvil_json *traits = anvil_json_object_get_cstr(def, "traits");
    struct anvil_str_view member_id = anvil__asm_member_id(a, s->id, name);
    anvil__asm_json_props(a, member_id, def, s_member_props);
    s_json_traits(a, member_id, s->file, traits, &m->traits);
}

void anvil__asm_json_shape(struct anvil__asm *a, struct anvil__asm_shape *s) {
    const struct anvil_json *def = s->json;
    struct anvil__asm_obj props = {0};
    for (size_t i = 0; i < anvil_json_len(def) && !a->error; i++) {
        const struct anvil_json_member *e = anvil_json_object_at(def, i);
        struct anvil_str_view key = anvil_json_member_key(e);
        if (anvil_sv_eq_cstr(key, "type")) {
            continue;
        }
        if (!s_listed(s_props_of(s->type), key)) {
            continue; /* warned about below, and dropped as Smithy drops it */
        }
        if (anvil_sv_eq_cstr(key, "traits")) {
            s_json_traits(a, s->id, s->file, &e->value, &s->traits);
        } else if ((anvil_sv_eq_cstr(key, "input") || anvil_sv_eq_cstr(key, "output")) &&
                   !anvil_json_is_object(&e->value)) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Expected `%.*s` to be an object; found %s",
                             (int)key.len, key.ptr, anvil__asm_json_kind(&e->value));
        } else if (anvil_sv_eq_cstr(key, "errors") && !s_json_references(a, s->id, &e->value)) {
            continue;
        } else if (anvil_sv_eq_cstr(key, "members")) {
            for (size_t k = 0; k < anvil_json_len(&e->value); k++) {
                const struct anvil_json_member *m = anvil_json_object_at(&e->value, k);
                s_json_member(a, s, anvil_json_member_key(m), &m->value);
            }
        } else if ((anvil_sv_eq_cstr(key, "member") || anvil_sv_eq_cstr(key, "key") ||
                    anvil_sv_eq_cstr(key, "value")) &&
                   s->type >= ANVIL_SHAPE_LIST && s->type <= ANVIL_SHAPE_MAP) {
            s_json_member(a, s, key, &e->value);
        } else if (anvil_sv_eq_cstr(key, "mixins")) {
            size_t n = anvil_json_len(&e->value);
            s->mixins = anvil__asm_alloc(a, (n + 1) * sizeof(*s->mixins));
            for (size_t k = 0; s->mixins && k < n; k++) {
                s->mixins[k] =
                    anvil_json_string(anvil_json_object_get_cstr(anvil_json_array_at(&e->value, k), "target"));
            }
            s->mixin_count = s->mixins ? (uint32_t)n : 0;
        } else {
            anvil__asm_put(a, &props, key, &e->value);
        }
    }
    s->props = anvil__asm_obj_finish(a, &props);
    anvil__asm_json_props(a, s->id, def, s_props_of(s->type));
}

void anvil__asm_json_applies(struct anvil__asm *a, const struct anvil_json *root, const struct anvil__idl_file *file) {
    const struct anvil_json *shapes = anvil_json_object_get_cstr(root, "shapes");
    for (size_t i = 0; i < anvil_json_len(shapes) && !a->error; i++) {
        const struct anvil_json_member *e = anvil_json_object_at(shapes, i);
        if (!anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(&e->value, "type")), "apply")) {
            continue;
        }
        struct anvil_str_view target = anvil_json_member_key(e);
        struct anvil__asm_traits traits = {0};
        s_json_traits(a, target, file, anvil_json_object_get_cstr(&e->value, "traits"), &traits);
        anvil__asm_apply(a, target, &traits);
    }
}
