/* anvil's own HTTP/1.1 transport (http_conn.h). */

#define _GNU_SOURCE /* getaddrinfo_a() */

#include "transport/http_conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "anvil/status.h"
#include "core/crypto.h"
#include "transport/http1.h"
#include "transport/ssl_lib.h"

/* The longest wait between two looks at the cancel flag. */
#define S_SLICE_MS 100
/* Addresses tried for one name, at most. */
#define S_ADDRESSES_MAX 8

static uint64_t s_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* How long to wait from `now` toward `until` before looking at the cancel flag again. */
static uint64_t s_slice(uint64_t now, uint64_t until) {
    return until > now ? (until - now < S_SLICE_MS ? until - now : S_SLICE_MS) : 0;
}

/* ---- the URL ---- */

bool anvil__http_split_url(const char *url, struct anvil__http_target *t) {
    memset(t, 0, sizeof *t);
    const char *rest;
    if (strncasecmp(url, "https://", 8) == 0) {
        t->https = true;
        rest = url + 8;
    } else if (strncasecmp(url, "http://", 7) == 0) {
        rest = url + 7;
    } else {
        return false;
    }
    size_t authority = strcspn(rest, "/?#");
    const char *host = rest, *port = NULL;
    size_t host_len;
    if (authority && rest[0] == '[') {
        const char *close = memchr(rest, ']', authority);
        if (!close) {
            return false;
        }
        host = rest + 1;
        host_len = (size_t)(close - host);
        port = close + 1 < rest + authority && close[1] == ':' ? close + 2 : NULL;
        if (!port && close + 1 != rest + authority) {
            return false;
        }
    } else {
        const char *colon = memchr(rest, ':', authority);
        host_len = colon ? (size_t)(colon - rest) : authority;
        port = colon ? colon + 1 : NULL;
    }
    if (host_len == 0 || host_len >= sizeof t->host || memchr(host, '@', host_len)) {
        return false;
    }
    memcpy(t->host, host, host_len);
    size_t port_len = port ? (size_t)(rest + authority - port) : 0;
    if (port && (port_len == 0 || port_len > 5 || strspn(port, "0123456789") < port_len)) {
        return false;
    }
    if (port) {
        memcpy(t->port, port, port_len);
        long n = strtol(t->port, NULL, 10);
        if (n < 1 || n > 65535) {
            return false;
        }
    } else {
        snprintf(t->port, sizeof t->port, "%s", t->https ? "443" : "80");
    }
    unsigned char probe[sizeof(struct in6_addr)];
    bool v6 = inet_pton(AF_INET6, t->host, probe) == 1;
    if (rest[0] == '[' && !v6) {
        return false; /* brackets hold an IPv6 address or nothing */
    }
    t->host_is_ip = v6 || inet_pton(AF_INET, t->host, probe) == 1;
    t->authority = rest;
    t->authority_len = authority;
    t->path = rest + authority;
    t->path_len = strcspn(t->path, "#"); /* a fragment is not sent */
    return true;
}

/* ---- names ---- */

/* One lookup in flight: freed by whichever of the caller and the resolver's notice comes last. */
struct s_lookup {
    struct gaicb cb;
    struct addrinfo hints;
    char host[256];
    char port[8];
    atomic_int parties; /* 2, then 1, then 0: the last one out frees */
};

static void s_lookup_release(struct s_lookup *l) {
    if (atomic_fetch_sub(&l->parties, 1) == 1) {
        if (l->cb.ar_result) {
            freeaddrinfo(l->cb.ar_result);
        }
        free(l);
    }
}

static void s_lookup_done(union sigval value) {
    s_lookup_release(value.sival_ptr);
}

struct s_addresses {
    struct sockaddr_storage addr[S_ADDRESSES_MAX];
    socklen_t len[S_ADDRESSES_MAX];
    size_t count;
};

static void s_keep(struct s_addresses *out, const struct addrinfo *ai) {
    for (; ai && out->count < S_ADDRESSES_MAX; ai = ai->ai_next) {
        if ((ai->ai_family == AF_INET || ai->ai_family == AF_INET6) && ai->ai_addrlen <= sizeof out->addr[0]) {
            memcpy(&out->addr[out->count], ai->ai_addr, ai->ai_addrlen);
            out->len[out->count++] = ai->ai_addrlen;
        }
    }
}

/* The target's addresses, by the deadline. */
static enum anvil__http_outcome s_resolve(const struct anvil__http_target *t, uint64_t deadline,
                                          const volatile sig_atomic_t *cancel, struct s_addresses *out, char *error,
                                          size_t error_size) {
    out->count = 0;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    if (t->host_is_ip) {
        hints.ai_flags |= AI_NUMERICHOST;
        struct addrinfo *ai = NULL;
        if (getaddrinfo(t->host, t->port, &hints, &ai) != 0) {
            snprintf(error, error_size, "cannot use the address %.200s", t->host);
            return ANVIL__HTTP_RESOLVE;
        }
        s_keep(out, ai);
        freeaddrinfo(ai);
        return ANVIL__HTTP_OK;
    }
    struct s_lookup *l = calloc(1, sizeof *l);
    if (!l) {
        return ANVIL__HTTP_NOMEM;
    }
    /* No AI_ADDRCONFIG: on a machine with only a loopback interface it hides localhost's addresses. */
    l->hints = hints;
    snprintf(l->host, sizeof l->host, "%s", t->host);
    snprintf(l->port, sizeof l->port, "%s", t->port);
    l->cb.ar_name = l->host;
    l->cb.ar_service = l->port;
    l->cb.ar_request = &l->hints;
    atomic_init(&l->parties, 2);
    struct sigevent notice = {.sigev_notify = SIGEV_THREAD};
    notice.sigev_notify_function = s_lookup_done;
    notice.sigev_value.sival_ptr = l;
    struct gaicb *list[1] = {&l->cb};
    if (getaddrinfo_a(GAI_NOWAIT, list, 1, &notice) != 0) {
        /*
         * Only the caller's share goes: glibc may still notify (it does when it queued nothing), or
         * may have queued the lookup without a way to notify (then it stays: a worker may write to it).
         */
        s_lookup_release(l);
        snprintf(error, error_size, "cannot look up %.200s: the resolver refused the request", t->host);
        return ANVIL__HTTP_RESOLVE;
    }
    enum anvil__http_outcome outcome = ANVIL__HTTP_OK;
    for (;;) {
        int state = gai_error(&l->cb);
        if (state != EAI_INPROGRESS) {
            if (state == 0) {
                s_keep(out, l->cb.ar_result);
            }
            if (state != 0 || out->count == 0) {
                snprintf(error, error_size, "cannot resolve host %.160s: %.60s", t->host,
                         state ? gai_strerror(state) : "no IPv4 or IPv6 address");
                outcome = ANVIL__HTTP_RESOLVE;
            }
            break;
        }
        uint64_t now = s_now_ms();
        if (cancel && *cancel) {
            outcome = ANVIL__HTTP_CANCELLED;
            break;
        }
        if (now >= deadline) {
            snprintf(error, error_size, "resolving host %.200s took longer than the timeout", t->host);
            outcome = ANVIL__HTTP_TIMEOUT;
            break;
        }
        uint64_t wait = s_slice(now, deadline);
        struct timespec ts = {(time_t)(wait / 1000), (long)(wait % 1000) * 1000000L};
        const struct gaicb *waiting[1] = {&l->cb};
        (void)gai_suspend(waiting, 1, &ts);
    }
    if (outcome != ANVIL__HTTP_OK && gai_error(&l->cb) == EAI_INPROGRESS && gai_cancel(&l->cb) == EAI_CANCELED) {
        s_lookup_release(l); /* taken off the queue: no notice will come for its share */
    }
    s_lookup_release(l); /* a lookup still running frees the rest when its notice comes */
    return outcome;
}

/* ---- waiting on the socket ---- */

/* Waits until `fd` is ready for `events`, the deadline or the cancel flag: OK, TIMEOUT or CANCELLED. */
static enum anvil__http_outcome s_wait(int fd, short events, uint64_t deadline, const volatile sig_atomic_t *cancel) {
    for (;;) {
        if (cancel && *cancel) {
            return ANVIL__HTTP_CANCELLED;
        }
        uint64_t now = s_now_ms();
        if (now >= deadline) {
            return ANVIL__HTTP_TIMEOUT;
        }
        struct pollfd pfd = {.fd = fd, .events = events};
        int n = poll(&pfd, 1, (int)s_slice(now, deadline));
        if (n > 0) {
            return ANVIL__HTTP_OK; /* ready, or an error the next call reports */
        }
        if (n < 0 && errno != EINTR) {
            return ANVIL__HTTP_RECV;
        }
    }
}

/* ---- connecting ---- */

static void s_close(struct anvil__http_transport *t) {
    if (t->ssl) {
        anvil__ssl.ssl_free(t->ssl);
        t->ssl = NULL;
    }
    if (t->fd >= 0) {
        close(t->fd);
        t->fd = -1;
    }
    t->origin[0] = '\0';
}

static void s_address_text(const struct sockaddr_storage *a, char *out, size_t size) {
    char ip[INET6_ADDRSTRLEN] = "?";
    const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)a;
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)a;
    bool v4 = a->ss_family == AF_INET;
    inet_ntop(a->ss_family, v4 ? (const void *)&in->sin_addr : (const void *)&in6->sin6_addr, ip, sizeof ip);
    snprintf(out, size, "%s port %u", ip, (unsigned)ntohs(v4 ? in->sin_port : in6->sin6_port));
}

/*
 * A TCP connection to one of the addresses, by the connect deadline, as
 * "Happy Eyeballs" (RFC 8305) has it: the next address is tried when the
 * one before fails or has not connected within S_STAGGER_MS, the attempts
 * racing; the first to connect wins, the others are closed. An address that
 * never answers (a black-holed IPv6 route) costs S_STAGGER_MS, not the timeout.
 */
#define S_STAGGER_MS 250
static enum anvil__http_outcome s_connect(struct anvil__http_transport *t, const struct s_addresses *as,
                                          uint64_t deadline, const volatile sig_atomic_t *cancel, char *error,
                                          size_t error_size) {
    int fds[S_ADDRESSES_MAX];
    size_t started = 0, pending = 0, last = 0;
    int last_errno = 0;
    uint64_t next_start = 0;
    enum anvil__http_outcome o = ANVIL__HTTP_CONNECT;
    for (;;) {
        uint64_t now = s_now_ms();
        /* Start the next address when its turn comes (or at once when nothing is pending). */
        while (started < as->count && (pending == 0 || now >= next_start)) {
            size_t i = started++;
            fds[i] = socket(as->addr[i].ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            if (fds[i] < 0) {
                last_errno = errno;
                last = i;
                continue;
            }
            int one = 1;
            (void)setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            int rc = connect(fds[i], (const struct sockaddr *)&as->addr[i], as->len[i]);
            if (rc == 0) {
                t->fd = fds[i];
                fds[i] = -1;
                o = ANVIL__HTTP_OK;
                goto done;
            }
            if (errno != EINPROGRESS) {
                last_errno = errno;
                last = i;
                close(fds[i]);
                fds[i] = -1;
                continue;
            }
            pending++;
            next_start = now + S_STAGGER_MS;
            break;
        }
        if (pending == 0) {
            break; /* every address failed */
        }
        if (cancel && *cancel) {
            o = ANVIL__HTTP_CANCELLED;
            goto done;
        }
        if (now >= deadline) {
            o = ANVIL__HTTP_TIMEOUT;
            goto done;
        }
        uint64_t wait = s_slice(now, started < as->count && next_start < deadline ? next_start : deadline);
        struct pollfd pfds[S_ADDRESSES_MAX];
        size_t map[S_ADDRESSES_MAX], n = 0;
        for (size_t i = 0; i < started; i++) {
            if (fds[i] >= 0) {
                pfds[n] = (struct pollfd){.fd = fds[i], .events = POLLOUT};
                map[n++] = i;
            }
        }
        if (poll(pfds, n, (int)wait) < 0 && errno != EINTR) {
            last_errno = errno;
            break;
        }
        for (size_t k = 0; k < n; k++) {
            if (!pfds[k].revents) {
                continue;
            }
            size_t i = map[k];
            int err = 0;
            socklen_t len = sizeof err;
            if (getsockopt(fds[i], SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) {
                t->fd = fds[i];
                fds[i] = -1;
                o = ANVIL__HTTP_OK;
                goto done;
            }
            last_errno = err ? err : errno;
            last = i;
            close(fds[i]);
            fds[i] = -1;
            pending--;
            next_start = 0; /* a failure starts the next address at once */
        }
    }
done:;
    size_t waited = SIZE_MAX; /* the first address still pending: the one a timeout is about */
    for (size_t i = 0; i < started; i++) {
        if (fds[i] >= 0) {
            waited = waited == SIZE_MAX ? i : waited;
            close(fds[i]);
        }
    }
    if (o == ANVIL__HTTP_CONNECT || o == ANVIL__HTTP_TIMEOUT) {
        char where[80] = "no address";
        if (as->count) {
            s_address_text(&as->addr[o == ANVIL__HTTP_TIMEOUT && waited != SIZE_MAX ? waited : last], where,
                           sizeof where);
        }
        if (o == ANVIL__HTTP_TIMEOUT) {
            snprintf(error, error_size, "connecting to %s%s took longer than the connect timeout", where,
                     as->count > 1 ? " (and its other addresses)" : "");
        } else if (as->count) {
            snprintf(error, error_size, "cannot connect to %s: %s", where,
                     strerror(last_errno ? last_errno : ECONNREFUSED));
        } else {
            snprintf(error, error_size, "no address to connect to");
        }
    }
    return o;
}

enum anvil__http_outcome anvil__http_connect_addresses(struct anvil__http_transport *t,
                                                       const struct sockaddr_storage *addresses, const socklen_t *lens,
                                                       size_t count, uint64_t timeout_ms, char *error,
                                                       size_t error_size) {
    struct s_addresses as;
    as.count = count < S_ADDRESSES_MAX ? count : S_ADDRESSES_MAX;
    for (size_t i = 0; i < as.count; i++) {
        as.addr[i] = addresses[i];
        as.len[i] = lens[i];
    }
    s_close(t);
    return s_connect(t, &as, s_now_ms() + timeout_ms, NULL, error, error_size);
}

/* ---- TLS ---- */

/*
 * SIGPIPE stays blocked for this thread while OpenSSL writes (its socket
 * writes cannot say MSG_NOSIGNAL); one that a write raised is taken back
 * before the mask is restored, unless one was already pending (libpq does
 * the same).
 */
struct s_sigpipe {
    sigset_t old;
    bool was_pending;
};

static void s_sigpipe_block(struct s_sigpipe *s) {
    sigset_t pipe, pending;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, &s->old);
    sigpending(&pending);
    s->was_pending = sigismember(&pending, SIGPIPE) == 1;
}

static void s_sigpipe_restore(struct s_sigpipe *s) {
    if (!s->was_pending) {
        sigset_t pipe, pending;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE) == 1) {
            struct timespec zero = {0, 0};
            (void)sigtimedwait(&pipe, NULL, &zero);
        }
    }
    pthread_sigmask(SIG_SETMASK, &s->old, NULL);
}

/* OpenSSL's queued reason, or `fallback`. */
static void s_ssl_reason(char *error, size_t error_size, const char *what, const char *fallback) {
    unsigned long e = anvil__ssl.err_get_error();
    char reason[200];
    if (e) {
        anvil__ssl.err_error_string_n(e, reason, sizeof reason);
    } else {
        snprintf(reason, sizeof reason, "%s", fallback);
    }
    snprintf(error, error_size, "%.120s: %.120s", what, reason);
    anvil__ssl.err_clear_error();
}

static enum anvil__http_outcome s_tls_context(struct anvil__http_transport *t, char *error, size_t error_size) {
    if (t->ssl_ctx) {
        return ANVIL__HTTP_OK;
    }
    if (anvil__ssl_load(NULL) != ANVIL_OK) {
        snprintf(error, error_size, "HTTPS needs OpenSSL's libssl (libssl.so.3), which could not be loaded");
        return ANVIL__HTTP_NO_TLS;
    }
    SSL_CTX *ctx = anvil__ssl.ctx_new(anvil__ssl.tls_client_method());
    if (!ctx) {
        s_ssl_reason(error, error_size, "cannot set up TLS", "out of memory");
        return ANVIL__HTTP_TLS;
    }
    anvil__ssl.ctx_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    anvil__ssl.ctx_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    anvil__ssl.ctx_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    const char *file = t->trust.file[0] ? t->trust.file : NULL;
    const char *dir = t->trust.dir[0] ? t->trust.dir : NULL;
    if ((file || dir) && anvil__ssl.ctx_load_verify_locations(ctx, file, dir) != 1) {
        char what[1200];
        snprintf(what, sizeof what, "error setting certificate file: %s", file ? file : dir);
        s_ssl_reason(error, error_size, what, "unreadable");
        anvil__ssl.ctx_free(ctx);
        return ANVIL__HTTP_TLS_TRUST;
    }
    anvil__ssl.err_clear_error();
    t->ssl_ctx = ctx;
    return ANVIL__HTTP_OK;
}

/* One TLS call (connect, read or write) under the SIGPIPE guard: its return value, and SSL_get_error's. */
enum s_tls_op { S_TLS_CONNECT, S_TLS_READ, S_TLS_WRITE };
static int s_tls_call(void *ssl, enum s_tls_op op, void *buf, int len, int *err) {
    struct s_sigpipe guard;
    s_sigpipe_block(&guard);
    int n = op == S_TLS_CONNECT ? anvil__ssl.connect(ssl)
            : op == S_TLS_READ  ? anvil__ssl.read(ssl, buf, len)
                                : anvil__ssl.write(ssl, buf, len);
    *err = n > 0 ? SSL_ERROR_NONE : anvil__ssl.get_error(ssl, n);
    s_sigpipe_restore(&guard);
    return n;
}

static enum anvil__http_outcome s_handshake(struct anvil__http_transport *t, const struct anvil__http_target *target,
                                            uint64_t deadline, const volatile sig_atomic_t *cancel, char *error,
                                            size_t error_size) {
    enum anvil__http_outcome o = s_tls_context(t, error, error_size);
    if (o != ANVIL__HTTP_OK) {
        return o;
    }
    SSL *ssl = anvil__ssl.ssl_new(t->ssl_ctx);
    if (!ssl) {
        s_ssl_reason(error, error_size, "cannot set up TLS", "out of memory");
        return ANVIL__HTTP_TLS;
    }
    t->ssl = ssl;
    if (anvil__ssl.set_fd(ssl, t->fd) != 1 || anvil__ssl.set1_host(ssl, target->host) != 1 ||
        (!target->host_is_ip &&
         anvil__ssl.ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, (void *)target->host) != 1)) {
        s_ssl_reason(error, error_size, "cannot set up TLS", "out of memory");
        return ANVIL__HTTP_TLS;
    }
    for (;;) {
        int err;
        if (s_tls_call(ssl, S_TLS_CONNECT, NULL, 0, &err) == 1) {
            return ANVIL__HTTP_OK;
        }
        if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
            o = s_wait(t->fd, err == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline, cancel);
            if (o == ANVIL__HTTP_TIMEOUT) {
                snprintf(error, error_size, "the TLS handshake with %.180s took longer than the timeout", target->host);
            }
            if (o != ANVIL__HTTP_OK) {
                return o;
            }
            continue;
        }
        long verify = anvil__ssl.get_verify_result(ssl);
        if (verify != X509_V_OK) {
            const char *why = anvil__ssl.verify_cert_error_string(verify);
            if (verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH) {
                snprintf(error, error_size, "SSL certificate problem: %.60s: the certificate is not for '%.120s'", why,
                         target->host);
            } else {
                snprintf(error, error_size, "SSL certificate problem: %.200s", why);
            }
            anvil__ssl.err_clear_error();
            return ANVIL__HTTP_TLS_VERIFY;
        }
        s_ssl_reason(error, error_size, "TLS handshake failed",
                     err == SSL_ERROR_SYSCALL ? "the connection closed" : "the server refused");
        return ANVIL__HTTP_TLS;
    }
}

/* ---- sending and receiving ---- */

static enum anvil__http_outcome s_send_all(struct anvil__http_transport *t, const char *data, size_t len,
                                           uint64_t deadline, const volatile sig_atomic_t *cancel) {
    size_t at = 0;
    while (at < len) {
        size_t chunk = len - at < (1u << 30) ? len - at : (1u << 30);
        ssize_t n;
        int err = SSL_ERROR_NONE;
        if (t->ssl) {
            n = s_tls_call(t->ssl, S_TLS_WRITE, (void *)(data + at), (int)chunk, &err);
        } else {
            n = send(t->fd, data + at, chunk, MSG_NOSIGNAL);
        }
        if (n > 0) {
            at += (size_t)n;
            continue;
        }
        bool again = t->ssl ? err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE
                            : n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
        if (!again) {
            if (t->ssl) {
                anvil__ssl.err_clear_error();
            }
            return ANVIL__HTTP_SEND;
        }
        short events = t->ssl && err == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
        enum anvil__http_outcome o = s_wait(t->fd, events, deadline, cancel);
        if (o != ANVIL__HTTP_OK) {
            return o;
        }
    }
    return ANVIL__HTTP_OK;
}

/* Reads some bytes: their count, 0 at the end of the stream, -1 (with *o) on a failure or the deadline. */
static ssize_t s_recv(struct anvil__http_transport *t, char *buf, size_t size, uint64_t deadline,
                      const volatile sig_atomic_t *cancel, enum anvil__http_outcome *o) {
    for (;;) {
        ssize_t n;
        int err = SSL_ERROR_NONE;
        if (t->ssl) {
            n = s_tls_call(t->ssl, S_TLS_READ, buf, (int)size, &err);
            if (n > 0) {
                return n;
            }
            if (err == SSL_ERROR_ZERO_RETURN) {
                return 0;
            }
            if (err == SSL_ERROR_SYSCALL && n == 0) {
                anvil__ssl.err_clear_error();
                return 0; /* closed without close_notify (OpenSSL 1.1): the end, as for plain TCP */
            }
            if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE) {
                anvil__ssl.err_clear_error();
                *o = ANVIL__HTTP_RECV;
                return -1;
            }
        } else {
            n = recv(t->fd, buf, size, 0);
            if (n >= 0) {
                return n;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                *o = ANVIL__HTTP_RECV;
                return -1;
            }
        }
        *o = s_wait(t->fd, t->ssl && err == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN, deadline, cancel);
        if (*o != ANVIL__HTTP_OK) {
            return -1;
        }
    }
}

/* Whether the kept connection still looks open: nothing to read on it (an idle server sends nothing but EOF). */
static bool s_still_open(const struct anvil__http_transport *t) {
    struct pollfd pfd = {.fd = t->fd, .events = POLLIN};
    return poll(&pfd, 1, 0) == 0;
}

/* ---- the exchange ---- */

void anvil__http_transport_init(struct anvil__http_transport *t, struct anvil_allocator *allocator,
                                const struct anvil__tls_trust *trust) {
    memset(t, 0, sizeof *t);
    t->allocator = allocator;
    t->trust = *trust;
    t->fd = -1;
}

void anvil__http_transport_clean_up(struct anvil__http_transport *t) {
    s_close(t);
    if (t->ssl_ctx) {
        anvil__ssl.ctx_free(t->ssl_ctx);
        t->ssl_ctx = NULL;
    }
}

/* One try on the kept or a new connection. *fresh says which it was. */
static enum anvil__http_outcome s_try(struct anvil__http_transport *t, const struct anvil__http_target *target,
                                      const char *origin, const struct anvil_buf *bytes,
                                      const struct anvil__http_request *r, struct anvil__http1_parser *parser,
                                      uint64_t deadline, bool *fresh, char *error, size_t error_size) {
    *fresh = !(t->fd >= 0 && strcmp(t->origin, origin) == 0 && s_still_open(t));
    enum anvil__http_outcome o = ANVIL__HTTP_OK;
    if (*fresh) {
        s_close(t);
        uint64_t now = s_now_ms();
        uint64_t connect_deadline =
            r->connect_timeout_ms && now + r->connect_timeout_ms < deadline ? now + r->connect_timeout_ms : deadline;
        struct s_addresses as;
        o = s_resolve(target, connect_deadline, r->cancel, &as, error, error_size);
        o = o == ANVIL__HTTP_OK ? s_connect(t, &as, connect_deadline, r->cancel, error, error_size) : o;
        o = o == ANVIL__HTTP_OK && target->https
                ? s_handshake(t, target, connect_deadline, r->cancel, error, error_size)
                : o;
        if (o != ANVIL__HTTP_OK) {
            s_close(t);
            return o;
        }
        snprintf(t->origin, sizeof t->origin, "%s", origin);
    }
    o = s_send_all(t, bytes->data, bytes->len, deadline, r->cancel);
    if (o != ANVIL__HTTP_OK) {
        return o;
    }
    /* What arrives may be secret (instance credentials): the buffer is wiped before it goes. */
    char buf[16384];
    for (;;) {
        ssize_t n = s_recv(t, buf, sizeof buf, deadline, r->cancel, &o);
        if (n < 0) {
            break;
        }
        if (n == 0) {
            int rc = anvil__http1_eof(parser);
            s_close(t);
            if (rc == ANVIL__HTTP1_DONE) {
                o = ANVIL__HTTP_OK;
            } else {
                snprintf(error, error_size, "%s", parser->error);
                o = anvil__http1_started(parser) ? ANVIL__HTTP_PROTOCOL : ANVIL__HTTP_RECV;
            }
            break;
        }
        size_t used = 0;
        int rc = anvil__http1_feed(parser, buf, (size_t)n, &used);
        if (rc == ANVIL__HTTP1_DONE) {
            /* Bytes past the answer, or a server that will close: the connection is not kept. */
            if (!parser->keep_alive || used != (size_t)n) {
                s_close(t);
            }
            o = ANVIL__HTTP_OK;
            break;
        }
        if (rc != ANVIL_OK) {
            s_close(t);
            snprintf(error, error_size, "%s", parser->error);
            o = rc == ANVIL_ECANCELED ? ANVIL__HTTP_STOPPED
                : rc == ANVIL_ENOMEM  ? ANVIL__HTTP_NOMEM
                                      : ANVIL__HTTP_PROTOCOL;
            break;
        }
    }
    anvil__cleanse(buf, sizeof buf);
    return o;
}

int anvil__http_exchange(struct anvil__http_transport *t, const struct anvil__http_request *r,
                         struct anvil__http_result *out) {
    memset(out, 0, sizeof *out);
    uint64_t start = s_now_ms();
    uint64_t deadline = start + (r->timeout_ms ? r->timeout_ms : 60000);
    struct anvil__http_target target;
    if (!anvil__http_split_url(r->url, &target)) {
        out->outcome = ANVIL__HTTP_CONNECT;
        snprintf(out->error, sizeof out->error, "not an http:// or https:// URL anvil can connect to");
        return ANVIL_OK;
    }
    char origin[300];
    snprintf(origin, sizeof origin, "%s://%s:%s", target.https ? "https" : "http", target.host, target.port);

    struct anvil_buf bytes;
    anvil_buf_init(&bytes, t->allocator, 0);
    /* The request's fields, and Host from the URL when it brings none (a signed request brings its own). */
    struct anvil__http1_field *fields = anvil_mem_calloc(t->allocator, r->header_count + 1, sizeof *fields);
    int rc = fields ? ANVIL_OK : ANVIL_ENOMEM;
    size_t count = 0;
    bool has_host = false;
    for (size_t i = 0; i < r->header_count && rc == ANVIL_OK; i++) {
        has_host = has_host || anvil_sv_eq_ascii_nocase(r->headers[i].name, ANVIL_SV("Host"));
        fields[count++] = (struct anvil__http1_field){r->headers[i].name, r->headers[i].value};
    }
    if (rc == ANVIL_OK && !has_host) {
        fields[count++] =
            (struct anvil__http1_field){ANVIL_SV("Host"), anvil_sv(target.authority, target.authority_len)};
    }
    rc = rc == ANVIL_OK ? anvil__http1_write_request(&bytes, r->method, anvil_sv(target.path, target.path_len), fields,
                                                     count, r->body, r->body_len)
                        : rc;
    anvil_mem_release(t->allocator, fields);
    if (rc != ANVIL_OK) {
        if (bytes.data) {
            anvil__cleanse(bytes.data, bytes.capacity); /* a part of the request may be in it */
        }
        anvil_buf_clean_up(&bytes);
        return rc;
    }

    struct anvil__http1_parser parser = {
        .on_line = r->on_line, .on_body = r->on_body, .ctx = r->ctx, .head = strcmp(r->method, "HEAD") == 0};
    enum anvil__http_outcome o;
    for (int attempt = 0;; attempt++) {
        anvil__http1_parser_init(&parser, t->allocator);
        bool fresh = true;
        o = s_try(t, &target, origin, &bytes, r, &parser, deadline, &fresh, out->error, sizeof out->error);
        /* A kept connection the server had closed: nothing of an answer came; once more on a new one. */
        if (!fresh && attempt == 0 && (o == ANVIL__HTTP_SEND || o == ANVIL__HTTP_RECV) &&
            !anvil__http1_started(&parser)) {
            s_close(t);
            anvil__http1_parser_clean_up(&parser);
            out->error[0] = '\0';
            continue;
        }
        break;
    }
    out->status = parser.status;
    anvil__http1_parser_clean_up(&parser);
    if (o != ANVIL__HTTP_OK) {
        s_close(t);
        if (!out->error[0]) {
            snprintf(out->error, sizeof out->error, "%s",
                     o == ANVIL__HTTP_SEND        ? "the connection failed while the request was sent"
                     : o == ANVIL__HTTP_RECV      ? "the connection failed before the answer ended"
                     : o == ANVIL__HTTP_TIMEOUT   ? "the request took longer than its timeout"
                     : o == ANVIL__HTTP_CANCELLED ? "cancelled"
                                                  : "the exchange failed");
        }
    }
    if (bytes.data) {
        /* The request held the signature and any session token. */
        anvil__cleanse(bytes.data, bytes.capacity);
    }
    anvil_buf_clean_up(&bytes);
    out->outcome = o;
    out->elapsed_ms = s_now_ms() - start;
    return o == ANVIL__HTTP_NOMEM ? ANVIL_ENOMEM : ANVIL_OK;
}

/* Whether environment variable `name` is set and not empty. */
static bool s_set(anvil_getenv_fn *lookup, void *ctx, const char *name) {
    const char *v = lookup ? lookup(ctx, name) : getenv(name);
    return v && *v;
}

bool anvil__http_builtin_serves(const char *url, anvil_getenv_fn *lookup, void *ctx) {
    const char *choice = lookup ? lookup(ctx, "ANVIL_HTTP") : getenv("ANVIL_HTTP");
    if (choice && strcmp(choice, "curl") == 0) {
        return false;
    }
    bool https = strncasecmp(url, "https://", 8) == 0;
    bool proxy = s_set(lookup, ctx, "all_proxy") || s_set(lookup, ctx, "ALL_PROXY") ||
                 (https ? s_set(lookup, ctx, "https_proxy") || s_set(lookup, ctx, "HTTPS_PROXY")
                        : s_set(lookup, ctx, "http_proxy"));
    return !proxy;
}
