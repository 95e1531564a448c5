/* Names of the waiter enums, and the consistency check every description passes before use. */

#include "behavior/behavior_internal.h"

const char *anvil_waiter_state_name(enum anvil_waiter_state state) {
    switch (state) {
    case ANVIL_WAITER_SUCCESS:
        return "success";
    case ANVIL_WAITER_FAILURE:
        return "failure";
    case ANVIL_WAITER_RETRY:
        return "retry";
    }
    return "unknown";
}

const char *anvil_waiter_comparator_name(enum anvil_waiter_comparator comparator) {
    static const char *const names[] = {"stringEquals", "booleanEquals", "allStringEquals", "anyStringEquals",
                                        "equals",       "allEquals",     "anyEquals"};
    return (unsigned)comparator < sizeof names / sizeof names[0] ? names[comparator] : "unknown";
}

const char *anvil_wait_reason_name(enum anvil_wait_reason reason) {
    static const char *const names[] = {"pending",   "success",      "failure",   "unexpected-error",
                                        "timed-out", "max-attempts", "cancelled", "invalid"};
    return (unsigned)reason < sizeof names / sizeof names[0] ? names[reason] : "unknown";
}

static int s_acceptor_problem(struct anvil_diag *diag, const struct anvil_waiter *w, size_t i, const char *what) {
    return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "waiter `%.*s`, acceptor %zu: %s", (int)w->name.len,
                          w->name.ptr ? w->name.ptr : "", i, what);
}

static int s_check_path(const struct anvil_waiter *w, size_t i, const struct anvil_waiter_acceptor *a,
                        struct anvil_diag *diag) {
    if (!a->path && !a->compiled) {
        return s_acceptor_problem(diag, w, i, "a path matcher needs a path");
    }
    if (a->compiled) {
        return ANVIL_OK; /* the comparator and its expected value are compiled in */
    }
    switch (a->comparator) {
    case ANVIL_CMP_BOOLEAN_EQUALS:
        if (!anvil_json_is_bool(&a->expected)) {
            return s_acceptor_problem(diag, w, i, "booleanEquals needs a boolean `expected`");
        }
        return ANVIL_OK;
    case ANVIL_CMP_STRING_EQUALS:
    case ANVIL_CMP_ALL_STRING_EQUALS:
    case ANVIL_CMP_ANY_STRING_EQUALS:
        if (!anvil_json_is_string(&a->expected)) {
            return s_acceptor_problem(diag, w, i, "a string comparator needs a string `expected`");
        }
        return ANVIL_OK;
    case ANVIL_CMP_EQUALS:
    case ANVIL_CMP_ALL_EQUALS:
    case ANVIL_CMP_ANY_EQUALS:
        if (anvil_json_is_null(&a->expected)) {
            return s_acceptor_problem(diag, w, i, "`expected` must not be null (a null value matches nothing)");
        }
        return ANVIL_OK;
    }
    return s_acceptor_problem(diag, w, i, "unknown comparator");
}

static int s_check_acceptor(const struct anvil_waiter *w, size_t i, struct anvil_diag *diag) {
    const struct anvil_waiter_acceptor *a = &w->acceptors[i];
    if ((unsigned)a->state > ANVIL_WAITER_RETRY) {
        return s_acceptor_problem(diag, w, i, "unknown state");
    }
    if (a->message && a->state != ANVIL_WAITER_FAILURE) {
        return s_acceptor_problem(diag, w, i, "`message` is only valid on acceptors with a `failure` state");
    }
    switch (a->matcher) {
    case ANVIL_MATCH_OUTPUT:
    case ANVIL_MATCH_INPUT_OUTPUT:
        return s_check_path(w, i, a, diag);
    case ANVIL_MATCH_SUCCESS:
        return ANVIL_OK;
    case ANVIL_MATCH_ERROR_TYPE:
        if (a->code_count == 0 || !a->codes) {
            return s_acceptor_problem(diag, w, i, "an errorType matcher needs at least one code");
        }
        for (size_t c = 0; c < a->code_count; c++) {
            if (a->codes[c].len == 0) {
                return s_acceptor_problem(diag, w, i, "an errorType code is empty");
            }
        }
        return ANVIL_OK;
    case ANVIL_MATCH_STATUS:
        if (a->status < 100 || a->status > 999) {
            return s_acceptor_problem(diag, w, i, "a status matcher needs an HTTP status from 100 to 999");
        }
        return ANVIL_OK;
    }
    return s_acceptor_problem(diag, w, i, "unknown matcher");
}

int anvil_waiter_check(const struct anvil_waiter *w, struct anvil_diag *diag) {
    if (!w) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "no waiter");
    }
    int name_len = (int)w->name.len;
    const char *name = w->name.ptr ? w->name.ptr : "";
    if (w->name.len == 0) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "a waiter needs a name");
    }
    if (w->min_delay_s < 1 || w->max_delay_s < 1) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "waiter `%.*s`: minDelay (%u) and maxDelay (%u) must be at least 1 second", name_len,
                              name, w->min_delay_s, w->max_delay_s);
    }
    if (w->min_delay_s > w->max_delay_s) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "waiter `%.*s`: minDelay %u is greater than maxDelay %u",
                              name_len, name, w->min_delay_s, w->max_delay_s);
    }
    if (w->acceptor_count == 0 || !w->acceptors) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "waiter `%.*s` has no acceptors", name_len, name);
    }
    bool has_success = false;
    for (size_t i = 0; i < w->acceptor_count; i++) {
        int rc = s_check_acceptor(w, i, diag);
        if (rc != ANVIL_OK) {
            return rc;
        }
        has_success |= w->acceptors[i].state == ANVIL_WAITER_SUCCESS;
    }
    if (!has_success) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "waiter `%.*s` has no success acceptor", name_len, name);
    }
    return ANVIL_OK;
}
