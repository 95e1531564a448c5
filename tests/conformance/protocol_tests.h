/* One Smithy protocol test case run through anvil's protocols (protocol_tests.c walks them). */
#ifndef ANVIL_TEST_PROTOCOL_TESTS_H
#define ANVIL_TEST_PROTOCOL_TESTS_H

#include "anvil/anvil.h"
#include "protocol/protocol_internal.h"

struct ptc_case {
    const struct anvil_model *model;
    const struct anvil_shape *service;
    const struct anvil_shape *operation;
    /* The error structure of an error's response case; NULL for an operation's case. */
    const struct anvil_shape *error;
    const struct anvil__protocol *protocol;
    /* The case as the trait holds it (id, params, headers, body, ...). */
    const struct anvil_json *test;
    /* On failure, also show the whole request or reply. */
    bool verbose;
    /*
     * S3's endpoint rules, from S3's own model (the test model has none):
     * an S3 case's resolvedHost and uri are what a client with them sends.
     * NULL when that model is not there: such a case's host is not checked
     * and the run sets host_left_to_endpoint_rules.
     */
    const struct anvil_endpoint_rules *s3_rules;
    bool host_left_to_endpoint_rules;
};

/*
 * `params` as anvil's data model for values of `shape` (NULL = as they
 * are): blobs, written as text in the tests, become base64; a structure
 * member set to null is left out (not set; nulls in sparse lists and maps
 * stay); documents stay as they are; everything else (timestamps as epoch numbers, "NaN" and
 * "Infinity" strings of floats) is already anvil's. Built in `arena`.
 */
int ptc_params(struct anvil_arena *arena, const struct anvil_shape *shape, const struct anvil_json *params,
               struct anvil_json *out);

/* Runs an httpRequestTests case; false with the differences in `why`. */
bool ptc_run_request(struct ptc_case *c, struct anvil_buf *why);

/* Runs an httpResponseTests case; false with the differences in `why`. */
bool ptc_run_response(const struct ptc_case *c, struct anvil_buf *why);

#endif
