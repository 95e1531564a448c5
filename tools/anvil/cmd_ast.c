/* anvil ast: assemble Smithy models (IDL and JSON AST files, folders) and print the JSON AST. */

#include "cli.h"

enum { OPT_COMPACT = 1 };

static int s_on_option(void *compact, int id, const char *value) {
    (void)value;
    *(bool *)compact |= id == OPT_COMPACT;
    return CLI_EXIT_OK;
}

const struct cli_option cli_ast_options[] = {
    CLI_OPTION_HELP,
    CLI_FLAG("compact", 'c', OPT_COMPACT, "print the JSON on one line"),
    CLI_OPTIONS_END,
};

int cli_cmd_ast(int argc, char **argv) {
    struct cli_paths files;
    bool compact = false;
    int code = cli_parse_paths(argc, argv, cli_ast_options, "ast", s_on_option, &compact, &files);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct cli_input input;
    struct anvil_model *model = NULL;
    code = cli_model_assemble(files.items, files.count, false, &input, &model);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    const struct anvil_json *ast = anvil_model_ast(model);
    int rc =
        ast ? anvil_json_write(ast, compact ? ANVIL_JSON_WRITE_COMPACT : ANVIL_JSON_WRITE_PRETTY, &out) : ANVIL_ENOMEM;
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&out, '\n');
    }
    code = cli_finish_output(&input, rc, &out);
    anvil_buf_clean_up(&out);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}
