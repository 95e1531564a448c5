/*
 * The comparators of the endpoint rules conformance runner
 * (tests/conformance/endpoint_compare.h): pairs the endpointTests call
 * equal must be, and known-different pairs must be reported different,
 * naming the difference. A comparator that always says "equal" fails here.
 */

#include "endpoint_compare.h"
#include "harness.h"

/* True when `why` mentions `needle`. */
static bool s_says(const struct anvil_buf *why, const char *needle) {
    struct anvil_str_view w = anvil_buf_view(why);
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= w.len; i++) {
        if (memcmp(w.ptr + i, needle, n) == 0) {
            return true;
        }
    }
    return false;
}

/* Parses `text` into `arena` (NULL on a syntax error, which the test then reports). */
static const struct anvil_json *s_json(struct anvil_test *t, struct anvil_arena *arena, const char *text) {
    struct anvil_json *v = anvil_arena_alloc(arena, sizeof *v, 0);
    if (!v || anvil_json_parse_into(arena, t->alloc, text, strlen(text), NULL, v, NULL) != ANVIL_OK) {
        return NULL;
    }
    return v;
}

/* An endpoint whose URL is `url` and whose headers and properties are parsed from text. */
static bool s_endpoint(struct anvil_test *t, struct anvil_arena *arena, const char *url, const char *headers,
                       const char *properties, struct anvil_endpoint *out) {
    const struct anvil_json *h = s_json(t, arena, headers), *p = s_json(t, arena, properties);
    if (!h || !p) {
        return false;
    }
    out->url = anvil_sv_from_cstr(url);
    out->headers = *h;
    out->properties = *p;
    out->rule = 0;
    return true;
}

TEST(endpoint_compare_headers) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    /* Equal: values in any order, repeats counted once, an empty list the same as no header. */
    static const char *const same[][2] = {
        {"{}", "{}"},
        {"{\"x-a\": [\"1\"]}", "{\"x-a\": [\"1\"]}"},
        {"{\"x-a\": [\"1\", \"2\"]}", "{\"x-a\": [\"2\", \"1\"]}"},
        {"{\"x-a\": [\"1\", \"1\"]}", "{\"x-a\": [\"1\"]}"},
        {"{\"x-a\": []}", "{}"},
        {"{}", "{\"x-a\": []}"},
        {"{\"x-a\": [\"1\"], \"x-b\": [\"2\"]}", "{\"x-b\": [\"2\"], \"x-a\": [\"1\"]}"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        const struct anvil_json *a = s_json(t, arena, same[i][0]), *b = s_json(t, arena, same[i][1]);
        CHECK_ALLOC(a);
        CHECK_ALLOC(b);
        CHECK(ept_headers_match(a, b, &why));
    }
    CHECK(ept_headers_match(NULL, s_json(t, arena, "{}"), &why));
    CHECK(anvil_buf_view(&why).len == 0);
    /* Different, each named. */
    static const char *const different[][3] = {
        {"{\"x-a\": [\"1\"]}", "{\"x-a\": [\"2\"]}", "header x-a"},
        {"{\"x-a\": [\"1\"]}", "{}", "header x-a"},
        {"{}", "{\"x-a\": [\"1\"]}", "header x-a"},
        {"{\"x-a\": [\"1\", \"2\"]}", "{\"x-a\": [\"1\"]}", "header x-a"},
        {"{\"x-a\": [\"1\"]}", "{\"x-a\": [\"1\", \"2\"]}", "header x-a"},
        {"{\"X-A\": [\"1\"]}", "{\"x-a\": [\"1\"]}", "header X-A"},
        {"{\"x-a\": [\"1\"]}", "{\"x-a\": \"1\"}", "header x-a"},
        {"{\"x-a\": [\"1\"]}", "{\"x-a\": [1]}", "header x-a"},
        {"{}", "null", "headers: expected an object"},
        {"{}", "[]", "headers: expected an object"},
    };
    for (size_t i = 0; i < sizeof different / sizeof different[0]; i++) {
        const struct anvil_json *a = s_json(t, arena, different[i][0]), *b = s_json(t, arena, different[i][1]);
        CHECK_ALLOC(a);
        CHECK_ALLOC(b);
        anvil_buf_clear(&why);
        CHECK(!ept_headers_match(a, b, &why));
        CHECK(s_says(&why, different[i][2]));
    }
done:
    anvil_buf_clean_up(&why);
    anvil_arena_destroy(arena);
}

TEST(endpoint_compare_properties) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    const char *scheme = "{\"authSchemes\": [{\"name\": \"sigv4\", \"signingName\": \"s3\", \"signingRegion\": "
                         "\"us-east-1\", \"disableDoubleEncoding\": true}]}";
    const struct anvil_json *p = s_json(t, arena, scheme);
    CHECK_ALLOC(p);
    CHECK(ept_properties_match(p, p, &why));
    const struct anvil_json *reordered =
        s_json(t, arena,
               "{\"authSchemes\": [{\"disableDoubleEncoding\": true, \"signingRegion\": \"us-east-1\", "
               "\"signingName\": \"s3\", \"name\": \"sigv4\"}]}");
    CHECK_ALLOC(reordered);
    CHECK(ept_properties_match(p, reordered, &why));
    CHECK(ept_properties_match(NULL, s_json(t, arena, "{}"), &why));
    CHECK(anvil_buf_view(&why).len == 0);
    static const char *const different[][2] = {
        {"{\"a\": true}", "{\"a\": \"true\"}"},
        {"{\"a\": true}", "{\"a\": false}"},
        {"{\"a\": [\"x\", \"y\"]}", "{\"a\": [\"y\", \"x\"]}"},
        {"{\"a\": {\"b\": \"c\"}}", "{\"a\": {\"b\": \"c\", \"d\": \"e\"}}"},
        {"{\"a\": \"x\"}", "{}"},
        {"{}", "{\"a\": \"x\"}"},
        {"{}", "null"},
        {"{}", "[]"},
    };
    for (size_t i = 0; i < sizeof different / sizeof different[0]; i++) {
        const struct anvil_json *a = s_json(t, arena, different[i][0]), *b = s_json(t, arena, different[i][1]);
        CHECK_ALLOC(a);
        CHECK_ALLOC(b);
        anvil_buf_clear(&why);
        CHECK(!ept_properties_match(a, b, &why));
        CHECK(s_says(&why, "properties: expected"));
    }
    /* One region apart inside an auth scheme. */
    const struct anvil_json *west =
        s_json(t, arena,
               "{\"authSchemes\": [{\"name\": \"sigv4\", \"signingName\": \"s3\", \"signingRegion\": "
               "\"us-west-2\", \"disableDoubleEncoding\": true}]}");
    CHECK_ALLOC(west);
    anvil_buf_clear(&why);
    CHECK(!ept_properties_match(p, west, &why));
    CHECK(s_says(&why, "us-west-2"));
    anvil_buf_clear(&why);
    CHECK(!ept_properties_match(NULL, west, &why));
done:
    anvil_buf_clean_up(&why);
    anvil_arena_destroy(arena);
}

TEST(endpoint_compare_expectations) {
    struct anvil_arena *arena = NULL;
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_endpoint ep;
    CHECK(s_endpoint(t, arena, "https://b.s3.us-west-2.amazonaws.com", "{}", "{}", &ep));
    const struct anvil_json *want =
        s_json(t, arena, "{\"endpoint\": {\"url\": \"https://b.s3.us-west-2.amazonaws.com\"}}");
    const struct anvil_json *want_error = s_json(t, arena,
                                                 "{\"error\": \"Invalid region: region was not a valid DNS "
                                                 "name.\"}");
    CHECK_ALLOC(want);
    CHECK_ALLOC(want_error);
    struct ept_result ok = {ANVIL_OK, &ep, "", ""};
    CHECK(ept_check(want, &ok, &why));
    struct ept_result config = {ANVIL_ECONFIG, NULL, "Invalid region: region was not a valid DNS name.", "rules[3]"};
    CHECK(ept_check(want_error, &config, &why));
    CHECK(anvil_buf_view(&why).len == 0);

    /* The URL byte for byte: a trailing slash, a case, one character. */
    static const char *const urls[] = {"https://b.s3.us-west-2.amazonaws.com/", "https://B.s3.us-west-2.amazonaws.com",
                                       "https://b.s3.us-west-1.amazonaws.com", "http://b.s3.us-west-2.amazonaws.com",
                                       ""};
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        struct anvil_endpoint other = ep;
        other.url = anvil_sv_from_cstr(urls[i]);
        struct ept_result r = {ANVIL_OK, &other, "", "rules[1]"};
        anvil_buf_clear(&why);
        CHECK(!ept_check(want, &r, &why));
        CHECK(s_says(&why, "url: expected") && s_says(&why, "rules[1]"));
    }
    /* Headers and properties the expectation does not have. */
    struct anvil_endpoint extra;
    CHECK(s_endpoint(t, arena, "https://b.s3.us-west-2.amazonaws.com", "{\"x-a\": [\"1\"]}", "{}", &extra));
    struct ept_result r = {ANVIL_OK, &extra, "", ""};
    anvil_buf_clear(&why);
    CHECK(!ept_check(want, &r, &why));
    CHECK(s_says(&why, "header x-a"));
    CHECK(s_endpoint(t, arena, "https://b.s3.us-west-2.amazonaws.com", "{}", "{\"authSchemes\": []}", &extra));
    anvil_buf_clear(&why);
    CHECK(!ept_check(want, &r, &why));
    CHECK(s_says(&why, "properties"));

    /* An endpoint where an error was expected, and the other way round. */
    anvil_buf_clear(&why);
    CHECK(!ept_check(want_error, &ok, &why));
    CHECK(s_says(&why, "expected error") && s_says(&why, "got endpoint"));
    anvil_buf_clear(&why);
    CHECK(!ept_check(want, &config, &why));
    CHECK(s_says(&why, "expected endpoint") && s_says(&why, "ANVIL_ECONFIG"));
    /* The error's text exactly, and with ANVIL_ECONFIG only. */
    static const char *const messages[] = {"Invalid region: region was not a valid DNS name",
                                           "invalid region: region was not a valid DNS name.",
                                           "Invalid region: region was not a valid DNS name. ", ""};
    for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++) {
        struct ept_result e = {ANVIL_ECONFIG, NULL, messages[i], ""};
        anvil_buf_clear(&why);
        CHECK(!ept_check(want_error, &e, &why));
        CHECK(s_says(&why, "expected error"));
    }
    struct ept_result einval = {ANVIL_EINVAL, NULL, "Invalid region: region was not a valid DNS name.", ""};
    anvil_buf_clear(&why);
    CHECK(!ept_check(want_error, &einval, &why));
    CHECK(s_says(&why, "ANVIL_EINVAL"));
    /* A malformed expectation is a failure, never a pass. */
    static const char *const malformed[] = {"{}", "{\"error\": 1}", "{\"endpoint\": {}}",
                                            "{\"error\": \"x\", \"endpoint\": {\"url\": \"https://a\"}}"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        const struct anvil_json *m = s_json(t, arena, malformed[i]);
        CHECK_ALLOC(m);
        anvil_buf_clear(&why);
        CHECK(!ept_check(m, &ok, &why));
        CHECK(s_says(&why, "neither"));
    }
done:
    anvil_buf_clean_up(&why);
    anvil_arena_destroy(arena);
}
