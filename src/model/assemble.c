/*
 * Model assembly: any number of IDL and JSON AST files -> one model, the
 * way Smithy's loader merges them.
 *
 * Every file is read first, then every shape id is known, so relative ids
 * resolve late (use -> the namespace anywhere in the assembly -> prelude).
 * Each shape becomes a record with its traits as a list, so `apply`, a
 * second definition and doc comments all merge by Smithy's rules (arrays
 * concatenate, equal values are kept once, anything else conflicts). IDL
 * and JSON AST shapes go through the same records, so both spellings of
 * one model give the same model and the same AST: operations always name
 * their input and output (Unit when absent), enum members always carry
 * their value, annotation traits are coerced, and IDL 1.0 shapes are
 * upgraded with the defaults 1.0 implied.
 *
 * This file holds the shared records, id resolution, the trait merge, the
 * sources and the JSON values of the output; assemble_idl.c and
 * assemble_json.c turn each spelling into records, assemble_mixins.c and
 * assemble_rules.c apply the model-wide rules, assemble_model.c builds the
 * model from the records and assemble_ast.c its JSON AST when asked.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "core/arena_internal.h"
#include "core/core_internal.h"
#include "model/assemble_internal.h"
#include "model/botocore_internal.h"
#include "model/idl_internal.h"
#include "model/model_internal.h"
#include "model/validate_internal.h"
#include "json/json_internal.h"

void anvil__asm_event(struct anvil__asm *a, enum anvil_severity severity, struct anvil_str_view shape,
                      const char *event_id, const char *fmt, ...) {
    char message[2048];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    anvil__event_add(a->events, severity, shape, event_id, "%s", message);
}

void *anvil__asm_alloc(struct anvil__asm *a, size_t size) {
    void *p = anvil_arena_alloc(a->scratch, size ? size : 1, 0);
    if (!p) {
        a->error = ANVIL_ENOMEM;
    }
    return p;
}

void *anvil__asm_list_alloc(struct anvil__asm *a, size_t size) {
    void *p = anvil_arena_alloc(a->lists, size ? size : 1, 0);
    if (!p) {
        a->error = ANVIL_ENOMEM;
    }
    return p;
}

bool anvil__asm_grow32(struct anvil__asm *a, struct anvil_arena *arena, void **items, uint32_t count, uint32_t *cap,
                       size_t size, size_t grown) {
    if (count < *cap) {
        return true;
    }
    void *bigger = grown < UINT32_MAX && grown > count ? anvil_arena_alloc(arena, grown * size, 0) : NULL;
    if (!bigger) {
        a->error = ANVIL_ENOMEM;
        return false;
    }
    if (count) {
        memcpy(bigger, *items, count * size);
    }
    *items = bigger;
    *cap = (uint32_t)grown;
    return true;
}

uint32_t anvil__asm_stamp(struct anvil__asm *a) {
    if (a->stamp == UINT32_MAX) { /* start over: no shape may look visited by a search of 4 billion ago */
        for (size_t i = 0; i < a->count; i++) {
            a->shapes[i].visit = 0;
        }
        a->stamp = 0;
    }
    return ++a->stamp;
}

bool anvil__asm_grow(struct anvil__asm *a, void **items, size_t count, size_t *cap, size_t size) {
    if (count < *cap) {
        return true;
    }
    size_t grown = *cap ? *cap * 2 : 4;
    void *bigger = anvil__asm_alloc(a, grown * size);
    if (!bigger) {
        return false;
    }
    if (count) {
        memcpy(bigger, *items, count * size);
    }
    *items = bigger;
    *cap = grown;
    return true;
}

const struct anvil_json_key *anvil__asm_id_key(struct anvil__asm *a, struct anvil_str_view x, const char *sep,
                                               struct anvil_str_view y) {
    anvil_buf_clear(&a->id_text);
    int rc = anvil_buf_append_sv(&a->id_text, x);
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&a->id_text, sep) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_sv(&a->id_text, y) : rc;
    if (rc != ANVIL_OK) {
        a->error = ANVIL_ENOMEM;
        return NULL;
    }
    return anvil__asm_key(a, anvil_buf_view(&a->id_text));
}

/* `x sep y` as an id the model keeps: interned in the output arena, so each id is stored once. */
struct anvil_str_view anvil__asm_id(struct anvil__asm *a, struct anvil_str_view x, const char *sep,
                                    struct anvil_str_view y) {
    const struct anvil_json_key *k = anvil__asm_id_key(a, x, sep, y);
    return k ? anvil_sv(k->bytes, k->len) : anvil_sv("", 0);
}

/* `shape$name` for messages and trait merges: valid until the next call. */
struct anvil_str_view anvil__asm_member_id(struct anvil__asm *a, struct anvil_str_view shape,
                                           struct anvil_str_view name) {
    anvil_buf_clear(&a->member_text);
    int rc = anvil_buf_append_sv(&a->member_text, shape);
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&a->member_text, '$') : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_sv(&a->member_text, name) : rc;
    if (rc != ANVIL_OK) {
        a->error = ANVIL_ENOMEM;
        return anvil_sv("", 0);
    }
    return anvil_buf_view(&a->member_text);
}

/* In the scratch arena: what the output keeps goes through anvil__asm_str or anvil__asm_put, which copy. */
struct anvil_str_view anvil__asm_concat(struct anvil__asm *a, struct anvil_str_view x, const char *sep,
                                        struct anvil_str_view y) {
    size_t n = strlen(sep);
    char *out = anvil_arena_alloc(a->scratch, x.len + n + y.len + 1, 1);
    if (!out) {
        a->error = ANVIL_ENOMEM;
        return anvil_sv("", 0);
    }
    memcpy(out, x.ptr, x.len);
    memcpy(out + x.len, sep, n);
    memcpy(out + x.len + n, y.ptr, y.len);
    out[x.len + n + y.len] = '\0';
    return anvil_sv(out, x.len + n + y.len);
}

/* ---- the shape index ---- */

struct anvil__asm_shape *anvil__asm_find(struct anvil__asm *a, struct anvil_str_view id) {
    return anvil__asm_find_hashed(a, id, anvil_json_hash(id.ptr, id.len));
}

struct anvil__asm_shape *anvil__asm_find_hashed(struct anvil__asm *a, struct anvil_str_view id, uint32_t hash) {
    if (!a->slots) {
        return NULL;
    }
    for (size_t i = hash & a->mask; a->slots[i]; i = (i + 1) & a->mask) {
        struct anvil__asm_shape *s = &a->shapes[a->slots[i] - 1];
        if (anvil__sv_same(s->id, id)) {
            return s;
        }
    }
    return NULL;
}

/* The index at twice the shapes it holds: rebuilt from the records when it is half full. */
static bool s_index_room(struct anvil__asm *a) {
    if (a->slots && (a->count + 1) * 2 <= a->mask) {
        return true;
    }
    size_t size = a->mask ? (a->mask + 1) * 2 : 64;
    uint32_t *slots = anvil_mem_calloc(a->allocator, size, sizeof(*slots));
    if (!slots || a->count >= UINT32_MAX - 1) {
        anvil_mem_release(a->allocator, slots);
        a->error = ANVIL_ENOMEM;
        return false;
    }
    for (size_t k = 0; k < a->count; k++) {
        if (a->shapes[k].dup_of) {
            continue;
        }
        size_t i = a->shapes[k].hash & (size - 1);
        while (slots[i]) {
            i = (i + 1) & (size - 1);
        }
        slots[i] = (uint32_t)k + 1;
    }
    anvil_mem_release(a->allocator, a->slots);
    a->slots = slots;
    a->mask = size - 1;
    return true;
}

struct anvil__asm_shape *anvil__asm_register(struct anvil__asm *a, struct anvil_str_view id, uint32_t hash,
                                             enum anvil_shape_type type, const struct anvil__idl_file *file,
                                             int version, size_t at) {
    if (a->error || a->over_limit || !s_index_room(a)) {
        return NULL;
    }
    if (a->count >= a->max_shapes) { /* said once the file stops */
        a->over_limit = true;
        return NULL;
    }
    if (a->count == a->cap) { /* by half: most records are in use at the peak */
        size_t cap = a->cap ? a->cap + a->cap / 2 : 64, bytes;
        if (cap >= UINT32_MAX || anvil__size_mul(cap, sizeof(*a->shapes), &bytes) ||
            anvil_mem_realloc(a->allocator, (void **)&a->shapes, bytes) != ANVIL_OK) {
            a->error = ANVIL_ENOMEM;
            return NULL;
        }
        a->cap = cap;
    }
    size_t pound = anvil__sv_index(id, '#');
    if (pound != SIZE_MAX && anvil__prelude_type(anvil_sv_slice(id, pound + 1, SIZE_MAX), NULL)) {
        a->epoch++; /* a relative name resolved to the prelude before may mean this shape now */
    }
    struct anvil__asm_shape *s = &a->shapes[a->count];
    memset(s, 0, sizeof(*s));
    s->id = id;
    s->hash = hash;
    s->type = type;
    s->version = (unsigned char)version;
    s->file = file;
    s->at = (uint32_t)at;
    s->props = *anvil__json_empty_object();
    size_t i = hash & a->mask;
    while (a->slots[i] && !anvil__sv_same(a->shapes[a->slots[i] - 1].id, id)) {
        i = (i + 1) & a->mask;
    }
    if (a->slots[i]) {
        s->dup_of = a->slots[i];
    } else {
        a->slots[i] = (uint32_t)a->count + 1;
    }
    a->count++;
    return s;
}

void anvil__asm_ids_add(struct anvil__asm *a, struct anvil__asm_ids *set, struct anvil_str_view id) {
    if ((set->count + 1) * 2 > set->mask) {
        size_t size = set->mask ? (set->mask + 1) * 2 : 64;
        struct anvil_str_view *slots = anvil__asm_alloc(a, size * sizeof(*slots));
        if (!slots) {
            return;
        }
        memset(slots, 0, size * sizeof(*slots));
        for (size_t i = 0; set->mask && i <= set->mask; i++) {
            if (set->slots[i].ptr) {
                size_t j = anvil_json_hash(set->slots[i].ptr, set->slots[i].len) & (size - 1);
                while (slots[j].ptr) {
                    j = (j + 1) & (size - 1);
                }
                slots[j] = set->slots[i];
            }
        }
        set->slots = slots;
        set->mask = size - 1;
    }
    size_t i = anvil_json_hash(id.ptr ? id.ptr : "", id.len) & set->mask;
    for (; set->slots[i].ptr; i = (i + 1) & set->mask) {
        if (anvil__sv_same(set->slots[i], id)) {
            return;
        }
    }
    set->slots[i] = id.ptr ? id : anvil_sv("", 0);
    set->count++;
}

/* ---- what a first pass defined ---- */

static const struct anvil_str_view *s_known_slot(const struct anvil__asm_known *k, struct anvil_str_view id) {
    for (size_t i = anvil_json_hash(id.ptr, id.len) & k->mask; k->ids[i].ptr; i = (i + 1) & k->mask) {
        if (anvil_sv_eq(k->ids[i], id)) {
            return &k->ids[i];
        }
    }
    return NULL;
}

/* Every id the records define, with its type, in memory of its own. */
static int s_known_new(struct anvil__asm *a, struct anvil__asm_known *k) {
    memset(k, 0, sizeof(*k));
    size_t bytes = 1, size = 64;
    for (size_t i = 0; i < a->count; i++) {
        bytes += a->shapes[i].id.len;
    }
    while (size < a->count * 2) {
        size *= 2;
    }
    k->ids = anvil_mem_calloc(a->allocator, size, sizeof(*k->ids));
    k->types = anvil_mem_calloc(a->allocator, size, 1);
    k->text = anvil_mem_acquire(a->allocator, bytes);
    if (!k->ids || !k->types || !k->text) {
        return ANVIL_ENOMEM;
    }
    k->mask = size - 1;
    size_t used = 0;
    for (size_t n = 0; n < a->count; n++) {
        const struct anvil__asm_shape *s = &a->shapes[n];
        if (s->dup_of) {
            continue;
        }
        memcpy(k->text + used, s->id.ptr, s->id.len);
        size_t i = anvil_json_hash(s->id.ptr, s->id.len) & k->mask;
        while (k->ids[i].ptr) {
            i = (i + 1) & k->mask;
        }
        k->ids[i] = anvil_sv(k->text + used, s->id.len);
        k->types[i] = (unsigned char)s->type;
        used += s->id.len;
    }
    return ANVIL_OK;
}

static void s_known_clean_up(struct anvil__asm_known *k, struct anvil_allocator *allocator) {
    anvil_mem_release(allocator, k->ids);
    anvil_mem_release(allocator, k->types);
    anvil_mem_release(allocator, k->text);
}

/* ---- trait lists and their merge rules ---- */

struct anvil__asm_trait *anvil__asm_trait_find(struct anvil__asm_traits *traits, struct anvil_str_view id) {
    for (size_t i = 0; i < traits->count; i++) {
        if (anvil__sv_same(traits->items[i].id, id)) {
            return &traits->items[i];
        }
    }
    return NULL;
}

/* Appends the items of array `more` to the array `to->value`, growing its storage geometrically so that many
 * merges into one key stay linear. The first items are never written again, so copies of an earlier value stay
 * valid. */
static void s_append_array(struct anvil__asm *a, struct anvil__asm_trait *to, const struct anvil_json *more) {
    size_t n = anvil_json_len(&to->value), m = anvil_json_len(more);
    struct anvil_json *items = (struct anvil_json *)to->value.u.items;
    size_t room = to->grown ? (size_t)anvil_json_int(&items[-1]) : 0;
    if (n + m > room) {
        struct anvil_json grown;
        size_t cap = (n + m) * 2;
        if (cap >= (size_t)INT64_MAX || anvil_json_new_array(a->arena, cap + 1, &grown, &items) != ANVIL_OK) {
            a->error = ANVIL_ENOMEM;
            return;
        }
        items[0] = anvil_json_make_int((int64_t)cap);
        items++;
        for (size_t i = 0; i < n; i++) {
            items[i] = *anvil_json_array_at(&to->value, i);
        }
        to->grown = 1;
    }
    for (size_t i = 0; i < m; i++) {
        items[n + i] = *anvil_json_array_at(more, i);
    }
    to->value = anvil__json_container(ANVIL_JSON_ARRAY, n + m, items);
}

/* Where byte `at` of `file` is, as Smithy prints a source location: "file [line, column]"; a JSON AST file (no
 * text) gives its name alone, and no file "N/A". */
void anvil__asm_where(const struct anvil__idl_file *file, size_t at, char *out, size_t cap) {
    if (!file) {
        snprintf(out, cap, "N/A");
    } else if (!file->text) {
        snprintf(out, cap, "%s", file->name);
    } else {
        size_t line, column;
        anvil__idl_locate(file->text, file->len, at, &line, &column);
        snprintf(out, cap, "%s [%zu, %zu]", file->name, line, column);
    }
}

/*
 * Merges `add` into `old`, the same trait or metadata key, by Smithy's rules: arrays concatenate, equal
 * values stay. False on a conflict, with where each was written in `was` and `now` (`cap` bytes each).
 */
static bool s_merge(struct anvil__asm *a, struct anvil__asm_trait *old, const struct anvil__asm_trait *add, char *was,
                    char *now, size_t cap) {
    if (anvil_json_is_array(&old->value) && anvil_json_is_array(&add->value)) {
        s_append_array(a, old, &add->value);
        return true;
    }
    if (anvil_json_equal(&old->value, &add->value)) {
        return true;
    }
    anvil__asm_where(old->file ? a->files[old->file - 1] : NULL, old->at, was, cap);
    anvil__asm_where(add->file ? a->files[add->file - 1] : NULL, add->at, now, cap);
    return false;
}

/* Room for `count` traits in an empty list, exactly: most lists hold one or two. */
void anvil__asm_traits_reserve(struct anvil__asm *a, struct anvil__asm_traits *traits, size_t count) {
    if (!traits->items && count) {
        traits->items = count < UINT32_MAX ? anvil__asm_list_alloc(a, count * sizeof(*traits->items)) : NULL;
        traits->cap = traits->items ? (uint32_t)count : 0;
    }
}

/* Adds trait `add` to `traits`, merging with one already there (Smithy's conflict rules). */
/* ---- name indexes over long arrays: adding n traits to a shape, or applying to n members, stays linear ---- */

/* From this many items an array is looked up through the index. */
#define S_LONG 16

/* The name of item `at` of an array. */
typedef struct anvil_str_view s_name_of_fn(const void *array, uint32_t at);

/*
 * The slot of `name` in the index of the array at `array`, or of the array's mark (name empty), which says it
 * is indexed and for how many items. An entry is only trusted when the array's item has the name.
 */
static struct anvil__asm_name_slot *s_index_slot(struct anvil__asm *a, const void *array, struct anvil_str_view name,
                                                 s_name_of_fn *name_of, bool *found, uint32_t *hash) {
    uint32_t h =
        (name.len ? anvil_json_hash(name.ptr, name.len) : 0) ^ (uint32_t)(((uintptr_t)array >> 4) * 0x9E3779B1u);
    struct anvil__asm_names *t = &a->names;
    *hash = h;
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
        struct anvil__asm_name_slot *e = &t->slots[i];
        if (!e->array) {
            *found = false;
            return e;
        }
        if (e->array == array && e->hash == h &&
            (name.len ? e->at != UINT32_MAX && anvil__sv_same(name_of(array, e->at), name) : e->at == UINT32_MAX)) {
            *found = true;
            return e;
        }
    }
}

/* Room for one more entry (the index is rebuilt twice as large when half full). */
static bool s_names_room(struct anvil__asm *a) {
    struct anvil__asm_names *t = &a->names;
    if ((t->count + 1) * 2 <= t->mask) {
        return true;
    }
    size_t size = t->mask ? (t->mask + 1) * 2 : 256;
    struct anvil__asm_name_slot *slots = anvil_mem_calloc(a->allocator, size, sizeof(*slots));
    if (!slots) {
        a->error = ANVIL_ENOMEM;
        return false;
    }
    for (size_t i = 0; t->mask && i <= t->mask; i++) {
        if (t->slots[i].array) {
            size_t j = t->slots[i].hash & (size - 1);
            while (slots[j].array) {
                j = (j + 1) & (size - 1);
            }
            slots[j] = t->slots[i];
        }
    }
    anvil_mem_release(a->allocator, t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return true;
}

/* Puts item `at` (named `name`) of `array` in the index; with an empty name, marks `array` indexed for `at` items. */
static void s_index_put(struct anvil__asm *a, const void *array, uint32_t at, struct anvil_str_view name,
                        s_name_of_fn *name_of) {
    bool found;
    uint32_t hash;
    if (s_names_room(a)) {
        struct anvil__asm_name_slot *e = s_index_slot(a, array, name, name_of, &found, &hash);
        e->array = array;
        e->at = name.len ? at : UINT32_MAX;
        e->count = name.len ? 0 : at;
        e->hash = hash;
        a->names.count += !found;
    }
}

/* Whether the first `count` items of `array` are indexed. */
static bool s_indexed(struct anvil__asm *a, const void *array, uint32_t count) {
    bool found;
    uint32_t hash;
    struct anvil__asm_name_slot *e =
        a->names.slots ? s_index_slot(a, array, anvil_sv("", 0), NULL, &found, &hash) : NULL;
    return e && found && e->count == count;
}

/* The item named `name` among the `count` items of `array` (UINT32_MAX when none): scanned when few, else through
 * the index (the array indexed whole the first time, or again once its count is not the one indexed). */
static uint32_t s_index_find(struct anvil__asm *a, const void *array, uint32_t count, struct anvil_str_view name,
                             s_name_of_fn *name_of) {
    if (count < S_LONG || !name.len || !s_names_room(a)) {
        for (uint32_t i = 0; i < count; i++) {
            if (anvil__sv_same(name_of(array, i), name)) {
                return i;
            }
        }
        return UINT32_MAX;
    }
    if (!s_indexed(a, array, count)) {
        for (uint32_t i = 0; i < count; i++) {
            s_index_put(a, array, i, name_of(array, i), name_of);
        }
        s_index_put(a, array, count, anvil_sv("", 0), name_of);
    }
    bool found;
    uint32_t hash;
    struct anvil__asm_name_slot *e = s_index_slot(a, array, name, name_of, &found, &hash);
    return found && e->at < count ? e->at : UINT32_MAX;
}

/* One item more at the end of an array (`count` now): kept in its index when the array is indexed. */
static void s_index_grew(struct anvil__asm *a, const void *array, uint32_t count, s_name_of_fn *name_of) {
    if (count > S_LONG && s_indexed(a, array, count - 1)) {
        s_index_put(a, array, count - 1, name_of(array, count - 1), name_of);
        s_index_put(a, array, count, anvil_sv("", 0), name_of);
    }
}

static struct anvil_str_view s_trait_name(const void *array, uint32_t at) {
    return ((const struct anvil__asm_trait *)array)[at].id;
}

static struct anvil_str_view s_member_name(const void *array, uint32_t at) {
    return ((const struct anvil__asm_member *)array)[at].name;
}

static struct anvil__asm_trait *s_trait_lookup(struct anvil__asm *a, struct anvil__asm_traits *traits,
                                               struct anvil_str_view id) {
    uint32_t at = s_index_find(a, traits->items, traits->count, id, s_trait_name);
    return at == UINT32_MAX ? NULL : &traits->items[at];
}

struct anvil__asm_member *anvil__asm_local_member(struct anvil__asm *a, struct anvil__asm_shape *s,
                                                  struct anvil_str_view name) {
    uint32_t at = s_index_find(a, s->members, s->member_count, name, s_member_name);
    return at == UINT32_MAX ? NULL : &s->members[at];
}

void anvil__asm_trait_add(struct anvil__asm *a, struct anvil_str_view target, struct anvil__asm_traits *traits,
                          const struct anvil__asm_trait *add) {
    struct anvil__asm_trait *old = s_trait_lookup(a, traits, add->id);
    if (old) {
        char was[600], now[600];
        if (!s_merge(a, old, add, was, now, sizeof(was))) {
            anvil__asm_event(
                a, ANVIL_SEVERITY_ERROR, target, "Model",
                "Conflicting `%.*s` trait found on shape `%.*s`. The previous trait was defined at `%s`, and a "
                "conflicting trait was defined at `%s`.",
                (int)add->id.len, add->id.ptr, (int)target.len, target.ptr, was, now);
        }
        return;
    }
    /* Lists are made at their size: one more is often the last. */
    if (!anvil__asm_grow32(a, a->lists, (void **)&traits->items, traits->count, &traits->cap, sizeof(*traits->items),
                           (size_t)traits->cap + 1 + traits->cap / 2)) {
        return;
    }
    traits->items[traits->count] = *add;
    traits->items[traits->count].grown = 0;
    traits->count++;
    s_index_grew(a, traits->items, traits->count, s_trait_name);
}

/* ---- resolving relative ids ---- */

bool anvil__asm_defined(struct anvil__asm *a, struct anvil_str_view id) {
    return anvil__asm_find(a, id) != NULL;
}

/*
 * The absolute id `text` names in `file`: `use` first, then the file's
 * namespace if any file defines the shape there, then the prelude, else the
 * namespace's (broken) id. `*found` says whether it names a known shape.
 */
/* The shape `ns#name` if the model defines it, looked up without keeping the id. */
/* `ns#name` in the id buffer, and its hash. False when out of memory. */
static bool s_local_id(struct anvil__asm *a, struct anvil_str_view ns, struct anvil_str_view name, uint32_t *hash) {
    anvil_buf_clear(&a->id_text);
    int rc = anvil_buf_append_sv(&a->id_text, ns);
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&a->id_text, '#') : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_sv(&a->id_text, name) : rc;
    if (rc != ANVIL_OK) {
        a->error = ANVIL_ENOMEM;
        return false;
    }
    *hash = anvil_json_hash(a->id_text.data, a->id_text.len);
    return true;
}

/* The guess for relative `name` (the prelude's) in the namespace of `id` (ns#name), made once. */
static struct anvil__asm_guess *s_guess(struct anvil__asm *a, struct anvil_str_view id, struct anvil_str_view name) {
    struct anvil__asm_guesses *t = &a->guesses;
    if ((t->count + 1) * 2 > t->mask) {
        size_t size = t->mask ? (t->mask + 1) * 2 : 64;
        struct anvil__asm_guess **slots = anvil__asm_alloc(a, size * sizeof(*slots));
        if (!slots) {
            return NULL;
        }
        memset(slots, 0, size * sizeof(*slots));
        for (size_t i = 0; t->mask && i <= t->mask; i++) {
            if (t->slots[i]) {
                size_t j = anvil_json_hash(t->slots[i]->id.ptr, t->slots[i]->id.len) & (size - 1);
                while (slots[j]) {
                    j = (j + 1) & (size - 1);
                }
                slots[j] = t->slots[i];
            }
        }
        t->slots = slots;
        t->mask = size - 1;
    }
    size_t i = anvil_json_hash(id.ptr, id.len) & t->mask;
    for (; t->slots[i]; i = (i + 1) & t->mask) {
        if (anvil_sv_eq(t->slots[i]->id, id)) {
            return t->slots[i];
        }
    }
    struct anvil__asm_guess *g = anvil__asm_alloc(a, sizeof(*g));
    if (!g) {
        return NULL;
    }
    g->id = anvil__asm_concat(a, id, "", anvil_sv("", 0));
    g->prelude = anvil__asm_concat(a, anvil_sv_from_cstr("smithy.api#"), "", name);
    g->elsewhere = false;
    if (a->error) {
        return NULL;
    }
    t->slots[i] = g;
    t->count++;
    return g;
}

/*
 * The absolute id relative `root` (no member) names in `file`: `use` first, then the file's namespace if
 * the shape is defined there, then the prelude (a guess, `*guess`, while the namespace may still define it),
 * else the namespace's (maybe broken) id. `*known` says whether it names a known shape.
 */
static struct anvil_str_view s_resolve_relative(struct anvil__asm *a, const struct anvil__idl_file *file,
                                                struct anvil_str_view root, bool *known,
                                                struct anvil__asm_guess **guess) {
    bool unused;
    bool wanted = known != NULL; /* whether it names a known shape: for syntactic ids only */
    known = known ? known : &unused;
    *guess = NULL;
    const struct anvil__idl_use *use = file ? anvil__idl_use_find(file, root) : NULL;
    if (use) {
        *known = wanted && anvil__asm_defined(a, use->id);
        return use->id;
    }
    if (!file || !file->ns.len) {
        *known = anvil__prelude_type(root, NULL);
        return anvil__asm_id(a, anvil_sv_from_cstr("smithy.api"), "#", root);
    }
    *known = true;
    uint32_t hash;
    if (!s_local_id(a, file->ns, root, &hash)) {
        return anvil_sv("", 0);
    }
    struct anvil_str_view id = anvil_buf_view(&a->id_text);
    const struct anvil__asm_shape *local = anvil__asm_find_hashed(a, id, hash);
    if (local) {
        return local->id; /* the shape's own copy: nothing built, nothing interned */
    }
    bool later = a->known && s_known_slot(a->known, id); /* a later statement defines it */
    if (!later && anvil__prelude_type(root, NULL)) {
        /* Unless a later statement defines ns#root: checked once every file is read. */
        *guess = s_guess(a, id, root);
        return *guess ? (*guess)->prelude : anvil_sv("", 0);
    }
    *known = later;
    const struct anvil_json_key *k = anvil__asm_key_hashed(a, id, hash);
    return k ? anvil_sv(k->bytes, k->len) : anvil_sv("", 0);
}

struct anvil_str_view anvil__asm_resolve(struct anvil__asm *a, const struct anvil__idl_file *file,
                                         struct anvil_str_view text, bool *found) {
    size_t dollar = anvil__sv_index(text, '$');
    struct anvil_str_view root = dollar == SIZE_MAX ? text : anvil_sv_slice(text, 0, dollar);
    struct anvil_str_view member = dollar == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(text, dollar, SIZE_MAX);
    size_t hash = anvil__sv_index(root, '#');
    struct anvil_str_view out;
    bool known = false;
    struct anvil__asm_guess *guess = NULL;
    if (hash != SIZE_MAX) {
        out = root;
        if (found) {
            struct anvil_str_view name = anvil_sv_slice(root, hash + 1, SIZE_MAX);
            known = anvil__asm_defined(a, root) ||
                    (anvil_sv_starts_with(root, anvil_sv_from_cstr("smithy.api#")) && anvil__prelude_type(name, NULL));
        }
    } else if (found || member.len) {
        out = s_resolve_relative(a, file, root, found ? &known : NULL, &guess); /* rare: not worth a slot */
    } else {
        return anvil__asm_resolve_name(a, file, root);
    }
    if (guess) {
        guess->elsewhere = true; /* not a member's target */
    }
    if (found) {
        *found = known;
    }
    return member.len ? anvil__asm_id(a, out, "", member) : out;
}

struct anvil_str_view anvil__asm_resolve_name(struct anvil__asm *a, const struct anvil__idl_file *file,
                                              struct anvil_str_view name) {
    struct anvil__asm_guess *guess = NULL;
    struct anvil_str_view out;
    if (!file || (uintptr_t)name.ptr < (uintptr_t)file->text ||
        (uintptr_t)name.ptr + name.len > (uintptr_t)file->text + file->len) {
        /* A name made while reading (an inline input's): a slot keeps only names that stay put. */
        out = s_resolve_relative(a, file, name, NULL, &guess);
    } else {
        if (!a->resolved) { /* the allocator's: freed once every file is read */
            a->resolved = anvil_mem_calloc(a->allocator, a->cache_slots, sizeof(*a->resolved));
            if (!a->resolved) {
                a->error = ANVIL_ENOMEM;
                return anvil_sv("", 0);
            }
        }
        struct anvil__asm_resolved *r = &a->resolved[anvil_json_hash(name.ptr, name.len) & (a->cache_slots - 1)];
        if (r->file != file || r->epoch != a->epoch || !anvil__sv_same(r->name, name)) {
            out = s_resolve_relative(a, file, name, NULL, &guess);
            *r = (struct anvil__asm_resolved){file, name, out, guess, a->epoch};
            /* The cache may not hold a view into the id buffer, nor one that failed. */
            if (a->error || out.ptr == (const char *)a->id_text.data) {
                r->file = NULL;
            }
        } else {
            out = r->id;
            guess = r->guess;
        }
    }
    if (guess) {
        guess->elsewhere = guess->elsewhere || !a->member_target;
    }
    return out;
}

/* The type of the shape `id` names (a model shape or the prelude), or false when unknown. */
bool anvil__asm_type_of(struct anvil__asm *a, struct anvil_str_view id, enum anvil_shape_type *type) {
    struct anvil__asm_shape *s = anvil__asm_find(a, id);
    if (s) {
        *type = s->type;
        return true;
    }
    const struct anvil_str_view *later = a->known ? s_known_slot(a->known, id) : NULL;
    if (later) {
        *type = (enum anvil_shape_type)a->known->types[later - a->known->ids];
        return true;
    }
    return anvil_sv_starts_with(id, anvil_sv_from_cstr("smithy.api#")) &&
           anvil__prelude_type(anvil_sv_slice(id, 11, SIZE_MAX), type);
}

/* The slot of `text` in `t`: the key record there, or an empty slot to put one in. NULL when out of memory. */
static const struct anvil_json_key **s_intern_slot(struct anvil__asm *a, struct anvil__asm_intern *t,
                                                   struct anvil_str_view text, uint32_t hash) {
    if ((t->count + 1) * 2 > t->mask) {
        size_t size = t->mask ? (t->mask + 1) * 2 : a->cache_slots * 2;
        const struct anvil_json_key **slots = anvil_mem_calloc(a->allocator, size, sizeof(*slots));
        if (!slots) {
            return NULL;
        }
        for (size_t i = 0; t->mask && i <= t->mask; i++) {
            if (t->slots[i]) {
                size_t j = t->slots[i]->hash & (size - 1);
                while (slots[j]) {
                    j = (j + 1) & (size - 1);
                }
                slots[j] = t->slots[i];
            }
        }
        anvil_mem_release(a->allocator, (void *)t->slots);
        t->slots = slots;
        t->mask = size - 1;
    }
    for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
        const struct anvil_json_key *k = t->slots[i];
        if (!k || (k->hash == hash && k->len == text.len && memcmp(k->bytes, text.ptr, text.len) == 0)) {
            return &t->slots[i];
        }
    }
}

static size_t s_log2(size_t cap) {
    size_t k = 0;
    while (((size_t)1 << k) < cap) {
        k++;
    }
    return k;
}

/* Gives an object's member array back for reuse: an output object's members are copied when it is finished. */
static void s_items_release(struct anvil__asm *a, struct anvil__asm_obj *obj) {
    if (obj->items && obj->cap >= 4) {
        size_t k = s_log2(obj->cap);
        *(void **)obj->items = a->free_items[k];
        a->free_items[k] = obj->items;
    }
    obj->items = NULL;
    obj->cap = 0;
}

/* Room for one more member: arrays double (4, 8, 16...) and come from those finished objects gave back. */
static bool s_items_grow(struct anvil__asm *a, struct anvil__asm_obj *obj) {
    if (obj->count < obj->cap) {
        return true;
    }
    size_t cap = obj->cap ? obj->cap * 2 : 4, k = s_log2(cap);
    struct anvil_json_member *items = a->free_items[k];
    if (items) {
        a->free_items[k] = *(void **)items;
    } else if (k >= 48 || !(items = anvil__asm_alloc(a, cap * sizeof(*items)))) {
        a->error = ANVIL_ENOMEM;
        return false;
    }
    if (obj->count) {
        memcpy(items, obj->items, obj->count * sizeof(*items));
    }
    s_items_release(a, obj);
    obj->items = items;
    obj->cap = cap;
    return true;
}

const struct anvil_json_key *anvil__asm_key_hashed(struct anvil__asm *a, struct anvil_str_view key, uint32_t hash) {
    const char *bytes = key.ptr ? key.ptr : "";
    const struct anvil_json_key **slot = s_intern_slot(a, &a->keys, anvil_sv(bytes, key.len), hash);
    if (slot && !*slot) {
        *slot = anvil__json_key_new(a->arena, bytes, key.len, hash);
        a->keys.count += *slot != NULL;
    }
    if (!slot || !*slot) {
        a->error = ANVIL_ENOMEM;
        return NULL;
    }
    return *slot;
}

const struct anvil_json_key *anvil__asm_key(struct anvil__asm *a, struct anvil_str_view key) {
    return anvil__asm_key_hashed(a, key, anvil_json_hash(key.ptr ? key.ptr : "", key.len));
}

const struct anvil_json_key *anvil__asm_atom(struct anvil__asm *a, struct anvil_str_view s) {
    if (!a->atoms) {
        a->atoms = anvil__asm_alloc(a, a->cache_slots / 2 * sizeof(*a->atoms));
        if (!a->atoms) {
            return NULL;
        }
        memset(a->atoms, 0, a->cache_slots / 2 * sizeof(*a->atoms));
    }
    struct anvil__asm_atom *at = &a->atoms[((uintptr_t)s.ptr >> 3 ^ s.len) & (a->cache_slots / 2 - 1)];
    if (at->ptr != s.ptr || at->len != s.len || !at->key) {
        *at = (struct anvil__asm_atom){s.ptr, s.len, anvil__asm_key(a, s)};
    }
    return at->key;
}

struct anvil_str_view anvil__asm_keep(struct anvil__asm *a, struct anvil_str_view s) {
    const struct anvil_json_key *k = anvil__asm_key(a, s);
    return k ? anvil_sv(k->bytes, k->len) : anvil_sv("", 0);
}

void anvil__asm_put_key(struct anvil__asm *a, struct anvil__asm_obj *obj, const struct anvil_json_key *key,
                        const struct anvil_json *value) {
    if (!key || !s_items_grow(a, obj)) {
        return;
    }
    obj->items[obj->count].key = key;
    obj->items[obj->count].value = *value;
    obj->count++;
}

void anvil__asm_put(struct anvil__asm *a, struct anvil__asm_obj *obj, struct anvil_str_view key,
                    const struct anvil_json *value) {
    anvil__asm_put_key(a, obj, anvil__asm_key(a, key), value);
}

void anvil__asm_put_cstr(struct anvil__asm *a, struct anvil__asm_obj *obj, const char *key,
                         const struct anvil_json *value) {
    anvil__asm_put(a, obj, anvil_sv_from_cstr(key), value);
}

struct anvil_json anvil__asm_obj_finish(struct anvil__asm *a, struct anvil__asm_obj *obj) {
    struct anvil_json out = *anvil__json_empty_object();
    size_t unused;
    if (!a->error && obj->count &&
        anvil__json_object_finish(a->arena, obj->items, obj->count, false, &unused, &out) != ANVIL_OK) {
        a->error = ANVIL_ENOMEM;
    }
    s_items_release(a, obj);
    obj->count = 0;
    return out;
}

struct anvil_json anvil__asm_str(struct anvil__asm *a, struct anvil_str_view s) {
    struct anvil_json v = anvil_json_make_null();
    if (s.len < 8) { /* held in the value itself */
        if (anvil__asm_string(a, s, &v) != ANVIL_OK) {
            a->error = ANVIL_ENOMEM;
        }
        return v;
    }
    const struct anvil_json_key *k = anvil__asm_key(a, s);
    if (k) { /* a string value over the key's bytes (NUL-terminated, as a string's are) */
        v = anvil__json_borrowed_string(k->bytes, k->len);
    }
    return v;
}

/* {"target": id} */
struct anvil_json anvil__asm_target_ref(struct anvil__asm *a, struct anvil_str_view id) {
    struct anvil__asm_obj obj = {0};
    struct anvil_json v = anvil__asm_str(a, id);
    anvil__asm_put_cstr(a, &obj, "target", &v);
    return anvil__asm_obj_finish(a, &obj);
}

/*
 * A trait list as a JSON AST object. @box is left out, as Smithy's serializer leaves it out of every 2.0
 * model (its BoxTrait is synthetic): a 1.0 file's @box has done its work in the upgrade (a null default on
 * a boxed member, no zero default on a boxed shape), and the AST must read back as 2.0, where @box is an
 * error.
 * Metadata (`with_box`) is anyone's keys and keeps them all.
 */
void anvil__asm_traits_done(struct anvil__asm *a) {
    for (size_t i = 0; i < a->count && !a->error; i++) {
        struct anvil__asm_shape *s = &a->shapes[i];
        if (s->dup_of) {
            continue;
        }
        s->traits.json = anvil__asm_traits_json(a, &s->traits, false);
        for (size_t k = 0; k < s->member_count; k++) {
            s->members[k].traits.json = anvil__asm_traits_json(a, &s->members[k].traits, false);
        }
    }
    for (size_t i = 0; i < a->member_apply_count && !a->error; i++) {
        a->member_applies[i].traits.json = anvil__asm_traits_json(a, &a->member_applies[i].traits, false);
    }
    anvil_arena_destroy(a->lists);
    a->lists = NULL;
}

struct anvil_json anvil__asm_traits_json(struct anvil__asm *a, const struct anvil__asm_traits *traits, bool with_box) {
    struct anvil__asm_obj obj = {0};
    for (size_t i = 0; i < traits->count; i++) {
        if (!with_box && anvil__sv_same(traits->items[i].id, ANVIL_SV("smithy.api#box"))) {
            continue;
        }
        anvil__asm_put_key(a, &obj, anvil__asm_atom(a, traits->items[i].id), &traits->items[i].value);
    }
    return anvil__asm_obj_finish(a, &obj);
}

/* ---- reading files into shape records ---- */

bool anvil__asm_trait_may_speak(struct anvil__asm *a, struct anvil__asm_traits *traits, int version,
                                const struct anvil__asm_trait *add) {
    struct anvil_str_view id = add->id;
    return s_trait_lookup(a, traits, id) ||
           (version < 2 &&
            (anvil_sv_eq(id, ANVIL_SV("smithy.api#mixin")) || anvil_sv_eq(id, ANVIL_SV("smithy.api#default")))) ||
           (version >= 2 && anvil_sv_eq(id, ANVIL_SV("smithy.api#box")));
}

/* A trait read from a file, checked against the file's version and added. */
void anvil__asm_add_trait(struct anvil__asm *a, struct anvil_str_view target, int version,
                          struct anvil__asm_traits *traits, const struct anvil__asm_trait *add) {
    struct anvil_str_view id = add->id;
    if (version < 2 && anvil_sv_eq(id, ANVIL_SV("smithy.api#mixin"))) {
        anvil__asm_event(
            a, ANVIL_SEVERITY_ERROR, target, "Model",
            "Mixins can only be used in Smithy 2.0 or later. Attempted to apply a @mixin trait to `%.*s` in a "
            "model file using version `1.0`.",
            (int)target.len, target.ptr);
    } else if (version < 2 && anvil_sv_eq(id, ANVIL_SV("smithy.api#default"))) {
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, target, "Model",
                         "The @default trait can only be used in Smithy 2.0 or later");
    } else if (version >= 2 && anvil_sv_eq(id, ANVIL_SV("smithy.api#box"))) {
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, target, "Model", "@box is not supported in Smithy IDL 2.0");
    }
    anvil__asm_trait_add(a, target, traits, add);
}

/* ---- metadata ---- */

/* The metadata key `key` merged so far, or NULL: a hash index over a->metadata (scratch). */
static struct anvil__asm_trait *s_metadata_find(struct anvil__asm *a, struct anvil_str_view key) {
    for (size_t h = anvil_json_hash(key.ptr, key.len) & a->metadata_mask; a->metadata_slots && a->metadata_slots[h];
         h = (h + 1) & a->metadata_mask) {
        struct anvil__asm_trait *m = &a->metadata[a->metadata_slots[h] - 1];
        if (anvil__sv_same(m->id, key)) {
            return m;
        }
    }
    return NULL;
}

/* Puts the last metadata key in the index, rebuilt twice as large when half full. */
static void s_metadata_index(struct anvil__asm *a) {
    size_t last = a->metadata_count - 1;
    if (a->metadata_count * 2 > a->metadata_mask) {
        size_t size = a->metadata_mask ? (a->metadata_mask + 1) * 2 : 32;
        uint32_t *slots = anvil__asm_alloc(a, size * sizeof(*slots));
        if (!slots || a->metadata_count >= UINT32_MAX) {
            a->error = ANVIL_ENOMEM;
            return;
        }
        memset(slots, 0, size * sizeof(*slots));
        a->metadata_slots = slots;
        a->metadata_mask = size - 1;
        last = 0; /* every key again */
    }
    for (size_t i = last; i < a->metadata_count; i++) {
        size_t h = anvil_json_hash(a->metadata[i].id.ptr, a->metadata[i].id.len) & a->metadata_mask;
        while (a->metadata_slots[h]) {
            h = (h + 1) & a->metadata_mask;
        }
        a->metadata_slots[h] = (uint32_t)i + 1;
    }
}

static void s_metadata(struct anvil__asm *a, const struct anvil__asm_trait *add) {
    if (anvil_sv_eq_cstr(add->id, "validators") && !anvil_json_is_array(&add->value)) {
        anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model", "validators must be an array. Found %s.",
                         anvil__asm_json_kind(&add->value));
        return;
    }
    struct anvil__asm_trait *m = s_metadata_find(a, add->id);
    if (m) {
        char was[600], now[600];
        if (!s_merge(a, m, add, was, now, sizeof(was))) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                             "Metadata conflict for key `%.*s`. Defined in both `%s` and `%s`", (int)add->id.len,
                             add->id.ptr, was, now);
        }
        return;
    }
    if (anvil__asm_grow(a, (void **)&a->metadata, a->metadata_count, &a->metadata_cap, sizeof(*a->metadata))) {
        a->metadata[a->metadata_count] = *add;
        a->metadata[a->metadata_count].grown = 0;
        a->metadata_count++;
        s_metadata_index(a);
    }
}

/* ---- reading the sources ---- */

struct s_source {
    const char *name;
    struct anvil__idl_file idl;    /* when IDL */
    const struct anvil_json *json; /* when JSON AST */
    int version;
    struct anvil__asm_applies applies; /* IDL: its `apply` statements */
};

static bool s_is_json(const struct anvil_model_source *src) {
    if (src->format != ANVIL_MODEL_FORMAT_AUTO) {
        return src->format == ANVIL_MODEL_FORMAT_JSON || src->format == ANVIL_MODEL_FORMAT_BOTOCORE;
    }
    size_t n = src->name ? strlen(src->name) : 0;
    if (n >= 5 && strcmp(src->name + n - 5, ".json") == 0) {
        return true;
    }
    if (n >= 7 && strcmp(src->name + n - 7, ".smithy") == 0) {
        return false;
    }
    for (size_t i = 0; i < src->len; i++) {
        char c = src->text[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            return c == '{';
        }
    }
    return false;
}

/*
 * Whether a JSON source may be a botocore service model: declared one, or (AUTO) not starting with the
 * `smithy` key Smithy writes first. Such a file is parsed on its own and converted (botocore_model.c), so its own tree
 * does not stay in the model's arena; a Smithy AST that only looked like one is copied there.
 */
static bool s_maybe_botocore(const struct anvil_model_source *src) {
    if (src->format != ANVIL_MODEL_FORMAT_AUTO) {
        return src->format == ANVIL_MODEL_FORMAT_BOTOCORE;
    }
    size_t i = 0;
    for (int brace = 0; i < src->len; i++) {
        char c = src->text[i];
        if (c == '{' && !brace) {
            brace = 1;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            break;
        }
    }
    static const char smithy[] = "\"smithy\"";
    return !(src->len - i >= sizeof(smithy) - 1 && memcmp(src->text + i, smithy, sizeof(smithy) - 1) == 0);
}

static void s_botocore_event(void *ctx, enum anvil_severity severity, struct anvil_str_view shape_id,
                             const char *message) {
    anvil__asm_event(ctx, severity, shape_id, "BotocoreModel", "%s", message);
}

/* A JSON AST file's shapes: a record each, made at once (its ids are absolute). */
static int s_json_shapes(struct anvil__asm *a, struct s_source *src) {
    const struct anvil_json *shapes = anvil_json_object_get_cstr(src->json, "shapes");
    for (size_t k = 0; k < anvil_json_len(shapes) && !a->error; k++) {
        const struct anvil_json_member *e = anvil_json_object_at(shapes, k);
        struct anvil_str_view id = anvil_json_member_key(e);
        struct anvil_str_view type_name = anvil_json_string(anvil_json_object_get_cstr(&e->value, "type"));
        enum anvil_shape_type type;
        bool apply = anvil_sv_eq_cstr(type_name, "apply");
        size_t dollar = anvil_sv_find_byte(id, 0, '$');
        if (dollar != SIZE_MAX && !apply && anvil_sv_find_byte(id, 0, '#') != SIZE_MAX) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, id, "Model",
                             "Shapes of type `%.*s` cannot contain a member in their shape ID. Found `%.*s`",
                             (int)(type_name.len < 64 ? type_name.len : 64), type_name.ptr,
                             (int)(id.len < 200 ? id.len : 200), id.ptr);
            continue;
        }
        if (!anvil__shape_id_valid(dollar == SIZE_MAX ? id : anvil_sv_slice(id, 0, dollar))) {
            anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model", "Invalid shape ID: %.*s",
                             (int)(id.len < 200 ? id.len : 200), id.ptr);
            continue;
        }
        if (apply) {
            anvil__asm_json_props(a, id, &e->value, anvil__asm_apply_props);
            continue;
        }
        if (!anvil_json_is_object(&e->value) || !anvil_json_is_string(anvil_json_object_get_cstr(&e->value, "type"))) {
            return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "%s: shape `%.*s` must be an object with a string `type`", src->name,
                                  (int)(id.len < 200 ? id.len : 200), id.ptr);
        }
        if (!anvil__shape_type_named(type_name, &type)) {
            return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0, "%s: shape `%.*s` has unknown type `%.*s`", src->name,
                                  (int)(id.len < 200 ? id.len : 200), id.ptr,
                                  (int)(type_name.len < 64 ? type_name.len : 64), type_name.ptr);
        }
        struct anvil__asm_shape *s = anvil__asm_register(a, id, e->key->hash, type, &src->idl, src->version, 0);
        if (s) {
            s->json = &e->value;
            anvil__asm_json_shape(a, s);
        }
    }
    return ANVIL_OK;
}

/* Reads one source into records: a JSON AST file whole, an IDL file statement by statement. */
static int s_read(struct anvil__asm *a, const struct anvil_model_source *src, struct s_source *out) {
    struct anvil_diag d;
    anvil_diag_clear(&d);
    out->name = out->idl.name = src->name ? src->name : "<input>";
    int rc;
    if (s_is_json(src)) {
        struct anvil_json *root = anvil_arena_alloc(a->arena, sizeof(*root), 0);
        if (!root) {
            return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
        }
        if (s_maybe_botocore(src)) {
            struct anvil__botocore_convert cv = {a->allocator, a->arena, s_botocore_event, a, &d};
            bool converted;
            rc = anvil__botocore_parse(&cv, src->text, src->len, src->format == ANVIL_MODEL_FORMAT_BOTOCORE, root,
                                       &converted);
        } else {
            /* The JSON parser sizes blocks from what it has read, when the arena has no rule of its own. */
            anvil__arena_hint_fn *hint = a->arena->hint;
            a->arena->hint = NULL;
            rc = anvil_json_parse_into(a->arena, a->allocator, src->text, src->len, NULL, root, &d);
            a->arena->hint = hint;
        }
        if (rc == ANVIL_OK) {
            out->json = root;
            const struct anvil_json *smithy = anvil_json_object_get_cstr(root, "smithy");
            struct anvil_str_view v = anvil_json_string(smithy);
            if (!smithy && src->format == ANVIL_MODEL_FORMAT_JSON && anvil__botocore_is_service(root)) {
                return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0,
                                      "%s: a botocore service model, given as a Smithy JSON AST "
                                      "(ANVIL_MODEL_FORMAT_BOTOCORE or AUTO reads it)",
                                      out->name);
            }
            if (!anvil_json_is_object(root) || !anvil_json_is_string(smithy)) {
                return anvil_diag_set(a->diag, ANVIL_EMODEL, 0, 0, 0,
                                      "%s: a Smithy JSON AST model must be an object whose `smithy` version is "
                                      "\"1.0\" or \"2.0\"",
                                      out->name);
            }
            const struct anvil_json *shapes = anvil_json_object_get_cstr(root, "shapes");
            const struct anvil_json *metadata = anvil_json_object_get_cstr(root, "metadata");
            /* Like Smithy, what is wrong inside a model is an event, and the rest of the model still counts. */
            if (!(anvil_sv_eq_cstr(v, "1.0") || anvil_sv_eq_cstr(v, "2.0") || anvil_sv_eq_cstr(v, "1") ||
                  anvil_sv_eq_cstr(v, "2"))) {
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                                 "Unsupported Smithy version number: %.*s", (int)(v.len < 100 ? v.len : 100), v.ptr);
                out->json = NULL;
            } else if (shapes && !anvil_json_is_object(shapes)) {
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                                 "Expected `shapes` to be an object; found %s", anvil__asm_json_kind(shapes));
                out->json = NULL;
            } else {
                anvil__asm_json_props(a, anvil_sv("", 0), root, anvil__asm_top_props);
            }
            if (out->json && metadata && !anvil_json_is_object(metadata)) {
                anvil__asm_event(a, ANVIL_SEVERITY_ERROR, anvil_sv("", 0), "Model",
                                 "Expected `metadata` to be an object; found %s", anvil__asm_json_kind(metadata));
            }
            out->version = out->idl.version = v.ptr[0] == '1' ? 1 : 2;
            return out->json ? s_json_shapes(a, out) : ANVIL_OK;
        }
    } else {
        struct anvil__idl_sink sink = anvil__asm_idl_sink;
        sink.ctx = a;
        a->applies = &out->applies;
        rc = anvil__idl_parse(a->parse, a->statements, &sink, out->name, src->text, src->len, &out->idl, &d);
        a->applies = NULL;
        out->version = out->idl.version;
        if (rc == ANVIL_OK || rc == ANVIL_ECANCELED) { /* stopped: the assembly says why */
            return ANVIL_OK;
        }
    }
    return anvil_diag_set(a->diag, rc, d.line, d.column, d.offset, "%s: %s", out->name, d.message);
}

static void s_read_metadata(struct anvil__asm *a, struct s_source *src) {
    if (src->json) {
        const struct anvil_json *meta = anvil_json_object_get_cstr(src->json, "metadata");
        for (size_t k = 0; k < anvil_json_len(meta) && anvil_json_is_object(meta); k++) {
            const struct anvil_json_member *e = anvil_json_object_at(meta, k);
            s_metadata(a, &(struct anvil__asm_trait){
                              .id = anvil_json_member_key(e), .value = e->value, .file = src->idl.number});
        }
        return;
    }
    const struct anvil__idl_file *f = &src->idl;
    for (size_t k = 0; k < f->metadata_count && !a->error; k++) {
        struct anvil_json value;
        if (anvil__asm_node_json(a, NULL, &f->metadata[k].value, anvil_sv("", 0), &value) != ANVIL_OK) {
            return;
        }
        /* The key may be a string the lexer decoded into the parse arena, which goes before the output. */
        struct anvil_str_view key = anvil__asm_concat(a, f->metadata[k].key, "", anvil_sv("", 0));
        s_metadata(a, &(struct anvil__asm_trait){
                          .id = key, .value = value, .file = f->number, .at = (uint32_t)f->metadata[k].value.at});
    }
    for (size_t k = 0; k < f->note_count; k++) {
        const struct anvil__idl_note *n = &f->notes[k];
        anvil__asm_event(a, n->severity, n->shape_id, n->event_id, "%s", n->message);
    }
}

/*
 * The next block of an assembly arena: an eighth of what it holds, between 4 KiB and 2 MiB. Doubling
 * would leave up to half of a large arena untouched, and the assembly's arenas are alive together at the
 * peak.
 */
static size_t s_block_hint(void *ctx) {
    const struct anvil_arena *arena = ctx;
    size_t next = anvil_arena_bytes_reserved(arena) / 8;
    return next < ((size_t)4 << 10) ? (size_t)4 << 10 : next > ((size_t)2 << 20) ? (size_t)2 << 20 : next;
}

/*
 * Once every file is read: the relative names that fell back to the prelude and that their namespace defines
 * after all. Member targets holding such a guess are mended; false when a wrong guess went anywhere else, or
 * an annotation trait whose type was unknown is defined after all (the assembly must run again).
 */
static bool s_mend_guesses(struct anvil__asm *a) {
    for (size_t i = 0; a->untyped.mask && i <= a->untyped.mask; i++) {
        if (a->untyped.slots[i].ptr && anvil__asm_find(a, a->untyped.slots[i])) {
            return false;
        }
    }
    /* The wrong guesses, by the address of what each handed out: (that address, the id it should have been). */
    size_t n = 0;
    for (size_t i = 0; a->guesses.mask && i <= a->guesses.mask; i++) {
        const struct anvil__asm_guess *g = a->guesses.slots[i];
        const struct anvil__asm_shape *s = g ? anvil__asm_find(a, g->id) : NULL;
        if (s && g->elsewhere) {
            return false;
        }
        n += s != NULL;
    }
    if (n == 0) {
        return true;
    }
    size_t size = 16;
    while (size < n * 2) {
        size *= 2;
    }
    struct {
        const char *handed;
        struct anvil_str_view id;
    } *wrong = anvil__asm_alloc(a, size * sizeof(*wrong));
    if (!wrong) {
        return true; /* out of memory: the assembly says so */
    }
    memset(wrong, 0, size * sizeof(*wrong));
    for (size_t i = 0; i <= a->guesses.mask; i++) {
        const struct anvil__asm_guess *g = a->guesses.slots[i];
        const struct anvil__asm_shape *s = g ? anvil__asm_find(a, g->id) : NULL;
        size_t j = ((uintptr_t)(g ? g->prelude.ptr : NULL) >> 3) & (size - 1);
        while (s && wrong[j].handed) {
            j = (j + 1) & (size - 1);
        }
        if (s) {
            wrong[j].handed = g->prelude.ptr;
            wrong[j].id = s->id;
        }
    }
    for (size_t i = 0; i < a->count; i++) {
        for (size_t k = 0; k < a->shapes[i].member_count; k++) {
            struct anvil__asm_member *m = &a->shapes[i].members[k];
            for (size_t j = ((uintptr_t)m->target.ptr >> 3) & (size - 1); wrong[j].handed; j = (j + 1) & (size - 1)) {
                if (wrong[j].handed == m->target.ptr) {
                    m->target = wrong[j].id;
                    break;
                }
            }
        }
    }
    return true;
}

/* The assembly ran on a guess that turned out wrong: run it again, knowing every id. */
#define S_AGAIN 1

static int s_assemble(struct anvil__asm *a, const struct anvil_model_source *sources, size_t count) {
    struct s_source *read = anvil__asm_alloc(a, (count + 1) * sizeof(*read));
    if (!read) {
        return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    memset(read, 0, (count + 1) * sizeof(*read));
    a->files = anvil__asm_alloc(a, (count + 1) * sizeof(*a->files));
    if (!a->files) {
        return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < count; i++) {
        a->files[i] = &read[i].idl;
    }
    for (size_t i = 0; i < count; i++) {
        read[i].idl.number = (uint16_t)(i + 1);
        int rc = s_read(a, &sources[i], &read[i]);
        if (rc == ANVIL_OK && a->error) {
            rc = anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
        }
        if (rc == ANVIL_OK && a->over_limit) {
            rc = anvil_diag_set(a->diag, ANVIL_ELIMIT, 0, 0, 0, "the model defines more than %zu shapes (max_shapes)",
                                a->max_shapes);
        }
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    anvil_mem_release(a->allocator, a->resolved); /* names are resolved as files are read */
    a->resolved = NULL;
    if (!a->known && !s_mend_guesses(a)) {
        return S_AGAIN;
    }
    for (size_t i = 0; i < count; i++) {
        s_read_metadata(a, &read[i]);
    }
    anvil__asm_duplicates(a);
    for (size_t i = 0; i < a->count && !a->error; i++) {
        if (!a->shapes[i].dup_of) {
            anvil__asm_broken(a, &a->shapes[i]);
        }
    }
    for (size_t i = 0; i < a->count && !a->error; i++) {
        if (a->shapes[i].broken < 3) {
            anvil__asm_elide(a, &a->shapes[i], 0);
        }
    }
    for (size_t i = 0; i < count && !a->error; i++) {
        if (read[i].json) {
            anvil__asm_json_applies(a, read[i].json, &read[i].idl);
        }
        for (size_t k = 0; k < read[i].applies.count && !a->error; k++) {
            anvil__asm_apply(a, read[i].applies.items[k].target, &read[i].applies.items[k].traits);
        }
    }
    anvil__asm_upgrade(a);
    for (size_t i = 0; i < a->count && !a->error; i++) {
        struct anvil__asm_shape *s = &a->shapes[i];
        if (s->dup_of || s->broken >= 3) {
            continue;
        }
        if (s->mixin_count) {
            anvil__asm_mixin_members(a, s);
        }
        anvil__asm_mixin_rules(a, s);
        if (s->type == ANVIL_SHAPE_ENUM || s->type == ANVIL_SHAPE_INT_ENUM) {
            anvil__asm_enum_values(a, s);
        }
        anvil__asm_required_members(a, s);
    }
    struct anvil_str_view *traits = NULL;
    size_t trait_count = anvil__asm_applied_traits(a, &traits);
    anvil__asm_syntactic_check(a, traits, trait_count);
    anvil__asm_trait_shapes_check(a, traits, trait_count);
    for (size_t i = 0; i < count; i++) {
        if (!read[i].json) {
            anvil__asm_use_check(a, &read[i].idl, traits, trait_count);
        }
    }
    /* What the IDL files said besides their statements is in records by now: free it before the model is
     * built. Nothing reads an anvil__idl_file's arrays from here on. */
    anvil_arena_destroy(a->parse);
    a->parse = NULL;
    if (a->error || a->events->error) {
        return anvil_diag_set(a->diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    return ANVIL_OK;
}

/* The output document's first block, so that it is usually one block: a JSON AST source's tree lives there
 * (about 1.3x its text), an IDL source's values and model about as much as its text. */
static size_t s_first_block(const struct anvil_model_source *sources, size_t count) {
    size_t hint = 0;
    for (size_t i = 0; i < count; i++) {
        size_t len = sources[i].len < SIZE_MAX / 4 ? sources[i].len : SIZE_MAX / 4;
        hint += s_is_json(&sources[i]) ? len + len / 3 : len;
        hint = hint < SIZE_MAX / 4 ? hint : SIZE_MAX / 4;
    }
    return hint;
}

/* A fresh assembler; its output document in `*doc`. ANVIL_OK or ANVIL_ENOMEM (nothing kept). */
static int s_setup(struct anvil__asm *a, struct anvil_allocator *allocator, struct anvil_diag *diag,
                   const struct anvil_model_source *sources, size_t count, struct anvil_json_doc **doc) {
    memset(a, 0, sizeof(*a));
    a->allocator = allocator;
    a->diag = diag;
    anvil_buf_init(&a->id_text, allocator, 0);
    anvil_buf_init(&a->member_text, allocator, 0);
    *doc = NULL;
    if (anvil__json_doc_new(allocator, s_first_block(sources, count), doc) != ANVIL_OK ||
        anvil_arena_new(allocator, NULL, &a->scratch) != ANVIL_OK ||
        anvil_arena_new(allocator, NULL, &a->parse) != ANVIL_OK ||
        anvil_arena_new(allocator, NULL, &a->statements) != ANVIL_OK ||
        anvil_arena_new(allocator, NULL, &a->lists) != ANVIL_OK ||
        anvil__events_new(allocator, &a->events) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    a->arena = anvil_json_doc_arena(*doc);
    size_t input = 0;
    for (size_t i = 0; i < count; i++) {
        input += sources[i].len / 512;
    }
    for (a->cache_slots = 64; a->cache_slots < ANVIL__ASM_RESOLVED_SLOTS && a->cache_slots < input;) {
        a->cache_slots *= 2;
    }
    struct anvil_arena *grown[] = {a->arena, a->scratch, a->parse, a->lists, a->statements};
    for (size_t i = 0; i < sizeof(grown) / sizeof(grown[0]); i++) {
        grown[i]->hint = s_block_hint;
        grown[i]->hint_ctx = grown[i];
    }
    return ANVIL_OK;
}

/* Frees what the assembler holds (not the events, not `doc`). */
static void s_clean_up(struct anvil__asm *a) {
    anvil_arena_destroy(a->scratch);
    anvil_arena_destroy(a->parse);
    anvil_arena_destroy(a->statements);
    anvil_arena_destroy(a->lists);
    anvil_mem_release(a->allocator, a->shapes);
    anvil_mem_release(a->allocator, a->slots);
    anvil_buf_clean_up(&a->id_text);
    anvil_buf_clean_up(&a->member_text);
    anvil_mem_release(a->allocator, (void *)a->keys.slots);
    a->keys.slots = NULL;
    anvil_mem_release(a->allocator, a->resolved);
    a->resolved = NULL;
    anvil_mem_release(a->allocator, a->names.slots);
    memset(&a->names, 0, sizeof(a->names));
    a->scratch = a->parse = a->statements = a->lists = NULL;
    a->shapes = NULL;
    a->slots = NULL;
}

int anvil_model_assemble(struct anvil_allocator *allocator, const struct anvil_model_source *sources, size_t count,
                         const struct anvil_model_options *options, struct anvil_model **out,
                         struct anvil_events **events, struct anvil_diag *diag) {
    anvil_diag_clear(diag);
    if (events) {
        *events = NULL;
    }
    if (!out || (!sources && count)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    *out = NULL;
    if (count > ANVIL__ASM_MAX_SOURCES) {
        return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "a model may be assembled from at most %d files",
                              ANVIL__ASM_MAX_SOURCES);
    }
    for (size_t i = 0; i < count; i++) {
        if (!sources[i].text && sources[i].len) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
        }
        if (sources[i].len > UINT32_MAX) {
            return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "%s: a model file may hold at most 4 GiB",
                                  sources[i].name ? sources[i].name : "<input>");
        }
    }
    size_t max_shapes = options && options->max_shapes ? options->max_shapes : ANVIL_MODEL_DEFAULT_MAX_SHAPES;
    struct anvil__asm a;
    struct anvil_json_doc *doc = NULL;
    struct anvil__asm_known known;
    memset(&known, 0, sizeof(known));
    int rc = s_setup(&a, allocator, diag, sources, count, &doc);
    if (rc == ANVIL_OK) {
        a.max_shapes = max_shapes;
        rc = s_assemble(&a, sources, count);
    }
    if (rc == S_AGAIN) {
        /* Once more, with every id the first pass saw defined. */
        rc = s_known_new(&a, &known);
        s_clean_up(&a);
        anvil_events_destroy(a.events);
        a.events = NULL;
        anvil_json_doc_destroy(doc);
        doc = NULL;
        if (rc == ANVIL_OK) {
            rc = s_setup(&a, allocator, diag, sources, count, &doc);
        }
        if (rc == ANVIL_OK) {
            a.known = &known;
            a.max_shapes = max_shapes;
            rc = s_assemble(&a, sources, count);
        }
    }
    if (rc == ANVIL_ENOMEM && !diag->message[0]) {
        anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    anvil_arena_destroy(a.parse);
    a.parse = NULL;
    anvil_arena_destroy(a.statements);
    a.statements = NULL;
    if (a.events) {
        anvil__events_sort(a.events);
    }
    if (rc == ANVIL_OK && anvil_events_count_at_least(a.events, ANVIL_SEVERITY_ERROR) > 0) {
        for (size_t i = 0; i < anvil_events_count(a.events); i++) {
            const struct anvil_event *e = anvil_events_at(a.events, i);
            if (e->severity == ANVIL_SEVERITY_ERROR) {
                rc = anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "%.*s%s%s", (int)e->shape_id.len,
                                    e->shape_id.ptr ? e->shape_id.ptr : "", e->shape_id.len ? ": " : "", e->message);
                break;
            }
        }
    }
    if (rc == ANVIL_OK) {
        rc = anvil__asm_model(&a, doc, options, out);
        doc = NULL;
    }
    anvil_json_doc_destroy(doc);
    s_clean_up(&a);
    s_known_clean_up(&known, allocator);
    if (events) {
        *events = a.events;
    } else {
        anvil_events_destroy(a.events);
    }
    return rc;
}
