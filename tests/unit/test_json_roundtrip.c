/* Round trips on generated documents: build -> write -> parse -> equal -> write -> same bytes. */

#include <math.h>

#include "harness.h"

static uint64_t s_draw(struct anvil_fake_env *fake, uint64_t below) {
    uint64_t v = 0;
    anvil_env_random_range(&fake->env, 0, below - 1, &v);
    return v;
}

/* A random code point, biased to the interesting ones: controls, quotes, non-ASCII, astral. */
static size_t s_random_utf8(struct anvil_fake_env *fake, char *out) {
    static const uint32_t specials[] = {0,     1,      0x1F,   '"',     '\\',     '/',  0x7F,   0x80,   0x7FF,
                                        0x800, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF, 0xE9, 0x20AC, 0x1F600};
    uint32_t cp;
    switch (s_draw(fake, 4)) {
    case 0:
        cp = specials[s_draw(fake, sizeof(specials) / sizeof(specials[0]))];
        break;
    case 1:
        cp = (uint32_t)s_draw(fake, 0x10FFFF);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 'x';
        }
        break;
    default:
        cp = (uint32_t)(' ' + s_draw(fake, 95));
    }
    unsigned char *p = (unsigned char *)out;
    if (cp < 0x80) {
        p[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        p[0] = (unsigned char)(0xC0 | (cp >> 6));
        p[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        p[0] = (unsigned char)(0xE0 | (cp >> 12));
        p[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        p[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    p[0] = (unsigned char)(0xF0 | (cp >> 18));
    p[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    p[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    p[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

static size_t s_random_string(struct anvil_fake_env *fake, char *out, size_t max_chars) {
    size_t n = 0, chars = s_draw(fake, max_chars + 1);
    for (size_t i = 0; i < chars; i++) {
        n += s_random_utf8(fake, out + n);
    }
    return n;
}

static void s_random_value(struct anvil_fake_env *fake, struct anvil_json_builder *b, int depth) {
    char text[4 * 40 + 1];
    uint64_t kind = s_draw(fake, depth >= 6 ? 6 : 8);
    switch (kind) {
    case 0:
        anvil_json_builder_null(b);
        break;
    case 1:
        anvil_json_builder_bool(b, s_draw(fake, 2));
        break;
    case 2: {
        uint64_t bits;
        anvil_env_random_u64(&fake->env, &bits);
        anvil_json_builder_int(b, s_draw(fake, 2) ? (int64_t)bits : (int64_t)s_draw(fake, 1000) - 500);
        break;
    }
    case 3: {
        uint64_t bits;
        anvil_env_random_u64(&fake->env, &bits);
        double d;
        memcpy(&d, &bits, sizeof(d));
        if (!isfinite(d) || s_draw(fake, 2)) {
            d = (double)((int64_t)s_draw(fake, 2000000) - 1000000) / 1000.0;
        }
        anvil_json_builder_double(b, d);
        break;
    }
    case 4:
    case 5:
        anvil_json_builder_string(b, text, s_random_string(fake, text, 40));
        break;
    case 6: {
        uint64_t n = s_draw(fake, 6);
        anvil_json_builder_begin_array(b);
        for (uint64_t i = 0; i < n; i++) {
            s_random_value(fake, b, depth + 1);
        }
        anvil_json_builder_end_array(b);
        break;
    }
    default: {
        /* Sometimes large, to cross the index threshold. */
        uint64_t n = s_draw(fake, 4) == 0 ? 16 + s_draw(fake, 30) : s_draw(fake, 6);
        anvil_json_builder_begin_object(b);
        for (uint64_t i = 0; i < n; i++) {
            anvil_json_builder_key(b, text, s_random_string(fake, text, 6));
            s_random_value(fake, b, depth + 1);
        }
        anvil_json_builder_end_object(b);
    }
    }
}

TEST(json_round_trip_generated_documents) {
    static const unsigned styles[] = {ANVIL_JSON_WRITE_COMPACT, ANVIL_JSON_WRITE_PRETTY, ANVIL_JSON_WRITE_ASCII,
                                      ANVIL_JSON_WRITE_PRETTY | ANVIL_JSON_WRITE_ASCII};
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 7);
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_buf first, second;
    anvil_buf_init(&first, t->alloc, 0);
    anvil_buf_init(&second, t->alloc, 0);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (int round = 0; round < 400; round++) {
        anvil_arena_reset(arena);
        CHECK_OK(anvil_json_builder_new(t->alloc, arena, &b));
        s_random_value(&fake, b, 0);
        struct anvil_json v;
        CHECK_OK(anvil_json_builder_finish(b, &v));
        anvil_json_builder_destroy(b);
        b = NULL;
        unsigned style = styles[round % 4];
        anvil_buf_clear(&first);
        anvil_buf_clear(&second);
        CHECK_OK(anvil_json_write(&v, style, &first));
        struct anvil_diag diag;
        int rc = anvil_json_parse(t->alloc, first.data, first.len, NULL, &doc, &diag);
        if (rc != ANVIL_OK) {
            fprintf(stderr, "round %d: %s in %s\n", round, diag.message, first.data);
        }
        CHECK_OK(rc);
        CHECK(anvil_json_equal(&v, anvil_json_doc_root(doc)));
        CHECK_EQ_INT(anvil_json_compare(&v, anvil_json_doc_root(doc)), 0);
        CHECK_OK(anvil_json_write(anvil_json_doc_root(doc), style, &second));
        CHECK(first.len == second.len && memcmp(first.data, second.data, first.len) == 0);
        anvil_json_doc_destroy(doc);
        doc = NULL;
    }
done:
    anvil_json_doc_destroy(doc);
    anvil_json_builder_destroy(b);
    anvil_arena_destroy(arena);
    anvil_buf_clean_up(&first);
    anvil_buf_clean_up(&second);
}

TEST(json_write_random_doubles_round_trip_bit_exact) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 2026);
    struct anvil_buf out;
    anvil_buf_init(&out, t->alloc, 0);
    for (int i = 0; i < 20000; i++) {
        uint64_t bits;
        CHECK_OK(anvil_env_random_u64(&fake.env, &bits));
        double d;
        memcpy(&d, &bits, sizeof(d));
        if (!isfinite(d)) {
            continue;
        }
        anvil_buf_clear(&out);
        CHECK_OK(anvil_json_write_double(d, &out));
        struct anvil_json v;
        struct anvil_arena *arena = NULL;
        CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
        int rc = anvil_json_parse_into(arena, t->alloc, out.data, out.len, NULL, &v, NULL);
        double back = anvil_json_double(&v);
        anvil_arena_destroy(arena);
        CHECK_OK(rc);
        CHECK(!anvil_json_is_int(&v));
        CHECK(memcmp(&back, &d, sizeof(d)) == 0);
        /* Shortest: one digit fewer must not round-trip (checked on the mantissa text length). */
        CHECK(out.len <= 24);
    }
done:
    anvil_buf_clean_up(&out);
}
