#ifndef ANVIL_XML_H
#define ANVIL_XML_H

/**
 * XML as the AWS protocols need it (restXml, awsQuery and ec2Query
 * responses; restXml request bodies): a strict pull reader, a tree built on
 * it in an arena, and a writer. docs/xml.md has the rules.
 *
 * What is accepted is well-formed XML 1.0 in UTF-8 (an optional byte order
 * mark, then an optional `<?xml ...?>` declaration at the very start, of
 * version 1.x, naming UTF-8, US-ASCII (then checked) or no encoding):
 * elements, attributes in single or double quotes, character data, CDATA
 * sections, comments and processing instructions (skipped), the five
 * predefined entities and decimal/hex character references. A character
 * reference may name any character but U+0000 and surrogates (S3 sends
 * `&#x1;` in keys); written literally, U+FFFE and U+FFFF are refused like
 * the control characters. A DOCTYPE is an error (no DTD support at all, so no
 * entity expansion of any kind); so is any other entity, a mismatched or
 * missing end tag, an attribute without quotes, a duplicate attribute,
 * `<` inside an attribute value, a literal control character other than
 * tab, LF and CR, invalid UTF-8, and anything but white space, comments and
 * processing instructions after the root element. Line ends are normalised
 * as XML says (CR LF and a lone CR become LF); a CR written `&#xD;` stays.
 * Text is never trimmed.
 *
 * Attribute values are normalised as XML says for attributes without a DTD:
 * each tab, LF, CR and CR LF written literally becomes one space, while
 * `&#x9;`, `&#xA;` and `&#xD;` stay what they name.
 *
 * Namespaces are not resolved: `xmlns` and `xmlns:p` stay attributes, and
 * names keep their prefix, with the part after the colon available as the
 * local name (anvil_xml_local()).
 */

#include "anvil/arena.h"
#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

/** Limits: zero in a field means its default. */
#define ANVIL_XML_DEFAULT_MAX_DEPTH 256
#define ANVIL_XML_DEFAULT_MAX_DOCUMENT_BYTES ((size_t)1 << 30)
#define ANVIL_XML_DEFAULT_MAX_ATTRIBUTES 256

struct anvil_xml_options {
    /** Deepest nesting of elements (the root is depth 1). Default 256. */
    size_t max_depth;
    /** Longest input in bytes. Default 1 GiB. */
    size_t max_document_bytes;
    /** Most attributes on one element (namespace declarations included). Default 256. */
    size_t max_attributes;
};

/* ---- the pull reader ---- */

enum anvil_xml_event_type {
    /** An element starts: `name`, `attributes`. An empty element (`<a/>`) gives START then END. */
    ANVIL_XML_START = 1,
    /** An element ends: `name`. */
    ANVIL_XML_END,
    /**
     * Character data inside an element: `text`, entities decoded, CDATA
     * included. Consecutive runs (text, a CDATA section, text after a
     * comment) may come as several TEXT events.
     */
    ANVIL_XML_TEXT,
    /** The end of the document, after the root element closed. */
    ANVIL_XML_EOF
};

struct anvil_xml_attribute {
    /** The name as written, prefix included ("xmlns:xsi", "xsi:type"). */
    struct anvil_str_view name;
    /** The value, references decoded and literal white space normalised (see above). */
    struct anvil_str_view value;
};

struct anvil_xml_event {
    enum anvil_xml_event_type type;
    /** START and END: the name as written, prefix included. */
    struct anvil_str_view name;
    /** TEXT: the characters. */
    struct anvil_str_view text;
    /** START: the attributes in document order. */
    const struct anvil_xml_attribute *attributes;
    size_t attribute_count;
    /**
     * Byte offset in the input where the event starts: the '<' of its tag
     * (for the END of `<a/>`, the same tag's), the first byte of text, the
     * '<' of a CDATA section; the input's length for EOF.
     */
    size_t offset;
    /** Depth of the element (START and END), or of the element holding the text; 1 for the root. */
    size_t depth;
};

/**
 * A reader over one document (opaque). Strings in events borrow from the
 * input when they need no decoding, and are decoded into the reader's
 * scratch memory otherwise, so they are valid until the next call of
 * anvil_xml_reader_next() (the input must outlive the reader). Names always
 * borrow from the input; a TEXT event is never empty. Not thread-safe; one
 * reader per thread.
 */
struct anvil_xml_reader;

/**
 * Starts reading `len` bytes of `text` (need not be NUL-terminated; never
 * read past `len`). `options` may be NULL. ANVIL_ELIMIT when the input is
 * longer than max_document_bytes; ANVIL_ENOMEM; ANVIL_EINVAL for NULL `out`
 * or NULL `text` with len > 0.
 */
ANVIL_API int anvil_xml_reader_new(struct anvil_allocator *allocator, const char *text, size_t len,
                                   const struct anvil_xml_options *options, struct anvil_xml_reader **out);

/** Frees the reader. NULL is ignored. */
ANVIL_API void anvil_xml_reader_destroy(struct anvil_xml_reader *reader);

/**
 * The next event. ANVIL_OK; ANVIL_ESYNTAX for input that is not
 * well-formed (diag names the line, column and what was expected and
 * found); ANVIL_ELIMIT when a limit is crossed; ANVIL_ENOMEM; ANVIL_EINVAL
 * for a NULL reader or event. `diag` may be NULL. After an error every
 * later call returns the same code and fills `diag` the same way. After
 * ANVIL_XML_EOF every later call gives ANVIL_XML_EOF again.
 */
ANVIL_API int anvil_xml_reader_next(struct anvil_xml_reader *reader, struct anvil_xml_event *event,
                                    struct anvil_diag *diag);

/* ---- the tree ---- */

/**
 * An element of a parsed document. Children are the element's child
 * elements in document order (a linked list); `text` is all the character
 * data directly inside the element, concatenated (for a leaf, its whole
 * value; white space kept; an empty view, never NULL, when there is none).
 * Strings live in the tree's arena, or borrow from the input (see
 * anvil_xml_parse()); those copied into the arena are also NUL-terminated.
 */
struct anvil_xml_node {
    /** The name as written ("soap:Envelope", "Item"). */
    struct anvil_str_view name;
    /** The name after its prefix ("Envelope", "Item"): anvil_xml_local() of `name`. */
    struct anvil_str_view local;
    struct anvil_str_view text;
    const struct anvil_xml_attribute *attributes;
    size_t attribute_count;
    const struct anvil_xml_node *first_child;
    const struct anvil_xml_node *next_sibling;
    size_t child_count;
    /** Byte offset of the element's '<' in the input. */
    size_t offset;
};

/** Parse flags. */
enum anvil_xml_parse_flags {
    /** Strings that need no decoding point into the input, which must then outlive the tree. The default. */
    ANVIL_XML_BORROW_INPUT = 0,
    /** Every string is copied into the arena: the input may be freed at once. */
    ANVIL_XML_COPY_INPUT = 1
};

/**
 * Parses a whole document into a tree in `arena` and stores its root
 * element in `*root`. Temporary memory comes from `allocator` (NULL =
 * default) and is freed before returning. Same errors as the reader (diag
 * says where; for a document longer than max_document_bytes it has no
 * position), and ANVIL_ELIMIT when the arena's byte limit is reached;
 * ANVIL_EINVAL for a NULL `arena` or `root`, NULL `text` with len > 0, or
 * an unknown flag. On error `*root` is NULL and the arena may hold
 * unreachable bytes. Thread-safe (no shared state).
 */
ANVIL_API int anvil_xml_parse(struct anvil_arena *arena, struct anvil_allocator *allocator, const char *text,
                              size_t len, const struct anvil_xml_options *options, unsigned flags,
                              const struct anvil_xml_node **root, struct anvil_diag *diag);

/**
 * The part of an element or attribute name after its prefix: what follows
 * the first ':' that has bytes on both sides ("soap:Envelope" gives
 * "Envelope"), else the whole name. A view into `name`. Thread-safe.
 */
ANVIL_API struct anvil_str_view anvil_xml_local(struct anvil_str_view name);

/** The first child element of `node` whose local name is `local`, or NULL. NULL `node` gives NULL. */
ANVIL_API const struct anvil_xml_node *anvil_xml_child(const struct anvil_xml_node *node, struct anvil_str_view local);

/** The value of the attribute named `name` exactly as written (prefix included), or NULL (also for a NULL `node`). */
ANVIL_API const struct anvil_str_view *anvil_xml_attribute(const struct anvil_xml_node *node,
                                                           struct anvil_str_view name);

/* ---- writing ---- */

/**
 * Appends `text` escaped as character data: `&` `<` `>` as entities, and CR,
 * the other control characters but tab and LF, U+FFFE and U+FFFF as
 * character references (`&#xD;`, `&#x1;`), so the reader gives back exactly
 * `text`. ANVIL_EINVAL when `text` holds what XML cannot carry at all
 * (U+0000, invalid UTF-8) or `out` is NULL; the buffer's ANVIL_ELIMIT and
 * ANVIL_ENOMEM. On error nothing is appended.
 */
ANVIL_API int anvil_xml_write_text(struct anvil_buf *out, struct anvil_str_view text);

/**
 * Appends `value` escaped for a double-quoted attribute: as
 * anvil_xml_write_text(), plus `"` as `&quot;` and tab and LF as references
 * (the reader turns literal ones into spaces). Same errors.
 */
ANVIL_API int anvil_xml_write_attribute_value(struct anvil_buf *out, struct anvil_str_view value);

/**
 * A writer of one element tree into a buffer (opaque): start tags stay open
 * until their first child or non-empty text, so an element with neither is
 * written `<a/>`. No declaration and no white space are added. Errors are
 * sticky: every call after the first error returns it and writes nothing,
 * and anvil_xml_writer_finish() reports it. Names are written as given,
 * prefix and all, once checked to be XML names; text and attribute values
 * are escaped. Not thread-safe.
 */
struct anvil_xml_writer;

/** A writer appending to `out` (borrowed; it must outlive the writer). ANVIL_ENOMEM; ANVIL_EINVAL for NULL arguments.
 */
ANVIL_API int anvil_xml_writer_new(struct anvil_allocator *allocator, struct anvil_buf *out,
                                   struct anvil_xml_writer **writer);
/** Starts an element (the name is copied). ANVIL_EINVAL for what is not an XML name, or a second root element. */
ANVIL_API int anvil_xml_writer_start(struct anvil_xml_writer *writer, struct anvil_str_view name);
/**
 * An attribute of the element just started (ANVIL_EINVAL when its start tag
 * is no longer open, or for a name that is not an XML name). Duplicate
 * names are the caller's to avoid.
 */
ANVIL_API int anvil_xml_writer_attribute(struct anvil_xml_writer *writer, struct anvil_str_view name,
                                         struct anvil_str_view value);
/** Character data in the open element (ANVIL_EINVAL outside any element, or for text anvil_xml_write_text() refuses).
 */
ANVIL_API int anvil_xml_writer_text(struct anvil_xml_writer *writer, struct anvil_str_view text);
/** Ends the innermost open element (ANVIL_EINVAL when none is open). */
ANVIL_API int anvil_xml_writer_end(struct anvil_xml_writer *writer);
/**
 * Closes what is still open and returns the first error of any call, else
 * ANVIL_OK (also when nothing was written). The writer is then reset and
 * may be used again for another tree.
 */
ANVIL_API int anvil_xml_writer_finish(struct anvil_xml_writer *writer);
/** Frees the writer (never the buffer). NULL is ignored. */
ANVIL_API void anvil_xml_writer_destroy(struct anvil_xml_writer *writer);

ANVIL_EXTERN_C_END

#endif
