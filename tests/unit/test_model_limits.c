/*
 * Small hostile models that once took exponential or quadratic time and
 * memory: validation and loading must stay linear in the model's size.
 * Checked by memory (the counting allocator's peak), never by time.
 */

#include "counting_allocator.h"
#include "harness.h"

/* A service with one operation whose output is `out`, a waiter whose success path is `path`; `shapes` spliced in. */
static int s_model(struct anvil_buf *text, const char *shapes, const char *out, const char *path) {
    return anvil_buf_appendf(
        text,
        "{\"smithy\": \"2.0\", \"shapes\": {%s"
        "\"ex#Svc\": {\"type\": \"service\", \"operations\": [{\"target\": \"ex#Op\"}]},"
        "\"ex#Op\": {\"type\": \"operation\", \"output\": {\"target\": \"%s\"}, \"traits\": {"
        "\"smithy.waiters#waitable\": {\"Ready\": {\"acceptors\": [{\"state\": \"success\", \"matcher\": {\"output\":"
        "{\"path\": \"%s\", \"expected\": \"x\", \"comparator\": \"stringEquals\"}}}]}}}}}}",
        shapes, out, path);
}

/* Loads and validates `text`; `*events` gets the formatted events. The peak of live heap goes in `*peak`. */
static int s_validate(struct anvil_test *t, const struct anvil_buf *text, struct anvil_buf *events, size_t *peak) {
    struct anvil_counting_allocator *counting = (struct anvil_counting_allocator *)t->alloc;
    size_t before = counting->live_bytes;
    counting->peak_bytes = before;
    struct anvil_model *model = NULL;
    struct anvil_events *found = NULL;
    int rc = anvil_model_load(t->alloc, text->data, text->len, NULL, &model, NULL);
    if (rc == ANVIL_OK) {
        rc = anvil_model_validate(model, t->alloc, &found);
    }
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_events_count(found); i++) {
        rc = anvil_event_format(anvil_events_at(found, i), events);
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(events, '\n') : rc;
    }
    anvil_events_destroy(found);
    anvil_model_destroy(model);
    *peak = counting->peak_bytes - before;
    return rc;
}

/* Each of these took seconds and gigabytes (or never finished) when samples were trees. */
#define S_PEAK_MAX ((size_t)64 << 20)

TEST(validate_self_referencing_structure_is_linear) {
    /* 10 members that all target their own structure: 10! paths once. */
    struct anvil_buf shapes, text, events;
    anvil_buf_init(&shapes, t->alloc, 0);
    anvil_buf_init(&text, t->alloc, 0);
    anvil_buf_init(&events, t->alloc, 0);
    size_t peak = 0;
    CHECK_OK(anvil_buf_append_cstr(&shapes, "\"ex#Out\": {\"type\": \"structure\", \"members\": {"));
    for (int i = 0; i < 10; i++) {
        CHECK_OK(anvil_buf_appendf(&shapes, "%s\"M%d\": {\"target\": \"ex#Out\"}", i ? ", " : "", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&shapes, "}},"));
    CHECK_OK(s_model(&text, shapes.data, "ex#Out", "M0.M1.M2"));
    CHECK_OK(s_validate(t, &text, &events, &peak));
    CHECK(events.data && strstr(events.data, "statically determined to return a `object` type"));
    CHECK(peak < S_PEAK_MAX);
done:
    anvil_buf_clean_up(&shapes);
    anvil_buf_clean_up(&text);
    anvil_buf_clean_up(&events);
}

TEST(validate_nested_long_lists_are_linear) {
    /* Six nested lists of @length(min: 64): 64^6 strings as a tree, and a path that flattens them all. */
    struct anvil_buf shapes, text, events;
    anvil_buf_init(&shapes, t->alloc, 0);
    anvil_buf_init(&text, t->alloc, 0);
    anvil_buf_init(&events, t->alloc, 0);
    size_t peak = 0;
    CHECK_OK(anvil_buf_append_cstr(
        &shapes, "\"ex#Out\": {\"type\": \"structure\", \"members\": {\"L\": {\"target\": \"ex#L1\"}}},"));
    for (int i = 1; i <= 6; i++) {
        CHECK_OK(anvil_buf_appendf(&shapes,
                                   "\"ex#L%d\": {\"type\": \"list\", \"member\": {\"target\": \"%s%d\"}, \"traits\": "
                                   "{\"smithy.api#length\": {\"min\": 64}}},",
                                   i, i < 6 ? "ex#L" : "smithy.api#String", i < 6 ? i + 1 : 0));
    }
    /* "smithy.api#String0" is no shape: make the innermost target the prelude's String. */
    char *fix = strstr(shapes.data, "smithy.api#String0");
    CHECK(fix != NULL);
    memmove(fix + 17, fix + 18, strlen(fix + 18) + 1);
    shapes.len--;
    CHECK_OK(s_model(&text, shapes.data, "ex#Out", "L[][][][][][]"));
    CHECK_OK(s_validate(t, &text, &events, &peak));
    CHECK(events.data && strstr(events.data, "statically determined to return a `array` type"));
    CHECK(peak < S_PEAK_MAX);
    /* The same over projections instead of flattens. */
    anvil_buf_clear(&text);
    anvil_buf_clear(&events);
    CHECK_OK(s_model(&text, shapes.data, "ex#Out", "L[*][*][*][*][*][0]"));
    CHECK_OK(s_validate(t, &text, &events, &peak));
    CHECK(peak < S_PEAK_MAX);
done:
    anvil_buf_clean_up(&shapes);
    anvil_buf_clean_up(&text);
    anvil_buf_clean_up(&events);
}

TEST(validate_deep_binary_structures_are_linear) {
    /* 24 levels of two-member structures: 2^24 leaves as a tree, 48 values as a DAG. */
    struct anvil_buf shapes, text, events;
    anvil_buf_init(&shapes, t->alloc, 0);
    anvil_buf_init(&text, t->alloc, 0);
    anvil_buf_init(&events, t->alloc, 0);
    size_t peak = 0;
    for (int i = 0; i < 24; i++) {
        char target[32];
        snprintf(target, sizeof target, i < 23 ? "ex#S%d" : "smithy.api#String", i + 1);
        CHECK_OK(anvil_buf_appendf(&shapes,
                                   "\"ex#S%d\": {\"type\": \"structure\", \"members\": {\"a\": {\"target\": \"%s\"}, "
                                   "\"b\": {\"target\": \"%s\"}}},",
                                   i, target, target));
    }
    CHECK_OK(s_model(&text, shapes.data, "ex#S0", "a.b.a.b.a.b.a.b.a.b.a.b.a.b.a.b.a.b.a.b.a.b.a.b"));
    CHECK_OK(s_validate(t, &text, &events, &peak));
    /* The path reaches the String at the bottom: no problem to report. */
    CHECK(!events.data || !strstr(events.data, "ReturnTypeMismatch"));
    CHECK(peak < (size_t)4 << 20);
done:
    anvil_buf_clean_up(&shapes);
    anvil_buf_clean_up(&text);
    anvil_buf_clean_up(&events);
}

TEST(mixin_merge_is_linear) {
    /* A mixin of 50,000 members mixed into 21 shapes (each redefining one member) once took minutes. */
    enum { MEMBERS = 50000, SHAPES = 21 };
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    struct anvil_model *model = NULL;
    CHECK_OK(anvil_buf_append_cstr(&text, "{\"smithy\": \"2.0\", \"shapes\": {\"ex#Mix\": {\"type\": \"structure\", "
                                          "\"traits\": {\"smithy.api#mixin\": {}}, \"members\": {"));
    for (int i = 0; i < MEMBERS; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "%s\"m%d\": {\"target\": \"smithy.api#String\"}", i ? "," : "", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "}}"));
    for (int j = 0; j < SHAPES; j++) {
        CHECK_OK(anvil_buf_appendf(&text,
                                   ", \"ex#S%d\": {\"type\": \"structure\", \"mixins\": [{\"target\": \"ex#Mix\"}], "
                                   "\"members\": {\"own\": {\"target\": \"smithy.api#String\"}, \"m7\": {\"target\": "
                                   "\"smithy.api#Integer\"}}}",
                                   j));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "}}"));
    CHECK_OK(anvil_model_load(t->alloc, text.data, text.len, NULL, &model, NULL));
    const struct anvil_shape *s = anvil_model_find(model, "ex#S20", 6);
    CHECK(s != NULL);
    /* The mixin's members in order (m7 not repeated), then the shape's own, m7 with the shape's target. */
    CHECK_EQ_U64(anvil_shape_member_count(s), MEMBERS + 1);
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, 0)->name, "m0"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, 7)->name, "m8"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, MEMBERS - 2)->name, "m49999"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, MEMBERS - 1)->name, "own"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_member_at(s, MEMBERS)->name, "m7"));
    CHECK(anvil_sv_eq_cstr(anvil_shape_id(anvil_shape_member_at(s, MEMBERS)->target), "smithy.api#Integer"));
done:
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}

TEST(apply_to_members_is_linear) {
    /* 50,000 `apply` statements to the members of a 50,000-member structure: each once scanned the members. */
    enum { MEMBERS = 50000 };
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    struct anvil_model *model = NULL;
    CHECK_OK(anvil_buf_append_cstr(&text, "{\"smithy\": \"2.0\", \"shapes\": {\"ex#Big\": {\"type\": \"structure\", "
                                          "\"members\": {"));
    for (int i = 0; i < MEMBERS; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "%s\"m%d\": {\"target\": \"smithy.api#String\"}", i ? "," : "", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "}}"));
    for (int i = 0; i < MEMBERS; i++) {
        CHECK_OK(anvil_buf_appendf(&text,
                                   ", \"ex#Big$m%d\": {\"type\": \"apply\", \"traits\": "
                                   "{\"smithy.api#documentation\": \"member %d\"}}",
                                   i, i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "}}"));
    CHECK_OK(anvil_model_load(t->alloc, text.data, text.len, NULL, &model, NULL));
    const struct anvil_shape *big = anvil_model_find(model, "ex#Big", 6);
    CHECK(big != NULL);
    const struct anvil_member *m = anvil_shape_member(big, "m49999");
    CHECK(m != NULL);
    const struct anvil_json *doc = anvil_json_object_get_cstr(&m->traits, "smithy.api#documentation");
    CHECK(anvil_sv_eq_cstr(anvil_json_string(doc), "member 49999"));
    CHECK(anvil_shape_member(big, "m50000") == NULL);
done:
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}

/* An IDL file of 200,000 shapes against max_shapes 100: the file stops at the 101st, holding next to nothing. */
TEST(max_shapes_stops_a_file_as_it_is_read) {
    struct anvil_counting_allocator *counting = (struct anvil_counting_allocator *)t->alloc;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    struct anvil_model *model = NULL;
    CHECK_OK(anvil_buf_append_cstr(&text, "$version: \"2\"\nnamespace ex\n"));
    for (int i = 0; i < 200000; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "string S%d\n", i));
    }
    size_t before = counting->live_bytes;
    counting->peak_bytes = before;
    struct anvil_model_source source = {"many.smithy", (const char *)text.data, text.len, ANVIL_MODEL_FORMAT_IDL};
    struct anvil_model_options options = {.max_shapes = 100};
    struct anvil_diag diag;
    CHECK_STATUS(anvil_model_assemble(t->alloc, &source, 1, &options, &model, NULL, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "more than 100 shapes") != NULL);
    CHECK(counting->peak_bytes - before < (size_t)1 << 20);
done:
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}
