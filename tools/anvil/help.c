/*
 * Help text made from the command and option tables: `anvil --help`, `anvil help COMMAND` and
 * `anvil COMMAND --help`. The option list is laid out from each option's table entry, so what the
 * parser accepts and what help shows cannot drift apart.
 */

#include <string.h>

#include "cli.h"

/* Help lines are wrapped to this width; an option's text starts at most this far in. */
#define S_WIDTH 80
#define S_MAX_COLUMN 32

bool cli_option_listed(const struct cli_option *option) {
    return !(option->flags & CLI_OPTION_HIDDEN);
}

size_t cli_option_spec(const struct cli_option *option, char *buf, size_t size) {
    int n = snprintf(buf, size, "%c%c%c --%s%s%s", option->short_name ? '-' : ' ',
                     option->short_name ? option->short_name : ' ', option->short_name ? ',' : ' ', option->long_name,
                     option->value_name ? " " : "", option->value_name ? option->value_name : "");
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/*
 * Prints `text`'s words, filling lines up to S_WIDTH: the first line goes on from column `at`,
 * the others start with `indent` spaces. A word longer than a line gets a line of its own.
 */
static void s_wrap(FILE *out, const char *text, size_t at, size_t indent) {
    size_t column = at;
    bool first = true;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\n') {
            p++;
        }
        size_t len = strcspn(p, " \n");
        if (!len) {
            break;
        }
        if (!first && column + 1 + len > S_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            column = indent;
        } else if (!first) {
            fputc(' ', out);
            column++;
        }
        fwrite(p, 1, len, out);
        column += len;
        first = false;
        p += len;
    }
    fputc('\n', out);
}

/* Whether `option` belongs in the help's option list: --help itself is left out (it is what is being read). */
static bool s_in_help(const struct cli_option *option) {
    return cli_option_listed(option) && option->id != CLI_OPT_HELP;
}

static void s_print_options(FILE *out, const struct cli_option *options, size_t column, bool http) {
    for (const struct cli_option *o = options; o->long_name; o++) {
        if (!s_in_help(o) || !(o->flags & CLI_OPTION_HTTP) != !http) {
            continue;
        }
        char spec[128];
        size_t len = cli_option_spec(o, spec, sizeof spec);
        fprintf(out, "  %s", spec);
        if (2 + len + 2 > column) {
            fprintf(out, "\n%*s", (int)column, "");
        } else {
            fprintf(out, "%*s", (int)(column - 2 - len), "");
        }
        s_wrap(out, o->help ? o->help : "", column, column);
    }
}

void cli_print_command_help(FILE *out, const struct cli_command *command) {
    fprintf(out, "Usage: %s\n%s", command->usage, command->description);
    if (command->exit_status) {
        fputs("\nExit status: ", out);
        s_wrap(out, command->exit_status, strlen("Exit status: "), 0);
    }
    /* One column for all the options, HTTP ones included, so the two lists line up. */
    size_t widest = 0;
    bool any = false, any_http = false;
    for (const struct cli_option *o = command->options; o->long_name; o++) {
        if (s_in_help(o)) {
            char spec[128];
            size_t len = cli_option_spec(o, spec, sizeof spec);
            widest = len > widest && 2 + len + 2 <= S_MAX_COLUMN ? len : widest;
            any_http = any_http || (o->flags & CLI_OPTION_HTTP);
            any = any || !(o->flags & CLI_OPTION_HTTP);
        }
    }
    size_t column = 2 + widest + 2;
    if (any) {
        fputs("\nOptions:\n", out);
        s_print_options(out, command->options, column, false);
    }
    if (any_http) {
        fputs("\n" CLI_HTTP_HEADING ":\n", out);
        s_print_options(out, command->options, column, true);
    }
}

void cli_print_main_help(FILE *out) {
    fputs("anvil - " CLI_TAGLINE "\n"
          "\n"
          "Usage: anvil [--help] [--version] [--debug] COMMAND [ARGS...]\n"
          "\n"
          "Options (before the command):\n",
          out);
    s_print_options(out, cli_global_options, 20, false);
    fputs("\nCommands:\n", out);
    size_t widest = 0;
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        widest = !(c->flags & CLI_COMMAND_HIDDEN) && strlen(c->name) > widest ? strlen(c->name) : widest;
    }
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        if (!(c->flags & CLI_COMMAND_HIDDEN)) {
            fprintf(out, "  %-*s  %s\n", (int)widest, c->name, c->summary);
        }
    }
    fputs("\nExit status:\n", out);
    widest = 0;
    for (const struct cli_reference *e = cli_exit_codes; e->name; e++) {
        widest = strlen(e->name) > widest ? strlen(e->name) : widest;
    }
    for (const struct cli_reference *e = cli_exit_codes; e->name; e++) {
        fprintf(out, "  %-*s  ", (int)widest, e->name);
        s_wrap(out, e->text, 2 + widest + 2, 2 + widest + 2);
    }
    fputs("\nRun 'anvil help COMMAND' for a command's options.\n", out);
}
