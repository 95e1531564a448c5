/*
 * Waits for a DynamoDB table to exist, with code `anvil gen` made from
 * DynamoDB's model: no model file at run time, the acceptors' paths
 * compiled to C.
 *
 *     anvil gen --model dynamodb-2012-08-10.json --prefix ddb --out .
 *     cc main.c ddb.c $(pkg-config --cflags --libs anvil) -o table-exists
 *     ./table-exists TABLE [ENDPOINT_URL]
 *
 * Credentials and region come as for every anvil client (the environment,
 * ~/.aws); exit 0 when the table exists, 1 when the wait failed, 2 when it
 * timed out (120 s), 3 on an error.
 */
#include <stdio.h>
#include <string.h>

#include "ddb.h"

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s TABLE [ENDPOINT_URL]\n", argv[0]);
        return 64;
    }
    struct anvil_client_options options;
    memset(&options, 0, sizeof options);
    options.endpoint_url = argc == 3 ? argv[2] : NULL;
    struct anvil_client *client = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    if (ddb_client_new(&options, &client, &diag) != ANVIL_OK) {
        fprintf(stderr, "table-exists: %s\n", diag.message);
        return 3;
    }
    /* The input: {"TableName": TABLE}, built in an arena. */
    struct anvil_arena *arena = NULL;
    struct anvil_json_builder *b = NULL;
    struct anvil_json input;
    int rc = anvil_arena_new(NULL, NULL, &arena);
    rc = rc == ANVIL_OK ? anvil_json_builder_new(NULL, arena, &b) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_begin_object(b) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_key(b, "TableName", 9) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_string(b, argv[1], strlen(argv[1])) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_finish(b, &input) : rc;
    anvil_json_builder_destroy(b);
    int status = 3;
    if (rc == ANVIL_OK) {
        struct anvil_wait_options wait = {.max_wait_ms = 120000};
        struct anvil_wait_result result;
        memset(&result, 0, sizeof result);
        rc = ddb_wait_until_table_exists(client, &input, &wait, &result, &diag);
        if (rc == ANVIL_OK) {
            const struct anvil_wait_outcome *o = &result.outcome;
            printf("%s after %llu attempts (%s)\n", anvil_waiter_state_name(o->state), (unsigned long long)o->attempts,
                   anvil_wait_reason_name(o->reason));
            status = o->reason == ANVIL_WAIT_REASON_SUCCESS     ? 0
                     : o->reason == ANVIL_WAIT_REASON_FAILURE   ? 1
                     : o->reason == ANVIL_WAIT_REASON_TIMED_OUT ? 2
                                                                : 3;
        } else {
            fprintf(stderr, "table-exists: %s\n", diag.message);
        }
        anvil_wait_result_clean_up(&result);
    }
    anvil_arena_destroy(arena);
    anvil_client_destroy(client);
    return status;
}
