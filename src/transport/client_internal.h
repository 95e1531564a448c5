/* What the client's files share: the client itself and one HTTP exchange. */
#ifndef ANVIL_TRANSPORT_CLIENT_INTERNAL_H
#define ANVIL_TRANSPORT_CLIENT_INTERNAL_H

#include <curl/curl.h>

#include "anvil/client.h"
#include "anvil/compress.h"
#include "anvil/traits.h"
#include "core/core_internal.h"
#include "protocol/protocol_internal.h"

struct anvil_client {
    struct anvil_allocator *allocator;
    const struct anvil_model *model;
    const struct anvil_shape *service;
    const struct anvil__protocol *protocol;
    struct anvil_client_options options;
    struct anvil_aws_config aws;
    char endpoint[512];
    /* The request path (the endpoint's own path, else "/"), as sent and as signed. */
    char path[256];
    char host[256];
    char signing_name[64];
    /* S3 signs the path as sent and the payload's hash in x-amz-content-sha256. */
    bool s3_signing;
    /* Whether a host prefix (`@endpoint`) may go in front of the host: not for IP addresses or localhost. */
    bool host_prefix_allowed;
    /* The CA bundle to verify TLS with ("" = curl's default). */
    char ca_bundle[1024];
    struct anvil_retry_strategy *retry;
    CURL *curl;
    struct anvil_compression_settings compression;
    /* Added to the wall clock when signing: learnt from a clock-skew error's Date header. */
    int64_t clock_offset_ms;
};

/* The most response header bytes kept (names and values). */
#define ANVIL__RESPONSE_HEADER_BYTES_MAX (256 * 1024)

/* One libcurl transfer's state: the body, the headers, the deadline. */
struct anvil__exchange {
    struct anvil_buf body;
    /* The last header block's lines, each "name\0value\0" (a new status line starts a new block). */
    struct anvil_buf header_bytes;
    size_t header_count;
    /* The header block was cut at ANVIL__RESPONSE_HEADER_BYTES_MAX. */
    bool headers_cut;
    int64_t retry_after_ms;
    uint64_t deadline_ms;
    /* This attempt's timeout is the deadline's (a timeout then is a cancellation). */
    bool cut_at_deadline;
    /* The body passed the client's max_response_bytes. */
    bool too_large;
    /* The answer's Date header in ms since the epoch, or -1. */
    int64_t server_date_ms;
    /* The caller's cancel flag (may be NULL), and whether it stopped this transfer. */
    const volatile sig_atomic_t *cancel;
    bool cancelled;
    const struct anvil_env *env;
};

/* What one send gave: the HTTP status (0 without an answer), curl's code, the latency. */
struct anvil__attempt {
    long status;
    CURLcode curl;
    uint64_t latency_ms;
};

/* Calls the client's debug callback with one formatted line (never a secret). */
void anvil__client_debug(const struct anvil_client *c, const char *fmt, ...) ANVIL_PRINTF(2, 3);

/*
 * Where one call's requests go and how they are signed. Resolved once per
 * call by anvil__client_endpoint(): today from the client's configured
 * endpoint; the endpoint rules engine (issue 17) resolves it from the
 * operation and the input here. Strings are the client's.
 */
struct anvil__endpoint {
    /* scheme://authority, the endpoint's own path ("/" when none), and the Host header value. */
    const char *base;
    const char *path;
    const char *host;
    const char *signing_name;
    const char *signing_region;
    /* S3 signs the path as sent and the payload's hash in x-amz-content-sha256. */
    bool s3_signing;
    /* Whether a host prefix (`@endpoint`) may go in front of the host: not for IP addresses or localhost. */
    bool host_prefix_allowed;
};

void anvil__client_endpoint(const struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                            struct anvil__endpoint *out);

/* A request ready to go: URL, every header (signature included), body (borrowed from the request). */
struct anvil__prepared {
    struct anvil_allocator *allocator;
    const char *method;
    struct anvil_buf url;
    struct anvil_http_header *headers;
    size_t header_count, header_capacity;
    /* The headers' names and values (wiped when cleaned up: the session token is among them). */
    struct anvil_buf strings;
    const char *body;
    size_t body_len;
    bool has_content_type;
};

/*
 * Signs `req` for the client's endpoint: the URL (host prefix, endpoint
 * path, target) and the headers to send (Host, the protocol's, X-Amz-Date,
 * x-amz-content-sha256 for S3, X-Amz-Security-Token, Authorization).
 * ANVIL_EINVAL for a header that cannot be sent (CR, LF or NUL in it).
 */
int anvil__client_prepare(struct anvil_client *c, const struct anvil__endpoint *ep, const struct anvil__request *req,
                          struct anvil__prepared *p);
void anvil__prepared_clean_up(struct anvil__prepared *p);

/* Signs and sends `req`; curl's result in `a`. ANVIL_OK, ANVIL_ENOMEM, ANVIL_ELIMIT (a URL too long). */
int anvil__client_send(struct anvil_client *c, const struct anvil__endpoint *ep, const struct anvil__request *req,
                       struct anvil__exchange *x, struct anvil__attempt *a);

/* The exchange's headers as an array in `arena` (the response a protocol reads). ANVIL_ENOMEM. */
int anvil__exchange_response(const struct anvil__exchange *x, long status, struct anvil_arena *arena,
                             struct anvil__response *out);

/* How a failed transfer counts for retries. */
enum anvil_retry_io_error anvil__curl_io_error(CURLcode code);

#endif
