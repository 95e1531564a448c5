/*
 * Paginator sets: `smithy.api#paginated` merged with the service's
 * defaults, or botocore's paginators-1.json, as struct anvil_paginator.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "anvil/paginator.h"
#include "behavior/behavior_internal.h"
#include "core/core_internal.h"

struct anvil_paginator_set {
    struct anvil__desc_store store;
    struct anvil_paginator *items;
    size_t count, cap;
};

struct s_ctx {
    struct anvil_paginator_set *set;
    struct anvil_diag *diag;
    struct anvil_str_view operation;
};

ANVIL_PRINTF(2, 3)
static int s_fail(struct s_ctx *cx, const char *fmt, ...) {
    char what[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    return anvil_diag_set(cx->diag, ANVIL_EMODEL, 0, 0, 0, "paginator of `%.*s`: %s", (int)cx->operation.len,
                          cx->operation.ptr, what);
}

static int s_set_new(struct anvil_allocator *allocator, struct anvil_paginator_set **out) {
    *out = NULL;
    struct anvil_paginator_set *set = anvil_mem_acquire(allocator, sizeof *set);
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

void anvil_paginator_set_destroy(struct anvil_paginator_set *set) {
    if (!set) {
        return;
    }
    struct anvil_allocator *allocator = set->store.allocator;
    anvil_mem_release(allocator, set->items);
    anvil__desc_store_clean_up(&set->store);
    anvil_mem_release(allocator, set);
}

size_t anvil_paginator_set_count(const struct anvil_paginator_set *set) {
    return set ? set->count : 0;
}

const struct anvil_paginator *anvil_paginator_set_at(const struct anvil_paginator_set *set, size_t index) {
    return set && index < set->count ? &set->items[index] : NULL;
}

const struct anvil_paginator *anvil_paginator_set_find(const struct anvil_paginator_set *set, const char *operation,
                                                       size_t len) {
    if (!set || !operation) {
        return NULL;
    }
    struct anvil_str_view want = anvil_sv(operation, len);
    for (size_t i = 0; i < set->count; i++) {
        struct anvil_str_view op = set->items[i].operation;
        size_t hash = anvil_sv_find_byte(op, 0, '#');
        struct anvil_str_view name = hash == SIZE_MAX ? op : anvil_sv_slice(op, hash + 1, op.len - hash - 1);
        if (anvil_sv_eq(op, want) || anvil_sv_eq(name, want)) {
            return &set->items[i];
        }
    }
    return NULL;
}

static int s_push(struct anvil_paginator_set *set, struct anvil_paginator **out) {
    if (set->count == set->cap) {
        int rc =
            anvil__mem_grow(set->store.allocator, (void **)&set->items, &set->cap, sizeof *set->items, set->count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    *out = &set->items[set->count];
    memset(*out, 0, sizeof **out);
    return ANVIL_OK;
}

/* Compiles each string of `values` (a string or a list of strings) into an array in the arena. */
static int s_expressions(struct s_ctx *cx, const struct anvil_json *values, const char *what,
                         const struct anvil_jmespath *const **out, size_t *count) {
    *out = NULL;
    *count = 0;
    if (!values) {
        return ANVIL_OK;
    }
    bool list = anvil_json_is_array(values);
    size_t n = list ? anvil_json_len(values) : 1;
    if ((!list && !anvil_json_is_string(values)) || n == 0) {
        return s_fail(cx, "`%s` must be a string or a non-empty list of strings", what);
    }
    const struct anvil_jmespath **exprs = anvil_arena_alloc(cx->set->store.arena, n * sizeof *exprs, 0);
    if (!exprs) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json *v = list ? anvil_json_array_at(values, i) : values;
        if (!anvil_json_is_string(v)) {
            return s_fail(cx, "`%s` must be a string or a non-empty list of strings", what);
        }
        struct anvil_str_view src = anvil_json_string(v);
        struct anvil_diag d;
        anvil_diag_clear(&d);
        int rc = anvil__desc_store_compile(&cx->set->store, src, &exprs[i], &d);
        if (rc == ANVIL_ENOMEM) {
            return rc;
        }
        if (rc != ANVIL_OK) {
            return s_fail(cx, "invalid JMESPath expression in `%s` (%.*s): %s", what, (int)src.len, src.ptr, d.message);
        }
    }
    *out = exprs;
    *count = n;
    return ANVIL_OK;
}

/* Copies each string of `values` (a string or a list of strings) into the arena. */
static int s_names(struct s_ctx *cx, const struct anvil_json *values, const char *what,
                   const struct anvil_str_view **out, size_t *count) {
    bool list = anvil_json_is_array(values);
    size_t n = list ? anvil_json_len(values) : 1;
    if ((!list && !anvil_json_is_string(values)) || n == 0) {
        return s_fail(cx, "`%s` must be a string or a non-empty list of strings", what);
    }
    struct anvil_str_view *names = anvil_arena_alloc(cx->set->store.arena, n * sizeof *names, 0);
    if (!names) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json *v = list ? anvil_json_array_at(values, i) : values;
        if (!anvil_json_is_string(v) || anvil_json_len(v) == 0) {
            return s_fail(cx, "`%s` must be a string or a non-empty list of strings", what);
        }
        int rc = anvil__desc_store_copy(&cx->set->store, anvil_json_string(v), &names[i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    *out = names;
    *count = n;
    return ANVIL_OK;
}

static int s_page_size(struct s_ctx *cx, const struct anvil_json *v, const char *what, struct anvil_paginator *p) {
    if (!v) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_string(v) || anvil_json_len(v) == 0) {
        return s_fail(cx, "`%s` must be a member name", what);
    }
    return anvil__desc_store_copy(&cx->set->store, anvil_json_string(v), &p->page_size);
}

/* Input and output tokens: equally many, each output token a compilable path. */
static int s_tokens(struct s_ctx *cx, const struct anvil_json *input, const struct anvil_json *output,
                    const char *input_name, const char *output_name, struct anvil_paginator *p) {
    if (!input || !output) {
        return s_fail(cx, "`%s` and `%s` are required", input_name, output_name);
    }
    size_t inputs = 0, outputs = 0;
    int rc = s_names(cx, input, input_name, &p->input_tokens, &inputs);
    if (rc == ANVIL_OK) {
        rc = s_expressions(cx, output, output_name, &p->output_tokens, &outputs);
    }
    if (rc == ANVIL_OK && inputs != outputs) {
        return s_fail(cx, "%zu input tokens but %zu output tokens", inputs, outputs);
    }
    p->token_count = inputs;
    return rc;
}

/* ---- Smithy ---- */

/* The first service whose closure holds `operation`, or NULL. */
struct s_find {
    const struct anvil_shape *operation;
    bool found;
};

static bool s_visit(const struct anvil_shape *op, void *user_data) {
    struct s_find *f = user_data;
    f->found = op == f->operation;
    return !f->found;
}

static int s_binding_service(const struct anvil_model *model, const struct anvil_shape *operation,
                             const struct anvil_shape **service) {
    *service = NULL;
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) != ANVIL_SHAPE_SERVICE) {
            continue;
        }
        struct s_find f = {operation, false};
        int rc = anvil_service_operations(model, s, s_visit, &f, NULL);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (f.found) {
            *service = s;
            return ANVIL_OK;
        }
    }
    return ANVIL_OK;
}

/* The operation's value of `key`, else the service's (items never comes from the service). */
static const struct anvil_json *s_merged(const struct anvil_json *own, const struct anvil_json *defaults,
                                         const char *key) {
    const struct anvil_json *v = anvil_json_object_get_cstr(own, key);
    return v ? v : anvil_json_object_get_cstr(defaults, key);
}

/*
 * A top-level boolean `IsTruncated` in the output overrides the tokens, as
 * botocore's `more_results` does: S3 ListParts' last token is "0" (the SDKs
 * add this by hand: Go's moreResults, Rust's IsTruncatedPaginatorTrait).
 */
static int s_truncation(struct s_ctx *cx, const struct anvil_shape *operation, struct anvil_paginator *p) {
    const struct anvil_member *m = anvil_shape_member(anvil_operation_output(operation), "IsTruncated");
    if (!m || !m->target || anvil_shape_type(m->target) != ANVIL_SHAPE_BOOLEAN) {
        return ANVIL_OK;
    }
    struct anvil_diag d;
    return anvil__desc_store_compile(&cx->set->store, anvil_sv("IsTruncated", 11), &p->more_results, &d);
}

static int s_smithy(struct s_ctx *cx, const struct anvil_model *model, const struct anvil_shape *operation,
                    const struct anvil_json *trait) {
    const struct anvil_shape *service = NULL;
    int rc = s_binding_service(model, operation, &service);
    struct anvil_paginator *p = NULL;
    if (rc == ANVIL_OK) {
        rc = s_push(cx->set, &p);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (!anvil_json_is_object(trait)) {
        return s_fail(cx, "`smithy.api#paginated` must be an object");
    }
    const struct anvil_json *defaults = service ? anvil_shape_trait(service, "smithy.api#paginated") : NULL;
    const struct anvil_json *items = anvil_json_object_get_cstr(trait, "items");
    if ((rc = anvil__desc_store_copy(&cx->set->store, cx->operation, &p->operation)) != ANVIL_OK ||
        (rc = anvil__desc_store_copy(&cx->set->store, service ? anvil_shape_id(service) : anvil_sv("", 0),
                                     &p->service)) != ANVIL_OK ||
        (rc = s_tokens(cx, s_merged(trait, defaults, "inputToken"), s_merged(trait, defaults, "outputToken"),
                       "inputToken", "outputToken", p)) != ANVIL_OK ||
        (rc = s_page_size(cx, s_merged(trait, defaults, "pageSize"), "pageSize", p)) != ANVIL_OK) {
        return rc;
    }
    if (items && !anvil_json_is_string(items)) {
        return s_fail(cx, "`items` must be a string");
    }
    rc = s_expressions(cx, items, "items", &p->items, &p->item_count);
    if (rc == ANVIL_OK) {
        rc = s_truncation(cx, operation, p);
    }
    if (rc == ANVIL_OK) {
        cx->set->count++;
    }
    return rc;
}

static int s_finish(int rc, struct anvil_paginator_set *set, struct anvil_paginator_set **out) {
    if (rc != ANVIL_OK) {
        anvil_paginator_set_destroy(set);
        return rc;
    }
    *out = set;
    return ANVIL_OK;
}

int anvil_paginator_set_from_model(struct anvil_allocator *allocator, const struct anvil_model *model,
                                   struct anvil_paginator_set **out, struct anvil_diag *diag) {
    if (!out || !model) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_paginator_set *set = NULL;
    int rc = s_set_new(allocator, &set);
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *shape = anvil_model_shape_at(model, i);
        const struct anvil_json *trait = anvil_shape_trait(shape, "smithy.api#paginated");
        if (!trait || anvil_shape_type(shape) != ANVIL_SHAPE_OPERATION) {
            continue;
        }
        struct s_ctx cx = {set, diag, anvil_shape_id(shape)};
        rc = s_smithy(&cx, model, shape, trait);
    }
    return set ? s_finish(rc, set, out) : rc;
}

/* ---- botocore ---- */

static int s_botocore(struct s_ctx *cx, const struct anvil_json *v) {
    struct anvil_paginator *p = NULL;
    int rc = s_push(cx->set, &p);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (!anvil_json_is_object(v)) {
        return s_fail(cx, "a paginator must be an object");
    }
    const struct anvil_json *more = anvil_json_object_get_cstr(v, "more_results");
    size_t more_count = 0;
    const struct anvil_jmespath *const *more_expr = NULL;
    if ((rc = anvil__desc_store_copy(&cx->set->store, cx->operation, &p->operation)) != ANVIL_OK ||
        (rc = s_tokens(cx, anvil_json_object_get_cstr(v, "input_token"), anvil_json_object_get_cstr(v, "output_token"),
                       "input_token", "output_token", p)) != ANVIL_OK ||
        (rc = s_page_size(cx, anvil_json_object_get_cstr(v, "limit_key"), "limit_key", p)) != ANVIL_OK ||
        (rc = s_expressions(cx, anvil_json_object_get_cstr(v, "result_key"), "result_key", &p->items,
                            &p->item_count)) != ANVIL_OK ||
        (rc = s_expressions(cx, anvil_json_object_get_cstr(v, "non_aggregate_keys"), "non_aggregate_keys",
                            &p->non_aggregate, &p->non_aggregate_count)) != ANVIL_OK) {
        return rc;
    }
    if (more && !anvil_json_is_string(more)) {
        return s_fail(cx, "`more_results` must be a string");
    }
    rc = s_expressions(cx, more, "more_results", &more_expr, &more_count);
    if (rc != ANVIL_OK) {
        return rc;
    }
    p->more_results = more_count ? more_expr[0] : NULL;
    cx->set->count++;
    return ANVIL_OK;
}

int anvil_paginator_set_from_botocore(struct anvil_allocator *allocator, const char *text, size_t len,
                                      struct anvil_paginator_set **out, struct anvil_diag *diag) {
    if (!out || (!text && len)) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_json_doc *doc = NULL;
    int rc = anvil_json_parse(allocator, text ? text : "", len, NULL, &doc, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_json *pagination = anvil_json_object_get_cstr(anvil_json_doc_root(doc), "pagination");
    if (!anvil_json_is_object(pagination)) {
        anvil_json_doc_destroy(doc);
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                              "not a paginators-1 document: expected {\"pagination\": {...}}");
    }
    struct anvil_paginator_set *set = NULL;
    rc = s_set_new(allocator, &set);
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(pagination); i++) {
        const struct anvil_json_member *entry = anvil_json_object_at(pagination, i);
        struct s_ctx cx = {set, diag, anvil_json_member_key(entry)};
        rc = s_botocore(&cx, &entry->value);
    }
    anvil_json_doc_destroy(doc);
    return set ? s_finish(rc, set, out) : rc;
}
