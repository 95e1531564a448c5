#ifndef ANVIL_TRANSPORT_TLS_TRUST_H
#define ANVIL_TRANSPORT_TLS_TRUST_H

/*
 * Which certificates verify a TLS server, as libcurl is told (CAINFO and
 * CAPATH). Not installed.
 *
 * - A CA bundle the caller or the configuration names (the client's
 *   ca_bundle option, AWS_CA_BUNDLE, a profile's ca_bundle) is the only
 *   trust, as it is for the AWS CLI: the system's certificates are not added.
 * - Otherwise the system's, with OpenSSL's overrides as the curl tool reads
 *   them: SSL_CERT_FILE replaces the system's CA file, SSL_CERT_DIR its CA
 *   directory (a ':'-separated list, as OpenSSL takes it).
 * - Where that comes to the system's CA file (OpenSSL's default one, or
 *   the same file named by a setting, as AWS_CA_BUNDLE often is), alone or
 *   beside the system's CA directory, the directory serves alone when it
 *   holds OpenSSL's hashed links: update-ca-certificates makes both from the
 *   same certificates, and from a directory OpenSSL reads only the issuer a
 *   handshake needs, where the file (about 140 certificates on Debian 12) is
 *   parsed whole by every process (16 ms and 1.2 MB, docs/performance.md).
 */

#include <stdbool.h>

#include "anvil/credentials.h"
#include "anvil/diag.h"
#include "transport/curl_lib.h"

struct anvil__tls_trust {
    /* The CA file and the CA directory libcurl is given ("" = none). */
    char file[1024];
    char dir[1024];
};

/*
 * Resolves the rules above. `ca_bundle` NULL or "" = none; `lookup` NULL =
 * getenv; `system_file` and `system_dir` are the system's CA file and
 * directory (NULL = none): OpenSSL's defaults (anvil__crypto_default_ca()),
 * which both transports use. ANVIL_OK, or ANVIL_ECONFIG with diag naming
 * the setting whose path is too long.
 */
int anvil__tls_trust_resolve(const char *ca_bundle, anvil_getenv_fn *lookup, void *ctx, const char *system_file,
                             const char *system_dir, struct anvil__tls_trust *out, struct anvil_diag *diag);

/* anvil__tls_trust_resolve() with the system's places OpenSSL's defaults (libcrypto must be loaded:
 * anvil__crypto_load). */
int anvil__tls_trust_resolve_system(const char *ca_bundle, anvil_getenv_fn *lookup, void *ctx,
                                    struct anvil__tls_trust *out, struct anvil_diag *diag);

/* Sets `h`'s CAINFO and CAPATH (an empty one as none). */
void anvil__tls_trust_apply(CURL *h, const struct anvil__tls_trust *t);

/* Whether `dir` holds an entry named as OpenSSL's hashed links are: 8 hex digits, '.', a number. */
bool anvil__dir_has_hashed_certs(const char *dir);

#endif
