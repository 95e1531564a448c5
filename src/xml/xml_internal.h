#ifndef ANVIL_XML_INTERNAL_H
#define ANVIL_XML_INTERNAL_H

/*
 * Shared by the reader (xml_reader.c, xml_scan.c), the tree (xml_tree.c)
 * and the writer (xml_write.c); not installed. The reader's layout is here
 * so the tree can keep one in its own frame and drive it directly.
 */

#include <stdarg.h>

#include "anvil/status.h"
#include "anvil/xml.h"
#include "core/core_internal.h"
#include "core/diag_origin.h"

/* A view without anvil_sv()'s call and NULL check: hot paths make many. */
static inline struct anvil_str_view anvil__xml_sv(const void *ptr, size_t len) {
    struct anvil_str_view v = {(const char *)ptr, len};
    return v;
}

/* anvil_xml_local(), inline for the tree's hot path. */
static inline struct anvil_str_view anvil__xml_local(struct anvil_str_view name) {
    for (size_t i = 1; i + 1 < name.len; i++) {
        if (name.ptr[i] == ':') {
            return anvil__xml_sv(name.ptr + i + 1, name.len - i - 1);
        }
    }
    return name;
}

/* ---- byte classes (xml_scan.c) ---- */

/* ASCII bytes that may start a name: letters, '_' and ':'. */
#define ANVIL__XML_NAME_START 0x01
/* ASCII bytes that may continue a name: the above, digits, '-' and '.'. */
#define ANVIL__XML_NAME 0x02
/* Bytes that stand for themselves in character data: what needs no look (not '<' '&' ']' CR, a control or non-ASCII).
 */
#define ANVIL__XML_TEXT 0x04
/* Bytes that stand for themselves in an attribute value: as TEXT, but ']' is plain and quotes, tab and LF are not. */
#define ANVIL__XML_ATTR 0x08
/* White space as XML defines it: space, tab, LF, CR. */
#define ANVIL__XML_SPACE 0x10
/* ASCII bytes that are XML characters: 0x20-0x7F, tab, LF, CR (comments, PIs and CDATA allow them all). */
#define ANVIL__XML_CHAR 0x20

extern const unsigned char anvil__xml_class[256];

static inline bool anvil__xml_is(unsigned char byte, unsigned char cls) {
    return (anvil__xml_class[byte] & cls) != 0;
}

/* ---- the reader ---- */

/* An element whose start tag was read and whose end tag was not yet. */
struct anvil__xml_open {
    const char *name;
    size_t len;
    /* Offset of its '<'. */
    size_t offset;
};

/* What the reader keeps beside each attribute of the current start tag. */
struct anvil__xml_attr_extra {
    /* Offset of the attribute's name, for messages. */
    size_t offset;
    /* Where its decoded value starts in the scratch, or SIZE_MAX when the value borrows from the input. */
    size_t scratch;
};

enum anvil__xml_state {
    ANVIL__XML_PROLOG,      /* before the root element */
    ANVIL__XML_CONTENT,     /* inside the root element */
    ANVIL__XML_PENDING_END, /* after the START of an empty element (<a/>): its END is next */
    ANVIL__XML_EPILOG,      /* after the root element closed */
    ANVIL__XML_DONE,        /* EOF was returned */
    ANVIL__XML_FAILED       /* an error was returned: `error` and `diag` say which */
};

struct anvil_xml_reader {
    struct anvil_allocator *allocator;
    const unsigned char *begin;
    const unsigned char *end;
    /* Where reading goes on. */
    const unsigned char *p;
    size_t max_depth;
    size_t max_attributes;
    enum anvil__xml_state state;
    /* Where an `<?xml ...?>` declaration may stand: the start, after a byte order mark. */
    const unsigned char *decl_at;
    int error;
    struct anvil_diag diag;

    struct anvil__xml_open *open;
    size_t depth, open_cap;

    /* The current start tag's attributes. */
    struct anvil_xml_attribute *attrs;
    struct anvil__xml_attr_extra *attr_extra;
    size_t attr_cap, attr_extra_cap;
    /* A hash set of attribute indexes, for duplicates in long attribute lists. */
    uint32_t *dup_slots;
    size_t dup_cap;

    /* Decoded text and attribute values of the current event. */
    unsigned char *scratch;
    size_t scratch_len, scratch_cap;
};

/* Makes `r` (caller storage) a reader over `text`: ANVIL_OK, ANVIL_ELIMIT (too long), ANVIL_EINVAL. Allocates nothing.
 */
int anvil__xml_reader_init(struct anvil_xml_reader *r, struct anvil_allocator *allocator, const char *text, size_t len,
                           const struct anvil_xml_options *options);
/* Frees what the reader took (not `r` itself). */
void anvil__xml_reader_clean_up(struct anvil_xml_reader *r);
/* anvil_xml_reader_next() without the argument checks. */
int anvil__xml_next(struct anvil_xml_reader *r, struct anvil_xml_event *ev, struct anvil_diag *diag);

/* True when `ptr` points into the reader's input (a borrowed string), false when into its scratch. */
static inline bool anvil__xml_borrowed(const struct anvil_xml_reader *r, const char *ptr) {
    return (uintptr_t)ptr >= (uintptr_t)r->begin && (uintptr_t)ptr < (uintptr_t)r->end;
}

/* ---- scanning (xml_scan.c) ---- */

/*
 * The first byte at or after `p` that is not plain character data
 * (ANVIL__XML_TEXT), or `end`. Eight bytes at a time where it can.
 */
const unsigned char *anvil__xml_skip_text(const unsigned char *p, const unsigned char *end);

/*
 * Name scanning past the ASCII fast path: from `p`, which is the name's
 * first byte when `first`, a later byte otherwise. Non-ASCII characters are
 * checked against XML 1.0's NameStartChar and NameChar ranges; anything
 * else (invalid UTF-8 included) ends the name.
 */
const unsigned char *anvil__xml_name_rest(const unsigned char *p, const unsigned char *end, bool first);

/* The end of the name starting at `p`, or `p` when no name starts there. */
static inline const unsigned char *anvil__xml_name_end(const unsigned char *p, const unsigned char *end) {
    if (ANVIL_UNLIKELY(p == end || !anvil__xml_is(*p, ANVIL__XML_NAME_START))) {
        return p < end && *p >= 0x80 ? anvil__xml_name_rest(p, end, true) : p;
    }
    p++;
    while (p < end && anvil__xml_is(*p, ANVIL__XML_NAME)) {
        p++;
    }
    if (ANVIL_UNLIKELY(p < end && *p >= 0x80)) {
        return anvil__xml_name_rest(p, end, false);
    }
    return p;
}

static inline const unsigned char *anvil__xml_skip_space(const unsigned char *p, const unsigned char *end) {
    while (p < end && anvil__xml_is(*p, ANVIL__XML_SPACE)) {
        p++;
    }
    return p;
}

/*
 * The length of the XML character at `p` that is not ASCII (a valid UTF-8
 * sequence naming neither U+FFFE nor U+FFFF), or 0.
 */
static inline size_t anvil__xml_char_len(const unsigned char *p, const unsigned char *end) {
    size_t n = anvil__utf8_sequence(p, end);
    if (n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) {
        return 0;
    }
    return n;
}

/*
 * Skips characters (as ANVIL__XML_CHAR, plus valid non-ASCII) up to the
 * first `stop` byte; returns it, `end`, or the first byte that is not an XML
 * character (see anvil__xml_bad_char()).
 */
const unsigned char *anvil__xml_skip_chars(const unsigned char *p, const unsigned char *end, unsigned char stop);

/*
 * Decodes the reference at `p` ('&'): writes its UTF-8 bytes to `out` (at
 * most 4), their count to `*n`, and returns the byte after the ';'; NULL
 * after filling the reader's error (unknown entity, bad character
 * reference).
 */
const unsigned char *anvil__xml_reference(struct anvil_xml_reader *r, const unsigned char *p, unsigned char out[4],
                                          size_t *n);

/* Appends `n` bytes to the scratch: ANVIL_OK or ANVIL_ENOMEM (after filling the reader's error). */
int anvil__xml_scratch_append(struct anvil_xml_reader *r, const unsigned char *at, const void *bytes, size_t n);

/* ---- errors (xml_scan.c): each fills the reader's sticky error and returns its code ---- */

int(anvil__xml_fail)(ANVIL__ORIGIN_DECL struct anvil_xml_reader *r, int code, const unsigned char *at, const char *fmt,
                     ...) ANVIL_PRINTF(4 + ANVIL__ORIGIN_ARGC, 5 + ANVIL__ORIGIN_ARGC);
#define anvil__xml_fail(...) (anvil__xml_fail)(ANVIL__ORIGIN_HERE __VA_ARGS__)
/* "expected WHAT, found X" at `at`, with X described by anvil__xml_describe(). */
int(anvil__xml_expected)(ANVIL__ORIGIN_DECL struct anvil_xml_reader *r, const unsigned char *at, const char *what, ...)
    ANVIL_PRINTF(3 + ANVIL__ORIGIN_ARGC, 4 + ANVIL__ORIGIN_ARGC);
#define anvil__xml_expected(...) (anvil__xml_expected)(ANVIL__ORIGIN_HERE __VA_ARGS__)
/* The byte at `at` is not an XML character: a control, invalid UTF-8, U+FFFE/U+FFFF. */
int anvil__xml_bad_char(struct anvil_xml_reader *r, const unsigned char *at, const char *where);
int anvil__xml_nomem(struct anvil_xml_reader *r, const unsigned char *at);

/* What is at `at`, for messages: "end of input", "'x'", "byte 0xFF (invalid UTF-8)", "'é' (U+00E9)". */
void anvil__xml_describe(const struct anvil_xml_reader *r, const unsigned char *at, char *out, size_t size);
/* Line and column (1-based, bytes) of `offset`; CR LF, CR and LF each end a line. */
void anvil__xml_line_column(const struct anvil_xml_reader *r, size_t offset, size_t *line, size_t *column);
/* A name (or other input) for a message: all of it, or a readable prefix cut on a character and "...". */
#define ANVIL__XML_SHOWN 68
const char *anvil__xml_shown(const char *name, size_t len, char out[ANVIL__XML_SHOWN]);

#endif
