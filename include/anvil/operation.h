#ifndef ANVIL_OPERATION_H
#define ANVIL_OPERATION_H

/**
 * One call of an operation, whatever carries it (an AWS protocol over HTTP,
 * a command run by the exec transport, a test's fake): the HTTP request a
 * protocol makes of an input, the reply (the output, or the error with its
 * code, message, HTTP status and headers), and the callback type waiters,
 * paginators and the CLI call operations through. docs/client.md.
 */

#include <stddef.h>
#include <stdint.h>

#include "anvil/arena.h"
#include "anvil/common.h"
#include "anvil/json.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

/** One HTTP header as sent or received. Strings need not be NUL-terminated. */
struct anvil_http_header {
    struct anvil_str_view name;
    struct anvil_str_view value;
};

/**
 * An HTTP request as a protocol serialises it (and as `anvil call
 * --dry-run` shows it once signed): `target` is the path with its query
 * ("/bucket/key?list-type=2"), percent-encoded as sent. The body may be
 * any bytes.
 */
struct anvil_http_request {
    struct anvil_str_view method;
    /** The full URL when the request has been given an endpoint, else empty. */
    struct anvil_str_view url;
    struct anvil_str_view target;
    const struct anvil_http_header *headers;
    size_t header_count;
    const uint8_t *body;
    size_t body_len;
};

/** An operation's error as its transport reports it. Strings need not be NUL-terminated. */
struct anvil_operation_error {
    /** The error code as received; matching normalises it (anvil_error_code_normalize()). */
    struct anvil_str_view code;
    struct anvil_str_view message;
    /** HTTP status, 0 when unknown. */
    int http_status;
};

/** What one call of an operation gave. */
struct anvil_operation_reply {
    /**
     * The output when the call succeeded (null when the operation has
     * none), as the Smithy data model has it whatever the protocol:
     * members by member name, timestamps as epoch seconds, blobs as
     * base64 strings, absent members absent.
     */
    struct anvil_json output;
    /** The error when it failed. */
    struct anvil_operation_error error;
    /** HTTP status of either, 0 when unknown. */
    int http_status;
    /**
     * With ANVIL_ETIMEDOUT: the status of the last failure the attempt saw
     * before the deadline cut it off (ANVIL_ESERVICE, or a transport status
     * such as ANVIL_ETRANSPORT), which `error` describes; 0 when it saw none.
     */
    int failed_status;
    /** The request id the service gave (x-amzn-requestid, x-amz-request-id, or the body's), empty when none. */
    struct anvil_str_view request_id;
    /** The response's headers as received (in the call's arena); none when the transport has none. */
    const struct anvil_http_header *headers;
    size_t header_count;
};

/**
 * An operation, called once per attempt (by anvil_wait(), a paginating
 * loop, the CLI). Fills `reply->output` (values that live in `arena`,
 * which the caller owns) and returns ANVIL_OK, or fills `reply->error`
 * (strings in `arena` or static) and returns ANVIL_ESERVICE. Any other
 * status (a transport problem the callback could not describe) counts as an
 * error whose code is the status's name. `deadline_ms` (on the env's
 * clock, 0 = none) is when the request must be given up: return
 * ANVIL_ETIMEDOUT then.
 */
typedef int anvil_operation_fn(void *user_data, const struct anvil_json *input, uint64_t deadline_ms,
                               struct anvil_arena *arena, struct anvil_operation_reply *reply);

/**
 * Normalises an error code as protocols carry it: strips a `:suffix` and a
 * `namespace#` prefix (awsJson `__type`, `X-Amzn-ErrorType`), so
 * "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException:http://..."
 * gives "ResourceNotFoundException". Returns a view into `code`. Thread-safe.
 */
ANVIL_API struct anvil_str_view anvil_error_code_normalize(struct anvil_str_view code);

ANVIL_EXTERN_C_END

#endif
