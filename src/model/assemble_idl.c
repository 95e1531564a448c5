/*
 * Model assembly, IDL side: parsed IDL shapes, traits, node values and
 * `apply` statements -> the assembler's shape records (see assemble.c).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/assemble_internal.h"
#include "model/idl_internal.h"
#include "model/model_internal.h"
#include "model/validate_internal.h"
#include "json/json_internal.h"

/* ---- IDL node values -> JSON ---- */

/* A number the lexer accepted: an integer when it fits 64 bits (as the JSON parser does), else a double. */
static int s_number(struct anvil__asm *a, struct anvil_str_view text, struct anvil_json *out) {
    bool negative = text.ptr[0] == '-', integral = true;
    uint64_t v = 0, limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (size_t i = negative; i < text.len && integral; i++) {
        unsigned digit = (unsigned)(text.ptr[i] - '0');
        integral = digit <= 9 && v <= (limit - digit) / 10;
        v = v * 10 + digit;
    }
    if (integral) {
        *out = anvil_json_make_int(v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : negative ? -(int64_t)v : (int64_t)v);
        return ANVIL_OK;
    }
    double d;
    int rc = anvil__json_strtod(a->allocator, text.ptr, text.len, &d);
    if (rc == ANVIL_OK) {
        rc = anvil_json_make_double_checked(d, out);
    }
    return rc == ANVIL_ENOMEM ? rc : rc == ANVIL_OK ? ANVIL_OK : ANVIL_EVALUE; /* the lexer refuses these */
}

/* Every string the assembler makes is valid UTF-8: IDL files are checked whole before they are read, JSON ASTs
 * by their parser, and ids and keys are cut from those. */
int anvil__asm_string(struct anvil__asm *a, struct anvil_str_view s, struct anvil_json *out) {
    return anvil__json_string_value(a->arena, s.ptr ? s.ptr : "", s.len, out);
}

/* Doc comment lines joined by LF, made once where the output keeps it. */
static int s_docs(struct anvil__asm *a, const struct anvil__idl_node *node, struct anvil_json *out) {
    size_t len = node->count ? node->count - 1 : 0;
    for (size_t i = 0; i < node->count; i++) {
        len += node->u.lines[i].len;
    }
    char small[8];
    char *text = len < sizeof(small) ? small : anvil_arena_alloc(a->arena, len + 1, 1);
    if (!text) {
        return ANVIL_ENOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < node->count; i++) {
        if (i) {
            text[n++] = '\n';
        }
        memcpy(text + n, node->u.lines[i].ptr, node->u.lines[i].len);
        n += node->u.lines[i].len;
    }
    text[n] = '\0';
    if (text == small) {
        return anvil__asm_string(a, anvil_sv(small, n), out); /* held in the value itself */
    }
    if (n > (size_t)UINT32_MAX - 1) { /* as anvil__json_string_value */
        return ANVIL_ELIMIT;
    }
    *out = anvil__json_borrowed_string(text, n);
    return ANVIL_OK;
}

static int s_node_json(struct anvil__asm *a, const struct anvil__idl_file *file, const struct anvil__idl_node *node,
                       struct anvil_str_view context, struct anvil_json *out) {
    switch (node->kind) {
    case ANVIL__NODE_NULL:
        *out = anvil_json_make_null();
        return ANVIL_OK;
    case ANVIL__NODE_TRUE:
    case ANVIL__NODE_FALSE:
        *out = anvil_json_make_bool(node->kind == ANVIL__NODE_TRUE);
        return ANVIL_OK;
    case ANVIL__NODE_NUMBER:
        return s_number(a, node->text, out);
    case ANVIL__NODE_STRING:
        return anvil__asm_string(a, node->text, out);
    case ANVIL__NODE_DOCS:
        return s_docs(a, node, out);
    case ANVIL__NODE_SHAPE_ID: {
        bool found;
        struct anvil_str_view id = anvil__asm_resolve(a, file, node->text, &found);
        if (!found &&
            anvil__asm_grow(a, (void **)&a->syntactic, a->syntactic_count, &a->syntactic_cap, sizeof(*a->syntactic))) {
            size_t dollar = anvil_sv_find_byte(id, 0, '$');
            struct anvil_str_view root = dollar == SIZE_MAX ? id : anvil_sv_slice(id, 0, dollar);
            a->syntactic[a->syntactic_count++] = (struct anvil__asm_syntactic){node->text, id, root};
        }
        return anvil__asm_string(a, id, out);
    }
    case ANVIL__NODE_ARRAY: {
        struct anvil_json *items;
        if (anvil_json_new_array(a->arena, node->count, out, &items) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        for (size_t i = 0; i < node->count; i++) {
            int rc = s_node_json(a, file, &node->u.items[i], context, &items[i]);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
        return ANVIL_OK;
    }
    default: {
        struct anvil_json_member *members =
            anvil_mem_acquire(a->allocator, (node->count ? node->count : 1) * sizeof(*members));
        if (!members) {
            return ANVIL_ENOMEM;
        }
        int rc = ANVIL_OK;
        for (size_t i = 0; i < node->count && rc == ANVIL_OK; i++) {
            struct anvil_str_view key = node->u.entries[i].key;
            members[i].key = anvil__json_key_new(a->arena, key.ptr ? key.ptr : "", key.len,
                                                 anvil_json_hash(key.ptr ? key.ptr : "", key.len));
            rc = members[i].key ? s_node_json(a, file, &node->u.entries[i].value, context, &members[i].value)
                                : ANVIL_ENOMEM;
        }
        size_t unused;
        if (rc == ANVIL_OK) {
            rc = anvil__json_object_finish(a->arena, members, node->count, false, &unused, out);
        }
        anvil_mem_release(a->allocator, members);
        return rc;
    }
    }
}

/* A node value as JSON in the output document; on failure the assembly stops with its status. */
int anvil__asm_node_json(struct anvil__asm *a, const struct anvil__idl_file *file, const struct anvil__idl_node *node,
                         struct anvil_str_view context, struct anvil_json *out) {
    int rc = s_node_json(a, file, node, context, out);
    if (rc != ANVIL_OK && !a->error) {
        a->error = rc;
    }
    return rc;
}

/*
 * The traits of shape `shape` (or of its member `member`, when not empty) into `traits`. A member's id is
 * made only when adding a trait could say something about it (a version rule, a conflict): most never do.
 */
static void s_idl_traits(struct anvil__asm *a, const struct anvil__idl_file *file, struct anvil_str_view shape,
                         struct anvil_str_view member, const struct anvil__idl_trait *items, size_t count,
                         struct anvil__asm_traits *traits) {
    anvil__asm_traits_reserve(a, traits, count);
    struct anvil_str_view target = shape;
    for (size_t i = 0; i < count && !a->error; i++) {
        const struct anvil__idl_trait *t = &items[i];
        struct anvil_str_view id = t->id.text;
        if (!t->doc_comment && t->id.plain) {
            id = anvil__asm_resolve_name(a, file, t->id.text);
        } else if (!t->doc_comment && anvil__sv_index(t->id.text, '#') == SIZE_MAX) {
            id = anvil__asm_resolve(a, file, t->id.text, NULL);
        }
        struct anvil_json value;
        if (t->annotation) {
            enum anvil_shape_type type = ANVIL_SHAPE_STRUCTURE;
            bool known = anvil__asm_type_of(a, id, &type);
            if (!known) {
                anvil__asm_ids_add(a, &a->untyped, id); /* a later statement may define it */
            }
            if (!known || type == ANVIL_SHAPE_STRUCTURE || type == ANVIL_SHAPE_MAP) {
                value = *anvil__json_empty_object();
            } else if (type == ANVIL_SHAPE_LIST || type == ANVIL_SHAPE_SET) {
                struct anvil_json *unused;
                if (anvil_json_new_array(a->arena, 0, &value, &unused) != ANVIL_OK) {
                    a->error = ANVIL_ENOMEM;
                    return;
                }
            } else {
                value = anvil_json_make_null();
            }
        } else if (anvil__asm_node_json(a, file, &t->value, target, &value) != ANVIL_OK) {
            return;
        }
        /* Where it was written: the `@` before a trait's name, the `///` of a doc comment. */
        size_t at = t->doc_comment || !t->id.at ? t->id.at : t->id.at - 1;
        struct anvil__asm_trait add = {.id = id, .value = value, .file = file->number, .at = (uint32_t)at};
        if (member.len && target.ptr == shape.ptr && anvil__asm_trait_may_speak(a, traits, file->version, &add)) {
            target = anvil__asm_concat(a, shape, "$", member);
        }
        anvil__asm_add_trait(a, target, file->version, traits, &add);
    }
}

/* Service and resource bodies in JSON AST form: ids resolved, lists of {"target"}. The parser checked each
 * property's type; `type` and properties Smithy does not know for the shape's type (it warned) are left out. */
static struct anvil_json s_body_json(struct anvil__asm *a, const struct anvil__idl_file *file,
                                     enum anvil_shape_type type, const struct anvil__idl_node *body) {
    static const char *const single[] = {"create", "put", "read", "update", "delete", "list", NULL};
    static const char *const lists[] = {"operations", "resources", "errors", "collectionOperations", NULL};
    const char *const *known = anvil__idl_body_keys(type);
    struct anvil__asm_obj obj = {0};
    for (size_t i = 0; i < body->count && !a->error; i++) {
        const struct anvil__idl_entry *e = &body->u.entries[i];
        const struct anvil__idl_node *v = &e->value;
        bool is_id = v->kind == ANVIL__NODE_SHAPE_ID || v->kind == ANVIL__NODE_STRING;
        bool done = true; /* a property of the other type (a service's `create`): warned about, left out */
        for (size_t k = 0; known && known[k] && done; k++) {
            done = !anvil_sv_eq_cstr(e->key, known[k]);
        }
        for (size_t k = 0; single[k] && !done; k++) {
            if (anvil_sv_eq_cstr(e->key, single[k]) && is_id) {
                struct anvil_json ref = anvil__asm_target_ref(a, anvil__asm_resolve(a, file, v->text, NULL));
                anvil__asm_put(a, &obj, e->key, &ref);
                done = true;
            }
        }
        for (size_t k = 0; lists[k] && !done; k++) {
            if (anvil_sv_eq_cstr(e->key, lists[k]) && v->kind == ANVIL__NODE_ARRAY) {
                struct anvil_json list, *items;
                if (anvil_json_new_array(a->arena, v->count, &list, &items) != ANVIL_OK) {
                    a->error = ANVIL_ENOMEM;
                    return anvil_json_make_null();
                }
                for (size_t j = 0; j < v->count; j++) {
                    items[j] = anvil__asm_target_ref(a, anvil__asm_resolve(a, file, v->u.items[j].text, NULL));
                }
                anvil__asm_put(a, &obj, e->key, &list);
                done = true;
            }
        }
        if (!done && (anvil_sv_eq_cstr(e->key, "identifiers") || anvil_sv_eq_cstr(e->key, "properties")) &&
            v->kind == ANVIL__NODE_OBJECT) {
            struct anvil__asm_obj inner = {0};
            for (size_t j = 0; j < v->count; j++) {
                struct anvil_json ref =
                    anvil__asm_target_ref(a, anvil__asm_resolve(a, file, v->u.entries[j].value.text, NULL));
                anvil__asm_put(a, &inner, v->u.entries[j].key, &ref);
            }
            struct anvil_json value = anvil__asm_obj_finish(a, &inner);
            anvil__asm_put(a, &obj, e->key, &value);
            done = true;
        }
        if (!done && (anvil_sv_eq_cstr(e->key, "version") || anvil_sv_eq_cstr(e->key, "rename"))) {
            struct anvil_json value;
            if (anvil__asm_node_json(a, file, v, anvil_sv("", 0), &value) != ANVIL_OK) {
                return anvil_json_make_null();
            }
            anvil__asm_put(a, &obj, e->key, &value);
        }
    }
    return anvil__asm_obj_finish(a, &obj);
}

static void s_idl_shape(struct anvil__asm *a, const struct anvil__idl_file *file, struct anvil__asm_shape *s,
                        const struct anvil__idl_shape *d) {
    s_idl_traits(a, file, s->id, anvil_sv("", 0), d->traits, d->trait_count, &s->traits);
    s->mixins = d->mixin_count ? anvil__asm_alloc(a, d->mixin_count * sizeof(*s->mixins)) : NULL;
    if (d->mixin_count && !s->mixins) {
        return;
    }
    for (size_t i = 0; i < d->mixin_count; i++) {
        s->mixins[i] = anvil__asm_resolve(a, file, d->mixins[i].text, NULL);
    }
    s->mixin_count = (uint32_t)d->mixin_count;
    if (d->for_resource.text.len) {
        s->for_resource = anvil__asm_resolve(a, file, d->for_resource.text, NULL);
    }
    s->members = d->member_count ? anvil__asm_alloc(a, d->member_count * sizeof(*s->members)) : NULL;
    if (d->member_count && !s->members) {
        return;
    }
    s->member_cap = (uint32_t)d->member_count;
    for (size_t i = 0; i < d->member_count && !a->error; i++) {
        const struct anvil__idl_member *dm = &d->members[i];
        struct anvil__asm_member *m = &s->members[s->member_count++];
        memset(m, 0, sizeof(*m));
        m->name = dm->name;
        m->elided = dm->target.text.len == 0;
        if (!m->elided && dm->target.plain) {
            a->member_target = true;
            m->target = anvil__asm_resolve_name(a, file, dm->target.text);
            a->member_target = false;
        } else if (!m->elided && anvil__sv_index(dm->target.text, '#') != SIZE_MAX) {
            m->target = dm->target.text;
        } else if (!m->elided) {
            m->target = anvil__asm_resolve(a, file, dm->target.text, NULL);
        }
        s_idl_traits(a, file, s->id, m->name, dm->traits, dm->trait_count, &m->traits);
    }
    if (s->type == ANVIL_SHAPE_SERVICE || s->type == ANVIL_SHAPE_RESOURCE) {
        s->props = s_body_json(a, file, s->type, &d->body);
    } else if (s->type == ANVIL_SHAPE_OPERATION) {
        struct anvil__asm_obj obj = {0};
        if (d->has_input) {
            struct anvil_json ref = anvil__asm_target_ref(a, anvil__asm_resolve(a, file, d->input.text, NULL));
            anvil__asm_put_cstr(a, &obj, "input", &ref);
        }
        if (d->has_output) {
            struct anvil_json ref = anvil__asm_target_ref(a, anvil__asm_resolve(a, file, d->output.text, NULL));
            anvil__asm_put_cstr(a, &obj, "output", &ref);
        }
        if (d->has_errors) {
            struct anvil_json list, *items;
            if (anvil_json_new_array(a->arena, d->error_count, &list, &items) != ANVIL_OK) {
                a->error = ANVIL_ENOMEM;
                return;
            }
            for (size_t j = 0; j < d->error_count; j++) {
                items[j] = anvil__asm_target_ref(a, anvil__asm_resolve(a, file, d->errors[j].text, NULL));
            }
            anvil__asm_put_cstr(a, &obj, "errors", &list);
        }
        s->props = anvil__asm_obj_finish(a, &obj);
    }
}

/* ---- the parser's sink ---- */

static bool s_on_shapes(void *ctx, const struct anvil__idl_file *file, const struct anvil__idl_shape *shapes,
                        size_t count) {
    struct anvil__asm *a = ctx;
    for (size_t i = 0; i < count && !a->error; i++) {
        const struct anvil__idl_shape *d = &shapes[i];
        const struct anvil_json_key *id = anvil__asm_id_key(a, file->ns, "#", d->name);
        struct anvil__asm_shape *s =
            id ? anvil__asm_register(a, anvil_sv(id->bytes, id->len), id->hash, d->type, file, file->version, d->at)
               : NULL;
        if (s) {
            s_idl_shape(a, file, s, d);
        }
    }
    return !a->error && !a->over_limit;
}

static bool s_on_apply(void *ctx, const struct anvil__idl_file *file, const struct anvil__idl_apply *ap) {
    struct anvil__asm *a = ctx;
    struct anvil__asm_applies *list = a->applies;
    if (a->error || !anvil__asm_grow(a, (void **)&list->items, list->count, &list->cap, sizeof(*list->items))) {
        return false;
    }
    struct anvil__asm_apply *out = &list->items[list->count++];
    memset(out, 0, sizeof(*out));
    out->target = anvil__asm_resolve(a, file, ap->target.text, NULL);
    s_idl_traits(a, file, out->target, anvil_sv("", 0), ap->traits, ap->trait_count, &out->traits);
    return !a->error;
}

const struct anvil__idl_sink anvil__asm_idl_sink = {s_on_shapes, s_on_apply, NULL};
