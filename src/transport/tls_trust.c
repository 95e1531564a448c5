/* Where TLS trust comes from (tls_trust.h). */

#include "transport/tls_trust.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/crypto.h"
#include "transport/credentials_internal.h"

static bool s_hex(char ch) {
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
}

bool anvil__dir_has_hashed_certs(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        return false;
    }
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        size_t len = strlen(name);
        bool ok = len >= 10 && name[8] == '.';
        for (size_t i = 0; ok && i < len; i++) {
            ok = i == 8 || (i < 8 ? s_hex(name[i]) : (name[i] >= '0' && name[i] <= '9'));
        }
        found = ok;
    }
    closedir(d);
    return found;
}

/* `value` into `to` (size 1024): ANVIL_ECONFIG naming `what` when it does not fit. */
static int s_copy(char *to, const char *value, const char *what, struct anvil_diag *diag) {
    size_t len = strlen(value);
    if (len >= sizeof(((struct anvil__tls_trust *)0)->file)) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s is longer than %zu bytes", what,
                              sizeof(((struct anvil__tls_trust *)0)->file) - 1);
    }
    memcpy(to, value, len + 1);
    return ANVIL_OK;
}

/* Whether `path` is the file `system_file` names (the same file, however it is reached). */
static bool s_same_file(const char *path, const char *system_file) {
    struct stat a, b;
    return system_file && *system_file && stat(path, &a) == 0 && stat(system_file, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int anvil__tls_trust_resolve(const char *ca_bundle, anvil_getenv_fn *lookup, void *ctx, const char *system_file,
                             const char *system_dir, struct anvil__tls_trust *out, struct anvil_diag *diag) {
    out->file[0] = '\0';
    out->dir[0] = '\0';
    system_file = system_file && *system_file ? system_file : NULL;
    system_dir = system_dir && *system_dir ? system_dir : NULL;
    const char *file, *dir;
    if (ca_bundle && *ca_bundle) {
        file = ca_bundle;
        dir = NULL;
    } else {
        lookup = lookup ? lookup : anvil__getenv_system;
        file = lookup(ctx, "SSL_CERT_FILE");
        dir = lookup(ctx, "SSL_CERT_DIR");
        file = file && *file ? file : system_file;
        dir = dir && *dir ? dir : system_dir;
    }
    /* The system's file, alone or beside the system's directory: the directory serves alone when it can. */
    if (file && system_dir && (!dir || strcmp(dir, system_dir) == 0) &&
        (file == system_file || s_same_file(file, system_file)) && anvil__dir_has_hashed_certs(system_dir)) {
        file = NULL;
        dir = system_dir;
    }
    const char *file_setting = file == ca_bundle     ? "the CA bundle"
                               : file == system_file ? "OpenSSL's CA file"
                                                     : "SSL_CERT_FILE";
    const char *dir_setting = dir == system_dir ? "OpenSSL's CA directory" : "SSL_CERT_DIR";
    int rc = file ? s_copy(out->file, file, file_setting, diag) : ANVIL_OK;
    return rc == ANVIL_OK && dir ? s_copy(out->dir, dir, dir_setting, diag) : rc;
}

int anvil__tls_trust_resolve_system(const char *ca_bundle, anvil_getenv_fn *lookup, void *ctx,
                                    struct anvil__tls_trust *out, struct anvil_diag *diag) {
    const char *system_file, *system_dir;
    anvil__crypto_default_ca(&system_file, &system_dir);
    return anvil__tls_trust_resolve(ca_bundle, lookup, ctx, system_file, system_dir, out, diag);
}

void anvil__tls_trust_apply(CURL *h, const struct anvil__tls_trust *t) {
    curl_easy_setopt(h, CURLOPT_CAINFO, t->file[0] ? t->file : NULL);
    curl_easy_setopt(h, CURLOPT_CAPATH, t->dir[0] ? t->dir : NULL);
}
