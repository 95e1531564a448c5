/*
 * Waiter sets: descriptions read from a Smithy model's
 * `smithy.waiters#waitable` traits, from a trait value written by hand, or
 * from botocore's waiters-2.json. Everything the descriptions refer to is
 * copied into the set's arena; compiled paths are kept for destruction.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "behavior/behavior_internal.h"
#include "core/core_internal.h"

struct anvil_waiter_set {
    struct anvil__desc_store store;
    struct anvil_waiter *waiters;
    size_t count, cap;
};

/* Where a waiter being read comes from, for messages and errorType aliases. */
struct s_ctx {
    struct anvil_waiter_set *set;
    struct anvil_diag *diag;
    const struct anvil_model *model; /* NULL outside models */
    const struct anvil_shape *operation;
    struct anvil_str_view operation_name;
    struct anvil_str_view waiter;
    size_t acceptor; /* SIZE_MAX: the problem is the waiter's */
};

ANVIL_PRINTF(2, 3)
static int s_fail(struct s_ctx *cx, const char *fmt, ...) {
    char what[160];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    char where[48] = "";
    if (cx->acceptor != SIZE_MAX) {
        snprintf(where, sizeof where, ", acceptor %zu", cx->acceptor);
    }
    return anvil_diag_set(cx->diag, ANVIL_EMODEL, 0, 0, 0, "waiter `%.*s` of `%.*s`%s: %s", (int)cx->waiter.len,
                          cx->waiter.ptr, (int)cx->operation_name.len, cx->operation_name.ptr, where, what);
}

static int s_set_new(struct anvil_allocator *allocator, struct anvil_waiter_set **out) {
    *out = NULL;
    struct anvil_waiter_set *set = anvil_mem_acquire(allocator, sizeof *set);
    if (!set) {
        return ANVIL_ENOMEM;
    }
    memset(set, 0, sizeof *set);
    int rc = anvil__desc_store_init(&set->store, allocator);
    if (rc != ANVIL_OK) {
        anvil_mem_release(allocator, set);
        return rc;
    }
    *out = set;
    return ANVIL_OK;
}

void anvil_waiter_set_destroy(struct anvil_waiter_set *set) {
    if (!set) {
        return;
    }
    struct anvil_allocator *allocator = set->store.allocator;
    anvil_mem_release(allocator, set->waiters);
    anvil__desc_store_clean_up(&set->store);
    anvil_mem_release(allocator, set);
}

size_t anvil_waiter_set_count(const struct anvil_waiter_set *set) {
    return set ? set->count : 0;
}

const struct anvil_waiter *anvil_waiter_set_at(const struct anvil_waiter_set *set, size_t index) {
    return set && index < set->count ? &set->waiters[index] : NULL;
}

const struct anvil_waiter *anvil_waiter_set_find(const struct anvil_waiter_set *set, const char *name, size_t len) {
    if (!set || !name) {
        return NULL;
    }
    struct anvil_str_view want = anvil_sv(name, len);
    for (size_t i = 0; i < set->count; i++) {
        if (anvil_sv_eq(set->waiters[i].name, want)) {
            return &set->waiters[i];
        }
    }
    for (size_t i = 0; i < set->count; i++) {
        if (anvil_sv_eq_ascii_nocase(set->waiters[i].name, want)) {
            return &set->waiters[i];
        }
    }
    return NULL;
}

static int s_copy_sv(struct anvil_waiter_set *set, struct anvil_str_view in, struct anvil_str_view *out) {
    return anvil__desc_store_copy(&set->store, in, out);
}

static int s_compile(struct s_ctx *cx, const struct anvil_json *text, const char *what,
                     const struct anvil_jmespath **out) {
    if (!anvil_json_is_string(text)) {
        return s_fail(cx, "`%s` must be a string", what);
    }
    struct anvil_str_view src = anvil_json_string(text);
    struct anvil_diag d;
    anvil_diag_clear(&d);
    int rc = anvil__desc_store_compile(&cx->set->store, src, out, &d);
    if (rc == ANVIL_OK || rc == ANVIL_ENOMEM) {
        return rc;
    }
    return s_fail(cx, "invalid JMESPath expression in `%s` (%.*s): %s", what, (int)src.len, src.ptr, d.message);
}

/* A whole number of seconds in [1, 2^31) from `value` (absent = `fallback`). */
static int s_seconds(struct s_ctx *cx, const struct anvil_json *value, const char *what, uint32_t fallback,
                     uint32_t *out) {
    if (!value) {
        *out = fallback;
        return ANVIL_OK;
    }
    if (!anvil_json_is_int(value) || anvil_json_int(value) < 1 || anvil_json_int(value) > INT32_MAX) {
        return s_fail(cx, "`%s` must be a whole number from 1 to %d", what, INT32_MAX);
    }
    *out = (uint32_t)anvil_json_int(value);
    return ANVIL_OK;
}

/* ---- errorType codes and their aliases ---- */

static bool s_has_code(const struct anvil_str_view *codes, size_t n, struct anvil_str_view code) {
    for (size_t i = 0; i < n; i++) {
        if (anvil_sv_eq(codes[i], code)) {
            return true;
        }
    }
    return false;
}

/* The `awsQueryError` code of an error shape (empty when none). */
static struct anvil_str_view s_query_code(const struct anvil_shape *error) {
    const struct anvil_json *trait = anvil_shape_trait(error, "aws.protocols#awsQueryError");
    const struct anvil_json *code = anvil_json_object_get_cstr(trait, "code");
    return anvil_json_is_string(code) ? anvil_json_string(code) : anvil_sv("", 0);
}

#define S_MAX_CODES 8

/* Adds the names under which a modelled error matching `code` travels (shape name, awsQuery code). */
static void s_alias_from(const struct anvil_shape *error, struct anvil_str_view *codes, size_t *n) {
    struct anvil_str_view name = anvil_shape_name(error);
    struct anvil_str_view query = s_query_code(error);
    if (!anvil_sv_eq(name, codes[0]) && !anvil_sv_eq(query, codes[0])) {
        return;
    }
    if (*n < S_MAX_CODES && !s_has_code(codes, *n, name)) {
        codes[(*n)++] = name;
    }
    if (query.len && *n < S_MAX_CODES && !s_has_code(codes, *n, query)) {
        codes[(*n)++] = query;
    }
}

static void s_aliases(const struct s_ctx *cx, struct anvil_str_view *codes, size_t *n) {
    if (!cx->model) {
        return;
    }
    for (size_t i = 0; i < anvil_shape_error_count(cx->operation); i++) {
        s_alias_from(anvil_shape_error_at(cx->operation, i), codes, n);
    }
    for (size_t s = 0; s < anvil_model_shape_count(cx->model); s++) {
        const struct anvil_shape *shape = anvil_model_shape_at(cx->model, s);
        if (anvil_shape_type(shape) != ANVIL_SHAPE_SERVICE) {
            continue;
        }
        for (size_t i = 0; i < anvil_shape_error_count(shape); i++) {
            s_alias_from(anvil_shape_error_at(shape, i), codes, n);
        }
    }
}

static int s_error_type(struct s_ctx *cx, struct anvil_str_view written, struct anvil_waiter_acceptor *a) {
    struct anvil_str_view codes[S_MAX_CODES];
    size_t n = 0;
    codes[n++] = anvil_error_code_normalize(written);
    if (codes[0].len == 0) {
        return s_fail(cx, "errorType must name an error");
    }
    s_aliases(cx, codes, &n);
    struct anvil_str_view *copy = anvil_arena_alloc(cx->set->store.arena, n * sizeof *copy, 0);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        int rc = s_copy_sv(cx->set, codes[i], &copy[i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    a->matcher = ANVIL_MATCH_ERROR_TYPE;
    a->codes = copy;
    a->code_count = n;
    return ANVIL_OK;
}

/* ---- Smithy waiters ---- */

static int s_state(struct s_ctx *cx, const struct anvil_json *v, enum anvil_waiter_state *out) {
    static const char *const names[] = {"success", "failure", "retry"};
    for (size_t i = 0; i < 3; i++) {
        if (anvil_json_is_string(v) && anvil_sv_eq_cstr(anvil_json_string(v), names[i])) {
            *out = (enum anvil_waiter_state)i;
            return ANVIL_OK;
        }
    }
    return s_fail(cx, "`state` must be \"success\", \"failure\" or \"retry\"");
}

static int s_smithy_path(struct s_ctx *cx, const struct anvil_json *m, struct anvil_waiter_acceptor *a) {
    if (!anvil_json_is_object(m)) {
        return s_fail(cx, "a path matcher must be an object");
    }
    int rc = s_compile(cx, anvil_json_object_get_cstr(m, "path"), "path", &a->path);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_json *comparator = anvil_json_object_get_cstr(m, "comparator");
    const struct anvil_json *expected = anvil_json_object_get_cstr(m, "expected");
    if (!anvil_json_is_string(expected)) {
        return s_fail(cx, "`expected` must be a string");
    }
    static const char *const names[] = {"stringEquals", "booleanEquals", "allStringEquals", "anyStringEquals"};
    size_t which = 4;
    for (size_t i = 0; i < 4 && anvil_json_is_string(comparator); i++) {
        if (anvil_sv_eq_cstr(anvil_json_string(comparator), names[i])) {
            which = i;
        }
    }
    if (which == 4) {
        return s_fail(cx, "`comparator` must be stringEquals, booleanEquals, allStringEquals or anyStringEquals");
    }
    a->comparator = (enum anvil_waiter_comparator)which;
    if (a->comparator != ANVIL_CMP_BOOLEAN_EQUALS) {
        return anvil_json_copy(cx->set->store.arena, expected, &a->expected);
    }
    struct anvil_str_view text = anvil_json_string(expected);
    if (!anvil_sv_eq_cstr(text, "true") && !anvil_sv_eq_cstr(text, "false")) {
        return s_fail(cx, "a booleanEquals comparator needs `expected` \"true\" or \"false\", not \"%.*s\"",
                      (int)text.len, text.ptr);
    }
    a->expected = anvil_json_make_bool(anvil_sv_eq_cstr(text, "true"));
    return ANVIL_OK;
}

static int s_smithy_matcher(struct s_ctx *cx, const struct anvil_json *m, struct anvil_waiter_acceptor *a) {
    if (!anvil_json_is_object(m) || anvil_json_len(m) != 1) {
        return s_fail(cx, "`matcher` must be an object with exactly one member");
    }
    const struct anvil_json_member *member = anvil_json_object_at(m, 0);
    struct anvil_str_view kind = anvil_json_member_key(member);
    const struct anvil_json *v = &member->value;
    if (anvil_sv_eq_cstr(kind, "output") || anvil_sv_eq_cstr(kind, "inputOutput")) {
        a->matcher = anvil_sv_eq_cstr(kind, "output") ? ANVIL_MATCH_OUTPUT : ANVIL_MATCH_INPUT_OUTPUT;
        return s_smithy_path(cx, v, a);
    }
    if (anvil_sv_eq_cstr(kind, "success")) {
        if (!anvil_json_is_bool(v)) {
            return s_fail(cx, "the `success` matcher must be true or false");
        }
        a->matcher = ANVIL_MATCH_SUCCESS;
        a->success = anvil_json_bool(v);
        return ANVIL_OK;
    }
    if (anvil_sv_eq_cstr(kind, "errorType")) {
        if (!anvil_json_is_string(v)) {
            return s_fail(cx, "the `errorType` matcher must be a string");
        }
        return s_error_type(cx, anvil_json_string(v), a);
    }
    return s_fail(cx, "unknown matcher `%.*s` (expected output, inputOutput, success or errorType)", (int)kind.len,
                  kind.ptr);
}

static int s_smithy_acceptor(struct s_ctx *cx, const struct anvil_json *v, struct anvil_waiter_acceptor *a) {
    memset(a, 0, sizeof *a);
    if (!anvil_json_is_object(v)) {
        return s_fail(cx, "an acceptor must be an object");
    }
    int rc = s_state(cx, anvil_json_object_get_cstr(v, "state"), &a->state);
    if (rc == ANVIL_OK) {
        rc = s_smithy_matcher(cx, anvil_json_object_get_cstr(v, "matcher"), a);
    }
    const struct anvil_json *message = anvil_json_object_get_cstr(v, "message");
    if (rc == ANVIL_OK && message && a->state != ANVIL_WAITER_FAILURE) {
        return s_fail(cx, "`message` is only valid on acceptors with a `failure` state");
    }
    if (rc == ANVIL_OK && message) {
        rc = s_compile(cx, message, "message", &a->message);
    }
    return rc;
}

static int s_push_waiter(struct anvil_waiter_set *set, struct anvil_waiter **out) {
    if (set->count == set->cap) {
        int rc = anvil__mem_grow(set->store.allocator, (void **)&set->waiters, &set->cap, sizeof *set->waiters,
                                 set->count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    *out = &set->waiters[set->count];
    memset(*out, 0, sizeof **out);
    return ANVIL_OK;
}

static int s_tags(struct s_ctx *cx, const struct anvil_json *tags, struct anvil_waiter *w) {
    if (!tags) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_array(tags)) {
        return s_fail(cx, "`tags` must be a list of strings");
    }
    size_t n = anvil_json_len(tags);
    struct anvil_str_view *out = anvil_arena_alloc(cx->set->store.arena, (n ? n : 1) * sizeof *out, 0);
    if (!out) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json *tag = anvil_json_array_at(tags, i);
        if (!anvil_json_is_string(tag) || anvil_json_len(tag) == 0) {
            return s_fail(cx, "`tags` must be a list of non-empty strings");
        }
        int rc = s_copy_sv(cx->set, anvil_json_string(tag), &out[i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    w->tags = out;
    w->tag_count = n;
    return ANVIL_OK;
}

typedef int s_acceptor_fn(struct s_ctx *cx, const struct anvil_json *v, struct anvil_waiter_acceptor *a);

/* The waiter's `acceptors` list, each read by `read` (Smithy or waiters-2 form). */
static int s_acceptors(struct s_ctx *cx, const struct anvil_json *acceptors, s_acceptor_fn *read,
                       struct anvil_waiter *w) {
    if (!anvil_json_is_array(acceptors) || anvil_json_len(acceptors) == 0) {
        return s_fail(cx, "`acceptors` must be a non-empty list");
    }
    size_t n = anvil_json_len(acceptors);
    struct anvil_waiter_acceptor *list = anvil_arena_alloc(cx->set->store.arena, n * sizeof *list, 0);
    if (!list) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        cx->acceptor = i;
        int rc = read(cx, anvil_json_array_at(acceptors, i), &list[i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    w->acceptors = list;
    w->acceptor_count = n;
    return ANVIL_OK;
}

static int s_check(struct s_ctx *cx, const struct anvil_waiter *w) {
    struct anvil_diag d;
    anvil_diag_clear(&d);
    if (anvil_waiter_check(w, &d) != ANVIL_OK) {
        return anvil_diag_set(cx->diag, ANVIL_EMODEL, 0, 0, 0, "%s (operation `%.*s`)", d.message,
                              (int)cx->operation_name.len, cx->operation_name.ptr);
    }
    cx->set->count++;
    return ANVIL_OK;
}

static int s_smithy_waiter(struct s_ctx *cx, const struct anvil_json_member *entry) {
    struct anvil_waiter *w;
    int rc = s_push_waiter(cx->set, &w);
    if (rc != ANVIL_OK) {
        return rc;
    }
    cx->waiter = anvil_json_member_key(entry);
    cx->acceptor = SIZE_MAX;
    const struct anvil_json *v = &entry->value;
    if (!anvil_json_is_object(v)) {
        return s_fail(cx, "a waiter must be an object");
    }
    const struct anvil_json *doc = anvil_json_object_get_cstr(v, "documentation");
    const struct anvil_json *deprecated = anvil_json_object_get_cstr(v, "deprecated");
    if ((doc && !anvil_json_is_string(doc)) || (deprecated && !anvil_json_is_bool(deprecated))) {
        return s_fail(cx, "`documentation` must be a string and `deprecated` a boolean");
    }
    if ((rc = s_copy_sv(cx->set, cx->waiter, &w->name)) != ANVIL_OK ||
        (rc = s_copy_sv(cx->set, anvil_json_string(doc), &w->documentation)) != ANVIL_OK ||
        (rc = s_copy_sv(cx->set, cx->operation_name, &w->operation)) != ANVIL_OK ||
        (rc = s_seconds(cx, anvil_json_object_get_cstr(v, "minDelay"), "minDelay", ANVIL_WAITER_DEFAULT_MIN_DELAY_S,
                        &w->min_delay_s)) != ANVIL_OK ||
        (rc = s_seconds(cx, anvil_json_object_get_cstr(v, "maxDelay"), "maxDelay", ANVIL_WAITER_DEFAULT_MAX_DELAY_S,
                        &w->max_delay_s)) != ANVIL_OK ||
        (rc = s_tags(cx, anvil_json_object_get_cstr(v, "tags"), w)) != ANVIL_OK) {
        return rc;
    }
    w->deprecated = anvil_json_bool(deprecated);
    rc = s_acceptors(cx, anvil_json_object_get_cstr(v, "acceptors"), s_smithy_acceptor, w);
    return rc == ANVIL_OK ? s_check(cx, w) : rc;
}

static int s_trait(struct s_ctx *cx, const struct anvil_json *trait) {
    if (!anvil_json_is_object(trait)) {
        return anvil_diag_set(cx->diag, ANVIL_EMODEL, 0, 0, 0, "`smithy.waiters#waitable` on `%.*s` must be an object",
                              (int)cx->operation_name.len, cx->operation_name.ptr);
    }
    for (size_t i = 0; i < anvil_json_len(trait); i++) {
        int rc = s_smithy_waiter(cx, anvil_json_object_at(trait, i));
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

static int s_finish(int rc, struct anvil_waiter_set *set, struct anvil_waiter_set **out) {
    if (rc != ANVIL_OK) {
        anvil_waiter_set_destroy(set);
        return rc;
    }
    *out = set;
    return ANVIL_OK;
}

int anvil_waiter_set_from_trait(struct anvil_allocator *allocator, const struct anvil_json *trait,
                                struct anvil_str_view operation, struct anvil_waiter_set **out,
                                struct anvil_diag *diag) {
    if (!out || !trait) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_waiter_set *set;
    int rc = s_set_new(allocator, &set);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct s_ctx cx = {set, diag, NULL, NULL, operation, {"", 0}, SIZE_MAX};
    return s_finish(s_trait(&cx, trait), set, out);
}

int anvil_waiter_set_from_model(struct anvil_allocator *allocator, const struct anvil_model *model,
                                struct anvil_waiter_set **out, struct anvil_diag *diag) {
    if (!out || !model) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_waiter_set *set;
    int rc = s_set_new(allocator, &set);
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *shape = anvil_model_shape_at(model, i);
        const struct anvil_json *trait = anvil_shape_trait(shape, "smithy.waiters#waitable");
        if (!trait || anvil_shape_type(shape) != ANVIL_SHAPE_OPERATION) {
            continue;
        }
        struct s_ctx cx = {set, diag, model, shape, anvil_shape_id(shape), {"", 0}, SIZE_MAX};
        rc = s_trait(&cx, trait);
    }
    if (!set) {
        return rc;
    }
    return s_finish(rc, set, out);
}

/* ---- botocore waiters-2 ---- */

static int s_botocore_acceptor(struct s_ctx *cx, const struct anvil_json *v, struct anvil_waiter_acceptor *a) {
    memset(a, 0, sizeof *a);
    if (!anvil_json_is_object(v)) {
        return s_fail(cx, "an acceptor must be an object");
    }
    int rc = s_state(cx, anvil_json_object_get_cstr(v, "state"), &a->state);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_json *matcher = anvil_json_object_get_cstr(v, "matcher");
    const struct anvil_json *expected = anvil_json_object_get_cstr(v, "expected");
    struct anvil_str_view kind = anvil_json_is_string(matcher) ? anvil_json_string(matcher) : anvil_sv("", 0);
    if (!expected || anvil_json_is_null(expected)) {
        return s_fail(cx, "`expected` is required");
    }
    if (anvil_sv_eq_cstr(kind, "path") || anvil_sv_eq_cstr(kind, "pathAll") || anvil_sv_eq_cstr(kind, "pathAny")) {
        a->matcher = ANVIL_MATCH_OUTPUT;
        a->comparator = anvil_sv_eq_cstr(kind, "path")      ? ANVIL_CMP_EQUALS
                        : anvil_sv_eq_cstr(kind, "pathAll") ? ANVIL_CMP_ALL_EQUALS
                                                            : ANVIL_CMP_ANY_EQUALS;
        rc = s_compile(cx, anvil_json_object_get_cstr(v, "argument"), "argument", &a->path);
        return rc == ANVIL_OK ? anvil_json_copy(cx->set->store.arena, expected, &a->expected) : rc;
    }
    if (anvil_sv_eq_cstr(kind, "status")) {
        if (!anvil_json_is_int(expected) || anvil_json_int(expected) < 100 || anvil_json_int(expected) > 999) {
            return s_fail(cx, "a status matcher needs an HTTP status from 100 to 999");
        }
        a->matcher = ANVIL_MATCH_STATUS;
        a->status = (int)anvil_json_int(expected);
        return ANVIL_OK;
    }
    if (anvil_sv_eq_cstr(kind, "error")) {
        if (anvil_json_is_bool(expected)) {
            /* expected true: any error; false: no error. */
            a->matcher = ANVIL_MATCH_SUCCESS;
            a->success = !anvil_json_bool(expected);
            return ANVIL_OK;
        }
        if (!anvil_json_is_string(expected)) {
            return s_fail(cx, "an error matcher needs a string or boolean `expected`");
        }
        return s_error_type(cx, anvil_json_string(expected), a);
    }
    return s_fail(cx, "unknown matcher (expected path, pathAll, pathAny, status or error)");
}

static int s_botocore_waiter(struct s_ctx *cx, const struct anvil_json_member *entry) {
    struct anvil_waiter *w;
    int rc = s_push_waiter(cx->set, &w);
    if (rc != ANVIL_OK) {
        return rc;
    }
    cx->waiter = anvil_json_member_key(entry);
    cx->operation_name = anvil_sv("", 0);
    cx->acceptor = SIZE_MAX;
    const struct anvil_json *v = &entry->value;
    const struct anvil_json *operation = anvil_json_object_get_cstr(v, "operation");
    const struct anvil_json *description = anvil_json_object_get_cstr(v, "description");
    if (!anvil_json_is_string(operation) || (description && !anvil_json_is_string(description))) {
        return s_fail(cx, "a waiter needs an `operation` string (and `description`, when present, is a string)");
    }
    cx->operation_name = anvil_json_string(operation);
    uint32_t delay = 0, max_attempts = 0;
    if ((rc = s_copy_sv(cx->set, cx->waiter, &w->name)) != ANVIL_OK ||
        (rc = s_copy_sv(cx->set, anvil_json_string(description), &w->documentation)) != ANVIL_OK ||
        (rc = s_copy_sv(cx->set, cx->operation_name, &w->operation)) != ANVIL_OK ||
        (rc = s_seconds(cx, anvil_json_object_get_cstr(v, "delay"), "delay", 0, &delay)) != ANVIL_OK ||
        (rc = s_seconds(cx, anvil_json_object_get_cstr(v, "maxAttempts"), "maxAttempts", 0, &max_attempts)) !=
            ANVIL_OK) {
        return rc;
    }
    if (delay == 0 || max_attempts == 0) {
        return s_fail(cx, "`delay` and `maxAttempts` are required");
    }
    w->min_delay_s = w->max_delay_s = delay;
    w->max_attempts = max_attempts;
    rc = s_acceptors(cx, anvil_json_object_get_cstr(v, "acceptors"), s_botocore_acceptor, w);
    return rc == ANVIL_OK ? s_check(cx, w) : rc;
}

int anvil_waiter_set_from_botocore(struct anvil_allocator *allocator, const char *text, size_t len,
                                   struct anvil_waiter_set **out, struct anvil_diag *diag) {
    if (!out || (!text && len)) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_json_doc *doc = NULL;
    int rc = anvil_json_parse(allocator, text ? text : "", len, NULL, &doc, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_json *root = anvil_json_doc_root(doc);
    const struct anvil_json *version = anvil_json_object_get_cstr(root, "version");
    const struct anvil_json *waiters = anvil_json_object_get_cstr(root, "waiters");
    if (!anvil_json_is_int(version) || anvil_json_int(version) != 2 || !anvil_json_is_object(waiters)) {
        anvil_json_doc_destroy(doc);
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                              "not a waiters-2 document: expected {\"version\": 2, \"waiters\": {...}}");
    }
    struct anvil_waiter_set *set = NULL;
    rc = s_set_new(allocator, &set);
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(waiters); i++) {
        const struct anvil_json_member *entry = anvil_json_object_at(waiters, i);
        struct s_ctx cx = {set, diag, NULL, NULL, {"", 0}, {"", 0}, SIZE_MAX};
        rc = anvil_json_is_object(&entry->value)
                 ? s_botocore_waiter(&cx, entry)
                 : anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "waiter `%.*s` must be an object", (int)entry->key->len,
                                  entry->key->bytes);
    }
    anvil_json_doc_destroy(doc);
    if (!set) {
        return rc;
    }
    return s_finish(rc, set, out);
}
