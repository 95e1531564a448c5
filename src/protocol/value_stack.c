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
    int rc = anvil__json_object_finish(v->arena, n ? v->members + base : NULL, n, false, &unused, out);
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

/* An integer in decimal ("-12"), nothing else. */
static bool s_int(struct anvil_str_view t, int64_t *out) {
    size_t i = t.len && (t.ptr[0] == '-' || t.ptr[0] == '+');
    if (i == t.len) {
        return false;
    }
    uint64_t v = 0;
    for (; i < t.len; i++) {
        if (t.ptr[i] < '0' || t.ptr[i] > '9' || v > (UINT64_MAX - 9) / 10) {
            return false;
        }
        v = v * 10 + (uint64_t)(t.ptr[i] - '0');
    }
    bool negative = t.ptr[0] == '-';
    if (v > (negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) {
        return false;
    }
    *out = negative ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* A decimal number as JSON writes them, a leading '+' allowed: "1.5", "-2e10". */
static bool s_number_text(struct anvil_str_view t) {
    size_t i = t.len && (t.ptr[0] == '-' || t.ptr[0] == '+');
    size_t digits = 0;
    for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; i++) {
        digits++;
    }
    if (i < t.len && t.ptr[i] == '.') {
        for (i++; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; i++) {
            digits++;
        }
    }
    if (digits && i < t.len && (t.ptr[i] == 'e' || t.ptr[i] == 'E')) {
        i++;
        i += i < t.len && (t.ptr[i] == '-' || t.ptr[i] == '+');
        size_t exp = i;
        for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; i++) {
        }
        digits = i > exp ? digits : 0;
    }
    return digits && i == t.len;
}

int anvil__text_value(struct anvil__values *v, const struct anvil_member *m, struct anvil_str_view text,
                      enum anvil__ts_format ts_default, struct anvil_json *out) {
    enum anvil_shape_type t = m && m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    switch (t) {
    case ANVIL_SHAPE_BOOLEAN:
        if (!anvil_sv_eq_cstr(text, "true") && !anvil_sv_eq_cstr(text, "false")) {
            return ANVIL_EVALUE;
        }
        *out = anvil_json_make_bool(text.ptr[0] == 't');
        return ANVIL_OK;
    case ANVIL_SHAPE_BYTE:
    case ANVIL_SHAPE_SHORT:
    case ANVIL_SHAPE_INTEGER:
    case ANVIL_SHAPE_LONG:
    case ANVIL_SHAPE_INT_ENUM: {
        int64_t i;
        if (!s_int(text, &i)) {
            return ANVIL_EVALUE;
        }
        *out = anvil_json_make_int(i);
        return ANVIL_OK;
    }
    case ANVIL_SHAPE_FLOAT:
    case ANVIL_SHAPE_DOUBLE:
    case ANVIL_SHAPE_BIG_INTEGER:
    case ANVIL_SHAPE_BIG_DECIMAL: {
        if (anvil_sv_eq_cstr(text, "NaN") || anvil_sv_eq_cstr(text, "Infinity") ||
            anvil_sv_eq_cstr(text, "-Infinity")) {
            return t == ANVIL_SHAPE_FLOAT || t == ANVIL_SHAPE_DOUBLE ? anvil__values_string(v, text, out)
                                                                     : ANVIL_EVALUE;
        }
        int64_t i;
        if (s_int(text, &i)) {
            *out = anvil_json_make_int(i);
            return ANVIL_OK;
        }
        double d;
        if (!s_number_text(text) || anvil__json_strtod(v->allocator, text.ptr[0] == '+' ? text.ptr + 1 : text.ptr,
                                                       text.len - (text.ptr[0] == '+'), &d) != ANVIL_OK) {
            return ANVIL_EVALUE;
        }
        return anvil_json_make_double_checked(d, out);
    }
    case ANVIL_SHAPE_TIMESTAMP: {
        int64_t ms;
        if (anvil__timestamp_parse(text, anvil__timestamp_format_of(m, ts_default), &ms) != ANVIL_OK &&
            anvil__timestamp_parse_any(text, &ms) != ANVIL_OK) {
            return ANVIL_EVALUE;
        }
        *out = anvil__timestamp_json(ms);
        return ANVIL_OK;
    }
    case ANVIL_SHAPE_BLOB:
        return anvil__base64_valid(text) ? anvil__values_string(v, text, out) : ANVIL_EVALUE;
    default:
        return anvil__values_string(v, text, out);
    }
}

const struct anvil_json *anvil__member_default(const struct anvil_member *m) {
    const struct anvil_json *def = anvil__trait(&m->traits, &anvil__t_default);
    if (!def || anvil_json_is_null(def) || anvil__trait(&m->traits, &anvil__t_client_optional)) {
        return NULL;
    }
    return def;
}

/* A member's value when the response left it out: its default, else (when @required) its type's zero value. */
static int s_fill_value(struct anvil__values *v, const struct anvil_member *m, struct anvil_json *out, bool *has) {
    enum anvil_shape_type t = m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_DOCUMENT;
    const struct anvil_json *def = anvil__member_default(m);
    *has = true;
    if (m->target && anvil_shape_is_streaming(m->target)) {
        /* A stream's default is an empty stream, not a value: an absent body stays absent. */
        *has = false;
        return ANVIL_OK;
    }
    if (def && t == ANVIL_SHAPE_TIMESTAMP) {
        int64_t ms;
        if (anvil__timestamp_from_json(def, &ms) != ANVIL_OK) {
            *has = false;
            return ANVIL_OK;
        }
        *out = anvil__timestamp_json(ms);
        return ANVIL_OK;
    }
    if (def) {
        return anvil_json_copy(v->arena, def, out);
    }
    if (!anvil__trait(&m->traits, &anvil__t_required)) {
        *has = false;
        return ANVIL_OK;
    }
    /* Error correction (Smithy's "zero values"): the member is required, so a client shows one. */
    switch (t) {
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_ENUM:
    case ANVIL_SHAPE_BLOB:
        return anvil__values_string(v, anvil_sv("", 0), out);
    case ANVIL_SHAPE_BOOLEAN:
        *out = anvil_json_make_bool(false);
        return ANVIL_OK;
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
        return anvil__values_array(v, v->item_count, out);
    case ANVIL_SHAPE_MAP:
    case ANVIL_SHAPE_STRUCTURE:
        return anvil__values_object(v, v->member_count, out);
    case ANVIL_SHAPE_UNION:
    case ANVIL_SHAPE_DOCUMENT:
        *has = false;
        return ANVIL_OK;
    default: /* numbers, intEnum, timestamp (the epoch) */
        *out = anvil_json_make_int(0);
        return ANVIL_OK;
    }
}

/* Whether `shape` has a member a response may leave out that the data model still shows (memoised per shape). */
static bool s_needs_fill(struct anvil__values *v, const struct anvil_shape *shape) {
    size_t slot = ((uintptr_t)shape >> 4) % ANVIL_ARRAY_LEN(v->fill_cache);
    if (v->fill_cache[slot].shape == shape) {
        return v->fill_cache[slot].needs;
    }
    bool needs = false;
    for (size_t i = 0; !needs && i < anvil_shape_member_count(shape); i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        needs = anvil__member_default(m) || anvil__trait(&m->traits, &anvil__t_required);
    }
    v->fill_cache[slot].shape = shape;
    v->fill_cache[slot].needs = needs;
    return needs;
}

int anvil__values_fill_defaults(struct anvil__values *v, const struct anvil_shape *shape, size_t base) {
    if (!shape || anvil_shape_type(shape) != ANVIL_SHAPE_STRUCTURE || !s_needs_fill(v, shape)) {
        return ANVIL_OK;
    }
    size_t pushed = v->member_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_shape_member_count(shape) && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        bool present = false;
        for (size_t k = base; k < pushed && !present; k++) {
            present = anvil__sv_same(anvil_json_member_key(&v->members[k]), m->name);
        }
        struct anvil_json value;
        bool has = false;
        if (!present) {
            rc = s_fill_value(v, m, &value, &has);
        }
        if (rc == ANVIL_OK && has) {
            rc = anvil__values_member_named(v, m->name, value);
        }
    }
    return rc;
}
