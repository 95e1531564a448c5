/*
 * The JMESPath parser: top-down operator precedence (Pratt), with the
 * binding powers of the reference implementation (jmespath.py). Chains of
 * sub-expressions, index expressions and pipes become flat child lists, so
 * `a.b.c...` and `@|@|...` evaluate iteratively however long they are; real
 * nesting (parentheses, projections, `!`, functions, and the right side of a
 * dot, one level) is bounded by max_depth.
 */

#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "core/diag_origin.h"
#include "jmespath/jmespath_internal.h"

static const int s_bp[JP_TOKEN_COUNT] = {
    [JP_PIPE] = 1, [JP_OR] = 2,   [JP_AND] = 3,     [JP_EQ] = 5,        [JP_NE] = 5,      [JP_LT] = 5,
    [JP_LTE] = 5,  [JP_GT] = 5,   [JP_GTE] = 5,     [JP_FLATTEN] = 9,   [JP_STAR] = 20,   [JP_FILTER] = 21,
    [JP_DOT] = 40, [JP_NOT] = 45, [JP_LBRACE] = 50, [JP_LBRACKET] = 55, [JP_LPAREN] = 60,
};

/* Below this, a token ends a projection's right-hand side. */
#define S_PROJECTION_STOP 10

static const char *const s_token_names[JP_TOKEN_COUNT] = {
    [JP_EOF] = "the end of the expression",
    [JP_UNQUOTED] = "an identifier",
    [JP_QUOTED] = "a quoted identifier",
    [JP_NUMBER] = "a number",
    [JP_LITERAL] = "a literal",
    [JP_DOT] = "'.'",
    [JP_STAR] = "'*'",
    [JP_FLATTEN] = "'[]'",
    [JP_FILTER] = "'[?'",
    [JP_LBRACKET] = "'['",
    [JP_RBRACKET] = "']'",
    [JP_LBRACE] = "'{'",
    [JP_RBRACE] = "'}'",
    [JP_LPAREN] = "'('",
    [JP_RPAREN] = "')'",
    [JP_COMMA] = "','",
    [JP_COLON] = "':'",
    [JP_PIPE] = "'|'",
    [JP_OR] = "'||'",
    [JP_AND] = "'&&'",
    [JP_NOT] = "'!'",
    [JP_EQ] = "'=='",
    [JP_NE] = "'!='",
    [JP_LT] = "'<'",
    [JP_LTE] = "'<='",
    [JP_GT] = "'>'",
    [JP_GTE] = "'>='",
    [JP_CURRENT] = "'@'",
    [JP_EXPREF] = "'&'",
};

struct s_parser {
    struct anvil_jmespath *expr;
    struct anvil_diag *diag;
    struct jp_token *tokens;
    size_t count;
    size_t at;
    size_t depth;
    size_t max_depth;
    uint64_t hash_seed;
};

static int(s_error)(ANVIL__ORIGIN_DECL struct s_parser *ps, int code, size_t pos, const char *fmt, ...)
    ANVIL_PRINTF(4 + ANVIL__ORIGIN_ARGC, 5 + ANVIL__ORIGIN_ARGC);
#define s_error(...) (s_error)(ANVIL__ORIGIN_HERE __VA_ARGS__)

static int(s_error)(ANVIL__ORIGIN_DECL struct s_parser *ps, int code, size_t pos, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset_at(ps->diag, code, ps->expr->text, ps->expr->len, pos, fmt, args);
    va_end(args);
    return ANVIL__ORIGIN_NOTE(ps->diag, code), code;
}

static struct jp_token *s_current(struct s_parser *ps) {
    return &ps->tokens[ps->at];
}

static enum jp_token_type s_peek(struct s_parser *ps, size_t ahead) {
    size_t i = ps->at + ahead;
    return i < ps->count ? ps->tokens[i].type : JP_EOF;
}

static void s_advance(struct s_parser *ps) {
    if (ps->tokens[ps->at].type != JP_EOF) {
        ps->at++;
    }
}

static int s_unexpected(struct s_parser *ps, const char *expected) {
    struct jp_token *t = s_current(ps);
    return s_error(ps, ANVIL_ESYNTAX, t->pos, "expected %s, found %s", expected, s_token_names[t->type]);
}

static int s_match(struct s_parser *ps, enum jp_token_type type) {
    if (s_current(ps)->type != type) {
        return s_unexpected(ps, s_token_names[type]);
    }
    s_advance(ps);
    return ANVIL_OK;
}

/* ---- nodes ---- */

static struct jp_node *s_node(struct s_parser *ps, enum jp_node_type type, size_t pos) {
    /* Copied from a zero node rather than memset(): gcc makes that a `rep stos`, whose start-up on small sizes was
     * a third of compiling `foo`. */
    static const struct jp_node zero;
    struct jp_node *n = anvil_arena_alloc(ps->expr->arena, sizeof(*n), 0);
    if (n) {
        *n = zero;
        n->type = type;
        n->pos = pos;
    }
    return n;
}

static int s_nomem(struct s_parser *ps) {
    /* A field chain is built without tokens. */
    return s_error(ps, ANVIL_ENOMEM, ps->tokens ? s_current(ps)->pos : 0, "out of memory");
}

/*
 * Appends a child, growing the list inside the arena (old lists are left
 * behind), and keeps the tree's height within max_depth: chains are flat
 * lists, but left-deep trees such as `a == b == c == ...` are not, and the
 * evaluator recurses once per level.
 */
static int s_add_child(struct s_parser *ps, struct jp_node *parent, struct jp_node *child) {
    if (child->height + 1 > parent->height) {
        parent->height = child->height + 1;
        if (parent->height > ps->max_depth) {
            return s_error(ps, ANVIL_ELIMIT, child->pos, "expression nested deeper than the limit of %zu",
                           ps->max_depth);
        }
    }
    if (parent->count == parent->capacity) {
        size_t cap = parent->capacity ? parent->capacity * 2 : 2;
        struct jp_node **children = anvil_arena_alloc(ps->expr->arena, cap * sizeof(*children), 0);
        if (!children) {
            return s_nomem(ps);
        }
        if (parent->count) {
            memcpy(children, parent->children, parent->count * sizeof(*children));
        }
        parent->children = children;
        parent->capacity = cap;
    }
    parent->children[parent->count++] = child;
    return ANVIL_OK;
}

static int s_pair(struct s_parser *ps, enum jp_node_type type, size_t pos, struct jp_node *a, struct jp_node *b,
                  struct jp_node **out) {
    struct jp_node *n = s_node(ps, type, pos);
    if (!n) {
        return s_nomem(ps);
    }
    int rc = s_add_child(ps, n, a);
    if (rc == ANVIL_OK && b) {
        rc = s_add_child(ps, n, b);
    }
    *out = n;
    return rc;
}

/* A chain node (sub-expression, index expression, pipe): extend the left one if it is one. */
static int s_chain(struct s_parser *ps, enum jp_node_type type, size_t pos, struct jp_node *left, struct jp_node *right,
                   struct jp_node **out) {
    if (left->type == type) {
        int rc = s_add_child(ps, left, right);
        *out = left;
        return rc;
    }
    return s_pair(ps, type, pos, left, right, out);
}

static int s_field_at(struct s_parser *ps, size_t pos, struct anvil_str_view name, struct jp_node **out) {
    struct jp_node *n = s_node(ps, JP_N_FIELD, pos);
    if (!n) {
        return s_nomem(ps);
    }
    n->name = name;
    n->hash = anvil__json_hash_with(ps->hash_seed, name.ptr, name.len);
    n->slot = ps->expr->fields;
    ps->expr->fields += ps->expr->fields < UINT32_MAX;
    *out = n;
    return ANVIL_OK;
}

static int s_field(struct s_parser *ps, struct jp_token *t, struct jp_node **out) {
    return s_field_at(ps, t->pos, t->name, out);
}

/*
 * `a` and `a.b.c`: unquoted identifiers joined by dots, with nothing else
 * (no spaces) -- the most common expressions, and the ones compiled per
 * call. Built straight from the text, without tokens, into the tree the
 * general parser makes of them (a field, or one sub-expression over the
 * fields at the first dot's position; tests compare the two). Returns
 * false, having built nothing, for any other text.
 */
static bool s_field_chain(struct s_parser *ps, const char *text, size_t len, int *rc, struct jp_node **out) {
    size_t fields = 1, first_dot = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '.') {
            if (i == 0 || i + 1 >= len || !jp_ident_start(text[i + 1])) {
                return false;
            }
            first_dot = fields == 1 ? i : first_dot;
            fields++;
        } else if (!(i == 0 || text[i - 1] == '.' ? jp_ident_start(text[i]) : jp_ident_char(text[i]))) {
            return false;
        }
    }
    if (len == 0 || (fields > 1 && ps->max_depth < 2)) {
        return false; /* the general parser reports both (a dot's right side is one level down) */
    }
    struct jp_node *chain = NULL;
    if (fields > 1) {
        chain = s_node(ps, JP_N_SUBEXPR, first_dot);
        struct jp_node **children = anvil_arena_alloc(ps->expr->arena, fields * sizeof(*children), 0);
        if (!chain || !children) {
            *rc = s_nomem(ps);
            return true;
        }
        chain->children = children;
        chain->capacity = fields;
        chain->height = 1;
    }
    for (size_t start = 0; start < len;) {
        size_t end = start;
        while (end < len && text[end] != '.') {
            end++;
        }
        struct jp_node *field = NULL;
        if ((*rc = s_field_at(ps, start, anvil_sv(text + start, end - start), &field)) != ANVIL_OK) {
            return true;
        }
        if (!chain) {
            *out = field;
            return true;
        }
        chain->children[chain->count++] = field;
        start = end + 1;
    }
    *out = chain;
    return true;
}

static int s_expression(struct s_parser *ps, int bp, struct jp_node **out);

/* Whether tree `n` is a field or a sub-expression of fields only, whichever parser built it. */
static bool s_is_field_chain(const struct jp_node *n) {
    if (n->type == JP_N_FIELD) {
        return true;
    }
    if (n->type != JP_N_SUBEXPR) {
        return false;
    }
    for (size_t i = 0; i < n->count; i++) {
        if (n->children[i]->type != JP_N_FIELD) {
            return false;
        }
    }
    return true;
}

/* ---- pieces ---- */

static int s_slice(struct s_parser *ps, struct jp_node **out) {
    struct jp_node *n = s_node(ps, JP_N_SLICE, s_current(ps)->pos);
    if (!n) {
        return s_nomem(ps);
    }
    int part = 0;
    while (s_current(ps)->type != JP_RBRACKET && part < 3) {
        struct jp_token *t = s_current(ps);
        if (t->type == JP_COLON) {
            part++;
            if (part == 3) {
                return s_error(ps, ANVIL_ESYNTAX, t->pos, "too many ':' in a slice");
            }
            s_advance(ps);
        } else if (t->type == JP_NUMBER) {
            if (part == 0) {
                n->start = t->number;
                n->has_start = true;
            } else if (part == 1) {
                n->stop = t->number;
                n->has_stop = true;
            } else {
                n->step = t->number;
                n->has_step = true;
            }
            s_advance(ps);
            if (s_current(ps)->type != JP_COLON && s_current(ps)->type != JP_RBRACKET) {
                return s_unexpected(ps, "':' or ']' in a slice");
            }
        } else {
            return s_unexpected(ps, "a number, ':' or ']' in a slice");
        }
    }
    int rc = s_match(ps, JP_RBRACKET);
    *out = n;
    return rc;
}

/* After '[' when a number or ':' follows: an index or a slice. */
static int s_index(struct s_parser *ps, struct jp_node **out) {
    if (s_peek(ps, 0) == JP_COLON || s_peek(ps, 1) == JP_COLON) {
        return s_slice(ps, out);
    }
    struct jp_token *t = s_current(ps);
    struct jp_node *n = s_node(ps, JP_N_INDEX, t->pos);
    if (!n) {
        return s_nomem(ps);
    }
    n->index = t->number;
    s_advance(ps);
    *out = n;
    return s_match(ps, JP_RBRACKET);
}

static int s_projection_rhs(struct s_parser *ps, int bp, struct jp_node **out);

static int s_project_if_slice(struct s_parser *ps, struct jp_node *left, struct jp_node *right, size_t pos,
                              struct jp_node **out) {
    struct jp_node *index_expr = NULL;
    int rc = s_chain(ps, JP_N_INDEX_EXPR, pos, left, right, &index_expr);
    if (rc != ANVIL_OK || right->type != JP_N_SLICE) {
        *out = index_expr;
        return rc;
    }
    struct jp_node *rhs = NULL;
    if ((rc = s_projection_rhs(ps, s_bp[JP_STAR], &rhs)) != ANVIL_OK) {
        return rc;
    }
    return s_pair(ps, JP_N_PROJECTION, pos, index_expr, rhs, out);
}

static int s_multi_list(struct s_parser *ps, size_t pos, struct jp_node **out) {
    struct jp_node *n = s_node(ps, JP_N_MULTI_LIST, pos);
    if (!n) {
        return s_nomem(ps);
    }
    for (;;) {
        struct jp_node *item = NULL;
        int rc = s_expression(ps, 0, &item);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if ((rc = s_add_child(ps, n, item)) != ANVIL_OK) {
            return rc;
        }
        if (s_current(ps)->type == JP_RBRACKET) {
            break;
        }
        if (s_current(ps)->type != JP_COMMA) {
            return s_unexpected(ps, "',' or ']' in a multi-select list");
        }
        s_advance(ps);
    }
    *out = n;
    return s_match(ps, JP_RBRACKET);
}

static int s_multi_hash(struct s_parser *ps, size_t pos, struct jp_node **out) {
    struct jp_node *n = s_node(ps, JP_N_MULTI_HASH, pos);
    if (!n) {
        return s_nomem(ps);
    }
    /* Keys are collected in a list of field nodes, turned into key records after. */
    struct jp_node *names = s_node(ps, JP_N_MULTI_LIST, pos);
    if (!names) {
        return s_nomem(ps);
    }
    for (;;) {
        struct jp_token *t = s_current(ps);
        if (t->type != JP_UNQUOTED && t->type != JP_QUOTED) {
            return s_unexpected(ps, "a key (an identifier) in a multi-select hash");
        }
        struct jp_node *name = NULL;
        int rc = s_field(ps, t, &name);
        if (rc != ANVIL_OK || (rc = s_add_child(ps, names, name)) != ANVIL_OK) {
            return rc;
        }
        s_advance(ps);
        if ((rc = s_match(ps, JP_COLON)) != ANVIL_OK) {
            return rc;
        }
        struct jp_node *value = NULL;
        if ((rc = s_expression(ps, 0, &value)) != ANVIL_OK || (rc = s_add_child(ps, n, value)) != ANVIL_OK) {
            return rc;
        }
        if (s_current(ps)->type == JP_RBRACE) {
            s_advance(ps);
            break;
        }
        if (s_current(ps)->type != JP_COMMA) {
            return s_unexpected(ps, "',' or '}' in a multi-select hash");
        }
        s_advance(ps);
    }
    n->keys = anvil_arena_alloc(ps->expr->arena, names->count * sizeof(*n->keys), 0);
    if (!n->keys) {
        return s_nomem(ps);
    }
    for (size_t i = 0; i < names->count; i++) {
        struct jp_node *name = names->children[i];
        n->keys[i] = anvil__json_key_new(ps->expr->arena, name->name.ptr, name->name.len, name->hash);
        if (!n->keys[i]) {
            return s_nomem(ps);
        }
    }
    *out = n;
    return ANVIL_OK;
}

static int s_dot_rhs(struct s_parser *ps, int bp, struct jp_node **out) {
    struct jp_token *t = s_current(ps);
    switch (t->type) {
    case JP_UNQUOTED:
    case JP_QUOTED:
    case JP_STAR:
        return s_expression(ps, bp, out);
    case JP_LBRACKET:
        s_advance(ps);
        return s_multi_list(ps, t->pos, out);
    case JP_LBRACE:
        s_advance(ps);
        return s_multi_hash(ps, t->pos, out);
    default:
        return s_unexpected(ps, "an identifier, '*', '[' or '{' after '.'");
    }
}

static int s_projection_rhs(struct s_parser *ps, int bp, struct jp_node **out) {
    struct jp_token *t = s_current(ps);
    if (s_bp[t->type] < S_PROJECTION_STOP) {
        *out = s_node(ps, JP_N_IDENTITY, t->pos);
        return *out ? ANVIL_OK : s_nomem(ps);
    }
    switch (t->type) {
    case JP_LBRACKET:
    case JP_FILTER:
        return s_expression(ps, bp, out);
    case JP_DOT:
        s_advance(ps);
        return s_dot_rhs(ps, bp, out);
    default:
        return s_unexpected(ps, "'.', '[' or '[?' after a projection");
    }
}

static int s_filter(struct s_parser *ps, struct jp_node *left, size_t pos, struct jp_node **out) {
    struct jp_node *condition = NULL;
    int rc = s_expression(ps, 0, &condition);
    if (rc != ANVIL_OK || (rc = s_match(ps, JP_RBRACKET)) != ANVIL_OK) {
        return rc;
    }
    struct jp_node *right = NULL;
    if (s_current(ps)->type == JP_FLATTEN) {
        right = s_node(ps, JP_N_IDENTITY, pos);
        if (!right) {
            return s_nomem(ps);
        }
    } else if ((rc = s_projection_rhs(ps, s_bp[JP_FILTER], &right)) != ANVIL_OK) {
        return rc;
    }
    struct jp_node *n = s_node(ps, JP_N_FILTER_PROJECTION, pos);
    if (!n) {
        return s_nomem(ps);
    }
    if ((rc = s_add_child(ps, n, left)) != ANVIL_OK || (rc = s_add_child(ps, n, right)) != ANVIL_OK ||
        (rc = s_add_child(ps, n, condition)) != ANVIL_OK) {
        return rc;
    }
    *out = n;
    return ANVIL_OK;
}

static int s_flatten(struct s_parser *ps, struct jp_node *left, size_t pos, struct jp_node **out) {
    struct jp_node *flat = NULL, *right = NULL;
    int rc = s_pair(ps, JP_N_FLATTEN, pos, left, NULL, &flat);
    if (rc != ANVIL_OK || (rc = s_projection_rhs(ps, s_bp[JP_FLATTEN], &right)) != ANVIL_OK) {
        return rc;
    }
    return s_pair(ps, JP_N_PROJECTION, pos, flat, right, out);
}

static int s_function(struct s_parser *ps, struct jp_node *name, size_t pos, struct jp_node **out) {
    if (name->type != JP_N_FIELD) {
        return s_error(ps, ANVIL_ESYNTAX, pos, "only a plain name can be called as a function");
    }
    const struct jp_function *fn = jp_function_find(name->name.ptr, name->name.len);
    if (!fn) {
        return s_error(ps, ANVIL_ENOTFOUND, name->pos, "unknown function '%.*s()'", (int)name->name.len,
                       name->name.ptr);
    }
    struct jp_node *n = s_node(ps, JP_N_FUNCTION, name->pos);
    if (!n) {
        return s_nomem(ps);
    }
    n->function = fn;
    n->name = name->name;
    while (s_current(ps)->type != JP_RPAREN) {
        struct jp_node *arg = NULL;
        int rc = s_expression(ps, 0, &arg);
        if (rc != ANVIL_OK || (rc = s_add_child(ps, n, arg)) != ANVIL_OK) {
            return rc;
        }
        if (s_current(ps)->type == JP_COMMA) {
            s_advance(ps);
            if (s_current(ps)->type == JP_RPAREN) {
                return s_unexpected(ps, "an argument after ','");
            }
        } else if (s_current(ps)->type != JP_RPAREN) {
            return s_unexpected(ps, "',' or ')' in a function call");
        }
    }
    s_advance(ps);
    if (n->count < fn->min_args || n->count > fn->max_args) {
        if (fn->max_args == SIZE_MAX) {
            return s_error(ps, ANVIL_EARITY, n->pos, "%s() takes at least %zu argument%s, got %zu", fn->name,
                           fn->min_args, fn->min_args == 1 ? "" : "s", n->count);
        }
        return s_error(ps, ANVIL_EARITY, n->pos, "%s() takes %zu argument%s, got %zu", fn->name, fn->min_args,
                       fn->min_args == 1 ? "" : "s", n->count);
    }
    *out = n;
    return ANVIL_OK;
}

/* ---- nud and led ---- */

static int s_nud(struct s_parser *ps, struct jp_token *t, struct jp_node **out) {
    struct jp_node *left = NULL, *right = NULL;
    int rc;
    switch (t->type) {
    case JP_LITERAL:
        *out = s_node(ps, JP_N_LITERAL, t->pos);
        if (!*out) {
            return s_nomem(ps);
        }
        (*out)->literal = t->literal;
        return ANVIL_OK;
    case JP_UNQUOTED:
        return s_field(ps, t, out);
    case JP_QUOTED:
        if (s_current(ps)->type == JP_LPAREN) {
            return s_error(ps, ANVIL_ESYNTAX, t->pos, "a quoted identifier cannot name a function");
        }
        return s_field(ps, t, out);
    case JP_STAR:
        if (!(left = s_node(ps, JP_N_IDENTITY, t->pos))) {
            return s_nomem(ps);
        }
        if ((rc = s_projection_rhs(ps, s_bp[JP_STAR], &right)) != ANVIL_OK) {
            return rc;
        }
        return s_pair(ps, JP_N_VALUE_PROJECTION, t->pos, left, right, out);
    case JP_FILTER:
        if (!(left = s_node(ps, JP_N_IDENTITY, t->pos))) {
            return s_nomem(ps);
        }
        return s_filter(ps, left, t->pos, out);
    case JP_LBRACE:
        return s_multi_hash(ps, t->pos, out);
    case JP_LPAREN:
        if ((rc = s_expression(ps, 0, out)) != ANVIL_OK) {
            return rc;
        }
        return s_match(ps, JP_RPAREN);
    case JP_FLATTEN:
        if (!(left = s_node(ps, JP_N_IDENTITY, t->pos))) {
            return s_nomem(ps);
        }
        return s_flatten(ps, left, t->pos, out);
    case JP_NOT:
        if ((rc = s_expression(ps, s_bp[JP_NOT], &left)) != ANVIL_OK) {
            return rc;
        }
        return s_pair(ps, JP_N_NOT, t->pos, left, NULL, out);
    case JP_LBRACKET:
        if (s_current(ps)->type == JP_NUMBER || s_current(ps)->type == JP_COLON) {
            if ((rc = s_index(ps, &right)) != ANVIL_OK) {
                return rc;
            }
            if (!(left = s_node(ps, JP_N_IDENTITY, t->pos))) {
                return s_nomem(ps);
            }
            return s_project_if_slice(ps, left, right, t->pos, out);
        }
        if (s_current(ps)->type == JP_STAR && s_peek(ps, 1) == JP_RBRACKET) {
            s_advance(ps);
            s_advance(ps);
            if (!(left = s_node(ps, JP_N_IDENTITY, t->pos))) {
                return s_nomem(ps);
            }
            if ((rc = s_projection_rhs(ps, s_bp[JP_STAR], &right)) != ANVIL_OK) {
                return rc;
            }
            return s_pair(ps, JP_N_PROJECTION, t->pos, left, right, out);
        }
        return s_multi_list(ps, t->pos, out);
    case JP_CURRENT:
        *out = s_node(ps, JP_N_CURRENT, t->pos);
        return *out ? ANVIL_OK : s_nomem(ps);
    case JP_EXPREF:
        if ((rc = s_expression(ps, s_bp[JP_EXPREF], &left)) != ANVIL_OK) {
            return rc;
        }
        return s_pair(ps, JP_N_EXPREF, t->pos, left, NULL, out);
    default:
        return s_error(ps, ANVIL_ESYNTAX, t->pos, "unexpected %s", s_token_names[t->type]);
    }
}

static int s_led(struct s_parser *ps, struct jp_token *t, struct jp_node *left, struct jp_node **out) {
    struct jp_node *right = NULL;
    int rc;
    switch (t->type) {
    case JP_DOT:
        if (s_current(ps)->type != JP_STAR) {
            if ((rc = s_dot_rhs(ps, s_bp[JP_DOT], &right)) != ANVIL_OK) {
                return rc;
            }
            return s_chain(ps, JP_N_SUBEXPR, t->pos, left, right, out);
        }
        s_advance(ps);
        if ((rc = s_projection_rhs(ps, s_bp[JP_DOT], &right)) != ANVIL_OK) {
            return rc;
        }
        return s_pair(ps, JP_N_VALUE_PROJECTION, t->pos, left, right, out);
    case JP_PIPE:
        if ((rc = s_expression(ps, s_bp[JP_PIPE], &right)) != ANVIL_OK) {
            return rc;
        }
        return s_chain(ps, JP_N_PIPE, t->pos, left, right, out);
    case JP_OR:
    case JP_AND:
        /* Both are associative, so a chain is one flat list. */
        if ((rc = s_expression(ps, s_bp[t->type], &right)) != ANVIL_OK) {
            return rc;
        }
        return s_chain(ps, t->type == JP_OR ? JP_N_OR : JP_N_AND, t->pos, left, right, out);
    case JP_LPAREN:
        return s_function(ps, left, t->pos, out);
    case JP_FILTER:
        return s_filter(ps, left, t->pos, out);
    case JP_FLATTEN:
        return s_flatten(ps, left, t->pos, out);
    case JP_EQ:
    case JP_NE:
    case JP_LT:
    case JP_LTE:
    case JP_GT:
    case JP_GTE:
        if ((rc = s_expression(ps, s_bp[t->type], &right)) != ANVIL_OK) {
            return rc;
        }
        if ((rc = s_pair(ps, JP_N_COMPARE, t->pos, left, right, out)) == ANVIL_OK) {
            (*out)->op = t->type;
        }
        return rc;
    case JP_LBRACKET:
        if (s_current(ps)->type == JP_NUMBER || s_current(ps)->type == JP_COLON) {
            if ((rc = s_index(ps, &right)) != ANVIL_OK) {
                return rc;
            }
            if (left->type == JP_N_INDEX_EXPR) {
                *out = left;
                return s_add_child(ps, left, right);
            }
            return s_project_if_slice(ps, left, right, t->pos, out);
        }
        if ((rc = s_match(ps, JP_STAR)) != ANVIL_OK || (rc = s_match(ps, JP_RBRACKET)) != ANVIL_OK) {
            return rc;
        }
        if ((rc = s_projection_rhs(ps, s_bp[JP_STAR], &right)) != ANVIL_OK) {
            return rc;
        }
        return s_pair(ps, JP_N_PROJECTION, t->pos, left, right, out);
    default:
        return s_error(ps, ANVIL_ESYNTAX, t->pos, "unexpected %s", s_token_names[t->type]);
    }
}

static int s_expression(struct s_parser *ps, int bp, struct jp_node **out) {
    if (ps->depth >= ps->max_depth) {
        return s_error(ps, ANVIL_ELIMIT, s_current(ps)->pos, "expression nested deeper than the limit of %zu",
                       ps->max_depth);
    }
    ps->depth++;
    struct jp_token *t = s_current(ps);
    s_advance(ps);
    struct jp_node *left = NULL;
    int rc = s_nud(ps, t, &left);
    while (rc == ANVIL_OK && bp < s_bp[s_current(ps)->type]) {
        struct jp_token *op = s_current(ps);
        s_advance(ps);
        rc = s_led(ps, op, left, &left);
    }
    ps->depth--;
    if (rc == ANVIL_OK) {
        *out = left;
    }
    return rc;
}

/* ---- compile ---- */

int anvil_jmespath_compile(struct anvil_allocator *allocator, const char *text, size_t len,
                           const struct anvil_jmespath_options *options, struct anvil_jmespath **out,
                           struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!out || (!text && len > 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    *out = NULL;
    size_t max_length = options && options->max_length ? options->max_length : ANVIL_JMESPATH_DEFAULT_MAX_LENGTH;
    size_t max_depth = options && options->max_depth ? options->max_depth : ANVIL_JMESPATH_DEFAULT_MAX_DEPTH;
    if (max_depth > ANVIL_JMESPATH_MAX_DEPTH_LIMIT) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "max_depth %zu is above the most anvil supports (%d)",
                              max_depth, ANVIL_JMESPATH_MAX_DEPTH_LIMIT);
    }
    if (len > max_length) {
        return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "expression of %zu bytes is longer than the limit of %zu",
                              len, max_length);
    }
    /* One allocation holds the expression and the first block of its arena
     * (a small expression needs nothing more): compiling is cheap enough to
     * do per call. */
    size_t align = alignof(max_align_t);
    size_t header = (sizeof(struct anvil_jmespath) + align - 1) & ~(align - 1);
    if (len > (SIZE_MAX - header - 512 - 2 * align) / 9) {
        /* Only reachable with a raised max_length on a 32-bit system: the sizes below would wrap. */
        return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "expression of %zu bytes is too long to compile", len);
    }
    size_t text_bytes = (len + 1 + align - 1) & ~(align - 1);
    size_t inline_bytes = 512 + len * 8;
    struct anvil_jmespath *expr = anvil_mem_acquire(allocator, header + text_bytes + inline_bytes);
    if (!expr) {
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    /* [the expression][its text][the arena's first block] */
    char *copy = (char *)expr + header;
    if (len) {
        memcpy(copy, text, len);
    }
    copy[len] = '\0';
    expr->allocator = allocator;
    expr->arena = &expr->arena_storage;
    expr->text = copy;
    expr->len = len;
    expr->root = NULL;
    expr->fields = 0;
    expr->field_chain = false;
    struct anvil_arena *arena = expr->arena;
    anvil__arena_init_inline(arena, allocator, copy + text_bytes, inline_bytes);
    int rc = ANVIL_OK;
    struct jp_token stack[48];
    struct s_parser ps = {expr, diag, NULL, 0, 0, 0, max_depth, anvil__json_hash_seed()};
    /* A field chain is built without tokens (rc then says whether memory ran out); anything else is parsed. */
    bool chain = s_field_chain(&ps, copy, len, &rc, &expr->root);
    if (!chain && (rc = jp_lex(arena, allocator, copy, len, stack, sizeof(stack) / sizeof(stack[0]), &ps.tokens,
                               &ps.count, diag)) == ANVIL_OK) {
        if (ps.tokens[0].type == JP_EOF) {
            rc = s_error(&ps, ANVIL_ESYNTAX, 0, "empty expression");
        } else {
            rc = s_expression(&ps, 0, &expr->root);
        }
        if (rc == ANVIL_OK && s_current(&ps)->type != JP_EOF) {
            struct jp_token *t = s_current(&ps);
            rc = s_error(&ps, ANVIL_ESYNTAX, t->pos, "unexpected %s after a complete expression",
                         s_token_names[t->type]);
        }
        if (ps.tokens != stack) {
            anvil_mem_release(allocator, ps.tokens);
        }
    }
    if (rc != ANVIL_OK) {
        if (rc == ANVIL_ENOMEM && anvil_arena_exhausted(arena)) {
            rc = ANVIL_ELIMIT;
        }
        anvil_jmespath_destroy(expr);
        return rc;
    }
    expr->field_chain = s_is_field_chain(expr->root);
    *out = expr;
    return ANVIL_OK;
}

void anvil_jmespath_destroy(struct anvil_jmespath *expr) {
    if (expr) {
        anvil__arena_clean_up(expr->arena);
        anvil_mem_release(expr->allocator, expr);
    }
}

struct anvil_str_view anvil_jmespath_text(const struct anvil_jmespath *expr) {
    return anvil_sv(expr->text, expr->len);
}

const char *anvil_jmespath_error_kind(int status) {
    switch (status) {
    case ANVIL_ESYNTAX:
        return "syntax";
    case ANVIL_ETYPE:
        return "invalid-type";
    case ANVIL_EARITY:
        return "invalid-arity";
    case ANVIL_EVALUE:
        return "invalid-value";
    case ANVIL_ENOTFOUND:
        return "unknown-function";
    case ANVIL_ELIMIT:
        return "limit";
    default:
        return "error";
    }
}
