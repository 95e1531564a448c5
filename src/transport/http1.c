/* HTTP/1.1 requests written and responses parsed (http1.h). */

#include "transport/http1.h"

#include <stdio.h>
#include <string.h>

#include "anvil/status.h"

enum {
    S_STATUS,
    S_HEADERS,
    S_BODY_LENGTH,
    S_CHUNK_SIZE,
    S_CHUNK_DATA,
    S_CHUNK_END,
    S_TRAILERS,
    S_BODY_CLOSE,
    S_DONE,
    S_FAILED,
};

/* At most this many interim (1xx) answers before the final one. */
#define S_INTERIM_MAX 16
/* A chunk or a Content-Length beyond 2^53 bytes is not a real answer. */
#define S_SIZE_MAX (UINT64_C(1) << 53)

static bool s_method_has_body(const char *method) {
    return strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 || strcmp(method, "PATCH") == 0;
}

int anvil__http1_write_request(struct anvil_buf *out, const char *method, struct anvil_str_view target,
                               const struct anvil__http1_field *fields, size_t field_count, const void *body,
                               size_t body_len) {
    /*
     * The fields hold a signature or a token: the whole request is sized first, so the buffer never
     * moves (a moved buffer would leave a copy in freed memory), and nothing goes through a format.
     */
    /* Origin form (RFC 9112 3.2.1): a path; none is "/", and a query alone follows "/". */
    bool slash = target.len == 0 || target.ptr[0] == '?';
    bool has_length = false;
    size_t size = strlen(method) + 1 + slash + target.len + 11 + 2;
    for (size_t i = 0; i < field_count; i++) {
        has_length = has_length || anvil_sv_eq_ascii_nocase(fields[i].name, ANVIL_SV("Content-Length"));
        size += fields[i].name.len + 2 + fields[i].value.len + 2;
    }
    char length[48] = "";
    if (!has_length && (body_len || s_method_has_body(method))) {
        snprintf(length, sizeof length, "Content-Length: %zu\r\n", body_len);
    }
    size += strlen(length) + body_len;
    int rc = anvil_buf_reserve(out, size);
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, method) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append(out, " /", slash ? 2 : 1) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_sv(out, target) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " HTTP/1.1\r\n") : rc;
    for (size_t i = 0; i < field_count && rc == ANVIL_OK; i++) {
        rc = anvil_buf_append_sv(out, fields[i].name);
        rc = rc == ANVIL_OK ? anvil_buf_append(out, fields[i].value.len ? ": " : ":", fields[i].value.len ? 2 : 1) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_sv(out, fields[i].value) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append(out, "\r\n", 2) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, length) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append(out, "\r\n", 2) : rc;
    return rc == ANVIL_OK && body_len ? anvil_buf_append(out, body, body_len) : rc;
}

void anvil__http1_parser_init(struct anvil__http1_parser *p, struct anvil_allocator *allocator) {
    bool (*on_line)(void *, const char *, size_t) = p->on_line;
    bool (*on_body)(void *, const char *, size_t) = p->on_body;
    void *ctx = p->ctx;
    bool head = p->head;
    memset(p, 0, sizeof *p);
    p->on_line = on_line;
    p->on_body = on_body;
    p->ctx = ctx;
    p->head = head;
    p->state = S_STATUS;
    anvil_buf_init(&p->line, allocator, ANVIL__HTTP1_LINE_MAX);
}

void anvil__http1_parser_clean_up(struct anvil__http1_parser *p) {
    anvil_buf_clean_up(&p->line);
}

static int s_fail(struct anvil__http1_parser *p, int code, const char *why) {
    snprintf(p->error, sizeof p->error, "%s", why);
    p->state = S_FAILED;
    return code;
}

static bool s_tchar(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static struct anvil_str_view s_trim_ows(struct anvil_str_view v) {
    while (v.len && (v.ptr[0] == ' ' || v.ptr[0] == '\t')) {
        v.ptr++;
        v.len--;
    }
    while (v.len && (v.ptr[v.len - 1] == ' ' || v.ptr[v.len - 1] == '\t')) {
        v.len--;
    }
    return v;
}

/* Whether the comma-separated list `v` holds `token` (any case). */
static bool s_list_has(struct anvil_str_view v, const char *token) {
    while (v.len) {
        size_t comma = anvil_sv_find_byte(v, 0, ',');
        size_t n = comma == SIZE_MAX ? v.len : comma;
        if (anvil_sv_eq_ascii_nocase(s_trim_ows(anvil_sv(v.ptr, n)), anvil_sv_from_cstr(token))) {
            return true;
        }
        v = comma == SIZE_MAX ? anvil_sv("", 0) : anvil_sv(v.ptr + comma + 1, v.len - comma - 1);
    }
    return false;
}

static int s_status_line(struct anvil__http1_parser *p, struct anvil_str_view line) {
    /* HTTP/1.x SP 3DIGIT [SP reason] */
    if (line.len < 12 || memcmp(line.ptr, "HTTP/1.", 7) != 0 || line.ptr[7] < '0' || line.ptr[7] > '9' ||
        line.ptr[8] != ' ') {
        return s_fail(p, ANVIL_ESYNTAX, "the answer does not start with an HTTP/1.x status line");
    }
    const char *code = line.ptr + 9;
    if (code[0] < '1' || code[0] > '5' || code[1] < '0' || code[1] > '9' || code[2] < '0' || code[2] > '9' ||
        (line.len > 12 && line.ptr[12] != ' ')) {
        return s_fail(p, ANVIL_ESYNTAX, "the status line has no three-digit status code");
    }
    p->minor = line.ptr[7] - '0';
    p->status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
    p->close_token = p->keep_alive_token = p->have_length = p->chunked = false;
    p->length = 0;
    p->state = S_HEADERS;
    return ANVIL_OK;
}

static int s_field(struct anvil__http1_parser *p, struct anvil_str_view line) {
    if (line.ptr[0] == ' ' || line.ptr[0] == '\t') {
        return s_fail(p, ANVIL_ESYNTAX, "a header folded over several lines");
    }
    size_t colon = 0;
    while (colon < line.len && s_tchar((unsigned char)line.ptr[colon])) {
        colon++;
    }
    if (colon == 0 || colon == line.len || line.ptr[colon] != ':') {
        return s_fail(p, ANVIL_ESYNTAX, "a header line that is not `name: value`");
    }
    struct anvil_str_view name = anvil_sv(line.ptr, colon);
    struct anvil_str_view value = s_trim_ows(anvil_sv(line.ptr + colon + 1, line.len - colon - 1));
    if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("Content-Length"))) {
        uint64_t n = 0;
        /* Digits only (no sign, no list, no white space inside), at most 2^53. */
        if (anvil_sv_parse_u64(value, S_SIZE_MAX, &n) != ANVIL_OK) {
            return s_fail(p, ANVIL_ESYNTAX, "a Content-Length that is not a number of bytes");
        }
        if (p->have_length && p->length != n) {
            return s_fail(p, ANVIL_ESYNTAX, "two Content-Length headers that disagree");
        }
        p->have_length = true;
        p->length = n;
    } else if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("Transfer-Encoding"))) {
        /* anvil asks for no coding: chunked alone is read (gzip, chunked would hand on compressed bytes). */
        if (p->chunked || !anvil_sv_eq_ascii_nocase(value, ANVIL_SV("chunked"))) {
            return s_fail(p, ANVIL_ESYNTAX, "a transfer coding anvil did not ask for (only chunked is read)");
        }
        p->chunked = true;
    } else if (anvil_sv_eq_ascii_nocase(name, ANVIL_SV("Connection"))) {
        p->close_token = p->close_token || s_list_has(value, "close");
        p->keep_alive_token = p->keep_alive_token || s_list_has(value, "keep-alive");
    }
    return ANVIL_OK;
}

/* The header section ended: interim answer, or where the body ends. */
static int s_section_end(struct anvil__http1_parser *p) {
    if (p->status >= 100 && p->status < 200) {
        if (p->status == 101) {
            return s_fail(p, ANVIL_ESYNTAX, "a 101 Switching Protocols answer, which anvil never asks for");
        }
        if (++p->interim > S_INTERIM_MAX) {
            return s_fail(p, ANVIL_ESYNTAX, "more than 16 interim (1xx) answers");
        }
        p->status = 0; /* section_bytes goes on: the bound covers the interim answers too */
        p->state = S_STATUS;
        return ANVIL_OK;
    }
    p->keep_alive = p->minor >= 1 ? !p->close_token : p->keep_alive_token && !p->close_token;
    if (p->chunked && p->have_length) {
        /* Both: the coding wins (RFC 9112 6.3), but such an answer smells of smuggling: the connection is not kept. */
        p->keep_alive = false;
    }
    if (p->head || p->status == 204 || p->status == 304) {
        p->state = S_DONE;
    } else if (p->chunked) {
        p->state = S_CHUNK_SIZE;
    } else if (p->have_length) {
        p->remaining = p->length;
        p->state = p->length ? S_BODY_LENGTH : S_DONE;
    } else {
        p->keep_alive = false;
        p->state = S_BODY_CLOSE;
    }
    return ANVIL_OK;
}

static int s_chunk_size(struct anvil__http1_parser *p, struct anvil_str_view line) {
    uint64_t n = 0;
    size_t i = 0;
    for (; i < line.len; i++) {
        char c = line.ptr[i];
        int digit = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
        if (digit < 0) {
            break;
        }
        n = n * 16 + (uint64_t)digit;
        if (n > S_SIZE_MAX) {
            return s_fail(p, ANVIL_ESYNTAX, "a chunk larger than 2^53 bytes");
        }
    }
    struct anvil_str_view rest = s_trim_ows(anvil_sv(line.ptr + i, line.len - i));
    if (i == 0 || (rest.len && rest.ptr[0] != ';')) {
        return s_fail(p, ANVIL_ESYNTAX, "a chunk size that is not hexadecimal");
    }
    p->remaining = n;
    p->state = n ? S_CHUNK_DATA : S_TRAILERS;
    p->section_bytes = 0; /* the trailers get a bound of their own */
    return ANVIL_OK;
}

/* A whole line (without its line end) in the state that reads lines. */
static int s_line(struct anvil__http1_parser *p, struct anvil_str_view line) {
    if (memchr(line.ptr, '\0', line.len) || memchr(line.ptr, '\r', line.len)) {
        return s_fail(p, ANVIL_ESYNTAX, "a NUL or a lone CR in the answer's header section");
    }
    switch (p->state) {
    case S_STATUS:
        if (s_status_line(p, line) != ANVIL_OK) {
            return ANVIL_ESYNTAX;
        }
        break;
    case S_HEADERS:
        if (line.len == 0) {
            return s_section_end(p);
        }
        if (s_field(p, line) != ANVIL_OK) {
            return ANVIL_ESYNTAX;
        }
        break;
    case S_CHUNK_SIZE:
        return s_chunk_size(p, line);
    case S_CHUNK_END:
        if (line.len) {
            return s_fail(p, ANVIL_ESYNTAX, "a chunk longer than its size");
        }
        p->state = S_CHUNK_SIZE;
        return ANVIL_OK;
    case S_TRAILERS:
        if (line.len == 0) {
            p->state = S_DONE;
        }
        return ANVIL_OK; /* trailer fields are not read */
    default:
        return ANVIL_OK;
    }
    if (p->on_line && !p->on_line(p->ctx, line.ptr, line.len)) {
        p->stopped = true;
        return s_fail(p, ANVIL_ECANCELED, "stopped by the reader of the headers");
    }
    return ANVIL_OK;
}

static bool s_reads_lines(int state) {
    return state == S_STATUS || state == S_HEADERS || state == S_CHUNK_SIZE || state == S_CHUNK_END ||
           state == S_TRAILERS;
}

/* Body bytes to the reader. */
static int s_body(struct anvil__http1_parser *p, const char *data, size_t n) {
    if (n && p->on_body && !p->on_body(p->ctx, data, n)) {
        p->stopped = true;
        return s_fail(p, ANVIL_ECANCELED, "stopped by the reader of the body");
    }
    return ANVIL_OK;
}

int anvil__http1_feed(struct anvil__http1_parser *p, const char *data, size_t len, size_t *used) {
    size_t at = 0;
    int rc = ANVIL_OK;
    p->received = p->received || len > 0;
    while (rc == ANVIL_OK && p->state != S_DONE && p->state != S_FAILED && at < len) {
        const char *from = data + at;
        size_t avail = len - at;
        if (s_reads_lines(p->state)) {
            const char *lf = memchr(from, '\n', avail);
            size_t take = lf ? (size_t)(lf - from) + 1 : avail;
            /*
             * The bound covers the header sections (the interim answers' with the final one's) and,
             * afresh, the trailers; chunk-size lines are bounded one by one (the line limit) and
             * come with the body, which the reader bounds.
             */
            bool counted = p->state == S_STATUS || p->state == S_HEADERS || p->state == S_TRAILERS;
            p->section_bytes += counted ? take : 0;
            if (p->section_bytes > ANVIL__HTTP1_HEADERS_MAX) {
                rc = s_fail(p, ANVIL_ESYNTAX, "a header section larger than 1 MiB");
                break;
            }
            if (p->line.len + take > ANVIL__HTTP1_LINE_MAX) {
                rc = s_fail(p, ANVIL_ESYNTAX, "a header or chunk line longer than 64 KiB");
                break;
            }
            if (anvil_buf_append(&p->line, from, take) != ANVIL_OK) {
                rc = s_fail(p, ANVIL_ENOMEM, "out of memory");
                break;
            }
            at += take;
            if (!lf) {
                break;
            }
            struct anvil_str_view line = anvil_buf_view(&p->line);
            line.len--; /* the LF */
            if (line.len && line.ptr[line.len - 1] == '\r') {
                line.len--;
            }
            rc = s_line(p, line);
            anvil_buf_clear(&p->line);
        } else if (p->state == S_BODY_CLOSE) {
            rc = s_body(p, from, avail);
            at = len;
        } else { /* S_BODY_LENGTH, S_CHUNK_DATA */
            size_t n = avail < p->remaining ? avail : (size_t)p->remaining;
            rc = s_body(p, from, n);
            at += n;
            p->remaining -= n;
            if (p->remaining == 0) {
                p->state = p->state == S_CHUNK_DATA ? S_CHUNK_END : S_DONE;
            }
        }
    }
    *used = at;
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (p->state == S_FAILED) {
        return p->stopped ? ANVIL_ECANCELED : ANVIL_ESYNTAX;
    }
    return p->state == S_DONE ? ANVIL__HTTP1_DONE : ANVIL_OK;
}

int anvil__http1_eof(struct anvil__http1_parser *p) {
    switch (p->state) {
    case S_DONE:
    case S_BODY_CLOSE:
        p->state = S_DONE;
        return ANVIL__HTTP1_DONE;
    case S_FAILED:
        return ANVIL_ESYNTAX;
    case S_STATUS:
        return s_fail(p, ANVIL_ESYNTAX,
                      p->received ? "the connection closed inside the status line"
                                  : "the connection closed with no answer");
    case S_HEADERS:
        return s_fail(p, ANVIL_ESYNTAX, "the connection closed inside the answer's headers");
    default:
        return s_fail(p, ANVIL_ESYNTAX, "the connection closed before the answer's body ended");
    }
}

bool anvil__http1_started(const struct anvil__http1_parser *p) {
    return p->received;
}
