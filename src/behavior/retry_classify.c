/*
 * Error classification for retries, with the code lists the SDKs share
 * (botocore retries/standard.py, go-v2 aws/retry, smithy-rs classifiers and
 * the SDK Reference Guide): throttling codes first, then modelled
 * @retryable, transient codes, 500/502/503/504, connection failures.
 */

#include <string.h>

#include "anvil/traits.h"
#include "behavior/behavior_internal.h"

const char *anvil_retry_error_type_name(enum anvil_retry_error_type type) {
    static const char *const names[] = {"server", "client", "throttling", "transient"};
    return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "unknown";
}

static bool s_in(struct anvil_str_view code, const char *const *list) {
    for (; *list; list++) {
        if (anvil_sv_eq_cstr(code, *list)) {
            return true;
        }
    }
    return false;
}

static const char *const s_throttling[] = {
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
    NULL,
};

/* Transient codes: botocore's pair plus the Reference Guide 2.1 additions. */
static const char *const s_transient[] = {
    "RequestTimeout", "RequestTimeoutException", "InternalError", "IDPCommunicationError", NULL,
};

static void s_set(struct anvil_retry_class *out, bool retryable, enum anvil_retry_error_type type, bool safe) {
    out->retryable = retryable;
    out->type = type;
    out->safe_for_any_operation = safe;
}

static void s_io(const struct anvil_retry_response *r, struct anvil_retry_class *out) {
    switch (r->io_error) {
    case ANVIL_RETRY_IO_CONNECT_REFUSED:
    case ANVIL_RETRY_IO_DNS_TEMPORARY:
        /* The request never left the client: safe for any operation. */
        s_set(out, true, ANVIL_RETRY_ERROR_SERVER, true);
        return;
    case ANVIL_RETRY_IO_CONNECT_TIMEOUT:
        s_set(out, true, ANVIL_RETRY_ERROR_TRANSIENT, true);
        return;
    case ANVIL_RETRY_IO_RESET:
        s_set(out, true, ANVIL_RETRY_ERROR_SERVER, false);
        return;
    case ANVIL_RETRY_IO_READ_TIMEOUT:
        s_set(out, true, ANVIL_RETRY_ERROR_TRANSIENT, false);
        return;
    default: /* DNS not found, TLS failures, cancellation, an answer over the size cap */
        s_set(out, false, ANVIL_RETRY_ERROR_CLIENT, false);
        return;
    }
}

void anvil_retry_classify(const struct anvil_retry_response *r, struct anvil_retry_class *out) {
    s_set(out, false, ANVIL_RETRY_ERROR_CLIENT, false);
    if (!r || r->success) {
        return;
    }
    if (r->io_error != ANVIL_RETRY_IO_NONE) {
        s_io(r, out);
        return;
    }
    if (r->clock_corrected) {
        s_set(out, true, ANVIL_RETRY_ERROR_TRANSIENT, true);
        return;
    }
    struct anvil_str_view code = anvil_error_code_normalize(r->code);
    int status = r->http_status;
    /* A hint that the server did nothing with the request: 429 and 503. */
    bool hinted = status == 429 || status == 503;
    if (r->modeled_throttling || s_in(code, s_throttling)) {
        /* The code comes first: a 5xx with a throttling code is throttling, not transient. */
        s_set(out, true, ANVIL_RETRY_ERROR_THROTTLING, true);
    } else if (r->modeled_retryable) {
        s_set(out, true, ANVIL_RETRY_ERROR_SERVER, true);
    } else if (s_in(code, s_transient)) {
        s_set(out, true, ANVIL_RETRY_ERROR_SERVER, hinted);
    } else if (status == 500 || status == 502 || status == 503 || status == 504) {
        s_set(out, true, ANVIL_RETRY_ERROR_SERVER, hinted);
    } else {
        s_set(out, false, status >= 500 ? ANVIL_RETRY_ERROR_SERVER : ANVIL_RETRY_ERROR_CLIENT, hinted);
    }
}

/* The error shape among `shape`'s errors that travels as `code`, or NULL. */
static const struct anvil_shape *s_error_named(const struct anvil_shape *shape, struct anvil_str_view code) {
    for (size_t i = 0; shape && i < anvil_shape_error_count(shape); i++) {
        const struct anvil_shape *e = anvil_shape_error_at(shape, i);
        if (anvil_sv_eq(anvil_shape_name(e), code) || anvil_sv_eq(anvil_error_query_code(e), code)) {
            return e;
        }
    }
    return NULL;
}

void anvil_retry_response_from_model(struct anvil_retry_response *r, const struct anvil_model *model,
                                     const struct anvil_shape *operation) {
    if (!r || r->success) {
        return;
    }
    struct anvil_str_view code = anvil_error_code_normalize(r->code);
    if (code.len == 0) {
        return;
    }
    const struct anvil_shape *error = s_error_named(operation, code);
    for (size_t i = 0; !error && model && i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
            error = s_error_named(s, code);
        }
    }
    bool throttling = false;
    r->modeled_retryable = anvil_error_is_retryable(error, &throttling);
    r->modeled_throttling = r->modeled_retryable && throttling;
}
