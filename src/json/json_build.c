/* Making values: strings, keys, objects (duplicates, index), arrays, copies. */

#include <math.h>

#include "anvil/status.h"
#include "json/json_internal.h"

struct anvil_json_key *anvil__json_key_init(void *storage, const char *bytes, size_t len, uint32_t hash) {
    struct anvil_json_key *key = storage;
    key->len = (uint32_t)len;
    key->hash = hash;
    if (len) {
        memcpy(key->bytes, bytes, len);
    }
    key->bytes[len] = '\0';
    return key;
}

const struct anvil_json_key *anvil__json_key_new(struct anvil_arena *arena, const char *bytes, size_t len,
                                                 uint32_t hash) {
    void *storage = anvil__arena_bump(arena, sizeof(struct anvil_json_key) + len + 1, _Alignof(struct anvil_json_key));
    return storage ? anvil__json_key_init(storage, bytes, len, hash) : NULL;
}

static size_t s_pow2_at_least(size_t n) {
    size_t p = 1;
    while (p < n) {
        p <<= 1;
    }
    return p;
}

/* Small objects: quadratic de-duplication in place; no index. */
/* Folds later duplicates into the first of their key (last value wins, first position kept); the count kept. */
static size_t s_dedupe_small(struct anvil_json_member *members, size_t count, bool reject, size_t *dup_at) {
    size_t kept = 0;
    for (size_t j = 0; j < count; j++) {
        size_t i = 0;
        while (i < kept && !anvil__json_key_eq(members[i].key, members[j].key)) {
            i++;
        }
        if (i < kept) {
            if (reject) {
                *dup_at = j;
                return SIZE_MAX;
            }
            members[i].value = members[j].value;
        } else {
            members[kept++] = members[j];
        }
    }
    return kept;
}

/* `count` members copied into `arena` (*stored NULL for none): ANVIL_ENOMEM. */
static int s_copy_members(struct anvil_arena *arena, const struct anvil_json_member *members, size_t count,
                          struct anvil_json_member **stored) {
    *stored = NULL;
    if (count) {
        *stored = anvil__arena_bump(arena, count * sizeof(**stored), _Alignof(struct anvil_json_member));
        if (!*stored) {
            return ANVIL_ENOMEM;
        }
        memcpy(*stored, members, count * sizeof(**stored));
    }
    return ANVIL_OK;
}

int anvil__json_object_unique(struct anvil_arena *arena, const struct anvil_json_member *members, size_t count,
                              struct anvil_json *out) {
    struct anvil_json_member *stored;
    int rc = s_copy_members(arena, members, count, &stored);
    if (rc == ANVIL_OK) {
        *out = anvil__json_container(ANVIL_JSON_OBJECT, count, stored);
    }
    return rc;
}

/* An object with its hash index (ANVIL_JSON_INDEX_MIN members or more): `members` is only read. */
static int s_indexed(struct anvil_arena *arena, const struct anvil_json_member *members, size_t count, bool reject,
                     size_t *dup_at, struct anvil_json *out) {
    if (count > UINT32_MAX / 4) {
        return ANVIL_ELIMIT;
    }
    size_t capacity = s_pow2_at_least(count * 2);
    size_t bytes = sizeof(struct anvil__json_index) + count * sizeof(struct anvil_json_member);
    struct anvil__json_index *index = anvil__arena_bump(arena, bytes, _Alignof(struct anvil_json_member));
    uint32_t *slots = anvil__arena_bump(arena, capacity * sizeof(uint32_t), _Alignof(uint32_t));
    if (!index || !slots) {
        return ANVIL_ENOMEM;
    }
    memset(slots, 0, capacity * sizeof(uint32_t));
    struct anvil_json_member *stored = (struct anvil_json_member *)(index + 1);
    uint32_t mask = (uint32_t)(capacity - 1);
    size_t kept = 0;
    for (size_t j = 0; j < count; j++) {
        const struct anvil_json_key *key = members[j].key;
        uint32_t slot = key->hash & mask;
        while (slots[slot] != 0 && !anvil__json_key_eq(stored[slots[slot] - 1].key, key)) {
            slot = (slot + 1) & mask;
        }
        if (slots[slot] != 0) {
            if (reject) {
                *dup_at = j;
                return ANVIL_ESYNTAX;
            }
            stored[slots[slot] - 1].value = members[j].value;
            continue;
        }
        stored[kept] = members[j];
        slots[slot] = (uint32_t)++kept;
    }
    index->slots = slots;
    index->mask = mask;
    index->reserved = 0;
    *out = anvil__json_container(ANVIL_JSON_OBJECT, kept, stored);
    return ANVIL_OK;
}

int anvil__json_object_finish(struct anvil_arena *arena, struct anvil_json_member *members, size_t count, bool reject,
                              size_t *dup_at, struct anvil_json *out) {
    if (count >= ANVIL_JSON_INDEX_MIN) {
        return s_indexed(arena, members, count, reject, dup_at, out);
    }
    /* Deduplicated where they are (scratch), then stored. */
    size_t kept = s_dedupe_small(members, count, reject, dup_at);
    return kept == SIZE_MAX ? ANVIL_ESYNTAX : anvil__json_object_unique(arena, members, kept, out);
}

int anvil__json_object_in_place(struct anvil_json_member *members, size_t count, bool reject, size_t *dup_at,
                                struct anvil_json *out) {
    size_t kept = s_dedupe_small(members, count, reject, dup_at);
    if (kept == SIZE_MAX) {
        return ANVIL_ESYNTAX;
    }
    *out = anvil__json_container(ANVIL_JSON_OBJECT, kept, kept ? members : NULL);
    return ANVIL_OK;
}

int anvil_json_new_object_members(struct anvil_arena *arena, const struct anvil_json_member *members, size_t count,
                                  struct anvil_json *out) {
    if (!arena || !out || (count > 0 && !members)) {
        return ANVIL_EINVAL;
    }
    if (count >= ANVIL_JSON_INDEX_MIN) {
        return s_indexed(arena, members, count, false, NULL, out);
    }
    /* The caller's members are not ours to reorder: copied first, deduplicated in the copy. */
    struct anvil_json_member *stored;
    int rc = s_copy_members(arena, members, count, &stored);
    if (rc == ANVIL_OK) {
        anvil__json_object_in_place(stored, count, false, NULL, out);
    }
    return rc;
}

int anvil_json_new_object(struct anvil_arena *arena, const struct anvil_json_pair *pairs, size_t count,
                          struct anvil_json *out) {
    if (!arena || !out || (count > 0 && !pairs)) {
        return ANVIL_EINVAL;
    }
    if (count > UINT32_MAX / 4) {
        return ANVIL_ELIMIT;
    }
    /* Gathered in the arena: a small object keeps them as its members (a large one copies them beside its index). */
    struct anvil_json_member *members = NULL;
    if (count) {
        members = anvil__arena_bump(arena, count * sizeof(*members), _Alignof(struct anvil_json_member));
        if (!members) {
            return ANVIL_ENOMEM;
        }
    }
    for (size_t i = 0; i < count; i++) {
        struct anvil_str_view key = pairs[i].key;
        if (key.len > (size_t)UINT32_MAX - 1) {
            return ANVIL_ELIMIT;
        }
        if ((key.len && !key.ptr) || !anvil__utf8_valid(key.ptr, key.len)) {
            return key.len && !key.ptr ? ANVIL_EINVAL : ANVIL_EVALUE;
        }
        members[i].key = anvil__json_key_new(arena, key.ptr, key.len, anvil_json_hash(key.ptr, key.len));
        if (!members[i].key) {
            return ANVIL_ENOMEM;
        }
        members[i].value = pairs[i].value;
    }
    if (count < ANVIL_JSON_INDEX_MIN) {
        anvil__json_object_in_place(members, count, false, NULL, out);
        return ANVIL_OK;
    }
    return anvil__json_object_finish(arena, members, count, false, NULL, out);
}

int anvil_json_new_string(struct anvil_arena *arena, const char *s, size_t len, struct anvil_json *out) {
    if (!arena || !out || (len > 0 && !s)) {
        return ANVIL_EINVAL;
    }
    if (!anvil__utf8_valid(s, len)) {
        return ANVIL_EVALUE;
    }
    return anvil__json_string_value(arena, s, len, out);
}

int anvil_json_make_double_checked(double d, struct anvil_json *out) {
    if (!isfinite(d)) {
        return ANVIL_EVALUE;
    }
    *out = anvil_json_make_double(d);
    return ANVIL_OK;
}

int anvil_json_new_array(struct anvil_arena *arena, size_t count, struct anvil_json *out, struct anvil_json **items) {
    if (!arena || !out || !items) {
        return ANVIL_EINVAL;
    }
    size_t bytes;
    if (anvil__size_mul(count, sizeof(struct anvil_json), &bytes)) {
        return ANVIL_ELIMIT;
    }
    struct anvil_json *storage = NULL;
    if (count) {
        storage = anvil__arena_bump(arena, bytes, _Alignof(struct anvil_json));
        if (!storage) {
            return anvil_arena_exhausted(arena) ? ANVIL_ELIMIT : ANVIL_ENOMEM;
        }
        memset(storage, 0, bytes); /* all null */
    }
    *out = anvil__json_container(ANVIL_JSON_ARRAY, count, storage);
    *items = storage;
    return ANVIL_OK;
}

static int s_copy(struct anvil_arena *arena, const struct anvil_json *src, struct anvil_json *out, size_t depth) {
    switch (anvil_json_type(src)) {
    case ANVIL_JSON_NULL:
    case ANVIL_JSON_BOOL:
    case ANVIL_JSON_NUMBER:
        *out = *src;
        return ANVIL_OK;
    case ANVIL_JSON_STRING:
        return anvil__json_string_value(arena, anvil_json_string_ptr(src), anvil_json_len(src), out);
    case ANVIL_JSON_ARRAY: {
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return ANVIL_ELIMIT;
        }
        struct anvil_json *items;
        int rc = anvil_json_new_array(arena, anvil_json_len(src), out, &items);
        for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(src); i++) {
            rc = s_copy(arena, &src->u.items[i], &items[i], depth + 1);
        }
        return rc;
    }
    case ANVIL_JSON_OBJECT: {
        if (depth >= ANVIL_JSON_MAX_DEPTH) {
            return ANVIL_ELIMIT;
        }
        size_t n = anvil_json_len(src);
        struct anvil_json_member *members = NULL;
        if (n) {
            members = anvil__arena_bump(arena, n * sizeof(*members), _Alignof(struct anvil_json_member));
            if (!members) {
                return ANVIL_ENOMEM;
            }
        }
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = &src->u.members[i];
            members[i].key = anvil__json_key_new(arena, m->key->bytes, m->key->len, m->key->hash);
            if (!members[i].key) {
                return ANVIL_ENOMEM;
            }
            int rc = s_copy(arena, &m->value, &members[i].value, depth + 1);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        /* Keys are already unique; this only rebuilds the index. */
        size_t unused;
        return anvil__json_object_finish(arena, members, n, false, &unused, out);
    }
    }
    return ANVIL_EINTERNAL;
}

int anvil_json_copy(struct anvil_arena *arena, const struct anvil_json *src, struct anvil_json *out) {
    if (!arena || !src || !out) {
        return ANVIL_EINVAL;
    }
    struct anvil_json copy;
    int rc = s_copy(arena, src, &copy, 0);
    if (rc == ANVIL_ENOMEM && anvil_arena_exhausted(arena)) {
        rc = ANVIL_ELIMIT;
    }
    if (rc == ANVIL_OK) {
        *out = copy;
    }
    return rc;
}
