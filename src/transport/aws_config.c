/*
 * Credentials and region the way AWS tools find them: the environment
 * first, then the profile in the shared credentials and config files
 * (INI: `[name]` in credentials, `[profile name]` or `[default]` in config).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/client.h"

static const char *s_env(void *ctx, const char *name) {
    (void)ctx;
    return getenv(name);
}

static void s_copy(char *dst, size_t size, const char *src) {
    snprintf(dst, size, "%s", src ? src : "");
}

/* The value of `key` in section `section` of the INI file `path` (into `out`); false when absent. */
struct s_ini_want {
    const char *section;
    const char *keys[4];
    char *outs[4];
    size_t sizes[4];
};

static struct anvil_str_view s_trim(struct anvil_str_view s) {
    return anvil_sv_trim(s);
}

static int s_ini(const char *path, struct s_ini_want *want, struct anvil_diag *diag) {
    FILE *f = fopen(path, "r");
    if (!f) {
        return ANVIL_OK; /* a missing file is no error */
    }
    char line[4096];
    size_t number = 0;
    bool in_section = false;
    int rc = ANVIL_OK;
    while (fgets(line, sizeof line, f)) {
        number++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
            /* Its tail would read as a line of its own: a clear error instead. */
            rc = anvil_diag_set(diag, ANVIL_EINVAL, number, 1, 0, "%s:%zu: a line longer than %zu bytes", path, number,
                                sizeof line - 2);
            break;
        }
        struct anvil_str_view l = s_trim(anvil_sv(line, len));
        if (l.len == 0 || l.ptr[0] == '#' || l.ptr[0] == ';') {
            continue;
        }
        if (l.ptr[0] == '[') {
            if (l.ptr[l.len - 1] != ']') {
                rc = anvil_diag_set(diag, ANVIL_EINVAL, number, 1, 0, "%s:%zu: a section header needs a closing ']'",
                                    path, number);
                break;
            }
            struct anvil_str_view name = s_trim(anvil_sv_slice(l, 1, l.len - 2));
            in_section = anvil_sv_eq_cstr(name, want->section);
            continue;
        }
        size_t eq = anvil_sv_find_byte(l, 0, '=');
        if (eq == SIZE_MAX) {
            continue; /* nested values (s3 = ...) and their indented lines: not ours */
        }
        if (!in_section) {
            continue;
        }
        struct anvil_str_view key = s_trim(anvil_sv_slice(l, 0, eq));
        struct anvil_str_view value = s_trim(anvil_sv_slice(l, eq + 1, l.len - eq - 1));
        for (size_t i = 0; i < 4 && want->keys[i]; i++) {
            if (anvil_sv_eq_cstr(key, want->keys[i]) && !want->outs[i][0]) {
                snprintf(want->outs[i], want->sizes[i], "%.*s", (int)value.len, value.ptr);
            }
        }
    }
    fclose(f);
    return rc;
}

static void s_default_path(char *out, size_t size, const char *explicit_path, const char *home, const char *file) {
    if (explicit_path && *explicit_path) {
        s_copy(out, size, explicit_path);
    } else {
        snprintf(out, size, "%s/.aws/%s", home ? home : "", file);
    }
}

int anvil_aws_config_resolve(const char *profile, const char *region, anvil_client_getenv_fn *lookup, void *ctx,
                             struct anvil_aws_config *out, struct anvil_diag *diag) {
    memset(out, 0, sizeof *out);
    lookup = lookup ? lookup : s_env;
    const char *name = profile && *profile ? profile : lookup(ctx, "AWS_PROFILE");
    name = name && *name ? name : "default";
    const char *key = lookup(ctx, "AWS_ACCESS_KEY_ID");
    const char *secret = lookup(ctx, "AWS_SECRET_ACCESS_KEY");
    int rc = ANVIL_OK;
    char credentials_path[1024], config_path[1024];
    s_default_path(credentials_path, sizeof credentials_path, lookup(ctx, "AWS_SHARED_CREDENTIALS_FILE"),
                   lookup(ctx, "HOME"), "credentials");
    s_default_path(config_path, sizeof config_path, lookup(ctx, "AWS_CONFIG_FILE"), lookup(ctx, "HOME"), "config");
    bool from_env = key && *key && secret && *secret && !(profile && *profile);
    if (from_env) {
        s_copy(out->access_key_id, sizeof out->access_key_id, key);
        s_copy(out->secret_access_key, sizeof out->secret_access_key, secret);
        s_copy(out->session_token, sizeof out->session_token, lookup(ctx, "AWS_SESSION_TOKEN"));
        s_copy(out->source, sizeof out->source, "environment");
    } else {
        struct s_ini_want creds = {
            name,
            {"aws_access_key_id", "aws_secret_access_key", "aws_session_token", NULL},
            {out->access_key_id, out->secret_access_key, out->session_token, NULL},
            {sizeof out->access_key_id, sizeof out->secret_access_key, sizeof out->session_token, 0}};
        rc = s_ini(credentials_path, &creds, diag);
        if (rc == ANVIL_OK && (!out->access_key_id[0] || !out->secret_access_key[0])) {
            /* The config file may hold keys too, under [profile NAME] (or [default]). */
            char section[160];
            snprintf(section, sizeof section, strcmp(name, "default") == 0 ? "%s" : "profile %s", name);
            creds.section = section;
            rc = s_ini(config_path, &creds, diag);
        }
        if (rc == ANVIL_OK && out->access_key_id[0] && out->secret_access_key[0]) {
            snprintf(out->source, sizeof out->source, "profile %.80s", name);
        } else if (rc == ANVIL_OK) {
            out->access_key_id[0] = out->secret_access_key[0] = out->session_token[0] = '\0';
        }
    }
    /* The region and the retry settings: the caller's, the environment's, then the profile's. */
    const char *r = region && *region ? region : lookup(ctx, "AWS_REGION");
    r = r && *r ? r : lookup(ctx, "AWS_DEFAULT_REGION");
    s_copy(out->region, sizeof out->region, r);
    s_copy(out->retry_mode, sizeof out->retry_mode, lookup(ctx, "AWS_RETRY_MODE"));
    s_copy(out->max_attempts, sizeof out->max_attempts, lookup(ctx, "AWS_MAX_ATTEMPTS"));
    if (rc == ANVIL_OK && (!out->region[0] || !out->retry_mode[0] || !out->max_attempts[0])) {
        char section[160];
        snprintf(section, sizeof section, strcmp(name, "default") == 0 ? "%s" : "profile %s", name);
        struct s_ini_want conf = {section,
                                  {"region", "retry_mode", "max_attempts", NULL},
                                  {out->region, out->retry_mode, out->max_attempts, NULL},
                                  {sizeof out->region, sizeof out->retry_mode, sizeof out->max_attempts, 0}};
        rc = s_ini(config_path, &conf, diag);
    }
    return rc;
}
