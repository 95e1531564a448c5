/*
 * libFuzzer target: load the input as a Smithy JSON AST (strictly, then with
 * allow_unresolved), validate it and build its waiters. Errors must be
 * typed and carry a message; a loaded model must answer every accessor for
 * every shape, and every waiter built must pass anvil_waiter_check().
 */

#include <stdio.h>
#include <stdlib.h>

#include "anvil/anvil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "model fuzz: %s\n", what);
        abort();
    }
}

static bool s_count(const struct anvil_shape *op, void *user_data) {
    (void)op;
    (*(size_t *)user_data)++;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int lenient = 0; lenient < 2; lenient++) {
        struct anvil_model_options options = {.allow_unresolved = lenient == 1};
        struct anvil_model *model = NULL;
        struct anvil_diag diag;
        int rc = anvil_model_load(NULL, (const char *)data, size, &options, &model, &diag);
        if (rc != ANVIL_OK) {
            s_check(model == NULL, "error but a model");
            s_check(rc == ANVIL_ESYNTAX || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "unexpected error code");
            s_check(diag.message[0] != '\0', "error without a message");
            continue;
        }
        for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
            const struct anvil_shape *s = anvil_model_shape_at(model, i);
            struct anvil_str_view id = anvil_shape_id(s);
            s_check(anvil_model_find(model, id.ptr, id.len) == s, "a shape is not found by its id");
            for (size_t m = 0; m < anvil_shape_member_count(s); m++) {
                const struct anvil_member *member = anvil_shape_member_at(s, m);
                s_check(member->target || lenient, "a NULL target in a strict model");
            }
            if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
                size_t seen = 0, visited = 0;
                s_check(anvil_service_operations(model, s, s_count, &seen, &visited) == ANVIL_OK && seen == visited,
                        "closure count");
            }
        }
        struct anvil_events *events = NULL;
        s_check(anvil_model_validate(model, NULL, &events) == ANVIL_OK, "validate failed");
        struct anvil_buf out;
        anvil_buf_init(&out, NULL, 0);
        for (size_t i = 0; i < anvil_events_count(events); i++) {
            s_check(anvil_event_format(anvil_events_at(events, i), &out) == ANVIL_OK, "event format");
        }
        anvil_buf_clean_up(&out);
        anvil_events_destroy(events);
        struct anvil_waiter_set *set = NULL;
        rc = anvil_waiter_set_from_model(NULL, model, &set, &diag);
        s_check(rc == ANVIL_OK || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "waiters: unexpected error code");
        s_check(rc == ANVIL_OK || diag.message[0] != '\0', "waiters: error without a message");
        for (size_t i = 0; i < anvil_waiter_set_count(set); i++) {
            s_check(anvil_waiter_check(anvil_waiter_set_at(set, i), NULL) == ANVIL_OK,
                    "a built waiter fails its check");
        }
        anvil_waiter_set_destroy(set);
        anvil_model_destroy(model);
    }
    return 0;
}
