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

/* ---- paginating: the sans-I/O engine ---- */

/** What to do when a page answers with the token the request carried (CloudWatch Logs' end of stream). */
enum anvil_paginate_duplicates {
    /** Stop quietly (the default): a tail-like API has nothing more for now. */
    ANVIL_PAGINATE_DUP_STOP = 0,
    /** Stop with ANVIL_EVALUE from anvil_paginate_report(), as botocore raises. */
    ANVIL_PAGINATE_DUP_ERROR = 1,
    /** Keep going (tailing a log): only max_pages ends it; cycle detection is off too. */
    ANVIL_PAGINATE_DUP_CONTINUE = 2
};

#define ANVIL_PAGINATE_DEFAULT_CYCLE_WINDOW 16
#define ANVIL_PAGINATE_MAX_CYCLE_WINDOW 1024

/** Zero fields mean the default. */
struct anvil_paginate_options {
    /** When > 0, every page asks for this many items (the page-size member); 0 keeps the input's value. */
    int64_t page_size;
    /** Most pages (0 = no limit). */
    uint64_t max_pages;
    /** Most items over all pages, counted on the first items expression (0 = no limit); stops with a resume token. */
    uint64_t max_items;
    /** A resume token from an earlier stop at max_items (botocore's StartingToken format); empty = none. */
    struct anvil_str_view starting_token;
    enum anvil_paginate_duplicates duplicates;
    /** Token sets remembered to catch cycles such as A, B, A, B (default 16, at most 1024). */
    size_t cycle_window;
};

/** Why paginating ended. */
enum anvil_paginate_reason {
    ANVIL_PAGINATE_MORE = 0,        /* not ended: ask for the next page */
    ANVIL_PAGINATE_NO_TOKEN,        /* the output token is missing, null, "" or {} */
    ANVIL_PAGINATE_NOT_TRUNCATED,   /* more_results (e.g. IsTruncated) is false */
    ANVIL_PAGINATE_DUPLICATE_TOKEN, /* the same token came back */
    ANVIL_PAGINATE_CYCLE,           /* a token set seen a few pages ago came back */
    ANVIL_PAGINATE_MAX_PAGES,
    ANVIL_PAGINATE_MAX_ITEMS
};

/** "more", "no-token", "not-truncated", "duplicate-token", "cycle", "max-pages", "max-items". */
ANVIL_API const char *anvil_paginate_reason_name(enum anvil_paginate_reason reason);

/** What one page gave. */
struct anvil_paginate_page {
    /** 1 for the first page. */
    uint64_t number;
    enum anvil_paginate_reason reason;
    /**
     * The page's items (the first items expression: a list or an object),
     * sliced for a starting token's truncate amount and for max_items; null
     * when the paginator names no items or the page has none.
     */
    struct anvil_json items;
    /** When max_items cut the run short: the token to resume from (NUL-terminated); else empty. */
    struct anvil_str_view resume_token;
};

/** One pagination in progress. */
struct anvil_paginate_run;

/**
 * Starts paginating `paginator` with the caller's `input` (NULL = {}),
 * which is never changed: each page's input is a copy. ANVIL_EINVAL with
 * diag for a bad starting token or options; ANVIL_ENOMEM.
 */
ANVIL_API int anvil_paginate_start(struct anvil_allocator *allocator, const struct anvil_paginator *paginator,
                                   const struct anvil_json *input, const struct anvil_paginate_options *options,
                                   struct anvil_paginate_run **out, struct anvil_diag *diag);

ANVIL_API void anvil_paginate_destroy(struct anvil_paginate_run *run);

/**
 * The next page's input: the caller's input with the tokens and the page
 * size set. Valid until the next call on the run. ANVIL_EINVAL after the
 * run ended.
 */
ANVIL_API int anvil_paginate_input(struct anvil_paginate_run *run, const struct anvil_json **input);

/** Changes the page size from the next page on (the spec allows it; 0 = keep the input's). */
ANVIL_API void anvil_paginate_set_page_size(struct anvil_paginate_run *run, int64_t page_size);

/**
 * Takes the page's output: finds the next tokens and the items and decides
 * whether another page follows (`page->reason` MORE) or why not. The items
 * borrow from `output` or from the run: keep both until the next call.
 * ANVIL_OK, ANVIL_EVALUE (a duplicate token with ANVIL_PAGINATE_DUP_ERROR;
 * the page is still filled), ANVIL_ENOMEM.
 */
ANVIL_API int anvil_paginate_report(struct anvil_paginate_run *run, const struct anvil_json *output,
                                    struct anvil_paginate_page *page);

/** Pages reported and items returned so far. */
ANVIL_API uint64_t anvil_paginate_pages(const struct anvil_paginate_run *run);
ANVIL_API uint64_t anvil_paginate_items(const struct anvil_paginate_run *run);

ANVIL_EXTERN_C_END

#endif
