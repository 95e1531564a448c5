/*
 * libFuzzer target: the input as the shared credentials file and as the
 * config file of anvil_aws_config_resolve(), for a few profile names. It
 * must answer ANVIL_OK or ANVIL_ECONFIG with a message naming the file, and
 * every string it fills (the endpoint settings, nested `s3 =` keys among
 * them) must end inside its field, every setting it keeps checked.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anvil/anvil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char s_path[64];

static const char *s_lookup(void *ctx, const char *name) {
    (void)ctx;
    if (strcmp(name, "AWS_SHARED_CREDENTIALS_FILE") == 0 || strcmp(name, "AWS_CONFIG_FILE") == 0) {
        return s_path;
    }
    return NULL;
}

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "aws_config fuzz: %s\n", what);
        abort();
    }
}

static bool s_ends_inside(const char *field, size_t size) {
    return memchr(field, '\0', size) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!s_path[0]) {
        snprintf(s_path, sizeof s_path, "/tmp/anvil-fuzz-aws-%ld.ini", (long)getpid());
    }
    FILE *f = fopen(s_path, "wb");
    if (!f) {
        return 0;
    }
    size_t wrote = fwrite(data, 1, size, f);
    fclose(f);
    if (wrote != size) {
        return 0;
    }
    static const char *const profiles[] = {NULL, "default", "ops", "profile ops", "a]b"};
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        struct anvil_aws_config c;
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil_aws_config_resolve(profiles[i], NULL, s_lookup, NULL, &c, &diag);
        s_check(rc == ANVIL_OK || rc == ANVIL_ECONFIG, "unexpected status");
        s_check(rc == ANVIL_OK || strstr(diag.message, s_path) != NULL, "an error that does not name the file");
        s_check(s_ends_inside(c.access_key_id, sizeof c.access_key_id) &&
                    s_ends_inside(c.secret_access_key, sizeof c.secret_access_key) &&
                    s_ends_inside(c.session_token, sizeof c.session_token) &&
                    s_ends_inside(c.region, sizeof c.region) && s_ends_inside(c.source, sizeof c.source) &&
                    s_ends_inside(c.retry_mode, sizeof c.retry_mode) &&
                    s_ends_inside(c.max_attempts, sizeof c.max_attempts) &&
                    s_ends_inside(c.use_fips_endpoint, sizeof c.use_fips_endpoint) &&
                    s_ends_inside(c.s3_addressing_style, sizeof c.s3_addressing_style) &&
                    s_ends_inside(c.s3_use_dualstack_endpoint, sizeof c.s3_use_dualstack_endpoint) &&
                    s_ends_inside(c.account_id, sizeof c.account_id) &&
                    s_ends_inside(c.account_id_endpoint_mode, sizeof c.account_id_endpoint_mode),
                "a field without its end");
        /* A setting that was read was checked: an account id is digits only. */
        s_check(rc != ANVIL_OK || strspn(c.account_id, "0123456789") == strlen(c.account_id),
                "an account id that is not digits");
        s_check(!c.source[0] || (c.access_key_id[0] && c.secret_access_key[0]), "a source without keys");
    }
    unlink(s_path);
    return 0;
}
