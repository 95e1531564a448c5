/*
 * Static analysis of an expression against sample data, with the rules and
 * messages of Smithy's JMESPath type checker (smithy-jmespath), which the
 * Smithy waiter validator reports: a field taken from something that is not
 * an object, or missing from an object; an index, slice, flatten or
 * projection on the wrong type; a comparator a type does not support; a
 * function argument of the wrong type. Values are abstract: a concrete JSON
 * value, "any" (unknown), or an expression reference. Type-only results (a
 * function's return type) are represented as Smithy does: by a placeholder
 * value of that type (0, "", false, [], {}).
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jmespath/jmespath_internal.h"

enum s_kind { S_VALUE, S_ANY, S_EXPREF };

struct s_val {
    enum s_kind kind;
    struct anvil_json v;
};

/*
 * The most values one run may produce in projections, filters and flattens.
 * Sample data is a DAG whose copies are shared (model/sample.c): a path
 * like `a[][][][][]` over nested lists would otherwise materialise the
 * whole tree. Past the budget every result is "any", so the linter reports
 * less, never something false. Real waiter paths use a few hundred.
 */
#define S_WORK_BUDGET ((size_t)1 << 20)

struct s_lint {
    const struct anvil_jmespath *expr;
    struct anvil_arena *arena;
    anvil__lint_problem_fn *report;
    void *user_data;
    int rc; /* sticky ANVIL_ENOMEM */
    size_t budget;
};

static const struct s_val s_any = {S_ANY, {0, {0}}};

bool anvil__lint_is_any(const struct anvil_json *v) {
    return anvil_json_is_string(v) && anvil_json_len(v) == sizeof ANVIL__LINT_ANY - 1 &&
           memcmp(anvil_json_string(v).ptr, ANVIL__LINT_ANY, sizeof ANVIL__LINT_ANY - 1) == 0;
}

static struct s_val s_of(const struct anvil_json *v) {
    if (v && anvil__lint_is_any(v)) {
        return s_any;
    }
    struct s_val r = {S_VALUE, v ? *v : anvil_json_make_null()};
    return r;
}

static enum anvil__lint_type s_type(const struct s_val *v) {
    switch (v->kind) {
    case S_ANY:
        return ANVIL__LINT_ANY_TYPE;
    case S_EXPREF:
        return ANVIL__LINT_EXPRESSION;
    case S_VALUE:
        break;
    }
    switch (anvil_json_type(&v->v)) {
    case ANVIL_JSON_NULL:
        return ANVIL__LINT_NULL;
    case ANVIL_JSON_BOOL:
        return ANVIL__LINT_BOOLEAN;
    case ANVIL_JSON_NUMBER:
        return ANVIL__LINT_NUMBER;
    case ANVIL_JSON_STRING:
        return ANVIL__LINT_STRING;
    case ANVIL_JSON_ARRAY:
        return ANVIL__LINT_ARRAY;
    case ANVIL_JSON_OBJECT:
        return ANVIL__LINT_OBJECT;
    }
    return ANVIL__LINT_ANY_TYPE;
}

const char *anvil__lint_type_name(enum anvil__lint_type type) {
    static const char *const names[] = {"any", "null", "boolean", "number", "string", "array", "object", "expression"};
    return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "any";
}

static const char *s_tname(const struct s_val *v) {
    return anvil__lint_type_name(s_type(v));
}

/* Smithy's truthiness: unknown values, numbers and references count as true. */
static bool s_truthy(const struct s_val *v) {
    return v->kind != S_VALUE || anvil_json_is_number(&v->v) || anvil_jmespath_truthy(&v->v);
}

static bool s_is(const struct s_val *v, enum anvil_json_type t) {
    return v->kind == S_VALUE && anvil_json_type(&v->v) == t;
}

/* The line and column of byte `pos` of the expression. */
static void s_where(const struct s_lint *l, size_t pos, size_t *line, size_t *column) {
    *line = 1;
    size_t start = 0;
    for (size_t i = 0; i < pos && i < l->expr->len; i++) {
        if (l->expr->text[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    }
    *column = pos - start + 1;
}

ANVIL_PRINTF(4, 5)
static void s_problem(struct s_lint *l, enum anvil__lint_severity severity, size_t pos, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    size_t line, column;
    s_where(l, pos, &line, &column);
    l->report(l->user_data, severity, line, column, message);
}

/* Where Smithy places a node: the leftmost position in its subtree (its first token). */
static size_t s_start(const struct jp_node *n) {
    size_t pos = n->pos;
    for (size_t i = 0; i < n->count; i++) {
        if (n->children[i] && n->children[i]->type != JP_N_IDENTITY) {
            size_t child = s_start(n->children[i]);
            pos = child < pos ? child : pos;
        }
    }
    return pos;
}

/* A comparison sits, for Smithy, where its right-hand side starts. */
static size_t s_position(const struct s_lint *l, const struct jp_node *n) {
    if (n->type != JP_N_COMPARE || n->count != 2) {
        return n->pos;
    }
    /* The right-hand side's first token, its opening parentheses included. */
    size_t pos = s_start(n->children[1]);
    for (size_t at = pos; at > 0;) {
        char c = l->expr->text[--at];
        if (c == '(') {
            pos = at;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            break;
        }
    }
    return pos;
}

static struct s_val s_visit(struct s_lint *l, const struct jp_node *n, const struct s_val *cur, struct s_val known);

/* Takes `n` values from the work budget; false once it is spent (for good: the caller answers "any"). */
static bool s_charge(struct s_lint *l, size_t n) {
    if (n > l->budget) {
        l->budget = 0;
        return false;
    }
    l->budget -= n;
    return true;
}

static struct s_val s_array_of(struct s_lint *l, const struct anvil_json *items, size_t count) {
    struct s_val r = {S_VALUE, anvil_json_make_null()};
    struct anvil_json *slots = NULL;
    if (anvil_json_new_array(l->arena, count, &r.v, &slots) != ANVIL_OK) {
        l->rc = ANVIL_ENOMEM;
        r.kind = S_ANY;
    } else if (count) {
        memcpy(slots, items, count * sizeof *slots);
    }
    return r;
}

/* The placeholder values Smithy uses for "some value of this type". */
static struct s_val s_placeholder(struct s_lint *l, enum anvil__lint_type type) {
    struct s_val r = {S_VALUE, anvil_json_make_null()};
    switch (type) {
    case ANVIL__LINT_BOOLEAN:
        r.v = anvil_json_make_bool(false);
        break;
    case ANVIL__LINT_NUMBER:
        r.v = anvil_json_make_int(0);
        break;
    case ANVIL__LINT_STRING:
        anvil_json_new_string(l->arena, "", 0, &r.v);
        break;
    case ANVIL__LINT_ARRAY:
        return s_array_of(l, NULL, 0);
    case ANVIL__LINT_OBJECT:
        r.v = *anvil__json_empty_object();
        break;
    case ANVIL__LINT_EXPRESSION:
        r.kind = S_EXPREF;
        break;
    case ANVIL__LINT_ANY_TYPE:
        return s_any;
    case ANVIL__LINT_NULL:
        break;
    }
    return r;
}

static struct s_val s_field(struct s_lint *l, const struct jp_node *n, const struct s_val *cur) {
    if (s_is(cur, ANVIL_JSON_OBJECT)) {
        const struct anvil_json *member = anvil_json_object_get(&cur->v, n->name.ptr, n->name.len);
        if (member) {
            return s_of(member);
        }
        char keys[256] = "";
        size_t at = 0;
        for (size_t i = 0; i < anvil_json_len(&cur->v) && at < sizeof keys - 8; i++) {
            struct anvil_str_view k = anvil_json_member_key(anvil_json_object_at(&cur->v, i));
            int w = snprintf(keys + at, sizeof keys - at, "%s%.*s", i ? ", " : "", (int)k.len, k.ptr);
            at += w > 0 ? (size_t)w : 0;
        }
        s_problem(l, ANVIL__LINT_DANGER, n->pos, "Object field '%.*s' does not exist in object with properties [%s]",
                  (int)n->name.len, n->name.ptr, keys);
        return s_of(NULL);
    }
    if (cur->kind != S_ANY) {
        s_problem(l, ANVIL__LINT_DANGER, n->pos, "Object field '%.*s' extraction performed on %s", (int)n->name.len,
                  n->name.ptr, s_tname(cur));
    }
    return s_any;
}

static struct s_val s_index(struct s_lint *l, const struct jp_node *n, const struct s_val *cur) {
    if (s_is(cur, ANVIL_JSON_ARRAY)) {
        int64_t len = (int64_t)anvil_json_len(&cur->v);
        int64_t i = n->index < 0 ? len + n->index : n->index;
        return s_of(i >= 0 && i < len ? anvil_json_array_at(&cur->v, (size_t)i) : NULL);
    }
    if (cur->kind != S_ANY) {
        s_problem(l, ANVIL__LINT_DANGER, n->pos, "Array index '%lld' extraction performed on %s", (long long)n->index,
                  s_tname(cur));
    }
    return s_any;
}

static struct s_val s_slice(struct s_lint *l, const struct jp_node *n, const struct s_val *cur) {
    if (s_is(cur, ANVIL_JSON_ARRAY)) {
        return *cur;
    }
    if (cur->kind != S_ANY) {
        s_problem(l, ANVIL__LINT_DANGER, n->pos, "Slice performed on %s", s_tname(cur));
    }
    return s_placeholder(l, ANVIL__LINT_ARRAY);
}

static struct s_val s_flatten(struct s_lint *l, const struct jp_node *n, const struct s_val *cur, struct s_val known) {
    struct s_val base = s_visit(l, n->children[0], cur, known);
    if (!s_is(&base, ANVIL_JSON_ARRAY)) {
        if (base.kind != S_ANY) {
            s_problem(l, ANVIL__LINT_DANGER, n->pos, "Array flatten performed on %s", s_tname(&base));
        }
        return s_placeholder(l, ANVIL__LINT_ARRAY);
    }
    size_t total = 0;
    for (size_t i = 0; i < anvil_json_len(&base.v); i++) {
        const struct anvil_json *e = anvil_json_array_at(&base.v, i);
        total += anvil_json_is_array(e) ? anvil_json_len(e) : !anvil_json_is_null(e);
    }
    if (!s_charge(l, total)) {
        return s_any;
    }
    struct anvil_json *items = total ? anvil_arena_alloc(l->arena, total * sizeof *items, 0) : NULL;
    if (total && !items) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    size_t at = 0;
    for (size_t i = 0; i < anvil_json_len(&base.v); i++) {
        const struct anvil_json *e = anvil_json_array_at(&base.v, i);
        if (anvil_json_is_array(e)) {
            for (size_t j = 0; j < anvil_json_len(e); j++) {
                items[at++] = *anvil_json_array_at(e, j);
            }
        } else if (!anvil_json_is_null(e)) {
            items[at++] = *e;
        }
    }
    return s_array_of(l, items, total);
}

/* Applies `rhs` to each of `count` values (NULL rhs: the values themselves); nulls are dropped. */
static struct s_val s_project_each(struct s_lint *l, const struct jp_node *rhs, const struct anvil_json *values,
                                   size_t count, struct s_val known) {
    if (!s_charge(l, count)) {
        return s_any;
    }
    struct anvil_json *items = count ? anvil_arena_alloc(l->arena, count * sizeof *items, 0) : NULL;
    if (count && !items) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        struct s_val item = s_of(&values[i]);
        struct s_val r = s_visit(l, rhs, &item, known);
        if (r.kind == S_ANY) {
            anvil_json_new_string(l->arena, ANVIL__LINT_ANY, sizeof ANVIL__LINT_ANY - 1, &items[at++]);
        } else if (r.kind == S_VALUE && !anvil_json_is_null(&r.v)) {
            items[at++] = r.v;
        }
    }
    return s_array_of(l, items, at);
}

static struct s_val s_projection(struct s_lint *l, const struct jp_node *n, const struct s_val *cur,
                                 struct s_val known) {
    struct s_val base = s_visit(l, n->children[0], cur, known);
    if (!s_is(&base, ANVIL_JSON_ARRAY) || anvil_json_len(&base.v) == 0) {
        if (base.kind != S_ANY && !s_is(&base, ANVIL_JSON_ARRAY)) {
            /* Smithy places `[*]` at its star. */
            size_t at = n->pos;
            if (at + 1 < l->expr->len && l->expr->text[at] == '[' && l->expr->text[at + 1] == '*') {
                at++;
            }
            s_problem(l, ANVIL__LINT_DANGER, at, "Array projection performed on %s", s_tname(&base));
        }
        s_visit(l, n->children[1], &s_any, known);
        return s_placeholder(l, ANVIL__LINT_ARRAY);
    }
    return s_project_each(l, n->children[1], anvil_json_array_at(&base.v, 0), anvil_json_len(&base.v), known);
}

static struct s_val s_value_projection(struct s_lint *l, const struct jp_node *n, const struct s_val *cur,
                                       struct s_val known) {
    struct s_val base = s_visit(l, n->children[0], cur, known);
    if (!s_is(&base, ANVIL_JSON_OBJECT)) {
        if (base.kind != S_ANY) {
            s_problem(l, ANVIL__LINT_DANGER, n->pos, "Object projection performed on %s", s_tname(&base));
        }
        s_visit(l, n->children[1], &s_any, known);
        return s_placeholder(l, ANVIL__LINT_OBJECT);
    }
    size_t count = anvil_json_len(&base.v);
    struct anvil_json *values = count ? anvil_arena_alloc(l->arena, count * sizeof *values, 0) : NULL;
    if (count && !values) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    for (size_t i = 0; i < count; i++) {
        values[i] = anvil_json_object_at(&base.v, i)->value;
    }
    return s_project_each(l, n->children[1], values, count, known);
}

static struct s_val s_filter(struct s_lint *l, const struct jp_node *n, const struct s_val *cur, struct s_val known) {
    struct s_val base = s_visit(l, n->children[0], cur, known);
    const struct jp_node *rhs = n->children[1], *cond = n->children[2];
    if (!s_is(&base, ANVIL_JSON_ARRAY) || anvil_json_len(&base.v) == 0) {
        if (!s_is(&base, ANVIL_JSON_ARRAY) && base.kind != S_ANY) {
            s_problem(l, ANVIL__LINT_DANGER, s_position(l, cond), "Filter projection performed on %s", s_tname(&base));
        }
        s_visit(l, cond, &s_any, known);
        s_visit(l, rhs, &s_any, known);
        return s_placeholder(l, ANVIL__LINT_ARRAY);
    }
    size_t count = anvil_json_len(&base.v);
    if (!s_charge(l, count)) {
        return s_any;
    }
    struct anvil_json *items = anvil_arena_alloc(l->arena, count * sizeof *items, 0);
    if (!items) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        struct s_val item = s_of(anvil_json_array_at(&base.v, i));
        struct s_val keep = s_visit(l, cond, &item, known);
        if (s_truthy(&keep)) {
            struct s_val r = s_visit(l, rhs, &item, known);
            if (r.kind == S_ANY) {
                anvil_json_new_string(l->arena, ANVIL__LINT_ANY, sizeof ANVIL__LINT_ANY - 1, &items[at++]);
            } else if (r.kind == S_VALUE && !anvil_json_is_null(&r.v)) {
                items[at++] = r.v;
            }
        }
    }
    return s_array_of(l, items, at);
}

static const char *s_op_name(enum jp_token_type op) {
    switch (op) {
    case JP_EQ:
        return "==";
    case JP_NE:
        return "!=";
    case JP_LT:
        return "<";
    case JP_LTE:
        return "<=";
    case JP_GT:
        return ">";
    default:
        return ">=";
    }
}

static struct s_val s_compare(struct s_lint *l, const struct jp_node *n, const struct s_val *cur, struct s_val known) {
    struct s_val a = s_visit(l, n->children[0], cur, known);
    struct s_val b = s_visit(l, n->children[1], cur, known);
    struct s_val r = {S_VALUE, anvil_json_make_null()};
    bool ordering = n->op != JP_EQ && n->op != JP_NE;
    if (a.kind == S_EXPREF) {
        /* Expression references compare to nothing. */
    } else if (a.kind == S_ANY || b.kind == S_ANY) {
        return s_any;
    } else if (!ordering) {
        bool eq = b.kind == S_VALUE && anvil_json_equal(&a.v, &b.v);
        r.v = anvil_json_make_bool(n->op == JP_EQ ? eq : !eq);
    } else if (s_is(&a, ANVIL_JSON_NUMBER) && s_is(&b, ANVIL_JSON_NUMBER)) {
        double x = anvil_json_double(&a.v), y = anvil_json_double(&b.v);
        bool v = n->op == JP_LT ? x < y : n->op == JP_LTE ? x <= y : n->op == JP_GT ? x > y : x >= y;
        r.v = anvil_json_make_bool(v);
    }
    if (r.kind == S_VALUE && anvil_json_is_null(&r.v)) {
        s_problem(l, ANVIL__LINT_WARNING, s_position(l, n), "Invalid comparator '%s' for %s", s_op_name(n->op),
                  s_tname(&a));
    }
    return r;
}

/* ---- functions: Smithy's table of argument checks and return types ---- */

enum s_check { C_ANY, C_TYPE, C_ONE_OF, C_LIST_OF };

struct s_param {
    enum s_check check;
    unsigned types; /* bit per enum anvil__lint_type */
};

struct s_fn {
    const char *name;
    enum anvil__lint_type returns;
    struct s_param params[3];
    size_t count;
    bool variadic; /* the last param repeats */
};

#define T(t) (1u << ANVIL__LINT_##t)
#define ANY_P                                                                                                          \
    { C_ANY, 0 }
#define IS(t)                                                                                                          \
    { C_TYPE, T(t) }
#define LIST_OF(t)                                                                                                     \
    { C_LIST_OF, T(t) }

static const struct s_fn s_fns[] = {
    {"abs", ANVIL__LINT_NUMBER, {IS(NUMBER)}, 1, false},
    {"avg", ANVIL__LINT_NUMBER, {LIST_OF(NUMBER)}, 1, false},
    {"contains", ANVIL__LINT_BOOLEAN, {{C_ONE_OF, T(ARRAY) | T(STRING)}, ANY_P}, 2, false},
    {"ceil", ANVIL__LINT_NUMBER, {IS(NUMBER)}, 1, false},
    {"ends_with", ANVIL__LINT_NUMBER, {IS(STRING), IS(STRING)}, 2, false}, /* Smithy says number */
    {"floor", ANVIL__LINT_NUMBER, {IS(NUMBER)}, 1, false},
    {"join", ANVIL__LINT_STRING, {IS(STRING), LIST_OF(STRING)}, 2, false},
    {"keys", ANVIL__LINT_ARRAY, {IS(OBJECT)}, 1, false},
    {"length", ANVIL__LINT_NUMBER, {{C_ONE_OF, T(STRING) | T(ARRAY) | T(OBJECT)}}, 1, false},
    {"map", ANVIL__LINT_ARRAY, {IS(EXPRESSION), IS(ARRAY)}, 2, false},
    {"max", ANVIL__LINT_NUMBER, {IS(ARRAY)}, 1, false},
    {"max_by", ANVIL__LINT_NUMBER, {IS(ARRAY), IS(EXPRESSION)}, 2, false},
    {"merge", ANVIL__LINT_OBJECT, {IS(OBJECT)}, 0, true},
    {"min", ANVIL__LINT_NUMBER, {IS(ARRAY)}, 1, false},
    {"min_by", ANVIL__LINT_NUMBER, {IS(ARRAY), IS(EXPRESSION)}, 2, false},
    {"not_null", ANVIL__LINT_ANY_TYPE, {ANY_P, ANY_P}, 1, true},
    {"reverse", ANVIL__LINT_ARRAY, {{C_ONE_OF, T(ARRAY) | T(STRING)}}, 1, false},
    {"sort", ANVIL__LINT_ARRAY, {IS(ARRAY)}, 1, false},
    {"sort_by", ANVIL__LINT_ARRAY, {IS(ARRAY), IS(EXPRESSION)}, 2, false},
    {"starts_with", ANVIL__LINT_BOOLEAN, {IS(STRING), IS(STRING)}, 2, false},
    {"sum", ANVIL__LINT_NUMBER, {LIST_OF(NUMBER)}, 1, false},
    {"to_array", ANVIL__LINT_ARRAY, {ANY_P}, 1, false},
    {"to_string", ANVIL__LINT_STRING, {ANY_P}, 1, false},
    {"to_number", ANVIL__LINT_NUMBER, {ANY_P}, 1, false},
    {"type", ANVIL__LINT_STRING, {ANY_P}, 1, false},
    {"values", ANVIL__LINT_ARRAY, {IS(OBJECT)}, 1, false},
};

/* "[string, array, object]" for a type mask, in Smithy's order. */
static void s_type_list(unsigned types, char *out, size_t size) {
    static const enum anvil__lint_type order[] = {ANVIL__LINT_STRING, ANVIL__LINT_ARRAY,   ANVIL__LINT_OBJECT,
                                                  ANVIL__LINT_NUMBER, ANVIL__LINT_BOOLEAN, ANVIL__LINT_NULL};
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof order / sizeof order[0] && at < size; i++) {
        if (types & (1u << order[i])) {
            int w = snprintf(out + at, size - at, "%s%s", at ? ", " : "", anvil__lint_type_name(order[i]));
            at += w > 0 ? (size_t)w : 0;
        }
    }
}

/* Smithy's message for an argument that fails its check, or NULL. */
static bool s_check_arg(const struct s_param *p, const struct s_val *arg, char *why, size_t size) {
    enum anvil__lint_type t = s_type(arg);
    if (p->check == C_ANY || t == ANVIL__LINT_ANY_TYPE) {
        return true;
    }
    if (p->check == C_TYPE) {
        if (p->types & (1u << t)) {
            return true;
        }
        enum anvil__lint_type want = ANVIL__LINT_ANY_TYPE;
        for (unsigned i = 0; i <= ANVIL__LINT_EXPRESSION; i++) {
            want = p->types & (1u << i) ? (enum anvil__lint_type)i : want;
        }
        snprintf(why, size, "Expected argument to be %s, but found %s", anvil__lint_type_name(want),
                 anvil__lint_type_name(t));
        return false;
    }
    if (p->check == C_ONE_OF) {
        if (p->types & (1u << t)) {
            return true;
        }
        char list[96];
        s_type_list(p->types, list, sizeof list);
        snprintf(why, size, "Expected one of [%s], but found %s", list, anvil__lint_type_name(t));
        return false;
    }
    /* C_LIST_OF */
    if (t != ANVIL__LINT_ARRAY) {
        snprintf(why, size, "Expected argument to be an array, but found %s", anvil__lint_type_name(t));
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(&arg->v); i++) {
        struct s_val e = s_of(anvil_json_array_at(&arg->v, i));
        enum anvil__lint_type et = s_type(&e);
        if (et != ANVIL__LINT_ANY_TYPE && !(p->types & (1u << et))) {
            enum anvil__lint_type want = ANVIL__LINT_ANY_TYPE;
            for (unsigned k = 0; k <= ANVIL__LINT_EXPRESSION; k++) {
                want = p->types & (1u << k) ? (enum anvil__lint_type)k : want;
            }
            snprintf(why, size, "Expected an array of %s, but found %s at index %zu", anvil__lint_type_name(want),
                     anvil__lint_type_name(et), i);
            return false;
        }
    }
    return true;
}

static struct s_val s_function(struct s_lint *l, const struct jp_node *n, const struct s_val *cur) {
    const struct s_fn *def = NULL;
    for (size_t i = 0; i < sizeof s_fns / sizeof s_fns[0] && n->function; i++) {
        if (strcmp(s_fns[i].name, n->function->name) == 0) {
            def = &s_fns[i];
        }
    }
    struct s_val args[16];
    size_t count = n->count < 16 ? n->count : 16;
    for (size_t i = 0; i < n->count; i++) {
        /* Expression references are checked against the current value. */
        struct s_val a = s_visit(l, n->children[i], cur, *cur);
        if (i < count) {
            args[i] = a;
        }
    }
    if (!def) {
        s_problem(l, ANVIL__LINT_ERROR, n->pos, "Unknown function: %s", n->function ? n->function->name : "?");
        return s_any;
    }
    if (count < def->count || (!def->variadic && count > def->count)) {
        s_problem(l, ANVIL__LINT_ERROR, n->pos, "%s function expected %zu arguments, but was given %zu", def->name,
                  def->count, n->count);
    } else {
        for (size_t i = 0; i < count; i++) {
            const struct s_param *p = i < def->count ? &def->params[i] : &def->params[def->count ? def->count : 0];
            if (def->variadic && i >= def->count) {
                p = &def->params[def->count];
            }
            char why[200];
            if (!s_check_arg(p, &args[i], why, sizeof why)) {
                s_problem(l, ANVIL__LINT_ERROR, s_start(n->children[i]), "%s function argument %zu error: %s",
                          def->name, i, why);
            }
        }
    }
    return s_placeholder(l, def->returns);
}

static struct s_val s_multi(struct s_lint *l, const struct jp_node *n, const struct s_val *cur, struct s_val known) {
    struct anvil_json *items = n->count ? anvil_arena_alloc(l->arena, n->count * sizeof *items, 0) : NULL;
    if (n->count && !items) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    for (size_t i = 0; i < n->count; i++) {
        struct s_val r = s_visit(l, n->children[i], cur, known);
        if (r.kind == S_VALUE) {
            items[i] = r.v;
        } else {
            anvil_json_new_string(l->arena, ANVIL__LINT_ANY, sizeof ANVIL__LINT_ANY - 1, &items[i]);
        }
    }
    if (n->type == JP_N_MULTI_LIST) {
        return s_array_of(l, items, n->count);
    }
    struct anvil_json_member *members = n->count ? anvil_arena_alloc(l->arena, n->count * sizeof *members, 0) : NULL;
    if (n->count && !members) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    for (size_t i = 0; i < n->count; i++) {
        members[i].key = n->keys[i];
        members[i].value = items[i];
    }
    /* As the evaluator makes it: a repeated key's last value wins, and 16 keys or more get the index
     * lookups read (a bare container of them had none, and the first lookup read past the members). */
    struct s_val r = {S_VALUE, anvil_json_make_null()};
    size_t unused;
    if (anvil__json_object_finish(l->arena, members, n->count, false, &unused, &r.v) != ANVIL_OK) {
        l->rc = ANVIL_ENOMEM;
        return s_any;
    }
    return r;
}

static struct s_val s_visit(struct s_lint *l, const struct jp_node *n, const struct s_val *cur, struct s_val known) {
    if (!n || l->rc != ANVIL_OK) {
        return s_any;
    }
    switch (n->type) {
    case JP_N_IDENTITY:
    case JP_N_CURRENT:
        return *cur;
    case JP_N_FIELD:
        return s_field(l, n, cur);
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE: {
        struct s_val v = *cur;
        for (size_t i = 0; i < n->count; i++) {
            v = s_visit(l, n->children[i], &v, known);
        }
        return v;
    }
    case JP_N_INDEX:
        return s_index(l, n, cur);
    case JP_N_SLICE:
        return s_slice(l, n, cur);
    case JP_N_PROJECTION:
        return s_projection(l, n, cur, known);
    case JP_N_VALUE_PROJECTION:
        return s_value_projection(l, n, cur, known);
    case JP_N_FILTER_PROJECTION:
        return s_filter(l, n, cur, known);
    case JP_N_FLATTEN:
        return s_flatten(l, n, cur, known);
    case JP_N_MULTI_LIST:
    case JP_N_MULTI_HASH:
        return s_multi(l, n, cur, known);
    case JP_N_OR:
    case JP_N_AND: {
        /* Every operand is checked; the result is what the operator would pick. */
        struct s_val result = s_visit(l, n->children[0], cur, known);
        for (size_t i = 1; i < n->count; i++) {
            struct s_val next = s_visit(l, n->children[i], cur, known);
            bool truthy = s_truthy(&result);
            result = (n->type == JP_N_OR) == truthy ? result : next;
        }
        return result;
    }
    case JP_N_NOT: {
        struct s_val v = s_visit(l, n->children[0], cur, known);
        struct s_val r = {S_VALUE, anvil_json_make_bool(!s_truthy(&v))};
        return r;
    }
    case JP_N_COMPARE:
        return s_compare(l, n, cur, known);
    case JP_N_LITERAL:
        return s_of(&n->literal);
    case JP_N_FUNCTION:
        return s_function(l, n, cur);
    case JP_N_EXPREF: {
        /* Checked against the value a function would apply it to: the current one. */
        s_visit(l, n->children[0], &known, known);
        struct s_val r = {S_EXPREF, anvil_json_make_null()};
        return r;
    }
    }
    return s_any;
}

int anvil__jmespath_lint(const struct anvil_jmespath *expr, const struct anvil_json *input, struct anvil_arena *arena,
                         anvil__lint_problem_fn *report, void *user_data, enum anvil__lint_type *returns) {
    struct s_lint l = {expr, arena, report, user_data, ANVIL_OK, S_WORK_BUDGET};
    struct s_val cur = input ? s_of(input) : s_any;
    struct s_val r = s_visit(&l, expr->root, &cur, cur);
    if (returns) {
        *returns = s_type(&r);
    }
    return l.rc;
}
