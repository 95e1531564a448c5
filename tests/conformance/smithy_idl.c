/*
 * Smithy's own IDL corpora through anvil's reader (paths under
 * smithy-lang/smithy-model/src/test/resources/software/amazon/smithy/model/):
 *
 *   valid     loader/valid: X.smithy + __shared.json assembles to the same
 *             JSON AST as X.json + __shared.json (semantic equality).
 *   invalid   loader/invalid: each case fails, and the message or an ERROR
 *             event contains the text on its line 1.
 *   parse     every other .smithy file given: loads with no syntax error.
 *
 * Usage: smithy_idl valid DIR | invalid DIR | parse DIR...
 * Prints the counts and each failure; exits 1 when any case fails.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "read_file.h"
#include "walk.h"

static int s_failed;

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
    if (rc == ANVIL_ESYNTAX) {
        v->failed++;
        printf("  FAIL parse %s\n", d.message);
    } else {
        v->passed++;
    }
    anvil_events_destroy(events);
    anvil_model_destroy(m);
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
    } else {
        struct s_parse v = {0, 0};
        for (int i = 2; i < argc; i++) {
            anvil_test_walk(argv[i], ".smithy", s_parse_case, &v);
        }
        printf("Smithy IDL files loaded without a syntax error: %d passed, %d failed\n", v.passed, v.failed);
        s_failed = v.failed;
    }
    return s_failed ? 1 : 0;
}
