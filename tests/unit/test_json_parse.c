#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "json/json_internal.h"

static int s_parse(struct anvil_test *t, const char *text, struct anvil_json_doc **doc, struct anvil_diag *diag) {
    return anvil_json_parse(t->alloc, text, strlen(text), NULL, doc, diag);
}

TEST(json_parse_scalars_and_types) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t, " [null, true, false, 0, -12, 1.5, \"s\", [], {}] ", &doc, NULL));
    const struct anvil_json *root = anvil_json_doc_root(doc);
    CHECK(anvil_json_is_array(root));
    CHECK_EQ_U64(anvil_json_len(root), 9);
    CHECK(anvil_json_is_null(anvil_json_array_at(root, 0)));
    CHECK(anvil_json_bool(anvil_json_array_at(root, 1)));
    CHECK(anvil_json_is_bool(anvil_json_array_at(root, 2)) && !anvil_json_bool(anvil_json_array_at(root, 2)));
    CHECK(anvil_json_is_int(anvil_json_array_at(root, 3)));
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(root, 4)), -12);
    CHECK(!anvil_json_is_int(anvil_json_array_at(root, 5)));
    CHECK(anvil_json_double(anvil_json_array_at(root, 5)) == 1.5);
    CHECK(anvil_sv_eq_cstr(anvil_json_string(anvil_json_array_at(root, 6)), "s"));
    CHECK(anvil_json_is_array(anvil_json_array_at(root, 7)) && anvil_json_len(anvil_json_array_at(root, 7)) == 0);
    CHECK(anvil_json_is_object(anvil_json_array_at(root, 8)) && anvil_json_len(anvil_json_array_at(root, 8)) == 0);
    CHECK(anvil_json_array_at(root, 9) == NULL);
    CHECK(anvil_json_array_at(anvil_json_array_at(root, 0), 0) == NULL);
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_integers_keep_exactness) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t,
                     "[9223372036854775807, -9223372036854775808, 9223372036854775808, -0, 1.0, 1e2, "
                     "12345678901234567890123, 0.000001]",
                     &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    CHECK(anvil_json_is_int(anvil_json_array_at(r, 0)));
    CHECK(anvil_json_int(anvil_json_array_at(r, 0)) == INT64_MAX);
    CHECK(anvil_json_is_int(anvil_json_array_at(r, 1)));
    CHECK(anvil_json_int(anvil_json_array_at(r, 1)) == INT64_MIN);
    CHECK(!anvil_json_is_int(anvil_json_array_at(r, 2)));
    CHECK(anvil_json_double(anvil_json_array_at(r, 2)) == 9223372036854775808.0);
    CHECK(anvil_json_is_int(anvil_json_array_at(r, 3)) && anvil_json_int(anvil_json_array_at(r, 3)) == 0);
    CHECK(!anvil_json_is_int(anvil_json_array_at(r, 4)) && anvil_json_double(anvil_json_array_at(r, 4)) == 1.0);
    CHECK(!anvil_json_is_int(anvil_json_array_at(r, 5)) && anvil_json_double(anvil_json_array_at(r, 5)) == 100.0);
    CHECK(anvil_json_double(anvil_json_array_at(r, 6)) == 12345678901234567890123.0);
    CHECK(anvil_json_double(anvil_json_array_at(r, 7)) == 0.000001);
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_doubles_are_correctly_rounded) {
    static const struct {
        const char *text;
        double want;
    } cases[] = {
        {"0.1", 0.1},
        {"1e22", 1e22},
        {"1e23", 1e23},
        {"9007199254740993", 9007199254740993.0}, /* an int64, compared below as double */
        {"9007199254740993.0", 9007199254740992.0},
        {"1.7976931348623157e308", 1.7976931348623157e308},
        {"2.2250738585072014e-308", 2.2250738585072014e-308},
        {"4.9406564584124654e-324", 4.9406564584124654e-324},
        {"2.4703282292062328e-324", 4.9406564584124654e-324},
        {"1e-400", 0.0},
        {"-1e-400", -0.0},
        {"0.30000000000000004", 0.30000000000000004},
        {"123456789012345678901234567890e-10", 12345678901234567890.1234567890},
        {"0.000000000000000000000000000000000000000000001e+45", 1.0},
        {"-0.0", -0.0},
        {"1E+2", 100.0},
        {"1e-2", 0.01},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct anvil_json_doc *doc = NULL;
        int rc = s_parse(t, cases[i].text, &doc, NULL);
        if (rc != ANVIL_OK) {
            anvil_json_doc_destroy(doc);
            CHECK_OK(rc);
        }
        double got = anvil_json_double(anvil_json_doc_root(doc));
        bool same = got == cases[i].want && signbit(got) == signbit(cases[i].want);
        anvil_json_doc_destroy(doc);
        if (!same) {
            anvil_test_fail(t, __FILE__, __LINE__, "%s parsed as %.17g, want %.17g", cases[i].text, got, cases[i].want);
            goto done;
        }
    }
done:;
}

TEST(json_parse_strings_and_escapes) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t,
                     "[\"\", \"1234567\", \"12345678\", \"a\\u0000b\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", "
                     "\"\\u00e9\\u20AC\\ud83d\\ude00\", \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"]",
                     &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    CHECK_EQ_U64(anvil_json_len(anvil_json_array_at(r, 0)), 0);
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_array_at(r, 0)), "");
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_array_at(r, 1)), "1234567");
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_array_at(r, 2)), "12345678");
    struct anvil_str_view nul = anvil_json_string(anvil_json_array_at(r, 3));
    CHECK_MEM_EQ(nul.ptr, nul.len, "a\0b");
    CHECK(nul.ptr[3] == '\0');
    struct anvil_str_view esc = anvil_json_string(anvil_json_array_at(r, 4));
    CHECK_MEM_EQ(esc.ptr, esc.len, "\"\\/\b\f\n\r\t");
    struct anvil_str_view uni = anvil_json_string(anvil_json_array_at(r, 5));
    CHECK_MEM_EQ(uni.ptr, uni.len, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    struct anvil_str_view raw = anvil_json_string(anvil_json_array_at(r, 6));
    CHECK_MEM_EQ(raw.ptr, raw.len, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
done:
    anvil_json_doc_destroy(doc);
}

/*
 * Every position of a special byte relative to the scan blocks (16 bytes with
 * SSE2, then 8, then one at a time), every distance from it to the end of the
 * text, through the SIMD scan and the portable one (anvil__json_scalar_only).
 * Its 20,800 parses use the default allocator: the allocation sweep, which
 * reruns a test once per allocation it makes, would be quadratic in them, and
 * the other parse tests sweep the parser's allocations.
 */
TEST(json_parse_string_scan_boundaries) {
    /* NULL decodes: refused at the insert (a control character, a lone continuation or lead byte). */
    static const char *const inserts[] = {"\\n",          "\xc3\xa9", "\\u0041", "\\\"",    "\x01", "\x1f",   "\x7f",
                                          "\xef\xbf\xbf", "\x80",     "\xff",    "\\t\\\\", " ",    "\\/x\\n"};
    static const char *const decoded[] = {"\n",           "\xc3\xa9", "A",  "\"",   NULL, NULL,  "\x7f",
                                          "\xef\xbf\xbf", NULL,       NULL, "\t\\", " ",  "/x\n"};
    bool scalar = anvil__json_scalar_only;
    for (int mode = 0; mode < 2; mode++) {
        anvil__json_scalar_only = mode == 1;
        for (size_t pos = 0; pos < 40; pos++) {
            for (size_t kind = 0; kind < sizeof(inserts) / sizeof(inserts[0]); kind++) {
                for (size_t tail = 0; tail < 20; tail++) {
                    char text[96], want[96];
                    size_t n = 0;
                    text[n++] = '"';
                    memset(text + n, 'x', pos);
                    n += pos;
                    size_t ins = strlen(inserts[kind]);
                    memcpy(text + n, inserts[kind], ins);
                    n += ins;
                    memset(text + n, 'y', tail);
                    n += tail;
                    text[n++] = '"';
                    struct anvil_json_doc *doc = NULL;
                    struct anvil_diag diag = {0};
                    int rc = anvil_json_parse(NULL, text, n, NULL, &doc, &diag);
                    if (!decoded[kind]) {
                        /* Refused where it stands. */
                        anvil_json_doc_destroy(doc);
                        CHECK_STATUS(rc, ANVIL_ESYNTAX);
                        CHECK_EQ_U64(diag.offset, pos + 1);
                        continue;
                    }
                    size_t w = pos;
                    memset(want, 'x', pos);
                    memcpy(want + w, decoded[kind], strlen(decoded[kind]));
                    w += strlen(decoded[kind]);
                    memset(want + w, 'y', tail);
                    w += tail;
                    if (rc != ANVIL_OK) {
                        anvil_json_doc_destroy(doc);
                        CHECK_OK(rc);
                    }
                    struct anvil_str_view got = anvil_json_string(anvil_json_doc_root(doc));
                    bool same = got.len == w && memcmp(got.ptr, want, w) == 0;
                    anvil_json_doc_destroy(doc);
                    CHECK(same);
                }
            }
        }
    }
done:
    anvil__json_scalar_only = scalar;
}

TEST(json_parse_errors_say_where) {
    static const struct {
        const char *text;
        size_t line, column;
        const char *message;
    } cases[] = {
        {"{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':' after the key, found '2'"},
        {"[1, 2,]", 1, 7, "trailing comma before ']'"},
        {"{\"a\": 1,}", 1, 9, "trailing comma before '}'"},
        {"[01]", 1, 2, "leading zeros are not allowed in numbers"},
        {"[1.]", 1, 4, "expected a digit after the decimal point, found ']'"},
        {"[1e+]", 1, 5, "expected a digit in the exponent, found ']'"},
        {"\"abc", 1, 5, "unterminated string"},
        {"\"a\tb\"", 1, 3, "control character U+0009 must be escaped in a string"},
        {"\"\\x\"", 1, 2, "invalid escape: backslash followed by 'x'"},
        {"\"\\u12G4\"", 1, 6, "\\u must be followed by four hex digits"},
        {"\"\\ud800\"", 1, 2, "high surrogate \\u escape not followed by a low surrogate"},
        {"\"\\udc00\"", 1, 2, "low surrogate \\u escape without a high one"},
        {"\"\xc0\xaf\"", 1, 2, "invalid UTF-8 (byte 0xC0)"},
        {"[1] [2]", 1, 5, "unexpected data after the JSON value"},
        {"", 1, 1, "empty document: expected a JSON value"},
        {"   \n ", 2, 2, "empty document: expected a JSON value"},
        {"[tru]", 1, 2, "expected a value, found 't'"},
        {"{1: 2}", 1, 2, "expected a string key, found '1'"},
        {"[1 2]", 1, 4, "expected ',' or ']' after an array item, found '2'"},
        {"{\"a\": 1 \"b\"}", 1, 9, "expected ',' or '}' after an object member, found '\"'"},
        {"[", 1, 2, "expected a value, found end of input"},
        {"-", 1, 2, "expected a digit, found end of input"},
        {"1e999", 1, 1, "number is too large for a double"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct anvil_json_doc *doc = (struct anvil_json_doc *)1;
        struct anvil_diag diag;
        int rc = s_parse(t, cases[i].text, &doc, &diag);
        CHECK(doc == NULL);
        if (rc == ANVIL_ENOMEM) {
            CHECK_OK(rc);
        }
        if (rc != ANVIL_ESYNTAX || diag.code != rc || diag.line != cases[i].line || diag.column != cases[i].column ||
            strcmp(diag.message, cases[i].message) != 0) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: got %s %zu:%zu \"%s\", want %zu:%zu \"%s\"", i,
                            anvil_status_name(rc), diag.line, diag.column, diag.message, cases[i].line, cases[i].column,
                            cases[i].message);
            goto done;
        }
    }
done:;
}

TEST(json_parse_reads_only_len_bytes) {
    struct anvil_json_doc *doc = NULL;
    /* The bytes after len are garbage that would change the result if read. */
    const char text[] = {'[', '1', '2', ']', '9', '9'};
    CHECK_OK(anvil_json_parse(t->alloc, text, 4, NULL, &doc, NULL));
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(anvil_json_doc_root(doc), 0)), 12);
    anvil_json_doc_destroy(doc);
    doc = NULL;
    CHECK_OK(anvil_json_parse(t->alloc, "12", 1, NULL, &doc, NULL));
    CHECK_EQ_INT(anvil_json_int(anvil_json_doc_root(doc)), 1);
    anvil_json_doc_destroy(doc);
    doc = NULL;
    CHECK_STATUS(anvil_json_parse(t->alloc, "\"abc\"", 4, NULL, &doc, NULL), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_json_parse(t->alloc, "tru", 3, NULL, &doc, NULL), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_json_parse(t->alloc, "\"\\u00", 5, NULL, &doc, NULL), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_json_parse(t->alloc, "\"\xe2\x82", 3, NULL, &doc, NULL), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_json_parse(t->alloc, NULL, 0, NULL, &doc, NULL), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_json_parse(t->alloc, NULL, 3, NULL, &doc, NULL), ANVIL_EINVAL);
    CHECK_STATUS(anvil_json_parse(t->alloc, "1", 1, NULL, NULL, NULL), ANVIL_EINVAL);
done:
    anvil_json_doc_destroy(doc);
}

static char *s_nested(struct anvil_test *t, size_t depth, size_t *len) {
    char *text = anvil_mem_acquire(t->alloc, depth * 2 + 1);
    if (text) {
        memset(text, '[', depth);
        memset(text + depth, ']', depth);
        *len = depth * 2;
    }
    return text;
}

TEST(json_parse_depth_limit) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    size_t len = 0;
    char *text = s_nested(t, 512, &len);
    CHECK_ALLOC(text);
    CHECK_OK(anvil_json_parse(t->alloc, text, len, NULL, &doc, &diag));
    anvil_json_doc_destroy(doc);
    doc = NULL;
    anvil_mem_release(t->alloc, text);
    text = s_nested(t, 513, &len);
    CHECK_ALLOC(text);
    CHECK_STATUS(anvil_json_parse(t->alloc, text, len, NULL, &doc, &diag), ANVIL_ELIMIT);
    CHECK_EQ_U64(diag.column, 513);
    CHECK_STR_EQ(diag.message, "nesting deeper than the limit of 512");
    struct anvil_json_parse_options options = {.max_depth = 2};
    CHECK_STATUS(anvil_json_parse(t->alloc, "{\"a\":[[1]]}", 11, &options, &doc, &diag), ANVIL_ELIMIT);
    options.max_depth = ANVIL_JSON_MAX_DEPTH + 1;
    CHECK_STATUS(anvil_json_parse(t->alloc, "1", 1, &options, &doc, &diag), ANVIL_EINVAL);
done:
    anvil_mem_release(t->alloc, text);
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_hundred_thousand_nested_arrays_is_a_clean_error) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    size_t len = 0;
    char *text = s_nested(t, 100000, &len);
    CHECK_ALLOC(text);
    CHECK_STATUS(anvil_json_parse(t->alloc, text, len, NULL, &doc, &diag), ANVIL_ELIMIT);
    /* Even at the highest depth anvil supports, nothing recurses on the C stack. */
    struct anvil_json_parse_options options = {.max_depth = ANVIL_JSON_MAX_DEPTH};
    CHECK_STATUS(anvil_json_parse(t->alloc, text, len, &options, &doc, &diag), ANVIL_ELIMIT);
    CHECK_EQ_U64(diag.offset, ANVIL_JSON_MAX_DEPTH);
done:
    anvil_mem_release(t->alloc, text);
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_string_and_document_limits) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    struct anvil_json_parse_options options = {.max_string_bytes = 4};
    CHECK_OK(anvil_json_parse(t->alloc, "[\"abcd\"]", 8, &options, &doc, &diag));
    anvil_json_doc_destroy(doc);
    doc = NULL;
    CHECK_STATUS(anvil_json_parse(t->alloc, "[\"abcde\"]", 9, &options, &doc, &diag), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "string longer than the limit");
    /* The escaped (slow) path counts decoded bytes. */
    CHECK_OK(anvil_json_parse(t->alloc, "[\"\\n\\n\\n\\n\"]", 12, &options, &doc, &diag));
    anvil_json_doc_destroy(doc);
    doc = NULL;
    CHECK_STATUS(anvil_json_parse(t->alloc, "[\"\\n\\n\\n\\n\\n\"]", 14, &options, &doc, &diag), ANVIL_ELIMIT);
    /* Keys too. */
    CHECK_STATUS(anvil_json_parse(t->alloc, "{\"abcde\":1}", 11, &options, &doc, &diag), ANVIL_ELIMIT);
    struct anvil_json_parse_options small = {.max_document_bytes = 5};
    CHECK_STATUS(anvil_json_parse(t->alloc, "[1, 2]", 6, &small, &doc, &diag), ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "document of 6 bytes is larger than the limit of 5");
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_duplicate_keys_last_wins_in_place) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t, "{\"a\": 1, \"b\": 2, \"a\": 3, \"c\": 4, \"a\": 5}", &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    CHECK_EQ_U64(anvil_json_len(r), 3);
    CHECK(anvil_sv_eq_cstr(anvil_json_member_key(anvil_json_object_at(r, 0)), "a"));
    CHECK_EQ_INT(anvil_json_int(&anvil_json_object_at(r, 0)->value), 5);
    CHECK(anvil_sv_eq_cstr(anvil_json_member_key(anvil_json_object_at(r, 2)), "c"));
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(r, "a")), 5);
done:
    anvil_json_doc_destroy(doc);
}

/*
 * The parser compares an object's keys only when one may repeat (a key last used in this object or
 * in one nested inside it): a repeat across a nested object must still be found, a key shared by
 * siblings or by parent and child is no repeat.
 */
TEST(json_parse_duplicate_keys_across_nested_objects) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    static const char text[] = "{\"a\": 1, \"b\": {\"a\": 2, \"c\": [{\"a\": 0}]}, \"a\": 3}";
    CHECK_OK(s_parse(t, text, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    CHECK_EQ_U64(anvil_json_len(r), 2);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(r, "a")), 3);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(anvil_json_object_get_cstr(r, "b"), "a")), 2);
    anvil_json_doc_destroy(doc);
    doc = NULL;
    struct anvil_json_parse_options strict = {.duplicates = ANVIL_JSON_DUPLICATES_REJECT};
    CHECK_STATUS(anvil_json_parse(t->alloc, text, sizeof text - 1, &strict, &doc, &diag), ANVIL_ESYNTAX);
    CHECK_STR_EQ(diag.message, "duplicate key in object");
    CHECK(memcmp(text + diag.offset, "\"a\": 3", 6) == 0);
    /* Siblings and parent-child share keys freely; a nested object's own repeat is found. */
    static const char ok[] = "[{\"k\": 1, \"v\": {\"k\": 2}}, {\"k\": 3, \"v\": {\"k\": 4}}]";
    CHECK_OK(anvil_json_parse(t->alloc, ok, sizeof ok - 1, &strict, &doc, &diag));
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(anvil_json_array_at(anvil_json_doc_root(doc), 1), "k")), 3);
    anvil_json_doc_destroy(doc);
    doc = NULL;
    static const char inner[] = "{\"x\": {\"k\": 1}, \"k\": 2, \"y\": {\"k\": 3, \"z\": 0, \"k\": 4}}";
    CHECK_OK(s_parse(t, inner, &doc, NULL));
    const struct anvil_json *y = anvil_json_object_get_cstr(anvil_json_doc_root(doc), "y");
    CHECK_EQ_U64(anvil_json_len(y), 2);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(y, "k")), 4);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(anvil_json_doc_root(doc), "k")), 2);
done:
    anvil_json_doc_destroy(doc);
}

/* Keys that share length, first and last byte (one slot of the parser's recent-key cache) stay apart, at every length.
 */
TEST(json_parse_keys_alike_stay_apart) {
    struct anvil_json_doc *doc = NULL;
    static const char *const pairs[][2] = {
        {"aXb", "aYb"},
        {"abXd", "abYd"},
        {"abcXefg", "abcYefg"},
        {"abcXefgh", "abcYefgh"},
        {"abcdefghiXklmno", "abcdefghiYklmno"},
        {"abcdefghijklmnoXqrstuvwxyz", "abcdefghijklmnoYqrstuvwxyz"},
    };
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_byte(&text, '['));
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        /* Two objects, so the second meets the first's keys in the cache. */
        CHECK_OK(anvil_buf_appendf(&text, "%s{\"%s\": 1, \"%s\": 2}, {\"%s\": 3, \"%s\": 4}", i ? ", " : "",
                                   pairs[i][0], pairs[i][1], pairs[i][1], pairs[i][0]));
    }
    CHECK_OK(anvil_buf_append_byte(&text, ']'));
    CHECK_OK(anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const struct anvil_json *first = anvil_json_array_at(r, 2 * i), *second = anvil_json_array_at(r, 2 * i + 1);
        CHECK_EQ_U64(anvil_json_len(first), 2);
        CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(first, pairs[i][0])), 1);
        CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(first, pairs[i][1])), 2);
        CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(second, pairs[i][0])), 4);
        CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(second, pairs[i][1])), 3);
    }
done:
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&text);
}

TEST(json_parse_duplicate_keys_in_large_objects) {
    struct anvil_buf text;
    struct anvil_json_doc *doc = NULL;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_byte(&text, '{'));
    for (int i = 0; i < 40; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "\"k%d\": %d, ", i % 30, i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "\"end\": true}"));
    CHECK_OK(anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    CHECK_EQ_U64(anvil_json_len(r), 31);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(r, "k5")), 35);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(r, "k29")), 29);
    CHECK(anvil_sv_eq_cstr(anvil_json_member_key(anvil_json_object_at(r, 30)), "end"));
    anvil_json_doc_destroy(doc);
    doc = NULL;
    struct anvil_json_parse_options strict = {.duplicates = ANVIL_JSON_DUPLICATES_REJECT};
    struct anvil_diag diag;
    CHECK_STATUS(anvil_json_parse(t->alloc, text.data, text.len, &strict, &doc, &diag), ANVIL_ESYNTAX);
    CHECK_STR_EQ(diag.message, "duplicate key in object");
    CHECK(memcmp(text.data + diag.offset, "\"k0\": 30", 8) == 0);
    CHECK_STATUS(anvil_json_parse(t->alloc, "{\"x\":1,\n \"x\":2}", 15, &strict, &doc, &diag), ANVIL_ESYNTAX);
    CHECK_EQ_U64(diag.line, 2);
    CHECK_EQ_U64(diag.column, 2);
done:
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&text);
}

TEST(json_parse_large_object_lookup_uses_every_key) {
    struct anvil_buf text;
    struct anvil_json_doc *doc = NULL;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_byte(&text, '{'));
    for (int i = 0; i < 1000; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "%s\"key-%d\": %d", i ? "," : "", i, i * 7));
    }
    CHECK_OK(anvil_buf_append_byte(&text, '}'));
    CHECK_OK(anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    for (int i = 0; i < 1000; i++) {
        char key[32];
        snprintf(key, sizeof(key), "key-%d", i);
        const struct anvil_json *v = anvil_json_object_get_cstr(r, key);
        CHECK(v != NULL);
        CHECK_EQ_INT(anvil_json_int(v), i * 7);
    }
    CHECK(anvil_json_object_get_cstr(r, "key-1000") == NULL);
    CHECK(anvil_json_object_get_cstr(r, "") == NULL);
    CHECK(anvil_json_object_get(anvil_json_object_get_cstr(r, "key-1"), "a", 1) == NULL);
done:
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&text);
}

TEST(json_parse_keys_are_shared_within_a_document) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t, "[{\"name\": 1}, {\"name\": 2}, {\"na\\u006de\": 3}]", &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    const struct anvil_json_key *k0 = anvil_json_object_at(anvil_json_array_at(r, 0), 0)->key;
    CHECK(k0 == anvil_json_object_at(anvil_json_array_at(r, 1), 0)->key);
    CHECK(k0 == anvil_json_object_at(anvil_json_array_at(r, 2), 0)->key);
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_lone_surrogates_replaced_on_request) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_json_parse_options options = {.surrogates = ANVIL_JSON_SURROGATES_REPLACE};
    const char *text = "[\"a\\ud800b\", \"\\udc00\", \"\\ud83d\\ude00\"]";
    CHECK_OK(anvil_json_parse(t->alloc, text, strlen(text), &options, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    struct anvil_str_view a = anvil_json_string(anvil_json_array_at(r, 0));
    CHECK_MEM_EQ(a.ptr, a.len,
                 "a\xef\xbf\xbd"
                 "b");
    struct anvil_str_view b = anvil_json_string(anvil_json_array_at(r, 1));
    CHECK_MEM_EQ(b.ptr, b.len, "\xef\xbf\xbd");
    struct anvil_str_view c = anvil_json_string(anvil_json_array_at(r, 2));
    CHECK_MEM_EQ(c.ptr, c.len, "\xf0\x9f\x98\x80");
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_skips_a_utf8_bom) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t, "\xef\xbb\xbf{\"a\": 1}", &doc, NULL));
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(anvil_json_doc_root(doc), "a")), 1);
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_parse_into_a_caller_arena) {
    struct anvil_arena *arena = NULL;
    struct anvil_json a, b;
    struct anvil_diag diag;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_parse_into(arena, t->alloc, "{\"x\": [1, 2]}", 13, NULL, &a, &diag));
    CHECK_OK(anvil_json_parse_into(arena, t->alloc, "[true]", 6, NULL, &b, &diag));
    CHECK_EQ_U64(anvil_json_len(anvil_json_object_get_cstr(&a, "x")), 2);
    CHECK(anvil_json_bool(anvil_json_array_at(&b, 0)));
    CHECK_STATUS(anvil_json_parse_into(arena, t->alloc, "[", 1, NULL, &b, &diag), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_json_parse_into(NULL, t->alloc, "1", 1, NULL, &b, &diag), ANVIL_EINVAL);
done:
    anvil_arena_destroy(arena);
}

TEST(json_parse_arena_limit_is_elimit) {
    struct anvil_arena *arena = NULL;
    struct anvil_json v;
    struct anvil_diag diag;
    struct anvil_arena_options options = {.first_block_size = 256, .max_bytes = 1024};
    CHECK_OK(anvil_arena_new(t->alloc, &options, &arena));
    char text[4096];
    size_t n = 0;
    text[n++] = '[';
    for (int i = 0; i < 200; i++) {
        n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\"string number %d\"", i ? "," : "", i);
    }
    text[n++] = ']';
    CHECK_STATUS(anvil_json_parse_into(arena, t->alloc, text, n, NULL, &v, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "limit") != NULL);
done:
    anvil_arena_destroy(arena);
}

TEST(json_parse_long_numbers_use_the_callers_allocator) {
    /* 300 significant digits: converted through a copy that the counting allocator sees (and the sweep fails). */
    struct anvil_json_doc *doc = NULL;
    char text[400];
    memset(text, '7', 300);
    memcpy(text + 300, ".5e-290", 7);
    CHECK_OK(anvil_json_parse(t->alloc, text, 307, NULL, &doc, NULL));
    double d = anvil_json_double(anvil_json_doc_root(doc));
    CHECK(d > 7.7e9 && d < 7.8e9);
done:
    anvil_json_doc_destroy(doc);
}

/*
 * Parses an exact-size heap copy of the `len` bytes at `text` (no terminator to read by mistake:
 * ASan sees any read past them), then overwrites the copy: the document must not depend on it.
 */
static int s_parse_exact(struct anvil_allocator *alloc, const char *text, size_t len, struct anvil_json_doc **doc) {
    char *copy = malloc(len ? len : 1);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    memcpy(copy, text, len);
    int rc = anvil_json_parse(alloc, copy, len, NULL, doc, NULL);
    memset(copy, 'Z', len);
    free(copy);
    return rc;
}

/*
 * Strings of up to 7 bytes are read with one 8-byte load where 8 input bytes remain: what follows
 * the string in the input must not leak into the value (each is NUL-terminated, its padding zero),
 * and near the input's end nothing is read past it (ASan would see it: the text is an exact-size
 * heap copy).
 */
TEST(json_parse_short_strings_take_only_their_bytes) {
    struct anvil_json_doc *doc = NULL;
    static const char *const docs[] = {
        "[\"\",\"a\",\"ab\",\"abc\",\"abcd\",\"abcde\",\"abcdef\",\"abcdefg\",\"abcdefgh\"]",
        "{\"k\":\"v\",\"kk\":\"vvvvvvv\",\"x\":\"\\u0041\",\"y\":\"\\u00e9\"}",
        "\"abcdefg\"",
        "\"abc\"",
        "\"\"",
        "[\"ab\"]",
    };
    for (size_t d = 0; d < sizeof(docs) / sizeof(docs[0]); d++) {
        CHECK_OK(s_parse_exact(t->alloc, docs[d], strlen(docs[d]), &doc));
        const struct anvil_json *root = anvil_json_doc_root(doc);
        size_t n = anvil_json_is_string(root) ? 1 : anvil_json_len(root);
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json *v = anvil_json_is_array(root)    ? anvil_json_array_at(root, i)
                                         : anvil_json_is_object(root) ? &anvil_json_object_at(root, i)->value
                                                                      : root;
            CHECK(anvil_json_is_string(v));
            size_t vlen = anvil_json_len(v);
            const char *p = anvil_json_string_ptr(v);
            CHECK(p[vlen] == '\0');
            for (size_t j = 0; j < vlen; j++) {
                CHECK(p[j] != 'Z' && p[j] != '"' && p[j] != ',');
            }
            if (vlen < 8) {
                /* Inside the value: the payload past the bytes is zero. */
                unsigned char payload[8];
                memcpy(payload, &v->u, sizeof(payload));
                for (size_t j = vlen; j < sizeof(payload); j++) {
                    CHECK(payload[j] == 0);
                }
            }
        }
        CHECK(anvil_json_string_equals(anvil_json_is_array(root) ? anvil_json_array_at(root, 7) : NULL, "abcdefg", 7) ==
              (d == 0));
        anvil_json_doc_destroy(doc);
        doc = NULL;
    }
done:
    anvil_json_doc_destroy(doc);
}

/*
 * Strings of every length up to 40 (inline, copied by two overlapping moves, and by memcpy), each
 * with distinct bytes, from the input and from an escaped text, in an array and as the whole
 * document in an exact-size buffer (so ASan sees any read past it), both scans.
 */
TEST(json_parse_strings_of_every_short_length) {
    bool scalar = anvil__json_scalar_only;
    struct anvil_json_doc *doc = NULL;
    for (int mode = 0; mode < 2; mode++) {
        anvil__json_scalar_only = mode == 1;
        for (size_t len = 0; len <= 40; len++) {
            char want[48];
            for (size_t i = 0; i < len; i++) {
                want[i] = (char)('A' + (i * 7 + len) % 58);
                want[i] = want[i] == '\\' ? 'z' : want[i];
            }
            for (int form = 0; form < 3; form++) {
                /* 0: ["s","s"]; 1: "s" alone; 2: ["s" with its first byte as \u escape] */
                char buf[160];
                size_t n = 0;
                if (form != 1) {
                    buf[n++] = '[';
                }
                for (int copy = 0; copy < (form == 0 ? 2 : 1); copy++) {
                    if (copy) {
                        buf[n++] = ',';
                    }
                    buf[n++] = '"';
                    size_t from = 0;
                    if (form == 2 && len) {
                        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\u%04x", (unsigned char)want[0]);
                        from = 1;
                    }
                    memcpy(buf + n, want + from, len - from);
                    n += len - from;
                    buf[n++] = '"';
                }
                if (form != 1) {
                    buf[n++] = ']';
                }
                CHECK_OK(s_parse_exact(NULL, buf, n, &doc));
                const struct anvil_json *root = anvil_json_doc_root(doc);
                size_t count = form == 1 ? 1 : anvil_json_len(root);
                CHECK_EQ_U64(count, form == 0 ? 2 : 1);
                for (size_t i = 0; i < count; i++) {
                    const struct anvil_json *v = form == 1 ? root : anvil_json_array_at(root, i);
                    CHECK_EQ_U64(anvil_json_len(v), len);
                    const char *got = anvil_json_string_ptr(v);
                    CHECK(memcmp(got, want, len) == 0 && got[len] == '\0');
                }
                anvil_json_doc_destroy(doc);
                doc = NULL;
            }
        }
    }
done:
    anvil__json_scalar_only = scalar;
    anvil_json_doc_destroy(doc);
}

/* The keys of `a` and `b`, recursively, spelled the same and in the same order. */
static bool s_same_keys(const struct anvil_json *a, const struct anvil_json *b) {
    if (!anvil_json_equal(a, b) || anvil_json_type(a) != anvil_json_type(b)) {
        return false;
    }
    if (anvil_json_is_array(a)) {
        for (size_t i = 0; i < anvil_json_len(a); i++) {
            if (!s_same_keys(anvil_json_array_at(a, i), anvil_json_array_at(b, i))) {
                return false;
            }
        }
    } else if (anvil_json_is_object(a)) {
        for (size_t i = 0; i < anvil_json_len(a); i++) {
            const struct anvil_json_member *x = anvil_json_object_at(a, i), *y = anvil_json_object_at(b, i);
            if (!anvil_sv_eq(anvil_json_member_key(x), anvil_json_member_key(y)) ||
                !s_same_keys(&x->value, &y->value)) {
                return false;
            }
        }
    }
    return true;
}

/*
 * An object's first key is predicted from where the object is (the key it is the value of,
 * directly or as an item of an array that is), and short keys are matched as one 16-byte
 * compare with their quotes. With predictions and without (anvil__json_scalar_only), every
 * document must read the same: objects of one key in different shapes, keys that are
 * prefixes of each other around the 14-byte edge, predictions near the input's end, and a
 * nesting deep enough to move the parser's frames between an array's opening and its objects.
 */
TEST(json_parse_first_keys_predicted_by_place) {
    bool scalar = anvil__json_scalar_only;
    struct anvil_json_doc *with = NULL, *without = NULL;
    char *deep = NULL;
    static const char *const docs[] = {
        "{\"x\":{\"a\":1,\"b\":2},\"y\":[{\"a\":1}],\"z\":{\"x\":{\"b\":1,\"a\":2}},\"x\":{\"b\":3}}",
        "[{\"s\":{\"c\":1,\"n\":2},\"p\":{\"z\":1}},{\"s\":{\"c\":3,\"n\":4},\"p\":{\"z\":2}}]",
        "{\"t\":[{\"k\":1,\"v\":2}],\"u\":[{\"k\":3}],\"t\":[{\"v\":4,\"k\":5}]}",
        "[{\"abcdefghijklm\":1},{\"abcdefghijklmn\":2},{\"abcdefghijklmno\":3},{\"abcdefghijklm\":4}]",
        "[{\"abcdefghijklmn\":1},{\"abcdefghijklm\":2},{\"abcdefghijklmn\":3},{\"abcdefghijklmnop\":4}]",
        "[{\"ab\":1},{\"a\":2},{\"abc\":3},{\"ab\":4},{\"ab\\u0000\":5},{\"ab\":6}]",
        "[[{\"k\":1}],[{\"k\":2}],[[{\"k\":3}]],{\"k\":4}]",
        "[{\"k\":1},{\"k\":2}]",
        "[{\"k\":1},{\"kk\":2}]",
    };
    for (size_t d = 0; d <= sizeof(docs) / sizeof(docs[0]); d++) {
        const char *text = d < sizeof(docs) / sizeof(docs[0]) ? docs[d] : NULL;
        size_t len;
        if (!text) {
            /* [{"k":1}, [[[...]]] deeper than the frames first hold, {"k":2}, {"k":3}] */
            size_t depth = 300;
            deep = malloc(2 * depth + 64);
            CHECK(deep != NULL);
            len = (size_t)sprintf(deep, "[{\"k\":1},");
            memset(deep + len, '[', depth);
            len += depth;
            memset(deep + len, ']', depth);
            len += depth;
            len += (size_t)sprintf(deep + len, ",{\"k\":2},{\"k\":3}]");
            text = deep;
        } else {
            len = strlen(text);
        }
        anvil__json_scalar_only = false;
        CHECK_OK(anvil_json_parse(t->alloc, text, len, NULL, &with, NULL));
        anvil__json_scalar_only = true;
        CHECK_OK(anvil_json_parse(t->alloc, text, len, NULL, &without, NULL));
        anvil__json_scalar_only = scalar;
        CHECK(s_same_keys(anvil_json_doc_root(with), anvil_json_doc_root(without)));
        anvil_json_doc_destroy(with);
        anvil_json_doc_destroy(without);
        with = without = NULL;
    }
done:
    anvil__json_scalar_only = scalar;
    free(deep);
    anvil_json_doc_destroy(with);
    anvil_json_doc_destroy(without);
}

/*
 * Keys are predicted from the previous object of the same container (s_key_head): a parse of the
 * whole array must give, item by item, what a parse of each object alone gives (no predictions
 * carried in), however the keys are spelled.
 */
TEST(json_parse_predicted_keys_read_as_their_text) {
    struct anvil_json_doc *whole = NULL, *alone = NULL;
    static const char *const items[] = {
        "{\"a\":1,\"b\":2}",
        "{\"a\":1,\"b\\\"\":2}",
        "{\"a\\\"\":1}",
        "{\"a\\\"\":1,\"x\":2}",
        "{\"a\\\"\":1,\"x\":2}",
        "{\"ab\":1}",
        "{\"a\":1,\"abc\":2}",
        "{\"\\u0041\":1,\"b\":2}",
        "{\"A\":1,\"b\":2}",
        "{\"A\":1,\"b\":{\"A\":3}}",
        "{\"a\":1,\"b\":2,\"b\":3}",
        "{\"a\":{\"a\":{\"a\":1}},\"a\":2}",
        "{\"\":1,\"\":2}",
        "{\"b\":1,\"a\":2}",
        "{\"caf\\u00e9\":1,\"x\":2}",
        "{\"caf\xc3\xa9\":1,\"x\":2}",
        "{\"a\":1,\"b\":2}",
    };
    char text[2048];
    size_t n = 0;
    text[n++] = '[';
    for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
        n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", i ? "," : "", items[i]);
    }
    text[n++] = ']';
    CHECK_OK(anvil_json_parse(t->alloc, text, n, NULL, &whole, NULL));
    const struct anvil_json *root = anvil_json_doc_root(whole);
    CHECK_EQ_U64(anvil_json_len(root), sizeof(items) / sizeof(items[0]));
    for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
        CHECK_OK(anvil_json_parse(t->alloc, items[i], strlen(items[i]), NULL, &alone, NULL));
        const struct anvil_json *a = anvil_json_array_at(root, i), *b = anvil_json_doc_root(alone);
        CHECK(anvil_json_equal(a, b));
        CHECK_EQ_U64(anvil_json_len(a), anvil_json_len(b));
        for (size_t m = 0; m < anvil_json_len(a); m++) {
            CHECK(anvil_sv_eq(anvil_json_member_key(anvil_json_object_at(a, m)),
                              anvil_json_member_key(anvil_json_object_at(b, m))));
        }
        anvil_json_doc_destroy(alone);
        alone = NULL;
    }
    /* A repeated key is still found when it is the predicted one (rejected, at the repeat). */
    struct anvil_json_parse_options reject = {.duplicates = ANVIL_JSON_DUPLICATES_REJECT};
    struct anvil_diag diag;
    static const char repeat[] = "[{\"a\":1,\"a\":2}]";
    CHECK_STATUS(anvil_json_parse(t->alloc, repeat, strlen(repeat), &reject, &alone, &diag), ANVIL_ESYNTAX);
    static const char repeat2[] = "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2,\"b\":3}]";
    CHECK_STATUS(anvil_json_parse(t->alloc, repeat2, strlen(repeat2), &reject, &alone, &diag), ANVIL_ESYNTAX);
    CHECK_EQ_U64(diag.column, 29);
    /* A prediction never reads past the input: the same error as without one. */
    static const char cut[] = "[{\"ab\":1},{\"ab";
    CHECK_STATUS(anvil_json_parse(t->alloc, cut, strlen(cut), NULL, &alone, &diag), ANVIL_ESYNTAX);
    CHECK(strstr(diag.message, "unterminated") != NULL);
done:
    anvil_json_doc_destroy(whole);
    anvil_json_doc_destroy(alone);
}

/*
 * Appends item `i` of s_levels_text's arrays: ints, strings of growing length, arrays of up to
 * 49 items and objects of up to 39 members (16 or more carry an index), nested.
 */
static void s_levels_item(struct anvil_buf *out, size_t i) {
    char text[64];
    switch (i % 4) {
    case 0: {
        size_t members = i % 40;
        anvil_buf_append(out, "{", 1);
        for (size_t m = 0; m < members; m++) {
            int n = snprintf(text, sizeof text, "%s\"k%zu\":", m ? "," : "", m);
            anvil_buf_append(out, text, (size_t)n);
            if (m % 3 == 0) {
                n = snprintf(text, sizeof text, "[%zu,{\"x\":%zu}]", m, i);
            } else if (m % 3 == 1) {
                n = snprintf(text, sizeof text, "\"%.*s\"", (int)(m % 30), "abcdefghijklmnopqrstuvwxyz0123");
            } else {
                n = snprintf(text, sizeof text, "%zu", i * m);
            }
            anvil_buf_append(out, text, (size_t)n);
        }
        anvil_buf_append(out, "}", 1);
        break;
    }
    case 1: {
        anvil_buf_append(out, "[", 1);
        for (size_t k = 0; k < i % 50; k++) {
            int n = snprintf(text, sizeof text, "%s%zu", k ? "," : "", k);
            anvil_buf_append(out, text, (size_t)n);
        }
        anvil_buf_append(out, "]", 1);
        break;
    }
    default: {
        int n = snprintf(text, sizeof text, "%zu", i);
        anvil_buf_append(out, text, (size_t)n);
    }
    }
}

/* [[item 0 .. item n-1] for each n of `sizes`, then an object of `members` members], compact. */
static void s_levels_text(struct anvil_buf *out, const size_t *sizes, size_t count, size_t members) {
    anvil_buf_append(out, "[", 1);
    for (size_t s = 0; s < count; s++) {
        anvil_buf_append(out, "[", 1);
        for (size_t i = 0; i < sizes[s]; i++) {
            if (i) {
                anvil_buf_append(out, ",", 1);
            }
            s_levels_item(out, i);
        }
        anvil_buf_append(out, "],", 2);
    }
    anvil_buf_append(out, "{", 1);
    for (size_t m = 0; m < members; m++) {
        char text[64];
        int n = snprintf(text, sizeof text, "%s\"member %zu\":[%zu]", m ? "," : "", m, m);
        anvil_buf_append(out, text, (size_t)n);
    }
    anvil_buf_append(out, "}]", 2);
}

/*
 * Each depth's containers are written into a run of arena memory of their own as they are read
 * (json_parse.c, struct s_frame): a container that outgrows its chunk moves to a larger one, and
 * one above 32 KiB to the heap until it closes. Containers of every size across those steps, at
 * several depths, beside each other and inside each other, must read back as their text, with
 * prediction and without; an object too large for a chunk must still find every key.
 */
TEST(json_parse_containers_of_every_size_stay_whole) {
    bool scalar = anvil__json_scalar_only;
    struct anvil_buf text, back;
    struct anvil_json_doc *doc = NULL;
    /* The texts from the default allocator: the sweep fails the parser's allocations, not these. */
    anvil_buf_init(&text, NULL, 0);
    anvil_buf_init(&back, NULL, 0);
    static const size_t sizes[][6] = {
        {0, 1, 2, 3, 4, 5},
        {7, 8, 9, 15, 16, 17},
        {100, 0, 1000, 1, 2047, 2048},
        {2049, 4096, 5000, 3, 9000, 2},
    };
    static const size_t members[] = {0, 15, 16, 1500};
    for (size_t c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
        anvil_buf_clear(&text);
        s_levels_text(&text, sizes[c], 6, members[c]);
        for (int way = 0; way < 2; way++) {
            anvil__json_scalar_only = way == 1;
            struct anvil_diag diag;
            int rc = anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, &diag);
            anvil__json_scalar_only = scalar;
            CHECK_OK(rc);
            anvil_buf_clear(&back);
            CHECK_OK(anvil_json_write(anvil_json_doc_root(doc), ANVIL_JSON_WRITE_COMPACT, &back));
            CHECK(back.len == text.len && memcmp(back.data, text.data, text.len) == 0);
            const struct anvil_json *last = anvil_json_array_at(anvil_json_doc_root(doc), 6);
            CHECK_EQ_U64(anvil_json_len(last), members[c]);
            for (size_t m = 0; m < members[c]; m++) {
                char key[32];
                snprintf(key, sizeof key, "member %zu", m);
                const struct anvil_json *v = anvil_json_array_at(anvil_json_object_get_cstr(last, key), 0);
                CHECK(v != NULL && anvil_json_int(v) == (int64_t)m);
            }
            anvil_json_doc_destroy(doc);
            doc = NULL;
        }
    }
done:
    anvil__json_scalar_only = scalar;
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&text);
    anvil_buf_clean_up(&back);
}

/* Appends "0,1,...,n-1". */
static void s_append_counting(struct anvil_buf *text, int n) {
    for (int i = 0; i < n; i++) {
        char digits[16];
        anvil_buf_append(text, digits, (size_t)snprintf(digits, sizeof digits, "%s%d", i ? "," : "", i));
    }
}

/*
 * What walks over answers rely on (docs/json.md): the containers of one depth lie side by side in
 * document order within a chunk of their depth's run, also after one that outgrew its chunk and
 * was built on the heap; a small object with a repeated key keeps its members in place, and one
 * with an index is stored apart.
 */
TEST(json_parse_containers_of_one_depth_lie_side_by_side) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0); /* not the swept allocator: the parser's allocations are what the sweep fails */
    /* 40 items first: they outgrow the depth's first chunk (64 bytes), so the rest start a larger one. */
    anvil_buf_append(&text, "[[", 2);
    s_append_counting(&text, 40);
    static const char rest[] = "],{\"a\":1,\"b\":[7]},{\"c\":2},[3,4],{\"d\":[8,9]}]";
    anvil_buf_append(&text, rest, sizeof rest - 1);
    CHECK_OK(anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    const struct anvil_json *i0 = anvil_json_array_at(anvil_json_array_at(r, 0), 0);
    const struct anvil_json_member *m1 = anvil_json_object_at(anvil_json_array_at(r, 1), 0);
    const struct anvil_json_member *m2 = anvil_json_object_at(anvil_json_array_at(r, 2), 0);
    const struct anvil_json *i3 = anvil_json_array_at(anvil_json_array_at(r, 3), 0);
    const struct anvil_json_member *m4 = anvil_json_object_at(anvil_json_array_at(r, 4), 0);
    CHECK(anvil_json_int(i0 + 39) == 39);
    CHECK((const void *)m2 == (const void *)(m1 + 2));
    CHECK((const void *)i3 == (const void *)(m2 + 1));
    CHECK((const void *)m4 == (const void *)(i3 + 2));
    /* One depth further: [7] and [8,9], in order, one after the other. */
    const struct anvil_json *b = anvil_json_array_at(anvil_json_object_get_cstr(anvil_json_array_at(r, 1), "b"), 0);
    const struct anvil_json *d = anvil_json_array_at(anvil_json_object_get_cstr(anvil_json_array_at(r, 4), "d"), 0);
    CHECK(d == b + 1);
    anvil_json_doc_destroy(doc);
    doc = NULL;

    /* An object with an index is stored apart (it outgrew the chunk): [[5],{16 members},[2]] keeps the arrays side by
     * side. */
    anvil_buf_clear(&text);
    anvil_buf_append(&text, "[[5],{", 6);
    for (int i = 0; i < ANVIL_JSON_INDEX_MIN; i++) {
        char n[32];
        anvil_buf_append(&text, n, (size_t)snprintf(n, sizeof n, "%s\"k%d\":%d", i ? "," : "", i, i));
    }
    anvil_buf_append(&text, "},[2]]", 6);
    CHECK_OK(anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, NULL));
    r = anvil_json_doc_root(doc);
    CHECK(anvil_json_array_at(anvil_json_array_at(r, 2), 0) == anvil_json_array_at(anvil_json_array_at(r, 0), 0) + 1);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(anvil_json_array_at(r, 1), "k15")), 15);
    anvil_buf_clear(&text);
    anvil_json_doc_destroy(doc);
    doc = NULL;

    /* [[1,2],[0,1,...,4999],[3,4],{"k":1,"k":2},[5]]: the large one goes to the heap and is stored apart. */
    anvil_buf_append(&text, "[[1,2],[", 8);
    s_append_counting(&text, 5000);
    static const char tail[] = "],[3,4],{\"k\":1,\"k\":2},[5]]";
    anvil_buf_append(&text, tail, sizeof tail - 1);
    CHECK_OK(anvil_json_parse(t->alloc, text.data, text.len, NULL, &doc, NULL));
    r = anvil_json_doc_root(doc);
    const struct anvil_json *large = anvil_json_array_at(r, 1);
    const struct anvil_json *third = anvil_json_array_at(anvil_json_array_at(r, 2), 0);
    const struct anvil_json_member *repeat = anvil_json_object_at(anvil_json_array_at(r, 3), 0);
    const struct anvil_json *fifth = anvil_json_array_at(anvil_json_array_at(r, 4), 0);
    CHECK_EQ_U64(anvil_json_len(large), 5000);
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(large, 4999)), 4999);
    CHECK((const void *)repeat == (const void *)(third + 2));
    CHECK_EQ_U64(anvil_json_len(anvil_json_array_at(r, 3)), 1);
    CHECK_EQ_INT(anvil_json_int(&repeat->value), 2);
    CHECK((const void *)fifth == (const void *)(repeat + 1));
done:
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&text);
}

/* With duplicates rejected, the error names the repeat in the object that has it, after nested objects opened and
 * closed. */
TEST(json_parse_rejected_repeat_found_after_nested_objects) {
    struct anvil_json_parse_options strict = {.duplicates = ANVIL_JSON_DUPLICATES_REJECT};
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    static const char *const texts[] = {
        "{\"p\":{\"q\":1,\"r\":{\"q\":2}},\"s\":{\"t\":1,\"u\":[{\"t\":1}],\"t\":2}}",
        "[{\"a\":{\"b\":1,\"c\":2}},{\"d\":3,\"e\":{\"f\":4},\"d\":5}]",
        "{\"x\":[1,{\"y\":2,\"z\":3}],\"w\":0,\"x\":4}",
    };
    static const char *const repeats[] = {"\"t\":2", "\"d\":5", "\"x\":4"};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        CHECK_STATUS(anvil_json_parse(t->alloc, texts[i], strlen(texts[i]), &strict, &doc, &diag), ANVIL_ESYNTAX);
        CHECK_STR_EQ(diag.message, "duplicate key in object");
        CHECK(memcmp(texts[i] + diag.offset, repeats[i], strlen(repeats[i])) == 0);
    }
done:
    anvil_json_doc_destroy(doc);
}
