/* anvil: top-level option handling and subcommand dispatch. */

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli.h"

static int s_unknown_command(const char *name) {
    const char *hint = cli_suggest_command(name);
    if (hint) {
        return cli_usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", name, hint);
    }
    return cli_usage_error(NULL, "unknown command '%s'", name);
}

static bool s_wants_help(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        /* "--" ends the options; after --exec comes a command with options of its own. */
        if (strcmp(argv[i], "--") == 0 || strcmp(argv[i], "--exec") == 0 || strcmp(argv[i], "-x") == 0) {
            return false;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return true;
        }
    }
    return false;
}

static int s_flush_stdout(int code) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_output_error();
        return code == CLI_EXIT_OK ? CLI_EXIT_IO : code;
    }
    return code;
}

int main(int argc, char **argv) {
    /* A reader that goes away (`anvil json big | head`) is a write error (exit 74), not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        return cli_usage_error(NULL, "no command given");
    }
    /* Global options come before the command; the first operand is the command. */
    struct cli_parser parser;
    cli_parser_init(&parser, argc - 1, argv + 1, cli_global_options, NULL);
    int id;
    const char *value;
    for (;;) {
        enum cli_next next = cli_parser_next(&parser, &id, &value);
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_END) {
            return cli_usage_error(NULL, "no command given");
        }
        if (next == CLI_NEXT_OPTION && id == CLI_OPT_DEBUG) {
            cli_debug = true;
            continue;
        }
        if (next == CLI_NEXT_OPTION) {
            if (id == 'h') {
                cli_print_main_help(stdout);
            } else {
                printf("anvil %s\n", anvil_version_string());
            }
            return s_flush_stdout(CLI_EXIT_OK);
        }
        break;
    }
    const struct cli_command *command = cli_find_command(value);
    if (!command) {
        return s_unknown_command(value);
    }
    int sub_argc = argc - 1 - parser.index;
    char **sub_argv = argv + 1 + parser.index;
    /* A hidden command (__complete) takes its words as they come: "--help" there is a value, not a request. */
    if (command->run != cli_cmd_help && !(command->flags & CLI_COMMAND_HIDDEN) && s_wants_help(sub_argc, sub_argv)) {
        cli_print_command_help(stdout, command);
        return s_flush_stdout(CLI_EXIT_OK);
    }
    return s_flush_stdout(command->run(sub_argc, sub_argv));
}
