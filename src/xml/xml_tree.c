/*
 * The tree: anvil_xml_parse() drives the reader and links nodes in the
 * caller's arena. Iterative: the open elements are a heap stack of frames
 * (the reader caps its depth), so deep documents cost heap, never C stack.
 *
 * An element's text is every run of character data directly inside it. The
 * runs of all open elements wait on one stack of views (an element's runs
 * are always on top when it closes, since its children's were taken off when
 * they closed); at the end tag one run is kept as it is, borrowed from the
 * input when it needs no decoding, and several are joined in the arena.
 * Decoded runs are copied to the arena at once, as the reader's scratch is
 * reused by the next event.
 */

#include <stdalign.h>

#include "core/arena_internal.h"
#include "xml/xml_internal.h"

static const char s_no_text[1] = "";

struct s_frame {
    struct anvil_xml_node *node;
    /* Its last child so far, where the next one is linked. */
    struct anvil_xml_node *last;
    /* Index of its first text run. */
    size_t runs;
};

struct s_builder {
    struct anvil_xml_reader reader;
    struct anvil_arena *arena;
    bool copy;
    struct s_frame *frames;
    size_t depth, frame_cap;
    struct anvil_str_view *runs;
    size_t run_len, run_cap;
    /* Bytes of the runs waiting to be joined, and the arena's use at the start: for the block hint. */
    size_t run_bytes;
    size_t used_at_start;
    const struct anvil_xml_node *root;
};

struct anvil_str_view anvil_xml_local(struct anvil_str_view name) {
    return anvil__xml_local(name);
}

/* ---- building ---- */

/*
 * The arena asks this when a block is full: the rest of the document will
 * probably need what the part already read needed per input byte (so a
 * 10 MB response takes one block sized for it instead of doubling blocks
 * with up to half of the last one unused).
 */
static size_t s_block_hint(void *ctx) {
    const struct s_builder *b = ctx;
    size_t len = (size_t)(b->reader.end - b->reader.begin), progress = (size_t)(b->reader.p - b->reader.begin);
    if (progress < 4096 || progress >= len) {
        return 0;
    }
    double used = (double)(anvil_arena_bytes_used(b->arena) - b->used_at_start) + (double)b->run_bytes;
    double total = used / (double)progress * (double)len;
    double remaining = (total - used) * 1.05 + 16384.0;
    double most = (double)ANVIL_ARENA_MAX_BLOCK_SIZE * 16;
    /* Never past the arena's byte limit: a guess must not turn a document that fits into ELIMIT. */
    const struct anvil_arena *arena = b->arena;
    size_t header = sizeof(struct anvil__arena_block) + 64;
    if (arena->max_bytes - arena->reserved < header + 16384) {
        return 0;
    }
    double room = (double)(arena->max_bytes - arena->reserved - header);
    most = room < most ? room : most;
    return remaining < most ? (size_t)remaining : (size_t)most;
}

static int s_fail_memory(struct s_builder *b, size_t offset) {
    const unsigned char *at = b->reader.begin + offset;
    if (anvil_arena_exhausted(b->arena)) {
        return anvil__xml_fail(&b->reader, ANVIL_ELIMIT, at, "the tree needs more memory than the arena's limit");
    }
    return anvil__xml_nomem(&b->reader, at);
}

/* `s` in the arena (NUL-terminated), or NULL. */
static inline const char *s_keep(struct s_builder *b, struct anvil_str_view s) {
    char *copy = anvil__arena_bump(b->arena, s.len + 1, 1);
    if (copy) {
        memcpy(copy, s.ptr, s.len);
        copy[s.len] = '\0';
    }
    return copy;
}

/* `s` as the tree keeps it: borrowed when it lies in the input and the caller allows that, else copied. */
static inline bool s_place(struct s_builder *b, struct anvil_str_view *s) {
    if (!b->copy && anvil__xml_borrowed(&b->reader, s->ptr)) {
        return true;
    }
    const char *kept = s_keep(b, *s);
    s->ptr = kept;
    return kept != NULL;
}

static int s_start(struct s_builder *b, const struct anvil_xml_event *ev) {
    struct anvil_xml_node *node = anvil__arena_bump(b->arena, sizeof(*node), alignof(struct anvil_xml_node));
    if (!node) {
        return s_fail_memory(b, ev->offset);
    }
    node->name = ev->name;
    if (!s_place(b, &node->name)) {
        return s_fail_memory(b, ev->offset);
    }
    node->local = anvil__xml_local(node->name);
    node->text = anvil__xml_sv(s_no_text, 0);
    node->attributes = NULL;
    node->attribute_count = ev->attribute_count;
    node->first_child = NULL;
    node->next_sibling = NULL;
    node->child_count = 0;
    node->offset = ev->offset;
    if (ev->attribute_count > 0) {
        struct anvil_xml_attribute *attrs =
            anvil__arena_bump(b->arena, ev->attribute_count * sizeof(*attrs), alignof(struct anvil_xml_attribute));
        if (!attrs) {
            return s_fail_memory(b, ev->offset);
        }
        for (size_t i = 0; i < ev->attribute_count; i++) {
            attrs[i] = ev->attributes[i];
            if (!s_place(b, &attrs[i].name) || !s_place(b, &attrs[i].value)) {
                return s_fail_memory(b, ev->offset);
            }
        }
        node->attributes = attrs;
    }
    if (b->depth > 0) {
        struct s_frame *parent = &b->frames[b->depth - 1];
        if (parent->last) {
            parent->last->next_sibling = node;
        } else {
            parent->node->first_child = node;
        }
        parent->last = node;
        parent->node->child_count++;
    } else {
        b->root = node;
    }
    if (ANVIL_UNLIKELY(b->depth == b->frame_cap) &&
        anvil__mem_grow(b->reader.allocator, (void **)&b->frames, &b->frame_cap, sizeof(*b->frames), b->depth + 1) !=
            ANVIL_OK) {
        return anvil__xml_nomem(&b->reader, b->reader.begin + ev->offset);
    }
    b->frames[b->depth++] = (struct s_frame){node, NULL, b->run_len};
    return ANVIL_OK;
}

static int s_text(struct s_builder *b, const struct anvil_xml_event *ev) {
    struct anvil_str_view text = ev->text;
    /* Borrowed runs are copied (with COPY_INPUT) only when the element ends: several runs are joined anyway. */
    if (!anvil__xml_borrowed(&b->reader, text.ptr) && !(text.ptr = s_keep(b, text))) {
        return s_fail_memory(b, ev->offset);
    }
    if (ANVIL_UNLIKELY(b->run_len == b->run_cap) && anvil__mem_grow(b->reader.allocator, (void **)&b->runs, &b->run_cap,
                                                                    sizeof(*b->runs), b->run_len + 1) != ANVIL_OK) {
        return anvil__xml_nomem(&b->reader, b->reader.begin + ev->offset);
    }
    b->runs[b->run_len++] = text;
    b->run_bytes += text.len;
    return ANVIL_OK;
}

static int s_end(struct s_builder *b, const struct anvil_xml_event *ev) {
    struct s_frame *frame = &b->frames[--b->depth];
    size_t first = frame->runs, count = b->run_len - first;
    if (count == 1) {
        struct anvil_str_view text = b->runs[first];
        if (b->copy && anvil__xml_borrowed(&b->reader, text.ptr) && !(text.ptr = s_keep(b, text))) {
            return s_fail_memory(b, ev->offset);
        }
        frame->node->text = text;
    } else if (count > 1) {
        size_t total = 0;
        for (size_t i = first; i < b->run_len; i++) {
            total += b->runs[i].len; /* no overflow: the runs are parts of the input */
        }
        char *joined = anvil__arena_bump(b->arena, total + 1, 1);
        if (!joined) {
            return s_fail_memory(b, ev->offset);
        }
        char *at = joined;
        for (size_t i = first; i < b->run_len; i++) {
            memcpy(at, b->runs[i].ptr, b->runs[i].len);
            at += b->runs[i].len;
        }
        *at = '\0';
        frame->node->text = anvil__xml_sv(joined, total);
    }
    for (size_t i = first; i < b->run_len; i++) {
        b->run_bytes -= b->runs[i].len;
    }
    b->run_len = first;
    return ANVIL_OK;
}

static int s_build(struct s_builder *b, struct anvil_diag *diag) {
    struct anvil_xml_event ev;
    for (;;) {
        int rc = anvil__xml_next(&b->reader, &ev, diag);
        if (rc == ANVIL_OK) {
            switch (ev.type) {
            case ANVIL_XML_START:
                rc = s_start(b, &ev);
                break;
            case ANVIL_XML_TEXT:
                rc = s_text(b, &ev);
                break;
            case ANVIL_XML_END:
                rc = s_end(b, &ev);
                break;
            default:
                return ANVIL_OK;
            }
            if (ANVIL_UNLIKELY(rc != ANVIL_OK) && diag) {
                *diag = b->reader.diag;
            }
        }
        if (ANVIL_UNLIKELY(rc != ANVIL_OK)) {
            return rc;
        }
    }
}

int anvil_xml_parse(struct anvil_arena *arena, struct anvil_allocator *allocator, const char *text, size_t len,
                    const struct anvil_xml_options *options, unsigned flags, const struct anvil_xml_node **root,
                    struct anvil_diag *diag) {
    if (root) {
        *root = NULL;
    }
    if (!arena || !root || (flags & ~(unsigned)ANVIL_XML_COPY_INPUT) != 0) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "anvil_xml_parse: NULL arena or root, or unknown flags");
    }
    struct s_builder b;
    memset(&b, 0, sizeof(b));
    int rc = anvil__xml_reader_init(&b.reader, allocator, text, len, options);
    if (rc == ANVIL_ELIMIT) {
        return anvil_diag_set(diag, rc, 0, 0, 0, "the document is %zu bytes, more than max_document_bytes (%zu)", len,
                              options && options->max_document_bytes ? options->max_document_bytes
                                                                     : ANVIL_XML_DEFAULT_MAX_DOCUMENT_BYTES);
    }
    if (rc != ANVIL_OK) {
        return anvil_diag_set(diag, rc, 0, 0, 0, "anvil_xml_parse: NULL text with a length");
    }
    b.arena = arena;
    b.copy = (flags & ANVIL_XML_COPY_INPUT) != 0;
    b.used_at_start = anvil_arena_bytes_used(arena);
    /* Only an arena without a hint of its own gets this one, for the time of the parse. */
    bool hinted = !arena->hint;
    if (hinted) {
        arena->hint = s_block_hint;
        arena->hint_ctx = &b;
    }
    rc = s_build(&b, diag);
    if (hinted) {
        arena->hint = NULL;
        arena->hint_ctx = NULL;
    }
    if (rc == ANVIL_OK) {
        *root = b.root;
    }
    anvil_mem_release(b.reader.allocator, b.frames);
    anvil_mem_release(b.reader.allocator, b.runs);
    anvil__xml_reader_clean_up(&b.reader);
    return rc;
}

/* ---- reading the tree ---- */

const struct anvil_xml_node *anvil_xml_child(const struct anvil_xml_node *node, struct anvil_str_view local) {
    for (const struct anvil_xml_node *c = node ? node->first_child : NULL; c; c = c->next_sibling) {
        if (anvil__sv_same(c->local, local)) {
            return c;
        }
    }
    return NULL;
}

const struct anvil_str_view *anvil_xml_attribute(const struct anvil_xml_node *node, struct anvil_str_view name) {
    for (size_t i = 0; node && i < node->attribute_count; i++) {
        if (anvil__sv_same(node->attributes[i].name, name)) {
            return &node->attributes[i].value;
        }
    }
    return NULL;
}
