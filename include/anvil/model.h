#ifndef ANVIL_MODEL_H
#define ANVIL_MODEL_H

/**
 * Smithy models: load the JSON AST that `smithy build` produces (IDL
 * versions "1.0" and "2.0") into an index of shapes by absolute id, with
 * member targets resolved (prelude shapes such as `smithy.api#String`
 * included), `apply` statements and mixins merged, and traits kept as JSON
 * values. The model owns one arena: one anvil_model_destroy() frees every
 * shape, member and trait. A loaded model is immutable; any number of
 * threads may read it.
 */

#include "anvil/json.h"

ANVIL_EXTERN_C_BEGIN

enum anvil_shape_type {
    ANVIL_SHAPE_BLOB,
    ANVIL_SHAPE_BOOLEAN,
    ANVIL_SHAPE_STRING,
    ANVIL_SHAPE_BYTE,
    ANVIL_SHAPE_SHORT,
    ANVIL_SHAPE_INTEGER,
    ANVIL_SHAPE_LONG,
    ANVIL_SHAPE_FLOAT,
    ANVIL_SHAPE_DOUBLE,
    ANVIL_SHAPE_BIG_INTEGER,
    ANVIL_SHAPE_BIG_DECIMAL,
    ANVIL_SHAPE_TIMESTAMP,
    ANVIL_SHAPE_DOCUMENT,
    ANVIL_SHAPE_ENUM,
    ANVIL_SHAPE_INT_ENUM,
    ANVIL_SHAPE_LIST,
    ANVIL_SHAPE_SET,
    ANVIL_SHAPE_MAP,
    ANVIL_SHAPE_STRUCTURE,
    ANVIL_SHAPE_UNION,
    ANVIL_SHAPE_SERVICE,
    ANVIL_SHAPE_RESOURCE,
    ANVIL_SHAPE_OPERATION
};

struct anvil_model;
struct anvil_shape;

/** A member of a structure, union, enum, list (`member`) or map (`key`, `value`). */
struct anvil_member {
    struct anvil_str_view name;
    /** NULL only in models loaded with allow_unresolved, when the target is not defined. */
    const struct anvil_shape *target;
    /** The member's traits: an object of absolute trait id -> value (empty when none). */
    struct anvil_json traits;
};

#define ANVIL_MODEL_DEFAULT_MAX_SHAPES 1000000

/** Load options; zero means the default. */
struct anvil_model_options {
    /** Most shapes a model may define. Default 1,000,000. */
    size_t max_shapes;
    /**
     * Load even when members target shapes the model does not define: such
     * members get a NULL target and anvil_model_validate() reports each as a
     * `Target` ERROR event, as Smithy does. For validating; leave false when
     * the model is to be used.
     */
    bool allow_unresolved;
};

/**
 * Loads a Smithy JSON AST from `len` bytes of `text`. On success stores the
 * model in `*out` (free with anvil_model_destroy()). Errors: ANVIL_ESYNTAX
 * (not JSON; diag has line and column), ANVIL_EMODEL (not a valid model: a
 * shape of unknown type, a member targeting an undefined shape, a mixin
 * cycle; diag names the shape), ANVIL_ELIMIT, ANVIL_ENOMEM, ANVIL_EINVAL.
 * Thread-safe.
 */
ANVIL_API int anvil_model_load(struct anvil_allocator *allocator, const char *text, size_t len,
                               const struct anvil_model_options *options, struct anvil_model **out,
                               struct anvil_diag *diag);

/** How a source is written. */
enum anvil_model_format {
    /**
     * By the name's suffix (`.json`, `.smithy`), else JSON when the text
     * starts with `{`, else IDL. JSON is a botocore service model when it
     * is an object with no `smithy` key whose `metadata` says `protocol` or
     * `protocols` (or that has both `operations` and `shapes`), else a
     * Smithy JSON AST.
     */
    ANVIL_MODEL_FORMAT_AUTO,
    /** A Smithy JSON AST. */
    ANVIL_MODEL_FORMAT_JSON,
    /** Smithy IDL (1.0, or 2.0 when it says `$version: "2"`). */
    ANVIL_MODEL_FORMAT_IDL,
    /**
     * A botocore service model (`service-2.json`, uncompressed): it becomes
     * the model a Smithy JSON AST of the service would give, in namespace
     * `com.amazonaws.<sdk id>` (docs/model.md has the mapping). Problems in
     * it are ERROR events with event id `BotocoreModel` naming the shape
     * and member; a document with no `metadata`, `operations` and `shapes`
     * objects is ANVIL_EMODEL.
     */
    ANVIL_MODEL_FORMAT_BOTOCORE
};

/** One file of a model. The text need not be NUL-terminated. */
struct anvil_model_source {
    /** Shown in messages (a file name); NULL = "<input>". */
    const char *name;
    const char *text;
    size_t len;
    enum anvil_model_format format;
};

struct anvil_events;

/**
 * Assembles one model from `count` sources, IDL and JSON AST mixed, as
 * Smithy does: relative shape ids resolve once every file is read (`use`,
 * then the namespace across all files, then the prelude), metadata and
 * duplicate definitions merge, `apply` reaches across files, the same trait
 * applied twice merges (arrays concatenate, equal values are kept once),
 * elided members (`$id`) take their targets, and IDL 1.0 shapes are upgraded
 * to 2.0 semantics (the defaults 1.0 implied).
 *
 * Returns ANVIL_OK with the model in `*out`; ANVIL_ESYNTAX for a syntax
 * error (diag: "FILE: Syntax error at line L, column C: ..." in Smithy's
 * words, with line and column set); ANVIL_EMODEL when a file is not a model
 * or the assembly has ERROR events (diag: the first); ANVIL_ELIMIT,
 * ANVIL_ENOMEM, ANVIL_EINVAL. When `events` is not NULL it receives the
 * loader's events (warnings, notes, and the errors), as anvil_model_validate()
 * reports them, on success and on ANVIL_EMODEL; free with
 * anvil_events_destroy(). The sources may be freed when this returns.
 * Thread-safe.
 */
ANVIL_API int anvil_model_assemble(struct anvil_allocator *allocator, const struct anvil_model_source *sources,
                                   size_t count, const struct anvil_model_options *options, struct anvil_model **out,
                                   struct anvil_events **events, struct anvil_diag *diag);

/**
 * The model in the file at `path` (a Smithy JSON AST, Smithy IDL or a
 * botocore service-2.json, told apart as ANVIL_MODEL_FORMAT_AUTO does;
 * uncompressed), assembled as anvil_model_assemble() assembles one source.
 * ANVIL_EIO naming the file when it cannot be read or is not a regular
 * file (a FIFO or a device is refused, never waited on); ANVIL_ELIMIT past
 * 256 MiB; otherwise what anvil_model_assemble() returns. Thread-safe.
 */
ANVIL_API int anvil_model_load_file(struct anvil_allocator *allocator, const char *path,
                                    const struct anvil_model_options *options, struct anvil_model **out,
                                    struct anvil_diag *diag);

/**
 * The JSON AST the model was loaded from: for an assembled model, every file
 * merged with ids absolute and `apply` folded in (what `smithy ast` prints),
 * made from the model the first time it is asked for (loading does not need
 * it). Lives as long as the model. NULL when `model` is NULL, or when memory
 * runs out making it (a later call tries again). Thread-safe: threads asking
 * at once get the same AST.
 */
ANVIL_API const struct anvil_json *anvil_model_ast(const struct anvil_model *model);

/** Options for anvil_model_write_idl(); zero means the default for every field. */
struct anvil_idl_write_options {
    /**
     * Also write the model's metadata (`metadata key = value` lines, keys
     * sorted) after `$version`. Smithy keeps metadata in a file of its own:
     * ask for it with an empty namespace to get that file.
     */
    bool with_metadata;
};

/**
 * The namespaces of the model's shapes, sorted by bytes, without the prelude
 * (`smithy.api`): what anvil_model_write_idl() can write. Stores at most
 * `cap` views (valid as long as the model) in `out` and returns how many
 * there are, which may be more (call with cap 0 to count). Thread-safe.
 */
ANVIL_API size_t anvil_model_namespaces(const struct anvil_model *model, struct anvil_str_view *out, size_t cap);

/**
 * Appends to `out` one Smithy IDL 2.0 file holding every shape of namespace
 * `ns`, in the layout Smithy's own IDL serializer gives it (a model Smithy
 * wrote comes back byte for byte): `$version`, the namespace, sorted `use`
 * statements, then the shapes grouped and sorted as Smithy does, traits with
 * documentation as `///` comments, inline operation input and output where
 * Smithy would write them inline, and `apply` for traits on mixed-in
 * members. Reading the files for all namespaces back (with the metadata)
 * gives the same model. An empty `ns` writes no shapes: `$version` and, when
 * asked, the metadata. `options` may be NULL.
 *
 * Returns ANVIL_OK; ANVIL_EINVAL when `ns` is not a namespace; ANVIL_EMODEL
 * when the model holds something the IDL cannot say (diag names it);
 * ANVIL_ELIMIT when `out` reaches its cap; ANVIL_ENOMEM. On error `out` is
 * as it was. Thread-safe.
 */
ANVIL_API int anvil_model_write_idl(const struct anvil_model *model, struct anvil_str_view ns,
                                    const struct anvil_idl_write_options *options, struct anvil_buf *out,
                                    struct anvil_diag *diag);

/** Frees the model, its shapes and traits. NULL is ignored. */
ANVIL_API void anvil_model_destroy(struct anvil_model *model);

/** The IDL version the file declares ("1.0" or "2.0"). */
ANVIL_API struct anvil_str_view anvil_model_version(const struct anvil_model *model);

/** The model's `metadata` object (null when absent). */
ANVIL_API const struct anvil_json *anvil_model_metadata(const struct anvil_model *model);

/** Number of shapes the file defines (prelude shapes not counted). */
ANVIL_API size_t anvil_model_shape_count(const struct anvil_model *model);

/** Shape `index` (0 .. count-1) in file order. */
ANVIL_API const struct anvil_shape *anvil_model_shape_at(const struct anvil_model *model, size_t index);

/**
 * The shape with absolute id `id` (e.g. "com.amazonaws.dynamodb#DescribeTable"
 * or a prelude id such as "smithy.api#String"), or NULL.
 */
ANVIL_API const struct anvil_shape *anvil_model_find(const struct anvil_model *model, const char *id, size_t len);

/** A shape's absolute id. */
ANVIL_API struct anvil_str_view anvil_shape_id(const struct anvil_shape *shape);

/** The part of the id after '#'. */
ANVIL_API struct anvil_str_view anvil_shape_name(const struct anvil_shape *shape);

ANVIL_API enum anvil_shape_type anvil_shape_type(const struct anvil_shape *shape);

/** "structure", "operation", ... as Smithy spells it. */
ANVIL_API const char *anvil_shape_type_name(enum anvil_shape_type type);

/** True for shapes of the Smithy prelude (smithy.api#...). */
ANVIL_API bool anvil_shape_is_prelude(const struct anvil_shape *shape);

/** The shape's traits (own, mixed in and applied): an object, empty when none. */
ANVIL_API const struct anvil_json *anvil_shape_traits(const struct anvil_shape *shape);

/** The value of trait `id` (absolute, e.g. "smithy.api#readonly"), or NULL when absent. */
ANVIL_API const struct anvil_json *anvil_shape_trait(const struct anvil_shape *shape, const char *id);

/** Members in document order (structure, union, enum, intEnum, list, set, map). */
ANVIL_API size_t anvil_shape_member_count(const struct anvil_shape *shape);
ANVIL_API const struct anvil_member *anvil_shape_member_at(const struct anvil_shape *shape, size_t index);
ANVIL_API const struct anvil_member *anvil_shape_member(const struct anvil_shape *shape, const char *name);
/** anvil_shape_member() with a name of `name.len` bytes (need not be NUL-terminated). */
ANVIL_API const struct anvil_member *anvil_shape_member_sv(const struct anvil_shape *shape, struct anvil_str_view name);

/**
 * A property of a service, resource or operation as its JSON AST writes it
 * (`version` and `rename` of a service, `identifiers` of a resource, ...),
 * or NULL when the shape has none. Lives as long as the model. Thread-safe.
 */
ANVIL_API const struct anvil_json *anvil_shape_property(const struct anvil_model *model,
                                                        const struct anvil_shape *shape, const char *name);

/** A service's `version` ("2010-05-15"), empty when it has none. */
ANVIL_API struct anvil_str_view anvil_service_version(const struct anvil_model *model,
                                                      const struct anvil_shape *service);

/** An operation's input and output shapes (smithy.api#Unit when not modelled); NULL for other shapes. */
ANVIL_API const struct anvil_shape *anvil_operation_input(const struct anvil_shape *operation);
ANVIL_API const struct anvil_shape *anvil_operation_output(const struct anvil_shape *operation);

/** An operation's (or service's) modelled errors. */
ANVIL_API size_t anvil_shape_error_count(const struct anvil_shape *shape);
ANVIL_API const struct anvil_shape *anvil_shape_error_at(const struct anvil_shape *shape, size_t index);

/**
 * Visits every operation in the closure of `service`: its operations and
 * those of its resources (lifecycle, operations, collectionOperations),
 * recursively, each once, in discovery order. Calls `fn` (may be NULL) for
 * each; stops early when it returns false. Stores the number visited in
 * `*visited` (may be NULL). Returns ANVIL_OK, ANVIL_EINVAL when `service`
 * is not a service, or ANVIL_ENOMEM. Thread-safe.
 */
typedef bool anvil_operation_visit_fn(const struct anvil_shape *operation, void *user_data);
ANVIL_API int anvil_service_operations(const struct anvil_model *model, const struct anvil_shape *service,
                                       anvil_operation_visit_fn *fn, void *user_data, size_t *visited);

ANVIL_EXTERN_C_END

#endif
