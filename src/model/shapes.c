/* Reading a loaded model: lookups, accessors, the prelude, service closures. */

#include <stdio.h>

#include "anvil/status.h"
#include "core/core_internal.h"
#include "model/model_internal.h"

/* Smithy's spelling of each type, with its length. */
static const struct {
    const char *name;
    size_t len;
} s_types[] = {
    [ANVIL_SHAPE_BLOB] = {"blob", sizeof("blob") - 1},
    [ANVIL_SHAPE_BOOLEAN] = {"boolean", sizeof("boolean") - 1},
    [ANVIL_SHAPE_STRING] = {"string", sizeof("string") - 1},
    [ANVIL_SHAPE_BYTE] = {"byte", sizeof("byte") - 1},
    [ANVIL_SHAPE_SHORT] = {"short", sizeof("short") - 1},
    [ANVIL_SHAPE_INTEGER] = {"integer", sizeof("integer") - 1},
    [ANVIL_SHAPE_LONG] = {"long", sizeof("long") - 1},
    [ANVIL_SHAPE_FLOAT] = {"float", sizeof("float") - 1},
    [ANVIL_SHAPE_DOUBLE] = {"double", sizeof("double") - 1},
    [ANVIL_SHAPE_BIG_INTEGER] = {"bigInteger", sizeof("bigInteger") - 1},
    [ANVIL_SHAPE_BIG_DECIMAL] = {"bigDecimal", sizeof("bigDecimal") - 1},
    [ANVIL_SHAPE_TIMESTAMP] = {"timestamp", sizeof("timestamp") - 1},
    [ANVIL_SHAPE_DOCUMENT] = {"document", sizeof("document") - 1},
    [ANVIL_SHAPE_ENUM] = {"enum", sizeof("enum") - 1},
    [ANVIL_SHAPE_INT_ENUM] = {"intEnum", sizeof("intEnum") - 1},
    [ANVIL_SHAPE_LIST] = {"list", sizeof("list") - 1},
    [ANVIL_SHAPE_SET] = {"set", sizeof("set") - 1},
    [ANVIL_SHAPE_MAP] = {"map", sizeof("map") - 1},
    [ANVIL_SHAPE_STRUCTURE] = {"structure", sizeof("structure") - 1},
    [ANVIL_SHAPE_UNION] = {"union", sizeof("union") - 1},
    [ANVIL_SHAPE_SERVICE] = {"service", sizeof("service") - 1},
    [ANVIL_SHAPE_RESOURCE] = {"resource", sizeof("resource") - 1},
    [ANVIL_SHAPE_OPERATION] = {"operation", sizeof("operation") - 1},
};

const char *anvil_shape_type_name(enum anvil_shape_type type) {
    return (size_t)type < sizeof(s_types) / sizeof(s_types[0]) ? s_types[type].name : "unknown";
}

bool anvil__shape_type_named(struct anvil_str_view name, enum anvil_shape_type *out) {
    for (size_t t = 0; name.len && t < sizeof(s_types) / sizeof(s_types[0]); t++) {
        if (s_types[t].len == name.len && s_types[t].name[0] == name.ptr[0] &&
            memcmp(s_types[t].name, name.ptr, name.len) == 0) {
            *out = (enum anvil_shape_type)t;
            return true;
        }
    }
    return false;
}

/* ---- the prelude ---- */

static const struct {
    const char *name;
    enum anvil_shape_type type;
} s_prelude[] = {
    {"Blob", ANVIL_SHAPE_BLOB},
    {"Boolean", ANVIL_SHAPE_BOOLEAN},
    {"String", ANVIL_SHAPE_STRING},
    {"Byte", ANVIL_SHAPE_BYTE},
    {"Short", ANVIL_SHAPE_SHORT},
    {"Integer", ANVIL_SHAPE_INTEGER},
    {"Long", ANVIL_SHAPE_LONG},
    {"Float", ANVIL_SHAPE_FLOAT},
    {"Double", ANVIL_SHAPE_DOUBLE},
    {"BigInteger", ANVIL_SHAPE_BIG_INTEGER},
    {"BigDecimal", ANVIL_SHAPE_BIG_DECIMAL},
    {"Timestamp", ANVIL_SHAPE_TIMESTAMP},
    {"Document", ANVIL_SHAPE_DOCUMENT},
    {"PrimitiveBoolean", ANVIL_SHAPE_BOOLEAN},
    {"PrimitiveByte", ANVIL_SHAPE_BYTE},
    {"PrimitiveShort", ANVIL_SHAPE_SHORT},
    {"PrimitiveInteger", ANVIL_SHAPE_INTEGER},
    {"PrimitiveLong", ANVIL_SHAPE_LONG},
    {"PrimitiveFloat", ANVIL_SHAPE_FLOAT},
    {"PrimitiveDouble", ANVIL_SHAPE_DOUBLE},
    {"Unit", ANVIL_SHAPE_STRUCTURE},
};

int anvil__model_add_prelude(struct anvil_model *model) {
    size_t n = sizeof(s_prelude) / sizeof(s_prelude[0]);
    model->prelude = anvil_arena_alloc(model->arena, n * sizeof(*model->prelude), 0);
    if (!model->prelude) {
        return ANVIL_ENOMEM;
    }
    memset(model->prelude, 0, n * sizeof(*model->prelude));
    for (size_t i = 0; i < n; i++) {
        struct anvil_shape *s = &model->prelude[i];
        char id[64];
        int len = snprintf(id, sizeof(id), "smithy.api#%s", s_prelude[i].name);
        char *copy = anvil_arena_strndup(model->arena, id, (size_t)len);
        if (!copy) {
            return ANVIL_ENOMEM;
        }
        s->id = anvil_sv(copy, (size_t)len);
        s->id_hash = anvil_json_hash(copy, (size_t)len);
        s->name_at = (uint32_t)sizeof("smithy.api#") - 1;
        s->type = s_prelude[i].type;
        s->prelude = true;
        s->index = UINT32_MAX;
        s->traits = *anvil__json_empty_object();
    }
    model->prelude_count = n;
    return ANVIL_OK;
}

/* ---- lookups ---- */

const struct anvil_shape *anvil_model_find(const struct anvil_model *model, const char *id, size_t len) {
    return model && id ? anvil__model_find_hashed(model, id, len, anvil_json_hash(id, len)) : NULL;
}

const struct anvil_shape *anvil__model_find_hashed(const struct anvil_model *model, const char *id, size_t len,
                                                   uint32_t hash) {
    for (size_t slot = hash & model->index_mask;; slot = (slot + 1) & model->index_mask) {
        const struct anvil_shape *s = model->index[slot];
        if (!s) {
            return NULL;
        }
        if (s->id.len == len && memcmp(s->id.ptr, id, len) == 0) {
            return s;
        }
    }
}

struct anvil_str_view anvil_model_version(const struct anvil_model *model) {
    return model->version;
}

const struct anvil_json *anvil_model_metadata(const struct anvil_model *model) {
    return model->metadata;
}

size_t anvil_model_shape_count(const struct anvil_model *model) {
    return model->count;
}

const struct anvil_shape *anvil_model_shape_at(const struct anvil_model *model, size_t index) {
    return index < model->count ? &model->shapes[index] : NULL;
}

struct anvil_str_view anvil_shape_id(const struct anvil_shape *shape) {
    return shape->id;
}

struct anvil_str_view anvil_shape_name(const struct anvil_shape *shape) {
    return anvil_sv_slice(shape->id, shape->name_at, SIZE_MAX);
}

enum anvil_shape_type anvil_shape_type(const struct anvil_shape *shape) {
    return shape->type;
}

bool anvil_shape_is_prelude(const struct anvil_shape *shape) {
    return shape->prelude;
}

const struct anvil_json *anvil_shape_traits(const struct anvil_shape *shape) {
    return &shape->traits;
}

const struct anvil_json *anvil_shape_trait(const struct anvil_shape *shape, const char *id) {
    return anvil_json_object_get_cstr(&shape->traits, id);
}

size_t anvil_shape_member_count(const struct anvil_shape *shape) {
    return shape->member_count;
}

const struct anvil_member *anvil_shape_member_at(const struct anvil_shape *shape, size_t index) {
    return index < shape->member_count ? &shape->members[index] : NULL;
}

int anvil__shape_index_members(struct anvil_shape *shape, struct anvil_arena *arena) {
    shape->member_slots = NULL;
    if (shape->member_count < ANVIL__MEMBER_INDEX_MIN) {
        return ANVIL_OK;
    }
    size_t size = 32;
    while (size < shape->member_count * 2) {
        size *= 2;
    }
    uint32_t *slots = anvil_arena_alloc(arena, size * sizeof(*slots), 0);
    if (!slots) {
        return ANVIL_ENOMEM;
    }
    memset(slots, 0, size * sizeof(*slots));
    for (size_t i = 0; i < shape->member_count; i++) {
        struct anvil_str_view name = shape->members[i].name;
        size_t at = anvil_json_hash(name.ptr, name.len) & (size - 1);
        while (slots[at] != 0 && !anvil_sv_eq(shape->members[slots[at] - 1].name, name)) {
            at = (at + 1) & (size - 1);
        }
        slots[at] = (uint32_t)i + 1; /* names are unique; a repeat would keep the last */
    }
    shape->member_slots = slots;
    shape->member_mask = size - 1;
    return ANVIL_OK;
}

const struct anvil_member *anvil__shape_member_sv(const struct anvil_shape *shape, struct anvil_str_view name) {
    if (shape->member_slots) {
        for (size_t at = anvil_json_hash(name.ptr, name.len) & shape->member_mask; shape->member_slots[at];
             at = (at + 1) & shape->member_mask) {
            const struct anvil_member *m = &shape->members[shape->member_slots[at] - 1];
            if (anvil_sv_eq(m->name, name)) {
                return m;
            }
        }
        return NULL;
    }
    for (size_t i = 0; i < shape->member_count; i++) {
        if (anvil_sv_eq(shape->members[i].name, name)) {
            return &shape->members[i];
        }
    }
    return NULL;
}

const struct anvil_member *anvil_shape_member(const struct anvil_shape *shape, const char *name) {
    return anvil__shape_member_sv(shape, anvil_sv_from_cstr(name));
}

const struct anvil_member *anvil_shape_member_sv(const struct anvil_shape *shape, struct anvil_str_view name) {
    return anvil__shape_member_sv(shape, name);
}

const struct anvil_json *anvil_shape_property(const struct anvil_model *model, const struct anvil_shape *shape,
                                              const char *name) {
    if (!shape || !name) {
        return NULL;
    }
    if (shape->ast) {
        return anvil_json_object_get_cstr(shape->ast, name);
    }
    /* An assembled model keeps the properties of the shapes that have some, by shape index. */
    size_t lo = 0, hi = model ? model->written_count : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (model->written[mid].index == shape->index) {
            return anvil_json_object_get_cstr(&model->written[mid].props, name);
        }
        if (model->written[mid].index < shape->index) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

struct anvil_str_view anvil_service_version(const struct anvil_model *model, const struct anvil_shape *service) {
    return anvil_json_string(anvil_shape_property(model, service, "version"));
}

const struct anvil_shape *anvil_operation_input(const struct anvil_shape *operation) {
    return operation->type == ANVIL_SHAPE_OPERATION ? operation->input : NULL;
}

const struct anvil_shape *anvil_operation_output(const struct anvil_shape *operation) {
    return operation->type == ANVIL_SHAPE_OPERATION ? operation->output : NULL;
}

size_t anvil_shape_error_count(const struct anvil_shape *shape) {
    return shape->error_count;
}

const struct anvil_shape *anvil_shape_error_at(const struct anvil_shape *shape, size_t index) {
    return index < shape->error_count ? shape->errors[index] : NULL;
}

/* ---- service closure ---- */

int anvil_service_operations(const struct anvil_model *model, const struct anvil_shape *service,
                             anvil_operation_visit_fn *fn, void *user_data, size_t *visited_out) {
    if (visited_out) {
        *visited_out = 0;
    }
    if (!model || !service || service->type != ANVIL_SHAPE_SERVICE) {
        return ANVIL_EINVAL;
    }
    /* Breadth first over the service and its resources; `seen` marks shapes by index. */
    bool *seen = anvil_mem_calloc(model->allocator, model->count, sizeof(bool));
    const struct anvil_shape **queue = anvil_mem_calloc(model->allocator, model->count + 1, sizeof(*queue));
    size_t visited = 0;
    if (!seen || !queue) {
        anvil_mem_release(model->allocator, seen);
        anvil_mem_release(model->allocator, queue);
        return ANVIL_ENOMEM;
    }
    size_t head = 0, tail = 0;
    queue[tail++] = service;
    bool go_on = true;
    while (head < tail && go_on) {
        const struct anvil_shape *container = queue[head++];
        for (size_t i = 0; i < container->operation_count && go_on; i++) {
            const struct anvil_shape *op = container->operations[i];
            if (op->index < model->count && !seen[op->index]) {
                seen[op->index] = true;
                visited++;
                go_on = fn ? fn(op, user_data) : true;
            }
        }
        for (size_t i = 0; i < container->resource_count; i++) {
            const struct anvil_shape *r = container->resources[i];
            if (r->index < model->count && !seen[r->index]) {
                seen[r->index] = true;
                queue[tail++] = r;
            }
        }
    }
    anvil_mem_release(model->allocator, seen);
    anvil_mem_release(model->allocator, queue);
    if (visited_out) {
        *visited_out = visited;
    }
    return ANVIL_OK;
}
