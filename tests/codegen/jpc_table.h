/* The table jpc_gen writes and test_jpc reads: every compiled expression and waiter matcher. */
#ifndef JPC_TABLE_H
#define JPC_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "anvil/arena.h"
#include "anvil/json.h"

typedef int jpc_value_fn(const struct anvil_json *root, struct anvil_arena *scratch, struct anvil_json *out);
typedef int jpc_match_fn(const struct anvil_json *root, struct anvil_arena *scratch, bool *matched);

struct jpc_expr_case {
    const char *text;
    size_t len;
    /* NULL when the compiler refused the expression (`fallback` says why). */
    jpc_value_fn *fn;
    const char *fallback;
};

struct jpc_match_case {
    const char *path;
    size_t path_len;
    /* enum anvil_waiter_comparator */
    int comparator;
    /* The expected value as JSON text. */
    const char *expected;
    size_t expected_len;
    jpc_match_fn *fn;
    const char *fallback;
    /* Where it comes from (a model or waiters-2 file). */
    const char *origin;
};

extern const struct jpc_expr_case jpc_expr_cases[];
extern const size_t jpc_expr_case_count;
extern const struct jpc_match_case jpc_match_cases[];
extern const size_t jpc_match_case_count;

#endif
