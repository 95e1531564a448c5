/*
 * Number text <-> double, independent of the process locale: a program that
 * called setlocale(LC_NUMERIC, "de_DE") must not make anvil read or write
 * "1,5". strtod and snprintf run under a per-thread C locale (uselocale).
 */

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "anvil/status.h"
#include "json/json_internal.h"

static locale_t s_c_locale;
static pthread_once_t s_locale_once = PTHREAD_ONCE_INIT;

static void s_init_locale(void) {
    s_c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* Switches this thread to the C numeric locale; returns the previous one (0 if unchanged). */
static locale_t s_enter_c(void) {
    pthread_once(&s_locale_once, s_init_locale);
    return s_c_locale ? uselocale(s_c_locale) : (locale_t)0;
}

static void s_leave_c(locale_t previous) {
    if (previous) {
        uselocale(previous);
    }
}

int anvil__json_strtod(struct anvil_allocator *allocator, const char *text, size_t len, double *out) {
    char small[128];
    char *copy = small;
    if (len >= sizeof(small)) {
        copy = anvil_mem_acquire(allocator, len + 1);
        if (!copy) {
            return ANVIL_ENOMEM;
        }
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    locale_t previous = s_enter_c();
    double d = strtod(copy, NULL);
    s_leave_c(previous);
    if (copy != small) {
        anvil_mem_release(allocator, copy);
    }
    /* Underflow to zero or a subnormal is fine; overflow to infinity is not. */
    if (!isfinite(d)) {
        return ANVIL_EVALUE;
    }
    *out = d;
    return ANVIL_OK;
}

static bool s_round_trips(const char *text, double d) {
    return strtod(text, NULL) == d;
}

size_t anvil__json_format_double(double d, char *out) {
    /* 17 significant digits always round-trip; fewer often do. For normal
     * doubles the first precision that round-trips from 15 up is the
     * shortest (fewer digits would have rounded to the same text with
     * trailing zeros, which %g strips). Subnormals have fewer digits of
     * precision, so they search from 1. */
    locale_t previous = s_enter_c();
    int first = fabs(d) < 2.2250738585072014e-308 && d != 0 ? 1 : 15;
    int n = 0;
    for (int precision = first; precision <= 17; precision++) {
        n = snprintf(out, 32, "%.*g", precision, d);
        if (precision == 17 || s_round_trips(out, d)) {
            break;
        }
    }
    s_leave_c(previous);
    /* Keep it a double when read back: "1" would come back as an integer. */
    bool has_point = false;
    for (int i = 0; i < n; i++) {
        if (out[i] == '.' || out[i] == 'e' || out[i] == 'E') {
            has_point = true;
            break;
        }
    }
    if (!has_point) {
        out[n++] = '.';
        out[n++] = '0';
        out[n] = '\0';
    }
    return (size_t)n;
}
