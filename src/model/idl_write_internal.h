#ifndef ANVIL_MODEL_IDL_WRITE_INTERNAL_H
#define ANVIL_MODEL_IDL_WRITE_INTERNAL_H

/*
 * The IDL writer's parts (internal to src/model):
 *
 *   idl_write_model.c  the model as the writer sees it: shape ids and their
 *                      order, shapes, `apply` entries, mixins and the traits
 *                      they pass on, shape ids as written (`use`), node values
 *   idl_write.c        traits, shape statements and the file (idl_write.h)
 *   idl_text.c         the text: indentation, escapes, numbers
 *
 * Every function works on one writer and records the first failure in it
 * (anvil__iw_fail); after that they do nothing and return "nothing found".
 */

#include <stdbool.h>
#include <stddef.h>

#include "anvil/arena.h"
#include "anvil/buffer.h"
#include "anvil/common.h"
#include "anvil/diag.h"
#include "anvil/json.h"
#include "anvil/status.h"
#include "core/core_internal.h"
#include "core/diag_origin.h"
#include "model/idl_text.h"

/* Shapes a walk through mixins may visit (cycles and diamonds stay bounded). */
#define ANVIL__IW_MIXIN_BUDGET 256u
#define ANVIL__IW_MIXIN_DEPTH 64u

/* At most 100 bytes of a view, for messages. */
#define ANVIL__IW_SHOW(sv) (int)((sv).len < 100 ? (sv).len : 100), (sv).ptr

enum anvil__iw_kind {
    ANVIL__IW_BLOB,
    ANVIL__IW_BOOLEAN,
    ANVIL__IW_STRING,
    ANVIL__IW_BYTE,
    ANVIL__IW_SHORT,
    ANVIL__IW_INTEGER,
    ANVIL__IW_LONG,
    ANVIL__IW_FLOAT,
    ANVIL__IW_DOUBLE,
    ANVIL__IW_BIG_DECIMAL,
    ANVIL__IW_BIG_INTEGER,
    ANVIL__IW_TIMESTAMP,
    ANVIL__IW_DOCUMENT,
    ANVIL__IW_LIST,
    ANVIL__IW_SET,
    ANVIL__IW_MAP,
    ANVIL__IW_STRUCTURE,
    ANVIL__IW_UNION,
    ANVIL__IW_ENUM,
    ANVIL__IW_INT_ENUM,
    ANVIL__IW_SERVICE,
    ANVIL__IW_RESOURCE,
    ANVIL__IW_OPERATION,
    ANVIL__IW_APPLY,
    ANVIL__IW_NONE
};

/* A shape id taken apart: `ns#name` or `ns#name$member`; `root` is `ns#name`. */
struct anvil__iw_id {
    struct anvil_str_view ns, name, member, root;
    bool has_member;
};

/* An `apply` entry of the AST. */
struct anvil__iw_apply {
    struct anvil_str_view key, root, member;
    bool has_member;
    const struct anvil_json *traits;
};

/* A shape of the namespace being written. */
struct anvil__iw_shape {
    struct anvil_str_view id, name;
    const struct anvil_json *def;
    enum anvil__iw_kind kind;
    int group;
    bool inlined; /* written inside its operation (`input := ...`) */
};

/* One trait of a trait block; `order` breaks ties so the first added wins. */
struct anvil__iw_trait {
    struct anvil_str_view id;
    const struct anvil_json *value;
    size_t order;
};

/* Open addressing over views; keyed by the whole view, or by the name after '#'. */
struct anvil__iw_set {
    struct anvil_str_view *slots;
    size_t mask;
    size_t count;
    bool by_name;
};

/* The type a node value is written against (Java's `Shape shape` argument). */
struct anvil__iw_ctx {
    struct anvil_str_view id;
    const struct anvil_json *def;
    bool idref;
};

struct anvil__iw_writer {
    const struct anvil_json *shapes;
    struct anvil_str_view ns;
    struct anvil_diag *diag;
    struct anvil_allocator *allocator;
    struct anvil_arena *arena;
    int rc;                    /* sticky: the first error */
    struct anvil__idl_out out; /* the text being written (idl_text.h) */
    /* The model. */
    struct anvil__iw_shape *own; /* the namespace's shapes, by id */
    size_t own_count;
    struct anvil__iw_apply *applies; /* sorted by root, then member */
    size_t apply_count;
    struct anvil__iw_set imports; /* `use` ids, at most one per name */
    struct anvil__iw_set written; /* local ids written relative, by name: no `use` may take the name */
    struct anvil__iw_set known;   /* trait ids used anywhere (built on first need) */
    bool known_built;
    struct anvil_json ext;
    bool ext_parsed;
    struct anvil__iw_trait *traits; /* the trait block being written */
    size_t trait_count, trait_cap;
    struct anvil_buf scratch; /* `ns#Name` keys for lookups */
};

/* The type names of the JSON AST, by kind ("apply" for ANVIL__IW_APPLY). */
extern const char *const anvil__iw_kind_names[ANVIL__IW_NONE];

/* Whether nothing has failed yet: neither the writer nor its text. */
static inline bool anvil__iw_ok(const struct anvil__iw_writer *w) {
    return w->rc == ANVIL_OK && w->out.rc == ANVIL_OK;
}

static inline bool anvil__iw_is(struct anvil_str_view id, const char *cstr) {
    return anvil_sv_eq_cstr(id, cstr);
}

/* Records the first failure (code and message) in `w`; later ones are dropped. */
void(anvil__iw_fail)(ANVIL__ORIGIN_DECL struct anvil__iw_writer *w, int code, const char *fmt, ...)
    ANVIL_PRINTF(3 + ANVIL__ORIGIN_ARGC, 4 + ANVIL__ORIGIN_ARGC);
#define anvil__iw_fail(...) (anvil__iw_fail)(ANVIL__ORIGIN_HERE __VA_ARGS__)

/* anvil__iw_fail with the usual message for a status (ENOMEM, ELIMIT, ...). */
void anvil__iw_fail_status(struct anvil__iw_writer *w, int rc);

/* Makes a failure of the text (idl_text.h) the writer's, with its message. */
void anvil__iw_take_text_failure(struct anvil__iw_writer *w);

/* `size` bytes of the writer's arena (freed with the writer), or NULL after recording why. */
void *anvil__iw_alloc(struct anvil__iw_writer *w, size_t size);

/* Takes a shape id apart; whether it is a valid absolute shape id (with or without a member). */
bool anvil__iw_parse_id(struct anvil_str_view id, struct anvil__iw_id *out);

/* Smithy's ShapeId order: ignoring ASCII case, then by bytes. */
int anvil__iw_id_cmp(struct anvil_str_view a, struct anvil_str_view b);

/* qsort comparators: shape id views (Smithy's order); object members by key
 * (Java's String order); `apply` entries by root, then member. */
int anvil__iw_id_qcmp(const void *a, const void *b);
int anvil__iw_member_qcmp(const void *a, const void *b);
int anvil__iw_apply_qcmp(const void *a, const void *b);

/* The kind named by a shape definition's `type`; ANVIL__IW_NONE when unknown or missing. */
enum anvil__iw_kind anvil__iw_kind_of(const struct anvil_json *def);

/* The view stored under `v`'s key, or NULL. */
const struct anvil_str_view *anvil__iw_set_find(const struct anvil__iw_set *set, struct anvil_str_view v);

/* Adds `v` unless an equal key is there. */
void anvil__iw_set_add(struct anvil__iw_writer *w, struct anvil__iw_set *set, struct anvil_str_view v);

/* Whether `v` nests at most ANVIL_JSON_MAX_DEPTH levels; else fails with ELIMIT naming `where`. */
bool anvil__iw_check_depth(struct anvil__iw_writer *w, const struct anvil_json *v, struct anvil_str_view where);

/* Whether a definition is an `apply` entry. */
bool anvil__iw_is_apply(const struct anvil_json *def);

/* A shape of the AST (not an `apply`), or NULL. */
const struct anvil_json *anvil__iw_ast_shape(const struct anvil__iw_writer *w, struct anvil_str_view id);

/* A shape of the AST, else one of the trait shapes the writer knows from outside it (prelude, AWS). */
const struct anvil_json *anvil__iw_find(struct anvil__iw_writer *w, struct anvil_str_view id);

/* The traits `apply`-ed to `root` (no member) or to `root$member`, or NULL. */
const struct anvil_json *anvil__iw_applied(const struct anvil__iw_writer *w, struct anvil_str_view root,
                                           bool has_member, struct anvil_str_view member);

/* The `apply` entries naming members of `root`: [*lo, *hi). */
void anvil__iw_apply_range(const struct anvil__iw_writer *w, struct anvil_str_view root, size_t *lo, size_t *hi);

/* A definition's `mixins` array, or NULL; and the id of its i-th entry (empty when not a target). */
const struct anvil_json *anvil__iw_mixins_of(const struct anvil_json *def);
struct anvil_str_view anvil__iw_mixin_at(const struct anvil_json *mixins, size_t i);

/* Whether mixin `mixin_def` keeps `trait` to itself (@mixin(localTraits: [...])). */
bool anvil__iw_local_trait(const struct anvil_json *mixin_def, const char *trait, size_t trait_len);

/* Whether shape `id` has `trait`: its own, applied, or passed on by its mixins. */
bool anvil__iw_has_trait(struct anvil__iw_writer *w, struct anvil_str_view id, const struct anvil_json *def,
                         const char *trait);

/* Member `name` defined by `def` itself (lists: member; maps: key, value; others: members). */
const struct anvil_json *anvil__iw_own_member(const struct anvil_json *def, struct anvil_str_view name);

/* Writes shape id `id` as the file should spell it: relative, imported (adding a `use`) or absolute. */
void anvil__iw_id(struct anvil__iw_writer *w, struct anvil_str_view id);

/* The context to write a value of shape `id` against (the trait's shape for a trait value). */
void anvil__iw_ctx_shape(struct anvil__iw_writer *w, struct anvil_str_view id, struct anvil__iw_ctx *out);

/* A node value, multi-line for non-empty arrays and objects; strings naming shapes as ids where
 * `ctx` says @idRef. `ctx` may be NULL. The caller has checked the nesting depth. */
void anvil__iw_node(struct anvil__iw_writer *w, const struct anvil_json *v, const struct anvil__iw_ctx *ctx,
                    size_t depth);

/* Key-value pairs, one per line (Java's serializeKeyValuePairs). */
void anvil__iw_pairs(struct anvil__iw_writer *w, const struct anvil_json *obj, const struct anvil__iw_ctx *ctx,
                     size_t depth);

#endif
