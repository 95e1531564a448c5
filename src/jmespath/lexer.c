/* The JMESPath lexer: the whole expression into a token array. */

#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "core/diag_origin.h"
#include "jmespath/jmespath_internal.h"

struct s_lexer {
    const char *text;
    size_t len;
    size_t pos;
    struct anvil_arena *arena;
    struct anvil_allocator *allocator;
    struct anvil_diag *diag;
    struct jp_token *tokens;
    size_t count, cap;
    struct jp_token *stack; /* the caller's buffer, used until it is full */
};

static int(s_error)(ANVIL__ORIGIN_DECL struct s_lexer *lx, int code, size_t at, const char *fmt, ...)
    ANVIL_PRINTF(4 + ANVIL__ORIGIN_ARGC, 5 + ANVIL__ORIGIN_ARGC);
#define s_error(...) (s_error)(ANVIL__ORIGIN_HERE __VA_ARGS__)

static int(s_error)(ANVIL__ORIGIN_DECL struct s_lexer *lx, int code, size_t at, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset_at(lx->diag, code, lx->text, lx->len, at, fmt, args);
    va_end(args);
    return ANVIL__ORIGIN_NOTE(lx->diag, code), code;
}

static int s_push(struct s_lexer *lx, enum jp_token_type type, size_t pos, struct jp_token **out) {
    if (lx->count == lx->cap) {
        /* Leaving the stack buffer: move what it holds to the heap. */
        struct jp_token *heap = lx->tokens == lx->stack ? NULL : lx->tokens;
        size_t cap = lx->tokens == lx->stack ? 0 : lx->cap;
        if (anvil__mem_grow(lx->allocator, (void **)&heap, &cap, sizeof(struct jp_token), lx->count + 1) != ANVIL_OK) {
            return s_error(lx, ANVIL_ENOMEM, pos, "out of memory");
        }
        if (lx->tokens == lx->stack && lx->count) {
            memcpy(heap, lx->stack, lx->count * sizeof(*heap));
        }
        lx->tokens = heap;
        lx->cap = cap;
    }
    struct jp_token *t = &lx->tokens[lx->count++];
    memset(t, 0, sizeof(*t));
    t->type = type;
    t->pos = pos;
    if (out) {
        *out = t;
    }
    return ANVIL_OK;
}

/* "quoted identifier": the text between the quotes is a JSON string. */
static int s_quoted(struct s_lexer *lx) {
    size_t start = lx->pos;
    size_t i = start + 1;
    while (i < lx->len && lx->text[i] != '"') {
        i += lx->text[i] == '\\' && i + 1 < lx->len ? 2 : 1;
    }
    if (i >= lx->len) {
        return s_error(lx, ANVIL_ESYNTAX, start, "unterminated quoted identifier");
    }
    struct anvil_json v;
    struct anvil_diag inner;
    int rc = anvil_json_parse_into(lx->arena, lx->allocator, lx->text + start, i + 1 - start, NULL, &v, &inner);
    if (rc != ANVIL_OK) {
        return s_error(lx, rc == ANVIL_ENOMEM ? rc : ANVIL_ESYNTAX, start + inner.offset,
                       "invalid quoted identifier: %s", inner.message);
    }
    struct jp_token *t = NULL;
    if ((rc = s_push(lx, JP_QUOTED, start, &t)) != ANVIL_OK) {
        return rc;
    }
    /* Keep the bytes in the arena: inline short strings live in `v` only. */
    struct anvil_str_view s = anvil_json_string(&v);
    char *copy = anvil_arena_strndup(lx->arena, s.ptr, s.len);
    if (!copy) {
        return s_error(lx, ANVIL_ENOMEM, start, "out of memory");
    }
    t->name = anvil_sv(copy, s.len);
    lx->pos = i + 1;
    return ANVIL_OK;
}

/*
 * The text up to an unescaped `delim`, as the reference lexer reads it: a
 * backslash always takes the next character with it (both are kept), then
 * every backslash-delimiter pair becomes the delimiter. So 'a\'b' is a'b and
 * '\\' keeps both backslashes (the official suite's answer).
 */
static int s_until(struct s_lexer *lx, char delim, const char *what, char **out, size_t *out_len) {
    size_t start = lx->pos;
    char *buf = anvil_arena_alloc(lx->arena, lx->len - start + 1, 1);
    if (!buf) {
        return s_error(lx, ANVIL_ENOMEM, start, "out of memory");
    }
    size_t n = 0;
    size_t i = start + 1;
    while (i < lx->len && lx->text[i] != delim) {
        if (lx->text[i] == '\\' && i + 1 < lx->len) {
            if (lx->text[i + 1] != delim) {
                buf[n++] = '\\';
            }
            i++;
        }
        buf[n++] = lx->text[i++];
    }
    if (i >= lx->len) {
        return s_error(lx, ANVIL_ESYNTAX, start, "unterminated %s", what);
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    lx->pos = i + 1;
    return ANVIL_OK;
}

static int s_raw(struct s_lexer *lx) {
    size_t start = lx->pos;
    char *text;
    size_t n;
    int rc = s_until(lx, '\'', "raw string literal", &text, &n);
    struct jp_token *t = NULL;
    if (rc != ANVIL_OK || (rc = s_push(lx, JP_LITERAL, start, &t)) != ANVIL_OK) {
        return rc;
    }
    if (anvil_json_new_string(lx->arena, text, n, &t->literal) != ANVIL_OK) {
        return s_error(lx, ANVIL_ESYNTAX, start, "raw string literal is not valid UTF-8");
    }
    return ANVIL_OK;
}

/* `json`: \` is an escaped backtick; the rest must be one JSON value. */
static int s_json_literal(struct s_lexer *lx) {
    size_t start = lx->pos;
    char *json;
    size_t n;
    int rc = s_until(lx, '`', "JSON literal", &json, &n);
    struct jp_token *t = NULL;
    if (rc != ANVIL_OK || (rc = s_push(lx, JP_LITERAL, start, &t)) != ANVIL_OK) {
        return rc;
    }
    struct anvil_diag inner;
    rc = anvil_json_parse_into(lx->arena, lx->allocator, json, n, NULL, &t->literal, &inner);
    if (rc != ANVIL_OK) {
        return s_error(lx, rc == ANVIL_ENOMEM || rc == ANVIL_ELIMIT ? rc : ANVIL_ESYNTAX, start,
                       "invalid JSON literal: %s", inner.message);
    }
    return ANVIL_OK;
}

static int s_number(struct s_lexer *lx) {
    size_t start = lx->pos;
    size_t i = start;
    bool negative = lx->text[i] == '-';
    if (negative) {
        i++;
    }
    if (i >= lx->len || lx->text[i] < '0' || lx->text[i] > '9') {
        return s_error(lx, ANVIL_ESYNTAX, start, "'-' must be followed by digits");
    }
    /* Saturate: an index far out of range means "out of range", not an error. */
    uint64_t magnitude = 0;
    for (; i < lx->len && lx->text[i] >= '0' && lx->text[i] <= '9'; i++) {
        uint64_t digit = (uint64_t)(lx->text[i] - '0');
        magnitude = magnitude > (UINT64_MAX - digit) / 10 ? UINT64_MAX : magnitude * 10 + digit;
    }
    struct jp_token *t = NULL;
    int rc = s_push(lx, JP_NUMBER, start, &t);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (negative) {
        t->number = magnitude > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)magnitude;
    } else {
        t->number = magnitude > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)magnitude;
    }
    lx->pos = i;
    return ANVIL_OK;
}

static int s_simple(struct s_lexer *lx, enum jp_token_type type, size_t width) {
    int rc = s_push(lx, type, lx->pos, NULL);
    lx->pos += width;
    return rc;
}

static int s_next(struct s_lexer *lx) {
    const char *s = lx->text;
    size_t p = lx->pos;
    char c = s[p];
    char next = p + 1 < lx->len ? s[p + 1] : '\0';
    switch (c) {
    case '.':
        return s_simple(lx, JP_DOT, 1);
    case '*':
        return s_simple(lx, JP_STAR, 1);
    case ']':
        return s_simple(lx, JP_RBRACKET, 1);
    case ',':
        return s_simple(lx, JP_COMMA, 1);
    case ':':
        return s_simple(lx, JP_COLON, 1);
    case '@':
        return s_simple(lx, JP_CURRENT, 1);
    case '(':
        return s_simple(lx, JP_LPAREN, 1);
    case ')':
        return s_simple(lx, JP_RPAREN, 1);
    case '{':
        return s_simple(lx, JP_LBRACE, 1);
    case '}':
        return s_simple(lx, JP_RBRACE, 1);
    case '[':
        if (next == '?') {
            return s_simple(lx, JP_FILTER, 2);
        }
        if (next == ']') {
            return s_simple(lx, JP_FLATTEN, 2);
        }
        return s_simple(lx, JP_LBRACKET, 1);
    case '|':
        return next == '|' ? s_simple(lx, JP_OR, 2) : s_simple(lx, JP_PIPE, 1);
    case '&':
        return next == '&' ? s_simple(lx, JP_AND, 2) : s_simple(lx, JP_EXPREF, 1);
    case '!':
        return next == '=' ? s_simple(lx, JP_NE, 2) : s_simple(lx, JP_NOT, 1);
    case '<':
        return next == '=' ? s_simple(lx, JP_LTE, 2) : s_simple(lx, JP_LT, 1);
    case '>':
        return next == '=' ? s_simple(lx, JP_GTE, 2) : s_simple(lx, JP_GT, 1);
    case '=':
        if (next == '=') {
            return s_simple(lx, JP_EQ, 2);
        }
        return s_error(lx, ANVIL_ESYNTAX, p, "unexpected '=' (did you mean '=='?)");
    case '"':
        return s_quoted(lx);
    case '\'':
        return s_raw(lx);
    case '`':
        return s_json_literal(lx);
    default:
        break;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        return s_number(lx);
    }
    if (jp_ident_start(c)) {
        size_t end = p + 1;
        while (end < lx->len && jp_ident_char(s[end])) {
            end++;
        }
        struct jp_token *t = NULL;
        int rc = s_push(lx, JP_UNQUOTED, p, &t);
        if (rc != ANVIL_OK) {
            return rc;
        }
        t->name = anvil_sv(s + p, end - p);
        lx->pos = end;
        return ANVIL_OK;
    }
    if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7F) {
        return s_error(lx, ANVIL_ESYNTAX, p, "unexpected character '%c'", c);
    }
    return s_error(lx, ANVIL_ESYNTAX, p, "unexpected byte 0x%02X", (unsigned char)c);
}

int jp_lex(struct anvil_arena *arena, struct anvil_allocator *allocator, const char *text, size_t len,
           struct jp_token *stack, size_t stack_cap, struct jp_token **tokens, size_t *count, struct anvil_diag *diag) {
    struct s_lexer lx = {text, len, 0, arena, allocator, diag, stack, 0, stack_cap, stack};
    int rc = ANVIL_OK;
    while (rc == ANVIL_OK) {
        while (lx.pos < len &&
               (text[lx.pos] == ' ' || text[lx.pos] == '\t' || text[lx.pos] == '\n' || text[lx.pos] == '\r')) {
            lx.pos++;
        }
        if (lx.pos >= len) {
            rc = s_push(&lx, JP_EOF, len, NULL);
            break;
        }
        rc = s_next(&lx);
    }
    if (rc != ANVIL_OK) {
        if (lx.tokens != stack) {
            anvil_mem_release(allocator, lx.tokens);
        }
        return rc;
    }
    *tokens = lx.tokens;
    *count = lx.count;
    return ANVIL_OK;
}
