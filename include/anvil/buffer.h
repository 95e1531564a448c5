#ifndef ANVIL_BUFFER_H
#define ANVIL_BUFFER_H

/**
 * A growable byte buffer with a hard size cap. The struct lives in caller
 * storage (anvil_buf_init / anvil_buf_clean_up); its bytes come from the
 * allocator given at init. The contents are always followed by a NUL byte
 * (not counted in `len`) once anything was reserved, so `data` can be used as a
 * C string when the contents hold no NUL. Not thread-safe.
 */

#include <stdarg.h>

#include "anvil/allocator.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_buf {
    /** The bytes; NULL until the first reservation. */
    char *data;
    /** Bytes in use. */
    size_t len;
    /** Bytes allocated, NUL terminator included. */
    size_t capacity;
    /** Most bytes `len` may reach; an append past it fails with ANVIL_ELIMIT. */
    size_t max_len;
    struct anvil_allocator *allocator;
};

/** Default cap when anvil_buf_init() is given 0: 1 GiB. */
#define ANVIL_BUF_DEFAULT_MAX_LEN ((size_t)1 << 30)

/**
 * Makes `buf` an empty buffer using `allocator` (NULL = default) whose
 * contents may never exceed `max_len` bytes (0 = ANVIL_BUF_DEFAULT_MAX_LEN).
 * Allocates nothing; cannot fail.
 */
ANVIL_API void anvil_buf_init(struct anvil_buf *buf, struct anvil_allocator *allocator, size_t max_len);

/** Releases the bytes and leaves `buf` empty but still initialised. Safe on a zeroed struct. */
ANVIL_API void anvil_buf_clean_up(struct anvil_buf *buf);

/**
 * Makes room for `extra` more bytes. ANVIL_OK, ANVIL_ELIMIT when len + extra
 * would pass max_len (nothing changes), or ANVIL_ENOMEM (nothing changes).
 */
ANVIL_API int anvil_buf_reserve(struct anvil_buf *buf, size_t extra);

/** Appends `len` bytes. Same errors as anvil_buf_reserve(); on error nothing is appended. */
ANVIL_API int anvil_buf_append(struct anvil_buf *buf, const void *bytes, size_t len);

/** Appends one byte. */
ANVIL_API int anvil_buf_append_byte(struct anvil_buf *buf, char byte);

/** Appends a NUL-terminated string (without its NUL). */
ANVIL_API int anvil_buf_append_cstr(struct anvil_buf *buf, const char *cstr);

/** Appends the bytes of a view. */
ANVIL_API int anvil_buf_append_sv(struct anvil_buf *buf, struct anvil_str_view sv);

/** Appends printf-formatted text. On error nothing is appended. */
ANVIL_API int anvil_buf_appendf(struct anvil_buf *buf, const char *fmt, ...) ANVIL_PRINTF(2, 3);

/** anvil_buf_appendf() with a va_list. */
ANVIL_API int anvil_buf_vappendf(struct anvil_buf *buf, const char *fmt, va_list args) ANVIL_PRINTF(2, 0);

/** Forgets the contents but keeps the allocation. */
ANVIL_API void anvil_buf_clear(struct anvil_buf *buf);

/** Shortens the contents to `len` bytes; longer lengths are ignored. */
ANVIL_API void anvil_buf_truncate(struct anvil_buf *buf, size_t len);

/** A view of the current contents, valid until the next change. */
ANVIL_API struct anvil_str_view anvil_buf_view(const struct anvil_buf *buf);

/**
 * Hands the bytes to the caller, who releases them with anvil_mem_release() on
 * the buffer's allocator, and leaves `buf` empty. Always returns a
 * NUL-terminated string (an empty buffer allocates one byte); NULL only on
 * ANVIL_ENOMEM. `*len_out`, when not NULL, receives the length.
 */
ANVIL_API char *anvil_buf_steal(struct anvil_buf *buf, size_t *len_out);

ANVIL_EXTERN_C_END

#endif
