#ifndef ANVIL_BENCH_HEAP_H
#define ANVIL_BENCH_HEAP_H

/*
 * Heap accounting for the benchmarks' memory figures: malloc's usable bytes
 * live now and at the peak, through malloc/free hooks (for peers that take
 * them) and an anvil allocator. One counter per benchmark program.
 */

#include <malloc.h>
#include <stdlib.h>

#include "anvil/allocator.h"

static size_t bench_heap_live, bench_heap_peak;

static inline void bench_heap_reset(void) {
    bench_heap_live = 0;
    bench_heap_peak = 0;
}

static inline void bench_heap_grew(void) {
    if (bench_heap_live > bench_heap_peak) {
        bench_heap_peak = bench_heap_live;
    }
}

static inline void *bench_heap_malloc(size_t n) {
    void *p = malloc(n);
    if (p) {
        bench_heap_live += malloc_usable_size(p);
        bench_heap_grew();
    }
    return p;
}

static inline void bench_heap_free(void *p) {
    if (p) {
        bench_heap_live -= malloc_usable_size(p);
        free(p);
    }
}

static inline void *bench_heap_acquire(struct anvil_allocator *a, size_t n) {
    (void)a;
    return bench_heap_malloc(n);
}

static inline void *bench_heap_realloc(struct anvil_allocator *a, void *p, size_t n) {
    (void)a;
    size_t before = malloc_usable_size(p);
    void *q = realloc(p, n);
    if (q) {
        bench_heap_live = bench_heap_live - before + malloc_usable_size(q);
        bench_heap_grew();
    }
    return q;
}

static inline void bench_heap_release(struct anvil_allocator *a, void *p) {
    (void)a;
    bench_heap_free(p);
}

/* The counting allocator to hand to anvil. */
static struct anvil_allocator bench_heap_allocator = {bench_heap_acquire, bench_heap_realloc, bench_heap_release, NULL};

#endif
