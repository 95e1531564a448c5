#include "harness.h"
#include "json/json_internal.h"

static int s_parse(struct anvil_test *t, const char *text, struct anvil_json_doc **doc) {
    return anvil_json_parse(t->alloc, text, strlen(text), NULL, doc, NULL);
}

TEST(json_equal_ignores_member_order_and_number_form) {
    struct anvil_json_doc *a = NULL, *b = NULL;
    CHECK_OK(s_parse(t, "{\"x\": [1, 2.0, {\"p\": null, \"q\": \"s\"}], \"y\": true}", &a));
    CHECK_OK(s_parse(t, "{\"y\": true, \"x\": [1.0, 2, {\"q\": \"s\", \"p\": null}]}", &b));
    CHECK(anvil_json_equal(anvil_json_doc_root(a), anvil_json_doc_root(b)));
    CHECK_EQ_INT(anvil_json_compare(anvil_json_doc_root(a), anvil_json_doc_root(b)), 0);
done:
    anvil_json_doc_destroy(a);
    anvil_json_doc_destroy(b);
}

TEST(json_equal_numbers_exactly) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t,
                     "[9007199254740993, 9007199254740992.0, 9007199254740992, -0.0, 0, 1e300, "
                     "9223372036854775807, 9223372036854775808.0, -9223372036854775808, -9223372036854775808.0, "
                     "0.5, 1]",
                     &doc));
    const struct anvil_json *r = anvil_json_doc_root(doc);
#define AT(i) anvil_json_array_at(r, i)
    CHECK(!anvil_json_equal(AT(0), AT(1))); /* 2^53+1 is not the double 2^53 */
    CHECK(anvil_json_compare(AT(0), AT(1)) > 0);
    CHECK(anvil_json_equal(AT(1), AT(2)));       /* 2^53 == 2^53.0 */
    CHECK(anvil_json_equal(AT(3), AT(4)));       /* -0.0 == 0 */
    CHECK(anvil_json_compare(AT(5), AT(6)) > 0); /* 1e300 > INT64_MAX */
    CHECK(anvil_json_compare(AT(6), AT(7)) < 0); /* INT64_MAX < 2^63 */
    CHECK(anvil_json_equal(AT(8), AT(9)));       /* INT64_MIN == -2^63 */
    CHECK(anvil_json_compare(AT(10), AT(11)) < 0);
    CHECK(anvil_json_compare(AT(11), AT(10)) > 0);
#undef AT
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_equal_distinguishes) {
    static const char *const values[] = {
        "null", "false", "true",   "0",  "1",          "\"\"",       "\"a\"",      "\"a\\u0000\"",
        "[]",   "[1]",   "[1, 2]", "{}", "{\"a\": 1}", "{\"a\": 2}", "{\"b\": 1}", "{\"a\": 1, \"b\": 1}",
    };
    size_t n = sizeof(values) / sizeof(values[0]);
    struct anvil_json_doc *docs[16] = {0};
    for (size_t i = 0; i < n; i++) {
        CHECK_OK(s_parse(t, values[i], &docs[i]));
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            bool eq = anvil_json_equal(anvil_json_doc_root(docs[i]), anvil_json_doc_root(docs[j]));
            CHECK(eq == (i == j));
        }
    }
done:
    for (size_t i = 0; i < n; i++) {
        anvil_json_doc_destroy(docs[i]);
    }
}

TEST(json_compare_is_a_total_order) {
    /* A sample with ties across number forms and objects differing in member order. */
    static const char *const values[] = {
        "null",
        "true",
        "false",
        "-1",
        "0",
        "-0.0",
        "0.5",
        "1",
        "1.0",
        "1e300",
        "-1e300",
        "\"\"",
        "\"Z\"",
        "\"a\"",
        "\"ab\"",
        "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ufffd\"",
        "[]",
        "[0]",
        "[0, 1]",
        "[1]",
        "[\"a\"]",
        "{}",
        "{\"a\": 1}",
        "{\"b\": 0}",
        "{\"a\": 1, \"b\": 2}",
        "{\"b\": 2, \"a\": 1}",
        "{\"a\": 2, \"b\": 1}",
        "{\"a\": 1, \"c\": 0}",
    };
    enum { N = sizeof(values) / sizeof(values[0]) };
    struct anvil_json_doc *docs[N] = {0};
    for (size_t i = 0; i < N; i++) {
        CHECK_OK(s_parse(t, values[i], &docs[i]));
    }
    for (size_t i = 0; i < N; i++) {
        const struct anvil_json *a = anvil_json_doc_root(docs[i]);
        for (size_t j = 0; j < N; j++) {
            const struct anvil_json *b = anvil_json_doc_root(docs[j]);
            int ab = anvil_json_compare(a, b);
            CHECK(ab == -anvil_json_compare(b, a));     /* antisymmetric */
            CHECK((ab == 0) == anvil_json_equal(a, b)); /* consistent with equality */
            for (size_t k = 0; k < N; k++) {
                const struct anvil_json *c = anvil_json_doc_root(docs[k]);
                if (ab <= 0 && anvil_json_compare(b, c) <= 0) {
                    CHECK(anvil_json_compare(a, c) <= 0); /* transitive */
                }
            }
        }
    }
done:
    for (size_t i = 0; i < N; i++) {
        anvil_json_doc_destroy(docs[i]);
    }
}

TEST(json_compare_orders_types_numbers_and_code_points) {
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(s_parse(t, "[null, false, true, -5, 2.5, 3, \"z\", \"\\u00e9\", \"\\ud83d\\ude00\", [], {}]", &doc));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    for (size_t i = 0; i + 1 < anvil_json_len(r); i++) {
        CHECK(anvil_json_compare(anvil_json_array_at(r, i), anvil_json_array_at(r, i + 1)) < 0);
    }
done:
    anvil_json_doc_destroy(doc);
}

TEST(json_make_values_without_storage) {
    struct anvil_json v = anvil_json_make_int(-7);
    CHECK(anvil_json_is_int(&v) && anvil_json_int(&v) == -7 && anvil_json_double(&v) == -7.0);
    v = anvil_json_make_double(2.5);
    CHECK(!anvil_json_is_int(&v) && anvil_json_double(&v) == 2.5 && anvil_json_int(&v) == 0);
    v = anvil_json_make_bool(true);
    CHECK(anvil_json_bool(&v));
    v = anvil_json_make_null();
    CHECK(anvil_json_is_null(&v) && !anvil_json_bool(&v) && anvil_json_len(&v) == 0);
    CHECK_STR_EQ(anvil_json_string_ptr(&v), "");
    CHECK(anvil_json_object_get_cstr(&v, "a") == NULL);
    CHECK(anvil_json_object_at(&v, 0) == NULL);
    CHECK_STATUS(anvil_json_make_double_checked(1.0 / 0.0, &v), ANVIL_EVALUE);
    CHECK_STATUS(anvil_json_make_double_checked(0.0 / 0.0, &v), ANVIL_EVALUE);
    CHECK_OK(anvil_json_make_double_checked(1.25, &v));
    CHECK(anvil_json_double(&v) == 1.25);
done:;
}

TEST(json_new_string_and_array_and_copy) {
    struct anvil_arena *arena = NULL, *other = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_json s, arr, copy;
    struct anvil_json *items;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &other));
    CHECK_OK(anvil_json_new_string(arena, "a longer string value", 21, &s));
    CHECK_STR_EQ(anvil_json_string_ptr(&s), "a longer string value");
    CHECK_STATUS(anvil_json_new_string(arena, "\xff", 1, &s), ANVIL_EVALUE);
    CHECK_OK(anvil_json_new_array(arena, 3, &arr, &items));
    CHECK(anvil_json_is_null(&items[2]));
    items[0] = anvil_json_make_int(1);
    CHECK_OK(anvil_json_new_string(arena, "short", 5, &items[1]));
    CHECK_OK(s_parse(t,
                     "{\"k\": [1, {\"deep\": \"value that is long\"}], \"big\": {\"a0\":0,\"a1\":1,\"a2\":2,"
                     "\"a3\":3,\"a4\":4,\"a5\":5,\"a6\":6,\"a7\":7,\"a8\":8,\"a9\":9,\"b0\":0,\"b1\":1,\"b2\":2,"
                     "\"b3\":3,\"b4\":4,\"b5\":5,\"b6\":6}}",
                     &doc));
    items[2] = *anvil_json_doc_root(doc);
    CHECK_OK(anvil_json_copy(other, &arr, &copy));
    anvil_json_doc_destroy(doc); /* the copy must not depend on it */
    doc = NULL;
    anvil_arena_destroy(arena);
    arena = NULL;
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(&copy, 0)), 1);
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_array_at(&copy, 1)), "short");
    const struct anvil_json *obj = anvil_json_array_at(&copy, 2);
    const struct anvil_json *deep = anvil_json_array_at(anvil_json_object_get_cstr(obj, "k"), 1);
    CHECK_STR_EQ(anvil_json_string_ptr(anvil_json_object_get_cstr(deep, "deep")), "value that is long");
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(anvil_json_object_get_cstr(obj, "big"), "b6")), 6);
done:
    anvil_json_doc_destroy(doc);
    anvil_arena_destroy(arena);
    anvil_arena_destroy(other);
}

/* anvil_json_string_equals(): the inline bytes of short strings by the tag and a word compare, every other string by
 * its bytes, and never true for a non-string or a different length. */
TEST(json_string_equals) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_json v;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    static const char *const texts[] = {"", "a", "running", "pending", "ACTIVE", "8 bytes!", "a longer string value"};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        CHECK_OK(anvil_json_new_string(arena, texts[i], strlen(texts[i]), &v));
        for (size_t j = 0; j < sizeof(texts) / sizeof(texts[0]); j++) {
            CHECK(anvil_json_string_equals(&v, texts[j], strlen(texts[j])) == (i == j));
        }
        /* The same bytes held elsewhere (a key's, borrowed): compared by bytes, same answers. */
        struct anvil_json borrowed = anvil__json_borrowed_string(texts[i], strlen(texts[i]));
        for (size_t j = 0; j < sizeof(texts) / sizeof(texts[0]); j++) {
            CHECK(anvil_json_string_equals(&borrowed, texts[j], strlen(texts[j])) == (i == j));
        }
        /* A prefix or an extension of the bytes is another string. */
        size_t n = strlen(texts[i]);
        if (n > 0) {
            CHECK(!anvil_json_string_equals(&v, texts[i], n - 1));
        }
    }
    /* Bytes after the length do not count; NUL inside does. */
    CHECK_OK(anvil_json_new_string(arena, "ab\0c", 4, &v));
    CHECK(anvil_json_string_equals(&v, "ab\0c", 4));
    CHECK(!anvil_json_string_equals(&v, "ab\0d", 4));
    CHECK(!anvil_json_string_equals(&v, "ab", 2));
    CHECK(anvil_json_string_equals(&v, "ab\0cXYZ", 4));
    /* Non-strings, whatever their payload holds. */
    CHECK(!anvil_json_string_equals(NULL, "", 0));
    struct anvil_json none = anvil_json_make_null(), no = anvil_json_make_bool(false);
    CHECK(!anvil_json_string_equals(&none, "", 0));
    CHECK(!anvil_json_string_equals(&no, "", 0));
    struct anvil_json number = anvil_json_make_int(0x676e696e6e7572); /* "running" as a little-endian word */
    CHECK(!anvil_json_string_equals(&number, "running", 7));
    /* Parsed strings, escaped or not, and an empty array (a payload of zeros). */
    CHECK_OK(s_parse(t, "[\"running\", \"r\\u0075nning\", \"run\", [], {}, \"\"]", &doc));
    const struct anvil_json *root = anvil_json_doc_root(doc);
    CHECK(anvil_json_string_equals(anvil_json_array_at(root, 0), "running", 7));
    CHECK(anvil_json_string_equals(anvil_json_array_at(root, 1), "running", 7));
    CHECK(!anvil_json_string_equals(anvil_json_array_at(root, 2), "running", 7));
    CHECK(anvil_json_string_equals(anvil_json_array_at(root, 2), "run", 3));
    CHECK(!anvil_json_string_equals(anvil_json_array_at(root, 3), "", 0));
    CHECK(!anvil_json_string_equals(anvil_json_array_at(root, 4), "", 0));
    CHECK(anvil_json_string_equals(anvil_json_array_at(root, 5), "", 0));
done:
    anvil_json_doc_destroy(doc);
    anvil_arena_destroy(arena);
}

/* The word of `len` (< 8) bytes as a value keeps them: the bytes in memory order, then zeros. */
static uint64_t s_word_of(const char *s, size_t len) {
    unsigned char bytes[8] = {0};
    memcpy(bytes, s, len);
    uint64_t word;
    memcpy(&word, bytes, sizeof(word));
    return word;
}

/*
 * anvil_json_string_equals_word(): ANVIL_JSON_WORD() is the word a short
 * string is kept in (in this machine's byte order); every maker of short
 * strings leaves the bytes after them zero, so the word compare gives what
 * anvil_json_string_equals() gives, for parsed strings (read by the masked
 * load and, at the input's end, copied), built ones, made ones and strings
 * kept elsewhere; never true for a non-string.
 */
TEST(json_string_equals_word) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *doc = NULL, *tail = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json built_array;
    const struct anvil_json *built = &built_array;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK(ANVIL_JSON_WORD('r', 'u', 'n', 'n', 'i', 'n', 'g') == s_word_of("running", 7));
    CHECK(ANVIL_JSON_WORD('O', 'K', 0, 0, 0, 0, 0) == s_word_of("OK", 2));
    CHECK(ANVIL_JSON_WORD(0, 0, 0, 0, 0, 0, 0) == 0);
    CHECK(ANVIL_JSON_WORD(0xe2, 0x82, 0xac, 'x', 0, 'y', 0x7f) == s_word_of("\xe2\x82\xacx\0y\x7f", 7));
    static const char *const texts[] = {"", "a", "ab", "run", "ACTIVE", "pending", "running", "ab\0c", "8 bytes!"};
    static const size_t lens[] = {0, 1, 2, 3, 6, 7, 7, 4, 8};
    size_t count = sizeof(texts) / sizeof(texts[0]);
    /* One document with each string followed by more input, one whose last string ends the input. */
    CHECK_OK(s_parse(
        t, "[\"\", \"a\", \"ab\", \"run\", \"ACTIVE\", \"pending\", \"running\", \"ab\\u0000c\", \"8 bytes!\"]", &doc));
    CHECK_OK(s_parse(t, "\"run\"", &tail));
    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_OK(anvil_json_builder_begin_array(b));
    for (size_t i = 0; i < count; i++) {
        CHECK_OK(anvil_json_builder_string(b, texts[i], lens[i]));
    }
    CHECK_OK(anvil_json_builder_end_array(b));
    CHECK_OK(anvil_json_builder_finish(b, &built_array));
    for (size_t i = 0; i < count; i++) {
        struct anvil_json made, elsewhere = anvil__json_borrowed_string(texts[i], lens[i]);
        CHECK_OK(anvil_json_new_string(arena, texts[i], lens[i], &made));
        const struct anvil_json *values[] = {anvil_json_array_at(anvil_json_doc_root(doc), i),
                                             anvil_json_array_at(built, i), &made, &elsewhere};
        for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
            CHECK(anvil_json_string_equals(values[k], texts[i], lens[i]));
            for (size_t j = 0; j < count; j++) {
                if (lens[j] < 8) {
                    bool want = anvil_json_string_equals(values[k], texts[j], lens[j]);
                    CHECK(anvil_json_string_equals_word(values[k], texts[j], lens[j], s_word_of(texts[j], lens[j])) ==
                          want);
                    CHECK(want == (i == j));
                }
            }
        }
    }
    CHECK(
        anvil_json_string_equals_word(anvil_json_doc_root(tail), "run", 3, ANVIL_JSON_WORD('r', 'u', 'n', 0, 0, 0, 0)));
    CHECK(!anvil_json_string_equals_word(anvil_json_doc_root(tail), "ru", 2, ANVIL_JSON_WORD('r', 'u', 0, 0, 0, 0, 0)));
    /* Non-strings, whatever their payload holds, and no value at all. */
    struct anvil_json number = anvil_json_make_int((int64_t)s_word_of("running", 7)), empty = anvil_json_make_null();
    CHECK(!anvil_json_string_equals_word(&number, "running", 7, s_word_of("running", 7)));
    CHECK(!anvil_json_string_equals_word(&empty, "", 0, 0));
    CHECK(!anvil_json_string_equals_word(NULL, "", 0, 0));
done:
    anvil_json_builder_destroy(b);
    anvil_json_doc_destroy(doc);
    anvil_json_doc_destroy(tail);
    anvil_arena_destroy(arena);
}
