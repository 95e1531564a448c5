/*
 * The official JMESPath compliance suite (jmespath.test): every case's
 * result must be JSON-equal to the expected one, and every error case must
 * fail with the same error kind. Cases marked "bench" are skipped (they are
 * benchmarks). Usage: jmespath_compliance DIR; prints per-file and total counts.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "read_file.h"

static size_t s_passed, s_failed, s_skipped;

static void s_print_value(const struct anvil_json *v) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, NULL, 4096);
    if (anvil_json_write(v, 0, &buf) == ANVIL_OK || buf.len) {
        printf("%s", buf.data ? buf.data : "");
    }
    anvil_buf_clean_up(&buf);
}

static bool s_case(const char *file, const struct anvil_json *given, const struct anvil_json *c) {
    const struct anvil_json *expression = anvil_json_object_get_cstr(c, "expression");
    const struct anvil_json *want = anvil_json_object_get_cstr(c, "result");
    const struct anvil_json *want_error = anvil_json_object_get_cstr(c, "error");
    struct anvil_str_view text = anvil_json_string(expression);
    struct anvil_jmespath *expr = NULL;
    struct anvil_diag diag;
    struct anvil_arena *arena = NULL;
    struct anvil_json got;
    int rc = anvil_jmespath_compile(NULL, text.ptr, text.len, NULL, &expr, &diag);
    if (rc == ANVIL_OK) {
        anvil_arena_new(NULL, NULL, &arena);
        rc = anvil_jmespath_search(expr, given, arena, &got, &diag);
    }
    bool ok;
    if (want_error) {
        ok = rc != ANVIL_OK && anvil_sv_eq_cstr(anvil_json_string(want_error), anvil_jmespath_error_kind(rc));
    } else {
        ok = rc == ANVIL_OK && want && anvil_json_equal(&got, want);
    }
    if (!ok) {
        printf("FAIL %s: %.*s\n  want ", file, (int)text.len, text.ptr);
        if (want_error) {
            printf("error %.*s", (int)anvil_json_len(want_error), anvil_json_string_ptr(want_error));
        } else if (want) {
            s_print_value(want);
        }
        printf("\n  got  ");
        if (rc != ANVIL_OK) {
            printf("error %s: %s (column %zu)", anvil_jmespath_error_kind(rc), diag.message, diag.column);
        } else {
            s_print_value(&got);
        }
        printf("\n");
    }
    anvil_arena_destroy(arena);
    anvil_jmespath_destroy(expr);
    return ok;
}

static void s_file(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        printf("FAIL %s: cannot read or parse the suite file\n", name);
        s_failed++;
        free(text);
        return;
    }
    size_t passed = 0, failed = 0;
    const struct anvil_json *suites = anvil_json_doc_root(doc);
    for (size_t s = 0; s < anvil_json_len(suites); s++) {
        const struct anvil_json *suite = anvil_json_array_at(suites, s);
        const struct anvil_json *given = anvil_json_object_get_cstr(suite, "given");
        const struct anvil_json *cases = anvil_json_object_get_cstr(suite, "cases");
        for (size_t i = 0; i < anvil_json_len(cases); i++) {
            const struct anvil_json *c = anvil_json_array_at(cases, i);
            if (anvil_json_object_get_cstr(c, "bench")) {
                s_skipped++;
                continue;
            }
            if (s_case(name, given, c)) {
                passed++;
            } else {
                failed++;
            }
        }
    }
    printf("  %-20s %4zu passed, %zu failed\n", name, passed, failed);
    s_passed += passed;
    s_failed += failed;
    anvil_json_doc_destroy(doc);
    free(text);
}

static int s_by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s COMPLIANCE_DIR\n", argv[0]);
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    char *names[64];
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && count < 64) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
            names[count++] = strdup(e->d_name);
        }
    }
    closedir(dir);
    qsort(names, count, sizeof(names[0]), s_by_name);
    for (size_t i = 0; i < count; i++) {
        s_file(argv[1], names[i]);
        free(names[i]);
    }
    printf("JMESPath compliance (official suite): %zu passed, %zu failed, %zu bench cases skipped\n", s_passed,
           s_failed, s_skipped);
    printf("%zu passed, %zu failed\n", s_passed, s_failed);
    return s_failed == 0 && s_passed >= 892 ? 0 : 1;
}
