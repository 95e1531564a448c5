#ifndef ANVIL_MODEL_IDL_INTERNAL_H
#define ANVIL_MODEL_IDL_INTERNAL_H

/*
 * The Smithy IDL reader's parts (not installed):
 *
 *   idl_lex.c    text -> tokens (Smithy's token kinds and their messages)
 *   idl_parse.c  tokens -> one `struct anvil__idl_file`, ids still as written
 *   assemble*.c  files (IDL and JSON AST) -> one model, ids resolved late
 *
 * The parser reads one statement at a time into the small tree below and
 * hands it to the assembler, which makes records of it at once. Every view
 * points into the file's text or the assembly's arenas.
 */

#include "anvil/arena.h"
#include "anvil/json.h"
#include "anvil/validate.h"

/* The deepest nesting of node values, as Smithy's loader allows. */
#define ANVIL__IDL_MAX_DEPTH 64

enum anvil__idl_tok {
    ANVIL__TOK_SPACE,
    ANVIL__TOK_NEWLINE,
    ANVIL__TOK_COMMA,
    ANVIL__TOK_COMMENT,
    ANVIL__TOK_DOC_COMMENT,
    ANVIL__TOK_AT,
    ANVIL__TOK_STRING,
    ANVIL__TOK_TEXT_BLOCK,
    ANVIL__TOK_COLON,
    ANVIL__TOK_WALRUS,
    ANVIL__TOK_IDENTIFIER,
    ANVIL__TOK_DOT,
    ANVIL__TOK_POUND,
    ANVIL__TOK_DOLLAR,
    ANVIL__TOK_NUMBER,
    ANVIL__TOK_LBRACE,
    ANVIL__TOK_RBRACE,
    ANVIL__TOK_LBRACKET,
    ANVIL__TOK_RBRACKET,
    ANVIL__TOK_LPAREN,
    ANVIL__TOK_RPAREN,
    ANVIL__TOK_EQUAL,
    ANVIL__TOK_EOF,
    ANVIL__TOK_ERROR
};

struct anvil__idl_lexer {
    const char *text;
    size_t len;
    size_t pos;                /* where the next token starts */
    size_t first_cr;           /* where the first CR is (`len` when none): comments look for a lone CR after it */
    struct anvil_arena *arena; /* decoded strings that differ from their source */
    /* The current token. */
    enum anvil__idl_tok tok;
    size_t start, end;
    /* STRING and TEXT_BLOCK: the decoded value; ERROR: the message (NUL-terminated). */
    struct anvil_str_view value;
    const char *error;
    size_t error_at; /* where an ERROR token's problem is */
    int oom;
};

void anvil__idl_lexer_init(struct anvil__idl_lexer *lx, const char *text, size_t len, struct anvil_arena *arena);

/* The lexer's tables: bytes that continue an identifier; one-byte tokens by byte (0 for the others). */
extern const bool anvil__idl_word[256];
extern const unsigned char anvil__idl_single[256];
/* Every token but identifiers, spaces and one-byte ones, starting with byte `c` (-1 at the end). */
void anvil__idl_next_other(struct anvil__idl_lexer *lx, int c);

/* Reads the next token into lx->tok (EOF stays EOF). Inline: most tokens are a word, spaces or one byte. */
static inline void anvil__idl_next(struct anvil__idl_lexer *lx) {
    if (lx->tok == ANVIL__TOK_EOF) {
        return;
    }
    size_t p = lx->pos, len = lx->len;
    lx->start = p;
    lx->error = NULL;
    if (p >= len) {
        anvil__idl_next_other(lx, -1);
        return;
    }
    const unsigned char *text = (const unsigned char *)lx->text;
    unsigned char c = text[p];
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
        do {
            p++;
        } while (p < len && anvil__idl_word[text[p]]);
        lx->end = lx->pos = p;
        lx->tok = ANVIL__TOK_IDENTIFIER;
        return;
    }
    if (c == ' ' || c == '\t') {
        do {
            p++;
        } while (p < len && (text[p] == ' ' || text[p] == '\t'));
        lx->end = lx->pos = p;
        lx->tok = ANVIL__TOK_SPACE;
        return;
    }
    unsigned char single = anvil__idl_single[c];
    if (single) {
        if (single == ANVIL__TOK_COLON && p + 1 < len && text[p + 1] == '=') {
            single = ANVIL__TOK_WALRUS;
            p++;
        }
        lx->end = lx->pos = p + 1;
        lx->tok = (enum anvil__idl_tok)single;
        return;
    }
    anvil__idl_next_other(lx, c);
}
/* How Smithy shows a token kind in "Expected ..." (`LBRACE('{')`, `IDENTIFIER`). */
const char *anvil__idl_tok_name(enum anvil__idl_tok tok);
/* 1-based line and column (in characters) of byte `offset`. */
void anvil__idl_locate(const char *text, size_t len, size_t offset, size_t *line, size_t *column);

/* ---- what a file says ---- */

enum anvil__idl_node_kind {
    ANVIL__NODE_NULL,
    ANVIL__NODE_TRUE,
    ANVIL__NODE_FALSE,
    ANVIL__NODE_NUMBER, /* text = the lexeme */
    ANVIL__NODE_STRING,
    ANVIL__NODE_SHAPE_ID, /* an unquoted value: a syntactic shape id, resolved late */
    ANVIL__NODE_ARRAY,
    ANVIL__NODE_OBJECT,
    ANVIL__NODE_DOCS /* doc comment lines (u.lines, count), as one string: the lines joined by LF */
};

struct anvil__idl_node;
struct anvil__idl_entry;

struct anvil__idl_node {
    enum anvil__idl_node_kind kind;
    size_t count; /* items or entries */
    struct anvil_str_view text;
    union {
        struct anvil__idl_node *items;
        struct anvil__idl_entry *entries;
        const struct anvil_str_view *lines;
    } u;
    size_t at; /* byte offset in the file */
};

struct anvil__idl_entry {
    struct anvil_str_view key;
    struct anvil__idl_node value;
};

/* A shape id as written (relative or absolute, maybe with a member), resolved late. */
struct anvil__idl_ref {
    struct anvil_str_view text;
    size_t at;
    bool plain; /* one identifier: no namespace, no member */
};

struct anvil__idl_trait {
    struct anvil__idl_ref id;
    struct anvil__idl_node value;
    bool annotation;  /* `@t` or `@t()`: null, coerced by the trait's type */
    bool doc_comment; /* from `///` lines */
};

struct anvil__idl_member {
    struct anvil_str_view name;
    struct anvil__idl_ref target; /* text empty when elided (`$name`) or an enum member */
    struct anvil__idl_trait *traits;
    size_t trait_count;
    size_t at;
};

struct anvil__idl_shape {
    struct anvil_str_view name;
    enum anvil_shape_type type;
    size_t at;
    struct anvil__idl_trait *traits;
    size_t trait_count;
    struct anvil__idl_ref *mixins;
    size_t mixin_count;
    struct anvil__idl_ref for_resource; /* text empty when none */
    struct anvil__idl_member *members;
    size_t member_count;
    /* service, resource: the body; operation: input/output/errors as an object of refs. */
    struct anvil__idl_node body;
    /* operation: `input` / `output` given (a ref in body, or an inline shape). */
    struct anvil__idl_ref input, output;
    struct anvil__idl_ref *errors;
    size_t error_count;
    bool has_input, has_output, has_errors;
};

/* The properties a service or resource body may have, as Smithy's loader knows them (`type` first), NULL-ended;
 * NULL for other types. The parser warns about the others and the assembler leaves them out. */
const char *const *anvil__idl_body_keys(enum anvil_shape_type type);

struct anvil__idl_apply {
    struct anvil__idl_ref target;
    struct anvil__idl_trait *traits;
    size_t trait_count;
};

struct anvil__idl_use {
    struct anvil_str_view name; /* the simple name */
    struct anvil_str_view id;   /* the absolute id */
    size_t at;
};

/* A loader event found while reading (a misplaced doc comment, an unknown control key). */
struct anvil__idl_note {
    enum anvil_severity severity;
    const char *event_id;
    const char *message;
    struct anvil_str_view shape_id;
};

struct anvil__idl_file {
    const char *name; /* for messages */
    uint16_t number;  /* 1 + the source's place in the assembly */
    const char *text;
    size_t len;
    int version; /* 1 or 2 */
    struct anvil_str_view version_text;
    struct anvil_str_view input_suffix, output_suffix;
    struct anvil__idl_entry *metadata;
    size_t metadata_count;
    struct anvil_str_view ns;
    struct anvil__idl_use *uses;
    size_t use_count;
    uint32_t *use_slots; /* use index + 1 by the name's hash (anvil__idl_use_find) */
    size_t use_mask;
    struct anvil__idl_shape *shapes;
    size_t shape_count;
    struct anvil__idl_apply *applies;
    size_t apply_count;
    struct anvil__idl_note *notes;
    size_t note_count;
};

/* The `use` statement of `f` whose name is `name`, or NULL. */
const struct anvil__idl_use *anvil__idl_use_find(const struct anvil__idl_file *f, struct anvil_str_view name);

/* What the parser hands on, statement by statement. Each returns false to stop the file (ANVIL_ECANCELED). */
struct anvil__idl_sink {
    /* A shape statement: its shape, or an operation and the input and output written inline in it. */
    bool (*shapes)(void *ctx, const struct anvil__idl_file *file, const struct anvil__idl_shape *shapes, size_t count);
    /* An `apply` statement. */
    bool (*apply)(void *ctx, const struct anvil__idl_file *file, const struct anvil__idl_apply *apply);
    void *ctx;
};

/*
 * Parses `len` bytes of `text` (IDL 1.0 or 2.0) into `*out`, handing each
 * statement to `sink` as soon as it is read (`out->number` is kept, the
 * rest of `*out` is overwritten). What the sink gets lives in
 * `statements` until the sink returns (the arena is then reset); `*out`
 * keeps the rest (version, namespace, `use`, metadata, notes) in `arena`,
 * its `shapes` and `applies` empty. ANVIL_OK; ANVIL_ESYNTAX with diag "Syntax
 * error at line L, column C: ..." (Smithy's words) and its line and column;
 * ANVIL_ENOMEM; ANVIL_ECANCELED when the sink stopped it (diag untouched).
 * A syntax error stops the file, after the sink has had the statements
 * before it.
 */
/*
 * Writes at most `max_chars` characters of `text` into `out` (`cap` bytes, NUL-terminated) for a
 * message: one line of valid UTF-8, control and invisible characters escaped. Returns the bytes used.
 */
size_t anvil__idl_quote(char *out, size_t cap, const char *text, size_t len, size_t max_chars);

int anvil__idl_parse(struct anvil_arena *arena, struct anvil_arena *statements, const struct anvil__idl_sink *sink,
                     const char *name, const char *text, size_t len, struct anvil__idl_file *out,
                     struct anvil_diag *diag);

#endif
