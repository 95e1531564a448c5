/* Wait for a DynamoDB table, then list the tables, in one call each (docs/embedding.md).
   Usage: one-call MODEL.json TABLE [ENDPOINT_URL] */
#include <anvil/anvil.h>
#include <stdio.h>
#include <string.h>

static int print_page(void *ctx, const struct anvil_json *output, const struct anvil_paginate_page *page) {
    (void)ctx, (void)page;
    const struct anvil_json *names = anvil_json_object_get_cstr(output, "TableNames");
    for (size_t i = 0; i < anvil_json_len(names); i++) {
        struct anvil_str_view name = anvil_json_string(anvil_json_array_at(names, i));
        printf("table %.*s\n", (int)name.len, name.ptr);
    }
    return 0;
}

int main(int argc, char **argv) {
    struct anvil_model *model = NULL;
    struct anvil_client *client = NULL;
    struct anvil_json_doc *input = NULL;
    struct anvil_diag diag = {0};
    struct anvil_client_options options = {.endpoint_url = argc > 3 ? argv[3] : NULL};
    char text[256];
    snprintf(text, sizeof text, "{\"TableName\": \"%s\"}", argc > 2 ? argv[2] : "");
    int rc = argc < 3 ? ANVIL_EINVAL : anvil_model_load_file(NULL, argv[1], NULL, &model, &diag);
    rc = rc == ANVIL_OK ? anvil_client_new(NULL, model, NULL, &options, &client, &diag) : rc;
    rc = rc == ANVIL_OK ? anvil_json_parse(NULL, text, strlen(text), NULL, &input, &diag) : rc;
    struct anvil_wait_options wait = {.max_wait_ms = 600000};
    struct anvil_wait_result result = {0};
    rc = rc == ANVIL_OK ? anvil_client_wait(client, "TableExists", anvil_json_doc_root(input), &wait, &result, &diag)
                        : rc;
    if (rc == ANVIL_OK) {
        printf("%s after %llu attempts\n", anvil_wait_reason_name(result.outcome.reason),
               (unsigned long long)result.outcome.attempts);
        rc = anvil_client_paginate(client, "ListTables", NULL, NULL, print_page, NULL, &diag);
    }
    if (rc != ANVIL_OK) {
        fprintf(stderr, "one-call: %s\n", diag.message[0] ? diag.message : anvil_status_str(rc));
    }
    bool ready = result.outcome.reason == ANVIL_WAIT_REASON_SUCCESS;
    anvil_wait_result_clean_up(&result);
    anvil_json_doc_destroy(input);
    anvil_client_destroy(client);
    anvil_model_destroy(model);
    return rc == ANVIL_OK && ready ? 0 : 1;
}
