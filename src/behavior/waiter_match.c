/*
 * Acceptor matching: the comparators exactly as DESIGN.md decides them (a
 * null or missing value matches nothing; allStringEquals needs a non-empty
 * array), errorType on normalised codes, and the subject a `message`
 * expression is evaluated against.
 */

#include <string.h>

#include "behavior/behavior_internal.h"

static bool s_string_is(const struct anvil_json *v, const struct anvil_json *expected) {
    return anvil_json_is_string(v) && anvil_sv_eq(anvil_json_string(v), anvil_json_string(expected));
}

static bool s_element_matches(enum anvil_waiter_comparator cmp, const struct anvil_json *v,
                              const struct anvil_json *expected) {
    if (cmp == ANVIL_CMP_ALL_STRING_EQUALS || cmp == ANVIL_CMP_ANY_STRING_EQUALS) {
        return s_string_is(v, expected);
    }
    return !anvil_json_is_null(v) && anvil_json_equal(v, expected);
}

/* Whether `value` (what the path gave) satisfies the acceptor's comparator. */
static bool s_compare(const struct anvil_waiter_acceptor *a, const struct anvil_json *value) {
    switch (a->comparator) {
    case ANVIL_CMP_STRING_EQUALS:
        return s_string_is(value, &a->expected);
    case ANVIL_CMP_BOOLEAN_EQUALS:
        return anvil_json_is_bool(value) && anvil_json_bool(value) == anvil_json_bool(&a->expected);
    case ANVIL_CMP_EQUALS:
        return !anvil_json_is_null(value) && anvil_json_equal(value, &a->expected);
    case ANVIL_CMP_ALL_STRING_EQUALS:
    case ANVIL_CMP_ALL_EQUALS: {
        size_t n = anvil_json_is_array(value) ? anvil_json_len(value) : 0;
        if (n == 0) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (!s_element_matches(a->comparator, anvil_json_array_at(value, i), &a->expected)) {
                return false;
            }
        }
        return true;
    }
    case ANVIL_CMP_ANY_STRING_EQUALS:
    case ANVIL_CMP_ANY_EQUALS: {
        size_t n = anvil_json_is_array(value) ? anvil_json_len(value) : 0;
        for (size_t i = 0; i < n; i++) {
            if (s_element_matches(a->comparator, anvil_json_array_at(value, i), &a->expected)) {
                return true;
            }
        }
        return false;
    }
    }
    return false;
}

static bool s_code_matches(const struct anvil_waiter_acceptor *a, const struct anvil_operation_error *error) {
    struct anvil_str_view code = anvil_error_code_normalize(error->code);
    for (size_t i = 0; i < a->code_count; i++) {
        if (anvil_sv_eq(code, a->codes[i])) {
            return true;
        }
    }
    return false;
}

static int s_input_output(struct anvil_arena *arena, const struct anvil_json *input, const struct anvil_json *output,
                          struct anvil_json *out) {
    struct anvil_json_pair pairs[2] = {
        {ANVIL_SV("input"), input ? *input : anvil_json_make_null()},
        {ANVIL_SV("output"), output ? *output : anvil_json_make_null()},
    };
    return anvil_json_new_object(arena, pairs, 2, out);
}

static int s_error_object(struct anvil_arena *arena, const struct anvil_operation_error *error,
                          struct anvil_json *out) {
    struct anvil_json_pair pairs[3] = {{ANVIL_SV("code"), ANVIL_JSON_NULL_INIT},
                                       {ANVIL_SV("message"), ANVIL_JSON_NULL_INIT},
                                       {ANVIL_SV("status"), ANVIL_JSON_NULL_INIT}};
    struct anvil_str_view code = anvil_error_code_normalize(error->code);
    int rc = anvil_json_new_string(arena, code.ptr, code.len, &pairs[0].value);
    if (rc == ANVIL_OK) {
        rc = anvil_json_new_string(arena, error->message.ptr ? error->message.ptr : "", error->message.len,
                                   &pairs[1].value);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (error->http_status) {
        pairs[2].value = anvil_json_make_int(error->http_status);
    }
    return anvil_json_new_object(arena, pairs, 3, out);
}

/* A runtime error of the expression on this data means "no match"; running out of memory does not. */
static int s_search(const struct anvil_jmespath *expr, const struct anvil_json *subject, struct anvil_arena *arena,
                    struct anvil_json *value) {
    *value = anvil_json_make_null();
    int rc = anvil_jmespath_search(expr, subject, arena, value, NULL);
    if (rc == ANVIL_ENOMEM || rc == ANVIL_ELIMIT) {
        return rc;
    }
    if (rc != ANVIL_OK) {
        *value = anvil_json_make_null();
    }
    return ANVIL_OK;
}

/* What a path looks at: the output, {"input", "output"}, or for a failure's message the error as an object. */
static int s_subject(const struct anvil_waiter_acceptor *acceptor, const struct anvil_json *input,
                     const struct anvil__wait_result *result, struct anvil_arena *arena, struct anvil_json *subject) {
    *subject = anvil_json_make_null();
    if (!result->has_output) {
        return s_error_object(arena, result->error, subject);
    }
    if (acceptor->matcher == ANVIL_MATCH_INPUT_OUTPUT) {
        return s_input_output(arena, input, result->output, subject);
    }
    if (result->output) {
        *subject = *result->output;
    }
    return ANVIL_OK;
}

int anvil__waiter_eval_subject(const struct anvil_waiter_acceptor *acceptor, const struct anvil_json *input,
                               const struct anvil__wait_result *result, const struct anvil_jmespath *expr,
                               struct anvil_arena *arena, struct anvil_json *value) {
    struct anvil_json subject;
    int rc = s_subject(acceptor, input, result, arena, &subject);
    return rc == ANVIL_OK ? s_search(expr, &subject, arena, value) : rc;
}

static int s_acceptor_matches(const struct anvil_waiter_acceptor *a, const struct anvil_json *input,
                              const struct anvil__wait_result *result, struct anvil_arena *scratch, bool *matches) {
    *matches = false;
    switch (a->matcher) {
    case ANVIL_MATCH_SUCCESS:
        *matches = a->success == result->has_output;
        return ANVIL_OK;
    case ANVIL_MATCH_ERROR_TYPE:
        *matches = !result->has_output && s_code_matches(a, result->error);
        return ANVIL_OK;
    case ANVIL_MATCH_STATUS:
        *matches = result->http_status != 0 && result->http_status == a->status;
        return ANVIL_OK;
    case ANVIL_MATCH_OUTPUT:
    case ANVIL_MATCH_INPUT_OUTPUT: {
        if (!result->has_output) {
            return ANVIL_OK; /* path matchers look at successes only */
        }
        if (a->compiled) {
            struct anvil_json subject;
            int rc = s_subject(a, input, result, scratch, &subject);
            return rc == ANVIL_OK ? a->compiled(&subject, scratch, matches) : rc;
        }
        struct anvil_json value;
        int rc = anvil__waiter_eval_subject(a, input, result, a->path, scratch, &value);
        if (rc == ANVIL_OK) {
            *matches = s_compare(a, &value);
        }
        return rc;
    }
    }
    return ANVIL_OK;
}

int anvil__waiter_match(const struct anvil_waiter *waiter, const struct anvil_json *input,
                        const struct anvil__wait_result *result, struct anvil_arena *scratch, int *matched) {
    *matched = -1;
    for (size_t i = 0; i < waiter->acceptor_count; i++) {
        bool matches;
        int rc = s_acceptor_matches(&waiter->acceptors[i], input, result, scratch, &matches);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (matches) {
            *matched = (int)i;
            return ANVIL_OK;
        }
    }
    return ANVIL_OK;
}

int anvil_waiter_expects_error(const struct anvil_waiter *waiter, const struct anvil_operation_error *error) {
    if (!waiter || !error) {
        return -1;
    }
    /* Only errorType, success and status look at errors; none of them evaluates a path or needs memory. */
    struct anvil__wait_result result = {false, NULL, error, error->http_status};
    for (size_t i = 0; i < waiter->acceptor_count; i++) {
        const struct anvil_waiter_acceptor *a = &waiter->acceptors[i];
        bool matches = false;
        if (a->matcher == ANVIL_MATCH_SUCCESS || a->matcher == ANVIL_MATCH_ERROR_TYPE ||
            a->matcher == ANVIL_MATCH_STATUS) {
            s_acceptor_matches(a, NULL, &result, NULL, &matches);
        }
        if (matches) {
            return (int)i;
        }
    }
    return -1;
}
