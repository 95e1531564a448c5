#ifndef ANVIL_CLIENT_H
#define ANVIL_CLIENT_H

/**
 * An operation client for the AWS protocols (awsJson1_0, awsJson1_1,
 * restJson1, awsQuery, ec2Query, restXml), driven by a Smithy model: HTTPS
 * (or HTTP to a local emulator) over anvil's own HTTP/1.1 transport, or
 * libcurl when a proxy is configured or for many waits at once, SigV4,
 * credentials and region found the way AWS tools find them, every call
 * through a retry strategy, idempotency tokens filled and request
 * compression applied. docs/client.md ("Transport").
 *
 * Threads: a client is used by one thread at a time (it owns one kept
 * connection, a libcurl handle once one is needed, and a clock offset);
 * make one client per thread. What clients may
 * share across threads: the model, a retry strategy (its quota and rate
 * limiter are locked), a credentials provider (its refresh is locked) and
 * compiled endpoint rules, each of which must outlive the clients.
 */

#include <signal.h>

#include "anvil/credentials.h"
#include "anvil/endpoint.h"
#include "anvil/env.h"
#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/paginator.h"
#include "anvil/retry.h"
#include "anvil/waiter.h"

ANVIL_EXTERN_C_BEGIN

/** Looks an environment variable up (NULL when unset); the same as anvil_getenv_fn. */
typedef anvil_getenv_fn anvil_client_getenv_fn;

/** Credentials and region, as found. */
struct anvil_aws_config {
    char access_key_id[128];
    char secret_access_key[128];
    char session_token[8192];
    char region[64];
    /** Where the credentials came from: "environment", "profile NAME" or "" (none found). */
    char source[96];
    /**
     * The retry settings AWS tools read, as text ("" when unset): AWS_RETRY_MODE
     * and AWS_MAX_ATTEMPTS, else the profile's `retry_mode` and `max_attempts`.
     */
    char retry_mode[16];
    char max_attempts[16];
    /** The CA bundle to verify TLS with: AWS_CA_BUNDLE, else the profile's `ca_bundle` ("" = the system's). */
    char ca_bundle[1024];
    /**
     * The endpoint settings, as text ("" when unset), each checked to be a
     * value it may take (in any case): the environment's
     * (AWS_USE_FIPS_ENDPOINT, AWS_USE_DUALSTACK_ENDPOINT,
     * AWS_STS_REGIONAL_ENDPOINTS, AWS_S3_US_EAST_1_REGIONAL_ENDPOINT,
     * AWS_S3_USE_ARN_REGION, AWS_S3_DISABLE_MULTIREGION_ACCESS_POINTS,
     * AWS_ACCOUNT_ID_ENDPOINT_MODE), else the profile's
     * (use_fips_endpoint, use_dualstack_endpoint, sts_regional_endpoints,
     * s3_use_arn_region, s3_disable_multiregion_access_points,
     * account_id_endpoint_mode, and under `s3 =`: addressing_style,
     * use_accelerate_endpoint, us_east_1_regional_endpoint,
     * use_dualstack_endpoint, S3's alone). The account id goes with the
     * credentials: AWS_ACCOUNT_ID with the environment's keys, else the
     * profile's aws_account_id (credentials file, then config file).
     */
    char use_fips_endpoint[8];
    char use_dualstack_endpoint[8];
    char sts_regional_endpoints[16];
    char s3_us_east_1_regional_endpoint[16];
    char s3_use_arn_region[8];
    char s3_disable_multiregion_access_points[8];
    char s3_addressing_style[16];
    char s3_use_accelerate_endpoint[8];
    char s3_use_dualstack_endpoint[8];
    char account_id[32];
    char account_id_endpoint_mode[16];
    /** The profile looked at ("default" when none was named), and the two files looked in. */
    char profile[96];
    char credentials_path[1024];
    char config_path[1024];
    /** A profile was named (the `profile` argument or AWS_PROFILE), and whether either file has a section for it. */
    bool profile_named;
    bool profile_found;
};

/**
 * Finds credentials and the region: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY
 * / AWS_SESSION_TOKEN, else the profile (`profile`, else AWS_PROFILE, else
 * "default") in ~/.aws/credentials and ~/.aws/config (or
 * AWS_SHARED_CREDENTIALS_FILE / AWS_CONFIG_FILE); the region from
 * `region`, AWS_REGION, AWS_DEFAULT_REGION, or the profile; the retry
 * settings and the CA bundle from the environment or the profile. Missing
 * credentials or a profile no file defines are not errors here (source "",
 * profile_found false). ANVIL_ECONFIG (diag names the file and line, or the
 * variable) for a file that cannot be read as INI, one that is not a
 * regular file, or a value longer than its field; ANVIL_EINVAL when the
 * `region` argument itself is too long; no credentials are kept then.
 * Thread-safe (it reads files and the environment only).
 */
ANVIL_API int anvil_aws_config_resolve(const char *profile, const char *region, anvil_client_getenv_fn *lookup,
                                       void *ctx, struct anvil_aws_config *out, struct anvil_diag *diag);

/** Zero fields mean the default. */
struct anvil_client_options {
    /** The profile and region to use (NULL = from the environment, see anvil_aws_config_resolve()). */
    const char *profile;
    const char *region;
    /**
     * e.g. "http://127.0.0.1:8000"; NULL = AWS_ENDPOINT_URL_<SDK ID> or
     * AWS_ENDPOINT_URL (unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true), else
     * https://{endpointPrefix}.{region}.amazonaws.com.
     */
    const char *endpoint_url;
    /** The retry strategy (a reference is taken); NULL = a new standard 2.1 strategy. */
    struct anvil_retry_strategy *retry;
    /** A file of CA certificates to verify TLS with (NULL = AWS_CA_BUNDLE, the profile's ca_bundle, else the system's).
     */
    const char *ca_bundle;
    /** Connect and whole-request timeouts (defaults 10 s and 60 s) and the largest response kept (default 64 MiB). */
    uint64_t connect_timeout_ms;
    uint64_t request_timeout_ms;
    size_t max_response_bytes;
    /** Clock, sleep and random (NULL = anvil_env_system()); the wall clock signs requests. */
    const struct anvil_env *env;
    /** For tests: the environment lookup (NULL = getenv). */
    anvil_client_getenv_fn *getenv;
    void *getenv_ctx;
    /**
     * A retry policy for every call (anvil_retry_policy_fn): it runs before the
     * default classification, e.g. to retry an error code the service does not
     * model as retryable. NULL = none.
     */
    anvil_retry_policy_fn *retry_policy;
    void *retry_policy_ctx;
    /**
     * When set and non-zero (a signal handler may set it), the call in
     * progress stops within a second, in flight or in a backoff, with
     * ANVIL_ECANCELED. NULL = not cancellable.
     */
    const volatile sig_atomic_t *cancel;
    /**
     * The endpoint rules to resolve every call's endpoint with, first of:
     * `endpoint_rules` (compiled by anvil_endpoint_rules_compile(); must
     * outlive the client); `endpoint_rule_set` (a rule set document, such as
     * botocore's endpoint-rule-set-1.json, compiled by anvil_client_new() and
     * not needed after it); the service's smithy.rules#endpointRuleSet. Both
     * compile with `partitions` (NULL = the built-in ones; must outlive the
     * client). With none, calls go to endpoint_url, else
     * https://{endpointPrefix}.{region}.amazonaws.com.
     */
    const struct anvil_endpoint_rules *endpoint_rules;
    const struct anvil_json *endpoint_rule_set;
    const struct anvil_partitions *partitions;
    /**
     * Values of the rule set's parameters by name (an object, copied), as
     * clientContextParams are given, such as S3's {"ForcePathStyle": true}:
     * over the built-ins, under what the operation binds (its input's
     * context parameters and static ones). A name the rule set lacks, a
     * value of the wrong type, or any value without rules is ANVIL_EINVAL.
     * NULL = none.
     */
    const struct anvil_json *endpoint_params;
    /**
     * Where the credentials come from (a reference is taken; one provider
     * may serve many clients). NULL = anvil_credentials_provider_default()
     * with the profile, region, environment, clock, CA bundle, cancel flag
     * and debug callback above. Asked before every signature.
     */
    struct anvil_credentials_provider *credentials;
    /** Send requests unsigned, needing no credentials (as `aws --no-sign-request`, for public resources). */
    bool no_sign;
    /** When set, called with one line per attempt (method, target, status, latency, decision); never secrets. */
    void (*debug)(void *ctx, const char *line);
    void *debug_ctx;
    /**
     * The application's id in every request's User-Agent ("anvil/VERSION
     * os/OS lang/c app/ID", as AWS SDKs send `sdk_ua_app_id`): NULL =
     * AWS_SDK_UA_APP_ID from the environment, else none. At most 50 bytes
     * are kept; a byte that may not appear in a User-Agent token becomes '-'.
     */
    const char *app_id;
};

struct anvil_client;

/**
 * The Smithy name of the protocol a client for `service` speaks
 * ("awsJson1_0", "restJson1", "awsQuery", "ec2Query", "restXml", ...): the
 * first of the service's protocol traits that anvil speaks, or NULL when it
 * speaks none of them (or `service` is NULL). Static storage. Thread-safe.
 */
ANVIL_API const char *anvil_client_protocol(const struct anvil_shape *service);

/**
 * A client for `service` (an absolute shape id, or NULL for the model's
 * only service). The model must outlive the client. ANVIL_EUNSUPPORTED for
 * a service that speaks no protocol anvil_client_protocol() names;
 * ANVIL_ECONFIG for what the machine's configuration lacks or gets wrong:
 * no region, no credentials (unless `no_sign`), a named profile no file
 * defines, an unreadable credentials or config file, a bad endpoint or
 * endpoint setting from the environment or the profile; ANVIL_EMODEL for
 * a service whose endpoint rule set does not compile (diag names the rule);
 * ANVIL_EINVAL for a bad `options->endpoint_url` or `service`. diag says
 * which, and never prints a secret (user information in an endpoint is
 * shown as ***).
 */
ANVIL_API int anvil_client_new(struct anvil_allocator *allocator, const struct anvil_model *model, const char *service,
                               const struct anvil_client_options *options, struct anvil_client **out,
                               struct anvil_diag *diag);

ANVIL_API void anvil_client_destroy(struct anvil_client *client);

/** The service shape the client calls. */
ANVIL_API const struct anvil_shape *anvil_client_service(const struct anvil_client *client);

/**
 * The operation shape named `name` (e.g. "DescribeTable", or its absolute
 * shape id) in the service's closure, or NULL.
 */
ANVIL_API const struct anvil_shape *anvil_client_operation(const struct anvil_client *client, const char *name);

/** anvil_client_operation() with the name as a string view (a waiter's or paginator's operation, say). */
ANVIL_API const struct anvil_shape *anvil_client_operation_sv(const struct anvil_client *client,
                                                              struct anvil_str_view name);

/**
 * One logical call: fills the idempotency token, then sends, signs and
 * retries as the strategy (and the options' retry policy) decides,
 * cancelling an attempt still running at `deadline_ms` (0 = none) on the
 * env's clock, or at the end of the strategy's max_total_ms; no backoff
 * runs past either. Fills `reply` with the output
 * (ANVIL_OK) or the error: code normalised from `__type` or
 * X-Amzn-ErrorType, message, HTTP status (ANVIL_ESERVICE). A transport
 * failure that outlasts the retries gives ANVIL_ETRANSPORT (or
 * ANVIL_ETIMEDOUT at the deadline) with the reason in reply->error.
 */
ANVIL_API int anvil_client_call(struct anvil_client *client, const struct anvil_shape *operation,
                                const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                                struct anvil_operation_reply *reply);

/**
 * The request one call of `operation` with `input` sends first,
 * serialised by the service's protocol and signed, without sending it (what
 * `anvil call --dry-run` prints): method, full URL, target, every header
 * (Host, X-Amz-Date, Authorization and X-Amz-Security-Token included) and
 * the body, all copied into `arena`. An idempotency token the input lacks
 * is filled as a call would. ANVIL_EINVAL with `diag` naming the member
 * for an input the protocol cannot send; ANVIL_ENOMEM. Not thread-safe.
 */
ANVIL_API int anvil_client_prepare(struct anvil_client *client, const struct anvil_shape *operation,
                                   const struct anvil_json *input, struct anvil_arena *arena,
                                   struct anvil_http_request *out, struct anvil_diag *diag);

/**
 * Where a call of `operation` (NULL: none, only the built-ins and the
 * client's endpoint parameters bind) with `input` goes, as the call would
 * resolve it: with endpoint rules, their URL, headers, properties (the auth
 * schemes among them) and the rule that gave them; without, the configured
 * endpoint (`rule` SIZE_MAX, no headers or properties). Values live in
 * `arena`. ANVIL_ECONFIG with the rule set's own message (an error rule,
 * no rule matching, a required parameter without a value) in `diag`, and
 * in `out` the rule that answered and its whole message; ANVIL_EINVAL
 * for an input value of the wrong type for its parameter;
 * ANVIL_EUNSUPPORTED for an auth scheme anvil cannot sign with (SigV4A,
 * S3 Express); ANVIL_EMODEL for a URL, header or signing scope the rules
 * give that anvil cannot send; ANVIL_ELIMIT; ANVIL_ENOMEM. Not thread-safe.
 */
ANVIL_API int anvil_client_endpoint(struct anvil_client *client, const struct anvil_shape *operation,
                                    const struct anvil_json *input, struct anvil_arena *arena,
                                    struct anvil_endpoint *out, struct anvil_diag *diag);

/** The endpoint rules the client resolves with (to name a rule: anvil_endpoint_rule_path()), or NULL for none. */
ANVIL_API const struct anvil_endpoint_rules *anvil_client_endpoint_rules(const struct anvil_client *client);

/** What anvil_client_operation_call() needs (user data of an anvil_operation_fn). */
struct anvil_client_operation {
    struct anvil_client *client;
    const struct anvil_shape *operation;
    /**
     * The waiter polling the operation, or NULL. With one, an error that an
     * acceptor of the waiter matches (errorType, `success: false`, status) is
     * handed to the waiter at once and never retried by the client; other
     * retryable errors are retried, but never past the attempt's deadline.
     * The operation counts as idempotent then: the waiter calls it again
     * anyway, so a retry inside a poll repeats nothing the waiter would not.
     */
    const struct anvil_waiter *waiter;
};

/**
 * An anvil_operation_fn calling an operation through a client. When
 * the deadline cuts off a call whose earlier tries failed, the call returns
 * ANVIL_ETIMEDOUT and the reply keeps the last of those errors, with
 * `reply->failed_status` its status.
 */
ANVIL_API int anvil_client_operation_call(void *user_data, const struct anvil_json *input, uint64_t deadline_ms,
                                          struct anvil_arena *arena, struct anvil_operation_reply *reply);

/* ---- one call ---- */

/**
 * Waits with the model's waiter `waiter_name` (a waiter of an operation of
 * the client's service, e.g. "TableExists"), polling through the client:
 * anvil_wait() with anvil_client_operation_call(). `options->max_wait_ms`
 * is required. ANVIL_ENOTFOUND (diag names it) when the service has no such
 * waiter; otherwise what anvil_wait() returns, the outcome in `result`
 * (release it with anvil_wait_result_clean_up() in every case). The
 * model's waiters are read at the first call and kept with the client. Not
 * thread-safe (a client is one thread's). docs/embedding.md.
 */
ANVIL_API int anvil_client_wait(struct anvil_client *client, const char *waiter_name, const struct anvil_json *input,
                                const struct anvil_wait_options *options, struct anvil_wait_result *result,
                                struct anvil_diag *diag);

/* ---- many waits at once ---- */

/** One wait of anvil_client_wait_many() that ended. */
struct anvil_wait_many_done {
    /** Its place in the inputs. */
    size_t index;
    /** Its outcome and message; valid during the callback only. */
    const struct anvil_wait_result *result;
};

/** Called as each wait ends, in the order they end, on the calling thread. */
typedef void anvil_wait_many_fn(void *ctx, const struct anvil_wait_many_done *done);

/** The fleet so far, for a progress display. */
struct anvil_wait_many_progress {
    size_t waiting, succeeded, failed, timed_out;
    /** Requests sent, and those a service answered with a throttling error. */
    uint64_t requests, throttled;
    /** Requests on the wire now. */
    size_t in_flight;
};

typedef void anvil_wait_many_progress_fn(void *ctx, const struct anvil_wait_many_progress *progress);

struct anvil_wait_many_options {
    /** Every wait's options (max_wait_ms required). Its cancel flag ends every wait at once. */
    struct anvil_wait_options wait;
    /**
     * The most polls under way at once (0 = 64, at most 4,096): on the wire,
     * or waiting out a retry's backoff, the rate limiter or max_rps. A poll
     * throttled to the end of its retries gives its slot up while it waits
     * the waiter's minimum delay. A wait whose poll is due waits for a free
     * slot; one that cannot get one before its last attempt's time is up
     * ends timed out.
     */
    size_t max_in_flight;
    /** The most requests per second for the whole fleet, retries included (0 = no cap but the limiter's; at most 1e6).
     */
    double max_rps;
    /** Required: each wait's end. */
    anvil_wait_many_fn *on_done;
    void *ctx;
    /** Optional: called at most every `progress_every_ms` (0 = 1000) of the client's clock, and at the end. */
    anvil_wait_many_progress_fn *on_progress;
    uint64_t progress_every_ms;
    /**
     * Optional: this waiter instead of the model's `waiter_name` (which may
     * then be NULL), e.g. one of botocore's waiters-2.json; its operation
     * must be one of the client's service.
     */
    const struct anvil_waiter *waiter;
};

/**
 * Waits on many resources at once with the model's waiter `waiter_name`,
 * one input each, on the calling thread: the waits' polls go out
 * concurrently over curl's multi interface (connections shared), each
 * signed, retried and cut off at its deadline exactly as
 * anvil_client_wait()'s are, all through the client's one retry strategy,
 * so one retry quota per service endpoint (and one adaptive rate limiter,
 * in adaptive mode) serves the whole fleet: throttling answers slow every
 * wait down together. A poll whose call still ends on a throttling error
 * (the client's retries spent) is not the resource's answer: it is made
 * again after the waiter's minimum delay, so throttling never ends a wait
 * (its deadline still does). Each wait's end goes to `options->on_done` as
 * it happens. Returns ANVIL_OK once every wait has ended (whatever each
 * outcome), ANVIL_ENOTFOUND for an unknown waiter, ANVIL_EINVAL for bad
 * options (diag says which); ANVIL_ENOMEM, ANVIL_EIO (the random source)
 * or ANVIL_ETRANSPORT (curl's multi interface failed) stop the run, and the
 * waits not reported by then get no on_done. Memory: the 256-byte wait
 * state and a copy of the last answer of each wait (2.3 KB a wait with
 * CloudFormation's DescribeStacks), and one request's buffers per poll
 * under way. Not thread-safe (a client is one thread's).
 */
ANVIL_API int anvil_client_wait_many(struct anvil_client *client, const char *waiter_name,
                                     const struct anvil_json *const *inputs, size_t count,
                                     const struct anvil_wait_many_options *options, struct anvil_diag *diag);

/**
 * Receives each page of anvil_client_paginate(): the operation's output and
 * what the paginator made of it (items, why paginating would stop). Both
 * are valid during the call only. Return 0 to go on, anything else to stop
 * (anvil_client_paginate() then returns it).
 */
typedef int anvil_client_page_fn(void *ctx, const struct anvil_json *output, const struct anvil_paginate_page *page);

/**
 * Calls the paginated operation `operation_name` (by name, e.g.
 * "ListTables") page after page with the model's @paginated description,
 * from `input` (NULL = {}), handing each page to `on_page`, until the
 * paginator says the end or a limit of `options` (NULL = none) is reached.
 * ANVIL_OK; ANVIL_ENOTFOUND for an operation that is not paginated; a
 * failed call's status with diag naming the page and the service's error;
 * the callback's own value when it stops. Not thread-safe.
 */
ANVIL_API int anvil_client_paginate(struct anvil_client *client, const char *operation_name,
                                    const struct anvil_json *input, const struct anvil_paginate_options *options,
                                    anvil_client_page_fn *on_page, void *ctx, struct anvil_diag *diag);

ANVIL_EXTERN_C_END

#endif
