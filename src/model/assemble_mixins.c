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

/* The most mixins deep a chain may go: the JSON AST loader's limit too (beyond any real model; bounds the
 * recursion). */
#define S_MAX_MIXIN_DEPTH ANVIL__MAX_MIXIN_DEPTH

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
        return s->broken >= 3;
    }
    if (s->broken == 1) {
        s_mixin_cycle(a, s);
        return false;
    }
    if (a->path_len > S_MAX_MIXIN_DEPTH) {
        /* Said once, here: the shapes above it are unbuilt because of it, not because a mixin is missing. */
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Mixins nest deeper than %d shapes below `%.*s`",
                         S_MAX_MIXIN_DEPTH, (int)a->path[0]->id.len, a->path[0]->id.ptr);
        s->broken = 4;
        return true;
    }
    if (!anvil__asm_grow(a, (void **)&a->path, a->path_len, &a->path_cap, sizeof(*a->path))) {
        return true;
    }
    a->path[a->path_len++] = s;
    s->broken = 1;
    bool broken = false;
    bool too_deep = false;
    for (size_t i = 0; i < s->mixin_count && !broken; i++) {
        struct anvil__asm_shape *m = anvil__asm_find(a, s->mixins[i]);
        if (m && m != s && anvil__asm_broken(a, m) && m->broken == 4) {
            broken = too_deep = true;
        } else if (!m || (m != s && m->broken >= 3 && !(s->in_cycle && m->in_cycle))) {
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
    s->broken = too_deep ? 4 : broken ? 3 : 2;
    return broken;
}

void anvil__asm_required_members(struct anvil__asm *a, struct anvil__asm_shape *s) {
    if (s->mixin_count || (s->type >= ANVIL_SHAPE_LIST && s->type <= ANVIL_SHAPE_MAP)) {
        return; /* lists, sets and maps: anvil__asm_broken */
    }
    if (s->type == ANVIL_SHAPE_LIST || s->type == ANVIL_SHAPE_SET) {
        if (!anvil__asm_local_member(a, s, anvil_sv_from_cstr("member"))) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model", "Missing required member of shape `%.*s`: member",
                             (int)s->id.len, s->id.ptr);
        }
    } else if (s->type == ANVIL_SHAPE_MAP) {
        bool key = anvil__asm_local_member(a, s, anvil_sv_from_cstr("key")) != NULL;
        bool value = anvil__asm_local_member(a, s, anvil_sv_from_cstr("value")) != NULL;
        if (!key || !value) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, s->id, "Model",
                             "Missing required member%s of shape `%.*s`: %s%s%s", !key && !value ? "s" : "",
                             (int)s->id.len, s->id.ptr, key ? "" : "key", !key && !value ? ", " : "",
                             value ? "" : "value");
        }
    }
}

/*
 * What the mixins of one shape give each member name: for each mixin (in order), the target the member has in
 * it or a mixin of it (the first found depth first, as anvil__asm_elide looks), gathered in one walk over each
 * mixin. A shape with many mixins, or mixins with many members, costs their size, not their product.
 */
struct s_gift {
    struct anvil_str_view target;
    uint32_t from; /* the mixin's place in the shape's list */
    uint32_t next; /* 1 + the next gift of the same name; 0 at the end */
};

struct s_gifted {
    struct anvil_str_view name, first_target;
    uint32_t first, last; /* 1 + its first and last gift */
    uint32_t walk;        /* 1 + the mixin whose walk gave it last */
    bool several;         /* the mixins so far gave it more than one target */
};

struct s_gifts {
    struct s_gifted *slots;
    size_t mask, count;
    struct s_gift *items;
    size_t item_count, item_cap;
};

/* The entry of `name`, made when `add`; NULL when there is none (or no memory). */
static struct s_gifted *s_gifted(struct anvil__asm *a, struct s_gifts *g, struct anvil_str_view name, bool add) {
    if (add && (g->count + 1) * 2 > g->mask) {
        size_t size = g->mask ? (g->mask + 1) * 2 : 32;
        struct s_gifted *slots = anvil__asm_alloc(a, size * sizeof(*slots));
        if (!slots) {
            return NULL;
        }
        memset(slots, 0, size * sizeof(*slots));
        for (size_t i = 0; g->mask && i <= g->mask; i++) {
            if (g->slots[i].first) {
                size_t j = anvil_json_hash(g->slots[i].name.ptr, g->slots[i].name.len) & (size - 1);
                while (slots[j].first) {
                    j = (j + 1) & (size - 1);
                }
                slots[j] = g->slots[i];
            }
        }
        g->slots = slots;
        g->mask = size - 1;
    }
    if (!g->slots) {
        return NULL;
    }
    size_t i = anvil_json_hash(name.ptr, name.len) & g->mask;
    for (; g->slots[i].first; i = (i + 1) & g->mask) {
        if (anvil__sv_same(g->slots[i].name, name)) {
            return &g->slots[i];
        }
    }
    if (!add) {
        return NULL;
    }
    g->slots[i].name = name;
    g->count++;
    return &g->slots[i];
}

/* Mixin `from` (or a mixin of it) gives `name` the target `target`: kept when it is the first of this walk. */
static void s_give(struct anvil__asm *a, struct s_gifts *g, struct anvil_str_view name, struct anvil_str_view target,
                   uint32_t from) {
    if (!anvil__asm_grow(a, (void **)&g->items, g->item_count, &g->item_cap, sizeof(*g->items)) ||
        g->item_count >= UINT32_MAX - 1) {
        return;
    }
    bool is_new = !s_gifted(a, g, name, false);
    struct s_gifted *e = s_gifted(a, g, name, true);
    if (!e || e->walk == from + 1) {
        return;
    }
    g->items[g->item_count] = (struct s_gift){target, from, 0};
    uint32_t at = (uint32_t)++g->item_count;
    if (is_new) {
        e->first = e->last = at;
        e->first_target = target;
    } else {
        g->items[e->last - 1].next = at;
        e->last = at;
        e->several = e->several || !anvil__sv_same(target, e->first_target);
    }
    e->walk = from + 1;
}

/* Every member with a target that `s` and its mixins have, depth first, given by mixin `from`. */
static void s_walk(struct anvil__asm *a, struct s_gifts *g, struct anvil__asm_shape *s, uint32_t from, uint32_t stamp,
                   size_t depth) {
    if (s->visit == stamp || depth > S_MAX_MIXIN_DEPTH) {
        return;
    }
    s->visit = stamp;
    for (size_t i = 0; i < s->member_count; i++) {
        if (s->members[i].target.len) {
            s_give(a, g, s->members[i].name, s->members[i].target, from);
        }
    }
    for (size_t i = 0; i < s->mixin_count; i++) {
        struct anvil__asm_shape *m = anvil__asm_find(a, s->mixins[i]);
        if (m) {
            s_walk(a, g, m, from, stamp, depth + 1);
        }
    }
}

/*
 * Mixins of another type, and mixins giving one member two targets. Then a member the shape redeclares from a
 * mixin: the same target makes its traits "introduced" (written as an apply, as Smithy writes them); another
 * target is an error.
 */
void anvil__asm_mixin_members(struct anvil__asm *a, struct anvil__asm_shape *s) {
    struct s_gifts g;
    memset(&g, 0, sizeof(g));
    struct anvil_buf wrong;
    anvil_buf_init(&wrong, NULL, 4096);
    for (uint32_t i = 0; i < s->mixin_count; i++) {
        struct anvil__asm_shape *mixin = anvil__asm_find(a, s->mixins[i]);
        if (!mixin) {
            continue;
        }
        if (mixin->type != s->type) {
            (void)anvil_buf_appendf(&wrong, "%s`%.*s`", wrong.len ? ", " : "", (int)mixin->id.len, mixin->id.ptr);
        }
        for (size_t k = 0; k < mixin->member_count; k++) { /* against what the mixins before it gave */
            struct anvil__asm_member *m = &mixin->members[k];
            const struct s_gifted *e = s_gifted(a, &g, m->name, false);
            if (e && (e->several || !anvil__sv_same(e->first_target, m->target)) &&
                !anvil__asm_local_member(a, s, m->name)) {
                struct anvil_str_view id = anvil__asm_concat(a, s->id, "$", m->name);
                /* Smithy names the member the earlier mixin gave the shape. */
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                                 "Member conflicts with an inherited mixin member: `%.*s`", (int)id.len, id.ptr);
            }
        }
        s_walk(a, &g, mixin, i, anvil__asm_stamp(a), 0);
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
        uint32_t from = 0;
        const struct s_gifted *e = s_gifted(a, &g, m->name, false);
        for (uint32_t at = e ? e->first : 0; at; at = g.items[at - 1].next) {
            const struct s_gift *gift = &g.items[at - 1];
            if (!inherited.len || !anvil__sv_same(gift->target, m->target)) {
                inherited = gift->target; /* the first mixin with the member, or the one that conflicts */
                from = gift->from;
            }
        }
        if (!inherited.len) {
            s->members[kept++] = *m;
            continue;
        }
        struct anvil_str_view id = anvil__asm_concat(a, s->id, "$", m->name);
        if (!anvil__sv_same(inherited, m->target)) {
            struct anvil__asm_shape *mixin = anvil__asm_find(a, s->mixins[from]);
            struct anvil_str_view mixin_member = anvil__asm_concat(a, mixin->id, "$", m->name);
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
    s->member_count = (uint32_t)kept;
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
