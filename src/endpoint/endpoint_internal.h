#ifndef ANVIL_ENDPOINT_INTERNAL_H
#define ANVIL_ENDPOINT_INTERNAL_H

/*
 * The endpoint rules engine's compiled form, shared by the compiler
 * (rules_compile.c), the resolver (rules_resolve.c), the library functions
 * (functions.c) and the partitions (partitions.c). docs/endpoints.md
 * describes it.
 *
 * A rule set compiles into flat arrays indexed by uint32_t: rules in
 * document (pre-)order, conditions, expressions, function arguments,
 * template parts, getAttr steps, endpoint results, headers and property
 * nodes; strings are interned once. References are resolved to parameter
 * indexes or variable slots, function names to opcodes, getAttr paths to
 * steps with the record field already known, so resolving never looks a
 * name up.
 */

#include "anvil/endpoint.h"
#include "core/core_internal.h"

/* ---- partitions ---- */

/* What aws.partition() returns: a partition's outputs, or a region's merged with its overrides. */
struct anvil__ep_outputs {
    struct anvil_str_view name;
    struct anvil_str_view dns_suffix;
    struct anvil_str_view dual_stack_dns_suffix;
    struct anvil_str_view implicit_global_region;
    bool supports_fips;
    bool supports_dual_stack;
};

/* Most character positions a regionRegex may have (a Glushkov automaton in one uint64_t). */
#define ANVIL__EP_REGEX_MAX_POSITIONS 64

/*
 * A compiled regionRegex: a position automaton. Matching runs the set of
 * live positions as a bit mask, one step per byte, so it is linear in the
 * region's length, never backtracks and never allocates.
 */
struct anvil__ep_regex {
    /* Positions that can match the first byte, and those that can end a match. */
    uint64_t first, last;
    /* follow[p]: positions that can come after position p. */
    uint64_t follow[ANVIL__EP_REGEX_MAX_POSITIONS];
    /* by_byte[c]: positions whose class holds byte c. */
    uint64_t by_byte[256];
    /* The empty string matches. */
    bool nullable;
    bool anchored_start, anchored_end;
};

/*
 * Compiles `pattern` (^, $, groups with |, *, +, ?, ., \w \d \s and their
 * negations, [...] classes with ranges, escaped literals). ANVIL_EMODEL
 * with a reason in `why` (size `why_size`) for anything else.
 */
int anvil__ep_regex_compile(struct anvil_str_view pattern, struct anvil__ep_regex *out, char *why, size_t why_size);

bool anvil__ep_regex_match(const struct anvil__ep_regex *re, struct anvil_str_view s);

struct anvil__ep_partition {
    struct anvil_str_view id;
    struct anvil__ep_outputs outputs;
    /* NULL when the partition has no regionRegex. */
    const struct anvil__ep_regex *regex;
};

struct anvil__ep_region {
    struct anvil_str_view name;
    uint32_t hash;
    const struct anvil__ep_outputs *outputs;
};

struct anvil_partitions {
    struct anvil_arena *arena;
    const struct anvil__ep_partition *items;
    size_t count;
    /* Open addressing over every region key; `mask + 1` slots, a NULL name is empty. */
    const struct anvil__ep_region *slots;
    uint32_t mask;
    /* The partition unknown regions fall back to ("aws", else the first). */
    const struct anvil__ep_outputs *fallback;
};

/* aws.partition(): the exact region, then the first regionRegex that matches, then the fallback. */
const struct anvil__ep_outputs *anvil__partitions_lookup(const struct anvil_partitions *partitions,
                                                         struct anvil_str_view region);

/* The embedded partitions.json (src/endpoint/partitions_data.c, made by scripts/gen-partitions). */
extern const char anvil__partitions_json[];
extern const size_t anvil__partitions_json_len;

/* ---- values ---- */

enum anvil__ep_kind {
    ANVIL__EPV_NONE = 0,
    ANVIL__EPV_BOOL,
    ANVIL__EPV_INT,
    ANVIL__EPV_STR,
    /* An array of string views (split, a literal array, an ARN's resourceId). */
    ANVIL__EPV_LIST,
    /* A stringArray parameter: a JSON array whose items are all strings. */
    ANVIL__EPV_JSON_ARRAY,
    ANVIL__EPV_PARTITION,
    ANVIL__EPV_URL,
    ANVIL__EPV_ARN
};

struct anvil__ep_url {
    struct anvil_str_view scheme, authority, path, normalized_path;
    bool is_ip;
};

struct anvil__ep_arn {
    struct anvil_str_view partition, service, region, account_id;
    const struct anvil_str_view *resource_id;
    size_t resource_count;
};

/* A value while resolving: 16 bytes, pointing at the rules, the parameters or the scratch area. */
struct anvil__ep_value {
    uint32_t kind;
    /* Bytes of a string, items of a list or JSON array. */
    uint32_t len;
    union {
        bool b;
        int64_t i;
        const char *s;
        const struct anvil_str_view *list;
        const struct anvil_json *items;
        const struct anvil__ep_outputs *partition;
        const struct anvil__ep_url *url;
        const struct anvil__ep_arn *arn;
    } u;
};

/* ---- compiled rules ---- */

/* Static types, known for every expression at compile time. */
enum anvil__ep_type {
    ANVIL__EPT_ANY = 0,
    ANVIL__EPT_STRING,
    ANVIL__EPT_BOOL,
    ANVIL__EPT_INT,
    ANVIL__EPT_LIST,
    ANVIL__EPT_PARTITION,
    ANVIL__EPT_URL,
    ANVIL__EPT_ARN
};

enum anvil__ep_op {
    /* Literals and references. */
    ANVIL__EPO_STR = 0,
    ANVIL__EPO_BOOL,
    ANVIL__EPO_INT,
    ANVIL__EPO_LIST,
    /* A parameter or a variable: its slot in the resolution's values (parameters first, then variables). */
    ANVIL__EPO_REF,
    ANVIL__EPO_TEMPLATE,
    /* The standard library. */
    ANVIL__EPO_IS_SET,
    ANVIL__EPO_NOT,
    ANVIL__EPO_GET_ATTR,
    ANVIL__EPO_STRING_EQUALS,
    ANVIL__EPO_BOOLEAN_EQUALS,
    ANVIL__EPO_SUBSTRING,
    ANVIL__EPO_URI_ENCODE,
    ANVIL__EPO_PARSE_URL,
    ANVIL__EPO_IS_VALID_HOST_LABEL,
    ANVIL__EPO_SPLIT,
    ANVIL__EPO_COALESCE,
    ANVIL__EPO_ITE,
    /* The AWS library. */
    ANVIL__EPO_AWS_PARTITION,
    ANVIL__EPO_AWS_PARSE_ARN,
    ANVIL__EPO_AWS_IS_VIRTUAL_HOSTABLE_S3_BUCKET,
    /*
     * The shapes most conditions take, fused so they are one step instead
     * of three: isSet(ref), not(isSet(ref)), booleanEquals(ref, literal) and
     * stringEquals(ref, literal), with a = the slot and x.b = the literal
     * (a boolean, or a string id).
     */
    ANVIL__EPO_IS_SET_REF,
    ANVIL__EPO_NOT_SET_REF,
    ANVIL__EPO_BOOL_EQ_REF,
    ANVIL__EPO_STR_EQ_REF
};

/*
 * One expression. `a` and `b` by op: STR a = string id; BOOL a = 0/1;
 * INT `i`; LIST a = first string id, argc = count; REF a = slot;
 * TEMPLATE a = first part, argc = parts; GET_ATTR a = target
 * expression, b = first step, argc = steps; a function a = first argument
 * (in `args`), argc = count.
 */
struct anvil__ep_expr {
    uint8_t op;
    uint8_t type;
    uint16_t argc;
    uint32_t a;
    union {
        uint32_t b;
        int32_t i;
    } x;
};

/* Record fields getAttr can name. */
enum anvil__ep_field {
    ANVIL__EPF_NONE = 0,
    ANVIL__EPF_NAME,
    ANVIL__EPF_DNS_SUFFIX,
    ANVIL__EPF_DUAL_STACK_DNS_SUFFIX,
    ANVIL__EPF_SUPPORTS_FIPS,
    ANVIL__EPF_SUPPORTS_DUAL_STACK,
    ANVIL__EPF_IMPLICIT_GLOBAL_REGION,
    ANVIL__EPF_SCHEME,
    ANVIL__EPF_AUTHORITY,
    ANVIL__EPF_PATH,
    ANVIL__EPF_NORMALIZED_PATH,
    ANVIL__EPF_IS_IP,
    ANVIL__EPF_PARTITION,
    ANVIL__EPF_SERVICE,
    ANVIL__EPF_REGION,
    ANVIL__EPF_ACCOUNT_ID,
    ANVIL__EPF_RESOURCE_ID
};

/* One getAttr step: a record field (`field` != NONE) or an index (negative counts from the end). */
struct anvil__ep_step {
    uint32_t field;
    int32_t index;
};

/* A template part: literal text (a string id) or an expression (a reference or getAttr on one). */
struct anvil__ep_tpart {
    uint32_t is_expr;
    uint32_t id;
};

#define ANVIL__EP_NO_SLOT UINT32_MAX
#define ANVIL__EP_NONE UINT32_MAX

struct anvil__ep_cond {
    uint32_t expr;
    /* The slot of the variable `assign` names (param_count + its depth in scope), or ANVIL__EP_NO_SLOT. */
    uint32_t slot;
};

enum anvil__ep_rule_kind { ANVIL__EPR_ENDPOINT = 0, ANVIL__EPR_ERROR = 1, ANVIL__EPR_TREE = 2 };

/*
 * Rules are numbered in document pre-order: a tree's first sub-rule is the
 * tree's number + 1, and each rule knows its next sibling.
 */
struct anvil__ep_rule {
    uint8_t kind;
    uint32_t cond_first, cond_count;
    /* The next rule in the same list, or ANVIL__EP_NONE. */
    uint32_t next;
    /* The enclosing tree, or ANVIL__EP_NONE; and the rule's position in its list. */
    uint32_t parent, position;
    /* Endpoint: index in `endpoints`; error: the message expression; tree: number of sub-rules. */
    uint32_t result;
};

struct anvil__ep_endpoint {
    uint32_t url;
    /* The properties' root node (an object), or ANVIL__EP_NONE. */
    uint32_t properties;
    uint32_t header_first, header_count;
};

struct anvil__ep_header {
    const struct anvil_json_key *name;
    /* Value expressions, in `args`. */
    uint32_t value_first, value_count;
};

enum anvil__ep_prop_kind {
    ANVIL__EPP_OBJECT = 0,
    ANVIL__EPP_ARRAY,
    /* A string: a literal or a template (an expression). */
    ANVIL__EPP_EXPR,
    /* Any other JSON scalar, kept as it is (`scalars`). */
    ANVIL__EPP_SCALAR
};

struct anvil__ep_prop {
    uint32_t kind;
    /* OBJECT: first member (`prop_members`); ARRAY: first item (`prop_items`); EXPR: expression; SCALAR: scalar. */
    uint32_t a;
    uint32_t count;
};

struct anvil__ep_prop_member {
    const struct anvil_json_key *key;
    uint32_t value;
};

struct anvil_endpoint_rules {
    struct anvil_allocator *allocator;
    /* Strings, keys, defaults and the parameter table. */
    struct anvil_arena *arena;
    const struct anvil_partitions *partitions;

    struct anvil_endpoint_param *params;
    size_t param_count;
    /* The defaults as values (NONE for parameters without one). */
    struct anvil__ep_value *param_defaults;
    /* Parameter names hashed: param index + 1 per slot, 0 = empty; `param_mask + 1` slots. */
    uint32_t *param_slots;
    uint32_t param_mask;

    struct anvil_str_view *strings;
    struct anvil__ep_expr *exprs;
    uint32_t *args;
    struct anvil__ep_tpart *tparts;
    struct anvil__ep_step *steps;
    struct anvil__ep_cond *conds;
    struct anvil__ep_rule *rules;
    struct anvil__ep_endpoint *endpoints;
    struct anvil__ep_header *headers;
    struct anvil__ep_prop *props;
    struct anvil__ep_prop_member *prop_members;
    uint32_t *prop_items;
    struct anvil_json *scalars;
    size_t string_count, expr_count, arg_count, tpart_count, step_count, cond_count, rule_count, endpoint_count,
        header_count, prop_count, prop_member_count, prop_item_count, scalar_count;

    /* The first top-level rule (0), or ANVIL__EP_NONE when there are none. */
    uint32_t root;
    /* Most variables in scope at once: the size of a resolution's variable array. */
    uint32_t var_slots;
};

/* Hash of a parameter name for `param_slots`. */
static inline uint32_t anvil__ep_hash(const char *bytes, size_t len) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)bytes[i]) * 16777619u;
    }
    return h;
}

/* At most `max` bytes of `s` for a message, never cutting a UTF-8 sequence. */
static inline int anvil__ep_cut(struct anvil_str_view s, size_t max) {
    size_t n = s.len;
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s.ptr[n] & 0xC0) == 0x80) {
            n--;
        }
    }
    return (int)n;
}

/* Drops a UTF-8 sequence that vsnprintf() cut short at the end of `buf` (NUL-terminated). */
static inline void anvil__ep_trim_utf8(char *buf) {
    size_t n = strlen(buf);
    size_t lead = n;
    while (lead > 0 && n - lead < 4 && ((unsigned char)buf[lead - 1] & 0xC0) == 0x80) {
        lead--;
    }
    if (lead == 0) {
        return;
    }
    unsigned char c = (unsigned char)buf[lead - 1];
    size_t need = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (need != 0 && n - (lead - 1) < need) {
        buf[lead - 1] = '\0';
    }
}

/* ---- library functions on strings (functions.c); none allocates ---- */

/* RFC 1123 host label(s): [A-Za-z0-9][A-Za-z0-9-]{0,62}, not ending in '-'; with subdomains, each '.' part. */
bool anvil__ep_is_valid_host_label(struct anvil_str_view s, bool allow_subdomains);

/* aws.isVirtualHostableS3Bucket(). */
bool anvil__ep_is_virtual_hostable_s3_bucket(struct anvil_str_view s, bool allow_subdomains);

/* A dotted-quad IPv4 address (each part 0-255, no leading zeros). */
bool anvil__ep_is_ipv4(struct anvil_str_view s);

/*
 * parseURL() into `out`, its views pointing into `s`. When the normalized
 * path is the path with a '/' added at its end, `normalized_path` comes
 * back with a NULL pointer and that length, for the caller to make. False
 * when `s` is not a URL the rules engine takes (not http(s), a query, no
 * authority, a bad port, white space in the authority).
 */
bool anvil__ep_parse_url(struct anvil_str_view s, struct anvil__ep_url *out);

/* aws.parseArn() without the resourceId split: false when `s` is not an ARN. */
bool anvil__ep_parse_arn(struct anvil_str_view s, struct anvil__ep_arn *out, struct anvil_str_view *resource);

/* Bytes uriEncode() makes of `s`, and the encoding itself into `out` (that many bytes). */
size_t anvil__ep_uri_encoded_len(struct anvil_str_view s);
void anvil__ep_uri_encode(struct anvil_str_view s, char *out);

#endif
