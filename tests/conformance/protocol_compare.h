/*
 * The comparisons Smithy's HTTP protocol compliance tests ask for
 * (additional-specs/http-protocol-compliance-tests.rst), written for the
 * conformance runner (protocol_tests.c) and checked by
 * tests/unit/test_protocol_compare.c. Each returns true when the actual
 * value satisfies the expected one and otherwise appends to `why` what was
 * expected and what came, precisely enough to fix the difference from.
 *
 * Rules, after smithy-rs's aws-smithy-protocol-test (lib.rs, xml.rs,
 * urlencoded.rs), where they are stricter or looser noted:
 *
 *   JSON   both parsed, compared as values: object members in any order,
 *          numbers by value (1 == 1.0), everything else exactly.
 *   XML    both parsed with anvil's XML tree: names as written (prefix
 *          included), attributes as a set (xmlns declarations included),
 *          child elements in any order except that siblings of the same
 *          name keep their order, text of an element with children ignored
 *          when it is only white space, text of a leaf compared exactly,
 *          `<a/>` equal to `<a></a>`.
 *   form   `application/x-www-form-urlencoded`: pairs split on `&`, each
 *          trimmed of white space (test bodies are written over several
 *          lines), empty ones dropped; the first two (Action and Version)
 *          compared in place, the rest as a multiset after a `K.<n>.S` key
 *          becomes `K.N.S` (the last index followed by more key: map
 *          entries and lists of structures may come in any order, as in
 *          urlencoded.rs). Pairs are compared still encoded.
 *   query  each expected `k=v`, `k=` or `k` must be among the target's raw
 *          `&`-separated pairs (as many times as expected); a forbidden
 *          bare `k` forbids the key with any value, a forbidden `k=v` that
 *          pair; a required key must be there with any value.
 *   headers  names case-insensitive; a header sent several times is its
 *          values joined with ", "; expected values compared exactly.
 *   other media types: byte for byte. An empty expected body also equals
 *          no body.
 */
#ifndef ANVIL_TEST_PROTOCOL_COMPARE_H
#define ANVIL_TEST_PROTOCOL_COMPARE_H

#include "anvil/anvil.h"

enum ptc_media { PTC_MEDIA_BYTES = 0, PTC_MEDIA_JSON, PTC_MEDIA_XML, PTC_MEDIA_FORM, PTC_MEDIA_CBOR };

/* The comparison a media type gets: `...json` and `...+json` JSON, `...xml` XML, the form type, CBOR, else bytes. */
enum ptc_media ptc_media_of(struct anvil_str_view media_type);

/* "JSON", "XML", ... for messages. */
const char *ptc_media_name(enum ptc_media media);

/* Two JSON values, `path` naming where they sit ("$" at the top). */
bool ptc_json_values(const struct anvil_json *expected, const struct anvil_json *actual, const char *path,
                     struct anvil_buf *why);

/* Two bodies by media type. */
bool ptc_body(enum ptc_media media, struct anvil_str_view expected, struct anvil_str_view actual,
              struct anvil_buf *why);

bool ptc_json_body(struct anvil_str_view expected, struct anvil_str_view actual, struct anvil_buf *why);
bool ptc_xml_body(struct anvil_str_view expected, struct anvil_str_view actual, struct anvil_buf *why);
bool ptc_form_body(struct anvil_str_view expected, struct anvil_str_view actual, struct anvil_buf *why);

/* The query of a request target (after '?'; empty when none). */
struct anvil_str_view ptc_target_query(struct anvil_str_view target);
/* The path of a request target (before '?'). */
struct anvil_str_view ptc_target_path(struct anvil_str_view target);

/* `expected`, `forbidden` and `required` are JSON arrays of strings (NULL = no assertion). */
bool ptc_query_params(struct anvil_str_view query, const struct anvil_json *expected,
                      const struct anvil_json *forbidden, const struct anvil_json *required, struct anvil_buf *why);

/*
 * The value of header `name` among `headers`: its values joined with ", ";
 * false when absent. The joined value lives in `scratch` (cleared first).
 */
bool ptc_header_value(const struct anvil_http_header *headers, size_t count, struct anvil_str_view name,
                      struct anvil_buf *scratch, struct anvil_str_view *value);

/* `expected` an object of name -> value, `forbidden` and `required` arrays of names (NULL = no assertion). */
bool ptc_headers(const struct anvil_http_header *headers, size_t count, const struct anvil_json *expected,
                 const struct anvil_json *forbidden, const struct anvil_json *required, struct anvil_buf *why);

/* Appends `s` for a message: at most `max` bytes, controls and non-UTF-8 escaped, quoted. */
void ptc_quote(struct anvil_buf *out, struct anvil_str_view s, size_t max);

#endif
