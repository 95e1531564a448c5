/*
 * libFuzzer target: the input is "EXPRESSION\nDOCUMENT". Compile the
 * expression, parse the document (null when it is not JSON), evaluate, and
 * require that the result is a well-formed value: it writes, and the text
 * parses back to an equal value. Errors must carry a kind and a message.
 * The same expression after a space must compile to the same tree. A field
 * chain's direct search must answer as the evaluator does. The waiter-path
 * linter (model validation's type checker) must finish on the expression with
 * the document as the output's shape, its problems worded.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "jmespath/jmespath_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "jmespath fuzz: %s\n", what);
        abort();
    }
}

/*
 * A leading space changes nothing but takes the general parser where the
 * text alone may take a fast path (a field chain): same status, same tree.
 */
static void s_same_as_spaced(const char *text, size_t len, int rc, const struct anvil_jmespath *expr) {
    if (len >= ANVIL_JMESPATH_DEFAULT_MAX_LENGTH) {
        return; /* one byte more would be over the length limit */
    }
    char *spaced = malloc(len + 1);
    s_check(spaced != NULL, "malloc");
    spaced[0] = ' ';
    memcpy(spaced + 1, text, len);
    struct anvil_jmespath *other = NULL;
    int other_rc = anvil_jmespath_compile(NULL, spaced, len + 1, NULL, &other, NULL);
    free(spaced);
    s_check(other_rc == rc, "a leading space changed the compile status");
    if (rc == ANVIL_OK) {
        struct anvil_buf a, b;
        anvil_buf_init(&a, NULL, 0);
        anvil_buf_init(&b, NULL, 0);
        s_check(anvil_jmespath_write_ast(expr, 0, &a) == ANVIL_OK && anvil_jmespath_write_ast(other, 0, &b) == ANVIL_OK,
                "the tree does not write");
        s_check(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "a leading space changed the tree");
        anvil_buf_clean_up(&a);
        anvil_buf_clean_up(&b);
    }
    anvil_jmespath_destroy(other);
}

static void s_problem(void *user_data, enum anvil__lint_severity severity, size_t line, size_t column,
                      const char *message) {
    (void)user_data;
    (void)severity;
    (void)line;
    (void)column;
    s_check(message && message[0], "a lint problem without words");
}

/* The linter over the expression, the document standing for the output's shape. */
static void s_lint(const struct anvil_jmespath *expr, const struct anvil_json *input) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options limits = {.max_bytes = (size_t)64 << 20};
    s_check(anvil_arena_new(NULL, &limits, &arena) == ANVIL_OK, "arena");
    enum anvil__lint_type returns;
    int rc = anvil__jmespath_lint(expr, input, arena, s_problem, NULL, &returns);
    s_check(rc == ANVIL_OK || rc == ANVIL_ENOMEM, "the linter failed");
    anvil_arena_destroy(arena);
}

/* A field chain is searched without the evaluator: the evaluator must give the same. */
static void s_chain_as_evaluator(struct anvil_jmespath *expr, const struct anvil_json *input, int rc,
                                 const struct anvil_json *result) {
    if (!expr->field_chain) {
        return;
    }
    struct anvil_arena *arena = NULL;
    s_check(anvil_arena_new(NULL, NULL, &arena) == ANVIL_OK, "arena");
    expr->field_chain = false;
    struct anvil_json slow;
    int slow_rc = anvil_jmespath_search(expr, input, arena, &slow, NULL);
    expr->field_chain = true;
    s_check(slow_rc == rc, "a chain's status differs from the evaluator's");
    s_check(rc != ANVIL_OK || (anvil_json_type(result) == anvil_json_type(&slow) && anvil_json_equal(result, &slow)),
            "a chain's answer differs from the evaluator's");
    anvil_arena_destroy(arena);
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
    s_same_as_spaced(text, expr_len, rc, expr);
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
    s_chain_as_evaluator(expr, input, rc, &result);
    s_lint(expr, input);
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
