#ifndef ANVIL_TEST_COUNTING_ALLOCATOR_H
#define ANVIL_TEST_COUNTING_ALLOCATOR_H

/*
 * An allocator for tests: counts, tracks every live block (to name leaks),
 * checks releases, and can fail the Nth allocation on purpose.
 */

#include "anvil/allocator.h"

struct anvil_counting_block;

struct anvil_counting_allocator {
    struct anvil_allocator base;
    /* Live blocks, newest first. */
    struct anvil_counting_block *live;
    size_t live_count;
    size_t live_bytes;
    size_t peak_bytes;
    /* Acquisitions and reallocations attempted so far (each is one "allocation"). */
    size_t attempts;
    /* When non-zero, attempt number `fail_at` (1-based) fails. */
    size_t fail_at;
    bool injected;
    /* Release or realloc of a pointer this allocator does not own. */
    size_t bad_releases;
};

void anvil_counting_allocator_init(struct anvil_counting_allocator *counting, size_t fail_at);

/* Prints each live block to stderr; returns how many there were. */
size_t anvil_counting_allocator_report_leaks(const struct anvil_counting_allocator *counting, const char *test_name);

/* Releases every live block (after a leak was reported, to keep ASan quiet). */
void anvil_counting_allocator_release_all(struct anvil_counting_allocator *counting);

#endif
