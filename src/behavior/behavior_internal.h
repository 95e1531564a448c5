#ifndef ANVIL_BEHAVIOR_INTERNAL_H
#define ANVIL_BEHAVIOR_INTERNAL_H

/* Shared by the waiter files; not installed. */

#include "anvil/retry.h"
#include "anvil/waiter.h"

/* Phases of a wait. */
enum {
    ANVIL__WAIT_DUE = 0,       /* the next attempt is due at next_at_ms */
    ANVIL__WAIT_IN_FLIGHT = 1, /* an attempt was handed out; waiting for its report */
    ANVIL__WAIT_DONE = 2
};

/*
 * What one attempt gave, as the acceptors see it: an output (has_output) or
 * an error, and the HTTP status of either.
 */
struct anvil__wait_result {
    bool has_output;
    const struct anvil_json *output;
    const struct anvil_operation_error *error;
    int http_status;
};

/*
 * Runs the acceptors in order on `result`: stores the first matching
 * acceptor's index in `*matched` (-1 when none). Values that paths build
 * go into `scratch`. ANVIL_OK, or ANVIL_ENOMEM/ANVIL_ELIMIT when evaluating
 * ran out of memory (a path that fails on the data's types matches nothing).
 */
int anvil__waiter_match(const struct anvil_waiter *waiter, const struct anvil_json *input,
                        const struct anvil__wait_result *result, struct anvil_arena *scratch, int *matched);

/*
 * Evaluates `expr` against what acceptor `acceptor` looks at for `result`
 * (the output, {input, output}, or the error as an object).
 */
int anvil__waiter_eval_subject(const struct anvil_waiter_acceptor *acceptor, const struct anvil_json *input,
                               const struct anvil__wait_result *result, const struct anvil_jmespath *expr,
                               struct anvil_arena *arena, struct anvil_json *value);

/*
 * What waiter and paginator sets keep: an arena for copied strings and
 * values, and the compiled expressions (each its own allocation) to destroy.
 */
struct anvil__desc_store {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;
    struct anvil_jmespath **exprs;
    size_t expr_count, expr_cap;
};

int anvil__desc_store_init(struct anvil__desc_store *store, struct anvil_allocator *allocator);
void anvil__desc_store_clean_up(struct anvil__desc_store *store);

/* Copies `in` into the store's arena (NUL-terminated). */
int anvil__desc_store_copy(struct anvil__desc_store *store, struct anvil_str_view in, struct anvil_str_view *out);

/*
 * Compiles `src`, keeping the expression for clean-up. ANVIL_ENOMEM, or the
 * compiler's status with `diag` filled.
 */
int anvil__desc_store_compile(struct anvil__desc_store *store, struct anvil_str_view src,
                              const struct anvil_jmespath **out, struct anvil_diag *diag);

#endif
