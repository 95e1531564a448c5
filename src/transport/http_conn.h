#ifndef ANVIL_TRANSPORT_HTTP_CONN_H
#define ANVIL_TRANSPORT_HTTP_CONN_H

/*
 * anvil's own HTTP/1.1 transport: one exchange at a time over one kept
 * connection (TCP, or TLS through libssl loaded on first use), for a client
 * that sends one request after another. Not installed.
 *
 * - The name is resolved with getaddrinfo_a(), so the deadline covers it;
 *   its addresses (8 at most) race as Happy Eyeballs (RFC 8305) has it: the
 *   next one starts when the one before fails or has not connected within
 *   250 ms, and the first to connect wins.
 * - TLS: 1.2 at least, the peer's chain verified against the trust given
 *   (tls_trust.h), the host name (or IP address) checked, SNI sent for names.
 *   A server that closes without TLS's close_notify ends the stream as a TCP
 *   close would (SSL_OP_IGNORE_UNEXPECTED_EOF, as libcurl has it): an answer
 *   framed by length or chunks still fails when it was cut short.
 * - The connection is kept while the server allows it and reused when the
 *   next request goes to the same origin; a kept connection the server
 *   closed meanwhile (nothing of an answer came back) is replaced, and the
 *   request sent again once, as browsers and libcurl do.
 * - The whole exchange ends at its timeout; the cancel flag is looked at at
 *   least every 100 ms. SIGPIPE is never raised (the TLS writes block it for
 *   the calling thread and discard one they caused).
 * - Everything read is bounded: the parser's limits (http1.h) and the
 *   caller's body reader. The request's bytes and the read buffer are wiped
 *   when the exchange ends (a signature, a token, instance credentials).
 */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "anvil/allocator.h"
#include "anvil/client.h"
#include "transport/tls_trust.h"

enum anvil__http_outcome {
    ANVIL__HTTP_OK,
    ANVIL__HTTP_RESOLVE,    /* the name did not resolve */
    ANVIL__HTTP_CONNECT,    /* no address accepted a connection */
    ANVIL__HTTP_TIMEOUT,    /* the exchange's timeout (or the connect timeout) passed */
    ANVIL__HTTP_TLS,        /* the handshake failed */
    ANVIL__HTTP_TLS_VERIFY, /* the server's certificate was not accepted */
    ANVIL__HTTP_TLS_TRUST,  /* the trusted certificates could not be read */
    ANVIL__HTTP_SEND,       /* the connection failed while the request went out */
    ANVIL__HTTP_RECV,       /* the connection failed or closed before the answer ended */
    ANVIL__HTTP_PROTOCOL,   /* the answer is not HTTP/1.x, or malformed */
    ANVIL__HTTP_STOPPED,    /* the body reader said stop */
    ANVIL__HTTP_CANCELLED,  /* the cancel flag was set */
    ANVIL__HTTP_NOMEM,
    ANVIL__HTTP_NO_TLS, /* libssl could not be loaded */
};

struct anvil__http_transport {
    struct anvil_allocator *allocator;
    struct anvil__tls_trust trust;
    /* The kept connection (fd -1: none), the origin it goes to ("https://host:port"), its TLS session. */
    int fd;
    void *ssl;
    char origin[300];
    /* Made at the first https connection, with the trust. */
    void *ssl_ctx;
};

struct anvil__http_request {
    const char *method;
    /* http:// or https://, host (a name, an IPv4 address or [IPv6]), optional port, then the target. */
    const char *url;
    /* The fields to send; without a Host among them, Host is the URL's authority. */
    const struct anvil_http_header *headers;
    size_t header_count;
    const char *body;
    size_t body_len;
    uint64_t connect_timeout_ms;
    uint64_t timeout_ms;
    const volatile sig_atomic_t *cancel;
    /* The answer's header lines (http1.h's on_line) and body. */
    bool (*on_line)(void *ctx, const char *line, size_t len);
    bool (*on_body)(void *ctx, const char *data, size_t len);
    void *ctx;
};

struct anvil__http_result {
    enum anvil__http_outcome outcome;
    /* The final answer's status (0 without one). */
    long status;
    uint64_t elapsed_ms;
    /* What failed, as a sentence ("" on success). */
    char error[256];
};

/* A URL as the transport reads it (the one reading, for checks that must agree with where it connects). */
struct anvil__http_target {
    bool https;
    char host[256]; /* without brackets */
    char port[8];   /* the scheme's when the URL names none */
    bool host_is_ip;
    /* The authority as written ("host:port", "[::1]:80"), and the target: path and query, no fragment. */
    const char *authority;
    size_t authority_len;
    const char *path; /* "" = the root */
    size_t path_len;
};

/*
 * Splits an http:// or https:// URL: false for another scheme, user
 * information, an empty host, brackets around anything but an IPv6
 * address, a port that is not a number from 1 to 65535.
 */
bool anvil__http_split_url(const char *url, struct anvil__http_target *out);

void anvil__http_transport_init(struct anvil__http_transport *t, struct anvil_allocator *allocator,
                                const struct anvil__tls_trust *trust);
void anvil__http_transport_clean_up(struct anvil__http_transport *t);

/* One exchange. ANVIL_OK with the outcome in `out` (a failed exchange is an outcome, not an error). */
int anvil__http_exchange(struct anvil__http_transport *t, const struct anvil__http_request *r,
                         struct anvil__http_result *out);

/*
 * The connection race alone, over addresses given (for tests): the kept
 * connection is replaced by the winner. ANVIL__HTTP_OK, _CONNECT or _TIMEOUT.
 */
enum anvil__http_outcome anvil__http_connect_addresses(struct anvil__http_transport *t,
                                                       const struct sockaddr_storage *addresses, const socklen_t *lens,
                                                       size_t count, uint64_t timeout_ms, char *error,
                                                       size_t error_size);

/*
 * Whether the transport can carry a request to `url` in this environment:
 * no proxy is configured for its scheme (http_proxy; https_proxy or
 * HTTPS_PROXY; all_proxy or ALL_PROXY: libcurl's variables, which libcurl
 * then serves), and ANVIL_HTTP is not "curl".
 */
bool anvil__http_builtin_serves(const char *url, anvil_getenv_fn *lookup, void *ctx);

#endif
