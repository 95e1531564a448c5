#ifndef ANVIL_MODEL_INTERNAL_H
#define ANVIL_MODEL_INTERNAL_H

/* The model's layout, shared by the loader and the queries; not installed. */

#include <stdatomic.h>

#include "anvil/model.h"
#include "json/json_internal.h"

struct anvil_shape {
    struct anvil_str_view id;
    /* Own, mixed-in and applied traits, as one object. */
    struct anvil_json traits;
    /* The shape's definition in the JSON AST (NULL for prelude shapes and assembled models). */
    const struct anvil_json *ast;
    struct anvil_member *members;
    /* Shapes of ANVIL__MEMBER_INDEX_MIN members or more: member index + 1 by name hash (linear probing). */
    const uint32_t *member_slots;
    const struct anvil_shape *input, *output;
    const struct anvil_shape **errors;
    /* Services and resources: operations (lifecycle ones included) and resources bound to them. */
    const struct anvil_shape **operations;
    const struct anvil_shape **resources;
    /* Mixins in the order written (mixin_count); resolved while mixins are merged (the JSON AST's) or before
     * (assembled). */
    const struct anvil_shape **mixins;
    uint32_t name_at; /* offset of the name, after '#' */
    uint32_t id_hash; /* anvil_json_hash of `id` */
    uint32_t index;   /* position in the model's shape array (prelude: UINT32_MAX) */
    uint32_t member_count, member_mask;
    uint32_t error_count, operation_count, resource_count, mixin_count;
    enum anvil_shape_type type;
    bool prelude;
    /* Mixin resolution: 0 = not yet, 1 = in progress (a cycle if seen again), 2 = done. */
    unsigned char mixin_state;
};

/* The most shapes (and members of one shape) a model holds: counts and places are 32 bits. */
#define ANVIL__MODEL_MAX_COUNT ((size_t)UINT32_MAX - 1)

/*
 * What anvil_model_ast() writes for a shape of an assembled model that has mixins or properties (model->written,
 * by shape index; any other shape's AST is its traits and members as they are): the traits written on it
 * (`traits` adds the mixins'), how many of its members are its own (the last ones; the others come from mixins),
 * and its service, resource or operation properties in JSON AST form.
 */
struct anvil__shape_written {
    uint32_t index;
    uint32_t own_member_count;
    struct anvil_json own_traits;
    struct anvil_json props;
};

/* A member whose target is not defined (models loaded with allow_unresolved). */
struct anvil__unresolved {
    const struct anvil_shape *shape;
    struct anvil_str_view member;
    struct anvil_str_view target;
};

/* Traits for one shape or member by id (`ns#Shape`, `ns#Shape$member`), as a JSON AST `apply` entry gives them. */
struct anvil__model_apply {
    struct anvil_str_view target;
    const struct anvil_json *traits; /* must be an object */
};

struct anvil_model {
    struct anvil_allocator *allocator;
    struct anvil__unresolved *unresolved;
    size_t unresolved_count, unresolved_cap;
    /* The document whose arena holds everything the model points to: for a loaded JSON AST, the AST itself. */
    struct anvil_json_doc *store;
    /* The JSON AST (anvil_model_ast): `store` for a loaded one; an assembled model's is made on first use. */
    _Atomic(struct anvil_json_doc *) ast;
    struct anvil_arena *arena;
    /* Assembled models: what the AST says of shapes with mixins or properties, by index, and traits on members
     * that come from mixins (the AST's `apply` entries). None for a loaded JSON AST. */
    struct anvil__shape_written *written;
    size_t written_count;
    struct anvil__model_apply *applies;
    size_t apply_count;
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

/*
 * Building a model, in steps shared by the JSON AST loader and the assembler (load.c); each step fills `diag`
 * and returns ANVIL_EMODEL (the loader's message), ANVIL_ELIMIT or ANVIL_ENOMEM.
 *
 *   anvil__model_new      an empty model whose values live in `store`'s arena (the model owns `store`, freed
 *                         on failure too)
 *   anvil__model_index    the prelude and the index by id, once `shapes` and `count` are filled
 *   anvil__model_member   a member: its target looked up (undefined: an error, or with `allow_unresolved` a
 *                         NULL target kept for validation)
 *   anvil__model_relations  an operation's input, output and errors, a service's or resource's operations and
 *                         resources, read from `def` (JSON AST form)
 *   anvil__model_link     mixins merged (members and traits), member indexes, then `applies`
 */
struct anvil__model_builder {
    struct anvil_model *model;
    /* smithy.api#Unit: the input and output of operations that model none. */
    const struct anvil_shape *unit;
    struct anvil_diag *diag;
    bool allow_unresolved;
};

int anvil__model_new(struct anvil_allocator *allocator, struct anvil_json_doc *store, struct anvil_model **out,
                     struct anvil_diag *diag);
int anvil__model_index(struct anvil__model_builder *b);
int anvil__model_member(struct anvil__model_builder *b, struct anvil_shape *s, struct anvil_str_view name,
                        struct anvil_str_view target, const struct anvil_json *traits, struct anvil_member *out);
int anvil__model_relations(struct anvil__model_builder *b, struct anvil_shape *s, const struct anvil_json *def);
int anvil__model_link(struct anvil__model_builder *b, const struct anvil__model_apply *applies, size_t count);
/* Out of memory, or ANVIL_ELIMIT when the model's arena reached its cap. */
int anvil__model_nomem(struct anvil__model_builder *b);

/* Loads the JSON AST in `doc`, which the model then owns (freed on failure too). As anvil_model_load(). */
int anvil__model_load_doc(struct anvil_allocator *allocator, struct anvil_json_doc *doc,
                          const struct anvil_model_options *options, struct anvil_model **out, struct anvil_diag *diag);

/* The JSON AST of an assembled model, made from the model (assemble_ast.c): ANVIL_OK or ANVIL_ENOMEM. */
int anvil__model_ast_build(const struct anvil_model *model, struct anvil_json_doc **out);

/* The shape type Smithy spells `name` ("structure", "intEnum", ...); false for anything else. */
bool anvil__shape_type_named(struct anvil_str_view name, enum anvil_shape_type *out);

/* A Smithy identifier: underscores, a letter (or a digit after underscores), then letters, digits, '_'. */
bool anvil__identifier_valid(struct anvil_str_view s);

/* namespace#Name as Smithy's grammar has it: identifiers joined by '.', '#', an identifier (no member). */
bool anvil__shape_id_valid(struct anvil_str_view id);

/* Whether smithy.api#`name` is a prelude shape (any of Smithy's, traits included), and its type. */
bool anvil__prelude_type(struct anvil_str_view name, enum anvil_shape_type *type);

/* Whether smithy.api#`name` is one of the prelude's @private shapes (never written relative from elsewhere). */
bool anvil__prelude_private(struct anvil_str_view name);

/* Creates the prelude shapes (smithy.api#String, Unit, ...) in the model's arena. */
int anvil__model_add_prelude(struct anvil_model *model);

/* The most mixins deep a chain of mixins may go, in the JSON AST loader and the assembler alike. */
#define ANVIL__MAX_MIXIN_DEPTH 256

/* From this many members on, a shape gets a name index (a lookup is then O(1), not a scan). */
#define ANVIL__MEMBER_INDEX_MIN 16

/* Builds `shape`'s member index in `arena` (when it has enough members); ANVIL_ENOMEM. */
int anvil__shape_index_members(struct anvil_shape *shape, struct anvil_arena *arena);

/* anvil_model_find with the id's anvil_json_hash already known. */
const struct anvil_shape *anvil__model_find_hashed(const struct anvil_model *model, const char *id, size_t len,
                                                   uint32_t hash);

/* The member named `name`, or NULL. */
const struct anvil_member *anvil__shape_member_sv(const struct anvil_shape *shape, struct anvil_str_view name);

#endif
