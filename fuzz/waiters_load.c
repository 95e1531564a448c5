/*
 * libFuzzer target: the input as a botocore waiters-2.json and as a
 * paginators-1.json. Errors must be
 * typed and carry a message; loaded waiters must pass anvil_waiter_check()
 * and run one attempt against the input itself as the output (and as an
 * error code), giving a definite decision. The input is also read as a
 * command's standard error (anvil_exec_parse_error).
 */

#include <stdio.h>
#include <stdlib.h>

#include "anvil/anvil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "waiters fuzz: %s\n", what);
        abort();
    }
}

static void s_attempt(const struct anvil_waiter *w, const struct anvil_json *output,
                      struct anvil_operation_error *error) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_wait_options options = {.max_wait_ms = 60000, .env = &fake.env};
    struct anvil_wait_state state;
    s_check(anvil_wait_start(&state, w, NULL, &options, 0, NULL) == ANVIL_OK, "a loaded waiter does not start");
    s_check(anvil_wait_next(&state, 0, NULL) == ANVIL_WAIT_INVOKE, "the first call is not immediate");
    int rc = error ? anvil_wait_report_error(&state, 0, error, NULL)
                   : anvil_wait_report_output(&state, 0, output, 200, NULL);
    s_check(rc == ANVIL_OK || rc == ANVIL_ELIMIT, "report failed");
    struct anvil_wait_outcome outcome;
    anvil_wait_outcome(&state, &outcome);
    s_check(outcome.attempts == 1, "attempts");
    s_check(outcome.acceptor < (int)w->acceptor_count, "acceptor index");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) == ANVIL_OK) {
        struct anvil_operation_error e;
        s_check(anvil_exec_parse_error(anvil_sv(text, size), arena, &e) == ANVIL_OK, "parse_error failed");
        s_check(e.code.len <= size && e.message.len <= size, "parse_error lengths");
        anvil_arena_destroy(arena);
    }
    struct anvil_diag diag;
    struct anvil_paginator_set *pages = NULL;
    int rc = anvil_paginator_set_from_botocore(NULL, text, size, &pages, &diag);
    s_check(rc == ANVIL_OK || rc == ANVIL_ESYNTAX || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "paginators: code");
    s_check(rc == ANVIL_OK || (pages == NULL && diag.message[0] != '\0'), "paginators: error without a message");
    for (size_t i = 0; i < anvil_paginator_set_count(pages); i++) {
        const struct anvil_paginator *p = anvil_paginator_set_at(pages, i);
        s_check(p->token_count > 0 && p->input_tokens[0].len > 0 && p->output_tokens[0], "paginators: tokens");
    }
    anvil_paginator_set_destroy(pages);
    struct anvil_waiter_set *set = NULL;
    rc = anvil_waiter_set_from_botocore(NULL, text, size, &set, &diag);
    if (rc != ANVIL_OK) {
        s_check(set == NULL, "error but a set");
        s_check(rc == ANVIL_ESYNTAX || rc == ANVIL_EMODEL || rc == ANVIL_ELIMIT, "unexpected error code");
        s_check(diag.message[0] != '\0', "error without a message");
        return 0;
    }
    struct anvil_json_doc *doc = NULL;
    s_check(anvil_json_parse(NULL, text, size, NULL, &doc, NULL) == ANVIL_OK, "loaded but not JSON");
    struct anvil_operation_error error = {anvil_sv(text, size < 24 ? size : 24), anvil_sv("", 0), 500};
    for (size_t i = 0; i < anvil_waiter_set_count(set); i++) {
        const struct anvil_waiter *w = anvil_waiter_set_at(set, i);
        s_check(anvil_waiter_check(w, NULL) == ANVIL_OK, "a loaded waiter fails its check");
        s_attempt(w, anvil_json_doc_root(doc), NULL);
        s_attempt(w, NULL, &error);
        int expects = anvil_waiter_expects_error(w, &error);
        s_check(expects >= -1 && expects < (int)w->acceptor_count, "expects_error index");
    }
    anvil_json_doc_destroy(doc);
    anvil_waiter_set_destroy(set);
    return 0;
}
