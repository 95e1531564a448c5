/* The parsed tree as JSON, for `anvil query --ast` and for debugging. */

#include "anvil/status.h"
#include "jmespath/jmespath_internal.h"

static const char *const s_node_names[] = {
    [JP_N_IDENTITY] = "identity",
    [JP_N_CURRENT] = "current",
    [JP_N_FIELD] = "field",
    [JP_N_SUBEXPR] = "subexpression",
    [JP_N_INDEX_EXPR] = "index_expression",
    [JP_N_PIPE] = "pipe",
    [JP_N_INDEX] = "index",
    [JP_N_SLICE] = "slice",
    [JP_N_PROJECTION] = "projection",
    [JP_N_VALUE_PROJECTION] = "value_projection",
    [JP_N_FILTER_PROJECTION] = "filter_projection",
    [JP_N_FLATTEN] = "flatten",
    [JP_N_MULTI_LIST] = "multi_select_list",
    [JP_N_MULTI_HASH] = "multi_select_dict",
    [JP_N_OR] = "or_expression",
    [JP_N_AND] = "and_expression",
    [JP_N_NOT] = "not_expression",
    [JP_N_COMPARE] = "comparator",
    [JP_N_LITERAL] = "literal",
    [JP_N_FUNCTION] = "function_expression",
    [JP_N_EXPREF] = "expref",
};

static const char *s_op_name(enum jp_token_type op) {
    switch (op) {
    case JP_EQ:
        return "eq";
    case JP_NE:
        return "ne";
    case JP_LT:
        return "lt";
    case JP_LTE:
        return "lte";
    case JP_GT:
        return "gt";
    default:
        return "gte";
    }
}

static int s_build(struct anvil_json_builder *b, const struct jp_node *n) {
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "type", 4);
    anvil_json_builder_string(b, s_node_names[n->type], strlen(s_node_names[n->type]));
    switch (n->type) {
    case JP_N_FIELD:
    case JP_N_FUNCTION:
        anvil_json_builder_key(b, "name", 4);
        anvil_json_builder_string(b, n->name.ptr, n->name.len);
        break;
    case JP_N_INDEX:
        anvil_json_builder_key(b, "value", 5);
        anvil_json_builder_int(b, n->index);
        break;
    case JP_N_SLICE:
        anvil_json_builder_key(b, "value", 5);
        anvil_json_builder_begin_array(b);
        n->has_start ? anvil_json_builder_int(b, n->start) : anvil_json_builder_null(b);
        n->has_stop ? anvil_json_builder_int(b, n->stop) : anvil_json_builder_null(b);
        n->has_step ? anvil_json_builder_int(b, n->step) : anvil_json_builder_null(b);
        anvil_json_builder_end_array(b);
        break;
    case JP_N_COMPARE:
        anvil_json_builder_key(b, "value", 5);
        anvil_json_builder_string(b, s_op_name(n->op), strlen(s_op_name(n->op)));
        break;
    case JP_N_LITERAL:
        anvil_json_builder_key(b, "value", 5);
        anvil_json_builder_value(b, &n->literal);
        break;
    case JP_N_MULTI_HASH:
        anvil_json_builder_key(b, "keys", 4);
        anvil_json_builder_begin_array(b);
        for (size_t i = 0; i < n->count; i++) {
            anvil_json_builder_string(b, n->keys[i]->bytes, n->keys[i]->len);
        }
        anvil_json_builder_end_array(b);
        break;
    default:
        break;
    }
    if (n->count) {
        anvil_json_builder_key(b, "children", 8);
        anvil_json_builder_begin_array(b);
        for (size_t i = 0; i < n->count; i++) {
            s_build(b, n->children[i]);
        }
        anvil_json_builder_end_array(b);
    }
    return anvil_json_builder_end_object(b);
}

int anvil_jmespath_write_ast(const struct anvil_jmespath *expr, unsigned flags, struct anvil_buf *out) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json tree;
    int rc = anvil_arena_new(expr->allocator, NULL, &arena);
    if (rc == ANVIL_OK) {
        rc = anvil_json_builder_new(expr->allocator, arena, &b);
    }
    if (rc == ANVIL_OK) {
        s_build(b, expr->root);
        rc = anvil_json_builder_finish(b, &tree);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_json_write(&tree, flags, out);
    }
    anvil_json_builder_destroy(b);
    anvil_arena_destroy(arena);
    return rc;
}
