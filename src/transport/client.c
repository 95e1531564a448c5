/*
 * The AWS JSON protocol client: one libcurl handle (connections reused),
 * requests built from the model (X-Amz-Target, content type), signed with
 * SigV4, sent through the retry strategy; errors read from `__type` or
 * X-Amzn-ErrorType. Not thread-safe: one client per thread.
 */

#include <curl/curl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/client.h"
#include "anvil/compress.h"
#include "anvil/idempotency.h"
#include "anvil/sigv4.h"
#include "anvil/traits.h"
#include "core/core_internal.h"

struct anvil_client {
    struct anvil_allocator *allocator;
    const struct anvil_model *model;
    const struct anvil_shape *service;
    enum anvil_protocol protocol;
    struct anvil_client_options options;
    struct anvil_aws_config aws;
    char endpoint[512];
    char host[256];
    char signing_name[64];
    struct anvil_retry_strategy *retry;
    CURL *curl;
    struct anvil_compression_settings compression;
};

static pthread_once_t s_curl_once = PTHREAD_ONCE_INIT;

static void s_curl_init(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

ANVIL_PRINTF(2, 3)
static void s_debug(const struct anvil_client *c, const char *fmt, ...) {
    if (!c->options.debug) {
        return;
    }
    char line[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    c->options.debug(c->options.debug_ctx, line);
}

/* The service: the one named, or the model's only one. */
static const struct anvil_shape *s_service(const struct anvil_model *model, const char *id) {
    if (id) {
        const struct anvil_shape *s = anvil_model_find(model, id, strlen(id));
        return s && anvil_shape_type(s) == ANVIL_SHAPE_SERVICE ? s : NULL;
    }
    const struct anvil_shape *found = NULL;
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
            if (found) {
                return NULL;
            }
            found = s;
        }
    }
    return found;
}

/* The endpoint's host[:port] for the Host header and signing. */
static int s_host(struct anvil_client *c, struct anvil_diag *diag) {
    const char *p = strstr(c->endpoint, "://");
    if (!p || (strncmp(c->endpoint, "http://", 7) != 0 && strncmp(c->endpoint, "https://", 8) != 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` is not an http:// or https:// URL",
                              c->endpoint);
    }
    p += 3;
    size_t n = strcspn(p, "/?#");
    if (n == 0 || n >= sizeof c->host) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` has no host", c->endpoint);
    }
    memcpy(c->host, p, n);
    c->host[n] = '\0';
    return ANVIL_OK;
}

int anvil_client_new(struct anvil_allocator *allocator, const struct anvil_model *model, const char *service,
                     const struct anvil_client_options *options, struct anvil_client **out, struct anvil_diag *diag) {
    if (!out || !model) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_client_options o = options ? *options : (struct anvil_client_options){0};
    const struct anvil_shape *svc = s_service(model, service);
    if (!svc) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              service ? "`%s` is not a service of the model"
                                      : "%sthe model must have exactly one "
                                        "service (name one)",
                              service ? service : "");
    }
    enum anvil_protocol protocols[8];
    size_t n = anvil_service_protocols(svc, protocols, 8);
    enum anvil_protocol protocol = ANVIL_PROTOCOL_NONE;
    for (size_t i = 0; i < n && i < 8; i++) {
        if (protocols[i] == ANVIL_PROTOCOL_AWS_JSON_1_0 || protocols[i] == ANVIL_PROTOCOL_AWS_JSON_1_1) {
            protocol = protocols[i];
            break;
        }
    }
    if (protocol == ANVIL_PROTOCOL_NONE) {
        struct anvil_str_view id = anvil_shape_id(svc);
        return anvil_diag_set(diag, ANVIL_EUNSUPPORTED, 0, 0, 0,
                              "`%.*s` speaks no protocol anvil supports yet (awsJson1_0, awsJson1_1)", (int)id.len,
                              id.ptr);
    }
    struct anvil_client *c = anvil_mem_acquire(allocator, sizeof *c);
    if (!c) {
        return ANVIL_ENOMEM;
    }
    memset(c, 0, sizeof *c);
    c->allocator = allocator;
    c->model = model;
    c->service = svc;
    c->protocol = protocol;
    c->options = o;
    int rc = anvil_aws_config_resolve(o.profile, o.region, o.getenv, o.getenv_ctx, &c->aws, diag);
    if (rc == ANVIL_OK && !c->aws.region[0]) {
        rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                            "no region: give --region, or set AWS_REGION or a region in the profile");
    }
    if (rc == ANVIL_OK && !c->aws.access_key_id[0]) {
        rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                            "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or use a profile");
    }
    struct anvil_aws_service aws;
    anvil_service_aws(svc, &aws);
    struct anvil_str_view signing = anvil_service_sigv4_name(svc);
    if (!signing.len) {
        signing = aws.endpoint_prefix;
    }
    snprintf(c->signing_name, sizeof c->signing_name, "%.*s", (int)signing.len, signing.ptr);
    if (rc == ANVIL_OK) {
        if (o.endpoint_url && *o.endpoint_url) {
            snprintf(c->endpoint, sizeof c->endpoint, "%s", o.endpoint_url);
        } else if (aws.endpoint_prefix.len) {
            snprintf(c->endpoint, sizeof c->endpoint, "https://%.*s.%s.amazonaws.com", (int)aws.endpoint_prefix.len,
                     aws.endpoint_prefix.ptr, c->aws.region);
        } else {
            rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                "no endpoint: the service has no endpointPrefix; give "
                                "--endpoint-url");
        }
    }
    if (rc == ANVIL_OK) {
        rc = s_host(c, diag);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_compression_settings_from_env(&c->compression, o.getenv, o.getenv_ctx, diag);
    }
    if (rc == ANVIL_OK) {
        c->retry = o.retry ? anvil_retry_strategy_acquire(o.retry) : NULL;
        if (!c->retry) {
            struct anvil_retry_options ro = {.env = o.env};
            rc = anvil_retry_strategy_new(allocator, &ro, &c->retry);
        }
    }
    if (rc == ANVIL_OK) {
        pthread_once(&s_curl_once, s_curl_init);
        c->curl = curl_easy_init();
        rc = c->curl ? ANVIL_OK : ANVIL_ENOMEM;
    }
    if (rc != ANVIL_OK) {
        anvil_client_destroy(c);
        return rc;
    }
    *out = c;
    return ANVIL_OK;
}

void anvil_client_destroy(struct anvil_client *c) {
    if (!c) {
        return;
    }
    if (c->curl) {
        curl_easy_cleanup(c->curl);
    }
    anvil_retry_strategy_release(c->retry);
    /* The secret does not outlive the client in freed memory. */
    memset(&c->aws, 0, sizeof c->aws);
    anvil_mem_release(c->allocator, c);
}

struct s_find {
    const char *name;
    const struct anvil_shape *found;
};

static bool s_visit(const struct anvil_shape *op, void *user_data) {
    struct s_find *f = user_data;
    if (anvil_sv_eq_cstr(anvil_shape_name(op), f->name) || anvil_sv_eq_cstr(anvil_shape_id(op), f->name)) {
        f->found = op;
        return false;
    }
    return true;
}

const struct anvil_shape *anvil_client_operation(const struct anvil_client *c, const char *name) {
    struct s_find f = {name, NULL};
    if (c && name) {
        anvil_service_operations(c->model, c->service, s_visit, &f, NULL);
    }
    return f.found;
}

/* ---- one HTTP exchange ---- */

struct s_exchange {
    struct anvil_buf body;
    char error_type[256];
    int64_t retry_after_ms;
    uint64_t deadline_ms;
    /* This attempt's timeout is the deadline's (a timeout then is a cancellation). */
    bool cut_at_deadline;
    const struct anvil_env *env;
};

static size_t s_on_body(char *data, size_t size, size_t n, void *user_data) {
    struct s_exchange *x = user_data;
    return anvil_buf_append(&x->body, data, size * n) == ANVIL_OK ? size * n : 0;
}

static size_t s_on_header(char *data, size_t size, size_t n, void *user_data) {
    struct s_exchange *x = user_data;
    struct anvil_str_view line = anvil_sv_trim(anvil_sv(data, size * n));
    size_t colon = anvil_sv_find_byte(line, 0, ':');
    if (colon != SIZE_MAX) {
        struct anvil_str_view name = anvil_sv_trim(anvil_sv_slice(line, 0, colon));
        struct anvil_str_view value = anvil_sv_trim(anvil_sv_slice(line, colon + 1, line.len - colon - 1));
        if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("x-amzn-errortype"))) {
            snprintf(x->error_type, sizeof x->error_type, "%.*s", (int)value.len, value.ptr);
        } else if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("x-amz-retry-after"))) {
            uint64_t ms;
            x->retry_after_ms = anvil_sv_parse_u64(value, INT64_MAX, &ms) == ANVIL_OK ? (int64_t)ms : -1;
        }
    }
    return size * n;
}

/* Aborts the transfer at the deadline. */
static int s_on_progress(void *user_data, curl_off_t a, curl_off_t b, curl_off_t c2, curl_off_t d) {
    (void)a;
    (void)b;
    (void)c2;
    (void)d;
    struct s_exchange *x = user_data;
    return x->deadline_ms && anvil_env_now_ms(x->env) >= x->deadline_ms;
}

static enum anvil_retry_io_error s_io_error(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_CONNECT:
        return ANVIL_RETRY_IO_CONNECT_REFUSED;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return ANVIL_RETRY_IO_DNS_NOT_FOUND;
    case CURLE_OPERATION_TIMEDOUT:
        return ANVIL_RETRY_IO_READ_TIMEOUT;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
        return ANVIL_RETRY_IO_TLS;
    case CURLE_ABORTED_BY_CALLBACK:
        return ANVIL_RETRY_IO_CANCELLED;
    default:
        return ANVIL_RETRY_IO_RESET;
    }
}

struct s_attempt {
    long status;
    CURLcode curl;
    uint64_t latency_ms;
};

static int s_send(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_buf *payload,
                  const char *content_encoding, struct s_exchange *x, struct s_attempt *a) {
    char target[256], content_type[64];
    struct anvil_str_view svc = anvil_shape_name(c->service), name = anvil_shape_name(op);
    snprintf(target, sizeof target, "%.*s.%.*s", (int)svc.len, svc.ptr, (int)name.len, name.ptr);
    snprintf(content_type, sizeof content_type, "application/x-amz-json-%s",
             c->protocol == ANVIL_PROTOCOL_AWS_JSON_1_0 ? "1.0" : "1.1");
    struct anvil_sigv4_header headers[4] = {
        {anvil_sv_from_cstr("Host"), anvil_sv_from_cstr(c->host)},
        {anvil_sv_from_cstr("Content-Type"), anvil_sv_from_cstr(content_type)},
        {anvil_sv_from_cstr("X-Amz-Target"), anvil_sv_from_cstr(target)},
        {anvil_sv_from_cstr("Content-Encoding"), anvil_sv_from_cstr(content_encoding ? content_encoding : "")}};
    struct anvil_sigv4_request req = {ANVIL_SV("POST"),           ANVIL_SV("/"), ANVIL_SV(""), headers,
                                      content_encoding ? 4u : 3u, payload->data, payload->len, NULL};
    struct anvil_sigv4_credentials cred = {anvil_sv_from_cstr(c->aws.access_key_id),
                                           anvil_sv_from_cstr(c->aws.secret_access_key),
                                           anvil_sv_from_cstr(c->aws.session_token)};
    struct anvil_sigv4_config cfg = {.region = anvil_sv_from_cstr(c->aws.region),
                                     .service = anvil_sv_from_cstr(c->signing_name),
                                     .time_ms = anvil_env_wall_ms(c->options.env)};
    struct anvil_sigv4_result sig;
    anvil_sigv4_result_init(&sig, c->allocator);
    int rc = anvil_sigv4_sign(&req, &cred, &cfg, &sig, NULL);
    struct curl_slist *list = NULL;
    if (rc == ANVIL_OK) {
        const char *lines[6];
        char l0[96], l1[320], l2[128], l3[160], l4[2200], l5[600];
        snprintf(l0, sizeof l0, "Content-Type: %s", content_type);
        snprintf(l1, sizeof l1, "X-Amz-Target: %s", target);
        snprintf(l2, sizeof l2, "X-Amz-Date: %s", sig.amz_date);
        snprintf(l3, sizeof l3, "Content-Encoding: %s", content_encoding ? content_encoding : "");
        snprintf(l4, sizeof l4, "X-Amz-Security-Token: %s", c->aws.session_token);
        snprintf(l5, sizeof l5, "Authorization: %.*s", (int)sig.authorization.len, sig.authorization.data);
        lines[0] = l0;
        lines[1] = l1;
        lines[2] = l2;
        lines[3] = content_encoding ? l3 : NULL;
        lines[4] = c->aws.session_token[0] ? l4 : NULL;
        lines[5] = l5;
        for (int i = 0; i < 6; i++) {
            if (lines[i]) {
                struct curl_slist *next = curl_slist_append(list, lines[i]);
                if (!next) {
                    rc = ANVIL_ENOMEM;
                    break;
                }
                list = next;
            }
        }
        /* No "Expect: 100-continue" round trip. */
        struct curl_slist *next = rc == ANVIL_OK ? curl_slist_append(list, "Expect:") : NULL;
        rc = next ? ANVIL_OK : ANVIL_ENOMEM;
        list = next ? next : list;
    }
    anvil_sigv4_result_clean_up(&sig);
    if (rc != ANVIL_OK) {
        curl_slist_free_all(list);
        return rc;
    }
    CURL *h = c->curl;
    curl_easy_reset(h);
    char url[600];
    snprintf(url, sizeof url, "%s/", c->endpoint);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, payload->data ? payload->data : "");
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)payload->len);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, s_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, s_on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, s_on_progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, x);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                     (long)(c->options.connect_timeout_ms ? c->options.connect_timeout_ms : 10000));
    /* The deadline as curl's own timeout: the progress callback alone may be called only once a second. */
    uint64_t timeout = c->options.request_timeout_ms ? c->options.request_timeout_ms : 60000;
    uint64_t now = anvil_env_now_ms(c->options.env);
    x->cut_at_deadline = false;
    if (x->deadline_ms && (x->deadline_ms <= now || x->deadline_ms - now < timeout)) {
        timeout = x->deadline_ms > now ? x->deadline_ms - now : 1;
        x->cut_at_deadline = true;
    }
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)timeout);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    uint64_t start = anvil_env_now_ms(c->options.env);
    a->curl = x->deadline_ms && start >= x->deadline_ms ? CURLE_ABORTED_BY_CALLBACK : curl_easy_perform(h);
    if (a->curl == CURLE_OPERATION_TIMEDOUT && x->cut_at_deadline) {
        a->curl = CURLE_ABORTED_BY_CALLBACK; /* the deadline, not the request timeout */
    }
    a->latency_ms = anvil_env_now_ms(c->options.env) - start;
    a->status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &a->status);
    curl_slist_free_all(list);
    return ANVIL_OK;
}

/* The error of a non-2xx answer: code from `__type` (or `code`), else X-Amzn-ErrorType; the message. */
static int s_error(struct s_exchange *x, long status, struct anvil_arena *arena, struct anvil_wait_error *e) {
    memset(e, 0, sizeof *e);
    e->http_status = (int)status;
    struct anvil_json body;
    int rc =
        x->body.len ? anvil_json_parse_into(arena, NULL, x->body.data, x->body.len, NULL, &body, NULL) : ANVIL_ESYNTAX;
    if (rc == ANVIL_ENOMEM) {
        return rc;
    }
    const struct anvil_json *type = rc == ANVIL_OK ? anvil_json_object_get_cstr(&body, "__type") : NULL;
    type = type ? type : rc == ANVIL_OK ? anvil_json_object_get_cstr(&body, "code") : NULL;
    const struct anvil_json *message = rc == ANVIL_OK ? anvil_json_object_get_cstr(&body, "message") : NULL;
    message = message ? message : rc == ANVIL_OK ? anvil_json_object_get_cstr(&body, "Message") : NULL;
    struct anvil_str_view code =
        anvil_json_is_string(type) ? anvil_json_string(type) : anvil_sv_from_cstr(x->error_type);
    code = anvil_error_code_normalize(code);
    char *code_copy = anvil_arena_strndup(arena, code.ptr ? code.ptr : "", code.len);
    char fallback[300];
    if (!anvil_json_is_string(message)) {
        snprintf(fallback, sizeof fallback, "HTTP %ld%s%.*s", status, x->body.len ? ": " : "",
                 (int)(x->body.len > 200 ? 200 : x->body.len), x->body.data ? x->body.data : "");
    }
    struct anvil_str_view m = anvil_json_is_string(message) ? anvil_json_string(message) : anvil_sv_from_cstr(fallback);
    char *message_copy = anvil_arena_strndup(arena, m.ptr, m.len);
    if (!code_copy || !message_copy) {
        return ANVIL_ENOMEM;
    }
    e->code = anvil_sv(code_copy, code.len);
    e->message = anvil_sv(message_copy, m.len);
    return ANVIL_OK;
}

/* Builds the request body once per call: the idempotency token filled, then compressed if the trait says so. */
static int s_payload(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                     struct anvil_arena *arena, struct anvil_buf *payload, char *encoding, size_t encoding_size,
                     bool *idempotent) {
    const struct anvil_json *filled = input;
    bool token = false;
    int rc = anvil_idempotency_fill(op, input, c->options.env, arena, &filled, &token);
    if (rc != ANVIL_OK) {
        return rc;
    }
    *idempotent = anvil_operation_is_retry_safe(op);
    struct anvil_buf json;
    anvil_buf_init(&json, c->allocator, 0);
    if (filled) {
        rc = anvil_json_write(filled, 0, &json);
    } else {
        rc = anvil_buf_append_cstr(&json, "{}");
    }
    size_t count = 0;
    struct anvil_compression_request creq = {anvil_operation_request_compression(op, &count), json.len, false, false,
                                             ANVIL_SV("")};
    struct anvil_compression_decision d;
    struct anvil_buf header;
    anvil_buf_init(&header, c->allocator, 0);
    if (rc == ANVIL_OK) {
        rc = anvil_compression_decide(&c->compression, NULL, &creq, &d, &header, NULL);
    }
    encoding[0] = '\0';
    if (rc == ANVIL_OK && d.compress) {
        rc = anvil_gzip(json.data, json.len, payload);
        snprintf(encoding, encoding_size, "%.*s", (int)header.len, header.data);
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_append(payload, json.data, json.len);
    }
    anvil_buf_clean_up(&json);
    anvil_buf_clean_up(&header);
    return rc;
}

/* The policy chain of one call: the waiter's acceptors first, then the client's policy. */
struct s_policy {
    const struct anvil_client *client;
    const struct anvil_waiter *waiter;
    char why[160];
};

static void s_policy(void *ctx, const struct anvil_retry_response *r, struct anvil_retry_verdict *v) {
    struct s_policy *p = ctx;
    if (p->waiter && !r->success) {
        struct anvil_wait_error e = {r->code, anvil_sv("", 0), r->http_status};
        int acceptor = anvil_waiter_expects_error(p->waiter, &e);
        if (acceptor >= 0) {
            struct anvil_str_view name = p->waiter->name;
            snprintf(p->why, sizeof p->why, "handed to the waiter %.*s, whose acceptor %d expects this error",
                     (int)name.len, name.ptr, acceptor);
            v->directive = ANVIL_RETRY_DIRECTIVE_FAIL;
            v->why = p->why;
            return;
        }
    }
    if (p->client->options.retry_policy) {
        p->client->options.retry_policy(p->client->options.retry_policy_ctx, r, v);
    }
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
    struct anvil_wait_reply *reply;
    /* The last failed try's reply and status, restored when the deadline cuts a later try off. */
    struct anvil_wait_reply failed;
    int failed_result;
    bool has_failed;
};

/* A try cut off by a deadline: the call's own (ETIMEDOUT) or the retry loop's max total time (the last failure). */
static int s_cut_off(struct s_call *k, uint64_t loop_deadline, uint32_t attempt) {
    bool by_loop = loop_deadline && (!k->deadline_ms || loop_deadline < k->deadline_ms);
    if (k->has_failed) {
        *k->reply = k->failed;
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

/* Reads one try's result into the reply and the retry response; returns the call's status should it end here. */
static int s_read(struct s_call *k, struct s_exchange *x, const struct s_attempt *a, struct anvil_retry_response *r,
                  int *result) {
    struct anvil_wait_reply *reply = k->reply;
    memset(reply, 0, sizeof *reply);
    r->retry_after_ms = x->retry_after_ms;
    if (a->curl != CURLE_OK) {
        r->io_error = s_io_error(a->curl);
        const char *what = curl_easy_strerror(a->curl);
        char *copy = anvil_arena_strndup(k->arena, what, strlen(what));
        reply->error.message = copy ? anvil_sv_from_cstr(copy) : anvil_sv("", 0);
        *result = r->io_error == ANVIL_RETRY_IO_CANCELLED ? ANVIL_ETIMEDOUT : ANVIL_ETRANSPORT;
        return ANVIL_OK;
    }
    if (a->status >= 200 && a->status < 300) {
        r->success = true;
        const char *body = x->body.len ? x->body.data : "{}";
        int prc =
            anvil_json_parse_into(k->arena, NULL, body, x->body.len ? x->body.len : 2, NULL, &reply->output, NULL);
        reply->http_status = (int)a->status;
        *result = prc;
        if (prc != ANVIL_OK) {
            reply->error.message = anvil_sv_from_cstr("the response body is not JSON");
        }
        return ANVIL_OK;
    }
    int rc = s_error(x, a->status, k->arena, &reply->error);
    if (rc != ANVIL_OK) {
        return rc;
    }
    r->http_status = (int)a->status;
    r->code = reply->error.code;
    anvil_retry_response_from_model(r, k->client->model, k->op);
    reply->http_status = (int)a->status;
    *result = ANVIL_ESERVICE;
    return ANVIL_OK;
}

static int s_call(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                  uint64_t deadline_ms, const struct anvil_waiter *waiter, struct anvil_arena *arena,
                  struct anvil_wait_reply *reply) {
    memset(reply, 0, sizeof *reply);
    if (!c || !op || !arena) {
        return ANVIL_EINVAL;
    }
    struct anvil_buf payload;
    anvil_buf_init(&payload, c->allocator, 0);
    char encoding[128];
    bool idempotent = false;
    int rc = s_payload(c, op, input, arena, &payload, encoding, sizeof encoding, &idempotent);
    if (rc != ANVIL_OK) {
        anvil_buf_clean_up(&payload);
        return rc;
    }
    struct anvil_aws_service aws;
    anvil_service_aws(c->service, &aws);
    char partition[192];
    snprintf(partition, sizeof partition, "%.*s-%s", (int)aws.endpoint_prefix.len, aws.endpoint_prefix.ptr,
             c->aws.region);
    struct s_policy policy = {c, waiter, ""};
    bool has_policy = waiter || c->options.retry_policy;
    struct anvil_retry_token token;
    struct anvil_retry_call call = {partition, c->signing_name, false, idempotent, has_policy ? s_policy : NULL,
                                    &policy};
    rc = anvil_retry_token_init(&token, c->retry, &call);
    struct s_exchange x;
    memset(&x, 0, sizeof x);
    anvil_buf_init(&x.body, c->allocator,
                   c->options.max_response_bytes ? c->options.max_response_bytes : (size_t)64 << 20);
    x.env = c->options.env;
    struct s_call k;
    memset(&k, 0, sizeof k);
    k.client = c;
    k.op = op;
    k.deadline_ms = deadline_ms;
    k.arena = arena;
    k.reply = reply;
    int result = ANVIL_ETRANSPORT;
    struct anvil_str_view name = anvil_shape_name(op);
    while (rc == ANVIL_OK) {
        uint64_t wait = 0;
        if ((rc = anvil_retry_before_attempt(&token, anvil_env_now_ms(c->options.env), &wait)) != ANVIL_OK) {
            break;
        }
        if (wait && (rc = anvil_env_sleep_ms(c->options.env, wait)) != ANVIL_OK) {
            break;
        }
        uint64_t loop_deadline = anvil_retry_token_deadline_ms(&token);
        x.deadline_ms = s_earlier(deadline_ms, loop_deadline);
        anvil_buf_clear(&x.body);
        x.error_type[0] = '\0';
        x.retry_after_ms = -1;
        struct s_attempt a;
        if ((rc = s_send(c, op, &payload, encoding[0] ? encoding : NULL, &x, &a)) != ANVIL_OK) {
            break;
        }
        if (a.curl == CURLE_ABORTED_BY_CALLBACK) {
            result = s_cut_off(&k, loop_deadline, token.attempt);
            s_debug(c, "POST %.*s cut off after %llu ms; %s", (int)name.len, name.ptr, (unsigned long long)a.latency_ms,
                    result == ANVIL_ETIMEDOUT ? "the deadline came" : "the retry loop's max total time ran out");
            break;
        }
        struct anvil_retry_response r = {0};
        if ((rc = s_read(&k, &x, &a, &r, &result)) != ANVIL_OK) {
            break;
        }
        struct anvil_retry_decision d;
        if ((rc = anvil_retry_after_attempt(&token, anvil_env_now_ms(c->options.env), &r, &d)) != ANVIL_OK) {
            break;
        }
        s_debug(c, "POST %.*s -> %ld%s%.*s in %llu ms; %s", (int)name.len, name.ptr, a.status,
                reply->error.code.len ? " " : "", (int)reply->error.code.len, reply->error.code.ptr,
                (unsigned long long)a.latency_ms, d.explanation);
        if (d.action != ANVIL_RETRY_AGAIN) {
            break;
        }
        k.failed = *reply;
        k.failed_result = result;
        k.has_failed = true;
        uint64_t now = anvil_env_now_ms(c->options.env);
        if (deadline_ms && now + d.delay_ms >= deadline_ms) {
            /* No backoff past the deadline: wait for it, then the call has timed out. */
            anvil_env_sleep_ms(c->options.env, deadline_ms > now ? deadline_ms - now : 0);
            s_debug(c, "POST %.*s: the retry after %llu ms would cross the deadline; cut off there", (int)name.len,
                    name.ptr, (unsigned long long)d.delay_ms);
            result = ANVIL_ETIMEDOUT;
            break;
        }
        if ((rc = anvil_env_sleep_ms(c->options.env, d.delay_ms)) != ANVIL_OK) {
            break;
        }
    }
    anvil_retry_token_clean_up(&token);
    anvil_buf_clean_up(&x.body);
    anvil_buf_clean_up(&payload);
    return rc != ANVIL_OK ? rc : result;
}

int anvil_client_call(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                      uint64_t deadline_ms, struct anvil_arena *arena, struct anvil_wait_reply *reply) {
    return s_call(c, op, input, deadline_ms, NULL, arena, reply);
}

int anvil_client_operation_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms,
                                struct anvil_arena *arena, struct anvil_wait_reply *reply) {
    const struct anvil_client_operation *o = user_data;
    return s_call(o->client, o->operation, input, deadline_ms, o->waiter, arena, reply);
}
