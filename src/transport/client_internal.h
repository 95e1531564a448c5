/* What the client's files share: the client itself and one HTTP exchange. */
#ifndef ANVIL_TRANSPORT_CLIENT_INTERNAL_H
#define ANVIL_TRANSPORT_CLIENT_INTERNAL_H

#include <curl/curl.h>

#include "anvil/client.h"
#include "anvil/compress.h"
#include "anvil/traits.h"
#include "core/core_internal.h"

struct anvil_client {
    struct anvil_allocator *allocator;
    const struct anvil_model *model;
    const struct anvil_shape *service;
    enum anvil_protocol protocol;
    struct anvil_client_options options;
    struct anvil_aws_config aws;
    char endpoint[512];
    /* The request path (the endpoint's own path, else "/"), as sent and as signed. */
    char path[256];
    char host[256];
    char signing_name[64];
    /* The CA bundle to verify TLS with ("" = curl's default). */
    char ca_bundle[1024];
    struct anvil_retry_strategy *retry;
    CURL *curl;
    struct anvil_compression_settings compression;
    /* Added to the wall clock when signing: learnt from a clock-skew error's Date header. */
    int64_t clock_offset_ms;
};

/* One libcurl transfer's state: the body, the headers anvil reads, the deadline. */
struct anvil__exchange {
    struct anvil_buf body;
    char error_type[256];
    /* A redirect's Location (as received: raw bytes). */
    char location[512];
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

/* Signs and sends one request of `op` with `payload`; curl's result in `a`. ANVIL_OK or ANVIL_ENOMEM. */
int anvil__client_send(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_buf *payload,
                       const char *content_encoding, struct anvil__exchange *x, struct anvil__attempt *a);

/* The error of a non-2xx answer: code from `__type` (or `code`), else X-Amzn-ErrorType; the message. */
int anvil__client_error(struct anvil__exchange *x, long status, struct anvil_arena *arena,
                        struct anvil_operation_error *e);

/* An HTTP date ("Sun, 06 Nov 1994 08:49:37 GMT") in ms since the epoch, or -1 when it is not one. */
int64_t anvil__http_date_ms(struct anvil_str_view text);

/* How a failed transfer counts for retries. */
enum anvil_retry_io_error anvil__curl_io_error(CURLcode code);

#endif
