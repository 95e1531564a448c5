/*
 * JSON bodies of awsJson1_0/1_1 and restJson1, driven by the shapes: the
 * data model (member names, epoch-second timestamps, base64 blobs) on one
 * side, the wire (jsonName for restJson1, @timestampFormat) on the other.
 * Inputs are checked against their shapes as they are written, so a typo
 * in a member name or a string where a number belongs is refused with its
 * path before anything is sent, as botocore's parameter validation does.
 */

#include <math.h>
#include <string.h>

#include "protocol/protocol_internal.h"

/* ---- shared ---- */

bool anvil__base64_valid(struct anvil_str_view s) {
    if (s.len % 4 != 0) {
        return false;
    }
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
        if (!alpha && !(c == '=' && i + 2 >= s.len && (i + 1 == s.len || s.ptr[i + 1] == '='))) {
            return false;
        }
    }
    return true;
}

static bool s_is_integer_type(enum anvil_shape_type t) {
    return t == ANVIL_SHAPE_BYTE || t == ANVIL_SHAPE_SHORT || t == ANVIL_SHAPE_INTEGER || t == ANVIL_SHAPE_LONG ||
           t == ANVIL_SHAPE_INT_ENUM || t == ANVIL_SHAPE_BIG_INTEGER;
}

static bool s_is_float_type(enum anvil_shape_type t) {
    return t == ANVIL_SHAPE_FLOAT || t == ANVIL_SHAPE_DOUBLE || t == ANVIL_SHAPE_BIG_DECIMAL;
}

static bool s_non_finite(const struct anvil_json *v) {
    struct anvil_str_view s = anvil_json_string(v);
    return anvil_json_is_string(v) &&
           (anvil_sv_eq_cstr(s, "NaN") || anvil_sv_eq_cstr(s, "Infinity") || anvil_sv_eq_cstr(s, "-Infinity"));
}

static bool s_integral(const struct anvil_json *v) {
    if (anvil_json_is_int(v)) {
        return true;
    }
    double d = anvil_json_double(v);
    return anvil_json_is_number(v) && d == floor(d) && fabs(d) < 9.3e18;
}

static struct anvil_str_view s_wire_name(const struct anvil__json_codec *codec, const struct anvil_member *m) {
    struct anvil_str_view renamed =
        codec->json_name ? anvil_json_string(anvil__trait(&m->traits, &anvil__t_json_name)) : m->name;
    return renamed.len ? renamed : m->name;
}

/* ---- writing ---- */

struct s_enc {
    const struct anvil__json_codec *codec;
    struct anvil_buf *out;
    struct anvil_diag *diag;
    /* Where the writer is, for messages: "Foo.Bar[2]". */
    struct anvil__path path;
    size_t depth;
};

static int s_enc_fail(struct s_enc *e, const char *what, const struct anvil_json *v) {
    char path[160];
    return anvil_diag_set(e->diag, ANVIL_EINVAL, 0, 0, 0, "`%s`: %s, not %s",
                          anvil__path_text(&e->path, "input", path, sizeof path), what,
                          anvil_json_type_name(anvil_json_type(v)));
}

static int s_encode(struct s_enc *e, const struct anvil_member *m, const struct anvil_shape *shape,
                    const struct anvil_json *v);

/* Writes one member ("name":value), with a comma before all but the first. */
static int s_encode_member(struct s_enc *e, const struct anvil_member *m, const struct anvil_json *v, size_t *written) {
    anvil__path_push(&e->path, ANVIL__PATH_MEMBER, m->name, 0);
    int rc = (*written)++ ? anvil_buf_append_byte(e->out, ',') : ANVIL_OK;
    if (rc == ANVIL_OK) {
        rc = anvil_json_write_string(s_wire_name(e->codec, m), 0, e->out);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(e->out, ':');
    }
    if (rc == ANVIL_OK) {
        rc = s_encode(e, m, m->target, v);
    }
    anvil__path_pop(&e->path);
    return rc;
}

/*
 * A structure or union. Below the top level, a member the caller left out
 * that has a @default (and no @clientOptional) is written with it, as
 * Smithy's clients do; the input structure itself is sent as given.
 */
static int s_encode_struct(struct s_enc *e, const struct anvil_shape *shape, const struct anvil_json *v,
                           anvil__member_filter_fn *keep, bool top) {
    bool is_union = anvil_shape_type(shape) == ANVIL_SHAPE_UNION;
    if (!anvil_json_is_object(v)) {
        return s_enc_fail(e, is_union ? "expected an object with one member (a union)" : "expected an object", v);
    }
    int rc = anvil_buf_append_byte(e->out, '{');
    size_t written = 0;
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(v); i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        struct anvil_str_view key = anvil_json_member_key(jm);
        const struct anvil_member *m = anvil_shape_member_sv(shape, key);
        if (!m) {
            struct anvil_str_view name = anvil_shape_name(shape);
            char path[160];
            anvil__path_push(&e->path, ANVIL__PATH_MEMBER, key, 0);
            rc = anvil_diag_set(e->diag, ANVIL_EINVAL, 0, 0, 0, "`%s`: %.*s has no member `%.*s`",
                                anvil__path_text(&e->path, "input", path, sizeof path), (int)name.len, name.ptr,
                                (int)key.len, key.ptr);
            anvil__path_pop(&e->path);
            return rc;
        }
        if (!anvil_json_is_null(&jm->value) && (!keep || keep(m))) {
            rc = s_encode_member(e, m, &jm->value, &written);
        }
    }
    if (rc == ANVIL_OK && is_union && written != 1) {
        char path[160];
        return anvil_diag_set(e->diag, ANVIL_EINVAL, 0, 0, 0, "`%s`: a union takes exactly one member, not %zu",
                              anvil__path_text(&e->path, "input", path, sizeof path), written);
    }
    for (size_t i = 0; rc == ANVIL_OK && !top && !is_union && i < anvil_shape_member_count(shape); i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        const struct anvil_json *def = anvil__member_default(m);
        if (def && anvil_json_is_null(anvil_json_object_get(v, m->name.ptr, m->name.len))) {
            rc = s_encode_member(e, m, def, &written);
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(e->out, '}') : rc;
}

static int s_encode_list(struct s_enc *e, const struct anvil_shape *shape, const struct anvil_json *v) {
    if (!anvil_json_is_array(v)) {
        return s_enc_fail(e, "expected an array", v);
    }
    const struct anvil_member *item = anvil_shape_member(shape, "member");
    int rc = anvil_buf_append_byte(e->out, '[');
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(v); i++) {
        const struct anvil_json *x = anvil_json_array_at(v, i);
        anvil__path_push(&e->path, ANVIL__PATH_INDEX, anvil_sv("", 0), i);
        if (i) {
            rc = anvil_buf_append_byte(e->out, ',');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_json_is_null(x) ? anvil_buf_append_cstr(e->out, "null")
                                       : s_encode(e, item, item ? item->target : NULL, x);
        }
        anvil__path_pop(&e->path);
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(e->out, ']') : rc;
}

static int s_encode_map(struct s_enc *e, const struct anvil_shape *shape, const struct anvil_json *v) {
    if (!anvil_json_is_object(v)) {
        return s_enc_fail(e, "expected an object (a map)", v);
    }
    const struct anvil_member *value = anvil_shape_member(shape, "value");
    int rc = anvil_buf_append_byte(e->out, '{');
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(v); i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        struct anvil_str_view key = anvil_json_member_key(jm);
        anvil__path_push(&e->path, ANVIL__PATH_KEY, key, 0);
        if (i) {
            rc = anvil_buf_append_byte(e->out, ',');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_json_write_string(key, 0, e->out);
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(e->out, ':');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_json_is_null(&jm->value) ? anvil_buf_append_cstr(e->out, "null")
                                                : s_encode(e, value, value ? value->target : NULL, &jm->value);
        }
        anvil__path_pop(&e->path);
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(e->out, '}') : rc;
}

static int s_encode_timestamp(struct s_enc *e, const struct anvil_member *m, const struct anvil_json *v) {
    int64_t ms;
    if (anvil__timestamp_from_json(v, &ms) != ANVIL_OK) {
        return s_enc_fail(e, "expected a timestamp (epoch seconds, or an RFC 3339 date-time)", v);
    }
    enum anvil__ts_format f = anvil__timestamp_format_of(m, ANVIL__TS_EPOCH_SECONDS);
    int rc = f == ANVIL__TS_EPOCH_SECONDS ? ANVIL_OK : anvil_buf_append_byte(e->out, '"');
    if (rc == ANVIL_OK) {
        rc = anvil__timestamp_write(e->out, ms, f);
    }
    return rc == ANVIL_OK && f != ANVIL__TS_EPOCH_SECONDS ? anvil_buf_append_byte(e->out, '"') : rc;
}

static int s_encode(struct s_enc *e, const struct anvil_member *m, const struct anvil_shape *shape,
                    const struct anvil_json *v) {
    if (!shape) {
        return anvil_json_write(v, 0, e->out);
    }
    if (++e->depth > ANVIL__VALUE_MAX_DEPTH) {
        char path[160];
        return anvil_diag_set(e->diag, ANVIL_ELIMIT, 0, 0, 0, "`%s`: the input nests deeper than %d levels",
                              anvil__path_text(&e->path, "input", path, sizeof path), ANVIL__VALUE_MAX_DEPTH);
    }
    int rc;
    enum anvil_shape_type t = anvil_shape_type(shape);
    switch (t) {
    case ANVIL_SHAPE_STRUCTURE:
    case ANVIL_SHAPE_UNION:
        rc = s_encode_struct(e, shape, v, NULL, false);
        break;
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
        rc = s_encode_list(e, shape, v);
        break;
    case ANVIL_SHAPE_MAP:
        rc = s_encode_map(e, shape, v);
        break;
    case ANVIL_SHAPE_TIMESTAMP:
        rc = s_encode_timestamp(e, m, v);
        break;
    case ANVIL_SHAPE_BLOB:
        rc = anvil_json_is_string(v) && anvil__base64_valid(anvil_json_string(v))
                 ? anvil_json_write(v, 0, e->out)
                 : s_enc_fail(e, "expected a blob as base64 text", v);
        break;
    case ANVIL_SHAPE_BOOLEAN:
        rc = anvil_json_is_bool(v) ? anvil_json_write(v, 0, e->out) : s_enc_fail(e, "expected true or false", v);
        break;
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_ENUM:
        rc = anvil_json_is_string(v) ? anvil_json_write(v, 0, e->out) : s_enc_fail(e, "expected a string", v);
        break;
    case ANVIL_SHAPE_DOCUMENT:
        rc = anvil_json_write(v, 0, e->out);
        break;
    default:
        if (s_is_integer_type(t)) {
            rc = s_integral(v) ? anvil_json_write(v, 0, e->out) : s_enc_fail(e, "expected an integer", v);
        } else if (s_is_float_type(t)) {
            rc = anvil_json_is_number(v) || s_non_finite(v)
                     ? anvil_json_write(v, 0, e->out)
                     : s_enc_fail(e, "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\")", v);
        } else {
            rc = anvil_json_write(v, 0, e->out);
        }
    }
    e->depth--;
    return rc;
}

int anvil__json_encode(const struct anvil__json_codec *codec, const struct anvil_shape *shape,
                       const struct anvil_json *value, anvil__member_filter_fn *keep, struct anvil_buf *out,
                       struct anvil_diag *diag) {
    struct s_enc e;
    e.codec = codec;
    e.out = out;
    e.diag = diag;
    e.path.depth = 0;
    e.depth = 0;
    int rc;
    if (!shape) {
        /* An operation without input: `{}`, unless members were given for it. */
        rc = anvil_json_len(value) ? s_enc_fail(&e, "expected no input (the operation takes none)", value)
                                   : anvil_buf_append_cstr(out, "{}");
    } else if (!value || anvil_json_is_null(value)) {
        rc = anvil_buf_append_cstr(out, "{}");
    } else {
        rc = s_encode_struct(&e, shape, value, keep, true);
    }
    return rc;
}

/* ---- reading ---- */

struct s_dec {
    const struct anvil__json_codec *codec;
    struct anvil__values *values;
    struct anvil_buf *why;
    struct anvil__path path;
    size_t depth;
};

static int s_dec_fail(struct s_dec *d, const char *what, const struct anvil_json *v) {
    if (d->why && !d->why->len) {
        char path[160];
        anvil_buf_appendf(d->why, "`%s`: %s, not %s", anvil__path_text(&d->path, "output", path, sizeof path), what,
                          anvil_json_type_name(anvil_json_type(v)));
    }
    return ANVIL_ESYNTAX;
}

static int s_decode(struct s_dec *d, const struct anvil_member *m, const struct anvil_shape *shape,
                    const struct anvil_json *v, struct anvil_json *out);

/* The member a wire key names: by member name (unless a jsonName renames it), else by jsonName. */
static const struct anvil_member *s_member_of(const struct s_dec *d, const struct anvil_shape *shape,
                                              struct anvil_str_view key) {
    const struct anvil_member *m = anvil_shape_member_sv(shape, key);
    if (!d->codec->json_name) {
        return m;
    }
    if (m && anvil_sv_eq(s_wire_name(d->codec, m), key)) {
        return m;
    }
    for (size_t i = 0; i < anvil_shape_member_count(shape); i++) {
        const struct anvil_member *c = anvil_shape_member_at(shape, i);
        if (anvil_sv_eq(anvil_json_string(anvil__trait(&c->traits, &anvil__t_json_name)), key)) {
            return c;
        }
    }
    return NULL;
}

/* Pushes the members of `v` (an object of `shape`) onto the value stack. */
static int s_decode_members(struct s_dec *d, const struct anvil_shape *shape, const struct anvil_json *v,
                            anvil__member_filter_fn *keep) {
    if (!anvil_json_is_object(v)) {
        return s_dec_fail(d, "expected an object", v);
    }
    size_t base = d->values->member_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(v); i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        const struct anvil_member *m = s_member_of(d, shape, anvil_json_member_key(jm));
        if (!m || anvil_json_is_null(&jm->value) || (keep && !keep(m))) {
            continue;
        }
        anvil__path_push(&d->path, ANVIL__PATH_MEMBER, m->name, 0);
        struct anvil_json value;
        rc = s_decode(d, m, m->target, &jm->value, &value);
        anvil__path_pop(&d->path);
        if (rc == ANVIL_OK) {
            /* The wire's key record serves when it is the member's name. */
            rc = anvil_sv_eq(anvil_json_member_key(jm), m->name)
                     ? anvil__values_member(d->values, jm->key, value)
                     : anvil__values_member_named(d->values, m->name, value);
        }
    }
    if (rc != ANVIL_OK) {
        d->values->member_count = base;
    }
    return rc;
}

static int s_decode_struct(struct s_dec *d, const struct anvil_shape *shape, const struct anvil_json *v,
                           anvil__member_filter_fn *keep, struct anvil_json *out) {
    size_t base = d->values->member_count;
    int rc = s_decode_members(d, shape, v, keep);
    if (rc == ANVIL_OK) {
        rc = anvil__values_fill_defaults(d->values, shape, base);
    }
    return rc == ANVIL_OK ? anvil__values_object(d->values, base, out) : rc;
}

static int s_decode_list(struct s_dec *d, const struct anvil_shape *shape, const struct anvil_json *v,
                         struct anvil_json *out) {
    if (!anvil_json_is_array(v)) {
        return s_dec_fail(d, "expected an array", v);
    }
    const struct anvil_member *item = anvil_shape_member(shape, "member");
    bool sparse = anvil__trait(anvil_shape_traits(shape), &anvil__t_sparse) != NULL;
    size_t base = d->values->item_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(v); i++) {
        const struct anvil_json *x = anvil_json_array_at(v, i);
        struct anvil_json value = anvil_json_make_null();
        if (anvil_json_is_null(x) && !sparse) {
            continue;
        }
        anvil__path_push(&d->path, ANVIL__PATH_INDEX, anvil_sv("", 0), i);
        if (!anvil_json_is_null(x)) {
            rc = s_decode(d, item, item ? item->target : NULL, x, &value);
        }
        anvil__path_pop(&d->path);
        if (rc == ANVIL_OK) {
            rc = anvil__values_item(d->values, value);
        }
    }
    if (rc != ANVIL_OK) {
        d->values->item_count = base;
        return rc;
    }
    return anvil__values_array(d->values, base, out);
}

static int s_decode_map(struct s_dec *d, const struct anvil_shape *shape, const struct anvil_json *v,
                        struct anvil_json *out) {
    if (!anvil_json_is_object(v)) {
        return s_dec_fail(d, "expected an object (a map)", v);
    }
    const struct anvil_member *value_member = anvil_shape_member(shape, "value");
    bool sparse = anvil__trait(anvil_shape_traits(shape), &anvil__t_sparse) != NULL;
    size_t base = d->values->member_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(v); i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        struct anvil_json value = anvil_json_make_null();
        if (anvil_json_is_null(&jm->value) && !sparse) {
            continue;
        }
        struct anvil_str_view key = anvil_json_member_key(jm);
        anvil__path_push(&d->path, ANVIL__PATH_KEY, key, 0);
        if (!anvil_json_is_null(&jm->value)) {
            rc = s_decode(d, value_member, value_member ? value_member->target : NULL, &jm->value, &value);
        }
        anvil__path_pop(&d->path);
        if (rc == ANVIL_OK) {
            rc = anvil__values_member(d->values, jm->key, value);
        }
    }
    if (rc != ANVIL_OK) {
        d->values->member_count = base;
        return rc;
    }
    return anvil__values_object(d->values, base, out);
}

static int s_decode(struct s_dec *d, const struct anvil_member *m, const struct anvil_shape *shape,
                    const struct anvil_json *v, struct anvil_json *out) {
    if (!shape) {
        *out = *v;
        return ANVIL_OK;
    }
    if (++d->depth > ANVIL__VALUE_MAX_DEPTH) {
        return s_dec_fail(d, "nested too deep", v);
    }
    int rc = ANVIL_OK;
    enum anvil_shape_type t = anvil_shape_type(shape);
    switch (t) {
    case ANVIL_SHAPE_STRUCTURE:
    case ANVIL_SHAPE_UNION:
        rc = s_decode_struct(d, shape, v, NULL, out);
        break;
    case ANVIL_SHAPE_LIST:
    case ANVIL_SHAPE_SET:
        rc = s_decode_list(d, shape, v, out);
        break;
    case ANVIL_SHAPE_MAP:
        rc = s_decode_map(d, shape, v, out);
        break;
    case ANVIL_SHAPE_TIMESTAMP: {
        int64_t ms;
        enum anvil__ts_format f = anvil__timestamp_format_of(m, ANVIL__TS_EPOCH_SECONDS);
        bool ok = anvil_json_is_number(v)   ? anvil__timestamp_from_json(v, &ms) == ANVIL_OK
                  : anvil_json_is_string(v) ? anvil__timestamp_parse(anvil_json_string(v), f, &ms) == ANVIL_OK ||
                                                  anvil__timestamp_parse_any(anvil_json_string(v), &ms) == ANVIL_OK
                                            : false;
        if (!ok) {
            rc = s_dec_fail(d, "expected a timestamp", v);
        } else {
            *out = anvil__timestamp_json(ms);
        }
        break;
    }
    case ANVIL_SHAPE_BOOLEAN:
        rc = anvil_json_is_bool(v) ? ANVIL_OK : s_dec_fail(d, "expected true or false", v);
        *out = *v;
        break;
    case ANVIL_SHAPE_STRING:
    case ANVIL_SHAPE_ENUM:
    case ANVIL_SHAPE_BLOB:
        rc = anvil_json_is_string(v) ? ANVIL_OK : s_dec_fail(d, "expected a string", v);
        *out = *v;
        break;
    default:
        if (s_is_integer_type(t) || s_is_float_type(t)) {
            rc = anvil_json_is_number(v) || (s_is_float_type(t) && s_non_finite(v))
                     ? ANVIL_OK
                     : s_dec_fail(d, "expected a number", v);
        }
        *out = *v;
    }
    d->depth--;
    return rc;
}

int anvil__json_decode(const struct anvil__json_codec *codec, const struct anvil_shape *shape,
                       const struct anvil_json *wire, anvil__member_filter_fn *keep, struct anvil__values *values,
                       struct anvil_json *out, struct anvil_buf *why) {
    size_t base = values->member_count;
    int rc = anvil__json_decode_members(codec, shape, wire, keep, values, why);
    if (rc == ANVIL_OK) {
        rc = anvil__values_fill_defaults(values, shape, base);
    }
    return rc == ANVIL_OK ? anvil__values_object(values, base, out) : rc;
}

int anvil__json_decode_members(const struct anvil__json_codec *codec, const struct anvil_shape *shape,
                               const struct anvil_json *wire, anvil__member_filter_fn *keep,
                               struct anvil__values *values, struct anvil_buf *why) {
    struct s_dec d;
    d.codec = codec;
    d.values = values;
    d.why = why;
    d.path.depth = 0;
    d.depth = 0;
    return s_decode_members(&d, shape, wire, keep);
}

int anvil__json_decode_value(const struct anvil__json_codec *codec, const struct anvil_member *member,
                             const struct anvil_json *wire, struct anvil__values *values, struct anvil_json *out,
                             struct anvil_buf *why) {
    struct s_dec d;
    d.codec = codec;
    d.values = values;
    d.why = why;
    d.path.depth = 0;
    d.depth = 0;
    anvil__path_push(&d.path, ANVIL__PATH_MEMBER, member->name, 0);
    return s_decode(&d, member, member->target, wire, out);
}
