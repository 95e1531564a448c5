/* Reading an input line by line as it arrives (a pipe's lines are answered before it ends). */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_lines_open(const char *path, size_t max_line, size_t max_total, struct cli_lines *lines) {
    memset(lines, 0, sizeof(*lines));
    lines->max_total = max_total;
    bool use_stdin = path == NULL || strcmp(path, "-") == 0;
    lines->label = use_stdin ? "<stdin>" : path;
    lines->max_line = max_line;
    lines->fd = use_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (lines->fd < 0) {
        cli_error("cannot open '%s': %s", path, strerror(errno));
        return CLI_EXIT_NO_INPUT;
    }
    lines->close = !use_stdin;
    anvil_buf_init(&lines->buf, NULL, 0);
    return CLI_EXIT_OK;
}

/* Reads what the input has now (at least one byte, or the end) after the unconsumed bytes. */
static int s_fill(struct cli_lines *lines) {
    int code = cli_flush_output(); /* the answers so far go out before the read waits */
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_buf *b = &lines->buf;
    if (lines->start) {
        memmove(b->data, b->data + lines->start, b->len - lines->start);
        b->len -= lines->start;
        lines->start = 0;
    }
    if (b->capacity - b->len < 4096 && anvil_buf_reserve(b, 65536) != ANVIL_OK) {
        cli_error("%s: out of memory reading line %zu", lines->label, lines->number + 1);
        return CLI_EXIT_INTERNAL;
    }
    for (;;) {
        ssize_t n = read(lines->fd, b->data + b->len, b->capacity - b->len - 1);
        if (n > 0) {
            b->len += (size_t)n;
            lines->total += (size_t)n;
            if (lines->max_total && lines->total > lines->max_total) {
                cli_error("%s: input is larger than the limit of %zu bytes", lines->label, lines->max_total);
                return CLI_EXIT_DATA;
            }
            return CLI_EXIT_OK;
        }
        if (n == 0) {
            lines->eof = true;
            return CLI_EXIT_OK;
        }
        if (errno != EINTR) {
            cli_error("%s: cannot read: %s", lines->label, strerror(errno));
            return CLI_EXIT_IO;
        }
    }
}

int cli_lines_next(struct cli_lines *lines, const char **line, size_t *len) {
    *line = NULL;
    *len = 0;
    for (;;) {
        struct anvil_buf *b = &lines->buf;
        size_t have = b->len - lines->start;
        const char *from = b->data ? b->data + lines->start : NULL;
        /* Only the bytes not yet searched: a long line arriving in pieces is scanned once. */
        const char *nl = have > lines->scanned ? memchr(from + lines->scanned, '\n', have - lines->scanned) : NULL;
        lines->scanned = nl ? 0 : have;
        size_t line_len = nl ? (size_t)(nl - from) : have;
        if (line_len > lines->max_line) {
            cli_error("%s: line %zu is longer than the limit of %zu bytes", lines->label, lines->number + 1,
                      lines->max_line);
            return CLI_EXIT_DATA;
        }
        if (nl || (lines->eof && have)) {
            *line = from;
            *len = line_len;
            lines->start += line_len + (nl != NULL);
            lines->scanned = 0;
            lines->number++;
            return CLI_EXIT_OK;
        }
        if (lines->eof) {
            return CLI_EXIT_OK;
        }
        int code = s_fill(lines);
        if (code != CLI_EXIT_OK) {
            return code;
        }
    }
}

void cli_lines_close(struct cli_lines *lines) {
    if (lines->close) {
        close(lines->fd);
    }
    anvil_buf_clean_up(&lines->buf);
    memset(lines, 0, sizeof(*lines));
}
