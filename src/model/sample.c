/*
 * Sample values generated from shapes, as Smithy's waiter linter builds its
 * input: structures with every member, one-item lists and maps, "a" for
 * strings, the first value for enums, 0 for numbers (timestamps are epoch
 * seconds, so numbers too), true for booleans. Documents have no sample:
 * generation reports that the result would be of any type. Recursion stops
 * with null at a shape already being generated.
 */

#include "anvil/status.h"
#include "model/validate_internal.h"

#define S_MAX_DEPTH 64

struct s_sampler {
    struct anvil_json_builder *builder;
    const struct anvil_shape *stack[S_MAX_DEPTH];
    size_t depth;
    bool any; /* a document was reached */
};

static void s_value(struct s_sampler *s, const struct anvil_shape *shape);

static void s_members(struct s_sampler *s, const struct anvil_shape *shape) {
    anvil_json_builder_begin_object(s->builder);
    for (size_t i = 0; i < anvil_shape_member_count(shape); i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        anvil_json_builder_key(s->builder, m->name.ptr, m->name.len);
        s_value(s, m->target);
    }
    anvil_json_builder_end_object(s->builder);
}

static void s_value(struct s_sampler *s, const struct anvil_shape *shape) {
    struct anvil_json_builder *b = s->builder;
    bool seen = !shape;
    for (size_t i = 0; i < s->depth && !seen; i++) {
        seen = s->stack[i] == shape;
    }
    if (seen || s->depth == S_MAX_DEPTH) {
        anvil_json_builder_null(b);
        return;
    }
    s->stack[s->depth++] = shape;
    switch (anvil_shape_type(shape)) {
    case ANVIL_SHAPE_STRUCTURE:
        s_members(s, shape);
        break;
    case ANVIL_SHAPE_UNION:
        /* One member set, as a union value has. */
        anvil_json_builder_begin_object(b);
        if (anvil_shape_member_count(shape) > 0) {
            const struct anvil_member *m = anvil_shape_member_at(shape, 0);
            anvil_json_builder_key(b, m->name.ptr, m->name.len);
            s_value(s, m->target);
        }
        anvil_json_builder_end_object(b);
        break;
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
        anvil_json_builder_begin_array(b);
        if (anvil_shape_member_count(shape) > 0) {
            s_value(s, anvil_shape_member_at(shape, 0)->target);
        }
        anvil_json_builder_end_array(b);
        break;
    case ANVIL_SHAPE_MAP:
        anvil_json_builder_begin_object(b);
        if (anvil_shape_member_count(shape) > 1) {
            anvil_json_builder_key(b, "a", 1);
            s_value(s, anvil_shape_member_at(shape, 1)->target);
        }
        anvil_json_builder_end_object(b);
        break;
    case ANVIL_SHAPE_ENUM: {
        const struct anvil_member *first = anvil_shape_member_at(shape, 0);
        const struct anvil_json *value =
            first ? anvil_json_object_get_cstr(&first->traits, "smithy.api#enumValue") : NULL;
        if (anvil_json_is_string(value)) {
            anvil_json_builder_value(b, value);
        } else if (first) {
            anvil_json_builder_string(b, first->name.ptr, first->name.len);
        } else {
            anvil_json_builder_string(b, "a", 1);
        }
        break;
    }
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_BLOB:
        anvil_json_builder_string(b, "a", 1);
        break;
    case ANVIL_SHAPE_BOOLEAN:
        anvil_json_builder_bool(b, true);
        break;
    case ANVIL_SHAPE_DOCUMENT:
        s->any = true;
        anvil_json_builder_null(b);
        break;
    case ANVIL_SHAPE_SERVICE:
    case ANVIL_SHAPE_RESOURCE:
    case ANVIL_SHAPE_OPERATION:
        anvil_json_builder_null(b);
        break;
    default: /* numbers, intEnum, timestamps */
        anvil_json_builder_int(b, 0);
        break;
    }
    s->depth--;
}

int anvil__model_sample(struct anvil_arena *arena, struct anvil_allocator *scratch, const struct anvil_shape *input,
                        const struct anvil_shape *output, bool input_output, struct anvil_json *out, bool *any) {
    struct s_sampler s = {NULL, {0}, 0, false};
    int rc = anvil_json_builder_new(scratch, arena, &s.builder);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (input_output) {
        anvil_json_builder_begin_object(s.builder);
        anvil_json_builder_key(s.builder, "input", 5);
        s_value(&s, input);
        anvil_json_builder_key(s.builder, "output", 6);
        s_value(&s, output);
        anvil_json_builder_end_object(s.builder);
    } else {
        s_value(&s, output);
    }
    rc = anvil_json_builder_finish(s.builder, out);
    anvil_json_builder_destroy(s.builder);
    *any = s.any;
    return rc;
}
