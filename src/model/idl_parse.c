/*
 * The Smithy IDL parser: recursive descent over idl_lex.c's tokens into one
 * `struct anvil__idl_file`, handing each shape statement and `apply` to a
 * sink as soon as it is read, so that a file's statements are never held
 * all at once (the tree of one statement is small). It follows the order of Smithy's own loader step
 * by step (which whitespace each production skips, when doc comments are
 * taken, which token an error names), because Smithy's `loader/invalid`
 * corpus checks the messages and the ABNF alone lags the loader.
 *
 * Errors unwind with longjmp: everything is allocated in the arena, so there
 * is nothing to free on the way out. The first syntax error stops the file.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/idl_internal.h"
#include "model/model_internal.h"

struct s_parser {
    struct anvil__idl_lexer lx;
    /* Where the current part goes: the file arena for the sections before the shapes, then the statement
     * arena, emptied after each statement has gone to the sink. */
    struct anvil_arena *arena;
    struct anvil_arena *file_arena, *statement_arena;
    const struct anvil__idl_sink *sink;
    struct anvil__idl_file *file;
    struct anvil_diag *diag;
    jmp_buf fail;
    size_t depth;
    /* Doc comment lines read and not yet claimed. */
    struct anvil_str_view *docs;
    size_t doc_count, doc_cap;
    size_t shape_cap, apply_cap, note_cap, use_cap, meta_cap;
    /* The trait list being read, reused: each list is then kept at its exact size. */
    struct anvil__idl_trait *trait_stack;
    size_t trait_stack_cap;
};

#define S_NORETURN _Noreturn

static S_NORETURN void s_nomem(struct s_parser *p) {
    anvil_diag_set(p->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    longjmp(p->fail, ANVIL_ENOMEM);
}

static void *s_alloc(struct s_parser *p, size_t size) {
    void *mem = anvil_arena_alloc(p->arena, size ? size : 1, 0);
    if (!mem) {
        s_nomem(p);
    }
    return mem;
}

/* Room for one more item in an array in `arena` (doubling; the old block is left to the arena). */
static void *s_push_in(struct s_parser *p, struct anvil_arena *arena, void *items, size_t count, size_t *cap,
                       size_t size) {
    if (count < *cap) {
        return items;
    }
    size_t grown = *cap ? *cap * 2 : 4;
    if (grown > SIZE_MAX / size) {
        s_nomem(p);
    }
    void *bigger = anvil_arena_alloc(arena, grown * size, 0);
    if (!bigger) {
        s_nomem(p);
    }
    if (count) {
        memcpy(bigger, items, count * size);
    }
    *cap = grown;
    return bigger;
}

#define S_PUSH_IN(p, arena, array, count, cap)                                                                         \
    ((array) = s_push_in((p), (arena), (array), (count), (cap), sizeof(*(array))), &(array)[(count)++])

/* In the current part's arena. */
#define S_PUSH(p, array, count, cap) S_PUSH_IN((p), (p)->arena, array, count, cap)

/*
 * Stops the parse with `message` at byte `at`: a syntax error reads "[SHAPE: ]Syntax error at line L,
 * column C: MESSAGE" as Smithy's ModelSyntaxException does; otherwise (Smithy's SourceException, a
 * well-formed but invalid value) the message stands alone. Line and column go in the diag either way.
 */
static S_NORETURN void s_raise(struct s_parser *p, struct anvil_str_view shape, size_t at, bool syntax,
                               const char *message) {
    if (p->lx.oom) {
        s_nomem(p);
    }
    size_t line, column;
    anvil__idl_locate(p->lx.text, p->lx.len, at, &line, &column);
    if (!syntax) {
        anvil_diag_set(p->diag, ANVIL_ESYNTAX, line, column, at, "%s", message);
    } else if (shape.len) {
        anvil_diag_set(p->diag, ANVIL_ESYNTAX, line, column, at, "%.*s: Syntax error at line %zu, column %zu: %s",
                       (int)shape.len, shape.ptr, line, column, message);
    } else {
        anvil_diag_set(p->diag, ANVIL_ESYNTAX, line, column, at, "Syntax error at line %zu, column %zu: %s", line,
                       column, message);
    }
    longjmp(p->fail, ANVIL_ESYNTAX);
}

static S_NORETURN void s_fail_at(struct s_parser *p, struct anvil_str_view shape, size_t at, const char *fmt, ...)
    ANVIL_PRINTF(4, 5);

static S_NORETURN void s_fail_at(struct s_parser *p, struct anvil_str_view shape, size_t at, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    s_raise(p, shape, at, true, message);
}

#define s_fail(p, ...) s_fail_at((p), anvil_sv("", 0), (p)->lx.start, __VA_ARGS__)

static S_NORETURN void s_fail_value(struct s_parser *p, size_t at, const char *fmt, ...) ANVIL_PRINTF(3, 4);

/* A well-formed but invalid value: no "Syntax error at" prefix. */
static S_NORETURN void s_fail_value(struct s_parser *p, size_t at, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    s_raise(p, anvil_sv("", 0), at, false, message);
}

/* ---- tokens ---- */

ANVIL_NOINLINE static void s_take_doc(struct s_parser *p) {
    size_t start = p->lx.start + 3, end = p->lx.end;
    if (start < end && p->lx.text[start] == ' ') {
        start++;
    }
    if (end > start && p->lx.text[end - 1] == '\n') {
        end--;
    }
    if (end > start && p->lx.text[end - 1] == '\r') {
        end--;
    }
    *S_PUSH_IN(p, p->file_arena, p->docs, p->doc_count, &p->doc_cap) =
        anvil_sv(p->lx.text + start, end > start ? end - start : 0);
}

static void s_next(struct s_parser *p) {
    anvil__idl_next(&p->lx);
    if (p->lx.tok == ANVIL__TOK_DOC_COMMENT) {
        s_take_doc(p);
    }
}

static enum anvil__idl_tok s_tok(const struct s_parser *p) {
    return p->lx.tok;
}

static struct anvil_str_view s_lexeme(const struct s_parser *p) {
    return anvil_sv(p->lx.text + p->lx.start, p->lx.end - p->lx.start);
}

static bool s_is_word(const struct s_parser *p, struct anvil_str_view word) {
    return s_tok(p) == ANVIL__TOK_IDENTIFIER && anvil_sv_eq(s_lexeme(p), word);
}

/* Whether the token is the identifier `word` (a string literal). */
#define s_is(p, word) s_is_word((p), ANVIL_SV(word))

static bool s_whitespace(enum anvil__idl_tok tok) {
    return tok == ANVIL__TOK_SPACE || tok == ANVIL__TOK_NEWLINE || tok == ANVIL__TOK_COMMA || tok == ANVIL__TOK_COMMENT;
}

/* How Smithy shows the current token: `IDENTIFIER('with')`, `NEWLINE('\n')`, `EOF`. */
static void s_found(const struct s_parser *p, char *out, size_t size) {
    enum anvil__idl_tok tok = s_tok(p);
    if (tok == ANVIL__TOK_EOF) {
        snprintf(out, size, "EOF");
        return;
    }
    const char *name = anvil__idl_tok_name(tok);
    size_t name_len = strcspn(name, "(");
    struct anvil_str_view lex = s_lexeme(p);
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, size);
    (void)anvil_buf_appendf(&buf, "%.*s('", (int)name_len, name);
    char text[512];
    anvil__idl_quote(text, sizeof(text), lex.ptr, lex.len, 80);
    (void)anvil_buf_append_cstr(&buf, text);
    (void)anvil_buf_append_cstr(&buf, "')");
    struct anvil_str_view v = anvil_buf_view(&buf);
    snprintf(out, size, "%.*s", (int)v.len, v.ptr ? v.ptr : "");
    anvil_buf_clean_up(&buf);
}

static S_NORETURN void s_unexpected(struct s_parser *p, const enum anvil__idl_tok *want, size_t n) {
    if (s_tok(p) == ANVIL__TOK_ERROR) {
        s_fail(p, "%s", p->lx.error);
    }
    char found[256];
    s_found(p, found, sizeof(found));
    if (n == 1) {
        s_fail(p, "Expected %s but found %s", anvil__idl_tok_name(want[0]), found);
    }
    char list[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", anvil__idl_tok_name(want[i]));
        used += k > 0 ? (size_t)k : 0;
        used = used < sizeof(list) ? used : sizeof(list) - 1;
    }
    s_fail(p, "Expected one of %s; but found %s", list, found);
}

static void s_expect(struct s_parser *p, enum anvil__idl_tok tok) {
    if (s_tok(p) != tok) {
        s_unexpected(p, &tok, 1);
    }
}

static enum anvil__idl_tok s_expect_any(struct s_parser *p, const enum anvil__idl_tok *want, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s_tok(p) == want[i]) {
            return want[i];
        }
    }
    s_unexpected(p, want, n);
}

static void s_skip_spaces(struct s_parser *p) {
    while (s_tok(p) == ANVIL__TOK_SPACE) {
        s_next(p);
    }
}

static void s_skip_ws(struct s_parser *p) {
    while (s_whitespace(s_tok(p))) {
        s_next(p);
    }
}

static void s_skip_ws_docs(struct s_parser *p) {
    while (s_whitespace(s_tok(p)) || s_tok(p) == ANVIL__TOK_DOC_COMMENT) {
        s_next(p);
    }
}

static void s_expect_spaces(struct s_parser *p) {
    s_expect(p, ANVIL__TOK_SPACE);
    s_skip_spaces(p);
}

static void s_expect_whitespace(struct s_parser *p) {
    if (!s_whitespace(s_tok(p))) {
        char found[256];
        s_found(p, found, sizeof(found));
        s_fail(p, "Expected one or more whitespace characters, but found %s", found);
    }
    s_skip_ws_docs(p);
}

/* ---- events found while reading ---- */

static void s_note(struct s_parser *p, enum anvil_severity severity, const char *event_id, struct anvil_str_view shape,
                   const char *fmt, ...) ANVIL_PRINTF(5, 6);

static void s_note(struct s_parser *p, enum anvil_severity severity, const char *event_id, struct anvil_str_view shape,
                   const char *fmt, ...) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, 1 << 20);
    va_list args;
    va_start(args, fmt);
    int rc = anvil_buf_vappendf(&buf, fmt, args);
    va_end(args);
    struct anvil_str_view text = anvil_buf_view(&buf);
    char *message = rc == ANVIL_OK ? anvil_arena_strndup(p->file_arena, text.ptr ? text.ptr : "", text.len) : NULL;
    char *shape_id = message ? anvil_arena_strndup(p->file_arena, shape.ptr ? shape.ptr : "", shape.len) : NULL;
    anvil_buf_clean_up(&buf);
    if (!shape_id) {
        s_nomem(p);
    }
    struct anvil__idl_file *f = p->file;
    struct anvil__idl_note *n = S_PUSH_IN(p, p->file_arena, f->notes, f->note_count, &p->note_cap);
    n->severity = severity;
    n->event_id = event_id;
    n->message = message;
    n->shape_id = anvil_sv(shape_id, shape.len);
}

/*
 * The pending doc comment lines (consumed) as a DOCS node, or NULL when there are none. The lines stay views
 * of the text: the assembler joins them once, where the string is kept.
 */
static const struct anvil__idl_node *s_take_docs(struct s_parser *p) {
    if (p->doc_count == 0) {
        return NULL;
    }
    struct anvil_str_view *lines = s_alloc(p, p->doc_count * sizeof(*lines));
    memcpy(lines, p->docs, p->doc_count * sizeof(*lines));
    struct anvil__idl_node *out = s_alloc(p, sizeof(*out));
    memset(out, 0, sizeof(*out));
    out->kind = ANVIL__NODE_DOCS;
    out->u.lines = lines;
    out->count = p->doc_count;
    p->doc_count = 0;
    return out;
}

static void s_bad_docs(struct s_parser *p, const struct anvil__idl_node *docs) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 1 << 20);
    for (size_t i = 0; docs && i < docs->count; i++) {
        (void)anvil_buf_appendf(&text, "%s%.*s", i ? "\n" : "", (int)docs->u.lines[i].len, docs->u.lines[i].ptr);
    }
    struct anvil_str_view v = anvil_buf_view(&text);
    s_note(p, ANVIL_SEVERITY_WARNING, "Model.BadDocumentationComment", anvil_sv("", 0),
           "Found documentation comments ('///') attached to nothing. Documentation comments must appear on their "
           "own lines, directly before shapes and members, and before any traits.%s%.*s",
           docs ? " The invalid comments were: " : "", (int)v.len, v.ptr ? v.ptr : "");
    anvil_buf_clean_up(&text);
}

static void s_clear_docs(struct s_parser *p) {
    const struct anvil__idl_node *docs = s_take_docs(p);
    if (docs) {
        s_bad_docs(p, docs);
    }
}

/* A line break: spaces, then a newline, a comment or the end of the file. */
static void s_br(struct s_parser *p) {
    s_skip_spaces(p);
    s_clear_docs(p);
    switch (s_tok(p)) {
    case ANVIL__TOK_NEWLINE:
    case ANVIL__TOK_COMMENT:
    case ANVIL__TOK_DOC_COMMENT:
        s_next(p);
        s_skip_ws(p);
        break;
    case ANVIL__TOK_EOF:
        break;
    default: {
        char found[256];
        s_found(p, found, sizeof(found));
        s_fail(p, "Expected a line break, but found %s", found);
    }
    }
}

static void s_deeper(struct s_parser *p) {
    if (++p->depth > ANVIL__IDL_MAX_DEPTH) {
        s_fail(p, "Parser exceeded maximum allowed depth of %d", ANVIL__IDL_MAX_DEPTH);
    }
}

/* ---- shape ids ---- */

static struct anvil__idl_ref s_ref_from(const struct s_parser *p, size_t start, size_t end, bool plain) {
    struct anvil__idl_ref ref = {anvil_sv(p->lx.text + start, end - start), start, plain};
    return ref;
}

/* Namespace: Identifier *("." Identifier). Returns where it ends. */
static size_t s_skip_namespace(struct s_parser *p) {
    s_expect(p, ANVIL__TOK_IDENTIFIER);
    size_t end = p->lx.end;
    s_next(p);
    while (s_tok(p) == ANVIL__TOK_DOT) {
        s_next(p);
        s_expect(p, ANVIL__TOK_IDENTIFIER);
        end = p->lx.end;
        s_next(p);
    }
    return end;
}

/* Identifier ["$" Identifier] */
static size_t s_skip_relative_root(struct s_parser *p) {
    s_expect(p, ANVIL__TOK_IDENTIFIER);
    size_t end = p->lx.end;
    s_next(p);
    if (s_tok(p) == ANVIL__TOK_DOLLAR) {
        s_next(p);
        s_expect(p, ANVIL__TOK_IDENTIFIER);
        end = p->lx.end;
        s_next(p);
    }
    return end;
}

static struct anvil__idl_ref s_shape_id(struct s_parser *p) {
    size_t start = p->lx.start;
    size_t first = p->lx.end; /* the first identifier's end (s_skip_namespace insists on one) */
    size_t end = s_skip_namespace(p);
    if (end != first && s_tok(p) != ANVIL__TOK_POUND) {
        /* `a.b` is a namespace with no name: Smithy's shape id parser refuses what it would resolve to. */
        int n = (int)(end - start < 200 ? end - start : 200);
        s_fail_value(p, start, "Invalid shape ID: `%.*s` (a namespace needs `#` and a name after it)", n,
                     p->lx.text + start);
    }
    if (s_tok(p) == ANVIL__TOK_DOLLAR || s_tok(p) == ANVIL__TOK_POUND) {
        s_next(p);
        end = s_skip_relative_root(p);
    }
    return s_ref_from(p, start, end, end == first);
}

static struct anvil__idl_ref s_absolute_id(struct s_parser *p) {
    size_t start = p->lx.start;
    s_skip_namespace(p);
    s_expect(p, ANVIL__TOK_POUND);
    s_next(p);
    size_t end = s_skip_relative_root(p);
    return s_ref_from(p, start, end, false);
}

/* ---- node values ---- */

static void s_node(struct s_parser *p, struct anvil__idl_node *out);

static void s_identifier_node(struct anvil_str_view id, size_t at, struct anvil__idl_node *out) {
    memset(out, 0, sizeof(*out));
    out->at = at;
    out->text = id;
    if (anvil_sv_eq(id, ANVIL_SV("true"))) {
        out->kind = ANVIL__NODE_TRUE;
    } else if (anvil_sv_eq(id, ANVIL_SV("false"))) {
        out->kind = ANVIL__NODE_FALSE;
    } else if (anvil_sv_eq(id, ANVIL_SV("null"))) {
        out->kind = ANVIL__NODE_NULL;
    } else {
        out->kind = ANVIL__NODE_SHAPE_ID;
    }
}

/*
 * A set of names for duplicate checks (object keys, members, enum members): a few are scanned, many go through
 * a hash set built from the items (`count` of them, `stride` bytes apart, the name `offset` bytes in).
 */
struct s_keys {
    struct anvil_str_view *slots;
    size_t mask;
};

static struct anvil_str_view s_name_at(const void *items, size_t stride, size_t offset, size_t i) {
    struct anvil_str_view name;
    memcpy(&name, (const char *)items + i * stride + offset, sizeof(name));
    return name;
}

/* Whether `key` is among the items' names; it is then taken as one of them. */
static bool s_seen(struct s_parser *p, struct s_keys *keys, const void *items, size_t count, size_t stride,
                   size_t offset, struct anvil_str_view key) {
    if (count < 16) {
        for (size_t i = 0; i < count; i++) {
            if (anvil_sv_eq(s_name_at(items, stride, offset, i), key)) {
                return true;
            }
        }
        return false;
    }
    if (!keys->slots || count * 2 > keys->mask) {
        size_t size = 64;
        while (size < count * 4) {
            size *= 2;
        }
        keys->slots = s_alloc(p, size * sizeof(*keys->slots));
        memset(keys->slots, 0, size * sizeof(*keys->slots));
        keys->mask = size - 1;
        for (size_t i = 0; i < count; i++) {
            struct anvil_str_view name = s_name_at(items, stride, offset, i);
            size_t h = anvil_json_hash(name.ptr, name.len) & keys->mask;
            while (keys->slots[h].ptr) {
                h = (h + 1) & keys->mask;
            }
            keys->slots[h] = name.ptr ? name : anvil_sv("", 0);
        }
    }
    size_t h = anvil_json_hash(key.ptr, key.len) & keys->mask;
    for (; keys->slots[h].ptr; h = (h + 1) & keys->mask) {
        if (anvil_sv_eq(keys->slots[h], key)) {
            return true;
        }
    }
    keys->slots[h] = key.ptr ? key : anvil_sv("", 0);
    return false;
}

static bool s_key_seen(struct s_parser *p, struct s_keys *keys, const struct anvil__idl_entry *entries, size_t count,
                       struct anvil_str_view key) {
    return s_seen(p, keys, entries, count, sizeof(*entries), offsetof(struct anvil__idl_entry, key), key);
}

static struct anvil_str_view s_key_text(const struct s_parser *p) {
    return s_tok(p) == ANVIL__TOK_STRING ? p->lx.value : s_lexeme(p);
}

static void s_object(struct s_parser *p, struct anvil__idl_node *out) {
    static const enum anvil__idl_tok keys[] = {ANVIL__TOK_RBRACE, ANVIL__TOK_STRING, ANVIL__TOK_IDENTIFIER};
    out->kind = ANVIL__NODE_OBJECT;
    s_next(p);
    s_skip_ws_docs(p);
    s_deeper(p);
    size_t cap = 0;
    struct s_keys seen = {NULL, 0};
    while (s_tok(p) != ANVIL__TOK_EOF) {
        if (s_expect_any(p, keys, 3) == ANVIL__TOK_RBRACE) {
            break;
        }
        struct anvil_str_view key = s_key_text(p);
        size_t key_at = p->lx.start;
        s_next(p);
        s_skip_ws_docs(p);
        s_expect(p, ANVIL__TOK_COLON);
        s_next(p);
        s_skip_ws_docs(p);
        struct anvil__idl_node value;
        s_node(p, &value);
        if (s_key_seen(p, &seen, out->u.entries, out->count, key)) {
            s_fail_value(p, key_at, "Duplicate member: '%.*s'", (int)key.len, key.ptr);
        }
        struct anvil__idl_entry *e = S_PUSH(p, out->u.entries, out->count, &cap);
        e->key = key;
        e->value = value;
        s_skip_ws_docs(p);
    }
    s_expect(p, ANVIL__TOK_RBRACE);
    s_next(p);
    p->depth--;
}

static void s_array(struct s_parser *p, struct anvil__idl_node *out) {
    s_deeper(p);
    out->kind = ANVIL__NODE_ARRAY;
    s_next(p);
    s_skip_ws_docs(p);
    size_t cap = 0;
    while (s_tok(p) != ANVIL__TOK_RBRACKET) {
        struct anvil__idl_node *item = S_PUSH(p, out->u.items, out->count, &cap);
        s_node(p, item);
        s_skip_ws_docs(p);
    }
    s_next(p);
    p->depth--;
}

static void s_node(struct s_parser *p, struct anvil__idl_node *out) {
    static const enum anvil__idl_tok want[] = {ANVIL__TOK_STRING,     ANVIL__TOK_TEXT_BLOCK, ANVIL__TOK_NUMBER,
                                               ANVIL__TOK_IDENTIFIER, ANVIL__TOK_LBRACE,     ANVIL__TOK_LBRACKET};
    enum anvil__idl_tok tok = s_expect_any(p, want, 6);
    memset(out, 0, sizeof(*out));
    out->at = p->lx.start;
    switch (tok) {
    case ANVIL__TOK_STRING:
    case ANVIL__TOK_TEXT_BLOCK:
        out->kind = ANVIL__NODE_STRING;
        out->text = p->lx.value;
        s_next(p);
        return;
    case ANVIL__TOK_NUMBER:
        out->kind = ANVIL__NODE_NUMBER;
        out->text = s_lexeme(p);
        s_next(p);
        return;
    case ANVIL__TOK_IDENTIFIER: {
        size_t at = p->lx.start;
        struct anvil__idl_ref id = s_shape_id(p);
        s_identifier_node(id.text, at, out);
        return;
    }
    case ANVIL__TOK_LBRACE:
        s_object(p, out);
        return;
    default:
        s_array(p, out);
        return;
    }
}

/* ---- traits ---- */

static bool s_definitely_shape_id(struct anvil_str_view id) {
    for (size_t i = 0; i < id.len; i++) {
        if (id.ptr[i] == '.' || id.ptr[i] == '$' || id.ptr[i] == '#') {
            return true;
        }
    }
    return false;
}

/* `@t(k: v, ...)`: the object after its first key. */
static void s_structured(struct s_parser *p, struct anvil_str_view first, size_t at, struct anvil__idl_node *out) {
    static const enum anvil__idl_tok keys[] = {ANVIL__TOK_IDENTIFIER, ANVIL__TOK_STRING};
    s_deeper(p);
    memset(out, 0, sizeof(*out));
    out->kind = ANVIL__NODE_OBJECT;
    out->at = at;
    size_t cap = 0;
    struct s_keys seen = {NULL, 0};
    struct anvil__idl_entry *e = S_PUSH(p, out->u.entries, out->count, &cap);
    e->key = first;
    s_node(p, &e->value);
    s_skip_ws_docs(p);
    while (s_tok(p) != ANVIL__TOK_RPAREN) {
        s_expect_any(p, keys, 2);
        struct anvil_str_view key = s_key_text(p);
        size_t key_at = p->lx.start;
        s_next(p);
        s_skip_ws_docs(p);
        s_expect(p, ANVIL__TOK_COLON);
        s_next(p);
        s_skip_ws_docs(p);
        struct anvil__idl_node value;
        s_node(p, &value);
        if (s_key_seen(p, &seen, out->u.entries, out->count, key)) {
            s_fail_value(p, key_at, "Duplicate member of trait: '%.*s'", (int)key.len, key.ptr);
        }
        e = S_PUSH(p, out->u.entries, out->count, &cap);
        e->key = key;
        e->value = value;
        s_skip_ws_docs(p);
    }
    p->depth--;
}

static void s_trait_body(struct s_parser *p, struct anvil__idl_node *out) {
    static const enum anvil__idl_tok want[] = {ANVIL__TOK_LBRACE, ANVIL__TOK_LBRACKET, ANVIL__TOK_TEXT_BLOCK,
                                               ANVIL__TOK_STRING, ANVIL__TOK_NUMBER,   ANVIL__TOK_IDENTIFIER};
    enum anvil__idl_tok tok = s_expect_any(p, want, 6);
    size_t at = p->lx.start;
    switch (tok) {
    case ANVIL__TOK_LBRACE:
    case ANVIL__TOK_LBRACKET:
    case ANVIL__TOK_TEXT_BLOCK:
    case ANVIL__TOK_NUMBER:
        s_node(p, out);
        s_skip_ws_docs(p);
        return;
    case ANVIL__TOK_STRING: {
        struct anvil_str_view value = p->lx.value;
        s_next(p);
        s_skip_ws_docs(p);
        if (s_tok(p) == ANVIL__TOK_COLON) {
            s_next(p);
            s_skip_ws_docs(p);
            s_structured(p, value, at, out);
            return;
        }
        memset(out, 0, sizeof(*out));
        out->kind = ANVIL__NODE_STRING;
        out->text = value;
        out->at = at;
        return;
    }
    default: {
        struct anvil__idl_ref id = s_shape_id(p);
        s_skip_ws_docs(p);
        if (s_tok(p) == ANVIL__TOK_RPAREN || s_definitely_shape_id(id.text)) {
            s_identifier_node(id.text, at, out);
            return;
        }
        s_expect(p, ANVIL__TOK_COLON);
        s_next(p);
        s_skip_ws_docs(p);
        s_structured(p, id.text, at, out);
        return;
    }
    }
}

struct s_traits {
    struct anvil__idl_trait *items;
    size_t count, cap;
    /* Where the list grows: the parser's reused trait stack lives as long as the file. */
    struct anvil_arena *arena;
};

static void s_trait(struct s_parser *p, struct s_traits *traits) {
    size_t at = p->lx.start;
    s_expect(p, ANVIL__TOK_AT);
    s_next(p);
    struct anvil__idl_trait *t =
        S_PUSH_IN(p, traits->arena ? traits->arena : p->arena, traits->items, traits->count, &traits->cap);
    memset(t, 0, sizeof(*t));
    t->id = s_shape_id(p);
    t->value.at = at;
    if (anvil_sv_find_byte(t->id.text, 0, '$') != SIZE_MAX) {
        /* Smithy's parser takes it and its model cannot hold it; the JSON AST loader says "Invalid shape ID". */
        s_fail_value(p, t->id.at, "Invalid trait shape ID `%.*s`: a trait is a shape, never a member",
                     (int)(t->id.text.len < 200 ? t->id.text.len : 200), t->id.text.ptr);
    }
    if (s_tok(p) != ANVIL__TOK_LPAREN) {
        t->annotation = true;
        return;
    }
    s_next(p);
    s_skip_ws_docs(p);
    if (s_tok(p) == ANVIL__TOK_RPAREN) {
        s_next(p);
        t->annotation = true;
        return;
    }
    struct anvil__idl_node value;
    s_trait_body(p, &value);
    traits->items[traits->count - 1].value = value; /* s_trait_body may not move items, but keep it plain */
    s_skip_ws_docs(p);
    s_expect(p, ANVIL__TOK_RPAREN);
    s_next(p);
}

static void s_traits(struct s_parser *p, struct s_traits *traits) {
    while (s_tok(p) == ANVIL__TOK_AT) {
        s_trait(p, traits);
        s_skip_ws_docs(p);
    }
}

static void s_add_doc_trait(struct s_parser *p, struct s_traits *traits, const struct anvil__idl_node *docs,
                            size_t at) {
    struct anvil__idl_trait *t =
        S_PUSH_IN(p, traits->arena ? traits->arena : p->arena, traits->items, traits->count, &traits->cap);
    memset(t, 0, sizeof(*t));
    t->id.text = anvil_sv_from_cstr("smithy.api#documentation");
    t->id.at = at;
    t->value = *docs;
    t->value.at = at;
    t->doc_comment = true;
}

/* Doc comments, then traits, before a shape or member; the docs become a documentation trait. */
static void s_docs_and_traits(struct s_parser *p, bool member, struct s_traits *traits) {
    memset(traits, 0, sizeof(*traits));
    traits->items = p->trait_stack;
    traits->cap = p->trait_stack_cap;
    traits->arena = p->file_arena;
    s_skip_ws(p);
    const struct anvil__idl_node *docs = NULL;
    size_t docs_at = p->lx.start;
    if (s_tok(p) == ANVIL__TOK_DOC_COMMENT) {
        s_skip_ws_docs(p);
        docs = s_take_docs(p);
    } else {
        s_skip_ws_docs(p);
    }
    s_skip_ws_docs(p);
    s_traits(p, traits);
    if (docs) {
        s_add_doc_trait(p, traits, docs, docs_at);
    }
    p->trait_stack = traits->items;
    p->trait_stack_cap = traits->cap;
    if (traits->count) { /* most lists hold one or two traits: no room kept */
        struct anvil__idl_trait *kept = s_alloc(p, traits->count * sizeof(*kept));
        memcpy(kept, traits->items, traits->count * sizeof(*kept));
        traits->items = kept;
        traits->cap = traits->count;
    } else {
        traits->items = NULL;
        traits->cap = 0;
    }
    traits->arena = NULL; /* from here on the list is the statement's own */
    s_skip_ws_docs(p);
    if (member) {
        s_clear_docs(p);
    }
}

/* ---- shapes ---- */

static const char *s_version_name(const struct s_parser *p) {
    return p->file->version == 1 ? "1.0" : "2.0";
}

static struct anvil__idl_shape *s_new_shape(struct s_parser *p, struct anvil_str_view name, enum anvil_shape_type type,
                                            size_t at) {
    struct anvil__idl_file *f = p->file;
    struct anvil__idl_shape *s = S_PUSH(p, f->shapes, f->shape_count, &p->shape_cap);
    memset(s, 0, sizeof(*s));
    s->name = name;
    s->type = type;
    s->at = at;
    return s;
}

/* "ns#Name" (or "ns#Name$member") in the arena, for messages. */
static struct anvil_str_view s_id_of(struct s_parser *p, struct anvil_str_view name, struct anvil_str_view member) {
    struct anvil_str_view ns = p->file->ns;
    size_t len = ns.len + 1 + name.len + (member.len ? member.len + 1 : 0);
    char *id = s_alloc(p, len + 1);
    int n = snprintf(id, len + 1, "%.*s#%.*s%s%.*s", (int)ns.len, ns.ptr, (int)name.len, name.ptr,
                     member.len ? "$" : "", (int)member.len, member.ptr);
    return anvil_sv(id, n > 0 ? (size_t)n : 0);
}

static void s_mixins(struct s_parser *p, size_t shape_index) {
    s_skip_spaces(p);
    if (!s_is(p, "with")) {
        return;
    }
    struct anvil__idl_shape *s = &p->file->shapes[shape_index];
    if (p->file->version < 2) {
        s_fail_at(p, s_id_of(p, s->name, anvil_sv("", 0)), p->lx.start,
                  "Mixins can only be used with Smithy version 2 or later. Attempted to use mixins with version `%s`.",
                  s_version_name(p));
    }
    s_next(p);
    s_skip_ws_docs(p);
    s_expect(p, ANVIL__TOK_LBRACKET);
    s_next(p);
    s_skip_ws_docs(p);
    size_t cap = 0;
    struct anvil__idl_ref *mixins = NULL;
    size_t count = 0;
    do {
        struct anvil__idl_ref ref = s_shape_id(p);
        *S_PUSH(p, mixins, count, &cap) = ref;
        s_skip_ws_docs(p);
    } while (s_tok(p) != ANVIL__TOK_RBRACKET);
    s_next(p);
    s = &p->file->shapes[shape_index];
    s->mixins = mixins;
    s->mixin_count = count;
}

static void s_for_resource(struct s_parser *p, size_t shape_index) {
    s_skip_spaces(p);
    if (!s_is(p, "for")) {
        return;
    }
    if (p->file->version < 2) {
        s_fail_at(p, s_id_of(p, p->file->shapes[shape_index].name, anvil_sv("", 0)), p->lx.start,
                  "Structures can only be bound to resources with Smithy version 2 or later. Attempted to bind a "
                  "structure to a resource with version `%s`.",
                  s_version_name(p));
    }
    s_next(p);
    s_expect_spaces(p);
    struct anvil__idl_ref ref = s_shape_id(p);
    p->file->shapes[shape_index].for_resource = ref;
}

static void s_member(struct s_parser *p, size_t shape_index, size_t *cap, struct s_keys *seen) {
    struct s_traits traits;
    s_docs_and_traits(p, true, &traits);
    size_t at = p->lx.start;
    struct anvil__idl_shape *s = &p->file->shapes[shape_index];
    if (s_tok(p) == ANVIL__TOK_RBRACE && traits.count == 1 && traits.items[0].doc_comment) {
        s_bad_docs(p, &traits.items[0].value);
        return;
    }
    bool elided = s_tok(p) == ANVIL__TOK_DOLLAR;
    if (elided) {
        s_next(p);
    }
    s_expect(p, ANVIL__TOK_IDENTIFIER);
    struct anvil_str_view name = s_lexeme(p);
    if (s_seen(p, seen, s->members, s->member_count, sizeof(*s->members), offsetof(struct anvil__idl_member, name),
               name)) {
        struct anvil_str_view id = s_id_of(p, s->name, anvil_sv("", 0));
        s_fail_at(p, id, p->lx.start, "Duplicate member of `%.*s`: '%.*s'", (int)id.len, id.ptr, (int)name.len,
                  name.ptr);
    }
    if (elided && p->file->version < 2) {
        s_fail_at(p, s_id_of(p, s->name, name), p->lx.start,
                  "Members can only elide targets in IDL version 2 or later");
    }
    s_next(p);
    struct anvil__idl_member m;
    memset(&m, 0, sizeof(m));
    m.name = name;
    m.at = at;
    if (!elided) {
        s_skip_spaces(p);
        s_expect(p, ANVIL__TOK_COLON);
        s_next(p);
        s_skip_spaces(p);
        m.target = s_shape_id(p);
    }
    s_skip_spaces(p);
    if (s_tok(p) == ANVIL__TOK_EQUAL) {
        if (p->file->version < 2) {
            s_fail(p, "@default assignment is only supported in IDL version 2 or later");
        }
        size_t value_at = p->lx.start;
        s_next(p);
        s_skip_spaces(p);
        struct anvil__idl_trait *t = S_PUSH(p, traits.items, traits.count, &traits.cap);
        memset(t, 0, sizeof(*t));
        t->id.text = anvil_sv_from_cstr("smithy.api#default");
        t->id.at = value_at;
        s_node(p, &t->value);
        s_skip_spaces(p);
        if (s_tok(p) == ANVIL__TOK_COMMA) {
            s_next(p);
        }
        s_br(p);
    }
    m.traits = traits.items;
    m.trait_count = traits.count;
    s = &p->file->shapes[shape_index];
    *S_PUSH(p, s->members, s->member_count, cap) = m;
}

static void s_members(struct s_parser *p, size_t shape_index) {
    s_skip_ws_docs(p);
    s_clear_docs(p);
    s_expect(p, ANVIL__TOK_LBRACE);
    s_next(p);
    s_skip_ws(p);
    size_t cap = 0;
    struct s_keys seen = {NULL, 0};
    while (s_tok(p) != ANVIL__TOK_EOF && s_tok(p) != ANVIL__TOK_RBRACE) {
        s_member(p, shape_index, &cap, &seen);
        s_skip_ws(p);
    }
    s_expect(p, ANVIL__TOK_RBRACE);
    s_next(p);
}

static void s_aggregate(struct s_parser *p, size_t shape_index) {
    s_for_resource(p, shape_index);
    s_mixins(p, shape_index);
    s_members(p, shape_index);
}

static void s_enum(struct s_parser *p, size_t shape_index) {
    s_mixins(p, shape_index);
    s_skip_ws_docs(p);
    s_expect(p, ANVIL__TOK_LBRACE);
    s_next(p);
    s_skip_ws(p);
    size_t cap = 0;
    struct s_keys seen = {NULL, 0};
    while (s_tok(p) != ANVIL__TOK_EOF && s_tok(p) != ANVIL__TOK_RBRACE) {
        struct s_traits traits;
        s_docs_and_traits(p, true, &traits);
        size_t at = p->lx.start;
        s_expect(p, ANVIL__TOK_IDENTIFIER);
        struct anvil_str_view name = s_lexeme(p);
        struct anvil__idl_shape *s = &p->file->shapes[shape_index];
        if (s_seen(p, &seen, s->members, s->member_count, sizeof(*s->members), offsetof(struct anvil__idl_member, name),
                   name)) {
            s_fail_at(p, s_id_of(p, s->name, anvil_sv("", 0)), p->lx.start, "Found conflicting member name, `%.*s`",
                      (int)name.len, name.ptr);
        }
        s_next(p);
        s_skip_spaces(p);
        if (s_tok(p) == ANVIL__TOK_EQUAL) {
            size_t value_at = p->lx.start;
            s_next(p);
            s_skip_spaces(p);
            struct anvil__idl_trait *t = S_PUSH(p, traits.items, traits.count, &traits.cap);
            memset(t, 0, sizeof(*t));
            t->id.text = anvil_sv_from_cstr("smithy.api#enumValue");
            t->id.at = value_at;
            s_node(p, &t->value);
            s_skip_spaces(p);
            if (s_tok(p) == ANVIL__TOK_COMMA) {
                s_next(p);
            }
            s_br(p);
        } else {
            s_skip_ws(p);
        }
        struct anvil__idl_member m;
        memset(&m, 0, sizeof(m));
        m.name = name;
        m.at = at;
        m.target.text = anvil_sv_from_cstr("smithy.api#Unit");
        m.traits = traits.items;
        m.trait_count = traits.count;
        s = &p->file->shapes[shape_index];
        *S_PUSH(p, s->members, s->member_count, &cap) = m;
    }
    s_expect(p, ANVIL__TOK_RBRACE);
    s_next(p);
}

/* Smithy's SERVICE_PROPERTY_NAMES and RESOURCE_PROPERTY_NAMES, in its order (the warning lists them so). */
static const char *const s_service_keys[] = {"type", "version", "operations", "resources", "rename", "errors", NULL};
static const char *const s_resource_keys[] = {"type",       "create", "read",        "update",
                                              "delete",     "list",   "identifiers", "resources",
                                              "operations", "put",    "properties",  "collectionOperations",
                                              NULL};

const char *const *anvil__idl_body_keys(enum anvil_shape_type type) {
    return type == ANVIL_SHAPE_SERVICE ? s_service_keys : type == ANVIL_SHAPE_RESOURCE ? s_resource_keys : NULL;
}

/* The node type Smithy names in its messages. */
static const char *s_node_type(const struct anvil__idl_node *v) {
    switch (v->kind) {
    case ANVIL__NODE_NULL:
        return "null";
    case ANVIL__NODE_TRUE:
    case ANVIL__NODE_FALSE:
        return "boolean";
    case ANVIL__NODE_NUMBER:
        return "number";
    case ANVIL__NODE_STRING:
    case ANVIL__NODE_SHAPE_ID:
        return "string";
    case ANVIL__NODE_ARRAY:
        return "array";
    default:
        return "object";
    }
}

static bool s_node_is_text(const struct anvil__idl_node *v) {
    return v->kind == ANVIL__NODE_STRING || v->kind == ANVIL__NODE_SHAPE_ID;
}

/*
 * A known service or resource property with the type Smithy's loader expects (the words are its
 * ObjectNode's): ids are strings, id lists arrays of strings, `identifiers`, `properties` and `rename`
 * objects of strings, `version` a string. Anything else stops the file, as Smithy's exception does.
 */
static void s_body_value(struct s_parser *p, struct anvil_str_view key, const struct anvil__idl_node *v) {
    static const char *const lists[] = {"operations", "resources", "errors", "collectionOperations", NULL};
    static const char *const maps[] = {"identifiers", "properties", "rename", NULL};
    const int n = (int)key.len;
    if (anvil_sv_eq_cstr(key, "type")) {
        return; /* allowed and ignored: the statement gives the type */
    }
    if (anvil_sv_eq_cstr(key, "version")) {
        if (!s_node_is_text(v)) {
            s_fail_value(p, v->at, "Expected `version` to be a string; found %s", s_node_type(v));
        }
        return;
    }
    for (size_t k = 0; lists[k]; k++) {
        if (anvil_sv_eq_cstr(key, lists[k])) {
            if (v->kind != ANVIL__NODE_ARRAY) {
                s_fail_value(p, v->at, "Expected `%.*s` member to be an array, but found %s.", n, key.ptr,
                             s_node_type(v));
            }
            for (size_t i = 0; i < v->count; i++) {
                if (!s_node_is_text(&v->u.items[i])) {
                    s_fail_value(p, v->u.items[i].at, "Expected `%.*s` to be an array of strings. Found %s.", n,
                                 key.ptr, s_node_type(&v->u.items[i]));
                }
            }
            return;
        }
    }
    for (size_t k = 0; maps[k]; k++) {
        if (anvil_sv_eq_cstr(key, maps[k])) {
            if (v->kind != ANVIL__NODE_OBJECT) {
                s_fail_value(p, v->at, "Expected `%.*s` to be an object; found %s", n, key.ptr, s_node_type(v));
            }
            for (size_t i = 0; i < v->count; i++) {
                const struct anvil__idl_node *target = &v->u.entries[i].value;
                if (!s_node_is_text(target)) {
                    s_fail_value(p, target->at, "Expected string, but found %s.", s_node_type(target));
                }
            }
            return;
        }
    }
    if (!s_node_is_text(v)) { /* create, read, update, delete, list, put */
        s_fail_value(p, v->at, "Expected `%.*s` member to be a string, but found %s.", n, key.ptr, s_node_type(v));
    }
}

static bool s_listed(const char *const *names, struct anvil_str_view key) {
    for (size_t k = 0; names[k]; k++) {
        if (anvil_sv_eq_cstr(key, names[k])) {
            return true;
        }
    }
    return false;
}

/* Service and resource bodies: a node object; unknown properties warn (and are dropped), as in Smithy. */
static void s_body(struct s_parser *p, size_t shape_index, const char *const *known) {
    s_mixins(p, shape_index);
    s_skip_ws_docs(p);
    s_expect(p, ANVIL__TOK_LBRACE);
    struct anvil__idl_node body;
    s_node(p, &body);
    struct anvil__idl_shape *s = &p->file->shapes[shape_index];
    s->body = body;
    for (size_t i = 0; i < body.count; i++) { /* first what stops the file: nothing is held yet */
        struct anvil_str_view key = body.u.entries[i].key;
        if (!s_listed(known, key)) {
            continue;
        }
        if (known == s_resource_keys && anvil_sv_eq_cstr(key, "properties") && p->file->version < 2) {
            s_fail_at(p, s_id_of(p, s->name, anvil_sv("", 0)), p->lx.start,
                      "Resource properties can only be used with Smithy version 2 or later. Attempted to use resource "
                      "properties with version `%s`.",
                      s_version_name(p));
        }
        s_body_value(p, key, &body.u.entries[i].value);
    }
    struct anvil_buf extra, list;
    anvil_buf_init(&extra, NULL, 4096);
    anvil_buf_init(&list, NULL, 4096);
    for (size_t i = 0; i < body.count; i++) {
        struct anvil_str_view key = body.u.entries[i].key;
        if (!s_listed(known, key)) {
            int shown = (int)(key.len < 200 ? key.len : 200);
            (void)anvil_buf_appendf(&extra, "%s`%.*s`", extra.len ? ", " : "", shown, key.ptr);
        }
    }
    for (size_t k = 0; extra.len && known[k]; k++) {
        (void)anvil_buf_appendf(&list, "%s`%s`", k ? ", " : "", known[k]);
    }
    /* Into the arena before s_note, which may stop the parse. */
    struct anvil_str_view v = anvil_buf_view(&list), x = anvil_buf_view(&extra);
    char *allowed = extra.len ? anvil_arena_strndup(p->arena, v.ptr ? v.ptr : "", v.len) : NULL;
    char *found = extra.len ? anvil_arena_strndup(p->arena, x.ptr ? x.ptr : "", x.len) : NULL;
    bool lost = extra.len && (!allowed || !found); /* a list cut at 4 KiB is still a fine message */
    bool any = extra.len != 0;
    anvil_buf_clean_up(&list);
    anvil_buf_clean_up(&extra);
    if (lost) {
        s_nomem(p);
    }
    if (any) {
        s_note(p, ANVIL_SEVERITY_WARNING, "Model", s_id_of(p, s->name, anvil_sv("", 0)),
               "Expected an object with possible properties of %s, but found additional properties: %s", allowed,
               found);
    }
}

static void s_add_traits(struct anvil__idl_trait **items, size_t *count, const struct s_traits *traits) {
    *items = traits->items;
    *count = traits->count;
}

static size_t s_shape_statement(struct s_parser *p, struct anvil_str_view name, enum anvil_shape_type type, size_t at);

/* `input := [traits] [for R] [with [...]] { members }`: a new structure named after the operation. */
static void s_inline_io(struct s_parser *p, struct anvil_str_view op_name, struct anvil_str_view suffix,
                        const char *trait, struct anvil__idl_ref *out) {
    struct s_traits traits;
    s_docs_and_traits(p, true, &traits);
    struct anvil__idl_trait *t = S_PUSH(p, traits.items, traits.count, &traits.cap);
    memset(t, 0, sizeof(*t));
    t->id.text = anvil_sv_from_cstr(trait);
    t->value.kind = ANVIL__NODE_OBJECT;
    char *name = s_alloc(p, op_name.len + suffix.len + 1);
    memcpy(name, op_name.ptr, op_name.len);
    memcpy(name + op_name.len, suffix.ptr, suffix.len);
    name[op_name.len + suffix.len] = '\0';
    struct anvil_str_view sv = anvil_sv(name, op_name.len + suffix.len);
    size_t at = p->lx.start;
    if (!anvil__identifier_valid(sv)) { /* a suffix from `$operationInputSuffix` may make anything */
        char shown[256];
        anvil__idl_quote(shown, sizeof(shown), sv.ptr, sv.len, 100);
        s_fail_value(p, at, "Invalid shape ID: `%.*s#%s` (from the operation's name and the inline suffix)",
                     (int)(p->file->ns.len < 100 ? p->file->ns.len : 100), p->file->ns.ptr, shown);
    }
    size_t index = s_shape_statement(p, sv, ANVIL_SHAPE_STRUCTURE, at);
    struct anvil__idl_shape *s = &p->file->shapes[index];
    s_add_traits(&s->traits, &s->trait_count, &traits);
    out->text = sv;
    out->at = at;
}

static void s_id_list(struct s_parser *p, struct anvil__idl_ref **out, size_t *count) {
    s_deeper(p);
    s_skip_ws_docs(p);
    s_expect(p, ANVIL__TOK_LBRACKET);
    s_next(p);
    s_skip_ws_docs(p);
    size_t cap = 0;
    while (s_tok(p) != ANVIL__TOK_EOF && s_tok(p) != ANVIL__TOK_RBRACKET) {
        s_expect(p, ANVIL__TOK_IDENTIFIER);
        struct anvil__idl_ref ref = s_shape_id(p);
        *S_PUSH(p, *out, *count, &cap) = ref;
        s_skip_ws_docs(p);
    }
    s_expect(p, ANVIL__TOK_RBRACKET);
    s_next(p);
    p->depth--;
}

static void s_operation(struct s_parser *p, size_t shape_index) {
    static const enum anvil__idl_tok io[] = {ANVIL__TOK_COLON, ANVIL__TOK_WALRUS};
    s_mixins(p, shape_index);
    s_skip_ws_docs(p);
    s_expect(p, ANVIL__TOK_LBRACE);
    s_next(p);
    s_skip_ws_docs(p);
    struct anvil_str_view op_name = p->file->shapes[shape_index].name;
    while (s_tok(p) != ANVIL__TOK_EOF && s_tok(p) != ANVIL__TOK_RBRACE) {
        s_expect(p, ANVIL__TOK_IDENTIFIER);
        struct anvil_str_view key = s_lexeme(p);
        struct anvil__idl_shape *s = &p->file->shapes[shape_index];
        bool input = anvil_sv_eq(key, ANVIL_SV("input")), output = anvil_sv_eq(key, ANVIL_SV("output"));
        bool errors = anvil_sv_eq(key, ANVIL_SV("errors"));
        if ((input && s->has_input) || (output && s->has_output) || (errors && s->has_errors)) {
            struct anvil_str_view id = s_id_of(p, op_name, anvil_sv("", 0));
            s_fail_at(p, id, p->lx.start, "Duplicate operation %.*s property for `%.*s`", (int)key.len, key.ptr,
                      (int)id.len, id.ptr);
        }
        if (!input && !output && !errors) {
            struct anvil_str_view id = s_id_of(p, op_name, anvil_sv("", 0));
            s_fail_at(p, id, p->lx.start, "Unknown property %.*s for %.*s", (int)key.len, key.ptr, (int)id.len, id.ptr);
        }
        s_next(p);
        s_skip_ws_docs(p);
        if (errors) {
            s_expect(p, ANVIL__TOK_COLON);
            s_next(p);
            struct anvil__idl_ref *list = NULL;
            size_t count = 0;
            s_id_list(p, &list, &count);
            s = &p->file->shapes[shape_index];
            s->errors = list;
            s->error_count = count;
            s->has_errors = true;
        } else {
            enum anvil__idl_tok how = s_expect_any(p, io, 2);
            s_next(p);
            struct anvil__idl_ref ref;
            if (how == ANVIL__TOK_WALRUS) {
                if (p->file->version < 2) {
                    s_fail_at(p, s_id_of(p, op_name, anvil_sv("", 0)), p->lx.start,
                              "Inlined operation inputs and outputs can only be used with Smithy version 2 or later. "
                              "Attempted to use inlined IO with version `%s`.",
                              s_version_name(p));
                }
                p->doc_count = 0; /* docs before an inline shape are dropped */
                s_skip_ws(p);
                s_inline_io(p, op_name, input ? p->file->input_suffix : p->file->output_suffix,
                            input ? "smithy.api#input" : "smithy.api#output", &ref);
            } else {
                s_skip_ws_docs(p);
                ref = s_shape_id(p);
            }
            s = &p->file->shapes[shape_index];
            if (input) {
                s->input = ref;
                s->has_input = true;
            } else {
                s->output = ref;
                s->has_output = true;
            }
        }
        s_expect_whitespace(p);
        s_skip_ws_docs(p);
    }
    s_expect(p, ANVIL__TOK_RBRACE);
    s_next(p);
}

/* Parses one shape's body after its name; returns its index (shapes may be added meanwhile). */
static size_t s_shape_statement(struct s_parser *p, struct anvil_str_view name, enum anvil_shape_type type, size_t at) {
    struct anvil__idl_file *f = p->file;
    size_t index = f->shape_count;
    (void)s_new_shape(p, name, type, at);
    switch (type) {
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
    case ANVIL_SHAPE_MAP:
    case ANVIL_SHAPE_UNION:
    case ANVIL_SHAPE_STRUCTURE:
        s_aggregate(p, index);
        break;
    case ANVIL_SHAPE_ENUM:
    case ANVIL_SHAPE_INT_ENUM:
        s_enum(p, index);
        break;
    case ANVIL_SHAPE_SERVICE:
        s_body(p, index, s_service_keys);
        break;
    case ANVIL_SHAPE_RESOURCE:
        s_body(p, index, s_resource_keys);
        break;
    case ANVIL_SHAPE_OPERATION:
        s_operation(p, index);
        break;
    default:
        s_mixins(p, index);
        break;
    }
    return index;
}

static void s_apply(struct s_parser *p, const struct s_traits *before) {
    for (size_t i = 0; i < before->count; i++) {
        if (!before->items[i].doc_comment) {
            s_fail(p, "Traits applied to apply statement");
        }
        s_bad_docs(p, NULL);
    }
    s_next(p);
    s_expect_whitespace(p);
    struct anvil__idl_ref target = s_shape_id(p);
    s_expect_whitespace(p);
    static const enum anvil__idl_tok want[] = {ANVIL__TOK_AT, ANVIL__TOK_LBRACE};
    struct s_traits traits;
    memset(&traits, 0, sizeof(traits));
    if (s_expect_any(p, want, 2) == ANVIL__TOK_AT) {
        s_trait(p, &traits);
    } else {
        s_next(p);
        s_skip_ws_docs(p);
        s_traits(p, &traits);
        s_skip_ws_docs(p);
        s_expect(p, ANVIL__TOK_RBRACE);
        s_next(p);
    }
    struct anvil__idl_file *f = p->file;
    struct anvil__idl_apply *a = S_PUSH(p, f->applies, f->apply_count, &p->apply_cap);
    a->target = target;
    a->traits = traits.items;
    a->trait_count = traits.count;
    s_br(p);
}

static void s_shape_or_apply(struct s_parser *p, struct s_traits *traits) {
    size_t at = p->lx.start;
    s_expect(p, ANVIL__TOK_IDENTIFIER);
    struct anvil_str_view word = s_lexeme(p);
    if (anvil_sv_eq(word, ANVIL_SV("apply"))) {
        s_apply(p, traits);
        return;
    }
    enum anvil_shape_type type;
    if (!anvil__shape_type_named(word, &type)) {
        s_fail(p, "Unknown shape type: %.*s", (int)(word.len < 200 ? word.len : 200), word.ptr);
    }
    s_next(p);
    s_expect_spaces(p);
    s_expect(p, ANVIL__TOK_IDENTIFIER);
    struct anvil_str_view name = s_lexeme(p);
    const struct anvil__idl_use *imported = anvil__idl_use_find(p->file, name);
    if (imported) {
        s_fail(p, "Shape name `%.*s` conflicts with imported shape `%.*s`", (int)name.len, name.ptr,
               (int)imported->id.len, imported->id.ptr);
    }
    s_next(p);
    bool v1 = p->file->version < 2;
    if ((v1 && (type == ANVIL_SHAPE_ENUM || type == ANVIL_SHAPE_INT_ENUM)) || (!v1 && type == ANVIL_SHAPE_SET)) {
        s_note(p, ANVIL_SEVERITY_ERROR, "Model", s_id_of(p, name, anvil_sv("", 0)),
               "%s shapes cannot be used in Smithy version %s", anvil_shape_type_name(type), s_version_name(p));
    }
    size_t index = s_shape_statement(p, name, type, at);
    struct anvil__idl_shape *s = &p->file->shapes[index];
    /* Traits written before the shape go after those of an inline shape's own (order does not matter). */
    s_add_traits(&s->traits, &s->trait_count, traits);
    s_br(p);
}

/* Whether a shape statement follows (a dangling doc comment at the end only warns). */
static bool s_shape_follows(struct s_parser *p, const struct s_traits *traits, bool had_docs) {
    if (s_tok(p) != ANVIL__TOK_EOF) {
        return true;
    }
    if (had_docs) {
        if (traits->count == 1) {
            s_bad_docs(p, &traits->items[0].value);
            return false;
        }
        return true;
    }
    return traits->count > 0;
}

/* ---- sections ---- */

static void s_version(struct s_parser *p, const struct anvil__idl_node *value) {
    if (value->kind != ANVIL__NODE_STRING) {
        s_fail_at(p, anvil_sv("", 0), value->at,
                  "The $version control statement must have a string value, but found %.*s",
                  (int)(value->text.len < 100 ? value->text.len : 100), value->text.ptr ? value->text.ptr : "");
    }
    struct anvil_str_view v = value->text;
    if (anvil_sv_eq_cstr(v, "1") || anvil_sv_eq_cstr(v, "1.0")) {
        p->file->version = 1;
    } else if (anvil_sv_eq_cstr(v, "2") || anvil_sv_eq_cstr(v, "2.0")) {
        p->file->version = 2;
    } else {
        s_fail(p, "Unsupported Smithy version number: %.*s", (int)(v.len < 100 ? v.len : 100), v.ptr);
    }
    p->file->version_text = v;
}

static void s_control(struct s_parser *p) {
    static const enum anvil__idl_tok keys[] = {ANVIL__TOK_IDENTIFIER, ANVIL__TOK_STRING};
    struct anvil_str_view seen[3] = {{0}};
    while (s_tok(p) == ANVIL__TOK_DOLLAR) {
        s_next(p);
        s_expect_any(p, keys, 2);
        struct anvil_str_view key = s_key_text(p);
        s_next(p);
        s_skip_spaces(p);
        s_expect(p, ANVIL__TOK_COLON);
        s_next(p);
        s_skip_spaces(p);
        int slot = anvil_sv_eq_cstr(key, "version")                 ? 0
                   : anvil_sv_eq_cstr(key, "operationInputSuffix")  ? 1
                   : anvil_sv_eq_cstr(key, "operationOutputSuffix") ? 2
                                                                    : -1;
        if (slot >= 0 && seen[slot].ptr) {
            s_fail(p, "Duplicate control statement `%.*s`", (int)key.len, key.ptr);
        }
        struct anvil__idl_node value;
        s_node(p, &value);
        if (slot == 0) {
            s_version(p, &value);
        } else if (slot > 0) {
            if (value.kind != ANVIL__NODE_STRING) {
                s_fail_at(p, anvil_sv("", 0), value.at, "Expected `%.*s` to be a string", (int)key.len, key.ptr);
            }
            *(slot == 1 ? &p->file->input_suffix : &p->file->output_suffix) = value.text;
        } else {
            s_note(p, ANVIL_SEVERITY_WARNING, "Model", anvil_sv("", 0), "Unknown control statement `%.*s`",
                   (int)(key.len < 200 ? key.len : 200), key.ptr);
        }
        if (slot >= 0) {
            seen[slot] = key;
        }
        s_br(p);
    }
}

static void s_metadata(struct s_parser *p) {
    static const enum anvil__idl_tok keys[] = {ANVIL__TOK_IDENTIFIER, ANVIL__TOK_STRING};
    while (s_is(p, "metadata")) {
        s_next(p);
        s_expect_spaces(p);
        s_expect_any(p, keys, 2);
        struct anvil_str_view key = s_key_text(p);
        s_next(p);
        s_skip_spaces(p);
        s_expect(p, ANVIL__TOK_EQUAL);
        s_next(p);
        s_skip_spaces(p);
        struct anvil__idl_file *f = p->file;
        struct anvil__idl_entry *e = S_PUSH(p, f->metadata, f->metadata_count, &p->meta_cap);
        e->key = key;
        s_node(p, &e->value);
        s_br(p);
        s_skip_ws_docs(p);
    }
}

const struct anvil__idl_use *anvil__idl_use_find(const struct anvil__idl_file *f, struct anvil_str_view name) {
    if (!f->use_slots) {
        return NULL;
    }
    for (size_t h = anvil_json_hash(name.ptr, name.len) & f->use_mask; f->use_slots[h]; h = (h + 1) & f->use_mask) {
        const struct anvil__idl_use *u = &f->uses[f->use_slots[h] - 1];
        if (anvil_sv_eq(u->name, name)) {
            return u;
        }
    }
    return NULL;
}

/* Puts the last `use` in the index, which is rebuilt twice as large when half full. */
static void s_index_use(struct s_parser *p) {
    struct anvil__idl_file *f = p->file;
    if (f->use_count * 2 > f->use_mask) {
        size_t size = f->use_mask ? (f->use_mask + 1) * 2 : 32;
        f->use_slots = anvil_arena_alloc(p->file_arena, size * sizeof(*f->use_slots), 0);
        if (!f->use_slots) {
            s_nomem(p);
        }
        memset(f->use_slots, 0, size * sizeof(*f->use_slots));
        f->use_mask = size - 1;
        f->use_count--; /* every use but the last, then the last as any other */
        for (size_t i = 0; i < f->use_count; i++) {
            size_t h = anvil_json_hash(f->uses[i].name.ptr, f->uses[i].name.len) & f->use_mask;
            while (f->use_slots[h]) {
                h = (h + 1) & f->use_mask;
            }
            f->use_slots[h] = (uint32_t)i + 1;
        }
        f->use_count++;
    }
    const struct anvil__idl_use *u = &f->uses[f->use_count - 1];
    size_t h = anvil_json_hash(u->name.ptr, u->name.len) & f->use_mask;
    while (f->use_slots[h]) {
        h = (h + 1) & f->use_mask;
    }
    f->use_slots[h] = (uint32_t)f->use_count;
}

static void s_uses(struct s_parser *p) {
    while (s_is(p, "use")) {
        s_next(p);
        s_expect_spaces(p);
        size_t at = p->lx.start;
        struct anvil__idl_ref id = s_absolute_id(p);
        if (anvil_sv_find_byte(id.text, 0, '$') != SIZE_MAX) {
            s_fail_at(p, anvil_sv("", 0), at, "Use statements cannot use members");
        }
        struct anvil_str_view name = anvil_sv_slice(id.text, anvil_sv_find_byte(id.text, 0, '#') + 1, SIZE_MAX);
        struct anvil__idl_file *f = p->file;
        const struct anvil__idl_use *same = anvil__idl_use_find(f, name);
        if (same) {
            s_fail_at(p, anvil_sv("", 0), at, "Cannot use name `%.*s` because it conflicts with `%.*s`",
                      (int)id.text.len, id.text.ptr, (int)same->id.len, same->id.ptr);
        }
        if (f->use_count >= UINT32_MAX - 1) {
            s_fail_at(p, anvil_sv("", 0), at, "Too many use statements");
        }
        struct anvil__idl_use *u = S_PUSH(p, f->uses, f->use_count, &p->use_cap);
        u->name = name;
        u->id = id.text;
        u->at = at;
        s_index_use(p);
        s_br(p);
        s_skip_ws_docs(p);
    }
}

/*
 * A statement is read: its shapes (or its apply) go to the sink, and the statement arena is emptied for the
 * next one. Not when the token already read holds a string the lexer decoded there (or an error message): a
 * well-formed file never has one at this point, and a bad one only keeps a statement's memory a while longer.
 */
static void s_statement_done(struct s_parser *p) {
    struct anvil__idl_file *f = p->file;
    bool go_on = !f->shape_count || p->sink->shapes(p->sink->ctx, f, f->shapes, f->shape_count);
    for (size_t i = 0; i < f->apply_count && go_on; i++) {
        go_on = p->sink->apply(p->sink->ctx, f, &f->applies[i]);
    }
    if (!go_on) {
        longjmp(p->fail, ANVIL_ECANCELED); /* the sink has said why */
    }
    f->shapes = NULL;
    f->shape_count = p->shape_cap = 0;
    f->applies = NULL;
    f->apply_count = p->apply_cap = 0;
    enum anvil__idl_tok tok = s_tok(p);
    if (tok != ANVIL__TOK_STRING && tok != ANVIL__TOK_TEXT_BLOCK && tok != ANVIL__TOK_ERROR) {
        anvil_arena_reset(p->statement_arena);
    }
}

static void s_shapes(struct s_parser *p) {
    if (!s_is(p, "namespace")) {
        if (s_tok(p) != ANVIL__TOK_EOF) {
            char found[256];
            s_found(p, found, sizeof(found));
            s_fail(p, "Expected a namespace definition but found %s", found);
        }
        return;
    }
    s_next(p);
    s_expect_spaces(p);
    size_t start = p->lx.start;
    size_t end = s_skip_namespace(p);
    p->file->ns = anvil_sv(p->lx.text + start, end - start);
    s_br(p);
    size_t docs_at = p->lx.start;
    s_skip_ws_docs(p);
    s_uses(p);
    /* From here on, statement by statement. */
    p->arena = p->lx.arena = p->statement_arena;
    /* The first shape: doc comments read while looking for `use` belong to it. */
    if (s_tok(p) != ANVIL__TOK_EOF) {
        s_skip_ws_docs(p);
        const struct anvil__idl_node *docs = s_take_docs(p);
        struct s_traits traits;
        s_docs_and_traits(p, false, &traits);
        if (docs) {
            s_add_doc_trait(p, &traits, docs, docs_at);
        }
        if (s_shape_follows(p, &traits, docs != NULL)) {
            s_shape_or_apply(p, &traits);
        }
        s_statement_done(p);
    }
    while (s_tok(p) != ANVIL__TOK_EOF) {
        bool had_docs = s_tok(p) == ANVIL__TOK_DOC_COMMENT;
        struct s_traits traits;
        s_docs_and_traits(p, false, &traits);
        if (s_shape_follows(p, &traits, had_docs)) {
            s_shape_or_apply(p, &traits);
        }
        s_statement_done(p);
    }
}

static int s_run(struct s_parser *p) {
    int rc = setjmp(p->fail);
    if (rc != 0) {
        return rc;
    }
    s_next(p);
    s_skip_ws_docs(p);
    s_control(p);
    s_skip_ws_docs(p);
    s_metadata(p);
    s_shapes(p);
    return ANVIL_OK;
}

int anvil__idl_parse(struct anvil_arena *arena, struct anvil_arena *statements, const struct anvil__idl_sink *sink,
                     const char *name, const char *text, size_t len, struct anvil__idl_file *out,
                     struct anvil_diag *diag) {
    uint16_t number = out->number; /* the caller's */
    memset(out, 0, sizeof(*out));
    out->number = number;
    out->name = name;
    out->text = text;
    out->len = len;
    out->version = 1; /* no $version means 1.0, as in Smithy */
    out->version_text = anvil_sv_from_cstr("1.0");
    out->input_suffix = anvil_sv_from_cstr("Input");
    out->output_suffix = anvil_sv_from_cstr("Output");
    if (!anvil__utf8_valid(text, len)) {
        size_t at = 0;
        while (at < len) {
            size_t n = anvil__utf8_sequence((const unsigned char *)text + at, (const unsigned char *)text + len);
            if (n == 0) {
                break;
            }
            at += n;
        }
        size_t line, column;
        anvil__idl_locate(text, len, at, &line, &column);
        return anvil_diag_set(diag, ANVIL_ESYNTAX, line, column, at,
                              "Syntax error at line %zu, column %zu: invalid UTF-8 (byte 0x%02X)", line, column,
                              (unsigned char)text[at]);
    }
    struct s_parser *p = anvil_arena_alloc(arena, sizeof(*p), 0);
    if (!p) {
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    memset(p, 0, sizeof(*p));
    p->arena = p->file_arena = arena;
    p->statement_arena = statements;
    p->sink = sink;
    p->file = out;
    p->diag = diag;
    anvil__idl_lexer_init(&p->lx, text, len, arena);
    return s_run(p);
}
