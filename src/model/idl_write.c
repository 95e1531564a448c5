/*
 * The Smithy IDL writer: JSON AST -> `.smithy` IDL 2.0, one namespace per
 * file, in the layout of Smithy's SmithyIdlModelSerializer with its default
 * options (component order PREFERRED, inline I/O suffixes "Input"/"Output",
 * no suffix inference, no I/O coercion). Everything below was read from
 * smithy-lang/smithy at 0f732312: shapes/SmithyIdlModelSerializer.java,
 * shapes/SmithyIdlComponentOrder.java, utils/AbstractCodeWriter.java,
 * utils/StringUtils.escapeJavaString, node/internal/JsonWriter.java and
 * utils/NumberUtils.java; the oracle is the serializer's golden cases
 * (idl-serialization/cases/NAME.smithy), which Smithy reads and writes back
 * byte for byte.
 *
 * The layout, in short:
 * - `$version: "2.0"`, a blank line, `namespace ns`, a blank line, the sorted
 *   `use` lines and a blank line, then the shapes, each followed by one blank
 *   line; the file ends with exactly one newline. Metadata (own file in
 *   Smithy) is `metadata key = value` lines, keys sorted.
 * - Shape order: trait definitions, services, resources, operations,
 *   structures, unions, lists, sets, maps, then everything else; by shape id
 *   (ignoring case first) within each group.
 * - Shape ids are written relative when they are in the file's namespace, or
 *   a public prelude shape not shadowed by a local shape of the same name, or
 *   imported: an id of another namespace gets a `use` when its name clashes
 *   with no local shape, no public prelude shape and no earlier `use`
 *   (first come, first served, in writing order). Otherwise absolute.
 * - Traits: `smithy.api#documentation` first as `///` lines (trailing spaces
 *   kept), then the rest sorted by id. An empty object for a trait whose
 *   shape is not a document is written bare (`@required`); an object as
 *   `@t(` + one `key: value` per line + `)`; anything else as `@t(value)`.
 *   Node values: strings quoted with Java escapes (never text blocks), arrays
 *   and objects one item per line, indented four spaces; strings whose shape
 *   (or member) has @idRef and that name a known shape are written as ids.
 * - Members: `name: Target`, plus ` = <compact JSON>` for @default; enum
 *   members `NAME` plus ` = <compact JSON>` when the value is not the name.
 *   Only a shape's own members are written; traits introduced on mixed-in
 *   members follow the shape as `apply S$m @t` (one trait) or `apply S$m {`
 *   block (several), in the mixins' member order.
 * - Services, resources and operations are brace blocks with their
 *   properties in Smithy's fixed order, id lists sorted one per line. An
 *   operation's input (output) is written inline (`input := ...`) when it is
 *   a structure of the same namespace named Operation + "Input" ("Output")
 *   with the @input (@output) trait; another operation using it names it.
 *
 * Where anvil differs from Smithy, on purpose and only for input Smithy would
 * reject or write unreadably: a documentation string holding a CR or another
 * C0 control besides TAB and LF is written as @documentation("...") rather
 * than `///` lines (they would not read back); an empty object for a trait
 * whose shape is not a structure or map is written `@t({})` (Smithy writes
 * `@t()` or `@t`, which read back as something else); node object keys that
 * match Java's `[a-zA-Z_][a-zA-Z_0-9]*` but are not IDL identifiers (`_`) are
 * quoted; an id whose relative form would be `true`, `false` or `null` in a
 * node value is written absolute.
 *
 * What cannot be known from the JSON AST alone: Smithy looks trait shapes up
 * in the full model, which for AWS models holds the AWS trait definitions.
 * anvil knows the prelude's shape types (prelude.c) and, in idl_write_model.c, the
 * idRef members of the prelude and AWS traits the AWS models use; a trait
 * defined nowhere it can see is taken to be a structure.
 *
 * Smithy quirks kept on purpose: an inline input/output with traits inherited
 * from a mixin writes them as its own (Smithy writes getAllTraits() there);
 * a `set` becomes `list` with @uniqueItems; a blank service version, repeated
 * errors/operations/resources and repeated mixins are dropped. Numbers:
 * anvil keeps integers only up to int64 (Smithy: any size), and Java prints
 * subnormal doubles with two digits where anvil prints the shortest.
 */

#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "model/idl_write.h"
#include "model/idl_write_internal.h"
#include "model/model_internal.h"

/* ---- traits ---- */

static int s_trait_qcmp(const void *a, const void *b) {
    const struct anvil__iw_trait *x = a, *y = b;
    int c = anvil__iw_id_cmp(x->id, y->id);
    return c != 0 ? c : (x->order < y->order ? -1 : x->order > y->order);
}

/* Adds one trait to the block. */
static void s_traits_push(struct anvil__iw_writer *w, struct anvil_str_view id, const struct anvil_json *value) {
    if (!anvil__iw_ok(w)) {
        return;
    }
    if (w->trait_count == w->trait_cap) {
        size_t cap = w->trait_cap ? w->trait_cap * 2 : 16;
        void *p = w->traits;
        int rc = anvil_mem_realloc(w->allocator, &p, cap * sizeof(*w->traits));
        if (rc != ANVIL_OK) {
            anvil__iw_fail_status(w, rc);
            return;
        }
        w->traits = p;
        w->trait_cap = cap;
    }
    struct anvil__iw_trait *t = &w->traits[w->trait_count];
    t->id = id;
    t->value = value;
    t->order = w->trait_count++;
}

/* Adds the traits of a `traits` object (or NULL) to the block. */
static void s_traits_add(struct anvil__iw_writer *w, const struct anvil_json *traits, struct anvil_str_view owner) {
    if (!traits || !anvil__iw_ok(w)) {
        return;
    }
    if (!anvil_json_is_object(traits)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `traits` must be an object", ANVIL__IW_SHOW(owner));
        return;
    }
    for (size_t i = 0; i < anvil_json_len(traits); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(traits, i);
        struct anvil_str_view id = anvil_json_member_key(m);
        struct anvil__iw_id p;
        if (!anvil__iw_parse_id(id, &p) || p.has_member) {
            anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: trait `%.*s` is not an absolute shape id",
                           ANVIL__IW_SHOW(owner), ANVIL__IW_SHOW(id));
            return;
        }
        s_traits_push(w, id, &m->value);
    }
}

/* Sorts the block's traits from `from` on by id, keeping the first added of equal ids. */
static void s_traits_sort(struct anvil__iw_writer *w, size_t from) {
    if (w->trait_count - from < 2) {
        return;
    }
    qsort(w->traits + from, w->trait_count - from, sizeof(*w->traits), s_trait_qcmp);
    size_t out = from + 1;
    for (size_t i = from + 1; i < w->trait_count; i++) {
        if (!anvil_sv_eq(w->traits[i].id, w->traits[out - 1].id)) {
            w->traits[out++] = w->traits[i];
        }
    }
    w->trait_count = out;
}

/* The traits a mixin passes on (all of its own but @mixin and its localTraits), recursively. */
static void s_traits_inherited(struct anvil__iw_writer *w, const struct anvil_json *def, unsigned depth,
                               unsigned *budget) {
    const struct anvil_json *mixins = anvil__iw_mixins_of(def);
    for (size_t i = 0; i < anvil_json_len(mixins) && anvil__iw_ok(w); i++) {
        struct anvil_str_view mid = anvil__iw_mixin_at(mixins, i);
        const struct anvil_json *mdef = anvil__iw_find(w, mid);
        if (!mdef || *budget == 0 || depth >= ANVIL__IW_MIXIN_DEPTH) {
            continue;
        }
        (*budget)--;
        size_t from = w->trait_count;
        s_traits_add(w, anvil__iw_applied(w, mid, false, anvil_sv("", 0)), mid);
        s_traits_add(w, anvil_json_object_get_cstr(mdef, "traits"), mid);
        s_traits_inherited(w, mdef, depth + 1, budget);
        size_t out = from;
        for (size_t k = from; k < w->trait_count; k++) {
            struct anvil_str_view id = w->traits[k].id;
            if (!anvil__iw_is(id, "smithy.api#mixin") && !anvil__iw_local_trait(mdef, id.ptr, id.len)) {
                w->traits[out++] = w->traits[k];
            }
        }
        w->trait_count = out;
    }
}

/* Opens a block with the traits of shape `id`: applied and own (introduced), plus inherited when `all`. */
static size_t s_traits_of_shape(struct anvil__iw_writer *w, struct anvil_str_view id, const struct anvil_json *def,
                                bool all) {
    size_t from = w->trait_count;
    s_traits_add(w, anvil__iw_applied(w, id, false, anvil_sv("", 0)), id);
    s_traits_add(w, anvil_json_object_get_cstr(def, "traits"), id);
    if (all) {
        unsigned budget = ANVIL__IW_MIXIN_BUDGET;
        s_traits_inherited(w, def, 0, &budget);
    }
    s_traits_sort(w, from);
    return from;
}

static const struct anvil_json *s_block_trait(const struct anvil__iw_writer *w, size_t from, const char *id) {
    for (size_t i = from; i < w->trait_count; i++) {
        if (anvil__iw_is(w->traits[i].id, id)) {
            return w->traits[i].value;
        }
    }
    return NULL;
}

/* Whether documentation can be `///` lines that read back as the same text. */
static bool s_doc_comment_ok(struct anvil_str_view doc) {
    for (size_t i = 0; i < doc.len; i++) {
        unsigned char c = (unsigned char)doc.ptr[i];
        if (c < 0x20 && c != '\t' && c != '\n') {
            return false;
        }
    }
    return true;
}

static void s_doc_comment(struct anvil__iw_writer *w, struct anvil_str_view doc) {
    w->out.doc = true;
    size_t start = 0;
    for (;;) {
        size_t nl = anvil_sv_find_byte(doc, start, '\n');
        size_t end = nl == SIZE_MAX ? doc.len : nl;
        anvil__idl_out_text(&w->out, doc.ptr + start, end - start);
        anvil__idl_out_nl(&w->out);
        if (nl == SIZE_MAX) {
            break;
        }
        start = nl + 1;
    }
    w->out.doc = false;
}

/* Whether an empty object for `trait` may be written bare: its shape is a structure or map, or unknown. */
static bool s_bare_ok(struct anvil_str_view trait, const struct anvil_json *def) {
    if (def) {
        enum anvil__iw_kind kind = anvil__iw_kind_of(def);
        return kind == ANVIL__IW_STRUCTURE || kind == ANVIL__IW_MAP;
    }
    enum anvil_shape_type type;
    if (anvil_sv_starts_with(trait, ANVIL_SV("smithy.api#")) &&
        anvil__prelude_type(anvil_sv(trait.ptr + 11, trait.len - 11), &type)) {
        return type == ANVIL_SHAPE_STRUCTURE || type == ANVIL_SHAPE_MAP;
    }
    return true;
}

static void s_trait(struct anvil__iw_writer *w, const struct anvil__iw_trait *t) {
    if (!anvil__iw_check_depth(w, t->value, t->id)) {
        return;
    }
    struct anvil__iw_ctx ctx;
    anvil__iw_ctx_shape(w, t->id, &ctx);
    anvil__idl_out_cstr(&w->out, "@");
    anvil__iw_id(w, t->id);
    if (anvil_json_is_object(t->value) && anvil_json_len(t->value) == 0 && s_bare_ok(t->id, ctx.def)) {
        anvil__idl_out_nl(&w->out);
    } else if (anvil_json_is_object(t->value) && anvil_json_len(t->value) > 0) {
        anvil__idl_out_cstr(&w->out, "(");
        w->out.indent++;
        anvil__iw_pairs(w, t->value, &ctx, 1);
        w->out.indent--;
        anvil__idl_out_cstr(&w->out, ")");
        anvil__idl_out_nl(&w->out);
    } else {
        anvil__idl_out_cstr(&w->out, "(");
        anvil__iw_node(w, t->value, &ctx, 1);
        anvil__idl_out_cstr(&w->out, ")");
        anvil__idl_out_nl(&w->out);
    }
}

enum { S_NO_DOC_COMMENT = 1, S_MEMBER = 2 };

/* Writes the block opened at `from` and closes it (Java's serializeTraits). */
static void s_write_traits(struct anvil__iw_writer *w, size_t from, unsigned flags) {
    bool doc_done = false;
    if (!(flags & S_NO_DOC_COMMENT)) {
        const struct anvil_json *doc = s_block_trait(w, from, "smithy.api#documentation");
        if (anvil_json_is_string(doc) && s_doc_comment_ok(anvil_json_string(doc))) {
            s_doc_comment(w, anvil_json_string(doc));
            doc_done = true;
        }
    }
    for (size_t i = from; i < w->trait_count && anvil__iw_ok(w); i++) {
        struct anvil_str_view id = w->traits[i].id;
        if ((doc_done && anvil__iw_is(id, "smithy.api#documentation")) || anvil__iw_is(id, "smithy.api#enumValue") ||
            ((flags & S_MEMBER) && anvil__iw_is(id, "smithy.api#default"))) {
            continue;
        }
        s_trait(w, &w->traits[i]);
    }
    w->trait_count = from;
}

/* ---- shapes ---- */

static bool s_target_of(struct anvil__iw_writer *w, const struct anvil_json *ref, struct anvil_str_view owner,
                        const char *what, struct anvil_str_view what_name, struct anvil_str_view *out) {
    const struct anvil_json *target = anvil_json_object_get_cstr(ref, "target");
    struct anvil__iw_id p;
    if (!anvil_json_is_object(ref) || !anvil_json_is_string(target)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: %s%.*s must be an object with a string `target`",
                       ANVIL__IW_SHOW(owner), what, ANVIL__IW_SHOW(what_name));
        return false;
    }
    *out = anvil_json_string(target);
    if (!anvil__iw_parse_id(*out, &p) || p.has_member) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: %s%.*s targets `%.*s`, which is not an absolute shape id",
                       ANVIL__IW_SHOW(owner), what, ANVIL__IW_SHOW(what_name), ANVIL__IW_SHOW(*out));
        return false;
    }
    return true;
}

static void s_mixins(struct anvil__iw_writer *w, struct anvil_str_view owner, const struct anvil_json *def) {
    const struct anvil_json *mixins = anvil_json_object_get_cstr(def, "mixins");
    if (!mixins) {
        return;
    }
    if (!anvil_json_is_array(mixins)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `mixins` must be an array", ANVIL__IW_SHOW(owner));
        return;
    }
    size_t n = anvil_json_len(mixins), unique = 0;
    struct anvil_str_view *ids = anvil__iw_alloc(w, n * sizeof(*ids));
    struct anvil__iw_set seen = {NULL, 0, 0, false};
    if (!ids) {
        return;
    }
    for (size_t i = 0; i < n && anvil__iw_ok(w); i++) {
        struct anvil_str_view id;
        if (!s_target_of(w, anvil_json_array_at(mixins, i), owner, "a mixin", anvil_sv("", 0), &id)) {
            return;
        }
        if (!anvil__iw_set_find(&seen, id)) { /* Smithy keeps mixins in a set */
            anvil__iw_set_add(w, &seen, id);
            ids[unique++] = id;
        }
    }
    if (unique == 1) {
        anvil__idl_out_cstr(&w->out, "with [");
        anvil__iw_id(w, ids[0]);
        anvil__idl_out_cstr(&w->out, "] ");
    } else if (unique > 1) {
        anvil__idl_out_cstr(&w->out, "with [");
        anvil__idl_out_nl(&w->out);
        w->out.indent++;
        for (size_t i = 0; i < unique; i++) {
            anvil__iw_id(w, ids[i]);
            anvil__idl_out_nl(&w->out);
        }
        w->out.indent--;
        anvil__idl_out_cstr(&w->out, "] ");
    }
}

/* Traits, then `keyword Name ` and the mixins (the line is left open). */
static void s_head(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh, const char *keyword) {
    size_t from = s_traits_of_shape(w, sh->id, sh->def, false);
    if (sh->kind == ANVIL__IW_SET && !s_block_trait(w, from, "smithy.api#uniqueItems")) {
        /* IDL 2.0 has no sets: Smithy writes a list with @uniqueItems. */
        s_traits_push(w, ANVIL_SV("smithy.api#uniqueItems"), anvil__json_empty_object());
        s_traits_sort(w, from);
    }
    s_write_traits(w, from, 0);
    anvil__idl_out_cstr(&w->out, keyword);
    anvil__idl_out_cstr(&w->out, " ");
    anvil__idl_out_sv(&w->out, sh->name);
    anvil__idl_out_cstr(&w->out, " ");
    s_mixins(w, sh->id, sh->def);
}

static bool s_member_name_ok(struct anvil__iw_writer *w, struct anvil_str_view owner, struct anvil_str_view name,
                             const struct anvil_json *def) {
    if (!anvil__idl_is_identifier(name)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: member name `%.*s` is not a valid IDL identifier",
                       ANVIL__IW_SHOW(owner), ANVIL__IW_SHOW(name));
        return false;
    }
    if (!anvil_json_is_object(def)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: member `%.*s` must be an object", ANVIL__IW_SHOW(owner),
                       ANVIL__IW_SHOW(name));
        return false;
    }
    return true;
}

static size_t s_traits_of_member(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh,
                                 struct anvil_str_view name, const struct anvil_json *def) {
    size_t from = w->trait_count;
    s_traits_add(w, anvil__iw_applied(w, sh->id, true, name), sh->id);
    s_traits_add(w, anvil_json_object_get_cstr(def, "traits"), sh->id);
    s_traits_sort(w, from);
    return from;
}

static void s_member(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh, struct anvil_str_view name,
                     const struct anvil_json *def) {
    struct anvil_str_view target;
    if (!s_member_name_ok(w, sh->id, name, def) || !s_target_of(w, def, sh->id, "member ", name, &target)) {
        return;
    }
    size_t from = s_traits_of_member(w, sh, name, def);
    const struct anvil_json *dflt = s_block_trait(w, from, "smithy.api#default");
    if (dflt && !anvil__iw_check_depth(w, dflt, name)) {
        return;
    }
    s_write_traits(w, from, S_MEMBER);
    anvil__idl_out_sv(&w->out, name);
    anvil__idl_out_cstr(&w->out, ": ");
    anvil__iw_id(w, target);
    if (dflt) {
        anvil__idl_out_cstr(&w->out, " = ");
        anvil__idl_out_json(&w->out, dflt);
    }
    anvil__idl_out_nl(&w->out);
}

static void s_enum_member(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh, struct anvil_str_view name,
                          const struct anvil_json *def) {
    if (!s_member_name_ok(w, sh->id, name, def)) {
        return;
    }
    size_t from = s_traits_of_member(w, sh, name, def);
    const struct anvil_json *value = s_block_trait(w, from, "smithy.api#enumValue");
    if (value && !anvil__iw_check_depth(w, value, name)) {
        return;
    }
    s_write_traits(w, from, 0);
    anvil__idl_out_sv(&w->out, name);
    if (value && !(anvil_json_is_string(value) && anvil_sv_eq(anvil_json_string(value), name))) {
        anvil__idl_out_cstr(&w->out, " = ");
        anvil__idl_out_json(&w->out, value);
    }
    anvil__idl_out_nl(&w->out);
}

/* The shape's own members in a block: `{}` when none. */
static void s_members(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh) {
    static const char *const fixed[] = {"member", "key", "value"};
    const struct anvil_json *members = NULL;
    size_t first = 0, last = 0; /* of `fixed`, for lists and maps */
    if (sh->kind == ANVIL__IW_LIST || sh->kind == ANVIL__IW_SET) {
        last = 1;
    } else if (sh->kind == ANVIL__IW_MAP) {
        first = 1;
        last = 3;
    } else {
        members = anvil_json_object_get_cstr(sh->def, "members");
        if (members && !anvil_json_is_object(members)) {
            anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `members` must be an object", ANVIL__IW_SHOW(sh->id));
            return;
        }
    }
    size_t count = anvil_json_len(members);
    for (size_t i = first; i < last; i++) {
        count += anvil_json_object_get_cstr(sh->def, fixed[i]) != NULL;
    }
    if (count == 0) {
        anvil__idl_out_cstr(&w->out, "{}");
        anvil__idl_out_nl(&w->out);
        return;
    }
    anvil__idl_out_cstr(&w->out, "{");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    for (size_t i = first; i < last; i++) {
        const struct anvil_json *def = anvil_json_object_get_cstr(sh->def, fixed[i]);
        if (def) {
            s_member(w, sh, anvil_sv_from_cstr(fixed[i]), def);
        }
    }
    for (size_t i = 0; i < anvil_json_len(members) && anvil__iw_ok(w); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(members, i);
        if (sh->kind == ANVIL__IW_ENUM || sh->kind == ANVIL__IW_INT_ENUM) {
            s_enum_member(w, sh, anvil_json_member_key(m), &m->value);
        } else {
            s_member(w, sh, anvil_json_member_key(m), &m->value);
        }
    }
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "}");
    anvil__idl_out_nl(&w->out);
}

/* `apply S$m ...` for traits introduced on a mixed-in member (Java's applyIntroducedTraits). */
static void s_apply(struct anvil__iw_writer *w, const struct anvil__iw_apply *a) {
    size_t from = w->trait_count;
    s_traits_add(w, a->traits, a->root);
    s_traits_sort(w, from);
    size_t n = w->trait_count - from - (s_block_trait(w, from, "smithy.api#enumValue") != NULL);
    if (n == 0) {
        w->trait_count = from;
        return;
    }
    anvil__idl_out_cstr(&w->out, "apply ");
    anvil__iw_id(w, a->key);
    if (n == 1) {
        anvil__idl_out_cstr(&w->out, " ");
        s_write_traits(w, from, S_NO_DOC_COMMENT);
        anvil__idl_out_nl(&w->out);
        return;
    }
    anvil__idl_out_cstr(&w->out, " {");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    s_write_traits(w, from, S_NO_DOC_COMMENT);
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "}");
    anvil__idl_out_nl(&w->out);
    anvil__idl_out_nl(&w->out);
}

static size_t s_find_apply(const struct anvil__iw_writer *w, size_t lo, size_t hi, struct anvil_str_view member) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = anvil_sv_cmp(w->applies[mid].member, member);
        if (c == 0) {
            return mid;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return SIZE_MAX;
}

/* Marks, in the mixins' member order, which of the applies [lo, hi) to write next. */
static void s_flat_members(struct anvil__iw_writer *w, const struct anvil_json *def, size_t lo, size_t hi,
                           size_t *order, size_t *n, bool *done, unsigned depth, unsigned *budget) {
    const struct anvil_json *mixins = anvil__iw_mixins_of(def);
    for (size_t i = 0; i < anvil_json_len(mixins); i++) {
        const struct anvil_json *mdef = anvil__iw_find(w, anvil__iw_mixin_at(mixins, i));
        if (!mdef || *budget == 0 || depth >= ANVIL__IW_MIXIN_DEPTH) {
            continue;
        }
        (*budget)--;
        s_flat_members(w, mdef, lo, hi, order, n, done, depth + 1, budget);
        static const char *const fixed[] = {"member", "key", "value"};
        for (size_t k = 0; k < 3; k++) {
            if (anvil_json_object_get_cstr(mdef, fixed[k])) {
                size_t at = s_find_apply(w, lo, hi, anvil_sv_from_cstr(fixed[k]));
                if (at != SIZE_MAX && !done[at - lo]) {
                    done[at - lo] = true;
                    order[(*n)++] = at;
                }
            }
        }
        const struct anvil_json *members = anvil_json_object_get_cstr(mdef, "members");
        for (size_t k = 0; k < anvil_json_len(members); k++) {
            size_t at = s_find_apply(w, lo, hi, anvil_json_member_key(anvil_json_object_at(members, k)));
            if (at != SIZE_MAX && !done[at - lo]) {
                done[at - lo] = true;
                order[(*n)++] = at;
            }
        }
    }
}

/* The applies to members of `id` that it does not define itself, after the shape. */
static void s_inherited_applies(struct anvil__iw_writer *w, struct anvil_str_view id, const struct anvil_json *def) {
    size_t lo, hi;
    anvil__iw_apply_range(w, id, &lo, &hi);
    if (lo == hi) {
        return;
    }
    bool *done = anvil__iw_alloc(w, (hi - lo) * sizeof(*done));
    size_t *order = anvil__iw_alloc(w, (hi - lo) * sizeof(*order));
    if (!done || !order) {
        return;
    }
    size_t n = 0;
    for (size_t i = lo; i < hi; i++) {
        done[i - lo] = anvil__iw_own_member(def, w->applies[i].member) != NULL; /* merged into the member */
    }
    unsigned budget = ANVIL__IW_MIXIN_BUDGET;
    s_flat_members(w, def, lo, hi, order, &n, done, 0, &budget);
    for (size_t i = lo; i < hi; i++) {
        if (!done[i - lo]) {
            order[n++] = i;
        }
    }
    for (size_t i = 0; i < n && anvil__iw_ok(w); i++) {
        s_apply(w, &w->applies[order[i]]);
    }
}

static const struct anvil__iw_shape *s_own_shape(const struct anvil__iw_writer *w, struct anvil_str_view id) {
    size_t lo = 0, hi = w->own_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = anvil_sv_cmp(w->own[mid].id, id);
        if (c == 0) {
            return &w->own[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

/* An operation's input or output reference: its own, else a mixin's (NULL: smithy.api#Unit). */
static const struct anvil_json *s_io_ref(struct anvil__iw_writer *w, const struct anvil_json *def, const char *key,
                                         unsigned depth, unsigned *budget) {
    const struct anvil_json *ref = anvil_json_object_get_cstr(def, key);
    const struct anvil_json *mixins = anvil__iw_mixins_of(def);
    for (size_t i = 0; !ref && i < anvil_json_len(mixins) && depth<ANVIL__IW_MIXIN_DEPTH && * budget> 0; i++) {
        const struct anvil_json *mdef = anvil__iw_find(w, anvil__iw_mixin_at(mixins, i));
        (*budget)--;
        if (anvil__iw_kind_of(mdef) == ANVIL__IW_OPERATION) {
            ref = s_io_ref(w, mdef, key, depth + 1, budget);
        }
    }
    return ref;
}

static bool s_io_target(struct anvil__iw_writer *w, const struct anvil__iw_shape *op, const char *key,
                        struct anvil_str_view *out) {
    unsigned budget = ANVIL__IW_MIXIN_BUDGET;
    const struct anvil_json *ref = s_io_ref(w, op->def, key, 0, &budget);
    if (!ref) {
        *out = ANVIL_SV("smithy.api#Unit");
        return true;
    }
    return s_target_of(w, ref, op->id, key, anvil_sv("", 0), out);
}

/* `input: Id`, or the inline form for a shape marked inlined. Returns that shape (for its applies). */
static const struct anvil__iw_shape *s_io(struct anvil__iw_writer *w, const struct anvil__iw_shape *op, const char *key,
                                          const char *io_trait) {
    struct anvil_str_view target;
    if (!s_io_target(w, op, key, &target)) {
        return NULL;
    }
    const struct anvil__iw_shape *in = s_own_shape(w, target);
    /* Only the operation the name belongs to writes it inline: another operation using the same structure
     * names it (Smithy's writer inlines it into each, and the file then defines it twice). */
    const char *suffix = key[0] == 'i' ? "Input" : "Output";
    bool own =
        in && in->name.len == op->name.len + strlen(suffix) && memcmp(in->name.ptr, op->name.ptr, op->name.len) == 0;
    if (!in || !in->inlined || !own) {
        anvil__idl_out_cstr(&w->out, key);
        anvil__idl_out_cstr(&w->out, ": ");
        anvil__iw_id(w, target);
        anvil__idl_out_nl(&w->out);
        return NULL;
    }
    size_t from = s_traits_of_shape(w, in->id, in->def, true);
    bool only_io = w->trait_count == from || (w->trait_count == from + 1 && anvil__iw_is(w->traits[from].id, io_trait));
    anvil__idl_out_cstr(&w->out, key);
    anvil__idl_out_cstr(&w->out, " := ");
    if (only_io) {
        w->trait_count = from;
    } else {
        anvil__idl_out_nl(&w->out);
        w->out.indent++;
        size_t out = from;
        for (size_t i = from; i < w->trait_count; i++) {
            if (!anvil__iw_is(w->traits[i].id, io_trait)) {
                w->traits[out++] = w->traits[i];
            }
        }
        w->trait_count = out;
        s_write_traits(w, from, 0);
    }
    s_mixins(w, in->id, in->def);
    s_members(w, in);
    if (!only_io) {
        w->out.indent--;
    }
    return in;
}

/* `label: [ ids ]`, sorted and without repeats; nothing when absent or empty. */
static void s_id_list(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh, const char *key) {
    const struct anvil_json *list = anvil_json_object_get_cstr(sh->def, key);
    if (!list) {
        return;
    }
    if (!anvil_json_is_array(list)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `%s` must be an array", ANVIL__IW_SHOW(sh->id), key);
        return;
    }
    size_t n = anvil_json_len(list);
    if (n == 0) {
        return;
    }
    struct anvil_str_view *ids = anvil__iw_alloc(w, n * sizeof(*ids));
    if (!ids) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (!s_target_of(w, anvil_json_array_at(list, i), sh->id, key, anvil_sv("", 0), &ids[i])) {
            return;
        }
    }
    qsort(ids, n, sizeof(*ids), anvil__iw_id_qcmp);
    anvil__idl_out_cstr(&w->out, key);
    anvil__idl_out_cstr(&w->out, ": [");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || !anvil_sv_eq(ids[i], ids[i - 1])) {
            anvil__iw_id(w, ids[i]);
            anvil__idl_out_nl(&w->out);
        }
    }
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "]");
    anvil__idl_out_nl(&w->out);
}

/* Java's StringUtils.isBlank, for ASCII white space. */
static bool s_blank(struct anvil_str_view s) {
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c != ' ' && (c < 0x09 || c > 0x0d) && (c < 0x1c || c > 0x1f)) {
            return false;
        }
    }
    return true;
}

static void s_service(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh) {
    s_head(w, sh, "service");
    anvil__idl_out_cstr(&w->out, "{");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    const struct anvil_json *version = anvil_json_object_get_cstr(sh->def, "version");
    if (version && !anvil_json_is_string(version)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `version` must be a string", ANVIL__IW_SHOW(sh->id));
        return;
    }
    if (version && !s_blank(anvil_json_string(version))) {
        anvil__idl_out_cstr(&w->out, "version: ");
        anvil__idl_out_quoted(&w->out, anvil_json_string(version));
        anvil__idl_out_nl(&w->out);
    }
    s_id_list(w, sh, "operations");
    s_id_list(w, sh, "resources");
    s_id_list(w, sh, "errors");
    const struct anvil_json *rename = anvil_json_object_get_cstr(sh->def, "rename");
    if (rename && !anvil_json_is_object(rename)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `rename` must be an object", ANVIL__IW_SHOW(sh->id));
        return;
    }
    if (anvil_json_len(rename) > 0) {
        anvil__idl_out_cstr(&w->out, "rename: {");
        anvil__idl_out_nl(&w->out);
        w->out.indent++;
        for (size_t i = 0; i < anvil_json_len(rename); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(rename, i);
            if (!anvil_json_is_string(&m->value)) {
                anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `rename` values must be strings",
                               ANVIL__IW_SHOW(sh->id));
                return;
            }
            anvil__idl_out_quoted(&w->out, anvil_json_member_key(m));
            anvil__idl_out_cstr(&w->out, ": ");
            anvil__idl_out_quoted(&w->out, anvil_json_string(&m->value));
            anvil__idl_out_nl(&w->out);
        }
        w->out.indent--;
        anvil__idl_out_cstr(&w->out, "}");
        anvil__idl_out_nl(&w->out);
    }
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "}");
    anvil__idl_out_nl(&w->out);
    anvil__idl_out_nl(&w->out);
}

/* `identifiers` (sorted by name) or `properties` (as given) of a resource. */
static void s_named_ids(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh, const char *key, bool sorted) {
    const struct anvil_json *obj = anvil_json_object_get_cstr(sh->def, key);
    if (obj && !anvil_json_is_object(obj)) {
        anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: `%s` must be an object", ANVIL__IW_SHOW(sh->id), key);
        return;
    }
    size_t n = anvil_json_len(obj);
    if (n == 0) {
        return;
    }
    const struct anvil_json_member **entries = anvil__iw_alloc(w, n * sizeof(*entries));
    if (!entries) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        entries[i] = anvil_json_object_at(obj, i);
    }
    if (sorted) {
        qsort(entries, n, sizeof(*entries), anvil__iw_member_qcmp);
    }
    anvil__idl_out_cstr(&w->out, key);
    anvil__idl_out_cstr(&w->out, ": {");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    for (size_t i = 0; i < n; i++) {
        struct anvil_str_view target;
        if (!s_target_of(w, &entries[i]->value, sh->id, key, anvil_sv("", 0), &target)) {
            return;
        }
        anvil__idl_out_key(&w->out, anvil_json_member_key(entries[i]));
        anvil__idl_out_cstr(&w->out, ": ");
        anvil__iw_id(w, target);
        anvil__idl_out_nl(&w->out);
    }
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "}");
    anvil__idl_out_nl(&w->out);
}

static void s_resource(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh) {
    static const char *const lifecycle[] = {"put", "create", "read", "update", "delete", "list"};
    s_head(w, sh, "resource");
    anvil__idl_out_cstr(&w->out, "{");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    s_named_ids(w, sh, "identifiers", true);
    s_named_ids(w, sh, "properties", false);
    for (size_t i = 0; i < sizeof(lifecycle) / sizeof(lifecycle[0]); i++) {
        const struct anvil_json *ref = anvil_json_object_get_cstr(sh->def, lifecycle[i]);
        struct anvil_str_view target;
        if (ref) {
            if (!s_target_of(w, ref, sh->id, lifecycle[i], anvil_sv("", 0), &target)) {
                return;
            }
            anvil__idl_out_cstr(&w->out, lifecycle[i]);
            anvil__idl_out_cstr(&w->out, ": ");
            anvil__iw_id(w, target);
            anvil__idl_out_nl(&w->out);
        }
    }
    s_id_list(w, sh, "operations");
    s_id_list(w, sh, "collectionOperations");
    s_id_list(w, sh, "resources");
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "}");
    anvil__idl_out_nl(&w->out);
    anvil__idl_out_nl(&w->out);
}

static void s_operation(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh) {
    s_head(w, sh, "operation");
    anvil__idl_out_cstr(&w->out, "{");
    anvil__idl_out_nl(&w->out);
    w->out.indent++;
    const struct anvil__iw_shape *in = s_io(w, sh, "input", "smithy.api#input");
    const struct anvil__iw_shape *out = s_io(w, sh, "output", "smithy.api#output");
    s_id_list(w, sh, "errors");
    w->out.indent--;
    anvil__idl_out_cstr(&w->out, "}");
    anvil__idl_out_nl(&w->out);
    anvil__idl_out_nl(&w->out);
    if (in) {
        s_inherited_applies(w, in->id, in->def);
    }
    if (out) {
        s_inherited_applies(w, out->id, out->def);
    }
}

static void s_shape(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh) {
    switch (sh->kind) {
    case ANVIL__IW_LIST:
    case ANVIL__IW_SET:
    case ANVIL__IW_MAP:
    case ANVIL__IW_STRUCTURE:
    case ANVIL__IW_UNION:
    case ANVIL__IW_ENUM:
    case ANVIL__IW_INT_ENUM:
        s_head(w, sh, sh->kind == ANVIL__IW_SET ? "list" : anvil__iw_kind_names[sh->kind]); /* IDL 2.0 has no sets */
        s_members(w, sh);
        anvil__idl_out_nl(&w->out);
        s_inherited_applies(w, sh->id, sh->def);
        return;
    case ANVIL__IW_SERVICE:
        s_service(w, sh);
        return;
    case ANVIL__IW_RESOURCE:
        s_resource(w, sh);
        return;
    case ANVIL__IW_OPERATION:
        s_operation(w, sh);
        return;
    default:
        s_head(w, sh, anvil__iw_kind_names[sh->kind]);
        anvil__idl_out_nl(&w->out);
        anvil__idl_out_nl(&w->out);
        return;
    }
}

/* ---- putting the file together ---- */

static int s_shape_id_qcmp(const void *a, const void *b) {
    return anvil_sv_cmp(((const struct anvil__iw_shape *)a)->id, ((const struct anvil__iw_shape *)b)->id);
}

static int s_shape_order_qcmp(const void *a, const void *b) {
    const struct anvil__iw_shape *x = a, *y = b;
    if (x->group != y->group) {
        return x->group < y->group ? -1 : 1;
    }
    return anvil__iw_id_cmp(x->id, y->id);
}

/* SmithyIdlComponentOrder.PREFERRED: trait definitions, then these types, then the rest. */
static int s_group(struct anvil__iw_writer *w, const struct anvil__iw_shape *sh) {
    if (anvil__iw_has_trait(w, sh->id, sh->def, "smithy.api#trait")) {
        return 0;
    }
    switch (sh->kind) {
    case ANVIL__IW_SERVICE:
        return 1;
    case ANVIL__IW_RESOURCE:
        return 2;
    case ANVIL__IW_OPERATION:
        return 3;
    case ANVIL__IW_STRUCTURE:
        return 4;
    case ANVIL__IW_UNION:
        return 5;
    case ANVIL__IW_LIST:
        return 6;
    case ANVIL__IW_SET:
        return 7;
    case ANVIL__IW_MAP:
        return 8;
    default:
        return 9;
    }
}

/* Checks every entry of the AST; collects the applies and the namespace's shapes (sorted by id). */
static void s_scan(struct anvil__iw_writer *w) {
    size_t n = anvil_json_len(w->shapes), applies = 0, own = 0;
    for (size_t pass = 0; pass < 2 && anvil__iw_ok(w); pass++) {
        if (pass == 1) {
            w->applies = anvil__iw_alloc(w, applies * sizeof(*w->applies));
            w->own = anvil__iw_alloc(w, own * sizeof(*w->own));
            if (!w->applies || !w->own) {
                return;
            }
        }
        for (size_t i = 0; i < n; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(w->shapes, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            struct anvil__iw_id p;
            bool ok = anvil__iw_parse_id(key, &p);
            enum anvil__iw_kind kind = anvil__iw_kind_of(&m->value);
            if (pass == 0) {
                if (anvil_sv_find_byte(key, 0, '#') == SIZE_MAX) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "`%.*s` is not an absolute shape id (no `#`)", ANVIL__IW_SHOW(key));
                } else if (!anvil__idl_is_namespace(p.ns)) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "shape id `%.*s`: the namespace is not valid", ANVIL__IW_SHOW(key));
                } else if (!ok) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "shape id `%.*s`: `%.*s` is not a valid IDL identifier",
                                   ANVIL__IW_SHOW(key),
                                   ANVIL__IW_SHOW(!anvil__idl_is_identifier(p.name) ? p.name : p.member));
                } else if (!anvil_json_is_object(&m->value)) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: the definition must be an object",
                                   ANVIL__IW_SHOW(key));
                } else if (kind == ANVIL__IW_NONE) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: unknown type `%.*s`", ANVIL__IW_SHOW(key),
                                   ANVIL__IW_SHOW(anvil_json_string(anvil_json_object_get_cstr(&m->value, "type"))));
                } else if (p.has_member && kind != ANVIL__IW_APPLY) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "shape `%.*s`: only `apply` entries may name a member",
                                   ANVIL__IW_SHOW(key));
                } else if (kind == ANVIL__IW_APPLY && !anvil__iw_ast_shape(w, p.root)) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "apply targets `%.*s`, which is not defined",
                                   ANVIL__IW_SHOW(p.root));
                } else if (kind == ANVIL__IW_APPLY &&
                           !anvil_json_is_object(anvil_json_object_get_cstr(&m->value, "traits"))) {
                    anvil__iw_fail(w, ANVIL_EMODEL, "apply `%.*s`: `traits` must be an object", ANVIL__IW_SHOW(key));
                }
                if (!anvil__iw_ok(w)) {
                    return;
                }
                applies += kind == ANVIL__IW_APPLY;
                own += kind != ANVIL__IW_APPLY && anvil_sv_eq(p.ns, w->ns);
            } else if (kind == ANVIL__IW_APPLY) {
                struct anvil__iw_apply *a = &w->applies[w->apply_count++];
                a->key = key;
                a->root = p.root;
                a->member = p.member;
                a->has_member = p.has_member;
                a->traits = anvil_json_object_get_cstr(&m->value, "traits");
            } else if (anvil_sv_eq(p.ns, w->ns)) {
                struct anvil__iw_shape *sh = &w->own[w->own_count++];
                memset(sh, 0, sizeof(*sh));
                sh->id = key;
                sh->name = p.name;
                sh->def = &m->value;
                sh->kind = kind;
            }
        }
    }
    qsort(w->applies, w->apply_count, sizeof(*w->applies), anvil__iw_apply_qcmp);
    qsort(w->own, w->own_count, sizeof(*w->own), s_shape_id_qcmp);
}

/* Marks the inputs and outputs Smithy writes inline (getInlineableShapes with default suffixes). */
static void s_mark_inline(struct anvil__iw_writer *w) {
    static const char *const keys[] = {"input", "output"};
    static const char *const traits[] = {"smithy.api#input", "smithy.api#output"};
    static const char *const suffixes[] = {"Input", "Output"};
    for (size_t i = 0; i < w->own_count && anvil__iw_ok(w); i++) {
        const struct anvil__iw_shape *op = &w->own[i];
        if (op->kind != ANVIL__IW_OPERATION) {
            continue;
        }
        for (size_t k = 0; k < 2; k++) {
            struct anvil_str_view target;
            if (!s_io_target(w, op, keys[k], &target)) {
                return;
            }
            struct anvil__iw_shape *io = (struct anvil__iw_shape *)s_own_shape(w, target);
            size_t suffix = strlen(suffixes[k]);
            if (io && io->kind == ANVIL__IW_STRUCTURE && io->name.len == op->name.len + suffix &&
                memcmp(io->name.ptr, op->name.ptr, op->name.len) == 0 &&
                memcmp(io->name.ptr + op->name.len, suffixes[k], suffix) == 0 &&
                anvil__iw_has_trait(w, io->id, io->def, traits[k])) {
                io->inlined = true;
            }
        }
    }
}

static void s_write_body(struct anvil__iw_writer *w, struct anvil_buf *body) {
    s_scan(w);
    s_mark_inline(w);
    if (!anvil__iw_ok(w)) {
        return;
    }
    /* Written in order, but looked up by id: sort a copy. */
    struct anvil__iw_shape *order = anvil__iw_alloc(w, w->own_count * sizeof(*order));
    if (!order) {
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < w->own_count; i++) {
        if (!w->own[i].inlined) {
            order[n] = w->own[i];
            order[n].group = s_group(w, &order[n]);
            n++;
        }
    }
    qsort(order, n, sizeof(*order), s_shape_order_qcmp);
    anvil__idl_out_start(&w->out, body);
    for (size_t i = 0; i < n && anvil__iw_ok(w); i++) {
        s_shape(w, &order[i]);
    }
    if (!w->out.line_start) {
        anvil__idl_out_nl(&w->out);
    }
}

static void s_write_metadata(struct anvil__iw_writer *w, const struct anvil_json *metadata) {
    size_t n = anvil_json_len(metadata);
    const struct anvil_json_member **entries = anvil__iw_alloc(w, n * sizeof(*entries));
    if (!entries) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        entries[i] = anvil_json_object_at(metadata, i);
    }
    qsort(entries, n, sizeof(*entries), anvil__iw_member_qcmp);
    for (size_t i = 0; i < n && anvil__iw_ok(w); i++) {
        struct anvil_str_view key = anvil_json_member_key(entries[i]);
        if (!anvil__iw_check_depth(w, &entries[i]->value, key)) {
            return;
        }
        anvil__idl_out_cstr(&w->out, "metadata ");
        anvil__idl_out_key(&w->out, key);
        anvil__idl_out_cstr(&w->out, " = ");
        anvil__iw_node(w, &entries[i]->value, NULL, 0);
        anvil__idl_out_nl(&w->out);
    }
}

static int s_write_file(struct anvil__iw_writer *w, const struct anvil_json *metadata, bool with_metadata,
                        struct anvil_buf *out) {
    struct anvil_buf body;
    size_t room = out->max_len > out->len ? out->max_len - out->len : 1;
    anvil_buf_init(&body, w->allocator, room);
    if (w->ns.len > 0) {
        s_write_body(w, &body);
    }
    bool has_metadata = with_metadata && anvil_json_len(metadata) > 0;
    anvil__idl_out_start(&w->out, out);
    anvil__idl_out_raw(&w->out, "$version: \"2.0\"\n", 16);
    if (has_metadata || w->ns.len > 0) {
        anvil__idl_out_raw(&w->out, "\n", 1);
    }
    if (has_metadata) {
        s_write_metadata(w, metadata);
    }
    if (w->ns.len > 0) {
        if (has_metadata) {
            anvil__idl_out_raw(&w->out, "\n", 1);
        }
        anvil__idl_out_raw(&w->out, "namespace ", 10);
        anvil__idl_out_raw(&w->out, w->ns.ptr, w->ns.len);
        anvil__idl_out_raw(&w->out, "\n\n", 2);
    }
    if (w->imports.count > 0) {
        struct anvil_str_view *uses = anvil__iw_alloc(w, w->imports.count * sizeof(*uses));
        size_t n = 0;
        for (size_t i = 0; uses && i <= w->imports.mask; i++) {
            if (w->imports.slots[i].ptr) {
                uses[n++] = w->imports.slots[i];
            }
        }
        if (uses) {
            qsort(uses, n, sizeof(*uses), anvil__iw_id_qcmp);
            for (size_t i = 0; i < n; i++) {
                anvil__idl_out_raw(&w->out, "use ", 4);
                anvil__idl_out_raw(&w->out, uses[i].ptr, uses[i].len);
                anvil__idl_out_raw(&w->out, "\n", 1);
            }
            anvil__idl_out_raw(&w->out, "\n", 1);
        }
    }
    anvil__idl_out_raw(&w->out, body.data, body.len);
    anvil_buf_clean_up(&body);
    anvil__iw_take_text_failure(w);
    return w->rc;
}

int anvil__idl_write(const struct anvil_json *ast, struct anvil_str_view ns,
                     const struct anvil_idl_write_options *options, struct anvil_buf *out, struct anvil_diag *diag) {
    if (!ast || !out || (ns.len > 0 && !ns.ptr)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "anvil__idl_write needs a model and a buffer");
    }
    if (ns.len > 0 && !anvil__idl_is_namespace(ns)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s` is not a namespace", ANVIL__IW_SHOW(ns));
    }
    if (!anvil_json_is_object(ast)) {
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "a JSON AST model must be an object, not %s",
                              anvil_json_type_name(anvil_json_type(ast)));
    }
    const struct anvil_json *shapes = anvil_json_object_get_cstr(ast, "shapes");
    const struct anvil_json *metadata = anvil_json_object_get_cstr(ast, "metadata");
    if (shapes && !anvil_json_is_object(shapes)) {
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "the model's `shapes` must be an object");
    }
    if (metadata && !anvil_json_is_object(metadata)) {
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "the model's `metadata` must be an object");
    }
    struct anvil__iw_writer w;
    memset(&w, 0, sizeof(w));
    w.shapes = shapes;
    w.ns = ns;
    w.diag = diag;
    w.allocator = out->allocator;
    w.imports.by_name = true;
    w.written.by_name = true;
    anvil_buf_init(&w.scratch, w.allocator, 0);
    size_t start = out->len;
    int rc = anvil_arena_new(w.allocator, NULL, &w.arena);
    if (rc == ANVIL_OK) {
        rc = s_write_file(&w, metadata, options && options->with_metadata, out);
    } else {
        anvil_diag_set(diag, rc, 0, 0, 0, "out of memory");
    }
    if (rc != ANVIL_OK) {
        anvil_buf_truncate(out, start);
    }
    anvil_mem_release(w.allocator, w.traits);
    anvil_buf_clean_up(&w.scratch);
    anvil_arena_destroy(w.arena);
    return rc;
}

/* The namespace of entry `i` of a list of ids (empty: not a namespace to write). */
typedef struct anvil_str_view s_namespace_at_fn(const void *ids, size_t i);

static struct anvil_str_view s_ast_namespace(const void *ids, size_t i) {
    const struct anvil_json_member *m = anvil_json_object_at(ids, i);
    struct anvil__iw_id p;
    if (!anvil__iw_parse_id(anvil_json_member_key(m), &p) || p.has_member || anvil__iw_is_apply(&m->value)) {
        return anvil_sv("", 0);
    }
    return p.ns;
}

static struct anvil_str_view s_model_namespace(const void *ids, size_t i) {
    const struct anvil_model *model = ids;
    struct anvil_str_view id = anvil_shape_id(anvil_model_shape_at(model, i));
    size_t hash = anvil_sv_find_byte(id, 0, '#');
    return hash == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(id, 0, hash);
}

/* The distinct namespaces of `n` ids, sorted, without the prelude's. */
static size_t s_namespaces(const void *ids, size_t n, s_namespace_at_fn *at, struct anvil_str_view *out, size_t cap) {
    enum { BATCH = 64 };
    size_t total = 0;
    struct anvil_str_view bound = {NULL, 0};
    bool bounded = false;
    /* Rounds of the BATCH smallest namespaces above the last round's largest: no allocation. */
    for (;;) {
        struct anvil_str_view batch[BATCH];
        size_t count = 0;
        for (size_t i = 0; i < n; i++) {
            struct anvil_str_view ns = at(ids, i);
            if (!ns.len || anvil__iw_is(ns, "smithy.api") || (bounded && anvil_sv_cmp(ns, bound) <= 0)) {
                continue;
            }
            size_t lo = 0, hi = count;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (anvil_sv_cmp(batch[mid], ns) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if ((lo < count && anvil_sv_eq(batch[lo], ns)) || lo == BATCH) {
                continue;
            }
            if (count == BATCH) {
                count--;
            }
            memmove(batch + lo + 1, batch + lo, (count - lo) * sizeof(batch[0]));
            batch[lo] = ns;
            count++;
        }
        for (size_t i = 0; i < count; i++, total++) {
            if (total < cap) {
                out[total] = batch[i];
            }
        }
        if (count < BATCH) {
            return total;
        }
        bound = batch[BATCH - 1];
        bounded = true;
    }
}

size_t anvil__idl_namespaces(const struct anvil_json *ast, struct anvil_str_view *out, size_t cap) {
    const struct anvil_json *shapes = anvil_json_object_get_cstr(ast, "shapes");
    size_t n = anvil_json_is_object(shapes) ? anvil_json_len(shapes) : 0;
    return s_namespaces(shapes, n, s_ast_namespace, out, cap);
}

/* ---- the public API (anvil/model.h) ---- */

size_t anvil_model_namespaces(const struct anvil_model *model, struct anvil_str_view *out, size_t cap) {
    return model ? s_namespaces(model, anvil_model_shape_count(model), s_model_namespace, out, cap) : 0;
}

int anvil_model_write_idl(const struct anvil_model *model, struct anvil_str_view ns,
                          const struct anvil_idl_write_options *options, struct anvil_buf *out,
                          struct anvil_diag *diag) {
    if (!model) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "anvil_model_write_idl needs a model");
    }
    const struct anvil_json *ast = anvil_model_ast(model);
    if (!ast) {
        return anvil_diag_set(diag, ANVIL_ENOMEM, 0, 0, 0, "out of memory");
    }
    return anvil__idl_write(ast, ns, options, out, diag);
}
