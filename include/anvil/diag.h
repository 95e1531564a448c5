#ifndef ANVIL_DIAG_H
#define ANVIL_DIAG_H

/**
 * Diagnostics: where and why input was rejected. Parsers and validators fill
 * one when they return an error (a NULL diag pointer is always allowed and
 * means "don't tell me"). The struct lives in caller storage, holds no
 * pointers to allocated memory and needs no clean-up.
 */

#include <stdarg.h>
#include <stdint.h>

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

/** Long enough for a credential chain naming every provider it tried and why. */
#define ANVIL_DIAG_MESSAGE_MAX 1024

struct anvil_diag {
    /** The status the failing call returned (ANVIL_OK when the diag is empty). */
    int code;
    /** 1-based line of the problem, or 0 when the input has no lines (or unknown). */
    size_t line;
    /** 1-based column in bytes within the line, or 0 when unknown. */
    size_t column;
    /** 0-based byte offset into the input. Meaningful only when `line` is not 0. */
    size_t offset;
    /** What went wrong, NUL-terminated, truncated to fit (UTF-8 kept whole). */
    char message[ANVIL_DIAG_MESSAGE_MAX];
    /**
     * Private: where in anvil's source the error was first raised
     * (anvil_diag_origin(); debug builds). Release builds carry it too, so
     * both have one layout.
     */
    uint32_t origin_state_;
    char origin_[60];
};

/** Empties the diag (code ANVIL_OK, no position, empty message). NULL is ignored. */
ANVIL_API void anvil_diag_clear(struct anvil_diag *diag);

/**
 * Fills the diag with a code, a position and a printf-formatted message.
 * Returns `code`, so a parser can write `return anvil_diag_set(...)`. A NULL
 * diag is ignored (the code is still returned).
 */
ANVIL_API int anvil_diag_set(struct anvil_diag *diag, int code, size_t line, size_t column, size_t offset,
                             const char *fmt, ...) ANVIL_PRINTF(6, 7);

/** anvil_diag_set() with a va_list. */
ANVIL_API int anvil_diag_vset(struct anvil_diag *diag, int code, size_t line, size_t column, size_t offset,
                              const char *fmt, va_list args) ANVIL_PRINTF(6, 0);

/**
 * Fills the diag with `code` and the position of byte `offset` in `text`
 * (line and column counted from the text, \n ends a line), then the message.
 * `offset` past the end is clamped to the end.
 */
ANVIL_API int anvil_diag_set_at(struct anvil_diag *diag, int code, const char *text, size_t text_len, size_t offset,
                                const char *fmt, ...) ANVIL_PRINTF(6, 7);

/** anvil_diag_set_at() with a va_list. */
ANVIL_API int anvil_diag_vset_at(struct anvil_diag *diag, int code, const char *text, size_t text_len, size_t offset,
                                 const char *fmt, va_list args) ANVIL_PRINTF(6, 0);

/**
 * Writes "LINE:COLUMN: MESSAGE" (or just "MESSAGE" without a position),
 * prefixed by "SOURCE:" when `source` is not NULL, into `out` (size `out_size`,
 * always NUL-terminated when out_size > 0). Returns the length the full text
 * needs, like snprintf.
 */
ANVIL_API size_t anvil_diag_format(const struct anvil_diag *diag, const char *source, char *out, size_t out_size);

/**
 * In a debug build of anvil (CMAKE_BUILD_TYPE=Debug), the place in anvil's
 * own source where the diag's error was first raised, as
 * "src/json/json_parse.c:412": the innermost raise since anvil_diag_clear()
 * (a diag never cleared keeps the first after it was made); later calls that
 * wrap the message keep it. "" in release builds, for an empty diag, and for
 * a NULL one. For bug reports (`anvil --debug`), never for program logic.
 */
ANVIL_API const char *anvil_diag_origin(const struct anvil_diag *diag);

ANVIL_EXTERN_C_END

#ifdef ANVIL_BUILDING
/* Inside the library: a debug build notes where each error is raised (src/core/diag_origin.h). */
#include "core/diag_origin.h"
#endif

#endif
