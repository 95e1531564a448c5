/*
 * The blocking driver: the state machine run to its end through an env.
 * Two arenas take turns holding attempt results, because the state keeps
 * the last result while the next attempt runs; the one holding the final
 * result becomes the result's arena.
 */

#include <string.h>

#include "behavior/behavior_internal.h"
#include "core/core_internal.h"

/*
 * The longest single sleep, so a cancel is seen promptly during a long
 * delay: with a cancel flag 100 ms (a signal does not cut the env's sleep
 * short, and one landing just before the sleep would otherwise wait it
 * out), else a second (for an env whose sleep itself can be cancelled).
 */
#define S_SLEEP_SLICE_MS 1000
#define S_SLEEP_SLICE_FLAG_MS 100

void anvil_wait_result_clean_up(struct anvil_wait_result *result) {
    if (result) {
        anvil_arena_destroy(result->arena);
        memset(result, 0, sizeof *result);
    }
}

struct s_run {
    struct anvil_wait_state state;
    const struct anvil_wait_call *call;
    const struct anvil_env *env;
    struct anvil_arena *arenas[2];
    struct anvil_operation_reply reply;
    /* Which arena holds the last reported result. */
    size_t last;
};

static void s_observe(struct s_run *run, uint64_t now_ms) {
    if (!run->call->observer) {
        return;
    }
    const struct anvil__wait_state *s = anvil__wait_of_const(&run->state);
    uint64_t next_at = s->next_at_ms;
    bool done = s->phase == ANVIL__WAIT_DONE;
    uint64_t elapsed = now_ms > s->start_ms ? now_ms - s->start_ms : 0;
    uint64_t deadline = anvil_wait_deadline_ms(&run->state);
    struct anvil_wait_progress p = {
        .attempt = s->attempts,
        .state = done ? (enum anvil_waiter_state)s->state : ANVIL_WAITER_RETRY,
        .acceptor = s->acceptor,
        .next_delay_ms = done || next_at < now_ms ? 0 : next_at - now_ms,
        .elapsed_ms = elapsed,
        .remaining_ms = deadline > now_ms ? deadline - now_ms : 0,
        .output = s->has_output ? s->last_output : NULL,
        .error = s->has_error ? &s->last_error : NULL,
    };
    run->call->observer(run->call->observer_data, &p);
}

/* A transport problem as an error: its status names it, with the callback's words when it gave some. */
static struct anvil_operation_error s_transport_error(const struct anvil_operation_reply *reply, int status) {
    struct anvil_str_view said = reply->error.message;
    return (struct anvil_operation_error){anvil_sv_from_cstr(anvil_status_name(status)),
                                          said.len ? said : anvil_sv_from_cstr(anvil_status_str(status)), 0};
}

int anvil_wait_report_reply(struct anvil_wait_state *state, uint64_t now_ms, int status,
                            struct anvil_operation_reply *reply, struct anvil_arena *arena, struct anvil_arena *scratch,
                            bool *kept) {
    *kept = false;
    if (!state || !reply || !arena) {
        return ANVIL_EINVAL;
    }
    scratch = scratch ? scratch : arena;
    if (status == ANVIL_ENOMEM) {
        return status; /* running out of memory is not something the service said */
    }
    int rc;
    if (status == ANVIL_OK) {
        /* The state keeps a pointer to the output: it must live in the arena, not in the reply. */
        struct anvil_json *output = anvil_arena_alloc(arena, sizeof *output, 0);
        if (!output) {
            return ANVIL_ENOMEM;
        }
        *output = reply->output;
        rc = anvil_wait_report_output(state, now_ms, output, reply->http_status, scratch);
        *kept = rc == ANVIL_OK;
        return rc;
    }
    struct anvil_operation_error *error = &reply->error;
    struct anvil_operation_error transport;
    if (status == ANVIL_ETIMEDOUT) {
        /*
         * The transport cut the attempt off at its deadline: the wait timed
         * out, keeping the last error the attempt saw (a try the client was
         * retrying) when it says one.
         */
        int failed = reply->failed_status;
        bool seen = failed || error->code.len || error->http_status || reply->http_status;
        if (seen && !error->http_status) {
            error->http_status = reply->http_status;
        }
        if (failed && failed != ANVIL_ESERVICE) {
            transport = s_transport_error(reply, failed);
            error = &transport;
        }
        anvil_wait_expire(state, now_ms, seen ? error : NULL);
        *kept = seen;
        return ANVIL_OK;
    }
    if (status == ANVIL_ECANCELED) {
        /* The operation saw the cancellation (a sleep inside it was cancelled). */
        anvil_wait_cancel(state, now_ms);
        return ANVIL_OK;
    }
    if (status != ANVIL_ESERVICE) {
        transport = s_transport_error(reply, status);
        error = &transport;
    }
    rc = anvil_wait_report_error(state, now_ms, error, scratch);
    *kept = rc == ANVIL_OK;
    return rc;
}

/* One attempt: call the operation into a fresh arena and report what it gave. */
static int s_attempt(struct s_run *run) {
    const struct anvil__wait_state *state = anvil__wait_of(&run->state);
    struct anvil_arena *arena = run->arenas[state->attempts % 2];
    anvil_arena_reset(arena);
    memset(&run->reply, 0, sizeof run->reply);
    uint64_t deadline = anvil_wait_attempt_deadline_ms(&run->state, anvil_env_now_ms(run->env));
    int rc = run->call->operation(run->call->operation_data, state->input, deadline, arena, &run->reply);
    uint64_t now = anvil_env_now_ms(run->env);
    bool kept = false;
    rc = anvil_wait_report_reply(&run->state, now, rc, &run->reply, arena, arena, &kept);
    if (rc == ANVIL_OK) {
        if (kept) {
            run->last = state->attempts % 2;
        }
        s_observe(run, now);
    }
    return rc;
}

static int s_loop(struct s_run *run) {
    for (;;) {
        uint64_t now = anvil_env_now_ms(run->env);
        uint64_t at = now;
        switch (anvil_wait_next(&run->state, now, &at)) {
        case ANVIL_WAIT_DONE:
            return ANVIL_OK;
        case ANVIL_WAIT_INVOKE: {
            int rc = s_attempt(run);
            if (rc != ANVIL_OK) {
                return rc;
            }
            break;
        }
        case ANVIL_WAIT_SLEEP: {
            /* A cancel flag set meanwhile is the state's to see (anvil_wait_next); the env's own cancel is told. */
            const volatile sig_atomic_t *cancel = anvil__wait_of(&run->state)->cancel;
            if (anvil__env_sleep_sliced(run->env, at - now, cancel,
                                        cancel ? S_SLEEP_SLICE_FLAG_MS : S_SLEEP_SLICE_MS) == ANVIL_ECANCELED &&
                !(cancel && *cancel)) {
                anvil_wait_cancel(&run->state, anvil_env_now_ms(run->env));
            }
            break;
        }
        }
    }
}

int anvil_wait(const struct anvil_waiter *waiter, const struct anvil_json *input,
               const struct anvil_wait_options *options, const struct anvil_wait_call *call,
               struct anvil_wait_result *result, struct anvil_diag *diag) {
    if (!result) {
        return ANVIL_EINVAL;
    }
    memset(result, 0, sizeof *result);
    result->outcome.reason = ANVIL_WAIT_REASON_INVALID;
    result->outcome.state = ANVIL_WAITER_FAILURE;
    result->outcome.acceptor = -1;
    if (!call || !call->operation) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "no operation to call");
    }
    struct s_run *run = anvil_mem_acquire(call->allocator, sizeof *run);
    if (!run) {
        return ANVIL_ENOMEM;
    }
    memset(run, 0, sizeof *run);
    run->call = call;
    run->env = call->env ? call->env : anvil_env_system();
    struct anvil_wait_options opts = options ? *options : (struct anvil_wait_options){0};
    if (!opts.env) {
        opts.env = run->env;
    }
    int rc = anvil_wait_start(&run->state, waiter, input, &opts, anvil_env_now_ms(run->env), diag);
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(call->allocator, NULL, &run->arenas[0]);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(call->allocator, NULL, &run->arenas[1]);
    }
    if (rc == ANVIL_OK) {
        rc = s_loop(run);
    }
    if (rc == ANVIL_OK) {
        /* The last result lives in the arena of the last attempt; the other is no longer needed. */
        size_t keep = run->last;
        result->arena = run->arenas[keep];
        run->arenas[keep] = NULL;
        anvil_wait_outcome(&run->state, &result->outcome);
        rc = anvil_wait_message(&run->state, result->arena, &result->message);
    } else if (anvil__wait_of(&run->state)->reason == ANVIL_WAIT_REASON_INVALID) {
        anvil_wait_outcome(&run->state, &result->outcome);
    }
    anvil_arena_destroy(run->arenas[0]);
    anvil_arena_destroy(run->arenas[1]);
    anvil_mem_release(call->allocator, run);
    return rc;
}
