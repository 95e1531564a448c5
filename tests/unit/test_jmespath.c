/*
 * JMESPath semantics that the compliance suite does not pin down and that
 * other engines get wrong (research/jmespath.md section 5), one test each.
 */

#include "harness.h"

/* Evaluates `expr` on `input` and compares with `want` (JSON); false = mismatch (printed). */
static int s_check(struct anvil_test *t, const char *expr, const char *input, const char *want, int want_rc) {
    struct anvil_jmespath *jp = NULL;
    struct anvil_json_doc *in = NULL, *expected = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    struct anvil_json got;
    int rc = anvil_jmespath_compile(t->alloc, expr, strlen(expr), NULL, &jp, &diag);
    if (rc == ANVIL_OK) {
        rc = anvil_json_parse(t->alloc, input, strlen(input), NULL, &in, NULL);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(t->alloc, NULL, &arena);
    }
    if (rc == ANVIL_OK && jp) {
        rc = anvil_jmespath_search(jp, anvil_json_doc_root(in), arena, &got, &diag);
    }
    int result = ANVIL_OK;
    if (rc == ANVIL_ENOMEM) {
        result = ANVIL_ENOMEM;
    } else if (rc != want_rc) {
        fprintf(stderr, "%s: got %s (%s), want %s\n", expr, anvil_status_name(rc), diag.message,
                anvil_status_name(want_rc));
        result = ANVIL_EINTERNAL;
    } else if (rc == ANVIL_OK) {
        int prc = anvil_json_parse(t->alloc, want, strlen(want), NULL, &expected, NULL);
        if (prc != ANVIL_OK) {
            result = prc;
        } else if (!anvil_json_equal(&got, anvil_json_doc_root(expected)) ||
                   anvil_json_is_int(&got) != anvil_json_is_int(anvil_json_doc_root(expected))) {
            struct anvil_buf b;
            anvil_buf_init(&b, t->alloc, 0);
            anvil_json_write(&got, 0, &b);
            fprintf(stderr, "%s: got %s, want %s\n", expr, b.data ? b.data : "?", want);
            anvil_buf_clean_up(&b);
            result = ANVIL_EINTERNAL;
        }
    }
    anvil_json_doc_destroy(expected);
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(in);
    anvil_jmespath_destroy(jp);
    return result;
}

#define EVAL(expr, input, want) CHECK_OK(s_check(t, expr, input, want, ANVIL_OK))
#define FAILS(expr, input, status) CHECK_OK(s_check(t, expr, input, "null", status))

TEST(jmespath_sort_is_numeric_and_by_code_point) {
    EVAL("sort(@)", "[10, 9, 1, 100, -5, 2.5]", "[-5, 1, 2.5, 9, 10, 100]");
    EVAL("sort(@)", "[\"\\uff5a\", \"\\ud83d\\ude00\", \"\\u00e9\", \"e\", \"z\", \"B\"]",
         "[\"B\", \"e\", \"z\", \"\\u00e9\", \"\\uff5a\", \"\\ud83d\\ude00\"]");
    EVAL("max(@)", "[\"\\uff5a\", \"\\ud83d\\ude00\"]", "\"\\ud83d\\ude00\"");
    EVAL("max(@)", "[10, 9, 100]", "100");
    EVAL("min(@)", "[10, 9.5, 100]", "9.5");
    EVAL("sort(@)", "[9007199254740993, 9007199254740992.0]", "[9007199254740992.0, 9007199254740993]");
    FAILS("sort(@)", "[1, \"x\"]", ANVIL_ETYPE);
done:;
}

TEST(jmespath_sort_by_is_stable_and_typed) {
    EVAL("sort_by(@, &k)[].i",
         "[{\"k\":1,\"i\":0},{\"k\":0,\"i\":1},{\"k\":1,\"i\":2},{\"k\":0,\"i\":3},{\"k\":1,\"i\":4},"
         "{\"k\":0,\"i\":5},{\"k\":1,\"i\":6},{\"k\":0,\"i\":7}]",
         "[1, 3, 5, 7, 0, 2, 4, 6]");
    EVAL("sort_by(@, &k)[].k", "[{\"k\":\"b\"},{\"k\":\"a\"}]", "[\"a\", \"b\"]");
    FAILS("sort_by(@, &k)", "[{\"k\":1},{\"k\":\"a\"}]", ANVIL_ETYPE);
    FAILS("sort_by(@, &k)", "[{\"k\":null}]", ANVIL_ETYPE);
    EVAL("max_by(@, &k).i", "[{\"k\":2,\"i\":0},{\"k\":2,\"i\":1}]", "0");
    EVAL("min_by(@, &k).i", "[{\"k\":\"b\",\"i\":0},{\"k\":\"a\",\"i\":1}]", "1");
    EVAL("max_by(@, &k)", "[]", "null");
    FAILS("max_by(@, &k)", "[{\"k\":true}]", ANVIL_ETYPE);
done:;
}

TEST(jmespath_contains_uses_deep_equality) {
    EVAL("contains(@, `[1]`)", "[[1]]", "true");
    EVAL("contains(@, `1.0`)", "[1, 2]", "true");
    EVAL("contains(@, `{\"b\":2,\"a\":1}`)", "[{\"a\":1,\"b\":2}]", "true");
    EVAL("contains('abc', 'b')", "null", "true");
    EVAL("contains('', '')", "null", "true");
    EVAL("contains('abc', `1`)", "null", "false");
    FAILS("contains(`null`, 'a')", "null", ANVIL_ETYPE);
done:;
}

TEST(jmespath_aggregates_of_empty_arrays) {
    EVAL("avg(@)", "[]", "null");
    EVAL("sum(@)", "[]", "0");
    EVAL("max(@)", "[]", "null");
    EVAL("min(@)", "[]", "null");
    EVAL("avg(@)", "[1, 2]", "1.5");
    EVAL("sum(@)", "[1, 2.5]", "3.5");
    EVAL("sum(@)", "[9223372036854775807, 1]", "9223372036854775808.0");
done:;
}

TEST(jmespath_to_number_accepts_only_json_numbers) {
    static const char *const rejected[] = {"' 12 '", "'0x10'", "'1_000'", "'inf'", "'NaN'", "''",   "'1e400'",
                                           "'5.'",   "'+5'",   "'.5'",    "'007'", "'-'",   "'1e'", "'\\u0661\\u0662'"};
    for (size_t i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
        char expr[64];
        snprintf(expr, sizeof(expr), "to_number(%s)", rejected[i]);
        EVAL(expr, "null", "null");
    }
    EVAL("to_number('12')", "null", "12");
    EVAL("to_number('-1.5e3')", "null", "-1500.0");
    EVAL("to_number('0')", "null", "0");
    EVAL("to_number(`3`)", "null", "3");
    EVAL("to_number(`true`)", "null", "null");
done:;
}

TEST(jmespath_strings_by_code_point) {
    EVAL("length('\\ud83d\\ude00')", "null", "12"); /* raw string: the escape is not decoded */
    EVAL("length(@)", "\"\\ud83d\\ude00\"", "1");
    EVAL("reverse(@)", "\"a\\ud83d\\ude00b\\u00e9\"", "\"\\u00e9b\\ud83d\\ude00a\"");
    EVAL("length(`\"a\\u0000b\"`)", "null", "3");
    EVAL("reverse(@)", "[1, 2, 3]", "[3, 2, 1]");
    EVAL("length(@)", "{\"a\": 1, \"b\": 2}", "2");
    FAILS("length(`null`)", "null", ANVIL_ETYPE);
done:;
}

TEST(jmespath_object_order_is_kept) {
    EVAL("keys(@)", "{\"b\":1,\"a\":2,\"c\":3}", "[\"b\", \"a\", \"c\"]");
    EVAL("values(@)", "{\"b\":1,\"a\":2,\"c\":3}", "[1, 2, 3]");
    EVAL("*", "{\"b\":1,\"a\":2,\"c\":3}", "[1, 2, 3]");
    EVAL("merge(@, `{\"a\": 9}`) | keys(@)", "{\"b\":1,\"a\":2}", "[\"b\", \"a\"]");
    EVAL("merge(@, `{\"a\": 9}`).a", "{\"b\":1,\"a\":2}", "9");
    FAILS("merge()", "null", ANVIL_EARITY);
done:;
}

TEST(jmespath_never_changes_its_input) {
    struct anvil_jmespath *jp = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_buf before, after;
    anvil_buf_init(&before, t->alloc, 0);
    anvil_buf_init(&after, t->alloc, 0);
    const char *input = "{\"a\": [3, 1, 2], \"b\": [\"z\", \"a\"], \"c\": {\"y\": 1, \"x\": 2}}";
    const char *expr = "[sort(a), reverse(a), sort_by(a, &@), sort(b), keys(c), merge(c, `{\"x\": 0}`)]";
    CHECK_OK(anvil_json_parse(t->alloc, input, strlen(input), NULL, &doc, NULL));
    CHECK_OK(anvil_json_write(anvil_json_doc_root(doc), 0, &before));
    CHECK_OK(anvil_jmespath_compile(t->alloc, expr, strlen(expr), NULL, &jp, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_json result;
    CHECK_OK(anvil_jmespath_search(jp, anvil_json_doc_root(doc), arena, &result, NULL));
    CHECK_OK(anvil_json_write(anvil_json_doc_root(doc), 0, &after));
    CHECK(before.len == after.len && memcmp(before.data, after.data, before.len) == 0);
done:
    anvil_buf_clean_up(&before);
    anvil_buf_clean_up(&after);
    anvil_arena_destroy(arena);
    anvil_jmespath_destroy(jp);
    anvil_json_doc_destroy(doc);
}

TEST(jmespath_ordering_is_for_numbers_only) {
    EVAL("'a' < 'b'", "null", "null");
    EVAL("`null` < `1`", "null", "null");
    EVAL("`[]` < `[1]`", "null", "null");
    EVAL("`1` < `2.5`", "null", "true");
    EVAL("[?v > `1`].v", "[{\"v\": 2}, {\"v\": \"3\"}, {\"v\": 1.5}, {\"v\": null}]", "[2, 1.5]");
    EVAL("`1` == `1.0`", "null", "true");
    EVAL("`true` == `1`", "null", "false");
    EVAL("`{\"a\":1,\"b\":2}` == `{\"b\":2,\"a\":1}`", "null", "true");
done:;
}

/* A filter's condition is read for its truth without making its value: every way to get it must agree. */
TEST(jmespath_filter_conditions_by_truth) {
    static const char items[] = "[{\"a\": 1, \"b\": \"x\", \"c\": [1], \"d\": {\"e\": [{\"f\": 2}]}}, "
                                "{\"a\": 2.5, \"b\": \"\", \"c\": [], \"d\": null}, "
                                "{\"a\": \"1\", \"b\": \"longer than seven\", \"d\": {\"e\": []}}, 7, null]";
    EVAL("[?a == `1`].a", items, "[1]");
    EVAL("[?a == `1.0`].a", items, "[1]");
    EVAL("[?a != `1`].a", items, "[2.5, \"1\"]");   /* 7 and null have no a: null != 1 is true, null dropped */
    EVAL("length([?a != `1`])", items, "3");        /* the null item is kept, then dropped as a projection's null */
    EVAL("[?a < `2`].a", items, "[1]");             /* "1" < 2 is null: not kept */
    EVAL("[?!(a < `2`)].a", items, "[2.5, \"1\"]"); /* !null is true */
    EVAL("[?a >= `2.5`].a", items, "[2.5]");
    EVAL("[?b].a", items, "[1, \"1\"]"); /* "" is falsy */
    EVAL("[?c].a", items, "[1]");        /* [] is falsy */
    EVAL("[?b && c].a", items, "[1]");
    EVAL("[?b || c].a", items, "[1, \"1\"]");
    EVAL("[?!b || a == `2.5`].a", items, "[2.5]");
    EVAL("[?b == 'longer than seven'].a", items, "[\"1\"]");
    EVAL("[?b == 'x' && !(a == `2`)].b", items, "[\"x\"]");
    EVAL("[?d.e[0].f == `2`].a", items, "[1]");     /* a subexpression with an index step */
    EVAL("[?d.e | @[0].f == `2`].a", items, "[1]"); /* a pipe */
    EVAL("[?@ == `7`]", items, "[7]");
    EVAL("[?`true`] | length(@)", items, "4");
    EVAL("[?a].d.e[0].f", items, "[2]");
    EVAL("[?a == a].a", items, "[1, 2.5, \"1\"]"); /* null == null for 7 and null, whose a is null and dropped */
    EVAL("!(a == `1`)", "{\"a\": 1}", "false");
    EVAL("!a", "{\"a\": []}", "true");
    EVAL("a == b", "{\"a\": \"abc\", \"b\": \"abc\"}", "true");
    EVAL("a < b", "{\"a\": 9007199254740993, \"b\": 9007199254740992}", "false");
    EVAL("a > b", "{\"a\": 9007199254740993, \"b\": 9007199254740992}", "true");
done:;
}

TEST(jmespath_strict_syntax) {
    static const char *const bad[] = {
        "[:::]",   "['a' 'b']", "[a b]",      "foo.'bar'", "foo.[0]x", "foo.`1`", "foo-bar", "\"\\u\"",     "`foo`",
        "`[1, 2`", "a = b",     "{a: b",      "length(",   "foo[?a",   "[0",      "a..b",    ".a",          "a.",
        "",        "@@",        "a[1:2:3:4]", "*.*.",      "!",        "a ||",    "(a",      "{\"a\": b}x", "&",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        FAILS(bad[i], "null", ANVIL_ESYNTAX);
    }
done:;
}

TEST(jmespath_functions_checked_at_compile_time) {
    struct anvil_jmespath *jp = NULL;
    struct anvil_diag diag;
    /* Even in a branch that would never run. */
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "`null` && nope(@)", 17, NULL, &jp, &diag), ANVIL_ENOTFOUND);
    CHECK_STR_EQ(diag.message, "unknown function 'nope()'");
    CHECK_EQ_U64(diag.column, 11);
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "length(`1`, `2`)", 16, NULL, &jp, &diag), ANVIL_EARITY);
    CHECK_STR_EQ(diag.message, "length() takes 1 argument, got 2");
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "not_null()", 10, NULL, &jp, &diag), ANVIL_EARITY);
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "\"length\"(@)", 11, NULL, &jp, &diag), ANVIL_ESYNTAX);
    /* Type errors only when evaluated. */
    EVAL("`false` && length(`1`)", "null", "false");
    FAILS("length(`1`)", "null", ANVIL_ETYPE);
    FAILS("sort_by(@, `1`)", "[]", ANVIL_ETYPE);
    FAILS("map(`1`, @)", "[]", ANVIL_ETYPE);
done:
    anvil_jmespath_destroy(jp);
}

TEST(jmespath_slices_follow_python) {
    const char *nums = "[0,1,2,3,4,5,6,7,8,9]";
    EVAL("[::-1]", nums, "[9,8,7,6,5,4,3,2,1,0]");
    EVAL("[10:0:-3]", nums, "[9,6,3]");
    EVAL("[-1:-10:-2]", nums, "[9,7,5,3,1]");
    EVAL("[5:-100:-1]", nums, "[5,4,3,2,1,0]");
    EVAL("[:2:-1]", nums, "[9,8,7,6,5,4,3]");
    EVAL("[-100:100]", nums, "[0,1,2,3,4,5,6,7,8,9]");
    EVAL("[0:99999999999999999999999]", "[1, 2]", "[1, 2]");
    EVAL("[-99999999999999999999999:]", "[1, 2]", "[1, 2]");
    EVAL("[::9223372036854775807]", nums, "[0]");
    EVAL("[::-9223372036854775807]", nums, "[9]");
    EVAL("[99999999999999999999]", "[1, 2]", "null");
    FAILS("[::0]", nums, ANVIL_EVALUE);
    EVAL("[1:3]", "\"abcdef\"", "null");
done:;
}

TEST(jmespath_projections_and_nulls) {
    EVAL("x[*].a", "{\"x\": [{\"a\": 1}, {}, {\"a\": false}, {\"a\": []}, {\"a\": {}}, {\"a\": null}]}",
         "[1, false, [], {}]");
    EVAL("missing[*]", "{}", "null");
    EVAL("o[*]", "{\"o\": {\"a\": 1}}", "null");
    EVAL("o.*", "{\"o\": [1]}", "null");
    EVAL("[*][0]", "[[1, 2], [3]]", "[1, 3]");
    EVAL("[*] | [0]", "[[1, 2], [3]]", "[1, 2]");
    EVAL("a[*].b[*].c", "{\"a\": [{\"b\": [{\"c\": 1}, {\"c\": 2}]}, {\"b\": [{\"c\": 3}]}]}", "[[1, 2], [3]]");
    EVAL("a[].b[].c", "{\"a\": [{\"b\": [{\"c\": 1}, {\"c\": 2}]}, {\"b\": [{\"c\": 3}]}]}", "[1, 2, 3]");
    EVAL("missing.[a, b]", "{}", "null");
    EVAL("[a, missing]", "{\"a\": 1}", "[1, null]");
    EVAL("{m: missing}", "{}", "{\"m\": null}");
    EVAL("map(&a, @)", "[{\"a\": 1}, {}, {\"b\": 2}]", "[1, null, null]");
    EVAL("[?@]", "[0, \"\", [], {}, null, false, true, \"x\"]", "[0, true, \"x\"]");
    EVAL("`0` || `1`", "null", "0");
    EVAL("`[]` || `{}`", "null", "{}");
    EVAL("@[]", "[[1, [2]], 3, null, [null], []]", "[1, [2], 3]");
    EVAL("@[][]", "[[1, [2]], 3, null, [null], []]", "[1, 2, 3]");
    EVAL("&foo", "{\"foo\": 1}", "null");
done:;
}

TEST(jmespath_numbers_keep_their_form) {
    EVAL("abs(`-9007199254740993`)", "null", "9007199254740993");
    EVAL("abs(`-9223372036854775808`)", "null", "9223372036854775808.0");
    EVAL("abs(`-1.5`)", "null", "1.5");
    EVAL("floor(`1e300`)", "null", "1e300");
    EVAL("ceil(`1.2`)", "null", "2");
    EVAL("ceil(`-1.5`)", "null", "-1");
    EVAL("floor(`-1.5`)", "null", "-2");
    EVAL("to_string(`1.0`)", "null", "\"1.0\"");
    EVAL("to_string(`1e3`)", "null", "\"1000.0\"");
    EVAL("to_string(`1.5e-7`)", "null", "\"1.5e-07\"");
    EVAL("to_string(`{\"b\": 1, \"a\": [true]}`)", "null", "\"{\\\"b\\\":1,\\\"a\\\":[true]}\"");
    FAILS("ceil('1')", "null", ANVIL_ETYPE);
    FAILS("abs(`false`)", "null", ANVIL_ETYPE);
done:;
}

TEST(jmespath_identifiers_and_literals) {
    EVAL("\"\\ud83d\\ude00\"", "{\"\\ud83d\\ude00\": 1}", "1");
    EVAL("\"\"", "{\"\": 2}", "2");
    EVAL("'\\u00e9'", "null", "\"\\\\u00e9\"");
    EVAL("'\\z'", "null", "\"\\\\z\"");
    EVAL("'foo\\'bar'", "null", "\"foo'bar\"");
    EVAL("'\\\\'", "null", "\"\\\\\\\\\"");
    EVAL("`\"a\\`b\"`", "null", "\"a`b\"");
    EVAL("` 1 `", "null", "1");
    EVAL("join(', ', @)", "[\"a\", \"b\"]", "\"a, b\"");
    EVAL("type(@)", "{}", "\"object\"");
    EVAL("not_null(a, b, `3`)", "{\"b\": false}", "false");
    EVAL("to_array(`1`)", "null", "[1]");
    EVAL("starts_with(@, 'ab')", "\"abc\"", "true");
    EVAL("ends_with(@, 'bc')", "\"abc\"", "true");
done:;
}

TEST(jmespath_errors_name_kind_and_place) {
    struct anvil_jmespath *jp = NULL;
    struct anvil_diag diag;
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "foo[?bar", 8, NULL, &jp, &diag), ANVIL_ESYNTAX);
    CHECK_EQ_U64(diag.column, 9);
    CHECK_STR_EQ(diag.message, "expected ']', found the end of the expression");
    CHECK_STR_EQ(anvil_jmespath_error_kind(ANVIL_ESYNTAX), "syntax");
    CHECK_STR_EQ(anvil_jmespath_error_kind(ANVIL_ETYPE), "invalid-type");
    CHECK_STR_EQ(anvil_jmespath_error_kind(ANVIL_EARITY), "invalid-arity");
    CHECK_STR_EQ(anvil_jmespath_error_kind(ANVIL_EVALUE), "invalid-value");
    CHECK_STR_EQ(anvil_jmespath_error_kind(ANVIL_ENOTFOUND), "unknown-function");
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, NULL, 3, NULL, &jp, &diag), ANVIL_EINVAL);
    struct anvil_jmespath_options options = {.max_depth = 5000};
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "a", 1, &options, &jp, &diag), ANVIL_EINVAL);
    options = (struct anvil_jmespath_options){.max_length = 3};
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "abcd", 4, &options, &jp, &diag), ANVIL_ELIMIT);
done:
    anvil_jmespath_destroy(jp);
}

TEST(jmespath_compiled_expression_is_reusable) {
    struct anvil_jmespath *jp = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *a = NULL, *b = NULL;
    CHECK_OK(anvil_jmespath_compile(t->alloc, "x[].y", 5, NULL, &jp, NULL));
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(jp), "x[].y"));
    const char *one = "{\"x\": [{\"y\": 1}]}", *two = "{\"x\": [{\"y\": 2}, {\"y\": 3}]}";
    CHECK_OK(anvil_json_parse(t->alloc, one, strlen(one), NULL, &a, NULL));
    CHECK_OK(anvil_json_parse(t->alloc, two, strlen(two), NULL, &b, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_json r1, r2;
    CHECK_OK(anvil_jmespath_search(jp, anvil_json_doc_root(a), arena, &r1, NULL));
    CHECK_OK(anvil_jmespath_search(jp, anvil_json_doc_root(b), arena, &r2, NULL));
    CHECK_EQ_U64(anvil_json_len(&r1), 1);
    CHECK_EQ_U64(anvil_json_len(&r2), 2);
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(&r2, 1)), 3);
done:
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(a);
    anvil_json_doc_destroy(b);
    anvil_jmespath_destroy(jp);
}
