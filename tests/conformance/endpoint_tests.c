/*
 * The Smithy endpoint rules engine's conformance: every case of every
 * `smithy.rules#endpointTests` trait, run against the service's
 * `smithy.rules#endpointRuleSet` compiled by anvil (include/anvil/endpoint.h).
 *
 * Two suites, counted on their own lines:
 *
 *   AWS models       every .json of testdata/smithy-models/aws (Smithy JSON AST,
 *                    anvil_model_load), one service with a rule set each.
 *   rules engine     smithy-lang's smithy-rules-engine-tests models (IDL),
 *                    each assembled with the trait definitions
 *                    (smithy-rules-engine's smithy.rules.smithy): the
 *                    generic functions (coalesce, ite, split, substring,
 *                    parseURL, uriEncode, getAttr, ...) and bindings.
 *
 * Each case runs two ways:
 *
 *   rules-only   the case's `params` (an absent `params` is {}) through
 *                anvil_endpoint_resolve_object().
 *   end to end   each `operationInputs` entry ({operationName,
 *                operationParams?, builtInParams?, clientParams?}): the
 *                operation's parameters bound by anvil_endpoint_bind()
 *                (static and context params, operationContextParams,
 *                client params, built-ins), then anvil_endpoint_resolve().
 *                Counted apart; skipped, with the reason, when binding
 *                answers ANVIL_EUNSUPPORTED (a binding not written yet).
 *
 * and is compared with its `expect` as endpoint_compare.h says (URL byte for
 * byte, headers as sets, properties as JSON, an error as ANVIL_ECONFIG with
 * exactly the expected message). A rule set that does not compile fails
 * every case of its service, with the compiler's message.
 *
 * The AWS models' tests were written against older partitions than anvil's
 * built-in ones: they run with testdata's partitions.json changed back as
 * s_partitions_of_the_tests() says (--builtin-partitions shows the 174 ISO
 * region cases that differ). End-to-end cases whose test data cannot pass
 * are listed, with the reason, in s_data_defects.
 *
 * Prints one count line per suite,
 *
 *   endpoint tests: N models, C cases: R passed, F failed rules-only; O operationInputs: P passed, F failed, S skipped
 *
 * then one line per failure (model, case, what was expected and what came,
 * the rule that answered, the parameters) and per skip with its reason.
 * Exits 1 when a case fails, 2 when the tests cannot be read.
 *
 * Usage: endpoint_tests [--model NAME] [--case TEXT] [--verbose] [--builtin-partitions] TESTDATA_DIR
 *   TESTDATA_DIR  the shared testdata folder (smithy-models/aws and smithy-lang inside)
 *   --model NAME  only that model: its file name without the date and suffix
 *                 ("s3", "dynamodb", "coalesce") or in full ("s3-2006-03-01")
 *   --case TEXT   only cases whose documentation contains TEXT
 *   --verbose     also each passing case, and the parameters an end-to-end case bound
 *   --builtin-partitions  the AWS models with anvil's built-in partitions, not
 *                 those their tests were written against (s_partitions_of_the_tests)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "anvil/endpoint.h"
#include "endpoint_compare.h"
#include "read_file.h"
#include "walk.h"

#define S_RULES_TRAIT "smithy.rules#endpointRuleSet"
#define S_TESTS_TRAIT "smithy.rules#endpointTests"

static const char s_aws_models[] = "smithy-models/aws";
static const char s_engine_models[] = "smithy-lang/smithy-rules-engine-tests/src/main/resources/META-INF/smithy";
static const char s_rules_traits[] =
    "smithy-lang/smithy-rules-engine/src/main/resources/META-INF/smithy/smithy.rules.smithy";

static const char s_partitions_file[] = "smithy-lang/smithy-aws-endpoints/src/main/resources/software/amazon/smithy/"
                                        "rulesengine/aws/language/functions/partition/partitions.json";

/* Parameters shown in a failure line are cut after this many bytes (--verbose shows them whole). */
#define S_PARAMS_SHOWN 400

/*
 * End-to-end cases whose operationInputs entry cannot give what the case
 * expects: a defect of the test data, not of binding. They run; one that
 * fails is counted as skipped, with this reason and the difference.
 */
static const struct {
    const char *model, *documentation, *reason;
} s_data_defects[] = {
    {"ite", "When useFips is true, returns trueValue",
     "a defect of the test: its params set useFips (a clientContextParams parameter with no built-in), but its "
     "operationInputs entry gives no clientParams, so bound end to end useFips keeps its default, false "
     "(smithy-rules-engine-tests ite.smithy)"},
};

struct s_suite {
    const char *title;
    size_t models, cases, passed, failed;
    size_t inputs, in_passed, in_failed, in_skipped;
    /* Failure and skip lines, in the order met. */
    struct anvil_buf lines;
};

struct s_run {
    const char *only_model;
    const char *only_case;
    bool verbose;
    /* The AWS models with anvil's built-in partitions, not those of their tests (s_partitions_of_the_tests). */
    bool builtin_partitions;
    /* Reset for every resolution. */
    struct anvil_arena *arena;
    /* An empty object, for absent params and inputs. */
    struct anvil_json empty;
    /* The partitions the rule sets compile with (NULL = anvil's built-in ones). */
    const struct anvil_partitions *partitions;
};

static void s_die(const char *what, const char *detail) {
    fprintf(stderr, "endpoint_tests: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

/* ---- which models ---- */

/* The file name of `path` without folders and `suffix`, into `out`. */
static void s_stem(const char *path, const char *suffix, char *out, size_t size) {
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t len = strlen(name), cut = strlen(suffix);
    if (len >= cut && strcmp(name + len - cut, suffix) == 0) {
        len -= cut;
    }
    snprintf(out, size, "%.*s", (int)len, name);
}

/* `stem` is NAME, or NAME followed by an API version date ("-2006-03-01"). */
static bool s_selected(const struct s_run *run, const char *stem) {
    if (!run->only_model || strcmp(stem, run->only_model) == 0) {
        return true;
    }
    size_t n = strlen(run->only_model);
    return strncmp(stem, run->only_model, n) == 0 && strlen(stem + n) == 11 && stem[n] == '-' && stem[n + 5] == '-';
}

/* ---- one case ---- */

struct s_service {
    const char *model_name;
    const struct anvil_model *model;
    const struct anvil_shape *service;
    /* NULL when the rule set did not compile; `compile_error` says why. */
    struct anvil_endpoint_rules *rules;
    char compile_error[ANVIL_DIAG_MESSAGE_MAX + 128];
};

static void s_line_head(struct anvil_buf *into, const char *what, const struct s_service *svc, size_t index,
                        struct anvil_str_view doc, struct anvil_str_view how) {
    anvil_buf_appendf(into, "    %s %s #%zu ", what, svc->model_name, index);
    anvil_json_write_string(doc, ANVIL_JSON_WRITE_COMPACT, into);
    anvil_buf_appendf(into, " [%.*s]: ", (int)how.len, how.ptr);
}

/* Resolves with `params` (bound values when `count` is set, else an object by name) and checks `expect`. */
static bool s_resolve_check(const struct s_run *run, const struct s_service *svc, const struct anvil_json *params,
                            size_t count, bool bound, const struct anvil_json *expect, struct anvil_buf *why) {
    struct anvil_endpoint ep;
    memset(&ep, 0, sizeof ep);
    ep.rule = SIZE_MAX;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = bound ? anvil_endpoint_resolve(svc->rules, params, count, run->arena, &ep, &diag)
                   : anvil_endpoint_resolve_object(svc->rules, params, run->arena, &ep, &diag);
    char rule[512] = "";
    if ((rc == ANVIL_OK || rc == ANVIL_ECONFIG) && ep.rule != SIZE_MAX) {
        anvil_endpoint_rule_path(svc->rules, ep.rule, rule, sizeof rule);
    }
    struct ept_result got = {rc, &ep, diag.message, rule};
    return ept_check(expect, &got, why);
}

/* The bound parameters as {name: value} (those left null are left out). */
static void s_append_bound(struct anvil_buf *into, const struct anvil_endpoint_rules *rules,
                           const struct anvil_json *params, size_t count, size_t max) {
    size_t start = into->len;
    anvil_buf_append_byte(into, '{');
    bool first = true;
    for (size_t i = 0; i < count; i++) {
        if (anvil_json_is_null(&params[i])) {
            continue;
        }
        const struct anvil_endpoint_param *p = anvil_endpoint_rules_param_at(rules, i);
        anvil_buf_append_cstr(into, first ? "" : ",");
        anvil_json_write_string(p ? p->name : anvil_sv_from_cstr("?"), ANVIL_JSON_WRITE_COMPACT, into);
        anvil_buf_append_byte(into, ':');
        ept_append_json(into, &params[i], 0);
        first = false;
    }
    anvil_buf_append_byte(into, '}');
    if (max > 0 && into->len - start > max) {
        anvil_buf_truncate(into, start + max);
        anvil_buf_append_cstr(into, "...");
    }
}

struct s_find {
    struct anvil_str_view name;
    const struct anvil_shape *found;
};

static bool s_find_visit(const struct anvil_shape *operation, void *user) {
    struct s_find *f = user;
    if (anvil_sv_eq(anvil_shape_name(operation), f->name)) {
        f->found = operation;
        return false;
    }
    return true;
}

/* One operationInputs entry, end to end. */
static void s_input(const struct s_run *run, struct s_suite *suite, const struct s_service *svc, size_t index,
                    struct anvil_str_view doc, const struct anvil_json *input, const struct anvil_json *expect) {
    struct anvil_str_view op_name = anvil_json_string(anvil_json_object_get_cstr(input, "operationName"));
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 0);
    suite->inputs++;
    bool skipped = false, ok = false;
    struct s_find find = {op_name, NULL};
    if (svc->rules) {
        anvil_service_operations(svc->model, svc->service, s_find_visit, &find, NULL);
    }
    const struct anvil_json *op_params = anvil_json_object_get_cstr(input, "operationParams");
    const struct anvil_json *client = anvil_json_object_get_cstr(input, "clientParams");
    const struct anvil_json *builtins = anvil_json_object_get_cstr(input, "builtInParams");
    if (!svc->rules) {
        anvil_buf_append_cstr(&why, svc->compile_error);
    } else if (!find.found) {
        anvil_buf_appendf(&why, "the service has no operation %.*s", (int)op_name.len, op_name.ptr);
    } else {
        anvil_arena_reset(run->arena);
        size_t count = anvil_endpoint_rules_param_count(svc->rules);
        struct anvil_json *params = anvil_arena_alloc(run->arena, (count ? count : 1) * sizeof *params, 0);
        if (!params) {
            s_die("out of memory", NULL);
        }
        for (size_t i = 0; i < count; i++) {
            params[i] = anvil_json_make_null();
        }
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc =
            anvil_endpoint_bind(svc->rules, svc->model, svc->service, find.found, op_params ? op_params : &run->empty,
                                client, builtins, run->arena, params, count, &diag);
        if (rc == ANVIL_EUNSUPPORTED) {
            skipped = true;
            anvil_buf_appendf(&why, "binding not yet available: %s", diag.message);
        } else if (rc != ANVIL_OK) {
            anvil_buf_appendf(&why, "anvil_endpoint_bind: %s: %s", anvil_status_name(rc), diag.message);
        } else {
            ok = s_resolve_check(run, svc, params, count, true, expect, &why);
        }
        if (rc == ANVIL_OK && (!ok || run->verbose)) {
            anvil_buf_append_cstr(&why, why.len ? "; bound " : "bound ");
            s_append_bound(&why, svc->rules, params, count, run->verbose ? 0 : S_PARAMS_SHOWN);
        }
    }
    for (size_t i = 0; !ok && !skipped && i < sizeof s_data_defects / sizeof s_data_defects[0]; i++) {
        if (strcmp(svc->model_name, s_data_defects[i].model) == 0 &&
            anvil_sv_eq_cstr(doc, s_data_defects[i].documentation)) {
            skipped = true;
            struct anvil_str_view diff = anvil_buf_view(&why);
            struct anvil_buf line;
            anvil_buf_init(&line, NULL, 0);
            anvil_buf_appendf(&line, "%s; ", s_data_defects[i].reason);
            anvil_buf_append_sv(&line, diff);
            anvil_buf_clean_up(&why);
            why = line;
        }
    }
    if (!ok && !skipped) {
        anvil_buf_append_cstr(&why, "; input ");
        ept_append_json(&why, input, run->verbose ? 0 : S_PARAMS_SHOWN);
    }
    if (skipped) {
        suite->in_skipped++;
    } else if (ok) {
        suite->in_passed++;
    } else {
        suite->in_failed++;
    }
    if (!ok || run->verbose) {
        struct anvil_buf *into = &suite->lines;
        s_line_head(into, skipped ? "skipped" : ok ? "ok" : "FAIL", svc, index, doc, op_name);
        anvil_buf_append_sv(into, anvil_buf_view(&why));
        anvil_buf_append_byte(into, '\n');
    }
    anvil_buf_clean_up(&why);
}

static bool s_contains(struct anvil_str_view s, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= s.len; i++) {
        if (memcmp(s.ptr + i, needle, n) == 0) {
            return true;
        }
    }
    return false;
}

static void s_case(const struct s_run *run, struct s_suite *suite, const struct s_service *svc, size_t index,
                   const struct anvil_json *c) {
    struct anvil_str_view doc = anvil_json_string(anvil_json_object_get_cstr(c, "documentation"));
    if (run->only_case && !s_contains(doc, run->only_case)) {
        return;
    }
    const struct anvil_json *params = anvil_json_object_get_cstr(c, "params");
    const struct anvil_json *expect = anvil_json_object_get_cstr(c, "expect");
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 0);
    suite->cases++;
    bool ok = false;
    if (!svc->rules) {
        anvil_buf_append_cstr(&why, svc->compile_error);
    } else if (params && !anvil_json_is_object(params)) {
        anvil_buf_append_cstr(&why, "the case's params are not an object");
    } else {
        anvil_arena_reset(run->arena);
        ok = s_resolve_check(run, svc, params ? params : &run->empty, 0, false, expect, &why);
    }
    if (!ok) {
        anvil_buf_append_cstr(&why, "; params ");
        ept_append_json(&why, params ? params : &run->empty, run->verbose ? 0 : S_PARAMS_SHOWN);
    }
    if (ok) {
        suite->passed++;
    } else {
        suite->failed++;
    }
    if (!ok || run->verbose) {
        s_line_head(&suite->lines, ok ? "ok" : "FAIL", svc, index, doc, anvil_sv_from_cstr("rules-only"));
        anvil_buf_append_sv(&suite->lines, anvil_buf_view(&why));
        anvil_buf_append_byte(&suite->lines, '\n');
    }
    anvil_buf_clean_up(&why);
    const struct anvil_json *inputs = anvil_json_object_get_cstr(c, "operationInputs");
    for (size_t i = 0; i < anvil_json_len(inputs); i++) {
        s_input(run, suite, svc, index, doc, anvil_json_array_at(inputs, i), expect);
    }
}

/* Every service of `model` with a rule set: compiled, then each of its cases. */
static void s_model(const struct s_run *run, struct s_suite *suite, const char *model_name,
                    const struct anvil_model *model) {
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *shape = anvil_model_shape_at(model, i);
        const struct anvil_json *rule_set = anvil_shape_trait(shape, S_RULES_TRAIT);
        if (anvil_shape_type(shape) != ANVIL_SHAPE_SERVICE || !rule_set) {
            continue;
        }
        struct s_service svc = {model_name, model, shape, NULL, ""};
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        struct anvil_endpoint_rules_options options = {.partitions = run->partitions};
        int rc = anvil_endpoint_rules_compile(NULL, rule_set, &options, &svc.rules, &diag);
        if (rc != ANVIL_OK) {
            svc.rules = NULL;
            snprintf(svc.compile_error, sizeof svc.compile_error, "the rule set does not compile: %s: %s",
                     anvil_status_name(rc), diag.message);
        }
        suite->models++;
        const struct anvil_json *tests = anvil_shape_trait(shape, S_TESTS_TRAIT);
        const struct anvil_json *cases = anvil_json_object_get_cstr(tests, "testCases");
        if (!svc.rules && anvil_json_len(cases) == 0) {
            /* Nothing would report it otherwise. */
            suite->failed++;
            anvil_buf_appendf(&suite->lines, "    FAIL %s: %s\n", model_name, svc.compile_error);
        }
        for (size_t j = 0; j < anvil_json_len(cases); j++) {
            s_case(run, suite, &svc, j, anvil_json_array_at(cases, j));
        }
        anvil_endpoint_rules_destroy(svc.rules);
    }
}

/* ---- the partitions of the AWS models' tests ---- */

/*
 * The AWS models' endpointTests were generated while the ISO partitions
 * (aws-iso, aws-iso-b, aws-iso-e, aws-iso-f) had no dual stack: in
 * smithy-lang/smithy's partitions.json of the time their `outputs` said
 * "supportsDualStack": false and a dualStackDnsSuffix equal to the
 * dnsSuffix; they have both since (the file in testdata, which anvil
 * embeds). So 150-odd cases of ISO regions expect "DualStack is enabled but
 * this partition does not support DualStack" or a c2s.ic.gov host where
 * today's data gives api.aws.ic.gov. The AWS models run with the testdata
 * partitions changed back in exactly that: every partition whose id starts
 * with "aws-iso" without dual stack. The rules-engine test models use no
 * partition and run with the built-in ones.
 */
static void s_write_outputs(const struct anvil_json *outputs, bool no_dual_stack, struct anvil_buf *out) {
    anvil_buf_append_byte(out, '{');
    for (size_t i = 0; i < anvil_json_len(outputs); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(outputs, i);
        struct anvil_str_view key = anvil_json_member_key(m);
        anvil_buf_append_cstr(out, i ? "," : "");
        anvil_json_write_string(key, ANVIL_JSON_WRITE_COMPACT, out);
        anvil_buf_append_byte(out, ':');
        if (no_dual_stack && anvil_sv_eq_cstr(key, "supportsDualStack")) {
            anvil_buf_append_cstr(out, "false");
        } else if (no_dual_stack && anvil_sv_eq_cstr(key, "dualStackDnsSuffix")) {
            anvil_json_write(anvil_json_object_get_cstr(outputs, "dnsSuffix"), ANVIL_JSON_WRITE_COMPACT, out);
        } else {
            anvil_json_write(&m->value, ANVIL_JSON_WRITE_COMPACT, out);
        }
    }
    anvil_buf_append_byte(out, '}');
}

static struct anvil_partitions *s_partitions_of_the_tests(const char *root) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, s_partitions_file);
    size_t len = 0;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        s_die("cannot read", path);
    }
    const struct anvil_json *partitions = anvil_json_object_get_cstr(anvil_json_doc_root(doc), "partitions");
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    anvil_buf_append_cstr(&out, "{\"version\":");
    anvil_json_write(anvil_json_object_get_cstr(anvil_json_doc_root(doc), "version"), ANVIL_JSON_WRITE_COMPACT, &out);
    anvil_buf_append_cstr(&out, ",\"partitions\":[");
    for (size_t i = 0; i < anvil_json_len(partitions); i++) {
        const struct anvil_json *p = anvil_json_array_at(partitions, i);
        bool iso =
            anvil_sv_starts_with(anvil_json_string(anvil_json_object_get_cstr(p, "id")), anvil_sv_from_cstr("aws-iso"));
        anvil_buf_append_cstr(&out, i ? ",{" : "{");
        for (size_t k = 0; k < anvil_json_len(p); k++) {
            const struct anvil_json_member *m = anvil_json_object_at(p, k);
            anvil_buf_append_cstr(&out, k ? "," : "");
            anvil_json_write_string(anvil_json_member_key(m), ANVIL_JSON_WRITE_COMPACT, &out);
            anvil_buf_append_byte(&out, ':');
            if (anvil_sv_eq_cstr(anvil_json_member_key(m), "outputs")) {
                s_write_outputs(&m->value, iso, &out);
            } else {
                anvil_json_write(&m->value, ANVIL_JSON_WRITE_COMPACT, &out);
            }
        }
        anvil_buf_append_byte(&out, '}');
    }
    anvil_buf_append_cstr(&out, "]}");
    struct anvil_partitions *loaded = NULL;
    if (anvil_partitions_load(NULL, out.data, out.len, &loaded, &diag) != ANVIL_OK) {
        s_die("the partitions of the tests do not load", diag.message);
    }
    anvil_buf_clean_up(&out);
    anvil_json_doc_destroy(doc);
    free(text);
    return loaded;
}

/* ---- the two suites ---- */

struct s_files {
    char **paths;
    size_t count, cap;
};

static void s_collect(const char *path, void *user) {
    struct s_files *f = user;
    if (f->count == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        f->paths = realloc(f->paths, f->cap * sizeof *f->paths);
        if (!f->paths) {
            s_die("out of memory", NULL);
        }
    }
    f->paths[f->count] = strdup(path);
    if (!f->paths[f->count++]) {
        s_die("out of memory", NULL);
    }
}

static void s_files_free(struct s_files *f) {
    for (size_t i = 0; i < f->count; i++) {
        free(f->paths[i]);
    }
    free(f->paths);
}

static void s_aws_suite(const struct s_run *run, struct s_suite *suite, const char *root) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, s_aws_models);
    struct s_files files = {0};
    anvil_test_walk(dir, ".json", s_collect, &files);
    if (files.count == 0) {
        s_die("no models under", dir);
    }
    for (size_t i = 0; i < files.count; i++) {
        char stem[256];
        s_stem(files.paths[i], ".json", stem, sizeof stem);
        if (!s_selected(run, stem)) {
            continue;
        }
        size_t len = 0;
        char *text = anvil_test_read_file(files.paths[i], &len);
        if (!text) {
            s_die("cannot read", files.paths[i]);
        }
        struct anvil_model *model = NULL;
        struct anvil_diag diag;
        if (anvil_model_load(NULL, text, len, NULL, &model, &diag) != ANVIL_OK) {
            fprintf(stderr, "endpoint_tests: %s: %s\n", files.paths[i], diag.message);
            exit(2);
        }
        free(text);
        s_model(run, suite, stem, model);
        anvil_model_destroy(model);
    }
    s_files_free(&files);
}

/* Each rules-engine test model assembled with the trait definitions (the models share one namespace). */
static void s_engine_suite(const struct s_run *run, struct s_suite *suite, const char *root) {
    char dir[4096], traits_path[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, s_engine_models);
    snprintf(traits_path, sizeof traits_path, "%s/%s", root, s_rules_traits);
    struct s_files files = {0};
    anvil_test_walk(dir, ".smithy", s_collect, &files);
    if (files.count == 0) {
        s_die("no models under", dir);
    }
    size_t traits_len = 0;
    char *traits = anvil_test_read_file(traits_path, &traits_len);
    if (!traits) {
        s_die("cannot read", traits_path);
    }
    for (size_t i = 0; i < files.count; i++) {
        char stem[256];
        s_stem(files.paths[i], ".smithy", stem, sizeof stem);
        if (!s_selected(run, stem)) {
            continue;
        }
        struct anvil_model_source src[2] = {{traits_path, traits, traits_len, ANVIL_MODEL_FORMAT_IDL},
                                            {files.paths[i], NULL, 0, ANVIL_MODEL_FORMAT_IDL}};
        char *text = anvil_test_read_file(files.paths[i], &src[1].len);
        if (!text) {
            s_die("cannot read", files.paths[i]);
        }
        src[1].text = text;
        struct anvil_model *model = NULL;
        struct anvil_diag diag;
        if (anvil_model_assemble(NULL, src, 2, NULL, &model, NULL, &diag) != ANVIL_OK) {
            fprintf(stderr, "endpoint_tests: %s does not assemble: %s\n", files.paths[i], diag.message);
            exit(2);
        }
        free(text);
        s_model(run, suite, stem, model);
        anvil_model_destroy(model);
    }
    free(traits);
    s_files_free(&files);
}

static void s_report(const struct s_suite *suite) {
    printf("  %s: %zu models, %zu cases: %zu passed, %zu failed rules-only; %zu operationInputs: %zu passed, %zu "
           "failed, %zu skipped\n",
           suite->title, suite->models, suite->cases, suite->passed, suite->failed, suite->inputs, suite->in_passed,
           suite->in_failed, suite->in_skipped);
}

int main(int argc, char **argv) {
    struct s_run run = {0};
    const char *root = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
            run.only_model = argv[++i];
        } else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
            run.only_case = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            run.verbose = true;
        } else if (strcmp(argv[i], "--builtin-partitions") == 0) {
            run.builtin_partitions = true;
        } else if (argv[i][0] != '-' && !root) {
            root = argv[i];
        } else {
            root = NULL;
            break;
        }
    }
    if (!root) {
        fprintf(stderr,
                "usage: endpoint_tests [--model NAME] [--case TEXT] [--verbose] [--builtin-partitions] TESTDATA_DIR\n");
        return 2;
    }
    struct anvil_arena *empty_arena = NULL;
    if (anvil_arena_new(NULL, NULL, &run.arena) != ANVIL_OK || anvil_arena_new(NULL, NULL, &empty_arena) != ANVIL_OK ||
        anvil_json_parse_into(empty_arena, NULL, "{}", 2, NULL, &run.empty, NULL) != ANVIL_OK) {
        s_die("out of memory", NULL);
    }
    struct s_suite suites[2] = {{.title = "endpoint tests"}, {.title = "endpoint tests (smithy-rules-engine-tests)"}};
    for (int s = 0; s < 2; s++) {
        anvil_buf_init(&suites[s].lines, NULL, 0);
    }
    struct anvil_partitions *partitions = run.builtin_partitions ? NULL : s_partitions_of_the_tests(root);
    run.partitions = partitions;
    s_aws_suite(&run, &suites[0], root);
    run.partitions = NULL;
    s_engine_suite(&run, &suites[1], root);
    int status = 0;
    if (run.only_model && suites[0].models + suites[1].models == 0) {
        fprintf(stderr, "endpoint_tests: no model named %s\n", run.only_model);
        status = 2;
    }
    for (int s = 0; s < 2 && status == 0; s++) {
        s_report(&suites[s]);
    }
    if (status == 0 && suites[0].models > 0) {
        printf("    the AWS models with %s\n",
               partitions ? "the partitions of their tests (testdata's partitions.json, the ISO partitions without "
                            "dual stack)"
                          : "anvil's built-in partitions");
    }
    for (int s = 0; s < 2; s++) {
        struct anvil_str_view lines = anvil_buf_view(&suites[s].lines);
        fwrite(lines.ptr, 1, lines.len, stdout);
        if (status == 0 && suites[s].failed + suites[s].in_failed > 0) {
            status = 1;
        }
        anvil_buf_clean_up(&suites[s].lines);
    }
    anvil_arena_destroy(run.arena);
    anvil_arena_destroy(empty_arena);
    anvil_partitions_destroy(partitions);
    return status;
}
