/*
 * libFuzzer target: parse -> write -> reparse -> compare -> write again, and
 * the pull reader beside the tree. Every accepted document must be written
 * back by the writer into text that parses to an equal tree and is written
 * the same way again; every rejected one must come with a position and a
 * message. The reader, driven over the same input, must agree with the
 * tree: the same outcome, the same diagnostic, as many elements and as
 * many bytes of text.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "xml fuzz: %s\n", what);
        abort();
    }
}

static bool s_same(struct anvil_str_view a, struct anvil_str_view b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* A growable stack of node pointers (the walks never recurse: documents may be deep). */
struct s_stack {
    const struct anvil_xml_node **items;
    size_t len, cap;
};

static void s_push(struct s_stack *s, const struct anvil_xml_node *node) {
    if (s->len == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->items = realloc(s->items, s->cap * sizeof(*s->items));
        s_check(s->items != NULL, "out of memory");
    }
    s->items[s->len++] = node;
}

/* Writes the tree: each element's attributes, its text, then its children. */
static void s_write(const struct anvil_xml_node *root, struct anvil_buf *out) {
    struct anvil_xml_writer *w = NULL;
    s_check(anvil_xml_writer_new(NULL, out, &w) == ANVIL_OK, "writer_new failed");
    struct s_stack next = {0}; /* per open element: the child to write next (NULL: end it) */
    const struct anvil_xml_node *node = root;
    for (;;) {
        if (node) {
            s_check(anvil_xml_writer_start(w, node->name) == ANVIL_OK, "writer_start failed");
            for (size_t i = 0; i < node->attribute_count; i++) {
                s_check(anvil_xml_writer_attribute(w, node->attributes[i].name, node->attributes[i].value) == ANVIL_OK,
                        "writer_attribute failed");
            }
            s_check(anvil_xml_writer_text(w, node->text) == ANVIL_OK, "writer_text failed");
            s_push(&next, node->first_child);
        } else {
            s_check(anvil_xml_writer_end(w) == ANVIL_OK, "writer_end failed");
            next.len--;
            if (next.len == 0) {
                break;
            }
        }
        node = next.items[next.len - 1];
        if (node) {
            next.items[next.len - 1] = node->next_sibling;
        }
    }
    s_check(anvil_xml_writer_finish(w) == ANVIL_OK, "writer_finish failed");
    anvil_xml_writer_destroy(w);
    free(next.items);
}

static void s_equal(const struct anvil_xml_node *a, const struct anvil_xml_node *b) {
    struct s_stack left = {0}, right = {0};
    s_push(&left, a);
    s_push(&right, b);
    while (left.len > 0) {
        a = left.items[--left.len];
        b = right.items[--right.len];
        s_check(s_same(a->name, b->name) && s_same(a->local, b->local) && s_same(a->text, b->text),
                "reparsed element differs");
        s_check(a->attribute_count == b->attribute_count && a->child_count == b->child_count,
                "reparsed element has other attributes or children");
        for (size_t i = 0; i < a->attribute_count; i++) {
            s_check(s_same(a->attributes[i].name, b->attributes[i].name) &&
                        s_same(a->attributes[i].value, b->attributes[i].value),
                    "reparsed attribute differs");
        }
        const struct anvil_xml_node *x = a->first_child, *y = b->first_child;
        for (; x && y; x = x->next_sibling, y = y->next_sibling) {
            s_push(&left, x);
            s_push(&right, y);
        }
        s_check(!x && !y, "reparsed element has another number of children");
    }
    free(left.items);
    free(right.items);
}

/* Elements and bytes of text in the tree. */
static void s_count_tree(const struct anvil_xml_node *root, size_t *elements, size_t *text) {
    struct s_stack todo = {0};
    s_push(&todo, root);
    while (todo.len > 0) {
        const struct anvil_xml_node *node = todo.items[--todo.len];
        (*elements)++;
        *text += node->text.len;
        s_check(s_same(node->local, anvil_xml_local(node->name)), "local name is not anvil_xml_local(name)");
        size_t children = 0;
        for (const struct anvil_xml_node *c = node->first_child; c; c = c->next_sibling) {
            s_push(&todo, c);
            children++;
        }
        s_check(children == node->child_count, "child_count differs from the children");
    }
    free(todo.items);
}

/* The reader over the same input: its outcome, its diagnostic, its elements and text. */
static int s_read(const uint8_t *data, size_t size, const struct anvil_xml_options *options, size_t *elements,
                  size_t *text, struct anvil_diag *diag) {
    struct anvil_xml_reader *r = NULL;
    int rc = anvil_xml_reader_new(NULL, (const char *)data, size, options, &r);
    s_check(rc == ANVIL_OK, "reader_new failed");
    struct anvil_xml_event ev;
    size_t depth = 0;
    for (;;) {
        rc = anvil_xml_reader_next(r, &ev, diag);
        if (rc != ANVIL_OK) {
            struct anvil_diag again;
            s_check(anvil_xml_reader_next(r, &ev, &again) == rc, "an error is not sticky");
            s_check(again.offset == diag->offset && strcmp(again.message, diag->message) == 0,
                    "a sticky error changed its diagnostic");
            break;
        }
        if (ev.type == ANVIL_XML_EOF) {
            s_check(depth == 0, "EOF with elements open");
            s_check(anvil_xml_reader_next(r, &ev, diag) == ANVIL_OK && ev.type == ANVIL_XML_EOF, "EOF is not sticky");
            break;
        }
        s_check(ev.offset < size, "event offset past the input");
        if (ev.type == ANVIL_XML_START) {
            (*elements)++;
            s_check(ev.depth == ++depth, "START at the wrong depth");
        } else if (ev.type == ANVIL_XML_END) {
            s_check(ev.depth == depth--, "END at the wrong depth");
        } else {
            s_check(ev.type == ANVIL_XML_TEXT && ev.text.len > 0 && ev.depth == depth, "bad TEXT event");
            *text += ev.text.len;
        }
    }
    anvil_xml_reader_destroy(r);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The first byte picks options, so the fuzzer explores them too; it is still part of the document. */
    struct anvil_xml_options options = {0};
    unsigned flags = ANVIL_XML_BORROW_INPUT;
    if (size > 0) {
        options.max_depth = (data[0] & 1) ? 8 : 0;
        options.max_attributes = (data[0] & 2) ? 3 : 0;
        flags = (data[0] & 4) ? ANVIL_XML_COPY_INPUT : ANVIL_XML_BORROW_INPUT;
    }
    struct anvil_arena *arena = NULL;
    s_check(anvil_arena_new(NULL, NULL, &arena) == ANVIL_OK, "arena_new failed");
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag, read_diag;
    int rc = anvil_xml_parse(arena, NULL, (const char *)data, size, &options, flags, &root, &diag);
    size_t read_elements = 0, read_text = 0;
    int read_rc = s_read(data, size, &options, &read_elements, &read_text, &read_diag);
    s_check(rc == read_rc, "the reader and the tree disagree");
    if (rc != ANVIL_OK) {
        s_check(root == NULL, "error but a root");
        s_check(rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT, "unexpected error code");
        s_check(diag.code == rc && diag.line > 0 && diag.column > 0 && diag.offset <= size && diag.message[0],
                "error without position or message");
        s_check(read_diag.offset == diag.offset && strcmp(read_diag.message, diag.message) == 0,
                "the reader's diagnostic differs from the tree's");
        anvil_arena_destroy(arena);
        return 0;
    }
    size_t elements = 0, text = 0;
    s_count_tree(root, &elements, &text);
    s_check(elements == read_elements && text == read_text, "the reader saw other elements or text");

    struct anvil_buf first, second;
    anvil_buf_init(&first, NULL, 0);
    anvil_buf_init(&second, NULL, 0);
    s_write(root, &first);
    const struct anvil_xml_node *again = NULL;
    struct anvil_xml_options unlimited = {.max_depth = SIZE_MAX, .max_attributes = SIZE_MAX};
    rc = anvil_xml_parse(arena, NULL, first.data, first.len, &unlimited, ANVIL_XML_COPY_INPUT, &again, &diag);
    if (rc != ANVIL_OK) {
        fprintf(stderr, "%zu:%zu: %s\n%.*s\n", diag.line, diag.column, diag.message, (int)first.len, first.data);
    }
    s_check(rc == ANVIL_OK, "written text does not parse");
    s_equal(root, again);
    s_write(again, &second);
    s_check(first.len == second.len && memcmp(first.data, second.data, first.len) == 0, "second write differs");
    anvil_buf_clean_up(&first);
    anvil_buf_clean_up(&second);
    anvil_arena_destroy(arena);
    return 0;
}
