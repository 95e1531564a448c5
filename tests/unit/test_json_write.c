#include <math.h>

#include "harness.h"

/* Parses `in`, writes it with `flags`, and compares with `want`. */
static bool s_rewrites(struct anvil_test *t, const char *in, unsigned flags, const char *want, int *rc_out) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    int rc = anvil_json_parse(t->alloc, in, strlen(in), NULL, &doc, NULL);
    if (rc == ANVIL_OK) {
        rc = anvil_json_write(anvil_json_doc_root(doc), flags, &out);
    }
    bool same = rc == ANVIL_OK && out.len == strlen(want) && memcmp(out.data, want, out.len) == 0;
    if (rc == ANVIL_OK && !same) {
        fprintf(stderr, "wrote '%s', want '%s'\n", out.data, want);
    }
    *rc_out = rc;
    anvil_buf_clean_up(&out);
    anvil_json_doc_destroy(doc);
    return same;
}

#define CHECK_REWRITES(in, flags, want)                                                                                \
    do {                                                                                                               \
        int rw_rc_;                                                                                                    \
        if (!s_rewrites(t, in, flags, want, &rw_rc_)) {                                                                \
            CHECK_OK(rw_rc_);                                                                                          \
            CHECK(!"output differs");                                                                                  \
        }                                                                                                              \
    } while (0)

TEST(json_write_compact) {
    CHECK_REWRITES(" { \"a\" : [ 1 , true , null ] , \"b\" : { } , \"c\" : [ ] } ", 0,
                   "{\"a\":[1,true,null],\"b\":{},\"c\":[]}");
    CHECK_REWRITES("\"\\u0001\\u001f\\\"\\\\\\/\\b\\f\\n\\r\\t\\u007f\"", 0,
                   "\"\\u0001\\u001f\\\"\\\\/\\b\\f\\n\\r\\t\x7f\"");
    CHECK_REWRITES("\"caf\\u00e9 \\ud83d\\ude00\"", 0, "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
    CHECK_REWRITES("\"a\\u0000b\"", 0, "\"a\\u0000b\"");
done:;
}

TEST(json_write_pretty) {
    CHECK_REWRITES("{\"a\":[1,{\"b\":null}],\"c\":{},\"d\":[]}", ANVIL_JSON_WRITE_PRETTY,
                   "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}");
    CHECK_REWRITES("3", ANVIL_JSON_WRITE_PRETTY, "3");
done:;
}

TEST(json_write_ascii_escapes_non_ascii) {
    CHECK_REWRITES("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", ANVIL_JSON_WRITE_ASCII,
                   "\"caf\\u00e9 \\u20ac \\ud83d\\ude00\"");
    CHECK_REWRITES("{\"\xc3\xa9\":1}", ANVIL_JSON_WRITE_ASCII, "{\"\\u00e9\":1}");
done:;
}

TEST(json_write_numbers_shortest_round_trip) {
    CHECK_REWRITES("[0.1, 1.0, 1e20, 5e-324, 1.7976931348623157e308, -0.0, 123.456, 1e-7, 100.0, 0.30000000000000004]",
                   0, "[0.1,1.0,1e+20,5e-324,1.7976931348623157e+308,-0.0,123.456,1e-07,100.0,0.30000000000000004]");
    CHECK_REWRITES("[-9223372036854775808, 9223372036854775807, 0, -1]", 0,
                   "[-9223372036854775808,9223372036854775807,0,-1]");
    CHECK_REWRITES("[2.2250738585072014e-308, 4.4501477170144023e-308, 1e23, 9007199254740993.0]", 0,
                   "[2.2250738585072014e-308,4.4501477170144023e-308,1e+23,9007199254740992.0]");
done:;
}

TEST(json_write_refuses_non_finite_and_respects_the_cap) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 8);
    struct anvil_json nan = anvil_json_make_double(0.0 / 0.0);
    CHECK_STATUS(anvil_json_write(&nan, 0, &out), ANVIL_EVALUE);
    CHECK_STATUS(anvil_json_write_double(-1.0 / 0.0, &out), ANVIL_EVALUE);
    struct anvil_json s;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_new_string(arena, "0123456789", 10, &s));
    CHECK_STATUS(anvil_json_write(&s, 0, &out), ANVIL_ELIMIT);
    CHECK_STATUS(anvil_json_write(NULL, 0, &out), ANVIL_EINVAL);
done:
    anvil_arena_destroy(arena);
    anvil_buf_clean_up(&out);
}

TEST(json_write_string_helper) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    CHECK_OK(anvil_json_write_string(ANVIL_SV("tab\there"), 0, &out));
    CHECK_STR_EQ(out.data, "\"tab\\there\"");
done:
    anvil_buf_clean_up(&out);
}
