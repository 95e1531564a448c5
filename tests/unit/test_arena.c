#include <stdalign.h>

#include "harness.h"

TEST(arena_allocations_are_aligned_and_distinct) {
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    char *prev = NULL;
    for (size_t i = 1; i < 200; i++) {
        char *p = anvil_arena_alloc(arena, i, 0);
        CHECK_ALLOC(p);
        CHECK(((uintptr_t)p % alignof(max_align_t)) == 0);
        memset(p, (int)i, i);
        CHECK(p != prev);
        prev = p;
    }
    unsigned char *one = anvil_arena_alloc(arena, 3, 1);
    CHECK_ALLOC(one);
    unsigned char *sixty_four = anvil_arena_alloc(arena, 8, 64);
    CHECK_ALLOC(sixty_four);
    CHECK(((uintptr_t)sixty_four % 64) == 0);
done:
    anvil_arena_destroy(arena);
}

TEST(arena_rejects_bad_alignment) {
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK(anvil_arena_alloc(arena, 8, 3) == NULL);
    CHECK(anvil_arena_alloc(arena, 8, 128) == NULL);
    CHECK(anvil_arena_alloc(NULL, 8, 8) == NULL);
done:
    anvil_arena_destroy(arena);
}

TEST(arena_large_allocation_gets_its_own_block) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options options = {.first_block_size = 1024};
    CHECK_OK(anvil_arena_new(t->alloc, &options, &arena));
    char *small1 = anvil_arena_alloc(arena, 16, 1);
    CHECK_ALLOC(small1);
    char *big = anvil_arena_alloc(arena, 100000, 8);
    CHECK_ALLOC(big);
    memset(big, 7, 100000);
    /* The current block is still used for small allocations afterwards. */
    char *small2 = anvil_arena_alloc(arena, 16, 1);
    CHECK_ALLOC(small2);
    CHECK(small2 == small1 + 16);
    CHECK(anvil_arena_bytes_used(arena) == 100032);
done:
    anvil_arena_destroy(arena);
}

TEST(arena_blocks_grow_geometrically) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options options = {.first_block_size = 256};
    CHECK_OK(anvil_arena_new(t->alloc, &options, &arena));
    for (int i = 0; i < 10000; i++) {
        CHECK_ALLOC(anvil_arena_alloc(arena, 24, 8));
    }
    /* 240000 bytes in blocks of 256, 512, ... needs about a dozen blocks, not ~1000. */
    CHECK(anvil_arena_bytes_reserved(arena) < 2 * 240000 + 4096);
    CHECK(anvil_arena_bytes_used(arena) == 240000);
done:
    anvil_arena_destroy(arena);
}

TEST(arena_limit_is_a_clean_failure) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options options = {.first_block_size = 1024, .max_bytes = 8192};
    CHECK_OK(anvil_arena_new(t->alloc, &options, &arena));
    size_t got = 0;
    while (anvil_arena_alloc(arena, 100, 1) != NULL) {
        got += 100;
        CHECK(got < 8192);
    }
    if (anvil_test_injected(t)) {
        goto done; /* the parent failed, not the limit */
    }
    CHECK(anvil_arena_exhausted(arena));
    CHECK(anvil_arena_bytes_reserved(arena) <= 8192);
    CHECK(got > 4000);
    /* A huge request fails without overflow. */
    CHECK(anvil_arena_alloc(arena, SIZE_MAX - 8, 16) == NULL);
    anvil_arena_reset(arena);
    CHECK(!anvil_arena_exhausted(arena));
    CHECK_ALLOC(anvil_arena_alloc(arena, 100, 1));
done:
    anvil_arena_destroy(arena);
}

TEST(arena_reset_keeps_one_block) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options options = {.first_block_size = 512};
    CHECK_OK(anvil_arena_new(t->alloc, &options, &arena));
    for (int i = 0; i < 100; i++) {
        CHECK_ALLOC(anvil_arena_alloc(arena, 100, 8));
    }
    CHECK_ALLOC(anvil_arena_alloc(arena, 1 << 20, 8));
    anvil_arena_reset(arena);
    CHECK_EQ_U64(anvil_arena_bytes_used(arena), 0);
    size_t kept = anvil_arena_bytes_reserved(arena);
    CHECK(kept > 0 && kept < 64 * 1024);
    char *p = anvil_arena_alloc(arena, 100, 8);
    CHECK_ALLOC(p);
    CHECK_EQ_U64(anvil_arena_bytes_reserved(arena), kept);
    anvil_arena_reset(arena);
    anvil_arena_reset(arena);
done:
    anvil_arena_destroy(arena);
}

TEST(arena_reset_after_only_a_large_block) {
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_ALLOC(anvil_arena_alloc(arena, 1 << 16, 8));
    anvil_arena_reset(arena);
    CHECK_EQ_U64(anvil_arena_bytes_reserved(arena), 0);
    CHECK_ALLOC(anvil_arena_alloc(arena, 8, 8));
done:
    anvil_arena_destroy(arena);
}

TEST(arena_strndup_and_null_handling) {
    struct anvil_arena *arena = NULL;
    CHECK_STATUS(anvil_arena_new(t->alloc, NULL, NULL), ANVIL_EINVAL);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    char *s = anvil_arena_strndup(arena, "hello world", 5);
    CHECK_ALLOC(s);
    CHECK_STR_EQ(s, "hello");
    anvil_arena_destroy(NULL);
    anvil_arena_reset(NULL);
    CHECK_EQ_U64(anvil_arena_bytes_used(NULL), 0);
done:
    anvil_arena_destroy(arena);
}

TEST(arena_cache_reuses_large_default_blocks) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options options = {.first_block_size = (size_t)1 << 20};
    anvil_arena_cache_trim();
    CHECK_OK(anvil_arena_new(NULL, &options, &arena));
    char *first = anvil_arena_alloc(arena, 100, 8);
    CHECK(first != NULL);
    anvil_arena_destroy(arena);
    arena = NULL;
    /* The next arena of the same size gets the same block back. */
    CHECK_OK(anvil_arena_new(NULL, &options, &arena));
    char *second = anvil_arena_alloc(arena, 100, 8);
    CHECK(second == first);
    anvil_arena_destroy(arena);
    arena = NULL;
    CHECK(anvil_arena_cache_trim() >= ((size_t)1 << 20));
    CHECK_EQ_U64(anvil_arena_cache_trim(), 0);
    /* Small blocks are left to malloc. */
    CHECK_OK(anvil_arena_new(NULL, NULL, &arena));
    CHECK(anvil_arena_alloc(arena, 100, 8) != NULL);
    anvil_arena_destroy(arena);
    arena = NULL;
    CHECK_EQ_U64(anvil_arena_cache_trim(), 0);
done:
    anvil_arena_destroy(arena);
    anvil_arena_cache_trim();
}

TEST(arena_cache_never_holds_blocks_of_other_allocators) {
    /* The counting allocator fails the test if a block is kept instead of released. */
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options options = {.first_block_size = (size_t)1 << 20};
    CHECK_OK(anvil_arena_new(t->alloc, &options, &arena));
    CHECK_ALLOC(anvil_arena_alloc(arena, 100, 8));
    CHECK_ALLOC(anvil_arena_alloc(arena, (size_t)2 << 20, 8));
    anvil_arena_destroy(arena);
    arena = NULL;
    CHECK_EQ_U64(anvil_arena_cache_trim(), 0);
done:
    anvil_arena_destroy(arena);
}
