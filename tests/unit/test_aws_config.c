/*
 * Credentials, region and retry settings found the way AWS tools find them
 * (anvil_aws_config_resolve): the environment, then the profile in the
 * shared credentials and config files. The environment is a table handed
 * in; the files are written to a fresh temporary folder.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anvil/client.h"
#include "harness.h"

struct s_env {
    const char *pairs[16][2];
    char home[256];
};

static const char *s_lookup(void *ctx, const char *name) {
    struct s_env *env = ctx;
    if (strcmp(name, "HOME") == 0) {
        return env->home;
    }
    for (size_t i = 0; i < 16 && env->pairs[i][0]; i++) {
        if (strcmp(env->pairs[i][0], name) == 0) {
            return env->pairs[i][1];
        }
    }
    return NULL;
}

/* A HOME with ~/.aws/credentials and ~/.aws/config holding the texts given (NULL: no such file). */
static bool s_home(struct s_env *env, const char *credentials, const char *config) {
    snprintf(env->home, sizeof env->home, "%s/anvil-aws-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(env->home)) {
        return false;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/.aws", env->home);
    if (mkdir(path, 0700) != 0) {
        return false;
    }
    const char *texts[2] = {credentials, config};
    const char *names[2] = {"credentials", "config"};
    for (int i = 0; i < 2; i++) {
        if (!texts[i]) {
            continue;
        }
        snprintf(path, sizeof path, "%s/.aws/%s", env->home, names[i]);
        FILE *f = fopen(path, "w");
        if (!f || fputs(texts[i], f) < 0 || fclose(f) != 0) {
            return false;
        }
    }
    return true;
}

static void s_remove_home(struct s_env *env) {
    char path[512];
    snprintf(path, sizeof path, "%s/.aws/credentials", env->home);
    unlink(path);
    snprintf(path, sizeof path, "%s/.aws/config", env->home);
    unlink(path);
    snprintf(path, sizeof path, "%s/.aws", env->home);
    rmdir(path);
    rmdir(env->home);
}

static const char s_credentials[] = "# shared credentials\n"
                                    "[default]\n"
                                    "aws_access_key_id = AKIDDEFAULT\n"
                                    "aws_secret_access_key = default-secret\n"
                                    "\n"
                                    "[ops]\n"
                                    "aws_access_key_id=AKIDOPS\n"
                                    "aws_secret_access_key=ops-secret\n"
                                    "aws_session_token = ops-token\n";

static const char s_config[] = "[default]\n"
                               "region = eu-west-1\n"
                               "s3 =\n"
                               "  max_concurrent_requests = 20\n"
                               "[profile ops]\n"
                               "region=ap-southeast-2\n"
                               "retry_mode = adaptive\n"
                               "max_attempts = 7\n"
                               "; a comment\n"
                               "[profile keys-in-config]\n"
                               "aws_access_key_id = AKIDCONFIG\n"
                               "aws_secret_access_key = config-secret\n"
                               "region = us-west-2\n";

TEST(aws_config_environment_first) {
    struct s_env env = {{{"AWS_ACCESS_KEY_ID", "AKIDENV"},
                         {"AWS_SECRET_ACCESS_KEY", "env-secret"},
                         {"AWS_SESSION_TOKEN", "env-token"},
                         {"AWS_REGION", "us-east-2"},
                         {"AWS_DEFAULT_REGION", "us-west-1"},
                         {"AWS_RETRY_MODE", "standard"},
                         {"AWS_MAX_ATTEMPTS", "5"}},
                        ""};
    CHECK(s_home(&env, s_credentials, s_config));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.access_key_id, "AKIDENV");
    CHECK_STR_EQ(c.secret_access_key, "env-secret");
    CHECK_STR_EQ(c.session_token, "env-token");
    CHECK_STR_EQ(c.source, "environment");
    CHECK_STR_EQ(c.region, "us-east-2"); /* AWS_REGION before AWS_DEFAULT_REGION and the profile */
    CHECK_STR_EQ(c.retry_mode, "standard");
    CHECK_STR_EQ(c.max_attempts, "5");
    /* The caller's region beats them all. */
    CHECK_OK(anvil_aws_config_resolve(NULL, "sa-east-1", s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.region, "sa-east-1");
done:
    s_remove_home(&env);
}

TEST(aws_config_profile_from_the_files) {
    struct s_env env = {{{"AWS_PROFILE", "ops"}}, ""};
    CHECK(s_home(&env, s_credentials, s_config));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.access_key_id, "AKIDOPS");
    CHECK_STR_EQ(c.secret_access_key, "ops-secret");
    CHECK_STR_EQ(c.session_token, "ops-token");
    CHECK_STR_EQ(c.source, "profile ops");
    CHECK_STR_EQ(c.region, "ap-southeast-2"); /* from [profile ops] in config */
    CHECK_STR_EQ(c.retry_mode, "adaptive");
    CHECK_STR_EQ(c.max_attempts, "7");
    /* Without AWS_PROFILE: [default] in both files; the nested s3 block is skipped. */
    env.pairs[0][0] = NULL;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.access_key_id, "AKIDDEFAULT");
    CHECK_STR_EQ(c.session_token, "");
    CHECK_STR_EQ(c.region, "eu-west-1");
    CHECK_STR_EQ(c.retry_mode, "");
    CHECK_STR_EQ(c.max_attempts, "");
done:
    s_remove_home(&env);
}

TEST(aws_config_named_profile_beats_environment_keys) {
    struct s_env env = {{{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "env-secret"}}, ""};
    CHECK(s_home(&env, s_credentials, s_config));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve("ops", NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.access_key_id, "AKIDOPS");
    /* Keys may sit in the config file under [profile NAME]. */
    CHECK_OK(anvil_aws_config_resolve("keys-in-config", NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.access_key_id, "AKIDCONFIG");
    CHECK_STR_EQ(c.source, "profile keys-in-config");
    CHECK_STR_EQ(c.region, "us-west-2");
    /* A profile nobody defines finds nothing, and that is not an error here. */
    CHECK_OK(anvil_aws_config_resolve("nobody", NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.access_key_id, "");
    CHECK_STR_EQ(c.source, "");
    CHECK_STR_EQ(c.region, "");
done:
    s_remove_home(&env);
}

TEST(aws_config_missing_files_are_no_error) {
    struct s_env env = {{{NULL, NULL}}, ""};
    CHECK(s_home(&env, NULL, NULL));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.source, "");
    CHECK_STR_EQ(c.region, "");
done:
    s_remove_home(&env);
}

TEST(aws_config_broken_file_names_the_line) {
    struct s_env env = {{{NULL, NULL}}, ""};
    CHECK(s_home(&env, "[default]\naws_access_key_id = A\n[broken\n", NULL));
    struct anvil_aws_config c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "/.aws/credentials:3: a section header needs a closing ']'") != NULL);
    CHECK_EQ_U64(diag.line, 3);
done:
    s_remove_home(&env);
}

TEST(aws_config_overlong_line_is_an_error_not_a_new_line) {
    struct s_env env = {{{NULL, NULL}}, ""};
    /* A 20,000-byte value whose tail would otherwise read as "aws_access_key_id=EVIL". */
    size_t size = 20100;
    char *text = malloc(size);
    CHECK(text != NULL);
    int n = snprintf(text, size, "[default]\naws_session_token = ");
    memset(text + n, 'x', 16384 - 31);
    snprintf(text + n + 16384 - 31, size - (size_t)n - 16384 + 31, "aws_access_key_id=EVIL\n");
    bool made = s_home(&env, text, NULL);
    free(text);
    CHECK(made);
    struct anvil_aws_config c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "/.aws/credentials:2: a line longer than 16382 bytes") != NULL);
    CHECK_STR_EQ(c.access_key_id, "");
done:
    s_remove_home(&env);
}

/* A text of `n` copies of `c`, NUL-terminated (the caller frees it). */
static char *s_repeat(char c, size_t n) {
    char *s = malloc(n + 1);
    if (s) {
        memset(s, c, n);
        s[n] = '\0';
    }
    return s;
}

TEST(aws_config_long_session_tokens_are_kept_whole_or_refused) {
    /* STS gives no maximum: a 3,000-byte token was once cut to 2,047 bytes without a word. */
    char *token = s_repeat('t', 3000), *huge = s_repeat('h', 9000), *file = malloc(12000);
    struct s_env env = {{{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "s"}, {"AWS_SESSION_TOKEN", NULL}},
                        ""};
    env.home[0] = '\0';
    CHECK(token && huge && file);
    env.pairs[2][1] = token;
    struct anvil_aws_config c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_OK(anvil_aws_config_resolve(NULL, "us-east-1", s_lookup, &env, &c, &diag));
    CHECK_EQ_U64(strlen(c.session_token), 3000);
    env.pairs[2][1] = huge;
    CHECK_STATUS(anvil_aws_config_resolve(NULL, "us-east-1", s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "AWS_SESSION_TOKEN is longer than 8191 bytes");
    CHECK_STR_EQ(c.access_key_id, "");
    /* A region too long for its field: the caller's argument is EINVAL, a setting ECONFIG. */
    env.pairs[2][1] = token;
    char long_region[100];
    memset(long_region, 'a', sizeof long_region - 1);
    long_region[sizeof long_region - 1] = '\0';
    CHECK_STATUS(anvil_aws_config_resolve(NULL, long_region, s_lookup, &env, &c, &diag), ANVIL_EINVAL);
    CHECK_EQ_INT(diag.code, ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the region is longer than 63 bytes");
    /* The same in a file names the file, the line and the key. */
    snprintf(file, 12000, "[ops]\naws_access_key_id = A\naws_secret_access_key = S\naws_session_token = %s\n", huge);
    struct s_env files = {{{NULL, NULL}}, ""};
    CHECK(s_home(&files, file, NULL));
    CHECK_STATUS(anvil_aws_config_resolve("ops", "us-east-1", s_lookup, &files, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "/.aws/credentials:4: the value of `aws_session_token` is longer than 8191 bytes"));
    CHECK_STR_EQ(c.access_key_id, "");
    s_remove_home(&files);
done:
    free(token);
    free(huge);
    free(file);
}

TEST(aws_config_refuses_files_that_are_not_regular) {
    /* A FIFO as the credentials file would block the read forever. */
    struct s_env env = {{{NULL, NULL}}, ""};
    CHECK(s_home(&env, NULL, NULL));
    char path[600];
    snprintf(path, sizeof path, "%s/.aws/credentials", env.home);
    CHECK(mkfifo(path, 0600) == 0);
    struct anvil_aws_config c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "/.aws/credentials is not a regular file") != NULL);
    unlink(path);
    /* A directory is refused the same way. */
    CHECK(mkdir(path, 0700) == 0);
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "/.aws/credentials is not a regular file") != NULL);
    rmdir(path);
done:
    s_remove_home(&env);
}

TEST(aws_config_says_whether_a_named_profile_exists) {
    struct s_env env = {{{NULL, NULL}}, ""};
    CHECK(s_home(&env, s_credentials, s_config));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve("ops", NULL, s_lookup, &env, &c, NULL));
    CHECK(c.profile_named && c.profile_found);
    CHECK_STR_EQ(c.profile, "ops");
    CHECK_OK(anvil_aws_config_resolve("nobody", NULL, s_lookup, &env, &c, NULL));
    CHECK(c.profile_named && !c.profile_found);
    CHECK_STR_EQ(c.profile, "nobody");
    /* Only in the config file counts too; no profile named means "default". */
    CHECK_OK(anvil_aws_config_resolve("keys-in-config", NULL, s_lookup, &env, &c, NULL));
    CHECK(c.profile_found);
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK(!c.profile_named && c.profile_found);
    CHECK_STR_EQ(c.profile, "default");
done:
    s_remove_home(&env);
}

TEST(aws_config_ca_bundle_from_environment_then_profile) {
    struct s_env env = {{{"AWS_PROFILE", "tls"}}, ""};
    CHECK(s_home(&env, NULL, "[profile tls]\nca_bundle = /etc/profile-ca.pem\n"));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.ca_bundle, "/etc/profile-ca.pem");
    env.pairs[1][0] = "AWS_CA_BUNDLE";
    env.pairs[1][1] = "/etc/env-ca.pem";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.ca_bundle, "/etc/env-ca.pem");
done:
    s_remove_home(&env);
}

TEST(aws_config_endpoint_settings_from_the_profile) {
    struct s_env env = {{{"AWS_PROFILE", "edge"}}, ""};
    CHECK(s_home(&env, "[edge]\naws_access_key_id = AKID\naws_secret_access_key = s\naws_account_id = 111122223333\n",
                 "[profile edge]\n"
                 "use_fips_endpoint = TRUE\n"
                 "use_dualstack_endpoint = false\n"
                 "sts_regional_endpoints = legacy\n"
                 "s3 =\n"
                 "  addressing_style = path\n"
                 "\tuse_accelerate_endpoint = true\n"
                 "  us_east_1_regional_endpoint = regional\n"
                 "  use_dualstack_endpoint = true\n"
                 "s3_use_arn_region = true\n"
                 "s3_disable_multiregion_access_points = false\n"
                 "account_id_endpoint_mode = required\n"));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.use_fips_endpoint, "TRUE");
    CHECK_STR_EQ(c.use_dualstack_endpoint, "false");
    CHECK_STR_EQ(c.sts_regional_endpoints, "legacy");
    CHECK_STR_EQ(c.s3_addressing_style, "path");
    CHECK_STR_EQ(c.s3_use_accelerate_endpoint, "true");
    CHECK_STR_EQ(c.s3_us_east_1_regional_endpoint, "regional");
    CHECK_STR_EQ(c.s3_use_dualstack_endpoint, "true");
    CHECK_STR_EQ(c.s3_use_arn_region, "true");
    CHECK_STR_EQ(c.s3_disable_multiregion_access_points, "false");
    CHECK_STR_EQ(c.account_id, "111122223333");
    CHECK_STR_EQ(c.account_id_endpoint_mode, "required");
    /* The environment outranks the profile; AWS_ACCOUNT_ID goes with the environment's keys only. */
    env.pairs[1][0] = "AWS_USE_FIPS_ENDPOINT";
    env.pairs[1][1] = "false";
    env.pairs[2][0] = "AWS_ACCOUNT_ID";
    env.pairs[2][1] = "444455556666";
    env.pairs[3][0] = "AWS_S3_US_EAST_1_REGIONAL_ENDPOINT";
    env.pairs[3][1] = "legacy";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.use_fips_endpoint, "false");
    CHECK_STR_EQ(c.account_id, "111122223333");
    CHECK_STR_EQ(c.s3_us_east_1_regional_endpoint, "legacy");
    /* With the environment's keys (and no profile named), the environment's account id, or none. */
    env.pairs[0][0] = "AWS_ACCESS_KEY_ID";
    env.pairs[0][1] = "AKIDENV";
    env.pairs[4][0] = "AWS_SECRET_ACCESS_KEY";
    env.pairs[4][1] = "env-secret";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.account_id, "444455556666");
    env.pairs[2][0] = "AWS_NOTHING";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.account_id, "");
    env.pairs[0][0] = "AWS_PROFILE";
    env.pairs[0][1] = "edge";
    env.pairs[2][0] = "AWS_ACCOUNT_ID";
    env.pairs[4][0] = "AWS_NOTHING_EITHER";
    /* An empty variable is unset: the profile's value stands. */
    env.pairs[1][1] = "";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.use_fips_endpoint, "TRUE");
done:
    s_remove_home(&env);
}

TEST(aws_config_nested_keys_end_at_the_next_unindented_line) {
    struct s_env env = {{{NULL}}, ""};
    /* addressing_style outside `s3 =` is not S3's; a nested key of another parent is not either. */
    CHECK(s_home(&env, NULL,
                 "[default]\n"
                 "s3 =\n"
                 "  use_accelerate_endpoint = true\n"
                 "addressing_style = path\n"
                 "dynamodb =\n"
                 "  addressing_style = virtual\n"
                 "  use_fips_endpoint = true\n"));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.s3_use_accelerate_endpoint, "true");
    CHECK_STR_EQ(c.s3_addressing_style, "");
    CHECK_STR_EQ(c.use_fips_endpoint, "");
done:
    s_remove_home(&env);
}

TEST(aws_config_endpoint_settings_are_checked) {
    struct s_env env = {{{"AWS_USE_DUALSTACK_ENDPOINT", "yes"}}, ""};
    CHECK(s_home(&env, NULL, "[default]\nsts_regional_endpoints = global\n"));
    struct anvil_aws_config c;
    struct anvil_diag diag;
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "AWS_USE_DUALSTACK_ENDPOINT") && strstr(diag.message, "true or false"));
    env.pairs[0][1] = "true";
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "sts_regional_endpoints") && strstr(diag.message, "legacy or regional") &&
          strstr(diag.message, "/.aws/config"));
    env.pairs[1][0] = "AWS_STS_REGIONAL_ENDPOINTS";
    env.pairs[1][1] = "regional";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag));
    env.pairs[2][0] = "AWS_ACCOUNT_ID";
    env.pairs[2][1] = "1234.evil.example";
    env.pairs[3][0] = "AWS_ACCESS_KEY_ID";
    env.pairs[3][1] = "AKIDENV";
    env.pairs[4][0] = "AWS_SECRET_ACCESS_KEY";
    env.pairs[4][1] = "env-secret";
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "AWS_ACCOUNT_ID is not an account id"));
    env.pairs[2][1] = "123456789012";
    env.pairs[5][0] = "AWS_ACCOUNT_ID_ENDPOINT_MODE";
    env.pairs[5][1] = "sometimes";
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "preferred, disabled or required"));
done:
    s_remove_home(&env);
}

TEST(aws_config_account_id_named_where_it_is) {
    /* A bad aws_account_id beside the keys is named in the credentials file, where it is. */
    struct s_env env = {{{NULL}}, ""};
    CHECK(s_home(&env, "[default]\naws_access_key_id = AKID\naws_secret_access_key = s\naws_account_id = x1\n",
                 "[default]\nregion = us-east-1\n"));
    struct anvil_aws_config c;
    struct anvil_diag diag;
    CHECK_STATUS(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "/.aws/credentials: [default] aws_account_id is not an account id") != NULL);
done:
    s_remove_home(&env);
}

TEST(aws_config_nested_values_as_configparser_reads_them) {
    struct s_env env = {{{NULL}}, ""};
    /*
     * A line indented deeper than its key continues that key's value: keys of
     * a nested value after `s3 =` (indented itself, right after the header),
     * the rest of a value otherwise, never a key of its own.
     */
    CHECK(s_home(&env, NULL,
                 "[default]\r\n"
                 "\ts3 =\r\n"
                 "\t\taddressing_style = path\r\n"
                 "\r\n"
                 "\t\t# a comment\r\n"
                 "\t\tuse_accelerate_endpoint = true\r\n"
                 "\tregion = eu-west-1\r\n"
                 "\t  use_fips_endpoint = true\r\n"
                 "\tuse_dualstack_endpoint = true\r\n"));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.s3_addressing_style, "path");
    CHECK_STR_EQ(c.s3_use_accelerate_endpoint, "true");
    CHECK_STR_EQ(c.region, "eu-west-1");
    CHECK_STR_EQ(c.use_fips_endpoint, "");
    CHECK_STR_EQ(c.use_dualstack_endpoint, "true");
done:
    s_remove_home(&env);
}

TEST(aws_config_reads_as_configparser_and_botocore_do) {
    struct s_env env = {{{NULL}}, ""};
    /* ':' as well as '=', key names in any case, [profile default], both names of an S3 setting, the last wins. */
    CHECK(s_home(&env, NULL,
                 "[ default ]\n"
                 "region = xx-wrong-1\n"
                 "[profile default] ; a comment after the header\n"
                 "REGION: eu-west-1\n"
                 "sso_start_url: https://x.example\n"
                 "  use_fips_endpoint = true\n"
                 "S3 =\n"
                 "  addressing_style = path\n"
                 "  addressing_style = virtual\n"
                 "  use_arn_region = false\n"
                 "  s3_disable_multiregion_access_points = true\n"
                 "s3_us_east_1_regional_endpoint = regional\n"));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.region, "eu-west-1");
    CHECK_STR_EQ(c.use_fips_endpoint, "");
    CHECK_STR_EQ(c.s3_addressing_style, "virtual");
    CHECK_STR_EQ(c.s3_use_arn_region, "false");
    CHECK_STR_EQ(c.s3_disable_multiregion_access_points, "true");
    CHECK_STR_EQ(c.s3_us_east_1_regional_endpoint, "regional");
done:
    s_remove_home(&env);
}

TEST(aws_config_account_id_comes_with_its_keys) {
    struct s_env env = {{{NULL}}, ""};
    /* Keys in the credentials file: the config file's account id is not theirs. */
    CHECK(s_home(&env, "[default]\naws_access_key_id = AKID\naws_secret_access_key = s\n",
                 "[default]\naws_account_id = 777788889999\n"));
    struct anvil_aws_config c;
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.account_id, "");
    s_remove_home(&env);
    /* Keys in the config file: its account id, not the one the credentials file has alone. */
    CHECK(s_home(&env, "[p]\naws_account_id = 444455556666\n",
                 "[profile p]\naws_access_key_id = AKID\naws_secret_access_key = s\naws_account_id = 777788889999\n"));
    env.pairs[0][0] = "AWS_PROFILE";
    env.pairs[0][1] = "p";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.account_id, "777788889999");
    CHECK_STR_EQ(c.access_key_id, "AKID");
    s_remove_home(&env);
    /* No keys at all: no account id. */
    CHECK(s_home(&env, NULL, "[profile p]\naws_account_id = 777788889999\n"));
    env.pairs[1][0] = "AWS_ACCOUNT_ID";
    env.pairs[1][1] = "111122223333";
    CHECK_OK(anvil_aws_config_resolve(NULL, NULL, s_lookup, &env, &c, NULL));
    CHECK_STR_EQ(c.account_id, "");
done:
    s_remove_home(&env);
}
