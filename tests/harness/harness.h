#ifndef ANVIL_TEST_HARNESS_H
#define ANVIL_TEST_HARNESS_H

/*
 * The unit test harness.
 *
 * A test is `TEST(name) { ... done: clean-up }`. CMake finds every TEST(name)
 * line and registers each as its own ctest entry. Each test gets `t->alloc`, a
 * counting allocator: a test that leaves an allocation unreleased fails.
 *
 * CHECK macros jump to the test's `done:` label on failure, so the clean-up
 * there always runs. In the allocation-failure sweep (`--sweep NAME`) the test
 * is run again once per allocation it made, failing exactly that allocation;
 * a CHECK that sees ANVIL_ENOMEM (or a NULL pointer) after the injected failure
 * counts as a clean stop, and every run must still release everything.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/anvil.h"

struct anvil_test {
    const char *name;
    /* The counting allocator the test must use for everything it creates. */
    struct anvil_allocator *alloc;
    bool failed;
    /* Set when a check saw the effect of the injected allocation failure. */
    bool stopped_by_injection;
};

typedef void anvil_test_fn(struct anvil_test *t);

struct anvil_test_case {
    const char *name;
    anvil_test_fn *fn;
};

#define TEST(name)                                                                                                     \
    void anvil_test_##name(struct anvil_test *t);                                                                      \
    void anvil_test_##name(struct anvil_test *t)

/* True once the counting allocator has failed an allocation on purpose. */
bool anvil_test_injected(const struct anvil_test *t);

void anvil_test_fail(struct anvil_test *t, const char *file, int line, const char *fmt, ...) ANVIL_PRINTF(4, 5);
/* Returns true when the mismatch is the injected failure surfacing (a clean stop). */
bool anvil_test_status_mismatch(struct anvil_test *t, const char *file, int line, const char *expr, int got, int want);

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            anvil_test_fail(t, __FILE__, __LINE__, "CHECK(%s)", #cond);                                                \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#define CHECK_STATUS(expr, want)                                                                                       \
    do {                                                                                                               \
        int check_rc_ = (expr);                                                                                        \
        if (check_rc_ != (want)) {                                                                                     \
            anvil_test_status_mismatch(t, __FILE__, __LINE__, #expr, check_rc_, (want));                               \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, ANVIL_OK)

/* A pointer that may be NULL only because of an injected allocation failure. */
#define CHECK_ALLOC(ptr)                                                                                               \
    do {                                                                                                               \
        if ((ptr) == NULL) {                                                                                           \
            anvil_test_status_mismatch(t, __FILE__, __LINE__, #ptr " != NULL", ANVIL_ENOMEM, ANVIL_OK);                \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                                             \
    do {                                                                                                               \
        unsigned long long check_a_ = (unsigned long long)(a), check_b_ = (unsigned long long)(b);                     \
        if (check_a_ != check_b_) {                                                                                    \
            anvil_test_fail(t, __FILE__, __LINE__, "%s == %s: %llu != %llu", #a, #b, check_a_, check_b_);              \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                                             \
    do {                                                                                                               \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                                                \
        if (check_a_ != check_b_) {                                                                                    \
            anvil_test_fail(t, __FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, check_a_, check_b_);              \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#define CHECK_STR_EQ(a, b)                                                                                             \
    do {                                                                                                               \
        const char *check_a_ = (a), *check_b_ = (b);                                                                   \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {                                               \
            anvil_test_fail(t, __FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,                               \
                            check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)");                           \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

/* Compares `len` bytes at `ptr` with a string literal. */
#define CHECK_MEM_EQ(ptr, len, literal)                                                                                \
    do {                                                                                                               \
        size_t check_len_ = (len);                                                                                     \
        if (check_len_ != sizeof(literal) - 1 || memcmp((ptr), (literal), check_len_) != 0) {                          \
            anvil_test_fail(t, __FILE__, __LINE__, "%s == %s: \"%.*s\" != \"%s\"", #ptr, #literal, (int)check_len_,    \
                            (const char *)(ptr), (literal));                                                           \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

#endif
