/*
 * AWS Signature Version 4: canonical request, string to sign, signing key
 * and signature, as aws-c-auth computes them (its test vectors are the
 * conformance suite). OpenSSL supplies SHA-256 and HMAC.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/sigv4.h"
#include "anvil/text.h"
#include "core/core_internal.h"
#include "core/crypto.h"

void anvil_sigv4_result_init(struct anvil_sigv4_result *r, struct anvil_allocator *allocator) {
    memset(r, 0, sizeof *r);
    anvil_buf_init(&r->canonical_request, allocator, 0);
    anvil_buf_init(&r->string_to_sign, allocator, 0);
    anvil_buf_init(&r->authorization, allocator, 0);
    anvil_buf_init(&r->query, allocator, 0);
    anvil_buf_init(&r->signed_headers, allocator, 0);
}

void anvil_sigv4_result_clean_up(struct anvil_sigv4_result *r) {
    if (r) {
        anvil_buf_clean_up(&r->canonical_request);
        anvil_buf_clean_up(&r->string_to_sign);
        anvil_buf_clean_up(&r->authorization);
        anvil_buf_clean_up(&r->query);
        anvil_buf_clean_up(&r->signed_headers);
    }
}

static void s_hex(const unsigned char *bytes, size_t len, char *out) {
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hex[bytes[i] >> 4];
        out[2 * i + 1] = hex[bytes[i] & 15];
    }
    out[2 * len] = '\0';
}

static int s_sha256_hex(const void *data, size_t len, char out[65]) {
    unsigned char digest[32];
    int rc = anvil__digest(ANVIL__SHA256, data, len, digest, NULL);
    if (rc != ANVIL_OK) {
        return rc;
    }
    s_hex(digest, 32, out);
    return ANVIL_OK;
}

static int s_hmac(const void *key, size_t key_len, const void *data, size_t len, unsigned char out[32]) {
    return anvil__hmac_sha256(key, key_len, data, len, out, NULL);
}

/* ---- URI encoding ---- */

static bool s_unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '~';
}

/* Percent-encodes every byte but the unreserved ones (and '/' when `keep_slash`). */
static int s_encode(struct anvil_buf *out, struct anvil_str_view s, bool keep_slash) {
    static const char hex[] = "0123456789ABCDEF";
    int rc = ANVIL_OK;
    for (size_t i = 0; i < s.len && rc == ANVIL_OK; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (s_unreserved(c) || (keep_slash && c == '/')) {
            rc = anvil_buf_append_byte(out, (char)c);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            rc = anvil_buf_append(out, e, 3);
        }
    }
    return rc;
}

static int s_hexval(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Decodes %XX escapes (a bad escape stays as it is). */
static int s_decode(struct anvil_buf *out, struct anvil_str_view s) {
    int rc = ANVIL_OK;
    for (size_t i = 0; i < s.len && rc == ANVIL_OK; i++) {
        if (s.ptr[i] == '%' && i + 2 < s.len && s_hexval(s.ptr[i + 1]) >= 0 && s_hexval(s.ptr[i + 2]) >= 0) {
            rc = anvil_buf_append_byte(out, (char)(s_hexval(s.ptr[i + 1]) * 16 + s_hexval(s.ptr[i + 2])));
            i += 2;
        } else {
            rc = anvil_buf_append_byte(out, s.ptr[i]);
        }
    }
    return rc;
}

/* ---- canonical URI ---- */

/* Removes "." and ".." segments and empty ones; keeps a trailing slash. */
static int s_normalize_path(struct anvil_buf *out, struct anvil_str_view path) {
    size_t starts[256];
    size_t depth = 0;
    int rc = anvil_buf_append_byte(out, '/');
    size_t i = 0;
    bool trailing = path.len > 0 && path.ptr[path.len - 1] == '/';
    while (i < path.len && rc == ANVIL_OK) {
        while (i < path.len && path.ptr[i] == '/') {
            i++;
        }
        size_t start = i;
        while (i < path.len && path.ptr[i] != '/') {
            i++;
        }
        struct anvil_str_view seg = anvil_sv_slice(path, start, i - start);
        if (seg.len == 0 || anvil_sv_eq_cstr(seg, ".")) {
            trailing = trailing || i >= path.len;
            continue;
        }
        if (anvil_sv_eq_cstr(seg, "..")) {
            if (depth > 0) {
                anvil_buf_truncate(out, starts[--depth]);
            }
            trailing = trailing || i >= path.len;
            continue;
        }
        if (depth == 256) {
            return ANVIL_ELIMIT;
        }
        starts[depth++] = out->len;
        if (out->len > 1) {
            rc = anvil_buf_append_byte(out, '/');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_sv(out, seg);
        }
    }
    if (rc == ANVIL_OK && trailing && out->len > 1) {
        rc = anvil_buf_append_byte(out, '/');
    }
    return rc;
}

/*
 * The path once encoded: each byte that is not unreserved (or '/') as %XX,
 * an escape already in the path kept as it is (its hex upper-cased).
 */
static int s_encode_once(struct anvil_buf *out, struct anvil_str_view path) {
    struct anvil_buf decoded;
    anvil_buf_init(&decoded, out->allocator, 0);
    int rc = s_decode(&decoded, path);
    if (rc == ANVIL_OK) {
        rc = s_encode(out, anvil_buf_view(&decoded), true);
    }
    anvil_buf_clean_up(&decoded);
    return rc;
}

static int s_canonical_uri(struct anvil_buf *out, struct anvil_str_view path, bool keep, bool once,
                           struct anvil_allocator *a) {
    if (path.len == 0) {
        return anvil_buf_append_byte(out, '/');
    }
    if (keep) {
        return once ? s_encode_once(out, path) : s_encode(out, path, true);
    }
    struct anvil_buf normal;
    anvil_buf_init(&normal, a, 0);
    int rc = s_normalize_path(&normal, path);
    if (rc == ANVIL_OK) {
        rc = once ? s_encode_once(out, anvil_buf_view(&normal)) : s_encode(out, anvil_buf_view(&normal), true);
    }
    anvil_buf_clean_up(&normal);
    return rc;
}

/* ---- canonical query ---- */

struct s_param {
    char *key, *value; /* encoded, NUL-terminated, in one allocation */
};

static int s_param_cmp(const void *pa, const void *pb) {
    const struct s_param *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : strcmp(a->value, b->value);
}

struct s_params {
    struct anvil_allocator *allocator;
    struct s_param *items;
    size_t count, cap;
};

/* Adds a parameter, decoding `key`/`value` when `decode`, then encoding both. */
static int s_param_add(struct s_params *ps, struct anvil_str_view key, struct anvil_str_view value, bool decode) {
    if (ps->count == ps->cap) {
        int rc = anvil__mem_grow(ps->allocator, (void **)&ps->items, &ps->cap, sizeof *ps->items, ps->count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    struct anvil_buf raw, enc;
    anvil_buf_init(&raw, ps->allocator, 0);
    anvil_buf_init(&enc, ps->allocator, 0);
    int rc = decode ? s_decode(&raw, key) : anvil_buf_append_sv(&raw, key);
    size_t key_len = 0;
    if (rc == ANVIL_OK) {
        rc = s_encode(&enc, anvil_buf_view(&raw), false);
        key_len = enc.len;
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&enc, '\0');
    }
    anvil_buf_clear(&raw);
    if (rc == ANVIL_OK) {
        rc = decode ? s_decode(&raw, value) : anvil_buf_append_sv(&raw, value);
    }
    if (rc == ANVIL_OK) {
        rc = s_encode(&enc, anvil_buf_view(&raw), false);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_reserve(&enc, 1);
    }
    anvil_buf_clean_up(&raw);
    if (rc != ANVIL_OK) {
        anvil_buf_clean_up(&enc);
        return rc;
    }
    size_t len = 0;
    char *bytes = anvil_buf_steal(&enc, &len);
    ps->items[ps->count].key = bytes;
    ps->items[ps->count].value = bytes + key_len + 1;
    ps->count++;
    return ANVIL_OK;
}

static void s_params_clean_up(struct s_params *ps) {
    for (size_t i = 0; i < ps->count; i++) {
        anvil_mem_release(ps->allocator, ps->items[i].key);
    }
    anvil_mem_release(ps->allocator, ps->items);
}

static int s_split_query(struct s_params *ps, struct anvil_str_view query) {
    size_t i = 0;
    while (i < query.len) {
        size_t end = anvil_sv_find_byte(query, i, '&');
        end = end == SIZE_MAX ? query.len : end;
        struct anvil_str_view pair = anvil_sv_slice(query, i, end - i);
        i = end + 1;
        if (pair.len == 0) {
            continue;
        }
        size_t eq = anvil_sv_find_byte(pair, 0, '=');
        struct anvil_str_view key = eq == SIZE_MAX ? pair : anvil_sv_slice(pair, 0, eq);
        struct anvil_str_view value =
            eq == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(pair, eq + 1, pair.len - eq - 1);
        int rc = s_param_add(ps, key, value, true);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

static int s_join_params(struct s_params *ps, struct anvil_buf *out) {
    if (ps->count > 1) {
        qsort(ps->items, ps->count, sizeof *ps->items, s_param_cmp);
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < ps->count && rc == ANVIL_OK; i++) {
        rc = anvil_buf_appendf(out, "%s%s=%s", i ? "&" : "", ps->items[i].key, ps->items[i].value);
    }
    return rc;
}

/* ---- canonical headers ---- */

struct s_header {
    char name[128];
    struct anvil_buf value;
};

static int s_header_cmp(const void *pa, const void *pb) {
    return strcmp(((const struct s_header *)pa)->name, ((const struct s_header *)pb)->name);
}

/* Headers SigV4 implementations leave unsigned: proxies and clients change them. */
static bool s_skipped(const char *name) {
    static const char *const skipped[] = {
        "authorization", "user-agent", "x-amzn-trace-id", "expect", "transfer-encoding", "connection", NULL};
    for (size_t i = 0; skipped[i]; i++) {
        if (strcmp(name, skipped[i]) == 0) {
            return true;
        }
    }
    return false;
}

struct s_headers {
    struct anvil_allocator *allocator;
    struct s_header *items;
    size_t count, cap;
};

static int s_header_add(struct s_headers *hs, struct anvil_str_view name, struct anvil_str_view value) {
    char lower[128];
    if (name.len == 0 || name.len >= sizeof lower) {
        return ANVIL_EINVAL;
    }
    for (size_t i = 0; i < name.len; i++) {
        char c = name.ptr[i];
        lower[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
    }
    lower[name.len] = '\0';
    if (s_skipped(lower)) {
        return ANVIL_OK;
    }
    for (size_t i = 0; i < hs->count; i++) {
        if (strcmp(hs->items[i].name, lower) == 0) {
            /* Repeated headers: their values in order, joined by commas. */
            int rc = anvil_buf_append_byte(&hs->items[i].value, ',');
            return rc == ANVIL_OK ? anvil_text_append_collapsed(&hs->items[i].value, anvil_sv_trim(value)) : rc;
        }
    }
    if (hs->count == hs->cap) {
        int rc = anvil__mem_grow(hs->allocator, (void **)&hs->items, &hs->cap, sizeof *hs->items, hs->count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    struct s_header *h = &hs->items[hs->count++];
    memcpy(h->name, lower, name.len + 1);
    anvil_buf_init(&h->value, hs->allocator, 0);
    return anvil_text_append_collapsed(&h->value, anvil_sv_trim(value));
}

static void s_headers_clean_up(struct s_headers *hs) {
    for (size_t i = 0; i < hs->count; i++) {
        anvil_buf_clean_up(&hs->items[i].value);
    }
    anvil_mem_release(hs->allocator, hs->items);
}

/* ---- signing ---- */

struct s_sign {
    const struct anvil_sigv4_request *req;
    const struct anvil_sigv4_credentials *cred;
    const struct anvil_sigv4_config *cfg;
    struct anvil_sigv4_result *out;
    struct anvil_allocator *allocator;
    char date[9];
    struct anvil_buf scope;
    struct s_headers headers;
    struct s_params params;
};

static int s_time(struct s_sign *s, struct anvil_diag *diag) {
    time_t secs = (time_t)(s->cfg->time_ms / 1000);
    struct tm tm;
    if (!gmtime_r(&secs, &tm) || tm.tm_year + 1900 > 9999) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the signing time is out of range");
    }
    strftime(s->out->amz_date, sizeof s->out->amz_date, "%Y%m%dT%H%M%SZ", &tm);
    memcpy(s->date, s->out->amz_date, 8);
    s->date[8] = '\0';
    return anvil_buf_appendf(&s->scope, "%s/%.*s/%.*s/aws4_request", s->date, (int)s->cfg->region.len,
                             s->cfg->region.ptr, (int)s->cfg->service.len, s->cfg->service.ptr);
}

static int s_collect_headers(struct s_sign *s) {
    const struct anvil_sigv4_request *req = s->req;
    bool query = s->cfg->placement == ANVIL_SIGV4_QUERY;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < req->header_count && rc == ANVIL_OK; i++) {
        rc = s_header_add(&s->headers, req->headers[i].name, req->headers[i].value);
    }
    if (rc == ANVIL_OK && !query) {
        rc = s_header_add(&s->headers, anvil_sv("x-amz-date", 10), anvil_sv_from_cstr(s->out->amz_date));
        if (rc == ANVIL_OK && s->cred->session_token.len && !s->cfg->omit_session_token) {
            rc = s_header_add(&s->headers, anvil_sv("x-amz-security-token", 20), s->cred->session_token);
        }
        if (rc == ANVIL_OK && s->cfg->sign_body) {
            rc = s_header_add(&s->headers, anvil_sv("x-amz-content-sha256", 20),
                              anvil_sv_from_cstr(s->out->payload_hash));
        }
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (s->headers.count > 1) {
        qsort(s->headers.items, s->headers.count, sizeof *s->headers.items, s_header_cmp);
    }
    for (size_t i = 0; i < s->headers.count && rc == ANVIL_OK; i++) {
        rc = anvil_buf_appendf(&s->out->signed_headers, "%s%s", i ? ";" : "", s->headers.items[i].name);
    }
    return rc;
}

static int s_query_params(struct s_sign *s) {
    int rc = s_split_query(&s->params, s->req->query);
    if (rc != ANVIL_OK || s->cfg->placement != ANVIL_SIGV4_QUERY) {
        return rc;
    }
    struct anvil_buf credential, expires;
    anvil_buf_init(&credential, s->allocator, 0);
    anvil_buf_init(&expires, s->allocator, 0);
    rc = anvil_buf_appendf(&credential, "%.*s/%.*s", (int)s->cred->access_key_id.len, s->cred->access_key_id.ptr,
                           (int)s->scope.len, s->scope.data);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(&expires, "%llu", (unsigned long long)(s->cfg->expires_s ? s->cfg->expires_s : 3600));
    }
    struct {
        const char *key;
        struct anvil_str_view value;
    } adds[] = {
        {"X-Amz-Algorithm", ANVIL_SV("AWS4-HMAC-SHA256")},
        {"X-Amz-Credential", anvil_buf_view(&credential)},
        {"X-Amz-Date", anvil_sv_from_cstr(s->out->amz_date)},
        {"X-Amz-Expires", anvil_buf_view(&expires)},
        {"X-Amz-SignedHeaders", anvil_buf_view(&s->out->signed_headers)},
        {"X-Amz-Security-Token", s->cred->session_token},
    };
    for (size_t i = 0; i < sizeof adds / sizeof adds[0] && rc == ANVIL_OK; i++) {
        if (i == 5 && (!s->cred->session_token.len || s->cfg->omit_session_token)) {
            continue;
        }
        rc = s_param_add(&s->params, anvil_sv_from_cstr(adds[i].key), adds[i].value, false);
    }
    anvil_buf_clean_up(&credential);
    anvil_buf_clean_up(&expires);
    return rc;
}

static int s_canonical_request(struct s_sign *s) {
    struct anvil_buf *c = &s->out->canonical_request;
    int rc = anvil_buf_append_sv(c, s->req->method);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(c, '\n');
    }
    if (rc == ANVIL_OK) {
        rc = s_canonical_uri(c, s->req->path, s->cfg->keep_path, s->cfg->single_encode_path, s->allocator);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(c, '\n');
    }
    size_t query_at = c->len;
    if (rc == ANVIL_OK) {
        rc = s_join_params(&s->params, c);
    }
    if (rc == ANVIL_OK && s->cfg->placement == ANVIL_SIGV4_QUERY) {
        rc = anvil_buf_append(&s->out->query, c->data + query_at, c->len - query_at);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(c, '\n');
    }
    for (size_t i = 0; i < s->headers.count && rc == ANVIL_OK; i++) {
        rc = anvil_buf_appendf(c, "%s:%.*s\n", s->headers.items[i].name, (int)s->headers.items[i].value.len,
                               s->headers.items[i].value.data ? s->headers.items[i].value.data : "");
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(c, "\n%.*s\n%s", (int)s->out->signed_headers.len,
                               s->out->signed_headers.data ? s->out->signed_headers.data : "", s->out->payload_hash);
    }
    return rc;
}

static int s_signature(struct s_sign *s) {
    char hash[65];
    int rc = s_sha256_hex(s->out->canonical_request.data, s->out->canonical_request.len, hash);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(&s->out->string_to_sign, "AWS4-HMAC-SHA256\n%s\n%.*s\n%s", s->out->amz_date,
                               (int)s->scope.len, s->scope.data, hash);
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    /* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request"). */
    size_t secret_len = s->cred->secret_access_key.len;
    unsigned char *k0 = anvil_mem_acquire(s->allocator, secret_len + 4);
    if (!k0) {
        return ANVIL_ENOMEM;
    }
    memcpy(k0, "AWS4", 4);
    memcpy(k0 + 4, s->cred->secret_access_key.ptr, secret_len);
    unsigned char k[32], sig[32];
    rc = s_hmac(k0, secret_len + 4, s->date, 8, k);
    anvil__cleanse(k0, secret_len + 4);
    anvil_mem_release(s->allocator, k0);
    if (rc == ANVIL_OK) {
        rc = s_hmac(k, 32, s->cfg->region.ptr, s->cfg->region.len, k);
    }
    if (rc == ANVIL_OK) {
        rc = s_hmac(k, 32, s->cfg->service.ptr, s->cfg->service.len, k);
    }
    if (rc == ANVIL_OK) {
        rc = s_hmac(k, 32, "aws4_request", 12, k);
    }
    if (rc == ANVIL_OK) {
        rc = s_hmac(k, 32, s->out->string_to_sign.data, s->out->string_to_sign.len, sig);
    }
    anvil__cleanse(k, sizeof k);
    if (rc == ANVIL_OK) {
        s_hex(sig, 32, s->out->signature);
    }
    return rc;
}

int anvil_sigv4_sign(const struct anvil_sigv4_request *req, const struct anvil_sigv4_credentials *cred,
                     const struct anvil_sigv4_config *cfg, struct anvil_sigv4_result *out, struct anvil_diag *diag) {
    if (!req || !cred || !cfg || !out) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "missing request, credentials, config or result");
    }
    if (!cred->access_key_id.len || !cred->secret_access_key.len || !cfg->region.len || !cfg->service.len ||
        !req->method.len) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "signing needs an access key, a secret key, a region, a service and a method");
    }
    struct s_sign s = {req, cred, cfg, out, out->canonical_request.allocator, "", {0}, {0}, {0}};
    anvil_buf_init(&s.scope, s.allocator, 0);
    s.headers.allocator = s.allocator;
    s.params.allocator = s.allocator;
    int rc = s_time(&s, diag);
    if (rc == ANVIL_OK) {
        if (req->payload_hash) {
            snprintf(out->payload_hash, sizeof out->payload_hash, "%s", req->payload_hash);
        } else {
            rc = s_sha256_hex(req->body, req->body_len, out->payload_hash);
        }
    }
    if (rc == ANVIL_OK) {
        rc = s_collect_headers(&s);
    }
    if (rc == ANVIL_OK) {
        rc = s_query_params(&s);
    }
    if (rc == ANVIL_OK) {
        rc = s_canonical_request(&s);
    }
    if (rc == ANVIL_OK) {
        rc = s_signature(&s);
    }
    if (rc == ANVIL_OK && cfg->placement == ANVIL_SIGV4_HEADER) {
        rc = anvil_buf_appendf(&out->authorization,
                               "AWS4-HMAC-SHA256 Credential=%.*s/%.*s, SignedHeaders=%.*s, "
                               "Signature=%s",
                               (int)cred->access_key_id.len, cred->access_key_id.ptr, (int)s.scope.len, s.scope.data,
                               (int)out->signed_headers.len, out->signed_headers.data, out->signature);
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(&out->query, "&X-Amz-Signature=%s", out->signature);
    }
    anvil_buf_clean_up(&s.scope);
    s_headers_clean_up(&s.headers);
    s_params_clean_up(&s.params);
    if (rc == ANVIL_EINVAL && diag && !diag->message[0]) {
        anvil_diag_set(diag, rc, 0, 0, 0, "a header name is empty or longer than 127 bytes");
    }
    return rc;
}
