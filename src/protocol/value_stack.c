/*
 * Building data-model values while a response is read: one stack of
 * object members and one of array items, shared by every nesting level
 * (each level remembers where its part starts), so a document of any shape
 * is built with two growing buffers and the arena, nothing per object.
 */

#include "protocol/protocol_internal.h"
#include "json/json_internal.h"

void anvil__values_init(struct anvil__values *v, struct anvil_allocator *allocator, struct anvil_arena *arena) {
    memset(v, 0, sizeof *v);
    v->allocator = allocator;
    v->arena = arena;
}

void anvil__values_clean_up(struct anvil__values *v) {
    anvil_mem_release(v->allocator, v->members);
    anvil_mem_release(v->allocator, v->items);
    memset(v, 0, sizeof *v);
}

int anvil__values_key(struct anvil__values *v, struct anvil_str_view name, const struct anvil_json_key **out) {
    *out = anvil__json_key_new(v->arena, name.ptr ? name.ptr : "", name.len, anvil_json_hash(name.ptr, name.len));
    return *out ? ANVIL_OK : ANVIL_ENOMEM;
}

int anvil__values_member(struct anvil__values *v, const struct anvil_json_key *key, struct anvil_json value) {
    if (v->member_count == v->member_capacity) {
        int rc = anvil__mem_grow(v->allocator, (void **)&v->members, &v->member_capacity, sizeof *v->members,
                                 v->member_count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    v->members[v->member_count++] = (struct anvil_json_member){key, value};
    return ANVIL_OK;
}

int anvil__values_member_named(struct anvil__values *v, struct anvil_str_view name, struct anvil_json value) {
    const struct anvil_json_key *key;
    int rc = anvil__values_key(v, name, &key);
    return rc == ANVIL_OK ? anvil__values_member(v, key, value) : rc;
}

int anvil__values_object(struct anvil__values *v, size_t base, struct anvil_json *out) {
    size_t unused;
    size_t n = v->member_count - base;
    int rc = anvil__json_object_finish(v->arena, v->allocator, n ? v->members + base : NULL, n, false, &unused, out);
    v->member_count = base;
    return rc;
}

int anvil__values_item(struct anvil__values *v, struct anvil_json value) {
    if (v->item_count == v->item_capacity) {
        int rc =
            anvil__mem_grow(v->allocator, (void **)&v->items, &v->item_capacity, sizeof *v->items, v->item_count + 1);
        if (rc != ANVIL_OK) {
            return rc;
        }
    }
    v->items[v->item_count++] = value;
    return ANVIL_OK;
}

int anvil__values_array(struct anvil__values *v, size_t base, struct anvil_json *out) {
    size_t n = v->item_count - base;
    struct anvil_json *items;
    int rc = anvil_json_new_array(v->arena, n, out, &items);
    if (rc == ANVIL_OK && n) {
        memcpy(items, v->items + base, n * sizeof *items);
    }
    v->item_count = base;
    return rc;
}

int anvil__values_string(struct anvil__values *v, struct anvil_str_view s, struct anvil_json *out) {
    if (!anvil__utf8_valid(s.ptr ? s.ptr : "", s.len)) {
        return ANVIL_EVALUE;
    }
    return anvil__json_string_value(v->arena, s.ptr ? s.ptr : "", s.len, out);
}
