#ifndef ANVIL_JMESPATH_H
#define ANVIL_JMESPATH_H

/**
 * JMESPath: compile an expression once, evaluate it against many documents.
 * docs/jmespath.md describes the dialect (the official specification and
 * compliance suite) and the choices made where implementations differ.
 *
 * A compiled expression is immutable: any number of threads may evaluate it
 * at once. Evaluation never copies or changes its input: results that are
 * parts of the input point into it, and new values (projections,
 * multi-selects, function results) are built in the caller's result arena.
 * A result is therefore valid while both the input document and the result
 * arena are.
 *
 * Errors are typed like the specification's:
 *
 * | status            | JMESPath error kind |
 * |-------------------|---------------------|
 * | ANVIL_ESYNTAX     | syntax              |
 * | ANVIL_ETYPE       | invalid-type        |
 * | ANVIL_EARITY      | invalid-arity       |
 * | ANVIL_EVALUE      | invalid-value       |
 * | ANVIL_ENOTFOUND   | unknown-function    |
 *
 * plus ANVIL_ELIMIT for the limits below and ANVIL_ENOMEM. Unknown functions
 * and wrong argument counts are found at compile time.
 */

#include "anvil/json.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_jmespath;

#define ANVIL_JMESPATH_DEFAULT_MAX_LENGTH ((size_t)64 << 10)
#define ANVIL_JMESPATH_DEFAULT_MAX_DEPTH 256

/** Compile options; zero means the default for every field. */
struct anvil_jmespath_options {
    /** Longest expression text in bytes. Default 64 KiB. */
    size_t max_length;
    /** Deepest nesting of the expression (parentheses, projections, functions, `!`). Default 256, at most 4096. */
    size_t max_depth;
};

/**
 * Compiles `len` bytes of `text` (need not be NUL-terminated). On success
 * stores the expression in `*out`, which the caller frees with
 * anvil_jmespath_destroy(). On error `*out` is NULL and `diag` (may be NULL)
 * gives the kind as its code, the 1-based column of the problem and a
 * message. ANVIL_EINVAL for NULL arguments or max_depth above 4096.
 * Thread-safe.
 */
ANVIL_API int anvil_jmespath_compile(struct anvil_allocator *allocator, const char *text, size_t len,
                                     const struct anvil_jmespath_options *options, struct anvil_jmespath **out,
                                     struct anvil_diag *diag);

/** Frees a compiled expression. NULL is ignored. */
ANVIL_API void anvil_jmespath_destroy(struct anvil_jmespath *expr);

/**
 * Evaluates `expr` against `input` and stores the result in `*result`.
 * Values the evaluation builds go into `result_arena`; crossing that arena's
 * byte limit gives ANVIL_ELIMIT. Scratch memory comes from the arena's
 * parent allocator and is released before returning. On a runtime error
 * (ANVIL_ETYPE, ANVIL_EVALUE, ANVIL_ELIMIT, ANVIL_ENOMEM) `*result` is left
 * unchanged and `diag` (may be NULL) says what went wrong. Thread-safe for
 * one expression and many threads, each with its own arena.
 */
ANVIL_API int anvil_jmespath_search(const struct anvil_jmespath *expr, const struct anvil_json *input,
                                    struct anvil_arena *result_arena, struct anvil_json *result,
                                    struct anvil_diag *diag);

/** The expression's source text, as compiled (not NUL-terminated in general). */
ANVIL_API struct anvil_str_view anvil_jmespath_text(const struct anvil_jmespath *expr);

/**
 * Appends the parsed tree to `out` as JSON: `{"type": "...", ...}` nodes in
 * the shape jmespath.py's parser prints. ANVIL_OK, ANVIL_ENOMEM, ANVIL_ELIMIT.
 */
ANVIL_API int anvil_jmespath_write_ast(const struct anvil_jmespath *expr, unsigned flags, struct anvil_buf *out);

/**
 * The specification's name for the error kind of `status`: "syntax",
 * "invalid-type", "invalid-arity", "invalid-value", "unknown-function",
 * "limit", or "error" for anything else. Static storage.
 */
ANVIL_API const char *anvil_jmespath_error_kind(int status);

/** JMESPath truthiness: false, null, "", [] and {} are false; everything else (0 too) is true. */
ANVIL_API bool anvil_jmespath_truthy(const struct anvil_json *value);

ANVIL_EXTERN_C_END

#endif
