/*
 * XML bodies, driven by the shapes: restXml requests written from the data
 * model, and restXml, awsQuery and ec2Query responses read into it. The
 * rules are Smithy's XML bindings: elements named by @xmlName (else the
 * member name), @xmlAttribute members on their containing element, lists
 * wrapped in `<member>` (or the list member's @xmlName) unless
 * @xmlFlattened, maps as `<entry><key/><value/></entry>` (flattened: the
 * member's name repeated), @xmlNamespace as an xmlns attribute. Reading
 * matches local names, ignores what the shape does not know, and never
 * checks the root element's name (S3 answers with roots its model does not
 * name).
 */

#include <string.h>

#include "protocol/protocol_internal.h"

static bool s_is_flattened(const struct anvil_member *m) {
    return anvil__trait(&m->traits, &anvil__t_xml_flattened) != NULL;
}

struct anvil_str_view anvil__xml_member_name(const struct anvil_member *m) {
    struct anvil_str_view name = anvil_json_string(anvil__trait(&m->traits, &anvil__t_xml_name));
    return name.len ? name : m->name;
}

/* The local part of a name that may carry a prefix ("xsi:type" -> "type"). */
static struct anvil_str_view s_local(struct anvil_str_view name) {
    size_t colon = anvil_sv_find_byte(name, 0, ':');
    return colon == SIZE_MAX ? name : anvil_sv_slice(name, colon + 1, name.len - colon - 1);
}

/* ---- writing ---- */

struct s_enc {
    struct anvil_xml_writer *w;
    struct anvil_diag *diag;
    struct anvil_buf text;
    struct anvil__path path;
    size_t depth;
};

static int s_enc_fail(struct s_enc *e, const char *what) {
    char path[160];
    return anvil_diag_set(e->diag, ANVIL_EINVAL, 0, 0, 0, "`%s`: %s",
                          anvil__path_text(&e->path, "input", path, sizeof path), what);
}

/* The writer's calls, saying what it refused (a name the model gave that is not an XML name, text XML cannot hold). */
static int s_w_start(struct s_enc *e, struct anvil_str_view name) {
    int rc = anvil_xml_writer_start(e->w, name);
    if (rc == ANVIL_EINVAL) {
        char path[160];
        rc = anvil_diag_set(e->diag, ANVIL_EMODEL, 0, 0, 0, "`%s`: `%.*s` is not an XML name (from the model)",
                            anvil__path_text(&e->path, "input", path, sizeof path),
                            (int)(name.len > 64 ? 64 : name.len), name.ptr);
    }
    return rc;
}

static int s_w_text(struct s_enc *e, struct anvil_str_view text) {
    int rc = anvil_xml_writer_text(e->w, text);
    return rc == ANVIL_EINVAL ? s_enc_fail(e, "text XML cannot hold (U+0000, or bytes that are not UTF-8)") : rc;
}

static int s_w_attribute(struct s_enc *e, struct anvil_str_view name, struct anvil_str_view value) {
    int rc = anvil_xml_writer_attribute(e->w, name, value);
    return rc == ANVIL_EINVAL ? s_enc_fail(e, "an attribute XML cannot hold (its name, from the model, or its value)")
                              : rc;
}

/* An xmlns attribute for an @xmlNamespace value ({uri, prefix?}). */
static int s_namespace(struct s_enc *e, const struct anvil_json *ns) {
    if (!ns) {
        return ANVIL_OK;
    }
    struct anvil_str_view uri = anvil_json_string(anvil_json_object_get_cstr(ns, "uri"));
    struct anvil_str_view prefix = anvil_json_string(anvil_json_object_get_cstr(ns, "prefix"));
    struct anvil_buf name;
    anvil_buf_init(&name, NULL, 0);
    int rc = anvil_buf_append_cstr(&name, "xmlns");
    if (rc == ANVIL_OK && prefix.len) {
        rc = anvil_buf_appendf(&name, ":%.*s", (int)prefix.len, prefix.ptr);
    }
    if (rc == ANVIL_OK) {
        rc = s_w_attribute(e, anvil_buf_view(&name), uri);
    }
    anvil_buf_clean_up(&name);
    return rc;
}

static int s_encode_value(struct s_enc *e, const struct anvil_member *m, const struct anvil_json *v);

/* The attributes (@xmlAttribute members) of a structure's element, then its member elements. */
static int s_encode_members(struct s_enc *e, const struct anvil_shape *shape, const struct anvil_json *v,
                            anvil__member_filter_fn *keep) {
    if (!anvil_json_is_object(v)) {
        return s_enc_fail(e, "expected an object");
    }
    for (size_t i = 0; i < anvil_json_len(v); i++) {
        struct anvil_str_view key = anvil_json_member_key(anvil_json_object_at(v, i));
        if (!anvil_shape_member_sv(shape, key)) {
            struct anvil_str_view name = anvil_shape_name(shape);
            char path[160];
            anvil__path_push(&e->path, ANVIL__PATH_MEMBER, key, 0);
            int rc = anvil_diag_set(e->diag, ANVIL_EINVAL, 0, 0, 0, "`%s`: %.*s has no member `%.*s`",
                                    anvil__path_text(&e->path, "input", path, sizeof path), (int)name.len, name.ptr,
                                    (int)key.len, key.ptr);
            anvil__path_pop(&e->path);
            return rc;
        }
    }
    int rc = ANVIL_OK;
    size_t n = anvil_shape_member_count(shape);
    for (int pass = 0; pass < 2 && rc == ANVIL_OK; pass++) {
        for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
            const struct anvil_member *m = anvil_shape_member_at(shape, i);
            bool attribute = anvil__trait(&m->traits, &anvil__t_xml_attribute) != NULL;
            const struct anvil_json *x = anvil_json_object_get(v, m->name.ptr, m->name.len);
            if ((pass == 0) != attribute || anvil_json_is_null(x) || (keep && !keep(m))) {
                continue;
            }
            anvil__path_push(&e->path, ANVIL__PATH_MEMBER, m->name, 0);
            if (attribute) {
                const char *why = "";
                anvil_buf_clear(&e->text);
                rc = anvil__scalar_text(m, x, ANVIL__TS_DATE_TIME, &e->text, &why);
                rc = rc == ANVIL_EINVAL ? s_enc_fail(e, why) : rc;
                if (rc == ANVIL_OK) {
                    rc = s_w_attribute(e, anvil__xml_member_name(m), anvil_buf_view(&e->text));
                }
            } else {
                rc = s_encode_value(e, m, x);
            }
            anvil__path_pop(&e->path);
        }
    }
    return rc;
}

/* One element named `name` holding `v` of `m`'s target (a list's or map's items are elements of their own). */
static int s_encode_element(struct s_enc *e, struct anvil_str_view name, const struct anvil_member *m,
                            const struct anvil_json *v);

static int s_encode_list_items(struct s_enc *e, const struct anvil_member *m, const struct anvil_json *v,
                               struct anvil_str_view item_name) {
    if (!anvil_json_is_array(v)) {
        return s_enc_fail(e, "expected an array");
    }
    const struct anvil_member *item = anvil_shape_member(m->target, "member");
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
        anvil__path_push(&e->path, ANVIL__PATH_INDEX, anvil_sv("", 0), i);
        rc = s_encode_element(e, item_name, item, anvil_json_array_at(v, i));
        anvil__path_pop(&e->path);
    }
    return rc;
}

static int s_encode_map_entries(struct s_enc *e, const struct anvil_member *m, const struct anvil_json *v,
                                struct anvil_str_view entry_name) {
    if (!anvil_json_is_object(v)) {
        return s_enc_fail(e, "expected an object (a map)");
    }
    const struct anvil_member *key = anvil_shape_member(m->target, "key");
    const struct anvil_member *value = anvil_shape_member(m->target, "value");
    struct anvil_str_view key_name = key ? anvil__xml_member_name(key) : ANVIL_SV("key");
    struct anvil_str_view value_name = value ? anvil__xml_member_name(value) : ANVIL_SV("value");
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(v, i);
        rc = s_w_start(e, entry_name);
        /* The key is a string: its bytes go out as its text. */
        if (rc == ANVIL_OK) {
            rc = s_w_start(e, key_name);
            rc = rc == ANVIL_OK && key ? s_namespace(e, anvil__member_trait(key, "smithy.api#xmlNamespace")) : rc;
            rc = rc == ANVIL_OK ? s_w_text(e, anvil_json_member_key(jm)) : rc;
            rc = rc == ANVIL_OK ? anvil_xml_writer_end(e->w) : rc;
        }
        if (rc == ANVIL_OK) {
            anvil__path_push(&e->path, ANVIL__PATH_KEY, anvil_json_member_key(jm), 0);
            rc = s_encode_element(e, value_name, value, &jm->value);
            anvil__path_pop(&e->path);
        }
        rc = rc == ANVIL_OK ? anvil_xml_writer_end(e->w) : rc;
    }
    return rc;
}

static int s_encode_element(struct s_enc *e, struct anvil_str_view name, const struct anvil_member *m,
                            const struct anvil_json *v) {
    if (++e->depth > ANVIL__VALUE_MAX_DEPTH) {
        char path[160];
        return anvil_diag_set(e->diag, ANVIL_ELIMIT, 0, 0, 0, "`%s`: the input nests deeper than %d levels",
                              anvil__path_text(&e->path, "input", path, sizeof path), ANVIL__VALUE_MAX_DEPTH);
    }
    int rc = s_w_start(e, name);
    if (rc == ANVIL_OK) {
        rc = s_namespace(e, anvil__trait(m ? &m->traits : NULL, &anvil__t_xml_namespace));
    }
    enum anvil_shape_type t = m && m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    if (rc != ANVIL_OK) {
        /* the writer's error */
    } else if (anvil_json_is_null(v)) {
        /* a null in a sparse list or map: an empty element */
    } else if (t == ANVIL_SHAPE_STRUCTURE || t == ANVIL_SHAPE_UNION) {
        rc = s_encode_members(e, m->target, v, NULL);
    } else if (t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET) {
        const struct anvil_member *item = anvil_shape_member(m->target, "member");
        rc = s_encode_list_items(e, m, v, item ? anvil__xml_member_name(item) : ANVIL_SV("member"));
    } else if (t == ANVIL_SHAPE_MAP) {
        rc = s_encode_map_entries(e, m, v, ANVIL_SV("entry"));
    } else {
        const char *why = "";
        anvil_buf_clear(&e->text);
        rc = anvil__scalar_text(m, v, ANVIL__TS_DATE_TIME, &e->text, &why);
        rc = rc == ANVIL_EINVAL ? s_enc_fail(e, why) : rc;
        if (rc == ANVIL_OK) {
            rc = s_w_text(e, anvil_buf_view(&e->text));
        }
    }
    rc = rc == ANVIL_OK ? anvil_xml_writer_end(e->w) : rc;
    e->depth--;
    return rc;
}

/* A member's value: its element, or for a flattened list or map, one element per item named as the member. */
static int s_encode_value(struct s_enc *e, const struct anvil_member *m, const struct anvil_json *v) {
    enum anvil_shape_type t = m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    struct anvil_str_view name = anvil__xml_member_name(m);
    if (s_is_flattened(m) && (t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET)) {
        return s_encode_list_items(e, m, v, name);
    }
    if (s_is_flattened(m) && t == ANVIL_SHAPE_MAP) {
        return s_encode_map_entries(e, m, v, name);
    }
    return s_encode_element(e, name, m, v);
}

int anvil__xml_encode(const struct anvil_shape *shape, struct anvil_str_view root, const struct anvil_json *ns,
                      const struct anvil_json *value, anvil__member_filter_fn *keep, struct anvil_buf *out,
                      struct anvil_diag *diag) {
    struct s_enc e;
    e.diag = diag;
    e.path.depth = 0;
    e.depth = 0;
    int rc = anvil_xml_writer_new(NULL, out, &e.w);
    if (rc != ANVIL_OK) {
        return rc;
    }
    anvil_buf_init(&e.text, NULL, 0);
    rc = s_w_start(&e, root);
    if (rc == ANVIL_OK) {
        rc = s_namespace(&e, ns);
    }
    if (rc == ANVIL_OK && value && !anvil_json_is_null(value)) {
        rc = s_encode_members(&e, shape, value, keep);
    }
    rc = rc == ANVIL_OK ? anvil_xml_writer_end(e.w) : rc;
    int finish = anvil_xml_writer_finish(e.w);
    rc = rc == ANVIL_OK ? finish : rc;
    anvil_xml_writer_destroy(e.w);
    anvil_buf_clean_up(&e.text);
    return rc;
}

bool anvil__xml_has_body_values(const struct anvil_shape *shape, const struct anvil_json *input) {
    for (size_t i = 0; i < anvil_json_len(input); i++) {
        const struct anvil_json_member *jm = anvil_json_object_at(input, i);
        const struct anvil_member *m = anvil_shape_member_sv(shape, anvil_json_member_key(jm));
        if (!m || (!anvil_json_is_null(&jm->value) && anvil__http_unbound(m))) {
            return true; /* an unknown member too: the writer names it */
        }
    }
    return false;
}

int anvil__xml_encode_payload(const struct anvil_member *payload, const struct anvil_json *value, struct anvil_buf *out,
                              struct anvil_diag *diag) {
    struct anvil_str_view name = anvil__member_trait_string(payload, "smithy.api#xmlName");
    if (!name.len) {
        name = anvil_json_string(anvil_shape_trait(payload->target, "smithy.api#xmlName"));
    }
    if (!name.len) {
        name = anvil_shape_name(payload->target);
    }
    const struct anvil_json *ns = anvil__member_trait(payload, "smithy.api#xmlNamespace");
    if (!ns) {
        ns = anvil_shape_trait(payload->target, "smithy.api#xmlNamespace");
    }
    return anvil__xml_encode(payload->target, name, ns, value, NULL, out, diag);
}

/* ---- reading ---- */

/*
 * Which member an element names, per structure: by @xmlName, else by member
 * name (attributes excluded). EC2's members are all renamed (InstanceId is
 * <instanceId>), so each structure met is indexed once per response in one
 * table keyed by (shape, name), with what reading a member needs at hand
 * (its key record, type, flattening), instead of every member's traits
 * read for every element.
 */
struct s_name_entry {
    const struct anvil_shape *shape;
    /* Empty for the shape's own entry, which says it is indexed and whether it has attribute members. */
    struct anvil_str_view name;
    const struct anvil_member *member;
    const struct anvil_json_key *key;
    uint32_t hash;
    enum anvil_shape_type type;
    bool flattened;
    bool has_attributes;
    /* For a flattened member: the structure element whose items were last gathered (s_dec.element). */
    uint64_t gathered_in;
};

struct s_names {
    struct anvil_allocator *allocator;
    struct s_name_entry *slots;
    size_t count, capacity;
    bool failed;
};

static uint32_t s_name_hash(const struct anvil_shape *shape, struct anvil_str_view name) {
    uint64_t h = (uint64_t)(uintptr_t)shape * UINT64_C(0x9E3779B97F4A7C15);
    for (size_t i = 0; i < name.len; i++) {
        h = (h ^ (unsigned char)name.ptr[i]) * UINT64_C(0x100000001B3);
    }
    return (uint32_t)(h ^ (h >> 32));
}

static struct s_name_entry *s_names_slot(struct s_names *t, const struct anvil_shape *shape, struct anvil_str_view name,
                                         uint32_t hash) {
    size_t mask = t->capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        struct s_name_entry *e = &t->slots[i];
        if (!e->shape || (e->shape == shape && e->hash == hash && anvil__sv_same(e->name, name))) {
            return e;
        }
    }
}

/* Adds an entry (the first of a name wins); NULL when memory ran out. */
static struct s_name_entry *s_names_put(struct s_names *t, const struct anvil_shape *shape,
                                        struct anvil_str_view name) {
    if ((t->count + 1) * 2 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity * 2 : 256;
        struct s_name_entry *old = t->slots;
        size_t old_capacity = t->capacity;
        t->slots = anvil_mem_calloc(t->allocator, capacity, sizeof *t->slots);
        if (!t->slots) {
            t->slots = old;
            return NULL;
        }
        t->capacity = capacity;
        for (size_t i = 0; i < old_capacity; i++) {
            if (old[i].shape) {
                *s_names_slot(t, old[i].shape, old[i].name, old[i].hash) = old[i];
            }
        }
        anvil_mem_release(t->allocator, old);
    }
    uint32_t hash = s_name_hash(shape, name);
    struct s_name_entry *e = s_names_slot(t, shape, name, hash);
    if (!e->shape) {
        *e = (struct s_name_entry){shape, name, NULL, NULL, hash, ANVIL_SHAPE_STRING, false, false, 0};
        t->count++;
    }
    return e;
}

struct s_dec {
    struct anvil__values *values;
    struct anvil_buf *why;
    struct anvil__path path;
    size_t depth;
    struct s_names names;
    /* Numbers the structure elements read, so a flattened member's items are gathered once per element. */
    uint64_t element;
};

/* Indexes the members of `shape` (once per response); its own entry, or NULL when memory ran out. */
static const struct s_name_entry *s_shape_entry(struct s_dec *d, const struct anvil_shape *shape) {
    struct s_names *t = &d->names;
    uint32_t hash = s_name_hash(shape, anvil_sv("", 0));
    if (t->capacity) {
        const struct s_name_entry *e = s_names_slot(t, shape, anvil_sv("", 0), hash);
        if (e->shape) {
            return e;
        }
    }
    bool attributes = false;
    for (size_t i = 0; i < anvil_shape_member_count(shape); i++) {
        const struct anvil_member *c = anvil_shape_member_at(shape, i);
        if (anvil__trait(&c->traits, &anvil__t_xml_attribute)) {
            attributes = true;
            continue;
        }
        struct s_name_entry *e = s_names_put(t, shape, s_local(anvil__xml_member_name(c)));
        if (!e || (!e->member && anvil__values_key(d->values, c->name, &e->key) != ANVIL_OK)) {
            return NULL;
        }
        if (!e->member) {
            e->member = c;
            e->type = c->target ? anvil_shape_type(c->target) : ANVIL_SHAPE_STRING;
            e->flattened = anvil__trait(&c->traits, &anvil__t_xml_flattened) &&
                           (e->type == ANVIL_SHAPE_LIST || e->type == ANVIL_SHAPE_SET || e->type == ANVIL_SHAPE_MAP);
        }
    }
    /* Last, so that a shape whose indexing failed half-way is indexed again next time. */
    struct s_name_entry *own = s_names_put(t, shape, anvil_sv("", 0));
    if (own) {
        own->has_attributes = attributes;
    }
    return own;
}

static int s_dec_fail(struct s_dec *d, const struct anvil_xml_node *node, const char *what) {
    if (d->why && !d->why->len) {
        char path[160];
        anvil_buf_appendf(d->why, "`%s` (the element at byte %zu): %s",
                          anvil__path_text(&d->path, "output", path, sizeof path), node ? node->offset : 0, what);
    }
    return ANVIL_ESYNTAX;
}

static int s_decode_node(struct s_dec *d, const struct anvil_member *m, const struct anvil_xml_node *node,
                         struct anvil_json *out);

/* The items of a flattened list (every child named as the member), or its wrapped list's children. */
static int s_decode_list(struct s_dec *d, const struct anvil_member *m, const struct anvil_xml_node *first,
                         struct anvil_str_view flattened_name, struct anvil_json *out) {
    const struct anvil_member *item = anvil_shape_member(m->target, "member");
    size_t base = d->values->item_count, index = 0;
    int rc = ANVIL_OK;
    for (const struct anvil_xml_node *c = first; c && rc == ANVIL_OK; c = c->next_sibling) {
        if (flattened_name.len && !anvil_sv_eq(c->local, flattened_name)) {
            continue;
        }
        struct anvil_json v;
        anvil__path_push(&d->path, ANVIL__PATH_INDEX, anvil_sv("", 0), index++);
        rc = s_decode_node(d, item, c, &v);
        anvil__path_pop(&d->path);
        if (rc == ANVIL_OK) {
            rc = anvil__values_item(d->values, v);
        }
    }
    if (rc != ANVIL_OK) {
        d->values->item_count = base;
        return rc;
    }
    return anvil__values_array(d->values, base, out);
}

/* A map's entries: `<entry>` children of the member's element, or (flattened) every child named as the member. */
static int s_decode_map(struct s_dec *d, const struct anvil_member *m, const struct anvil_xml_node *first,
                        struct anvil_str_view entry_name, struct anvil_json *out) {
    const struct anvil_member *key = anvil_shape_member(m->target, "key");
    const struct anvil_member *value = anvil_shape_member(m->target, "value");
    struct anvil_str_view key_name = s_local(key ? anvil__xml_member_name(key) : ANVIL_SV("key"));
    struct anvil_str_view value_name = s_local(value ? anvil__xml_member_name(value) : ANVIL_SV("value"));
    size_t base = d->values->member_count;
    int rc = ANVIL_OK;
    for (const struct anvil_xml_node *c = first; c && rc == ANVIL_OK; c = c->next_sibling) {
        if (!anvil_sv_eq(c->local, entry_name)) {
            continue;
        }
        const struct anvil_xml_node *k = anvil_xml_child(c, key_name);
        const struct anvil_xml_node *v = anvil_xml_child(c, value_name);
        if (!k) {
            rc = s_dec_fail(d, c, "a map entry without its key");
            break;
        }
        struct anvil_json val = anvil_json_make_null();
        anvil__path_push(&d->path, ANVIL__PATH_KEY, k->text, 0);
        if (v) {
            rc = s_decode_node(d, value, v, &val);
        }
        anvil__path_pop(&d->path);
        if (rc == ANVIL_OK && !anvil__utf8_valid(k->text.ptr ? k->text.ptr : "", k->text.len)) {
            rc = s_dec_fail(d, k, "a map key that is not UTF-8");
        }
        if (rc == ANVIL_OK) {
            rc = anvil__values_member_named(d->values, k->text, val);
        }
    }
    if (rc != ANVIL_OK) {
        d->values->member_count = base;
        return rc;
    }
    return anvil__values_object(d->values, base, out);
}

/* The @xmlAttribute members of `shape`, read from the element's attributes. */
static int s_decode_attributes(struct s_dec *d, const struct anvil_shape *shape, const struct anvil_xml_node *node) {
    int rc = ANVIL_OK;
    for (size_t i = 0; i < anvil_shape_member_count(shape) && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        const struct anvil_str_view *text = anvil__trait(&m->traits, &anvil__t_xml_attribute)
                                                ? anvil_xml_attribute(node, anvil__xml_member_name(m))
                                                : NULL;
        if (text) {
            struct anvil_json v;
            rc = anvil__text_value(d->values, m, *text, ANVIL__TS_DATE_TIME, &v);
            rc = rc == ANVIL_EVALUE ? s_dec_fail(d, node, "an attribute that is not its member's type") : rc;
            if (rc == ANVIL_OK) {
                rc = anvil__values_member_named(d->values, m->name, v);
            }
        }
    }
    return rc;
}

static int s_decode_members(struct s_dec *d, const struct anvil_shape *shape, const struct anvil_xml_node *node) {
    size_t base = d->values->member_count;
    const struct s_name_entry *own = s_shape_entry(d, shape);
    if (!own) {
        return ANVIL_ENOMEM;
    }
    int rc = own->has_attributes ? s_decode_attributes(d, shape, node) : ANVIL_OK;
    uint64_t element = ++d->element;
    for (const struct anvil_xml_node *c = node->first_child; c && rc == ANVIL_OK; c = c->next_sibling) {
        struct s_name_entry *e =
            c->local.len ? s_names_slot(&d->names, shape, c->local, s_name_hash(shape, c->local)) : NULL;
        if (!e || !e->shape) {
            continue; /* an element the model does not know: skipped with everything in it */
        }
        if (e->flattened) {
            /* Its first element gathers every item (wherever they stand among their siblings); the rest are done. */
            if (e->gathered_in == element) {
                continue;
            }
            e->gathered_in = element;
        }
        /* Copied out: reading the value indexes more shapes, and the table may move. */
        const struct anvil_member *m = e->member;
        const struct anvil_json_key *key = e->key;
        bool flattened = e->flattened, map = e->type == ANVIL_SHAPE_MAP;
        struct anvil_json v;
        anvil__path_push(&d->path, ANVIL__PATH_MEMBER, m->name, 0);
        if (flattened && map) {
            rc = s_decode_map(d, m, c, c->local, &v);
        } else if (flattened) {
            rc = s_decode_list(d, m, c, c->local, &v);
        } else {
            rc = s_decode_node(d, m, c, &v);
        }
        anvil__path_pop(&d->path);
        if (flattened) {
            /* A structure of the same shape inside may have marked the entry for itself: mark it again. */
            s_names_slot(&d->names, shape, c->local, s_name_hash(shape, c->local))->gathered_in = element;
        }
        if (rc == ANVIL_OK) {
            rc = anvil__values_member(d->values, key, v);
        }
    }
    if (rc != ANVIL_OK) {
        d->values->member_count = base;
    }
    return rc;
}

static int s_decode_node(struct s_dec *d, const struct anvil_member *m, const struct anvil_xml_node *node,
                         struct anvil_json *out) {
    if (++d->depth > ANVIL__VALUE_MAX_DEPTH) {
        return s_dec_fail(d, node, "nested too deep");
    }
    enum anvil_shape_type t = m && m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    int rc;
    if (t == ANVIL_SHAPE_STRUCTURE || t == ANVIL_SHAPE_UNION) {
        size_t base = d->values->member_count;
        rc = s_decode_members(d, m->target, node);
        if (rc == ANVIL_OK) {
            rc = anvil__values_fill_defaults(d->values, m->target, base);
        }
        rc = rc == ANVIL_OK ? anvil__values_object(d->values, base, out) : rc;
    } else if (t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET) {
        rc = s_decode_list(d, m, node->first_child, anvil_sv("", 0), out);
    } else if (t == ANVIL_SHAPE_MAP) {
        rc = s_decode_map(d, m, node->first_child, ANVIL_SV("entry"), out);
    } else {
        rc = anvil__text_value(d->values, m, node->text, ANVIL__TS_DATE_TIME, out);
        if (rc == ANVIL_EVALUE) {
            rc = s_dec_fail(d, node,
                            t == ANVIL_SHAPE_STRING ? "text that is not UTF-8" : "text that is not its member's type");
        }
    }
    d->depth--;
    return rc;
}

static void s_dec_init(struct s_dec *d, struct anvil__values *values, struct anvil_buf *why) {
    d->values = values;
    d->why = why;
    d->path.depth = 0;
    d->depth = 0;
    d->names = (struct s_names){values->allocator, NULL, 0, 0, false};
    d->element = 0;
}

int anvil__xml_decode_members(const struct anvil_shape *shape, const struct anvil_xml_node *node,
                              struct anvil__values *values, struct anvil_buf *why) {
    struct s_dec d;
    s_dec_init(&d, values, why);
    int rc = s_decode_members(&d, shape, node);
    anvil_mem_release(values->allocator, d.names.slots);
    return rc;
}

int anvil__xml_decode_value(const struct anvil_member *member, const struct anvil_xml_node *node,
                            struct anvil__values *values, struct anvil_json *out, struct anvil_buf *why) {
    struct s_dec d;
    s_dec_init(&d, values, why);
    anvil__path_push(&d.path, ANVIL__PATH_MEMBER, member->name, 0);
    int rc = s_decode_node(&d, member, node, out);
    anvil_mem_release(values->allocator, d.names.slots);
    return rc;
}

int anvil__xml_parse_body(struct anvil_arena *arena, struct anvil_allocator *allocator,
                          const struct anvil__response *res, const struct anvil_xml_node **root,
                          struct anvil_buf *why) {
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_xml_parse(arena, allocator, res->body, res->body_len, NULL, ANVIL_XML_BORROW_INPUT, root, &diag);
    if (rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT) {
        anvil_buf_appendf(why, "the response body is not XML (%zu:%zu: %s)", diag.line, diag.column, diag.message);
    }
    return rc;
}
