#ifndef ANVIL_ARENA_INTERNAL_H
#define ANVIL_ARENA_INTERNAL_H

/*
 * The arena's layout, exposed inside the library so hot paths (the JSON
 * parser, the JMESPath evaluator) can bump-allocate inline.
 */

#include <stdalign.h>

#include "anvil/arena.h"
#include "core/core_internal.h"

struct anvil__arena_block {
    struct anvil__arena_block *prev;
    /* Bytes in `data`. */
    size_t size;
    /* A block made for one large allocation; never becomes the current block. */
    bool dedicated;
    alignas(max_align_t) unsigned char data[];
};

/*
 * Asked for the size of the next regular block when the current one is full;
 * 0 = use the arena's own doubling rule. The JSON parser estimates what the
 * rest of the document will need.
 */
typedef size_t anvil__arena_hint_fn(void *ctx);

struct anvil_arena {
    struct anvil_allocator *parent;
    /* Blocks may go to and come from the process-wide cache (default allocator only). */
    bool cacheable;
    anvil__arena_hint_fn *hint;
    void *hint_ctx;
    /* Newest regular block first; dedicated blocks sit behind it. */
    struct anvil__arena_block *head;
    unsigned char *cursor;
    unsigned char *end;
    size_t first_block_size;
    size_t next_block_size;
    size_t max_bytes;
    size_t reserved;
    size_t used;
    bool exhausted;
};

void *anvil__arena_alloc_slow(struct anvil_arena *arena, size_t size, size_t align);

/*
 * Makes `arena` (caller storage) an arena whose first `size` bytes come from
 * `buffer` (caller-owned, max_align_t-aligned), drawing further blocks from
 * `parent`. For objects that want one allocation for themselves and their
 * first allocations. Such an arena must not be reset; release it with
 * anvil__arena_clean_up(), never anvil_arena_destroy().
 */
void anvil__arena_init_inline(struct anvil_arena *arena, struct anvil_allocator *parent, void *buffer, size_t size);

/* Frees the blocks an inline arena took from its parent. */
void anvil__arena_clean_up(struct anvil_arena *arena);

/* Only blocks of at least this size are cached. */
#define ANVIL_ARENA_CACHE_MIN_BLOCK ((size_t)256 << 10)

/* A cached block of `size` to 2 * `size` data bytes, or NULL. */
struct anvil__arena_block *anvil__arena_cache_take(size_t size);

/* Offers a block to the cache; false when it does not fit (the caller frees it). */
bool anvil__arena_cache_put(struct anvil__arena_block *block);

/* Fast path: `align` must be a power of two no larger than 64. */
static inline void *anvil__arena_bump(struct anvil_arena *arena, size_t size, size_t align) {
    uintptr_t at = ((uintptr_t)arena->cursor + (align - 1)) & ~(uintptr_t)(align - 1);
    if (ANVIL_LIKELY(arena->cursor != NULL && at <= (uintptr_t)arena->end &&
                     size <= (size_t)((uintptr_t)arena->end - at))) {
        arena->cursor = (unsigned char *)(at + size);
        arena->used += size;
        return (void *)at;
    }
    return anvil__arena_alloc_slow(arena, size, align);
}

#endif
