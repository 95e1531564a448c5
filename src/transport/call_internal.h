#ifndef ANVIL_TRANSPORT_CALL_INTERNAL_H
#define ANVIL_TRANSPORT_CALL_INTERNAL_H

/*
 * One logical call as a state machine that never sleeps and never sends:
 * told the time, it answers "send the exchange", "sleep until T" or "done",
 * and is told how each send went. The request is built once by the
 * service's protocol; each try goes through the retry strategy with the
 * policy chain (the waiter's acceptors, then the client's policy), never
 * past the call's deadline or the retry loop's max total time; each answer
 * is read by the protocol. A blocking driver (anvil_client_call) sleeps and
 * sends with curl's easy interface; another can drive many at once.
 */

#include "transport/client_internal.h"

enum anvil__call_step {
    /* Send `k->x` for `k->req` to `k->ep` (anvil__client_send), then anvil__call_sent(). */
    ANVIL__CALL_SEND,
    /* Call anvil__call_next() again at `*wake_ms` (or anvil__call_stop() if the sleep was cancelled). */
    ANVIL__CALL_SLEEP,
    /* anvil__call_end() gives the status. */
    ANVIL__CALL_DONE
};

/* Caller storage; must not move between anvil__call_start() and anvil__call_end() (curl and the token point into it).
 */
struct anvil__call {
    struct anvil_client *client;
    const struct anvil_shape *op;
    const struct anvil_waiter *waiter;
    uint64_t deadline_ms;
    struct anvil_arena *arena;
    struct anvil_operation_reply *reply;
    struct anvil__request req;
    struct anvil__endpoint ep;
    struct anvil__exchange x;
    struct anvil_retry_token token;
    struct anvil_retry_call retry_call;
    char partition[192];
    /* Why the policy chain decided (its verdict's `why`). */
    char why[160];
    int stage;
    bool token_started;
    /* A sleep owed before the next stage runs (0 = none). */
    uint64_t sleep_until_ms;
    /* The retry loop's deadline for the try under way. */
    uint64_t loop_deadline_ms;
    /* What stopped the call (a status that is not the service's answer), and the answer. */
    int rc;
    int result;
    /* The last failed try's reply and status, restored when the deadline cuts a later try off. */
    struct anvil_operation_reply failed;
    int failed_result;
    bool has_failed;
    /* Tries answered with a throttling error (for a driver's counters). */
    uint32_t throttled;
    /* The last try was answered with a throttling error. */
    bool last_throttled;
};

/*
 * Builds the request and resolves its endpoint, then readies the retry
 * token; any failure ends the call (anvil__call_next() says DONE). `input`
 * is only read here; the reply's values live in `arena`.
 */
void anvil__call_start(struct anvil__call *k, struct anvil_client *c, const struct anvil_shape *op,
                       const struct anvil_json *input, uint64_t deadline_ms, const struct anvil_waiter *waiter,
                       struct anvil_arena *arena, struct anvil_operation_reply *reply);

/* What the call needs at `now_ms`; `*wake_ms` is set for ANVIL__CALL_SLEEP. */
enum anvil__call_step anvil__call_next(struct anvil__call *k, uint64_t now_ms, uint64_t *wake_ms);

/* How the send asked for went, at `now_ms`. */
void anvil__call_sent(struct anvil__call *k, const struct anvil__attempt *a, uint64_t now_ms);

/* Ends the call with `rc` (a cancelled sleep, a send that could not be made). */
void anvil__call_stop(struct anvil__call *k, int rc);

/* Releases what the call holds; its status: ANVIL_OK with an output, ANVIL_ESERVICE with an error, ... */
int anvil__call_end(struct anvil__call *k);

/* What the protocol reads besides the operation (the S3 bucket's place among them). */
struct anvil__protocol_context anvil__call_context(const struct anvil_client *c, const struct anvil_shape *op);

#endif
