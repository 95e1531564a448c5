/* SigV4 beyond the aws-c-auth vectors (conformance sigv4.vectors): refusals and secrecy. */

#include "harness.h"

TEST(sigv4_refuses_missing_inputs_and_keeps_the_secret_out) {
    struct anvil_sigv4_result result;
    anvil_sigv4_result_init(&result, t->alloc);
    struct anvil_sigv4_header headers[] = {{ANVIL_SV("Host"), ANVIL_SV("dynamodb.us-east-1.amazonaws.com")},
                                           {ANVIL_SV("X-Amz-Target"), ANVIL_SV("DynamoDB_20120810.ListTables")}};
    struct anvil_sigv4_request req = {ANVIL_SV("POST"), ANVIL_SV("/"), ANVIL_SV(""), headers, 2, "{}", 2, NULL};
    struct anvil_sigv4_credentials cred = {ANVIL_SV("AKIDEXAMPLE"),
                                           ANVIL_SV("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), ANVIL_SV("")};
    struct anvil_sigv4_config cfg = {
        .region = ANVIL_SV("us-east-1"), .service = ANVIL_SV("dynamodb"), .time_ms = UINT64_C(1440938160000)};
    struct anvil_diag diag;
    struct anvil_sigv4_credentials none = {ANVIL_SV(""), ANVIL_SV(""), ANVIL_SV("")};
    CHECK_STATUS(anvil_sigv4_sign(&req, &none, &cfg, &result, &diag), ANVIL_EINVAL);
    CHECK(strstr(diag.message, "access key") != NULL);
    CHECK_OK(anvil_sigv4_sign(&req, &cred, &cfg, &result, &diag));
    CHECK_STR_EQ(result.amz_date, "20150830T123600Z");
    CHECK(strstr(result.authorization.data,
                 "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/dynamodb/aws4_request, "
                 "SignedHeaders=host;x-amz-date;x-amz-target, Signature=") == result.authorization.data);
    CHECK(strstr(result.canonical_request.data, "wJalr") == NULL && strstr(result.authorization.data, "wJalr") == NULL);
    CHECK(strstr(result.string_to_sign.data, "wJalr") == NULL);
done:
    anvil_sigv4_result_clean_up(&result);
}

/*
 * A path as sent is already percent-encoded: every service but S3 signs it
 * encoded again (double encoding), S3 signs it once (single_encode_path),
 * and an escape in lower-case hex is signed in upper case.
 */
TEST(sigv4_single_encoding_for_s3) {
    struct anvil_sigv4_result result;
    anvil_sigv4_result_init(&result, t->alloc);
    struct anvil_sigv4_header headers[] = {{ANVIL_SV("Host"), ANVIL_SV("b.s3.us-east-1.amazonaws.com")}};
    struct anvil_sigv4_request req = {
        ANVIL_SV("GET"), ANVIL_SV("/dir/a%20b%2bc~d"), ANVIL_SV(""), headers, 1, "", 0, NULL};
    struct anvil_sigv4_credentials cred = {ANVIL_SV("AKIDEXAMPLE"),
                                           ANVIL_SV("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), ANVIL_SV("")};
    struct anvil_sigv4_config cfg = {.region = ANVIL_SV("us-east-1"),
                                     .service = ANVIL_SV("s3"),
                                     .time_ms = UINT64_C(1440938160000),
                                     .keep_path = true,
                                     .single_encode_path = true};
    CHECK_OK(anvil_sigv4_sign(&req, &cred, &cfg, &result, NULL));
    static const char once[] = "GET\n/dir/a%20b%2Bc~d\n";
    CHECK(strncmp(result.canonical_request.data, once, sizeof once - 1) == 0);
    anvil_sigv4_result_clean_up(&result);
    anvil_sigv4_result_init(&result, t->alloc);
    cfg.single_encode_path = false;
    CHECK_OK(anvil_sigv4_sign(&req, &cred, &cfg, &result, NULL));
    static const char twice[] = "GET\n/dir/a%2520b%252bc~d\n";
    CHECK(strncmp(result.canonical_request.data, twice, sizeof twice - 1) == 0);
done:
    anvil_sigv4_result_clean_up(&result);
}
