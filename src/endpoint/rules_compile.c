/*
 * Compiling a rule set: the JSON document is walked once and turned into
 * the flat arrays of endpoint_internal.h. Every name is resolved here (a
 * reference to a parameter index or a variable slot, a function to its
 * opcode, a getAttr path to its steps), every type is checked where the
 * rule set shows it, and every limit is applied, so that resolving has
 * nothing left to look up or to refuse but the values it is given.
 */

#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "endpoint/endpoint_internal.h"
#include "json/json_internal.h"

#define S_DEFAULT_MAX_DEPTH 64
#define S_DEFAULT_MAX_NODES 1000000
/* max_depth is taken as at most this: compiling and resolving recurse once per level. */
#define S_MAX_DEPTH_CAP 1024
/* Most variables in scope at once (each resolution keeps one value per slot on its stack). */
#define S_MAX_VARIABLES 256

struct s_var {
    struct anvil_str_view name;
    uint8_t type;
};

enum s_seg_kind { S_SEG_NAME = 0, S_SEG_RULES, S_SEG_CONDITIONS, S_SEG_ARGV, S_SEG_ITEM };

struct s_seg {
    uint8_t kind;
    /* The index, or the name's length. */
    size_t n;
    const char *name;
};

/* Deepest position kept: trees, functions and properties at their caps, with room to spare. */
#define S_MAX_SEGMENTS 4096

struct s_cx {
    struct anvil_endpoint_rules *r;
    struct anvil_allocator *alloc;
    struct anvil_diag *diag;
    size_t max_depth, max_nodes, nodes;
    /* The rule set's version, 1.<minor>: features since 1.1 need minor >= 1. */
    unsigned minor;
    struct anvil_str_view version;
    /* Where we are, as segments ("rules[3]", "conditions[1]", "argv[0]", "url"), rendered only for messages. */
    struct s_seg *segs;
    size_t seg_count;
    /* Variables in scope, innermost last; a variable's slot is its index here. */
    struct s_var vars[S_MAX_VARIABLES];
    size_t var_count;
    /* Interned strings: string id + 1 per slot. */
    uint32_t *intern;
    uint32_t intern_mask;
    size_t strings_cap, exprs_cap, args_cap, tparts_cap, steps_cap, conds_cap, rules_cap, endpoints_cap, headers_cap,
        props_cap, prop_members_cap, prop_items_cap, scalars_cap;
};

/* ---- errors and positions ---- */

/* One segment as text into `out` (room `size`); returns its length. */
static size_t s_seg_text(const struct s_seg *seg, bool first, char *out, size_t size) {
    static const char *const names[] = {"", "rules", "conditions", "argv", ""};
    const char *dot = first || seg->kind == S_SEG_ITEM ? "" : ".";
    int n;
    if (seg->kind == S_SEG_NAME) {
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
static void s_position(const struct s_cx *cx, char *out, size_t size) {
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

ANVIL_PRINTF(3, 4)
static int s_fail(struct s_cx *cx, int code, const char *fmt, ...) {
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
    s_position(cx, where, room < 64 ? 64 : room);
    return anvil_diag_set(cx->diag, code, 0, 0, 0, "%s: %s", where, what);
}

/* Enters a segment, returning what to give s_pop() to leave it. */
static size_t s_push(struct s_cx *cx, enum s_seg_kind kind, size_t n, const char *name) {
    size_t saved = cx->seg_count;
    if (cx->seg_count < S_MAX_SEGMENTS) {
        cx->segs[cx->seg_count++] = (struct s_seg){(uint8_t)kind, n, name};
    }
    return saved;
}

static size_t s_push_name(struct s_cx *cx, const char *name) {
    return s_push(cx, S_SEG_NAME, strlen(name), name);
}

static size_t s_push_key(struct s_cx *cx, struct anvil_str_view key) {
    return s_push(cx, S_SEG_NAME, key.len, key.ptr);
}

static void s_pop(struct s_cx *cx, size_t saved) {
    cx->seg_count = saved;
}

static int s_count_node(struct s_cx *cx) {
    if (++cx->nodes > cx->max_nodes) {
        return s_fail(cx, ANVIL_ELIMIT, "more than %zu rules, conditions and expressions", cx->max_nodes);
    }
    return ANVIL_OK;
}

static const char *s_type_name(unsigned type) {
    static const char *const names[] = {"any value", "a string",    "a boolean", "an integer",
                                        "an array",  "a partition", "a URL",     "an ARN"};
    return type < ANVIL_ARRAY_LEN(names) ? names[type] : "unknown";
}

static const char *s_json_kind(const struct anvil_json *v) {
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[anvil_json_type(v)];
}

/* A view cut short for messages. */
#define S_SHOW(sv) anvil__ep_cut((sv), 60), (sv).ptr

/* ---- growing arrays ---- */

static int s_reserve(struct s_cx *cx, void **items, size_t *cap, size_t count, size_t more, size_t elem) {
    if (count + more <= *cap) {
        return ANVIL_OK;
    }
    size_t want = *cap ? *cap : 32;
    while (want < count + more) {
        want *= 2;
    }
    if (want > (size_t)UINT32_MAX / 2) {
        return s_fail(cx, ANVIL_ELIMIT, "the rule set is too large");
    }
    void *p = *items;
    if (anvil_mem_realloc(cx->alloc, &p, want * elem) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    *items = p;
    *cap = want;
    return ANVIL_OK;
}

/* Makes room for `more` items of `array` (a field of the rules), then `*at` is where they go. */
#define S_ADD(cx, array, count, more, at)                                                                              \
    do {                                                                                                               \
        void *p_ = (cx)->r->array;                                                                                     \
        int rc_ = s_reserve((cx), &p_, &(cx)->array##_cap, (cx)->r->count, (more), sizeof *(cx)->r->array);            \
        (cx)->r->array = p_;                                                                                           \
        if (rc_ != ANVIL_OK) {                                                                                         \
            return rc_;                                                                                                \
        }                                                                                                              \
        *(at) = (uint32_t)(cx)->r->count;                                                                              \
        (cx)->r->count += (more);                                                                                      \
    } while (0)

/* ---- strings ---- */

static int s_intern_grow(struct s_cx *cx) {
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
static int s_intern(struct s_cx *cx, struct anvil_str_view s, uint32_t *id) {
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
    S_ADD(cx, strings, string_count, 1, &at);
    cx->r->strings[at] = anvil_sv(copy, s.len);
    cx->intern[slot] = at + 1;
    *id = at;
    return ANVIL_OK;
}

static int s_key(struct s_cx *cx, struct anvil_str_view s, const struct anvil_json_key **out) {
    *out = anvil__json_key_new(cx->r->arena, s.ptr, s.len, anvil_json_hash(s.ptr, s.len));
    return *out ? ANVIL_OK : ANVIL_ENOMEM;
}

/* ---- expressions ---- */

static int s_new_expr(struct s_cx *cx, uint8_t op, uint8_t type, uint32_t *out) {
    int rc = s_count_node(cx);
    if (rc != ANVIL_OK) {
        return rc;
    }
    S_ADD(cx, exprs, expr_count, 1, out);
    struct anvil__ep_expr *e = &cx->r->exprs[*out];
    memset(e, 0, sizeof *e);
    e->op = op;
    e->type = type;
    return ANVIL_OK;
}

static bool s_type_fits(unsigned want, unsigned got) {
    return want == ANVIL__EPT_ANY || got == ANVIL__EPT_ANY || want == got;
}

static unsigned s_param_type(enum anvil_endpoint_param_type t) {
    return t == ANVIL_ENDPOINT_PARAM_STRING    ? ANVIL__EPT_STRING
           : t == ANVIL_ENDPOINT_PARAM_BOOLEAN ? ANVIL__EPT_BOOL
                                               : ANVIL__EPT_LIST;
}

static long s_param_lookup(const struct anvil_endpoint_rules *r, struct anvil_str_view name) {
    if (!r->param_slots) {
        return -1;
    }
    for (uint32_t slot = anvil__ep_hash(name.ptr, name.len) & r->param_mask; r->param_slots[slot];
         slot = (slot + 1) & r->param_mask) {
        uint32_t i = r->param_slots[slot] - 1;
        if (anvil__sv_same(r->params[i].name, name)) {
            return (long)i;
        }
    }
    return -1;
}

/* A reference to a parameter or a variable in scope. */
static int s_ref(struct s_cx *cx, struct anvil_str_view name, uint32_t *out) {
    for (size_t i = cx->var_count; i > 0; i--) {
        if (anvil__sv_same(cx->vars[i - 1].name, name)) {
            int rc = s_new_expr(cx, ANVIL__EPO_REF, cx->vars[i - 1].type, out);
            if (rc == ANVIL_OK) {
                cx->r->exprs[*out].a = (uint32_t)(cx->r->param_count + i - 1);
            }
            return rc;
        }
    }
    long p = s_param_lookup(cx->r, name);
    if (p < 0) {
        return s_fail(cx, ANVIL_EMODEL, "`%.*s` is not a parameter or a variable in scope", S_SHOW(name));
    }
    int rc = s_new_expr(cx, ANVIL__EPO_REF, (uint8_t)s_param_type(cx->r->params[p].type), out);
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
static int s_key_step(struct s_cx *cx, struct anvil_str_view key, struct anvil__ep_step *step, unsigned *type) {
    if (key.len == 0) {
        return s_fail(cx, ANVIL_EMODEL, "getAttr: a path has an empty part");
    }
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_fields); i++) {
        if (anvil_sv_eq_cstr(key, s_fields[i].name) && s_type_fits(s_fields[i].record, *type)) {
            step->field = s_fields[i].field;
            step->index = 0;
            *type = *type == ANVIL__EPT_ANY ? ANVIL__EPT_ANY : s_fields[i].type;
            return ANVIL_OK;
        }
    }
    if (*type == ANVIL__EPT_PARTITION || *type == ANVIL__EPT_URL || *type == ANVIL__EPT_ARN) {
        return s_fail(cx, ANVIL_EMODEL, "getAttr: %s has no field `%.*s`", s_type_name(*type), S_SHOW(key));
    }
    return s_fail(cx, ANVIL_EMODEL, "getAttr: cannot take `%.*s` of %s", S_SHOW(key), s_type_name(*type));
}

/*
 * A getAttr path ("a.b[2]", "resourceId[-1]") as steps on a value of static
 * type `*type`. As Smithy parses it: split on '.', a part `key[n]` is a key
 * then an index; negative indexes count from the end.
 */
static int s_path(struct s_cx *cx, struct anvil_str_view path, uint32_t *first, uint16_t *count, unsigned *type) {
    if (path.len == 0) {
        return s_fail(cx, ANVIL_EMODEL, "getAttr: the path is empty");
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
            S_ADD(cx, steps, step_count, 1, &s);
            int rc = s_key_step(cx, key, &cx->r->steps[s], type);
            if (rc != ANVIL_OK) {
                return rc;
            }
            n++;
        }
        if (bracket != SIZE_MAX) {
            struct anvil_str_view idx = anvil_sv(part.ptr + bracket + 1, part.len - bracket - 1);
            if (idx.len < 2 || idx.ptr[idx.len - 1] != ']') {
                return s_fail(cx, ANVIL_EMODEL, "getAttr: `%.*s` must end with `]`", S_SHOW(part));
            }
            idx.len--;
            bool negative = idx.ptr[0] == '-';
            if (negative && cx->minor < 1) {
                return s_fail(cx, ANVIL_EMODEL,
                              "getAttr: a negative index needs rules engine version 1.1, but the rule set says %.*s",
                              S_SHOW(cx->version));
            }
            uint64_t value;
            if (anvil_sv_parse_u64(anvil_sv(idx.ptr + negative, idx.len - negative), INT32_MAX, &value) != ANVIL_OK) {
                return s_fail(cx, ANVIL_EMODEL, "getAttr: `%.*s` is not an index", S_SHOW(part));
            }
            if (!s_type_fits(ANVIL__EPT_LIST, *type)) {
                return s_fail(cx, ANVIL_EMODEL, "getAttr: cannot index %s", s_type_name(*type));
            }
            uint32_t s;
            S_ADD(cx, steps, step_count, 1, &s);
            cx->r->steps[s].field = ANVIL__EPF_NONE;
            cx->r->steps[s].index = negative ? -(int32_t)value : (int32_t)value;
            *type = *type == ANVIL__EPT_ANY ? ANVIL__EPT_ANY : ANVIL__EPT_STRING;
            n++;
        }
        at = end + 1;
    }
    if (n > UINT16_MAX) {
        return s_fail(cx, ANVIL_ELIMIT, "getAttr: the path has too many parts");
    }
    *first = start;
    *count = (uint16_t)n;
    return ANVIL_OK;
}

/* getAttr of reference `ref` (already compiled) along `path`. */
static int s_get_attr(struct s_cx *cx, uint32_t target, struct anvil_str_view path, uint32_t *out) {
    unsigned type = cx->r->exprs[target].type;
    uint32_t first;
    uint16_t count;
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
static int s_template_part(struct s_cx *cx, struct anvil_str_view inner, uint32_t *out) {
    size_t hash = anvil__sv_index(inner, '#');
    struct anvil_str_view name = hash == SIZE_MAX ? inner : anvil_sv(inner.ptr, hash);
    if (name.len == 0) {
        return s_fail(cx, ANVIL_EMODEL, "template: `{%.*s}` names nothing", S_SHOW(inner));
    }
    uint32_t ref;
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
static int s_template(struct s_cx *cx, struct anvil_str_view s, uint32_t *out) {
    if (anvil__sv_index(s, '{') == SIZE_MAX && anvil__sv_index(s, '}') == SIZE_MAX) {
        uint32_t id;
        int rc = s_intern(cx, s, &id);
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
            rc = s_fail(cx, ANVIL_EMODEL, "template: unmatched `}` in \"%.*s\"", S_SHOW(s));
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
            rc = s_intern(cx, anvil_sv(lit, lit_len), &id);
            if (rc != ANVIL_OK) {
                break;
            }
            if ((rc = s_count_node(cx)) != ANVIL_OK) {
                break;
            }
            void *p = cx->r->tparts;
            rc = s_reserve(cx, &p, &cx->tparts_cap, cx->r->tpart_count, 1, sizeof *cx->r->tparts);
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
            rc = s_fail(cx, ANVIL_EMODEL, "template: unmatched `{` in \"%.*s\"", S_SHOW(s));
            break;
        }
        uint32_t e;
        rc = s_template_part(cx, anvil_sv(s.ptr + i + 1, close - i - 1), &e);
        if (rc != ANVIL_OK) {
            break;
        }
        if (!s_type_fits(ANVIL__EPT_STRING, cx->r->exprs[e].type)) {
            rc = s_fail(cx, ANVIL_EMODEL, "template: `{%.*s}` is %s, not a string",
                        S_SHOW(anvil_sv(s.ptr + i + 1, close - i - 1)), s_type_name(cx->r->exprs[e].type));
            break;
        }
        void *p = cx->r->tparts;
        rc = s_reserve(cx, &p, &cx->tparts_cap, cx->r->tpart_count, 1, sizeof *cx->r->tparts);
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
        rc = s_intern(cx, anvil_sv("", 0), &id);
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
        return s_fail(cx, ANVIL_ELIMIT, "template: more than %u parts", (unsigned)UINT16_MAX);
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

static int s_expr(struct s_cx *cx, const struct anvil_json *v, size_t depth, uint32_t *out);

/*
 * Fuses the commonest condition shapes into one step: isSet(ref),
 * not(isSet(ref)), booleanEquals(ref, literal) and stringEquals(ref,
 * literal), either way round. The expressions they fold stay in the
 * array, unused.
 */
static void s_fuse(struct s_cx *cx, uint32_t index) {
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
static int s_function(struct s_cx *cx, const struct anvil_json *obj, size_t depth, uint32_t *out) {
    if (depth > cx->max_depth) {
        return s_fail(cx, ANVIL_ELIMIT, "functions nested more than %zu deep", cx->max_depth);
    }
    const struct anvil_json *fn = anvil_json_object_get_cstr(obj, "fn");
    const struct anvil_json *argv = anvil_json_object_get_cstr(obj, "argv");
    if (!anvil_json_is_string(fn)) {
        return s_fail(cx, ANVIL_EMODEL, "`fn` must be a function name, not %s", s_json_kind(fn));
    }
    struct anvil_str_view name = anvil_json_string(fn);
    size_t f = 0;
    while (f < ANVIL_ARRAY_LEN(s_functions) && !anvil_sv_eq_cstr(name, s_functions[f].name)) {
        f++;
    }
    if (f == ANVIL_ARRAY_LEN(s_functions)) {
        return s_fail(cx, ANVIL_EMODEL, "unknown function `%.*s`", S_SHOW(name));
    }
    if (!anvil_json_is_array(argv)) {
        return s_fail(cx, ANVIL_EMODEL, "`%s`: `argv` must be an array, not %s", s_functions[f].name,
                      s_json_kind(argv));
    }
    size_t argc = anvil_json_len(argv);
    uint8_t want = s_functions[f].argc;
    if (want == S_VARIADIC ? argc < 2 : argc != want) {
        if (want == S_VARIADIC) {
            return s_fail(cx, ANVIL_EMODEL, "`%s` takes two or more arguments, not %zu", s_functions[f].name, argc);
        }
        return s_fail(cx, ANVIL_EMODEL, "`%s` takes %u argument%s, not %zu", s_functions[f].name, want,
                      want == 1 ? "" : "s", argc);
    }
    if (argc > UINT16_MAX) {
        return s_fail(cx, ANVIL_ELIMIT, "`%s`: more than %u arguments", s_functions[f].name, (unsigned)UINT16_MAX);
    }
    uint8_t op = s_functions[f].op;
    if ((op == ANVIL__EPO_COALESCE || op == ANVIL__EPO_ITE || op == ANVIL__EPO_SPLIT) && cx->minor < 1) {
        return s_fail(cx, ANVIL_EMODEL, "`%s` needs rules engine version 1.1, but the rule set says %.*s",
                      s_functions[f].name, S_SHOW(cx->version));
    }
    size_t saved = s_push(cx, S_SEG_ARGV, 0, NULL);
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
            return s_fail(cx, ANVIL_EMODEL, "getAttr needs an object or an array, not %s", s_type_name(t));
        }
        s_pop(cx, saved);
        s_push(cx, S_SEG_ARGV, 1, NULL);
        const struct anvil_json *path = anvil_json_array_at(argv, 1);
        if (!anvil_json_is_string(path)) {
            return s_fail(cx, ANVIL_EMODEL, "getAttr: the path must be a string, not %s", s_json_kind(path));
        }
        rc = s_get_attr(cx, target, anvil_json_string(path), out);
        s_pop(cx, saved);
        return rc;
    }
    s_pop(cx, saved);
    uint32_t first;
    S_ADD(cx, args, arg_count, argc, &first);
    unsigned same = ANVIL__EPT_ANY;
    for (size_t i = 0; i < argc; i++) {
        saved = s_push(cx, S_SEG_ARGV, i, NULL);
        uint32_t a;
        rc = s_expr(cx, anvil_json_array_at(argv, i), depth + 1, &a);
        if (rc != ANVIL_OK) {
            return rc;
        }
        cx->r->args[first + i] = a;
        unsigned got = cx->r->exprs[a].type;
        unsigned need = want == S_VARIADIC ? ANVIL__EPT_ANY : s_functions[f].arg[i];
        if (!s_type_fits(need, got)) {
            return s_fail(cx, ANVIL_EMODEL, "`%s` needs %s here, not %s", s_functions[f].name, s_type_name(need),
                          s_type_name(got));
        }
        if ((op == ANVIL__EPO_COALESCE || (op == ANVIL__EPO_ITE && i > 0)) && got != ANVIL__EPT_ANY) {
            if (same != ANVIL__EPT_ANY && same != got) {
                return s_fail(cx, ANVIL_EMODEL, "`%s` needs arguments of one type, not %s and %s", s_functions[f].name,
                              s_type_name(same), s_type_name(got));
            }
            same = got;
        }
        s_pop(cx, saved);
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
            s_push(cx, S_SEG_ARGV, 1, NULL);
            return s_fail(cx, ANVIL_EMODEL, "`split`: the delimiter is empty");
        }
    }
    if (op == ANVIL__EPO_SPLIT || op == ANVIL__EPO_SUBSTRING) {
        /* Indexes and limits are literals: checked here rather than on every call. */
        for (size_t i = 1; i < argc; i++) {
            const struct anvil__ep_expr *lit = &cx->r->exprs[cx->r->args[first + i]];
            if (lit->op == ANVIL__EPO_INT && lit->x.i < 0) {
                saved = s_push(cx, S_SEG_ARGV, i, NULL);
                return s_fail(cx, ANVIL_EMODEL, "`%s`: %d must not be negative", s_functions[f].name, (int)lit->x.i);
            }
        }
    }
    return ANVIL_OK;
}

/* An argument: a template string, a boolean, an integer, an array of strings, a reference or a function. */
static int s_expr(struct s_cx *cx, const struct anvil_json *v, size_t depth, uint32_t *out) {
    int rc;
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_STRING:
        return s_template(cx, anvil_json_string(v), out);
    case ANVIL_JSON_BOOL:
        rc = s_new_expr(cx, ANVIL__EPO_BOOL, ANVIL__EPT_BOOL, out);
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].a = anvil_json_bool(v);
        }
        return rc;
    case ANVIL_JSON_NUMBER:
        if (!anvil_json_is_int(v) || anvil_json_int(v) < INT32_MIN || anvil_json_int(v) > INT32_MAX) {
            return s_fail(cx, ANVIL_EMODEL, "a number argument must be an integer that fits 32 bits");
        }
        rc = s_new_expr(cx, ANVIL__EPO_INT, ANVIL__EPT_INT, out);
        if (rc == ANVIL_OK) {
            cx->r->exprs[*out].x.i = (int32_t)anvil_json_int(v);
        }
        return rc;
    case ANVIL_JSON_ARRAY: {
        size_t n = anvil_json_len(v);
        if (n > UINT16_MAX) {
            return s_fail(cx, ANVIL_ELIMIT, "an array argument has more than %u items", (unsigned)UINT16_MAX);
        }
        /* The items go to the string table side by side (not interned), so the list is a view of it. */
        uint32_t first;
        S_ADD(cx, strings, string_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json *item = anvil_json_array_at(v, i);
            if (!anvil_json_is_string(item)) {
                return s_fail(cx, ANVIL_EMODEL, "an array argument may hold strings only, not %s", s_json_kind(item));
            }
            struct anvil_str_view s = anvil_json_string(item);
            char *copy = anvil_arena_strndup(cx->r->arena, s.ptr, s.len);
            if (!copy) {
                return ANVIL_ENOMEM;
            }
            cx->r->strings[first + i] = anvil_sv(copy, s.len);
        }
        /* The intern table indexes strings by position: keep it valid for the new ones. */
        rc = s_intern_grow(cx);
        if (rc == ANVIL_OK) {
            rc = s_new_expr(cx, ANVIL__EPO_LIST, ANVIL__EPT_LIST, out);
        }
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
                return s_fail(cx, ANVIL_EMODEL, "`ref` must be a string, not %s", s_json_kind(ref));
            }
            return s_ref(cx, anvil_json_string(ref), out);
        }
        if (anvil_json_object_get_cstr(v, "fn")) {
            return s_function(cx, v, depth, out);
        }
        return s_fail(cx, ANVIL_EMODEL, "an object here must be a reference {\"ref\"} or a function {\"fn\"}");
    }
    default:
        return s_fail(cx, ANVIL_EMODEL, "an argument may not be null");
    }
}

/* A value that must be a string: a template, a reference or a function (an endpoint's url, an error, a header). */
static int s_string_expr(struct s_cx *cx, const struct anvil_json *v, const char *what, uint32_t *out) {
    if (!anvil_json_is_string(v) && !anvil_json_is_object(v)) {
        return s_fail(cx, ANVIL_EMODEL, "%s must be a string, a reference or a function, not %s", what, s_json_kind(v));
    }
    int rc = s_expr(cx, v, 1, out);
    if (rc == ANVIL_OK && !s_type_fits(ANVIL__EPT_STRING, cx->r->exprs[*out].type)) {
        return s_fail(cx, ANVIL_EMODEL, "%s must be a string, not %s", what, s_type_name(cx->r->exprs[*out].type));
    }
    return rc;
}

/* ---- endpoints ---- */

static int s_props(struct s_cx *cx, const struct anvil_json *v, size_t depth, uint32_t *out) {
    if (depth > cx->max_depth) {
        return s_fail(cx, ANVIL_ELIMIT, "properties nested more than %zu deep", cx->max_depth);
    }
    int rc = s_count_node(cx);
    if (rc != ANVIL_OK) {
        return rc;
    }
    uint32_t at;
    S_ADD(cx, props, prop_count, 1, &at);
    *out = at;
    size_t n = anvil_json_len(v);
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_OBJECT: {
        uint32_t first;
        S_ADD(cx, prop_members, prop_member_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(v, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            size_t saved = s_push_key(cx, key);
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
            s_pop(cx, saved);
        }
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_OBJECT, first, (uint32_t)n};
        return ANVIL_OK;
    }
    case ANVIL_JSON_ARRAY: {
        uint32_t first;
        S_ADD(cx, prop_items, prop_item_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            size_t saved = s_push(cx, S_SEG_ITEM, i, NULL);
            uint32_t item;
            rc = s_props(cx, anvil_json_array_at(v, i), depth + 1, &item);
            if (rc != ANVIL_OK) {
                return rc;
            }
            cx->r->prop_items[first + i] = item;
            s_pop(cx, saved);
        }
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_ARRAY, first, (uint32_t)n};
        return ANVIL_OK;
    }
    case ANVIL_JSON_STRING: {
        uint32_t e;
        rc = s_template(cx, anvil_json_string(v), &e);
        if (rc != ANVIL_OK) {
            return rc;
        }
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_EXPR, e, 0};
        return ANVIL_OK;
    }
    default: {
        /* Booleans, numbers and null carry no pointers: kept as they are. */
        uint32_t s;
        S_ADD(cx, scalars, scalar_count, 1, &s);
        cx->r->scalars[s] = *v;
        cx->r->props[at] = (struct anvil__ep_prop){ANVIL__EPP_SCALAR, s, 0};
        return ANVIL_OK;
    }
    }
}

static int s_endpoint(struct s_cx *cx, const struct anvil_json *ep, uint32_t *out) {
    if (!anvil_json_is_object(ep)) {
        return s_fail(cx, ANVIL_EMODEL, "`endpoint` must be an object, not %s", s_json_kind(ep));
    }
    uint32_t at;
    S_ADD(cx, endpoints, endpoint_count, 1, &at);
    *out = at;
    struct anvil__ep_endpoint result = {0, ANVIL__EP_NONE, 0, 0};
    size_t saved = s_push_name(cx, "url");
    const struct anvil_json *url = anvil_json_object_get_cstr(ep, "url");
    if (!url) {
        return s_fail(cx, ANVIL_EMODEL, "an endpoint needs a `url`");
    }
    int rc = s_string_expr(cx, url, "the url", &result.url);
    if (rc != ANVIL_OK) {
        return rc;
    }
    s_pop(cx, saved);
    const struct anvil_json *props = anvil_json_object_get_cstr(ep, "properties");
    if (props && !anvil_json_is_null(props)) {
        saved = s_push_name(cx, "properties");
        if (!anvil_json_is_object(props)) {
            return s_fail(cx, ANVIL_EMODEL, "must be an object, not %s", s_json_kind(props));
        }
        if (anvil_json_len(props) > 0) {
            rc = s_props(cx, props, 1, &result.properties);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        s_pop(cx, saved);
    }
    const struct anvil_json *headers = anvil_json_object_get_cstr(ep, "headers");
    if (headers && !anvil_json_is_null(headers)) {
        saved = s_push_name(cx, "headers");
        if (!anvil_json_is_object(headers)) {
            return s_fail(cx, ANVIL_EMODEL, "must be an object, not %s", s_json_kind(headers));
        }
        size_t n = anvil_json_len(headers);
        uint32_t first;
        S_ADD(cx, headers, header_count, n, &first);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(headers, i);
            struct anvil_str_view name = anvil_json_member_key(m);
            size_t hsaved = s_push_key(cx, name);
            if (!anvil_json_is_array(&m->value)) {
                return s_fail(cx, ANVIL_EMODEL, "the values of a header must be an array, not %s",
                              s_json_kind(&m->value));
            }
            struct anvil__ep_header h = {NULL, 0, (uint32_t)anvil_json_len(&m->value)};
            rc = s_key(cx, name, &h.name);
            if (rc != ANVIL_OK) {
                return rc;
            }
            S_ADD(cx, args, arg_count, h.value_count, &h.value_first);
            for (size_t j = 0; j < h.value_count; j++) {
                size_t vsaved = s_push(cx, S_SEG_ITEM, j, NULL);
                uint32_t e;
                rc = s_string_expr(cx, anvil_json_array_at(&m->value, j), "a header value", &e);
                if (rc != ANVIL_OK) {
                    return rc;
                }
                cx->r->args[h.value_first + j] = e;
                s_pop(cx, vsaved);
            }
            cx->r->headers[first + i] = h;
            s_pop(cx, hsaved);
        }
        result.header_first = first;
        result.header_count = (uint32_t)n;
        s_pop(cx, saved);
    }
    cx->r->endpoints[at] = result;
    return ANVIL_OK;
}

/* ---- rules ---- */

static int s_rules(struct s_cx *cx, const struct anvil_json *list, uint32_t parent, size_t depth);

static int s_condition(struct s_cx *cx, const struct anvil_json *c, struct anvil__ep_cond *out) {
    if (!anvil_json_is_object(c) || !anvil_json_object_get_cstr(c, "fn")) {
        return s_fail(cx, ANVIL_EMODEL, "a condition must be a function object {\"fn\", \"argv\"}");
    }
    int rc = s_function(cx, c, 1, &out->expr);
    if (rc != ANVIL_OK) {
        return rc;
    }
    out->slot = ANVIL__EP_NO_SLOT;
    const struct anvil_json *assign = anvil_json_object_get_cstr(c, "assign");
    if (!assign) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_string(assign) || anvil_json_len(assign) == 0) {
        return s_fail(cx, ANVIL_EMODEL, "`assign` must be a non-empty name");
    }
    struct anvil_str_view name = anvil_json_string(assign);
    if (s_param_lookup(cx->r, name) >= 0) {
        return s_fail(cx, ANVIL_EMODEL, "`assign`: `%.*s` would shadow the parameter of that name", S_SHOW(name));
    }
    for (size_t i = 0; i < cx->var_count; i++) {
        if (anvil__sv_same(cx->vars[i].name, name)) {
            return s_fail(cx, ANVIL_EMODEL, "`assign`: `%.*s` would shadow the variable of that name in scope",
                          S_SHOW(name));
        }
    }
    if (cx->var_count >= S_MAX_VARIABLES) {
        return s_fail(cx, ANVIL_ELIMIT, "more than %d variables in scope", S_MAX_VARIABLES);
    }
    uint32_t id;
    rc = s_intern(cx, name, &id);
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

static int s_rule(struct s_cx *cx, const struct anvil_json *rule, uint32_t parent, uint32_t position, size_t depth,
                  uint32_t *out) {
    int rc = s_count_node(cx);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (!anvil_json_is_object(rule)) {
        return s_fail(cx, ANVIL_EMODEL, "a rule must be an object, not %s", s_json_kind(rule));
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
        return s_fail(cx, ANVIL_EMODEL, "a rule needs a `type` (endpoint, error or tree)");
    } else {
        return s_fail(cx, ANVIL_EMODEL, "unknown rule type `%.*s` (endpoint, error or tree)", S_SHOW(t));
    }
    uint32_t at;
    S_ADD(cx, rules, rule_count, 1, &at);
    *out = at;
    struct anvil__ep_rule r = {kind, 0, 0, ANVIL__EP_NONE, parent, position, 0};
    const struct anvil_json *conds = anvil_json_object_get_cstr(rule, "conditions");
    if (conds && !anvil_json_is_array(conds)) {
        return s_fail(cx, ANVIL_EMODEL, "`conditions` must be an array, not %s", s_json_kind(conds));
    }
    size_t scope = cx->var_count;
    r.cond_count = (uint32_t)anvil_json_len(conds);
    S_ADD(cx, conds, cond_count, r.cond_count, &r.cond_first);
    for (size_t i = 0; i < r.cond_count; i++) {
        size_t saved = s_push(cx, S_SEG_CONDITIONS, i, NULL);
        rc = s_count_node(cx);
        if (rc != ANVIL_OK) {
            return rc;
        }
        struct anvil__ep_cond c;
        rc = s_condition(cx, anvil_json_array_at(conds, i), &c);
        if (rc != ANVIL_OK) {
            return rc;
        }
        cx->r->conds[r.cond_first + i] = c;
        s_pop(cx, saved);
    }
    switch (kind) {
    case ANVIL__EPR_ENDPOINT: {
        size_t saved = s_push_name(cx, "endpoint");
        rc = s_endpoint(cx, anvil_json_object_get_cstr(rule, "endpoint"), &r.result);
        s_pop(cx, saved);
        break;
    }
    case ANVIL__EPR_ERROR: {
        size_t saved = s_push_name(cx, "error");
        const struct anvil_json *err = anvil_json_object_get_cstr(rule, "error");
        rc = err ? s_string_expr(cx, err, "the error", &r.result)
                 : s_fail(cx, ANVIL_EMODEL, "an error rule needs an `error` message");
        s_pop(cx, saved);
        break;
    }
    default: {
        const struct anvil_json *sub = anvil_json_object_get_cstr(rule, "rules");
        if (!anvil_json_is_array(sub)) {
            return s_fail(cx, ANVIL_EMODEL, "a tree rule needs a `rules` array");
        }
        if (depth + 1 > cx->max_depth) {
            return s_fail(cx, ANVIL_ELIMIT, "tree rules nested more than %zu deep", cx->max_depth);
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

static int s_rules(struct s_cx *cx, const struct anvil_json *list, uint32_t parent, size_t depth) {
    uint32_t prev = ANVIL__EP_NONE;
    size_t n = anvil_json_len(list);
    for (size_t i = 0; i < n; i++) {
        size_t saved = s_push(cx, S_SEG_RULES, i, NULL);
        uint32_t at = ANVIL__EP_NONE;
        int rc = s_rule(cx, anvil_json_array_at(list, i), parent, (uint32_t)i, depth, &at);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (prev != ANVIL__EP_NONE) {
            cx->r->rules[prev].next = at;
        }
        prev = at;
        s_pop(cx, saved);
    }
    return ANVIL_OK;
}

/* ---- parameters ---- */

static bool s_nocase(struct anvil_str_view a, const char *b) {
    return anvil_sv_eq_ascii_nocase(a, anvil_sv_from_cstr(b));
}

static int s_default(struct s_cx *cx, struct anvil_endpoint_param *p, const struct anvil_json *v,
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
        return s_fail(cx, ANVIL_EMODEL, "the default must be %s, not %s", s_type_name(s_param_type(p->type)),
                      s_json_kind(v));
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
        return s_fail(cx, ANVIL_ELIMIT, "the default is too long");
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

static int s_param(struct s_cx *cx, const struct anvil_json_member *m, struct anvil_endpoint_param *p,
                   struct anvil__ep_value *def) {
    struct anvil_str_view name = anvil_json_member_key(m);
    const struct anvil_json *v = &m->value;
    for (size_t i = 0; i < name.len; i++) {
        char c = name.ptr[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alpha && !(i > 0 && ((c >= '0' && c <= '9') || c == '_'))) {
            return s_fail(cx, ANVIL_EMODEL, "`%.*s` is not a parameter name (a letter, then letters and digits)",
                          S_SHOW(name));
        }
    }
    if (!anvil_json_is_object(v)) {
        return s_fail(cx, ANVIL_EMODEL, "a parameter must be an object, not %s", s_json_kind(v));
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
        return s_fail(cx, ANVIL_EMODEL, "a parameter needs a `type` (string, boolean or stringArray)");
    } else {
        return s_fail(cx, ANVIL_EMODEL, "unknown parameter type `%.*s` (string, boolean or stringArray)", S_SHOW(t));
    }
    const struct anvil_json *builtin = anvil_json_object_get_cstr(v, "builtIn");
    if (builtin) {
        if (!anvil_json_is_string(builtin)) {
            return s_fail(cx, ANVIL_EMODEL, "`builtIn` must be a string, not %s", s_json_kind(builtin));
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
        return s_fail(cx, ANVIL_EMODEL, "`required` must be a boolean, not %s", s_json_kind(required));
    }
    p->required = anvil_json_bool(required);
    const struct anvil_json *deprecated = anvil_json_object_get_cstr(v, "deprecated");
    if (deprecated) {
        const struct anvil_json *msg = anvil_json_object_get_cstr(deprecated, "message");
        const struct anvil_json *since = anvil_json_object_get_cstr(deprecated, "since");
        if (!anvil_json_is_object(deprecated) || (msg && !anvil_json_is_string(msg)) ||
            (since && !anvil_json_is_string(since))) {
            return s_fail(cx, ANVIL_EMODEL, "`deprecated` must be an object of strings {message, since}");
        }
    }
    const struct anvil_json *dflt = anvil_json_object_get_cstr(v, "default");
    if (dflt && !anvil_json_is_null(dflt)) {
        size_t saved = s_push_name(cx, "default");
        int rc = s_default(cx, p, dflt, def);
        if (rc != ANVIL_OK) {
            return rc;
        }
        s_pop(cx, saved);
        /* A default implies required (the spec makes rule sets say both). */
        p->required = true;
    }
    return ANVIL_OK;
}

static int s_params(struct s_cx *cx, const struct anvil_json *params) {
    struct anvil_endpoint_rules *r = cx->r;
    size_t n = anvil_json_len(params);
    if (n > cx->max_nodes || n > UINT32_MAX / 4) {
        return s_fail(cx, ANVIL_ELIMIT, "more than %zu parameters", cx->max_nodes);
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
            rc = s_fail(cx, ANVIL_EMODEL, "a parameter needs a name");
            break;
        }
        size_t saved = s_push_key(cx, name);
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
            rc = s_fail(cx, ANVIL_EMODEL, "the parameters `%.*s` and `%.*s` differ only in case", S_SHOW(other),
                        S_SHOW(name));
            break;
        }
        nocase[slot] = (uint32_t)i + 1;
        slot = anvil__ep_hash(name.ptr, name.len) & r->param_mask;
        while (r->param_slots[slot]) {
            slot = (slot + 1) & r->param_mask;
        }
        r->param_slots[slot] = (uint32_t)i + 1;
        r->param_count = i + 1;
        s_pop(cx, saved);
    }
    anvil_mem_release(cx->alloc, nocase);
    return rc;
}

/* ---- the rule set ---- */

static int s_compile(struct s_cx *cx, const struct anvil_json *rs) {
    if (!anvil_json_is_object(rs)) {
        return s_fail(cx, ANVIL_EMODEL, "a rule set must be an object, not %s", s_json_kind(rs));
    }
    const struct anvil_json *version = anvil_json_object_get_cstr(rs, "version");
    if (!anvil_json_is_string(version)) {
        return s_fail(cx, ANVIL_EMODEL, "a rule set needs a `version` string");
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
        return s_fail(cx, ANVIL_EMODEL, "unsupported rules engine version `%.*s` (anvil supports 1.x)", S_SHOW(ver));
    }
    cx->minor = (unsigned)minor;
    cx->version = ver;
    const struct anvil_json *params = anvil_json_object_get_cstr(rs, "parameters");
    if (params && !anvil_json_is_object(params)) {
        return s_fail(cx, ANVIL_EMODEL, "`parameters` must be an object, not %s", s_json_kind(params));
    }
    size_t saved = s_push_name(cx, "parameters");
    int rc = s_params(cx, params);
    if (rc != ANVIL_OK) {
        return rc;
    }
    s_pop(cx, saved);
    const struct anvil_json *rules = anvil_json_object_get_cstr(rs, "rules");
    if (!anvil_json_is_array(rules)) {
        return s_fail(cx, ANVIL_EMODEL, "a rule set needs a `rules` array%s",
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
    struct s_cx *cx = anvil_mem_calloc(allocator, 1, sizeof *cx);
    if (!r || !cx) {
        anvil_mem_release(allocator, r);
        anvil_mem_release(allocator, cx);
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "endpoint rules: out of memory");
    }
    r->allocator = allocator;
    r->root = ANVIL__EP_NONE;
    cx->segs = anvil_mem_calloc(allocator, S_MAX_SEGMENTS, sizeof *cx->segs);
    cx->r = r;
    cx->alloc = allocator;
    cx->diag = diag;
    cx->max_depth = options && options->max_depth ? options->max_depth : S_DEFAULT_MAX_DEPTH;
    if (cx->max_depth > S_MAX_DEPTH_CAP) {
        cx->max_depth = S_MAX_DEPTH_CAP;
    }
    cx->max_nodes = options && options->max_nodes ? options->max_nodes : S_DEFAULT_MAX_NODES;
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
    return rules ? s_param_lookup(rules, name) : -1;
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
    uint32_t chain[S_MAX_DEPTH_CAP + 1];
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
