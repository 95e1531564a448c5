#include "anvil/allocator.h"

#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"

static void *s_malloc(struct anvil_allocator *allocator, size_t size) {
    (void)allocator;
    return malloc(size);
}

static void *s_realloc(struct anvil_allocator *allocator, void *ptr, size_t size) {
    (void)allocator;
    return realloc(ptr, size);
}

static void s_free(struct anvil_allocator *allocator, void *ptr) {
    (void)allocator;
    free(ptr);
}

static struct anvil_allocator s_default = {s_malloc, s_realloc, s_free, NULL};

struct anvil_allocator *anvil_allocator_default(void) {
    return &s_default;
}

static struct anvil_allocator *s_or_default(struct anvil_allocator *allocator) {
    return allocator ? allocator : &s_default;
}

void *anvil_mem_acquire(struct anvil_allocator *allocator, size_t size) {
    allocator = s_or_default(allocator);
    return allocator->mem_acquire(allocator, size ? size : 1);
}

void *anvil_mem_calloc(struct anvil_allocator *allocator, size_t count, size_t size) {
    size_t total;
    if (anvil__size_mul(count, size, &total)) {
        return NULL;
    }
    void *ptr = anvil_mem_acquire(allocator, total);
    if (ptr) {
        memset(ptr, 0, total ? total : 1);
    }
    return ptr;
}

int anvil_mem_realloc(struct anvil_allocator *allocator, void **ptr, size_t size) {
    allocator = s_or_default(allocator);
    if (size == 0) {
        size = 1;
    }
    void *moved = *ptr ? allocator->mem_realloc(allocator, *ptr, size) : allocator->mem_acquire(allocator, size);
    if (!moved) {
        return ANVIL_ENOMEM;
    }
    *ptr = moved;
    return ANVIL_OK;
}

void anvil_mem_release(struct anvil_allocator *allocator, void *ptr) {
    if (ptr) {
        allocator = s_or_default(allocator);
        allocator->mem_release(allocator, ptr);
    }
}

char *anvil_mem_strndup(struct anvil_allocator *allocator, const char *src, size_t len) {
    size_t total;
    if (anvil__size_add(len, 1, &total)) {
        return NULL;
    }
    char *copy = anvil_mem_acquire(allocator, total);
    if (copy) {
        if (len) {
            memcpy(copy, src, len);
        }
        copy[len] = '\0';
    }
    return copy;
}

int anvil__mem_grow(struct anvil_allocator *allocator, void **array, size_t *capacity, size_t elem_size,
                    size_t min_capacity) {
    if (*capacity >= min_capacity) {
        return ANVIL_OK;
    }
    size_t next = *capacity ? *capacity : 16;
    while (next < min_capacity) {
        if (next > SIZE_MAX / 2) {
            return ANVIL_ELIMIT;
        }
        next *= 2;
    }
    size_t bytes;
    if (anvil__size_mul(next, elem_size, &bytes)) {
        return ANVIL_ELIMIT;
    }
    int rc = anvil_mem_realloc(allocator, array, bytes);
    if (rc == ANVIL_OK) {
        *capacity = next;
    }
    return rc;
}
