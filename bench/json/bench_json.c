/*
 * JSON parse+free: anvil against cJSON, jansson, json-c, and (when their Debian
 * packages are there) simdjson 3 and RapidJSON 1.1 through peers_cpp.cpp,
 * on the same bytes in one process, the parsers interleaved: each round parses
 * the document with every parser (the first one rotating; each parse timed
 * after an untimed one, see the note on the heap below), a run is
 * ROUNDS rounds and keeps each parser's median, and anvil's speed-up over
 * each peer is reported as min-median-max over RUNS runs, with MB/s and peak
 * heap per input byte (where the library lets us count). A benchmark, not a
 * test: it reads the real clock (--smoke: one round, timing not reported).
 *
 * Usage: bench_json [--runs N] [--rounds N] [--smoke] FILE...
 */

#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "bench_heap.h"
#include "bench_stats.h"
#include "read_file.h"

/* ---- the parsers: each parses, checks the root, frees; returns 0 on success ---- */

static int s_anvil(const char *text, size_t len, bool count) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (anvil_json_parse(count ? &bench_heap_allocator : NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        fprintf(stderr, "anvil: %zu:%zu: %s\n", diag.line, diag.column, diag.message);
        return 1;
    }
    int ok = anvil_json_is_object(anvil_json_doc_root(doc));
    anvil_json_doc_destroy(doc);
    return !ok;
}

static int s_cjson(const char *text, size_t len, bool count) {
    cJSON_Hooks hooks = {count ? bench_heap_malloc : malloc, count ? bench_heap_free : free};
    cJSON_InitHooks(&hooks);
    cJSON *root = cJSON_ParseWithLength(text, len);
    int ok = root && cJSON_IsObject(root);
    cJSON_Delete(root);
    return !ok;
}

static int s_jansson(const char *text, size_t len, bool count) {
    json_set_alloc_funcs(count ? bench_heap_malloc : malloc, count ? bench_heap_free : free);
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

#if defined(__SANITIZE_ADDRESS__)
#define S_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define S_SANITIZED 1
#endif
#endif

static int s_load_jsonc(void) {
#ifdef S_SANITIZED
    /* ASan refuses RTLD_DEEPBIND, and without it json-c would call jansson's json_object_get(). */
    return -1;
#endif
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

#ifdef BENCH_JSON_CPP_PEERS
/* simdjson and RapidJSON (peers_cpp.cpp). */
int bench_simdjson_dom_reused(const char *text, size_t len, bool count);
int bench_simdjson_dom_new(const char *text, size_t len, bool count);
int bench_rapidjson_parse(const char *text, size_t len, bool count);
int bench_rapidjson_insitu(const char *text, size_t len, bool count);
size_t bench_simdjson_padding(void);
#endif

struct s_parser {
    const char *name;
    int (*parse)(const char *, size_t, bool);
    bool counts_memory;
};

/* json-c's place in the table (an ASan build runs cJSON there instead). */
#define S_JSONC 3

static struct s_parser s_parsers[] = {
    {"anvil", s_anvil, true},
    {"cJSON 1.7", s_cjson, true},
    {"jansson 2.14", s_jansson, true},
    {"json-c 0.16", s_jsonc, false},
#ifdef BENCH_JSON_CPP_PEERS
    {"simdjson 3 DOM, parser reused", bench_simdjson_dom_reused, false},
    {"simdjson 3 DOM, new parser", bench_simdjson_dom_new, false},
    {"RapidJSON 1.1 Parse", bench_rapidjson_parse, false},
    {"RapidJSON 1.1 ParseInsitu (+copy)", bench_rapidjson_insitu, false},
#endif
};
#define S_PARSERS (sizeof(s_parsers) / sizeof(s_parsers[0]))

/* Bytes readable after the text (simdjson reads past the end in blocks; zeros there). */
static size_t s_padding(void) {
#ifdef BENCH_JSON_CPP_PEERS
    return bench_simdjson_padding();
#else
    return 0;
#endif
}

/*
 * The heap is shared: glibc defers the work of many small frees (fastbin
 * consolidation) to the next large malloc, whoever makes it. Interleaved
 * naively, jansson's frees made anvil's next parse of ec2.json 10x slower
 * (10 ms -> 105 ms, no page fault, all user time), and a settled heap made
 * cJSON 4x slower than it runs on its own. So in each round every parser
 * first parses once untimed, which brings the heap to that parser's own
 * steady state, then once timed: interleaved, yet each as it runs alone.
 */

#define S_MAX_RUNS 100
#define S_MAX_ROUNDS 100

/* One document: every parser's per-run medians, and the peak heap each needed. */
static int s_document(const char *path, int runs, int rounds, bool smoke) {
    size_t len = 0;
    char *read = anvil_test_read_file(path, &len);
    char *text = read ? realloc(read, len + s_padding() + 1) : NULL;
    if (!text) {
        free(read);
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    memset(text + len, 0, s_padding() + 1);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    static double medians[S_PARSERS][S_MAX_RUNS];
    int failed = 0;
    for (int run = 0; run < runs; run++) {
        double times[S_PARSERS][S_MAX_ROUNDS];
        for (int round = 0; round < rounds; round++) {
            for (size_t k = 0; k < S_PARSERS; k++) {
                size_t p = (k + (size_t)round) % S_PARSERS; /* who goes first rotates */
                if (!smoke) {
                    (void)s_parsers[p].parse(text, len, false); /* untimed: the heap as this parser leaves it */
                }
                double start = bench_now();
                if (s_parsers[p].parse(text, len, false) != 0) {
                    fprintf(stderr, "%s failed to parse %s\n", s_parsers[p].name, base);
                    failed = 1;
                }
                times[p][round] = (bench_now() - start) * 1e3;
            }
        }
        for (size_t p = 0; p < S_PARSERS; p++) {
            medians[p][run] = bench_median(times[p], (size_t)rounds);
        }
    }
    double peak[S_PARSERS];
    for (size_t p = 0; p < S_PARSERS; p++) {
        peak[p] = -1;
        if (s_parsers[p].counts_memory) {
            bench_heap_reset();
            failed |= s_parsers[p].parse(text, len, true);
            peak[p] = (double)bench_heap_peak / (double)len;
        }
    }
    free(text);
    if (smoke) {
        printf("%s: every parser accepted it\n", base);
        return failed;
    }
    /* Per run: each peer over anvil, and the fastest peer over anvil. */
    double fastest[S_MAX_RUNS];
    for (int run = 0; run < runs; run++) {
        fastest[run] = medians[1][run];
        for (size_t p = 2; p < S_PARSERS; p++) {
            fastest[run] = medians[p][run] < fastest[run] ? medians[p][run] : fastest[run];
        }
        fastest[run] /= medians[0][run];
    }
    for (size_t p = 0; p < S_PARSERS; p++) {
        double copy[S_MAX_RUNS], ratio[S_MAX_RUNS];
        for (int run = 0; run < runs; run++) {
            copy[run] = medians[p][run];
            ratio[run] = medians[p][run] / medians[0][run];
        }
        double ms = bench_median(copy, (size_t)runs);
        char peak_text[32] = "n/a", range[48] = "";
        if (peak[p] >= 0) {
            snprintf(peak_text, sizeof peak_text, "%.2fx", peak[p]);
        }
        if (p > 0) {
            bench_range_text(bench_range_of(ratio, (size_t)runs), range, sizeof range);
        }
        printf("%-14s %-34s %10.2f %9.0f %12s %18s\n", p == 0 ? base : "", s_parsers[p].name, ms,
               (double)len / 1e6 / (ms / 1e3), peak_text, range);
    }
    char range[48];
    printf("%-14s anvil vs the fastest peer: %s faster (min-median-max of %d runs); peak heap %.2fx the input\n\n", "",
           bench_range_text(bench_range_of(fastest, (size_t)runs), range, sizeof range), runs, peak[0]);
    return failed;
}

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", smoke ? 1 : 5, 1, S_MAX_RUNS);
    int rounds = bench_take_int(&argc, argv, "--rounds", smoke ? 1 : 9, 1, S_MAX_ROUNDS);
    if (argc < 2) {
        fprintf(stderr, "usage: %s [--runs N] [--rounds N] [--smoke] FILE...\n", argv[0]);
        return 2;
    }
    int jsonc = s_load_jsonc();
    if (jsonc > 0) {
        fprintf(stderr, "cannot load libjson-c.so.5: %s\n", dlerror());
        return 1;
    }
    if (jsonc < 0) {
        printf("json-c left out: this build has AddressSanitizer, which refuses RTLD_DEEPBIND\n");
        s_parsers[S_JSONC].parse = s_parsers[1].parse; /* the table keeps its shape; cJSON runs twice */
        s_parsers[S_JSONC].name = "(cJSON again)";
    }
    if (!smoke) {
        printf("JSON parse+free, interleaved: %d runs of %d rounds (anvil %s)\n\n", runs, rounds,
               anvil_version_string());
        printf("%-14s %-34s %10s %9s %12s %18s\n", "document", "parser", "median ms", "MB/s", "peak/input",
               "anvil faster");
    }
    int failed = 0;
    for (int a = 1; a < argc; a++) {
        failed |= s_document(argv[a], runs, rounds, smoke);
    }
    return failed;
}
