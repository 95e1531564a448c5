/* The storage waiter and paginator sets share: an arena and the compiled expressions. */

#include <string.h>

#include "behavior/behavior_internal.h"
#include "core/core_internal.h"

int anvil__desc_store_init(struct anvil__desc_store *store, struct anvil_allocator *allocator) {
    memset(store, 0, sizeof *store);
    store->allocator = allocator;
    return anvil_arena_new(allocator, NULL, &store->arena);
}

void anvil__desc_store_clean_up(struct anvil__desc_store *store) {
    for (size_t i = 0; i < store->expr_count; i++) {
        anvil_jmespath_destroy(store->exprs[i]);
    }
    anvil_mem_release(store->allocator, store->exprs);
    anvil_arena_destroy(store->arena);
    memset(store, 0, sizeof *store);
}

int anvil__desc_store_copy(struct anvil__desc_store *store, struct anvil_str_view in, struct anvil_str_view *out) {
    char *copy = anvil_arena_strndup(store->arena, in.ptr ? in.ptr : "", in.len);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    *out = anvil_sv(copy, in.len);
    return ANVIL_OK;
}

int anvil__desc_store_compile(struct anvil__desc_store *store, struct anvil_str_view src,
                              const struct anvil_jmespath **out, struct anvil_diag *diag) {
    if (store->expr_count == store->expr_cap) {
        int rc = anvil__mem_grow(store->allocator, (void **)&store->exprs, &store->expr_cap, sizeof *store->exprs,
                                 store->expr_count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    struct anvil_jmespath *expr = NULL;
    int rc = anvil_jmespath_compile(store->allocator, src.ptr ? src.ptr : "", src.len, NULL, &expr, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    store->exprs[store->expr_count++] = expr;
    *out = expr;
    return ANVIL_OK;
}
