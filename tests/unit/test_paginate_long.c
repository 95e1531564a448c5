/* A tail-like API paginated for a million pages: the run stops by policy and its memory stays flat. */

#include <stdio.h>

#include "counting_allocator.h"
#include "harness.h"

TEST(paginate_a_million_pages_in_bounded_memory) {
    static const char desc[] = "{\"pagination\": {\"Tail\": {\"input_token\": \"NextToken\", \"output_token\": "
                               "\"NextToken\", \"result_key\": \"Events\"}}}";
    struct anvil_paginator_set *set = NULL;
    struct anvil_paginate_run *run = NULL;
    struct anvil_arena *arena = NULL;
    const struct anvil_counting_allocator *counting = (const struct anvil_counting_allocator *)t->alloc;
    size_t peak_early = 0;
    struct anvil_paginate_options o = {.duplicates = ANVIL_PAGINATE_DUP_CONTINUE, .max_pages = 1000000};
    struct anvil_paginate_page page = {0};
    CHECK_OK(anvil_paginator_set_from_botocore(t->alloc, desc, strlen(desc), &set, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_paginate_start(t->alloc, anvil_paginator_set_at(set, 0), NULL, &o, &run, NULL));
    for (uint64_t i = 1;; i++) {
        const struct anvil_json *input;
        CHECK_OK(anvil_paginate_input(run, &input));
        char text[96];
        int n = snprintf(text, sizeof text, "{\"Events\": [%llu], \"NextToken\": \"t%llu\"}", (unsigned long long)i,
                         (unsigned long long)i);
        struct anvil_json output;
        anvil_arena_reset(arena);
        CHECK_OK(anvil_json_parse_into(arena, t->alloc, text, (size_t)n, NULL, &output, NULL));
        CHECK_OK(anvil_paginate_report(run, &output, &page));
        if (i == 1000) {
            peak_early = counting->peak_bytes;
        }
        if (page.reason != ANVIL_PAGINATE_MORE) {
            break;
        }
    }
    CHECK_EQ_INT(page.reason, ANVIL_PAGINATE_MAX_PAGES);
    CHECK_EQ_U64(anvil_paginate_pages(run), 1000000);
    CHECK_EQ_U64(anvil_paginate_items(run), 1000000);
    /* A million pages need hardly more memory than the first thousand: only the tokens grew ("t1000" to
     * "t1000000"), in the cycle window's buffers. */
    if (counting->peak_bytes > peak_early + peak_early / 8) {
        fprintf(stderr, "peak %zu after 1000 pages, %zu after all\n", peak_early, counting->peak_bytes);
    }
    CHECK(counting->peak_bytes <= peak_early + peak_early / 8);
done:
    anvil_paginate_destroy(run);
    anvil_arena_destroy(arena);
    anvil_paginator_set_destroy(set);
}
