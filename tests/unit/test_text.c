/*
 * Text from elsewhere made safe to show (anvil/text.h), and the JSON
 * writer's promise that its output is valid UTF-8 whatever string it is
 * handed: the bytes a hostile server or command sends (0xFF, a cut inside a
 * character, NUL, ESC sequences, CR/LF, C1 controls, bidi overrides).
 */

#include "harness.h"

static int s_utf8(struct anvil_test *t, struct anvil_buf *out, const char *in, size_t len, size_t max) {
    anvil_buf_init(out, t->alloc, 0);
    return anvil_text_append_utf8(out, anvil_sv(in, len), max);
}

TEST(text_utf8_replaces_bad_bytes_and_cuts_between_characters) {
    struct anvil_buf b;
    CHECK_OK(s_utf8(t, &b, "ok \xc3\xa9", 5, 100));
    CHECK_MEM_EQ(b.data, b.len, "ok \xc3\xa9");
    anvil_buf_clean_up(&b);
    /* 0xFF, a lone continuation byte and a lead byte at the end: U+FFFD each. */
    CHECK_OK(s_utf8(t, &b,
                    "a\xff"
                    "b\x80"
                    "c\xc3",
                    6, 100));
    CHECK_MEM_EQ(b.data, b.len,
                 "a\xef\xbf\xbd"
                 "b\xef\xbf\xbd"
                 "c\xef\xbf\xbd");
    anvil_buf_clean_up(&b);
    /* A cap inside "é" (2 bytes at 3..4) drops the whole character. */
    CHECK_OK(s_utf8(t, &b, "abc\xc3\xa9", 5, 4));
    CHECK_MEM_EQ(b.data, b.len, "abc");
    anvil_buf_clean_up(&b);
    /* A replacement that does not fit is left out too; NUL and controls are kept. */
    CHECK_OK(s_utf8(t, &b, "ab\xff", 3, 4));
    CHECK_MEM_EQ(b.data, b.len, "ab");
    anvil_buf_clean_up(&b);
    CHECK_OK(s_utf8(t, &b, "a\0\x1b[2J", 6, 100));
    CHECK_EQ_U64(b.len, 6);
    anvil_buf_clean_up(&b);
    CHECK_OK(s_utf8(t, &b, "abc", 3, 0));
    CHECK_EQ_U64(b.len, 0);
    /* A NULL view (an empty error message) is nothing, not NULL + 0. */
    anvil_buf_clean_up(&b);
    CHECK_OK(s_utf8(t, &b, NULL, 0, 100));
    CHECK_EQ_U64(b.len, 0);
    CHECK_OK(anvil_text_append_escaped(&b, anvil_sv(NULL, 0)));
    CHECK_EQ_U64(b.len, 0);
    /* An emoji (4 bytes) kept whole or not at all. */
    anvil_buf_clean_up(&b);
    CHECK_OK(s_utf8(t, &b, "\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 8, 7));
    CHECK_MEM_EQ(b.data, b.len, "\xf0\x9f\x98\x80");
done:
    anvil_buf_clean_up(&b);
}

static int s_escaped(struct anvil_test *t, struct anvil_buf *out, const char *in, size_t len) {
    anvil_buf_init(out, t->alloc, 0);
    return anvil_text_append_escaped(out, anvil_sv(in, len));
}

TEST(text_escaped_leaves_nothing_a_terminal_acts_on) {
    static const struct {
        const char *in;
        size_t len;
        const char *want;
    } cases[] = {
        {"plain text, with \\ and \"quotes\"", 31, "plain text, with \\ and \"quotes\""},
        {"\x1b[31mred\x1b[0m", 12, "\\x1b[31mred\\x1b[0m"},
        {"line\r\nInjected: yes", 19, "line\\r\\nInjected: yes"},
        {"tab\there", 8, "tab\\there"},
        {"nul\0after", 9, "nul\\x00after"},
        {"del\x7f", 4, "del\\x7f"},
        {"c1 csi \xc2\x9b"
         "31m",
         12, "c1 csi \\u{009b}31m"},
        {"bidi \xe2\x80\xae"
         "evil",
         12, "bidi \\u{202e}evil"},
        {"isolate \xe2\x81\xa6!", 12, "isolate \\u{2066}!"},
        {"bad \xff\xfe", 6, "bad \\xff\\xfe"},
        {"cut \xe2\x82", 6, "cut \\xe2\\x82"},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
    };
    struct anvil_buf b = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_OK(s_escaped(t, &b, cases[i].in, cases[i].len));
        if (b.len != strlen(cases[i].want) || memcmp(b.data, cases[i].want, b.len) != 0) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: got '%.*s', want '%s'", i, (int)b.len, b.data,
                            cases[i].want);
        }
        anvil_buf_clean_up(&b);
    }
done:
    anvil_buf_clean_up(&b);
}

TEST(json_write_string_output_is_always_utf8) {
    struct anvil_buf b;
    anvil_buf_init(&b, t->alloc, 0);
    /* A server's body cut at 200 bytes inside a character, with 0xFF and a NUL: valid JSON whatever it holds. */
    CHECK_OK(anvil_json_write_string(anvil_sv("a\xff"
                                              "b\0c\xc3",
                                              6),
                                     0, &b));
    CHECK_MEM_EQ(b.data, b.len,
                 "\"a\xef\xbf\xbd"
                 "b\\u0000c\xef\xbf\xbd\"");
    anvil_buf_clear(&b);
    CHECK_OK(anvil_json_write_string(anvil_sv("a\xff\xc3\xa9", 4), ANVIL_JSON_WRITE_ASCII, &b));
    CHECK_MEM_EQ(b.data, b.len, "\"a\\ufffd\\u00e9\"");
    anvil_buf_clear(&b);
    /* Valid text passes unchanged, escapes as before. */
    CHECK_OK(anvil_json_write_string(anvil_sv("caf\xc3\xa9\n\x1b", 7), 0, &b));
    CHECK_MEM_EQ(b.data, b.len, "\"caf\xc3\xa9\\n\\u001b\"");
    /* C1 controls, U+2028 and bidi overrides are escaped too: a terminal showing the output acts on none. */
    anvil_buf_clear(&b);
    CHECK_OK(anvil_json_write_string(anvil_sv("\xc2\x9b"
                                              "1m \xe2\x80\xa8 \xe2\x80\xae \xc2\xa0",
                                              15),
                                     0, &b));
    CHECK_MEM_EQ(b.data, b.len, "\"\\u009b1m \\u2028 \\u202e \xc2\xa0\"");
    /* Whatever came out parses back. */
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(anvil_json_parse(t->alloc, b.data, b.len, NULL, &doc, NULL));
    anvil_json_doc_destroy(doc);
done:
    anvil_buf_clean_up(&b);
}

/* Whitespace at the ends dropped, each run inside one space (SigV4's header values, docs on one line). */
TEST(text_collapsed_trims_and_folds_whitespace) {
    static const char *const cases[][2] = {
        {"  a \t b\r\n c  ", "a b c"},
        {"", ""},
        {" \t\r\n", ""},
        {"one", "one"},
        {"x\n\ny", "x y"},
        {"\xc3\xa9  \xc3\xa9", "\xc3\xa9 \xc3\xa9"}, /* bytes other than the four kept as they are */
    };
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        anvil_buf_clear(&out);
        CHECK_OK(anvil_text_append_collapsed(&out, anvil_sv_from_cstr(cases[i][0])));
        CHECK(anvil_sv_eq_cstr(anvil_buf_view(&out), cases[i][1]));
    }
done:
    anvil_buf_clean_up(&out);
}
