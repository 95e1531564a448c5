#ifndef ANVIL_CORE_DIAG_ORIGIN_H
#define ANVIL_CORE_DIAG_ORIGIN_H

/*
 * Where in anvil's source an error was first raised (anvil_diag_origin()):
 * noted in debug builds (ANVIL_DEBUG_ORIGIN, set for CMAKE_BUILD_TYPE=Debug),
 * nothing in release builds. anvil/diag.h includes this inside the library;
 * not installed.
 */

#include "anvil/diag.h"

/* Notes `file`:`line` in the diag unless a place is kept already (src/core/diag.c); returns `code`. */
int anvil__diag_note_origin(struct anvil_diag *diag, const char *file, int line, int code);

#ifdef ANVIL_DEBUG_ORIGIN
/* Every anvil_diag_set() and anvil_diag_set_at() notes its place (zstd's RETURN_ERROR_IF practice). */
#define anvil_diag_set(diag, ...)                                                                                      \
    anvil__diag_note_origin((diag), __FILE__, __LINE__, (anvil_diag_set)((diag), __VA_ARGS__))
#define anvil_diag_set_at(diag, ...)                                                                                   \
    anvil__diag_note_origin((diag), __FILE__, __LINE__, (anvil_diag_set_at)((diag), __VA_ARGS__))
#endif

/*
 * Where an error was raised, through a module's own error helper (a parser's
 * s_error(ps, code, at, fmt, ...)): in a debug build the helper takes the
 * caller's __FILE__ and __LINE__ first and notes them in the diag
 * (anvil_diag_origin()). Declare `int (NAME)(ANVIL__ORIGIN_DECL args...)
 * ANVIL_PRINTF(F + ANVIL__ORIGIN_ARGC, ...)`, then `#define NAME(...)
 * (NAME)(ANVIL__ORIGIN_HERE __VA_ARGS__)`, and after filling the diag
 * ANVIL__ORIGIN_NOTE(diag, code). A helper that reports through another
 * hands its caller's place on with ANVIL__ORIGIN_PASS. Release builds pass
 * and note nothing.
 */
#ifdef ANVIL_DEBUG_ORIGIN
#define ANVIL__ORIGIN_DECL const char *origin_file_, int origin_line_,
#define ANVIL__ORIGIN_HERE __FILE__, __LINE__,
#define ANVIL__ORIGIN_PASS origin_file_, origin_line_,
#define ANVIL__ORIGIN_ARGC 2
#define ANVIL__ORIGIN_NOTE(diag, code) anvil__diag_note_origin((diag), origin_file_, origin_line_, (code))
#else
#define ANVIL__ORIGIN_DECL
#define ANVIL__ORIGIN_HERE
#define ANVIL__ORIGIN_PASS
#define ANVIL__ORIGIN_ARGC 0
#define ANVIL__ORIGIN_NOTE(diag, code) ((void)0)
#endif

#endif
