/*
 * Each test here is broken on purpose; CMake marks them WILL_FAIL, so the
 * suite passes only if the harness reports every one of them as a failure.
 */

#include "harness.h"

TEST(catches_a_leak) {
    void *p = anvil_mem_acquire(t->alloc, 24);
    (void)p;
}

TEST(catches_a_failed_check) {
    CHECK(1 + 1 == 3);
done:;
}

TEST(catches_a_wrong_status) {
    CHECK_STATUS(ANVIL_EINVAL, ANVIL_OK);
done:;
}

TEST(catches_a_foreign_release) {
    static max_align_t not_from_the_allocator[8];
    anvil_mem_release(t->alloc, &not_from_the_allocator[4]);
}

/* Swallows an allocation failure and reports success: fine in a plain run,
 * caught by the sweep, which is registered separately as WILL_FAIL. */
static int s_sloppy(struct anvil_allocator *alloc, char **out) {
    *out = anvil_mem_acquire(alloc, 8);
    return ANVIL_OK;
}

TEST(sweep_catches_an_unclean_error) {
    char *p = NULL;
    CHECK_OK(s_sloppy(t->alloc, &p));
    CHECK(p != NULL);
    p[0] = 'x';
done:
    anvil_mem_release(t->alloc, p);
}
