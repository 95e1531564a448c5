/*
 * anvil's IDL writer against Smithy's own serializer tests and the AWS models.
 *
 *   serialize DIR   Smithy's SmithyIdlModelSerializerTest, default options,
 *                   with DIR = .../model/shapes/idl-serialization:
 *                   cases/X.smithy read and written back give X.smithy byte
 *                   for byte (one file each); enum-mixin-input.smithy gives
 *                   enum-mixin-output.smithy; multiple-namespaces/input.json
 *                   gives output/NS.smithy and output/metadata.smithy. The
 *                   tests that set serializer options anvil does not have
 *                   are skipped by name.
 *   roundtrip DIR   each JSON AST model in DIR -> IDL (one file per
 *                   namespace plus metadata.smithy) -> read back: the same
 *                   shapes and metadata, no DANGER or ERROR event, and
 *                   writing the model read back gives the same bytes.
 *
 * Usage: smithy_idl_write serialize DIR | roundtrip DIR
 * Prints the counts and each failure; exits 1 when any case fails.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "model_same.h"
#include "read_file.h"
#include "walk.h"

struct s_tally {
    int passed, failed;
    size_t idl_bytes, json_bytes;
};

static char *s_read(const char *path, size_t *len) {
    char *text = anvil_test_read_file(path, len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    return text;
}

/* Java's replaceAll("\\R", "\n") for the files compared here: CR LF and lone CR become LF. */
static size_t s_unix_newlines(char *text, size_t len) {
    size_t out = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\r') {
            text[out++] = '\n';
            i += i + 1 < len && text[i + 1] == '\n';
        } else {
            text[out++] = text[i];
        }
    }
    return out;
}

static const char *s_base(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Assembles the model in `path`; `*len` (may be NULL) gets the file's size. */
static struct anvil_model *s_load(const char *path, size_t *len_out, struct anvil_diag *diag) {
    size_t len;
    char *text = s_read(path, &len);
    if (len_out) {
        *len_out = len;
    }
    struct anvil_model_source src = {s_base(path), text, len, ANVIL_MODEL_FORMAT_AUTO};
    struct anvil_model *model = NULL;
    if (anvil_model_assemble(NULL, &src, 1, NULL, &model, NULL, diag) != ANVIL_OK) {
        model = NULL;
    }
    free(text);
    return model;
}

/* The model's IDL files as Smithy's serializer gives them: NS.smithy for each namespace, then metadata.smithy. */
struct s_files {
    size_t count;
    char names[64][256];
    struct anvil_buf text[64];
};

static int s_write_all(const struct anvil_model *model, struct s_files *files, struct anvil_diag *diag) {
    struct anvil_str_view ns[63];
    size_t n = anvil_model_namespaces(model, ns, 63);
    files->count = 0;
    if (n > 63) {
        return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "more than 63 namespaces");
    }
    bool metadata = anvil_json_len(anvil_model_metadata(model)) > 0;
    for (size_t i = 0; i < n + metadata; i++) {
        struct anvil_idl_write_options options = {.with_metadata = i == n};
        struct anvil_str_view which = i < n ? ns[i] : anvil_sv("", 0);
        snprintf(files->names[i], sizeof(files->names[i]), "%.*s.smithy", i < n ? (int)which.len : 8,
                 i < n ? which.ptr : "metadata");
        anvil_buf_init(&files->text[i], NULL, 0);
        files->count = i + 1;
        int rc = anvil_model_write_idl(model, which, &options, &files->text[i], diag);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    return ANVIL_OK;
}

static void s_files_free(struct s_files *files) {
    for (size_t i = 0; i < files->count; i++) {
        anvil_buf_clean_up(&files->text[i]);
    }
    files->count = 0;
}

static void s_fail(struct s_tally *t, const char *what, const char *path, const char *why) {
    t->failed++;
    printf("  FAIL %s %s: %s\n", what, path, why);
}

/* Compares written text with an expected file; says where they first differ. */
static bool s_same_text(const char *expected_path, const struct anvil_buf *got, char *why, size_t why_len) {
    size_t len;
    char *want = s_read(expected_path, &len);
    len = s_unix_newlines(want, len);
    size_t i = 0;
    while (i < len && i < got->len && want[i] == got->data[i]) {
        i++;
    }
    bool same = i == len && i == got->len;
    if (!same) {
        size_t line = 1;
        for (size_t k = 0; k < i; k++) {
            line += want[k] == '\n';
        }
        snprintf(why, why_len, "differs from %s at line %zu", s_base(expected_path), line);
    }
    free(want);
    return same;
}

/* ---- serialize ---- */

/* Reads `input`, writes it, and compares with `expected` (a file, or a folder holding NAME.smithy for each output). */
static void s_serialize(struct s_tally *t, const char *input, const char *expected, bool expected_is_dir) {
    struct anvil_diag diag;
    struct anvil_model *model = s_load(input, NULL, &diag);
    if (!model) {
        s_fail(t, "serialize", input, diag.message);
        return;
    }
    struct s_files files = {.count = 0};
    char why[ANVIL_DIAG_MESSAGE_MAX + 64] = "";
    bool ok = s_write_all(model, &files, &diag) == ANVIL_OK;
    if (!ok) {
        snprintf(why, sizeof(why), "%s", diag.message);
    } else if (!expected_is_dir && files.count != 1) {
        ok = false;
        snprintf(why, sizeof(why), "%zu files written, 1 expected", files.count);
    }
    for (size_t i = 0; ok && i < files.count; i++) {
        char path[4096];
        if (expected_is_dir) {
            snprintf(path, sizeof(path), "%s/%s", expected, files.names[i]);
        } else {
            snprintf(path, sizeof(path), "%s", expected);
        }
        ok = s_same_text(path, &files.text[i], why, sizeof(why));
        if (!ok && getenv("SMITHY_IDL_VERBOSE")) {
            fprintf(stderr, "---- %s\n%.*s", files.names[i], (int)files.text[i].len, files.text[i].data);
        }
    }
    if (ok) {
        t->passed++;
    } else {
        s_fail(t, "serialize", input, why);
    }
    s_files_free(&files);
    anvil_model_destroy(model);
}

static void s_serialize_case(const char *path, void *user) {
    s_serialize(user, path, path, false);
}

static int s_run_serialize(const char *dir) {
    static const char *const skipped[][2] = {
        {"out-of-order.smithy", "SOURCE_LOCATION component order (anvil writes Smithy's default order only)"},
        {"alphabetical/", "ALPHA_NUMERIC component order (anvil writes Smithy's default order only)"},
        {"custom-inline-io.smithy", "inline suffixes Request/Response (anvil uses the default Input/Output)"},
        {"coerced-io/", "coerceInlineIo (anvil writes no coercion, Smithy's default)"},
        {"inferred-io/", "inferInlineIoSuffixes (anvil uses the default suffixes)"},
        {"test-model.json", "shape, metadata and trait filters (anvil writes whole models)"},
    };
    struct s_tally t = {0, 0, 0, 0};
    char cases[4096], a[4096], b[4096];
    snprintf(cases, sizeof(cases), "%s/cases", dir);
    anvil_test_walk(cases, ".smithy", s_serialize_case, &t);
    snprintf(a, sizeof(a), "%s/enum-mixin-input.smithy", dir);
    snprintf(b, sizeof(b), "%s/enum-mixin-output.smithy", dir);
    s_serialize(&t, a, b, false);
    snprintf(a, sizeof(a), "%s/multiple-namespaces/input.json", dir);
    snprintf(b, sizeof(b), "%s/multiple-namespaces/output", dir);
    s_serialize(&t, a, b, true);
    printf("Smithy IDL serializer cases written byte for byte: %d passed, %d failed, %zu skipped\n", t.passed, t.failed,
           sizeof(skipped) / sizeof(skipped[0]));
    for (size_t i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++) {
        printf("  skipped %s: %s\n", skipped[i][0], skipped[i][1]);
    }
    return t.failed;
}

/* ---- roundtrip ---- */

static bool s_same_model(const struct anvil_model *x, const struct anvil_model *y) {
    const struct anvil_json *a = anvil_model_ast(x), *b = anvil_model_ast(y);
    return anvil_json_equal(anvil_json_object_get_cstr(a, "shapes"), anvil_json_object_get_cstr(b, "shapes")) &&
           anvil_json_equal(anvil_model_metadata(x), anvil_model_metadata(y));
}

static void s_roundtrip_case(const char *path, void *user) {
    struct s_tally *t = user;
    size_t json_len;
    struct anvil_diag diag;
    struct anvil_model *original = s_load(path, &json_len, &diag);
    if (!original) {
        s_fail(t, "roundtrip", path, diag.message);
        return;
    }
    struct s_files first = {.count = 0}, second = {.count = 0};
    struct anvil_model *back = NULL;
    struct anvil_events *events = NULL;
    char why[ANVIL_DIAG_MESSAGE_MAX + 64] = "";
    if (s_write_all(original, &first, &diag) != ANVIL_OK) {
        snprintf(why, sizeof(why), "writing: %s", diag.message);
    } else {
        struct anvil_model_source src[64];
        for (size_t i = 0; i < first.count; i++) {
            src[i] = (struct anvil_model_source){first.names[i], first.text[i].data, first.text[i].len,
                                                 ANVIL_MODEL_FORMAT_IDL};
            t->idl_bytes += first.text[i].len;
        }
        if (anvil_model_assemble(NULL, src, first.count, NULL, &back, &events, &diag) != ANVIL_OK) {
            snprintf(why, sizeof(why), "reading the IDL back: %s", diag.message);
        } else if (anvil_events_count_at_least(events, ANVIL_SEVERITY_WARNING) > 0) {
            const struct anvil_event *e = anvil_events_at(events, 0);
            snprintf(why, sizeof(why), "reading the IDL back: %.*s: %s", (int)e->shape_id.len, e->shape_id.ptr,
                     e->message);
        } else if (!s_same_model(original, back)) {
            snprintf(why, sizeof(why), "the model read back differs");
        } else if (!anvil_test_models_same(original, back, why, sizeof(why)) ||
                   !anvil_test_model_same_as_ast(back, NULL, why, sizeof(why))) {
            /* `why` says how */
        } else if (s_write_all(back, &second, &diag) != ANVIL_OK) {
            snprintf(why, sizeof(why), "writing again: %s", diag.message);
        } else {
            for (size_t i = 0; !why[0] && i < first.count; i++) {
                if (second.count != first.count ||
                    !anvil_sv_eq(anvil_buf_view(&first.text[i]), anvil_buf_view(&second.text[i]))) {
                    snprintf(why, sizeof(why), "writing the model read back gives other text (%s)", first.names[i]);
                }
            }
        }
    }
    if (why[0]) {
        s_fail(t, "roundtrip", path, why);
    } else {
        t->passed++;
        t->json_bytes += json_len;
    }
    s_files_free(&first);
    s_files_free(&second);
    anvil_events_destroy(events);
    anvil_model_destroy(back);
    anvil_model_destroy(original);
}

static int s_run_roundtrip(const char *dir) {
    struct s_tally t = {0, 0, 0, 0};
    anvil_test_walk(dir, ".json", s_roundtrip_case, &t);
    printf("AWS models JSON AST -> IDL -> model, equal and stable: %d passed, %d failed (%.1f MB of JSON, %.1f MB of "
           "IDL)\n",
           t.passed, t.failed, (double)t.json_bytes / 1e6, (double)t.idl_bytes / 1e6);
    return t.failed;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "serialize") != 0 && strcmp(argv[1], "roundtrip") != 0)) {
        fprintf(stderr, "usage: smithy_idl_write serialize DIR | roundtrip DIR\n");
        return 2;
    }
    int failed = strcmp(argv[1], "serialize") == 0 ? s_run_serialize(argv[2]) : s_run_roundtrip(argv[2]);
    return failed ? 1 : 0;
}
