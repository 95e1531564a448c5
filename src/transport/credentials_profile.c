/* A profile as the credential providers read it: both shared files, the credentials file's values first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "core/crypto.h"
#include "transport/credentials_internal.h"

static const struct {
    const char *name;
    size_t size;
} s_keys[ANVIL__PK_COUNT] = {
    [ANVIL__PK_ACCESS_KEY_ID] = {"aws_access_key_id", 128},
    [ANVIL__PK_SECRET_ACCESS_KEY] = {"aws_secret_access_key", 128},
    [ANVIL__PK_SESSION_TOKEN] = {"aws_session_token", 8192},
    [ANVIL__PK_ACCOUNT_ID] = {"aws_account_id", 16},
    [ANVIL__PK_ROLE_ARN] = {"role_arn", 2048},
    [ANVIL__PK_SOURCE_PROFILE] = {"source_profile", 128},
    [ANVIL__PK_CREDENTIAL_SOURCE] = {"credential_source", 64},
    [ANVIL__PK_EXTERNAL_ID] = {"external_id", 1300},
    [ANVIL__PK_ROLE_SESSION_NAME] = {"role_session_name", 128},
    [ANVIL__PK_DURATION_SECONDS] = {"duration_seconds", 16},
    [ANVIL__PK_MFA_SERIAL] = {"mfa_serial", 256},
    [ANVIL__PK_WEB_IDENTITY_TOKEN_FILE] = {"web_identity_token_file", 1024},
    [ANVIL__PK_SSO_SESSION] = {"sso_session", 128},
    [ANVIL__PK_SSO_START_URL] = {"sso_start_url", 1024},
    [ANVIL__PK_SSO_REGION] = {"sso_region", 64},
    [ANVIL__PK_SSO_ACCOUNT_ID] = {"sso_account_id", 16},
    [ANVIL__PK_SSO_ROLE_NAME] = {"sso_role_name", 128},
    [ANVIL__PK_CREDENTIAL_PROCESS] = {"credential_process", 8192},
    [ANVIL__PK_REGION] = {"region", 64},
};

const char *anvil__profile_key_name(enum anvil__profile_key key) {
    return key < ANVIL__PK_COUNT ? s_keys[key].name : "";
}

void anvil__profile_free(struct anvil__profile *p) {
    if (p && p->storage) {
        size_t total = 0;
        for (size_t i = 0; i < ANVIL__PK_COUNT; i++) {
            total += 2 * s_keys[i].size;
        }
        anvil__cleanse(p->storage, total);
        anvil_mem_release(p->allocator, p->storage);
        p->storage = NULL;
    }
}

int anvil__profile_load(struct anvil_allocator *allocator, anvil_getenv_fn *lookup, void *ctx, const char *name,
                        struct anvil__profile *out, struct anvil_diag *diag) {
    memset(out, 0, sizeof *out);
    out->allocator = allocator;
    lookup = lookup ? lookup : anvil__getenv_system;
    if (strlen(name) >= sizeof out->name) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "the profile name is longer than %zu bytes",
                              sizeof out->name - 1);
    }
    snprintf(out->name, sizeof out->name, "%s", name);
    anvil__aws_paths(lookup, ctx, out->credentials_path, sizeof out->credentials_path, out->config_path,
                     sizeof out->config_path);
    size_t total = 0;
    for (size_t i = 0; i < ANVIL__PK_COUNT; i++) {
        total += 2 * s_keys[i].size;
    }
    out->storage = anvil_mem_acquire(allocator, total);
    if (!out->storage) {
        return ANVIL_ENOMEM;
    }
    memset(out->storage, 0, total);
    const char *names[ANVIL__PK_COUNT];
    size_t sizes[ANVIL__PK_COUNT];
    char *at = out->storage;
    for (size_t f = 0; f < 2; f++) {
        for (size_t i = 0; i < ANVIL__PK_COUNT; i++) {
            out->values[f][i] = at;
            at += s_keys[i].size;
        }
    }
    for (size_t i = 0; i < ANVIL__PK_COUNT; i++) {
        names[i] = s_keys[i].name;
        sizes[i] = s_keys[i].size;
    }
    int rc = anvil__ini_read(out->credentials_path, NULL, name, names, out->values[0], sizes, ANVIL__PK_COUNT,
                             &out->in_credentials, diag);
    if (rc == ANVIL_OK) {
        rc = anvil__ini_read(out->config_path, "profile", name, names, out->values[1], sizes, ANVIL__PK_COUNT,
                             &out->in_config, diag);
    }
    if (rc != ANVIL_OK) {
        anvil__profile_free(out);
    }
    return rc;
}

const char *anvil__profile_get(const struct anvil__profile *p, enum anvil__profile_key key) {
    if (!p->storage || key >= ANVIL__PK_COUNT) {
        return "";
    }
    return p->values[0][key][0] ? p->values[0][key] : p->values[1][key];
}
