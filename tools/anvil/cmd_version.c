#include "cli.h"

const struct cli_option cli_version_options[] = {
    CLI_OPTION_HELP,
    CLI_OPTIONS_END,
};

int cli_cmd_version(int argc, char **argv) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_version_options, "version");
    int id;
    const char *value;
    enum cli_next next = cli_parser_next(&parser, &id, &value); /* --help never arrives: main.c handles it */
    if (next == CLI_NEXT_ERROR) {
        return CLI_EXIT_USAGE;
    }
    if (next == CLI_NEXT_OPERAND) {
        return cli_usage_error("version", "unexpected argument '%s'", value);
    }
    printf("anvil %s\n", anvil_version_string());
    return CLI_EXIT_OK;
}
