/*
 * The JSON AST of an assembled model (what anvil_model_ast() returns, as
 * `smithy ast` prints it), made from the model the first time it is asked
 * for: loading needs no AST, and most programs never print one. Each shape
 * is written as the assembler merged it: its own members and the traits
 * written on it (not what its mixins give), its mixins, its properties, and
 * `apply` entries for traits on members it takes from mixins. Trait values
 * and properties are the model's own, shared, not copied.
 */

#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/assemble_internal.h"
#include "model/model_internal.h"
#include "json/json_internal.h"

/* The target a member names: its shape's id, or (allow_unresolved) the id as written. */
static struct anvil_str_view s_target_id(const struct anvil_model *model, const struct anvil_shape *s,
                                         const struct anvil_member *m) {
    if (m->target) {
        return m->target->id;
    }
    for (size_t i = 0; i < model->unresolved_count; i++) {
        const struct anvil__unresolved *u = &model->unresolved[i];
        if (u->shape == s && anvil_sv_eq(u->member, m->name)) {
            return u->target;
        }
    }
    return anvil_sv("", 0);
}

static struct anvil_json s_member_json(struct anvil__asm *a, const struct anvil_model *model,
                                       const struct anvil_shape *s, const struct anvil_member *m) {
    struct anvil__asm_obj obj = {0};
    struct anvil_json target = anvil__asm_str(a, s_target_id(model, s, m));
    anvil__asm_put_cstr(a, &obj, "target", &target);
    if (anvil_json_len(&m->traits)) {
        anvil__asm_put_cstr(a, &obj, "traits", &m->traits);
    }
    return anvil__asm_obj_finish(a, &obj);
}

/* What the AST says of `s` (mixins or properties), or `*plain` made from the shape as it is. */
static const struct anvil__shape_written *s_written(const struct anvil_model *model, const struct anvil_shape *s,
                                                    struct anvil__shape_written *plain) {
    size_t lo = 0, hi = model->written_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (model->written[mid].index == s->index) {
            return &model->written[mid];
        }
        if (model->written[mid].index < s->index) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *plain = (struct anvil__shape_written){s->index, s->member_count, s->traits, *anvil__json_empty_object()};
    return plain;
}

static struct anvil_json s_shape_json(struct anvil__asm *a, const struct anvil_model *model,
                                      const struct anvil_shape *s) {
    struct anvil__shape_written plain;
    const struct anvil__shape_written *w = s_written(model, s, &plain);
    struct anvil__asm_obj obj = {0};
    struct anvil_json type = anvil__asm_str(a, anvil_sv_from_cstr(anvil_shape_type_name(s->type)));
    anvil__asm_put_cstr(a, &obj, "type", &type);
    if (s->mixin_count) {
        struct anvil_json list, *items;
        if (anvil_json_new_array(a->arena, s->mixin_count, &list, &items) != ANVIL_OK) {
            a->error = ANVIL_ENOMEM;
            return list;
        }
        for (size_t i = 0; i < s->mixin_count; i++) {
            items[i] = anvil__asm_target_ref(a, s->mixins[i]->id);
        }
        anvil__asm_put_cstr(a, &obj, "mixins", &list);
    }
    /* Its own members are the last ones: those before come from mixins. */
    const struct anvil_member *own = s->members ? s->members + (s->member_count - w->own_member_count) : NULL;
    if (s->type == ANVIL_SHAPE_LIST || s->type == ANVIL_SHAPE_SET || s->type == ANVIL_SHAPE_MAP) {
        for (size_t i = 0; i < w->own_member_count; i++) {
            struct anvil_json m = s_member_json(a, model, s, &own[i]);
            anvil__asm_put(a, &obj, own[i].name, &m);
        }
    } else if (w->own_member_count || s->type == ANVIL_SHAPE_STRUCTURE || s->type == ANVIL_SHAPE_UNION ||
               s->type == ANVIL_SHAPE_ENUM || s->type == ANVIL_SHAPE_INT_ENUM) {
        struct anvil__asm_obj members = {0};
        for (size_t i = 0; i < w->own_member_count; i++) {
            struct anvil_json m = s_member_json(a, model, s, &own[i]);
            anvil__asm_put(a, &members, own[i].name, &m);
        }
        struct anvil_json all = anvil__asm_obj_finish(a, &members);
        anvil__asm_put_cstr(a, &obj, "members", &all);
    }
    for (size_t i = 0; i < anvil_json_len(&w->props); i++) {
        const struct anvil_json_member *p = anvil_json_object_at(&w->props, i);
        bool empty = (anvil_json_is_array(&p->value) || anvil_json_is_object(&p->value)) && !anvil_json_len(&p->value);
        if (!empty) { /* an empty list of errors or operations says nothing: Smithy writes none */
            anvil__asm_put(a, &obj, anvil_json_member_key(p), &p->value);
        }
    }
    if (s->type == ANVIL_SHAPE_OPERATION) {
        struct anvil_json unit = anvil__asm_target_ref(a, anvil_sv_from_cstr("smithy.api#Unit"));
        if (!anvil_json_object_get_cstr(&w->props, "input")) {
            anvil__asm_put_cstr(a, &obj, "input", &unit);
        }
        if (!anvil_json_object_get_cstr(&w->props, "output")) {
            anvil__asm_put_cstr(a, &obj, "output", &unit);
        }
    }
    if (anvil_json_len(&w->own_traits)) {
        anvil__asm_put_cstr(a, &obj, "traits", &w->own_traits);
    }
    return anvil__asm_obj_finish(a, &obj);
}

static struct anvil_json s_root_json(struct anvil__asm *a, const struct anvil_model *model) {
    struct anvil__asm_obj shapes = {0};
    for (size_t i = 0; i < model->count && !a->error; i++) {
        struct anvil_json def = s_shape_json(a, model, &model->shapes[i]);
        anvil__asm_put(a, &shapes, model->shapes[i].id, &def);
    }
    for (size_t i = 0; i < model->apply_count && !a->error; i++) {
        struct anvil__asm_obj entry = {0};
        struct anvil_json type = anvil__asm_str(a, anvil_sv_from_cstr("apply"));
        anvil__asm_put_cstr(a, &entry, "type", &type);
        anvil__asm_put_cstr(a, &entry, "traits", model->applies[i].traits);
        struct anvil_json v = anvil__asm_obj_finish(a, &entry);
        anvil__asm_put(a, &shapes, model->applies[i].target, &v);
    }
    struct anvil__asm_obj root = {0};
    struct anvil_json version = anvil__asm_str(a, anvil_sv_from_cstr("2.0"));
    anvil__asm_put_cstr(a, &root, "smithy", &version);
    if (model->metadata) {
        anvil__asm_put_cstr(a, &root, "metadata", model->metadata);
    }
    struct anvil_json all = anvil__asm_obj_finish(a, &shapes);
    anvil__asm_put_cstr(a, &root, "shapes", &all);
    return anvil__asm_obj_finish(a, &root);
}

int anvil__model_ast_build(const struct anvil_model *model, struct anvil_json_doc **out) {
    *out = NULL;
    struct anvil__asm a;
    memset(&a, 0, sizeof(a));
    a.allocator = model->allocator;
    a.cache_slots = 512;
    struct anvil_json_doc *doc = NULL;
    /* Objects and ids only: the values are the model's. */
    size_t hint = 4096 + model->count * 256;
    if (anvil__json_doc_new(model->allocator, hint, &doc) != ANVIL_OK ||
        anvil_arena_new(model->allocator, NULL, &a.scratch) != ANVIL_OK) {
        anvil_json_doc_destroy(doc);
        return ANVIL_ENOMEM;
    }
    a.arena = anvil_json_doc_arena(doc);
    struct anvil_json root = s_root_json(&a, model);
    anvil_arena_destroy(a.scratch);
    anvil_mem_release(a.allocator, (void *)a.keys.slots);
    if (a.error) {
        anvil_json_doc_destroy(doc);
        return ANVIL_ENOMEM;
    }
    anvil__json_doc_set_root(doc, &root);
    *out = doc;
    return ANVIL_OK;
}
