/* The writer: compact or pretty, deterministic, minimal escaping. */

#include <math.h>

#include "anvil/status.h"
#include "json/json_internal.h"

static const char s_hex[] = "0123456789abcdef";

/* 0 = copy as is; 1 = needs an escape (controls, '"', '\\'). */
static const unsigned char s_needs_escape[256] = {
    [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1, [0x07] = 1, [0x08] = 1,
    [0x09] = 1, [0x0A] = 1, [0x0B] = 1, [0x0C] = 1, [0x0D] = 1, [0x0E] = 1, [0x0F] = 1, [0x10] = 1, [0x11] = 1,
    [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1A] = 1,
    [0x1B] = 1, [0x1C] = 1, [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, ['"'] = 1,  ['\\'] = 1,
};

static int s_escape(unsigned char c, struct anvil_buf *out) {
    char esc[6] = {'\\', 0, 0, 0, 0, 0};
    size_t n = 2;
    switch (c) {
    case '"':
        esc[1] = '"';
        break;
    case '\\':
        esc[1] = '\\';
        break;
    case '\b':
        esc[1] = 'b';
        break;
    case '\f':
        esc[1] = 'f';
        break;
    case '\n':
        esc[1] = 'n';
        break;
    case '\r':
        esc[1] = 'r';
        break;
    case '\t':
        esc[1] = 't';
        break;
    default:
        esc[1] = 'u';
        esc[2] = '0';
        esc[3] = '0';
        esc[4] = s_hex[c >> 4];
        esc[5] = s_hex[c & 0xF];
        n = 6;
    }
    return anvil_buf_append(out, esc, n);
}

static int s_u_escape(uint32_t unit, struct anvil_buf *out) {
    char esc[6] = {
        '\\', 'u', s_hex[(unit >> 12) & 0xF], s_hex[(unit >> 8) & 0xF], s_hex[(unit >> 4) & 0xF], s_hex[unit & 0xF]};
    return anvil_buf_append(out, esc, sizeof(esc));
}

/* One UTF-8 sequence (known valid) as \uXXXX, or a surrogate pair. */
static int s_escape_non_ascii(const unsigned char *p, size_t n, struct anvil_buf *out) {
    uint32_t cp;
    if (n == 2) {
        cp = ((uint32_t)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
    } else if (n == 3) {
        cp = ((uint32_t)(p[0] & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    } else {
        cp = ((uint32_t)(p[0] & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) | ((uint32_t)(p[2] & 0x3F) << 6) |
             (p[3] & 0x3F);
    }
    if (cp < 0x10000) {
        return s_u_escape(cp, out);
    }
    cp -= 0x10000;
    int rc = s_u_escape(0xD800 + (cp >> 10), out);
    return rc == ANVIL_OK ? s_u_escape(0xDC00 + (cp & 0x3FF), out) : rc;
}

/*
 * Characters valid in JSON text that are written as \uXXXX all the same, so
 * that output printed to a terminal cannot act on it or reorder it: the C1
 * controls (U+0080-U+009F; U+009B is CSI), the line and paragraph separators
 * (U+2028, U+2029: line breaks to JavaScript), and the bidirectional marks,
 * embeddings, overrides and isolates.
 */
static bool s_shown_escaped(const unsigned char *p, size_t n) {
    if (n == 2) {
        return (p[0] == 0xC2 && p[1] <= 0x9F) || (p[0] == 0xD8 && p[1] == 0x9C); /* C1, U+061C */
    }
    if (n == 3 && p[0] == 0xE2) {
        return (p[1] == 0x80 && (p[2] == 0x8E || p[2] == 0x8F || (p[2] >= 0xA8 && p[2] <= 0xAE))) ||
               (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9);
    }
    return false;
}

int anvil_json_write_string(struct anvil_str_view s, unsigned flags, struct anvil_buf *out) {
    const unsigned char *p = (const unsigned char *)(s.ptr ? s.ptr : "");
    const unsigned char *end = p + (s.ptr ? s.len : 0);
    bool ascii = (flags & ANVIL_JSON_WRITE_ASCII) != 0;
    int rc = anvil_buf_reserve(out, s.len + 2);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if ((rc = anvil_buf_append_byte(out, '"')) != ANVIL_OK) {
        return rc;
    }
    while (p < end) {
        const unsigned char *run = p;
        while (p < end && !s_needs_escape[*p] && *p < 0x80) {
            p++;
        }
        /* Non-ASCII is checked as it goes: valid sequences join the run (unless escaping to ASCII). */
        size_t n = 0;
        while (!ascii && p < end && *p >= 0x80 && (n = anvil__utf8_sequence(p, end)) != 0 && !s_shown_escaped(p, n)) {
            p += n;
            while (p < end && !s_needs_escape[*p] && *p < 0x80) {
                p++;
            }
        }
        if (p > run && (rc = anvil_buf_append(out, run, (size_t)(p - run))) != ANVIL_OK) {
            return rc;
        }
        if (p >= end) {
            break;
        }
        if (*p >= 0x80) {
            n = anvil__utf8_sequence(p, end);
            if (n == 0) {
                /* Not UTF-8 (only a hand-made string holds this): U+FFFD, so the output stays valid JSON. */
                rc = ascii ? s_u_escape(0xFFFD, out) : anvil_buf_append(out, "\xEF\xBF\xBD", 3);
                p++;
            } else {
                rc = s_escape_non_ascii(p, n, out);
                p += n;
            }
        } else {
            rc = s_escape(*p, out);
            p++;
        }
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return anvil_buf_append_byte(out, '"');
}

int anvil_json_write_double(double d, struct anvil_buf *out) {
    if (!isfinite(d)) {
        return ANVIL_EVALUE;
    }
    char text[40];
    size_t n = anvil__json_format_double(d, text);
    return anvil_buf_append(out, text, n);
}

static int s_write_int(int64_t i, struct anvil_buf *out) {
    char text[24];
    char *end = text + sizeof(text);
    char *p = end;
    uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (i < 0) {
        *--p = '-';
    }
    return anvil_buf_append(out, p, (size_t)(end - p));
}

static int s_newline(struct anvil_buf *out, size_t depth) {
    int rc = anvil_buf_reserve(out, 1 + depth * 2);
    if (rc != ANVIL_OK) {
        return rc;
    }
    out->data[out->len++] = '\n';
    memset(out->data + out->len, ' ', depth * 2);
    out->len += depth * 2;
    out->data[out->len] = '\0';
    return ANVIL_OK;
}

static int s_write(const struct anvil_json *v, unsigned flags, struct anvil_buf *out, size_t depth) {
    bool pretty = (flags & ANVIL_JSON_WRITE_PRETTY) != 0;
    int rc;
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        return anvil_buf_append(out, "null", 4);
    case ANVIL_JSON_BOOL:
        return anvil_json_bool(v) ? anvil_buf_append(out, "true", 4) : anvil_buf_append(out, "false", 5);
    case ANVIL_JSON_NUMBER:
        return anvil_json_is_int(v) ? s_write_int(v->u.i, out) : anvil_json_write_double(v->u.d, out);
    case ANVIL_JSON_STRING:
        return anvil_json_write_string(anvil_json_string(v), flags, out);
    case ANVIL_JSON_ARRAY: {
        size_t n = anvil_json_len(v);
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return ANVIL_ELIMIT;
        }
        if ((rc = anvil_buf_append_byte(out, '[')) != ANVIL_OK) {
            return rc;
        }
        for (size_t i = 0; i < n; i++) {
            if (i > 0 && (rc = anvil_buf_append_byte(out, ',')) != ANVIL_OK) {
                return rc;
            }
            if (pretty && (rc = s_newline(out, depth + 1)) != ANVIL_OK) {
                return rc;
            }
            if ((rc = s_write(&v->u.items[i], flags, out, depth + 1)) != ANVIL_OK) {
                return rc;
            }
        }
        if (pretty && n > 0 && (rc = s_newline(out, depth)) != ANVIL_OK) {
            return rc;
        }
        return anvil_buf_append_byte(out, ']');
    }
    case ANVIL_JSON_OBJECT: {
        size_t n = anvil_json_len(v);
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return ANVIL_ELIMIT;
        }
        if ((rc = anvil_buf_append_byte(out, '{')) != ANVIL_OK) {
            return rc;
        }
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = &v->u.members[i];
            if (i > 0 && (rc = anvil_buf_append_byte(out, ',')) != ANVIL_OK) {
                return rc;
            }
            if (pretty && (rc = s_newline(out, depth + 1)) != ANVIL_OK) {
                return rc;
            }
            if ((rc = anvil_json_write_string(anvil_json_member_key(m), flags, out)) != ANVIL_OK) {
                return rc;
            }
            if ((rc = anvil_buf_append(out, ": ", pretty ? 2 : 1)) != ANVIL_OK) {
                return rc;
            }
            if ((rc = s_write(&m->value, flags, out, depth + 1)) != ANVIL_OK) {
                return rc;
            }
        }
        if (pretty && n > 0 && (rc = s_newline(out, depth)) != ANVIL_OK) {
            return rc;
        }
        return anvil_buf_append_byte(out, '}');
    }
    }
    return ANVIL_EINTERNAL;
}

int anvil_json_write(const struct anvil_json *v, unsigned flags, struct anvil_buf *out) {
    if (!v || !out) {
        return ANVIL_EINVAL;
    }
    return s_write(v, flags, out, 0);
}
