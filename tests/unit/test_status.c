#include "harness.h"

TEST(status_names_and_texts_cover_every_code) {
    CHECK_STR_EQ(anvil_status_name(ANVIL_OK), "ANVIL_OK");
    CHECK_STR_EQ(anvil_status_str(ANVIL_OK), "success");
    CHECK_STR_EQ(anvil_status_name(ANVIL_ENOMEM), "ANVIL_ENOMEM");
    CHECK_STR_EQ(anvil_status_str(ANVIL_ENOMEM), "out of memory");
    CHECK_STR_EQ(anvil_status_name(ANVIL_EINTERNAL), "ANVIL_EINTERNAL");
    for (int code = ANVIL_STATUS_MIN; code <= 0; code++) {
        const char *name = anvil_status_name(code);
        CHECK(strncmp(name, "ANVIL_", 6) == 0);
        CHECK(strcmp(name, "ANVIL_E_UNKNOWN") != 0);
        CHECK(anvil_status_str(code)[0] != '\0');
        /* Names are unique. */
        for (int other = ANVIL_STATUS_MIN; other < code; other++) {
            CHECK(strcmp(name, anvil_status_name(other)) != 0);
        }
    }
done:;
}

TEST(status_unknown_codes_get_a_placeholder) {
    CHECK_STR_EQ(anvil_status_name(1), "ANVIL_E_UNKNOWN");
    CHECK_STR_EQ(anvil_status_name(ANVIL_STATUS_MIN - 1), "ANVIL_E_UNKNOWN");
    CHECK_STR_EQ(anvil_status_str(-1000), "unknown status code");
    CHECK_STR_EQ(anvil_status_name(-2147483647 - 1), "ANVIL_E_UNKNOWN");
done:;
}

TEST(version_matches_header) {
    CHECK_STR_EQ(anvil_version_string(), ANVIL_VERSION_STRING);
    CHECK_EQ_INT(anvil_version_number(), ANVIL_VERSION_MAJOR * 10000 + ANVIL_VERSION_MINOR * 100 + ANVIL_VERSION_PATCH);
done:;
}
