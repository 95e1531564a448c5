/* anvil gen's library half: what it writes for a model, deterministically, and the runtime's compiled acceptors. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "anvil/codegen.h"
#include "anvil/jmespath.h"
#include "anvil/json.h"
#include "anvil/waiter.h"
#include "codegen/codegen_internal.h"
#include "harness.h"

static const char s_model[] =
    "{\"smithy\": \"2.0\", \"shapes\": {"
    "\"ex.svc#Svc\": {\"type\": \"service\", \"version\": \"1\", \"operations\": [{\"target\": \"ex.svc#GetThing\"}, "
    "{\"target\": \"ex.svc#Unused\"}, {\"target\": \"ex.svc#ListThings\"}], "
    "\"traits\": {\"aws.protocols#awsJson1_0\": {}, \"aws.auth#sigv4\": {\"name\": \"svc\"}, "
    "\"smithy.api#documentation\": \"left out\"}},"
    "\"ex.svc#GetThing\": {\"type\": \"operation\", \"input\": {\"target\": \"ex.svc#GetThingInput\"}, "
    "\"output\": {\"target\": \"ex.svc#GetThingOutput\"}, \"errors\": [{\"target\": \"ex.svc#Missing\"}], "
    "\"traits\": {\"smithy.waiters#waitable\": {\"ThingReady\": {\"documentation\": \"Waits for a */ thing.\", "
    "\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"Thing.State\", \"expected\": "
    "\"READY\", \"comparator\": \"stringEquals\"}}}, {\"state\": \"failure\", \"matcher\": {\"output\": {\"path\": "
    "\"Parts[].State\", \"expected\": \"BROKEN\", \"comparator\": \"anyStringEquals\"}}}, {\"state\": \"retry\", "
    "\"matcher\": {\"errorType\": \"Missing\"}}], \"minDelay\": 2, \"maxDelay\": 10}, \"ThingGone\": {\"acceptors\": "
    "[{\"state\": \"success\", \"matcher\": {\"errorType\": \"Missing\"}}, {\"state\": \"success\", \"matcher\": "
    "{\"output\": {\"path\": \"Thing.Deleted\", \"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}}},"
    "\"ex.svc#GetThingInput\": {\"type\": \"structure\", \"members\": {\"Id\": {\"target\": \"smithy.api#String\"}}},"
    "\"ex.svc#GetThingOutput\": {\"type\": \"structure\", \"members\": {\"Thing\": {\"target\": \"ex.svc#Thing\"}, "
    "\"Parts\": {\"target\": \"ex.svc#Parts\"}}},"
    "\"ex.svc#Thing\": {\"type\": \"structure\", \"members\": {\"State\": {\"target\": \"smithy.api#String\"}, "
    "\"Deleted\": {\"target\": \"smithy.api#Boolean\"}}},"
    "\"ex.svc#Parts\": {\"type\": \"list\", \"member\": {\"target\": \"ex.svc#Thing\"}},"
    "\"ex.svc#Missing\": {\"type\": \"structure\", \"members\": {}, \"traits\": {\"smithy.api#error\": \"client\"}},"
    "\"ex.svc#Unused\": {\"type\": \"operation\", \"input\": {\"target\": \"ex.svc#UnusedInput\"}},"
    "\"ex.svc#UnusedInput\": {\"type\": \"structure\", \"members\": {}},"
    "\"ex.svc#ListThings\": {\"type\": \"operation\", \"input\": {\"target\": \"ex.svc#ListThingsInput\"}, "
    "\"output\": {\"target\": \"ex.svc#ListThingsOutput\"}, \"traits\": {\"smithy.api#paginated\": {\"inputToken\": "
    "\"Next\", \"outputToken\": \"Next\", \"items\": \"Things\", \"pageSize\": \"Max\"}}},"
    "\"ex.svc#ListThingsInput\": {\"type\": \"structure\", \"members\": {\"Next\": {\"target\": "
    "\"smithy.api#String\"}, \"Max\": {\"target\": \"smithy.api#Integer\"}}},"
    "\"ex.svc#ListThingsOutput\": {\"type\": \"structure\", \"members\": {\"Next\": {\"target\": "
    "\"smithy.api#String\"}, \"Things\": {\"target\": \"ex.svc#Parts\"}}}"
    "}}";

static bool s_has(const struct anvil_buf *b, const char *text) {
    return b->len && memmem(b->data, b->len, text, strlen(text)) != NULL;
}

TEST(codegen_writes_waiters_paginators_and_the_model) {
    struct anvil_model *model = NULL;
    struct anvil_buf h, c, h2, c2;
    anvil_buf_init(&h, t->alloc, 0);
    anvil_buf_init(&c, t->alloc, 0);
    anvil_buf_init(&h2, t->alloc, 0);
    anvil_buf_init(&c2, t->alloc, 0);
    CHECK_OK(anvil_model_load(t->alloc, s_model, sizeof s_model - 1, NULL, &model, NULL));
    struct anvil_codegen_options o = {"ex", NULL, NULL, false, NULL, NULL};
    struct anvil_codegen_stats stats;
    struct anvil_diag diag;
    CHECK_OK(anvil_codegen_generate(model, &o, &h, &c, &stats, &diag));
    CHECK_EQ_U64(stats.waiters, 2);
    CHECK_EQ_U64(stats.acceptors, 5);
    CHECK_EQ_U64(stats.matchers, 3);
    CHECK_EQ_U64(stats.compiled + stats.fallbacks, 3);
    CHECK_EQ_U64(stats.paginators, 1);
    CHECK_EQ_U64(stats.operations, 2);
    /* Waiters in name order, snake-cased; the operation wrappers; the paginator. */
    CHECK(s_has(&h, "int ex_wait_until_thing_gone(struct anvil_client *client"));
    CHECK(s_has(&h, "int ex_wait_until_thing_ready(struct anvil_client *client"));
    CHECK((char *)memmem(h.data, h.len, "thing_gone", 10) < (char *)memmem(h.data, h.len, "thing_ready", 11));
    CHECK(s_has(&h, "int ex_get_thing(struct anvil_client *client"));
    CHECK(s_has(&h, "int ex_list_things_next_page("));
    CHECK(s_has(&h, "extern const struct anvil_waiter ex_waiter_ThingReady;"));
    /* The documentation, its comment end defused. */
    CHECK(s_has(&h, " * Waits for a * / thing."));
    /* The model: the operations used, not Unused; documentation dropped; waitable dropped. */
    CHECK(s_has(&c, "ex.svc#GetThing"));
    CHECK(!s_has(&c, "ex.svc#Unused"));
    CHECK(!s_has(&c, "left out"));
    CHECK(!s_has(&c, "smithy.waiters#waitable"));
    CHECK(s_has(&c, ".matcher = ANVIL_MATCH_ERROR_TYPE, .codes = ex_thing_ready_codes_2, .code_count = "));
    CHECK(s_has(&c, "/* Thing.State (stringEquals \"READY\") */"));
    /* Deterministic. */
    CHECK_OK(anvil_codegen_generate(model, &o, &h2, &c2, NULL, NULL));
    CHECK(h.len == h2.len && memcmp(h.data, h2.data, h.len) == 0);
    CHECK(c.len == c2.len && memcmp(c.data, c2.data, c.len) == 0);
    /* Every matcher interpreted when asked: the same functions, each compiling its expression at first use. */
    anvil_buf_clear(&h2);
    anvil_buf_clear(&c2);
    struct anvil_codegen_options interpreted = {"ex", NULL, NULL, true, NULL, NULL};
    CHECK_OK(anvil_codegen_generate(model, &interpreted, &h2, &c2, &stats, NULL));
    CHECK_EQ_U64(stats.compiled, 0);
    CHECK_EQ_U64(stats.fallbacks, 3);
    CHECK(s_has(&c2, "Interpreted, not compiled: anvil gen --interpret"));
    CHECK(h.len == h2.len && memcmp(h.data, h2.data, h.len) == 0);
    /* A prefix that is no C identifier, a service the model lacks. */
    struct anvil_codegen_options bad = {"9x", NULL, NULL, false, NULL, NULL};
    CHECK_STATUS(anvil_codegen_generate(model, &bad, &h2, &c2, NULL, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the prefix `9x` is not a C identifier of at most 40 bytes");
    struct anvil_codegen_options other = {"ex", "ex.svc#Nope", NULL, false, NULL, NULL};
    CHECK_STATUS(anvil_codegen_generate(model, &other, &h2, &c2, NULL, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "`ex.svc#Nope` is not a service of the model");
done:
    anvil_buf_clean_up(&h);
    anvil_buf_clean_up(&c);
    anvil_buf_clean_up(&h2);
    anvil_buf_clean_up(&c2);
    anvil_model_destroy(model);
}

/* A compiled matcher: Thing.State == "READY", decided in C. */
static int s_ready(const struct anvil_json *subject, struct anvil_arena *scratch, bool *matched) {
    (void)scratch;
    const struct anvil_json *state = anvil_json_object_get_cstr(anvil_json_object_get_cstr(subject, "Thing"), "State");
    *matched = anvil_json_is_string(state) && anvil_sv_eq_cstr(anvil_json_string(state), "READY");
    return ANVIL_OK;
}

struct s_polls {
    int calls;
};

static int s_poll(void *user_data, const struct anvil_json *input, uint64_t deadline_ms, struct anvil_arena *arena,
                  struct anvil_operation_reply *reply) {
    (void)input, (void)deadline_ms;
    struct s_polls *p = user_data;
    const char *text = ++p->calls < 3 ? "{\"Thing\": {\"State\": \"PENDING\"}}" : "{\"Thing\": {\"State\": \"READY\"}}";
    return anvil_json_parse_into(arena, NULL, text, strlen(text), NULL, &reply->output, NULL);
}

TEST(codegen_compiled_acceptors_drive_the_runtime) {
    static const struct anvil_waiter_acceptor acceptors[] = {
        {.state = ANVIL_WAITER_SUCCESS, .matcher = ANVIL_MATCH_OUTPUT, .compiled = s_ready},
    };
    static const struct anvil_waiter waiter = {.name = {"Ready", 5},
                                               .operation = {"GetThing", 8},
                                               .min_delay_s = 1,
                                               .max_delay_s = 1,
                                               .acceptors = acceptors,
                                               .acceptor_count = 1};
    CHECK_OK(anvil_waiter_check(&waiter, NULL));
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    struct s_polls polls = {0};
    struct anvil_wait_call call = {s_poll, &polls, NULL, NULL, &fake.env, t->alloc};
    struct anvil_wait_options options = {.max_wait_ms = 60000};
    struct anvil_wait_result result;
    memset(&result, 0, sizeof result);
    CHECK_OK(anvil_wait(&waiter, NULL, &options, &call, &result, NULL));
    CHECK_EQ_INT(result.outcome.reason, ANVIL_WAIT_REASON_SUCCESS);
    CHECK_EQ_U64(result.outcome.attempts, 3);
    CHECK_EQ_INT(result.outcome.acceptor, 0);
done:
    anvil_wait_result_clean_up(&result);
}

/* Two model names that make one C name are refused by name, not left to the compiler. */
TEST(codegen_refuses_colliding_names) {
    static const char model_text[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex.svc#Svc\": {\"type\": \"service\", \"version\": \"1\", \"operations\": [{\"target\": "
        "\"ex.svc#Get\"}], \"traits\": {\"aws.protocols#awsJson1_0\": {}}},"
        "\"ex.svc#Get\": {\"type\": \"operation\", \"traits\": {\"smithy.waiters#waitable\": {"
        "\"DBReady\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true}}]},"
        "\"DbReady\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"success\": true}}]}}}}}}";
    struct anvil_model *model = NULL;
    struct anvil_buf h, c;
    anvil_buf_init(&h, t->alloc, 0);
    anvil_buf_init(&c, t->alloc, 0);
    CHECK_OK(anvil_model_load(t->alloc, model_text, sizeof model_text - 1, NULL, &model, NULL));
    struct anvil_codegen_options o = {"ex", NULL, NULL, false, NULL, NULL};
    struct anvil_diag diag;
    CHECK_STATUS(anvil_codegen_generate(model, &o, &h, &c, NULL, &diag), ANVIL_EMODEL);
    CHECK_STR_EQ(diag.message,
                 "the waiter DBReady and the waiter DbReady both make the C name `ex_wait_until_db_ready`: "
                 "anvil gen cannot keep them apart");
done:
    anvil_buf_clean_up(&h);
    anvil_buf_clean_up(&c);
    anvil_model_destroy(model);
}

/* Paths that differ only after a NUL are two matchers (a key cut at the NUL once made them one). */
TEST(codegen_keeps_paths_apart_past_a_nul) {
    static const char model_text[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex.svc#Svc\": {\"type\": \"service\", \"version\": \"1\", \"operations\": [{\"target\": "
        "\"ex.svc#Get\"}], \"traits\": {\"aws.protocols#awsJson1_0\": {}}},"
        "\"ex.svc#Get\": {\"type\": \"operation\", \"traits\": {\"smithy.waiters#waitable\": {"
        "\"Ready\": {\"documentation\": \"count < 5, see <b>X</b> ?\?/\", \"acceptors\": ["
        "{\"state\": \"success\", \"matcher\": {\"output\": {\"path\": \"Status == '\\u0000a'\", "
        "\"expected\": \"true\", \"comparator\": \"booleanEquals\"}}},"
        "{\"state\": \"failure\", \"matcher\": {\"output\": {\"path\": \"Status == '\\u0000b'\", "
        "\"expected\": \"true\", \"comparator\": \"booleanEquals\"}}}]}}}}}}";
    struct anvil_model *model = NULL;
    struct anvil_buf h, c;
    anvil_buf_init(&h, t->alloc, 0);
    anvil_buf_init(&c, t->alloc, 0);
    CHECK_OK(anvil_model_load(t->alloc, model_text, sizeof model_text - 1, NULL, &model, NULL));
    struct anvil_codegen_options o = {"ex", NULL, NULL, false, NULL, NULL};
    struct anvil_codegen_stats stats;
    CHECK_OK(anvil_codegen_generate(model, &o, &h, &c, &stats, NULL));
    CHECK_EQ_U64(stats.matchers, 2);
    /* The documentation: a '<' that opens no tag kept, a tag dropped, no trigraph left in the comment. */
    CHECK(s_has(&h, " * count < 5, see X ? ?/"));
    /* Prefixes that would clash with anvil's, libcurl's or POSIX threads' names, or reserved ones. */
    struct anvil_codegen_options bad = {"anvil_x", NULL, NULL, false, NULL, NULL};
    struct anvil_diag diag;
    CHECK_STATUS(anvil_codegen_generate(model, &bad, &h, &c, NULL, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "the prefix `anvil_x` would make names that clash with anvil's: choose another");
    bad.prefix = "_x";
    CHECK_STATUS(anvil_codegen_generate(model, &bad, &h, &c, NULL, &diag), ANVIL_EINVAL);
    bad.prefix = "jpc";
    CHECK_STATUS(anvil_codegen_generate(model, &bad, &h, &c, NULL, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message,
                 "the prefix `jpc` would make names that clash with the compiled paths' helpers': choose another");
done:
    anvil_buf_clean_up(&h);
    anvil_buf_clean_up(&c);
    anvil_model_destroy(model);
}
/*
 * Lines of generated code wider than 120 columns (at an indent of 4),
 * broken as clang-format 14 breaks them: the expected text is its output.
 */
struct s_shape {
    int indent;
    const char *text, *want;
};

/* Each statement laid out by anvil__c_line() at its indent reads as `want`, which is clang-format's own layout. */
static void s_check_shapes(struct anvil_test *t, const struct s_shape *shapes, size_t n) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    for (size_t i = 0; i < n; i++) {
        out.len = 0;
        CHECK_OK(anvil__c_line(&out, shapes[i].indent, shapes[i].text, strlen(shapes[i].text)));
        CHECK_OK(anvil_buf_append_byte(&out, '\0'));
        CHECK_STR_EQ(out.data + shapes[i].indent, shapes[i].want);
    }
done:
    anvil_buf_clean_up(&out);
}

TEST(codegen_breaks_long_lines_as_clang_format_does) {
    static const char *const cases[][2] = {
        {"for (size_t i_load_balancers_item = 0; i_load_balancers_item < anvil_json_len(v_load_balancers) && !mismatch; i_load_balancers_item++) {",
         "    for (size_t i_load_balancers_item = 0; i_load_balancers_item < anvil_json_len(v_load_balancers) && !mismatch;\n"
         "         i_load_balancers_item++) {"},
        {"for (size_t j_project_version_description = 0; j_project_version_description < rekognition_jpc_flat_len(v_project_version_descriptions_item) && !mismatch; j_project_version_description++) {",
         "    for (size_t j_project_version_description = 0;\n"
         "         j_project_version_description < rekognition_jpc_flat_len(v_project_version_descriptions_item) && !mismatch;\n"
         "         j_project_version_description++) {"},
        {"if (jpc_str_is(v_state_name_aaaaaaaaaaaaaaa, \"running\", 7) && jpc_str_is(v_state_code_bbbbbbbbbbbbbbbbbbb, \"ok\", 2) && !mismatch) {",
         "    if (jpc_str_is(v_state_name_aaaaaaaaaaaaaaa, \"running\", 7) &&\n"
         "        jpc_str_is(v_state_code_bbbbbbbbbbbbbbbbbbb, \"ok\", 2) && !mismatch) {"},
        {"if (!(anvil_json_is_string(v_db_cluster_snapshots) || anvil_json_is_array(v_db_cluster_snapshots) || anvil_json_is_object(v_db_cluster_snapshots))) {",
         "    if (!(anvil_json_is_string(v_db_cluster_snapshots) || anvil_json_is_array(v_db_cluster_snapshots) ||\n"
         "          anvil_json_is_object(v_db_cluster_snapshots))) {"},
        {"const struct anvil_json *v_target_health_description = jpc_flat_at(v_target_health_descriptions_item, j_target_health);",
         "    const struct anvil_json *v_target_health_description =\n"
         "        jpc_flat_at(v_target_health_descriptions_item, j_target_health);"},
        {"struct anvil_json t_lt = (anvil_json_is_number(v_emptylist) && anvil_json_is_number(v_one)) ? anvil_json_make_bool((anvil_json_compare(v_emptylist, v_one) < 0)) : anvil_json_make_null();",
         "    struct anvil_json t_lt = (anvil_json_is_number(v_emptylist) && anvil_json_is_number(v_one))\n"
         "                                 ? anvil_json_make_bool((anvil_json_compare(v_emptylist, v_one) < 0))\n"
         "                                 : anvil_json_make_null();"},
        {"struct anvil_json t_ge_aaaaaaaaaaaaaaaaaaaaaaa = anvil_json_is_number(v_min_size) ? anvil_json_make_bool((anvil_json_compare(&t_length, v_min_size) >= 0)) : anvil_json_make_null();",
         "    struct anvil_json t_ge_aaaaaaaaaaaaaaaaaaaaaaa =\n"
         "        anvil_json_is_number(v_min_size) ? anvil_json_make_bool((anvil_json_compare(&t_length, v_min_size) >= 0))\n"
         "                                         : anvil_json_make_null();"},
        {"(void)anvil_model_load(NULL, route53_recovery_control_config_model_text, sizeof route53_recovery_control_config_model_text - 1, NULL, &route53_recovery_control_config_model_value, NULL);",
         "    (void)anvil_model_load(NULL, route53_recovery_control_config_model_text,\n"
         "                           sizeof route53_recovery_control_config_model_text - 1, NULL,\n"
         "                           &route53_recovery_control_config_model_value, NULL);"},
        {"return anvil_paginator_set_find(set, \"com.amazonaws.bcmpricingcalculator#ListBillEstimateInputCommitmentModifications\", 79);",
         "    return anvil_paginator_set_find(\n"
         "        set, \"com.amazonaws.bcmpricingcalculator#ListBillEstimateInputCommitmentModifications\", 79);"},
        {"struct anvil_client_operation operation = {client, polled, &route53_recovery_control_config_waiter_ControlPanelCreated};",
         "    struct anvil_client_operation operation = {client, polled,\n"
         "                                               &route53_recovery_control_config_waiter_ControlPanelCreated};"},
        {"if ((rc = jpc_object(scratch, keys_hash_aaaaaaaaaaaa, key_lens_hash_aaaaaaaaaaaaaa, values_hash_aaaaaaaaaaaaaaaaaaaa, 3, &t_hash)) != ANVIL_OK) {",
         "    if ((rc = jpc_object(scratch, keys_hash_aaaaaaaaaaaa, key_lens_hash_aaaaaaaaaaaaaa,\n"
         "                         values_hash_aaaaaaaaaaaaaaaaaaaa, 3, &t_hash)) != ANVIL_OK) {"},
        /* One comparison whose left side fits with its operator: broken after the operator. */
        {"if ((rc = jpc_list_push(scratch, &l_reservations_aaaaaaaaaaaaaa, v_baz_item_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb)) != ANVIL_OK) {",
         "    if ((rc = jpc_list_push(scratch, &l_reservations_aaaaaaaaaaaaaa, v_baz_item_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb)) !=\n"
         "        ANVIL_OK) {"},
        /* A conditional whose branch just fits under the condition (the branch's width counted without its ':'). */
        {"struct anvil_json t_ge_aaaaaaaaaaaaa = anvil_json_is_number(v_min_size) ? anvil_json_make_bool(anvil_json_compare(&t_length, v_min_size) >= 0) : anvil_json_make_null();",
         "    struct anvil_json t_ge_aaaaaaaaaaaaa = anvil_json_is_number(v_min_size)\n"
         "                                               ? anvil_json_make_bool(anvil_json_compare(&t_length, v_min_size) >= 0)\n"
         "                                               : anvil_json_make_null();"},
        /* Arguments that hold calls: each kept whole, packed after the '(' or all on the next line. */
        {"rc = anvil_json_array_at(v_project_version_descriptions, i_project_version_descriptions_item, aaa, bbbbbbbbbbbbbbbbbbbb(cccccccccccccccccccccc, dddd));",
         "    rc = anvil_json_array_at(v_project_version_descriptions, i_project_version_descriptions_item, aaa,\n"
         "                             bbbbbbbbbbbbbbbbbbbb(cccccccccccccccccccccc, dddd));"},
        {"const struct anvil_json *v_not_null_item_item = anvil_json_array_at(v_not_null_item, (size_t)(first_not_null_item + (int64_t)k_not_null_item * -2));",
         "    const struct anvil_json *v_not_null_item_item =\n"
         "        anvil_json_array_at(v_not_null_item, (size_t)(first_not_null_item + (int64_t)k_not_null_item * -2));"},
        {"const struct anvil_json *v_not_null_item_item = anvil_json_array_at(v_not_null_item_abcdefghijkl, (size_t)(first_not_null_item + (int64_t)k_not_null_item * -2));",
         "    const struct anvil_json *v_not_null_item_item = anvil_json_array_at(\n"
         "        v_not_null_item_abcdefghijkl, (size_t)(first_not_null_item + (int64_t)k_not_null_item * -2));"},
        {"struct anvil_json t_starts_with = anvil_json_make_bool(anvil_sv_starts_with(anvil_json_string(&lit_empty_abcdefghijklmn), anvil_json_string(v_c_2)));",
         "    struct anvil_json t_starts_with = anvil_json_make_bool(\n"
         "        anvil_sv_starts_with(anvil_json_string(&lit_empty_abcdefghijklmn), anvil_json_string(v_c_2)));"},
        /* A call of one logical chain: after the call's '(' when the chain fits there whole; else after a `!(` when
         * that saves a line; else packed on this line or after '=', a tie going to the break after '='. */
        {"struct anvil_json t_not_2 = anvil_json_make_bool(!(anvil_json_is_number(root) && anvil_json_is_number(v_null) && anvil_json_compare(root, v_null) <= 0));",
         "    struct anvil_json t_not_2 = anvil_json_make_bool(\n"
         "        !(anvil_json_is_number(root) && anvil_json_is_number(v_null) && anvil_json_compare(root, v_null) <= 0));"},
        {"struct anvil_json t_not_2 = anvil_json_make_bool(!(anvil_json_is_number(&t_list) && anvil_json_is_number(&t_items) && anvil_json_compare(&t_list, &t_items) < 0));",
         "    struct anvil_json t_not_2 = anvil_json_make_bool(!(\n"
         "        anvil_json_is_number(&t_list) && anvil_json_is_number(&t_items) && anvil_json_compare(&t_list, &t_items) < 0));"},
        {"struct anvil_json t_not = anvil_json_make_bool(!(anvil_json_is_number(&lit_field) && anvil_json_is_number(&t_lt) && anvil_json_compare(&lit_field, &t_lt) <= 0));",
         "    struct anvil_json t_not = anvil_json_make_bool(!(anvil_json_is_number(&lit_field) && anvil_json_is_number(&t_lt) &&\n"
         "                                                     anvil_json_compare(&lit_field, &t_lt) <= 0));"},
        {"struct anvil_json t_not = anvil_json_make_bool(!(anvil_json_is_number(&t_literal) && anvil_json_is_number(&t_starts_with) && anvil_json_compare(&t_literal, &t_starts_with) >= 0));",
         "    struct anvil_json t_not =\n"
         "        anvil_json_make_bool(!(anvil_json_is_number(&t_literal) && anvil_json_is_number(&t_starts_with) &&\n"
         "                               anvil_json_compare(&t_literal, &t_starts_with) >= 0));"},
        /* A conditional that fits whole on the line after '=' goes there. */
        {"struct anvil_json t_gt = anvil_json_is_number(v_a) ? anvil_json_make_bool(anvil_json_compare(v_a, &lit_1) > 0) : anvil_json_make_null();",
         "    struct anvil_json t_gt =\n"
         "        anvil_json_is_number(v_a) ? anvil_json_make_bool(anvil_json_compare(v_a, &lit_1) > 0) : anvil_json_make_null();"},
        /* A list of braced lists: one a line after the '{'; all on the next line when that takes fewer. */
        {"static const struct jpc_key keys[] = {{\"InstanceStatus\", 14, &last_instance_status_abcdefghijkl}, {\"Status\", 6, &last_status}};",
         "    static const struct jpc_key keys[] = {{\"InstanceStatus\", 14, &last_instance_status_abcdefghijkl},\n"
         "                                          {\"Status\", 6, &last_status}};"},
        {"static const struct jpc_key keys[] = {{\"name\", 4, &last_name}, {\"bar\", 3, &last_bar}, {\"items\", 5, &last_items}, {\"a\", 1, &a}};",
         "    static const struct jpc_key keys[] = {\n"
         "        {\"name\", 4, &last_name}, {\"bar\", 3, &last_bar}, {\"items\", 5, &last_items}, {\"a\", 1, &a}};"},
        {"static const struct jpc_key keys[] = {{\"b\", 1, &last_b}, {\"name\", 4, &last_name_2}, {\"foo\", 3, &last_foo_2}, {\"items\", 5, &last_items_2}, {\"c\", 1, &c}};",
         "    static const struct jpc_key keys[] = {{\"b\", 1, &last_b},\n"
         "                                          {\"name\", 4, &last_name_2},\n"
         "                                          {\"foo\", 3, &last_foo_2},\n"
         "                                          {\"items\", 5, &last_items_2},\n"
         "                                          {\"c\", 1, &c}};"},
    };
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        out.len = 0;
        CHECK_OK(anvil__c_line(&out, 4, cases[i][0], strlen(cases[i][0])));
        CHECK(out.len > 0 && out.data[out.len - 1] == '\n');
        out.data[out.len - 1] = '\0';
        CHECK_STR_EQ(out.data, cases[i][1]);
    }
    /* Deep in a loop nest, a condition's call broken after its '(': the arguments eight columns in (four in an
     * assignment), as clang-format lays them out. */
    static const char *const deep[][2] = {
        {"if (anvil_json_string_equals_word(v_abcdefghij_abcdefghij_abcdefghij_abcd, \"running\", 7, word_running)) {",
         "if (anvil_json_string_equals_word(\n"
         "                                                            "
         "v_abcdefghij_abcdefghij_abcdefghij_abcd, \"running\", 7,\n"
         "                                                            word_running)) {\n"},
        {"q = anvil_json_string_equals_word(v_abcdefghij_abcdefghij_abcdefghij_abcd, \"running\", 7, word_running);",
         "q = anvil_json_string_equals_word(\n"
         "                                                        "
         "v_abcdefghij_abcdefghij_abcdefghij_abcd, \"running\", 7,\n"
         "                                                        word_running);\n"},
    };
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        out.len = 0;
        CHECK_OK(anvil__c_line(&out, 52, deep[i][0], strlen(deep[i][0])));
        CHECK_OK(anvil_buf_append_byte(&out, '\0'));
        CHECK_STR_EQ(out.data + 52, deep[i][1]);
    }
    /* Shapes a hostile review found laid out otherwise than clang-format (each expectation is clang-format's own):
     * chains after '=' and in `if ((...)) {`, groups broken inside, calls inside calls, a chain's operand that is a
     * call too wide for a line, a list of braced lists one to a line, a `for` whose condition is a comparison, a
     * subscript, a call whose string argument holds a bracket. */
    static const struct {
        int indent;
        const char *text, *want;
    } shapes[] = {
        {16,
         "c_or = ((anvil_json_is_number(v_count) && anvil_json_compare(v_count, &lit_5) > 0) && anvil_json_string_equals_word(v_tag, \"x\", 1, word_x));",
         "c_or = ((anvil_json_is_number(v_count) && anvil_json_compare(v_count, &lit_5) > 0) &&\n"
         "                        anvil_json_string_equals_word(v_tag, \"x\", 1, word_x));\n"},
        {4,
         "*matched = anvil_json_is_bool(v_fdddddddddddddddddddddddddddddddd) && !anvil_json_bool(v_fdddddddddddddddddddddddddddddddd);",
         "*matched = anvil_json_is_bool(v_fdddddddddddddddddddddddddddddddd) &&\n"
         "               !anvil_json_bool(v_fdddddddddddddddddddddddddddddddd);\n"},
        {12,
         "if ((anvil_json_is_number(v_ccccccccccccccccccc) && anvil_json_compare(v_ccccccccccccccccccc, &lit_5) >= 0) && (anvil_json_is_number(v_ccccccccccccccccccc) && anvil_json_compare(v_ccccccccccccccccccc, &lit_9) < 0)) {",
         "if ((anvil_json_is_number(v_ccccccccccccccccccc) &&\n"
         "                 anvil_json_compare(v_ccccccccccccccccccc, &lit_5) >= 0) &&\n"
         "                (anvil_json_is_number(v_ccccccccccccccccccc) &&\n"
         "                 anvil_json_compare(v_ccccccccccccccccccc, &lit_9) < 0)) {\n"},
        {16,
         "if ((anvil_json_is_bool(v_xy_mv_ukb_wuru_wgsubqznf5hdak) && !anvil_json_bool(v_xy_mv_ukb_wuru_wgsubqznf5hdak))) {",
         "if ((anvil_json_is_bool(v_xy_mv_ukb_wuru_wgsubqznf5hdak) &&\n"
         "                     !anvil_json_bool(v_xy_mv_ukb_wuru_wgsubqznf5hdak))) {\n"},
        {16,
         "struct anvil_json t_starts_with = anvil_json_make_bool(anvil_sv_starts_with(anvil_json_string(v_tbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb), anvil_sv(\"ab\", 2)));",
         "struct anvil_json t_starts_with = anvil_json_make_bool(anvil_sv_starts_with(\n"
         "                    anvil_json_string(v_tbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb), anvil_sv(\"ab\", 2)));\n"},
        {8,
         "struct anvil_json t_eq = anvil_json_make_bool(anvil_json_string_equals_word(v_tbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, \"x\", 1, word_x));",
         "struct anvil_json t_eq = anvil_json_make_bool(\n"
         "            anvil_json_string_equals_word(v_tbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, \"x\", 1, word_x));\n"},
        {16,
         "struct anvil_json t_contains = anvil_json_make_bool(jpc_contains_str(v_z_aoam_t_zngic_sd_ytu, \"kbbfx1-qc-ebb-n-xy-ffxv-gaiblcz-The-quick-brown-fox\", 48));",
         "struct anvil_json t_contains = anvil_json_make_bool(jpc_contains_str(\n"
         "                    v_z_aoam_t_zngic_sd_ytu, \"kbbfx1-qc-ebb-n-xy-ffxv-gaiblcz-The-quick-brown-fox\", 48));\n"},
        {12,
         "c_or = c_or || jpc_str_is(v_z_aoam_t_zngic_sd_ytu, \"nlyt-gy-ue-nw-aThe quick brown fox point-in-time-and-so-on\", 51);",
         "c_or = c_or || jpc_str_is(v_z_aoam_t_zngic_sd_ytu,\n"
         "                                      \"nlyt-gy-ue-nw-aThe quick brown fox point-in-time-and-so-on\", 51);\n"},
        {16,
         "c_and = c_and && !jpc_str_is(v_ac_iyr_osx6xc_c_wiw_wru_i_otmg_ktjo, str_x_wqfru_u_i_mrm_qbna_dx_1_bs_g_y_vi_sb, 311);",
         "c_and = c_and && !jpc_str_is(v_ac_iyr_osx6xc_c_wiw_wru_i_otmg_ktjo,\n"
         "                                             str_x_wqfru_u_i_mrm_qbna_dx_1_bs_g_y_vi_sb, 311);\n"},
        {20,
         "static const struct jpc_key keys[] = {{\"Saaaaaaaaaaaaaaaaaaaaaa\", 23, &last_saaaaaaaaaaaaaaaaaaaaaa}, {\"Lbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\", 36, &last_lbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb}};",
         "static const struct jpc_key keys[] = {\n"
         "                        {\"Saaaaaaaaaaaaaaaaaaaaaa\", 23, &last_saaaaaaaaaaaaaaaaaaaaaa},\n"
         "                        {\"Lbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\", 36, &last_lbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb}};\n"},
        {36,
         "for (size_t j_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2 = 0; j_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2 < n_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2; j_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2++) {",
         "for (size_t j_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2 = 0;\n"
         "                                         j_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2 <\n"
         "                                         n_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2;\n"
         "                                         j_owlc_fwgj_vt_wjxxklvsmtdnp1n_p_item_2++) {\n"},
        {56,
         "const struct anvil_json *v_w_pwrglhhqedazz_uy9t0k_item = &items_w_pwrglhhqedazz_uy9t0k[i_w_pwrglhhqedazz_uy9t0k_item];",
         "const struct anvil_json *v_w_pwrglhhqedazz_uy9t0k_item =\n"
         "                                                            &items_w_pwrglhhqedazz_uy9t0k\n"
         "                                                                [i_w_pwrglhhqedazz_uy9t0k_item];\n"},
        {4,
         "if ((rc = jpc_parse(scratch, \"{\\\"Tag\\\":\\\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\"}\", 60, &lit_object)) != ANVIL_OK) {",
         "if ((rc = jpc_parse(scratch, \"{\\\"Tag\\\":\\\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\"}\", 60,\n"
         "                        &lit_object)) != ANVIL_OK) {\n"},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        out.len = 0;
        CHECK_OK(anvil__c_line(&out, shapes[i].indent, shapes[i].text, strlen(shapes[i].text)));
        CHECK_OK(anvil_buf_append_byte(&out, '\0'));
        CHECK_STR_EQ(out.data + shapes[i].indent, shapes[i].want);
    }
    /* Blanks where a comment is broken go on both sides, as clang-format drops them; a line keeps no trailing blank. */
    char blanks[129];
    memset(blanks, 'x', sizeof blanks);
    memcpy(blanks, "/* ", 3);
    memcpy(blanks + 113, "  yyyyyyyyyy */", 15);
    blanks[128] = '\n';
    out.len = 0;
    CHECK_OK(anvil_buf_append(&out, blanks, sizeof blanks));
    CHECK_OK(anvil_buf_append_cstr(&out, "int x; \n"));
    CHECK_OK(anvil__c_rewrap(&out, 0));
    CHECK_EQ_U64(out.len, 113 + sizeof "\n * yyyyyyyyyy */\nint x;\n" - 1);
    CHECK(memcmp(out.data + 110, "xxx\n * yyyyyyyyyy */\nint x;\n", 29) == 0);
    /* A comment: broken at its last blank that fits, the rest on a ` * ` line. */
    char comment[160];
    memset(comment, 'x', sizeof comment);
    memcpy(comment, "/* ", 3);
    comment[100] = ' ';
    memcpy(comment + sizeof comment - 3, " */", 3);
    out.len = 0;
    CHECK_OK(anvil_buf_append(&out, comment, sizeof comment));
    CHECK_OK(anvil__c_rewrap(&out, 0));
    CHECK_EQ_U64(out.len, sizeof comment + 3);
    CHECK(memcmp(out.data + 100, "\n * x", 5) == 0);
done:
    anvil_buf_clean_up(&out);
}

/* A hostile review's inputs: `!(a && b) || c` is a chain whose first operand is a group, not a group with something
 * glued after it, so the chain is broken around the group as clang-format breaks it. */
TEST(codegen_keeps_a_group_that_is_an_operand_whole) {
    static const struct s_shape shapes[] = {
        {16,
         "bool c_and = !(f(v_a) && g(v_b) && c_si7bf3z_y0_9f1ml3tet3p589h1t) || !anvil_jmespath_truthy(v_aol7wenq8zzix4tde6f4my) || c_jc4txb15e;",
         "bool c_and = !(f(v_a) && g(v_b) && c_si7bf3z_y0_9f1ml3tet3p589h1t) ||\n"
         "                             !anvil_jmespath_truthy(v_aol7wenq8zzix4tde6f4my) || c_jc4txb15e;\n"},
        {40,
         "bool c_and = !(f(v_n) || !(g(v_a) || c_8) || anvil_jmespath_truthy(v_zgiha)) || anvil_jmespath_truthy(v__k1tcpfshdz1_9ytn3nz);",
         "bool c_and = !(f(v_n) || !(g(v_a) || c_8) || anvil_jmespath_truthy(v_zgiha)) ||\n"
         "                                                     anvil_jmespath_truthy(v__k1tcpfshdz1_9ytn3nz);\n"},
        {12,
         "bool c_and = !(anvil_jmespath_truthy(v_005) && anvil_json_string_equals_word(v_tdb4qh48ilo9mg8q9, \"(p)\", 3, word_xww1zt8j2o6mlz7ndeualwipyzq92)) && c_axn0cf4tje && c_d0cflurij_bl2o5zwk;",
         "bool c_and =\n"
         "                !(anvil_jmespath_truthy(v_005) &&\n"
         "                  anvil_json_string_equals_word(v_tdb4qh48ilo9mg8q9, \"(p)\", 3, word_xww1zt8j2o6mlz7ndeualwipyzq92)) &&\n"
         "                c_axn0cf4tje && c_d0cflurij_bl2o5zwk;\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* Two statements whose layout once lost code (an argument too wide for any line gave `f(` then a line of blanks): a
 * layout must hold exactly the statement's text, else the statement is written on one line, whole. The last try now
 * lays these two out as clang-format does, each argument whole, one of them past the limit. */
TEST(codegen_never_loses_a_statements_text) {
    static const struct s_shape shapes[] = {
        {4,
         "f(a_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, g(b_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx));",
         "f(a_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,\n"
         "      g(b_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx));\n"},
        {8,
         "x = f(vxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, g(vxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx));",
         "x = f(vxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,\n"
         "              g(vxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx));\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* `static const char NAME[] = "text";` (anvil__c_string_decl) as clang-format lays it out: on one line where it fits;
 * where `static const char NAME[] =` is itself too wide, broken before the name, with the literal after it where
 * that fits, the `[]` on the next line where `NAME[] =` does not fit there either (a split literal's pieces then
 * aligned under its first), and the literal on the lines after the `=` where it does not fit after it. */
TEST(codegen_lays_out_a_string_declaration_as_clang_format_does) {
    static const char want[] =
        "static const char short_name_expected_text[] = \"false\";\n"
        "static const char\n"
        "    k_match_b_agjy_u_cpst_vqda_wk_ohj_d_rygh8ubw_nsezy_jps_ueyqpth_evfw9kh_2017a1a9_value_expected_text[] = \"false\";\n"
        "static const char\n"
        "    yqdeajksqga7otqxj_match_hgrqqzzti8hr_ejj_wgxu_x_hyabiubidzdxb_et_zh_sb_amnojvqdpfr2fh_s_ee937b61_value_x_expected_text\n"
        "        [] = \"\\\"\\\"\";\n"
        "static const char\n"
        "    k_match_b_agjy_u_cpst_vqda_wk_ohj_d_rygh8ubw_nsezy_jps_ueyqpth_evfw9kh_2017a1a9_value_expected_text[] =\n"
        "        \"The quick brown fox jumps over the lazy dog, and then over the lazy dog again, and again.\";\n"
        "static const char\n"
        "    n_nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_expected_text\n"
        "        [] = \"The quick brown fox jumps over the lazy dog The quick brown fox jumps over the lazy \"\n"
        "             \"dog Th\";\n";
    const char *n1 = "k_match_b_agjy_u_cpst_vqda_wk_ohj_d_rygh8ubw_nsezy_jps_ueyqpth_evfw9kh_2017a1a9_value";
    const char *n2 =
        "yqdeajksqga7otqxj_match_hgrqqzzti8hr_ejj_wgxu_x_hyabiubidzdxb_et_zh_sb_amnojvqdpfr2fh_s_ee937b61_value_x";
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    CHECK_OK(anvil__c_string_decl(&out, 0, "short_name", "_expected_text", anvil_sv_from_cstr("false")));
    CHECK_OK(anvil__c_string_decl(&out, 0, n1, "_expected_text", anvil_sv_from_cstr("false")));
    CHECK_OK(anvil__c_string_decl(&out, 0, n2, "_expected_text", anvil_sv_from_cstr("\"\"")));
    CHECK_OK(anvil__c_string_decl(
        &out, 0, n1, "_expected_text",
        anvil_sv_from_cstr(
            "The quick brown fox jumps over the lazy dog, and then over the lazy dog again, and again.")));
    CHECK_OK(anvil__c_string_decl(
        &out, 0, "n_nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn",
        "_expected_text",
        anvil_sv_from_cstr(
            "The quick brown fox jumps over the lazy dog The quick brown fox jumps over the lazy dog Th")));
    CHECK_OK(anvil_buf_append_byte(&out, '\0'));
    CHECK_STR_EQ(out.data, want);
done:
    anvil_buf_clean_up(&out);
}

/* What no line holds, laid out as clang-format lays it out: a call whose argument is wider than any line (the last
 * try) broken after its '(' where that runs least past the limit, its arguments packed, one of them `A - B` still past
 * it broken after its operator; a braced initializer so; an `if (` never broken after its own parenthesis; and a row of
 * designated initializers too wide for its line, one member a line after its '{', a member still too wide broken after
 * its '='. */
TEST(codegen_lays_out_what_no_line_holds_as_clang_format_does) {
    static const struct s_shape shapes[] = {
        {4,
         "return anvil_client_new(NULL, model, \"com.amazonaws.anvillongnamesforthelayoutofgeneratedcodewheneverynameisfarlongerthananyserviceuses#AnvilLongNames_20210203\", options, out, diag);",
         "return anvil_client_new(\n"
         "        NULL, model,\n"
         "        \"com.amazonaws.anvillongnamesforthelayoutofgeneratedcodewheneverynameisfarlongerthananyserviceuses#AnvilLongNames_20210203\",\n"
         "        options, out, diag);\n"},
        {4,
         "struct anvil_client_operation operation = {client, polled, &anvlong_waiter_Replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor};",
         "struct anvil_client_operation operation = {\n"
         "        client, polled,\n"
         "        &anvlong_waiter_Replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor};\n"},
        {64, "if (!anvil_jmespath_truthy(v_x16d9lriht96urho02k711kb2fyv8ey8ykylitg5_jh)) {",
         "if (!anvil_jmespath_truthy(\n"
         "                                                                        v_x16d9lriht96urho02k711kb2fyv8ey8ykylitg5_jh)) {\n"},
        {8,
         "{.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_ERROR_TYPE, .codes = anvlong_replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor_codes_1, .code_count = 1},",
         "{.state = ANVIL_WAITER_RETRY,\n"
         "         .matcher = ANVIL_MATCH_ERROR_TYPE,\n"
         "         .codes =\n"
         "             anvlong_replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor_codes_1,\n"
         "         .code_count = 1},\n"},
        {4,
         "(void)anvil_json_parse(NULL, jv1jv_match_efydext_fe5quzjs_rd_oc55e_jtny_a_vkdkdz_rj_dd2e8q6_un5dcicfwlp_3f3d4162_value_expected_text, sizeof jv1jv_match_efydext_fe5quzjs_rd_oc55e_jtny_a_vkdkdz_rj_dd2e8q6_un5dcicfwlp_3f3d4162_value_expected_text - 1, NULL, &jv1jv_match_efydext_fe5quzjs_rd_oc55e_jtny_a_vkdkdz_rj_dd2e8q6_un5dcicfwlp_3f3d4162_value_expected_doc, NULL);",
         "(void)anvil_json_parse(\n"
         "        NULL, jv1jv_match_efydext_fe5quzjs_rd_oc55e_jtny_a_vkdkdz_rj_dd2e8q6_un5dcicfwlp_3f3d4162_value_expected_text,\n"
         "        sizeof jv1jv_match_efydext_fe5quzjs_rd_oc55e_jtny_a_vkdkdz_rj_dd2e8q6_un5dcicfwlp_3f3d4162_value_expected_text -\n"
         "            1,\n"
         "        NULL, &jv1jv_match_efydext_fe5quzjs_rd_oc55e_jtny_a_vkdkdz_rj_dd2e8q6_un5dcicfwlp_3f3d4162_value_expected_doc,\n"
         "        NULL);\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* Where more than one layout of `LHS = chain;` fits, the one of least penalty as clang-format counts it (s_penalty): a
 * break after `=` and after `c_or ||` to keep a nested group whole, a break after the chain's operator rather than
 * inside a call's arguments, `!(` ending its line with the chain packed below; and, on a tie, the layout that breaks
 * later. */
TEST(codegen_chooses_among_layouts_by_clang_formats_penalty) {
    static const struct s_shape shapes[] = {
        {16,
         "c_or = c_or || ((anvil_jmespath_truthy(v_tr_ukoxnud_kjmrje_x) || !anvil_jmespath_truthy(v_tr_ukoxnud_kjmrje_x)) && !anvil_jmespath_truthy(v_tr_ukoxnud_kjmrje_x));",
         "c_or =\n"
         "                    c_or ||\n"
         "                    ((anvil_jmespath_truthy(v_tr_ukoxnud_kjmrje_x) || !anvil_jmespath_truthy(v_tr_ukoxnud_kjmrje_x)) &&\n"
         "                     !anvil_jmespath_truthy(v_tr_ukoxnud_kjmrje_x));\n"},
        {32,
         "c_and_15 = c_and_15 && !anvil_json_string_equals_word(v_gmo_livt_thoqaz_vndu_cf6dvfd_z_vcb_byy_5, \" pg//\", 5, word_pg);",
         "c_and_15 = c_and_15 &&\n"
         "                                           !anvil_json_string_equals_word(v_gmo_livt_thoqaz_vndu_cf6dvfd_z_vcb_byy_5,\n"
         "                                                                          \" pg//\", 5, word_pg);\n"},
        {24,
         "c_and_2 = !((anvil_jmespath_truthy(v_f_w_ygykwdvxe) && anvil_jmespath_truthy(v_f_w_ygykwdvxe)) || !anvil_jmespath_truthy(v_f_w_ygykwdvxe) || !anvil_jmespath_truthy(v_zkxp_a_fjniktb_yuxh_2) || (!anvil_jmespath_truthy(v_f_w_ygykwdvxe) && anvil_jmespath_truthy(v_zkxp_a_fjniktb_yuxh_2) && anvil_jmespath_truthy(v_f_w_ygykwdvxe)));",
         "c_and_2 = !(\n"
         "                            (anvil_jmespath_truthy(v_f_w_ygykwdvxe) && anvil_jmespath_truthy(v_f_w_ygykwdvxe)) ||\n"
         "                            !anvil_jmespath_truthy(v_f_w_ygykwdvxe) ||\n"
         "                            !anvil_jmespath_truthy(v_zkxp_a_fjniktb_yuxh_2) ||\n"
         "                            (!anvil_jmespath_truthy(v_f_w_ygykwdvxe) &&\n"
         "                             anvil_jmespath_truthy(v_zkxp_a_fjniktb_yuxh_2) && anvil_jmespath_truthy(v_f_w_ygykwdvxe)));\n"},
        {16,
         "c_or_3 = c_or_3 || ((anvil_json_is_number(v_ehcth_c_15) && anvil_json_compare(v_ehcth_c_15, &lit_m71843684937) > 0) && !jpc_equal(v_rjujs, &lit_52880193935213) && (anvil_json_is_number(v_ehcth_c_15) && anvil_json_compare(v_ehcth_c_15, &lit_970875677116806) < 0));",
         "c_or_3 =\n"
         "                    c_or_3 ||\n"
         "                    ((anvil_json_is_number(v_ehcth_c_15) && anvil_json_compare(v_ehcth_c_15, &lit_m71843684937) > 0) &&\n"
         "                     !jpc_equal(v_rjujs, &lit_52880193935213) &&\n"
         "                     (anvil_json_is_number(v_ehcth_c_15) &&\n"
         "                      anvil_json_compare(v_ehcth_c_15, &lit_970875677116806) < 0));\n"},
        {16,
         "c_or = c_or || ((anvil_json_is_number(v_yaufkq_bcig9q) && anvil_json_compare(v_yaufkq_bcig9q, &lit_m2738712425977) < 0) && (anvil_json_is_number(v_yaufkq_bcig9q) && anvil_json_compare(v_yaufkq_bcig9q, &lit_m559353) > 0));",
         "c_or =\n"
         "                    c_or ||\n"
         "                    ((anvil_json_is_number(v_yaufkq_bcig9q) &&\n"
         "                      anvil_json_compare(v_yaufkq_bcig9q, &lit_m2738712425977) < 0) &&\n"
         "                     (anvil_json_is_number(v_yaufkq_bcig9q) && anvil_json_compare(v_yaufkq_bcig9q, &lit_m559353) > 0));\n"},
        {28,
         "c_or_4 = c_or_4 || (jpc_str_is(v_vyg_q_qw_ewd_2, \" pfl||a\\\\\\\\\\\\\\\\dfdn\\?\\?lgabcd\", 23) && jpc_str_is(v_hsui_mgpvrquc_iyq9et_hbs_5, str_mokuys_ohbfco_buta_wkfpoint_in_time, 45) && (!jpc_str_is(v_hsui_mgpvrquc_iyq9et_hbs_5, str_cr_s_rqgak_t_uwhtsf_pzcnqs_px_fnl_x_fn, 296) || anvil_json_string_equals_word(v_hsui_mgpvrquc_iyq9et_hbs_5, \"\\302\\205n\", 3, word_n)));",
         "c_or_4 =\n"
         "                                c_or_4 ||\n"
         "                                (jpc_str_is(v_vyg_q_qw_ewd_2, \" pfl||a\\\\\\\\\\\\\\\\dfdn\\?\\?lgabcd\", 23) &&\n"
         "                                 jpc_str_is(v_hsui_mgpvrquc_iyq9et_hbs_5, str_mokuys_ohbfco_buta_wkfpoint_in_time,\n"
         "                                            45) &&\n"
         "                                 (!jpc_str_is(v_hsui_mgpvrquc_iyq9et_hbs_5, str_cr_s_rqgak_t_uwhtsf_pzcnqs_px_fnl_x_fn,\n"
         "                                              296) ||\n"
         "                                  anvil_json_string_equals_word(v_hsui_mgpvrquc_iyq9et_hbs_5, \"\\302\\205n\", 3, word_n)));\n"},
        {20,
         "c_or = c_or || (jpc_str_is(v_imqbvpeu54rvudnevf_k_mz1bzh, str_faua_gqf_k_fi_smp0_oi_kh_q_zf_fm_up_sb, 117) && !jpc_str_is(v_imqbvpeu54rvudnevf_k_mz1bzh, \"mawgdmabcdef0123456789\\?h\", 24));",
         "c_or = c_or || (jpc_str_is(v_imqbvpeu54rvudnevf_k_mz1bzh,\n"
         "                                               str_faua_gqf_k_fi_smp0_oi_kh_q_zf_fm_up_sb, 117) &&\n"
         "                                    !jpc_str_is(v_imqbvpeu54rvudnevf_k_mz1bzh, \"mawgdmabcdef0123456789\\?h\", 24));\n"},
        {32,
         "c_or_2 = c_or_2 || (anvil_json_string_equals_word(v_bekip9o_c_varyzbop_k_lck_yz, \"xabv\", 4, word_xabv) && anvil_json_string_equals_word(v_bekip9o_c_varyzbop_k_lck_yz, \")a%\", 3, word_a));",
         "c_or_2 = c_or_2 || (anvil_json_string_equals_word(v_bekip9o_c_varyzbop_k_lck_yz, \"xabv\",\n"
         "                                                                                  4, word_xabv) &&\n"
         "                                                    anvil_json_string_equals_word(v_bekip9o_c_varyzbop_k_lck_yz, \")a%\",\n"
         "                                                                                  3, word_a));\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * Of a chain of three operands or more, clang-format breaks inside an operand
 * that follows its operator only where the operand starts a line: the
 * operand goes to the next line first. A chain of two may break inside its
 * second operand on the first line.
 */
TEST(codegen_breaks_an_operand_inside_only_where_it_starts_a_line) {
    static const struct s_shape shapes[] = {
        {12,
         "bool c_or = (anvil_json_bool(&t_contains) && jpc_str_is(v_liw_tk_wvqhmbidou0_vznsllibxjbncr, str_besly_xbqj_rg_c_j_hc_g_hu_uz0_xutq_d_n, 122) && anvil_json_string_equals_word(v_liw_tk_wvqhmbidou0_vznsllibxjbncr, \"g\", 1, word_g));",
         "bool c_or =\n"
         "                (anvil_json_bool(&t_contains) &&\n"
         "                 jpc_str_is(v_liw_tk_wvqhmbidou0_vznsllibxjbncr, str_besly_xbqj_rg_c_j_hc_g_hu_uz0_xutq_d_n, 122) &&\n"
         "                 anvil_json_string_equals_word(v_liw_tk_wvqhmbidou0_vznsllibxjbncr, \"g\", 1, word_g));\n"},
        {20,
         "c_or = (anvil_json_bool(&t_contains) && !jpc_str_is(v_ypahny5kgjuai_n4jesi8_h_tm_ly_ln, str_j_u_sv_1_bl_fb_ou_sekv1_b_biw_gf_atkur, 99) && jpc_str_is(v_ypahny5kgjuai_n4jesi8_h_tm_ly_ln, \"\\?tzmikf,yabcdef0123456789(The qu\", 32));",
         "c_or = (anvil_json_bool(&t_contains) &&\n"
         "                            !jpc_str_is(v_ypahny5kgjuai_n4jesi8_h_tm_ly_ln, str_j_u_sv_1_bl_fb_ou_sekv1_b_biw_gf_atkur,\n"
         "                                        99) &&\n"
         "                            jpc_str_is(v_ypahny5kgjuai_n4jesi8_h_tm_ly_ln, \"\\?tzmikf,yabcdef0123456789(The qu\", 32));\n"},
        {16,
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2, \"x\\177aw*)\\360\\237\\230\\200\\?\\?/xzv-ri\\302\\205&&x \\?\\?= \", 29)) {",
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2,\n"
         "                               \"x\\177aw*)\\360\\237\\230\\200\\?\\?/xzv-ri\\302\\205&&x \\?\\?= \", 29)) {\n"},
        {12,
         "bool c_or = (c_and || !jpc_str_is(v_vfljhmzumzqrpu_ssmvlxhj_bnq_z, str_at_the_quick_brown_fox_se_cr_sr_laraid, 117) || anvil_json_string_equals_word(v_vfljhmzumzqrpu_ssmvlxhj_bnq_z, \"weo\", 3, word_weo) || jpc_str_is(v_vfljhmzumzqrpu_ssmvlxhj_bnq_z, \"oxlgx-fs\\360\\237\\230\\200fa   buz\\nv\\\"t\", 24));",
         "bool c_or =\n"
         "                (c_and ||\n"
         "                 !jpc_str_is(v_vfljhmzumzqrpu_ssmvlxhj_bnq_z, str_at_the_quick_brown_fox_se_cr_sr_laraid, 117) ||\n"
         "                 anvil_json_string_equals_word(v_vfljhmzumzqrpu_ssmvlxhj_bnq_z, \"weo\", 3, word_weo) ||\n"
         "                 jpc_str_is(v_vfljhmzumzqrpu_ssmvlxhj_bnq_z, \"oxlgx-fs\\360\\237\\230\\200fa   buz\\nv\\\"t\", 24));\n"},
        {4,
         "ok = aaaaaaaaaaaaaaaaaaaaaaaaaa && gggggggggggggggggggggggg(bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, ccccccccccccccccccccccccccccccccccccccccccccccccccccc);",
         "ok = aaaaaaaaaaaaaaaaaaaaaaaaaa && gggggggggggggggggggggggg(bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,\n"
         "                                                                ccccccccccccccccccccccccccccccccccccccccccccccccccccc);\n"},
        {4,
         "ok = aaaaaaaaaaaaaaaaaaaaaaaaaa && gggggggggggggggggggggggg(bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, ccccccccccccccccccccccccccccccccccccccccccccccccccccc) && x;",
         "ok = aaaaaaaaaaaaaaaaaaaaaaaaaa &&\n"
         "         gggggggggggggggggggggggg(bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,\n"
         "                                  ccccccccccccccccccccccccccccccccccccccccccccccccccccc) &&\n"
         "         x;\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * A string literal that reads as a label (ending in ':' or '=', blanks
 * aside) stays on the line of the argument after it: clang-format weighs a
 * break after its comma at 50, not 1, unless that comma is the call's only
 * one.
 */
TEST(codegen_keeps_a_label_string_with_what_follows) {
    static const struct s_shape shapes[] = {
        {20,
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2_and_more, \"the keys and then a colon, as labels end:  \", 40, word_that_is_long)) {",
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2_and_more,\n"
         "                                   \"the keys and then a colon, as labels end:  \", 40, word_that_is_long)) {\n"},
        {20,
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2_and_more, \"the key and then a colon, as labels end =  \", 40, word_that_is_long)) {",
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2_and_more,\n"
         "                                   \"the key and then a colon, as labels end =  \", 40, word_that_is_long)) {\n"},
        {20,
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2_and_more, \"the key and then a colon, as labels end?=x\", 40, word_that_is_long)) {",
         "if (jpc_str_is(v_tcdu_bcr_ii_iyrfp_item_2_and_more, \"the key and then a colon, as labels end?=x\",\n"
         "                                   40, word_that_is_long)) {\n"},
        {20,
         "if (jpc_str_is(\"the key and then a colon, as labels end and then a lot more of it:\", word_that_is_long_and_longer)) {",
         "if (jpc_str_is(\"the key and then a colon, as labels end and then a lot more of it:\",\n"
         "                                   word_that_is_long_and_longer)) {\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * A comparison whose left side is a call too wide for its line: the
 * arguments aligned after the '(' with the operator after the last, and the
 * right side on the next line four columns in from the call, where the
 * arguments followed by the whole comparison would need a break after the
 * '('; still broken after the '(' where the arguments then fit one line,
 * and the call started on the next line where the comparison then fits.
 */
TEST(codegen_breaks_after_a_comparison_whose_call_is_too_wide) {
    static const struct s_shape shapes[] = {
        {40,
         "if ((c_sdibg || jpc_str_is(v_b1vbcjakjw74j4wn0lrs_arp93l74mdw85es, str_imss1u304e6s6hiwggc8jd1mj2pwxufm3l, 95) || !anvil_jmespath_truthy(v_9pwbof5y3v_k6)) || anvil_json_compare(v_cqvw_nidiw6v6yz0n8l8mlrz8cr50zjzs3ei7, &lit_helqj4l2wk8nf4ombee9909htadaia_5p41ft6uj0fc6u) == 0) {",
         "if ((c_sdibg ||\n"
         "                                             jpc_str_is(v_b1vbcjakjw74j4wn0lrs_arp93l74mdw85es,\n"
         "                                                        str_imss1u304e6s6hiwggc8jd1mj2pwxufm3l, 95) ||\n"
         "                                             !anvil_jmespath_truthy(v_9pwbof5y3v_k6)) ||\n"
         "                                            anvil_json_compare(v_cqvw_nidiw6v6yz0n8l8mlrz8cr50zjzs3ei7,\n"
         "                                                               &lit_helqj4l2wk8nf4ombee9909htadaia_5p41ft6uj0fc6u) ==\n"
         "                                                0) {\n"},
        {44,
         "c_or = c_or || !((!(!(anvil_jmespath_truthy(v_7ma1g89a0m7zx91oyz_i_i6hyxopsr0xwqb3g) || anvil_jmespath_truthy(v_pa2uftqxmmjwncc78s5cjaqb9_z62l9z68z1a)) && !(c_p6_z3sudygnq25ky3ip4fyqokkag4l2fnz4a62j2wlhq__x || b_uqfa1w_wwv6n3ujbhw4k6fo5du1elq_066mv1numtkky0 || anvil_jmespath_truthy(v_3d7slbl8c7euxn3vdun96amwhkia99w2k))) || anvil_jmespath_truthy(v_y37rhub6mg5wpqioq) || !((c_0c4iqc && jpc_str_is(v_cvjelnnuq8ruyry2lsf9hem, str_363s3d7oysvf6abexo4kn, 28) && b_prr42_v91v2n_vnf46z11w6p9527ds1ve) && anvil_json_compare(v_8l5sz6ufuklwxssdh79ww0hbc9xia621f, &lit_ilsm8v2ifyayxlq4wrx96jorcgsbst) < 0)) && c_8mu6e9u78ja50tpynlt6cjd0t9gcz && anvil_json_compare(v_o44spufuvr8pakpm4dhhgii, &lit_mugnn1t473ftb5xy5q07iltgxo69y1_gpbyhginrm) >= 0);",
         "c_or =\n"
         "                                                c_or ||\n"
         "                                                !((!(!(anvil_jmespath_truthy(v_7ma1g89a0m7zx91oyz_i_i6hyxopsr0xwqb3g) ||\n"
         "                                                       anvil_jmespath_truthy(\n"
         "                                                           v_pa2uftqxmmjwncc78s5cjaqb9_z62l9z68z1a)) &&\n"
         "                                                     !(c_p6_z3sudygnq25ky3ip4fyqokkag4l2fnz4a62j2wlhq__x ||\n"
         "                                                       b_uqfa1w_wwv6n3ujbhw4k6fo5du1elq_066mv1numtkky0 ||\n"
         "                                                       anvil_jmespath_truthy(v_3d7slbl8c7euxn3vdun96amwhkia99w2k))) ||\n"
         "                                                   anvil_jmespath_truthy(v_y37rhub6mg5wpqioq) ||\n"
         "                                                   !((c_0c4iqc &&\n"
         "                                                      jpc_str_is(v_cvjelnnuq8ruyry2lsf9hem, str_363s3d7oysvf6abexo4kn,\n"
         "                                                                 28) &&\n"
         "                                                      b_prr42_v91v2n_vnf46z11w6p9527ds1ve) &&\n"
         "                                                     anvil_json_compare(v_8l5sz6ufuklwxssdh79ww0hbc9xia621f,\n"
         "                                                                        &lit_ilsm8v2ifyayxlq4wrx96jorcgsbst) < 0)) &&\n"
         "                                                  c_8mu6e9u78ja50tpynlt6cjd0t9gcz &&\n"
         "                                                  anvil_json_compare(v_o44spufuvr8pakpm4dhhgii,\n"
         "                                                                     &lit_mugnn1t473ftb5xy5q07iltgxo69y1_gpbyhginrm) >=\n"
         "                                                      0);\n"},
        {28,
         "if (!(c_bv6kj && anvil_json_compare(v_712u8hi1ak0e, &lit_0igdni6n6geqdr8vt9zwoldn0rikp5m7mzvme_yx9su) >= 0)) {",
         "if (!(c_bv6kj &&\n"
         "                                  anvil_json_compare(v_712u8hi1ak0e,\n"
         "                                                     &lit_0igdni6n6geqdr8vt9zwoldn0rikp5m7mzvme_yx9su) >= 0)) {\n"},
        {36,
         "if (!(anvil_json_compare(v_0h970, &lit_oetj2aiqswya3f8efiwdpeb_tydw63m02f0kneh7782pis) == 0 || anvil_json_compare(v_yiww5wogylbpyrp_ncwj4wy9wf17bpmhmyvdfd3jpu, &lit_5xs72488n1cpa1t_9lt5ll79sp74iwqc4) <= 0) && !(!(anvil_json_compare(v_to5ank, &lit_o2kn8fh9beiryasos3fe75zmbwnglispjzcl4dt2) <= 0 && (anvil_jmespath_truthy(v_sa2k6wiz19bf06y_7nqhles) || anvil_json_compare(v_m7f4dx59ikhi2bkbyfv1, &lit_xf0z4fedm5ez4ga67v47vbx_gie4dx8srhae) == 0) && (jpc_str_is(v_8wu3rpor2yrmw0vqw76wsk2697, str_ttin, 97) && !(!anvil_jmespath_truthy(v_ljm6690qxfxjhgoa8e3devxg5td4n4b6ya2uxg__c) && b__q0w))) && !anvil_jmespath_truthy(v_wn5afv_4vbz05))) {",
         "if (!(anvil_json_compare(\n"
         "                                              v_0h970, &lit_oetj2aiqswya3f8efiwdpeb_tydw63m02f0kneh7782pis) == 0 ||\n"
         "                                          anvil_json_compare(v_yiww5wogylbpyrp_ncwj4wy9wf17bpmhmyvdfd3jpu,\n"
         "                                                             &lit_5xs72488n1cpa1t_9lt5ll79sp74iwqc4) <= 0) &&\n"
         "                                        !(!(anvil_json_compare(v_to5ank,\n"
         "                                                               &lit_o2kn8fh9beiryasos3fe75zmbwnglispjzcl4dt2) <= 0 &&\n"
         "                                            (anvil_jmespath_truthy(v_sa2k6wiz19bf06y_7nqhles) ||\n"
         "                                             anvil_json_compare(v_m7f4dx59ikhi2bkbyfv1,\n"
         "                                                                &lit_xf0z4fedm5ez4ga67v47vbx_gie4dx8srhae) == 0) &&\n"
         "                                            (jpc_str_is(v_8wu3rpor2yrmw0vqw76wsk2697, str_ttin, 97) &&\n"
         "                                             !(!anvil_jmespath_truthy(v_ljm6690qxfxjhgoa8e3devxg5td4n4b6ya2uxg__c) &&\n"
         "                                               b__q0w))) &&\n"
         "                                          !anvil_jmespath_truthy(v_wn5afv_4vbz05))) {\n"},
        {52,
         "bool c_cpcp2wva4aqtt5e5hsp4kgd_a0lbbm5xs43uj8ds36e = ((c_ev198jc8jgb_cchjfbnud_ && (!(b_uux6 || !anvil_jmespath_truthy(v_ce3smwo9l9ut7utb3oucjcu0grmmt494h) || anvil_json_compare(v_vmvctebsztggj74tod2yryvcjvjvz, &lit_f5uqpztr2r) >= 0) || anvil_json_string_equals_word(v_3js88xfb69sd4f68hc608efi6je, \"q\\\"r\", 3, word_4r4_) || (anvil_json_compare(v_rg362newd28cb1hqd, &lit_88rtpevtsiq96abu4we9lugur4tz_v) != 0 && b_yqkhrf_1ouresietj4p8lc2dgz8vto29ke1dsq))) && c_iyaga528);",
         "bool c_cpcp2wva4aqtt5e5hsp4kgd_a0lbbm5xs43uj8ds36e =\n"
         "                                                        ((c_ev198jc8jgb_cchjfbnud_ &&\n"
         "                                                          (!(b_uux6 ||\n"
         "                                                             !anvil_jmespath_truthy(\n"
         "                                                                 v_ce3smwo9l9ut7utb3oucjcu0grmmt494h) ||\n"
         "                                                             anvil_json_compare(v_vmvctebsztggj74tod2yryvcjvjvz,\n"
         "                                                                                &lit_f5uqpztr2r) >= 0) ||\n"
         "                                                           anvil_json_string_equals_word(v_3js88xfb69sd4f68hc608efi6je,\n"
         "                                                                                         \"q\\\"r\", 3, word_4r4_) ||\n"
         "                                                           (anvil_json_compare(v_rg362newd28cb1hqd,\n"
         "                                                                               &lit_88rtpevtsiq96abu4we9lugur4tz_v) !=\n"
         "                                                                0 &&\n"
         "                                                            b_yqkhrf_1ouresietj4p8lc2dgz8vto29ke1dsq))) &&\n"
         "                                                         c_iyaga528);\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * `LHS = f(...) OP x;`: a comparison after '=' is a binary expression, so a
 * break inside it on the '=' line indents from where it starts, not from
 * the statement; on the next line, with each side fitting a line, it is
 * broken after its operator and the right side aligned with the left.
 */
TEST(codegen_lays_out_a_comparison_after_an_assignment) {
    static const struct s_shape shapes[] = {
        {8,
         "c = anvil_json_compare(v_ahiusy9r9aq084vefa_73ndpga5o_hvml8c1nx9e422x_and_more_and_more_and_more_and_more_ok, &lit_bhn) >= 0;",
         "c = anvil_json_compare(v_ahiusy9r9aq084vefa_73ndpga5o_hvml8c1nx9e422x_and_more_and_more_and_more_and_more_ok,\n"
         "                               &lit_bhn) >= 0;\n"},
        {8,
         "bool ccccc = anvil_json_compare(v_ahiusy9r9aq084vefa_73ndpga5o_hvml8c1nx9e422x_and_more_and_more_and_more_and_more_ok_xxxxxxx, &lit_bhn) >= 0;",
         "bool ccccc = anvil_json_compare(\n"
         "                         v_ahiusy9r9aq084vefa_73ndpga5o_hvml8c1nx9e422x_and_more_and_more_and_more_and_more_ok_xxxxxxx,\n"
         "                         &lit_bhn) >= 0;\n"},
        {8,
         "bool c_norc6rf9hhh91o5d3i_85rez_zirtyc = anvil_json_compare(v_ahiusy9r9aq084vefa_73ndpga5o_hvml8c1nx9e422x, &lit_bhn18qx276chtd62n2p504exa) >= 0;",
         "bool c_norc6rf9hhh91o5d3i_85rez_zirtyc =\n"
         "            anvil_json_compare(v_ahiusy9r9aq084vefa_73ndpga5o_hvml8c1nx9e422x, &lit_bhn18qx276chtd62n2p504exa) >= 0;\n"},
        {36,
         "bool c_pve2kqnks2olhwkr6pit6rkz40lc_tfj3xq4 = anvil_json_compare(v_g5u, &lit_epfyc7vxs1xu2p3vavowdq5f7gw37y3l3f6hkn3cw05k60) > 0;",
         "bool c_pve2kqnks2olhwkr6pit6rkz40lc_tfj3xq4 =\n"
         "                                        anvil_json_compare(v_g5u, &lit_epfyc7vxs1xu2p3vavowdq5f7gw37y3l3f6hkn3cw05k60) >\n"
         "                                        0;\n"},
        {24,
         "bool c_nsdk4ige4lil3syaik23ps2m5f4w = anvil_json_compare(v_k2vhexsearb633ahxxpjkp4, &lit_zk0jjc1jsq4t3ij8wup47ge_m2ufrvh3zvlx) <= 0;",
         "bool c_nsdk4ige4lil3syaik23ps2m5f4w =\n"
         "                            anvil_json_compare(v_k2vhexsearb633ahxxpjkp4, &lit_zk0jjc1jsq4t3ij8wup47ge_m2ufrvh3zvlx) <=\n"
         "                            0;\n"},
        {12,
         "bool c_a1mxek168cdiwhgw5g8ege0pl5t414hv3u99 = anvil_json_compare(v_s1hyhzr1g2eom3alovonb9qrlq_g, &lit_beussr9m01xlfb5eyx65ien0dr2yg6k7l9x9m97al2oo) >= 0;",
         "bool c_a1mxek168cdiwhgw5g8ege0pl5t414hv3u99 =\n"
         "                anvil_json_compare(v_s1hyhzr1g2eom3alovonb9qrlq_g, &lit_beussr9m01xlfb5eyx65ien0dr2yg6k7l9x9m97al2oo) >=\n"
         "                0;\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * `c = c || (f(...) && g(...));` where breaking after '=' and '||' costs
 * what breaking inside the group on the '=' line does: clang-format's search
 * completes first the layout with fewer tokens after its last break (the
 * first two); four columns further in, that layout needs one break more and
 * the other is taken (the third).
 */
TEST(codegen_takes_of_two_layouts_of_one_penalty_the_one_clang_format_finds_first) {
    static const struct s_shape shapes[] = {
        {20,
         "c_or_8 = c_or_8 || (!anvil_json_string_equals_word(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, \"\", 0, word_field) && !jpc_str_is(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, str_bycxrcxwye_the_quick_brown_fox_xu_j_xw, 92));",
         "c_or_8 =\n"
         "                        c_or_8 ||\n"
         "                        (!anvil_json_string_equals_word(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, \"\", 0, word_field) &&\n"
         "                         !jpc_str_is(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, str_bycxrcxwye_the_quick_brown_fox_xu_j_xw,\n"
         "                                     92));\n"},
        {20,
         "c_or_8 = c_or_8 || (anvil_json_string_equals_word(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, \"\", 0, word_field) && jpc_str_is(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, str_bycxrcxwye_the_quick_brown_fox_xu_j_xw, 92));",
         "c_or_8 =\n"
         "                        c_or_8 ||\n"
         "                        (anvil_json_string_equals_word(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, \"\", 0, word_field) &&\n"
         "                         jpc_str_is(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, str_bycxrcxwye_the_quick_brown_fox_xu_j_xw,\n"
         "                                    92));\n"},
        {24,
         "c_or_8 = c_or_8 || (!anvil_json_string_equals_word(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, \"\", 0, word_field) && !jpc_str_is(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, str_bycxrcxwye_the_quick_brown_fox_xu_j_xw, 92));",
         "c_or_8 = c_or_8 || (!anvil_json_string_equals_word(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo, \"\",\n"
         "                                                                           0, word_field) &&\n"
         "                                            !jpc_str_is(v_qyx_yb_p_gw_x_okwn8_sfj_w_cdnix_p_oo,\n"
         "                                                        str_bycxrcxwye_the_quick_brown_fox_xu_j_xw, 92));\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * `TYPE NAME;` and `TYPE *NAME;` too wide: broken before the declarator,
 * four columns in, the '*' left on the type's line where the declarator
 * with it would still run past the limit; `return NAME;` stays on its line.
 */
TEST(codegen_breaks_a_declaration_before_its_declarator) {
    static const struct s_shape shapes[] = {
        {0,
         "static struct anvil_json_doc *s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc;",
         "static struct anvil_json_doc\n"
         "    *s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc;\n"},
        {0,
         "extern const struct anvil_waiter s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_waiter_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;",
         "extern const struct anvil_waiter\n"
         "    s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_waiter_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;\n"},
        {0,
         "extern const struct anvil_waiter s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected;",
         "extern const struct anvil_waiter\n"
         "    s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected;\n"},
        {0,
         "static struct anvil_json_doc *s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;",
         "static struct anvil_json_doc *\n"
         "    s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;\n"},
        {8,
         "const struct anvil_json *v_s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc;",
         "const struct anvil_json\n"
         "            *v_s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc;\n"},
        {8,
         "size_t n_s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_xxxxxxxxxxxxxx;",
         "size_t\n"
         "            n_s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_xxxxxxxxxxxxxx;\n"},
        {8,
         "return s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_xxxxxxxxxxxxxxxxxxxxxx;",
         "return s0e8baqfsddr_match_ei_lygdqxukcu86wtvm_j8_eug_ezwqks5v_qd_lev_q1_401293e5_value_expected_doc_xxxxxxxxxxxxxxxxxxxxxx;\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * A comparison whose left side is a call, after `if (` or `LHS =`: broken
 * after its operator where the call fits the line, the right side four
 * columns in (a condition) or aligned under the left (an assignment);
 * where it does not, its arguments packed after its '(' with the operator
 * after the last, where that costs less than breaking after the '('.
 */
TEST(codegen_breaks_a_comparison_after_its_call) {
    static const struct s_shape shapes[] = {
        {8,
         "if (fffffffffffffffffffffffffffffffffffff(&cc, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, &cccccccc, aaaaaaaaaaaaaaaaaaaaaaaaaaaaa) != yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) {",
         "if (fffffffffffffffffffffffffffffffffffff(&cc, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, &cccccccc,\n"
         "                                                  aaaaaaaaaaaaaaaaaaaaaaaaaaaaa) !=\n"
         "            yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) {\n"},
        {8,
         "vvvvvvvvvvvv = fffffffffffffffffffffffffffffffffffffff(aaaa, a, bbbbbbbbbbbbbbbbbbbbbbbb, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) < yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy;",
         "vvvvvvvvvvvv = fffffffffffffffffffffffffffffffffffffff(aaaa, a, bbbbbbbbbbbbbbbbbbbbbbbb,\n"
         "                                                               aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) <\n"
         "                       yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy;\n"},
        {40, "if (!XmNmvmimzfrlcmY(c7mbYu8j3huxfOIkaxdig9sLR(), !PJPjbLzUmtrxOsIK0CFBW()) < ykG4UD3UwSD) {",
         "if (!XmNmvmimzfrlcmY(c7mbYu8j3huxfOIkaxdig9sLR(), !PJPjbLzUmtrxOsIK0CFBW()) <\n"
         "                                            ykG4UD3UwSD) {\n"},
        {40,
         "if (fHqkr4jce0kh(Qq6wCdu0y8lIGNJLka(), InUegkl1QuwXEmxWacdkCjhx4d_xVfd0X) >= az9oRpcGMmlRaxohAoBQuRFNsj) {",
         "if (fHqkr4jce0kh(Qq6wCdu0y8lIGNJLka(), InUegkl1QuwXEmxWacdkCjhx4d_xVfd0X) >=\n"
         "                                            az9oRpcGMmlRaxohAoBQuRFNsj) {\n"},
        {8,
         "Tn = Y3eFgohwFUWcFchE1Si(CeizeLbz) >= ijqF1r_VqJju2DSOxp1c1Df(S__gWKug0g0jxU1gqnkhsO, PwJDInxO6qgyl7, ztygyBEU4rpwcLF);",
         "Tn = Y3eFgohwFUWcFchE1Si(CeizeLbz) >=\n"
         "             ijqF1r_VqJju2DSOxp1c1Df(S__gWKug0g0jxU1gqnkhsO, PwJDInxO6qgyl7, ztygyBEU4rpwcLF);\n"},
        {12,
         "bool kjwZ4g9 = !w9PzPMvuTlxO4nfM(MJys_KwtmfPMzCawQR) >= S1_PjwLLIb_06RuQgo3YjFt_fpGvdDvt(hdvfjqppbsEWoi3pfYqOuffHtybT, \"%s  :\");",
         "bool kjwZ4g9 = !w9PzPMvuTlxO4nfM(MJys_KwtmfPMzCawQR) >=\n"
         "                           S1_PjwLLIb_06RuQgo3YjFt_fpGvdDvt(hdvfjqppbsEWoi3pfYqOuffHtybT, \"%s  :\");\n"},
        {12,
         "vvvv = ffffffffffffffffffff(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, &cccccccccccc) != yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy;",
         "vvvv = ffffffffffffffffffff(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, &cccccccccccc) !=\n"
         "                   yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy;\n"},
        {12,
         "if (ffffffffffffffffffffff(aaaaaaaa, aa, aaaaaaaaaa, &cccccccccccccccc) < yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) {",
         "if (ffffffffffffffffffffff(aaaaaaaa, aa, aaaaaaaaaa, &cccccccccccccccc) <\n"
         "                yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) {\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * clang-format weighs a break after a label string's comma at 50, unless
 * the comma is its call's only one (the last shape): the penalty that
 * chooses among layouts counts it so.
 */
TEST(codegen_weighs_a_break_after_a_label_as_clang_format_does) {
    static const struct s_shape shapes[] = {
        {12,
         "XgEhztqulQI = zb6D3nRpclAnf(y7cxEhGyo7gl_, EJWnx6wbqyPK3jAyz5fy99h9mWXObAfM, \"a:\", \"\\n=a, )\\\\,&&abcdefghij\\n= \\\":)=x yx y)\") == lpdd4ezV;",
         "XgEhztqulQI = zb6D3nRpclAnf(y7cxEhGyo7gl_, EJWnx6wbqyPK3jAyz5fy99h9mWXObAfM,\n"
         "                                        \"a:\", \"\\n=a, )\\\\,&&abcdefghij\\n= \\\":)=x yx y)\") == lpdd4ezV;\n"},
        {12,
         "r6pcchLmeUx8Q = !nSADvcvrK2Khz5j3z(&s0WOOOQrQexQgTmyXmW, \"vKdozZpA2VkgbZg: \", hl8DKoEYGuBvHcOLvhkrjiWsjtj4b9duydDnUln) == z1oeThR;",
         "r6pcchLmeUx8Q = !nSADvcvrK2Khz5j3z(&s0WOOOQrQexQgTmyXmW,\n"
         "                                               \"vKdozZpA2VkgbZg: \", hl8DKoEYGuBvHcOLvhkrjiWsjtj4b9duydDnUln) == z1oeThR;\n"},
        {12,
         "QEA0ih8fiW_sYzZjFfihn = (fJeiumTpglcev_() || hbZGj4Yx7F(&O, \"_fzWp::\") == XLPb || !xfvPuIMJrcLmUfxeae2mTdu0WaU5iJ9(grK2oEri6bsDk9jAIaoJ1MsnmAylphPhvxdxx0riAfWorvnt9hxnLVasj_spQuaznkyCBiX, pimzJMgN2_eM94FcvvmYopvsEIhaO, \" %s(==a=\\\\,,:\") == mvWdpA4wyaBbh || hHCrhEibsEWpQjyDWFWyystruUt2a5orziredtPaf9i6d_J4YzoKyVj(\"CIrr5vn7JK8Sxaz21: \", Wzwgczxtg4Bgpnf1YzMgYPeH)) || oZtpWkagtkeSwK6(Wcdy94uBDMPlcgt(), YiPZX555u9fiARsziFCvNTUV0, gGldg5XkfhrewHzMD8c7B, \",)\\\\bb\", xp);",
         "QEA0ih8fiW_sYzZjFfihn =\n"
         "                (fJeiumTpglcev_() || hbZGj4Yx7F(&O, \"_fzWp::\") == XLPb ||\n"
         "                 !xfvPuIMJrcLmUfxeae2mTdu0WaU5iJ9(\n"
         "                     grK2oEri6bsDk9jAIaoJ1MsnmAylphPhvxdxx0riAfWorvnt9hxnLVasj_spQuaznkyCBiX,\n"
         "                     pimzJMgN2_eM94FcvvmYopvsEIhaO, \" %s(==a=\\\\,,:\") == mvWdpA4wyaBbh ||\n"
         "                 hHCrhEibsEWpQjyDWFWyystruUt2a5orziredtPaf9i6d_J4YzoKyVj(\"CIrr5vn7JK8Sxaz21: \",\n"
         "                                                                         Wzwgczxtg4Bgpnf1YzMgYPeH)) ||\n"
         "                oZtpWkagtkeSwK6(Wcdy94uBDMPlcgt(), YiPZX555u9fiARsziFCvNTUV0, gGldg5XkfhrewHzMD8c7B, \",)\\\\bb\", xp);\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * A designated initializer too wide for its line, `.member = NAME,`: broken
 * after the '=', the name four columns in even where it is still too wide
 * (clang-format's output for these, in a table and in a struct).
 */
TEST(codegen_breaks_a_designated_initializer_after_its_equals) {
    static const struct s_shape shapes[] = {
        {4,
         ".acceptors = uvnndsjz_w8amauinu2_w9ssws_hgus9_ouo_oz_mk_uncaj_h_ere_b_ubp7gvrvj_cq8mbn8rlh_cfaci_r0wwqf_tp3_acceptors,",
         ".acceptors =\n        uvnndsjz_w8amauinu2_w9ssws_hgus9_ouo_oz_mk_uncaj_h_ere_b_ubp7gvrvj_cq8mbn8rlh_cfaci_r0wwqf_tp3_acceptors,\n"},
        {4,
         ".acceptors = uvnndsjz_w8amauinu2_w9ssws_hgus9_ouo_oz_mk_uncaj_h_ere_b_ubp7gvrvj_cq8mbn8rlh_cfaci_r0wwqf_tp3_acceptors_xxxxxxxxxxxxxxxxxxxxxxx,",
         ".acceptors =\n        uvnndsjz_w8amauinu2_w9ssws_hgus9_ouo_oz_mk_uncaj_h_ere_b_ubp7gvrvj_cq8mbn8rlh_cfaci_r0wwqf_tp3_acceptors_xxxxxxxxxxxxxxxxxxxxxxx,\n"},
        {5,
         ".codes = uvnndsjz_w8amauinu2_w9ssws_hgus9_ouo_oz_mk_uncaj_h_ere_b_ubp7gvrvj_cq8mbn8rlh_cfaci_r0wwqf_tp3_codes_1xxxxxxxxxx,",
         ".codes =\n         uvnndsjz_w8amauinu2_w9ssws_hgus9_ouo_oz_mk_uncaj_h_ere_b_ubp7gvrvj_cq8mbn8rlh_cfaci_r0wwqf_tp3_codes_1xxxxxxxxxx,\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/*
 * Function heads too wide for a line (anvil__c_declaration): a return type
 * of one token (`int`) stays on the name's line, the head laid out as a
 * call is; a longer one goes on a line of its own only where the name and
 * its parameters then fit, or where the name does not fit after it.
 */
TEST(codegen_lays_out_a_function_head_too_wide_for_its_line) {
    static const char *const heads[][2] = {
        {"int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(const struct anvil_client_operation_xx *client);",
         "int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(\n"
         "    const struct anvil_client_operation_xx *client);\n"},
        {"int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(const struct anvil_client *client, const struct anvil_json *input, const struct anvil_wait_options *options, struct anvil_wait_result *result, struct anvil_diag *diag);",
         "int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(\n"
         "    const struct anvil_client *client, const struct anvil_json *input, const struct anvil_wait_options *options,\n"
         "    struct anvil_wait_result *result, struct anvil_diag *diag);\n"},
        {"static int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(const struct anvil_client_operation_xx *client) {",
         "static int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(\n"
         "    const struct anvil_client_operation_xx *client) {\n"},
        {"static int riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(void);",
         "static int\n"
         "riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(\n"
         "    void);\n"},
        {"static const struct anvil_json *riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(const struct anvil_client_operation_xx *client);",
         "static const struct anvil_json *\n"
         "riybuv9_wait_until_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(\n"
         "    const struct anvil_client_operation_xx *client);\n"},
    };
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        out.len = 0;
        CHECK_OK(anvil__c_declaration(&out, 0, heads[i][0], strlen(heads[i][0])));
        CHECK_OK(anvil_buf_append_byte(&out, '\0'));
        CHECK_STR_EQ(out.data, heads[i][1]);
    }
done:
    anvil_buf_clean_up(&out);
}

/*
 * A table or a struct at the file's top whose head is too wide
 * (anvil__c_rewrap): broken after the '=' with the '{' on a line of its own
 * where `TYPE NAME[] =` fits, else before the name, and after its '=' again
 * or before the `[]` where `NAME[] = {` does not fit after that; the rows
 * go four (or eight) columns further in, the closing brace stays where it
 * was; where rows run past the limit, the way that runs least past it.
 * clang-format's output for these seven.
 */
TEST(codegen_breaks_a_table_head_too_wide_for_its_line) {
    static const char text[] =
        "static const struct anvil_str_view hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2[] = {\n"
        "    {\"yia\\tfun\", 7},\n"
        "    {\"abc\", 3},\n"
        "};\n"
        "static const struct anvil_str_view hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx[] = {\n"
        "    {\"yia\\tfun\", 7},\n"
        "};\n"
        "static const struct anvil_str_view riybuv9_g_juoapf_mbrcmyhiq_qoek_pl_ew_e_ikxi_uxxvfahoty_kf_dvlu_cxjt_dhklpy_oppl9bya_vu_skqiahnbvjl_yxw_voswcp_dvkubndser_yh1_codes_0[] = {\n"
        "    {\"}\", 1},\n"
        "};\n"
        "const struct anvil_waiter x_hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx = {\n"
        "    .name = {\"GJuoapf\", 7},\n"
        "    .min_delay_s = 15,\n"
        "};\n";
    static const char want[] =
        "static const struct anvil_str_view hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2[] =\n"
        "    {\n"
        "        {\"yia\\tfun\", 7},\n"
        "        {\"abc\", 3},\n"
        "};\n"
        "static const struct anvil_str_view\n"
        "    hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx[] = {\n"
        "        {\"yia\\tfun\", 7},\n"
        "};\n"
        "static const struct anvil_str_view\n"
        "    riybuv9_g_juoapf_mbrcmyhiq_qoek_pl_ew_e_ikxi_uxxvfahoty_kf_dvlu_cxjt_dhklpy_oppl9bya_vu_skqiahnbvjl_yxw_voswcp_dvkubndser_yh1_codes_0\n"
        "        [] = {\n"
        "            {\"}\", 1},\n"
        "};\n"
        "const struct anvil_waiter\n"
        "    x_hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx = {\n"
        "        .name = {\"GJuoapf\", 7},\n"
        "        .min_delay_s = 15,\n"
        "};\n";
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&out, "/* before */\n"));
    CHECK_OK(anvil_buf_append_cstr(&out, text));
    CHECK_OK(anvil__c_rewrap(&out, strlen("/* before */\n")));
    CHECK_OK(anvil_buf_append_byte(&out, '\0'));
    CHECK_STR_EQ(out.data + strlen("/* before */\n"), want);
    /* A struct whose `TYPE NAME =` fits, the '{' below; an array whose `NAME[] =` fits four columns in but not its
       '{'; and a table whose row runs past the limit wherever it goes: its head kept where the whole runs least past
       it (clang-format's excess penalty, counted for each token), not where the head alone would fit; and an array
       whose name fits no line, broken before its name and its `[]` with one row, and with four (each past the limit
       wherever it goes) after its name, `[] = {` four columns in; and a struct whose ways tie, kept whole (no break).
     */
    static const char text2[] =
        "const struct anvil_waiter p_waiter_description_of_a_table_whose_name_is_long_enough_to_need_the_brace_below_its_head_x = {\n"
        "    .name = {\"x\", 1},\n"
        "    .min_delay_s = 15,\n"
        "};\n"
        "static const struct anvil_str_view p_codes_of_a_waiter_whose_name_is_long_enough_for_its_array_to_have_the_brace_below_the_line_of_its_name_xxxxxx[] = {\n"
        "    {\"abc\", 3},\n"
        "};\n"
        "static const struct anvil_waiter_acceptor anvlong_replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor_acceptors[] = {\n"
        "    {.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_ERROR_TYPE, .codes = anvlong_replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor_codes_1, .code_count = 1},\n"
        "};\n"
        /* one row: */
        "static const struct anvil_waiter_acceptor p_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_acceptors[] = {\n"
        "    {.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_OUTPUT, .compiled = p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_0},\n"
        "};\n"
        /* four rows: */
        "static const struct anvil_waiter_acceptor p_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_acceptors[] = {\n"
        "    {.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_OUTPUT, .compiled = p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_0},\n"
        "    {.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_OUTPUT, .compiled = p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_1},\n"
        "    {.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_OUTPUT, .compiled = p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_2},\n"
        "    {.state = ANVIL_WAITER_RETRY, .matcher = ANVIL_MATCH_OUTPUT, .compiled = p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_3},\n"
        "};\n"
        /* a tie: whole */
        "const struct anvil_waiter w_nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn = {\n"
        "    .max_attempts = 40,\n"
        "    .acceptors = a_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,\n"
        "};\n";
    static const char want2[] =
        "const struct anvil_waiter p_waiter_description_of_a_table_whose_name_is_long_enough_to_need_the_brace_below_its_head_x =\n"
        "    {\n"
        "        .name = {\"x\", 1},\n"
        "        .min_delay_s = 15,\n"
        "};\n"
        "static const struct anvil_str_view\n"
        "    p_codes_of_a_waiter_whose_name_is_long_enough_for_its_array_to_have_the_brace_below_the_line_of_its_name_xxxxxx[] =\n"
        "        {\n"
        "            {\"abc\", 3},\n"
        "};\n"
        "static const struct anvil_waiter_acceptor\n"
        "    anvlong_replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor_acceptors[] = {\n"
        "        {.state = ANVIL_WAITER_RETRY,\n"
        "         .matcher = ANVIL_MATCH_ERROR_TYPE,\n"
        "         .codes =\n"
        "             anvlong_replicationofeveryglobalsecondaryindexisactiveineveryregionwherethetableisdeployedandreadyfor_codes_1,\n"
        "         .code_count = 1},\n"
        "};\n"
        /* one row: */
        "static const struct anvil_waiter_acceptor\n"
        "    p_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_acceptors\n"
        "        [] = {\n"
        "            {.state = ANVIL_WAITER_RETRY,\n"
        "             .matcher = ANVIL_MATCH_OUTPUT,\n"
        "             .compiled =\n"
        "                 p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_0},\n"
        "};\n"
        /* four rows: */
        "static const struct anvil_waiter_acceptor p_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa_acceptors\n"
        "    [] = {\n"
        "        {.state = ANVIL_WAITER_RETRY,\n"
        "         .matcher = ANVIL_MATCH_OUTPUT,\n"
        "         .compiled =\n"
        "             p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_0},\n"
        "        {.state = ANVIL_WAITER_RETRY,\n"
        "         .matcher = ANVIL_MATCH_OUTPUT,\n"
        "         .compiled =\n"
        "             p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_1},\n"
        "        {.state = ANVIL_WAITER_RETRY,\n"
        "         .matcher = ANVIL_MATCH_OUTPUT,\n"
        "         .compiled =\n"
        "             p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_2},\n"
        "        {.state = ANVIL_WAITER_RETRY,\n"
        "         .matcher = ANVIL_MATCH_OUTPUT,\n"
        "         .compiled =\n"
        "             p_match_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb_3},\n"
        "};\n"
        /* a tie: whole */
        "const struct anvil_waiter w_nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn = {\n"
        "    .max_attempts = 40,\n"
        "    .acceptors =\n"
        "        a_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,\n"
        "};\n";
    out.len = 0;
    CHECK_OK(anvil_buf_append_cstr(&out, text2));
    CHECK_OK(anvil__c_rewrap(&out, 0));
    CHECK_OK(anvil_buf_append_byte(&out, '\0'));
    CHECK_STR_EQ(out.data, want2);
    /* A table cut short (no `};`): a blank line or a line at the file's top ends its rows' move. */
    static const char head[] =
        "static const struct anvil_str_view "
        "hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx[] = {";
    out.len = 0;
    CHECK_OK(anvil_buf_appendf(&out, "%s\n    {\"a\", 1},\n\n    int y;\n%s\nint x;\n", head, head));
    CHECK_OK(anvil__c_rewrap(&out, 0));
    CHECK_OK(anvil_buf_append_byte(&out, '\0'));
    CHECK_STR_EQ(
        out.data,
        "static const struct anvil_str_view\n"
        "    hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx[] = {\n"
        "        {\"a\", 1},\n\n    int y;\n"
        "static const struct anvil_str_view\n"
        "    hd_lkfv_qzwsm_rebipvtsqc3jnuurz_cfg6rqumtr_rbkk_jnsfnikyoslfm9rpwlmb_szj2_codes_2xxxxxxxxxxxxxx[] = {\n"
        "int x;\n");
done:
    anvil_buf_clean_up(&out);
}

/* Deep in a nest, with long names: a condition that is one call broken after its '(', the argument four columns in from
 * it; a chain's call operand too wide for any other place on a line of its own with its arguments on the next; a
 * declaration whose `TYPE NAME =` is too wide broken before the declarator; and, where nothing keeps an argument within
 * 120 columns, clang-format's layout with the least overflow (the last try). */
TEST(codegen_breaks_calls_and_declarators_deep_in_a_nest) {
    static const struct s_shape shapes[] = {
        {52, "if (!anvil_json_is_string(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb)) {",
         "if (!anvil_json_is_string(\n"
         "                                                            v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb)) {\n"},
        {52,
         "if (!(anvil_json_is_string(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb) || anvil_json_is_array(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb))) {",
         "if (!(anvil_json_is_string(\n"
         "                                                              v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb) ||\n"
         "                                                          anvil_json_is_array(\n"
         "                                                              v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb))) {\n"},
        {48,
         "bool c_and_3 = (!anvil_json_string_equals_word(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb, \" \", 1, word_field) && !anvil_json_string_equals_word(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb, \"\", 0, word_field_2));",
         "bool c_and_3 = (!anvil_json_string_equals_word(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb, \" \", 1,\n"
         "                                                                    word_field) &&\n"
         "                                                                !anvil_json_string_equals_word(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb, \"\", 0,\n"
         "                                                                    word_field_2));\n"},
        {48, "if (!anvil_json_is_null(v_n_gam_vldh_snzs_jj_6s9aam_e_h_ztapr4_k_item)) {",
         "if (!anvil_json_is_null(\n"
         "                                                        v_n_gam_vldh_snzs_jj_6s9aam_e_h_ztapr4_k_item)) {\n"},
        {60,
         "if (anvil_json_is_string(v_ukeokafgnkydihxyvpg7h_sygdzjywi) && !anvil_json_is_array(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xx)) {",
         "if (anvil_json_is_string(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi) &&\n"
         "                                                                !anvil_json_is_array(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xx)) {\n"},
        {60,
         "c_or = c_or || anvil_json_is_string(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xxxxxxxxxxxxx) || anvil_json_is_array(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_x);",
         "c_or =\n"
         "                                                                c_or ||\n"
         "                                                                anvil_json_is_string(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xxxxxxxxxxxxx) ||\n"
         "                                                                anvil_json_is_array(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_x);\n"},
        {64,
         "if (!jpc_str_is(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xxxxxxxx, str_point_in_time_iimmlm_swnx_n_mt_u_dju_u, 218)) {",
         "if (!jpc_str_is(\n"
         "                                                                        v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xxxxxxxx,\n"
         "                                                                        str_point_in_time_iimmlm_swnx_n_mt_u_dju_u,\n"
         "                                                                        218)) {\n"},
        {56,
         "bool c_and = anvil_json_is_string(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb) && anvil_json_is_number(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_aaaa);",
         "bool c_and = anvil_json_is_string(\n"
         "                                                                         v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb) &&\n"
         "                                                                     anvil_json_is_number(\n"
         "                                                                         v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_aaaa);\n"},
        {72, "if (anvil_jmespath_truthy(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xxxxxxxx)) {",
         "if (anvil_jmespath_truthy(\n"
         "                                                                                v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_xxxxxxxx)) {\n"},
        {48,
         "const struct anvil_json *v_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_item_2 = &items_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_2[i_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_item_2];",
         "const struct anvil_json\n"
         "                                                    *v_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_item_2 =\n"
         "                                                        &items_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_2\n"
         "                                                            [i_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_item_2];\n"},
        {48,
         "const struct anvil_json *items_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_4 = anvil_json_array_at(v_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_5, 0);",
         "const struct anvil_json\n"
         "                                                    *items_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_4 =\n"
         "                                                        anvil_json_array_at(v_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_5,\n"
         "                                                                            0);\n"},
        {52,
         "const struct anvil_json *items_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_4 = anvil_json_array_at(v_zfkg, 0);",
         "const struct anvil_json\n"
         "                                                        *items_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_4 =\n"
         "                                                            anvil_json_array_at(v_zfkg, 0);\n"},
        {52,
         "struct anvil_json v_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_item_2_aaaaaaaaaaaaaaaaa = anvil_json_make_int(v_zfkg);",
         "struct anvil_json\n"
         "                                                        v_zfkgc_qubvu_uln_phocra_hycxfqpgf5zddl_r_item_2_aaaaaaaaaaaaaaaaa =\n"
         "                                                            anvil_json_make_int(v_zfkg);\n"},
        {60,
         "if (anvil_jmespath_truthy(v_a) && !anvil_json_is_string(v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_abcde)) {",
         "if (anvil_jmespath_truthy(v_a) &&\n"
         "                                                                !anvil_json_is_string(\n"
         "                                                                    v_ukeokafgnkydihxyvpg7h_sygdzjywi_clfhzb_abcde)) {\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* A group in a chain that is broken inside goes on a line of its own unless it is the chain's last operand, even when
 * starting it after the operator would save a line: each expectation clang-format's own. */
TEST(codegen_starts_a_group_on_its_line_only_last) {
    static const struct s_shape shapes[] = {
        {16,
         "c_or = (!anvil_jmespath_truthy(v_ly3o) || !anvil_jmespath_truthy(v_ly3o) || (anvil_jmespath_truthy(v_ly3o) && !anvil_jmespath_truthy(v_ly3o) && anvil_jmespath_truthy(v_ly3o) && !anvil_jmespath_truthy(v_ly3o)) || anvil_jmespath_truthy(v_ly3o));",
         "c_or = (!anvil_jmespath_truthy(v_ly3o) || !anvil_jmespath_truthy(v_ly3o) ||\n"
         "                        (anvil_jmespath_truthy(v_ly3o) && !anvil_jmespath_truthy(v_ly3o) &&\n"
         "                         anvil_jmespath_truthy(v_ly3o) && !anvil_jmespath_truthy(v_ly3o)) ||\n"
         "                        anvil_jmespath_truthy(v_ly3o));\n"},
        {24,
         "c_and = (true && (anvil_json_is_number(v_i_kwmvnphsqwnu1_i8pthnuqx_f_19) && anvil_json_compare(v_i_kwmvnphsqwnu1_i8pthnuqx_f_19, &lit_42550) >= 0) && jpc_equal(v_x, &lit_1));",
         "c_and = (true &&\n"
         "                                 (anvil_json_is_number(v_i_kwmvnphsqwnu1_i8pthnuqx_f_19) &&\n"
         "                                  anvil_json_compare(v_i_kwmvnphsqwnu1_i8pthnuqx_f_19, &lit_42550) >= 0) &&\n"
         "                                 jpc_equal(v_x, &lit_1));\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* Inputs a review of this layout found laid out otherwise than clang-format, each expectation clang-format's own: a
 * list's last entry packed inside its braces with the list's closing `};` counted on its line; `if ((rc = NAME(...)) !=
 * ANVIL_OK) {` with NAME too long for even the line after `rc =` (its arguments on the line after it); a plain `if
 * (f(...) != X) {` broken at its arguments with `) != X) {` after the last; and one whose text up to its '(' cannot fit
 * any line, broken after the '(' all the same. */
TEST(codegen_layout_holds_on_a_reviews_inputs) {
    static const struct s_shape shapes[] = {
        {4,
         "static const struct jpc_key keys[] = {{\"XyXyXyXyXyXyXyXyXyXyXyXyXyXyXyXy\", 32, &last_xyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxy}, {\"AbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAb\", 48, &last_abababababababababababababababababababababababab}};",
         "static const struct jpc_key keys[] = {\n"
         "        {\"XyXyXyXyXyXyXyXyXyXyXyXyXyXyXyXy\", 32, &last_xyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxy},\n"
         "        {\"AbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAb\", 48,\n"
         "         &last_abababababababababababababababababababababababab}};\n"},
        {8,
         "if ((rc = jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj(scratch, v_y)) != ANVIL_OK) {",
         "if ((rc =\n"
         "                 jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj(\n"
         "                     scratch, v_y)) != ANVIL_OK) {\n"},
        {12,
         "if (jpc_xxxxxxxxxxxxxxxxx(56, scratch, 48, v_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz, \"kkkkkkkkkkkkkkkkkkkkkkkkkkkk\", v_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz) != ANVIL_OK) {",
         "if (jpc_xxxxxxxxxxxxxxxxx(56, scratch, 48, v_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz,\n"
         "                                      \"kkkkkkkkkkkkkkkkkkkkkkkkkkkk\",\n"
         "                                      v_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz) != ANVIL_OK) {\n"},
        {64,
         "if (jpc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(scratch, v_zz) != v_qqqqqqqqqqqqqqqqqqqqqq) {",
         "if (jpc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(\n"
         "                                                                        scratch, v_zz) != v_qqqqqqqqqqqqqqqqqqqqqq) {\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* A chain's operand that is a call too wide for a line, each expectation clang-format's own: started on the line after
 * the operator when breaking its arguments there takes as many lines as starting it on its own line (clang-format would
 * rather break before the operand than twice inside it); kept on the operator's line when that saves a line. */
TEST(codegen_starts_a_call_operand_where_clang_format_does) {
    static const struct s_shape shapes[] = {
        {24,
         "bool c_or = (anvil_json_bool(&t_contains_6) && !jpc_str_is(v_uu8tte9di8vmkfnr_vy_tsbo9yjul, str_zma_kpoint_in_time_rzqm_ar_s_r_ikq_mud, 207) && jpc_equal(v_x, &lit_1));",
         "bool c_or = (anvil_json_bool(&t_contains_6) &&\n"
         "                                     !jpc_str_is(v_uu8tte9di8vmkfnr_vy_tsbo9yjul,\n"
         "                                                 str_zma_kpoint_in_time_rzqm_ar_s_r_ikq_mud, 207) &&\n"
         "                                     jpc_equal(v_x, &lit_1));\n"},
        {12,
         "c_or = c_or || jpc_str_is(v_z_aoam_t_zngic_sd_ytu, \"nlyt-gy-ue-nw-aThe quick brown fox point-in-time-and-so-on-and-on\", 51);",
         "c_or = c_or || jpc_str_is(v_z_aoam_t_zngic_sd_ytu,\n"
         "                                      \"nlyt-gy-ue-nw-aThe quick brown fox point-in-time-and-so-on-and-on\", 51);\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* A call inside a one-argument call is broken at its arguments only when the text up to its '(' fits the line (here it
 * does not, 123 columns, so the break goes after '='), as clang-format lays it out. */
TEST(codegen_breaks_a_call_only_where_its_head_fits) {
    static const struct s_shape shapes[] = {
        {44,
         "struct anvil_json t_starts_with_13 = anvil_json_make_bool(anvil_sv_starts_with(anvil_json_string(v_hojshk1ps_e_grom_w5lty_iwpbxlnga_3), anvil_sv(\"/al w\", 5)));",
         "struct anvil_json t_starts_with_13 =\n"
         "                                                anvil_json_make_bool(anvil_sv_starts_with(\n"
         "                                                    anvil_json_string(v_hojshk1ps_e_grom_w5lty_iwpbxlnga_3),\n"
         "                                                    anvil_sv(\"/al w\", 5)));\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* Lists of braced lists, comparisons and compared calls, each expectation clang-format's own: the entries aligned
 * after the '{' with one packed inside its braces, or one a line below, whichever costs less (an entry one element a
 * line aligned, two lines below, ties toward aligned; two and one toward below); a comparison too wide for a line
 * broken after its operator rather than at its call's arguments; `if ((rc = f(...)) != ANVIL_OK) {` broken after
 * `rc =`, at its arguments after the call's '(' or with them on the line after it, whichever costs clang-format least
 * (that last way also on the last try, an argument wider than any line running past the limit; a label ending a line
 * where that saves a break elsewhere); `LHS = f(...)` after the '=' or on the next line, whichever costs least. */
TEST(codegen_breaks_lists_comparisons_and_compared_calls) {
    static const struct s_shape shapes[] = {
        {60, "static const struct bW9uflmNcOjwgNUa5hpd8kCurnF2cl keys[] = {{187, &gP}, {23, 191}};",
         "static const struct bW9uflmNcOjwgNUa5hpd8kCurnF2cl keys[] =\n"
         "                                                                {{187, &gP}, {23, 191}};\n"},
        {48,
         "static const struct foYP_key keys[] = {{\"eEltu2s\", 7, &last_eeltu2s}, {\"rtVOKqdQh9eTnUH6IjuDEjqgbI8mUutRdzldQrphGBaIxhOutwuEdsf4AbSsx6bpdnVbiTzXshdJw0wVRcdgch3e\", 88, &last_rtvokqdqh9etnuh6ijudejqgbi8muutrdzldqrphgbaixhoutwuedsf4abssx6bpdnvbitzxshdjw0wvrcdgch3e}, {\"ujmAbJu9irmklq\", 14, &last_ujmabju9irmklq}};",
         "static const struct foYP_key keys[] = {\n"
         "                                                    {\"eEltu2s\", 7, &last_eeltu2s},\n"
         "                                                    {\"rtVOKqdQh9eTnUH6IjuDEjqgbI8mUutRdzldQrphGBaIxhOutwuEdsf4AbSsx6bpdnVbiTzXshdJw0wVRcdgch3e\",\n"
         "                                                     88,\n"
         "                                                     &last_rtvokqdqh9etnuh6ijudejqgbi8muutrdzldqrphgbaixhoutwuedsf4abssx6bpdnvbitzxshdjw0wvrcdgch3e},\n"
         "                                                    {\"ujmAbJu9irmklq\", 14, &last_ujmabju9irmklq}};\n"},
        {60, "if ((rc = zMPeal(&uesqh5rmEevsffJmh1d, aI, usejzU9(rkKogxiMkDy, kjqVvgGBv_9vde, ryDbjtlchg0qD))) != 0) {",
         "if ((rc = zMPeal(&uesqh5rmEevsffJmh1d, aI,\n"
         "                                                                             usejzU9(rkKogxiMkDy, kjqVvgGBv_9vde,\n"
         "                                                                                     ryDbjtlchg0qD))) != 0) {\n"},
        {20,
         "if ((rc = x0yglzg5zrPRp(b4(\"k=\", \"nkwr/)l mi uo ar=vbnameez{vpmoaf=name\", bL_lcT55GpXoMfkthYz_I7Euf3YtY_KpeWdgaMna, kjT8uWRaHjfutPlpKhifymzc4Wr->dMfa_tVIwkzKuOmEbks))) != 0) {",
         "if ((rc = x0yglzg5zrPRp(b4(\"k=\", \"nkwr/)l mi uo ar=vbnameez{vpmoaf=name\",\n"
         "                                               bL_lcT55GpXoMfkthYz_I7Euf3YtY_KpeWdgaMna,\n"
         "                                               kjT8uWRaHjfutPlpKhifymzc4Wr->dMfa_tVIwkzKuOmEbks))) != 0) {\n"},
        {60, "if ((rc = qusZGdEmTlhDuv(\"(\\\\ehsjnte=nameby:mpbgdbsd: \", eSgsOu8po_799n, xh9ZuDc)) != ANVIL_OK) {",
         "if ((rc = qusZGdEmTlhDuv(\"(\\\\ehsjnte=nameby:mpbgdbsd: \",\n"
         "                                                                                     eSgsOu8po_799n, xh9ZuDc)) !=\n"
         "                                                                ANVIL_OK) {\n"},
        {4,
         "if ((rc = fffffffffffffffffffffffff(aaaaaaaaaaaaaaaaaaaaa, aaaaaaaaaaaaaaaaaaaaaa, aaaaaaaaaaaaaaaa, \"kkkkkkkk:\", aaa, aaaaaaaaaaaaaaaaaaaaaaaaa, aaaaaaaaaaaaaaaaaaaaaaaaaa)) != ANVIL_OK) {",
         "if ((rc = fffffffffffffffffffffffff(aaaaaaaaaaaaaaaaaaaaa, aaaaaaaaaaaaaaaaaaaaaa, aaaaaaaaaaaaaaaa, \"kkkkkkkk:\",\n"
         "                                        aaa, aaaaaaaaaaaaaaaaaaaaaaaaa, aaaaaaaaaaaaaaaaaaaaaaaaaa)) != ANVIL_OK) {\n"},
        {32,
         "static const struct jpc_key keys_2[] = {{\"OsyrYytaqcifxTvllcliyhhkqjRjyxjmZuwcsbyvhz\", 42, &last_osyr_yytaqcifx_tvllcliyhhkqj_rjyxjm_zu}, {\"Zisf\", 4, &last_zisf}};",
         "static const struct jpc_key keys_2[] = {{\"OsyrYytaqcifxTvllcliyhhkqjRjyxjmZuwcsbyvhz\",\n"
         "                                                                         42,\n"
         "                                                                         &last_osyr_yytaqcifx_tvllcliyhhkqj_rjyxjm_zu},\n"
         "                                                                        {\"Zisf\", 4, &last_zisf}};\n"},
        {4,
         "static const struct jpc_key keys[] = {{\"XyXyXyXyXyXyXyXyXyXyXyXyXyXyXyXy\", 32, &last_xyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxy}, {\"AbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAb\", 48, &last_abababababababababababababababababababababababab}};",
         "static const struct jpc_key keys[] = {\n"
         "        {\"XyXyXyXyXyXyXyXyXyXyXyXyXyXyXyXy\", 32, &last_xyxyxyxyxyxyxyxyxyxyxyxyxyxyxyxy},\n"
         "        {\"AbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAb\", 48,\n"
         "         &last_abababababababababababababababababababababababab}};\n"},
        {24,
         "static const struct jpc_key keys[] = {{\"yn\", 2, &last_yn}, {\"vacjmlwlxmziinfEkdypsmFssrRfzZtfshfjs9y4\", 40, &last_vacjmlwlxmziinf_ekdypsm_fssr_rfz_ztfsh}};",
         "static const struct jpc_key keys[] = {{\"yn\", 2, &last_yn},\n"
         "                                                              {\"vacjmlwlxmziinfEkdypsmFssrRfzZtfshfjs9y4\", 40,\n"
         "                                                               &last_vacjmlwlxmziinf_ekdypsm_fssr_rfz_ztfsh}};\n"},
        {24,
         "static const struct jpc_key keys[] = {{\"ptxsluztxehfvlwJemhelfJLr2rfjt8y4agjzxwFlf\", 42, &last_ptxsluztxehfvlw_jemhelf_j_lr2rfjt8y4ag}, {\"vzjtgEC6hdkiyta\", 15, &last_vzjtg_ec6hdkiyta}};",
         "static const struct jpc_key keys[] = {{\"ptxsluztxehfvlwJemhelfJLr2rfjt8y4agjzxwFlf\", 42,\n"
         "                                                               &last_ptxsluztxehfvlw_jemhelf_j_lr2rfjt8y4ag},\n"
         "                                                              {\"vzjtgEC6hdkiyta\", 15, &last_vzjtg_ec6hdkiyta}};\n"},
        {28,
         "if ((anvil_json_is_number(v_j_pyyg_rn00thn_q2bayjnwykwsl_tkrlwnm_x_2) && anvil_json_compare(v_j_pyyg_rn00thn_q2bayjnwykwsl_tkrlwnm_x_2, &lit_3822417119456) > 0)) {",
         "if ((anvil_json_is_number(v_j_pyyg_rn00thn_q2bayjnwykwsl_tkrlwnm_x_2) &&\n"
         "                                 anvil_json_compare(v_j_pyyg_rn00thn_q2bayjnwykwsl_tkrlwnm_x_2, &lit_3822417119456) >\n"
         "                                     0)) {\n"},
        {4,
         "if ((rc = jpc_parse(scratch, \"{\\\"a\\\":\\\"hpx\\\\t\\\\u200fThe quick brown fox zhkf#-` i\\303\\251Ff\\?\\?/,f-\\\\u200fpoint-\\\"}\", 70, &lit_object)) != ANVIL_OK) {",
         "if ((rc =\n"
         "             jpc_parse(scratch, \"{\\\"a\\\":\\\"hpx\\\\t\\\\u200fThe quick brown fox zhkf#-` i\\303\\251Ff\\?\\?/,f-\\\\u200fpoint-\\\"}\",\n"
         "                       70, &lit_object)) != ANVIL_OK) {\n"},
        {4,
         "if ((rc = jpc_parse(scratch, \"{\\\"a\\\":\\\"hpx\\\\t\\\\u200fThe quick brown fox zhkf#-` i\\303\\251Ff\\?\\?/,f-\\\\u200fpoint-xxxxxxxxxxxxxx\\\"}\", 70, &lit_object)) != ANVIL_OK) {",
         "if ((rc = jpc_parse(\n"
         "             scratch,\n"
         "             \"{\\\"a\\\":\\\"hpx\\\\t\\\\u200fThe quick brown fox zhkf#-` i\\303\\251Ff\\?\\?/,f-\\\\u200fpoint-xxxxxxxxxxxxxx\\\"}\", 70,\n"
         "             &lit_object)) != ANVIL_OK) {\n"},
        {40,
         "if ((rc = jpc_list_push(scratch, &l_cgzismc_pzzvh_zyi_ymgwdm_vn_bz_ljfw_v6, v_qeo0wy_wxlybj5llpcqarx3g_mtmxa_ccphpfz)) != ANVIL_OK) {",
         "if ((rc = jpc_list_push(scratch, &l_cgzismc_pzzvh_zyi_ymgwdm_vn_bz_ljfw_v6,\n"
         "                                                                v_qeo0wy_wxlybj5llpcqarx3g_mtmxa_ccphpfz)) !=\n"
         "                                            ANVIL_OK) {\n"},
        {48,
         "if ((rc = jpc_list_push(scratch, &l_w_dflcgbtl_jt_vm3e_fnxevfv_txc1hvko_hr, v_tyoimuddthh_wl_k_jqdyaaf5kzrtcfzp_j7_t)) != ANVIL_OK) {",
         "if ((rc = jpc_list_push(\n"
         "                                                         scratch, &l_w_dflcgbtl_jt_vm3e_fnxevfv_txc1hvko_hr,\n"
         "                                                         v_tyoimuddthh_wl_k_jqdyaaf5kzrtcfzp_j7_t)) != ANVIL_OK) {\n"},
        {4,
         "if ((rc = jpc_sort(scratch, &t_v_dbe_ui_jn_t1znsxnn3ssisvif_glht_nqzo, cjhx1v1jajpa8ks3uipru0wpoigxqhcym_match_aonm_ho_ddvldavmcsvwp_durgjrx_i_tt_ez0f9_xqdexqmbu_ft2_4b49e176_expr1, &t_sort_by)) != ANVIL_OK) {",
         "if ((rc = jpc_sort(\n"
         "             scratch, &t_v_dbe_ui_jn_t1znsxnn3ssisvif_glht_nqzo,\n"
         "             cjhx1v1jajpa8ks3uipru0wpoigxqhcym_match_aonm_ho_ddvldavmcsvwp_durgjrx_i_tt_ez0f9_xqdexqmbu_ft2_4b49e176_expr1,\n"
         "             &t_sort_by)) != ANVIL_OK) {\n"},
        {12,
         "fnjztcmdHZb = !wktZkrWmwyW3rMqPvGxL2e(v1QxMRf_oc0AEI82dpo(nYG), KheaJl4sfecKn, \"hUW2dbtpI_VV7dk::\", u7ptQUyO6IwhTRju0vdbZPFAR) == PROazXrwgPO61uzawqactnd7qfyo;",
         "fnjztcmdHZb =\n"
         "                !wktZkrWmwyW3rMqPvGxL2e(v1QxMRf_oc0AEI82dpo(nYG), KheaJl4sfecKn,\n"
         "                                        \"hUW2dbtpI_VV7dk::\", u7ptQUyO6IwhTRju0vdbZPFAR) == PROazXrwgPO61uzawqactnd7qfyo;\n"},
        {44,
         "c_and_3 = c_and_3 && !anvil_json_string_equals_word(v_b_p18z_k3zvu_m_rmz_fsjt_li8boen6ocy9eg, \"\", 0, word_field);",
         "c_and_3 = c_and_3 &&\n"
         "                                                      !anvil_json_string_equals_word(\n"
         "                                                          v_b_p18z_k3zvu_m_rmz_fsjt_li8boen6ocy9eg, \"\", 0, word_field);\n"},
        {32,
         "c_or_5 = (anvil_json_bool(&t_contains_8) && !anvil_json_string_equals_word(v_glso_ssafroua_ns4_dixqrsgf_r_camm_3, \"o{\", 2, word_o));",
         "c_or_5 = (anvil_json_bool(&t_contains_8) &&\n"
         "                                          !anvil_json_string_equals_word(v_glso_ssafroua_ns4_dixqrsgf_r_camm_3, \"o{\", 2,\n"
         "                                                                         word_o));\n"},
        {4,
         "if ((rc = jpc_sort(scratch, &t_lqe_oeo_idp_nrgglk_xcdcae_os_xo_uz55_x, fruapf_puicruxsdd_buybgrxuspkts_match_y_jgumu1nlovf_ypg_bwh_e2iqnnhvpl_wqjbc_x_mf1_vxtw_yae0_d07ef706_expr1, &t_sort_by)) != ANVIL_OK) {",
         "if ((rc = jpc_sort(\n"
         "             scratch, &t_lqe_oeo_idp_nrgglk_xcdcae_os_xo_uz55_x,\n"
         "             fruapf_puicruxsdd_buybgrxuspkts_match_y_jgumu1nlovf_ypg_bwh_e2iqnnhvpl_wqjbc_x_mf1_vxtw_yae0_d07ef706_expr1,\n"
         "             &t_sort_by)) != ANVIL_OK) {\n"},
        {4,
         "if ((rc = jpc_sort(scratch, &t_lqe_oeo, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, &t_sort_by)) < 0) {",
         "if ((rc = jpc_sort(\n"
         "             scratch, &t_lqe_oeo,\n"
         "             aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,\n"
         "             &t_sort_by)) < 0) {\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* Where a chain holds a group, each expectation clang-format's own: an argument that ends exactly at column 120; the
 * outer chain broken before its group when that takes no more lines than breaking inside the group (`c_or || (a && b)`,
 * `c_or || !(a || b)`), but the break after '=' when it ties; a group started on its line when that saves one; the
 * operand after a group broken over lines on a line of its own, the ones after it packed again. */
TEST(codegen_breaks_groups_where_clang_format_prefers) {
    static const struct s_shape shapes[] = {
        {28,
         "c_and_3 = c_and_3 && anvil_json_string_equals_word(v_urpwvdo_l_fq_ut_v_xlsnph_o, \"\\303\\251\", 2, word_field_2);",
         "c_and_3 = c_and_3 && anvil_json_string_equals_word(v_urpwvdo_l_fq_ut_v_xlsnph_o, \"\\303\\251\",\n"
         "                                                                               2, word_field_2);\n"},
        {24,
         "c_or_11 = c_or_11 || (anvil_json_is_number(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_30) && anvil_json_compare(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_30, &lit_329154235882909) > 0);",
         "c_or_11 = c_or_11 ||\n"
         "                                  (anvil_json_is_number(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_30) &&\n"
         "                                   anvil_json_compare(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_30, &lit_329154235882909) > 0);\n"},
        {20,
         "c_and_11 = c_and_11 && (anvil_json_is_number(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_7) && anvil_json_compare(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_7, &lit_m9382980982) <= 0);",
         "c_and_11 =\n"
         "                        c_and_11 && (anvil_json_is_number(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_7) &&\n"
         "                                     anvil_json_compare(v_ft_pd_knc1n1_gt_qfohvrr_qn_pefh_7, &lit_m9382980982) <= 0);\n"},
        {12,
         "c_or = c_or || !(jpc_str_is(v_pr4s, \"q||1\\303\\251bexen\\302\\205iwh\\nv-/*jg\\177  i\\?\\?//j\", 32) || (jpc_str_is(v_pr4s, \"nci#`t po\", 9) && !jpc_str_is(v_pr4s, \"bzvfuThe quick brown fox gg#a\", 29)));",
         "c_or = c_or ||\n"
         "                   !(jpc_str_is(v_pr4s, \"q||1\\303\\251bexen\\302\\205iwh\\nv-/*jg\\177  i\\?\\?//j\", 32) ||\n"
         "                     (jpc_str_is(v_pr4s, \"nci#`t po\", 9) && !jpc_str_is(v_pr4s, \"bzvfuThe quick brown fox gg#a\", 29)));\n"},
        {20,
         "bool c_or_9 = (c_and_18 || (anvil_json_is_number(v_c_pwe_16) && anvil_json_compare(v_c_pwe_16, &lit_658705372538330) >= 0));",
         "bool c_or_9 = (c_and_18 || (anvil_json_is_number(v_c_pwe_16) &&\n"
         "                                                anvil_json_compare(v_c_pwe_16, &lit_658705372538330) >= 0));\n"},
        {12,
         "c_or = c_or || (!anvil_json_string_equals_word(v_bb, \"jbsl\", 4, word_jbsl) && jpc_str_is(v_bb, str_uryo0pxo_p_q_c_fwt_ctffa_u_gq_xj_qabcd, 55));",
         "c_or = c_or || (!anvil_json_string_equals_word(v_bb, \"jbsl\", 4, word_jbsl) &&\n"
         "                            jpc_str_is(v_bb, str_uryo0pxo_p_q_c_fwt_ctffa_u_gq_xj_qabcd, 55));\n"},
        {24,
         "c_or = (!anvil_jmespath_truthy(v_g_rgajl_long_name_here) && anvil_jmespath_truthy(v_g_rgajl_long_name_here) && !anvil_jmespath_truthy(v_g_rgajl_long_name_here)) || !anvil_jmespath_truthy(v_g_rgajl) || anvil_jmespath_truthy(v_g_rgajl) || anvil_jmespath_truthy(v_g_rgajl);",
         "c_or = (!anvil_jmespath_truthy(v_g_rgajl_long_name_here) &&\n"
         "                                anvil_jmespath_truthy(v_g_rgajl_long_name_here) &&\n"
         "                                !anvil_jmespath_truthy(v_g_rgajl_long_name_here)) ||\n"
         "                               !anvil_jmespath_truthy(v_g_rgajl) || anvil_jmespath_truthy(v_g_rgajl) ||\n"
         "                               anvil_jmespath_truthy(v_g_rgajl);\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    /* A nest of groups each too wide for a line: laid out within the limit, and in bounded time (each group's two
     * places compared only so many times a statement; laying each out both ways at every depth took time
     * exponential in the depth, about a second at 10 levels). */
    char nest[8192];
    size_t at = (size_t)snprintf(nest, sizeof nest, "c_or = c_or || (");
    for (int depth = 0; depth < 16; depth++) {
        at += (size_t)snprintf(nest + at, sizeof nest - at, "anvil_jmespath_truthy(v_some_long_variable_name) || ((");
    }
    at += (size_t)snprintf(nest + at, sizeof nest - at, "anvil_jmespath_truthy(v_x)");
    for (int depth = 0; depth < 16; depth++) {
        at += (size_t)snprintf(nest + at, sizeof nest - at, ") && anvil_jmespath_truthy(v_other_long_name_x))");
    }
    at += (size_t)snprintf(nest + at, sizeof nest - at, ");");
    CHECK(at < sizeof nest);
    out.len = 0;
    CHECK_OK(anvil__c_line(&out, 4, nest, at));
    size_t lines = 0, width = 0;
    for (size_t k = 0; k < out.len; k++) {
        width = out.data[k] == '\n' ? 0 : width + 1;
        lines += out.data[k] == '\n';
        CHECK(width <= 120);
    }
    CHECK(lines > 16);
done:
    anvil_buf_clean_up(&out);
}

/* More shapes the layout fuzzer (scripts/codegen-layout-fuzz) found otherwise than clang-format, each expectation
 * clang-format's own: a braced list's entry too wide for a line, packed inside its braces; a compared call (`if ((rc =
 * f(...)) != ANVIL_OK) {`) broken at its arguments and after the comparison, not after its '('; negated groups inside
 * chains, broken inside; a chain of more than 32 operands. */
TEST(codegen_breaks_entries_compared_calls_and_negated_groups) {
    static const struct s_shape shapes[] = {
        {20,
         "static const struct jpc_key keys[] = {{\"HcTixvcMpbaktrvgYWYqc\", 21, &last_hc_tixvc_mpbaktrvg_yw_yqc}, {\"TtppohuhhpnAwlxfwFrjbcdikq5w3dx77ZVwn2bklviq\", 44, &last_ttppohuhhpn_awlxfw_frjbcdikq5w3dx77_z_v}};",
         "static const struct jpc_key keys[] = {\n"
         "                        {\"HcTixvcMpbaktrvgYWYqc\", 21, &last_hc_tixvc_mpbaktrvg_yw_yqc},\n"
         "                        {\"TtppohuhhpnAwlxfwFrjbcdikq5w3dx77ZVwn2bklviq\", 44,\n"
         "                         &last_ttppohuhhpn_awlxfw_frjbcdikq5w3dx77_z_v}};\n"},
        {4,
         "if ((rc = anvil_jmespath_compile(scratch, kgaqkulqwigv_match_pmi_bt_zp_bpqfwwuijxvestji1_98f0f93c_expr1, -1, &t_min_by)) != ANVIL_OK) {",
         "if ((rc = anvil_jmespath_compile(scratch, kgaqkulqwigv_match_pmi_bt_zp_bpqfwwuijxvestji1_98f0f93c_expr1, -1,\n"
         "                                     &t_min_by)) != ANVIL_OK) {\n"},
        {48,
         "if ((rc = jpc_list_push(scratch, &l_biyu1umv_c4cb_jkp4wlk_y9nz, v_biyu1umv_c4cb_jkp4wlk_y9nz_item)) != ANVIL_OK) {",
         "if ((rc = jpc_list_push(scratch, &l_biyu1umv_c4cb_jkp4wlk_y9nz,\n"
         "                                                                        v_biyu1umv_c4cb_jkp4wlk_y9nz_item)) !=\n"
         "                                                    ANVIL_OK) {\n"},
        {12,
         "if (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) && !(!anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) || !anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) || (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) && anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff))) && anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff)) {",
         "if (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) &&\n"
         "                !(!anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) ||\n"
         "                  !anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) ||\n"
         "                  (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff) &&\n"
         "                   anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff))) &&\n"
         "                anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec_fwtatxe_ff)) {\n"},
        {12,
         "if (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec) && !(!anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec) || (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec) && anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec)))) {",
         "if (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec) &&\n"
         "                !(!anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec) ||\n"
         "                  (anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec) &&\n"
         "                   anvil_jmespath_truthy(v_ugidfkw3c_xxh_gtoy_frag_oec)))) {\n"},
        {8,
         "if (anvil_jmespath_truthy(v_00) || anvil_jmespath_truthy(v_01) || anvil_jmespath_truthy(v_02) || anvil_jmespath_truthy(v_03) || anvil_jmespath_truthy(v_04) || anvil_jmespath_truthy(v_05) || anvil_jmespath_truthy(v_06) || anvil_jmespath_truthy(v_07) || anvil_jmespath_truthy(v_08) || anvil_jmespath_truthy(v_09) || anvil_jmespath_truthy(v_10) || anvil_jmespath_truthy(v_11) || anvil_jmespath_truthy(v_12) || anvil_jmespath_truthy(v_13) || anvil_jmespath_truthy(v_14) || anvil_jmespath_truthy(v_15) || anvil_jmespath_truthy(v_16) || anvil_jmespath_truthy(v_17) || anvil_jmespath_truthy(v_18) || anvil_jmespath_truthy(v_19) || anvil_jmespath_truthy(v_20) || anvil_jmespath_truthy(v_21) || anvil_jmespath_truthy(v_22) || anvil_jmespath_truthy(v_23) || anvil_jmespath_truthy(v_24) || anvil_jmespath_truthy(v_25) || anvil_jmespath_truthy(v_26) || anvil_jmespath_truthy(v_27) || anvil_jmespath_truthy(v_28) || anvil_jmespath_truthy(v_29) || anvil_jmespath_truthy(v_30) || anvil_jmespath_truthy(v_31) || anvil_jmespath_truthy(v_32) || anvil_jmespath_truthy(v_33) || anvil_jmespath_truthy(v_34) || anvil_jmespath_truthy(v_35) || anvil_jmespath_truthy(v_36) || anvil_jmespath_truthy(v_37) || anvil_jmespath_truthy(v_38) || anvil_jmespath_truthy(v_39)) {",
         "if (anvil_jmespath_truthy(v_00) || anvil_jmespath_truthy(v_01) || anvil_jmespath_truthy(v_02) ||\n"
         "            anvil_jmespath_truthy(v_03) || anvil_jmespath_truthy(v_04) || anvil_jmespath_truthy(v_05) ||\n"
         "            anvil_jmespath_truthy(v_06) || anvil_jmespath_truthy(v_07) || anvil_jmespath_truthy(v_08) ||\n"
         "            anvil_jmespath_truthy(v_09) || anvil_jmespath_truthy(v_10) || anvil_jmespath_truthy(v_11) ||\n"
         "            anvil_jmespath_truthy(v_12) || anvil_jmespath_truthy(v_13) || anvil_jmespath_truthy(v_14) ||\n"
         "            anvil_jmespath_truthy(v_15) || anvil_jmespath_truthy(v_16) || anvil_jmespath_truthy(v_17) ||\n"
         "            anvil_jmespath_truthy(v_18) || anvil_jmespath_truthy(v_19) || anvil_jmespath_truthy(v_20) ||\n"
         "            anvil_jmespath_truthy(v_21) || anvil_jmespath_truthy(v_22) || anvil_jmespath_truthy(v_23) ||\n"
         "            anvil_jmespath_truthy(v_24) || anvil_jmespath_truthy(v_25) || anvil_jmespath_truthy(v_26) ||\n"
         "            anvil_jmespath_truthy(v_27) || anvil_jmespath_truthy(v_28) || anvil_jmespath_truthy(v_29) ||\n"
         "            anvil_jmespath_truthy(v_30) || anvil_jmespath_truthy(v_31) || anvil_jmespath_truthy(v_32) ||\n"
         "            anvil_jmespath_truthy(v_33) || anvil_jmespath_truthy(v_34) || anvil_jmespath_truthy(v_35) ||\n"
         "            anvil_jmespath_truthy(v_36) || anvil_jmespath_truthy(v_37) || anvil_jmespath_truthy(v_38) ||\n"
         "            anvil_jmespath_truthy(v_39)) {\n"},
    };
    s_check_shapes(t, shapes, sizeof shapes / sizeof shapes[0]);
}

/* The interpreter fallback's function head is laid out as a declaration, as clang-format lays out a long one: its
 * parameters aligned after the '(' (not moved to the next line as a call's arguments would be). */
TEST(codegen_fallback_head_is_laid_out_as_a_declaration) {
    struct anvil_jmespath *expr = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    CHECK_OK(anvil_jmespath_compile(NULL, "a.b", 3, NULL, &expr, NULL));
    const char *name = "sjxxnar_match_jbeiej_tgy2ykhcpvosvjxiqosdekp_c_ted_qvi_vksg_0_9e6cc2d6_value";
    CHECK_OK(anvil__jpc_emit_fallback(expr, name, "an expression longer than 8192 bytes", &out));
    CHECK_OK(anvil_buf_append_byte(&out, '\0'));
    CHECK(strstr(out.data, "static int sjxxnar_match_jbeiej_tgy2ykhcpvosvjxiqosdekp_c_ted_qvi_vksg_0_9e6cc2d6_value("
                           "const struct anvil_json *root,\n"
                           "                                                                                        "
                           "struct anvil_arena *scratch,\n"
                           "                                                                                        "
                           "struct anvil_json *out) {\n"
                           "    pthread_once(") != NULL);
done:
    anvil_jmespath_destroy(expr);
    anvil_buf_clean_up(&out);
}
