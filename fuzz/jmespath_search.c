/*
 * libFuzzer target: the input is "EXPRESSION\nDOCUMENT". Compile the
 * expression, parse the document (null when it is not JSON), evaluate, and
 * require that the result is a well-formed value: it writes, and the text
 * parses back to an equal value. Errors must carry a kind and a message.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "jmespath fuzz: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    const char *newline = memchr(text, '\n', size);
    size_t expr_len = newline ? (size_t)(newline - text) : size;
    const char *doc_text = newline ? newline + 1 : "null";
    size_t doc_len = newline ? size - expr_len - 1 : 4;

    struct anvil_jmespath *expr = NULL;
    struct anvil_diag diag;
    int rc = anvil_jmespath_compile(NULL, text, expr_len, NULL, &expr, &diag);
    if (rc != ANVIL_OK) {
        s_check(expr == NULL, "error but an expression");
        s_check(strcmp(anvil_jmespath_error_kind(rc), "error") != 0 && diag.message[0], "untyped compile error");
        return 0;
    }
    struct anvil_json_doc *doc = NULL;
    struct anvil_json null_value = anvil_json_make_null();
    const struct anvil_json *input = &null_value;
    if (anvil_json_parse(NULL, doc_text, doc_len, NULL, &doc, NULL) == ANVIL_OK) {
        input = anvil_json_doc_root(doc);
    }
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options limits = {.max_bytes = (size_t)64 << 20};
    s_check(anvil_arena_new(NULL, &limits, &arena) == ANVIL_OK, "arena");
    struct anvil_json result;
    rc = anvil_jmespath_search(expr, input, arena, &result, &diag);
    if (rc == ANVIL_OK) {
        struct anvil_buf out;
        anvil_buf_init(&out, NULL, 0);
        s_check(anvil_json_write(&result, 0, &out) == ANVIL_OK, "result does not write");
        struct anvil_json_doc *again = NULL;
        struct anvil_json_parse_options deep = {.max_depth = ANVIL_JSON_MAX_DEPTH};
        s_check(anvil_json_parse(NULL, out.data, out.len, &deep, &again, NULL) == ANVIL_OK, "result text invalid");
        s_check(anvil_json_equal(&result, anvil_json_doc_root(again)), "result changed in a round trip");
        anvil_json_doc_destroy(again);
        anvil_buf_clean_up(&out);
    } else {
        s_check(rc == ANVIL_ETYPE || rc == ANVIL_EVALUE || rc == ANVIL_ELIMIT, "unexpected runtime error");
        s_check(diag.message[0] != '\0', "runtime error without a message");
    }
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(doc);
    anvil_jmespath_destroy(expr);
    return 0;
}
