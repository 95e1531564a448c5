/*
 * The comparisons the Smithy rules engine's endpointTests ask for
 * (rules-engine/specification.rst "endpointTests"), written for the
 * conformance runner (endpoint_tests.c) and checked by
 * tests/unit/test_endpoint_compare.c. Each returns true when what the
 * engine gave satisfies the expectation and otherwise appends to `why`
 * what was expected and what came.
 *
 * Rules, as aws-c-sdkutils' tests/endpoints_rule_engine_tests.c applies them:
 *
 *   url         byte for byte.
 *   headers     an object of name -> array of strings, compared as name ->
 *               set of values: names exactly (as the rule set writes them),
 *               values in any order, a repeated value counted once, a name
 *               with no values the same as an absent name. A missing
 *               expectation is the empty object. What the engine gives must
 *               be an object (the API promises one, empty when none).
 *   properties  JSON equality (anvil_json_equal: members in any order,
 *               numbers by value); a missing expectation is the empty
 *               object, and what the engine gives must be an object.
 *   error       ANVIL_ECONFIG whose diag message is exactly the expected text.
 */
#ifndef ANVIL_TEST_ENDPOINT_COMPARE_H
#define ANVIL_TEST_ENDPOINT_COMPARE_H

#include "anvil/anvil.h"
#include "anvil/endpoint.h"

/* What one resolution gave. */
struct ept_result {
    /* The status anvil_endpoint_resolve() returned. */
    int rc;
    /* The endpoint, read only when rc is ANVIL_OK. */
    const struct anvil_endpoint *endpoint;
    /* The diag's message (rc not OK); "" when none. */
    const char *message;
    /* The rule that answered, as anvil_endpoint_rule_path() writes it; "" when unknown. */
    const char *rule;
};

/* A case's `expect` ({endpoint: {url, headers?, properties?}} or {error: "..."}) against `got`. */
bool ept_check(const struct anvil_json *expect, const struct ept_result *got, struct anvil_buf *why);

/* Headers (name -> array of strings) as sets; `expected` may be NULL (none). */
bool ept_headers_match(const struct anvil_json *expected, const struct anvil_json *got, struct anvil_buf *why);

/* Properties by JSON equality; `expected` may be NULL (none). */
bool ept_properties_match(const struct anvil_json *expected, const struct anvil_json *got, struct anvil_buf *why);

/* Appends `v` as compact JSON, cut after `max` bytes (0 = whole) with "...". */
void ept_append_json(struct anvil_buf *into, const struct anvil_json *v, size_t max);

#endif
