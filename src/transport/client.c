/*
 * The client: its construction from a model (service, protocol, endpoint,
 * credentials, region, retry strategy, compression settings) and the
 * operations it can call. One libcurl handle, so connections are reused;
 * not thread-safe: one client per thread. client_http.c sends one request;
 * client_call.c makes one logical call; src/protocol/ writes and reads
 * what goes over the wire.
 */

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anvil/version.h"
#include "core/crypto.h"
#include "transport/client_internal.h"
#include "transport/credentials_internal.h"

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
    /* What the credential sources (and instance metadata, for the region) read: the client's own settings. */
    struct anvil_credentials_options co = {
        .profile = o->profile,
        .getenv = o->getenv,
        .getenv_ctx = o->getenv_ctx,
        .env = o->env,
        /* The client's (the caller's, AWS_CA_BUNDLE or the profile's) for the HTTPS sources too. */
        .ca_bundle = o->ca_bundle && *o->ca_bundle ? o->ca_bundle : aws->ca_bundle,
        .cancel = o->cancel,
        .debug = o->debug,
        .debug_ctx = o->debug_ctx,
    };
    if (!aws->region[0] && anvil__on_ec2(&co)) {
        /* On an EC2 instance, its own region (as the Rust and Java SDKs do). */
        anvil__imds_region(&co, aws->region, sizeof aws->region, NULL);
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
    if (o->no_sign) {
        return ANVIL_OK;
    }
    if (o->credentials) {
        anvil_credentials_provider_retain(o->credentials);
        c->credentials = o->credentials;
    } else {
        co.region = aws->region;
        int made = anvil_credentials_provider_default(c->allocator, &co, &c->credentials);
        if (made != ANVIL_OK) {
            return made;
        }
    }
    /* The first credentials now: a configuration that gives none fails here, before any call. */
    return anvil__client_credentials(c, diag);
}

int anvil__client_credentials(struct anvil_client *c, struct anvil_diag *diag) {
    if (!c->credentials) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "the client sends requests unsigned");
    }
    struct anvil_credentials creds;
    uint64_t now = anvil_env_wall_ms(c->options.env);
    int rc = anvil_credentials_get(c->credentials, now, &creds, diag);
    if (rc == ANVIL_OK) {
        struct anvil_aws_config *aws = &c->aws;
        /* The fields fit: struct anvil_credentials's are no larger. */
        memcpy(aws->access_key_id, creds.access_key_id, sizeof aws->access_key_id);
        memcpy(aws->secret_access_key, creds.secret_access_key, sizeof aws->secret_access_key);
        memcpy(aws->session_token, creds.session_token, sizeof aws->session_token);
        snprintf(aws->source, sizeof aws->source, "%.95s", creds.source[0] ? creds.source : creds.provider);
        /* The account id is the one that came with these keys (or none). */
        snprintf(aws->account_id, sizeof aws->account_id, "%s", creds.account_id);
    } else if (rc != ANVIL_ENOMEM && rc != ANVIL_ECANCELED) {
        /* A source that failed or hung (a credential_process past its time) is the setup's to mend. */
        rc = ANVIL_ECONFIG;
        if (diag) {
            diag->code = rc;
        }
    }
    anvil_credentials_clear(&creds);
    return rc;
}

/* The CA bundle (the caller's, else AWS_CA_BUNDLE or the profile's; "" = none) into *path: a file anvil can read. */
static int s_ca_bundle(struct anvil_client *c, const char **path, struct anvil_diag *diag) {
    const char *given = c->options.ca_bundle;
    *path = given && *given ? given : c->aws.ca_bundle;
    if (!(*path)[0]) {
        return ANVIL_OK;
    }
    struct stat st;
    if (stat(*path, &st) != 0 || !S_ISREG(st.st_mode) || access(*path, R_OK) != 0) {
        return anvil_diag_set(diag, given && *given ? ANVIL_EINVAL : ANVIL_ECONFIG, 0, 0, 0,
                              "the CA bundle `%s` is not a file anvil can read", *path);
    }
    return ANVIL_OK;
}

const char *anvil_client_protocol(const struct anvil_shape *service) {
    const struct anvil__protocol *p = service ? anvil__protocol_of(service) : NULL;
    return p ? p->name : NULL;
}

/*
 * "anvil/VERSION os/OS lang/c", then " app/ID" when the caller or
 * AWS_SDK_UA_APP_ID names the application: the token's bytes as RFC 9110
 * allows them in a User-Agent token (others become '-'), at most 50.
 */
static void s_user_agent(struct anvil_client *c) {
#if defined(__linux__)
    const char *os = "linux";
#elif defined(__APPLE__)
    const char *os = "macos";
#elif defined(__FreeBSD__)
    const char *os = "freebsd";
#else
    const char *os = "other";
#endif
    const char *app = c->options.app_id;
    if (!app) {
        app = c->options.getenv ? c->options.getenv(c->options.getenv_ctx, "AWS_SDK_UA_APP_ID")
                                : getenv("AWS_SDK_UA_APP_ID");
    }
    int n = snprintf(c->user_agent, sizeof c->user_agent, "anvil/%s os/%s lang/c", anvil_version_string(), os);
    if (!app || !*app || n < 0 || (size_t)n + 5 >= sizeof c->user_agent) {
        return;
    }
    size_t at = (size_t)n;
    memcpy(c->user_agent + at, " app/", 5);
    at += 5;
    for (size_t i = 0; app[i] && i < 50 && at + 1 < sizeof c->user_agent; i++) {
        char ch = app[i];
        bool token = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                     (ch && strchr("!#$%&'*+-.^_`|~", ch));
        c->user_agent[at++] = token ? ch : '-';
    }
    c->user_agent[at] = '\0';
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
    c->http.fd = -1; /* no connection yet, whatever fails before the transport is set up */
    c->allocator = allocator;
    c->model = model;
    c->service = svc;
    c->protocol = protocol;
    c->options = o;
    int rc = s_credentials_and_region(c, diag);
    if (rc == ANVIL_OK) {
        rc = anvil__client_endpoint_init(c, diag);
    }
    const char *ca_bundle = "";
    if (rc == ANVIL_OK) {
        rc = s_ca_bundle(c, &ca_bundle, diag);
    }
    if (rc == ANVIL_OK) {
        s_user_agent(c);
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
        /* libcrypto is mapped now, on the first client, not at start-up; libcurl only if an exchange needs it. */
        rc = anvil__crypto_load(diag);
        rc = rc == ANVIL_OK ? anvil__tls_trust_resolve_system(ca_bundle, o.getenv, o.getenv_ctx, &c->trust, diag) : rc;
        anvil__http_transport_init(&c->http, allocator, &c->trust);
    }
    if (rc != ANVIL_OK) {
        anvil_client_destroy(c);
        return rc;
    }
    anvil__client_endpoint_describe(c);
    *out = c;
    return ANVIL_OK;
}

int anvil__client_curl(struct anvil_client *c, struct anvil_diag *diag) {
    if (c->curl) {
        return ANVIL_OK;
    }
    int rc = anvil__curl_load(diag);
    c->curl = rc == ANVIL_OK ? curl_easy_init() : NULL;
    return rc != ANVIL_OK ? rc : c->curl ? ANVIL_OK : ANVIL_ENOMEM;
}

void anvil_client_destroy(struct anvil_client *c) {
    if (!c) {
        return;
    }
    if (c->curl) {
        curl_easy_cleanup(c->curl);
    }
    anvil__http_transport_clean_up(&c->http);
    anvil_retry_strategy_release(c->retry);
    anvil_waiter_set_destroy(c->waiters);
    anvil_paginator_set_destroy(c->paginators);
    anvil__client_endpoint_clean_up(c);
    anvil_credentials_provider_release(c->credentials);
    /* The secret does not outlive the client in freed memory. */
    anvil__cleanse(&c->aws, sizeof c->aws);
    anvil_mem_release(c->allocator, c);
}

struct s_find {
    struct anvil_str_view name;
    const struct anvil_shape *found;
};

static bool s_visit(const struct anvil_shape *op, void *user_data) {
    struct s_find *f = user_data;
    if (anvil_sv_eq(anvil_shape_name(op), f->name) || anvil_sv_eq(anvil_shape_id(op), f->name)) {
        f->found = op;
        return false;
    }
    return true;
}

const struct anvil_shape *anvil_client_service(const struct anvil_client *c) {
    return c ? c->service : NULL;
}

int anvil__client_find_operation(const struct anvil_client *c, struct anvil_str_view name,
                                 const struct anvil_shape **out) {
    struct s_find f = {name, NULL};
    int rc = ANVIL_OK;
    if (c && (name.ptr || name.len == 0)) {
        rc = anvil_service_operations(c->model, c->service, s_visit, &f, NULL);
    }
    *out = f.found;
    return f.found ? ANVIL_OK : rc;
}

const struct anvil_shape *anvil_client_operation_sv(const struct anvil_client *c, struct anvil_str_view name) {
    const struct anvil_shape *found = NULL;
    anvil__client_find_operation(c, name, &found);
    return found;
}

const struct anvil_shape *anvil_client_operation(const struct anvil_client *c, const char *name) {
    return name ? anvil_client_operation_sv(c, anvil_sv_from_cstr(name)) : NULL;
}

/* ---- one HTTP exchange ---- */
