#ifndef ANVIL_ENDPOINT_H
#define ANVIL_ENDPOINT_H

/**
 * Endpoints as Smithy's rules engine resolves them (rules engine 1.x, the
 * `smithy.rules#endpointRuleSet` trait or a botocore
 * `endpoint-rule-set-1.json`): a rule set is compiled once into a compact
 * form, then resolved per call from parameter values into a URL, headers
 * and properties (among them the auth schemes that say how to sign), or
 * into the rule set's own error. The AWS partitions are compiled into the
 * library; a newer partitions file may be loaded. docs/endpoints.md.
 */

#include "anvil/arena.h"
#include "anvil/diag.h"
#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

/* ---- partitions ---- */

/** The AWS partitions (aws, aws-cn, aws-us-gov, the ISO partitions, ...): immutable, thread-safe to read. */
struct anvil_partitions;

/** The partitions compiled into the library (Smithy's partitions.json of the release). Never NULL. */
ANVIL_API const struct anvil_partitions *anvil_partitions_builtin(void);

/**
 * Partitions from `len` bytes of a partitions.json (version 1.x: the
 * `partitions` array of `{id, regionRegex, outputs, regions}`), to resolve
 * with instead of the built-in ones. ANVIL_ESYNTAX (not JSON),
 * ANVIL_EMODEL (not partitions: diag names what is wrong and where),
 * ANVIL_ENOMEM. Free with anvil_partitions_destroy().
 */
ANVIL_API int anvil_partitions_load(struct anvil_allocator *allocator, const char *text, size_t len,
                                    struct anvil_partitions **out, struct anvil_diag *diag);

/** Frees loaded partitions (never the built-in ones). NULL is ignored. */
ANVIL_API void anvil_partitions_destroy(struct anvil_partitions *partitions);

/* ---- rule sets ---- */

/** A compiled rule set: immutable once made, so any number of threads may resolve with it at once. */
struct anvil_endpoint_rules;

/** Limits and data for compiling; zero means the default. */
struct anvil_endpoint_rules_options {
    /** The partitions aws.partition() looks in (NULL = anvil_partitions_builtin()); must outlive the rules. */
    const struct anvil_partitions *partitions;
    /**
     * Deepest nesting of tree rules, of function calls in one condition and
     * of endpoint properties. Default 64; values above 1,024 count as 1,024.
     */
    size_t max_depth;
    /** Most rules, conditions and expressions in all. Default 1,000,000. */
    size_t max_nodes;
};

/**
 * Compiles `rule_set` (the value of a `smithy.rules#endpointRuleSet` trait,
 * or a botocore endpoint-rule-set-1.json document): parameters with their
 * types, defaults, built-ins and `required`; endpoint, error and tree rules;
 * conditions with `assign`; template strings; every function of the
 * standard library and the AWS library, checked for their names, their
 * arity and, where the rule set shows them, their argument types. The
 * result does not refer to `rule_set` afterwards.
 *
 * ANVIL_EMODEL with `diag` naming the rule (by its position, "rules[3].rules[0]
 * .conditions[1]") and what is wrong: an unknown function, a reference to a
 * name not in scope, an assignment that shadows one, a template naming an
 * unknown parameter, an ill-typed argument, an unsupported version;
 * ANVIL_ELIMIT past a limit; ANVIL_ENOMEM. Thread-safe.
 */
ANVIL_API int anvil_endpoint_rules_compile(struct anvil_allocator *allocator, const struct anvil_json *rule_set,
                                           const struct anvil_endpoint_rules_options *options,
                                           struct anvil_endpoint_rules **out, struct anvil_diag *diag);

/** Frees a compiled rule set. NULL is ignored. */
ANVIL_API void anvil_endpoint_rules_destroy(struct anvil_endpoint_rules *rules);

enum anvil_endpoint_param_type {
    ANVIL_ENDPOINT_PARAM_STRING = 0,
    ANVIL_ENDPOINT_PARAM_BOOLEAN = 1,
    ANVIL_ENDPOINT_PARAM_STRING_ARRAY = 2
};

/** One parameter of a rule set. Views live as long as the rules. */
struct anvil_endpoint_param {
    struct anvil_str_view name;
    enum anvil_endpoint_param_type type;
    /** The built-in that supplies it ("AWS::Region", "SDK::Endpoint", ...), empty when none. */
    struct anvil_str_view builtin;
    /** Whether a value is required after binding (a parameter with a default always has one). */
    bool required;
    /** The default (a string, boolean or array of strings), or NULL. */
    const struct anvil_json *default_value;
};

/** How many parameters the rule set declares. */
ANVIL_API size_t anvil_endpoint_rules_param_count(const struct anvil_endpoint_rules *rules);

/** Parameter `index` (0 <= index < count), in the rule set's order; NULL when out of range. */
ANVIL_API const struct anvil_endpoint_param *anvil_endpoint_rules_param_at(const struct anvil_endpoint_rules *rules,
                                                                           size_t index);

/** The index of the parameter named `name` (case-sensitive), or -1. */
ANVIL_API long anvil_endpoint_rules_param_index(const struct anvil_endpoint_rules *rules, struct anvil_str_view name);

/* ---- resolving ---- */

/** What a resolution gives. Values live in the arena resolution was given. */
struct anvil_endpoint {
    /** The endpoint's URL ("https://bucket.s3.us-west-2.amazonaws.com"). */
    struct anvil_str_view url;
    /** The endpoint's headers: an object of name -> array of strings (empty object when none). */
    struct anvil_json headers;
    /** The endpoint's properties (authSchemes among them): an object (empty when none). */
    struct anvil_json properties;
    /**
     * Which rule gave the endpoint or the error: its position in document
     * order among all rules ("rules[2].rules[5]" in anvil_endpoint_rule_path()).
     * For "no endpoint rule matched", the tree rule whose rules all failed,
     * or SIZE_MAX when the top-level rules did; SIZE_MAX before any rule ran.
     */
    size_t rule;
    /**
     * When an error rule answered (ANVIL_ECONFIG): its whole message, templates
     * expanded, made in the arena (diag->message holds at most
     * ANVIL_DIAG_MESSAGE_MAX - 1 bytes of it). Empty otherwise.
     */
    struct anvil_str_view error;
};

/**
 * Bytes of the scratch area a resolution keeps on its stack for the values
 * it makes on the way (expanded templates, uriEncode, parsed URLs and ARNs,
 * split): past it, ANVIL_ELIMIT.
 */
#define ANVIL_ENDPOINT_SCRATCH_BYTES 16384

/**
 * Resolves an endpoint. `params` holds one value per parameter of the rule
 * set, indexed as anvil_endpoint_rules_param_at() numbers them (`count`
 * must be the rule set's parameter count): a string, a boolean, an array of
 * strings, or null for a value not set (its default then applies).
 * Everything the result holds is made in `arena`; nothing else is
 * allocated (intermediate strings live in a bounded scratch area of the
 * arena), and nothing is kept between calls. Thread-safe for one rules
 * object and distinct arenas.
 *
 * Returns ANVIL_OK with `*out` filled; ANVIL_ECONFIG when the rule set
 * answers with an error rule (its message, templates expanded, in
 * `diag->message` and whole in `out->error`, exactly as the rule set words
 * it, and `out->rule` naming the rule), when no rule matches ("no endpoint
 * rule matched"; a tree whose rules all fail ends resolution too), or
 * when a required parameter has no value ("the endpoint parameter `Region`
 * is required"); ANVIL_EINVAL for a value of the wrong type (diag names the
 * parameter), or when the rule set hands a function a value of the wrong
 * type or none (a parameter it did not check with isSet: diag names the
 * rule and condition); ANVIL_ELIMIT when the scratch area
 * (ANVIL_ENDPOINT_SCRATCH_BYTES) or the arena (its max_bytes) is full;
 * ANVIL_ENOMEM. On any error but ANVIL_ECONFIG, `out` holds no endpoint.
 */
ANVIL_API int anvil_endpoint_resolve(const struct anvil_endpoint_rules *rules, const struct anvil_json *params,
                                     size_t count, struct anvil_arena *arena, struct anvil_endpoint *out,
                                     struct anvil_diag *diag);

/**
 * anvil_endpoint_resolve() with the parameters given as an object of name
 * -> value, as an endpointTests case's `params` holds them (names the rule
 * set does not declare are ANVIL_EINVAL). Thread-safe as above.
 */
ANVIL_API int anvil_endpoint_resolve_object(const struct anvil_endpoint_rules *rules, const struct anvil_json *params,
                                            struct anvil_arena *arena, struct anvil_endpoint *out,
                                            struct anvil_diag *diag);

/* ---- binding parameters for a call ---- */

/**
 * Fills `params` (`count` = the rule set's parameter count) for calling
 * `operation` of `service` with `input`, in the order of precedence the
 * SDKs use: `smithy.rules#staticContextParams` of the operation, then
 * `smithy.rules#contextParam` members of the input, then
 * `smithy.rules#operationContextParams` (JMESPath over the input), then
 * `client_params` (an object of clientContextParams name -> value, may be
 * NULL), then the built-ins from `builtins` (an object of built-in name ->
 * value: "AWS::Region", "AWS::UseFIPS", "SDK::Endpoint", ...; may be NULL).
 * A parameter none of them gives stays null, for its default. Built-ins
 * are taken as given: a caller binding AWS::Region itself must check that
 * it is a region name (the client refuses anything but lower-case
 * letters, digits and '-'), as most rule sets put it in the host as is. A
 * `@required` string member that is empty or white space is not bound.
 * Values borrow from the inputs or live in `arena`. ANVIL_OK; ANVIL_EINVAL
 * when a value has the wrong type for its parameter (diag names both);
 * ANVIL_EMODEL for an operationContextParams path that does not compile;
 * ANVIL_ENOMEM. Thread-safe.
 */
ANVIL_API int anvil_endpoint_bind(const struct anvil_endpoint_rules *rules, const struct anvil_model *model,
                                  const struct anvil_shape *service, const struct anvil_shape *operation,
                                  const struct anvil_json *input, const struct anvil_json *client_params,
                                  const struct anvil_json *builtins, struct anvil_arena *arena,
                                  struct anvil_json *params, size_t count, struct anvil_diag *diag);

/** The position of rule number `rule` as text ("rules[2].rules[5]") into `out` (cut to `size`). */
ANVIL_API void anvil_endpoint_rule_path(const struct anvil_endpoint_rules *rules, size_t rule, char *out, size_t size);

ANVIL_EXTERN_C_END

#endif
