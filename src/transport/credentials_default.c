/*
 * The default credential chain, in botocore's order: the environment's
 * keys, a profile's role (source_profile or credential_source), web
 * identity, SSO, the credentials file's keys, credential_process, the
 * config file's keys, the container endpoint, instance metadata. Each is
 * a provider of its own; a chain (credentials.c) keeps the first that
 * answers.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anvil/arena.h"
#include "anvil/json.h"
#include "core/core_internal.h"
#include "core/crypto.h"
#include "protocol/protocol_internal.h"
#include "transport/credentials_internal.h"

/* How deep source_profile may chain. */
#define S_MAX_HOPS 16
/* The largest web identity token (STS takes up to 20,000 characters). */
#define S_TOKEN_MAX 20000

/* What every provider of one default chain shares (the options, their strings copied). */
struct s_shared {
    struct anvil_allocator *allocator;
    atomic_uint refs;
    struct anvil_credentials_options o;
    char profile[128];
    /* The profile was named (options or AWS_PROFILE): one no file defines is an error. */
    bool profile_named;
    /* Named in the options: the environment's keys are passed over. */
    bool profile_given;
    char region[64];
    char ca_bundle[1024];
};

enum s_kind {
    S_ENVIRONMENT,
    S_ASSUME_ROLE,
    S_WEB_IDENTITY,
    S_SSO,
    S_CREDENTIALS_FILE,
    S_PROCESS,
    S_CONFIG_FILE,
    S_CONTAINER,
    S_IMDS,
    S_KINDS
};

static const char *const s_names[S_KINDS] = {"environment", "assume-role", "web-identity", "sso", "profile",
                                             "process",     "profile",     "ecs",          "imds"};

struct s_member {
    struct s_shared *shared;
    enum s_kind kind;
};

const char *anvil__credentials_env(const struct anvil_credentials_options *o, const char *name) {
    const char *v = o->getenv ? o->getenv(o->getenv_ctx, name) : getenv(name);
    return v && *v ? v : NULL;
}

void anvil__credentials_debug(const struct anvil_credentials_options *o, const char *fmt, ...) {
    if (!o->debug) {
        return;
    }
    char line[ANVIL_DIAG_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->debug(o->debug_ctx, line);
}

/* Copies `src` into a field of `size` bytes; ANVIL_ECONFIG naming `what` when it does not fit. */
static int s_put(char *dst, size_t size, struct anvil_str_view src, const char *who, const char *what,
                 struct anvil_diag *diag) {
    if (src.len >= size) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s is longer than %zu bytes", who, what, size - 1);
    }
    memcpy(dst, src.ptr, src.len);
    dst[src.len] = '\0';
    return ANVIL_OK;
}

/* Text from a service or a file shown in a message: printable ASCII kept, anything else as '?'. */
void anvil__credentials_shown(struct anvil_str_view in, char *out, size_t size) {
    size_t n = 0;
    for (size_t i = 0; i < in.len && n + 4 < size; i++) {
        unsigned char c = (unsigned char)in.ptr[i];
        out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (n + 4 >= size && n < in.len) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
}

/* ---- environment ---- */

static int s_environment(const struct s_shared *s, bool forced, struct anvil_credentials *out,
                         struct anvil_diag *diag) {
    if (s->profile_given && !forced) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "environment: passed over for the profile given");
    }
    const char *key = anvil__credentials_env(&s->o, "AWS_ACCESS_KEY_ID");
    const char *secret = anvil__credentials_env(&s->o, "AWS_SECRET_ACCESS_KEY");
    if (!key && !secret) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "environment: AWS_ACCESS_KEY_ID is not set");
    }
    if (!key || !secret) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "environment: %s is set but %s is not",
                              key ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                              key ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
    }
    const char *token = anvil__credentials_env(&s->o, "AWS_SESSION_TOKEN");
    const char *account = anvil__credentials_env(&s->o, "AWS_ACCOUNT_ID");
    const char *expiration = anvil__credentials_env(&s->o, "AWS_CREDENTIAL_EXPIRATION");
    int rc = s_put(out->access_key_id, sizeof out->access_key_id, anvil_sv_from_cstr(key), "environment",
                   "AWS_ACCESS_KEY_ID", diag);
    rc = rc == ANVIL_OK ? s_put(out->secret_access_key, sizeof out->secret_access_key, anvil_sv_from_cstr(secret),
                                "environment", "AWS_SECRET_ACCESS_KEY", diag)
                        : rc;
    rc = rc == ANVIL_OK && token ? s_put(out->session_token, sizeof out->session_token, anvil_sv_from_cstr(token),
                                         "environment", "AWS_SESSION_TOKEN", diag)
                                 : rc;
    rc = rc == ANVIL_OK && account ? s_put(out->account_id, sizeof out->account_id, anvil_sv_from_cstr(account),
                                           "environment", "AWS_ACCOUNT_ID", diag)
                                   : rc;
    if (rc == ANVIL_OK && expiration) {
        int64_t ms = 0;
        if (anvil__timestamp_parse_any(anvil_sv_from_cstr(expiration), &ms) != ANVIL_OK || ms <= 0) {
            char shown[64];
            anvil__credentials_shown(anvil_sv_from_cstr(expiration), shown, sizeof shown);
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "environment: AWS_CREDENTIAL_EXPIRATION `%s` is not an ISO-8601 time", shown);
        }
        out->expires_ms = (uint64_t)ms;
    }
    snprintf(out->provider, sizeof out->provider, "environment");
    snprintf(out->source, sizeof out->source, "environment");
    return rc;
}

/* ---- a profile's keys ---- */

/* The keys of `p` in one file (0 the credentials file, 1 the config file); ANVIL_ENOTFOUND without any. */
static int s_profile_keys(const struct anvil__profile *p, int file, struct anvil_credentials *out,
                          struct anvil_diag *diag) {
    const char *path = file == 0 ? p->credentials_path : p->config_path;
    const char *key = p->values[file][ANVIL__PK_ACCESS_KEY_ID];
    const char *secret = p->values[file][ANVIL__PK_SECRET_ACCESS_KEY];
    if (!key[0] && !secret[0]) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "profile `%s`: no keys in %s", p->name, path);
    }
    if (!key[0] || !secret[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "profile `%s` in %s: %s without %s", p->name, path,
                              key[0] ? "aws_access_key_id" : "aws_secret_access_key",
                              key[0] ? "aws_secret_access_key" : "aws_access_key_id");
    }
    snprintf(out->access_key_id, sizeof out->access_key_id, "%s", key);
    snprintf(out->secret_access_key, sizeof out->secret_access_key, "%s", secret);
    snprintf(out->session_token, sizeof out->session_token, "%s", p->values[file][ANVIL__PK_SESSION_TOKEN]);
    snprintf(out->account_id, sizeof out->account_id, "%s", p->values[file][ANVIL__PK_ACCOUNT_ID]);
    snprintf(out->provider, sizeof out->provider, "profile");
    snprintf(out->source, sizeof out->source, "profile `%.100s` (%.140s)", p->name, path);
    return ANVIL_OK;
}

static int s_load(const struct s_shared *s, const char *name, struct anvil__profile *p, struct anvil_diag *diag) {
    return anvil__profile_load(s->allocator, s->o.getenv, s->o.getenv_ctx, name, p, diag);
}

/* ---- STS ---- */

static int s_add(struct anvil_json_builder *b, const char *key, const char *value) {
    int rc = anvil_json_builder_key(b, key, strlen(key));
    return rc == ANVIL_OK ? anvil_json_builder_string(b, value, strlen(value)) : rc;
}

/* The account of an ARN (arn:PARTITION:SERVICE:REGION:ACCOUNT:...), "" when it has none. */
static void s_arn_account(struct anvil_str_view arn, char *out, size_t size) {
    out[0] = '\0';
    size_t field = 0, start = 0;
    for (size_t i = 0; i <= arn.len; i++) {
        if (i == arn.len || arn.ptr[i] == ':') {
            if (field == 4 && i - start == 12 && i - start < size) {
                memcpy(out, arn.ptr + start, i - start);
                out[i - start] = '\0';
            }
            field++;
            start = i + 1;
        }
    }
    for (size_t i = 0; out[i]; i++) {
        if (out[i] < '0' || out[i] > '9') {
            out[0] = '\0';
            return;
        }
    }
}

/*
 * STS `operation` (AssumeRole signed with `signer`, AssumeRoleWithWebIdentity
 * unsigned) for `who`: the role's credentials, their expiry, the account
 * from the assumed role's ARN.
 */
static int s_sts(const struct s_shared *s, const char *region, const char *operation,
                 const struct anvil_credentials *signer, const char *const *pairs, size_t pair_count, long duration,
                 const char *who, const char *provider, struct anvil_credentials *out, struct anvil_diag *diag) {
    struct anvil_arena *arena = NULL;
    /* The arena gets the answer's secrets (and the web identity token): overwritten when released. */
    struct anvil_allocator scrub = anvil__scrubber(s->allocator);
    int rc = anvil_arena_new(&scrub, NULL, &arena);
    struct anvil_json_builder *b = NULL;
    rc = rc == ANVIL_OK ? anvil_json_builder_new(&scrub, arena, &b) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_begin_object(b) : rc;
    for (size_t i = 0; i + 1 < pair_count && rc == ANVIL_OK; i += 2) {
        if (pairs[i + 1] && pairs[i + 1][0]) {
            rc = s_add(b, pairs[i], pairs[i + 1]);
        }
    }
    if (rc == ANVIL_OK && duration) {
        rc = anvil_json_builder_key(b, "DurationSeconds", 15);
        rc = rc == ANVIL_OK ? anvil_json_builder_int(b, duration) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
    struct anvil_json input;
    rc = rc == ANVIL_OK ? anvil_json_builder_finish(b, &input) : rc;
    anvil_json_builder_destroy(b);
    struct anvil_operation_reply reply;
    memset(&reply, 0, sizeof reply);
    const char *role = pairs[1];
    if (rc == ANVIL_OK) {
        anvil__credentials_debug(&s->o, "credentials: %s: STS %s of %s in %s", who, operation, role, region);
        rc = anvil__auth_call("sts", region, signer, &s->o, operation, &input, arena, &reply, diag);
    }
    if (rc == ANVIL_ESERVICE) {
        char code[64], message[300];
        anvil__credentials_shown(reply.error.code, code, sizeof code);
        if (!code[0]) {
            snprintf(code, sizeof code, "HTTP %d", reply.http_status);
        }
        anvil__credentials_shown(reply.error.message, message, sizeof message);
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: STS %s of %s failed: %s%s%s", who, operation, role, code,
                            message[0] ? ": " : "", message);
    } else if (rc != ANVIL_OK && rc != ANVIL_ENOMEM) {
        char was[ANVIL_DIAG_MESSAGE_MAX];
        snprintf(was, sizeof was, "%s", diag ? diag->message : "");
        rc = anvil_diag_set(diag, rc == ANVIL_ECANCELED ? rc : ANVIL_ECONFIG, 0, 0, 0, "%s: STS %s of %s: %s", who,
                            operation, role, was[0] ? was : anvil_status_str(rc));
    }
    if (rc == ANVIL_OK) {
        const struct anvil_json *c = anvil_json_object_get_cstr(&reply.output, "Credentials");
        struct anvil_str_view key = anvil_json_string(anvil_json_object_get_cstr(c, "AccessKeyId"));
        struct anvil_str_view secret = anvil_json_string(anvil_json_object_get_cstr(c, "SecretAccessKey"));
        struct anvil_str_view token = anvil_json_string(anvil_json_object_get_cstr(c, "SessionToken"));
        int64_t expires = 0;
        const struct anvil_json *e = anvil_json_object_get_cstr(c, "Expiration");
        if (!key.len || !secret.len || !token.len || !e || anvil__timestamp_from_json(e, &expires) != ANVIL_OK ||
            expires <= 0) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "%s: STS %s answered without whole credentials (AccessKeyId, SecretAccessKey, "
                                "SessionToken, Expiration)",
                                who, operation);
        }
        rc = rc == ANVIL_OK ? s_put(out->access_key_id, sizeof out->access_key_id, key, who, "AccessKeyId", diag) : rc;
        rc = rc == ANVIL_OK
                 ? s_put(out->secret_access_key, sizeof out->secret_access_key, secret, who, "SecretAccessKey", diag)
                 : rc;
        rc = rc == ANVIL_OK ? s_put(out->session_token, sizeof out->session_token, token, who, "SessionToken", diag)
                            : rc;
        out->expires_ms = (uint64_t)expires;
        const struct anvil_json *user = anvil_json_object_get_cstr(&reply.output, "AssumedRoleUser");
        s_arn_account(anvil_json_string(anvil_json_object_get_cstr(user, "Arn")), out->account_id,
                      sizeof out->account_id);
        snprintf(out->provider, sizeof out->provider, "%s", provider);
        snprintf(out->source, sizeof out->source, "%.120s: %.130s", who, role);
    }
    anvil_arena_destroy(arena);
    return rc;
}

/* The STS region: the options', the environment's, the profile's, else us-east-1. */
static const char *s_sts_region(const struct s_shared *s, const struct anvil__profile *p) {
    if (s->region[0]) {
        return s->region;
    }
    const char *r = p ? anvil__profile_get(p, ANVIL__PK_REGION) : "";
    return r[0] ? r : "us-east-1";
}

static void s_session_name(const struct anvil__profile *p, const char *env_name, uint64_t now, char *out, size_t size) {
    const char *given = p ? anvil__profile_get(p, ANVIL__PK_ROLE_SESSION_NAME) : "";
    given = given[0] ? given : env_name ? env_name : "";
    if (given[0]) {
        snprintf(out, size, "%s", given);
    } else {
        snprintf(out, size, "anvil-session-%llu", (unsigned long long)(now / 1000));
    }
}

/* ---- web identity ---- */

static int s_read_token(const char *path, const char *who, char **out, size_t *len, struct anvil_diag *diag) {
    char *buf = malloc(S_TOKEN_MAX + 2);
    if (!buf) {
        return ANVIL_ENOMEM;
    }
    size_t n = 0;
    int rc = anvil__read_small_file(path, buf, S_TOKEN_MAX + 2, &n);
    /* What fits is judged: one byte past the limit is enough to say it is too long. */
    rc = rc == ANVIL_ELIMIT ? ANVIL_OK : rc;
    while (rc == ANVIL_OK && n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ')) {
        buf[--n] = '\0';
    }
    if (rc == ANVIL_EIO) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: cannot read the web identity token file %s: %s", who,
                            path, strerror(errno));
    } else if (rc == ANVIL_EINVAL) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the web identity token file %s is not a regular file",
                            who, path);
    } else if (n == 0 || n > S_TOKEN_MAX || strlen(buf) != n) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the web identity token file %s is %s", who, path,
                            n == 0            ? "empty"
                            : n > S_TOKEN_MAX ? "longer than 20,000 bytes"
                                              : "not text");
    }
    if (rc != ANVIL_OK) {
        anvil__cleanse(buf, S_TOKEN_MAX + 2);
        free(buf);
        return rc;
    }
    *out = buf;
    *len = n;
    return ANVIL_OK;
}

static int s_web_identity_with(const struct s_shared *s, const char *token_file, const char *role_arn,
                               const char *session_env, const struct anvil__profile *p, const char *who, uint64_t now,
                               struct anvil_credentials *out, struct anvil_diag *diag) {
    char *token = NULL;
    size_t len = 0;
    int rc = s_read_token(token_file, who, &token, &len, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    char session[128];
    s_session_name(p, session_env, now, session, sizeof session);
    const char *pairs[] = {"RoleArn", role_arn, "RoleSessionName", session, "WebIdentityToken", token};
    rc = s_sts(s, s_sts_region(s, p), "AssumeRoleWithWebIdentity", NULL, pairs, 6, 0, who, "web-identity", out, diag);
    anvil__cleanse(token, len);
    free(token);
    return rc;
}

/*
 * Web identity as botocore configures it: the token file from
 * AWS_WEB_IDENTITY_TOKEN_FILE (unless `profile_only`, for a source
 * profile), else the profile's web_identity_token_file; the role likewise
 * from AWS_ROLE_ARN or role_arn. Only a token file configures it.
 */
static int s_web_identity(const struct s_shared *s, const struct anvil__profile *p, bool profile_only, uint64_t now,
                          struct anvil_credentials *out, struct anvil_diag *diag) {
    const char *file = profile_only ? NULL : anvil__credentials_env(&s->o, "AWS_WEB_IDENTITY_TOKEN_FILE");
    bool from_env = file != NULL;
    file = file ? file : anvil__profile_get(p, ANVIL__PK_WEB_IDENTITY_TOKEN_FILE);
    if (!file[0]) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "web identity: AWS_WEB_IDENTITY_TOKEN_FILE is not set");
    }
    const char *role = profile_only ? NULL : anvil__credentials_env(&s->o, "AWS_ROLE_ARN");
    role = role ? role : anvil__profile_get(p, ANVIL__PK_ROLE_ARN);
    char who[200];
    if (from_env) {
        snprintf(who, sizeof who, "web identity");
    } else {
        snprintf(who, sizeof who, "profile `%.100s`", p->name);
    }
    if (!role[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s without %s", who,
                              from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file",
                              from_env ? "AWS_ROLE_ARN (or the profile's role_arn)" : "role_arn");
    }
    return s_web_identity_with(s, file, role,
                               profile_only ? NULL : anvil__credentials_env(&s->o, "AWS_ROLE_SESSION_NAME"), p, who,
                               now, out, diag);
}

/* ---- roles ---- */

static int s_container_or_imds(const struct s_shared *s, enum s_kind kind, uint64_t now, struct anvil_credentials *out,
                               struct anvil_diag *diag) {
    return kind == S_CONTAINER ? anvil__credentials_container(&s->o, now, out, diag)
                               : anvil__credentials_imds(&s->o, now, out, diag);
}

/* botocore's "assume role config": role_arn without web_identity_token_file (which makes it web identity). */
static bool s_has_role(const struct anvil__profile *p) {
    return anvil__profile_get(p, ANVIL__PK_ROLE_ARN)[0] && !anvil__profile_get(p, ANVIL__PK_WEB_IDENTITY_TOKEN_FILE)[0];
}

static bool s_has_keys(const struct anvil__profile *p) {
    return p->values[0][ANVIL__PK_ACCESS_KEY_ID][0] || p->values[1][ANVIL__PK_ACCESS_KEY_ID][0];
}

static int s_process(const struct s_shared *s, const struct anvil__profile *p, struct anvil_credentials *out,
                     struct anvil_diag *diag) {
    const char *command = anvil__profile_get(p, ANVIL__PK_CREDENTIAL_PROCESS);
    if (!command[0]) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "profile `%s`: no credential_process", p->name);
    }
    anvil__credentials_debug(&s->o, "credentials: profile `%s`: running its credential_process", p->name);
    return anvil__credentials_process(command, p->name, &s->o, out, diag);
}

static int s_sso(const struct s_shared *s, const struct anvil__profile *p, uint64_t now, struct anvil_credentials *out,
                 struct anvil_diag *diag) {
    if (!anvil__profile_get(p, ANVIL__PK_SSO_SESSION)[0] && !anvil__profile_get(p, ANVIL__PK_SSO_START_URL)[0]) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "profile `%s`: no SSO settings", p->name);
    }
    return anvil__credentials_sso(&s->o, p, now, out, diag);
}

static int s_role(const struct s_shared *s, const struct anvil__profile *p, const char **visited, size_t hops,
                  uint64_t now, struct anvil_credentials *out, struct anvil_diag *diag);

/* The credentials a role's source profile gives (`name`, reached through `visited`). */
static int s_source_profile(const struct s_shared *s, const struct anvil__profile *from, const char *name,
                            const char **visited, size_t hops, uint64_t now, struct anvil_credentials *out,
                            struct anvil_diag *diag) {
    bool self = strcmp(name, from->name) == 0;
    for (size_t i = 0; i < hops && !self; i++) {
        if (strcmp(visited[i], name) == 0) {
            char chain[600];
            size_t len = 0;
            for (size_t j = 0; j < hops && len < sizeof chain; j++) {
                len += (size_t)snprintf(chain + len, sizeof chain - len, "%s -> ", visited[j]);
            }
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "profile `%s`: source_profile loops: %s%s", visited[0],
                                  chain, name);
        }
    }
    if (hops >= S_MAX_HOPS) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "profile `%s`: source_profile chains more than %d profiles",
                              visited[0], S_MAX_HOPS);
    }
    if (self) {
        /* A profile may name itself: its own keys are then the source (botocore, aws-c-auth). */
        int rc = s_profile_keys(from, 0, out, diag);
        rc = rc == ANVIL_ENOTFOUND ? s_profile_keys(from, 1, out, diag) : rc;
        return rc == ANVIL_ENOTFOUND
                   ? anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                    "profile `%s`: source_profile names itself but it has no keys", from->name)
                   : rc;
    }
    struct anvil__profile src;
    int rc = s_load(s, name, &src, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (!src.in_credentials && !src.in_config) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                            "profile `%s`: its source_profile `%s` is in neither %s nor %s", from->name, name,
                            src.credentials_path, src.config_path);
    } else if (s_has_role(&src) && !s_has_keys(&src)) {
        rc = s_role(s, &src, visited, hops, now, out, diag);
    } else {
        /* Keys, or no role: the profile's own providers, in botocore's order (ProfileProviderBuilder). */
        rc = s_web_identity(s, &src, true, now, out, diag);
        rc = rc == ANVIL_ENOTFOUND ? s_sso(s, &src, now, out, diag) : rc;
        rc = rc == ANVIL_ENOTFOUND ? s_profile_keys(&src, 0, out, diag) : rc;
        rc = rc == ANVIL_ENOTFOUND ? s_process(s, &src, out, diag) : rc;
        rc = rc == ANVIL_ENOTFOUND ? s_profile_keys(&src, 1, out, diag) : rc;
        if (rc == ANVIL_ENOTFOUND) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "profile `%s`: its source_profile `%s` has no keys, role, web identity, "
                                "credential_process or SSO settings",
                                from->name, name);
        }
    }
    anvil__profile_free(&src);
    return rc;
}

/* AssumeRole of `p`'s role_arn with its source's credentials. */
static int s_role(const struct s_shared *s, const struct anvil__profile *p, const char **visited, size_t hops,
                  uint64_t now, struct anvil_credentials *out, struct anvil_diag *diag) {
    visited[hops++] = p->name;
    const char *source_profile = anvil__profile_get(p, ANVIL__PK_SOURCE_PROFILE);
    const char *credential_source = anvil__profile_get(p, ANVIL__PK_CREDENTIAL_SOURCE);
    if (source_profile[0] && credential_source[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "profile `%s`: both source_profile and credential_source; give one", p->name);
    }
    if (!source_profile[0] && !credential_source[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "profile `%s`: role_arn needs source_profile, credential_source or "
                              "web_identity_token_file",
                              p->name);
    }
    if (anvil__profile_get(p, ANVIL__PK_MFA_SERIAL)[0]) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "profile `%s`: its role needs an MFA code (mfa_serial), and anvil does not prompt "
                              "for one; use credentials from `aws sts get-session-token` or `aws configure "
                              "export-credentials`",
                              p->name);
    }
    const char *duration = anvil__profile_get(p, ANVIL__PK_DURATION_SECONDS);
    long v = 0;
    if (duration[0]) {
        char *end = NULL;
        errno = 0;
        v = strtol(duration, &end, 10);
        if (errno || *end || v < 900 || v > 43200) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "profile `%s`: duration_seconds must be a number of seconds from 900 to 43200",
                                  p->name);
        }
    }
    struct anvil_credentials *source = anvil_mem_acquire(s->allocator, sizeof *source);
    if (!source) {
        return ANVIL_ENOMEM;
    }
    anvil_credentials_clear(source);
    int rc;
    if (credential_source[0]) {
        if (strcmp(credential_source, "Environment") == 0) {
            rc = s_environment(s, true, source, diag);
        } else if (strcmp(credential_source, "Ec2InstanceMetadata") == 0) {
            rc = s_container_or_imds(s, S_IMDS, now, source, diag);
        } else if (strcmp(credential_source, "EcsContainer") == 0) {
            rc = s_container_or_imds(s, S_CONTAINER, now, source, diag);
        } else {
            char shown[64];
            anvil__credentials_shown(anvil_sv_from_cstr(credential_source), shown, sizeof shown);
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "profile `%s`: credential_source `%s` is none of Environment, Ec2InstanceMetadata, "
                                "EcsContainer",
                                p->name, shown);
        }
        if (rc == ANVIL_ENOTFOUND) {
            char was[ANVIL_DIAG_MESSAGE_MAX];
            snprintf(was, sizeof was, "%s", diag ? diag->message : "");
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "profile `%s`: credential_source %s gave none: %s",
                                p->name, credential_source, was);
        }
    } else {
        rc = s_source_profile(s, p, source_profile, visited, hops, now, source, diag);
    }
    if (rc == ANVIL_OK) {
        char who[200], session[128];
        snprintf(who, sizeof who, "profile `%.100s`", p->name);
        s_session_name(p, NULL, now, session, sizeof session);
        const char *pairs[] = {"RoleArn",    anvil__profile_get(p, ANVIL__PK_ROLE_ARN),   "RoleSessionName", session,
                               "ExternalId", anvil__profile_get(p, ANVIL__PK_EXTERNAL_ID)};
        rc = s_sts(s, s_sts_region(s, p), "AssumeRole", source, pairs, 6, v, who, "assume-role", out, diag);
    }
    anvil_credentials_clear(source);
    anvil_mem_release(s->allocator, source);
    return rc;
}

/* ---- the members ---- */

static int s_fetch(void *ctx, uint64_t now, struct anvil_credentials *out, struct anvil_diag *diag) {
    struct s_member *m = ctx;
    struct s_shared *s = m->shared;
    if (m->kind == S_ENVIRONMENT) {
        return s_environment(s, false, out, diag);
    }
    if (m->kind == S_CONTAINER || m->kind == S_IMDS) {
        return s_container_or_imds(s, m->kind, now, out, diag);
    }
    struct anvil__profile p;
    int rc = s_load(s, s->profile, &p, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    bool defined = p.in_credentials || p.in_config;
    if (!defined && s->profile_named && m->kind == S_ASSUME_ROLE) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "the profile `%s` is in neither %s nor %s", p.name,
                            p.credentials_path, p.config_path);
    } else if (m->kind == S_WEB_IDENTITY) {
        rc = s_web_identity(s, &p, false, now, out, diag);
    } else if (!defined) {
        rc = anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "profile `%s`: in neither %s nor %s", p.name,
                            p.credentials_path, p.config_path);
    } else if (m->kind == S_ASSUME_ROLE) {
        bool sourced = anvil__profile_get(&p, ANVIL__PK_SOURCE_PROFILE)[0] ||
                       anvil__profile_get(&p, ANVIL__PK_CREDENTIAL_SOURCE)[0];
        if (s_has_role(&p) && sourced) {
            const char *visited[S_MAX_HOPS + 1];
            rc = s_role(s, &p, visited, 0, now, out, diag);
        } else if (s_has_role(&p)) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "profile `%s`: role_arn needs source_profile, credential_source or "
                                "web_identity_token_file",
                                p.name);
        } else {
            rc = anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "profile `%s`: no role", p.name);
        }
    } else if (m->kind == S_SSO) {
        rc = s_sso(s, &p, now, out, diag);
    } else if (m->kind == S_PROCESS) {
        rc = s_process(s, &p, out, diag);
    } else {
        rc = s_profile_keys(&p, m->kind == S_CREDENTIALS_FILE ? 0 : 1, out, diag);
    }
    anvil__profile_free(&p);
    return rc;
}

static void s_shared_release(struct s_shared *s) {
    if (atomic_fetch_sub(&s->refs, 1) == 1) {
        anvil_mem_release(s->allocator, s);
    }
}

static void s_member_destroy(void *ctx) {
    struct s_member *m = ctx;
    struct s_shared *s = m->shared;
    anvil_mem_release(s->allocator, m);
    s_shared_release(s);
}

int anvil_credentials_provider_default(struct anvil_allocator *allocator,
                                       const struct anvil_credentials_options *options,
                                       struct anvil_credentials_provider **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct s_shared *s = anvil_mem_acquire(allocator, sizeof *s);
    if (!s) {
        return ANVIL_ENOMEM;
    }
    memset(s, 0, sizeof *s);
    s->allocator = allocator;
    atomic_init(&s->refs, 1);
    if (options) {
        s->o = *options;
    }
    const char *named = s->o.profile && *s->o.profile ? s->o.profile : anvil__credentials_env(&s->o, "AWS_PROFILE");
    s->profile_given = s->o.profile && *s->o.profile;
    s->profile_named = named != NULL;
    snprintf(s->profile, sizeof s->profile, "%s", named ? named : "default");
    const char *region = s->o.region && *s->o.region ? s->o.region : anvil__credentials_env(&s->o, "AWS_REGION");
    region = region ? region : anvil__credentials_env(&s->o, "AWS_DEFAULT_REGION");
    snprintf(s->region, sizeof s->region, "%s", region ? region : "");
    const char *ca =
        s->o.ca_bundle && *s->o.ca_bundle ? s->o.ca_bundle : anvil__credentials_env(&s->o, "AWS_CA_BUNDLE");
    snprintf(s->ca_bundle, sizeof s->ca_bundle, "%s", ca ? ca : "");
    s->o.profile = s->profile_given ? s->profile : NULL;
    s->o.region = s->region[0] ? s->region : NULL;
    s->o.ca_bundle = s->ca_bundle[0] ? s->ca_bundle : NULL;
    struct anvil_credentials_provider *members[S_KINDS] = {NULL};
    int rc = ANVIL_OK;
    for (size_t i = 0; i < S_KINDS && rc == ANVIL_OK; i++) {
        struct s_member *m = anvil_mem_acquire(allocator, sizeof *m);
        if (!m) {
            rc = ANVIL_ENOMEM;
            break;
        }
        m->shared = s;
        m->kind = (enum s_kind)i;
        atomic_fetch_add(&s->refs, 1);
        rc = anvil_credentials_provider_new(allocator, s_names[i], s_fetch, m, s_member_destroy, &members[i]);
        if (rc != ANVIL_OK) {
            s_member_destroy(m);
        }
    }
    if (rc == ANVIL_OK) {
        rc = anvil_credentials_provider_chain(allocator, members, S_KINDS, out);
    }
    for (size_t i = 0; i < S_KINDS; i++) {
        anvil_credentials_provider_release(members[i]);
    }
    s_shared_release(s);
    return rc;
}
