#ifndef ANVIL_BEHAVIOR_INTERNAL_H
#define ANVIL_BEHAVIOR_INTERNAL_H

/* Shared by the waiter files; not installed. */

#include "anvil/retry.h"
#include "anvil/waiter.h"

#include "core/core_internal.h"

/* The layout behind struct anvil_wait_state (waiter.h). */
struct ANVIL__MAY_ALIAS anvil__wait_state {
    const struct anvil_waiter *waiter;
    const struct anvil_json *input;
    const struct anvil_env *env;
    const volatile sig_atomic_t *cancel;
    /* Time is kept relative to start_ms. */
    uint64_t start_ms;
    uint64_t max_wait_ms;
    uint64_t next_at_ms;
    uint64_t elapsed_ms;
    uint64_t attempts;
    uint64_t max_attempts;
    /* The last result (borrowed: see anvil_wait_report_output()). */
    const struct anvil_json *last_output;
    struct anvil_operation_error last_error;
    uint32_t min_delay_s;
    uint32_t max_delay_s;
    uint32_t last_delay_s;
    /* -1: no acceptor matched. */
    int32_t acceptor;
    uint8_t phase;
    uint8_t reason;
    uint8_t state;
    bool has_output;
    bool has_error;
    bool final_attempt;
    bool cancelled;
    /* The slot in a wait group's heap + 1 (0 = not queued). */
    uint32_t group_slot;
};
ANVIL__OPAQUE_FITS(anvil__wait_state, anvil_wait_state);

static inline struct anvil__wait_state *anvil__wait_of(struct anvil_wait_state *state) {
    return (struct anvil__wait_state *)(void *)state;
}
static inline const struct anvil__wait_state *anvil__wait_of_const(const struct anvil_wait_state *state) {
    return (const struct anvil__wait_state *)(const void *)state;
}

/* The layout behind struct anvil_wait_group. */
struct anvil__wait_group_entry;
struct ANVIL__MAY_ALIAS anvil__wait_group {
    struct anvil_allocator *allocator;
    struct anvil__wait_group_entry *heap;
    size_t count;
    size_t capacity;
};
ANVIL__OPAQUE_FITS(anvil__wait_group, anvil_wait_group);

static inline struct anvil__wait_group *anvil__group_of(struct anvil_wait_group *group) {
    return (struct anvil__wait_group *)(void *)group;
}
static inline const struct anvil__wait_group *anvil__group_of_const(const struct anvil_wait_group *group) {
    return (const struct anvil__wait_group *)(const void *)group;
}

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
