#include "model_same.h"

#include <stdio.h>
#include <string.h>

static bool s_ids_eq(const struct anvil_shape *x, const struct anvil_shape *y) {
    if (!x || !y) {
        return x == y;
    }
    return anvil_sv_eq(anvil_shape_id(x), anvil_shape_id(y));
}

struct s_visits {
    const struct anvil_shape *ops[4096];
    size_t count;
};

static bool s_visit(const struct anvil_shape *op, void *user) {
    struct s_visits *v = user;
    if (v->count < sizeof(v->ops) / sizeof(v->ops[0])) {
        v->ops[v->count] = op;
    }
    v->count++;
    return true;
}

#define S_DIFF(...)                                                                                                    \
    do {                                                                                                               \
        snprintf(why, cap, __VA_ARGS__);                                                                               \
        return false;                                                                                                  \
    } while (0)

static bool s_shape_same(const struct anvil_model *mx, const struct anvil_shape *x, const struct anvil_model *my,
                         const struct anvil_shape *y, char *why, size_t cap) {
    struct anvil_str_view id = anvil_shape_id(x);
    int n = (int)id.len;
    if (!anvil_sv_eq(id, anvil_shape_id(y)) || anvil_shape_type(x) != anvil_shape_type(y)) {
        S_DIFF("shape %.*s: id or type differs", n, id.ptr);
    }
    if (!anvil_json_equal(anvil_shape_traits(x), anvil_shape_traits(y))) {
        S_DIFF("shape %.*s: traits differ", n, id.ptr);
    }
    if (anvil_shape_member_count(x) != anvil_shape_member_count(y)) {
        S_DIFF("shape %.*s: %zu members, from the AST %zu", n, id.ptr, anvil_shape_member_count(x),
               anvil_shape_member_count(y));
    }
    for (size_t i = 0; i < anvil_shape_member_count(x); i++) {
        const struct anvil_member *a = anvil_shape_member_at(x, i), *b = anvil_shape_member_at(y, i);
        if (!anvil_sv_eq(a->name, b->name) || !s_ids_eq(a->target, b->target) ||
            !anvil_json_equal(&a->traits, &b->traits)) {
            S_DIFF("shape %.*s: member %zu (%.*s) differs", n, id.ptr, i, (int)a->name.len, a->name.ptr);
        }
        char name[256];
        snprintf(name, sizeof(name), "%.*s", (int)a->name.len, a->name.ptr);
        if (anvil_shape_member(x, name) != a || anvil_shape_member(y, name) != b) {
            S_DIFF("shape %.*s: member %s is not found by name", n, id.ptr, name);
        }
    }
    if (!s_ids_eq(anvil_operation_input(x), anvil_operation_input(y)) ||
        !s_ids_eq(anvil_operation_output(x), anvil_operation_output(y))) {
        S_DIFF("shape %.*s: input or output differs", n, id.ptr);
    }
    if (anvil_shape_error_count(x) != anvil_shape_error_count(y)) {
        S_DIFF("shape %.*s: error count differs", n, id.ptr);
    }
    for (size_t i = 0; i < anvil_shape_error_count(x); i++) {
        if (!s_ids_eq(anvil_shape_error_at(x, i), anvil_shape_error_at(y, i))) {
            S_DIFF("shape %.*s: error %zu differs", n, id.ptr, i);
        }
    }
    if (anvil_shape_type(x) == ANVIL_SHAPE_SERVICE) {
        static struct s_visits vx, vy;
        vx.count = vy.count = 0;
        if (anvil_service_operations(mx, x, s_visit, &vx, NULL) != ANVIL_OK ||
            anvil_service_operations(my, y, s_visit, &vy, NULL) != ANVIL_OK || vx.count != vy.count) {
            S_DIFF("service %.*s: operation closures differ", n, id.ptr);
        }
        for (size_t i = 0; i < vx.count && i < sizeof(vx.ops) / sizeof(vx.ops[0]); i++) {
            if (!s_ids_eq(vx.ops[i], vy.ops[i])) {
                S_DIFF("service %.*s: operation %zu of the closure differs", n, id.ptr, i);
            }
        }
    }
    return true;
}

bool anvil_test_models_same(const struct anvil_model *x, const struct anvil_model *y, char *why, size_t cap) {
    if (anvil_model_shape_count(x) != anvil_model_shape_count(y)) {
        S_DIFF("%zu shapes against %zu", anvil_model_shape_count(x), anvil_model_shape_count(y));
    }
    if (!anvil_json_equal(anvil_model_metadata(x), anvil_model_metadata(y))) {
        S_DIFF("metadata differs");
    }
    for (size_t i = 0; i < anvil_model_shape_count(x); i++) {
        const struct anvil_shape *a = anvil_model_shape_at(x, i);
        struct anvil_str_view id = anvil_shape_id(a);
        const struct anvil_shape *b = anvil_model_find(y, id.ptr, id.len);
        if (!b) {
            S_DIFF("shape %.*s is missing", (int)id.len, id.ptr);
        }
        if (!s_shape_same(x, a, y, b, why, cap)) {
            return false;
        }
    }
    return true;
}

bool anvil_test_model_same_as_ast(const struct anvil_model *model, const struct anvil_model_options *options, char *why,
                                  size_t cap) {
    const struct anvil_json *ast = anvil_model_ast(model);
    if (!ast) {
        S_DIFF("no AST");
    }
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    struct anvil_model *loaded = NULL;
    struct anvil_diag diag;
    bool same = false;
    if (anvil_json_write(ast, ANVIL_JSON_WRITE_COMPACT, &text) != ANVIL_OK) {
        snprintf(why, cap, "the AST cannot be written");
    } else if (anvil_model_load(NULL, (const char *)text.data, text.len, options, &loaded, &diag) != ANVIL_OK) {
        snprintf(why, cap, "the AST does not load: %s", diag.message);
    } else {
        same = anvil_test_models_same(model, loaded, why, cap);
    }
    anvil_model_destroy(loaded);
    anvil_buf_clean_up(&text);
    return same;
}
