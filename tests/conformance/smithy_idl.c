/*
 * Smithy's own IDL corpora through anvil's reader (paths under
 * smithy-lang/smithy-model/src/test/resources/software/amazon/smithy/model/):
 *
 *   valid     loader/valid: X.smithy + __shared.json assembles to the same
 *             JSON AST as X.json + __shared.json (semantic equality).
 *   invalid   loader/invalid: each case fails, and the message or an ERROR
 *             event contains the text on its line 1.
 *   parse     every other .smithy file given: loads with no syntax error.
 *   events    errorfiles/loader (or another errorfiles folder): for each
 *             X.smithy or X.json beside X.errors, the events of assembling
 *             and validating X match X.errors as Smithy's SmithyTestCase
 *             matches them: every expected event has an actual one of the
 *             same severity, shape and event id whose message starts with
 *             the expected one, and every actual event is expected. A case
 *             expecting an event anvil cannot give (a validator it does not
 *             have, a SUPPRESSED event) is skipped and named with the ids.
 *   upgrade   loader/upgrade: in each folder, the other files (IDL 1.0, or
 *             1.0 and 2.0 mixed) assemble to the same JSON AST as
 *             upgraded.smithy, as Smithy's ModelInteropTransformerTest has it
 *             (or both fail with the same error: box-in-v2).
 *   box       loader/upgrade-box: each file's Foo$<name> member has the v2
 *             nullability its first line says, and so has the model read back
 *             from anvil's JSON AST, twice, with no ERROR and the same AST.
 *             (The two 1.0 views, v1-box and v1-client-zero-value, are
 *             NullableIndex modes for 1.0 tooling; anvil has no such index.)
 *
 * Every model that assembles in any of these is also checked against the
 * JSON AST loader: the model loaded from its own AST is the same model
 * (tests/support/model_same.h); that count is printed too.
 *
 * Usage: smithy_idl valid DIR | invalid DIR | parse DIR... | events DIR [TRAITS.smithy] | upgrade DIR | box DIR
 * Prints the counts and each failure; exits 1 when any case fails.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "model_same.h"
#include "read_file.h"
#include "walk.h"

static int s_failed;

/* Models checked against the model their own AST loads into. */
static int s_same_passed, s_same_failed;

static void s_same(const struct anvil_model *model, const char *path) {
    char why[512];
    if (!model) {
        return;
    }
    if (anvil_test_model_same_as_ast(model, NULL, why, sizeof(why))) {
        s_same_passed++;
    } else {
        s_same_failed++;
        printf("  FAIL %s: the model is not the one its AST loads into: %s\n", path, why);
    }
}

struct s_files {
    char *text[2];
    size_t len[2];
    struct anvil_model_source src[2];
};

static int s_assemble(const char *a, const char *b, struct anvil_model **model, struct anvil_events **events,
                      struct anvil_diag *diag) {
    struct s_files f;
    memset(&f, 0, sizeof(f));
    const char *paths[2] = {a, b};
    size_t count = b ? 2 : 1;
    for (size_t i = 0; i < count; i++) {
        f.text[i] = anvil_test_read_file(paths[i], &f.len[i]);
        if (!f.text[i]) {
            fprintf(stderr, "cannot read %s\n", paths[i]);
            exit(2);
        }
        const char *slash = strrchr(paths[i], '/');
        f.src[i].name = slash ? slash + 1 : paths[i]; /* short: the diag holds the whole message */
        f.src[i].text = f.text[i];
        f.src[i].len = f.len[i];
    }
    int rc = anvil_model_assemble(NULL, f.src, count, NULL, model, events, diag);
    for (size_t i = 0; i < count; i++) {
        free(f.text[i]);
    }
    return rc;
}

/* ---- valid ---- */

struct s_valid {
    const char *shared;
    int passed, failed;
};

static void s_valid_case(const char *path, void *user) {
    struct s_valid *v = user;
    char json[4096];
    snprintf(json, sizeof(json), "%.*s.json", (int)(strlen(path) - 7), path);
    FILE *probe = fopen(json, "r");
    if (!probe) {
        return; /* a .smithy used only by Smithy's Java tests */
    }
    fclose(probe);
    struct anvil_model *a = NULL, *b = NULL;
    struct anvil_diag da, db;
    int ra = s_assemble(path, v->shared, &a, NULL, &da);
    int rb = s_assemble(json, v->shared, &b, NULL, &db);
    s_same(a, path);
    s_same(b, json);
    bool ok = ra == ANVIL_OK && rb == ANVIL_OK;
    if (ok) {
        const struct anvil_json *x = anvil_model_ast(a), *y = anvil_model_ast(b);
        ok = anvil_json_equal(anvil_json_object_get_cstr(x, "shapes"), anvil_json_object_get_cstr(y, "shapes")) &&
             anvil_json_equal(anvil_json_object_get_cstr(x, "metadata"), anvil_json_object_get_cstr(y, "metadata"));
        if (!ok && getenv("SMITHY_IDL_VERBOSE")) {
            struct anvil_buf out;
            anvil_buf_init(&out, NULL, 0);
            anvil_json_write(x, ANVIL_JSON_WRITE_PRETTY, &out);
            anvil_buf_append_cstr(&out, "\n---- expected\n");
            anvil_json_write(y, ANVIL_JSON_WRITE_PRETTY, &out);
            struct anvil_str_view s = anvil_buf_view(&out);
            fprintf(stderr, "%.*s\n", (int)s.len, s.ptr);
            anvil_buf_clean_up(&out);
        }
    }
    if (ok) {
        v->passed++;
    } else {
        v->failed++;
        printf("  FAIL valid %s: %s\n", path,
               ra != ANVIL_OK   ? da.message
               : rb != ANVIL_OK ? db.message
                                : "the models differ");
    }
    anvil_model_destroy(a);
    anvil_model_destroy(b);
}

/* ---- invalid ---- */

struct s_invalid {
    int passed, failed;
};

static void s_invalid_case(const char *path, void *user) {
    struct s_invalid *v = user;
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    char expected[1024] = "";
    if (text && len > 2 && text[0] == '/' && text[1] == '/') {
        size_t i = 2;
        while (i < len && text[i] == ' ') {
            i++;
        }
        size_t n = 0;
        while (i < len && text[i] != '\n' && text[i] != '\r' && n + 1 < sizeof(expected)) {
            expected[n++] = text[i++];
        }
        expected[n] = '\0';
        char *bar = strstr(expected, " | ");
        if (bar) {
            *bar = '\0'; /* the event id Smithy's runner prints after the message */
        }
    }
    free(text);
    struct anvil_model *m = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag d;
    int rc = s_assemble(path, NULL, &m, &events, &d);
    bool ok = false;
    if (rc != ANVIL_OK) {
        ok = strstr(d.message, expected) != NULL;
        for (size_t i = 0; !ok && i < anvil_events_count(events); i++) {
            const struct anvil_event *e = anvil_events_at(events, i);
            ok = e->severity >= ANVIL_SEVERITY_DANGER && strstr(e->message, expected) != NULL;
        }
    } else {
        /* A DANGER event is how Smithy fails some cases (an unresolved syntactic shape id). */
        for (size_t i = 0; !ok && i < anvil_events_count(events); i++) {
            const struct anvil_event *e = anvil_events_at(events, i);
            ok = e->severity >= ANVIL_SEVERITY_DANGER && strstr(e->message, expected) != NULL;
        }
    }
    if (ok) {
        v->passed++;
    } else {
        v->failed++;
        printf("  FAIL invalid %s\n       expected: %s\n       got: %s\n", path, expected,
               rc == ANVIL_OK ? "(loaded)" : d.message);
    }
    anvil_events_destroy(events);
    anvil_model_destroy(m);
}

/* ---- parse ---- */

struct s_parse {
    int passed, failed;
};

static void s_parse_case(const char *path, void *user) {
    struct s_parse *v = user;
    struct anvil_model *m = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag d;
    int rc = s_assemble(path, NULL, &m, &events, &d);
    s_same(m, path);
    if (rc == ANVIL_ESYNTAX) {
        v->failed++;
        printf("  FAIL parse %s\n", d.message);
    } else {
        v->passed++;
    }
    anvil_events_destroy(events);
    anvil_model_destroy(m);
}

/* ---- events ---- */

struct s_event {
    char severity[16];
    char shape[512];
    char *message;
    char id[128];
};

struct s_case_events {
    struct s_event items[256];
    size_t count;
};

static void s_events_free(struct s_case_events *e) {
    for (size_t i = 0; i < e->count; i++) {
        free(e->items[i].message);
    }
    e->count = 0;
}

static void s_event_add(struct s_case_events *e, const char *severity, struct anvil_str_view shape,
                        struct anvil_str_view message, struct anvil_str_view id) {
    if (e->count == sizeof(e->items) / sizeof(e->items[0])) {
        return;
    }
    struct s_event *ev = &e->items[e->count++];
    snprintf(ev->severity, sizeof(ev->severity), "%s", severity);
    snprintf(ev->shape, sizeof(ev->shape), "%.*s", shape.len ? (int)shape.len : 1, shape.len ? shape.ptr : "-");
    snprintf(ev->id, sizeof(ev->id), "%.*s", (int)id.len, id.ptr);
    ev->message = malloc(message.len + 1);
    if (!ev->message) {
        exit(2);
    }
    memcpy(ev->message, message.ptr, message.len);
    ev->message[message.len] = '\0';
}

/* Parses X.errors: `[SEVERITY] shape: message | EventId` per line, as SmithyTestCase's pattern does. */
static void s_expected_events(const char *path, struct s_case_events *out) {
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    struct anvil_str_view all = anvil_sv(text, len);
    size_t start = 0;
    while (start < all.len) {
        size_t nl = anvil_sv_find_byte(all, start, '\n');
        size_t end = nl == SIZE_MAX ? all.len : nl;
        struct anvil_str_view line = anvil_sv_trim(anvil_sv_slice(all, start, end - start));
        start = end + 1;
        size_t close = anvil_sv_find_byte(line, 0, ']');
        if (line.len == 0 || line.ptr[0] != '[' || close == SIZE_MAX) {
            continue;
        }
        char severity[16];
        snprintf(severity, sizeof(severity), "%.*s", (int)(close - 1), line.ptr + 1);
        struct anvil_str_view rest = anvil_sv_slice(line, close + 2, SIZE_MAX);
        size_t colon = anvil_sv_find_byte(rest, 0, ':');
        if (colon == SIZE_MAX) {
            continue;
        }
        struct anvil_str_view shape = anvil_sv_slice(rest, 0, colon);
        struct anvil_str_view tail = anvil_sv_slice(rest, colon + 1, SIZE_MAX);
        if (tail.len && tail.ptr[0] == ' ') {
            tail = anvil_sv_slice(tail, 1, SIZE_MAX);
        }
        size_t bar = SIZE_MAX;
        for (size_t i = 0; i + 2 < tail.len; i++) {
            if (tail.ptr[i] == ' ' && tail.ptr[i + 1] == '|' && tail.ptr[i + 2] == ' ') {
                bar = i; /* the last " | ": the message is greedy */
            }
        }
        if (bar == SIZE_MAX) {
            continue;
        }
        s_event_add(out, severity, shape, anvil_sv_slice(tail, 0, bar), anvil_sv_slice(tail, bar + 3, SIZE_MAX));
    }
    free(text);
}

static const char *s_severity_name(enum anvil_severity s) {
    static const char *const names[] = {"NOTE", "WARNING", "DANGER", "ERROR"};
    return names[s];
}

static void s_actual_add(struct s_case_events *out, const struct anvil_events *events) {
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        s_event_add(out, s_severity_name(e->severity), e->shape_id, anvil_sv_from_cstr(e->message),
                    anvil_sv_from_cstr(e->event_id));
    }
}

/* A syntax error is one ERROR event: "[SHAPE: ]Syntax error at ..." after the file name. */
static void s_syntax_event(struct s_case_events *out, const char *message) {
    const char *m = strstr(message, ": ");
    m = m ? m + 2 : message; /* after the file name */
    const char *at = strstr(m, ": Syntax error");
    struct anvil_str_view shape = anvil_sv("", 0);
    if (at && strncmp(m, "Syntax error", 12) != 0) {
        shape = anvil_sv(m, (size_t)(at - m));
        m = at + 2;
    }
    s_event_add(out, "ERROR", shape, anvil_sv_from_cstr(m), ANVIL_SV("Model"));
}

/* SmithyTestCase.compareEvents, with newlines in the actual message escaped as the .errors files have them. */
static bool s_event_match(const struct s_event *want, const struct s_event *got) {
    if (strcmp(want->severity, got->severity) != 0 || strcmp(want->shape, got->shape) != 0 ||
        !strstr(got->id, want->id)) {
        return false;
    }
    const char *w = want->message, *g = got->message;
    for (; *w; w++, g++) {
        if (*g == '\n' || *g == '\r') {
            if (w[0] != '\\' || w[1] != 'n') {
                return false;
            }
            w++;
        } else if (*g != *w) {
            return false;
        }
    }
    return true;
}

/* Event ids anvil gives (the loader's, then its validators'); a case expecting others is skipped. */
static bool s_anvil_gives(const struct s_event *e) {
    static const char *const ids[] = {"Model",
                                      "Model.BadDocumentationComment",
                                      "Model.IgnoredDuplicateDefinition",
                                      "EnumShape",
                                      "SyntacticShapeIdTarget",
                                      "Target",
                                      "PaginatedTrait",
                                      "WaitableTrait",
                                      "WaitableTraitInvalidErrorType",
                                      "WaitableTraitJmespathProblem",
                                      "UniqueWaiterNames",
                                      "RequestCompressionTrait",
                                      "IdempotencyTokenIgnored"};
    if (strcmp(e->severity, "SUPPRESSED") == 0) {
        return false;
    }
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        size_t n = strlen(ids[i]);
        if (strncmp(e->id, ids[i], n) == 0 && (e->id[n] == '\0' || e->id[n] == '.')) {
            return true;
        }
    }
    return false;
}

/* Whether each event of `these` has a match in `those` (expected ones first when `expected`); prints the rest. */
static bool s_all_matched(const char *name, const char *what, const struct s_case_events *these,
                          const struct s_case_events *those, bool expected) {
    bool ok = true;
    for (size_t i = 0; i < these->count; i++) {
        bool found = false;
        for (size_t k = 0; k < those->count && !found; k++) {
            found = expected ? s_event_match(&these->items[i], &those->items[k])
                             : s_event_match(&those->items[k], &these->items[i]);
        }
        if (!found) {
            const struct s_event *e = &these->items[i];
            printf("  FAIL events %s: %s [%s] %s: %s | %s\n", name, what, e->severity, e->shape, e->message, e->id);
            ok = false;
        }
    }
    return ok;
}

struct s_errorfiles {
    const char *with; /* a trait-definition file added to every case (Smithy has it on its classpath), or NULL */
    int passed, failed, skipped;
    char skipped_names[8192];
};

static void s_errorfile_case(const char *path, void *user) {
    struct s_errorfiles *v = user;
    size_t len = strlen(path);
    size_t dot = len;
    while (dot > 0 && path[dot - 1] != '.') {
        dot--;
    }
    if (strcmp(path + dot, "smithy") != 0 && strcmp(path + dot, "json") != 0) {
        return;
    }
    char errors[4096];
    snprintf(errors, sizeof(errors), "%.*serrors", (int)dot, path);
    FILE *probe = fopen(errors, "r");
    if (!probe) {
        return;
    }
    fclose(probe);
    static struct s_case_events want, got;
    s_expected_events(errors, &want);
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char missing[512] = "";
    for (size_t i = 0; i < want.count; i++) {
        if (!s_anvil_gives(&want.items[i]) && !strstr(missing, want.items[i].id)) {
            size_t used = strlen(missing);
            snprintf(missing + used, sizeof(missing) - used, "%s%s%s", used ? ", " : "needs ",
                     strcmp(want.items[i].severity, "SUPPRESSED") == 0 ? "SUPPRESSED " : "", want.items[i].id);
        }
    }
    /* Cases anvil cannot match by design, with the reason. */
    static const char *const gaps[][2] = {
        {"mixins-detects-cycles3.json", "Smithy lists a cycle's shapes from where Java's HashMap order starts its "
                                        "walk; anvil starts at the first shape defined"},
        {"invalid-message-jmespath.smithy", "the JMESPath syntax error is worded by Smithy's own JMESPath parser"},
        {"invalid-message-array-of-non-strings.smithy",
         "needs array element types in anvil's JMESPath static checker (it types arrays as a whole)"},
    };
    for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]) && !missing[0]; i++) {
        if (strcmp(name, gaps[i][0]) == 0) {
            snprintf(missing, sizeof(missing), "%s", gaps[i][1]);
        }
    }
    if (missing[0]) {
        v->skipped++;
        size_t used = strlen(v->skipped_names);
        snprintf(v->skipped_names + used, sizeof(v->skipped_names) - used, "  skipped %s: %s\n", name, missing);
        s_events_free(&want);
        return;
    }
    struct anvil_model *m = NULL;
    struct anvil_events *events = NULL, *validated = NULL;
    struct anvil_diag d;
    int rc = s_assemble(path, v->with, &m, &events, &d);
    s_same(m, path);
    if (rc == ANVIL_ESYNTAX) {
        s_syntax_event(&got, d.message);
    } else {
        s_actual_add(&got, events);
        if (rc == ANVIL_OK && anvil_model_validate(m, NULL, &validated) == ANVIL_OK) {
            s_actual_add(&got, validated);
        }
        if (rc != ANVIL_OK && rc != ANVIL_EMODEL) {
            s_event_add(&got, "ERROR", anvil_sv("", 0), anvil_sv_from_cstr(d.message), ANVIL_SV("anvil"));
        }
    }
    bool ok = s_all_matched(name, "missing", &want, &got, true);
    ok = s_all_matched(name, "extra", &got, &want, false) && ok;
    ok ? v->passed++ : v->failed++;
    s_events_free(&want);
    s_events_free(&got);
    anvil_events_destroy(validated);
    anvil_events_destroy(events);
    anvil_model_destroy(m);
}

/* ---- upgrade ---- */

struct s_paths {
    char *items[16];
    size_t count;
    const char *skip; /* a file name left out */
};

static void s_collect(const char *path, void *user) {
    struct s_paths *p = user;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t n = strlen(name);
    bool model = (n > 7 && strcmp(name + n - 7, ".smithy") == 0) || (n > 5 && strcmp(name + n - 5, ".json") == 0);
    if (model && strcmp(name, p->skip) != 0 && p->count < 16) {
        p->items[p->count++] = strdup(path);
    }
}

/* Assembles `count` files, or (text != NULL) one JSON AST text named `name`. */
static int s_assemble_list(char *const *paths, size_t count, const char *text, struct anvil_model **model,
                           struct anvil_events **events, struct anvil_diag *diag) {
    struct anvil_model_source src[16];
    char *texts[16] = {0};
    if (text) {
        src[0] = (struct anvil_model_source){"ast.json", text, strlen(text), ANVIL_MODEL_FORMAT_JSON};
        count = 1;
    }
    for (size_t i = 0; !text && i < count; i++) {
        size_t len;
        texts[i] = anvil_test_read_file(paths[i], &len);
        if (!texts[i]) {
            fprintf(stderr, "cannot read %s\n", paths[i]);
            exit(2);
        }
        const char *slash = strrchr(paths[i], '/');
        src[i] = (struct anvil_model_source){slash ? slash + 1 : paths[i], texts[i], len, ANVIL_MODEL_FORMAT_AUTO};
    }
    int rc = anvil_model_assemble(NULL, src, count, NULL, model, events, diag);
    for (size_t i = 0; i < 16; i++) {
        free(texts[i]);
    }
    return rc;
}

struct s_counts {
    int passed, failed;
};

static void s_upgrade_case(const char *path, void *user) {
    struct s_counts *v = user;
    if (strcmp(strrchr(path, '/'), "/upgraded.smithy") != 0) {
        return;
    }
    char dir[4096];
    snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
    struct s_paths files = {.skip = "upgraded.smithy"};
    anvil_test_walk(dir, "", s_collect, &files);
    char *upgraded[1] = {(char *)path};
    struct anvil_model *a = NULL, *b = NULL;
    struct anvil_diag da, db;
    int ra = s_assemble_list(files.items, files.count, NULL, &a, NULL, &da);
    int rb = s_assemble_list(upgraded, 1, NULL, &b, NULL, &db);
    s_same(a, dir);
    s_same(b, path);
    /* box-in-v2 fails on both sides (its upgraded.smithy says so): the same error is the same result. */
    bool same = ra == ANVIL_OK && rb == ANVIL_OK ? anvil_json_equal(anvil_model_ast(a), anvil_model_ast(b))
                                                 : ra == rb && strcmp(da.message, db.message) == 0;
    if (same) {
        v->passed++;
    } else {
        v->failed++;
        printf("  FAIL upgrade %s: %s\n", dir,
               ra != ANVIL_OK   ? da.message
               : rb != ANVIL_OK ? db.message
                                : "the ASTs differ");
    }
    anvil_model_destroy(a);
    anvil_model_destroy(b);
    for (size_t i = 0; i < files.count; i++) {
        free(files.items[i]);
    }
}

/* Smithy's NullableIndex.isMemberNullable in its default (CLIENT) mode, from the JSON AST: Foo$member. */
static bool s_v2_nullable(const struct anvil_json *ast, const char *member) {
    const struct anvil_json *foo =
        anvil_json_object_get_cstr(anvil_json_object_get_cstr(ast, "shapes"), "smithy.example#Foo");
    const struct anvil_json *members = anvil_json_object_get_cstr(foo, "members");
    const struct anvil_json *m = anvil_json_object_get_cstr(members, member);
    if (!m && anvil_json_len(members) == 1) {
        m = &anvil_json_object_at(members, 0)->value; /* a file named unlike its one member */
    }
    const struct anvil_json *traits = anvil_json_object_get_cstr(m, "traits");
    const struct anvil_json *dflt = anvil_json_object_get_cstr(traits, "smithy.api#default");
    bool required = anvil_json_object_get_cstr(traits, "smithy.api#required") != NULL;
    bool client_optional = anvil_json_object_get_cstr(traits, "smithy.api#clientOptional") != NULL;
    return client_optional || !(required || (dflt && !anvil_json_is_null(dflt)));
}

static void s_box_case(const char *path, void *user) {
    struct s_counts *v = user;
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    const char *want = text ? strstr(text, "\"v2\": ") : NULL;
    if (!want) {
        printf("  FAIL box %s: no v2 expectation on line 1\n", path);
        v->failed++;
        free(text);
        return;
    }
    bool nullable = strncmp(want + 6, "true", 4) == 0;
    free(text);
    const char *slash = strrchr(path, '/');
    char member[256];
    snprintf(member, sizeof(member), "%.*s", (int)(strlen(slash + 1) - 7), slash + 1);
    char *paths[1] = {(char *)path};
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag d;
    const char *why = NULL;
    int rc = s_assemble_list(paths, 1, NULL, &model, &events, &d);
    struct anvil_buf ast;
    anvil_buf_init(&ast, NULL, 0);
    for (int trip = 0; trip < 3 && !why; trip++) {
        s_same(model, path);
        if (rc != ANVIL_OK || anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR)) {
            why = trip ? "the JSON AST anvil wrote does not load" : d.message;
        } else if (s_v2_nullable(anvil_model_ast(model), member) != nullable) {
            why = trip ? "v2 nullability changed through the JSON AST" : "wrong v2 nullability";
        } else if (trip < 2) {
            struct anvil_buf next;
            anvil_buf_init(&next, NULL, 0);
            anvil_json_write(anvil_model_ast(model), 0, &next);
            anvil_buf_append(&next, "", 1);
            if (trip && strcmp(next.data, ast.data) != 0) {
                why = "the JSON AST changed when read back";
            }
            anvil_buf_clean_up(&ast);
            ast = next;
            anvil_events_destroy(events);
            anvil_model_destroy(model);
            model = NULL;
            events = NULL;
            rc = s_assemble_list(NULL, 0, ast.data, &model, &events, &d);
        }
    }
    if (why) {
        v->failed++;
        printf("  FAIL box %s: %s\n", path, why);
    } else {
        v->passed++;
    }
    anvil_buf_clean_up(&ast);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: smithy_idl valid DIR | invalid DIR | parse DIR...\n");
        return 2;
    }
    if (strcmp(argv[1], "valid") == 0) {
        char shared[4096];
        snprintf(shared, sizeof(shared), "%s/__shared.json", argv[2]);
        struct s_valid v = {shared, 0, 0};
        anvil_test_walk(argv[2], ".smithy", s_valid_case, &v);
        printf("Smithy loader/valid: %d passed, %d failed\n", v.passed, v.failed);
        s_failed = v.failed;
    } else if (strcmp(argv[1], "invalid") == 0) {
        struct s_invalid v = {0, 0};
        anvil_test_walk(argv[2], ".smithy", s_invalid_case, &v);
        printf("Smithy loader/invalid: %d passed, %d failed\n", v.passed, v.failed);
        s_failed = v.failed;
    } else if (strcmp(argv[1], "events") == 0) {
        static struct s_errorfiles v;
        v.with = argc > 3 ? argv[3] : NULL;
        anvil_test_walk(argv[2], "", s_errorfile_case, &v);
        printf("Smithy errorfiles %s: %d passed, %d failed, %d skipped\n", v.with ? "waiters" : "loader", v.passed,
               v.failed, v.skipped);
        fputs(v.skipped_names, stdout);
        s_failed = v.failed;
    } else if (strcmp(argv[1], "upgrade") == 0) {
        struct s_counts v = {0, 0};
        anvil_test_walk(argv[2], ".smithy", s_upgrade_case, &v);
        printf("Smithy loader/upgrade: %d passed, %d failed\n", v.passed, v.failed);
        s_failed = v.failed;
    } else if (strcmp(argv[1], "box") == 0) {
        struct s_counts v = {0, 0};
        anvil_test_walk(argv[2], ".smithy", s_box_case, &v);
        printf("Smithy loader/upgrade-box (v2 nullability, twice through the JSON AST): %d passed, %d failed\n",
               v.passed, v.failed);
        printf(
            "  skipped v1-box, v1-client-zero-value: NullableIndex modes for 1.0 tooling; anvil has no such index\n");
        s_failed = v.failed;
    } else {
        struct s_parse v = {0, 0};
        for (int i = 2; i < argc; i++) {
            anvil_test_walk(argv[i], ".smithy", s_parse_case, &v);
        }
        printf("Smithy IDL files loaded without a syntax error: %d passed, %d failed\n", v.passed, v.failed);
        s_failed = v.failed;
    }
    printf("  assembled models the same as the model their own JSON AST loads into: %d passed, %d failed\n",
           s_same_passed, s_same_failed);
    return s_failed || s_same_failed ? 1 : 0;
}
