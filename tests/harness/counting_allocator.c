#include "counting_allocator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_MAGIC_LIVE UINT64_C(0xA11C0C0FFEE1A11C)
#define S_MAGIC_DEAD UINT64_C(0xDEADBEEFDEADBEEF)

struct anvil_counting_block {
    struct anvil_counting_block *prev;
    struct anvil_counting_block *next;
    size_t size;
    size_t serial;
    uint64_t magic;
};

/* The header is padded so the user's block keeps max_align_t alignment. */
union s_header {
    struct anvil_counting_block block;
    max_align_t align;
    unsigned char pad[(sizeof(struct anvil_counting_block) + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
                      sizeof(max_align_t)];
};

static struct anvil_counting_block *s_block_of(void *ptr) {
    return &((union s_header *)ptr - 1)->block;
}

static void s_link(struct anvil_counting_allocator *c, struct anvil_counting_block *b) {
    b->prev = NULL;
    b->next = c->live;
    if (c->live) {
        c->live->prev = b;
    }
    c->live = b;
    c->live_count++;
    c->live_bytes += b->size;
    if (c->live_bytes > c->peak_bytes) {
        c->peak_bytes = c->live_bytes;
    }
}

static void s_unlink(struct anvil_counting_allocator *c, struct anvil_counting_block *b) {
    if (b->prev) {
        b->prev->next = b->next;
    } else {
        c->live = b->next;
    }
    if (b->next) {
        b->next->prev = b->prev;
    }
    c->live_count--;
    c->live_bytes -= b->size;
}

static bool s_should_fail(struct anvil_counting_allocator *c) {
    c->attempts++;
    if (c->fail_at != 0 && c->attempts == c->fail_at) {
        c->injected = true;
        return true;
    }
    return false;
}

static void *s_acquire(struct anvil_allocator *base, size_t size) {
    struct anvil_counting_allocator *c = base->impl;
    if (s_should_fail(c) || size > SIZE_MAX - sizeof(union s_header)) {
        return NULL;
    }
    union s_header *h = malloc(sizeof(*h) + size);
    if (!h) {
        return NULL;
    }
    h->block.size = size;
    h->block.serial = c->attempts;
    h->block.magic = S_MAGIC_LIVE;
    s_link(c, &h->block);
    return h + 1;
}

static bool s_owned(struct anvil_counting_allocator *c, void *ptr) {
    if (s_block_of(ptr)->magic != S_MAGIC_LIVE) {
        c->bad_releases++;
        fprintf(stderr, "counting allocator: release of a pointer it does not own (%p)\n", ptr);
        return false;
    }
    return true;
}

static void *s_realloc(struct anvil_allocator *base, void *ptr, size_t size) {
    struct anvil_counting_allocator *c = base->impl;
    if (!s_owned(c, ptr) || s_should_fail(c) || size > SIZE_MAX - sizeof(union s_header)) {
        return NULL;
    }
    struct anvil_counting_block *old = s_block_of(ptr);
    /* Always move, so callers that keep stale pointers are caught by ASan. */
    union s_header *h = malloc(sizeof(*h) + size);
    if (!h) {
        return NULL;
    }
    memcpy(h + 1, ptr, old->size < size ? old->size : size);
    h->block.size = size;
    h->block.serial = c->attempts;
    h->block.magic = S_MAGIC_LIVE;
    s_unlink(c, old);
    old->magic = S_MAGIC_DEAD;
    free(old);
    s_link(c, &h->block);
    return h + 1;
}

static void s_release(struct anvil_allocator *base, void *ptr) {
    struct anvil_counting_allocator *c = base->impl;
    if (!s_owned(c, ptr)) {
        return;
    }
    struct anvil_counting_block *b = s_block_of(ptr);
    s_unlink(c, b);
    b->magic = S_MAGIC_DEAD;
    free(b);
}

void anvil_counting_allocator_init(struct anvil_counting_allocator *counting, size_t fail_at) {
    memset(counting, 0, sizeof(*counting));
    counting->base.mem_acquire = s_acquire;
    counting->base.mem_realloc = s_realloc;
    counting->base.mem_release = s_release;
    counting->base.impl = counting;
    counting->fail_at = fail_at;
}

size_t anvil_counting_allocator_report_leaks(const struct anvil_counting_allocator *counting, const char *test_name) {
    size_t shown = 0;
    for (const struct anvil_counting_block *b = counting->live; b; b = b->next) {
        if (shown++ < 20) {
            fprintf(stderr, "%s: leak: allocation #%zu of %zu bytes never released\n", test_name, b->serial, b->size);
        }
    }
    if (shown > 20) {
        fprintf(stderr, "%s: leak: ... and %zu more\n", test_name, shown - 20);
    }
    return shown;
}

void anvil_counting_allocator_release_all(struct anvil_counting_allocator *counting) {
    while (counting->live) {
        struct anvil_counting_block *b = counting->live;
        s_unlink(counting, b);
        b->magic = S_MAGIC_DEAD;
        free(b);
    }
}
