#ifndef ANVIL_SIGV4_H
#define ANVIL_SIGV4_H

/**
 * AWS Signature Version 4 on OpenSSL's SHA-256 and HMAC: the canonical
 * request, the string to sign, the signing key and the signature, for the
 * Authorization header or for a presigned query string. The 38 aws-c-auth
 * vectors in ../shared/testdata/sigv4 pass byte for byte (conformance
 * `sigv4.vectors`). Secrets appear only in the signing key's derivation:
 * never in the result, the canonical request or a diagnostic.
 */

#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/status.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_sigv4_header {
    struct anvil_str_view name;
    struct anvil_str_view value;
};

/** The request as it will be sent. */
struct anvil_sigv4_request {
    struct anvil_str_view method;
    /** The path as sent (no query), e.g. "/" or "/my%20key". */
    struct anvil_str_view path;
    /** The query string without '?', as sent (may be empty). */
    struct anvil_str_view query;
    const struct anvil_sigv4_header *headers;
    size_t header_count;
    const void *body;
    size_t body_len;
    /** A payload hash to use instead of hashing the body (e.g. "UNSIGNED-PAYLOAD"); NULL = hash the body. */
    const char *payload_hash;
};

struct anvil_sigv4_credentials {
    struct anvil_str_view access_key_id;
    struct anvil_str_view secret_access_key;
    /** Empty when the credentials are not temporary. */
    struct anvil_str_view session_token;
};

enum anvil_sigv4_placement {
    /** An Authorization header (and X-Amz-Date, X-Amz-Security-Token). */
    ANVIL_SIGV4_HEADER = 0,
    /** A presigned URL: the X-Amz-* parameters and the signature in the query string. */
    ANVIL_SIGV4_QUERY = 1
};

struct anvil_sigv4_config {
    struct anvil_str_view region;
    /** The signing name (aws.auth#sigv4 `name`), e.g. "dynamodb". */
    struct anvil_str_view service;
    /** The signing time, milliseconds since the epoch (the env's wall clock). */
    uint64_t time_ms;
    enum anvil_sigv4_placement placement;
    /** Sign the path as sent, without removing "." and ".." segments and empty ones (S3 does this). */
    bool keep_path;
    /**
     * The path is URI-encoded once in the canonical request, not twice: the
     * path as sent (already percent-encoded) is signed as it is. S3 signs
     * this way (its endpoint rules' `disableDoubleEncoding`).
     */
    bool single_encode_path;
    /** Add and sign an `x-amz-content-sha256` header (header placement). */
    bool sign_body;
    /** Leave the session token out of the signature (it is still added to the request after signing). */
    bool omit_session_token;
    /** Query placement: how long the URL is valid, in seconds (default 3600). */
    uint64_t expires_s;
};

/** What signing gives. Initialise with anvil_sigv4_result_init(); release with _clean_up(). */
struct anvil_sigv4_result {
    struct anvil_buf canonical_request;
    struct anvil_buf string_to_sign;
    /** Header placement: the Authorization value. */
    struct anvil_buf authorization;
    /** Query placement: the whole signed query string (the caller's parameters included). */
    struct anvil_buf query;
    /** The semicolon-separated signed header names. */
    struct anvil_buf signed_headers;
    char signature[65];
    /** "20150830T123600Z": the X-Amz-Date value. */
    char amz_date[17];
    /** The payload hash used (hex, or the caller's). */
    char payload_hash[65];
};

ANVIL_API void anvil_sigv4_result_init(struct anvil_sigv4_result *result, struct anvil_allocator *allocator);
ANVIL_API void anvil_sigv4_result_clean_up(struct anvil_sigv4_result *result);

/**
 * Signs `request`. The caller then adds `X-Amz-Date: amz_date`,
 * `X-Amz-Security-Token` (when there is a token), `x-amz-content-sha256`
 * (with sign_body) and `Authorization`, or uses `query` as the query
 * string. ANVIL_EINVAL (missing credentials, region or service, a time
 * before 1970 or after 9999), ANVIL_ENOMEM, ANVIL_EINTERNAL (OpenSSL).
 */
ANVIL_API int anvil_sigv4_sign(const struct anvil_sigv4_request *request,
                               const struct anvil_sigv4_credentials *credentials,
                               const struct anvil_sigv4_config *config, struct anvil_sigv4_result *result,
                               struct anvil_diag *diag);

ANVIL_EXTERN_C_END

#endif
