#include "harness.h"

TEST(diag_set_returns_code_and_formats) {
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_EQ_INT(diag.code, ANVIL_OK);
    CHECK_STR_EQ(diag.message, "");
    CHECK_EQ_INT(anvil_diag_set(&diag, ANVIL_ESYNTAX, 3, 7, 40, "unexpected '%c'", '}'), ANVIL_ESYNTAX);
    char out[128];
    size_t n = anvil_diag_format(&diag, "input.json", out, sizeof(out));
    CHECK_STR_EQ(out, "input.json:3:7: unexpected '}'");
    CHECK_EQ_U64(n, strlen(out));
    anvil_diag_format(&diag, NULL, out, sizeof(out));
    CHECK_STR_EQ(out, "3:7: unexpected '}'");
    anvil_diag_set(&diag, ANVIL_ECONFIG, 0, 0, 0, "minDelay must be >= 1");
    anvil_diag_format(&diag, "waiter", out, sizeof(out));
    CHECK_STR_EQ(out, "waiter: minDelay must be >= 1");
    anvil_diag_format(&diag, NULL, out, sizeof(out));
    CHECK_STR_EQ(out, "minDelay must be >= 1");
    /* Truncated output still reports the full length. */
    CHECK_EQ_U64(anvil_diag_format(&diag, NULL, out, 4), strlen("minDelay must be >= 1"));
    CHECK_STR_EQ(out, "min");
    CHECK_EQ_INT(anvil_diag_set(NULL, ANVIL_ELIMIT, 1, 1, 0, "ignored"), ANVIL_ELIMIT);
    anvil_diag_clear(NULL);
done:;
}

TEST(diag_set_at_counts_lines_and_columns) {
    struct anvil_diag diag;
    const char *text = "{\n  \"a\": 1,\n  oops\n}";
    size_t at = (size_t)(strstr(text, "oops") - text);
    anvil_diag_set_at(&diag, ANVIL_ESYNTAX, text, strlen(text), at, "bad token");
    CHECK_EQ_U64(diag.line, 3);
    CHECK_EQ_U64(diag.column, 3);
    CHECK_EQ_U64(diag.offset, at);
    anvil_diag_set_at(&diag, ANVIL_ESYNTAX, text, strlen(text), 0, "x");
    CHECK_EQ_U64(diag.line, 1);
    CHECK_EQ_U64(diag.column, 1);
    anvil_diag_set_at(&diag, ANVIL_ESYNTAX, text, strlen(text), 10000, "past end");
    CHECK_EQ_U64(diag.offset, strlen(text));
    CHECK_EQ_U64(diag.line, 4);
    CHECK_EQ_U64(diag.column, 2);
    /* Input without NUL terminator: only `len` bytes are read. */
    char raw[3] = {'a', '\n', 'b'};
    anvil_diag_set_at(&diag, ANVIL_ESYNTAX, raw, sizeof(raw), 3, "eof");
    CHECK_EQ_U64(diag.line, 2);
    CHECK_EQ_U64(diag.column, 2);
done:;
}

TEST(diag_long_message_is_truncated_on_a_utf8_boundary) {
    struct anvil_diag diag;
    char long_text[600];
    /* 'x' then "é" (2 bytes) repeated, so the cut may fall inside a character. */
    size_t n = 0;
    long_text[n++] = 'x';
    while (n + 2 < sizeof(long_text)) {
        long_text[n++] = (char)0xC3;
        long_text[n++] = (char)0xA9;
    }
    long_text[n] = '\0';
    anvil_diag_set(&diag, ANVIL_ESYNTAX, 1, 1, 0, "%s", long_text);
    size_t len = strlen(diag.message);
    CHECK(len < ANVIL_DIAG_MESSAGE_MAX);
    CHECK(len % 2 == 1); /* 'x' plus whole two-byte characters */
    CHECK((unsigned char)diag.message[len - 1] == 0xA9);
done:;
}
