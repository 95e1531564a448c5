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
#include "core/core_internal.h"
#include "core/crypto.h"
#include "transport/credentials_internal.h"

/* The longest line of a credentials or config file (a long session token fits). */
#define S_LINE_MAX 16384

const char *anvil__getenv_system(void *ctx, const char *name) {
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
        {"s3_us_east_1_regional_endpoint", {"legacy", "regional"}},
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
#define S_INI_KEYS 32

/*
 * The keys wanted from one profile's section of an INI file, and whether
 * the section was there. A key under a nested value (`s3 =` and indented
 * lines after it) is named "s3.addressing_style". Values found fill their
 * `outs` (the last one in the file wins) unless an out was set before the
 * read (the environment outranks the files).
 */
struct s_ini_want {
    /* The profile's name. */
    const char *profile;
    /* The config file names profiles `[profile NAME]` (and `[default]`); the credentials file `[NAME]`. */
    bool config;
    const char *keys[S_INI_KEYS];
    char *outs[S_INI_KEYS];
    size_t sizes[S_INI_KEYS];
    bool found;
    /* A config-file section of another kind: `[PREFIX NAME]` (such as "sso-session"); NULL for profiles. */
    const char *prefix;
};

/*
 * Whether a section header names the profile, as botocore reads it: the
 * text between '[' and the last ']' as it is (not trimmed); in the config
 * file `default`, or `profile` and the name split on white space.
 */
static bool s_section_is(const struct s_ini_want *w, struct anvil_str_view header) {
    if (w->prefix) {
        size_t n = strlen(w->prefix);
        return header.len > n && memcmp(header.ptr, w->prefix, n) == 0 &&
               (header.ptr[n] == ' ' || header.ptr[n] == '\t') &&
               anvil_sv_eq_cstr(anvil_sv_trim(anvil_sv_slice(header, n, header.len - n)), w->profile);
    }
    if (!w->config || (strcmp(w->profile, "default") == 0 && anvil_sv_eq_cstr(header, "default"))) {
        return anvil_sv_eq_cstr(header, w->profile);
    }
    if (header.len < 8 || memcmp(header.ptr, "profile", 7) != 0 || (header.ptr[7] != ' ' && header.ptr[7] != '\t')) {
        return false;
    }
    return anvil_sv_eq_cstr(anvil_sv_trim(anvil_sv_slice(header, 7, header.len - 7)), w->profile);
}

/*
 * Opens `path` for reading when it is a regular file. A missing file is no
 * error (*f = NULL); anything else that is not a regular file (a FIFO would
 * block the read forever, a directory cannot be read) is ANVIL_ECONFIG.
 */
static int s_open(const char *path, FILE **f, struct anvil_diag *diag) {
    *f = NULL;
    int fd;
    int err = anvil__open_regular(path, &fd);
    if (err < 0) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s is not a regular file", path);
    }
    if (err) {
        return err == ENOENT || err == ENOTDIR
                   ? ANVIL_OK
                   : anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "cannot read %s: %s", path, strerror(err));
    }
    *f = fdopen(fd, "r");
    if (!*f) {
        close(fd);
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "cannot read %s: %s", path, strerror(errno));
    }
    return ANVIL_OK;
}

/*
 * Reads the wanted keys of the profile's section, as Python's configparser
 * (and so botocore) reads the file: `key = value` or `key: value`, key
 * names in any case; a line indented deeper than the last key continues
 * that key's value: the keys of a nested value when the key's own value is
 * empty (`s3 =`, then `  addressing_style = path`), else more of the value
 * (never a key of its own). `#` and `;` start a comment line.
 */
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
    bool preset[S_INI_KEYS] = {false};
    for (size_t i = 0; i < S_INI_KEYS && want->keys[i]; i++) {
        preset[i] = want->outs[i][0] != '\0';
    }
    size_t number = 0;
    bool in_section = false;
    bool have_key = false;
    size_t key_indent = 0;
    /* The key of an open nested value ("s3"), or "". */
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
            size_t close = l.len;
            while (close > 1 && l.ptr[close - 1] != ']') {
                close--;
            }
            if (close <= 1) {
                rc = anvil_diag_set(diag, ANVIL_ECONFIG, number, 1, 0, "%s:%zu: a section header needs a closing ']'",
                                    path, number);
                break;
            }
            in_section = s_section_is(want, anvil_sv_slice(l, 1, close - 2));
            want->found = want->found || in_section;
            continue;
        }
        if (continued && !parent[0]) {
            continue; /* more of a value that goes on over lines: not a key */
        }
        /* A key: up to the first '=' or ':' (a nested value's keys: '=' only, as botocore splits them). */
        size_t eq = 0;
        while (eq < l.len && l.ptr[eq] != '=' && (continued || l.ptr[eq] != ':')) {
            eq++;
        }
        if (eq == l.len) {
            continue;
        }
        struct anvil_str_view key = anvil_sv_trim(anvil_sv_slice(l, 0, eq));
        struct anvil_str_view value = anvil_sv_trim(anvil_sv_slice(l, eq + 1, l.len - eq - 1));
        char named[160];
        if (!continued) {
            /* A key of the section, lower-cased (configparser's); an empty value opens a nested one. */
            have_key = true;
            key_indent = indent;
            size_t n = key.len < sizeof named ? key.len : sizeof named - 1;
            for (size_t i = 0; i < n; i++) {
                char c = key.ptr[i];
                named[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
            }
            named[n] = '\0';
            bool opens = value.len == 0 && n < sizeof parent;
            memcpy(parent, named, opens ? n : 0);
            parent[opens ? n : 0] = '\0';
            if (opens) {
                continue;
            }
        } else {
            snprintf(named, sizeof named, "%s.%.*s", parent, (int)(key.len > 64 ? 64 : key.len), key.ptr);
        }
        if (!in_section) {
            continue; /* another section's */
        }
        for (size_t i = 0; i < S_INI_KEYS && want->keys[i]; i++) {
            if (preset[i] || strcmp(named, want->keys[i]) != 0) {
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
    /* The last line read may be a key's. */
    anvil__cleanse(line, S_LINE_MAX);
    free(line);
    fclose(f);
    return rc;
}

int anvil__ini_read(const char *path, const char *kind, const char *name, const char *const *keys, char **outs,
                    const size_t *sizes, size_t count, bool *found, struct anvil_diag *diag) {
    if (count >= S_INI_KEYS) {
        return ANVIL_EINVAL;
    }
    struct s_ini_want want;
    memset(&want, 0, sizeof want);
    want.profile = name;
    want.config = kind != NULL;
    want.prefix = kind && strcmp(kind, "profile") != 0 ? kind : NULL;
    for (size_t i = 0; i < count; i++) {
        want.keys[i] = keys[i];
        want.outs[i] = outs[i];
        want.sizes[i] = sizes[i];
    }
    int rc = s_ini(path, &want, diag);
    if (found) {
        *found = want.found;
    }
    return rc;
}

static void s_default_path(char *out, size_t size, const char *explicit_path, const char *home, const char *file) {
    if (explicit_path && *explicit_path) {
        snprintf(out, size, "%s", explicit_path);
    } else {
        snprintf(out, size, "%s/.aws/%s", home ? home : "", file);
    }
}

void anvil__aws_paths(anvil_client_getenv_fn *lookup, void *ctx, char *credentials, size_t credentials_size,
                      char *config, size_t config_size) {
    s_default_path(credentials, credentials_size, lookup(ctx, "AWS_SHARED_CREDENTIALS_FILE"), lookup(ctx, "HOME"),
                   "credentials");
    s_default_path(config, config_size, lookup(ctx, "AWS_CONFIG_FILE"), lookup(ctx, "HOME"), "config");
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
    lookup = lookup ? lookup : anvil__getenv_system;
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
    /* Where the account id came from, with its keys ("" for the environment or none). */
    const char *account_file = "";
    if (from_env) {
        rc = s_from_environment(lookup, ctx, out, diag);
        const char *account = lookup(ctx, "AWS_ACCOUNT_ID");
        rc = rc == ANVIL_OK ? s_copy(out->account_id, sizeof out->account_id, account, "AWS_ACCOUNT_ID", diag) : rc;
        rc = rc == ANVIL_OK && out->account_id[0]
                 ? s_setting_check("aws_account_id", out->account_id, "AWS_ACCOUNT_ID", diag)
                 : rc;
    } else {
        /*
         * The keys, their token and their account id come from one place:
         * the credentials file's [NAME], else the config file's profile.
         */
        struct s_ini_want creds = {
            name,
            false,
            {"aws_access_key_id", "aws_secret_access_key", "aws_session_token", "aws_account_id"},
            {out->access_key_id, out->secret_access_key, out->session_token, out->account_id},
            {sizeof out->access_key_id, sizeof out->secret_access_key, sizeof out->session_token,
             sizeof out->account_id},
            false,
            NULL};
        rc = s_ini(credentials_path, &creds, diag);
        out->profile_found = creds.found;
        account_file = credentials_path;
        if (rc == ANVIL_OK && (!out->access_key_id[0] || !out->secret_access_key[0])) {
            /* The config file may hold keys too, under [profile NAME] (or [default]). */
            out->access_key_id[0] = out->secret_access_key[0] = out->session_token[0] = out->account_id[0] = '\0';
            creds.config = true;
            creds.found = false;
            rc = s_ini(config_path, &creds, diag);
            out->profile_found = out->profile_found || creds.found;
            account_file = config_path;
        }
        if (rc == ANVIL_OK && out->access_key_id[0] && out->secret_access_key[0]) {
            snprintf(out->source, sizeof out->source, "profile %.80s", name);
        } else {
            out->access_key_id[0] = out->secret_access_key[0] = out->session_token[0] = out->account_id[0] = '\0';
        }
        if (rc == ANVIL_OK && out->account_id[0]) {
            char where[2400];
            snprintf(where, sizeof where, "%s: [%s] aws_account_id", account_file,
                     account_file == config_path ? section : name);
            rc = s_setting_check("aws_account_id", out->account_id, where, diag);
        }
    }
    /* The region and the retry settings: the caller's, the environment's, then the profile's. */
    const char *r = region && *region ? region : lookup(ctx, "AWS_REGION");
    r = r && *r ? r : lookup(ctx, "AWS_DEFAULT_REGION");
    const char *ca = lookup(ctx, "AWS_CA_BUNDLE");
    if (rc == ANVIL_OK) {
        rc = s_copy(out->region, sizeof out->region, r, "the region", diag);
        if (rc == ANVIL_ECONFIG && region && *region) {
            rc = ANVIL_EINVAL; /* the caller's own argument, not a configuration */
            if (diag) {
                diag->code = rc;
            }
        }
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
    /*
     * The endpoint settings (the rules engine's built-ins): the
     * environment's, then the profile's, under the names botocore reads
     * (some under two: a top-level key and one in the `s3 =` value).
     */
    struct s_setting {
        const char *env, *key, *key2;
        char *out;
        size_t size;
    } settings[] = {
        {"AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint", NULL, out->use_fips_endpoint, sizeof out->use_fips_endpoint},
        {"AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint", NULL, out->use_dualstack_endpoint,
         sizeof out->use_dualstack_endpoint},
        {"AWS_STS_REGIONAL_ENDPOINTS", "sts_regional_endpoints", NULL, out->sts_regional_endpoints,
         sizeof out->sts_regional_endpoints},
        {"AWS_S3_US_EAST_1_REGIONAL_ENDPOINT", "s3_us_east_1_regional_endpoint", "s3.us_east_1_regional_endpoint",
         out->s3_us_east_1_regional_endpoint, sizeof out->s3_us_east_1_regional_endpoint},
        {"AWS_S3_USE_ARN_REGION", "s3_use_arn_region", "s3.use_arn_region", out->s3_use_arn_region,
         sizeof out->s3_use_arn_region},
        {"AWS_S3_DISABLE_MULTIREGION_ACCESS_POINTS", "s3_disable_multiregion_access_points",
         "s3.s3_disable_multiregion_access_points", out->s3_disable_multiregion_access_points,
         sizeof out->s3_disable_multiregion_access_points},
        {NULL, "s3.addressing_style", NULL, out->s3_addressing_style, sizeof out->s3_addressing_style},
        {NULL, "s3.use_accelerate_endpoint", NULL, out->s3_use_accelerate_endpoint,
         sizeof out->s3_use_accelerate_endpoint},
        {NULL, "s3.use_dualstack_endpoint", NULL, out->s3_use_dualstack_endpoint,
         sizeof out->s3_use_dualstack_endpoint},
        {"AWS_ACCOUNT_ID_ENDPOINT_MODE", "account_id_endpoint_mode", NULL, out->account_id_endpoint_mode,
         sizeof out->account_id_endpoint_mode},
    };
    enum { S_SETTINGS = sizeof settings / sizeof settings[0] };
    _Static_assert(4 + 2 * S_SETTINGS < S_INI_KEYS, "the config file's keys (and a NULL) fit S_INI_KEYS");
    bool from_environment[S_SETTINGS] = {false};
    for (size_t i = 0; i < S_SETTINGS && rc == ANVIL_OK; i++) {
        const char *v = settings[i].env ? lookup(ctx, settings[i].env) : NULL;
        if (v && *v) {
            /* Set in the environment: it outranks the profile. */
            rc = s_copy(settings[i].out, settings[i].size, v, settings[i].env, diag);
            rc = rc == ANVIL_OK ? s_setting_check(settings[i].key, v, settings[i].env, diag) : rc;
            from_environment[i] = true;
        }
    }
    if (rc == ANVIL_OK) {
        struct s_ini_want conf = {
            name,
            true,
            {"region", "retry_mode", "max_attempts", "ca_bundle"},
            {out->region, out->retry_mode, out->max_attempts, out->ca_bundle},
            {sizeof out->region, sizeof out->retry_mode, sizeof out->max_attempts, sizeof out->ca_bundle},
            false,
            NULL};
        size_t k = 4;
        for (size_t i = 0; i < S_SETTINGS; i++) {
            for (int alt = 0; alt < 2; alt++) {
                const char *key_name = alt ? settings[i].key2 : settings[i].key;
                if (key_name) {
                    conf.keys[k] = key_name;
                    conf.outs[k] = settings[i].out;
                    conf.sizes[k++] = settings[i].size;
                }
            }
        }
        rc = s_ini(config_path, &conf, diag);
        out->profile_found = out->profile_found || conf.found;
    }
    for (size_t i = 0; i < S_SETTINGS && rc == ANVIL_OK; i++) {
        if (!from_environment[i] && settings[i].out[0]) {
            char where[1200];
            snprintf(where, sizeof where, "%s: [%s] %s%s%s", config_path, section, settings[i].key,
                     settings[i].key2 ? " (or " : "", settings[i].key2 ? settings[i].key2 : "");
            if (settings[i].key2) {
                snprintf(where + strlen(where), sizeof where - strlen(where), ")");
            }
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
