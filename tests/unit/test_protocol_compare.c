/*
 * The comparators of the protocol conformance runner
 * (tests/conformance/protocol_compare.h): pairs Smithy's rules call equal
 * must be, and known-different pairs must be reported different, naming
 * the difference. A comparator that always says "equal" fails here.
 */

#include "harness.h"
#include "protocol_compare.h"

static struct anvil_str_view S(const char *s) {
    return anvil_sv_from_cstr(s);
}

/* True when `why` mentions `needle`. */
static bool
s_says(struct anvil_buf *why, const char *needle) {
    struct anvil_str_view w = anvil_buf_view(why);
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= w.len; i++) {
        if (memcmp(w.ptr + i, needle, n) == 0) {
            return true;
        }
    }
    return false;
}

TEST(protocol_compare_media_types) {
    CHECK(ptc_media_of(S("application/json")) == PTC_MEDIA_JSON);
    CHECK(ptc_media_of(S("application/x-amz-json-1.1")) == PTC_MEDIA_JSON);
    CHECK(ptc_media_of(S("application/vnd.foo+json; charset=utf-8")) == PTC_MEDIA_JSON);
    CHECK(ptc_media_of(S("application/xml")) == PTC_MEDIA_XML);
    CHECK(ptc_media_of(S("text/xml;charset=UTF-8")) == PTC_MEDIA_XML);
    CHECK(ptc_media_of(S("application/x-www-form-urlencoded")) == PTC_MEDIA_FORM);
    CHECK(ptc_media_of(S("application/cbor")) == PTC_MEDIA_CBOR);
    CHECK(ptc_media_of(S("application/octet-stream")) == PTC_MEDIA_BYTES);
    CHECK(ptc_media_of(S("text/plain")) == PTC_MEDIA_BYTES);
    CHECK(ptc_media_of(S("")) == PTC_MEDIA_BYTES);
done:;
}

TEST(protocol_compare_json) {
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    /* Equal: member order, white space, numbers by value. */
    CHECK(ptc_json_body(S("{\"a\": 1, \"b\": [1, 2.5, {\"c\": null}]}"), S("{\"b\":[1.0,2.5,{\"c\":null}],\"a\":1.0}"),
                        &why));
    CHECK(ptc_json_body(S("{\"f\": 1e3}"), S("{\"f\": 1000}"), &why));
    CHECK(anvil_buf_view(&why).len == 0);
    /* Different, each named. */
    CHECK(!ptc_json_body(S("{\"a\": 1}"), S("{\"a\": 2}"), &why));
    CHECK(s_says(&why, "$.a") && s_says(&why, "different numbers"));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("{\"a\": 1}"), S("{}"), &why));
    CHECK(s_says(&why, "missing member"));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("{}"), S("{\"x\": \"y\"}"), &why));
    CHECK(s_says(&why, "unexpected member") && s_says(&why, "$.x"));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("[1, 2]"), S("[2, 1]"), &why));
    CHECK(s_says(&why, "$[0]"));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("[1]"), S("[1, 1]"), &why));
    CHECK(s_says(&why, "1 items expected, 2 came"));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("{\"a\": \"1\"}"), S("{\"a\": 1}"), &why));
    CHECK(s_says(&why, "different types"));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("{\"a\": \"NaN\"}"), S("{\"a\": \"Infinity\"}"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_json_body(S("{\"a\": true}"), S("{\"a\": false}"), &why));
    anvil_buf_clear(&why);
    /* Not JSON, and an empty actual body against an expected {}. */
    CHECK(!ptc_json_body(S("{}"), S(""), &why));
    CHECK(s_says(&why, "actual body is not JSON"));
    anvil_buf_clear(&why);
    CHECK(!ptc_body(PTC_MEDIA_JSON, S("{}"), S("{\"a\":1}"), &why));
done:
    anvil_buf_clean_up(&why);
}

TEST(protocol_compare_form) {
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    /* Written over lines, map entries in another order: equal (as urlencoded.rs has it). */
    CHECK(ptc_form_body(S("Action=Op&Version=2020-01-08\n&MapArg.entry.1.key=bar\n&MapArg.entry.1.value=Bar"
                          "\n&MapArg.entry.2.key=foo\n&MapArg.entry.2.value=Foo"),
                        S("Action=Op&Version=2020-01-08&MapArg.entry.1.key=foo&MapArg.entry.1.value=Foo"
                          "&MapArg.entry.2.key=bar&MapArg.entry.2.value=Bar"),
                        &why));
    /* Pairs after Version in any order. */
    CHECK(ptc_form_body(S("Action=Op&Version=1&A=1&B=2"), S("Action=Op&Version=1&B=2&A=1"), &why));
    CHECK(anvil_buf_view(&why).len == 0);
    /* A different value, a different key, a missing and an extra pair, Action and Version out of place. */
    CHECK(!ptc_form_body(S("Action=Op&Version=1&Property=bar"), S("Action=Op&Version=1&Property=foo"), &why));
    CHECK(s_says(&why, "missing \"Property=bar\"") && s_says(&why, "unexpected \"Property=foo\""));
    anvil_buf_clear(&why);
    CHECK(!ptc_form_body(S("Action=Op&Version=1&Property=foo"), S("Action=Op&Version=1&WrongProperty=foo"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_form_body(S("Action=Op&Version=1&A=1&A=1"), S("Action=Op&Version=1&A=1"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_form_body(S("Action=Op&Version=1"), S("Action=Op&Version=1&X=1"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_form_body(S("Action=Op&Version=1"), S("Version=1&Action=Op"), &why));
    CHECK(s_says(&why, "form pair 1"));
    anvil_buf_clear(&why);
    /* List members keep their order: their keys end in the index. */
    CHECK(!ptc_form_body(S("Action=Op&Version=1&L.member.1=a&L.member.2=b"),
                         S("Action=Op&Version=1&L.member.1=b&L.member.2=a"), &why));
    anvil_buf_clear(&why);
    /* Encoding is compared as sent. */
    CHECK(!ptc_form_body(S("Action=Op&Version=1&A=a%20b"), S("Action=Op&Version=1&A=a+b"), &why));
done:
    anvil_buf_clean_up(&why);
}

TEST(protocol_compare_query) {
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    struct anvil_json_doc *doc = NULL;
    const char *text =
        "{\"want\": [\"a=1\", \"b=\", \"flag\", \"l=x\", \"l=x\"], \"once\": [\"l=x\", \"l=x\", \"l=x\"],"
        " \"forbid_key\": [\"c\"], \"forbid_pair\": [\"a=2\"], \"forbid_hit\": [\"a=1\"],"
        " \"require\": [\"a\", \"flag\"], \"require_miss\": [\"z\"]}";
    CHECK_OK(anvil_json_parse(t->alloc, text, strlen(text), NULL, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    struct anvil_str_view q = ptc_target_query(S("/path?a=1&b=&flag&l=x&l=x&extra=9"));
    CHECK(anvil_sv_eq_cstr(q, "a=1&b=&flag&l=x&l=x&extra=9"));
    CHECK(anvil_sv_eq_cstr(ptc_target_path(S("/path?a=1")), "/path"));
    CHECK(ptc_query_params(q, anvil_json_object_get_cstr(r, "want"), anvil_json_object_get_cstr(r, "forbid_key"),
                           anvil_json_object_get_cstr(r, "require"), &why));
    CHECK(ptc_query_params(q, NULL, anvil_json_object_get_cstr(r, "forbid_pair"), NULL, &why));
    CHECK(anvil_buf_view(&why).len == 0);
    /* A pair expected three times, sent twice. */
    CHECK(!ptc_query_params(q, anvil_json_object_get_cstr(r, "once"), NULL, NULL, &why));
    CHECK(s_says(&why, "query param \"l=x\" missing"));
    anvil_buf_clear(&why);
    /* Forbidden: a key with any value; a pair. */
    CHECK(!ptc_query_params(S("c=3"), NULL, anvil_json_object_get_cstr(r, "forbid_key"), NULL, &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_query_params(S("c"), NULL, anvil_json_object_get_cstr(r, "forbid_key"), NULL, &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_query_params(q, NULL, anvil_json_object_get_cstr(r, "forbid_hit"), NULL, &why));
    CHECK(s_says(&why, "forbidden query param \"a=1\""));
    anvil_buf_clear(&why);
    CHECK(!ptc_query_params(q, NULL, NULL, anvil_json_object_get_cstr(r, "require_miss"), &why));
    anvil_buf_clear(&why);
    /* Raw comparison: an encoded value is not its decoded twin. */
    CHECK(!ptc_query_params(S("a=%31"), anvil_json_object_get_cstr(r, "want"), NULL, NULL, &why));
done:
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&why);
}

TEST(protocol_compare_headers) {
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    struct anvil_json_doc *doc = NULL;
    const char *text = "{\"want\": {\"content-type\": \"application/json\", \"X-List\": \"a, b\"},"
                       " \"wrong\": {\"Content-Type\": \"text/plain\"}, \"forbid\": [\"X-Other\"],"
                       " \"forbid_hit\": [\"x-list\"], \"require\": [\"X-LIST\"], \"require_miss\": [\"X-Gone\"]}";
    CHECK_OK(anvil_json_parse(t->alloc, text, strlen(text), NULL, &doc, NULL));
    const struct anvil_json *r = anvil_json_doc_root(doc);
    struct anvil_http_header h[] = {
        {S("Content-Type"), S("application/json")},
        {S("X-List"), S("a")},
        {S("x-list"), S("b")},
    };
    CHECK(ptc_headers(h, 3, anvil_json_object_get_cstr(r, "want"), anvil_json_object_get_cstr(r, "forbid"),
                      anvil_json_object_get_cstr(r, "require"), &why));
    CHECK(anvil_buf_view(&why).len == 0);
    CHECK(!ptc_headers(h, 3, anvil_json_object_get_cstr(r, "wrong"), NULL, NULL, &why));
    CHECK(s_says(&why, "expected \"text/plain\", got \"application/json\""));
    anvil_buf_clear(&why);
    CHECK(!ptc_headers(h, 1, anvil_json_object_get_cstr(r, "want"), NULL, NULL, &why));
    CHECK(s_says(&why, "absent"));
    anvil_buf_clear(&why);
    CHECK(!ptc_headers(h, 3, NULL, anvil_json_object_get_cstr(r, "forbid_hit"), NULL, &why));
    CHECK(s_says(&why, "forbidden header x-list present: \"a, b\""));
    anvil_buf_clear(&why);
    CHECK(!ptc_headers(h, 3, NULL, NULL, anvil_json_object_get_cstr(r, "require_miss"), &why));
done:
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&why);
}

TEST(protocol_compare_bytes) {
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    CHECK(ptc_body(PTC_MEDIA_BYTES, S("blob"), S("blob"), &why));
    /* An empty expected body is no body, whatever the media type says. */
    CHECK(ptc_body(PTC_MEDIA_JSON, S(""), S(""), &why));
    CHECK(ptc_body(PTC_MEDIA_XML, S(""), S(""), &why));
    CHECK(anvil_buf_view(&why).len == 0);
    CHECK(!ptc_body(PTC_MEDIA_JSON, S(""), S("{}"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_body(PTC_MEDIA_BYTES, S("blob"), S("blob "), &why));
    CHECK(s_says(&why, "differs at byte 4"));
    anvil_buf_clear(&why);
    CHECK(!ptc_body(PTC_MEDIA_BYTES, S("text"), S(""), &why));
done:
    anvil_buf_clean_up(&why);
}

TEST(protocol_compare_xml) {
    struct anvil_buf why;
    anvil_buf_init(&why, t->alloc, 0);
    /* Equal: attribute order, white space between elements, <a/> and <a></a>, children of different names in any order.
     */
    CHECK(ptc_xml_body(S("<R xmlns=\"urn:x\" a=\"1\" b=\"2\">\n  <x>1</x>\n  <y/>\n  <L><m>1</m><m>2</m></L>\n</R>"),
                       S("<?xml version=\"1.0\"?><R b=\"2\" a=\"1\" xmlns=\"urn:x\"><L><m>1</m><m>2</m></L>"
                         "<y></y><x>1</x></R>"),
                       &why));
    CHECK(anvil_buf_view(&why).len == 0);
    /* Different: a text, the order of same-name siblings, an attribute, an element's name, a missing and an extra
     * child. */
    CHECK(!ptc_xml_body(S("<R><x>1</x></R>"), S("<R><x>2</x></R>"), &why));
    CHECK(s_says(&why, "/R/x: text"));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R><m>1</m><m>2</m></R>"), S("<R><m>2</m><m>1</m></R>"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R a=\"1\"/>"), S("<R a=\"2\"/>"), &why));
    CHECK(s_says(&why, "attribute a"));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R/>"), S("<R xmlns=\"urn:x\"/>"), &why));
    CHECK(s_says(&why, "unexpected attribute xmlns"));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R/>"), S("<S/>"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R><x/><y/></R>"), S("<R><x/></R>"), &why));
    CHECK(s_says(&why, "/R/y: missing"));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R><x/></R>"), S("<R><x/><x/></R>"), &why));
    CHECK(s_says(&why, "unexpected"));
    anvil_buf_clear(&why);
    /* A leaf's white space is its value. */
    CHECK(!ptc_xml_body(S("<R><s>  </s></R>"), S("<R><s/></R>"), &why));
    anvil_buf_clear(&why);
    CHECK(!ptc_xml_body(S("<R/>"), S("<R>"), &why));
    CHECK(s_says(&why, "actual body is not XML"));
done:
    anvil_buf_clean_up(&why);
}
