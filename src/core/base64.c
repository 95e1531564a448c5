/*
 * Base64 (RFC 4648, standard alphabet, padded): blobs travel as base64 in
 * JSON bodies, query strings, XML text and headers, and the Smithy data
 * model holds them that way. Decoding is strict (no white space, padding
 * required, no bits left over) so that a value is refused where it is
 * wrong rather than sent mangled.
 */

#include "anvil/base64.h"
#include "anvil/status.h"
#include "core/core_internal.h"

static const char s_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int anvil_base64_encode(struct anvil_buf *out, const void *bytes, size_t len) {
    const unsigned char *in = bytes;
    size_t need;
    if (anvil__size_mul((len + 2) / 3, 4, &need)) {
        return ANVIL_ELIMIT;
    }
    int rc = anvil_buf_reserve(out, need);
    if (rc != ANVIL_OK) {
        return rc;
    }
    char *w = out->data + out->len;
    size_t i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        *w++ = s_alphabet[v >> 18];
        *w++ = s_alphabet[(v >> 12) & 63];
        *w++ = s_alphabet[(v >> 6) & 63];
        *w++ = s_alphabet[v & 63];
    }
    if (i < len) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < len ? (uint32_t)in[i + 1] << 8 : 0);
        *w++ = s_alphabet[v >> 18];
        *w++ = s_alphabet[(v >> 12) & 63];
        *w++ = i + 1 < len ? s_alphabet[(v >> 6) & 63] : '=';
        *w++ = '=';
    }
    out->len += need;
    out->data[out->len] = '\0';
    return ANVIL_OK;
}

static int s_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int anvil_base64_decode(struct anvil_buf *out, struct anvil_str_view text) {
    if (text.len % 4 != 0) {
        return ANVIL_EVALUE;
    }
    int rc = anvil_buf_reserve(out, text.len / 4 * 3);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const unsigned char *p = (const unsigned char *)text.ptr;
    char *w = out->data + out->len;
    for (size_t i = 0; i < text.len; i += 4) {
        bool last = i + 4 == text.len;
        int pad = last && p[i + 3] == '=' ? (p[i + 2] == '=' ? 2 : 1) : 0;
        int a = s_value(p[i]), b = s_value(p[i + 1]);
        int c = pad == 2 ? 0 : s_value(p[i + 2]), d = pad ? 0 : s_value(p[i + 3]);
        if (a < 0 || b < 0 || c < 0 || d < 0) {
            return ANVIL_EVALUE;
        }
        /* Bits that padding leaves over must be zero (one value, one text). */
        if ((pad == 2 && (b & 15)) || (pad == 1 && (c & 3))) {
            return ANVIL_EVALUE;
        }
        uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        *w++ = (char)(v >> 16);
        if (pad < 2) {
            *w++ = (char)(v >> 8);
        }
        if (pad < 1) {
            *w++ = (char)v;
        }
    }
    out->len = (size_t)(w - out->data);
    out->data[out->len] = '\0';
    return ANVIL_OK;
}
