#ifndef ANVIL_CORE_CRYPTO_H
#define ANVIL_CORE_CRYPTO_H

/*
 * The hashes anvil uses (SigV4's SHA-256 and HMAC, Content-MD5, SSO's cache
 * key SHA-1), from OpenSSL's libcrypto loaded on first use, and a wipe the
 * compiler cannot drop. Not installed.
 */

#include <stddef.h>

#include "anvil/diag.h"

enum anvil__digest_kind {
    ANVIL__MD5 = 16, /* bytes of the digest */
    ANVIL__SHA1 = 20,
    ANVIL__SHA256 = 32
};

/*
 * Loads libcrypto once (the digests below do it themselves): ANVIL_OK, or
 * ANVIL_EUNSUPPORTED with `diag` saying what is missing. A client calls it
 * when it is made, so a machine without libcrypto fails there, clearly.
 */
int anvil__crypto_load(struct anvil_diag *diag);

/* OpenSSL's default CA file and directory (/usr/lib/ssl/cert.pem and /usr/lib/ssl/certs on Debian); NULL before a load.
 */
void anvil__crypto_default_ca(const char **file, const char **dir);

/*
 * The digest of `len` bytes into `out` (as many bytes as the kind's value).
 * ANVIL_OK; ANVIL_EUNSUPPORTED when libcrypto cannot be loaded (`diag` says
 * why); ANVIL_EINTERNAL when it fails.
 */
int anvil__digest(enum anvil__digest_kind kind, const void *data, size_t len, unsigned char *out,
                  struct anvil_diag *diag);

/* HMAC-SHA256 of `data` under `key` into `out`; the statuses of anvil__digest(). */
int anvil__hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, unsigned char out[32],
                       struct anvil_diag *diag);

/* Overwrites `len` bytes at `p` with zeros in a way the compiler cannot drop (secrets going out of use). */
void anvil__cleanse(void *p, size_t len);

#endif
