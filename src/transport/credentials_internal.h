/* What the credential providers share: profile files, the services they call, plain HTTP. */
#ifndef ANVIL_TRANSPORT_CREDENTIALS_INTERNAL_H
#define ANVIL_TRANSPORT_CREDENTIALS_INTERNAL_H

#include "anvil/client.h"
#include "anvil/credentials.h"
#include "core/crypto.h"

/* ANVIL_ECONFIG naming `who` for credentials without a key or a secret, or with bytes a header cannot carry. */
int anvil__credentials_check(const struct anvil_credentials *c, const char *who, struct anvil_diag *diag);

/*
 * An allocator over `parent` (NULL = default) that overwrites every block
 * it releases or moves (OPENSSL_cleanse), for whatever holds a secret:
 * answers of STS, SSO, IMDS, the container endpoint, a process's output.
 * Arenas do not cache its blocks.
 */
struct anvil_allocator anvil__scrubber(struct anvil_allocator *parent);

/* ms since the epoch as ISO-8601 UTC, for messages. */
void anvil__credentials_time(uint64_t ms, char *out, size_t size);

/* Forgets the credentials of the member a chain chose (anvil_credentials_invalidate() of a chain). */
void anvil__credentials_chain_invalidate(void *ctx);

/*
 * Reads `count` keys of one section of the INI file at `path` into `outs`
 * (each `sizes[i]` bytes; "" stays where a key is absent), as
 * anvil_aws_config_resolve() reads the files: `kind` NULL for the
 * credentials file's `[NAME]`, "profile" for the config file's
 * `[profile NAME]` or `[default]`, else the config file's `[KIND NAME]`
 * (such as "sso-session"). A missing file is no error. *found tells whether
 * the section was there. ANVIL_ECONFIG naming the file and line.
 */
int anvil__ini_read(const char *path, const char *kind, const char *name, const char *const *keys, char **outs,
                    const size_t *sizes, size_t count, bool *found, struct anvil_diag *diag);

/*
 * Reads the regular file at `path` into `out` (`size` bytes, NUL-terminated;
 * its length in *len). ANVIL_OK; ANVIL_EIO when it cannot be opened (errno
 * says why); ANVIL_EINVAL when it is not a regular file (a FIFO would block);
 * ANVIL_ELIMIT when it holds `size` - 1 bytes or more (what fits is kept).
 * The caller cleanses `out` when it holds a secret.
 */
int anvil__read_small_file(const char *path, char *out, size_t size, size_t *len);

/* getenv() as an anvil_getenv_fn (the lookup when a caller gives none). */
const char *anvil__getenv_system(void *ctx, const char *name);

/* The shared credentials and config files' paths (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE, else ~/.aws/...). */
void anvil__aws_paths(anvil_getenv_fn *lookup, void *ctx, char *credentials, size_t credentials_size, char *config,
                      size_t config_size);

/* The embedded botocore models and endpoint rule sets of STS, SSO and SSO OIDC (auth_services_data.c). */
extern const char anvil__sts_model[];
extern const char anvil__sts_rules[];
extern const char anvil__sso_model[];
extern const char anvil__sso_rules[];
extern const char anvil__sso_oidc_model[];
extern const char anvil__sso_oidc_rules[];

/* The keys of a profile the providers read. */
enum anvil__profile_key {
    ANVIL__PK_ACCESS_KEY_ID,
    ANVIL__PK_SECRET_ACCESS_KEY,
    ANVIL__PK_SESSION_TOKEN,
    ANVIL__PK_ACCOUNT_ID,
    ANVIL__PK_ROLE_ARN,
    ANVIL__PK_SOURCE_PROFILE,
    ANVIL__PK_CREDENTIAL_SOURCE,
    ANVIL__PK_EXTERNAL_ID,
    ANVIL__PK_ROLE_SESSION_NAME,
    ANVIL__PK_DURATION_SECONDS,
    ANVIL__PK_MFA_SERIAL,
    ANVIL__PK_WEB_IDENTITY_TOKEN_FILE,
    ANVIL__PK_SSO_SESSION,
    ANVIL__PK_SSO_START_URL,
    ANVIL__PK_SSO_REGION,
    ANVIL__PK_SSO_ACCOUNT_ID,
    ANVIL__PK_SSO_ROLE_NAME,
    ANVIL__PK_CREDENTIAL_PROCESS,
    ANVIL__PK_REGION,
    ANVIL__PK_COUNT
};

/* One profile as both files define it (values "" when absent). */
struct anvil__profile {
    char name[128];
    char credentials_path[1024];
    char config_path[1024];
    /* Whether each file has a section for it. */
    bool in_credentials;
    bool in_config;
    /* [0] the credentials file's values, [1] the config file's. */
    char *values[2][ANVIL__PK_COUNT];
    char *storage;
    struct anvil_allocator *allocator;
};

/* The key's name in the files ("role_arn"). */
const char *anvil__profile_key_name(enum anvil__profile_key key);

/* Reads profile `name` from both files. ANVIL_ECONFIG naming the file and line; ANVIL_ENOMEM. */
int anvil__profile_load(struct anvil_allocator *allocator, anvil_getenv_fn *lookup, void *ctx, const char *name,
                        struct anvil__profile *out, struct anvil_diag *diag);
void anvil__profile_free(struct anvil__profile *p);

/* The value as botocore merges the files (the credentials file's over the config file's), "" when absent. */
const char *anvil__profile_get(const struct anvil__profile *p, enum anvil__profile_key key);

/*
 * One call of `operation` ("AssumeRole", "GetRoleCredentials", ...) of an
 * embedded service ("sts", "sso", "sso-oidc") in `region` (its endpoint
 * from the service's rules; AWS_ENDPOINT_URL_<SERVICE> and
 * AWS_ENDPOINT_URL from `o->getenv` apply, as for any client), signed
 * with `signer` or unsigned when it is NULL, through anvil's own client,
 * protocols and standard retries; `o` gives the environment lookup, clock,
 * CA bundle, cancel flag and debug callback. The reply lives in `arena`.
 * ANVIL_OK; ANVIL_ESERVICE with the service's error in `reply` (code and
 * message; the caller words it); other failures with `diag` saying why.
 */
int anvil__auth_call(const char *service, const char *region, const struct anvil_credentials *signer,
                     const struct anvil_credentials_options *o, const char *operation, const struct anvil_json *input,
                     struct anvil_arena *arena, struct anvil_operation_reply *reply, struct anvil_diag *diag);

/* An environment variable from the options' lookup, NULL when unset or empty. */
const char *anvil__credentials_env(const struct anvil_credentials_options *o, const char *name);

/* One line to the options' debug callback (never a secret). */
void anvil__credentials_debug(const struct anvil_credentials_options *o, const char *fmt, ...) ANVIL_PRINTF(2, 3);

/* Text from a service or a file, for a message: printable ASCII kept, other bytes as '?', cut with "...". */
void anvil__credentials_shown(struct anvil_str_view in, char *out, size_t size);

/*
 * The ECS/EKS container endpoint (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI
 * or _FULL_URI) and EC2 instance metadata (IMDSv2). ANVIL_ENOTFOUND when
 * not configured (no container variable; IMDS disabled or not answering:
 * not on EC2); ANVIL_ECONFIG when configured and failing.
 */
int anvil__credentials_container(const struct anvil_credentials_options *o, uint64_t now, struct anvil_credentials *out,
                                 struct anvil_diag *diag);
int anvil__credentials_imds(const struct anvil_credentials_options *o, uint64_t now, struct anvil_credentials *out,
                            struct anvil_diag *diag);

/* The region from instance metadata (placement/region) into `out`; ANVIL_ENOTFOUND off EC2 or when disabled. */
int anvil__imds_region(const struct anvil_credentials_options *o, char *out, size_t size, struct anvil_diag *diag);

/* Whether this is an EC2 instance (AWS_EC2_METADATA_SERVICE_ENDPOINT set, or DMI says so) and metadata is not off. */
bool anvil__on_ec2(const struct anvil_credentials_options *o);

/* SSO: the profile's sso_session (or legacy keys), the cached token, GetRoleCredentials. */
int anvil__credentials_sso(const struct anvil_credentials_options *o, const struct anvil__profile *p, uint64_t now,
                           struct anvil_credentials *out, struct anvil_diag *diag);

/*
 * credential_process: runs `command` (a command line split into words as
 * a POSIX shell splits them, then run without a shell), and reads its
 * standard output as {"Version": 1, "AccessKeyId", "SecretAccessKey",
 * "SessionToken"?, "Expiration"? (ISO-8601), "AccountId"?}. `profile`
 * names it in messages. ANVIL_ECONFIG (diag: "profile `dev`:
 * credential_process exited 1: <its first line of stderr>", a bad
 * Version, a missing key, output that is not JSON; never the output's
 * secrets; a command that cannot be started); ANVIL_ETIMEDOUT after
 * `o->process_timeout_ms` (default 60 s, on the real clock whatever
 * `o->env` is; killed); ANVIL_ECANCELED; ANVIL_ENOMEM.
 */
int anvil__credentials_process(const char *command, const char *profile, const struct anvil_credentials_options *o,
                               struct anvil_credentials *out, struct anvil_diag *diag);

#endif
