/* Helpers for the endpoint rules engine's unit tests (test_endpoint*.c). */

#ifndef ANVIL_TEST_ENDPOINT_H
#define ANVIL_TEST_ENDPOINT_H

#include <stdarg.h>
#include <stdio.h>

#include "core/core_internal.h"
#include "harness.h"

/*
 * printf into memory from the test's allocator, then every ' becomes ",
 * so JSON reads well in C strings. NULL when memory runs out.
 */
ANVIL_PRINTF(2, 0)
static inline char *ep_vq(struct anvil_test *t, const char *fmt, va_list args) {
    va_list copy;
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    char *text = n < 0 ? NULL : anvil_mem_acquire(t->alloc, (size_t)n + 1);
    if (!text) {
        return NULL;
    }
    vsnprintf(text, (size_t)n + 1, fmt, args);
    for (char *p = text; *p; p++) {
        if (*p == '\'') {
            *p = '"';
        }
    }
    return text;
}

ANVIL_PRINTF(2, 3)
static inline char *ep_q(struct anvil_test *t, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    char *text = ep_vq(t, fmt, args);
    va_end(args);
    return text;
}

/*
 * Compiles the JSON `text` with the test's allocator. The document is freed
 * before this returns: compiled rules must not refer to it.
 */
static inline int ep_compile_text(struct anvil_test *t, const char *text,
                                  const struct anvil_endpoint_rules_options *opts, struct anvil_endpoint_rules **out,
                                  struct anvil_diag *diag) {
    *out = NULL;
    if (!text) {
        return ANVIL_ENOMEM;
    }
    struct anvil_json_doc *doc = NULL;
    struct anvil_json_parse_options po = {.max_depth = ANVIL_JSON_MAX_DEPTH};
    int rc = anvil_json_parse(t->alloc, text, strlen(text), &po, &doc, diag);
    if (rc == ANVIL_OK) {
        rc = anvil_endpoint_rules_compile(t->alloc, anvil_json_doc_root(doc), opts, out, diag);
    }
    anvil_json_doc_destroy(doc);
    return rc;
}

/* ep_compile_text() of ep_q(fmt, ...). */
ANVIL_PRINTF(5, 6)
static inline int ep_compile(struct anvil_test *t, const struct anvil_endpoint_rules_options *opts,
                             struct anvil_endpoint_rules **out, struct anvil_diag *diag, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    char *text = ep_vq(t, fmt, args);
    va_end(args);
    int rc = ep_compile_text(t, text, opts, out, diag);
    anvil_mem_release(t->alloc, text);
    return rc;
}

/* Resolves with the parameters given as JSON text (quotes as in ep_q()), parsed into `arena`. */
ANVIL_PRINTF(6, 7)
static inline int ep_resolve(struct anvil_test *t, const struct anvil_endpoint_rules *rules, struct anvil_arena *arena,
                             struct anvil_endpoint *out, struct anvil_diag *diag, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    char *text = ep_vq(t, fmt, args);
    va_end(args);
    if (!text) {
        return ANVIL_ENOMEM;
    }
    struct anvil_json params;
    int rc = anvil_json_parse_into(arena, t->alloc, text, strlen(text), NULL, &params, diag);
    anvil_mem_release(t->alloc, text);
    if (rc != ANVIL_OK) {
        return rc;
    }
    return anvil_endpoint_resolve_object(rules, &params, arena, out, diag);
}

/* A view equals a C string. */
static inline bool ep_eq(struct anvil_str_view sv, const char *s) {
    return sv.len == strlen(s) && memcmp(sv.ptr, s, sv.len) == 0;
}

/* `v` written as compact JSON equals `want` (quotes as in ep_q()). */
static inline bool ep_json_is(struct anvil_test *t, const struct anvil_json *v, const char *want) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    bool same = false;
    int rc = anvil_json_write(v, 0, &buf);
    if (rc == ANVIL_ENOMEM && anvil_test_injected(t)) {
        /* The injected failure: a clean stop, not a mismatch. */
        t->stopped_by_injection = true;
        same = true;
    } else if (rc == ANVIL_OK) {
        struct anvil_str_view got = anvil_buf_view(&buf);
        size_t n = strlen(want);
        same = got.len == n;
        for (size_t i = 0; same && i < n; i++) {
            same = got.ptr[i] == (want[i] == '\'' ? '"' : want[i]);
        }
        if (!same) {
            fprintf(stderr, "  JSON: got %.*s\n        want %s\n", (int)got.len, got.ptr, want);
        }
    }
    anvil_buf_clean_up(&buf);
    return same;
}

/*
 * One function case: a rule whose conditions are `conds` gives the
 * endpoint `url` (a template), else the error "none". `want` is the URL,
 * "!none" for that error, "!MESSAGE" for another error rule's message, or
 * "=ANVIL_E..." for a status.
 */
struct ep_case {
    const char *conds;
    const char *url;
    const char *params;
    const char *want;
};

#define EP_CASE_RULES                                                                                                  \
    "{'version':'1.1','parameters':{'In':{'type':'string'},'In2':{'type':'string'},'B':{'type':'boolean'},"            \
    "'L':{'type':'stringArray'}},'rules':[{'type':'endpoint','conditions':[%s],'endpoint':{'url':'%s'}},"              \
    "{'type':'error','conditions':[],'error':'none'}]}"

/* Runs `cases`, reporting each that fails; true when all pass (or stopped by an injected failure). */
static inline bool ep_run_cases(struct anvil_test *t, const struct ep_case *cases, size_t n) {
    bool ok = true;
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(t->alloc, NULL, &arena) != ANVIL_OK) {
        return anvil_test_status_mismatch(t, __FILE__, __LINE__, "anvil_arena_new", ANVIL_ENOMEM, ANVIL_OK);
    }
    for (size_t i = 0; i < n && ok; i++) {
        const struct ep_case *c = &cases[i];
        struct anvil_endpoint_rules *rules = NULL;
        struct anvil_diag diag;
        int rc = ep_compile(t, NULL, &rules, &diag, EP_CASE_RULES, c->conds, c->url);
        if (rc != ANVIL_OK) {
            if (rc == ANVIL_ENOMEM && anvil_test_injected(t)) {
                t->stopped_by_injection = true;
            } else {
                anvil_test_fail(t, __FILE__, __LINE__, "case %zu (%s): compile %s: %s", i, c->conds,
                                anvil_status_name(rc), diag.message);
            }
            ok = false;
            break;
        }
        struct anvil_endpoint ep;
        anvil_arena_reset(arena);
        rc = ep_resolve(t, rules, arena, &ep, &diag, "%s", c->params);
        bool pass;
        if (c->want[0] == '=') {
            pass = strcmp(anvil_status_name(rc), c->want + 1) == 0;
        } else if (c->want[0] == '!') {
            pass = rc == ANVIL_ECONFIG && ep_eq(ep.error, c->want + 1) && strcmp(diag.message, c->want + 1) == 0;
        } else {
            pass = rc == ANVIL_OK && ep_eq(ep.url, c->want);
        }
        if (!pass) {
            if (rc == ANVIL_ENOMEM && anvil_test_injected(t)) {
                t->stopped_by_injection = true;
            } else {
                anvil_test_fail(t, __FILE__, __LINE__, "case %zu: conditions %s, params %s: want %s, got %s %s%.*s", i,
                                c->conds, c->params, c->want, anvil_status_name(rc), rc == ANVIL_OK ? "" : diag.message,
                                (int)ep.url.len, ep.url.ptr);
            }
            ok = false;
        }
        anvil_endpoint_rules_destroy(rules);
    }
    anvil_arena_destroy(arena);
    return ok || t->stopped_by_injection;
}

#endif
