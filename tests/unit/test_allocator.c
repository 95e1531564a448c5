#include "harness.h"

TEST(allocator_acquire_release_roundtrip) {
    char *p = anvil_mem_acquire(t->alloc, 16);
    CHECK_ALLOC(p);
    memset(p, 'x', 16);
    CHECK_OK(anvil_mem_realloc(t->alloc, (void **)&p, 4096));
    CHECK(p[15] == 'x');
done:
    anvil_mem_release(t->alloc, p);
}

TEST(allocator_zero_size_is_one_byte) {
    void *p = anvil_mem_acquire(t->alloc, 0);
    CHECK_ALLOC(p);
done:
    anvil_mem_release(t->alloc, p);
}

TEST(allocator_calloc_zeroes_and_rejects_overflow) {
    unsigned char *p = anvil_mem_calloc(t->alloc, 8, 8);
    CHECK_ALLOC(p);
    for (size_t i = 0; i < 64; i++) {
        CHECK(p[i] == 0);
    }
    CHECK(anvil_mem_calloc(t->alloc, SIZE_MAX / 2, 3) == NULL);
done:
    anvil_mem_release(t->alloc, p);
}

TEST(allocator_failed_realloc_keeps_the_old_block) {
    char *p = anvil_mem_acquire(t->alloc, 8);
    CHECK_ALLOC(p);
    memcpy(p, "keepme!", 8);
    /* SIZE_MAX cannot be satisfied: the call fails and p stays valid. */
    void *q = p;
    CHECK_STATUS(anvil_mem_realloc(t->alloc, &q, SIZE_MAX), ANVIL_ENOMEM);
    CHECK(q == p);
    CHECK_STR_EQ(p, "keepme!");
done:
    anvil_mem_release(t->alloc, p);
}

TEST(allocator_realloc_from_null_allocates) {
    void *p = NULL;
    CHECK_OK(anvil_mem_realloc(t->alloc, &p, 10));
    CHECK(p != NULL);
done:
    anvil_mem_release(t->alloc, p);
}

TEST(allocator_strndup_copies_embedded_nul) {
    char *s = anvil_mem_strndup(t->alloc, "a\0b", 3);
    CHECK_ALLOC(s);
    CHECK(s[0] == 'a' && s[1] == '\0' && s[2] == 'b' && s[3] == '\0');
done:
    anvil_mem_release(t->alloc, s);
}

TEST(allocator_default_is_used_for_null) {
    CHECK(anvil_allocator_default() != NULL);
    void *p = anvil_mem_acquire(NULL, 32);
    CHECK(p != NULL);
    anvil_mem_release(NULL, p);
    anvil_mem_release(NULL, NULL);
done:;
}
