/*
 * The strict pull reader: XML 1.0's grammar for documents without a DTD.
 * Iterative: the open elements live on a heap stack capped by max_depth, so
 * nesting costs heap, never C stack. Strings borrow from the input unless a
 * reference, a CR or a normalised attribute space makes them differ from it;
 * those are decoded into one scratch buffer emptied at every event. Lines
 * and columns are counted only when an error is reported.
 */

#include <stdio.h>

#include "xml/xml_internal.h"

static const unsigned char s_empty_input[1];

int anvil__xml_reader_init(struct anvil_xml_reader *r, struct anvil_allocator *allocator, const char *text, size_t len,
                           const struct anvil_xml_options *options) {
    memset(r, 0, sizeof(*r));
    if (!text && len > 0) {
        return ANVIL_EINVAL;
    }
    size_t max_bytes =
        options && options->max_document_bytes ? options->max_document_bytes : ANVIL_XML_DEFAULT_MAX_DOCUMENT_BYTES;
    if (len > max_bytes) {
        return ANVIL_ELIMIT;
    }
    r->allocator = allocator;
    r->begin = text ? (const unsigned char *)text : s_empty_input;
    r->end = r->begin + len;
    r->p = r->begin;
    if (len >= 3 && r->begin[0] == 0xEF && r->begin[1] == 0xBB && r->begin[2] == 0xBF) {
        r->p += 3; /* the UTF-8 byte order mark */
    }
    r->decl_at = r->p;
    r->max_depth = options && options->max_depth ? options->max_depth : ANVIL_XML_DEFAULT_MAX_DEPTH;
    r->max_attributes = options && options->max_attributes ? options->max_attributes : ANVIL_XML_DEFAULT_MAX_ATTRIBUTES;
    r->state = ANVIL__XML_PROLOG;
    return ANVIL_OK;
}

void anvil__xml_reader_clean_up(struct anvil_xml_reader *r) {
    anvil_mem_release(r->allocator, r->open);
    anvil_mem_release(r->allocator, r->attrs);
    anvil_mem_release(r->allocator, r->attr_extra);
    anvil_mem_release(r->allocator, r->dup_slots);
    anvil_mem_release(r->allocator, r->scratch);
}

/* ---- helpers ---- */

static inline size_t s_offset(const struct anvil_xml_reader *r, const unsigned char *at) {
    return (size_t)(at - r->begin);
}

static inline bool s_starts(const unsigned char *p, const unsigned char *end, const char *lit, size_t len) {
    return (size_t)(end - p) >= len && memcmp(p, lit, len) == 0;
}

/* "line L, column C" of `at`, for messages about something that started there. */
static const char *s_where(const struct anvil_xml_reader *r, const unsigned char *at, char *out, size_t size) {
    size_t line, column;
    anvil__xml_line_column(r, s_offset(r, at), &line, &column);
    snprintf(out, size, "line %zu, column %zu", line, column);
    return out;
}

static void s_event(struct anvil_xml_event *ev, enum anvil_xml_event_type type, size_t offset, size_t depth) {
    ev->type = type;
    ev->name.ptr = NULL;
    ev->name.len = 0;
    ev->text.ptr = NULL;
    ev->text.len = 0;
    ev->attributes = NULL;
    ev->attribute_count = 0;
    ev->offset = offset;
    ev->depth = depth;
}

/* ---- comments and processing instructions ---- */

static int s_comment(struct anvil_xml_reader *r, const unsigned char *lt) {
    const unsigned char *p = lt + 4, *end = r->end; /* past "<!--" */
    for (;;) {
        p = anvil__xml_skip_chars(p, end, '-');
        if (p < end && *p != '-') {
            return anvil__xml_bad_char(r, p, "a comment");
        }
        if (end - p < 3) {
            char where[64];
            return anvil__xml_expected(r, end, "'-->' to close the comment started at %s",
                                       s_where(r, lt, where, sizeof(where)));
        }
        if (p[1] == '-') {
            if (p[2] != '>') {
                return anvil__xml_fail(r, ANVIL_ESYNTAX, p, "'--' is not allowed inside a comment");
            }
            r->p = p + 3;
            return ANVIL_OK;
        }
        p++;
    }
}

static int s_declaration(struct anvil_xml_reader *r, const unsigned char *lt);

static int s_pi(struct anvil_xml_reader *r, const unsigned char *lt) {
    const unsigned char *end = r->end, *target = lt + 2;
    const unsigned char *p = anvil__xml_name_end(target, end);
    if (p == target) {
        return anvil__xml_expected(r, p, "a processing instruction target after '<?'");
    }
    char shown[ANVIL__XML_SHOWN];
    if (p - target == 3 && (target[0] | 0x20) == 'x' && (target[1] | 0x20) == 'm' && (target[2] | 0x20) == 'l') {
        if (memcmp(target, "xml", 3) != 0) {
            return anvil__xml_fail(r, ANVIL_ESYNTAX, lt, "the processing instruction target '%.3s' is reserved",
                                   (const char *)target);
        }
        if (lt == r->decl_at && r->state == ANVIL__XML_PROLOG) {
            return s_declaration(r, lt);
        }
        return anvil__xml_fail(r, ANVIL_ESYNTAX, lt,
                               "an XML declaration may stand only at the very start of the document");
    }
    if (!s_starts(p, end, "?>", 2) && (p == end || !anvil__xml_is(*p, ANVIL__XML_SPACE))) {
        return anvil__xml_expected(r, p, "white space or '?>' after the processing instruction target '%s'",
                                   anvil__xml_shown((const char *)target, (size_t)(p - target), shown));
    }
    for (;;) {
        p = anvil__xml_skip_chars(p, end, '?');
        if (p < end && *p != '?') {
            return anvil__xml_bad_char(r, p, "a processing instruction");
        }
        if (end - p < 2) {
            char where[64];
            return anvil__xml_expected(r, end, "'?>' to close the processing instruction started at %s",
                                       s_where(r, lt, where, sizeof(where)));
        }
        if (p[1] == '>') {
            r->p = p + 2;
            return ANVIL_OK;
        }
        p++;
    }
}

/* ---- the XML declaration ---- */

/* `Eq` and a quoted value after a pseudo-attribute's name: returns the byte after the closing quote, NULL on error. */
static const unsigned char *s_decl_value(struct anvil_xml_reader *r, const unsigned char *p, const char *name,
                                         struct anvil_str_view *value) {
    const unsigned char *end = r->end;
    p = anvil__xml_skip_space(p, end);
    if (p == end || *p != '=') {
        anvil__xml_expected(r, p, "'=' after '%s' in the XML declaration", name);
        return NULL;
    }
    p = anvil__xml_skip_space(p + 1, end);
    if (p == end || (*p != '"' && *p != '\'')) {
        anvil__xml_expected(r, p, "a quoted value for '%s' in the XML declaration", name);
        return NULL;
    }
    const unsigned char *start = p + 1;
    p = anvil__xml_skip_chars(start, end, *p);
    if (p == end || *p != start[-1]) {
        if (p < end) {
            anvil__xml_bad_char(r, p, "the XML declaration");
        } else {
            anvil__xml_expected(r, p, "the closing quote of '%s' in the XML declaration", name);
        }
        return NULL;
    }
    *value = anvil__xml_sv(start, (size_t)(p - start));
    return p + 1;
}

static bool s_version_ok(struct anvil_str_view v) {
    if (v.len < 3 || v.ptr[0] != '1' || v.ptr[1] != '.') {
        return false;
    }
    for (size_t i = 2; i < v.len; i++) {
        if (v.ptr[i] < '0' || v.ptr[i] > '9') {
            return false;
        }
    }
    return true;
}

/* The declaration at `lt` ("<?xml" and white space or '?'): version, then optional encoding and standalone. */
static int s_declaration(struct anvil_xml_reader *r, const unsigned char *lt) {
    const unsigned char *end = r->end, *p = lt + 5, *s;
    char shown[ANVIL__XML_SHOWN];
    struct anvil_str_view value;
    s = anvil__xml_skip_space(p, end);
    if (s == p || !s_starts(s, end, "version", 7)) {
        return anvil__xml_expected(r, s, "white space and 'version' in the XML declaration");
    }
    if (!(p = s_decl_value(r, s + 7, "version", &value))) {
        return r->error;
    }
    if (!s_version_ok(value)) {
        return anvil__xml_fail(r, ANVIL_ESYNTAX, (const unsigned char *)value.ptr,
                               "unsupported XML version '%s': anvil reads XML 1.x",
                               anvil__xml_shown(value.ptr, value.len, shown));
    }
    bool ascii = false;
    s = anvil__xml_skip_space(p, end);
    if (s > p && s_starts(s, end, "encoding", 8)) {
        if (!(p = s_decl_value(r, s + 8, "encoding", &value))) {
            return r->error;
        }
        ascii = anvil_sv_eq_ascii_nocase(value, ANVIL_SV("US-ASCII"));
        if (!ascii && !anvil_sv_eq_ascii_nocase(value, ANVIL_SV("UTF-8"))) {
            return anvil__xml_fail(r, ANVIL_ESYNTAX, (const unsigned char *)value.ptr,
                                   "unsupported encoding '%s': anvil reads UTF-8 only (or its subset US-ASCII)",
                                   anvil__xml_shown(value.ptr, value.len, shown));
        }
        s = anvil__xml_skip_space(p, end);
    }
    if (s > p && s_starts(s, end, "standalone", 10)) {
        if (!(p = s_decl_value(r, s + 10, "standalone", &value))) {
            return r->error;
        }
        if (!anvil_sv_eq_cstr(value, "yes") && !anvil_sv_eq_cstr(value, "no")) {
            return anvil__xml_fail(r, ANVIL_ESYNTAX, (const unsigned char *)value.ptr,
                                   "expected 'yes' or 'no' for 'standalone' in the XML declaration, found '%s'",
                                   anvil__xml_shown(value.ptr, value.len, shown));
        }
        s = anvil__xml_skip_space(p, end);
    }
    if (!s_starts(s, end, "?>", 2)) {
        return anvil__xml_expected(r, s, "'?>' to end the XML declaration");
    }
    r->p = s + 2;
    if (ascii) {
        /* Once, here: the hot paths need not know. A BOM before it is not US-ASCII either. */
        for (const unsigned char *q = r->begin; q < end; q++) {
            if (*q >= 0x80) {
                return anvil__xml_fail(r, ANVIL_ESYNTAX, q,
                                       "byte 0x%02X is not US-ASCII, the encoding the XML declaration names", *q);
            }
        }
    }
    return ANVIL_OK;
}

/* ---- character data ---- */

static int s_text(struct anvil_xml_reader *r, struct anvil_xml_event *ev) {
    const unsigned char *start = r->p, *run = start, *p = start, *end = r->end;
    bool decoded = false;
    for (;;) {
        p = anvil__xml_skip_text(p, end);
        if (ANVIL_LIKELY(p == end || *p == '<')) {
            break;
        }
        unsigned char c = *p;
        if (c == '&' || c == '\r') {
            /* From here on the text differs from the input: decode it into the scratch. */
            decoded = true;
            if (anvil__xml_scratch_append(r, p, run, (size_t)(p - run)) != ANVIL_OK) {
                return r->error;
            }
            unsigned char bytes[4] = {'\n'};
            size_t n = 1;
            if (c == '&') {
                if (!(p = anvil__xml_reference(r, p, bytes, &n))) {
                    return r->error;
                }
            } else {
                p += p + 1 < end && p[1] == '\n' ? 2 : 1; /* CR LF and a lone CR become LF */
            }
            if (anvil__xml_scratch_append(r, p, bytes, n) != ANVIL_OK) {
                return r->error;
            }
            run = p;
        } else if (c == ']') {
            if (s_starts(p, end, "]]>", 3)) {
                return anvil__xml_fail(r, ANVIL_ESYNTAX, p, "']]>' is not allowed in character data");
            }
            p++;
        } else {
            size_t n = c >= 0x80 ? anvil__xml_char_len(p, end) : 0;
            if (n == 0) {
                return anvil__xml_bad_char(r, p, "character data");
            }
            p += n;
        }
    }
    s_event(ev, ANVIL_XML_TEXT, s_offset(r, start), r->depth);
    if (decoded) {
        if (anvil__xml_scratch_append(r, p, run, (size_t)(p - run)) != ANVIL_OK) {
            return r->error;
        }
        ev->text = anvil__xml_sv(r->scratch, r->scratch_len);
    } else {
        ev->text = anvil__xml_sv(start, (size_t)(p - start));
    }
    r->p = p;
    return ANVIL_OK;
}

/* A CDATA section at `lt`: a TEXT event unless it is empty (`*emitted` says). */
static int s_cdata(struct anvil_xml_reader *r, const unsigned char *lt, struct anvil_xml_event *ev, bool *emitted) {
    const unsigned char *start = lt + 9, *p = start, *end = r->end; /* past "<![CDATA[" */
    for (;;) {
        p = anvil__xml_skip_chars(p, end, ']');
        if (p < end && *p != ']') {
            return anvil__xml_bad_char(r, p, "a CDATA section");
        }
        if (end - p < 3) {
            char where[64];
            return anvil__xml_expected(r, end, "']]>' to close the CDATA section started at %s",
                                       s_where(r, lt, where, sizeof(where)));
        }
        if (p[1] == ']' && p[2] == '>') {
            break;
        }
        p++;
    }
    r->p = p + 3;
    *emitted = p > start;
    if (!*emitted) {
        return ANVIL_OK;
    }
    s_event(ev, ANVIL_XML_TEXT, s_offset(r, lt), r->depth);
    ev->text = anvil__xml_sv(start, (size_t)(p - start));
    const unsigned char *cr = memchr(start, '\r', (size_t)(p - start));
    if (cr) {
        /* CR LF and a lone CR become LF here too. */
        const unsigned char *run = start;
        do {
            if (anvil__xml_scratch_append(r, cr, run, (size_t)(cr - run)) != ANVIL_OK ||
                anvil__xml_scratch_append(r, cr, "\n", 1) != ANVIL_OK) {
                return r->error;
            }
            run = cr + 1 < p && cr[1] == '\n' ? cr + 2 : cr + 1;
        } while ((cr = memchr(run, '\r', (size_t)(p - run))) != NULL);
        if (anvil__xml_scratch_append(r, p, run, (size_t)(p - run)) != ANVIL_OK) {
            return r->error;
        }
        ev->text = anvil__xml_sv(r->scratch, r->scratch_len);
    }
    return ANVIL_OK;
}

/* ---- tags ---- */

static int s_reserve_attributes(struct anvil_xml_reader *r, size_t need) {
    if (need > r->attr_cap &&
        anvil__mem_grow(r->allocator, (void **)&r->attrs, &r->attr_cap, sizeof(*r->attrs), need) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    if (need > r->attr_extra_cap && anvil__mem_grow(r->allocator, (void **)&r->attr_extra, &r->attr_extra_cap,
                                                    sizeof(*r->attr_extra), need) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    return ANVIL_OK;
}

/* One attribute at `p` (its name's first byte) of the start tag at `lt`; returns the byte after it, NULL on error. */
static const unsigned char *s_attribute(struct anvil_xml_reader *r, const unsigned char *lt,
                                        struct anvil_str_view element, const unsigned char *p, size_t count) {
    const unsigned char *end = r->end, *name = p;
    char shown[ANVIL__XML_SHOWN], attr[ANVIL__XML_SHOWN], where[64];
    p = anvil__xml_name_end(p, end);
    if (p == name) {
        anvil__xml_expected(r, p, "an attribute name, '>' or '/>' in <%s>",
                            anvil__xml_shown(element.ptr, element.len, shown));
        return NULL;
    }
    if (count >= r->max_attributes) {
        anvil__xml_fail(r, ANVIL_ELIMIT, name, "<%s> has more than %zu attributes (max_attributes)",
                        anvil__xml_shown(element.ptr, element.len, shown), r->max_attributes);
        return NULL;
    }
    struct anvil_str_view attr_name = anvil__xml_sv(name, (size_t)(p - name));
    p = anvil__xml_skip_space(p, end);
    if (p == end || *p != '=') {
        anvil__xml_expected(r, p, "'=' after attribute '%s' in <%s>",
                            anvil__xml_shown(attr_name.ptr, attr_name.len, attr),
                            anvil__xml_shown(element.ptr, element.len, shown));
        return NULL;
    }
    p = anvil__xml_skip_space(p + 1, end);
    if (p == end || (*p != '"' && *p != '\'')) {
        anvil__xml_expected(r, p, "a value in quotes for attribute '%s' in <%s>",
                            anvil__xml_shown(attr_name.ptr, attr_name.len, attr),
                            anvil__xml_shown(element.ptr, element.len, shown));
        return NULL;
    }
    const unsigned char quote = *p++;
    const unsigned char *start = p, *run = p;
    size_t scratch_at = SIZE_MAX;
    for (;;) {
        while (p < end && anvil__xml_is(*p, ANVIL__XML_ATTR)) {
            p++;
        }
        if (p == end) {
            anvil__xml_expected(r, p, "the closing %c of attribute '%s' (its value starts at %s)", quote,
                                anvil__xml_shown(attr_name.ptr, attr_name.len, attr),
                                s_where(r, start, where, sizeof(where)));
            return NULL;
        }
        unsigned char c = *p;
        if (c == quote) {
            break;
        }
        if (c == '"' || c == '\'') {
            p++;
        } else if (c == '&' || c == '\t' || c == '\n' || c == '\r') {
            /* References are decoded, and literal white space becomes a space (XML's attribute-value normalisation). */
            if (scratch_at == SIZE_MAX) {
                scratch_at = r->scratch_len;
            }
            if (anvil__xml_scratch_append(r, p, run, (size_t)(p - run)) != ANVIL_OK) {
                return NULL;
            }
            unsigned char bytes[4] = {' '};
            size_t n = 1;
            if (c == '&') {
                if (!(p = anvil__xml_reference(r, p, bytes, &n))) {
                    return NULL;
                }
            } else {
                p += c == '\r' && p + 1 < end && p[1] == '\n' ? 2 : 1;
            }
            if (anvil__xml_scratch_append(r, p, bytes, n) != ANVIL_OK) {
                return NULL;
            }
            run = p;
        } else if (c == '<') {
            anvil__xml_fail(r, ANVIL_ESYNTAX, p, "'<' is not allowed in an attribute value (attribute '%s' of <%s>)",
                            anvil__xml_shown(attr_name.ptr, attr_name.len, attr),
                            anvil__xml_shown(element.ptr, element.len, shown));
            return NULL;
        } else {
            size_t n = c >= 0x80 ? anvil__xml_char_len(p, end) : 0;
            if (n == 0) {
                anvil__xml_bad_char(r, p, "an attribute value");
                return NULL;
            }
            p += n;
        }
    }
    struct anvil_str_view value = anvil__xml_sv(start, (size_t)(p - start));
    if (scratch_at != SIZE_MAX) {
        if (anvil__xml_scratch_append(r, p, run, (size_t)(p - run)) != ANVIL_OK) {
            return NULL;
        }
        value = anvil__xml_sv(NULL, r->scratch_len - scratch_at); /* pointed into the scratch once the tag is read */
    }
    if (s_reserve_attributes(r, count + 1) != ANVIL_OK) {
        anvil__xml_nomem(r, lt);
        return NULL;
    }
    r->attrs[count].name = attr_name;
    r->attrs[count].value = value;
    r->attr_extra[count].offset = s_offset(r, name);
    r->attr_extra[count].scratch = scratch_at;
    return p + 1;
}

static uint32_t s_hash(struct anvil_str_view s) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < s.len; i++) {
        h = (h ^ (unsigned char)s.ptr[i]) * 16777619u;
    }
    return h;
}

static int s_duplicate(struct anvil_xml_reader *r, struct anvil_str_view element, size_t first, size_t second) {
    char shown[ANVIL__XML_SHOWN], attr[ANVIL__XML_SHOWN], where[64];
    const struct anvil_xml_attribute *a = &r->attrs[second];
    return anvil__xml_fail(
        r, ANVIL_ESYNTAX, r->begin + r->attr_extra[second].offset, "duplicate attribute '%s' in <%s> (first at %s)",
        anvil__xml_shown(a->name.ptr, a->name.len, attr), anvil__xml_shown(element.ptr, element.len, shown),
        s_where(r, r->begin + r->attr_extra[first].offset, where, sizeof(where)));
}

/* Duplicate names among the `count` attributes: pairwise for a few, through a hash set for more. */
static int s_check_duplicates(struct anvil_xml_reader *r, struct anvil_str_view element, size_t count) {
    const struct anvil_xml_attribute *a = r->attrs;
    if (count <= 16) {
        for (size_t i = 1; i < count; i++) {
            for (size_t j = 0; j < i; j++) {
                if (anvil__sv_same(a[i].name, a[j].name)) {
                    return s_duplicate(r, element, j, i);
                }
            }
        }
        return ANVIL_OK;
    }
    size_t slots = 64;
    while (slots < count * 2) {
        slots *= 2;
    }
    if (slots > r->dup_cap) {
        size_t cap = r->dup_cap;
        if (anvil__mem_grow(r->allocator, (void **)&r->dup_slots, &cap, sizeof(uint32_t), slots) != ANVIL_OK) {
            return anvil__xml_nomem(r, r->begin + r->attr_extra[0].offset);
        }
        r->dup_cap = slots; /* a power of two; the allocation may be larger */
    }
    memset(r->dup_slots, 0, slots * sizeof(uint32_t));
    size_t mask = slots - 1;
    for (size_t i = 0; i < count; i++) {
        size_t slot = s_hash(a[i].name) & mask;
        for (; r->dup_slots[slot]; slot = (slot + 1) & mask) {
            size_t j = r->dup_slots[slot] - 1;
            if (anvil__sv_same(a[i].name, a[j].name)) {
                return s_duplicate(r, element, j, i);
            }
        }
        r->dup_slots[slot] = (uint32_t)(i + 1);
    }
    return ANVIL_OK;
}

static int s_start_tag(struct anvil_xml_reader *r, struct anvil_xml_event *ev) {
    const unsigned char *lt = r->p, *end = r->end, *name = lt + 1;
    const unsigned char *p = anvil__xml_name_end(name, end);
    char shown[ANVIL__XML_SHOWN];
    if (p == name) {
        return anvil__xml_expected(r, name, "an element name after '<'");
    }
    struct anvil_str_view element = anvil__xml_sv(name, (size_t)(p - name));
    if (ANVIL_UNLIKELY(r->depth >= r->max_depth)) {
        return anvil__xml_fail(r, ANVIL_ELIMIT, lt, "<%s> is nested deeper than %zu elements (max_depth)",
                               anvil__xml_shown(element.ptr, element.len, shown), r->max_depth);
    }
    size_t count = 0;
    bool empty = false;
    for (;;) {
        const unsigned char *before = p;
        p = anvil__xml_skip_space(p, end);
        if (p < end && *p == '>') {
            p++;
            break;
        }
        if (p < end && *p == '/') {
            if (p + 1 < end && p[1] == '>') {
                p += 2;
                empty = true;
                break;
            }
            return anvil__xml_expected(r, p + 1, "'>' after '/' to close <%s>",
                                       anvil__xml_shown(element.ptr, element.len, shown));
        }
        if (p == end) {
            char where[64];
            return anvil__xml_expected(r, p, "'>' to close <%s> (started at %s)",
                                       anvil__xml_shown(element.ptr, element.len, shown),
                                       s_where(r, lt, where, sizeof(where)));
        }
        if (p == before) {
            return anvil__xml_expected(r, p, "white space, '>' or '/>' in <%s>",
                                       anvil__xml_shown(element.ptr, element.len, shown));
        }
        if (!(p = s_attribute(r, lt, element, p, count))) {
            return r->error;
        }
        count++;
    }
    if (count > 0) {
        for (size_t i = 0; i < count; i++) {
            if (r->attr_extra[i].scratch != SIZE_MAX) {
                r->attrs[i].value.ptr = (const char *)r->scratch + r->attr_extra[i].scratch;
            }
        }
        if (count > 1 && s_check_duplicates(r, element, count) != ANVIL_OK) {
            return r->error;
        }
    }
    if (ANVIL_UNLIKELY(r->depth == r->open_cap) &&
        anvil__mem_grow(r->allocator, (void **)&r->open, &r->open_cap, sizeof(*r->open), r->depth + 1) != ANVIL_OK) {
        return anvil__xml_nomem(r, lt);
    }
    struct anvil__xml_open *open = &r->open[r->depth++];
    open->name = element.ptr;
    open->len = element.len;
    open->offset = s_offset(r, lt);
    s_event(ev, ANVIL_XML_START, open->offset, r->depth);
    ev->name = element;
    ev->attributes = count ? r->attrs : NULL;
    ev->attribute_count = count;
    r->state = empty ? ANVIL__XML_PENDING_END : ANVIL__XML_CONTENT;
    r->p = p;
    return ANVIL_OK;
}

static void s_end_event(struct anvil_xml_reader *r, struct anvil_xml_event *ev, size_t offset) {
    const struct anvil__xml_open *open = &r->open[r->depth - 1];
    s_event(ev, ANVIL_XML_END, offset, r->depth);
    ev->name = anvil__xml_sv(open->name, open->len);
    r->depth--;
    r->state = r->depth == 0 ? ANVIL__XML_EPILOG : ANVIL__XML_CONTENT;
}

static int s_end_tag(struct anvil_xml_reader *r, struct anvil_xml_event *ev) {
    const unsigned char *lt = r->p, *end = r->end, *name = lt + 2, *p = name;
    const struct anvil__xml_open *open = &r->open[r->depth - 1];
    /* The name must be the open element's: compare, then make sure the name ends there. */
    if (ANVIL_LIKELY((size_t)(end - name) >= open->len && memcmp(name, open->name, open->len) == 0)) {
        p = name + open->len;
    }
    if (ANVIL_UNLIKELY(p == name || (p < end && (anvil__xml_is(*p, ANVIL__XML_NAME) || *p >= 0x80)))) {
        p = anvil__xml_name_end(name, end);
        if (p == name) {
            return anvil__xml_expected(r, p, "an element name after '</'");
        }
        if ((size_t)(p - name) != open->len || memcmp(name, open->name, open->len) != 0) {
            char shown[ANVIL__XML_SHOWN], open_shown[ANVIL__XML_SHOWN], where[64];
            return anvil__xml_fail(r, ANVIL_ESYNTAX, lt, "mismatched end tag </%s>: <%s> is open (opened at %s)",
                                   anvil__xml_shown((const char *)name, (size_t)(p - name), shown),
                                   anvil__xml_shown(open->name, open->len, open_shown),
                                   s_where(r, r->begin + open->offset, where, sizeof(where)));
        }
    }
    p = anvil__xml_skip_space(p, end);
    if (p == end || *p != '>') {
        char shown[ANVIL__XML_SHOWN];
        return anvil__xml_expected(r, p, "'>' to close the end tag </%s>",
                                   anvil__xml_shown(open->name, open->len, shown));
    }
    r->p = p + 1;
    s_end_event(r, ev, s_offset(r, lt));
    return ANVIL_OK;
}

/* ---- the document ---- */

static int s_doctype(struct anvil_xml_reader *r, const unsigned char *lt) {
    return anvil__xml_fail(r, ANVIL_ESYNTAX, lt, "a DOCTYPE is not allowed: anvil does not process DTDs");
}

static int s_content(struct anvil_xml_reader *r, struct anvil_xml_event *ev) {
    const unsigned char *end = r->end;
    for (;;) {
        const unsigned char *p = r->p;
        if (ANVIL_UNLIKELY(p == end)) {
            const struct anvil__xml_open *open = &r->open[r->depth - 1];
            char shown[ANVIL__XML_SHOWN], where[64];
            anvil__xml_shown(open->name, open->len, shown);
            return anvil__xml_expected(r, p, "'</%s>' to close <%s> (opened at %s)", shown, shown,
                                       s_where(r, r->begin + open->offset, where, sizeof(where)));
        }
        if (*p != '<') {
            return s_text(r, ev);
        }
        unsigned char c = p + 1 < end ? p[1] : 0;
        if (c == '/') {
            return s_end_tag(r, ev);
        }
        if (c == '!') {
            if (s_starts(p, end, "<!--", 4)) {
                if (s_comment(r, p) != ANVIL_OK) {
                    return r->error;
                }
                continue;
            }
            if (s_starts(p, end, "<![CDATA[", 9)) {
                bool emitted = false;
                if (s_cdata(r, p, ev, &emitted) != ANVIL_OK || emitted) {
                    return r->error;
                }
                continue;
            }
            if (s_starts(p, end, "<!DOCTYPE", 9)) {
                return s_doctype(r, p);
            }
            return anvil__xml_expected(r, p + 2, "'--' (a comment) or '[CDATA[' after '<!'");
        }
        if (c == '?') {
            if (s_pi(r, p) != ANVIL_OK) {
                return r->error;
            }
            continue;
        }
        return s_start_tag(r, ev);
    }
}

/* Comments and processing instructions before or after the root: true when one was skipped (or failed). */
static bool s_misc(struct anvil_xml_reader *r, const unsigned char *p, int *rc) {
    if (s_starts(p, r->end, "<?", 2)) {
        *rc = s_pi(r, p);
        return true;
    }
    if (s_starts(p, r->end, "<!--", 4)) {
        *rc = s_comment(r, p);
        return true;
    }
    if (s_starts(p, r->end, "<!DOCTYPE", 9)) {
        *rc = s_doctype(r, p);
        return true;
    }
    return false;
}

static int s_prolog(struct anvil_xml_reader *r, struct anvil_xml_event *ev) {
    const unsigned char *end = r->end;
    if (r->p == r->begin && end - r->begin >= 2 &&
        ((r->begin[0] == 0xFE && r->begin[1] == 0xFF) || (r->begin[0] == 0xFF && r->begin[1] == 0xFE))) {
        return anvil__xml_fail(r, ANVIL_ESYNTAX, r->begin,
                               "the document starts with a UTF-16 byte order mark: anvil reads UTF-8 only");
    }
    for (;;) {
        const unsigned char *p = anvil__xml_skip_space(r->p, end);
        r->p = p;
        if (p == end) {
            return anvil__xml_expected(r, p, "the root element");
        }
        int rc = ANVIL_OK;
        if (s_misc(r, p, &rc)) {
            if (rc != ANVIL_OK) {
                return rc;
            }
            continue;
        }
        if (*p != '<') {
            return anvil__xml_expected(r, p, "'<' to start the root element");
        }
        if (s_starts(p, end, "<![CDATA[", 9)) {
            return anvil__xml_fail(r, ANVIL_ESYNTAX, p, "a CDATA section may stand only inside an element");
        }
        if (s_starts(p, end, "</", 2)) {
            return anvil__xml_fail(r, ANVIL_ESYNTAX, p, "an end tag before the root element started");
        }
        if (s_starts(p, end, "<!", 2)) {
            return anvil__xml_expected(r, p + 2, "'--' (a comment) after '<!'");
        }
        return s_start_tag(r, ev);
    }
}

static int s_epilog(struct anvil_xml_reader *r, struct anvil_xml_event *ev) {
    const unsigned char *end = r->end;
    for (;;) {
        const unsigned char *p = anvil__xml_skip_space(r->p, end);
        r->p = p;
        if (p == end) {
            r->state = ANVIL__XML_DONE;
            s_event(ev, ANVIL_XML_EOF, s_offset(r, end), 0);
            return ANVIL_OK;
        }
        int rc = ANVIL_OK;
        if (s_misc(r, p, &rc)) {
            if (rc != ANVIL_OK) {
                return rc;
            }
            continue;
        }
        const unsigned char *name = p + 1, *name_end = *p == '<' ? anvil__xml_name_end(name, end) : name;
        if (name_end > name) {
            char shown[ANVIL__XML_SHOWN];
            return anvil__xml_fail(r, ANVIL_ESYNTAX, p, "a second root element <%s>: a document has only one",
                                   anvil__xml_shown((const char *)name, (size_t)(name_end - name), shown));
        }
        return anvil__xml_expected(r, p,
                                   "only white space, comments or processing instructions after the root element");
    }
}

int anvil__xml_next(struct anvil_xml_reader *r, struct anvil_xml_event *ev, struct anvil_diag *diag) {
    int rc;
    r->scratch_len = 0;
    switch (r->state) {
    case ANVIL__XML_CONTENT:
        rc = s_content(r, ev);
        break;
    case ANVIL__XML_PENDING_END:
        s_end_event(r, ev, r->open[r->depth - 1].offset);
        return ANVIL_OK;
    case ANVIL__XML_PROLOG:
        rc = s_prolog(r, ev);
        break;
    case ANVIL__XML_EPILOG:
        rc = s_epilog(r, ev);
        break;
    case ANVIL__XML_DONE:
        s_event(ev, ANVIL_XML_EOF, s_offset(r, r->end), 0);
        return ANVIL_OK;
    default:
        rc = r->error;
        break;
    }
    if (ANVIL_UNLIKELY(rc != ANVIL_OK) && diag) {
        *diag = r->diag;
    }
    return rc;
}

/* ---- the public reader ---- */

int anvil_xml_reader_new(struct anvil_allocator *allocator, const char *text, size_t len,
                         const struct anvil_xml_options *options, struct anvil_xml_reader **out) {
    if (!out) {
        return ANVIL_EINVAL;
    }
    *out = NULL;
    struct anvil_xml_reader probe;
    int rc = anvil__xml_reader_init(&probe, allocator, text, len, options);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_xml_reader *r = anvil_mem_acquire(allocator, sizeof(*r));
    if (!r) {
        return ANVIL_ENOMEM;
    }
    *r = probe;
    *out = r;
    return ANVIL_OK;
}

void anvil_xml_reader_destroy(struct anvil_xml_reader *reader) {
    if (reader) {
        anvil__xml_reader_clean_up(reader);
        anvil_mem_release(reader->allocator, reader);
    }
}

int anvil_xml_reader_next(struct anvil_xml_reader *reader, struct anvil_xml_event *event, struct anvil_diag *diag) {
    if (!reader || !event) {
        return ANVIL_EINVAL;
    }
    return anvil__xml_next(reader, event, diag);
}
