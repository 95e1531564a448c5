/*
 * Paginating, sans-I/O: each page's input is a copy of the caller's with
 * the tokens (and page size) set; each page's output gives the next tokens,
 * which end the run when missing, null, "" or {} (or when more_results is
 * false), when they repeat the request's (CloudWatch Logs), or when they
 * repeat a set seen within the cycle window (A, B, A, B). max_items cuts
 * the run with a botocore-compatible resume token.
 */

#include <string.h>

#include "anvil/paginator.h"
#include "behavior/behavior_internal.h"
#include "core/core_internal.h"

/* botocore's key for the items already returned from a truncated page. */
#define S_TRUNCATE_KEY "boto_truncate_amount"

struct anvil_paginate_run {
    struct anvil_allocator *allocator;
    const struct anvil_paginator *p;
    const struct anvil_json *input;
    struct anvil_paginate_options options;
    /* Token values of the current request and of the next one, in alternating arenas. */
    struct anvil_arena *token_arenas[2];
    struct anvil_json *tokens[2];
    int cur;
    struct anvil_arena *page_arena; /* the page input and sliced items; reset per call */
    struct anvil_json page_input;
    uint64_t pages, items, first_truncate;
    bool ended;
    /* The current request's token set, serialized, and the sets before it (a ring). */
    struct anvil_buf request_key;
    struct anvil_buf *window;
    size_t window_count, window_next;
    struct anvil_buf resume;
};

const char *anvil_paginate_reason_name(enum anvil_paginate_reason reason) {
    static const char *const names[] = {"more",  "no-token",  "not-truncated", "duplicate-token",
                                        "cycle", "max-pages", "max-items"};
    return (unsigned)reason < sizeof names / sizeof names[0] ? names[reason] : "unknown";
}

uint64_t anvil_paginate_pages(const struct anvil_paginate_run *run) {
    return run ? run->pages : 0;
}

uint64_t anvil_paginate_items(const struct anvil_paginate_run *run) {
    return run ? run->items : 0;
}

/* ---- base64 (RFC 4648, padded), for resume tokens ---- */

static const char s_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int s_b64_encode(const char *in, size_t len, struct anvil_buf *out) {
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)(unsigned char)in[i] << 16;
        v |= i + 1 < len ? (uint32_t)(unsigned char)in[i + 1] << 8 : 0;
        v |= i + 2 < len ? (uint32_t)(unsigned char)in[i + 2] : 0;
        char q[4] = {s_b64[(v >> 18) & 63], s_b64[(v >> 12) & 63], i + 1 < len ? s_b64[(v >> 6) & 63] : '=',
                     i + 2 < len ? s_b64[v & 63] : '='};
        int rc = anvil_buf_append(out, q, 4);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

static int s_b64_value(char c) {
    const char *at = c ? strchr(s_b64, c) : NULL;
    return at ? (int)(at - s_b64) : -1;
}

/* Decodes padded or unpadded base64; ANVIL_ESYNTAX on anything else. */
static int s_b64_decode(struct anvil_str_view in, struct anvil_buf *out) {
    while (in.len && in.ptr[in.len - 1] == '=') {
        in.len--;
    }
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < in.len; i++) {
        int v = s_b64_value(in.ptr[i]);
        if (v < 0) {
            return ANVIL_ESYNTAX;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            int rc = anvil_buf_append_byte(out, (char)((acc >> bits) & 0xFF));
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
    }
    return ANVIL_OK;
}

/* ---- tokens ---- */

/* A token that ends pagination: missing, null, "" or an empty object. */
static bool s_absent(const struct anvil_json *v) {
    return !v || anvil_json_is_null(v) || (anvil_json_is_string(v) && anvil_json_len(v) == 0) ||
           (anvil_json_is_object(v) && anvil_json_len(v) == 0);
}

/* The token set as compact JSON, absent tokens as null. */
static int s_key(const struct anvil_paginate_run *r, const struct anvil_json *tokens, struct anvil_buf *out) {
    anvil_buf_clear(out);
    int rc = anvil_buf_append_byte(out, '[');
    for (size_t i = 0; rc == ANVIL_OK && i < r->p->token_count; i++) {
        if (i) {
            rc = anvil_buf_append_byte(out, ',');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_json_write(&tokens[i], ANVIL_JSON_WRITE_COMPACT, out);
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, ']') : rc;
}

/* A resume token: base64 of {"inputToken": value, ..., "boto_truncate_amount": n}. */
static int s_resume(struct anvil_paginate_run *r, const struct anvil_json *tokens, uint64_t truncate) {
    struct anvil_buf json;
    anvil_buf_init(&json, r->allocator, 0);
    int rc = anvil_buf_append_byte(&json, '{');
    bool first = true;
    for (size_t i = 0; rc == ANVIL_OK && i < r->p->token_count; i++) {
        if (s_absent(&tokens[i])) {
            continue;
        }
        if (!first) {
            rc = anvil_buf_append_byte(&json, ',');
        }
        first = false;
        if (rc == ANVIL_OK) {
            rc = anvil_json_write_string(r->p->input_tokens[i], 0, &json);
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(&json, ':');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_json_write(&tokens[i], ANVIL_JSON_WRITE_COMPACT, &json);
        }
    }
    if (rc == ANVIL_OK && truncate) {
        rc = anvil_buf_appendf(&json, "%s\"" S_TRUNCATE_KEY "\":%llu", first ? "" : ",", (unsigned long long)truncate);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&json, '}');
    }
    anvil_buf_clear(&r->resume);
    if (rc == ANVIL_OK) {
        rc = s_b64_encode(json.data, json.len, &r->resume);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_reserve(&r->resume, 1); /* NUL-terminated for the caller */
    }
    anvil_buf_clean_up(&json);
    return rc;
}

/* The starting token's tokens and truncate amount, into the current slot. */
static int s_starting_token(struct anvil_paginate_run *r, struct anvil_diag *diag) {
    struct anvil_buf raw;
    anvil_buf_init(&raw, r->allocator, 1 << 20);
    struct anvil_json value;
    int rc = s_b64_decode(r->options.starting_token, &raw);
    if (rc == ANVIL_OK) {
        rc = anvil_json_parse_into(r->token_arenas[r->cur], r->allocator, raw.data ? raw.data : "", raw.len, NULL,
                                   &value, NULL);
    }
    anvil_buf_clean_up(&raw);
    if (rc == ANVIL_ENOMEM) {
        return rc;
    }
    if (rc != ANVIL_OK || !anvil_json_is_object(&value)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "bad starting token: not a resume token");
    }
    for (size_t m = 0; m < anvil_json_len(&value); m++) {
        const struct anvil_json_member *member = anvil_json_object_at(&value, m);
        struct anvil_str_view key = anvil_json_member_key(member);
        if (anvil_sv_eq_cstr(key, S_TRUNCATE_KEY)) {
            if (!anvil_json_is_int(&member->value) || anvil_json_int(&member->value) < 0) {
                return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "bad starting token: a bad truncate amount");
            }
            r->first_truncate = (uint64_t)anvil_json_int(&member->value);
            continue;
        }
        size_t i = 0;
        while (i < r->p->token_count && !anvil_sv_eq(key, r->p->input_tokens[i])) {
            i++;
        }
        if (i == r->p->token_count) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "bad starting token: `%.*s` is not an input token",
                                  (int)key.len, key.ptr);
        }
        r->tokens[r->cur][i] = member->value;
    }
    return ANVIL_OK;
}

/* ---- the run ---- */

void anvil_paginate_destroy(struct anvil_paginate_run *r) {
    if (!r) {
        return;
    }
    for (size_t i = 0; r->window && i < r->options.cycle_window; i++) {
        anvil_buf_clean_up(&r->window[i]);
    }
    anvil_mem_release(r->allocator, r->window);
    anvil_buf_clean_up(&r->request_key);
    anvil_buf_clean_up(&r->resume);
    anvil_arena_destroy(r->token_arenas[0]);
    anvil_arena_destroy(r->token_arenas[1]);
    anvil_arena_destroy(r->page_arena);
    anvil_mem_release(r->allocator, r->tokens[0]);
    anvil_mem_release(r->allocator, r->tokens[1]);
    anvil_mem_release(r->allocator, r);
}

int anvil_paginate_start(struct anvil_allocator *allocator, const struct anvil_paginator *p,
                         const struct anvil_json *input, const struct anvil_paginate_options *options,
                         struct anvil_paginate_run **out, struct anvil_diag *diag) {
    if (!out || !p || p->token_count == 0) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "no paginator");
    }
    *out = NULL;
    if (input && !anvil_json_is_object(input)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the input must be an object");
    }
    struct anvil_paginate_options o = options ? *options : (struct anvil_paginate_options){0};
    if (o.page_size < 0 || (unsigned)o.duplicates > ANVIL_PAGINATE_DUP_CONTINUE ||
        o.cycle_window > ANVIL_PAGINATE_MAX_CYCLE_WINDOW) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "invalid options: page size must be >= 0 and the cycle window at most %d",
                              ANVIL_PAGINATE_MAX_CYCLE_WINDOW);
    }
    if (!o.cycle_window) {
        o.cycle_window = ANVIL_PAGINATE_DEFAULT_CYCLE_WINDOW;
    }
    struct anvil_paginate_run *r = anvil_mem_acquire(allocator, sizeof *r);
    if (!r) {
        return ANVIL_ENOMEM;
    }
    memset(r, 0, sizeof *r);
    r->allocator = allocator;
    r->p = p;
    r->input = input;
    r->options = o;
    anvil_buf_init(&r->request_key, allocator, 0);
    anvil_buf_init(&r->resume, allocator, 0);
    int rc = ANVIL_OK;
    for (int i = 0; i < 2 && rc == ANVIL_OK; i++) {
        rc = anvil_arena_new(allocator, NULL, &r->token_arenas[i]);
        if (rc == ANVIL_OK) {
            r->tokens[i] = anvil_mem_acquire(allocator, p->token_count * sizeof *r->tokens[i]);
            rc = r->tokens[i] ? ANVIL_OK : ANVIL_ENOMEM;
        }
    }
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(allocator, NULL, &r->page_arena);
    }
    if (rc == ANVIL_OK) {
        r->window = anvil_mem_acquire(allocator, o.cycle_window * sizeof *r->window);
        rc = r->window ? ANVIL_OK : ANVIL_ENOMEM;
        for (size_t i = 0; rc == ANVIL_OK && i < o.cycle_window; i++) {
            anvil_buf_init(&r->window[i], allocator, 0);
        }
    }
    if (rc == ANVIL_OK) {
        /* The first request's tokens: the starting token's, else whatever the input carries. */
        for (size_t i = 0; i < p->token_count; i++) {
            const struct anvil_json *v = anvil_json_object_get(input, p->input_tokens[i].ptr, p->input_tokens[i].len);
            r->tokens[0][i] = v ? *v : anvil_json_make_null();
        }
        if (o.starting_token.len) {
            for (size_t i = 0; i < p->token_count; i++) {
                r->tokens[0][i] = anvil_json_make_null();
            }
            rc = s_starting_token(r, diag);
        }
    }
    if (rc == ANVIL_OK) {
        rc = s_key(r, r->tokens[0], &r->request_key);
    }
    if (rc != ANVIL_OK) {
        anvil_paginate_destroy(r);
        return rc;
    }
    *out = r;
    return ANVIL_OK;
}

void anvil_paginate_set_page_size(struct anvil_paginate_run *r, int64_t page_size) {
    if (r && page_size >= 0) {
        r->options.page_size = page_size;
    }
}

static bool s_is_token_member(const struct anvil_paginate_run *r, struct anvil_str_view key) {
    for (size_t i = 0; i < r->p->token_count; i++) {
        if (anvil_sv_eq(key, r->p->input_tokens[i])) {
            return true;
        }
    }
    return r->options.page_size > 0 && r->p->page_size.len && anvil_sv_eq(key, r->p->page_size);
}

int anvil_paginate_input(struct anvil_paginate_run *r, const struct anvil_json **input) {
    if (!r || r->ended) {
        return ANVIL_EINVAL;
    }
    anvil_arena_reset(r->page_arena);
    struct anvil_json_builder *b = NULL;
    int rc = anvil_json_builder_new(r->allocator, r->page_arena, &b);
    if (rc != ANVIL_OK) {
        return rc;
    }
    anvil_json_builder_begin_object(b);
    for (size_t i = 0; r->input && i < anvil_json_len(r->input); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(r->input, i);
        struct anvil_str_view key = anvil_json_member_key(m);
        if (!s_is_token_member(r, key)) {
            anvil_json_builder_key(b, key.ptr, key.len);
            anvil_json_builder_value(b, &m->value);
        }
    }
    for (size_t i = 0; i < r->p->token_count; i++) {
        if (!s_absent(&r->tokens[r->cur][i])) {
            anvil_json_builder_key(b, r->p->input_tokens[i].ptr, r->p->input_tokens[i].len);
            anvil_json_builder_value(b, &r->tokens[r->cur][i]);
        }
    }
    if (r->options.page_size > 0 && r->p->page_size.len) {
        anvil_json_builder_key(b, r->p->page_size.ptr, r->p->page_size.len);
        anvil_json_builder_int(b, r->options.page_size);
    }
    anvil_json_builder_end_object(b);
    rc = anvil_json_builder_finish(b, &r->page_input);
    anvil_json_builder_destroy(b);
    if (rc == ANVIL_OK) {
        *input = &r->page_input;
    }
    return rc;
}

static size_t s_count(const struct anvil_json *items) {
    return anvil_json_is_array(items) || anvil_json_is_object(items) ? anvil_json_len(items) : 0;
}

/* items[from, from + n) as a new list or object in the page arena. */
static int s_slice(struct anvil_paginate_run *r, struct anvil_json *items, size_t from, size_t n) {
    size_t len = s_count(items);
    from = from < len ? from : len;
    n = n < len - from ? n : len - from;
    if (anvil_json_is_array(items)) {
        struct anvil_json *slots = NULL, out;
        int rc = anvil_json_new_array(r->page_arena, n, &out, &slots);
        if (rc == ANVIL_OK && n) {
            memcpy(slots, anvil_json_array_at(items, from), n * sizeof *slots);
        }
        if (rc == ANVIL_OK) {
            *items = out;
        }
        return rc;
    }
    if (anvil_json_is_object(items)) {
        /* The members of a range are contiguous; the new object shares their keys and values. */
        struct anvil_json out;
        int rc = anvil_json_new_object_members(r->page_arena, n ? anvil_json_object_at(items, from) : NULL, n, &out);
        if (rc == ANVIL_OK) {
            *items = out;
        }
        return rc;
    }
    return ANVIL_OK;
}

static int s_search(struct anvil_paginate_run *r, const struct anvil_jmespath *expr, const struct anvil_json *output,
                    struct anvil_arena *arena, struct anvil_json *value) {
    *value = anvil_json_make_null();
    int rc = anvil_jmespath_search(expr, output, arena, value, NULL);
    (void)r;
    if (rc == ANVIL_ENOMEM || rc == ANVIL_ELIMIT) {
        return rc;
    }
    if (rc != ANVIL_OK) {
        *value = anvil_json_make_null(); /* a path that fails on this output finds nothing */
    }
    return ANVIL_OK;
}

/* Whether `key` is among the remembered token sets. */
static bool s_seen(const struct anvil_paginate_run *r, const struct anvil_buf *key) {
    for (size_t i = 0; i < r->window_count; i++) {
        const struct anvil_buf *w = &r->window[i];
        if (w->len == key->len && memcmp(w->data, key->data, key->len) == 0) {
            return true;
        }
    }
    return false;
}

static int s_remember(struct anvil_paginate_run *r) {
    struct anvil_buf *slot = &r->window[r->window_next];
    anvil_buf_clear(slot);
    int rc = anvil_buf_append(slot, r->request_key.data, r->request_key.len);
    r->window_next = (r->window_next + 1) % r->options.cycle_window;
    if (r->window_count < r->options.cycle_window) {
        r->window_count++;
    }
    return rc;
}

int anvil_paginate_report(struct anvil_paginate_run *r, const struct anvil_json *output,
                          struct anvil_paginate_page *page) {
    memset(page, 0, sizeof *page);
    page->items = anvil_json_make_null();
    page->resume_token = anvil_sv("", 0);
    if (!r || r->ended) {
        return ANVIL_EINVAL;
    }
    r->pages++;
    page->number = r->pages;
    int next = 1 - r->cur;
    anvil_arena_reset(r->token_arenas[next]);
    struct anvil_json null_output = anvil_json_make_null();
    output = output ? output : &null_output;
    int rc = ANVIL_OK;
    /* The page's items, sliced for a starting token's truncate amount. */
    if (r->p->item_count) {
        rc = s_search(r, r->p->items[0], output, r->page_arena, &page->items);
        if (rc == ANVIL_OK && r->pages == 1 && r->first_truncate) {
            rc = s_slice(r, &page->items, (size_t)r->first_truncate, SIZE_MAX);
        }
    }
    /* The next tokens, copied: the output need not outlive this call. */
    bool has_next = false;
    for (size_t i = 0; rc == ANVIL_OK && i < r->p->token_count; i++) {
        struct anvil_json v;
        rc = s_search(r, r->p->output_tokens[i], output, r->token_arenas[next], &v);
        if (rc == ANVIL_OK) {
            if (s_absent(&v)) {
                v = anvil_json_make_null();
            }
            has_next |= !anvil_json_is_null(&v);
            rc = anvil_json_copy(r->token_arenas[next], &v, &r->tokens[next][i]);
        }
    }
    enum anvil_paginate_reason reason = has_next ? ANVIL_PAGINATE_MORE : ANVIL_PAGINATE_NO_TOKEN;
    if (rc == ANVIL_OK && has_next && r->p->more_results) {
        struct anvil_json more;
        rc = s_search(r, r->p->more_results, output, r->token_arenas[next], &more);
        if (rc == ANVIL_OK && !anvil_jmespath_truthy(&more)) {
            reason = ANVIL_PAGINATE_NOT_TRUNCATED;
        }
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    /* max_items: cut the page, and say where to resume. */
    size_t count = s_count(&page->items);
    if (r->options.max_items) {
        uint64_t remaining = r->options.max_items - r->items;
        if (count > remaining) {
            uint64_t truncate = remaining + (r->pages == 1 ? r->first_truncate : 0);
            if ((rc = s_slice(r, &page->items, 0, (size_t)remaining)) != ANVIL_OK ||
                (rc = s_resume(r, r->tokens[r->cur], truncate)) != ANVIL_OK) {
                return rc;
            }
            count = (size_t)remaining;
            reason = ANVIL_PAGINATE_MAX_ITEMS;
        } else if (count == remaining && reason == ANVIL_PAGINATE_MORE) {
            if ((rc = s_resume(r, r->tokens[next], 0)) != ANVIL_OK) {
                return rc;
            }
            reason = ANVIL_PAGINATE_MAX_ITEMS;
        }
    }
    r->items += count;
    int status = ANVIL_OK;
    struct anvil_buf key;
    anvil_buf_init(&key, r->allocator, 0);
    if (reason == ANVIL_PAGINATE_MORE) {
        rc = s_key(r, r->tokens[next], &key);
        bool echoed =
            rc == ANVIL_OK && key.len == r->request_key.len && memcmp(key.data, r->request_key.data, key.len) == 0;
        if (rc == ANVIL_OK && r->options.duplicates != ANVIL_PAGINATE_DUP_CONTINUE) {
            if (echoed) {
                reason = ANVIL_PAGINATE_DUPLICATE_TOKEN;
            } else if (s_seen(r, &key)) {
                reason = ANVIL_PAGINATE_CYCLE;
            }
            if (reason != ANVIL_PAGINATE_MORE && r->options.duplicates == ANVIL_PAGINATE_DUP_ERROR) {
                status = ANVIL_EVALUE;
            }
        }
    }
    if (rc == ANVIL_OK && reason == ANVIL_PAGINATE_MORE && r->options.max_pages && r->pages >= r->options.max_pages) {
        reason = ANVIL_PAGINATE_MAX_PAGES;
        rc = s_resume(r, r->tokens[next], 0);
    }
    if (rc == ANVIL_OK && reason == ANVIL_PAGINATE_MORE) {
        /* Move on: the next tokens become the request's; the old set joins the window. */
        rc = s_remember(r);
        if (rc == ANVIL_OK) {
            anvil_buf_clear(&r->request_key);
            rc = anvil_buf_append(&r->request_key, key.data, key.len);
        }
        r->cur = next;
    }
    anvil_buf_clean_up(&key);
    if (rc != ANVIL_OK) {
        return rc;
    }
    page->reason = reason;
    r->ended = reason != ANVIL_PAGINATE_MORE;
    if (r->resume.len) {
        page->resume_token = anvil_buf_view(&r->resume);
    }
    return status;
}
