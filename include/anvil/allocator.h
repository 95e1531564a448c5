#ifndef ANVIL_ALLOCATOR_H
#define ANVIL_ALLOCATOR_H

/**
 * Allocator interface. Every anvil constructor takes a `struct anvil_allocator *`;
 * NULL means anvil_allocator_default() (the malloc family). The allocator must
 * outlive every object created with it. anvil never aborts when an allocation
 * fails: the call returns ANVIL_ENOMEM and releases what it had taken.
 */

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_allocator;

/** Returns `size` bytes aligned for any object type, or NULL. `size` is never 0. */
typedef void *anvil_mem_acquire_fn(struct anvil_allocator *allocator, size_t size);

/**
 * Resizes `ptr` (never NULL, from this allocator) to `size` bytes (never 0),
 * keeping the contents like realloc(3). On failure returns NULL and leaves
 * `ptr` valid and unchanged.
 */
typedef void *anvil_mem_realloc_fn(struct anvil_allocator *allocator, void *ptr, size_t size);

/** Releases `ptr` (never NULL, from this allocator). */
typedef void anvil_mem_release_fn(struct anvil_allocator *allocator, void *ptr);

struct anvil_allocator {
    anvil_mem_acquire_fn *mem_acquire;
    anvil_mem_realloc_fn *mem_realloc;
    anvil_mem_release_fn *mem_release;
    /** For the implementation's own state; anvil never touches it. */
    void *impl;
};

/** The process-wide malloc/realloc/free allocator. Never NULL. Thread-safe. */
ANVIL_API struct anvil_allocator *anvil_allocator_default(void);

/**
 * Allocates `size` bytes from `allocator` (NULL = default). A size of 0 is
 * treated as 1, so a non-NULL result always means success. Returns NULL when
 * the allocator fails. Thread-safe if the allocator is.
 */
ANVIL_API void *anvil_mem_acquire(struct anvil_allocator *allocator, size_t size);

/**
 * Allocates `count * size` zeroed bytes; NULL when the allocator fails or the
 * product overflows size_t.
 */
ANVIL_API void *anvil_mem_calloc(struct anvil_allocator *allocator, size_t count, size_t size);

/**
 * Resizes `*ptr` to `size` bytes. `*ptr` may be NULL (then this allocates).
 * Returns ANVIL_OK and updates `*ptr`, or ANVIL_ENOMEM and leaves `*ptr` as it
 * was. A size of 0 is treated as 1.
 */
ANVIL_API int anvil_mem_realloc(struct anvil_allocator *allocator, void **ptr, size_t size);

/** Releases `ptr`; a NULL `ptr` is ignored. */
ANVIL_API void anvil_mem_release(struct anvil_allocator *allocator, void *ptr);

/**
 * Copies `len` bytes of `src` into a new NUL-terminated allocation of
 * `len + 1` bytes; NULL on failure. The caller releases it with
 * anvil_mem_release() on the same allocator.
 */
ANVIL_API char *anvil_mem_strndup(struct anvil_allocator *allocator, const char *src, size_t len);

ANVIL_EXTERN_C_END

#endif
