/*
 * JSON parse+free: anvil against cJSON, jansson and json-c (Debian packages),
 * on the same bytes in one run. Prints the median time of RUNS runs, MB/s,
 * peak heap per input byte (where the library lets us count), and anvil's
 * speed-up over each peer. A benchmark, not a test: it reads the real clock.
 *
 * Usage: bench_json [--runs N] FILE...
 */

#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <jansson.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "read_file.h"

/* ---- heap accounting ---- */

static size_t s_live, s_peak;

static void s_count_reset(void) {
    s_live = 0;
    s_peak = 0;
}

static void *s_count_malloc(size_t n) {
    void *p = malloc(n);
    if (p) {
        s_live += malloc_usable_size(p);
        if (s_live > s_peak) {
            s_peak = s_live;
        }
    }
    return p;
}

static void s_count_free(void *p) {
    if (p) {
        s_live -= malloc_usable_size(p);
        free(p);
    }
}

static void *s_anvil_acquire(struct anvil_allocator *a, size_t n) {
    (void)a;
    return s_count_malloc(n);
}

static void *s_anvil_realloc(struct anvil_allocator *a, void *p, size_t n) {
    (void)a;
    size_t before = malloc_usable_size(p);
    void *q = realloc(p, n);
    if (q) {
        s_live = s_live - before + malloc_usable_size(q);
        if (s_live > s_peak) {
            s_peak = s_live;
        }
    }
    return q;
}

static void s_anvil_release(struct anvil_allocator *a, void *p) {
    (void)a;
    s_count_free(p);
}

static struct anvil_allocator s_counting = {s_anvil_acquire, s_anvil_realloc, s_anvil_release, NULL};

/* ---- the parsers: each parses, checks the root, frees; returns 0 on success ---- */

static int s_anvil(const char *text, size_t len, bool count) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (anvil_json_parse(count ? &s_counting : NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        fprintf(stderr, "anvil: %zu:%zu: %s\n", diag.line, diag.column, diag.message);
        return 1;
    }
    int ok = anvil_json_is_object(anvil_json_doc_root(doc));
    anvil_json_doc_destroy(doc);
    return !ok;
}

static int s_cjson(const char *text, size_t len, bool count) {
    cJSON_Hooks hooks = {count ? s_count_malloc : malloc, count ? s_count_free : free};
    cJSON_InitHooks(&hooks);
    cJSON *root = cJSON_ParseWithLength(text, len);
    int ok = root && cJSON_IsObject(root);
    cJSON_Delete(root);
    return !ok;
}

static int s_jansson(const char *text, size_t len, bool count) {
    json_set_alloc_funcs(count ? s_count_malloc : malloc, count ? s_count_free : free);
    json_error_t error;
    json_t *root = json_loadb(text, len, 0, &error);
    int ok = root && json_is_object(root);
    json_decref(root);
    return !ok;
}

/*
 * json-c and jansson both export json_object_get() (with different
 * meanings), so json-c is loaded on its own with RTLD_DEEPBIND: its internal
 * calls then bind to its own symbols, never to jansson's.
 */
static struct {
    void *(*tokener_new_ex)(int depth);
    void *(*tokener_parse_ex)(void *tok, const char *text, int len);
    int (*object_is_type)(const void *obj, int type);
    int (*object_put)(void *obj);
    void (*tokener_free)(void *tok);
} s_jc;

static int s_load_jsonc(void) {
    void *lib = dlopen("libjson-c.so.5", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!lib) {
        return 1;
    }
    *(void **)&s_jc.tokener_new_ex = dlsym(lib, "json_tokener_new_ex");
    *(void **)&s_jc.tokener_parse_ex = dlsym(lib, "json_tokener_parse_ex");
    *(void **)&s_jc.object_is_type = dlsym(lib, "json_object_is_type");
    *(void **)&s_jc.object_put = dlsym(lib, "json_object_put");
    *(void **)&s_jc.tokener_free = dlsym(lib, "json_tokener_free");
    return !(s_jc.tokener_new_ex && s_jc.tokener_parse_ex && s_jc.object_is_type && s_jc.object_put &&
             s_jc.tokener_free);
}

static int s_jsonc(const char *text, size_t len, bool count) {
    (void)count; /* json-c has no allocator hooks */
    const int json_type_object = 4, default_depth = 32;
    void *tok = s_jc.tokener_new_ex(default_depth);
    void *root = s_jc.tokener_parse_ex(tok, text, (int)len);
    int ok = root && s_jc.object_is_type(root, json_type_object);
    s_jc.object_put(root);
    s_jc.tokener_free(tok);
    return !ok;
}

struct s_parser {
    const char *name;
    int (*parse)(const char *, size_t, bool);
    bool counts_memory;
};

static const struct s_parser s_parsers[] = {
    {"anvil", s_anvil, true},
    {"cJSON 1.7", s_cjson, true},
    {"jansson 2.14", s_jansson, true},
    {"json-c 0.16", s_jsonc, false},
};
#define S_PARSERS (sizeof(s_parsers) / sizeof(s_parsers[0]))

static double s_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int s_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int runs = 9;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
        runs = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: %s [--runs N] FILE...\n", argv[0]);
        return 2;
    }
    if (s_load_jsonc() != 0) {
        fprintf(stderr, "cannot load libjson-c.so.5: %s\n", dlerror());
        return 1;
    }
    int failed = 0;
    printf("JSON parse+free, median of %d runs (anvil %s)\n\n", runs, anvil_version_string());
    printf("%-14s %-13s %10s %9s %12s %14s\n", "document", "parser", "median ms", "MB/s", "peak/input",
           "anvil speed-up");
    for (int a = first; a < argc; a++) {
        size_t len = 0;
        char *text = anvil_test_read_file(argv[a], &len);
        if (!text) {
            fprintf(stderr, "cannot read %s\n", argv[a]);
            return 1;
        }
        const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        double median[S_PARSERS];
        double peak[S_PARSERS];
        for (size_t p = 0; p < S_PARSERS; p++) {
            double times[1000];
            for (int r = 0; r < runs; r++) {
                double start = s_now_ms();
                if (s_parsers[p].parse(text, len, false) != 0) {
                    fprintf(stderr, "%s failed to parse %s\n", s_parsers[p].name, base);
                    failed = 1;
                }
                times[r] = s_now_ms() - start;
            }
            qsort(times, (size_t)runs, sizeof(double), s_cmp_double);
            median[p] = times[runs / 2];
            peak[p] = -1;
            if (s_parsers[p].counts_memory) {
                s_count_reset();
                s_parsers[p].parse(text, len, true);
                peak[p] = (double)s_peak / (double)len;
            }
        }
        double fastest_peer = median[1];
        for (size_t p = 1; p < S_PARSERS; p++) {
            fastest_peer = median[p] < fastest_peer ? median[p] : fastest_peer;
        }
        for (size_t p = 0; p < S_PARSERS; p++) {
            char peak_text[32] = "n/a";
            if (peak[p] >= 0) {
                snprintf(peak_text, sizeof(peak_text), "%.2fx", peak[p]);
            }
            char ratio[32] = "";
            if (p > 0) {
                snprintf(ratio, sizeof(ratio), "%.1fx", median[p] / median[0]);
            }
            printf("%-14s %-13s %10.2f %9.0f %12s %14s\n", p == 0 ? base : "", s_parsers[p].name, median[p],
                   (double)len / 1e6 / (median[p] / 1e3), peak_text, ratio);
        }
        printf("%-14s anvil vs the fastest peer: %.1fx faster (goal >= 5x); peak heap %.2fx the input (goal <= 2x)\n\n",
               "", fastest_peer / median[0], peak[0]);
        free(text);
    }
    return failed;
}
