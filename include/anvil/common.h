#ifndef ANVIL_COMMON_H
#define ANVIL_COMMON_H

/**
 * Macros shared by every public header: symbol export and C++ linkage.
 * Nothing here allocates or has state.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define ANVIL_API __attribute__((visibility("default")))
#define ANVIL_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#define ANVIL_NODISCARD __attribute__((warn_unused_result))
#else
#define ANVIL_API
#define ANVIL_PRINTF(fmt_index, first_arg)
#define ANVIL_NODISCARD
#endif

#ifdef __cplusplus
#define ANVIL_EXTERN_C_BEGIN extern "C" {
#define ANVIL_EXTERN_C_END }
#else
#define ANVIL_EXTERN_C_BEGIN
#define ANVIL_EXTERN_C_END
#endif

/**
 * The storage of a struct whose layout is private: `words` 64-bit words,
 * aligned for any pointer, integer or double. The caller owns the memory (on
 * the stack, in arrays, inside its own structs) and never reads it; only the
 * library's functions do. Each such struct's size is part of the ABI and
 * holds room for the library to grow into, so a new release neither breaks
 * programs built against an older one nor makes them allocate.
 */
#define ANVIL_OPAQUE_STORAGE(words)                                                                                    \
    union {                                                                                                            \
        uint64_t words_[words];                                                                                        \
        void *pointer_;                                                                                                \
        double double_;                                                                                                \
    } opaque_

#endif
