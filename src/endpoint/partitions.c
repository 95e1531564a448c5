/*
 * The AWS partitions: partitions.json compiled into a region table and one
 * position automaton per regionRegex, so aws.partition() is a hash lookup,
 * or a linear scan of the region's bytes, and never allocates.
 */

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "anvil/json.h"
#include "anvil/status.h"
#include "endpoint/endpoint_internal.h"

/* ---- regionRegex: a Glushkov position automaton ---- */

struct s_re_parser {
    const char *p, *end;
    struct anvil__ep_regex *re;
    /* Positions made so far. */
    size_t count;
    /* Nesting of groups. */
    size_t depth;
    char *why;
    size_t why_size;
};

/* What a sub-expression contributes: where it can start and end, and whether it can be empty. */
struct s_frag {
    uint64_t first, last;
    bool nullable;
};

ANVIL_PRINTF(2, 3)
static int s_re_fail(struct s_re_parser *ps, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(ps->why, ps->why_size, fmt, args);
    va_end(args);
    anvil__ep_trim_utf8(ps->why);
    return ANVIL_EMODEL;
}

static void s_set_byte(uint64_t *by_byte, size_t pos, unsigned char c) {
    by_byte[c] |= UINT64_C(1) << pos;
}

/* \w \d \s and their negations into a 256-bit set. */
static bool s_class_escape(char e, bool set[256]) {
    bool negate = e == 'W' || e == 'D' || e == 'S';
    char lower = (char)(negate ? e + ('a' - 'A') : e);
    bool tmp[256] = {false};
    switch (lower) {
    case 'w':
        for (unsigned c = 0; c < 256; c++) {
            tmp[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        }
        break;
    case 'd':
        for (unsigned c = '0'; c <= '9'; c++) {
            tmp[c] = true;
        }
        break;
    case 's':
        tmp[' '] = tmp['\t'] = tmp['\n'] = tmp['\r'] = tmp['\f'] = tmp['\v'] = true;
        break;
    default:
        return false;
    }
    for (unsigned c = 0; c < 256; c++) {
        if (tmp[c] != negate) {
            set[c] = true;
        }
    }
    return true;
}

/* An escaped literal: any punctuation; letters and digits only as the classes above. */
static bool s_literal_escape(char e) {
    return !((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9'));
}

static int s_re_alt(struct s_re_parser *ps, struct s_frag *out);

/* A new position matching the bytes in `set`. */
static int s_re_position(struct s_re_parser *ps, const bool set[256], struct s_frag *out) {
    if (ps->count >= ANVIL__EP_REGEX_MAX_POSITIONS) {
        return s_re_fail(ps, "more than %d characters to match", ANVIL__EP_REGEX_MAX_POSITIONS);
    }
    size_t pos = ps->count++;
    for (unsigned c = 0; c < 256; c++) {
        if (set[c]) {
            s_set_byte(ps->re->by_byte, pos, (unsigned char)c);
        }
    }
    out->first = out->last = UINT64_C(1) << pos;
    out->nullable = false;
    return ANVIL_OK;
}

static int s_re_class(struct s_re_parser *ps, bool set[256]) {
    /* After '['. */
    bool negate = false;
    if (ps->p < ps->end && *ps->p == '^') {
        negate = true;
        ps->p++;
    }
    bool any = false;
    while (ps->p < ps->end && (*ps->p != ']' || !any)) {
        unsigned char lo = (unsigned char)*ps->p++;
        if (lo == '\\') {
            if (ps->p >= ps->end) {
                return s_re_fail(ps, "a class ends in '\\'");
            }
            char e = *ps->p++;
            if (s_class_escape(e, set)) {
                any = true;
                continue;
            }
            if (!s_literal_escape(e)) {
                return s_re_fail(ps, "unsupported escape '\\%c'", e);
            }
            if ((unsigned char)e >= 0x80) {
                return s_re_fail(ps, "an escaped byte that is not ASCII");
            }
            lo = (unsigned char)e;
        }
        unsigned char hi = lo;
        if (ps->end - ps->p >= 2 && ps->p[0] == '-' && ps->p[1] != ']') {
            hi = (unsigned char)ps->p[1];
            ps->p += 2;
            if (hi == '\\') {
                if (ps->p >= ps->end || !s_literal_escape(*ps->p)) {
                    return s_re_fail(ps, "unsupported range end");
                }
                hi = (unsigned char)*ps->p++;
            }
            if (hi < lo) {
                return s_re_fail(ps, "a range runs backwards");
            }
        }
        for (unsigned c = lo; c <= hi; c++) {
            set[c] = true;
        }
        any = true;
    }
    if (ps->p >= ps->end) {
        return s_re_fail(ps, "'[' without ']'");
    }
    ps->p++;
    if (negate) {
        for (unsigned c = 0; c < 256; c++) {
            set[c] = !set[c];
        }
    }
    return ANVIL_OK;
}

static int s_re_atom(struct s_re_parser *ps, struct s_frag *out) {
    char c = *ps->p++;
    bool set[256] = {false};
    switch (c) {
    case '(':
        if (++ps->depth > 16) {
            return s_re_fail(ps, "groups nested more than 16 deep");
        }
        if (ps->p < ps->end && *ps->p == '?') {
            /* (?:...) is the only group extension, and means a plain group. */
            if (ps->end - ps->p < 2 || ps->p[1] != ':') {
                return s_re_fail(ps, "unsupported group '(?'");
            }
            ps->p += 2;
        }
        {
            int rc = s_re_alt(ps, out);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        if (ps->p >= ps->end || *ps->p != ')') {
            return s_re_fail(ps, "'(' without ')'");
        }
        ps->p++;
        ps->depth--;
        return ANVIL_OK;
    case '[': {
        int rc = s_re_class(ps, set);
        if (rc != ANVIL_OK) {
            return rc;
        }
        return s_re_position(ps, set, out);
    }
    case '.':
        for (unsigned b = 0; b < 256; b++) {
            set[b] = b != '\n';
        }
        return s_re_position(ps, set, out);
    case '\\': {
        if (ps->p >= ps->end) {
            return s_re_fail(ps, "the pattern ends in '\\'");
        }
        char e = *ps->p++;
        if (!s_class_escape(e, set)) {
            if (!s_literal_escape(e)) {
                return s_re_fail(ps, "unsupported escape '\\%c'", e);
            }
            if ((unsigned char)e >= 0x80) {
                return s_re_fail(ps, "an escaped byte that is not ASCII");
            }
            set[(unsigned char)e] = true;
        }
        return s_re_position(ps, set, out);
    }
    case ')':
    case '*':
    case '+':
    case '?':
    case '{':
    case '}':
    case '^':
    case '$':
        return s_re_fail(ps, "unexpected '%c'", c);
    case '\0':
        return s_re_fail(ps, "a NUL byte");
    default:
        set[(unsigned char)c] = true;
        return s_re_position(ps, set, out);
    }
}

static void s_follow(struct anvil__ep_regex *re, uint64_t from, uint64_t to) {
    while (from) {
        unsigned p = (unsigned)__builtin_ctzll(from);
        re->follow[p] |= to;
        from &= from - 1;
    }
}

/* seq := (atom quantifier?)* */
static int s_re_seq(struct s_re_parser *ps, struct s_frag *out) {
    struct s_frag seq = {0, 0, true};
    while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')' && !(*ps->p == '$' && ps->p + 1 == ps->end)) {
        struct s_frag atom;
        int rc = s_re_atom(ps, &atom);
        if (rc != ANVIL_OK) {
            return rc;
        }
        if (ps->p < ps->end && (*ps->p == '*' || *ps->p == '+' || *ps->p == '?')) {
            char q = *ps->p++;
            if (q != '?') {
                s_follow(ps->re, atom.last, atom.first);
            }
            if (q != '+') {
                atom.nullable = true;
            }
            if (ps->p < ps->end && (*ps->p == '*' || *ps->p == '+' || *ps->p == '?' || *ps->p == '{')) {
                return s_re_fail(ps, "unsupported quantifier after '%c'", q);
            }
        } else if (ps->p < ps->end && *ps->p == '{') {
            return s_re_fail(ps, "unsupported quantifier '{'");
        }
        s_follow(ps->re, seq.last, atom.first);
        struct s_frag next;
        next.first = seq.first | (seq.nullable ? atom.first : 0);
        next.last = atom.last | (atom.nullable ? seq.last : 0);
        next.nullable = seq.nullable && atom.nullable;
        seq = next;
    }
    *out = seq;
    return ANVIL_OK;
}

/* alt := seq ('|' seq)* */
static int s_re_alt(struct s_re_parser *ps, struct s_frag *out) {
    int rc = s_re_seq(ps, out);
    while (rc == ANVIL_OK && ps->p < ps->end && *ps->p == '|') {
        ps->p++;
        struct s_frag other;
        rc = s_re_seq(ps, &other);
        out->first |= other.first;
        out->last |= other.last;
        out->nullable = out->nullable || other.nullable;
    }
    return rc;
}

int anvil__ep_regex_compile(struct anvil_str_view pattern, struct anvil__ep_regex *out, char *why, size_t why_size) {
    memset(out, 0, sizeof *out);
    struct s_re_parser ps = {pattern.ptr, pattern.ptr + pattern.len, out, 0, 0, why, why_size};
    if (ps.p < ps.end && *ps.p == '^') {
        out->anchored_start = true;
        ps.p++;
    }
    struct s_frag all;
    int rc = s_re_alt(&ps, &all);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (ps.p < ps.end && *ps.p == '$') {
        out->anchored_end = true;
        ps.p++;
    }
    if (ps.p < ps.end) {
        /* Only ')' and '$' stop a sequence early. */
        return s_re_fail(&ps, "unexpected '%c'", *ps.p);
    }
    out->first = all.first;
    out->last = all.last;
    out->nullable = all.nullable;
    return ANVIL_OK;
}

bool anvil__ep_regex_match(const struct anvil__ep_regex *re, struct anvil_str_view s) {
    if (re->nullable && (s.len == 0 || !re->anchored_start || !re->anchored_end)) {
        /* An empty match: the whole (empty) string, or at an end that is not anchored. */
        return true;
    }
    uint64_t live = 0;
    for (size_t i = 0; i < s.len; i++) {
        uint64_t next = 0;
        for (uint64_t m = live; m; m &= m - 1) {
            next |= re->follow[__builtin_ctzll(m)];
        }
        if (i == 0 || !re->anchored_start) {
            next |= re->first;
        }
        live = next & re->by_byte[(unsigned char)s.ptr[i]];
        if (!re->anchored_end && (live & re->last)) {
            return true;
        }
        if (!live && re->anchored_start) {
            return false;
        }
    }
    return (live & re->last) != 0;
}

/* ---- loading partitions.json ---- */

/* The built-in partitions (below), which anvil_partitions_destroy() leaves alone. */
static const struct anvil_partitions s_empty;
static _Atomic(const struct anvil_partitions *) s_builtin;
static pthread_mutex_t s_builtin_lock = PTHREAD_MUTEX_INITIALIZER;

struct s_load {
    struct anvil_partitions *parts;
    struct anvil_diag *diag;
};

ANVIL_PRINTF(3, 4)
static int s_load_fail(struct s_load *ld, int code, const char *fmt, ...) {
    char what[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    anvil__ep_trim_utf8(what);
    return anvil_diag_set(ld->diag, code, 0, 0, 0, "partitions: %s", what);
}

static int s_copy_sv(struct anvil_arena *arena, struct anvil_str_view s, struct anvil_str_view *out) {
    char *copy = anvil_arena_strndup(arena, s.ptr, s.len);
    if (!copy) {
        return ANVIL_ENOMEM;
    }
    *out = anvil_sv(copy, s.len);
    return ANVIL_OK;
}

/* Applies the output fields of `obj` to `out`; `where` names it for errors. Other fields are ignored. */
static int s_apply_outputs(struct s_load *ld, const struct anvil_json *obj, struct anvil__ep_outputs *out,
                           const char *where, struct anvil_str_view name) {
    static const char *const string_fields[] = {"name", "dnsSuffix", "dualStackDnsSuffix", "implicitGlobalRegion"};
    static const char *const bool_fields[] = {"supportsFIPS", "supportsDualStack"};
    struct anvil_str_view *strings[] = {&out->name, &out->dns_suffix, &out->dual_stack_dns_suffix,
                                        &out->implicit_global_region};
    bool *bools[] = {&out->supports_fips, &out->supports_dual_stack};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(string_fields); i++) {
        const struct anvil_json *v = anvil_json_object_get_cstr(obj, string_fields[i]);
        if (!v) {
            continue;
        }
        if (!anvil_json_is_string(v)) {
            return s_load_fail(ld, ANVIL_EMODEL, "%s `%.*s`: `%s` must be a string", where, anvil__ep_cut(name, 60),
                               name.ptr, string_fields[i]);
        }
        int rc = s_copy_sv(ld->parts->arena, anvil_json_string(v), strings[i]);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(bool_fields); i++) {
        const struct anvil_json *v = anvil_json_object_get_cstr(obj, bool_fields[i]);
        if (!v) {
            continue;
        }
        if (!anvil_json_is_bool(v)) {
            return s_load_fail(ld, ANVIL_EMODEL, "%s `%.*s`: `%s` must be a boolean", where, anvil__ep_cut(name, 60),
                               name.ptr, bool_fields[i]);
        }
        *bools[i] = anvil_json_bool(v);
    }
    return ANVIL_OK;
}

/* True when `obj` sets an output field (so the region needs outputs of its own). */
static bool s_overrides(const struct anvil_json *obj) {
    static const char *const fields[] = {"name",         "dnsSuffix",         "dualStackDnsSuffix",
                                         "supportsFIPS", "supportsDualStack", "implicitGlobalRegion"};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(fields); i++) {
        if (anvil_json_object_get_cstr(obj, fields[i])) {
            return true;
        }
    }
    return false;
}

static bool s_version_1x(struct anvil_str_view v) {
    return v.len >= 1 && v.ptr[0] == '1' && (v.len == 1 || v.ptr[1] == '.');
}

static int s_load_root(struct s_load *ld, const struct anvil_json *root) {
    struct anvil_partitions *parts = ld->parts;
    if (!anvil_json_is_object(root)) {
        return s_load_fail(ld, ANVIL_EMODEL, "the document must be an object");
    }
    const struct anvil_json *version = anvil_json_object_get_cstr(root, "version");
    if (version && (!anvil_json_is_string(version) || !s_version_1x(anvil_json_string(version)))) {
        return s_load_fail(ld, ANVIL_EMODEL, "unsupported version (anvil reads 1.x)");
    }
    const struct anvil_json *list = anvil_json_object_get_cstr(root, "partitions");
    if (!anvil_json_is_array(list) || anvil_json_len(list) == 0) {
        return s_load_fail(ld, ANVIL_EMODEL, "`partitions` must be a non-empty array");
    }
    size_t n = anvil_json_len(list);
    size_t regions = 0;
    for (size_t i = 0; i < n; i++) {
        regions += anvil_json_len(anvil_json_object_get_cstr(anvil_json_array_at(list, i), "regions"));
    }
    if (n > 1024 || regions > 65536) {
        return s_load_fail(ld, ANVIL_ELIMIT, "more than 1,024 partitions or 65,536 regions");
    }
    struct anvil__ep_partition *items = anvil_arena_alloc(parts->arena, n * sizeof *items, 0);
    size_t cap = 16;
    while (cap < regions * 2) {
        cap *= 2;
    }
    struct anvil__ep_region *slots = anvil_arena_alloc(parts->arena, cap * sizeof *slots, 0);
    if (!items || !slots) {
        return ANVIL_ENOMEM;
    }
    memset(items, 0, n * sizeof *items);
    memset(slots, 0, cap * sizeof *slots);
    parts->items = items;
    parts->count = n;
    parts->slots = slots;
    parts->mask = (uint32_t)(cap - 1);
    for (size_t i = 0; i < n; i++) {
        const struct anvil_json *p = anvil_json_array_at(list, i);
        const struct anvil_json *id = anvil_json_object_get_cstr(p, "id");
        if (!anvil_json_is_object(p) || !anvil_json_is_string(id) || anvil_json_len(id) == 0) {
            return s_load_fail(ld, ANVIL_EMODEL, "partitions[%zu] needs an `id` string", i);
        }
        struct anvil__ep_partition *part = &items[i];
        int rc = s_copy_sv(parts->arena, anvil_json_string(id), &part->id);
        if (rc != ANVIL_OK) {
            return rc;
        }
        for (size_t j = 0; j < i; j++) {
            if (anvil_sv_eq(items[j].id, part->id)) {
                return s_load_fail(ld, ANVIL_EMODEL, "partition `%.*s` is listed twice", anvil__ep_cut(part->id, 60),
                                   part->id.ptr);
            }
        }
        const struct anvil_json *outputs = anvil_json_object_get_cstr(p, "outputs");
        if (!anvil_json_is_object(outputs)) {
            return s_load_fail(ld, ANVIL_EMODEL, "partition `%.*s` needs an `outputs` object",
                               anvil__ep_cut(part->id, 60), part->id.ptr);
        }
        /* The partition's id is its name unless the outputs say otherwise (they always agree); the rest empty. */
        part->outputs.name = part->id;
        part->outputs.dns_suffix = part->outputs.dual_stack_dns_suffix = part->outputs.implicit_global_region =
            anvil_sv("", 0);
        rc = s_apply_outputs(ld, outputs, &part->outputs, "partition", part->id);
        if (rc != ANVIL_OK) {
            return rc;
        }
        const struct anvil_json *regex = anvil_json_object_get_cstr(p, "regionRegex");
        if (regex) {
            if (!anvil_json_is_string(regex)) {
                return s_load_fail(ld, ANVIL_EMODEL, "partition `%.*s`: `regionRegex` must be a string",
                                   anvil__ep_cut(part->id, 60), part->id.ptr);
            }
            struct anvil__ep_regex *re = anvil_arena_alloc(parts->arena, sizeof *re, 0);
            if (!re) {
                return ANVIL_ENOMEM;
            }
            char why[120];
            if (anvil__ep_regex_compile(anvil_json_string(regex), re, why, sizeof why) != ANVIL_OK) {
                return s_load_fail(ld, ANVIL_EMODEL, "partition `%.*s`: regionRegex: %s", anvil__ep_cut(part->id, 60),
                                   part->id.ptr, why);
            }
            part->regex = re;
        }
        const struct anvil_json *rmap = anvil_json_object_get_cstr(p, "regions");
        if (rmap && !anvil_json_is_object(rmap)) {
            return s_load_fail(ld, ANVIL_EMODEL, "partition `%.*s`: `regions` must be an object",
                               anvil__ep_cut(part->id, 60), part->id.ptr);
        }
        for (size_t r = 0; r < anvil_json_len(rmap); r++) {
            const struct anvil_json_member *m = anvil_json_object_at(rmap, r);
            struct anvil_str_view name = anvil_json_member_key(m);
            if (!anvil_json_is_object(&m->value)) {
                return s_load_fail(ld, ANVIL_EMODEL, "region `%.*s` must be an object", anvil__ep_cut(name, 60),
                                   name.ptr);
            }
            const struct anvil__ep_outputs *outs = &part->outputs;
            if (s_overrides(&m->value)) {
                struct anvil__ep_outputs *own = anvil_arena_alloc(parts->arena, sizeof *own, 0);
                if (!own) {
                    return ANVIL_ENOMEM;
                }
                *own = part->outputs;
                rc = s_apply_outputs(ld, &m->value, own, "region", name);
                if (rc != ANVIL_OK) {
                    return rc;
                }
                outs = own;
            }
            uint32_t hash = anvil__ep_hash(name.ptr, name.len);
            uint32_t slot = hash & parts->mask;
            while (slots[slot].name.ptr && !anvil_sv_eq(slots[slot].name, name)) {
                slot = (slot + 1) & parts->mask;
            }
            if (slots[slot].name.ptr) {
                /* A region two partitions list: the first partition keeps it, as botocore's scan finds it. */
                continue;
            }
            rc = s_copy_sv(parts->arena, name, &slots[slot].name);
            if (rc != ANVIL_OK) {
                return rc;
            }
            slots[slot].hash = hash;
            slots[slot].outputs = outs;
        }
        if (anvil_sv_eq_cstr(part->id, "aws") && !parts->fallback) {
            parts->fallback = &part->outputs;
        }
    }
    if (!parts->fallback) {
        parts->fallback = &items[0].outputs;
    }
    return ANVIL_OK;
}

int anvil_partitions_load(struct anvil_allocator *allocator, const char *text, size_t len,
                          struct anvil_partitions **out, struct anvil_diag *diag) {
    if (!out || (!text && len > 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "partitions: no text or no place for the result");
    }
    *out = NULL;
    anvil_diag_clear(diag);
    struct anvil_json_doc *doc = NULL;
    int rc = anvil_json_parse(allocator, text ? text : "", len, NULL, &doc, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_arena *arena = NULL;
    rc = anvil_arena_new(allocator, NULL, &arena);
    struct anvil_partitions *parts = NULL;
    if (rc == ANVIL_OK) {
        parts = anvil_arena_alloc(arena, sizeof *parts, 0);
        rc = parts ? ANVIL_OK : ANVIL_ENOMEM;
    }
    if (rc == ANVIL_OK) {
        memset(parts, 0, sizeof *parts);
        parts->arena = arena;
        struct s_load ld = {parts, diag};
        rc = s_load_root(&ld, anvil_json_doc_root(doc));
    }
    anvil_json_doc_destroy(doc);
    if (rc != ANVIL_OK) {
        if (rc == ANVIL_ENOMEM) {
            anvil_diag_set(diag, rc, 0, 0, 0, "partitions: out of memory");
        }
        anvil_arena_destroy(arena);
        return rc;
    }
    *out = parts;
    return ANVIL_OK;
}

void anvil_partitions_destroy(struct anvil_partitions *partitions) {
    if (partitions && partitions->arena && partitions != atomic_load_explicit(&s_builtin, memory_order_acquire)) {
        /* The struct lives in its own arena. */
        anvil_arena_destroy(partitions->arena);
    }
}

const struct anvil__ep_outputs *anvil__partitions_lookup(const struct anvil_partitions *partitions,
                                                         struct anvil_str_view region) {
    if (partitions->count == 0) {
        return NULL;
    }
    uint32_t hash = anvil__ep_hash(region.ptr, region.len);
    for (uint32_t slot = hash & partitions->mask; partitions->slots[slot].name.ptr;
         slot = (slot + 1) & partitions->mask) {
        const struct anvil__ep_region *r = &partitions->slots[slot];
        if (r->hash == hash && anvil__sv_same(r->name, region)) {
            return r->outputs;
        }
    }
    for (size_t i = 0; i < partitions->count; i++) {
        const struct anvil__ep_partition *p = &partitions->items[i];
        if (p->regex && anvil__ep_regex_match(p->regex, region)) {
            return &p->outputs;
        }
    }
    return partitions->fallback;
}

/* ---- the built-in partitions ---- */

/*
 * Loaded from the embedded partitions.json on first use and kept for the
 * life of the process. Should that first load run out of memory, an empty
 * set stands in (so the pointer is never NULL), compiling rules against it
 * reports ANVIL_ENOMEM, and the next call tries again.
 */

const struct anvil_partitions *anvil_partitions_builtin(void) {
    const struct anvil_partitions *p = atomic_load_explicit(&s_builtin, memory_order_acquire);
    if (p) {
        return p;
    }
    pthread_mutex_lock(&s_builtin_lock);
    p = atomic_load_explicit(&s_builtin, memory_order_acquire);
    if (!p) {
        struct anvil_partitions *loaded = NULL;
        if (anvil_partitions_load(NULL, anvil__partitions_json, anvil__partitions_json_len, &loaded, NULL) ==
            ANVIL_OK) {
            atomic_store_explicit(&s_builtin, loaded, memory_order_release);
            p = loaded;
        }
    }
    pthread_mutex_unlock(&s_builtin_lock);
    return p ? p : &s_empty;
}
