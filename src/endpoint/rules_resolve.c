/*
 * Resolving: the compiled rules are walked with the parameter values, in
 * order, conditions left to right, trees depth first. Values point at the
 * rules, the parameters, the partitions or a scratch area on the stack
 * (templates, uriEncode, parsed URLs and ARNs, split), whose top is put
 * back when a rule is left, since its variables are then out of scope.
 * Only the endpoint (or the error's message) is made in the caller's arena.
 */

#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>

#include "anvil/status.h"
#include "endpoint/endpoint_internal.h"
#include "json/json_internal.h"

/* A positive status inside this file: the rules of a list all failed. */
#define S_NO_MATCH 1

struct s_run {
    const struct anvil_endpoint_rules *r;
    /* Parameters, then variables (the slots REF expressions and assignments name). */
    struct anvil__ep_value *vals;
    char *scratch;
    size_t top, cap;
    struct anvil_arena *arena;
    struct anvil_diag *diag;
    /* Where evaluation is, for messages: a rule, and its condition (ANVIL__EP_NONE: its result). */
    uint32_t rule, cond;
};

static const char *const s_op_names[] = {
    [ANVIL__EPO_IS_SET] = "isSet",
    [ANVIL__EPO_NOT] = "not",
    [ANVIL__EPO_GET_ATTR] = "getAttr",
    [ANVIL__EPO_STRING_EQUALS] = "stringEquals",
    [ANVIL__EPO_BOOLEAN_EQUALS] = "booleanEquals",
    [ANVIL__EPO_SUBSTRING] = "substring",
    [ANVIL__EPO_URI_ENCODE] = "uriEncode",
    [ANVIL__EPO_PARSE_URL] = "parseURL",
    [ANVIL__EPO_IS_VALID_HOST_LABEL] = "isValidHostLabel",
    [ANVIL__EPO_SPLIT] = "split",
    [ANVIL__EPO_COALESCE] = "coalesce",
    [ANVIL__EPO_ITE] = "ite",
    [ANVIL__EPO_AWS_PARTITION] = "aws.partition",
    [ANVIL__EPO_AWS_PARSE_ARN] = "aws.parseArn",
    [ANVIL__EPO_AWS_IS_VIRTUAL_HOSTABLE_S3_BUCKET] = "aws.isVirtualHostableS3Bucket",
    [ANVIL__EPO_IS_SET_REF] = "isSet",
    [ANVIL__EPO_NOT_SET_REF] = "isSet",
    [ANVIL__EPO_BOOL_EQ_REF] = "booleanEquals",
    [ANVIL__EPO_STR_EQ_REF] = "stringEquals",
};

static const char *s_kind_name(uint32_t kind) {
    static const char *const names[] = {"not set",  "a boolean",   "an integer", "a string", "an array",
                                        "an array", "a partition", "a URL",      "an ARN"};
    return kind < ANVIL_ARRAY_LEN(names) ? names[kind] : "unknown";
}

ANVIL_NOINLINE ANVIL_PRINTF(3, 4) static int s_fail(struct s_run *run, int code, const char *fmt, ...) {
    char where[160];
    anvil_endpoint_rule_path(run->r, run->rule, where, sizeof where);
    char what[ANVIL_DIAG_MESSAGE_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    anvil__ep_trim_utf8(what);
    if (run->cond != ANVIL__EP_NONE) {
        return anvil_diag_set(run->diag, code, 0, 0, 0, "%s.conditions[%u]: %s", where, (unsigned)run->cond, what);
    }
    return anvil_diag_set(run->diag, code, 0, 0, 0, "%s: %s", where, what);
}

ANVIL_NOINLINE static int s_scratch_full(struct s_run *run) {
    return s_fail(run, ANVIL_ELIMIT, "the scratch area (%d bytes) is full", ANVIL_ENDPOINT_SCRATCH_BYTES);
}

ANVIL_NOINLINE static int s_bad_arg(struct s_run *run, const struct anvil__ep_expr *e, unsigned i,
                                    const struct anvil__ep_value *v, const char *want) {
    return s_fail(run, ANVIL_EINVAL, "`%s`: argument %u is %s, not %s", s_op_names[e->op], i + 1, s_kind_name(v->kind),
                  want);
}

static inline void *s_alloc(struct s_run *run, size_t size, size_t align) {
    size_t at = (run->top + align - 1) & ~(align - 1);
    if (at > run->cap || size > run->cap - at) {
        return NULL;
    }
    run->top = at + size;
    return run->scratch + at;
}

static inline struct anvil_str_view s_str(const struct anvil__ep_value *v) {
    return (struct anvil_str_view){v->u.s, v->len};
}

static inline void s_set_str(struct anvil__ep_value *out, const char *p, size_t len) {
    out->kind = ANVIL__EPV_STR;
    out->len = (uint32_t)len;
    out->u.s = p;
}

static inline void s_set_bool(struct anvil__ep_value *out, bool b) {
    out->kind = ANVIL__EPV_BOOL;
    out->len = 0;
    out->u.b = b;
}

static int s_eval(struct s_run *run, uint32_t index, struct anvil__ep_value *out);

/* Argument `i` of function expression `e`, which must be of `kind`. */
static inline int s_arg(struct s_run *run, const struct anvil__ep_expr *e, unsigned i, uint32_t kind,
                        struct anvil__ep_value *out) {
    int rc = s_eval(run, run->r->args[e->a + i], out);
    if (ANVIL_UNLIKELY(rc != ANVIL_OK)) {
        return rc;
    }
    if (ANVIL_UNLIKELY(out->kind != kind)) {
        return s_bad_arg(run, e, i, out, s_kind_name(kind));
    }
    return ANVIL_OK;
}

/* ---- templates ---- */

static int s_part(struct s_run *run, const struct anvil__ep_tpart *part, struct anvil_str_view *out) {
    if (!part->is_expr) {
        *out = run->r->strings[part->id];
        return ANVIL_OK;
    }
    struct anvil__ep_value v;
    int rc = s_eval(run, part->id, &v);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (v.kind != ANVIL__EPV_STR) {
        return s_fail(run, ANVIL_EINVAL, "a template's part is %s, not a string", s_kind_name(v.kind));
    }
    *out = s_str(&v);
    return ANVIL_OK;
}

/*
 * Expands template expression `e` into the scratch area or, with
 * `arena`, into the result (NUL-terminated). Its parts are references
 * and getAttr on them, which never touch the scratch area, so they are
 * evaluated once to measure and once to copy.
 */
static int s_render(struct s_run *run, const struct anvil__ep_expr *e, bool arena, struct anvil_str_view *out) {
    const struct anvil__ep_tpart *parts = &run->r->tparts[e->a];
    size_t total = 0;
    for (unsigned i = 0; i < e->argc; i++) {
        struct anvil_str_view sv = {NULL, 0};
        int rc = s_part(run, &parts[i], &sv);
        if (rc != ANVIL_OK) {
            return rc;
        }
        total += sv.len;
    }
    if (total > UINT32_MAX - 1) {
        return s_fail(run, ANVIL_ELIMIT, "a template expands past 4 GiB");
    }
    char *dest;
    if (arena) {
        dest = anvil__arena_bump(run->arena, total + 1, 1);
        if (!dest) {
            return anvil_arena_exhausted(run->arena) ? s_fail(run, ANVIL_ELIMIT, "the result's arena is full")
                                                     : ANVIL_ENOMEM;
        }
        dest[total] = '\0';
    } else {
        dest = s_alloc(run, total ? total : 1, 1);
        if (!dest) {
            return s_scratch_full(run);
        }
    }
    size_t at = 0;
    for (unsigned i = 0; i < e->argc; i++) {
        struct anvil_str_view sv = {NULL, 0};
        (void)s_part(run, &parts[i], &sv);
        if (sv.len) {
            memcpy(dest + at, sv.ptr, sv.len);
        }
        at += sv.len;
    }
    *out = anvil_sv(dest, total);
    return ANVIL_OK;
}

/* ---- functions ---- */

static int s_get_attr(struct s_run *run, const struct anvil__ep_expr *e, struct anvil__ep_value *out) {
    int rc = s_eval(run, e->a, out);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (out->kind == ANVIL__EPV_NONE) {
        return s_bad_arg(run, e, 0, out, "an object or an array");
    }
    const struct anvil__ep_step *steps = &run->r->steps[e->x.b];
    for (unsigned i = 0; i < e->argc && out->kind != ANVIL__EPV_NONE; i++) {
        const struct anvil__ep_step *st = &steps[i];
        if (st->field == ANVIL__EPF_NONE) {
            if (out->kind != ANVIL__EPV_LIST && out->kind != ANVIL__EPV_JSON_ARRAY) {
                out->kind = ANVIL__EPV_NONE;
                break;
            }
            int64_t n = out->len;
            int64_t k = st->index < 0 ? n + st->index : st->index;
            if (k < 0 || k >= n) {
                out->kind = ANVIL__EPV_NONE;
                break;
            }
            if (out->kind == ANVIL__EPV_LIST) {
                struct anvil_str_view item = out->u.list[k];
                s_set_str(out, item.ptr, item.len);
            } else {
                const struct anvil_json *item = &out->u.items[k];
                s_set_str(out, anvil_json_string_ptr(item), anvil_json_len(item));
            }
            continue;
        }
        switch (out->kind) {
        case ANVIL__EPV_PARTITION: {
            const struct anvil__ep_outputs *p = out->u.partition;
            switch (st->field) {
            case ANVIL__EPF_NAME:
                s_set_str(out, p->name.ptr, p->name.len);
                break;
            case ANVIL__EPF_DNS_SUFFIX:
                s_set_str(out, p->dns_suffix.ptr, p->dns_suffix.len);
                break;
            case ANVIL__EPF_DUAL_STACK_DNS_SUFFIX:
                s_set_str(out, p->dual_stack_dns_suffix.ptr, p->dual_stack_dns_suffix.len);
                break;
            case ANVIL__EPF_IMPLICIT_GLOBAL_REGION:
                s_set_str(out, p->implicit_global_region.ptr, p->implicit_global_region.len);
                break;
            case ANVIL__EPF_SUPPORTS_FIPS:
                s_set_bool(out, p->supports_fips);
                break;
            case ANVIL__EPF_SUPPORTS_DUAL_STACK:
                s_set_bool(out, p->supports_dual_stack);
                break;
            default:
                out->kind = ANVIL__EPV_NONE;
                break;
            }
            break;
        }
        case ANVIL__EPV_URL: {
            const struct anvil__ep_url *u = out->u.url;
            switch (st->field) {
            case ANVIL__EPF_SCHEME:
                s_set_str(out, u->scheme.ptr, u->scheme.len);
                break;
            case ANVIL__EPF_AUTHORITY:
                s_set_str(out, u->authority.ptr, u->authority.len);
                break;
            case ANVIL__EPF_PATH:
                s_set_str(out, u->path.ptr, u->path.len);
                break;
            case ANVIL__EPF_NORMALIZED_PATH:
                s_set_str(out, u->normalized_path.ptr, u->normalized_path.len);
                break;
            case ANVIL__EPF_IS_IP:
                s_set_bool(out, u->is_ip);
                break;
            default:
                out->kind = ANVIL__EPV_NONE;
                break;
            }
            break;
        }
        case ANVIL__EPV_ARN: {
            const struct anvil__ep_arn *a = out->u.arn;
            switch (st->field) {
            case ANVIL__EPF_PARTITION:
                s_set_str(out, a->partition.ptr, a->partition.len);
                break;
            case ANVIL__EPF_SERVICE:
                s_set_str(out, a->service.ptr, a->service.len);
                break;
            case ANVIL__EPF_REGION:
                s_set_str(out, a->region.ptr, a->region.len);
                break;
            case ANVIL__EPF_ACCOUNT_ID:
                s_set_str(out, a->account_id.ptr, a->account_id.len);
                break;
            case ANVIL__EPF_RESOURCE_ID:
                out->kind = ANVIL__EPV_LIST;
                out->len = (uint32_t)a->resource_count;
                out->u.list = a->resource_id;
                break;
            default:
                out->kind = ANVIL__EPV_NONE;
                break;
            }
            break;
        }
        default:
            out->kind = ANVIL__EPV_NONE;
            break;
        }
    }
    return ANVIL_OK;
}

static int s_substring(struct s_run *run, const struct anvil__ep_expr *e, struct anvil__ep_value *out) {
    struct anvil__ep_value s, start, end, reverse;
    int rc = s_arg(run, e, 0, ANVIL__EPV_STR, &s);
    if (rc == ANVIL_OK) {
        rc = s_arg(run, e, 1, ANVIL__EPV_INT, &start);
    }
    if (rc == ANVIL_OK) {
        rc = s_arg(run, e, 2, ANVIL__EPV_INT, &end);
    }
    if (rc == ANVIL_OK) {
        rc = s_arg(run, e, 3, ANVIL__EPV_BOOL, &reverse);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    int64_t len = s.len;
    if (start.u.i < 0 || start.u.i >= end.u.i || end.u.i > len) {
        out->kind = ANVIL__EPV_NONE;
        return ANVIL_OK;
    }
    for (uint32_t i = 0; i < s.len; i++) {
        if ((unsigned char)s.u.s[i] > 127) {
            out->kind = ANVIL__EPV_NONE;
            return ANVIL_OK;
        }
    }
    int64_t from = reverse.u.b ? len - end.u.i : start.u.i;
    s_set_str(out, s.u.s + from, (size_t)(end.u.i - start.u.i));
    return ANVIL_OK;
}

static int s_split(struct s_run *run, const struct anvil__ep_expr *e, struct anvil__ep_value *out) {
    struct anvil__ep_value s, delim, limit;
    int rc = s_arg(run, e, 0, ANVIL__EPV_STR, &s);
    if (rc == ANVIL_OK) {
        rc = s_arg(run, e, 1, ANVIL__EPV_STR, &delim);
    }
    if (rc == ANVIL_OK) {
        rc = s_arg(run, e, 2, ANVIL__EPV_INT, &limit);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (delim.len == 0) {
        return s_fail(run, ANVIL_EINVAL, "`split`: the delimiter is empty");
    }
    if (limit.u.i < 0) {
        return s_fail(run, ANVIL_EINVAL, "`split`: the limit is negative");
    }
    struct anvil_str_view str = s_str(&s), d = s_str(&delim);
    /* Parts go to the scratch area one after another, so they form one array. */
    size_t max = limit.u.i == 0 ? SIZE_MAX : (size_t)limit.u.i;
    struct anvil_str_view *items = NULL;
    size_t n = 0, from = 0;
    for (;;) {
        size_t found = SIZE_MAX;
        if (n + 1 < max) {
            for (size_t i = from; i + d.len <= str.len; i++) {
                if (memcmp(str.ptr + i, d.ptr, d.len) == 0) {
                    found = i;
                    break;
                }
            }
        }
        struct anvil_str_view *slot = s_alloc(run, sizeof *slot, alignof(struct anvil_str_view));
        if (!slot) {
            return s_scratch_full(run);
        }
        if (!items) {
            items = slot;
        }
        size_t stop = found == SIZE_MAX ? str.len : found;
        *slot = anvil_sv(str.ptr + from, stop - from);
        n++;
        if (found == SIZE_MAX) {
            break;
        }
        from = found + d.len;
    }
    out->kind = ANVIL__EPV_LIST;
    out->len = (uint32_t)n;
    out->u.list = items;
    return ANVIL_OK;
}

static int s_parse_arn(struct s_run *run, const struct anvil__ep_expr *e, struct anvil__ep_value *out) {
    struct anvil__ep_value s;
    int rc = s_arg(run, e, 0, ANVIL__EPV_STR, &s);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil__ep_arn *arn = s_alloc(run, sizeof *arn, alignof(struct anvil__ep_arn));
    if (!arn) {
        return s_scratch_full(run);
    }
    struct anvil_str_view resource;
    if (!anvil__ep_parse_arn(s_str(&s), arn, &resource)) {
        out->kind = ANVIL__EPV_NONE;
        return ANVIL_OK;
    }
    size_t n = 1;
    for (size_t i = 0; i < resource.len; i++) {
        n += resource.ptr[i] == ':' || resource.ptr[i] == '/';
    }
    if (n > run->cap / sizeof(struct anvil_str_view)) {
        return s_scratch_full(run);
    }
    struct anvil_str_view *ids = s_alloc(run, n * sizeof *ids, alignof(struct anvil_str_view));
    if (!ids) {
        return s_scratch_full(run);
    }
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= resource.len; i++) {
        if (i == resource.len || resource.ptr[i] == ':' || resource.ptr[i] == '/') {
            ids[k++] = anvil_sv(resource.ptr + start, i - start);
            start = i + 1;
        }
    }
    arn->resource_id = ids;
    arn->resource_count = n;
    out->kind = ANVIL__EPV_ARN;
    out->len = 0;
    out->u.arn = arn;
    return ANVIL_OK;
}

/* The fused condition shapes (see s_fuse() in rules_compile.c): one slot read, no recursion. */
static inline int s_fused(struct s_run *run, const struct anvil__ep_expr *e, struct anvil__ep_value *out) {
    const struct anvil__ep_value *v = &run->vals[e->a];
    switch (e->op) {
    case ANVIL__EPO_IS_SET_REF:
        s_set_bool(out, v->kind != ANVIL__EPV_NONE);
        return ANVIL_OK;
    case ANVIL__EPO_NOT_SET_REF:
        s_set_bool(out, v->kind == ANVIL__EPV_NONE);
        return ANVIL_OK;
    case ANVIL__EPO_BOOL_EQ_REF:
        if (ANVIL_UNLIKELY(v->kind != ANVIL__EPV_BOOL)) {
            return s_bad_arg(run, e, 0, v, "a boolean");
        }
        s_set_bool(out, v->u.b == (e->x.b != 0));
        return ANVIL_OK;
    default: {
        if (ANVIL_UNLIKELY(v->kind != ANVIL__EPV_STR)) {
            return s_bad_arg(run, e, 0, v, "a string");
        }
        struct anvil_str_view lit = run->r->strings[e->x.b];
        s_set_bool(out, v->len == lit.len && (lit.len == 0 || memcmp(v->u.s, lit.ptr, lit.len) == 0));
        return ANVIL_OK;
    }
    }
}

static int s_eval(struct s_run *run, uint32_t index, struct anvil__ep_value *out) {
    const struct anvil_endpoint_rules *r = run->r;
    const struct anvil__ep_expr *e = &r->exprs[index];
    struct anvil__ep_value a, b;
    int rc;
    switch (e->op) {
    case ANVIL__EPO_STR: {
        struct anvil_str_view s = r->strings[e->a];
        s_set_str(out, s.ptr, s.len);
        return ANVIL_OK;
    }
    case ANVIL__EPO_BOOL:
        s_set_bool(out, e->a != 0);
        return ANVIL_OK;
    case ANVIL__EPO_INT:
        out->kind = ANVIL__EPV_INT;
        out->len = 0;
        out->u.i = e->x.i;
        return ANVIL_OK;
    case ANVIL__EPO_LIST:
        out->kind = ANVIL__EPV_LIST;
        out->len = e->argc;
        out->u.list = &r->strings[e->a];
        return ANVIL_OK;
    case ANVIL__EPO_REF:
        *out = run->vals[e->a];
        return ANVIL_OK;
    case ANVIL__EPO_IS_SET_REF:
    case ANVIL__EPO_NOT_SET_REF:
    case ANVIL__EPO_BOOL_EQ_REF:
    case ANVIL__EPO_STR_EQ_REF:
        return s_fused(run, e, out);
    case ANVIL__EPO_TEMPLATE: {
        struct anvil_str_view s;
        rc = s_render(run, e, false, &s);
        if (rc == ANVIL_OK) {
            s_set_str(out, s.ptr, s.len);
        }
        return rc;
    }
    case ANVIL__EPO_IS_SET:
        rc = s_eval(run, r->args[e->a], &a);
        s_set_bool(out, a.kind != ANVIL__EPV_NONE);
        return rc;
    case ANVIL__EPO_NOT:
        rc = s_arg(run, e, 0, ANVIL__EPV_BOOL, &a);
        s_set_bool(out, !a.u.b);
        return rc;
    case ANVIL__EPO_GET_ATTR:
        return s_get_attr(run, e, out);
    case ANVIL__EPO_STRING_EQUALS:
        rc = s_arg(run, e, 0, ANVIL__EPV_STR, &a);
        if (rc == ANVIL_OK) {
            rc = s_arg(run, e, 1, ANVIL__EPV_STR, &b);
        }
        s_set_bool(out, rc == ANVIL_OK && a.len == b.len && (a.len == 0 || memcmp(a.u.s, b.u.s, a.len) == 0));
        return rc;
    case ANVIL__EPO_BOOLEAN_EQUALS:
        rc = s_arg(run, e, 0, ANVIL__EPV_BOOL, &a);
        if (rc == ANVIL_OK) {
            rc = s_arg(run, e, 1, ANVIL__EPV_BOOL, &b);
        }
        s_set_bool(out, rc == ANVIL_OK && a.u.b == b.u.b);
        return rc;
    case ANVIL__EPO_SUBSTRING:
        return s_substring(run, e, out);
    case ANVIL__EPO_URI_ENCODE: {
        rc = s_arg(run, e, 0, ANVIL__EPV_STR, &a);
        if (rc != ANVIL_OK) {
            return rc;
        }
        size_t n = anvil__ep_uri_encoded_len(s_str(&a));
        char *dest = s_alloc(run, n ? n : 1, 1);
        if (!dest) {
            return s_scratch_full(run);
        }
        anvil__ep_uri_encode(s_str(&a), dest);
        s_set_str(out, dest, n);
        return ANVIL_OK;
    }
    case ANVIL__EPO_PARSE_URL: {
        rc = s_arg(run, e, 0, ANVIL__EPV_STR, &a);
        if (rc != ANVIL_OK) {
            return rc;
        }
        struct anvil__ep_url *url = s_alloc(run, sizeof *url, alignof(struct anvil__ep_url));
        if (!url) {
            return s_scratch_full(run);
        }
        if (!anvil__ep_parse_url(s_str(&a), url)) {
            out->kind = ANVIL__EPV_NONE;
            return ANVIL_OK;
        }
        if (!url->normalized_path.ptr) {
            /* The path with the '/' it lacks at its end. */
            char *path = s_alloc(run, url->normalized_path.len, 1);
            if (!path) {
                return s_scratch_full(run);
            }
            memcpy(path, url->path.ptr, url->path.len);
            path[url->path.len] = '/';
            url->normalized_path.ptr = path;
        }
        out->kind = ANVIL__EPV_URL;
        out->len = 0;
        out->u.url = url;
        return ANVIL_OK;
    }
    case ANVIL__EPO_IS_VALID_HOST_LABEL:
    case ANVIL__EPO_AWS_IS_VIRTUAL_HOSTABLE_S3_BUCKET:
        rc = s_arg(run, e, 0, ANVIL__EPV_STR, &a);
        if (rc == ANVIL_OK) {
            rc = s_arg(run, e, 1, ANVIL__EPV_BOOL, &b);
        }
        if (rc != ANVIL_OK) {
            return rc;
        }
        s_set_bool(out, e->op == ANVIL__EPO_IS_VALID_HOST_LABEL
                            ? anvil__ep_is_valid_host_label(s_str(&a), b.u.b)
                            : anvil__ep_is_virtual_hostable_s3_bucket(s_str(&a), b.u.b));
        return ANVIL_OK;
    case ANVIL__EPO_SPLIT:
        return s_split(run, e, out);
    case ANVIL__EPO_COALESCE:
        /* The first argument that is set, evaluated lazily; else the last one's (none). */
        for (unsigned i = 0; i < e->argc; i++) {
            rc = s_eval(run, r->args[e->a + i], out);
            if (rc != ANVIL_OK || out->kind != ANVIL__EPV_NONE) {
                return rc;
            }
        }
        return ANVIL_OK;
    case ANVIL__EPO_ITE:
        rc = s_arg(run, e, 0, ANVIL__EPV_BOOL, &a);
        if (rc != ANVIL_OK) {
            return rc;
        }
        return s_eval(run, r->args[e->a + (a.u.b ? 1 : 2)], out);
    case ANVIL__EPO_AWS_PARTITION:
        rc = s_arg(run, e, 0, ANVIL__EPV_STR, &a);
        if (rc != ANVIL_OK) {
            return rc;
        }
        out->u.partition = anvil__partitions_lookup(r->partitions, s_str(&a));
        out->kind = out->u.partition ? ANVIL__EPV_PARTITION : ANVIL__EPV_NONE;
        out->len = 0;
        return ANVIL_OK;
    case ANVIL__EPO_AWS_PARSE_ARN:
        return s_parse_arn(run, e, out);
    default:
        return s_fail(run, ANVIL_EINTERNAL, "unknown opcode %u", (unsigned)e->op);
    }
}

/* ---- results ---- */

static int s_arena_fail(struct s_run *run) {
    return anvil_arena_exhausted(run->arena) ? s_fail(run, ANVIL_ELIMIT, "the result's arena is full") : ANVIL_ENOMEM;
}

/* A string-valued expression's value as a copy in the arena. */
static int s_string_result(struct s_run *run, uint32_t index, const char *what, struct anvil_str_view *out) {
    const struct anvil__ep_expr *e = &run->r->exprs[index];
    if (e->op == ANVIL__EPO_TEMPLATE) {
        return s_render(run, e, true, out);
    }
    struct anvil__ep_value v;
    int rc = s_eval(run, index, &v);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (v.kind != ANVIL__EPV_STR) {
        return s_fail(run, ANVIL_EINVAL, "%s is %s, not a string", what, s_kind_name(v.kind));
    }
    char *copy = anvil__arena_bump(run->arena, (size_t)v.len + 1, 1);
    if (!copy) {
        return s_arena_fail(run);
    }
    if (v.len) {
        memcpy(copy, v.u.s, v.len);
    }
    copy[v.len] = '\0';
    *out = anvil_sv(copy, v.len);
    return ANVIL_OK;
}

static int s_json_string(struct s_run *run, uint32_t index, const char *what, struct anvil_json *out) {
    const struct anvil__ep_expr *e = &run->r->exprs[index];
    struct anvil__ep_value v;
    int rc;
    if (e->op == ANVIL__EPO_STR) {
        v.kind = ANVIL__EPV_STR;
        v.len = (uint32_t)run->r->strings[e->a].len;
        v.u.s = run->r->strings[e->a].ptr;
    } else if (e->op == ANVIL__EPO_TEMPLATE) {
        /* Into the scratch area, then copied by the JSON string (short ones live inline). */
        size_t mark = run->top;
        struct anvil_str_view s;
        rc = s_render(run, e, false, &s);
        if (rc != ANVIL_OK) {
            return rc;
        }
        rc = anvil__json_string_value(run->arena, s.ptr, s.len, out);
        run->top = mark;
        return rc == ANVIL_ENOMEM ? s_arena_fail(run) : rc;
    } else {
        rc = s_eval(run, index, &v);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (v.kind != ANVIL__EPV_STR) {
            return s_fail(run, ANVIL_EINVAL, "%s is %s, not a string", what, s_kind_name(v.kind));
        }
    }
    rc = anvil__json_string_value(run->arena, v.u.s, v.len, out);
    return rc == ANVIL_ENOMEM ? s_arena_fail(run) : rc;
}

static int s_key_copy(struct s_run *run, const struct anvil_json_key *k, const struct anvil_json_key **out) {
    *out = anvil__json_key_new(run->arena, k->bytes, k->len, k->hash);
    return *out ? ANVIL_OK : s_arena_fail(run);
}

/* An object of `n` members built in the scratch area, moved into the arena. */
static int s_object(struct s_run *run, struct anvil_json_member *members, size_t n, struct anvil_json *out) {
    size_t unused;
    int rc = anvil__json_object_finish(run->arena, members, n, false, &unused, out);
    return rc == ANVIL_ENOMEM ? s_arena_fail(run) : rc;
}

static int s_prop(struct s_run *run, uint32_t index, struct anvil_json *out) {
    const struct anvil_endpoint_rules *r = run->r;
    const struct anvil__ep_prop *p = &r->props[index];
    switch (p->kind) {
    case ANVIL__EPP_OBJECT: {
        size_t mark = run->top;
        struct anvil_json_member *members =
            s_alloc(run, (p->count ? p->count : 1) * sizeof *members, alignof(struct anvil_json_member));
        if (!members) {
            return s_scratch_full(run);
        }
        for (uint32_t i = 0; i < p->count; i++) {
            const struct anvil__ep_prop_member *m = &r->prop_members[p->a + i];
            int rc = s_key_copy(run, m->key, &members[i].key);
            if (rc == ANVIL_OK) {
                rc = s_prop(run, m->value, &members[i].value);
            }
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        int rc = s_object(run, members, p->count, out);
        run->top = mark;
        return rc;
    }
    case ANVIL__EPP_ARRAY: {
        struct anvil_json *items;
        if (anvil_json_new_array(run->arena, p->count, out, &items) != ANVIL_OK) {
            return s_arena_fail(run);
        }
        for (uint32_t i = 0; i < p->count; i++) {
            int rc = s_prop(run, r->prop_items[p->a + i], &items[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        return ANVIL_OK;
    }
    case ANVIL__EPP_EXPR:
        return s_json_string(run, p->a, "a property", out);
    default:
        *out = r->scalars[p->a];
        return ANVIL_OK;
    }
}

static int s_headers(struct s_run *run, const struct anvil__ep_endpoint *ep, struct anvil_json *out) {
    const struct anvil_endpoint_rules *r = run->r;
    size_t mark = run->top;
    struct anvil_json_member *members =
        s_alloc(run, ep->header_count * sizeof *members, alignof(struct anvil_json_member));
    if (!members) {
        return s_scratch_full(run);
    }
    for (uint32_t i = 0; i < ep->header_count; i++) {
        const struct anvil__ep_header *h = &r->headers[ep->header_first + i];
        struct anvil_json *items;
        int rc = s_key_copy(run, h->name, &members[i].key);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (anvil_json_new_array(run->arena, h->value_count, &members[i].value, &items) != ANVIL_OK) {
            return s_arena_fail(run);
        }
        for (uint32_t j = 0; j < h->value_count; j++) {
            rc = s_json_string(run, r->args[h->value_first + j], "a header value", &items[j]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
    }
    int rc = s_object(run, members, ep->header_count, out);
    run->top = mark;
    return rc;
}

static int s_endpoint(struct s_run *run, uint32_t rule, struct anvil_endpoint *out) {
    const struct anvil__ep_endpoint *ep = &run->r->endpoints[run->r->rules[rule].result];
    run->cond = ANVIL__EP_NONE;
    int rc = s_string_result(run, ep->url, "the url", &out->url);
    if (rc == ANVIL_OK && ep->properties != ANVIL__EP_NONE) {
        rc = s_prop(run, ep->properties, &out->properties);
    }
    if (rc == ANVIL_OK && ep->header_count > 0) {
        rc = s_headers(run, ep, &out->headers);
    }
    if (rc == ANVIL_OK) {
        out->rule = rule;
    }
    return rc;
}

static int s_error(struct s_run *run, uint32_t rule, struct anvil_endpoint *out) {
    run->cond = ANVIL__EP_NONE;
    struct anvil_str_view message;
    int rc = s_string_result(run, run->r->rules[rule].result, "the error", &message);
    if (rc != ANVIL_OK) {
        return rc;
    }
    out->rule = rule;
    out->error = message;
    return anvil_diag_set(run->diag, ANVIL_ECONFIG, 0, 0, 0, "%.*s",
                          (int)(message.len > INT32_MAX ? INT32_MAX : message.len), message.ptr);
}

/* Rules from `first` on, in order: the first whose conditions all hold decides. */
static int s_rules(struct s_run *run, uint32_t first, struct anvil_endpoint *out) {
    const struct anvil_endpoint_rules *r = run->r;
    for (uint32_t i = first; i != ANVIL__EP_NONE; i = r->rules[i].next) {
        const struct anvil__ep_rule *rule = &r->rules[i];
        size_t mark = run->top;
        bool holds = true;
        for (uint32_t c = 0; c < rule->cond_count; c++) {
            const struct anvil__ep_cond *cond = &r->conds[rule->cond_first + c];
            run->rule = i;
            run->cond = c;
            struct anvil__ep_value v;
            const struct anvil__ep_expr *e = &r->exprs[cond->expr];
            int rc = e->op >= ANVIL__EPO_IS_SET_REF ? s_fused(run, e, &v) : s_eval(run, cond->expr, &v);
            if (ANVIL_UNLIKELY(rc != ANVIL_OK)) {
                return rc;
            }
            if (v.kind == ANVIL__EPV_NONE || (v.kind == ANVIL__EPV_BOOL && !v.u.b)) {
                holds = false;
                break;
            }
            if (cond->slot != ANVIL__EP_NO_SLOT) {
                run->vals[cond->slot] = v;
            }
        }
        if (!holds) {
            run->top = mark;
            continue;
        }
        run->rule = i;
        switch (rule->kind) {
        case ANVIL__EPR_ENDPOINT:
            return s_endpoint(run, i, out);
        case ANVIL__EPR_ERROR:
            return s_error(run, i, out);
        default: {
            /* A tree is terminal: when its rules all fail, resolution stops here. */
            int rc = rule->result ? s_rules(run, i + 1, out) : S_NO_MATCH;
            if (rc == S_NO_MATCH) {
                out->rule = i;
                return anvil_diag_set(run->diag, ANVIL_ECONFIG, 0, 0, 0, "no endpoint rule matched");
            }
            return rc;
        }
        }
    }
    return S_NO_MATCH;
}

/* ---- parameters ---- */

static int s_param_value(struct s_run *run, size_t i, const struct anvil_json *v, struct anvil__ep_value *out) {
    const struct anvil_endpoint_param *p = &run->r->params[i];
    if (!v || anvil_json_is_null(v)) {
        *out = run->r->param_defaults[i];
        if (out->kind == ANVIL__EPV_NONE && p->required) {
            return anvil_diag_set(run->diag, ANVIL_ECONFIG, 0, 0, 0, "the endpoint parameter `%.*s` is required",
                                  (int)p->name.len, p->name.ptr);
        }
        return ANVIL_OK;
    }
    const char *want = NULL;
    switch (p->type) {
    case ANVIL_ENDPOINT_PARAM_STRING:
        if (!anvil_json_is_string(v)) {
            want = "a string";
            break;
        }
        s_set_str(out, anvil_json_string_ptr(v), anvil_json_len(v));
        return ANVIL_OK;
    case ANVIL_ENDPOINT_PARAM_BOOLEAN:
        if (!anvil_json_is_bool(v)) {
            want = "a boolean";
            break;
        }
        s_set_bool(out, anvil_json_bool(v));
        return ANVIL_OK;
    default:
        if (!anvil_json_is_array(v) || anvil_json_len(v) > UINT32_MAX - 1) {
            want = "an array of strings";
            break;
        }
        for (size_t k = 0; k < anvil_json_len(v); k++) {
            if (!anvil_json_is_string(anvil_json_array_at(v, k))) {
                return anvil_diag_set(run->diag, ANVIL_EINVAL, 0, 0, 0,
                                      "the endpoint parameter `%.*s` must be an array of strings, but item %zu is %s",
                                      (int)p->name.len, p->name.ptr, k,
                                      anvil_json_type_name(anvil_json_type(anvil_json_array_at(v, k))));
            }
        }
        out->kind = ANVIL__EPV_JSON_ARRAY;
        out->len = (uint32_t)anvil_json_len(v);
        out->u.items = anvil_json_array_at(v, 0);
        return ANVIL_OK;
    }
    return anvil_diag_set(run->diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint parameter `%.*s` must be %s, not %s",
                          (int)p->name.len, p->name.ptr, want, anvil_json_type_name(anvil_json_type(v)));
}

static void s_out_init(struct anvil_endpoint *out) {
    out->url = anvil_sv("", 0);
    out->headers = *anvil__json_empty_object();
    out->properties = *anvil__json_empty_object();
    out->rule = SIZE_MAX;
    out->error = anvil_sv("", 0);
}

/*
 * The common part of both entry points: `values[i]` is parameter i's value
 * or NULL; `object` (when not NULL) is an object of name -> value to read
 * them from instead.
 */
static int s_resolve(const struct anvil_endpoint_rules *rules, const struct anvil_json *values,
                     const struct anvil_json *object, struct anvil_arena *arena, struct anvil_endpoint *out,
                     struct anvil_diag *diag) {
    alignas(max_align_t) char scratch[ANVIL_ENDPOINT_SCRATCH_BYTES];
    struct s_run run = {rules, NULL, scratch, 0, sizeof scratch, arena, diag, 0, ANVIL__EP_NONE};
    size_t n = rules->param_count;
    size_t slots = n + rules->var_slots;
    struct anvil__ep_value *vals;
    if (slots <= sizeof scratch / 4 / sizeof *vals) {
        vals = s_alloc(&run, slots * sizeof *vals, alignof(struct anvil__ep_value));
    } else {
        /* Rule sets with hundreds of parameters or variables: their values go to the arena. */
        vals = anvil_arena_alloc(arena, slots * sizeof *vals, alignof(struct anvil__ep_value));
        if (!vals) {
            return anvil_arena_exhausted(arena) ? anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "the arena is full")
                                                : anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
        }
    }
    if (object) {
        const struct anvil_json **given = NULL;
        size_t mark = run.top;
        given = n ? s_alloc(&run, n * sizeof *given, alignof(const struct anvil_json *)) : NULL;
        if (n && !given) {
            given = anvil_arena_alloc(arena, n * sizeof *given, 0);
            if (!given) {
                return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
            }
        }
        for (size_t i = 0; i < n; i++) {
            given[i] = NULL;
        }
        for (size_t i = 0; i < anvil_json_len(object); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(object, i);
            long k = anvil_endpoint_rules_param_index(rules, anvil_json_member_key(m));
            if (k < 0) {
                struct anvil_str_view name = anvil_json_member_key(m);
                return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s` is not a parameter of the rule set",
                                      anvil__ep_cut(name, 80), name.ptr);
            }
            given[k] = &m->value;
        }
        for (size_t i = 0; i < n; i++) {
            int rc = s_param_value(&run, i, given[i], &vals[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        run.top = mark;
    } else {
        for (size_t i = 0; i < n; i++) {
            int rc = s_param_value(&run, i, &values[i], &vals[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
    }
    run.vals = vals;
    if (rules->root == ANVIL__EP_NONE) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "no endpoint rule matched");
    }
    int rc = s_rules(&run, rules->root, out);
    if (rc == S_NO_MATCH) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "no endpoint rule matched");
    }
    if (rc != ANVIL_OK && rc != ANVIL_ECONFIG) {
        size_t rule = out->rule;
        s_out_init(out);
        out->rule = rule;
    }
    return rc;
}

int anvil_endpoint_resolve(const struct anvil_endpoint_rules *rules, const struct anvil_json *params, size_t count,
                           struct anvil_arena *arena, struct anvil_endpoint *out, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!out) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint: no place for the result");
    }
    s_out_init(out);
    if (!rules || !arena || (count && !params)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint: no rules, parameters or arena");
    }
    if (count != rules->param_count) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint: %zu parameter values for %zu parameters", count,
                              rules->param_count);
    }
    return s_resolve(rules, params, NULL, arena, out, diag);
}

int anvil_endpoint_resolve_object(const struct anvil_endpoint_rules *rules, const struct anvil_json *params,
                                  struct anvil_arena *arena, struct anvil_endpoint *out, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!out) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint: no place for the result");
    }
    s_out_init(out);
    if (!rules || !arena) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint: no rules or arena");
    }
    if (params && !anvil_json_is_object(params) && !anvil_json_is_null(params)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "endpoint: the parameters must be an object, not %s",
                              anvil_json_type_name(anvil_json_type(params)));
    }
    static const struct anvil_json empty = {ANVIL_JSON_OBJECT, {0}};
    return s_resolve(rules, NULL, params && anvil_json_is_object(params) ? params : &empty, arena, out, diag);
}
