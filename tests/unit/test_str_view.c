#include "harness.h"

TEST(sv_equality_and_compare) {
    struct anvil_str_view a = ANVIL_SV("abc");
    CHECK(anvil_sv_eq(a, anvil_sv("abcdef", 3)));
    CHECK(!anvil_sv_eq(a, ANVIL_SV("abd")));
    CHECK(anvil_sv_eq_cstr(a, "abc"));
    CHECK(!anvil_sv_eq_cstr(a, "ab"));
    CHECK(anvil_sv_eq_ascii_nocase(ANVIL_SV("TableExists"), ANVIL_SV("tableexists")));
    CHECK(!anvil_sv_eq_ascii_nocase(ANVIL_SV("a"), ANVIL_SV("ab")));
    CHECK(anvil_sv_cmp(ANVIL_SV("ab"), ANVIL_SV("abc")) < 0);
    CHECK(anvil_sv_cmp(ANVIL_SV("b"), ANVIL_SV("abc")) > 0);
    CHECK(anvil_sv_cmp(ANVIL_SV(""), ANVIL_SV("")) == 0);
    /* Byte order: U+00E9 (0xC3 0xA9) sorts after 'z'. */
    CHECK(anvil_sv_cmp(ANVIL_SV("\xc3\xa9"), ANVIL_SV("z")) > 0);
    CHECK(anvil_sv_eq(anvil_sv_from_cstr(NULL), ANVIL_SV("")));
    CHECK(anvil_sv_eq(anvil_sv(NULL, 5), ANVIL_SV("")));
    CHECK(anvil_sv_eq(ANVIL_SV("a\0b"), anvil_sv("a\0b", 3)));
done:;
}

TEST(sv_prefix_suffix_find_slice_trim) {
    struct anvil_str_view s = ANVIL_SV("smithy.api#String");
    CHECK(anvil_sv_starts_with(s, ANVIL_SV("smithy.")));
    CHECK(anvil_sv_ends_with(s, ANVIL_SV("#String")));
    CHECK(!anvil_sv_ends_with(ANVIL_SV("g"), s));
    CHECK_EQ_U64(anvil_sv_find_byte(s, 0, '#'), 10);
    CHECK_EQ_U64(anvil_sv_find_byte(s, 11, '#'), SIZE_MAX);
    CHECK_EQ_U64(anvil_sv_find_byte(s, 1000, '#'), SIZE_MAX);
    CHECK(anvil_sv_eq_cstr(anvil_sv_slice(s, 11, 100), "String"));
    CHECK(anvil_sv_slice(s, 100, 5).len == 0);
    CHECK(anvil_sv_eq_cstr(anvil_sv_trim(ANVIL_SV(" \t x y \r\n")), "x y"));
    CHECK(anvil_sv_trim(ANVIL_SV("   ")).len == 0);
done:;
}

TEST(sv_parse_u64_is_strict) {
    uint64_t v = 0;
    CHECK_OK(anvil_sv_parse_u64(ANVIL_SV("0"), 10, &v));
    CHECK_EQ_U64(v, 0);
    CHECK_OK(anvil_sv_parse_u64(ANVIL_SV("18446744073709551615"), UINT64_MAX, &v));
    CHECK_EQ_U64(v, UINT64_MAX);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV("18446744073709551616"), UINT64_MAX, &v), ANVIL_ELIMIT);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV("11"), 10, &v), ANVIL_ELIMIT);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV(""), 10, &v), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV("-1"), 10, &v), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV(" 1"), 10, &v), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV("1e3"), 10000, &v), ANVIL_ESYNTAX);
    CHECK_STATUS(anvil_sv_parse_u64(ANVIL_SV("99999999999999999999999x"), UINT64_MAX, &v), ANVIL_ESYNTAX);
done:;
}
