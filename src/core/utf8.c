/* UTF-8 validation per RFC 3629 (the table in its section 4). */

#include <string.h>

#include "core/core_internal.h"

size_t anvil__utf8_sequence(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    if (c < 0x80) {
        return 1;
    }
    size_t avail = (size_t)(end - p);
    if (c >= 0xC2 && c <= 0xDF) {
        return avail >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if (avail < 3 || (p[2] & 0xC0) != 0x80) {
            return 0;
        }
        unsigned char lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlongs */
        unsigned char hi = c == 0xED ? 0x9F : 0xBF; /* no UTF-16 surrogates */
        return p[1] >= lo && p[1] <= hi ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (avail < 4 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) {
            return 0;
        }
        unsigned char lo = c == 0xF0 ? 0x90 : 0x80; /* no overlongs */
        unsigned char hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
        return p[1] >= lo && p[1] <= hi ? 4 : 0;
    }
    return 0; /* 0x80-0xC1 (continuation, overlong lead) and 0xF5-0xFF */
}

bool anvil__utf8_valid(const char *bytes, size_t len) {
    const unsigned char *p = (const unsigned char *)bytes;
    const unsigned char *end = p + len;
    while (p < end) {
        /* Skip ASCII eight bytes at a time. */
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            if (w & UINT64_C(0x8080808080808080)) {
                break;
            }
            p += 8;
        }
        if (p >= end) {
            break;
        }
        size_t n = anvil__utf8_sequence(p, end);
        if (n == 0) {
            return false;
        }
        p += n;
    }
    return true;
}
