/*
 * `a` and `a.b.c` are compiled without the lexer (parser.c, s_field_chain):
 * the tree must be the one the general parser makes. A leading space sends
 * the same text through the general parser, every position one further.
 */

#include "harness.h"
#include "jmespath/jmespath_internal.h"

/* Whether `a` (fast path) and `b` (general parser, positions + shift) are the same tree. */
static bool s_same_tree(const struct jp_node *a, const struct jp_node *b, size_t shift) {
    if (a->type != b->type || a->pos + shift != b->pos || a->count != b->count || a->height != b->height ||
        a->hash != b->hash || a->slot != b->slot || a->name.len != b->name.len ||
        (a->name.len && memcmp(a->name.ptr, b->name.ptr, a->name.len) != 0)) {
        return false;
    }
    for (size_t i = 0; i < a->count; i++) {
        if (!s_same_tree(a->children[i], b->children[i], shift)) {
            return false;
        }
    }
    return true;
}

/* Compiles `text` and " " + `text`; ANVIL_OK when both compile to the same tree. */
static int s_compare(struct anvil_test *t, const char *text) {
    char spaced[512];
    snprintf(spaced, sizeof spaced, " %s", text);
    struct anvil_jmespath *fast = NULL, *general = NULL;
    int rc = anvil_jmespath_compile(t->alloc, text, strlen(text), NULL, &fast, NULL);
    if (rc == ANVIL_OK) {
        rc = anvil_jmespath_compile(t->alloc, spaced, strlen(spaced), NULL, &general, NULL);
    }
    if (rc == ANVIL_OK && !s_same_tree(fast->root, general->root, 1)) {
        fprintf(stderr, "%s: the fast path's tree differs from the parser's\n", text);
        rc = ANVIL_EINTERNAL;
    }
    /* The fast path's mark: a chain's child list is exactly as long as needed (the parser's doubles from 2). */
    if (rc == ANVIL_OK && fast->root->type == JP_N_SUBEXPR && fast->root->capacity != fast->root->count) {
        fprintf(stderr, "%s: not compiled by the fast path\n", text);
        rc = ANVIL_EINTERNAL;
    }
    if (rc == ANVIL_OK && fast->fields != general->fields) {
        rc = ANVIL_EINTERNAL;
    }
    anvil_jmespath_destroy(fast);
    anvil_jmespath_destroy(general);
    return rc;
}

TEST(jmespath_field_chains_compile_to_the_parsers_tree) {
    static const char *const chains[] = {
        "a",
        "b",
        "foo",
        "_",
        "_x1",
        "Reservations",
        "c.d",
        "a.b.c",
        "Table.TableStatus",
        "A_1.b_2.C3._4",
        "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s",
    };
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) {
        CHECK_OK(s_compare(t, chains[i]));
    }
    /* A chain longer than the general parser's first child lists. */
    char long_chain[400];
    size_t n = 0;
    for (int i = 0; i < 100; i++) {
        n += (size_t)snprintf(long_chain + n, sizeof long_chain - n, "%sk%d", i ? "." : "", i);
    }
    CHECK_OK(s_compare(t, long_chain));
done:;
}

TEST(jmespath_near_chains_take_the_general_parser) {
    struct anvil_jmespath *expr = NULL;
    /* Each is not a plain chain: the answer must be the general parser's, errors included. */
    static const struct {
        const char *text;
        int status;
    } cases[] = {
        {"a.", ANVIL_ESYNTAX},       {".a", ANVIL_ESYNTAX},         {"a..b", ANVIL_ESYNTAX},
        {"1a", ANVIL_ESYNTAX},       {"a.1", ANVIL_ESYNTAX},        {"a-b", ANVIL_ESYNTAX},
        {"a.b ", ANVIL_OK},          {"a.\"b\"", ANVIL_OK},         {"a.b[0]", ANVIL_OK},
        {"a.*", ANVIL_OK},           {"length", ANVIL_OK},          {"a.b\n", ANVIL_OK},
        {"\xc3\xa9", ANVIL_ESYNTAX}, {"a.\xc3\xa9", ANVIL_ESYNTAX},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct anvil_diag diag;
        int rc = anvil_jmespath_compile(t->alloc, cases[i].text, strlen(cases[i].text), NULL, &expr, &diag);
        anvil_jmespath_destroy(expr);
        expr = NULL;
        if (rc == ANVIL_ENOMEM) {
            CHECK_OK(rc);
        }
        if (rc != cases[i].status) {
            fprintf(stderr, "%s: got %s (%s)\n", cases[i].text, anvil_status_name(rc), diag.message);
        }
        CHECK(rc == cases[i].status);
        if (rc != ANVIL_OK) {
            CHECK(diag.message[0] != '\0');
        }
    }
    /* A dot's right side is one level down: with max_depth 1 a chain is the general parser's error. */
    struct anvil_jmespath_options shallow = {.max_depth = 1};
    struct anvil_diag diag;
    CHECK_OK(anvil_jmespath_compile(t->alloc, "a", 1, &shallow, &expr, NULL));
    anvil_jmespath_destroy(expr);
    expr = NULL;
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, "a.b", 3, &shallow, &expr, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "deeper than the limit of 1") != NULL);
    CHECK_STATUS(anvil_jmespath_compile(t->alloc, " a.b", 4, &shallow, &expr, NULL), ANVIL_ELIMIT);
    /* The text ends where len says, not at a NUL: "a.b" of "a.bc" is a chain of a and b. */
    CHECK_OK(anvil_jmespath_compile(t->alloc, "a.bc", 3, NULL, &expr, NULL));
    CHECK(expr->root->type == JP_N_SUBEXPR && expr->root->count == 2 && expr->root->children[1]->name.len == 1);
    CHECK(strcmp(expr->text, "a.b") == 0);
done:
    anvil_jmespath_destroy(expr);
}

TEST(jmespath_projection_prefetch_skips_empty_objects) {
    /* Empty objects (no members array) and non-objects eight items ahead of a projection. */
    struct anvil_jmespath *expr = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_arena *arena = NULL;
    static const char input[] =
        "[{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, 1, {\"a\": 2}, {}, \"x\", {\"a\": 3}, {}, {}, {}, "
        "{}, {}, {}, {}, {}, {}]";
    CHECK_OK(anvil_jmespath_compile(t->alloc, "[*].a", 5, NULL, &expr, NULL));
    CHECK_OK(anvil_json_parse(t->alloc, input, sizeof input - 1, NULL, &doc, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_json got;
    CHECK_OK(anvil_jmespath_search(expr, anvil_json_doc_root(doc), arena, &got, NULL));
    CHECK(anvil_json_len(&got) == 2 && anvil_json_int(anvil_json_array_at(&got, 0)) == 2 &&
          anvil_json_int(anvil_json_array_at(&got, 1)) == 3);
done:
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(doc);
    anvil_jmespath_destroy(expr);
}

/*
 * A whole-expression chain is searched without the evaluator (eval.c): the answer must be the
 * evaluator's on every document, whichever parser built the chain. Keys of 1 to 3 bytes that differ
 * only in the middle test the short-key compare.
 */
TEST(jmespath_field_chain_searches_as_the_evaluator_does) {
    static const char *const exprs[] = {
        "a",     "abc", "axc", "a.b",   "abc.axc", "\"a\".\"b\"", "a.b.c", "big.k15", "big.k9",
        "big.x", "n.a", "s.a", "arr.a", "nul.a",   "e.a",         "\"\"",  "\"\".a",  "ab.ba",
    };
    static const char *const docs[] = {
        "{\"a\": {\"b\": {\"c\": 1}}, \"abc\": {\"axc\": 2, \"abc\": 3}, \"axc\": 4}",
        "{\"a\": null, \"abc\": [1], \"axc\": \"s\", \"n\": 5, \"s\": \"str\", \"arr\": [{\"a\": 1}], \"nul\": null}",
        ("{\"big\": {\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,"
         "\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16}, \"e\": {}}"),
        "{\"\": {\"a\": true}, \"ab\": {\"ba\": 1, \"bb\": 2, \"aa\": 3}}",
        "[1, 2]",
        "\"a\"",
        "{}",
    };
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_jmespath *expr = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        CHECK_OK(anvil_json_parse(t->alloc, docs[d], strlen(docs[d]), NULL, &doc, NULL));
        for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++) {
            CHECK_OK(anvil_jmespath_compile(t->alloc, exprs[e], strlen(exprs[e]), NULL, &expr, NULL));
            CHECK(expr->field_chain);
            struct anvil_json fast, slow;
            CHECK_OK(anvil_jmespath_search(expr, anvil_json_doc_root(doc), arena, &fast, NULL));
            expr->field_chain = false; /* the evaluator, as for any other expression */
            CHECK_OK(anvil_jmespath_search(expr, anvil_json_doc_root(doc), arena, &slow, NULL));
            if (!anvil_json_equal(&fast, &slow) || anvil_json_type(&fast) != anvil_json_type(&slow)) {
                fprintf(stderr, "%s on document %zu: the chain's answer differs from the evaluator's\n", exprs[e], d);
                CHECK(false);
            }
            anvil_jmespath_destroy(expr);
            expr = NULL;
        }
        anvil_json_doc_destroy(doc);
        doc = NULL;
    }
    /* What is not a chain keeps the evaluator. */
    static const char *const others[] = {"a[0]", "a | b", "a.b[0]", "@.a", "a.*", "a.[b]", "`1`"};
    for (size_t e = 0; e < sizeof others / sizeof others[0]; e++) {
        CHECK_OK(anvil_jmespath_compile(t->alloc, others[e], strlen(others[e]), NULL, &expr, NULL));
        CHECK(!expr->field_chain);
        anvil_jmespath_destroy(expr);
        expr = NULL;
    }
done:
    anvil_jmespath_destroy(expr);
    anvil_json_doc_destroy(doc);
    anvil_arena_destroy(arena);
}
