#ifndef ANVIL_BOTOCORE_INTERNAL_H
#define ANVIL_BOTOCORE_INTERNAL_H

/*
 * botocore service models (service-2.json) as a model source: the document
 * becomes the Smithy JSON AST a Smithy model of the service would be, which
 * the assembler then reads like any other JSON AST file (docs/model.md,
 * "botocore service models"). Not installed.
 */

#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/validate.h"

/* Names quoted in messages and ids are cut to this many bytes (anvil__boto_cut). */
#define ANVIL__BOTO_NAME_MAX 200

/* The most events one botocore file reports; past it one more says how many were left out. */
#define ANVIL__BOTO_MAX_EVENTS 1000

/* Something wrong inside the model, about one shape or member (its Smithy id) or none (empty). */
typedef void anvil__botocore_event_fn(void *ctx, enum anvil_severity severity, struct anvil_str_view shape_id,
                                      const char *message);

struct anvil__botocore_convert {
    struct anvil_allocator *allocator; /* temporary memory (NULL = default) */
    struct anvil_arena *arena;         /* where the AST's values go */
    anvil__botocore_event_fn *event;
    void *event_ctx;
    struct anvil_diag *diag; /* what stops the conversion; the message does not name the file */
};

/*
 * Whether a parsed document is a botocore service model: an object without a `smithy` key, with `metadata`
 * saying `protocol` or `protocols`, or with both `operations` and `shapes`.
 */
bool anvil__botocore_is_service(const struct anvil_json *root);

/*
 * Parses `len` bytes of `text` and stores in `*out` (values in cv->arena) the Smithy JSON AST of the botocore
 * service model it holds. Unless `botocore_only`, a document that is not one (a Smithy JSON AST) is copied as
 * it is. Problems inside the model are events (ERROR for what would make the model wrong); ANVIL_ESYNTAX (not
 * JSON; diag has line and column), ANVIL_EMODEL (not a service model at all), ANVIL_ELIMIT, ANVIL_ENOMEM stop
 * it. `*converted` says which it was.
 */
int anvil__botocore_parse(const struct anvil__botocore_convert *cv, const char *text, size_t len, bool botocore_only,
                          struct anvil_json *out, bool *converted);

/* The same for a document already parsed (it must be a botocore service model; the AST shares no memory). */
int anvil__botocore_to_ast(const struct anvil__botocore_convert *cv, const struct anvil_json *root,
                           struct anvil_json *out);

/* ---- shared by botocore_model.c, botocore_operations.c and botocore_shapes.c ---- */

/* The protocols a service speaks (metadata.protocols, else metadata.protocol). */
enum {
    ANVIL__BOTO_AWS_JSON_1_0 = 1 << 0,
    ANVIL__BOTO_AWS_JSON_1_1 = 1 << 1,
    ANVIL__BOTO_REST_JSON = 1 << 2,
    ANVIL__BOTO_REST_XML = 1 << 3,
    ANVIL__BOTO_QUERY = 1 << 4,
    ANVIL__BOTO_EC2 = 1 << 5,
    ANVIL__BOTO_CBOR = 1 << 6,
    ANVIL__BOTO_RPC_JSON = 1 << 7
};
#define ANVIL__BOTO_XML (ANVIL__BOTO_REST_XML | ANVIL__BOTO_QUERY | ANVIL__BOTO_EC2)
#define ANVIL__BOTO_JSON                                                                                               \
    (ANVIL__BOTO_AWS_JSON_1_0 | ANVIL__BOTO_AWS_JSON_1_1 | ANVIL__BOTO_REST_JSON | ANVIL__BOTO_CBOR |                  \
     ANVIL__BOTO_RPC_JSON)
#define ANVIL__BOTO_REST (ANVIL__BOTO_REST_JSON | ANVIL__BOTO_REST_XML)

/* What the references to a shape say (anvil__boto_shape.refs). */
enum {
    ANVIL__BOTO_REF_STREAMING = 1 << 0, /* a member says `streaming` */
    ANVIL__BOTO_REF_NOT_STREAMING = 1 << 1,
    ANVIL__BOTO_REF_JSON_VALUE = 1 << 2, /* a member says `jsonvalue` */
    ANVIL__BOTO_REF_NOT_JSON_VALUE = 1 << 3
};

/* A trait a shape gets from how it is referenced (anvil__boto_emit_shape). */
enum { ANVIL__BOTO_ADD_STREAMING = 1, ANVIL__BOTO_ADD_JSON_VALUE = 2 };

/* One botocore shape, by its place in `shapes`. */
struct anvil__boto_shape {
    struct anvil_str_view name;       /* its Smithy name: botocore's, or a new one when that is taken */
    struct anvil_str_view streaming;  /* a copy with @streaming for members that say `streaming` (empty: none) */
    struct anvil_str_view json_value; /* a copy with @mediaType for members that say `jsonvalue` */
    const struct anvil_json *input;   /* an operation's input reference naming it with locationName/xmlNamespace */
    unsigned char refs;               /* ANVIL__BOTO_REF_* */
    unsigned char add;                /* ANVIL__BOTO_ADD_*: on the shape itself (every reference asks for it) */
    bool skip;                        /* not emitted: its name is not an identifier */
};

/* A small string map (open addressing), from the allocator. */
struct anvil__boto_map {
    struct anvil__boto_slot {
        struct anvil_str_view key, value;
    } * slots;
    size_t mask, count;
};

struct anvil__boto {
    const struct anvil__botocore_convert *cv;
    const struct anvil_json *metadata, *operations, *shapes;
    struct anvil_json_builder *b;
    struct anvil_arena *scratch; /* names made up, messages' ids */
    struct anvil_buf id;         /* "namespace#" and then whatever name is being made */
    size_t ns_len;               /* the length of "namespace#" */
    struct anvil_str_view service;
    unsigned protocols;
    struct anvil__boto_shape *info;
    size_t count;
    struct anvil__boto_map made; /* names made up (renamed shapes and copies) */
    size_t events;
    bool in_operation; /* events name an operation: its name is no shape's */
    int rc;            /* the first failure (memory); sticky */
};

/* Reports an event about shape `shape` (botocore's name; empty: the service) and, when not empty, `member`. */
void anvil__boto_event(struct anvil__boto *x, enum anvil_severity severity, struct anvil_str_view shape,
                       struct anvil_str_view member, const char *fmt, ...) ANVIL_PRINTF(5, 6);

/* `s`, cut to ANVIL__BOTO_NAME_MAX bytes on a character boundary, for messages. */
struct anvil_str_view anvil__boto_cut(struct anvil_str_view s);

/* "object", "string", ... for messages. */
const char *anvil__boto_kind(const struct anvil_json *v);

/* `obj[key]` when it is a string; an ERROR event (naming shape and member) when it is there but is not one. */
bool anvil__boto_string(struct anvil__boto *x, const struct anvil_json *obj, const char *key,
                        struct anvil_str_view shape, struct anvil_str_view member, struct anvil_str_view *out);

/* `obj[key]` is `true`; an ERROR event when it is there but is not a boolean. */
bool anvil__boto_flag(struct anvil__boto *x, const struct anvil_json *obj, const char *key, struct anvil_str_view shape,
                      struct anvil_str_view member);

/* The place of botocore shape `name` in `shapes`, or SIZE_MAX. */
size_t anvil__boto_index(const struct anvil__boto *x, struct anvil_str_view name);

/* Writes `key` (NUL-terminated) / a string value / the absolute id of Smithy name `name`. */
void anvil__boto_key(struct anvil__boto *x, const char *key);
void anvil__boto_str(struct anvil__boto *x, struct anvil_str_view s);
void anvil__boto_id(struct anvil__boto *x, struct anvil_str_view name);

/* The Smithy name of the shape botocore calls `name` (botocore's own when it names no shape). */
struct anvil_str_view anvil__boto_name(const struct anvil__boto *x, struct anvil_str_view name);

/* A copy of `v` (from the botocore document) written as the next value. */
void anvil__boto_copy(struct anvil__boto *x, const struct anvil_json *v);

/* A `traits` object written lazily: opened by the first trait, closed by anvil__boto_traits_end. */
struct anvil__boto_traits {
    bool open;
};
void anvil__boto_trait(struct anvil__boto *x, struct anvil__boto_traits *t, const char *id);
void anvil__boto_trait_empty(struct anvil__boto *x, struct anvil__boto_traits *t, const char *id);
void anvil__boto_trait_str(struct anvil__boto *x, struct anvil__boto_traits *t, const char *id,
                           struct anvil_str_view value);
void anvil__boto_traits_end(struct anvil__boto *x, struct anvil__boto_traits *t);

/* `smithy.api#deprecated` when `obj` says `deprecated` (with deprecatedMessage and deprecatedSince). */
void anvil__boto_deprecated(struct anvil__boto *x, struct anvil__boto_traits *t, const struct anvil_json *obj,
                            struct anvil_str_view shape, struct anvil_str_view member);

/* `smithy.api#timestampFormat` for botocore's `timestampFormat`, when `obj` has one. */
void anvil__boto_timestamp_format(struct anvil__boto *x, struct anvil__boto_traits *t, const struct anvil_json *obj,
                                  struct anvil_str_view shape, struct anvil_str_view member);

/* `smithy.api#xmlNamespace` for botocore's `xmlNamespace` (a URI, or {uri, prefix}), when `obj` has one. */
void anvil__boto_xml_namespace(struct anvil__boto *x, struct anvil__boto_traits *t, const struct anvil_json *obj,
                               struct anvil_str_view shape, struct anvil_str_view member);

/* The map: `value` for `key` (NULL when absent); adding keeps views (they must outlive the map). */
const struct anvil_str_view *anvil__boto_map_get(const struct anvil__boto_map *map, struct anvil_str_view key);
int anvil__boto_map_put(struct anvil_allocator *allocator, struct anvil__boto_map *map, struct anvil_str_view key,
                        struct anvil_str_view value);
void anvil__boto_map_clean_up(struct anvil_allocator *allocator, struct anvil__boto_map *map);

/* botocore_operations.c: operation `name` (its definition `op`). */
void anvil__boto_emit_operation(struct anvil__boto *x, struct anvil_str_view name, const struct anvil_json *op);

/* botocore_shapes.c: shape `index` (its definition in `shapes`) as Smithy shape `name`, with ANVIL__BOTO_ADD_*. */
void anvil__boto_emit_shape(struct anvil__boto *x, size_t index, struct anvil_str_view name, unsigned add);

/* What the references of every structure, list and map say of their targets (anvil__boto_shape.refs). */
void anvil__boto_scan_references(struct anvil__boto *x);

#endif
