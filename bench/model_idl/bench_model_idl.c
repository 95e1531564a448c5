/*
 * Smithy IDL against JSON AST (issue 15): each model of a folder of JSON
 * ASTs is loaded once and written as IDL by anvil's writer (one file per
 * namespace, plus the metadata file), untimed. Then, in one process, each
 * run times three ways of getting every model: anvil_model_assemble() on
 * the JSON text, anvil_model_load() on the JSON text (the plain JSON AST
 * path), and anvil_model_assemble() on the IDL files; the JSON pair and
 * IDL swap places every run. Reported: each side's total as min-median-max
 * over RUNS, the ratio IDL/JSON (against both JSON paths) as min-median-max,
 * the largest model on its own, and peak heap per input byte (one untimed
 * pass with a counting allocator; the input is the model's own text: its
 * IDL files for IDL, its JSON file for JSON). Goal: IDL within 1.5x of
 * JSON, IDL peak at most 3x its input. A benchmark, not a test: it reads
 * the real clock and fails on nothing but a model that does not load
 * (--smoke: one pass, checks that every model's IDL gives back as many
 * shapes as its JSON, reports no time).
 *
 * Timed passes use the default allocator, as a program would (its arenas
 * reuse blocks through the process-wide arena cache); the counting pass
 * uses its own allocator, which the cache does not serve, so every byte
 * is seen.
 *
 * Usage: bench_model_idl [--runs N] [--smoke] DIR
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "bench_heap.h"
#include "bench_stats.h"
#include "read_file.h"

#define MAX_MODELS 256
#define MAX_RUNS 100

/* ---- the models ---- */

struct model {
    char name[256];
    char *json;
    size_t json_len;
    /* The IDL files: one per namespace, then the metadata file when there is metadata. */
    struct anvil_model_source *idl;
    size_t idl_count;
    size_t idl_len;
    size_t shapes;
};

/* The three ways of getting a model, in the order of a run that starts with JSON. */
enum side { SIDE_JSON_ASSEMBLE, SIDE_JSON_LOAD, SIDE_IDL, SIDE_COUNT };

static const char *const s_side_names[SIDE_COUNT] = {"JSON AST, assemble", "JSON AST, load", "IDL, assemble"};

static const struct anvil_model_options s_options = {.allow_unresolved = true};

/* Gets model `m` one way; the model's shape count in `*shapes` (may be NULL). Exits when it fails. */
static void s_get(const struct model *m, enum side side, struct anvil_allocator *allocator, size_t *events,
                  size_t *shapes) {
    struct anvil_model *model = NULL;
    struct anvil_events *ev = NULL;
    struct anvil_diag diag;
    int rc;
    if (side == SIDE_JSON_LOAD) {
        rc = anvil_model_load(allocator, m->json, m->json_len, &s_options, &model, &diag);
    } else if (side == SIDE_JSON_ASSEMBLE) {
        struct anvil_model_source src = {m->name, m->json, m->json_len, ANVIL_MODEL_FORMAT_JSON};
        rc = anvil_model_assemble(allocator, &src, 1, &s_options, &model, &ev, &diag);
    } else {
        rc = anvil_model_assemble(allocator, m->idl, m->idl_count, &s_options, &model, &ev, &diag);
    }
    if (rc != ANVIL_OK) {
        fprintf(stderr, "%s (%s): %s\n", m->name, s_side_names[side], diag.message);
        exit(1);
    }
    if (events) {
        *events += anvil_events_count(ev);
    }
    if (shapes) {
        *shapes = anvil_model_shape_count(model);
    }
    anvil_events_destroy(ev);
    anvil_model_destroy(model);
}

/* Appends one IDL file (namespace `ns`) of `model` to `m`. */
static int s_add_idl(struct model *m, const struct anvil_model *model, struct anvil_str_view ns, bool with_metadata) {
    struct anvil_buf buf;
    struct anvil_diag diag;
    anvil_buf_init(&buf, NULL, 0);
    struct anvil_idl_write_options wo = {.with_metadata = with_metadata};
    if (anvil_model_write_idl(model, ns, &wo, &buf, &diag) != ANVIL_OK) {
        fprintf(stderr, "%s: cannot write namespace %.*s as IDL: %s\n", m->name, (int)ns.len, ns.ptr, diag.message);
        anvil_buf_clean_up(&buf);
        return -1;
    }
    char *name = malloc(ns.len + 16);
    if (!name) {
        anvil_buf_clean_up(&buf);
        return -1;
    }
    struct anvil_model_source *src = &m->idl[m->idl_count++];
    snprintf(name, ns.len + 16, "%.*s.smithy", (int)ns.len, ns.len ? ns.ptr : "metadata");
    src->name = name;
    src->text = anvil_buf_steal(&buf, &src->len);
    src->format = ANVIL_MODEL_FORMAT_IDL;
    m->idl_len += src->len;
    return src->text ? 0 : -1;
}

/* Loads `m->json` and writes it as IDL files (untimed). */
static int s_prepare(struct model *m) {
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    if (anvil_model_load(NULL, m->json, m->json_len, &s_options, &model, &diag) != ANVIL_OK) {
        fprintf(stderr, "%s: %s\n", m->name, diag.message);
        return -1;
    }
    size_t ns_count = anvil_model_namespaces(model, NULL, 0);
    struct anvil_str_view *ns = calloc(ns_count + 1, sizeof *ns);
    m->idl = calloc(ns_count + 1, sizeof *m->idl);
    m->shapes = anvil_model_shape_count(model);
    int rc = ns && m->idl ? 0 : -1;
    anvil_model_namespaces(model, ns, ns_count);
    for (size_t i = 0; rc == 0 && i < ns_count; i++) {
        rc = s_add_idl(m, model, ns[i], false);
    }
    if (rc == 0 && !anvil_json_is_null(anvil_model_metadata(model))) {
        rc = s_add_idl(m, model, (struct anvil_str_view){"", 0}, true);
    }
    free(ns);
    anvil_model_destroy(model);
    return rc;
}

static void s_free_model(struct model *m) {
    for (size_t i = 0; i < m->idl_count; i++) {
        free((char *)m->idl[i].name);
        anvil_mem_release(NULL, (char *)m->idl[i].text);
    }
    free(m->idl);
    free(m->json);
}

static int s_name_cmp(const void *x, const void *y) {
    return strcmp(((const struct model *)x)->name, ((const struct model *)y)->name);
}

static size_t s_read_dir(const char *path, struct model *models) {
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && count < MAX_MODELS) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) {
            continue;
        }
        char file[4096];
        snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
        struct model *m = &models[count];
        memset(m, 0, sizeof *m);
        m->json = anvil_test_read_file(file, &m->json_len);
        if (!m->json) {
            fprintf(stderr, "cannot read %s\n", file);
            exit(1);
        }
        snprintf(m->name, sizeof(m->name), "%s", e->d_name);
        count++;
    }
    closedir(dir);
    qsort(models, count, sizeof *models, s_name_cmp);
    return count;
}

/* "met" when the whole range is within the goal, "not met" when none of it is, else "borderline". */
static const char *s_verdict(struct bench_range r, double goal) {
    return r.max <= goal ? "met" : r.min > goal ? "not met" : "borderline";
}

static struct model s_models[MAX_MODELS];

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", smoke ? 1 : 5, 1, MAX_RUNS);
    if (argc != 2) {
        fprintf(stderr, "usage: %s [--runs N] [--smoke] DIR\n", argv[0]);
        return 2;
    }
    struct model *models = s_models;
    size_t count = s_read_dir(argv[1], models);
    size_t json_bytes = 0, idl_bytes = 0, idl_files = 0, largest = 0;
    for (size_t i = 0; i < count; i++) {
        if (s_prepare(&models[i]) != 0) {
            return 1;
        }
        json_bytes += models[i].json_len;
        idl_bytes += models[i].idl_len;
        idl_files += models[i].idl_count;
        if (models[i].json_len > models[largest].json_len) {
            largest = i;
        }
    }
    /* The IDL must give back the model, or the comparison means nothing. */
    for (size_t i = 0; i < count; i++) {
        size_t shapes = 0;
        s_get(&models[i], SIDE_IDL, NULL, NULL, &shapes);
        if (shapes != models[i].shapes) {
            fprintf(stderr, "%s: %zu shapes from IDL, %zu from JSON\n", models[i].name, shapes, models[i].shapes);
            return 1;
        }
    }

    /* Timed runs: the JSON pair and IDL swap places every run. */
    double totals[SIDE_COUNT][MAX_RUNS], big[SIDE_COUNT][MAX_RUNS];
    double ratio[2][MAX_RUNS], big_ratio[2][MAX_RUNS];
    size_t events[SIDE_COUNT] = {0};
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < SIDE_COUNT; k++) {
            enum side side = r % 2 ? (enum side)(SIDE_COUNT - 1 - k) : (enum side)k;
            events[side] = 0;
            double start = bench_now();
            for (size_t i = 0; i < count; i++) {
                double t0 = bench_now();
                s_get(&models[i], side, NULL, &events[side], NULL);
                if (i == largest) {
                    big[side][r] = (bench_now() - t0) * 1e3;
                }
            }
            totals[side][r] = (bench_now() - start) * 1e3;
        }
        for (int j = 0; j < 2; j++) {
            ratio[j][r] = totals[SIDE_IDL][r] / totals[j][r];
            big_ratio[j][r] = big[SIDE_IDL][r] / big[j][r];
        }
    }

    /* Peak heap, one untimed pass with the counting allocator. */
    double peak_worst[SIDE_COUNT] = {0}, peak_big[SIDE_COUNT] = {0};
    double peak_sum[SIDE_COUNT] = {0}, input_sum[SIDE_COUNT] = {0};
    const char *peak_worst_name[SIDE_COUNT] = {"", "", ""};
    for (size_t i = 0; i < count; i++) {
        for (int side = 0; side < SIDE_COUNT; side++) {
            size_t input = side == SIDE_IDL ? models[i].idl_len : models[i].json_len;
            bench_heap_reset();
            s_get(&models[i], (enum side)side, &bench_heap_allocator, NULL, NULL);
            double per_byte = (double)bench_heap_peak / (double)input;
            peak_sum[side] += (double)bench_heap_peak;
            input_sum[side] += (double)input;
            if (per_byte > peak_worst[side]) {
                peak_worst[side] = per_byte;
                peak_worst_name[side] = models[i].name;
            }
            if (i == largest) {
                peak_big[side] = per_byte;
            }
        }
    }

    if (smoke) {
        printf("%zu models written as %zu IDL files and assembled back, %zu and %zu events (JSON, IDL)\n", count,
               idl_files, events[SIDE_JSON_ASSEMBLE], events[SIDE_IDL]);
        for (size_t i = 0; i < count; i++) {
            s_free_model(&models[i]);
        }
        return count ? 0 : 1;
    }

    char text[64];
    const struct model *b = &models[largest];
    printf("Smithy IDL against JSON AST, every model in one process (%d runs, JSON and IDL swapping places)\n\n", runs);
    printf("  models              %zu: JSON AST %.1f MB; IDL %.1f MB in %zu files (anvil's writer)\n", count,
           (double)json_bytes / 1e6, (double)idl_bytes / 1e6, idl_files);
    printf("  events              %zu (JSON, assemble), %zu (IDL, assemble)\n\n", events[SIDE_JSON_ASSEMBLE],
           events[SIDE_IDL]);
    printf("  run  first  JSON assemble  JSON load  IDL assemble  (ms)   IDL/assemble  IDL/load\n");
    for (int r = 0; r < runs; r++) {
        printf("  %3d  %-5s  %13.1f  %9.1f  %12.1f        %12.2fx  %8.2fx\n", r + 1, r % 2 ? "IDL" : "JSON",
               totals[SIDE_JSON_ASSEMBLE][r], totals[SIDE_JSON_LOAD][r], totals[SIDE_IDL][r], ratio[0][r], ratio[1][r]);
    }
    printf("\n  total, min-median-max\n");
    for (int side = 0; side < SIDE_COUNT; side++) {
        struct bench_range t = bench_range_of(totals[side], (size_t)runs);
        printf("    %-20s %.1f-%.1f-%.1f ms\n", s_side_names[side], t.min, t.median, t.max);
    }
    struct bench_range rr[2], br[2];
    for (int j = 0; j < 2; j++) {
        rr[j] = bench_range_of(ratio[j], (size_t)runs);
        br[j] = bench_range_of(big_ratio[j], (size_t)runs);
    }
    printf("  IDL / JSON, min-median-max (goal: at most 1.5x)\n");
    printf("    against assemble   %s\n", bench_range_text(rr[0], text, sizeof(text)));
    printf("    against load       %s\n\n", bench_range_text(rr[1], text, sizeof(text)));

    printf("  largest model       %s (JSON %.1f MB, IDL %.1f MB in %zu files)\n", b->name, (double)b->json_len / 1e6,
           (double)b->idl_len / 1e6, b->idl_count);
    for (int side = 0; side < SIDE_COUNT; side++) {
        struct bench_range t = bench_range_of(big[side], (size_t)runs);
        printf("    %-20s %.1f-%.1f-%.1f ms, peak %.2fx its input\n", s_side_names[side], t.min, t.median, t.max,
               peak_big[side]);
    }
    char text2[64];
    printf("    IDL / JSON         %s against assemble, %s against load\n\n",
           bench_range_text(br[0], text, sizeof(text)), bench_range_text(br[1], text2, sizeof(text2)));

    printf("  peak heap / input   worst model; all models (sum of peaks / sum of inputs)\n");
    for (int side = 0; side < SIDE_COUNT; side++) {
        printf("    %-20s %.2fx (%s); %.2fx\n", s_side_names[side], peak_worst[side], peak_worst_name[side],
               peak_sum[side] / input_sum[side]);
    }
    printf("    (goal for IDL: at most 3x; the input is the model's IDL text, %.0f%% of its JSON)\n\n",
           100.0 * (double)idl_bytes / (double)json_bytes);

    printf("verdict: IDL time %s against assemble and %s against load (medians %.2fx and %.2fx; goal 1.5x), "
           "IDL memory %s (peak %.2fx its input at worst; goal 3x)\n",
           s_verdict(rr[0], 1.5), s_verdict(rr[1], 1.5), rr[0].median, rr[1].median,
           peak_worst[SIDE_IDL] <= 3 ? "met" : "not met", peak_worst[SIDE_IDL]);
    for (size_t i = 0; i < count; i++) {
        s_free_model(&models[i]);
    }
    return 0;
}
