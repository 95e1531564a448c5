/*
 * Generated waiters run: botocore's equality comparators (path with a
 * boolean, pathAll with a number, pathAny with an object) decided the way
 * the waiter runtime decides them, in code anvil gen made from
 * tests/codegen/data/anveq, compiled (-DCOMPILED) and interpreted. Each
 * case is one attempt over one answer: success when the acceptor matches,
 * else retry (max attempts 1).
 */
#include <stdio.h>
#include <string.h>

#include "eq.h"

static int s_answer(void *user_data, const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                    struct anvil_operation_reply *reply) {
    (void)input, (void)deadline_ms;
    const char *text = user_data;
    return anvil_json_parse_into(arena, NULL, text, strlen(text), NULL, &reply->output, NULL);
}

/* 1 when `waiter` decides `answer` as `want` (true: success), else 0 after saying why. */
static int s_case(const struct anvil_waiter *waiter, const char *answer, bool want) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct anvil_wait_call call = {s_answer, (void *)answer, NULL, NULL, &fake.env, NULL};
    struct anvil_wait_options options = {.max_wait_ms = 60000, .max_attempts = 1};
    struct anvil_wait_result result;
    memset(&result, 0, sizeof result);
    int rc = anvil_wait(waiter, NULL, &options, &call, &result, NULL);
    bool success = rc == ANVIL_OK && result.outcome.reason == ANVIL_WAIT_REASON_SUCCESS;
    anvil_wait_result_clean_up(&result);
    if (success != want) {
        printf("FAIL %.*s over %s: %s, want %s\n", (int)waiter->name.len, waiter->name.ptr, answer,
               success ? "success" : "no success", want ? "success" : "no success");
        return 0;
    }
    return 1;
}

/* Strings longer than a line (split literals in the generated C): the whole string is compared. */
#define S_LONG_TAG                                                                                                     \
    "the table is being restored from a point-in-time backup taken before the last change; this can take an hour or "  \
    "more to finish"
#define S_X90 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define S_Y50 "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
#define S_LONG_FAILURE "a restore from a point-in-time backup that was taken before the last change to the table"

int main(void) {
    struct {
        const struct anvil_waiter *waiter;
        const char *answer;
        bool want;
    } cases[] = {
        {&eq_waiter_FlagOn, "{\"Flag\": true}", true},
        {&eq_waiter_FlagOn, "{\"Flag\": false}", false},
        {&eq_waiter_FlagOn, "{\"Flag\": \"true\"}", false},
        {&eq_waiter_FlagOn, "{}", false},
        {&eq_waiter_AllTwo, "{\"Items\": [{\"Count\": 2}, {\"Count\": 2.0}]}", true},
        {&eq_waiter_AllTwo, "{\"Items\": [{\"Count\": 2}, {\"Count\": 3}]}", false},
        {&eq_waiter_AllTwo, "{\"Items\": [{\"Count\": 2}, {\"Tag\": \"no count\"}]}", true}, /* the null is dropped */
        {&eq_waiter_AllTwo, "{\"Items\": []}", false},
        {&eq_waiter_AllTwo, "{\"Items\": [{\"Count\": \"2\"}]}", false},
        {&eq_waiter_AnyObject, "{\"Items\": [{\"Count\": 1}, {\"Tag\": \"x\", \"Count\": 3}]}", true},
        {&eq_waiter_AnyObject, "{\"Items\": [{\"Count\": 3, \"Tag\": \"y\"}]}", false},
        {&eq_waiter_AnyObject, "{\"Items\": null}", false},
        /* An expected string whose non-ASCII bytes are followed by hex digits (octal escapes in the generated C). */
        {&eq_waiter_TagAccented, "{\"Items\": [{\"Tag\": \"x\"}, {\"Tag\": \"caf\303\251 1\303\251b\"}]}", true},
        {&eq_waiter_TagAccented, "{\"Items\": [{\"Tag\": \"caf\\u00e9 1\\u00e9b\"}]}", true},
        {&eq_waiter_TagAccented, "{\"Items\": [{\"Tag\": \"caf\303\251 1\303\251\"}]}", false},
        {&eq_waiter_TagAccented, "{\"Items\": [{\"Tag\": \"caf\303\251 1\303\251bb\"}]}", false},
        /* Strings longer than a line (a split literal in the generated C): the whole string is compared. */
        {&eq_waiter_TagLong, "{\"Items\": [{\"Tag\": \"" S_LONG_TAG "\"}]}", true},
        {&eq_waiter_TagLong, "{\"Items\": [{\"Tag\": \"" S_LONG_TAG ".\"}]}", false},
        {&eq_waiter_TagLong, "{\"Items\": [{\"Tag\": \"" S_LONG_FAILURE "\", \"Count\": 1}]}", false},
        {&eq_waiter_TagLong, "{\"Items\": [{\"Tag\": \"" S_LONG_FAILURE "\"}, {\"Tag\": \"" S_LONG_TAG "\"}]}",
         true}, /* no Count: the failure matches nothing */
        {&eq_waiter_TagLong,
         "{\"Items\": [{\"Tag\": \"" S_LONG_FAILURE "!\", \"Count\": 1}, {\"Tag\": \"" S_LONG_TAG "\"}]}", true},
        /* Layouts a hostile review found (a bracket inside a long string, a long object, a chain in parentheses). */
        {&eq_waiter_TagParen, "{\"Items\": [{\"Tag\": \"(" S_X90 ")\"}]}", true},
        {&eq_waiter_TagParen, "{\"Items\": [{\"Tag\": \"(" S_X90 "\"}]}", false},
        {&eq_waiter_ObjectLong, "{\"Items\": [{\"Tag\": \"" S_Y50 "\", \"Count\": 3}]}", true},
        {&eq_waiter_ObjectLong, "{\"Items\": [{\"Tag\": \"" S_Y50 "\", \"Count\": 4}]}", false},
        {&eq_waiter_ParenChain, "{\"Items\": [{\"Tag\": \"x\", \"Count\": 6}]}", true},
        {&eq_waiter_ParenChain, "{\"Items\": [{\"Tag\": \"x\", \"Count\": 5}]}", false},
        {&eq_waiter_ParenChain, "{\"Items\": [{\"Tag\": \"y\"}]}", true},
    };
    int passed = 0, total = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < total; i++) {
        passed += s_case(cases[i].waiter, cases[i].answer, cases[i].want);
    }
    printf("generated equality waiters (%s): %d of %d cases\n", EQ_FORM, passed, total);
    return passed == total ? 0 : 1;
}
