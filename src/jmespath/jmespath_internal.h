#ifndef ANVIL_JMESPATH_INTERNAL_H
#define ANVIL_JMESPATH_INTERNAL_H

/* Tokens, the syntax tree and the function table, shared by the lexer,
 * parser, evaluator and functions; not installed. */

#include "anvil/jmespath.h"
#include "core/core_internal.h"
#include "core/diag_origin.h"
#include "json/json_internal.h"

#define ANVIL_JMESPATH_MAX_DEPTH_LIMIT 4096

enum jp_token_type {
    JP_EOF,
    JP_UNQUOTED, /* foo */
    JP_QUOTED,   /* "foo" */
    JP_NUMBER,   /* -12 (indexes and slices) */
    JP_LITERAL,  /* `json` and 'raw string' */
    JP_DOT,
    JP_STAR,
    JP_FLATTEN, /* [] */
    JP_FILTER,  /* [? */
    JP_LBRACKET,
    JP_RBRACKET,
    JP_LBRACE,
    JP_RBRACE,
    JP_LPAREN,
    JP_RPAREN,
    JP_COMMA,
    JP_COLON,
    JP_PIPE,
    JP_OR,
    JP_AND,
    JP_NOT,
    JP_EQ,
    JP_NE,
    JP_LT,
    JP_LTE,
    JP_GT,
    JP_GTE,
    JP_CURRENT, /* @ */
    JP_EXPREF,  /* & */
    JP_TOKEN_COUNT
};

/* An unquoted identifier: [A-Za-z_][A-Za-z0-9_]*. */
static inline bool jp_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool jp_ident_char(char c) {
    return jp_ident_start(c) || (c >= '0' && c <= '9');
}

struct jp_token {
    enum jp_token_type type;
    /* Byte offset in the expression text. */
    size_t pos;
    /* Identifiers: the decoded name (in the expression's arena). */
    struct anvil_str_view name;
    /* JP_NUMBER, saturated to the int64 range. */
    int64_t number;
    /* JP_LITERAL. */
    struct anvil_json literal;
};

enum jp_node_type {
    JP_N_IDENTITY,   /* the current node, implicitly */
    JP_N_CURRENT,    /* @ */
    JP_N_FIELD,      /* name, hash */
    JP_N_SUBEXPR,    /* children: applied left to right */
    JP_N_INDEX_EXPR, /* children: applied left to right */
    JP_N_PIPE,       /* children: applied left to right, projections stop */
    JP_N_INDEX,      /* index */
    JP_N_SLICE,      /* start, stop, step with has_* flags */
    JP_N_PROJECTION, /* children[0] base, children[1] applied to each item */
    JP_N_VALUE_PROJECTION,
    JP_N_FILTER_PROJECTION, /* children[0] base, [1] applied to matches, [2] condition */
    JP_N_FLATTEN,           /* children[0] */
    JP_N_MULTI_LIST,        /* children */
    JP_N_MULTI_HASH,        /* children, keys */
    JP_N_OR,                /* children: the first truthy one, else the last */
    JP_N_AND,               /* children: the first falsy one, else the last */
    JP_N_NOT,
    JP_N_COMPARE, /* op: one of JP_EQ..JP_GTE */
    JP_N_LITERAL,
    JP_N_FUNCTION, /* function, children = arguments */
    JP_N_EXPREF    /* children[0] */
};

struct jp_function;

struct jp_node {
    enum jp_node_type type;
    enum jp_token_type op;
    size_t pos;
    struct jp_node **children;
    size_t count;
    size_t capacity; /* for lists that grow while parsing */
    /* Height of the subtree: evaluation recurses at most this deep. */
    size_t height;
    struct anvil_str_view name;
    uint32_t hash;
    /* A field's number in its expression (0, 1, ...): its lookup hint during a search. */
    uint32_t slot;
    int64_t index;
    int64_t start, stop, step;
    bool has_start, has_stop, has_step;
    struct anvil_json literal;
    const struct anvil_json_key **keys;
    const struct jp_function *function;
};

struct anvil_jmespath {
    struct anvil_allocator *allocator;
    /* Points at arena_storage; the tree and tokens' strings live there (the text just after this struct). */
    struct anvil_arena *arena;
    struct anvil_arena arena_storage;
    const char *text;
    size_t len;
    struct jp_node *root;
    /* Field nodes made (their slots are 0 .. fields - 1). */
    uint32_t fields;
    /* The whole expression is `a` or `a.b.c` (a field, or a sub-expression of fields only): a search
     * is its lookups, without the evaluator. */
    bool field_chain;
};

/* ---- functions ---- */

enum jp_type_mask {
    JP_T_NULL = 1 << 0,
    JP_T_BOOL = 1 << 1,
    JP_T_NUMBER = 1 << 2,
    JP_T_STRING = 1 << 3,
    JP_T_ARRAY = 1 << 4,
    JP_T_OBJECT = 1 << 5,
    JP_T_EXPREF = 1 << 6,
    JP_T_ANY = JP_T_NULL | JP_T_BOOL | JP_T_NUMBER | JP_T_STRING | JP_T_ARRAY | JP_T_OBJECT,
    /* Arrays whose items are all numbers / all strings (checked at run time). */
    JP_T_ARRAY_NUMBER = 1 << 7,
    JP_T_ARRAY_STRING = 1 << 8
};

struct jp_eval;

/* An evaluated argument: a value, or the tree of an &expression. */
struct jp_arg {
    struct anvil_json value;
    const struct jp_node *expref;
};

typedef int jp_function_fn(struct jp_eval *ev, const struct jp_node *call, struct jp_arg *args, size_t count,
                           struct anvil_json *out);

struct jp_function {
    const char *name;
    size_t min_args;
    size_t max_args; /* SIZE_MAX: variadic */
    /* Accepted types per parameter; the last one repeats for variadic functions. */
    unsigned params[3];
    jp_function_fn *fn;
};

const struct jp_function *jp_function_find(const char *name, size_t len);

/* ---- evaluation, shared with the functions ---- */

/*
 * Where a field was found last in this search: member `at`, whose key record
 * was `key`. A projection looks a field up in object after object of the same
 * shape, so the next object usually has it at the same place, which one
 * pointer compare confirms: a parsed document interns its keys, and a key
 * record is never equal by address to a different key (objects built with
 * fresh key records just miss the hint and are looked up).
 */
struct jp_hint {
    const struct anvil_json_key *key;
    size_t at;
};

/* Fields past this many in one expression are looked up without a hint. */
#define JP_HINTS 64

struct jp_eval {
    struct anvil_arena *arena;
    struct anvil_allocator *scratch;
    struct anvil_diag *diag;
    const struct anvil_jmespath *expr;
    /* Results collected by projections and functions, copied out when done. */
    struct anvil_json *stack;
    size_t stack_len, stack_cap;
    /* One per field slot below hint_count (the search's own, on its C stack). */
    struct jp_hint *hints;
    uint32_t hint_count;
};

int jp_eval_node(struct jp_eval *ev, const struct jp_node *node, const struct anvil_json *in, struct anvil_json *out);
int(jp_error)(ANVIL__ORIGIN_DECL struct jp_eval *ev, int code, const struct jp_node *at, const char *fmt, ...)
    ANVIL_PRINTF(4 + ANVIL__ORIGIN_ARGC, 5 + ANVIL__ORIGIN_ARGC);
#define jp_error(...) (jp_error)(ANVIL__ORIGIN_HERE __VA_ARGS__)
/* Pushes onto the evaluation stack, which may move: no pointer into it outlives a push (so eval.c's s_operand(), which
 * hands back `in` itself, is never given one; its callers pass local copies or items of arrays in the arena). */
int jp_push(struct jp_eval *ev, struct anvil_json value);
/* Moves stack[from..] into a new array in the arena and pops them. */
int jp_pop_array(struct jp_eval *ev, size_t from, struct anvil_json *out);
int jp_nomem(struct jp_eval *ev);

/*
 * Splits the text into tokens. `stack` (capacity `stack_cap`) holds them when
 * they fit; otherwise `*tokens` is a heap array the caller releases (it is
 * released when `*tokens != stack`).
 */
int jp_lex(struct anvil_arena *arena, struct anvil_allocator *allocator, const char *text, size_t len,
           struct jp_token *stack, size_t stack_cap, struct jp_token **tokens, size_t *count, struct anvil_diag *diag);

/* ---- static analysis (lint.c) ---- */

/*
 * In lint input, a string of exactly these bytes stands for "any value"
 * (Smithy's ANY: a document, a recursive member). Model samples use it.
 */
#define ANVIL__LINT_ANY "\0anvil:any"

enum anvil__lint_type {
    ANVIL__LINT_ANY_TYPE,
    ANVIL__LINT_NULL,
    ANVIL__LINT_BOOLEAN,
    ANVIL__LINT_NUMBER,
    ANVIL__LINT_STRING,
    ANVIL__LINT_ARRAY,
    ANVIL__LINT_OBJECT,
    ANVIL__LINT_EXPRESSION
};

enum anvil__lint_severity { ANVIL__LINT_ERROR, ANVIL__LINT_DANGER, ANVIL__LINT_WARNING };

typedef void anvil__lint_problem_fn(void *user_data, enum anvil__lint_severity severity, size_t line, size_t column,
                                    const char *message);

bool anvil__lint_is_any(const struct anvil_json *v);

/* "any", "null", "boolean", "number", "string", "array", "object", "expression". */
const char *anvil__lint_type_name(enum anvil__lint_type type);

/*
 * Checks `expr` against `input` (NULL = any) as Smithy's type checker does,
 * calling `report` for each problem, and stores the result's static type in
 * `*returns`. Values it builds go into `arena`. ANVIL_OK or ANVIL_ENOMEM.
 */
int anvil__jmespath_lint(const struct anvil_jmespath *expr, const struct anvil_json *input, struct anvil_arena *arena,
                         anvil__lint_problem_fn *report, void *user_data, enum anvil__lint_type *returns);

#endif
