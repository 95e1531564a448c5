#ifndef ANVIL_TRANSPORT_HTTP1_H
#define ANVIL_TRANSPORT_HTTP1_H

/*
 * HTTP/1.1 messages (RFC 9112) as anvil's own transport sends and reads
 * them, with no I/O: a request written into a buffer, and a response parser
 * fed whatever bytes arrive, in pieces of any size. Not installed.
 *
 * The parser is strict where framing is at stake and bounded everywhere: a
 * status or header line of at most ANVIL__HTTP1_LINE_MAX bytes, a header
 * section of at most ANVIL__HTTP1_HEADERS_MAX, chunk sizes that fit 2^53;
 * the body's bound is the caller's (on_body says stop). The header bound
 * covers every header section of an answer (interim ones included); the
 * trailers have their own. Interim 1xx answers are skipped. The body ends by
 * Content-Length, by chunked transfer coding (the only coding read: an
 * answer naming another, or chunked twice, is refused, as anvil asks for
 * none; with a Content-Length as well, chunked wins and the connection is
 * not kept), or, with neither, when the server closes the connection.
 * Refused, as request smuggling's raw material: Content-Length values that
 * disagree or are not digits, header lines folded over several lines, white
 * space before a header's colon, bytes a header cannot hold (NUL, a lone
 * CR), a chunk size that is not hex.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "anvil/buffer.h"
#include "anvil/str_view.h"

#define ANVIL__HTTP1_LINE_MAX (64 * 1024)
#define ANVIL__HTTP1_HEADERS_MAX (1024 * 1024)

/* One header to write: name and value, neither holding CR, LF or NUL (the client checked them). */
struct anvil__http1_field {
    struct anvil_str_view name;
    struct anvil_str_view value;
};

/*
 * Writes a request: `method` and `target` (origin form: "/path?query"; ""
 * goes as "/", and "?query" as "/?query"),
 * the fields as given (the Host field among them), then Content-Length when
 * there is a body or the method usually carries one and the fields have none
 * (a signed request carries its own), then the body. The request is sized
 * first and `out` grown once, so no copy of the fields is left in freed
 * memory (they hold a signature or a token).
 * ANVIL_OK; ANVIL_ENOMEM; ANVIL_ELIMIT when the buffer's limit is passed.
 */
int anvil__http1_write_request(struct anvil_buf *out, const char *method, struct anvil_str_view target,
                               const struct anvil__http1_field *fields, size_t field_count, const void *body,
                               size_t body_len);

struct anvil__http1_parser {
    /*
     * Each line of the final answer's header section as it arrives, without
     * its line end: the status line first, then "Name: value" lines. An
     * interim 1xx answer's lines come too, each group starting with its
     * status line. Returns false to stop (the parser then fails).
     */
    bool (*on_line)(void *ctx, const char *line, size_t len);
    /* Body bytes as they arrive; returns false to stop (the body is too large, say). */
    bool (*on_body)(void *ctx, const char *data, size_t len);
    void *ctx;
    /* The request was HEAD: the answer has no body, whatever its fields say. */
    bool head;

    /* Results: the final status (0 until its line is read), and whether the connection may carry another request. */
    int status;
    bool keep_alive;
    /* Why the parser failed (a sentence, no trailing period). */
    char error[160];

    /* Internal. */
    int state;
    int minor;
    bool close_token;
    bool keep_alive_token;
    bool have_length;
    bool chunked;
    bool stopped;
    bool received;
    int interim;
    uint64_t length;
    uint64_t remaining;
    size_t section_bytes;
    struct anvil_buf line;
};

/* Ready for an answer; `allocator` (NULL = default) holds the line being assembled. */
void anvil__http1_parser_init(struct anvil__http1_parser *p, struct anvil_allocator *allocator);
void anvil__http1_parser_clean_up(struct anvil__http1_parser *p);

/*
 * Feeds `len` bytes. ANVIL_OK: more is needed. ANVIL__HTTP1_DONE: the
 * answer is complete; *used says how many bytes it took (the rest belong to
 * no answer: the connection must not be reused). ANVIL_ESYNTAX: the answer is
 * malformed (error says how). ANVIL_ECANCELED: a callback said stop.
 * ANVIL_ENOMEM.
 */
#define ANVIL__HTTP1_DONE 1
int anvil__http1_feed(struct anvil__http1_parser *p, const char *data, size_t len, size_t *used);

/*
 * The connection closed: ANVIL__HTTP1_DONE when that ends the answer (a
 * body read until close), else ANVIL_ESYNTAX with error saying what was
 * missing.
 */
int anvil__http1_eof(struct anvil__http1_parser *p);

/* Whether any byte of an answer arrived (a reused connection that closed before one may be retried). */
bool anvil__http1_started(const struct anvil__http1_parser *p);

#endif
