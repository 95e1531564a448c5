/*
 * Binding an endpoint rule set's parameters for one call, in the order of
 * precedence Smithy's rules-engine spec gives ("Binding parameter values"),
 * most specific last so that it wins: the built-ins (region, FIPS, dual
 * stack, a configured endpoint, S3's settings), the client's
 * clientContextParams, the operation's operationContextParams (JMESPath
 * over the input), the input's contextParam members, and the operation's
 * staticContextParams.
 */

#include <string.h>

#include "anvil/endpoint.h"
#include "anvil/jmespath.h"
#include "anvil/status.h"
#include "core/core_internal.h"

static const char *s_type_name(enum anvil_endpoint_param_type t) {
    return t == ANVIL_ENDPOINT_PARAM_BOOLEAN  ? "a boolean"
           : t == ANVIL_ENDPOINT_PARAM_STRING ? "a string"
                                              : "an array of strings";
}

static bool s_fits(enum anvil_endpoint_param_type t, const struct anvil_json *v) {
    if (t == ANVIL_ENDPOINT_PARAM_BOOLEAN) {
        return anvil_json_is_bool(v);
    }
    if (t == ANVIL_ENDPOINT_PARAM_STRING) {
        return anvil_json_is_string(v);
    }
    if (!anvil_json_is_array(v)) {
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(v); i++) {
        if (!anvil_json_is_string(anvil_json_array_at(v, i))) {
            return false;
        }
    }
    return true;
}

struct s_bind {
    const struct anvil_endpoint_rules *rules;
    struct anvil_json *params;
    size_t count;
    struct anvil_diag *diag;
};

/* Sets parameter `name` to `v` (null leaves it as it was); `from` says where the value came from, for a message. */
static int s_set(struct s_bind *b, struct anvil_str_view name, const struct anvil_json *v, const char *from) {
    if (anvil_json_is_null(v)) {
        return ANVIL_OK;
    }
    long index = anvil_endpoint_rules_param_index(b->rules, name);
    if (index < 0 || (size_t)index >= b->count) {
        return ANVIL_OK; /* a value for a parameter this rule set does not have */
    }
    const struct anvil_endpoint_param *p = anvil_endpoint_rules_param_at(b->rules, (size_t)index);
    if (!s_fits(p->type, v)) {
        const char *given = anvil_json_is_array(v) ? "an array with an item that is not a string"
                                                   : anvil_json_type_name(anvil_json_type(v));
        return anvil_diag_set(b->diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint parameter `%.*s` takes %s, but %s gives %s",
                              (int)name.len, name.ptr, s_type_name(p->type), from, given);
    }
    b->params[index] = *v;
    return ANVIL_OK;
}

/* A string of white space only (or empty): a @required member so given is not bound. */
static bool s_blank(const struct anvil_json *v) {
    struct anvil_str_view s = anvil_json_string(v);
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] != ' ' && s.ptr[i] != '\t' && s.ptr[i] != '\n' && s.ptr[i] != '\r') {
            return false;
        }
    }
    return true;
}

/* A trait of the operation that is not an object of name: {...}: the model's fault. */
static int s_trait_shape(struct s_bind *b, const struct anvil_shape *op, const char *trait) {
    struct anvil_str_view id = anvil_shape_id(op);
    return anvil_diag_set(b->diag, ANVIL_EMODEL, 0, 0, 0,
                          "the smithy.rules#%s trait of `%.*s` is not an object of parameter name: definition", trait,
                          (int)id.len, id.ptr);
}

static int s_builtins(struct s_bind *b, const struct anvil_json *builtins) {
    int rc = ANVIL_OK;
    for (size_t i = 0; builtins && i < b->count && rc == ANVIL_OK; i++) {
        const struct anvil_endpoint_param *p = anvil_endpoint_rules_param_at(b->rules, i);
        if (p && p->builtin.len) {
            const struct anvil_json *v = anvil_json_object_get(builtins, p->builtin.ptr, p->builtin.len);
            rc = s_set(b, p->name, v, "the built-in");
        }
    }
    return rc;
}

static int s_object_values(struct s_bind *b, const struct anvil_json *object, const char *from) {
    if (object && !anvil_json_is_object(object)) {
        return anvil_diag_set(b->diag, ANVIL_EINVAL, 0, 0, 0, "%s values must be an object of name: value, not %s",
                              from, anvil_json_type_name(anvil_json_type(object)));
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(object) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(object, i);
        rc = s_set(b, anvil_json_member_key(m), &m->value, from);
    }
    return rc;
}

/* operationContextParams: {Name: {path: "JMESPath"}}, each evaluated over the input. */
static int s_operation_context(struct s_bind *b, const struct anvil_shape *op, const struct anvil_json *input,
                               struct anvil_arena *arena) {
    const struct anvil_json *defs = anvil_shape_trait(op, "smithy.rules#operationContextParams");
    if (defs && !anvil_json_is_object(defs)) {
        return s_trait_shape(b, op, "operationContextParams");
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(defs) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(defs, i);
        struct anvil_str_view path = anvil_json_string(anvil_json_object_get_cstr(&m->value, "path"));
        struct anvil_jmespath *expr = NULL;
        struct anvil_diag jd;
        anvil_diag_clear(&jd);
        rc = anvil_jmespath_compile(NULL, path.ptr, path.len, NULL, &expr, &jd);
        if (rc == ANVIL_ENOMEM) {
            break;
        }
        if (rc != ANVIL_OK) {
            struct anvil_str_view name = anvil_json_member_key(m);
            rc = anvil_diag_set(b->diag, ANVIL_EMODEL, 0, 0, 0,
                                "operationContextParams `%.*s`: the path `%.*s` does not compile: %s", (int)name.len,
                                name.ptr, (int)(path.len > 128 ? 128 : path.len), path.ptr, jd.message);
            break;
        }
        struct anvil_json result = anvil_json_make_null();
        static const struct anvil_json empty = {ANVIL_JSON_OBJECT, {0}};
        int src = anvil_jmespath_search(expr, input ? input : &empty, arena, &result, NULL);
        anvil_jmespath_destroy(expr);
        if (src == ANVIL_ENOMEM) {
            rc = src;
        } else if (src == ANVIL_OK) {
            /* A path that finds nothing binds nothing; one that finds the wrong type is the caller's to fix. */
            rc = s_set(b, anvil_json_member_key(m), &result, "its operationContextParams path");
        }
    }
    return rc;
}

static int s_context_members(struct s_bind *b, const struct anvil_shape *op, const struct anvil_json *input) {
    const struct anvil_shape *shape = anvil_operation_input(op);
    int rc = ANVIL_OK;
    for (size_t i = 0; shape && input && i < anvil_shape_member_count(shape) && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        const struct anvil_json *trait = anvil_json_object_get_cstr(&m->traits, "smithy.rules#contextParam");
        if (!trait) {
            continue;
        }
        const struct anvil_json *v = anvil_json_object_get(input, m->name.ptr, m->name.len);
        if (anvil_json_is_string(v) && anvil_json_object_get_cstr(&m->traits, "smithy.api#required") && s_blank(v)) {
            continue;
        }
        rc = s_set(b, anvil_json_string(anvil_json_object_get_cstr(trait, "name")), v, "the input's member");
    }
    return rc;
}

static int s_static(struct s_bind *b, const struct anvil_shape *op) {
    const struct anvil_json *defs = anvil_shape_trait(op, "smithy.rules#staticContextParams");
    if (defs && !anvil_json_is_object(defs)) {
        return s_trait_shape(b, op, "staticContextParams");
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(defs) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(defs, i);
        rc = s_set(b, anvil_json_member_key(m), anvil_json_object_get_cstr(&m->value, "value"),
                   "the operation's staticContextParams");
    }
    return rc;
}

int anvil_endpoint_bind(const struct anvil_endpoint_rules *rules, const struct anvil_model *model,
                        const struct anvil_shape *service, const struct anvil_shape *operation,
                        const struct anvil_json *input, const struct anvil_json *client_params,
                        const struct anvil_json *builtins, struct anvil_arena *arena, struct anvil_json *params,
                        size_t count, struct anvil_diag *diag) {
    (void)model;
    (void)service;
    if (!rules || !params || count != anvil_endpoint_rules_param_count(rules)) {
        return ANVIL_EINVAL;
    }
    for (size_t i = 0; i < count; i++) {
        params[i] = anvil_json_make_null();
    }
    struct s_bind b = {rules, params, count, diag};
    int rc = builtins && !anvil_json_is_object(builtins)
                 ? anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the built-ins must be an object of name: value")
                 : s_builtins(&b, builtins);
    if (rc == ANVIL_OK) {
        rc = s_object_values(&b, client_params, "the client's parameter");
    }
    if (rc == ANVIL_OK && operation) {
        rc = s_operation_context(&b, operation, input, arena);
    }
    if (rc == ANVIL_OK && operation) {
        rc = s_context_members(&b, operation, input);
    }
    if (rc == ANVIL_OK && operation) {
        rc = s_static(&b, operation);
    }
    return rc;
}
