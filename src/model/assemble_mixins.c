/*
 * Model assembly: mixins. Elided member targets (`$name`), mixin cycles,
 * shapes Smithy would not build, and the members and traits a shape takes
 * from its mixins.
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

/* The most mixins deep a chain may go (beyond any real model; bounds the recursion). */
#define S_MAX_MIXIN_DEPTH 4096

/* ---- elided member targets (`$name`): from the `for` resource, then the mixins ---- */

/*
 * The member `name` of `s` or of the mixins it has, depth first, with a target when `with_target`: each shape is
 * looked at once per search (`stamp`), so a diamond of mixins costs its size, not its paths. NULL when none has it.
 */
static struct anvil__asm_member *s_find_member(struct anvil__asm *a, struct anvil__asm_shape *s,
                                               struct anvil_str_view name, bool with_target, uint32_t stamp,
                                               size_t depth) {
    if (s->visit == stamp || depth > S_MAX_MIXIN_DEPTH) {
        return NULL;
    }
    s->visit = stamp;
    for (size_t i = 0; i < s->member_count; i++) {
        if (anvil_sv_eq(s->members[i].name, name) && (!with_target || s->members[i].target.len)) {
            return &s->members[i];
        }
    }
    for (size_t i = 0; i < s->mixin_count; i++) {
        struct anvil__asm_shape *m = anvil__asm_find(a, s->mixins[i]);
        struct anvil__asm_member *found = m ? s_find_member(a, m, name, with_target, stamp, depth + 1) : NULL;
        if (found) {
            return found;
        }
    }
    return NULL;
}

/* The target member `name` has in mixin `s` (or a mixin of it); empty when none gives it one. */
static struct anvil_str_view s_member_lookup(struct anvil__asm *a, struct anvil__asm_shape *s,
                                             struct anvil_str_view name) {
    struct anvil__asm_member *m = s_find_member(a, s, name, true, anvil__asm_stamp(a), 0);
    return m ? m->target : anvil_sv("", 0);
}

void anvil__asm_elide(struct anvil__asm *a, struct anvil__asm_shape *s, size_t depth) {
    if (s->elision_done || s->elision_busy || depth > S_MAX_MIXIN_DEPTH) {
        return;
    }
    s->elision_busy = true;
    for (size_t k = 0; k < s->mixin_count; k++) { /* first, so the searches below find every target */
        struct anvil__asm_shape *mixin = anvil__asm_find(a, s->mixins[k]);
        if (mixin) {
            anvil__asm_elide(a, mixin, depth + 1);
        }
    }
    struct anvil__asm_shape *resource = s->for_resource.len ? anvil__asm_find(a, s->for_resource) : NULL;
    if (resource && resource->type != ANVIL_SHAPE_RESOURCE) {
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                         "The target of the `for` production must be a resource shape, but found a %s shape: %.*s",
                         anvil_shape_type_name(resource->type), (int)resource->id.len, resource->id.ptr);
        resource = NULL;
    }
    for (size_t i = 0; i < s->member_count; i++) {
        struct anvil__asm_member *m = &s->members[i];
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
        uint32_t stamp = anvil__asm_stamp(a); /* one search over all the mixins: what one lacks, another lacks too */
        for (size_t k = 0; k < s->mixin_count && !m->target.len; k++) {
            struct anvil__asm_shape *mixin = anvil__asm_find(a, s->mixins[k]);
            struct anvil__asm_member *found = mixin ? s_find_member(a, mixin, m->name, true, stamp, 0) : NULL;
            m->target = found ? found->target : m->target;
        }
        if (!m->target.len) {
            struct anvil_str_view id = anvil__asm_concat(a, s->id, "$", m->name);
            anvil__asm_event(
                a, ANVIL_SEVERITY_ERROR, id, "Model",
                "Member target was elided, but no bound resource or mixin contained a matching identifier or "
                "member name.");
        }
    }
    s->elision_busy = false;
    s->elision_done = true;
}

/* Whether a list, set or map has member `name`, itself or through its mixins. */
static bool s_any_member(struct anvil__asm *a, struct anvil__asm_shape *s, uint32_t stamp, size_t depth) {
    if (s->visit == stamp || depth > S_MAX_MIXIN_DEPTH) {
        return false;
    }
    s->visit = stamp;
    for (size_t i = 0; i < s->mixin_count && !s->member_count; i++) {
        struct anvil__asm_shape *m = anvil__asm_find(a, s->mixins[i]);
        if (m && s_any_member(a, m, stamp, depth + 1)) {
            return true;
        }
    }
    return s->member_count > 0;
}

/* Whether `s` has a member, its own or from a mixin (at any depth). */
bool anvil__asm_any_member(struct anvil__asm *a, struct anvil__asm_shape *s) {
    return s_any_member(a, s, anvil__asm_stamp(a), 0);
}

static bool s_has_member(struct anvil__asm *a, struct anvil__asm_shape *s, struct anvil_str_view name) {
    return s_find_member(a, s, name, false, anvil__asm_stamp(a), 0) != NULL;
}

/* The members a list, set or map may have (Smithy's builders refuse the others); whether all are. */
static bool s_collection_members_ok(struct anvil__asm *a, struct anvil__asm_shape *s) {
    bool ok = true;
    for (size_t i = 0; i < s->member_count; i++) {
        struct anvil_str_view n = s->members[i].name;
        if (s->type == ANVIL_SHAPE_MAP && !anvil_sv_eq_cstr(n, "key") && !anvil_sv_eq_cstr(n, "value")) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                             "Map shapes may only have `key` and `value` members, but found `%.*s`", (int)n.len, n.ptr);
            ok = false;
        } else if (s->type != ANVIL_SHAPE_MAP && !anvil_sv_eq_cstr(n, "member")) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
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
/*
 * `s` is being decided again: the chain from it to the end of the path is a
 * cycle. Each member gets Smithy's event, naming the others in the order
 * Smithy's Tarjan walk pops them when it starts where anvil's walk did (for
 * cycles of three or more, Smithy starts where Java's HashMap order says).
 */
static void s_mixin_cycle(struct anvil__asm *a, struct anvil__asm_shape *s) {
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
        struct anvil__asm_shape *p = a->path[from + i];
        p->in_cycle = true;
        char others[2048];
        size_t used = 0;
        others[0] = '\0';
        for (size_t k = 1; k <= n && used < sizeof(others); k++) {
            const struct anvil__asm_shape *o = a->path[from + k % n];
            if (o != p) {
                used += (size_t)snprintf(others + used, sizeof(others) - used, "%s%.*s", used ? ", " : "",
                                         (int)o->id.len, o->id.ptr);
            }
        }
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, p->id, "Model",
                         "Unable to resolve mixins; cycles detected between this shape and [%s]", others);
    }
}

bool anvil__asm_broken(struct anvil__asm *a, struct anvil__asm_shape *s) {
    if (s->broken >= 2) {
        return s->broken == 3;
    }
    if (s->broken == 1) {
        s_mixin_cycle(a, s);
        return false;
    }
    if (a->path_len >= S_MAX_MIXIN_DEPTH) {
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Mixins nest deeper than %d shapes",
                         S_MAX_MIXIN_DEPTH);
        s->broken = 3;
        return true;
    }
    if (!anvil__asm_grow(a, (void **)&a->path, a->path_len, &a->path_cap, sizeof(*a->path))) {
        return true;
    }
    a->path[a->path_len++] = s;
    s->broken = 1;
    bool broken = false;
    for (size_t i = 0; i < s->mixin_count && !broken; i++) {
        struct anvil__asm_shape *m = anvil__asm_find(a, s->mixins[i]);
        if (!m || (m != s && anvil__asm_broken(a, m) && !(s->in_cycle && m->in_cycle))) {
            struct anvil_str_view at = s->id;
            for (size_t k = 0; k < s->member_count; k++) {
                if (s->members[k].elided) {
                    at = anvil__asm_concat(a, s->id, "$", s->members[k].name);
                    break;
                }
            }
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Cannot apply mixin to %.*s: %.*s not found",
                             (int)at.len, at.ptr, (int)s->mixins[i].len, s->mixins[i].ptr);
            broken = true;
        }
    }
    for (size_t i = 0; i < s->mixin_count && !broken && !s->in_cycle; i++) {
        struct anvil__asm_shape *m = anvil__asm_find(a, s->mixins[i]);
        if (m && !m->in_cycle && !anvil__asm_trait_find(&m->traits, ANVIL_SV("smithy.api#mixin"))) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Target",
                             "Attempted to use %.*s as a mixin, but it is not marked with the mixin trait",
                             (int)m->id.len, m->id.ptr);
        }
    }
    if (!broken && s->type >= ANVIL_SHAPE_LIST && s->type <= ANVIL_SHAPE_MAP) {
        /* Wrong members are said, and the shape is still built; a missing one stops it. */
        s_collection_members_ok(a, s);
        bool key = s->type != ANVIL_SHAPE_MAP || s_has_member(a, s, ANVIL_SV("key"));
        bool value = s->type != ANVIL_SHAPE_MAP || s_has_member(a, s, ANVIL_SV("value"));
        bool member = s->type == ANVIL_SHAPE_MAP || s_has_member(a, s, ANVIL_SV("member"));
        if (s->type == ANVIL_SHAPE_MAP && (!key || !value)) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                             "Missing required member%s of shape `%.*s`: %s%s%s", !key && !value ? "s" : "",
                             (int)s->id.len, s->id.ptr, key ? "" : "key", !key && !value ? ", " : "",
                             value ? "" : "value");
            broken = true;
        } else if (!member) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member of shape `%.*s`: member",
                             (int)s->id.len, s->id.ptr);
            broken = true;
        }
    }
    a->path_len--;
    broken = broken || s->in_cycle;
    s->broken = broken ? 3 : 2;
    return broken;
}

void anvil__asm_required_members(struct anvil__asm *a, struct anvil__asm_shape *s) {
    if (s->mixin_count || (s->type >= ANVIL_SHAPE_LIST && s->type <= ANVIL_SHAPE_MAP)) {
        return; /* lists, sets and maps: anvil__asm_broken */
    }
    if (s->type == ANVIL_SHAPE_LIST || s->type == ANVIL_SHAPE_SET) {
        if (!anvil__asm_local_member(s, anvil_sv_from_cstr("member"))) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member of shape `%.*s`: member",
                             (int)s->id.len, s->id.ptr);
        }
    } else if (s->type == ANVIL_SHAPE_MAP) {
        bool key = anvil__asm_local_member(s, anvil_sv_from_cstr("key")) != NULL;
        bool value = anvil__asm_local_member(s, anvil_sv_from_cstr("value")) != NULL;
        if (!key || !value) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                             "Missing required member%s of shape `%.*s`: %s%s%s", !key && !value ? "s" : "",
                             (int)s->id.len, s->id.ptr, key ? "" : "key", !key && !value ? ", " : "",
                             value ? "" : "value");
        }
    }
}

/*
 * A member the shape redeclares from a mixin: the same target makes its
 * traits "introduced" (written as an apply, as Smithy writes them); another
 * target is an error.
 */
void anvil__asm_mixin_members(struct anvil__asm *a, struct anvil__asm_shape *s) {
    /* Mixins of another type, and two mixins giving one member different targets. */
    struct anvil_buf wrong;
    anvil_buf_init(&wrong, NULL, 4096);
    for (size_t i = 0; i < s->mixin_count; i++) {
        struct anvil__asm_shape *mixin = anvil__asm_find(a, s->mixins[i]);
        if (mixin && mixin->type != s->type) {
            (void)anvil_buf_appendf(&wrong, "%s`%.*s`", wrong.len ? ", " : "", (int)mixin->id.len, mixin->id.ptr);
        }
        for (size_t k = 0; mixin && k < mixin->member_count; k++) {
            for (size_t j = 0; j < i; j++) {
                struct anvil__asm_shape *earlier = anvil__asm_find(a, s->mixins[j]);
                struct anvil_str_view t =
                    earlier ? s_member_lookup(a, earlier, mixin->members[k].name) : anvil_sv("", 0);
                if (t.len && !anvil_sv_eq(t, mixin->members[k].target) &&
                    !anvil__asm_local_member(s, mixin->members[k].name)) {
                    struct anvil_str_view id = anvil__asm_concat(a, s->id, "$", mixin->members[k].name);
                    /* Smithy names the member the earlier mixin gave the shape. */
                    anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                                     "Member conflicts with an inherited mixin member: `%.*s`", (int)id.len, id.ptr);
                }
            }
        }
    }
    if (wrong.len) {
        struct anvil_str_view v = anvil_buf_view(&wrong);
        anvil__asm_event(
            a, ANVIL_SEVERITY_ERROR, s->id, "Model",
            "Mixins may only be mixed into shapes of the same type. The following mixins were applied to the %s "
            "shape `%.*s` which are not %s shapes: [%.*s]",
            anvil_shape_type_name(s->type), (int)s->id.len, s->id.ptr, anvil_shape_type_name(s->type), (int)v.len,
            v.ptr);
    }
    anvil_buf_clean_up(&wrong);
    size_t kept = 0; /* members that stay the shape's own, compacted in place */
    for (size_t k = 0; k < s->member_count; k++) {
        struct anvil__asm_member *m = &s->members[k];
        struct anvil_str_view inherited = anvil_sv("", 0);
        struct anvil__asm_shape *from = NULL;
        for (size_t i = 0; i < s->mixin_count; i++) {
            struct anvil__asm_shape *mixin = anvil__asm_find(a, s->mixins[i]);
            struct anvil_str_view t = mixin ? s_member_lookup(a, mixin, m->name) : anvil_sv("", 0);
            if (t.len && (!inherited.len || !anvil_sv_eq(t, m->target))) {
                inherited = t; /* the first mixin with the member, or the one that conflicts */
                from = mixin;
            }
        }
        if (!inherited.len) {
            s->members[kept++] = *m;
            continue;
        }
        struct anvil_str_view id = anvil__asm_concat(a, s->id, "$", m->name);
        if (!anvil_sv_eq(inherited, m->target)) {
            struct anvil_str_view mixin_member = anvil__asm_concat(a, from->id, "$", m->name);
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                             "Member conflicts with an inherited mixin member: `%.*s`", (int)mixin_member.len,
                             mixin_member.ptr);
            s->members[kept++] = *m;
            continue;
        }
        if (m->traits.count) {
            anvil__asm_apply_to_member(a, id, &m->traits);
        }
    }
    s->member_count = kept;
}

/* Operation and resource mixins may not bind input, output or properties. */
void anvil__asm_mixin_rules(struct anvil__asm *a, struct anvil__asm_shape *s) {
    if (!anvil__asm_trait_find(&s->traits, anvil_sv_from_cstr("smithy.api#mixin"))) {
        return;
    }
    if (s->type == ANVIL_SHAPE_OPERATION) {
        struct anvil_str_view in =
            anvil_json_string(anvil_json_object_get_cstr(anvil_json_object_get_cstr(&s->props, "input"), "target"));
        struct anvil_str_view out =
            anvil_json_string(anvil_json_object_get_cstr(anvil_json_object_get_cstr(&s->props, "output"), "target"));
        if ((in.len && !anvil_sv_eq_cstr(in, "smithy.api#Unit")) ||
            (out.len && !anvil_sv_eq_cstr(out, "smithy.api#Unit"))) {
            anvil__asm_event(
                a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                "Operation shapes with the mixin trait MUST target `smithy.api#Unit` for their input and output. "
                "Operation mixin shape `%.*s` defines one or both of these properties.",
                (int)s->id.len, s->id.ptr);
        }
    } else if (s->type == ANVIL_SHAPE_RESOURCE &&
               (anvil_json_len(anvil_json_object_get_cstr(&s->props, "properties")) ||
                anvil_json_len(anvil_json_object_get_cstr(&s->props, "identifiers")))) {
        anvil__asm_event(
            a, ANVIL_SEVERITY_ERROR, s->id, "Model",
            "Resource shapes with the mixin trait may not define any properties. Resource mixin shape `%.*s` "
            "defines one or more properties.",
            (int)s->id.len, s->id.ptr);
    }
}
