/*
 * The credential sources reached over plain HTTP: the ECS/EKS container
 * endpoint and EC2 instance metadata (IMDSv2). Short timeouts, no
 * proxies, no redirects, answers capped at 64 KiB.
 */
#include "transport/curl_lib.h"
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anvil/json.h"
#include "core/core_internal.h"
#include "core/crypto.h"
#include "protocol/protocol_internal.h"
#include "transport/client_internal.h"
#include "transport/credentials_internal.h"

#define S_ANSWER_MAX ((size_t)64 * 1024)
#define S_IMDS_DEFAULT "http://169.254.169.254"
#define S_IMDS_IPV6 "http://[fd00:ec2::254]"
#define S_CONTAINER_HOST "http://169.254.170.2"
/* botocore extends expired instance credentials by this much during an IMDS outage (static stability). */
#define S_IMDS_GRACE_MS ((uint64_t)15 * 60 * 1000)

struct s_answer {
    char data[S_ANSWER_MAX + 1];
    size_t len;
    bool too_long;
    long status;
    /* The exchange's outcome as a curl code (CURLE_OK: an answer came), and what failed. */
    CURLcode curl;
    char error[256];
    const volatile sig_atomic_t *cancel;
};

static bool s_body(void *user, const char *data, size_t n) {
    struct s_answer *a = user;
    if (a->len + n > S_ANSWER_MAX) {
        a->too_long = true;
        return false;
    }
    memcpy(a->data + a->len, data, n);
    a->len += n;
    a->data[a->len] = '\0';
    return true;
}

/*
 * One request over anvil's own transport (no proxy: these endpoints are
 * local, as libcurl's NOPROXY "*" had them), with `header_count` fields
 * (Host comes from the URL). ANVIL_OK when the exchange ran (its outcome in
 * `a`), ANVIL_ECANCELED, ANVIL_ECONFIG (diag) for a trust setting that
 * cannot be used, ANVIL_ENOMEM.
 */
static int s_request(const struct anvil_credentials_options *o, const char *method, const char *url,
                     const struct anvil_http_header *headers, size_t header_count, uint64_t timeout_ms,
                     struct s_answer *a, struct anvil_diag *diag) {
    a->len = 0;
    a->data[0] = '\0';
    a->too_long = false;
    a->status = 0;
    a->error[0] = '\0';
    a->cancel = o->cancel;
    struct anvil__http_target target;
    if (!anvil__http_split_url(url, &target)) {
        a->curl = CURLE_URL_MALFORMAT;
        snprintf(a->error, sizeof a->error, "not an http:// or https:// URL anvil can connect to");
        return ANVIL_OK;
    }
    struct anvil__tls_trust trust = {{0}, {0}};
    if (target.https) {
        /* The system's CA places are OpenSSL's defaults, which libcrypto knows. */
        if (anvil__crypto_load(diag) != ANVIL_OK) {
            return ANVIL_EUNSUPPORTED;
        }
        if (anvil__tls_trust_resolve_system(o->ca_bundle, o->getenv, o->getenv_ctx, &trust, diag) != ANVIL_OK) {
            return ANVIL_ECONFIG;
        }
    }
    struct anvil__http_transport transport;
    anvil__http_transport_init(&transport, NULL, &trust);
    struct anvil__http_request r = {.method = method,
                                    .url = url,
                                    .headers = headers,
                                    .header_count = header_count,
                                    .body = "",
                                    .body_len = 0,
                                    .connect_timeout_ms = timeout_ms,
                                    .timeout_ms = timeout_ms,
                                    .cancel = o->cancel,
                                    .on_body = s_body,
                                    .ctx = a};
    struct anvil__http_result res;
    int rc = anvil__http_exchange(&transport, &r, &res);
    anvil__http_transport_clean_up(&transport);
    if (rc != ANVIL_OK) {
        return rc;
    }
    a->curl = anvil__http_outcome_code(res.outcome);
    a->status = res.status;
    snprintf(a->error, sizeof a->error, "%s", res.error);
    if (res.outcome == ANVIL__HTTP_CANCELLED) {
        return ANVIL_ECANCELED;
    }
    return ANVIL_OK;
}

/* Why a request got no usable answer, for a message. */
static void s_why(const struct s_answer *a, uint64_t timeout_ms, char *out, size_t size) {
    if (a->too_long) {
        snprintf(out, size, "an answer longer than %zu bytes", S_ANSWER_MAX);
    } else if (a->curl == CURLE_OPERATION_TIMEDOUT) {
        snprintf(out, size, "no answer in %llu ms", (unsigned long long)timeout_ms);
    } else if (a->curl != CURLE_OK) {
        snprintf(out, size, "%s", a->error[0] ? a->error : "no answer");
    } else {
        char body[160];
        anvil__credentials_shown(anvil_sv(a->data, a->len), body, sizeof body);
        snprintf(out, size, "HTTP %ld%s%s", a->status, body[0] ? ": " : "", body);
    }
}

/* Credentials from a JSON answer ({AccessKeyId, SecretAccessKey, Token, Expiration, AccountId?}). */
static int s_parse(const struct s_answer *a, const char *who, const char *provider, const char *source, uint64_t now,
                   bool grace, struct anvil_credentials *out, struct anvil_diag *diag) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_allocator scrub = anvil__scrubber(NULL);
    int rc = anvil_json_parse(&scrub, a->data, a->len, NULL, &doc, NULL);
    if (rc != ANVIL_OK) {
        return rc == ANVIL_ENOMEM ? rc
                                  : anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the answer is not JSON", who);
    }
    const struct anvil_json *root = anvil_json_doc_root(doc);
    struct anvil_str_view code = anvil_json_string(anvil_json_object_get_cstr(root, "Code"));
    struct anvil_str_view key = anvil_json_string(anvil_json_object_get_cstr(root, "AccessKeyId"));
    struct anvil_str_view secret = anvil_json_string(anvil_json_object_get_cstr(root, "SecretAccessKey"));
    struct anvil_str_view token = anvil_json_string(anvil_json_object_get_cstr(root, "Token"));
    struct anvil_str_view expiration = anvil_json_string(anvil_json_object_get_cstr(root, "Expiration"));
    struct anvil_str_view account = anvil_json_string(anvil_json_object_get_cstr(root, "AccountId"));
    int64_t ms = 0;
    if (code.len && !anvil_sv_eq_cstr(code, "Success")) {
        char shown[64];
        anvil__credentials_shown(code, shown, sizeof shown);
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the answer's Code is `%s`, not Success", who, shown);
    } else if (!key.len || !secret.len) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the answer lacks AccessKeyId or SecretAccessKey", who);
    } else if (key.len >= sizeof out->access_key_id || secret.len >= sizeof out->secret_access_key ||
               token.len >= sizeof out->session_token || account.len >= sizeof out->account_id) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: a value of the answer is too long", who);
    } else if (!expiration.len || anvil__timestamp_parse_any(expiration, &ms) != ANVIL_OK || ms <= 0) {
        /* Temporary credentials always expire: an answer without a time is refused (botocore too). */
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the answer's Expiration is %s", who,
                            expiration.len ? "not an ISO-8601 time" : "missing");
    } else {
        memcpy(out->access_key_id, key.ptr, key.len);
        memcpy(out->secret_access_key, secret.ptr, secret.len);
        memcpy(out->session_token, token.ptr, token.len);
        memcpy(out->account_id, account.ptr, account.len);
        out->expires_ms = (uint64_t)ms;
        if (grace && out->expires_ms && out->expires_ms <= now) {
            /* Instance metadata answering with expired credentials is an outage: keep them a while (botocore). */
            out->expires_ms = now + S_IMDS_GRACE_MS;
        }
        snprintf(out->provider, sizeof out->provider, "%s", provider);
        snprintf(out->source, sizeof out->source, "%s", source);
    }
    /* The parsed document holds the secret: the scrubbing allocator overwrites it. */
    anvil_json_doc_destroy(doc);
    return rc;
}

/* ---- the container endpoint ---- */

/*
 * Checks AWS_CONTAINER_CREDENTIALS_FULL_URI as the transport will read it
 * (anvil__http_split_url, the one reading): http or https, no user
 * information; an http URL's host must be loopback (127.0.0.0/8 or ::1,
 * written as inet_pton reads an address: no octal, hex or short forms a
 * resolver would read differently), `localhost`,
 * or the container agents' 169.254.170.2, 169.254.170.23, fd00:ec2::23
 * (botocore's list). Writes the URL without its query to `shown`.
 */
static bool s_container_url_ok(const char *url, char *shown, size_t size) {
    snprintf(shown, size, "%.*s", (int)strcspn(url, "?#"), url);
    struct anvil__http_target t;
    if (!anvil__http_split_url(url, &t)) {
        return false;
    }
    if (t.https) {
        return true;
    }
    unsigned char addr[16];
    static const unsigned char loopback6[16] = {[15] = 1};
    static const unsigned char agent6[16] = {0xfd, 0x00, 0x0e, 0xc2, [15] = 0x23};
    if (inet_pton(AF_INET6, t.host, addr) == 1) {
        return memcmp(addr, loopback6, 16) == 0 || memcmp(addr, agent6, 16) == 0;
    }
    if (inet_pton(AF_INET, t.host, addr) == 1) {
        return addr[0] == 127 ||
               (addr[0] == 169 && addr[1] == 254 && addr[2] == 170 && (addr[3] == 2 || addr[3] == 23));
    }
    return strcasecmp(t.host, "localhost") == 0;
}

int anvil__credentials_container(const struct anvil_credentials_options *o, uint64_t now, struct anvil_credentials *out,
                                 struct anvil_diag *diag) {
    const char *relative = anvil__credentials_env(o, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    const char *full = anvil__credentials_env(o, "AWS_CONTAINER_CREDENTIALS_FULL_URI");
    if (!relative && !full) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0,
                              "container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI are not set");
    }
    char url[2048];
    /* The URL as messages show it: without a query (it may carry a signature). */
    char shown[2048];
    if (relative) {
        if (relative[0] != '/' || strlen(relative) > 1024 || strpbrk(relative, " \r\n\t#")) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI must be a path starting with /");
        }
        snprintf(url, sizeof url, "%s%s", S_CONTAINER_HOST, relative);
        snprintf(shown, sizeof shown, "%s%.*s", S_CONTAINER_HOST, (int)strcspn(relative, "?#"), relative);
    } else {
        if (strlen(full) >= sizeof url || strpbrk(full, " \r\n\t") || !s_container_url_ok(full, shown, sizeof shown)) {
            /* Shown without its query, and with user information as *** (either may hold a secret). */
            char text[160], cut[2048];
            const char *authority = strstr(full, "://");
            authority = authority ? authority + 3 : full;
            size_t end = strcspn(authority, "/?#");
            const char *at = memchr(authority, '@', end);
            snprintf(cut, sizeof cut, "%.*s%s%.*s", (int)(authority - full), full, at ? "***@" : "",
                     (int)strcspn(at ? at + 1 : authority, "?#"), at ? at + 1 : authority);
            anvil__credentials_shown(anvil_sv_from_cstr(cut), text, sizeof text);
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "container: AWS_CONTAINER_CREDENTIALS_FULL_URI `%s` must be https://, or http:// "
                                  "to a loopback address, localhost or the container agent (169.254.170.2, "
                                  "169.254.170.23, fd00:ec2::23), without user information",
                                  text);
        }
        snprintf(url, sizeof url, "%s", full);
    }
    /* The authorization: the token file's (read each time, it rotates), else the variable's. */
    char token[4096] = "";
    const char *token_file = anvil__credentials_env(o, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    const char *token_env = anvil__credentials_env(o, "AWS_CONTAINER_AUTHORIZATION_TOKEN");
    if (token_file) {
        size_t n = 0;
        int rc = anvil__read_small_file(token_file, token, sizeof token, &n);
        while (rc == ANVIL_OK && n && (token[n - 1] == '\n' || token[n - 1] == '\r')) {
            token[--n] = '\0';
        }
        if (rc != ANVIL_OK) {
            anvil__cleanse(token, sizeof token);
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "container: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE %s %s", token_file,
                                  rc == ANVIL_ELIMIT ? "is longer than 4 KiB" : "cannot be read");
        }
    } else if (token_env) {
        snprintf(token, sizeof token, "%s", token_env);
    }
    if (strpbrk(token, "\r\n") || strlen(token) > sizeof token - 32) {
        anvil__cleanse(token, sizeof token);
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "container: the authorization token holds a line break or is too long");
    }
    const struct anvil_http_header authorization = {ANVIL_SV("Authorization"), anvil_sv_from_cstr(token)};
    uint64_t timeout = o->container_timeout_ms ? o->container_timeout_ms : 2000;
    struct s_answer *a = malloc(sizeof *a);
    if (!a) {
        anvil__cleanse(token, sizeof token);
        return ANVIL_ENOMEM;
    }
    int rc = ANVIL_OK;
    /* Up to 3 attempts for an answer that did not come or a 5xx, 100 ms apart (botocore, aws-c-auth). */
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt) {
            anvil_env_sleep_ms(o->env, 100);
        }
        anvil__credentials_debug(o, "credentials: container: GET %s", shown);
        rc = s_request(o, "GET", url, &authorization, token[0] ? 1 : 0, timeout, a, diag);
        if (rc != ANVIL_OK || (a->curl == CURLE_OK && a->status < 500) || a->too_long) {
            break;
        }
    }
    anvil__cleanse(token, sizeof token);
    if (rc == ANVIL_OK && (a->curl != CURLE_OK || a->status != 200)) {
        char why[300];
        s_why(a, timeout, why, sizeof why);
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "container: %s: %s", shown, why);
    } else if (rc == ANVIL_OK) {
        char source[300];
        snprintf(source, sizeof source, "container endpoint %.200s", shown);
        rc = s_parse(a, "container", "ecs", source, now, false, out, diag);
    }
    anvil__cleanse(a, sizeof *a);
    free(a);
    return rc;
}

/* ---- instance metadata ---- */

struct s_imds {
    char base[512];
    uint64_t timeout;
    /* The IMDSv2 session token ("" = none: IMDSv1). */
    char token[256];
};

/* IMDS's endpoint and timeout, and a session token (or, when allowed, none: IMDSv1). */
static int s_imds_open(const struct anvil_credentials_options *o, struct s_imds *m, struct s_answer *a,
                       struct anvil_diag *diag) {
    const char *disabled = anvil__credentials_env(o, "AWS_EC2_METADATA_DISABLED");
    if (disabled && strcasecmp(disabled, "true") == 0) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "instance metadata: AWS_EC2_METADATA_DISABLED is true");
    }
    const char *endpoint = anvil__credentials_env(o, "AWS_EC2_METADATA_SERVICE_ENDPOINT");
    const char *mode = anvil__credentials_env(o, "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
    if (endpoint) {
        size_t n = strlen(endpoint);
        while (n && endpoint[n - 1] == '/') {
            n--;
        }
        if (n >= sizeof m->base || (strncasecmp(endpoint, "http://", 7) != 0 && strncasecmp(endpoint, "https://", 8)) ||
            strpbrk(endpoint, " \r\n\t")) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "instance metadata: AWS_EC2_METADATA_SERVICE_ENDPOINT must be an http:// or https:// "
                                  "URL");
        }
        snprintf(m->base, sizeof m->base, "%.*s", (int)n, endpoint);
    } else if (mode && strcasecmp(mode, "IPv6") == 0) {
        snprintf(m->base, sizeof m->base, "%s", S_IMDS_IPV6);
    } else if (mode && strcasecmp(mode, "IPv4") != 0) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "instance metadata: AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE must be IPv4 or IPv6");
    } else {
        snprintf(m->base, sizeof m->base, "%s", S_IMDS_DEFAULT);
    }
    m->timeout = o->imds_timeout_ms ? o->imds_timeout_ms : 1000;
    const char *seconds = anvil__credentials_env(o, "AWS_METADATA_SERVICE_TIMEOUT");
    if (!o->imds_timeout_ms && seconds) {
        char *end = NULL;
        double v = strtod(seconds, &end);
        if (*end || !(v >= 0.001 && v <= 3600)) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "instance metadata: AWS_METADATA_SERVICE_TIMEOUT must be seconds from 0.001 to 3600");
        }
        m->timeout = (uint64_t)(v * 1000);
    }
    char url[600];
    snprintf(url, sizeof url, "%s/latest/api/token", m->base);
    const struct anvil_http_header ttl = {ANVIL_SV("x-aws-ec2-metadata-token-ttl-seconds"), ANVIL_SV("21600")};
    anvil__credentials_debug(o, "credentials: instance metadata: PUT %s", url);
    int rc = s_request(o, "PUT", url, &ttl, 1, m->timeout, a, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const char *v1 = anvil__credentials_env(o, "AWS_EC2_METADATA_V1_DISABLED");
    bool v1_allowed = v1 && strcasecmp(v1, "false") == 0;
    bool timed_out = a->curl == CURLE_OPERATION_TIMEDOUT;
    if (v1_allowed && (a->status == 403 || a->status == 404 || a->status == 405 || timed_out)) {
        /* botocore's fallback: a container on EC2 with a hop limit of 1 never sees the token's answer. */
        anvil__credentials_debug(o, "credentials: instance metadata: no token (%s); IMDSv1 as allowed",
                                 timed_out ? "the request timed out" : "refused");
        m->token[0] = '\0';
        return ANVIL_OK;
    }
    if (a->curl != CURLE_OK && !a->too_long) {
        char why[200];
        s_why(a, m->timeout, why, sizeof why);
        return anvil_diag_set(diag, endpoint ? ANVIL_ECONFIG : ANVIL_ENOTFOUND, 0, 0, 0, "instance metadata: %s: %s%s",
                              m->base, why,
                              endpoint    ? ""
                              : timed_out ? " (not on EC2, or in a container the token's answer cannot reach: "
                                            "AWS_EC2_METADATA_V1_DISABLED=false allows IMDSv1)"
                                          : " (not on EC2?)");
    }
    if (a->status == 200) {
        bool usable = !a->too_long && a->len && a->len < 200;
        for (size_t i = 0; usable && i < a->len; i++) {
            usable = a->data[i] > 0x20 && a->data[i] < 0x7f;
        }
        if (!usable) {
            /* Never shown: it is the token. */
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "instance metadata: %s/latest/api/token answered a token anvil cannot send (%zu "
                                  "bytes, or not printable ASCII)",
                                  m->base, a->len);
        }
        snprintf(m->token, sizeof m->token, "%.*s", (int)a->len, a->data);
        return ANVIL_OK;
    }
    char why[300];
    s_why(a, m->timeout, why, sizeof why);
    /* Refused at the default address is "not here" (off EC2, or metadata turned off); at one given, an error. */
    return anvil_diag_set(diag, endpoint ? ANVIL_ECONFIG : ANVIL_ENOTFOUND, 0, 0, 0,
                          "instance metadata: %s/latest/api/token: %s (IMDSv2 token refused; IMDSv1 is used only "
                          "with AWS_EC2_METADATA_V1_DISABLED=false)",
                          m->base, why);
}

static int s_imds_get(const struct anvil_credentials_options *o, const struct s_imds *m, const char *path,
                      struct s_answer *a, struct anvil_diag *diag) {
    char url[1200];
    snprintf(url, sizeof url, "%s%s", m->base, path);
    const struct anvil_http_header token = {ANVIL_SV("x-aws-ec2-metadata-token"), anvil_sv_from_cstr(m->token)};
    anvil__credentials_debug(o, "credentials: instance metadata: GET %s", url);
    int rc = s_request(o, "GET", url, &token, m->token[0] ? 1 : 0, m->timeout, a, diag);
    if (rc == ANVIL_OK && (a->curl != CURLE_OK || a->status != 200 || a->too_long)) {
        char why[300];
        s_why(a, m->timeout, why, sizeof why);
        rc = anvil_diag_set(
            diag, ANVIL_ECONFIG, 0, 0, 0, "instance metadata: %s: %s%s", url, why,
            a->status == 404 && strstr(path, "security-credentials") ? " (the instance has no IAM role?)" : "");
    }
    return rc;
}

int anvil__credentials_imds(const struct anvil_credentials_options *o, uint64_t now, struct anvil_credentials *out,
                            struct anvil_diag *diag) {
    struct s_answer *a = malloc(sizeof *a);
    if (!a) {
        return ANVIL_ENOMEM;
    }
    struct s_imds m;
    memset(&m, 0, sizeof m);
    int rc = s_imds_open(o, &m, a, diag);
    rc = rc == ANVIL_OK ? s_imds_get(o, &m, "/latest/meta-data/iam/security-credentials/", a, diag) : rc;
    char role[256] = "";
    if (rc == ANVIL_OK) {
        size_t n = strcspn(a->data, "\r\n");
        bool ok = n > 0 && n < sizeof role;
        for (size_t i = 0; ok && i < n; i++) {
            char c = a->data[i];
            ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("+=,.@_-", c);
        }
        if (!ok) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "instance metadata: the role name is not an IAM name");
        } else {
            memcpy(role, a->data, n);
            role[n] = '\0';
        }
    }
    if (rc == ANVIL_OK) {
        char path[400];
        snprintf(path, sizeof path, "/latest/meta-data/iam/security-credentials/%s", role);
        rc = s_imds_get(o, &m, path, a, diag);
    }
    if (rc == ANVIL_OK) {
        char source[700];
        snprintf(source, sizeof source, "instance metadata %.400s (role %s)", m.base, role);
        rc = s_parse(a, "instance metadata", "imds", source, now, true, out, diag);
    }
    anvil__cleanse(a, sizeof *a);
    anvil__cleanse(&m, sizeof m);
    free(a);
    return rc;
}

int anvil__imds_region(const struct anvil_credentials_options *o, char *out, size_t size, struct anvil_diag *diag) {
    struct s_answer *a = malloc(sizeof *a);
    if (!a) {
        return ANVIL_ENOMEM;
    }
    struct s_imds m;
    memset(&m, 0, sizeof m);
    int rc = s_imds_open(o, &m, a, diag);
    rc = rc == ANVIL_OK ? s_imds_get(o, &m, "/latest/meta-data/placement/region", a, diag) : rc;
    if (rc == ANVIL_OK) {
        size_t n = a->len;
        bool ok = n > 0 && n < size && n < 64;
        for (size_t i = 0; ok && i < n; i++) {
            char c = a->data[i];
            ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        }
        if (!ok) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "instance metadata: the region is not a region name");
        } else {
            memcpy(out, a->data, n);
            out[n] = '\0';
        }
    }
    anvil__cleanse(&m, sizeof m);
    anvil__cleanse(a, sizeof *a); /* the token from the PUT is still in it */
    free(a);
    return rc;
}

/* Whether a DMI file of this machine starts with `prefix` (case-insensitive). */
static bool s_dmi_starts(const char *path, const char *prefix) {
    char text[64] = "";
    FILE *f = fopen(path, "re");
    if (!f) {
        return false;
    }
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return strncasecmp(text, prefix, strlen(prefix)) == 0;
}

bool anvil__on_ec2(const struct anvil_credentials_options *o) {
    const char *disabled = anvil__credentials_env(o, "AWS_EC2_METADATA_DISABLED");
    if (disabled && strcasecmp(disabled, "true") == 0) {
        return false;
    }
    if (anvil__credentials_env(o, "AWS_EC2_METADATA_SERVICE_ENDPOINT")) {
        return true;
    }
    /* Nitro instances name their vendor; Xen ones have an "ec2" UUID (as the AWS CDK and SDKs check). */
    return s_dmi_starts("/sys/devices/virtual/dmi/id/sys_vendor", "Amazon EC2") ||
           s_dmi_starts("/sys/devices/virtual/dmi/id/board_asset_tag", "i-") ||
           s_dmi_starts("/sys/hypervisor/uuid", "ec2") ||
           s_dmi_starts("/sys/devices/virtual/dmi/id/product_uuid", "ec2");
}
