/*
 * One HTTP exchange over libcurl: a request a protocol built (method,
 * target, headers, body) sent to the client's endpoint, signed with SigV4,
 * cut off at the deadline; the answer's status, headers and body, for the
 * protocol to read.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/sigv4.h"
#include "anvil/text.h"
#include "core/crypto.h"
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
    if (anvil_sv_starts_with(line, ANVIL_SV("HTTP/"))) {
        /* A status line starts a new header block (after a 100 Continue, say): only the last one counts. */
        anvil_buf_clear(&x->header_bytes);
        x->header_count = 0;
        x->headers_cut = false;
        x->retry_after_ms = -1;
        x->server_date_ms = -1;
        return size * n;
    }
    size_t colon = anvil_sv_find_byte(line, 0, ':');
    if (colon == SIZE_MAX || colon == 0) {
        return size * n;
    }
    struct anvil_str_view name = anvil_sv_trim(anvil_sv_slice(line, 0, colon));
    struct anvil_str_view value = anvil_sv_trim(anvil_sv_slice(line, colon + 1, line.len - colon - 1));
    if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("x-amz-retry-after"))) {
        uint64_t ms;
        x->retry_after_ms = anvil_sv_parse_u64(value, INT64_MAX, &ms) == ANVIL_OK ? (int64_t)ms : -1;
    } else if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("date"))) {
        x->server_date_ms = anvil__http_date_ms(value);
    }
    if (memchr(name.ptr, '\0', name.len) || memchr(value.ptr, '\0', value.len)) {
        return size * n; /* a NUL cannot be part of a header; such a line is dropped */
    }
    size_t len = x->header_bytes.len;
    if (x->headers_cut || len + name.len + value.len + 2 > ANVIL__RESPONSE_HEADER_BYTES_MAX) {
        x->headers_cut = true;
        return size * n;
    }
    if (anvil_buf_append_sv(&x->header_bytes, name) != ANVIL_OK ||
        anvil_buf_append_byte(&x->header_bytes, '\0') != ANVIL_OK ||
        anvil_buf_append_sv(&x->header_bytes, value) != ANVIL_OK ||
        anvil_buf_append_byte(&x->header_bytes, '\0') != ANVIL_OK) {
        anvil_buf_truncate(&x->header_bytes, len);
        x->headers_cut = true;
        return size * n;
    }
    x->header_count++;
    return size * n;
}

int anvil__exchange_response(const struct anvil__exchange *x, long status, struct anvil_arena *arena,
                             struct anvil__response *out) {
    memset(out, 0, sizeof *out);
    out->status = (int)status;
    out->body = x->body.data ? x->body.data : "";
    out->body_len = x->body.len;
    if (!x->header_count) {
        return ANVIL_OK;
    }
    struct anvil_http_header *headers =
        anvil_arena_alloc(arena, x->header_count * sizeof *headers, _Alignof(struct anvil_http_header));
    if (!headers) {
        return ANVIL_ENOMEM;
    }
    const char *p = x->header_bytes.data;
    for (size_t i = 0; i < x->header_count; i++) {
        size_t name_len = strlen(p);
        const char *value = p + name_len + 1;
        size_t value_len = strlen(value);
        headers[i] = (struct anvil_http_header){anvil_sv(p, name_len), anvil_sv(value, value_len)};
        p = value + value_len + 1;
    }
    out->headers = headers;
    out->header_count = x->header_count;
    return ANVIL_OK;
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
    case CURLE_SSL_CACERT_BADFILE: /* the trust anvil was given cannot be read: another try will not read it */
    case CURLE_SSL_CERTPROBLEM:
        return ANVIL_RETRY_IO_TLS;
    case CURLE_ABORTED_BY_CALLBACK:
        return ANVIL_RETRY_IO_CANCELLED;
    default:
        return ANVIL_RETRY_IO_RESET;
    }
}

const char *anvil__exchange_error(const struct anvil__exchange *x, CURLcode code) {
    if (x->builtin) {
        return x->error[0] ? x->error : "the exchange failed"; /* libcurl may not even be loaded */
    }
    return anvil__curl_io_error(code) == ANVIL_RETRY_IO_TLS && x->error[0] ? x->error : curl_easy_strerror(code);
}

/* A header anvil may put on the wire as it is: no CR, LF or NUL anywhere (they would split the request). */
static bool s_header_ok(struct anvil_str_view name, struct anvil_str_view value) {
    for (size_t i = 0; i < value.len; i++) {
        if (value.ptr[i] == '\r' || value.ptr[i] == '\n' || value.ptr[i] == '\0') {
            return false;
        }
    }
    for (size_t i = 0; i < name.len; i++) {
        unsigned char ch = (unsigned char)name.ptr[i];
        if (ch <= ' ' || ch >= 0x7f || ch == ':') {
            return false;
        }
    }
    return name.len > 0;
}

/*
 * The URL and what is signed: the endpoint's scheme and authority with
 * the host prefix in front of the host, the endpoint's own path (without a
 * trailing slash) before the request's target.
 */
static int s_url(const struct anvil__endpoint *ep, const struct anvil__request *req, struct anvil_buf *url,
                 struct anvil_buf *host, struct anvil_str_view *path, struct anvil_str_view *query) {
    const char *prefix = ep->host_prefix_allowed ? req->host_prefix : "";
    const char *endpoint = ep->base;
    const char *authority = strstr(endpoint, "://") + 3;
    struct anvil_str_view base = anvil_sv_from_cstr(ep->path);
    struct anvil_str_view host_name = anvil_sv_from_cstr(ep->host);
    char override[1100];
    if (req->endpoint) {
        /* The request names its own endpoint (checked as an http(s) URL of host[:port][/path] when built). */
        const char *given = req->endpoint;
        const char *given_authority = strstr(given, "://") + 3;
        size_t n = strcspn(given_authority, "/?#");
        snprintf(override, sizeof override, "%.*s", (int)(given_authority + n - given), given);
        endpoint = override;
        authority = override + (given_authority - given);
        host_name = anvil_sv(given_authority, n);
        base = anvil_sv(given_authority + n, strcspn(given_authority + n, "?#"));
        prefix = "";
    }
    while (base.len && base.ptr[base.len - 1] == '/') {
        base.len--;
    }
    struct anvil_str_view target = anvil_buf_view(&req->target);
    int rc = anvil_buf_appendf(url, "%.*s%s%s", (int)(authority - endpoint), endpoint, prefix, authority);
    size_t path_at = url->len;
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_sv(url, base);
    }
    if (rc == ANVIL_OK && (target.len == 0 || target.ptr[0] == '?') && base.len == 0) {
        /* Nothing of a path left (an S3 bucket's own URI, the bucket in the host): the root. */
        rc = anvil_buf_append_byte(url, '/');
    }
    if (rc == ANVIL_OK) {
        /* A target with no path of its own ("?list-type=2") follows the endpoint's path ("/bucket") directly. */
        rc = anvil_buf_append_sv(url, target);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(host, "%s%.*s", prefix, (int)host_name.len, host_name.ptr);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_str_view rest = anvil_sv(url->data + path_at, url->len - path_at);
    size_t q = anvil_sv_find_byte(rest, 0, '?');
    *path = q == SIZE_MAX ? rest : anvil_sv_slice(rest, 0, q);
    *query = q == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(rest, q + 1, rest.len - q - 1);
    return ANVIL_OK;
}

/* Adds a header to the prepared request: name and value kept in its own buffer (offsets until the end). */
static int s_prepared_add(struct anvil__prepared *p, struct anvil_str_view name, struct anvil_str_view value) {
    if (p->header_count == p->header_capacity) {
        int rc = anvil__mem_grow(p->allocator, (void **)&p->headers, &p->header_capacity, sizeof *p->headers,
                                 p->header_count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    /* Offsets now, pointers once every string is in (the buffer may move as it grows). */
    size_t name_at = p->strings.len;
    int rc = anvil_buf_append_sv(&p->strings, name);
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&p->strings, '\0') : rc;
    size_t value_at = p->strings.len;
    rc = rc == ANVIL_OK ? anvil_buf_append_sv(&p->strings, value) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&p->strings, '\0') : rc;
    if (rc == ANVIL_OK) {
        struct anvil_http_header *h = &p->headers[p->header_count++];
        h->name.ptr = (const char *)name_at;
        h->name.len = name.len;
        h->value.ptr = (const char *)value_at;
        h->value.len = value.len;
    }
    return rc;
}

void anvil__prepared_clean_up(struct anvil__prepared *p) {
    /* The session token and the signature do not linger in freed memory. */
    if (p->strings.data) {
        anvil__cleanse(p->strings.data, p->strings.capacity);
    }
    anvil_buf_clean_up(&p->strings);
    anvil_buf_clean_up(&p->url);
    anvil_mem_release(p->allocator, p->headers);
    memset(p, 0, sizeof *p);
}

/* Whether the endpoint's headers (the rules') name `name`, in any case. */
static bool s_endpoint_sets(const struct anvil__endpoint *ep, struct anvil_str_view name) {
    for (size_t i = 0; ep->headers && i < anvil_json_len(ep->headers); i++) {
        if (anvil_sv_eq_ascii_nocase(anvil_json_member_key(anvil_json_object_at(ep->headers, i)), name)) {
            return true;
        }
    }
    return false;
}

int anvil__client_prepare(struct anvil_client *c, const struct anvil__endpoint *ep, const struct anvil__request *req,
                          struct anvil__prepared *p) {
    memset(p, 0, sizeof *p);
    p->allocator = c->allocator;
    p->method = req->method;
    p->body = req->body.data ? req->body.data : "";
    p->body_len = req->body.len;
    anvil_buf_init(&p->url, c->allocator, 16384);
    anvil_buf_init(&p->strings, c->allocator, 0);
    struct anvil_buf host;
    anvil_buf_init(&host, c->allocator, 1024);
    struct anvil_str_view path, query;
    int rc = s_url(ep, req, &p->url, &host, &path, &query);
    /* The endpoint's headers (the rules'), one line per value, after the request's own. */
    size_t endpoint_values = 0;
    for (size_t i = 0; ep->headers && i < anvil_json_len(ep->headers); i++) {
        endpoint_values += anvil_json_len(&anvil_json_object_at(ep->headers, i)->value);
    }
    size_t n = req->header_count + 1 + endpoint_values;
    struct anvil_sigv4_header *signed_headers =
        rc == ANVIL_OK ? anvil_mem_calloc(c->allocator, n, sizeof *signed_headers) : NULL;
    if (rc == ANVIL_OK && !signed_headers) {
        rc = ANVIL_ENOMEM;
    }
    size_t k = 1;
    bool own_agent = false;
    if (rc == ANVIL_OK) {
        signed_headers[0] = (struct anvil_sigv4_header){ANVIL_SV("Host"), anvil_buf_view(&host)};
        for (size_t i = 0; i < req->header_count && rc == ANVIL_OK; i++) {
            /* A header the endpoint sets replaces the request's own (S3 Control's x-amz-account-id from an ARN). */
            if (s_endpoint_sets(ep, req->headers[i].name)) {
                continue;
            }
            signed_headers[k++] = (struct anvil_sigv4_header){req->headers[i].name, req->headers[i].value};
            own_agent = own_agent || anvil_sv_eq_ascii_nocase(req->headers[i].name, ANVIL_SV("User-Agent"));
            p->has_content_type =
                p->has_content_type || anvil_sv_eq_ascii_nocase(req->headers[i].name, ANVIL_SV("Content-Type"));
            rc = s_header_ok(req->headers[i].name, req->headers[i].value) ? ANVIL_OK : ANVIL_EINVAL;
        }
        for (size_t i = 0; ep->headers && i < anvil_json_len(ep->headers) && rc == ANVIL_OK; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(ep->headers, i);
            for (size_t j = 0; j < anvil_json_len(&m->value) && rc == ANVIL_OK; j++) {
                struct anvil_str_view value = anvil_json_string(anvil_json_array_at(&m->value, j));
                signed_headers[k++] = (struct anvil_sigv4_header){anvil_json_member_key(m), value};
                own_agent = own_agent || anvil_sv_eq_ascii_nocase(anvil_json_member_key(m), ANVIL_SV("User-Agent"));
                p->has_content_type =
                    p->has_content_type || anvil_sv_eq_ascii_nocase(anvil_json_member_key(m), ANVIL_SV("Content-Type"));
                rc = s_header_ok(anvil_json_member_key(m), value) ? ANVIL_OK : ANVIL_EINVAL;
            }
        }
    }
    n = k;
    struct anvil_sigv4_request sreq = {
        anvil_sv_from_cstr(req->method), path, query, signed_headers, n, req->body.data, req->body.len, NULL};
    struct anvil_sigv4_credentials cred = {anvil_sv_from_cstr(c->aws.access_key_id),
                                           anvil_sv_from_cstr(c->aws.secret_access_key),
                                           anvil_sv_from_cstr(c->aws.session_token)};
    struct anvil_sigv4_config cfg = {.region = anvil_sv_from_cstr(ep->signing_region),
                                     .service = anvil_sv_from_cstr(ep->signing_name),
                                     .time_ms = anvil_env_wall_ms(c->options.env) + c->clock_offset_ms,
                                     .keep_path = ep->keep_path,
                                     .single_encode_path = ep->single_encode_path,
                                     .sign_body = ep->s3_signing};
    struct anvil_sigv4_result sig;
    anvil_sigv4_result_init(&sig, c->allocator);
    if (rc == ANVIL_OK && ep->sign) {
        rc = anvil_sigv4_sign(&sreq, &cred, &cfg, &sig, NULL);
    }
    /* The Host signed is the Host sent (curl's own would drop a default port the URL names). */
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        rc = s_prepared_add(p, signed_headers[i].name, signed_headers[i].value);
    }
    /* Unsigned, as every SDK sends it: a proxy may rewrite a User-Agent. None when the request has its own. */
    struct anvil_str_view extra_names[] = {ANVIL_SV("X-Amz-Date"), ANVIL_SV("x-amz-content-sha256"),
                                           ANVIL_SV("X-Amz-Security-Token"), ANVIL_SV("Authorization"),
                                           ANVIL_SV("User-Agent")};
    struct anvil_str_view extra_values[] = {
        anvil_sv_from_cstr(sig.amz_date),
        ep->s3_signing && ep->sign ? anvil_sv_from_cstr(sig.payload_hash) : anvil_sv("", 0),
        ep->sign ? anvil_sv_from_cstr(c->aws.session_token) : anvil_sv("", 0), anvil_buf_view(&sig.authorization),
        own_agent ? anvil_sv("", 0) : anvil_sv_from_cstr(c->user_agent)};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(extra_names) && rc == ANVIL_OK; i++) {
        if (extra_values[i].len) {
            rc = s_prepared_add(p, extra_names[i], extra_values[i]);
        }
    }
    for (size_t i = 0; i < p->header_count && rc == ANVIL_OK; i++) {
        struct anvil_http_header *h = &p->headers[i];
        h->name.ptr = p->strings.data + (size_t)h->name.ptr;
        h->value.ptr = p->strings.data + (size_t)h->value.ptr;
    }
    anvil_sigv4_result_clean_up(&sig);
    anvil_mem_release(c->allocator, signed_headers);
    anvil_buf_clean_up(&host);
    if (rc != ANVIL_OK) {
        anvil__prepared_clean_up(p);
    }
    return rc;
}

/* Appends "Name: value" to curl's list (an empty value as "Name;", which curl sends as an empty header). */
static int s_curl_header(struct curl_slist **list, struct anvil_buf *line, struct anvil_str_view name,
                         struct anvil_str_view value) {
    anvil_buf_clear(line);
    int rc = value.len ? anvil_buf_appendf(line, "%.*s: %.*s", (int)name.len, name.ptr, (int)value.len, value.ptr)
                       : anvil_buf_appendf(line, "%.*s;", (int)name.len, name.ptr);
    struct curl_slist *next = rc == ANVIL_OK ? curl_slist_append(*list, line->data) : NULL;
    if (!next) {
        return rc == ANVIL_OK ? ANVIL_ENOMEM : rc;
    }
    *list = next;
    return ANVIL_OK;
}

/*
 * Readies `x` for an attempt (no error, not too large, not cancelled) and
 * gives its timeout: the client's request timeout, or less when the
 * deadline comes first (then a timeout is the deadline's: cut_at_deadline).
 */
static uint64_t s_attempt_begin(struct anvil_client *c, struct anvil__exchange *x) {
    uint64_t timeout = c->options.request_timeout_ms ? c->options.request_timeout_ms : 60000;
    uint64_t now = anvil_env_now_ms(c->options.env);
    x->cut_at_deadline = false;
    if (x->deadline_ms && (x->deadline_ms <= now || x->deadline_ms - now < timeout)) {
        timeout = x->deadline_ms > now ? x->deadline_ms - now : 1;
        x->cut_at_deadline = true;
    }
    x->too_large = false;
    x->cancelled = false;
    x->error[0] = '\0';
    return timeout;
}

/* Sets `h` up for the prepared request in `t` (its headers list becomes t's). */
static int s_curl_begin(struct anvil_client *c, CURL *h, const struct anvil__request *req, struct anvil__exchange *x,
                        struct anvil__transfer *t) {
    int rc = ANVIL_OK;
    struct anvil__prepared *p = &t->prepared;
    x->builtin = false;
    struct curl_slist *list = NULL;
    struct anvil_buf line;
    anvil_buf_init(&line, c->allocator, 0);
    for (size_t i = 0; i < p->header_count && rc == ANVIL_OK; i++) {
        rc = s_curl_header(&list, &line, p->headers[i].name, p->headers[i].value);
    }
    /* No "Expect: 100-continue" round trip, and no Content-Type curl would make up for a POST without one. */
    struct curl_slist *next = rc == ANVIL_OK ? curl_slist_append(list, "Expect:") : NULL;
    list = next ? next : list;
    if (rc == ANVIL_OK && next && !p->has_content_type) {
        next = curl_slist_append(list, "Content-Type:");
        list = next ? next : list;
    }
    rc = rc == ANVIL_OK && !next ? ANVIL_ENOMEM : rc;
    if (line.data) {
        anvil__cleanse(line.data, line.capacity);
    }
    anvil_buf_clean_up(&line);
    if (rc != ANVIL_OK) {
        curl_slist_free_all(list);
        anvil__prepared_clean_up(p);
        return rc;
    }
    t->headers = list;
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, p->url.data);
    /* The path goes out as signed: curl must not remove dot segments from it. */
    curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);
    if (strcmp(req->method, "GET") == 0 && req->body.len == 0) {
        curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else if (strcmp(req->method, "HEAD") == 0) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else {
        /*
         * POST, PUT, DELETE, PATCH, and a GET with a body (a few services
         * model one: sesv2 ListContacts): the body sent as given, under the
         * request's own method.
         */
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, req->body.data ? req->body.data : "");
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body.len);
        if (strcmp(req->method, "POST") != 0) {
            curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, req->method);
        }
    }
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
    uint64_t timeout = s_attempt_begin(c, x);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)timeout);
    t->timeout_ms = timeout;
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->error);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    anvil__tls_trust_apply(h, &c->trust);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    t->start_ms = anvil_env_now_ms(c->options.env);
    t->past_deadline = x->deadline_ms && t->start_ms >= x->deadline_ms;
    return ANVIL_OK;
}

int anvil__send_begin(struct anvil_client *c, CURL *h, const struct anvil__endpoint *ep,
                      const struct anvil__request *req, struct anvil__exchange *x, struct anvil__transfer *t) {
    memset(t, 0, sizeof *t);
    int rc = anvil__client_prepare(c, ep, req, &t->prepared);
    return rc == ANVIL_OK ? s_curl_begin(c, h, req, x, t) : rc;
}

/*
 * A timeout of an attempt cut at the deadline is the deadline's (a
 * cancellation), unless it was the connect timeout, which ends sooner:
 * told by how long the transfer ran, on the transport's own clock.
 */
static CURLcode s_deadline_cut(const struct anvil__exchange *x, CURLcode code, uint64_t elapsed_ms,
                               uint64_t timeout_ms) {
    return code == CURLE_OPERATION_TIMEDOUT && x->cut_at_deadline && elapsed_ms + 5 >= timeout_ms
               ? CURLE_ABORTED_BY_CALLBACK
               : code;
}

void anvil__send_end(struct anvil_client *c, CURL *h, const struct anvil__exchange *x, struct anvil__transfer *t,
                     CURLcode code, struct anvil__attempt *a) {
    a->curl = t->past_deadline ? CURLE_ABORTED_BY_CALLBACK : code;
    if (a->curl == CURLE_OPERATION_TIMEDOUT) {
        curl_off_t total_us = 0;
        curl_easy_getinfo(h, CURLINFO_TOTAL_TIME_T, &total_us);
        a->curl = s_deadline_cut(x, a->curl, (uint64_t)total_us / 1000, t->timeout_ms);
    }
    a->latency_ms = anvil_env_now_ms(c->options.env) - t->start_ms;
    a->status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &a->status);
    anvil__transfer_clean_up(t);
}

void anvil__transfer_clean_up(struct anvil__transfer *t) {
    curl_slist_free_all(t->headers);
    t->headers = NULL;
    anvil__prepared_clean_up(&t->prepared);
}

static bool s_builtin_line(void *ctx, const char *line, size_t len) {
    return s_on_header((char *)(uintptr_t)line, 1, len, ctx) == len;
}

static bool s_builtin_body(void *ctx, const char *data, size_t len) {
    return s_on_body((char *)(uintptr_t)data, 1, len, ctx) == len;
}

CURLcode anvil__http_outcome_code(enum anvil__http_outcome o) {
    switch (o) {
    case ANVIL__HTTP_OK:
        return CURLE_OK;
    case ANVIL__HTTP_RESOLVE:
        return CURLE_COULDNT_RESOLVE_HOST;
    case ANVIL__HTTP_CONNECT:
        return CURLE_COULDNT_CONNECT;
    case ANVIL__HTTP_TIMEOUT:
        return CURLE_OPERATION_TIMEDOUT;
    case ANVIL__HTTP_TLS:
    case ANVIL__HTTP_NO_TLS:
        return CURLE_SSL_CONNECT_ERROR;
    case ANVIL__HTTP_TLS_VERIFY:
        return CURLE_PEER_FAILED_VERIFICATION;
    case ANVIL__HTTP_TLS_TRUST:
        return CURLE_SSL_CACERT_BADFILE;
    case ANVIL__HTTP_SEND:
        return CURLE_SEND_ERROR;
    case ANVIL__HTTP_RECV:
        return CURLE_RECV_ERROR;
    case ANVIL__HTTP_PROTOCOL:
        return CURLE_WEIRD_SERVER_REPLY;
    case ANVIL__HTTP_STOPPED:
        return CURLE_WRITE_ERROR;
    case ANVIL__HTTP_CANCELLED:
    default:
        return CURLE_ABORTED_BY_CALLBACK;
    }
}

/* One exchange over anvil's own transport (http_conn.h), as anvil__send_end() reports a curl transfer. */
static int s_builtin_send(struct anvil_client *c, struct anvil__prepared *p, struct anvil__exchange *x,
                          struct anvil__attempt *a) {
    uint64_t timeout = s_attempt_begin(c, x);
    x->builtin = true;
    uint64_t start = anvil_env_now_ms(c->options.env);
    a->status = 0;
    a->latency_ms = 0;
    if (x->deadline_ms && start >= x->deadline_ms) {
        a->curl = CURLE_ABORTED_BY_CALLBACK; /* the deadline had passed: not sent */
        return ANVIL_OK;
    }
    struct anvil__http_request r = {
        .method = p->method,
        .url = p->url.data,
        .headers = p->headers,
        .header_count = p->header_count,
        .body = p->body,
        .body_len = p->body_len,
        .connect_timeout_ms = c->options.connect_timeout_ms ? c->options.connect_timeout_ms : 10000,
        .timeout_ms = timeout,
        .cancel = x->cancel,
        .on_line = s_builtin_line,
        .on_body = s_builtin_body,
        .ctx = x,
    };
    struct anvil__http_result res;
    int rc = anvil__http_exchange(&c->http, &r, &res);
    if (rc != ANVIL_OK) {
        return rc;
    }
    a->curl = s_deadline_cut(x, anvil__http_outcome_code(res.outcome), res.elapsed_ms, timeout);
    x->cancelled = res.outcome == ANVIL__HTTP_CANCELLED;
    snprintf(x->error, sizeof x->error, "%s", res.error);
    a->status = res.status;
    a->latency_ms = anvil_env_now_ms(c->options.env) - start;
    return ANVIL_OK;
}

int anvil__client_send(struct anvil_client *c, const struct anvil__endpoint *ep, const struct anvil__request *req,
                       struct anvil__exchange *x, struct anvil__attempt *a) {
    struct anvil__transfer t;
    memset(&t, 0, sizeof t);
    int rc = anvil__client_prepare(c, ep, req, &t.prepared);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (anvil__http_builtin_serves(t.prepared.url.data, c->options.getenv, c->options.getenv_ctx)) {
        rc = s_builtin_send(c, &t.prepared, x, a);
        anvil__prepared_clean_up(&t.prepared);
        return rc;
    }
    rc = anvil__client_curl(c, NULL);
    if (rc != ANVIL_OK) {
        anvil__prepared_clean_up(&t.prepared);
        return rc;
    }
    if ((rc = s_curl_begin(c, c->curl, req, x, &t)) != ANVIL_OK) {
        return rc; /* it released the prepared request */
    }
    anvil__send_end(c, c->curl, x, &t, t.past_deadline ? CURLE_OK : curl_easy_perform(c->curl), a);
    return ANVIL_OK;
}
