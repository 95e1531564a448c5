/*
 * JMESPath compiled to C: anvil's syntax tree (src/jmespath) becomes one C
 * function over anvil's public JSON API that gives exactly what the
 * interpreter gives (codegen_internal.h has the contract). Why the code has
 * the shape it has:
 *
 * - A node's value is a `const struct anvil_json *` (NULL is null) in a
 *   local named after its role (`v_table_status`). Fields go through a
 *   helper that is anvil_json_object_get() without hashing the key for
 *   small objects (hashing cost more than the whole scan on AWS responses)
 *   and that takes NULL and non-objects, so a path is a run of lookups with
 *   no branches and no copies. A lookup inside a loop keeps a hint (a local
 *   of the function): where the key was found in the previous object,
 *   checked inline by key record first, the lookup after a miss out of line.
 * - Values the code makes (booleans, numbers, new arrays) live in a
 *   `struct anvil_json t_<role>` declared in the block where the node
 *   starts, so a pointer never outlives its storage. A value made inside a
 *   nested block (the right side of `||`) is copied out by value: 16 bytes
 *   that still point into the input or the scratch arena.
 * - Projections, flattens and slices are streams: nested loops hand each
 *   element to a consumer (collect a new array, count for length(), search
 *   for contains(), truthiness, a waiter comparator), so `A[].B[].C` under
 *   allStringEquals allocates nothing and stops at the first mismatch (no
 *   match whatever follows). A loop stops early on a find (anyStringEquals,
 *   contains(), truthiness, a count compared with an integer it has passed)
 *   only when nothing after it can fail: the interpreter would report that.
 *   The element that decides jumps past the loops (`goto`), so no loop
 *   tests a flag on each element.
 * - Conditions (filters, operands of `&&`, `||`, `!`) compile to C `bool`s;
 *   a comparison with a literal string of up to 7 bytes is
 *   anvil_json_string_equals_word() with the literal's word as a constant
 *   (the tag and one compare), a longer one anvil_json_string_equals().
 * - Literals that need storage (strings, arrays, objects) are made in
 *   `scratch` at the start of the function, once per call.
 * - Runtime errors return the interpreter's status (a matcher instead
 *   answers "no match", as the waiter runtime does). The interpreter
 *   finishes each projection before the next starts; a stream interleaves
 *   them, so two projections are fused only when that cannot change which
 *   error comes first (s_may_fuse).
 * - A value computed only because the interpreter computes it (for its
 *   errors) and then not needed gets a `(void)` so -Wunused stays quiet.
 * - Helpers are emitted once per file into `helpers`, named
 *   PREFIX_jpc_* (jpc_* in anvil gen's files); whether one is already there is found by searching
 *   `helpers` for its definition.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "codegen/codegen_internal.h"
#include "codegen/jmespath_c_internal.h"
#include "jmespath/jmespath_internal.h"

/* ---- writing the code ---- */

/* Static types (which JSON types a node can give, errors aside) are the interpreter's JP_T_* masks. */

struct s_name {
    struct s_name *next;
    const char *text;
    /* For a base name: the next suffix to try (so a path of n equal names costs n tries, not n squared). */
    unsigned next_suffix;
};

/* A field already looked up in an open block: used again instead of a second lookup. */
struct s_cse {
    struct s_cse *next;
    const char *in;
    struct anvil_str_view field;
    const char *var;
    int depth;
};

/* A literal the function makes once, at its start. */
struct s_literal {
    struct s_literal *next;
    const char *json; /* its JSON text, to share equal literals ("word " and a C string: s_word()) */
    const char *var;
};

struct s_gen {
    struct anvil_arena *arena;
    struct anvil_buf *helpers;
    /* Functions for &expression arguments, written before the function that calls them. */
    struct anvil_buf nested;
    const char *prefix; /* "PREFIX_jpc_" */
    const char *name;
    unsigned nested_count;
    int rc;
    /* With ANVIL_EUNSUPPORTED: the construct. */
    const char *unsupported;
};

/* One C function being written. */
struct s_fn {
    struct s_gen *g;
    struct anvil_buf body;
    struct anvil_buf prologue;
    int indent;
    bool matcher;
    bool uses_rc;
    const char *param;
    struct s_name *names;
    struct s_cse *cse;
    struct s_literal *literals;
    /* Strings too long for a line, as named constants at the function's start (s_cstr). */
    struct anvil_buf strings;
    int loops; /* how many loops the code being written is in */
    /* An &expression's function, called once per element by sort_by() and the like: its lookups outside
     * loops are plain (a guess kept across calls would be shared by every element, and every thread). */
    bool per_element;
};

static void s_fail_gen(struct s_gen *g, int rc) {
    if (g->rc == ANVIL_OK) {
        g->rc = rc;
    }
}

static const char *s_vfmt(struct s_gen *g, const char *fmt, va_list args) ANVIL_PRINTF(2, 0);

static const char *s_vfmt(struct s_gen *g, const char *fmt, va_list args) {
    va_list copy;
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    char *s = n >= 0 ? anvil_arena_alloc(g->arena, (size_t)n + 1, 1) : NULL;
    if (!s) {
        s_fail_gen(g, ANVIL_ENOMEM);
        return "?";
    }
    vsnprintf(s, (size_t)n + 1, fmt, args);
    return s;
}

/* Gives up on the expression: `what` cannot be compiled. */
static void s_unsupported(struct s_gen *g, const char *what) {
    if (g->rc == ANVIL_OK) {
        g->rc = ANVIL_EUNSUPPORTED;
        g->unsupported = what;
    }
}

/* A string in the generator's arena. */
static const char *s_fmt(struct s_gen *g, const char *fmt, ...) ANVIL_PRINTF(2, 3);

static const char *s_fmt(struct s_gen *g, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const char *s = s_vfmt(g, fmt, args);
    va_end(args);
    return s;
}

static void s_append(struct s_gen *g, struct anvil_buf *out, const char *text, size_t len) {
    if (g->rc == ANVIL_OK && anvil_buf_append(out, text, len) != ANVIL_OK) {
        s_fail_gen(g, ANVIL_ENOMEM);
    }
}

static void s_vline(struct s_fn *f, struct anvil_buf *out, int indent, const char *fmt, va_list args)
    ANVIL_PRINTF(4, 0);

static void s_vline(struct s_fn *f, struct anvil_buf *out, int indent, const char *fmt, va_list args) {
    const char *text = s_vfmt(f->g, fmt, args);
    if (f->g->rc == ANVIL_OK && anvil__c_line(out, 4 * indent, text, strlen(text)) != ANVIL_OK) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
    }
}

/* One line of the function's body at the current indentation. */
static void s_line(struct s_fn *f, const char *fmt, ...) ANVIL_PRINTF(2, 3);

static void s_line(struct s_fn *f, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    s_vline(f, &f->body, f->indent, fmt, args);
    va_end(args);
}

/* `fmt {` and one level deeper. */
static void s_open(struct s_fn *f, const char *fmt, ...) ANVIL_PRINTF(2, 3);

static void s_open(struct s_fn *f, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const char *head = s_vfmt(f->g, fmt, args);
    va_end(args);
    s_line(f, "%s {", head);
    f->indent++;
}

/* One level out: the values computed inside the block are no longer in scope. */
static void s_leave(struct s_fn *f) {
    f->indent--;
    while (f->cse && f->cse->depth > f->indent) {
        f->cse = f->cse->next;
    }
}

static void s_close(struct s_fn *f) {
    s_leave(f);
    s_line(f, "}");
}

/* `} else {`: the block closed, as s_close() does, and its `else` opened at its depth. */
static void s_else(struct s_fn *f) {
    s_leave(f);
    s_line(f, "} else {");
    f->indent++;
}

/* Where the body was being written while lines go to the prologue (the function's start) instead. */
struct s_place {
    struct anvil_buf body;
    int indent;
    struct s_cse *cse;
};

/* Lines from here on go to the prologue, one level in, until s_leave_prologue(). */
static struct s_place s_enter_prologue(struct s_fn *f) {
    struct s_place was = {f->body, f->indent, f->cse};
    f->body = f->prologue;
    f->indent = 1;
    return was;
}

static void s_leave_prologue(struct s_fn *f, const struct s_place *was) {
    f->prologue = f->body;
    f->body = was->body;
    f->indent = was->indent;
    f->cse = was->cse;
}

/* Searches `hay` for `needle`. */
static bool s_contains_text(const struct anvil_buf *hay, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; hay->data && i + n <= hay->len; i++) {
        if (hay->data[i] == needle[0] && memcmp(hay->data + i, needle, n) == 0) {
            return true;
        }
    }
    return false;
}

/* `text` with every '@' replaced by the helpers' prefix. */
static const char *s_expand(struct s_gen *g, const char *text) {
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    size_t plen = strlen(g->prefix);
    int rc = ANVIL_OK;
    for (const char *p = text; *p && rc == ANVIL_OK; p++) {
        rc = *p == '@' ? anvil_buf_append(&out, g->prefix, plen) : anvil_buf_append_byte(&out, *p);
    }
    const char *s = rc == ANVIL_OK ? s_fmt(g, "%s", out.data ? out.data : "") : "?";
    if (rc != ANVIL_OK) {
        s_fail_gen(g, ANVIL_ENOMEM);
    }
    anvil_buf_clean_up(&out);
    return s;
}

/* Makes sure helper `h` (and what it uses) is in `helpers`. */
static void s_need(struct s_gen *g, enum anvil__jpc_helper h) {
    const struct anvil__jpc_helper_def *def = &anvil__jpc_helpers[h];
    for (int d = 0; d < H_COUNT; d++) {
        if (def->deps & S_DEP(d)) {
            s_need(g, (enum anvil__jpc_helper)d);
        }
    }
    if (!s_contains_text(g->helpers, s_expand(g, def->key))) {
        const char *text = s_expand(g, def->text);
        s_append(g, g->helpers, text, strlen(text));
    }
}

/* A helper's name, PREFIX_jpc_NAME, after making sure it is defined. */
static const char *s_helper(struct s_fn *f, enum anvil__jpc_helper h, const char *name) {
    s_need(f->g, h);
    return s_fmt(f->g, "%s%s", f->g->prefix, name);
}

static const char *s_literal_var(struct s_fn *f, const char *key, const char *name, bool *fresh);
static const char *s_snake(struct s_gen *g, struct anvil_str_view name);

/*
 * The text as a C string literal; one too long for its line as the name of
 * a constant, `static const char str_NAME[]`, declared once at the
 * function's start with the literal's pieces on lines of their own: a split
 * literal inside an expression would make lines clang-format lays out
 * otherwise than anvil's line breaker can.
 */
static const char *s_cstr(struct s_fn *f, struct anvil_str_view text) {
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    const char *s = "?";
    if (anvil__c_string(&out, text, 4 * f->indent + 8) != ANVIL_OK) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
    } else if (!memchr(out.data, '\n', out.len)) {
        s = s_fmt(f->g, "%.*s", (int)out.len, out.data);
    } else {
        out.len = 0;
        bool fresh = false;
        if (anvil__c_string(&out, text, 8) != ANVIL_OK) {
            s_fail_gen(f->g, ANVIL_ENOMEM);
        } else {
            const char *key = s_fmt(f->g, "str %.*s", (int)out.len, out.data); /* no JSON text starts so */
            s = s_literal_var(f, key, s_fmt(f->g, "str_%s", s_snake(f->g, text)), &fresh);
        }
        if (fresh && anvil__c_string_decl(&f->strings, 4, s, "", text) != ANVIL_OK) {
            s_fail_gen(f->g, ANVIL_ENOMEM);
        }
    }
    anvil_buf_clean_up(&out);
    return s;
}

/* A C integer constant for `v`. */
static const char *s_int(struct s_gen *g, int64_t v) {
    if (v == INT64_MIN) {
        return "INT64_MIN";
    }
    if (v >= -2147483647 && v <= 2147483647) {
        return s_fmt(g, "%lld", (long long)v);
    }
    return s_fmt(g, "INT64_C(%lld)", (long long)v);
}

/* ---- names ---- */

static bool s_name_used(const struct s_fn *f, const char *name) {
    for (const struct s_name *n = f->names; n; n = n->next) {
        if (strcmp(n->text, name) == 0) {
            return true;
        }
    }
    return false;
}

static const char *s_claim(struct s_fn *f, const char *name) {
    struct s_name *n = anvil_arena_alloc(f->g->arena, sizeof(*n), 0);
    if (!n) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
        return name;
    }
    n->text = name;
    n->next_suffix = 0;
    n->next = f->names;
    f->names = n;
    return name;
}

/* `base`, or base_2, base_3, ... : a name not yet used in the function. */
static const char *s_unique(struct s_fn *f, const char *base) {
    if (!s_name_used(f, base)) {
        return s_claim(f, base);
    }
    /* The claimed entry of `base` remembers where its suffixes got to. */
    struct s_name *entry = NULL;
    for (struct s_name *n = f->names; n && !entry; n = n->next) {
        entry = strcmp(n->text, base) == 0 ? n : NULL;
    }
    unsigned k = entry && entry->next_suffix ? entry->next_suffix : 2;
    const char *name = s_fmt(f->g, "%s_%u", base, k);
    while (s_name_used(f, name)) {
        name = s_fmt(f->g, "%s_%u", base, ++k);
    }
    if (entry) {
        entry->next_suffix = k + 1;
    }
    return s_claim(f, name);
}

/* snake_case of a member name for a C identifier: "DBInstanceStatus" -> "db_instance_status". */
static const char *s_snake(struct s_gen *g, struct anvil_str_view name) {
    char out[40];
    size_t n = anvil__c_snake(name, out, sizeof out);
    while (n && out[n - 1] == '_') {
        n--;
    }
    if (n == 0) {
        return "field";
    }
    return s_fmt(g, "%s%.*s", out[0] >= '0' && out[0] <= '9' ? "n" : "", (int)n, out);
}

/* The role part of a generated name: "v_db_instances_2" -> "db_instances"; "root" -> "root". */
static const char *s_base(struct s_gen *g, const char *name) {
    if (name[0] == '&') {
        name++;
    }
    static const char *const prefixes[] = {"v_", "t_", "lit_"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) {
            name += strlen(prefixes[i]);
            break;
        }
    }
    size_t n = strlen(name);
    size_t digits = n;
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') {
        digits--;
    }
    if (digits < n && digits > 1 && name[digits - 1] == '_') {
        n = digits - 1;
    }
    return s_fmt(g, "%.*s", (int)n, name);
}

/* An element's name from its collection's: "reservations" -> "reservation", "status" -> "status_item". */
static const char *s_singular(struct s_gen *g, const char *base) {
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 3, "ies") == 0) {
        return s_fmt(g, "%.*sy", (int)(n - 3), base);
    }
    if (n > 3 && base[n - 1] == 's' && base[n - 2] != 's' && base[n - 2] != 'u' && base[n - 2] != 'i' &&
        base[n - 2] != '_') {
        return s_fmt(g, "%.*s", (int)(n - 1), base);
    }
    return s_fmt(g, "%s_item", base);
}

/* A short role for what a node computes, for naming its value. */
static const char *s_role(struct s_gen *g, const struct jp_node *n) {
    switch (n->type) {
    case JP_N_FIELD:
        return s_snake(g, n->name);
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE:
        return s_role(g, n->children[n->count - 1]);
    case JP_N_PROJECTION:
    case JP_N_VALUE_PROJECTION:
    case JP_N_FILTER_PROJECTION:
        if (n->children[1]->type != JP_N_IDENTITY) {
            return s_role(g, n->children[1]);
        }
        return n->type == JP_N_FILTER_PROJECTION ? "filtered" : s_role(g, n->children[0]);
    case JP_N_FLATTEN:
        return n->children[0]->type == JP_N_IDENTITY ? "flat" : s_role(g, n->children[0]);
    case JP_N_SLICE:
        return "slice";
    case JP_N_INDEX:
        return "at";
    case JP_N_MULTI_LIST:
        return "list";
    case JP_N_MULTI_HASH:
        return "hash";
    case JP_N_OR:
        return "or";
    case JP_N_AND:
        return "and";
    case JP_N_NOT:
        return "not";
    case JP_N_COMPARE:
        return n->op == JP_EQ    ? "eq"
               : n->op == JP_NE  ? "ne"
               : n->op == JP_LT  ? "lt"
               : n->op == JP_LTE ? "le"
               : n->op == JP_GT  ? "gt"
                                 : "ge";
    case JP_N_FUNCTION:
        return n->function->name;
    case JP_N_LITERAL:
        return "literal";
    default:
        return "value";
    }
}

/* ---- static facts about nodes ---- */

static unsigned s_json_type_bit(const struct anvil_json *v) {
    return 1u << anvil_json_type(v);
}

static unsigned s_types(const struct jp_node *n);

static unsigned s_function_types(const struct jp_node *n) {
    static const struct {
        const char *name;
        unsigned types;
    } results[] = {
        {"abs", JP_T_NUMBER},
        {"avg", JP_T_NUMBER | JP_T_NULL},
        {"ceil", JP_T_NUMBER},
        {"contains", JP_T_BOOL},
        {"ends_with", JP_T_BOOL},
        {"floor", JP_T_NUMBER},
        {"join", JP_T_STRING},
        {"keys", JP_T_ARRAY},
        {"length", JP_T_NUMBER},
        {"map", JP_T_ARRAY},
        {"max", JP_T_NUMBER | JP_T_STRING | JP_T_NULL},
        {"merge", JP_T_OBJECT},
        {"min", JP_T_NUMBER | JP_T_STRING | JP_T_NULL},
        {"reverse", JP_T_STRING | JP_T_ARRAY},
        {"sort", JP_T_ARRAY},
        {"sort_by", JP_T_ARRAY},
        {"starts_with", JP_T_BOOL},
        {"sum", JP_T_NUMBER},
        {"to_array", JP_T_ARRAY},
        {"to_number", JP_T_NUMBER | JP_T_NULL},
        {"to_string", JP_T_STRING},
        {"type", JP_T_STRING},
        {"values", JP_T_ARRAY},
    };
    if (strcmp(n->function->name, "not_null") == 0) {
        unsigned t = 0;
        for (size_t i = 0; i < n->count; i++) {
            t |= s_types(n->children[i]);
        }
        return t | JP_T_NULL;
    }
    for (size_t i = 0; i < sizeof(results) / sizeof(results[0]); i++) {
        if (strcmp(results[i].name, n->function->name) == 0) {
            return results[i].types;
        }
    }
    return JP_T_ANY; /* max_by, min_by: an item */
}

static unsigned s_types(const struct jp_node *n) {
    unsigned t = 0;
    switch (n->type) {
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE:
        return s_types(n->children[n->count - 1]);
    case JP_N_SLICE:
    case JP_N_PROJECTION:
    case JP_N_VALUE_PROJECTION:
    case JP_N_FILTER_PROJECTION:
    case JP_N_FLATTEN:
    case JP_N_MULTI_LIST:
        return JP_T_ARRAY | JP_T_NULL;
    case JP_N_MULTI_HASH:
        return JP_T_OBJECT | JP_T_NULL;
    case JP_N_OR:
    case JP_N_AND:
        for (size_t i = 0; i < n->count; i++) {
            t |= s_types(n->children[i]);
        }
        return t;
    case JP_N_NOT:
        return JP_T_BOOL;
    case JP_N_COMPARE:
        /* Ordering gives null unless both sides are numbers. */
        if (n->op == JP_EQ || n->op == JP_NE ||
            ((s_types(n->children[0]) | s_types(n->children[1])) & ~(unsigned)JP_T_NUMBER) == 0) {
            return JP_T_BOOL;
        }
        return JP_T_BOOL | JP_T_NULL;
    case JP_N_LITERAL:
        return s_json_type_bit(&n->literal);
    case JP_N_FUNCTION:
        return s_function_types(n);
    case JP_N_EXPREF:
        return JP_T_NULL;
    default:
        return JP_T_ANY;
    }
}

static unsigned s_param(const struct jp_function *fn, size_t i) {
    return fn->params[i < 3 ? i : 2];
}

/* The runtime errors a node can end in (running out of memory aside). */
enum { F_TYPE = 1, F_VALUE = 2 };

static unsigned s_fail_kinds(const struct jp_node *n) {
    unsigned kinds = 0;
    if (n->type == JP_N_SLICE && n->has_step && n->step == 0) {
        kinds |= F_VALUE;
    }
    if (n->type == JP_N_FUNCTION) {
        const char *name = n->function->name;
        if (strcmp(name, "sort_by") == 0 || strcmp(name, "max_by") == 0 || strcmp(name, "min_by") == 0) {
            kinds |= F_TYPE; /* keys of the wrong type */
        }
        for (size_t i = 0; i < n->count; i++) {
            unsigned mask = s_param(n->function, i);
            bool expref = n->children[i]->type == JP_N_EXPREF;
            if (expref != ((mask & JP_T_EXPREF) != 0) ||
                (!expref && (s_types(n->children[i]) & ~(mask & JP_T_ANY)) != 0)) {
                kinds |= F_TYPE;
            }
        }
    }
    for (size_t i = 0; i < n->count; i++) {
        kinds |= s_fail_kinds(n->children[i]);
    }
    return kinds;
}

static bool s_can_fail(const struct jp_node *n) {
    return s_fail_kinds(n) != 0;
}

/* Whether a node gives an array by handing out elements one by one (no array need be made). */
static bool s_streamable(const struct jp_node *n) {
    switch (n->type) {
    case JP_N_PROJECTION:
    case JP_N_VALUE_PROJECTION:
    case JP_N_FILTER_PROJECTION:
    case JP_N_FLATTEN:
    case JP_N_SLICE:
        return true;
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE:
        return s_streamable(n->children[n->count - 1]);
    default:
        return false;
    }
}

static bool s_is_string_literal(const struct jp_node *n) {
    return n->type == JP_N_LITERAL && anvil_json_is_string(&n->literal);
}

/* ---- statements ---- */

/* Leaves the function with a runtime error: its status, or in a matcher "no match". */
static void s_fail(struct s_fn *f, const char *status) {
    if (f->matcher) {
        s_line(f, "return ANVIL_OK; /* %s: no match */", status);
    } else {
        s_line(f, "return %s;", status);
    }
}

/* Calls something that returns a status and passes a failure on. */
static void s_check(struct s_fn *f, const char *fmt, ...) ANVIL_PRINTF(2, 3);

static void s_check(struct s_fn *f, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const char *call = s_vfmt(f->g, fmt, args);
    va_end(args);
    f->uses_rc = true;
    s_open(f, "if ((rc = %s) != ANVIL_OK)", call);
    if (f->matcher) {
        s_line(f, "return %s(rc);", s_helper(f, H_NO_MATCH, "no_match"));
    } else {
        s_line(f, "return rc;");
    }
    s_close(f);
}

/* Marks a computed value as deliberately unused. */
static void s_discard(struct s_fn *f, const char *v) {
    s_line(f, "(void)%s;", v[0] == '&' ? v + 1 : v);
}

/* The value a pointer points at, by value (null for NULL). */
static const char *s_deref(struct s_fn *f, const char *v) {
    if (v[0] == '&') {
        return v + 1;
    }
    return s_fmt(f->g, "%s ? *%s : anvil_json_make_null()", v, v);
}

/* A new `struct anvil_json` for a value the code makes; returns its name. */
static const char *s_storage(struct s_fn *f, const char *role, const char *init) {
    const char *t = s_unique(f, s_fmt(f->g, "t_%s", role));
    s_line(f, "struct anvil_json %s = %s;", t, init);
    return t;
}

/* A pointer that is NULL (the value null). */
static const char *s_null(struct s_fn *f) {
    const char *v = s_unique(f, "v_null");
    s_line(f, "const struct anvil_json *%s = NULL;", v);
    return v;
}

/* A name for a literal: lit_0, lit_m1, lit_true, lit_in_service, lit_array... */
static const char *s_literal_role(struct s_gen *g, const struct anvil_json *v, const char *json) {
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        return "null";
    case ANVIL_JSON_BOOL:
        return anvil_json_bool(v) ? "true" : "false";
    case ANVIL_JSON_NUMBER: {
        char out[32];
        size_t n = 0;
        for (const char *p = json; *p && n + 2 < sizeof(out); p++) {
            out[n++] = *p == '-' ? 'm' : (*p >= '0' && *p <= '9') ? *p : *p == 'e' || *p == 'E' ? 'e' : '_';
        }
        return s_fmt(g, "%.*s", (int)n, out);
    }
    case ANVIL_JSON_STRING:
        return anvil_json_len(v) ? s_snake(g, anvil_json_string(v)) : "empty";
    case ANVIL_JSON_ARRAY:
        return "array";
    case ANVIL_JSON_OBJECT:
        return "object";
    }
    return "value";
}

/*
 * The variable of the literal `key` (struct s_literal's `json`) when the
 * function has it already, else a new one named `name` (made unique), which
 * `*fresh` tells the caller to declare.
 */
static const char *s_literal_var(struct s_fn *f, const char *key, const char *name, bool *fresh) {
    *fresh = false;
    for (const struct s_literal *l = f->literals; l; l = l->next) {
        if (strcmp(l->json, key) == 0) {
            return l->var;
        }
    }
    const char *var = s_unique(f, name);
    struct s_literal *l = anvil_arena_alloc(f->g->arena, sizeof(*l), 0);
    if (!l) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
        return var;
    }
    l->json = key;
    l->var = var;
    l->next = f->literals;
    f->literals = l;
    *fresh = true;
    return var;
}

/*
 * A literal made once at the start of the function (equal literals shared):
 * the name of its `struct anvil_json`. Scalars need no memory; strings,
 * arrays and objects are made in `scratch`.
 */
static const char *s_literal(struct s_fn *f, const struct anvil_json *v) {
    struct anvil_buf json;
    anvil_buf_init(&json, NULL, 0);
    if (anvil_json_write(v, ANVIL_JSON_WRITE_COMPACT, &json) != ANVIL_OK) {
        anvil_buf_clean_up(&json);
        s_fail_gen(f->g, ANVIL_ENOMEM);
        return "?";
    }
    const char *text = s_fmt(f->g, "%.*s", (int)json.len, json.data);
    anvil_buf_clean_up(&json);
    bool fresh;
    const char *var = s_literal_var(f, text, s_fmt(f->g, "lit_%s", s_literal_role(f->g, v, text)), &fresh);
    if (!fresh) {
        return var;
    }
    /* Written into the prologue, which the function body follows. */
    struct s_place body = s_enter_prologue(f);
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        s_line(f, "struct anvil_json %s = anvil_json_make_null();", var);
        break;
    case ANVIL_JSON_BOOL:
        s_line(f, "struct anvil_json %s = anvil_json_make_bool(%s);", var, anvil_json_bool(v) ? "true" : "false");
        break;
    case ANVIL_JSON_NUMBER:
        if (anvil_json_is_int(v)) {
            s_line(f, "struct anvil_json %s = anvil_json_make_int(%s);", var, s_int(f->g, anvil_json_int(v)));
        } else {
            s_line(f, "struct anvil_json %s = anvil_json_make_double(%s);", var, text);
        }
        break;
    case ANVIL_JSON_STRING:
        s_line(f, "struct anvil_json %s;", var);
        s_open(f, "if (anvil_json_new_string(scratch, %s, %zu, &%s) != ANVIL_OK)", s_cstr(f, anvil_json_string(v)),
               anvil_json_len(v), var);
        s_line(f, "return %s(scratch);", s_helper(f, H_NOMEM, "nomem"));
        s_close(f);
        break;
    case ANVIL_JSON_ARRAY:
    case ANVIL_JSON_OBJECT:
        s_line(f, "struct anvil_json %s; /* %s */", var, "literal");
        s_check(f, "%s(scratch, %s, %zu, &%s)", s_helper(f, H_PARSE, "parse"), s_cstr(f, anvil_sv_from_cstr(text)),
                strlen(text), var);
        break;
    }
    s_leave_prologue(f, &body);
    return var;
}

/* A C character constant for byte `c` of a literal's word: the character when printable, else its value. */
static const char *s_word_byte(struct s_gen *g, unsigned char c) {
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
        return s_fmt(g, "'%c'", c);
    }
    return s_fmt(g, "0x%02x", c);
}

/*
 * The constant word of a string of up to 7 bytes, ANVIL_JSON_WORD(),
 * declared with the function's literals (one per distinct string).
 */
static const char *s_word(struct s_fn *f, struct anvil_str_view text) {
    const char *key = s_fmt(f->g, "word %s", s_cstr(f, text)); /* no JSON text starts so */
    bool fresh;
    const char *var = s_literal_var(f, key, s_fmt(f->g, "word_%s", s_snake(f->g, text)), &fresh);
    if (!fresh) {
        return var;
    }
    const char *bytes = "";
    for (size_t i = 0; i < 7; i++) {
        const char *byte = i < text.len ? s_word_byte(f->g, (unsigned char)text.ptr[i]) : "0";
        bytes = s_fmt(f->g, "%s%s%s", bytes, i ? ", " : "", byte);
    }
    struct s_place body = s_enter_prologue(f);
    s_line(f, "const uint64_t %s = ANVIL_JSON_WORD(%s);", var, bytes);
    s_leave_prologue(f, &body);
    return var;
}

/*
 * A C condition: whether value `v` is the string `text`. One of up to 7
 * bytes is compared as the word a value keeps it in, a constant (s_word()):
 * built from the literal at run time, the word would be stored and read
 * back, which the store buffer cannot forward.
 */
static const char *s_str_test(struct s_fn *f, const char *v, struct anvil_str_view text) {
    if (text.len >= 8) {
        return s_fmt(f->g, "%s(%s, %s, %zu)", s_helper(f, H_STR_IS, "str_is"), v, s_cstr(f, text), text.len);
    }
    return s_fmt(f->g, "anvil_json_string_equals_word(%s, %s, %zu, %s)", v, s_cstr(f, text), text.len, s_word(f, text));
}

/* A C condition: whether value `v` equals the literal `lit` (no memory for strings and scalars). */
static const char *s_equals_literal(struct s_fn *f, const char *v, const struct anvil_json *lit) {
    switch (anvil_json_type(lit)) {
    case ANVIL_JSON_NULL:
        return s_fmt(f->g, "anvil_json_is_null(%s)", v);
    case ANVIL_JSON_BOOL:
        return s_fmt(f->g, "(anvil_json_is_bool(%s) && %sanvil_json_bool(%s))", v, anvil_json_bool(lit) ? "" : "!", v);
    case ANVIL_JSON_STRING:
        return s_str_test(f, v, anvil_json_string(lit));
    default:
        return s_fmt(f->g, "%s(%s, &%s)", s_helper(f, H_EQUAL, "equal"), v, s_literal(f, lit));
    }
}

/* ---- streams: projections, flattens and slices, element by element ---- */

enum s_sink_kind {
    /* Intermediate: a projection's right side (and filter) applied to each element, nulls dropped. */
    SK_PROJECT,
    /* Intermediate: an array element stands for its items. */
    SK_FLATTEN,
    /* Terminal: collect into a new array. */
    SK_COLLECT,
    /* Terminal: count (length()). */
    SK_COUNT,
    /* Terminal: whether there is any element (truthiness). */
    SK_EXISTS,
    /* Terminal: whether an element equals a value (contains()). */
    SK_CONTAINS,
    /* Terminal: a waiter's "every element" and "some element" comparators. */
    SK_ALL,
    SK_ANY
};

struct s_sink {
    enum s_sink_kind kind;
    struct s_sink *next;
    /* SK_PROJECT */
    const struct jp_node *rhs;
    const struct jp_node *cond;
    /* terminals */
    const char *result;   /* SK_COLLECT: the array's storage */
    const char *list;     /* SK_COLLECT: the list, declared when the input is an array */
    const char *counter;  /* SK_COUNT: the count; SK_ALL: whether there was an element */
    const char *flag;     /* SK_EXISTS, SK_CONTAINS, SK_ANY: found; SK_ALL: a mismatch */
    const char *is_array; /* SK_COUNT, SK_CONTAINS: whether the input was an array at all */
    const char *stop;     /* loops end when this is true (NULL: they run to the end) */
    const char *decided;  /* with a stop: the label past the loops that the element deciding it jumps to */
    bool jumped;          /* whether a jump to `decided` was written (the label is written only then) */
    /* SK_CONTAINS: the value searched for (or a literal); SK_ALL, SK_ANY: the element test's literal */
    const char *needle;
    const struct anvil_json *needle_literal;
    bool strings_only; /* SK_ALL, SK_ANY: the string comparators (any non-string is a mismatch) */
    /* Terminals: streams begun and not yet ended (a stream fused into another's loop begins it again). */
    int begun;
};

static const char *s_value(struct s_fn *f, const struct jp_node *n, const char *in);
static const char *s_length_stream(struct s_fn *f, const struct jp_node *subject, const char *in, int64_t limit);
static const char *s_truth(struct s_fn *f, const struct jp_node *n, const char *in);

/* A condition without the parentheses around all of it: for `if (...)`, `make_bool(...)` and a chain of `&&`. */
static const char *s_bare(struct s_fn *f, const char *cond) {
    struct anvil_str_view v = anvil__c_unparen(anvil_sv_from_cstr(cond));
    return v.len == strlen(cond) ? cond : s_fmt(f->g, "%.*s", (int)v.len, v.ptr);
}

static void s_sink_item(struct s_fn *f, struct s_sink *s, const char *elem);
static bool s_may_fuse(const struct s_fn *f, const struct jp_node *upstream, const struct s_sink *sink);
static void s_stream(struct s_fn *f, const struct jp_node *n, const char *in, struct s_sink *sink);

static struct s_sink *s_terminal(struct s_sink *s) {
    while (s->next) {
        s = s->next;
    }
    return s;
}

/* ` && !stop` for a loop's condition, or "" (also when the deciding element jumps past the loops). */
static const char *s_until(struct s_fn *f, struct s_sink *s) {
    const struct s_sink *t = s_terminal(s);
    return t->stop && !t->decided ? s_fmt(f->g, " && !%s", t->stop) : "";
}

/* The input turned out to be an array: the result is one (possibly empty). */
static void s_sink_begin(struct s_fn *f, struct s_sink *s, const char *role) {
    struct s_sink *t = s_terminal(s);
    if (t->begun++ > 0) {
        return; /* the outer stream's array has begun it */
    }
    if (t->kind == SK_COLLECT) {
        t->list = s_unique(f, s_fmt(f->g, "l_%s", role));
        s_need(f->g, H_LIST);
        s_line(f, "struct %slist %s = {NULL, 0, 0};", f->g->prefix, t->list);
    } else if (t->is_array) {
        s_line(f, "%s = true;", t->is_array);
    }
}

static void s_sink_end(struct s_fn *f, struct s_sink *s) {
    struct s_sink *t = s_terminal(s);
    if (--t->begun > 0) {
        return;
    }
    if (t->kind == SK_COLLECT) {
        s_check(f, "%s(scratch, &%s, &%s)", s_helper(f, H_LIST, "list_finish"), t->list, t->result);
    }
}

/* The test of a waiter comparator on one element. */
static const char *s_element_test(struct s_fn *f, struct s_sink *s, const char *elem) {
    if (s->strings_only) {
        return s_str_test(f, elem, anvil_json_string(s->needle_literal));
    }
    if (anvil_json_is_null(s->needle_literal)) {
        return "false"; /* a null element never matches */
    }
    return s_equals_literal(f, elem, s->needle_literal);
}

/* The flag of a terminal set: the element decided it (found one, or a mismatch of SK_ALL), and jumps past the loops
 * when its sink has a stop. */
static void s_decide(struct s_fn *f, struct s_sink *s) {
    s_line(f, "%s = true;", s->flag);
    if (s->decided) {
        s_line(f, "goto %s;", s->decided);
        s->jumped = true;
    }
}

/*
 * A waiter comparator (SK_ALL, SK_ANY) on one element; one that `maybe_null`
 * is skipped when null, as a projection drops it. The test comes first: an
 * element that passes it is no null, so the common case of a walk (a match)
 * is one test.
 */
static void s_compare_item(struct s_fn *f, struct s_sink *s, const char *elem, bool maybe_null) {
    const char *test = s_element_test(f, s, elem);
    if (s->kind == SK_ANY) {
        s_open(f, "if (%s)", test); /* a null element never matches */
        s_decide(f, s);
        s_close(f);
        return;
    }
    s_open(f, "if (%s)", test);
    s_line(f, "%s = true;", s->counter);
    s_else(f);
    if (maybe_null) {
        s_open(f, "if (!anvil_json_is_null(%s))", elem); /* not `else if`: a shape the line breaker keeps whole */
        s_decide(f, s);
        s_close(f);
    } else {
        s_decide(f, s);
    }
    s_close(f);
}

static void s_sink_item(struct s_fn *f, struct s_sink *s, const char *elem) {
    switch (s->kind) {
    case SK_PROJECT: {
        if (s->cond) {
            s_open(f, "if (%s)", s_bare(f, s_truth(f, s->cond, elem)));
        }
        if (s->next->kind == SK_FLATTEN && s->rhs->type == JP_N_MULTI_LIST) {
            /* `[a, b][]`: the list's values are the flattened elements; no list is made. */
            s_open(f, "if (!anvil_json_is_null(%s))", elem);
            for (size_t i = 0; i < s->rhs->count; i++) {
                s_sink_item(f, s->next->next, s_value(f, s->rhs->children[i], elem));
            }
            s_close(f);
        } else if (s->next->kind == SK_FLATTEN && s_streamable(s->rhs) && s_may_fuse(f, s->rhs, s->next->next)) {
            /* `a[].b[?c][]`: the right side's elements (an array or null) are the flattened ones; no array is made. */
            s_stream(f, s->rhs, elem, s->next->next);
        } else {
            const char *r = s_value(f, s->rhs, elem);
            if (s->next->kind == SK_ALL || s->next->kind == SK_ANY) {
                s_compare_item(f, s->next, r, (s_types(s->rhs) & JP_T_NULL) != 0);
            } else if (s_types(s->rhs) & JP_T_NULL) {
                s_open(f, "if (!anvil_json_is_null(%s))", r);
                s_sink_item(f, s->next, r);
                s_close(f);
            } else {
                s_sink_item(f, s->next, r);
            }
        }
        if (s->cond) {
            s_close(f);
        }
        return;
    }
    case SK_FLATTEN: {
        const char *base = s_base(f->g, elem);
        size_t n = strlen(base);
        if (n > 5 && strcmp(base + n - 5, "_item") == 0) {
            base = s_fmt(f->g, "%.*s", (int)(n - 5), base);
        }
        base = s_singular(f->g, base);
        const char *j = s_unique(f, s_fmt(f->g, "j_%s", base));
        const char *x = s_unique(f, s_fmt(f->g, "v_%s", base));
        const char *count = s_unique(f, s_fmt(f->g, "n_%s", base));
        const char *items = s_unique(f, s_fmt(f->g, "items_%s", base));
        s_line(f, "size_t %s;", count);
        s_line(f, "const struct anvil_json *%s = %s(%s, &%s);", items, s_helper(f, H_FLAT, "flat"), elem, count);
        s_open(f, "for (size_t %s = 0; %s < %s%s; %s++)", j, j, count, s_until(f, s), j);
        s_line(f, "const struct anvil_json *%s = &%s[%s];", x, items, j);
        f->loops++;
        s_sink_item(f, s->next, x);
        f->loops--;
        s_close(f);
        return;
    }
    case SK_COLLECT:
        s_check(f, "%s(scratch, &%s, %s)", s_helper(f, H_LIST, "list_push"), s->list, elem);
        return;
    case SK_COUNT:
        s_line(f, "%s++;", s->counter);
        if (s->decided) {
            s_open(f, "if (%s)", s->stop);
            s_line(f, "goto %s;", s->decided);
            s_close(f);
            s->jumped = true;
        }
        return;
    case SK_EXISTS:
        s_decide(f, s);
        return;
    case SK_CONTAINS: {
        const char *test = s->needle_literal
                               ? s_equals_literal(f, elem, s->needle_literal)
                               : s_fmt(f->g, "%s(%s, %s)", s_helper(f, H_EQUAL, "equal"), elem, s->needle);
        s_open(f, "if (%s)", test);
        s_decide(f, s);
        s_close(f);
        return;
    }
    case SK_ALL:
    case SK_ANY:
        s_compare_item(f, s, elem, false);
        return;
    }
}

/* The items of array `v` (or the member values of object `v`) into the sink; nothing when `v` is neither. */
static void s_iterate(struct s_fn *f, const char *v, bool members, struct s_sink *s) {
    const char *base = s_base(f->g, v);
    const char *elem = s->kind == SK_FLATTEN ? s_fmt(f->g, "%s_item", base) : s_singular(f->g, base);
    s_open(f, "if (anvil_json_is_%s(%s))", members ? "object" : "array", v);
    s_sink_begin(f, s, base);
    const char *i = s_unique(f, s_fmt(f->g, "i_%s", elem));
    const char *x = s_unique(f, s_fmt(f->g, "v_%s", elem));
    /* The count and the first item read once: the loop's body may write memory (a list, scratch), and the
     * compiler could not otherwise tell that it leaves the array alone. */
    const char *count = s_unique(f, s_fmt(f->g, "n_%s", base));
    const char *first = s_unique(f, s_fmt(f->g, members ? "members_%s" : "items_%s", base));
    s_line(f, "size_t %s = anvil_json_len(%s);", count, v);
    if (members) {
        s_line(f, "const struct anvil_json_member *%s = anvil_json_object_at(%s, 0);", first, v);
    } else {
        s_line(f, "const struct anvil_json *%s = anvil_json_array_at(%s, 0);", first, v);
    }
    s_open(f, "for (size_t %s = 0; %s < %s%s; %s++)", i, i, count, s_until(f, s), i);
    if (members) {
        s_line(f, "const struct anvil_json *%s = &%s[%s].value;", x, first, i);
    } else {
        s_line(f, "const struct anvil_json *%s = &%s[%s];", x, first, i);
    }
    f->loops++;
    s_sink_item(f, s, x);
    f->loops--;
    s_close(f);
    s_sink_end(f, s);
    s_close(f);
}

/* A slice of array `v` into the sink. */
static void s_iterate_slice(struct s_fn *f, const char *v, const struct jp_node *n, struct s_sink *s) {
    int64_t step = n->has_step ? n->step : 1;
    s_open(f, "if (anvil_json_is_array(%s))", v);
    if (step == 0) {
        s_fail(f, "ANVIL_EVALUE"); /* a step of 0, found once the input is an array */
        s_close(f);
        return;
    }
    const char *base = s_base(f->g, v);
    s_sink_begin(f, s, base);
    const char *first = s_unique(f, s_fmt(f->g, "first_%s", base));
    const char *count = s_unique(f, s_fmt(f->g, "n_%s", base));
    const char *k = s_unique(f, s_fmt(f->g, "k_%s", base));
    const char *x = s_unique(f, s_fmt(f->g, "v_%s", s_singular(f->g, base)));
    s_line(f, "int64_t %s;", first);
    s_line(f, "size_t %s = %s(anvil_json_len(%s), %s, %s, %s, %s, %s, &%s);", count, s_helper(f, H_SLICE, "slice"), v,
           n->has_start ? "true" : "false", s_int(f->g, n->has_start ? n->start : 0), n->has_stop ? "true" : "false",
           s_int(f->g, n->has_stop ? n->stop : 0), s_int(f->g, step), first);
    s_open(f, "for (size_t %s = 0; %s < %s%s; %s++)", k, k, count, s_until(f, s), k);
    if (step == 1) {
        s_line(f, "const struct anvil_json *%s = anvil_json_array_at(%s, (size_t)%s + %s);", x, v, first, k);
    } else {
        s_line(f, "const struct anvil_json *%s = anvil_json_array_at(%s, (size_t)(%s + (int64_t)%s * %s));", x, v,
               first, k, s_int(f->g, step));
    }
    f->loops++;
    s_sink_item(f, s, x);
    f->loops--;
    s_close(f);
    s_sink_end(f, s);
    s_close(f);
}

/* The runtime errors the projections between a stream and its consumer can end in. */
static unsigned s_sink_kinds(const struct s_sink *s) {
    unsigned kinds = 0;
    for (; s; s = s->next) {
        if (s->kind == SK_PROJECT) {
            kinds |= s_fail_kinds(s->rhs) | (s->cond ? s_fail_kinds(s->cond) : 0);
        }
    }
    return kinds;
}

/*
 * Whether the stream `upstream` may hand its elements straight to `sink`.
 * The interpreter finishes a projection before the next one starts; a
 * stream interleaves them, which changes which error comes first only when
 * both sides can fail, with different errors. A matcher does not care which:
 * any error is "no match".
 */
static bool s_may_fuse(const struct s_fn *f, const struct jp_node *upstream, const struct s_sink *sink) {
    unsigned up = s_fail_kinds(upstream), down = s_sink_kinds(sink);
    return f->matcher || !up || !down || (up | down) == F_TYPE || (up | down) == F_VALUE;
}

/*
 * Hands the elements of the array node `n` gives for `in` to the sink (and
 * calls begin/end when it is an array). A node that is not a stream is
 * evaluated and its items handed over.
 */
static void s_stream(struct s_fn *f, const struct jp_node *n, const char *in, struct s_sink *sink) {
    switch (n->type) {
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE:
        if (s_streamable(n)) {
            const char *v = in;
            for (size_t i = 0; i + 1 < n->count; i++) {
                v = s_value(f, n->children[i], v);
            }
            s_stream(f, n->children[n->count - 1], v, sink);
            return;
        }
        break;
    case JP_N_PROJECTION:
    case JP_N_FILTER_PROJECTION: {
        struct s_sink project = {.kind = SK_PROJECT, .next = sink, .rhs = n->children[1]};
        if (n->type == JP_N_FILTER_PROJECTION) {
            project.cond = n->children[2];
        }
        if (s_streamable(n->children[0]) && s_may_fuse(f, n->children[0], &project)) {
            s_stream(f, n->children[0], in, &project);
        } else {
            s_iterate(f, s_value(f, n->children[0], in), false, &project);
        }
        return;
    }
    case JP_N_VALUE_PROJECTION: {
        struct s_sink project = {.kind = SK_PROJECT, .next = sink, .rhs = n->children[1]};
        s_iterate(f, s_value(f, n->children[0], in), true, &project);
        return;
    }
    case JP_N_FLATTEN: {
        struct s_sink flatten = {.kind = SK_FLATTEN, .next = sink};
        if (s_streamable(n->children[0]) && s_may_fuse(f, n->children[0], &flatten)) {
            s_stream(f, n->children[0], in, &flatten);
        } else {
            s_iterate(f, s_value(f, n->children[0], in), false, &flatten);
        }
        return;
    }
    case JP_N_SLICE:
        s_iterate_slice(f, in, n, sink);
        return;
    default:
        break;
    }
    s_iterate(f, s_value(f, n, in), false, sink);
}

/* A stream made into a new array. */
static const char *s_collect(struct s_fn *f, const struct jp_node *n, const char *in) {
    const char *t = s_storage(f, s_role(f->g, n), "anvil_json_make_null()");
    struct s_sink collect = {.kind = SK_COLLECT, .result = t};
    s_stream(f, n, in, &collect);
    return s_fmt(f->g, "&%s", t);
}

/* ---- values ---- */

/* The variable already holding field `name` of `in` in this block, or NULL. */
static const char *s_cse_find(const struct s_fn *f, const char *in, struct anvil_str_view name) {
    for (const struct s_cse *c = f->cse; c; c = c->next) {
        if (strcmp(c->in, in) == 0 && anvil_sv_eq(c->field, name)) {
            return c->var;
        }
    }
    return NULL;
}

static void s_cse_add(struct s_fn *f, const char *in, struct anvil_str_view name, const char *var) {
    struct s_cse *c = anvil_arena_alloc(f->g->arena, sizeof(*c), 0);
    if (!c) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
        return;
    }
    *c = (struct s_cse){f->cse, in, name, var, f->indent};
    f->cse = c;
}

/*
 * A loop's hint for field `name`, declared with the function's literals, and
 * in `*last` where the lookup after a miss found the key in the last call
 * (a static atomic, as a lookup outside loops has).
 */
static const char *s_hint(struct s_fn *f, struct anvil_str_view name, const char **last) {
    const char *hint = s_unique(f, s_fmt(f->g, "hint_%s", s_snake(f->g, name)));
    *last = s_unique(f, s_fmt(f->g, "last_%s", s_snake(f->g, name)));
    struct s_place body = s_enter_prologue(f);
    s_line(f, "static atomic_size_t %s;", *last);
    s_line(f, "struct %shint %s = {UINT64_MAX, 0, NULL};", f->g->prefix, hint);
    s_leave_prologue(f, &body);
    return hint;
}

/*
 * `in.a.b...` (the `count` fields of `fields`) in a loop: each hint tried in
 * turn inline, and one out-of-line call for the whole chain when one misses
 * (H_GET_CHAIN). The chain's hints are copied for that call, so that the loop
 * never takes their addresses.
 */
static const char *s_field_chain(struct s_fn *f, const char *in, const struct jp_node *const *fields, size_t count) {
    const char **vars = anvil_arena_alloc(f->g->arena, 3 * count * sizeof(*vars), 0);
    if (!vars) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
        return in;
    }
    const char **hints = vars + count, **lasts = vars + 2 * count;
    const char *hinted = s_helper(f, H_GET_HINTED, "hinted");
    const char *from = in;
    for (size_t i = 0; i < count; i++) {
        struct anvil_str_view name = fields[i]->name;
        hints[i] = s_hint(f, name, &lasts[i]);
        vars[i] = s_unique(f, s_fmt(f->g, "v_%s", s_snake(f->g, name)));
        s_line(f, "const struct anvil_json *%s = %s(%s, %s);", vars[i], hinted, from, hints[i]); /* NULL in, NULL out */
        from = vars[i];
    }
    const char *last = vars[count - 1];
    s_open(f, "if (!%s)", last);
    const char *keys = s_unique(f, "keys"), *copies = s_unique(f, "hints"), *steps = s_unique(f, "steps");
    const char *key_list = "", *hint_list = "";
    for (size_t i = 0; i < count; i++) {
        struct anvil_str_view name = fields[i]->name;
        key_list = s_fmt(f->g, "%s%s{%s, %zu, &%s}", key_list, i ? ", " : "", s_cstr(f, name), name.len, lasts[i]);
        hint_list = s_fmt(f->g, "%s%s%s", hint_list, i ? ", " : "", hints[i]);
    }
    s_line(f, "static const struct %skey %s[] = {%s};", f->g->prefix, keys, key_list);
    s_line(f, "struct %shint %s[] = {%s};", f->g->prefix, copies, hint_list);
    s_line(f, "const struct anvil_json *%s[%zu];", steps, count);
    s_line(f, "%s = %s(%s, %s, %zu, %s, %s);", last, s_helper(f, H_GET_CHAIN, "get_chain"), in, keys, count, copies,
           steps);
    for (size_t i = 0; i < count; i++) {
        if (i + 1 < count) {
            s_line(f, "%s = %s[%zu];", vars[i], steps, i);
        }
        s_line(f, "%s = %s[%zu];", hints[i], copies, i);
    }
    s_close(f);
    from = in;
    for (size_t i = 0; i < count; i++) {
        s_cse_add(f, from, fields[i]->name, vars[i]);
        from = vars[i];
    }
    return last;
}

static const char *s_field(struct s_fn *f, const char *in, struct anvil_str_view name) {
    const char *known = s_cse_find(f, in, name);
    if (known) {
        return known;
    }
    const char *var = s_unique(f, s_fmt(f->g, "v_%s", s_snake(f->g, name)));
    if (f->loops > 0) {
        /* Looked up in object after object: a hint, declared with the function's literals. */
        const char *helper = s_helper(f, H_GET_HINTED, "get_hinted");
        const char *last;
        const char *hint = s_hint(f, name, &last);
        s_line(f, "const struct anvil_json *%s = %s(%s, %s);", var, s_helper(f, H_GET_HINTED, "hinted"), in, hint);
        s_open(f, "if (!%s)", var);
        s_line(f, "%s = %s(%s, %s, %zu, &%s, &%s);", var, helper, in, s_cstr(f, name), name.len, hint, last);
        s_close(f);
    } else if (f->per_element) {
        s_line(f, "const struct anvil_json *%s = %s(%s, %s, %zu);", var, s_helper(f, H_GET, "get"), in, s_cstr(f, name),
               name.len);
    } else {
        /* Looked up once per call: where it was found in the last call's answer, declared with the literals. */
        const char *last = s_unique(f, s_fmt(f->g, "last_%s", s_snake(f->g, name)));
        struct s_place body = s_enter_prologue(f);
        s_line(f, "static atomic_size_t %s;", last);
        s_leave_prologue(f, &body);
        s_line(f, "const struct anvil_json *%s = %s(%s, %s, %zu, &%s);", var,
               s_helper(f, H_GET_REMEMBERED, "get_remembered"), in, s_cstr(f, name), name.len, last);
    }
    s_cse_add(f, in, name, var);
    return var;
}

static const char *s_index(struct s_fn *f, const char *in, int64_t index) {
    const char *base = s_base(f->g, in);
    const char *var = s_unique(f, index >= 0    ? s_fmt(f->g, "v_%s_%lld", base, (long long)index)
                                  : index == -1 ? s_fmt(f->g, "v_%s_last", base)
                                                : s_fmt(f->g, "v_%s_from_end", base));
    if (index >= 0 && index <= 2147483647) {
        s_line(f, "const struct anvil_json *%s = anvil_json_array_at(%s, %lld);", var, in, (long long)index);
    } else {
        s_line(f, "const struct anvil_json *%s = %s(%s, %s);", var, s_helper(f, H_AT, "at"), in, s_int(f->g, index));
    }
    return var;
}

/* `||` and `&&` as values: the first truthy (falsy) operand, else the last. */
static const char *s_logic_value(struct s_fn *f, const struct jp_node *n, const char *in) {
    bool is_or = n->type == JP_N_OR;
    const char *first = s_value(f, n->children[0], in);
    const char *t = s_storage(f, is_or ? "or" : "and", "anvil_json_make_null()");
    const char *v = s_unique(f, is_or ? "v_or" : "v_and");
    s_line(f, "const struct anvil_json *%s = %s;", v, first);
    for (size_t i = 1; i < n->count; i++) {
        s_open(f, "if (%sanvil_jmespath_truthy(%s))", is_or ? "!" : "", v);
        const char *next = s_value(f, n->children[i], in);
        s_line(f, "%s = %s;", t, s_deref(f, next));
        s_line(f, "%s = &%s;", v, t);
        s_close(f);
    }
    return v;
}

/* One side of a comparison: a value, or a literal left unevaluated. */
struct s_operand {
    const char *ptr;
    const struct anvil_json *literal;
    unsigned types;
};

/*
 * K when `n` is length() of a stream that cannot fail (else the interpreter's
 * error must come) and `other` an integer K >= 0: comparing them is decided
 * once more than K elements have come, as a count only grows. Else -1.
 */
static int64_t s_count_limit(const struct jp_node *n, const struct jp_node *other) {
    if (n->type != JP_N_FUNCTION || strcmp(n->function->name, "length") != 0 || n->count != 1 ||
        !s_streamable(n->children[0]) || s_can_fail(n->children[0]) || other->type != JP_N_LITERAL ||
        !anvil_json_is_int(&other->literal) || anvil_json_int(&other->literal) < 0 ||
        anvil_json_int(&other->literal) == INT64_MAX) {
        return -1;
    }
    return anvil_json_int(&other->literal);
}

static struct s_operand s_operand(struct s_fn *f, const struct jp_node *n, const struct jp_node *other,
                                  const char *in) {
    struct s_operand o = {NULL, NULL, s_types(n)};
    int64_t limit = s_count_limit(n, other);
    if (n->type == JP_N_LITERAL) {
        o.literal = &n->literal;
    } else if (limit >= 0) {
        o.ptr = s_length_stream(f, n->children[0], in, limit);
    } else {
        o.ptr = s_value(f, n, in);
    }
    return o;
}

/*
 * A comparison: evaluates the operands and gives the C condition for its
 * result being true, and in `*defined` (ordering only; NULL when always
 * defined) the condition for it not being null.
 */
static const char *s_compare(struct s_fn *f, const struct jp_node *n, const char *in, const char **defined) {
    struct s_operand a = s_operand(f, n->children[0], n->children[1], in);
    struct s_operand b = s_operand(f, n->children[1], n->children[0], in);
    *defined = NULL;
    if (n->op == JP_EQ || n->op == JP_NE) {
        const char *eq;
        if (a.literal && b.literal) {
            eq = anvil_json_equal(a.literal, b.literal) ? "true" : "false";
        } else if (b.literal) {
            eq = s_equals_literal(f, a.ptr, b.literal);
        } else if (a.literal) {
            eq = s_equals_literal(f, b.ptr, a.literal);
        } else {
            eq = s_fmt(f->g, "%s(%s, %s)", s_helper(f, H_EQUAL, "equal"), a.ptr, b.ptr);
        }
        return n->op == JP_EQ ? eq : s_fmt(f->g, "!%s", eq);
    }
    /* Ordering is for numbers only; anything else gives null. */
    const char *checks = "";
    bool never = false;
    struct s_operand *sides[2] = {&a, &b};
    const char *ptrs[2];
    for (int i = 0; i < 2; i++) {
        struct s_operand *o = sides[i];
        if (o->literal) {
            never = never || !anvil_json_is_number(o->literal);
            ptrs[i] = anvil_json_is_number(o->literal) ? s_fmt(f->g, "&%s", s_literal(f, o->literal)) : "NULL";
        } else {
            ptrs[i] = o->ptr;
            if (o->types & ~(unsigned)JP_T_NUMBER) {
                checks = s_fmt(f->g, "%s%sanvil_json_is_number(%s)", checks, *checks ? " && " : "", o->ptr);
            }
        }
    }
    if (never) {
        for (int i = 0; i < 2; i++) {
            if (sides[i]->ptr) {
                s_discard(f, sides[i]->ptr);
            }
        }
        *defined = "false";
        return "false";
    }
    const char *op = n->op == JP_LT ? "<" : n->op == JP_LTE ? "<=" : n->op == JP_GT ? ">" : ">=";
    *defined = *checks ? (strchr(checks, '&') ? s_fmt(f->g, "(%s)", checks) : checks) : NULL;
    return s_fmt(f->g, "(anvil_json_compare(%s, %s) %s 0)", ptrs[0], ptrs[1], op);
}

static const char *s_multi_list(struct s_fn *f, const struct jp_node *n, const char *in) {
    const char *t = s_storage(f, "list", "anvil_json_make_null()");
    s_open(f, "if (!anvil_json_is_null(%s))", in);
    const char **values = anvil_arena_alloc(f->g->arena, n->count * sizeof(*values), 0);
    if (!values) {
        s_fail_gen(f->g, ANVIL_ENOMEM);
        return "?";
    }
    for (size_t i = 0; i < n->count; i++) {
        values[i] = s_value(f, n->children[i], in);
    }
    const char *items = s_unique(f, s_fmt(f->g, "items_%s", t + 2));
    s_line(f, "struct anvil_json *%s;", items);
    s_open(f, "if (anvil_json_new_array(scratch, %zu, &%s, &%s) != ANVIL_OK)", n->count, t, items);
    s_line(f, "return %s(scratch);", s_helper(f, H_NOMEM, "nomem"));
    s_close(f);
    for (size_t i = 0; i < n->count; i++) {
        s_line(f, "%s[%zu] = %s;", items, i, s_deref(f, values[i]));
    }
    s_close(f);
    return s_fmt(f->g, "&%s", t);
}

static const char *s_multi_hash(struct s_fn *f, const struct jp_node *n, const char *in) {
    const char *t = s_storage(f, "hash", "anvil_json_make_null()");
    s_open(f, "if (!anvil_json_is_null(%s))", in);
    const char *keys = "", *lens = "", *values = "";
    for (size_t i = 0; i < n->count; i++) {
        const char *v = s_value(f, n->children[i], in);
        struct anvil_str_view key = anvil_sv(n->keys[i]->bytes, n->keys[i]->len);
        const char *sep = i ? ", " : "";
        keys = s_fmt(f->g, "%s%s%s", keys, sep, s_cstr(f, key));
        lens = s_fmt(f->g, "%s%s%zu", lens, sep, key.len);
        values = s_fmt(f->g, "%s%s%s", values, sep, v);
    }
    const char *k = s_unique(f, s_fmt(f->g, "keys_%s", t + 2));
    const char *l = s_unique(f, s_fmt(f->g, "key_lens_%s", t + 2));
    const char *v = s_unique(f, s_fmt(f->g, "values_%s", t + 2));
    s_line(f, "static const char *const %s[] = {%s};", k, keys);
    s_line(f, "static const size_t %s[] = {%s};", l, lens);
    s_line(f, "const struct anvil_json *%s[] = {%s};", v, values);
    s_check(f, "%s(scratch, %s, %s, %s, %zu, &%s)", s_helper(f, H_OBJECT, "object"), k, l, v, n->count, t);
    s_close(f);
    return s_fmt(f->g, "&%s", t);
}

/* ---- functions ---- */

static void s_emit_value_function(struct s_gen *g, const struct jp_node *root, const char *name, const char *param,
                                  bool per_element, const char *comment, struct anvil_buf *dst);

/* An &expression argument: a static function of its own, written before the caller. Its name. */
static const char *s_expref(struct s_fn *f, const struct jp_node *expref) {
    struct s_gen *g = f->g;
    const char *name = s_fmt(g, "%s_expr%u", g->name, ++g->nested_count);
    s_emit_value_function(g, expref->children[0], name, "current", true,
                          s_fmt(g, "/* An &expression argument of %s: its value for each item. */", g->name),
                          &g->nested);
    return name;
}

/* The C condition for `v` being accepted by parameter `mask`: NULL when it always is, "false" when never. */
static const char *s_accepts(struct s_fn *f, unsigned mask, const char *v, unsigned types) {
    unsigned simple = (mask & JP_T_ANY);
    if ((types & ~simple) == 0) {
        return NULL;
    }
    static const struct {
        unsigned bit;
        const char *test;
    } tests[] = {{JP_T_NULL, "null"},     {JP_T_BOOL, "bool"},   {JP_T_NUMBER, "number"},
                 {JP_T_STRING, "string"}, {JP_T_ARRAY, "array"}, {JP_T_OBJECT, "object"}};
    const char *cond = "";
    int parts = 0;
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        if (simple & types & tests[i].bit) {
            cond = s_fmt(f->g, "%s%sanvil_json_is_%s(%s)", cond, parts++ ? " || " : "", tests[i].test, v);
        }
    }
    if ((mask & JP_T_ARRAY_NUMBER) && (types & JP_T_ARRAY)) {
        cond = s_fmt(f->g, "%s%s%s(%s, ANVIL_JSON_NUMBER)", cond, parts++ ? " || " : "",
                     s_helper(f, H_ALL_OF, "all_of"), v);
    }
    if ((mask & JP_T_ARRAY_STRING) && (types & JP_T_ARRAY)) {
        cond = s_fmt(f->g, "%s%s%s(%s, ANVIL_JSON_STRING)", cond, parts++ ? " || " : "",
                     s_helper(f, H_ALL_OF, "all_of"), v);
    }
    if (parts == 0) {
        return "false";
    }
    return parts > 1 ? s_fmt(f->g, "(%s)", cond) : cond;
}

/* Arguments that may stay literal strings (no value made): contains(x, 'a'), starts_with(x, 'a'), ends_with(x, 'a'). */
static bool s_literal_arg(const char *fn, size_t i, const struct jp_node *arg) {
    return i == 1 && s_is_string_literal(arg) &&
           (strcmp(fn, "contains") == 0 || strcmp(fn, "starts_with") == 0 || strcmp(fn, "ends_with") == 0);
}

/*
 * s_stream() into a terminal sink; one with a stop ends the loops by a jump
 * from the element that decides it (`label` names the place past them), so
 * that no loop tests the stop on each element.
 */
static void s_stream_to(struct s_fn *f, const struct jp_node *n, const char *in, struct s_sink *sink,
                        const char *label) {
    sink->decided = sink->stop ? s_unique(f, label) : NULL;
    s_stream(f, n, in, sink);
    if (sink->jumped) {
        /* One level out, as clang-format lays it; a statement of its own, as what follows may be a declaration or
         * the end of a block. */
        f->indent--;
        s_line(f, "%s:;", sink->decided);
        f->indent++;
    }
}

/* length() of a stream, counted as the elements come; with `limit` >= 0, only until it passes it (s_count_limit). */
static const char *s_length_stream(struct s_fn *f, const struct jp_node *subject, const char *in, int64_t limit) {
    const char *role = s_role(f->g, subject);
    const char *count = s_unique(f, s_fmt(f->g, "n_%s", role));
    const char *is_array = s_unique(f, s_fmt(f->g, "is_array_%s", role));
    s_line(f, "size_t %s = 0;", count);
    s_line(f, "bool %s = false;", is_array);
    struct s_sink sink = {.kind = SK_COUNT, .counter = count, .is_array = is_array};
    if (limit >= 0) {
        s_line(f, "/* Compared with %lld: decided once there are more. */", (long long)limit);
        sink.stop = s_fmt(f->g, "%s > %s", count, s_int(f->g, limit));
    }
    s_stream_to(f, subject, in, &sink, "counted");
    s_open(f, "if (!%s)", is_array);
    s_fail(f, "ANVIL_ETYPE"); /* length(null) */
    s_close(f);
    return s_fmt(f->g, "&%s", s_storage(f, "length", s_fmt(f->g, "anvil_json_make_int((int64_t)%s)", count)));
}

/* length() and contains() of a stream: counted and searched as the elements come. NULL when not fused. */
static const char *s_fused_function(struct s_fn *f, const struct jp_node *n, const char *in) {
    const char *name = n->function->name;
    const struct jp_node *subject = n->children[0];
    if (!s_streamable(subject)) {
        return NULL;
    }
    const char *role = s_role(f->g, subject);
    if (strcmp(name, "length") == 0) {
        return s_length_stream(f, subject, in, -1);
    }
    const struct jp_node *search = n->children[1];
    if (strcmp(name, "contains") == 0 && search->type != JP_N_EXPREF && !s_can_fail(search)) {
        /* The searched value cannot fail, so making it first changes nothing. */
        struct s_sink sink = {.kind = SK_CONTAINS};
        if (search->type == JP_N_LITERAL) {
            sink.needle_literal = &search->literal;
        } else {
            sink.needle = s_value(f, search, in);
        }
        sink.flag = s_unique(f, s_fmt(f->g, "found_%s", role));
        sink.is_array = s_unique(f, s_fmt(f->g, "is_array_%s", role));
        sink.stop = s_can_fail(subject) ? NULL : sink.flag;
        s_line(f, "bool %s = false;", sink.flag);
        s_line(f, "bool %s = false;", sink.is_array);
        s_stream_to(f, subject, in, &sink, "found");
        s_open(f, "if (!%s)", sink.is_array);
        s_fail(f, "ANVIL_ETYPE"); /* contains(null, ...) */
        s_close(f);
        return s_fmt(f->g, "&%s", s_storage(f, "contains", s_fmt(f->g, "anvil_json_make_bool(%s)", sink.flag)));
    }
    return NULL;
}

static const char *s_function(struct s_fn *f, const struct jp_node *n, const char *in) {
    const struct jp_function *fn = n->function;
    const char *name = fn->name;
    struct s_gen *g = f->g;
    const char *fused = s_fused_function(f, n, in);
    if (fused) {
        return fused;
    }
    /* The arguments, in order (an &expression is not evaluated), then their types, as the interpreter does. */
    const char **args = anvil_arena_alloc(g->arena, n->count * sizeof(*args), 0);
    if (!args) {
        s_fail_gen(g, ANVIL_ENOMEM);
        return "?";
    }
    bool wrong_type = false;
    for (size_t i = 0; i < n->count; i++) {
        const struct jp_node *a = n->children[i];
        unsigned mask = s_param(fn, i);
        args[i] = NULL;
        if (a->type == JP_N_EXPREF) {
            wrong_type = wrong_type || !(mask & JP_T_EXPREF);
        } else if (!s_literal_arg(name, i, a)) {
            args[i] = s_value(f, a, in);
            wrong_type = wrong_type || mask == JP_T_EXPREF;
        }
    }
    const char *checks = "";
    for (size_t i = 0; i < n->count && !wrong_type; i++) {
        if (!args[i]) {
            continue;
        }
        const char *accepts = s_accepts(f, s_param(fn, i), args[i], s_types(n->children[i]));
        if (accepts && strcmp(accepts, "false") == 0) {
            wrong_type = true;
        } else if (accepts) {
            checks = s_fmt(g, "%s%s!%s", checks, *checks ? " || " : "", accepts);
        }
    }
    if (wrong_type) {
        for (size_t i = 0; i < n->count; i++) {
            if (args[i]) {
                s_discard(f, args[i]);
            }
        }
        s_fail(f, "ANVIL_ETYPE");
        return s_null(f);
    }
    if (*checks) {
        s_open(f, "if (%s)", checks);
        s_fail(f, "ANVIL_ETYPE");
        s_close(f);
    }
    const char *a0 = args[0];
    const char *a1 = n->count > 1 ? args[1] : NULL;
    /* Functions that give their value directly. */
    const char *direct = NULL;
    if (strcmp(name, "abs") == 0) {
        direct = s_fmt(g, "%s(%s)", s_helper(f, H_ABS, "abs"), a0);
    } else if (strcmp(name, "avg") == 0 || strcmp(name, "sum") == 0) {
        direct = s_fmt(g, "%s(%s)", s_helper(f, H_SUM, name), a0);
    } else if (strcmp(name, "ceil") == 0 || strcmp(name, "floor") == 0) {
        direct = s_fmt(g, "%s(%s)", s_helper(f, H_ROUND, name), a0);
    } else if (strcmp(name, "length") == 0) {
        direct = s_fmt(g, "anvil_json_make_int(%s(%s))", s_helper(f, H_LENGTH, "length"), a0);
    } else if (strcmp(name, "max") == 0 || strcmp(name, "min") == 0) {
        direct = s_fmt(g, "%s(%s, %d)", s_helper(f, H_EXTREME, "extreme"), a0, name[1] == 'a' ? 1 : -1);
    } else if (strcmp(name, "contains") == 0) {
        const struct jp_node *search = n->children[1];
        direct = a1 ? s_fmt(g, "anvil_json_make_bool(%s(%s, %s))", s_helper(f, H_CONTAINS, "contains"), a0, a1)
                    : s_fmt(g, "anvil_json_make_bool(%s(%s, %s, %zu))", s_helper(f, H_CONTAINS_STR, "contains_str"), a0,
                            s_cstr(f, anvil_json_string(&search->literal)), anvil_json_len(&search->literal));
    } else if (strcmp(name, "starts_with") == 0 || strcmp(name, "ends_with") == 0) {
        const struct jp_node *affix = n->children[1];
        const char *second = a1 ? s_fmt(g, "anvil_json_string(%s)", a1)
                                : s_fmt(g, "anvil_sv(%s, %zu)", s_cstr(f, anvil_json_string(&affix->literal)),
                                        anvil_json_len(&affix->literal));
        direct = s_fmt(g, "anvil_json_make_bool(anvil_sv_%s(anvil_json_string(%s), %s))", name, a0, second);
    }
    if (direct) {
        return s_fmt(g, "&%s", s_storage(f, name, direct));
    }
    if (strcmp(name, "not_null") == 0) {
        const char *v = s_unique(f, "v_not_null");
        s_line(f, "const struct anvil_json *%s = %s;", v, a0);
        for (size_t i = 1; i < n->count; i++) {
            s_open(f, "if (anvil_json_is_null(%s))", v);
            s_line(f, "%s = %s;", v, args[i]);
            s_close(f);
        }
        return v;
    }
    /* Functions that make their value in scratch memory and may fail. */
    const char *t = s_storage(f, name, "anvil_json_make_null()");
    static const struct {
        const char *name;
        enum anvil__jpc_helper helper;
    } unary[] = {{"keys", H_KEYS},         {"values", H_KEYS},         {"reverse", H_REVERSE},
                 {"to_array", H_TO_ARRAY}, {"to_string", H_TO_STRING}, {"to_number", H_TO_NUMBER},
                 {"type", H_TYPE}};
    for (size_t i = 0; i < sizeof(unary) / sizeof(unary[0]); i++) {
        if (strcmp(name, unary[i].name) == 0) {
            s_check(f, "%s(scratch, %s, &%s)", s_helper(f, unary[i].helper, name), a0, t);
            return s_fmt(g, "&%s", t);
        }
    }
    if (strcmp(name, "join") == 0) {
        s_check(f, "%s(scratch, %s, %s, &%s)", s_helper(f, H_JOIN, "join"), a0, a1, t);
    } else if (strcmp(name, "sort") == 0) {
        s_check(f, "%s(scratch, %s, NULL, &%s)", s_helper(f, H_SORT, "sort"), a0, t);
    } else if (strcmp(name, "sort_by") == 0) {
        s_check(f, "%s(scratch, %s, %s, &%s)", s_helper(f, H_SORT, "sort"), a0, s_expref(f, n->children[1]), t);
    } else if (strcmp(name, "max_by") == 0 || strcmp(name, "min_by") == 0) {
        s_check(f, "%s(scratch, %s, %s, %d, &%s)", s_helper(f, H_EXTREME_BY, "extreme_by"), a0,
                s_expref(f, n->children[1]), name[1] == 'a' ? 1 : -1, t);
    } else if (strcmp(name, "map") == 0) {
        s_check(f, "%s(scratch, %s, %s, &%s)", s_helper(f, H_MAP, "map"), s_expref(f, n->children[0]), a1, t);
    } else if (strcmp(name, "merge") == 0) {
        const char *objects = "";
        for (size_t i = 0; i < n->count; i++) {
            objects = s_fmt(g, "%s%s%s", objects, i ? ", " : "", args[i]);
        }
        const char *list = s_unique(f, "objects");
        s_line(f, "const struct anvil_json *%s[] = {%s};", list, objects);
        s_check(f, "%s(scratch, %s, %zu, &%s)", s_helper(f, H_MERGE, "merge"), list, n->count, t);
    } else {
        s_unsupported(g, s_fmt(g, "the function %s()", name));
    }
    return s_fmt(g, "&%s", t);
}

/* ---- the node compilers ---- */

/* A pointer expression (a name, or &name) to node `n`'s value for `in`, valid in the current block. */
static const char *s_value(struct s_fn *f, const struct jp_node *n, const char *in) {
    const char *defined, *cond, *v = in;
    switch (n->type) {
    case JP_N_IDENTITY:
    case JP_N_CURRENT:
        return in;
    case JP_N_FIELD:
        return s_field(f, in, n->name);
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE:
        for (size_t i = 0; i < n->count; i++) {
            size_t run = 0;
            while (f->loops > 0 && i + run < n->count && n->children[i + run]->type == JP_N_FIELD) {
                run++;
            }
            if (run >= 2 && !s_cse_find(f, v, n->children[i]->name)) {
                /* `a.b` of each element: one chain with one fallback. */
                v = s_field_chain(f, v, (const struct jp_node *const *)&n->children[i], run);
                i += run - 1;
                continue;
            }
            v = s_value(f, n->children[i], v);
        }
        return v;
    case JP_N_INDEX:
        return s_index(f, in, n->index);
    case JP_N_SLICE:
    case JP_N_PROJECTION:
    case JP_N_VALUE_PROJECTION:
    case JP_N_FILTER_PROJECTION:
    case JP_N_FLATTEN:
        return s_collect(f, n, in);
    case JP_N_MULTI_LIST:
        return s_multi_list(f, n, in);
    case JP_N_MULTI_HASH:
        return s_multi_hash(f, n, in);
    case JP_N_OR:
    case JP_N_AND:
        return s_logic_value(f, n, in);
    case JP_N_NOT:
        cond = s_truth(f, n->children[0], in);
        return s_fmt(f->g, "&%s", s_storage(f, "not", s_fmt(f->g, "anvil_json_make_bool(!%s)", cond)));
    case JP_N_COMPARE:
        cond = s_compare(f, n, in, &defined);
        if (defined) {
            cond = s_fmt(f->g, "%s ? anvil_json_make_bool(%s) : anvil_json_make_null()", defined, s_bare(f, cond));
        } else {
            cond = s_fmt(f->g, "anvil_json_make_bool(%s)", s_bare(f, cond));
        }
        return s_fmt(f->g, "&%s", s_storage(f, s_role(f->g, n), cond));
    case JP_N_LITERAL:
        if (anvil_json_is_null(&n->literal)) {
            return s_null(f);
        }
        return s_fmt(f->g, "&%s", s_literal(f, &n->literal));
    case JP_N_FUNCTION:
        return s_function(f, n, in);
    case JP_N_EXPREF:
        return s_null(f); /* an &expression outside a function's arguments is null */
    }
    s_unsupported(f->g, s_fmt(f->g, "syntax tree node %d", (int)n->type));
    return "?";
}

/* `&&` and `||` as conditions; an operand that needs statements runs only when the result still depends on it. */
static const char *s_logic_truth(struct s_fn *f, const struct jp_node *n, const char *in) {
    bool is_or = n->type == JP_N_OR;
    const char *op = is_or ? "||" : "&&";
    const char *acc = s_truth(f, n->children[0], in);
    const char *flag = NULL;
    bool chained = false; /* acc is a chain made here */
    for (size_t i = 1; i < n->count; i++) {
        struct anvil_buf saved = f->body;
        anvil_buf_init(&f->body, NULL, 0);
        f->indent++;
        const char *next = s_truth(f, n->children[i], in);
        struct anvil_buf captured = f->body;
        f->body = saved;
        f->indent--;
        if (captured.len == 0) {
            if (flag) {
                s_line(f, "%s = %s %s %s;", flag, flag, op, next);
            } else {
                /* One chain, `(a || b || c)`: the parentheses of the chain so far go. */
                acc = s_fmt(f->g, "(%s %s %s)", chained ? s_bare(f, acc) : acc, op, next);
                chained = true;
            }
        } else {
            if (!flag) {
                flag = s_unique(f, is_or ? "c_or" : "c_and");
                s_line(f, "bool %s = %s;", flag, acc);
                acc = flag;
            }
            s_open(f, "if (%s%s)", is_or ? "!" : "", flag);
            s_append(f->g, &f->body, captured.data, captured.len);
            s_line(f, "%s = %s;", flag, next);
            s_close(f);
        }
        anvil_buf_clean_up(&captured);
    }
    return acc;
}

/* A C condition for node `n`'s value being truthy (false, null, "", [] and {} are not). */
static const char *s_truth(struct s_fn *f, const struct jp_node *n, const char *in) {
    const char *defined, *cond;
    switch (n->type) {
    case JP_N_LITERAL:
        return anvil_jmespath_truthy(&n->literal) ? "true" : "false";
    case JP_N_NOT:
        return s_fmt(f->g, "!%s", s_truth(f, n->children[0], in));
    case JP_N_COMPARE:
        cond = s_compare(f, n, in, &defined);
        return defined ? s_fmt(f->g, "(%s && %s)", s_bare(f, defined), s_bare(f, cond)) : cond;
    case JP_N_OR:
    case JP_N_AND:
        return s_logic_truth(f, n, in);
    default:
        break;
    }
    if (s_streamable(n)) {
        const char *flag = s_unique(f, s_fmt(f->g, "any_%s", s_role(f->g, n)));
        s_line(f, "bool %s = false;", flag);
        struct s_sink sink = {.kind = SK_EXISTS, .flag = flag, .stop = s_can_fail(n) ? NULL : flag};
        s_stream_to(f, n, in, &sink, "found");
        return flag;
    }
    const char *v = s_value(f, n, in);
    if (s_types(n) == JP_T_BOOL) {
        return s_fmt(f->g, "anvil_json_bool(%s)", v);
    }
    return s_fmt(f->g, "anvil_jmespath_truthy(%s)", v);
}

/* ---- functions, whole ---- */

/* `text` for a one-line comment: no comment delimiters inside, no line breaks. */
static const char *s_comment(struct s_gen *g, struct anvil_str_view text) {
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    int rc = anvil__c_comment(&out, text);
    const char *s = rc == ANVIL_OK ? s_fmt(g, "%.*s", (int)out.len, out.data ? out.data : "") : "?";
    if (rc != ANVIL_OK) {
        s_fail_gen(g, ANVIL_ENOMEM);
    }
    anvil_buf_clean_up(&out);
    return s;
}

static bool s_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/*
 * The next identifier of C text `*p`..`end` outside literals and comments, its length in `*len`, `*p` moved
 * past it; NULL at the end.
 */
static const char *s_next_ident(const char **p, const char *end, size_t *len) {
    const char *q = *p;
    while (q < end) {
        if (*q == '"' || *q == '\'') {
            char quote = *q++;
            while (q < end && *q != quote) {
                q += *q == '\\' ? 2 : 1;
            }
            q++;
        } else if (*q == '/' && q + 1 < end && q[1] == '*') {
            q += 2;
            while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) {
                q++;
            }
            q += 2;
        } else if (s_ident_start(*q)) {
            const char *start = q;
            while (q < end && (s_ident_start(*q) || (*q >= '0' && *q <= '9'))) {
                q++;
            }
            *p = q;
            *len = (size_t)(q - start);
            return start;
        } else {
            q++;
        }
    }
    *p = end;
    return NULL;
}

/*
 * How often each identifier of a function's code appears outside literals and comments (1, or 2 meaning
 * "more"): the code is scanned once and each name looked up, where scanning it once per name was
 * quadratic in the function's size. Borrows the code's text.
 */
struct s_uses {
    struct s_use {
        const char *name;
        size_t len;
        int count;
    } * slots;
    size_t cap; /* a power of two */
    size_t used;
};

static size_t s_uses_hash(const char *name, size_t len) {
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)name[i]) * 0x100000001b3u;
    }
    return (size_t)(h ^ (h >> 29));
}

/* The slot of `name`, or the empty slot where it would go. */
static struct s_use *s_uses_slot(const struct s_uses *u, const char *name, size_t len) {
    for (size_t i = s_uses_hash(name, len) & (u->cap - 1);; i = (i + 1) & (u->cap - 1)) {
        struct s_use *s = &u->slots[i];
        if (!s->name || (s->len == len && memcmp(s->name, name, len) == 0)) {
            return s;
        }
    }
}

/* Counts the identifiers of `code` into `u`, which starts as `{0}`; false when out of memory. */
static bool s_uses_add(struct s_uses *u, struct anvil_str_view code) {
    if (!u->slots) {
        *u = (struct s_uses){calloc(64, sizeof(*u->slots)), 64, 0};
    }
    const char *p = code.ptr, *end = code.ptr + code.len, *name;
    size_t len;
    while (u->slots && (name = s_next_ident(&p, end, &len)) != NULL) {
        struct s_use *s = s_uses_slot(u, name, len);
        if (s->name) {
            s->count = 2;
            continue;
        }
        *s = (struct s_use){name, len, 1};
        if (++u->used * 2 > u->cap) {
            struct s_uses bigger = {calloc(u->cap * 2, sizeof(*u->slots)), u->cap * 2, u->used};
            for (size_t i = 0; bigger.slots && i < u->cap; i++) {
                if (u->slots[i].name) {
                    *s_uses_slot(&bigger, u->slots[i].name, u->slots[i].len) = u->slots[i];
                }
            }
            free(u->slots);
            *u = bigger;
        }
    }
    return u->slots != NULL;
}

static int s_uses_count(const struct s_uses *u, const char *name) {
    return s_uses_slot(u, name, strlen(name))->count;
}

/*
 * Appends `code` to `dst`, adding `(void)NAME;` after the declaration of any
 * local nothing else mentions: a value evaluated only because the
 * interpreter evaluates it (for its errors), then not needed.
 */
static void s_append_marking_unused(struct s_gen *g, struct anvil_buf *dst, struct anvil_str_view code,
                                    const struct s_uses *uses) {
    static const char *const decls[] = {
        "const struct anvil_json *", "struct anvil_json *", "struct anvil_json ", "bool ", "size_t ", "int64_t "};
    const char *p = code.ptr, *end = code.ptr + code.len;
    const char *pending = NULL; /* a mark for the end of a declaration broken over lines */
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        eol = eol ? eol + 1 : end;
        s_append(g, dst, p, (size_t)(eol - p));
        bool statement_end = eol - p >= 2 && eol[-1] == '\n' && eol[-2] == ';';
        if (pending && statement_end) {
            s_append(g, dst, pending, strlen(pending));
            pending = NULL;
            p = eol;
            continue;
        }
        const char *q = p;
        while (q < eol && *q == ' ') {
            q++;
        }
        for (size_t i = 0; i < sizeof(decls) / sizeof(decls[0]); i++) {
            size_t len = strlen(decls[i]);
            if ((size_t)(eol - q) > len && memcmp(q, decls[i], len) == 0) {
                const char *name = q + len, *name_end = name;
                while (name_end < eol &&
                       (*name_end == '_' || (*name_end >= 'a' && *name_end <= 'z') ||
                        (*name_end >= 'A' && *name_end <= 'Z') || (*name_end >= '0' && *name_end <= '9'))) {
                    name_end++;
                }
                const char *ident = s_fmt(g, "%.*s", (int)(name_end - name), name);
                if (name_end > name && s_uses_count(uses, ident) == 1) {
                    const char *mark = s_fmt(g, "%.*s(void)%s;\n", (int)(q - p), p, ident);
                    if (statement_end) {
                        s_append(g, dst, mark, strlen(mark));
                    } else {
                        pending = mark;
                    }
                }
                break;
            }
        }
        p = eol;
    }
}

/* Writes the whole function: comment, signature, declarations, the literals, the body. */
static void s_assemble(struct s_fn *f, const char *comment, const char *signature, struct anvil_buf *dst) {
    struct s_gen *g = f->g;
    const char *head = s_fmt(g, "%s\n", comment);
    s_append(g, dst, head, strlen(head));
    const char *open = s_fmt(g, "%s {", signature);
    if (g->rc == ANVIL_OK && anvil__c_declaration(dst, 0, open, strlen(open)) != ANVIL_OK) {
        s_fail_gen(g, ANVIL_ENOMEM);
    }
    s_append(g, dst, f->strings.data ? f->strings.data : "", f->strings.len);
    if (f->uses_rc) {
        s_append(g, dst, "    int rc;\n", strlen("    int rc;\n"));
    }
    if (f->matcher) {
        s_append(g, dst, "    *matched = false;\n", strlen("    *matched = false;\n"));
    }
    struct anvil_buf code;
    anvil_buf_init(&code, NULL, 0);
    struct s_uses uses = {0};
    if (anvil_buf_append(&code, f->prologue.data ? f->prologue.data : "", f->prologue.len) != ANVIL_OK ||
        anvil_buf_append(&code, f->body.data ? f->body.data : "", f->body.len) != ANVIL_OK ||
        !s_uses_add(&uses, anvil_buf_view(&f->prologue)) || !s_uses_add(&uses, anvil_buf_view(&f->body))) {
        free(uses.slots);
        s_fail_gen(g, ANVIL_ENOMEM);
        anvil_buf_clean_up(&code);
        return;
    }
    const char *params[] = {f->param, "scratch"};
    for (size_t i = 0; i < 2; i++) {
        if (s_uses_count(&uses, params[i]) == 0) {
            const char *line = s_fmt(g, "    (void)%s;\n", params[i]);
            s_append(g, dst, line, strlen(line));
        }
    }
    s_append_marking_unused(g, dst, anvil_buf_view(&code), &uses);
    free(uses.slots);
    anvil_buf_clean_up(&code);
    s_append(g, dst, "    return ANVIL_OK;\n}\n\n", strlen("    return ANVIL_OK;\n}\n\n"));
}

static void s_fn_init(struct s_fn *f, struct s_gen *g, bool matcher, const char *param) {
    memset(f, 0, sizeof(*f));
    f->g = g;
    f->indent = 1;
    f->matcher = matcher;
    f->param = param;
    anvil_buf_init(&f->body, NULL, 0);
    anvil_buf_init(&f->prologue, NULL, 0);
    anvil_buf_init(&f->strings, NULL, 0);
    static const char *const reserved[] = {"scratch", "out", "matched", "rc", "root", "current"};
    for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
        s_claim(f, reserved[i]);
    }
}

static void s_fn_clean_up(struct s_fn *f) {
    anvil_buf_clean_up(&f->body);
    anvil_buf_clean_up(&f->prologue);
    anvil_buf_clean_up(&f->strings);
}

static void s_emit_value_function(struct s_gen *g, const struct jp_node *root, const char *name, const char *param,
                                  bool per_element, const char *comment, struct anvil_buf *dst) {
    struct s_fn f;
    s_fn_init(&f, g, false, param);
    f.per_element = per_element;
    const char *v = s_value(&f, root, param);
    s_line(&f, "*out = %s;", s_deref(&f, v));
    s_assemble(&f, comment,
               s_fmt(g,
                     "static int %s(const struct anvil_json *%s, struct anvil_arena *scratch, struct anvil_json *out)",
                     name, param),
               dst);
    s_fn_clean_up(&f);
}

/* The matcher's body when the path can never give what the comparator needs. */
static void s_never(struct s_fn *f, const char *what) {
    s_line(f, "/* The path never gives %s: no match. */", what);
}

static void s_match_string(struct s_fn *f, const struct jp_node *root, struct anvil_str_view text) {
    if (!(s_types(root) & JP_T_STRING)) {
        s_never(f, "a string");
        return;
    }
    const char *v = s_value(f, root, "root");
    s_line(f, "*matched = %s;", s_str_test(f, v, text));
}

static void s_match_bool(struct s_fn *f, const struct jp_node *root, bool expected) {
    unsigned types = s_types(root);
    if (!(types & JP_T_BOOL)) {
        s_never(f, "a boolean");
        return;
    }
    if (types == JP_T_BOOL) {
        const char *c = s_truth(f, root, "root");
        s_line(f, "*matched = %s%s;", expected ? "" : "!", expected ? s_bare(f, c) : c);
        return;
    }
    const char *v = s_value(f, root, "root");
    if (expected) {
        s_line(f, "*matched = anvil_json_bool(%s);", v);
    } else {
        s_line(f, "*matched = anvil_json_is_bool(%s) && !anvil_json_bool(%s);", v, v);
    }
}

static void s_match(struct s_fn *f, const struct jp_node *root, enum anvil_waiter_comparator cmp,
                    const struct anvil_json *expected) {
    unsigned types = s_types(root);
    switch (cmp) {
    case ANVIL_CMP_STRING_EQUALS:
        s_match_string(f, root, anvil_json_string(expected));
        return;
    case ANVIL_CMP_BOOLEAN_EQUALS:
        s_match_bool(f, root, anvil_json_bool(expected));
        return;
    case ANVIL_CMP_EQUALS:
        if (anvil_json_is_string(expected)) {
            s_match_string(f, root, anvil_json_string(expected));
        } else if (anvil_json_is_bool(expected)) {
            s_match_bool(f, root, anvil_json_bool(expected));
        } else if (anvil_json_is_null(expected) || !(types & s_json_type_bit(expected))) {
            s_never(f, anvil_json_is_null(expected) ? "a value equal to null" : "a value of the expected type");
        } else {
            const char *v = s_value(f, root, "root");
            s_line(f, "*matched = %s;", s_equals_literal(f, v, expected));
        }
        return;
    case ANVIL_CMP_ALL_STRING_EQUALS:
    case ANVIL_CMP_ALL_EQUALS:
    case ANVIL_CMP_ANY_STRING_EQUALS:
    case ANVIL_CMP_ANY_EQUALS: {
        if (!(types & JP_T_ARRAY)) {
            s_never(f, "an array");
            return;
        }
        bool all = cmp == ANVIL_CMP_ALL_STRING_EQUALS || cmp == ANVIL_CMP_ALL_EQUALS;
        struct s_sink sink = {.kind = all ? SK_ALL : SK_ANY,
                              .needle_literal = expected,
                              .strings_only = cmp == ANVIL_CMP_ALL_STRING_EQUALS || cmp == ANVIL_CMP_ANY_STRING_EQUALS};
        if (all) {
            /* Every element must match, and at least one be there: the first mismatch decides. A flag
             * rather than a count: a store of a constant carries nothing from one element to the next. */
            sink.counter = s_unique(f, "any_element");
            sink.flag = sink.stop = s_unique(f, "mismatch");
            s_line(f, "bool %s = false;", sink.counter);
        } else {
            /* The first match decides, unless a later element could still fail the whole path. */
            sink.flag = s_unique(f, "found");
            sink.stop = s_can_fail(root) ? NULL : sink.flag;
        }
        s_line(f, "bool %s = false;", sink.flag);
        s_stream_to(f, root, "root", &sink, "decided");
        if (all) {
            s_line(f, "*matched = %s && !%s;", sink.counter, sink.flag);
        } else {
            s_line(f, "*matched = %s;", sink.flag);
        }
        return;
    }
    }
    s_unsupported(f->g, s_fmt(f->g, "the comparator %d", (int)cmp));
}

static int s_emit(const struct anvil_jmespath *expr, bool matcher, enum anvil_waiter_comparator cmp,
                  const struct anvil_json *expected, const char *name, const struct anvil__jpc_options *options,
                  struct anvil_buf *helpers, struct anvil_buf *out, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!expr || !name || !helpers || !out || (matcher && !expected)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    struct s_gen g;
    memset(&g, 0, sizeof(g));
    if (anvil_arena_new(NULL, NULL, &g.arena) != ANVIL_OK) {
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    const char *prefix = options && options->prefix ? options->prefix : "";
    size_t plen = strlen(prefix);
    g.prefix = s_fmt(&g, "%s%sjpc_", prefix, plen && prefix[plen - 1] != '_' ? "_" : "");
    g.helpers = helpers;
    g.name = name;
    anvil_buf_init(&g.nested, NULL, 0);
    size_t helpers_len = helpers->len, out_len = out->len;
    struct anvil_buf main;
    anvil_buf_init(&main, NULL, 0);
    s_need(&g, H_BASE);
    const char *text = s_comment(&g, anvil_jmespath_text(expr));
    if (!matcher) {
        s_emit_value_function(&g, expr->root, name, "root", false, s_fmt(&g, "/* %s */", text), &main);
    } else {
        struct anvil_buf shown;
        anvil_buf_init(&shown, NULL, 0);
        if (anvil_json_write(expected, ANVIL_JSON_WRITE_COMPACT, &shown) != ANVIL_OK) {
            s_fail_gen(&g, ANVIL_ENOMEM);
        }
        const char *comment = s_fmt(&g, "/* %s (%s %s) */", text, anvil_waiter_comparator_name(cmp),
                                    s_comment(&g, anvil_buf_view(&shown)));
        anvil_buf_clean_up(&shown);
        struct s_fn f;
        s_fn_init(&f, &g, true, "root");
        s_match(&f, expr->root, cmp, expected);
        s_assemble(
            &f, comment,
            s_fmt(&g, "static int %s(const struct anvil_json *root, struct anvil_arena *scratch, bool *matched)", name),
            &main);
        s_fn_clean_up(&f);
    }
    s_append(&g, out, g.nested.data ? g.nested.data : "", g.nested.len);
    s_append(&g, out, main.data ? main.data : "", main.len);
    int rc = g.rc;
    char unsupported[128];
    snprintf(unsupported, sizeof(unsupported), "%s", g.unsupported ? g.unsupported : "?");
    anvil_buf_clean_up(&main);
    anvil_buf_clean_up(&g.nested);
    anvil_arena_destroy(g.arena);
    if (rc != ANVIL_OK) {
        anvil_buf_truncate(helpers, helpers_len);
        anvil_buf_truncate(out, out_len);
        if (rc == ANVIL_EUNSUPPORTED) {
            return anvil_diag_set(diag, rc, 0, 0, 0, "not compiled to C: %s", unsupported);
        }
        return anvil_diag_set(diag, rc, 0, 0, 0, "out of memory");
    }
    return ANVIL_OK;
}

/* Longer expressions go to the interpreter: compiling costs grow with the square of the names a function holds. */
#define S_MAX_COMPILED_TEXT 8192

int anvil__jpc_emit(const struct anvil_jmespath *expr, const char *name, const struct anvil__jpc_options *options,
                    struct anvil_buf *helpers, struct anvil_buf *out, struct anvil_diag *diag) {
    if (anvil_jmespath_text(expr).len > S_MAX_COMPILED_TEXT) {
        return anvil_diag_set(diag, ANVIL_EUNSUPPORTED, 0, 0, 0, "an expression longer than %d bytes",
                              S_MAX_COMPILED_TEXT);
    }
    return s_emit(expr, false, ANVIL_CMP_STRING_EQUALS, NULL, name, options, helpers, out, diag);
}

int anvil__jpc_emit_match(const struct anvil_jmespath *expr, enum anvil_waiter_comparator comparator,
                          const struct anvil_json *expected, const char *name, const struct anvil__jpc_options *options,
                          struct anvil_buf *helpers, struct anvil_buf *out, struct anvil_diag *diag) {
    if (anvil_jmespath_text(expr).len > S_MAX_COMPILED_TEXT) {
        return anvil_diag_set(diag, ANVIL_EUNSUPPORTED, 0, 0, 0, "an expression longer than %d bytes",
                              S_MAX_COMPILED_TEXT);
    }
    return s_emit(expr, true, comparator, expected, name, options, helpers, out, diag);
}
