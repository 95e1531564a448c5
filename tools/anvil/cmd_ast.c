/* anvil ast: assemble Smithy models (IDL and JSON AST files, folders) and print the JSON AST. */

#include "cli.h"

int cli_cmd_ast(int argc, char **argv) {
    enum { OPT_COMPACT = 1 };
    static const struct cli_option options[] = {
        CLI_OPTION_HELP, {"compact", 'c', CLI_ARG_NONE, OPT_COMPACT}, {NULL, 0, CLI_ARG_NONE, 0}};
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, options, "ast");
    struct cli_paths files = {.count = 0};
    bool compact = false;
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPTION) {
            compact |= id == OPT_COMPACT;
            continue;
        }
        int code = cli_paths_add(&files, "ast", value);
        if (code != CLI_EXIT_OK) {
            return code;
        }
    }
    if (files.count == 0) {
        return cli_usage_error("ast", "no FILE given");
    }
    struct cli_input input;
    struct anvil_model *model = NULL;
    int code = cli_model_assemble(files.items, files.count, false, &input, &model);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    int rc =
        anvil_json_write(anvil_model_ast(model), compact ? ANVIL_JSON_WRITE_COMPACT : ANVIL_JSON_WRITE_PRETTY, &out);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&out, '\n');
    }
    code = cli_finish_output(&input, rc, &out);
    anvil_buf_clean_up(&out);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}
