/*
 * The Smithy IDL tokenizer. Token kinds, what each covers and the words of
 * every error follow Smithy's own tokenizer, so that syntax errors read the
 * same as Smithy's (its `loader/invalid` corpus checks the text). Strings
 * and text blocks are decoded here; a string without escapes or carriage
 * returns is a view of the source, anything else is copied into the arena.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/idl_internal.h"
#include "json/json_internal.h"

static const char *const s_names[] = {
    [ANVIL__TOK_SPACE] = "SPACE(' ')",
    [ANVIL__TOK_NEWLINE] = "NEWLINE('\\n')",
    [ANVIL__TOK_COMMA] = "COMMA(',')",
    [ANVIL__TOK_COMMENT] = "COMMENT('//')",
    [ANVIL__TOK_DOC_COMMENT] = "DOC_COMMENT('///')",
    [ANVIL__TOK_AT] = "AT('@')",
    [ANVIL__TOK_STRING] = "STRING('\"')",
    [ANVIL__TOK_TEXT_BLOCK] = "TEXT_BLOCK('\"\"\"')",
    [ANVIL__TOK_COLON] = "COLON(':')",
    [ANVIL__TOK_WALRUS] = "WALRUS(':=')",
    [ANVIL__TOK_IDENTIFIER] = "IDENTIFIER",
    [ANVIL__TOK_DOT] = "DOT('.')",
    [ANVIL__TOK_POUND] = "POUND('#')",
    [ANVIL__TOK_DOLLAR] = "DOLLAR('$')",
    [ANVIL__TOK_NUMBER] = "NUMBER",
    [ANVIL__TOK_LBRACE] = "LBRACE('{')",
    [ANVIL__TOK_RBRACE] = "RBRACE('}')",
    [ANVIL__TOK_LBRACKET] = "LBRACKET('[')",
    [ANVIL__TOK_RBRACKET] = "RBRACKET(']')",
    [ANVIL__TOK_LPAREN] = "LPAREN('(')",
    [ANVIL__TOK_RPAREN] = "RPAREN(')')",
    [ANVIL__TOK_EQUAL] = "EQUAL('=')",
    [ANVIL__TOK_EOF] = "EOF",
    [ANVIL__TOK_ERROR] = "ERROR",
};

const char *anvil__idl_tok_name(enum anvil__idl_tok tok) {
    return s_names[tok];
}

void anvil__idl_locate(const char *text, size_t len, size_t offset, size_t *line, size_t *column) {
    size_t l = 1, line_start = 0;
    if (offset > len) {
        offset = len;
    }
    for (size_t i = 0; i < offset; i++) { /* \n, \r\n and a lone \r each end a line, as the lexer reads them */
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
            l++;
            line_start = i + 1;
        }
    }
    size_t c = 1;
    for (size_t i = line_start; i < offset; i++) {
        c += ((unsigned char)text[i] & 0xC0) != 0x80; /* characters, as Smithy counts them */
    }
    *line = l;
    *column = c;
}

void anvil__idl_lexer_init(struct anvil__idl_lexer *lx, const char *text, size_t len, struct anvil_arena *arena) {
    memset(lx, 0, sizeof(*lx));
    lx->text = text;
    lx->len = len;
    lx->arena = arena;
    lx->tok = ANVIL__TOK_SPACE; /* not EOF: the first call reads */
    const char *cr = len ? memchr(text, '\r', len) : NULL;
    lx->first_cr = cr ? (size_t)(cr - text) : len;
}

static int s_peek(const struct anvil__idl_lexer *lx, size_t at) {
    return at < lx->len ? (unsigned char)lx->text[at] : -1;
}

static bool s_alpha(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool s_digit(int c) {
    return c >= '0' && c <= '9';
}

static void s_error(struct anvil__idl_lexer *lx, size_t at, const char *message) {
    lx->tok = ANVIL__TOK_ERROR;
    lx->error = message;
    lx->error_at = at;
}

/* An error message made here: formatted into the arena (a static one if that fails). */
static void s_errorf(struct anvil__idl_lexer *lx, size_t at, const char *fmt, ...) ANVIL_PRINTF(3, 4);

static void s_errorf(struct anvil__idl_lexer *lx, size_t at, const char *fmt, ...) {
    char buf[256];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    const char *copy = anvil_arena_strndup(lx->arena, buf,
                                           n < 0                     ? 0
                                           : (size_t)n < sizeof(buf) ? (size_t)n
                                                                     : sizeof(buf) - 1);
    if (!copy) {
        lx->oom = 1;
    }
    s_error(lx, at, copy ? copy : "out of memory");
}

/*
 * Appends at most `max_chars` characters of `text` for a message: UTF-8 kept whole, a line break as
 * `\n` or `\r`, a tab as `\t`, any other control or invisible character (C0, DEL, C1, U+2028,
 * U+2029, the byte order mark) as `\uXXXX`, a byte that is not UTF-8 as `\xHH`. What a message
 * quotes from a file then prints as one line of valid UTF-8. Returns the bytes of `text` used.
 */
size_t anvil__idl_quote(char *out, size_t cap, const char *text, size_t len, size_t max_chars) {
    size_t n = 0, i = 0;
    for (size_t chars = 0; i < len && chars < max_chars; chars++) {
        const unsigned char *p = (const unsigned char *)text + i;
        size_t seq = anvil__utf8_sequence(p, (const unsigned char *)text + len);
        unsigned cp = seq == 1   ? p[0]
                      : seq == 2 ? (unsigned)(p[0] & 0x1F) << 6 | (p[1] & 0x3F)
                      : seq == 3 ? (unsigned)(p[0] & 0x0F) << 12 | (unsigned)(p[1] & 0x3F) << 6 | (p[2] & 0x3F)
                                 : 0x10000;
        char piece[8];
        size_t k;
        if (seq == 0) {
            k = (size_t)snprintf(piece, sizeof(piece), "\\x%02X", p[0]);
            seq = 1;
        } else if (cp == '\n' || cp == '\r' || cp == '\t') {
            k = (size_t)snprintf(piece, sizeof(piece), "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
        } else if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF) {
            k = (size_t)snprintf(piece, sizeof(piece), "\\u%04X", cp);
        } else {
            memcpy(piece, p, seq);
            k = seq;
        }
        if (n + k >= cap) {
            break;
        }
        memcpy(out + n, piece, k);
        n += k;
        i += seq;
    }
    if (cap) {
        out[n < cap ? n : cap - 1] = '\0';
    }
    return i;
}

/* The character at `at` as Smithy quotes it in a message (one code point, or [EOF]), made printable. */
static void s_quote_char(const struct anvil__idl_lexer *lx, size_t at, char out[16]) {
    if (at >= lx->len) {
        memcpy(out, "[EOF]", 6);
        return;
    }
    anvil__idl_quote(out, 16, lx->text + at, lx->len - at, 1);
}

/* Bytes that may continue an identifier: letters, digits and '_'. */
const bool anvil__idl_word[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1,
    ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
    ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1,
    ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
    ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1,
    ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

/* The rest of an identifier from `p`; the bytes up to `p` are already part of it. */
static void s_identifier_rest(struct anvil__idl_lexer *lx, size_t p) {
    const unsigned char *text = (const unsigned char *)lx->text;
    while (p < lx->len && anvil__idl_word[text[p]]) {
        p++;
    }
    lx->end = lx->pos = p;
    lx->tok = ANVIL__TOK_IDENTIFIER;
}

/* An identifier starting with '_': at least one letter or digit must follow the underscores. */
ANVIL_NOINLINE static void s_underscore_identifier(struct anvil__idl_lexer *lx) {
    size_t p = lx->pos;
    while (s_peek(lx, p) == '_') {
        p++;
    }
    int c = s_peek(lx, p);
    if (!s_alpha(c) && !s_digit(c)) {
        char ch[16];
        s_quote_char(lx, p, ch);
        size_t line, column;
        anvil__idl_locate(lx->text, lx->len, p, &line, &column);
        lx->end = lx->pos = p;
        s_errorf(lx, p, "Syntax error at line %zu, column %zu: Expected a valid identifier character, but found '%s'",
                 line, column, ch);
        return;
    }
    s_identifier_rest(lx, p);
}

/*
 * Whether the well-formed number `text` is beyond the largest double. anvil keeps numbers as 64-bit
 * integers or doubles, as its JSON parser does; Smithy's Java loader would quietly make it infinity,
 * which no JSON AST can hold. Only a value of the order 1e308 needs strtod, and then the first 40
 * significant digits plus a sticky digit decide the rounding, so nothing is allocated.
 */
static bool s_overflows(const char *text, size_t len) {
    char buf[64];
    size_t i = text[0] == '-', kept = 0;
    bool seen = false, dropped = false;
    long long int_digits = 0, frac_zeros = 0, exp10 = 0;
    for (bool fraction = false; i < len && (s_digit(text[i]) || text[i] == '.'); i++) {
        if (text[i] == '.') {
            fraction = true;
            continue;
        }
        if (!seen && text[i] == '0') {
            frac_zeros += fraction;
            continue;
        }
        seen = true;
        int_digits += !fraction;
        if (kept < 40) {
            buf[kept++] = text[i];
        } else {
            dropped |= text[i] != '0';
        }
    }
    if (i < len) { /* the exponent */
        bool negative = text[++i] == '-';
        i += text[i] == '-' || text[i] == '+';
        for (; i < len; i++) {
            exp10 = exp10 < 1000000 ? exp10 * 10 + (text[i] - '0') : exp10;
        }
        exp10 = negative ? -exp10 : exp10;
    }
    if (!seen) {
        return false;
    }
    long long magnitude = (int_digits ? int_digits - 1 : -(frac_zeros + 1)) + exp10;
    if (magnitude != 308) {
        return magnitude > 308;
    }
    if (dropped) {
        buf[kept++] = '1';
    }
    memmove(buf + 2, buf + 1, kept - 1);
    buf[1] = '.';
    memcpy(buf + kept + 1, "e308", 4);
    double d;
    return anvil__json_strtod(NULL, buf, kept + 5, &d) != ANVIL_OK;
}

ANVIL_NOINLINE static void s_number(struct anvil__idl_lexer *lx) {
    size_t p = lx->pos;
    const char *why = NULL;
    if (s_peek(lx, p) == '-') {
        p++;
        if (!s_digit(s_peek(lx, p))) {
            why = "'-' must be followed by a digit";
        }
    }
    while (!why && s_digit(s_peek(lx, p))) {
        p++;
    }
    if (!why && s_peek(lx, p) == '.') {
        p++;
        size_t digits = p;
        while (s_digit(s_peek(lx, p))) {
            p++;
        }
        why = p == digits ? "'.' must be followed by a digit" : NULL;
    }
    if (!why && (s_peek(lx, p) == 'e' || s_peek(lx, p) == 'E')) {
        p++;
        if (s_peek(lx, p) == '+' || s_peek(lx, p) == '-') {
            p++;
        }
        size_t digits = p;
        while (s_digit(s_peek(lx, p))) {
            p++;
        }
        why = p == digits ? "'e', '+', and '-' must be followed by a digit" : NULL;
    }
    size_t start = lx->pos;
    if (!why && s_overflows(lx->text + start, p - start)) {
        why = "it is beyond the range of a double";
    }
    lx->end = lx->pos = p;
    if (why) {
        int shown = (int)(p - start < 64 ? p - start : 64);
        s_errorf(lx, start, "Invalid number '%.*s': %s", shown, lx->text + start, why);
        return;
    }
    lx->tok = ANVIL__TOK_NUMBER;
}

static bool s_hex(int c, unsigned *v) {
    if (s_digit(c)) {
        *v = (unsigned)(c - '0');
    } else if (c >= 'a' && c <= 'f') {
        *v = (unsigned)(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
        *v = (unsigned)(c - 'A' + 10);
    } else {
        return false;
    }
    return true;
}

static size_t s_put_utf8(char *out, unsigned cp) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/*
 * Expands escapes in `in` (line endings already LF) into `out`, which has
 * room for `in.len` bytes (escapes never grow the text). Returns the length,
 * or SIZE_MAX with `*why` set. A \u escape is one UTF-16 unit: a high and a
 * low surrogate in a row make one character; a lone surrogate, which UTF-8
 * cannot hold, becomes U+FFFD.
 */
static size_t s_unescape(struct anvil__idl_lexer *lx, struct anvil_str_view in, bool text_block, char *out) {
    size_t n = 0;
    for (size_t i = 0; i < in.len;) {
        unsigned char c = (unsigned char)in.ptr[i];
        if (c != '\\') {
            if (c < 0x20 && c != '\t' && c != '\n') {
                s_errorf(lx, lx->start, "Invalid string character: `\\u%04x`", c);
                return SIZE_MAX;
            }
            (void)text_block;
            out[n++] = (char)c;
            i++;
            continue;
        }
        if (i + 1 >= in.len) {
            s_errorf(lx, lx->start, "Invalid escape found in string: `\\`");
            return SIZE_MAX;
        }
        char e = in.ptr[i + 1];
        i += 2;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out[n++] = e;
            break;
        case 'b':
            out[n++] = '\b';
            break;
        case 'f':
            out[n++] = '\f';
            break;
        case 'n':
            out[n++] = '\n';
            break;
        case 'r':
            out[n++] = '\r';
            break;
        case 't':
            out[n++] = '\t';
            break;
        case '\n':
            break;
        case 'u': {
            unsigned cp = 0;
            for (int k = 0; k < 4; k++, i++) {
                unsigned v;
                if (i >= in.len) {
                    s_errorf(lx, lx->start, "Invalid unclosed unicode escape found in string");
                    return SIZE_MAX;
                }
                if (!s_hex((unsigned char)in.ptr[i], &v)) {
                    char ch[16];
                    anvil__idl_quote(ch, sizeof(ch), in.ptr + i, in.len - i, 1);
                    s_errorf(lx, lx->start, "Invalid unicode escape character: `%s`", ch);
                    return SIZE_MAX;
                }
                cp = cp << 4 | v;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && i + 5 < in.len + 0 && in.ptr[i] == '\\' && in.ptr[i + 1] == 'u') {
                unsigned lo = 0, v;
                bool ok = true;
                for (int k = 0; k < 4 && ok; k++) {
                    ok = s_hex((unsigned char)in.ptr[i + 2 + (size_t)k], &v);
                    lo = lo << 4 | v;
                }
                if (ok && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
            }
            if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            n += s_put_utf8(out + n, cp);
            break;
        }
        default: {
            char ch[16];
            size_t at = i - 1;
            anvil__idl_quote(ch, sizeof(ch), in.ptr + at, in.len - at, 1);
            s_errorf(lx, lx->start, "Invalid escape found in string: `\\%s`", ch);
            return SIZE_MAX;
        }
        }
    }
    return n;
}

/* Text with CR and CRLF turned into LF, in `buf` (room for `in.len`). */
static struct anvil_str_view s_lf(struct anvil_str_view in, char *buf) {
    size_t n = 0;
    for (size_t i = 0; i < in.len; i++) {
        if (in.ptr[i] == '\r') {
            buf[n++] = '\n';
            i += i + 1 < in.len && in.ptr[i + 1] == '\n';
        } else {
            buf[n++] = in.ptr[i];
        }
    }
    return anvil_sv(buf, n);
}

/*
 * A text block's lines without their common indentation (spaces only; the
 * closing line always counts) and trailing spaces, joined by LF, into `buf`.
 */
static size_t s_text_block(struct anvil_str_view in, char *buf) {
    size_t indent = SIZE_MAX;
    size_t start = 1; /* the first line is the empty one after the opening quotes */
    for (size_t at = start; at <= in.len;) {
        size_t end = anvil_sv_find_byte(in, at, '\n');
        bool last = end == SIZE_MAX;
        end = last ? in.len : end;
        size_t spaces = 0;
        while (at + spaces < end && in.ptr[at + spaces] == ' ') {
            spaces++;
        }
        if ((at + spaces < end || last) && spaces < indent) {
            indent = spaces;
        }
        at = end + 1;
    }
    size_t n = 0;
    for (size_t at = start; at <= in.len;) {
        size_t end = anvil_sv_find_byte(in, at, '\n');
        bool last = end == SIZE_MAX;
        end = last ? in.len : end;
        size_t from = at + (end - at < indent ? end - at : indent);
        size_t to = end;
        while (to > from && in.ptr[to - 1] == ' ') {
            to--;
        }
        memcpy(buf + n, in.ptr + from, to - from);
        n += to - from;
        if (!last) {
            buf[n++] = '\n';
        }
        at = end + 1;
    }
    return n;
}

ANVIL_NOINLINE static void s_string(struct anvil__idl_lexer *lx) {
    size_t p = lx->pos + 1;
    bool block = false;
    if (s_peek(lx, p) == '"') {
        if (s_peek(lx, p + 1) != '"') {
            lx->end = lx->pos = p + 1;
            lx->tok = ANVIL__TOK_STRING;
            lx->value = anvil_sv("", 0);
            return;
        }
        block = true;
        p += 2;
    }
    size_t body = p;
    bool plain = true;
    for (;;) {
        if (p >= lx->len) {
            p = lx->len; /* a backslash as the last byte stepped past it */
            size_t line, column;
            anvil__idl_locate(lx->text, lx->len, p, &line, &column);
            lx->end = lx->pos = p;
            s_errorf(lx, p, "Error parsing %s: Syntax error at line %zu, column %zu: Expected: '\"', but found '[EOF]'",
                     block ? "text block" : "quoted string", line, column);
            return;
        }
        char c = lx->text[p];
        if (c == '"' && (!block || (s_peek(lx, p + 1) == '"' && s_peek(lx, p + 2) == '"'))) {
            break;
        }
        if (c == '\\') {
            plain = false;
            p++;
        } else if (c == '\r' || (unsigned char)c < 0x20) {
            plain = false;
        }
        p++;
    }
    lx->end = lx->pos = p + (block ? 3 : 1);
    struct anvil_str_view raw = anvil_sv(lx->text + body, p - body);
    if (plain && !block) {
        lx->tok = ANVIL__TOK_STRING;
        lx->value = raw;
        return;
    }
    /* Two buffers the size of the body: line endings, then the block's layout, then escapes. */
    char *a = anvil_arena_alloc(lx->arena, raw.len + 1, 1);
    char *b = block ? anvil_arena_alloc(lx->arena, raw.len + 1, 1) : a;
    if (!a || !b) {
        lx->oom = 1;
        s_error(lx, lx->start, "out of memory");
        return;
    }
    struct anvil_str_view text = s_lf(raw, a);
    if (block) {
        if (text.len == 0) {
            s_error(lx, lx->start, "Error parsing text block: Text block is empty");
            return;
        }
        if (text.ptr[0] != '\n') {
            s_error(lx, lx->start, "Error parsing text block: Text block must start with a new line");
            return;
        }
        text = anvil_sv(b, s_text_block(text, b));
    }
    char *out = block ? a : b; /* unescape from one buffer into the other, or in place */
    size_t n = s_unescape(lx, text, block, out);
    if (n == SIZE_MAX) {
        char *msg = anvil_arena_alloc(lx->arena, strlen(lx->error) + 32, 1);
        if (msg) {
            sprintf(msg, "Error parsing %s: %s", block ? "text block" : "quoted string", lx->error);
            lx->error = msg;
        }
        return;
    }
    out[n] = '\0';
    lx->tok = block ? ANVIL__TOK_TEXT_BLOCK : ANVIL__TOK_STRING;
    lx->value = anvil_sv(out, n);
}

ANVIL_NOINLINE static void s_comment(struct anvil__idl_lexer *lx) {
    size_t p = lx->pos + 1;
    if (s_peek(lx, p) != '/') {
        lx->end = lx->pos = p;
        s_error(lx, lx->start, "Expected a '/' to follow '/' to form a comment.");
        return;
    }
    p++;
    lx->tok = ANVIL__TOK_COMMENT;
    if (s_peek(lx, p) == '/') {
        p++;
        lx->tok = ANVIL__TOK_DOC_COMMENT;
    }
    const char *nl = p < lx->len ? memchr(lx->text + p, '\n', lx->len - p) : NULL;
    p = nl ? (size_t)(nl - lx->text) + 1 : lx->len;
    /* A lone CR also ends the line (a file without CR before this line needs no look). */
    const char *cr = lx->first_cr < p ? memchr(lx->text + lx->pos, '\r', p - lx->pos) : NULL;
    if (cr && (size_t)(cr - lx->text) + 1 < p && cr[1] != '\n') {
        p = (size_t)(cr - lx->text) + 1;
    }
    lx->end = lx->pos = p;
}

/* Tokens of one byte (':' may start ':='), by byte; 0 for the others. */
const unsigned char anvil__idl_single[256] = {
    ['\n'] = ANVIL__TOK_NEWLINE, [','] = ANVIL__TOK_COMMA,  ['@'] = ANVIL__TOK_AT,     ['$'] = ANVIL__TOK_DOLLAR,
    ['.'] = ANVIL__TOK_DOT,      ['{'] = ANVIL__TOK_LBRACE, ['}'] = ANVIL__TOK_RBRACE, ['['] = ANVIL__TOK_LBRACKET,
    [']'] = ANVIL__TOK_RBRACKET, ['('] = ANVIL__TOK_LPAREN, [')'] = ANVIL__TOK_RPAREN, ['#'] = ANVIL__TOK_POUND,
    ['='] = ANVIL__TOK_EQUAL,    [':'] = ANVIL__TOK_COLON,
};

/* Everything but identifiers, spaces and one-byte tokens: kept out of the hot path (anvil__idl_next). */
void anvil__idl_next_other(struct anvil__idl_lexer *lx, int c) {
    switch (c) {
    case -1:
        lx->tok = ANVIL__TOK_EOF;
        lx->end = lx->pos;
        return;
    case '\r':
        lx->pos += s_peek(lx, lx->pos + 1) == '\n' ? 2 : 1;
        lx->end = lx->pos;
        lx->tok = ANVIL__TOK_NEWLINE;
        return;
    case '"':
        s_string(lx);
        return;
    case '/':
        s_comment(lx);
        return;
    case '_':
        s_underscore_identifier(lx);
        return;
    default:
        break;
    }
    if (c == '-' || s_digit(c)) {
        s_number(lx);
        return;
    }
    char ch[16];
    s_quote_char(lx, lx->pos, ch);
    size_t n =
        anvil__utf8_sequence((const unsigned char *)lx->text + lx->pos, (const unsigned char *)lx->text + lx->len);
    lx->end = lx->pos = lx->pos + (n ? n : 1);
    s_errorf(lx, lx->start, "Unexpected character: '%s'", ch);
}
