/*
 * The JMESPath evaluator: walks the tree against a value. Parts of the input
 * are returned by value (16 bytes, pointing into the input, never copied);
 * new arrays and objects are collected on a scratch stack and moved into the
 * result arena when complete.
 */

#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "jmespath/jmespath_internal.h"

bool anvil_jmespath_truthy(const struct anvil_json *v) {
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        return false;
    case ANVIL_JSON_BOOL:
        return anvil_json_bool(v);
    case ANVIL_JSON_NUMBER:
        return true;
    case ANVIL_JSON_STRING:
    case ANVIL_JSON_ARRAY:
    case ANVIL_JSON_OBJECT:
        return anvil_json_len(v) > 0;
    }
    return false;
}

int(jp_error)(ANVIL__ORIGIN_DECL struct jp_eval *ev, int code, const struct jp_node *at, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset_at(ev->diag, code, ev->expr->text, ev->expr->len, at ? at->pos : 0, fmt, args);
    va_end(args);
    return ANVIL__ORIGIN_NOTE(ev->diag, code), code;
}

int jp_nomem(struct jp_eval *ev) {
    if (anvil_arena_exhausted(ev->arena)) {
        return jp_error(ev, ANVIL_ELIMIT, NULL, "the result needs more memory than the result arena allows");
    }
    return jp_error(ev, ANVIL_ENOMEM, NULL, "out of memory");
}

int jp_push(struct jp_eval *ev, struct anvil_json value) {
    if (ANVIL_UNLIKELY(ev->stack_len == ev->stack_cap) &&
        anvil__mem_grow(ev->scratch, (void **)&ev->stack, &ev->stack_cap, sizeof(*ev->stack), ev->stack_len + 1) !=
            ANVIL_OK) {
        return jp_nomem(ev);
    }
    ev->stack[ev->stack_len++] = value;
    return ANVIL_OK;
}

int jp_pop_array(struct jp_eval *ev, size_t from, struct anvil_json *out) {
    size_t count = ev->stack_len - from;
    struct anvil_json *items;
    if (anvil_json_new_array(ev->arena, count, out, &items) != ANVIL_OK) {
        ev->stack_len = from;
        return jp_nomem(ev);
    }
    if (count) {
        memcpy(items, ev->stack + from, count * sizeof(*items));
    }
    ev->stack_len = from;
    return ANVIL_OK;
}

/* Python's slice.indices(), on int64 without overflow. */
static void s_slice_bounds(const struct jp_node *n, int64_t len, int64_t *start, int64_t *stop, int64_t step) {
    int64_t lo = step < 0 ? -1 : 0;
    int64_t hi = step < 0 ? len - 1 : len;
    if (!n->has_start) {
        *start = step < 0 ? hi : lo;
    } else {
        int64_t s = n->start;
        if (s < 0) {
            s = s < -len ? lo : s + len;
            s = s < lo ? lo : s;
        } else {
            s = s > hi ? hi : s;
        }
        *start = s;
    }
    if (!n->has_stop) {
        *stop = step < 0 ? lo : hi;
    } else {
        int64_t s = n->stop;
        if (s < 0) {
            s = s < -len ? lo : s + len;
            s = s < lo ? lo : s;
        } else {
            s = s > hi ? hi : s;
        }
        *stop = s;
    }
}

ANVIL_NOINLINE static int s_slice(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in,
                                  struct anvil_json *out) {
    if (!anvil_json_is_array(in)) {
        *out = anvil_json_make_null();
        return ANVIL_OK;
    }
    int64_t step = n->has_step ? n->step : 1;
    if (step == 0) {
        return jp_error(ev, ANVIL_EVALUE, n, "slice step cannot be 0");
    }
    int64_t len = (int64_t)anvil_json_len(in);
    int64_t start, stop;
    s_slice_bounds(n, len, &start, &stop, step);
    size_t mark = ev->stack_len;
    if (step > 0) {
        for (int64_t i = start; i < stop; i += step) {
            if (jp_push(ev, in->u.items[i]) != ANVIL_OK) {
                return ANVIL_ENOMEM;
            }
            if (i > INT64_MAX - step) {
                break; /* the next index would overflow: it is past the end anyway */
            }
        }
    } else {
        for (int64_t i = start; i > stop; i += step) {
            if (jp_push(ev, in->u.items[i]) != ANVIL_OK) {
                return ANVIL_ENOMEM;
            }
            if (i < INT64_MIN - step) {
                break;
            }
        }
    }
    return jp_pop_array(ev, mark, out);
}

/* anvil_json_equal(), with two strings and two exact integers (what filters mostly compare) decided inline. */
static inline bool s_equal(const struct anvil_json *a, const struct anvil_json *b) {
    if (anvil_json_is_string(a) && anvil_json_is_string(b)) {
        struct anvil_str_view t = anvil_json_string(b);
        return anvil_json_string_equals(a, t.ptr, t.len);
    }
    if (anvil_json_is_int(a) && anvil_json_is_int(b)) {
        return anvil_json_int(a) == anvil_json_int(b);
    }
    return anvil_json_equal(a, b);
}

static const char *s_type_list(unsigned mask, char *buf, size_t size) {
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {
        {JP_T_NUMBER, "number"},
        {JP_T_STRING, "string"},
        {JP_T_BOOL, "boolean"},
        {JP_T_ARRAY, "array"},
        {JP_T_OBJECT, "object"},
        {JP_T_NULL, "null"},
        {JP_T_EXPREF, "&expression"},
        {JP_T_ARRAY_NUMBER, "array of numbers"},
        {JP_T_ARRAY_STRING, "array of strings"},
    };
    if ((mask & JP_T_ANY) == JP_T_ANY) {
        return "any value";
    }
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (mask & names[i].bit) {
            int w = snprintf(buf + n, size - n, "%s%s", n ? " or " : "", names[i].name);
            n += w > 0 && (size_t)w < size - n ? (size_t)w : 0;
        }
    }
    return buf;
}

static const char *s_type_name(const struct jp_arg *arg) {
    if (arg->expref) {
        return "&expression";
    }
    return anvil_json_type_name(anvil_json_type(&arg->value));
}

static bool s_all_items(const struct anvil_json *array, enum anvil_json_type type) {
    for (size_t i = 0; i < anvil_json_len(array); i++) {
        if (anvil_json_type(&array->u.items[i]) != type) {
            return false;
        }
    }
    return true;
}

static bool s_accepts(unsigned mask, const struct jp_arg *arg) {
    if (arg->expref) {
        return (mask & JP_T_EXPREF) != 0;
    }
    const struct anvil_json *v = &arg->value;
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        return mask & JP_T_NULL;
    case ANVIL_JSON_BOOL:
        return mask & JP_T_BOOL;
    case ANVIL_JSON_NUMBER:
        return mask & JP_T_NUMBER;
    case ANVIL_JSON_STRING:
        return mask & JP_T_STRING;
    case ANVIL_JSON_OBJECT:
        return mask & JP_T_OBJECT;
    case ANVIL_JSON_ARRAY:
        if (mask & JP_T_ARRAY) {
            return true;
        }
        return ((mask & JP_T_ARRAY_NUMBER) && s_all_items(v, ANVIL_JSON_NUMBER)) ||
               ((mask & JP_T_ARRAY_STRING) && s_all_items(v, ANVIL_JSON_STRING));
    }
    return false;
}

#define S_MAX_INLINE_ARGS 8

ANVIL_NOINLINE static int s_call(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in,
                                 struct anvil_json *out) {
    const struct jp_function *fn = n->function;
    struct jp_arg small[S_MAX_INLINE_ARGS];
    struct jp_arg *args = small;
    if (n->count > S_MAX_INLINE_ARGS) {
        args = anvil_mem_acquire(ev->scratch, n->count * sizeof(*args));
        if (!args) {
            return jp_nomem(ev);
        }
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < n->count && rc == ANVIL_OK; i++) {
        const struct jp_node *a = n->children[i];
        args[i].expref = a->type == JP_N_EXPREF ? a->children[0] : NULL;
        args[i].value = anvil_json_make_null();
        if (!args[i].expref) {
            rc = jp_eval_node(ev, a, in, &args[i].value);
        }
    }
    for (size_t i = 0; i < n->count && rc == ANVIL_OK; i++) {
        unsigned mask = fn->params[i < 3 ? i : 2];
        if (!s_accepts(mask, &args[i])) {
            char expected[128];
            rc = jp_error(ev, ANVIL_ETYPE, n->children[i], "%s() argument %zu must be %s, not %s", fn->name, i + 1,
                          s_type_list(mask, expected, sizeof(expected)), s_type_name(&args[i]));
        }
    }
    if (rc == ANVIL_OK) {
        rc = fn->fn(ev, n, args, n->count, out);
    }
    if (args != small) {
        anvil_mem_release(ev->scratch, args);
    }
    return rc;
}

ANVIL_NOINLINE static int s_multi_hash(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in,
                                       struct anvil_json *out) {
    struct anvil_json_member small[16];
    struct anvil_json_member *members = small;
    if (n->count > 16) {
        members = anvil_mem_acquire(ev->scratch, n->count * sizeof(*members));
        if (!members) {
            return jp_nomem(ev);
        }
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < n->count && rc == ANVIL_OK; i++) {
        members[i].key = n->keys[i];
        rc = jp_eval_node(ev, n->children[i], in, &members[i].value);
    }
    if (rc == ANVIL_OK) {
        size_t unused;
        rc = anvil__json_object_finish(ev->arena, members, n->count, false, &unused, out);
        if (rc != ANVIL_OK) {
            rc = jp_nomem(ev);
        }
    }
    if (members != small) {
        anvil_mem_release(ev->scratch, members);
    }
    return rc;
}

/*
 * A projection over a large answer waits on memory, one object after another:
 * it asks for the member its expression reads first S_AHEAD items early.
 * Measured on the benchmark's 11.5 MB DescribeInstances answer and 13.8 MB
 * people list (2, 4, 8, 16 tried; 8 best): Reservations[].Instances[].State.Name
 * 29% faster, the people filter 10%, (d) 7%.
 */
#define S_AHEAD 8
/* The hint of the field an expression looks up first in its input (`a` of `a.b == c`), or NULL. */
static const struct jp_hint *s_lead_hint(const struct jp_eval *ev, const struct jp_node *n) {
    for (int depth = 0; depth < 4 && n; depth++) {
        switch (n->type) {
        case JP_N_FIELD:
            return n->slot < ev->hint_count ? &ev->hints[n->slot] : NULL;
        case JP_N_SUBEXPR:
        case JP_N_COMPARE:
        case JP_N_AND:
        case JP_N_OR:
        case JP_N_NOT:
            n = n->count ? n->children[0] : NULL;
            break;
        default:
            return NULL;
        }
    }
    return NULL;
}

static inline void s_prefetch_member(const struct anvil_json *item, const struct jp_hint *hint) {
    size_t len = anvil_json_is_object(item) ? anvil_json_len(item) : 0;
    if (len > 0) { /* an empty object has no members array (its pointer may be NULL) */
        ANVIL_PREFETCH(&item->u.members[hint->at < len ? hint->at : 0]);
    }
}

static int s_operand(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, struct anvil_json *tmp,
                     const struct anvil_json **out);
static int s_truth(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, bool *truthy);

/*
 * [*] and [] (over array items), .* (over object values) and [?cond] (array
 * items where cond is truthy): apply children[1] to each, keep non-null results.
 */
static int s_project(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, struct anvil_json *out) {
    struct anvil_json base, r;
    int rc = jp_eval_node(ev, n->children[0], in, &base);
    if (rc != ANVIL_OK) {
        return rc;
    }
    bool items = n->type != JP_N_VALUE_PROJECTION;
    if (items ? !anvil_json_is_array(&base) : !anvil_json_is_object(&base)) {
        *out = anvil_json_make_null();
        return ANVIL_OK;
    }
    const struct jp_node *condition = n->type == JP_N_FILTER_PROJECTION ? n->children[2] : NULL;
    size_t mark = ev->stack_len;
    const struct jp_hint *lead = s_lead_hint(ev, condition ? condition : n->children[1]);
    for (size_t i = 0; i < anvil_json_len(&base); i++) {
        const struct anvil_json *item = items ? &base.u.items[i] : &base.u.members[i].value;
        if (lead && items && i + S_AHEAD < anvil_json_len(&base)) {
            s_prefetch_member(&base.u.items[i + S_AHEAD], lead);
        }
        if (condition) {
            bool kept;
            if ((rc = s_truth(ev, condition, item, &kept)) != ANVIL_OK) {
                ev->stack_len = mark;
                return rc;
            }
            if (!kept) {
                continue;
            }
        }
        const struct anvil_json *v;
        if ((rc = s_operand(ev, n->children[1], item, &r, &v)) != ANVIL_OK) {
            ev->stack_len = mark;
            return rc;
        }
        if (!anvil_json_is_null(v) && (rc = jp_push(ev, *v)) != ANVIL_OK) {
            return rc;
        }
    }
    return jp_pop_array(ev, mark, out);
}

/* Field `n` of `in`, or NULL: where the hint says first, then by lookup (which moves the hint). */
static const struct anvil_json *s_field(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in) {
    if (!anvil_json_is_object(in)) {
        return NULL;
    }
    if (n->slot >= ev->hint_count) {
        return anvil__json_object_get_hashed(in, n->name.ptr, n->name.len, n->hash);
    }
    struct jp_hint *hint = &ev->hints[n->slot];
    const struct anvil_json_member *members = in->u.members;
    if (hint->at < anvil_json_len(in) && members[hint->at].key == hint->key) {
        return &members[hint->at].value;
    }
    const struct anvil_json *v = anvil__json_object_get_hashed(in, n->name.ptr, n->name.len, n->hash);
    if (v) {
        const struct anvil_json_member *m =
            (const struct anvil_json_member *)(const void *)((const char *)v -
                                                             offsetof(struct anvil_json_member, value));
        hint->at = (size_t)(m - members);
        hint->key = m->key;
    }
    return v;
}

static const struct anvil_json s_null = ANVIL_JSON_NULL_INIT;

/*
 * `a.b`, `a[0]` and `a | b` (each step applied to what the one before gave)
 * as a pointer: fields are followed without a copy or a call, from the first
 * other step on values are evaluated into *tmp. The same contract as
 * s_operand().
 */
static int s_steps(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, struct anvil_json *tmp,
                   const struct anvil_json **out) {
    const struct anvil_json *v = in;
    size_t i = 0;
    for (; i < n->count && n->children[i]->type == JP_N_FIELD; i++) {
        const struct anvil_json *f = s_field(ev, n->children[i], v);
        v = f ? f : &s_null;
    }
    *out = v;
    if (i == n->count) {
        return ANVIL_OK;
    }
    *tmp = *v;
    for (; i < n->count; i++) {
        const struct jp_node *step = n->children[i];
        int rc;
        if (step->type == JP_N_FIELD) {
            const struct anvil_json *f = s_field(ev, step, tmp);
            *tmp = f ? *f : anvil_json_make_null();
        } else if ((rc = jp_eval_node(ev, step, tmp, tmp)) != ANVIL_OK) {
            return rc;
        }
    }
    *out = tmp;
    return ANVIL_OK;
}

/*
 * Operand `n` of `in`, where it is part of the input or of the tree, as a
 * pointer to it (no copy): a field (null when missing), the current node, a
 * literal. Anything else is evaluated into *tmp. `in` must not point into
 * the evaluation stack, which evaluating may move.
 */
static int s_operand(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, struct anvil_json *tmp,
                     const struct anvil_json **out) {
    switch (n->type) {
    case JP_N_FIELD: {
        const struct anvil_json *v = s_field(ev, n, in);
        *out = v ? v : &s_null;
        return ANVIL_OK;
    }
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE:
        return s_steps(ev, n, in, tmp, out);
    case JP_N_IDENTITY:
    case JP_N_CURRENT:
        *out = in;
        return ANVIL_OK;
    case JP_N_LITERAL:
        *out = &n->literal;
        return ANVIL_OK;
    default:
        *out = tmp;
        return jp_eval_node(ev, n, in, tmp);
    }
}

/*
 * Comparison `n` of `in` (its operands evaluated as s_operand() does): in
 * `*result` 1 true, 0 false, -1 null (an ordering of anything but two
 * numbers).
 */
static inline int s_comparison(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, int *result) {
    struct anvil_json ta, tb;
    const struct anvil_json *a, *b;
    int rc;
    if ((rc = s_operand(ev, n->children[0], in, &ta, &a)) != ANVIL_OK ||
        (rc = s_operand(ev, n->children[1], in, &tb, &b)) != ANVIL_OK) {
        return rc;
    }
    if (n->op == JP_EQ || n->op == JP_NE) {
        *result = s_equal(a, b) == (n->op == JP_EQ);
        return ANVIL_OK;
    }
    int c;
    if (anvil_json_is_int(a) && anvil_json_is_int(b)) {
        int64_t x = anvil_json_int(a), y = anvil_json_int(b);
        c = (x > y) - (x < y);
    } else if (anvil_json_is_number(a) && anvil_json_is_number(b)) {
        c = anvil_json_compare(a, b);
    } else {
        *result = -1;
        return ANVIL_OK;
    }
    *result = n->op == JP_LT ? c < 0 : n->op == JP_LTE ? c <= 0 : n->op == JP_GT ? c > 0 : c >= 0;
    return ANVIL_OK;
}

/*
 * Whether `n` of `in` is truthy: a filter's condition. Comparisons and `&&`,
 * `||` and `!` give their truth without making a value (the truth of `a && b`
 * is both operands' truth, of `a || b` either's).
 */
static int s_truth(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in, bool *truthy) {
    struct anvil_json t;
    const struct anvil_json *v;
    int rc, r;
    switch (n->type) {
    case JP_N_COMPARE:
        if ((rc = s_comparison(ev, n, in, &r)) != ANVIL_OK) {
            return rc;
        }
        *truthy = r == 1;
        return ANVIL_OK;
    case JP_N_AND:
    case JP_N_OR:
        *truthy = n->type == JP_N_AND;
        for (size_t i = 0; i < n->count; i++) {
            if ((rc = s_truth(ev, n->children[i], in, truthy)) != ANVIL_OK) {
                return rc;
            }
            if (*truthy == (n->type == JP_N_OR)) {
                break;
            }
        }
        return ANVIL_OK;
    case JP_N_NOT:
        if ((rc = s_truth(ev, n->children[0], in, truthy)) != ANVIL_OK) {
            return rc;
        }
        *truthy = !*truthy;
        return ANVIL_OK;
    default:
        if ((rc = s_operand(ev, n, in, &t, &v)) != ANVIL_OK) {
            return rc;
        }
        *truthy = anvil_jmespath_truthy(v);
        return ANVIL_OK;
    }
}

int jp_eval_node(struct jp_eval *ev, const struct jp_node *n, const struct anvil_json *in_ptr, struct anvil_json *out) {
    /* A copy: `out` may alias `in`, and nested evaluations may move the stack. */
    struct anvil_json in = *in_ptr;
    struct anvil_json a, b;
    int rc;
    switch (n->type) {
    case JP_N_IDENTITY:
    case JP_N_CURRENT:
        *out = in;
        return ANVIL_OK;
    case JP_N_FIELD: {
        const struct anvil_json *v = s_field(ev, n, &in);
        *out = v ? *v : anvil_json_make_null();
        return ANVIL_OK;
    }
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE: {
        const struct anvil_json *v;
        if ((rc = s_steps(ev, n, &in, &a, &v)) != ANVIL_OK) {
            return rc;
        }
        *out = *v;
        return ANVIL_OK;
    }
    case JP_N_INDEX: {
        if (!anvil_json_is_array(&in)) {
            *out = anvil_json_make_null();
            return ANVIL_OK;
        }
        int64_t len = (int64_t)anvil_json_len(&in);
        int64_t i = n->index < 0 ? (n->index < -len ? -1 : n->index + len) : n->index;
        *out = i >= 0 && i < len ? in.u.items[i] : anvil_json_make_null();
        return ANVIL_OK;
    }
    case JP_N_SLICE:
        return s_slice(ev, n, &in, out);
    case JP_N_PROJECTION:
    case JP_N_VALUE_PROJECTION:
    case JP_N_FILTER_PROJECTION:
        return s_project(ev, n, &in, out);
    case JP_N_FLATTEN: {
        if ((rc = jp_eval_node(ev, n->children[0], &in, &a)) != ANVIL_OK) {
            return rc;
        }
        if (!anvil_json_is_array(&a)) {
            *out = anvil_json_make_null();
            return ANVIL_OK;
        }
        size_t mark = ev->stack_len;
        for (size_t i = 0; i < anvil_json_len(&a); i++) {
            const struct anvil_json *item = &a.u.items[i];
            size_t inner = anvil_json_is_array(item) ? anvil_json_len(item) : 1;
            for (size_t j = 0; j < inner; j++) {
                if ((rc = jp_push(ev, anvil_json_is_array(item) ? item->u.items[j] : *item)) != ANVIL_OK) {
                    return rc;
                }
            }
        }
        return jp_pop_array(ev, mark, out);
    }
    case JP_N_MULTI_LIST: {
        if (anvil_json_is_null(&in)) {
            *out = in;
            return ANVIL_OK;
        }
        size_t mark = ev->stack_len;
        for (size_t i = 0; i < n->count; i++) {
            if ((rc = jp_eval_node(ev, n->children[i], &in, &b)) != ANVIL_OK) {
                ev->stack_len = mark;
                return rc;
            }
            if ((rc = jp_push(ev, b)) != ANVIL_OK) {
                return rc;
            }
        }
        return jp_pop_array(ev, mark, out);
    }
    case JP_N_MULTI_HASH:
        if (anvil_json_is_null(&in)) {
            *out = in;
            return ANVIL_OK;
        }
        return s_multi_hash(ev, n, &in, out);
    case JP_N_OR:
    case JP_N_AND:
        /* `||` gives the first truthy operand, `&&` the first falsy one; else the last. */
        for (size_t i = 0; i < n->count; i++) {
            if ((rc = jp_eval_node(ev, n->children[i], &in, &a)) != ANVIL_OK) {
                return rc;
            }
            if (anvil_jmespath_truthy(&a) == (n->type == JP_N_OR)) {
                break;
            }
        }
        *out = a;
        return ANVIL_OK;
    case JP_N_NOT: {
        bool truthy;
        if ((rc = s_truth(ev, n->children[0], &in, &truthy)) != ANVIL_OK) {
            return rc;
        }
        *out = anvil_json_make_bool(!truthy);
        return ANVIL_OK;
    }
    case JP_N_COMPARE: {
        int r;
        if ((rc = s_comparison(ev, n, &in, &r)) != ANVIL_OK) {
            return rc;
        }
        *out = r < 0 ? anvil_json_make_null() : anvil_json_make_bool(r == 1);
        return ANVIL_OK;
    }
    case JP_N_LITERAL:
        *out = n->literal;
        return ANVIL_OK;
    case JP_N_FUNCTION:
        return s_call(ev, n, &in, out);
    case JP_N_EXPREF:
        /* An &expression is only meaningful as a function argument. */
        *out = anvil_json_make_null();
        return ANVIL_OK;
    }
    return jp_error(ev, ANVIL_EINTERNAL, n, "unknown node type %d", (int)n->type);
}

int anvil_jmespath_search(const struct anvil_jmespath *expr, const struct anvil_json *input,
                          struct anvil_arena *result_arena, struct anvil_json *result, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!expr || !input || !result_arena || !result) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    if (expr->field_chain) {
        /* `a.b.c`: each field looked up once, so no hints and no evaluator (what jp_eval_node
         * would do, step for step). */
        const struct jp_node *root = expr->root;
        const struct jp_node *const *steps =
            root->type == JP_N_FIELD ? &root : (const struct jp_node *const *)root->children;
        size_t count = root->type == JP_N_FIELD ? 1 : root->count;
        const struct anvil_json *v = input;
        for (size_t i = 0; i < count && v; i++) {
            v = anvil__json_object_get_hashed(v, steps[i]->name.ptr, steps[i]->name.len, steps[i]->hash);
        }
        *result = v ? *v : anvil_json_make_null();
        return ANVIL_OK;
    }
    struct jp_hint hints[JP_HINTS];
    uint32_t hint_count = expr->fields < JP_HINTS ? expr->fields : JP_HINTS;
    for (uint32_t i = 0; i < hint_count; i++) {
        hints[i] = (struct jp_hint){NULL, 0};
    }
    struct jp_eval ev = {result_arena, result_arena->parent, diag, expr, NULL, 0, 0, hints, hint_count};
    struct anvil_json out;
    int rc = jp_eval_node(&ev, expr->root, input, &out);
    if (ev.stack) {
        anvil_mem_release(ev.scratch, ev.stack);
    }
    if (rc == ANVIL_OK) {
        *result = out;
    }
    return rc;
}
