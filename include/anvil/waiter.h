#ifndef ANVIL_WAITER_H
#define ANVIL_WAITER_H

/**
 * Waiters (the Smithy `smithy.waiters#waitable` trait and botocore's
 * `waiters-2.json`): poll an operation until an acceptor says success or
 * failure, with the spec's exponential backoff with integer-second jitter
 * and a deadline the caller must give. docs/waiters.md has every rule.
 *
 * Three layers:
 *
 * - Descriptions (`struct anvil_waiter`): name, delays and ordered acceptors.
 *   A waiter set loads them from a Smithy model, from botocore's
 *   waiters-2.json, or from the trait's JSON written by hand.
 * - The state machine (`struct anvil_wait_state`): sans-I/O. It never reads
 *   a clock or sleeps: told the time, it answers "invoke the operation",
 *   "sleep N ms" or "done". Fixed size, no allocation of its own, so one
 *   thread can drive any number of them (see `struct anvil_wait_group`).
 * - The blocking driver anvil_wait(): calls an operation callback and
 *   sleeps through an env, so tests run an hour-long wait on a fake clock.
 */

#include <signal.h>

#include "anvil/env.h"
#include "anvil/jmespath.h"
#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/operation.h"
#include "anvil/status.h"

ANVIL_EXTERN_C_BEGIN

/* ---- descriptions ---- */

enum anvil_waiter_state { ANVIL_WAITER_SUCCESS = 0, ANVIL_WAITER_FAILURE = 1, ANVIL_WAITER_RETRY = 2 };

/** "success", "failure", "retry". */
ANVIL_API const char *anvil_waiter_state_name(enum anvil_waiter_state state);

enum anvil_waiter_matcher {
    /** A JMESPath path on the operation's output (Smithy `output`, waiters-2 `path*`). Successes only. */
    ANVIL_MATCH_OUTPUT = 0,
    /** A path on `{"input": ..., "output": ...}` (Smithy `inputOutput`). Successes only. */
    ANVIL_MATCH_INPUT_OUTPUT = 1,
    /** `success: true` matches any output, `success: false` any error (also waiters-2 `error: false/true`). */
    ANVIL_MATCH_SUCCESS = 2,
    /** An error whose normalised code is one of the acceptor's codes (Smithy `errorType`, waiters-2 `error`). */
    ANVIL_MATCH_ERROR_TYPE = 3,
    /** The HTTP status of an output or an error (waiters-2 `status`). */
    ANVIL_MATCH_STATUS = 4
};

enum anvil_waiter_comparator {
    /** The value is a string equal to `expected` (a string). */
    ANVIL_CMP_STRING_EQUALS = 0,
    /** The value is a JSON boolean equal to `expected` (a boolean). */
    ANVIL_CMP_BOOLEAN_EQUALS = 1,
    /** The value is a non-empty array whose every element is the string `expected`. */
    ANVIL_CMP_ALL_STRING_EQUALS = 2,
    /** The value is an array with at least one element equal to the string `expected`. */
    ANVIL_CMP_ANY_STRING_EQUALS = 3,
    /** waiters-2 `path`: the value equals `expected` (any JSON type, anvil_json_equal()). */
    ANVIL_CMP_EQUALS = 4,
    /** waiters-2 `pathAll`: a non-empty array whose every element equals `expected`. */
    ANVIL_CMP_ALL_EQUALS = 5,
    /** waiters-2 `pathAny`: an array with at least one element equal to `expected`. */
    ANVIL_CMP_ANY_EQUALS = 6
};

/** "stringEquals", ..., "equals", "allEquals", "anyEquals". */
ANVIL_API const char *anvil_waiter_comparator_name(enum anvil_waiter_comparator comparator);

/**
 * A path matcher compiled to C (`anvil gen`): whether `subject` (the
 * output, or {"input", "output"} for INPUT_OUTPUT) satisfies the path and
 * comparator, exactly as the interpreter and the comparator would decide
 * (a runtime error of the path is the value null). Values it makes go into
 * `scratch`. ANVIL_OK, ANVIL_ENOMEM or ANVIL_ELIMIT.
 */
typedef int anvil_waiter_match_fn(const struct anvil_json *subject, struct anvil_arena *scratch, bool *matched);

struct anvil_waiter_acceptor {
    enum anvil_waiter_state state;
    enum anvil_waiter_matcher matcher;
    /** OUTPUT, INPUT_OUTPUT: the compiled path, its comparator and the expected value. */
    const struct anvil_jmespath *path;
    /**
     * OUTPUT, INPUT_OUTPUT: the path and comparator compiled to C (NULL =
     * none). When set it decides the match, and `path` may be NULL.
     */
    anvil_waiter_match_fn *compiled;
    enum anvil_waiter_comparator comparator;
    struct anvil_json expected;
    /** SUCCESS: true matches outputs, false matches errors. */
    bool success;
    /**
     * ERROR_TYPE: the codes that match, already normalised (no `namespace#`,
     * no `:suffix`). The first is the code as written; a waiter set adds the
     * modelled error's shape name and its `awsQueryError` code as aliases.
     */
    const struct anvil_str_view *codes;
    size_t code_count;
    /** STATUS: the HTTP status that matches. */
    int status;
    /** Optional (NULL): a JMESPath expression giving the failure's message (Smithy acceptor `message`). */
    const struct anvil_jmespath *message;
};

#define ANVIL_WAITER_DEFAULT_MIN_DELAY_S 2
#define ANVIL_WAITER_DEFAULT_MAX_DELAY_S 120

struct anvil_waiter {
    /** UpperCamelCase name, e.g. "TableExists". */
    struct anvil_str_view name;
    /** Documentation or waiters-2 `description` (empty when none). */
    struct anvil_str_view documentation;
    /** The operation polled: an absolute shape id (Smithy) or an operation name (waiters-2). */
    struct anvil_str_view operation;
    /** Delay bounds in whole seconds, 1 <= min_delay_s <= max_delay_s. */
    uint32_t min_delay_s;
    uint32_t max_delay_s;
    /** Attempts the description allows (waiters-2 `maxAttempts`); 0 = no limit but time. */
    uint32_t max_attempts;
    bool deprecated;
    const struct anvil_str_view *tags;
    size_t tag_count;
    const struct anvil_waiter_acceptor *acceptors;
    size_t acceptor_count;
};

/**
 * Checks a description (one built by hand, say): a name, delays with
 * 1 <= min <= max, at least one acceptor and one success acceptor, every
 * acceptor complete and consistent (a path for path matchers, a boolean
 * `expected` for booleanEquals, a string for the string comparators, codes
 * for errorType, `message` only on failure acceptors). ANVIL_OK or
 * ANVIL_EINVAL with `diag` naming the waiter, acceptor and problem.
 */
ANVIL_API int anvil_waiter_check(const struct anvil_waiter *waiter, struct anvil_diag *diag);

/** A set of waiter descriptions sharing one arena. Immutable once loaded; thread-safe to read. */
struct anvil_waiter_set;

/**
 * Every waiter of every operation with `smithy.waiters#waitable` in `model`,
 * in file order. errorType codes gain aliases from the modelled errors of
 * the operation and of the model's services (shape name, `awsQueryError`
 * code), and absolute shape ids compare by name. ANVIL_EMODEL with `diag`
 * naming the operation, waiter and acceptor when a waiter breaks a rule
 * anvil_waiter_check() enforces or a path does not compile. The set does
 * not refer to the model after loading.
 */
ANVIL_API int anvil_waiter_set_from_model(struct anvil_allocator *allocator, const struct anvil_model *model,
                                          struct anvil_waiter_set **out, struct anvil_diag *diag);

/**
 * Waiters from `len` bytes of a botocore `waiters-2.json` (`{"version": 2,
 * "waiters": {...}}`). Each waiter's `delay` becomes both min and max delay
 * (waiters-2 waits a fixed time) and `maxAttempts` its attempt limit.
 * ANVIL_ESYNTAX (not JSON) or ANVIL_EMODEL (diag names the waiter and
 * acceptor).
 */
ANVIL_API int anvil_waiter_set_from_botocore(struct anvil_allocator *allocator, const char *text, size_t len,
                                             struct anvil_waiter_set **out, struct anvil_diag *diag);

/**
 * Waiters from the JSON value of a `smithy.waiters#waitable` trait (an
 * object of waiter name -> waiter), for waiters written by hand. `operation`
 * names the operation polled (may be empty).
 */
ANVIL_API int anvil_waiter_set_from_trait(struct anvil_allocator *allocator, const struct anvil_json *trait,
                                          struct anvil_str_view operation, struct anvil_waiter_set **out,
                                          struct anvil_diag *diag);

ANVIL_API void anvil_waiter_set_destroy(struct anvil_waiter_set *set);

ANVIL_API size_t anvil_waiter_set_count(const struct anvil_waiter_set *set);
ANVIL_API const struct anvil_waiter *anvil_waiter_set_at(const struct anvil_waiter_set *set, size_t index);

/** The waiter named `name` (exact match first, then case-insensitive), or NULL. */
ANVIL_API const struct anvil_waiter *anvil_waiter_set_find(const struct anvil_waiter_set *set, const char *name,
                                                           size_t len);

/* ---- one wait: the sans-I/O state machine ---- */

/** Caller options. Zero fields mean "the waiter's value" except max_wait_ms, which is required. */
struct anvil_wait_options {
    /** Required, > 0: the total time the caller will wait. */
    uint64_t max_wait_ms;
    /** Overrides of the waiter's delays, whole seconds; 0 keeps the waiter's. Must keep 1 <= min <= max. */
    uint32_t min_delay_s;
    uint32_t max_delay_s;
    /** Most operation calls; 0 = the waiter's own limit (waiters-2), else none. */
    uint64_t max_attempts;
    /** When non-NULL and non-zero, the wait ends as cancelled at the next step (safe to set from a signal handler). */
    const volatile sig_atomic_t *cancel;
    /** Random source for the jitter (NULL = anvil_env_system()). Only random_bytes is used. */
    const struct anvil_env *env;
};

/** What the state machine wants next. */
enum anvil_wait_action {
    /** Call the operation now, then report its output or error. */
    ANVIL_WAIT_INVOKE = 0,
    /** Sleep until the time given (anvil_wait_next()'s `*at_ms`), then ask again. */
    ANVIL_WAIT_SLEEP = 1,
    /** The wait is over; read the outcome. */
    ANVIL_WAIT_DONE = 2
};

/** Why a wait ended. */
enum anvil_wait_reason {
    ANVIL_WAIT_PENDING = 0,
    /** A success acceptor matched. */
    ANVIL_WAIT_REASON_SUCCESS = 1,
    /** A failure acceptor matched. */
    ANVIL_WAIT_REASON_FAILURE = 2,
    /** The operation failed with an error no acceptor matched (spec step 4). */
    ANVIL_WAIT_REASON_UNEXPECTED_ERROR = 3,
    /** max_wait_ms passed without a terminal state (the last attempt ran at the deadline). */
    ANVIL_WAIT_REASON_TIMED_OUT = 4,
    /** The attempt limit was reached without a terminal state. */
    ANVIL_WAIT_REASON_MAX_ATTEMPTS = 5,
    /** The cancel flag was set, or anvil_wait_cancel() called. */
    ANVIL_WAIT_REASON_CANCELLED = 6,
    /** The options or the waiter were invalid; nothing was called. */
    ANVIL_WAIT_REASON_INVALID = 7
};

/** "pending", "success", "failure", "unexpected-error", "timed-out", "max-attempts", "cancelled", "invalid". */
ANVIL_API const char *anvil_wait_reason_name(enum anvil_wait_reason reason);

/**
 * The first acceptor of `waiter` that matches `error` (an `errorType` with
 * its code, `success: false`, or waiters-2's `status` with its HTTP
 * status), or -1. Such an error is what the waiter waits for: a client
 * polling for the waiter hands it over at once instead of retrying it
 * (docs/waiters.md, "Errors inside a poll").
 */
ANVIL_API int anvil_waiter_expects_error(const struct anvil_waiter *waiter, const struct anvil_operation_error *error);

/**
 * One wait in progress: 256 bytes whose layout is private (read a wait
 * through the functions below). The caller owns the memory, so thousands
 * can live in one array; nothing needs freeing. anvil_wait_start() sets it
 * up, whatever it held.
 */
struct anvil_wait_state {
    ANVIL_OPAQUE_STORAGE(32);
};

/**
 * Starts a wait at `now_ms`: validates the options against the waiter
 * (max_wait_ms > 0; overrides keep 1 <= min <= max; anvil_waiter_check()).
 * The first attempt is due at once. `input` (may be NULL = null) must stay
 * alive for the whole wait. On ANVIL_EINVAL the state is done with reason
 * INVALID and `diag` says what is wrong. Never allocates.
 */
ANVIL_API int anvil_wait_start(struct anvil_wait_state *state, const struct anvil_waiter *waiter,
                               const struct anvil_json *input, const struct anvil_wait_options *options,
                               uint64_t now_ms, struct anvil_diag *diag);

/**
 * What to do at `now_ms`. INVOKE: call the operation and report the result.
 * SLEEP: `*at_ms` (may be NULL) is the time to ask again. DONE: read the
 * outcome. Checks the cancel flag. Between INVOKE and the report, asking
 * again answers INVOKE again without counting another attempt.
 */
ANVIL_API enum anvil_wait_action anvil_wait_next(struct anvil_wait_state *state, uint64_t now_ms, uint64_t *at_ms);

/**
 * Reports that the operation succeeded with `output` (NULL = no output) and
 * `http_status` (0 = unknown; only `status` matchers read it) at `now_ms`, runs the acceptors, and decides: done, or
 * the delay before the next attempt. `scratch` (may be NULL) receives values that JMESPath paths build (projections);
 * the caller may reset it afterwards. The state keeps a pointer to `output`: keep the document alive until the next
 * report or, after the last, while reading the outcome. ANVIL_OK, or ANVIL_EINVAL when no attempt was in flight, or
 * ANVIL_ENOMEM/ANVIL_EIO (random source) with the wait left as it was.
 */
ANVIL_API int anvil_wait_report_output(struct anvil_wait_state *state, uint64_t now_ms, const struct anvil_json *output,
                                       int http_status, struct anvil_arena *scratch);

/** Reports that the operation failed with `error` (its strings are kept as the output above is). */
ANVIL_API int anvil_wait_report_error(struct anvil_wait_state *state, uint64_t now_ms,
                                      const struct anvil_operation_error *error, struct anvil_arena *scratch);

/**
 * Reports what an operation callback gave (anvil_operation_fn's status and
 * reply), as anvil_wait() does: ANVIL_OK the output; ANVIL_ESERVICE the
 * service's error; ANVIL_ETIMEDOUT the attempt was cut off at its deadline
 * (the wait expires, keeping the last error the attempt saw);
 * ANVIL_ECANCELED the wait is cancelled; any other status an error named by
 * it (with the reply's message when it has one). The state keeps the
 * reply's output or error: its values must live in `arena`, where the
 * output's own record is made too, or longer; `*kept` says whether the
 * state now points into it (keep it as anvil_wait_report_output() says).
 * `scratch` (NULL = `arena`) receives what the acceptors' paths build; the
 * state keeps nothing there. Returns ANVIL_OK, or ANVIL_ENOMEM (also when
 * `status` is ANVIL_ENOMEM: running out of memory is not an answer) with
 * the wait left as it was.
 */
ANVIL_API int anvil_wait_report_reply(struct anvil_wait_state *state, uint64_t now_ms, int status,
                                      struct anvil_operation_reply *reply, struct anvil_arena *arena,
                                      struct anvil_arena *scratch, bool *kept);

/** Ends the wait as cancelled (at once, even between INVOKE and the report). */
ANVIL_API void anvil_wait_cancel(struct anvil_wait_state *state, uint64_t now_ms);

/**
 * Ends the wait as timed out: the attempt in flight was cut off at the
 * deadline (the spec's "cancel in-progress requests"). `error`, when not
 * NULL, is the last error that attempt saw (a client's earlier try, e.g. a
 * 503 it was retrying) and becomes the outcome's error; its strings must
 * live as long as the state's results. With NULL the outcome keeps the
 * result of the attempt before.
 */
ANVIL_API void anvil_wait_expire(struct anvil_wait_state *state, uint64_t now_ms,
                                 const struct anvil_operation_error *error);

/** The deadline: start + max_wait_ms. */
ANVIL_API uint64_t anvil_wait_deadline_ms(const struct anvil_wait_state *state);

/**
 * The minimum delay in force, in milliseconds: the options' min_delay_s when
 * given, else the waiter's (the time a throttled poll waits before it is made
 * again, and the last attempt's grace past the deadline).
 */
ANVIL_API uint64_t anvil_wait_min_delay_ms(const struct anvil_wait_state *state);

/**
 * How long the attempt starting at `now_ms` may run: the deadline, except
 * for the last attempt, which the delay rule starts at the deadline itself
 * and which gets minDelay to answer (so a wait ends by max wait + minDelay
 * at the latest). A transport cancels the request at this time; the wait
 * then ends timed out (anvil_wait_expire()).
 */
ANVIL_API uint64_t anvil_wait_attempt_deadline_ms(const struct anvil_wait_state *state, uint64_t now_ms);

/** The outcome, complete once anvil_wait_next() said DONE. */
struct anvil_wait_outcome {
    enum anvil_wait_reason reason;
    /** SUCCESS for the success reason, FAILURE for every other end, RETRY while pending. */
    enum anvil_waiter_state state;
    /** Operation calls made. */
    uint64_t attempts;
    /** From the start to the last report (or to the cancel or timeout decision). */
    uint64_t elapsed_ms;
    /** Index of the acceptor that decided, or -1 (unexpected error, timeout, ...). */
    int acceptor;
    /** The last result: the output (has_output) or the error (has_error); borrowed. */
    bool has_output;
    const struct anvil_json *output;
    bool has_error;
    struct anvil_operation_error error;
};

ANVIL_API void anvil_wait_outcome(const struct anvil_wait_state *state, struct anvil_wait_outcome *out);

/**
 * Evaluates the matched acceptor's `message` against what its matcher saw:
 * the output, `{"input": ..., "output": ...}` for inputOutput, or the error
 * as `{"code": ..., "message": ..., "status": ...}` for error matchers. A
 * string is the message; an array of strings is joined with ", ". Stores an
 * empty view when there is no message or it gives another type. The text
 * lives in `arena`.
 */
ANVIL_API int anvil_wait_message(const struct anvil_wait_state *state, struct anvil_arena *arena,
                                 struct anvil_str_view *out);

/**
 * The delay rule alone (for tests and for tools that print a schedule):
 * the delay in seconds before retry `attempt` (1 = after the first call)
 * with `remaining_ms` left, `random` drawing the jitter. Stores in
 * `*last` whether this is the final attempt at the deadline.
 */
ANVIL_API int anvil_waiter_delay_ms(uint32_t min_delay_s, uint32_t max_delay_s, uint64_t attempt, uint64_t remaining_ms,
                                    const struct anvil_env *random, uint64_t *delay_ms, bool *last);

/* ---- many waits on one thread ---- */

/**
 * A timer heap of waits for one thread to drive many at once. The group
 * holds pointers; the caller owns each state. Costs 16 bytes per queued
 * wait on top of the state.
 */
struct anvil_wait_group {
    ANVIL_OPAQUE_STORAGE(8);
};

ANVIL_API void anvil_wait_group_init(struct anvil_wait_group *group, struct anvil_allocator *allocator);
ANVIL_API void anvil_wait_group_clean_up(struct anvil_wait_group *group);

/**
 * Queues a started wait by the time it next wants attention (anvil_wait_next()).
 * A wait that is done or has an attempt in flight is not queued (ANVIL_OK).
 * ANVIL_ENOMEM. A wait already queued is moved.
 */
ANVIL_API int anvil_wait_group_schedule(struct anvil_wait_group *group, struct anvil_wait_state *state,
                                        uint64_t now_ms);

/** Takes a queued wait out (e.g. before freeing it). Not queued: nothing happens. */
ANVIL_API void anvil_wait_group_remove(struct anvil_wait_group *group, struct anvil_wait_state *state);

/**
 * The next wait due at `now_ms`, taken out of the group, with its action
 * (INVOKE or DONE) in `*action`; NULL when none is due, with `*wake_ms`
 * (may be NULL) the earliest time one will be (UINT64_MAX when empty).
 */
ANVIL_API struct anvil_wait_state *anvil_wait_group_pop(struct anvil_wait_group *group, uint64_t now_ms,
                                                        enum anvil_wait_action *action, uint64_t *wake_ms);

ANVIL_API size_t anvil_wait_group_count(const struct anvil_wait_group *group);

/** The heap memory the group holds, in bytes (its timer heap; the states are the caller's). */
ANVIL_API size_t anvil_wait_group_memory(const struct anvil_wait_group *group);

/* ---- the blocking driver ---- */

/** What the observer sees after each attempt. */
struct anvil_wait_progress {
    uint64_t attempt;
    /** The state the attempt led to: RETRY while waiting goes on. */
    enum anvil_waiter_state state;
    /** The acceptor that matched, or -1. */
    int acceptor;
    /** The delay before the next attempt (0 when done). */
    uint64_t next_delay_ms;
    uint64_t elapsed_ms;
    /** Time left before the deadline. */
    uint64_t remaining_ms;
    /** The attempt's result (borrowed for the call). */
    const struct anvil_json *output;
    const struct anvil_operation_error *error;
};

typedef void anvil_wait_observer_fn(void *user_data, const struct anvil_wait_progress *progress);

struct anvil_wait_call {
    anvil_operation_fn *operation;
    void *operation_data;
    /** Optional, called after every attempt. */
    anvil_wait_observer_fn *observer;
    void *observer_data;
    /** Clock, sleep and random (NULL = anvil_env_system()). A sleep that returns ANVIL_ECANCELED cancels. */
    const struct anvil_env *env;
    /** Memory for results and the outcome (NULL = default). */
    struct anvil_allocator *allocator;
};

/** The result of anvil_wait(); owns the last output or error and the message. */
struct anvil_wait_result {
    struct anvil_wait_outcome outcome;
    /** The evaluated acceptor `message`, empty when none. */
    struct anvil_str_view message;
    struct anvil_arena *arena;
};

/**
 * Runs a wait to the end: calls the operation, sleeps through the env in
 * slices (at most 100 ms with a cancel flag, else a second) so that a
 * cancel is seen promptly, and
 * reports each attempt to the observer. Returns ANVIL_OK whenever the wait
 * ran to an end (whatever the reason: read `result->outcome`), ANVIL_EINVAL
 * (invalid options; the outcome says INVALID and diag why) or ANVIL_ENOMEM.
 * Release the result with anvil_wait_result_clean_up() in every case.
 */
ANVIL_API int anvil_wait(const struct anvil_waiter *waiter, const struct anvil_json *input,
                         const struct anvil_wait_options *options, const struct anvil_wait_call *call,
                         struct anvil_wait_result *result, struct anvil_diag *diag);

ANVIL_API void anvil_wait_result_clean_up(struct anvil_wait_result *result);

ANVIL_EXTERN_C_END

#endif
