/*
 * Model assembly's shared records and steps (assemble*.c); not public.
 */

#ifndef ANVIL_MODEL_ASSEMBLE_INTERNAL_H
#define ANVIL_MODEL_ASSEMBLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "anvil/buffer.h"
#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/str_view.h"
#include "anvil/validate.h"
#include "model/idl_internal.h"

struct anvil__asm_trait {
    struct anvil_str_view id;
    struct anvil_json value;
    /* Where it was written, for conflict messages: the file (a JSON AST file has a name and no text) and the byte
     * offset in it; NULL when the assembler made it. */
    const struct anvil__idl_file *file;
    size_t at;
    size_t room; /* when `value` is an array the merge grew: the capacity of its items */
};

struct anvil__asm_traits {
    struct anvil__asm_trait *items;
    size_t count, cap;
};

struct anvil__asm_member {
    struct anvil_str_view name;
    struct anvil_str_view target; /* absolute; empty while an elided target is unknown */
    struct anvil__asm_traits traits;
    bool elided;
};

struct anvil__asm_shape {
    struct anvil_str_view id;
    enum anvil_shape_type type;
    int version;
    const struct anvil__idl_file *file; /* its source (a JSON AST file has a name and no text) */
    size_t at;                          /* where its statement starts in an IDL file */
    const struct anvil_json *json;      /* JSON AST definition */
    struct anvil__asm_traits traits;
    struct anvil__asm_member *members;
    size_t member_count, member_cap;
    struct anvil_str_view *mixins;
    size_t mixin_count;
    struct anvil_str_view for_resource;
    /* Service, resource and operation properties, already in JSON AST form. */
    struct anvil_json props;
    bool elision_done, elision_busy;
    size_t visit; /* the last member search (anvil__asm.stamp) that looked at it */
    /* Smithy would not build it: wrong list/map members, or a mixin that is missing or not built. 0 = not
     * known yet, 1 = being decided, 2 = fine, 3 = broken. */
    unsigned char broken;
    bool in_cycle; /* part of a mixin cycle (said once, by s_mixin_cycle) */
    size_t dup_of; /* 1 + the index of the first definition of the same id; 0 when first */
};

/* A syntactic shape id in a node value that named no shape when it was read. */
struct anvil__asm_syntactic {
    struct anvil_str_view text, id;
    struct anvil_str_view root; /* id without its `$member` */
};

/* Traits applied to a member the shape inherits from a mixin: kept as an `apply` entry. */
struct anvil__asm_member_apply {
    struct anvil_str_view id; /* ns#Shape$member */
    struct anvil__asm_traits traits;
};

/* An IDL `apply` statement, read into records when it was parsed and applied once every shape is known. */
struct anvil__asm_apply {
    struct anvil_str_view target;
    struct anvil__asm_traits traits;
};

struct anvil__asm_applies {
    struct anvil__asm_apply *items;
    size_t count, cap;
};

/* A set of ids by content (open addressing). */
struct anvil__asm_ids {
    struct anvil_str_view *slots;
    size_t mask, count;
};

/*
 * A relative name resolved to the prelude because its namespace had not (yet) defined it: `id` is ns#name,
 * `prelude` the view of smithy.api#name handed out for it (this guess's own copy, so that a member target
 * holding it can be told from one written absolute).
 */
struct anvil__asm_guess {
    struct anvil_str_view id, prelude;
    bool elsewhere; /* also handed out for something other than a member target */
};

struct anvil__asm_guesses {
    struct anvil__asm_guess **slots; /* each guess stays where it was made: the resolution cache points to it */
    size_t mask, count;
};

/*
 * Relative names a file has resolved, by a hash of the name (direct mapped: a clash replaces). Most names
 * repeat (`String`, `documentation`, a structure's own shapes), and resolving one looks at the `use`
 * statements, the index and the prelude. An answer can only change when a shape named like a prelude shape
 * is defined (the prelude answer was a guess): `epoch` counts those, and an entry made in another epoch is
 * looked up again.
 */
#define ANVIL__ASM_RESOLVED_SLOTS 1024

struct anvil__asm_resolved {
    const struct anvil__idl_file *file;
    struct anvil_str_view name, id;
    struct anvil__asm_guess *guess; /* when `id` is a guess */
    size_t epoch;
};

/*
 * Every shape id a first pass defined, with its type: a second pass knows what later statements define
 * (see anvil__asm.guesses). Its own memory, from the allocator.
 */
struct anvil__asm_known {
    struct anvil_str_view *ids; /* slots: open addressing */
    unsigned char *types;
    size_t mask;
    char *text; /* the ids' bytes */
};

/* Output strings and keys made once each: ids, trait names and `target` repeat thousands of times. */
struct anvil__asm_interned {
    uint32_t hash;                    /* 0: empty slot */
    struct anvil_json value;          /* the string, for anvil__asm_str */
    const struct anvil_json_key *key; /* or the key, for anvil__asm_put */
};

struct anvil__asm_intern {
    struct anvil__asm_interned *slots;
    size_t mask, count;
};

struct anvil__asm {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;      /* the output's: JSON values and what the model keeps */
    struct anvil_arena *scratch;    /* the records; freed when the assembly ends */
    struct anvil_arena *parse;      /* what IDL files say besides their statements; freed before the model */
    struct anvil_arena *statements; /* the IDL statement being read */
    struct anvil_events *events;
    struct anvil_diag *diag;
    /* Records, from the allocator (they are reallocated as they grow: hold indexes, not pointers, across a
     * new shape). */
    struct anvil__asm_shape *shapes;
    size_t count, cap;
    uint32_t *slots; /* shape index + 1 by id hash, from the allocator */
    size_t mask;
    /* Where an IDL file's `apply` statements go while it is read. */
    struct anvil__asm_applies *applies;
    /*
     * Files are read statement by statement, so a relative id is resolved before later statements are read.
     * It is wrong only when it fell back to the prelude and a later statement defines it in the namespace
     * (`guesses`), or when an annotation trait's type was not known yet and a later statement defines the
     * trait (`untyped`). Member targets that took a wrong guess are mended once every file is read (the AWS
     * models define their own `String` after using it); any other wrong guess runs the assembly again,
     * knowing every id (`known`): Smithy's corpora have a few such files, no AWS model has one.
     */
    struct anvil__asm_guesses guesses;
    struct anvil__asm_ids untyped;
    struct anvil__asm_resolved *resolved; /* ANVIL__ASM_RESOLVED_SLOTS, in the scratch arena */
    size_t epoch;
    bool member_target; /* anvil__asm_resolve is resolving a member's target */
    const struct anvil__asm_known *known;
    struct anvil__asm_trait *metadata; /* key -> value, merged */
    size_t metadata_count, metadata_cap;
    struct anvil__asm_member_apply *member_applies;
    size_t member_apply_count, member_apply_cap;
    struct anvil__asm_syntactic *syntactic;
    size_t syntactic_count, syntactic_cap;
    struct anvil__asm_shape **path; /* the mixin chain anvil__asm_broken is deciding */
    size_t path_len, path_cap;
    size_t stamp; /* counts member searches through mixins */
    struct anvil__asm_intern strings, keys;
    struct anvil_buf id_text; /* anvil__asm_id builds ids here */
    /* Member arrays of finished output objects, by log2 of their capacity, for the next object to reuse
     * (each holds the next free one in its first bytes). */
    void *free_items[48];
    struct anvil_buf member_text; /* anvil__asm_member_id's view */
    int error;
};

/* ---- objects built member by member ---- */

struct anvil__asm_obj {
    struct anvil_json_member *items;
    size_t count, cap;
};

/* ---- assemble.c: allocation, events, the shape index, trait lists, id resolution, output objects ---- */

/* A new record for a shape read from `file` (at byte `at` of an IDL file), in the index (a second definition
 * of an id gets dup_of). NULL when out of memory. */
struct anvil__asm_shape *anvil__asm_register(struct anvil__asm *a, struct anvil_str_view id, enum anvil_shape_type type,
                                             const struct anvil__idl_file *file, int version, size_t at);
/* Whether `id` is in the set; adds it when `add`. */
bool anvil__asm_ids_has(struct anvil__asm *a, struct anvil__asm_ids *set, struct anvil_str_view id, bool add);

void anvil__asm_add_trait(struct anvil__asm *a, struct anvil_str_view target, int version,
                          struct anvil__asm_traits *traits, const struct anvil__asm_trait *add);
void *anvil__asm_alloc(struct anvil__asm *a, size_t size);
struct anvil_str_view anvil__asm_id(struct anvil__asm *a, struct anvil_str_view x, const char *sep,
                                    struct anvil_str_view y);
struct anvil_str_view anvil__asm_member_id(struct anvil__asm *a, struct anvil_str_view shape,
                                           struct anvil_str_view name);
struct anvil_str_view anvil__asm_concat(struct anvil__asm *a, struct anvil_str_view x, const char *sep,
                                        struct anvil_str_view y);
bool anvil__asm_defined(struct anvil__asm *a, struct anvil_str_view id);
void anvil__asm_event(struct anvil__asm *a, enum anvil_severity severity, struct anvil_str_view shape,
                      const char *event_id, const char *fmt, ...) ANVIL_PRINTF(5, 6);
struct anvil__asm_shape *anvil__asm_find(struct anvil__asm *a, struct anvil_str_view id);
bool anvil__asm_grow(struct anvil__asm *a, void **items, size_t count, size_t *cap, size_t size);
struct anvil_json anvil__asm_obj_finish(struct anvil__asm *a, struct anvil__asm_obj *obj);
/* The key record for `key` in the output arena, made once (NULL when out of memory). */
const struct anvil_json_key *anvil__asm_key(struct anvil__asm *a, struct anvil_str_view key);
/* `s` as a view the model may keep: interned in the output arena. */
struct anvil_str_view anvil__asm_keep(struct anvil__asm *a, struct anvil_str_view s);
void anvil__asm_put(struct anvil__asm *a, struct anvil__asm_obj *obj, struct anvil_str_view key,
                    const struct anvil_json *value);
void anvil__asm_put_cstr(struct anvil__asm *a, struct anvil__asm_obj *obj, const char *key,
                         const struct anvil_json *value);
struct anvil_str_view anvil__asm_resolve(struct anvil__asm *a, const struct anvil__idl_file *file,
                                         struct anvil_str_view text, bool *found);
struct anvil_json anvil__asm_str(struct anvil__asm *a, struct anvil_str_view s);
struct anvil_json anvil__asm_target_ref(struct anvil__asm *a, struct anvil_str_view id);
/* A trait list as a JSON AST object (without @box, unless `with_box`: metadata keeps every key). */
struct anvil_json anvil__asm_traits_json(struct anvil__asm *a, const struct anvil__asm_traits *traits, bool with_box);
void anvil__asm_where(const struct anvil__idl_file *file, size_t at, char *out, size_t cap);
void anvil__asm_traits_reserve(struct anvil__asm *a, struct anvil__asm_traits *traits, size_t count);
void anvil__asm_trait_add(struct anvil__asm *a, struct anvil_str_view target, struct anvil__asm_traits *traits,
                          const struct anvil__asm_trait *add);
struct anvil__asm_trait *anvil__asm_trait_find(struct anvil__asm_traits *traits, struct anvil_str_view id);
bool anvil__asm_type_of(struct anvil__asm *a, struct anvil_str_view id, enum anvil_shape_type *type);

/* ---- assemble_idl.c: IDL -> records ---- */

/* The sink the IDL parser hands statements to (ctx: the assembler): records made at once. */
extern const struct anvil__idl_sink anvil__asm_idl_sink;
int anvil__asm_node_json(struct anvil__asm *a, const struct anvil__idl_file *file, const struct anvil__idl_node *node,
                         struct anvil_str_view context, struct anvil_json *out);
int anvil__asm_string(struct anvil__asm *a, struct anvil_str_view s, struct anvil_json *out);

/* ---- assemble_json.c: JSON AST -> records ---- */

extern const char *const anvil__asm_apply_props[];
void anvil__asm_json_applies(struct anvil__asm *a, const struct anvil_json *root, const struct anvil__idl_file *file);
const char *anvil__asm_json_kind(const struct anvil_json *v);
void anvil__asm_json_props(struct anvil__asm *a, struct anvil_str_view shape, const struct anvil_json *obj,
                           const char *const *allowed);
void anvil__asm_json_shape(struct anvil__asm *a, struct anvil__asm_shape *s);
extern const char *const anvil__asm_top_props[];

/* ---- assemble_mixins.c: mixins and elision ---- */

bool anvil__asm_any_member(struct anvil__asm *a, struct anvil__asm_shape *s);
bool anvil__asm_broken(struct anvil__asm *a, struct anvil__asm_shape *s);
void anvil__asm_elide(struct anvil__asm *a, struct anvil__asm_shape *s, size_t depth);
void anvil__asm_mixin_members(struct anvil__asm *a, struct anvil__asm_shape *s);
void anvil__asm_mixin_rules(struct anvil__asm *a, struct anvil__asm_shape *s);
void anvil__asm_required_members(struct anvil__asm *a, struct anvil__asm_shape *s);

/* ---- assemble_model.c: records -> the model ---- */

/* The model from the records, in `store` (whose arena is the output's; the model owns it, freed on failure too).
 * ANVIL_OK, or the loader's errors (diag set). */
int anvil__asm_model(struct anvil__asm *a, struct anvil_json_doc *store, const struct anvil_model_options *options,
                     struct anvil_model **out);

/* ---- assemble_rules.c: model-wide rules ---- */

size_t anvil__asm_applied_traits(struct anvil__asm *a, struct anvil_str_view **out);
void anvil__asm_apply(struct anvil__asm *a, struct anvil_str_view target, const struct anvil__asm_traits *traits);
void anvil__asm_duplicates(struct anvil__asm *a);
void anvil__asm_enum_values(struct anvil__asm *a, struct anvil__asm_shape *s);
struct anvil__asm_member *anvil__asm_local_member(struct anvil__asm_shape *s, struct anvil_str_view name);
void anvil__asm_apply_to_member(struct anvil__asm *a, struct anvil_str_view id, const struct anvil__asm_traits *traits);
void anvil__asm_syntactic_check(struct anvil__asm *a, const struct anvil_str_view *traits, size_t trait_count);
void anvil__asm_trait_shapes_check(struct anvil__asm *a, const struct anvil_str_view *ids, size_t count);
void anvil__asm_upgrade(struct anvil__asm *a);
void anvil__asm_use_check(struct anvil__asm *a, const struct anvil__idl_file *f, const struct anvil_str_view *traits,
                          size_t trait_count);

#endif
