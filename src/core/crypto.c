/* Hashes from libcrypto loaded on first use; a wipe that stays (crypto.h). */

#include "core/crypto.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/x509.h>
#include <string.h>

#include "anvil/status.h"
#include "core/diag_origin.h"
#include "core/lazy_lib.h"

/* The libcrypto functions anvil calls, typed as OpenSSL declares them. */
struct s_crypto_api {
    __typeof__(&EVP_Digest) digest;
    __typeof__(&EVP_md5) md5;
    __typeof__(&EVP_sha1) sha1;
    __typeof__(&EVP_sha256) sha256;
    __typeof__(&HMAC) hmac;
    __typeof__(&X509_get_default_cert_file) default_cert_file;
    __typeof__(&X509_get_default_cert_dir) default_cert_dir;
};
static struct s_crypto_api s_crypto;

static const struct anvil__lazy_symbol s_symbols[] = {
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, digest, "EVP_Digest"),
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, md5, "EVP_md5"),
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, sha1, "EVP_sha1"),
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, sha256, "EVP_sha256"),
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, hmac, "HMAC"),
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, default_cert_file, "X509_get_default_cert_file"),
    ANVIL__LAZY_SYMBOL(struct s_crypto_api, default_cert_dir, "X509_get_default_cert_dir"),
};

static const char *const s_sonames[] = {"libcrypto.so.3", "libcrypto.so", NULL};

static struct anvil__lazy_lib s_lib =
    ANVIL__LAZY_LIB("OpenSSL's libcrypto (SigV4, checksums)", s_sonames, s_symbols, &s_crypto, NULL);

int anvil__crypto_load(struct anvil_diag *diag) {
    return anvil__lazy_load(&s_lib, diag);
}

void anvil__crypto_default_ca(const char **file, const char **dir) {
    *file = s_crypto.default_cert_file ? s_crypto.default_cert_file() : NULL;
    *dir = s_crypto.default_cert_dir ? s_crypto.default_cert_dir() : NULL;
}

int anvil__digest(enum anvil__digest_kind kind, const void *data, size_t len, unsigned char *out,
                  struct anvil_diag *diag) {
    int rc = anvil__crypto_load(diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const EVP_MD *md = kind == ANVIL__MD5 ? s_crypto.md5() : kind == ANVIL__SHA1 ? s_crypto.sha1() : s_crypto.sha256();
    unsigned int n = 0;
    if (s_crypto.digest(len ? data : "", len, out, &n, md, NULL) != 1 || n != (unsigned)kind) {
        return anvil_diag_set(diag, ANVIL_EINTERNAL, 0, 0, 0, "libcrypto failed to make a digest");
    }
    return ANVIL_OK;
}

int anvil__hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, unsigned char out[32],
                       struct anvil_diag *diag) {
    int rc = anvil__crypto_load(diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    unsigned int n = 0;
    if (key_len > INT32_MAX ||
        !s_crypto.hmac(s_crypto.sha256(), key, (int)key_len, len ? data : (const void *)"", len, out, &n) || n != 32) {
        return anvil_diag_set(diag, ANVIL_EINTERNAL, 0, 0, 0, "libcrypto failed to make an HMAC");
    }
    return ANVIL_OK;
}

/* Called through a volatile pointer, so the compiler cannot prove the stores dead and drop them. */
static void *(*const volatile s_memset)(void *, int, size_t) = memset;

void anvil__cleanse(void *p, size_t len) {
    if (p && len) {
        s_memset(p, 0, len);
    }
}
