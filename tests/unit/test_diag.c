#include "harness.h"

#include "core/diag_origin.h"

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

/* A debug build names where in anvil's source an error was first raised; a release build names nothing. */
TEST(diag_origin_names_the_first_raise_in_a_debug_build) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STR_EQ(anvil_diag_origin(&diag), "");
    CHECK_STR_EQ(anvil_diag_origin(NULL), "");
    CHECK_STATUS(anvil_json_parse(t->alloc, "[1,]", 4, NULL, &doc, &diag), ANVIL_ESYNTAX);
    const char *origin = anvil_diag_origin(&diag);
#ifdef NDEBUG
    CHECK_STR_EQ(origin, "");
#else
    CHECK(strncmp(origin, "src/json/", 9) == 0 && strchr(origin, ':') != NULL);
#endif
    /* Noting again (a wrapping raise) keeps the first; clearing forgets it. */
    char first[64];
    snprintf(first, sizeof first, "%s", anvil_diag_origin(&diag));
    CHECK_EQ_INT(anvil__diag_note_origin(&diag, "/build/x/src/outer/wrap.c", 7, ANVIL_ESYNTAX), ANVIL_ESYNTAX);
#ifndef NDEBUG
    CHECK_STR_EQ(anvil_diag_origin(&diag), first);
#endif
    anvil_diag_clear(&diag);
    CHECK_STR_EQ(anvil_diag_origin(&diag), "");
    anvil_diag_set(&diag, ANVIL_EINVAL, 0, 0, 0, "from outside the library: no origin");
    anvil__diag_note_origin(&diag, "/home/me/anvil/src/core/thing.c", 42, ANVIL_EINVAL);
    CHECK_STR_EQ(anvil_diag_origin(&diag), "src/core/thing.c:42");
    /* A diag that was never cleared (whatever its bytes) gets the first note; a long path keeps its end. */
    memset(&diag, 0xAB, sizeof diag);
    diag.code = ANVIL_EINVAL;
    CHECK_STR_EQ(anvil_diag_origin(&diag), "");
    anvil__diag_note_origin(&diag, "/very/long/path/without/the/usual/folder/name/in/it/at/all/some_file_name.c", 9,
                            ANVIL_EINVAL);
    CHECK(strstr(anvil_diag_origin(&diag), "some_file_name.c:9") != NULL);
    CHECK(strlen(anvil_diag_origin(&diag)) < 60);
done:
    anvil_json_doc_destroy(doc);
}
