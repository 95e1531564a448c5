/*
 * Load + validate every Smithy model in a folder, in one process: the total
 * as min-median-max over RUNS passes, the slowest (largest) model, and peak
 * heap per input byte. Goal (issue 5): the 39 shared AWS models in under
 * 1 s, peak under 3x the input. There is no peer (Smithy's validator runs
 * on the JVM). A benchmark, not a test: it reads the real clock (--smoke:
 * one pass, checks every model loads, reports no time).
 * Usage: bench_model [--runs N] [--smoke] DIR
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "bench_heap.h"
#include "bench_stats.h"
#include "read_file.h"

static double s_now(void) {
    return bench_now();
}

struct file {
    char name[256];
    char *text;
    size_t len;
};

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", smoke ? 1 : 5, 1, 100);
    int first = 1;
    if (argc != 2) {
        fprintf(stderr, "usage: %s [--runs N] [--smoke] DIR\n", argv[0]);
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
            bench_heap_reset();
            double t0 = s_now();
            struct anvil_model_options options = {.allow_unresolved = true};
            struct anvil_model *model = NULL;
            struct anvil_events *ev = NULL;
            if (anvil_model_load(&bench_heap_allocator, files[i].text, files[i].len, &options, &model, NULL) !=
                    ANVIL_OK ||
                anvil_model_validate(model, &bench_heap_allocator, &ev) != ANVIL_OK) {
                fprintf(stderr, "%s failed\n", files[i].name);
                return 1;
            }
            events += anvil_events_count(ev);
            anvil_events_destroy(ev);
            anvil_model_destroy(model);
            double t = s_now() - t0;
            double peak = (double)bench_heap_peak / (double)files[i].len;
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
    if (smoke) {
        printf("%zu models loaded and validated, %zu events\n", count, events);
        for (size_t i = 0; i < count; i++) {
            free(files[i].text);
        }
        return count ? 0 : 1;
    }
    for (int r = 0; r < runs; r++) {
        totals[r] *= 1e3;
    }
    struct bench_range total = bench_range_of(totals, (size_t)runs);
    printf("Smithy models, load + validate in one process (%d runs)\n\n", runs);
    printf("  models            %zu (%.1f MB), %zu events\n", count, (double)total_bytes / 1e6, events);
    printf("  total             %.1f-%.1f-%.1f ms, min-median-max (goal: under 1000 ms)\n", total.min, total.median,
           total.max);
    printf("  slowest model     %s, %.1f ms\n", worst_name, worst * 1e3);
    printf("  peak heap / input %.2fx at most, for %s (goal: under 3x)\n", worst_peak, worst_peak_name);
    for (size_t i = 0; i < count; i++) {
        free(files[i].text);
    }
    return 0;
}
