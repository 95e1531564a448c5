#ifndef ANVIL_ENDPOINT_COMPILE_INTERNAL_H
#define ANVIL_ENDPOINT_COMPILE_INTERNAL_H

/*
 * The compiler's state, shared by its two halves: rules_compile.c walks
 * the rule set (parameters, rules, conditions, endpoints, properties) and
 * rules_expr.c compiles what they hold (references, getAttr paths,
 * templates, function calls).
 */

#include "endpoint/endpoint_internal.h"

#define ANVIL__EPC_DEFAULT_MAX_DEPTH 64
#define ANVIL__EPC_DEFAULT_MAX_NODES 1000000
/* max_depth is taken as at most this: compiling and resolving recurse once per level. */
#define ANVIL__EPC_MAX_DEPTH_CAP 1024
/* Most variables in scope at once (each resolution keeps one value per slot on its stack). */
#define ANVIL__EPC_MAX_VARIABLES 256

struct anvil__epc_var {
    struct anvil_str_view name;
    uint8_t type;
};

enum anvil__epc_seg_kind {
    ANVIL__EPC_SEG_NAME = 0,
    ANVIL__EPC_SEG_RULES,
    ANVIL__EPC_SEG_CONDITIONS,
    ANVIL__EPC_SEG_ARGV,
    ANVIL__EPC_SEG_ITEM
};

struct anvil__epc_seg {
    uint8_t kind;
    /* The index, or the name's length. */
    size_t n;
    const char *name;
};

/* Deepest position kept: trees, functions and properties at their caps, with room to spare. */
#define ANVIL__EPC_MAX_SEGMENTS 4096

struct anvil__epc {
    struct anvil_endpoint_rules *r;
    struct anvil_allocator *alloc;
    struct anvil_diag *diag;
    size_t max_depth, max_nodes, nodes;
    /* The rule set's version, 1.<minor>: features since 1.1 need minor >= 1. */
    unsigned minor;
    struct anvil_str_view version;
    /* Where we are, as segments ("rules[3]", "conditions[1]", "argv[0]", "url"), rendered only for messages. */
    struct anvil__epc_seg *segs;
    size_t seg_count;
    /* Variables in scope, innermost last; a variable's slot is its index here. */
    struct anvil__epc_var vars[ANVIL__EPC_MAX_VARIABLES];
    size_t var_count;
    /* Interned strings: string id + 1 per slot. */
    uint32_t *intern;
    uint32_t intern_mask;
    size_t strings_cap, exprs_cap, args_cap, tparts_cap, steps_cap, conds_cap, rules_cap, endpoints_cap, headers_cap,
        props_cap, prop_members_cap, prop_items_cap, scalars_cap;
};

/* ---- positions and errors (rules_compile.c) ---- */

/* Fills the diag with `code` and "POSITION: MESSAGE"; returns `code`. */
int anvil__epc_fail(struct anvil__epc *cx, int code, const char *fmt, ...) ANVIL_PRINTF(3, 4);

/* Enters a segment, returning what to give anvil__epc_pop() to leave it. */
static inline size_t anvil__epc_push(struct anvil__epc *cx, enum anvil__epc_seg_kind kind, size_t n, const char *name) {
    size_t saved = cx->seg_count;
    if (cx->seg_count < ANVIL__EPC_MAX_SEGMENTS) {
        cx->segs[cx->seg_count++] = (struct anvil__epc_seg){(uint8_t)kind, n, name};
    }
    return saved;
}

static inline size_t anvil__epc_push_name(struct anvil__epc *cx, const char *name) {
    return anvil__epc_push(cx, ANVIL__EPC_SEG_NAME, strlen(name), name);
}

static inline size_t anvil__epc_push_key(struct anvil__epc *cx, struct anvil_str_view key) {
    return anvil__epc_push(cx, ANVIL__EPC_SEG_NAME, key.len, key.ptr);
}

static inline void anvil__epc_pop(struct anvil__epc *cx, size_t saved) {
    cx->seg_count = saved;
}

/* Counts one rule, condition or expression against max_nodes. */
int anvil__epc_count_node(struct anvil__epc *cx);

/* "a string", "a partition", ... for a static type; "an array", "null", ... for a JSON value. */
const char *anvil__epc_type_name(unsigned type);
const char *anvil__epc_json_kind(const struct anvil_json *v);

/* A view cut short for messages. */
#define ANVIL__EPC_SHOW(sv) anvil__ep_cut((sv), 60), (sv).ptr

/* ---- arrays and strings (rules_compile.c) ---- */

/* Grows `*items` (of `elem`-byte items, `count` used, `*cap` room) for `more`: ANVIL_ENOMEM, ANVIL_ELIMIT. */
int anvil__epc_reserve(struct anvil__epc *cx, void **items, size_t *cap, size_t count, size_t more, size_t elem);

/* Makes room for `more` items of `array` (a field of the rules), then `*at` is where they go. */
#define ANVIL__EPC_ADD(cx, array, count, more, at)                                                                     \
    do {                                                                                                               \
        void *p_ = (cx)->r->array;                                                                                     \
        int rc_ = anvil__epc_reserve((cx), &p_, &(cx)->array##_cap, (cx)->r->count, (more), sizeof *(cx)->r->array);   \
        (cx)->r->array = p_;                                                                                           \
        if (rc_ != ANVIL_OK) {                                                                                         \
            return rc_;                                                                                                \
        }                                                                                                              \
        *(at) = (uint32_t)(cx)->r->count;                                                                              \
        (cx)->r->count += (more);                                                                                      \
    } while (0)

/* The id of a string equal to `s`, kept once in the rules' arena. */
int anvil__epc_intern(struct anvil__epc *cx, struct anvil_str_view s, uint32_t *id);

/* ---- types and names ---- */

/* An expression of static type `got` may stand where `want` is needed (ANY fits everything). */
static inline bool anvil__epc_type_fits(unsigned want, unsigned got) {
    return want == ANVIL__EPT_ANY || got == ANVIL__EPT_ANY || want == got;
}

/* The static type of a parameter's values. */
static inline unsigned anvil__epc_param_type(enum anvil_endpoint_param_type t) {
    return t == ANVIL_ENDPOINT_PARAM_STRING    ? ANVIL__EPT_STRING
           : t == ANVIL_ENDPOINT_PARAM_BOOLEAN ? ANVIL__EPT_BOOL
                                               : ANVIL__EPT_LIST;
}

/* The index of the parameter named `name` (case-sensitive), or -1. */
static inline long anvil__ep_param_lookup(const struct anvil_endpoint_rules *r, struct anvil_str_view name) {
    if (!r->param_slots) {
        return -1;
    }
    for (uint32_t slot = anvil__ep_hash(name.ptr, name.len) & r->param_mask; r->param_slots[slot];
         slot = (slot + 1) & r->param_mask) {
        uint32_t i = r->param_slots[slot] - 1;
        if (anvil__sv_same(r->params[i].name, name)) {
            return (long)i;
        }
    }
    return -1;
}

/* ---- expressions (rules_expr.c) ---- */

/* A template string: a STR expression, the reference itself, or a TEMPLATE. */
int anvil__epc_template(struct anvil__epc *cx, struct anvil_str_view s, uint32_t *out);
/* A function object {"fn", "argv"} at nesting `depth` (a condition's is 1). */
int anvil__epc_function(struct anvil__epc *cx, const struct anvil_json *obj, size_t depth, uint32_t *out);
/* A value that must be a string: a template, a reference or a function (`what` names it in errors). */
int anvil__epc_string_expr(struct anvil__epc *cx, const struct anvil_json *v, const char *what, uint32_t *out);

#endif
