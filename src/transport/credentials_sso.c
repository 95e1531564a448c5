/*
 * SSO (IAM Identity Center) credentials, as botocore gets them: the
 * profile's sso_session (its [sso-session NAME] section) or the legacy
 * sso_start_url and sso_region; the token `aws sso login` cached in
 * ~/.aws/sso/cache/<sha1 of the session name or start URL>.json, refreshed
 * through SSO OIDC CreateToken when it nears expiry (sso-session tokens
 * only; the new token is written back); SSO GetRoleCredentials with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anvil/arena.h"
#include "anvil/json.h"
#include "core/core_internal.h"
#include "core/crypto.h"
#include "protocol/protocol_internal.h"
#include "transport/credentials_internal.h"

#define S_CACHE_MAX ((size_t)256 * 1024)
/* botocore refreshes a token with less than 15 minutes left. */
#define S_REFRESH_MS ((uint64_t)15 * 60 * 1000)

static pthread_mutex_t s_cache_lock = PTHREAD_MUTEX_INITIALIZER;

struct s_sso {
    const struct anvil_credentials_options *o;
    const struct anvil__profile *p;
    char who[200];
    /* The [sso-session] name ("" for a legacy profile), the start URL, the region. */
    char session[128];
    char start_url[1024];
    char region[64];
    char cache_path[1200];
};

/* The settings, from [sso-session NAME] or the profile; keys in both must agree. */
static int s_settings(struct s_sso *s, struct anvil_diag *diag) {
    const struct anvil__profile *p = s->p;
    snprintf(s->session, sizeof s->session, "%s", anvil__profile_get(p, ANVIL__PK_SSO_SESSION));
    const char *url = anvil__profile_get(p, ANVIL__PK_SSO_START_URL);
    const char *region = anvil__profile_get(p, ANVIL__PK_SSO_REGION);
    if (s->session[0]) {
        const char *keys[] = {"sso_start_url", "sso_region"};
        char *outs[] = {s->start_url, s->region};
        size_t sizes[] = {sizeof s->start_url, sizeof s->region};
        bool found = false;
        int rc = anvil__ini_read(p->config_path, "sso-session", s->session, keys, outs, sizes, 2, &found, diag);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (!found) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: no [sso-session %s] section in %s", s->who,
                                  s->session, p->config_path);
        }
        if ((url[0] && strcmp(url, s->start_url) != 0) || (region[0] && strcmp(region, s->region) != 0)) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                  "%s: its sso_start_url or sso_region differs from [sso-session %s]'s", s->who,
                                  s->session);
        }
    } else {
        snprintf(s->start_url, sizeof s->start_url, "%s", url);
        snprintf(s->region, sizeof s->region, "%s", region);
    }
    const char *missing = !s->start_url[0]                                      ? "sso_start_url"
                          : !s->region[0]                                       ? "sso_region"
                          : !anvil__profile_get(p, ANVIL__PK_SSO_ACCOUNT_ID)[0] ? "sso_account_id"
                          : !anvil__profile_get(p, ANVIL__PK_SSO_ROLE_NAME)[0]  ? "sso_role_name"
                                                                                : NULL;
    if (missing) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: SSO needs %s", s->who, missing);
    }
    /* The cache file: the SHA-1 of the session name, or of the start URL for a legacy profile. */
    const char *key = s->session[0] ? s->session : s->start_url;
    unsigned char digest[ANVIL__SHA1];
    int rc = anvil__digest(ANVIL__SHA1, key, strlen(key), digest, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    char hex[2 * ANVIL__SHA1 + 1];
    for (size_t i = 0; i < sizeof digest; i++) {
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    }
    const char *home = anvil__credentials_env(s->o, "HOME");
    snprintf(s->cache_path, sizeof s->cache_path, "%s/.aws/sso/cache/%s.json", home ? home : "", hex);
    return ANVIL_OK;
}

static int s_read_cache(const struct s_sso *s, char **text, size_t *len, struct anvil_diag *diag) {
    char *buf = malloc(S_CACHE_MAX + 1);
    if (!buf) {
        return ANVIL_ENOMEM;
    }
    int rc = anvil__read_small_file(s->cache_path, buf, S_CACHE_MAX + 1, len);
    if (rc == ANVIL_EIO) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: no SSO token (%s: %s); run `aws sso login%s%s`", s->who,
                            s->cache_path, strerror(errno), s->session[0] ? " --sso-session " : "", s->session);
    } else if (rc != ANVIL_OK) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s is not a token file", s->who, s->cache_path);
    }
    if (rc != ANVIL_OK) {
        anvil__cleanse(buf, S_CACHE_MAX + 1);
        free(buf);
        return rc;
    }
    *text = buf;
    return ANVIL_OK;
}

static struct anvil_str_view s_str(const struct anvil_json *o, const char *key) {
    return anvil_json_string(anvil_json_object_get_cstr(o, key));
}

/* Writes the refreshed token back: the file's other fields kept, the new ones over them; replaced atomically. */
static void s_write_cache(const struct s_sso *s, const struct anvil_json *old, struct anvil_str_view token,
                          const char *expires_at, struct anvil_str_view refresh) {
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, S_CACHE_MAX);
    int rc = anvil_buf_append_cstr(&out, "{");
    const char *names[] = {"accessToken", "expiresAt", "refreshToken"};
    struct anvil_str_view values[] = {token, anvil_sv_from_cstr(expires_at), refresh};
    size_t written = 0;
    for (size_t i = 0; i < 3 && rc == ANVIL_OK; i++) {
        if (values[i].len) {
            rc = anvil_buf_append_cstr(&out, written++ ? ", " : "");
            rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_sv_from_cstr(names[i]), 0, &out) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, ": ") : rc;
            rc = rc == ANVIL_OK ? anvil_json_write_string(values[i], 0, &out) : rc;
        }
    }
    for (size_t i = 0; i < anvil_json_len(old) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(old, i);
        struct anvil_str_view k = anvil_json_member_key(m);
        if (anvil_sv_eq_cstr(k, "accessToken") || anvil_sv_eq_cstr(k, "expiresAt") ||
            (refresh.len && anvil_sv_eq_cstr(k, "refreshToken"))) {
            continue;
        }
        rc = anvil_buf_append_cstr(&out, ", ");
        rc = rc == ANVIL_OK ? anvil_json_write_string(k, 0, &out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, ": ") : rc;
        rc = rc == ANVIL_OK ? anvil_json_write(&m->value, 0, &out) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, "}\n") : rc;
    /* A new file of our own beside the cache (never one planted there: O_EXCL), 0600, whole on disk, then renamed. */
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.anvil-XXXXXX", s->cache_path);
    int fd = rc == ANVIL_OK ? mkstemp(tmp) : -1;
    bool ok = fd >= 0 && fchmod(fd, 0600) == 0 && write(fd, out.data, out.len) == (ssize_t)out.len && fsync(fd) == 0;
    ok = fd >= 0 && close(fd) == 0 && ok;
    if (ok && rename(tmp, s->cache_path) == 0) {
        anvil__credentials_debug(s->o, "credentials: %s: wrote the refreshed SSO token to %s", s->who, s->cache_path);
    } else {
        if (fd >= 0) {
            unlink(tmp);
        }
        anvil__credentials_debug(s->o, "credentials: %s: could not write the refreshed SSO token to %s", s->who,
                                 s->cache_path);
    }
    if (out.data) {
        anvil__cleanse(out.data, out.capacity);
    }
    anvil_buf_clean_up(&out);
}

/* CreateToken with the cached refresh token; the new access token into `token` (in `arena`). */
static int s_refresh(const struct s_sso *s, const struct anvil_json *cache, uint64_t now, struct anvil_arena *arena,
                     struct anvil_str_view *token, uint64_t *expires, struct anvil_diag *diag) {
    struct anvil_json_builder *b = NULL;
    struct anvil_allocator scrub = anvil__scrubber(NULL);
    int rc = anvil_json_builder_new(&scrub, arena, &b);
    rc = rc == ANVIL_OK ? anvil_json_builder_begin_object(b) : rc;
    const char *from[] = {"clientId", "clientSecret", "refreshToken"};
    for (size_t i = 0; i < 3 && rc == ANVIL_OK; i++) {
        struct anvil_str_view v = s_str(cache, from[i]);
        rc = anvil_json_builder_key(b, from[i], strlen(from[i]));
        rc = rc == ANVIL_OK ? anvil_json_builder_string(b, v.ptr, v.len) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_json_builder_key(b, "grantType", 9) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_string(b, "refresh_token", 13) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
    struct anvil_json input;
    rc = rc == ANVIL_OK ? anvil_json_builder_finish(b, &input) : rc;
    anvil_json_builder_destroy(b);
    struct anvil_operation_reply reply;
    memset(&reply, 0, sizeof reply);
    if (rc == ANVIL_OK) {
        anvil__credentials_debug(s->o, "credentials: %s: refreshing the SSO token (SSO OIDC CreateToken in %s)", s->who,
                                 s->region);
        rc = anvil__auth_call("sso-oidc", s->region, NULL, s->o, "CreateToken", &input, arena, &reply, diag);
    }
    if (rc == ANVIL_ESERVICE) {
        char code[64];
        anvil__credentials_shown(reply.error.code, code, sizeof code);
        if (!code[0]) {
            snprintf(code, sizeof code, "HTTP %d", reply.http_status);
        }
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: SSO OIDC CreateToken failed: %s", s->who, code);
    }
    if (rc != ANVIL_OK && rc != ANVIL_ENOMEM && rc != ANVIL_ECANCELED) {
        char was[ANVIL_DIAG_MESSAGE_MAX];
        snprintf(was, sizeof was, "%s", diag ? diag->message : "");
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: SSO OIDC CreateToken: %s", s->who,
                              was[0] ? was : anvil_status_str(rc));
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_str_view access = s_str(&reply.output, "accessToken");
    const struct anvil_json *in = anvil_json_object_get_cstr(&reply.output, "expiresIn");
    /* Seconds: a day's worth of years at most (a larger number would overflow, or mean "never"). */
    double given = in && anvil_json_is_number(in) ? anvil_json_double(in) : 0;
    int64_t seconds = given >= 1 && given <= 366.0 * 24 * 3600 ? (int64_t)given : 0;
    if (!access.len || seconds <= 0) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: SSO OIDC CreateToken answered without a token",
                              s->who);
    }
    *token = access;
    *expires = now + (uint64_t)seconds * 1000;
    char when[40];
    anvil__credentials_time(*expires, when, sizeof when);
    s_write_cache(s, cache, access, when, s_str(&reply.output, "refreshToken"));
    return ANVIL_OK;
}

int anvil__credentials_sso(const struct anvil_credentials_options *o, const struct anvil__profile *p, uint64_t now,
                           struct anvil_credentials *out, struct anvil_diag *diag) {
    struct s_sso s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.p = p;
    snprintf(s.who, sizeof s.who, "profile `%.100s`", p->name);
    int rc = s_settings(&s, diag);
    char *text = NULL;
    size_t len = 0;
    if (rc != ANVIL_OK) {
        return rc;
    }
    /*
     * One token read and refresh at a time in this process: a second
     * provider waiting here reads the token the first wrote back instead of
     * spending the same refresh token again.
     */
    pthread_mutex_lock(&s_cache_lock);
    rc = s_read_cache(&s, &text, &len, diag);
    if (rc != ANVIL_OK) {
        pthread_mutex_unlock(&s_cache_lock);
        return rc;
    }
    struct anvil_arena *arena = NULL;
    /* Tokens, the client secret and the credentials pass through it: overwritten when released. */
    struct anvil_allocator scrub = anvil__scrubber(NULL);
    rc = anvil_arena_new(&scrub, NULL, &arena);
    struct anvil_json cache;
    if (rc == ANVIL_OK && anvil_json_parse_into(arena, &scrub, text, len, NULL, &cache, NULL) != ANVIL_OK) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s is not JSON; run `aws sso login`", s.who,
                            s.cache_path);
    }
    anvil__cleanse(text, len);
    free(text);
    struct anvil_str_view token = {"", 0};
    uint64_t expires = 0;
    if (rc == ANVIL_OK) {
        token = s_str(&cache, "accessToken");
        int64_t ms = 0;
        struct anvil_str_view at = s_str(&cache, "expiresAt");
        if (!token.len || !at.len || anvil__timestamp_parse_any(at, &ms) != ANVIL_OK || ms <= 0) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "%s: %s lacks accessToken or an ISO-8601 expiresAt; run `aws sso login`", s.who,
                                s.cache_path);
        }
        expires = (uint64_t)ms;
    }
    if (rc == ANVIL_OK && expires <= now + S_REFRESH_MS && s.session[0] && s_str(&cache, "refreshToken").len &&
        s_str(&cache, "clientId").len && s_str(&cache, "clientSecret").len) {
        int64_t registration = 0;
        struct anvil_str_view until = s_str(&cache, "registrationExpiresAt");
        bool registered =
            until.len && anvil__timestamp_parse_any(until, &registration) == ANVIL_OK && (uint64_t)registration > now;
        struct anvil_diag refresh_diag;
        anvil_diag_clear(&refresh_diag);
        if (registered && s_refresh(&s, &cache, now, arena, &token, &expires, &refresh_diag) != ANVIL_OK &&
            expires <= now) {
            /* The old token is no use either: the refresh's failure is the answer. */
            if (diag) {
                *diag = refresh_diag;
            }
            rc = refresh_diag.code ? refresh_diag.code : ANVIL_ECONFIG;
        }
    }
    pthread_mutex_unlock(&s_cache_lock);
    if (rc == ANVIL_OK && expires <= now) {
        char when[40];
        anvil__credentials_time(expires, when, sizeof when);
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: the SSO token expired at %s; run `aws sso login%s%s`",
                            s.who, when, s.session[0] ? " --sso-session " : "", s.session);
    }
    struct anvil_operation_reply reply;
    memset(&reply, 0, sizeof reply);
    if (rc == ANVIL_OK) {
        struct anvil_json_builder *b = NULL;
        rc = anvil_json_builder_new(&scrub, arena, &b);
        rc = rc == ANVIL_OK ? anvil_json_builder_begin_object(b) : rc;
        const char *role = anvil__profile_get(p, ANVIL__PK_SSO_ROLE_NAME);
        const char *account = anvil__profile_get(p, ANVIL__PK_SSO_ACCOUNT_ID);
        rc = rc == ANVIL_OK ? anvil_json_builder_key(b, "roleName", 8) : rc;
        rc = rc == ANVIL_OK ? anvil_json_builder_string(b, role, strlen(role)) : rc;
        rc = rc == ANVIL_OK ? anvil_json_builder_key(b, "accountId", 9) : rc;
        rc = rc == ANVIL_OK ? anvil_json_builder_string(b, account, strlen(account)) : rc;
        rc = rc == ANVIL_OK ? anvil_json_builder_key(b, "accessToken", 11) : rc;
        rc = rc == ANVIL_OK ? anvil_json_builder_string(b, token.ptr, token.len) : rc;
        rc = rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
        struct anvil_json input;
        rc = rc == ANVIL_OK ? anvil_json_builder_finish(b, &input) : rc;
        anvil_json_builder_destroy(b);
        if (rc == ANVIL_OK) {
            anvil__credentials_debug(o, "credentials: %s: SSO GetRoleCredentials of %s in account %s (%s)", s.who, role,
                                     account, s.region);
            rc = anvil__auth_call("sso", s.region, NULL, o, "GetRoleCredentials", &input, arena, &reply, diag);
        }
        if (rc != ANVIL_OK && rc != ANVIL_ESERVICE && rc != ANVIL_ENOMEM && rc != ANVIL_ECANCELED) {
            char was[ANVIL_DIAG_MESSAGE_MAX];
            snprintf(was, sizeof was, "%s", diag ? diag->message : "");
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: SSO GetRoleCredentials: %s", s.who,
                                was[0] ? was : anvil_status_str(rc));
        }
        if (rc == ANVIL_ESERVICE) {
            char code[64];
            anvil__credentials_shown(reply.error.code, code, sizeof code);
            if (!code[0]) {
                snprintf(code, sizeof code, "HTTP %d", reply.http_status);
            }
            bool login = anvil_sv_eq_cstr(reply.error.code, "UnauthorizedException");
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: SSO GetRoleCredentials of %s in %s failed: %s%s",
                                s.who, role, account, code, login ? "; run `aws sso login`" : "");
        }
    }
    if (rc == ANVIL_OK) {
        const struct anvil_json *c = anvil_json_object_get_cstr(&reply.output, "roleCredentials");
        struct anvil_str_view key = s_str(c, "accessKeyId"), secret = s_str(c, "secretAccessKey");
        struct anvil_str_view session = s_str(c, "sessionToken");
        const struct anvil_json *e = anvil_json_object_get_cstr(c, "expiration");
        /* Epoch milliseconds, before the year 10000 (a larger number would overflow, or mean "never"). */
        double ms = e && anvil_json_is_number(e) ? anvil_json_double(e) : 0;
        ms = ms >= 1 && ms < 253402300800000.0 ? ms : 0;
        if (!key.len || !secret.len || key.len >= sizeof out->access_key_id ||
            secret.len >= sizeof out->secret_access_key || session.len >= sizeof out->session_token || ms <= 0) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                                "%s: SSO GetRoleCredentials answered without whole credentials", s.who);
        } else {
            memcpy(out->access_key_id, key.ptr, key.len);
            memcpy(out->secret_access_key, secret.ptr, secret.len);
            memcpy(out->session_token, session.ptr, session.len);
            /* Epoch milliseconds (botocore divides by 1000 for its seconds). */
            out->expires_ms = (uint64_t)ms;
            snprintf(out->account_id, sizeof out->account_id, "%s", anvil__profile_get(p, ANVIL__PK_SSO_ACCOUNT_ID));
            snprintf(out->provider, sizeof out->provider, "sso");
            snprintf(out->source, sizeof out->source, "%.150s: SSO role %.80s", s.who,
                     anvil__profile_get(p, ANVIL__PK_SSO_ROLE_NAME));
        }
    }
    anvil_arena_destroy(arena);
    return rc;
}
