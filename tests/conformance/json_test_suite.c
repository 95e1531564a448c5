/*
 * JSONTestSuite (nst/JSONTestSuite, test_parsing/): every y_ file must parse,
 * every n_ file must be rejected, and every i_ file must get the decision
 * docs/json.md records (the table below). Every accepted document must also
 * round-trip: parse -> write -> parse gives an equal document, and writing
 * that again gives the same bytes (compact and pretty).
 *
 * Usage: json_test_suite [--scalar] DIR. Prints the counts; exit 0 when all
 * pass. --scalar runs the parser's portable scans instead of its SIMD ones.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "read_file.h"
#include "json/json_internal.h"

/* docs/json.md, "Implementation-defined cases": true = accepted. */
static const struct {
    const char *name;
    bool accept;
} s_decisions[] = {
    {"i_number_double_huge_neg_exp.json", true},
    {"i_number_huge_exp.json", false},
    {"i_number_neg_int_huge_exp.json", false},
    {"i_number_pos_double_huge_exp.json", false},
    {"i_number_real_neg_overflow.json", false},
    {"i_number_real_pos_overflow.json", false},
    {"i_number_real_underflow.json", true},
    {"i_number_too_big_neg_int.json", true},
    {"i_number_too_big_pos_int.json", true},
    {"i_number_very_big_negative_int.json", true},
    {"i_object_key_lone_2nd_surrogate.json", false},
    {"i_string_1st_surrogate_but_2nd_missing.json", false},
    {"i_string_1st_valid_surrogate_2nd_invalid.json", false},
    {"i_string_UTF-16LE_with_BOM.json", false},
    {"i_string_UTF-8_invalid_sequence.json", false},
    {"i_string_UTF8_surrogate_U+D800.json", false},
    {"i_string_incomplete_surrogate_and_escape_valid.json", false},
    {"i_string_incomplete_surrogate_pair.json", false},
    {"i_string_incomplete_surrogates_escape_valid.json", false},
    {"i_string_invalid_lonely_surrogate.json", false},
    {"i_string_invalid_surrogate.json", false},
    {"i_string_invalid_utf-8.json", false},
    {"i_string_inverted_surrogates_U+1D11E.json", false},
    {"i_string_iso_latin_1.json", false},
    {"i_string_lone_second_surrogate.json", false},
    {"i_string_lone_utf8_continuation_byte.json", false},
    {"i_string_not_in_unicode_range.json", false},
    {"i_string_overlong_sequence_2_bytes.json", false},
    {"i_string_overlong_sequence_6_bytes.json", false},
    {"i_string_overlong_sequence_6_bytes_null.json", false},
    {"i_string_truncated-utf-8.json", false},
    {"i_string_utf16BE_no_BOM.json", false},
    {"i_string_utf16LE_no_BOM.json", false},
    {"i_structure_500_nested_arrays.json", true},
    {"i_structure_UTF-8_BOM_empty_object.json", true},
};

/* Escaped lone surrogates that ANVIL_JSON_SURROGATES_REPLACE must accept. */
static const char *const s_replaced[] = {
    "i_object_key_lone_2nd_surrogate.json",          "i_string_1st_surrogate_but_2nd_missing.json",
    "i_string_1st_valid_surrogate_2nd_invalid.json", "i_string_incomplete_surrogate_and_escape_valid.json",
    "i_string_incomplete_surrogate_pair.json",       "i_string_incomplete_surrogates_escape_valid.json",
    "i_string_invalid_lonely_surrogate.json",        "i_string_invalid_surrogate.json",
    "i_string_inverted_surrogates_U+1D11E.json",     "i_string_lone_second_surrogate.json",
};

/* Round trip in both styles; returns NULL or what went wrong. */
static const char *s_round_trip(const struct anvil_json *root) {
    static const unsigned styles[] = {ANVIL_JSON_WRITE_COMPACT, ANVIL_JSON_WRITE_PRETTY, ANVIL_JSON_WRITE_ASCII};
    for (size_t s = 0; s < sizeof(styles) / sizeof(styles[0]); s++) {
        struct anvil_buf first, second;
        anvil_buf_init(&first, NULL, 0);
        anvil_buf_init(&second, NULL, 0);
        struct anvil_json_doc *again = NULL;
        const char *problem = NULL;
        if (anvil_json_write(root, styles[s], &first) != ANVIL_OK) {
            problem = "write failed";
        } else if (anvil_json_parse(NULL, first.data, first.len, NULL, &again, NULL) != ANVIL_OK) {
            problem = "written text does not parse";
        } else if (!anvil_json_equal(root, anvil_json_doc_root(again)) ||
                   anvil_json_compare(root, anvil_json_doc_root(again)) != 0) {
            problem = "reparsed document differs";
        } else if (anvil_json_write(anvil_json_doc_root(again), styles[s], &second) != ANVIL_OK ||
                   first.len != second.len || memcmp(first.data, second.data, first.len) != 0) {
            problem = "second write differs from the first";
        }
        anvil_json_doc_destroy(again);
        anvil_buf_clean_up(&first);
        anvil_buf_clean_up(&second);
        if (problem) {
            return problem;
        }
    }
    return NULL;
}

static int s_by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--scalar") == 0) {
        anvil__json_scalar_only = true;
        argv++;
        argc--;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s [--scalar] TEST_PARSING_DIR\n", argv[0]);
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "cannot open %s (is ../shared/testdata beside the checkout?)\n", argv[1]);
        return 2;
    }
    char *names[1024];
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && count < 1024) {
        if (strstr(e->d_name, ".json") && e->d_name[1] == '_') {
            names[count++] = strdup(e->d_name);
        }
    }
    closedir(dir);
    qsort(names, count, sizeof(names[0]), s_by_name);

    size_t pass[3] = {0}, total[3] = {0}, round_trips = 0, replaced = 0, failed = 0, decided = 0;
    for (size_t i = 0; i < count; i++) {
        const char *name = names[i];
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", argv[1], name);
        size_t len = 0;
        char *text = anvil_test_read_file(path, &len);
        if (!text) {
            printf("FAIL %s: cannot read\n", name);
            failed++;
            continue;
        }
        int kind = name[0] == 'y' ? 0 : name[0] == 'n' ? 1 : 2;
        bool want = kind == 0;
        if (kind == 2) {
            bool known = false;
            for (size_t d = 0; d < sizeof(s_decisions) / sizeof(s_decisions[0]); d++) {
                if (strcmp(s_decisions[d].name, name) == 0) {
                    want = s_decisions[d].accept;
                    known = true;
                    decided++;
                }
            }
            if (!known) {
                printf("FAIL %s: no documented decision for this i_ case\n", name);
                failed++;
                total[kind]++;
                free(text);
                continue;
            }
        }
        total[kind]++;
        struct anvil_json_doc *doc = NULL;
        struct anvil_diag diag;
        int rc = anvil_json_parse(NULL, text, len, NULL, &doc, &diag);
        bool accepted = rc == ANVIL_OK;
        if (accepted != want) {
            printf("FAIL %s: %s, expected %s%s%s\n", name, accepted ? "accepted" : "rejected",
                   want ? "accepted" : "rejected", accepted ? "" : ": ", accepted ? "" : diag.message);
            failed++;
        } else if (!accepted &&
                   (diag.line == 0 || diag.message[0] == '\0' || (rc != ANVIL_ESYNTAX && rc != ANVIL_ELIMIT))) {
            printf("FAIL %s: rejected without a position and message (%s)\n", name, anvil_status_name(rc));
            failed++;
        } else {
            const char *problem = accepted ? s_round_trip(anvil_json_doc_root(doc)) : NULL;
            if (problem) {
                printf("FAIL %s: round trip: %s\n", name, problem);
                failed++;
            } else {
                pass[kind]++;
                round_trips += accepted;
            }
        }
        anvil_json_doc_destroy(doc);
        for (size_t r = 0; r < sizeof(s_replaced) / sizeof(s_replaced[0]); r++) {
            if (strcmp(s_replaced[r], name) == 0) {
                struct anvil_json_parse_options options = {.surrogates = ANVIL_JSON_SURROGATES_REPLACE};
                struct anvil_json_doc *lenient = NULL;
                if (anvil_json_parse(NULL, text, len, &options, &lenient, &diag) != ANVIL_OK ||
                    s_round_trip(anvil_json_doc_root(lenient)) != NULL) {
                    printf("FAIL %s: not accepted with ANVIL_JSON_SURROGATES_REPLACE: %s\n", name, diag.message);
                    failed++;
                } else {
                    replaced++;
                }
                anvil_json_doc_destroy(lenient);
            }
        }
        free(text);
    }
    for (size_t i = 0; i < count; i++) {
        free(names[i]);
    }
    if (decided != sizeof(s_decisions) / sizeof(s_decisions[0])) {
        printf("FAIL: %zu documented i_ decisions but %zu i_ files found\n",
               sizeof(s_decisions) / sizeof(s_decisions[0]), decided);
        failed++;
    }
    printf("JSONTestSuite%s: y_ %zu/%zu accepted, n_ %zu/%zu rejected, i_ %zu/%zu as documented, "
           "%zu round trips, %zu lone surrogates replaced\n",
           anvil__json_scalar_only ? " (portable scans)" : "", pass[0], total[0], pass[1], total[1], pass[2], total[2],
           round_trips, replaced);
    size_t passed = pass[0] + pass[1] + pass[2];
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 && count > 300 ? 0 : 1;
}
