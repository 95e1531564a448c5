/*
 * Model assembly rules, one at a time, on small IDL and JSON AST files:
 * numbers, merging, mixins, service and resource bodies, the 1.0 upgrade,
 * and what a hostile file gets. Smithy's own corpora run in
 * tests/conformance; these pin down the cases the corpora do not show.
 */

#include <stdio.h>
#include <string.h>

#include "harness.h"

/* A NULL-terminated list of file texts; a text starting with '{' is JSON AST, anything else IDL. */
#define FILES(...) ((const char *const[]){__VA_ARGS__, NULL})

#define V2 "$version: \"2\"\n"
#define HDR V2 "namespace ex\n"

/* ---- helpers ---- */

/* Assembles `texts`, named f0.smithy (or f0.json), f1... */
static int s_assemble(struct anvil_test *t, const char *const *texts, struct anvil_model **model,
                      struct anvil_events **events, struct anvil_diag *diag) {
    static char names[8][16];
    struct anvil_model_source sources[8];
    size_t n = 0;
    for (; texts[n] && n < 8; n++) {
        bool json = texts[n][0] == '{';
        snprintf(names[n], sizeof(names[n]), "f%zu.%s", n, json ? "json" : "smithy");
        sources[n] = (struct anvil_model_source){names[n], texts[n], strlen(texts[n]),
                                                 json ? ANVIL_MODEL_FORMAT_JSON : ANVIL_MODEL_FORMAT_IDL};
    }
    return anvil_model_assemble(t->alloc, sources, n, NULL, model, events, diag);
}

/* The files assemble with no error, and `query` on the AST gives `want` (JSON text). */
static void s_ast(struct anvil_test *t, int line, const char *const *texts, const char *query, const char *want) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_jmespath *expr = NULL;
    struct anvil_json_doc *want_doc = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    int rc = s_assemble(t, texts, &model, &events, &diag);
    if (rc != ANVIL_OK) {
        if (!anvil_test_status_mismatch(t, __FILE__, line, "assemble", rc, ANVIL_OK)) {
            anvil_test_fail(t, __FILE__, line, "diag: %s", diag.message);
        }
        goto done;
    }
    CHECK_OK(anvil_jmespath_compile(t->alloc, query, strlen(query), NULL, &expr, &diag));
    CHECK_OK(anvil_json_parse(t->alloc, want, strlen(want), NULL, &want_doc, &diag));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    struct anvil_json got;
    const struct anvil_json *ast = anvil_model_ast(model);
    CHECK_ALLOC(ast);
    CHECK_OK(anvil_jmespath_search(expr, ast, arena, &got, &diag));
    if (!anvil_json_equal(&got, anvil_json_doc_root(want_doc))) {
        struct anvil_buf text;
        anvil_buf_init(&text, t->alloc, 0);
        if (anvil_json_write(&got, 0, &text) == ANVIL_OK && anvil_buf_append(&text, "", 1) == ANVIL_OK) {
            anvil_test_fail(t, __FILE__, line, "%s gave %s, want %s", query, text.data, want);
        } else {
            anvil_test_fail(t, __FILE__, line, "%s: not %s", query, want);
        }
        anvil_buf_clean_up(&text);
    }
done:
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(want_doc);
    anvil_jmespath_destroy(expr);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

/* Assembly fails with `code` and a message holding `message`; `at` ("L:C") when not NULL is where. */
static void s_fails(struct anvil_test *t, int line, const char *const *texts, int code, const char *message,
                    const char *at) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    int rc = s_assemble(t, texts, &model, &events, &diag);
    if (rc != code) {
        if (!anvil_test_status_mismatch(t, __FILE__, line, "assemble", rc, code)) {
            anvil_test_fail(t, __FILE__, line, "diag: %s", diag.message);
        }
        goto done;
    }
    if (!strstr(diag.message, message)) {
        anvil_test_fail(t, __FILE__, line, "diag: \"%s\", want it to hold \"%s\"", diag.message, message);
    }
    char where[32];
    snprintf(where, sizeof(where), "%zu:%zu", diag.line, diag.column);
    if (at && strcmp(where, at) != 0) {
        anvil_test_fail(t, __FILE__, line, "the error is at %s, want %s", where, at);
    }
    CHECK(model == NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

/* Some event has `severity`, names `shape`, holds `message` and has `event_id`. */
static void s_event(struct anvil_test *t, int line, const char *const *texts, enum anvil_severity severity,
                    const char *shape, const char *event_id, const char *message) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_diag diag;
    int rc = s_assemble(t, texts, &model, &events, &diag);
    if (rc == ANVIL_ENOMEM || !events) {
        anvil_test_status_mismatch(t, __FILE__, line, "assemble", rc, ANVIL_OK);
        goto done;
    }
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        if (e->severity == severity && anvil_sv_eq_cstr(e->shape_id, shape) && strcmp(e->event_id, event_id) == 0 &&
            strstr(e->message, message)) {
            goto done;
        }
    }
    anvil_test_fail(t, __FILE__, line, "no %s event on %s holding \"%s\" (rc %d, %zu events, diag %s)", event_id, shape,
                    message, rc, anvil_events_count(events), diag.message);
    for (size_t i = 0; i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        fprintf(stderr, "    %.*s: %s | %s\n", (int)e->shape_id.len, e->shape_id.ptr, e->message, e->event_id);
    }
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
}

/* ---- numbers ---- */

TEST(number_integers_keep_64_bits) {
    s_ast(t, __LINE__, FILES(V2 "metadata m = [9223372036854775807, -9223372036854775808, 123456789012345678]\n"),
          "metadata.m", "[9223372036854775807, -9223372036854775808, 123456789012345678]");
    /* Beyond 64 bits: a double, as the JSON parser reads it. */
    s_ast(t, __LINE__, FILES(V2 "metadata m = [9223372036854775808, -9223372036854775809, 1e2, 0.5]\n"), "metadata.m",
          "[9223372036854775808.0, -9223372036854775809.0, 100.0, 0.5]");
    s_ast(t, __LINE__, FILES(HDR "long L\n@default(9223372036854775807)\nlong M\n"), "shapes.\"ex#M\".traits",
          "{\"smithy.api#default\": 9223372036854775807}");
}

TEST(number_beyond_a_double_is_a_located_error) {
    s_fails(t, __LINE__, FILES(HDR "@trait\ndocument t\n@t([1, 1e999, 3])\nstring S\n"), ANVIL_ESYNTAX,
            "Invalid number '1e999': it is beyond the range of a double", "5:8");
    s_fails(t, __LINE__, FILES(V2 "metadata a = {b: -1.7976931348623159e308}\n"), ANVIL_ESYNTAX,
            "beyond the range of a double", "2:18");
    s_fails(t, __LINE__, FILES(V2 "metadata a = 0.00001e314\n"), ANVIL_ESYNTAX, "beyond the range", "2:14");
    /* The largest double and values that round down to it are fine; tiny ones underflow quietly. */
    s_ast(t, __LINE__,
          FILES(V2
                "metadata a = [1.7976931348623157e308, 179769313486231570000000000000000000000000000000000000000000"
                "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                "0000000000000000000000000000000000000000000000000, 1e-999, 0.0e999]\n"),
          "metadata.a", "[1.7976931348623157e308, 1.7976931348623157e308, 0.0, 0.0]");
}

/* ---- merging metadata and traits ---- */

TEST(metadata_arrays_concatenate_and_other_values_conflict) {
    s_ast(t, __LINE__,
          FILES(V2 "metadata m = [1]\nmetadata s = \"x\"\n", V2 "metadata m = [2, 3]\nmetadata s = \"x\"\n"),
          "metadata", "{\"m\": [1, 2, 3], \"s\": \"x\"}");
    s_event(t, __LINE__, FILES(V2 "metadata m = 1\n", "\n\n" V2 "metadata m = 2\n"), ANVIL_SEVERITY_ERROR, "", "Model",
            "Metadata conflict for key `m`. Defined in both `f0.smithy [2, 14]` and `f1.smithy [4, 14]`");
    s_event(t, __LINE__, FILES(V2 "metadata m = 1\n", "{\"smithy\": \"2.0\", \"metadata\": {\"m\": true}}"),
            ANVIL_SEVERITY_ERROR, "", "Model", "Defined in both `f0.smithy [2, 14]` and `f1.json`");
}

TEST(trait_conflicts_say_where_each_was_written) {
    s_event(t, __LINE__, FILES(HDR "@documentation(\"a\")\nstring S\n", HDR "apply S @documentation(\"b\")\n"),
            ANVIL_SEVERITY_ERROR, "ex#S", "Model",
            "Conflicting `smithy.api#documentation` trait found on shape `ex#S`. The previous trait was defined at "
            "`f0.smithy [3, 1]`, and a conflicting trait was defined at `f1.smithy [3, 9]`.");
    /* Equal values are kept once; arrays concatenate in file order. */
    s_ast(t, __LINE__,
          FILES(HDR "@tags([\"a\"])\n@documentation(\"d\")\nstring S\n",
                HDR "apply S @tags([\"b\", \"c\"])\napply S @documentation(\"d\")\n"),
          "shapes.\"ex#S\".traits",
          "{\"smithy.api#tags\": [\"a\", \"b\", \"c\"], \"smithy.api#documentation\": \"d\"}");
}

/* 20,000 one-item merges into one key: linear, so the document stays small (it was quadratic: 3 GB). */
TEST(many_array_merges_stay_linear) {
    enum { N = 20000 };
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    CHECK_OK(anvil_buf_append(&text, V2, strlen(V2)));
    for (int i = 0; i < N; i++) {
        char line[64];
        int n = snprintf(line, sizeof(line), "metadata arr = [%d]\n", i);
        CHECK_OK(anvil_buf_append(&text, line, (size_t)n));
    }
    CHECK_OK(anvil_buf_append(&text, "namespace ex\nstring S\n", 22));
    for (int i = 0; i < N; i++) {
        char line[64];
        int n = snprintf(line, sizeof(line), "apply S @tags([\"t%d\"])\n", i);
        CHECK_OK(anvil_buf_append(&text, line, (size_t)n));
    }
    struct anvil_model_source source = {"big.smithy", (const char *)text.data, text.len, ANVIL_MODEL_FORMAT_IDL};
    struct anvil_diag diag;
    CHECK_OK(anvil_model_assemble(t->alloc, &source, 1, NULL, &model, &events, &diag));
    const struct anvil_json *ast = anvil_model_ast(model);
    CHECK_ALLOC(ast);
    const struct anvil_json *arr = anvil_json_object_get_cstr(anvil_json_object_get_cstr(ast, "metadata"), "arr");
    CHECK_EQ_U64(anvil_json_len(arr), N);
    CHECK_EQ_INT(anvil_json_int(anvil_json_array_at(arr, N - 1)), N - 1);
    const struct anvil_json *s = anvil_json_object_get_cstr(anvil_json_object_get_cstr(ast, "shapes"), "ex#S");
    const struct anvil_json *tags =
        anvil_json_object_get_cstr(anvil_json_object_get_cstr(s, "traits"), "smithy.api#tags");
    CHECK_EQ_U64(anvil_json_len(tags), N);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}

/* ---- mixins ---- */

/* 30 levels of diamonds (2^30 paths) with an elided member searched from the top: each shape looked at once. */
TEST(mixin_diamonds_stay_linear) {
    enum { LEVELS = 30 };
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_appendf(&text, HDR "@mixin\nstructure L0 { id: String }\n"));
    for (int i = 1; i <= LEVELS; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "@mixin\nstructure A%d with [L%d] {}\n@mixin\nstructure B%d with [L%d] {}\n",
                                   i, i - 1, i, i - 1));
        CHECK_OK(anvil_buf_appendf(&text, "@mixin\nstructure L%d with [A%d, B%d] {}\n", i, i, i));
    }
    CHECK_OK(anvil_buf_appendf(&text, "structure Top with [L%d] { $id\n missing: String }\n", LEVELS));
    CHECK_OK(anvil_buf_append(&text, "", 1));
    s_ast(t, __LINE__, FILES((const char *)text.data), "shapes.\"ex#Top\".members",
          "{\"missing\": {\"target\": \"smithy.api#String\"}}");
    /* An elided member no mixin has: an error, found without walking every path. */
    text.len--;
    CHECK_OK(anvil_buf_appendf(&text, "structure Bad with [L%d] { $nowhere }\n", LEVELS));
    CHECK_OK(anvil_buf_append(&text, "", 1));
    s_event(t, __LINE__, FILES((const char *)text.data), ANVIL_SEVERITY_ERROR, "ex#Bad$nowhere", "Model",
            "Member target was elided, but no bound resource or mixin contained a matching identifier or member name.");
done:
    anvil_buf_clean_up(&text);
}

/* ---- service and resource bodies ---- */

TEST(body_properties_smithy_does_not_know_warn_and_are_dropped) {
    const char *const *files =
        FILES(HDR "service S {\n  type: \"structure\"\n  version: \"1\"\n  foo: 1\n  traits: {}\n}\n");
    s_ast(t, __LINE__, files, "shapes.\"ex#S\"", "{\"type\": \"service\", \"version\": \"1\"}");
    s_event(t, __LINE__, files, ANVIL_SEVERITY_WARNING, "ex#S", "Model",
            "Expected an object with possible properties of `type`, `version`, `operations`, `resources`, `rename`, "
            "`errors`, but found additional properties: `foo`, `traits`");
    s_event(t, __LINE__, FILES(HDR "resource R { version: \"1\" }\n"), ANVIL_SEVERITY_WARNING, "ex#R", "Model",
            "Expected an object with possible properties of `type`, `create`, `read`, `update`, `delete`, `list`, "
            "`identifiers`, `resources`, `operations`, `put`, `properties`, `collectionOperations`, but found "
            "additional properties: `version`");
    /* A property of the other kind of body is dropped too (found by the fuzzer: the AST kept a service's `create`,
     * and changed when read back). */
    s_ast(t, __LINE__,
          FILES(HDR "service S { properties: { p: String }, create: A, collectionOperations: [A] }\n"
                    "resource R { version: \"1\", errors: [A], read: A }\noperation A {}\n"),
          "[shapes.\"ex#S\", shapes.\"ex#R\"]",
          "[{\"type\": \"service\"}, {\"type\": \"resource\", \"read\": {\"target\": \"ex#A\"}}]");
}

TEST(body_properties_of_the_wrong_type_stop_the_file) {
    s_fails(t, __LINE__, FILES(HDR "service S { version: 5 }\n"), ANVIL_ESYNTAX,
            "Expected `version` to be a string; found number", "3:22");
    s_fails(t, __LINE__, FILES(HDR "service S { operations: {} }\n"), ANVIL_ESYNTAX,
            "Expected `operations` member to be an array, but found object.", "3:25");
    s_fails(t, __LINE__, FILES(HDR "service S { errors: [E, 1] }\n"), ANVIL_ESYNTAX,
            "Expected `errors` to be an array of strings. Found number.", "3:25");
    s_fails(t, __LINE__, FILES(HDR "resource R { create: 5 }\n"), ANVIL_ESYNTAX,
            "Expected `create` member to be a string, but found number.", "3:22");
    s_fails(t, __LINE__, FILES(HDR "resource R { identifiers: [] }\n"), ANVIL_ESYNTAX,
            "Expected `identifiers` to be an object; found array", "3:27");
    s_fails(t, __LINE__, FILES(HDR "resource R { properties: { a: null } }\n"), ANVIL_ESYNTAX,
            "Expected string, but found null.", "3:31");
    s_fails(t, __LINE__, FILES(HDR "service S { rename: { \"a.b#C\": true } }\n"), ANVIL_ESYNTAX,
            "Expected string, but found boolean.", "3:32");
}

TEST(enum_members_may_all_come_from_mixins) {
    const char *const *files = FILES(HDR "@mixin\nenum M {\n  A\n}\n@mixin\nenum N with [M] {}\nenum E with [N] {}\n"
                                         "@mixin\nintEnum I {\n  X = 1\n}\nintEnum J with [I] {}\n");
    s_ast(t, __LINE__, files, "[shapes.\"ex#E\".members, shapes.\"ex#J\".mixins[0].target]", "[{}, \"ex#I\"]");
    s_event(t, __LINE__, FILES(HDR "@mixin\nenum M {}\nenum E with [M] {}\n"), ANVIL_SEVERITY_ERROR, "ex#E", "Model",
            "enum must have at least one entry");
    s_event(t, __LINE__, FILES(HDR "intEnum E {}\n"), ANVIL_SEVERITY_ERROR, "ex#E", "Model",
            "intEnum shapes must have at least one member");
    s_event(t, __LINE__, FILES("{\"smithy\": \"2.0\", \"shapes\": {\"ex#E\": {\"type\": \"enum\", \"members\": {}}}}"),
            ANVIL_SEVERITY_ERROR, "ex#E", "Model", "enum must have at least one entry");
}

/* ---- trait ids ---- */

TEST(a_trait_id_never_names_a_member) {
    s_fails(t, __LINE__, FILES(HDR "@d$precated\nstring S\n"), ANVIL_ESYNTAX,
            "Invalid trait shape ID `d$precated`: a trait is a shape, never a member", "3:2");
    s_fails(t, __LINE__, FILES(HDR "string S\napply S @smithy.api#x$y\n"), ANVIL_ESYNTAX, "Invalid trait shape ID",
            "4:10");
    s_event(t, __LINE__,
            FILES("{\"smithy\": \"2.0\", \"shapes\": {\"ex#S\": {\"type\": \"string\", \"traits\": "
                  "{\"ex#a$b\": {}}}}}"),
            ANVIL_SEVERITY_ERROR, "ex#S", "Model", "Invalid shape ID: ex#a$b");
}

/* ---- what a hostile file gets ---- */

TEST(error_locations_count_every_kind_of_line_break) {
    s_fails(t, __LINE__, FILES("$version: \"2\"\rnamespace ex\rstring A\r@@\r"), ANVIL_ESYNTAX,
            "Expected IDENTIFIER but found AT('@')", "4:2");
    s_fails(t, __LINE__, FILES("$version: \"2\"\r\nnamespace ex\nstring A\r@@\r"), ANVIL_ESYNTAX, "found AT", "4:2");
}

/* Whatever a message quotes from the file prints as one line of valid UTF-8. */
TEST(error_messages_quote_bytes_printably) {
    static const char nul[] = HDR "string \0A\n";
    struct anvil_model_source source = {"nul.smithy", nul, sizeof(nul) - 1, ANVIL_MODEL_FORMAT_IDL};
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    int rc = anvil_model_assemble(t->alloc, &source, 1, NULL, &model, NULL, &diag);
    if (rc == ANVIL_ENOMEM) {
        CHECK(anvil_test_injected(t));
        goto done;
    }
    CHECK_STATUS(rc, ANVIL_ESYNTAX);
    CHECK(strstr(diag.message, "Unexpected character: '\\u0000'") != NULL);
    s_fails(t, __LINE__, FILES("\xef\xbb\xbf" HDR), ANVIL_ESYNTAX, "but found ERROR('\\uFEFF')", "1:1");
    s_fails(t, __LINE__, FILES(HDR "string \x01\n"), ANVIL_ESYNTAX, "Unexpected character: '\\u0001'", "3:8");
    s_fails(t, __LINE__, FILES(HDR "string \xff\n"), ANVIL_ESYNTAX, "invalid UTF-8 (byte 0xFF)", "3:8");
    s_fails(t, __LINE__, FILES(HDR "string A \"\xe2\x80\xa8\"\n"), ANVIL_ESYNTAX, "STRING('\"\\u2028\"')", NULL);
done:
    anvil_model_destroy(model);
}

/* Strings the lexer decoded live with the parse trees, which are freed before the output is built. */
TEST(decoded_strings_outlive_the_parse_trees) {
    s_ast(t, __LINE__, FILES(V2 "metadata \"a\\u0041\nb\" = 1\nmetadata \"\\\"q\" = [\"\\t\"]\n"), "metadata",
          "{\"aA\\nb\": 1, \"\\\"q\": [\"\\t\"]}");
    s_ast(t, __LINE__,
          FILES(HDR "service S { version: \"v\\u0031\", operations: [\"ex#O\\u0070\"] }\noperation Op {\n"
                    "    input := { @documentation(\"d\\n\") a: String }\n}\n"),
          "[shapes.\"ex#S\".version, shapes.\"ex#S\".operations[0].target, shapes.\"ex#OpInput\".members.a.traits]",
          "[\"v1\", \"ex#Op\", {\"smithy.api#documentation\": \"d\\n\"}]");
}

/* ---- ids resolved statement by statement ---- */

/* A relative name the namespace defines further on (here or in a later file) is the namespace's, not the
 * prelude's, and an annotation trait defined further on takes its type's empty value: the reader guessed
 * from what it had read, and the assembly runs again knowing every id. */
TEST(names_defined_later_win_over_the_prelude) {
    s_ast(t, __LINE__, FILES(HDR "structure A { s: String }\nstring String\n"), "shapes.\"ex#A\".members.s.target",
          "\"ex#String\"");
    s_ast(t, __LINE__, FILES(HDR "structure A { s: String }\n", HDR "string String\n"),
          "shapes.\"ex#A\".members.s.target", "\"ex#String\"");
    s_ast(t, __LINE__, FILES(HDR "@required\nstring A\n@trait\nstring required\n"), "shapes.\"ex#A\".traits",
          "{\"ex#required\": null}");
    s_ast(t, __LINE__, FILES(HDR "apply A @documentation(\"x\")\nstring A\n@trait\nstring documentation\n"),
          "shapes.\"ex#A\".traits", "{\"ex#documentation\": \"x\"}");
    /* The prelude when nothing else defines it. */
    s_ast(t, __LINE__, FILES(HDR "structure A { s: String }\nstring Str\n", HDR "string Other\n"),
          "shapes.\"ex#A\".members.s.target", "\"smithy.api#String\"");
}

TEST(annotation_traits_defined_later_take_their_type) {
    s_ast(t, __LINE__,
          FILES(HDR "@l\n@m\n@s\n@b\nstring A\n@trait\nlist l { member: String }\n@trait\nmap m { key: String, "
                    "value: String }\n@trait\nstructure s {}\n@trait\nboolean b\n"),
          "shapes.\"ex#A\".traits", "{\"ex#l\": [], \"ex#m\": {}, \"ex#s\": {}, \"ex#b\": null}");
    /* Merged with an apply of the same list trait: [] and ["x"] concatenate, as Smithy merges them. */
    s_ast(t, __LINE__, FILES(HDR "@l\nstring A\napply A @l([\"x\"])\n@trait\nlist l { member: String }\n"),
          "shapes.\"ex#A\".traits", "{\"ex#l\": [\"x\"]}");
    /* A trait nothing defines is taken as a structure, as before. */
    s_ast(t, __LINE__, FILES(HDR "use other#t\n@t\nstring A\n"), "shapes.\"ex#A\".traits", "{\"other#t\": {}}");
}

/* Statements are read one at a time: what one leaves for the next (doc comments, a string, an error) survives. */
TEST(statements_hand_over_to_the_next) {
    s_ast(t, __LINE__, FILES(HDR "string A\n/// Docs of B\n/// two lines\nstring B\n"),
          "shapes.\"ex#B\".traits.\"smithy.api#documentation\"", "\"Docs of B\\ntwo lines\"");
    s_fails(t, __LINE__, FILES(HDR "string A\n\"x\\u0041\"\n"), ANVIL_ESYNTAX, "found STRING", "4:1");
    s_fails(t, __LINE__, FILES(HDR "string A\n\"unterminated\n"), ANVIL_ESYNTAX, "Syntax error", "4:1");
    s_fails(t, __LINE__, FILES(HDR "string A\n^\n"), ANVIL_ESYNTAX, "Unexpected character: '^'", "4:1");
}

/* Inline inputs of statements that read alike are named in the same place of the reused statement memory:
 * each must still name its own structure (100 of them: some share a slot of the resolution cache). */
TEST(inline_io_of_alike_statements_keep_their_names) {
    enum { N = 100 };
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&text, HDR));
    for (int i = 0; i < N; i++) {
        char line[128];
        int n = snprintf(line, sizeof(line), "operation Op%03d {\n    input := { a: String }\n}\n", i);
        CHECK_OK(anvil_buf_append(&text, line, (size_t)n));
    }
    struct anvil_model_source source = {"ops.smithy", (const char *)text.data, text.len, ANVIL_MODEL_FORMAT_IDL};
    struct anvil_diag diag;
    CHECK_OK(anvil_model_assemble(t->alloc, &source, 1, NULL, &model, &events, &diag));
    for (int i = 0; i < N; i++) {
        char id[32], want[32];
        snprintf(id, sizeof(id), "ex#Op%03d", i);
        snprintf(want, sizeof(want), "ex#Op%03dInput", i);
        const struct anvil_shape *op = anvil_model_find(model, id, strlen(id));
        CHECK(op != NULL);
        struct anvil_str_view input = anvil_shape_id(anvil_operation_input(op));
        if (!anvil_sv_eq_cstr(input, want)) {
            anvil_test_fail(t, __FILE__, __LINE__, "%s takes %.*s, want %s", id, (int)input.len, input.ptr, want);
        }
    }
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}

/* ---- ids Smithy's shape id parser refuses ---- */

TEST(ids_smithy_refuses_are_errors_where_they_are) {
    s_fails(t, __LINE__, FILES(HDR "@se.sitive\nstring S\n"), ANVIL_ESYNTAX, "Invalid shape ID: `se.sitive`", "3:2");
    s_fails(t, __LINE__, FILES(HDR "structure S { a: foo.bar }\n"), ANVIL_ESYNTAX, "Invalid shape ID: `foo.bar`", NULL);
    s_fails(t, __LINE__, FILES(HDR "@tags([a.b])\nstring S\n"), ANVIL_ESYNTAX, "Invalid shape ID: `a.b`", NULL);
    s_fails(t, __LINE__,
            FILES(V2 "$operationInputSuffix: \"In(put)\"\nnamespace ex\noperation Op {\n    input := {}\n}\n"),
            ANVIL_ESYNTAX, "Invalid shape ID: `ex#OpIn(put)`", "5:14");
    /* An unused odd suffix says nothing, as in Smithy. */
    s_ast(t, __LINE__, FILES(V2 "$operationInputSuffix: \"In(put)\"\nnamespace ex\nstring S\n"), "keys(shapes)",
          "[\"ex#S\"]");
    s_event(t, __LINE__, FILES("{\"smithy\": \"2.0\", \"shapes\": {\"ex#a b\": {\"type\": \"string\"}}}"),
            ANVIL_SEVERITY_ERROR, "", "Model", "Invalid shape ID: ex#a b");
    s_event(t, __LINE__,
            FILES("{\"smithy\": \"2.0\", \"shapes\": {\"ex#S\": {\"type\": \"string\", \"traits\": "
                  "{\"x.1y#z\": {}}}}}"),
            ANVIL_SEVERITY_ERROR, "ex#S", "Model", "Invalid shape ID: x.1y#z");
    s_event(t, __LINE__,
            FILES("{\"smithy\": \"2.0\", \"shapes\": {\"ex#S\": {\"type\": \"structure\", \"members\": "
                  "{\"m m\": {\"target\": \"smithy.api#String\"}}}}}"),
            ANVIL_SEVERITY_ERROR, "ex#S", "Model", "Invalid shape ID: ex#S$m m");
}

/* ---- mixins nested too deep: one event, not a "not found" for every shape above ---- */

TEST(mixins_nested_too_deep_say_so_once) {
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&text, HDR));
    for (int i = 0; i < 300; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "@mixin\nstructure M%d with [M%d] {}\n", i, i + 1));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "@mixin\nstructure M300 {}\n"));
    struct anvil_model_source source = {"deep.smithy", (const char *)text.data, text.len, ANVIL_MODEL_FORMAT_IDL};
    struct anvil_diag diag;
    int rc = anvil_model_assemble(t->alloc, &source, 1, NULL, &model, &events, &diag);
    if (rc == ANVIL_ENOMEM) {
        CHECK(anvil_test_injected(t));
        goto done;
    }
    CHECK_STATUS(rc, ANVIL_EMODEL);
    CHECK_ALLOC(events);
    CHECK_EQ_U64(anvil_events_count(events), 1);
    CHECK(strstr(anvil_events_at(events, 0)->message, "Mixins nest deeper than 256 shapes below `ex#M0`") != NULL);
done:
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}

/* Where a doc comment was written is where its `///` starts (an `@` trait's is its `@`). */
TEST(doc_comments_are_located_at_their_slashes) {
    s_event(t, __LINE__, FILES(HDR "string X\n\n    /// doc\n@documentation(\"x\")\nstructure S {}\n"),
            ANVIL_SEVERITY_ERROR, "ex#S", "Model",
            "The previous trait was defined at `f0.smithy [6, 1]`, and a conflicting trait was defined at `f0.smithy "
            "[5, 5]`.");
}

/* A message quoting a hostile model's long id is cut at 4 KiB, on a character, and ends in an ellipsis. */
TEST(event_messages_are_bounded) {
    struct anvil_arena *arena = NULL;
    struct anvil_model *model = NULL;
    struct anvil_events *events = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&text, "{\"smithy\": \"2.0\", \"shapes\": {\"ex#S\": {\"type\": \"structure\", "
                                          "\"members\": {\"m\": {\"target\": \"ex#"));
    for (int i = 0; i < 5000; i++) {
        CHECK_OK(anvil_buf_append_cstr(&text, "\xc3\xa9")); /* e-acute: two bytes */
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "\"}}}}}"));
    struct anvil_model_options options = {.allow_unresolved = true};
    struct anvil_diag diag;
    CHECK_OK(anvil_model_load(t->alloc, (const char *)text.data, text.len, &options, &model, &diag));
    CHECK_OK(anvil_model_validate(model, t->alloc, &events));
    CHECK_EQ_U64(anvil_events_count(events), 1);
    const char *m = anvil_events_at(events, 0)->message;
    size_t len = strlen(m);
    CHECK(len <= 4096 + 3);
    CHECK(len > 3 && strcmp(m + len - 3, "\xe2\x80\xa6") == 0);
    struct anvil_json v;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_new_string(arena, m, len, &v)); /* valid UTF-8: no character cut in two */
done:
    anvil_arena_destroy(arena);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    anvil_buf_clean_up(&text);
}

/* ---- wide shapes: long trait lists and many members go through an index ---- */

TEST(wide_shapes_keep_their_rules) {
    enum { N = 200 };
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&text, HDR));
    for (int i = 0; i < N; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "@trait\nlist t%d { member: String }\n", i));
    }
    for (int i = 0; i < N; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "@t%d([\"a\"])\n", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "structure S {\n"));
    for (int i = 0; i < N; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "    m%d: String\n", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "}\napply S @t150([\"b\"])\napply S$m170 @documentation(\"d\")\n"));
    CHECK_OK(anvil_buf_append(&text, "", 1));
    const char *wide = (const char *)text.data;
    /* The 151st trait of 200 merges with its apply; the 171st member of 200 takes its. */
    s_ast(t, __LINE__, FILES(wide), "[shapes.\"ex#S\".traits.\"ex#t150\", shapes.\"ex#S\".members.m170.traits]",
          "[[\"a\", \"b\"], {\"smithy.api#documentation\": \"d\"}]");
    s_event(t, __LINE__, FILES(wide, HDR "apply S @t199(\"x\")\n"), ANVIL_SEVERITY_ERROR, "ex#S", "Model",
            "Conflicting `ex#t199` trait found on shape `ex#S`");
    s_fails(t, __LINE__, FILES(wide, HDR "apply S$m999 @documentation(\"d\")\n"), ANVIL_EMODEL,
            "apply targets member `m999`, which `ex#S` does not have", NULL);
done:
    anvil_buf_clean_up(&text);
}

/* A member named twice among many, and an enum value named twice among many, stop the file. */
TEST(wide_statements_find_repeated_names) {
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&text, HDR "structure S {\n"));
    for (int i = 0; i < 100; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "    m%d: String\n", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "    m42: Integer\n}\n"));
    CHECK_OK(anvil_buf_append(&text, "", 1));
    s_fails(t, __LINE__, FILES((const char *)text.data), ANVIL_ESYNTAX, "Duplicate member of `ex#S`: 'm42'", NULL);
    anvil_buf_clear(&text);
    CHECK_OK(anvil_buf_append_cstr(&text, HDR "enum E {\n"));
    for (int i = 0; i < 100; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "    V%d\n", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "    V7\n}\n"));
    CHECK_OK(anvil_buf_append(&text, "", 1));
    s_fails(t, __LINE__, FILES((const char *)text.data), ANVIL_ESYNTAX, "Found conflicting member name, `V7`", NULL);
    anvil_buf_clear(&text);
    CHECK_OK(anvil_buf_append_cstr(&text, HDR));
    for (int i = 0; i < 100; i++) {
        CHECK_OK(anvil_buf_appendf(&text, "use other#U%d\n", i));
    }
    CHECK_OK(anvil_buf_append_cstr(&text, "use more#U57\n"));
    CHECK_OK(anvil_buf_append(&text, "", 1));
    s_fails(t, __LINE__, FILES((const char *)text.data), ANVIL_ESYNTAX,
            "Cannot use name `more#U57` because it conflicts with `other#U57`", NULL);
done:
    anvil_buf_clean_up(&text);
}
