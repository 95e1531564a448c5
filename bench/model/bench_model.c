/*
 * Load + validate every Smithy model in a folder, in one process: total
 * time, the slowest (largest) model, and peak heap per input byte, median of
 * RUNS passes. Goal (issue 5): the 39 shared AWS models in under 1 s, peak
 * under 3x the input. A benchmark, not a test: it reads the real clock.
 * Usage: bench_model [--runs N] DIR
 */

#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "read_file.h"

static size_t s_live, s_peak;

static void *s_acquire(struct anvil_allocator *a, size_t n) {
    (void)a;
    void *p = malloc(n);
    if (p && (s_live += malloc_usable_size(p)) > s_peak) {
        s_peak = s_live;
    }
    return p;
}

static void *s_realloc(struct anvil_allocator *a, void *p, size_t n) {
    (void)a;
    size_t before = malloc_usable_size(p);
    void *q = realloc(p, n);
    if (q && (s_live = s_live - before + malloc_usable_size(q)) > s_peak) {
        s_peak = s_live;
    }
    return q;
}

static void s_release(struct anvil_allocator *a, void *p) {
    (void)a;
    s_live -= malloc_usable_size(p);
    free(p);
}

static struct anvil_allocator s_counting = {s_acquire, s_realloc, s_release, NULL};

static double s_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct file {
    char name[256];
    char *text;
    size_t len;
};

static int s_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int runs = 5;
    int first = 1;
    if (argc > 3 && strcmp(argv[1], "--runs") == 0) {
        runs = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || runs < 1 || runs > 100) {
        fprintf(stderr, "usage: %s [--runs N] DIR\n", argv[0]);
        return 2;
    }
    DIR *dir = opendir(argv[first]);
    if (!dir) {
        return 1;
    }
    struct file files[256];
    size_t count = 0, total_bytes = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && count < 256) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", argv[first], e->d_name);
        files[count].text = anvil_test_read_file(path, &files[count].len);
        if (!files[count].text) {
            fprintf(stderr, "cannot read %s\n", path);
            return 1;
        }
        snprintf(files[count].name, sizeof(files[count].name), "%s", e->d_name);
        total_bytes += files[count].len;
        count++;
    }
    closedir(dir);
    double totals[100];
    double worst = 0, worst_peak = 0;
    const char *worst_name = "", *worst_peak_name = "";
    size_t events = 0;
    for (int r = 0; r < runs; r++) {
        double start = s_now();
        events = 0;
        for (size_t i = 0; i < count; i++) {
            s_live = s_peak = 0;
            double t0 = s_now();
            struct anvil_model_options options = {.allow_unresolved = true};
            struct anvil_model *model = NULL;
            struct anvil_events *ev = NULL;
            if (anvil_model_load(&s_counting, files[i].text, files[i].len, &options, &model, NULL) != ANVIL_OK ||
                anvil_model_validate(model, &s_counting, &ev) != ANVIL_OK) {
                fprintf(stderr, "%s failed\n", files[i].name);
                return 1;
            }
            events += anvil_events_count(ev);
            anvil_events_destroy(ev);
            anvil_model_destroy(model);
            double t = s_now() - t0;
            double peak = (double)s_peak / (double)files[i].len;
            if (t > worst) {
                worst = t;
                worst_name = files[i].name;
            }
            if (peak > worst_peak) {
                worst_peak = peak;
                worst_peak_name = files[i].name;
            }
        }
        totals[r] = s_now() - start;
    }
    qsort(totals, (size_t)runs, sizeof(double), s_cmp);
    printf("Smithy models, load + validate in one process (median of %d runs)\n\n", runs);
    printf("  models            %zu (%.1f MB), %zu events\n", count, (double)total_bytes / 1e6, events);
    printf("  total             %.1f ms (goal: under 1000 ms)\n", totals[runs / 2] * 1e3);
    printf("  slowest model     %s, %.1f ms\n", worst_name, worst * 1e3);
    printf("  peak heap / input %.2fx at most, for %s (goal: under 3x)\n", worst_peak, worst_peak_name);
    for (size_t i = 0; i < count; i++) {
        free(files[i].text);
    }
    return 0;
}
