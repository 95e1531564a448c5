/*
 * Where TLS trust comes from (src/transport/tls_trust.h): a CA bundle alone,
 * else the system's CA directory in place of its CA file when the directory
 * holds OpenSSL's hashed links, with SSL_CERT_FILE and SSL_CERT_DIR replacing
 * their parts. The environment is a table; the "system" directories are
 * fresh temporary folders.
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "transport/tls_trust.h"

struct s_env {
    const char *file;
    const char *dir;
};

static const char *s_lookup(void *ctx, const char *name) {
    const struct s_env *env = ctx;
    if (strcmp(name, "SSL_CERT_FILE") == 0) {
        return env->file;
    }
    return strcmp(name, "SSL_CERT_DIR") == 0 ? env->dir : NULL;
}

/* A fresh folder holding an empty file named `entry` (NULL: nothing). */
static bool s_folder(char *path, size_t size, const char *entry) {
    snprintf(path, size, "%s/anvil-trust-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(path)) {
        return false;
    }
    if (entry) {
        char file[600];
        snprintf(file, sizeof file, "%s/%s", path, entry);
        FILE *f = fopen(file, "w");
        return f && fclose(f) == 0;
    }
    return true;
}

static void s_remove(const char *path, const char *entry) {
    if (entry) {
        char file[600];
        snprintf(file, sizeof file, "%s/%s", path, entry);
        unlink(file);
    }
    rmdir(path);
}

TEST(tls_trust_hashed_names) {
    const char *yes[] = {"0123abcd.0", "fedcba98.12"};
    const char *no[] = {"0123ABCD.0", "0123abcd.r0", "0123abcd.", "0123abc.0", "ca-certificates.crt", "0123abcd0.0"};
    char dir[512];
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        CHECK(s_folder(dir, sizeof dir, yes[i]));
        bool found = anvil__dir_has_hashed_certs(dir);
        s_remove(dir, yes[i]);
        CHECK(found);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        CHECK(s_folder(dir, sizeof dir, no[i]));
        bool found = anvil__dir_has_hashed_certs(dir);
        s_remove(dir, no[i]);
        CHECK(!found);
    }
    CHECK(!anvil__dir_has_hashed_certs("/nonexistent/anvil-trust"));
done:;
}

TEST(tls_trust_rules) {
    char hashed[512] = "", plain[512] = "";
    CHECK(s_folder(hashed, sizeof hashed, "0123abcd.0"));
    CHECK(s_folder(plain, sizeof plain, "ca.pem"));
    struct anvil__tls_trust trust;
    struct s_env none = {NULL, NULL};

    /* A bundle is the only trust, whatever the environment says. */
    struct s_env both = {"/env/file.pem", "/env/certs"};
    CHECK_OK(anvil__tls_trust_resolve("/my/bundle.pem", s_lookup, &both, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "/my/bundle.pem");
    CHECK_STR_EQ(trust.dir, "");

    /* The system's hashed directory serves in place of its file. */
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &none, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");
    CHECK_STR_EQ(trust.dir, hashed);
    CHECK_OK(anvil__tls_trust_resolve("", s_lookup, &none, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");

    /* A directory without hashed links cannot serve alone: the file stays. */
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &none, "/sys/ca.crt", plain, &trust, NULL));
    CHECK_STR_EQ(trust.file, "/sys/ca.crt");
    CHECK_STR_EQ(trust.dir, plain);

    /* SSL_CERT_FILE replaces the file; the system's directory stays. */
    struct s_env file_only = {"/env/file.pem", NULL};
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &file_only, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "/env/file.pem");
    CHECK_STR_EQ(trust.dir, hashed);

    /* SSL_CERT_DIR replaces the directory, so the system's certificates come from its file again. */
    struct s_env dir_only = {NULL, "/env/certs:/more/certs"};
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &dir_only, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "/sys/ca.crt");
    CHECK_STR_EQ(trust.dir, "/env/certs:/more/certs");

    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &both, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "/env/file.pem");
    CHECK_STR_EQ(trust.dir, "/env/certs");

    /* Empty variables are unset ones. */
    struct s_env empty = {"", ""};
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &empty, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");
    CHECK_STR_EQ(trust.dir, hashed);

    /* A libcurl without built-in places: nothing, as libcurl has it. */
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &none, NULL, NULL, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");
    CHECK_STR_EQ(trust.dir, "");
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &none, "/sys/ca.crt", NULL, &trust, NULL));
    CHECK_STR_EQ(trust.file, "/sys/ca.crt");
    CHECK_STR_EQ(trust.dir, "");

    /* The system's file named by a setting (the same file, by another path) is served from the directory too. */
    char sys_file[600], alias[600];
    snprintf(sys_file, sizeof sys_file, "%s/ca.pem", plain);
    snprintf(alias, sizeof alias, "%s/../%s/ca.pem", plain, strrchr(plain, '/') + 1);
    CHECK_OK(anvil__tls_trust_resolve(alias, s_lookup, &none, sys_file, hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");
    CHECK_STR_EQ(trust.dir, hashed);
    struct s_env sys_as_env = {alias, NULL};
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &sys_as_env, sys_file, hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");
    CHECK_STR_EQ(trust.dir, hashed);
    struct s_env sys_and_dir = {alias, hashed};
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &sys_and_dir, sys_file, hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, "");
    /* ...but not beside another directory, nor without hashed links, nor when it is another file. */
    struct s_env sys_other_dir = {alias, "/env/certs"};
    CHECK_OK(anvil__tls_trust_resolve(NULL, s_lookup, &sys_other_dir, sys_file, hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, alias);
    CHECK_STR_EQ(trust.dir, "/env/certs");
    CHECK_OK(anvil__tls_trust_resolve(alias, s_lookup, &none, sys_file, plain, &trust, NULL));
    CHECK_STR_EQ(trust.file, alias);
    CHECK_STR_EQ(trust.dir, "");
    CHECK_OK(anvil__tls_trust_resolve(alias, s_lookup, &none, "/sys/ca.crt", hashed, &trust, NULL));
    CHECK_STR_EQ(trust.file, alias);
    CHECK_STR_EQ(trust.dir, "");

    /* A path that does not fit is an error naming the variable, not a cut path. */
    char long_path[1100];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[0] = '/';
    long_path[sizeof long_path - 1] = '\0';
    struct s_env too_long = {long_path, NULL};
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__tls_trust_resolve(NULL, s_lookup, &too_long, "/sys/ca.crt", hashed, &trust, &diag),
                 ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "SSL_CERT_FILE is longer than 1023 bytes");
    struct s_env dir_too_long = {NULL, long_path};
    CHECK_STATUS(anvil__tls_trust_resolve(NULL, s_lookup, &dir_too_long, "/sys/ca.crt", hashed, &trust, &diag),
                 ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "SSL_CERT_DIR is longer than 1023 bytes");
done:
    if (hashed[0]) {
        s_remove(hashed, "0123abcd.0");
    }
    if (plain[0]) {
        s_remove(plain, "ca.pem");
    }
}
