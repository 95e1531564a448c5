/*
 * Showing text that came from elsewhere: valid UTF-8 (U+FFFD for what is
 * not), and for a line of text, every character escaped that a terminal
 * would act on (C0 and C1 controls, ESC sequences, DEL) or that reorders what
 * is shown (the bidirectional overrides of "Trojan Source").
 */

#include "anvil/text.h"

#include "anvil/arena.h"
#include "anvil/status.h"
#include "core/core_internal.h"

static const char s_replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

int anvil_text_append_utf8(struct anvil_buf *out, struct anvil_str_view s, size_t max_bytes) {
    if (!s.ptr || s.len == 0) {
        return ANVIL_OK; /* no NULL + 0: clang's UBSan counts it */
    }
    const unsigned char *p = (const unsigned char *)s.ptr;
    const unsigned char *end = p + s.len;
    size_t room = max_bytes;
    int rc = ANVIL_OK;
    while (p < end && rc == ANVIL_OK) {
        /* The longest valid run that fits. */
        const unsigned char *run = p;
        size_t n = 0;
        while (p < end && (n = anvil__utf8_sequence(p, end)) != 0 && (size_t)(p - run) + n <= room) {
            p += n;
        }
        if (p > run) {
            rc = anvil_buf_append(out, run, (size_t)(p - run));
            room -= (size_t)(p - run);
        }
        if (p >= end || n != 0 || room < 3 || rc != ANVIL_OK) {
            break; /* the end, or the next character does not fit */
        }
        rc = anvil_buf_append(out, s_replacement, 3);
        room -= 3;
        p++;
    }
    return rc;
}

/* The code point of a valid sequence of `n` bytes. */
static uint32_t s_code_point(const unsigned char *p, size_t n) {
    switch (n) {
    case 1:
        return p[0];
    case 2:
        return ((uint32_t)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
    case 3:
        return ((uint32_t)(p[0] & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    default:
        return ((uint32_t)(p[0] & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) | ((uint32_t)(p[2] & 0x3F) << 6) |
               (p[3] & 0x3F);
    }
}

/* C1 controls, and the bidirectional marks, embeddings, overrides and isolates. */
static bool s_hidden(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061C;
}

int anvil_text_append_escaped(struct anvil_buf *out, struct anvil_str_view s) {
    static const char hex[] = "0123456789abcdef";
    if (!s.ptr || s.len == 0) {
        return ANVIL_OK;
    }
    const unsigned char *p = (const unsigned char *)s.ptr;
    const unsigned char *end = p + s.len;
    int rc = ANVIL_OK;
    while (p < end && rc == ANVIL_OK) {
        const unsigned char *run = p;
        while (p < end && *p >= 0x20 && *p < 0x7F) {
            p++;
        }
        if (p > run) {
            rc = anvil_buf_append(out, run, (size_t)(p - run));
        }
        if (p >= end || rc != ANVIL_OK) {
            break;
        }
        size_t n = anvil__utf8_sequence(p, end);
        uint32_t cp = n ? s_code_point(p, n) : 0;
        if (n == 1 || n == 0) {
            /* A C0 control, DEL, or a byte that is not UTF-8. */
            const char *named = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : *p == '\t' ? "\\t" : NULL;
            char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
            rc = named ? anvil_buf_append(out, named, 2) : anvil_buf_append(out, esc, 4);
            p++;
        } else if (s_hidden(cp)) {
            rc = anvil_buf_appendf(out, "\\u{%04x}", (unsigned)cp);
            p += n;
        } else {
            rc = anvil_buf_append(out, p, n);
            p += n;
        }
    }
    return rc;
}

int anvil__text_keep(struct anvil_arena *arena, struct anvil_str_view text, size_t max, struct anvil_str_view *out) {
    struct anvil_buf scratch;
    anvil_buf_init(&scratch, NULL, 0);
    int rc = anvil_text_append_utf8(&scratch, text, max);
    char *copy = rc == ANVIL_OK ? anvil_arena_strndup(arena, scratch.data ? scratch.data : "", scratch.len) : NULL;
    if (copy) {
        *out = anvil_sv(copy, scratch.len);
    }
    anvil_buf_clean_up(&scratch);
    return copy ? ANVIL_OK : ANVIL_ENOMEM;
}

int anvil_text_append_collapsed(struct anvil_buf *out, struct anvil_str_view s) {
    bool space = false, any = false;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < s.len && rc == ANVIL_OK; i++) {
        char c = s.ptr[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = any;
            continue;
        }
        rc = space ? anvil_buf_append_byte(out, ' ') : ANVIL_OK;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, c) : rc;
        space = false;
        any = true;
    }
    return rc;
}
