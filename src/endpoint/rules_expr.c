/*
 * Compiling expressions: references resolved to slots, getAttr paths to
 * record-field steps, templates split into literal and reference parts,
 * function names to opcodes with their arity and argument types checked,
 * and the commonest condition shapes fused into one step.
 */

#include "anvil/status.h"
#include "endpoint/compile_internal.h"

/* ---- expressions ---- */

static int s_new_expr(struct anvil__epc *cx, uint8_t op, uint8_t type, uint32_t *out) {
    int rc = anvil__epc_count_node(cx);
    if (rc != ANVIL_OK) {
        return rc;
    }
    ANVIL__EPC_ADD(cx, exprs, expr_count, 1, out);
    struct anvil__ep_expr *e = &cx->r->exprs[*out];
    memset(e, 0, sizeof *e);
    e->op = op;
    e->type = type;
    return ANVIL_OK;
}

/* A reference to a parameter or a variable in scope. */
static int s_ref(struct anvil__epc *cx, struct anvil_str_view name, uint32_t *out) {
    for (size_t i = cx->var_count; i > 0; i--) {
        if (anvil__sv_same(cx->vars[i - 1].name, name)) {
            int rc = s_new_expr(cx, ANVIL__EPO_REF, cx->vars[i - 1].type, out);
            if (rc == ANVIL_OK) {
                cx->r->exprs[*out].a = (uint32_t)(cx->r->param_count + i - 1);
            }
            return rc;
        }
    }
    long p = anvil__ep_param_lookup(cx->r, name);
    if (p < 0) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`%.*s` is not a parameter or a variable in scope",
                               ANVIL__EPC_SHOW(name));
    }
    int rc = s_new_expr(cx, ANVIL__EPO_REF, (uint8_t)anvil__epc_param_type(cx->r->params[p].type), out);
    if (rc == ANVIL_OK) {
        cx->r->exprs[*out].a = (uint32_t)p;
    }
    return rc;
}

static const struct {
    const char *name;
    uint32_t field;
    uint8_t record, type;
} s_fields[] = {
    {"name", ANVIL__EPF_NAME, ANVIL__EPT_PARTITION, ANVIL__EPT_STRING},
    {"dnsSuffix", ANVIL__EPF_DNS_SUFFIX, ANVIL__EPT_PARTITION, ANVIL__EPT_STRING},
    {"dualStackDnsSuffix", ANVIL__EPF_DUAL_STACK_DNS_SUFFIX, ANVIL__EPT_PARTITION, ANVIL__EPT_STRING},
    {"supportsFIPS", ANVIL__EPF_SUPPORTS_FIPS, ANVIL__EPT_PARTITION, ANVIL__EPT_BOOL},
    {"supportsDualStack", ANVIL__EPF_SUPPORTS_DUAL_STACK, ANVIL__EPT_PARTITION, ANVIL__EPT_BOOL},
    {"implicitGlobalRegion", ANVIL__EPF_IMPLICIT_GLOBAL_REGION, ANVIL__EPT_PARTITION, ANVIL__EPT_STRING},
    {"scheme", ANVIL__EPF_SCHEME, ANVIL__EPT_URL, ANVIL__EPT_STRING},
    {"authority", ANVIL__EPF_AUTHORITY, ANVIL__EPT_URL, ANVIL__EPT_STRING},
    {"path", ANVIL__EPF_PATH, ANVIL__EPT_URL, ANVIL__EPT_STRING},
    {"normalizedPath", ANVIL__EPF_NORMALIZED_PATH, ANVIL__EPT_URL, ANVIL__EPT_STRING},
    {"isIp", ANVIL__EPF_IS_IP, ANVIL__EPT_URL, ANVIL__EPT_BOOL},
    {"partition", ANVIL__EPF_PARTITION, ANVIL__EPT_ARN, ANVIL__EPT_STRING},
    {"service", ANVIL__EPF_SERVICE, ANVIL__EPT_ARN, ANVIL__EPT_STRING},
    {"region", ANVIL__EPF_REGION, ANVIL__EPT_ARN, ANVIL__EPT_STRING},
    {"accountId", ANVIL__EPF_ACCOUNT_ID, ANVIL__EPT_ARN, ANVIL__EPT_STRING},
    {"resourceId", ANVIL__EPF_RESOURCE_ID, ANVIL__EPT_ARN, ANVIL__EPT_LIST},
};

/* One key step of a path on a value of static type `*type`; updates `*type` to the field's. */
static int s_key_step(struct anvil__epc *cx, struct anvil_str_view key, struct anvil__ep_step *step, unsigned *type) {
    if (key.len == 0) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: a path has an empty part");
    }
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_fields); i++) {
        if (anvil_sv_eq_cstr(key, s_fields[i].name) && anvil__epc_type_fits(s_fields[i].record, *type)) {
            step->field = s_fields[i].field;
            step->index = 0;
            *type = *type == ANVIL__EPT_ANY ? ANVIL__EPT_ANY : s_fields[i].type;
            return ANVIL_OK;
        }
    }
    if (*type == ANVIL__EPT_PARTITION || *type == ANVIL__EPT_URL || *type == ANVIL__EPT_ARN) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: %s has no field `%.*s`", anvil__epc_type_name(*type),
                               ANVIL__EPC_SHOW(key));
    }
    return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: cannot take `%.*s` of %s", ANVIL__EPC_SHOW(key),
                           anvil__epc_type_name(*type));
}

/*
 * A getAttr path ("a.b[2]", "resourceId[-1]") as steps on a value of static
 * type `*type`. As Smithy parses it: split on '.', a part `key[n]` is a key
 * then an index; negative indexes count from the end.
 */
static int s_path(struct anvil__epc *cx, struct anvil_str_view path, uint32_t *first, uint16_t *count, unsigned *type) {
    if (path.len == 0) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: the path is empty");
    }
    uint32_t start = (uint32_t)cx->r->step_count;
    size_t n = 0;
    size_t at = 0;
    while (at <= path.len) {
        size_t end = at;
        while (end < path.len && path.ptr[end] != '.') {
            end++;
        }
        struct anvil_str_view part = anvil_sv(path.ptr + at, end - at);
        size_t bracket = anvil__sv_index(part, '[');
        struct anvil_str_view key = bracket == SIZE_MAX ? part : anvil_sv(part.ptr, bracket);
        if (bracket == SIZE_MAX || bracket > 0) {
            uint32_t s;
            ANVIL__EPC_ADD(cx, steps, step_count, 1, &s);
            int rc = s_key_step(cx, key, &cx->r->steps[s], type);
            if (rc != ANVIL_OK) {
                return rc;
            }
            n++;
        }
        if (bracket != SIZE_MAX) {
            struct anvil_str_view idx = anvil_sv(part.ptr + bracket + 1, part.len - bracket - 1);
            if (idx.len < 2 || idx.ptr[idx.len - 1] != ']') {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: `%.*s` must end with `]`", ANVIL__EPC_SHOW(part));
            }
            idx.len--;
            bool negative = idx.ptr[0] == '-';
            if (negative && cx->minor < 1) {
                return anvil__epc_fail(
                    cx, ANVIL_EMODEL,
                    "getAttr: a negative index needs rules engine version 1.1, but the rule set says %.*s",
                    ANVIL__EPC_SHOW(cx->version));
            }
            uint64_t value;
            if (anvil_sv_parse_u64(anvil_sv(idx.ptr + negative, idx.len - negative), INT32_MAX, &value) != ANVIL_OK) {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: `%.*s` is not an index", ANVIL__EPC_SHOW(part));
            }
            if (!anvil__epc_type_fits(ANVIL__EPT_LIST, *type)) {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: cannot index %s", anvil__epc_type_name(*type));
            }
            uint32_t s;
            ANVIL__EPC_ADD(cx, steps, step_count, 1, &s);
            cx->r->steps[s].field = ANVIL__EPF_NONE;
            cx->r->steps[s].index = negative ? -(int32_t)value : (int32_t)value;
            *type = *type == ANVIL__EPT_ANY ? ANVIL__EPT_ANY : ANVIL__EPT_STRING;
            n++;
        }
        at = end + 1;
    }
    if (n > UINT16_MAX) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "getAttr: the path has too many parts");
    }
    *first = start;
    *count = (uint16_t)n;
    return ANVIL_OK;
}

/* getAttr of reference `ref` (already compiled) along `path`. */
static int s_get_attr(struct anvil__epc *cx, uint32_t target, struct anvil_str_view path, uint32_t *out) {
    unsigned type = cx->r->exprs[target].type;
    uint32_t first = 0;
    uint16_t count = 0;
    int rc = s_path(cx, path, &first, &count, &type);
    if (rc == ANVIL_OK) {
        rc = s_new_expr(cx, ANVIL__EPO_GET_ATTR, (uint8_t)type, out);
    }
    if (rc == ANVIL_OK) {
        struct anvil__ep_expr *e = &cx->r->exprs[*out];
        e->a = target;
        e->x.b = first;
        e->argc = count;
    }
    return rc;
}

/* `{Name}` or `{Name#path}` of a template. */
static int s_template_part(struct anvil__epc *cx, struct anvil_str_view inner, uint32_t *out) {
    size_t hash = anvil__sv_index(inner, '#');
    struct anvil_str_view name = hash == SIZE_MAX ? inner : anvil_sv(inner.ptr, hash);
    if (name.len == 0) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "template: `{%.*s}` names nothing", ANVIL__EPC_SHOW(inner));
    }
    uint32_t ref = 0;
    int rc = s_ref(cx, name, &ref);
    if (rc != ANVIL_OK || hash == SIZE_MAX) {
        *out = ref;
        return rc;
    }
    return s_get_attr(cx, ref, anvil_sv(inner.ptr + hash + 1, inner.len - hash - 1), out);
}

/* Appends literal text (escapes already undone) to `buf` of `*len` bytes. */
static void s_lit_append(char *buf, size_t *len, const char *p, size_t n) {
    memcpy(buf + *len, p, n);
    *len += n;
}

/*
 * A template string: literal text with `{{` and `}}` for braces, and
 * `{Name}` / `{Name#path}` references. A literal gives a STR expression,
 * a lone reference the reference itself, anything else a TEMPLATE.
 */
int anvil__epc_template(struct anvil__epc *cx, struct anvil_str_view s, uint32_t *out) {
    if (anvil__sv_index(s, '{') == SIZE_MAX && anvil__sv_index(s, '}') == SIZE_MAX) {
        uint32_t id;
        int rc = anvil__epc_intern(cx, s, &id);
        if (rc == ANVIL_OK) {
            rc = s_new_expr(cx, ANVIL__EPO_STR, ANVIL__EPT_STRING, out);
        }
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].a = id;
        }
        return rc;
    }
    /* Literal text never grows when unescaped: one buffer of s.len holds any of it. */
    char *lit = anvil_mem_acquire(cx->alloc, s.len + 1);
    if (!lit) {
        return ANVIL_ENOMEM;
    }
    int rc = ANVIL_OK;
    uint32_t parts[2] = {0, 0};
    uint32_t first = (uint32_t)cx->r->tpart_count;
    size_t count = 0, lit_len = 0;
    size_t i = 0;
    while (rc == ANVIL_OK && i <= s.len) {
        bool at_end = i == s.len;
        if (!at_end && s.ptr[i] == '{' && i + 1 < s.len && s.ptr[i + 1] == '{') {
            s_lit_append(lit, &lit_len, "{", 1);
            i += 2;
            continue;
        }
        if (!at_end && s.ptr[i] == '}' && i + 1 < s.len && s.ptr[i + 1] == '}') {
            s_lit_append(lit, &lit_len, "}", 1);
            i += 2;
            continue;
        }
        if (!at_end && s.ptr[i] == '}') {
            rc = anvil__epc_fail(cx, ANVIL_EMODEL, "template: unmatched `}` in \"%.*s\"", ANVIL__EPC_SHOW(s));
            break;
        }
        if (!at_end && s.ptr[i] != '{') {
            s_lit_append(lit, &lit_len, s.ptr + i, 1);
            i++;
            continue;
        }
        /* The end, or a reference: the literal text so far is a part. */
        if (lit_len > 0) {
            uint32_t id, at;
            rc = anvil__epc_intern(cx, anvil_sv(lit, lit_len), &id);
            if (rc != ANVIL_OK) {
                break;
            }
            if ((rc = anvil__epc_count_node(cx)) != ANVIL_OK) {
                break;
            }
            void *p = cx->r->tparts;
            rc = anvil__epc_reserve(cx, &p, &cx->tparts_cap, cx->r->tpart_count, 1, sizeof *cx->r->tparts);
            cx->r->tparts = p;
            if (rc != ANVIL_OK) {
                break;
            }
            at = (uint32_t)cx->r->tpart_count++;
            cx->r->tparts[at].is_expr = 0;
            cx->r->tparts[at].id = id;
            if (count < 2) {
                parts[count] = at;
            }
            count++;
            lit_len = 0;
        }
        if (at_end) {
            break;
        }
        size_t close = i + 1;
        while (close < s.len && s.ptr[close] != '}' && s.ptr[close] != '{') {
            close++;
        }
        if (close >= s.len || s.ptr[close] != '}') {
            rc = anvil__epc_fail(cx, ANVIL_EMODEL, "template: unmatched `{` in \"%.*s\"", ANVIL__EPC_SHOW(s));
            break;
        }
        uint32_t e = 0;
        rc = s_template_part(cx, anvil_sv(s.ptr + i + 1, close - i - 1), &e);
        if (rc != ANVIL_OK) {
            break;
        }
        if (!anvil__epc_type_fits(ANVIL__EPT_STRING, cx->r->exprs[e].type)) {
            rc = anvil__epc_fail(cx, ANVIL_EMODEL, "template: `{%.*s}` is %s, not a string",
                                 ANVIL__EPC_SHOW(anvil_sv(s.ptr + i + 1, close - i - 1)),
                                 anvil__epc_type_name(cx->r->exprs[e].type));
            break;
        }
        void *p = cx->r->tparts;
        rc = anvil__epc_reserve(cx, &p, &cx->tparts_cap, cx->r->tpart_count, 1, sizeof *cx->r->tparts);
        cx->r->tparts = p;
        if (rc != ANVIL_OK) {
            break;
        }
        uint32_t at = (uint32_t)cx->r->tpart_count++;
        cx->r->tparts[at].is_expr = 1;
        cx->r->tparts[at].id = e;
        if (count < 2) {
            parts[count] = at;
        }
        count++;
        i = close + 1;
    }
    anvil_mem_release(cx->alloc, lit);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (count == 0) {
        /* Only possible for "": handled above, but keep the empty string well-defined. */
        uint32_t id;
        rc = anvil__epc_intern(cx, anvil_sv("", 0), &id);
        if (rc == ANVIL_OK) {
            rc = s_new_expr(cx, ANVIL__EPO_STR, ANVIL__EPT_STRING, out);
        }
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].a = id;
        }
        return rc;
    }
    if (count == 1) {
        /* One part: the literal, or the reference itself (Smithy's single dynamic template). */
        const struct anvil__ep_tpart *tp = &cx->r->tparts[parts[0]];
        cx->r->tpart_count = first;
        if (tp->is_expr) {
            *out = tp->id;
            return ANVIL_OK;
        }
        uint32_t id = tp->id;
        rc = s_new_expr(cx, ANVIL__EPO_STR, ANVIL__EPT_STRING, out);
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].a = id;
        }
        return rc;
    }
    if (count > UINT16_MAX) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "template: more than %u parts", (unsigned)UINT16_MAX);
    }
    rc = s_new_expr(cx, ANVIL__EPO_TEMPLATE, ANVIL__EPT_STRING, out);
    if (rc == ANVIL_OK) {
        cx->r->exprs[*out].a = first;
        cx->r->exprs[*out].argc = (uint16_t)count;
    }
    return rc;
}

/* ---- functions ---- */

#define S_VARIADIC 0xff

static const struct {
    const char *name;
    uint8_t op;
    /* Arguments (S_VARIADIC: two or more), their types, and the result's (ANY: from the arguments). */
    uint8_t argc;
    uint8_t arg[4];
    uint8_t result;
} s_functions[] = {
    {"isSet", ANVIL__EPO_IS_SET, 1, {ANVIL__EPT_ANY}, ANVIL__EPT_BOOL},
    {"not", ANVIL__EPO_NOT, 1, {ANVIL__EPT_BOOL}, ANVIL__EPT_BOOL},
    {"getAttr", ANVIL__EPO_GET_ATTR, 2, {ANVIL__EPT_ANY, ANVIL__EPT_STRING}, ANVIL__EPT_ANY},
    {"stringEquals", ANVIL__EPO_STRING_EQUALS, 2, {ANVIL__EPT_STRING, ANVIL__EPT_STRING}, ANVIL__EPT_BOOL},
    {"booleanEquals", ANVIL__EPO_BOOLEAN_EQUALS, 2, {ANVIL__EPT_BOOL, ANVIL__EPT_BOOL}, ANVIL__EPT_BOOL},
    {"substring",
     ANVIL__EPO_SUBSTRING,
     4,
     {ANVIL__EPT_STRING, ANVIL__EPT_INT, ANVIL__EPT_INT, ANVIL__EPT_BOOL},
     ANVIL__EPT_STRING},
    {"uriEncode", ANVIL__EPO_URI_ENCODE, 1, {ANVIL__EPT_STRING}, ANVIL__EPT_STRING},
    {"parseURL", ANVIL__EPO_PARSE_URL, 1, {ANVIL__EPT_STRING}, ANVIL__EPT_URL},
    {"isValidHostLabel", ANVIL__EPO_IS_VALID_HOST_LABEL, 2, {ANVIL__EPT_STRING, ANVIL__EPT_BOOL}, ANVIL__EPT_BOOL},
    {"split", ANVIL__EPO_SPLIT, 3, {ANVIL__EPT_STRING, ANVIL__EPT_STRING, ANVIL__EPT_INT}, ANVIL__EPT_LIST},
    {"coalesce", ANVIL__EPO_COALESCE, S_VARIADIC, {ANVIL__EPT_ANY}, ANVIL__EPT_ANY},
    {"ite", ANVIL__EPO_ITE, 3, {ANVIL__EPT_BOOL, ANVIL__EPT_ANY, ANVIL__EPT_ANY}, ANVIL__EPT_ANY},
    {"aws.partition", ANVIL__EPO_AWS_PARTITION, 1, {ANVIL__EPT_STRING}, ANVIL__EPT_PARTITION},
    {"aws.parseArn", ANVIL__EPO_AWS_PARSE_ARN, 1, {ANVIL__EPT_STRING}, ANVIL__EPT_ARN},
    {"aws.isVirtualHostableS3Bucket",
     ANVIL__EPO_AWS_IS_VIRTUAL_HOSTABLE_S3_BUCKET,
     2,
     {ANVIL__EPT_STRING, ANVIL__EPT_BOOL},
     ANVIL__EPT_BOOL},
};

static int s_expr(struct anvil__epc *cx, const struct anvil_json *v, size_t depth, uint32_t *out);

/*
 * Fuses the commonest condition shapes into one step: isSet(ref),
 * not(isSet(ref)), booleanEquals(ref, literal) and stringEquals(ref,
 * literal), either way round. The expressions they fold stay in the
 * array, unused.
 */
static void s_fuse(struct anvil__epc *cx, uint32_t index) {
    struct anvil__ep_expr *e = &cx->r->exprs[index];
    const uint32_t *args = &cx->r->args[e->a];
    const struct anvil__ep_expr *x = e->argc > 0 ? &cx->r->exprs[args[0]] : NULL;
    const struct anvil__ep_expr *y = e->argc > 1 ? &cx->r->exprs[args[1]] : NULL;
    switch (e->op) {
    case ANVIL__EPO_IS_SET:
        if (x->op == ANVIL__EPO_REF) {
            e->op = ANVIL__EPO_IS_SET_REF;
            e->a = x->a;
        }
        break;
    case ANVIL__EPO_NOT:
        if (x->op == ANVIL__EPO_IS_SET_REF) {
            e->op = ANVIL__EPO_NOT_SET_REF;
            e->a = x->a;
        }
        break;
    case ANVIL__EPO_BOOLEAN_EQUALS:
    case ANVIL__EPO_STRING_EQUALS: {
        uint8_t lit = e->op == ANVIL__EPO_BOOLEAN_EQUALS ? ANVIL__EPO_BOOL : ANVIL__EPO_STR;
        if (y->op == ANVIL__EPO_REF && x->op == lit) {
            const struct anvil__ep_expr *t = x;
            x = y;
            y = t;
        }
        if (x->op == ANVIL__EPO_REF && y->op == lit) {
            e->op = lit == ANVIL__EPO_BOOL ? ANVIL__EPO_BOOL_EQ_REF : ANVIL__EPO_STR_EQ_REF;
            e->x.b = y->a;
            e->a = x->a;
        }
        break;
    }
    default:
        break;
    }
}

/* A function object {"fn", "argv"} (a condition's or an argument's). */
int anvil__epc_function(struct anvil__epc *cx, const struct anvil_json *obj, size_t depth, uint32_t *out) {
    if (depth > cx->max_depth) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "functions nested more than %zu deep", cx->max_depth);
    }
    const struct anvil_json *fn = anvil_json_object_get_cstr(obj, "fn");
    const struct anvil_json *argv = anvil_json_object_get_cstr(obj, "argv");
    if (!anvil_json_is_string(fn)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`fn` must be a function name, not %s", anvil__epc_json_kind(fn));
    }
    struct anvil_str_view name = anvil_json_string(fn);
    size_t f = 0;
    while (f < ANVIL_ARRAY_LEN(s_functions) && !anvil_sv_eq_cstr(name, s_functions[f].name)) {
        f++;
    }
    if (f == ANVIL_ARRAY_LEN(s_functions)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "unknown function `%.*s`", ANVIL__EPC_SHOW(name));
    }
    if (!anvil_json_is_array(argv)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s`: `argv` must be an array, not %s", s_functions[f].name,
                               anvil__epc_json_kind(argv));
    }
    size_t argc = anvil_json_len(argv);
    uint8_t want = s_functions[f].argc;
    if (want == S_VARIADIC ? argc < 2 : argc != want) {
        if (want == S_VARIADIC) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s` takes two or more arguments, not %zu", s_functions[f].name,
                                   argc);
        }
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s` takes %u argument%s, not %zu", s_functions[f].name, want,
                               want == 1 ? "" : "s", argc);
    }
    if (argc > UINT16_MAX) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "`%s`: more than %u arguments", s_functions[f].name,
                               (unsigned)UINT16_MAX);
    }
    uint8_t op = s_functions[f].op;
    if ((op == ANVIL__EPO_COALESCE || op == ANVIL__EPO_ITE || op == ANVIL__EPO_SPLIT) && cx->minor < 1) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s` needs rules engine version 1.1, but the rule set says %.*s",
                               s_functions[f].name, ANVIL__EPC_SHOW(cx->version));
    }
    size_t saved = anvil__epc_push(cx, ANVIL__EPC_SEG_ARGV, 0, NULL);
    int rc;
    if (op == ANVIL__EPO_GET_ATTR) {
        uint32_t target;
        rc = s_expr(cx, anvil_json_array_at(argv, 0), depth + 1, &target);
        if (rc != ANVIL_OK) {
            return rc;
        }
        unsigned t = cx->r->exprs[target].type;
        if (t != ANVIL__EPT_ANY && t != ANVIL__EPT_PARTITION && t != ANVIL__EPT_URL && t != ANVIL__EPT_ARN &&
            t != ANVIL__EPT_LIST) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr needs an object or an array, not %s",
                                   anvil__epc_type_name(t));
        }
        anvil__epc_pop(cx, saved);
        anvil__epc_push(cx, ANVIL__EPC_SEG_ARGV, 1, NULL);
        const struct anvil_json *path = anvil_json_array_at(argv, 1);
        if (!anvil_json_is_string(path)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "getAttr: the path must be a string, not %s",
                                   anvil__epc_json_kind(path));
        }
        rc = s_get_attr(cx, target, anvil_json_string(path), out);
        anvil__epc_pop(cx, saved);
        return rc;
    }
    anvil__epc_pop(cx, saved);
    uint32_t first;
    ANVIL__EPC_ADD(cx, args, arg_count, argc, &first);
    unsigned same = ANVIL__EPT_ANY;
    for (size_t i = 0; i < argc; i++) {
        saved = anvil__epc_push(cx, ANVIL__EPC_SEG_ARGV, i, NULL);
        uint32_t a;
        rc = s_expr(cx, anvil_json_array_at(argv, i), depth + 1, &a);
        if (rc != ANVIL_OK) {
            return rc;
        }
        cx->r->args[first + i] = a;
        unsigned got = cx->r->exprs[a].type;
        unsigned need = want == S_VARIADIC ? ANVIL__EPT_ANY : s_functions[f].arg[i];
        if (!anvil__epc_type_fits(need, got)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s` needs %s here, not %s", s_functions[f].name,
                                   anvil__epc_type_name(need), anvil__epc_type_name(got));
        }
        if ((op == ANVIL__EPO_COALESCE || (op == ANVIL__EPO_ITE && i > 0)) && got != ANVIL__EPT_ANY) {
            if (same != ANVIL__EPT_ANY && same != got) {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s` needs arguments of one type, not %s and %s",
                                       s_functions[f].name, anvil__epc_type_name(same), anvil__epc_type_name(got));
            }
            same = got;
        }
        anvil__epc_pop(cx, saved);
    }
    rc = s_new_expr(cx, op, s_functions[f].result == ANVIL__EPT_ANY ? (uint8_t)same : s_functions[f].result, out);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil__ep_expr *e = &cx->r->exprs[*out];
    e->a = first;
    e->argc = (uint16_t)argc;
    s_fuse(cx, *out);
    if (op == ANVIL__EPO_SPLIT) {
        const struct anvil__ep_expr *delim = &cx->r->exprs[cx->r->args[first + 1]];
        if (delim->op == ANVIL__EPO_STR && cx->r->strings[delim->a].len == 0) {
            anvil__epc_push(cx, ANVIL__EPC_SEG_ARGV, 1, NULL);
            return anvil__epc_fail(cx, ANVIL_EMODEL, "`split`: the delimiter is empty");
        }
    }
    if (op == ANVIL__EPO_SPLIT || op == ANVIL__EPO_SUBSTRING) {
        /* Indexes and limits are literals: checked here rather than on every call. */
        for (size_t i = 1; i < argc; i++) {
            const struct anvil__ep_expr *lit = &cx->r->exprs[cx->r->args[first + i]];
            if (lit->op == ANVIL__EPO_INT && lit->x.i < 0) {
                saved = anvil__epc_push(cx, ANVIL__EPC_SEG_ARGV, i, NULL);
                return anvil__epc_fail(cx, ANVIL_EMODEL, "`%s`: %d must not be negative", s_functions[f].name,
                                       (int)lit->x.i);
            }
        }
    }
    return ANVIL_OK;
}

/* An argument: a template string, a boolean, an integer, an array of strings, a reference or a function. */
static int s_expr(struct anvil__epc *cx, const struct anvil_json *v, size_t depth, uint32_t *out) {
    int rc;
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_STRING:
        return anvil__epc_template(cx, anvil_json_string(v), out);
    case ANVIL_JSON_BOOL:
        rc = s_new_expr(cx, ANVIL__EPO_BOOL, ANVIL__EPT_BOOL, out);
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].a = anvil_json_bool(v);
        }
        return rc;
    case ANVIL_JSON_NUMBER:
        if (!anvil_json_is_int(v) || anvil_json_int(v) < INT32_MIN || anvil_json_int(v) > INT32_MAX) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "a number argument must be an integer that fits 32 bits");
        }
        rc = s_new_expr(cx, ANVIL__EPO_INT, ANVIL__EPT_INT, out);
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].x.i = (int32_t)anvil_json_int(v);
        }
        return rc;
    case ANVIL_JSON_ARRAY: {
        size_t n = anvil_json_len(v);
        if (n > UINT16_MAX) {
            return anvil__epc_fail(cx, ANVIL_ELIMIT, "an array argument has more than %u items", (unsigned)UINT16_MAX);
        }
        /* The items go to the string table side by side (not interned), so the list is a view of it. */
        uint32_t first;
        ANVIL__EPC_ADD(cx, strings, string_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json *item = anvil_json_array_at(v, i);
            if (!anvil_json_is_string(item)) {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "an array argument may hold strings only, not %s",
                                       anvil__epc_json_kind(item));
            }
            struct anvil_str_view s = anvil_json_string(item);
            char *copy = anvil_arena_strndup(cx->r->arena, s.ptr, s.len);
            if (!copy) {
                return ANVIL_ENOMEM;
            }
            cx->r->strings[first + i] = anvil_sv(copy, s.len);
        }
        /* Not in the intern table (which only ever finds strings equal to the one looked up). */
        rc = s_new_expr(cx, ANVIL__EPO_LIST, ANVIL__EPT_LIST, out);
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].a = first;
            cx->r->exprs[*out].argc = (uint16_t)n;
        }
        return rc;
    }
    case ANVIL_JSON_OBJECT: {
        const struct anvil_json *ref = anvil_json_object_get_cstr(v, "ref");
        if (ref) {
            if (!anvil_json_is_string(ref)) {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "`ref` must be a string, not %s", anvil__epc_json_kind(ref));
            }
            return s_ref(cx, anvil_json_string(ref), out);
        }
        if (anvil_json_object_get_cstr(v, "fn")) {
            return anvil__epc_function(cx, v, depth, out);
        }
        return anvil__epc_fail(cx, ANVIL_EMODEL, "an object here must be a reference {\"ref\"} or a function {\"fn\"}");
    }
    default:
        return anvil__epc_fail(cx, ANVIL_EMODEL, "an argument may not be null");
    }
}

/* A value that must be a string: a template, a reference or a function (an endpoint's url, an error, a header). */
int anvil__epc_string_expr(struct anvil__epc *cx, const struct anvil_json *v, const char *what, uint32_t *out) {
    if (!anvil_json_is_string(v) && !anvil_json_is_object(v)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "%s must be a string, a reference or a function, not %s", what,
                               anvil__epc_json_kind(v));
    }
    int rc = s_expr(cx, v, 1, out);
    if (rc == ANVIL_OK && !anvil__epc_type_fits(ANVIL__EPT_STRING, cx->r->exprs[*out].type)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "%s must be a string, not %s", what,
                               anvil__epc_type_name(cx->r->exprs[*out].type));
    }
    return rc;
}
