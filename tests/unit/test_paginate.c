/*
 * The paginator engine against scripted page sequences: each trap of
 * research/behaviors.md (S3 ListParts' "0", CloudWatch Logs' echoed token,
 * A-B-A-B cycles, map and null tokens, several tokens), page sizes,
 * max pages, max items and resume tokens.
 */

#include "harness.h"

/* A paginator description from a botocore paginators-1 entry. */
static int s_desc(struct anvil_test *t, const char *entry, struct anvil_paginator_set **set) {
    char json[1024];
    snprintf(json, sizeof json, "{\"pagination\": {\"Op\": %s}}", entry);
    return anvil_paginator_set_from_botocore(t->alloc, json, strlen(json), set, NULL);
}

static const char s_simple[] = "{\"input_token\": \"NextToken\", \"output_token\": \"NextToken\", "
                               "\"limit_key\": \"MaxResults\", \"result_key\": \"Items\"}";

/*
 * Runs the pages (JSON texts, in order; the run must not ask for more) and
 * records each page input's token and the reasons. Returns the last reason.
 */
struct s_trace {
    char inputs[16][128];
    size_t pages;
    enum anvil_paginate_reason reason;
    int status;
    uint64_t items;
    char resume[256];
};

static int s_drive(struct anvil_test *t, const struct anvil_paginator *p, const char *input_json,
                   const struct anvil_paginate_options *options, const char *const *pages, size_t count,
                   struct s_trace *trace) {
    memset(trace, 0, sizeof *trace);
    struct anvil_json_doc *input = NULL, *doc = NULL;
    struct anvil_paginate_run *run = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    int rc = input_json ? anvil_json_parse(t->alloc, input_json, strlen(input_json), NULL, &input, NULL) : ANVIL_OK;
    if (rc == ANVIL_OK) {
        rc = anvil_paginate_start(t->alloc, p, input ? anvil_json_doc_root(input) : NULL, options, &run, NULL);
    }
    for (size_t i = 0; rc == ANVIL_OK && i < count; i++) {
        const struct anvil_json *page_input = NULL;
        rc = anvil_paginate_input(run, &page_input);
        if (rc != ANVIL_OK) {
            break;
        }
        anvil_buf_clear(&text);
        rc = anvil_json_write(page_input, 0, &text);
        if (rc == ANVIL_OK && i < 16) {
            snprintf(trace->inputs[i], sizeof trace->inputs[i], "%s", text.data);
        }
        anvil_json_doc_destroy(doc);
        doc = NULL;
        if (rc == ANVIL_OK) {
            rc = anvil_json_parse(t->alloc, pages[i], strlen(pages[i]), NULL, &doc, NULL);
        }
        struct anvil_paginate_page page;
        if (rc == ANVIL_OK) {
            trace->status = anvil_paginate_report(run, anvil_json_doc_root(doc), &page);
            rc = trace->status == ANVIL_EVALUE ? ANVIL_OK : trace->status;
        }
        if (rc != ANVIL_OK) {
            break;
        }
        trace->pages++;
        trace->reason = page.reason;
        snprintf(trace->resume, sizeof trace->resume, "%.*s", (int)page.resume_token.len, page.resume_token.ptr);
        if (page.reason != ANVIL_PAGINATE_MORE) {
            break;
        }
    }
    trace->items = anvil_paginate_items(run);
    anvil_json_doc_destroy(doc);
    anvil_json_doc_destroy(input);
    anvil_paginate_destroy(run);
    anvil_buf_clean_up(&text);
    return rc;
}

TEST(paginate_follows_tokens_and_stops_when_they_end) {
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {"{\"Items\": [1, 2], \"NextToken\": \"a\"}",
                                        "{\"Items\": [3], \"NextToken\": \"b\"}", "{\"Items\": [4]}"};
    CHECK_OK(s_desc(t, s_simple, &set));
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), "{\"Filter\": \"x\"}", NULL, pages, 3, &tr));
    CHECK_EQ_U64(tr.pages, 3);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
    CHECK_EQ_U64(tr.items, 4);
    CHECK_STR_EQ(tr.inputs[0], "{\"Filter\":\"x\"}");
    CHECK_STR_EQ(tr.inputs[1], "{\"Filter\":\"x\",\"NextToken\":\"a\"}");
    CHECK_STR_EQ(tr.inputs[2], "{\"Filter\":\"x\",\"NextToken\":\"b\"}");
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_empty_null_and_empty_map_tokens_end_the_run) {
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const empty[] = {"{\"NextToken\": \"\"}"};
    static const char *const null[] = {"{\"NextToken\": null}"};
    static const char *const map[] = {"{\"NextToken\": {}}"};
    CHECK_OK(s_desc(t, s_simple, &set));
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), NULL, NULL, empty, 1, &tr));
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), NULL, NULL, null, 1, &tr));
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), NULL, NULL, map, 1, &tr));
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_map_tokens_pass_through) {
    /* DynamoDB Scan: LastEvaluatedKey -> ExclusiveStartKey, a map. */
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {"{\"Items\": [1], \"LastEvaluatedKey\": {\"id\": {\"S\": \"k1\"}}}",
                                        "{\"Items\": [2], \"LastEvaluatedKey\": {}}"};
    CHECK_OK(s_desc(t,
                    "{\"input_token\": \"ExclusiveStartKey\", \"output_token\": \"LastEvaluatedKey\", "
                    "\"limit_key\": \"Limit\", \"result_key\": \"Items\"}",
                    &set));
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), "{\"TableName\": \"t\"}", NULL, pages, 2, &tr));
    CHECK_EQ_U64(tr.pages, 2);
    CHECK_STR_EQ(tr.inputs[1], "{\"TableName\":\"t\",\"ExclusiveStartKey\":{\"id\":{\"S\":\"k1\"}}}");
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_s3_list_parts_stops_on_is_truncated_false) {
    /* The last NextPartNumberMarker is "0": only IsTruncated ends the run. */
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {"{\"Parts\": [1, 2], \"IsTruncated\": true, \"NextPartNumberMarker\": \"2\"}",
                                        "{\"Parts\": [3], \"IsTruncated\": false, \"NextPartNumberMarker\": \"0\"}"};
    CHECK_OK(
        s_desc(t,
               "{\"more_results\": \"IsTruncated\", \"input_token\": \"PartNumberMarker\", "
               "\"output_token\": \"NextPartNumberMarker\", \"limit_key\": \"MaxParts\", \"result_key\": \"Parts\"}",
               &set));
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), NULL, NULL, pages, 2, &tr));
    CHECK_EQ_U64(tr.pages, 2);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NOT_TRUNCATED);
    CHECK_STR_EQ(tr.inputs[1], "{\"PartNumberMarker\":\"2\"}");
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_echoed_token_stops_errors_or_continues_by_policy) {
    /* CloudWatch Logs GetLogEvents answers the request's own token at the end of the stream. */
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {"{\"events\": [1], \"nextForwardToken\": \"f1\"}",
                                        "{\"events\": [], \"nextForwardToken\": \"f1\"}",
                                        "{\"events\": [2], \"nextForwardToken\": \"f1\"}"};
    CHECK_OK(s_desc(t,
                    "{\"input_token\": \"nextToken\", \"output_token\": \"nextForwardToken\", "
                    "\"limit_key\": \"limit\", \"result_key\": \"events\"}",
                    &set));
    const struct anvil_paginator *p = anvil_paginator_set_at(set, 0);
    CHECK_OK(s_drive(t, p, NULL, NULL, pages, 3, &tr));
    CHECK_EQ_U64(tr.pages, 2);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_DUPLICATE_TOKEN);
    CHECK_EQ_INT(tr.status, ANVIL_OK);
    struct anvil_paginate_options error = {.duplicates = ANVIL_PAGINATE_DUP_ERROR};
    CHECK_OK(s_drive(t, p, NULL, &error, pages, 3, &tr));
    CHECK_EQ_INT(tr.status, ANVIL_EVALUE);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_DUPLICATE_TOKEN);
    /* Tailing: keep polling; max_pages ends it, with a token to go on from. */
    struct anvil_paginate_options tail = {.duplicates = ANVIL_PAGINATE_DUP_CONTINUE, .max_pages = 3};
    CHECK_OK(s_drive(t, p, NULL, &tail, pages, 3, &tr));
    CHECK_EQ_U64(tr.pages, 3);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_MAX_PAGES);
    CHECK_STR_EQ(tr.resume, "eyJuZXh0VG9rZW4iOiJmMSJ9"); /* {"nextToken":"f1"} */
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_catches_a_b_a_b_cycles) {
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {"{\"NextToken\": \"A\"}", "{\"NextToken\": \"B\"}", "{\"NextToken\": \"A\"}",
                                        "{\"NextToken\": \"B\"}"};
    CHECK_OK(s_desc(t, s_simple, &set));
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), NULL, NULL, pages, 4, &tr));
    CHECK_EQ_U64(tr.pages, 3);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_CYCLE);
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_several_tokens_and_absent_ones) {
    /* S3 ListObjectVersions: two tokens; a missing one is left out of the next input. */
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {
        "{\"IsTruncated\": true, \"NextKeyMarker\": \"k1\", \"NextVersionIdMarker\": \"v1\", \"Versions\": [1]}",
        "{\"IsTruncated\": true, \"NextKeyMarker\": \"k2\", \"Versions\": [2]}",
        "{\"IsTruncated\": false, \"Versions\": [3]}"};
    CHECK_OK(s_desc(t,
                    "{\"more_results\": \"IsTruncated\", \"limit_key\": \"MaxKeys\", \"output_token\": "
                    "[\"NextKeyMarker\", \"NextVersionIdMarker\"], \"input_token\": [\"KeyMarker\", "
                    "\"VersionIdMarker\"], \"result_key\": [\"Versions\", \"DeleteMarkers\"]}",
                    &set));
    CHECK_OK(s_drive(t, anvil_paginator_set_at(set, 0), "{\"Bucket\": \"b\", \"VersionIdMarker\": \"old\"}", NULL,
                     pages, 3, &tr));
    CHECK_EQ_U64(tr.pages, 3);
    CHECK_STR_EQ(tr.inputs[0], "{\"Bucket\":\"b\",\"VersionIdMarker\":\"old\"}");
    CHECK_STR_EQ(tr.inputs[1], "{\"Bucket\":\"b\",\"KeyMarker\":\"k1\",\"VersionIdMarker\":\"v1\"}");
    CHECK_STR_EQ(tr.inputs[2], "{\"Bucket\":\"b\",\"KeyMarker\":\"k2\"}");
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_page_size_is_set_and_may_change) {
    struct anvil_paginator_set *set = NULL;
    struct anvil_paginate_run *run = NULL;
    struct anvil_json_doc *input = NULL, *doc = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    struct anvil_paginate_options o = {.page_size = 2};
    const struct anvil_json *page_input = NULL;
    struct anvil_paginate_page page;
    CHECK_OK(s_desc(t, s_simple, &set));
    CHECK_OK(anvil_json_parse(t->alloc, "{\"MaxResults\": 50}", 18, NULL, &input, NULL));
    CHECK_OK(
        anvil_paginate_start(t->alloc, anvil_paginator_set_at(set, 0), anvil_json_doc_root(input), &o, &run, NULL));
    CHECK_OK(anvil_paginate_input(run, &page_input));
    CHECK_OK(anvil_json_write(page_input, 0, &text));
    CHECK_STR_EQ(text.data, "{\"MaxResults\":2}");
    CHECK_OK(anvil_json_parse(t->alloc, "{\"NextToken\": \"n\"}", 18, NULL, &doc, NULL));
    CHECK_OK(anvil_paginate_report(run, anvil_json_doc_root(doc), &page));
    anvil_paginate_set_page_size(run, 7);
    CHECK_OK(anvil_paginate_input(run, &page_input));
    anvil_buf_clear(&text);
    CHECK_OK(anvil_json_write(page_input, 0, &text));
    CHECK_STR_EQ(text.data, "{\"NextToken\":\"n\",\"MaxResults\":7}");
    /* 0 goes back to the input's own value. */
    anvil_paginate_set_page_size(run, 0);
    CHECK_OK(anvil_paginate_input(run, &page_input));
    anvil_buf_clear(&text);
    CHECK_OK(anvil_json_write(page_input, 0, &text));
    CHECK_STR_EQ(text.data, "{\"MaxResults\":50,\"NextToken\":\"n\"}");
    /* The caller's input is untouched. */
    anvil_buf_clear(&text);
    CHECK_OK(anvil_json_write(anvil_json_doc_root(input), 0, &text));
    CHECK_STR_EQ(text.data, "{\"MaxResults\":50}");
done:
    anvil_paginate_destroy(run);
    anvil_json_doc_destroy(doc);
    anvil_json_doc_destroy(input);
    anvil_paginator_set_destroy(set);
    anvil_buf_clean_up(&text);
}

TEST(paginate_max_items_truncates_and_resumes_like_botocore) {
    struct anvil_paginator_set *set = NULL;
    struct s_trace tr;
    static const char *const pages[] = {"{\"Items\": [1, 2, 3], \"NextToken\": \"a\"}",
                                        "{\"Items\": [4, 5, 6], \"NextToken\": \"b\"}", "{\"Items\": [7]}"};
    CHECK_OK(s_desc(t, s_simple, &set));
    const struct anvil_paginator *p = anvil_paginator_set_at(set, 0);
    /* 4 items: the second page is cut after one; resume from token "a" skipping 1. */
    struct anvil_paginate_options o = {.max_items = 4};
    CHECK_OK(s_drive(t, p, NULL, &o, pages, 3, &tr));
    CHECK_EQ_U64(tr.pages, 2);
    CHECK_EQ_U64(tr.items, 4);
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_MAX_ITEMS);
    CHECK_STR_EQ(tr.resume, "eyJOZXh0VG9rZW4iOiJhIiwiYm90b190cnVuY2F0ZV9hbW91bnQiOjF9");
    /* Resuming: page "a" again, its first item skipped, then the rest. */
    static const char *const rest[] = {"{\"Items\": [4, 5, 6], \"NextToken\": \"b\"}", "{\"Items\": [7]}"};
    char token[256];
    snprintf(token, sizeof token, "%s", tr.resume); /* s_drive clears the trace */
    struct anvil_paginate_options resume = {.starting_token = anvil_sv_from_cstr(token)};
    CHECK_OK(s_drive(t, p, NULL, &resume, rest, 2, &tr));
    CHECK_STR_EQ(tr.inputs[0], "{\"NextToken\":\"a\"}");
    CHECK_EQ_U64(tr.items, 3); /* 5, 6, 7 */
    CHECK_EQ_INT(tr.reason, ANVIL_PAGINATE_NO_TOKEN);
    /* Exactly on a page boundary: the resume token is the next token alone. */
    struct anvil_paginate_options three = {.max_items = 3};
    CHECK_OK(s_drive(t, p, NULL, &three, pages, 3, &tr));
    CHECK_EQ_U64(tr.pages, 1);
    CHECK_STR_EQ(tr.resume, "eyJOZXh0VG9rZW4iOiJhIn0="); /* {"NextToken":"a"} */
done:
    anvil_paginator_set_destroy(set);
}

TEST(paginate_rejects_a_bad_starting_token) {
    struct anvil_paginator_set *set = NULL;
    struct anvil_paginate_run *run = NULL;
    struct anvil_diag diag;
    CHECK_OK(s_desc(t, s_simple, &set));
    static const char *const bad[] = {"not base64!",
                                      "bm90IGpzb24=", "eyJPdGhlciI6MX0=", "eyJib3RvX3RydW5jYXRlX2Ftb3VudCI6LTF9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct anvil_paginate_options o = {.starting_token = anvil_sv_from_cstr(bad[i])};
        CHECK_STATUS(anvil_paginate_start(t->alloc, anvil_paginator_set_at(set, 0), NULL, &o, &run, &diag),
                     ANVIL_EINVAL);
        CHECK(run == NULL && strstr(diag.message, "bad starting token") != NULL);
    }
done:
    anvil_paginator_set_destroy(set);
}
