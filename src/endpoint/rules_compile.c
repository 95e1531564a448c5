/*
 * Compiling a rule set: the JSON document is walked once and turned into
 * the flat arrays of endpoint_internal.h. Every name is resolved here (a
 * reference to a parameter index or a variable slot, a function to its
 * opcode, a getAttr path to its steps), every type is checked where the
 * rule set shows it, and every limit is applied, so that resolving has
 * nothing left to look up or to refuse but the values it is given. This
 * file walks the rule set; rules_expr.c compiles the expressions in it.
 */

#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "endpoint/compile_internal.h"
#include "json/json_internal.h"

/* ---- errors and positions ---- */

/* One segment as text into `out` (room `size`); returns its length. */
static size_t s_seg_text(const struct anvil__epc_seg *seg, bool first, char *out, size_t size) {
    static const char *const names[] = {"", "rules", "conditions", "argv", ""};
    const char *dot = first || seg->kind == ANVIL__EPC_SEG_ITEM ? "" : ".";
    int n;
    if (seg->kind == ANVIL__EPC_SEG_NAME) {
        n = snprintf(out, size, "%s%.*s", dot, anvil__ep_cut(anvil_sv(seg->name, seg->n), 40), seg->name);
    } else {
        n = snprintf(out, size, "%s%s[%zu]", dot, names[seg->kind], seg->n);
    }
    return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}

/*
 * The position as text: "rules[3].conditions[1].argv[0]". A deep one
 * keeps its first two segments and as many of its last as fit, with
 * "..." between, so a message still says where it ends.
 */
static void s_position(const struct anvil__epc *cx, char *out, size_t size) {
    char seg[64];
    size_t len = 0, n = cx->seg_count;
    out[0] = '\0';
    size_t full = 0;
    for (size_t i = 0; i < n; i++) {
        full += s_seg_text(&cx->segs[i], i == 0, seg, sizeof seg);
    }
    size_t head = n, tail_from = n;
    if (full >= size) {
        head = n < 2 ? n : 2;
        size_t head_len = 0;
        for (size_t i = 0; i < head; i++) {
            head_len += s_seg_text(&cx->segs[i], i == 0, seg, sizeof seg);
        }
        if (head_len + 4 >= size) {
            head = head_len = 0;
        }
        size_t room = size - 1 - head_len - 3;
        size_t used = 0;
        tail_from = n;
        while (tail_from > head) {
            size_t w = s_seg_text(&cx->segs[tail_from - 1], false, seg, sizeof seg);
            if (used + w > room) {
                break;
            }
            used += w;
            tail_from--;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (i == head && tail_from > head) {
            memcpy(out + len, "...", 4);
            len += 3;
            i = tail_from - 1;
            continue;
        }
        len += s_seg_text(&cx->segs[i], i == 0 || (i == tail_from && tail_from > head), out + len, size - len);
    }
}

int anvil__epc_fail(struct anvil__epc *cx, int code, const char *fmt, ...) {
    char what[ANVIL_DIAG_MESSAGE_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    anvil__ep_trim_utf8(what);
    if (cx->seg_count == 0) {
        return anvil_diag_set(cx->diag, code, 0, 0, 0, "%s", what);
    }
    /* The position takes what the message leaves of the diag, so both show. */
    char where[ANVIL_DIAG_MESSAGE_MAX];
    size_t room = ANVIL_DIAG_MESSAGE_MAX - 2 - strlen(what);
    /* At most 240 bytes of position: a deep path is shown by its ends. */
    room = room > 240 ? 240 : room;
    s_position(cx, where, room < 64 ? 64 : room);
    return anvil_diag_set(cx->diag, code, 0, 0, 0, "%s: %s", where, what);
}

int anvil__epc_count_node(struct anvil__epc *cx) {
    if (++cx->nodes > cx->max_nodes) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "more than %zu rules, conditions and expressions", cx->max_nodes);
    }
    return ANVIL_OK;
}

const char *anvil__epc_type_name(unsigned type) {
    static const char *const names[] = {"any value", "a string",    "a boolean", "an integer",
                                        "an array",  "a partition", "a URL",     "an ARN"};
    return type < ANVIL_ARRAY_LEN(names) ? names[type] : "unknown";
}

const char *anvil__epc_json_kind(const struct anvil_json *v) {
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[anvil_json_type(v)];
}

/* ---- growing arrays ---- */

int anvil__epc_reserve(struct anvil__epc *cx, void **items, size_t *cap, size_t count, size_t more, size_t elem) {
    if (count + more <= *cap) {
        return ANVIL_OK;
    }
    size_t want = *cap ? *cap : 32;
    while (want < count + more) {
        want *= 2;
    }
    if (want > (size_t)UINT32_MAX / 2) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "the rule set is too large");
    }
    void *p = *items;
    if (anvil_mem_realloc(cx->alloc, &p, want * elem) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    *items = p;
    *cap = want;
    return ANVIL_OK;
}

/* ---- strings ---- */

static int s_intern_grow(struct anvil__epc *cx) {
    size_t cap = cx->intern ? ((size_t)cx->intern_mask + 1) * 2 : 256;
    uint32_t *slots = anvil_mem_calloc(cx->alloc, cap, sizeof *slots);
    if (!slots) {
        return ANVIL_ENOMEM;
    }
    uint32_t mask = (uint32_t)(cap - 1);
    for (size_t i = 0; i < cx->r->string_count; i++) {
        struct anvil_str_view s = cx->r->strings[i];
        uint32_t slot = anvil__ep_hash(s.ptr, s.len) & mask;
        while (slots[slot]) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = (uint32_t)i + 1;
    }
    anvil_mem_release(cx->alloc, cx->intern);
    cx->intern = slots;
    cx->intern_mask = mask;
    return ANVIL_OK;
}

/* The id of a string equal to `s`, kept once in the rules' arena. */
int anvil__epc_intern(struct anvil__epc *cx, struct anvil_str_view s, uint32_t *id) {
    if (!cx->intern || (cx->r->string_count + 1) * 2 > (size_t)cx->intern_mask + 1) {
        int rc = s_intern_grow(cx);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    uint32_t slot = anvil__ep_hash(s.ptr, s.len) & cx->intern_mask;
    while (cx->intern[slot]) {
        uint32_t i = cx->intern[slot] - 1;
        if (anvil__sv_same(cx->r->strings[i], s)) {
            *id = i;
            return ANVIL_OK;
        }
        slot = (slot + 1) & cx->intern_mask;
    }
    char *copy = anvil_arena_strndup(cx->r->arena, s.ptr, s.len);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    uint32_t at;
    ANVIL__EPC_ADD(cx, strings, string_count, 1, &at);
    cx->r->strings[at] = anvil_sv(copy, s.len);
    cx->intern[slot] = at + 1;
    *id = at;
    return ANVIL_OK;
}

static int s_key(struct anvil__epc *cx, struct anvil_str_view s, const struct anvil_json_key **out) {
    *out = anvil__json_key_new(cx->r->arena, s.ptr, s.len, anvil_json_hash(s.ptr, s.len));
    return *out ? ANVIL_OK : ANVIL_ENOMEM;
}

/* ---- endpoints ---- */

static int s_props(struct anvil__epc *cx, const struct anvil_json *v, size_t depth, uint32_t *out) {
    if (depth > cx->max_depth) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "properties nested more than %zu deep", cx->max_depth);
    }
    int rc = anvil__epc_count_node(cx);
    if (rc != ANVIL_OK) {
        return rc;
    }
    uint32_t at;
    ANVIL__EPC_ADD(cx, props, prop_count, 1, &at);
    *out = at;
    size_t n = anvil_json_len(v);
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_OBJECT: {
        uint32_t first;
        ANVIL__EPC_ADD(cx, prop_members, prop_member_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(v, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            size_t saved = anvil__epc_push_key(cx, key);
            const struct anvil_json_key *k;
            uint32_t value;
            rc = s_key(cx, key, &k);
            if (rc == ANVIL_OK) {
                rc = s_props(cx, &m->value, depth + 1, &value);
            }
            if (rc != ANVIL_OK) {
                return rc;
            }
            cx->r->prop_members[first + i].key = k;
            cx->r->prop_members[first + i].value = value;
            anvil__epc_pop(cx, saved);
        }
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_OBJECT, first, (uint32_t)n};
        return ANVIL_OK;
    }
    case ANVIL_JSON_ARRAY: {
        uint32_t first;
        ANVIL__EPC_ADD(cx, prop_items, prop_item_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            size_t saved = anvil__epc_push(cx, ANVIL__EPC_SEG_ITEM, i, NULL);
            uint32_t item;
            rc = s_props(cx, anvil_json_array_at(v, i), depth + 1, &item);
            if (rc != ANVIL_OK) {
                return rc;
            }
            cx->r->prop_items[first + i] = item;
            anvil__epc_pop(cx, saved);
        }
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_ARRAY, first, (uint32_t)n};
        return ANVIL_OK;
    }
    case ANVIL_JSON_STRING: {
        uint32_t e;
        rc = anvil__epc_template(cx, anvil_json_string(v), &e);
        if (rc != ANVIL_OK) {
            return rc;
        }
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_EXPR, e, 0};
        return ANVIL_OK;
    }
    default: {
        /* Booleans, numbers and null carry no pointers: kept as they are. */
        uint32_t s;
        ANVIL__EPC_ADD(cx, scalars, scalar_count, 1, &s);
        cx->r->scalars[s] = *v;
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_SCALAR, s, 0};
        return ANVIL_OK;
    }
    }
}

static int s_endpoint(struct anvil__epc *cx, const struct anvil_json *ep, uint32_t *out) {
    if (!anvil_json_is_object(ep)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`endpoint` must be an object, not %s", anvil__epc_json_kind(ep));
    }
    uint32_t at;
    ANVIL__EPC_ADD(cx, endpoints, endpoint_count, 1, &at);
    *out = at;
    struct anvil__ep_endpoint result = {0, ANVIL__EP_NONE, 0, 0};
    size_t saved = anvil__epc_push_name(cx, "url");
    const struct anvil_json *url = anvil_json_object_get_cstr(ep, "url");
    if (!url) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "an endpoint needs a `url`");
    }
    int rc = anvil__epc_string_expr(cx, url, "the url", &result.url);
    if (rc != ANVIL_OK) {
        return rc;
    }
    anvil__epc_pop(cx, saved);
    const struct anvil_json *props = anvil_json_object_get_cstr(ep, "properties");
    if (props && !anvil_json_is_null(props)) {
        saved = anvil__epc_push_name(cx, "properties");
        if (!anvil_json_is_object(props)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "must be an object, not %s", anvil__epc_json_kind(props));
        }
        if (anvil_json_len(props) > 0) {
            rc = s_props(cx, props, 1, &result.properties);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        anvil__epc_pop(cx, saved);
    }
    const struct anvil_json *headers = anvil_json_object_get_cstr(ep, "headers");
    if (headers && !anvil_json_is_null(headers)) {
        saved = anvil__epc_push_name(cx, "headers");
        if (!anvil_json_is_object(headers)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "must be an object, not %s", anvil__epc_json_kind(headers));
        }
        size_t n = anvil_json_len(headers);
        uint32_t first;
        ANVIL__EPC_ADD(cx, headers, header_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(headers, i);
            struct anvil_str_view name = anvil_json_member_key(m);
            size_t hsaved = anvil__epc_push_key(cx, name);
            if (!anvil_json_is_array(&m->value)) {
                return anvil__epc_fail(cx, ANVIL_EMODEL, "the values of a header must be an array, not %s",
                                       anvil__epc_json_kind(&m->value));
            }
            struct anvil__ep_header h = {NULL, 0, (uint32_t)anvil_json_len(&m->value)};
            rc = s_key(cx, name, &h.name);
            if (rc != ANVIL_OK) {
                return rc;
            }
            ANVIL__EPC_ADD(cx, args, arg_count, h.value_count, &h.value_first);
            for (size_t j = 0; j < h.value_count; j++) {
                size_t vsaved = anvil__epc_push(cx, ANVIL__EPC_SEG_ITEM, j, NULL);
                uint32_t e;
                rc = anvil__epc_string_expr(cx, anvil_json_array_at(&m->value, j), "a header value", &e);
                if (rc != ANVIL_OK) {
                    return rc;
                }
                cx->r->args[h.value_first + j] = e;
                anvil__epc_pop(cx, vsaved);
            }
            cx->r->headers[first + i] = h;
            anvil__epc_pop(cx, hsaved);
        }
        result.header_first = first;
        result.header_count = (uint32_t)n;
        anvil__epc_pop(cx, saved);
    }
    cx->r->endpoints[at] = result;
    return ANVIL_OK;
}

/* ---- rules ---- */

static int s_rules(struct anvil__epc *cx, const struct anvil_json *list, uint32_t parent, size_t depth);

static int s_condition(struct anvil__epc *cx, const struct anvil_json *c, struct anvil__ep_cond *out) {
    if (!anvil_json_is_object(c) || !anvil_json_object_get_cstr(c, "fn")) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a condition must be a function object {\"fn\", \"argv\"}");
    }
    int rc = anvil__epc_function(cx, c, 1, &out->expr);
    if (rc != ANVIL_OK) {
        return rc;
    }
    out->slot = ANVIL__EP_NO_SLOT;
    const struct anvil_json *assign = anvil_json_object_get_cstr(c, "assign");
    if (!assign) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_string(assign) || anvil_json_len(assign) == 0) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`assign` must be a non-empty name");
    }
    struct anvil_str_view name = anvil_json_string(assign);
    if (anvil__ep_param_lookup(cx->r, name) >= 0) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`assign`: `%.*s` would shadow the parameter of that name",
                               ANVIL__EPC_SHOW(name));
    }
    for (size_t i = 0; i < cx->var_count; i++) {
        if (anvil__sv_same(cx->vars[i].name, name)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "`assign`: `%.*s` would shadow the variable of that name in scope",
                                   ANVIL__EPC_SHOW(name));
        }
    }
    if (cx->var_count >= ANVIL__EPC_MAX_VARIABLES) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "more than %d variables in scope", ANVIL__EPC_MAX_VARIABLES);
    }
    uint32_t id;
    rc = anvil__epc_intern(cx, name, &id);
    if (rc != ANVIL_OK) {
        return rc;
    }
    out->slot = (uint32_t)(cx->r->param_count + cx->var_count);
    cx->vars[cx->var_count].name = cx->r->strings[id];
    cx->vars[cx->var_count].type = cx->r->exprs[out->expr].type;
    cx->var_count++;
    if (cx->var_count > cx->r->var_slots) {
        cx->r->var_slots = (uint32_t)cx->var_count;
    }
    return ANVIL_OK;
}

static int s_rule(struct anvil__epc *cx, const struct anvil_json *rule, uint32_t parent, uint32_t position,
                  size_t depth, uint32_t *out) {
    int rc = anvil__epc_count_node(cx);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (!anvil_json_is_object(rule)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a rule must be an object, not %s", anvil__epc_json_kind(rule));
    }
    const struct anvil_json *type = anvil_json_object_get_cstr(rule, "type");
    struct anvil_str_view t = anvil_json_string(type);
    uint8_t kind;
    if (anvil_sv_eq_cstr(t, "endpoint")) {
        kind = ANVIL__EPR_ENDPOINT;
    } else if (anvil_sv_eq_cstr(t, "error")) {
        kind = ANVIL__EPR_ERROR;
    } else if (anvil_sv_eq_cstr(t, "tree")) {
        kind = ANVIL__EPR_TREE;
    } else if (!anvil_json_is_string(type)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a rule needs a `type` (endpoint, error or tree)");
    } else {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "unknown rule type `%.*s` (endpoint, error or tree)",
                               ANVIL__EPC_SHOW(t));
    }
    uint32_t at;
    ANVIL__EPC_ADD(cx, rules, rule_count, 1, &at);
    *out = at;
    struct anvil__ep_rule r = {kind, 0, 0, ANVIL__EP_NONE, parent, position, 0};
    const struct anvil_json *conds = anvil_json_object_get_cstr(rule, "conditions");
    if (conds && !anvil_json_is_array(conds)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`conditions` must be an array, not %s", anvil__epc_json_kind(conds));
    }
    size_t scope = cx->var_count;
    r.cond_count = (uint32_t)anvil_json_len(conds);
    ANVIL__EPC_ADD(cx, conds, cond_count, r.cond_count, &r.cond_first);
    for (size_t i = 0; i < r.cond_count; i++) {
        size_t saved = anvil__epc_push(cx, ANVIL__EPC_SEG_CONDITIONS, i, NULL);
        rc = anvil__epc_count_node(cx);
        if (rc != ANVIL_OK) {
            return rc;
        }
        struct anvil__ep_cond c;
        rc = s_condition(cx, anvil_json_array_at(conds, i), &c);
        if (rc != ANVIL_OK) {
            return rc;
        }
        cx->r->conds[r.cond_first + i] = c;
        anvil__epc_pop(cx, saved);
    }
    switch (kind) {
    case ANVIL__EPR_ENDPOINT: {
        size_t saved = anvil__epc_push_name(cx, "endpoint");
        rc = s_endpoint(cx, anvil_json_object_get_cstr(rule, "endpoint"), &r.result);
        anvil__epc_pop(cx, saved);
        break;
    }
    case ANVIL__EPR_ERROR: {
        size_t saved = anvil__epc_push_name(cx, "error");
        const struct anvil_json *err = anvil_json_object_get_cstr(rule, "error");
        rc = err ? anvil__epc_string_expr(cx, err, "the error", &r.result)
                 : anvil__epc_fail(cx, ANVIL_EMODEL, "an error rule needs an `error` message");
        anvil__epc_pop(cx, saved);
        break;
    }
    default: {
        const struct anvil_json *sub = anvil_json_object_get_cstr(rule, "rules");
        if (!anvil_json_is_array(sub)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "a tree rule needs a `rules` array");
        }
        if (depth + 1 > cx->max_depth) {
            return anvil__epc_fail(cx, ANVIL_ELIMIT, "tree rules nested more than %zu deep", cx->max_depth);
        }
        r.result = (uint32_t)anvil_json_len(sub);
        /* Store the rule before its sub-rules are numbered after it. */
        cx->r->rules[at] = r;
        rc = s_rules(cx, sub, at, depth + 1);
        r = cx->r->rules[at];
        break;
    }
    }
    /* The rule's variables fall out of scope. */
    cx->var_count = scope;
    if (rc == ANVIL_OK) {
        cx->r->rules[at] = r;
    }
    return rc;
}

static int s_rules(struct anvil__epc *cx, const struct anvil_json *list, uint32_t parent, size_t depth) {
    uint32_t prev = ANVIL__EP_NONE;
    size_t n = anvil_json_len(list);
    for (size_t i = 0; i < n; i++) {
        size_t saved = anvil__epc_push(cx, ANVIL__EPC_SEG_RULES, i, NULL);
        uint32_t at = ANVIL__EP_NONE;
        int rc = s_rule(cx, anvil_json_array_at(list, i), parent, (uint32_t)i, depth, &at);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (prev != ANVIL__EP_NONE) {
            cx->r->rules[prev].next = at;
        }
        prev = at;
        anvil__epc_pop(cx, saved);
    }
    return ANVIL_OK;
}

/* ---- parameters ---- */

static bool s_nocase(struct anvil_str_view a, const char *b) {
    return anvil_sv_eq_ascii_nocase(a, anvil_sv_from_cstr(b));
}

static int s_default(struct anvil__epc *cx, struct anvil_endpoint_param *p, const struct anvil_json *v,
                     struct anvil__ep_value *value) {
    bool ok = false;
    switch (p->type) {
    case ANVIL_ENDPOINT_PARAM_STRING:
        ok = anvil_json_is_string(v);
        break;
    case ANVIL_ENDPOINT_PARAM_BOOLEAN:
        ok = anvil_json_is_bool(v);
        break;
    default:
        ok = anvil_json_is_array(v);
        for (size_t i = 0; ok && i < anvil_json_len(v); i++) {
            ok = anvil_json_is_string(anvil_json_array_at(v, i));
        }
        break;
    }
    if (!ok) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "the default must be %s, not %s",
                               anvil__epc_type_name(anvil__epc_param_type(p->type)), anvil__epc_json_kind(v));
    }
    struct anvil_json *copy = anvil_arena_alloc(cx->r->arena, sizeof *copy, 0);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    int rc = anvil_json_copy(cx->r->arena, v, copy);
    if (rc != ANVIL_OK) {
        return rc;
    }
    p->default_value = copy;
    if (anvil_json_len(copy) > UINT32_MAX - 1) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "the default is too long");
    }
    value->len = (uint32_t)anvil_json_len(copy);
    if (p->type == ANVIL_ENDPOINT_PARAM_STRING) {
        value->kind = ANVIL__EPV_STR;
        value->u.s = anvil_json_string_ptr(copy);
    } else if (p->type == ANVIL_ENDPOINT_PARAM_BOOLEAN) {
        value->kind = ANVIL__EPV_BOOL;
        value->len = 0;
        value->u.b = anvil_json_bool(copy);
    } else {
        value->kind = ANVIL__EPV_JSON_ARRAY;
        value->u.items = anvil_json_array_at(copy, 0);
    }
    return ANVIL_OK;
}

static int s_param(struct anvil__epc *cx, const struct anvil_json_member *m, struct anvil_endpoint_param *p,
                   struct anvil__ep_value *def) {
    struct anvil_str_view name = anvil_json_member_key(m);
    const struct anvil_json *v = &m->value;
    for (size_t i = 0; i < name.len; i++) {
        char c = name.ptr[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alpha && !(i > 0 && ((c >= '0' && c <= '9') || c == '_'))) {
            return anvil__epc_fail(cx, ANVIL_EMODEL,
                                   "`%.*s` is not a parameter name (a letter, then letters and digits)",
                                   ANVIL__EPC_SHOW(name));
        }
    }
    if (!anvil_json_is_object(v)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a parameter must be an object, not %s", anvil__epc_json_kind(v));
    }
    char *copy = anvil_arena_strndup(cx->r->arena, name.ptr, name.len);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    p->name = anvil_sv(copy, name.len);
    const struct anvil_json *type = anvil_json_object_get_cstr(v, "type");
    struct anvil_str_view t = anvil_json_string(type);
    /* botocore's files write "String" and "Boolean": types compare without case. */
    if (s_nocase(t, "string")) {
        p->type = ANVIL_ENDPOINT_PARAM_STRING;
    } else if (s_nocase(t, "boolean")) {
        p->type = ANVIL_ENDPOINT_PARAM_BOOLEAN;
    } else if (s_nocase(t, "stringArray")) {
        p->type = ANVIL_ENDPOINT_PARAM_STRING_ARRAY;
    } else if (!anvil_json_is_string(type)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a parameter needs a `type` (string, boolean or stringArray)");
    } else {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "unknown parameter type `%.*s` (string, boolean or stringArray)",
                               ANVIL__EPC_SHOW(t));
    }
    const struct anvil_json *builtin = anvil_json_object_get_cstr(v, "builtIn");
    if (builtin) {
        if (!anvil_json_is_string(builtin)) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "`builtIn` must be a string, not %s",
                                   anvil__epc_json_kind(builtin));
        }
        struct anvil_str_view b = anvil_json_string(builtin);
        char *bcopy = anvil_arena_strndup(cx->r->arena, b.ptr, b.len);
        if (!bcopy) {
            return ANVIL_ENOMEM;
        }
        p->builtin = anvil_sv(bcopy, b.len);
    } else {
        p->builtin = anvil_sv("", 0);
    }
    const struct anvil_json *required = anvil_json_object_get_cstr(v, "required");
    if (required && !anvil_json_is_bool(required)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`required` must be a boolean, not %s",
                               anvil__epc_json_kind(required));
    }
    p->required = anvil_json_bool(required);
    const struct anvil_json *deprecated = anvil_json_object_get_cstr(v, "deprecated");
    if (deprecated) {
        const struct anvil_json *msg = anvil_json_object_get_cstr(deprecated, "message");
        const struct anvil_json *since = anvil_json_object_get_cstr(deprecated, "since");
        if (!anvil_json_is_object(deprecated) || (msg && !anvil_json_is_string(msg)) ||
            (since && !anvil_json_is_string(since))) {
            return anvil__epc_fail(cx, ANVIL_EMODEL, "`deprecated` must be an object of strings {message, since}");
        }
    }
    const struct anvil_json *dflt = anvil_json_object_get_cstr(v, "default");
    if (dflt && !anvil_json_is_null(dflt)) {
        size_t saved = anvil__epc_push_name(cx, "default");
        int rc = s_default(cx, p, dflt, def);
        if (rc != ANVIL_OK) {
            return rc;
        }
        anvil__epc_pop(cx, saved);
        /* A default implies required (the spec makes rule sets say both). */
        p->required = true;
    }
    return ANVIL_OK;
}

static int s_params(struct anvil__epc *cx, const struct anvil_json *params) {
    struct anvil_endpoint_rules *r = cx->r;
    size_t n = anvil_json_len(params);
    if (n > cx->max_nodes || n > UINT32_MAX / 4) {
        return anvil__epc_fail(cx, ANVIL_ELIMIT, "more than %zu parameters", cx->max_nodes);
    }
    if (n == 0) {
        return ANVIL_OK;
    }
    r->params = anvil_arena_alloc(r->arena, n * sizeof *r->params, 0);
    r->param_defaults = anvil_arena_alloc(r->arena, n * sizeof *r->param_defaults, 0);
    size_t cap = 8;
    while (cap < n * 2) {
        cap *= 2;
    }
    r->param_slots = anvil_arena_alloc(r->arena, cap * sizeof *r->param_slots, 0);
    /* Lower-cased hashes: names must differ in more than case (the spec, for idiomatic renames). */
    uint32_t *nocase = anvil_mem_calloc(cx->alloc, cap, sizeof *nocase);
    if (!r->params || !r->param_defaults || !r->param_slots || !nocase) {
        anvil_mem_release(cx->alloc, nocase);
        return ANVIL_ENOMEM;
    }
    memset(r->params, 0, n * sizeof *r->params);
    memset(r->param_defaults, 0, n * sizeof *r->param_defaults);
    memset(r->param_slots, 0, cap * sizeof *r->param_slots);
    r->param_mask = (uint32_t)(cap - 1);
    int rc = ANVIL_OK;
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(params, i);
        struct anvil_str_view name = anvil_json_member_key(m);
        if (name.len == 0) {
            rc = anvil__epc_fail(cx, ANVIL_EMODEL, "a parameter needs a name");
            break;
        }
        size_t saved = anvil__epc_push_key(cx, name);
        rc = s_param(cx, m, &r->params[i], &r->param_defaults[i]);
        if (rc != ANVIL_OK) {
            break;
        }
        uint32_t h = 2166136261u;
        for (size_t k = 0; k < name.len; k++) {
            unsigned char c = (unsigned char)name.ptr[k];
            h = (h ^ (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c)) * 16777619u;
        }
        uint32_t slot = h & r->param_mask;
        while (nocase[slot] && !anvil_sv_eq_ascii_nocase(r->params[nocase[slot] - 1].name, name)) {
            slot = (slot + 1) & r->param_mask;
        }
        if (nocase[slot]) {
            struct anvil_str_view other = r->params[nocase[slot] - 1].name;
            rc = anvil__epc_fail(cx, ANVIL_EMODEL, "the parameters `%.*s` and `%.*s` differ only in case",
                                 ANVIL__EPC_SHOW(other), ANVIL__EPC_SHOW(name));
            break;
        }
        nocase[slot] = (uint32_t)i + 1;
        slot = anvil__ep_hash(name.ptr, name.len) & r->param_mask;
        while (r->param_slots[slot]) {
            slot = (slot + 1) & r->param_mask;
        }
        r->param_slots[slot] = (uint32_t)i + 1;
        r->param_count = i + 1;
        anvil__epc_pop(cx, saved);
    }
    anvil_mem_release(cx->alloc, nocase);
    return rc;
}

/* ---- the rule set ---- */

static int s_compile(struct anvil__epc *cx, const struct anvil_json *rs) {
    if (!anvil_json_is_object(rs)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a rule set must be an object, not %s", anvil__epc_json_kind(rs));
    }
    const struct anvil_json *version = anvil_json_object_get_cstr(rs, "version");
    if (!anvil_json_is_string(version)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a rule set needs a `version` string");
    }
    struct anvil_str_view ver = anvil_json_string(version);
    /* 1.0, 1.1, 1.3, ...: the 1.x line, whose features this engine has. */
    uint64_t minor = 0;
    if (ver.len >= 3 && ver.ptr[1] == '.') {
        /* "1.1", "1.10", "1.1.2": the number after the first dot. */
        size_t end = 2;
        while (end < ver.len && ver.ptr[end] >= '0' && ver.ptr[end] <= '9') {
            end++;
        }
        if (end == 2 || anvil_sv_parse_u64(anvil_sv(ver.ptr + 2, end - 2), UINT32_MAX, &minor) != ANVIL_OK) {
            minor = UINT64_MAX;
        }
    }
    if (ver.len == 0 || ver.ptr[0] != '1' || (ver.len > 1 && ver.ptr[1] != '.') || minor == UINT64_MAX) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "unsupported rules engine version `%.*s` (anvil supports 1.x)",
                               ANVIL__EPC_SHOW(ver));
    }
    cx->minor = (unsigned)minor;
    cx->version = ver;
    const struct anvil_json *params = anvil_json_object_get_cstr(rs, "parameters");
    if (params && !anvil_json_is_object(params)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "`parameters` must be an object, not %s",
                               anvil__epc_json_kind(params));
    }
    size_t saved = anvil__epc_push_name(cx, "parameters");
    int rc = s_params(cx, params);
    if (rc != ANVIL_OK) {
        return rc;
    }
    anvil__epc_pop(cx, saved);
    const struct anvil_json *rules = anvil_json_object_get_cstr(rs, "rules");
    if (!anvil_json_is_array(rules)) {
        return anvil__epc_fail(cx, ANVIL_EMODEL, "a rule set needs a `rules` array%s",
                               anvil_json_object_get_cstr(rs, "nodes") ? " (an endpointBdd is not supported)" : "");
    }
    rc = s_rules(cx, rules, ANVIL__EP_NONE, 0);
    if (rc != ANVIL_OK) {
        return rc;
    }
    cx->r->root = cx->r->rule_count ? 0 : ANVIL__EP_NONE;
    return ANVIL_OK;
}

void anvil_endpoint_rules_destroy(struct anvil_endpoint_rules *rules) {
    if (!rules) {
        return;
    }
    struct anvil_allocator *a = rules->allocator;
    anvil_mem_release(a, rules->strings);
    anvil_mem_release(a, rules->exprs);
    anvil_mem_release(a, rules->args);
    anvil_mem_release(a, rules->tparts);
    anvil_mem_release(a, rules->steps);
    anvil_mem_release(a, rules->conds);
    anvil_mem_release(a, rules->rules);
    anvil_mem_release(a, rules->endpoints);
    anvil_mem_release(a, rules->headers);
    anvil_mem_release(a, rules->props);
    anvil_mem_release(a, rules->prop_members);
    anvil_mem_release(a, rules->prop_items);
    anvil_mem_release(a, rules->scalars);
    anvil_arena_destroy(rules->arena);
    anvil_mem_release(a, rules);
}

int anvil_endpoint_rules_compile(struct anvil_allocator *allocator, const struct anvil_json *rule_set,
                                 const struct anvil_endpoint_rules_options *options, struct anvil_endpoint_rules **out,
                                 struct anvil_diag *diag) {
    if (!out || !rule_set) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint rules: no rule set or no place for the result");
    }
    *out = NULL;
    anvil_diag_clear(diag);
    struct anvil_endpoint_rules *r = anvil_mem_calloc(allocator, 1, sizeof *r);
    struct anvil__epc *cx = anvil_mem_calloc(allocator, 1, sizeof *cx);
    if (!r || !cx) {
        anvil_mem_release(allocator, r);
        anvil_mem_release(allocator, cx);
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "endpoint rules: out of memory");
    }
    r->allocator = allocator;
    r->root = ANVIL__EP_NONE;
    cx->segs = anvil_mem_calloc(allocator, ANVIL__EPC_MAX_SEGMENTS, sizeof *cx->segs);
    cx->r = r;
    cx->alloc = allocator;
    cx->diag = diag;
    cx->max_depth = options && options->max_depth ? options->max_depth : ANVIL__EPC_DEFAULT_MAX_DEPTH;
    if (cx->max_depth > ANVIL__EPC_MAX_DEPTH_CAP) {
        cx->max_depth = ANVIL__EPC_MAX_DEPTH_CAP;
    }
    cx->max_nodes = options && options->max_nodes ? options->max_nodes : ANVIL__EPC_DEFAULT_MAX_NODES;
    r->partitions = options && options->partitions ? options->partitions : anvil_partitions_builtin();
    int rc = r->partitions->count && cx->segs ? ANVIL_OK : ANVIL_ENOMEM;
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(allocator, NULL, &r->arena);
    }
    if (rc == ANVIL_OK) {
        rc = s_compile(cx, rule_set);
    }
    anvil_mem_release(allocator, cx->intern);
    anvil_mem_release(allocator, cx->segs);
    anvil_mem_release(allocator, cx);
    if (rc != ANVIL_OK) {
        if (rc == ANVIL_ENOMEM) {
            anvil_diag_set(diag, rc, 0, 0, 0, "endpoint rules: out of memory");
        }
        anvil_endpoint_rules_destroy(r);
        return rc;
    }
    *out = r;
    return ANVIL_OK;
}

/* ---- reading compiled rules ---- */

size_t anvil_endpoint_rules_param_count(const struct anvil_endpoint_rules *rules) {
    return rules ? rules->param_count : 0;
}

const struct anvil_endpoint_param *anvil_endpoint_rules_param_at(const struct anvil_endpoint_rules *rules,
                                                                 size_t index) {
    return rules && index < rules->param_count ? &rules->params[index] : NULL;
}

long anvil_endpoint_rules_param_index(const struct anvil_endpoint_rules *rules, struct anvil_str_view name) {
    return rules ? anvil__ep_param_lookup(rules, name) : -1;
}

void anvil_endpoint_rule_path(const struct anvil_endpoint_rules *rules, size_t rule, char *out, size_t size) {
    if (!out || size == 0) {
        return;
    }
    out[0] = '\0';
    if (!rules || rule >= rules->rule_count) {
        return;
    }
    /* Positions from the rule up to the top, then written top-down. */
    uint32_t chain[ANVIL__EPC_MAX_DEPTH_CAP + 1];
    size_t n = 0;
    for (uint32_t at = (uint32_t)rule; at != ANVIL__EP_NONE && n < ANVIL_ARRAY_LEN(chain);
         at = rules->rules[at].parent) {
        chain[n++] = rules->rules[at].position;
    }
    size_t len = 0;
    while (n > 0 && len + 1 < size) {
        int w = snprintf(out + len, size - len, "%srules[%u]", len ? "." : "", (unsigned)chain[--n]);
        if (w < 0 || (size_t)w >= size - len) {
            /* Whole segments only. */
            out[len] = '\0';
            break;
        }
        len += (size_t)w;
    }
}
