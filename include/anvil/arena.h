#ifndef ANVIL_ARENA_H
#define ANVIL_ARENA_H

/**
 * Arena (bump) allocator. Trees such as JSON documents, JMESPath ASTs and
 * models live in one arena owned by one handle, so one destroy frees them all.
 * Memory comes from the arena's parent allocator in blocks that grow
 * geometrically; single allocations larger than half a block get a block of
 * their own. A hard byte limit bounds the total the arena may take from its
 * parent. An arena is not thread-safe: one thread at a time.
 */

#include "anvil/allocator.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_arena;

/** Options for anvil_arena_new(); zero means the default for every field. */
struct anvil_arena_options {
    /** Size of the first block in bytes. Default ANVIL_ARENA_DEFAULT_BLOCK_SIZE. */
    size_t first_block_size;
    /**
     * Most bytes the arena may take from its parent allocator, block headers
     * included. Default ANVIL_ARENA_DEFAULT_MAX_BYTES. An allocation that would
     * cross it fails (NULL) and anvil_arena_exhausted() then reports true.
     */
    size_t max_bytes;
};

#define ANVIL_ARENA_DEFAULT_BLOCK_SIZE ((size_t)4096)
/** Blocks double in size up to this; a larger first block may be asked for. */
#define ANVIL_ARENA_MAX_BLOCK_SIZE ((size_t)1 << 24)
#define ANVIL_ARENA_DEFAULT_MAX_BYTES ((size_t)1 << 32)
/** Most bytes of freed blocks the process-wide block cache keeps. */
#define ANVIL_ARENA_CACHE_MAX_BYTES ((size_t)64 << 20)

/**
 * Creates an empty arena drawing from `parent` (NULL = default). `options` may
 * be NULL. No block is taken until the first allocation. On success stores the
 * new arena in `*out` and returns ANVIL_OK; otherwise ANVIL_ENOMEM or
 * ANVIL_EINVAL (NULL `out`). The caller destroys it with anvil_arena_destroy().
 */
ANVIL_API int anvil_arena_new(struct anvil_allocator *parent, const struct anvil_arena_options *options,
                              struct anvil_arena **out);

/** Frees every block and the arena itself. NULL is ignored. */
ANVIL_API void anvil_arena_destroy(struct anvil_arena *arena);

/**
 * Returns `size` bytes aligned to `align` (a power of two, at most 64; 0 means
 * alignof(max_align_t)), valid until the arena is reset or destroyed. Returns
 * NULL when the parent allocator fails or the byte limit would be crossed;
 * the arena stays usable either way.
 */
ANVIL_API void *anvil_arena_alloc(struct anvil_arena *arena, size_t size, size_t align);

/** Copies `len` bytes of `src` into the arena, adding a NUL; NULL on failure. */
ANVIL_API char *anvil_arena_strndup(struct anvil_arena *arena, const char *src, size_t len);

/**
 * Forgets every allocation but keeps the first block for reuse, returning the
 * rest to the parent. Pointers into the arena become invalid.
 */
ANVIL_API void anvil_arena_reset(struct anvil_arena *arena);

/** Bytes the arena currently holds from its parent, block headers included. */
ANVIL_API size_t anvil_arena_bytes_reserved(const struct anvil_arena *arena);

/** Bytes handed out by anvil_arena_alloc() since creation or the last reset. */
ANVIL_API size_t anvil_arena_bytes_used(const struct anvil_arena *arena);

/**
 * True when an allocation failed because of the arena's max_bytes limit (as
 * opposed to the parent allocator failing), since creation or the last
 * reset. Lets callers tell ANVIL_ELIMIT from ANVIL_ENOMEM.
 */
ANVIL_API bool anvil_arena_exhausted(const struct anvil_arena *arena);

/**
 * Arenas that draw from the default allocator keep freed blocks of 256 KiB
 * or more in a small process-wide cache (at most ANVIL_ARENA_CACHE_MAX_BYTES),
 * so parsing large documents one after another reuses memory instead of
 * faulting in fresh pages each time. This frees the cached blocks and
 * returns how many bytes that was. Thread-safe.
 */
ANVIL_API size_t anvil_arena_cache_trim(void);

ANVIL_EXTERN_C_END

#endif
