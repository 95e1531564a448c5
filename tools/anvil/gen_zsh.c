/*
 * The zsh completion function (_anvil), from the command and option tables: _arguments specs
 * with each option's help as its description, values for enum options, files and folders, a
 * command line after --exec, and the model's waiters and operations through `anvil __complete`.
 */

#include <string.h>

#include "gen_docs.h"

static const char s_prologue[] =
    "#compdef anvil\n"
    "# zsh completion for anvil(1). Made by anvil-gen-docs from tools/anvil's command and option\n"
    "# tables; do not edit. Install as _anvil in a folder of $fpath (e.g. site-functions).\n"
    "\n"
    "# A word of the command line as a path: quotes dropped, ~/ expanded.\n"
    "_anvil_path() {\n"
    "  local w=${(Q)1}\n"
    "  [[ $w == '~/'* ]] && w=$HOME/${w#\\~/}\n"
    "  print -r -- $w\n"
    "}\n"
    "\n"
    "# _anvil_names KIND DESCRIPTION: the waiters, operations or paginated operations of the\n"
    "# --model, --botocore and --service before the cursor (anvil __complete).\n"
    "_anvil_names() {\n"
    "  local -a from names expl\n"
    "  local i w\n"
    "  for (( i = 1; i < CURRENT; i++ )); do\n"
    "    w=${words[i]}\n"
    "    case $w in\n"
    "      (-m|--model|-b|--botocore|--service)\n"
    "        if (( i + 1 < CURRENT )); then\n"
    "          (( i++ ))\n"
    "          # --name=VALUE: a value that looks like an option stays a value.\n"
    "          case $w in (-m) w=--model ;; (-b) w=--botocore ;; esac\n"
    "          from+=(\"$w=$(_anvil_path ${words[i]})\")\n"
    "        fi ;;\n"
    "      (--model=*|--botocore=*|--service=*)\n"
    "        from+=(\"${w%%=*}=$(_anvil_path ${w#*=})\") ;;\n"
    "      (-x|--exec|--) break ;;\n"
    "    esac\n"
    "  done\n"
    "  (( $#from )) || return 1\n"
    "  names=(${(f)\"$($_anvil_command __complete $1 $from 2> /dev/null < /dev/null)\"})\n"
    "  _wanted names expl $2 compadd -a names\n"
    "}\n"
    "\n"
    "_anvil() {\n"
    "  local curcontext=$curcontext state state_descr line ret=1\n"
    "  typeset -A opt_args\n"
    "  local _anvil_command=$(_anvil_path ${words[1]})\n"
    "  _arguments -C \\\n";

/* Appends `text` for inside single quotes. */
static int s_quoted(struct anvil_buf *out, const char *text) {
    int rc = ANVIL_OK;
    for (const char *p = text; rc == ANVIL_OK && *p; p++) {
        rc = *p == '\'' ? anvil_buf_append_cstr(out, "'\\''") : anvil_buf_append_byte(out, *p);
    }
    return rc;
}

/* An option's description, for inside [...] within single quotes: its help's first clause, one line. */
static int s_description(struct anvil_buf *out, const char *help) {
    size_t len = strlen(help);
    /* The first clause when there is one, unless the cut would leave a parenthesis open. */
    const char *stop = strstr(help, "; ");
    int open = 0;
    for (const char *p = help; stop && p < stop; p++) {
        open += *p == '(' ? 1 : *p == ')' ? -1 : 0;
    }
    len = stop && open == 0 && (size_t)(stop - help) >= 12 ? (size_t)(stop - help) : len;
    int rc = ANVIL_OK;
    for (size_t i = 0; rc == ANVIL_OK && i < len; i++) {
        char c = help[i];
        if (c == '\'') {
            rc = anvil_buf_append_cstr(out, "'\\''");
        } else if (c == '[' || c == ']' || c == '\\') {
            rc = anvil_buf_append_byte(out, '\\');
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, c) : rc;
        } else {
            rc = anvil_buf_append_byte(out, c == '\n' ? ' ' : c);
        }
    }
    return rc;
}

/* An _arguments action for a value of `kind` (in braces: called as written, without _arguments' own options). */
static int s_action(struct anvil_buf *out, enum cli_value_kind kind, const char *choices) {
    switch (kind) {
    case CLI_VALUE_FILE:
        return anvil_buf_append_cstr(out, "_files");
    case CLI_VALUE_DIR:
        return anvil_buf_append_cstr(out, "_files -/");
    case CLI_VALUE_CHOICE:
        return anvil_buf_appendf(out, "(%s)", choices);
    case CLI_VALUE_COMMAND:
        return anvil_buf_append_cstr(out, "_normal");
    case CLI_VALUE_TOPIC: {
        int rc = anvil_buf_append_byte(out, '(');
        rc = rc == ANVIL_OK ? cli_gen_command_words(out) : rc;
        return rc == ANVIL_OK ? anvil_buf_append_byte(out, ')') : rc;
    }
    case CLI_VALUE_WAITER:
        return anvil_buf_append_cstr(out, "{_anvil_names waiters waiter}");
    case CLI_VALUE_OPERATION:
        return anvil_buf_append_cstr(out, "{_anvil_names operations operation}");
    case CLI_VALUE_PAGINATED:
        return anvil_buf_append_cstr(out, "{_anvil_names paginated \"paginated operation\"}");
    case CLI_VALUE_TEXT:
        break;
    }
    return anvil_buf_append_cstr(out, " ");
}

/*
 * One option's spec(s), e.g. '(-o --output)'{-o+,--output=}'[text (default) or json]:FORMAT:(text json)'
 * and a line continuation.
 */
static int s_option(struct anvil_buf *out, const struct cli_option *o) {
    bool value = o->arg == CLI_ARG_REQUIRED;
    int rc = anvil_buf_append_cstr(out, "    ");
    if (o->flags & CLI_OPTION_REPEATABLE) {
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "'*'") : rc;
    } else if (o->short_name) {
        rc = rc == ANVIL_OK ? anvil_buf_appendf(out, "'(-%c --%s)'", o->short_name, o->long_name) : rc;
    }
    if (rc == ANVIL_OK && o->short_name) {
        rc = anvil_buf_appendf(out, "{-%c%s,--%s%s}'", o->short_name, value ? "+" : "", o->long_name, value ? "=" : "");
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(out, "'--%s%s", o->long_name, value ? "=" : "");
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '[') : rc;
    rc = rc == ANVIL_OK ? s_description(out, o->help) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ']') : rc;
    if (rc == ANVIL_OK && o->arg == CLI_ARG_REST) {
        rc = anvil_buf_append_cstr(out, ":*::command:_normal");
    } else if (rc == ANVIL_OK && value) {
        rc = anvil_buf_append_byte(out, ':');
        rc = rc == ANVIL_OK ? s_quoted(out, o->value_name) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ':') : rc;
        rc = rc == ANVIL_OK ? s_action(out, o->value_kind, o->choices) : rc;
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "' \\\n") : rc;
}

static int s_command(struct anvil_buf *out, const struct cli_command *c) {
    int rc = anvil_buf_appendf(out, "  (%s)\n    _arguments -S \\\n", c->name);
    for (const struct cli_option *o = c->options; rc == ANVIL_OK && o->long_name; o++) {
        if (cli_option_listed(o)) {
            rc = s_option(out, o);
        }
    }
    if (rc == ANVIL_OK && c->operand != CLI_VALUE_TEXT) {
        bool one = c->operand != CLI_VALUE_FILE;
        rc = anvil_buf_append_cstr(out, one ? "    '1:" : "    '*:");
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, one ? "name" : "file") : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ':') : rc;
        rc = rc == ANVIL_OK ? s_action(out, c->operand, NULL) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "' \\\n") : rc;
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "    && ret=0 ;;\n") : rc;
}

int cli_gen_zsh(struct anvil_buf *out) {
    int rc = anvil_buf_append_cstr(out, s_prologue);
    for (const struct cli_option *o = cli_global_options; rc == ANVIL_OK && o->long_name; o++) {
        /* --help and --version end the line; --debug comes before a command. */
        const char *ends = o->id == CLI_OPT_HELP || o->id == 'V' ? "'(- *)'" : "";
        rc = o->short_name ? anvil_buf_appendf(out, "    %s{-%c,--%s}'[", ends, o->short_name, o->long_name)
                           : anvil_buf_appendf(out, "    %s'--%s[", ends, o->long_name);
        rc = rc == ANVIL_OK ? s_description(out, o->help) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "]' \\\n") : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "    '1:command:->command' \\\n"
                                                     "    '*::argument:->argument' && ret=0\n"
                                                     "  case $state in\n"
                                                     "  (command)\n"
                                                     "    local -a commands=(\n")
                        : rc;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name; c++) {
        if (cli_gen_listed(c)) {
            rc = anvil_buf_appendf(out, "      '%s:", c->name);
            rc = rc == ANVIL_OK ? s_quoted(out, c->summary) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "'\n") : rc;
        }
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "    )\n"
                                                     "    _describe -t commands 'anvil command' commands && ret=0 ;;\n"
                                                     "  (argument)\n"
                                                     "    curcontext=${curcontext%:*:*}:anvil-$words[1]:\n"
                                                     "    case $words[1] in\n")
                        : rc;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name; c++) {
        if (cli_gen_listed(c)) {
            rc = s_command(out, c);
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "    esac ;;\n"
                                                       "  esac\n"
                                                       "  return ret\n"
                                                       "}\n"
                                                       "\n"
                                                       "_anvil \"$@\"\n")
                          : rc;
}
