/*
 * Where a client's requests go. The configured endpoint (the caller's
 * endpoint_url, else AWS_ENDPOINT_URL_<SDK ID>, else AWS_ENDPOINT_URL) is
 * checked once, when the client is made. A service with an endpoint rule
 * set (the caller's, else its smithy.rules#endpointRuleSet) has the rules
 * resolved for every call, from the built-ins (region, FIPS, dual-stack,
 * the configured endpoint, S3's and STS's settings, the account id), the
 * client's endpoint parameters and what the operation binds; the rules'
 * auth scheme says how to sign. A service without one goes to the
 * configured endpoint, else https://{endpointPrefix}.{region}.amazonaws.com.
 */

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transport/client_internal.h"

/*
 * `url` for messages, at most about 160 bytes of it: any user information
 * replaced by "***". Everything between "://" and the last '@' is taken for
 * it (a password may hold '/', '?' or '#', which would end the authority of
 * a URL read by the letter), so nothing of a secret is ever shown.
 */
static void s_redacted(struct anvil_str_view url, char *out, size_t size) {
    size_t authority = 0;
    for (size_t i = 0; i + 3 <= url.len; i++) {
        if (memcmp(url.ptr + i, "://", 3) == 0) {
            authority = i + 3;
            break;
        }
    }
    size_t at = SIZE_MAX;
    for (size_t i = authority; i < url.len; i++) {
        at = url.ptr[i] == '@' ? i : at;
    }
    struct anvil_str_view rest =
        at == SIZE_MAX ? anvil_sv_slice(url, authority, url.len - authority) : anvil_sv_slice(url, at, url.len - at);
    bool cut = rest.len > 120;
    snprintf(out, size, "%.*s%s%.*s%s", (int)(authority > 16 ? 16 : authority), url.ptr, at == SIZE_MAX ? "" : "***",
             (int)(cut ? 120 : rest.len), rest.ptr, cut ? "..." : "");
}

static bool s_host_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_';
}

int anvil__url_split(struct anvil_str_view url, struct anvil__url *out, struct anvil_diag *diag) {
    memset(out, 0, sizeof *out);
    char shown[800];
    s_redacted(url, shown, sizeof shown);
    if (memchr(url.ptr, '\0', url.len)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` holds a NUL byte", shown);
    }
    /* Schemes are case-insensitive (RFC 3986 3.1); curl is given the lower-case one. */
    bool https = url.len >= 8 && strncasecmp(url.ptr, "https://", 8) == 0;
    if (!https && !(url.len >= 7 && strncasecmp(url.ptr, "http://", 7) == 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` is not an http:// or https:// URL",
                              shown);
    }
    struct anvil_str_view rest = anvil_sv_slice(url, https ? 8 : 7, url.len - (https ? 8 : 7));
    size_t n = 0;
    while (n < rest.len && !strchr("/?#", rest.ptr[n])) {
        n++;
    }
    const char *authority = rest.ptr;
    if (memchr(authority, '@', n)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "the endpoint `%s` has user information; requests are signed with SigV4, so "
                              "give the endpoint without it",
                              shown);
    }
    /* The host: a name or IPv4 address, or an IPv6 literal in brackets; then an optional :port. */
    size_t host_len = 0;
    if (n > 0 && authority[0] == '[') {
        const char *close = memchr(authority, ']', n);
        host_len = close ? (size_t)(close - authority) + 1 : 0;
        /* An IPv6 address has at least two colons: "[]" and "[1]" are none. */
        size_t colons = 0;
        for (size_t i = 1; i + 1 < host_len; i++) {
            colons += authority[i] == ':';
        }
        host_len = colons >= 2 ? host_len : 0;
        for (size_t i = 1; host_len && i + 1 < host_len; i++) {
            char ch = authority[i];
            host_len = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F') || ch == ':' ||
                               ch == '.'
                           ? host_len
                           : 0;
        }
    } else if (n > 0 && authority[0] != '-' && authority[0] != '.') {
        /* A host name or IPv4 address: it starts with a letter, a digit or '_' ("-" and ".x" are none). */
        while (host_len < n && s_host_char(authority[host_len])) {
            host_len++;
        }
    }
    unsigned long port = 0;
    bool port_ok = host_len > 0;
    if (port_ok && host_len < n) {
        port_ok = authority[host_len] == ':' && host_len + 1 < n && n - host_len - 1 <= 5;
        for (size_t i = host_len + 1; port_ok && i < n; i++) {
            port_ok = authority[i] >= '0' && authority[i] <= '9';
            port = port * 10 + (unsigned long)(authority[i] - '0');
        }
        port_ok = port_ok && port >= 1 && port <= 65535;
    }
    if (!port_ok || n >= sizeof out->host) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` has no valid host[:port]", shown);
    }
    /*
     * The Host header anvil sends and signs: the host, with the port unless
     * it is the scheme's default (curl would drop it, and the signature
     * would then cover a Host the service never sees).
     */
    bool default_port = port == 0 || port == (https ? 443u : 80u);
    memcpy(out->host, authority, default_port ? host_len : n);
    out->host[default_port ? host_len : n] = '\0';
    snprintf(out->base, sizeof out->base, "%s://%.*s", https ? "https" : "http", (int)n, authority);
    /*
     * A host prefix (`@endpoint(hostPrefix)`) names a host under the
     * endpoint's: there is none under an IP address or localhost (a local
     * emulator), so requests to those go to the endpoint as given.
     */
    size_t digits = 0;
    while (digits < host_len && ((authority[digits] >= '0' && authority[digits] <= '9') || authority[digits] == '.')) {
        digits++;
    }
    bool ip = authority[0] == '[' || digits == host_len;
    out->host_prefix_allowed = !ip && !(host_len == 9 && strncasecmp(authority, "localhost", 9) == 0);
    struct anvil_str_view path = anvil_sv_slice(rest, n, rest.len - n);
    if (anvil_sv_find_byte(path, 0, '?') != SIZE_MAX || anvil_sv_find_byte(path, 0, '#') != SIZE_MAX) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint `%s` has a query or a fragment", shown);
    }
    bool path_ok = path.len < sizeof out->path;
    for (size_t i = 0; path_ok && i < path.len; i++) {
        path_ok = (unsigned char)path.ptr[i] > 0x20 && (unsigned char)path.ptr[i] < 0x7f;
    }
    if (!path_ok) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "the endpoint `%s` has a path anvil cannot send (spaces, controls or bytes over "
                              "0x7e must be percent-encoded; at most %zu bytes)",
                              shown, sizeof out->path - 1);
    }
    /* The path is sent as given, dot segments included ("http://h:1/" and "http://h:1" both post to "/"). */
    snprintf(out->path, sizeof out->path, "%.*s", (int)(path.len ? path.len : 1), path.len ? path.ptr : "/");
    return ANVIL_OK;
}

static const char *s_getenv(const struct anvil_client_options *o, const char *name) {
    return o->getenv ? o->getenv(o->getenv_ctx, name) : getenv(name);
}

/*
 * The endpoint AWS tools take from the environment: AWS_ENDPOINT_URL_<SDK ID>
 * (the sdkId upper-cased, spaces and dashes as '_'), then AWS_ENDPOINT_URL;
 * none when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true.
 */
static const char *s_env_endpoint(const struct anvil_client_options *o, struct anvil_str_view sdk_id) {
    const char *ignore = s_getenv(o, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    if (ignore && strcasecmp(ignore, "true") == 0) {
        return NULL;
    }
    char name[160] = "AWS_ENDPOINT_URL_";
    size_t n = strlen(name);
    for (size_t i = 0; i < sdk_id.len && n + 1 < sizeof name; i++) {
        char ch = sdk_id.ptr[i];
        name[n++] = ch == ' ' || ch == '-' ? '_' : ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch;
    }
    name[n] = '\0';
    const char *url = sdk_id.len ? s_getenv(o, name) : NULL;
    url = url && *url ? url : s_getenv(o, "AWS_ENDPOINT_URL");
    return url && *url ? url : NULL;
}

static bool s_true(const char *setting) {
    return strcasecmp(setting, "true") == 0;
}

/* The regions whose STS requests go to the global endpoint when sts_regional_endpoints is legacy (botocore's list). */
static bool s_legacy_global_sts_region(const char *region) {
    static const char *const regions[] = {"ap-northeast-1", "ap-south-1",   "ap-southeast-1", "ap-southeast-2",
                                          "aws-global",     "ca-central-1", "eu-central-1",   "eu-north-1",
                                          "eu-west-1",      "eu-west-2",    "eu-west-3",      "sa-east-1",
                                          "us-east-1",      "us-east-2",    "us-west-1",      "us-west-2"};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(regions); i++) {
        if (strcmp(region, regions[i]) == 0) {
            return true;
        }
    }
    return false;
}

static int s_builtin_bool(struct anvil_json_builder *b, const char *name, bool value) {
    int rc = anvil_json_builder_key(b, name, strlen(name));
    return rc == ANVIL_OK ? anvil_json_builder_bool(b, value) : rc;
}

static int s_builtin_string(struct anvil_json_builder *b, const char *name, const char *value) {
    if (!value[0]) {
        return ANVIL_OK; /* unset: the parameter's default applies */
    }
    int rc = anvil_json_builder_key(b, name, strlen(name));
    return rc == ANVIL_OK ? anvil_json_builder_string(b, value, strlen(value)) : rc;
}

/*
 * The built-ins, as the AWS CLI (botocore) sets them: FIPS and dual-stack
 * only without a configured endpoint (the rules refuse both together);
 * S3's path style when asked for, and for a configured endpoint unless
 * virtual hosting is asked for (an emulator serves buckets by path); S3's
 * global endpoint in us-east-1 unless us_east_1_regional_endpoint is
 * regional; STS's global endpoint only when sts_regional_endpoints is
 * legacy, in the regions that had it; the ARN's region for S3 unless
 * turned off, and for S3 Control only when turned on.
 */
static int s_builtins(struct anvil_client *c) {
    const struct anvil_aws_config *a = &c->aws;
    bool given = c->endpoint_given;
    bool accelerate = s_true(a->s3_use_accelerate_endpoint);
    bool path_style = accelerate ? false
                      : given    ? strcasecmp(a->s3_addressing_style, "virtual") != 0
                                 : strcasecmp(a->s3_addressing_style, "path") == 0;
    bool dualstack = s_true(a->use_dualstack_endpoint) || (c->is_s3 && s_true(a->s3_use_dualstack_endpoint));
    bool us_east_1 = strcmp(a->region, "us-east-1") == 0;
    struct anvil_json_builder *b = NULL;
    int rc = anvil_json_builder_new(c->allocator, c->arena, &b);
    rc = rc == ANVIL_OK ? anvil_json_builder_begin_object(b) : rc;
    rc = rc == ANVIL_OK ? s_builtin_string(b, "AWS::Region", a->region) : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::UseFIPS", !given && s_true(a->use_fips_endpoint)) : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::UseDualStack", !given && dualstack) : rc;
    rc = rc == ANVIL_OK && given ? s_builtin_string(b, "SDK::Endpoint", c->endpoint_url) : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::STS::UseGlobalEndpoint",
                                         !given && strcasecmp(a->sts_regional_endpoints, "legacy") == 0 &&
                                             s_legacy_global_sts_region(a->region))
                        : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::S3::UseGlobalEndpoint",
                                         us_east_1 && strcasecmp(a->s3_us_east_1_regional_endpoint, "regional") != 0)
                        : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::S3::Accelerate", accelerate) : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::S3::ForcePathStyle", path_style) : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::S3::UseArnRegion", strcasecmp(a->s3_use_arn_region, "false") != 0)
                        : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::S3Control::UseArnRegion", s_true(a->s3_use_arn_region)) : rc;
    rc = rc == ANVIL_OK ? s_builtin_bool(b, "AWS::S3::DisableMultiRegionAccessPoints",
                                         s_true(a->s3_disable_multiregion_access_points))
                        : rc;
    /* Checked in any case (aws_config.c), given to the rules as their words: lower case. */
    char mode[sizeof a->account_id_endpoint_mode];
    snprintf(mode, sizeof mode, "%s", a->account_id_endpoint_mode[0] ? a->account_id_endpoint_mode : "preferred");
    for (char *p = mode; *p; p++) {
        *p = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
    }
    rc = rc == ANVIL_OK ? s_builtin_string(b, "AWS::Auth::AccountId", a->account_id) : rc;
    rc = rc == ANVIL_OK ? s_builtin_string(b, "AWS::Auth::AccountIdEndpointMode", mode) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_finish(b, &c->builtins) : rc;
    anvil_json_builder_destroy(b);
    return rc;
}

/*
 * The rule set: the caller's compiled one, else the caller's document or
 * the service's trait compiled (one that does not compile is the model's
 * fault: ANVIL_EMODEL naming the rule).
 */
static int s_rules(struct anvil_client *c, struct anvil_diag *diag) {
    if (c->options.endpoint_rules) {
        c->rules = c->options.endpoint_rules;
        return ANVIL_OK;
    }
    const struct anvil_json *trait = c->options.endpoint_rule_set;
    trait = trait ? trait : anvil_shape_trait(c->service, "smithy.rules#endpointRuleSet");
    if (!trait) {
        return ANVIL_OK;
    }
    struct anvil_endpoint_rules_options ro = {.partitions = c->options.partitions};
    struct anvil_diag inner;
    anvil_diag_clear(&inner);
    struct anvil_endpoint_rules *compiled = NULL;
    int rc = anvil_endpoint_rules_compile(c->allocator, trait, &ro, &compiled, &inner);
    if (rc == ANVIL_ENOMEM) {
        return rc;
    }
    if (rc != ANVIL_OK) {
        struct anvil_str_view id = anvil_shape_id(c->service);
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "the endpoint rule set of `%.*s` cannot be used: %s",
                              (int)id.len, id.ptr, inner.message);
    }
    c->rules = c->owned_rules = compiled;
    c->options.endpoint_rule_set = NULL; /* the caller's document is not needed again */
    return ANVIL_OK;
}

/* Whether a parameter of `rules` is supplied by the built-in `name`. */
static bool s_has_builtin(const struct anvil_endpoint_rules *rules, const char *name) {
    for (size_t i = 0; i < anvil_endpoint_rules_param_count(rules); i++) {
        if (anvil_sv_eq_cstr(anvil_endpoint_rules_param_at(rules, i)->builtin, name)) {
            return true;
        }
    }
    return false;
}

/* The caller's endpoint parameters, checked against the rule set and copied (the client keeps them). */
static int s_endpoint_params(struct anvil_client *c, struct anvil_diag *diag) {
    const struct anvil_json *given = c->options.endpoint_params;
    c->options.endpoint_params = NULL;
    if (!given) {
        return ANVIL_OK;
    }
    for (size_t i = 0; i < anvil_json_len(given); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(given, i);
        struct anvil_str_view name = anvil_json_member_key(m);
        long index = anvil_endpoint_rules_param_index(c->rules, name);
        const struct anvil_endpoint_param *p =
            index < 0 ? NULL : anvil_endpoint_rules_param_at(c->rules, (size_t)index);
        if (!p) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint rules have no parameter `%.*s`",
                                  (int)(name.len > 80 ? 80 : name.len), name.ptr);
        }
        const struct anvil_json *client_context = anvil_shape_trait(c->service, "smithy.rules#clientContextParams");
        if (!p->builtin.len && !anvil_json_object_get(client_context, name.ptr, name.len)) {
            /* An operation's parameter (S3's Bucket): set for every call, it would apply where it should not. */
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                  "the endpoint parameter `%.*s` is an operation's, not the client's (neither a "
                                  "clientContextParams nor a built-in)",
                                  (int)(name.len > 80 ? 80 : name.len), name.ptr);
        }
        if (anvil_sv_eq_cstr(p->builtin, "AWS::Region")) {
            /* The region also signs: it is one setting, the client's. */
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                  "the endpoint parameter `%.*s` is the region: give it as the region (--region), "
                                  "which also signs the requests",
                                  (int)name.len, name.ptr);
        }
        const struct anvil_json *v = &m->value;
        bool fits = p->type == ANVIL_ENDPOINT_PARAM_BOOLEAN  ? anvil_json_is_bool(v)
                    : p->type == ANVIL_ENDPOINT_PARAM_STRING ? anvil_json_is_string(v)
                                                             : anvil_json_is_array(v);
        for (size_t k = 0; fits && p->type == ANVIL_ENDPOINT_PARAM_STRING_ARRAY && k < anvil_json_len(v); k++) {
            fits = anvil_json_is_string(anvil_json_array_at(v, k));
        }
        if (!fits && !anvil_json_is_null(v)) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint parameter `%.*s` takes %s, not %s",
                                  (int)name.len, name.ptr,
                                  p->type == ANVIL_ENDPOINT_PARAM_BOOLEAN  ? "a boolean"
                                  : p->type == ANVIL_ENDPOINT_PARAM_STRING ? "a string"
                                                                           : "an array of strings",
                                  anvil_json_type_name(anvil_json_type(v)));
        }
    }
    int rc = anvil_json_copy(c->arena, given, &c->endpoint_params);
    c->options.endpoint_params = rc == ANVIL_OK ? &c->endpoint_params : NULL;
    return rc;
}

int anvil__client_endpoint_init(struct anvil_client *c, struct anvil_diag *diag) {
    const struct anvil_client_options *o = &c->options;
    struct anvil_aws_service aws;
    anvil_service_aws(c->service, &aws);
    c->is_s3 = anvil_sv_eq_cstr(aws.sdk_id, "S3");
    /* S3 Control's rules put the account id in the host; its `{AccountId}.` host prefix would repeat it. */
    c->rules_drop_host_prefix = anvil_sv_eq_cstr(aws.sdk_id, "S3 Control");
    struct anvil_str_view signing = anvil_service_sigv4_name(c->service);
    if (!signing.len) {
        signing = aws.endpoint_prefix;
    }
    snprintf(c->signing_name, sizeof c->signing_name, "%.*s", (int)signing.len, signing.ptr);
    /* S3 (and S3 on Outposts, S3 Express) signs the path as sent and the payload's hash in a header. */
    c->s3_signing = anvil_sv_eq_cstr(signing, "s3") || anvil_sv_eq_cstr(signing, "s3-outposts") ||
                    anvil_sv_eq_cstr(signing, "s3express");
    bool given = o->endpoint_url && *o->endpoint_url;
    const char *configured = given ? o->endpoint_url : s_env_endpoint(o, aws.sdk_id);
    int rc = ANVIL_OK;
    if (configured && strlen(configured) >= sizeof c->endpoint_url) {
        rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint is longer than %zu bytes",
                            sizeof c->endpoint_url - 1);
    } else if (configured) {
        snprintf(c->endpoint_url, sizeof c->endpoint_url, "%s", configured);
        /* Schemes are case-insensitive (RFC 3986 3.1); the rules' parseURL takes only lower case. */
        for (char *p = c->endpoint_url; *p && *p != ':'; p++) {
            *p = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
        }
        c->endpoint_given = true;
        rc = anvil__url_split(anvil_sv_from_cstr(configured), &c->configured, diag);
    }
    if (rc == ANVIL_EINVAL && !given) {
        /* From the environment: the machine's configuration is wrong. */
        rc = ANVIL_ECONFIG;
        if (diag) {
            diag->code = rc;
        }
    }
    if (rc == ANVIL_OK && o->endpoint_params && !anvil_json_is_object(o->endpoint_params)) {
        rc = anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "the endpoint parameters must be an object of name: value");
    }
    rc = rc == ANVIL_OK ? s_rules(c, diag) : rc;
    if (rc == ANVIL_OK && c->rules && c->endpoint_given && !s_has_builtin(c->rules, "SDK::Endpoint")) {
        /*
         * Rules that take no configured endpoint would send the call elsewhere
         * than the caller said (with real credentials): the configured
         * endpoint is used as it is, without them.
         */
        anvil__client_debug(c, "the endpoint rules take no SDK::Endpoint: %s is used without them", c->configured.base);
        c->rules = NULL;
        anvil_endpoint_rules_destroy(c->owned_rules);
        c->owned_rules = NULL;
    }
    if (rc == ANVIL_OK && c->rules) {
        /* S3's rules put the bucket in the endpoint when they take one (a Bucket parameter). */
        c->bucket_in_endpoint = c->is_s3 && anvil_endpoint_rules_param_index(c->rules, ANVIL_SV("Bucket")) >= 0;
        rc = anvil_arena_new(c->allocator, NULL, &c->arena);
        rc = rc == ANVIL_OK ? s_builtins(c) : rc;
        return rc == ANVIL_OK ? s_endpoint_params(c, diag) : rc;
    }
    if (rc == ANVIL_OK && o->endpoint_params && anvil_json_len(o->endpoint_params)) {
        struct anvil_str_view id = anvil_shape_id(c->service);
        return anvil_diag_set(
            diag, ANVIL_EINVAL, 0, 0, 0,
            "endpoint parameters were given, but `%.*s` has no endpoint rules to take them%s", (int)id.len, id.ptr,
            c->endpoint_given ? " (or its rules take no configured endpoint, and one was given)" : "");
    }
    if (rc != ANVIL_OK || configured) {
        return rc;
    }
    if (!aws.endpoint_prefix.len) {
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0,
                              "no endpoint: the service has neither endpoint rules nor an endpointPrefix; give "
                              "--endpoint-url");
    }
    /* No rules: the service's regional endpoint (the aws-cn partition's regions live under amazonaws.com.cn). */
    char url[512];
    bool china = strncmp(c->aws.region, "cn-", 3) == 0;
    snprintf(url, sizeof url, "https://%.*s.%s.amazonaws.com%s", (int)aws.endpoint_prefix.len, aws.endpoint_prefix.ptr,
             c->aws.region, china ? ".cn" : "");
    rc = anvil__url_split(anvil_sv_from_cstr(url), &c->configured, diag);
    if (rc == ANVIL_EINVAL) {
        struct anvil_str_view id = anvil_shape_id(c->service);
        rc = anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "the endpointPrefix of `%.*s` makes no host name", (int)id.len,
                            id.ptr);
    }
    return rc;
}

void anvil__client_endpoint_clean_up(struct anvil_client *c) {
    anvil_endpoint_rules_destroy(c->owned_rules);
    anvil_arena_destroy(c->arena);
}

/* The configured endpoint as the call's (no rules). */
static void s_configured(const struct anvil_client *c, struct anvil__endpoint *out) {
    *out = (struct anvil__endpoint){.rule = SIZE_MAX,
                                    .base = c->configured.base,
                                    .path = c->configured.path,
                                    .host = c->configured.host,
                                    .signing_name = c->signing_name,
                                    .signing_region = c->aws.region,
                                    .s3_signing = c->s3_signing,
                                    .single_encode_path = c->s3_signing,
                                    .keep_path = c->s3_signing,
                                    .host_prefix_allowed = c->configured.host_prefix_allowed,
                                    .sign = !c->options.no_sign};
}

/* A signing name or region from the rules: it goes into the credential scope, so letters, digits, '-' and '_'. */
static bool s_scope_word(struct anvil_str_view s) {
    for (size_t i = 0; i < s.len; i++) {
        if (!s_host_char(s.ptr[i]) || s.ptr[i] == '.') {
            return false;
        }
    }
    return s.len > 0 && s.len < 64;
}

/*
 * How the rules say to sign: the first auth scheme anvil signs with
 * (sigv4), its signing name and region (else the service's and the
 * client's), disableDoubleEncoding and disableNormalizePath. Schemes it
 * cannot sign with alone (SigV4A for multi-Region access points, S3
 * Express sessions) are ANVIL_EUNSUPPORTED, named.
 */
static int s_auth(const struct anvil_client *c, const struct anvil_json *properties, struct anvil_arena *arena,
                  struct anvil__endpoint *out, struct anvil_diag *diag) {
    const struct anvil_json *schemes = anvil_json_object_get_cstr(properties, "authSchemes");
    if (!schemes || !anvil_json_is_array(schemes) || anvil_json_len(schemes) == 0) {
        return ANVIL_OK;
    }
    const struct anvil_json *chosen = NULL;
    struct anvil_str_view first = anvil_sv("", 0);
    for (size_t i = 0; i < anvil_json_len(schemes) && !chosen; i++) {
        const struct anvil_json *s = anvil_json_array_at(schemes, i);
        struct anvil_str_view name = anvil_json_string(anvil_json_object_get_cstr(s, "name"));
        first = i == 0 ? name : first;
        chosen = anvil_sv_eq_cstr(name, "sigv4") ? s : NULL;
    }
    if (!chosen) {
        if (!out->sign) {
            return ANVIL_OK; /* unsigned: any scheme will do */
        }
        return anvil_diag_set(diag, ANVIL_EUNSUPPORTED, 0, 0, 0,
                              "the endpoint needs the auth scheme `%.*s`%s, which anvil does not sign with",
                              (int)(first.len > 64 ? 64 : first.len), first.ptr,
                              anvil_sv_eq_cstr(first, "sigv4a") ? " (SigV4A, as multi-Region access points do)"
                              : anvil_sv_eq_cstr(first, "sigv4-s3express") ? " (S3 Express One Zone sessions)"
                                                                           : "");
    }
    struct anvil_str_view name = anvil_json_string(anvil_json_object_get_cstr(chosen, "signingName"));
    struct anvil_str_view region = anvil_json_string(anvil_json_object_get_cstr(chosen, "signingRegion"));
    if ((name.len && !s_scope_word(name)) || (region.len && !s_scope_word(region))) {
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                              "the endpoint rules give a signing name or region that is not a word of letters, "
                              "digits, '-' and '_'");
    }
    if (name.len) {
        out->signing_name = anvil_arena_strndup(arena, name.ptr, name.len);
    }
    if (region.len) {
        out->signing_region = anvil_arena_strndup(arena, region.ptr, region.len);
    }
    if (!out->signing_name || !out->signing_region) {
        return ANVIL_ENOMEM;
    }
    /* S3's variants (Object Lambda, Outposts, Express) sign as S3 does. */
    out->s3_signing = c->s3_signing || anvil_sv_eq_cstr(name, "s3") || anvil_sv_eq_cstr(name, "s3-object-lambda") ||
                      anvil_sv_eq_cstr(name, "s3-outposts") || anvil_sv_eq_cstr(name, "s3express");
    const struct anvil_json *dde = anvil_json_object_get_cstr(chosen, "disableDoubleEncoding");
    const struct anvil_json *dnp = anvil_json_object_get_cstr(chosen, "disableNormalizePath");
    out->single_encode_path = out->s3_signing || (anvil_json_is_bool(dde) && anvil_json_bool(dde));
    out->keep_path = out->s3_signing || (anvil_json_is_bool(dnp) && anvil_json_bool(dnp));
    return ANVIL_OK;
}

/* The rules' headers: names and values a request can carry, none of those anvil sets itself. */
static int s_headers_ok(const struct anvil_json *headers, struct anvil_diag *diag) {
    static const char *const own[] = {"Host",
                                      "Authorization",
                                      "X-Amz-Date",
                                      "X-Amz-Security-Token",
                                      "X-Amz-Content-Sha256",
                                      "Content-Length",
                                      "Transfer-Encoding",
                                      "Expect",
                                      "Connection"};
    for (size_t i = 0; i < anvil_json_len(headers); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(headers, i);
        struct anvil_str_view name = anvil_json_member_key(m);
        bool ok = name.len > 0 && name.len < 128;
        for (size_t k = 0; ok && k < name.len; k++) {
            unsigned char ch = (unsigned char)name.ptr[k];
            ok = ch > 0x20 && ch < 0x7f && ch != ':';
        }
        for (size_t k = 0; ok && k < ANVIL_ARRAY_LEN(own); k++) {
            ok = !anvil_sv_eq_ascii_nocase(name, anvil_sv_from_cstr(own[k]));
        }
        for (size_t k = 0; ok && k < i; k++) {
            /* One header named twice in two cases: its values would be joined under one name. */
            ok = !anvil_sv_eq_ascii_nocase(name, anvil_json_member_key(anvil_json_object_at(headers, k)));
        }
        for (size_t k = 0; ok && k < anvil_json_len(&m->value); k++) {
            struct anvil_str_view v = anvil_json_string(anvil_json_array_at(&m->value, k));
            for (size_t j = 0; ok && j < v.len; j++) {
                unsigned char ch = (unsigned char)v.ptr[j];
                ok = (ch >= 0x20 && ch != 0x7f) || ch == '\t';
            }
        }
        if (!ok) {
            return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0,
                                  "the endpoint rules give a header anvil will not send (`%.*s`: not a header "
                                  "name, one anvil sets itself, one named twice, or a value with a control "
                                  "character)",
                                  (int)(name.len > 64 ? 64 : name.len), name.ptr);
        }
    }
    return ANVIL_OK;
}

/*
 * S3's path style per call, as botocore adjusts its built-in: always for
 * GetBucketLocation (the bucket's region is what it asks; a virtual host
 * would need it to sign), never for a bucket given as an ARN (access points
 * and Outposts have hosts of their own, and the rules refuse path style
 * for them). Not when the caller set ForcePathStyle as a parameter.
 */
static void s_s3_path_style(const struct anvil_client *c, const struct anvil_shape *op, struct anvil_json *params,
                            size_t count) {
    long style = anvil_endpoint_rules_param_index(c->rules, ANVIL_SV("ForcePathStyle"));
    long bucket = anvil_endpoint_rules_param_index(c->rules, ANVIL_SV("Bucket"));
    if (style < 0 || (size_t)style >= count ||
        !anvil_sv_eq_cstr(anvil_endpoint_rules_param_at(c->rules, (size_t)style)->builtin, "AWS::S3::ForcePathStyle") ||
        anvil_json_object_get_cstr(c->options.endpoint_params, "ForcePathStyle")) {
        return;
    }
    struct anvil_str_view name = op ? anvil_shape_name(op) : anvil_sv("", 0);
    struct anvil_str_view value =
        bucket >= 0 && (size_t)bucket < count ? anvil_json_string(&params[bucket]) : anvil_sv("", 0);
    if (anvil_sv_eq_cstr(name, "GetBucketLocation")) {
        params[style] = anvil_json_make_bool(true);
    } else if (anvil_sv_starts_with(value, ANVIL_SV("arn:"))) {
        params[style] = anvil_json_make_bool(false);
    }
}

int anvil__client_endpoint(const struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                           struct anvil_arena *arena, struct anvil__endpoint *out, struct anvil_endpoint *resolved,
                           struct anvil_diag *diag) {
    s_configured(c, out);
    if (!c->rules) {
        return ANVIL_OK;
    }
    size_t count = anvil_endpoint_rules_param_count(c->rules);
    struct anvil_json *params =
        anvil_arena_alloc(arena, (count ? count : 1) * sizeof *params, _Alignof(struct anvil_json));
    if (!params) {
        return ANVIL_ENOMEM;
    }
    struct anvil_endpoint e;
    memset(&e, 0, sizeof e);
    e.rule = SIZE_MAX;
    int rc = anvil_endpoint_bind(c->rules, c->model, c->service, op, input, c->options.endpoint_params, &c->builtins,
                                 arena, params, count, diag);
    if (rc == ANVIL_OK && c->is_s3) {
        s_s3_path_style(c, op, params, count);
    }
    rc = rc == ANVIL_OK ? anvil_endpoint_resolve(c->rules, params, count, arena, &e, diag) : rc;
    if (rc == ANVIL_ECONFIG && resolved) {
        *resolved = e; /* the rule that answered, and its whole message */
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil__url *url = anvil_arena_alloc(arena, sizeof *url, _Alignof(struct anvil__url));
    if (!url) {
        return ANVIL_ENOMEM;
    }
    struct anvil_diag inner;
    anvil_diag_clear(&inner);
    if (anvil__url_split(e.url, url, &inner) != ANVIL_OK) {
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "the endpoint rules gave a URL anvil cannot use: %s",
                              inner.message);
    }
    out->base = url->base;
    out->path = url->path;
    out->host = url->host;
    out->host_prefix_allowed = url->host_prefix_allowed && !c->rules_drop_host_prefix;
    out->headers = anvil_json_len(&e.headers) ? &e.headers : NULL;
    if (resolved) {
        *resolved = e;
        out->headers = anvil_json_len(&resolved->headers) ? &resolved->headers : NULL;
    }
    rc = s_headers_ok(&e.headers, diag);
    rc = rc == ANVIL_OK ? s_auth(c, &e.properties, arena, out, diag) : rc;
    if (rc == ANVIL_OK && out->headers && !resolved) {
        /* The headers' values are in the arena already; their handle outlives this frame there too. */
        struct anvil_json *handle = anvil_arena_alloc(arena, sizeof *handle, _Alignof(struct anvil_json));
        rc = handle ? ANVIL_OK : ANVIL_ENOMEM;
        if (handle) {
            *handle = e.headers;
        }
        out->headers = handle;
    }
    out->rule = e.rule;
    return rc;
}

void anvil__client_endpoint_describe(const struct anvil_client *c) {
    if (!c->options.debug) {
        return;
    }
    const char *credentials = c->options.no_sign ? "nowhere (requests are not signed)" : c->aws.source;
    if (!c->rules) {
        anvil__client_debug(c, "endpoint %s%s (region %s, signing name %s, credentials from %s)", c->configured.base,
                            c->configured.path, c->aws.region, c->signing_name, credentials);
        return;
    }
    struct anvil_arena *arena = NULL;
    struct anvil__endpoint ep;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_arena_new(c->allocator, NULL, &arena);
    rc = rc == ANVIL_OK ? anvil__client_endpoint(c, NULL, NULL, arena, &ep, NULL, &diag) : rc;
    if (rc == ANVIL_OK) {
        anvil__client_debug(c,
                            "endpoint %s%s by the endpoint rules (each call resolves its own; region %s, signing name "
                            "%s, credentials from %s)",
                            ep.base, ep.path, c->aws.region, ep.signing_name, credentials);
    } else {
        anvil__client_debug(c,
                            "endpoint by the endpoint rules for each call (without an operation's parameters they "
                            "say: %s; region %s, signing name %s, credentials from %s)",
                            diag.message[0] ? diag.message : anvil_status_str(rc), c->aws.region, c->signing_name,
                            credentials);
    }
    anvil_arena_destroy(arena);
}

int anvil_client_endpoint(struct anvil_client *c, const struct anvil_shape *op, const struct anvil_json *input,
                          struct anvil_arena *arena, struct anvil_endpoint *out, struct anvil_diag *diag) {
    if (!c || !arena || !out) {
        return ANVIL_EINVAL;
    }
    memset(out, 0, sizeof *out);
    out->rule = SIZE_MAX;
    struct anvil__endpoint ep;
    int rc = anvil__client_endpoint(c, op, input, arena, &ep, out, diag);
    if (rc != ANVIL_OK || c->rules) {
        return rc;
    }
    /* No rules: the configured endpoint, no headers, no properties. */
    size_t base = strlen(c->configured.base), path = strlen(c->configured.path);
    char *url = anvil_arena_alloc(arena, base + path + 1, 1);
    if (!url) {
        return ANVIL_ENOMEM;
    }
    memcpy(url, c->configured.base, base);
    /* "http://h:1" and "http://h:1/" are one endpoint: the root path is not repeated. */
    bool root = path == 1;
    memcpy(url + base, c->configured.path, root ? 0 : path);
    url[base + (root ? 0 : path)] = '\0';
    out->url = anvil_sv(url, strlen(url));
    out->rule = SIZE_MAX;
    int h = anvil_json_parse_into(arena, NULL, "{}", 2, NULL, &out->headers, NULL);
    int p = anvil_json_parse_into(arena, NULL, "{}", 2, NULL, &out->properties, NULL);
    return h != ANVIL_OK ? h : p;
}

const struct anvil_endpoint_rules *anvil_client_endpoint_rules(const struct anvil_client *c) {
    return c ? c->rules : NULL;
}
