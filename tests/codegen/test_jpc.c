/*
 * Differential test of the JMESPath-to-C compiler (src/codegen/jmespath_c.c)
 * against anvil's interpreter, the oracle:
 *
 * - every compliance case: the compiled function of its expression on its
 *   `given` document gives the interpreter's status and (anvil_json_equal,
 *   and the same JSON text) value; so does every compiled expression on
 *   documents derived from the given ones (members dropped, nulled, given
 *   the wrong type, arrays emptied or cut to one item) and on documents
 *   grown from the expression's own shape;
 * - every waiter matcher (the Smithy models' and botocore's): the fused
 *   matcher decides what the waiter runtime decides (its comparator over the
 *   interpreter's value) on such documents;
 * - a few golden snippets of the emitted text.
 *
 * Usage: test_jpc COMPLIANCE_DIR [--seed N] [--docs N] [--bench]
 * Prints "N expressions (F fallbacks ...), N matchers, N documents, D
 * differences" and fails on any difference. Documents come from a seeded
 * generator: the same seed gives the same run.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "behavior/behavior_internal.h"
#include "codegen/codegen_internal.h"
#include "jmespath/jmespath_internal.h"
#include "jpc_table.h"
#include "read_file.h"
#include "walk.h"

static uint64_t s_seed = 0x6a70635f74657374;
static size_t s_docs_per_case = 24;
static size_t s_differences, s_evaluations, s_documents, s_limited_runs, s_limit_hits, s_error_results;

/* ---- random numbers (splitmix64) ---- */

static uint64_t s_rng;

static uint64_t s_next(void) {
    uint64_t z = (s_rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static unsigned s_below(unsigned n) {
    return (unsigned)(s_next() % n);
}

static bool s_chance(unsigned percent) {
    return s_below(100) < percent;
}

/* ---- documents: a small mutable tree, written as JSON text and parsed ---- */

struct t_val {
    enum anvil_json_type type;
    bool b;
    const char *num; /* number text */
    const char *str;
    size_t len;
    struct t_val **items;
    const char **keys;
    size_t *key_lens;
    size_t n, cap;
};

struct t_gen {
    struct anvil_arena *arena;
    /* Strings that make matches likely: the expected value, the expression's literals and names. */
    const char **strings;
    size_t *string_lens;
    size_t string_count;
    const char **names;
    size_t *name_lens;
    size_t name_count;
    int depth;
};

static void *s_alloc(struct t_gen *g, size_t size) {
    void *p = anvil_arena_alloc(g->arena, size ? size : 1, 0);
    if (!p) {
        fprintf(stderr, "test_jpc: out of memory\n");
        exit(1);
    }
    return p;
}

static struct t_val *t_new(struct t_gen *g, enum anvil_json_type type) {
    struct t_val *v = s_alloc(g, sizeof(*v));
    memset(v, 0, sizeof(*v));
    v->type = type;
    return v;
}

static void t_push(struct t_gen *g, struct t_val *parent, const char *key, size_t key_len, struct t_val *v) {
    if (parent->n == parent->cap) {
        size_t cap = parent->cap ? parent->cap * 2 : 4;
        struct t_val **items = s_alloc(g, cap * sizeof(*items));
        const char **keys = s_alloc(g, cap * sizeof(*keys));
        size_t *lens = s_alloc(g, cap * sizeof(*lens));
        if (parent->n) {
            memcpy(items, parent->items, parent->n * sizeof(*items));
            memcpy(keys, parent->keys, parent->n * sizeof(*keys));
            memcpy(lens, parent->key_lens, parent->n * sizeof(*lens));
        }
        parent->items = items;
        parent->keys = keys;
        parent->key_lens = lens;
        parent->cap = cap;
    }
    /* Objects keep one member per key: a later one replaces the value. */
    if (parent->type == ANVIL_JSON_OBJECT) {
        for (size_t i = 0; i < parent->n; i++) {
            if (parent->key_lens[i] == key_len && memcmp(parent->keys[i], key, key_len) == 0) {
                parent->items[i] = v;
                return;
            }
        }
    }
    parent->items[parent->n] = v;
    parent->keys[parent->n] = key;
    parent->key_lens[parent->n] = key_len;
    parent->n++;
}

static void t_write(const struct t_val *v, struct anvil_buf *out) {
    switch (v->type) {
    case ANVIL_JSON_NULL:
        anvil_buf_append_cstr(out, "null");
        break;
    case ANVIL_JSON_BOOL:
        anvil_buf_append_cstr(out, v->b ? "true" : "false");
        break;
    case ANVIL_JSON_NUMBER:
        anvil_buf_append_cstr(out, v->num);
        break;
    case ANVIL_JSON_STRING:
        anvil_json_write_string(anvil_sv(v->str, v->len), 0, out);
        break;
    case ANVIL_JSON_ARRAY:
    case ANVIL_JSON_OBJECT:
        anvil_buf_append_byte(out, v->type == ANVIL_JSON_ARRAY ? '[' : '{');
        for (size_t i = 0; i < v->n; i++) {
            if (i) {
                anvil_buf_append_byte(out, ',');
            }
            if (v->type == ANVIL_JSON_OBJECT) {
                anvil_json_write_string(anvil_sv(v->keys[i], v->key_lens[i]), 0, out);
                anvil_buf_append_byte(out, ':');
            }
            t_write(v->items[i], out);
        }
        anvil_buf_append_byte(out, v->type == ANVIL_JSON_ARRAY ? ']' : '}');
        break;
    }
}

static struct t_val *t_from_json(struct t_gen *g, const struct anvil_json *j) {
    struct t_val *v = t_new(g, anvil_json_type(j));
    struct anvil_buf text;
    switch (v->type) {
    case ANVIL_JSON_NULL:
        break;
    case ANVIL_JSON_BOOL:
        v->b = anvil_json_bool(j);
        break;
    case ANVIL_JSON_NUMBER:
        anvil_buf_init(&text, NULL, 0);
        anvil_json_write(j, 0, &text);
        v->num = anvil_arena_strndup(g->arena, text.data, text.len);
        anvil_buf_clean_up(&text);
        break;
    case ANVIL_JSON_STRING:
        v->str = anvil_json_string_ptr(j);
        v->len = anvil_json_len(j);
        break;
    case ANVIL_JSON_ARRAY:
        for (size_t i = 0; i < anvil_json_len(j); i++) {
            t_push(g, v, NULL, 0, t_from_json(g, anvil_json_array_at(j, i)));
        }
        break;
    case ANVIL_JSON_OBJECT:
        for (size_t i = 0; i < anvil_json_len(j); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(j, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            t_push(g, v, key.ptr, key.len, t_from_json(g, &m->value));
        }
        break;
    }
    return v;
}

static const char *const s_numbers[] = {"0", "1", "2", "-1", "3", "1.5", "-0.5", "100", "1e3", "9223372036854775807"};

static struct t_val *t_leaf(struct t_gen *g) {
    struct t_val *v;
    unsigned pick = s_below(100);
    if (pick < 35 && g->string_count) {
        v = t_new(g, ANVIL_JSON_STRING);
        size_t k = s_below((unsigned)g->string_count);
        v->str = g->strings[k];
        v->len = g->string_lens[k];
    } else if (pick < 45) {
        static const char *const other[] = {"", "other", "x", "\xc3\xa9t\xc3\xa9", "1"};
        v = t_new(g, ANVIL_JSON_STRING);
        v->str = other[s_below(5)];
        v->len = strlen(v->str);
    } else if (pick < 60) {
        v = t_new(g, ANVIL_JSON_NUMBER);
        v->num = s_numbers[s_below(sizeof(s_numbers) / sizeof(s_numbers[0]))];
    } else if (pick < 72) {
        v = t_new(g, ANVIL_JSON_BOOL);
        v->b = s_chance(50);
    } else if (pick < 82) {
        v = t_new(g, ANVIL_JSON_NULL);
    } else if (pick < 92 && g->depth < 10) {
        v = t_new(g, ANVIL_JSON_ARRAY);
        g->depth++;
        for (unsigned i = s_below(4); i > 0; i--) {
            t_push(g, v, NULL, 0, t_leaf(g));
        }
        g->depth--;
    } else {
        v = t_new(g, ANVIL_JSON_OBJECT);
        g->depth++;
        for (unsigned i = s_below(3); i > 0 && g->name_count && g->depth < 10; i--) {
            size_t k = s_below((unsigned)g->name_count);
            t_push(g, v, g->names[k], g->name_lens[k], t_leaf(g));
        }
        g->depth--;
    }
    return v;
}

/* What consumes a generated value: a node applied to it, or an array / object of elements for a projection. */
enum t_kind { K_NODE, K_ARRAY, K_VALUES, K_FLAT };

struct t_cont {
    enum t_kind kind;
    const struct jp_node *node; /* K_NODE: the node; K_ARRAY, K_VALUES: the projection's right side */
    const struct jp_node *cond; /* K_ARRAY: a filter's condition */
    const struct t_cont *next;
};

static struct t_val *t_gen(struct t_gen *g, const struct jp_node *n, const struct t_cont *k);

/* Two generated inputs for the same node: objects are merged, else one is picked. */
static struct t_val *t_merge(struct t_gen *g, struct t_val *a, struct t_val *b) {
    if (a->type == ANVIL_JSON_OBJECT && b->type == ANVIL_JSON_OBJECT) {
        for (size_t i = 0; i < b->n; i++) {
            bool present = false;
            for (size_t j = 0; j < a->n && !present; j++) {
                present = a->key_lens[j] == b->key_lens[i] && memcmp(a->keys[j], b->keys[i], b->key_lens[i]) == 0;
            }
            if (!present) {
                t_push(g, a, b->keys[i], b->key_lens[i], b->items[i]);
            }
        }
        return a;
    }
    return s_chance(50) ? a : b;
}

/* A value for the continuation: what a node's output should be so that what comes after has work to do. */
static struct t_val *t_cont_value(struct t_gen *g, const struct t_cont *k) {
    if (!k || g->depth > 12) {
        return t_leaf(g);
    }
    g->depth++;
    struct t_val *v;
    switch (k->kind) {
    case K_NODE:
        v = t_gen(g, k->node, k->next);
        break;
    case K_ARRAY:
    case K_VALUES: {
        if (s_chance(6)) {
            v = t_leaf(g); /* not an array (or object) at all */
            break;
        }
        v = t_new(g, k->kind == K_ARRAY ? ANVIL_JSON_ARRAY : ANVIL_JSON_OBJECT);
        unsigned count = s_chance(10) ? 0 : s_chance(35) ? 1 : 2 + s_below(2);
        for (unsigned i = 0; i < count; i++) {
            struct t_val *item = t_gen(g, k->node, k->next);
            if (k->cond) {
                item = t_merge(g, item, t_gen(g, k->cond, NULL));
            }
            static const char *const keys[] = {"k0", "k1", "k2", "k3"};
            t_push(g, v, keys[i % 4], 2, item);
        }
        break;
    }
    case K_FLAT:
        v = t_cont_value(g, k->next);
        if (v->type == ANVIL_JSON_ARRAY && v->n > 1 && s_chance(50)) {
            /* Some items grouped into a nested array, which the flatten undoes. */
            struct t_val *group = t_new(g, ANVIL_JSON_ARRAY);
            t_push(g, group, NULL, 0, v->items[v->n - 1]);
            t_push(g, group, NULL, 0, v->items[v->n - 2]);
            v->n -= 2;
            t_push(g, v, NULL, 0, group);
        }
        break;
    default:
        v = t_leaf(g);
        break;
    }
    g->depth--;
    return v;
}

/* An input for node `n` whose output feeds `k`, with random mutations along the way. */
static struct t_val *t_gen(struct t_gen *g, const struct jp_node *n, const struct t_cont *k) {
    if (g->depth > 12) {
        return t_leaf(g);
    }
    struct t_val *v;
    switch (n->type) {
    case JP_N_IDENTITY:
    case JP_N_CURRENT:
        return t_cont_value(g, k);
    case JP_N_FIELD:
        if (s_chance(6)) {
            return t_leaf(g); /* the wrong type: not an object */
        }
        v = t_new(g, ANVIL_JSON_OBJECT);
        if (!s_chance(8)) {
            t_push(g, v, n->name.ptr, n->name.len, s_chance(5) ? t_new(g, ANVIL_JSON_NULL) : t_cont_value(g, k));
        }
        if (s_chance(20) && g->name_count) {
            size_t i = s_below((unsigned)g->name_count);
            t_push(g, v, g->names[i], g->name_lens[i], t_leaf(g));
        }
        return v;
    case JP_N_SUBEXPR:
    case JP_N_INDEX_EXPR:
    case JP_N_PIPE: {
        /* children[1..] then k, as a chain of continuations (at most 64 deep here). */
        struct t_cont chain[64];
        size_t count = n->count < 65 ? n->count : 65;
        const struct t_cont *next = k;
        for (size_t i = count - 1; i >= 1; i--) {
            chain[i - 1] = (struct t_cont){K_NODE, n->children[i], NULL, next};
            next = &chain[i - 1];
        }
        return t_gen(g, n->children[0], next);
    }
    case JP_N_INDEX: {
        v = t_new(g, ANVIL_JSON_ARRAY);
        int64_t want = n->index < -6 || n->index > 6 ? 7 : n->index < 0 ? -n->index : n->index + 1;
        size_t len = want > 6 ? (size_t)s_below(6) : (size_t)want + s_below(3) - (s_chance(10) ? 1 : 0);
        size_t at = want > 6 ? SIZE_MAX : n->index < 0 ? len - (size_t)want : (size_t)n->index;
        for (size_t i = 0; i < len; i++) {
            t_push(g, v, NULL, 0, i == at ? t_cont_value(g, k) : t_leaf(g));
        }
        return v;
    }
    case JP_N_SLICE:
        return t_cont_value(g, k);
    case JP_N_PROJECTION:
    case JP_N_FILTER_PROJECTION: {
        struct t_cont each = {K_ARRAY, n->children[1], n->type == JP_N_FILTER_PROJECTION ? n->children[2] : NULL, k};
        return t_gen(g, n->children[0], &each);
    }
    case JP_N_VALUE_PROJECTION: {
        struct t_cont each = {K_VALUES, n->children[1], NULL, k};
        return t_gen(g, n->children[0], &each);
    }
    case JP_N_FLATTEN: {
        struct t_cont flat = {K_FLAT, NULL, NULL, k};
        return t_gen(g, n->children[0], &flat);
    }
    case JP_N_EXPREF:
        return t_gen(g, n->children[0], NULL);
    default:
        if (n->type == JP_N_FUNCTION && n->count > 1 && n->children[0]->type == JP_N_EXPREF) {
            /* map(&e, array): the array's items feed the expression */
            struct t_cont each = {K_ARRAY, n->children[0]->children[0], NULL, NULL};
            return t_gen(g, n->children[1], &each);
        }
        if (n->type == JP_N_FUNCTION && n->count > 1 && n->children[1]->type == JP_N_EXPREF) {
            /* sort_by(array, &e) and the like */
            struct t_cont each = {K_ARRAY, n->children[1]->children[0], NULL, NULL};
            return t_gen(g, n->children[0], &each);
        }
        /* Anything else: the operands share the input. */
        if (n->count == 0) {
            return t_leaf(g);
        }
        v = t_gen(g, n->children[0], NULL);
        for (size_t i = 1; i < n->count; i++) {
            v = t_merge(g, v, t_gen(g, n->children[i], NULL));
        }
        return v;
    }
}

/* Randomly damages a document: members dropped or nulled, wrong types, arrays emptied or cut to one item. */
static struct t_val *t_mutate(struct t_gen *g, struct t_val *v, unsigned rate) {
    if (s_chance(rate)) {
        switch (s_below(5)) {
        case 0:
            return t_new(g, ANVIL_JSON_NULL);
        case 1:
            return t_leaf(g);
        case 2:
            if (v->type == ANVIL_JSON_ARRAY || v->type == ANVIL_JSON_OBJECT) {
                struct t_val *empty = t_new(g, v->type);
                return empty;
            }
            break;
        case 3:
            if (v->type == ANVIL_JSON_ARRAY && v->n > 1) {
                struct t_val *one = t_new(g, ANVIL_JSON_ARRAY);
                t_push(g, one, NULL, 0, v->items[s_below((unsigned)v->n)]);
                return one;
            }
            break;
        default: {
            struct t_val *wrapped = t_new(g, ANVIL_JSON_ARRAY);
            t_push(g, wrapped, NULL, 0, v);
            return wrapped;
        }
        }
    }
    if (v->type == ANVIL_JSON_ARRAY || v->type == ANVIL_JSON_OBJECT) {
        struct t_val *copy = t_new(g, v->type);
        for (size_t i = 0; i < v->n; i++) {
            if (v->type == ANVIL_JSON_OBJECT && s_chance(rate / 2)) {
                continue; /* a member dropped */
            }
            t_push(g, copy, v->keys[i], v->key_lens[i], t_mutate(g, v->items[i], rate));
        }
        return copy;
    }
    return v;
}

/* Strings and names the expression mentions, for the generator's pools. */
static void s_collect_words(struct t_gen *g, const struct jp_node *n, size_t *strings_cap, size_t *names_cap) {
    if (n->type == JP_N_FIELD && g->name_count < *names_cap) {
        g->names[g->name_count] = n->name.ptr;
        g->name_lens[g->name_count++] = n->name.len;
    }
    if (n->type == JP_N_LITERAL && anvil_json_is_string(&n->literal) && g->string_count < *strings_cap) {
        g->strings[g->string_count] = anvil_json_string_ptr(&n->literal);
        g->string_lens[g->string_count++] = anvil_json_len(&n->literal);
    }
    if (n->type == JP_N_MULTI_HASH) {
        for (size_t i = 0; i < n->count && g->name_count < *names_cap; i++) {
            g->names[g->name_count] = n->keys[i]->bytes;
            g->name_lens[g->name_count++] = n->keys[i]->len;
        }
    }
    for (size_t i = 0; i < n->count; i++) {
        s_collect_words(g, n->children[i], strings_cap, names_cap);
    }
}

#define S_POOL 64

struct s_pools {
    const char *strings[S_POOL];
    size_t string_lens[S_POOL];
    const char *names[S_POOL];
    size_t name_lens[S_POOL];
};

static void s_gen_init(struct t_gen *g, struct s_pools *p, struct anvil_arena *arena, const struct anvil_jmespath *expr,
                       const struct anvil_json *expected) {
    memset(g, 0, sizeof(*g));
    g->arena = arena;
    g->strings = p->strings;
    g->string_lens = p->string_lens;
    g->names = p->names;
    g->name_lens = p->name_lens;
    size_t strings_cap = S_POOL, names_cap = S_POOL;
    if (expected && anvil_json_is_string(expected)) {
        g->strings[g->string_count] = anvil_json_string_ptr(expected);
        g->string_lens[g->string_count++] = anvil_json_len(expected);
    }
    s_collect_words(g, expr->root, &strings_cap, &names_cap);
}

static struct anvil_json_doc *s_doc(const struct t_val *v) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    t_write(v, &text);
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    if (anvil_json_parse(NULL, text.data, text.len, NULL, &doc, &diag) != ANVIL_OK) {
        fprintf(stderr, "test_jpc: generated a document that does not parse (%s): %.*s\n", diag.message, (int)text.len,
                text.data);
        exit(1);
    }
    anvil_buf_clean_up(&text);
    s_documents++;
    return doc;
}

/* ---- comparing ---- */

static void s_print_json(const char *label, const struct anvil_json *v) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    anvil_json_write(v, 0, &text);
    printf("  %s %.*s\n", label, (int)(text.len > 2000 ? 2000 : text.len), text.data ? text.data : "");
    anvil_buf_clean_up(&text);
}

static bool s_same_json(const struct anvil_json *a, const struct anvil_json *b) {
    if (!anvil_json_equal(a, b)) {
        return false;
    }
    struct anvil_buf ta, tb;
    anvil_buf_init(&ta, NULL, 0);
    anvil_buf_init(&tb, NULL, 0);
    anvil_json_write(a, 0, &ta);
    anvil_json_write(b, 0, &tb);
    bool same = ta.len == tb.len && (ta.len == 0 || memcmp(ta.data, tb.data, ta.len) == 0);
    anvil_buf_clean_up(&ta);
    anvil_buf_clean_up(&tb);
    return same;
}

static struct anvil_arena *s_interp_arena, *s_compiled_arena;

/* Compiled vs interpreted on one document; counts and shows a difference. */
static const size_t s_limits[] = {200, 600, 2000, 6000};

static void s_check_value(const struct jpc_expr_case *c, const struct anvil_jmespath *expr,
                          const struct anvil_json *doc, const char *where, bool limited) {
    anvil_arena_reset(s_interp_arena);
    anvil_arena_reset(s_compiled_arena);
    struct anvil_json want = anvil_json_make_null(), got = anvil_json_make_null();
    int want_rc = anvil_jmespath_search(expr, doc, s_interp_arena, &want, NULL);
    int got_rc = c->fn(doc, s_compiled_arena, &got);
    s_evaluations++;
    s_error_results += want_rc != ANVIL_OK;
    bool same = want_rc == got_rc && (want_rc != ANVIL_OK || s_same_json(&want, &got));
    /* With little scratch memory the compiled code must run out cleanly (ANVIL_ELIMIT) or give the same. */
    for (size_t i = 0; same && limited && i < sizeof(s_limits) / sizeof(s_limits[0]); i++) {
        struct anvil_arena_options options = {128, s_limits[i]};
        struct anvil_arena *small;
        anvil_arena_new(NULL, &options, &small);
        got = anvil_json_make_null();
        got_rc = c->fn(doc, small, &got);
        s_limited_runs++;
        s_limit_hits += got_rc == ANVIL_ELIMIT;
        same = got_rc == ANVIL_ELIMIT || (got_rc == want_rc && (want_rc != ANVIL_OK || s_same_json(&want, &got)));
        if (!same) {
            printf("with a scratch arena of %zu bytes:\n", s_limits[i]);
        }
        anvil_arena_destroy(small);
    }
    if (same) {
        return;
    }
    if (++s_differences <= 25) {
        printf("DIFFERENCE %s: %.*s\n", where, (int)c->len, c->text);
        s_print_json("document   ", doc);
        printf("  interpreter %s\n", anvil_status_str(want_rc));
        if (want_rc == ANVIL_OK) {
            s_print_json("           ", &want);
        }
        printf("  compiled    %s\n", anvil_status_str(got_rc));
        if (got_rc == ANVIL_OK) {
            s_print_json("           ", &got);
        }
    }
}

static const struct jpc_expr_case *s_find_expr(struct anvil_str_view text) {
    for (size_t i = 0; i < jpc_expr_case_count; i++) {
        if (jpc_expr_cases[i].len == text.len && memcmp(jpc_expr_cases[i].text, text.ptr, text.len) == 0) {
            return &jpc_expr_cases[i];
        }
    }
    return NULL;
}

/* The compliance documents, kept for the generated ones. */
static struct anvil_json_doc *s_files[64];
static size_t s_file_count;

static void s_compliance_file(const char *path, void *user) {
    (void)user;
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_json_doc *doc = NULL;
    if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, NULL) != ANVIL_OK || s_file_count == 64) {
        fprintf(stderr, "test_jpc: cannot read %s\n", path);
        exit(1);
    }
    free(text);
    s_files[s_file_count++] = doc;
    const struct anvil_json *suites = anvil_json_doc_root(doc);
    for (size_t s = 0; s < anvil_json_len(suites); s++) {
        const struct anvil_json *given = anvil_json_object_get_cstr(anvil_json_array_at(suites, s), "given");
        const struct anvil_json *cases = anvil_json_object_get_cstr(anvil_json_array_at(suites, s), "cases");
        for (size_t i = 0; i < anvil_json_len(cases); i++) {
            struct anvil_str_view text_sv =
                anvil_json_string(anvil_json_object_get_cstr(anvil_json_array_at(cases, i), "expression"));
            const struct jpc_expr_case *c = s_find_expr(text_sv);
            if (!c || !c->fn) {
                continue; /* a syntax error (nothing to compile), or a fallback (reported) */
            }
            struct anvil_jmespath *expr = NULL;
            anvil_jmespath_compile(NULL, text_sv.ptr, text_sv.len, NULL, &expr, NULL);
            s_check_value(c, expr, given, path, true);
            anvil_jmespath_destroy(expr);
        }
    }
}

/* Every compiled expression on mutated compliance documents and on documents grown from its shape. */
static void s_generated_documents(void) {
    struct anvil_arena *arena;
    anvil_arena_new(NULL, NULL, &arena);
    for (size_t i = 0; i < jpc_expr_case_count; i++) {
        const struct jpc_expr_case *c = &jpc_expr_cases[i];
        if (!c->fn) {
            continue;
        }
        struct anvil_jmespath *expr = NULL;
        anvil_jmespath_compile(NULL, c->text, c->len, NULL, &expr, NULL);
        s_rng = s_seed ^ (i * UINT64_C(0x100000001b3));
        for (size_t d = 0; d < s_docs_per_case; d++) {
            anvil_arena_reset(arena);
            struct s_pools pools;
            struct t_gen g;
            s_gen_init(&g, &pools, arena, expr, NULL);
            struct t_val *v;
            if (d % 3 == 0 && s_file_count) {
                const struct anvil_json *suites = anvil_json_doc_root(s_files[s_below((unsigned)s_file_count)]);
                const struct anvil_json *given = anvil_json_object_get_cstr(
                    anvil_json_array_at(suites, s_below((unsigned)anvil_json_len(suites))), "given");
                v = t_mutate(&g, t_from_json(&g, given), 15);
            } else {
                v = t_gen(&g, expr->root, NULL);
            }
            struct anvil_json_doc *doc = s_doc(v);
            s_check_value(c, expr, anvil_json_doc_root(doc), "generated document", d < 3);
            anvil_json_doc_destroy(doc);
        }
        anvil_jmespath_destroy(expr);
    }
    anvil_arena_destroy(arena);
}

/* ---- matchers ---- */

/* What the waiter runtime decides for one acceptor (path, comparator, expected) on `doc`. */
static int s_runtime_match(const struct anvil_jmespath *path, enum anvil_waiter_comparator cmp,
                           const struct anvil_json *expected, const struct anvil_json *doc, bool *matched) {
    struct anvil_waiter_acceptor acceptor;
    memset(&acceptor, 0, sizeof(acceptor));
    acceptor.state = ANVIL_WAITER_SUCCESS;
    acceptor.matcher = ANVIL_MATCH_OUTPUT;
    acceptor.path = path;
    acceptor.comparator = cmp;
    acceptor.expected = *expected;
    struct anvil_waiter waiter;
    memset(&waiter, 0, sizeof(waiter));
    waiter.acceptors = &acceptor;
    waiter.acceptor_count = 1;
    struct anvil__wait_result result = {true, doc, NULL, 200};
    int which = -1;
    int rc = anvil__waiter_match(&waiter, NULL, &result, s_interp_arena, &which);
    *matched = which == 0;
    return rc;
}

static size_t s_matches_true;

static void s_check_match(const struct jpc_match_case *c, const struct anvil_jmespath *path,
                          const struct anvil_json *expected, const struct anvil_json *doc, bool limited) {
    anvil_arena_reset(s_interp_arena);
    anvil_arena_reset(s_compiled_arena);
    bool want = false, got = true;
    int want_rc = s_runtime_match(path, (enum anvil_waiter_comparator)c->comparator, expected, doc, &want);
    int got_rc = c->fn(doc, s_compiled_arena, &got);
    s_evaluations++;
    s_matches_true += want;
    bool same = want_rc == got_rc && want == got;
    for (size_t i = 0; same && limited && i < sizeof(s_limits) / sizeof(s_limits[0]); i++) {
        struct anvil_arena_options options = {128, s_limits[i]};
        struct anvil_arena *small;
        anvil_arena_new(NULL, &options, &small);
        got = !want;
        got_rc = c->fn(doc, small, &got);
        s_limited_runs++;
        s_limit_hits += got_rc == ANVIL_ELIMIT;
        same = got_rc == ANVIL_ELIMIT || (got_rc == want_rc && got == want);
        if (!same) {
            printf("with a scratch arena of %zu bytes:\n", s_limits[i]);
        }
        anvil_arena_destroy(small);
    }
    if (same) {
        return;
    }
    if (++s_differences <= 25) {
        printf("DIFFERENCE matcher %.*s (%s %.*s) from %s\n", (int)c->path_len, c->path,
               anvil_waiter_comparator_name((enum anvil_waiter_comparator)c->comparator), (int)c->expected_len,
               c->expected, c->origin);
        s_print_json("document   ", doc);
        printf("  runtime  %s %s\n  compiled %s %s\n", anvil_status_str(want_rc), want ? "match" : "no match",
               anvil_status_str(got_rc), got ? "match" : "no match");
    }
}

static void s_matchers(void) {
    struct anvil_arena *arena;
    anvil_arena_new(NULL, NULL, &arena);
    for (size_t i = 0; i < jpc_match_case_count; i++) {
        const struct jpc_match_case *c = &jpc_match_cases[i];
        if (!c->fn) {
            continue;
        }
        struct anvil_jmespath *path = NULL;
        struct anvil_json_doc *expected = NULL;
        anvil_jmespath_compile(NULL, c->path, c->path_len, NULL, &path, NULL);
        anvil_json_parse(NULL, c->expected, c->expected_len, NULL, &expected, NULL);
        const struct anvil_json *exp = anvil_json_doc_root(expected);
        s_rng = s_seed ^ (i * UINT64_C(0x9e3779b97f4a7c15)) ^ 0x5a5a;
        /* The same value under the path as a document of its own: a plain and a generated one. */
        for (size_t d = 0; d < 4 * s_docs_per_case; d++) {
            anvil_arena_reset(arena);
            struct s_pools pools;
            struct t_gen g;
            s_gen_init(&g, &pools, arena, path, exp);
            struct t_val *v = t_gen(&g, path->root, NULL);
            if (d % 4 == 3) {
                v = t_mutate(&g, v, 10);
            }
            struct anvil_json_doc *doc = s_doc(v);
            s_check_match(c, path, exp, anvil_json_doc_root(doc), d < 8);
            anvil_json_doc_destroy(doc);
        }
        /* And the compliance documents, as they are. */
        for (size_t f = 0; f < s_file_count; f++) {
            const struct anvil_json *suites = anvil_json_doc_root(s_files[f]);
            for (size_t s = 0; s < anvil_json_len(suites); s++) {
                s_check_match(c, path, exp, anvil_json_object_get_cstr(anvil_json_array_at(suites, s), "given"), false);
            }
        }
        anvil_json_doc_destroy(expected);
        anvil_jmespath_destroy(path);
    }
    anvil_arena_destroy(arena);
}

/*
 * A loop's lookups keep a hint: the tag of the object the key was found in
 * and the member's place, tried with one tag compare and one key-record
 * compare. Instances whose shapes shift under the hint: the same tag with
 * another key at the place, the same key at the place in an object of
 * another size, a non-object where an object was (an array of as many
 * items), the key further on, a value that is not an object; each document
 * with every reachable name "running" (so the walk goes to the end) and
 * with one that is not. Every matcher of the table on these paths is run.
 */
static size_t s_hint_documents;

static void s_shifting_shapes(void) {
    static const char *const instances[] = {
        "{\"State\": {\"Name\": \"running\"}, \"X\": 1}",
        "{\"Other\": {\"Name\": \"stopped\"}, \"X\": 1}",
        "{\"X\": 1, \"State\": {\"Name\": \"running\"}}",
        "{\"State\": [\"stopped\", \"x\"], \"X\": 1}",
        "{\"State\": {\"Name\": \"running\", \"Code\": 16}, \"X\": 1}",
        "{\"State\": {\"Code\": 16, \"Name\": \"running\"}, \"X\": 1, \"Y\": 2}",
        "{\"State\": {\"Other\": \"stopped\", \"X\": 0}, \"X\": 1}",
        "[\"State\", \"Name\"]",
        "{\"State\": \"running\", \"X\": 1}",
        "{\"State\": {\"Name\": null}, \"X\": 1}",
        "{\"State\": {\"Name\": \"running\"}, \"X\": 1}",
        "{\"State\": {\"Name\": \"stopped\"}, \"X\": 1}",
        "{\"State\": {\"Name\": \"running\"}, \"X\": 1}",
    };
    const size_t n = sizeof instances / sizeof instances[0];
    const size_t stopped = n - 2; /* the one instance whose reachable name is not "running" */
    for (size_t i = 0; i < jpc_match_case_count; i++) {
        const struct jpc_match_case *c = &jpc_match_cases[i];
        static const char path[] = "Reservations[].Instances[].State.Name";
        if (!c->fn || c->path_len != sizeof path - 1 || memcmp(c->path, path, sizeof path - 1) != 0) {
            continue;
        }
        struct anvil_jmespath *jp = NULL;
        struct anvil_json_doc *expected = NULL;
        anvil_jmespath_compile(NULL, c->path, c->path_len, NULL, &jp, NULL);
        anvil_json_parse(NULL, c->expected, c->expected_len, NULL, &expected, NULL);
        /* Every instance, and every instance but `stopped` (all reachable names "running"); each in every
         * rotation of the list, so each shape comes first and sets the hints. */
        for (size_t skip = 0; skip < 2; skip++) {
            for (size_t first = 0; first < n; first++) {
                struct anvil_buf text;
                anvil_buf_init(&text, NULL, 0);
                anvil_buf_append_cstr(&text, "{\"Reservations\": [{\"Instances\": [");
                bool any = false;
                for (size_t k = 0; k < n; k++) {
                    size_t at = (first + k) % n;
                    if (skip && at == stopped) {
                        continue;
                    }
                    anvil_buf_append_cstr(&text, any ? ", " : "");
                    anvil_buf_append_cstr(&text, instances[at]);
                    any = true;
                }
                anvil_buf_append_cstr(&text, "]}, {\"Instances\": [");
                anvil_buf_append_cstr(&text, instances[(first + 1) % n]);
                anvil_buf_append_cstr(&text, "]}]}");
                struct anvil_json_doc *doc = NULL;
                if (anvil_json_parse(NULL, text.data, text.len, NULL, &doc, NULL) != ANVIL_OK) {
                    printf("DIFFERENCE: the shifting-shapes document does not parse: %.*s\n", (int)text.len, text.data);
                    s_differences++;
                } else {
                    s_check_match(c, jp, anvil_json_doc_root(expected), anvil_json_doc_root(doc), false);
                    s_hint_documents++;
                }
                anvil_json_doc_destroy(doc);
                anvil_buf_clean_up(&text);
            }
        }
        anvil_json_doc_destroy(expected);
        anvil_jmespath_destroy(jp);
    }
    if (s_hint_documents == 0) {
        printf("DIFFERENCE: no matcher on Reservations[].Instances[].State.Name in the table\n");
        s_differences++;
    }
}

/* ---- golden snippets of the emitted text ---- */

static bool s_golden(const char *text, bool matcher, enum anvil_waiter_comparator cmp, const char *expected_json,
                     const char *const *want, const char *const *unwanted) {
    struct anvil_jmespath *expr = NULL;
    struct anvil_json_doc *expected = NULL;
    anvil_jmespath_compile(NULL, text, strlen(text), NULL, &expr, NULL);
    if (expected_json) {
        anvil_json_parse(NULL, expected_json, strlen(expected_json), NULL, &expected, NULL);
    }
    struct anvil_buf helpers, out;
    anvil_buf_init(&helpers, NULL, 0);
    anvil_buf_init(&out, NULL, 0);
    struct anvil__jpc_options options = {"ddb"};
    struct anvil_diag diag;
    int rc = matcher ? anvil__jpc_emit_match(expr, cmp, anvil_json_doc_root(expected), "ddb_m", &options, &helpers,
                                             &out, &diag)
                     : anvil__jpc_emit(expr, "ddb_v", &options, &helpers, &out, &diag);
    bool ok = rc == ANVIL_OK;
    anvil_buf_append_byte(&out, '\0');
    anvil_buf_append_byte(&helpers, '\0');
    for (size_t i = 0; ok && want && want[i]; i++) {
        ok = strstr(out.data, want[i]) || strstr(helpers.data, want[i]);
        if (!ok) {
            printf("GOLDEN %s: missing `%s`\n", text, want[i]);
        }
    }
    for (size_t i = 0; ok && unwanted && unwanted[i]; i++) {
        ok = !strstr(out.data, unwanted[i]);
        if (!ok) {
            printf("GOLDEN %s: unexpected `%s`\n", text, unwanted[i]);
        }
    }
    if (!ok) {
        printf("--- emitted (rc %d) ---\n%s\n", rc, out.data);
    }
    anvil_buf_clean_up(&helpers);
    anvil_buf_clean_up(&out);
    anvil_json_doc_destroy(expected);
    anvil_jmespath_destroy(expr);
    return ok;
}

/* The same expression emitted twice (into fresh and into used buffers) gives the same text; helpers come once. */
static bool s_deterministic(const char *text) {
    struct anvil_jmespath *expr = NULL;
    anvil_jmespath_compile(NULL, text, strlen(text), NULL, &expr, NULL);
    struct anvil_buf helpers[2], out[2];
    struct anvil__jpc_options options = {"p_"};
    int rc = ANVIL_OK;
    for (int i = 0; i < 2; i++) {
        anvil_buf_init(&helpers[i], NULL, 0);
        anvil_buf_init(&out[i], NULL, 0);
        rc = rc == ANVIL_OK ? anvil__jpc_emit(expr, "p_v", &options, &helpers[i], &out[i], NULL) : rc;
    }
    size_t helpers_len = helpers[1].len, out_len = out[1].len;
    rc = rc == ANVIL_OK ? anvil__jpc_emit(expr, "p_w", &options, &helpers[1], &out[1], NULL) : rc;
    bool ok = rc == ANVIL_OK && helpers[0].len == helpers_len && out[0].len == out_len &&
              memcmp(helpers[0].data, helpers[1].data, helpers_len) == 0 &&
              memcmp(out[0].data, out[1].data, out_len) == 0 && helpers[1].len == helpers_len;
    if (!ok) {
        printf("GOLDEN %s: not deterministic, or helpers emitted twice\n", text);
    }
    for (int i = 0; i < 2; i++) {
        anvil_buf_clean_up(&helpers[i]);
        anvil_buf_clean_up(&out[i]);
    }
    anvil_jmespath_destroy(expr);
    return ok;
}

static size_t s_golden_failures(void) {
    size_t failures = 0;
    /* A path is two lookups (each first where the last call found its key) and a string test: no
     * branch, no allocation; a string of up to 7 bytes is compared as one constant word. */
    static const char *const table_want[] = {
        "/* Table.TableStatus (stringEquals \"ACTIVE\") */",
        "static atomic_size_t last_table;",
        "static atomic_size_t last_table_status;",
        "const struct anvil_json *v_table = ddb_jpc_get_remembered(root, \"Table\", 5, &last_table);",
        "const struct anvil_json *v_table_status = ddb_jpc_get_remembered(v_table, \"TableStatus\", 11, "
        "&last_table_status);",
        "const uint64_t word_active = ANVIL_JSON_WORD('A', 'C', 'T', 'I', 'V', 'E', 0);",
        "*matched = anvil_json_string_equals_word(v_table_status, \"ACTIVE\", 6, word_active);",
        "static inline const struct anvil_json *ddb_jpc_get(",
        "#include <stdatomic.h>",
        "(void)scratch;",
        NULL};
    static const char *const no_alloc[] = {"list_push", "anvil_json_new", "rc =", NULL};
    static const char *const table_unwanted[] = {"list_push", "anvil_json_new", "rc =", "jpc_str_is", NULL};
    failures += !s_golden("Table.TableStatus", true, ANVIL_CMP_STRING_EQUALS, "\"ACTIVE\"", table_want, table_unwanted);
    /* allStringEquals over a nested projection: the first mismatch jumps past the loops (which test no
     * flag), an element's test comes before its null test; a lookup in a loop tries its hint inline
     * first, and a chain of them (State.Name) has one out-of-line fallback that takes copies of the
     * hints; a flatten walks items by pointer. */
    static const char *const all_want[] = {
        "for (size_t j_instance = 0; j_instance < n_instance; j_instance++) {",
        "if (anvil_json_string_equals_word(v_name, \"running\", 7, word_running)) {\n"
        "                            any_element = true;\n"
        "                        } else {\n"
        "                            if (!anvil_json_is_null(v_name)) {\n"
        "                                mismatch = true;\n"
        "                                goto decided;\n"
        "                            }\n"
        "                        }",
        "\ndecided:;\n    *matched = any_element && !mismatch;",
        "const struct anvil_json *v_state = ddb_jpc_hinted(v_instance, hint_state);\n"
        "                        const struct anvil_json *v_name = ddb_jpc_hinted(v_state, hint_name);\n"
        "                        if (!v_name) {\n"
        "                            static const struct ddb_jpc_key keys[] = {{\"State\", 5, &last_state},\n"
        "                                                                      {\"Name\", 4, &last_name}};\n"
        "                            struct ddb_jpc_hint hints[] = {hint_state, hint_name};\n"
        "                            const struct anvil_json *steps[2];\n"
        "                            v_name = ddb_jpc_get_chain(v_instance, keys, 2, hints, steps);\n"
        "                            v_state = steps[0];\n"
        "                            hint_state = hints[0];\n"
        "                            hint_name = hints[1];\n"
        "                        }",
        "    __attribute__((noinline));",
        "struct ddb_jpc_hint hint_state = {UINT64_MAX, 0, NULL};",
        "    if (v && v->tag == hint.tag) {\n",
        "(const struct anvil_json_member *)(const void *)((const char *)v->u.members + hint.offset);\n"
        "        if (m->key == hint.key) {\n",
        "        hint->offset = (size_t)(member - (const char *)v->u.members);\n",
        "        hint->tag = v->tag;\n",
        "const struct anvil_json *items_instance = ddb_jpc_flat(v_instances, "
        "&n_instance);",
        "const struct anvil_json *v_instance = &items_instance[j_instance];",
        NULL};
    static const char *const all_unwanted[] = {"!mismatch; ", "list_push", "anvil_json_new", "rc =", NULL};
    failures += !s_golden("Reservations[].Instances[].State.Name", true, ANVIL_CMP_ALL_STRING_EQUALS, "\"running\"",
                          all_want, all_unwanted);
    /* The autoscaling expression: the multi-select list is flattened without being made. */
    static const char *const asg_want[] = {"found_", "is_array_", NULL};
    failures += !s_golden("contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='InService']) >= "
                          "MinSize][], `false`)",
                          true, ANVIL_CMP_BOOLEAN_EQUALS, "true", asg_want, no_alloc);
    /* length() of a filter counts; `== 0` is an integer comparison with a literal. The filter can fail
     * (length(deployments)), so the count runs to the end. */
    static const char *const len_want[] = {"n_", "lit_0 = anvil_json_make_int(0);",
                                           "ddb_jpc_equal(v_running_count, v_desired_count)", NULL};
    static const char *const len_unwanted[] = {"list_push", "anvil_json_new", "rc =", "(n_filtered > 0)", NULL};
    failures += !s_golden("length(services[?!(length(deployments) == `1` && runningCount == desiredCount)]) == `0`",
                          true, ANVIL_CMP_BOOLEAN_EQUALS, "true", len_want, len_unwanted);
    /* A count compared with an integer stops once it passes it, when nothing after can fail: a jump past
     * the loops, from the element that passes it. */
    static const char *const stop_want[] = {"/* Compared with 0: decided once there are more. */",
                                            "n_filtered++;\n"
                                            "                                    if (n_filtered > 0) {\n"
                                            "                                        goto counted;\n",
                                            "\ncounted:;\n", NULL};
    failures += !s_golden("length(Reservations[].Instances[?State.Name != 'running'][]) == `0`", true,
                          ANVIL_CMP_BOOLEAN_EQUALS, "true", stop_want, NULL);
    /* Conditions without redundant parentheses: an ordering's type tests and compare one chain, a chain of `||` one
     * chain, `if (...)` and `make_bool(...)` without a second pair. */
    static const char *const cond_want[] = {
        "if (anvil_json_is_number(v_age) && anvil_json_compare(v_age, &lit_20) > 0) {",
        "if (anvil_json_string_equals_word(v_a, \"x\", 1, word_x) ||\n"
        "                anvil_json_string_equals_word(v_a, \"y\", 1, word_y) ||\n",
        NULL};
    static const char *const cond_unwanted[] = {"if ((anvil_json", "((anvil_json_string_equals_word", NULL};
    failures += !s_golden("people[?age > `20`].name | [?a == 'x' || a == 'y' || a == 'z']", false, ANVIL_CMP_EQUALS,
                          NULL, cond_want, cond_unwanted);
    static const char *const bool_want[] = {"anvil_json_make_bool(anvil_json_compare(v_a, v_b) < 0)", NULL};
    static const char *const bool_unwanted[] = {"make_bool((", NULL};
    failures += !s_golden("a < b", false, ANVIL_CMP_EQUALS, NULL, bool_want, bool_unwanted);
    /* A value function: the expression in a comment (a closing comment escaped), strings C-escaped. */
    static const char *const esc_want[] = {"/* foo[?a == '* /'].\"b\\u0000\" */",
                                           "ddb_jpc_get_hinted(v_foo_item, \"b\\000\", 2, &hint_b, &last_b)",
                                           "ddb_jpc_list_push(scratch", NULL};
    failures += !s_golden("foo[?a == '*/'].\"b\\u0000\"", false, ANVIL_CMP_EQUALS, NULL, esc_want, NULL);
    /* sort_by: the &expression is a function of its own, written before the caller. */
    static const char *const sort_want[] = {"static int ddb_v_expr1(const struct anvil_json *current",
                                            "ddb_jpc_sort(scratch, v_people, ddb_v_expr1, &t_sort_by)",
                                            "const struct anvil_json *v_age = ddb_jpc_get(current, \"age\", 3);", NULL};
    /* The &expression runs once per element: a plain lookup, no guess shared across its calls. */
    static const char *const sort_unwanted[] = {"last_age", NULL};
    failures += !s_golden("sort_by(people, &age)", false, ANVIL_CMP_EQUALS, NULL, sort_want, sort_unwanted);
    /* contains() with a literal string needs only its own helper: one left unused fails -Werror. */
    static const char *const contains_want[] = {"static bool ddb_jpc_contains_str(", "static bool ddb_jpc_has_bytes(",
                                                NULL};
    static const char *const contains_unwanted[] = {"static bool ddb_jpc_contains(", NULL};
    failures += !s_golden("contains(a, 'x')", true, ANVIL_CMP_BOOLEAN_EQUALS, "true", contains_want, contains_unwanted);
    /* A local nothing reads (evaluated for its errors only) is marked `(void)NAME;`: names inside string
     * literals and comments are not uses, and a local read again is not marked. */
    static const char *const unused_want[] = {
        "const struct anvil_json *v_b = ddb_jpc_get_remembered(v_a, \"b\", 1, &last_b);\n    (void)v_b;\n", NULL};
    static const char *const unused_unwanted[] = {"(void)v_a;", "(void)scratch;", NULL};
    failures += !s_golden("a.b | `\"v_a v_b /* v_b\"`", false, ANVIL_CMP_EQUALS, NULL, unused_want, unused_unwanted);
    static const char *const used_unwanted[] = {"(void)v_a;", "(void)v_b;", NULL};
    failures += !s_golden("a.b | [@, `\"v_a\"`]", false, ANVIL_CMP_EQUALS, NULL, NULL, used_unwanted);
    static const char *const scratch_want[] = {"(void)scratch;\n", "(void)v_a;\n", NULL};
    failures += !s_golden("a | `1`", false, ANVIL_CMP_EQUALS, NULL, scratch_want, NULL);
    failures += !s_deterministic("a[?b > `1`].{c: c, d: sort_by(d, &e)} || [`[1, \"x\"]`, 'y', abs(f)]");
    return failures;
}

/* ---- timing ---- */

static double s_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void s_bench(void) {
    static const char *const paths[] = {"Table.TableStatus", "Reservations[].Instances[].State.Name",
                                        "length(services[?!(length(deployments) == `1` && runningCount == "
                                        "desiredCount)]) == `0`",
                                        "contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='InService']) "
                                        ">= MinSize][], `false`)"};
    static const char *const docs[] = {
        "{\"Table\":{\"TableName\":\"t\",\"TableStatus\":\"ACTIVE\",\"ItemCount\":3}}",
        "{\"Reservations\":[{\"Instances\":[{\"State\":{\"Name\":\"running\"}},{\"State\":{\"Name\":\"running\"}}]},"
        "{\"Instances\":[{\"State\":{\"Name\":\"running\"}},{\"State\":{\"Name\":\"pending\"}}]}]}",
        "{\"services\":[{\"deployments\":[{}],\"runningCount\":2,\"desiredCount\":2},"
        "{\"deployments\":[{},{}],\"runningCount\":1,\"desiredCount\":2}]}",
        "{\"AutoScalingGroups\":[{\"MinSize\":2,\"Instances\":[{\"LifecycleState\":\"InService\"},"
        "{\"LifecycleState\":\"InService\"}]},{\"MinSize\":1,\"Instances\":[{\"LifecycleState\":\"Pending\"}]}]}"};
    for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
        const struct jpc_match_case *c = NULL;
        for (size_t i = 0; i < jpc_match_case_count && !c; i++) {
            if (strlen(paths[p]) == jpc_match_cases[i].path_len &&
                memcmp(paths[p], jpc_match_cases[i].path, jpc_match_cases[i].path_len) == 0 && jpc_match_cases[i].fn) {
                c = &jpc_match_cases[i];
            }
        }
        if (!c) {
            continue;
        }
        struct anvil_jmespath *path = NULL;
        struct anvil_json_doc *doc = NULL, *expected = NULL;
        anvil_jmespath_compile(NULL, c->path, c->path_len, NULL, &path, NULL);
        anvil_json_parse(NULL, docs[p], strlen(docs[p]), NULL, &doc, NULL);
        anvil_json_parse(NULL, c->expected, c->expected_len, NULL, &expected, NULL);
        const size_t rounds = 200000;
        bool m = false;
        double t0 = s_now();
        for (size_t r = 0; r < rounds; r++) {
            anvil_arena_reset(s_interp_arena);
            s_runtime_match(path, (enum anvil_waiter_comparator)c->comparator, anvil_json_doc_root(expected),
                            anvil_json_doc_root(doc), &m);
        }
        double t1 = s_now();
        for (size_t r = 0; r < rounds; r++) {
            anvil_arena_reset(s_compiled_arena);
            c->fn(anvil_json_doc_root(doc), s_compiled_arena, &m);
        }
        double t2 = s_now();
        for (size_t r = 0; r < rounds; r++) {
            anvil_arena_reset(s_compiled_arena); /* the loops' own cost, taken off both */
        }
        double t3 = s_now();
        double base = t3 - t2, interpreted = t1 - t0 - base, compiled = t2 - t1 - base;
        printf("bench %-60.60s interpreted %7.1f ns, compiled %6.1f ns, %5.1fx\n", c->path,
               interpreted / (double)rounds * 1e9, compiled / (double)rounds * 1e9, interpreted / compiled);
        anvil_json_doc_destroy(doc);
        anvil_json_doc_destroy(expected);
        anvil_jmespath_destroy(path);
    }
}

int main(int argc, char **argv) {
    bool bench = false;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            s_seed = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--docs") == 0 && i + 1 < argc) {
            s_docs_per_case = (size_t)strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--bench") == 0) {
            bench = true;
        } else if (!dir) {
            dir = argv[i];
        } else {
            dir = NULL;
            break;
        }
    }
    if (!dir) {
        fprintf(stderr, "usage: %s COMPLIANCE_DIR [--seed N] [--docs N] [--bench]\n", argv[0]);
        return 2;
    }
    anvil_arena_new(NULL, NULL, &s_interp_arena);
    anvil_arena_new(NULL, NULL, &s_compiled_arena);
    size_t golden = s_golden_failures();
    anvil_test_walk(dir, ".json", s_compliance_file, NULL);
    size_t compliance_evaluations = s_evaluations;
    s_generated_documents();
    s_matchers();
    s_shifting_shapes();
    if (bench) {
        s_bench();
    }
    size_t fallbacks = 0;
    for (size_t i = 0; i < jpc_expr_case_count; i++) {
        if (!jpc_expr_cases[i].fn) {
            printf("fallback: %.*s: %s\n", (int)jpc_expr_cases[i].len, jpc_expr_cases[i].text,
                   jpc_expr_cases[i].fallback);
            fallbacks++;
        }
    }
    for (size_t i = 0; i < jpc_match_case_count; i++) {
        if (!jpc_match_cases[i].fn) {
            printf("fallback (matcher): %.*s: %s\n", (int)jpc_match_cases[i].path_len, jpc_match_cases[i].path,
                   jpc_match_cases[i].fallback);
            fallbacks++;
        }
    }
    printf("%zu compliance cases compared, %zu evaluations in all (%zu matcher decisions were matches); %zu runs "
           "with a small scratch arena, %zu of them out of memory (ANVIL_ELIMIT); %zu values were runtime errors\n",
           compliance_evaluations, s_evaluations, s_matches_true, s_limited_runs, s_limit_hits, s_error_results);
    printf("%zu documents of shifting shapes under a loop's hints\n", s_hint_documents);
    printf("%zu expressions (%zu fallbacks), %zu matchers, %zu documents, %zu differences, %zu golden failures\n",
           jpc_expr_case_count, fallbacks, jpc_match_case_count, s_documents, s_differences, golden);
    for (size_t i = 0; i < s_file_count; i++) {
        anvil_json_doc_destroy(s_files[i]);
    }
    anvil_arena_destroy(s_interp_arena);
    anvil_arena_destroy(s_compiled_arena);
    return s_differences == 0 && golden == 0 ? 0 : 1;
}
