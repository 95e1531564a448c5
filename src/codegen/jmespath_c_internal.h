/* The helper functions compiled JMESPath calls, as text (jmespath_c_helpers.c), shared with the compiler. */
#ifndef ANVIL_CODEGEN_JMESPATH_C_INTERNAL_H
#define ANVIL_CODEGEN_JMESPATH_C_INTERNAL_H

#include <stdint.h>

/* ---- the helpers generated code calls ('@' stands for PREFIX_jpc_) ---- */

enum anvil__jpc_helper {
    H_BASE,
    H_NOMEM,
    H_NO_MATCH,
    H_STR_IS,
    H_EQUAL,
    H_GET,
    H_GET_HINTED,
    H_GET_CHAIN,
    H_GET_REMEMBERED,
    H_AT,
    H_FLAT,
    H_LIST,
    H_SLICE,
    H_LENGTH,
    H_ALL_OF,
    H_HAS_BYTES,
    H_CONTAINS,
    H_CONTAINS_STR,
    H_ALLOCATOR,
    H_OBJECT,
    H_MERGE,
    H_PARSE,
    H_ABS,
    H_ROUND,
    H_SUM,
    H_JOIN,
    H_KEYS,
    H_REVERSE,
    H_FN,
    H_SORT,
    H_EXTREME,
    H_EXTREME_BY,
    H_MAP,
    H_TO_ARRAY,
    H_TO_STRING,
    H_TO_NUMBER,
    H_TYPE,
    H_COUNT
};

/* A helper's dependencies are a mask of one 64-bit word. */
_Static_assert(H_COUNT <= 64, "too many helpers for a uint64_t mask");
#define S_DEP(h) (UINT64_C(1) << (h))

struct anvil__jpc_helper_def {
    /* Text that appears in `helpers` only once this helper is there (its definition's start). */
    const char *key;
    uint64_t deps;
    const char *text;
};

extern const struct anvil__jpc_helper_def anvil__jpc_helpers[H_COUNT];

#endif
