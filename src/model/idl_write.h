#ifndef ANVIL_MODEL_IDL_WRITE_H
#define ANVIL_MODEL_IDL_WRITE_H

/*
 * The Smithy IDL writer (internal): a JSON AST model -> `.smithy` IDL 2.0
 * text, one file per namespace, laid out the way Smithy's own
 * SmithyIdlModelSerializer lays it out (smithy-lang/smithy,
 * smithy-model/.../shapes/SmithyIdlModelSerializer.java, with its default
 * options), so that a model Smithy wrote comes back byte for byte. idl_write.c
 * lists the layout rules and the few places where anvil differs on purpose.
 *
 * The input is an assembled, unflattened JSON AST (what `smithy ast` and
 * anvil_model_ast() print): absolute shape ids everywhere, `mixins` listing
 * mixins while `members` holds only a shape's own members, and possibly
 * `{"type": "apply", "traits": {...}}` entries keyed `ns#Shape` or
 * `ns#Shape$member`. Like Smithy, anvil__idl_namespaces() leaves the prelude
 * namespace (smithy.api) out, so a model's prelude shapes are not written.
 *
 * Both functions only read `ast`; they are thread-safe as long as nobody
 * changes it.
 */

#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/json.h"
#include "anvil/model.h"

/**
 * Lists the namespaces of the shapes in `ast` (a Smithy JSON AST object:
 * {"smithy", "metadata", "shapes"}), sorted by bytes and without repeats, into
 * `out` (views into the ast's keys, valid as long as `ast`). `apply` entries,
 * keys that are not valid shape ids and the prelude namespace `smithy.api` are
 * left out. Returns how many there are; that may exceed `cap`, and then only
 * the first `cap` are stored (call with cap 0 to count). Anything that is not
 * a model gives 0. Allocates nothing; O(shapes x namespaces / 64).
 */
size_t anvil__idl_namespaces(const struct anvil_json *ast, struct anvil_str_view *out, size_t cap);

/**
 * Appends to `out` one IDL 2.0 file holding every shape of namespace `ns` in
 * `ast` (and the metadata when asked), in Smithy's canonical layout: the
 * header, sorted `use` statements, then the shapes. An empty `ns` writes no
 * namespace and no shapes: only `$version` and, when asked, the metadata
 * (Smithy's `metadata.smithy`). A namespace with no shapes gives just the
 * header. `options` may be NULL. Temporary memory comes from `out`'s
 * allocator and is released before returning.
 *
 * When `ns` is not empty every entry of the whole `ast` is checked (keys are
 * absolute shape ids, definitions are objects with a known `type`, every
 * `apply` names a defined shape), and the shapes written are checked in
 * full: names and member names must be IDL identifiers, references must be
 * absolute shape ids, and the parts must have the JSON types the AST format
 * gives them. Trait and metadata values may be any JSON: strings are escaped
 * so the text reads back as the same value.
 *
 * Returns ANVIL_OK; ANVIL_EMODEL when `ast` is not such a model (diag names
 * the shape, member or key); ANVIL_ELIMIT when a value nests deeper than
 * ANVIL_JSON_MAX_DEPTH or `out` reaches its cap; ANVIL_ENOMEM; ANVIL_EINVAL
 * for NULL `ast` or `out`, or an `ns` that is not a namespace. On error `out`
 * is left as it was and `diag` (may be NULL) says why.
 */
int anvil__idl_write(const struct anvil_json *ast, struct anvil_str_view ns,
                     const struct anvil_idl_write_options *options, struct anvil_buf *out, struct anvil_diag *diag);

#endif
