/* The HTTP Date header, read to correct clock skew (RFC 9110's IMF-fixdate). */

#include "harness.h"
#include "transport/client_internal.h"

static int64_t s_date(const char *text) {
    return anvil__http_date_ms(anvil_sv_from_cstr(text));
}

TEST(http_date_reads_imf_fixdate) {
    CHECK(s_date("Thu, 01 Jan 1970 00:00:00 GMT") == 0);
    CHECK(s_date("Sun, 06 Nov 1994 08:49:37 GMT") == INT64_C(784111777000));
    CHECK(s_date("Fri, 31 Dec 1999 23:59:59 GMT") == INT64_C(946684799000));
    CHECK(s_date("Tue, 29 Feb 2028 12:00:00 GMT") == INT64_C(1835438400000));
    CHECK(s_date("Mon, 23 Nov 2026 00:51:00 GMT") == INT64_C(1795395060000));
    /* A leap second reads as the next second's start. */
    CHECK(s_date("Sat, 31 Dec 2016 23:59:60 GMT") == INT64_C(1483228800000));
done:;
}

TEST(http_date_refuses_what_is_not_one) {
    static const char *const bad[] = {
        "",
        "Sun, 06 Nov 1994 08:49:37 UTC",  /* not GMT */
        "Sunday, 06-Nov-94 08:49:37 GMT", /* RFC 850 */
        "Sun Nov  6 08:49:37 1994",       /* asctime */
        "Sun, 06 Nox 1994 08:49:37 GMT",  /* no such month */
        "Sun, 00 Nov 1994 08:49:37 GMT",  /* day 0 */
        "Sun, 06 Nov 1994 24:00:00 GMT",  /* hour 24 */
        "Sun, 06 Nov 1994 08:60:37 GMT",  /* minute 60 */
        "Sun, 06 Nov 1969 08:49:37 GMT",  /* before the epoch */
        "Sun, 0x Nov 1994 08:49:37 GMT",  /* not digits */
        "Sun, 06 Nov 1994 08:49:37 GMT ", /* trailing */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (s_date(bad[i]) != -1) {
            CHECK_STR_EQ(bad[i], "(read as a date)");
        }
    }
done:;
}

TEST(curl_failures_count_as_the_sdks_count_them) {
    /* A name that does not resolve and a refused connection are both transient: neither request left. */
    struct anvil_retry_class c;
    struct anvil_retry_response r = {0};
    r.io_error = anvil__curl_io_error(CURLE_COULDNT_RESOLVE_HOST);
    anvil_retry_classify(&r, &c);
    CHECK(c.retryable && c.safe_for_any_operation);
    r.io_error = anvil__curl_io_error(CURLE_COULDNT_CONNECT);
    anvil_retry_classify(&r, &c);
    CHECK(c.retryable && c.safe_for_any_operation);
    /* A dropped connection may have had an effect; a cancel is never retried. */
    r.io_error = anvil__curl_io_error(CURLE_RECV_ERROR);
    anvil_retry_classify(&r, &c);
    CHECK(c.retryable && !c.safe_for_any_operation);
    r.io_error = anvil__curl_io_error(CURLE_ABORTED_BY_CALLBACK);
    anvil_retry_classify(&r, &c);
    CHECK(!c.retryable);
done:;
}
