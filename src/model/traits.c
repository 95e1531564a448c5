/* Typed readers for the traits anvil acts on (include/anvil/traits.h). */

#include <string.h>

#include "anvil/traits.h"
#include "model/model_internal.h"

static bool s_has(const struct anvil_shape *shape, const char *trait) {
    return shape && anvil_shape_trait(shape, trait) != NULL;
}

static struct anvil_str_view s_string_member(const struct anvil_json *object, const char *key) {
    const struct anvil_json *v = anvil_json_object_get_cstr(object, key);
    return anvil_json_is_string(v) ? anvil_json_string(v) : anvil_sv("", 0);
}

bool anvil_operation_is_readonly(const struct anvil_shape *operation) {
    return s_has(operation, "smithy.api#readonly");
}

bool anvil_operation_is_idempotent(const struct anvil_shape *operation) {
    return s_has(operation, "smithy.api#idempotent");
}

const struct anvil_member *anvil_operation_idempotency_token(const struct anvil_shape *operation) {
    const struct anvil_shape *input = operation ? anvil_operation_input(operation) : NULL;
    for (size_t i = 0; input && i < anvil_shape_member_count(input); i++) {
        const struct anvil_member *m = anvil_shape_member_at(input, i);
        if (anvil_json_object_get_cstr(&m->traits, "smithy.api#idempotencyToken")) {
            return m;
        }
    }
    return NULL;
}

bool anvil_operation_is_retry_safe(const struct anvil_shape *operation) {
    return anvil_operation_is_readonly(operation) || anvil_operation_is_idempotent(operation) ||
           anvil_operation_idempotency_token(operation) != NULL;
}

const struct anvil_json *anvil_operation_request_compression(const struct anvil_shape *operation, size_t *count) {
    const struct anvil_json *trait = operation ? anvil_shape_trait(operation, "smithy.api#requestCompression") : NULL;
    const struct anvil_json *encodings = anvil_json_object_get_cstr(trait, "encodings");
    if (count) {
        *count = anvil_json_is_array(encodings) ? anvil_json_len(encodings) : 0;
    }
    return anvil_json_is_array(encodings) ? encodings : NULL;
}

enum anvil_error_fault anvil_error_fault(const struct anvil_shape *error) {
    const struct anvil_json *v = error ? anvil_shape_trait(error, "smithy.api#error") : NULL;
    struct anvil_str_view fault = anvil_json_is_string(v) ? anvil_json_string(v) : anvil_sv("", 0);
    if (anvil_sv_eq_cstr(fault, "client")) {
        return ANVIL_FAULT_CLIENT;
    }
    return anvil_sv_eq_cstr(fault, "server") ? ANVIL_FAULT_SERVER : ANVIL_FAULT_NONE;
}

int anvil_error_http_status(const struct anvil_shape *error) {
    const struct anvil_json *v = error ? anvil_shape_trait(error, "smithy.api#httpError") : NULL;
    if (anvil_json_is_int(v) && anvil_json_int(v) >= 100 && anvil_json_int(v) <= 999) {
        return (int)anvil_json_int(v);
    }
    switch (anvil_error_fault(error)) {
    case ANVIL_FAULT_CLIENT:
        return 400;
    case ANVIL_FAULT_SERVER:
        return 500;
    default:
        return 0;
    }
}

bool anvil_error_is_retryable(const struct anvil_shape *error, bool *throttling) {
    const struct anvil_json *v = error ? anvil_shape_trait(error, "smithy.api#retryable") : NULL;
    if (throttling) {
        *throttling = anvil_json_bool(anvil_json_object_get_cstr(v, "throttling"));
    }
    return v != NULL;
}

struct anvil_str_view anvil_error_query_code(const struct anvil_shape *error) {
    return s_string_member(error ? anvil_shape_trait(error, "aws.protocols#awsQueryError") : NULL, "code");
}

bool anvil_shape_is_streaming(const struct anvil_shape *shape) {
    return s_has(shape, "smithy.api#streaming");
}

bool anvil_shape_requires_length(const struct anvil_shape *shape) {
    return s_has(shape, "smithy.api#requiresLength");
}

static const char *const s_protocols[] = {
    "",
    "aws.protocols#awsJson1_0",
    "aws.protocols#awsJson1_1",
    "aws.protocols#restJson1",
    "aws.protocols#awsQuery",
    "aws.protocols#restXml",
    "aws.protocols#ec2Query",
};

const char *anvil_protocol_trait(enum anvil_protocol protocol) {
    return (unsigned)protocol < sizeof s_protocols / sizeof s_protocols[0] ? s_protocols[protocol] : "";
}

size_t anvil_service_protocols(const struct anvil_shape *service, enum anvil_protocol *out, size_t max) {
    size_t n = 0;
    for (size_t p = 1; p < sizeof s_protocols / sizeof s_protocols[0]; p++) {
        if (s_has(service, s_protocols[p])) {
            if (out && n < max) {
                out[n] = (enum anvil_protocol)p;
            }
            n++;
        }
    }
    return n;
}

bool anvil_service_aws(const struct anvil_shape *service, struct anvil_aws_service *out) {
    const struct anvil_json *v = service ? anvil_shape_trait(service, "aws.api#service") : NULL;
    if (out) {
        out->sdk_id = s_string_member(v, "sdkId");
        out->endpoint_prefix = s_string_member(v, "endpointPrefix");
        out->arn_namespace = s_string_member(v, "arnNamespace");
        out->cloudformation_name = s_string_member(v, "cloudFormationName");
        out->cloudtrail_event_source = s_string_member(v, "cloudTrailEventSource");
    }
    return anvil_json_is_object(v);
}

struct anvil_str_view anvil_service_sigv4_name(const struct anvil_shape *service) {
    return s_string_member(service ? anvil_shape_trait(service, "aws.auth#sigv4") : NULL, "name");
}
