/*
 * Model assembly: any number of IDL and JSON AST files -> one JSON AST ->
 * one model, the way Smithy's loader merges them.
 *
 * Every file is read first, then every shape id is known, so relative ids
 * resolve late (use -> the namespace anywhere in the assembly -> prelude).
 * Each shape becomes a record with its traits as a list, so `apply`, a
 * second definition and doc comments all merge by Smithy's rules (arrays
 * concatenate, equal values are kept once, anything else conflicts). IDL
 * and JSON AST shapes are written back through the same code, so both
 * spellings of one model give the same AST: operations always name their
 * input and output (Unit when absent), enum members always carry their
 * value, annotation traits are coerced, and IDL 1.0 shapes are upgraded
 * with the defaults 1.0 implied.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/idl_internal.h"
#include "model/model_internal.h"
#include "model/validate_internal.h"
#include "json/json_internal.h"

struct s_trait {
    struct anvil_str_view id;
    struct anvil_json value;
};

struct s_traits {
    struct s_trait *items;
    size_t count, cap;
};

struct s_member {
    struct anvil_str_view name;
    struct anvil_str_view target; /* absolute; empty while an elided target is unknown */
    struct s_traits traits;
    bool elided;
};

struct s_shape {
    struct anvil_str_view id;
    enum anvil_shape_type type;
    int version;
    const struct anvil__idl_file *file; /* IDL source (NULL for JSON) */
    const struct anvil__idl_shape *idl;
    const struct anvil_json *json; /* JSON AST definition */
    const char *json_name;         /* its file's name */
    struct s_traits traits;
    struct s_member *members;
    size_t member_count, member_cap;
    struct anvil_str_view *mixins;
    size_t mixin_count;
    struct anvil_str_view for_resource;
    /* Service, resource and operation properties, already in JSON AST form. */
    struct anvil_json props;
    bool elision_done, elision_busy;
    /* Smithy would not build it: wrong list/map members, or a mixin that is missing or not built. 0 = not
     * known yet, 1 = being decided, 2 = fine, 3 = broken. */
    unsigned char broken;
    bool in_cycle; /* part of a mixin cycle (said once, by s_mixin_cycle) */
    size_t dup_of; /* 1 + the index of the first definition of the same id; 0 when first */
};

/* A syntactic shape id in a node value that named no shape when it was read. */
struct s_syntactic {
    struct anvil_str_view text, id;
    struct anvil_str_view root; /* id without its `$member` */
};

/* Traits applied to a member the shape inherits from a mixin: kept as an `apply` entry. */
struct s_member_apply {
    struct anvil_str_view id; /* ns#Shape$member */
    struct s_traits traits;
};

struct s_asm {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena; /* the AST document's */
    struct anvil_arena *scratch;
    struct anvil_events *events;
    struct anvil_diag *diag;
    struct s_shape *shapes;
    size_t count, cap;
    uint32_t *slots; /* shape index + 1 by id hash */
    size_t mask;
    struct s_trait *metadata; /* key -> value, merged */
    size_t metadata_count, metadata_cap;
    struct s_member_apply *member_applies;
    size_t member_apply_count, member_apply_cap;
    struct s_syntactic *syntactic;
    size_t syntactic_count, syntactic_cap;
    struct s_shape **path; /* the mixin chain s_broken is deciding */
    size_t path_len, path_cap;
    int error;
};

static void s_event(struct s_asm *a, enum anvil_severity severity, struct anvil_str_view shape, const char *event_id,
                    const char *fmt, ...) ANVIL_PRINTF(5, 6);

static void s_event(struct s_asm *a, enum anvil_severity severity, struct anvil_str_view shape, const char *event_id,
                    const char *fmt, ...) {
    char message[2048];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    anvil__event_add(a->events, severity, shape, event_id, "%s", message);
}

static void *s_alloc(struct s_asm *a, size_t size) {
    void *p = anvil_arena_alloc(a->scratch, size ? size : 1, 0);
    if (!p) {
        a->error = ANVIL_ENOMEM;
    }
    return p;
}

static bool s_grow(struct s_asm *a, void **items, size_t count, size_t *cap, size_t size) {
    if (count < *cap) {
        return true;
    }
    size_t grown = *cap ? *cap * 2 : 4;
    void *bigger = s_alloc(a, grown * size);
    if (!bigger) {
        return false;
    }
    if (count) {
        memcpy(bigger, *items, count * size);
    }
    *items = bigger;
    *cap = grown;
    return true;
}

static struct anvil_str_view s_concat(struct s_asm *a, struct anvil_str_view x, const char *sep,
                                      struct anvil_str_view y) {
    size_t n = strlen(sep);
    char *out = anvil_arena_alloc(a->arena, x.len + n + y.len + 1, 1);
    if (!out) {
        a->error = ANVIL_ENOMEM;
        return anvil_sv("", 0);
    }
    memcpy(out, x.ptr, x.len);
    memcpy(out + x.len, sep, n);
    memcpy(out + x.len + n, y.ptr, y.len);
    out[x.len + n + y.len] = '\0';
    return anvil_sv(out, x.len + n + y.len);
}

/* ---- the shape index ---- */

static struct s_shape *s_find(struct s_asm *a, struct anvil_str_view id) {
    if (!a->slots) {
        return NULL;
    }
    for (size_t i = anvil_json_hash(id.ptr, id.len) & a->mask; a->slots[i]; i = (i + 1) & a->mask) {
        struct s_shape *s = &a->shapes[a->slots[i] - 1];
        if (anvil_sv_eq(s->id, id)) {
            return s;
        }
    }
    return NULL;
}

static int s_index(struct s_asm *a) {
    size_t size = 64;
    while (size < a->count * 2) {
        size *= 2;
    }
    a->slots = s_alloc(a, size * sizeof(*a->slots));
    if (!a->slots) {
        return ANVIL_ENOMEM;
    }
    memset(a->slots, 0, size * sizeof(*a->slots));
    a->mask = size - 1;
    for (size_t k = 0; k < a->count; k++) {
        struct s_shape *s = &a->shapes[k];
        size_t i = anvil_json_hash(s->id.ptr, s->id.len) & a->mask;
        while (a->slots[i] && !anvil_sv_eq(a->shapes[a->slots[i] - 1].id, s->id)) {
            i = (i + 1) & a->mask;
        }
        if (a->slots[i]) {
            s->dup_of = a->slots[i];
        } else {
            a->slots[i] = (uint32_t)k + 1;
        }
    }
    return ANVIL_OK;
}

/* ---- trait lists and their merge rules ---- */

static struct s_trait *s_trait_find(struct s_traits *traits, struct anvil_str_view id) {
    for (size_t i = 0; i < traits->count; i++) {
        if (anvil_sv_eq(traits->items[i].id, id)) {
            return &traits->items[i];
        }
    }
    return NULL;
}

static int s_concat_arrays(struct s_asm *a, const struct anvil_json *x, const struct anvil_json *y,
                           struct anvil_json *out) {
    struct anvil_json *items;
    size_t nx = anvil_json_len(x), ny = anvil_json_len(y);
    if (anvil_json_new_array(a->arena, nx + ny, out, &items) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < nx; i++) {
        items[i] = *anvil_json_array_at(x, i);
    }
    for (size_t i = 0; i < ny; i++) {
        items[nx + i] = *anvil_json_array_at(y, i);
    }
    return ANVIL_OK;
}

/* Adds trait `id` = `value` to `traits`, merging with one already there (Smithy's conflict rules). */
static void s_trait_add(struct s_asm *a, struct anvil_str_view target, struct s_traits *traits,
                        struct anvil_str_view id, const struct anvil_json *value) {
    struct s_trait *old = s_trait_find(traits, id);
    if (old) {
        if (anvil_json_is_array(&old->value) && anvil_json_is_array(value)) {
            struct anvil_json merged;
            if (s_concat_arrays(a, &old->value, value, &merged) != ANVIL_OK) {
                a->error = ANVIL_ENOMEM;
                return;
            }
            old->value = merged;
        } else if (!anvil_json_equal(&old->value, value)) {
            s_event(a, ANVIL_SEVERITY_ERROR, target, "Model",
                    "Conflicting `%.*s` trait found on shape `%.*s`. The previous trait was defined at `%s`, and a "
                    "conflicting trait was defined at `%s`.",
                    (int)id.len, id.ptr, (int)target.len, target.ptr, "-", "-");
        }
        return;
    }
    if (!s_grow(a, (void **)&traits->items, traits->count, &traits->cap, sizeof(*traits->items))) {
        return;
    }
    traits->items[traits->count].id = id;
    traits->items[traits->count].value = *value;
    traits->count++;
}

/* ---- resolving relative ids ---- */

static bool s_defined(struct s_asm *a, struct anvil_str_view id) {
    return s_find(a, id) != NULL;
}

/*
 * The absolute id `text` names in `file`: `use` first, then the file's
 * namespace if any file defines the shape there, then the prelude, else the
 * namespace's (broken) id. `*found` says whether it names a known shape.
 */
static struct anvil_str_view s_resolve(struct s_asm *a, const struct anvil__idl_file *file, struct anvil_str_view text,
                                       bool *found) {
    size_t dollar = anvil_sv_find_byte(text, 0, '$');
    struct anvil_str_view root = dollar == SIZE_MAX ? text : anvil_sv_slice(text, 0, dollar);
    struct anvil_str_view member = dollar == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(text, dollar, SIZE_MAX);
    struct anvil_str_view out;
    bool known = false;
    if (anvil_sv_find_byte(root, 0, '#') != SIZE_MAX) {
        out = root;
        struct anvil_str_view name = anvil_sv_slice(root, anvil_sv_find_byte(root, 0, '#') + 1, SIZE_MAX);
        known = s_defined(a, root) ||
                (anvil_sv_starts_with(root, anvil_sv_from_cstr("smithy.api#")) && anvil__prelude_type(name, NULL));
    } else {
        out.len = 0;
        for (size_t i = 0; file && i < file->use_count && !out.len; i++) {
            if (anvil_sv_eq(file->uses[i].name, root)) {
                out = file->uses[i].id;
                known = s_defined(a, out);
            }
        }
        if (!out.len && file && file->ns.len) {
            struct anvil_str_view local = s_concat(a, file->ns, "#", root);
            if (s_defined(a, local)) {
                out = local;
                known = true;
            } else if (anvil__prelude_type(root, NULL)) {
                out = s_concat(a, anvil_sv_from_cstr("smithy.api"), "#", root);
                known = true;
            } else {
                out = local;
            }
        } else if (!out.len) {
            out = s_concat(a, anvil_sv_from_cstr("smithy.api"), "#", root);
            known = anvil__prelude_type(root, NULL);
        }
    }
    if (found) {
        *found = known;
    }
    return member.len ? s_concat(a, out, "", member) : out;
}

/* The type of the shape `id` names (a model shape or the prelude), or false when unknown. */
static bool s_type_of(struct s_asm *a, struct anvil_str_view id, enum anvil_shape_type *type) {
    struct s_shape *s = s_find(a, id);
    if (s) {
        *type = s->type;
        return true;
    }
    return anvil_sv_starts_with(id, anvil_sv_from_cstr("smithy.api#")) &&
           anvil__prelude_type(anvil_sv_slice(id, 11, SIZE_MAX), type);
}

/* ---- IDL node values -> JSON ---- */

static int s_node_json(struct s_asm *a, const struct anvil__idl_file *file, const struct anvil__idl_node *node,
                       struct anvil_str_view context, struct anvil_json *out);

static int s_number(struct s_asm *a, struct anvil_str_view text, struct anvil_json *out) {
    bool integral = anvil_sv_find_byte(text, 0, '.') == SIZE_MAX && anvil_sv_find_byte(text, 0, 'e') == SIZE_MAX &&
                    anvil_sv_find_byte(text, 0, 'E') == SIZE_MAX;
    if (integral && text.len < 19) {
        int64_t v = 0;
        size_t i = text.ptr[0] == '-';
        for (; i < text.len; i++) {
            v = v * 10 + (text.ptr[i] - '0');
        }
        *out = anvil_json_make_int(text.ptr[0] == '-' ? -v : v);
        return ANVIL_OK;
    }
    double d;
    if (anvil__json_strtod(a->allocator, text.ptr, text.len, &d) != ANVIL_OK ||
        anvil_json_make_double_checked(d, out) != ANVIL_OK) {
        *out = anvil_json_make_null();
        return ANVIL_EVALUE;
    }
    return ANVIL_OK;
}

static int s_string(struct s_asm *a, struct anvil_str_view s, struct anvil_json *out) {
    return anvil_json_new_string(a->arena, s.ptr ? s.ptr : "", s.len, out);
}

static int s_node_json(struct s_asm *a, const struct anvil__idl_file *file, const struct anvil__idl_node *node,
                       struct anvil_str_view context, struct anvil_json *out) {
    switch (node->kind) {
    case ANVIL__NODE_NULL:
        *out = anvil_json_make_null();
        return ANVIL_OK;
    case ANVIL__NODE_TRUE:
    case ANVIL__NODE_FALSE:
        *out = anvil_json_make_bool(node->kind == ANVIL__NODE_TRUE);
        return ANVIL_OK;
    case ANVIL__NODE_NUMBER:
        return s_number(a, node->text, out);
    case ANVIL__NODE_STRING:
        return s_string(a, node->text, out);
    case ANVIL__NODE_SHAPE_ID: {
        bool found;
        struct anvil_str_view id = s_resolve(a, file, node->text, &found);
        if (!found && s_grow(a, (void **)&a->syntactic, a->syntactic_count, &a->syntactic_cap, sizeof(*a->syntactic))) {
            size_t dollar = anvil_sv_find_byte(id, 0, '$');
            struct anvil_str_view root = dollar == SIZE_MAX ? id : anvil_sv_slice(id, 0, dollar);
            a->syntactic[a->syntactic_count++] = (struct s_syntactic){node->text, id, root};
        }
        return s_string(a, id, out);
    }
    case ANVIL__NODE_ARRAY: {
        struct anvil_json *items;
        if (anvil_json_new_array(a->arena, node->count, out, &items) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        for (size_t i = 0; i < node->count; i++) {
            int rc = s_node_json(a, file, &node->u.items[i], context, &items[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        return ANVIL_OK;
    }
    default: {
        struct anvil_json_member *members =
            anvil_mem_acquire(a->allocator, (node->count ? node->count : 1) * sizeof(*members));
        if (!members) {
            return ANVIL_ENOMEM;
        }
        int rc = ANVIL_OK;
        for (size_t i = 0; i < node->count && rc == ANVIL_OK; i++) {
            struct anvil_str_view key = node->u.entries[i].key;
            members[i].key = anvil__json_key_new(a->arena, key.ptr ? key.ptr : "", key.len,
                                                 anvil_json_hash(key.ptr ? key.ptr : "", key.len));
            rc = members[i].key ? s_node_json(a, file, &node->u.entries[i].value, context, &members[i].value)
                                : ANVIL_ENOMEM;
        }
        size_t unused;
        if (rc == ANVIL_OK) {
            rc = anvil__json_object_finish(a->arena, a->allocator, members, node->count, false, &unused, out);
        }
        anvil_mem_release(a->allocator, members);
        return rc;
    }
    }
}

static int s_view_qcmp(const void *x, const void *y) {
    return anvil_sv_cmp(*(const struct anvil_str_view *)x, *(const struct anvil_str_view *)y);
}

static void s_trait_ids_add(struct s_asm *a, const struct s_traits *traits, struct anvil_str_view **ids, size_t *count,
                            size_t *cap) {
    for (size_t i = 0; i < traits->count; i++) {
        if (s_grow(a, (void **)ids, *count, cap, sizeof(**ids))) {
            (*ids)[(*count)++] = traits->items[i].id;
        }
    }
}

/*
 * A trait must be a trait: a shape of the model applied as a trait needs
 * @trait (Smithy's validateTraitWithTraitDefinition). Traits the model does
 * not define are not checked: anvil takes them as defined elsewhere.
 */
/* Every trait id the model applies, sorted and without repeats, in `*out` (scratch memory). */
static size_t s_applied_traits(struct s_asm *a, struct anvil_str_view **out) {
    struct anvil_str_view *ids = NULL;
    size_t count = 0, cap = 0;
    for (size_t i = 0; i < a->count; i++) {
        const struct s_shape *s = &a->shapes[i];
        s_trait_ids_add(a, &s->traits, &ids, &count, &cap);
        for (size_t m = 0; m < s->member_count; m++) {
            s_trait_ids_add(a, &s->members[m].traits, &ids, &count, &cap);
        }
    }
    for (size_t i = 0; i < a->member_apply_count; i++) {
        s_trait_ids_add(a, &a->member_applies[i].traits, &ids, &count, &cap);
    }
    size_t unique = 0;
    if (count > 0) {
        qsort(ids, count, sizeof(*ids), s_view_qcmp);
        for (size_t i = 0; i < count; i++) {
            if (unique == 0 || !anvil_sv_eq(ids[i], ids[unique - 1])) {
                ids[unique++] = ids[i];
            }
        }
    }
    *out = ids;
    return unique;
}

/*
 * Whether `id` (no member) names a shape: defined, in the prelude, or a trait
 * the model applies. anvil, unlike Smithy, needs no definition to apply a
 * trait (the AWS models carry none), so an applied trait is as known as a
 * defined shape: `@auth([sigv4])` with `use aws.auth#sigv4` is fine.
 */
static bool s_known_id(struct s_asm *a, struct anvil_str_view id, const struct anvil_str_view *traits,
                       size_t trait_count) {
    return s_defined(a, id) || (trait_count && bsearch(&id, traits, trait_count, sizeof(*traits), s_view_qcmp)) ||
           (anvil_sv_starts_with(id, anvil_sv_from_cstr("smithy.api#")) &&
            anvil__prelude_type(anvil_sv_slice(id, 11, SIZE_MAX), NULL));
}

/* The syntactic shape ids that named no shape when read and still do not: a DANGER, as Smithy says it. */
static void s_syntactic_check(struct s_asm *a, const struct anvil_str_view *traits, size_t trait_count) {
    for (size_t i = 0; i < a->syntactic_count; i++) {
        const struct s_syntactic *p = &a->syntactic[i];
        if (!s_known_id(a, p->root, traits, trait_count)) {
            /* Smithy gives the event no shape: it is about the value, wherever it is. */
            s_event(a, ANVIL_SEVERITY_DANGER, anvil_sv("", 0), "SyntacticShapeIdTarget",
                    "Syntactic shape ID `%.*s` does not resolve to a valid shape ID: `%.*s`. Did you mean to quote "
                    "this string? Are you missing a model file?",
                    (int)p->text.len, p->text.ptr, (int)p->id.len, p->id.ptr);
        }
    }
}

static void s_trait_shapes_check(struct s_asm *a, const struct anvil_str_view *ids, size_t count) {
    for (size_t i = 0; i < count; i++) {
        struct s_shape *t = s_find(a, ids[i]);
        if (t && !s_trait_find(&t->traits, ANVIL_SV("smithy.api#trait"))) {
            s_event(a, ANVIL_SEVERITY_ERROR, ids[i], "Model",
                    "Shape `%.*s` cannot be applied as a trait. If this is a custom trait, please add `@trait` to "
                    "this shape.",
                    (int)ids[i].len, ids[i].ptr);
        }
    }
}

/* ---- objects built member by member ---- */

struct s_obj {
    struct anvil_json_member *items;
    size_t count, cap;
};

static void s_put(struct s_asm *a, struct s_obj *obj, struct anvil_str_view key, const struct anvil_json *value) {
    if (!s_grow(a, (void **)&obj->items, obj->count, &obj->cap, sizeof(*obj->items))) {
        return;
    }
    const struct anvil_json_key *k = anvil__json_key_new(a->arena, key.ptr, key.len, anvil_json_hash(key.ptr, key.len));
    if (!k) {
        a->error = ANVIL_ENOMEM;
        return;
    }
    obj->items[obj->count].key = k;
    obj->items[obj->count].value = *value;
    obj->count++;
}

static void s_put_cstr(struct s_asm *a, struct s_obj *obj, const char *key, const struct anvil_json *value) {
    s_put(a, obj, anvil_sv_from_cstr(key), value);
}

static struct anvil_json s_obj_finish(struct s_asm *a, struct s_obj *obj) {
    struct anvil_json out = *anvil__json_empty_object();
    size_t unused;
    if (!a->error && obj->count &&
        anvil__json_object_finish(a->arena, a->allocator, obj->items, obj->count, false, &unused, &out) != ANVIL_OK) {
        a->error = ANVIL_ENOMEM;
    }
    return out;
}

static struct anvil_json s_str(struct s_asm *a, struct anvil_str_view s) {
    struct anvil_json v = anvil_json_make_null();
    if (s_string(a, s, &v) != ANVIL_OK) {
        a->error = ANVIL_ENOMEM;
    }
    return v;
}

/* {"target": id} */
static struct anvil_json s_target_ref(struct s_asm *a, struct anvil_str_view id) {
    struct s_obj obj = {0};
    struct anvil_json v = s_str(a, id);
    s_put_cstr(a, &obj, "target", &v);
    return s_obj_finish(a, &obj);
}

static struct anvil_json s_traits_json(struct s_asm *a, const struct s_traits *traits) {
    struct s_obj obj = {0};
    for (size_t i = 0; i < traits->count; i++) {
        s_put(a, &obj, traits->items[i].id, &traits->items[i].value);
    }
    return s_obj_finish(a, &obj);
}

/* ---- reading files into shape records ---- */

static struct s_shape *s_new_shape(struct s_asm *a, struct anvil_str_view id, enum anvil_shape_type type, int version) {
    if (!s_grow(a, (void **)&a->shapes, a->count, &a->cap, sizeof(*a->shapes))) {
        return NULL;
    }
    struct s_shape *s = &a->shapes[a->count++];
    memset(s, 0, sizeof(*s));
    s->id = id;
    s->type = type;
    s->version = version;
    s->props = *anvil__json_empty_object();
    return s;
}

static bool s_type_named(struct anvil_str_view name, enum anvil_shape_type *out) {
    for (int t = ANVIL_SHAPE_BLOB; t <= ANVIL_SHAPE_OPERATION; t++) {
        if (anvil_sv_eq_cstr(name, anvil_shape_type_name((enum anvil_shape_type)t))) {
            *out = (enum anvil_shape_type)t;
            return true;
        }
    }
    return false;
}

/* A trait read from a file, checked against the file's version and added. */
static void s_add_trait(struct s_asm *a, struct anvil_str_view target, int version, struct s_traits *traits,
                        struct anvil_str_view id, const struct anvil_json *value) {
    if (version < 2 && anvil_sv_eq_cstr(id, "smithy.api#mixin")) {
        s_event(a, ANVIL_SEVERITY_ERROR, target, "Model",
                "Mixins can only be used in Smithy 2.0 or later. Attempted to apply a @mixin trait to `%.*s` in a "
                "model file using version `1.0`.",
                (int)target.len, target.ptr);
    } else if (version < 2 && anvil_sv_eq_cstr(id, "smithy.api#default")) {
        s_event(a, ANVIL_SEVERITY_ERROR, target, "Model", "The @default trait can only be used in Smithy 2.0 or later");
    } else if (version >= 2 && anvil_sv_eq_cstr(id, "smithy.api#box")) {
        s_event(a, ANVIL_SEVERITY_ERROR, target, "Model", "@box is not supported in Smithy IDL 2.0");
    }
    s_trait_add(a, target, traits, id, value);
}

static void s_idl_traits(struct s_asm *a, const struct anvil__idl_file *file, struct anvil_str_view target,
                         const struct anvil__idl_trait *items, size_t count, struct s_traits *traits) {
    for (size_t i = 0; i < count && !a->error; i++) {
        const struct anvil__idl_trait *t = &items[i];
        struct anvil_str_view id = t->doc_comment || anvil_sv_find_byte(t->id.text, 0, '#') != SIZE_MAX
                                       ? t->id.text
                                       : s_resolve(a, file, t->id.text, NULL);
        struct anvil_json value;
        if (t->annotation) {
            enum anvil_shape_type type = ANVIL_SHAPE_STRUCTURE;
            bool known = s_type_of(a, id, &type);
            if (!known || type == ANVIL_SHAPE_STRUCTURE || type == ANVIL_SHAPE_MAP) {
                value = *anvil__json_empty_object();
            } else if (type == ANVIL_SHAPE_LIST || type == ANVIL_SHAPE_SET) {
                struct anvil_json *unused;
                if (anvil_json_new_array(a->arena, 0, &value, &unused) != ANVIL_OK) {
                    a->error = ANVIL_ENOMEM;
                    return;
                }
            } else {
                value = anvil_json_make_null();
            }
        } else if (s_node_json(a, file, &t->value, target, &value) == ANVIL_ENOMEM) {
            a->error = ANVIL_ENOMEM;
            return;
        }
        s_add_trait(a, target, file->version, traits, id, &value);
    }
}

/* Service and resource bodies in JSON AST form: ids resolved, lists of {"target"}. */
static struct anvil_json s_body_json(struct s_asm *a, const struct anvil__idl_file *file,
                                     const struct anvil__idl_node *body) {
    static const char *const single[] = {"create", "put", "read", "update", "delete", "list", NULL};
    static const char *const lists[] = {"operations", "resources", "errors", "collectionOperations", NULL};
    struct s_obj obj = {0};
    for (size_t i = 0; i < body->count && !a->error; i++) {
        const struct anvil__idl_entry *e = &body->u.entries[i];
        const struct anvil__idl_node *v = &e->value;
        bool is_id = v->kind == ANVIL__NODE_SHAPE_ID || v->kind == ANVIL__NODE_STRING;
        bool done = false;
        for (size_t k = 0; single[k] && !done; k++) {
            if (anvil_sv_eq_cstr(e->key, single[k]) && is_id) {
                struct anvil_json ref = s_target_ref(a, s_resolve(a, file, v->text, NULL));
                s_put(a, &obj, e->key, &ref);
                done = true;
            }
        }
        for (size_t k = 0; lists[k] && !done; k++) {
            if (anvil_sv_eq_cstr(e->key, lists[k]) && v->kind == ANVIL__NODE_ARRAY) {
                struct anvil_json list, *items;
                if (anvil_json_new_array(a->arena, v->count, &list, &items) != ANVIL_OK) {
                    a->error = ANVIL_ENOMEM;
                    return list;
                }
                for (size_t j = 0; j < v->count; j++) {
                    items[j] = s_target_ref(a, s_resolve(a, file, v->u.items[j].text, NULL));
                }
                s_put(a, &obj, e->key, &list);
                done = true;
            }
        }
        if (!done && (anvil_sv_eq_cstr(e->key, "identifiers") || anvil_sv_eq_cstr(e->key, "properties")) &&
            v->kind == ANVIL__NODE_OBJECT) {
            struct s_obj inner = {0};
            for (size_t j = 0; j < v->count; j++) {
                struct anvil_json ref = s_target_ref(a, s_resolve(a, file, v->u.entries[j].value.text, NULL));
                s_put(a, &inner, v->u.entries[j].key, &ref);
            }
            struct anvil_json value = s_obj_finish(a, &inner);
            s_put(a, &obj, e->key, &value);
            done = true;
        }
        if (!done) {
            struct anvil_json value;
            if (s_node_json(a, file, v, anvil_sv("", 0), &value) == ANVIL_ENOMEM) {
                a->error = ANVIL_ENOMEM;
                return value;
            }
            s_put(a, &obj, e->key, &value);
        }
    }
    return s_obj_finish(a, &obj);
}

static void s_idl_shape(struct s_asm *a, const struct anvil__idl_file *file, struct s_shape *s) {
    const struct anvil__idl_shape *d = s->idl;
    s_idl_traits(a, file, s->id, d->traits, d->trait_count, &s->traits);
    s->mixins = s_alloc(a, (d->mixin_count + 1) * sizeof(*s->mixins));
    if (!s->mixins) {
        return;
    }
    for (size_t i = 0; i < d->mixin_count; i++) {
        s->mixins[i] = s_resolve(a, file, d->mixins[i].text, NULL);
    }
    s->mixin_count = d->mixin_count;
    if (d->for_resource.text.len) {
        s->for_resource = s_resolve(a, file, d->for_resource.text, NULL);
    }
    s->members = s_alloc(a, (d->member_count + 1) * sizeof(*s->members));
    if (!s->members) {
        return;
    }
    s->member_cap = d->member_count + 1;
    for (size_t i = 0; i < d->member_count && !a->error; i++) {
        const struct anvil__idl_member *dm = &d->members[i];
        struct s_member *m = &s->members[s->member_count++];
        memset(m, 0, sizeof(*m));
        m->name = dm->name;
        m->elided = dm->target.text.len == 0;
        if (!m->elided) {
            m->target = anvil_sv_find_byte(dm->target.text, 0, '#') != SIZE_MAX
                            ? dm->target.text
                            : s_resolve(a, file, dm->target.text, NULL);
        }
        s_idl_traits(a, file, s_concat(a, s->id, "$", m->name), dm->traits, dm->trait_count, &m->traits);
    }
    if (s->type == ANVIL_SHAPE_SERVICE || s->type == ANVIL_SHAPE_RESOURCE) {
        s->props = s_body_json(a, file, &d->body);
    } else if (s->type == ANVIL_SHAPE_OPERATION) {
        struct s_obj obj = {0};
        if (d->has_input) {
            struct anvil_json ref = s_target_ref(a, s_resolve(a, file, d->input.text, NULL));
            s_put_cstr(a, &obj, "input", &ref);
        }
        if (d->has_output) {
            struct anvil_json ref = s_target_ref(a, s_resolve(a, file, d->output.text, NULL));
            s_put_cstr(a, &obj, "output", &ref);
        }
        if (d->has_errors) {
            struct anvil_json list, *items;
            if (anvil_json_new_array(a->arena, d->error_count, &list, &items) != ANVIL_OK) {
                a->error = ANVIL_ENOMEM;
                return;
            }
            for (size_t j = 0; j < d->error_count; j++) {
                items[j] = s_target_ref(a, s_resolve(a, file, d->errors[j].text, NULL));
            }
            s_put_cstr(a, &obj, "errors", &list);
        }
        s->props = s_obj_finish(a, &obj);
    }
}

/* ---- JSON AST definitions: what Smithy's JsonAstLoader accepts, warns about and rejects ---- */

static const char *const s_top_props[] = {"metadata", "shapes", "smithy", NULL};
static const char *const s_apply_props[] = {"traits", "type", NULL};
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
static void s_json_props(struct s_asm *a, struct anvil_str_view shape, const struct anvil_json *obj,
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
    s_event(a, ANVIL_SEVERITY_WARNING, shape, "Model", "%s", message);
}

/* Node types as Smithy's AstReader.describe names them. */
static const char *s_json_kind(const struct anvil_json *v) {
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
static void s_json_traits(struct s_asm *a, struct anvil_str_view owner, int version, const struct anvil_json *traits,
                          struct s_traits *out) {
    for (size_t i = 0; i < anvil_json_len(traits) && anvil_json_is_object(traits); i++) {
        const struct anvil_json_member *t = anvil_json_object_at(traits, i);
        struct anvil_str_view id = anvil_json_member_key(t);
        if (!anvil__shape_id_valid(id)) {
            size_t hash = anvil_sv_find_byte(owner, 0, '$');
            s_event(a, ANVIL_SEVERITY_ERROR, hash == SIZE_MAX ? owner : anvil_sv_slice(owner, 0, hash), "Model",
                    "Invalid shape ID: %.*s", (int)(id.len < 200 ? id.len : 200), id.ptr);
            continue;
        }
        s_add_trait(a, owner, version, out, id, &t->value);
    }
}

/* A list of `{"target": id}` references: ERROR for an entry that is not an object. */
static bool s_json_references(struct s_asm *a, struct anvil_str_view shape, const struct anvil_json *list) {
    if (!anvil_json_is_array(list)) {
        s_event(a, ANVIL_SEVERITY_ERROR, shape, "Model", "Expected array, but found %s.", s_json_kind(list));
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(list); i++) {
        const struct anvil_json *ref = anvil_json_array_at(list, i);
        if (!anvil_json_is_object(ref)) {
            s_event(a, ANVIL_SEVERITY_ERROR, shape, "Model", "Expected object, but found %s.", s_json_kind(ref));
            return false;
        }
    }
    return true;
}

static void s_json_member(struct s_asm *a, struct s_shape *s, struct anvil_str_view name,
                          const struct anvil_json *def) {
    if (!s_grow(a, (void **)&s->members, s->member_count, &s->member_cap, sizeof(*s->members))) {
        return;
    }
    struct s_member *m = &s->members[s->member_count++];
    memset(m, 0, sizeof(*m));
    m->name = name;
    m->target = anvil_json_string(anvil_json_object_get_cstr(def, "target"));
    const struct anvil_json *traits = anvil_json_object_get_cstr(def, "traits");
    struct anvil_str_view member_id = s_concat(a, s->id, "$", name);
    s_json_props(a, member_id, def, s_member_props);
    s_json_traits(a, member_id, s->version, traits, &m->traits);
}

static void s_json_shape(struct s_asm *a, struct s_shape *s) {
    const struct anvil_json *def = s->json;
    struct s_obj props = {0};
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
            s_json_traits(a, s->id, s->version, &e->value, &s->traits);
        } else if ((anvil_sv_eq_cstr(key, "input") || anvil_sv_eq_cstr(key, "output")) &&
                   !anvil_json_is_object(&e->value)) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Expected `%.*s` to be an object; found %s", (int)key.len,
                    key.ptr, s_json_kind(&e->value));
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
            s->mixins = s_alloc(a, (n + 1) * sizeof(*s->mixins));
            for (size_t k = 0; s->mixins && k < n; k++) {
                s->mixins[k] =
                    anvil_json_string(anvil_json_object_get_cstr(anvil_json_array_at(&e->value, k), "target"));
            }
            s->mixin_count = s->mixins ? n : 0;
        } else {
            s_put(a, &props, key, &e->value);
        }
    }
    s->props = s_obj_finish(a, &props);
    s_json_props(a, s->id, def, s_props_of(s->type));
}

/* ---- elided member targets (`$name`): from the `for` resource, then the mixins ---- */

static void s_elide(struct s_asm *a, struct s_shape *s, size_t depth);

static struct anvil_str_view s_member_lookup(struct s_asm *a, struct s_shape *s, struct anvil_str_view name,
                                             size_t depth) {
    if (depth > 256) {
        return anvil_sv("", 0);
    }
    s_elide(a, s, depth + 1);
    for (size_t i = 0; i < s->member_count; i++) {
        if (anvil_sv_eq(s->members[i].name, name) && s->members[i].target.len) {
            return s->members[i].target;
        }
    }
    for (size_t i = 0; i < s->mixin_count; i++) {
        struct s_shape *m = s_find(a, s->mixins[i]);
        struct anvil_str_view t = m ? s_member_lookup(a, m, name, depth + 1) : anvil_sv("", 0);
        if (t.len) {
            return t;
        }
    }
    return anvil_sv("", 0);
}

static void s_elide(struct s_asm *a, struct s_shape *s, size_t depth) {
    if (s->elision_done || s->elision_busy || depth > 256) {
        return;
    }
    s->elision_busy = true;
    struct s_shape *resource = s->for_resource.len ? s_find(a, s->for_resource) : NULL;
    if (resource && resource->type != ANVIL_SHAPE_RESOURCE) {
        s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                "The target of the `for` production must be a resource shape, but found a %s shape: %.*s",
                anvil_shape_type_name(resource->type), (int)resource->id.len, resource->id.ptr);
        resource = NULL;
    }
    for (size_t i = 0; i < s->member_count; i++) {
        struct s_member *m = &s->members[i];
        if (!m->elided || m->target.len) {
            continue;
        }
        if (resource) {
            const struct anvil_json *ids = anvil_json_object_get_cstr(&resource->props, "identifiers");
            const struct anvil_json *props = anvil_json_object_get_cstr(&resource->props, "properties");
            struct anvil_str_view t = anvil_json_string(
                anvil_json_object_get_cstr(anvil_json_object_get(props, m->name.ptr, m->name.len), "target"));
            if (!t.len) {
                t = anvil_json_string(
                    anvil_json_object_get_cstr(anvil_json_object_get(ids, m->name.ptr, m->name.len), "target"));
            }
            m->target = t;
        }
        for (size_t k = 0; k < s->mixin_count && !m->target.len; k++) {
            struct s_shape *mixin = s_find(a, s->mixins[k]);
            if (mixin) {
                m->target = s_member_lookup(a, mixin, m->name, depth + 1);
            }
        }
        if (!m->target.len) {
            struct anvil_str_view id = s_concat(a, s->id, "$", m->name);
            s_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                    "Member target was elided, but no bound resource or mixin contained a matching identifier or "
                    "member name.");
        }
    }
    s->elision_busy = false;
    s->elision_done = true;
}

/* ---- apply ---- */

static struct s_member *s_local_member(struct s_shape *s, struct anvil_str_view name) {
    for (size_t i = 0; i < s->member_count; i++) {
        if (anvil_sv_eq(s->members[i].name, name)) {
            return &s->members[i];
        }
    }
    return NULL;
}

static void s_member_apply(struct s_asm *a, struct anvil_str_view id, const struct s_traits *traits) {
    struct s_member_apply *entry = NULL;
    for (size_t i = 0; i < a->member_apply_count && !entry; i++) {
        if (anvil_sv_eq(a->member_applies[i].id, id)) {
            entry = &a->member_applies[i];
        }
    }
    if (!entry) {
        if (!s_grow(a, (void **)&a->member_applies, a->member_apply_count, &a->member_apply_cap,
                    sizeof(*a->member_applies))) {
            return;
        }
        entry = &a->member_applies[a->member_apply_count++];
        memset(entry, 0, sizeof(*entry));
        entry->id = id;
    }
    for (size_t i = 0; i < traits->count; i++) {
        s_trait_add(a, id, &entry->traits, traits->items[i].id, &traits->items[i].value);
    }
}

/* Merges `traits` into the shape or member `target` names. */
static void s_apply(struct s_asm *a, struct anvil_str_view target, const struct s_traits *traits) {
    size_t dollar = anvil_sv_find_byte(target, 0, '$');
    struct anvil_str_view root = dollar == SIZE_MAX ? target : anvil_sv_slice(target, 0, dollar);
    struct s_shape *s = s_find(a, root);
    if (!s) {
        for (size_t i = 0; i < traits->count; i++) {
            struct anvil_str_view t = traits->items[i].id;
            if (anvil_sv_starts_with(root, anvil_sv_from_cstr("smithy.api#"))) {
                s_event(a, ANVIL_SEVERITY_ERROR, target, "Model",
                        "Cannot apply `%.*s` to an immutable prelude shape defined in `smithy.api`.", (int)t.len,
                        t.ptr);
            } else {
                /* Smithy: no shape, and the trait's idiomatic name (prelude traits without `smithy.api#`). */
                struct anvil_str_view name =
                    anvil_sv_starts_with(t, ANVIL_SV("smithy.api#")) ? anvil_sv_slice(t, 11, SIZE_MAX) : t;
                s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                        "Trait `%.*s` applied to unknown shape `%.*s`", (int)name.len, name.ptr, (int)target.len,
                        target.ptr);
            }
        }
        return;
    }
    if (dollar == SIZE_MAX) {
        for (size_t i = 0; i < traits->count; i++) {
            s_trait_add(a, target, &s->traits, traits->items[i].id, &traits->items[i].value);
        }
        return;
    }
    struct s_member *m = s_local_member(s, anvil_sv_slice(target, dollar + 1, SIZE_MAX));
    if (!m) {
        s_member_apply(a, target, traits); /* an inherited member, or none: the loader checks */
        return;
    }
    for (size_t i = 0; i < traits->count; i++) {
        s_trait_add(a, target, &m->traits, traits->items[i].id, &traits->items[i].value);
    }
}

static void s_idl_applies(struct s_asm *a, const struct anvil__idl_file *file) {
    for (size_t i = 0; i < file->apply_count && !a->error; i++) {
        const struct anvil__idl_apply *ap = &file->applies[i];
        struct anvil_str_view target = s_resolve(a, file, ap->target.text, NULL);
        struct s_traits traits = {0};
        s_idl_traits(a, file, target, ap->traits, ap->trait_count, &traits);
        s_apply(a, target, &traits);
    }
}

static void s_json_applies(struct s_asm *a, const struct anvil_json *root, int version) {
    const struct anvil_json *shapes = anvil_json_object_get_cstr(root, "shapes");
    for (size_t i = 0; i < anvil_json_len(shapes) && !a->error; i++) {
        const struct anvil_json_member *e = anvil_json_object_at(shapes, i);
        if (!anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(&e->value, "type")), "apply")) {
            continue;
        }
        struct anvil_str_view target = anvil_json_member_key(e);
        struct s_traits traits = {0};
        s_json_traits(a, target, version, anvil_json_object_get_cstr(&e->value, "traits"), &traits);
        s_apply(a, target, &traits);
    }
}

/* ---- a second definition of one shape ---- */

static bool s_same_definition(const struct s_shape *x, const struct s_shape *y) {
    if (x->type != y->type || x->member_count != y->member_count || x->mixin_count != y->mixin_count ||
        !anvil_json_equal(&x->props, &y->props)) {
        return false;
    }
    for (size_t i = 0; i < x->member_count; i++) {
        if (!anvil_sv_eq(x->members[i].name, y->members[i].name) ||
            !anvil_sv_eq(x->members[i].target, y->members[i].target)) {
            return false;
        }
    }
    for (size_t i = 0; i < x->mixin_count; i++) {
        if (!anvil_sv_eq(x->mixins[i], y->mixins[i])) {
            return false;
        }
    }
    return true;
}

/* Where a definition is, as Smithy's SourceLocation prints it: `file [line, column]` (JSON: the file). */
static void s_where(const struct s_shape *s, char *out, size_t cap) {
    if (s->file && s->idl) {
        size_t line, column;
        anvil__idl_locate(s->file->text, s->file->len, s->idl->at, &line, &column);
        snprintf(out, cap, "%s [%zu, %zu]", s->file->name, line, column);
    } else {
        snprintf(out, cap, "%s", s->json_name ? s->json_name : "a JSON AST file");
    }
}

static void s_duplicates(struct s_asm *a) {
    for (size_t i = 0; i < a->count; i++) {
        struct s_shape *dup = &a->shapes[i];
        if (!dup->dup_of) {
            continue;
        }
        struct s_shape *first = &a->shapes[dup->dup_of - 1];
        char at_first[512], at_dup[512];
        s_where(first, at_first, sizeof(at_first));
        s_where(dup, at_dup, sizeof(at_dup));
        if (!s_same_definition(first, dup)) {
            s_event(a, ANVIL_SEVERITY_ERROR, dup->id, "Model",
                    "Conflicting shape definition for `%.*s` found at `%s` and `%s`", (int)dup->id.len, dup->id.ptr,
                    at_first, at_dup);
            continue;
        }
        s_event(a, ANVIL_SEVERITY_NOTE, dup->id, "Model.IgnoredDuplicateDefinition",
                "Ignoring duplicate but equivalent shape definition: %.*s defined at %s and %s", (int)dup->id.len,
                dup->id.ptr, at_dup, at_first);
        for (size_t k = 0; k < dup->traits.count; k++) {
            s_trait_add(a, first->id, &first->traits, dup->traits.items[k].id, &dup->traits.items[k].value);
        }
        for (size_t m = 0; m < dup->member_count; m++) {
            struct s_member *dm = &dup->members[m];
            for (size_t k = 0; k < dm->traits.count; k++) {
                s_trait_add(a, first->id, &first->members[m].traits, dm->traits.items[k].id,
                            &dm->traits.items[k].value);
            }
        }
    }
}

/* ---- IDL 1.0 -> 2.0: the defaults 1.0 implied ---- */

static bool s_had_zero_value(enum anvil_shape_type type) {
    switch (type) {
    case ANVIL_SHAPE_BYTE:
    case ANVIL_SHAPE_SHORT:
    case ANVIL_SHAPE_INTEGER:
    case ANVIL_SHAPE_LONG:
    case ANVIL_SHAPE_FLOAT:
    case ANVIL_SHAPE_DOUBLE:
    case ANVIL_SHAPE_BOOLEAN:
    case ANVIL_SHAPE_INT_ENUM:
        return true;
    default:
        return false;
    }
}

static struct anvil_json s_zero(struct s_asm *a, enum anvil_shape_type type) {
    if (type == ANVIL_SHAPE_BOOLEAN) {
        return anvil_json_make_bool(false);
    }
    if (type == ANVIL_SHAPE_BLOB || type == ANVIL_SHAPE_STRING) {
        return s_str(a, anvil_sv("", 0));
    }
    return anvil_json_make_int(0);
}

static bool s_is_zero(const struct anvil_json *v) {
    return v && ((anvil_json_is_bool(v) && !anvil_json_bool(v)) ||
                 (anvil_json_type(v) == ANVIL_JSON_NUMBER && anvil_json_double(v) == 0));
}

/* Whether `target` was boxed (nullable) in 1.0 terms. */
static bool s_boxed(struct s_asm *a, struct anvil_str_view target) {
    struct s_shape *t = s_find(a, target);
    if (!t) {
        return anvil_sv_starts_with(target, anvil_sv_from_cstr("smithy.api#")) &&
               !anvil_sv_starts_with(target, anvil_sv_from_cstr("smithy.api#Primitive"));
    }
    if (s_trait_find(&t->traits, anvil_sv_from_cstr("smithy.api#box"))) {
        return true;
    }
    struct s_trait *def = s_trait_find(&t->traits, anvil_sv_from_cstr("smithy.api#default"));
    return t->version >= 2 && s_had_zero_value(t->type) && !(def && s_is_zero(&def->value));
}

static void s_upgrade(struct s_asm *a) {
    struct anvil_str_view box = anvil_sv_from_cstr("smithy.api#box");
    struct anvil_str_view dflt = anvil_sv_from_cstr("smithy.api#default");
    for (size_t i = 0; i < a->count; i++) {
        struct s_shape *s = &a->shapes[i];
        if (s->version < 2 && !s->dup_of && s_had_zero_value(s->type) && !s_trait_find(&s->traits, box) &&
            !s_trait_find(&s->traits, dflt)) {
            struct anvil_json zero = s_zero(a, s->type);
            s_trait_add(a, s->id, &s->traits, dflt, &zero);
        }
    }
    for (size_t i = 0; i < a->count; i++) {
        struct s_shape *s = &a->shapes[i];
        if (s->version >= 2 || s->dup_of || s->type != ANVIL_SHAPE_STRUCTURE) {
            continue;
        }
        for (size_t k = 0; k < s->member_count; k++) {
            struct s_member *m = &s->members[k];
            enum anvil_shape_type type;
            if (!m->target.len || !s_type_of(a, m->target, &type)) {
                continue;
            }
            struct s_shape *t = s_find(a, m->target);
            bool streaming = type == ANVIL_SHAPE_BLOB && t &&
                             s_trait_find(&t->traits, anvil_sv_from_cstr("smithy.api#streaming")) &&
                             !s_trait_find(&m->traits, anvil_sv_from_cstr("smithy.api#required"));
            bool member_boxed = s_trait_find(&m->traits, box) != NULL;
            if ((s_had_zero_value(type) || streaming) && !s_trait_find(&m->traits, dflt) && !member_boxed &&
                !s_boxed(a, m->target)) {
                struct anvil_json zero = s_zero(a, type);
                s_trait_add(a, s->id, &m->traits, dflt, &zero);
            } else if (member_boxed && !s_trait_find(&m->traits, dflt)) {
                struct anvil_json null = anvil_json_make_null();
                s_trait_add(a, s->id, &m->traits, dflt, &null);
            }
        }
    }
}

/* ---- rules the model builder applies ---- */

static void s_enum_values(struct s_asm *a, struct s_shape *s) {
    struct anvil_str_view ev = anvil_sv_from_cstr("smithy.api#enumValue");
    for (size_t k = 0; k < s->member_count; k++) {
        struct s_member *m = &s->members[k];
        struct s_trait *t = s_trait_find(&m->traits, ev);
        struct anvil_str_view id = s_concat(a, s->id, "$", m->name);
        struct anvil_buf shown;
        anvil_buf_init(&shown, NULL, 256);
        if (t) {
            (void)anvil_json_write(&t->value, ANVIL_JSON_WRITE_COMPACT, &shown);
        }
        struct anvil_str_view v = anvil_buf_view(&shown);
        int vl = (int)v.len;
        const char *vp = v.ptr ? v.ptr : "";
        if (s->type == ANVIL_SHAPE_ENUM) {
            if (!t) {
                struct anvil_json name = s_str(a, m->name);
                s_trait_add(a, id, &m->traits, ev, &name);
            } else if (!anvil_json_is_string(&t->value)) {
                s_event(a, ANVIL_SEVERITY_ERROR, id, "EnumShape",
                        "enum members can only be assigned string values, but found: %.*s", vl, vp);
            }
        } else if (!t || anvil_json_type(&t->value) != ANVIL_JSON_NUMBER) {
            s_event(a, ANVIL_SEVERITY_ERROR, id, "Model", "intEnum members require integer values, but found: %.*s",
                    t ? vl : 4, t ? vp : "null");
        } else if (!anvil_json_is_int(&t->value)) {
            s_event(a, ANVIL_SEVERITY_ERROR, id, "Model", "intEnum members do not support floating point values");
        } else if (anvil_json_int(&t->value) > INT32_MAX || anvil_json_int(&t->value) < INT32_MIN) {
            s_event(a, ANVIL_SEVERITY_ERROR, id, "Model", "intEnum members must fit within an integer, but found: %.*s",
                    vl, vp);
        }
        anvil_buf_clean_up(&shown);
    }
}

/* Whether a list, set or map has member `name`, itself or through its mixins. */
static bool s_has_member(struct s_asm *a, struct s_shape *s, struct anvil_str_view name, size_t depth) {
    if (s_local_member(s, name)) {
        return true;
    }
    for (size_t i = 0; i < s->mixin_count && depth < 64; i++) {
        struct s_shape *m = s_find(a, s->mixins[i]);
        if (m && s_has_member(a, m, name, depth + 1)) {
            return true;
        }
    }
    return false;
}

static bool s_broken(struct s_asm *a, struct s_shape *s);

/* The members a list, set or map may have (Smithy's builders refuse the others); whether all are. */
static bool s_collection_members_ok(struct s_asm *a, struct s_shape *s) {
    bool ok = true;
    for (size_t i = 0; i < s->member_count; i++) {
        struct anvil_str_view n = s->members[i].name;
        if (s->type == ANVIL_SHAPE_MAP && !anvil_sv_eq_cstr(n, "key") && !anvil_sv_eq_cstr(n, "value")) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                    "Map shapes may only have `key` and `value` members, but found `%.*s`", (int)n.len, n.ptr);
            ok = false;
        } else if (s->type != ANVIL_SHAPE_MAP && !anvil_sv_eq_cstr(n, "member")) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                    "%s shapes may only have a `member` member, but found `%.*s`",
                    s->type == ANVIL_SHAPE_SET ? "Set" : "List", (int)n.len, n.ptr);
            ok = false;
        }
    }
    return ok;
}

/*
 * Decides, once, whether Smithy would build shape `s`. A mixin that is not
 * defined or not built makes `s` unbuilt too, said against the first elided
 * member when there is one (that is where Smithy needs the mixin first).
 * Mixin cycles are left to the cycle check.
 */
/* The most mixins deep a chain may go (beyond any real model; bounds the recursion). */
#define S_MAX_MIXIN_DEPTH 4096

/*
 * `s` is being decided again: the chain from it to the end of the path is a
 * cycle. Each member gets Smithy's event, naming the others in the order
 * Smithy's Tarjan walk pops them when it starts where anvil's walk did (for
 * cycles of three or more, Smithy starts where Java's HashMap order says).
 */
static void s_mixin_cycle(struct s_asm *a, struct s_shape *s) {
    size_t from = a->path_len;
    while (from > 0 && a->path[from - 1] != s) {
        from--;
    }
    if (from == 0 || a->path[from - 1]->in_cycle) {
        return;
    }
    from--;
    size_t n = a->path_len - from;
    for (size_t i = 0; i < n; i++) {
        struct s_shape *p = a->path[from + i];
        p->in_cycle = true;
        char others[2048];
        size_t used = 0;
        others[0] = '\0';
        for (size_t k = 1; k <= n && used < sizeof(others); k++) {
            const struct s_shape *o = a->path[from + k % n];
            if (o != p) {
                used += (size_t)snprintf(others + used, sizeof(others) - used, "%s%.*s", used ? ", " : "",
                                         (int)o->id.len, o->id.ptr);
            }
        }
        s_event(a, ANVIL_SEVERITY_ERROR, p->id, "Model",
                "Unable to resolve mixins; cycles detected between this shape and [%s]", others);
    }
}

static bool s_broken(struct s_asm *a, struct s_shape *s) {
    if (s->broken >= 2) {
        return s->broken == 3;
    }
    if (s->broken == 1) {
        s_mixin_cycle(a, s);
        return false;
    }
    if (a->path_len >= S_MAX_MIXIN_DEPTH) {
        s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Mixins nest deeper than %d shapes", S_MAX_MIXIN_DEPTH);
        s->broken = 3;
        return true;
    }
    if (!s_grow(a, (void **)&a->path, a->path_len, &a->path_cap, sizeof(*a->path))) {
        return true;
    }
    a->path[a->path_len++] = s;
    s->broken = 1;
    bool broken = false;
    for (size_t i = 0; i < s->mixin_count && !broken; i++) {
        struct s_shape *m = s_find(a, s->mixins[i]);
        if (!m || (m != s && s_broken(a, m) && !(s->in_cycle && m->in_cycle))) {
            struct anvil_str_view at = s->id;
            for (size_t k = 0; k < s->member_count; k++) {
                if (s->members[k].elided) {
                    at = s_concat(a, s->id, "$", s->members[k].name);
                    break;
                }
            }
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Cannot apply mixin to %.*s: %.*s not found", (int)at.len,
                    at.ptr, (int)s->mixins[i].len, s->mixins[i].ptr);
            broken = true;
        }
    }
    for (size_t i = 0; i < s->mixin_count && !broken && !s->in_cycle; i++) {
        struct s_shape *m = s_find(a, s->mixins[i]);
        if (m && !m->in_cycle && !s_trait_find(&m->traits, ANVIL_SV("smithy.api#mixin"))) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Target",
                    "Attempted to use %.*s as a mixin, but it is not marked with the mixin trait", (int)m->id.len,
                    m->id.ptr);
        }
    }
    if (!broken && s->type >= ANVIL_SHAPE_LIST && s->type <= ANVIL_SHAPE_MAP) {
        /* Wrong members are said, and the shape is still built; a missing one stops it. */
        s_collection_members_ok(a, s);
        bool key = s->type != ANVIL_SHAPE_MAP || s_has_member(a, s, ANVIL_SV("key"), 0);
        bool value = s->type != ANVIL_SHAPE_MAP || s_has_member(a, s, ANVIL_SV("value"), 0);
        bool member = s->type == ANVIL_SHAPE_MAP || s_has_member(a, s, ANVIL_SV("member"), 0);
        if (s->type == ANVIL_SHAPE_MAP && (!key || !value)) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member%s of shape `%.*s`: %s%s%s",
                    !key && !value ? "s" : "", (int)s->id.len, s->id.ptr, key ? "" : "key", !key && !value ? ", " : "",
                    value ? "" : "value");
            broken = true;
        } else if (!member) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member of shape `%.*s`: member",
                    (int)s->id.len, s->id.ptr);
            broken = true;
        }
    }
    a->path_len--;
    broken = broken || s->in_cycle;
    s->broken = broken ? 3 : 2;
    return broken;
}

static void s_required_members(struct s_asm *a, struct s_shape *s) {
    if (s->mixin_count || (s->type >= ANVIL_SHAPE_LIST && s->type <= ANVIL_SHAPE_MAP)) {
        return; /* lists, sets and maps: s_broken */
    }
    if (s->type == ANVIL_SHAPE_LIST || s->type == ANVIL_SHAPE_SET) {
        if (!s_local_member(s, anvil_sv_from_cstr("member"))) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member of shape `%.*s`: member",
                    (int)s->id.len, s->id.ptr);
        }
    } else if (s->type == ANVIL_SHAPE_MAP) {
        bool key = s_local_member(s, anvil_sv_from_cstr("key")) != NULL;
        bool value = s_local_member(s, anvil_sv_from_cstr("value")) != NULL;
        if (!key || !value) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member%s of shape `%.*s`: %s%s%s",
                    !key && !value ? "s" : "", (int)s->id.len, s->id.ptr, key ? "" : "key", !key && !value ? ", " : "",
                    value ? "" : "value");
        }
    }
}

/*
 * A member the shape redeclares from a mixin: the same target makes its
 * traits "introduced" (written as an apply, as Smithy writes them); another
 * target is an error.
 */
static void s_mixin_members(struct s_asm *a, struct s_shape *s) {
    /* Mixins of another type, and two mixins giving one member different targets. */
    struct anvil_buf wrong;
    anvil_buf_init(&wrong, NULL, 4096);
    for (size_t i = 0; i < s->mixin_count; i++) {
        struct s_shape *mixin = s_find(a, s->mixins[i]);
        if (mixin && mixin->type != s->type) {
            (void)anvil_buf_appendf(&wrong, "%s`%.*s`", wrong.len ? ", " : "", (int)mixin->id.len, mixin->id.ptr);
        }
        for (size_t k = 0; mixin && k < mixin->member_count; k++) {
            for (size_t j = 0; j < i; j++) {
                struct s_shape *earlier = s_find(a, s->mixins[j]);
                struct anvil_str_view t =
                    earlier ? s_member_lookup(a, earlier, mixin->members[k].name, 0) : anvil_sv("", 0);
                if (t.len && !anvil_sv_eq(t, mixin->members[k].target) && !s_local_member(s, mixin->members[k].name)) {
                    struct anvil_str_view id = s_concat(a, s->id, "$", mixin->members[k].name);
                    /* Smithy names the member the earlier mixin gave the shape. */
                    s_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                            "Member conflicts with an inherited mixin member: `%.*s`", (int)id.len, id.ptr);
                }
            }
        }
    }
    if (wrong.len) {
        struct anvil_str_view v = anvil_buf_view(&wrong);
        s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                "Mixins may only be mixed into shapes of the same type. The following mixins were applied to the %s "
                "shape `%.*s` which are not %s shapes: [%.*s]",
                anvil_shape_type_name(s->type), (int)s->id.len, s->id.ptr, anvil_shape_type_name(s->type), (int)v.len,
                v.ptr);
    }
    anvil_buf_clean_up(&wrong);
    for (size_t k = 0; k < s->member_count;) {
        struct s_member *m = &s->members[k];
        struct anvil_str_view inherited = anvil_sv("", 0);
        struct s_shape *from = NULL;
        for (size_t i = 0; i < s->mixin_count; i++) {
            struct s_shape *mixin = s_find(a, s->mixins[i]);
            struct anvil_str_view t = mixin ? s_member_lookup(a, mixin, m->name, 0) : anvil_sv("", 0);
            if (t.len && (!inherited.len || !anvil_sv_eq(t, m->target))) {
                inherited = t; /* the first mixin with the member, or the one that conflicts */
                from = mixin;
            }
        }
        if (!inherited.len) {
            k++;
            continue;
        }
        struct anvil_str_view id = s_concat(a, s->id, "$", m->name);
        if (!anvil_sv_eq(inherited, m->target)) {
            struct anvil_str_view mixin_member = s_concat(a, from->id, "$", m->name);
            s_event(a, ANVIL_SEVERITY_ERROR, id, "Model", "Member conflicts with an inherited mixin member: `%.*s`",
                    (int)mixin_member.len, mixin_member.ptr);
            k++;
            continue;
        }
        if (m->traits.count) {
            s_member_apply(a, id, &m->traits);
        }
        memmove(m, m + 1, (s->member_count - k - 1) * sizeof(*m));
        s->member_count--;
    }
}

/* Operation and resource mixins may not bind input, output or properties. */
static void s_mixin_rules(struct s_asm *a, struct s_shape *s) {
    if (!s_trait_find(&s->traits, anvil_sv_from_cstr("smithy.api#mixin"))) {
        return;
    }
    if (s->type == ANVIL_SHAPE_OPERATION) {
        struct anvil_str_view in =
            anvil_json_string(anvil_json_object_get_cstr(anvil_json_object_get_cstr(&s->props, "input"), "target"));
        struct anvil_str_view out =
            anvil_json_string(anvil_json_object_get_cstr(anvil_json_object_get_cstr(&s->props, "output"), "target"));
        if ((in.len && !anvil_sv_eq_cstr(in, "smithy.api#Unit")) ||
            (out.len && !anvil_sv_eq_cstr(out, "smithy.api#Unit"))) {
            s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                    "Operation shapes with the mixin trait MUST target `smithy.api#Unit` for their input and output. "
                    "Operation mixin shape `%.*s` defines one or both of these properties.",
                    (int)s->id.len, s->id.ptr);
        }
    } else if (s->type == ANVIL_SHAPE_RESOURCE &&
               (anvil_json_len(anvil_json_object_get_cstr(&s->props, "properties")) ||
                anvil_json_len(anvil_json_object_get_cstr(&s->props, "identifiers")))) {
        s_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                "Resource shapes with the mixin trait may not define any properties. Resource mixin shape `%.*s` "
                "defines one or more properties.",
                (int)s->id.len, s->id.ptr);
    }
}

/* ---- writing the JSON AST ---- */

static struct anvil_json s_member_json(struct s_asm *a, const struct s_member *m) {
    struct s_obj obj = {0};
    struct anvil_json target = s_str(a, m->target);
    s_put_cstr(a, &obj, "target", &target);
    if (m->traits.count) {
        struct anvil_json traits = s_traits_json(a, &m->traits);
        s_put_cstr(a, &obj, "traits", &traits);
    }
    return s_obj_finish(a, &obj);
}

static struct anvil_json s_shape_json(struct s_asm *a, struct s_shape *s) {
    struct s_obj obj = {0};
    struct anvil_json type = s_str(a, anvil_sv_from_cstr(anvil_shape_type_name(s->type)));
    s_put_cstr(a, &obj, "type", &type);
    if (s->mixin_count) {
        struct anvil_json list, *items;
        if (anvil_json_new_array(a->arena, s->mixin_count, &list, &items) != ANVIL_OK) {
            a->error = ANVIL_ENOMEM;
            return list;
        }
        for (size_t i = 0; i < s->mixin_count; i++) {
            items[i] = s_target_ref(a, s->mixins[i]);
        }
        s_put_cstr(a, &obj, "mixins", &list);
    }
    if (s->type == ANVIL_SHAPE_LIST || s->type == ANVIL_SHAPE_SET || s->type == ANVIL_SHAPE_MAP) {
        for (size_t i = 0; i < s->member_count; i++) {
            struct anvil_json m = s_member_json(a, &s->members[i]);
            s_put(a, &obj, s->members[i].name, &m);
        }
    } else if (s->member_count || s->type == ANVIL_SHAPE_STRUCTURE || s->type == ANVIL_SHAPE_UNION ||
               s->type == ANVIL_SHAPE_ENUM || s->type == ANVIL_SHAPE_INT_ENUM) {
        struct s_obj members = {0};
        for (size_t i = 0; i < s->member_count; i++) {
            struct anvil_json m = s_member_json(a, &s->members[i]);
            s_put(a, &members, s->members[i].name, &m);
        }
        struct anvil_json all = s_obj_finish(a, &members);
        s_put_cstr(a, &obj, "members", &all);
    }
    for (size_t i = 0; i < anvil_json_len(&s->props); i++) {
        const struct anvil_json_member *p = anvil_json_object_at(&s->props, i);
        bool empty = (anvil_json_is_array(&p->value) || anvil_json_is_object(&p->value)) && !anvil_json_len(&p->value);
        if (!empty) { /* an empty list of errors or operations says nothing: Smithy writes none */
            s_put(a, &obj, anvil_json_member_key(p), &p->value);
        }
    }
    if (s->type == ANVIL_SHAPE_OPERATION) {
        struct anvil_json unit = s_target_ref(a, anvil_sv_from_cstr("smithy.api#Unit"));
        if (!anvil_json_object_get_cstr(&s->props, "input")) {
            s_put_cstr(a, &obj, "input", &unit);
        }
        if (!anvil_json_object_get_cstr(&s->props, "output")) {
            s_put_cstr(a, &obj, "output", &unit);
        }
    }
    if (s->traits.count) {
        struct anvil_json traits = s_traits_json(a, &s->traits);
        s_put_cstr(a, &obj, "traits", &traits);
    }
    return s_obj_finish(a, &obj);
}

static struct anvil_json s_root_json(struct s_asm *a) {
    struct s_obj shapes = {0};
    for (size_t i = 0; i < a->count && !a->error; i++) {
        struct s_shape *s = &a->shapes[i];
        if (!s->dup_of) {
            struct anvil_json def = s_shape_json(a, s);
            s_put(a, &shapes, s->id, &def);
        }
    }
    for (size_t i = 0; i < a->member_apply_count && !a->error; i++) {
        struct s_obj entry = {0};
        struct anvil_json type = s_str(a, anvil_sv_from_cstr("apply"));
        struct anvil_json traits = s_traits_json(a, &a->member_applies[i].traits);
        s_put_cstr(a, &entry, "type", &type);
        s_put_cstr(a, &entry, "traits", &traits);
        struct anvil_json v = s_obj_finish(a, &entry);
        s_put(a, &shapes, a->member_applies[i].id, &v);
    }
    struct s_obj root = {0};
    struct anvil_json version = s_str(a, anvil_sv_from_cstr("2.0"));
    s_put_cstr(a, &root, "smithy", &version);
    if (a->metadata_count) {
        struct s_traits meta = {a->metadata, a->metadata_count, a->metadata_cap};
        struct anvil_json m = s_traits_json(a, &meta);
        s_put_cstr(a, &root, "metadata", &m);
    }
    struct anvil_json all = s_obj_finish(a, &shapes);
    s_put_cstr(a, &root, "shapes", &all);
    return s_obj_finish(a, &root);
}

/* ---- metadata ---- */

static void s_metadata(struct s_asm *a, struct anvil_str_view key, const struct anvil_json *value, const char *from) {
    if (anvil_sv_eq_cstr(key, "validators") && !anvil_json_is_array(value)) {
        s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model", "validators must be an array. Found %s.",
                s_json_kind(value));
        return;
    }
    for (size_t i = 0; i < a->metadata_count; i++) {
        struct s_trait *m = &a->metadata[i];
        if (!anvil_sv_eq(m->id, key)) {
            continue;
        }
        if (anvil_json_is_array(&m->value) && anvil_json_is_array(value)) {
            struct anvil_json merged;
            if (s_concat_arrays(a, &m->value, value, &merged) != ANVIL_OK) {
                a->error = ANVIL_ENOMEM;
                return;
            }
            m->value = merged;
        } else if (!anvil_json_equal(&m->value, value)) {
            s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                    "Metadata conflict for key `%.*s`. Defined in both `%s` and `%s`", (int)key.len, key.ptr, from,
                    from);
        }
        return;
    }
    if (s_grow(a, (void **)&a->metadata, a->metadata_count, &a->metadata_cap, sizeof(*a->metadata))) {
        a->metadata[a->metadata_count].id = key;
        a->metadata[a->metadata_count].value = *value;
        a->metadata_count++;
    }
}

/* ---- reading the sources ---- */

struct s_source {
    const char *name;
    struct anvil__idl_file idl;    /* when IDL */
    const struct anvil_json *json; /* when JSON AST */
    int version;
};

static bool s_is_json(const struct anvil_model_source *src) {
    if (src->format != ANVIL_MODEL_FORMAT_AUTO) {
        return src->format == ANVIL_MODEL_FORMAT_JSON;
    }
    size_t n = src->name ? strlen(src->name) : 0;
    if (n >= 5 && strcmp(src->name + n - 5, ".json") == 0) {
        return true;
    }
    if (n >= 7 && strcmp(src->name + n - 7, ".smithy") == 0) {
        return false;
    }
    for (size_t i = 0; i < src->len; i++) {
        char c = src->text[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            return c == '{';
        }
    }
    return false;
}

static int s_read(struct s_asm *a, const struct anvil_model_source *src, struct s_source *out) {
    struct anvil_diag d;
    anvil_diag_clear(&d);
    out->name = src->name ? src->name : "<input>";
    int rc;
    if (s_is_json(src)) {
        struct anvil_json *root = anvil_arena_alloc(a->arena, sizeof(*root), 0);
        if (!root) {
            return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
        }
        rc = anvil_json_parse_into(a->arena, a->allocator, src->text, src->len, NULL, root, &d);
        if (rc == ANVIL_OK) {
            out->json = root;
            const struct anvil_json *smithy = anvil_json_object_get_cstr(root, "smithy");
            struct anvil_str_view v = anvil_json_string(smithy);
            if (!anvil_json_is_object(root) || !anvil_json_is_string(smithy)) {
                return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0,
                                      "%s: a Smithy JSON AST model must be an object whose `smithy` version is "
                                      "\"1.0\" or \"2.0\"",
                                      out->name);
            }
            const struct anvil_json *shapes = anvil_json_object_get_cstr(root, "shapes");
            const struct anvil_json *metadata = anvil_json_object_get_cstr(root, "metadata");
            /* Like Smithy, what is wrong inside a model is an event, and the rest of the model still counts. */
            if (!(anvil_sv_eq_cstr(v, "1.0") || anvil_sv_eq_cstr(v, "2.0") || anvil_sv_eq_cstr(v, "1") ||
                  anvil_sv_eq_cstr(v, "2"))) {
                s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model", "Unsupported Smithy version number: %.*s",
                        (int)(v.len < 100 ? v.len : 100), v.ptr);
                out->json = NULL;
            } else if (shapes && !anvil_json_is_object(shapes)) {
                s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                        "Expected `shapes` to be an object; found %s", s_json_kind(shapes));
                out->json = NULL;
            } else {
                s_json_props(a, anvil_sv("", 0), root, s_top_props);
            }
            if (out->json && metadata && !anvil_json_is_object(metadata)) {
                s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                        "Expected `metadata` to be an object; found %s", s_json_kind(metadata));
            }
            out->version = v.ptr[0] == '1' ? 1 : 2;
            return ANVIL_OK;
        }
    } else {
        rc = anvil__idl_parse(a->scratch, out->name, src->text, src->len, &out->idl, &d);
        out->version = out->idl.version;
        if (rc == ANVIL_OK) {
            return ANVIL_OK;
        }
    }
    return anvil_diag_set(a->diag, rc, d.line, d.column, d.offset, "%s: %s", out->name, d.message);
}

/* Shape records for every definition of every source, before any reference is resolved. */
static int s_register(struct s_asm *a, struct s_source *sources, size_t count, size_t max_shapes) {
    for (size_t i = 0; i < count && !a->error; i++) {
        struct s_source *src = &sources[i];
        if (src->json) {
            const struct anvil_json *shapes = anvil_json_object_get_cstr(src->json, "shapes");
            for (size_t k = 0; k < anvil_json_len(shapes) && !a->error; k++) {
                const struct anvil_json_member *e = anvil_json_object_at(shapes, k);
                struct anvil_str_view id = anvil_json_member_key(e);
                struct anvil_str_view type_name = anvil_json_string(anvil_json_object_get_cstr(&e->value, "type"));
                enum anvil_shape_type type;
                bool apply = anvil_sv_eq_cstr(type_name, "apply");
                size_t dollar = anvil_sv_find_byte(id, 0, '$');
                if (dollar != SIZE_MAX && !apply && anvil_sv_find_byte(id, 0, '#') != SIZE_MAX) {
                    s_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                            "Shapes of type `%.*s` cannot contain a member in their shape ID. Found `%.*s`",
                            (int)(type_name.len < 64 ? type_name.len : 64), type_name.ptr,
                            (int)(id.len < 200 ? id.len : 200), id.ptr);
                    continue;
                }
                if (!anvil__shape_id_valid(dollar == SIZE_MAX ? id : anvil_sv_slice(id, 0, dollar))) {
                    s_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model", "Invalid shape ID: %.*s",
                            (int)(id.len < 200 ? id.len : 200), id.ptr);
                    continue;
                }
                if (apply) {
                    s_json_props(a, id, &e->value, s_apply_props);
                    continue;
                }
                if (!anvil_json_is_object(&e->value) ||
                    !anvil_json_is_string(anvil_json_object_get_cstr(&e->value, "type"))) {
                    return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0,
                                          "%s: shape `%.*s` must be an object with a string `type`", src->name,
                                          (int)(id.len < 200 ? id.len : 200), id.ptr);
                }
                if (!s_type_named(type_name, &type)) {
                    return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0, "%s: shape `%.*s` has unknown type `%.*s`",
                                          src->name, (int)(id.len < 200 ? id.len : 200), id.ptr,
                                          (int)(type_name.len < 64 ? type_name.len : 64), type_name.ptr);
                }
                struct s_shape *s = s_new_shape(a, id, type, src->version);
                if (s) {
                    s->json = &e->value;
                    s->json_name = src->name;
                }
            }
        } else {
            const struct anvil__idl_file *f = &src->idl;
            for (size_t k = 0; k < f->shape_count && !a->error; k++) {
                struct s_shape *s =
                    s_new_shape(a, s_concat(a, f->ns, "#", f->shapes[k].name), f->shapes[k].type, f->version);
                if (s) {
                    s->file = f;
                    s->idl = &f->shapes[k];
                }
            }
        }
        if (a->count > max_shapes) {
            return anvil_diag_set(a->diag, ANVIL_ELIMIT, 0, 0, 0, "the model defines more than %zu shapes (max_shapes)",
                                  max_shapes);
        }
    }
    return a->error ? anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory") : s_index(a);
}

/*
 * `use` of a shape that is nowhere: a WARNING, as in Smithy, unless it names
 * a trait the model applies (anvil needs no trait definitions; the AWS
 * models' IDL imports dozens of AWS traits).
 */
static void s_use_check(struct s_asm *a, const struct anvil__idl_file *f, const struct anvil_str_view *traits,
                        size_t trait_count) {
    for (size_t k = 0; k < f->use_count; k++) {
        if (!s_known_id(a, f->uses[k].id, traits, trait_count)) {
            s_event(a, ANVIL_SEVERITY_WARNING, anvil_sv("", 0), "Model",
                    "Use statement refers to undefined shape: %.*s", (int)f->uses[k].id.len, f->uses[k].id.ptr);
        }
    }
}

static void s_read_metadata(struct s_asm *a, struct s_source *src) {
    if (src->json) {
        const struct anvil_json *meta = anvil_json_object_get_cstr(src->json, "metadata");
        for (size_t k = 0; k < anvil_json_len(meta) && anvil_json_is_object(meta); k++) {
            const struct anvil_json_member *e = anvil_json_object_at(meta, k);
            s_metadata(a, anvil_json_member_key(e), &e->value, src->name);
        }
        return;
    }
    const struct anvil__idl_file *f = &src->idl;
    for (size_t k = 0; k < f->metadata_count && !a->error; k++) {
        struct anvil_json value;
        if (s_node_json(a, NULL, &f->metadata[k].value, anvil_sv("", 0), &value) == ANVIL_ENOMEM) {
            a->error = ANVIL_ENOMEM;
            return;
        }
        s_metadata(a, f->metadata[k].key, &value, src->name);
    }
    for (size_t k = 0; k < f->note_count; k++) {
        const struct anvil__idl_note *n = &f->notes[k];
        s_event(a, n->severity, n->shape_id, n->event_id, "%s", n->message);
    }
}

static int s_assemble(struct s_asm *a, const struct anvil_model_source *sources, size_t count, size_t max_shapes,
                      struct anvil_json *root) {
    struct s_source *read = s_alloc(a, (count + 1) * sizeof(*read));
    if (!read) {
        return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    memset(read, 0, (count + 1) * sizeof(*read));
    for (size_t i = 0; i < count; i++) {
        int rc = s_read(a, &sources[i], &read[i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    int rc = s_register(a, read, count, max_shapes);
    if (rc != ANVIL_OK) {
        return rc;
    }
    for (size_t i = 0; i < count; i++) {
        s_read_metadata(a, &read[i]);
    }
    for (size_t i = 0; i < a->count && !a->error; i++) {
        struct s_shape *s = &a->shapes[i];
        if (s->json) {
            s_json_shape(a, s);
        } else {
            s_idl_shape(a, s->file, s);
        }
    }
    s_duplicates(a);
    for (size_t i = 0; i < a->count && !a->error; i++) {
        if (!a->shapes[i].dup_of) {
            s_broken(a, &a->shapes[i]);
        }
    }
    for (size_t i = 0; i < a->count && !a->error; i++) {
        if (a->shapes[i].broken != 3) {
            s_elide(a, &a->shapes[i], 0);
        }
    }
    for (size_t i = 0; i < count && !a->error; i++) {
        if (read[i].json) {
            s_json_applies(a, read[i].json, read[i].version);
        } else {
            s_idl_applies(a, &read[i].idl);
        }
    }
    s_upgrade(a);
    for (size_t i = 0; i < a->count && !a->error; i++) {
        struct s_shape *s = &a->shapes[i];
        if (s->dup_of || s->broken == 3) {
            continue;
        }
        if (s->mixin_count) {
            s_mixin_members(a, s);
        }
        s_mixin_rules(a, s);
        if (s->type == ANVIL_SHAPE_ENUM || s->type == ANVIL_SHAPE_INT_ENUM) {
            s_enum_values(a, s);
        }
        s_required_members(a, s);
    }
    struct anvil_str_view *traits = NULL;
    size_t trait_count = s_applied_traits(a, &traits);
    s_syntactic_check(a, traits, trait_count);
    s_trait_shapes_check(a, traits, trait_count);
    for (size_t i = 0; i < count; i++) {
        if (!read[i].json) {
            s_use_check(a, &read[i].idl, traits, trait_count);
        }
    }
    if (!a->error) {
        *root = s_root_json(a);
    }
    if (a->error || a->events->error) {
        return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    return ANVIL_OK;
}

int anvil_model_assemble(struct anvil_allocator *allocator, const struct anvil_model_source *sources, size_t count,
                         const struct anvil_model_options *options, struct anvil_model **out,
                         struct anvil_events **events, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (events) {
        *events = NULL;
    }
    if (!out || (!sources && count)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    *out = NULL;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!sources[i].text && sources[i].len) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
        }
        total += sources[i].len;
    }
    struct s_asm a;
    memset(&a, 0, sizeof(a));
    a.allocator = allocator;
    a.diag = diag;
    struct anvil_json_doc *doc = NULL;
    if (anvil__json_doc_new(allocator, total + total / 2, &doc) != ANVIL_OK ||
        anvil_arena_new(allocator, NULL, &a.scratch) != ANVIL_OK ||
        anvil__events_new(allocator, &a.events) != ANVIL_OK) {
        anvil_json_doc_destroy(doc);
        anvil_arena_destroy(a.scratch);
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    a.arena = anvil_json_doc_arena(doc);
    size_t max_shapes = options && options->max_shapes ? options->max_shapes : ANVIL_MODEL_DEFAULT_MAX_SHAPES;
    struct anvil_json root;
    int rc = s_assemble(&a, sources, count, max_shapes, &root);
    anvil_arena_destroy(a.scratch);
    anvil__events_sort(a.events);
    if (rc == ANVIL_OK && anvil_events_count_at_least(a.events, ANVIL_SEVERITY_ERROR) > 0) {
        for (size_t i = 0; i < anvil_events_count(a.events); i++) {
            const struct anvil_event *e = anvil_events_at(a.events, i);
            if (e->severity == ANVIL_SEVERITY_ERROR) {
                rc = anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "%s%.*s%s%s", e->shape_id.len ? "" : "",
                                    (int)e->shape_id.len, e->shape_id.ptr ? e->shape_id.ptr : "",
                                    e->shape_id.len ? ": " : "", e->message);
                break;
            }
        }
    }
    if (rc == ANVIL_OK) {
        anvil__json_doc_set_root(doc, &root);
        rc = anvil__model_load_doc(allocator, doc, options, out, diag);
        doc = NULL;
    }
    anvil_json_doc_destroy(doc);
    if (events) {
        *events = a.events;
    } else {
        anvil_events_destroy(a.events);
    }
    return rc;
}

const struct anvil_json *anvil_model_ast(const struct anvil_model *model) {
    return model ? anvil_json_doc_root(model->doc) : NULL;
}
