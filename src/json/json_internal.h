#ifndef ANVIL_JSON_INTERNAL_H
#define ANVIL_JSON_INTERNAL_H

/* Shared by the parser, builder, writer and value code; not installed. */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "anvil/json.h"
#include "anvil/status.h"
#include "core/arena_internal.h"
#include "core/core_internal.h"

/* anvil_json_member_key() (and C++) reads a key's bytes just after the record: `bytes` must be there. */
_Static_assert(offsetof(struct anvil_json_key, bytes) == sizeof(struct anvil_json_key),
               "a key's bytes follow its record");

/*
 * Set by tests to make the parser take its portable scalar paths where it has
 * SIMD ones, and read every key without predicting it (json_parse.c,
 * s_key_head), so that both ways are exercised and compared. Atomic (read
 * relaxed once per string scan and per key): a test may flip it while another
 * thread parses.
 */
extern _Atomic bool anvil__json_scalar_only;

/* Objects with an index carry this header just before their members. */
struct anvil__json_index {
    /* Member index + 1 per slot; 0 = empty. Open addressing, linear probing. */
    const uint32_t *slots;
    uint32_t mask;
    uint32_t reserved;
};

static inline const struct anvil__json_index *anvil__json_index_of(const struct anvil_json *object) {
    return (const struct anvil__json_index *)object->u.members - 1;
}

static inline struct anvil_json anvil__json_container(enum anvil_json_type type, size_t len, const void *storage) {
    struct anvil_json v;
    v.tag = (uint64_t)type | ((uint64_t)len << ANVIL_JSON__LEN_SHIFT);
    if (type == ANVIL_JSON_ARRAY) {
        v.u.items = storage;
    } else {
        v.u.members = storage;
    }
    return v;
}

/*
 * Whether `len` bytes at `a` and `b` are equal, for keys (mostly short): up to 16 bytes in two
 * overlapping loads of each, never reading outside either run; longer ones through memcmp.
 */
static inline bool anvil__json_bytes_eq(const void *a, const void *b, size_t len) {
    const unsigned char *x = a, *y = b;
    if (len >= 8) {
        if (len > 16) {
            return memcmp(x, y, len) == 0;
        }
        uint64_t x0, y0, x1, y1;
        memcpy(&x0, x, 8);
        memcpy(&y0, y, 8);
        memcpy(&x1, x + len - 8, 8);
        memcpy(&y1, y + len - 8, 8);
        return ((x0 ^ y0) | (x1 ^ y1)) == 0;
    }
    if (len >= 4) {
        uint32_t x0, y0, x1, y1;
        memcpy(&x0, x, 4);
        memcpy(&y0, y, 4);
        memcpy(&x1, x + len - 4, 4);
        memcpy(&y1, y + len - 4, 4);
        return ((x0 ^ y0) | (x1 ^ y1)) == 0;
    }
    if (len == 0) {
        return true;
    }
    /* 1 to 3 bytes: the first, middle and last cover them all. */
    return ((x[0] ^ y[0]) | (x[len >> 1] ^ y[len >> 1]) | (x[len - 1] ^ y[len - 1])) == 0;
}

/* Key records equal in bytes (pointer equality first: keys are interned per document). */
static inline bool anvil__json_key_eq(const struct anvil_json_key *a, const struct anvil_json_key *b) {
    return a == b || (a->hash == b->hash && a->len == b->len && anvil__json_bytes_eq(a->bytes, b->bytes, a->len));
}

/* An empty object value with static storage. */
static inline const struct anvil_json *anvil__json_empty_object(void) {
    static const struct anvil_json empty = ANVIL_JSON_EMPTY_OBJECT_INIT;
    return &empty;
}

/* The per-process seed of anvil_json_hash(). */
uint64_t anvil__json_hash_seed(void);

/* anvil_json_hash() with the seed passed in (hot loops fetch it once). */
static inline uint32_t anvil__json_hash_with(uint64_t seed, const char *bytes, size_t len) {
    uint64_t h = seed ^ ((uint64_t)len * UINT64_C(0x9E3779B97F4A7C15));
    const unsigned char *p = (const unsigned char *)bytes;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * UINT64_C(0x9E3779B97F4A7C15);
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    if (len > 0) {
        /* The last 1-7 bytes read in place, never through a stack copy that a wider load then cannot take from
         * the store buffer: two overlapping 4-byte loads, or the first, middle and last byte (either covers every
         * byte, and the length is in `h` already). */
        uint64_t w;
        if (len >= 4) {
            uint32_t lo, hi;
            memcpy(&lo, p, 4);
            memcpy(&hi, p + len - 4, 4);
            w = (uint64_t)lo | (uint64_t)hi << 32;
        } else {
            w = (uint64_t)p[0] | (uint64_t)p[len / 2] << 8 | (uint64_t)p[len - 1] << 16;
        }
        h = (h ^ w) * UINT64_C(0xD6E8FEB86659FD93);
    }
    h ^= h >> 32;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 29;
    return (uint32_t)(h >> 32);
}

/* Lookup with a precomputed anvil_json_hash() of the key (JMESPath compiles it once). */
const struct anvil_json *anvil__json_object_get_hashed(const struct anvil_json *v, const char *key, size_t len,
                                                       uint32_t hash);

/* A string value for `len` bytes already known to be valid UTF-8; copies into `arena`. */
static inline int anvil__json_string_value(struct anvil_arena *arena, const char *bytes, size_t len,
                                           struct anvil_json *out) {
    if (len > (size_t)UINT32_MAX - 1) {
        return ANVIL_ELIMIT;
    }
    if (len < sizeof(out->u)) {
        /* Short strings live in the payload itself, NUL-padded. */
        out->tag = ANVIL_JSON__INLINE_STRING_TAG(len);
        uint64_t word = 0;
        if (len) {
            memcpy(&word, bytes, len);
        }
        memcpy(&out->u, &word, sizeof(word));
        return ANVIL_OK;
    }
    char *copy = anvil__arena_bump(arena, len + 1, 1);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    if (len <= 16) {
        /* Most strings are short: two overlapping moves, not a call to memcpy. */
        uint64_t head, tail;
        memcpy(&head, bytes, 8);
        memcpy(&tail, bytes + len - 8, 8);
        memcpy(copy, &head, 8);
        memcpy(copy + len - 8, &tail, 8);
    } else if (len <= 32) {
        unsigned char head[16], tail[16];
        memcpy(head, bytes, 16);
        memcpy(tail, bytes + len - 16, 16);
        memcpy(copy, head, 16);
        memcpy(copy + len - 16, tail, 16);
    } else {
        memcpy(copy, bytes, len);
    }
    copy[len] = '\0';
    out->tag = (uint64_t)ANVIL_JSON_STRING | ((uint64_t)len << ANVIL_JSON__LEN_SHIFT);
    out->u.str = copy;
    return ANVIL_OK;
}

/*
 * A string value over `len` bytes that outlive it, valid UTF-8 and followed
 * by a NUL (a key record's bytes, another string's): nothing is copied.
 */
static inline struct anvil_json anvil__json_borrowed_string(const char *bytes, size_t len) {
    struct anvil_json v;
    v.tag = (uint64_t)ANVIL_JSON_STRING | ((uint64_t)len << ANVIL_JSON__LEN_SHIFT);
    v.u.str = bytes;
    return v;
}

/* A key record of `len` bytes written into `storage` (sizeof(struct anvil_json_key) + len + 1 bytes). */
struct anvil_json_key *anvil__json_key_init(void *storage, const char *bytes, size_t len, uint32_t hash);

/* A key record in `arena` (not interned). */
const struct anvil_json_key *anvil__json_key_new(struct anvil_arena *arena, const char *bytes, size_t len,
                                                 uint32_t hash);

/* `count` members (fewer than ANVIL_JSON_INDEX_MIN) known to have distinct keys, copied into `arena`. */
int anvil__json_object_unique(struct anvil_arena *arena, const struct anvil_json_member *members, size_t count,
                              struct anvil_json *out);

/*
 * A small object (fewer than ANVIL_JSON_INDEX_MIN members) over `count`
 * members that stay where they are (arena memory): later duplicates fold into
 * the first of their key (last wins, first place) or, with `reject`, stop with
 * ANVIL_ESYNTAX and the duplicate's position in `*dup_at`.
 */
int anvil__json_object_in_place(struct anvil_json_member *members, size_t count, bool reject, size_t *dup_at,
                                struct anvil_json *out);

/*
 * Turns `count` members (keys need not be interned) into an object value in
 * `arena`: later duplicates overwrite earlier values in place (last wins) or,
 * with `reject`, stop with ANVIL_ESYNTAX and the duplicate's position in
 * `*dup_at`. Builds the index for large objects. `members` is scratch: a
 * small object's are compacted where they are.
 */
int anvil__json_object_finish(struct anvil_arena *arena, struct anvil_json_member *members, size_t count, bool reject,
                              size_t *dup_at, struct anvil_json *out);

/* An empty document (root null) whose arena starts with `first_block` bytes, for values built in it: ANVIL_ENOMEM. */
int anvil__json_doc_new(struct anvil_allocator *allocator, size_t first_block, struct anvil_json_doc **out);
/* Makes `root` (a value in the document's arena) the document's root. */
void anvil__json_doc_set_root(struct anvil_json_doc *doc, const struct anvil_json *root);

/* Number text <-> double, independent of the process locale. */
/* Long texts are copied through `allocator` (NULL = default): ANVIL_ENOMEM; ANVIL_EVALUE beyond the double range. */
int anvil__json_strtod(struct anvil_allocator *allocator, const char *text, size_t len, double *out);
/* Writes the shortest round-tripping text for a finite double into `out` (>= 32 bytes); returns its length. */
size_t anvil__json_format_double(double d, char *out);

#endif
