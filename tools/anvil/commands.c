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
    {"json", "Validate a JSON document and print it again",
     "Usage: anvil json [--pretty] [--ascii] [--quiet] [--max-depth N] [--max-bytes N] [FILE]\n"
     "\n"
     "Parses FILE (standard input when FILE is absent or '-') as strict RFC 8259 JSON\n"
     "and prints it again, compact by default. Invalid input prints\n"
     "FILE:LINE:COLUMN: MESSAGE on standard error and exits 65.\n"
     "\n"
     "Options:\n"
     "  -p, --pretty       indent with two spaces, one member or item per line\n"
     "  -a, --ascii        escape every non-ASCII character as \\uXXXX\n"
     "  -q, --quiet        only validate; print nothing on success\n"
     "      --max-depth N  deepest nesting accepted (default 512)\n"
     "      --max-bytes N  largest input accepted in bytes (default 1 GiB)\n",
     cli_cmd_json},
    {"query", "Evaluate a JMESPath expression against a JSON document",
     "Usage: anvil query [-f FILE] [-e EXPR_FILE] [-u] [-p] [--ast] EXPRESSION [FILE]\n"
     "\n"
     "Evaluates the JMESPath EXPRESSION against the JSON document in FILE (standard\n"
     "input when absent or '-') and prints the result as JSON. Compatible with jp.\n"
     "Errors print \"anvil: query: KIND: MESSAGE\" (KIND is syntax, invalid-type,\n"
     "invalid-arity, invalid-value or unknown-function) and exit 65; syntax errors\n"
     "also show the expression with a caret under the problem.\n"
     "\n"
     "Options:\n"
     "  -f, --filename FILE   read the document from FILE\n"
     "  -e, --expr-file FILE  read the expression from FILE\n"
     "  -u, --unquoted        print a string result without quotes\n"
     "  -p, --pretty          indent the result\n"
     "      --ast             print the parsed expression tree instead of evaluating\n",
     cli_cmd_query},
    {"validate", "Validate Smithy JSON AST models",
     "Usage: anvil validate FILE...\n"
     "\n"
     "Loads each Smithy JSON AST model and prints its validation events, sorted, as\n"
     "[SEVERITY] shape-id: message | EventId, with the ids, severities and messages\n"
     "Smithy uses. Exits 0 when no event is an ERROR, 1 when one is, and 65 when a\n"
     "file is not a readable model (FILE:LINE:COLUMN: message).\n"
     "\n"
     "Rules so far: unresolved member targets (Target); every @paginated rule\n"
     "(PaginatedTrait), including the service merge; the @waitable rules and the\n"
     "waiter-path return types; @requestCompression; @idempotencyToken placement.\n",
     cli_cmd_validate},
    {"waiters", "List the waiters a Smithy model defines",
     "Usage: anvil waiters [--output text|json] [--tag TAG] FILE\n"
     "\n"
     "Lists each operation's waiters in the Smithy JSON AST model FILE: name, delays,\n"
     "documentation, tags, whether deprecated, and the acceptors in order, in\n"
     "readable text (the default) or as a JSON array with each waiter's definition.\n"
     "\n"
     "Options:\n"
     "  -o, --output FORMAT  text (default) or json\n"
     "  -t, --tag TAG        only waiters carrying TAG\n",
     cli_cmd_waiters},
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

const char *cli_suggest_command(const char *name) {
    const char *names[32];
    size_t n = 0;
    for (const struct cli_command *c = cli_commands; c->name && n < 31; c++) {
        names[n++] = c->name;
    }
    names[n] = NULL;
    return cli_suggest(name, names);
}
