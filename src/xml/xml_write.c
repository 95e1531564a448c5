/*
 * Writing XML: escaping of text and attribute values, and a writer of one
 * element tree that leaves each start tag open until it learns whether the
 * element is empty (`<a/>`). Everything the reader decodes, the writer
 * encodes so that the reader gives it back: control characters and
 * U+FFFE/U+FFFF become character references, and in attribute values tab,
 * LF and CR too (the reader turns literal ones into spaces).
 */

#include <stdio.h>

#include "xml/xml_internal.h"

/* ---- escaping ---- */

/* 1: written as it is in text; 2: also in an attribute value. Non-ASCII is checked as UTF-8. */
static unsigned char s_plain(unsigned char c) {
    if (c >= 0x80) {
        return 0;
    }
    if (c == '&' || c == '<' || c == '>') {
        return 0;
    }
    if (c == '"') {
        return 1;
    }
    if (c >= 0x20) {
        return 3;
    }
    return c == '\t' || c == '\n' ? 1 : 0;
}

static int s_escape(struct anvil_buf *out, struct anvil_str_view s, bool attribute) {
    if (s.len == 0) {
        return ANVIL_OK;
    }
    if (!s.ptr) {
        return ANVIL_EINVAL;
    }
    const unsigned char want = attribute ? 2 : 1;
    const unsigned char *p = (const unsigned char *)s.ptr, *end = p + s.len, *run = p;
    size_t mark = out->len;
    int rc = anvil_buf_reserve(out, s.len);
    while (rc == ANVIL_OK && p < end) {
        unsigned char c = *p;
        if (s_plain(c) & want) {
            p++;
            continue;
        }
        size_t n = 0;
        if (c >= 0x80) {
            n = anvil__utf8_sequence(p, end);
            if (n == 0) {
                rc = ANVIL_EINVAL; /* invalid UTF-8: XML cannot carry it */
                break;
            }
            if (!(n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)) {
                p += n;
                continue;
            }
        } else if (c == 0) {
            rc = ANVIL_EINVAL; /* U+0000 is no XML character, not even as a reference */
            break;
        }
        rc = anvil_buf_append(out, run, (size_t)(p - run));
        if (rc != ANVIL_OK) {
            break;
        }
        switch (c) {
        case '&':
            rc = anvil_buf_append(out, "&amp;", 5);
            break;
        case '<':
            rc = anvil_buf_append(out, "&lt;", 4);
            break;
        case '>':
            rc = anvil_buf_append(out, "&gt;", 4);
            break;
        case '"':
            rc = anvil_buf_append(out, "&quot;", 6);
            break;
        default:
            rc = anvil_buf_appendf(out, "&#x%X;", n == 3 ? 0xFFFEu + (p[2] & 1u) : (unsigned)c);
            break;
        }
        p += n ? n : 1;
        run = p;
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append(out, run, (size_t)(p - run));
    }
    if (rc != ANVIL_OK) {
        anvil_buf_truncate(out, mark);
    }
    return rc;
}

int anvil_xml_write_text(struct anvil_buf *out, struct anvil_str_view text) {
    return out ? s_escape(out, text, false) : ANVIL_EINVAL;
}

int anvil_xml_write_attribute_value(struct anvil_buf *out, struct anvil_str_view value) {
    return out ? s_escape(out, value, true) : ANVIL_EINVAL;
}

/* ---- the writer ---- */

struct anvil_xml_writer {
    struct anvil_allocator *allocator;
    struct anvil_buf *out;
    /* The open elements' names, one after the other; `open` holds where each starts. */
    char *names;
    size_t names_len, names_cap;
    size_t *open;
    size_t depth, open_cap;
    /* The innermost element's start tag still lacks its '>'. */
    bool tag_open;
    /* The root element was closed: the tree is complete. */
    bool closed;
    int error;
};

int anvil_xml_writer_new(struct anvil_allocator *allocator, struct anvil_buf *out, struct anvil_xml_writer **writer) {
    if (!writer) {
        return ANVIL_EINVAL;
    }
    *writer = NULL;
    if (!out) {
        return ANVIL_EINVAL;
    }
    struct anvil_xml_writer *w = anvil_mem_calloc(allocator, 1, sizeof(*w));
    if (!w) {
        return ANVIL_ENOMEM;
    }
    w->allocator = allocator;
    w->out = out;
    *writer = w;
    return ANVIL_OK;
}

void anvil_xml_writer_destroy(struct anvil_xml_writer *writer) {
    if (writer) {
        anvil_mem_release(writer->allocator, writer->names);
        anvil_mem_release(writer->allocator, writer->open);
        anvil_mem_release(writer->allocator, writer);
    }
}

/* True when `name` is an XML Name, so that what is written parses. */
static bool s_name_ok(struct anvil_str_view name) {
    const unsigned char *p = (const unsigned char *)name.ptr;
    return name.len > 0 && p && anvil__xml_name_end(p, p + name.len) == p + name.len;
}

/* Records the first error; every call after it returns it. */
static int s_set(struct anvil_xml_writer *w, int rc) {
    if (rc != ANVIL_OK && w->error == ANVIL_OK) {
        w->error = rc;
    }
    return w->error;
}

/* Ends the open start tag with '>' before content. */
static int s_close_tag(struct anvil_xml_writer *w) {
    if (!w->tag_open) {
        return ANVIL_OK;
    }
    w->tag_open = false;
    return anvil_buf_append_byte(w->out, '>');
}

int anvil_xml_writer_start(struct anvil_xml_writer *writer, struct anvil_str_view name) {
    if (!writer) {
        return ANVIL_EINVAL;
    }
    struct anvil_xml_writer *w = writer;
    if (w->error) {
        return w->error;
    }
    if (!s_name_ok(name) || (w->depth == 0 && w->closed)) {
        return s_set(w, ANVIL_EINVAL); /* not a name, or a second root */
    }
    size_t need;
    if (anvil__size_add(w->names_len, name.len, &need) ||
        anvil__mem_grow(w->allocator, (void **)&w->names, &w->names_cap, 1, need) != ANVIL_OK ||
        anvil__mem_grow(w->allocator, (void **)&w->open, &w->open_cap, sizeof(*w->open), w->depth + 1) != ANVIL_OK) {
        return s_set(w, ANVIL_ENOMEM);
    }
    int rc = s_close_tag(w);
    if (rc == ANVIL_OK && (rc = anvil_buf_append_byte(w->out, '<')) == ANVIL_OK) {
        rc = anvil_buf_append_sv(w->out, name);
    }
    if (rc != ANVIL_OK) {
        return s_set(w, rc);
    }
    memcpy(w->names + w->names_len, name.ptr, name.len);
    w->open[w->depth++] = w->names_len;
    w->names_len += name.len;
    w->tag_open = true;
    return ANVIL_OK;
}

int anvil_xml_writer_attribute(struct anvil_xml_writer *writer, struct anvil_str_view name,
                               struct anvil_str_view value) {
    if (!writer) {
        return ANVIL_EINVAL;
    }
    struct anvil_xml_writer *w = writer;
    if (w->error) {
        return w->error;
    }
    if (!w->tag_open || !s_name_ok(name)) {
        return s_set(w, ANVIL_EINVAL);
    }
    int rc = anvil_buf_append_byte(w->out, ' ');
    if (rc == ANVIL_OK && (rc = anvil_buf_append_sv(w->out, name)) == ANVIL_OK &&
        (rc = anvil_buf_append(w->out, "=\"", 2)) == ANVIL_OK &&
        (rc = anvil_xml_write_attribute_value(w->out, value)) == ANVIL_OK) {
        rc = anvil_buf_append_byte(w->out, '"');
    }
    return s_set(w, rc);
}

int anvil_xml_writer_text(struct anvil_xml_writer *writer, struct anvil_str_view text) {
    if (!writer) {
        return ANVIL_EINVAL;
    }
    struct anvil_xml_writer *w = writer;
    if (w->error) {
        return w->error;
    }
    if (w->depth == 0) {
        return s_set(w, ANVIL_EINVAL); /* text outside the root */
    }
    if (text.len == 0) {
        return ANVIL_OK; /* nothing to write: the element may still be written `<a/>` */
    }
    int rc = s_close_tag(w);
    if (rc == ANVIL_OK) {
        rc = anvil_xml_write_text(w->out, text);
    }
    return s_set(w, rc);
}

int anvil_xml_writer_end(struct anvil_xml_writer *writer) {
    if (!writer) {
        return ANVIL_EINVAL;
    }
    struct anvil_xml_writer *w = writer;
    if (w->error) {
        return w->error;
    }
    if (w->depth == 0) {
        return s_set(w, ANVIL_EINVAL);
    }
    size_t at = w->open[--w->depth];
    int rc;
    if (w->tag_open) {
        w->tag_open = false;
        rc = anvil_buf_append(w->out, "/>", 2);
    } else if ((rc = anvil_buf_append(w->out, "</", 2)) == ANVIL_OK &&
               (rc = anvil_buf_append(w->out, w->names + at, w->names_len - at)) == ANVIL_OK) {
        rc = anvil_buf_append_byte(w->out, '>');
    }
    w->names_len = at;
    w->closed = w->depth == 0;
    return s_set(w, rc);
}

int anvil_xml_writer_finish(struct anvil_xml_writer *writer) {
    if (!writer) {
        return ANVIL_EINVAL;
    }
    struct anvil_xml_writer *w = writer;
    while (w->error == ANVIL_OK && w->depth > 0) {
        anvil_xml_writer_end(w);
    }
    int rc = w->error;
    w->error = ANVIL_OK;
    w->depth = 0;
    w->names_len = 0;
    w->tag_open = false;
    w->closed = false;
    return rc;
}
