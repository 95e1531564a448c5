/*
 * One wait as a sans-I/O state machine: the spec's workflow (first call at
 * once, acceptors in order, an unmatched error fails, an unmatched success
 * retries) and its delay rule, in integer seconds with the remaining-time
 * rule kept in milliseconds. docs/waiters.md explains each decision.
 */

#include <string.h>

#include "behavior/behavior_internal.h"

int anvil_waiter_delay_ms(uint32_t min_delay_s, uint32_t max_delay_s, uint64_t attempt, uint64_t remaining_ms,
                          const struct anvil_env *random, uint64_t *delay_ms, bool *last) {
    if (min_delay_s < 1 || min_delay_s > max_delay_s || attempt < 1) {
        return ANVIL_EINVAL;
    }
    /*
     * attempt > attemptCeiling, with attemptCeiling = log2(max/min) + 1, is
     * exactly min * 2^(attempt-1) > max; past 2^32 that always holds, so no
     * shift can overflow however large `attempt` grows.
     */
    uint64_t ceiling_s = max_delay_s;
    if (attempt - 1 < 32) {
        uint64_t doubled = (uint64_t)min_delay_s << (attempt - 1);
        if (doubled < ceiling_s) {
            ceiling_s = doubled;
        }
    }
    uint64_t delay_s;
    int rc = anvil_env_random_range(random, min_delay_s, ceiling_s, &delay_s);
    if (rc != ANVIL_OK) {
        return rc;
    }
    uint64_t ms = delay_s * 1000;
    /* remainingTime - delay <= minDelay: wait out the rest and make one last attempt at the deadline. */
    bool final = remaining_ms <= ms + (uint64_t)min_delay_s * 1000;
    *delay_ms = final ? remaining_ms : ms;
    *last = final;
    return ANVIL_OK;
}

static void s_finish(struct anvil__wait_state *s, enum anvil_wait_reason reason, uint64_t now_ms) {
    s->phase = ANVIL__WAIT_DONE;
    s->reason = (uint8_t)reason;
    s->state = reason == ANVIL_WAIT_REASON_SUCCESS ? ANVIL_WAITER_SUCCESS : ANVIL_WAITER_FAILURE;
    if (now_ms > s->start_ms) {
        s->elapsed_ms = now_ms - s->start_ms;
    }
}

int anvil_wait_start(struct anvil_wait_state *wait, const struct anvil_waiter *waiter, const struct anvil_json *input,
                     const struct anvil_wait_options *options, uint64_t now_ms, struct anvil_diag *diag) {
    if (!wait) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "no wait state");
    }
    memset(wait, 0, sizeof *wait);
    struct anvil__wait_state *s = anvil__wait_of(wait);
    s->waiter = waiter;
    s->input = input;
    s->start_ms = now_ms;
    s->acceptor = -1;
    s->phase = ANVIL__WAIT_DONE;
    s->reason = ANVIL_WAIT_REASON_INVALID;
    s->state = ANVIL_WAITER_FAILURE;
    int rc = anvil_waiter_check(waiter, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (!options || options->max_wait_ms == 0) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "a maximum wait time greater than zero is required");
    }
    uint32_t min_s = options->min_delay_s ? options->min_delay_s : waiter->min_delay_s;
    uint32_t max_s = options->max_delay_s ? options->max_delay_s : waiter->max_delay_s;
    if (min_s > max_s) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "the minimum delay (%u s) is greater than the maximum delay (%u s)", min_s, max_s);
    }
    s->env = options->env;
    s->cancel = options->cancel;
    s->max_wait_ms = options->max_wait_ms;
    s->max_attempts = options->max_attempts ? options->max_attempts : waiter->max_attempts;
    s->min_delay_s = min_s;
    s->max_delay_s = max_s;
    s->next_at_ms = now_ms;
    s->phase = ANVIL__WAIT_DUE;
    s->reason = ANVIL_WAIT_PENDING;
    s->state = ANVIL_WAITER_RETRY;
    return ANVIL_OK;
}

enum anvil_wait_action anvil_wait_next(struct anvil_wait_state *wait, uint64_t now_ms, uint64_t *at_ms) {
    struct anvil__wait_state *s = anvil__wait_of(wait);
    if (s->phase != ANVIL__WAIT_DONE && (s->cancelled || (s->cancel && *s->cancel))) {
        s_finish(s, ANVIL_WAIT_REASON_CANCELLED, now_ms);
    }
    switch (s->phase) {
    case ANVIL__WAIT_IN_FLIGHT:
        return ANVIL_WAIT_INVOKE;
    case ANVIL__WAIT_DUE:
        if (now_ms >= s->next_at_ms) {
            s->attempts++;
            s->phase = ANVIL__WAIT_IN_FLIGHT;
            return ANVIL_WAIT_INVOKE;
        }
        if (at_ms) {
            *at_ms = s->next_at_ms;
        }
        return ANVIL_WAIT_SLEEP;
    default:
        return ANVIL_WAIT_DONE;
    }
}

void anvil_wait_cancel(struct anvil_wait_state *wait, uint64_t now_ms) {
    struct anvil__wait_state *s = anvil__wait_of(wait);
    if (s->phase != ANVIL__WAIT_DONE) {
        s->cancelled = true;
        s_finish(s, ANVIL_WAIT_REASON_CANCELLED, now_ms);
    }
}

void anvil_wait_expire(struct anvil_wait_state *wait, uint64_t now_ms, const struct anvil_operation_error *error) {
    struct anvil__wait_state *s = anvil__wait_of(wait);
    if (s->phase != ANVIL__WAIT_DONE) {
        if (error) {
            s->has_output = false;
            s->last_output = NULL;
            s->has_error = true;
            s->last_error = *error;
            s->acceptor = -1;
        }
        s_finish(s, ANVIL_WAIT_REASON_TIMED_OUT, now_ms);
    }
}

uint64_t anvil_wait_deadline_ms(const struct anvil_wait_state *wait) {
    const struct anvil__wait_state *s = anvil__wait_of_const(wait);
    uint64_t deadline = s->start_ms + s->max_wait_ms;
    return deadline < s->start_ms ? UINT64_MAX : deadline;
}

uint64_t anvil_wait_min_delay_ms(const struct anvil_wait_state *wait) {
    return (uint64_t)anvil__wait_of_const(wait)->min_delay_s * 1000;
}

uint64_t anvil_wait_attempt_deadline_ms(const struct anvil_wait_state *wait, uint64_t now_ms) {
    const struct anvil__wait_state *s = anvil__wait_of_const(wait);
    uint64_t deadline = anvil_wait_deadline_ms(wait);
    if (s->final_attempt) {
        uint64_t grace = now_ms + anvil_wait_min_delay_ms(wait);
        if (grace < now_ms) {
            return UINT64_MAX;
        }
        return grace > deadline ? grace : deadline;
    }
    return deadline;
}

/* Whether any acceptor evaluates a path (only those may build values). */
static bool s_needs_scratch(const struct anvil_waiter *w) {
    for (size_t i = 0; i < w->acceptor_count; i++) {
        if (w->acceptors[i].matcher == ANVIL_MATCH_OUTPUT || w->acceptors[i].matcher == ANVIL_MATCH_INPUT_OUTPUT) {
            return true;
        }
    }
    return false;
}

/* Runs the acceptors and decides, changing nothing until every fallible step has passed. */
static int s_report(struct anvil__wait_state *s, uint64_t now_ms, const struct anvil__wait_result *result,
                    struct anvil_arena *scratch) {
    if (s->phase != ANVIL__WAIT_IN_FLIGHT) {
        return ANVIL_EINVAL;
    }
    struct anvil_arena *own = NULL;
    if (!scratch && s_needs_scratch(s->waiter)) {
        int rc = anvil_arena_new(NULL, NULL, &own);
        if (rc != ANVIL_OK) {
            return rc;
        }
        scratch = own;
    }
    int matched;
    int rc = anvil__waiter_match(s->waiter, s->input, result, scratch, &matched);
    anvil_arena_destroy(own);
    if (rc != ANVIL_OK) {
        return rc;
    }
    uint64_t elapsed = now_ms > s->start_ms ? now_ms - s->start_ms : 0;
    enum anvil_waiter_state state = matched >= 0 ? s->waiter->acceptors[matched].state : ANVIL_WAITER_RETRY;
    enum anvil_wait_reason reason = ANVIL_WAIT_PENDING;
    uint64_t delay_ms = 0;
    bool last = false;
    if (state == ANVIL_WAITER_SUCCESS) {
        reason = ANVIL_WAIT_REASON_SUCCESS;
    } else if (state == ANVIL_WAITER_FAILURE) {
        reason = ANVIL_WAIT_REASON_FAILURE;
    } else if (matched < 0 && !result->has_output) {
        reason = ANVIL_WAIT_REASON_UNEXPECTED_ERROR;
    } else if (s->final_attempt || elapsed >= s->max_wait_ms) {
        reason = ANVIL_WAIT_REASON_TIMED_OUT;
    } else if (s->max_attempts && s->attempts >= s->max_attempts) {
        reason = ANVIL_WAIT_REASON_MAX_ATTEMPTS;
    } else {
        rc = anvil_waiter_delay_ms(s->min_delay_s, s->max_delay_s, s->attempts, s->max_wait_ms - elapsed, s->env,
                                   &delay_ms, &last);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    s->acceptor = matched;
    s->has_output = result->has_output;
    s->has_error = !result->has_output;
    s->last_output = result->has_output ? result->output : NULL;
    if (result->has_output) {
        memset(&s->last_error, 0, sizeof s->last_error);
        s->last_error.http_status = result->http_status;
    } else {
        s->last_error = *result->error;
    }
    s->elapsed_ms = elapsed;
    if (reason != ANVIL_WAIT_PENDING) {
        s_finish(s, reason, now_ms);
        return ANVIL_OK;
    }
    s->final_attempt = last;
    s->last_delay_s = (uint32_t)(delay_ms / 1000);
    s->next_at_ms = now_ms + delay_ms;
    s->phase = ANVIL__WAIT_DUE;
    return ANVIL_OK;
}

int anvil_wait_report_output(struct anvil_wait_state *wait, uint64_t now_ms, const struct anvil_json *output,
                             int http_status, struct anvil_arena *scratch) {
    struct anvil__wait_state *s = anvil__wait_of(wait);
    struct anvil__wait_result result = {true, output, NULL, http_status};
    return s_report(s, now_ms, &result, scratch);
}

int anvil_wait_report_error(struct anvil_wait_state *wait, uint64_t now_ms, const struct anvil_operation_error *error,
                            struct anvil_arena *scratch) {
    struct anvil__wait_state *s = anvil__wait_of(wait);
    if (!error) {
        return ANVIL_EINVAL;
    }
    struct anvil__wait_result result = {false, NULL, error, error->http_status};
    return s_report(s, now_ms, &result, scratch);
}

void anvil_wait_outcome(const struct anvil_wait_state *wait, struct anvil_wait_outcome *out) {
    const struct anvil__wait_state *s = anvil__wait_of_const(wait);
    memset(out, 0, sizeof *out);
    out->reason = (enum anvil_wait_reason)s->reason;
    out->state = (enum anvil_waiter_state)s->state;
    out->attempts = s->attempts;
    out->elapsed_ms = s->elapsed_ms;
    bool decided = s->reason == ANVIL_WAIT_REASON_SUCCESS || s->reason == ANVIL_WAIT_REASON_FAILURE;
    out->acceptor = decided ? s->acceptor : -1;
    out->has_output = s->has_output;
    out->output = s->last_output;
    out->has_error = s->has_error;
    if (s->has_error) {
        out->error = s->last_error;
    }
}

/* Appends the strings of a message value ("a", or ["a", "b"] as "a, b") to the arena. */
static int s_message_text(struct anvil_arena *arena, const struct anvil_json *value, struct anvil_str_view *out) {
    size_t count = anvil_json_is_array(value) ? anvil_json_len(value) : 1;
    const struct anvil_json *items = anvil_json_is_array(value) ? anvil_json_array_at(value, 0) : value;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!anvil_json_is_string(&items[i])) {
            return ANVIL_OK; /* not a string or a list of strings: no message */
        }
        total += anvil_json_len(&items[i]) + (i ? 2 : 0);
    }
    char *text = anvil_arena_alloc(arena, total + 1, 1);
    if (!text) {
        return ANVIL_ENOMEM;
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        struct anvil_str_view part = anvil_json_string(&items[i]);
        if (i) {
            memcpy(text + at, ", ", 2);
            at += 2;
        }
        memcpy(text + at, part.ptr, part.len);
        at += part.len;
    }
    text[at] = '\0';
    *out = anvil_sv(text, at);
    return ANVIL_OK;
}

int anvil_wait_message(const struct anvil_wait_state *wait, struct anvil_arena *arena, struct anvil_str_view *out) {
    const struct anvil__wait_state *s = anvil__wait_of_const(wait);
    *out = anvil_sv("", 0);
    if (s->acceptor < 0 || (!s->has_output && !s->has_error)) {
        return ANVIL_OK;
    }
    const struct anvil_waiter_acceptor *a = &s->waiter->acceptors[s->acceptor];
    if (!a->message) {
        return ANVIL_OK;
    }
    struct anvil__wait_result result = {s->has_output, s->last_output, &s->last_error, s->last_error.http_status};
    struct anvil_json value;
    int rc = anvil__waiter_eval_subject(a, s->input, &result, a->message, arena, &value);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (anvil_json_is_array(&value) && anvil_json_len(&value) == 0) {
        return ANVIL_OK;
    }
    return s_message_text(arena, &value, out);
}
