/*
 * Sample values generated from shapes, as Smithy's waiter validator builds
 * the data its JMESPath linter runs on (ModelRuntimeTypeGenerator): every
 * member of structures and unions; lists of two copies and maps of two
 * entries (keys: the key's sample plus 0, 1), both bounded by @length;
 * strings of "a" as long as @length allows (2 by default; enums too);
 * numbers 8 within @range; "blob" for blobs; true for booleans; 0 for
 * timestamps. Documents, recursive members (a member already on the path)
 * and unresolved targets are "any" (the linter's ANVIL__LINT_ANY marker).
 *
 * Smithy builds that tree in full, which a small hostile model makes
 * exponential (10 members of a structure that all target it; six nested
 * lists of @length(min: 64); 24 levels of two-member structures). Here the
 * tree is a DAG: the copies in a list or map are one value shared, and the
 * sample of a shape is built once and shared wherever its expansion did not
 * depend on the path above it (no recursion cut reached above it). What is
 * still built is capped by a node budget, past which samples are "any":
 * the linter then reports less, never something false. Time and memory
 * are linear in the model, whatever it holds.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "jmespath/jmespath_internal.h"
#include "model/validate_internal.h"
#include "json/json_internal.h"

#define S_MAX_DEPTH 64
/* Values built for one sample at most (members and elements included); real models need a few thousand. */
#define S_NODE_BUDGET 65536
/* The table of remembered samples starts this small and doubles at half full (a small model needs little). */
#define S_MEMO_FIRST_SLOTS 32

struct s_memo_entry {
    const struct anvil_shape *shape;
    struct anvil_json value;
};

struct s_sampler {
    struct anvil_arena *arena;
    struct anvil_allocator *scratch;
    /* Members on the path from the root: a member seen again is recursion. */
    const struct anvil_member *path[S_MAX_DEPTH];
    size_t depth;
    /* The shallowest path index a recursion cut referred to since it was reset (SIZE_MAX: none). */
    size_t lowest_cut;
    /* Since it was reset, something was cut by the depth limit or the budget: a property of the whole walk. */
    bool tainted;
    size_t budget;
    struct s_memo_entry *memo;
    size_t memo_slots, memo_used;
    int rc; /* sticky ANVIL_ENOMEM */
};

static struct anvil_json s_any(struct s_sampler *s) {
    struct anvil_json v = anvil_json_make_null();
    if (anvil__json_string_value(s->arena, ANVIL__LINT_ANY, sizeof ANVIL__LINT_ANY - 1, &v) != ANVIL_OK) {
        s->rc = ANVIL_ENOMEM;
    }
    return v;
}

/* Takes one node from the budget; false (and the sample is "any") once it is spent. */
static bool s_spend(struct s_sampler *s) {
    if (s->budget == 0) {
        s->tainted = true; /* what is built from here on depends on what came before: never shared */
        return false;
    }
    s->budget--;
    return true;
}

/* Smithy's computeLength: 2, raised to @length min and lowered to its max. */
static size_t s_length(const struct anvil_shape *shape) {
    double n = 2;
    const struct anvil_json *length = anvil_shape_trait(shape, "smithy.api#length");
    const struct anvil_json *min = anvil_json_object_get_cstr(length, "min");
    const struct anvil_json *max = anvil_json_object_get_cstr(length, "max");
    if (anvil_json_is_number(min) && anvil_json_double(min) > n) {
        n = anvil_json_double(min);
    }
    if (anvil_json_is_number(max) && anvil_json_double(max) < n) {
        n = anvil_json_double(max);
    }
    /* A sample, not data: keep it small whatever @length asks for. */
    return n < 0 ? 0 : n > 64 ? 64 : (size_t)n;
}

/* Smithy's computeRange: 8 within @range. */
static double s_range(const struct anvil_shape *shape) {
    double n = 8;
    const struct anvil_json *range = anvil_shape_trait(shape, "smithy.api#range");
    const struct anvil_json *min = anvil_json_object_get_cstr(range, "min");
    const struct anvil_json *max = anvil_json_object_get_cstr(range, "max");
    if (anvil_json_is_number(min) && anvil_json_double(min) > n) {
        n = anvil_json_double(min);
    }
    if (anvil_json_is_number(max) && anvil_json_double(max) < n) {
        n = anvil_json_double(max);
    }
    return n;
}

/* The slot of `shape` in the table: its remembered sample, or the empty slot it would take. */
static struct s_memo_entry *s_memo_slot(struct s_memo_entry *memo, size_t slots, const struct anvil_shape *shape) {
    size_t i = (size_t)(((uintptr_t)shape >> 4) * 0x9E3779B97F4A7C15u) & (slots - 1);
    while (memo[i].shape && memo[i].shape != shape) {
        i = (i + 1) & (slots - 1);
    }
    return &memo[i];
}

static const struct s_memo_entry *s_memo_find(const struct s_sampler *s, const struct anvil_shape *shape) {
    const struct s_memo_entry *e = s->memo ? s_memo_slot(s->memo, s->memo_slots, shape) : NULL;
    return e && e->shape ? e : NULL;
}

/* Remembers `value` as `shape`'s sample, doubling the table at half full (a failed growth just forgets). */
static void s_memo_put(struct s_sampler *s, const struct anvil_shape *shape, struct anvil_json value) {
    if (!s->memo || 2 * (s->memo_used + 1) > s->memo_slots) {
        size_t slots = s->memo ? 2 * s->memo_slots : S_MEMO_FIRST_SLOTS;
        struct s_memo_entry *grown = anvil_mem_acquire(s->scratch, slots * sizeof *grown);
        if (!grown) {
            return;
        }
        memset(grown, 0, slots * sizeof *grown);
        for (size_t i = 0; s->memo && i < s->memo_slots; i++) {
            if (s->memo[i].shape) {
                *s_memo_slot(grown, slots, s->memo[i].shape) = s->memo[i];
            }
        }
        anvil_mem_release(s->scratch, s->memo);
        s->memo = grown;
        s->memo_slots = slots;
    }
    struct s_memo_entry *e = s_memo_slot(s->memo, s->memo_slots, shape);
    e->shape = shape;
    e->value = value;
    s->memo_used++;
}

static struct anvil_json s_shape(struct s_sampler *s, const struct anvil_shape *shape);

static struct anvil_json s_member(struct s_sampler *s, const struct anvil_member *m) {
    if (s->depth == S_MAX_DEPTH || !m || !m->target) {
        /* Cut by the depth limit (a property of the whole path) or unresolved. */
        s->tainted = s->tainted || s->depth == S_MAX_DEPTH;
        return s_any(s);
    }
    for (size_t i = 0; i < s->depth; i++) {
        if (s->path[i] == m) {
            s->lowest_cut = i < s->lowest_cut ? i : s->lowest_cut;
            return s_any(s);
        }
    }
    s->path[s->depth++] = m;
    struct anvil_json v = s_shape(s, m->target);
    s->depth--;
    return v;
}

static struct anvil_json s_string_of_a(struct s_sampler *s, size_t n) {
    char text[64];
    memset(text, 'a', sizeof text);
    struct anvil_json v = anvil_json_make_null();
    if (anvil__json_string_value(s->arena, text, n < sizeof text ? n : sizeof text, &v) != ANVIL_OK) {
        s->rc = ANVIL_ENOMEM;
    }
    return v;
}

/* An object of `count` members, keys given as views; values already built. */
static struct anvil_json s_object(struct s_sampler *s, struct anvil_json_member *members, size_t count) {
    struct anvil_json v = *anvil__json_empty_object();
    size_t unused;
    if (count && anvil__json_object_finish(s->arena, members, count, false, &unused, &v) != ANVIL_OK) {
        s->rc = ANVIL_ENOMEM;
    }
    return v;
}

static const struct anvil_json_key *s_key(struct s_sampler *s, const char *bytes, size_t len) {
    const struct anvil_json_key *k = anvil__json_key_new(s->arena, bytes, len, anvil_json_hash(bytes, len));
    if (!k) {
        s->rc = ANVIL_ENOMEM;
    }
    return k;
}

static struct anvil_json s_structure(struct s_sampler *s, const struct anvil_shape *shape) {
    size_t count = anvil_shape_member_count(shape);
    if (count > s->budget) {
        s->budget = 0;
        s->tainted = true;
        return s_any(s);
    }
    s->budget -= count;
    struct anvil_json_member *members = count ? anvil_mem_acquire(s->scratch, count * sizeof *members) : NULL;
    if (count && !members) {
        s->rc = ANVIL_ENOMEM;
        return anvil_json_make_null();
    }
    size_t n = 0;
    for (size_t i = 0; i < count && s->rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        members[n].key = s_key(s, m->name.ptr, m->name.len);
        members[n].value = s_member(s, m);
        n += members[n].key != NULL;
    }
    struct anvil_json v = s->rc == ANVIL_OK ? s_object(s, members, n) : anvil_json_make_null();
    anvil_mem_release(s->scratch, members);
    return v;
}

static struct anvil_json s_list(struct s_sampler *s, const struct anvil_shape *shape) {
    size_t n = anvil_shape_member_count(shape) > 0 ? s_length(shape) : 0;
    struct anvil_json v = anvil_json_make_null(), *slots = NULL;
    if (anvil_json_new_array(s->arena, n, &v, &slots) != ANVIL_OK) {
        s->rc = ANVIL_ENOMEM;
        return v;
    }
    if (n) {
        /* Every element is the same sample: built once, shared. */
        struct anvil_json element = s_member(s, anvil_shape_member_at(shape, 0));
        for (size_t i = 0; i < n; i++) {
            slots[i] = element;
        }
    }
    return v;
}

static struct anvil_json s_map(struct s_sampler *s, const struct anvil_shape *shape) {
    /* Keys are the key's sample string (as long as its @length allows) plus 0, 1, ...; the values are one. */
    const struct anvil_member *key = anvil_shape_member_at(shape, 0);
    size_t key_len = key && key->target ? s_length(key->target) : 2;
    size_t n = anvil_shape_member_count(shape) > 1 ? s_length(shape) : 0;
    struct anvil_json_member members[64];
    struct anvil_json value = n ? s_member(s, anvil_shape_member_at(shape, 1)) : anvil_json_make_null();
    for (size_t i = 0; i < n && s->rc == ANVIL_OK; i++) {
        char text[96];
        size_t len = 0;
        for (; len < key_len && len < 64; len++) {
            text[len] = 'a';
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "%zu", i);
        members[i].key = s_key(s, text, len);
        members[i].value = value;
    }
    return s->rc == ANVIL_OK ? s_object(s, members, n) : anvil_json_make_null();
}

static struct anvil_json s_build(struct s_sampler *s, const struct anvil_shape *shape) {
    struct anvil_json v = anvil_json_make_null();
    switch (anvil_shape_type(shape)) {
    case ANVIL_SHAPE_STRUCTURE:
    case ANVIL_SHAPE_UNION:
        return s_structure(s, shape);
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
        return s_list(s, shape);
    case ANVIL_SHAPE_MAP:
        return s_map(s, shape);
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_ENUM:
        return s_string_of_a(s, s_length(shape));
    case ANVIL_SHAPE_BLOB:
        if (anvil__json_string_value(s->arena, "blob", 4, &v) != ANVIL_OK) {
            s->rc = ANVIL_ENOMEM;
        }
        return v;
    case ANVIL_SHAPE_BOOLEAN:
        return anvil_json_make_bool(true);
    case ANVIL_SHAPE_TIMESTAMP:
        return anvil_json_make_int(0);
    case ANVIL_SHAPE_DOCUMENT:
    case ANVIL_SHAPE_SERVICE:
    case ANVIL_SHAPE_RESOURCE:
    case ANVIL_SHAPE_OPERATION:
        return s_any(s);
    default: /* numbers and intEnum */
        if (anvil_json_make_double_checked(s_range(shape), &v) != ANVIL_OK) {
            v = anvil_json_make_int(8);
        }
        return v;
    }
}

static struct anvil_json s_shape(struct s_sampler *s, const struct anvil_shape *shape) {
    const struct s_memo_entry *known = s_memo_find(s, shape);
    if (known) {
        return known->value;
    }
    if (!s_spend(s)) {
        return s_any(s);
    }
    /*
     * Remember the sample when its expansion stood on its own: no recursion
     * cut referred to a member above it (the one that led here included),
     * and neither the depth limit nor the budget cut it.
     */
    size_t outer = s->lowest_cut;
    bool outer_tainted = s->tainted;
    s->lowest_cut = SIZE_MAX;
    s->tainted = false;
    struct anvil_json v = s_build(s, shape);
    bool own = s->lowest_cut >= s->depth && !s->tainted;
    s->lowest_cut = s->lowest_cut < outer ? s->lowest_cut : outer;
    s->tainted = s->tainted || outer_tainted;
    if (own && s->rc == ANVIL_OK) {
        s_memo_put(s, shape, v);
    }
    return v;
}

int anvil__model_sample(struct anvil_arena *arena, struct anvil_allocator *scratch, const struct anvil_shape *input,
                        const struct anvil_shape *output, bool input_output, struct anvil_json *out) {
    struct s_sampler s;
    memset(&s, 0, sizeof s);
    s.arena = arena;
    s.scratch = scratch;
    s.lowest_cut = SIZE_MAX;
    s.budget = S_NODE_BUDGET;
    if (input_output) {
        struct anvil_json_member members[2];
        members[0].key = s_key(&s, "input", 5);
        members[0].value = input ? s_shape(&s, input) : s_any(&s);
        members[1].key = s_key(&s, "output", 6);
        members[1].value = output ? s_shape(&s, output) : s_any(&s);
        *out = s.rc == ANVIL_OK ? s_object(&s, members, 2) : anvil_json_make_null();
    } else {
        *out = output ? s_shape(&s, output) : s_any(&s);
    }
    anvil_mem_release(scratch, s.memo);
    return s.rc;
}
