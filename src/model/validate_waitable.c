/*
 * @waitable, following Smithy's WaitableTraitValidator, WaiterMatcherValidator
 * and UniqueWaiterNamesValidator and the prelude's constraints on the trait
 * (research/waiters.md section D gives each message). Not yet: the static
 * JMESPath type checks (WaitableTraitJmespathProblem).
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "anvil/jmespath.h"
#include "anvil/status.h"
#include "jmespath/jmespath_internal.h"
#include "model/validate_internal.h"

#define S_TRAIT "smithy.waiters#waitable"

/* ^[A-Z]+[A-Za-z0-9]*$ */
static bool s_valid_name(struct anvil_str_view name) {
    if (name.len == 0 || name.ptr[0] < 'A' || name.ptr[0] > 'Z') {
        return false;
    }
    for (size_t i = 1; i < name.len; i++) {
        if (!isalnum((unsigned char)name.ptr[i]) || (unsigned char)name.ptr[i] >= 0x80) {
            return false;
        }
    }
    return true;
}

/* A member of the input or output that targets a union marked @streaming: an event stream. */
static bool s_has_event_stream(const struct anvil_shape *structure) {
    for (size_t i = 0; structure && i < anvil_shape_member_count(structure); i++) {
        const struct anvil_shape *target = anvil_shape_member_at(structure, i)->target;
        if (target && anvil_shape_type(target) == ANVIL_SHAPE_UNION &&
            anvil_shape_trait(target, "smithy.api#streaming")) {
            return true;
        }
    }
    return false;
}

/* Compiles `text`, reporting a syntax error; returns the expression (NULL on error). */
static struct anvil_jmespath *s_check_expression(struct anvil_events *events, struct anvil_str_view op,
                                                 const char *prefix, const char *what, const struct anvil_json *text) {
    struct anvil_str_view expr = anvil_json_string(text);
    struct anvil_jmespath *compiled = NULL;
    struct anvil_diag diag;
    int rc = anvil_jmespath_compile(events->allocator, expr.ptr, expr.len, NULL, &compiled, &diag);
    if (rc == ANVIL_ENOMEM) {
        events->error = rc;
    } else if (rc != ANVIL_OK) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, op, "WaitableTrait",
                         "%sInvalid JMESPath expression%s (%.*s): Syntax error at line %zu column %zu: %s", prefix,
                         what, (int)expr.len, expr.ptr, diag.line ? diag.line : 1, diag.column, diag.message);
    }
    return compiled;
}

/* Reports each problem Smithy's linter finds in a path, as WaiterMatcherValidator does. */
struct s_lint_events {
    struct anvil_events *events;
    struct anvil_str_view op;
    struct anvil_str_view waiter;
    size_t index;
    const char *prefix;
    struct anvil_str_view path;
};

static void s_lint_problem(void *user_data, enum anvil__lint_severity severity, size_t line, size_t column,
                           const char *message) {
    struct s_lint_events *le = user_data;
    char event_id[300];
    enum anvil_severity level = ANVIL_SEVERITY_ERROR;
    int w = (int)(le->waiter.len < 128 ? le->waiter.len : 128);
    if (severity == ANVIL__LINT_ERROR) {
        snprintf(event_id, sizeof(event_id), "WaitableTrait");
    } else {
        level = severity == ANVIL__LINT_DANGER ? ANVIL_SEVERITY_DANGER : ANVIL_SEVERITY_WARNING;
        snprintf(event_id, sizeof(event_id), "WaitableTraitJmespathProblem.%s.%.*s.%zu",
                 severity == ANVIL__LINT_DANGER ? "JmespathEventDanger" : "JmespathEventWarning", w, le->waiter.ptr,
                 le->index);
    }
    anvil__event_add(le->events, level, le->op, event_id, "%sProblem found in JMESPath expression (%.*s): %s (%zu:%zu)",
                     le->prefix, (int)le->path.len, le->path.ptr, message, line, column);
}

/*
 * Lints `expr` on a sample of the modelled shapes (Smithy's
 * ModelRuntimeTypeGenerator): the output, or {input, output}. Reports each
 * problem and stores the expression's static type in `*got` (any when the
 * sample could not be built).
 */
static void s_lint(struct anvil_events *events, const struct anvil_shape *op, struct anvil_str_view waiter,
                   size_t index, const char *prefix, bool input_output, const struct anvil_jmespath *expr,
                   enum anvil__lint_type *got) {
    struct anvil_arena *arena = NULL;
    struct anvil_json sample;
    struct s_lint_events le = {events, anvil_shape_id(op), waiter, index, prefix, anvil_jmespath_text(expr)};
    *got = ANVIL__LINT_ANY_TYPE;
    int rc = anvil_arena_new(events->allocator, NULL, &arena);
    if (rc == ANVIL_OK) {
        rc = anvil__model_sample(arena, events->allocator, anvil_operation_input(op), anvil_operation_output(op),
                                 input_output, &sample);
    }
    if (rc == ANVIL_OK) {
        rc = anvil__jmespath_lint(expr, &sample, arena, s_lint_problem, &le, got);
    }
    if (rc == ANVIL_ENOMEM) {
        events->error = rc;
    }
    anvil_arena_destroy(arena);
}

/* The path's problems, then its type against what the comparator needs; an "any" type passes. */
static void s_lint_path(struct anvil_events *events, const struct anvil_shape *op, struct anvil_str_view waiter,
                        size_t index, const char *prefix, bool input_output, struct anvil_str_view comparator,
                        const struct anvil_jmespath *path) {
    enum anvil__lint_type want = ANVIL__LINT_ANY_TYPE, got;
    if (anvil_sv_eq_cstr(comparator, "booleanEquals")) {
        want = ANVIL__LINT_BOOLEAN;
    } else if (anvil_sv_eq_cstr(comparator, "stringEquals")) {
        want = ANVIL__LINT_STRING;
    } else if (anvil_sv_eq_cstr(comparator, "allStringEquals") || anvil_sv_eq_cstr(comparator, "anyStringEquals")) {
        want = ANVIL__LINT_ARRAY;
    }
    s_lint(events, op, waiter, index, prefix, input_output, path, &got);
    if (want != ANVIL__LINT_ANY_TYPE && got != ANVIL__LINT_ANY_TYPE && got != want) {
        char event_id[300];
        snprintf(event_id, sizeof(event_id), "WaitableTraitJmespathProblem.ReturnTypeMismatch.%.*s.%zu",
                 (int)(waiter.len < 128 ? waiter.len : 128), waiter.ptr, index);
        anvil__event_add(events, ANVIL_SEVERITY_DANGER, anvil_shape_id(op), event_id,
                         "%sWaiter acceptors with a %.*s comparator must return a `%s` type, but this acceptor "
                         "was statically determined to return a `%s` type.",
                         prefix, (int)comparator.len, comparator.ptr, anvil__lint_type_name(want),
                         anvil__lint_type_name(got));
    }
}

/*
 * An acceptor `message`: its problems, and its type, which must be a string
 * or an array (strictly: "any" does not pass, as in Smithy's validator).
 */
static void s_lint_message(struct anvil_events *events, const struct anvil_shape *op, struct anvil_str_view waiter,
                           size_t index, const char *prefix, bool input_output, const struct anvil_jmespath *message) {
    enum anvil__lint_type got;
    s_lint(events, op, waiter, index, prefix, input_output, message, &got);
    if (got != ANVIL__LINT_STRING && got != ANVIL__LINT_ARRAY) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, anvil_shape_id(op), "WaitableTrait",
                         "%sThe `message` JMESPath expression must resolve to a string or an array of strings, but "
                         "this expression was statically determined to return a `%s` type.",
                         prefix, anvil__lint_type_name(got));
    }
}

static bool s_error_on_operation(const struct anvil_shape *op, struct anvil_str_view name) {
    for (size_t i = 0; i < anvil_shape_error_count(op); i++) {
        const struct anvil_shape *e = anvil_shape_error_at(op, i);
        if (anvil_sv_eq(anvil_shape_id(e), name) || anvil_sv_eq(anvil_shape_name(e), name)) {
            return true;
        }
    }
    return false;
}

static void s_acceptor(struct anvil_events *events, const struct anvil_shape *op, struct anvil_str_view waiter,
                       size_t index, const struct anvil_json *acceptor, bool *success) {
    struct anvil_str_view id = anvil_shape_id(op);
    char prefix[256];
    snprintf(prefix, sizeof(prefix), "Waiter `%.*s`, acceptor %zu: ", (int)(waiter.len < 128 ? waiter.len : 128),
             waiter.ptr, index);
    const struct anvil_json *state = anvil_json_object_get_cstr(acceptor, "state");
    const struct anvil_json *matcher = anvil_json_object_get_cstr(acceptor, "matcher");
    const struct anvil_json *message = anvil_json_object_get_cstr(acceptor, "message");
    struct anvil_str_view state_name = anvil_json_string(state);
    if (!anvil_sv_eq_cstr(state_name, "success") && !anvil_sv_eq_cstr(state_name, "failure") &&
        !anvil_sv_eq_cstr(state_name, "retry")) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                         "Error validating trait `%s`.%.*s.acceptors.%zu.state: an acceptor `state` must be one of "
                         "success, failure, retry",
                         S_TRAIT, (int)waiter.len, waiter.ptr, index);
    }
    *success |= anvil_sv_eq_cstr(state_name, "success");
    if (message && !anvil_sv_eq_cstr(state_name, "failure")) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "WaitableTrait",
                         "%sThe `message` property is only valid on acceptors with a `failure` state, but found state "
                         "`%.*s`.",
                         prefix, (int)state_name.len, state_name.ptr);
    }
    struct anvil_jmespath *message_expr = NULL;
    if (anvil_json_is_string(message)) {
        message_expr = s_check_expression(events, id, prefix, " in `message`", message);
    }
    if (message_expr) {
        const struct anvil_json *kinds = anvil_json_is_object(matcher) ? matcher : NULL;
        bool io = anvil_json_object_get_cstr(kinds, "inputOutput") != NULL;
        s_lint_message(events, op, waiter, index, prefix, io, message_expr);
        anvil_jmespath_destroy(message_expr);
    }
    if (!anvil_json_is_object(matcher) || anvil_json_len(matcher) != 1) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                         "Error validating trait `%s`.%.*s.acceptors.%zu.matcher: the matcher union must have exactly "
                         "one member set, found %zu",
                         S_TRAIT, (int)waiter.len, waiter.ptr, index, anvil_json_len(matcher));
        return;
    }
    const struct anvil_json_member *kind = anvil_json_object_at(matcher, 0);
    struct anvil_str_view k = anvil_json_member_key(kind);
    if (anvil_sv_eq_cstr(k, "output") || anvil_sv_eq_cstr(k, "inputOutput")) {
        const struct anvil_json *path = anvil_json_object_get_cstr(&kind->value, "path");
        const struct anvil_json *expected = anvil_json_object_get_cstr(&kind->value, "expected");
        const struct anvil_json *comparator = anvil_json_object_get_cstr(&kind->value, "comparator");
        if (!anvil_json_is_string(path) || !anvil_json_is_string(expected) || !anvil_json_is_string(comparator)) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                             "Error validating trait `%s`.%.*s.acceptors.%zu.matcher.%.*s: `path`, `expected` and "
                             "`comparator` are required strings",
                             S_TRAIT, (int)waiter.len, waiter.ptr, index, (int)k.len, k.ptr);
            return;
        }
        struct anvil_str_view cmp = anvil_json_string(comparator);
        if (!anvil_sv_eq_cstr(cmp, "stringEquals") && !anvil_sv_eq_cstr(cmp, "booleanEquals") &&
            !anvil_sv_eq_cstr(cmp, "allStringEquals") && !anvil_sv_eq_cstr(cmp, "anyStringEquals")) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                             "Error validating trait `%s`.%.*s.acceptors.%zu.matcher.%.*s.comparator: `%.*s` is not "
                             "one of stringEquals, booleanEquals, allStringEquals, anyStringEquals",
                             S_TRAIT, (int)waiter.len, waiter.ptr, index, (int)k.len, k.ptr, (int)cmp.len, cmp.ptr);
        }
        struct anvil_str_view want = anvil_json_string(expected);
        if (anvil_sv_eq_cstr(cmp, "booleanEquals") && !anvil_sv_eq_cstr(want, "true") &&
            !anvil_sv_eq_cstr(want, "false")) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "WaitableTrait",
                             "%sWaiter acceptors with a booleanEquals comparator must set their `expected` value to "
                             "'true' or 'false', but found '%.*s'.",
                             prefix, (int)want.len, want.ptr);
        }
        struct anvil_jmespath *compiled = s_check_expression(events, id, prefix, "", path);
        if (compiled) {
            s_lint_path(events, op, waiter, index, prefix, anvil_sv_eq_cstr(k, "inputOutput"), cmp, compiled);
        }
        anvil_jmespath_destroy(compiled);
    } else if (anvil_sv_eq_cstr(k, "errorType")) {
        struct anvil_str_view name = anvil_json_string(&kind->value);
        /* An absolute shape id compares by the whole id or by its name. */
        if (!s_error_on_operation(op, name)) {
            char event_id[300];
            snprintf(event_id, sizeof(event_id), "WaitableTraitInvalidErrorType.%.*s.%zu",
                     (int)(waiter.len < 128 ? waiter.len : 128), waiter.ptr, index);
            struct anvil_buf list;
            anvil_buf_init(&list, events->allocator, 0);
            int rc = ANVIL_OK;
            for (size_t i = 0; i < anvil_shape_error_count(op) && rc == ANVIL_OK; i++) {
                struct anvil_str_view e = anvil_shape_id(anvil_shape_error_at(op, i));
                rc = anvil_buf_appendf(&list, "%s%.*s", i ? ", " : "", (int)e.len, e.ptr);
            }
            if (rc != ANVIL_OK) {
                events->error = ANVIL_ENOMEM;
                anvil_buf_clean_up(&list);
                return;
            }
            anvil__event_add(events, ANVIL_SEVERITY_WARNING, id, event_id,
                             "%serrorType '%.*s' not found on operation. This operation defines the following errors: "
                             "[%s]",
                             prefix, (int)name.len, name.ptr, list.data ? list.data : "");
            anvil_buf_clean_up(&list);
        }
    } else if (!anvil_sv_eq_cstr(k, "success")) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                         "Error validating trait `%s`.%.*s.acceptors.%zu.matcher: unknown matcher `%.*s`", S_TRAIT,
                         (int)waiter.len, waiter.ptr, index, (int)k.len, k.ptr);
    }
}

static int64_t s_delay(const struct anvil_json *waiter, const char *key, int64_t fallback) {
    const struct anvil_json *v = anvil_json_object_get_cstr(waiter, key);
    return anvil_json_is_int(v) ? anvil_json_int(v) : fallback;
}

static void s_waiter(struct anvil_events *events, const struct anvil_shape *op, struct anvil_str_view name,
                     const struct anvil_json *waiter) {
    struct anvil_str_view id = anvil_shape_id(op);
    if (!s_valid_name(name)) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                         "Error validating trait `%s`.%.*s (map-key): String value provided for "
                         "`smithy.waiters#WaiterName` must match regular expression: ^[A-Z]+[A-Za-z0-9]*$",
                         S_TRAIT, (int)name.len, name.ptr);
    }
    int64_t min_delay = s_delay(waiter, "minDelay", 2), max_delay = s_delay(waiter, "maxDelay", 120);
    static const char *const delays[] = {"minDelay", "maxDelay"};
    for (int i = 0; i < 2; i++) {
        const struct anvil_json *v = anvil_json_object_get_cstr(waiter, delays[i]);
        if (v && (!anvil_json_is_int(v) || anvil_json_int(v) < 1)) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                             "Error validating trait `%s`.%.*s.%s: `%s` must be an integer of at least 1", S_TRAIT,
                             (int)name.len, name.ptr, delays[i], delays[i]);
        }
    }
    if (min_delay > max_delay) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "WaitableTrait",
                         "`%s` trait waiter named `%.*s` has a `minDelay` value of %lld that is greater than its "
                         "`maxDelay` value of %lld",
                         S_TRAIT, (int)name.len, name.ptr, (long long)min_delay, (long long)max_delay);
    }
    const struct anvil_json *acceptors = anvil_json_object_get_cstr(waiter, "acceptors");
    if (!anvil_json_is_array(acceptors) || anvil_json_len(acceptors) == 0) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "TraitValue",
                         "Error validating trait `%s`.%.*s.acceptors: at least one acceptor is required", S_TRAIT,
                         (int)name.len, name.ptr);
    }
    bool success = false;
    for (size_t i = 0; i < anvil_json_len(acceptors); i++) {
        s_acceptor(events, op, name, i, anvil_json_array_at(acceptors, i), &success);
    }
    if (!success) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "WaitableTrait",
                         "No success state matcher found for `%s` trait waiter named `%.*s`", S_TRAIT, (int)name.len,
                         name.ptr);
    }
}

/* ---- names unique, case-insensitively, across each service closure ---- */

struct s_named {
    const struct anvil_shape *op;
    char lower[128];
};

struct s_unique {
    struct s_named *names;
    size_t count, cap;
    struct anvil_allocator *allocator;
    bool failed;
};

static bool s_collect(const struct anvil_shape *op, void *user_data) {
    struct s_unique *u = user_data;
    const struct anvil_json *trait = anvil_shape_trait(op, S_TRAIT);
    for (size_t i = 0; i < anvil_json_len(trait); i++) {
        struct anvil_str_view name = anvil_json_member_key(anvil_json_object_at(trait, i));
        if (anvil__mem_grow(u->allocator, (void **)&u->names, &u->cap, sizeof(*u->names), u->count + 1) != ANVIL_OK) {
            u->failed = true;
            return false;
        }
        struct s_named *n = &u->names[u->count++];
        n->op = op;
        size_t len = name.len < sizeof(n->lower) - 1 ? name.len : sizeof(n->lower) - 1;
        for (size_t j = 0; j < len; j++) {
            n->lower[j] = (char)tolower((unsigned char)name.ptr[j]);
        }
        n->lower[len] = '\0';
    }
    return true;
}

static void s_unique(const struct anvil_model *model, const struct anvil_shape *service, struct anvil_events *events) {
    struct s_unique u = {NULL, 0, 0, events->allocator, false};
    if (anvil_service_operations(model, service, s_collect, &u, NULL) != ANVIL_OK || u.failed) {
        events->error = ANVIL_ENOMEM;
        anvil_mem_release(u.allocator, u.names);
        return;
    }
    struct anvil_str_view svc = anvil_shape_id(service);
    for (size_t i = 0; i < u.count; i++) {
        struct anvil_buf others;
        anvil_buf_init(&others, events->allocator, 0);
        int rc = ANVIL_OK;
        for (size_t j = 0; j < u.count && rc == ANVIL_OK; j++) {
            /* Conflicts are between different operations (as Smithy counts them). */
            if (j != i && u.names[j].op != u.names[i].op && strcmp(u.names[i].lower, u.names[j].lower) == 0) {
                struct anvil_str_view other = anvil_shape_id(u.names[j].op);
                rc = anvil_buf_appendf(&others, "%s%.*s", others.len ? ", " : "", (int)other.len, other.ptr);
            }
        }
        if (rc != ANVIL_OK) {
            events->error = ANVIL_ENOMEM;
            anvil_buf_clean_up(&others);
            break;
        }
        if (others.len) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, anvil_shape_id(u.names[i].op), "UniqueWaiterNames",
                             "`%s` trait waiter name `%s` case-insensitively conflicts with waiters on other "
                             "operations in the closure of service, `%.*s`: [%s]",
                             S_TRAIT, u.names[i].lower, (int)svc.len, svc.ptr, others.data);
        }
        anvil_buf_clean_up(&others);
    }
    anvil_mem_release(u.allocator, u.names);
}

void anvil__validate_waitable(const struct anvil_model *model, struct anvil_events *events) {
    for (size_t i = 0; i < model->count && !events->error; i++) {
        const struct anvil_shape *s = &model->shapes[i];
        const struct anvil_json *trait = anvil_shape_trait(s, S_TRAIT);
        if (!trait) {
            continue;
        }
        if (s->type != ANVIL_SHAPE_OPERATION || s_has_event_stream(s->input) || s_has_event_stream(s->output)) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, s->id, "TraitTarget",
                             "Trait `%s` cannot be applied to `%.*s`. This trait may only be applied to shapes that "
                             "match the following selector: operation :not(-[input, output]-> structure > member > "
                             "union[trait|streaming])",
                             S_TRAIT, (int)s->id.len, s->id.ptr);
            continue;
        }
        if (!anvil_json_is_object(trait) || anvil_json_len(trait) == 0) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, s->id, "TraitValue",
                             "Error validating trait `%s`: it must be a map with at least one waiter", S_TRAIT);
            continue;
        }
        for (size_t w = 0; w < anvil_json_len(trait); w++) {
            const struct anvil_json_member *m = anvil_json_object_at(trait, w);
            s_waiter(events, s, anvil_json_member_key(m), &m->value);
        }
    }
    for (size_t i = 0; i < model->count && !events->error; i++) {
        if (model->shapes[i].type == ANVIL_SHAPE_SERVICE) {
            s_unique(model, &model->shapes[i], events);
        }
    }
}
