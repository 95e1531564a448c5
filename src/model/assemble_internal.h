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

/* The most sources one assembly reads (a trait keeps its source's number in 16 bits). */
#define ANVIL__ASM_MAX_SOURCES 65535

struct anvil__asm_trait {
    struct anvil_str_view id;
    struct anvil_json value;
    /* Where it was written, for conflict messages: the byte offset in the source (sources are under 4 GiB) and
     * the source's number (anvil__idl_file.number; 0 when the assembler made it). */
    uint32_t at;
    uint16_t file;
    /* `value` is an array a merge grew: its capacity is in the item before the first (an integer). */
    uint16_t grown;
};

/*
 * A trait list while the rules run, its items in the lists arena. Then anvil__asm_traits_done() makes each
 * the JSON object the model keeps (`json`), and the lists arena goes before the model is built.
 */
struct anvil__asm_traits {
    union {
        struct {
            struct anvil__asm_trait *items;
            uint32_t count, cap;
        };
        struct anvil_json json;
    };
};

struct anvil__asm_member {
    struct anvil_str_view name;
    struct anvil_str_view target; /* absolute; empty while an elided target is unknown */
    struct anvil__asm_traits traits;
    bool elided;
};

struct anvil__asm_shape {
    struct anvil_str_view id; /* lives as long as the output (a key record's bytes, or a JSON AST's key) */
    struct anvil_str_view for_resource;
    /* Service, resource and operation properties, already in JSON AST form. */
    struct anvil_json props;
    struct anvil__asm_traits traits;
    struct anvil__asm_member *members;
    struct anvil_str_view *mixins;
    const struct anvil__idl_file *file; /* its source (a JSON AST file has a name and no text) */
    const struct anvil_json *json;      /* JSON AST definition */
    uint32_t hash;                      /* anvil_json_hash of the id */
    uint32_t at;                        /* where its statement starts in an IDL file */
    uint32_t member_count, member_cap, mixin_count;
    uint32_t visit;  /* the last member search (anvil__asm_stamp) that looked at it */
    uint32_t dup_of; /* 1 + the index of the first definition of the same id; 0 when first */
    enum anvil_shape_type type;
    unsigned char version;
    /* Smithy would not build it: wrong list/map members, or a mixin that is missing or not built. 0 = not
     * known yet, 1 = being decided, 2 = fine, 3 = broken, 4 = broken because mixins nest too deep below it. */
    unsigned char broken;
    bool elision_done, elision_busy;
    bool in_cycle; /* part of a mixin cycle (said once, by s_mixin_cycle) */
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
#define ANVIL__ASM_RESOLVED_SLOTS 1024 /* at most: a small input gets fewer (anvil__asm.cache_slots) */

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

/*
 * Output strings made once each, as JSON key records (bytes, length and hash, in the output arena): ids,
 * trait names, member names and `target` repeat thousands of times. A JSON string value of one shares its
 * bytes. The table is the allocator's (open addressing, half full at most).
 */
struct anvil__asm_intern {
    const struct anvil_json_key **slots;
    size_t mask, count;
};

/* Where an item of a long array (a trait list, a shape's members) is, by the array and the item's name, or the
 * mark that an array is indexed (at UINT32_MAX, for `count` items). */
struct anvil__asm_name_slot {
    const void *array; /* NULL: an empty slot */
    uint32_t at, count, hash;
};

struct anvil__asm_names {
    struct anvil__asm_name_slot *slots; /* the allocator's */
    size_t mask, count;
};

/* The key record a stable view was last interned as, by the view's address (see anvil__asm_atom). */
#define ANVIL__ASM_ATOM_SLOTS 512 /* at most, as ANVIL__ASM_RESOLVED_SLOTS */

struct anvil__asm_atom {
    const char *ptr;
    size_t len;
    const struct anvil_json_key *key;
};

struct anvil__asm {
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;      /* the output's: JSON values and what the model keeps */
    struct anvil_arena *scratch;    /* the records; freed when the assembly ends */
    struct anvil_arena *parse;      /* what IDL files say besides their statements; freed before the model */
    struct anvil_arena *statements; /* the IDL statement being read */
    struct anvil_arena *lists;      /* trait lists' items: freed once they are made JSON objects */
    struct anvil_events *events;
    struct anvil_diag *diag;
    /* Records, from the allocator (they are reallocated as they grow: hold indexes, not pointers, across a
     * new shape). */
    struct anvil__asm_shape *shapes;
    size_t count, cap;
    uint32_t *slots;   /* shape index + 1 by id hash, from the allocator */
    size_t max_shapes; /* anvil_model_options.max_shapes: a file stops at the first shape past it */
    bool over_limit;
    size_t mask;
    /* The sources, by number - 1 (anvil__asm_trait.file). */
    const struct anvil__idl_file **files;
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
    struct anvil__asm_names names; /* trait lists and member arrays of 16 or more, by name */
    struct anvil__asm_guesses guesses;
    struct anvil__asm_ids untyped;
    struct anvil__asm_resolved *resolved; /* `cache_slots`, the allocator's, while files are read */
    size_t planned;                       /* the next block of the model's arena (assemble_model.c) */
    size_t cache_slots; /* a power of two: a slot for every 512 bytes of input, 64 to ANVIL__ASM_RESOLVED_SLOTS */
    size_t epoch;
    bool member_target; /* anvil__asm_resolve is resolving a member's target */
    const struct anvil__asm_known *known;
    struct anvil__asm_trait *metadata; /* key -> value, merged */
    size_t metadata_count, metadata_cap;
    uint32_t *metadata_slots; /* metadata index + 1 by the key's hash */
    size_t metadata_mask;
    struct anvil__asm_member_apply *member_applies;
    size_t member_apply_count, member_apply_cap;
    struct anvil__asm_syntactic *syntactic;
    size_t syntactic_count, syntactic_cap;
    struct anvil__asm_shape **path; /* the mixin chain anvil__asm_broken is deciding */
    size_t path_len, path_cap;
    uint32_t stamp; /* counts member searches through mixins (anvil__asm_stamp) */
    struct anvil__asm_intern keys;
    struct anvil__asm_atom *atoms; /* half `cache_slots`, in the scratch arena; only while the model is built */
    struct anvil_buf id_text;      /* anvil__asm_id builds ids here */
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
struct anvil__asm_shape *anvil__asm_register(struct anvil__asm *a, struct anvil_str_view id, uint32_t hash,
                                             enum anvil_shape_type type, const struct anvil__idl_file *file,
                                             int version, size_t at);
/* Adds `id` (a view that lasts as long as the assembly) to the set, once. */
void anvil__asm_ids_add(struct anvil__asm *a, struct anvil__asm_ids *set, struct anvil_str_view id);

void anvil__asm_add_trait(struct anvil__asm *a, struct anvil_str_view target, int version,
                          struct anvil__asm_traits *traits, const struct anvil__asm_trait *add);
/* Whether anvil__asm_add_trait could raise an event for `add` (a version rule, a second `add->id`). */
bool anvil__asm_trait_may_speak(struct anvil__asm *a, struct anvil__asm_traits *traits, int version,
                                const struct anvil__asm_trait *add);
void *anvil__asm_alloc(struct anvil__asm *a, size_t size);
/* Room for one more of `count` items of `size` bytes (32-bit count and capacity) in `arena`: a copy with `grown`
 * items when full. False when out of memory. */
bool anvil__asm_grow32(struct anvil__asm *a, struct anvil_arena *arena, void **items, uint32_t count, uint32_t *cap,
                       size_t size, size_t grown);
/* In the lists arena (trait lists), which anvil__asm_traits_done() frees. */
void *anvil__asm_list_alloc(struct anvil__asm *a, size_t size);
/* Every trait list (shapes, members, traits on inherited members) made the JSON object the model keeps, then the
 * lists arena freed. */
void anvil__asm_traits_done(struct anvil__asm *a);
/* A new member search: shapes whose `visit` is not it have not been looked at. */
uint32_t anvil__asm_stamp(struct anvil__asm *a);
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
struct anvil__asm_shape *anvil__asm_find_hashed(struct anvil__asm *a, struct anvil_str_view id, uint32_t hash);
bool anvil__asm_grow(struct anvil__asm *a, void **items, size_t count, size_t *cap, size_t size);
struct anvil_json anvil__asm_obj_finish(struct anvil__asm *a, struct anvil__asm_obj *obj);
/* The key record for `key` in the output arena, made once (NULL when out of memory). */
const struct anvil_json_key *anvil__asm_key(struct anvil__asm *a, struct anvil_str_view key);
/* The same with its hash already known. */
const struct anvil_json_key *anvil__asm_key_hashed(struct anvil__asm *a, struct anvil_str_view key, uint32_t hash);
/*
 * anvil__asm_key for a view that stays put and unchanged until the assembly ends (no view of a reused
 * buffer): looked up by its address first, so a view met again costs no hash. For building the model.
 */
const struct anvil_json_key *anvil__asm_atom(struct anvil__asm *a, struct anvil_str_view s);
/* `s` as a view the model may keep: interned in the output arena. */
struct anvil_str_view anvil__asm_keep(struct anvil__asm *a, struct anvil_str_view s);
/* anvil__asm_put with a key record already made. */
void anvil__asm_put_key(struct anvil__asm *a, struct anvil__asm_obj *obj, const struct anvil_json_key *key,
                        const struct anvil_json *value);
/* `x sep y` interned, as its key record (NULL when out of memory). */
const struct anvil_json_key *anvil__asm_id_key(struct anvil__asm *a, struct anvil_str_view x, const char *sep,
                                               struct anvil_str_view y);
void anvil__asm_put(struct anvil__asm *a, struct anvil__asm_obj *obj, struct anvil_str_view key,
                    const struct anvil_json *value);
void anvil__asm_put_cstr(struct anvil__asm *a, struct anvil__asm_obj *obj, const char *key,
                         const struct anvil_json *value);
struct anvil_str_view anvil__asm_resolve(struct anvil__asm *a, const struct anvil__idl_file *file,
                                         struct anvil_str_view text, bool *found);
/* anvil__asm_resolve for one identifier (no namespace, no member), through the file's resolution cache. */
struct anvil_str_view anvil__asm_resolve_name(struct anvil__asm *a, const struct anvil__idl_file *file,
                                              struct anvil_str_view name);
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
/* The member `name` of `s` itself (not its mixins'), or NULL. */
struct anvil__asm_member *anvil__asm_local_member(struct anvil__asm *a, struct anvil__asm_shape *s,
                                                  struct anvil_str_view name);
void anvil__asm_apply_to_member(struct anvil__asm *a, struct anvil_str_view id, const struct anvil__asm_traits *traits);
void anvil__asm_syntactic_check(struct anvil__asm *a, const struct anvil_str_view *traits, size_t trait_count);
void anvil__asm_trait_shapes_check(struct anvil__asm *a, const struct anvil_str_view *ids, size_t count);
void anvil__asm_upgrade(struct anvil__asm *a);
void anvil__asm_use_check(struct anvil__asm *a, const struct anvil__idl_file *f, const struct anvil_str_view *traits,
                          size_t trait_count);

#endif
