/*
 * One logical call as a state machine (call_internal.h): the request built
 * once by the service's protocol (idempotency token, serialisation,
 * compression, checksum), then tries through the retry strategy with the
 * policy chain, never past the call's deadline or the retry loop's max
 * total time; each answer read by the protocol. It never sleeps and never
 * sends: its drivers do.
 */

#include <stdio.h>
#include <string.h>

#include "transport/call_internal.h"

/* The policy chain of one call: the waiter's acceptors first, then the client's policy. */
static void s_policy(void *ctx, const struct anvil_retry_response *r, struct anvil_retry_verdict *v) {
    struct anvil__call *k = ctx;
    if (k->waiter && !r->success) {
        struct anvil_operation_error e = {r->code, anvil_sv("", 0), r->http_status};
        int acceptor = anvil_waiter_expects_error(k->waiter, &e);
        if (acceptor >= 0) {
            struct anvil_str_view name = k->waiter->name;
            /* Numbered from 1, as `anvil waiters` lists acceptors. */
            snprintf(k->why, sizeof k->why, "handed to the waiter %.*s, whose acceptor %d expects this error",
                     (int)name.len, name.ptr, acceptor + 1);
            v->directive = ANVIL_RETRY_DIRECTIVE_FAIL;
            v->why = k->why;
            return;
        }
    }
    if (k->client->options.retry_policy) {
        k->client->options.retry_policy(k->client->options.retry_policy_ctx, r, v);
    }
}

/* The earlier of two deadlines, 0 being "none". */
static uint64_t s_earlier(uint64_t a, uint64_t b) {
    return !a ? b : !b ? a : a < b ? a : b;
}

/* A try cut off by a deadline: the call's own (ETIMEDOUT) or the retry loop's max total time (the last failure). */
static int s_cut_off(struct anvil__call *k, uint64_t loop_deadline, uint32_t attempt) {
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
struct anvil__protocol_context anvil__call_context(const struct anvil_client *c, const struct anvil_shape *op) {
    const struct anvil_member *bucket =
        c->bucket_in_endpoint && op ? anvil_shape_member(anvil_operation_input(op), "Bucket") : NULL;
    const struct anvil_json *context =
        bucket ? anvil_json_object_get_cstr(&bucket->traits, "smithy.rules#contextParam") : NULL;
    bool taken = anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(context, "name")), "Bucket");
    return (struct anvil__protocol_context){c->model, c->service, c->allocator, c->options.env, &c->compression, taken};
}

/* Reads one try's result into the reply and the retry response; returns the call's status should it end here. */
static int s_read(struct anvil__call *k, struct anvil__exchange *x, const struct anvil__attempt *a,
                  struct anvil_retry_response *r, int *result) {
    struct anvil_operation_reply *reply = k->reply;
    memset(reply, 0, sizeof *reply);
    r->retry_after_ms = x->retry_after_ms;
    if (a->curl != CURLE_OK) {
        r->io_error = x->too_large ? ANVIL_RETRY_IO_TOO_LARGE : anvil__curl_io_error(a->curl);
        char too_large[128];
        snprintf(too_large, sizeof too_large, "the response is larger than %zu bytes (max_response_bytes)",
                 x->body.max_len);
        const char *what = x->too_large ? too_large : anvil__exchange_error(x, a->curl);
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
    struct anvil__protocol_context ctx = anvil__call_context(c, k->op);
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

enum {
    /* Ask the retry strategy for the next try (its rate limiter may ask for a wait first). */
    S_BEFORE,
    /* Send the try (credentials first). */
    S_ATTEMPT,
    /* The send is out: waiting for anvil__call_sent(). */
    S_SENDING,
    /* The rate limiter's wait would have crossed the call's deadline, now reached: cut off. */
    S_CUT,
    S_DONE
};

static void s_done(struct anvil__call *k) {
    k->stage = S_DONE;
    k->sleep_until_ms = 0;
}

void anvil__call_stop(struct anvil__call *k, int rc) {
    k->rc = rc;
    s_done(k);
}

void anvil__call_start(struct anvil__call *k, struct anvil_client *c, const struct anvil_shape *op,
                       const struct anvil_json *input, uint64_t deadline_ms, const struct anvil_waiter *waiter,
                       struct anvil_arena *arena, struct anvil_operation_reply *reply) {
    memset(k, 0, sizeof *k);
    memset(reply, 0, sizeof *reply);
    k->client = c;
    k->op = op;
    k->waiter = waiter;
    k->deadline_ms = deadline_ms;
    k->arena = arena;
    k->reply = reply;
    k->result = ANVIL_ETRANSPORT;
    anvil__request_init(&k->req, c->allocator, arena);
    anvil_buf_init(&k->x.body, c->allocator,
                   c->options.max_response_bytes ? c->options.max_response_bytes : (size_t)64 << 20);
    anvil_buf_init(&k->x.header_bytes, c->allocator, ANVIL__RESPONSE_HEADER_BYTES_MAX);
    k->x.env = c->options.env;
    k->x.cancel = c->options.cancel;
    struct anvil__protocol_context ctx = anvil__call_context(c, op);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil__request_build(c->protocol, &ctx, op, input, &k->req, &diag);
    if (rc == ANVIL_OK) {
        rc = anvil__client_endpoint(c, op, input, arena, &k->ep, NULL, &diag);
    }
    if (rc == ANVIL_OK && k->ep.rule != SIZE_MAX && c->options.debug) {
        char where[128];
        anvil_endpoint_rule_path(c->rules, k->ep.rule, where, sizeof where);
        struct anvil_str_view name = anvil_shape_name(op);
        anvil__client_debug(c, "%.*s: endpoint %s%s from the rule at %s (signing name %s, region %s)", (int)name.len,
                            name.ptr, k->ep.base, k->ep.path, where, k->ep.signing_name, k->ep.signing_region);
    }
    if (rc != ANVIL_OK) {
        /* An input the protocol cannot send, or no endpoint for it: the reason goes with the reply, as a service's
         * would. */
        anvil__text_keep(arena, anvil_sv_from_cstr(diag.message), ANVIL_DIAG_MESSAGE_MAX, &reply->error.message);
        anvil__call_stop(k, rc);
        return;
    }
    struct anvil_aws_service aws;
    anvil_service_aws(c->service, &aws);
    snprintf(k->partition, sizeof k->partition, "%.*s-%s", (int)aws.endpoint_prefix.len, aws.endpoint_prefix.ptr,
             k->ep.signing_region);
    /* An operation a waiter polls is called again by the waiter anyway: repeating it inside a poll is as safe. */
    bool idempotent = anvil_operation_is_retry_safe(op) || waiter;
    bool has_policy = waiter || c->options.retry_policy;
    k->retry_call = (struct anvil_retry_call){
        k->partition, k->ep.signing_name, false, idempotent, has_policy ? s_policy : NULL, k, deadline_ms};
    k->token_started = true;
    if ((rc = anvil_retry_token_init(&k->token, c->retry, &k->retry_call)) != ANVIL_OK) {
        anvil__call_stop(k, rc);
        return;
    }
    k->stage = S_BEFORE;
}

/* Readies the exchange for a try and fetches credentials; false when the call ended instead. */
static bool s_ready_attempt(struct anvil__call *k) {
    struct anvil__exchange *x = &k->x;
    anvil_buf_clear(&x->body);
    anvil_buf_clear(&x->header_bytes);
    x->header_count = 0;
    x->headers_cut = false;
    x->retry_after_ms = -1;
    x->server_date_ms = -1;
    if (k->ep.sign) {
        /* Credentials before every signature: the provider refreshes them ahead of expiry. */
        struct anvil_diag cd;
        anvil_diag_clear(&cd);
        int rc = anvil__client_credentials(k->client, &cd);
        if (rc != ANVIL_OK) {
            anvil__text_keep(k->arena, anvil_sv_from_cstr(cd.message), ANVIL_DIAG_MESSAGE_MAX,
                             &k->reply->error.message);
            anvil__call_stop(k, rc);
            return false;
        }
    }
    return true;
}

enum anvil__call_step anvil__call_next(struct anvil__call *k, uint64_t now_ms, uint64_t *wake_ms) {
    if (k->sleep_until_ms) {
        /* A backoff (or the wait for the deadline) the last try asked for: the driver sleeps first. */
        *wake_ms = k->sleep_until_ms;
        k->sleep_until_ms = 0;
        return ANVIL__CALL_SLEEP;
    }
    for (;;) {
        switch (k->stage) {
        case S_BEFORE: {
            uint64_t wait = 0;
            int rc = anvil_retry_before_attempt(&k->token, now_ms, &wait);
            if (rc != ANVIL_OK) {
                anvil__call_stop(k, rc);
                break;
            }
            k->loop_deadline_ms = anvil_retry_token_deadline_ms(&k->token);
            k->x.deadline_ms = s_earlier(k->deadline_ms, k->loop_deadline_ms);
            if (wait && k->x.deadline_ms && now_ms + wait >= k->x.deadline_ms) {
                /* The rate limiter's wait would cross a deadline: the call's (wait for it) or the loop's (end now). */
                if (k->x.deadline_ms == k->deadline_ms) {
                    k->stage = S_CUT;
                    *wake_ms = k->deadline_ms;
                    return ANVIL__CALL_SLEEP;
                }
                k->result = s_cut_off(k, k->loop_deadline_ms, anvil_retry_token_attempt(&k->token));
                s_done(k);
                break;
            }
            if (wait) {
                /* The limiter took no token: after its wait, ask it again (retry.h), as every caller must. */
                *wake_ms = now_ms + wait;
                return ANVIL__CALL_SLEEP;
            }
            k->stage = S_ATTEMPT;
            break;
        }
        case S_CUT:
            k->result = s_cut_off(k, k->loop_deadline_ms, anvil_retry_token_attempt(&k->token));
            s_done(k);
            break;
        case S_ATTEMPT:
            if (s_ready_attempt(k)) {
                k->stage = S_SENDING;
            }
            break;
        case S_SENDING:
            return ANVIL__CALL_SEND;
        default:
            return ANVIL__CALL_DONE;
        }
    }
}

void anvil__call_sent(struct anvil__call *k, const struct anvil__attempt *a, uint64_t now_ms) {
    struct anvil_client *c = k->client;
    struct anvil__exchange *x = &k->x;
    struct anvil_str_view name = anvil_shape_name(k->op);
    const char *method = k->req.method;
    if (a->curl == CURLE_ABORTED_BY_CALLBACK && x->cancelled) {
        anvil__client_debug(c, "%s %.*s cancelled after %llu ms", method, (int)name.len, name.ptr,
                            (unsigned long long)a->latency_ms);
        anvil__call_stop(k, ANVIL_ECANCELED);
        return;
    }
    if (a->curl == CURLE_ABORTED_BY_CALLBACK) {
        k->result = s_cut_off(k, k->loop_deadline_ms, anvil_retry_token_attempt(&k->token));
        anvil__client_debug(
            c, "%s %.*s cut off after %llu ms; %s", method, (int)name.len, name.ptr, (unsigned long long)a->latency_ms,
            k->result == ANVIL_ETIMEDOUT ? "the deadline came" : "the retry loop's max total time ran out");
        s_done(k);
        return;
    }
    struct anvil_retry_response r = {0};
    int rc = s_read(k, x, a, &r, &k->result);
    if (rc != ANVIL_OK) {
        anvil__call_stop(k, rc);
        return;
    }
    struct anvil_operation_reply *reply = k->reply;
    if (c->credentials && (anvil_sv_eq_cstr(reply->error.code, "ExpiredToken") ||
                           anvil_sv_eq_cstr(reply->error.code, "ExpiredTokenException"))) {
        /* The service says the session ended early (revoked, or a clock off): the next signature fetches. */
        anvil_credentials_invalidate(c->credentials);
    }
    struct anvil_retry_decision d;
    if ((rc = anvil_retry_after_attempt(&k->token, now_ms, &r, &d)) != ANVIL_OK) {
        anvil__call_stop(k, rc);
        return;
    }
    k->last_throttled = d.type == ANVIL_RETRY_ERROR_THROTTLING;
    k->throttled += k->last_throttled;
    /* Which transport carried it, when it was libcurl (a proxy, ANVIL_HTTP=curl, many waits at once). */
    const char *via = x->builtin ? "" : " via libcurl";
    if (a->curl != CURLE_OK) {
        anvil__client_debug(c, "%s %.*s -> no answer (%s) after %llu ms%s; %s", method, (int)name.len, name.ptr,
                            anvil__exchange_error(x, a->curl), (unsigned long long)a->latency_ms, via, d.explanation);
    } else {
        anvil__client_debug(c, "%s %.*s -> %ld%s%.*s in %llu ms%s; %s", method, (int)name.len, name.ptr, a->status,
                            reply->error.code.len ? " " : "", (int)reply->error.code.len, reply->error.code.ptr,
                            (unsigned long long)a->latency_ms, via, d.explanation);
    }
    if (d.action != ANVIL_RETRY_AGAIN) {
        s_done(k);
        if (d.reason == ANVIL_RETRY_REASON_DEADLINE) {
            /* No backoff past the deadline: wait for it; the call has then timed out, keeping this failure. */
            reply->failed_status = k->result;
            k->result = ANVIL_ETIMEDOUT;
            k->sleep_until_ms = k->deadline_ms > now_ms ? k->deadline_ms : 0;
        }
        return;
    }
    k->failed = *reply;
    k->failed_result = k->result;
    k->has_failed = true;
    k->stage = S_BEFORE;
    k->sleep_until_ms = now_ms + d.delay_ms;
}

int anvil__call_end(struct anvil__call *k) {
    if (k->token_started) {
        anvil_retry_token_clean_up(&k->token);
    }
    anvil_buf_clean_up(&k->x.body);
    anvil_buf_clean_up(&k->x.header_bytes);
    anvil__request_clean_up(&k->req);
    return k->rc != ANVIL_OK ? k->rc : k->result;
}
