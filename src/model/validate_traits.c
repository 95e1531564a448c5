/*
 * @requestCompression (Smithy's RequestCompressionTraitValidator) and
 * @idempotencyToken placement (its trait selector, and
 * IdempotencyTokenIgnoredValidator): same ids, severities and messages.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "model/validate_internal.h"

static void s_request_compression(const struct anvil_shape *op, struct anvil_events *events) {
    const struct anvil_json *trait = anvil_shape_trait(op, "smithy.api#requestCompression");
    if (!trait) {
        return;
    }
    struct anvil_str_view id = anvil_shape_id(op);
    const struct anvil_shape *input = anvil_operation_input(op);
    if (!input || anvil_sv_eq_cstr(anvil_shape_id(input), "smithy.api#Unit")) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "RequestCompressionTrait",
                         "The `requestCompression` trait can only be applied to operations which have an input shape "
                         "defined");
    } else {
        for (size_t i = 0; i < anvil_shape_member_count(input); i++) {
            const struct anvil_member *m = anvil_shape_member_at(input, i);
            if (m->target && anvil_shape_trait(m->target, "smithy.api#streaming") &&
                anvil_shape_trait(m->target, "smithy.api#requiresLength")) {
                struct anvil_str_view in = anvil_shape_id(input), target = anvil_shape_id(m->target);
                anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "RequestCompressionTrait",
                                 "The `requestCompression` trait can only be applied to operations which do not have "
                                 "input members that target shapes with both the `streaming` and `requiresLength` "
                                 "traits applied, but found member `%.*s$%.*s` targeting `%.*s`",
                                 (int)in.len, in.ptr, (int)m->name.len, m->name.ptr, (int)target.len, target.ptr);
            }
        }
    }
    const struct anvil_json *encodings = anvil_json_object_get_cstr(trait, "encodings");
    if (anvil_json_len(encodings) == 0) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "RequestCompressionTrait",
                         "There must be at least one compression algorithm in `encodings` for the "
                         "`requestCompression` trait applied to `%.*s`",
                         (int)id.len, id.ptr);
        return;
    }
    struct anvil_buf invalid;
    anvil_buf_init(&invalid, events->allocator, 0);
    size_t count = 0;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(encodings) && rc == ANVIL_OK; i++) {
        struct anvil_str_view e = anvil_json_string(anvil_json_array_at(encodings, i));
        /* The one supported algorithm, compared ignoring case. */
        if (!anvil_sv_eq_ascii_nocase(e, ANVIL_SV("gzip"))) {
            rc = anvil_buf_appendf(&invalid, "%s`%.*s`", count++ ? ", " : "", (int)e.len, e.ptr);
        }
    }
    if (rc != ANVIL_OK) {
        events->error = ANVIL_ENOMEM;
    } else if (count) {
        anvil__event_add(events, ANVIL_SEVERITY_ERROR, id, "RequestCompressionTrait",
                         "Invalid compression algorithm%s found in `requestCompression` trait applied to `%.*s`: %s",
                         count == 1 ? "" : "s", (int)id.len, id.ptr, invalid.data);
    }
    anvil_buf_clean_up(&invalid);
}

struct s_ids {
    char **items;
    size_t count, cap;
};

static int s_add_id(struct anvil_allocator *allocator, struct s_ids *ids, const struct anvil_shape *shape,
                    const struct anvil_member *member) {
    struct anvil_buf id;
    anvil_buf_init(&id, allocator, 0);
    int rc = anvil__member_id(&id, shape, member ? member->name : anvil_sv("", 0));
    if (rc == ANVIL_OK) {
        rc = anvil__mem_grow(allocator, (void **)&ids->items, &ids->cap, sizeof(char *), ids->count + 1);
    }
    if (rc == ANVIL_OK) {
        char *text = anvil_buf_steal(&id, NULL);
        rc = text ? ANVIL_OK : ANVIL_ENOMEM;
        if (text) {
            ids->items[ids->count++] = text;
        }
    }
    anvil_buf_clean_up(&id);
    return rc;
}

static int s_by_text(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The contexts other than an operation's input in which `structure` is
 * used, as Smithy lists them (kinds in its order, ids sorted):
 * "output: [...], error: [...], member target: [...]".
 */
static int s_ignored_contexts(const struct anvil_model *model, const struct anvil_shape *structure,
                              struct anvil_allocator *allocator, struct anvil_buf *out) {
    static const char *const kinds[] = {"output", "error", "member target"};
    struct s_ids ids[3] = {{0}};
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_model_shape_count(model) && rc == ANVIL_OK; i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_OPERATION && anvil_operation_output(s) == structure) {
            rc = s_add_id(allocator, &ids[0], s, NULL);
        }
        for (size_t e = 0; e < anvil_shape_error_count(s) && rc == ANVIL_OK; e++) {
            if (anvil_shape_error_at(s, e) == structure) {
                rc = s_add_id(allocator, &ids[1], s, NULL);
            }
        }
        for (size_t m = 0; m < anvil_shape_member_count(s) && rc == ANVIL_OK; m++) {
            const struct anvil_member *member = anvil_shape_member_at(s, m);
            if (member->target == structure) {
                rc = s_add_id(allocator, &ids[2], s, member);
            }
        }
    }
    for (int k = 0; k < 3; k++) {
        if (rc == ANVIL_OK && ids[k].count) {
            qsort(ids[k].items, ids[k].count, sizeof(char *), s_by_text);
            rc = anvil_buf_appendf(out, "%s%s: [", out->len ? ", " : "", kinds[k]);
            for (size_t i = 0; i < ids[k].count && rc == ANVIL_OK; i++) {
                rc = anvil_buf_appendf(out, "%s%s", i ? ", " : "", ids[k].items[i]);
            }
            if (rc == ANVIL_OK) {
                rc = anvil_buf_append_byte(out, ']');
            }
        }
        for (size_t i = 0; i < ids[k].count; i++) {
            anvil_mem_release(allocator, ids[k].items[i]);
        }
        anvil_mem_release(allocator, ids[k].items);
    }
    return rc;
}

static void s_idempotency_tokens(const struct anvil_model *model, const struct anvil_shape *s,
                                 struct anvil_events *events) {
    for (size_t i = 0; i < anvil_shape_member_count(s); i++) {
        const struct anvil_member *m = anvil_shape_member_at(s, i);
        if (!anvil_json_object_get_cstr(&m->traits, "smithy.api#idempotencyToken")) {
            continue;
        }
        struct anvil_buf member_id;
        anvil_buf_init(&member_id, events->allocator, 0);
        if (anvil__member_id(&member_id, s, m->name) != ANVIL_OK) {
            events->error = ANVIL_ENOMEM;
            anvil_buf_clean_up(&member_id);
            return;
        }
        bool string_target = m->target && (anvil_shape_type(m->target) == ANVIL_SHAPE_STRING ||
                                           anvil_shape_type(m->target) == ANVIL_SHAPE_ENUM);
        if (anvil_shape_type(s) != ANVIL_SHAPE_STRUCTURE || (m->target && !string_target)) {
            anvil__event_add(events, ANVIL_SEVERITY_ERROR, anvil_buf_view(&member_id), "TraitTarget",
                             "Trait `idempotencyToken` cannot be applied to `%s`. This trait may only be applied to "
                             "shapes that match the following selector: structure > :test(member > string)",
                             member_id.data);
        } else if (!anvil_shape_trait(s, "smithy.api#mixin")) {
            struct anvil_buf contexts;
            anvil_buf_init(&contexts, events->allocator, 0);
            if (s_ignored_contexts(model, s, events->allocator, &contexts) != ANVIL_OK) {
                events->error = ANVIL_ENOMEM;
            } else if (contexts.len) {
                anvil__event_add(events, ANVIL_SEVERITY_WARNING, anvil_buf_view(&member_id), "IdempotencyTokenIgnored",
                                 "The `idempotencyToken` trait only has an effect when applied to a top-level "
                                 "operation input member, but it was applied and ignored in the following contexts: "
                                 "{%s}",
                                 contexts.data);
            }
            anvil_buf_clean_up(&contexts);
        }
        anvil_buf_clean_up(&member_id);
    }
}

void anvil__validate_traits(const struct anvil_model *model, struct anvil_events *events) {
    for (size_t i = 0; i < model->count && !events->error; i++) {
        const struct anvil_shape *s = &model->shapes[i];
        if (s->type == ANVIL_SHAPE_OPERATION) {
            s_request_compression(s, events);
        } else {
            s_idempotency_tokens(model, s, events);
        }
    }
}
