/* libssl loaded on first use (ssl_lib.h). */

#include "transport/ssl_lib.h"

#include <stddef.h>

#include "core/lazy_lib.h"

struct anvil__ssl_api anvil__ssl;

#define S_SYMBOL(field, name) ANVIL__LAZY_SYMBOL(struct anvil__ssl_api, field, name)
static const struct anvil__lazy_symbol s_symbols[] = {
    S_SYMBOL(tls_client_method, "TLS_client_method"),
    S_SYMBOL(ctx_new, "SSL_CTX_new"),
    S_SYMBOL(ctx_free, "SSL_CTX_free"),
    S_SYMBOL(ctx_set_verify, "SSL_CTX_set_verify"),
    S_SYMBOL(ctx_load_verify_locations, "SSL_CTX_load_verify_locations"),
    S_SYMBOL(ctx_ctrl, "SSL_CTX_ctrl"),
    S_SYMBOL(ctx_set_options, "SSL_CTX_set_options"),
    S_SYMBOL(ssl_new, "SSL_new"),
    S_SYMBOL(ssl_free, "SSL_free"),
    S_SYMBOL(set_fd, "SSL_set_fd"),
    S_SYMBOL(ctrl, "SSL_ctrl"),
    S_SYMBOL(set1_host, "SSL_set1_host"),
    S_SYMBOL(connect, "SSL_connect"),
    S_SYMBOL(read, "SSL_read"),
    S_SYMBOL(write, "SSL_write"),
    S_SYMBOL(get_error, "SSL_get_error"),
    S_SYMBOL(get_verify_result, "SSL_get_verify_result"),
    /* libcrypto's, found through libssl's dependencies. */
    S_SYMBOL(err_get_error, "ERR_get_error"),
    S_SYMBOL(err_error_string_n, "ERR_error_string_n"),
    S_SYMBOL(err_clear_error, "ERR_clear_error"),
    S_SYMBOL(verify_cert_error_string, "X509_verify_cert_error_string"),
};

static const char *const s_sonames[] = {"libssl.so.3", "libssl.so", NULL};

static struct anvil__lazy_lib s_lib =
    ANVIL__LAZY_LIB("OpenSSL's libssl (HTTPS)", s_sonames, s_symbols, &anvil__ssl, NULL);

int anvil__ssl_load(struct anvil_diag *diag) {
    return anvil__lazy_load(&s_lib, diag);
}
