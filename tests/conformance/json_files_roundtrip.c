/*
 * Round-trips real documents: every .json file under the given folders must
 * parse, and parse -> write -> parse must give an equal document whose second
 * writing is byte-identical to the first, compact and pretty. Run on the 39
 * AWS Smithy models in ../shared/testdata (up to 3.3 MB each).
 * Usage: json_files_roundtrip DIR...
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "read_file.h"

static size_t s_passed, s_failed, s_bytes;

static const char *s_check(const char *text, size_t len, unsigned flags) {
    struct anvil_json_doc *doc = NULL, *again = NULL;
    struct anvil_buf first, second;
    anvil_buf_init(&first, NULL, 0);
    anvil_buf_init(&second, NULL, 0);
    struct anvil_diag diag;
    const char *problem = NULL;
    if (anvil_json_parse(NULL, text, len, NULL, &doc, &diag) != ANVIL_OK) {
        problem = "does not parse";
        fprintf(stderr, "%zu:%zu: %s\n", diag.line, diag.column, diag.message);
    } else if (anvil_json_write(anvil_json_doc_root(doc), flags, &first) != ANVIL_OK) {
        problem = "write failed";
    } else if (anvil_json_parse(NULL, first.data, first.len, NULL, &again, NULL) != ANVIL_OK) {
        problem = "written text does not parse";
    } else if (!anvil_json_equal(anvil_json_doc_root(doc), anvil_json_doc_root(again))) {
        problem = "reparsed document differs";
    } else if (anvil_json_write(anvil_json_doc_root(again), flags, &second) != ANVIL_OK || first.len != second.len ||
               memcmp(first.data, second.data, first.len) != 0) {
        problem = "second write differs";
    }
    anvil_json_doc_destroy(doc);
    anvil_json_doc_destroy(again);
    anvil_buf_clean_up(&first);
    anvil_buf_clean_up(&second);
    return problem;
}

static void s_file(const char *path) {
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    const char *problem = text ? s_check(text, len, 0) : "cannot read";
    if (!problem && text) {
        problem = s_check(text, len, ANVIL_JSON_WRITE_PRETTY);
    }
    if (problem) {
        printf("FAIL %s: %s\n", path, problem);
        s_failed++;
    } else {
        s_passed++;
        s_bytes += len;
    }
    free(text);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            printf("FAIL %s: cannot open\n", argv[i]);
            s_failed++;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
                char path[4096];
                snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
                s_file(path);
            }
        }
        closedir(dir);
    }
    printf("real documents round-tripped: %zu files, %.1f MB\n", s_passed, (double)s_bytes / 1e6);
    printf("%zu passed, %zu failed\n", s_passed, s_failed);
    return s_failed == 0 && s_passed > 0 ? 0 : 1;
}
