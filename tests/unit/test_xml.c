/*
 * The XML layer: the reader's rules (what is accepted, what is refused,
 * with which message and where), the tree, the limits, hostile input, the
 * writer and round trips. Every parse here goes through the counting
 * allocator, and the sweep fails each allocation in turn.
 */

#include <stdlib.h>

#include "counting_allocator.h"
#include "harness.h"

/* ---- helpers ---- */

/* A view that may be NULL with a length, which anvil_sv() would not make. */
static struct anvil_str_view s_raw_view(const char *ptr, size_t len) {
    struct anvil_str_view v = {ptr, len};
    return v;
}

#define S_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A helper that checks for itself: it has reported any failure; false means stop (also on an injected failure). */
#define STEP(helper_call)                                                                                              \
    do {                                                                                                               \
        if (!(helper_call)) {                                                                                          \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

/* A document: bytes and length, NULs and all. */
struct s_doc {
    const char *text;
    size_t len;
};

#define DOC(literal) ((struct s_doc){"" literal, sizeof(literal) - 1})

static int s_parse_doc(struct anvil_test *t, struct anvil_arena *arena, struct s_doc doc,
                       const struct anvil_xml_options *options, unsigned flags, const struct anvil_xml_node **root,
                       struct anvil_diag *diag) {
    return anvil_xml_parse(arena, t->alloc, doc.text, doc.len, options, flags, root, diag);
}

static int s_parse(struct anvil_test *t, struct anvil_arena *arena, const char *text,
                   const struct anvil_xml_node **root, struct anvil_diag *diag) {
    return anvil_xml_parse(arena, t->alloc, text, strlen(text), NULL, ANVIL_XML_BORROW_INPUT, root, diag);
}

#define CHECK_SV(view, literal)                                                                                        \
    do {                                                                                                               \
        struct anvil_str_view check_v_ = (view);                                                                       \
        if (!check_v_.ptr) {                                                                                           \
            anvil_test_fail(t, __FILE__, __LINE__, "%s is a NULL view", #view);                                        \
            goto done;                                                                                                 \
        }                                                                                                              \
        CHECK_MEM_EQ(check_v_.ptr, check_v_.len, literal);                                                             \
    } while (0)

/* The nth child (0-based) of `node`, or NULL. */
static const struct anvil_xml_node *s_nth(const struct anvil_xml_node *node, size_t n) {
    const struct anvil_xml_node *c = node ? node->first_child : NULL;
    while (c && n-- > 0) {
        c = c->next_sibling;
    }
    return c;
}

/*
 * Parses `doc` expecting `code` with the diag at line:column and a message
 * containing `message`; the pull reader must fail the same way. False when
 * the test should stop (a failure, or the sweep's injected allocation
 * failure surfacing).
 */
static bool s_expect_error(struct anvil_test *t, struct s_doc doc, const struct anvil_xml_options *options, int code,
                           size_t line, size_t column, const char *message) {
    bool ok = false;
    struct anvil_arena *arena = NULL;
    struct anvil_xml_reader *reader = NULL;
    const struct anvil_xml_node *root = (const struct anvil_xml_node *)&root;
    struct anvil_diag diag, read_diag;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    int rc = s_parse_doc(t, arena, doc, options, ANVIL_XML_BORROW_INPUT, &root, &diag);
    if (rc != code) {
        if (!anvil_test_status_mismatch(t, __FILE__, __LINE__, "parse", rc, code)) {
            anvil_test_fail(t, __FILE__, __LINE__, "\"%.*s\" was expected to fail", (int)doc.len, doc.text);
        }
        goto done;
    }
    CHECK(root == NULL);
    CHECK_EQ_INT(diag.code, code);
    if (diag.line != line || diag.column != column || !strstr(diag.message, message)) {
        anvil_test_fail(t, __FILE__, __LINE__, "\"%.*s\": got %zu:%zu \"%s\", want %zu:%zu \"%s\"",
                        (int)(doc.len < 60 ? doc.len : 60), doc.text, diag.line, diag.column, diag.message, line,
                        column, message);
        goto done;
    }
    CHECK_OK(anvil_xml_reader_new(t->alloc, doc.text, doc.len, options, &reader));
    struct anvil_xml_event ev;
    while ((rc = anvil_xml_reader_next(reader, &ev, &read_diag)) == ANVIL_OK) {
        CHECK(ev.type != ANVIL_XML_EOF);
    }
    CHECK_STATUS(rc, code);
    CHECK_EQ_U64(read_diag.offset, diag.offset);
    CHECK_STR_EQ(read_diag.message, diag.message);
    /* Sticky: the same error, the same diag. */
    CHECK_STATUS(anvil_xml_reader_next(reader, &ev, &read_diag), code);
    CHECK_STR_EQ(read_diag.message, diag.message);
    ok = true;
done:
    anvil_xml_reader_destroy(reader);
    anvil_arena_destroy(arena);
    return ok;
}

/* Parses `doc`, which must be accepted; the root goes in `*root` (the arena is the caller's). */
static bool s_expect_ok(struct anvil_test *t, struct anvil_arena *arena, struct s_doc doc,
                        const struct anvil_xml_node **root) {
    struct anvil_diag diag = {0};
    int rc = s_parse_doc(t, arena, doc, NULL, ANVIL_XML_BORROW_INPUT, root, &diag);
    if (rc != ANVIL_OK) {
        if (!anvil_test_status_mismatch(t, __FILE__, __LINE__, "parse", rc, ANVIL_OK)) {
            anvil_test_fail(t, __FILE__, __LINE__, "\"%.*s\": %zu:%zu %s", (int)(doc.len < 60 ? doc.len : 60), doc.text,
                            diag.line, diag.column, diag.message);
        }
        return false;
    }
    return true;
}

/* Parses a one-element document and compares its text. */
static bool s_expect_text(struct anvil_test *t, struct s_doc doc, struct s_doc want) {
    bool ok = false;
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    if (!s_expect_ok(t, arena, doc, &root)) {
        goto done;
    }
    if (root->text.len != want.len || memcmp(root->text.ptr, want.text, want.len) != 0) {
        anvil_test_fail(t, __FILE__, __LINE__, "\"%.*s\": text \"%.*s\", want \"%.*s\"", (int)doc.len, doc.text,
                        (int)root->text.len, root->text.ptr, (int)want.len, want.text);
        goto done;
    }
    ok = true;
done:
    anvil_arena_destroy(arena);
    return ok;
}

/* The value of attribute `name` on the root of a one-element document. */
static bool s_expect_attribute(struct anvil_test *t, struct s_doc doc, const char *name, struct s_doc want) {
    bool ok = false;
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    if (!s_expect_ok(t, arena, doc, &root)) {
        goto done;
    }
    const struct anvil_str_view *v = anvil_xml_attribute(root, anvil_sv_from_cstr(name));
    CHECK(v != NULL);
    if (v->len != want.len || memcmp(v->ptr, want.text, want.len) != 0) {
        anvil_test_fail(t, __FILE__, __LINE__, "\"%.*s\": %s=\"%.*s\", want \"%.*s\"", (int)doc.len, doc.text, name,
                        (int)v->len, v->ptr, (int)want.len, want.text);
        goto done;
    }
    ok = true;
done:
    anvil_arena_destroy(arena);
    return ok;
}

/* ---- the tree ---- */

TEST(xml_tree_elements_attributes_text) {
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    const char *text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<soap:Envelope xmlns:soap=\"urn:s\" xmlns=\"urn:d\" a='1'>"
                       "<Item id=\"i-1\">one</Item><Item>two</Item><soap:Body/><Empty></Empty></soap:Envelope>\n";
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(s_parse(t, arena, text, &root, NULL));
    CHECK_SV(root->name, "soap:Envelope");
    CHECK_SV(root->local, "Envelope");
    CHECK_EQ_U64(root->offset, 39);
    CHECK_EQ_U64(root->attribute_count, 3);
    CHECK_SV(root->attributes[0].name, "xmlns:soap");
    CHECK_SV(root->attributes[0].value, "urn:s");
    CHECK_SV(root->attributes[1].name, "xmlns");
    CHECK_SV(root->attributes[2].value, "1");
    CHECK_EQ_U64(root->child_count, 4);
    CHECK(root->text.ptr != NULL && root->text.len == 0);
    const struct anvil_xml_node *item = anvil_xml_child(root, ANVIL_SV("Item"));
    CHECK(item == root->first_child);
    CHECK_SV(item->text, "one");
    CHECK_SV(*anvil_xml_attribute(item, ANVIL_SV("id")), "i-1");
    CHECK(anvil_xml_attribute(item, ANVIL_SV("ID")) == NULL);
    CHECK_SV(item->next_sibling->text, "two");
    CHECK(anvil_xml_child(root, ANVIL_SV("Body")) == s_nth(root, 2));
    CHECK(anvil_xml_child(root, ANVIL_SV("soap:Body")) == NULL); /* children are found by local name */
    CHECK_SV(s_nth(root, 2)->name, "soap:Body");
    CHECK_EQ_U64(s_nth(root, 2)->child_count, 0);
    CHECK(s_nth(root, 3)->text.ptr != NULL && s_nth(root, 3)->text.len == 0);
    CHECK(s_nth(root, 3)->next_sibling == NULL);
    CHECK_SV(*anvil_xml_attribute(root, ANVIL_SV("xmlns")), "urn:d");
    CHECK(anvil_xml_attribute(root, ANVIL_SV("soap")) == NULL);
    CHECK(anvil_xml_child(NULL, ANVIL_SV("Item")) == NULL);
    CHECK(anvil_xml_attribute(NULL, ANVIL_SV("id")) == NULL);
    CHECK(anvil_xml_child(item, ANVIL_SV("Item")) == NULL);
done:
    anvil_arena_destroy(arena);
}

TEST(xml_tree_text_is_every_run_concatenated) {
    /* Text around children, CDATA, and text split by comments and PIs all joins; nothing is trimmed. */
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(s_parse(t, arena, "<a> x <b> in b </b>y<!-- c -->z<![CDATA[<&>]]><?pi?> &amp; <c/>\n</a>", &root, NULL));
    CHECK_SV(root->text, " x yz<&> & \n");
    CHECK_SV(root->first_child->text, " in b ");
    CHECK_EQ_U64(root->child_count, 2);
    STEP(s_expect_text(t, DOC("<a>  string with white    space  </a>"), DOC("  string with white    space  ")));
    STEP(s_expect_text(t, DOC("<a>   </a>"), DOC("   ")));
    STEP(s_expect_text(t, DOC("<a><![CDATA[]]></a>"), DOC("")));
    STEP(s_expect_text(t, DOC("<a><![CDATA[x]]><![CDATA[y]]></a>"), DOC("xy")));
    STEP(s_expect_text(t, DOC("<a>]] ] ]>]</a>"), DOC("]] ] ]>]")));
    STEP(s_expect_text(t, DOC("<a><![CDATA[]] ]>]]]></a>"), DOC("]] ]>]")));
    STEP(s_expect_text(t, DOC("<a>>'\"</a>"), DOC(">'\"")));
done:
    anvil_arena_destroy(arena);
}

TEST(xml_tree_borrows_or_copies_strings) {
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    char *copy = NULL;
    const char *text = "<r a=\"plain\" b=\"x&amp;y\"><p>plain</p><d>a&lt;b</d><m>1<x/>2</m></r>";
    size_t len = strlen(text);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_xml_parse(arena, t->alloc, text, len, NULL, ANVIL_XML_BORROW_INPUT, &root, NULL));
    /* Borrowed where nothing was decoded; in the arena otherwise. */
    CHECK(root->name.ptr == text + 1);
    CHECK(root->attributes[0].value.ptr == text + 6);
    CHECK_SV(root->attributes[1].value, "x&y");
    CHECK(root->attributes[1].value.ptr < text || root->attributes[1].value.ptr >= text + len);
    CHECK(s_nth(root, 0)->text.ptr == strstr(text, "plain</p>"));
    CHECK_SV(s_nth(root, 1)->text, "a<b");
    CHECK_SV(s_nth(root, 2)->text, "12");
    CHECK_EQ_U64(s_nth(root, 1)->text.ptr[3], 0); /* copies are NUL-terminated */

    /* With COPY_INPUT nothing points into the input, which may go at once. */
    copy = anvil_mem_strndup(t->alloc, text, len);
    CHECK_ALLOC(copy);
    CHECK_OK(anvil_xml_parse(arena, t->alloc, copy, len, NULL, ANVIL_XML_COPY_INPUT, &root, NULL));
    memset(copy, 'x', len);
    anvil_mem_release(t->alloc, copy);
    copy = NULL;
    CHECK_SV(root->name, "r");
    CHECK_SV(root->local, "r");
    CHECK_SV(root->attributes[0].name, "a");
    CHECK_SV(root->attributes[0].value, "plain");
    CHECK_SV(root->attributes[1].value, "x&y");
    CHECK_SV(s_nth(root, 0)->text, "plain");
    CHECK_EQ_U64(s_nth(root, 0)->text.ptr[5], 0);
    CHECK_SV(s_nth(root, 1)->text, "a<b");
    CHECK_SV(s_nth(root, 2)->text, "12");
    CHECK_SV(s_nth(root, 2)->first_child->name, "x");
done:
    anvil_mem_release(t->alloc, copy);
    anvil_arena_destroy(arena);
}

TEST(xml_local_names) {
    CHECK_SV(anvil_xml_local(ANVIL_SV("soap:Envelope")), "Envelope");
    CHECK_SV(anvil_xml_local(ANVIL_SV("Item")), "Item");
    CHECK_SV(anvil_xml_local(ANVIL_SV("a:b:c")), "b:c");
    CHECK_SV(anvil_xml_local(ANVIL_SV(":a")), ":a");
    CHECK_SV(anvil_xml_local(ANVIL_SV("a:")), "a:");
    CHECK_SV(anvil_xml_local(ANVIL_SV(":")), ":");
    CHECK_SV(anvil_xml_local(ANVIL_SV("xsi:type")), "type");
    CHECK_EQ_U64(anvil_xml_local(ANVIL_SV("")).len, 0);
done:;
}

TEST(xml_parse_argument_errors) {
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = (const struct anvil_xml_node *)&root;
    struct anvil_diag diag;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_STATUS(anvil_xml_parse(NULL, t->alloc, "<a/>", 4, NULL, 0, &root, &diag), ANVIL_EINVAL);
    CHECK(root == NULL);
    CHECK_EQ_INT(diag.code, ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, "<a/>", 4, NULL, 0, NULL, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, "<a/>", 4, NULL, 2, &root, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, NULL, 4, NULL, 0, &root, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, NULL, 0, NULL, 0, &root, &diag), ANVIL_ESYNTAX);
    CHECK_STR_EQ(diag.message, "expected the root element, found end of input");
done:
    anvil_arena_destroy(arena);
}

/* ---- what is accepted ---- */

TEST(xml_entities_and_character_references) {
    STEP(s_expect_text(t, DOC("<a>&lt;&gt;&amp;&quot;&apos;</a>"), DOC("<>&\"'")));
    STEP(s_expect_text(t, DOC("<a>&#65;&#x42;&#x0043;&#0000068;&#xe9;&#233;</a>"), DOC("ABCD\xc3\xa9\xc3\xa9")));
    STEP(s_expect_text(t, DOC("<a>&#x20AC;&#x1F680;&#x10FFFF;&#xFFFE;&#xFFFF;</a>"),
                       DOC("\xe2\x82\xac\xf0\x9f\x9a\x80\xf4\x8f\xbf\xbf\xef\xbf\xbe\xef\xbf\xbf")));
    /* S3 sends control characters as references in keys. */
    STEP(s_expect_text(t, DOC("<Key>a&#x1;b&#x3;c&#31;&#x7F;</Key>"),
                       DOC("a\x01"
                           "b\x03"
                           "c\x1f\x7f")));
    /* The Smithy protocol test SimpleScalarPropertiesComplexEscapes. */
    STEP(s_expect_text(t, DOC("<a>escaped data: &amp;lt;&#xD;&#10;</a>"), DOC("escaped data: &lt;\r\n")));
    STEP(s_expect_text(t, DOC("<a>&#x00000000000041;</a>"), DOC("A")));
    STEP(s_expect_attribute(t, DOC("<a v='&lt;&#x41;&quot;&apos;&amp;'/>"), "v", DOC("<A\"'&")));
done:;
}

TEST(xml_line_ends_are_normalised) {
    STEP(s_expect_text(t, DOC("<a>1\r\n2\r3\n4\r\r\n5\n\r6</a>"), DOC("1\n2\n3\n4\n\n5\n\n6")));
    STEP(s_expect_text(t, DOC("<a>\r</a>"), DOC("\n")));
    STEP(s_expect_text(t, DOC("<a>x\r\n</a>"), DOC("x\n")));
    STEP(s_expect_text(t, DOC("<a><![CDATA[1\r\n2\r3\r]]>\r\n</a>"), DOC("1\n2\n3\n\n")));
    STEP(s_expect_text(t, DOC("<a>&#xD;&#xA;&#13;\r&#xD;\n</a>"), DOC("\r\n\r\n\r\n")));
    STEP(s_expect_text(t, DOC("<a>&amp;\r\n&lt;</a>"), DOC("&\n<")));
    /* Line ends between tags need no decoding of anything else. */
    STEP(s_expect_text(t, DOC("<a>\r\n<b/>\r\n</a>\r\n"), DOC("\n\n")));
done:;
}

TEST(xml_attribute_values_are_normalised) {
    /* Literal white space becomes a space; references keep what they name. */
    STEP(s_expect_attribute(t, DOC("<a v='1\t2\n3\r\n4\r5'/>"), "v", DOC("1 2 3 4 5")));
    STEP(s_expect_attribute(t, DOC("<a v='&#9;&#xA;&#xD;&#32;'/>"), "v", DOC("\t\n\r ")));
    STEP(s_expect_attribute(t, DOC("<a v=\"it's\" w='say \"hi\"'/>"), "v", DOC("it's")));
    STEP(s_expect_attribute(t, DOC("<a v=\"it's\" w='say \"hi\"'/>"), "w", DOC("say \"hi\"")));
    STEP(s_expect_attribute(t, DOC("<a v=''/>"), "v", DOC("")));
    STEP(s_expect_attribute(t, DOC("<a  v \n=\t'>]]>' />"), "v", DOC(">]]>")));
    STEP(s_expect_attribute(t, DOC("<a v='caf\xc3\xa9 \xf0\x9f\x9a\x80'/>"), "v", DOC("caf\xc3\xa9 \xf0\x9f\x9a\x80")));
    /* Several decoded values in one tag: each keeps its own bytes while the scratch grows. */
    STEP(s_expect_attribute(t,
                            DOC("<a x='&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;"
                                "&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;"
                                "&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;' "
                                "y='&lt;' z='plain' w='&#x41;'/>"),
                            "y", DOC("<")));
    STEP(s_expect_attribute(t, DOC("<a x='&amp;' y='&lt;' z='plain' w='&#x41;'/>"), "w", DOC("A")));
done:;
}

TEST(xml_declaration_bom_prolog_and_epilog) {
    static const char *const accepted[] = {
        "<?xml version=\"1.0\"?><a/>",
        "<?xml version='1.0' encoding='UTF-8'?><a/>",
        "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?><a/>",
        "<?xml version=\"1.1\" standalone='no' ?><a/>",
        "<?xml version = \"1.0\"\n encoding\t=\t'US-ASCII'  ?>\n<a>plain</a>",
        "\xef\xbb\xbf<?xml version=\"1.0\"?><a/>",
        "\xef\xbb\xbf<a/>",
        "<?xml-stylesheet href='s.xsl'?><a/>",
        "<!-- c --><?pi?>\n<a/>\n<!-- after --><?pi x?>  \n",
        "<?xml version=\"1.0\"?><!---->\n<a/>",
        "<a/>",
    };
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t i = 0; i < S_COUNT(accepted); i++) {
        const struct anvil_xml_node *root = NULL;
        struct s_doc doc = {accepted[i], strlen(accepted[i])};
        if (!s_expect_ok(t, arena, doc, &root)) {
            goto done;
        }
        CHECK_SV(root->name, "a");
    }
done:
    anvil_arena_destroy(arena);
}

TEST(xml_unicode_names_and_text) {
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    /* Name characters past ASCII (é, U+00B7, CJK, a U+10000 plane character), C1 controls and DEL in text. */
    CHECK_OK(s_parse(t, arena,
                     "<caf\xc3\xa9 x\xc2\xb7y=\"1\"><\xe4\xb8\xad:\xe6\x96\x87>\xc2\x85\x7f</\xe4\xb8\xad:\xe6\x96\x87>"
                     "<\xf0\x90\x80\x80/><_.-:9/></caf\xc3\xa9>",
                     &root, NULL));
    CHECK_SV(root->name, "caf\xc3\xa9");
    CHECK_SV(root->attributes[0].name, "x\xc2\xb7y");
    CHECK_SV(root->first_child->local, "\xe6\x96\x87");
    CHECK_SV(root->first_child->text, "\xc2\x85\x7f");
    CHECK_SV(s_nth(root, 1)->name, "\xf0\x90\x80\x80");
    CHECK_SV(s_nth(root, 2)->name, "_.-:9");
    CHECK_SV(s_nth(root, 2)->local, "9");
done:
    anvil_arena_destroy(arena);
}

TEST(xml_smithy_protocol_test_bodies) {
    struct anvil_arena *arena = NULL;
    const struct anvil_xml_node *root = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    /* QueryXmlEmptyLists / XmlEmptySelfClosedStrings / XmlAttributes / S3 Grantee. */
    CHECK_OK(s_parse(t, arena,
                     "<XmlListsResponse xmlns=\"https://example.com/\">\n"
                     "    <XmlListsResult>\n"
                     "        <stringList/>\n"
                     "        <stringSet></stringSet>\n"
                     "        <emptyString/>\n"
                     "    </XmlListsResult>\n"
                     "    <ResponseMetadata><RequestId>requestid</RequestId></ResponseMetadata>\n"
                     "</XmlListsResponse>\n",
                     &root, NULL));
    const struct anvil_xml_node *result = anvil_xml_child(root, ANVIL_SV("XmlListsResult"));
    CHECK(result && result->child_count == 3);
    CHECK_EQ_U64(anvil_xml_child(result, ANVIL_SV("stringList"))->text.len, 0);
    CHECK_EQ_U64(anvil_xml_child(result, ANVIL_SV("stringList"))->child_count, 0);
    CHECK_SV(anvil_xml_child(anvil_xml_child(root, ANVIL_SV("ResponseMetadata")), ANVIL_SV("RequestId"))->text,
             "requestid");
    CHECK_OK(s_parse(t, arena,
                     "<Grantee xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"CanonicalUser\">"
                     "<ID>id</ID></Grantee>",
                     &root, NULL));
    CHECK_SV(*anvil_xml_attribute(root, ANVIL_SV("xsi:type")), "CanonicalUser");
    CHECK_SV(anvil_xml_local(root->attributes[1].name), "type");
    CHECK_OK(s_parse(t, arena,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<LocationConstraint "
                     "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">us-west-2</LocationConstraint>",
                     &root, NULL));
    CHECK_SV(root->text, "us-west-2");
done:
    anvil_arena_destroy(arena);
}

/* ---- what is refused, with its message and position ---- */

struct s_error_case {
    struct s_doc doc;
    size_t line, column;
    const char *message;
};

static bool s_error_cases(struct anvil_test *t, const struct s_error_case *cases, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (!s_expect_error(t, cases[i].doc, NULL, ANVIL_ESYNTAX, cases[i].line, cases[i].column, cases[i].message)) {
            return false;
        }
    }
    return true;
}

TEST(xml_errors_in_tags) {
    static const struct s_error_case cases[] = {
        {DOC(""), 1, 1, "expected the root element, found end of input"},
        {DOC("  \n "), 2, 2, "expected the root element, found end of input"},
        {DOC("hello"), 1, 1, "expected '<' to start the root element, found 'h'"},
        {DOC("<"), 1, 2, "expected an element name after '<', found end of input"},
        {DOC("<1a/>"), 1, 2, "expected an element name after '<', found '1'"},
        {DOC("< a/>"), 1, 2, "expected an element name after '<', found a space"},
        {DOC("<a><-b/></a>"), 1, 5, "expected an element name after '<', found '-'"},
        {DOC("<Foo"), 1, 5, "expected '>' to close <Foo> (started at line 1, column 1), found end of input"},
        {DOC("<a>\n  <Foo x='1' "), 2, 14,
         "expected '>' to close <Foo> (started at line 2, column 3), found end of input"},
        {DOC("<a x"), 1, 5, "expected '=' after attribute 'x' in <a>, found end of input"},
        {DOC("<a x y='1'/>"), 1, 6, "expected '=' after attribute 'x' in <a>, found 'y'"},
        {DOC("<a x="), 1, 6, "expected a value in quotes for attribute 'x' in <a>, found end of input"},
        {DOC("<a x=1/>"), 1, 6, "expected a value in quotes for attribute 'x' in <a>, found '1'"},
        {DOC("<a x=\"1"), 1, 8,
         "expected the closing \" of attribute 'x' (its value starts at line 1, column 7), found end of input"},
        {DOC("<a x='1\"/>"), 1, 11, "expected the closing ' of attribute 'x'"},
        {DOC("<a x=\"1\"y=\"2\"/>"), 1, 9, "expected white space, '>' or '/>' in <a>, found 'y'"},
        {DOC("<a x=\"1\" x=\"2\"/>"), 1, 10, "duplicate attribute 'x' in <a> (first at line 1, column 4)"},
        {DOC("<a\n x='1'\n y='2'\n x='3'/>"), 4, 2, "duplicate attribute 'x' in <a> (first at line 2, column 2)"},
        {DOC("<a x=\"<\"/>"), 1, 7, "'<' is not allowed in an attribute value (attribute 'x' of <a>)"},
        {DOC("<a =\"1\"/>"), 1, 4, "expected an attribute name, '>' or '/>' in <a>, found '='"},
        {DOC("<a /b>"), 1, 5, "expected '>' after '/' to close <a>, found 'b'"},
        {DOC("<a/ >"), 1, 4, "expected '>' after '/' to close <a>, found a space"},
        {DOC("<a></b>"), 1, 4, "mismatched end tag </b>: <a> is open (opened at line 1, column 1)"},
        {DOC("<a>\n  <b>\n    <c/>\n  </x>\n</a>"), 4, 3,
         "mismatched end tag </x>: <b> is open (opened at line 2, column 3)"},
        {DOC("<a><b></a>"), 1, 7, "mismatched end tag </a>: <b> is open (opened at line 1, column 4)"},
        {DOC("<a></ab>"), 1, 4, "mismatched end tag </ab>: <a> is open"},
        {DOC("<ab></a>"), 1, 5, "mismatched end tag </a>: <ab> is open"},
        {DOC("<a></A>"), 1, 4, "mismatched end tag </A>: <a> is open"},
        {DOC("<a></a\xc3\xa9>"), 1, 4, "mismatched end tag </a\xc3\xa9>: <a> is open"},
        {DOC("<a></a"), 1, 7, "expected '>' to close the end tag </a>, found end of input"},
        {DOC("<a></a x>"), 1, 8, "expected '>' to close the end tag </a>, found 'x'"},
        {DOC("<a></ a>"), 1, 6, "expected an element name after '</', found a space"},
        {DOC("<a></>"), 1, 6, "expected an element name after '</', found '>'"},
        {DOC("<a>"), 1, 4, "expected '</a>' to close <a> (opened at line 1, column 1), found end of input"},
        {DOC("<a>\n<b>text"), 2, 8, "expected '</b>' to close <b> (opened at line 2, column 1), found end of input"},
        {DOC("<a><"), 1, 5, "expected an element name after '<', found end of input"},
        {DOC("</a>"), 1, 1, "an end tag before the root element started"},
        {DOC("<a/><b/>"), 1, 5, "a second root element <b>: a document has only one"},
        {DOC("<a/>text"), 1, 5,
         "expected only white space, comments or processing instructions after the root element, found 't'"},
        {DOC("<a></a >\n&amp;"), 2, 1, "after the root element, found '&'"},
        {DOC("<a/></a>"), 1, 5, "after the root element, found '<'"},
        {DOC("<a/><![CDATA[x]]>"), 1, 5, "after the root element, found '<'"},
    };
    STEP(s_error_cases(t, cases, S_COUNT(cases)));
done:;
}

TEST(xml_errors_in_content_references_comments) {
    static const struct s_error_case cases[] = {
        {DOC("<a>]]></a>"), 1, 4, "']]>' is not allowed in character data"},
        {DOC("<a>x]]]></a>"), 1, 6, "']]>' is not allowed in character data"},
        {DOC("<a>&foo;</a>"), 1, 4,
         "unknown entity '&foo;': anvil reads no DTD, so only &lt; &gt; &amp; &quot; &apos; and character references are defined"},
        {DOC("<a>&nbsp;</a>"), 1, 4, "unknown entity '&nbsp;'"},
        {DOC("<a>&AMP;</a>"), 1, 4, "unknown entity '&AMP;'"},
        {DOC("<a>&amp</a>"), 1, 8, "expected ';' to end the entity reference '&amp', found '<'"},
        {DOC("<a>&amp"), 1, 8, "expected ';' to end the entity reference '&amp', found end of input"},
        {DOC("<a>& </a>"), 1, 5, "expected an entity name or '#' after '&', found a space"},
        {DOC("<a>&"), 1, 5, "expected an entity name or '#' after '&', found end of input"},
        {DOC("<a>&#;</a>"), 1, 6, "expected a digit or 'x' after '&#', found ';'"},
        {DOC("<a>&#x;</a>"), 1, 7, "expected a hexadecimal digit after '&#x', found ';'"},
        {DOC("<a>&#X41;</a>"), 1, 6, "expected a digit or 'x' after '&#', found 'X'"},
        {DOC("<a>&#12a;</a>"), 1, 8, "expected ';' to end the character reference, found 'a'"},
        {DOC("<a>&#x41"), 1, 9, "expected ';' to end the character reference, found end of input"},
        {DOC("<a>&#0;</a>"), 1, 4, "character reference &#0; names U+0000, which XML does not allow"},
        {DOC("<a>&#x0000;</a>"), 1, 4, "character reference &#x0000; names U+0000"},
        {DOC("<a>&#xD800;</a>"), 1, 4,
         "character reference &#xD800; names U+D800, a UTF-16 surrogate, which is not a character"},
        {DOC("<a>&#57343;</a>"), 1, 4, "names U+DFFF, a UTF-16 surrogate"},
        {DOC("<a>&#x110000;</a>"), 1, 4,
         "character reference &#x110000; is beyond U+10FFFF, the last Unicode character"},
        {DOC("<a>&#99999999999999999999999999;</a>"), 1, 4, "is beyond U+10FFFF"},
        {DOC("<a x=\"&bogus;\"/>"), 1, 7, "unknown entity '&bogus;'"},
        {DOC("<a x=\"&#0;\"/>"), 1, 7, "names U+0000"},
        {DOC("<a><!-- x -- y --></a>"), 1, 11, "'--' is not allowed inside a comment"},
        {DOC("<a><!-- x ---></a>"), 1, 11, "'--' is not allowed inside a comment"},
        {DOC("<a><!-- x</a>"), 1, 14,
         "expected '-->' to close the comment started at line 1, column 4, found end of input"},
        {DOC("<a><!-- x -"), 1, 12, "expected '-->' to close the comment"},
        {DOC("<!-- x"), 1, 7, "expected '-->' to close the comment started at line 1, column 1"},
        {DOC("<a><![CDATA[x</a>"), 1, 18,
         "expected ']]>' to close the CDATA section started at line 1, column 4, found end of input"},
        {DOC("<a><![CDATA[x]]"), 1, 16, "expected ']]>' to close the CDATA section"},
        {DOC("<a><?pi x</a>"), 1, 14,
         "expected '?>' to close the processing instruction started at line 1, column 4, found end of input"},
        {DOC("<a><?</a>"), 1, 6, "expected a processing instruction target after '<?', found '<'"},
        {DOC("<a><?pi\"x\"?></a>"), 1, 8,
         "expected white space or '?>' after the processing instruction target 'pi', found '\"'"},
        {DOC("<a><!x></a>"), 1, 6, "expected '--' (a comment) or '[CDATA[' after '<!', found 'x'"},
        {DOC("<a><!-x--></a>"), 1, 6, "expected '--' (a comment) or '[CDATA[' after '<!', found '-'"},
        {DOC("<![CDATA[x]]><a/>"), 1, 1, "a CDATA section may stand only inside an element"},
        {DOC("<!ELEMENT a ANY><a/>"), 1, 3, "expected '--' (a comment) after '<!', found 'E'"},
    };
    STEP(s_error_cases(t, cases, S_COUNT(cases)));
done:;
}

TEST(xml_errors_in_the_declaration) {
    static const struct s_error_case cases[] = {
        {DOC("<?XML version=\"1.0\"?><a/>"), 1, 1, "the processing instruction target 'XML' is reserved"},
        {DOC("<a/><?Xml?>"), 1, 5, "the processing instruction target 'Xml' is reserved"},
        {DOC(" <?xml version=\"1.0\"?><a/>"), 1, 2,
         "an XML declaration may stand only at the very start of the document"},
        {DOC("<!-- c --><?xml version=\"1.0\"?><a/>"), 1, 11, "an XML declaration may stand only at the very start"},
        {DOC("<a><?xml version=\"1.0\"?></a>"), 1, 4, "an XML declaration may stand only at the very start"},
        {DOC("<a/><?xml version=\"1.0\"?>"), 1, 5, "an XML declaration may stand only at the very start"},
        {DOC("<?xml?><a/>"), 1, 6, "expected white space and 'version' in the XML declaration, found '?'"},
        {DOC("<?xml encoding=\"UTF-8\"?><a/>"), 1, 7,
         "expected white space and 'version' in the XML declaration, found 'e'"},
        {DOC("<?xml version=\"2.0\"?><a/>"), 1, 16, "unsupported XML version '2.0': anvil reads XML 1.x"},
        {DOC("<?xml version=\"1.\"?><a/>"), 1, 16, "unsupported XML version '1.'"},
        {DOC("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>"), 1, 31,
         "unsupported encoding 'ISO-8859-1': anvil reads UTF-8 only"},
        {DOC("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>"), 1, 31, "unsupported encoding 'UTF-16'"},
        {DOC("<?xml version=\"1.0\" standalone=\"maybe\"?><a/>"), 1, 33,
         "expected 'yes' or 'no' for 'standalone' in the XML declaration, found 'maybe'"},
        {DOC("<?xml version=\"1.0\"encoding=\"UTF-8\"?><a/>"), 1, 20,
         "expected '?>' to end the XML declaration, found 'e'"},
        {DOC("<?xml version=\"1.0\" ?x><a/>"), 1, 21, "expected '?>' to end the XML declaration, found '?'"},
        {DOC("<?xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"?><a/>"), 1, 38,
         "expected '?>' to end the XML declaration, found 'e'"},
        {DOC("<?xml version=1.0?><a/>"), 1, 15,
         "expected a quoted value for 'version' in the XML declaration, found '1'"},
        {DOC("<?xml version\"1.0\"?><a/>"), 1, 14, "expected '=' after 'version' in the XML declaration, found '\"'"},
        {DOC("<?xml version=\"1.0"), 1, 19,
         "expected the closing quote of 'version' in the XML declaration, found end of input"},
        {DOC("<?xml version=\"1.0\""), 1, 20, "expected '?>' to end the XML declaration, found end of input"},
        {DOC("<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a>caf\xc3\xa9</a>"), 1, 48,
         "byte 0xC3 is not US-ASCII, the encoding the XML declaration names"},
        {DOC("\xff\xfe<\0a\0/\0>\0"), 1, 1,
         "the document starts with a UTF-16 byte order mark: anvil reads UTF-8 only"},
        {DOC("\xfe\xff\0<\0a\0/\0>"), 1, 1, "UTF-16 byte order mark"},
        {DOC("<\0a\0/\0>\0"), 1, 2, "expected an element name after '<', found control character 0x00"},
    };
    STEP(s_error_cases(t, cases, S_COUNT(cases)));
done:;
}

TEST(xml_doctype_is_refused) {
    static const struct s_error_case cases[] = {
        /* Billion laughs: refused at the DOCTYPE, before any entity could be expanded. */
        {DOC("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
             " <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
             " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n]>\n<lolz>&lol3;</lolz>"),
         2, 1, "a DOCTYPE is not allowed: anvil does not process DTDs"},
        /* External entities (XXE) never get as far as a file name. */
        {DOC("<!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><foo>&xxe;</foo>"), 1, 1,
         "a DOCTYPE is not allowed: anvil does not process DTDs"},
        {DOC("\xef\xbb\xbf<!DOCTYPE a><a/>"), 1, 4, "a DOCTYPE is not allowed"},
        {DOC("<!-- c -->\n<!DOCTYPE a SYSTEM \"a.dtd\"><a/>"), 2, 1, "a DOCTYPE is not allowed"},
        {DOC("<a><!DOCTYPE a></a>"), 1, 4, "a DOCTYPE is not allowed"},
        {DOC("<a/>\n<!DOCTYPE a>"), 2, 1, "a DOCTYPE is not allowed"},
        /* Without a DTD an entity is unknown, never expanded. */
        {DOC("<lolz>&lol3;</lolz>"), 1, 7, "unknown entity '&lol3;'"},
    };
    STEP(s_error_cases(t, cases, S_COUNT(cases)));
done:;
}

TEST(xml_invalid_utf8_of_every_kind) {
    static const struct s_error_case cases[] = {
        {DOC("<a>\xff</a>"), 1, 4, "invalid UTF-8 in character data: a byte that never appears in UTF-8 (byte 0xFF)"},
        {DOC("<a>\xf5\x80\x80\x80</a>"), 1, 4, "a byte that never appears in UTF-8 (byte 0xF5)"},
        {DOC("<a>\x80</a>"), 1, 4,
         "invalid UTF-8 in character data: a continuation byte with no lead byte (byte 0x80)"},
        {DOC("<a>x\xbf</a>"), 1, 5, "a continuation byte with no lead byte (byte 0xBF)"},
        {DOC("<a>\xc0\xaf</a>"), 1, 4, "an overlong lead byte (byte 0xC0)"},
        {DOC("<a>\xc1\xbf</a>"), 1, 4, "an overlong lead byte (byte 0xC1)"},
        {DOC("<a>\xe0\x80\xaf</a>"), 1, 4, "an overlong sequence (byte 0xE0)"},
        {DOC("<a>\xf0\x80\x80\xaf</a>"), 1, 4, "an overlong sequence (byte 0xF0)"},
        {DOC("<a>\xed\xa0\x80</a>"), 1, 4, "a UTF-16 surrogate, which is not a character (byte 0xED)"},
        {DOC("<a>\xed\xbf\xbf</a>"), 1, 4, "a UTF-16 surrogate"},
        {DOC("<a>\xf4\x90\x80\x80</a>"), 1, 4, "a sequence beyond U+10FFFF (byte 0xF4)"},
        {DOC("<a>\xc3(</a>"), 1, 4, "a lead byte without its continuation bytes (byte 0xC3)"},
        {DOC("<a>\xe2\x82(</a>"), 1, 4, "a lead byte without its continuation bytes (byte 0xE2)"},
        {DOC("<a>\xf0\x9f\x9a</a>"), 1, 4, "a lead byte without its continuation bytes (byte 0xF0)"},
        {DOC("<a>\xe2\x82"), 1, 4, "a sequence cut short by the end of input (byte 0xE2)"},
        {DOC("<a>\xc3"), 1, 4, "a sequence cut short by the end of input (byte 0xC3)"},
        {DOC("<a>\xef\xbf\xbe</a>"), 1, 4, "U+FFFE in character data is not an XML character"},
        {DOC("<a>\xef\xbf\xbf</a>"), 1, 4, "U+FFFF in character data is not an XML character"},
        {DOC("<a>&amp;\xff</a>"), 1, 9, "invalid UTF-8 in character data"},
        {DOC("<a x=\"\xff\"/>"), 1, 7, "invalid UTF-8 in an attribute value: a byte that never appears in UTF-8"},
        {DOC("<a x=\"&amp;\xc3\"/>"), 1, 12,
         "invalid UTF-8 in an attribute value: a lead byte without its continuation bytes"},
        {DOC("<a x=\"\xef\xbf\xbf\"/>"), 1, 7, "U+FFFF in an attribute value is not an XML character"},
        {DOC("<a><!-- \xff --></a>"), 1, 9, "invalid UTF-8 in a comment"},
        {DOC("<a><![CDATA[\xed\xa0\x80]]></a>"), 1, 13, "invalid UTF-8 in a CDATA section: a UTF-16 surrogate"},
        {DOC("<a><?pi \xc0\x80?></a>"), 1, 9, "invalid UTF-8 in a processing instruction"},
        {DOC("<?xml version=\"1.0\" encoding=\"\xff\"?><a/>"), 1, 31, "invalid UTF-8 in the XML declaration"},
        {DOC("<a\xff/>"), 1, 3, "expected white space, '>' or '/>' in <a>, found byte 0xFF (invalid UTF-8)"},
        {DOC("<\xff/>"), 1, 2, "expected an element name after '<', found byte 0xFF (invalid UTF-8)"},
        {DOC("<caf\xc3\xa9\xc3/>"), 1, 7, "in <caf\xc3\xa9>, found byte 0xC3 (invalid UTF-8)"},
        {DOC("<a \xc3\xa9\xff='1'/>"), 1, 6, "expected '=' after attribute '\xc3\xa9' in <a>, found byte 0xFF"},
        /* Valid UTF-8 that is no name character. */
        {DOC("<\xc3\x97/>"), 1, 2, "expected an element name after '<', found '\xc3\x97' (U+00D7)"},
        {DOC("<a\xe2\x86\x90/>"), 1, 3, "found '\xe2\x86\x90' (U+2190)"},
        {DOC("<\xc2\xb7/>"), 1, 2, "expected an element name after '<', found '\xc2\xb7' (U+00B7)"},
    };
    STEP(s_error_cases(t, cases, S_COUNT(cases)));
done:;
}

TEST(xml_control_characters_are_refused) {
    /* Every C0 control but tab, LF and CR, in character data and in an attribute value; DEL and C1 are characters. */
    char text[32];
    for (int c = 0; c < 0x20; c++) {
        if (c == '\t' || c == '\n' || c == '\r') {
            continue;
        }
        char message[96];
        if (c == 0) {
            snprintf(message, sizeof(message), "a NUL byte in character data: XML does not allow U+0000 anywhere");
        } else {
            snprintf(message, sizeof(message), "control character 0x%02X is not allowed in character data", c);
        }
        int n = snprintf(text, sizeof(text), "<a>x%cy</a>", 'Q');
        text[4] = (char)c;
        if (!s_expect_error(t, (struct s_doc){text, (size_t)n}, NULL, ANVIL_ESYNTAX, 1, 5, message)) {
            goto done;
        }
        n = snprintf(text, sizeof(text), "<a b='%c'/>", 'Q');
        text[6] = (char)c;
        if (!s_expect_error(t, (struct s_doc){text, (size_t)n}, NULL, ANVIL_ESYNTAX, 1, 7,
                            c == 0 ? "a NUL byte in an attribute value" : "is not allowed in an attribute value")) {
            goto done;
        }
    }
    STEP(s_expect_error(t, DOC("<a>\x01</a>"), NULL, ANVIL_ESYNTAX, 1, 4,
                        "control character 0x01 is not allowed in character data (XML allows tab, LF and CR; others "
                        "only as references such as &#x1;)"));
    STEP(s_expect_error(t, DOC("<a><!--\x1b--></a>"), NULL, ANVIL_ESYNTAX, 1, 8,
                        "control character 0x1B is not allowed in a comment (XML allows tab, LF and CR)"));
    STEP(s_expect_error(t, DOC("<a><![CDATA[\x01]]></a>"), NULL, ANVIL_ESYNTAX, 1, 13,
                        "control character 0x01 is not allowed in a CDATA section (XML allows tab, LF and CR)"));
    STEP(s_expect_text(t, DOC("<a>\t\x7f\xc2\x80\xc2\x9f</a>"), DOC("\t\x7f\xc2\x80\xc2\x9f")));
done:;
}

/* Every strict prefix of a valid document is refused cleanly: unterminated everything. */
TEST(xml_truncated_documents_are_refused) {
    static const char doc[] = "<?xml version='1.0' encoding='UTF-8'?>\r\n<!-- c --><r xmlns:p='u' a=\"1&amp;\">"
                              "<p:b>t&#x41;&lt;\xc3\xa9</p:b><![CDATA[x]]><?pi d?><e/></r>";
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t len = 0; len < sizeof(doc) - 1; len++) {
        const struct anvil_xml_node *root = NULL;
        struct anvil_diag diag;
        char *copy = anvil_mem_acquire(t->alloc, len ? len : 1); /* exact size: ASan sees any read past it */
        CHECK_ALLOC(copy);
        memcpy(copy, doc, len);
        int rc = anvil_xml_parse(arena, t->alloc, copy, len, NULL, 0, &root, &diag);
        anvil_mem_release(t->alloc, copy);
        CHECK_STATUS(rc, ANVIL_ESYNTAX);
        CHECK(diag.offset <= len && diag.line >= 1 && diag.column >= 1 && diag.message[0]);
    }
    const struct anvil_xml_node *root = NULL;
    CHECK_OK(anvil_xml_parse(arena, t->alloc, doc, sizeof(doc) - 1, NULL, 0, &root, NULL));
    CHECK_SV(root->first_child->text, "tA<\xc3\xa9");
done:
    anvil_arena_destroy(arena);
}

/* ---- limits and hostile input ---- */

static char *s_nested(struct anvil_test *t, size_t depth, bool closed, size_t *len) {
    *len = depth * (closed ? 7 : 3);
    char *text = anvil_mem_acquire(t->alloc, *len);
    if (text) {
        for (size_t i = 0; i < depth; i++) {
            memcpy(text + 3 * i, "<a>", 3);
            if (closed) {
                memcpy(text + 3 * depth + 4 * i, "</a>", 4);
            }
        }
    }
    return text;
}

TEST(xml_depth_limit) {
    struct anvil_arena *arena = NULL;
    char *text = NULL;
    size_t len;
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    text = s_nested(t, ANVIL_XML_DEFAULT_MAX_DEPTH, true, &len);
    CHECK_ALLOC(text);
    CHECK_OK(anvil_xml_parse(arena, t->alloc, text, len, NULL, 0, &root, &diag));
    anvil_mem_release(t->alloc, text);
    text = s_nested(t, ANVIL_XML_DEFAULT_MAX_DEPTH + 1, true, &len);
    CHECK_ALLOC(text);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, text, len, NULL, 0, &root, &diag), ANVIL_ELIMIT);
    CHECK_EQ_U64(diag.offset, 3 * ANVIL_XML_DEFAULT_MAX_DEPTH);
    CHECK_STR_EQ(diag.message, "<a> is nested deeper than 256 elements (max_depth)");
    /* A smaller limit, through the reader too. */
    STEP(s_expect_error(t, DOC("<a><b><c/></b></a>"), &(struct anvil_xml_options){.max_depth = 2}, ANVIL_ELIMIT, 1, 7,
                        "<c> is nested deeper than 2 elements (max_depth)"));
    struct anvil_xml_options one = {.max_depth = 1};
    CHECK_OK(anvil_xml_parse(arena, t->alloc, "<a>x</a>", 8, &one, 0, &root, &diag));
    STEP(s_expect_error(t, DOC("<a><b/></a>"), &one, ANVIL_ELIMIT, 1, 4, "<b> is nested deeper than 1 elements"));
done:
    anvil_mem_release(t->alloc, text);
    anvil_arena_destroy(arena);
}

TEST(xml_deep_hostile_input_stops_early_with_bounded_memory) {
    /* 100,000 nested elements: a clean ELIMIT at element 257, having used a few kilobytes. */
    struct anvil_arena *arena = NULL;
    char *text = NULL;
    size_t len;
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    struct anvil_counting_allocator *counting = (struct anvil_counting_allocator *)t->alloc;
    text = s_nested(t, 100000, false, &len);
    CHECK_ALLOC(text);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    size_t before = counting->live_bytes;
    counting->peak_bytes = before;
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, text, len, NULL, 0, &root, &diag), ANVIL_ELIMIT);
    CHECK_EQ_U64(diag.column, 3 * 256 + 1);
    CHECK(counting->peak_bytes - before < 128 * 1024);
    CHECK(root == NULL);
    /* With no practical limit the same depth is built without recursion (heap only), and torn down the same way. */
    anvil_mem_release(t->alloc, text);
    text = s_nested(t, 100000, true, &len);
    CHECK_ALLOC(text);
    struct anvil_xml_options deep = {.max_depth = SIZE_MAX};
    CHECK_OK(anvil_xml_parse(arena, t->alloc, text, len, &deep, 0, &root, &diag));
    size_t depth = 0;
    for (const struct anvil_xml_node *n = root; n; n = n->first_child) {
        depth++;
    }
    CHECK_EQ_U64(depth, 100000);
    /* Unclosed at that depth: the missing end tag is named. */
    anvil_mem_release(t->alloc, text);
    text = s_nested(t, 100000, false, &len);
    CHECK_ALLOC(text);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, text, len, &deep, 0, &root, &diag), ANVIL_ESYNTAX);
    CHECK_STR_EQ(diag.message, "expected '</a>' to close <a> (opened at line 1, column 299998), found end of input");
done:
    anvil_mem_release(t->alloc, text);
    anvil_arena_destroy(arena);
}

TEST(xml_attribute_limit_and_many_attributes) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_buf_append_cstr(&buf, "<a"));
    for (int i = 0; i < ANVIL_XML_DEFAULT_MAX_ATTRIBUTES; i++) {
        CHECK_OK(anvil_buf_appendf(&buf, " n%d='%d'", i, i));
    }
    CHECK_OK(anvil_buf_append_cstr(&buf, "/>"));
    CHECK_OK(anvil_xml_parse(arena, t->alloc, buf.data, buf.len, NULL, 0, &root, &diag));
    CHECK_EQ_U64(root->attribute_count, 256);
    CHECK_SV(*anvil_xml_attribute(root, ANVIL_SV("n255")), "255");
    /* One more crosses the default limit. */
    anvil_buf_truncate(&buf, buf.len - 2);
    size_t at = buf.len + 1;
    CHECK_OK(anvil_buf_append_cstr(&buf, " n256='256'/>"));
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, buf.data, buf.len, NULL, 0, &root, &diag), ANVIL_ELIMIT);
    CHECK_EQ_U64(diag.offset, at);
    CHECK_STR_EQ(diag.message, "<a> has more than 256 attributes (max_attributes)");
    /* A duplicate far down a long list is found (the hash set path). */
    anvil_buf_truncate(&buf, at - 1);
    CHECK_OK(anvil_buf_append_cstr(&buf, " n17='again'/>"));
    struct anvil_xml_options more = {.max_attributes = 1000};
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, buf.data, buf.len, &more, 0, &root, &diag), ANVIL_ESYNTAX);
    CHECK_EQ_U64(diag.offset, at);
    CHECK(strstr(diag.message, "duplicate attribute 'n17' in <a> (first at line 1, column ") != NULL);
    STEP(s_expect_error(t, DOC("<a x='1' y='2' z='3'/>"), &(struct anvil_xml_options){.max_attributes = 2},
                        ANVIL_ELIMIT, 1, 16, "<a> has more than 2 attributes (max_attributes)"));
done:
    anvil_buf_clean_up(&buf);
    anvil_arena_destroy(arena);
}

TEST(xml_document_size_limit) {
    struct anvil_arena *arena = NULL;
    struct anvil_xml_reader *reader = NULL;
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    struct anvil_xml_options small = {.max_document_bytes = 8};
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    /* 8 bytes pass the limit (and are cut short). */
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, "<a>xx</a>", 8, &small, 0, &root, &diag), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, "<a>xx</a>", 9, &small, 0, &root, &diag), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "the document is 9 bytes, more than max_document_bytes (8)");
    CHECK_EQ_U64(diag.line, 0);
    CHECK_STATUS(anvil_xml_reader_new(t->alloc, "<a>xx</a>", 9, &small, &reader), ANVIL_ELIMIT);
    CHECK(reader == NULL);
done:
    anvil_arena_destroy(arena);
}

TEST(xml_arena_limit_is_a_limit) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    CHECK_OK(anvil_arena_new(t->alloc, &(struct anvil_arena_options){.max_bytes = 16384}, &arena));
    CHECK_OK(anvil_buf_append_cstr(&buf, "<r>"));
    for (int i = 0; i < 1000; i++) {
        CHECK_OK(anvil_buf_append_cstr(&buf, "<i/>"));
    }
    CHECK_OK(anvil_buf_append_cstr(&buf, "</r>"));
    CHECK_STATUS(anvil_xml_parse(arena, t->alloc, buf.data, buf.len, NULL, 0, &root, &diag), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "the tree needs more memory than the arena's limit");
    CHECK(root == NULL);
done:
    anvil_buf_clean_up(&buf);
    anvil_arena_destroy(arena);
}

/* The arena's block sizing guesses from what the document needed so far: a guess never crosses the arena's limit. */
TEST(xml_arena_sizing_stays_within_a_limit_that_fits) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    CHECK_OK(anvil_buf_append_cstr(&buf, "<r>"));
    for (int i = 0; i < 4000; i++) {
        CHECK_OK(anvil_buf_appendf(&buf, "\n  <item n=\"%d\"><k>key &amp; %d</k><v>value</v></item>", i, i));
    }
    CHECK_OK(anvil_buf_append_cstr(&buf, "\n</r>\n"));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_xml_parse(arena, t->alloc, buf.data, buf.len, NULL, 0, &root, &diag));
    size_t used = anvil_arena_bytes_used(arena);
    CHECK(anvil_arena_bytes_reserved(arena) < used + used / 4 + 65536); /* one block sized for the rest, not doubling */
    anvil_arena_destroy(arena);
    arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, &(struct anvil_arena_options){.max_bytes = used + used / 50 + 16384}, &arena));
    CHECK_OK(anvil_xml_parse(arena, t->alloc, buf.data, buf.len, NULL, 0, &root, &diag));
    CHECK_EQ_U64(root->child_count, 4000);
done:
    anvil_buf_clean_up(&buf);
    anvil_arena_destroy(arena);
}

TEST(xml_huge_single_text_node) {
    /* 16 MiB of text in one element: borrowed whole, then decoded whole when it starts and ends with a reference. */
    const size_t n = (size_t)16 << 20;
    struct anvil_arena *arena = NULL;
    char *text = anvil_mem_acquire(t->alloc, n + 32);
    const struct anvil_xml_node *root = NULL;
    CHECK_ALLOC(text);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    memcpy(text, "<a>", 3);
    for (size_t i = 0; i < n; i++) {
        text[3 + i] = "abcdefghij \n"[i % 12];
    }
    memcpy(text + 3 + n, "</a>", 4);
    CHECK_OK(anvil_xml_parse(arena, t->alloc, text, n + 7, NULL, 0, &root, NULL));
    CHECK_EQ_U64(root->text.len, n);
    CHECK(root->text.ptr == text + 3);
    memcpy(text + 3, "&lt;", 4);
    memcpy(text + 3 + n - 4, "&gt;", 4);
    CHECK_OK(anvil_xml_parse(arena, t->alloc, text, n + 7, NULL, 0, &root, NULL));
    CHECK_EQ_U64(root->text.len, n - 6);
    CHECK(root->text.ptr[0] == '<' && root->text.ptr[n - 7] == '>' && root->text.ptr[1] == 'e');
done:
    anvil_mem_release(t->alloc, text);
    anvil_arena_destroy(arena);
}

/* Every position of a special byte against the eight-byte text scan. */
TEST(xml_text_scan_boundaries) {
    static const char specials[] = "<&\r]\x01\xc3\t\n";
    char text[48];
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t s = 0; s < sizeof(specials) - 1; s++) {
        for (size_t at = 0; at < 20; at++) {
            memcpy(text, "<a>", 3);
            memset(text + 3, 'x', 20);
            memcpy(text + 23, "</a>", 4);
            text[3 + at] = specials[s];
            const struct anvil_xml_node *root = NULL;
            struct anvil_diag diag;
            int rc = anvil_xml_parse(arena, t->alloc, text, 27, NULL, 0, &root, &diag);
            switch (specials[s]) {
            case '\r':
            case '\t':
            case '\n':
            case ']':
                CHECK_OK(rc);
                CHECK_EQ_U64(root->text.len, 20);
                CHECK_EQ_U64(root->text.ptr[at], specials[s] == '\r' ? '\n' : specials[s]);
                break;
            case '<':
            case '&':
                CHECK_STATUS(rc, ANVIL_ESYNTAX); /* a start tag or a reference running into "</a>" */
                break;
            default:
                CHECK_STATUS(rc, ANVIL_ESYNTAX);
                CHECK_EQ_U64(diag.offset, 3 + at);
                break;
            }
        }
    }
done:
    anvil_arena_destroy(arena);
}

/* ---- the pull reader ---- */

TEST(xml_reader_events) {
    struct anvil_xml_reader *r = NULL;
    struct anvil_xml_event ev;
    struct anvil_diag diag;
    static const char text[] = "<?xml version=\"1.0\"?>\n<r a=\"1&amp;2\"><e/>t&lt;u<![CDATA[c]]><!--x-->v</r>\n";
    CHECK_OK(anvil_xml_reader_new(t->alloc, text, sizeof(text) - 1, NULL, &r));
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_START);
    CHECK_SV(ev.name, "r");
    CHECK_EQ_U64(ev.depth, 1);
    CHECK_EQ_U64(ev.offset, 22);
    CHECK_EQ_U64(ev.attribute_count, 1);
    CHECK_SV(ev.attributes[0].name, "a");
    CHECK_SV(ev.attributes[0].value, "1&2");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_START && ev.depth == 2 && ev.attribute_count == 0 && ev.attributes == NULL);
    CHECK_SV(ev.name, "e");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_END && ev.depth == 2 && ev.offset == (size_t)(strstr(text, "<e/>") - text));
    CHECK_SV(ev.name, "e");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_TEXT && ev.depth == 1 && ev.offset == (size_t)(strstr(text, "t&lt;") - text));
    CHECK_SV(ev.text, "t<u");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_TEXT && ev.offset == (size_t)(strstr(text, "<![CDATA[") - text));
    CHECK_SV(ev.text, "c");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_TEXT);
    CHECK_SV(ev.text, "v");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_END && ev.depth == 1);
    CHECK_SV(ev.name, "r");
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_EOF && ev.depth == 0 && ev.offset == sizeof(text) - 1);
    CHECK_OK(anvil_xml_reader_next(r, &ev, &diag));
    CHECK(ev.type == ANVIL_XML_EOF);
    CHECK_STATUS(anvil_xml_reader_next(NULL, &ev, &diag), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_reader_next(r, NULL, &diag), ANVIL_EINVAL);
done:
    anvil_xml_reader_destroy(r);
}

TEST(xml_reader_arguments_and_errors) {
    struct anvil_xml_reader *r = (struct anvil_xml_reader *)&r;
    struct anvil_xml_event ev;
    CHECK_STATUS(anvil_xml_reader_new(t->alloc, "<a/>", 4, NULL, NULL), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_reader_new(t->alloc, NULL, 4, NULL, &r), ANVIL_EINVAL);
    CHECK(r == NULL);
    anvil_xml_reader_destroy(NULL);
    /* An error with no diag wanted is still sticky. */
    CHECK_OK(anvil_xml_reader_new(t->alloc, "<a><b></a>", 10, NULL, &r));
    CHECK_OK(anvil_xml_reader_next(r, &ev, NULL));
    CHECK_OK(anvil_xml_reader_next(r, &ev, NULL));
    CHECK_STATUS(anvil_xml_reader_next(r, &ev, NULL), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_xml_reader_next(r, &ev, NULL), ANVIL_ESYNTAX);
    anvil_xml_reader_destroy(r);
    r = NULL;
    /* An empty input: NULL with length 0 is allowed. */
    CHECK_OK(anvil_xml_reader_new(t->alloc, NULL, 0, NULL, &r));
    CHECK_STATUS(anvil_xml_reader_next(r, &ev, NULL), ANVIL_ESYNTAX);
done:
    anvil_xml_reader_destroy(r);
}

/* ---- the writer ---- */

static bool s_escaped(struct anvil_test *t, struct anvil_str_view in, bool attribute, const char *want) {
    bool ok = false;
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&buf, "|"));
    CHECK_OK(attribute ? anvil_xml_write_attribute_value(&buf, in) : anvil_xml_write_text(&buf, in));
    CHECK_STR_EQ(buf.data + 1, want);
    ok = true;
done:
    anvil_buf_clean_up(&buf);
    return ok;
}

TEST(xml_write_escapes) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    STEP(s_escaped(t, ANVIL_SV("a & b < c > d \"q\" 'a'\t\n"), false, "a &amp; b &lt; c &gt; d \"q\" 'a'\t\n"));
    STEP(s_escaped(t, ANVIL_SV("a & b < c > d \"q\" 'a'\t\n"), true,
                   "a &amp; b &lt; c &gt; d &quot;q&quot; 'a'&#x9;&#xA;"));
    STEP(s_escaped(t, ANVIL_SV("cr\r\x01\x1f\x7f]]>"), false, "cr&#xD;&#x1;&#x1F;\x7f]]&gt;"));
    STEP(s_escaped(t, ANVIL_SV("cr\r\x01"), true, "cr&#xD;&#x1;"));
    STEP(s_escaped(t, ANVIL_SV("caf\xc3\xa9 \xf0\x9f\x9a\x80 \xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd"), false,
                   "caf\xc3\xa9 \xf0\x9f\x9a\x80 &#xFFFE;&#xFFFF;\xef\xbf\xbd"));
    STEP(s_escaped(t, ANVIL_SV(""), false, ""));
    /* What XML cannot carry at all: nothing is appended. */
    CHECK_OK(anvil_buf_append_cstr(&buf, "keep"));
    CHECK_STATUS(anvil_xml_write_text(&buf, ANVIL_SV("a&b\0c")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_write_text(&buf, ANVIL_SV("a&b\xc3(")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_write_attribute_value(&buf, ANVIL_SV("\xed\xa0\x80")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_write_text(NULL, ANVIL_SV("a")), ANVIL_EINVAL);
    CHECK_STR_EQ(buf.data, "keep");
    /* The buffer's own cap. */
    anvil_buf_clean_up(&buf);
    anvil_buf_init(&buf, t->alloc, 8);
    CHECK_STATUS(anvil_xml_write_text(&buf, ANVIL_SV("<<<")), ANVIL_ELIMIT);
    CHECK_EQ_U64(buf.len, 0);
done:
    anvil_buf_clean_up(&buf);
}

TEST(xml_writer_builds_trees) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    struct anvil_xml_writer *w = NULL;
    CHECK_OK(anvil_xml_writer_new(t->alloc, &buf, &w));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("CreateBucketConfiguration")));
    CHECK_OK(anvil_xml_writer_attribute(w, ANVIL_SV("xmlns"), ANVIL_SV("http://s3.amazonaws.com/doc/2006-03-01/")));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("LocationConstraint")));
    CHECK_OK(anvil_xml_writer_text(w, ANVIL_SV("us-west-2")));
    CHECK_OK(anvil_xml_writer_end(w));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("Empty")));
    CHECK_OK(anvil_xml_writer_attribute(w, ANVIL_SV("a"), ANVIL_SV("x\"<&>\ty")));
    CHECK_OK(anvil_xml_writer_text(w, ANVIL_SV(""))); /* no text: still <Empty .../> */
    CHECK_OK(anvil_xml_writer_end(w));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("T")));
    CHECK_OK(anvil_xml_writer_text(w, ANVIL_SV("a<b")));
    CHECK_OK(anvil_xml_writer_text(w, ANVIL_SV("&c")));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("U")));
    CHECK_OK(anvil_xml_writer_finish(w)); /* closes U, T and the root */
    CHECK_STR_EQ(buf.data, "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                           "<LocationConstraint>us-west-2</LocationConstraint>"
                           "<Empty a=\"x&quot;&lt;&amp;&gt;&#x9;y\"/><T>a&lt;b&amp;c<U/></T>"
                           "</CreateBucketConfiguration>");
    /* Used again after finish. */
    anvil_buf_clear(&buf);
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("a")));
    CHECK_OK(anvil_xml_writer_end(w));
    CHECK_OK(anvil_xml_writer_finish(w));
    CHECK_STR_EQ(buf.data, "<a/>");
    anvil_buf_clear(&buf);
    CHECK_OK(anvil_xml_writer_finish(w));
    CHECK_EQ_U64(buf.len, 0);
done:
    anvil_xml_writer_destroy(w);
    anvil_buf_clean_up(&buf);
}

TEST(xml_writer_errors_are_sticky) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    struct anvil_xml_writer *w = NULL;
    CHECK_STATUS(anvil_xml_writer_new(t->alloc, NULL, &w), ANVIL_EINVAL);
    CHECK(w == NULL);
    CHECK_STATUS(anvil_xml_writer_new(t->alloc, &buf, NULL), ANVIL_EINVAL);
    CHECK_OK(anvil_xml_writer_new(t->alloc, &buf, &w));
    /* An attribute once the start tag is closed. */
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("a")));
    CHECK_OK(anvil_xml_writer_text(w, ANVIL_SV("x")));
    CHECK_STATUS(anvil_xml_writer_attribute(w, ANVIL_SV("b"), ANVIL_SV("1")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_end(w), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    /* Reset by finish: a second root, text and end outside any element. */
    anvil_buf_clear(&buf);
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("a")));
    CHECK_OK(anvil_xml_writer_end(w));
    CHECK_STATUS(anvil_xml_writer_start(w, ANVIL_SV("b")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_text(w, ANVIL_SV("x")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_end(w), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_start(w, ANVIL_SV("")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("a")));
    CHECK_STATUS(anvil_xml_writer_text(w, ANVIL_SV("\0")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    /* Names that are not XML names would write text that does not parse. */
    static const char *const bad_names[] = {"1a", "a b", "a>", "-x", "a\"", "\xc3\x97", "\xff"};
    for (size_t i = 0; i < S_COUNT(bad_names); i++) {
        CHECK_STATUS(anvil_xml_writer_start(w, anvil_sv_from_cstr(bad_names[i])), ANVIL_EINVAL);
        CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
        CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("a")));
        CHECK_STATUS(anvil_xml_writer_attribute(w, anvil_sv_from_cstr(bad_names[i]), ANVIL_SV("v")), ANVIL_EINVAL);
        CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    }
    CHECK_STATUS(anvil_xml_writer_start(w, s_raw_view(NULL, 1)), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_EINVAL);
    anvil_buf_clear(&buf);
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("p:caf\xc3\xa9_1.-")));
    CHECK_OK(anvil_xml_writer_attribute(w, ANVIL_SV("xmlns:p"), ANVIL_SV("u")));
    CHECK_OK(anvil_xml_writer_finish(w));
    CHECK_STR_EQ(buf.data, "<p:caf\xc3\xa9_1.- xmlns:p=\"u\"/>");
    CHECK_STATUS(anvil_xml_writer_start(NULL, ANVIL_SV("a")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_attribute(NULL, ANVIL_SV("a"), ANVIL_SV("b")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_text(NULL, ANVIL_SV("a")), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_end(NULL), ANVIL_EINVAL);
    CHECK_STATUS(anvil_xml_writer_finish(NULL), ANVIL_EINVAL);
    anvil_xml_writer_destroy(NULL);
    /* A full buffer stops the writer. */
    anvil_xml_writer_destroy(w);
    w = NULL;
    anvil_buf_clean_up(&buf);
    anvil_buf_init(&buf, t->alloc, 10);
    CHECK_OK(anvil_xml_writer_new(t->alloc, &buf, &w));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("abc")));
    CHECK_OK(anvil_xml_writer_start(w, ANVIL_SV("de")));
    CHECK_STATUS(anvil_xml_writer_text(w, ANVIL_SV("long text")), ANVIL_ELIMIT);
    CHECK_STATUS(anvil_xml_writer_end(w), ANVIL_ELIMIT);
    CHECK_STATUS(anvil_xml_writer_finish(w), ANVIL_ELIMIT);
done:
    anvil_xml_writer_destroy(w);
    anvil_buf_clean_up(&buf);
}

/* ---- round trips ---- */

/* Writes a tree with the writer, without recursion: attributes, text, then children. */
static int s_write_tree(struct anvil_test *t, const struct anvil_xml_node *root, struct anvil_buf *out) {
    struct anvil_xml_writer *w = NULL;
    const struct anvil_xml_node **next = NULL;
    size_t depth = 0, cap = 0;
    int rc = anvil_xml_writer_new(t->alloc, out, &w);
    const struct anvil_xml_node *node = root;
    while (rc == ANVIL_OK) {
        if (node) {
            anvil_xml_writer_start(w, node->name);
            for (size_t i = 0; i < node->attribute_count; i++) {
                anvil_xml_writer_attribute(w, node->attributes[i].name, node->attributes[i].value);
            }
            anvil_xml_writer_text(w, node->text);
            if (depth == cap) {
                void *grown = next;
                cap = cap ? cap * 2 : 16;
                if ((rc = anvil_mem_realloc(t->alloc, &grown, cap * sizeof(*next))) != ANVIL_OK) {
                    break;
                }
                next = grown;
            }
            next[depth++] = node->first_child;
        } else {
            anvil_xml_writer_end(w);
            if (--depth == 0) {
                break;
            }
        }
        node = next[depth - 1];
        if (node) {
            next[depth - 1] = node->next_sibling;
        }
    }
    if (w) {
        int finished = anvil_xml_writer_finish(w);
        rc = rc != ANVIL_OK ? rc : finished;
    }
    anvil_xml_writer_destroy(w);
    anvil_mem_release(t->alloc, next);
    return rc;
}

static bool s_same_tree(const struct anvil_xml_node *a, const struct anvil_xml_node *b) {
    /* Both trees walked in step along first-child / next-sibling links, climbing back through a depth count. */
    while (a && b) {
        if (!anvil_sv_eq(a->name, b->name) || !anvil_sv_eq(a->local, b->local) || !anvil_sv_eq(a->text, b->text) ||
            a->attribute_count != b->attribute_count || a->child_count != b->child_count) {
            return false;
        }
        for (size_t i = 0; i < a->attribute_count; i++) {
            if (!anvil_sv_eq(a->attributes[i].name, b->attributes[i].name) ||
                !anvil_sv_eq(a->attributes[i].value, b->attributes[i].value)) {
                return false;
            }
        }
        if (!a->next_sibling != !b->next_sibling || !a->first_child != !b->first_child) {
            return false;
        }
        /* Children first; sibling order is checked as each list is walked. */
        if (a->first_child && !s_same_tree(a->first_child, b->first_child)) {
            return false;
        }
        a = a->next_sibling;
        b = b->next_sibling;
    }
    return !a && !b;
}

TEST(xml_parse_write_parse_round_trip) {
    static const char text[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
        "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\" xmlns:xsi='x' xsi:type=\"t&amp;&#9;\">\n"
        "  <Name>bucket</Name>\n"
        "  <Contents><Key>ctrl&#x1;&#x3;&#xD;key\r\nline</Key><ETag>&quot;fba9&quot;</ETag><Size>434234</Size>"
        "</Contents>\n"
        "  <Contents><Key>caf\xc3\xa9 &lt;&gt; &apos;q&apos; ]]&gt; &#xFFFE;</Key><Empty/><E2></E2></Contents>\n"
        "  <![CDATA[<raw & text>]]><!-- gone --><?gone too?>\n"
        "  <p:x xmlns:p='u' p:a=\"&lt;\n\"/>\n"
        "</ListBucketResult>\n";
    struct anvil_arena *arena = NULL;
    struct anvil_buf first, second;
    anvil_buf_init(&first, t->alloc, 0);
    anvil_buf_init(&second, t->alloc, 0);
    const struct anvil_xml_node *root = NULL, *again = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_xml_parse(arena, t->alloc, text, sizeof(text) - 1, NULL, 0, &root, NULL));
    CHECK_OK(s_write_tree(t, root, &first));
    CHECK_OK(anvil_xml_parse(arena, t->alloc, first.data, first.len, NULL, ANVIL_XML_COPY_INPUT, &again, NULL));
    CHECK(s_same_tree(root, again));
    CHECK_OK(s_write_tree(t, again, &second));
    CHECK_STR_EQ(first.data, second.data);
    const struct anvil_xml_node *key = anvil_xml_child(anvil_xml_child(again, ANVIL_SV("Contents")), ANVIL_SV("Key"));
    CHECK_SV(key->text, "ctrl\x01\x03\rkey\nline");
    CHECK_SV(root->attributes[2].value, "t&\t");
    CHECK(strstr(first.data, "<Key>ctrl&#x1;&#x3;&#xD;key\nline</Key>") != NULL);
    CHECK(strstr(first.data, "<Empty/><E2/>") != NULL);
    CHECK(strstr(first.data, "p:a=\"&lt; \"") != NULL);
done:
    anvil_buf_clean_up(&first);
    anvil_buf_clean_up(&second);
    anvil_arena_destroy(arena);
}
