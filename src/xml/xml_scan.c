/*
 * The XML reader's character level: byte classes, names, character data
 * scanning, references, and the error messages. The grammar is in
 * xml_reader.c.
 */

#include <stdio.h>

#include "xml/xml_internal.h"

/*
 * Bit per byte: 0x01 NAME_START, 0x02 NAME, 0x04 TEXT, 0x08 ATTR, 0x10
 * SPACE, 0x20 CHAR (see xml_internal.h). Nothing at or above 0x80 is in any
 * class: non-ASCII always takes the UTF-8 path.
 */
const unsigned char anvil__xml_class[256] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x34, 0x34, 0x00, 0x00, 0x30, 0x00, 0x00, /* \t \n \r */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x3C, 0x2C, 0x24, 0x2C, 0x2C, 0x2C, 0x20, 0x24, 0x2C, 0x2C, 0x2C, 0x2C, 0x2C, 0x2E, 0x2E, 0x2C, /* " & ' - . */
    0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2E, 0x2F, 0x2C, 0x20, 0x2C, 0x2C, 0x2C, /* 0-9 : < */
    0x2C, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, /* A-O */
    0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2C, 0x2C, 0x28, 0x2C, 0x2F, /* P-Z ] _ */
    0x2C, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, /* a-o */
    0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2F, 0x2C, 0x2C, 0x2C, 0x2C, 0x2C, /* p-z */
};

/* ---- names ---- */

/* XML 1.0 (fifth edition) NameStartChar and NameChar above ASCII. */
static bool s_name_start_cp(uint32_t c) {
    return (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) ||
           (c >= 0x370 && c <= 0x37D) || (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) ||
           (c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) ||
           (c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

static bool s_name_cp(uint32_t c) {
    return s_name_start_cp(c) || c == 0xB7 || (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

/* The code point of the valid `n`-byte UTF-8 sequence at `p`. */
static uint32_t s_decode(const unsigned char *p, size_t n) {
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

const unsigned char *anvil__xml_name_rest(const unsigned char *p, const unsigned char *end, bool first) {
    while (p < end) {
        if (*p < 0x80) {
            if (!anvil__xml_is(*p, first ? ANVIL__XML_NAME_START : ANVIL__XML_NAME)) {
                break;
            }
            p++;
        } else {
            size_t n = anvil__utf8_sequence(p, end);
            if (n == 0) {
                break;
            }
            uint32_t c = s_decode(p, n);
            if (!(first ? s_name_start_cp(c) : s_name_cp(c))) {
                break;
            }
            p += n;
        }
        first = false;
    }
    return p;
}

/* ---- character data ---- */

#define S_ONES UINT64_C(0x0101010101010101)
#define S_HIGH UINT64_C(0x8080808080808080)

/* True when one of the eight bytes is zero (exact). */
static inline uint64_t s_has_zero(uint64_t w) {
    return (w - S_ONES) & ~w & S_HIGH;
}

/*
 * True when all eight bytes are plain text without looking at each: none at
 * or above 0x80, none below 0x20 (tab and LF too: the byte loop takes
 * them), none of '<' '&' ']'. Exact once no byte has its high bit set.
 */
static inline bool s_word_plain(uint64_t w) {
    uint64_t stop = (w & S_HIGH) | ((w - S_ONES * 0x20) & ~w & S_HIGH) | s_has_zero(w ^ (S_ONES * '<')) |
                    s_has_zero(w ^ (S_ONES * '&')) | s_has_zero(w ^ (S_ONES * ']'));
    return stop == 0;
}

const unsigned char *anvil__xml_skip_text(const unsigned char *p, const unsigned char *end) {
    for (;;) {
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            if (!s_word_plain(w)) {
                break;
            }
            p += 8;
        }
        /* At most eight bytes one by one, then back to words: tab and LF stop a word but not the text. */
        const unsigned char *stop = end - p > 8 ? p + 8 : end;
        while (p < stop && anvil__xml_is(*p, ANVIL__XML_TEXT)) {
            p++;
        }
        if (p < stop || p == end) {
            return p;
        }
    }
}

const unsigned char *anvil__xml_skip_chars(const unsigned char *p, const unsigned char *end, unsigned char stop) {
    while (p < end) {
        unsigned char c = *p;
        if (c == stop) {
            break;
        }
        if (anvil__xml_is(c, ANVIL__XML_CHAR)) {
            p++;
            continue;
        }
        size_t n = c >= 0x80 ? anvil__xml_char_len(p, end) : 0;
        if (n == 0) {
            break;
        }
        p += n;
    }
    return p;
}

int anvil__xml_scratch_append(struct anvil_xml_reader *r, const unsigned char *at, const void *bytes, size_t n) {
    if (ANVIL_UNLIKELY(r->scratch_cap - r->scratch_len < n)) {
        size_t need;
        if (anvil__size_add(r->scratch_len, n, &need) ||
            anvil__mem_grow(r->allocator, (void **)&r->scratch, &r->scratch_cap, 1, need < 256 ? 256 : need) !=
                ANVIL_OK) {
            return anvil__xml_nomem(r, at);
        }
    }
    if (n > 0) {
        memcpy(r->scratch + r->scratch_len, bytes, n);
        r->scratch_len += n;
    }
    return ANVIL_OK;
}

/* ---- references ---- */

static size_t s_encode(uint32_t c, unsigned char out[4]) {
    if (c < 0x80) {
        out[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (unsigned char)(0xC0 | (c >> 6));
        out[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (c >> 12));
        out[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (c >> 18));
    out[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

static const unsigned char *s_char_reference(struct anvil_xml_reader *r, const unsigned char *amp, unsigned char out[4],
                                             size_t *n) {
    const unsigned char *end = r->end;
    const unsigned char *q = amp + 2; /* past "&#" */
    bool hex = q < end && *q == 'x';
    q += hex;
    const unsigned char *digits = q;
    uint32_t c = 0;
    for (; q < end; q++) {
        unsigned d;
        unsigned char b = *q;
        if (b >= '0' && b <= '9') {
            d = (unsigned)(b - '0');
        } else if (hex && (b | 0x20) >= 'a' && (b | 0x20) <= 'f') {
            d = (unsigned)((b | 0x20) - 'a' + 10);
        } else {
            break;
        }
        if (c <= 0x10FFFF) { /* saturates past the last character: no overflow, any number of digits */
            c = c * (hex ? 16u : 10u) + d;
        }
    }
    if (q == digits) {
        anvil__xml_expected(r, q, hex ? "a hexadecimal digit after '&#x'" : "a digit or 'x' after '&#'");
        return NULL;
    }
    if (q == end || *q != ';') {
        return anvil__xml_expected(r, q, "';' to end the character reference"), NULL;
    }
    char shown[ANVIL__XML_SHOWN];
    anvil__xml_shown((const char *)amp, (size_t)(q + 1 - amp), shown);
    if (c == 0) {
        anvil__xml_fail(r, ANVIL_ESYNTAX, amp, "character reference %s names U+0000, which XML does not allow", shown);
        return NULL;
    }
    if (c >= 0xD800 && c <= 0xDFFF) {
        anvil__xml_fail(r, ANVIL_ESYNTAX, amp,
                        "character reference %s names U+%04X, a UTF-16 surrogate, which is not a character", shown,
                        (unsigned)c);
        return NULL;
    }
    if (c > 0x10FFFF) {
        anvil__xml_fail(r, ANVIL_ESYNTAX, amp, "character reference %s is beyond U+10FFFF, the last Unicode character",
                        shown);
        return NULL;
    }
    *n = s_encode(c, out);
    return q + 1;
}

const unsigned char *anvil__xml_reference(struct anvil_xml_reader *r, const unsigned char *amp, unsigned char out[4],
                                          size_t *n) {
    const unsigned char *end = r->end;
    const unsigned char *name = amp + 1;
    if (name < end && *name == '#') {
        return s_char_reference(r, amp, out, n);
    }
    const unsigned char *q = anvil__xml_name_end(name, end);
    if (q == name) {
        anvil__xml_expected(r, q, "an entity name or '#' after '&'");
        return NULL;
    }
    char shown[ANVIL__XML_SHOWN];
    anvil__xml_shown((const char *)name, (size_t)(q - name), shown);
    if (q == end || *q != ';') {
        return anvil__xml_expected(r, q, "';' to end the entity reference '&%s'", shown), NULL;
    }
    size_t len = (size_t)(q - name);
    static const struct {
        char name[5];
        unsigned char len;
        char value;
    } entities[] = {{"lt", 2, '<'}, {"gt", 2, '>'}, {"amp", 3, '&'}, {"quot", 4, '"'}, {"apos", 4, '\''}};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(entities); i++) {
        if (len == entities[i].len && memcmp(name, entities[i].name, len) == 0) {
            out[0] = (unsigned char)entities[i].value;
            *n = 1;
            return q + 1;
        }
    }
    return anvil__xml_fail(r, ANVIL_ESYNTAX, amp,
                           "unknown entity '&%s;': anvil reads no DTD, so only &lt; &gt; &amp; &quot; &apos; and "
                           "character references are defined",
                           shown),
           NULL;
}

/* ---- errors ---- */

void anvil__xml_line_column(const struct anvil_xml_reader *r, size_t offset, size_t *line, size_t *column) {
    size_t len = (size_t)(r->end - r->begin);
    if (offset > len) {
        offset = len;
    }
    const unsigned char *p = r->begin, *at = r->begin + offset, *line_start = p;
    size_t n = 1;
    while (p < at) {
        unsigned char c = *p++;
        if (c == '\n' || (c == '\r' && (p == r->end || *p != '\n'))) {
            n++;
            line_start = p;
        }
    }
    *line = n;
    *column = (size_t)(at - line_start) + 1;
}

const char *anvil__xml_shown(const char *name, size_t len, char out[ANVIL__XML_SHOWN]) {
    const size_t most = ANVIL__XML_SHOWN - 4;
    if (len <= most) {
        memcpy(out, name, len);
        out[len] = '\0';
        return out;
    }
    size_t cut = most;
    while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80) {
        cut--; /* never split a UTF-8 sequence */
    }
    memcpy(out, name, cut);
    memcpy(out + cut, "...", 4);
    return out;
}

void anvil__xml_describe(const struct anvil_xml_reader *r, const unsigned char *at, char *out, size_t size) {
    if (at >= r->end) {
        snprintf(out, size, "end of input");
        return;
    }
    unsigned char c = *at;
    if (c > 0x20 && c < 0x7F) {
        snprintf(out, size, "'%c'", c);
    } else if (c == ' ') {
        snprintf(out, size, "a space");
    } else if (c == '\t') {
        snprintf(out, size, "a tab");
    } else if (c == '\n') {
        snprintf(out, size, "a line feed");
    } else if (c == '\r') {
        snprintf(out, size, "a carriage return");
    } else if (c < 0x80) {
        snprintf(out, size, "control character 0x%02X", c);
    } else {
        size_t n = anvil__utf8_sequence(at, r->end);
        if (n == 0) {
            snprintf(out, size, "byte 0x%02X (invalid UTF-8)", c);
        } else {
            snprintf(out, size, "'%.*s' (U+%04X)", (int)n, (const char *)at, (unsigned)s_decode(at, n));
        }
    }
}

static int s_vfail(struct anvil_xml_reader *r, int code, const unsigned char *at, const char *fmt, va_list args)
    ANVIL_PRINTF(4, 0);

static int s_vfail(struct anvil_xml_reader *r, int code, const unsigned char *at, const char *fmt, va_list args) {
    size_t offset = (size_t)(at - r->begin), line, column;
    anvil__xml_line_column(r, offset, &line, &column);
    anvil_diag_vset(&r->diag, code, line, column, offset, fmt, args);
    r->error = code;
    r->state = ANVIL__XML_FAILED;
    return code;
}

int(anvil__xml_fail)(ANVIL__ORIGIN_DECL struct anvil_xml_reader *r, int code, const unsigned char *at, const char *fmt,
                     ...) {
    va_list args;
    va_start(args, fmt);
    s_vfail(r, code, at, fmt, args);
    va_end(args);
    return ANVIL__ORIGIN_NOTE(&r->diag, code), code;
}

int(anvil__xml_expected)(ANVIL__ORIGIN_DECL struct anvil_xml_reader *r, const unsigned char *at, const char *what,
                         ...) {
    char expected[160], found[48];
    va_list args;
    va_start(args, what);
    vsnprintf(expected, sizeof(expected), what, args);
    va_end(args);
    anvil__xml_describe(r, at, found, sizeof(found));
    return (anvil__xml_fail)(ANVIL__ORIGIN_PASS r, ANVIL_ESYNTAX, at, "expected %s, found %s", expected, found);
}

int anvil__xml_bad_char(struct anvil_xml_reader *r, const unsigned char *at, const char *where) {
    unsigned char c = *at;
    if (c == 0) {
        return anvil__xml_fail(r, ANVIL_ESYNTAX, at, "a NUL byte in %s: XML does not allow U+0000 anywhere", where);
    }
    if (c < 0x80) {
        char hint[48] = "";
        if (strcmp(where, "character data") == 0 || strcmp(where, "an attribute value") == 0) {
            snprintf(hint, sizeof(hint), "; others only as references such as &#x%X;", c);
        }
        return anvil__xml_fail(r, ANVIL_ESYNTAX, at,
                               "control character 0x%02X is not allowed in %s (XML allows tab, LF and CR%s)", c, where,
                               hint);
    }
    size_t avail = (size_t)(r->end - at);
    size_t n = anvil__utf8_sequence(at, r->end);
    if (n == 3) {
        return anvil__xml_fail(r, ANVIL_ESYNTAX, at, "U+%04X in %s is not an XML character", (unsigned)s_decode(at, n),
                               where);
    }
    const char *why;
    size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (c < 0xC0) {
        why = "a continuation byte with no lead byte";
    } else if (c < 0xC2) {
        why = "an overlong lead byte";
    } else if (c > 0xF4) {
        why = "a byte that never appears in UTF-8";
    } else {
        size_t i = 1;
        while (i < want && i < avail && (at[i] & 0xC0) == 0x80) {
            i++;
        }
        if (i < want) {
            why =
                i == avail ? "a sequence cut short by the end of input" : "a lead byte without its continuation bytes";
        } else if ((c == 0xE0 && at[1] < 0xA0) || (c == 0xF0 && at[1] < 0x90)) {
            why = "an overlong sequence";
        } else if (c == 0xED) {
            why = "a UTF-16 surrogate, which is not a character";
        } else {
            why = "a sequence beyond U+10FFFF";
        }
    }
    return anvil__xml_fail(r, ANVIL_ESYNTAX, at, "invalid UTF-8 in %s: %s (byte 0x%02X)", where, why, c);
}

int anvil__xml_nomem(struct anvil_xml_reader *r, const unsigned char *at) {
    return anvil__xml_fail(r, ANVIL_ENOMEM, at, "out of memory");
}
