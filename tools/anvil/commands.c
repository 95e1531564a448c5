/* The command table: one entry per subcommand, in the order help lists them. */

#include <string.h>

#include "cli.h"

const struct cli_command cli_commands[] = {
    {"help", "Show help for anvil or for one command",
     "Usage: anvil help [COMMAND]\n"
     "\n"
     "Without COMMAND, lists the commands. With COMMAND, shows its usage and options.\n"
     "'anvil COMMAND --help' does the same.\n",
     cli_cmd_help},
    {"version", "Print anvil's version",
     "Usage: anvil version\n"
     "\n"
     "Prints \"anvil VERSION\" on standard output. 'anvil --version' does the same.\n",
     cli_cmd_version},
    {NULL, NULL, NULL, NULL},
};

const struct cli_command *cli_find_command(const char *name) {
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        if (strcmp(c->name, name) == 0) {
            return c;
        }
    }
    return NULL;
}
