/* What `anvil wait` and `anvil paginate` share: their argument shape and "did you mean" over loaded names. */

#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_exec_command(int argc, char **argv, const struct cli_exec_spec *spec, void *ctx,
                           struct cli_exec_args *out) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, spec->options, spec->command);
    int id;
    const char *value;
    enum cli_next next;
    while (!out->command && (next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPERAND) {
            if (out->name) {
                return cli_usage_error(spec->command, "'anvil %s' takes one %s (the command goes after --exec)",
                                       spec->command, spec->what);
            }
            out->name = value;
        } else if (id == CLI_OPT_EXEC) {
            if (parser.index >= argc) {
                return cli_usage_error(spec->command, "--exec needs a command to run");
            }
            out->command = argv + parser.index; /* everything after --exec is the command */
        } else if (id == CLI_OPT_MODEL) {
            out->model = value;
        } else if (id == CLI_OPT_BOTOCORE) {
            out->botocore = value;
        } else {
            int code = spec->on_option(ctx, id, value);
            if (code != CLI_EXIT_OK) {
                return code;
            }
        }
    }
    if (!out->model == !out->botocore) {
        return cli_usage_error(spec->command, "give the %s with exactly one of --model and --botocore", spec->plural);
    }
    if (!out->name) {
        return cli_usage_error(spec->command, "no %s given", spec->what);
    }
    if (!out->command) {
        return cli_usage_error(spec->command, "--exec CMD [ARG...] is required: the command that calls the operation");
    }
    return CLI_EXIT_OK;
}

int cli_unknown_name(const char *command, const char *name, size_t count,
                     struct anvil_str_view (*at)(const void *set, size_t index), const void *set, const char *what,
                     const char *fallback) {
    const char **names = calloc(count + 1, sizeof *names);
    char **owned = calloc(count + 1, sizeof *owned);
    const char *hint = NULL;
    for (size_t i = 0; names && owned && i < count; i++) {
        struct anvil_str_view v = at(set, i);
        owned[i] = strndup(v.ptr, v.len);
        names[i] = owned[i] ? owned[i] : "";
    }
    if (names && owned) {
        hint = cli_suggest(name, names);
    }
    int code = hint ? cli_usage_error(command, "%s '%s' (did you mean '%s'?)", what, name, hint)
                    : cli_usage_error(command, "%s '%s'%s", what, name, fallback);
    for (size_t i = 0; owned && i < count; i++) {
        free(owned[i]);
    }
    free(owned);
    free(names);
    return code;
}
