/*
 * Eight threads, each with its own transport (src/transport/http_conn.h),
 * exchanging with one server on 127.0.0.1 at once, keeping and replacing
 * connections. Built with -fsanitize=thread (ctest http.threads_tsan), so a
 * data race in the transport or what it shares (the lazy libraries, the
 * hash seed, the allocator) fails the run. By address only: glibc starts
 * getaddrinfo_a()'s resolver threads itself, out of ThreadSanitizer's sight,
 * and its allocator then crashes in them; the lookups' shared ownership is
 * checked under AddressSanitizer instead (a hostile review ran 200 timed-out
 * lookups against a slow resolver, none leaked or freed twice).
 */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "transport/http_conn.h"

enum { THREADS = 8, ROUNDS = 40 };

static int s_listen_fd;
static int s_port;
static atomic_bool s_stop;

/* One connection: answer every request on it (every 5th answer closes it) until the client closes. */
static void *s_connection(void *arg) {
    int fd = (int)(intptr_t)arg;
    char buf[4096];
    size_t len = 0;
    int served = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0) {
            break;
        }
        len += (size_t)n;
        buf[len] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        if (!end) {
            continue;
        }
        served++;
        bool close_now = served % 5 == 0;
        const char *answer = close_now ? "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\npong"
                                       : "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\npong";
        if (write(fd, answer, strlen(answer)) < 0 || close_now) {
            break;
        }
        size_t rest = len - (size_t)(end + 4 - buf);
        memmove(buf, end + 4, rest);
        len = rest;
    }
    close(fd);
    return NULL;
}

static void *s_accept(void *arg) {
    (void)arg;
    while (!atomic_load(&s_stop)) {
        int fd = accept(s_listen_fd, NULL, NULL);
        if (fd < 0 || atomic_load(&s_stop)) {
            if (fd >= 0) {
                close(fd);
            }
            break;
        }
        pthread_t t;
        if (pthread_create(&t, NULL, s_connection, (void *)(intptr_t)fd) == 0) {
            pthread_detach(t);
        } else {
            close(fd);
        }
    }
    return NULL;
}

static bool s_line(void *ctx, const char *line, size_t len) {
    (void)ctx, (void)line, (void)len;
    return true;
}

static bool s_body(void *ctx, const char *data, size_t len) {
    char *got = ctx;
    size_t have = strlen(got);
    if (have + len >= 16) {
        return false;
    }
    memcpy(got + have, data, len);
    got[have + len] = '\0';
    return true;
}

static void *s_client(void *arg) {
    intptr_t id = (intptr_t)arg;
    static const struct anvil__tls_trust no_trust;
    struct anvil__http_transport t;
    anvil__http_transport_init(&t, NULL, &no_trust);
    intptr_t bad = 0;
    for (int i = 0; i < ROUNDS; i++) {
        const char *host = "127.0.0.1";
        char url[64], authority[64];
        snprintf(url, sizeof url, "http://%s:%d/t%ld/%d", host, s_port, (long)id, i);
        snprintf(authority, sizeof authority, "%s:%d", host, s_port);
        struct anvil_http_header headers[] = {{ANVIL_SV("Host"), anvil_sv_from_cstr(authority)}};
        char got[16] = "";
        struct anvil__http_request r = {.method = "GET",
                                        .url = url,
                                        .headers = headers,
                                        .header_count = 1,
                                        .connect_timeout_ms = 10000,
                                        .timeout_ms = 20000,
                                        .on_line = s_line,
                                        .on_body = s_body,
                                        .ctx = got};
        struct anvil__http_result res;
        if (anvil__http_exchange(&t, &r, &res) != ANVIL_OK || res.outcome != ANVIL__HTTP_OK ||
            strcmp(got, "pong") != 0) {
            fprintf(stderr, "thread %ld round %d: outcome %d (%s), body `%s`\n", (long)id, i, (int)res.outcome,
                    res.error, got);
            bad++;
        }
    }
    anvil__http_transport_clean_up(&t);
    return (void *)bad;
}

int main(void) {
    s_listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (s_listen_fd < 0 || bind(s_listen_fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(s_listen_fd, 64) != 0 ||
        getsockname(s_listen_fd, (struct sockaddr *)&a, &len) != 0) {
        perror("http_threads: listen");
        return 1;
    }
    s_port = ntohs(a.sin_port);
    pthread_t server, clients[THREADS];
    pthread_create(&server, NULL, s_accept, NULL);
    for (intptr_t i = 0; i < THREADS; i++) {
        pthread_create(&clients[i], NULL, s_client, (void *)i);
    }
    long bad = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(clients[i], &r);
        bad += (long)(intptr_t)r;
    }
    atomic_store(&s_stop, true);
    int wake = socket(AF_INET, SOCK_STREAM, 0);
    (void)connect(wake, (struct sockaddr *)&a, sizeof a);
    close(wake);
    pthread_join(server, NULL);
    close(s_listen_fd);
    printf("http threads: %d threads x %d exchanges, %ld failed\n", THREADS, ROUNDS, bad);
    return bad ? 1 : 0;
}
