/*
 * @paginated, as Smithy's PaginatedTraitValidator checks it (messages, ids
 * and severities match ../shared/testdata/smithy-errorfiles/paginated).
 *
 * Pass A checks each operation's own trait. Only when that finds nothing,
 * pass B checks the trait merged with the paginated trait of each service
 * whose closure holds the operation (the operation's values win), with the
 * prefix "When bound within the `svc` service, ", where a missing
 * inputToken or outputToken is an error.
 */

#include <stdio.h>

#include "anvil/status.h"
#include "model/validate_internal.h"

enum s_prop { S_INPUT_TOKEN, S_OUTPUT_TOKEN, S_ITEMS, S_PAGE_SIZE, S_PROPS };

static const char *const s_names[S_PROPS] = {"inputToken", "outputToken", "items", "pageSize"};

struct s_props {
    struct anvil_str_view value[S_PROPS];
    bool has[S_PROPS];
};

static void s_read(const struct anvil_json *trait, struct s_props *props, bool overwrite) {
    for (int p = 0; p < S_PROPS; p++) {
        const struct anvil_json *v = anvil_json_object_get_cstr(trait, s_names[p]);
        if (anvil_json_is_string(v) && (overwrite || !props->has[p])) {
            props->value[p] = anvil_json_string(v);
            props->has[p] = true;
        }
    }
}

/* Walks a dot path through structures; NULL when a part is missing. `*parts` counts the parts. */
static const struct anvil_member *s_resolve(const struct anvil_shape *structure, struct anvil_str_view path,
                                            size_t *parts) {
    const struct anvil_member *member = NULL;
    size_t start = 0;
    *parts = 0;
    while (start <= path.len) {
        size_t dot = anvil_sv_find_byte(path, start, '.');
        size_t end = dot == SIZE_MAX ? path.len : dot;
        struct anvil_str_view part = anvil_sv_slice(path, start, end - start);
        (*parts)++;
        if (!structure || anvil_shape_type(structure) != ANVIL_SHAPE_STRUCTURE) {
            return NULL;
        }
        member = NULL;
        for (size_t i = 0; i < anvil_shape_member_count(structure); i++) {
            const struct anvil_member *m = anvil_shape_member_at(structure, i);
            if (anvil_sv_eq(m->name, part)) {
                member = m;
                break;
            }
        }
        if (!member || dot == SIZE_MAX) {
            return member;
        }
        structure = member->target;
        start = dot + 1;
    }
    return member;
}

static bool s_type_in(enum anvil_shape_type type, enum s_prop prop) {
    switch (prop) {
    case S_INPUT_TOKEN:
    case S_OUTPUT_TOKEN:
        return type == ANVIL_SHAPE_STRING || type == ANVIL_SHAPE_ENUM || type == ANVIL_SHAPE_MAP;
    case S_PAGE_SIZE:
        return type == ANVIL_SHAPE_BYTE || type == ANVIL_SHAPE_SHORT || type == ANVIL_SHAPE_INTEGER ||
               type == ANVIL_SHAPE_INT_ENUM || type == ANVIL_SHAPE_LONG;
    case S_ITEMS:
        return type == ANVIL_SHAPE_LIST || type == ANVIL_SHAPE_SET || type == ANVIL_SHAPE_MAP;
    default:
        return false;
    }
}

static const char *const s_allowed[S_PROPS] = {
    "[`map`, `string`]",
    "[`map`, `string`]",
    "[`list`, `map`]",
    "[`byte`, `integer`, `long`, `short`]",
};

static void s_check(const struct anvil_shape *op, const struct s_props *props, const char *prefix, bool bound,
                    struct anvil_events *events) {
    struct anvil_str_view id = anvil_shape_id(op);
    for (int p = 0; p < S_PROPS; p++) {
        const char *prop = s_names[p];
        if (!props->has[p]) {
            if (bound && (p == S_INPUT_TOKEN || p == S_OUTPUT_TOKEN)) {
                anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "PaginatedTrait",
                                 "%spaginated trait `%s` is not configured", prefix, prop);
            }
            continue;
        }
        struct anvil_str_view path = props->value[p];
        bool paths_allowed = p == S_OUTPUT_TOKEN || p == S_ITEMS;
        if (!paths_allowed && anvil_sv_find_byte(path, 0, '.') != SIZE_MAX) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "PaginatedTrait",
                             "%spaginated trait `%s` does not allow path values", prefix, prop);
            continue;
        }
        size_t parts;
        const struct anvil_shape *container =
            p == S_INPUT_TOKEN || p == S_PAGE_SIZE ? anvil_operation_input(op) : anvil_operation_output(op);
        const struct anvil_member *member = s_resolve(container, path, &parts);
        if (!member) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "PaginatedTrait",
                             "%spaginated trait `%s` targets a member `%.*s` that does not exist", prefix, prop,
                             (int)path.len, path.ptr);
            continue;
        }
        int name_len = (int)member->name.len;
        const char *name = member->name.ptr;
        if (anvil_json_object_get_cstr(&member->traits, "smithy.api#required")) {
            if (p == S_INPUT_TOKEN) {
                anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "PaginatedTrait",
                                 "%spaginated trait `%s` member `%.*s` must not be required", prefix, prop, name_len,
                                 name);
            } else if (p == S_OUTPUT_TOKEN) {
                anvil__event_add(events, ANVIL_SEVERITY_DANGER, id, "PaginatedTrait",
                                 "%spaginated trait `%s` member `%.*s` should not be required", prefix, prop, name_len,
                                 name);
            } else if (p == S_PAGE_SIZE) {
                anvil__event_add(events, ANVIL_SEVERITY_WARNING, id, "PaginatedTrait.ShouldNotBeRequired.pageSize",
                                 "%spaginated trait `%s` member `%.*s` should not be required", prefix, prop, name_len,
                                 name);
            }
        }
        if (member->target) {
            enum anvil_shape_type type = anvil_shape_type(member->target);
            const char *type_name = anvil_shape_type_name(type);
            if (!s_type_in(type, (enum s_prop)p)) {
                anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "PaginatedTrait",
                                 "%spaginated trait `%s` member `%.*s` targets a %s shape, but must target one of "
                                 "the following: %s",
                                 prefix, prop, name_len, name, type_name, s_allowed[p]);
            } else if ((p == S_INPUT_TOKEN || p == S_OUTPUT_TOKEN) && type == ANVIL_SHAPE_MAP) {
                char event_id[64];
                snprintf(event_id, sizeof(event_id), "PaginatedTrait.WrongShapeType.%s", prop);
                anvil__event_add(events, ANVIL_SEVERITY_DANGER, id, event_id,
                                 "%spaginated trait `%s` member `%.*s` targets a map shape, but this is not "
                                 "recommended. One of [`string`] SHOULD be targeted.",
                                 prefix, prop, name_len, name);
            } else if (p == S_PAGE_SIZE &&
                       (type == ANVIL_SHAPE_BYTE || type == ANVIL_SHAPE_SHORT || type == ANVIL_SHAPE_LONG)) {
                anvil__event_add(events, ANVIL_SEVERITY_DANGER, id, "PaginatedTrait",
                                 "%spaginated trait `%s` member `%.*s` targets a %s shape, but this is not "
                                 "recommended. One of [`integer`] SHOULD be targeted.",
                                 prefix, prop, name_len, name, type_name);
            }
        }
        if (paths_allowed && parts > 2) {
            char event_id[64];
            snprintf(event_id, sizeof(event_id), "PaginatedTrait.DeeplyNested.%s", prop);
            anvil__event_add(events, ANVIL_SEVERITY_WARNING, id, event_id,
                             "%spaginated trait `%s` contains a path with more than two parts, which can make your "
                             "API cumbersome to use",
                             prefix, prop);
        }
    }
}

struct s_bound {
    const struct anvil_shape *service;
    const struct s_props *service_props;
    const bool *clean; /* by shape index: pass A found nothing */
    struct anvil_events *events;
};

static bool s_check_bound(const struct anvil_shape *op, void *user_data) {
    struct s_bound *b = user_data;
    const struct anvil_json *trait = anvil_shape_trait(op, "smithy.api#paginated");
    if (!trait || !b->clean[op->index]) {
        return true;
    }
    struct s_props merged = *b->service_props;
    s_read(trait, &merged, true);
    struct anvil_str_view svc = anvil_shape_id(b->service);
    char prefix[600];
    snprintf(prefix, sizeof(prefix), "When bound within the `%.*s` service, ", (int)(svc.len < 500 ? svc.len : 500),
             svc.ptr);
    s_check(op, &merged, prefix, true, b->events);
    return true;
}

void anvil__validate_paginated(const struct anvil_model *model, struct anvil_events *events) {
    bool *clean = anvil_mem_calloc(events->allocator, model->count + 1, sizeof(bool));
    if (!clean) {
        events->error = ANVIL_ENOMEM;
        return;
    }
    for (size_t i = 0; i < model->count; i++) {
        const struct anvil_shape *op = &model->shapes[i];
        const struct anvil_json *trait = anvil_shape_trait(op, "smithy.api#paginated");
        if (op->type != ANVIL_SHAPE_OPERATION || !trait) {
            continue;
        }
        struct s_props own = {0};
        s_read(trait, &own, true);
        size_t before = events->count;
        s_check(op, &own, "", false, events);
        clean[i] = events->count == before;
    }
    for (size_t i = 0; i < model->count && !events->error; i++) {
        const struct anvil_shape *svc = &model->shapes[i];
        if (svc->type != ANVIL_SHAPE_SERVICE) {
            continue;
        }
        struct s_props service_props = {0};
        s_read(anvil_shape_trait(svc, "smithy.api#paginated"), &service_props, true);
        struct s_bound b = {svc, &service_props, clean, events};
        if (anvil_service_operations(model, svc, s_check_bound, &b, NULL) == ANVIL_ENOMEM) {
            events->error = ANVIL_ENOMEM;
        }
    }
    anvil_mem_release(events->allocator, clean);
}
