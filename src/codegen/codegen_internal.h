/* What the code generator's files share: JMESPath compiled to C, and the writer of generated text. */
#ifndef ANVIL_CODEGEN_INTERNAL_H
#define ANVIL_CODEGEN_INTERNAL_H

#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/jmespath.h"
#include "anvil/waiter.h"

/*
 * The C a compiled JMESPath expression becomes (anvil__jpc_emit): one
 * function
 *
 *     static int NAME(const struct anvil_json *root, struct anvil_arena *scratch, struct anvil_json *out)
 *
 * that stores in *out exactly the value anvil_jmespath_search() gives for
 * the expression over `root` (the same JSON, anvil_json_equal(); borrowed
 * from `root` where it can be, otherwise made in `scratch`) and returns
 * ANVIL_OK, or the status the interpreter returns for a runtime error
 * (ANVIL_ETYPE for invalid-type, ANVIL_EVALUE, ANVIL_ENOMEM, ANVIL_ELIMIT).
 * The code uses only anvil's public headers (anvil/json.h, anvil/arena.h,
 * anvil/jmespath.h) and the C standard library; it allocates nothing but
 * from `scratch`, and nothing at all for paths that only walk and compare.
 *
 * The emitter writes the function's own comment (the expression, and for a
 * matcher its comparator and expected value). The first helper it writes
 * also writes the #includes the code needs (<math.h>, <stddef.h>,
 * <string.h>, <anvil/jmespath.h>, <anvil/status.h>): abs, ceil and floor
 * need libm (-lm). Compiled code takes every value it makes from
 * `scratch`, where the interpreter takes its temporaries from the arena's
 * parent allocator: under a byte-limited arena, ANVIL_ELIMIT may come at a
 * different point than the interpreter's.
 *
 * The matcher form (anvil__jpc_emit_match) fuses the path with a waiter
 * comparator:
 *
 *     static int NAME(const struct anvil_json *root, struct anvil_arena *scratch, bool *matched)
 *
 * *matched is what anvil's waiter runtime decides for the acceptor
 * (src/behavior/waiter_match.c: a runtime error of the path counts as the
 * value null; ENOMEM and ELIMIT are returned instead).
 */

struct anvil__jpc_options {
    /*
     * Helper functions the emitted code defines once per file (static) are
     * named PREFIX_jpc_* ("ddb" or "ddb_" both give ddb_jpc_*; "" gives
     * jpc_*, as anvil gen names them).
     */
    const char *prefix;
};

/*
 * Appends the C function NAME for `expr` to `out` (and, the first time one
 * is needed, any static helper it calls to `helpers`, which the caller
 * writes before the functions; `helpers` may be the same buffer only when
 * the caller does not mind the order). ANVIL_OK; ANVIL_EUNSUPPORTED when
 * the expression cannot be compiled (diag says which construct): the
 * caller then emits the interpreter fallback (anvil__jpc_emit_fallback).
 * ANVIL_ENOMEM.
 */
int anvil__jpc_emit(const struct anvil_jmespath *expr, const char *name, const struct anvil__jpc_options *options,
                    struct anvil_buf *helpers, struct anvil_buf *out, struct anvil_diag *diag);

int anvil__jpc_emit_match(const struct anvil_jmespath *expr, enum anvil_waiter_comparator comparator,
                          const struct anvil_json *expected, const char *name, const struct anvil__jpc_options *options,
                          struct anvil_buf *helpers, struct anvil_buf *out, struct anvil_diag *diag);

/*
 * The same function NAME, made by compiling the expression's text with
 * anvil_jmespath_compile() at its first call (thread-safe, once) and
 * evaluating it with anvil_jmespath_search(); `why` goes into a comment.
 */
int anvil__jpc_emit_fallback(const struct anvil_jmespath *expr, const char *name, const char *why,
                             struct anvil_buf *out);

/*
 * Appends `text` as the inside of a block comment on one line: valid UTF-8
 * (U+FFFD for a byte that starts no character), control characters (C0,
 * DEL, C1) and the bidirectional controls that would make code read other
 * than it is as spaces, and "* /", "/ *" and "? ?" where a comment would
 * end or open (-Wcomment) or a trigraph start.
 */
int anvil__c_comment(struct anvil_buf *out, struct anvil_str_view text);

/* A model name for a message: printable ASCII kept (not '*' or '?'), anything else as '.', cut to fit `size`. */
void anvil__c_comment_text(struct anvil_str_view text, char *out, size_t size);

/*
 * Appends one line of C at `indent` columns and its newline. A line wider
 * than 120 columns is broken as the project's clang-format breaks it when
 * it has one of the shapes generated code uses (`for (;;) {`, an `if` over
 * a chain of `&&` or `||`, `LHS = RHS;`, a call whose arguments hold no
 * calls); any other line is written as it is.
 */
int anvil__c_line(struct anvil_buf *out, int indent, const char *text, size_t len);

/* anvil__c_line for a function's head (`int f(PARAMS);` or `) {`): parameters aligned after the '(' when they fit. */
int anvil__c_declaration(struct anvil_buf *out, int indent, const char *text, size_t len);

/*
 * Breaks each line of out[from...] wider than 120 columns with
 * anvil__c_line (comments wider than that reflowed, string continuations
 * left as they are). A table's or struct's head at the file's top too wide
 * for its line is laid out as clang-format lays it out: of its ways (left
 * whole, after the '=' with the '{' below, before the name, both, before
 * the name and an array's `[]`, or before the `[]` alone), the one whose
 * lines, with its rows moved as that way moves them and broken again, run
 * least past the limit (per token, as clang-format's penalty counts it);
 * the first of that order on a tie.
 */
int anvil__c_rewrap(struct anvil_buf *out, size_t from);

/* The column limit of the project's .clang-format, which generated code keeps. */
#define ANVIL__C_LIMIT 120

/* Index just past the string or character literal that starts at t[i] (`len` at most). */
size_t anvil__c_skip_literal(const char *t, size_t len, size_t i);

/* Whether t[from, to) holds the character `c` outside string and character literals. */
bool anvil__c_has(const char *t, size_t from, size_t to, char c);

/* Whether `c` may be part of a C identifier or number. */
bool anvil__c_ident_char(char c);

/* `text` without the parentheses around all of it, if it has them (`(a && b)` gives `a && b`); else `text`. Brackets
 * inside string and character literals are skipped. */
struct anvil_str_view anvil__c_unparen(struct anvil_str_view text);

/* Appends `text` as a C string literal, escaped, split into pieces that end by column 98 (after 32 columns at
 * least, deep in a nest), each next piece on a line of its own at `indent`. anvil__c_line lays out a statement holding
 * such a string again, as clang-format lays it out: the pieces aligned as one argument of a call. */
int anvil__c_string(struct anvil_buf *out, struct anvil_str_view text, int indent);

/* `static const char NAMESUFFIX[] = "text";` at `indent`, one line when it fits 120 columns, else the literal (in
 * pieces if need be) on the lines after the `=`, four columns further in, as clang-format lays it out; where
 * `static const char NAMESUFFIX[] =` is itself too wide, broken before the name too, which goes four columns in
 * (with the literal after it where that fits, else on the lines after it, eight columns in; and where `NAME[] =`
 * does not fit there, the `[] = "text"` on the next line); a newline after. */
int anvil__c_string_decl(struct anvil_buf *out, int indent, const char *name, const char *suffix,
                         struct anvil_str_view text);

/*
 * `name` in snake_case into `out` (`size` bytes, NUL-terminated, cut to fit):
 * "DescribeTable" -> "describe_table", "DBInstanceAvailable" ->
 * "db_instance_available"; letters lowered, digits kept, any other run of
 * bytes one '_'. Returns the length written.
 */
size_t anvil__c_snake(struct anvil_str_view name, char *out, size_t size);

#endif
