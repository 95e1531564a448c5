/* The exit codes and environment variables every command shares: for `anvil --help` and anvil(1). */

#include "cli.h"

const struct cli_reference cli_exit_codes[] = {
    {"0", "success"},
    {"1", "a waiter reached a failure state (validate: a model with an ERROR event)"},
    {"2", "a waiter timed out"},
    {"3", "unexpected error from the service or transport"},
    {"64", "usage error (bad command, option or argument)"},
    {"65", "invalid input data (JSON, expression, model)"},
    {"66", "an input file could not be opened"},
    {"70", "internal error"},
    {"74", "an output could not be written"},
    {"78", "a configuration problem (no region or credentials, an unknown profile, no such --service)"},
    {"128+N", "stopped by signal N: 130 SIGINT, 143 SIGTERM, 129 SIGHUP"},
    {NULL, NULL},
};

/* What the CLI and the library read from the environment (docs/credentials.md, docs/client.md, docs/cli.md). */
const struct cli_reference cli_environment[] = {
    {"ANVIL_MODEL_PATH", "colon-separated folders --service NAME looks in first for botocore's data"},
    {"AWS_DATA_PATH", "botocore's own extra data folders, where --service looks next"},
    {"HOME", "where ~/.aws (config, credentials, models) is"},
    {"AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_CREDENTIAL_EXPIRATION, AWS_ACCOUNT_ID",
     "credentials from the environment, first in the default chain unless --profile is given"},
    {"AWS_PROFILE", "the profile when there is no --profile"},
    {"AWS_REGION, AWS_DEFAULT_REGION", "the region when there is no --region"},
    {"AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE",
     "the config and credentials files (default ~/.aws/config and ~/.aws/credentials)"},
    {"AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN, AWS_ROLE_SESSION_NAME", "credentials from a web identity token"},
    {"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI, AWS_CONTAINER_CREDENTIALS_FULL_URI, AWS_CONTAINER_AUTHORIZATION_TOKEN, "
     "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
     "credentials from the ECS or EKS container endpoint"},
    {"AWS_EC2_METADATA_DISABLED, AWS_EC2_METADATA_SERVICE_ENDPOINT, AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE, "
     "AWS_EC2_METADATA_V1_DISABLED, AWS_METADATA_SERVICE_TIMEOUT",
     "credentials and region from EC2 instance metadata (IMDSv2)"},
    {"AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_<SDK ID>, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
     "the endpoint when there is no --endpoint-url"},
    {"AWS_USE_FIPS_ENDPOINT, AWS_USE_DUALSTACK_ENDPOINT, AWS_STS_REGIONAL_ENDPOINTS, AWS_S3_USE_ARN_REGION, "
     "AWS_S3_DISABLE_MULTIREGION_ACCESS_POINTS, AWS_S3_US_EAST_1_REGIONAL_ENDPOINT, AWS_ACCOUNT_ID_ENDPOINT_MODE",
     "the endpoint rules' settings (docs/endpoints.md)"},
    {"AWS_CA_BUNDLE", "the CA certificates to verify TLS with when there is no --ca-bundle (the only ones trusted)"},
    {"SSL_CERT_FILE, SSL_CERT_DIR",
     "OpenSSL's CA file and CA directory in place of the system's when no CA bundle is given"},
    {"AWS_RETRY_MODE, AWS_MAX_ATTEMPTS",
     "the retry mode and attempts when there is no --retry-mode or --retry-max-attempts"},
    {"AWS_DISABLE_REQUEST_COMPRESSION, AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES", "request compression"},
    {"AWS_SDK_UA_APP_ID", "the application's id in every request's User-Agent"},
    {NULL, NULL},
};
