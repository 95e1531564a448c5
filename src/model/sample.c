/*
 * Sample values generated from shapes, exactly as Smithy's waiter validator
 * builds the data its JMESPath linter runs on (ModelRuntimeTypeGenerator):
 * every member of structures and unions; lists of two copies and maps of two
 * entries (keys: the key's sample plus 0, 1), both bounded by @length;
 * strings of "a" as long as @length allows (2 by default; enums too);
 * numbers 8 within @range; "blob" for blobs; true for booleans; 0 for
 * timestamps. Documents, recursive members (a member already on the path)
 * and unresolved targets are "any" (the linter's ANVIL__LINT_ANY marker).
 */

#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "jmespath/jmespath_internal.h"
#include "model/validate_internal.h"

#define S_MAX_DEPTH 64

struct s_sampler {
    struct anvil_json_builder *builder;
    /* Members on the path from the root: a member seen again is recursion. */
    const struct anvil_member *path[S_MAX_DEPTH];
    size_t depth;
};

static void s_any(struct s_sampler *s) {
    anvil_json_builder_string(s->builder, ANVIL__LINT_ANY, sizeof ANVIL__LINT_ANY - 1);
}

/* Smithy's computeLength: 2, raised to @length min and lowered to its max. */
static size_t s_length(const struct anvil_shape *shape) {
    double n = 2;
    const struct anvil_json *length = anvil_shape_trait(shape, "smithy.api#length");
    const struct anvil_json *min = anvil_json_object_get_cstr(length, "min");
    const struct anvil_json *max = anvil_json_object_get_cstr(length, "max");
    if (anvil_json_is_number(min) && anvil_json_double(min) > n) {
        n = anvil_json_double(min);
    }
    if (anvil_json_is_number(max) && anvil_json_double(max) < n) {
        n = anvil_json_double(max);
    }
    /* A sample, not data: keep it small whatever @length asks for. */
    return n < 0 ? 0 : n > 64 ? 64 : (size_t)n;
}

/* Smithy's computeRange: 8 within @range. */
static double s_range(const struct anvil_shape *shape) {
    double n = 8;
    const struct anvil_json *range = anvil_shape_trait(shape, "smithy.api#range");
    const struct anvil_json *min = anvil_json_object_get_cstr(range, "min");
    const struct anvil_json *max = anvil_json_object_get_cstr(range, "max");
    if (anvil_json_is_number(min) && anvil_json_double(min) > n) {
        n = anvil_json_double(min);
    }
    if (anvil_json_is_number(max) && anvil_json_double(max) < n) {
        n = anvil_json_double(max);
    }
    return n;
}

static void s_shape(struct s_sampler *s, const struct anvil_shape *shape);

static void s_member(struct s_sampler *s, const struct anvil_member *m) {
    bool seen = s->depth == S_MAX_DEPTH || !m || !m->target;
    for (size_t i = 0; i < s->depth && !seen; i++) {
        seen = s->path[i] == m;
    }
    if (seen) {
        s_any(s);
        return;
    }
    s->path[s->depth++] = m;
    s_shape(s, m->target);
    s->depth--;
}

static void s_string_of_a(struct s_sampler *s, size_t n) {
    char text[64];
    memset(text, 'a', sizeof text);
    anvil_json_builder_string(s->builder, text, n < sizeof text ? n : sizeof text);
}

static void s_shape(struct s_sampler *s, const struct anvil_shape *shape) {
    struct anvil_json_builder *b = s->builder;
    switch (anvil_shape_type(shape)) {
    case ANVIL_SHAPE_STRUCTURE:
    case ANVIL_SHAPE_UNION:
        anvil_json_builder_begin_object(b);
        for (size_t i = 0; i < anvil_shape_member_count(shape); i++) {
            const struct anvil_member *m = anvil_shape_member_at(shape, i);
            anvil_json_builder_key(b, m->name.ptr, m->name.len);
            s_member(s, m);
        }
        anvil_json_builder_end_object(b);
        break;
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET: {
        size_t n = s_length(shape);
        anvil_json_builder_begin_array(b);
        for (size_t i = 0; i < n && anvil_shape_member_count(shape) > 0; i++) {
            s_member(s, anvil_shape_member_at(shape, 0));
        }
        anvil_json_builder_end_array(b);
        break;
    }
    case ANVIL_SHAPE_MAP: {
        /* Keys are the key's sample string (as long as its @length allows) plus 0, 1, ... */
        const struct anvil_member *key = anvil_shape_member_at(shape, 0);
        size_t key_len = key && key->target ? s_length(key->target) : 2;
        size_t n = anvil_shape_member_count(shape) > 1 ? s_length(shape) : 0;
        anvil_json_builder_begin_object(b);
        for (size_t i = 0; i < n; i++) {
            char text[96];
            size_t len = 0;
            for (; len < key_len && len < 64; len++) {
                text[len] = 'a';
            }
            len += (size_t)snprintf(text + len, sizeof text - len, "%zu", i);
            anvil_json_builder_key(b, text, len);
            s_member(s, anvil_shape_member_at(shape, 1));
        }
        anvil_json_builder_end_object(b);
        break;
    }
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_ENUM:
        s_string_of_a(s, s_length(shape));
        break;
    case ANVIL_SHAPE_BLOB:
        anvil_json_builder_string(b, "blob", 4);
        break;
    case ANVIL_SHAPE_BOOLEAN:
        anvil_json_builder_bool(b, true);
        break;
    case ANVIL_SHAPE_TIMESTAMP:
        anvil_json_builder_int(b, 0);
        break;
    case ANVIL_SHAPE_DOCUMENT:
    case ANVIL_SHAPE_SERVICE:
    case ANVIL_SHAPE_RESOURCE:
    case ANVIL_SHAPE_OPERATION:
        s_any(s);
        break;
    default: /* numbers and intEnum */
        anvil_json_builder_double(b, s_range(shape));
        break;
    }
}

int anvil__model_sample(struct anvil_arena *arena, struct anvil_allocator *scratch, const struct anvil_shape *input,
                        const struct anvil_shape *output, bool input_output, struct anvil_json *out) {
    struct s_sampler s = {NULL, {0}, 0};
    int rc = anvil_json_builder_new(scratch, arena, &s.builder);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (input_output) {
        anvil_json_builder_begin_object(s.builder);
        anvil_json_builder_key(s.builder, "input", 5);
        input ? s_shape(&s, input) : s_any(&s);
        anvil_json_builder_key(s.builder, "output", 6);
        output ? s_shape(&s, output) : s_any(&s);
        anvil_json_builder_end_object(s.builder);
    } else if (output) {
        s_shape(&s, output);
    } else {
        s_any(&s);
    }
    rc = anvil_json_builder_finish(s.builder, out);
    anvil_json_builder_destroy(s.builder);
    return rc;
}
