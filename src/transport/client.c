/*
 * The client: its construction from a model (service, protocol, endpoint,
 * credentials, region, retry strategy, compression settings) and the
 * operations it can call. One libcurl handle, so connections are reused;
 * not thread-safe: one client per thread. client_http.c sends one request;
 * client_call.c makes one logical call; src/protocol/ writes and reads
 * what goes over the wire.
 */

#include <openssl/crypto.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "transport/client_internal.h"

static pthread_once_t s_curl_once = PTHREAD_ONCE_INIT;

static void s_curl_init(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

void anvil__client_debug(const struct anvil_client *c, const char *fmt, ...) {
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

/* `url` for messages: any user information ("user:password@") replaced by "***@". */
static void s_redacted(const char *url, char *out, size_t size) {
    const char *authority = strstr(url, "://");
    authority = authority ? authority + 3 : url;
    size_t n = strcspn(authority, "/?#");
    const char *at = memchr(authority, '@', n);
    if (!at) {
        snprintf(out, size, "%s", url);
        return;
    }
    for (const char *more; (more = memchr(at + 1, '@', n - (size_t)(at + 1 - authority))) != NULL;) {
        at = more;
    }
    snprintf(out, size, "%.*s***%s", (int)(authority - url), url, at);
}

static bool s_host_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_';
}

/*
 * Splits the endpoint into scheme://authority (what curl connects to) and
 * the path, and sets the Host header anvil sends and signs: the host, with
 * the port unless it is the scheme's default (curl would drop it, and the
 * signature would then cover a Host the service never sees). Refuses user
 * information (it would be sent and signed, and printed by --debug) and
 * anything in the host or path that cannot go into a request line or a
 * header as it is.
 */
static int s_host(struct anvil_client *c, struct anvil_diag *diag) {
    char shown[600];
    s_redacted(c->endpoint, shown, sizeof shown);
    /* Schemes are case-insensitive (RFC 3986 3.1); curl is given the lower-case one. */
    bool https = strncasecmp(c->endpoint, "https://", 8) == 0;
    if (!https && strncasecmp(c->endpoint, "http://", 7) != 0) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` is not an http:// or https:// URL",
                              shown);
    }
    memcpy(c->endpoint, https ? "https" : "http", https ? 5 : 4);
    const char *authority = c->endpoint + (https ? 8 : 7);
    size_t n = strcspn(authority, "/?#");
    if (memchr(authority, '@', n)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "the endpoint `%s` has user information; requests are signed with SigV4, so "
                              "give the endpoint without it",
                              shown);
    }
    /* The host: a name or IPv4 address, or an IPv6 literal in brackets; then an optional :port. */
    size_t host_len = 0;
    if (n > 0 && authority[0] == '[') {
        const char *close = memchr(authority, ']', n);
        host_len = close ? (size_t)(close - authority) + 1 : 0;
        for (size_t i = 1; host_len && i + 1 < host_len; i++) {
            char ch = authority[i];
            host_len = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') || ch == ':' ||
                               ch == '.'
                           ? host_len
                           : 0;
        }
    } else {
        while (host_len < n && s_host_char(authority[host_len])) {
            host_len++;
        }
    }
    unsigned long port = 0;
    bool port_ok = host_len > 0;
    if (port_ok && host_len < n) {
        port_ok = authority[host_len] == ':' && host_len + 1 < n && n - host_len - 1 <= 5;
        for (size_t i = host_len + 1; port_ok && i < n; i++) {
            port_ok = authority[i] >= '0' && authority[i] <= '9';
            port = port * 10 + (unsigned long)(authority[i] - '0');
        }
        port_ok = port_ok && port >= 1 && port <= 65535;
    }
    if (!port_ok || n >= sizeof c->host) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` has no valid host[:port]", shown);
    }
    bool default_port = port == 0 || port == (https ? 443u : 80u);
    memcpy(c->host, authority, default_port ? host_len : n);
    c->host[default_port ? host_len : n] = '\0';
    /*
     * A host prefix (`@endpoint(hostPrefix)`) names a host under the
     * endpoint's: there is none under an IP address or localhost (a local
     * emulator), so requests to those go to the endpoint as given.
     */
    bool ip = authority[0] == '[' || strspn(authority, "0123456789.") == host_len;
    c->host_prefix_allowed = !ip && !(host_len == 9 && strncasecmp(authority, "localhost", 9) == 0);
    const char *rest = authority + n;
    if (strpbrk(rest, "?#")) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` has a query or a fragment", shown);
    }
    bool path_ok = strlen(rest) < sizeof c->path;
    for (const char *p = rest; path_ok && *p; p++) {
        path_ok = (unsigned char)*p > 0x20 && (unsigned char)*p < 0x7f;
    }
    if (!path_ok) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "the endpoint `%s` has a path anvil cannot send (spaces, controls or bytes over "
                              "0x7e must be percent-encoded)",
                              shown);
    }
    /* The path is sent as given, dot segments included ("http://h:1/" and "http://h:1" both post to "/"). */
    snprintf(c->path, sizeof c->path, "%s", *rest ? rest : "/");
    c->endpoint[rest - c->endpoint] = '\0';
    return ANVIL_OK;
}

static const char *s_getenv(const struct anvil_client_options *o, const char *name) {
    return o->getenv ? o->getenv(o->getenv_ctx, name) : getenv(name);
}

/*
 * The endpoint AWS tools take from the environment: AWS_ENDPOINT_URL_<SDK ID>
 * (the sdkId upper-cased, spaces and dashes as '_'), then AWS_ENDPOINT_URL;
 * none when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true.
 */
static const char *s_env_endpoint(const struct anvil_client_options *o, struct anvil_str_view sdk_id) {
    const char *ignore = s_getenv(o, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    if (ignore && (strcmp(ignore, "true") == 0 || strcmp(ignore, "TRUE") == 0)) {
        return NULL;
    }
    char name[160] = "AWS_ENDPOINT_URL_";
    size_t n = strlen(name);
    for (size_t i = 0; i < sdk_id.len && n + 1 < sizeof name; i++) {
        char ch = sdk_id.ptr[i];
        name[n++] = ch == ' ' || ch == '-' ? '_' : ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch;
    }
    name[n] = '\0';
    const char *url = sdk_id.len ? s_getenv(o, name) : NULL;
    url = url && *url ? url : s_getenv(o, "AWS_ENDPOINT_URL");
    return url && *url ? url : NULL;
}

/* Credentials and region as AWS tools find them; every problem is the machine's configuration (ANVIL_ECONFIG). */
static int s_credentials_and_region(struct anvil_client *c, struct anvil_diag *diag) {
    const struct anvil_client_options *o = &c->options;
    struct anvil_aws_config *aws = &c->aws;
    int rc = anvil_aws_config_resolve(o->profile, o->region, o->getenv, o->getenv_ctx, aws, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (aws->profile_named && !aws->profile_found && strcmp(aws->source, "environment") != 0) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "the profile `%s` is in neither %s nor %s", aws->profile,
                              aws->credentials_path, aws->config_path);
    }
    if (!aws->region[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "no region: give --region, or set AWS_REGION, or give the profile `%s` a region in %s",
                              aws->profile, aws->config_path);
    }
    if (aws->region[strspn(aws->region, "abcdefghijklmnopqrstuvwxyz0123456789-")] != '\0') {
        /* It goes into the host name and the signing scope. */
        return anvil_diag_set(diag, o->region && *o->region ? ANVIL_EINVAL : ANVIL_ECONFIG, 0, 0, 0,
                              "the region `%s` is not a region name (lower-case letters, digits and '-', like "
                              "us-east-1)",
                              aws->region);
    }
    if (!aws->access_key_id[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the profile "
                              "`%s` keys in %s",
                              aws->profile, aws->credentials_path);
    }
    return ANVIL_OK;
}

/*
 * The endpoint: the caller's, else the environment's, else the service's
 * regional one. A bad endpoint the caller gave is ANVIL_EINVAL; one from the
 * environment, or none at all, is the configuration's (ANVIL_ECONFIG).
 */
static int s_endpoint(struct anvil_client *c, const struct anvil_shape *svc, struct anvil_diag *diag) {
    const struct anvil_client_options *o = &c->options;
    struct anvil_aws_service aws;
    anvil_service_aws(svc, &aws);
    struct anvil_str_view signing = anvil_service_sigv4_name(svc);
    if (!signing.len) {
        signing = aws.endpoint_prefix;
    }
    snprintf(c->signing_name, sizeof c->signing_name, "%.*s", (int)signing.len, signing.ptr);
    /* S3 (and S3 on Outposts, S3 Express) signs the path as sent and the payload's hash in a header. */
    c->s3_signing = anvil_sv_eq_cstr(signing, "s3") || anvil_sv_eq_cstr(signing, "s3-outposts") ||
                    anvil_sv_eq_cstr(signing, "s3express");
    bool given = o->endpoint_url && *o->endpoint_url;
    const char *configured = given ? o->endpoint_url : s_env_endpoint(o, aws.sdk_id);
    int rc = ANVIL_OK;
    if (configured && strlen(configured) >= sizeof c->endpoint) {
        rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint is longer than %zu bytes",
                            sizeof c->endpoint - 1);
    } else if (configured) {
        snprintf(c->endpoint, sizeof c->endpoint, "%s", configured);
        rc = s_host(c, diag);
    } else if (aws.endpoint_prefix.len) {
        /* The aws-cn partition's regions live under amazonaws.com.cn. */
        bool china = strncmp(c->aws.region, "cn-", 3) == 0;
        snprintf(c->endpoint, sizeof c->endpoint, "https://%.*s.%s.amazonaws.com%s", (int)aws.endpoint_prefix.len,
                 aws.endpoint_prefix.ptr, c->aws.region, china ? ".cn" : "");
        rc = s_host(c, diag);
    } else {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "no endpoint: the service has no endpointPrefix; give --endpoint-url");
    }
    if (rc == ANVIL_EINVAL && !given) {
        rc = ANVIL_ECONFIG;
        if (diag) {
            diag->code = rc;
        }
    }
    return rc;
}

/* The CA bundle (the caller's, else AWS_CA_BUNDLE or the profile's) must be a file anvil can read. */
static int s_ca_bundle(struct anvil_client *c, struct anvil_diag *diag) {
    const char *given = c->options.ca_bundle;
    const char *path = given && *given ? given : c->aws.ca_bundle;
    if (!path[0]) {
        return ANVIL_OK;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, R_OK) != 0) {
        return anvil_diag_set(diag, given && *given ? ANVIL_EINVAL : ANVIL_ECONFIG, 0, 0, 0,
                              "the CA bundle `%s` is not a file anvil can read", path);
    }
    snprintf(c->ca_bundle, sizeof c->ca_bundle, "%s", path);
    return ANVIL_OK;
}

void anvil__client_endpoint(const struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                            struct anvil__endpoint *out) {
    (void)op;
    (void)input;
    *out = (struct anvil__endpoint){
        c->endpoint, c->path, c->host, c->signing_name, c->aws.region, c->s3_signing, c->host_prefix_allowed};
}

const char *anvil_client_protocol(const struct anvil_shape *service) {
    const struct anvil__protocol *p = service ? anvil__protocol_of(service) : NULL;
    return p ? p->name : NULL;
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
    const struct anvil__protocol *protocol = anvil__protocol_of(svc);
    if (!protocol) {
        struct anvil_str_view id = anvil_shape_id(svc);
        char names[160];
        anvil__protocol_names(names, sizeof names);
        return anvil_diag_set(diag, ANVIL_EUNSUPPORTED, 0, 0, 0, "`%.*s` speaks no protocol anvil supports (%s)",
                              (int)id.len, id.ptr, names);
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
    int rc = s_credentials_and_region(c, diag);
    if (rc == ANVIL_OK) {
        rc = s_endpoint(c, svc, diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_ca_bundle(c, diag);
    }
    if (rc == ANVIL_OK &&
        anvil_compression_settings_from_env(&c->compression, o.getenv, o.getenv_ctx, diag) == ANVIL_EINVAL) {
        rc = ANVIL_ECONFIG; /* a setting in the environment */
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
    anvil__client_debug(c, "endpoint %s%s (region %s, signing name %s, credentials from %s)", c->endpoint, c->path,
                        c->aws.region, c->signing_name, c->aws.source);
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
    OPENSSL_cleanse(&c->aws, sizeof c->aws);
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
