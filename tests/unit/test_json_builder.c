#include "harness.h"

static bool s_writes(struct anvil_test *t, const struct anvil_json *v, const char *want) {
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    int rc = anvil_json_write(v, 0, &out);
    bool same = rc == ANVIL_OK && strcmp(out.data, want) == 0;
    if (rc == ANVIL_OK && !same) {
        fprintf(stderr, "wrote '%s', want '%s'\n", out.data, want);
    }
    anvil_buf_clean_up(&out);
    return same || rc == ANVIL_ENOMEM;
}

TEST(json_builder_input_output_wrapper) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json_doc *output = NULL;
    struct anvil_json v;
    CHECK_OK(anvil_json_parse(t->alloc, "{\"Table\": {\"Status\": \"ACTIVE\"}}", 31, NULL, &output, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "input", 5);
    anvil_json_builder_begin_object(b);
    anvil_json_builder_key(b, "TableName", 9);
    anvil_json_builder_string(b, "my-table", 8);
    anvil_json_builder_key(b, "Limit", 5);
    anvil_json_builder_int(b, 10);
    anvil_json_builder_key(b, "Ratio", 5);
    anvil_json_builder_double(b, 0.5);
    anvil_json_builder_key(b, "Tags", 4);
    anvil_json_builder_begin_array(b);
    anvil_json_builder_bool(b, true);
    anvil_json_builder_null(b);
    anvil_json_builder_end_array(b);
    anvil_json_builder_end_object(b);
    anvil_json_builder_key(b, "output", 6);
    anvil_json_builder_value(b, anvil_json_doc_root(output));
    anvil_json_builder_end_object(b);
    CHECK_OK(anvil_json_builder_finish(b, &v));
    CHECK(s_writes(t, &v,
                   "{\"input\":{\"TableName\":\"my-table\",\"Limit\":10,\"Ratio\":0.5,\"Tags\":[true,null]},"
                   "\"output\":{\"Table\":{\"Status\":\"ACTIVE\"}}}"));
    /* The output is shared, not copied. */
    CHECK(anvil_json_object_get_cstr(&v, "output")->u.members == anvil_json_doc_root(output)->u.members);
done:
    anvil_json_builder_destroy(b);
    anvil_json_doc_destroy(output);
    anvil_arena_destroy(arena);
}

TEST(json_builder_duplicate_keys_last_wins) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json v;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    anvil_json_builder_begin_object(b);
    for (int i = 0; i < 20; i++) {
        char key[8];
        snprintf(key, sizeof(key), "k%d", i % 17);
        anvil_json_builder_key(b, key, strlen(key));
        anvil_json_builder_int(b, i);
    }
    anvil_json_builder_end_object(b);
    CHECK_OK(anvil_json_builder_finish(b, &v));
    CHECK_EQ_U64(anvil_json_len(&v), 17);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(&v, "k0")), 17);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(&v, "k16")), 16);
done:
    anvil_json_builder_destroy(b);
    anvil_arena_destroy(arena);
}

TEST(json_builder_rejects_misuse_and_errors_stick) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json v;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_STATUS(anvil_json_builder_new(t->alloc, NULL, &b), ANVIL_EINVAL);

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_STATUS(anvil_json_builder_finish(b, &v), ANVIL_EINVAL); /* nothing built */
    CHECK_OK(anvil_json_builder_begin_object(b));
    CHECK_STATUS(anvil_json_builder_int(b, 1), ANVIL_EINVAL);      /* value without a key */
    CHECK_STATUS(anvil_json_builder_key(b, "a", 1), ANVIL_EINVAL); /* sticky */
    CHECK_STATUS(anvil_json_builder_finish(b, &v), ANVIL_EINVAL);
    anvil_json_builder_destroy(b);
    b = NULL;

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_OK(anvil_json_builder_begin_array(b));
    CHECK_STATUS(anvil_json_builder_key(b, "a", 1), ANVIL_EINVAL); /* key in an array */
    anvil_json_builder_destroy(b);
    b = NULL;

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_OK(anvil_json_builder_begin_array(b));
    CHECK_STATUS(anvil_json_builder_end_object(b), ANVIL_EINVAL); /* mismatched end */
    anvil_json_builder_destroy(b);
    b = NULL;

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_OK(anvil_json_builder_begin_array(b));
    CHECK_STATUS(anvil_json_builder_finish(b, &v), ANVIL_EINVAL); /* unclosed */
    CHECK_STATUS(anvil_json_builder_string(b, "\xc3", 1), ANVIL_EVALUE);
    anvil_json_builder_destroy(b);
    b = NULL;

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_STATUS(anvil_json_builder_double(b, 1.0 / 0.0), ANVIL_EVALUE);
    anvil_json_builder_destroy(b);
    b = NULL;

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_OK(anvil_json_builder_int(b, 1));
    CHECK_STATUS(anvil_json_builder_int(b, 2), ANVIL_EINVAL); /* two top-level values */
    anvil_json_builder_destroy(b);
    b = NULL;

    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    CHECK_OK(anvil_json_builder_begin_object(b));
    CHECK_STATUS(anvil_json_builder_key(b, "\xff", 1), ANVIL_EVALUE);
done:
    anvil_json_builder_destroy(b);
    anvil_arena_destroy(arena);
}

TEST(json_builder_depth_limit) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
    int rc = ANVIL_OK;
    int depth = 0;
    while (rc == ANVIL_OK && depth <= ANVIL_JSON_MAX_DEPTH) {
        rc = anvil_json_builder_begin_array(b);
        depth += rc == ANVIL_OK;
    }
    CHECK_STATUS(rc, ANVIL_ELIMIT);
    CHECK_EQ_INT(depth, ANVIL_JSON_MAX_DEPTH);
done:
    anvil_json_builder_destroy(b);
    anvil_arena_destroy(arena);
}
