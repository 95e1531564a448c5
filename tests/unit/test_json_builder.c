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

/* The static initialisers make the values the inline constructors make. */
TEST(json_static_initialisers_match_the_constructors) {
    static const struct anvil_json none = ANVIL_JSON_NULL_INIT, yes = ANVIL_JSON_BOOL_INIT(1),
                                   no = ANVIL_JSON_BOOL_INIT(0), answer = ANVIL_JSON_INT_INIT(-42),
                                   items = ANVIL_JSON_EMPTY_ARRAY_INIT, members = ANVIL_JSON_EMPTY_OBJECT_INIT;
    struct anvil_json made = anvil_json_make_null();
    CHECK(anvil_json_equal(&none, &made) && anvil_json_is_null(&none));
    made = anvil_json_make_bool(true);
    CHECK(anvil_json_equal(&yes, &made) && anvil_json_bool(&yes));
    made = anvil_json_make_bool(false);
    CHECK(anvil_json_equal(&no, &made) && anvil_json_is_bool(&no) && !anvil_json_bool(&no));
    CHECK(anvil_json_is_int(&answer) && anvil_json_int(&answer) == -42);
    CHECK(anvil_json_is_array(&items) && anvil_json_len(&items) == 0);
    CHECK(anvil_json_is_object(&members) && anvil_json_len(&members) == 0);
    CHECK(anvil_json_object_get_cstr(&members, "x") == NULL);
    CHECK(s_writes(t, &items, "[]") && s_writes(t, &members, "{}"));
done:;
}

/* An object from pairs: keys copied and checked, values shared, last duplicate wins in the first's place. */
TEST(json_new_object_from_pairs) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_parse(t->alloc, "[1, \"a long shared string\"]", 27, NULL, &doc, NULL));
    const struct anvil_json *root = anvil_json_doc_root(doc);
    char key[] = "first";
    struct anvil_json_pair pairs[] = {{{key, 5}, *anvil_json_array_at(root, 0)},
                                      {ANVIL_SV("s"), *anvil_json_array_at(root, 1)},
                                      {ANVIL_SV("first"), ANVIL_JSON_BOOL_INIT(1)},
                                      {ANVIL_SV(""), ANVIL_JSON_NULL_INIT}};
    struct anvil_json v;
    int rc = anvil_json_new_object(arena, pairs, 4, &v);
    if (anvil_test_injected(t) && rc == ANVIL_ENOMEM) {
        goto done;
    }
    CHECK_OK(rc);
    key[0] = 'X'; /* the key was copied */
    CHECK(s_writes(t, &v, "{\"first\":true,\"s\":\"a long shared string\",\"\":null}"));
    CHECK(anvil_json_string_ptr(anvil_json_object_get_cstr(&v, "s")) ==
          anvil_json_string_ptr(anvil_json_array_at(root, 1)));
    /* Large objects get their index: every key is found. */
    struct anvil_json_pair many[40];
    char names[40][8];
    for (int i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "k%d", i % 33);
        many[i].key = anvil_sv_from_cstr(names[i]);
        many[i].value = anvil_json_make_int(i);
    }
    rc = anvil_json_new_object(arena, many, 40, &v);
    if (anvil_test_injected(t) && rc == ANVIL_ENOMEM) {
        goto done;
    }
    CHECK_OK(rc);
    CHECK_EQ_U64(anvil_json_len(&v), 33);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(&v, "k0")), 33);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(&v, "k32")), 32);
    CHECK_EQ_INT(anvil_json_int(anvil_json_object_get_cstr(&v, "k6")), 39);
    /* An empty object; bad keys and arguments. */
    CHECK_OK(anvil_json_new_object(arena, NULL, 0, &v));
    CHECK(anvil_json_is_object(&v) && anvil_json_len(&v) == 0);
    struct anvil_json_pair bad[] = {{{"\xff", 1}, ANVIL_JSON_NULL_INIT}};
    CHECK_STATUS(anvil_json_new_object(arena, bad, 1, &v), ANVIL_EVALUE);
    struct anvil_json_pair null_key[] = {{{NULL, 3}, ANVIL_JSON_NULL_INIT}};
    CHECK_STATUS(anvil_json_new_object(arena, null_key, 1, &v), ANVIL_EINVAL);
    CHECK_STATUS(anvil_json_new_object(arena, NULL, 1, &v), ANVIL_EINVAL);
    CHECK_STATUS(anvil_json_new_object(NULL, pairs, 1, &v), ANVIL_EINVAL);
done:
    anvil_json_doc_destroy(doc);
    anvil_arena_destroy(arena);
}

/* An object from a run of another's members shares keys and values. */
TEST(json_new_object_from_members) {
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *doc = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    const char text[] = "{\"a\": 1, \"b\": [2], \"c\": {\"d\": 3}, \"e\": null}";
    CHECK_OK(anvil_json_parse(t->alloc, text, sizeof text - 1, NULL, &doc, NULL));
    const struct anvil_json *root = anvil_json_doc_root(doc);
    struct anvil_json v;
    int rc = anvil_json_new_object_members(arena, anvil_json_object_at(root, 1), 2, &v);
    if (anvil_test_injected(t) && rc == ANVIL_ENOMEM) {
        goto done;
    }
    CHECK_OK(rc);
    CHECK(s_writes(t, &v, "{\"b\":[2],\"c\":{\"d\":3}}"));
    CHECK(anvil_json_object_at(&v, 0)->key == anvil_json_object_at(root, 1)->key);
    CHECK(anvil_json_object_get_cstr(&v, "a") == NULL);
    CHECK_OK(anvil_json_new_object_members(arena, NULL, 0, &v));
    CHECK(anvil_json_is_object(&v) && anvil_json_len(&v) == 0);
    CHECK_STATUS(anvil_json_new_object_members(arena, NULL, 2, &v), ANVIL_EINVAL);
done:
    anvil_json_doc_destroy(doc);
    anvil_arena_destroy(arena);
}
