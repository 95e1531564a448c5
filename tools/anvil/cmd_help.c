/* anvil help [COMMAND]. */

#include "cli.h"

const struct cli_option cli_help_options[] = {
    CLI_OPTION_HELP,
    CLI_OPTIONS_END,
};

int cli_cmd_help(int argc, char **argv) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_help_options, "help");
    const char *topic = NULL;
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPTION) {
            cli_print_command_help(stdout, cli_find_command("help"));
            return CLI_EXIT_OK;
        }
        if (topic) {
            return cli_usage_error("help", "'anvil help' takes at most one command");
        }
        topic = value;
    }
    if (!topic) {
        cli_print_main_help(stdout);
        return CLI_EXIT_OK;
    }
    const struct cli_command *command = cli_find_command(topic);
    if (!command) {
        const char *hint = cli_suggest_command(topic);
        if (hint) {
            return cli_usage_error(NULL, "no command '%s' (did you mean '%s'?)", topic, hint);
        }
        return cli_usage_error(NULL, "no command '%s'", topic);
    }
    cli_print_command_help(stdout, command);
    return CLI_EXIT_OK;
}
