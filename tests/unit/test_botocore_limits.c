/*
 * Hostile botocore service models: long chains of references, shapes that
 * name themselves, wide shapes, thousands of broken shapes, strings past the
 * JSON limits. Each loads or fails with a clear message, in bounded time and
 * memory, and what loads can be used (validated, written as IDL, read for
 * waiters). Not swept: each would run thousands of times.
 */

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "model/botocore_internal.h"

#define HEAD "{\"metadata\":{\"protocol\":\"rest-json\",\"serviceId\":\"Hostile\"},"

static int s_assemble(struct anvil_test *t, const struct anvil_buf *doc, const struct anvil_model_options *options,
                      struct anvil_model **model, struct anvil_events **events, struct anvil_diag *diag) {
    struct anvil_model_source src = {"service-2.json", doc->data, doc->len, ANVIL_MODEL_FORMAT_AUTO};
    return anvil_model_assemble(t->alloc, &src, 1, options, model, events, diag);
}

/* The model is usable: it validates, writes as IDL and yields (no) waiters. */
static bool s_usable(struct anvil_test *t, const struct anvil_model *model) {
    struct anvil_events *events = NULL;
    struct anvil_waiter_set *set = NULL;
    struct anvil_buf idl;
    struct anvil_diag diag;
    anvil_buf_init(&idl, t->alloc, 0);
    bool ok = anvil_model_validate(model, t->alloc, &events) == ANVIL_OK &&
              anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR) == 0 &&
              anvil_model_write_idl(model, ANVIL_SV("com.amazonaws.hostile"), NULL, &idl, &diag) == ANVIL_OK &&
              anvil_waiter_set_from_model(t->alloc, model, &set, &diag) == ANVIL_OK;
    anvil_waiter_set_destroy(set);
    anvil_events_destroy(events);
    anvil_buf_clean_up(&idl);
    return ok;
}

TEST(botocore_chain_of_100000_references) {
    /* S0 -> S1 -> ... -> S99999: nothing recurses over references, so the length costs no stack. */
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{\"Go\":{\"http\":{\"method\":\"POST\","
                                              "\"requestUri\":\"/\"},\"input\":{\"shape\":\"S0\"}}},\"shapes\":{"));
    for (int i = 0; i < 100000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, "\"S%d\":{\"type\":\"structure\",\"members\":{\"Next\":{\"shape\":\"S%d\"}}},",
                                   i, i + 1 < 100000 ? i + 1 : 0));
    }
    doc.len--; /* the last comma */
    CHECK_OK(anvil_buf_append_cstr(&doc, "}}"));
    CHECK_OK(s_assemble(t, &doc, NULL, &model, &events, &diag));
    CHECK_EQ_U64(anvil_model_shape_count(model), 100002);
    CHECK(s_usable(t, model));
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_shapes_naming_themselves) {
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(
        &doc, HEAD "\"operations\":{},\"shapes\":{"
                   "\"Tree\":{\"type\":\"structure\",\"members\":{\"Self\":{\"shape\":\"Tree\"},\"Kids\":{\"shape\":"
                   "\"Forest\"},\"ByName\":{\"shape\":\"Grove\"}}},"
                   "\"Forest\":{\"type\":\"list\",\"member\":{\"shape\":\"Tree\"}},"
                   "\"Grove\":{\"type\":\"map\",\"key\":{\"shape\":\"Name\"},\"value\":{\"shape\":\"Grove\"}},"
                   "\"Loop\":{\"type\":\"list\",\"member\":{\"shape\":\"Loop\"}},"
                   "\"Name\":{\"type\":\"string\"}}}"));
    int rc = s_assemble(t, &doc, NULL, &model, &events, &diag);
    CHECK_OK(rc);
    CHECK(anvil_model_ast(model) != NULL);
    /* Smithy would refuse the list holding itself (a ShapeRecursion ERROR): anvil's validator does not look. */
    struct anvil_events *checked = NULL;
    CHECK_OK(anvil_model_validate(model, t->alloc, &checked));
    anvil_events_destroy(checked);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_deep_nesting_is_refused) {
    /* A document nested 100,000 deep (in a place botocore ignores) stops at the JSON depth limit. */
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{},\"shapes\":{},\"documentation\":"));
    for (int i = 0; i < 100000; i++) {
        CHECK_OK(anvil_buf_append_byte(&doc, '['));
    }
    for (int i = 0; i < 100000; i++) {
        CHECK_OK(anvil_buf_append_byte(&doc, ']'));
    }
    CHECK_OK(anvil_buf_append_byte(&doc, '}'));
    int rc = s_assemble(t, &doc, NULL, &model, &events, &diag);
    CHECK(rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "service-2.json") != NULL);
    CHECK(strstr(diag.message, "deep") != NULL || strstr(diag.message, "depth") != NULL ||
          strstr(diag.message, "nest") != NULL);
    CHECK(model == NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_many_broken_shapes_are_counted_not_listed) {
    /* 5,000 shapes of an unknown type: ANVIL__BOTO_MAX_EVENTS events, then one that says how many more. */
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{},\"shapes\":{"));
    for (int i = 0; i < 5000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, "%s\"S%d\":{\"type\":\"quaternion\"}", i ? "," : "", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "}}"));
    CHECK_STATUS(s_assemble(t, &doc, NULL, &model, &events, &diag), ANVIL_EMODEL);
    size_t botocore = 0;
    const struct anvil_event *last = NULL;
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        if (strcmp(e->event_id, "BotocoreModel") == 0) {
            botocore++;
            last = strstr(e->message, "more problems") ? e : last;
        }
    }
    CHECK_EQ_U64(botocore, ANVIL__BOTO_MAX_EVENTS + 1);
    CHECK(last != NULL);
    CHECK_STR_EQ(last->message, "4000 more problems in this botocore model are not listed");
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_long_names_are_cut_in_messages) {
    /* A 1 MB shape name that is no identifier: the event quotes 200 bytes of it. */
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{},\"shapes\":{\"-"));
    for (int i = 0; i < (1 << 20); i++) {
        CHECK_OK(anvil_buf_append_byte(&doc, 'x'));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "\":{\"type\":\"string\"}}}"));
    CHECK_STATUS(s_assemble(t, &doc, NULL, &model, &events, &diag), ANVIL_EMODEL);
    CHECK(strstr(diag.message, "cannot be a Smithy shape") != NULL);
    CHECK(strlen(diag.message) < 600);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_strings_past_the_json_limit) {
    /* A 65 MiB documentation string: past the JSON parser's string limit (64 MiB), an error, no model. */
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    size_t n = ANVIL_JSON_DEFAULT_MAX_STRING_BYTES + ((size_t)1 << 20);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{},\"shapes\":{},\"documentation\":\""));
    CHECK_OK(anvil_buf_reserve(&doc, n + 8));
    memset(doc.data + doc.len, 'a', n);
    doc.len += n;
    CHECK_OK(anvil_buf_append_cstr(&doc, "\"}"));
    int rc = s_assemble(t, &doc, NULL, &model, &events, &diag);
    CHECK(rc == ANVIL_ELIMIT || rc == ANVIL_ESYNTAX);
    CHECK(model == NULL);
    CHECK(strstr(diag.message, "service-2.json") != NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_wide_shapes_stay_fast) {
    /* 100,000 members, all required, all labels of one URI of 100,000 labels, and 20,000 operations whose names
     * clash with shapes: each costs a lookup, not a scan (a scan would be 10^10 steps). */
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{\"Go\":{\"http\":{\"method\":\"GET\","
                                              "\"requestUri\":\"/"));
    for (int i = 0; i < 100000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, "{l%d}/", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "\"},\"input\":{\"shape\":\"Wide\"}}"));
    for (int i = 0; i < 20000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, ",\"C%d\":{\"http\":{\"method\":\"GET\",\"requestUri\":\"/c\"}}", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "},\"shapes\":{\"S\":{\"type\":\"string\"},\"Wide\":{\"type\":\"structure\","
                                         "\"required\":["));
    for (int i = 0; i < 100000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, "%s\"M%d\"", i ? "," : "", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "],\"members\":{"));
    for (int i = 0; i < 100000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, "%s\"M%d\":{\"shape\":\"S\",\"location\":\"uri\",\"locationName\":\"l%d\"}",
                                   i ? "," : "", i, i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "}}"));
    for (int i = 0; i < 20000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, ",\"C%d\":{\"type\":\"string\"}", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "}}"));
    CHECK_OK(s_assemble(t, &doc, NULL, &model, &events, &diag));
    const struct anvil_shape *go = anvil_model_find(model, "com.amazonaws.hostile#Go", 24);
    CHECK(go != NULL);
    struct anvil_str_view uri =
        anvil_json_string(anvil_json_object_get_cstr(anvil_shape_trait(go, "smithy.api#http"), "uri"));
    CHECK(uri.len > 10 && memcmp(uri.ptr, "/{M0}/{M1}/", 11) == 0);
    CHECK(anvil_model_find(model, "com.amazonaws.hostile#C19999Shape", 33) != NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}

TEST(botocore_max_shapes_applies) {
    struct anvil_buf doc;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    anvil_buf_init(&doc, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&doc, HEAD "\"operations\":{},\"shapes\":{"));
    for (int i = 0; i < 2000; i++) {
        CHECK_OK(anvil_buf_appendf(&doc, "%s\"S%d\":{\"type\":\"string\"}", i ? "," : "", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&doc, "}}"));
    struct anvil_model_options options = {.max_shapes = 1000};
    CHECK_STATUS(s_assemble(t, &doc, &options, &model, &events, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "max_shapes") != NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&doc);
}
