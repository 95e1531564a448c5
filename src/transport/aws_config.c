/*
 * Credentials and region the way AWS tools find them: the environment
 * first, then the profile in the shared credentials and config files
 * (INI: `[name]` in credentials, `[profile name]` or `[default]` in config).
 * Every value must fit its field: a longer one is an error naming where it
 * came from, never a silent cut (a cut session token signs requests that
 * fail far from the cause).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anvil/client.h"

/* The longest line of a credentials or config file (a long session token fits). */
#define S_LINE_MAX 16384

static const char *s_env(void *ctx, const char *name) {
    (void)ctx;
    return getenv(name);
}

/* Copies `src` into `dst`; ANVIL_ECONFIG (naming `what`) when it does not fit. */
static int s_copy(char *dst, size_t size, const char *src, const char *what, struct anvil_diag *diag) {
    src = src ? src : "";
    size_t n = strlen(src);
    if (n >= size) {
        dst[0] = '\0';
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s is longer than %zu bytes", what, size - 1);
    }
    memcpy(dst, src, n + 1);
    return ANVIL_OK;
}

/*
 * Checks an endpoint setting's value (named by its profile key) is one it
 * may take; ANVIL_ECONFIG naming `where` when not. A flag is true or false
 * in any case (as the AWS CLI reads it); the rest are their words.
 */
static int s_setting_check(const char *key, const char *value, const char *where, struct anvil_diag *diag) {
    static const struct {
        const char *key, *allowed[4];
    } rules[] = {
        {"use_fips_endpoint", {"true", "false"}},
        {"use_dualstack_endpoint", {"true", "false"}},
        {"s3_use_arn_region", {"true", "false"}},
        {"s3_disable_multiregion_access_points", {"true", "false"}},
        {"s3.use_accelerate_endpoint", {"true", "false"}},
        {"s3.use_dualstack_endpoint", {"true", "false"}},
        {"sts_regional_endpoints", {"legacy", "regional"}},
        {"s3.us_east_1_regional_endpoint", {"legacy", "regional"}},
        {"s3.addressing_style", {"auto", "virtual", "path"}},
        {"account_id_endpoint_mode", {"preferred", "disabled", "required"}},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (strcmp(rules[i].key, key) != 0) {
            continue;
        }
        for (size_t j = 0; j < 4 && rules[i].allowed[j]; j++) {
            if (strcasecmp(value, rules[i].allowed[j]) == 0) {
                return ANVIL_OK;
            }
        }
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s is \"%.40s\": it must be %s%s%s%s%s", where, value,
                              rules[i].allowed[0], rules[i].allowed[2] ? ", " : " or ", rules[i].allowed[1],
                              rules[i].allowed[2] ? " or " : "", rules[i].allowed[2] ? rules[i].allowed[2] : "");
    }
    /* The account id: what the rules put in a host name, so digits (an AWS account id is 12). */
    for (const char *p = value; *p; p++) {
        if (*p < '0' || *p > '9') {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s is not an account id (digits only)", where);
        }
    }
    return ANVIL_OK;
}

/* The most keys wanted from one section. */
#define S_INI_KEYS 16

/*
 * The keys wanted from one section of an INI file, and whether the section
 * was there. A key under a nested value (`s3 =` and indented lines after
 * it) is named "s3.addressing_style".
 */
struct s_ini_want {
    const char *section;
    const char *keys[S_INI_KEYS];
    char *outs[S_INI_KEYS];
    size_t sizes[S_INI_KEYS];
    bool found;
};

/*
 * Opens `path` for reading when it is a regular file. A missing file is no
 * error (*f = NULL); anything else that is not a regular file (a FIFO would
 * block the read forever, a directory cannot be read) is ANVIL_ECONFIG.
 */
static int s_open(const char *path, FILE **f, struct anvil_diag *diag) {
    *f = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        return errno == ENOENT || errno == ENOTDIR
                   ? ANVIL_OK
                   : anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "cannot read %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s is not a regular file", path);
    }
    *f = fdopen(fd, "r");
    if (!*f) {
        close(fd);
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "cannot read %s: %s", path, strerror(errno));
    }
    return ANVIL_OK;
}

static int s_ini(const char *path, struct s_ini_want *want, struct anvil_diag *diag) {
    FILE *f;
    int rc = s_open(path, &f, diag);
    if (rc != ANVIL_OK || !f) {
        return rc;
    }
    char *line = malloc(S_LINE_MAX);
    if (!line) {
        fclose(f);
        return ANVIL_ENOMEM;
    }
    size_t number = 0;
    bool in_section = false;
    /*
     * Lines indented deeper than the last key's continue its value, as
     * Python's configparser (and so botocore) reads them: the keys of a
     * nested value when that key's own value is empty (`s3 =`, then
     * `  addressing_style = path`, read as "s3.addressing_style"), else part
     * of the value (never keys of their own).
     */
    bool have_key = false;
    size_t key_indent = 0;
    char parent[64] = "";
    while (rc == ANVIL_OK && fgets(line, S_LINE_MAX, f)) {
        number++;
        size_t len = strlen(line);
        if (len == S_LINE_MAX - 1 && line[len - 1] != '\n' && !feof(f)) {
            /* Its tail would read as a line of its own: a clear error instead. */
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, number, 1, 0, "%s:%zu: a line longer than %d bytes", path, number,
                                S_LINE_MAX - 2);
            break;
        }
        struct anvil_str_view l = anvil_sv_trim(anvil_sv(line, len));
        if (l.len == 0 || l.ptr[0] == '#' || l.ptr[0] == ';') {
            continue;
        }
        size_t indent = (size_t)(l.ptr - line);
        bool continued = have_key && indent > key_indent;
        if (l.ptr[0] == '[' && !continued) {
            have_key = false;
            parent[0] = '\0';
            if (l.ptr[l.len - 1] != ']') {
                rc = anvil_diag_set(diag, ANVIL_ECONFIG, number, 1, 0, "%s:%zu: a section header needs a closing ']'",
                                    path, number);
                break;
            }
            struct anvil_str_view name = anvil_sv_trim(anvil_sv_slice(l, 1, l.len - 2));
            in_section = anvil_sv_eq_cstr(name, want->section);
            want->found = want->found || in_section;
            continue;
        }
        size_t eq = anvil_sv_find_byte(l, 0, '=');
        if (continued && !parent[0]) {
            continue; /* the rest of a value that goes on over lines: not a key */
        }
        if (eq == SIZE_MAX) {
            continue;
        }
        struct anvil_str_view key = anvil_sv_trim(anvil_sv_slice(l, 0, eq));
        struct anvil_str_view value = anvil_sv_trim(anvil_sv_slice(l, eq + 1, l.len - eq - 1));
        char nested[160];
        if (!continued) {
            /* A key of the section; `s3 =` (an empty value) opens a nested one. */
            have_key = true;
            key_indent = indent;
            bool opens = value.len == 0 && key.len < sizeof parent;
            memcpy(parent, key.ptr, opens ? key.len : 0);
            parent[opens ? key.len : 0] = '\0';
            if (opens) {
                continue;
            }
        } else {
            snprintf(nested, sizeof nested, "%s.%.*s", parent, (int)(key.len > 64 ? 64 : key.len), key.ptr);
            key = anvil_sv_from_cstr(nested);
        }
        if (!in_section) {
            continue; /* another section's */
        }
        for (size_t i = 0; i < S_INI_KEYS && want->keys[i]; i++) {
            if (!anvil_sv_eq_cstr(key, want->keys[i]) || want->outs[i][0]) {
                continue;
            }
            if (value.len >= want->sizes[i]) {
                rc = anvil_diag_set(diag, ANVIL_ECONFIG, number, 1, 0,
                                    "%s:%zu: the value of `%s` is longer than %zu bytes", path, number, want->keys[i],
                                    want->sizes[i] - 1);
                break;
            }
            memcpy(want->outs[i], value.ptr, value.len);
            want->outs[i][value.len] = '\0';
        }
    }
    free(line);
    fclose(f);
    return rc;
}

static void s_default_path(char *out, size_t size, const char *explicit_path, const char *home, const char *file) {
    if (explicit_path && *explicit_path) {
        snprintf(out, size, "%s", explicit_path);
    } else {
        snprintf(out, size, "%s/.aws/%s", home ? home : "", file);
    }
}

/* The profile's section in the config file: `[default]`, else `[profile NAME]`. */
static void s_config_section(char *out, size_t size, const char *name) {
    snprintf(out, size, strcmp(name, "default") == 0 ? "%s" : "profile %s", name);
}

static int s_from_environment(anvil_client_getenv_fn *lookup, void *ctx, struct anvil_aws_config *out,
                              struct anvil_diag *diag) {
    int rc = s_copy(out->access_key_id, sizeof out->access_key_id, lookup(ctx, "AWS_ACCESS_KEY_ID"),
                    "AWS_ACCESS_KEY_ID", diag);
    if (rc == ANVIL_OK) {
        rc = s_copy(out->secret_access_key, sizeof out->secret_access_key, lookup(ctx, "AWS_SECRET_ACCESS_KEY"),
                    "AWS_SECRET_ACCESS_KEY", diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_copy(out->session_token, sizeof out->session_token, lookup(ctx, "AWS_SESSION_TOKEN"),
                    "AWS_SESSION_TOKEN", diag);
    }
    snprintf(out->source, sizeof out->source, "environment");
    return rc;
}

int anvil_aws_config_resolve(const char *profile, const char *region, anvil_client_getenv_fn *lookup, void *ctx,
                             struct anvil_aws_config *out, struct anvil_diag *diag) {
    memset(out, 0, sizeof *out);
    lookup = lookup ? lookup : s_env;
    const char *env_profile = lookup(ctx, "AWS_PROFILE");
    const char *name = profile && *profile ? profile : env_profile;
    out->profile_named = name && *name;
    name = name && *name ? name : "default";
    int rc = s_copy(out->profile, sizeof out->profile, name, "the profile name", diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const char *key = lookup(ctx, "AWS_ACCESS_KEY_ID");
    const char *secret = lookup(ctx, "AWS_SECRET_ACCESS_KEY");
    char *credentials_path = out->credentials_path, *config_path = out->config_path;
    s_default_path(credentials_path, sizeof out->credentials_path, lookup(ctx, "AWS_SHARED_CREDENTIALS_FILE"),
                   lookup(ctx, "HOME"), "credentials");
    s_default_path(config_path, sizeof out->config_path, lookup(ctx, "AWS_CONFIG_FILE"), lookup(ctx, "HOME"), "config");
    char section[160];
    s_config_section(section, sizeof section, name);
    bool from_env = key && *key && secret && *secret && !(profile && *profile);
    if (from_env) {
        rc = s_from_environment(lookup, ctx, out, diag);
    } else {
        struct s_ini_want creds = {
            name,
            {"aws_access_key_id", "aws_secret_access_key", "aws_session_token", NULL},
            {out->access_key_id, out->secret_access_key, out->session_token, NULL},
            {sizeof out->access_key_id, sizeof out->secret_access_key, sizeof out->session_token, 0},
            false};
        /* The account id may stand with the keys (the credentials file's aws_account_id). */
        creds.keys[3] = "aws_account_id";
        creds.outs[3] = out->account_id;
        creds.sizes[3] = sizeof out->account_id;
        rc = s_ini(credentials_path, &creds, diag);
        out->profile_found = creds.found;
        if (rc == ANVIL_OK && (!out->access_key_id[0] || !out->secret_access_key[0])) {
            /* The config file may hold keys too, under [profile NAME] (or [default]). */
            creds.section = section;
            creds.found = false;
            rc = s_ini(config_path, &creds, diag);
            out->profile_found = out->profile_found || creds.found;
        }
        if (rc == ANVIL_OK && out->access_key_id[0] && out->secret_access_key[0]) {
            snprintf(out->source, sizeof out->source, "profile %.80s", name);
        } else {
            out->access_key_id[0] = out->secret_access_key[0] = out->session_token[0] = '\0';
        }
    }
    /* The region and the retry settings: the caller's, the environment's, then the profile's. */
    const char *r = region && *region ? region : lookup(ctx, "AWS_REGION");
    r = r && *r ? r : lookup(ctx, "AWS_DEFAULT_REGION");
    const char *ca = lookup(ctx, "AWS_CA_BUNDLE");
    if (rc == ANVIL_OK) {
        rc = s_copy(out->region, sizeof out->region, r, "the region", diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_copy(out->retry_mode, sizeof out->retry_mode, lookup(ctx, "AWS_RETRY_MODE"), "AWS_RETRY_MODE", diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_copy(out->max_attempts, sizeof out->max_attempts, lookup(ctx, "AWS_MAX_ATTEMPTS"), "AWS_MAX_ATTEMPTS",
                    diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_copy(out->ca_bundle, sizeof out->ca_bundle, ca, "AWS_CA_BUNDLE", diag);
    }
    /* The endpoint settings (the rules engine's built-ins): the environment's, then the profile's. */
    struct s_setting {
        const char *env, *key;
        char *out;
        size_t size;
    } settings[] = {
        {"AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint", out->use_fips_endpoint, sizeof out->use_fips_endpoint},
        {"AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint", out->use_dualstack_endpoint,
         sizeof out->use_dualstack_endpoint},
        {"AWS_STS_REGIONAL_ENDPOINTS", "sts_regional_endpoints", out->sts_regional_endpoints,
         sizeof out->sts_regional_endpoints},
        {"AWS_S3_US_EAST_1_REGIONAL_ENDPOINT", "s3.us_east_1_regional_endpoint", out->s3_us_east_1_regional_endpoint,
         sizeof out->s3_us_east_1_regional_endpoint},
        {"AWS_S3_USE_ARN_REGION", "s3_use_arn_region", out->s3_use_arn_region, sizeof out->s3_use_arn_region},
        {"AWS_S3_DISABLE_MULTIREGION_ACCESS_POINTS", "s3_disable_multiregion_access_points",
         out->s3_disable_multiregion_access_points, sizeof out->s3_disable_multiregion_access_points},
        {NULL, "s3.addressing_style", out->s3_addressing_style, sizeof out->s3_addressing_style},
        {NULL, "s3.use_accelerate_endpoint", out->s3_use_accelerate_endpoint, sizeof out->s3_use_accelerate_endpoint},
        {NULL, "s3.use_dualstack_endpoint", out->s3_use_dualstack_endpoint, sizeof out->s3_use_dualstack_endpoint},
        {"AWS_ACCOUNT_ID", "aws_account_id", out->account_id, sizeof out->account_id},
        {"AWS_ACCOUNT_ID_ENDPOINT_MODE", "account_id_endpoint_mode", out->account_id_endpoint_mode,
         sizeof out->account_id_endpoint_mode},
    };
    enum { S_SETTINGS = sizeof settings / sizeof settings[0] };
    _Static_assert(4 + S_SETTINGS < S_INI_KEYS, "the config file's keys (and a NULL) fit S_INI_KEYS");
    bool from_environment[S_SETTINGS] = {false};
    /*
     * The account id goes with the credentials, as the SDKs have it:
     * AWS_ACCOUNT_ID with the environment's keys, else the profile's
     * aws_account_id (the credentials file's, then the config file's).
     */
    bool account_from_credentials = out->account_id[0] != '\0';
    for (size_t i = 0; i < S_SETTINGS && rc == ANVIL_OK; i++) {
        bool account = settings[i].out == out->account_id;
        const char *v = settings[i].env && (!account || from_env) ? lookup(ctx, settings[i].env) : NULL;
        if (v && *v) {
            /* Set in the environment: it outranks the profile (and the credentials file's account id). */
            rc = s_copy(settings[i].out, settings[i].size, v, settings[i].env, diag);
            rc = rc == ANVIL_OK ? s_setting_check(settings[i].key, v, settings[i].env, diag) : rc;
            from_environment[i] = true;
        }
    }
    if (rc == ANVIL_OK) {
        struct s_ini_want conf = {
            section,
            {"region", "retry_mode", "max_attempts", "ca_bundle"},
            {out->region, out->retry_mode, out->max_attempts, out->ca_bundle},
            {sizeof out->region, sizeof out->retry_mode, sizeof out->max_attempts, sizeof out->ca_bundle},
            false};
        size_t k = 4;
        for (size_t i = 0; i < S_SETTINGS; i++) {
            if (settings[i].out == out->account_id && from_env) {
                continue; /* the environment's keys have the environment's account id, or none */
            }
            conf.keys[k] = settings[i].key;
            conf.outs[k] = settings[i].out;
            conf.sizes[k++] = settings[i].size;
        }
        rc = s_ini(config_path, &conf, diag);
        out->profile_found = out->profile_found || conf.found;
    }
    for (size_t i = 0; i < S_SETTINGS && rc == ANVIL_OK; i++) {
        if (!from_environment[i] && settings[i].out[0]) {
            char where[1200];
            bool credentials = settings[i].out == out->account_id && account_from_credentials;
            snprintf(where, sizeof where, "%s: [%s] %s", credentials ? credentials_path : config_path,
                     credentials ? name : section, settings[i].key);
            rc = s_setting_check(settings[i].key, settings[i].out, where, diag);
        }
    }
    if (rc != ANVIL_OK) {
        /* No secret outlives a failure. */
        out->access_key_id[0] = out->secret_access_key[0] = out->session_token[0] = '\0';
        out->source[0] = '\0';
    }
    return rc;
}
