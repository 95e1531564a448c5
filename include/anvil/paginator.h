#ifndef ANVIL_PAGINATOR_H
#define ANVIL_PAGINATOR_H

/**
 * Paginator descriptions: what `smithy.api#paginated` (merged with the
 * service's defaults) or a botocore `paginators-1.json` entry says about an
 * operation's pages, in one form: the input members that carry the tokens,
 * the expressions that find the next tokens in an output, the items, the
 * page-size member. docs/paginators.md has the mapping.
 */

#include "anvil/jmespath.h"
#include "anvil/model.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_paginator {
    /** The operation: an absolute shape id (Smithy) or an operation name (botocore). */
    struct anvil_str_view operation;
    /** Smithy: the service whose @paginated defaults were merged in (empty when none bound it). */
    struct anvil_str_view service;
    /** Input members that take the tokens, and the expressions that find each in an output (same count). */
    const struct anvil_str_view *input_tokens;
    const struct anvil_jmespath *const *output_tokens;
    size_t token_count;
    /** botocore `more_results`: when present, a false value ends the pages whatever the tokens say. NULL when absent.
     */
    const struct anvil_jmespath *more_results;
    /** Where a page's items are: Smithy `items` (zero or one), botocore `result_key` (one or more). */
    const struct anvil_jmespath *const *items;
    size_t item_count;
    /** The input member that limits a page's size (Smithy `pageSize`, botocore `limit_key`); empty when none. */
    struct anvil_str_view page_size;
    /** botocore `non_aggregate_keys`: output values that are not aggregated across pages. */
    const struct anvil_jmespath *const *non_aggregate;
    size_t non_aggregate_count;
};

/** A set of paginator descriptions sharing one arena. Immutable once loaded; thread-safe to read. */
struct anvil_paginator_set;

/**
 * One description per operation with `smithy.api#paginated` in `model`,
 * in file order, merged with the @paginated defaults of the first service
 * whose closure holds it (the operation's own values win). ANVIL_EMODEL
 * when, after the merge, inputToken or outputToken is missing or a path
 * does not compile (diag names the operation). The set does not refer to
 * the model after loading.
 */
ANVIL_API int anvil_paginator_set_from_model(struct anvil_allocator *allocator, const struct anvil_model *model,
                                             struct anvil_paginator_set **out, struct anvil_diag *diag);

/**
 * Descriptions from `len` bytes of a botocore `paginators-1.json`
 * (`{"pagination": {"Op": {...}}}`): `input_token` and `output_token` (a
 * string or equally long lists), `result_key` (string or list),
 * `limit_key`, `more_results`, `non_aggregate_keys`. ANVIL_ESYNTAX (not
 * JSON) or ANVIL_EMODEL (diag names the operation).
 */
ANVIL_API int anvil_paginator_set_from_botocore(struct anvil_allocator *allocator, const char *text, size_t len,
                                                struct anvil_paginator_set **out, struct anvil_diag *diag);

ANVIL_API void anvil_paginator_set_destroy(struct anvil_paginator_set *set);
ANVIL_API size_t anvil_paginator_set_count(const struct anvil_paginator_set *set);
ANVIL_API const struct anvil_paginator *anvil_paginator_set_at(const struct anvil_paginator_set *set, size_t index);

/** The description for `operation` (a shape id, its name part, or a botocore operation name), or NULL. */
ANVIL_API const struct anvil_paginator *anvil_paginator_set_find(const struct anvil_paginator_set *set,
                                                                 const char *operation, size_t len);

ANVIL_EXTERN_C_END

#endif
