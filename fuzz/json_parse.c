/*
 * libFuzzer target: parse -> write -> reparse -> compare -> write again.
 * Every accepted document must survive the round trip in each style with the
 * same bytes; every rejected one must come with a position and a message. The
 * parser's portable scans, reading every key without predicting it
 * (anvil__json_scalar_only), must give the same answer as its SIMD ones: the
 * same document with its members in the same order, or the same error at the
 * same place.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "json/json_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "json fuzz: %s\n", what);
        abort();
    }
}

static void s_round_trip(const struct anvil_json *root, unsigned flags) {
    struct anvil_buf first, second;
    anvil_buf_init(&first, NULL, 0);
    anvil_buf_init(&second, NULL, 0);
    s_check(anvil_json_write(root, flags, &first) == ANVIL_OK, "write failed");
    struct anvil_json_doc *again = NULL;
    struct anvil_json_parse_options options = {.max_depth = ANVIL_JSON_MAX_DEPTH};
    s_check(anvil_json_parse(NULL, first.data, first.len, &options, &again, NULL) == ANVIL_OK,
            "written text does not parse");
    s_check(anvil_json_equal(root, anvil_json_doc_root(again)), "reparsed document is not equal");
    s_check(anvil_json_compare(root, anvil_json_doc_root(again)) == 0, "reparsed document does not compare equal");
    s_check(anvil_json_write(anvil_json_doc_root(again), flags, &second) == ANVIL_OK, "second write failed");
    s_check(first.len == second.len && memcmp(first.data, second.data, first.len) == 0, "second write differs");
    anvil_json_doc_destroy(again);
    anvil_buf_clean_up(&first);
    anvil_buf_clean_up(&second);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The first byte picks options, so the fuzzer explores them too. */
    struct anvil_json_parse_options options = {0};
    if (size > 0) {
        options.duplicates = (data[0] & 1) ? ANVIL_JSON_DUPLICATES_REJECT : ANVIL_JSON_DUPLICATES_LAST_WINS;
        options.surrogates = (data[0] & 2) ? ANVIL_JSON_SURROGATES_REPLACE : ANVIL_JSON_SURROGATES_REJECT;
        options.max_depth = (data[0] & 4) ? 16 : 0;
        options.max_string_bytes = (data[0] & 8) ? 32 : 0;
    }
    struct anvil_json_doc *doc = NULL, *scalar = NULL;
    struct anvil_diag diag, scalar_diag;
    int rc = anvil_json_parse(NULL, (const char *)data, size, &options, &doc, &diag);
    anvil__json_scalar_only = true;
    int scalar_rc = anvil_json_parse(NULL, (const char *)data, size, &options, &scalar, &scalar_diag);
    anvil__json_scalar_only = false;
    s_check(scalar_rc == rc, "the portable scan answers otherwise");
    if (rc == ANVIL_OK) {
        /* Equal, and written to the same bytes: members in the same order, each value the same kind. */
        s_check(anvil_json_equal(anvil_json_doc_root(doc), anvil_json_doc_root(scalar)),
                "the portable scan reads another document");
        struct anvil_buf fast, portable;
        anvil_buf_init(&fast, NULL, 0);
        anvil_buf_init(&portable, NULL, 0);
        s_check(anvil_json_write(anvil_json_doc_root(doc), ANVIL_JSON_WRITE_COMPACT, &fast) == ANVIL_OK &&
                    anvil_json_write(anvil_json_doc_root(scalar), ANVIL_JSON_WRITE_COMPACT, &portable) == ANVIL_OK,
                "write failed");
        s_check(fast.len == portable.len && memcmp(fast.data, portable.data, fast.len) == 0,
                "the portable scan reads the members in another order or form");
        anvil_buf_clean_up(&fast);
        anvil_buf_clean_up(&portable);
    } else {
        s_check(scalar_diag.offset == diag.offset && scalar_diag.line == diag.line &&
                    scalar_diag.column == diag.column && strcmp(scalar_diag.message, diag.message) == 0,
                "the portable scan reports another error");
    }
    anvil_json_doc_destroy(scalar);
    if (rc != ANVIL_OK) {
        s_check(doc == NULL, "error but a document");
        s_check(rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT, "unexpected error code");
        s_check(diag.code == rc && diag.line > 0 && diag.column > 0 && diag.offset <= size && diag.message[0],
                "error without position or message");
        return 0;
    }
    const struct anvil_json *root = anvil_json_doc_root(doc);
    s_round_trip(root, ANVIL_JSON_WRITE_COMPACT);
    s_round_trip(root, ANVIL_JSON_WRITE_PRETTY | ANVIL_JSON_WRITE_ASCII);
    anvil_json_doc_destroy(doc);
    return 0;
}
