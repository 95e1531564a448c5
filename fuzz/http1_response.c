/*
 * libFuzzer target: the HTTP/1.1 answer parser (src/transport/http1.h, an
 * internal interface). The first byte picks a HEAD request and a piece size;
 * the rest is what the server sent, fed whole and then in pieces of that
 * size, with EOF after. Both must give the same outcome, status, lines, body
 * and error; a failure must say why; the body is never more than was sent.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "transport/http1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "http1 fuzz: %s\n", what);
        abort();
    }
}

struct s_seen {
    struct anvil_buf lines;
    struct anvil_buf body;
};

static bool s_on_line(void *ctx, const char *line, size_t len) {
    struct s_seen *s = ctx;
    s_check(memchr(line, '\n', len) == NULL && memchr(line, '\r', len) == NULL, "a line holds a line end");
    return anvil_buf_append(&s->lines, line, len) == ANVIL_OK && anvil_buf_append_byte(&s->lines, '\n') == ANVIL_OK;
}

static bool s_on_body(void *ctx, const char *data, size_t len) {
    struct s_seen *s = ctx;
    /* A bound, as the client has one: past it the reader stops the parser. */
    return s->body.len + len <= 4096 && anvil_buf_append(&s->body, data, len) == ANVIL_OK;
}

struct s_run {
    int rc;
    int status;
    bool keep_alive;
    size_t used;
    char error[160];
    struct s_seen seen;
};

static void s_parse(const char *text, size_t len, size_t piece, bool head, struct s_run *r) {
    memset(r, 0, sizeof *r);
    anvil_buf_init(&r->seen.lines, NULL, 0);
    anvil_buf_init(&r->seen.body, NULL, 0);
    struct anvil__http1_parser p = {.on_line = s_on_line, .on_body = s_on_body, .ctx = &r->seen, .head = head};
    anvil__http1_parser_init(&p, NULL);
    int rc = ANVIL_OK;
    size_t at = 0;
    while (rc == ANVIL_OK && at < len) {
        size_t n = piece && len - at > piece ? piece : len - at;
        size_t used = 0;
        rc = anvil__http1_feed(&p, text + at, n, &used);
        s_check(used <= n, "used more than it was given");
        s_check(rc != ANVIL_OK || used == n, "asked for more without taking what it had");
        at += used;
    }
    if (rc == ANVIL_OK) {
        rc = anvil__http1_eof(&p);
    }
    r->rc = rc;
    r->status = p.status;
    r->keep_alive = p.keep_alive;
    r->used = at;
    snprintf(r->error, sizeof r->error, "%s", p.error);
    anvil__http1_parser_clean_up(&p);
}

static void s_free(struct s_run *r) {
    anvil_buf_clean_up(&r->seen.lines);
    anvil_buf_clean_up(&r->seen.body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    bool head = data[0] & 1;
    size_t piece = (size_t)(data[0] >> 1) + 1;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    struct s_run whole, split;
    s_parse(text, len, 0, head, &whole);
    s_parse(text, len, piece, head, &split);
    s_check(whole.rc == ANVIL__HTTP1_DONE || whole.rc == ANVIL_ESYNTAX || whole.rc == ANVIL_ECANCELED,
            "an outcome other than done, malformed or stopped");
    s_check(whole.rc == ANVIL__HTTP1_DONE || whole.error[0], "a failure without a reason");
    s_check(whole.seen.body.len <= len, "more body than was sent");
    /* How far a stopped parse got depends on where the pieces ended; a finished one's length does not. */
    s_check(whole.rc == split.rc && whole.status == split.status && whole.keep_alive == split.keep_alive &&
                (whole.rc != ANVIL__HTTP1_DONE || whole.used == split.used) && strcmp(whole.error, split.error) == 0,
            "the outcome depends on how the bytes arrived");
    s_check(whole.seen.lines.len == split.seen.lines.len &&
                (whole.seen.lines.len == 0 ||
                 memcmp(whole.seen.lines.data, split.seen.lines.data, whole.seen.lines.len) == 0),
            "the header lines depend on how the bytes arrived");
    /* A stop by the body's bound comes at a piece boundary: the whole run's body is then empty or shorter. */
    if (whole.rc != ANVIL_ECANCELED) {
        s_check(whole.seen.body.len == split.seen.body.len &&
                    (whole.seen.body.len == 0 ||
                     memcmp(whole.seen.body.data, split.seen.body.data, whole.seen.body.len) == 0),
                "the body depends on how the bytes arrived");
    }
    s_free(&whole);
    s_free(&split);
    return 0;
}
