/* Generated C text made clang-format clean as a whole (anvil__c_rewrap): each line wider than 120 columns broken
 * (c_wrap.c), each comment wider reflowed, and a table's head too wide laid out with its rows. */
#include <stdint.h>
#include <string.h>

#include "codegen/codegen_internal.h"

#define S_LIMIT ANVIL__C_LIMIT

/* A comment line wider than the limit broken at its last blanks that fit, the rest on ` * ` lines. */
static int s_reflow(struct anvil_buf *out, const char *line, size_t len, size_t indent) {
    int rc = ANVIL_OK;
    bool star = line[indent] == '*'; /* a line inside a block comment: its own " * " continues */
    size_t lead = 0;                 /* the columns before `line` on the line being written */
    while (lead + len > S_LIMIT && rc == ANVIL_OK) {
        size_t cut = S_LIMIT - lead, least = lead ? 0 : indent + 2;
        while (cut > least && line[cut] != ' ') {
            cut--;
        }
        if (cut <= least) {
            /* No blank within the limit: the first one after it, as clang-format does. */
            for (cut = S_LIMIT - lead; cut < len && line[cut] != ' '; cut++) {
            }
            if (cut >= len) {
                break;
            }
        }
        size_t kept = cut; /* the blanks at the break go, on both sides, as clang-format drops them */
        while (kept > 0 && line[kept - 1] == ' ') {
            kept--;
        }
        while (cut + 1 < len && line[cut + 1] == ' ') {
            cut++;
        }
        rc = anvil_buf_append(out, line, kept);
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
        for (size_t i = 0; i < indent && rc == ANVIL_OK; i++) {
            rc = anvil_buf_append_byte(out, ' ');
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, star ? "* " : " * ") : rc;
        lead = indent + (star ? 2 : 3);
        line += cut + 1;
        len -= cut + 1;
    }
    return rc == ANVIL_OK ? anvil_buf_append(out, line, len) : rc;
}

/* The ways a table's head too wide for its line may be laid out (s_head_way), in the order clang-format's penalty
 * prefers them where their lines run past the limit alike: whole first (no break), then the others. */
enum s_head_way {
    S_HEAD_WHOLE,         /* on its line, past the limit: the rows where they are */
    S_HEAD_EQUALS,        /* `TYPE NAME[] =`, the '{' on the next line four columns in: the rows 4 further in */
    S_HEAD_NAME,          /* `TYPE`, then `NAME[] = {` four columns in: the rows 4 further in */
    S_HEAD_NAME_EQUALS,   /* `TYPE`, `NAME[] =` four columns in, the '{' eight: the rows 8 further in */
    S_HEAD_NAME_BRACKETS, /* an array's `TYPE`, `NAME` four columns in, `[] = {` eight: the rows 8 further in */
    S_HEAD_BRACKETS,      /* an array's `TYPE NAME`, then `[] = {` four columns in: the rows 4 further in */
    S_HEAD_WAYS
};

/*
 * A definition's head at the file's top, `TYPE NAME = {` or `TYPE NAME[] = {`
 * (`len` bytes, no newline), written with its newline in the way `way`;
 * `*shift` gets how many columns further in its rows then go. ANVIL_EINVAL,
 * nothing written, for any other line or a way that is not this head's.
 */
static int s_head_way(struct anvil_buf *out, const char *line, size_t len, enum s_head_way way, size_t *shift) {
    if (len < 8 || line[0] == ' ' || memcmp(line + len - 4, " = {", 4) != 0 || memchr(line, '\n', len) ||
        anvil__c_has(line, 0, len, '(') || anvil__c_has(line, 0, len, '"')) {
        return ANVIL_EINVAL;
    }
    size_t name = len - 4, brackets = 0;
    while (name > 0 && (line[name - 1] == ']' || line[name - 1] == '[')) {
        name--, brackets++;
    }
    while (name > 0 && anvil__c_ident_char(line[name - 1])) {
        name--;
    }
    size_t declarator = name; /* NAME with its '*'s */
    while (declarator > 0 && line[declarator - 1] == '*') {
        declarator--;
    }
    size_t type = declarator;
    while (type > 0 && line[type - 1] == ' ') {
        type--;
    }
    if (type == 0 || type == declarator || !anvil__c_ident_char(line[name]) || (brackets != 0 && brackets != 2) ||
        ((way == S_HEAD_NAME_BRACKETS || way == S_HEAD_BRACKETS) && brackets == 0)) {
        return ANVIL_EINVAL;
    }
    static const char *const after[S_HEAD_WAYS] = {
        "\n", "\n    {\n", "\n", "\n        {\n", "\n        [] = {\n", "\n    [] = {\n"};
    static const size_t cut[S_HEAD_WAYS] = {0, 2, 0, 2, 6, 6}; /* the bytes of the head's end that `after` replaces */
    static const size_t shifts[S_HEAD_WAYS] = {0, 4, 4, 8, 8, 4};
    bool before_name = way == S_HEAD_NAME || way == S_HEAD_NAME_EQUALS || way == S_HEAD_NAME_BRACKETS;
    *shift = shifts[way];
    int rc = before_name ? anvil_buf_append(out, line, type) : ANVIL_OK;
    rc = rc == ANVIL_OK && before_name ? anvil_buf_append_cstr(out, "\n    ") : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append(out, line + (before_name ? declarator : 0),
                                           len - cut[way] - (before_name ? declarator : 0))
                        : rc;
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, after[way]) : rc;
}

/* How far the lines of out[from...] run past the limit as clang-format weighs it: for each token that ends past the
 * limit, the columns it ends past it (a line of three tokens past it counts three times), all told. */
static size_t s_excess(const struct anvil_buf *out, size_t from) {
    size_t excess = 0, col = 0;
    const char *t = out->data;
    for (size_t i = from; i < out->len;) {
        if (t[i] == '\n' || t[i] == ' ') {
            col = t[i] == '\n' ? 0 : col + 1;
            i++;
            continue;
        }
        size_t end = i + 1; /* the token: a name or number, a literal, or one character */
        if (t[i] == '"' || t[i] == '\'') {
            end = anvil__c_skip_literal(t, out->len, i);
        } else if (anvil__c_ident_char(t[i])) {
            while (end < out->len && anvil__c_ident_char(t[end])) {
                end++;
            }
        }
        col += end - i;
        excess += col > S_LIMIT ? col - S_LIMIT : 0;
        i = end;
    }
    return excess;
}

/* A line of anvil__c_rewrap's text with its indent, whether it is code and whether it ends a table's rows. */
struct s_text_line {
    const char *ptr;
    size_t len, full, indent; /* `full` with its trailing blanks */
    bool newline, code, comment;
};

static struct s_text_line s_text_line(const char *text, size_t size) {
    struct s_text_line l = {text, 0, 0, 0, false, false, false};
    const char *end = memchr(text, '\n', size);
    l.len = l.full = end ? (size_t)(end - text) : size;
    l.newline = end != NULL;
    while (l.len > 0 && text[l.len - 1] == ' ') {
        l.len--; /* no trailing blanks (a comment's text may end a line with one), as clang-format keeps none */
    }
    while (l.indent < l.len && text[l.indent] == ' ') {
        l.indent++;
    }
    l.code = l.indent < l.len && text[l.indent] != '*' && text[l.indent] != '"' && text[l.indent] != '/';
    l.comment =
        l.indent + 1 < l.len && (memcmp(text + l.indent, "/*", 2) == 0 || memcmp(text + l.indent, "* ", 2) == 0);
    return l;
}

/* Whether `l` is past a table's rows: its `};` or a line at the file's top, a blank line or a comment (a table holds
 * none), but not a piece of a string split over lines. */
static bool s_rows_end(const struct s_text_line *l) {
    return (l->indent == 0 && l->len > 0) || (!l->code && (l->indent >= l->len || l->ptr[l->indent] != '"'));
}

/* Writes a line of the text `shift` columns further in: a line of code too wide broken (anvil__c_line), a comment
 * too wide reflowed, any other as it is. */
static int s_rewrap_line(struct anvil_buf *out, const struct s_text_line *l, size_t shift) {
    int rc = ANVIL_OK;
    shift = l->len > 0 ? shift : 0;
    if (l->len + shift > S_LIMIT && l->code) {
        /* (At the file's top, `TYPE NAME(PARAMS) {` or `...);` is a function's head.) */
        bool head = l->indent + shift == 0 && l->len > 3 && memchr(l->ptr, '(', l->len) &&
                    (memcmp(l->ptr + l->len - 3, ") {", 3) == 0 || memcmp(l->ptr + l->len - 2, ");", 2) == 0);
        rc = (head ? anvil__c_declaration : anvil__c_line)(out, (int)(l->indent + shift), l->ptr + l->indent,
                                                           l->len - l->indent);
        out->len -= rc == ANVIL_OK && !l->newline; /* no newline the text did not have */
        return rc;
    }
    for (size_t i = 0; i < shift && rc == ANVIL_OK; i++) {
        rc = anvil_buf_append_byte(out, ' ');
    }
    if (rc == ANVIL_OK && l->len > S_LIMIT && l->comment) {
        rc = s_reflow(out, l->ptr, l->len, l->indent);
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_append(out, l->ptr, l->len);
    }
    return rc == ANVIL_OK && l->newline ? anvil_buf_append_byte(out, '\n') : rc;
}

/*
 * A table's or struct's head at the file's top too wide for its line, with
 * its rows (the lines of `rows` up to the table's end): written in the way
 * whose lines, rows moved as that way moves them and broken again, run
 * least past the limit (a column past it outweighs any break in
 * clang-format's penalty), the first of s_head_way's order on a tie; `*taken`
 * gets the bytes of `rows` written with it. False, nothing written, for any
 * other line (or when memory ran out: `*rc` says so).
 */
static bool s_table(struct anvil_buf *out, const struct s_text_line *head, const char *rows, size_t rows_len,
                    size_t *taken, int *rc) {
    if (head->len <= S_LIMIT) {
        return false;
    }
    struct anvil_buf tried, best;
    anvil_buf_init(&tried, NULL, 0);
    anvil_buf_init(&best, NULL, 0);
    bool found = false;
    size_t best_excess = SIZE_MAX;
    for (int way = 0; way < S_HEAD_WAYS && *rc == ANVIL_OK; way++) {
        size_t shift = 0, at = 0;
        tried.len = 0;
        int got = s_head_way(&tried, head->ptr, head->len, (enum s_head_way)way, &shift);
        while (got == ANVIL_OK && at < rows_len) {
            struct s_text_line l = s_text_line(rows + at, rows_len - at);
            if (s_rows_end(&l)) {
                break;
            }
            got = s_rewrap_line(&tried, &l, shift);
            at += l.full + l.newline;
        }
        if (got == ANVIL_EINVAL) {
            continue; /* not a head, or not a way of this one */
        }
        *rc = got;
        size_t excess = s_excess(&tried, 0);
        if (got == ANVIL_OK && excess < best_excess) {
            struct anvil_buf swap = best;
            best = tried, tried = swap;
            found = true, best_excess = excess, *taken = at;
        }
    }
    if (found && *rc == ANVIL_OK) {
        *rc = anvil_buf_append(out, best.data, best.len);
    }
    anvil_buf_clean_up(&tried);
    anvil_buf_clean_up(&best);
    return found && *rc == ANVIL_OK;
}

int anvil__c_rewrap(struct anvil_buf *out, size_t from) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    int rc = anvil_buf_append(&text, out->data + from, out->len - from);
    out->len = from;
    for (size_t at = 0; at < text.len && rc == ANVIL_OK;) {
        struct s_text_line l = s_text_line(text.data + at, text.len - at);
        at += l.full + l.newline;
        size_t rows = 0;
        if (s_table(out, &l, text.data + at, text.len - at, &rows, &rc)) {
            at += rows; /* the head and its rows, written */
        } else {
            rc = rc == ANVIL_OK ? s_rewrap_line(out, &l, 0) : rc;
        }
    }
    anvil_buf_clean_up(&text);
    return rc;
}
