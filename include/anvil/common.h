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

#endif
