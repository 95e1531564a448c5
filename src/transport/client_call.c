/*
 * One logical call: the request built once by the service's protocol
 * (idempotency token, serialisation, compression, checksum), then tries
 * through the retry strategy with the policy chain (the waiter's
 * acceptors, then the caller's policy), never past the call's deadline or
 * the retry loop's max total time; each answer read by the protocol.
 */

#include <stdio.h>
#include <string.h>

#include "transport/client_internal.h"

/* The policy chain of one call: the waiter's acceptors first, then the client's policy. */
struct s_policy {
    const struct anvil_client *client;
    const struct anvil_waiter *waiter;
    char why[160];
};

static void s_policy(void *ctx, const struct anvil_retry_response *r, struct anvil_retry_verdict *v) {
    struct s_policy *p = ctx;
    if (p->waiter && !r->success) {
        struct anvil_operation_error e = {r->code, anvil_sv("", 0), r->http_status};
        int acceptor = anvil_waiter_expects_error(p->waiter, &e);
        if (acceptor >= 0) {
            struct anvil_str_view name = p->waiter->name;
            /* Numbered from 1, as `anvil waiters` lists acceptors. */
            snprintf(p->why, sizeof p->why, "handed to the waiter %.*s, whose acceptor %d expects this error",
                     (int)name.len, name.ptr, acceptor + 1);
            v->directive = ANVIL_RETRY_DIRECTIVE_FAIL;
            v->why = p->why;
            return;
        }
    }
    if (p->client->options.retry_policy) {
        p->client->options.retry_policy(p->client->options.retry_policy_ctx, r, v);
    }
}

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

/* The earlier of two deadlines, 0 being "none". */
static uint64_t s_earlier(uint64_t a, uint64_t b) {
    return !a ? b : !b ? a : a < b ? a : b;
}

/* What one call keeps between its tries. */
struct s_call {
    struct anvil_client *client;
    const struct anvil_shape *op;
    uint64_t deadline_ms;
    struct anvil_arena *arena;
    struct anvil_operation_reply *reply;
    /* The last failed try's reply and status, restored when the deadline cuts a later try off. */
    struct anvil_operation_reply failed;
    int failed_result;
    bool has_failed;
};

/* A try cut off by a deadline: the call's own (ETIMEDOUT) or the retry loop's max total time (the last failure). */
static int s_cut_off(struct s_call *k, uint64_t loop_deadline, uint32_t attempt) {
    bool by_loop = loop_deadline && (!k->deadline_ms || loop_deadline < k->deadline_ms);
    if (k->has_failed) {
        *k->reply = k->failed;
        k->reply->failed_status = by_loop ? 0 : k->failed_result;
        return by_loop ? k->failed_result : ANVIL_ETIMEDOUT;
    }
    memset(k->reply, 0, sizeof *k->reply);
    char text[160];
    if (by_loop) {
        snprintf(text, sizeof text, "the retry loop's max total time ran out during attempt %u", attempt);
    } else {
        snprintf(text, sizeof text, "the request was cancelled at the deadline (attempt %u)", attempt);
    }
    char *copy = anvil_arena_strndup(k->arena, text, strlen(text));
    k->reply->error.message = copy ? anvil_sv_from_cstr(copy) : anvil_sv("", 0);
    return by_loop ? ANVIL_ETRANSPORT : ANVIL_ETIMEDOUT;
}

/* The Date header 5 minutes or more from the clock anvil signs with (the SDKs' threshold). */
#define S_CLOCK_SKEW_MS (5 * 60 * 1000)

/*
 * A clock-skew error (the codes AWS services use for a request signed at a
 * time too far from theirs) whose Date header is S_CLOCK_SKEW_MS or more
 * from our signing clock: sign with the server's time from now on, and say
 * so, so that the request is retried. Once corrected, the same error is no
 * longer one of these (the clocks then agree), so there is no loop.
 */
static bool s_correct_clock(struct anvil_client *c, const struct anvil__exchange *x, struct anvil_str_view code) {
    static const char *const codes[] = {"RequestTimeTooSkewed",      "RequestExpired",        "RequestInTheFuture",
                                        "InvalidSignatureException", "SignatureDoesNotMatch", "AuthFailure"};
    bool skew_code = false;
    struct anvil_str_view normal = anvil_error_code_normalize(code);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        skew_code = skew_code || anvil_sv_eq_cstr(normal, codes[i]);
    }
    if (!skew_code || x->server_date_ms < 0) {
        return false;
    }
    int64_t wall = (int64_t)anvil_env_wall_ms(c->options.env);
    int64_t skew = x->server_date_ms - (wall + c->clock_offset_ms);
    if (skew > -S_CLOCK_SKEW_MS && skew < S_CLOCK_SKEW_MS) {
        return false;
    }
    c->clock_offset_ms = x->server_date_ms - wall;
    anvil__client_debug(c, "clock skew: the service's clock is %lld s %s ours; signing with its time from now on",
                        (long long)(skew < 0 ? -skew : skew) / 1000, skew < 0 ? "behind" : "ahead of");
    return true;
}

/*
 * What the protocol reads besides the operation: S3 with rules leaves the
 * bucket to the endpoint, for an operation whose Bucket the rules take
 * (its @contextParam); otherwise the bucket stays in the path.
 */
static struct anvil__protocol_context s_context(const struct anvil_client *c, const struct anvil_shape *op) {
    const struct anvil_member *bucket =
        c->bucket_in_endpoint && op ? anvil_shape_member(anvil_operation_input(op), "Bucket") : NULL;
    const struct anvil_json *context =
        bucket ? anvil_json_object_get_cstr(&bucket->traits, "smithy.rules#contextParam") : NULL;
    bool taken = anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(context, "name")), "Bucket");
    return (struct anvil__protocol_context){c->model, c->service, c->allocator, c->options.env, &c->compression, taken};
}

/* Reads one try's result into the reply and the retry response; returns the call's status should it end here. */
static int s_read(struct s_call *k, struct anvil__exchange *x, const struct anvil__attempt *a,
                  struct anvil_retry_response *r, int *result) {
    struct anvil_operation_reply *reply = k->reply;
    memset(reply, 0, sizeof *reply);
    r->retry_after_ms = x->retry_after_ms;
    if (a->curl != CURLE_OK) {
        r->io_error = x->too_large ? ANVIL_RETRY_IO_TOO_LARGE : anvil__curl_io_error(a->curl);
        char too_large[128];
        snprintf(too_large, sizeof too_large, "the response is larger than %zu bytes (max_response_bytes)",
                 x->body.max_len);
        const char *what = x->too_large ? too_large : curl_easy_strerror(a->curl);
        char *copy = anvil_arena_strndup(k->arena, what, strlen(what));
        reply->error.message = copy ? anvil_sv_from_cstr(copy) : anvil_sv("", 0);
        reply->http_status = (int)a->status;
        *result = r->io_error == ANVIL_RETRY_IO_CANCELLED ? ANVIL_ETIMEDOUT
                  : x->too_large                          ? ANVIL_ELIMIT
                                                          : ANVIL_ETRANSPORT;
        return ANVIL_OK;
    }
    struct anvil__response res;
    int rc = anvil__exchange_response(x, a->status, k->arena, &res);
    struct anvil_client *c = k->client;
    struct anvil__protocol_context ctx = s_context(c, k->op);
    int parsed = rc == ANVIL_OK ? anvil__response_read(c->protocol, &ctx, k->op, &res, k->arena, reply, NULL) : rc;
    if (parsed == ANVIL_ENOMEM || parsed == ANVIL_ELIMIT) {
        return parsed;
    }
    reply->http_status = (int)a->status;
    if (parsed != ANVIL_ESERVICE) {
        /* An output, or a body the protocol could not read (ANVIL_ESYNTAX, the reason in the reply). */
        r->success = parsed == ANVIL_OK;
        r->http_status = (int)a->status;
        *result = parsed;
        return ANVIL_OK;
    }
    r->http_status = (int)a->status;
    r->code = reply->error.code;
    anvil_retry_response_from_model(r, c->model, k->op);
    r->clock_corrected = s_correct_clock(c, x, r->code);
    *result = ANVIL_ESERVICE;
    return ANVIL_OK;
}

static int s_call(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                  uint64_t deadline_ms, const struct anvil_waiter *waiter, struct anvil_arena *arena,
                  struct anvil_operation_reply *reply) {
    memset(reply, 0, sizeof *reply);
    if (!c || !op || !arena) {
        return ANVIL_EINVAL;
    }
    struct anvil__request req;
    anvil__request_init(&req, c->allocator, arena);
    struct anvil__protocol_context ctx = s_context(c, op);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    struct anvil__endpoint ep;
    int rc = anvil__request_build(c->protocol, &ctx, op, input, &req, &diag);
    if (rc == ANVIL_OK) {
        rc = anvil__client_endpoint(c, op, input, arena, &ep, NULL, &diag);
    }
    if (rc == ANVIL_OK && ep.rule != SIZE_MAX && c->options.debug) {
        char where[128];
        anvil_endpoint_rule_path(c->rules, ep.rule, where, sizeof where);
        struct anvil_str_view name = anvil_shape_name(op);
        anvil__client_debug(c, "%.*s: endpoint %s%s from the rule at %s (signing name %s, region %s)", (int)name.len,
                            name.ptr, ep.base, ep.path, where, ep.signing_name, ep.signing_region);
    }
    if (rc != ANVIL_OK) {
        /* An input the protocol cannot send, or no endpoint for it: the reason goes with the reply, as a service's
         * would. */
        anvil__text_keep(arena, anvil_sv_from_cstr(diag.message), ANVIL_DIAG_MESSAGE_MAX, &reply->error.message);
        anvil__request_clean_up(&req);
        return rc;
    }
    bool idempotent = anvil_operation_is_retry_safe(op);
    struct anvil_aws_service aws;
    anvil_service_aws(c->service, &aws);
    char partition[192];
    snprintf(partition, sizeof partition, "%.*s-%s", (int)aws.endpoint_prefix.len, aws.endpoint_prefix.ptr,
             ep.signing_region);
    /* An operation a waiter polls is called again by the waiter anyway: repeating it inside a poll is as safe. */
    idempotent = idempotent || waiter;
    struct s_policy policy = {c, waiter, ""};
    bool has_policy = waiter || c->options.retry_policy;
    struct anvil_retry_token token;
    struct anvil_retry_call call = {partition, ep.signing_name, false, idempotent, has_policy ? s_policy : NULL,
                                    &policy,   deadline_ms};
    rc = anvil_retry_token_init(&token, c->retry, &call);
    struct anvil__exchange x;
    memset(&x, 0, sizeof x);
    anvil_buf_init(&x.body, c->allocator,
                   c->options.max_response_bytes ? c->options.max_response_bytes : (size_t)64 << 20);
    anvil_buf_init(&x.header_bytes, c->allocator, ANVIL__RESPONSE_HEADER_BYTES_MAX);
    x.env = c->options.env;
    x.cancel = c->options.cancel;
    struct s_call k;
    memset(&k, 0, sizeof k);
    k.client = c;
    k.op = op;
    k.deadline_ms = deadline_ms;
    k.arena = arena;
    k.reply = reply;
    int result = ANVIL_ETRANSPORT;
    struct anvil_str_view name = anvil_shape_name(op);
    const char *method = req.method;
    while (rc == ANVIL_OK) {
        uint64_t wait = 0;
        if ((rc = anvil_retry_before_attempt(&token, anvil_env_now_ms(c->options.env), &wait)) != ANVIL_OK) {
            break;
        }
        uint64_t loop_deadline = anvil_retry_token_deadline_ms(&token);
        x.deadline_ms = s_earlier(deadline_ms, loop_deadline);
        uint64_t now = anvil_env_now_ms(c->options.env);
        if (wait && x.deadline_ms && now + wait >= x.deadline_ms) {
            /* The rate limiter's wait would cross a deadline: the call's (wait for it) or the loop's (end now). */
            if (x.deadline_ms == deadline_ms && (rc = s_sleep_until(c, deadline_ms)) != ANVIL_OK) {
                break;
            }
            result = s_cut_off(&k, loop_deadline, anvil_retry_token_attempt(&token));
            break;
        }
        if (wait && (rc = s_sleep(c, wait)) != ANVIL_OK) {
            break;
        }
        anvil_buf_clear(&x.body);
        anvil_buf_clear(&x.header_bytes);
        x.header_count = 0;
        x.headers_cut = false;
        x.retry_after_ms = -1;
        x.server_date_ms = -1;
        if (ep.sign) {
            /* Credentials before every signature: the provider refreshes them ahead of expiry. */
            struct anvil_diag cd;
            anvil_diag_clear(&cd);
            if ((rc = anvil__client_credentials(c, &cd)) != ANVIL_OK) {
                anvil__text_keep(arena, anvil_sv_from_cstr(cd.message), ANVIL_DIAG_MESSAGE_MAX, &reply->error.message);
                break;
            }
        }
        struct anvil__attempt a;
        if ((rc = anvil__client_send(c, &ep, &req, &x, &a)) != ANVIL_OK) {
            break;
        }
        if (a.curl == CURLE_ABORTED_BY_CALLBACK && x.cancelled) {
            anvil__client_debug(c, "%s %.*s cancelled after %llu ms", method, (int)name.len, name.ptr,
                                (unsigned long long)a.latency_ms);
            rc = ANVIL_ECANCELED;
            break;
        }
        if (a.curl == CURLE_ABORTED_BY_CALLBACK) {
            result = s_cut_off(&k, loop_deadline, anvil_retry_token_attempt(&token));
            anvil__client_debug(c, "%s %.*s cut off after %llu ms; %s", method, (int)name.len, name.ptr,
                                (unsigned long long)a.latency_ms,
                                result == ANVIL_ETIMEDOUT ? "the deadline came"
                                                          : "the retry loop's max total time ran out");
            break;
        }
        struct anvil_retry_response r = {0};
        if ((rc = s_read(&k, &x, &a, &r, &result)) != ANVIL_OK) {
            break;
        }
        if (c->credentials && (anvil_sv_eq_cstr(reply->error.code, "ExpiredToken") ||
                               anvil_sv_eq_cstr(reply->error.code, "ExpiredTokenException"))) {
            /* The service says the session ended early (revoked, or a clock off): the next signature fetches. */
            anvil_credentials_invalidate(c->credentials);
        }
        struct anvil_retry_decision d;
        if ((rc = anvil_retry_after_attempt(&token, anvil_env_now_ms(c->options.env), &r, &d)) != ANVIL_OK) {
            break;
        }
        if (a.curl != CURLE_OK) {
            anvil__client_debug(c, "%s %.*s -> no answer (%s) after %llu ms; %s", method, (int)name.len, name.ptr,
                                curl_easy_strerror(a.curl), (unsigned long long)a.latency_ms, d.explanation);
        } else {
            anvil__client_debug(c, "%s %.*s -> %ld%s%.*s in %llu ms; %s", method, (int)name.len, name.ptr, a.status,
                                reply->error.code.len ? " " : "", (int)reply->error.code.len, reply->error.code.ptr,
                                (unsigned long long)a.latency_ms, d.explanation);
        }
        if (d.action != ANVIL_RETRY_AGAIN) {
            if (d.reason == ANVIL_RETRY_REASON_DEADLINE) {
                /* No backoff past the deadline: wait for it; the call has then timed out, keeping this failure. */
                reply->failed_status = result;
                result = ANVIL_ETIMEDOUT;
                rc = s_sleep_until(c, deadline_ms);
            }
            break;
        }
        k.failed = *reply;
        k.failed_result = result;
        k.has_failed = true;
        if ((rc = s_sleep(c, d.delay_ms)) != ANVIL_OK) {
            break;
        }
    }
    anvil_retry_token_clean_up(&token);
    anvil_buf_clean_up(&x.body);
    anvil_buf_clean_up(&x.header_bytes);
    anvil__request_clean_up(&req);
    return rc != ANVIL_OK ? rc : result;
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
    struct anvil__protocol_context ctx = s_context(c, op);
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
