/*
 * Loading a Smithy JSON AST: shapes first (ids and types), then an index,
 * then every reference (member targets, operation input/output/errors,
 * service and resource bindings) resolved against the index and the
 * prelude, then mixins and `apply` statements merged into traits.
 */

#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "core/diag_origin.h"
#include "model/botocore_internal.h"
#include "model/idl_internal.h"
#include "model/model_internal.h"

static int(s_error)(ANVIL__ORIGIN_DECL struct anvil__model_builder *ld, int code, const char *fmt, ...)
    ANVIL_PRINTF(3 + ANVIL__ORIGIN_ARGC, 4 + ANVIL__ORIGIN_ARGC);
#define s_error(...) (s_error)(ANVIL__ORIGIN_HERE __VA_ARGS__)

static int(s_error)(ANVIL__ORIGIN_DECL struct anvil__model_builder *ld, int code, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset(ld->diag, code, 0, 0, 0, fmt, args);
    va_end(args);
    return ANVIL__ORIGIN_NOTE(ld->diag, code), code;
}

static int s_nomem(struct anvil__model_builder *ld) {
    return s_error(ld, ANVIL_ENOMEM, "out of memory");
}

int anvil__model_nomem(struct anvil__model_builder *b) {
    if (anvil_arena_exhausted(b->model->arena)) {
        return s_error(b, ANVIL_ELIMIT, "the model needs more memory than the arena allows");
    }
    return s_nomem(b);
}

/* The type named `name`, using the one table of names (anvil_shape_type_name). */
/* The length of the identifier at the start of `p` (up to `end`): 0 when there is none. */
static size_t s_identifier(const unsigned char *p, const unsigned char *end) {
    const unsigned char *at = p;
    while (at < end && *at == '_') {
        at++;
    }
    if (at == end || !anvil__idl_word[*at] || (at == p && *at >= '0' && *at <= '9')) {
        return 0; /* a letter first, or a letter or digit after underscores */
    }
    while (at < end && anvil__idl_word[*at]) {
        at++;
    }
    return (size_t)(at - p);
}

bool anvil__identifier_valid(struct anvil_str_view s) {
    const unsigned char *p = (const unsigned char *)s.ptr;
    return s.len && s_identifier(p, p + s.len) == s.len;
}

bool anvil__shape_id_valid(struct anvil_str_view id) {
    const unsigned char *p = (const unsigned char *)id.ptr, *end = p + id.len;
    for (;;) { /* the namespace: identifiers joined by '.' */
        size_t n = id.len ? s_identifier(p, end) : 0;
        if (n == 0) {
            return false;
        }
        p += n;
        if (p == end || (*p != '.' && *p != '#')) {
            return false;
        }
        if (*p++ == '#') {
            return s_identifier(p, end) == (size_t)(end - p) && p < end;
        }
    }
}

int anvil__model_index(struct anvil__model_builder *ld) {
    struct anvil_model *m = ld->model;
    if (anvil__model_add_prelude(m) != ANVIL_OK) {
        return s_nomem(ld);
    }
    size_t total = m->count + m->prelude_count;
    size_t cap = 16;
    while (cap < total * 2) {
        cap *= 2;
    }
    m->index = anvil_arena_alloc(m->arena, cap * sizeof(*m->index), 0);
    if (!m->index) {
        return s_nomem(ld);
    }
    memset(m->index, 0, cap * sizeof(*m->index));
    m->index_mask = cap - 1;
    for (size_t i = 0; i < total; i++) {
        struct anvil_shape *s = i < m->count ? &m->shapes[i] : &m->prelude[i - m->count];
        size_t slot = s->id_hash & m->index_mask;
        while (m->index[slot]) {
            if (anvil_sv_eq(m->index[slot]->id, s->id)) {
                if (s->prelude) {
                    goto next; /* a model may redefine nothing in smithy.api, but keep its own */
                }
                return s_error(ld, ANVIL_EMODEL, "shape `%.*s` is defined twice", (int)s->id.len, s->id.ptr);
            }
            slot = (slot + 1) & m->index_mask;
        }
        m->index[slot] = s;
    next:;
    }
    ld->unit = anvil_model_find(m, "smithy.api#Unit", 15);
    return ANVIL_OK;
}

/* The shape a `{"target": "ns#X"}` reference names. */
static int s_target(struct anvil__model_builder *ld, const struct anvil_shape *from, const char *what,
                    const struct anvil_json *ref, const struct anvil_shape **out) {
    const struct anvil_json *target = anvil_json_object_get_cstr(ref, "target");
    if (!anvil_json_is_string(target)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s must be an object with a string `target`", (int)from->id.len,
                       from->id.ptr, what);
    }
    struct anvil_str_view id = anvil_json_string(target);
    *out = anvil_model_find(ld->model, id.ptr, id.len);
    if (!*out) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s targets `%.*s`, which is not defined", (int)from->id.len,
                       from->id.ptr, what, (int)id.len, id.ptr);
    }
    return ANVIL_OK;
}

/* The shape a member's target names. */
static int s_member_target(struct anvil__model_builder *ld, struct anvil_shape *s, const char *what,
                           struct anvil_str_view id, struct anvil_member *out) {
    out->target = anvil_model_find(ld->model, id.ptr, id.len);
    if (out->target) {
        return ANVIL_OK;
    }
    if (!ld->allow_unresolved) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s targets `%.*s`, which is not defined", (int)s->id.len,
                       s->id.ptr, what, (int)id.len, id.ptr);
    }
    /* Keep going: validation reports it as a `Target` event. */
    struct anvil_model *m = ld->model;
    if (anvil__mem_grow(m->allocator, (void **)&m->unresolved, &m->unresolved_cap, sizeof(*m->unresolved),
                        m->unresolved_count + 1) != ANVIL_OK) {
        return s_nomem(ld);
    }
    struct anvil__unresolved *u = &m->unresolved[m->unresolved_count++];
    u->shape = s;
    u->member = out->name;
    u->target = id;
    return ANVIL_OK;
}

int anvil__model_member(struct anvil__model_builder *ld, struct anvil_shape *s, struct anvil_str_view name,
                        struct anvil_str_view target, const struct anvil_json *traits, struct anvil_member *out) {
    char what[160];
    snprintf(what, sizeof(what), "member `%.*s`", (int)(name.len < 100 ? name.len : 100), name.ptr);
    out->name = name;
    out->traits = traits ? *traits : *anvil__json_empty_object();
    return s_member_target(ld, s, what, target, out);
}

/* A member of the JSON AST: an object with a string `target` and maybe `traits`. */
static int s_member(struct anvil__model_builder *ld, struct anvil_shape *s, struct anvil_str_view name,
                    const struct anvil_json *def, struct anvil_member *out) {
    char what[160];
    snprintf(what, sizeof(what), "member `%.*s`", (int)(name.len < 100 ? name.len : 100), name.ptr);
    if (!anvil_json_is_object(def)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s must be an object", (int)s->id.len, s->id.ptr, what);
    }
    if (!anvil__identifier_valid(name)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s is not a valid member name", (int)s->id.len, s->id.ptr,
                       what);
    }
    const struct anvil_json *target = anvil_json_object_get_cstr(def, "target");
    if (!anvil_json_is_string(target)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s must be an object with a string `target`", (int)s->id.len,
                       s->id.ptr, what);
    }
    const struct anvil_json *traits = anvil_json_object_get_cstr(def, "traits");
    out->name = name;
    int rc = s_member_target(ld, s, what, anvil_json_string(target), out);
    if (traits && !anvil_json_is_object(traits)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: %s traits must be an object", (int)s->id.len, s->id.ptr, what);
    }
    out->traits = traits ? *traits : *anvil__json_empty_object();
    return rc;
}

static int s_members(struct anvil__model_builder *ld, struct anvil_shape *s) {
    const struct anvil_json *ast = s->ast;
    switch (s->type) {
    case ANVIL_SHAPE_STRUCTURE:
    case ANVIL_SHAPE_UNION:
    case ANVIL_SHAPE_ENUM:
    case ANVIL_SHAPE_INT_ENUM: {
        const struct anvil_json *members = anvil_json_object_get_cstr(ast, "members");
        if (!members) {
            return ANVIL_OK;
        }
        if (!anvil_json_is_object(members)) {
            return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: `members` must be an object", (int)s->id.len, s->id.ptr);
        }
        if (anvil_json_len(members) > ANVIL__MODEL_MAX_COUNT / 2) {
            return s_error(ld, ANVIL_ELIMIT, "shape `%.*s` has too many members", (int)s->id.len, s->id.ptr);
        }
        s->member_count = (uint32_t)anvil_json_len(members);
        s->members = anvil_arena_alloc(ld->model->arena, (s->member_count + 1) * sizeof(*s->members), 0);
        if (!s->members) {
            return s_nomem(ld);
        }
        for (size_t i = 0; i < s->member_count; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(members, i);
            int rc = s_member(ld, s, anvil_json_member_key(m), &m->value, &s->members[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        return ANVIL_OK;
    }
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
    case ANVIL_SHAPE_MAP: {
        static const char *const list_names[] = {"member"};
        static const char *const map_names[] = {"key", "value"};
        bool map = s->type == ANVIL_SHAPE_MAP;
        const char *const *names = map ? map_names : list_names;
        size_t n = map ? 2 : 1;
        s->members = anvil_arena_alloc(ld->model->arena, n * sizeof(*s->members), 0);
        if (!s->members) {
            return s_nomem(ld);
        }
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json *def = anvil_json_object_get_cstr(ast, names[i]);
            if (!def) {
                /* A list or map defined only through mixins gets its members there. */
                if (anvil_json_object_get_cstr(ast, "mixins")) {
                    return ANVIL_OK;
                }
                return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: a %s needs a `%s` member", (int)s->id.len, s->id.ptr,
                               anvil_shape_type_name(s->type), names[i]);
            }
            int rc = s_member(ld, s, anvil_sv_from_cstr(names[i]), def, &s->members[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        s->member_count = (uint32_t)n;
        return ANVIL_OK;
    }
    default:
        return ANVIL_OK;
    }
}

/* A list of `{"target": ...}` references under `key`, appended to `*list`. */
static int s_refs(struct anvil__model_builder *ld, const struct anvil_shape *s, const struct anvil_json *def,
                  const char *key, const struct anvil_shape ***list, uint32_t *count) {
    const struct anvil_json *refs = anvil_json_object_get_cstr(def, key);
    if (!refs) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_array(refs)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: `%s` must be an array", (int)s->id.len, s->id.ptr, key);
    }
    size_t n = anvil_json_len(refs);
    if (n > ANVIL__MODEL_MAX_COUNT - *count) {
        return s_error(ld, ANVIL_ELIMIT, "shape `%.*s`: too many `%s`", (int)s->id.len, s->id.ptr, key);
    }
    const struct anvil_shape **grown = anvil_arena_alloc(ld->model->arena, (*count + n + 1) * sizeof(*grown), 0);
    if (!grown) {
        return s_nomem(ld);
    }
    if (*count) {
        memcpy(grown, *list, *count * sizeof(*grown));
    }
    for (size_t i = 0; i < n; i++) {
        int rc = s_target(ld, s, key, anvil_json_array_at(refs, i), &grown[*count + i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    *list = grown;
    *count += (uint32_t)n;
    return ANVIL_OK;
}

/* One `{"target": ...}` reference under `key`, if present, appended to `*list`. */
static int s_ref(struct anvil__model_builder *ld, const struct anvil_shape *s, const struct anvil_json *def,
                 const char *key, const struct anvil_shape ***list, uint32_t *count) {
    const struct anvil_json *ref = anvil_json_object_get_cstr(def, key);
    if (!ref) {
        return ANVIL_OK;
    }
    const struct anvil_shape *target;
    int rc = s_target(ld, s, key, ref, &target);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_shape **grown = anvil_arena_alloc(ld->model->arena, (*count + 1) * sizeof(*grown), 0);
    if (!grown) {
        return s_nomem(ld);
    }
    if (*count) {
        memcpy(grown, *list, *count * sizeof(*grown));
    }
    grown[(*count)++] = target;
    *list = grown;
    return ANVIL_OK;
}

int anvil__model_relations(struct anvil__model_builder *ld, struct anvil_shape *s, const struct anvil_json *def) {
    int rc = ANVIL_OK;
    switch (s->type) {
    case ANVIL_SHAPE_OPERATION: {
        s->input = s->output = ld->unit;
        const struct anvil_json *input = anvil_json_object_get_cstr(def, "input");
        const struct anvil_json *output = anvil_json_object_get_cstr(def, "output");
        if (input && (rc = s_target(ld, s, "input", input, &s->input)) != ANVIL_OK) {
            return rc;
        }
        if (output && (rc = s_target(ld, s, "output", output, &s->output)) != ANVIL_OK) {
            return rc;
        }
        return s_refs(ld, s, def, "errors", &s->errors, &s->error_count);
    }
    case ANVIL_SHAPE_SERVICE:
        if ((rc = s_refs(ld, s, def, "operations", &s->operations, &s->operation_count)) != ANVIL_OK ||
            (rc = s_refs(ld, s, def, "resources", &s->resources, &s->resource_count)) != ANVIL_OK) {
            return rc;
        }
        return s_refs(ld, s, def, "errors", &s->errors, &s->error_count);
    case ANVIL_SHAPE_RESOURCE: {
        static const char *const lifecycle[] = {"create", "put", "read", "update", "delete", "list"};
        for (size_t i = 0; i < sizeof(lifecycle) / sizeof(lifecycle[0]) && rc == ANVIL_OK; i++) {
            rc = s_ref(ld, s, def, lifecycle[i], &s->operations, &s->operation_count);
        }
        if (rc == ANVIL_OK) {
            rc = s_refs(ld, s, def, "operations", &s->operations, &s->operation_count);
        }
        if (rc == ANVIL_OK) {
            rc = s_refs(ld, s, def, "collectionOperations", &s->operations, &s->operation_count);
        }
        if (rc == ANVIL_OK) {
            rc = s_refs(ld, s, def, "resources", &s->resources, &s->resource_count);
        }
        return rc;
    }
    default:
        return ANVIL_OK;
    }
}

/* `into` = `into` with `extra`'s members added; `extra` wins on conflicts. */
static int s_merge_traits(struct anvil__model_builder *ld, struct anvil_json *into, const struct anvil_json *extra,
                          const char *skip) {
    size_t a = anvil_json_len(into), b = anvil_json_len(extra);
    if (b == 0) {
        return ANVIL_OK;
    }
    struct anvil_json_member *all = anvil_mem_acquire(ld->model->allocator, (a + b) * sizeof(*all));
    if (!all) {
        return s_nomem(ld);
    }
    size_t n = 0;
    for (size_t i = 0; i < a; i++) {
        all[n++] = into->u.members[i];
    }
    for (size_t i = 0; i < b; i++) {
        const struct anvil_json_member *m = &extra->u.members[i];
        if (!skip || !anvil_sv_eq_cstr(anvil_json_member_key(m), skip)) {
            all[n++] = *m;
        }
    }
    size_t unused;
    int rc = anvil__json_object_finish(ld->model->arena, all, n, false, &unused, into);
    anvil_mem_release(ld->model->allocator, all);
    return rc == ANVIL_OK ? ANVIL_OK : s_nomem(ld);
}

/* A set of member names (open addressing over the merged array's indexes + 1), for a linear mixin merge. */
struct s_name_set {
    uint32_t *slots;
    size_t mask;
};

/* Whether `name` is in the set; if not, remembers it as member `index` of `members`. */
static bool s_name_seen(struct s_name_set *set, const struct anvil_member *members, struct anvil_str_view name,
                        size_t index) {
    for (size_t i = anvil_json_hash(name.ptr, name.len) & set->mask;; i = (i + 1) & set->mask) {
        if (set->slots[i] == 0) {
            set->slots[i] = (uint32_t)index + 1;
            return false;
        }
        if (anvil_sv_eq(members[set->slots[i] - 1].name, name)) {
            return true;
        }
    }
}

/*
 * Members in Smithy's order: each mixin's in mixin order, then the shape's
 * own; a member the shape (or an earlier mixin) defines is not repeated.
 * Linear in the members, through a set of names: a mixin of 50,000 members
 * mixed into many shapes once made this quadratic.
 */
static int s_merge_members(struct anvil__model_builder *ld, struct anvil_shape *s,
                           const struct anvil_shape *const *mixins, size_t mixin_count, size_t total) {
    size_t own_count = s->member_count;
    struct anvil_member *merged = anvil_arena_alloc(ld->model->arena, (total + 1) * sizeof(*merged), 0);
    size_t size = 16;
    while (size < total * 2) {
        size *= 2;
    }
    struct s_name_set set = {anvil_mem_acquire(ld->model->allocator, size * sizeof(*set.slots)), size - 1};
    if (!merged || !set.slots || total >= ANVIL__MODEL_MAX_COUNT / 2) {
        anvil_mem_release(ld->model->allocator, set.slots);
        return s_nomem(ld);
    }
    memset(set.slots, 0, size * sizeof(*set.slots));
    /* The shape's own members go last, but win: their names are taken first, at the end of the array. */
    size_t own_at = total - own_count;
    for (size_t k = 0; k < own_count; k++) {
        merged[own_at + k] = s->members[k];
        (void)s_name_seen(&set, merged, merged[own_at + k].name, own_at + k);
    }
    size_t n = 0;
    for (size_t i = 0; i < mixin_count; i++) {
        const struct anvil_shape *mixin = mixins[i];
        for (size_t j = 0; j < mixin->member_count; j++) {
            merged[n] = mixin->members[j];
            n += !s_name_seen(&set, merged, mixin->members[j].name, n);
        }
    }
    anvil_mem_release(ld->model->allocator, set.slots);
    if (own_count && n != own_at) {
        memmove(merged + n, merged + own_at, own_count * sizeof(*merged));
    }
    s->members = merged;
    s->member_count = (uint32_t)(n + own_count);
    return ANVIL_OK;
}

/*
 * Mixins: their members come first, their traits under the shape's own (smithy.api#mixin is not inherited).
 * A JSON AST shape's mixins are resolved here, one by one; an assembled shape's were resolved before.
 */
static int s_mixins(struct anvil__model_builder *ld, struct anvil_shape *s, size_t depth) {
    if (s->mixin_state == 2 || s->prelude) {
        return ANVIL_OK;
    }
    if (s->mixin_state == 1) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s` is part of a mixin cycle", (int)s->id.len, s->id.ptr);
    }
    if (depth > ANVIL__MAX_MIXIN_DEPTH) {
        return s_error(ld, ANVIL_ELIMIT, "mixins nested deeper than %d at `%.*s`", ANVIL__MAX_MIXIN_DEPTH,
                       (int)s->id.len, s->id.ptr);
    }
    const struct anvil_json *list = s->ast ? anvil_json_object_get_cstr(s->ast, "mixins") : NULL;
    if (list && !anvil_json_is_array(list)) {
        return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: `mixins` must be an array", (int)s->id.len, s->id.ptr);
    }
    size_t count = list ? anvil_json_len(list) : s->mixin_count;
    if (count == 0) {
        s->mixin_state = 2;
        return ANVIL_OK;
    }
    if (list) {
        s->mixins = anvil_arena_alloc(ld->model->arena, count * sizeof(*s->mixins), 0);
        if (!s->mixins) {
            return s_nomem(ld);
        }
        s->mixin_count = 0;
    }
    if (count > UINT32_MAX) {
        return s_error(ld, ANVIL_ELIMIT, "shape `%.*s` has more than %u mixins", (int)s->id.len, s->id.ptr, UINT32_MAX);
    }
    s->mixin_state = 1;
    struct anvil_json own = s->traits;
    struct anvil_json inherited = *anvil__json_empty_object();
    size_t total = s->member_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < count && rc == ANVIL_OK; i++) {
        if (list) {
            rc = s_target(ld, s, "mixin", anvil_json_array_at(list, i), &s->mixins[i]);
            s->mixin_count = (uint32_t)(rc == ANVIL_OK ? i + 1 : i);
        }
        if (rc == ANVIL_OK) {
            rc = s_mixins(ld, (struct anvil_shape *)s->mixins[i], depth + 1);
        }
        if (rc == ANVIL_OK) {
            rc = s_merge_traits(ld, &inherited, &s->mixins[i]->traits, "smithy.api#mixin");
            total += s->mixins[i]->member_count;
        }
    }
    if (rc == ANVIL_OK && total > s->member_count) {
        rc = s_merge_members(ld, s, s->mixins, count, total);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    s->traits = inherited;
    rc = s_merge_traits(ld, &s->traits, &own, NULL);
    s->mixin_state = 2;
    return rc;
}

static int s_apply(struct anvil__model_builder *ld, const struct anvil__model_apply *apply) {
    struct anvil_str_view target = apply->target;
    const struct anvil_json *traits = apply->traits;
    if (!anvil_json_is_object(traits)) {
        return s_error(ld, ANVIL_EMODEL, "apply to `%.*s` needs a `traits` object", (int)target.len, target.ptr);
    }
    size_t dollar = anvil_sv_find_byte(target, 0, '$');
    struct anvil_str_view shape_id = dollar == SIZE_MAX ? target : anvil_sv_slice(target, 0, dollar);
    struct anvil_shape *shape = (struct anvil_shape *)anvil_model_find(ld->model, shape_id.ptr, shape_id.len);
    if (!shape || shape->prelude) {
        return s_error(ld, ANVIL_EMODEL, "apply targets `%.*s`, which is not defined in this model", (int)target.len,
                       target.ptr);
    }
    if (dollar == SIZE_MAX) {
        return s_merge_traits(ld, &shape->traits, traits, NULL);
    }
    struct anvil_str_view member = anvil_sv_slice(target, dollar + 1, SIZE_MAX);
    struct anvil_member *m = (struct anvil_member *)anvil__shape_member_sv(shape, member);
    if (m) {
        return s_merge_traits(ld, &m->traits, traits, NULL);
    }
    return s_error(ld, ANVIL_EMODEL, "apply targets member `%.*s`, which `%.*s` does not have", (int)member.len,
                   member.ptr, (int)shape_id.len, shape_id.ptr);
}

int anvil__model_link(struct anvil__model_builder *ld, const struct anvil__model_apply *applies, size_t count) {
    struct anvil_model *m = ld->model;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < m->written_count; i++) {
        const struct anvil_shape *s = &m->shapes[m->written[i].index];
        m->written[i].own_traits = s->traits;
        m->written[i].own_member_count = s->member_count;
    }
    for (size_t i = 0; i < m->count && rc == ANVIL_OK; i++) {
        rc = s_mixins(ld, &m->shapes[i], 0);
    }
    /* Members are final now: index the shapes that have many. */
    for (size_t i = 0; i < m->count && rc == ANVIL_OK; i++) {
        rc = anvil__shape_index_members(&m->shapes[i], m->arena) == ANVIL_OK ? ANVIL_OK : s_nomem(ld);
    }
    for (size_t i = 0; i < count && rc == ANVIL_OK; i++) {
        rc = s_apply(ld, &applies[i]);
    }
    return rc;
}

static int s_load(struct anvil__model_builder *ld, size_t max_shapes) {
    struct anvil_model *m = ld->model;
    const struct anvil_json *root = anvil_json_doc_root(m->store);
    if (!anvil_json_is_object(root)) {
        return s_error(ld, ANVIL_EMODEL, "a Smithy JSON AST model must be an object");
    }
    const struct anvil_json *version = anvil_json_object_get_cstr(root, "smithy");
    struct anvil_str_view v = anvil_json_string(version);
    if (!version && anvil__botocore_is_service(root)) {
        return s_error(ld, ANVIL_EMODEL,
                       "a botocore service model, not a Smithy JSON AST: anvil_model_assemble() reads it");
    }
    if (!anvil_json_is_string(version) || !(anvil_sv_eq_cstr(v, "1.0") || anvil_sv_eq_cstr(v, "2.0") ||
                                            anvil_sv_eq_cstr(v, "1") || anvil_sv_eq_cstr(v, "2"))) {
        return s_error(ld, ANVIL_EMODEL, "the `smithy` version must be \"1.0\" or \"2.0\"");
    }
    m->version = v;
    m->metadata = anvil_json_object_get_cstr(root, "metadata");
    const struct anvil_json *shapes = anvil_json_object_get_cstr(root, "shapes");
    if (shapes && !anvil_json_is_object(shapes)) {
        return s_error(ld, ANVIL_EMODEL, "`shapes` must be an object");
    }
    size_t n = shapes ? anvil_json_len(shapes) : 0;
    if (n > max_shapes || n > ANVIL__MODEL_MAX_COUNT) {
        return s_error(ld, ANVIL_ELIMIT, "the model defines %zu shapes, more than the limit of %zu", n, max_shapes);
    }
    /* The text's values filled most of the arena's first block: size the next
     * one for the shapes, their members and the index, not by doubling. */
    size_t estimate = 4096 + n * (sizeof(struct anvil_shape) + 3 * sizeof(struct anvil_member) + 48);
    m->arena->next_block_size = estimate;
    /* `apply` entries, handled after everything else (most models have none). */
    size_t apply_cap = 0;
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json *type = anvil_json_object_get_cstr(&anvil_json_object_at(shapes, i)->value, "type");
        apply_cap += anvil_sv_eq_cstr(anvil_json_string(type), "apply");
    }
    m->shapes = anvil_arena_alloc(m->arena, (n + 1) * sizeof(*m->shapes), 0);
    struct anvil__model_apply *applies = anvil_arena_alloc(m->arena, (apply_cap + 1) * sizeof(*applies), 0);
    size_t apply_count = 0;
    if (!m->shapes || !applies) {
        return s_nomem(ld);
    }
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json_member *entry = anvil_json_object_at(shapes, i);
        struct anvil_str_view id = anvil_json_member_key(entry);
        const struct anvil_json *type = anvil_json_object_get_cstr(&entry->value, "type");
        bool apply = anvil_sv_eq_cstr(anvil_json_string(type), "apply");
        /* An apply statement may name a member: ns#Shape$member. */
        size_t dollar = apply ? anvil_sv_find_byte(id, 0, '$') : SIZE_MAX;
        if (!anvil__shape_id_valid(dollar == SIZE_MAX ? id : anvil_sv_slice(id, 0, dollar)) ||
            (dollar != SIZE_MAX && dollar + 1 >= id.len)) {
            return s_error(ld, ANVIL_EMODEL, "`%.*s` is not an absolute shape id (namespace#Name)",
                           (int)(id.len < 200 ? id.len : 200), id.ptr);
        }
        if (!anvil_json_is_string(type)) {
            return s_error(ld, ANVIL_EMODEL, "shape `%.*s` must be an object with a string `type`", (int)id.len,
                           id.ptr);
        }
        if (apply) {
            applies[apply_count++] =
                (struct anvil__model_apply){id, anvil_json_object_get_cstr(&entry->value, "traits")};
            continue;
        }
        struct anvil_shape *s = &m->shapes[m->count];
        memset(s, 0, sizeof(*s));
        if (!anvil__shape_type_named(anvil_json_string(type), &s->type)) {
            struct anvil_str_view t = anvil_json_string(type);
            return s_error(ld, ANVIL_EMODEL, "shape `%.*s` has unknown type `%.*s`", (int)id.len, id.ptr,
                           (int)(t.len < 64 ? t.len : 64), t.ptr);
        }
        s->id = id;
        s->id_hash = entry->key->hash;
        s->name_at = (uint32_t)(anvil_sv_find_byte(id, 0, '#') + 1);
        s->ast = &entry->value;
        s->index = (uint32_t)m->count++;
        const struct anvil_json *traits = anvil_json_object_get_cstr(&entry->value, "traits");
        if (traits && !anvil_json_is_object(traits)) {
            return s_error(ld, ANVIL_EMODEL, "shape `%.*s`: `traits` must be an object", (int)id.len, id.ptr);
        }
        s->traits = traits ? *traits : *anvil__json_empty_object();
    }
    int rc = anvil__model_index(ld);
    for (size_t i = 0; i < m->count && rc == ANVIL_OK; i++) {
        rc = s_members(ld, &m->shapes[i]);
        if (rc == ANVIL_OK) {
            rc = anvil__model_relations(ld, &m->shapes[i], m->shapes[i].ast);
        }
    }
    return rc == ANVIL_OK ? anvil__model_link(ld, applies, apply_count) : rc;
}

int anvil__model_new(struct anvil_allocator *allocator, struct anvil_json_doc *store, struct anvil_model **out,
                     struct anvil_diag *diag) {
    *out = anvil_mem_calloc(allocator, 1, sizeof(**out));
    if (!*out) {
        anvil_json_doc_destroy(store);
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    (*out)->allocator = allocator;
    (*out)->store = store;
    (*out)->arena = anvil_json_doc_arena(store); /* one arena for the values and the shapes */
    atomic_init(&(*out)->ast, NULL);
    return ANVIL_OK;
}

int anvil__model_load_doc(struct anvil_allocator *allocator, struct anvil_json_doc *doc,
                          const struct anvil_model_options *options, struct anvil_model **out,
                          struct anvil_diag *diag) {
    struct anvil_model *m;
    int rc = anvil__model_new(allocator, doc, &m, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    atomic_init(&m->ast, doc);
    struct anvil__model_builder ld = {m, NULL, diag, options && options->allow_unresolved};
    size_t max_shapes = options && options->max_shapes ? options->max_shapes : ANVIL_MODEL_DEFAULT_MAX_SHAPES;
    rc = s_load(&ld, max_shapes);
    if (rc == ANVIL_ENOMEM) {
        rc = anvil__model_nomem(&ld);
    }
    if (rc != ANVIL_OK) {
        anvil_model_destroy(m);
        return rc;
    }
    *out = m;
    return ANVIL_OK;
}

int anvil_model_load(struct anvil_allocator *allocator, const char *text, size_t len,
                     const struct anvil_model_options *options, struct anvil_model **out, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!out || (!text && len > 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    *out = NULL;
    struct anvil_json_doc *doc;
    int rc = anvil_json_parse(allocator, text, len, NULL, &doc, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    return anvil__model_load_doc(allocator, doc, options, out, diag);
}

void anvil_model_destroy(struct anvil_model *model) {
    if (model) {
        struct anvil_json_doc *ast = atomic_load(&model->ast);
        if (ast != model->store) {
            anvil_json_doc_destroy(ast);
        }
        anvil_mem_release(model->allocator, model->unresolved);
        anvil_json_doc_destroy(model->store);
        anvil_mem_release(model->allocator, model);
    }
}

const struct anvil_json *anvil_model_ast(const struct anvil_model *model) {
    if (!model) {
        return NULL;
    }
    struct anvil_model *m = (struct anvil_model *)model; /* the AST is made once, then never changes */
    struct anvil_json_doc *ast = atomic_load_explicit(&m->ast, memory_order_acquire);
    if (!ast) {
        struct anvil_json_doc *mine = NULL;
        if (anvil__model_ast_build(model, &mine) != ANVIL_OK) {
            return NULL;
        }
        /* Two threads may both have made it: the first one stored is kept. */
        if (atomic_compare_exchange_strong_explicit(&m->ast, &ast, mine, memory_order_acq_rel, memory_order_acquire)) {
            ast = mine;
        } else {
            anvil_json_doc_destroy(mine);
        }
    }
    return anvil_json_doc_root(ast);
}
