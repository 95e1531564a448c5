/*
 * Writes the C file test_jpc links: every distinct expression of the
 * JMESPath compliance suite and of the AWS waiters compiled with
 * anvil__jpc_emit(), every distinct waiter matcher (path, comparator,
 * expected) compiled with anvil__jpc_emit_match(), and the tables
 * (jpc_table.h) naming them. A seeded grammar adds random expressions that
 * combine the constructs in ways the suites do not.
 *
 * Usage: jpc_gen OUT.c COMPLIANCE_DIR SMITHY_MODELS_DIR [BOTOCORE_DATA_DIR]
 * (the botocore directory is skipped when missing). A build tool: it may use
 * the library's internals.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "codegen/codegen_internal.h"
#include "read_file.h"
#include "walk.h"

#define S_PREFIX "" /* helpers jpc_*, as anvil gen names them */
/* Random expressions tried (those that compile are kept). */
#define S_RANDOM_EXPRESSIONS 3000

struct s_expr {
    char *text;
    size_t len;
};

struct s_match {
    char *path;
    size_t path_len;
    enum anvil_waiter_comparator comparator;
    char *expected; /* JSON text */
    size_t expected_len;
    char *origin;
};

struct s_state {
    struct s_expr *exprs;
    size_t expr_count, expr_cap;
    struct s_match *matches;
    size_t match_count, match_cap;
    int failures;
};

static void *s_grow(void *items, size_t *cap, size_t count, size_t size) {
    if (count < *cap) {
        return items;
    }
    *cap = *cap ? *cap * 2 : 64;
    void *grown = realloc(items, *cap * size);
    if (!grown) {
        fprintf(stderr, "jpc_gen: out of memory\n");
        exit(1);
    }
    return grown;
}

static char *s_dup(const char *p, size_t len) {
    char *s = malloc(len + 1);
    if (!s) {
        fprintf(stderr, "jpc_gen: out of memory\n");
        exit(1);
    }
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

/* Adds an expression that compiles, once. */
static void s_add_expr(struct s_state *st, struct anvil_str_view text) {
    for (size_t i = 0; i < st->expr_count; i++) {
        if (st->exprs[i].len == text.len && memcmp(st->exprs[i].text, text.ptr, text.len) == 0) {
            return;
        }
    }
    struct anvil_jmespath *expr = NULL;
    if (anvil_jmespath_compile(NULL, text.ptr, text.len, NULL, &expr, NULL) != ANVIL_OK) {
        return; /* a syntax error case: nothing to compile */
    }
    anvil_jmespath_destroy(expr);
    st->exprs = s_grow(st->exprs, &st->expr_cap, st->expr_count, sizeof(*st->exprs));
    st->exprs[st->expr_count++] = (struct s_expr){s_dup(text.ptr, text.len), text.len};
}

static void s_add_match(struct s_state *st, const struct anvil_waiter_acceptor *a, const char *origin) {
    struct anvil_str_view path = anvil_jmespath_text(a->path);
    struct anvil_buf expected;
    anvil_buf_init(&expected, NULL, 0);
    anvil_json_write(&a->expected, ANVIL_JSON_WRITE_COMPACT, &expected);
    s_add_expr(st, path);
    for (size_t i = 0; i < st->match_count; i++) {
        struct s_match *m = &st->matches[i];
        if (m->comparator == a->comparator && m->path_len == path.len && memcmp(m->path, path.ptr, path.len) == 0 &&
            m->expected_len == expected.len && memcmp(m->expected, expected.data, expected.len) == 0) {
            anvil_buf_clean_up(&expected);
            return;
        }
    }
    st->matches = s_grow(st->matches, &st->match_cap, st->match_count, sizeof(*st->matches));
    st->matches[st->match_count++] =
        (struct s_match){s_dup(path.ptr, path.len),          path.len,     a->comparator,
                         s_dup(expected.data, expected.len), expected.len, s_dup(origin, strlen(origin))};
    anvil_buf_clean_up(&expected);
}

static void s_add_waiters(struct s_state *st, const struct anvil_waiter_set *set, const char *origin) {
    for (size_t w = 0; w < anvil_waiter_set_count(set); w++) {
        const struct anvil_waiter *waiter = anvil_waiter_set_at(set, w);
        for (size_t i = 0; i < waiter->acceptor_count; i++) {
            const struct anvil_waiter_acceptor *a = &waiter->acceptors[i];
            if ((a->matcher == ANVIL_MATCH_OUTPUT || a->matcher == ANVIL_MATCH_INPUT_OUTPUT) && a->path) {
                s_add_match(st, a, origin);
            }
        }
    }
}

static const char *s_file_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static struct anvil_json_doc *s_parse_file(const char *path) {
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_json_doc *doc = NULL;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, NULL) != ANVIL_OK) {
        fprintf(stderr, "jpc_gen: cannot read %s\n", path);
        doc = NULL;
    }
    free(text);
    return doc;
}

static void s_compliance_file(const char *path, void *user) {
    struct s_state *st = user;
    struct anvil_json_doc *doc = s_parse_file(path);
    if (!doc) {
        st->failures++;
        return;
    }
    const struct anvil_json *suites = anvil_json_doc_root(doc);
    for (size_t s = 0; s < anvil_json_len(suites); s++) {
        const struct anvil_json *cases = anvil_json_object_get_cstr(anvil_json_array_at(suites, s), "cases");
        for (size_t i = 0; i < anvil_json_len(cases); i++) {
            const struct anvil_json *expression =
                anvil_json_object_get_cstr(anvil_json_array_at(cases, i), "expression");
            if (anvil_json_is_string(expression)) {
                s_add_expr(st, anvil_json_string(expression));
            }
        }
    }
    anvil_json_doc_destroy(doc);
}

static void s_smithy_model(const char *path, void *user) {
    struct s_state *st = user;
    struct anvil_json_doc *doc = s_parse_file(path);
    if (!doc) {
        st->failures++;
        return;
    }
    const struct anvil_json *shapes = anvil_json_object_get_cstr(anvil_json_doc_root(doc), "shapes");
    for (size_t i = 0; i < anvil_json_len(shapes); i++) {
        const struct anvil_json_member *shape = anvil_json_object_at(shapes, i);
        const struct anvil_json *traits = anvil_json_object_get_cstr(&shape->value, "traits");
        const struct anvil_json *trait = anvil_json_object_get_cstr(traits, "smithy.waiters#waitable");
        if (!trait) {
            continue;
        }
        struct anvil_waiter_set *set = NULL;
        struct anvil_diag diag;
        if (anvil_waiter_set_from_trait(NULL, trait, anvil_json_member_key(shape), &set, &diag) != ANVIL_OK) {
            fprintf(stderr, "jpc_gen: %s: %s\n", path, diag.message);
            st->failures++;
            continue;
        }
        s_add_waiters(st, set, s_file_name(path));
        anvil_waiter_set_destroy(set);
    }
    anvil_json_doc_destroy(doc);
}

static void s_botocore_waiters(const char *path, void *user) {
    struct s_state *st = user;
    if (strcmp(s_file_name(path), "waiters-2.json") != 0) {
        return;
    }
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_waiter_set *set = NULL;
    struct anvil_diag diag;
    if (!text || anvil_waiter_set_from_botocore(NULL, text, len, &set, &diag) != ANVIL_OK) {
        fprintf(stderr, "jpc_gen: %s: %s\n", path, text ? diag.message : "cannot read");
        st->failures++;
        free(text);
        return;
    }
    /* "service/version/waiters-2.json" names it. */
    const char *origin = path;
    int slashes = 0;
    for (const char *p = path + strlen(path); p > path; p--) {
        if (p[-1] == '/' && ++slashes == 3) {
            origin = p;
            break;
        }
    }
    s_add_waiters(st, set, origin);
    anvil_waiter_set_destroy(set);
    free(text);
}

/* ---- random expressions: constructs combined in ways the suites do not ---- */

static uint64_t s_rng = 0x4a50435f47454e31;

static unsigned s_below(unsigned n) {
    uint64_t z = (s_rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (unsigned)((z ^ (z >> 31)) % n);
}

static void s_random_expr(struct anvil_buf *out, int depth);

static void s_random_literal(struct anvil_buf *out) {
    static const char *const literals[] = {
        "`1`",          "`0`",    "`-2`",   "`1.5`",    "`\"x\"`",  "'a'",
        "''",           "`null`", "`true`", "`false`",  "`[1, 2]`", "`[\"a\", \"b\"]`",
        "`{\"a\": 1}`", "`[]`",   "`{}`",   "'\u00e9'", "`\"*/\"`"};
    anvil_buf_append_cstr(out, literals[s_below(sizeof(literals) / sizeof(literals[0]))]);
}

static void s_random_name(struct anvil_buf *out) {
    static const char *const names[] = {"a", "b", "c", "foo", "bar", "\"x y\"", "items", "name"};
    anvil_buf_append_cstr(out, names[s_below(sizeof(names) / sizeof(names[0]))]);
}

static void s_random_function(struct anvil_buf *out, int depth) {
    static const struct {
        const char *name;
        int args; /* -1: &expr then expr; -2: expr then &expr; 9: one to three */
    } fns[] = {{"abs", 1},      {"avg", 1},         {"ceil", 1},    {"contains", 2}, {"ends_with", 2}, {"floor", 1},
               {"join", 2},     {"keys", 1},        {"length", 1},  {"map", -1},     {"max", 1},       {"max_by", -2},
               {"merge", 9},    {"min", 1},         {"min_by", -2}, {"not_null", 9}, {"reverse", 1},   {"sort", 1},
               {"sort_by", -2}, {"starts_with", 2}, {"sum", 1},     {"to_array", 1}, {"to_string", 1}, {"to_number", 1},
               {"type", 1},     {"values", 1}};
    size_t f = s_below(sizeof(fns) / sizeof(fns[0]));
    anvil_buf_appendf(out, "%s(", fns[f].name);
    int args = fns[f].args == 9 ? 1 + (int)s_below(3) : fns[f].args;
    if (args == -1) {
        anvil_buf_append_cstr(out, "&");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ", ");
        s_random_expr(out, depth + 1);
    } else if (args == -2) {
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ", &");
        s_random_expr(out, depth + 1);
    } else {
        for (int i = 0; i < args; i++) {
            anvil_buf_append_cstr(out, i ? ", " : "");
            s_random_expr(out, depth + 1);
        }
    }
    anvil_buf_append_cstr(out, ")");
}

static void s_random_expr(struct anvil_buf *out, int depth) {
    unsigned pick = depth > 4 ? s_below(3) : s_below(24);
    static const char *const ops[] = {" == ", " != ", " < ", " <= ", " > ", " >= ", " || ", " && ", " | "};
    switch (pick) {
    case 0:
    case 1:
        s_random_name(out);
        return;
    case 2:
        s_random_literal(out);
        return;
    case 3:
        anvil_buf_append_cstr(out, "@");
        return;
    case 4:
    case 5:
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ".");
        s_random_name(out);
        return;
    case 6:
        s_random_expr(out, depth + 1);
        anvil_buf_appendf(out, "[%d]", (int)s_below(5) - 2);
        return;
    case 7: {
        static const char *const slices[] = {"[1:]", "[:2]", "[::-1]", "[-2:]", "[1:3:2]", "[::0]", "[5:1:-2]"};
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, slices[s_below(7)]);
        return;
    }
    case 8:
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, "[*].");
        s_random_name(out);
        return;
    case 9:
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, s_below(2) ? "[]" : "[].");
        if (out->data[out->len - 1] == '.') {
            s_random_name(out);
        }
        return;
    case 10:
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, "[?");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, "]");
        if (s_below(2)) {
            anvil_buf_append_cstr(out, ".");
            s_random_name(out);
        }
        return;
    case 11:
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ".*");
        if (s_below(2)) {
            anvil_buf_append_cstr(out, ".");
            s_random_name(out);
        }
        return;
    case 12:
    case 13:
    case 14:
        anvil_buf_append_cstr(out, "(");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ops[s_below(9)]);
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ")");
        return;
    case 15:
        anvil_buf_append_cstr(out, "!");
        s_random_expr(out, depth + 1);
        return;
    case 16:
    case 17:
    case 18:
        s_random_function(out, depth);
        return;
    case 19:
        anvil_buf_append_cstr(out, "[");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ", ");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, "]");
        return;
    case 20:
        anvil_buf_append_cstr(out, "{k: ");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, s_below(2) ? ", \"k\": " : ", l: ");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, "}");
        return;
    case 21:
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, "[].[");
        s_random_expr(out, depth + 1);
        anvil_buf_append_cstr(out, ", ");
        s_random_name(out);
        anvil_buf_append_cstr(out, "][]");
        return;
    default:
        s_random_name(out);
        anvil_buf_append_cstr(out, ".");
        s_random_expr(out, depth + 1);
        return;
    }
}

static void s_random_exprs(struct s_state *st, size_t count) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    for (size_t i = 0; i < count; i++) {
        anvil_buf_clear(&text);
        s_random_expr(&text, 0);
        s_add_expr(st, anvil_buf_view(&text));
    }
    anvil_buf_clean_up(&text);
}

static void s_c_string(struct anvil_buf *out, const char *p, size_t len) {
    anvil__c_string(out, anvil_sv(p, len), 8);
}

static const char *s_cmp_enum(enum anvil_waiter_comparator c) {
    static const char *const names[] = {
        "ANVIL_CMP_STRING_EQUALS",     "ANVIL_CMP_BOOLEAN_EQUALS", "ANVIL_CMP_ALL_STRING_EQUALS",
        "ANVIL_CMP_ANY_STRING_EQUALS", "ANVIL_CMP_EQUALS",         "ANVIL_CMP_ALL_EQUALS",
        "ANVIL_CMP_ANY_EQUALS"};
    return (unsigned)c < 7 ? names[c] : "-1";
}

int main(int argc, char **argv) {
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: %s OUT.c COMPLIANCE_DIR SMITHY_MODELS_DIR [BOTOCORE_DATA_DIR]\n", argv[0]);
        return 2;
    }
    struct s_state st = {0};
    anvil_test_walk(argv[2], ".json", s_compliance_file, &st);
    anvil_test_walk(argv[3], ".json", s_smithy_model, &st);
    if (argc == 5) {
        anvil_test_walk(argv[4], ".json", s_botocore_waiters, &st);
    }
    s_random_exprs(&st, S_RANDOM_EXPRESSIONS);
    struct anvil_buf helpers, functions, tables;
    anvil_buf_init(&helpers, NULL, 0);
    anvil_buf_init(&functions, NULL, 0);
    anvil_buf_init(&tables, NULL, 0);
    struct anvil__jpc_options options = {S_PREFIX};
    size_t fallbacks = 0;
    anvil_buf_append_cstr(&tables, "const struct jpc_expr_case jpc_expr_cases[] = {\n");
    for (size_t i = 0; i < st.expr_count; i++) {
        struct anvil_jmespath *expr = NULL;
        anvil_jmespath_compile(NULL, st.exprs[i].text, st.exprs[i].len, NULL, &expr, NULL);
        char name[32];
        snprintf(name, sizeof(name), "jt_expr%zu", i);
        struct anvil_diag diag;
        int rc = anvil__jpc_emit(expr, name, &options, &helpers, &functions, &diag);
        anvil_jmespath_destroy(expr);
        anvil_buf_append_cstr(&tables, "    {");
        s_c_string(&tables, st.exprs[i].text, st.exprs[i].len);
        if (rc == ANVIL_OK) {
            anvil_buf_appendf(&tables, ", %zu, %s, NULL},\n", st.exprs[i].len, name);
        } else if (rc == ANVIL_EUNSUPPORTED) {
            fallbacks++;
            anvil_buf_appendf(&tables, ", %zu, NULL, ", st.exprs[i].len);
            s_c_string(&tables, diag.message, strlen(diag.message));
            anvil_buf_append_cstr(&tables, "},\n");
        } else {
            fprintf(stderr, "jpc_gen: %.*s: %s\n", (int)st.exprs[i].len, st.exprs[i].text, diag.message);
            return 1;
        }
    }
    anvil_buf_appendf(&tables, "};\nconst size_t jpc_expr_case_count = %zu;\n\n", st.expr_count);
    anvil_buf_append_cstr(&tables, "const struct jpc_match_case jpc_match_cases[] = {\n");
    for (size_t i = 0; i < st.match_count; i++) {
        struct s_match *m = &st.matches[i];
        struct anvil_jmespath *expr = NULL;
        struct anvil_json_doc *expected = NULL;
        anvil_jmespath_compile(NULL, m->path, m->path_len, NULL, &expr, NULL);
        anvil_json_parse(NULL, m->expected, m->expected_len, NULL, &expected, NULL);
        char name[32];
        snprintf(name, sizeof(name), "jt_match%zu", i);
        struct anvil_diag diag;
        int rc = anvil__jpc_emit_match(expr, m->comparator, anvil_json_doc_root(expected), name, &options, &helpers,
                                       &functions, &diag);
        anvil_jmespath_destroy(expr);
        anvil_json_doc_destroy(expected);
        anvil_buf_append_cstr(&tables, "    {");
        s_c_string(&tables, m->path, m->path_len);
        anvil_buf_appendf(&tables, ", %zu, %s, ", m->path_len, s_cmp_enum(m->comparator));
        s_c_string(&tables, m->expected, m->expected_len);
        anvil_buf_appendf(&tables, ", %zu, ", m->expected_len);
        if (rc == ANVIL_OK) {
            anvil_buf_appendf(&tables, "%s, NULL, ", name);
        } else if (rc == ANVIL_EUNSUPPORTED) {
            fallbacks++;
            anvil_buf_append_cstr(&tables, "NULL, ");
            s_c_string(&tables, diag.message, strlen(diag.message));
            anvil_buf_append_cstr(&tables, ", ");
        } else {
            fprintf(stderr, "jpc_gen: %.*s: %s\n", (int)m->path_len, m->path, diag.message);
            return 1;
        }
        s_c_string(&tables, m->origin, strlen(m->origin));
        anvil_buf_append_cstr(&tables, "},\n");
    }
    anvil_buf_appendf(&tables, "};\nconst size_t jpc_match_case_count = %zu;\n", st.match_count);
    FILE *out = fopen(argv[1], "wb");
    if (!out) {
        fprintf(stderr, "jpc_gen: cannot write %s\n", argv[1]);
        return 1;
    }
    fprintf(out, "/* Generated by tests/codegen/jpc_gen.c: the JMESPath compliance suite's and the AWS waiters'\n"
                 " * expressions compiled to C. Do not edit. */\n"
                 "#include <stdbool.h>\n"
                 "#include <stddef.h>\n\n"
                 "#include <anvil/jmespath.h>\n"
                 "#include <anvil/status.h>\n"
                 "#include <anvil/waiter.h>\n\n"
                 "#include \"jpc_table.h\"\n\n");
    /* Laid out as anvil gen lays out a file (its long lines and comments broken), for codegen.jpc_layout. */
    if (anvil__c_rewrap(&helpers, 0) != ANVIL_OK || anvil__c_rewrap(&functions, 0) != ANVIL_OK) {
        fprintf(stderr, "jpc_gen: out of memory\n");
        fclose(out);
        return 1;
    }
    fwrite(helpers.data, 1, helpers.len, out);
    fwrite(functions.data, 1, functions.len, out);
    fwrite(tables.data, 1, tables.len, out);
    fclose(out);
    printf("jpc_gen: %zu expressions, %zu matchers, %zu refused\n", st.expr_count, st.match_count, fallbacks);
    anvil_buf_clean_up(&helpers);
    anvil_buf_clean_up(&functions);
    anvil_buf_clean_up(&tables);
    for (size_t i = 0; i < st.expr_count; i++) {
        free(st.exprs[i].text);
    }
    for (size_t i = 0; i < st.match_count; i++) {
        free(st.matches[i].path);
        free(st.matches[i].expected);
        free(st.matches[i].origin);
    }
    free(st.exprs);
    free(st.matches);
    return st.failures ? 1 : 0;
}
