/*
 * Timestamps on the wire: Smithy's three formats (date-time, http-date,
 * epoch-seconds), read and written at millisecond precision. The data
 * model holds epoch seconds as a JSON number: an integer when whole, else
 * a double with the milliseconds.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "protocol/protocol_internal.h"

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
static int64_t s_days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* The civil date of a day count (Hinnant's civil_from_days). */
static void s_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* A run of `n` digits at `p` as a number, or -1. */
static int s_digits(const char *p, size_t n) {
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return -1;
        }
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

static const char s_months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
static const char s_days[] = "ThuFriSatSunMonTueWed"; /* 1970-01-01 was a Thursday */

static int64_t s_epoch_ms(int64_t year, unsigned month, unsigned day, int hh, int mm, int ss, int ms) {
    return ((s_days_from_civil(year, month, day) * 24 + hh) * 60 + mm) * 60000 + (int64_t)ss * 1000 + ms;
}

static bool s_valid(int64_t year, unsigned month, int day, int hh, int mm, int ss) {
    static const unsigned char days_in[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month >= 1 && month <= 12 && day >= 1 && day <= days_in[month - 1] && year >= 0 && year <= 9999 && hh >= 0 &&
           hh <= 23 && mm >= 0 && mm <= 59 && ss >= 0 && ss <= 60;
}

int64_t anvil__http_date_ms(struct anvil_str_view t) {
    /* IMF-fixdate (RFC 9110 5.6.7), which every AWS service sends: "Sun, 06 Nov 1994 08:49:37 GMT". */
    if (t.len != 29 || t.ptr[3] != ',' || t.ptr[4] != ' ' || t.ptr[7] != ' ' || t.ptr[11] != ' ' || t.ptr[16] != ' ' ||
        t.ptr[19] != ':' || t.ptr[22] != ':' || memcmp(t.ptr + 25, " GMT", 4) != 0) {
        return -1;
    }
    int day = s_digits(t.ptr + 5, 2), year = s_digits(t.ptr + 12, 4);
    int hh = s_digits(t.ptr + 17, 2), mm = s_digits(t.ptr + 20, 2), ss = s_digits(t.ptr + 23, 2);
    unsigned month = 0;
    for (unsigned i = 0; i < 12; i++) {
        if (memcmp(t.ptr + 8, s_months + 3 * i, 3) == 0) {
            month = i + 1;
        }
    }
    if (year < 1970 || !s_valid(year, month, day, hh, mm, ss)) {
        return -1;
    }
    return s_epoch_ms(year, month, (unsigned)day, hh, mm, ss, 0);
}

/*
 * RFC 3339 date-time: "2019-12-16T23:48:18Z", with an optional fraction
 * (kept to the millisecond) and a "Z" or "+hh:mm" offset; 't' and 'z' as
 * well, as RFC 3339 allows.
 */
static bool s_date_time(struct anvil_str_view t, int64_t *out) {
    const char *p = t.ptr;
    if (t.len < 20 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != 't') || p[13] != ':' || p[16] != ':') {
        return false;
    }
    int year = s_digits(p, 4), month = s_digits(p + 5, 2), day = s_digits(p + 8, 2);
    int hh = s_digits(p + 11, 2), mm = s_digits(p + 14, 2), ss = s_digits(p + 17, 2);
    if (year < 0 || month < 0 || !s_valid(year, (unsigned)month, day, hh, mm, ss)) {
        return false;
    }
    size_t i = 19;
    int ms = 0;
    if (i < t.len && p[i] == '.') {
        size_t start = ++i;
        for (; i < t.len && p[i] >= '0' && p[i] <= '9'; i++) {
            if (i - start < 3) {
                ms = ms * 10 + (p[i] - '0');
            }
        }
        if (i == start) {
            return false;
        }
        for (size_t k = i - start; k < 3; k++) {
            ms *= 10;
        }
    }
    int64_t offset_min = 0;
    if (i + 1 == t.len && (p[i] == 'Z' || p[i] == 'z')) {
        i++;
    } else if (i + 6 == t.len && (p[i] == '+' || p[i] == '-') && p[i + 3] == ':') {
        int oh = s_digits(p + i + 1, 2), om = s_digits(p + i + 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59) {
            return false;
        }
        offset_min = (p[i] == '-' ? -1 : 1) * (oh * 60 + om);
        i += 6;
    }
    if (i != t.len) {
        return false;
    }
    *out = s_epoch_ms(year, (unsigned)month, (unsigned)day, hh, mm, ss, ms) - offset_min * 60000;
    return true;
}

/* Epoch seconds as text: "1576540098", "1576540098.123", "-5". */
static bool s_epoch_text(struct anvil_str_view t, int64_t *out) {
    size_t i = 0;
    bool negative = t.len > 0 && t.ptr[0] == '-';
    i += negative;
    int64_t secs = 0;
    size_t start = i;
    for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; i++) {
        if (secs > INT64_MAX / 10000) {
            return false;
        }
        secs = secs * 10 + (t.ptr[i] - '0');
    }
    if (i == start) {
        return false;
    }
    int ms = 0;
    if (i < t.len && t.ptr[i] == '.') {
        size_t fstart = ++i;
        for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; i++) {
            if (i - fstart < 3) {
                ms = ms * 10 + (t.ptr[i] - '0');
            }
        }
        for (size_t k = i - fstart; k < 3; k++) {
            ms *= 10;
        }
    }
    if (i != t.len) {
        return false;
    }
    *out = (negative ? -1 : 1) * (secs * 1000 + ms);
    return true;
}

int anvil__timestamp_parse(struct anvil_str_view text, enum anvil__ts_format format, int64_t *ms) {
    switch (format) {
    case ANVIL__TS_DATE_TIME:
        return s_date_time(text, ms) ? ANVIL_OK : ANVIL_EVALUE;
    case ANVIL__TS_HTTP_DATE:
        *ms = anvil__http_date_ms(text);
        return *ms >= 0 || anvil_sv_eq_cstr(text, "Thu, 01 Jan 1970 00:00:00 GMT") ? ANVIL_OK : ANVIL_EVALUE;
    case ANVIL__TS_EPOCH_SECONDS:
        return s_epoch_text(text, ms) ? ANVIL_OK : ANVIL_EVALUE;
    }
    return ANVIL_EVALUE;
}

int anvil__timestamp_parse_any(struct anvil_str_view text, int64_t *ms) {
    if (s_date_time(text, ms) || s_epoch_text(text, ms)) {
        return ANVIL_OK;
    }
    return anvil__timestamp_parse(text, ANVIL__TS_HTTP_DATE, ms);
}

/* A JSON number of seconds as milliseconds, refusing what cannot be a date (NaN, beyond year 9999). */
static bool s_seconds_ms(double s, int64_t *ms) {
    if (!isfinite(s) || s < -62135596800.0 || s > 253402300799.999) {
        return false;
    }
    *ms = (int64_t)llround(s * 1000.0);
    return true;
}

int anvil__timestamp_from_json(const struct anvil_json *v, int64_t *ms) {
    if (anvil_json_is_int(v)) {
        int64_t s = anvil_json_int(v);
        if (s < -62135596800 || s > 253402300799) {
            return ANVIL_EVALUE;
        }
        *ms = s * 1000;
        return ANVIL_OK;
    }
    if (anvil_json_is_number(v)) {
        return s_seconds_ms(anvil_json_double(v), ms) ? ANVIL_OK : ANVIL_EVALUE;
    }
    if (anvil_json_is_string(v)) {
        return anvil__timestamp_parse_any(anvil_json_string(v), ms);
    }
    return ANVIL_EVALUE;
}

struct anvil_json anvil__timestamp_json(int64_t ms) {
    if (ms % 1000 == 0) {
        return anvil_json_make_int(ms / 1000);
    }
    return anvil_json_make_double((double)ms / 1000.0);
}

int anvil__timestamp_write(struct anvil_buf *out, int64_t ms, enum anvil__ts_format format) {
    int64_t secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
    int frac = (int)(ms - secs * 1000);
    int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    int64_t rem = secs - days * 86400;
    int64_t y;
    unsigned m, d;
    s_civil_from_days(days, &y, &m, &d);
    int hh = (int)(rem / 3600), mm = (int)(rem / 60 % 60), ss = (int)(rem % 60);
    switch (format) {
    case ANVIL__TS_DATE_TIME:
        if (frac) {
            return anvil_buf_appendf(out, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ", (long long)y, m, d, hh, mm, ss,
                                     frac);
        }
        return anvil_buf_appendf(out, "%04lld-%02u-%02uT%02d:%02d:%02dZ", (long long)y, m, d, hh, mm, ss);
    case ANVIL__TS_HTTP_DATE: {
        int64_t wd = ((days % 7) + 7) % 7;
        return anvil_buf_appendf(out, "%.3s, %02u %.3s %04lld %02d:%02d:%02d GMT", s_days + 3 * wd, d,
                                 s_months + 3 * (m - 1), (long long)y, hh, mm, ss);
    }
    case ANVIL__TS_EPOCH_SECONDS:
        if (frac) {
            /* Trailing zeros of the milliseconds dropped: 1.5, 1.25, 1.125. */
            char digits[4];
            snprintf(digits, sizeof digits, "%03d", frac);
            size_t n = 3;
            while (n > 1 && digits[n - 1] == '0') {
                n--;
            }
            return anvil_buf_appendf(out, "%lld.%.*s", (long long)secs, (int)n, digits);
        }
        return anvil_buf_appendf(out, "%lld", (long long)secs);
    }
    return ANVIL_EINVAL;
}

enum anvil__ts_format anvil__timestamp_format_of(const struct anvil_member *m, enum anvil__ts_format fallback) {
    const struct anvil_json *v = m ? anvil__trait(&m->traits, &anvil__t_timestamp_format) : NULL;
    if (!v && m && m->target) {
        v = anvil__trait(anvil_shape_traits(m->target), &anvil__t_timestamp_format);
    }
    struct anvil_str_view f = anvil_json_string(v);
    if (anvil_sv_eq_cstr(f, "date-time")) {
        return ANVIL__TS_DATE_TIME;
    }
    if (anvil_sv_eq_cstr(f, "http-date")) {
        return ANVIL__TS_HTTP_DATE;
    }
    if (anvil_sv_eq_cstr(f, "epoch-seconds")) {
        return ANVIL__TS_EPOCH_SECONDS;
    }
    return fallback;
}
