/*
 * XML parse+free: anvil's tree (anvil_xml_parse into an arena) against
 * libexpat (XML_Parse with start, end and character-data handlers that count
 * elements and text bytes) and libxml2 (xmlReadMemory to a DOM, with
 * XML_PARSE_NONET and without XML_PARSE_NOENT), on the same bytes in one
 * process: a DescribeInstances-like response of 10 MB made at run time from
 * a seed (gen_describe_instances.h). Each round parses with every engine,
 * the first one rotating, each timed parse after an untimed one of the same
 * engine (the heap note in bench/json/bench_json.c: a peer's frees must not
 * be paid by the next engine); a run is ROUNDS rounds and keeps each
 * engine's median; anvil's speed-up over each peer is reported as
 * min-median-max over RUNS runs, with MB/s, and the peak heap of one more
 * parse per input byte (through each library's allocator hooks). A
 * benchmark, not a test: it reads the real clock.
 *
 * --smoke: a small document, one untimed parse per engine, checking that all
 * three count the same elements and text bytes.
 *
 * Usage: bench_xml [--runs N] [--rounds N] [--mb N] [--seed N] [--smoke]
 */

#include <expat.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "bench_heap.h"
#include "bench_stats.h"
#include "gen_describe_instances.h"

/* What an engine saw: the check that every engine parsed the same document. */
struct s_count {
    size_t elements;
    size_t text_bytes;
};

/* Heap accounting for the peers' hooks (a block allocated before the hooks were set may be freed through them). */
static void s_heap_free(void *p) {
    if (p) {
        size_t n = malloc_usable_size(p);
        bench_heap_live = n > bench_heap_live ? 0 : bench_heap_live - n;
        free(p);
    }
}

static void *s_heap_realloc(void *p, size_t n) {
    size_t before = p ? malloc_usable_size(p) : 0;
    void *q = realloc(p, n);
    if (q) {
        bench_heap_live = (before > bench_heap_live ? 0 : bench_heap_live - before) + malloc_usable_size(q);
        bench_heap_grew();
    }
    return q;
}

static char *s_heap_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *copy = bench_heap_malloc(n);
    if (copy) {
        memcpy(copy, s, n);
    }
    return copy;
}

/* Set while an engine parses for the peak-heap figure. */
static bool s_counting;

/* ---- anvil ---- */

static int s_anvil(const char *text, size_t len, struct s_count *count) {
    struct anvil_allocator *allocator = s_counting ? &bench_heap_allocator : NULL;
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(allocator, NULL, &arena) != ANVIL_OK) {
        return 1;
    }
    const struct anvil_xml_node *root = NULL;
    struct anvil_diag diag;
    int rc = anvil_xml_parse(arena, allocator, text, len, NULL, ANVIL_XML_BORROW_INPUT, &root, &diag);
    if (rc != ANVIL_OK) {
        fprintf(stderr, "anvil: %zu:%zu: %s\n", diag.line, diag.column, diag.message);
    } else if (count) {
        /* Walk the tree without recursion: a stack of the nodes still to visit. */
        size_t cap = 1024, n = 0;
        const struct anvil_xml_node **stack = malloc(cap * sizeof(*stack));
        if (!stack) {
            anvil_arena_destroy(arena);
            return 1;
        }
        stack[n++] = root;
        while (n > 0) {
            const struct anvil_xml_node *node = stack[--n];
            count->elements++;
            count->text_bytes += node->text.len;
            for (const struct anvil_xml_node *c = node->first_child; c; c = c->next_sibling) {
                if (n == cap) {
                    const struct anvil_xml_node **bigger = realloc(stack, 2 * cap * sizeof(*stack));
                    if (!bigger) {
                        free(stack);
                        anvil_arena_destroy(arena);
                        return 1;
                    }
                    stack = bigger;
                    cap *= 2;
                }
                stack[n++] = c;
            }
        }
        free(stack);
    }
    anvil_arena_destroy(arena);
    return rc != ANVIL_OK;
}

/* ---- libexpat ---- */

static void XMLCALL s_expat_start(void *user, const XML_Char *name, const XML_Char **attrs) {
    (void)name;
    (void)attrs;
    ((struct s_count *)user)->elements++;
}

static void XMLCALL s_expat_end(void *user, const XML_Char *name) {
    (void)user;
    (void)name;
}

static void XMLCALL s_expat_text(void *user, const XML_Char *s, int len) {
    (void)s;
    ((struct s_count *)user)->text_bytes += (size_t)len;
}

static int s_expat(const char *text, size_t len, struct s_count *count) {
    struct s_count local = {0, 0};
    XML_Memory_Handling_Suite counted = {bench_heap_malloc, s_heap_realloc, s_heap_free};
    XML_Parser parser = s_counting ? XML_ParserCreate_MM(NULL, &counted, NULL) : XML_ParserCreate(NULL);
    if (!parser) {
        return 1;
    }
    XML_SetUserData(parser, &local);
    XML_SetElementHandler(parser, s_expat_start, s_expat_end);
    XML_SetCharacterDataHandler(parser, s_expat_text);
    int ok = XML_Parse(parser, text, (int)len, 1) == XML_STATUS_OK;
    if (!ok) {
        fprintf(stderr, "expat: line %lu: %s\n", (unsigned long)XML_GetCurrentLineNumber(parser),
                XML_ErrorString(XML_GetErrorCode(parser)));
    }
    XML_ParserFree(parser);
    if (count) {
        *count = local;
    }
    return !ok;
}

/* ---- libxml2 ---- */

static void s_libxml2_count(const xmlNode *root, struct s_count *count) {
    /* Iterative walk over the DOM's parent links. */
    const xmlNode *node = root;
    while (node) {
        if (node->type == XML_ELEMENT_NODE) {
            count->elements++;
        } else if ((node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) && node->content) {
            count->text_bytes += strlen((const char *)node->content);
        }
        if (node->type == XML_ELEMENT_NODE && node->children) {
            node = node->children;
            continue;
        }
        while (node && node != root && !node->next) {
            node = node->parent;
        }
        node = node && node != root ? node->next : NULL;
    }
}

static int s_libxml2(const char *text, size_t len, struct s_count *count) {
    xmlFreeFunc free_fn;
    xmlMallocFunc malloc_fn;
    xmlReallocFunc realloc_fn;
    xmlStrdupFunc strdup_fn;
    if (s_counting) {
        xmlMemGet(&free_fn, &malloc_fn, &realloc_fn, &strdup_fn);
        xmlMemSetup(s_heap_free, bench_heap_malloc, s_heap_realloc, s_heap_strdup);
    }
    xmlDoc *doc = xmlReadMemory(text, (int)len, NULL, NULL, XML_PARSE_NONET);
    if (doc && count) {
        s_libxml2_count(xmlDocGetRootElement(doc), count);
    }
    xmlFreeDoc(doc);
    if (s_counting) {
        xmlMemSetup(free_fn, malloc_fn, realloc_fn, strdup_fn);
    }
    if (!doc) {
        fprintf(stderr, "libxml2: %s\n", xmlGetLastError() ? xmlGetLastError()->message : "parse failed");
        return 1;
    }
    return 0;
}

/* ---- the rounds ---- */

struct s_engine {
    const char *name;
    int (*parse)(const char *, size_t, struct s_count *);
};

static struct s_engine s_engines[] = {
    {"anvil", s_anvil},
    {"libexpat", s_expat},
    {"libxml2 " LIBXML_DOTTED_VERSION, s_libxml2},
};
#define S_ENGINES (sizeof(s_engines) / sizeof(s_engines[0]))

#define S_MAX_RUNS 100
#define S_MAX_ROUNDS 100

static int s_smoke(const struct gen_doc *doc) {
    struct s_count counts[S_ENGINES];
    int failed = 0;
    for (size_t e = 0; e < S_ENGINES; e++) {
        memset(&counts[e], 0, sizeof(counts[e]));
        if (s_engines[e].parse(doc->data, doc->len, &counts[e]) != 0) {
            fprintf(stderr, "%s failed to parse the document\n", s_engines[e].name);
            failed = 1;
        }
        printf("%-16s %zu elements, %zu bytes of text\n", s_engines[e].name, counts[e].elements, counts[e].text_bytes);
    }
    for (size_t e = 1; e < S_ENGINES; e++) {
        if (counts[e].elements != counts[0].elements || counts[e].text_bytes != counts[0].text_bytes) {
            fprintf(stderr, "%s and anvil disagree\n", s_engines[e].name);
            failed = 1;
        }
    }
    if (counts[0].elements < 100) {
        fprintf(stderr, "the smoke document is too small: %zu elements\n", counts[0].elements);
        failed = 1;
    }
    printf(failed ? "smoke: FAILED\n" : "smoke: every engine gave the same counts\n");
    return failed;
}

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", 5, 3, S_MAX_RUNS);
    int rounds = bench_take_int(&argc, argv, "--rounds", 9, 1, S_MAX_ROUNDS);
    int mb = bench_take_int(&argc, argv, "--mb", 10, 1, 1000);
    int seed = bench_take_int(&argc, argv, "--seed", 42, 0, 1 << 30);
    if (argc > 1) {
        fprintf(stderr, "usage: %s [--runs N] [--rounds N] [--mb N] [--seed N] [--smoke]\n", argv[0]);
        return 2;
    }
    xmlInitParser();
    static char expat_name[32];
    XML_Expat_Version v = XML_ExpatVersionInfo();
    snprintf(expat_name, sizeof expat_name, "libexpat %d.%d.%d", v.major, v.minor, v.micro);
    s_engines[1].name = expat_name;
    struct gen_doc doc = gen_describe_instances(smoke ? 64 << 10 : (size_t)mb << 20, (uint64_t)seed);
    if (smoke) {
        int failed = s_smoke(&doc);
        free(doc.data);
        xmlCleanupParser();
        return failed;
    }
    struct s_count expected = {0, 0};
    if (s_anvil(doc.data, doc.len, &expected) != 0) {
        return 1;
    }
    printf("XML parse+free, interleaved: %d runs of %d rounds (anvil %s)\n", runs, rounds, anvil_version_string());
    printf("document: DescribeInstances-like, seed %d, %.2f MB, %zu elements, %zu bytes of text\n\n", seed,
           (double)doc.len / 1e6, expected.elements, expected.text_bytes);
    static double medians[S_ENGINES][S_MAX_RUNS];
    int failed = 0;
    for (int run = 0; run < runs; run++) {
        double times[S_ENGINES][S_MAX_ROUNDS];
        for (int round = 0; round < rounds; round++) {
            for (size_t k = 0; k < S_ENGINES; k++) {
                size_t e = (k + (size_t)round) % S_ENGINES;        /* who goes first rotates */
                (void)s_engines[e].parse(doc.data, doc.len, NULL); /* untimed: the heap as this engine leaves it */
                double start = bench_now();
                failed |= s_engines[e].parse(doc.data, doc.len, NULL);
                times[e][round] = (bench_now() - start) * 1e3;
            }
        }
        for (size_t e = 0; e < S_ENGINES; e++) {
            medians[e][run] = bench_median(times[e], (size_t)rounds);
        }
    }
    double peak[S_ENGINES];
    for (size_t e = 0; e < S_ENGINES; e++) {
        bench_heap_reset();
        s_counting = true;
        failed |= s_engines[e].parse(doc.data, doc.len, NULL);
        s_counting = false;
        peak[e] = (double)bench_heap_peak / (double)doc.len;
    }
    printf("%-16s %10s %9s %11s %18s\n", "engine", "median ms", "MB/s", "peak/input", "anvil faster");
    for (size_t e = 0; e < S_ENGINES; e++) {
        double copy[S_MAX_RUNS], ratio[S_MAX_RUNS], speed[S_MAX_RUNS];
        for (int run = 0; run < runs; run++) {
            copy[run] = medians[e][run];
            ratio[run] = medians[e][run] / medians[0][run];
            speed[run] = (double)doc.len / 1e6 / (medians[e][run] / 1e3);
        }
        double ms = bench_median(copy, (size_t)runs);
        struct bench_range mbs = bench_range_of(speed, (size_t)runs);
        char range[48] = "";
        if (e > 0) {
            bench_range_text(bench_range_of(ratio, (size_t)runs), range, sizeof range);
        }
        printf("%-16s %10.2f %9.0f %10.2fx %18s   (MB/s %.0f-%.0f-%.0f)\n", s_engines[e].name, ms, mbs.median, peak[e],
               range, mbs.min, mbs.median, mbs.max);
    }
    printf("\nratios are min-median-max over %d runs, each run the median of %d rounds\n", runs, rounds);
    free(doc.data);
    xmlCleanupParser();
    return failed;
}
