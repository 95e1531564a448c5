#ifndef ANVIL_CREDENTIALS_H
#define ANVIL_CREDENTIALS_H

/**
 * AWS credentials and where they come from: a provider interface, a cache
 * that refreshes ahead of expiry, chains of providers, and the default
 * chain AWS tools use (environment, shared profiles with role chains,
 * web identity, SSO, credential_process, ECS/EKS container, EC2 IMDSv2).
 * docs/credentials.md.
 *
 * A provider is a fetch function behind a cache. anvil_credentials_get()
 * answers from the cache while the credentials have more than the advisory
 * window (15 minutes) left; inside it one caller refreshes while the
 * others keep the current credentials (a failed refresh keeps them too);
 * inside the mandatory window (5 minutes) or with none at all, every
 * caller waits for the one refresh in flight and its outcome. Credentials
 * that live shorter than the windows get windows of half and a quarter of
 * their life. Thread-safe: one provider may serve many clients and
 * threads.
 *
 * No function here writes a secret (secret access key, session token,
 * bearer or web identity token) into a diag, a log line or an error.
 */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "anvil/allocator.h"
#include "anvil/diag.h"
#include "anvil/env.h"

ANVIL_EXTERN_C_BEGIN

/** The advisory and mandatory refresh windows before expiry. */
#define ANVIL_CREDENTIALS_ADVISORY_MS ((uint64_t)15 * 60 * 1000)
#define ANVIL_CREDENTIALS_MANDATORY_MS ((uint64_t)5 * 60 * 1000)

/** Looks an environment variable up (NULL when unset). */
typedef const char *anvil_getenv_fn(void *ctx, const char *name);

struct anvil_credentials {
    char access_key_id[128];
    char secret_access_key[128];
    /** "" for long-term keys. */
    char session_token[8192];
    /** The account the credentials belong to, when their source says ("" otherwise). */
    char account_id[16];
    /** When they expire, in ms since 1970-01-01T00:00:00Z; 0 = never. */
    uint64_t expires_ms;
    /**
     * Which provider supplied them: "static", "environment", "web-identity",
     * "profile", "assume-role", "process", "sso", "ecs", "imds", or a custom
     * provider's name.
     */
    char provider[32];
    /** Where from, for people ("profile `dev`", "http://169.254.169.254"); never a secret. */
    char source[256];
};

/** Overwrites every field (the secrets with OPENSSL_cleanse, so the compiler keeps it). */
ANVIL_API void anvil_credentials_clear(struct anvil_credentials *creds);

/**
 * Fetches fresh credentials at `now_ms` (ms since the epoch) into `out`
 * (cleared before the call). ANVIL_OK; ANVIL_ENOTFOUND when the source is
 * not configured at all (a chain goes on to the next provider; diag says
 * what is missing, e.g. "AWS_ACCESS_KEY_ID is not set"); any other status
 * when it is configured but fails (a chain stops there; diag says why,
 * never with a secret).
 */
typedef int anvil_credentials_fetch_fn(void *ctx, uint64_t now_ms, struct anvil_credentials *out,
                                       struct anvil_diag *diag);

struct anvil_credentials_provider;

/**
 * A provider around `fetch` (called with `ctx`, one call at a time), named
 * `name` (at most 31 bytes; filled into credentials that name no provider).
 * `destroy` (may be NULL) is called with `ctx` when the last reference
 * goes. ANVIL_EINVAL for a NULL fetch or a bad name; ANVIL_ENOMEM.
 */
ANVIL_API int anvil_credentials_provider_new(struct anvil_allocator *allocator, const char *name,
                                             anvil_credentials_fetch_fn *fetch, void *ctx, void (*destroy)(void *ctx),
                                             struct anvil_credentials_provider **out);

/**
 * A provider that always gives `creds` (copied; provider "static" unless it
 * names one). ANVIL_EINVAL without an access key id and a secret, or for a
 * key, token or account id with bytes a header cannot carry.
 */
ANVIL_API int anvil_credentials_provider_static(struct anvil_allocator *allocator,
                                                const struct anvil_credentials *creds,
                                                struct anvil_credentials_provider **out);

/**
 * A chain: the first of `providers` (each referenced) that gives
 * credentials supplies them from then on, refreshed through it alone. One
 * that answers ANVIL_ENOTFOUND is passed over; any other failure ends the
 * search with that failure, its provider named. When none is configured:
 * ANVIL_ECONFIG, diag listing each provider with why ("no credentials:
 * environment: AWS_ACCESS_KEY_ID is not set; profile `default`: ...").
 */
ANVIL_API int anvil_credentials_provider_chain(struct anvil_allocator *allocator,
                                               struct anvil_credentials_provider *const *providers, size_t count,
                                               struct anvil_credentials_provider **out);

/** What the default chain reads; zero fields mean the default. */
struct anvil_credentials_options {
    /**
     * The profile (NULL = AWS_PROFILE, else "default"). Given here, it
     * outranks the environment's keys, as `aws --profile` does.
     */
    const char *profile;
    /** The region for STS (NULL = AWS_REGION, AWS_DEFAULT_REGION, the profile's; else us-east-1's endpoint). */
    const char *region;
    /** Environment lookups (NULL = getenv); files are found from it (HOME, AWS_CONFIG_FILE, ...). */
    anvil_getenv_fn *getenv;
    void *getenv_ctx;
    /** Clock and sleep (NULL = anvil_env_system()); the wall clock dates expiry. */
    const struct anvil_env *env;
    /** CA certificates for the HTTPS sources (NULL = AWS_CA_BUNDLE, else the system's; a client passes its own). */
    const char *ca_bundle;
    /** IMDS connect and answer timeout per request (default 1 s; AWS_METADATA_SERVICE_TIMEOUT, seconds). */
    uint64_t imds_timeout_ms;
    /** The ECS/EKS container endpoint's timeout per request (default 2 s). */
    uint64_t container_timeout_ms;
    /** How long a credential_process may run (default 60 s); it is killed then. */
    uint64_t process_timeout_ms;
    /** When set and non-zero, a fetch in progress stops with ANVIL_ECANCELED. */
    const volatile sig_atomic_t *cancel;
    /** When set, one line per provider tried and per request made; never a secret. */
    void (*debug)(void *ctx, const char *line);
    void *debug_ctx;
};

/**
 * The default chain, in botocore's order: the environment's keys (unless
 * `options->profile` is given); a profile's `role_arn` with
 * `source_profile` (followed, cycles refused) or `credential_source`
 * (STS AssumeRole); web identity (AWS_WEB_IDENTITY_TOKEN_FILE and
 * AWS_ROLE_ARN, else the profile's web_identity_token_file and role_arn;
 * STS AssumeRoleWithWebIdentity, unsigned, the token file read again on
 * every refresh); the profile's SSO settings (`sso_session` or the legacy
 * keys; the token cache under ~/.aws/sso/cache, refreshed through SSO
 * OIDC; GetRoleCredentials); the profile's keys in the credentials file;
 * its `credential_process` (run without a shell, JSON Version 1); its keys
 * in the config file; the ECS/EKS container endpoint
 * (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI, its authorization
 * token or token file, https or an allowed host); EC2 instance metadata
 * (IMDSv2, unless AWS_EC2_METADATA_DISABLED=true; v1 only when
 * AWS_EC2_METADATA_V1_DISABLED is false and the token request is refused).
 * A named profile no file defines is ANVIL_ECONFIG at the first get. The
 * options' strings are copied. ANVIL_ENOMEM.
 */
ANVIL_API int anvil_credentials_provider_default(struct anvil_allocator *allocator,
                                                 const struct anvil_credentials_options *options,
                                                 struct anvil_credentials_provider **out);

ANVIL_API void anvil_credentials_provider_retain(struct anvil_credentials_provider *provider);
ANVIL_API void anvil_credentials_provider_release(struct anvil_credentials_provider *provider);

/**
 * Credentials valid at `now_ms` (ms since the epoch), from the cache or a
 * refresh as the windows above say. ANVIL_OK; the fetch's status when no
 * usable credentials are left (diag from the fetch, naming the provider);
 * ANVIL_ECONFIG when a fetch gives credentials already expired at
 * `now_ms`. Thread-safe.
 */
ANVIL_API int anvil_credentials_get(struct anvil_credentials_provider *provider, uint64_t now_ms,
                                    struct anvil_credentials *out, struct anvil_diag *diag);

/** Forgets the cached credentials, so the next get fetches (e.g. after an ExpiredToken answer). Thread-safe. */
ANVIL_API void anvil_credentials_invalidate(struct anvil_credentials_provider *provider);

ANVIL_EXTERN_C_END

#endif
