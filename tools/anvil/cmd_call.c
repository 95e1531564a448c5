/* anvil call: one operation over HTTP (AWS JSON protocols), its output printed as JSON. */

#include <string.h>

#include "cli.h"

enum { OPT_INPUT = 'i' };

struct s_args {
    struct cli_exec_args exec;
    const char *input;
};

static int s_option(void *ctx, int id, const char *value) {
    struct s_args *a = ctx;
    if (id == OPT_INPUT) {
        a->input = value;
    }
    return CLI_EXIT_OK;
}

int cli_cmd_call(int argc, char **argv) {
    static const struct cli_option options[] = {
        CLI_OPTION_HELP,
        {"model", 'm', CLI_ARG_REQUIRED, CLI_OPT_MODEL},
        {"input", 'i', CLI_ARG_REQUIRED, OPT_INPUT},
        CLI_HTTP_OPTIONS,
        {NULL, 0, CLI_ARG_NONE, 0},
    };
    static const struct cli_exec_spec spec = {"call", "OPERATION", "operations", options, false, s_option};
    struct s_args a;
    memset(&a, 0, sizeof a);
    int code = cli_parse_exec_command(argc, argv, &spec, &a, &a.exec);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct cli_input file;
    struct anvil_model *model = NULL;
    struct anvil_client *client = NULL;
    struct anvil_json_doc *input = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    if ((code = cli_model_assemble(a.exec.models.items, a.exec.models.count, false, &file, &model)) != CLI_EXIT_OK) {
        return code;
    }
    cli_input_release(&file);
    if ((code = cli_json_argument("--input", a.input, &input)) != CLI_EXIT_OK ||
        (code = cli_http_client(&a.exec, model, "call", &cli_cancel_signal, &client)) != CLI_EXIT_OK) {
        goto done;
    }
    const struct anvil_shape *op = anvil_client_operation(client, a.exec.name);
    if (!op) {
        code = cli_usage_error("call", "'%s' is not an operation of the service", a.exec.name);
        goto done;
    }
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        code = CLI_EXIT_INTERNAL;
        goto done;
    }
    struct anvil_operation_reply reply;
    struct cli_signals signals;
    cli_signals_catch(&signals);
    int rc = anvil_client_call(client, op, anvil_json_doc_root(input), 0, arena, &reply);
    cli_signals_restore(&signals);
    if (rc == ANVIL_OK) {
        rc = anvil_json_write(&reply.output, ANVIL_JSON_WRITE_PRETTY, &out);
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(&out, '\n') : rc;
        code = rc == ANVIL_OK ? cli_write_output(out.data, out.len) : cli_exit_for_status(rc);
    } else if (rc == ANVIL_ECANCELED) {
        cli_error("call: interrupted");
        code = cli_exit_for_cancel();
    } else {
        anvil_buf_clear(&out);
        if (cli_describe_failure(rc, &reply, &out) == ANVIL_OK) {
            cli_error_text("call: ", anvil_buf_view(&out));
        }
        code = rc == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_SERVICE;
    }
done:
    anvil_buf_clean_up(&out);
    anvil_arena_destroy(arena);
    anvil_client_destroy(client);
    anvil_json_doc_destroy(input);
    anvil_model_destroy(model);
    return code;
}
