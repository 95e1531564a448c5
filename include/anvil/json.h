#ifndef ANVIL_JSON_H
#define ANVIL_JSON_H

/**
 * JSON: an immutable, arena-allocated value model, a strict RFC 8259 parser,
 * a writer, deep equality and a total order. docs/json.md has the rules this
 * parser applies where RFC 8259 leaves a choice.
 *
 * A document (`struct anvil_json_doc`) owns one arena; every value, string and
 * key reachable from its root lives there, so anvil_json_doc_destroy() frees
 * them all. Values are never changed after they are made, so any number of
 * threads may read one document at once.
 *
 * Values are 16 bytes: a tag (type, a flag and a length) and a payload. Arrays
 * are contiguous. Objects keep their members in document order; each member
 * points at a key record shared by every equal key of the document. Objects
 * with ANVIL_JSON_INDEX_MIN members or more carry a hash index, so lookups stay
 * O(1) on large objects. Strings are valid UTF-8 with an explicit length; they
 * may contain U+0000 and are also NUL-terminated for convenience.
 *
 * Read values through the accessors below; the struct layout is visible only
 * so they can be inline.
 */

#include <string.h>

#include "anvil/arena.h"
#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

enum anvil_json_type {
    ANVIL_JSON_NULL = 0,
    ANVIL_JSON_BOOL = 1,
    ANVIL_JSON_NUMBER = 2,
    ANVIL_JSON_STRING = 3,
    ANVIL_JSON_ARRAY = 4,
    ANVIL_JSON_OBJECT = 5
};

/**
 * A key record: shared by every equal key of a document. Its `len` bytes,
 * NUL-terminated, follow the record (C names them `bytes`; C++, which has
 * no flexible array members, reads them with anvil_json_member_key()).
 */
struct anvil_json_key {
    uint32_t len;
    uint32_t hash;
#ifndef __cplusplus
    char bytes[];
#endif
};

struct anvil_json_member;

struct anvil_json {
    /**
     * Bits 0-2 the type; bit 3 a flag (bool: true; number: exact integer;
     * string: bytes stored inline in `u`, for strings of up to 7 bytes, the
     * bytes of `u` after them zero); bits 8-63 the length.
     */
    uint64_t tag;
    union {
        int64_t i;
        double d;
        const char *str;
        const struct anvil_json *items;
        const struct anvil_json_member *members;
    } u;
};

struct anvil_json_member {
    const struct anvil_json_key *key;
    struct anvil_json value;
};

#define ANVIL_JSON__TYPE_MASK UINT64_C(0x7)
#define ANVIL_JSON__FLAG UINT64_C(0x8)
#define ANVIL_JSON__LEN_SHIFT 8
/* The tag of a string of `len` (< 8) bytes kept inside the value (the length first: g++ -Wconversion warns on
 * the enum operand first). */
#define ANVIL_JSON__INLINE_STRING_TAG(len)                                                                             \
    (((uint64_t)(len) << ANVIL_JSON__LEN_SHIFT) | ANVIL_JSON__FLAG | (uint64_t)ANVIL_JSON_STRING)

/** Objects with at least this many members get a hash index. */
#define ANVIL_JSON_INDEX_MIN 16

/**
 * The deepest nesting any anvil JSON function handles. The parser and builder
 * refuse to go deeper; the writer and anvil_json_copy() return ANVIL_ELIMIT
 * past it; equality and order compare anything deeper (which only
 * hand-assembled values can reach) by identity.
 */
#define ANVIL_JSON_MAX_DEPTH 10000

/*
 * ---- reading values (all inline, O(1), thread-safe) ----
 * Every accessor takes NULL as a missing value: type null, length 0, no
 * items, members or bytes. So the result of a failed lookup can be passed on.
 */

static inline enum anvil_json_type anvil_json_type(const struct anvil_json *v) {
    return v ? (enum anvil_json_type)(v->tag & ANVIL_JSON__TYPE_MASK) : ANVIL_JSON_NULL;
}

static inline bool anvil_json_is_null(const struct anvil_json *v) {
    return anvil_json_type(v) == ANVIL_JSON_NULL;
}
static inline bool anvil_json_is_bool(const struct anvil_json *v) {
    return anvil_json_type(v) == ANVIL_JSON_BOOL;
}
static inline bool anvil_json_is_number(const struct anvil_json *v) {
    return anvil_json_type(v) == ANVIL_JSON_NUMBER;
}
static inline bool anvil_json_is_string(const struct anvil_json *v) {
    return anvil_json_type(v) == ANVIL_JSON_STRING;
}
static inline bool anvil_json_is_array(const struct anvil_json *v) {
    return anvil_json_type(v) == ANVIL_JSON_ARRAY;
}
static inline bool anvil_json_is_object(const struct anvil_json *v) {
    return anvil_json_type(v) == ANVIL_JSON_OBJECT;
}

/** True for `true`; false for `false` and for every non-boolean. */
static inline bool anvil_json_bool(const struct anvil_json *v) {
    return v && v->tag == (ANVIL_JSON_BOOL | ANVIL_JSON__FLAG);
}

/**
 * True when the number was written as an integer (no fraction, no exponent)
 * that fits int64_t; anvil_json_int() then gives it exactly.
 */
static inline bool anvil_json_is_int(const struct anvil_json *v) {
    return v && v->tag == (ANVIL_JSON_NUMBER | ANVIL_JSON__FLAG);
}

/** The integer value of an exact integer; 0 for anything else. */
static inline int64_t anvil_json_int(const struct anvil_json *v) {
    return anvil_json_is_int(v) ? v->u.i : 0;
}

/** The value of any number as a double (integers converted); 0 for non-numbers. */
static inline double anvil_json_double(const struct anvil_json *v) {
    if (anvil_json_is_int(v)) {
        return (double)v->u.i;
    }
    return anvil_json_is_number(v) ? v->u.d : 0.0;
}

/** Length in bytes of a string, items of an array, members of an object; 0 otherwise. */
static inline size_t anvil_json_len(const struct anvil_json *v) {
    return v ? (size_t)(v->tag >> ANVIL_JSON__LEN_SHIFT) : 0;
}

/**
 * The bytes of a string (NUL-terminated, may contain NUL); "" for non-strings.
 * Short strings live inside the value itself, so the pointer is valid only as
 * long as `v` is (always true for values inside a document or arena).
 */
static inline const char *anvil_json_string_ptr(const struct anvil_json *v) {
    if (!anvil_json_is_string(v)) {
        return "";
    }
    return (v->tag & ANVIL_JSON__FLAG) ? (const char *)&v->u : v->u.str;
}

/** A view of a string's bytes; empty for non-strings. */
static inline struct anvil_str_view anvil_json_string(const struct anvil_json *v) {
    struct anvil_str_view sv = {anvil_json_string_ptr(v), anvil_json_is_string(v) ? anvil_json_len(v) : 0};
    return sv;
}

/**
 * Whether `v` is a string of exactly the `len` bytes at `s` (which need not
 * be NUL-terminated; NULL with `len` 0 is the empty string). Meant for
 * constants: with `s` a literal, a string of up to 7 bytes that anvil keeps
 * inside the value (every such string the parser, the builder and
 * anvil_json_new_string() make) is one compare of the tag and one or two of
 * the bytes; others are compared by length and bytes.
 */
static inline bool anvil_json_string_equals(const struct anvil_json *v, const char *s, size_t len) {
    if (v && len < sizeof(v->u) && v->tag == ANVIL_JSON__INLINE_STRING_TAG(len)) {
        return len == 0 || memcmp(&v->u, s, len) == 0;
    }
    return anvil_json_is_string(v) && anvil_json_len(v) == len &&
           (len == 0 || memcmp(anvil_json_string_ptr(v), s, len) == 0);
}

/**
 * The word of a string of up to 7 bytes kept inside its value: its bytes
 * `b0`...`b6` in memory order (0 past its end) as one uint64_t in the
 * machine's byte order, a constant expression. For
 * anvil_json_string_equals_word().
 */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ANVIL_JSON__WORD_SHIFT(i) (56 - 8 * (i))
#else
#define ANVIL_JSON__WORD_SHIFT(i) (8 * (i))
#endif
#define ANVIL_JSON__WORD_BYTE(b, i) ((uint64_t)(unsigned char)(b) << ANVIL_JSON__WORD_SHIFT(i))
#define ANVIL_JSON_WORD(b0, b1, b2, b3, b4, b5, b6)                                                                    \
    (ANVIL_JSON__WORD_BYTE(b0, 0) | ANVIL_JSON__WORD_BYTE(b1, 1) | ANVIL_JSON__WORD_BYTE(b2, 2) |                      \
     ANVIL_JSON__WORD_BYTE(b3, 3) | ANVIL_JSON__WORD_BYTE(b4, 4) | ANVIL_JSON__WORD_BYTE(b5, 5) |                      \
     ANVIL_JSON__WORD_BYTE(b6, 6))

/**
 * anvil_json_string_equals() for a literal `s` of `len` (< 8) bytes whose
 * ANVIL_JSON_WORD() is `word`. Every string of up to 7 bytes the parser,
 * the builder and anvil_json_new_string() make is kept inside its value with
 * the bytes after it zero, so this is one compare of the tag and one of the
 * word: no copy of the literal to compare with. A short string kept
 * outside its value (only a value assembled by hand) is compared by its
 * bytes, as anvil_json_string_equals() does.
 */
static inline bool anvil_json_string_equals_word(const struct anvil_json *v, const char *s, size_t len, uint64_t word) {
    if (v && len < sizeof(v->u) && v->tag == ANVIL_JSON__INLINE_STRING_TAG(len)) {
        uint64_t have;
        memcpy(&have, &v->u, sizeof(have));
        return have == word;
    }
    return anvil_json_string_equals(v, s, len);
}

/** Item `index` of an array, or NULL when out of range or not an array. */
static inline const struct anvil_json *anvil_json_array_at(const struct anvil_json *v, size_t index) {
    return anvil_json_is_array(v) && index < anvil_json_len(v) ? &v->u.items[index] : NULL;
}

/** Member `index` of an object in document order, or NULL. */
static inline const struct anvil_json_member *anvil_json_object_at(const struct anvil_json *v, size_t index) {
    return anvil_json_is_object(v) && index < anvil_json_len(v) ? &v->u.members[index] : NULL;
}

/** A member's key as a view. */
static inline struct anvil_str_view anvil_json_member_key(const struct anvil_json_member *m) {
    struct anvil_str_view sv = {(const char *)(m->key + 1), m->key->len}; /* the bytes after the record */
    return sv;
}

/** "null", "boolean", "number", "string", "array" or "object" (JMESPath's type names). Static storage. */
static inline const char *anvil_json_type_name(enum anvil_json_type type) {
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return (unsigned)type < 6 ? names[type] : "unknown";
}

/* ---- values that need no storage ---- */

/*
 * Static initialisers (C and C++), for constants and tables:
 * `static const struct anvil_json none = ANVIL_JSON_NULL_INIT;`. Empty
 * containers need no storage either.
 */
#define ANVIL_JSON_NULL_INIT                                                                                           \
    {                                                                                                                  \
        ANVIL_JSON_NULL, {                                                                                             \
            0                                                                                                          \
        }                                                                                                              \
    }
#define ANVIL_JSON_BOOL_INIT(b)                                                                                        \
    {                                                                                                                  \
        (uint64_t) ANVIL_JSON_BOOL | ((b) ? ANVIL_JSON__FLAG : 0), {                                                   \
            0                                                                                                          \
        }                                                                                                              \
    }
#define ANVIL_JSON_INT_INIT(i)                                                                                         \
    {                                                                                                                  \
        (uint64_t) ANVIL_JSON_NUMBER | ANVIL_JSON__FLAG, {                                                             \
            (int64_t)(i)                                                                                               \
        }                                                                                                              \
    }
#define ANVIL_JSON_EMPTY_ARRAY_INIT                                                                                    \
    {                                                                                                                  \
        ANVIL_JSON_ARRAY, {                                                                                            \
            0                                                                                                          \
        }                                                                                                              \
    }
#define ANVIL_JSON_EMPTY_OBJECT_INIT                                                                                   \
    {                                                                                                                  \
        ANVIL_JSON_OBJECT, {                                                                                           \
            0                                                                                                          \
        }                                                                                                              \
    }

static inline struct anvil_json anvil_json_make_null(void) {
    struct anvil_json v = {ANVIL_JSON_NULL, {0}};
    return v;
}

static inline struct anvil_json anvil_json_make_bool(bool b) {
    struct anvil_json v = {ANVIL_JSON_BOOL | (b ? ANVIL_JSON__FLAG : 0), {0}};
    return v;
}

static inline struct anvil_json anvil_json_make_int(int64_t i) {
    struct anvil_json v = {ANVIL_JSON_NUMBER | ANVIL_JSON__FLAG, {0}};
    v.u.i = i;
    return v;
}

/**
 * A double value. The caller must not pass NaN or an infinity: JSON cannot
 * hold them (anvil_json_make_double_checked() refuses them).
 */
static inline struct anvil_json anvil_json_make_double(double d) {
    struct anvil_json v = {ANVIL_JSON_NUMBER, {0}};
    v.u.d = d;
    return v;
}

/* ---- lookup, equality, order ---- */

/**
 * The value of the member named `key` (`len` bytes), or NULL when `v` is
 * NULL, not an object, or has no such member (so lookups chain:
 * get(get(v, "a"), "b")). O(1) for indexed objects, else a scan that
 * compares hashes first. Thread-safe.
 */
ANVIL_API const struct anvil_json *anvil_json_object_get(const struct anvil_json *v, const char *key, size_t len);

/** anvil_json_object_get() with a NUL-terminated key. */
ANVIL_API const struct anvil_json *anvil_json_object_get_cstr(const struct anvil_json *v, const char *key);

/**
 * Deep equality: same type and value; object member order is ignored; numbers
 * compare by value, so 1 == 1.0 and an int64 equals a double only when the
 * double is exactly that integer. Allocates nothing. Thread-safe.
 */
ANVIL_API bool anvil_json_equal(const struct anvil_json *a, const struct anvil_json *b);

/**
 * A total order, consistent with anvil_json_equal(): <0, 0 or >0. Types order
 * null < false < true < numbers < strings < arrays < objects. Numbers compare
 * exactly by value (ints and doubles mixed); strings by UTF-8 bytes, which is
 * code point order; arrays lexicographically; objects by member count, then by
 * their members taken in key order. Allocates nothing. Thread-safe.
 */
ANVIL_API int anvil_json_compare(const struct anvil_json *a, const struct anvil_json *b);

/** The hash anvil uses for keys (stable within a build, not across versions). */
ANVIL_API uint32_t anvil_json_hash(const char *bytes, size_t len);

/* ---- parsing ---- */

enum anvil_json_duplicates {
    /** A later duplicate key replaces the earlier one's value, keeping its position (Python, JavaScript). */
    ANVIL_JSON_DUPLICATES_LAST_WINS = 0,
    /** A duplicate key is a syntax error. */
    ANVIL_JSON_DUPLICATES_REJECT = 1
};

enum anvil_json_surrogates {
    /** A \u escape of a lone surrogate (no valid pair) is a syntax error. */
    ANVIL_JSON_SURROGATES_REJECT = 0,
    /** A lone surrogate becomes U+FFFD REPLACEMENT CHARACTER. */
    ANVIL_JSON_SURROGATES_REPLACE = 1
};

#define ANVIL_JSON_DEFAULT_MAX_DEPTH 512
#define ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES ((size_t)1 << 30)
#define ANVIL_JSON_DEFAULT_MAX_STRING_BYTES ((size_t)64 << 20)

/** Parser options; zero means the default for every field. */
struct anvil_json_parse_options {
    /** Deepest nesting of arrays and objects. Default 512; at most ANVIL_JSON_MAX_DEPTH. */
    size_t max_depth;
    /** Longest input in bytes. Default 1 GiB. */
    size_t max_document_bytes;
    /** Longest string or key after unescaping, in bytes. Default 64 MiB; at most 4 GiB - 1. */
    size_t max_string_bytes;
    enum anvil_json_duplicates duplicates;
    enum anvil_json_surrogates surrogates;
};

struct anvil_json_doc;

/**
 * Parses `len` bytes of `text` (need not be NUL-terminated; never read past
 * `len`) as one JSON text, optionally preceded by a UTF-8 byte order mark.
 * On success stores a new document in `*out`; the caller frees it with
 * anvil_json_doc_destroy(). The document copies what it needs: `text` may be
 * freed at once. `options` may be NULL.
 *
 * Returns ANVIL_OK; ANVIL_ESYNTAX for malformed JSON, invalid UTF-8, a
 * rejected surrogate or duplicate, or a number too large for a double;
 * ANVIL_ELIMIT when a limit is crossed; ANVIL_ENOMEM; ANVIL_EINVAL for NULL
 * `out` or NULL `text` with len > 0. On error `*out` is NULL and `diag` (may be
 * NULL) says where. Thread-safe (no shared state).
 */
ANVIL_API int anvil_json_parse(struct anvil_allocator *allocator, const char *text, size_t len,
                               const struct anvil_json_parse_options *options, struct anvil_json_doc **out,
                               struct anvil_diag *diag);

/**
 * Like anvil_json_parse(), but builds the value in `arena` (its lifetime is
 * the arena's) and stores it in `*out`. Temporary memory comes from
 * `allocator` (NULL = default) and is released before returning. On error the
 * arena may hold unreachable bytes until it is reset or destroyed.
 */
ANVIL_API int anvil_json_parse_into(struct anvil_arena *arena, struct anvil_allocator *allocator, const char *text,
                                    size_t len, const struct anvil_json_parse_options *options, struct anvil_json *out,
                                    struct anvil_diag *diag);

/** The document's root value. Valid until the document is destroyed. */
ANVIL_API const struct anvil_json *anvil_json_doc_root(const struct anvil_json_doc *doc);

/** The arena holding the document (to build values that live as long as it). */
ANVIL_API struct anvil_arena *anvil_json_doc_arena(struct anvil_json_doc *doc);

/** Frees the document and every value in it. NULL is ignored. */
ANVIL_API void anvil_json_doc_destroy(struct anvil_json_doc *doc);

/* ---- writing ---- */

enum anvil_json_write_flags {
    /** No insignificant white space (the default). */
    ANVIL_JSON_WRITE_COMPACT = 0,
    /** Two-space indentation, one member or item per line, "key": value. */
    ANVIL_JSON_WRITE_PRETTY = 1,
    /** Escape every non-ASCII character as \uXXXX (surrogate pairs above U+FFFF). */
    ANVIL_JSON_WRITE_ASCII = 2
};

/**
 * Appends `v` as JSON text to `out`. Output is deterministic: members in
 * document order, strings escaped minimally (\" \\ \b \f \n \r \t, other
 * controls as \u00XX), integers exactly, doubles in the shortest form that
 * parses back to the same double (always with a '.' or an exponent, so they
 * stay doubles). Pretty output ends without a newline. Returns ANVIL_OK,
 * ANVIL_ELIMIT (the buffer's cap), ANVIL_ENOMEM, or ANVIL_EVALUE for a NaN or
 * infinite double, ANVIL_ELIMIT for nesting deeper than ANVIL_JSON_MAX_DEPTH. On
 * error `out` keeps what was appended so far.
 */
ANVIL_API int anvil_json_write(const struct anvil_json *v, unsigned flags, struct anvil_buf *out);

/**
 * Appends `s` as a quoted, escaped JSON string. The output is always valid
 * UTF-8: a byte of `s` that does not start a valid UTF-8 sequence is written
 * as U+FFFD (only a hand-made string can hold one; parsed and built ones are
 * checked). Besides what JSON requires, the C1 controls, U+2028, U+2029 and
 * the bidirectional controls are written as \uXXXX, so output shown on a
 * terminal cannot act on it.
 */
ANVIL_API int anvil_json_write_string(struct anvil_str_view s, unsigned flags, struct anvil_buf *out);

/**
 * Appends the shortest decimal text that parses back to `d` exactly (with a
 * '.' or exponent). ANVIL_EVALUE for NaN and infinities.
 */
ANVIL_API int anvil_json_write_double(double d, struct anvil_buf *out);

/* ---- building values ---- */

/**
 * Makes a copy of `len` bytes of `s` in `arena` and stores a string value in
 * `*out`. ANVIL_EVALUE when `s` is not valid UTF-8, ANVIL_ELIMIT when longer
 * than 4 GiB - 1, ANVIL_ENOMEM.
 */
ANVIL_API int anvil_json_new_string(struct anvil_arena *arena, const char *s, size_t len, struct anvil_json *out);

/**
 * A double value, refusing NaN and infinities (ANVIL_EVALUE), which JSON
 * cannot represent.
 */
ANVIL_API int anvil_json_make_double_checked(double d, struct anvil_json *out);

/**
 * Allocates an array of `count` items in `arena`, all null, stores the array
 * value in `*out` and a pointer to its items in `*items`, for the caller to
 * fill before anyone else sees the value.
 */
ANVIL_API int anvil_json_new_array(struct anvil_arena *arena, size_t count, struct anvil_json *out,
                                   struct anvil_json **items);

/** A member for anvil_json_new_object(): its key (copied) and its value (shared). */
struct anvil_json_pair {
    struct anvil_str_view key;
    struct anvil_json value;
};

/**
 * Makes an object of `count` members in `arena` and stores it in `*out`.
 * Keys are copied (ANVIL_EVALUE when one is not valid UTF-8); values are
 * shared as anvil_json_builder_value() shares them, so each must live as
 * long as the result is used (anvil_json_copy() first when not). A later
 * duplicate key replaces the earlier one's value, keeping its position (last
 * wins, the parser's default). Objects of ANVIL_JSON_INDEX_MIN members or
 * more get their hash index. ANVIL_ENOMEM; ANVIL_ELIMIT for a key longer
 * than 4 GiB - 1 or more than 2^30 members; ANVIL_EINVAL for NULL `arena`,
 * `out`, or `pairs` with count > 0.
 */
ANVIL_API int anvil_json_new_object(struct anvil_arena *arena, const struct anvil_json_pair *pairs, size_t count,
                                    struct anvil_json *out);

/**
 * Makes an object in `arena` from `count` members of other objects (such as
 * a run of one object's members: anvil_json_object_at(v, i) for i in a
 * range are contiguous). Keys and values are shared, not copied: they must
 * outlive the result. Duplicates and the index as anvil_json_new_object().
 */
ANVIL_API int anvil_json_new_object_members(struct anvil_arena *arena, const struct anvil_json_member *members,
                                            size_t count, struct anvil_json *out);

/**
 * Deep-copies `src` into `arena` (strings, keys and containers), so the copy
 * outlives `src`'s document. Indexes are rebuilt. ANVIL_ENOMEM or ANVIL_ELIMIT
 * (nesting deeper than ANVIL_JSON_MAX_DEPTH).
 */
ANVIL_API int anvil_json_copy(struct anvil_arena *arena, const struct anvil_json *src, struct anvil_json *out);

struct anvil_json_builder;

/**
 * A builder assembles one value, event by event (begin/end array and object,
 * key, scalars), into `arena`. Duplicate keys follow the last-wins rule.
 * Temporary memory comes from `allocator`. Not thread-safe.
 *
 * Errors are sticky: after one failed call every later call returns the same
 * code, so a caller may check only anvil_json_builder_finish().
 */
ANVIL_API int anvil_json_builder_new(struct anvil_allocator *allocator, struct anvil_arena *arena,
                                     struct anvil_json_builder **out);

/** Frees the builder (never the arena or the values built in it). NULL is ignored. */
ANVIL_API void anvil_json_builder_destroy(struct anvil_json_builder *builder);

ANVIL_API int anvil_json_builder_begin_array(struct anvil_json_builder *builder);
ANVIL_API int anvil_json_builder_end_array(struct anvil_json_builder *builder);
ANVIL_API int anvil_json_builder_begin_object(struct anvil_json_builder *builder);
ANVIL_API int anvil_json_builder_end_object(struct anvil_json_builder *builder);

/** The key for the next value; only inside an object (else ANVIL_EINVAL). UTF-8 checked. */
ANVIL_API int anvil_json_builder_key(struct anvil_json_builder *builder, const char *key, size_t len);

ANVIL_API int anvil_json_builder_null(struct anvil_json_builder *builder);
ANVIL_API int anvil_json_builder_bool(struct anvil_json_builder *builder, bool b);
ANVIL_API int anvil_json_builder_int(struct anvil_json_builder *builder, int64_t i);
/** ANVIL_EVALUE for NaN and infinities. */
ANVIL_API int anvil_json_builder_double(struct anvil_json_builder *builder, double d);
/** Copies the bytes into the arena; ANVIL_EVALUE when they are not UTF-8. */
ANVIL_API int anvil_json_builder_string(struct anvil_json_builder *builder, const char *s, size_t len);

/**
 * Adds an existing value without copying it: the result shares `v`'s storage,
 * so `v` must live at least as long as the arena's result is used.
 */
ANVIL_API int anvil_json_builder_value(struct anvil_json_builder *builder, const struct anvil_json *v);

/**
 * Stores the finished value in `*out`. ANVIL_EINVAL when no value or an
 * unclosed container, or the sticky error of an earlier call.
 */
ANVIL_API int anvil_json_builder_finish(struct anvil_json_builder *builder, struct anvil_json *out);

ANVIL_EXTERN_C_END

#endif
