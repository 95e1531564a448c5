/*
 * Model assembly, last step: the records -> the model, with no JSON AST in
 * between. The steps after the shapes' own parts (the index, mixins, member
 * indexes, `apply`) are the JSON AST loader's (load.c), so a model means the
 * same whichever way it came. The AST of an assembled model is made from the
 * model when it is asked for (assemble_ast.c).
 *
 * The records go when the assembly ends: what the model keeps is in the
 * output arena, the model's own. Shape ids are interned there already;
 * member names and targets (views into the sources, which the caller may
 * free) are interned as they are met, traits are the JSON objects the trait
 * lists became (anvil__asm_traits_done).
 */

#include <string.h>

#include "anvil/status.h"
#include "core/arena_internal.h"
#include "core/core_internal.h"
#include "model/assemble_internal.h"
#include "model/model_internal.h"
#include "json/json_internal.h"

/* The members of a list, set or map in the order the loader reads them; a structure's as written. */
static const struct anvil__asm_member *s_member_at(const struct anvil__asm_shape *r, size_t i) {
    static const char *const list_names[] = {"member"};
    static const char *const map_names[] = {"key", "value"};
    if (r->type < ANVIL_SHAPE_LIST || r->type > ANVIL_SHAPE_MAP) {
        return &r->members[i];
    }
    const char *want = r->type == ANVIL_SHAPE_MAP ? map_names[i] : list_names[i];
    for (size_t k = 0; k < r->member_count; k++) {
        if (anvil_sv_eq_cstr(r->members[k].name, want)) {
            return &r->members[k];
        }
    }
    return NULL;
}

/* The own members of a record: names kept, targets looked up, traits as objects. */
static int s_members(struct anvil__asm *a, struct anvil__model_builder *b, struct anvil_shape *s,
                     const struct anvil__asm_shape *r) {
    struct anvil_model *m = b->model;
    size_t n = r->member_count;
    if (r->type >= ANVIL_SHAPE_LIST && r->type <= ANVIL_SHAPE_MAP) {
        n = r->type == ANVIL_SHAPE_MAP ? 2 : 1;
        for (size_t i = 0; i < n; i++) {
            if (!s_member_at(r, i)) {
                return ANVIL_OK; /* it has its members through mixins (anything else was an ERROR event) */
            }
        }
    }
    if (n == 0) {
        return ANVIL_OK;
    }
    s->members = anvil_arena_alloc(m->arena, n * sizeof(*s->members), 0);
    if (!s->members) {
        return anvil__model_nomem(b);
    }
    for (size_t i = 0; i < n; i++) {
        const struct anvil__asm_member *rm = s_member_at(r, i);
        struct anvil_member *out = &s->members[s->member_count++];
        struct anvil_json traits = rm->traits.json;
        const struct anvil_json_key *name = anvil__asm_atom(a, rm->name);
        const struct anvil_json_key *target = anvil__asm_atom(a, rm->target);
        if (!name || !target) {
            return anvil__model_nomem(b);
        }
        out->name = anvil_sv(name->bytes, name->len);
        out->traits = traits;
        out->target = anvil__model_find_hashed(m, target->bytes, target->len, target->hash);
        if (!out->target) {
            int rc = anvil__model_member(b, s, out->name, anvil_sv(target->bytes, target->len), &traits, out);
            if (rc != ANVIL_OK) {
                return rc;
            }
        }
    }
    return ANVIL_OK;
}

static int s_mixins(struct anvil__asm *a, struct anvil__model_builder *b, struct anvil_shape *s,
                    const struct anvil__asm_shape *r) {
    if (!r->mixin_count) {
        return ANVIL_OK;
    }
    struct anvil_model *m = b->model;
    s->mixins = anvil_arena_alloc(m->arena, r->mixin_count * sizeof(*s->mixins), 0);
    if (!s->mixins) {
        return anvil__model_nomem(b);
    }
    for (size_t i = 0; i < r->mixin_count; i++) {
        struct anvil_str_view id = r->mixins[i];
        const struct anvil_json_key *key = anvil__asm_atom(a, id);
        if (!key) {
            return anvil__model_nomem(b);
        }
        s->mixins[i] = anvil__model_find_hashed(m, key->bytes, key->len, key->hash);
        if (!s->mixins[i]) { /* the assembler said so already: this is the loader's word for it */
            return anvil_diag_set(b->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "shape `%.*s`: mixin targets `%.*s`, which is not defined", (int)s->id.len, s->id.ptr,
                                  (int)id.len, id.ptr);
        }
    }
    s->mixin_count = (uint32_t)r->mixin_count;
    return ANVIL_OK;
}

/* Traits on members that come from mixins: what the loader applies once mixins are merged. */
static int s_applies(struct anvil__asm *a, struct anvil__model_builder *b) {
    struct anvil_model *m = b->model;
    m->applies = anvil_arena_alloc(m->arena, (a->member_apply_count + 1) * sizeof(*m->applies), 0);
    if (!m->applies) {
        return anvil__model_nomem(b);
    }
    for (size_t i = 0; i < a->member_apply_count; i++) {
        struct anvil_json traits = a->member_applies[i].traits.json;
        if (!anvil_json_len(&traits)) {
            continue; /* it only had @box */
        }
        struct anvil_json *kept = anvil_arena_alloc(m->arena, sizeof(*kept), 0);
        if (!kept) {
            return anvil__model_nomem(b);
        }
        *kept = traits;
        m->applies[m->apply_count++] = (struct anvil__model_apply){anvil__asm_keep(a, a->member_applies[i].id), kept};
    }
    return a->error ? anvil__model_nomem(b) : ANVIL_OK;
}

/*
 * The bytes the model still needs in its arena: `*objects` for the trait objects (made while the trait lists
 * still exist), `*structs` for the shapes, members, index and relations (made once the lists are gone). Each
 * then takes one block of about that size: the output arena grows by an eighth while the assembly runs,
 * which would leave part of a large last block unused for the model's life.
 */
static void s_model_bytes(const struct anvil__asm *a, size_t *objects, size_t *structs) {
    size_t shapes = 24, members = 0, traits = 0, refs = 0; /* the prelude's shapes, about */
    for (size_t i = 0; i < a->count; i++) {
        const struct anvil__asm_shape *r = &a->shapes[i];
        if (r->dup_of) {
            continue;
        }
        shapes++;
        members += r->member_count;
        traits += r->traits.count;
        refs += r->mixin_count;
        for (size_t k = 0; k < r->member_count; k++) {
            traits += r->members[k].traits.count;
        }
        for (size_t k = 0; k < anvil_json_len(&r->props); k++) {
            const struct anvil_json *v = &anvil_json_object_at(&r->props, k)->value;
            refs += anvil_json_is_array(v) ? anvil_json_len(v) * 2 : 2; /* lifecycle lists are copied as they grow */
        }
    }
    for (size_t i = 0; i < a->member_apply_count; i++) {
        traits += a->member_applies[i].traits.count;
    }
    size_t index = 16;
    while (index < shapes * 2) {
        index *= 2;
    }
    *objects = traits * (sizeof(struct anvil_json_member) + 4) + 512;
    *structs = shapes * (sizeof(struct anvil_shape) + 16) + members * (sizeof(struct anvil_member) + 4) +
               index * sizeof(void *) + refs * sizeof(void *) + 1024;
    *objects += *objects / 32;
    *structs += *structs / 32;
}

/* What the model's arena takes next: one block of the planned size, then (if the plan fell short) small ones. */
static size_t s_planned_block(void *ctx) {
    size_t *planned = ctx, next = *planned;
    *planned = 4096;
    return next;
}

/* The next block of the model's arena: `need` bytes, less what the current block still holds. */
static void s_next_block(struct anvil__asm *a, struct anvil_arena *arena, size_t need) {
    size_t left = (size_t)(arena->end - arena->cursor);
    a->planned = need > left + 4096 ? need - left : 4096;
    arena->hint = s_planned_block;
    arena->hint_ctx = &a->planned;
}

static int s_build(struct anvil__asm *a, struct anvil__model_builder *b) {
    struct anvil_model *m = b->model;
    size_t objects, structs;
    s_model_bytes(a, &objects, &structs);
    s_next_block(a, m->arena, objects);
    anvil__asm_traits_done(a); /* the lists go before the model's own memory is taken */
    if (a->error) {
        return anvil__model_nomem(b);
    }
    s_next_block(a, m->arena, structs);
    m->version = anvil_sv_from_cstr("2.0");
    if (a->metadata_count) {
        struct anvil__asm_traits meta;
        meta.items = a->metadata;
        meta.count = meta.cap = (uint32_t)a->metadata_count;
        struct anvil_json *metadata = anvil_arena_alloc(m->arena, sizeof(*metadata), 0);
        if (!metadata) {
            return anvil__model_nomem(b);
        }
        *metadata = anvil__asm_traits_json(a, &meta, true);
        m->metadata = metadata;
    }
    size_t n = 0, written = 0;
    for (size_t i = 0; i < a->count; i++) {
        const struct anvil__asm_shape *r = &a->shapes[i];
        n += r->dup_of == 0;
        written += r->dup_of == 0 && (r->mixin_count || anvil_json_len(&r->props));
    }
    m->shapes = anvil_arena_alloc(m->arena, (n + 1) * sizeof(*m->shapes), 0);
    m->written = anvil_arena_alloc(m->arena, (written + 1) * sizeof(*m->written), 0);
    if (!m->shapes || !m->written) {
        return anvil__model_nomem(b);
    }
    for (size_t i = 0; i < a->count; i++) {
        const struct anvil__asm_shape *r = &a->shapes[i];
        if (r->dup_of) {
            continue;
        }
        struct anvil_shape *s = &m->shapes[m->count];
        memset(s, 0, sizeof(*s));
        s->id = r->id; /* in the output arena already */
        s->id_hash = r->hash;
        s->name_at = (uint32_t)(anvil__sv_index(s->id, '#') + 1);
        s->type = r->type;
        s->traits = r->traits.json;
        s->index = (uint32_t)m->count++;
        if (r->mixin_count || anvil_json_len(&r->props)) { /* in index order */
            struct anvil__shape_written *w = &m->written[m->written_count++];
            memset(w, 0, sizeof(*w));
            w->index = s->index;
            w->props = r->props;
        }
    }
    int rc = a->error ? anvil__model_nomem(b) : anvil__model_index(b);
    for (size_t i = 0, k = 0; i < a->count && rc == ANVIL_OK; i++) {
        const struct anvil__asm_shape *r = &a->shapes[i];
        if (r->dup_of) {
            continue;
        }
        struct anvil_shape *s = &m->shapes[k++];
        rc = s_members(a, b, s, r);
        if (rc == ANVIL_OK) {
            rc = anvil__model_relations(b, s, &r->props);
        }
        if (rc == ANVIL_OK) {
            rc = s_mixins(a, b, s, r);
        }
    }
    if (rc == ANVIL_OK) {
        rc = s_applies(a, b);
    }
    return rc == ANVIL_OK ? anvil__model_link(b, m->applies, m->apply_count) : rc;
}

int anvil__asm_model(struct anvil__asm *a, struct anvil_json_doc *store, const struct anvil_model_options *options,
                     struct anvil_model **out) {
    struct anvil_model *m;
    int rc = anvil__model_new(a->allocator, store, &m, a->diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil__model_builder b = {m, NULL, a->diag, options && options->allow_unresolved};
    rc = s_build(a, &b);
    if (rc == ANVIL_ENOMEM) {
        rc = anvil__model_nomem(&b);
    }
    m->arena->hint = NULL; /* the assembly's growth rule ends with it */
    m->arena->next_block_size = 4096;
    if (rc != ANVIL_OK) {
        anvil_model_destroy(m);
        return rc;
    }
    *out = m;
    return ANVIL_OK;
}
