#ifndef ANVIL_TRAITS_H
#define ANVIL_TRAITS_H

/**
 * Typed access to the traits anvil acts on. Each reads the shape's traits
 * (own, mixed in and applied) as the model holds them; a trait of the wrong
 * JSON type reads as absent (anvil_model_validate() reports those). The
 * waiter and paginator traits have richer readers in waiter.h and
 * paginator.h. All functions are NULL-safe and thread-safe.
 */

#include "anvil/model.h"

ANVIL_EXTERN_C_BEGIN

/** `smithy.api#readonly` on an operation. */
ANVIL_API bool anvil_operation_is_readonly(const struct anvil_shape *operation);

/** `smithy.api#idempotent` on an operation (readonly operations are idempotent too: see the next). */
ANVIL_API bool anvil_operation_is_idempotent(const struct anvil_shape *operation);

/**
 * Whether retrying the operation is safe whatever the failure: it is
 * @readonly or @idempotent, or its input has an @idempotencyToken member.
 */
ANVIL_API bool anvil_operation_is_retry_safe(const struct anvil_shape *operation);

/** The input member marked `smithy.api#idempotencyToken`, or NULL. */
ANVIL_API const struct anvil_member *anvil_operation_idempotency_token(const struct anvil_shape *operation);

/**
 * `smithy.api#requestCompression` encodings in trait order: stores the
 * count in `*count` and returns the array's JSON value (strings), or NULL
 * when the operation has no such trait.
 */
ANVIL_API const struct anvil_json *anvil_operation_request_compression(const struct anvil_shape *operation,
                                                                       size_t *count);

enum anvil_error_fault {
    ANVIL_FAULT_NONE = 0, /* not an error shape */
    ANVIL_FAULT_CLIENT = 1,
    ANVIL_FAULT_SERVER = 2
};

/** `smithy.api#error` on a structure: client, server, or none. */
ANVIL_API enum anvil_error_fault anvil_error_fault(const struct anvil_shape *error);

/** `smithy.api#httpError`, else 400 for client errors and 500 for server errors, else 0. */
ANVIL_API int anvil_error_http_status(const struct anvil_shape *error);

/** `smithy.api#retryable` on an error; `*throttling` (may be NULL) gets its `throttling` member. */
ANVIL_API bool anvil_error_is_retryable(const struct anvil_shape *error, bool *throttling);

/** `aws.protocols#awsQueryError` `code`, or an empty view. */
ANVIL_API struct anvil_str_view anvil_error_query_code(const struct anvil_shape *error);

/** `smithy.api#streaming` on a blob or union. */
ANVIL_API bool anvil_shape_is_streaming(const struct anvil_shape *shape);

/** `smithy.api#requiresLength` on a blob. */
ANVIL_API bool anvil_shape_requires_length(const struct anvil_shape *shape);

enum anvil_protocol {
    ANVIL_PROTOCOL_NONE = 0,
    ANVIL_PROTOCOL_AWS_JSON_1_0,
    ANVIL_PROTOCOL_AWS_JSON_1_1,
    ANVIL_PROTOCOL_REST_JSON_1,
    ANVIL_PROTOCOL_AWS_QUERY,
    ANVIL_PROTOCOL_REST_XML,
    ANVIL_PROTOCOL_EC2_QUERY
};

/** The trait id of a protocol ("aws.protocols#awsJson1_0", ...), "" for none. */
ANVIL_API const char *anvil_protocol_trait(enum anvil_protocol protocol);

/**
 * The service's protocols, in the order of the enum above: stores up to
 * `max` of them in `out` and returns how many the service has.
 */
ANVIL_API size_t anvil_service_protocols(const struct anvil_shape *service, enum anvil_protocol *out, size_t max);

/** `aws.api#service`: the fields anvil uses (empty views when absent). */
struct anvil_aws_service {
    struct anvil_str_view sdk_id;
    struct anvil_str_view endpoint_prefix;
    struct anvil_str_view arn_namespace;
    struct anvil_str_view cloudformation_name;
    struct anvil_str_view cloudtrail_event_source;
};

/** Fills `out` and returns true when the service has `aws.api#service`. */
ANVIL_API bool anvil_service_aws(const struct anvil_shape *service, struct anvil_aws_service *out);

/** `aws.auth#sigv4` `name` (the signing name), or an empty view. */
ANVIL_API struct anvil_str_view anvil_service_sigv4_name(const struct anvil_shape *service);

ANVIL_EXTERN_C_END

#endif
