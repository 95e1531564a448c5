/*
 * Smithy's client-side HTTP protocol compliance tests (httpRequestTests and
 * httpResponseTests, smithy-lang/smithy smithy-aws-protocol-tests/model)
 * through anvil's protocols (src/protocol/protocol_internal.h).
 *
 * The whole test tree, the AWS trait definitions, the protocol-test traits
 * and the validation model assemble into one model holding every test
 * service. Every operation (request and response cases) and every error
 * structure (response cases) carrying the traits is walked; cases whose
 * `appliesTo` is "server" are left out. A case runs with the protocol its
 * `protocol` field names, against the service whose closure holds the
 * operation (one speaking that protocol first):
 *
 *   request   `params` become the input (ptc_params() in protocol_run.c),
 *             the request is built with anvil__request_build() (idempotency
 *             tokens from a random source of zero bytes, so
 *             00000000-0000-4000-8000-000000000000), and method, URI (the
 *             endpoint's base path, from `host`, then the target's path),
 *             query, headers, resolved host (the host prefix, then `host`)
 *             and body are checked as protocol_compare.h says. For S3 with
 *             the bucket in the host, the bucket's path segment is dropped
 *             and the host left to S3's endpoint rules (protocol_run.c).
 *   response  the response (code, headers, body) is read with
 *             anvil__response_read(): an operation's case expects the
 *             output to equal `params`; an error's case expects
 *             ANVIL_ESERVICE, the error the code names to be that error
 *             (query codes for awsQuery, ec2Query and @awsQueryCompatible),
 *             and its members to equal `params`.
 *
 * Cases of a protocol anvil does not speak (yet) are skipped together, with
 * the reason said once; event stream operations are skipped one by one. The
 * few cases that test a service's SDK customization rather than its
 * protocol (s_customizations) run, and count as skipped, with the reason
 * and the difference, when they fail. Prints a total, one line per protocol,
 *
 *   Smithy protocol tests <protocol>: requests P passed, F failed, S skipped; responses ...
 *
 * then the skipped cases with their reasons and every failure with what was
 * expected and what came. Results are per (kind, id): request and response
 * cases often share an id. Exits 1 when a case fails, 2 when the tests
 * cannot be loaded.
 *
 * Usage: protocol_tests [--protocol NAME] [--case ID] [--verbose] SMITHY_LANG_DIR
 *   SMITHY_LANG_DIR  the shared testdata/smithy-lang folder
 *   --protocol NAME  only that protocol's cases (awsJson1_0, restJson1, ...)
 *   --case ID        only cases with that id (request and response)
 *   --verbose        also each passing case, and the whole request or reply of a failure
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol_compare.h"
#include "protocol_tests.h"
#include "read_file.h"
#include "walk.h"

/* The folders (under SMITHY_LANG_DIR) that assemble into the test model. */
static const char *const s_model_dirs[] = {
    "smithy-aws-protocol-tests/model",
    "smithy-aws-traits/src/main/resources/META-INF/smithy",
    "smithy-protocol-test-traits/src/main/resources/META-INF/smithy",
    "smithy-validation-model/model",
};

/*
 * Cases that test an SDK customization of one service rather than its
 * protocol: botocore does each in a handler of its own (handlers.py), above
 * the protocol layer. They run; one that fails is counted as skipped, with
 * this reason and the difference, not as a protocol failure.
 */
static const struct {
    const char *id;
    const char *reason;
} s_customizations[] = {
    {"MachinelearningPredictEndpoint", "Machine Learning sends Predict to its PredictEndpoint member "
                                       "(switch_host_machinelearning)"},
    {"ApiGatewayAccept", "API Gateway's Accept: application/json (add_accept_header)"},
    {"GlacierVersionHeader", "Glacier's X-Amz-Glacier-Version (add_glacier_version)"},
    {"GlacierChecksums", "Glacier's SHA-256 and tree hash headers (add_glacier_checksums)"},
    {"GlacierMultipartChecksums", "Glacier's SHA-256 and tree hash headers (add_glacier_checksums)"},
    {"GlacierAccountId", "Glacier's account id \"-\" by default (inject_account_id)"},
};

struct s_counts {
    size_t passed, failed, skipped;
};

struct s_protocol {
    /* Smithy's name ("awsJson1_0") and the trait id naming it. */
    char name[64];
    char trait[128];
    enum anvil_protocol id;
    /* NULL when anvil does not speak it. */
    const struct anvil__protocol *protocol;
    struct s_counts kinds[2];
    /* Skipped and failed cases, one line each; ids of S3 cases whose host was left to the endpoint rules. */
    struct anvil_buf skips, fails;
};

#define S_MAX_PROTOCOLS 16

static struct s_protocol s_protocols[S_MAX_PROTOCOLS];
static size_t s_protocol_count;

static const char *const s_kind_names[2] = {"request", "response"};

static struct s_protocol *s_protocol_for(struct anvil_str_view trait) {
    for (size_t i = 0; i < s_protocol_count; i++) {
        if (anvil_sv_eq_cstr(trait, s_protocols[i].trait)) {
            return &s_protocols[i];
        }
    }
    if (s_protocol_count == S_MAX_PROTOCOLS) {
        return NULL;
    }
    struct s_protocol *p = &s_protocols[s_protocol_count++];
    memset(p, 0, sizeof *p);
    snprintf(p->trait, sizeof p->trait, "%.*s", (int)trait.len, trait.ptr);
    size_t hash = anvil_sv_find_byte(trait, 0, '#');
    struct anvil_str_view name = hash == SIZE_MAX ? trait : anvil_sv_slice(trait, hash + 1, trait.len - hash - 1);
    snprintf(p->name, sizeof p->name, "%.*s", (int)name.len, name.ptr);
    for (int id = ANVIL_PROTOCOL_NONE + 1; id <= ANVIL_PROTOCOL_EC2_QUERY; id++) {
        if (strcmp(anvil_protocol_trait((enum anvil_protocol)id), p->trait) == 0) {
            p->id = (enum anvil_protocol)id;
            p->protocol = anvil__protocol_get(p->id);
        }
    }
    anvil_buf_init(&p->skips, NULL, 0);
    anvil_buf_init(&p->fails, NULL, 0);
    return p;
}

/* The protocols in a fixed order, so the report reads the same whatever order the model lists them in. */
static void s_protocols_init(void) {
    static const char *const known[] = {
        "aws.protocols#awsJson1_0", "aws.protocols#awsJson1_1", "aws.protocols#restJson1",    "aws.protocols#awsQuery",
        "aws.protocols#ec2Query",   "aws.protocols#restXml",    "smithy.protocols#rpcv2Cbor",
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        s_protocol_for(anvil_sv_from_cstr(known[i]));
    }
}

/* ---- which service and operation a case runs against ---- */

struct s_binding {
    const struct anvil_shape *operation, *service;
};

static struct s_binding *s_bindings;
static size_t s_binding_count, s_binding_cap;

struct s_visit {
    const struct anvil_shape *service;
};

static bool s_bind(const struct anvil_shape *operation, void *user) {
    struct s_visit *v = user;
    if (s_binding_count == s_binding_cap) {
        s_binding_cap = s_binding_cap ? 2 * s_binding_cap : 256;
        s_bindings = realloc(s_bindings, s_binding_cap * sizeof *s_bindings);
        if (!s_bindings) {
            fprintf(stderr, "protocol_tests: out of memory\n");
            exit(2);
        }
    }
    s_bindings[s_binding_count].operation = operation;
    s_bindings[s_binding_count].service = v->service;
    s_binding_count++;
    return true;
}

static void s_bindings_build(const struct anvil_model *model) {
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
            struct s_visit v = {s};
            anvil_service_operations(model, s, s_bind, &v, NULL);
        }
    }
}

static bool s_lists_error(const struct anvil_shape *owner, const struct anvil_shape *error) {
    for (size_t i = 0; i < anvil_shape_error_count(owner); i++) {
        if (anvil_shape_error_at(owner, i) == error) {
            return true;
        }
    }
    return false;
}

/*
 * The service (and operation) a case of `shape` runs against: for an
 * operation, a service whose closure holds it; for an error, an operation
 * listing it, else any operation of a service listing it, else of a service
 * of its namespace. A service with the case's protocol trait is preferred.
 */
static bool s_find_binding(const struct anvil_shape *shape, const struct s_protocol *p, struct s_binding *out) {
    bool error = anvil_shape_type(shape) != ANVIL_SHAPE_OPERATION;
    /* Passes: with the protocol, then without; for an error, by its operations before its services. */
    for (int pass = 0; pass < 4; pass++) {
        bool need_protocol = pass < 2, by_service = pass % 2 == 1;
        if (!error && by_service) {
            continue;
        }
        for (size_t i = 0; i < s_binding_count; i++) {
            const struct s_binding *b = &s_bindings[i];
            if (need_protocol && !anvil_shape_trait(b->service, p->trait)) {
                continue;
            }
            bool hit = !error       ? b->operation == shape
                       : by_service ? s_lists_error(b->service, shape)
                                    : s_lists_error(b->operation, shape);
            if (hit) {
                *out = *b;
                return true;
            }
        }
    }
    /* An error no operation or service lists: any operation of a service of its namespace speaking the protocol. */
    struct anvil_str_view id = anvil_shape_id(shape);
    size_t ns = anvil_sv_find_byte(id, 0, '#');
    for (size_t i = 0; error && ns != SIZE_MAX && i < s_binding_count; i++) {
        const struct s_binding *b = &s_bindings[i];
        struct anvil_str_view sid = anvil_shape_id(b->service);
        if (anvil_shape_trait(b->service, p->trait) && sid.len > ns && memcmp(sid.ptr, id.ptr, ns + 1) == 0) {
            *out = *b;
            return true;
        }
    }
    return false;
}

static bool s_event_stream(const struct anvil_shape *structure) {
    for (size_t i = 0; structure && i < anvil_shape_member_count(structure); i++) {
        const struct anvil_shape *t = anvil_shape_member_at(structure, i)->target;
        if (t && anvil_shape_type(t) == ANVIL_SHAPE_UNION && anvil_shape_is_streaming(t)) {
            return true;
        }
    }
    return false;
}

/* ---- the walk ---- */

struct s_run {
    const struct anvil_model *model;
    /* S3's endpoint rules, from its own model beside the protocol tests (NULL when not there). */
    const struct anvil_endpoint_rules *s3_rules;
    const char *only_protocol;
    const char *only_case;
    bool verbose;
    size_t server_only;
};

static void s_line(struct anvil_buf *into, const char *what, int kind, struct anvil_str_view id,
                   struct anvil_str_view text) {
    anvil_buf_appendf(into, "    %s %s %.*s: %.*s\n", what, s_kind_names[kind], (int)id.len, id.ptr, (int)text.len,
                      text.ptr);
}

static void s_case(struct s_run *run, const struct anvil_shape *shape, int kind, const struct anvil_json *c) {
    struct anvil_str_view id = anvil_json_string(anvil_json_object_get_cstr(c, "id"));
    if (anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(c, "appliesTo")), "server")) {
        run->server_only++;
        return;
    }
    if (run->only_case && !anvil_sv_eq_cstr(id, run->only_case)) {
        return;
    }
    struct s_protocol *p = s_protocol_for(anvil_json_string(anvil_json_object_get_cstr(c, "protocol")));
    if (!p) {
        fprintf(stderr, "protocol_tests: too many protocols\n");
        exit(2);
    }
    if (run->only_protocol && strcmp(run->only_protocol, p->name) != 0) {
        return;
    }
    struct s_counts *n = &p->kinds[kind];
    if (!p->protocol) {
        n->skipped++; /* named once, with the protocol */
        return;
    }
    const char *customization = NULL;
    for (size_t i = 0; i < sizeof s_customizations / sizeof s_customizations[0]; i++) {
        if (anvil_sv_eq_cstr(id, s_customizations[i].id)) {
            customization = s_customizations[i].reason;
        }
    }
    struct s_binding b;
    if (!s_find_binding(shape, p, &b)) {
        n->failed++;
        s_line(&p->fails, "FAIL", kind, id, anvil_sv_from_cstr("no service of the model runs this case's shape"));
        return;
    }
    if (anvil_shape_type(shape) == ANVIL_SHAPE_OPERATION &&
        (s_event_stream(anvil_operation_input(shape)) || s_event_stream(anvil_operation_output(shape)))) {
        n->skipped++;
        s_line(&p->skips, "skipped", kind, id,
               anvil_sv_from_cstr("an event stream operation (anvil has no event streams)"));
        return;
    }
    struct ptc_case tc = {
        .model = run->model,
        .service = b.service,
        .operation = b.operation,
        .error = anvil_shape_type(shape) == ANVIL_SHAPE_OPERATION ? NULL : shape,
        .protocol = p->protocol,
        .test = c,
        .verbose = run->verbose,
        .s3_rules = run->s3_rules,
    };
    struct anvil_buf why;
    anvil_buf_init(&why, NULL, 0);
    bool ok = kind == 0 ? ptc_run_request(&tc, &why) : ptc_run_response(&tc, &why);
    if (ok && tc.host_left_to_endpoint_rules) {
        /* Only the protocol's half was checked: the host and path are S3's endpoint rules', which were not there. */
        n->skipped++;
        s_line(&p->skips, "skipped", kind, id,
               anvil_sv_from_cstr("S3's resolved host and path come from S3's endpoint rules, and S3's model "
                                  "(smithy-models/aws/s3-2006-03-01.json) is not in the test data; the query, "
                                  "headers and body were checked and match"));
    } else if (ok) {
        n->passed++;
        if (run->verbose) {
            printf("    ok %s %.*s\n", s_kind_names[kind], (int)id.len, id.ptr);
        }
    } else if (customization) {
        n->skipped++;
        struct anvil_buf line;
        anvil_buf_init(&line, NULL, 0);
        anvil_buf_appendf(
            &line, "a customization of the service, not of the protocol: %s; anvil does not do it: ", customization);
        anvil_buf_append_sv(&line, anvil_buf_view(&why));
        s_line(&p->skips, "skipped", kind, id, anvil_buf_view(&line));
        anvil_buf_clean_up(&line);
    } else {
        n->failed++;
        s_line(&p->fails, "FAIL", kind, id, anvil_buf_view(&why));
    }
    anvil_buf_clean_up(&why);
}

static void s_walk(struct s_run *run) {
    static const char *const traits[2] = {"smithy.test#httpRequestTests", "smithy.test#httpResponseTests"};
    for (size_t i = 0; i < anvil_model_shape_count(run->model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(run->model, i);
        enum anvil_shape_type type = anvil_shape_type(s);
        for (int kind = 0; kind < 2; kind++) {
            /* Request cases belong to operations; response cases to operations and errors. */
            if (type != ANVIL_SHAPE_OPERATION && (kind == 0 || type != ANVIL_SHAPE_STRUCTURE)) {
                continue;
            }
            const struct anvil_json *cases = anvil_shape_trait(s, traits[kind]);
            for (size_t j = 0; j < anvil_json_len(cases); j++) {
                s_case(run, s, kind, anvil_json_array_at(cases, j));
            }
        }
    }
}

/* ---- loading ---- */

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
            fprintf(stderr, "protocol_tests: out of memory\n");
            exit(2);
        }
    }
    f->paths[f->count++] = strdup(path);
}

/* The IDL that gives S3's test operations the @contextParam its real model has on Bucket. */
struct s_s3_context {
    struct anvil_buf *idl;
};

static bool s_s3_bucket(const struct anvil_shape *op, void *user_data) {
    struct s_s3_context *k = user_data;
    const struct anvil_shape *in = anvil_operation_input(op);
    const struct anvil_member *bucket = in ? anvil_shape_member(in, "Bucket") : NULL;
    if (bucket && anvil_json_object_get_cstr(&bucket->traits, "smithy.api#httpLabel") &&
        !anvil_json_object_get_cstr(&bucket->traits, "smithy.rules#contextParam")) {
        struct anvil_str_view id = anvil_shape_id(in);
        anvil_buf_appendf(k->idl, "apply %.*s$Bucket @smithy.rules#contextParam(name: \"Bucket\")\n", (int)id.len,
                          id.ptr);
    }
    return true;
}

/*
 * S3's protocol tests resolve their hosts with S3's endpoint rules, which
 * take the Bucket from the input's @contextParam member, as S3's real model
 * has it; the test model leaves the trait out, so it is applied here (an
 * extra source of `apply` statements), as SDKs' generated test clients get
 * it from the real model.
 */
static void s_s3_context_idl(const struct anvil_model *model, struct anvil_buf *idl) {
    anvil_buf_append_cstr(idl, "$version: \"2\"\nnamespace anvil.protocoltests\n");
    size_t header = idl->len;
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        struct anvil_aws_service aws;
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE && anvil_service_aws(s, &aws) &&
            anvil_sv_eq_cstr(aws.sdk_id, "S3")) {
            struct s_s3_context k = {idl};
            anvil_service_operations(model, s, s_s3_bucket, &k, NULL);
        }
    }
    if (idl->len == header) {
        anvil_buf_clear(idl);
    }
}

static struct anvil_model *s_load(const char *root) {
    struct s_files files = {0};
    char dir[4096];
    for (size_t i = 0; i < sizeof s_model_dirs / sizeof s_model_dirs[0]; i++) {
        snprintf(dir, sizeof dir, "%s/%s", root, s_model_dirs[i]);
        size_t before = files.count;
        anvil_test_walk(dir, ".smithy", s_collect, &files);
        if (files.count == before) {
            fprintf(stderr, "protocol_tests: no .smithy files under %s\n", dir);
            exit(2);
        }
    }
    struct anvil_model_source *src = calloc(files.count + 1, sizeof *src);
    char **texts = calloc(files.count, sizeof *texts);
    if (!src || !texts) {
        fprintf(stderr, "protocol_tests: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < files.count; i++) {
        texts[i] = anvil_test_read_file(files.paths[i], &src[i].len);
        if (!texts[i]) {
            fprintf(stderr, "protocol_tests: cannot read %s\n", files.paths[i]);
            exit(2);
        }
        src[i].name = files.paths[i];
        src[i].text = texts[i];
    }
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    size_t count = files.count;
    int rc = anvil_model_assemble(NULL, src, count, NULL, &model, &events, &diag);
    struct anvil_buf context;
    anvil_buf_init(&context, NULL, 0);
    if (rc == ANVIL_OK) {
        s_s3_context_idl(model, &context);
    }
    if (context.len) {
        /* Again, with S3's Bucket given to its endpoint rules as its real model gives it. */
        src[count++] = (struct anvil_model_source){"anvil-s3-context-params.smithy", context.data, context.len,
                                                   ANVIL_MODEL_FORMAT_IDL};
        anvil_model_destroy(model);
        anvil_events_destroy(events);
        model = NULL;
        events = NULL;
        rc = anvil_model_assemble(NULL, src, count, NULL, &model, &events, &diag);
    }
    size_t errors = anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR);
    if (rc != ANVIL_OK || errors > 0) {
        fprintf(stderr, "protocol_tests: the %zu test files do not assemble: %s (%zu ERROR events)\n", files.count,
                rc != ANVIL_OK ? diag.message : "", errors);
        struct anvil_buf line;
        anvil_buf_init(&line, NULL, 0);
        for (size_t i = 0; i < anvil_events_count(events); i++) {
            const struct anvil_event *e = anvil_events_at(events, i);
            if (e->severity == ANVIL_SEVERITY_ERROR) {
                anvil_buf_clear(&line);
                anvil_event_format(e, &line);
                fprintf(stderr, "  %.*s\n", (int)anvil_buf_view(&line).len, anvil_buf_view(&line).ptr);
            }
        }
        anvil_buf_clean_up(&line);
        exit(2);
    }
    anvil_events_destroy(events);
    anvil_buf_clean_up(&context);
    for (size_t i = 0; i < files.count; i++) {
        free(texts[i]);
        free(files.paths[i]);
    }
    free(texts);
    free(src);
    free(files.paths);
    return model;
}

/*
 * S3's endpoint rules, compiled from S3's model in the test data
 * (ROOT/../smithy-models/aws/s3-2006-03-01.json); NULL, said, when it is
 * not there. A model that is there and does not give rules is a failure.
 */
static struct anvil_endpoint_rules *s_s3_rules(const char *root) {
    char path[4096];
    snprintf(path, sizeof path, "%s/../smithy-models/aws/s3-2006-03-01.json", root);
    size_t len = 0;
    char *text = anvil_test_read_file(path, &len);
    if (!text) {
        printf("protocol_tests: no %s: S3's resolved hosts are not checked\n", path);
        return NULL;
    }
    struct anvil_model_source src = {.name = path, .text = text, .len = len};
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_model_assemble(NULL, &src, 1, NULL, &model, &events, &diag);
    const struct anvil_shape *s3 =
        rc == ANVIL_OK ? anvil_model_find(model, "com.amazonaws.s3#AmazonS3", strlen("com.amazonaws.s3#AmazonS3"))
                       : NULL;
    const struct anvil_json *rule_set = s3 ? anvil_shape_trait(s3, "smithy.rules#endpointRuleSet") : NULL;
    if (rule_set) {
        rc = anvil_endpoint_rules_compile(NULL, rule_set, NULL, &rules, &diag);
    }
    if (!rules) {
        fprintf(stderr, "protocol_tests: %s gives no endpoint rules: %s\n", path,
                rc != ANVIL_OK ? diag.message : "no smithy.rules#endpointRuleSet on com.amazonaws.s3#AmazonS3");
        exit(2);
    }
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    free(text);
    return rules;
}

/* ---- the report ---- */

static int s_report(const struct s_run *run) {
    struct s_counts all[2] = {{0}};
    for (size_t i = 0; i < s_protocol_count; i++) {
        for (int k = 0; k < 2; k++) {
            all[k].passed += s_protocols[i].kinds[k].passed;
            all[k].failed += s_protocols[i].kinds[k].failed;
            all[k].skipped += s_protocols[i].kinds[k].skipped;
        }
    }
    printf("Smithy protocol tests (client side, %zu server-only cases left out): requests %zu passed, %zu failed, "
           "%zu skipped; responses %zu passed, %zu failed, %zu skipped\n",
           run->server_only, all[0].passed, all[0].failed, all[0].skipped, all[1].passed, all[1].failed,
           all[1].skipped);
    int status = 0;
    for (size_t i = 0; i < s_protocol_count; i++) {
        struct s_protocol *p = &s_protocols[i];
        struct s_counts *q = &p->kinds[0], *r = &p->kinds[1];
        size_t cases = q->passed + q->failed + q->skipped + r->passed + r->failed + r->skipped;
        if ((run->only_protocol && strcmp(run->only_protocol, p->name) != 0) || (run->only_case && cases == 0)) {
            continue;
        }
        printf("  Smithy protocol tests %s: requests %zu passed, %zu failed, %zu skipped; responses %zu passed, %zu "
               "failed, %zu skipped\n",
               p->name, q->passed, q->failed, q->skipped, r->passed, r->failed, r->skipped);
        if (!p->protocol && cases > 0) {
            if (p->id == ANVIL_PROTOCOL_NONE) {
                printf("    skipped all %zu cases: %s is not an AWS protocol anvil implements\n", cases, p->trait);
            } else {
                printf("    skipped all %zu cases: anvil does not speak %s yet\n", cases, p->name);
            }
        }
        struct anvil_str_view skips = anvil_buf_view(&p->skips), fails = anvil_buf_view(&p->fails);
        fwrite(skips.ptr, 1, skips.len, stdout);
        fwrite(fails.ptr, 1, fails.len, stdout);
        if (q->failed + r->failed > 0) {
            status = 1;
        }
    }
    return status;
}

int main(int argc, char **argv) {
    struct s_run run = {0};
    const char *root = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--protocol") == 0 && i + 1 < argc) {
            run.only_protocol = argv[++i];
        } else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
            run.only_case = argv[++i];
        } else if (strcmp(argv[i], "--verbose") == 0) {
            run.verbose = true;
        } else if (argv[i][0] != '-' && !root) {
            root = argv[i];
        } else {
            root = NULL;
            break;
        }
    }
    if (!root) {
        fprintf(stderr, "usage: protocol_tests [--protocol NAME] [--case ID] [--verbose] SMITHY_LANG_DIR\n");
        return 2;
    }
    s_protocols_init();
    bool known = !run.only_protocol;
    for (size_t i = 0; i < s_protocol_count; i++) {
        known = known || strcmp(run.only_protocol, s_protocols[i].name) == 0;
    }
    if (!known) {
        fprintf(stderr, "protocol_tests: no protocol named %s\n", run.only_protocol);
        return 2;
    }
    struct anvil_model *model = s_load(root);
    run.model = model;
    struct anvil_endpoint_rules *s3_rules = s_s3_rules(root);
    run.s3_rules = s3_rules;
    s_bindings_build(model);
    s_walk(&run);
    int status = s_report(&run);
    for (size_t i = 0; i < s_protocol_count; i++) {
        anvil_buf_clean_up(&s_protocols[i].skips);
        anvil_buf_clean_up(&s_protocols[i].fails);
    }
    free(s_bindings);
    anvil_endpoint_rules_destroy(s3_rules);
    anvil_model_destroy(model);
    return status;
}
