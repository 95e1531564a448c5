#include "anvil/diag.h"

/* The functions themselves, not the debug build's origin-noting macros. */
#undef anvil_diag_set
#undef anvil_diag_set_at

#include <stdio.h>
#include <string.h>

#include "anvil/status.h"

/* origin_state_: cleared by anvil_diag_clear(); an origin kept (anything else: never cleared). */
#define S_ORIGIN_CLEARED UINT32_C(0x0d1a6c1e)
#define S_ORIGIN_KEPT UINT32_C(0x0d1a6c0f)

void anvil_diag_clear(struct anvil_diag *diag) {
    if (diag) {
        diag->code = ANVIL_OK;
        diag->line = 0;
        diag->column = 0;
        diag->offset = 0;
        diag->message[0] = '\0';
        diag->origin_state_ = S_ORIGIN_CLEARED;
        diag->origin_[0] = '\0';
    }
}

int anvil__diag_note_origin(struct anvil_diag *diag, const char *file, int line, int code) {
    if (!diag || diag->origin_state_ == S_ORIGIN_KEPT) {
        return code;
    }
    /* From the project's own folder on: "src/json/json_parse.c" rather than the build machine's path. */
    const char *from = file;
    for (const char *p = file; *p; p++) {
        if (strncmp(p, "/src/", 5) == 0) {
            from = p + 1;
        }
    }
    size_t len = strlen(from);
    if (len > sizeof diag->origin_ - 12) {
        from += len - (sizeof diag->origin_ - 12);
    }
    snprintf(diag->origin_, sizeof diag->origin_, "%s:%d", from, line);
    diag->origin_state_ = S_ORIGIN_KEPT;
    return code;
}

const char *anvil_diag_origin(const struct anvil_diag *diag) {
    if (!diag || diag->code == ANVIL_OK || diag->origin_state_ != S_ORIGIN_KEPT ||
        !memchr(diag->origin_, '\0', sizeof diag->origin_)) {
        return "";
    }
    for (const char *p = diag->origin_; *p; p++) {
        if (*p < 0x20 || *p > 0x7e) {
            return ""; /* not one this library wrote */
        }
    }
    return diag->origin_;
}

/* After truncation, drop a partial UTF-8 sequence at the end so the message
 * stays valid UTF-8 when the input it quotes was. */
static void s_trim_partial_utf8(char *msg) {
    size_t len = strlen(msg);
    size_t i = len;
    size_t continuation = 0;
    while (i > 0 && ((unsigned char)msg[i - 1] & 0xC0) == 0x80 && continuation < 3) {
        i--;
        continuation++;
    }
    if (i == 0) {
        return;
    }
    unsigned char lead = (unsigned char)msg[i - 1];
    size_t want = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    if (lead >= 0xC0 && want != continuation) {
        msg[i - 1] = '\0';
    }
}

int anvil_diag_vset(struct anvil_diag *diag, int code, size_t line, size_t column, size_t offset, const char *fmt,
                    va_list args) {
    if (!diag) {
        return code;
    }
    diag->code = code;
    diag->line = line;
    diag->column = column;
    diag->offset = offset;
    int n = vsnprintf(diag->message, sizeof(diag->message), fmt, args);
    if (n < 0) {
        diag->message[0] = '\0';
    } else if ((size_t)n >= sizeof(diag->message)) {
        s_trim_partial_utf8(diag->message);
    }
    return code;
}

int anvil_diag_set(struct anvil_diag *diag, int code, size_t line, size_t column, size_t offset, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset(diag, code, line, column, offset, fmt, args);
    va_end(args);
    return code;
}

int anvil_diag_vset_at(struct anvil_diag *diag, int code, const char *text, size_t text_len, size_t offset,
                       const char *fmt, va_list args) {
    if (!diag) {
        return code;
    }
    if (offset > text_len) {
        offset = text_len;
    }
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    }
    return anvil_diag_vset(diag, code, line, offset - line_start + 1, offset, fmt, args);
}

int anvil_diag_set_at(struct anvil_diag *diag, int code, const char *text, size_t text_len, size_t offset,
                      const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset_at(diag, code, text, text_len, offset, fmt, args);
    va_end(args);
    return code;
}

size_t anvil_diag_format(const struct anvil_diag *diag, const char *source, char *out, size_t out_size) {
    int n;
    if (diag->line > 0) {
        n = snprintf(out, out_size, "%s%s%zu:%zu: %s", source ? source : "", source ? ":" : "", diag->line,
                     diag->column, diag->message);
    } else {
        n = snprintf(out, out_size, "%s%s%s", source ? source : "", source ? ": " : "", diag->message);
    }
    return n < 0 ? 0 : (size_t)n;
}
