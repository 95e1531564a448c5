/*
 * The one path `call`, `wait`, `paginate` and `endpoint` share: load the
 * model (--model or --service), parse --input, and over HTTP make the
 * client, find the operation and check the input against it before
 * anything is sent. Also botocore's waiters-2/paginators-1 files, read the
 * same way for `wait`, `paginate` and `gen`.
 */

#include <string.h>

#include "cli.h"

int cli_target_load(struct cli_target *t, const char *command, const struct cli_exec_args *exec) {
    memset(t, 0, sizeof *t);
    t->command = command;
    if (exec->models.count == 0) {
        return CLI_EXIT_OK;
    }
    struct cli_input file;
    int code = cli_model_assemble(exec->models.items, exec->models.count, false, &file, &t->model);
    if (code == CLI_EXIT_OK) {
        cli_input_release(&file);
    }
    return code;
}

int cli_target_read_input(struct cli_target *t, const char *option, const char *input) {
    return cli_json_argument(option, input, &t->input);
}

const struct anvil_json *cli_target_input(const struct cli_target *t) {
    return anvil_json_doc_root(t->input);
}

int cli_target_connect(struct cli_target *t, const struct cli_exec_args *exec, const struct anvil_str_view *operation,
                       enum cli_operation_source source, bool check) {
    int code = cli_http_client(exec, t->model, t->command, &cli_cancel_signal, &t->client);
    if (code != CLI_EXIT_OK || !operation) {
        return code;
    }
    /* A Smithy description names the operation by shape id, botocore's by name: the client finds either. */
    t->operation = anvil_client_operation_sv(t->client, *operation);
    if (!t->operation && source == CLI_OPERATION_ARGUMENT) {
        return cli_usage_error(t->command, "'%.*s' is not an operation of the service", (int)operation->len,
                               operation->ptr);
    }
    if (!t->operation) {
        cli_error("%s: the operation `%.*s` is not an operation of the model's service", t->command,
                  (int)operation->len, operation->ptr);
        return CLI_EXIT_DATA;
    }
    return check ? cli_check_input(t->client, t->operation, cli_target_input(t), t->command) : CLI_EXIT_OK;
}

void cli_target_clean_up(struct cli_target *t) {
    anvil_client_destroy(t->client);
    anvil_json_doc_destroy(t->input);
    anvil_model_destroy(t->model);
    memset(t, 0, sizeof *t);
}

/* ---- botocore's description files ---- */

static int s_botocore(const char *path, bool waiters, void **set) {
    static const char no_waiters[] = "{\"version\": 2, \"waiters\": {}}";
    static const char no_pages[] = "{\"pagination\": {}}";
    struct cli_input input = {0};
    const char *text = waiters ? no_waiters : no_pages;
    size_t len = strlen(text);
    if (path && path[0]) {
        int code = cli_input_read_data(path, cli_read_limit(), &input);
        if (code != CLI_EXIT_OK) {
            return code;
        }
        text = input.data;
        len = input.len;
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = waiters ? anvil_waiter_set_from_botocore(NULL, text, len, (struct anvil_waiter_set **)set, &diag)
                     : anvil_paginator_set_from_botocore(NULL, text, len, (struct anvil_paginator_set **)set, &diag);
    if (rc == ANVIL_ESYNTAX) {
        cli_report_diag(input.label ? input.label : path, &diag);
    } else if (rc != ANVIL_OK) {
        cli_error("%s: %s", input.label ? input.label : path, rc == ANVIL_ENOMEM ? "out of memory" : diag.message);
        cli_debug_origin(&diag);
    }
    cli_input_release(&input);
    return rc == ANVIL_OK ? CLI_EXIT_OK : cli_exit_for_status(rc);
}

int cli_botocore_waiters(const char *path, struct anvil_waiter_set **set) {
    void *out = NULL;
    int code = s_botocore(path, true, &out);
    *set = out;
    return code;
}

int cli_botocore_paginators(const char *path, struct anvil_paginator_set **set) {
    void *out = NULL;
    int code = s_botocore(path, false, &out);
    *set = out;
    return code;
}

/* The descriptions a command runs: --botocore's (or --service's), else the model's. */
static int s_descriptions(const struct cli_target *t, const struct cli_exec_args *exec, bool waiters, void **set) {
    if (exec->botocore) {
        return s_botocore(exec->botocore, waiters, set);
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = waiters ? anvil_waiter_set_from_model(NULL, t->model, (struct anvil_waiter_set **)set, &diag)
                     : anvil_paginator_set_from_model(NULL, t->model, (struct anvil_paginator_set **)set, &diag);
    if (rc != ANVIL_OK) {
        cli_error("%s: %s", exec->models.items[0], rc == ANVIL_ENOMEM ? "out of memory" : diag.message);
        cli_debug_origin(&diag);
    }
    return rc == ANVIL_OK ? CLI_EXIT_OK : cli_exit_for_status(rc);
}

int cli_target_waiters(const struct cli_target *t, const struct cli_exec_args *exec, struct anvil_waiter_set **set) {
    void *out = NULL;
    int code = s_descriptions(t, exec, true, &out);
    *set = out;
    return code;
}

int cli_target_paginators(const struct cli_target *t, const struct cli_exec_args *exec,
                          struct anvil_paginator_set **set) {
    void *out = NULL;
    int code = s_descriptions(t, exec, false, &out);
    *set = out;
    return code;
}
