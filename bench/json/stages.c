/*
 * What a two-stage parser (simdjson's design) could buy anvil: the parse as
 * it is, against its two halves measured apart. Not a peer comparison: design
 * data for issue 21 (docs/performance.md, "JSON: where a structural index
 * would leave us").
 *
 * - stage 1: a structural index (simdjson's stage 1, written here with AVX2
 *   and PCLMUL behind a CPU check): the positions of { } [ ] : , of each
 *   string's opening quote and of each scalar's first byte, quotes and
 *   backslash escapes resolved; UTF-8 is not validated (a bound: the real
 *   pass would have to).
 * - the DOM floor: anvil's DOM built from a list of tokens made beforehand
 *   (what a stage 2 reading the index would call, with no byte scanned and
 *   no number parsed): stacks, key interning with the parser's recent-key
 *   cache, string copies, containers copied into the arena when they close.
 *
 * Interleaved in one process, median of `rounds` per run, min-median-max
 * over runs. Usage: bench_json_stages [--runs N] [--rounds N] FILE...
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "anvil/anvil.h"
#include "bench_stats.h"
#include "read_file.h"
#include "json/json_internal.h"

/* ---- stage 1 ---- */

#if defined(__x86_64__)
__attribute__((target("avx2,pclmul"))) static inline uint64_t s_eq(__m256i lo, __m256i hi, char c) {
    __m256i v = _mm256_set1_epi8(c);
    uint64_t a = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v));
    uint64_t b = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v));
    return a | (b << 32);
}

__attribute__((target("avx2,pclmul"))) static size_t s_stage1(const unsigned char *buf, size_t len, uint32_t *out) {
    const uint64_t even = 0x5555555555555555ULL;
    uint64_t prev_escaped = 0, prev_in_string = 0, prev_scalar = 0;
    size_t n = 0;
    unsigned char tail[64];
    for (size_t base = 0; base < len; base += 64) {
        const unsigned char *p = buf + base;
        if (len - base < 64) {
            memset(tail, ' ', sizeof tail);
            memcpy(tail, p, len - base);
            p = tail;
        }
        __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
        uint64_t backslash = s_eq(lo, hi, '\\');
        uint64_t quote = s_eq(lo, hi, '"');
        /* Escapes: simdjson's odd-length backslash runs. */
        backslash &= ~prev_escaped;
        uint64_t follows = backslash << 1 | prev_escaped;
        uint64_t odd_starts = backslash & ~even & ~follows;
        uint64_t on_even;
        prev_escaped = __builtin_add_overflow(odd_starts, backslash, &on_even);
        uint64_t escaped = (even ^ (on_even << 1)) & follows;
        quote &= ~escaped;
        uint64_t in_string = (uint64_t)_mm_cvtsi128_si64(
            _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)quote), _mm_set1_epi8((char)0xFF), 0));
        in_string ^= prev_in_string;
        prev_in_string = (uint64_t)((int64_t)in_string >> 63);
        uint64_t ops = s_eq(lo, hi, '{') | s_eq(lo, hi, '}') | s_eq(lo, hi, '[') | s_eq(lo, hi, ']') |
                       s_eq(lo, hi, ':') | s_eq(lo, hi, ',');
        uint64_t ws = s_eq(lo, hi, ' ') | s_eq(lo, hi, '\n') | s_eq(lo, hi, '\t') | s_eq(lo, hi, '\r');
        uint64_t scalar = ~(ops | ws | quote);
        uint64_t scalar_start = scalar & ~(scalar << 1 | prev_scalar);
        prev_scalar = scalar >> 63;
        uint64_t bits = ((ops | scalar_start) & ~in_string) | (quote & in_string);
        while (bits) {
            out[n++] = (uint32_t)(base + (size_t)__builtin_ctzll(bits));
            bits &= bits - 1;
        }
    }
    return n;
}
#endif

/* ---- the DOM floor: tokens made beforehand, then built ---- */

/*
 * Tokens as compact as a stage 2 would read them: a kind byte each (1 MB per
 * million) and 16 bytes of payload (a string's bytes and length, or a
 * scalar's value): about what a structural index (4 bytes a structural) and
 * the text behind it weigh, so memory traffic does not tilt the floor.
 */
enum s_kind { K_OBJECT, K_ARRAY, K_CLOSE, K_KEY, K_STRING, K_SCALAR };
struct s_token {
    enum s_kind kind;
    const char *bytes; /* K_KEY, K_STRING */
    size_t len;
    struct anvil_json scalar; /* K_SCALAR */
};
union s_payload {
    struct {
        const char *bytes;
        size_t len;
    } s;
    struct anvil_json scalar;
};

struct s_tokens {
    unsigned char *kinds;
    union s_payload *payloads;
    size_t len, cap;
};

static void s_push_token(struct s_tokens *t, struct s_token tok) {
    if (t->len == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 4096;
        t->kinds = realloc(t->kinds, t->cap);
        t->payloads = realloc(t->payloads, t->cap * sizeof *t->payloads);
        if (!t->kinds || !t->payloads) {
            abort();
        }
    }
    t->kinds[t->len] = (unsigned char)tok.kind;
    if (tok.kind == K_SCALAR) {
        t->payloads[t->len].scalar = tok.scalar;
    } else {
        t->payloads[t->len].s.bytes = tok.bytes;
        t->payloads[t->len].s.len = tok.len;
    }
    t->len++;
}

/* Pre-order tokens of `v` (an explicit stack: documents may be deep). */
static void s_tokenize(const struct anvil_json *root, struct s_tokens *t) {
    struct frame {
        const struct anvil_json *v;
        size_t next;
    } *stack = malloc(sizeof *stack * 4096);
    size_t depth = 0;
    stack[depth++] = (struct frame){root, 0};
    if (anvil_json_is_object(root)) {
        s_push_token(t, (struct s_token){K_OBJECT, NULL, 0, {0}});
    } else if (anvil_json_is_array(root)) {
        s_push_token(t, (struct s_token){K_ARRAY, NULL, 0, {0}});
    }
    while (depth) {
        struct frame *f = &stack[depth - 1];
        const struct anvil_json *v = f->v;
        bool object = anvil_json_is_object(v), array = anvil_json_is_array(v);
        if (!object && !array) {
            struct anvil_str_view s = anvil_json_string(v);
            s_push_token(t, anvil_json_is_string(v) ? (struct s_token){K_STRING, s.ptr, s.len, {0}}
                                                    : (struct s_token){K_SCALAR, NULL, 0, *v});
            depth--;
            continue;
        }
        if (f->next == anvil_json_len(v)) {
            s_push_token(t, (struct s_token){K_CLOSE, NULL, 0, {0}});
            depth--;
            continue;
        }
        const struct anvil_json *child;
        if (object) {
            const struct anvil_json_member *m = anvil_json_object_at(v, f->next);
            struct anvil_str_view k = anvil_json_member_key(m);
            s_push_token(t, (struct s_token){K_KEY, k.ptr, k.len, {0}});
            child = &m->value;
        } else {
            child = anvil_json_array_at(v, f->next);
        }
        f->next++;
        if (anvil_json_is_object(child)) {
            s_push_token(t, (struct s_token){K_OBJECT, NULL, 0, {0}});
        } else if (anvil_json_is_array(child)) {
            s_push_token(t, (struct s_token){K_ARRAY, NULL, 0, {0}});
        }
        stack[depth++] = (struct frame){child, 0};
    }
    free(stack);
}

/* The parser's interning (json_parse.c's s_intern, with its recent-key cache), over a fresh table. */
struct s_intern {
    const struct anvil_json_key **slots;
    size_t mask, count;
    const struct anvil_json_key *recent[256];
    uint64_t seed;
};

static const struct anvil_json_key *s_intern(struct s_intern *in, struct anvil_arena *arena, const char *bytes,
                                             size_t len) {
    size_t r = len ? (len * 31 + (size_t)(unsigned char)bytes[0] * 7 + (unsigned char)bytes[len - 1]) & 255 : 0;
    const struct anvil_json_key *hit = in->recent[r];
    if (hit && hit->len == len && anvil__json_bytes_eq(hit->bytes, bytes, len)) {
        return hit;
    }
    uint32_t hash = anvil__json_hash_with(in->seed, bytes, len);
    size_t slot = hash & in->mask;
    for (const struct anvil_json_key *k; (k = in->slots[slot]) != NULL; slot = (slot + 1) & in->mask) {
        if (k->hash == hash && k->len == len && anvil__json_bytes_eq(k->bytes, bytes, len)) {
            in->recent[r] = k;
            return k;
        }
    }
    uint64_t *stamp = anvil__arena_bump(arena, sizeof(uint64_t) + sizeof(struct anvil_json_key) + len + 1, 8);
    *stamp = 0;
    const struct anvil_json_key *k = anvil__json_key_init(stamp + 1, bytes, len, hash);
    in->slots[slot] = k;
    in->count++;
    in->recent[r] = k;
    return k;
}

struct s_builder {
    struct anvil_json *items;
    struct anvil_json_member *members;
    size_t *starts;
    bool *objects;
    size_t item_len, member_len, depth;
};

/* A value stored as two words (json_parse.c's s_put: a 16-byte copy of a value just written stalls). */
static inline void s_put(struct anvil_json *to, const struct anvil_json *from) {
    uint64_t words[2];
    memcpy(&words[0], &from->tag, 8);
    memcpy(&words[1], &from->u, 8);
    __asm__("" : "+r"(words[0]), "+r"(words[1]));
    memcpy(&to->tag, &words[0], 8);
    memcpy(&to->u, &words[1], 8);
}

/* Builds the DOM from the tokens into `arena`, as the parser would from the bytes. */
static struct anvil_json s_build(const struct s_tokens *t, struct s_builder *b, struct s_intern *in,
                                 struct anvil_arena *arena) {
    struct anvil_json v = anvil_json_make_null(), root = v;
    memset(in->slots, 0, (in->mask + 1) * sizeof *in->slots);
    memset(in->recent, 0, sizeof in->recent);
    in->count = 0;
    b->item_len = b->member_len = b->depth = 0;
    for (size_t i = 0; i < t->len; i++) {
        const union s_payload *tok = &t->payloads[i];
        enum s_kind kind = (enum s_kind)t->kinds[i];
        bool have = false;
        switch (kind) {
        case K_OBJECT:
        case K_ARRAY:
            b->objects[b->depth] = kind == K_OBJECT;
            b->starts[b->depth++] = kind == K_OBJECT ? b->member_len : b->item_len;
            continue;
        case K_KEY:
            b->members[b->member_len++].key = s_intern(in, arena, tok->s.bytes, tok->s.len);
            continue;
        case K_STRING:
            anvil__json_string_value(arena, tok->s.bytes, tok->s.len, &v);
            have = true;
            break;
        case K_SCALAR:
            v = tok->scalar;
            have = true;
            break;
        case K_CLOSE: {
            size_t start = b->starts[--b->depth];
            if (b->objects[b->depth]) {
                size_t count = b->member_len - start, dup = 0;
                if (count >= ANVIL_JSON_INDEX_MIN) {
                    anvil__json_object_finish(arena, b->members + start, count, false, &dup, &v);
                } else {
                    anvil__json_object_unique(arena, count ? b->members + start : NULL, count, &v);
                }
                b->member_len = start;
            } else {
                size_t count = b->item_len - start;
                struct anvil_json *stored = count ? anvil__arena_bump(arena, count * sizeof *stored, 16) : NULL;
                if (count) {
                    memcpy(stored, b->items + start, count * sizeof *stored);
                }
                v = anvil__json_container(ANVIL_JSON_ARRAY, count, stored);
                b->item_len = start;
            }
            have = true;
            break;
        }
        }
        if (have) {
            if (b->depth == 0) {
                root = v;
            } else if (b->objects[b->depth - 1]) {
                s_put(&b->members[b->member_len - 1].value, &v);
            } else {
                s_put(&b->items[b->item_len++], &v);
            }
        }
    }
    return root;
}

/* ---- timing ---- */

#define S_MAX_RUNS 16
#define S_MAX_ROUNDS 64

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", smoke ? 1 : 5, 1, S_MAX_RUNS);
    int rounds = bench_take_int(&argc, argv, "--rounds", smoke ? 1 : 9, 1, S_MAX_ROUNDS);
    if (argc < 2) {
        fprintf(stderr, "usage: %s [--runs N] [--rounds N] [--smoke] FILE...\n", argv[0]);
        return 2;
    }
#if defined(__x86_64__)
    bool simd = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul");
#else
    bool simd = false;
#endif
    for (int a = 1; a < argc; a++) {
        size_t len = 0;
        char *text = anvil_test_read_file(argv[a], &len);
        struct anvil_json_doc *doc = NULL;
        if (!text || anvil_json_parse(NULL, text, len, NULL, &doc, NULL) != ANVIL_OK) {
            fprintf(stderr, "bench_json_stages: cannot read %s\n", argv[a]);
            return 1;
        }
        struct s_tokens tokens = {0};
        s_tokenize(anvil_json_doc_root(doc), &tokens);
        uint32_t *index = malloc((len + 64) * sizeof *index);
        struct s_builder b = {malloc(tokens.len * sizeof *b.items),
                              malloc(tokens.len * sizeof *b.members),
                              malloc(tokens.len * sizeof(size_t)),
                              malloc(tokens.len * sizeof(bool)),
                              0,
                              0,
                              0};
        struct s_intern in = {0};
        in.mask = 1;
        while (in.mask < tokens.len * 2) {
            in.mask <<= 1;
        }
        in.slots = calloc(in.mask, sizeof *in.slots);
        in.mask -= 1;
        in.seed = anvil__json_hash_seed();
        size_t structurals = 0;
        double parse_ms[S_MAX_RUNS], stage1_ms[S_MAX_RUNS], build_ms[S_MAX_RUNS];
        for (int r = 0; r < runs; r++) {
            double p[S_MAX_ROUNDS], s1[S_MAX_ROUNDS], bd[S_MAX_ROUNDS];
            for (int k = 0; k < rounds; k++) {
                double t0 = bench_now();
                struct anvil_json_doc *d = NULL;
                if (anvil_json_parse(NULL, text, len, NULL, &d, NULL) != ANVIL_OK) {
                    return 1;
                }
                anvil_json_doc_destroy(d);
                double t1 = bench_now();
#if defined(__x86_64__)
                structurals = simd ? s_stage1((const unsigned char *)text, len, index) : 0;
#endif
                double t2 = bench_now();
                /* The arena sized as anvil_json_parse() sizes it (then grown by the same rule). */
                struct anvil_arena_options ao = {0};
                ao.first_block_size = len < 2048 ? 4096 : len + len / 4;
                struct anvil_arena *arena = NULL;
                anvil_arena_new(NULL, &ao, &arena);
                struct anvil_json root = s_build(&tokens, &b, &in, arena);
                (void)root;
                anvil_arena_destroy(arena);
                double t3 = bench_now();
                p[k] = (t1 - t0) * 1e3;
                s1[k] = (t2 - t1) * 1e3;
                bd[k] = (t3 - t2) * 1e3;
            }
            parse_ms[r] = bench_median(p, (size_t)rounds);
            stage1_ms[r] = bench_median(s1, (size_t)rounds);
            build_ms[r] = bench_median(bd, (size_t)rounds);
        }
        printf("%s: %.1f MB, %zu tokens, %zu structurals%s\n", argv[a], (double)len / 1e6, tokens.len, structurals,
               simd ? "" : " (no AVX2: stage 1 not run)");
        double mb = (double)len / 1e6;
        const char *names[3] = {"anvil parse + free", "stage 1 (index)", "DOM floor (build from tokens)"};
        double *all[3] = {parse_ms, stage1_ms, build_ms};
        for (int i = 0; i < 3; i++) {
            double v[S_MAX_RUNS];
            memcpy(v, all[i], (size_t)runs * sizeof *v);
            qsort(v, (size_t)runs, sizeof *v, bench_cmp_double);
            printf("  %-32s %.2f-%.2f-%.2f ms (%.0f MB/s at the median)\n", names[i], v[0], v[runs / 2], v[runs - 1],
                   mb / (v[runs / 2] / 1e3));
        }
        free(index);
        free(b.items);
        free(b.members);
        free(b.starts);
        free(b.objects);
        free(in.slots);
        free(tokens.kinds);
        free(tokens.payloads);
        anvil_json_doc_destroy(doc);
        free(text);
    }
    return 0;
}
