/*
 * 100,000-deep inputs of every construct in research/jmespath.md section 5:
 * each either works (chains evaluate iteratively) or fails cleanly with
 * ANVIL_ELIMIT, never a crash. And a result larger than its arena allows.
 */

#include "harness.h"

/* prefix x n, middle, suffix x n */
static char *s_repeat(struct anvil_test *t, const char *prefix, const char *middle, const char *suffix, size_t n,
                      size_t *len) {
    size_t lp = strlen(prefix), lm = strlen(middle), ls = strlen(suffix);
    char *text = anvil_mem_acquire(t->alloc, n * (lp + ls) + lm + 1);
    if (!text) {
        return NULL;
    }
    size_t w = 0;
    for (size_t i = 0; i < n; i++, w += lp) {
        memcpy(text + w, prefix, lp);
    }
    memcpy(text + w, middle, lm);
    w += lm;
    for (size_t i = 0; i < n; i++, w += ls) {
        memcpy(text + w, suffix, ls);
    }
    text[w] = '\0';
    *len = w;
    return text;
}

/* Compiles (length limit raised) and evaluates on `input`; returns the status. */
static int s_run(struct anvil_test *t, const char *text, size_t len, const char *input, struct anvil_json *result,
                 struct anvil_arena *arena) {
    struct anvil_jmespath_options options = {.max_length = (size_t)4 << 20};
    struct anvil_jmespath *jp = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    int rc = anvil_jmespath_compile(t->alloc, text, len, &options, &jp, &diag);
    if (rc == ANVIL_OK) {
        rc = anvil_json_parse(t->alloc, input, strlen(input), NULL, &doc, NULL);
    }
    struct anvil_json borrowed;
    if (rc == ANVIL_OK) {
        rc = anvil_jmespath_search(jp, anvil_json_doc_root(doc), arena, &borrowed, &diag);
    }
    /* The result may point into the input: copy it before the input goes. */
    if (rc == ANVIL_OK) {
        rc = anvil_json_copy(arena, &borrowed, result);
    }
    anvil_json_doc_destroy(doc);
    anvil_jmespath_destroy(jp);
    return rc;
}

#define DEEP 100000

TEST(jmespath_deep_nesting_is_a_clean_limit) {
    static const struct {
        const char *prefix, *middle, *suffix;
    } nested[] = {
        {"(", "@", ")"},    {"!", "@", ""},    {"", "@", "[*]"},     {"length(", "@", ")"}, {"[", "@", "]"},
        {"{a: ", "@", "}"}, {"`", "", ""},     {"a || (", "b", ")"}, {"&(", "a", ")"},      {"[?", "@", "]"},
        {"", "a", " == a"}, {"", "a", "[?b]"}, {"", "@", "[]"},      {"", "a", ".*"},
    };
    struct anvil_arena *arena = NULL;
    char *text = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t i = 0; i < sizeof(nested) / sizeof(nested[0]); i++) {
        size_t len;
        if (i == 6) { /* a JSON literal nested 100,000 deep */
            text = s_repeat(t, "", "", "", 0, &len);
            anvil_mem_release(t->alloc, text);
            char *inner = s_repeat(t, "[", "", "]", DEEP, &len);
            CHECK_ALLOC(inner);
            text = anvil_mem_acquire(t->alloc, len + 3);
            if (text) {
                text[0] = '`';
                memcpy(text + 1, inner, len);
                text[len + 1] = '`';
                text[len + 2] = '\0';
                len += 2;
            }
            anvil_mem_release(t->alloc, inner);
        } else {
            text = s_repeat(t, nested[i].prefix, nested[i].middle, nested[i].suffix, DEEP, &len);
        }
        CHECK_ALLOC(text);
        struct anvil_json result;
        int rc = s_run(t, text, len, "{}", &result, arena);
        if (rc != ANVIL_ELIMIT) {
            fprintf(stderr, "construct %zu (%s...): %s\n", i, nested[i].prefix, anvil_status_name(rc));
        }
        CHECK_STATUS(rc, ANVIL_ELIMIT);
        anvil_mem_release(t->alloc, text);
        text = NULL;
    }
done:
    anvil_mem_release(t->alloc, text);
    anvil_arena_destroy(arena);
}

TEST(jmespath_long_chains_evaluate_iteratively) {
    struct anvil_arena *arena = NULL;
    char *text = NULL;
    size_t len;
    struct anvil_json result;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));

    text = s_repeat(t, "a.", "a", "", DEEP, &len);
    CHECK_ALLOC(text);
    CHECK_OK(s_run(t, text, len, "{\"a\": {\"a\": 1}}", &result, arena));
    CHECK(anvil_json_is_null(&result));
    anvil_mem_release(t->alloc, text);

    text = s_repeat(t, "@|", "@", "", DEEP, &len);
    CHECK_ALLOC(text);
    CHECK_OK(s_run(t, text, len, "[7]", &result, arena));
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(&result, 0)), 7);
    anvil_mem_release(t->alloc, text);

    text = s_repeat(t, "", "@", "[0]", DEEP, &len);
    CHECK_ALLOC(text);
    CHECK_OK(s_run(t, text, len, "[[[1]]]", &result, arena));
    CHECK(anvil_json_is_null(&result));
    anvil_mem_release(t->alloc, text);

    text = s_repeat(t, "", "a", " && a", DEEP, &len);
    CHECK_ALLOC(text);
    CHECK_OK(s_run(t, text, len, "{\"a\": 3}", &result, arena));
    CHECK_EQ_INT(anvil_json_int(&result), 3);
    anvil_mem_release(t->alloc, text);

    text = s_repeat(t, "", "b", " || a", DEEP, &len);
    CHECK_ALLOC(text);
    CHECK_OK(s_run(t, text, len, "{\"a\": 4}", &result, arena));
    CHECK_EQ_INT(anvil_json_int(&result), 4);
    anvil_mem_release(t->alloc, text);
    text = NULL;
done:
    anvil_mem_release(t->alloc, text);
    anvil_arena_destroy(arena);
}

TEST(jmespath_default_length_limit) {
    struct anvil_jmespath *jp = NULL;
    struct anvil_diag diag;
    size_t len;
    char *text = s_repeat(t, "a.", "a", "", DEEP, &len);
    CHECK_ALLOC(text);
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, text, len, NULL, &jp, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "longer than the limit") != NULL);
done:
    anvil_mem_release(t->alloc, text);
    anvil_jmespath_destroy(jp);
}

TEST(jmespath_deepest_document_to_string) {
    /* The deepest document anvil can hold, turned back into text by to_string(@). */
    struct anvil_json_parse_options deep = {.max_depth = ANVIL_JSON_MAX_DEPTH};
    struct anvil_json_doc *doc = NULL;
    struct anvil_jmespath *jp = NULL;
    struct anvil_arena *arena = NULL;
    size_t len;
    char *text = s_repeat(t, "[", "", "]", ANVIL_JSON_MAX_DEPTH, &len);
    CHECK_ALLOC(text);
    CHECK_OK(anvil_json_parse(t->alloc, text, len, &deep, &doc, NULL));
    CHECK_OK(anvil_jmespath_compile(t->alloc, "to_string(@)", 12, NULL, &jp, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_json result;
    CHECK_OK(anvil_jmespath_search(jp, anvil_json_doc_root(doc), arena, &result, NULL));
    CHECK_EQ_U64(anvil_json_len(&result), len);
done:
    anvil_mem_release(t->alloc, text);
    anvil_json_doc_destroy(doc);
    anvil_jmespath_destroy(jp);
    anvil_arena_destroy(arena);
}

TEST(jmespath_result_bigger_than_its_arena) {
    struct anvil_arena *arena = NULL;
    struct anvil_arena_options small = {.first_block_size = 4096, .max_bytes = 64 << 10};
    struct anvil_buf input;
    anvil_buf_init(&input, t->alloc, 0);
    CHECK_OK(anvil_buf_append_byte(&input, '['));
    for (int i = 0; i < 2000; i++) {
        CHECK_OK(anvil_buf_appendf(&input, "%s%d", i ? "," : "", i));
    }
    CHECK_OK(anvil_buf_append_byte(&input, ']'));
    CHECK_OK(anvil_arena_new(t->alloc, &small, &arena));
    struct anvil_json result;
    CHECK_STATUS(s_run(t, "[*].[@, @, @, @]", 16, input.data, &result, arena), ANVIL_ELIMIT);
done:
    anvil_buf_clean_up(&input);
    anvil_arena_destroy(arena);
}
