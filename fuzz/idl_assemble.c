/*
 * libFuzzer target: the input as a Smithy IDL file, alone and split in two
 * files at its first blank line (so cross-file resolution, apply and
 * duplicate definitions are reached). Errors must be typed and carry a
 * message; a model that loads must print as a JSON AST that loads again,
 * and be the model that AST loads into (tests/support/model_same.h): the
 * assembler builds its models from records, the JSON AST loader from ASTs.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "model_same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "idl fuzz: %s\n", what);
        abort();
    }
}

static void s_run(const struct anvil_model_source *sources, size_t count) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    int rc = anvil_model_assemble(NULL, sources, count, NULL, &model, &events, &diag);
    if (rc != ANVIL_OK) {
        s_check(model == NULL, "error but a model");
        s_check(rc == ANVIL_ESYNTAX || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "unexpected error code");
        s_check(diag.message[0] != '\0', "error without a message");
        anvil_events_destroy(events);
        return;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        s_check(anvil_event_format(anvil_events_at(events, i), &out) == ANVIL_OK, "event format");
    }
    anvil_buf_clear(&out);
    char why[512];
    if (!anvil_test_model_same_as_ast(model, NULL, why, sizeof(why))) {
        fprintf(stderr, "idl fuzz: %s\n", why);
        s_check(false, "the model is not the one its AST loads into");
    }
    s_check(anvil_json_write(anvil_model_ast(model), ANVIL_JSON_WRITE_COMPACT, &out) == ANVIL_OK, "AST write");
    struct anvil_model *again = NULL;
    struct anvil_model_source ast = {"ast.json", out.data ? out.data : "", out.len, ANVIL_MODEL_FORMAT_JSON};
    rc = anvil_model_assemble(NULL, &ast, 1, NULL, &again, NULL, &diag);
    s_check(rc == ANVIL_OK, "the assembled AST does not load again");
    s_check(anvil_json_equal(anvil_json_object_get_cstr(anvil_model_ast(model), "shapes"),
                             anvil_json_object_get_cstr(anvil_model_ast(again), "shapes")),
            "the AST changes when loaded again");
    anvil_model_destroy(again);
    anvil_buf_clean_up(&out);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    struct anvil_model_source one = {"a.smithy", text, size, ANVIL_MODEL_FORMAT_IDL};
    s_run(&one, 1);
    const char *split = NULL;
    for (size_t i = 0; i + 1 < size && !split; i++) {
        split = text[i] == '\n' && text[i + 1] == '\n' ? text + i : NULL;
    }
    if (split) {
        size_t first = (size_t)(split - text) + 1;
        struct anvil_model_source two[2] = {{"a.smithy", text, first, ANVIL_MODEL_FORMAT_IDL},
                                            {"b.smithy", text + first, size - first, ANVIL_MODEL_FORMAT_IDL}};
        s_run(two, 2);
    }
    return 0;
}
