/*
 * Lists DynamoDB tables a page at a time with the paginator `anvil gen`
 * made (ddb_list_tables_pages / ddb_list_tables_next_page).
 *
 *     ./list-tables PAGE_SIZE [ENDPOINT_URL]
 *
 * Prints one table name a line, then "N pages"; exit 3 on an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddb.h"

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s PAGE_SIZE [ENDPOINT_URL]\n", argv[0]);
        return 64;
    }
    struct anvil_client_options options;
    memset(&options, 0, sizeof options);
    options.endpoint_url = argc == 3 ? argv[2] : NULL;
    struct anvil_client *client = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    if (ddb_client_new(&options, &client, &diag) != ANVIL_OK) {
        fprintf(stderr, "list-tables: %s\n", diag.message);
        return 3;
    }
    struct anvil_paginate_options paging = {.page_size = strtol(argv[1], NULL, 10)};
    struct anvil_paginate_run *run = NULL;
    int status = 0;
    if (ddb_list_tables_pages(NULL, &paging, &run, &diag) != ANVIL_OK) {
        fprintf(stderr, "list-tables: %s\n", diag.message);
        status = 3;
    }
    struct anvil_paginate_page page = {.reason = ANVIL_PAGINATE_MORE};
    while (status == 0 && page.reason == ANVIL_PAGINATE_MORE) {
        struct anvil_arena *arena = NULL;
        struct anvil_operation_reply reply;
        memset(&reply, 0, sizeof reply);
        int rc = anvil_arena_new(NULL, NULL, &arena);
        rc = rc == ANVIL_OK ? ddb_list_tables_next_page(client, run, arena, &reply, &page) : rc;
        if (rc != ANVIL_OK) {
            fprintf(stderr, "list-tables: %s: %.*s\n", anvil_status_str(rc), (int)reply.error.message.len,
                    reply.error.message.ptr ? reply.error.message.ptr : "");
            status = 3;
        }
        for (size_t i = 0; status == 0 && i < anvil_json_len(&page.items); i++) {
            struct anvil_str_view name = anvil_json_string(anvil_json_array_at(&page.items, i));
            printf("%.*s\n", (int)name.len, name.ptr);
        }
        anvil_arena_destroy(arena);
    }
    if (status == 0) {
        printf("%llu pages\n", (unsigned long long)anvil_paginate_pages(run));
    }
    anvil_paginate_destroy(run);
    anvil_client_destroy(client);
    return status;
}
