#ifndef ANVIL_MODEL_INTERNAL_H
#define ANVIL_MODEL_INTERNAL_H

/* The model's layout, shared by the loader and the queries; not installed. */

#include "anvil/model.h"
#include "json/json_internal.h"

struct anvil_shape {
    struct anvil_str_view id;
    size_t name_at; /* offset of the name, after '#' */
    enum anvil_shape_type type;
    bool prelude;
    /* The shape's definition in the JSON AST (NULL for prelude shapes). */
    const struct anvil_json *ast;
    /* Own, mixed-in and applied traits, as one object. */
    struct anvil_json traits;
    struct anvil_member *members;
    size_t member_count;
    /* Shapes of ANVIL__MEMBER_INDEX_MIN members or more: member index + 1 by name hash (linear probing). */
    const uint32_t *member_slots;
    size_t member_mask;
    const struct anvil_shape *input, *output;
    const struct anvil_shape **errors;
    size_t error_count;
    /* Services and resources: operations (lifecycle ones included) and resources bound to them. */
    const struct anvil_shape **operations;
    size_t operation_count;
    const struct anvil_shape **resources;
    size_t resource_count;
    /* Mixin resolution: 0 = not yet, 1 = in progress (a cycle if seen again), 2 = done. */
    unsigned char mixin_state;
    size_t index; /* position in the model's shape array (prelude: SIZE_MAX) */
};

/* A member whose target is not defined (models loaded with allow_unresolved). */
struct anvil__unresolved {
    const struct anvil_shape *shape;
    struct anvil_str_view member;
    struct anvil_str_view target;
};

struct anvil_model {
    struct anvil_allocator *allocator;
    struct anvil__unresolved *unresolved;
    size_t unresolved_count, unresolved_cap;
    struct anvil_json_doc *doc;
    struct anvil_arena *arena;
    struct anvil_str_view version;
    const struct anvil_json *metadata;
    struct anvil_shape *shapes;
    size_t count;
    struct anvil_shape *prelude;
    size_t prelude_count;
    /* Open addressing over file and prelude shapes, by hash of the id. */
    struct anvil_shape **index;
    size_t index_mask;
};

/* Loads the JSON AST in `doc`, which the model then owns (freed on failure too). As anvil_model_load(). */
int anvil__model_load_doc(struct anvil_allocator *allocator, struct anvil_json_doc *doc,
                          const struct anvil_model_options *options, struct anvil_model **out, struct anvil_diag *diag);

/* namespace#Name: a non-empty namespace, one '#', a non-empty name, no '$' (the JSON AST's shape keys). */
bool anvil__shape_id_valid(struct anvil_str_view id);

/* Whether smithy.api#`name` is a prelude shape (any of Smithy's, traits included), and its type. */
bool anvil__prelude_type(struct anvil_str_view name, enum anvil_shape_type *type);

/* Whether smithy.api#`name` is one of the prelude's @private shapes (never written relative from elsewhere). */
bool anvil__prelude_private(struct anvil_str_view name);

/* Creates the prelude shapes (smithy.api#String, Unit, ...) in the model's arena. */
int anvil__model_add_prelude(struct anvil_model *model);

/* From this many members on, a shape gets a name index (a lookup is then O(1), not a scan). */
#define ANVIL__MEMBER_INDEX_MIN 16

/* Builds `shape`'s member index in `arena` (when it has enough members); ANVIL_ENOMEM. */
int anvil__shape_index_members(struct anvil_shape *shape, struct anvil_arena *arena);

/* The member named `name`, or NULL. */
const struct anvil_member *anvil__shape_member_sv(const struct anvil_shape *shape, struct anvil_str_view name);

#endif
