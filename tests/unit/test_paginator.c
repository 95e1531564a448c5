/* Paginator descriptions: Smithy's @paginated merged with the service's defaults, and botocore's paginators-1. */

#include "harness.h"

static const char s_model[] =
    "{\"smithy\": \"2.0\", \"shapes\": {"
    "\"ex#Svc\": {\"type\": \"service\", \"operations\": [{\"target\": \"ex#ListThings\"}],"
    "  \"resources\": [{\"target\": \"ex#Thing\"}],"
    "  \"traits\": {\"smithy.api#paginated\": {\"inputToken\": \"nextToken\", \"outputToken\": \"nextToken\","
    "    \"pageSize\": \"maxResults\"}}},"
    "\"ex#Thing\": {\"type\": \"resource\", \"operations\": [{\"target\": \"ex#ListParts\"}]},"
    "\"ex#ListThings\": {\"type\": \"operation\", \"traits\": {\"smithy.api#paginated\": {\"items\": \"things\"}}},"
    "\"ex#ListParts\": {\"type\": \"operation\", \"traits\": {\"smithy.api#paginated\": {"
    "  \"outputToken\": \"page.next\", \"pageSize\": \"limit\"}}},"
    "\"ex#Loose\": {\"type\": \"operation\", \"traits\": {\"smithy.api#paginated\": {\"inputToken\": \"a\","
    "  \"outputToken\": \"b\"}}}"
    "}}";

TEST(paginator_merges_smithy_service_defaults) {
    struct anvil_model *model = NULL;
    struct anvil_paginator_set *set = NULL;
    CHECK_OK(anvil_model_load(t->alloc, s_model, strlen(s_model), NULL, &model, NULL));
    CHECK_OK(anvil_paginator_set_from_model(t->alloc, model, &set, NULL));
    anvil_model_destroy(model);
    model = NULL;
    CHECK_EQ_U64(anvil_paginator_set_count(set), 3);
    const struct anvil_paginator *things = anvil_paginator_set_find(set, "ListThings", 10);
    CHECK(things != NULL);
    CHECK(anvil_sv_eq_cstr(things->operation, "ex#ListThings"));
    CHECK(anvil_sv_eq_cstr(things->service, "ex#Svc"));
    CHECK_EQ_U64(things->token_count, 1);
    CHECK(anvil_sv_eq_cstr(things->input_tokens[0], "nextToken"));
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(things->output_tokens[0]), "nextToken"));
    CHECK(anvil_sv_eq_cstr(things->page_size, "maxResults"));
    CHECK_EQ_U64(things->item_count, 1);
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(things->items[0]), "things"));
    /* Bound through a resource: the operation's own values win over the service's. */
    const struct anvil_paginator *parts = anvil_paginator_set_find(set, "ex#ListParts", 12);
    CHECK(parts != NULL);
    CHECK(anvil_sv_eq_cstr(parts->input_tokens[0], "nextToken"));
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(parts->output_tokens[0]), "page.next"));
    CHECK(anvil_sv_eq_cstr(parts->page_size, "limit"));
    CHECK_EQ_U64(parts->item_count, 0);
    /* Bound by no service: its own values only. */
    const struct anvil_paginator *loose = anvil_paginator_set_find(set, "Loose", 5);
    CHECK(loose != NULL && loose->service.len == 0 && loose->page_size.len == 0);
    CHECK(anvil_paginator_set_find(set, "Nope", 4) == NULL);
done:
    anvil_model_destroy(model);
    anvil_paginator_set_destroy(set);
}

TEST(paginator_rejects_a_smithy_operation_without_tokens) {
    static const char json[] = "{\"smithy\": \"2.0\", \"shapes\": {\"ex#Op\": {\"type\": \"operation\","
                               " \"traits\": {\"smithy.api#paginated\": {\"items\": \"x\"}}}}}";
    struct anvil_model *model = NULL;
    struct anvil_paginator_set *set = NULL;
    struct anvil_diag diag;
    CHECK_OK(anvil_model_load(t->alloc, json, strlen(json), NULL, &model, NULL));
    CHECK_STATUS(anvil_paginator_set_from_model(t->alloc, model, &set, &diag), ANVIL_EMODEL);
    CHECK(set == NULL);
    CHECK_STR_EQ(diag.message, "paginator of `ex#Op`: `inputToken` and `outputToken` are required");
done:
    anvil_model_destroy(model);
}

static const char s_botocore[] =
    "{\"pagination\": {"
    "\"ListTables\": {\"input_token\": \"ExclusiveStartTableName\", \"output_token\": \"LastEvaluatedTableName\","
    "  \"limit_key\": \"Limit\", \"result_key\": \"TableNames\"},"
    "\"ListObjectVersions\": {\"more_results\": \"IsTruncated\", \"limit_key\": \"MaxKeys\","
    "  \"output_token\": [\"NextKeyMarker\", \"NextVersionIdMarker\"], \"input_token\": [\"KeyMarker\", "
    "\"VersionIdMarker\"],"
    "  \"result_key\": [\"Versions\", \"DeleteMarkers\", \"CommonPrefixes\"], \"non_aggregate_keys\": [\"Name\"]},"
    "\"DescribeStream\": {\"input_token\": \"ExclusiveStartShardId\", \"output_token\": "
    "\"StreamDescription.Shards[-1].ShardId\", \"result_key\": \"StreamDescription.Shards\"}"
    "}}";

TEST(paginator_reads_botocore_paginators_1) {
    struct anvil_paginator_set *set = NULL;
    CHECK_OK(anvil_paginator_set_from_botocore(t->alloc, s_botocore, strlen(s_botocore), &set, NULL));
    CHECK_EQ_U64(anvil_paginator_set_count(set), 3);
    const struct anvil_paginator *tables = anvil_paginator_set_at(set, 0);
    CHECK(anvil_sv_eq_cstr(tables->operation, "ListTables"));
    CHECK(anvil_sv_eq_cstr(tables->page_size, "Limit"));
    CHECK(tables->more_results == NULL);
    const struct anvil_paginator *versions = anvil_paginator_set_find(set, "ListObjectVersions", 18);
    CHECK(versions != NULL);
    CHECK_EQ_U64(versions->token_count, 2);
    CHECK(anvil_sv_eq_cstr(versions->input_tokens[1], "VersionIdMarker"));
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(versions->output_tokens[1]), "NextVersionIdMarker"));
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(versions->more_results), "IsTruncated"));
    CHECK_EQ_U64(versions->item_count, 3);
    CHECK_EQ_U64(versions->non_aggregate_count, 1);
    const struct anvil_paginator *shards = anvil_paginator_set_at(set, 2);
    CHECK(anvil_sv_eq_cstr(anvil_jmespath_text(shards->output_tokens[0]), "StreamDescription.Shards[-1].ShardId"));
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginator_rejects_broken_botocore_files) {
    static const struct {
        const char *json, *message;
    } cases[] = {
        {"{\"pages\": {}}", "not a paginators-1 document: expected {\"pagination\": {...}}"},
        {"{\"pagination\": {\"Op\": 1}}", "paginator of `Op`: a paginator must be an object"},
        {"{\"pagination\": {\"Op\": {\"input_token\": \"A\"}}}",
         "paginator of `Op`: `input_token` and `output_token` are required"},
        {"{\"pagination\": {\"Op\": {\"input_token\": [\"A\", \"B\"], \"output_token\": \"C\"}}}",
         "paginator of `Op`: 2 input tokens but 1 output tokens"},
        {"{\"pagination\": {\"Op\": {\"input_token\": \"A\", \"output_token\": \"C[\"}}}", NULL},
        {"{\"pagination\": {\"Op\": {\"input_token\": \"\", \"output_token\": \"C\"}}}",
         "paginator of `Op`: `input_token` must be a string or a non-empty list of strings"},
        {"{\"pagination\": {\"Op\": {\"input_token\": \"A\", \"output_token\": \"C\", \"limit_key\": 5}}}",
         "paginator of `Op`: `limit_key` must be a member name"},
        {"{\"pagination\": {\"Op\": {\"input_token\": \"A\", \"output_token\": \"C\", \"more_results\": [\"x\"]}}}",
         "paginator of `Op`: `more_results` must be a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_paginator_set *set = NULL;
        struct anvil_diag diag;
        CHECK_STATUS(anvil_paginator_set_from_botocore(t->alloc, cases[i].json, strlen(cases[i].json), &set, &diag),
                     ANVIL_EMODEL);
        CHECK(set == NULL);
        if (cases[i].message) {
            CHECK_STR_EQ(diag.message, cases[i].message);
        } else {
            CHECK(strstr(diag.message, "invalid JMESPath expression in `output_token` (C[)") != NULL);
        }
    }
done:;
}

TEST(paginator_smithy_is_truncated_overrides_the_token) {
    /* S3 ListParts: the last NextPartNumberMarker is "0"; IsTruncated false ends the pages. */
    static const char json[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#ListParts\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#In\"}, \"output\": {\"target\": \"ex#Out\"},"
        "  \"traits\": {\"smithy.api#paginated\": {\"inputToken\": \"PartNumberMarker\","
        "    \"outputToken\": \"NextPartNumberMarker\", \"items\": \"Parts\"}}},"
        "\"ex#In\": {\"type\": \"structure\", \"members\": {\"PartNumberMarker\": {\"target\": \"smithy.api#String\"}}},"
        "\"ex#Out\": {\"type\": \"structure\", \"members\": {\"NextPartNumberMarker\": {\"target\": \"smithy.api#String\"},"
        "  \"IsTruncated\": {\"target\": \"smithy.api#Boolean\"}, \"Parts\": {\"target\": \"ex#Parts\"}}},"
        "\"ex#Parts\": {\"type\": \"list\", \"member\": {\"target\": \"smithy.api#Integer\"}}}}";
    struct anvil_model *m = NULL;
    struct anvil_paginator_set *set = NULL;
    struct anvil_paginate_run *run = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_paginate_page page;
    const struct anvil_json *input;
    CHECK_OK(anvil_model_load(t->alloc, json, strlen(json), NULL, &m, NULL));
    CHECK_OK(anvil_paginator_set_from_model(t->alloc, m, &set, NULL));
    const struct anvil_paginator *p = anvil_paginator_set_at(set, 0);
    CHECK(p->more_results != NULL);
    CHECK_OK(anvil_paginate_start(t->alloc, p, NULL, NULL, &run, NULL));
    CHECK_OK(anvil_paginate_input(run, &input));
    static const char out[] = "{\"Parts\": [1], \"IsTruncated\": false, \"NextPartNumberMarker\": \"0\"}";
    CHECK_OK(anvil_json_parse(t->alloc, out, strlen(out), NULL, &doc, NULL));
    CHECK_OK(anvil_paginate_report(run, anvil_json_doc_root(doc), &page));
    CHECK_EQ_INT(page.reason, ANVIL_PAGINATE_NOT_TRUNCATED);
done:
    anvil_paginate_destroy(run);
    anvil_json_doc_destroy(doc);
    anvil_paginator_set_destroy(set);
    anvil_model_destroy(m);
}
