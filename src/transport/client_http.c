/*
 * One HTTP exchange of the AWS JSON protocols over libcurl: the request
 * built from the model (X-Amz-Target, content type), signed with SigV4,
 * cut off at the deadline; the answer's body, X-Amzn-ErrorType and
 * x-amz-retry-after; the error read from `__type`.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/sigv4.h"
#include "anvil/text.h"
#include "transport/client_internal.h"

static size_t s_on_body(char *data, size_t size, size_t n, void *user_data) {
    struct anvil__exchange *x = user_data;
    int rc = anvil_buf_append(&x->body, data, size * n);
    x->too_large = x->too_large || rc == ANVIL_ELIMIT;
    return rc == ANVIL_OK ? size * n : 0;
}

static size_t s_on_header(char *data, size_t size, size_t n, void *user_data) {
    struct anvil__exchange *x = user_data;
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
        } else if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("date"))) {
            x->server_date_ms = anvil__http_date_ms(value);
        } else if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("location"))) {
            snprintf(x->location, sizeof x->location, "%.*s", (int)value.len, value.ptr);
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
    struct anvil__exchange *x = user_data;
    if (x->cancel && *x->cancel) {
        x->cancelled = true;
        return 1;
    }
    return x->deadline_ms && anvil_env_now_ms(x->env) >= x->deadline_ms;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
static int64_t s_days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* A run of `n` digits at `p` as a number, or -1. */
static int s_digits(const char *p, size_t n) {
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return -1;
        }
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

int64_t anvil__http_date_ms(struct anvil_str_view t) {
    /* IMF-fixdate only (RFC 9110 5.6.7), which every AWS service sends: "Sun, 06 Nov 1994 08:49:37 GMT". */
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (t.len != 29 || t.ptr[3] != ',' || t.ptr[4] != ' ' || t.ptr[7] != ' ' || t.ptr[11] != ' ' || t.ptr[16] != ' ' ||
        t.ptr[19] != ':' || t.ptr[22] != ':' || memcmp(t.ptr + 25, " GMT", 4) != 0) {
        return -1;
    }
    int day = s_digits(t.ptr + 5, 2), year = s_digits(t.ptr + 12, 4);
    int hh = s_digits(t.ptr + 17, 2), mm = s_digits(t.ptr + 20, 2), ss = s_digits(t.ptr + 23, 2);
    unsigned month = 0;
    for (unsigned i = 0; i < 12; i++) {
        if (memcmp(t.ptr + 8, months + 3 * i, 3) == 0) {
            month = i + 1;
        }
    }
    if (day < 1 || day > 31 || year < 1970 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 60 || !month) {
        return -1;
    }
    int64_t days = s_days_from_civil(year, month, (unsigned)day);
    return ((days * 24 + hh) * 60 + mm) * 60000 + (int64_t)ss * 1000;
}

enum anvil_retry_io_error anvil__curl_io_error(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_CONNECT:
        return ANVIL_RETRY_IO_CONNECT_REFUSED;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        /* curl cannot tell a name that does not exist from a resolver that failed: transient, as every SDK has it. */
        return ANVIL_RETRY_IO_DNS_TEMPORARY;
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

int anvil__client_send(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_buf *payload,
                       const char *content_encoding, struct anvil__exchange *x, struct anvil__attempt *a) {
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
    struct anvil_sigv4_request req = {ANVIL_SV("POST"),
                                      anvil_sv_from_cstr(c->path),
                                      ANVIL_SV(""),
                                      headers,
                                      content_encoding ? 4u : 3u,
                                      payload->data,
                                      payload->len,
                                      NULL};
    struct anvil_sigv4_credentials cred = {anvil_sv_from_cstr(c->aws.access_key_id),
                                           anvil_sv_from_cstr(c->aws.secret_access_key),
                                           anvil_sv_from_cstr(c->aws.session_token)};
    struct anvil_sigv4_config cfg = {.region = anvil_sv_from_cstr(c->aws.region),
                                     .service = anvil_sv_from_cstr(c->signing_name),
                                     .time_ms = anvil_env_wall_ms(c->options.env) + c->clock_offset_ms};
    struct anvil_sigv4_result sig;
    anvil_sigv4_result_init(&sig, c->allocator);
    int rc = anvil_sigv4_sign(&req, &cred, &cfg, &sig, NULL);
    struct curl_slist *list = NULL;
    if (rc == ANVIL_OK) {
        /* The Host signed is the Host sent (curl's own would drop a default port the URL names). */
        const char *names[] = {"Host", "Content-Type", "X-Amz-Target", "X-Amz-Date", "Content-Encoding",
                               "X-Amz-Security-Token", "Authorization",
                               /* No "Expect: 100-continue" round trip. */
                               "Expect"};
        struct anvil_str_view values[] = {anvil_sv_from_cstr(c->host),
                                          anvil_sv_from_cstr(content_type),
                                          anvil_sv_from_cstr(target),
                                          anvil_sv_from_cstr(sig.amz_date),
                                          anvil_sv_from_cstr(content_encoding ? content_encoding : ""),
                                          anvil_sv_from_cstr(c->aws.session_token),
                                          anvil_buf_view(&sig.authorization),
                                          anvil_sv("", 0)};
        struct anvil_buf line;
        anvil_buf_init(&line, c->allocator, 0);
        for (size_t i = 0; i < sizeof names / sizeof names[0] && rc == ANVIL_OK; i++) {
            if (values[i].len == 0 && strcmp(names[i], "Expect") != 0) {
                continue;
            }
            anvil_buf_clear(&line);
            rc = anvil_buf_appendf(&line, "%s:%s%.*s", names[i], values[i].len ? " " : "", (int)values[i].len,
                                   values[i].ptr);
            struct curl_slist *next = rc == ANVIL_OK ? curl_slist_append(list, line.data) : NULL;
            rc = next ? ANVIL_OK : ANVIL_ENOMEM;
            list = next ? next : list;
        }
        /* The secret token does not linger in freed memory. */
        if (line.data) {
            memset(line.data, 0, line.capacity);
        }
        anvil_buf_clean_up(&line);
    }
    anvil_sigv4_result_clean_up(&sig);
    if (rc != ANVIL_OK) {
        curl_slist_free_all(list);
        return rc;
    }
    CURL *h = c->curl;
    curl_easy_reset(h);
    char url[800];
    snprintf(url, sizeof url, "%s%s", c->endpoint, c->path);
    curl_easy_setopt(h, CURLOPT_URL, url);
    /* The path goes out as signed: curl must not remove dot segments from it. */
    curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);
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
    x->too_large = false;
    x->cancelled = false;
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    if (c->ca_bundle[0]) {
        curl_easy_setopt(h, CURLOPT_CAINFO, c->ca_bundle);
    }
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    uint64_t start = anvil_env_now_ms(c->options.env);
    a->curl = x->deadline_ms && start >= x->deadline_ms ? CURLE_ABORTED_BY_CALLBACK : curl_easy_perform(h);
    if (a->curl == CURLE_OPERATION_TIMEDOUT && x->cut_at_deadline) {
        /* The deadline's timeout, unless it was the connect timeout, which ends sooner (curl's own clock). */
        curl_off_t total_us = 0;
        curl_easy_getinfo(h, CURLINFO_TOTAL_TIME_T, &total_us);
        if ((uint64_t)total_us / 1000 + 5 >= timeout) {
            a->curl = CURLE_ABORTED_BY_CALLBACK;
        }
    }
    a->latency_ms = anvil_env_now_ms(c->options.env) - start;
    a->status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &a->status);
    curl_slist_free_all(list);
    return ANVIL_OK;
}

/* The most kept of an answer's error code and message (a hostile server may send megabytes of either). */
#define S_CODE_MAX 256
#define S_MESSAGE_MAX 4096
/* The most of a body that is not an error document quoted in the message. */
#define S_BODY_QUOTE_MAX 200

int anvil__client_error(struct anvil__exchange *x, long status, struct anvil_arena *arena,
                        struct anvil_operation_error *e) {
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
    rc = anvil__text_keep(arena, anvil_error_code_normalize(code), S_CODE_MAX, &e->code);
    if (rc == ANVIL_OK && anvil_json_is_string(message)) {
        rc = anvil__text_keep(arena, anvil_json_string(message), S_MESSAGE_MAX, &e->message);
    } else if (rc == ANVIL_OK) {
        /* No error document: say what came, in words a person can act on, quoting a little of the body. */
        struct anvil_buf said;
        anvil_buf_init(&said, NULL, 0);
        rc = anvil_buf_appendf(&said, "HTTP %ld", status);
        if (rc == ANVIL_OK && status >= 300 && status < 400) {
            rc = anvil_buf_append_cstr(&said, x->location[0] ? ", a redirect to " : ", a redirect");
            if (rc == ANVIL_OK) {
                rc = anvil_text_append_utf8(&said, anvil_sv_from_cstr(x->location), sizeof x->location);
            }
            if (rc == ANVIL_OK) {
                rc = anvil_buf_append_cstr(&said, " (anvil does not follow redirects: are the region and the "
                                                  "endpoint right?)");
            }
        } else if (rc == ANVIL_OK && x->body.len) {
            rc = anvil_buf_append_cstr(&said, ": ");
            if (rc == ANVIL_OK) {
                rc = anvil_text_append_utf8(&said, anvil_buf_view(&x->body), S_BODY_QUOTE_MAX);
            }
        }
        if (rc == ANVIL_OK) {
            rc = anvil__text_keep(arena, anvil_buf_view(&said), S_MESSAGE_MAX, &e->message);
        }
        anvil_buf_clean_up(&said);
    }
    return rc;
}

/* Builds the request body once per call: the idempotency token filled, then compressed if the trait says so. */
