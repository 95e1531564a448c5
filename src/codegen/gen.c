/*
 * anvil gen: a model's waiters as C. The header declares, per waiter, its
 * description and a wait_until function, per operation they poll a call
 * wrapper, and the embedded model; the source holds each distinct path
 * matcher compiled to C (jmespath_c.c, or the interpreter when it cannot),
 * static acceptor tables, and the model's JSON AST cut to what those
 * operations need.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anvil/codegen.h"
#include "anvil/json.h"
#include "anvil/paginator.h"
#include "anvil/waiter.h"
#include "codegen/codegen_internal.h"
#include "core/core_internal.h"

#define S_MAX_OPS 512
#define S_MAX_MATCHERS 4096

struct s_matcher {
    /* What makes two acceptors' matchers the same: matcher kind, comparator, expected, path text. */
    char *key;
    char name[160];
};

struct s_gen {
    const struct anvil_model *model;
    const struct anvil_shape *service;
    const char *prefix;
    bool interpret;
    struct anvil_buf *h;
    struct anvil_buf *c;
    size_t c_start; /* where this run's source starts in `c` */
    size_t h_start; /* and its header in `h` */
    struct anvil_buf helpers;
    struct anvil_buf matchers;
    struct anvil_buf tables;
    struct anvil_buf functions;
    struct anvil_waiter_set *waiters;
    struct anvil_paginator_set *paginators;
    /* The operations waiters poll: absolute ids, sorted. */
    char *ops[S_MAX_OPS];
    size_t op_count;
    struct s_matcher *found;
    size_t found_count;
    struct anvil_codegen_stats stats;
    struct anvil_diag *diag;
    /* Every file-scope name generated so far, and what it was made for (two model names may give one C name). */
    struct anvil_buf claimed;
};

/*
 * Claims the file-scope C name `name`, made for `what` (both for a message).
 * ANVIL_EMODEL when an earlier claim has it: two model names (DBReady and
 * DbReady, an operation named Model and the model's accessor) would
 * define one C symbol twice.
 */
static int s_claim(struct s_gen *g, const char *what, const char *fmt, ...) ANVIL_PRINTF(3, 4);

static int s_claim(struct s_gen *g, const char *what, const char *fmt, ...) {
    char name[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(name, sizeof name, fmt, args);
    va_end(args);
    /* Entries "NAME\0WHAT\0". */
    for (size_t at = 0; at < g->claimed.len;) {
        const char *taken = g->claimed.data + at;
        const char *by = taken + strlen(taken) + 1;
        if (strcmp(taken, name) == 0) {
            return anvil_diag_set(g->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "%.60s and %.60s both make the C name `%.100s`: anvil gen cannot keep them apart", by,
                                  what, name);
        }
        at = (size_t)(by - g->claimed.data) + strlen(by) + 1;
    }
    int rc = anvil_buf_append(&g->claimed, name, strlen(name) + 1);
    return rc == ANVIL_OK ? anvil_buf_append(&g->claimed, what, strlen(what) + 1) : rc;
}

static bool s_identifier(const char *s) {
    if (!s || !*s || (*s >= '0' && *s <= '9')) {
        return false;
    }
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
            return false;
        }
    }
    return true;
}

/* The index of the last `c` in `s`, or SIZE_MAX. */
static size_t s_rindex(struct anvil_str_view s, char c) {
    for (size_t i = s.len; i > 0; i--) {
        if (s.ptr[i - 1] == c) {
            return i - 1;
        }
    }
    return SIZE_MAX;
}

/* FNV-1a of a text, for stable matcher names. */
static uint32_t s_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

/* Documentation as a block comment, its HTML tags dropped, wrapped at 100 columns. */
static int s_doc_comment(struct anvil_buf *out, struct anvil_str_view doc, const char *indent) {
    char *text = malloc(doc.len + 1);
    if (!text) {
        return ANVIL_ENOMEM;
    }
    size_t n = 0;
    bool in_tag = false, space = false;
    for (size_t i = 0; i < doc.len; i++) {
        char c = doc.ptr[i];
        char after = i + 1 < doc.len ? doc.ptr[i + 1] : '\0';
        bool tag_start =
            (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') || after == '/' || after == '!';
        if (c == '<' && !in_tag && tag_start) {
            in_tag = true;
        } else if (c == '>' && in_tag) {
            in_tag = false;
            space = true;
        } else if (!in_tag) {
            bool blank = (unsigned char)c < 0x20 || c == ' ' || c == 0x7f;
            if (blank || space) {
                if (n && text[n - 1] != ' ') {
                    text[n++] = ' ';
                }
                space = false;
            }
            if (!blank) {
                text[n++] = c;
            }
        }
    }
    while (n && text[n - 1] == ' ') {
        n--;
    }
    text[n] = '\0';
    int rc = anvil_buf_appendf(out, "%s/**\n", indent);
    size_t at = 0;
    while (rc == ANVIL_OK && at < n) {
        size_t line = n - at <= 90 ? n - at : 90;
        if (at + line < n) {
            while (line > 20 && text[at + line] != ' ') {
                line--;
            }
            /* A forced break never splits a UTF-8 character. */
            while (line > 1 && ((unsigned char)text[at + line] & 0xc0) == 0x80) {
                line--;
            }
        }
        rc = anvil_buf_appendf(out, "%s * ", indent);
        rc = rc == ANVIL_OK ? anvil__c_comment(out, anvil_sv(text + at, line)) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
        at += line;
        while (at < n && text[at] == ' ') {
            at++;
        }
    }
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out, "%s */\n", indent) : rc;
    free(text);
    return rc;
}

/* Parameter lists of the generated functions. */
static const char *const s_wait_params[] = {"struct anvil_client *client", "const struct anvil_json *input",
                                            "const struct anvil_wait_options *options",
                                            "struct anvil_wait_result *result", "struct anvil_diag *diag"};
static const char *const s_call_params[] = {"struct anvil_client *client", "const struct anvil_json *input",
                                            "struct anvil_arena *arena", "struct anvil_operation_reply *reply"};
static const char *const s_pages_params[] = {"const struct anvil_json *input",
                                             "const struct anvil_paginate_options *options",
                                             "struct anvil_paginate_run **out", "struct anvil_diag *diag"};
static const char *const s_next_params[] = {"struct anvil_client *client", "struct anvil_paginate_run *run",
                                            "struct anvil_arena *arena", "struct anvil_operation_reply *reply",
                                            "struct anvil_paginate_page *page"};
static const char *const s_client_params[] = {"const struct anvil_client_options *options", "struct anvil_client **out",
                                              "struct anvil_diag *diag"};
static const char *const s_match_params[] = {"const struct anvil_json *subject", "struct anvil_arena *scratch",
                                             "bool *matched"};

/*
 * `head` (such as "int ddb_get(") and `params` joined by ", ", then `tail`
 * (");" or ") {"), laid out as clang-format lays them out (anvil__c_line).
 */
static int s_signature(struct anvil_buf *out, const char *head, const char *const *params, size_t count,
                       const char *tail) {
    struct anvil_buf line;
    anvil_buf_init(&line, NULL, 0);
    size_t indent = strspn(head, " ");
    int rc = anvil_buf_append_cstr(&line, head + indent);
    for (size_t i = 0; i < count && rc == ANVIL_OK; i++) {
        rc = anvil_buf_append_cstr(&line, i ? ", " : "");
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&line, params[i]) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&line, tail) : rc;
    rc = rc == ANVIL_OK ? anvil__c_declaration(out, (int)indent, line.data, line.len) : rc;
    anvil_buf_clean_up(&line);
    return rc;
}

/* s_signature() with a formatted head. */
static int s_signaturef(struct anvil_buf *out, const char *const *params, size_t count, const char *tail,
                        const char *fmt, ...) ANVIL_PRINTF(5, 6);

static int s_signaturef(struct anvil_buf *out, const char *const *params, size_t count, const char *tail,
                        const char *fmt, ...) {
    char head[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(head, sizeof head, fmt, args);
    va_end(args);
    return s_signature(out, head, params, count, tail);
}

#define S_N(array) (sizeof(array) / sizeof((array)[0]))

/* ---- the embedded model: the service and the closure of the operations waiters poll ---- */

static bool s_op_used(const struct s_gen *g, struct anvil_str_view id) {
    for (size_t i = 0; i < g->op_count; i++) {
        if (anvil_sv_eq_cstr(id, g->ops[i])) {
            return true;
        }
    }
    return false;
}

/* Adds the targets a shape refers to (members, list/map parts, operation parts, mixins) to `want`. */
static int s_refs(const struct anvil_json *shape, const char **want, size_t *count, size_t cap) {
    static const char *const single[] = {"input", "output", "member", "key", "value"};
    static const char *const lists[] = {"errors", "mixins"};
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++) {
        const struct anvil_json *t = anvil_json_object_get_cstr(anvil_json_object_get_cstr(shape, single[i]), "target");
        if (anvil_json_is_string(t)) {
            if (*count == cap) {
                return ANVIL_ELIMIT;
            }
            want[(*count)++] = anvil_json_string_ptr(t);
        }
    }
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        const struct anvil_json *l = anvil_json_object_get_cstr(shape, lists[i]);
        for (size_t k = 0; anvil_json_is_array(l) && k < anvil_json_len(l); k++) {
            const struct anvil_json *t = anvil_json_object_get_cstr(anvil_json_array_at(l, k), "target");
            if (anvil_json_is_string(t)) {
                if (*count == cap) {
                    return ANVIL_ELIMIT;
                }
                want[(*count)++] = anvil_json_string_ptr(t);
            }
        }
    }
    const struct anvil_json *members = anvil_json_object_get_cstr(shape, "members");
    for (size_t i = 0; anvil_json_is_object(members) && i < anvil_json_len(members); i++) {
        const struct anvil_json *t = anvil_json_object_get_cstr(&anvil_json_object_at(members, i)->value, "target");
        if (anvil_json_is_string(t)) {
            if (*count == cap) {
                return ANVIL_ELIMIT;
            }
            want[(*count)++] = anvil_json_string_ptr(t);
        }
    }
    return ANVIL_OK;
}

/* Traits a client never reads, left out of the embedded model (documentation, examples, endpoint tests). */
static bool s_dropped_trait(struct anvil_str_view id) {
    static const char *const dropped[] = {"smithy.api#documentation",         "smithy.api#examples",
                                          "smithy.api#externalDocumentation", "smithy.rules#endpointTests",
                                          "smithy.waiters#waitable",          "smithy.api#suppress"};
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++) {
        if (anvil_sv_eq_cstr(id, dropped[i])) {
            return true;
        }
    }
    return false;
}

/* An object with its "traits" (and its members' traits) filtered; `skip` names one more key to leave out. */
static int s_write_shape(const struct anvil_json *v, const char *const *skip, size_t skip_count,
                         struct anvil_buf *out) {
    int rc = anvil_buf_append_byte(out, '{');
    bool first = true;
    for (size_t k = 0; k < anvil_json_len(v) && rc == ANVIL_OK; k++) {
        const struct anvil_json_member *f = anvil_json_object_at(v, k);
        struct anvil_str_view key = anvil_json_member_key(f);
        bool skipped = false;
        for (size_t i = 0; i < skip_count; i++) {
            skipped = skipped || anvil_sv_eq_cstr(key, skip[i]);
        }
        if (skipped) {
            continue;
        }
        rc = anvil_buf_append_cstr(out, first ? "" : ",");
        first = false;
        rc = rc == ANVIL_OK ? anvil_json_write_string(key, 0, out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ':') : rc;
        if (anvil_sv_eq_cstr(key, "traits") && anvil_json_is_object(&f->value)) {
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '{') : rc;
            bool first_trait = true;
            for (size_t t = 0; t < anvil_json_len(&f->value) && rc == ANVIL_OK; t++) {
                const struct anvil_json_member *trait = anvil_json_object_at(&f->value, t);
                if (s_dropped_trait(anvil_json_member_key(trait))) {
                    continue;
                }
                rc = anvil_buf_append_cstr(out, first_trait ? "" : ",");
                first_trait = false;
                rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_json_member_key(trait), 0, out) : rc;
                rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ':') : rc;
                rc = rc == ANVIL_OK ? anvil_json_write(&trait->value, 0, out) : rc;
            }
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '}') : rc;
        } else if (anvil_sv_eq_cstr(key, "members") && anvil_json_is_object(&f->value)) {
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '{') : rc;
            for (size_t m = 0; m < anvil_json_len(&f->value) && rc == ANVIL_OK; m++) {
                const struct anvil_json_member *member = anvil_json_object_at(&f->value, m);
                rc = anvil_buf_append_cstr(out, m ? "," : "");
                rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_json_member_key(member), 0, out) : rc;
                rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ':') : rc;
                rc = rc == ANVIL_OK
                         ? (anvil_json_is_object(&member->value) ? s_write_shape(&member->value, NULL, 0, out)
                                                                 : anvil_json_write(&member->value, 0, out))
                         : rc;
            }
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '}') : rc;
        } else {
            rc = rc == ANVIL_OK ? anvil_json_write(&f->value, 0, out) : rc;
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '}') : rc;
}

/* The model's JSON AST with the service (its operations cut to those used) and what they reach. */
static int s_model_text(struct s_gen *g, struct anvil_buf *out) {
    const struct anvil_json *ast = anvil_model_ast(g->model);
    const struct anvil_json *shapes = anvil_json_object_get_cstr(ast, "shapes");
    if (!anvil_json_is_object(shapes)) {
        return ANVIL_ENOMEM;
    }
    /* Room for every reference a shape can make: its members, list/map parts, operation parts, mixins. */
    size_t cap = 64 + g->op_count;
    for (size_t i = 0; i < anvil_json_len(shapes); i++) {
        const struct anvil_json *shape = &anvil_json_object_at(shapes, i)->value;
        cap += 8 + anvil_json_len(anvil_json_object_get_cstr(shape, "members")) +
               anvil_json_len(anvil_json_object_get_cstr(shape, "errors")) +
               anvil_json_len(anvil_json_object_get_cstr(shape, "mixins"));
    }
    const char **want = malloc(cap * sizeof *want);
    bool *keep = calloc(anvil_json_len(shapes), sizeof *keep);
    if (!want || !keep) {
        free(want);
        free(keep);
        return ANVIL_ENOMEM;
    }
    struct anvil_str_view service_id = anvil_shape_id(g->service);
    size_t count = 0;
    int rc = ANVIL_OK;
    want[count++] = service_id.ptr; /* NUL-terminated in the model */
    for (size_t i = 0; i < g->op_count; i++) {
        want[count++] = g->ops[i];
    }
    const struct anvil_json *service_shape = anvil_json_object_get(shapes, service_id.ptr, service_id.len);
    const struct anvil_json *service_errors = anvil_json_object_get_cstr(service_shape, "errors");
    for (size_t k = 0; anvil_json_is_array(service_errors) && k < anvil_json_len(service_errors); k++) {
        const struct anvil_json *t = anvil_json_object_get_cstr(anvil_json_array_at(service_errors, k), "target");
        if (anvil_json_is_string(t)) {
            want[count++] = anvil_json_string_ptr(t); /* counted in `cap` */
        }
    }
    for (size_t next = 1; next < count && rc == ANVIL_OK; next++) {
        /* Each wanted id once: its index in the AST marks it. */
        for (size_t i = 0; i < anvil_json_len(shapes); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(shapes, i);
            if (!keep[i] && anvil_sv_eq_cstr(anvil_json_member_key(m), want[next])) {
                keep[i] = true;
                rc = s_refs(&m->value, want, &count, cap);
                break;
            }
        }
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "{\"smithy\":\"2.0\",\"shapes\":{") : rc;
    /* In id order: the same bytes whatever order the model's files came in. */
    size_t kept = 0;
    const struct anvil_json_member **order = malloc((anvil_json_len(shapes) + 1) * sizeof *order);
    rc = rc == ANVIL_OK && !order ? ANVIL_ENOMEM : rc;
    for (size_t i = 0; i < anvil_json_len(shapes) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(shapes, i);
        if (!keep[i] && !anvil_sv_eq(anvil_json_member_key(m), service_id)) {
            continue;
        }
        size_t at = kept++;
        while (at > 0 && anvil_sv_cmp(anvil_json_member_key(order[at - 1]), anvil_json_member_key(m)) > 0) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = m;
    }
    bool first = true;
    for (size_t i = 0; i < kept && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = order[i];
        struct anvil_str_view id = anvil_json_member_key(m);
        bool is_service = anvil_sv_eq(id, service_id);
        rc = anvil_buf_append_cstr(out, first ? "" : ",");
        first = false;
        rc = rc == ANVIL_OK ? anvil_json_write_string(id, 0, out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ':') : rc;
        if (!is_service) {
            rc = rc == ANVIL_OK ? s_write_shape(&m->value, NULL, 0, out) : rc;
            continue;
        }
        /* The service: everything but its operations and resources, then the operations used. */
        static const char *const service_skip[] = {"operations", "resources"};
        rc = rc == ANVIL_OK ? s_write_shape(&m->value, service_skip, 2, out) : rc;
        if (rc == ANVIL_OK) {
            out->len--; /* reopen the object */
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ",\"operations\":[") : rc;
        for (size_t k = 0; k < g->op_count && rc == ANVIL_OK; k++) {
            rc = anvil_buf_appendf(out, "%s{\"target\":", k ? "," : "");
            rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_sv_from_cstr(g->ops[k]), 0, out) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '}') : rc;
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "]}") : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "}}") : rc;
    free(order);
    free(want);
    free(keep);
    return rc;
}

/* ---- matchers ---- */

static const char *const s_states[] = {"ANVIL_WAITER_SUCCESS", "ANVIL_WAITER_FAILURE", "ANVIL_WAITER_RETRY"};
static const char *const s_matchers[] = {"ANVIL_MATCH_OUTPUT", "ANVIL_MATCH_INPUT_OUTPUT", "ANVIL_MATCH_SUCCESS",
                                         "ANVIL_MATCH_ERROR_TYPE", "ANVIL_MATCH_STATUS"};

/* The comparator applied in C to what an interpreted path gave (the fallback's second half). */
static bool s_equals_family(enum anvil_waiter_comparator cmp) {
    return cmp == ANVIL_CMP_EQUALS || cmp == ANVIL_CMP_ALL_EQUALS || cmp == ANVIL_CMP_ANY_EQUALS;
}

/*
 * For waiters-2's equality comparators (any JSON expected): the expected
 * value as JSON text, parsed once into NAME_expected_doc.
 */
static int s_emit_expected(struct anvil_buf *out, const char *name, const struct anvil_json *expected) {
    struct anvil_buf json;
    anvil_buf_init(&json, NULL, 0);
    int rc = anvil_json_write(expected, 0, &json);
    rc = rc == ANVIL_OK ? anvil__c_string_decl(out, 0, name, "_expected_text", anvil_buf_view(&json)) : rc;
    anvil_buf_clean_up(&json);
    return rc == ANVIL_OK
               ? anvil_buf_appendf(out,
                                   "static struct anvil_json_doc *%s_expected_doc;\n"
                                   "static pthread_once_t %s_expected_once = PTHREAD_ONCE_INIT;\n\n"
                                   "static void %s_expected_parse(void) {\n"
                                   "    (void)anvil_json_parse(NULL, %s_expected_text, sizeof %s_expected_text - 1, "
                                   "NULL, &%s_expected_doc, NULL);\n}\n\n",
                                   name, name, name, name, name, name)
               : rc;
}

static int s_emit_compare(struct anvil_buf *out, const struct anvil_waiter_acceptor *a, const char *name) {
    const struct anvil_json *e = &a->expected;
    int rc = ANVIL_OK;
    if (s_equals_family(a->comparator)) {
        /* Equal as JSON and not null (src/behavior/waiter_match.c); for all/any, over a list's items. */
        rc = anvil_buf_appendf(out,
                               "    pthread_once(&%s_expected_once, %s_expected_parse);\n"
                               "    if (!%s_expected_doc) {\n"
                               "        return ANVIL_ENOMEM;\n"
                               "    }\n"
                               "    const struct anvil_json *expected = anvil_json_doc_root(%s_expected_doc);\n",
                               name, name, name, name);
        if (rc != ANVIL_OK || a->comparator == ANVIL_CMP_EQUALS) {
            return rc == ANVIL_OK
                       ? anvil_buf_append_cstr(out,
                                               "    *matched = !anvil_json_is_null(&value) && anvil_json_equal(&value, "
                                               "expected);\n")
                       : rc;
        }
        bool all = a->comparator == ANVIL_CMP_ALL_EQUALS;
        return anvil_buf_appendf(out,
                                 "    size_t n = anvil_json_is_array(&value) ? anvil_json_len(&value) : 0;\n"
                                 "    *matched = %s;\n"
                                 "    for (size_t i = 0; i < n; i++) {\n"
                                 "        const struct anvil_json *v = anvil_json_array_at(&value, i);\n"
                                 "        if (%s(!anvil_json_is_null(v) && anvil_json_equal(v, expected))) {\n"
                                 "            *matched = %s;\n"
                                 "            break;\n"
                                 "        }\n"
                                 "    }\n",
                                 all ? "n > 0" : "false", all ? "!" : "", all ? "false" : "true");
    }
    switch (a->comparator) {
    case ANVIL_CMP_BOOLEAN_EQUALS:
        return anvil_buf_appendf(out, "    *matched = anvil_json_is_bool(&value) && anvil_json_bool(&value) == %s;\n",
                                 anvil_json_bool(e) ? "true" : "false");
    case ANVIL_CMP_STRING_EQUALS:
        rc = anvil_buf_append_cstr(out, "    *matched = anvil_json_is_string(&value) && "
                                        "anvil_sv_eq_cstr(anvil_json_string(&value), ");
        rc = rc == ANVIL_OK ? anvil__c_string(out, anvil_json_string(e), 8) : rc;
        return rc == ANVIL_OK ? anvil_buf_append_cstr(out, ");\n") : rc;
    case ANVIL_CMP_ALL_STRING_EQUALS:
    case ANVIL_CMP_ANY_STRING_EQUALS: {
        bool all = a->comparator == ANVIL_CMP_ALL_STRING_EQUALS;
        rc =
            anvil_buf_appendf(out,
                              "    size_t n = anvil_json_is_array(&value) ? anvil_json_len(&value) : 0;\n"
                              "    *matched = %s;\n"
                              "    for (size_t i = 0; i < n; i++) {\n"
                              "        const struct anvil_json *v = anvil_json_array_at(&value, i);\n"
                              "        bool equal = anvil_json_is_string(v) && anvil_sv_eq_cstr(anvil_json_string(v), ",
                              all ? "n > 0" : "false");
        rc = rc == ANVIL_OK ? anvil__c_string(out, anvil_json_string(e), 12) : rc;
        return rc == ANVIL_OK ? anvil_buf_appendf(out,
                                                  ");\n"
                                                  "        if (%sequal) {\n"
                                                  "            *matched = %s;\n"
                                                  "            break;\n"
                                                  "        }\n"
                                                  "    }\n",
                                                  all ? "!" : "", all ? "false" : "true")
                              : rc;
    }
    default:
        break;
    }
    return ANVIL_EUNSUPPORTED;
}

/* The matcher function for a path acceptor (compiled, else interpreted), named once per distinct matcher. */
static int s_matcher(struct s_gen *g, const struct anvil_waiter *w, const struct anvil_waiter_acceptor *a, char *name,
                     size_t size) {
    struct anvil_buf key;
    anvil_buf_init(&key, NULL, 0);
    int rc = anvil_buf_appendf(&key, "%d/%d/", (int)a->matcher, (int)a->comparator);
    rc = rc == ANVIL_OK ? anvil_json_write(&a->expected, 0, &key) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&key, '/') : rc;
    struct anvil_str_view path = anvil_jmespath_text(a->path);
    /* As a JSON string: a NUL in the path must not end the key (two matchers would become one). */
    rc = rc == ANVIL_OK ? anvil_json_write_string(path, 0, &key) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&key, '\0') : rc;
    if (rc != ANVIL_OK) {
        anvil_buf_clean_up(&key);
        return rc;
    }
    for (size_t i = 0; i < g->found_count; i++) {
        if (strcmp(g->found[i].key, key.data) == 0) {
            snprintf(name, size, "%.150s", g->found[i].name);
            anvil_buf_clean_up(&key);
            return ANVIL_OK;
        }
    }
    char op[64];
    struct anvil_str_view operation = w->operation;
    size_t hash = s_rindex(operation, '#');
    anvil__c_snake(hash == SIZE_MAX ? operation : anvil_sv(operation.ptr + hash + 1, operation.len - hash - 1), op,
                   sizeof op);
    /* Two different matchers whose hashes collide get the next number instead. */
    uint32_t h = s_hash(key.data);
    for (;;) {
        snprintf(name, size, "%s_match_%s_%08x", g->prefix, op, (unsigned)h);
        bool taken = false;
        for (size_t i = 0; i < g->found_count && !taken; i++) {
            taken = strcmp(g->found[i].name, name) == 0;
        }
        if (!taken) {
            break;
        }
        h++;
    }
    if ((rc = s_claim(g, "a path matcher", "%s", name)) != ANVIL_OK) {
        anvil_buf_clean_up(&key);
        return rc;
    }
    if (g->found_count == S_MAX_MATCHERS) {
        anvil_buf_clean_up(&key);
        return anvil_diag_set(g->diag, ANVIL_ELIMIT, 0, 0, 0, "more than %d distinct matchers", S_MAX_MATCHERS);
    }
    g->found[g->found_count].key = key.data; /* owned now */
    snprintf(g->found[g->found_count].name, sizeof g->found[0].name, "%.150s", name);
    g->found_count++;
    g->stats.matchers++;
    struct anvil__jpc_options jo = {""}; /* static helpers jpc_*: the prefix jpc is refused */
    struct anvil_diag why;
    anvil_diag_clear(&why);
    /* The emitted function carries the path and the comparator in a comment of its own. */
    int compiled = g->interpret ? anvil_diag_set(&why, ANVIL_EUNSUPPORTED, 0, 0, 0, "anvil gen --interpret")
                                : anvil__jpc_emit_match(a->path, a->comparator, &a->expected, name, &jo, &g->helpers,
                                                        &g->matchers, &why);
    if (compiled == ANVIL_OK) {
        g->stats.compiled++;
        return ANVIL_OK;
    }
    if (compiled != ANVIL_EUNSUPPORTED) {
        return compiled;
    }
    g->stats.fallbacks++;
    char value_name[192];
    snprintf(value_name, sizeof value_name, "%.150s_value", name);
    static const char *const fallback_names[] = {"",
                                                 "_text",
                                                 "_expr",
                                                 "_once",
                                                 "_compile",
                                                 "_expected_text",
                                                 "_expected_doc",
                                                 "_expected_once",
                                                 "_expected_parse"};
    for (size_t i = 0; i < sizeof fallback_names / sizeof fallback_names[0]; i++) {
        if ((rc = s_claim(g, "a path matcher", "%s%s", value_name, fallback_names[i])) != ANVIL_OK) {
            return rc;
        }
    }
    rc = anvil__jpc_emit_fallback(a->path, value_name, why.message[0] ? why.message : "not supported", &g->matchers);
    rc =
        rc == ANVIL_OK && s_equals_family(a->comparator) ? s_emit_expected(&g->matchers, value_name, &a->expected) : rc;
    rc = rc == ANVIL_OK ? s_signaturef(&g->matchers, s_match_params, S_N(s_match_params), ") {", "static int %s(", name)
                        : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->matchers,
                                            "    struct anvil_json value = anvil_json_make_null();\n"
                                            "    int rc = %s(subject, scratch, &value);\n"
                                            "    if (rc == ANVIL_ENOMEM || rc == ANVIL_ELIMIT) {\n"
                                            "        return rc;\n"
                                            "    }\n"
                                            "    if (rc != ANVIL_OK) {\n"
                                            "        value = anvil_json_make_null();\n"
                                            "    }\n",
                                            value_name)
                        : rc;
    if (rc == ANVIL_OK) {
        rc = s_emit_compare(&g->matchers, a, value_name);
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(&g->matchers, "    return ANVIL_OK;\n}\n\n") : rc;
}

/* ---- waiters ---- */

static int s_add_op(struct s_gen *g, struct anvil_str_view id) {
    if (s_op_used(g, id)) {
        return ANVIL_OK;
    }
    if (g->op_count == S_MAX_OPS) {
        return anvil_diag_set(g->diag, ANVIL_ELIMIT, 0, 0, 0, "more than %d operations have waiters or paginators",
                              S_MAX_OPS);
    }
    char *copy = malloc(id.len + 1);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    memcpy(copy, id.ptr, id.len);
    copy[id.len] = '\0';
    /* Sorted, so the output does not depend on the waiters' order. */
    size_t at = g->op_count;
    while (at > 0 && strcmp(g->ops[at - 1], copy) > 0) {
        g->ops[at] = g->ops[at - 1];
        at--;
    }
    g->ops[at] = copy;
    g->op_count++;
    return ANVIL_OK;
}

static struct anvil_str_view s_name_part(struct anvil_str_view id) {
    size_t hash = s_rindex(id, '#');
    return hash == SIZE_MAX ? id : anvil_sv(id.ptr + hash + 1, id.len - hash - 1);
}

/* Whether a name from the model may go into C identifiers and string literals as it is. */
static bool s_name_ok(struct anvil_str_view name) {
    char text[128];
    if (name.len == 0 || name.len >= sizeof text) {
        return false;
    }
    memcpy(text, name.ptr, name.len);
    text[name.len] = '\0';
    return s_identifier(text);
}

/*
 * `"text", LEN}` and `after`, the string's '"' at column `col` (just after a
 * '{'). A string too long for its line is split (anvil__c_string) with its
 * pieces aligned under the first and its length on a line of its own under
 * them, as clang-format breaks after a string that spans lines.
 */
static int s_counted(struct anvil_buf *out, struct anvil_str_view text, int col, const char *after) {
    size_t start = out->len;
    int rc = anvil__c_string(out, text, col);
    bool split = rc == ANVIL_OK && memchr(out->data + start, '\n', out->len - start);
    return rc == ANVIL_OK
               ? anvil_buf_appendf(out, ",%s%*s%zu}%s", split ? "\n" : " ", split ? col : 0, "", text.len, after)
               : rc;
}

static int s_waiter(struct s_gen *g, const struct anvil_waiter *w) {
    if (!s_name_ok(w->name) || !s_name_ok(s_name_part(w->operation))) {
        char shown[80];
        anvil__c_comment_text(s_name_ok(w->name) ? s_name_part(w->operation) : w->name, shown, sizeof shown);
        return anvil_diag_set(g->diag, ANVIL_EMODEL, 0, 0, 0, "the %s `%s` is not a C identifier of at most 127 bytes",
                              s_name_ok(w->name) ? "operation" : "waiter", shown);
    }
    char snake[128], what[160];
    anvil__c_snake(w->name, snake, sizeof snake);
    snprintf(what, sizeof what, "the waiter %.*s", (int)w->name.len, w->name.ptr);
    int claimed = s_claim(g, what, "%s_waiter_%.*s", g->prefix, (int)w->name.len, w->name.ptr);
    claimed = claimed == ANVIL_OK ? s_claim(g, what, "%s_wait_until_%s", g->prefix, snake) : claimed;
    claimed = claimed == ANVIL_OK ? s_claim(g, what, "%s_%s_acceptors", g->prefix, snake) : claimed;
    for (size_t i = 0; i < w->acceptor_count && claimed == ANVIL_OK; i++) {
        if (w->acceptors[i].matcher == ANVIL_MATCH_ERROR_TYPE) {
            claimed = s_claim(g, what, "%s_%s_codes_%zu", g->prefix, snake, i);
        }
    }
    if (claimed != ANVIL_OK) {
        return claimed;
    }
    struct anvil_str_view op_name = s_name_part(w->operation);
    int rc = ANVIL_OK;
    /* Error codes. */
    for (size_t i = 0; i < w->acceptor_count && rc == ANVIL_OK; i++) {
        const struct anvil_waiter_acceptor *a = &w->acceptors[i];
        if (a->matcher != ANVIL_MATCH_ERROR_TYPE) {
            continue;
        }
        /* On one line when it fits 120 columns, else one code a line with a trailing comma (as clang-format). */
        size_t row = g->tables.len;
        rc = anvil_buf_appendf(&g->tables, "static const struct anvil_str_view %s_%s_codes_%zu[] = {", g->prefix, snake,
                               i);
        for (int pass = 0; pass < 2 && rc == ANVIL_OK; pass++) {
            for (size_t k = 0; k < a->code_count && rc == ANVIL_OK; k++) {
                rc = anvil_buf_append_cstr(&g->tables, pass ? "\n    {" : k ? ", {" : "{");
                rc = rc == ANVIL_OK ? s_counted(&g->tables, a->codes[k], 5, pass ? "," : "") : rc;
            }
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&g->tables, pass ? "\n};\n" : "};\n") : rc;
            const char *text = g->tables.data + row;
            size_t width = g->tables.len - row - 1;
            if (pass == 0 && rc == ANVIL_OK && width <= 120 && !memchr(text, '\n', width)) {
                break;
            }
            if (pass == 0 && rc == ANVIL_OK) {
                g->tables.len = (size_t)(strchr(text, '{') - g->tables.data) + 1;
            }
        }
    }
    char names[64][160];
    if (w->acceptor_count > 64) {
        return anvil_diag_set(g->diag, ANVIL_ELIMIT, 0, 0, 0, "waiter `%.*s` has more than 64 acceptors",
                              (int)w->name.len, w->name.ptr);
    }
    for (size_t i = 0; i < w->acceptor_count; i++) {
        if (w->acceptors[i].message) {
            return anvil_diag_set(g->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "waiter `%.*s`: acceptor messages are not generated yet", (int)w->name.len,
                                  w->name.ptr);
        }
    }
    for (size_t i = 0; i < w->acceptor_count && rc == ANVIL_OK; i++) {
        const struct anvil_waiter_acceptor *a = &w->acceptors[i];
        names[i][0] = '\0';
        if (a->matcher == ANVIL_MATCH_OUTPUT || a->matcher == ANVIL_MATCH_INPUT_OUTPUT) {
            rc = s_matcher(g, w, a, names[i], sizeof names[i]);
        }
    }
    /* Each row on a line of its own: anvil__c_rewrap breaks a head or a row too wide for its line. */
    rc = rc == ANVIL_OK
             ? anvil_buf_appendf(&g->tables, "static const struct anvil_waiter_acceptor %s_%s_acceptors[] = {\n",
                                 g->prefix, snake)
             : rc;
    for (size_t i = 0; i < w->acceptor_count && rc == ANVIL_OK; i++) {
        const struct anvil_waiter_acceptor *a = &w->acceptors[i];
        /* The row's designators (on one line; anvil__c_rewrap puts them one a line where that is too wide). */
        char fields[4][200];
        size_t n = 0;
        snprintf(fields[n++], sizeof fields[0], ".state = %s", s_states[a->state]);
        snprintf(fields[n++], sizeof fields[0], ".matcher = %s", s_matchers[a->matcher]);
        switch (a->matcher) {
        case ANVIL_MATCH_OUTPUT:
        case ANVIL_MATCH_INPUT_OUTPUT:
            snprintf(fields[n++], sizeof fields[0], ".compiled = %.160s", names[i]);
            break;
        case ANVIL_MATCH_SUCCESS:
            snprintf(fields[n++], sizeof fields[0], ".success = %s", a->success ? "true" : "false");
            break;
        case ANVIL_MATCH_ERROR_TYPE:
            snprintf(fields[n++], sizeof fields[0], ".codes = %s_%s_codes_%zu", g->prefix, snake, i);
            snprintf(fields[n++], sizeof fields[0], ".code_count = %zu", a->code_count);
            break;
        case ANVIL_MATCH_STATUS:
            snprintf(fields[n++], sizeof fields[0], ".status = %d", a->status);
            break;
        }
        for (size_t k = 0; k < n && rc == ANVIL_OK; k++) {
            rc = anvil_buf_append_cstr(&g->tables, k ? ", " : "    {");
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&g->tables, fields[k]) : rc;
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&g->tables, "},\n") : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&g->tables, "};\n\n") : rc;
    /* The description. */
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->tables, "const struct anvil_waiter %s_waiter_%.*s = {\n    .name = {",
                                            g->prefix, (int)w->name.len, w->name.ptr)
                        : rc;
    rc = rc == ANVIL_OK ? s_counted(&g->tables, w->name, (int)strlen("    .name = {"), ",\n    .operation = {") : rc;
    rc = rc == ANVIL_OK ? s_counted(&g->tables, w->operation, (int)strlen("    .operation = {"), ",\n") : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->tables,
                                            "    .min_delay_s = %u,\n"
                                            "    .max_delay_s = %u,\n"
                                            "    .max_attempts = %u,\n"
                                            "    .deprecated = %s,\n"
                                            "    .acceptors = %s_%s_acceptors,\n"
                                            "    .acceptor_count = %zu,\n"
                                            "};\n\n",
                                            w->min_delay_s, w->max_delay_s, w->max_attempts,
                                            w->deprecated ? "true" : "false", g->prefix, snake, w->acceptor_count)
                        : rc;
    /* The header: documentation, the description, the wait. */
    if (rc == ANVIL_OK && w->documentation.len) {
        rc = s_doc_comment(g->h, w->documentation, "");
    }
    rc = rc == ANVIL_OK ? anvil_buf_appendf(g->h, "extern const struct anvil_waiter %s_waiter_%.*s;\n", g->prefix,
                                            (int)w->name.len, w->name.ptr)
                        : rc;
    char line[400];
    snprintf(line, sizeof line, "Waits (anvil_wait()) until %.*s, polling %.*s through `client`.", (int)w->name.len,
             w->name.ptr, (int)op_name.len, op_name.ptr);
    rc = rc == ANVIL_OK ? s_doc_comment(g->h, anvil_sv_from_cstr(line), "") : rc;
    rc = rc == ANVIL_OK
             ? s_signaturef(g->h, s_wait_params, S_N(s_wait_params), ");", "int %s_wait_until_%s(", g->prefix, snake)
             : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(g->h, '\n') : rc;
    rc = rc == ANVIL_OK ? s_signaturef(&g->functions, s_wait_params, S_N(s_wait_params), ") {", "int %s_wait_until_%s(",
                                       g->prefix, snake)
                        : rc;
    rc = rc == ANVIL_OK
             ? anvil_buf_appendf(&g->functions,
                                 "    const struct anvil_shape *polled = anvil_client_operation(client, \"%.*s\");\n"
                                 "    if (!polled) {\n"
                                 "        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, \"no operation %.*s\");\n"
                                 "    }\n"
                                 "    struct anvil_client_operation operation = {client, polled, &%s_waiter_%.*s};\n"
                                 "    struct anvil_wait_call call = {anvil_client_operation_call, &operation, NULL, "
                                 "NULL, NULL, NULL};\n"
                                 "    return anvil_wait(&%s_waiter_%.*s, input, options, &call, result, diag);\n"
                                 "}\n\n",
                                 (int)op_name.len, op_name.ptr, (int)op_name.len, op_name.ptr, g->prefix,
                                 (int)w->name.len, w->name.ptr, g->prefix, (int)w->name.len, w->name.ptr)
             : rc;
    g->stats.waiters++;
    g->stats.acceptors += w->acceptor_count;
    return rc;
}

/* Per paginated operation: its description (from the embedded model) and a start and a next-page function. */
static int s_paginator(struct s_gen *g, const struct anvil_paginator *p) {
    struct anvil_str_view name = s_name_part(p->operation);
    if (!s_name_ok(name)) {
        char shown[80];
        anvil__c_comment_text(name, shown, sizeof shown);
        return anvil_diag_set(g->diag, ANVIL_EMODEL, 0, 0, 0, "the operation `%s` is not a C identifier", shown);
    }
    char snake[128], what[160];
    anvil__c_snake(name, snake, sizeof snake);
    snprintf(what, sizeof what, "the paginator of %.*s", (int)name.len, name.ptr);
    int claimed = s_claim(g, what, "%s_paginator_%s", g->prefix, snake);
    claimed = claimed == ANVIL_OK ? s_claim(g, what, "%s_%s_pages", g->prefix, snake) : claimed;
    claimed = claimed == ANVIL_OK ? s_claim(g, what, "%s_%s_next_page", g->prefix, snake) : claimed;
    if (claimed != ANVIL_OK) {
        return claimed;
    }
    char line[400];
    snprintf(line, sizeof line, "The pages of %.*s: its @paginated description (from %s_model()).", (int)name.len,
             name.ptr, g->prefix);
    int rc = s_doc_comment(g->h, anvil_sv_from_cstr(line), "");
    static const char *const no_params[] = {"void"};
    rc = rc == ANVIL_OK ? s_signaturef(g->h, no_params, 1, ");", "const struct anvil_paginator *%s_paginator_%s(",
                                       g->prefix, snake)
                        : rc;
    snprintf(line, sizeof line, "Starts paginating %.*s from `input` (anvil_paginate_start()).", (int)name.len,
             name.ptr);
    rc = rc == ANVIL_OK ? s_doc_comment(g->h, anvil_sv_from_cstr(line), "") : rc;
    rc = rc == ANVIL_OK
             ? s_signaturef(g->h, s_pages_params, S_N(s_pages_params), ");", "int %s_%s_pages(", g->prefix, snake)
             : rc;
    snprintf(line, sizeof line,
             "The next page: calls %.*s with the run's next input and reports its output; `page->items` holds its "
             "items, `page->reason` whether more follow (ANVIL_PAGINATE_MORE). A failed call returns its status with "
             "`reply` saying why.",
             (int)name.len, name.ptr);
    rc = rc == ANVIL_OK ? s_doc_comment(g->h, anvil_sv_from_cstr(line), "") : rc;
    rc = rc == ANVIL_OK
             ? s_signaturef(g->h, s_next_params, S_N(s_next_params), ");", "int %s_%s_next_page(", g->prefix, snake)
             : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(g->h, '\n') : rc;
    rc = rc == ANVIL_OK ? s_signaturef(&g->functions, no_params, 1, ") {",
                                       "const struct anvil_paginator *%s_paginator_%s(", g->prefix, snake)
                        : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->functions,
                                            "    const struct anvil_paginator_set *set = %s_paginators();\n"
                                            "    if (!set) {\n"
                                            "        return NULL;\n"
                                            "    }\n"
                                            "    return anvil_paginator_set_find(set, \"%.*s\", %zu);\n"
                                            "}\n\n",
                                            g->prefix, (int)p->operation.len, p->operation.ptr, p->operation.len)
                        : rc;
    rc = rc == ANVIL_OK ? s_signaturef(&g->functions, s_pages_params, S_N(s_pages_params), ") {", "int %s_%s_pages(",
                                       g->prefix, snake)
                        : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->functions,
                                            "    const struct anvil_paginator *paginator = %s_paginator_%s();\n"
                                            "    if (!paginator) {\n"
                                            "        return ANVIL_ENOMEM;\n"
                                            "    }\n"
                                            "    return anvil_paginate_start(NULL, paginator, input, options, out, "
                                            "diag);\n"
                                            "}\n\n",
                                            g->prefix, snake)
                        : rc;
    rc = rc == ANVIL_OK ? s_signaturef(&g->functions, s_next_params, S_N(s_next_params), ") {", "int %s_%s_next_page(",
                                       g->prefix, snake)
                        : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->functions,
                                            "    const struct anvil_shape *operation = anvil_client_operation(client, "
                                            "\"%.*s\");\n"
                                            "    const struct anvil_json *input = NULL;\n"
                                            "    int rc = operation ? anvil_paginate_input(run, &input) : "
                                            "ANVIL_EINVAL;\n"
                                            "    rc = rc == ANVIL_OK ? anvil_client_call(client, operation, input, 0, "
                                            "arena, reply) : rc;\n"
                                            "    return rc == ANVIL_OK ? anvil_paginate_report(run, &reply->output, "
                                            "page) : rc;\n"
                                            "}\n\n",
                                            (int)name.len, name.ptr)
                        : rc;
    g->stats.paginators++;
    return rc;
}

/* An operation of the service a waiter or paginator names: by shape id (Smithy) or by name (botocore's files). */
struct s_probe {
    struct anvil_str_view want;
    struct anvil_str_view found; /* its shape id, empty until found */
};

static bool s_in_service(const struct anvil_shape *op, void *user_data) {
    struct s_probe *p = user_data;
    struct anvil_str_view id = anvil_shape_id(op);
    bool by_name = anvil_sv_find_byte(p->want, 0, '#') == SIZE_MAX;
    if (anvil_sv_eq(by_name ? s_name_part(id) : id, p->want)) {
        p->found = id;
        return false;
    }
    return true;
}

static int s_generate(struct s_gen *g, const struct anvil_codegen_options *o) {
    int rc = o->waiters ? ANVIL_OK : anvil_waiter_set_from_model(NULL, g->model, &g->waiters, g->diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_waiter_set *waiters = o->waiters ? o->waiters : g->waiters;
    /* The waiters of this service's operations, sorted by name. */
    size_t n = anvil_waiter_set_count(waiters);
    const struct anvil_waiter **mine = calloc(n ? n : 1, sizeof *mine);
    if (!mine) {
        return ANVIL_ENOMEM;
    }
    size_t count = 0;
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_waiter *w = anvil_waiter_set_at(waiters, i);
        struct s_probe probe = {w->operation, {NULL, 0}};
        rc = anvil_service_operations(g->model, g->service, s_in_service, &probe, NULL);
        if (rc == ANVIL_OK && probe.found.len) {
            size_t at = count++;
            while (at > 0 && anvil_sv_cmp(mine[at - 1]->name, w->name) > 0) {
                mine[at] = mine[at - 1];
                at--;
            }
            mine[at] = w;
            rc = s_add_op(g, probe.found);
        }
    }
    /* The paginated operations of this service, sorted by operation. */
    bool any_waiter = count > 0;
    rc =
        rc == ANVIL_OK && !o->paginators ? anvil_paginator_set_from_model(NULL, g->model, &g->paginators, g->diag) : rc;
    const struct anvil_paginator_set *paginators = o->paginators ? o->paginators : g->paginators;
    size_t pn = rc == ANVIL_OK ? anvil_paginator_set_count(paginators) : 0;
    const struct anvil_paginator **pages = calloc(pn ? pn : 1, sizeof *pages);
    size_t page_count = 0;
    rc = rc == ANVIL_OK && !pages ? ANVIL_ENOMEM : rc;
    for (size_t i = 0; i < pn && rc == ANVIL_OK; i++) {
        const struct anvil_paginator *p = anvil_paginator_set_at(paginators, i);
        struct s_probe probe = {p->operation, {NULL, 0}};
        rc = anvil_service_operations(g->model, g->service, s_in_service, &probe, NULL);
        if (rc == ANVIL_OK && probe.found.len) {
            size_t at = page_count++;
            while (at > 0 && anvil_sv_cmp(pages[at - 1]->operation, p->operation) > 0) {
                pages[at] = pages[at - 1];
                at--;
            }
            pages[at] = p;
            rc = s_add_op(g, probe.found);
        }
    }
    static const char *const fixed[] = {"model",           "model_text",     "model_value", "model_once",
                                        "model_load",      "client_new",     "paginators",  "paginator_set",
                                        "paginators_once", "paginators_load"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && rc == ANVIL_OK; i++) {
        rc = s_claim(g, "anvil gen's own accessors", "%s_%s", g->prefix, fixed[i]);
    }
    if (rc == ANVIL_OK && !any_waiter && page_count == 0) {
        struct anvil_str_view sid = anvil_shape_id(g->service);
        rc = anvil_diag_set(g->diag, ANVIL_EMODEL, 0, 0, 0,
                            "%.*s has no waiters and no paginators (for a botocore model, give its waiters-2.json and "
                            "paginators-1.json: anvil gen --service NAME finds them)",
                            (int)sid.len, sid.ptr);
    }
    const char *header_name = o->header_name && *o->header_name ? o->header_name : NULL;
    struct anvil_str_view service_id = anvil_shape_id(g->service);
    char guard[160];
    snprintf(guard, sizeof guard, "%s_GENERATED_H", g->prefix);
    for (char *p = guard; *p; p++) {
        *p = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
    }
    rc = rc == ANVIL_OK ? anvil_buf_appendf(g->h,
                                            "/* Generated by anvil gen from %.*s; do not edit. */\n"
                                            "#ifndef %s\n#define %s\n\n"
                                            "#include <anvil/anvil.h>\n\n"
                                            "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
                                            "/** The service's model (what these operations need), loaded once; NULL "
                                            "when memory ran out. */\n"
                                            "const struct anvil_model *%s_model(void);\n\n"
                                            "/**\n * A client for %.*s\n * (anvil_client_new() on "
                                            "%s_model()).\n */\n",
                                            (int)service_id.len, service_id.ptr, guard, guard, g->prefix,
                                            (int)service_id.len, service_id.ptr, g->prefix)
                        : rc;
    rc = rc == ANVIL_OK
             ? s_signaturef(g->h, s_client_params, S_N(s_client_params), ");", "int %s_client_new(", g->prefix)
             : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(g->h, '\n') : rc;
    for (size_t i = 0; i < count && rc == ANVIL_OK; i++) {
        rc = s_waiter(g, mine[i]);
    }
    free(mine);
    if (rc == ANVIL_OK && page_count) {
        rc = anvil_buf_appendf(g->h,
                               "/** The service's paginators (from %s_model()), loaded once; NULL when memory ran "
                               "out. */\nconst struct anvil_paginator_set *%s_paginators(void);\n\n",
                               g->prefix, g->prefix);
    }
    for (size_t i = 0; i < page_count && rc == ANVIL_OK; i++) {
        rc = s_paginator(g, pages[i]);
    }
    /* Operation wrappers. */
    for (size_t i = 0; i < g->op_count && rc == ANVIL_OK; i++) {
        struct anvil_str_view name = s_name_part(anvil_sv_from_cstr(g->ops[i]));
        char snake[128], what[160];
        anvil__c_snake(name, snake, sizeof snake);
        snprintf(what, sizeof what, "the operation %.*s", (int)name.len, name.ptr);
        if ((rc = s_claim(g, what, "%s_%s", g->prefix, snake)) != ANVIL_OK) {
            break;
        }
        rc = anvil_buf_appendf(g->h, "/** One call of %.*s (anvil_client_call(), no deadline). */\n", (int)name.len,
                               name.ptr);
        rc = rc == ANVIL_OK
                 ? s_signaturef(g->h, s_call_params, S_N(s_call_params), ");", "int %s_%s(", g->prefix, snake)
                 : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(g->h, '\n') : rc;
        rc = rc == ANVIL_OK
                 ? s_signaturef(&g->functions, s_call_params, S_N(s_call_params), ") {", "int %s_%s(", g->prefix, snake)
                 : rc;
        rc = rc == ANVIL_OK ? anvil_buf_appendf(&g->functions,
                                                "    const struct anvil_shape *operation = "
                                                "anvil_client_operation(client, \"%.*s\");\n"
                                                "    if (!operation) {\n"
                                                "        return ANVIL_EINVAL;\n"
                                                "    }\n"
                                                "    return anvil_client_call(client, operation, input, 0, arena, "
                                                "reply);\n}\n\n",
                                                (int)name.len, name.ptr)
                            : rc;
        g->stats.operations++;
    }
    rc = rc == ANVIL_OK ? anvil_buf_appendf(g->h, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n") : rc;
    /* The source. */
    struct anvil_buf model;
    anvil_buf_init(&model, NULL, 0);
    rc = rc == ANVIL_OK ? s_model_text(g, &model) : rc;
    g->stats.model_bytes = model.len;
    char header_default[160];
    snprintf(header_default, sizeof header_default, "%s.h", g->prefix);
    rc = rc == ANVIL_OK ? anvil_buf_appendf(g->c,
                                            "/* Generated by anvil gen from %.*s; do not edit. */\n"
                                            "#include <pthread.h>\n"
                                            "#include <stdbool.h>\n"
                                            "#include <string.h>\n\n"
                                            "#include <anvil/anvil.h>\n\n"
                                            "#include \"%s\"\n\n"
                                            "/* ---- the model: the service and what its waited-on operations reach "
                                            "---- */\n\n"
                                            "static const char %s_model_text[] =\n    ",
                                            (int)service_id.len, service_id.ptr,
                                            header_name ? header_name : header_default, g->prefix)
                        : rc;
    rc = rc == ANVIL_OK ? anvil__c_string(g->c, anvil_buf_view(&model), 4) : rc;
    anvil_buf_clean_up(&model);
    rc = rc == ANVIL_OK
             ? anvil_buf_appendf(g->c,
                                 ";\nstatic struct anvil_model *%s_model_value;\n"
                                 "static pthread_once_t %s_model_once = PTHREAD_ONCE_INIT;\n\n"
                                 "static void %s_model_load(void) {\n"
                                 "    (void)anvil_model_load(NULL, %s_model_text, sizeof %s_model_text - 1, NULL, "
                                 "&%s_model_value, NULL);\n"
                                 "}\n\n"
                                 "const struct anvil_model *%s_model(void) {\n"
                                 "    pthread_once(&%s_model_once, %s_model_load);\n"
                                 "    return %s_model_value;\n"
                                 "}\n\n",
                                 g->prefix, g->prefix, g->prefix, g->prefix, g->prefix, g->prefix, g->prefix, g->prefix,
                                 g->prefix, g->prefix)
             : rc;
    rc = rc == ANVIL_OK
             ? s_signaturef(g->c, s_client_params, S_N(s_client_params), ") {", "int %s_client_new(", g->prefix)
             : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(g->c,
                                            "    const struct anvil_model *model = %s_model();\n"
                                            "    if (!model) {\n"
                                            "        return ANVIL_ENOMEM;\n"
                                            "    }\n"
                                            "    return anvil_client_new(NULL, model, \"%.*s\", options, out, diag);\n"
                                            "}\n\n",
                                            g->prefix, (int)service_id.len, service_id.ptr)
                        : rc;
    if (rc == ANVIL_OK && page_count) {
        rc = anvil_buf_appendf(g->c,
                               "static struct anvil_paginator_set *%s_paginator_set;\n"
                               "static pthread_once_t %s_paginators_once = PTHREAD_ONCE_INIT;\n\n"
                               "static void %s_paginators_load(void) {\n"
                               "    const struct anvil_model *model = %s_model();\n"
                               "    if (model) {\n"
                               "        (void)anvil_paginator_set_from_model(NULL, model, &%s_paginator_set, NULL);\n"
                               "    }\n"
                               "}\n\n"
                               "const struct anvil_paginator_set *%s_paginators(void) {\n"
                               "    pthread_once(&%s_paginators_once, %s_paginators_load);\n"
                               "    return %s_paginator_set;\n"
                               "}\n\n",
                               g->prefix, g->prefix, g->prefix, g->prefix, g->prefix, g->prefix, g->prefix, g->prefix,
                               g->prefix);
    }
    free(pages);
    if (rc == ANVIL_OK && g->helpers.len) {
        rc = anvil_buf_append_cstr(g->c, "/* ---- helpers of the compiled paths ---- */\n\n");
        rc = rc == ANVIL_OK ? anvil_buf_append(g->c, g->helpers.data, g->helpers.len) : rc;
    }
    rc = rc == ANVIL_OK
             ? anvil_buf_append_cstr(g->c, "/* ---- matchers: each acceptor's path and comparator ---- */\n\n")
             : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append(g->c, g->matchers.data, g->matchers.len) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(g->c, "/* ---- waiters ---- */\n\n") : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append(g->c, g->tables.data, g->tables.len) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append(g->c, g->functions.data, g->functions.len) : rc;
    /* One newline at the end of the file, not the blank line each function leaves after it. */
    while (rc == ANVIL_OK && g->c->len >= 2 && g->c->data[g->c->len - 1] == '\n' && g->c->data[g->c->len - 2] == '\n') {
        g->c->len--;
    }
    rc = rc == ANVIL_OK ? anvil__c_rewrap(g->h, g->h_start) : rc;
    return rc == ANVIL_OK ? anvil__c_rewrap(g->c, g->c_start) : rc;
}

int anvil_codegen_generate(const struct anvil_model *model, const struct anvil_codegen_options *options,
                           struct anvil_buf *header, struct anvil_buf *source, struct anvil_codegen_stats *stats,
                           struct anvil_diag *diag) {
    if (!model || !options || !header || !source) {
        return ANVIL_EINVAL;
    }
    if (!s_identifier(options->prefix) || strlen(options->prefix) > 40) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the prefix `%s` is not a C identifier of at most 40 bytes",
                              options->prefix ? options->prefix : "");
    }
    /*
     * anvil's, POSIX threads' and libcurl's names, and the compiled paths'
     * static helpers (jpc_get, ...): the generated symbols would clash.
     */
    static const char *const reserved[] = {"anvil", "pthread", "curl", "jpc"};
    static const char *const owners[] = {"anvil's", "pthread's", "curl's", "the compiled paths' helpers'"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        if (strncasecmp(options->prefix, reserved[i], strlen(reserved[i])) == 0) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                  "the prefix `%s` would make names that clash with %s: choose another",
                                  options->prefix, owners[i]);
        }
    }
    if (options->prefix[0] == '_') {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "the prefix `%s` starts with '_': names so made are reserved to the C implementation",
                              options->prefix);
    }
    struct s_gen g;
    memset(&g, 0, sizeof g);
    g.model = model;
    g.prefix = options->prefix;
    g.interpret = options->interpret;
    g.h = header;
    g.c = source;
    g.c_start = source->len;
    g.h_start = header->len;
    g.diag = diag;
    if (options->service) {
        g.service = anvil_model_find(model, options->service, strlen(options->service));
    } else {
        for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
            const struct anvil_shape *s = anvil_model_shape_at(model, i);
            if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE && !anvil_shape_is_prelude(s)) {
                if (g.service) {
                    return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the model has more than one service: name one");
                }
                g.service = s;
            }
        }
    }
    if (!g.service || anvil_shape_type(g.service) != ANVIL_SHAPE_SERVICE) {
        return options->service
                   ? anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "`%s` is not a service of the model", options->service)
                   : anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "the model has no service");
    }
    anvil_buf_init(&g.helpers, NULL, 0);
    anvil_buf_init(&g.matchers, NULL, 0);
    anvil_buf_init(&g.tables, NULL, 0);
    anvil_buf_init(&g.functions, NULL, 0);
    anvil_buf_init(&g.claimed, NULL, 0);
    g.found = calloc(S_MAX_MATCHERS, sizeof *g.found);
    int rc = g.found ? s_generate(&g, options) : ANVIL_ENOMEM;
    for (size_t i = 0; i < g.found_count; i++) {
        free(g.found[i].key);
    }
    free(g.found);
    for (size_t i = 0; i < g.op_count; i++) {
        free(g.ops[i]);
    }
    anvil_waiter_set_destroy(g.waiters);
    anvil_paginator_set_destroy(g.paginators);
    anvil_buf_clean_up(&g.helpers);
    anvil_buf_clean_up(&g.matchers);
    anvil_buf_clean_up(&g.tables);
    anvil_buf_clean_up(&g.functions);
    anvil_buf_clean_up(&g.claimed);
    if (stats) {
        *stats = g.stats;
    }
    return rc;
}
