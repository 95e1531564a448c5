#include "cli.h"

static const char s_exit_codes[] = "Exit status:\n"
                                   "  0   success\n"
                                   "  1   a waiter reached a failure state\n"
                                   "  2   a waiter timed out\n"
                                   "  3   unexpected error from the service or transport\n"
                                   "  64  usage error (bad command, option or argument)\n"
                                   "  65  invalid input data (JSON, expression, model)\n"
                                   "  66  an input file could not be opened\n"
                                   "  70  internal error\n"
                                   "  74  an output could not be written\n";

void cli_print_main_help(FILE *out) {
    fputs("anvil - Smithy client behaviours: waiters, retries, paginators\n"
          "\n"
          "Usage: anvil [--help] [--version] COMMAND [ARGS...]\n"
          "\n"
          "Commands:\n",
          out);
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    }
    fputs("\n", out);
    fputs(s_exit_codes, out);
    fputs("\nRun 'anvil help COMMAND' for a command's options.\n", out);
}

void cli_print_command_help(FILE *out, const struct cli_command *command) {
    fputs(command->help, out);
}

int cli_cmd_help(int argc, char **argv) {
    static const struct cli_option options[] = {CLI_OPTION_HELP, {NULL, 0, CLI_ARG_NONE, 0}};
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, options, "help");
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
