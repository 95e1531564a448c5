/*
 * The IDL writer's view of the model (idl_write_internal.h): shape ids and
 * their order, a set of views, shape and trait lookup through `apply`
 * entries and mixins, shape ids as written, and node values.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "model/idl_write_internal.h"
#include "model/model_internal.h"

/*
 * Trait shapes defined outside the AST whose values hold shape ids (members
 * or shapes with @idRef), as a small JSON AST: the prelude's and those of the
 * AWS traits (smithy-aws-traits, aws-cloudformation, smoke tests). Only what
 * leads to an @idRef is listed. A string naming a shape neither the model nor
 * this list defines stays a string (Smithy, which may know more shapes, can
 * write it as a shape id; anvil writes what reads back without a warning).
 */
static const char s_ext[] =
    "{"
    "\"smithy.api#auth\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#AuthTraitReference\"}},"
    "\"smithy.api#AuthTraitReference\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"smithy.api#protocolDefinition\":{\"type\":\"structure\",\"members\":{"
    "\"traits\":{\"target\":\"smithy.api#TraitShapeIdList\"}}},"
    "\"smithy.api#authDefinition\":{\"type\":\"structure\",\"members\":{"
    "\"traits\":{\"target\":\"smithy.api#TraitShapeIdList\"}}},"
    "\"smithy.api#TraitShapeIdList\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#TraitShapeId\"}},"
    "\"smithy.api#TraitShapeId\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"smithy.api#examples\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#Example\"}},"
    "\"smithy.api#Example\":{\"type\":\"structure\",\"members\":{\"error\":{\"target\":\"smithy.api#ExampleError\"}}},"
    "\"smithy.api#ExampleError\":{\"type\":\"structure\",\"members\":{"
    "\"shapeId\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}}}},"
    "\"smithy.api#idempotent\":{\"type\":\"structure\",\"members\":{"
    "\"exists\":{\"target\":\"smithy.api#IdempotentErrors\"},\"notFound\":{\"target\":\"smithy.api#IdempotentErrors\"}}},"
    "\"smithy.api#IdempotentErrors\":{\"type\":\"list\",\"member\":{"
    "\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}}},"
    "\"smithy.api#mixin\":{\"type\":\"structure\",\"members\":{"
    "\"localTraits\":{\"target\":\"smithy.api#LocalMixinTraitList\"}}},"
    "\"smithy.api#LocalMixinTraitList\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#LocalMixinTrait\"}},"
    "\"smithy.api#LocalMixinTrait\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"smithy.api#ShapeClosures\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#ShapeClosure\"}},"
    "\"smithy.api#ShapeClosure\":{\"type\":\"structure\",\"members\":{\"id\":{\"target\":\"smithy.api#ClosureId\"}}},"
    "\"smithy.api#ClosureId\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"aws.api#clientEndpointDiscovery\":{\"type\":\"structure\",\"members\":{"
    "\"operation\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"error\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}}}},"
    "\"aws.api#taggable\":{\"type\":\"structure\",\"members\":{\"apiConfig\":{\"target\":\"aws.api#TaggableApiConfig\"}}},"
    "\"aws.api#TaggableApiConfig\":{\"type\":\"structure\",\"members\":{"
    "\"tagApi\":{\"target\":\"aws.api#TagOperationReference\"},"
    "\"untagApi\":{\"target\":\"aws.api#TagOperationReference\"},"
    "\"listTagsApi\":{\"target\":\"aws.api#TagOperationReference\"}}},"
    "\"aws.api#TagOperationReference\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"aws.api#tagEnabled\":{\"type\":\"structure\",\"members\":{"
    "\"apiConfig\":{\"target\":\"aws.api#TaggableServiceApiConfig\"}}},"
    "\"aws.api#TaggableServiceApiConfig\":{\"type\":\"structure\",\"members\":{"
    "\"tagApi\":{\"target\":\"aws.api#ServiceTagOperationReference\"},"
    "\"untagApi\":{\"target\":\"aws.api#ServiceTagOperationReference\"},"
    "\"listTagsApi\":{\"target\":\"aws.api#ServiceTagOperationReference\"}}},"
    "\"aws.api#ServiceTagOperationReference\":{\"type\":\"string\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"aws.cloudformation#cfnResource\":{\"type\":\"structure\",\"members\":{"
    "\"additionalSchemas\":{\"target\":\"aws.cloudformation#StructureIdList\"}}},"
    "\"aws.cloudformation#StructureIdList\":{\"type\":\"list\",\"member\":{"
    "\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}}},"
    "\"smithy.test#smokeTests\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.test#SmokeTestCase\"}},"
    "\"smithy.test#SmokeTestCase\":{\"type\":\"structure\",\"members\":{"
    "\"vendorParamsShape\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}},"
    "\"expect\":{\"target\":\"smithy.test#Expectation\"}}},"
    "\"smithy.test#Expectation\":{\"type\":\"structure\",\"members\":{"
    "\"failure\":{\"target\":\"smithy.test#FailureExpectation\"}}},"
    "\"smithy.test#FailureExpectation\":{\"type\":\"structure\",\"members\":{"
    "\"errorId\":{\"target\":\"smithy.api#String\",\"traits\":{\"smithy.api#idRef\":{}}}}}"
    "}";

const char *const anvil__iw_kind_names[ANVIL__IW_NONE] = {
    "blob",      "boolean",    "string",     "byte",      "short",    "integer",  "long",      "float",
    "double",    "bigDecimal", "bigInteger", "timestamp", "document", "list",     "set",       "map",
    "structure", "union",      "enum",       "intEnum",   "service",  "resource", "operation", "apply"};

/* ---- errors ---- */

/* Records the first failure and its message; later ones are dropped. */
void(anvil__iw_fail)(ANVIL__ORIGIN_DECL struct anvil__iw_writer *w, int code, const char *fmt, ...) {
    if (!anvil__iw_ok(w)) {
        return;
    }
    w->rc = code;
    va_list args;
    va_start(args, fmt);
    anvil_diag_vset(w->diag, code, 0, 0, 0, fmt, args);
    va_end(args);
    ANVIL__ORIGIN_NOTE(w->diag, code);
}

void anvil__iw_fail_status(struct anvil__iw_writer *w, int rc) {
    if (rc == ANVIL_ELIMIT) {
        anvil__iw_fail(w, rc, "the IDL text reached the output buffer's size limit");
    } else if (rc == ANVIL_ENOMEM) {
        anvil__iw_fail(w, rc, "out of memory");
    } else if (rc != ANVIL_OK) {
        anvil__iw_fail(w, rc, "writing the IDL text failed: %s", anvil_status_str(rc));
    }
}

/* Makes a failure of the text (idl_text.h) the writer's, with its message. */
void anvil__iw_take_text_failure(struct anvil__iw_writer *w) {
    int rc = w->out.rc;
    if (w->rc != ANVIL_OK || rc == ANVIL_OK) {
        return;
    }
    w->out.rc = ANVIL_OK;
    if (rc == ANVIL_EMODEL) {
        anvil__iw_fail(w, rc, "a number in the model is not finite (the IDL has no NaN or Infinity)");
    } else {
        anvil__iw_fail_status(w, rc);
    }
}

void *anvil__iw_alloc(struct anvil__iw_writer *w, size_t size) {
    void *p = anvil__iw_ok(w) ? anvil_arena_alloc(w->arena, size ? size : 1, 0) : NULL;
    if (!p && anvil_arena_exhausted(w->arena)) {
        anvil__iw_fail(w, ANVIL_ELIMIT, "the IDL writer's working memory reached its limit");
    } else if (!p) {
        anvil__iw_fail_status(w, ANVIL_ENOMEM);
    }
    return p;
}

/* ---- identifiers, shape ids and their order ---- */

bool anvil__iw_parse_id(struct anvil_str_view id, struct anvil__iw_id *out) {
    memset(out, 0, sizeof(*out));
    size_t hash = anvil_sv_find_byte(id, 0, '#');
    if (hash == SIZE_MAX) {
        return false;
    }
    out->ns = anvil_sv(id.ptr, hash);
    struct anvil_str_view rest = anvil_sv(id.ptr + hash + 1, id.len - hash - 1);
    size_t dollar = anvil_sv_find_byte(rest, 0, '$');
    out->has_member = dollar != SIZE_MAX;
    out->name = out->has_member ? anvil_sv(rest.ptr, dollar) : rest;
    if (out->has_member) {
        out->member = anvil_sv(rest.ptr + dollar + 1, rest.len - dollar - 1);
    }
    out->root = anvil_sv(id.ptr, hash + 1 + out->name.len);
    return anvil__idl_is_namespace(out->ns) && anvil__idl_is_identifier(out->name) &&
           (!out->has_member || anvil__idl_is_identifier(out->member));
}

static char s_lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Smithy's ShapeId order: ignoring ASCII case, then by bytes. */
int anvil__iw_id_cmp(struct anvil_str_view a, struct anvil_str_view b) {
    size_t n = a.len < b.len ? a.len : b.len;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)s_lower(a.ptr[i]), y = (unsigned char)s_lower(b.ptr[i]);
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    if (a.len != b.len) {
        return a.len < b.len ? -1 : 1;
    }
    return anvil_sv_cmp(a, b);
}

int anvil__iw_id_qcmp(const void *a, const void *b) {
    return anvil__iw_id_cmp(*(const struct anvil_str_view *)a, *(const struct anvil_str_view *)b);
}

/* The code point at s[*i] (a stray or cut byte stands for itself), advancing *i. */
static uint32_t s_utf8_next(struct anvil_str_view s, size_t *i) {
    unsigned char c = (unsigned char)s.ptr[*i];
    size_t n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (n == 0 || *i + n >= s.len) {
        (*i)++;
        return c;
    }
    uint32_t cp = c & (0x3fu >> n);
    for (size_t k = 1; k <= n; k++) {
        cp = (cp << 6) | ((unsigned char)s.ptr[*i + k] & 0x3f);
    }
    *i += n + 1;
    return cp;
}

/* Java's String order (UTF-16 code units): metadata keys, resource identifiers. */
static int s_utf16_cmp(struct anvil_str_view a, struct anvil_str_view b) {
    size_t i = 0, j = 0;
    while (i < a.len && j < b.len) {
        uint32_t x = s_utf8_next(a, &i), y = s_utf8_next(b, &j);
        if (x != y) {
            uint32_t ux = x < 0x10000 ? x : 0xd800 + ((x - 0x10000) >> 10);
            uint32_t uy = y < 0x10000 ? y : 0xd800 + ((y - 0x10000) >> 10);
            if (ux != uy) {
                return ux < uy ? -1 : 1;
            }
            return x < y ? -1 : 1;
        }
    }
    return i < a.len ? 1 : j < b.len ? -1 : 0;
}

int anvil__iw_member_qcmp(const void *a, const void *b) {
    const struct anvil_json_member *x = *(const struct anvil_json_member *const *)a;
    const struct anvil_json_member *y = *(const struct anvil_json_member *const *)b;
    return s_utf16_cmp(anvil_json_member_key(x), anvil_json_member_key(y));
}

enum anvil__iw_kind anvil__iw_kind_of(const struct anvil_json *def) {
    struct anvil_str_view type = anvil_json_string(anvil_json_object_get_cstr(def, "type"));
    for (int k = 0; k < ANVIL__IW_NONE; k++) {
        if (anvil_sv_eq_cstr(type, anvil__iw_kind_names[k])) {
            return (enum anvil__iw_kind)k;
        }
    }
    return ANVIL__IW_NONE;
}

/* ---- a set of views ---- */

static struct anvil_str_view s_set_key(const struct anvil__iw_set *set, struct anvil_str_view v) {
    if (set->by_name) {
        size_t hash = anvil_sv_find_byte(v, 0, '#');
        if (hash != SIZE_MAX) {
            return anvil_sv(v.ptr + hash + 1, v.len - hash - 1);
        }
    }
    return v;
}

const struct anvil_str_view *anvil__iw_set_find(const struct anvil__iw_set *set, struct anvil_str_view v) {
    if (!set->slots) {
        return NULL;
    }
    struct anvil_str_view key = s_set_key(set, v);
    size_t slot = anvil_json_hash(key.ptr, key.len) & set->mask;
    while (set->slots[slot].ptr) {
        if (anvil_sv_eq(s_set_key(set, set->slots[slot]), key)) {
            return &set->slots[slot];
        }
        slot = (slot + 1) & set->mask;
    }
    return NULL;
}

static void s_set_put(struct anvil__iw_set *set, struct anvil_str_view v) {
    struct anvil_str_view key = s_set_key(set, v);
    size_t slot = anvil_json_hash(key.ptr, key.len) & set->mask;
    while (set->slots[slot].ptr) {
        slot = (slot + 1) & set->mask;
    }
    set->slots[slot] = v;
    set->count++;
}

/* Adds `v` unless an equal key is there. */
void anvil__iw_set_add(struct anvil__iw_writer *w, struct anvil__iw_set *set, struct anvil_str_view v) {
    if (anvil__iw_set_find(set, v)) {
        return;
    }
    if (!set->slots || (set->count + 1) * 2 > set->mask + 1) {
        size_t cap = set->slots ? (set->mask + 1) * 2 : 16;
        struct anvil_str_view *old = set->slots;
        size_t old_cap = set->slots ? set->mask + 1 : 0;
        struct anvil_str_view *slots = anvil__iw_alloc(w, cap * sizeof(*slots));
        if (!slots) {
            return;
        }
        memset(slots, 0, cap * sizeof(*slots));
        set->slots = slots;
        set->mask = cap - 1;
        set->count = 0;
        for (size_t i = 0; i < old_cap; i++) {
            if (old[i].ptr) {
                s_set_put(set, old[i]);
            }
        }
    }
    s_set_put(set, v);
}

/* Whether `v` nests at most `left` levels of arrays and objects (checked before writing it). */
static bool s_depth_ok(const struct anvil_json *v, size_t left) {
    if (!anvil_json_is_array(v) && !anvil_json_is_object(v)) {
        return true;
    }
    if (left == 0) {
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(v); i++) {
        const struct anvil_json *item =
            anvil_json_is_array(v) ? anvil_json_array_at(v, i) : &anvil_json_object_at(v, i)->value;
        if (!s_depth_ok(item, left - 1)) {
            return false;
        }
    }
    return true;
}

bool anvil__iw_check_depth(struct anvil__iw_writer *w, const struct anvil_json *v, struct anvil_str_view where) {
    if (s_depth_ok(v, ANVIL_JSON_MAX_DEPTH)) {
        return true;
    }
    anvil__iw_fail(w, ANVIL_ELIMIT, "`%.*s`: a value nests deeper than %d levels", ANVIL__IW_SHOW(where),
                   ANVIL_JSON_MAX_DEPTH);
    return false;
}

/* ---- looking shapes up ---- */

bool anvil__iw_is_apply(const struct anvil_json *def) {
    return anvil_sv_eq_cstr(anvil_json_string(anvil_json_object_get_cstr(def, "type")), "apply");
}

/* A shape of the AST (not an `apply`), or NULL. */
const struct anvil_json *anvil__iw_ast_shape(const struct anvil__iw_writer *w, struct anvil_str_view id) {
    const struct anvil_json *def = anvil_json_object_get(w->shapes, id.ptr, id.len);
    return def && !anvil__iw_is_apply(def) ? def : NULL;
}

static const struct anvil_json *s_ext_shape(struct anvil__iw_writer *w, struct anvil_str_view id) {
    if (!w->ext_parsed) {
        w->ext_parsed = true;
        int rc = anvil_json_parse_into(w->arena, w->allocator, s_ext, sizeof(s_ext) - 1, NULL, &w->ext, NULL);
        if (rc != ANVIL_OK) {
            w->ext = anvil_json_make_null();
            anvil__iw_fail_status(w, rc == ANVIL_ENOMEM || rc == ANVIL_ELIMIT ? ANVIL_ENOMEM : ANVIL_EINTERNAL);
        }
    }
    return anvil_json_object_get(&w->ext, id.ptr, id.len);
}

/* A shape of the AST, else one of s_ext. */
const struct anvil_json *anvil__iw_find(struct anvil__iw_writer *w, struct anvil_str_view id) {
    const struct anvil_json *def = anvil__iw_ast_shape(w, id);
    return def ? def : s_ext_shape(w, id);
}

static int s_apply_cmp(const struct anvil__iw_apply *a, struct anvil_str_view root, bool has_member,
                       struct anvil_str_view member) {
    int c = anvil_sv_cmp(a->root, root);
    if (c == 0 && a->has_member != has_member) {
        c = a->has_member ? 1 : -1;
    }
    if (c == 0) {
        c = anvil_sv_cmp(a->member, member);
    }
    return c;
}

int anvil__iw_apply_qcmp(const void *a, const void *b) {
    const struct anvil__iw_apply *y = b;
    return s_apply_cmp(a, y->root, y->has_member, y->member);
}

/* The traits `apply`-ed to `root` (no member) or to `root$member`, or NULL. */
const struct anvil_json *anvil__iw_applied(const struct anvil__iw_writer *w, struct anvil_str_view root,
                                           bool has_member, struct anvil_str_view member) {
    size_t lo = 0, hi = w->apply_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = s_apply_cmp(&w->applies[mid], root, has_member, member);
        if (c == 0) {
            return w->applies[mid].traits;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

/* The `apply` entries naming members of `root`: [*lo, *hi). */
void anvil__iw_apply_range(const struct anvil__iw_writer *w, struct anvil_str_view root, size_t *lo, size_t *hi) {
    size_t a = 0, b = w->apply_count;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (s_apply_cmp(&w->applies[mid], root, true, anvil_sv("", 0)) < 0) {
            a = mid + 1;
        } else {
            b = mid;
        }
    }
    *lo = a;
    while (a < w->apply_count && anvil_sv_eq(w->applies[a].root, root)) {
        a++;
    }
    *hi = a;
}

const struct anvil_json *anvil__iw_mixins_of(const struct anvil_json *def) {
    const struct anvil_json *mixins = anvil_json_object_get_cstr(def, "mixins");
    return anvil_json_is_array(mixins) ? mixins : NULL;
}

struct anvil_str_view anvil__iw_mixin_at(const struct anvil_json *mixins, size_t i) {
    return anvil_json_string(anvil_json_object_get_cstr(anvil_json_array_at(mixins, i), "target"));
}

/* Whether mixin `mixin_def` keeps `trait` to itself (@mixin(localTraits: [...])). */
bool anvil__iw_local_trait(const struct anvil_json *mixin_def, const char *trait, size_t trait_len) {
    const struct anvil_json *local = anvil_json_object_get_cstr(
        anvil_json_object_get_cstr(anvil_json_object_get_cstr(mixin_def, "traits"), "smithy.api#mixin"), "localTraits");
    for (size_t i = 0; i < anvil_json_len(local); i++) {
        if (anvil_sv_eq(anvil_json_string(anvil_json_array_at(local, i)), anvil_sv(trait, trait_len))) {
            return true;
        }
    }
    return false;
}

/* The value of `trait` on shape `id`: applied, its own, or inherited from a mixin. */
static const struct anvil_json *s_trait_of(struct anvil__iw_writer *w, struct anvil_str_view id,
                                           const struct anvil_json *def, const char *trait, unsigned depth,
                                           unsigned *budget) {
    if (*budget == 0 || depth > ANVIL__IW_MIXIN_DEPTH) {
        return NULL;
    }
    (*budget)--;
    const struct anvil_json *v = anvil_json_object_get_cstr(anvil__iw_applied(w, id, false, anvil_sv("", 0)), trait);
    if (!v) {
        v = anvil_json_object_get_cstr(anvil_json_object_get_cstr(def, "traits"), trait);
    }
    if (v || strcmp(trait, "smithy.api#mixin") == 0) {
        return v;
    }
    const struct anvil_json *mixins = anvil__iw_mixins_of(def);
    for (size_t i = 0; i < anvil_json_len(mixins) && !v; i++) {
        struct anvil_str_view mid = anvil__iw_mixin_at(mixins, i);
        const struct anvil_json *mdef = anvil__iw_find(w, mid);
        if (mdef && !anvil__iw_local_trait(mdef, trait, strlen(trait))) {
            v = s_trait_of(w, mid, mdef, trait, depth + 1, budget);
        }
    }
    return v;
}

bool anvil__iw_has_trait(struct anvil__iw_writer *w, struct anvil_str_view id, const struct anvil_json *def,
                         const char *trait) {
    unsigned budget = ANVIL__IW_MIXIN_BUDGET;
    return s_trait_of(w, id, def, trait, 0, &budget) != NULL;
}

/* Member `name` defined by `def` itself (lists: member; maps: key, value; others: members). */
const struct anvil_json *anvil__iw_own_member(const struct anvil_json *def, struct anvil_str_view name) {
    switch (anvil__iw_kind_of(def)) {
    case ANVIL__IW_LIST:
    case ANVIL__IW_SET:
        return anvil__iw_is(name, "member") ? anvil_json_object_get_cstr(def, "member") : NULL;
    case ANVIL__IW_MAP:
        return anvil__iw_is(name, "key") || anvil__iw_is(name, "value") ? anvil_json_object_get(def, name.ptr, name.len)
                                                                        : NULL;
    default:
        return anvil_json_object_get(anvil_json_object_get_cstr(def, "members"), name.ptr, name.len);
    }
}

/*
 * Member `name` of shape `id`: its own, else the first mixin's that has it.
 * When `trait` is given, `*trait_value` gets its value on the member, taking
 * traits introduced on the way (apply) before the definition's.
 */
static const struct anvil_json *s_member_of(struct anvil__iw_writer *w, struct anvil_str_view id,
                                            const struct anvil_json *def, struct anvil_str_view name, const char *trait,
                                            const struct anvil_json **trait_value, unsigned depth, unsigned *budget) {
    if (*budget == 0 || depth > ANVIL__IW_MIXIN_DEPTH || !def) {
        return NULL;
    }
    (*budget)--;
    if (trait && !*trait_value) {
        *trait_value = anvil_json_object_get_cstr(anvil__iw_applied(w, id, true, name), trait);
    }
    const struct anvil_json *m = anvil__iw_own_member(def, name);
    if (m) {
        if (trait && !*trait_value) {
            *trait_value = anvil_json_object_get_cstr(anvil_json_object_get_cstr(m, "traits"), trait);
        }
        return m;
    }
    const struct anvil_json *mixins = anvil__iw_mixins_of(def);
    for (size_t i = 0; i < anvil_json_len(mixins); i++) {
        struct anvil_str_view mid = anvil__iw_mixin_at(mixins, i);
        m = s_member_of(w, mid, anvil__iw_find(w, mid), name, trait, trait_value, depth + 1, budget);
        if (m) {
            return m;
        }
    }
    return NULL;
}

/* Whether `ns#name` is a shape of the AST (a local shape shadows the prelude and imports). */
static bool s_local_has(struct anvil__iw_writer *w, struct anvil_str_view name) {
    anvil_buf_clear(&w->scratch);
    int rc = anvil_buf_append_sv(&w->scratch, w->ns);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&w->scratch, '#');
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_sv(&w->scratch, name);
    }
    if (rc != ANVIL_OK) {
        anvil__iw_fail_status(w, rc == ANVIL_ELIMIT ? ANVIL_ENOMEM : rc);
        return false;
    }
    return anvil__iw_ast_shape(w, anvil_buf_view(&w->scratch)) != NULL;
}

static bool s_public_prelude_name(struct anvil_str_view name) {
    return anvil__prelude_type(name, NULL) && !anvil__prelude_private(name);
}

static void s_known_add(struct anvil__iw_writer *w, const struct anvil_json *traits) {
    for (size_t t = 0; t < anvil_json_len(traits) && anvil_json_is_object(traits); t++) {
        anvil__iw_set_add(w, &w->known, anvil_json_member_key(anvil_json_object_at(traits, t)));
    }
}

static void s_known_add_target(struct anvil__iw_writer *w, const struct anvil_json *ref) {
    const struct anvil_json *target = anvil_json_object_get_cstr(ref, "target");
    if (anvil_json_is_string(target)) {
        anvil__iw_set_add(w, &w->known, anvil_json_string(target));
    }
}

static void s_known_add_member(struct anvil__iw_writer *w, const struct anvil_json *member) {
    s_known_add(w, anvil_json_object_get_cstr(member, "traits"));
    s_known_add_target(w, member);
}

/*
 * Every shape the AST uses but may not define (trait ids, targets, mixins):
 * such shapes exist in the model Smithy would have loaded.
 */
static void s_build_known(struct anvil__iw_writer *w) {
    static const char *const fixed[] = {"member", "key", "value", "input", "output"};
    static const char *const lists[] = {"mixins", "errors"};
    w->known_built = true;
    for (size_t i = 0; i < anvil_json_len(w->shapes) && anvil__iw_ok(w); i++) {
        const struct anvil_json *def = &anvil_json_object_at(w->shapes, i)->value;
        s_known_add(w, anvil_json_object_get_cstr(def, "traits"));
        for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++) {
            s_known_add_member(w, anvil_json_object_get_cstr(def, fixed[k]));
        }
        for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
            const struct anvil_json *list = anvil_json_object_get_cstr(def, lists[k]);
            for (size_t m = 0; m < anvil_json_len(list) && anvil_json_is_array(list); m++) {
                s_known_add_target(w, anvil_json_array_at(list, m));
            }
        }
        const struct anvil_json *members = anvil_json_object_get_cstr(def, "members");
        for (size_t m = 0; m < anvil_json_len(members) && anvil_json_is_object(members); m++) {
            s_known_add_member(w, &anvil_json_object_at(members, m)->value);
        }
    }
}

/* Whether `s` is the absolute id of a shape Smithy's model would hold (Java's isResolvableShapeId). */
static bool s_resolvable(struct anvil__iw_writer *w, struct anvil_str_view s) {
    struct anvil__iw_id p;
    if (!anvil__iw_parse_id(s, &p)) {
        return false;
    }
    const struct anvil_json *def = anvil__iw_ast_shape(w, p.root);
    if (def) {
        unsigned budget = ANVIL__IW_MIXIN_BUDGET;
        return !p.has_member || s_member_of(w, p.root, def, p.member, NULL, NULL, 0, &budget) != NULL;
    }
    if (anvil__iw_is(p.ns, "smithy.api")) {
        return anvil__prelude_type(p.name, NULL);
    }
    if (s_ext_shape(w, p.root)) {
        return true;
    }
    if (!w->known_built) {
        s_build_known(w);
    }
    return anvil__iw_set_find(&w->known, p.root) != NULL;
}

/* ---- shape ids as written ($I in Smithy's writer), and `use` ---- */

static struct anvil_str_view s_id_text(struct anvil__iw_writer *w, struct anvil_str_view id) {
    struct anvil__iw_id p;
    if (!anvil__iw_parse_id(id, &p)) {
        return id;
    }
    struct anvil_str_view relative = anvil_sv(p.name.ptr, (size_t)(id.ptr + id.len - p.name.ptr));
    if (anvil_sv_eq(p.ns, w->ns)) {
        /* A local id no shape defines (a trait applied, not defined) must not be taken by a `use`: written
         * relative once, its name is never imported; after a `use` took its name, it is written absolute. */
        if (anvil__iw_set_find(&w->imports, p.root)) {
            return id;
        }
        if (!anvil__iw_set_find(&w->written, p.root)) {
            anvil__iw_set_add(w, &w->written, p.root);
        }
        return relative;
    }
    if (anvil__iw_is(p.ns, "smithy.api") && s_public_prelude_name(p.name)) {
        return s_local_has(w, p.name) ? id : relative;
    }
    if (!s_local_has(w, p.name) && !s_public_prelude_name(p.name) && !anvil__iw_set_find(&w->imports, p.root) &&
        !anvil__iw_set_find(&w->written, p.root)) {
        anvil__iw_set_add(w, &w->imports, p.root);
    }
    const struct anvil_str_view *imported = anvil__iw_set_find(&w->imports, p.root);
    return imported && anvil_sv_eq(*imported, id) ? relative : id;
}

void anvil__iw_id(struct anvil__iw_writer *w, struct anvil_str_view id) {
    anvil__idl_out_sv(&w->out, s_id_text(w, id));
}

/* ---- node values ---- */

void anvil__iw_ctx_shape(struct anvil__iw_writer *w, struct anvil_str_view id, struct anvil__iw_ctx *out) {
    out->id = id;
    out->def = anvil__iw_find(w, id);
    out->idref = out->def && anvil__iw_has_trait(w, id, out->def, "smithy.api#idRef");
}

/* The type of member `name` of `ctx`'s shape: idRef on the member or its target, then the target. */
static void s_ctx_member(struct anvil__iw_writer *w, const struct anvil__iw_ctx *ctx, struct anvil_str_view name,
                         struct anvil__iw_ctx *out) {
    const struct anvil_json *idref = NULL;
    unsigned budget = ANVIL__IW_MIXIN_BUDGET;
    const struct anvil_json *m = s_member_of(w, ctx->id, ctx->def, name, "smithy.api#idRef", &idref, 0, &budget);
    if (!m) {
        memset(out, 0, sizeof(*out));
        return;
    }
    anvil__iw_ctx_shape(w, anvil_json_string(anvil_json_object_get_cstr(m, "target")), out);
    out->idref = out->idref || idref != NULL;
}

static bool s_keyword(struct anvil_str_view s) {
    return anvil__iw_is(s, "true") || anvil__iw_is(s, "false") || anvil__iw_is(s, "null");
}

/* Key-value pairs, one per line (Java's serializeKeyValuePairs). */
void anvil__iw_pairs(struct anvil__iw_writer *w, const struct anvil_json *obj, const struct anvil__iw_ctx *ctx,
                     size_t depth) {
    enum anvil__iw_kind kind = ctx && ctx->def ? anvil__iw_kind_of(ctx->def) : ANVIL__IW_NONE;
    struct anvil__iw_ctx value_ctx;
    if (kind == ANVIL__IW_MAP) {
        s_ctx_member(w, ctx, anvil_sv("value", 5), &value_ctx);
    }
    for (size_t i = 0; i < anvil_json_len(obj) && anvil__iw_ok(w); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(obj, i);
        anvil__idl_out_nl(&w->out);
        anvil__idl_out_key(&w->out, anvil_json_member_key(m));
        anvil__idl_out_cstr(&w->out, ": ");
        if (kind == ANVIL__IW_MAP) {
            anvil__iw_node(w, &m->value, &value_ctx, depth + 1);
        } else if (kind == ANVIL__IW_STRUCTURE || kind == ANVIL__IW_UNION) {
            struct anvil__iw_ctx member_ctx;
            s_ctx_member(w, ctx, anvil_json_member_key(m), &member_ctx);
            anvil__iw_node(w, &m->value, &member_ctx, depth + 1);
        } else {
            anvil__iw_node(w, &m->value, ctx, depth + 1);
        }
    }
    anvil__idl_out_nl(&w->out);
}

void anvil__iw_node(struct anvil__iw_writer *w, const struct anvil_json *v, const struct anvil__iw_ctx *ctx,
                    size_t depth) {
    if (!anvil__iw_ok(w)) {
        return;
    }
    if (ctx && ctx->idref && anvil_json_is_string(v) && s_resolvable(w, anvil_json_string(v))) {
        /* A relative `true`, `false` or `null` would read back as a keyword. */
        struct anvil_str_view id = anvil_json_string(v), text = s_id_text(w, id);
        anvil__idl_out_sv(&w->out, s_keyword(text) ? id : text);
        return;
    }
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        anvil__idl_out_cstr(&w->out, "null");
        return;
    case ANVIL_JSON_BOOL:
        anvil__idl_out_cstr(&w->out, anvil_json_bool(v) ? "true" : "false");
        return;
    case ANVIL_JSON_NUMBER:
        anvil__idl_out_number(&w->out, v);
        return;
    case ANVIL_JSON_STRING:
        anvil__idl_out_quoted(&w->out, anvil_json_string(v));
        return;
    case ANVIL_JSON_ARRAY: {
        if (anvil_json_len(v) == 0) {
            anvil__idl_out_cstr(&w->out, "[]");
            return;
        }
        struct anvil__iw_ctx member_ctx;
        const struct anvil__iw_ctx *item_ctx = ctx;
        enum anvil__iw_kind kind = ctx && ctx->def ? anvil__iw_kind_of(ctx->def) : ANVIL__IW_NONE;
        if (kind == ANVIL__IW_LIST || kind == ANVIL__IW_SET) {
            s_ctx_member(w, ctx, anvil_sv("member", 6), &member_ctx);
            item_ctx = &member_ctx;
        }
        anvil__idl_out_cstr(&w->out, "[");
        w->out.indent++;
        for (size_t i = 0; i < anvil_json_len(v) && anvil__iw_ok(w); i++) {
            anvil__idl_out_nl(&w->out);
            anvil__iw_node(w, anvil_json_array_at(v, i), item_ctx, depth + 1);
        }
        anvil__idl_out_nl(&w->out);
        w->out.indent--;
        anvil__idl_out_cstr(&w->out, "]");
        return;
    }
    case ANVIL_JSON_OBJECT:
        if (anvil_json_len(v) == 0) {
            anvil__idl_out_cstr(&w->out, "{}");
            return;
        }
        anvil__idl_out_cstr(&w->out, "{");
        w->out.indent++;
        anvil__iw_pairs(w, v, ctx, depth);
        w->out.indent--;
        anvil__idl_out_cstr(&w->out, "}");
        return;
    }
}
