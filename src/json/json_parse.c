/*
 * The strict RFC 8259 parser. Iterative: containers in progress live on an
 * explicit frame stack, so nesting depth costs heap, never C stack. Each
 * depth has its own run of arena memory (a level), and a container's items
 * or members are written into its depth's level as they are read, where most
 * stay: only a container that outgrows its chunk is copied, once, when it
 * closes. The containers of one depth lie side by side in document order,
 * away from strings and from other depths (a walk over an answer's instances
 * reads them in one stream). Keys are interned per document.
 */

#include <stdarg.h>
#include <stdio.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "anvil/status.h"
#include "core/diag_origin.h"
#include "json/json_internal.h"

/*
 * One per depth, kept from container to container: the depth's level and the
 * open container at that depth.
 *
 * The level is a run of arena memory in chunks. The open container's items or
 * members are [start, cursor) and may grow to `limit`. A container that fits
 * in the level's current chunk is written there and stays: the next container
 * of this depth starts at its end. One that outgrows the chunk moves to the
 * parser's heap stack for the rest of its life and is copied into the level
 * when it closes, after the chunk's last container if it fits there, else
 * into a new chunk; meanwhile the chunk's cursor and limit are in
 * chunk_cursor and chunk_limit. So no chunk keeps a container's abandoned
 * copy: all a chunk leaves unused is its tail when the next container does
 * not fit (the parser's chunk_waste).
 *
 * Containers on the heap stack nest: one moves there only while it is the
 * innermost open container, above those of the containers around it, and it
 * has closed before they grow again. `heap_below` is the depth of the next
 * one down (or SIZE_MAX), for moving their pointers when the stack moves.
 */
struct s_frame {
    unsigned char *start;
    unsigned char *cursor;
    unsigned char *limit;
    unsigned char *chunk_cursor;
    unsigned char *chunk_limit;
    /* The level's current chunk, the bytes its earlier chunks hold, and the size of its next. */
    unsigned char *chunk_base;
    size_t level_bytes;
    size_t next_chunk;
    size_t heap_below;
    bool in_heap;
    /* With reject_duplicates: this object's first entry in the parser's key_offsets. */
    size_t key_offsets_start;
    /* Objects: the key of the last member. */
    const struct anvil_json_key *member_key;
    /*
     * Arrays: where the first key of the objects directly inside is predicted
     * and recorded (s_key_head): the `first` of the key whose value the array
     * is, else (NULL) `own_first` (not pointed to: the frames may move).
     */
    const struct anvil_json_key **first_key;
    const struct anvil_json_key *own_first;
    /* Objects: this object's number in opening order, and whether a key may repeat in it. */
    uint64_t serial;
    bool object;
    bool maybe_duplicate;
};

/*
 * A key record as the parser makes it has a head just before it.
 *
 * `stamp`: the object that last used the key, by serial. A key whose stamp is
 * at least the open object's serial was used in that object or in one nested
 * inside it (those are the only objects opened since that are closed again),
 * so a repeat is possible and only then are the members compared; otherwise
 * an object's keys are known to differ. JSON's objects rarely repeat a key.
 *
 * `next` and `first` predict keys. Objects of one shape (AWS answers) repeat
 * their keys in one order, so the key that followed this one last time
 * (`next`) is compared with the input's bytes before anything is scanned or
 * hashed. An object's first key is predicted from where the object is: the
 * first key of the last object that was the value of the same key (`first`),
 * directly or as an array's item. Only a plain key is predicted: one whose
 * bytes are its text between the quotes (the string scan's fast path:
 * printable ASCII, no quote, no backslash), so matching `"` + bytes + `"` in
 * the input is exactly reading that key.
 */
struct s_key_head {
    const struct anvil_json_key *next;
    const struct anvil_json_key *first;
    uint64_t stamp;
    uint32_t plain;
    /* Keys of up to 14 bytes: `"` + bytes + `"`, zero-padded, and the mask of its bytes (else 0). */
    uint32_t quoted_mask;
    unsigned char quoted[16];
};

static inline struct s_key_head *s_head(const struct anvil_json_key *key) {
    return (struct s_key_head *)(void *)((char *)(uintptr_t)key - sizeof(struct s_key_head));
}

static inline uint64_t *s_stamp(const struct anvil_json_key *key) {
    return &s_head(key)->stamp;
}

struct s_parser {
    const unsigned char *begin;
    const unsigned char *end;
    struct anvil_arena *arena;
    struct anvil_allocator *allocator;
    struct anvil_diag *diag;
    size_t max_depth;
    size_t max_string;
    bool reject_duplicates;
    bool replace_surrogates;
    bool scalar_only; /* anvil__json_scalar_only when the parse began */

    /* Containers that outgrew their chunks (struct s_frame); heap_top is the depth of the innermost (SIZE_MAX: none).
     */
    unsigned char *heap;
    size_t heap_cap, heap_top;
    /* With reject_duplicates: where each member of the open objects has its key, for the error. */
    size_t *key_offsets;
    size_t key_offset_len, key_offset_cap;
    /* Input consumed when the last container closed, arena use at the start, and chunk tails left unused: for the
     * block hint. */
    size_t progress;
    size_t chunk_waste;
    size_t used_at_start;
    struct s_frame *frames;
    size_t depth, frame_cap;
    /* Objects opened so far (the next object's serial is this + 1). */
    uint64_t objects;

    /* Intern table: open addressing over key records. */
    const struct anvil_json_key **keys;
    size_t key_mask, key_count;
    uint64_t hash_seed;
    /* Recently seen keys, by length and first and last byte: arrays of
     * similar objects repeat their keys, and a hit skips the hashing. */
    const struct anvil_json_key *recent[256];

    /* Unescaped string bytes when a string has escapes or non-ASCII. */
    unsigned char *scratch;
    size_t scratch_cap;
};

/* ---- errors ---- */

static void s_describe(const unsigned char *p, const unsigned char *end, char *out, size_t size) {
    if (p >= end) {
        snprintf(out, size, "end of input");
    } else if (*p >= 0x20 && *p < 0x7F) {
        snprintf(out, size, "'%c'", *p);
    } else {
        snprintf(out, size, "byte 0x%02X", *p);
    }
}

static int(s_error_at)(ANVIL__ORIGIN_DECL struct s_parser *ps, int code, const unsigned char *at, const char *fmt, ...)
    ANVIL_PRINTF(4 + ANVIL__ORIGIN_ARGC, 5 + ANVIL__ORIGIN_ARGC);
#define s_error_at(...) (s_error_at)(ANVIL__ORIGIN_HERE __VA_ARGS__)

static int(s_error_at)(ANVIL__ORIGIN_DECL struct s_parser *ps, int code, const unsigned char *at, const char *fmt,
                       ...) {
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset_at(ps->diag, code, (const char *)ps->begin, (size_t)(ps->end - ps->begin), (size_t)(at - ps->begin),
                       fmt, args);
    va_end(args);
    return ANVIL__ORIGIN_NOTE(ps->diag, code), code;
}

/* "expected X, found Y" at `at`, noting its caller's place. */
static int(s_unexpected)(ANVIL__ORIGIN_DECL struct s_parser *ps, const unsigned char *at, const char *expected) {
    char found[32];
    s_describe(at, ps->end, found, sizeof(found));
    char message[160];
    snprintf(message, sizeof(message), "expected %s, found %s", expected, found);
    return (s_error_at)(ANVIL__ORIGIN_PASS ps, ANVIL_ESYNTAX, at, "%s", message);
}
#define s_unexpected(...) (s_unexpected)(ANVIL__ORIGIN_HERE __VA_ARGS__)

static int s_nomem(struct s_parser *ps, const unsigned char *at) {
    if (anvil_arena_exhausted(ps->arena)) {
        return s_error_at(ps, ANVIL_ELIMIT, at, "document needs more memory than the arena's limit");
    }
    return s_error_at(ps, ANVIL_ENOMEM, at, "out of memory");
}

/* ---- growable scratch arrays ---- */

static int s_grow(struct s_parser *ps, void **array, size_t *cap, size_t elem, size_t need) {
    return anvil__mem_grow(ps->allocator, array, cap, elem, need) == ANVIL_OK ? ANVIL_OK : ANVIL_ENOMEM;
}

/* ---- levels (struct s_frame) ---- */

/*
 * A level's chunks: the first is small (most documents are small, and a
 * hostile nest 10,000 deep gets one per depth), each next one half as large
 * again as the last up to S_CHUNK_MAX; after that, s_new_chunk sizes them, up
 * to S_CHUNK_BIG. Either way a chunk is at most half what its level held
 * before it (past the first few), so the room a level leaves unused is at
 * most about half its data.
 */
#define S_CHUNK_FIRST ((size_t)64)
#define S_CHUNK_MAX ((size_t)64 << 10)
#define S_CHUNK_BIG ((size_t)4 << 20)

static inline size_t s_room(const struct s_frame *f) {
    return (size_t)((uintptr_t)f->limit - (uintptr_t)f->cursor); /* 0 before the level has a chunk */
}

static inline size_t s_used(const struct s_frame *f) {
    return (size_t)((uintptr_t)f->cursor - (uintptr_t)f->start);
}

/*
 * A new chunk of at least `need` bytes becomes the current one of the level
 * of `f` (not on the heap stack); the old one's tail is left unused. Past
 * S_CHUNK_MAX, a chunk is what the rest of the input will probably need at
 * this depth (the level's bytes per input byte read so far, times the input
 * left, and a twentieth more), at least S_CHUNK_MAX, but at most half what
 * the level already holds (however wrong the guess) and S_CHUNK_BIG. Large
 * chunks keep a depth's containers in long runs: a walk over a large answer
 * reads them as one stream (64 KiB chunks made the people filter of
 * bench/jmespath 1.4x slower than 1 MiB ones). When the arena's block has
 * less left than that but at least S_CHUNK_MAX, the chunk is that rest, which
 * would otherwise go unused when the arena moved to a new block. ANVIL_ENOMEM.
 */
static int s_new_chunk(struct s_parser *ps, struct s_frame *f, size_t need) {
    size_t held = f->level_bytes + (size_t)((uintptr_t)f->cursor - (uintptr_t)f->chunk_base);
    size_t size = f->next_chunk ? f->next_chunk : S_CHUNK_FIRST;
    if (size >= S_CHUNK_MAX) {
        size_t len = (size_t)(ps->end - ps->begin);
        double read = ps->progress ? (double)ps->progress : 1.0;
        double rest = (double)held / read * (double)(len - ps->progress) * 1.05;
        double most = held / 2 < S_CHUNK_BIG ? (double)(held / 2) : (double)S_CHUNK_BIG;
        size = rest > most ? (size_t)most : (size_t)rest;
        size = size < S_CHUNK_MAX ? S_CHUNK_MAX : size;
        const struct anvil_arena *arena = ps->arena;
        size_t rest_of_block = arena->cursor ? (size_t)((uintptr_t)arena->end - (uintptr_t)arena->cursor) : 0;
        if (rest_of_block < size && rest_of_block >= S_CHUNK_MAX + 8) {
            size = rest_of_block - 8; /* room for aligning the cursor */
        }
    }
    if (size < need) {
        size = need;
    }
    size &= ~(size_t)7;
    unsigned char *chunk = anvil__arena_bump(ps->arena, size, _Alignof(struct anvil_json_member));
    if (!chunk) {
        return ANVIL_ENOMEM;
    }
    ps->chunk_waste += s_room(f);
    f->level_bytes = held;
    f->chunk_base = chunk;
    f->cursor = chunk;
    f->limit = chunk + size;
    f->next_chunk = size < S_CHUNK_MAX ? size + size / 2 : S_CHUNK_MAX;
    return ANVIL_OK;
}

/* The heap stack grown to hold `need` bytes; the containers on it follow it. ANVIL_ENOMEM. */
static int s_heap_grow(struct s_parser *ps, size_t need) {
    uintptr_t was = (uintptr_t)ps->heap;
    if (s_grow(ps, (void **)&ps->heap, &ps->heap_cap, 1, need) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    for (size_t d = ps->heap_top; d != SIZE_MAX; d = ps->frames[d].heap_below) {
        struct s_frame *f = &ps->frames[d];
        f->start = ps->heap + ((uintptr_t)f->start - was);
        f->cursor = ps->heap + ((uintptr_t)f->cursor - was);
        f->limit = ps->heap + ps->heap_cap;
    }
    return ANVIL_OK;
}

/* Room for `need` more bytes in the open container of `f`, the innermost (see struct s_frame): ANVIL_ENOMEM. */
static int s_level_grow(struct s_parser *ps, struct s_frame *f, size_t need) {
    if (f->in_heap) {
        /* On top of the heap stack. */
        return s_heap_grow(ps, (size_t)(f->cursor - ps->heap) + need);
    }
    size_t used = s_used(f);
    if (!used) {
        /* Nothing written yet: the container starts in a new chunk. */
        int rc = s_new_chunk(ps, f, need);
        f->start = f->cursor;
        return rc;
    }
    /* It outgrew the chunk: onto the heap stack, and the level goes on where it was. */
    size_t base = ps->heap_top == SIZE_MAX ? 0 : (size_t)(ps->frames[ps->heap_top].cursor - ps->heap);
    if (base + used + need > ps->heap_cap && s_heap_grow(ps, base + used + need) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    memcpy(ps->heap + base, f->start, used);
    f->chunk_cursor = f->start;
    f->chunk_limit = f->limit;
    f->in_heap = true;
    f->heap_below = ps->heap_top;
    ps->heap_top = (size_t)(f - ps->frames);
    f->start = ps->heap + base;
    f->cursor = f->start + used;
    f->limit = ps->heap + ps->heap_cap;
    return ANVIL_OK;
}

/*
 * The closing container of `f` leaves the heap stack: its chunk comes back,
 * and the first `size` bytes of it are copied into the level (`*stored`, NULL
 * for none). ANVIL_ENOMEM.
 */
static int s_leave_heap(struct s_parser *ps, struct s_frame *f, size_t size, void **stored) {
    const unsigned char *from = f->start;
    f->cursor = f->chunk_cursor;
    f->limit = f->chunk_limit;
    f->in_heap = false;
    ps->heap_top = f->heap_below;
    int rc = ANVIL_OK;
    *stored = NULL;
    if (size) {
        if (s_room(f) < size) {
            rc = s_new_chunk(ps, f, size);
        }
        if (rc == ANVIL_OK) {
            memcpy(f->cursor, from, size);
            *stored = f->cursor;
            f->cursor += size;
        }
    }
    return rc;
}

static int s_push_member(struct s_parser *ps, struct s_frame *f, const struct anvil_json_key *key,
                         const unsigned char *key_at) {
    /* The record is the parser's own (s_intern): its stamp says whether the open object `f` may repeat it. */
    uint64_t *stamp = s_stamp(key);
    f->member_key = key;
    f->maybe_duplicate |= *stamp >= f->serial;
    *stamp = f->serial;
    if (ANVIL_UNLIKELY(s_room(f) < sizeof(struct anvil_json_member)) &&
        s_level_grow(ps, f, sizeof(struct anvil_json_member)) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    if (ps->reject_duplicates) {
        if (ps->key_offset_len == ps->key_offset_cap && s_grow(ps, (void **)&ps->key_offsets, &ps->key_offset_cap,
                                                               sizeof(size_t), ps->key_offset_len + 1) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        ps->key_offsets[ps->key_offset_len++] = (size_t)(key_at - ps->begin);
    }
    /* Its value is stored when read (nothing reads it before). */
    memcpy(f->cursor + offsetof(struct anvil_json_member, key), &key, sizeof(key));
    f->cursor += sizeof(struct anvil_json_member);
    return ANVIL_OK;
}

/* The member whose key was pushed last, in the open object of `f`. */
static inline struct anvil_json *s_last_value(const struct s_frame *f) {
    return (struct anvil_json *)(void *)(f->cursor - sizeof(struct anvil_json_member) +
                                         offsetof(struct anvil_json_member, value));
}

/*
 * Copies a value word by word: the value was just written as two 8-byte stores, and one 16-byte
 * load of it cannot be forwarded from them (a stall measured at a quarter of a parse).
 */
static inline void s_put(struct anvil_json *to, const struct anvil_json *from) {
    uint64_t words[2];
    memcpy(&words[0], &from->tag, 8);
    memcpy(&words[1], &from->u, 8);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(words[0]), "+r"(words[1])); /* kept as two words, not merged into one vector load */
#endif
    memcpy(&to->tag, &words[0], 8);
    memcpy(&to->u, &words[1], 8);
}

static inline int s_push_item(struct s_parser *ps, struct s_frame *f, struct anvil_json value) {
    if (ANVIL_UNLIKELY(s_room(f) < sizeof(struct anvil_json)) &&
        s_level_grow(ps, f, sizeof(struct anvil_json)) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    s_put((struct anvil_json *)(void *)f->cursor, &value);
    f->cursor += sizeof(struct anvil_json);
    return ANVIL_OK;
}

/*
 * The arena asks this when a block is full: the rest of the document will
 * probably need what the part already parsed needed per input byte.
 */
static size_t s_block_hint(void *ctx) {
    struct s_parser *ps = ctx;
    size_t len = (size_t)(ps->end - ps->begin);
    if (ps->progress < 4096 || ps->progress >= len) {
        return 0;
    }
    /* The parsed prefix needed what the arena handed out, less the room the
     * levels' chunks have or left unused, plus the open containers on the heap
     * (copied when they close); scale that to the whole, less what was handed
     * out. */
    double used = (double)(anvil_arena_bytes_used(ps->arena) - ps->used_at_start);
    double room = (double)ps->chunk_waste, pending = 0;
    for (size_t d = 0; d < ps->frame_cap; d++) {
        const struct s_frame *f = &ps->frames[d];
        if (f->in_heap) {
            pending += (double)s_used(f);
            room += (double)((uintptr_t)f->chunk_limit - (uintptr_t)f->chunk_cursor);
        } else {
            room += (double)s_room(f);
        }
    }
    double total = (used - room + pending) / (double)ps->progress * (double)len;
    double remaining = (total - used) * 1.05 + 16384.0;
    double most = (double)ANVIL_ARENA_MAX_BLOCK_SIZE * 16;
    return remaining < 16384.0 ? 16384 : remaining < most ? (size_t)remaining : (size_t)most;
}

/* ---- interning ---- */

static int s_intern_grow(struct s_parser *ps) {
    size_t cap = ps->keys ? (ps->key_mask + 1) * 2 : 256;
    const struct anvil_json_key **table = anvil_mem_calloc(ps->allocator, cap, sizeof(*table));
    if (!table) {
        return ANVIL_ENOMEM;
    }
    size_t mask = cap - 1;
    if (ps->keys) {
        for (size_t i = 0; i <= ps->key_mask; i++) {
            const struct anvil_json_key *k = ps->keys[i];
            if (k) {
                size_t slot = k->hash & mask;
                while (table[slot]) {
                    slot = (slot + 1) & mask;
                }
                table[slot] = k;
            }
        }
        anvil_mem_release(ps->allocator, ps->keys);
    }
    ps->keys = table;
    ps->key_mask = mask;
    return ANVIL_OK;
}

static inline size_t s_recent_slot(const unsigned char *bytes, size_t len) {
    return len ? (len * 31 + (size_t)bytes[0] * 7 + bytes[len - 1]) & 255 : 0;
}

/* The key record for `len` bytes (a new one not yet plain: the caller says, s_key_head). */
static const struct anvil_json_key *s_intern(struct s_parser *ps, const unsigned char *bytes, size_t len) {
    size_t recent = s_recent_slot(bytes, len);
    const struct anvil_json_key *hit = ps->recent[recent];
    if (hit && hit->len == len && anvil__json_bytes_eq(hit->bytes, bytes, len)) {
        return hit;
    }
    if (ANVIL_UNLIKELY(ps->key_count * 2 >= ps->key_mask)) {
        if (s_intern_grow(ps) != ANVIL_OK) {
            return NULL;
        }
    }
    uint32_t hash = anvil__json_hash_with(ps->hash_seed, (const char *)bytes, len);
    size_t slot = hash & ps->key_mask;
    for (;;) {
        const struct anvil_json_key *k = ps->keys[slot];
        if (!k) {
            break;
        }
        if (k->hash == hash && k->len == len && anvil__json_bytes_eq(k->bytes, bytes, len)) {
            ps->recent[recent] = k;
            return k;
        }
        slot = (slot + 1) & ps->key_mask;
    }
    /* The head, then the record (8-byte aligned, as a record needs at most). */
    struct s_key_head *head = anvil__arena_bump(
        ps->arena, sizeof(struct s_key_head) + sizeof(struct anvil_json_key) + len + 1, _Alignof(struct s_key_head));
    if (!head) {
        return NULL;
    }
    *head = (struct s_key_head){0};
    if (len + 2 <= sizeof(head->quoted)) {
        head->quoted[0] = '"';
        if (len) {
            memcpy(head->quoted + 1, bytes, len);
        }
        head->quoted[len + 1] = '"';
        head->quoted_mask = (UINT32_C(1) << (len + 2)) - 1;
    }
    const struct anvil_json_key *k = anvil__json_key_init(head + 1, (const char *)bytes, len, hash);
    ps->keys[slot] = k;
    ps->key_count++;
    ps->recent[recent] = k;
    return k;
}

/* ---- white space ---- */

static const unsigned char s_is_ws[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

/*
 * No byte above ' ' is white space, so the common cases cost a compare or
 * two: none at all (compact JSON, as services send it) and one space (after
 * ',' and ':' in printed JSON).
 */
static inline const unsigned char *s_skip_ws(const unsigned char *p, const unsigned char *end) {
    if (ANVIL_LIKELY(p != end && *p > ' ')) {
        return p;
    }
    if (end - p >= 2 && *p == ' ' && p[1] > ' ') {
        return p + 1;
    }
    while (p < end && s_is_ws[*p]) {
        p++;
    }
    return p;
}

/*
 * Past `c` (',' or ':') at `p` and the white space after it, in the forms
 * that cover nearly all JSON (no white space, or one space, then a byte that
 * is not white space); NULL for anything else, which the caller then reads
 * the general way.
 */
static inline const unsigned char *s_past(const unsigned char *p, const unsigned char *end, unsigned char c) {
    if (ANVIL_LIKELY(end - p >= 3 && p[0] == c)) {
        if (p[1] > ' ') {
            return p + 1;
        }
        if (p[1] == ' ' && p[2] > ' ') {
            return p + 2;
        }
    }
    return NULL;
}

/* ---- strings ---- */

/* Bytes that end the fast scan: '"', '\\', controls and non-ASCII. */
static const unsigned char s_string_stop[256] = {
    [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1, [0x07] = 1, [0x08] = 1,
    [0x09] = 1, [0x0A] = 1, [0x0B] = 1, [0x0C] = 1, [0x0D] = 1, [0x0E] = 1, [0x0F] = 1, [0x10] = 1, [0x11] = 1,
    [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1A] = 1,
    [0x1B] = 1, [0x1C] = 1, [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, ['"'] = 1,  ['\\'] = 1, [0x80] = 1, [0x81] = 1,
    [0x82] = 1, [0x83] = 1, [0x84] = 1, [0x85] = 1, [0x86] = 1, [0x87] = 1, [0x88] = 1, [0x89] = 1, [0x8A] = 1,
    [0x8B] = 1, [0x8C] = 1, [0x8D] = 1, [0x8E] = 1, [0x8F] = 1, [0x90] = 1, [0x91] = 1, [0x92] = 1, [0x93] = 1,
    [0x94] = 1, [0x95] = 1, [0x96] = 1, [0x97] = 1, [0x98] = 1, [0x99] = 1, [0x9A] = 1, [0x9B] = 1, [0x9C] = 1,
    [0x9D] = 1, [0x9E] = 1, [0x9F] = 1, [0xA0] = 1, [0xA1] = 1, [0xA2] = 1, [0xA3] = 1, [0xA4] = 1, [0xA5] = 1,
    [0xA6] = 1, [0xA7] = 1, [0xA8] = 1, [0xA9] = 1, [0xAA] = 1, [0xAB] = 1, [0xAC] = 1, [0xAD] = 1, [0xAE] = 1,
    [0xAF] = 1, [0xB0] = 1, [0xB1] = 1, [0xB2] = 1, [0xB3] = 1, [0xB4] = 1, [0xB5] = 1, [0xB6] = 1, [0xB7] = 1,
    [0xB8] = 1, [0xB9] = 1, [0xBA] = 1, [0xBB] = 1, [0xBC] = 1, [0xBD] = 1, [0xBE] = 1, [0xBF] = 1, [0xC0] = 1,
    [0xC1] = 1, [0xC2] = 1, [0xC3] = 1, [0xC4] = 1, [0xC5] = 1, [0xC6] = 1, [0xC7] = 1, [0xC8] = 1, [0xC9] = 1,
    [0xCA] = 1, [0xCB] = 1, [0xCC] = 1, [0xCD] = 1, [0xCE] = 1, [0xCF] = 1, [0xD0] = 1, [0xD1] = 1, [0xD2] = 1,
    [0xD3] = 1, [0xD4] = 1, [0xD5] = 1, [0xD6] = 1, [0xD7] = 1, [0xD8] = 1, [0xD9] = 1, [0xDA] = 1, [0xDB] = 1,
    [0xDC] = 1, [0xDD] = 1, [0xDE] = 1, [0xDF] = 1, [0xE0] = 1, [0xE1] = 1, [0xE2] = 1, [0xE3] = 1, [0xE4] = 1,
    [0xE5] = 1, [0xE6] = 1, [0xE7] = 1, [0xE8] = 1, [0xE9] = 1, [0xEA] = 1, [0xEB] = 1, [0xEC] = 1, [0xED] = 1,
    [0xEE] = 1, [0xEF] = 1, [0xF0] = 1, [0xF1] = 1, [0xF2] = 1, [0xF3] = 1, [0xF4] = 1, [0xF5] = 1, [0xF6] = 1,
    [0xF7] = 1, [0xF8] = 1, [0xF9] = 1, [0xFA] = 1, [0xFB] = 1, [0xFC] = 1, [0xFD] = 1, [0xFE] = 1, [0xFF] = 1,
};

_Atomic bool anvil__json_scalar_only = false;

#define S_ONES UINT64_C(0x0101010101010101)
#define S_HIGHS UINT64_C(0x8080808080808080)

/*
 * Skips bytes that need no attention, sixteen at a time with SSE2 (every
 * x86-64 has it): a signed compare below 0x20 catches the controls and every
 * byte from 0x80 at once.
 */
#ifdef __SSE2__
/* The stops among the 16 bytes at `q`, a bit each, and in `*quotes` which of them are '"'. */
static inline unsigned s_stops16(const unsigned char *q, unsigned *quotes) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
    *quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    return *quotes | (unsigned)_mm_movemask_epi8(
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))));
}

static inline const unsigned char *s_scan_plain_sse2(const unsigned char *q, const unsigned char *end) {
    while (end - q >= 16) {
        unsigned quotes;
        unsigned mask = s_stops16(q, &quotes);
        if (mask) {
            return q + __builtin_ctz(mask);
        }
        q += 16;
    }
    return q;
}
#endif

/*
 * Skips bytes that need no attention, eight at a time, then one at a time. In
 * a word's mask the lowest flagged byte is exact (no borrow reaches it from
 * below: every byte under it passed), so on a little-endian machine it is the
 * stop itself; the bytes above it may be flagged falsely and are not used.
 */
static inline const unsigned char *s_scan_plain(const unsigned char *q, const unsigned char *end, bool scalar_only) {
#ifdef __SSE2__
    if (ANVIL_LIKELY(!scalar_only)) {
        q = s_scan_plain_sse2(q, end);
        if (q < end && s_string_stop[*q]) {
            return q; /* found; else fewer than 16 bytes are left for the loops below */
        }
    }
#endif
    while (end - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        uint64_t quote = w ^ (S_ONES * '"');
        uint64_t slash = w ^ (S_ONES * '\\');
        uint64_t stop = (((quote - S_ONES) & ~quote) | ((slash - S_ONES) & ~slash) | (w - S_ONES * 0x20) | w) & S_HIGHS;
        if (stop) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            return q + (__builtin_ctzll(stop) >> 3);
#else
            break;
#endif
        }
        q += 8;
    }
    while (q < end && !s_string_stop[*q]) {
        q++;
    }
    return q;
}

static int s_hex4(const unsigned char *p, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        uint32_t d;
        if (c >= '0' && c <= '9') {
            d = (uint32_t)(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            d = (uint32_t)(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
            d = (uint32_t)(c - 'A' + 10);
        } else {
            return i;
        }
        v = v * 16 + d;
    }
    *out = v;
    return 4;
}

static size_t s_put_utf8(unsigned char *out, uint32_t cp) {
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads \uXXXX at `p` (pointing at the backslash); 0 on success. */
static int s_read_u_escape(struct s_parser *ps, const unsigned char *p, uint32_t *cp) {
    if (ps->end - p < 6) {
        return s_error_at(ps, ANVIL_ESYNTAX, p, "incomplete \\u escape");
    }
    int ok = s_hex4(p + 2, cp);
    if (ok != 4) {
        return s_error_at(ps, ANVIL_ESYNTAX, p + 2 + ok, "\\u must be followed by four hex digits");
    }
    return ANVIL_OK;
}

/*
 * The slow path for a string with escapes or non-ASCII bytes: decodes from
 * `from` (inside the string) into the scratch buffer, which already holds
 * `have` bytes. On success `*q` points past the closing quote.
 */
static int s_string_slow(struct s_parser *ps, const unsigned char *from, size_t have, const unsigned char **q_out,
                         size_t *len_out) {
    const unsigned char *q = from;
    const unsigned char *end = ps->end;
    size_t len = have;
    for (;;) {
        const unsigned char *plain = s_scan_plain(q, end, ps->scalar_only);
        size_t run = (size_t)(plain - q);
        /* Room for the run and for one escape's output (at most 4 bytes). */
        if (len + run + 4 > ps->scratch_cap &&
            s_grow(ps, (void **)&ps->scratch, &ps->scratch_cap, 1, len + run + 4) != ANVIL_OK) {
            return s_nomem(ps, q);
        }
        if (run) {
            memcpy(ps->scratch + len, q, run);
        }
        len += run;
        q = plain;
        if (len > ps->max_string) {
            return s_error_at(ps, ANVIL_ELIMIT, q, "string longer than the limit");
        }
        if (q >= end) {
            return s_error_at(ps, ANVIL_ESYNTAX, q, "unterminated string");
        }
        unsigned char c = *q;
        if (c == '"') {
            *q_out = q + 1;
            *len_out = len;
            return ANVIL_OK;
        }
        if (c >= 0x80) {
            size_t n = anvil__utf8_sequence(q, end);
            if (n == 0) {
                char byte[16];
                snprintf(byte, sizeof(byte), "0x%02X", c);
                return s_error_at(ps, ANVIL_ESYNTAX, q, "invalid UTF-8 (byte %s)", byte);
            }
            memcpy(ps->scratch + len, q, n);
            len += n;
            q += n;
            continue;
        }
        if (c < 0x20) {
            char byte[16];
            snprintf(byte, sizeof(byte), "U+%04X", c);
            return s_error_at(ps, ANVIL_ESYNTAX, q, "control character %s must be escaped in a string", byte);
        }
        /* A backslash. */
        if (end - q < 2) {
            return s_error_at(ps, ANVIL_ESYNTAX, q, "unterminated string");
        }
        unsigned char e = q[1];
        unsigned char simple = 0;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            simple = e;
            break;
        case 'b':
            simple = '\b';
            break;
        case 'f':
            simple = '\f';
            break;
        case 'n':
            simple = '\n';
            break;
        case 'r':
            simple = '\r';
            break;
        case 't':
            simple = '\t';
            break;
        case 'u':
            break;
        default: {
            char what[32];
            s_describe(q + 1, end, what, sizeof(what));
            return s_error_at(ps, ANVIL_ESYNTAX, q, "invalid escape: backslash followed by %s", what);
        }
        }
        if (e != 'u') {
            ps->scratch[len++] = simple;
            q += 2;
            continue;
        }
        uint32_t cp = 0;
        int rc = s_read_u_escape(ps, q, &cp);
        if (rc != ANVIL_OK) {
            return rc;
        }
        const unsigned char *escape_at = q;
        q += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low = 0;
            if (end - q >= 6 && q[0] == '\\' && q[1] == 'u' && s_hex4(q + 2, &low) == 4 && low >= 0xDC00 &&
                low <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                q += 6;
            } else if (ps->replace_surrogates) {
                cp = 0xFFFD;
            } else {
                return s_error_at(ps, ANVIL_ESYNTAX, escape_at,
                                  "high surrogate \\u escape not followed by a low surrogate");
            }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            if (!ps->replace_surrogates) {
                return s_error_at(ps, ANVIL_ESYNTAX, escape_at, "low surrogate \\u escape without a high one");
            }
            cp = 0xFFFD;
        }
        len += s_put_utf8(ps->scratch + len, cp);
    }
}

/* The string from `start` to its closing quote at `q`, all of it plain input (s_string). */
static inline int s_plain_string(struct s_parser *ps, const unsigned char *start, const unsigned char *q,
                                 const unsigned char **pp, const unsigned char **bytes, size_t *len) {
    *len = (size_t)(q - start);
    if (ANVIL_UNLIKELY(*len > ps->max_string)) {
        return s_error_at(ps, ANVIL_ELIMIT, start, "string longer than the limit");
    }
    *bytes = start;
    *pp = q + 1;
    return ANVIL_OK;
}

/*
 * Parses the string whose opening quote is at `*pp`. On success `*bytes` and
 * `*len` give its decoded bytes (in the input when it had no escapes and no
 * non-ASCII, else in scratch) and `*pp` points past the closing quote.
 */
static inline int s_string(struct s_parser *ps, const unsigned char **pp, const unsigned char **bytes, size_t *len) {
    const unsigned char *start = *pp + 1;
#ifdef __SSE2__
    /* Most strings end within 16 bytes, plain: one load, and its first stop is the closing quote. */
    if (ANVIL_LIKELY(ps->end - start >= 16 && !ps->scalar_only)) {
        unsigned quotes;
        unsigned stop = s_stops16(start, &quotes);
        if (ANVIL_LIKELY(stop & quotes & (0u - stop))) {
            return s_plain_string(ps, start, start + __builtin_ctz(stop), pp, bytes, len);
        }
    }
#endif
    const unsigned char *q = s_scan_plain(start, ps->end, ps->scalar_only);
    if (ANVIL_LIKELY(q < ps->end && *q == '"')) {
        return s_plain_string(ps, start, q, pp, bytes, len);
    }
    size_t have = (size_t)(q - start);
    if (have > ps->scratch_cap && s_grow(ps, (void **)&ps->scratch, &ps->scratch_cap, 1, have) != ANVIL_OK) {
        return s_nomem(ps, start);
    }
    if (have) {
        memcpy(ps->scratch, start, have);
    }
    int rc = s_string_slow(ps, q, have, pp, len);
    *bytes = ps->scratch;
    return rc;
}

/*
 * A string value of the bytes s_string() gave. One of up to 7 bytes read
 * straight from the input is one 8-byte load, masked to its length, when 8
 * bytes are there to read (never past the input's end): building the word
 * from a copy of `len` bytes into a stack word and reading it back stalled on
 * store forwarding, a third of parsing a document of short strings.
 */
static inline int s_string_value(struct s_parser *ps, const unsigned char *bytes, size_t len, struct anvil_json *out) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len < sizeof(out->u) && bytes != ps->scratch && (size_t)(ps->end - bytes) >= sizeof(out->u)) {
        uint64_t word;
        memcpy(&word, bytes, sizeof(word));
        word &= len ? ~UINT64_C(0) >> (64 - 8 * len) : 0; /* the bytes after the string are not its */
        out->tag = ANVIL_JSON__INLINE_STRING_TAG(len);
        memcpy(&out->u, &word, sizeof(word));
        return ANVIL_OK;
    }
#endif
    return anvil__json_string_value(ps->arena, (const char *)bytes, len, out);
}

/* ---- numbers ---- */

static const double s_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static inline bool s_digit(unsigned char c) {
    return (unsigned char)(c - '0') < 10;
}

static int s_number(struct s_parser *ps, const unsigned char **pp, struct anvil_json *out) {
    const unsigned char *start = *pp;
    const unsigned char *p = start;
    const unsigned char *end = ps->end;
    bool negative = false;
    if (*p == '-') {
        negative = true;
        p++;
    }
    if (p >= end || !s_digit(*p)) {
        return s_unexpected(ps, p, "a digit");
    }
    uint64_t mantissa = 0;
    int digits = 0;       /* significant digits kept in mantissa */
    int dropped = 0;      /* integer digits that did not fit */
    bool inexact = false; /* a non-zero digit was dropped */
    if (*p == '0') {
        p++;
        if (p < end && s_digit(*p)) {
            return s_error_at(ps, ANVIL_ESYNTAX, p - 1, "leading zeros are not allowed in numbers");
        }
    } else {
        do {
            if (digits < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*p - '0');
                digits += mantissa != 0;
            } else {
                dropped++;
                inexact |= *p != '0';
            }
            p++;
        } while (p < end && s_digit(*p));
    }
    bool integer = true;
    int64_t exp10 = dropped;
    if (p < end && *p == '.') {
        integer = false;
        p++;
        if (p >= end || !s_digit(*p)) {
            return s_unexpected(ps, p, "a digit after the decimal point");
        }
        do {
            if (digits < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*p - '0');
                digits += mantissa != 0;
                exp10--;
            } else {
                inexact |= *p != '0';
            }
            p++;
        } while (p < end && s_digit(*p));
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        integer = false;
        p++;
        bool exp_negative = false;
        if (p < end && (*p == '+' || *p == '-')) {
            exp_negative = *p == '-';
            p++;
        }
        if (p >= end || !s_digit(*p)) {
            return s_unexpected(ps, p, "a digit in the exponent");
        }
        int64_t e = 0;
        do {
            if (e < 1000000) {
                e = e * 10 + (*p - '0');
            }
            p++;
        } while (p < end && s_digit(*p));
        exp10 += exp_negative ? -e : e;
    }
    *pp = p;
    if (integer && dropped == 0) {
        if (!negative && mantissa <= (uint64_t)INT64_MAX) {
            *out = anvil_json_make_int((int64_t)mantissa);
            return ANVIL_OK;
        }
        if (negative && mantissa <= (uint64_t)INT64_MAX + 1) {
            *out = anvil_json_make_int(mantissa == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mantissa);
            return ANVIL_OK;
        }
    }
    double d;
    if (!inexact && mantissa <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
        /* Clinger's fast path: both operands exact, so one correctly rounded operation. */
        d = (double)mantissa;
        d = exp10 < 0 ? d / s_pow10[-exp10] : d * s_pow10[exp10];
        d = negative ? -d : d;
    } else if (mantissa == 0 && !inexact) {
        d = negative ? -0.0 : 0.0;
    } else {
        int rc = anvil__json_strtod(ps->allocator, (const char *)start, (size_t)(p - start), &d);
        if (rc == ANVIL_ENOMEM) {
            return s_nomem(ps, start);
        }
        if (rc != ANVIL_OK) {
            return s_error_at(ps, ANVIL_ESYNTAX, start, "number is too large for a double");
        }
    }
    *out = anvil_json_make_double(d);
    return ANVIL_OK;
}

/* ---- containers ---- */

static int s_open_slow(struct s_parser *ps, const unsigned char *at) {
    if (ps->depth >= ps->max_depth) {
        char limit[32];
        snprintf(limit, sizeof(limit), "%zu", ps->max_depth);
        return s_error_at(ps, ANVIL_ELIMIT, at, "nesting deeper than the limit of %s", limit);
    }
    size_t cap = ps->frame_cap;
    if (s_grow(ps, (void **)&ps->frames, &ps->frame_cap, sizeof(*ps->frames), ps->depth + 1) != ANVIL_OK) {
        return s_nomem(ps, at);
    }
    memset(ps->frames + cap, 0, (ps->frame_cap - cap) * sizeof(*ps->frames)); /* levels without chunks */
    return ANVIL_OK;
}

/* Opens a container at `at`; `*top` becomes its frame (the frames may move). */
static inline int s_open(struct s_parser *ps, const unsigned char *at, bool object, struct s_frame **top) {
    int rc;
    if (ANVIL_UNLIKELY(ps->depth >= ps->max_depth || ps->depth == ps->frame_cap) &&
        (rc = s_open_slow(ps, at)) != ANVIL_OK) {
        return rc;
    }
    struct s_frame *f = &ps->frames[ps->depth++];
    f->start = f->cursor;
    f->key_offsets_start = ps->key_offset_len;
    f->own_first = NULL;
    if (!object) {
        struct s_frame *outer = f != ps->frames ? f - 1 : NULL;
        f->first_key = outer && outer->object ? &s_head(outer->member_key)->first : NULL;
    }
    f->object = object;
    f->serial = object ? ++ps->objects : 0;
    f->maybe_duplicate = false;
    *top = f;
    return ANVIL_OK;
}

/* Closes the container of frame `*top`, which becomes the one around it (NULL at the top level). */
static inline int s_close(struct s_parser *ps, const unsigned char *at, struct anvil_json *out, struct s_frame **top) {
    struct s_frame *f = *top;
    int rc = ANVIL_OK;
    ps->progress = (size_t)(at - ps->begin);
    /* The bytes that stay in the level, and whether the container went elsewhere (an object with its index). */
    size_t size = s_used(f);
    bool apart = false;
    if (f->object) {
        size_t count = size / sizeof(struct anvil_json_member);
        if (ANVIL_UNLIKELY(f->maybe_duplicate || count >= ANVIL_JSON_INDEX_MIN)) {
            size_t dup = 0;
            if (count >= ANVIL_JSON_INDEX_MIN) {
                rc = anvil__json_object_finish(ps->arena, (struct anvil_json_member *)(void *)f->start, count,
                                               ps->reject_duplicates, &dup, out);
                apart = true;
                size = 0;
            } else {
                rc = anvil__json_object_in_place((struct anvil_json_member *)(void *)f->start, count,
                                                 ps->reject_duplicates, &dup, out);
                size = anvil_json_len(out) * sizeof(struct anvil_json_member);
            }
            if (rc == ANVIL_ESYNTAX) {
                return s_error_at(ps, ANVIL_ESYNTAX, ps->begin + ps->key_offsets[f->key_offsets_start + dup],
                                  "duplicate key in object");
            }
        }
        ps->key_offset_len = f->key_offsets_start;
    }
    void *stored = size ? f->start : NULL; /* an empty container has no storage */
    if (rc == ANVIL_OK) {
        if (ANVIL_UNLIKELY(f->in_heap)) {
            rc = s_leave_heap(ps, f, size, &stored);
        } else {
            f->cursor = size ? f->start + size : f->start; /* what an index or a repeat left is the next one's */
        }
    }
    if (rc != ANVIL_OK) {
        return rc == ANVIL_ENOMEM || rc == ANVIL_ELIMIT ? s_nomem(ps, at) : rc;
    }
    if (!apart) {
        *out = f->object ? anvil__json_container(ANVIL_JSON_OBJECT, size / sizeof(struct anvil_json_member), stored)
                         : anvil__json_container(ANVIL_JSON_ARRAY, size / sizeof(struct anvil_json), stored);
    }
    ps->depth--;
    *top = ps->depth ? f - 1 : NULL;
    return ANVIL_OK;
}

/* ---- the main loop ---- */

/* `word` (true, false or null) at `*pp`: its last four bytes compared as one word (the first is already known). */
static inline int s_literal(struct s_parser *ps, const unsigned char **pp, const char *word, size_t len) {
    const unsigned char *p = *pp;
    uint32_t have = 0, want = 1; /* unequal when fewer than `len` bytes are left */
    if ((size_t)(ps->end - p) >= len) {
        memcpy(&have, p + len - 4, 4);
        memcpy(&want, word + len - 4, 4);
    }
    if (have != want) {
        return s_unexpected(ps, p, "a value");
    }
    *pp = p + len;
    return ANVIL_OK;
}

/* Whether the input at `p` (a quote) is the key `key` with its quotes: one compare for a short key. */
static inline bool s_is_key(const struct anvil_json_key *key, const unsigned char *p, const unsigned char *end) {
#ifdef __SSE2__
    const struct s_key_head *h = s_head(key);
    if (ANVIL_LIKELY(h->quoted_mask != 0 && end - p >= 16)) {
        __m128i have = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i want = _mm_loadu_si128((const __m128i *)(const void *)h->quoted);
        unsigned same = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(have, want));
        return (same & h->quoted_mask) == h->quoted_mask;
    }
#endif
    return (size_t)(end - p) >= key->len + 2 && p[key->len + 1] == '"' &&
           anvil__json_bytes_eq(p + 1, key->bytes, key->len);
}

static int s_parse(struct s_parser *ps, struct anvil_json *root) {
    const unsigned char *p = ps->begin;
    const unsigned char *end = ps->end;
    struct anvil_json v;
    int rc;
    /* The innermost open container (NULL at the top level), in a register: a value stored may alias *ps. */
    struct s_frame *top = NULL;
    /* Where the key being read was predicted (s_key_head), and the input past a separator. */
    const struct anvil_json_key **slot = NULL;
    const unsigned char *next = NULL;

    /* RFC 8259 section 8.1: a parser MAY ignore a byte order mark. */
    if (end - p >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        p += 3;
    }
    p = s_skip_ws(p, end);
    if (p == end) {
        return s_error_at(ps, ANVIL_ESYNTAX, p, "empty document: expected a JSON value");
    }
    if ((end - p >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) ||
        (end - p >= 2 && (p[0] == 0 || p[1] == 0))) {
        return s_error_at(ps, ANVIL_ESYNTAX, p, "input looks like UTF-16; JSON text must be UTF-8");
    }

value: /* white space already skipped */
    if (p >= end) {
        return s_unexpected(ps, p, "a value");
    }
    switch (*p) {
    case '{':
        if ((rc = s_open(ps, p, true, &top)) != ANVIL_OK) {
            return rc;
        }
        p = s_skip_ws(p + 1, end);
        if (p < end && *p == '}') {
            goto close;
        }
        goto key_first;
    case '[':
        if ((rc = s_open(ps, p, false, &top)) != ANVIL_OK) {
            return rc;
        }
        p = s_skip_ws(p + 1, end);
        if (p < end && *p == ']') {
            goto close;
        }
        goto value;
    case '"': {
        const unsigned char *bytes = NULL;
        size_t len = 0;
        const unsigned char *at = p;
        if ((rc = s_string(ps, &p, &bytes, &len)) != ANVIL_OK) {
            return rc;
        }
        if ((rc = s_string_value(ps, bytes, len, &v)) != ANVIL_OK) {
            return s_nomem(ps, at);
        }
        goto have_value;
    }
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        if ((rc = s_number(ps, &p, &v)) != ANVIL_OK) {
            return rc;
        }
        goto have_value;
    case 't':
        if ((rc = s_literal(ps, &p, "true", 4)) != ANVIL_OK) {
            return rc;
        }
        v = anvil_json_make_bool(true);
        goto have_value;
    case 'f':
        if ((rc = s_literal(ps, &p, "false", 5)) != ANVIL_OK) {
            return rc;
        }
        v = anvil_json_make_bool(false);
        goto have_value;
    case 'n':
        if ((rc = s_literal(ps, &p, "null", 4)) != ANVIL_OK) {
            return rc;
        }
        v = anvil_json_make_null();
        goto have_value;
    case ']':
        if (top && !top->object && top->cursor != top->start) {
            return s_error_at(ps, ANVIL_ESYNTAX, p, "trailing comma before ']'");
        }
        return s_unexpected(ps, p, "a value");
    default:
        return s_unexpected(ps, p, "a value");
    }

key_first: /* the object's first key: predicted from the first key of the last object beside it */
    if (top == ps->frames) {
        slot = NULL;
    } else {
        struct s_frame *outer = top - 1;
        slot = outer->object      ? &s_head(outer->member_key)->first
               : outer->first_key ? outer->first_key
                                  : &outer->own_first;
    }
    goto key;
key_next: /* predicted from the key after the previous one last time */
    slot = &s_head(top->member_key)->next;
key:
    if (p >= end || *p != '"') {
        if (p < end && *p == '}') {
            return s_error_at(ps, ANVIL_ESYNTAX, p, "trailing comma before '}'");
        }
        return s_unexpected(ps, p, "a string key");
    }
    {
        const unsigned char *at = p;
        const struct anvil_json_key *key = slot ? *slot : NULL;
        if (ANVIL_UNLIKELY(ps->scalar_only)) {
            key = NULL; /* the tests' plain way: every key scanned */
        }
        /* The predicted key, when the input holds exactly its text (s_key_head). */
        if (key && s_is_key(key, p, end)) {
            p += key->len + 2;
        } else {
            const unsigned char *bytes = NULL;
            size_t len = 0;
            if ((rc = s_string(ps, &p, &bytes, &len)) != ANVIL_OK) {
                return rc;
            }
            key = s_intern(ps, bytes, len);
            if (!key) {
                return s_nomem(ps, at);
            }
            if (bytes != ps->scratch && !s_head(key)->plain) {
                s_head(key)->plain = 1; /* read straight from the input (also when first made from an escaped text) */
            }
            /* What comes next time: this key, if the input can be matched against it. */
            const struct anvil_json_key *want = s_head(key)->plain ? key : NULL;
            if (slot && *slot != want) {
                *slot = want;
            }
        }
        if (s_push_member(ps, top, key, at) != ANVIL_OK) {
            return s_nomem(ps, at);
        }
    }
    if ((next = s_past(p, end, ':')) != NULL) {
        p = next;
        goto value;
    }
    p = s_skip_ws(p, end);
    if (p >= end || *p != ':') {
        return s_unexpected(ps, p, "':' after the key");
    }
    p = s_skip_ws(p + 1, end);
    goto value;

have_value:
    if (!top) {
        *root = v;
        p = s_skip_ws(p, end);
        if (p != end) {
            return s_error_at(ps, ANVIL_ESYNTAX, p, "unexpected data after the JSON value");
        }
        return ANVIL_OK;
    }
    if (top->object) {
        s_put(s_last_value(top), &v);
        if ((next = s_past(p, end, ',')) != NULL) {
            p = next;
            goto key_next;
        }
        p = s_skip_ws(p, end);
        if (p < end && *p == ',') {
            p = s_skip_ws(p + 1, end);
            goto key_next;
        }
        if (p < end && *p == '}') {
            goto close;
        }
        return s_unexpected(ps, p, "',' or '}' after an object member");
    }
    if (s_push_item(ps, top, v) != ANVIL_OK) {
        return s_nomem(ps, p);
    }
    if ((next = s_past(p, end, ',')) != NULL) {
        p = next;
        goto value;
    }
    p = s_skip_ws(p, end);
    if (p < end && *p == ',') {
        p = s_skip_ws(p + 1, end);
        goto value;
    }
    if (p < end && *p == ']') {
        goto close;
    }
    return s_unexpected(ps, p, "',' or ']' after an array item");

close: /* at the '}' or ']' of the container of `top`: one place, so s_close is inlined once */
    if ((rc = s_close(ps, p, &v, &top)) != ANVIL_OK) {
        return rc;
    }
    p++;
    goto have_value;
}

static void s_release(struct s_parser *ps) {
    anvil_mem_release(ps->allocator, ps->heap);
    anvil_mem_release(ps->allocator, ps->key_offsets);
    anvil_mem_release(ps->allocator, ps->frames);
    anvil_mem_release(ps->allocator, ps->keys);
    anvil_mem_release(ps->allocator, ps->scratch);
}

int anvil_json_parse_into(struct anvil_arena *arena, struct anvil_allocator *allocator, const char *text, size_t len,
                          const struct anvil_json_parse_options *options, struct anvil_json *out,
                          struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!arena || !out || (!text && len > 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    struct anvil_json_parse_options o = options ? *options : (struct anvil_json_parse_options){0};
    size_t max_depth = o.max_depth ? o.max_depth : ANVIL_JSON_DEFAULT_MAX_DEPTH;
    size_t max_document = o.max_document_bytes ? o.max_document_bytes : ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES;
    size_t max_string = o.max_string_bytes ? o.max_string_bytes : ANVIL_JSON_DEFAULT_MAX_STRING_BYTES;
    if (max_depth > ANVIL_JSON_MAX_DEPTH) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "max_depth %zu is above the most anvil supports (%d)",
                              max_depth, ANVIL_JSON_MAX_DEPTH);
    }
    if (max_string > UINT32_MAX - 1) {
        max_string = UINT32_MAX - 1;
    }
    if (len > max_document) {
        return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "document of %zu bytes is larger than the limit of %zu", len,
                              max_document);
    }
    struct s_parser ps = {0};
    ps.begin = (const unsigned char *)(text ? text : "");
    ps.end = ps.begin + len;
    ps.arena = arena;
    ps.allocator = allocator;
    ps.diag = diag;
    ps.max_depth = max_depth;
    ps.max_string = max_string;
    ps.reject_duplicates = o.duplicates == ANVIL_JSON_DUPLICATES_REJECT;
    ps.replace_surrogates = o.surrogates == ANVIL_JSON_SURROGATES_REPLACE;
    ps.used_at_start = anvil_arena_bytes_used(arena);
    ps.hash_seed = anvil__json_hash_seed();
    ps.heap_top = SIZE_MAX;
    ps.scalar_only = atomic_load_explicit(&anvil__json_scalar_only, memory_order_relaxed);
    /* Only the parser's own arena gets the hint; a caller's arena keeps its rules. */
    bool hinted = !arena->hint;
    if (hinted) {
        arena->hint = s_block_hint;
        arena->hint_ctx = &ps;
    }
    struct anvil_json root;
    int rc = s_parse(&ps, &root);
    if (hinted) {
        arena->hint = NULL;
        arena->hint_ctx = NULL;
    }
    s_release(&ps);
    if (rc == ANVIL_OK) {
        *out = root;
    }
    return rc;
}

struct anvil_json_doc {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;
    struct anvil_json root;
};

int anvil_json_parse(struct anvil_allocator *allocator, const char *text, size_t len,
                     const struct anvil_json_parse_options *options, struct anvil_json_doc **out,
                     struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (!out) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    *out = NULL;
    struct anvil_json_doc *doc = anvil_mem_calloc(allocator, 1, sizeof(*doc));
    if (!doc) {
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    /* Size the first block from the input, so a large document does not
     * climb through many small blocks: values take 1.3x-1.8x the text (the
     * block hint sizes the rest from what the first part needed). */
    struct anvil_arena_options arena_options = {0};
    arena_options.first_block_size = len < 2048 ? 4096 : len + len / 4;
    int rc = anvil_arena_new(allocator, &arena_options, &doc->arena);
    if (rc != ANVIL_OK) {
        anvil_mem_release(allocator, doc);
        return anvil_diag_set(diag, rc, 0, 0, 0, "out of memory");
    }
    doc->allocator = allocator;
    rc = anvil_json_parse_into(doc->arena, allocator, text, len, options, &doc->root, diag);
    if (rc != ANVIL_OK) {
        anvil_json_doc_destroy(doc);
        return rc;
    }
    *out = doc;
    return ANVIL_OK;
}

int anvil__json_doc_new(struct anvil_allocator *allocator, size_t first_block, struct anvil_json_doc **out) {
    struct anvil_json_doc *doc = anvil_mem_calloc(allocator, 1, sizeof(*doc));
    if (!doc) {
        return ANVIL_ENOMEM;
    }
    struct anvil_arena_options arena_options = {0};
    arena_options.first_block_size = first_block < 4096 ? 4096 : first_block;
    if (anvil_arena_new(allocator, &arena_options, &doc->arena) != ANVIL_OK) {
        anvil_mem_release(allocator, doc);
        return ANVIL_ENOMEM;
    }
    doc->allocator = allocator;
    doc->root = anvil_json_make_null();
    *out = doc;
    return ANVIL_OK;
}

void anvil__json_doc_set_root(struct anvil_json_doc *doc, const struct anvil_json *root) {
    doc->root = *root;
}

const struct anvil_json *anvil_json_doc_root(const struct anvil_json_doc *doc) {
    return &doc->root;
}

struct anvil_arena *anvil_json_doc_arena(struct anvil_json_doc *doc) {
    return doc->arena;
}

void anvil_json_doc_destroy(struct anvil_json_doc *doc) {
    if (doc) {
        anvil_arena_destroy(doc->arena);
        anvil_mem_release(doc->allocator, doc);
    }
}
