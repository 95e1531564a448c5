/*
 * libFuzzer target: the input as a botocore service model (service-2.json),
 * declared and detected (AUTO). Errors must be typed and carry a message, and
 * every event must name what it is about or say it is about none; a model
 * that loads must be the model its own JSON AST loads into
 * (tests/support/model_same.h), validate, write as IDL, and build waiters.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "model_same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "botocore fuzz: %s\n", what);
        abort();
    }
}

static void s_run(const uint8_t *data, size_t size, enum anvil_model_format format) {
    struct anvil_model_source src = {"service-2.json", (const char *)data, size, format};
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    int rc = anvil_model_assemble(NULL, &src, 1, NULL, &model, &events, &diag);
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        s_check(e->message[0] != '\0' && e->event_id[0] != '\0', "an event without a message or id");
        s_check(anvil_event_format(e, &out) == ANVIL_OK, "event format");
    }
    anvil_buf_clean_up(&out);
    anvil_events_destroy(events);
    if (rc != ANVIL_OK) {
        s_check(model == NULL, "error but a model");
        s_check(rc == ANVIL_ESYNTAX || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "unexpected error code");
        s_check(diag.message[0] != '\0', "error without a message");
        return;
    }
    char why[512];
    s_check(anvil_test_model_same_as_ast(model, NULL, why, sizeof why), why);
    struct anvil_events *checked = NULL;
    s_check(anvil_model_validate(model, NULL, &checked) == ANVIL_OK, "validate failed");
    anvil_events_destroy(checked);
    struct anvil_str_view ns[4];
    size_t count = anvil_model_namespaces(model, ns, 4);
    for (size_t i = 0; i < count && i < 4; i++) {
        struct anvil_buf idl;
        anvil_buf_init(&idl, NULL, 0);
        rc = anvil_model_write_idl(model, ns[i], NULL, &idl, &diag);
        s_check(rc == ANVIL_OK || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "IDL: unexpected error code");
        anvil_buf_clean_up(&idl);
    }
    struct anvil_waiter_set *set = NULL;
    rc = anvil_waiter_set_from_model(NULL, model, &set, &diag);
    s_check(rc == ANVIL_OK || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "waiters: unexpected error code");
    anvil_waiter_set_destroy(set);
    anvil_model_destroy(model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    s_run(data, size, ANVIL_MODEL_FORMAT_BOTOCORE);
    s_run(data, size, ANVIL_MODEL_FORMAT_AUTO);
    return 0;
}
