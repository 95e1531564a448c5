/*
 * Model assembly: the model-wide rules once every file is read. `apply`,
 * duplicate definitions, the IDL 1.0 upgrade, enum values, and the checks
 * on applied traits, syntactic shape ids and `use` statements.
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

static int s_view_qcmp(const void *x, const void *y) {
    return anvil_sv_cmp(*(const struct anvil_str_view *)x, *(const struct anvil_str_view *)y);
}

/* Distinct trait ids as they are collected: a set by content, behind a cache by address (most ids repeat a view
 * the assembler already holds). */
struct s_id_set {
    struct anvil__asm_ids ids;
    struct anvil_str_view seen[64];
};

static void s_id_set_add(struct anvil__asm *a, struct s_id_set *set, struct anvil_str_view id) {
    size_t k = ((uintptr_t)id.ptr >> 3) & 63;
    if (set->seen[k].ptr != id.ptr || set->seen[k].len != id.len) {
        set->seen[k] = id;
        anvil__asm_ids_add(a, &set->ids, id);
    }
}

static void s_trait_ids_add(struct anvil__asm *a, const struct anvil__asm_traits *traits, struct s_id_set *set) {
    for (size_t i = 0; i < traits->count; i++) {
        s_id_set_add(a, set, traits->items[i].id);
    }
}

/* Every trait id the model applies, sorted and without repeats, in `*out` (scratch memory). */
size_t anvil__asm_applied_traits(struct anvil__asm *a, struct anvil_str_view **out) {
    struct s_id_set set;
    memset(&set, 0, sizeof(set));
    for (size_t i = 0; i < a->count; i++) {
        const struct anvil__asm_shape *s = &a->shapes[i];
        s_trait_ids_add(a, &s->traits, &set);
        for (size_t m = 0; m < s->member_count; m++) {
            s_trait_ids_add(a, &s->members[m].traits, &set);
        }
    }
    for (size_t i = 0; i < a->member_apply_count; i++) {
        s_trait_ids_add(a, &a->member_applies[i].traits, &set);
    }
    struct anvil_str_view *ids = anvil__asm_alloc(a, (set.ids.count + 1) * sizeof(*ids));
    size_t count = 0;
    for (size_t i = 0; ids && set.ids.mask && i <= set.ids.mask; i++) {
        if (set.ids.slots[i].ptr) {
            ids[count++] = set.ids.slots[i];
        }
    }
    if (count > 1) {
        qsort(ids, count, sizeof(*ids), s_view_qcmp);
    }
    *out = ids;
    return count;
}

/*
 * Whether `id` (no member) names a shape: defined, in the prelude, or a trait
 * the model applies. anvil, unlike Smithy, needs no definition to apply a
 * trait (the AWS models carry none), so an applied trait is as known as a
 * defined shape: `@auth([sigv4])` with `use aws.auth#sigv4` is fine.
 */
static bool s_known_id(struct anvil__asm *a, struct anvil_str_view id, const struct anvil_str_view *traits,
                       size_t trait_count) {
    return anvil__asm_defined(a, id) ||
           (trait_count && bsearch(&id, traits, trait_count, sizeof(*traits), s_view_qcmp)) ||
           (anvil_sv_starts_with(id, anvil_sv_from_cstr("smithy.api#")) &&
            anvil__prelude_type(anvil_sv_slice(id, 11, SIZE_MAX), NULL));
}

/* The syntactic shape ids that named no shape when read and still do not: a DANGER, as Smithy says it. */
void anvil__asm_syntactic_check(struct anvil__asm *a, const struct anvil_str_view *traits, size_t trait_count) {
    for (size_t i = 0; i < a->syntactic_count; i++) {
        const struct anvil__asm_syntactic *p = &a->syntactic[i];
        if (!s_known_id(a, p->root, traits, trait_count)) {
            /* Smithy gives the event no shape: it is about the value, wherever it is. */
            anvil__asm_event(
                a, ANVIL_SEVERITY_DANGER, anvil_sv("", 0), "SyntacticShapeIdTarget",
                "Syntactic shape ID `%.*s` does not resolve to a valid shape ID: `%.*s`. Did you mean to quote "
                "this string? Are you missing a model file?",
                (int)p->text.len, p->text.ptr, (int)p->id.len, p->id.ptr);
        }
    }
}

/*
 * A trait must be a trait: a shape of the model applied as a trait needs
 * @trait (Smithy's validateTraitWithTraitDefinition). Traits the model does
 * not define are not checked: anvil takes them as defined elsewhere.
 */
void anvil__asm_trait_shapes_check(struct anvil__asm *a, const struct anvil_str_view *ids, size_t count) {
    for (size_t i = 0; i < count; i++) {
        struct anvil__asm_shape *t = anvil__asm_find(a, ids[i]);
        if (t && !anvil__asm_trait_find(&t->traits, ANVIL_SV("smithy.api#trait"))) {
            anvil__asm_event(
                a, ANVIL_SEVERITY_ERROR, ids[i], "Model",
                "Shape `%.*s` cannot be applied as a trait. If this is a custom trait, please add `@trait` to "
                "this shape.",
                (int)ids[i].len, ids[i].ptr);
        }
    }
}

/* ---- apply ---- */

void anvil__asm_apply_to_member(struct anvil__asm *a, struct anvil_str_view id,
                                const struct anvil__asm_traits *traits) {
    struct anvil__asm_member_apply *entry = NULL;
    for (size_t i = 0; i < a->member_apply_count && !entry; i++) {
        if (anvil_sv_eq(a->member_applies[i].id, id)) {
            entry = &a->member_applies[i];
        }
    }
    if (!entry) {
        if (!anvil__asm_grow(a, (void **)&a->member_applies, a->member_apply_count, &a->member_apply_cap,
                             sizeof(*a->member_applies))) {
            return;
        }
        entry = &a->member_applies[a->member_apply_count++];
        memset(entry, 0, sizeof(*entry));
        entry->id = id;
    }
    for (size_t i = 0; i < traits->count; i++) {
        anvil__asm_trait_add(a, id, &entry->traits, &traits->items[i]);
    }
}

/* Merges `traits` into the shape or member `target` names. */
void anvil__asm_apply(struct anvil__asm *a, struct anvil_str_view target, const struct anvil__asm_traits *traits) {
    size_t dollar = anvil_sv_find_byte(target, 0, '$');
    struct anvil_str_view root = dollar == SIZE_MAX ? target : anvil_sv_slice(target, 0, dollar);
    struct anvil__asm_shape *s = anvil__asm_find(a, root);
    if (!s) {
        for (size_t i = 0; i < traits->count; i++) {
            struct anvil_str_view t = traits->items[i].id;
            if (anvil_sv_starts_with(root, anvil_sv_from_cstr("smithy.api#"))) {
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, target, "Model",
                                 "Cannot apply `%.*s` to an immutable prelude shape defined in `smithy.api`.",
                                 (int)t.len, t.ptr);
            } else {
                /* Smithy: no shape, and the trait's idiomatic name (prelude traits without `smithy.api#`). */
                struct anvil_str_view name =
                    anvil_sv_starts_with(t, ANVIL_SV("smithy.api#")) ? anvil_sv_slice(t, 11, SIZE_MAX) : t;
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                                 "Trait `%.*s` applied to unknown shape `%.*s`", (int)name.len, name.ptr,
                                 (int)target.len, target.ptr);
            }
        }
        return;
    }
    if (dollar == SIZE_MAX) {
        for (size_t i = 0; i < traits->count; i++) {
            anvil__asm_trait_add(a, target, &s->traits, &traits->items[i]);
        }
        return;
    }
    struct anvil__asm_member *m = anvil__asm_local_member(a, s, anvil_sv_slice(target, dollar + 1, SIZE_MAX));
    if (!m) {
        anvil__asm_apply_to_member(a, target, traits); /* an inherited member, or none: the loader checks */
        return;
    }
    for (size_t i = 0; i < traits->count; i++) {
        anvil__asm_trait_add(a, target, &m->traits, &traits->items[i]);
    }
}

/* ---- a second definition of one shape ---- */

static bool s_same_definition(const struct anvil__asm_shape *x, const struct anvil__asm_shape *y) {
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

void anvil__asm_duplicates(struct anvil__asm *a) {
    for (size_t i = 0; i < a->count; i++) {
        struct anvil__asm_shape *dup = &a->shapes[i];
        if (!dup->dup_of) {
            continue;
        }
        struct anvil__asm_shape *first = &a->shapes[dup->dup_of - 1];
        char at_first[512], at_dup[512];
        anvil__asm_where(first->file, first->at, at_first, sizeof(at_first));
        anvil__asm_where(dup->file, dup->at, at_dup, sizeof(at_dup));
        if (!s_same_definition(first, dup)) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, dup->id, "Model",
                             "Conflicting shape definition for `%.*s` found at `%s` and `%s`", (int)dup->id.len,
                             dup->id.ptr, at_first, at_dup);
            continue;
        }
        anvil__asm_event(a, ANVIL_SEVERITY_NOTE, dup->id, "Model.IgnoredDuplicateDefinition",
                         "Ignoring duplicate but equivalent shape definition: %.*s defined at %s and %s",
                         (int)dup->id.len, dup->id.ptr, at_dup, at_first);
        for (size_t k = 0; k < dup->traits.count; k++) {
            anvil__asm_trait_add(a, first->id, &first->traits, &dup->traits.items[k]);
        }
        for (size_t m = 0; m < dup->member_count; m++) {
            struct anvil__asm_member *dm = &dup->members[m];
            for (size_t k = 0; k < dm->traits.count; k++) {
                anvil__asm_trait_add(a, first->id, &first->members[m].traits, &dm->traits.items[k]);
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

static struct anvil_json s_zero(struct anvil__asm *a, enum anvil_shape_type type) {
    if (type == ANVIL_SHAPE_BOOLEAN) {
        return anvil_json_make_bool(false);
    }
    if (type == ANVIL_SHAPE_BLOB || type == ANVIL_SHAPE_STRING) {
        return anvil__asm_str(a, anvil_sv("", 0));
    }
    return anvil_json_make_int(0);
}

static bool s_is_zero(const struct anvil_json *v) {
    return v && ((anvil_json_is_bool(v) && !anvil_json_bool(v)) ||
                 (anvil_json_type(v) == ANVIL_JSON_NUMBER && anvil_json_double(v) == 0));
}

/* Whether `target` was boxed (nullable) in 1.0 terms. */
static bool s_boxed(struct anvil__asm *a, struct anvil_str_view target) {
    struct anvil__asm_shape *t = anvil__asm_find(a, target);
    if (!t) {
        return anvil_sv_starts_with(target, anvil_sv_from_cstr("smithy.api#")) &&
               !anvil_sv_starts_with(target, anvil_sv_from_cstr("smithy.api#Primitive"));
    }
    if (anvil__asm_trait_find(&t->traits, anvil_sv_from_cstr("smithy.api#box"))) {
        return true;
    }
    struct anvil__asm_trait *def = anvil__asm_trait_find(&t->traits, anvil_sv_from_cstr("smithy.api#default"));
    return t->version >= 2 && s_had_zero_value(t->type) && !(def && s_is_zero(&def->value));
}

void anvil__asm_upgrade(struct anvil__asm *a) {
    struct anvil_str_view box = anvil_sv_from_cstr("smithy.api#box");
    struct anvil_str_view dflt = anvil_sv_from_cstr("smithy.api#default");
    for (size_t i = 0; i < a->count; i++) {
        struct anvil__asm_shape *s = &a->shapes[i];
        if (s->version < 2 && !s->dup_of && s_had_zero_value(s->type) && !anvil__asm_trait_find(&s->traits, box) &&
            !anvil__asm_trait_find(&s->traits, dflt)) {
            struct anvil_json zero = s_zero(a, s->type);
            anvil__asm_trait_add(a, s->id, &s->traits, &(struct anvil__asm_trait){.id = dflt, .value = zero});
        }
    }
    for (size_t i = 0; i < a->count; i++) {
        struct anvil__asm_shape *s = &a->shapes[i];
        if (s->version >= 2 || s->dup_of || s->type != ANVIL_SHAPE_STRUCTURE) {
            continue;
        }
        for (size_t k = 0; k < s->member_count; k++) {
            struct anvil__asm_member *m = &s->members[k];
            enum anvil_shape_type type;
            if (!m->target.len || !anvil__asm_type_of(a, m->target, &type)) {
                continue;
            }
            struct anvil__asm_shape *t = anvil__asm_find(a, m->target);
            bool streaming = type == ANVIL_SHAPE_BLOB && t &&
                             anvil__asm_trait_find(&t->traits, anvil_sv_from_cstr("smithy.api#streaming")) &&
                             !anvil__asm_trait_find(&m->traits, anvil_sv_from_cstr("smithy.api#required"));
            bool member_boxed = anvil__asm_trait_find(&m->traits, box) != NULL;
            if ((s_had_zero_value(type) || streaming) && !anvil__asm_trait_find(&m->traits, dflt) && !member_boxed &&
                !s_boxed(a, m->target)) {
                struct anvil_json zero = s_zero(a, type);
                anvil__asm_trait_add(a, s->id, &m->traits, &(struct anvil__asm_trait){.id = dflt, .value = zero});
            } else if (member_boxed && !anvil__asm_trait_find(&m->traits, dflt)) {
                struct anvil_json null = anvil_json_make_null();
                anvil__asm_trait_add(a, s->id, &m->traits, &(struct anvil__asm_trait){.id = dflt, .value = null});
            }
        }
    }
}

/* ---- rules the model builder applies ---- */

void anvil__asm_enum_values(struct anvil__asm *a, struct anvil__asm_shape *s) {
    struct anvil_str_view ev = anvil_sv_from_cstr("smithy.api#enumValue");
    if (!s->member_count && !anvil__asm_any_member(a, s)) { /* Smithy's shape builders, mixins applied */
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "%s",
                         s->type == ANVIL_SHAPE_ENUM ? "enum must have at least one entry"
                                                     : "intEnum shapes must have at least one member");
    }
    for (size_t k = 0; k < s->member_count; k++) {
        struct anvil__asm_member *m = &s->members[k];
        struct anvil__asm_trait *t = anvil__asm_trait_find(&m->traits, ev);
        struct anvil_str_view id = anvil__asm_member_id(a, s->id, m->name);
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
                struct anvil_json name = anvil__asm_str(a, m->name);
                anvil__asm_trait_add(a, id, &m->traits, &(struct anvil__asm_trait){.id = ev, .value = name});
            } else if (!anvil_json_is_string(&t->value)) {
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "EnumShape",
                                 "enum members can only be assigned string values, but found: %.*s", vl, vp);
            }
        } else if (!t || anvil_json_type(&t->value) != ANVIL_JSON_NUMBER) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                             "intEnum members require integer values, but found: %.*s", t ? vl : 4, t ? vp : "null");
        } else if (!anvil_json_is_int(&t->value)) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                             "intEnum members do not support floating point values");
        } else if (anvil_json_int(&t->value) > INT32_MAX || anvil_json_int(&t->value) < INT32_MIN) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                             "intEnum members must fit within an integer, but found: %.*s", vl, vp);
        }
        anvil_buf_clean_up(&shown);
    }
}

/*
 * `use` of a shape that is nowhere: a WARNING, as in Smithy, unless it names
 * a trait the model applies (anvil needs no trait definitions; the AWS
 * models' IDL imports dozens of AWS traits).
 */
void anvil__asm_use_check(struct anvil__asm *a, const struct anvil__idl_file *f, const struct anvil_str_view *traits,
                          size_t trait_count) {
    for (size_t k = 0; k < f->use_count; k++) {
        if (!s_known_id(a, f->uses[k].id, traits, trait_count)) {
            anvil__asm_event(a, ANVIL_SEVERITY_WARNING, anvil_sv("", 0), "Model",
                             "Use statement refers to undefined shape: %.*s", (int)f->uses[k].id.len,
                             f->uses[k].id.ptr);
        }
    }
}
