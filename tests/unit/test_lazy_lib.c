/* Libraries loaded on first use: a missing library or symbol is a clear error, kept; a present one loads once. */
#include "harness.h"

#include "core/crypto.h"
#include "core/lazy_lib.h"

struct s_zlib {
    const char *(*version)(void);
};

TEST(lazy_lib_names_a_missing_library_and_symbol) {
    static const char *const none[] = {"libanvil-test-no-such-library.so.9", NULL};
    static const struct anvil__lazy_symbol version[] = {ANVIL__LAZY_SYMBOL(struct s_zlib, version, "zlibVersion")};
    struct s_zlib table = {NULL};
    struct anvil__lazy_lib missing = ANVIL__LAZY_LIB("a test library", none, version, &table, NULL);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__lazy_load(&missing, &diag), ANVIL_EUNSUPPORTED);
    CHECK(strstr(diag.message, "anvil needs a test library: ") == diag.message);
    CHECK(strstr(diag.message, "libanvil-test-no-such-library.so.9") != NULL);
    /* Asked again: the same answer, not a second attempt. */
    CHECK_STATUS(anvil__lazy_load(&missing, NULL), ANVIL_EUNSUPPORTED);
    static const char *const zlib[] = {"libz.so.1", NULL};
    static const struct anvil__lazy_symbol absent[] = {{"anvil_no_such_symbol", 0}};
    struct anvil__lazy_lib lacking = ANVIL__LAZY_LIB("zlib", zlib, absent, &table, NULL);
    CHECK_STATUS(anvil__lazy_load(&lacking, &diag), ANVIL_EUNSUPPORTED);
    CHECK_STR_EQ(diag.message, "anvil needs zlib, which lacks anvil_no_such_symbol");
    /* A library that is there loads, once. */
    struct anvil__lazy_lib present = ANVIL__LAZY_LIB("zlib", zlib, version, &table, NULL);
    CHECK_OK(anvil__lazy_load(&present, NULL));
    CHECK(table.version != NULL && table.version()[0] == '1');
    CHECK_OK(anvil__lazy_load(&present, NULL));
done:;
}

/* The hashes through the loaded libcrypto: known answers (FIPS 180 and RFC 1321, RFC 4231 case 2). */
TEST(crypto_digests_match_known_answers) {
    unsigned char out[32];
    static const unsigned char sha256_abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                                 0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                                 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    CHECK_OK(anvil__digest(ANVIL__SHA256, "abc", 3, out, NULL));
    CHECK(memcmp(out, sha256_abc, 32) == 0);
    static const unsigned char md5_empty[16] = {0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
                                                0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e};
    CHECK_OK(anvil__digest(ANVIL__MD5, NULL, 0, out, NULL));
    CHECK(memcmp(out, md5_empty, 16) == 0);
    static const unsigned char sha1_abc[20] = {0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
                                               0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
    CHECK_OK(anvil__digest(ANVIL__SHA1, "abc", 3, out, NULL));
    CHECK(memcmp(out, sha1_abc, 20) == 0);
    static const unsigned char hmac_jefe[32] = {0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24,
                                                0x26, 0x08, 0x95, 0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27,
                                                0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43};
    const char *data = "what do ya want for nothing?";
    CHECK_OK(anvil__hmac_sha256("Jefe", 4, data, strlen(data), out, NULL));
    CHECK(memcmp(out, hmac_jefe, 32) == 0);
    anvil__cleanse(out, sizeof out);
    static const unsigned char zero[32] = {0};
    CHECK(memcmp(out, zero, 32) == 0);
done:;
}
