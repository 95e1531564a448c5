/*
 * HTTP/1.1 messages (src/transport/http1.h): requests as written, and
 * answers as parsed, each fed whole and then split at every byte (the
 * result must not depend on how the bytes arrive).
 */

#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "transport/http1.h"

struct s_seen {
    char lines[2048];
    char body[256];
    size_t body_len;
    size_t body_limit;
};

static bool s_on_line(void *ctx, const char *line, size_t len) {
    struct s_seen *s = ctx;
    size_t at = strlen(s->lines);
    snprintf(s->lines + at, sizeof s->lines - at, "%.*s|", (int)len, line);
    return true;
}

static bool s_on_body(void *ctx, const char *data, size_t len) {
    struct s_seen *s = ctx;
    if (s->body_len + len > s->body_limit) {
        return false;
    }
    memcpy(s->body + s->body_len, data, len);
    s->body_len += len;
    return true;
}

struct s_result {
    int rc; /* of the last feed, or of eof when the feeds needed more */
    int status;
    bool keep_alive;
    size_t used;
    struct s_seen seen;
    char error[160];
};

/* Parses `text` fed in pieces of `piece` bytes (0 = whole), then EOF when `eof` and more was needed. */
static void s_parse(const char *text, size_t len, size_t piece, bool head, bool eof, size_t body_limit,
                    struct s_result *r) {
    memset(r, 0, sizeof *r);
    r->seen.body_limit = body_limit ? body_limit : sizeof r->seen.body;
    struct anvil__http1_parser p = {.on_line = s_on_line, .on_body = s_on_body, .ctx = &r->seen, .head = head};
    anvil__http1_parser_init(&p, NULL);
    size_t at = 0;
    int rc = ANVIL_OK;
    while (at < len && rc == ANVIL_OK) {
        size_t n = piece && len - at > piece ? piece : len - at;
        size_t used = 0;
        rc = anvil__http1_feed(&p, text + at, n, &used);
        at += used;
    }
    if (rc == ANVIL_OK && eof) {
        rc = anvil__http1_eof(&p);
    }
    r->rc = rc;
    r->status = p.status;
    r->keep_alive = p.keep_alive;
    r->used = at;
    snprintf(r->error, sizeof r->error, "%s", p.error);
    anvil__http1_parser_clean_up(&p);
}

/* The same outcome whole and split at every byte. */
static bool s_same_split(const char *text, bool head, bool eof, struct s_result *whole) {
    size_t len = strlen(text);
    s_parse(text, len, 0, head, eof, 0, whole);
    for (size_t piece = 1; piece < len; piece++) {
        struct s_result r;
        s_parse(text, len, piece, head, eof, 0, &r);
        if (r.rc != whole->rc || r.status != whole->status || r.keep_alive != whole->keep_alive ||
            r.used != whole->used || strcmp(r.seen.lines, whole->seen.lines) != 0 ||
            r.seen.body_len != whole->seen.body_len || memcmp(r.seen.body, whole->seen.body, r.seen.body_len) != 0 ||
            strcmp(r.error, whole->error) != 0) {
            fprintf(stderr, "split in pieces of %zu differs for: %s\n", piece, text);
            return false;
        }
    }
    return true;
}

TEST(http1_answers) {
    struct s_result r;
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A:  b \r\n\r\nhello", false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK_EQ_INT(r.status, 200);
    CHECK(r.keep_alive);
    CHECK_STR_EQ(r.seen.lines, "HTTP/1.1 200 OK|Content-Length: 5|X-A:  b |");
    CHECK_MEM_EQ(r.seen.body, r.seen.body_len, "hello");

    /* Bytes past the answer are not taken. */
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiEXTRA", false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK_EQ_U64(r.used, strlen("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"));

    /* Chunked, with extensions and trailers; it wins over a Content-Length. */
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "5;ext=1\r\nhello\r\n6 \r\n world\r\nA\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\n",
                       false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK_MEM_EQ(r.seen.body, r.seen.body_len, "hello world0123456789");
    CHECK(!r.keep_alive); /* both framings: not kept */
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n", false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK(r.keep_alive);

    /* Until the connection closes: done at EOF, never reused. */
    CHECK(s_same_split("HTTP/1.1 500 Internal Server Error\r\nX: y\r\n\r\nabc", false, true, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK_EQ_INT(r.status, 500);
    CHECK(!r.keep_alive);
    CHECK_MEM_EQ(r.seen.body, r.seen.body_len, "abc");

    /* Persistence: HTTP/1.1 unless close; HTTP/1.0 only with keep-alive. */
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE\r\nContent-Length: 0\r\n\r\n", false, false,
                       &r));
    CHECK(!r.keep_alive);
    CHECK(s_same_split("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK(!r.keep_alive);
    CHECK(s_same_split("HTTP/1.0 200 OK\r\nconnection: keep-alive\r\nContent-Length: 0\r\n\r\n", false, false, &r));
    CHECK(r.keep_alive);

    /* Interim answers come first, each group of lines starting with its status line. */
    CHECK(s_same_split("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX: 1\r\n\r\n"
                       "HTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nk",
                       false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK_EQ_INT(r.status, 201);
    CHECK_STR_EQ(r.seen.lines,
                 "HTTP/1.1 100 Continue|HTTP/1.1 102 Processing|X: 1|HTTP/1.1 201 Created|Content-Length: 1|");

    /* No body: 204, 304, and any answer to HEAD. Bare LF line ends are read. */
    CHECK(s_same_split("HTTP/1.1 204 No Content\n\n", false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK(s_same_split("HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n", false, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", true, false, &r));
    CHECK_EQ_INT(r.rc, ANVIL__HTTP1_DONE);
    CHECK_EQ_U64(r.seen.body_len, 0);
    /* A status line without a reason phrase. */
    CHECK(s_same_split("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n", false, false, &r));
    CHECK_EQ_INT(r.status, 404);
done:;
}

TEST(http1_refused) {
    static const struct {
        const char *text;
        const char *error;
    } cases[] = {
        {"HTTP/2 200 OK\r\n\r\n", "the answer does not start with an HTTP/1.x status line"},
        {"SSH-2.0-OpenSSH\r\n", "the answer does not start with an HTTP/1.x status line"},
        {"HTTP/1.1 20 OK\r\n\r\n", "the status line has no three-digit status code"},
        {"HTTP/1.1 2000 OK\r\n\r\n", "the status line has no three-digit status code"},
        {"HTTP/1.1 600 Huh\r\n\r\n", "the status line has no three-digit status code"},
        {"HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", "a header folded over several lines"},
        {"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "a header line that is not `name: value`"},
        {"HTTP/1.1 200 OK\r\nContent-Length : 1\r\n\r\nx", "a header line that is not `name: value`"},
        {"HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "a header line that is not `name: value`"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
         "two Content-Length headers that disagree"},
        {"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "a Content-Length that is not a number of bytes"},
        {"HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\n", "a Content-Length that is not a number of bytes"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", "a Content-Length that is not a number of bytes"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n", "a Content-Length that is not a number of bytes"},
        {"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
         "a Content-Length that is not a number of bytes"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
         "a transfer coding anvil did not ask for (only chunked is read)"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
         "a transfer coding anvil did not ask for (only chunked is read)"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
         "a transfer coding anvil did not ask for (only chunked is read)"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
         "a transfer coding anvil did not ask for (only chunked is read)"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a chunk size that is not hexadecimal"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", "a chunk size that is not hexadecimal"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\n", "a chunk size that is not hexadecimal"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "a chunk longer than its size"},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n",
         "a chunk larger than 2^53 bytes"},
        {"HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n", "a NUL or a lone CR in the answer's header section"},
        {"HTTP/1.1 101 Switching Protocols\r\n\r\n", "a 101 Switching Protocols answer, which anvil never asks for"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct s_result r;
        CHECK(s_same_split(cases[i].text, false, true, &r));
        if (r.rc != ANVIL_ESYNTAX || strcmp(r.error, cases[i].error) != 0) {
            fprintf(stderr, "case %zu: rc %d, error `%s`\n", i, r.rc, r.error);
        }
        CHECK_EQ_INT(r.rc, ANVIL_ESYNTAX);
        CHECK_STR_EQ(r.error, cases[i].error);
    }
    /* A NUL in a header (not a C string: built by hand). */
    const char nul[] = "HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n";
    struct s_result r;
    s_parse(nul, sizeof nul - 1, 0, false, true, 0, &r);
    CHECK_EQ_INT(r.rc, ANVIL_ESYNTAX);
    CHECK_STR_EQ(r.error, "a NUL or a lone CR in the answer's header section");
done:;
}

TEST(http1_bounds_and_ends) {
    struct s_result r;
    /* The connection closing early, at each place. */
    CHECK(s_same_split("", false, true, &r));
    CHECK_STR_EQ(r.error, "the connection closed with no answer");
    CHECK(s_same_split("HTTP/1.1 2", false, true, &r));
    CHECK_STR_EQ(r.error, "the connection closed inside the status line");
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nX: y\r\n", false, true, &r));
    CHECK_STR_EQ(r.error, "the connection closed inside the answer's headers");
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", false, true, &r));
    CHECK_STR_EQ(r.error, "the connection closed before the answer's body ended");
    CHECK(s_same_split("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", false, true, &r));
    CHECK_STR_EQ(r.error, "the connection closed before the answer's body ended");

    /* The reader stops the body: ECANCELED, as many bytes as it took. */
    const char *big = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789";
    s_parse(big, strlen(big), 0, false, false, 4, &r);
    CHECK_EQ_INT(r.rc, ANVIL_ECANCELED);
    CHECK_EQ_U64(r.seen.body_len, 0);
    s_parse(big, strlen(big), 3, false, false, 4, &r);
    CHECK_EQ_INT(r.rc, ANVIL_ECANCELED);
    CHECK_EQ_U64(r.seen.body_len, 3);

    /* A line longer than 64 KiB; a header section larger than 1 MiB; more than 16 interim answers. */
    static char text[1200 * 1024];
    int n = snprintf(text, sizeof text, "HTTP/1.1 200 OK\r\nX: ");
    memset(text + n, 'a', 70 * 1024);
    memcpy(text + n + 70 * 1024, "\r\n\r\n", 5);
    s_parse(text, strlen(text), 4096, false, true, 0, &r);
    CHECK_EQ_INT(r.rc, ANVIL_ESYNTAX);
    CHECK_STR_EQ(r.error, "a header or chunk line longer than 64 KiB");
    size_t at = (size_t)snprintf(text, sizeof text, "HTTP/1.1 200 OK\r\n");
    while (at < sizeof text - 40 * 1024) {
        at += (size_t)snprintf(text + at, sizeof text - at, "X: ");
        memset(text + at, 'b', 30 * 1024);
        at += 30 * 1024;
        memcpy(text + at, "\r\n", 3);
        at += 2;
    }
    s_parse(text, at, 65536, false, true, 0, &r);
    CHECK_EQ_INT(r.rc, ANVIL_ESYNTAX);
    CHECK_STR_EQ(r.error, "a header section larger than 1 MiB");
    /* Chunk-size lines are not headers: 300,000 one-byte chunks (1.8 MB of framing) are a body. */
    {
        size_t framing = 0;
        char *big_chunked = malloc(2 * 1024 * 1024);
        CHECK(big_chunked != NULL);
        framing += (size_t)snprintf(big_chunked, 64, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 300000; i++) {
            memcpy(big_chunked + framing, "1\r\nx\r\n", 6);
            framing += 6;
        }
        memcpy(big_chunked + framing, "0\r\n\r\n", 5);
        framing += 5;
        struct anvil__http1_parser p = {.on_line = NULL, .on_body = NULL, .ctx = NULL};
        anvil__http1_parser_init(&p, NULL);
        size_t used = 0;
        int rc = anvil__http1_feed(&p, big_chunked, framing, &used);
        anvil__http1_parser_clean_up(&p);
        free(big_chunked);
        CHECK_EQ_INT(rc, ANVIL__HTTP1_DONE);
        CHECK_EQ_U64(used, framing);
    }
    /* Interim answers count toward the one header bound: 14 of 80 KiB each pass 1 MiB (the 16-answer cap is not
     * reached). */
    at = 0;
    for (int i = 0; i < 14; i++) {
        at += (size_t)snprintf(text + at, sizeof text - at, "HTTP/1.1 100 Continue\r\n");
        for (int line = 0; line < 2; line++) {
            at += (size_t)snprintf(text + at, sizeof text - at, "X: ");
            memset(text + at, 'c', 40 * 1024);
            at += 40 * 1024;
            at += (size_t)snprintf(text + at, sizeof text - at, "\r\n");
        }
        at += (size_t)snprintf(text + at, sizeof text - at, "\r\n");
    }
    s_parse(text, at, 0, false, true, 0, &r);
    CHECK_STR_EQ(r.error, "a header section larger than 1 MiB");
    at = 0;
    for (int i = 0; i < 17; i++) {
        at += (size_t)snprintf(text + at, sizeof text - at, "HTTP/1.1 100 Continue\r\n\r\n");
    }
    s_parse(text, at, 0, false, true, 0, &r);
    CHECK_STR_EQ(r.error, "more than 16 interim (1xx) answers");
done:;
}

/* An allocator that counts how often a block is moved (a moved block leaves its bytes in freed memory). */
static int s_moves;
static void *s_acquire(struct anvil_allocator *a, size_t size) {
    (void)a;
    return malloc(size);
}
static void *s_realloc(struct anvil_allocator *a, void *ptr, size_t size) {
    (void)a;
    s_moves += ptr != NULL;
    return realloc(ptr, size);
}
static void s_release(struct anvil_allocator *a, void *ptr) {
    (void)a;
    free(ptr);
}

/* A signed request with long headers is written into a buffer grown once, never moved. */
TEST(http1_request_buffer_never_moves) {
    struct anvil_allocator counting = {s_acquire, s_realloc, s_release, NULL};
    struct anvil_buf out;
    anvil_buf_init(&out, &counting, 0);
    char token[3000];
    memset(token, 't', sizeof token - 1);
    token[sizeof token - 1] = '\0';
    struct anvil__http1_field fields[] = {{ANVIL_SV("Host"), ANVIL_SV("sts.amazonaws.com")},
                                          {ANVIL_SV("X-Amz-Security-Token"), anvil_sv_from_cstr(token)},
                                          {ANVIL_SV("Authorization"), anvil_sv_from_cstr(token)}};
    s_moves = 0;
    CHECK_OK(anvil__http1_write_request(&out, "POST", ANVIL_SV("/"), fields, 3, "Action=GetCallerIdentity", 24));
    CHECK_EQ_INT(s_moves, 0);
    CHECK(out.len > 6000 && out.len <= out.capacity);
done:
    anvil_buf_clean_up(&out);
}

TEST(http1_requests) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    struct anvil__http1_field fields[] = {{ANVIL_SV("Host"), ANVIL_SV("example.com:8443")},
                                          {ANVIL_SV("X-Empty"), ANVIL_SV("")}};
    CHECK_OK(anvil__http1_write_request(&out, "GET", ANVIL_SV("/a?b=c"), fields, 2, NULL, 0));
    CHECK_MEM_EQ(out.data, out.len, "GET /a?b=c HTTP/1.1\r\nHost: example.com:8443\r\nX-Empty:\r\n\r\n");
    anvil_buf_clear(&out);
    /* A method that carries a body says its length, even 0. */
    CHECK_OK(anvil__http1_write_request(&out, "POST", ANVIL_SV("/"), fields, 1, "", 0));
    CHECK_MEM_EQ(out.data, out.len, "POST / HTTP/1.1\r\nHost: example.com:8443\r\nContent-Length: 0\r\n\r\n");
    anvil_buf_clear(&out);
    CHECK_OK(anvil__http1_write_request(&out, "DELETE", ANVIL_SV("/x"), fields, 1, "{}", 2));
    CHECK_MEM_EQ(out.data, out.len, "DELETE /x HTTP/1.1\r\nHost: example.com:8443\r\nContent-Length: 2\r\n\r\n{}");
    anvil_buf_clear(&out);
    /* A Content-Length among the fields (signed) is the only one. */
    struct anvil__http1_field signed_length[] = {{ANVIL_SV("content-length"), ANVIL_SV("2")}};
    CHECK_OK(anvil__http1_write_request(&out, "POST", ANVIL_SV("/"), signed_length, 1, "{}", 2));
    CHECK_MEM_EQ(out.data, out.len, "POST / HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}");
done:
    anvil_buf_clean_up(&out);
}
