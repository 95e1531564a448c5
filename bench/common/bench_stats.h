#ifndef ANVIL_BENCH_STATS_H
#define ANVIL_BENCH_STATS_H

/*
 * What every benchmark shares, so that each reports the same way: engines
 * measured round by round in one process where they can be (each round
 * rotating which goes first), at least 3 runs, and a ratio reported as
 * min-median-max over the runs, never as the best run. Smoke mode (make
 * test) runs each benchmark once on a tiny input and checks only that
 * every engine gave the right answer: nothing is timed there.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of `n` values (sorts them in place); 0 for none. */
static inline double bench_median(double *v, size_t n) {
    if (n == 0) {
        return 0;
    }
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct bench_range {
    double min, median, max;
};

/* min, median and max of `n` values (the array is left sorted). */
static inline struct bench_range bench_range_of(double *v, size_t n) {
    struct bench_range r = {0, 0, 0};
    if (n > 0) {
        r.median = bench_median(v, n);
        r.min = v[0];
        r.max = v[n - 1];
    }
    return r;
}

/* "2.1-2.4-2.9x" into `out`. */
static inline const char *bench_range_text(struct bench_range r, char *out, size_t size) {
    int digits = r.max < 10 ? 2 : 1;
    snprintf(out, size, "%.*f-%.*f-%.*fx", digits, r.min, digits, r.median, digits, r.max);
    return out;
}

/* Removes a "--smoke" argument; true when there was one. */
static inline bool bench_take_smoke(int *argc, char **argv) {
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--smoke") == 0) {
            memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof *argv);
            (*argc)--;
            return true;
        }
    }
    return false;
}

/* Removes "--NAME N" and returns N, or `fallback` when absent (exits on a bad N). */
static inline int bench_take_int(int *argc, char **argv, const char *name, int fallback, int lo, int hi) {
    for (int i = 1; i + 1 < *argc; i++) {
        if (strcmp(argv[i], name) == 0) {
            int n = atoi(argv[i + 1]);
            if (n < lo || n > hi) {
                fprintf(stderr, "%s takes a number from %d to %d\n", name, lo, hi);
                exit(2);
            }
            memmove(&argv[i], &argv[i + 2], (size_t)(*argc - i - 1) * sizeof *argv);
            *argc -= 2;
            return n;
        }
    }
    return fallback;
}

#endif
