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

struct anvil_arena {
    struct anvil_allocator *parent;
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
