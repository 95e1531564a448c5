/* Reading values: hashing, lookup, equality, order. */

#include <pthread.h>
#include <string.h>

#include "anvil/env.h"
#include "anvil/status.h"
#include "json/json_internal.h"

/*
 * The key hash is seeded once per process from the system random source, so
 * a document crafted to collide every key (to make indexing quadratic)
 * cannot be written in advance.
 */
static uint64_t s_seed;
static pthread_once_t s_seed_once = PTHREAD_ONCE_INIT;

static void s_init_seed(void) {
    uint64_t seed = 0;
    if (anvil_env_random_u64(anvil_env_system(), &seed) != ANVIL_OK) {
        seed = (uint64_t)(uintptr_t)&s_seed; /* ASLR is better than nothing */
    }
    s_seed = seed | 1;
}

uint64_t anvil__json_hash_seed(void) {
    pthread_once(&s_seed_once, s_init_seed);
    return s_seed;
}

uint32_t anvil_json_hash(const char *bytes, size_t len) {
    return anvil__json_hash_with(anvil__json_hash_seed(), bytes, len);
}

const struct anvil_json *anvil__json_object_get_hashed(const struct anvil_json *v, const char *key, size_t len,
                                                       uint32_t hash) {
    if (!anvil_json_is_object(v)) {
        return NULL;
    }
    size_t n = anvil_json_len(v);
    const struct anvil_json_member *members = v->u.members;
    if (n >= ANVIL_JSON_INDEX_MIN) {
        const struct anvil__json_index *index = anvil__json_index_of(v);
        for (uint32_t slot = hash & index->mask;; slot = (slot + 1) & index->mask) {
            uint32_t at = index->slots[slot];
            if (at == 0) {
                return NULL;
            }
            const struct anvil_json_key *k = members[at - 1].key;
            if (k->hash == hash && k->len == len && anvil__json_bytes_eq(k->bytes, key, len)) {
                return &members[at - 1].value;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json_key *k = members[i].key;
        if (k->hash == hash && k->len == len && anvil__json_bytes_eq(k->bytes, key, len)) {
            return &members[i].value;
        }
    }
    return NULL;
}

const struct anvil_json *anvil_json_object_get(const struct anvil_json *v, const char *key, size_t len) {
    if (!v || !anvil_json_is_object(v) || (len > 0 && !key)) {
        return NULL;
    }
    return anvil__json_object_get_hashed(v, key, len, anvil_json_hash(key, len));
}

const struct anvil_json *anvil_json_object_get_cstr(const struct anvil_json *v, const char *key) {
    return key ? anvil_json_object_get(v, key, strlen(key)) : NULL;
}

/* ---- numbers ---- */

/* Exact three-way compare of an int64 and a finite double. */
static int s_cmp_int_double(int64_t i, double d) {
    /* 2^63 as a double; every double >= it exceeds every int64. */
    const double two63 = 9223372036854775808.0;
    if (d >= two63) {
        return -1;
    }
    if (d < -two63) {
        return 1;
    }
    /* Now d is within int64 range: compare the integral parts, then the fraction. */
    int64_t whole = (int64_t)d; /* truncates toward zero, exact for |d| < 2^63 */
    if (i != whole) {
        return i < whole ? -1 : 1;
    }
    double frac = d - (double)whole;
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

static int s_cmp_numbers(const struct anvil_json *a, const struct anvil_json *b) {
    bool ai = anvil_json_is_int(a), bi = anvil_json_is_int(b);
    if (ai && bi) {
        return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
    }
    if (ai) {
        return s_cmp_int_double(a->u.i, b->u.d);
    }
    if (bi) {
        return -s_cmp_int_double(b->u.i, a->u.d);
    }
    return a->u.d < b->u.d ? -1 : a->u.d > b->u.d; /* -0.0 == 0.0 */
}

/* ---- equality ---- */

static bool s_equal(const struct anvil_json *a, const struct anvil_json *b, size_t depth);

static bool s_objects_equal(const struct anvil_json *a, const struct anvil_json *b, size_t depth) {
    size_t n = anvil_json_len(a);
    if (n != anvil_json_len(b)) {
        return false;
    }
    /* Keys are unique within an object, so "every member of a is in b with
     * an equal value" plus equal counts means equal. */
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json_member *m = &a->u.members[i];
        const struct anvil_json *other;
        if (i < anvil_json_len(b) && anvil__json_key_eq(m->key, b->u.members[i].key)) {
            other = &b->u.members[i].value; /* same order: the common case */
        } else {
            other = anvil__json_object_get_hashed(b, m->key->bytes, m->key->len, m->key->hash);
        }
        if (!other || !s_equal(&m->value, other, depth + 1)) {
            return false;
        }
    }
    return true;
}

static bool s_equal(const struct anvil_json *a, const struct anvil_json *b, size_t depth) {
    if (a == b) {
        return true;
    }
    enum anvil_json_type type = anvil_json_type(a);
    if (type != anvil_json_type(b)) {
        return false;
    }
    switch (type) {
    case ANVIL_JSON_NULL:
        return true;
    case ANVIL_JSON_BOOL:
        return anvil_json_bool(a) == anvil_json_bool(b);
    case ANVIL_JSON_NUMBER:
        return s_cmp_numbers(a, b) == 0;
    case ANVIL_JSON_STRING: {
        size_t n = anvil_json_len(a);
        return n == anvil_json_len(b) && memcmp(anvil_json_string_ptr(a), anvil_json_string_ptr(b), n) == 0;
    }
    case ANVIL_JSON_ARRAY: {
        size_t n = anvil_json_len(a);
        if (n != anvil_json_len(b)) {
            return false;
        }
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return a->u.items == b->u.items;
        }
        for (size_t i = 0; i < n; i++) {
            if (!s_equal(&a->u.items[i], &b->u.items[i], depth + 1)) {
                return false;
            }
        }
        return true;
    }
    case ANVIL_JSON_OBJECT:
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return a->u.members == b->u.members && anvil_json_len(a) == anvil_json_len(b);
        }
        return s_objects_equal(a, b, depth);
    }
    return false;
}

bool anvil_json_equal(const struct anvil_json *a, const struct anvil_json *b) {
    return s_equal(a, b, 0);
}

/* ---- order ---- */

static int s_rank(const struct anvil_json *v) {
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        return 0;
    case ANVIL_JSON_BOOL:
        return anvil_json_bool(v) ? 2 : 1;
    case ANVIL_JSON_NUMBER:
        return 3;
    case ANVIL_JSON_STRING:
        return 4;
    case ANVIL_JSON_ARRAY:
        return 5;
    case ANVIL_JSON_OBJECT:
        return 6;
    }
    return 7;
}

static int s_cmp_keys(const struct anvil_json_key *a, const struct anvil_json_key *b) {
    return anvil_sv_cmp(anvil_sv(a->bytes, a->len), anvil_sv(b->bytes, b->len));
}

/* The member of `v` with the smallest key greater than `after` (NULL = smallest overall). */
static const struct anvil_json_member *s_next_in_key_order(const struct anvil_json *v,
                                                           const struct anvil_json_key *after) {
    const struct anvil_json_member *best = NULL;
    size_t n = anvil_json_len(v);
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json_member *m = &v->u.members[i];
        if (after && s_cmp_keys(m->key, after) <= 0) {
            continue;
        }
        if (!best || s_cmp_keys(m->key, best->key) < 0) {
            best = m;
        }
    }
    return best;
}

static int s_compare(const struct anvil_json *a, const struct anvil_json *b, size_t depth);

static int s_compare_objects(const struct anvil_json *a, const struct anvil_json *b, size_t depth) {
    size_t n = anvil_json_len(a), nb = anvil_json_len(b);
    if (n != nb) {
        return n < nb ? -1 : 1;
    }
    if (s_equal(a, b, depth)) {
        return 0; /* also settles the quadratic walk below for equal objects */
    }
    /* Walk both in key order; quadratic, but only reached for unequal objects
     * of the same size, and it stops at the first difference. */
    const struct anvil_json_key *ka = NULL, *kb = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json_member *ma = s_next_in_key_order(a, ka);
        const struct anvil_json_member *mb = s_next_in_key_order(b, kb);
        int c = s_cmp_keys(ma->key, mb->key);
        if (c == 0) {
            c = s_compare(&ma->value, &mb->value, depth + 1);
        }
        if (c != 0) {
            return c;
        }
        ka = ma->key;
        kb = mb->key;
    }
    return 0;
}

static int s_compare(const struct anvil_json *a, const struct anvil_json *b, size_t depth) {
    if (a == b) {
        return 0;
    }
    int ra = s_rank(a), rb = s_rank(b);
    if (ra != rb) {
        return ra < rb ? -1 : 1;
    }
    switch (anvil_json_type(a)) {
    case ANVIL_JSON_NULL:
    case ANVIL_JSON_BOOL:
        return 0;
    case ANVIL_JSON_NUMBER:
        return s_cmp_numbers(a, b);
    case ANVIL_JSON_STRING:
        return anvil_sv_cmp(anvil_json_string(a), anvil_json_string(b));
    case ANVIL_JSON_ARRAY: {
        size_t na = anvil_json_len(a), nb = anvil_json_len(b);
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return a->u.items < b->u.items ? -1 : a->u.items > b->u.items;
        }
        for (size_t i = 0; i < na && i < nb; i++) {
            int c = s_compare(&a->u.items[i], &b->u.items[i], depth + 1);
            if (c != 0) {
                return c;
            }
        }
        return na < nb ? -1 : na > nb;
    }
    case ANVIL_JSON_OBJECT:
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return a->u.members < b->u.members ? -1 : a->u.members > b->u.members;
        }
        return s_compare_objects(a, b, depth);
    }
    return 0;
}

int anvil_json_compare(const struct anvil_json *a, const struct anvil_json *b) {
    int c = s_compare(a, b, 0);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}
