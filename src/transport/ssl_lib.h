#ifndef ANVIL_TRANSPORT_SSL_LIB_H
#define ANVIL_TRANSPORT_SSL_LIB_H

/*
 * OpenSSL's libssl (and the few libcrypto calls TLS errors need), loaded on
 * first use (core/lazy_lib.h) by anvil's own HTTP transport for an https
 * endpoint. Only the TLS file includes this. Not installed.
 */

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include "anvil/diag.h"

struct anvil__ssl_api {
    __typeof__(&TLS_client_method) tls_client_method;
    __typeof__(&SSL_CTX_new) ctx_new;
    __typeof__(&SSL_CTX_free) ctx_free;
    __typeof__(&SSL_CTX_set_verify) ctx_set_verify;
    __typeof__(&SSL_CTX_load_verify_locations) ctx_load_verify_locations;
    __typeof__(&SSL_CTX_ctrl) ctx_ctrl;
    __typeof__(&SSL_CTX_set_options) ctx_set_options;
    __typeof__(&SSL_new) ssl_new;
    __typeof__(&SSL_free) ssl_free;
    __typeof__(&SSL_set_fd) set_fd;
    __typeof__(&SSL_ctrl) ctrl;
    __typeof__(&SSL_set1_host) set1_host;
    __typeof__(&SSL_connect) connect;
    __typeof__(&SSL_read) read;
    __typeof__(&SSL_write) write;
    __typeof__(&SSL_get_error) get_error;
    __typeof__(&SSL_get_verify_result) get_verify_result;
    __typeof__(&ERR_get_error) err_get_error;
    __typeof__(&ERR_error_string_n) err_error_string_n;
    __typeof__(&ERR_clear_error) err_clear_error;
    __typeof__(&X509_verify_cert_error_string) verify_cert_error_string;
};

/* Filled by anvil__ssl_load(); read only after it returned ANVIL_OK. */
extern struct anvil__ssl_api anvil__ssl;

/* Loads libssl.so.3 once per process: ANVIL_OK, or ANVIL_EUNSUPPORTED with `diag` naming what is missing. */
int anvil__ssl_load(struct anvil_diag *diag);

#endif
