/*
 * Endpoint resolution: anvil's rules engine against botocore's
 * (botocore/endpoint_provider.py, peer_botocore.py), with the same rule sets
 * on both sides: botocore's own endpoint-rule-set-1.json files for S3 and
 * DynamoDB (Debian's python3-botocore; anvil compiles botocore documents
 * too) and botocore's partitions.json (anvil loads it with
 * anvil_partitions_load() instead of its built-in partitions). The cases:
 *
 *   s3-virtual-host  S3 GetObject's parameters, a virtual-hostable bucket in us-west-2
 *   s3-fips          the same with UseFIPS
 *   dynamodb         DynamoDB in us-east-1
 *   dynamodb-fips    the same with UseFIPS
 *
 * anvil resolves with anvil_endpoint_resolve() from values indexed as the
 * rule set numbers its parameters (what a client holds after binding), the
 * arena reset before each resolve; anvil_endpoint_resolve_object() (values
 * by name, as botocore takes them) is timed too. botocore resolves through
 * EndpointProvider.resolve_endpoint without its lru_cache (peer_botocore.py
 * says how). Each side times the median over K rounds of N resolves; the two
 * alternate run by run (a Python peer cannot share the process), and each
 * ratio is printed as min-median-max over the runs.
 *
 * Also timed, anvil only: compiling the rule sets of all the AWS models in
 * MODELS_DIR (Smithy JSON AST, loaded before timing), and parsing plus
 * compiling botocore's S3 rule set.
 *
 * --smoke: a few resolves of each case; anvil's URL must be the one
 * expected, and botocore's URL, properties and headers the same as anvil's
 * (when Python and botocore are there). Nothing is timed.
 *
 * Usage: bench_endpoint [--smoke] [--runs N] [--rounds K] [--python PYTHON] BOTOCORE_DATA_DIR MODELS_DIR PEER_SCRIPT
 *   --python  the Python that runs the peer (default: python3 on the PATH); its botocore's
 *             endpoint_provider.py is the peer, whatever version it is (printed)
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anvil/anvil.h"
#include "anvil/endpoint.h"
#include "bench_stats.h"
#include "read_file.h"

#define S_MAX_RUNS 50
#define S_MAX_ROUNDS 64
#define S_MAX_MODELS 256

struct s_case {
    const char *name;
    /* The rule set, under botocore's data folder. */
    const char *rules;
    const char *params;
    const char *expected_url;
};

#define S_S3 "s3/2006-03-01/endpoint-rule-set-1.json"
#define S_DDB "dynamodb/2012-08-10/endpoint-rule-set-1.json"
#define S_S3_PARAMS(fips)                                                                                              \
    "{\"Region\":\"us-west-2\",\"Bucket\":\"my-bucket\",\"UseFIPS\":" fips ",\"UseDualStack\":false,"                  \
    "\"Accelerate\":false,\"ForcePathStyle\":false,\"UseGlobalEndpoint\":false,"                                       \
    "\"DisableMultiRegionAccessPoints\":false}"

static const struct s_case s_cases[] = {
    {"s3-virtual-host", S_S3, S_S3_PARAMS("false"), "https://my-bucket.s3.us-west-2.amazonaws.com"},
    {"s3-fips", S_S3, S_S3_PARAMS("true"), "https://my-bucket.s3-fips.us-west-2.amazonaws.com"},
    {"dynamodb", S_DDB, "{\"Region\":\"us-east-1\",\"UseFIPS\":false,\"UseDualStack\":false}",
     "https://dynamodb.us-east-1.amazonaws.com"},
    {"dynamodb-fips", S_DDB, "{\"Region\":\"us-east-1\",\"UseFIPS\":true,\"UseDualStack\":false}",
     "https://dynamodb-fips.us-east-1.amazonaws.com"},
};
#define S_CASES (sizeof s_cases / sizeof s_cases[0])

static void s_die(const char *what, const char *detail) {
    fprintf(stderr, "bench_endpoint: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* ---- anvil's side ---- */

struct s_anvil_case {
    struct anvil_endpoint_rules *rules;
    struct anvil_json_doc *params_doc;
    /* The values indexed as the rule set numbers its parameters. */
    struct anvil_json *params;
    size_t count;
    /* What the last resolve gave. */
    char url[512];
    struct anvil_json_doc *properties, *headers;
};

struct s_anvil {
    const struct anvil_partitions *partitions;
    struct anvil_partitions *loaded;
    struct anvil_json_doc *rule_docs[S_CASES];
    struct anvil_endpoint_rules *rules[S_CASES];
    struct s_anvil_case cases[S_CASES];
    struct anvil_arena *arena;
    double s3_parse_s, s3_compile_s;
};

static struct anvil_json_doc *s_parse(const char *text, size_t len, const char *what) {
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (anvil_json_parse(NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        s_die(what, diag.message);
    }
    return doc;
}

/* A copy of `v` as its own document (to compare after the arena is reset). */
static struct anvil_json_doc *s_keep(const struct anvil_json *v) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, 0);
    anvil_json_write(v, ANVIL_JSON_WRITE_COMPACT, &buf);
    struct anvil_json_doc *doc = s_parse(buf.data, buf.len, "an endpoint's JSON");
    anvil_buf_clean_up(&buf);
    return doc;
}

static void s_anvil_init(struct s_anvil *a, const char *data_dir) {
    char path[4096];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/partitions.json", data_dir);
    char *text = anvil_test_read_file(path, &len);
    struct anvil_diag diag;
    a->partitions = anvil_partitions_builtin();
    if (!text) {
        s_die("cannot read", path);
    }
    if (anvil_partitions_load(NULL, text, len, &a->loaded, &diag) == ANVIL_OK) {
        a->partitions = a->loaded;
    } else {
        /* The cases' regions are in every partitions file; say so and go on with the built-in ones. */
        fprintf(stderr, "bench_endpoint: %s does not load (%s); anvil uses its built-in partitions\n", path,
                diag.message);
    }
    free(text);
    struct anvil_endpoint_rules_options options = {.partitions = a->partitions};
    for (size_t i = 0; i < S_CASES; i++) {
        for (size_t j = 0; j < i && !a->cases[i].rules; j++) {
            if (strcmp(s_cases[j].rules, s_cases[i].rules) == 0) {
                a->cases[i].rules = a->cases[j].rules;
            }
        }
        if (!a->cases[i].rules) {
            snprintf(path, sizeof path, "%s/%s", data_dir, s_cases[i].rules);
            text = anvil_test_read_file(path, &len);
            if (!text) {
                s_die("cannot read", path);
            }
            /* Parsed and compiled 5 times for the times (the median), the last kept. */
            double parse_t[5], compile_t[5];
            for (int k = 0; k < 5; k++) {
                anvil_endpoint_rules_destroy(a->rules[i]);
                anvil_json_doc_destroy(a->rule_docs[i]);
                a->rules[i] = NULL;
                double start = bench_now();
                a->rule_docs[i] = s_parse(text, len, path);
                double parsed = bench_now();
                if (anvil_endpoint_rules_compile(NULL, anvil_json_doc_root(a->rule_docs[i]), &options, &a->rules[i],
                                                 &diag) != ANVIL_OK) {
                    fprintf(stderr, "bench_endpoint: %s does not compile: %s\n", path, diag.message);
                    exit(1);
                }
                parse_t[k] = parsed - start;
                compile_t[k] = bench_now() - parsed;
            }
            if (strcmp(s_cases[i].rules, S_S3) == 0) {
                a->s3_parse_s = bench_median(parse_t, 5);
                a->s3_compile_s = bench_median(compile_t, 5);
            }
            free(text);
            a->cases[i].rules = a->rules[i];
        }
        struct s_anvil_case *c = &a->cases[i];
        c->params_doc = s_parse(s_cases[i].params, strlen(s_cases[i].params), "a case's params");
        c->count = anvil_endpoint_rules_param_count(c->rules);
        c->params = calloc(c->count ? c->count : 1, sizeof *c->params);
        if (!c->params) {
            s_die("out of memory", NULL);
        }
        const struct anvil_json *given = anvil_json_doc_root(c->params_doc);
        for (size_t k = 0; k < anvil_json_len(given); k++) {
            const struct anvil_json_member *m = anvil_json_object_at(given, k);
            long at = anvil_endpoint_rules_param_index(c->rules, anvil_json_member_key(m));
            if (at < 0) {
                s_die("a case's parameter is not the rule set's", m->key->bytes);
            }
            c->params[at] = m->value;
        }
    }
    /* One block big enough for any of these resolves, so a reset never gives memory back. */
    struct anvil_arena_options arena_options = {.first_block_size = 256 << 10};
    if (anvil_arena_new(NULL, &arena_options, &a->arena) != ANVIL_OK) {
        s_die("out of memory", NULL);
    }
}

static void s_anvil_clean_up(struct s_anvil *a) {
    for (size_t i = 0; i < S_CASES; i++) {
        anvil_endpoint_rules_destroy(a->rules[i]);
        anvil_json_doc_destroy(a->rule_docs[i]);
        anvil_json_doc_destroy(a->cases[i].params_doc);
        anvil_json_doc_destroy(a->cases[i].properties);
        anvil_json_doc_destroy(a->cases[i].headers);
        free(a->cases[i].params);
    }
    anvil_arena_destroy(a->arena);
    anvil_partitions_destroy(a->loaded);
}

static void s_resolve_failed(size_t i, int rc, const struct anvil_diag *diag) {
    fprintf(stderr, "bench_endpoint: %s: %s: %s\n", s_cases[i].name, anvil_status_name(rc), diag->message);
    exit(1);
}

/* Median seconds per resolve over `rounds` rounds of `iterations`; by name when `by_name`. */
static double s_anvil_time(struct s_anvil *a, size_t i, int rounds, int iterations, bool by_name) {
    struct s_anvil_case *c = &a->cases[i];
    const struct anvil_json *given = anvil_json_doc_root(c->params_doc);
    double t[S_MAX_ROUNDS];
    struct anvil_endpoint ep;
    struct anvil_diag diag;
    for (int r = 0; r < rounds; r++) {
        double start = bench_now();
        for (int k = 0; k < iterations; k++) {
            anvil_arena_reset(a->arena);
            int rc = by_name ? anvil_endpoint_resolve_object(c->rules, given, a->arena, &ep, &diag)
                             : anvil_endpoint_resolve(c->rules, c->params, c->count, a->arena, &ep, &diag);
            if (rc != ANVIL_OK) {
                s_resolve_failed(i, rc, &diag);
            }
        }
        t[r] = (bench_now() - start) / iterations;
    }
    /* Keep what it gave, to check. */
    snprintf(c->url, sizeof c->url, "%.*s", (int)ep.url.len, ep.url.ptr);
    if (!c->properties) {
        c->properties = s_keep(&ep.properties);
        c->headers = s_keep(&ep.headers);
    }
    return bench_median(t, (size_t)rounds);
}

/* Median seconds to compile all `n` rule sets, over `rounds`. */
static double s_compile_time(const struct anvil_json *const *rule_sets, size_t n, int rounds) {
    double t[S_MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        double start = bench_now();
        for (size_t i = 0; i < n; i++) {
            struct anvil_endpoint_rules *rules = NULL;
            struct anvil_diag diag;
            if (anvil_endpoint_rules_compile(NULL, rule_sets[i], NULL, &rules, &diag) != ANVIL_OK) {
                s_die("a model's rule set does not compile", diag.message);
            }
            anvil_endpoint_rules_destroy(rules);
        }
        t[r] = bench_now() - start;
    }
    return bench_median(t, (size_t)rounds);
}

/* ---- the models, for compile times ---- */

struct s_models {
    struct anvil_model *models[S_MAX_MODELS];
    const struct anvil_json *rule_sets[S_MAX_MODELS];
    size_t count;
    size_t bytes;
};

static int s_name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void s_models_load(struct s_models *m, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        s_die("cannot open", dir);
    }
    char *names[S_MAX_MODELS];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < S_MAX_MODELS) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, s_name_cmp);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = anvil_test_read_file(path, &len);
        struct anvil_model *model = NULL;
        struct anvil_diag diag;
        if (!text || anvil_model_load(NULL, text, len, NULL, &model, &diag) != ANVIL_OK) {
            s_die("cannot load", path);
        }
        free(text);
        free(names[i]);
        m->models[m->count] = model;
        for (size_t k = 0; k < anvil_model_shape_count(model); k++) {
            const struct anvil_shape *s = anvil_model_shape_at(model, k);
            const struct anvil_json *rule_set = anvil_shape_trait(s, "smithy.rules#endpointRuleSet");
            if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE && rule_set) {
                m->rule_sets[m->count] = rule_set;
                struct anvil_buf buf;
                anvil_buf_init(&buf, NULL, 0);
                anvil_json_write(rule_set, ANVIL_JSON_WRITE_COMPACT, &buf);
                m->bytes += buf.len;
                anvil_buf_clean_up(&buf);
            }
        }
        if (m->rule_sets[m->count]) {
            m->count++;
        } else {
            anvil_model_destroy(model);
        }
    }
}

/* ---- botocore's side ---- */

struct s_peer_case {
    double seconds;
    char url[512];
    struct anvil_json_doc *properties, *headers;
};

struct s_peer {
    struct s_peer_case cases[S_CASES];
    double s3_load_s;
    /* botocore's and Python's versions. */
    char version[128];
};

static void s_peer_clear(struct s_peer *p) {
    for (size_t i = 0; i < S_CASES; i++) {
        anvil_json_doc_destroy(p->cases[i].properties);
        anvil_json_doc_destroy(p->cases[i].headers);
    }
    memset(p, 0, sizeof *p);
}

/* Runs the peer; false when Python or botocore is missing or it said something else. */
static bool s_peer_run(const char *python, const char *script, const char *data_dir, const char *cases_path, int rounds,
                       int iterations, struct s_peer *out) {
    s_peer_clear(out);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s' %d %d 2>/dev/null", python, script, data_dir, cases_path, rounds,
             iterations);
    FILE *p = popen(cmd, "r");
    if (!p) {
        return false;
    }
    size_t seen = 0;
    char line[1 << 16];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        char *fields[5] = {line, NULL, NULL, NULL, NULL};
        size_t nf = 1;
        for (char *c = line; *c && nf < 5; c++) {
            if (*c == '\t') {
                *c = '\0';
                fields[nf++] = c + 1;
            }
        }
        if (strcmp(fields[0], "version") == 0 && nf >= 3) {
            snprintf(out->version, sizeof out->version, "botocore %s, Python %s", fields[1], fields[2]);
            continue;
        }
        if (strcmp(fields[0], "load") == 0 && nf >= 3) {
            if (strcmp(fields[1], S_S3) == 0) {
                out->s3_load_s = atof(fields[2]);
            }
            continue;
        }
        for (size_t i = 0; i < S_CASES && nf == 5; i++) {
            if (strcmp(fields[0], s_cases[i].name) == 0) {
                struct s_peer_case *c = &out->cases[i];
                c->seconds = atof(fields[1]);
                snprintf(c->url, sizeof c->url, "%s", fields[2]);
                c->properties = s_parse(fields[3], strlen(fields[3]), "botocore's properties");
                c->headers = s_parse(fields[4], strlen(fields[4]), "botocore's headers");
                seen++;
            }
        }
    }
    return pclose(p) == 0 && seen == S_CASES;
}

/* The cases as peer_botocore.py reads them. */
static void s_write_cases(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        s_die("cannot write", path);
    }
    fputc('[', f);
    for (size_t i = 0; i < S_CASES; i++) {
        fprintf(f, "%s{\"name\":\"%s\",\"rules\":\"%s\",\"params\":%s}", i ? "," : "", s_cases[i].name,
                s_cases[i].rules, s_cases[i].params);
    }
    fputs("]\n", f);
    fclose(f);
}

/* ---- checks and report ---- */

/* anvil gave the expected URL, and botocore (when `peer`) the same URL, properties and headers. */
static int s_check(const struct s_anvil *a, const struct s_peer *peer) {
    int status = 0;
    for (size_t i = 0; i < S_CASES; i++) {
        const struct s_anvil_case *c = &a->cases[i];
        if (strcmp(c->url, s_cases[i].expected_url) != 0) {
            fprintf(stderr, "bench_endpoint: %s: anvil gave %s, expected %s\n", s_cases[i].name, c->url,
                    s_cases[i].expected_url);
            status = 1;
        }
        if (!peer) {
            continue;
        }
        const struct s_peer_case *p = &peer->cases[i];
        if (strcmp(c->url, p->url) != 0 ||
            !anvil_json_equal(anvil_json_doc_root(c->properties), anvil_json_doc_root(p->properties)) ||
            !anvil_json_equal(anvil_json_doc_root(c->headers), anvil_json_doc_root(p->headers))) {
            fprintf(stderr,
                    "bench_endpoint: %s: anvil and botocore differ: %s against %s (or the properties or "
                    "headers)\n",
                    s_cases[i].name, c->url, p->url);
            status = 1;
        }
    }
    return status;
}

static void s_us(const char *what, double *v, size_t n) {
    struct bench_range r = bench_range_of(v, n);
    printf("    %-28s %.3f-%.3f-%.3f us\n", what, r.min * 1e6, r.median * 1e6, r.max * 1e6);
}

int main(int argc, char **argv) {
    bool smoke = false;
    int runs = 5, rounds = 15, iterations = 20000, peer_iterations = 300;
    const char *python = "python3";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--smoke") == 0) {
            smoke = true;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--python") == 0 && i + 1 < argc) {
            python = argv[++i];
        } else {
            break;
        }
    }
    if (argc - i != 3) {
        fprintf(stderr, "usage: bench_endpoint [--smoke] [--runs N] [--rounds K] [--python PYTHON] BOTOCORE_DATA_DIR "
                        "MODELS_DIR PEER_SCRIPT\n");
        return 64;
    }
    const char *data_dir = argv[i], *models_dir = argv[i + 1], *script = argv[i + 2];
    runs = smoke ? 1 : runs < 3 ? 3 : runs > S_MAX_RUNS ? S_MAX_RUNS : runs;
    rounds = smoke ? 1 : rounds < 1 ? 1 : rounds > S_MAX_ROUNDS ? S_MAX_ROUNDS : rounds;
    if (smoke) {
        iterations = peer_iterations = 3;
    }
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/%s", data_dir, S_S3);
    FILE *f = fopen(probe, "rb");
    if (!f) {
        printf("endpoint: no botocore rule sets under %s (python3-botocore); skipped\n", data_dir);
        return 0;
    }
    fclose(f);

    static struct s_anvil a;
    s_anvil_init(&a, data_dir);
    static struct s_models models;
    s_models_load(&models, models_dir);
    char cases_path[] = "/tmp/anvil-bench-endpoint-XXXXXX";
    int fd = mkstemp(cases_path);
    if (fd < 0) {
        s_die("cannot make a temporary file", NULL);
    }
    close(fd);
    s_write_cases(cases_path);

    /* Warm up (caches, branch predictors, the arena's block) before the first timed run. */
    for (size_t c = 0; c < S_CASES && !smoke; c++) {
        s_anvil_time(&a, c, 1, iterations, false);
    }
    double anvil_s[S_CASES][S_MAX_RUNS], object_s[S_CASES][S_MAX_RUNS], peer_s[S_CASES][S_MAX_RUNS];
    double ratio[S_CASES][S_MAX_RUNS], compile_s[S_MAX_RUNS];
    size_t ratios = 0;
    static struct s_peer peer;
    bool have_peer = false;
    for (int r = 0; r < runs; r++) {
        /* Alternate which goes first, run by run. */
        for (int side = 0; side < 2; side++) {
            if ((side == 0) == (r % 2 == 0)) {
                for (size_t c = 0; c < S_CASES; c++) {
                    anvil_s[c][r] = s_anvil_time(&a, c, rounds, iterations, false);
                    object_s[c][r] = s_anvil_time(&a, c, rounds, iterations, true);
                }
                compile_s[r] = s_compile_time(models.rule_sets, models.count, smoke ? 1 : rounds < 5 ? rounds : 5);
            } else {
                have_peer = s_peer_run(python, script, data_dir, cases_path, rounds, peer_iterations, &peer);
            }
        }
        for (size_t c = 0; c < S_CASES && have_peer; c++) {
            peer_s[c][ratios] = peer.cases[c].seconds;
            ratio[c][ratios] = peer.cases[c].seconds / anvil_s[c][r];
        }
        ratios += have_peer;
    }
    remove(cases_path);
    int status = s_check(&a, have_peer ? &peer : NULL);
    if (smoke) {
        printf("endpoint (smoke): %zu cases resolved by anvil%s%s%s; %zu models' rule sets compiled\n", S_CASES,
               have_peer ? " and by botocore, the same URL, properties and headers (" : "",
               have_peer ? peer.version : "; botocore peer not available (python3-botocore)", have_peer ? ")" : "",
               models.count);
    } else {
        printf("endpoint: botocore's S3 and DynamoDB rule sets and partitions.json, %d runs x %d rounds of %d "
               "resolves (botocore %d)%s%s\n",
               runs, rounds, iterations, peer_iterations, ratios ? "; peer " : "", ratios ? peer.version : "");
        for (size_t c = 0; c < S_CASES; c++) {
            char text[64];
            printf("  %s -> %s\n", s_cases[c].name, a.cases[c].url);
            s_us("anvil resolve:", anvil_s[c], (size_t)runs);
            s_us("anvil resolve_object:", object_s[c], (size_t)runs);
            if (ratios) {
                s_us("botocore (no lru_cache):", peer_s[c], ratios);
                printf("    anvil over botocore:         %s\n",
                       bench_range_text(bench_range_of(ratio[c], ratios), text, sizeof text));
            }
        }
        if (!ratios) {
            printf("  botocore peer not available (python3-botocore)\n");
        }
        struct bench_range cr = bench_range_of(compile_s, (size_t)runs);
        printf("  compile the rule sets of %zu AWS models (%.0f KB of JSON): %.2f-%.2f-%.2f ms\n", models.count,
               (double)models.bytes / 1e3, cr.min * 1e3, cr.median * 1e3, cr.max * 1e3);
        printf("  botocore's S3 rule set (median of 5): anvil parse %.2f ms + compile %.2f ms", a.s3_parse_s * 1e3,
               a.s3_compile_s * 1e3);
        if (ratios) {
            printf("; botocore EndpointProvider from parsed JSON %.2f ms", peer.s3_load_s * 1e3);
        }
        printf("\n");
    }
    s_peer_clear(&peer);
    s_anvil_clean_up(&a);
    for (size_t m = 0; m < models.count; m++) {
        anvil_model_destroy(models.models[m]);
    }
    return status;
}
