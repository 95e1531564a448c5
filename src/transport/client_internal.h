/* What the client's files share: the client itself and one HTTP exchange. */
#ifndef ANVIL_TRANSPORT_CLIENT_INTERNAL_H
#define ANVIL_TRANSPORT_CLIENT_INTERNAL_H

#include "transport/curl_lib.h"
#include "transport/http_conn.h"
#include "transport/tls_trust.h"

#include "anvil/client.h"
#include "anvil/compress.h"
#include "anvil/endpoint.h"
#include "anvil/paginator.h"
#include "anvil/traits.h"
#include "core/core_internal.h"
#include "protocol/protocol_internal.h"

/* An endpoint URL split for sending: what curl connects to, the path, the Host header. */
struct anvil__url {
    /* scheme://authority, the scheme lower-case. */
    char base[512];
    /* The URL's own path ("/" when none), as sent and as signed. */
    char path[1024];
    /* The Host header: the host, and the port unless it is the scheme's default. */
    char host[256];
    /* Whether a host prefix (`@endpoint`) may go in front of the host: not for IP addresses or localhost. */
    bool host_prefix_allowed;
};

/*
 * Splits `url` (http:// or https://, host[:port], an optional path) for
 * sending. ANVIL_EINVAL, diag naming the URL (user information shown as
 * ***): another scheme, user information, no valid host or port, a query
 * or fragment, a path with bytes a request line cannot hold, a part too long.
 */
int anvil__url_split(struct anvil_str_view url, struct anvil__url *out, struct anvil_diag *diag);

struct anvil_client {
    struct anvil_allocator *allocator;
    const struct anvil_model *model;
    const struct anvil_shape *service;
    const struct anvil__protocol *protocol;
    struct anvil_client_options options;
    struct anvil_aws_config aws;
    /* The configured endpoint (caller's or environment's, SDK::Endpoint) as given, "" when none. */
    char endpoint_url[512];
    bool endpoint_given;
    /* The configured endpoint split; without rules, the service's regional one when none was given. */
    struct anvil__url configured;
    char signing_name[64];
    /* S3 signs the path as sent and the payload's hash in x-amz-content-sha256. */
    bool s3_signing;
    /* The endpoint rules (NULL: none), the ones the client compiled, and the built-ins in `arena`. */
    const struct anvil_endpoint_rules *rules;
    struct anvil_endpoint_rules *owned_rules;
    struct anvil_arena *arena;
    struct anvil_json builtins;
    /* The caller's endpoint parameters, copied into `arena` (options.endpoint_params points here). */
    struct anvil_json endpoint_params;
    /* S3, and its rules put the bucket in the endpoint (they take a Bucket), so the URIs' `/{Bucket}` is left out. */
    bool is_s3;
    bool bucket_in_endpoint;
    /* S3 Control: the rules put the account id in the host, so the `{AccountId}.` host prefix is left out. */
    bool rules_drop_host_prefix;
    /* Which certificates verify TLS (tls_trust.h): the CA bundle alone, else the system's. */
    struct anvil__tls_trust trust;
    /* Every request's User-Agent (s_user_agent in client.c). */
    char user_agent[160];
    /* The model's waiters and paginators, read at the first anvil_client_wait/_paginate. */
    struct anvil_waiter_set *waiters;
    struct anvil_paginator_set *paginators;
    struct anvil_retry_strategy *retry;
    /* Where the credentials come from (NULL when requests go unsigned). */
    struct anvil_credentials_provider *credentials;
    /* libcurl's handle, made at the first exchange anvil's own transport does not serve (anvil__client_curl). */
    CURL *curl;
    /* anvil's own HTTP/1.1 transport (http_conn.h): every exchange without a proxy. */
    struct anvil__http_transport http;
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
    /* curl's own account of a failure (CURLOPT_ERRORBUFFER; "" = none), or anvil's transport's. */
    char error[CURL_ERROR_SIZE];
    /* anvil's own transport carried this exchange: `error` is its account of any failure. */
    bool builtin;
};

/* What one send gave: the HTTP status (0 without an answer), curl's code, the latency. */
struct anvil__attempt {
    long status;
    CURLcode curl;
    uint64_t latency_ms;
};

/*
 * Fresh credentials from the client's provider into c->aws (asked before
 * every signature; the provider answers from its cache until they near
 * expiry). ANVIL_ECONFIG with diag naming the provider and why.
 */
int anvil__client_credentials(struct anvil_client *c, struct anvil_diag *diag);

/* The service's operation `name` (a name or a shape id) into `*out` (NULL when none); ANVIL_ENOMEM when it could not
 * look. */
int anvil__client_find_operation(const struct anvil_client *c, struct anvil_str_view name,
                                 const struct anvil_shape **out);

/*
 * The waiter `given`, or else the model's waiter `name` (the client's
 * waiters are read at the first need), and the operation of the client's
 * service it polls. ANVIL_ENOTFOUND with diag naming it; ANVIL_ENOMEM.
 */
int anvil__client_waiter(struct anvil_client *client, const char *name, const struct anvil_waiter *given,
                         const struct anvil_waiter **waiter, const struct anvil_shape **operation,
                         struct anvil_diag *diag);

/* Calls the client's debug callback with one formatted line (never a secret). */
void anvil__client_debug(const struct anvil_client *c, const char *fmt, ...) ANVIL_PRINTF(2, 3);

/*
 * Where one call's requests go and how they are signed, resolved once per
 * call by anvil__client_endpoint(). Strings are the client's or the call
 * arena's.
 */
struct anvil__endpoint {
    /* scheme://authority, the endpoint's own path ("/" when none), and the Host header value. */
    const char *base;
    const char *path;
    const char *host;
    const char *signing_name;
    const char *signing_region;
    /* The endpoint's headers (an object of name -> array of strings), or NULL. */
    const struct anvil_json *headers;
    /* Whether the request is signed at all (not with the client's no_sign). */
    bool sign;
    /* S3 signs the payload's hash in x-amz-content-sha256. */
    bool s3_signing;
    /* SigV4: the path signed as sent (once encoded), and not normalised. */
    bool single_encode_path;
    bool keep_path;
    /* Whether a host prefix (`@endpoint`) may go in front of the host: not for IP addresses or localhost. */
    bool host_prefix_allowed;
    /* The rule that gave the endpoint (anvil_endpoint_rule_path()), SIZE_MAX without rules. */
    size_t rule;
};

/* Checks the configured endpoint, compiles the service's rules, sets the built-ins (client_endpoint.c). */
int anvil__client_endpoint_init(struct anvil_client *c, struct anvil_diag *diag);
void anvil__client_endpoint_clean_up(struct anvil_client *c);

/*
 * The debug line of a new client: its endpoint (with rules, as they resolve
 * before an operation binds anything: calls resolve their own), region,
 * signing name and where its credentials came from.
 */
void anvil__client_endpoint_describe(const struct anvil_client *c);

/*
 * Where a call of `op` with `input` goes: the rules resolved (values in
 * `arena`; the resolution in `*resolved` when not NULL), else the
 * configured endpoint. ANVIL_ECONFIG with the rules' own message for an
 * error rule, no match or a required parameter without a value;
 * ANVIL_EINVAL for an input value of the wrong type for its parameter;
 * ANVIL_EUNSUPPORTED for an auth scheme anvil cannot sign with;
 * ANVIL_EMODEL for a URL, header or signing scope anvil cannot send;
 * ANVIL_ELIMIT, ANVIL_ENOMEM.
 */
int anvil__client_endpoint(const struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                           struct anvil_arena *arena, struct anvil__endpoint *out, struct anvil_endpoint *resolved,
                           struct anvil_diag *diag);

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

/*
 * Loads libcurl and makes the client's easy handle, once: ANVIL_OK, or
 * ANVIL_EUNSUPPORTED with diag (may be NULL) naming what is missing;
 * ANVIL_ENOMEM.
 */
int anvil__client_curl(struct anvil_client *c, struct anvil_diag *diag);

/* Signs and sends `req` on the client's handle; curl's result in `a`. ANVIL_OK, ANVIL_ENOMEM, ANVIL_ELIMIT (a URL too
 * long). */
int anvil__client_send(struct anvil_client *c, const struct anvil__endpoint *ep, const struct anvil__request *req,
                       struct anvil__exchange *x, struct anvil__attempt *a);

/* One transfer set up on a handle: what it holds until it ends. */
struct anvil__transfer {
    struct anvil__prepared prepared;
    struct curl_slist *headers;
    uint64_t start_ms;
    uint64_t timeout_ms;
    /* The deadline had passed before the transfer started: do not perform it. */
    bool past_deadline;
};

/*
 * anvil__client_send() in two halves around any handle `h`, for drivers
 * that perform transfers themselves (curl's multi interface): begin signs
 * the request and sets `h` up (skip performing it when t->past_deadline);
 * end turns curl's `code` into the attempt and releases `t`.
 */
int anvil__send_begin(struct anvil_client *c, CURL *h, const struct anvil__endpoint *ep,
                      const struct anvil__request *req, struct anvil__exchange *x, struct anvil__transfer *t);
void anvil__send_end(struct anvil_client *c, CURL *h, const struct anvil__exchange *x, struct anvil__transfer *t,
                     CURLcode code, struct anvil__attempt *a);
/* Releases a begun transfer that will not be ended (it was never performed, or was taken off its multi handle). */
void anvil__transfer_clean_up(struct anvil__transfer *t);

/* The exchange's headers as an array in `arena` (the response a protocol reads). ANVIL_ENOMEM. */
int anvil__exchange_response(const struct anvil__exchange *x, long status, struct anvil_arena *arena,
                             struct anvil__response *out);

/*
 * What a failed transfer's message says: curl's own account for a TLS
 * failure (which check failed: the issuer, the host name...), else curl's
 * name for `code`. Static or the exchange's storage.
 */
const char *anvil__exchange_error(const struct anvil__exchange *x, CURLcode code);

/* The outcome of anvil's own transport as the curl code the retry classification and the messages read. */
CURLcode anvil__http_outcome_code(enum anvil__http_outcome o);

/* How a failed transfer counts for retries. */
enum anvil_retry_io_error anvil__curl_io_error(CURLcode code);

#endif
