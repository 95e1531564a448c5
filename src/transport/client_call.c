/*
 * One logical call, blocking: the call's state machine (call_run.c) driven
 * on the calling thread, sleeping through the client's env and sending
 * with curl's easy interface. And anvil_client_prepare(): a call's first
 * request, signed, without sending it.
 */

#include <stdio.h>
#include <string.h>

#include "transport/call_internal.h"

/* The longest single sleep, so the caller's cancel flag is seen promptly. */
#define S_SLEEP_SLICE_MS 200

/* Sleeps `ms` on the client's env: ANVIL_OK, or ANVIL_ECANCELED when the flag or the env cancelled it. */
static int s_sleep(struct anvil_client *c, uint64_t ms) {
    return anvil__env_sleep_sliced(c->options.env, ms, c->options.cancel, S_SLEEP_SLICE_MS);
}

/* Sleeps until `deadline` on the client's env (see s_sleep). */
static int s_sleep_until(struct anvil_client *c, uint64_t deadline) {
    uint64_t now = anvil_env_now_ms(c->options.env);
    return s_sleep(c, deadline > now ? deadline - now : 0);
}

static int s_call(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                  uint64_t deadline_ms, const struct anvil_waiter *waiter, struct anvil_arena *arena,
                  struct anvil_operation_reply *reply) {
    if (reply) {
        memset(reply, 0, sizeof *reply);
    }
    if (!c || !op || !arena || !reply) {
        return ANVIL_EINVAL;
    }
    struct anvil__call k;
    anvil__call_start(&k, c, op, input, deadline_ms, waiter, arena, reply);
    for (;;) {
        uint64_t wake = 0;
        enum anvil__call_step step = anvil__call_next(&k, anvil_env_now_ms(c->options.env), &wake);
        if (step == ANVIL__CALL_DONE) {
            break;
        }
        if (step == ANVIL__CALL_SLEEP) {
            int rc = s_sleep_until(c, wake);
            if (rc != ANVIL_OK) {
                anvil__call_stop(&k, rc);
            }
            continue;
        }
        struct anvil__attempt a;
        int rc = anvil__client_send(c, &k.ep, &k.req, &k.x, &a);
        if (rc != ANVIL_OK) {
            anvil__call_stop(&k, rc);
            continue;
        }
        anvil__call_sent(&k, &a, anvil_env_now_ms(c->options.env));
    }
    return anvil__call_end(&k);
}

int anvil_client_call(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                      uint64_t deadline_ms, struct anvil_arena *arena, struct anvil_operation_reply *reply) {
    return s_call(c, op, input, deadline_ms, NULL, arena, reply);
}

int anvil_client_operation_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms,
                                struct anvil_arena *arena, struct anvil_operation_reply *reply) {
    const struct anvil_client_operation *o = user_data;
    return s_call(o->client, o->operation, input, deadline_ms, o->waiter, arena, reply);
}

static int s_keep(struct anvil_arena *arena, struct anvil_str_view in, struct anvil_str_view *out) {
    char *copy = anvil_arena_strndup(arena, in.ptr ? in.ptr : "", in.len);
    *out = copy ? anvil_sv(copy, in.len) : anvil_sv("", 0);
    return copy ? ANVIL_OK : ANVIL_ENOMEM;
}

int anvil_client_prepare(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                         struct anvil_arena *arena, struct anvil_http_request *out, struct anvil_diag *diag) {
    if (!c || !op || !arena || !out) {
        return ANVIL_EINVAL;
    }
    memset(out, 0, sizeof *out);
    struct anvil__request req;
    anvil__request_init(&req, c->allocator, arena);
    struct anvil__protocol_context ctx = anvil__call_context(c, op);
    int rc = anvil__request_build(c->protocol, &ctx, op, input, &req, diag);
    struct anvil__prepared p;
    struct anvil__endpoint ep;
    if (rc == ANVIL_OK) {
        rc = anvil__client_endpoint(c, op, input, arena, &ep, NULL, diag);
    }
    if (rc == ANVIL_OK && ep.sign) {
        rc = anvil__client_credentials(c, diag);
    }
    if (rc == ANVIL_OK) {
        rc = anvil__client_prepare(c, &ep, &req, &p);
        if (rc == ANVIL_EINVAL) {
            anvil_diag_set(diag, rc, 0, 0, 0, "a header of the request holds CR, LF or NUL");
        } else if (rc == ANVIL_ELIMIT) {
            anvil_diag_set(diag, rc, 0, 0, 0, "the request's URL would be longer than 16 KiB");
        }
    }
    if (rc == ANVIL_OK) {
        struct anvil_http_header *headers = p.header_count ? anvil_arena_alloc(arena, p.header_count * sizeof *headers,
                                                                               _Alignof(struct anvil_http_header))
                                                           : NULL;
        rc = headers || !p.header_count ? ANVIL_OK : ANVIL_ENOMEM;
        for (size_t i = 0; i < p.header_count && rc == ANVIL_OK; i++) {
            rc = s_keep(arena, p.headers[i].name, &headers[i].name);
            rc = rc == ANVIL_OK ? s_keep(arena, p.headers[i].value, &headers[i].value) : rc;
        }
        struct anvil_str_view url = anvil_buf_view(&p.url);
        const char *authority = memchr(url.ptr, ':', url.len);
        const char *slash = authority && authority + 3 <= url.ptr + url.len
                                ? memchr(authority + 3, '/', (size_t)(url.ptr + url.len - authority - 3))
                                : NULL;
        rc = rc == ANVIL_OK ? s_keep(arena, url, &out->url) : rc;
        rc = rc == ANVIL_OK ? s_keep(arena, anvil_sv_from_cstr(req.method), &out->method) : rc;
        if (rc == ANVIL_OK && slash) {
            out->target = anvil_sv(out->url.ptr + (slash - url.ptr), (size_t)(url.ptr + url.len - slash));
        }
        uint8_t *body = req.body.len ? anvil_arena_alloc(arena, req.body.len, 1) : NULL;
        if (rc == ANVIL_OK && req.body.len && !body) {
            rc = ANVIL_ENOMEM;
        }
        if (rc == ANVIL_OK) {
            if (body) {
                memcpy(body, req.body.data, req.body.len);
            }
            out->headers = headers;
            out->header_count = p.header_count;
            out->body = body;
            out->body_len = req.body.len;
        }
        anvil__prepared_clean_up(&p);
    }
    anvil__request_clean_up(&req);
    return rc;
}
