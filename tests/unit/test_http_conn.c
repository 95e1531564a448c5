/*
 * anvil's own HTTP/1.1 transport (src/transport/http_conn.h) against a
 * scripted server on 127.0.0.1 in a thread: kept connections and their
 * reuse, a kept connection the server dropped (sent again once, on a new
 * one), a new one dropped (not sent again), bodies by length, by chunks and
 * until close, the reader stopping the body, the cancel flag, bad URLs, and
 * when a proxy setting hands exchanges to libcurl.
 */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "transport/http_conn.h"

/* What the server does with one request: answer it (NULL: close without answering), then maybe close. */
struct s_step {
    const char *answer;
    bool close_after;
};

struct s_server {
    int fd;
    int port;
    const struct s_step *steps;
    size_t step_count;
    int accepts;
    int requests;
    /* Repeat the steps until `stop` (then a connection wakes the server up to see it). */
    bool repeat;
    volatile bool stop;
    pthread_t thread;
};

/* The last request line the server read. */
static char s_request_line[256];

/* Reads one request (headers, then Content-Length bytes of body): false when the connection ended first. */
static bool s_read_request(int fd) {
    char buf[8192];
    size_t len = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0) {
            return false;
        }
        len += (size_t)n;
        buf[len] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        if (end) {
            snprintf(s_request_line, sizeof s_request_line, "%.*s", (int)strcspn(buf, "\r"), buf);
            const char *cl = strstr(buf, "Content-Length: ");
            size_t body = cl ? (size_t)strtoul(cl + 16, NULL, 10) : 0;
            size_t have = len - (size_t)(end + 4 - buf);
            while (have < body) {
                n = read(fd, buf, sizeof buf);
                if (n <= 0) {
                    return false;
                }
                have += (size_t)n;
            }
            return true;
        }
        if (len == sizeof buf - 1) {
            return false;
        }
    }
}

static void *s_serve(void *arg) {
    struct s_server *s = arg;
    size_t step = 0;
    while (s->repeat ? !s->stop : step < s->step_count) {
        int conn = accept(s->fd, NULL, NULL);
        if (conn < 0 || s->stop) {
            if (conn >= 0) {
                close(conn);
            }
            break;
        }
        s->accepts++;
        while ((s->repeat || step < s->step_count) && s_read_request(conn)) {
            s->requests++;
            const struct s_step *st = &s->steps[s->repeat ? step++ % s->step_count : step++];
            if (!st->answer) {
                break;
            }
            size_t len = strlen(st->answer);
            if (write(conn, st->answer, len) != (ssize_t)len || st->close_after) {
                break;
            }
        }
        close(conn);
    }
    close(s->fd);
    return NULL;
}

/* A server on 127.0.0.1:`port` (0: any free port). */
static bool s_start_on(struct s_server *s, const struct s_step *steps, size_t count, int port) {
    memset(s, 0, sizeof *s);
    s->steps = steps;
    s->step_count = count;
    s->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {
        .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = htons((uint16_t)port)};
    socklen_t len = sizeof a;
    if (s->fd < 0 || bind(s->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(s->fd, 4) != 0 ||
        getsockname(s->fd, (struct sockaddr *)&a, &len) != 0) {
        return false;
    }
    s->port = ntohs(a.sin_port);
    return pthread_create(&s->thread, NULL, s_serve, s) == 0;
}

static bool s_start(struct s_server *s, const struct s_step *steps, size_t count) {
    return s_start_on(s, steps, count, 0);
}

struct s_got {
    char body[256];
    size_t body_len;
    size_t limit;
    int lines;
};

static bool s_line(void *ctx, const char *line, size_t len) {
    (void)line;
    (void)len;
    ((struct s_got *)ctx)->lines++;
    return true;
}

static bool s_body(void *ctx, const char *data, size_t len) {
    struct s_got *g = ctx;
    size_t limit = g->limit ? g->limit : sizeof g->body;
    if (g->body_len + len > limit) {
        return false;
    }
    memcpy(g->body + g->body_len, data, len);
    g->body_len += len;
    return true;
}

/* One GET to the server through `t`. */
static int s_get(struct anvil__http_transport *t, int port, const char *path, struct s_got *got,
                 const volatile sig_atomic_t *cancel, struct anvil__http_result *out) {
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
    char host[64];
    snprintf(host, sizeof host, "127.0.0.1:%d", port);
    struct anvil_http_header headers[] = {{ANVIL_SV("Host"), anvil_sv_from_cstr(host)}};
    size_t limit = got->limit;
    memset(got, 0, sizeof *got);
    got->limit = limit;
    struct anvil__http_request r = {.method = "GET",
                                    .url = url,
                                    .headers = headers,
                                    .header_count = 1,
                                    .connect_timeout_ms = 5000,
                                    .timeout_ms = 10000,
                                    .cancel = cancel,
                                    .on_line = s_line,
                                    .on_body = s_body,
                                    .ctx = got};
    return anvil__http_exchange(t, &r, out);
}

static const struct anvil__tls_trust s_no_trust;

TEST(http_conn_keeps_and_replaces_connections) {
    static const struct s_step steps[] = {
        {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none", false},
        {"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo", false},
        /* The third request on the kept connection: dropped, so it goes again on a new one. */
        {NULL, false},
        {"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nthree", false},
        /* A new connection dropped: a failure, not sent again. */
        {NULL, false},
    };
    struct s_server srv;
    CHECK(s_start(&srv, steps, 5));
    struct anvil__http_transport tr;
    anvil__http_transport_init(&tr, NULL, &s_no_trust);
    struct s_got got = {0};
    struct anvil__http_result r;
    CHECK_OK(s_get(&tr, srv.port, "/1", &got, NULL, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_OK);
    CHECK_EQ_INT(r.status, 200);
    CHECK_MEM_EQ(got.body, got.body_len, "one");
    CHECK_OK(s_get(&tr, srv.port, "/2", &got, NULL, &r));
    CHECK_MEM_EQ(got.body, got.body_len, "two");
    CHECK_OK(s_get(&tr, srv.port, "/3", &got, NULL, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_OK);
    CHECK_MEM_EQ(got.body, got.body_len, "three");
    CHECK_OK(s_get(&tr, srv.port, "/4", &got, NULL, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_RECV);
    CHECK_STR_EQ(r.error, "the connection closed with no answer");
    anvil__http_transport_clean_up(&tr);
    pthread_join(srv.thread, NULL);
    CHECK_EQ_INT(srv.accepts, 3); /* /1 /2 /3 on the first; /3 again and done on the second; /4 on the third */
    CHECK_EQ_INT(srv.requests, 5);
done:;
}

TEST(http_conn_bodies) {
    static const struct s_step steps[] = {
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", false},
        {"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}", false},
        /* Too large for the reader: stopped, and the connection is not kept. */
        {"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n01234567890123456789", false},
        {"HTTP/1.1 500 Oops\r\n\r\nuntil close", true},
    };
    struct s_server srv;
    CHECK(s_start(&srv, steps, 4));
    struct anvil__http_transport tr;
    anvil__http_transport_init(&tr, NULL, &s_no_trust);
    struct s_got got = {0};
    struct anvil__http_result r;
    CHECK_OK(s_get(&tr, srv.port, "/", &got, NULL, &r));
    CHECK_MEM_EQ(got.body, got.body_len, "abcde");
    CHECK_EQ_INT(got.lines, 2);
    CHECK_OK(s_get(&tr, srv.port, "/", &got, NULL, &r));
    CHECK_EQ_INT(r.status, 404);
    got.limit = 10;
    CHECK_OK(s_get(&tr, srv.port, "/", &got, NULL, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_STOPPED);
    got.limit = 0;
    CHECK_OK(s_get(&tr, srv.port, "/", &got, NULL, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_OK);
    CHECK_EQ_INT(r.status, 500);
    CHECK_MEM_EQ(got.body, got.body_len, "until close");
    anvil__http_transport_clean_up(&tr);
    pthread_join(srv.thread, NULL);
    CHECK_EQ_INT(srv.accepts, 2);
done:;
}

TEST(http_conn_cancel_and_bad_urls) {
    static const struct s_step steps[] = {{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false}};
    struct s_server srv;
    CHECK(s_start(&srv, steps, 1));
    struct anvil__http_transport tr;
    anvil__http_transport_init(&tr, NULL, &s_no_trust);
    struct s_got got = {0};
    struct anvil__http_result r;
    volatile sig_atomic_t cancel = 1;
    CHECK_OK(s_get(&tr, srv.port, "/", &got, &cancel, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_CANCELLED);
    CHECK_OK(s_get(&tr, srv.port, "?x=1#frag", &got, NULL, &r)); /* lets the server finish */
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_OK);
    /* A query with no path goes after "/"; a fragment is not sent. */
    CHECK_STR_EQ(s_request_line, "GET /?x=1 HTTP/1.1");
    static const char *const bad[] = {"ftp://127.0.0.1/", "http://[::1/",           "http://127.0.0.1:99999/",
                                      "http://:80/",      "http://user@127.0.0.1/", "http://127.0.0.1:8x/"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct anvil__http_request req = {.method = "GET", .url = bad[i], .timeout_ms = 1000};
        CHECK_OK(anvil__http_exchange(&tr, &req, &r));
        CHECK_EQ_INT(r.outcome, ANVIL__HTTP_CONNECT);
        CHECK_STR_EQ(r.error, "not an http:// or https:// URL anvil can connect to");
    }
    anvil__http_transport_clean_up(&tr);
    pthread_join(srv.thread, NULL);
done:;
}

/* A listener on 127.0.0.1 whose queue is full: the kernel drops further SYNs, as a black-holed route does. */
static int s_black_hole(struct sockaddr_in *a, int fillers[4]) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    *a = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof *a;
    if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof *a) != 0 || listen(fd, 0) != 0 ||
        getsockname(fd, (struct sockaddr *)a, &len) != 0) {
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        fillers[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        (void)connect(fillers[i], (struct sockaddr *)a, sizeof *a);
    }
    return fd;
}

/*
 * Addresses race (Happy Eyeballs): the first never answers, the second (a
 * server) starts after the stagger and wins; a refused address is an error
 * naming it; a black hole alone: the timeout.
 */
TEST(http_conn_races_addresses) {
    int fillers[4] = {-1, -1, -1, -1};
    struct sockaddr_in hole;
    int hole_fd = s_black_hole(&hole, fillers);
    CHECK(hole_fd >= 0);
    static const struct s_step steps[] = {{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false}};
    struct s_server srv;
    CHECK(s_start(&srv, steps, 1));
    struct sockaddr_in good = {
        .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = htons((uint16_t)srv.port)};
    struct sockaddr_in refused = good;
    refused.sin_port = htons(9);
    struct sockaddr_storage as[2];
    socklen_t lens[2] = {sizeof hole, sizeof good};
    memcpy(&as[0], &hole, sizeof hole);
    memcpy(&as[1], &good, sizeof good);
    struct anvil__http_transport tr;
    anvil__http_transport_init(&tr, NULL, &s_no_trust);
    char error[256] = "";
    CHECK_EQ_INT(anvil__http_connect_addresses(&tr, as, lens, 2, 5000, error, sizeof error), ANVIL__HTTP_OK);
    CHECK(tr.fd >= 0);
    /* The winner is the server: the exchange on it gets its answer (and lets the thread end). */
    struct s_got got = {0};
    struct anvil__http_result r;
    snprintf(tr.origin, sizeof tr.origin, "http://127.0.0.1:%d", srv.port);
    CHECK_OK(s_get(&tr, srv.port, "/", &got, NULL, &r));
    CHECK_EQ_INT(r.outcome, ANVIL__HTTP_OK);
    pthread_join(srv.thread, NULL);
    /* A refused address: an error at once, naming it. */
    memcpy(&as[0], &refused, sizeof refused);
    lens[0] = sizeof refused;
    CHECK_EQ_INT(anvil__http_connect_addresses(&tr, as, lens, 1, 5000, error, sizeof error), ANVIL__HTTP_CONNECT);
    CHECK_STR_EQ(error, "cannot connect to 127.0.0.1 port 9: Connection refused");
    /* Only a black hole: the timeout, naming it. */
    memcpy(&as[0], &hole, sizeof hole);
    lens[0] = sizeof hole;
    CHECK_EQ_INT(anvil__http_connect_addresses(&tr, as, lens, 1, 300, error, sizeof error), ANVIL__HTTP_TIMEOUT);
    CHECK(strstr(error, "took longer than the connect timeout") != NULL);
    anvil__http_transport_clean_up(&tr);
done:
    for (int i = 0; i < 4; i++) {
        if (fillers[i] >= 0) {
            close(fillers[i]);
        }
    }
    if (hole_fd >= 0) {
        close(hole_fd);
    }
}

/* An allocator that fails its `countdown`-th request (counting from 0), once. */
struct s_failing {
    struct anvil_allocator base;
    int countdown;
    bool failed;
};

static void *s_fail_acquire(struct anvil_allocator *a, size_t size) {
    struct s_failing *f = (struct s_failing *)a;
    if (f->countdown-- == 0) {
        f->failed = true;
        return NULL;
    }
    return malloc(size);
}

static void *s_fail_realloc(struct anvil_allocator *a, void *ptr, size_t size) {
    struct s_failing *f = (struct s_failing *)a;
    if (f->countdown-- == 0) {
        f->failed = true;
        return NULL;
    }
    return realloc(ptr, size);
}

static void s_fail_release(struct anvil_allocator *a, void *ptr) {
    (void)a;
    free(ptr);
}

/*
 * Every allocation of an exchange failing in turn: ANVIL_ENOMEM, or an
 * exchange that still works; nothing leaks (LeakSanitizer at exit) and the
 * transport stays usable for the next one.
 */
TEST(http_conn_allocation_failures) {
    static const struct s_step steps[] = {{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", false}};
    struct s_server srv;
    CHECK(s_start(&srv, steps, 1));
    srv.repeat = true;
    int points = 0;
    for (int n = 0; n < 64; n++) {
        struct s_failing f = {{s_fail_acquire, s_fail_realloc, s_fail_release, NULL}, n, false};
        struct anvil__http_transport tr;
        anvil__http_transport_init(&tr, &f.base, &s_no_trust);
        struct s_got got = {0};
        struct anvil__http_result r;
        char path[16];
        snprintf(path, sizeof path, "%s", n % 2 ? "?q=1" : "/a");
        int rc = s_get(&tr, srv.port, path, &got, NULL, &r);
        anvil__http_transport_clean_up(&tr);
        if (!f.failed) {
            CHECK_OK(rc);
            CHECK_EQ_INT(r.outcome, ANVIL__HTTP_OK);
            CHECK_MEM_EQ(got.body, got.body_len, "ok");
            break;
        }
        points++;
        CHECK(rc == ANVIL_ENOMEM || (rc == ANVIL_OK && r.outcome != ANVIL__HTTP_OK) ||
              (rc == ANVIL_OK && got.body_len == 2));
    }
    CHECK(points > 0);
done:
    srv.stop = true;
    int wake = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {
        .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = htons((uint16_t)srv.port)};
    (void)connect(wake, (struct sockaddr *)&a, sizeof a);
    close(wake);
    pthread_join(srv.thread, NULL);
}

/*
 * The transport's one reading of a URL, which the container endpoint's check also uses: what it
 * accepts (and the host, port and target it connects to), and what it refuses. The forms a
 * resolver would read differently (octal, hex, short IPv4; a trailing dot) stay names, so the
 * check (inet_pton or exactly `localhost`) refuses them.
 */
TEST(http_conn_url_reading) {
    static const struct {
        const char *url;
        const char *host; /* NULL: refused */
        const char *port;
        const char *target;
        bool is_ip;
    } cases[] = {
        {"http://127.0.0.1/creds", "127.0.0.1", "80", "/creds", true},
        {"HTTPS://Example.com:8443/a?b=c#frag", "Example.com", "8443", "/a?b=c", false},
        {"http://[::1]:8080", "::1", "8080", "", true},
        {"http://[fd00:ec2::23]/v2", "fd00:ec2::23", "80", "/v2", true},
        {"http://localhost:1234?x=1", "localhost", "1234", "?x=1", false},
        {"http://127.0.0.1/@8.8.8.8", "127.0.0.1", "80", "/@8.8.8.8", true},
        {"http://127.0.0.1#@evil.example/", "127.0.0.1", "80", "", true},
        {"http://0177.0.0.1/", "0177.0.0.1", "80", "/", false},
        {"http://2130706433/", "2130706433", "80", "/", false},
        {"http://127.1/", "127.1", "80", "/", false},
        {"http://localhost./", "localhost.", "80", "/", false},
        {"http://user:pw@127.0.0.1/", NULL, NULL, NULL, false},
        {"http://127.0.0.1@evil/", NULL, NULL, NULL, false},
        {"http://[::1%25lo]/", NULL, NULL, NULL, false},
        {"http://[127.0.0.1]/", NULL, NULL, NULL, false},
        {"http://[::1/", NULL, NULL, NULL, false},
        {"http://[::1]x/", NULL, NULL, NULL, false},
        {"http://:80/", NULL, NULL, NULL, false},
        {"http://127.0.0.1:/", NULL, NULL, NULL, false},
        {"http://127.0.0.1:0/", NULL, NULL, NULL, false},
        {"http://127.0.0.1:65536/", NULL, NULL, NULL, false},
        {"http://127.0.0.1:+80/", NULL, NULL, NULL, false},
        {"http://127.0.0.1:80:80/", NULL, NULL, NULL, false},
        {"ftp://127.0.0.1/", NULL, NULL, NULL, false},
        {"http:/127.0.0.1/", NULL, NULL, NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil__http_target target;
        bool ok = anvil__http_split_url(cases[i].url, &target);
        if (ok != (cases[i].host != NULL)) {
            fprintf(stderr, "%s: %s\n", cases[i].url, ok ? "accepted" : "refused");
        }
        CHECK(ok == (cases[i].host != NULL));
        if (!ok) {
            continue;
        }
        CHECK_STR_EQ(target.host, cases[i].host);
        CHECK_STR_EQ(target.port, cases[i].port);
        CHECK(target.path_len == strlen(cases[i].target) && memcmp(target.path, cases[i].target, target.path_len) == 0);
        CHECK(target.host_is_ip == cases[i].is_ip);
    }
done:;
}

struct s_env {
    const char *names[4];
    const char *values[4];
};

static const char *s_lookup(void *ctx, const char *name) {
    const struct s_env *e = ctx;
    for (int i = 0; i < 4 && e->names[i]; i++) {
        if (strcmp(e->names[i], name) == 0) {
            return e->values[i];
        }
    }
    return NULL;
}

TEST(http_conn_proxies_go_to_curl) {
    struct s_env none = {{NULL}, {NULL}};
    CHECK(anvil__http_builtin_serves("http://h/", s_lookup, &none));
    CHECK(anvil__http_builtin_serves("https://h/", s_lookup, &none));
    struct s_env http = {{"http_proxy"}, {"http://proxy:3128"}};
    CHECK(!anvil__http_builtin_serves("http://h/", s_lookup, &http));
    CHECK(anvil__http_builtin_serves("https://h/", s_lookup, &http));
    /* HTTP_PROXY in capitals is not read for http (httpoxy), as libcurl has it. */
    struct s_env upper = {{"HTTP_PROXY"}, {"http://proxy:3128"}};
    CHECK(anvil__http_builtin_serves("http://h/", s_lookup, &upper));
    struct s_env https = {{"HTTPS_PROXY"}, {"http://proxy:3128"}};
    CHECK(!anvil__http_builtin_serves("HTTPS://h/", s_lookup, &https));
    CHECK(anvil__http_builtin_serves("http://h/", s_lookup, &https));
    struct s_env all = {{"all_proxy"}, {"socks5://proxy"}};
    CHECK(!anvil__http_builtin_serves("http://h/", s_lookup, &all));
    struct s_env empty = {{"all_proxy", "https_proxy"}, {"", ""}};
    CHECK(anvil__http_builtin_serves("https://h/", s_lookup, &empty));
    struct s_env forced = {{"ANVIL_HTTP"}, {"curl"}};
    CHECK(!anvil__http_builtin_serves("http://h/", s_lookup, &forced));
done:;
}
