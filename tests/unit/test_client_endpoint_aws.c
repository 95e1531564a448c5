/*
 * The client's endpoints with AWS's own rule sets (the models in the test
 * data): the built-ins come from the environment and the profile as the AWS
 * CLI sets them (FIPS, dual-stack, S3's addressing style, its us-east-1
 * global endpoint, a configured endpoint, the account id), S3's bucket
 * moves from the path to the host, and what the rules refuse is said in
 * their words.
 */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "read_file.h"

#define S_MODELS ANVIL_TESTDATA_DIR "/smithy-models/aws/"

struct s_env {
    const char *pairs[16][2];
    char home[256];
};

static const char *s_lookup(void *ctx, const char *name) {
    struct s_env *env = ctx;
    if (strcmp(name, "HOME") == 0) {
        return env->home[0] ? env->home : "/nonexistent";
    }
    if (strcmp(name, "AWS_ACCESS_KEY_ID") == 0) {
        return "AKIDEXAMPLE";
    }
    if (strcmp(name, "AWS_SECRET_ACCESS_KEY") == 0) {
        return "secret";
    }
    for (size_t i = 0; i < 16 && env->pairs[i][0]; i++) {
        if (strcmp(env->pairs[i][0], name) == 0) {
            return env->pairs[i][1];
        }
    }
    return NULL;
}

/* A HOME whose ~/.aws/config is `config`. */
static bool s_home(struct s_env *env, const char *config) {
    snprintf(env->home, sizeof env->home, "%s/anvil-ep-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    char path[512];
    if (!mkdtemp(env->home)) {
        return false;
    }
    snprintf(path, sizeof path, "%s/.aws", env->home);
    if (mkdir(path, 0700) != 0) {
        return false;
    }
    snprintf(path, sizeof path, "%s/.aws/config", env->home);
    FILE *f = fopen(path, "w");
    return f && fputs(config, f) >= 0 && fclose(f) == 0;
}

static void s_remove_home(struct s_env *env) {
    if (!env->home[0]) {
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/.aws/config", env->home);
    unlink(path);
    snprintf(path, sizeof path, "%s/.aws", env->home);
    rmdir(path);
    rmdir(env->home);
}

static struct anvil_model *s_model(struct anvil_test *t, const char *file) {
    size_t len = 0;
    char *text = anvil_test_read_file(file, &len);
    if (!text) {
        anvil_test_fail(t, __FILE__, __LINE__, "cannot read %s", file);
        return NULL;
    }
    struct anvil_model_source src = {file, text, len, ANVIL_MODEL_FORMAT_JSON};
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    if (anvil_model_assemble(t->alloc, &src, 1, NULL, &model, NULL, &diag) != ANVIL_OK) {
        anvil_test_fail(t, __FILE__, __LINE__, "%s: %s", file, diag.message);
    }
    free(text);
    return model;
}

/*
 * The URL `op` with `input` would be sent to by a client of `model` in
 * `region` with `env` (and `endpoint_url`), into `url`; the status, with the
 * message in `diag`.
 */
static int s_url(struct anvil_test *t, const struct anvil_model *model, const char *region, struct s_env *env,
                 const char *endpoint_url, const char *op, const char *input, char *url, size_t size,
                 struct anvil_diag *diag) {
    struct anvil_client_options o = {.region = region, .endpoint_url = endpoint_url, .getenv = s_lookup};
    o.getenv_ctx = env;
    struct anvil_client *client = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_json in;
    struct anvil_http_request r;
    anvil_diag_clear(diag);
    url[0] = '\0';
    int rc = anvil_client_new(t->alloc, model, NULL, &o, &client, diag);
    rc = rc == ANVIL_OK ? anvil_arena_new(t->alloc, NULL, &arena) : rc;
    rc = rc == ANVIL_OK ? anvil_json_parse_into(arena, t->alloc, input, strlen(input), NULL, &in, NULL) : rc;
    const struct anvil_shape *shape = rc == ANVIL_OK ? anvil_client_operation(client, op) : NULL;
    rc = rc == ANVIL_OK && !shape ? ANVIL_ENOTFOUND : rc;
    rc = rc == ANVIL_OK ? anvil_client_prepare(client, shape, &in, arena, &r, diag) : rc;
    if (rc == ANVIL_OK) {
        snprintf(url, size, "%.*s", (int)r.url.len, r.url.ptr);
    }
    anvil_arena_destroy(arena);
    anvil_client_destroy(client);
    return rc;
}

TEST(client_endpoint_aws_dynamodb_fips_dualstack_and_account) {
    struct anvil_model *m = s_model(t, S_MODELS "dynamodb-2012-08-10.json");
    struct s_env env = {{{NULL}}, ""};
    char url[1024];
    struct anvil_diag diag;
    CHECK(m != NULL);
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://dynamodb.us-east-1.amazonaws.com/");
    CHECK_OK(s_url(t, m, "cn-north-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://dynamodb.cn-north-1.amazonaws.com.cn/");
    env.pairs[0][0] = "AWS_USE_FIPS_ENDPOINT";
    env.pairs[0][1] = "true";
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://dynamodb-fips.us-east-1.amazonaws.com/");
    env.pairs[1][0] = "AWS_USE_DUALSTACK_ENDPOINT";
    env.pairs[1][1] = "true";
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://dynamodb-fips.us-east-1.api.aws/");
    /* A configured endpoint stands: FIPS and dual-stack do not apply to it (the rules would refuse both). */
    CHECK_OK(s_url(t, m, "us-east-1", &env, "http://127.0.0.1:8000", "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "http://127.0.0.1:8000/");
    /* An account id: DynamoDB's account-based endpoint, unless the mode is disabled. */
    env.pairs[0][0] = "AWS_ACCOUNT_ID";
    env.pairs[0][1] = "111122223333";
    env.pairs[1][0] = NULL;
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://111122223333.ddb.us-east-1.amazonaws.com/");
    env.pairs[1][0] = "AWS_ACCOUNT_ID_ENDPOINT_MODE";
    env.pairs[1][1] = "Disabled"; /* in any case, as it is checked */
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://dynamodb.us-east-1.amazonaws.com/");
    /* Required, and none known: the rules' own error, in their words, as the configuration's fault. */
    env.pairs[0][0] = "AWS_ACCOUNT_ID_ENDPOINT_MODE";
    env.pairs[0][1] = "REQUIRED";
    env.pairs[1][0] = NULL;
    CHECK_STATUS(s_url(t, m, "us-east-1", &env, NULL, "ListTables", "{}", url, sizeof url, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "AccountIdEndpointMode is required") != NULL);
done:
    anvil_model_destroy(m);
}

TEST(client_endpoint_aws_s3_bucket_in_host_or_path) {
    struct anvil_model *m = s_model(t, S_MODELS "s3-2006-03-01.json");
    struct s_env env = {{{NULL}}, ""};
    char url[1024];
    struct anvil_diag diag;
    CHECK(m != NULL);
    /* Virtual-hosted: the bucket leaves the path for the host; the key stays, encoded once. */
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "GetObject", "{\"Bucket\": \"bk1\", \"Key\": \"a b+c\"}", url,
                   sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.s3.us-west-2.amazonaws.com/a%20b%2Bc?x-id=GetObject");
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "ListObjectsV2", "{\"Bucket\": \"bk1\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.s3.us-west-2.amazonaws.com/?list-type=2");
    /* GetBucketLocation asks where the bucket is: by path, as botocore sends it (a virtual host would need its region).
     */
    CHECK_OK(
        s_url(t, m, "us-west-2", &env, NULL, "GetBucketLocation", "{\"Bucket\": \"bk1\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://s3.us-west-2.amazonaws.com/bk1?location");
    /* A bucket no host can hold (dots over https): by path. */
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "ListObjectsV2", "{\"Bucket\": \"my.b\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://s3.us-west-2.amazonaws.com/my.b?list-type=2");
    /* us-east-1 goes to the global endpoint unless us_east_1_regional_endpoint is regional. */
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListObjectsV2", "{\"Bucket\": \"bk1\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.s3.amazonaws.com/?list-type=2");
    env.pairs[0][0] = "AWS_S3_US_EAST_1_REGIONAL_ENDPOINT";
    env.pairs[0][1] = "regional";
    CHECK_OK(s_url(t, m, "us-east-1", &env, NULL, "ListObjectsV2", "{\"Bucket\": \"bk1\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.s3.us-east-1.amazonaws.com/?list-type=2");
    /* A configured endpoint (an emulator): by path, as the AWS CLI does unless virtual is asked for. */
    CHECK_OK(s_url(t, m, "us-west-2", &env, "http://127.0.0.1:4569", "GetObject",
                   "{\"Bucket\": \"bk1\", \"Key\": \"k\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "http://127.0.0.1:4569/bk1/k?x-id=GetObject");
    /* The scheme in any case (the rules' parseURL takes lower case only). */
    CHECK_OK(s_url(t, m, "us-west-2", &env, "HTTP://127.0.0.1:4569", "GetObject",
                   "{\"Bucket\": \"bk1\", \"Key\": \"k\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "http://127.0.0.1:4569/bk1/k?x-id=GetObject");
    /* An access point ARN: its own host. */
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "GetObject",
                   "{\"Bucket\": \"arn:aws:s3:us-west-2:123456789012:accesspoint:myap\", \"Key\": \"k\"}", url,
                   sizeof url, &diag));
    CHECK_STR_EQ(url, "https://myap-123456789012.s3-accesspoint.us-west-2.amazonaws.com/k?x-id=GetObject");
    /* An ARN the rules cannot use: their error, in their words. */
    CHECK_STATUS(s_url(t, m, "us-west-2", &env, NULL, "GetObject",
                       "{\"Bucket\": \"arn:aws:s3:us-west-2:123456789012:nonsense\", \"Key\": \"k\"}", url, sizeof url,
                       &diag),
                 ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "Invalid ARN") != NULL);
    /* A multi-Region access point needs SigV4A. */
    CHECK_STATUS(s_url(t, m, "us-west-2", &env, NULL, "GetObject",
                       "{\"Bucket\": \"arn:aws:s3::123456789012:accesspoint:mfzwi23gnjvgw.mrap\", \"Key\": \"k\"}", url,
                       sizeof url, &diag),
                 ANVIL_EUNSUPPORTED);
done:
    anvil_model_destroy(m);
}

TEST(client_endpoint_aws_s3_settings_from_the_profile) {
    struct anvil_model *m = s_model(t, S_MODELS "s3-2006-03-01.json");
    struct s_env env = {{{NULL}}, ""};
    char url[1024];
    struct anvil_diag diag;
    CHECK(m != NULL);
    CHECK(s_home(&env, "[default]\ns3 =\n  addressing_style = path\n  use_dualstack_endpoint = true\n"));
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "GetObject", "{\"Bucket\": \"bk1\", \"Key\": \"k\"}", url, sizeof url,
                   &diag));
    CHECK_STR_EQ(url, "https://s3.dualstack.us-west-2.amazonaws.com/bk1/k?x-id=GetObject");
    s_remove_home(&env);
    CHECK(s_home(&env, "[default]\ns3 =\n  use_accelerate_endpoint = true\n"));
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "GetObject", "{\"Bucket\": \"bk1\", \"Key\": \"k\"}", url, sizeof url,
                   &diag));
    CHECK_STR_EQ(url, "https://bk1.s3-accelerate.amazonaws.com/k?x-id=GetObject");
    /* Path style asked for: not for a bucket given as an ARN (it has a host of its own), as botocore has it. */
    s_remove_home(&env);
    CHECK(s_home(&env, "[default]\ns3 =\n  addressing_style = path\n"));
    CHECK_OK(s_url(t, m, "us-west-2", &env, NULL, "GetObject",
                   "{\"Bucket\": \"arn:aws:s3:us-west-2:123456789012:accesspoint/myap\", \"Key\": \"k\"}", url,
                   sizeof url, &diag));
    CHECK_STR_EQ(url, "https://myap-123456789012.s3-accesspoint.us-west-2.amazonaws.com/k?x-id=GetObject");
    /* Virtual asked for with a configured endpoint: the bucket goes in front of its host. */
    s_remove_home(&env);
    CHECK(s_home(&env, "[default]\ns3 =\n  addressing_style = virtual\n"));
    CHECK_OK(s_url(t, m, "us-west-2", &env, "https://storage.example.com", "GetObject",
                   "{\"Bucket\": \"bk1\", \"Key\": \"k\"}", url, sizeof url, &diag));
    CHECK_STR_EQ(url, "https://bk1.storage.example.com/k?x-id=GetObject");
done:
    s_remove_home(&env);
    anvil_model_destroy(m);
}
