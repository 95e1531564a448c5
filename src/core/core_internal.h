#ifndef ANVIL_CORE_INTERNAL_H
#define ANVIL_CORE_INTERNAL_H

/* Helpers shared by every module inside the library; not installed. */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "anvil/common.h"
#include "anvil/str_view.h"

#define ANVIL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__) || defined(__clang__)
#define ANVIL_LIKELY(x) __builtin_expect(!!(x), 1)
#define ANVIL_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* A cold path kept out of its caller, so that the caller's hot path stays small. */
#define ANVIL_NOINLINE __attribute__((noinline))
/* Asks for the cache line at `addr` (read, kept); never faults. */
#define ANVIL_PREFETCH(addr) __builtin_prefetch(addr)
#else
#define ANVIL_LIKELY(x) (x)
#define ANVIL_UNLIKELY(x) (x)
#define ANVIL_NOINLINE
#define ANVIL_PREFETCH(addr) ((void)(addr))
#endif

/*
 * The private layout behind a public struct of ANVIL_OPAQUE_STORAGE: declared
 * `struct ANVIL__MAY_ALIAS anvil__name {...}` (its accesses may alias the
 * caller's storage type, so no compiler assumes they cannot) and checked to
 * fit with ANVIL__OPAQUE_FITS.
 */
#if defined(__GNUC__) || defined(__clang__)
#define ANVIL__MAY_ALIAS __attribute__((__may_alias__))
#else
#define ANVIL__MAY_ALIAS
#endif
#define ANVIL__OPAQUE_FITS(inner, outer)                                                                               \
    _Static_assert(sizeof(struct inner) <= sizeof(struct outer) && _Alignof(struct inner) <= _Alignof(struct outer),   \
                   #inner " must fit in " #outer)

/* anvil_sv_eq and anvil_sv_find_byte for hot loops over short strings (ids, names): inline, no memchr call. */
static inline bool anvil__sv_same(struct anvil_str_view a, struct anvil_str_view b) {
    return a.len == b.len && (a.ptr == b.ptr || a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static inline size_t anvil__sv_index(struct anvil_str_view s, char c) {
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] == c) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* Size arithmetic that reports overflow instead of wrapping: true = overflowed. */
static inline bool anvil__size_add(size_t a, size_t b, size_t *out) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_add_overflow(a, b, out);
#else
    *out = a + b;
    return *out < a;
#endif
}

static inline bool anvil__size_mul(size_t a, size_t b, size_t *out) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_mul_overflow(a, b, out);
#else
    *out = a * b;
    return a != 0 && *out / a != b;
#endif
}

/* Validates UTF-8 (RFC 3629: no overlongs, surrogates or code points above U+10FFFF). */
bool anvil__utf8_valid(const char *bytes, size_t len);

/*
 * Length of the valid UTF-8 sequence starting at `p` (1-4), or 0 if it is
 * invalid or truncated before `end`.
 */
size_t anvil__utf8_sequence(const unsigned char *p, const unsigned char *end);

struct anvil_allocator;
struct anvil_arena;

/* Copies at most `max` bytes of `text` into `arena` as valid UTF-8 (anvil_text_append_utf8()); ANVIL_ENOMEM. */
int anvil__text_keep(struct anvil_arena *arena, struct anvil_str_view text, size_t max, struct anvil_str_view *out);

/*
 * Grows a heap array to hold at least `min_capacity` elements of
 * `elem_size` bytes, doubling (from 16), so appends stay amortised O(1).
 * ANVIL_OK; ANVIL_ELIMIT when the size overflows; ANVIL_ENOMEM (the array is
 * then unchanged).
 */
int anvil__mem_grow(struct anvil_allocator *allocator, void **array, size_t *capacity, size_t elem_size,
                    size_t min_capacity);

static inline uint64_t anvil__u64_add_sat(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Sleeps `ms` on `env` in slices of at most `slice_ms` (a signal does not
 * cut the env's sleep short; an env that cancels its sleeps is asked again
 * each slice): ANVIL_OK, or ANVIL_ECANCELED as soon as *cancel (may be
 * NULL) is set, seen before each slice, or the env's own sleep was
 * cancelled. The one cancel-aware sleep of the
 * blocking drivers (the client's backoffs, anvil_wait()'s delays).
 */
struct anvil_env;
int anvil__env_sleep_sliced(const struct anvil_env *env, uint64_t ms, const volatile sig_atomic_t *cancel,
                            uint64_t slice_ms);

/*
 * Opens `path` read-only, non-blocking and close-on-exec, and only when it
 * is a regular file: a FIFO would block a read forever, a device never end,
 * a directory cannot be read. 0 with `*fd` set; else `*fd` is -1 and the
 * result is the errno of the open (ENOENT, EACCES...) or -1 for a path that
 * is not a regular file.
 */
int anvil__open_regular(const char *path, int *fd);

/*
 * Appends everything `fd` holds to `out`, keeping `out` at most `max` bytes:
 * ANVIL_OK; ANVIL_ELIMIT past `max`; ANVIL_EIO (errno says why);
 * ANVIL_ENOMEM. Retries reads a signal interrupted.
 */
struct anvil_buf;
int anvil__read_fd(int fd, size_t max, struct anvil_buf *out);

#endif
