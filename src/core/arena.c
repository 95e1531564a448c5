/* madvise(MADV_HUGEPAGE) is a Linux extension. */
#define _DEFAULT_SOURCE

#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "anvil/status.h"
#include "core/arena_internal.h"

#define S_HEADER_SIZE offsetof(struct anvil__arena_block, data)
#define S_MAX_ALIGN ((size_t)64)

/* Settings shared by heap arenas and inline ones; `arena` must be zeroed. */
static void s_init(struct anvil_arena *arena, struct anvil_allocator *parent, size_t first_block_size,
                   size_t max_bytes) {
    arena->parent = parent ? parent : anvil_allocator_default();
    arena->cacheable = arena->parent == anvil_allocator_default();
    arena->first_block_size = first_block_size ? first_block_size : ANVIL_ARENA_DEFAULT_BLOCK_SIZE;
    arena->next_block_size = arena->first_block_size;
    arena->max_bytes = max_bytes ? max_bytes : ANVIL_ARENA_DEFAULT_MAX_BYTES;
}

int anvil_arena_new(struct anvil_allocator *parent, const struct anvil_arena_options *options,
                    struct anvil_arena **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_arena *arena = anvil_mem_calloc(parent, 1, sizeof(*arena));
    if (!arena) {
        return ANVIL_ENOMEM;
    }
    s_init(arena, parent, options ? options->first_block_size : 0, options ? options->max_bytes : 0);
    *out = arena;
    return ANVIL_OK;
}

static void s_free_chain(struct anvil_arena *arena, struct anvil__arena_block *block) {
    while (block) {
        struct anvil__arena_block *prev = block->prev;
        arena->reserved -= S_HEADER_SIZE + block->size;
        if (!arena->cacheable || !anvil__arena_cache_put(block)) {
            anvil_mem_release(arena->parent, block);
        }
        block = prev;
    }
}

void anvil__arena_init_inline(struct anvil_arena *arena, struct anvil_allocator *parent, void *buffer, size_t size) {
    static const struct anvil_arena zero; /* not memset(): see s_node() in src/jmespath/parser.c */
    *arena = zero;
    s_init(arena, parent, size > ANVIL_ARENA_DEFAULT_BLOCK_SIZE ? size : ANVIL_ARENA_DEFAULT_BLOCK_SIZE, 0);
    /* The buffer is the current block but not in the chain, so it is never freed. */
    arena->cursor = buffer;
    arena->end = (unsigned char *)buffer + size;
}

void anvil__arena_clean_up(struct anvil_arena *arena) {
    s_free_chain(arena, arena->head);
    arena->head = NULL;
}

void anvil_arena_destroy(struct anvil_arena *arena) {
    if (!arena) {
        return;
    }
    s_free_chain(arena, arena->head);
    anvil_mem_release(arena->parent, arena);
}

/*
 * Large blocks from malloc are fresh mmap(2) memory, faulted in 4 KiB at a
 * time as the parser writes them: 7,000 faults for a 14 MB document, which
 * dominated a one-shot `anvil query`. Asking for transparent huge pages
 * makes that a few dozen. Only for the default allocator, whose memory we
 * know is ordinary anonymous memory; a hint the kernel may ignore.
 */
static void s_advise_huge(const struct anvil_arena *arena, void *block, size_t total) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!arena->cacheable || total < 2 * huge) {
        return;
    }
    uintptr_t start = ((uintptr_t)block + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)block + total) & ~(huge - 1);
    if (end > start) {
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
    }
#else
    (void)arena, (void)block, (void)total;
#endif
}

static struct anvil__arena_block *s_new_block(struct anvil_arena *arena, size_t data_size, bool dedicated) {
    size_t total;
    if (anvil__size_add(data_size, S_HEADER_SIZE, &total)) {
        arena->exhausted = true;
        return NULL;
    }
    if (total > arena->max_bytes || arena->reserved > arena->max_bytes - total) {
        arena->exhausted = true;
        return NULL;
    }
    struct anvil__arena_block *block = arena->cacheable ? anvil__arena_cache_take(data_size) : NULL;
    if (block && S_HEADER_SIZE + block->size > arena->max_bytes - arena->reserved) {
        anvil__arena_cache_put(block); /* larger than asked, and that would cross the limit */
        block = NULL;
    }
    if (!block) {
        block = anvil_mem_acquire(arena->parent, total);
        if (!block) {
            return NULL;
        }
        block->size = data_size;
        s_advise_huge(arena, block, total);
    }
    block->dedicated = dedicated;
    arena->reserved += S_HEADER_SIZE + block->size;
    return block;
}

void *anvil__arena_alloc_slow(struct anvil_arena *arena, size_t size, size_t align) {
    size_t need;
    if (anvil__size_add(size, align, &need)) {
        arena->exhausted = true;
        return NULL;
    }
    if (need > arena->next_block_size / 2) {
        /* A large request gets a block of its own behind the current one, so
         * the space left in the current block is not wasted. */
        struct anvil__arena_block *block = s_new_block(arena, need, true);
        if (!block) {
            return NULL;
        }
        if (arena->head) {
            block->prev = arena->head->prev;
            arena->head->prev = block;
        } else {
            block->prev = NULL;
            arena->head = block;
        }
        uintptr_t at = ((uintptr_t)block->data + (align - 1)) & ~(uintptr_t)(align - 1);
        arena->used += size;
        return (void *)at;
    }
    size_t block_size = arena->next_block_size;
    size_t hinted = arena->hint ? arena->hint(arena->hint_ctx) : 0;
    if (hinted) {
        block_size = hinted > need ? hinted : need;
    } else if (arena->next_block_size < ANVIL_ARENA_MAX_BLOCK_SIZE) {
        arena->next_block_size *= 2;
    }
    struct anvil__arena_block *block = s_new_block(arena, block_size, false);
    if (!block) {
        return NULL;
    }
    block->prev = arena->head;
    arena->head = block;
    arena->cursor = block->data;
    arena->end = block->data + block->size;
    return anvil__arena_bump(arena, size, align);
}

void *anvil_arena_alloc(struct anvil_arena *arena, size_t size, size_t align) {
    if (!arena) {
        return NULL;
    }
    if (align == 0) {
        align = alignof(max_align_t);
    }
    if (align > S_MAX_ALIGN || (align & (align - 1)) != 0) {
        return NULL;
    }
    return anvil__arena_bump(arena, size ? size : 1, align);
}

char *anvil_arena_strndup(struct anvil_arena *arena, const char *src, size_t len) {
    size_t total;
    if (anvil__size_add(len, 1, &total)) {
        return NULL;
    }
    char *copy = anvil_arena_alloc(arena, total, 1);
    if (copy) {
        if (len) {
            memcpy(copy, src, len);
        }
        copy[len] = '\0';
    }
    return copy;
}

void anvil_arena_reset(struct anvil_arena *arena) {
    if (!arena) {
        return;
    }
    struct anvil__arena_block *keep = arena->head && !arena->head->dedicated ? arena->head : NULL;
    s_free_chain(arena, keep ? keep->prev : arena->head);
    if (keep) {
        keep->prev = NULL;
        arena->cursor = keep->data;
        arena->end = keep->data + keep->size;
    } else {
        arena->cursor = NULL;
        arena->end = NULL;
    }
    arena->head = keep;
    arena->used = 0;
    arena->exhausted = false;
}

size_t anvil_arena_bytes_reserved(const struct anvil_arena *arena) {
    return arena ? arena->reserved : 0;
}

size_t anvil_arena_bytes_used(const struct anvil_arena *arena) {
    return arena ? arena->used : 0;
}

bool anvil_arena_exhausted(const struct anvil_arena *arena) {
    return arena && arena->exhausted;
}
