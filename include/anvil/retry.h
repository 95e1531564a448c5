#ifndef ANVIL_RETRY_H
#define ANVIL_RETRY_H

/**
 * Client retries: the cross-SDK standard mode (a retry quota token bucket,
 * exponential backoff with full jitter, a cap on attempts) in both Retry
 * Behavior 2.1 (the default: throttling 5, other errors 14, 50 ms / 1 s
 * bases, `x-amz-retry-after`, long polling) and 2.0 (5 / 10, 1 s), and the
 * adaptive mode's client-side rate limiter driven by CUBIC. Error
 * classification and idempotency rules are in anvil_retry_classify().
 * docs/retries.md has every constant and decision.
 *
 * Sans-I/O like the waiter: a per-operation token is told the time and each
 * attempt's result, and answers "retry after N ms" or "stop, because ...".
 * The strategy (shared by any number of operations and threads) holds one
 * quota bucket and one rate limiter per partition name, e.g.
 * "dynamodb-us-east-1".
 */

#include "anvil/allocator.h"
#include "anvil/env.h"
#include "anvil/model.h"
#include "anvil/status.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

enum anvil_retry_mode {
    ANVIL_RETRY_STANDARD = 0,
    /** Standard, plus a client-side rate limiter enabled by the first throttling error. */
    ANVIL_RETRY_ADAPTIVE = 1
};

enum anvil_retry_behavior {
    /** Retry Behavior 2.1 ("new retries 2026"): costs 5 (throttling) / 14, bases 1 s / 50 ms. */
    ANVIL_RETRY_BEHAVIOR_2_1 = 0,
    /** Retry Behavior 2.0: costs 10 (timeouts) / 5, base 1 s, no retry-after, no long polling. */
    ANVIL_RETRY_BEHAVIOR_2_0 = 1
};

/** How an attempt failed, as the strategy prices it. */
enum anvil_retry_error_type {
    ANVIL_RETRY_ERROR_SERVER = 0,     /* a 5xx or a modelled retryable error */
    ANVIL_RETRY_ERROR_CLIENT = 1,     /* a 4xx: not retried by the default classification */
    ANVIL_RETRY_ERROR_THROTTLING = 2, /* a throttling code, or @retryable(throttling: true) */
    ANVIL_RETRY_ERROR_TRANSIENT = 3,  /* timeouts, transient codes, connection failures */
    /** The Kotlin design's `Timeout`: the same class as TRANSIENT. */
    ANVIL_RETRY_ERROR_TIMEOUT = ANVIL_RETRY_ERROR_TRANSIENT
};

/** "server", "client", "throttling", "transient". */
ANVIL_API const char *anvil_retry_error_type_name(enum anvil_retry_error_type type);

/** A quota bucket of capacity 0: no retry is ever paid for (0 itself means "the default"). */
#define ANVIL_RETRY_CAPACITY_NONE UINT32_MAX

/** Zero fields mean the default for the behavior. */
struct anvil_retry_options {
    enum anvil_retry_mode mode;
    enum anvil_retry_behavior behavior;
    /** Attempts, the first included (default 3; 4 for DynamoDB in 2.1). */
    uint32_t max_attempts;
    /** Quota bucket capacity per partition (default 500; ANVIL_RETRY_CAPACITY_NONE for an empty bucket). */
    uint32_t capacity;
    /** Quota costs (2.1: 14 / 5 / 14; 2.0: 5 / 5 / 10). */
    uint32_t retry_cost;
    uint32_t throttling_cost;
    uint32_t transient_cost;
    /** Backoff bases (2.1: 50 ms, 25 ms for DynamoDB, 1 s for throttling; 2.0: 1 s) and cap (20 s). */
    uint64_t base_delay_ms;
    uint64_t throttling_base_delay_ms;
    uint64_t max_backoff_ms;
    /**
     * The longest a whole retry loop may take, from the first attempt's start
     * (0 = no limit): no backoff ends after it, and a client cancels an attempt
     * still running then (anvil_retry_token_deadline_ms()).
     */
    uint64_t max_total_ms;
    /** Adaptive mode: fail at once (ANVIL_EQUOTA) instead of answering a wait when no send token is left. */
    bool adaptive_fail_fast;
    /** Random source for the jitter (NULL = anvil_env_system()). */
    const struct anvil_env *env;
};

/** A strategy: thread-safe, reference-counted, shared by the operations of one or more clients. */
struct anvil_retry_strategy;

ANVIL_API int anvil_retry_strategy_new(struct anvil_allocator *allocator, const struct anvil_retry_options *options,
                                       struct anvil_retry_strategy **out);

/** Takes another reference. */
ANVIL_API struct anvil_retry_strategy *anvil_retry_strategy_acquire(struct anvil_retry_strategy *strategy);

/** Drops a reference; the last one frees the strategy. NULL is ignored. */
ANVIL_API void anvil_retry_strategy_release(struct anvil_retry_strategy *strategy);

/** The quota left in `partition` (the capacity for a partition not used yet). */
ANVIL_API uint32_t anvil_retry_quota(struct anvil_retry_strategy *strategy, const char *partition);

/* ---- classification ---- */

/** A transport failure, for classification. */
enum anvil_retry_io_error {
    ANVIL_RETRY_IO_NONE = 0,
    ANVIL_RETRY_IO_CONNECT_REFUSED, /* the request never left the client */
    ANVIL_RETRY_IO_CONNECT_TIMEOUT, /* the request never left the client */
    ANVIL_RETRY_IO_DNS_TEMPORARY,   /* the request never left the client */
    ANVIL_RETRY_IO_DNS_NOT_FOUND,   /* not retryable */
    ANVIL_RETRY_IO_TLS,             /* handshake failed: never left the client, but not retried */
    ANVIL_RETRY_IO_RESET,           /* the connection dropped after sending */
    ANVIL_RETRY_IO_READ_TIMEOUT,    /* no answer in time after sending */
    ANVIL_RETRY_IO_CANCELLED,       /* the caller cancelled: never retried */
    ANVIL_RETRY_IO_TOO_LARGE        /* the answer passed the caller's size cap: not retried (it would again) */
};

/** What an attempt gave. */
struct anvil_retry_response {
    /** True for a success (nothing else is read then). */
    bool success;
    /** HTTP status (0 when no response arrived). */
    int http_status;
    /** The error code (normalised or not: `ns#Code:suffix` is accepted); may be empty. */
    struct anvil_str_view code;
    /** The error is modelled @retryable; `throttling` is its throttling member. */
    bool modeled_retryable;
    bool modeled_throttling;
    /** A transport failure instead of a response. */
    enum anvil_retry_io_error io_error;
    /** The `x-amz-retry-after` header value in milliseconds, or -1 when absent or invalid. */
    int64_t retry_after_ms;
    /**
     * A clock-skew error (RequestTimeTooSkewed, an expired signature, ...)
     * after which the caller corrected its clock from the server's: retried
     * as transient and safe for any operation, since the service refused the
     * request before acting on it.
     */
    bool clock_corrected;
};

/**
 * Fills `response->modeled_retryable` and `modeled_throttling` from the
 * model: the error of `operation` (or of any service in `model`) whose
 * shape name or `awsQueryError` code equals the response's normalised code,
 * with its `smithy.api#retryable` trait. Leaves them false when none does.
 */
ANVIL_API void anvil_retry_response_from_model(struct anvil_retry_response *response, const struct anvil_model *model,
                                               const struct anvil_shape *operation);

/** The classification of a failed attempt. */
struct anvil_retry_class {
    bool retryable;
    enum anvil_retry_error_type type;
    /** Retrying is safe even for an operation that is not idempotent (throttling, 429/503, never sent, modelled). */
    bool safe_for_any_operation;
};

/**
 * Classifies a failed attempt: a throttling code (or a modelled throttling
 * error) first, whatever the status; then modelled @retryable; transient
 * codes; 500/502/503/504; connection failures. A 4xx without such a code is
 * a client error, not retried. A cancelled call is never retried.
 */
ANVIL_API void anvil_retry_classify(const struct anvil_retry_response *response, struct anvil_retry_class *out);

/* ---- retry policies (the Kotlin design's RetryPolicy and RetryDirective) ---- */

/** What a policy says about an attempt's result. */
enum anvil_retry_directive {
    /** No opinion: the default classification (anvil_retry_classify() and the idempotency rule) decides. */
    ANVIL_RETRY_DIRECTIVE_DEFAULT = 0,
    /** Terminate and succeed: stop, and account the attempt as a success (quota refund). */
    ANVIL_RETRY_DIRECTIVE_SUCCEED = 1,
    /** Terminate and fail: stop and return the attempt's error; nothing is retried. */
    ANVIL_RETRY_DIRECTIVE_FAIL = 2,
    /**
     * Retry as an error of `type`: priced and backed off as that type, within
     * max attempts, max total time and the quota. The policy's word replaces
     * the default classification and the idempotency rule.
     */
    ANVIL_RETRY_DIRECTIVE_RETRY = 3
};

/**
 * A policy's verdict; the strategy zeroes it (DEFAULT) before calling. The
 * directive decides retrying and quota accounting only: a caller still
 * returns what the service answered (an error a policy ended as a success
 * is still that error, and a 2xx a policy failed is still that output).
 */
struct anvil_retry_verdict {
    enum anvil_retry_directive directive;
    /** RETRY: the error type. */
    enum anvil_retry_error_type type;
    /** Optional words for the decision's explanation (a string that outlives the call, e.g. a literal). */
    const char *why;
};

/**
 * A retry policy: looks at an attempt's result (a success or an error) and
 * says what to do. It runs before the default classification; DEFAULT hands
 * the result on to it. Called from anvil_retry_after_attempt(), on the
 * calling thread, without the strategy's lock held.
 */
typedef void anvil_retry_policy_fn(void *ctx, const struct anvil_retry_response *response,
                                   struct anvil_retry_verdict *verdict);

/* ---- one operation ---- */

/** What the caller says about the operation. */
struct anvil_retry_call {
    /** The quota and limiter partition (NULL or "" = the default partition). */
    const char *partition;
    /** The service, for its defaults (in 2.1, "dynamodb" and "dynamodb-streams": 4 attempts, 25 ms). */
    const char *service;
    /** A long-polling operation (SQS ReceiveMessage, ...): waits its backoff even when the quota is empty (2.1). */
    bool long_polling;
    /** The operation is @readonly, @idempotent or carries an idempotency token: any retryable failure may retry. */
    bool idempotent;
    /** A policy that runs before the default classification (NULL = none). */
    anvil_retry_policy_fn *policy;
    void *policy_ctx;
    /**
     * The caller's deadline on the clock the token is told (0 = none): a retry
     * whose backoff would end at or after it is not made (reason DEADLINE)
     * and spends no quota.
     */
    uint64_t deadline_ms;
};

enum anvil_retry_action {
    ANVIL_RETRY_SUCCEED = 0, /* the attempt succeeded */
    ANVIL_RETRY_FAIL = 1,    /* stop: return the attempt's error */
    ANVIL_RETRY_AGAIN = 2    /* sleep delay_ms, then make another attempt */
};

enum anvil_retry_reason {
    ANVIL_RETRY_REASON_NONE = 0,
    ANVIL_RETRY_REASON_NOT_RETRYABLE,  /* a client error, or a cancelled call */
    ANVIL_RETRY_REASON_NOT_IDEMPOTENT, /* retryable, but not safe for this operation */
    ANVIL_RETRY_REASON_MAX_ATTEMPTS,   /* max_attempts_exceeded */
    ANVIL_RETRY_REASON_QUOTA_EXCEEDED, /* retry_quota_exceeded */
    ANVIL_RETRY_REASON_RETRYING,       /* retrying */
    ANVIL_RETRY_REASON_POLICY,         /* a policy said terminate (succeed or fail) */
    ANVIL_RETRY_REASON_MAX_TIME,       /* the next attempt would start after max_total_ms */
    ANVIL_RETRY_REASON_DEADLINE        /* the next attempt would start after the call's deadline_ms */
};

/** The decision after an attempt. */
struct anvil_retry_decision {
    enum anvil_retry_action action;
    enum anvil_retry_reason reason;
    enum anvil_retry_error_type type;
    /** AGAIN: how long to wait; FAIL with a long-polling operation and an empty quota: a wait before returning. */
    uint64_t delay_ms;
    /** Why, in words: "retrying a throttling error (cost 5, quota 495) after 612 ms". */
    char explanation[224];
};

/**
 * One operation's retry state: 128 bytes whose layout is private. Fixed
 * size, caller's memory, no allocation. Holds a reference to the strategy
 * until cleaned up.
 */
struct anvil_retry_token {
    ANVIL_OPAQUE_STORAGE(16);
};

/** Starts an operation: finds (or creates) its partition. ANVIL_ENOMEM. */
ANVIL_API int anvil_retry_token_init(struct anvil_retry_token *token, struct anvil_retry_strategy *strategy,
                                     const struct anvil_retry_call *call);

/** Releases the strategy reference. */
ANVIL_API void anvil_retry_token_clean_up(struct anvil_retry_token *token);

/**
 * Before each attempt (the first included): notes the loop's start time
 * (for max_total_ms), and in adaptive mode takes a send token from the
 * partition's rate limiter. Stores in `*wait_ms` how long to
 * wait first (0: send now; call again after waiting). ANVIL_OK, or
 * ANVIL_EQUOTA with adaptive_fail_fast when no token is available.
 */
ANVIL_API int anvil_retry_before_attempt(struct anvil_retry_token *token, uint64_t now_ms, uint64_t *wait_ms);

/**
 * When the retry loop must end (the first attempt's start + max_total_ms),
 * or 0 without a limit or before the first attempt: a client cancels an
 * attempt still running then.
 */
ANVIL_API uint64_t anvil_retry_token_deadline_ms(const struct anvil_retry_token *token);

/** The attempt the token is on: 1 until the first retry is decided, then 2, ...; 0 for NULL. */
ANVIL_API uint32_t anvil_retry_token_attempt(const struct anvil_retry_token *token);

/**
 * After each attempt: asks the call's policy, else classifies the result;
 * updates the quota and the rate limiter, and decides. A retry whose
 * backoff would end after max_total_ms is not made (reason MAX_TIME). ANVIL_OK, or ANVIL_EIO when the random source
 * failed (decision: FAIL).
 */
ANVIL_API int anvil_retry_after_attempt(struct anvil_retry_token *token, uint64_t now_ms,
                                        const struct anvil_retry_response *response,
                                        struct anvil_retry_decision *decision);

ANVIL_EXTERN_C_END

#endif
