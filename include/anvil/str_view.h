#ifndef ANVIL_STR_VIEW_H
#define ANVIL_STR_VIEW_H

/**
 * A string view: a pointer and a length, not NUL-terminated, owning nothing.
 * Bytes may include U+0000. All functions are pure and thread-safe.
 */

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_str_view {
    const char *ptr;
    size_t len;
};

/** A view of a string literal, length known at compile time. */
#define ANVIL_SV(literal) ((struct anvil_str_view){"" literal, sizeof(literal) - 1})

/** A view of `len` bytes at `ptr`. */
ANVIL_API struct anvil_str_view anvil_sv(const char *ptr, size_t len);

/** A view of a NUL-terminated string; NULL gives the empty view. */
ANVIL_API struct anvil_str_view anvil_sv_from_cstr(const char *cstr);

/** True when both views hold the same bytes. */
ANVIL_API bool anvil_sv_eq(struct anvil_str_view a, struct anvil_str_view b);

/** True when the view holds exactly the bytes of the NUL-terminated `cstr`. */
ANVIL_API bool anvil_sv_eq_cstr(struct anvil_str_view a, const char *cstr);

/** True when the views are equal ignoring ASCII case. */
ANVIL_API bool anvil_sv_eq_ascii_nocase(struct anvil_str_view a, struct anvil_str_view b);

/** Byte-wise three-way compare (memcmp order, shorter prefix first): <0, 0, >0. */
ANVIL_API int anvil_sv_cmp(struct anvil_str_view a, struct anvil_str_view b);

/** True when `s` begins with `prefix`. */
ANVIL_API bool anvil_sv_starts_with(struct anvil_str_view s, struct anvil_str_view prefix);

/** True when `s` ends with `suffix`. */
ANVIL_API bool anvil_sv_ends_with(struct anvil_str_view s, struct anvil_str_view suffix);

/**
 * Index of the first `c` in `s` at or after `from`, or SIZE_MAX when there is
 * none (or `from` >= s.len).
 */
ANVIL_API size_t anvil_sv_find_byte(struct anvil_str_view s, size_t from, char c);

/**
 * The bytes [start, start + len) of `s`, clamped to the view: a start past
 * the end gives an empty view at the end, a len past the end stops there.
 */
ANVIL_API struct anvil_str_view anvil_sv_slice(struct anvil_str_view s, size_t start, size_t len);

/** `s` without leading and trailing ASCII white space (space, \t, \n, \v, \f, \r). */
ANVIL_API struct anvil_str_view anvil_sv_trim(struct anvil_str_view s);

/**
 * Parses the whole view as a base-10 unsigned integer no greater than `max`:
 * digits only, no sign, no spaces, at least one digit. Returns ANVIL_OK,
 * ANVIL_ESYNTAX (not a number) or ANVIL_ELIMIT (greater than `max`).
 */
ANVIL_API int anvil_sv_parse_u64(struct anvil_str_view s, uint64_t max, uint64_t *out);

ANVIL_EXTERN_C_END

#endif
