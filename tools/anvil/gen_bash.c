/*
 * The bash completion script, from the command and option tables: command names, each command's
 * options, the values of options that take one of a few (--output text|json), file and folder
 * names, a command line after --exec, and the waiters or operations of the model already on the
 * command line, which it asks `anvil __complete` for (cmd_complete.c).
 *
 * The words it offers go through `compgen -W`, which expands them: they are only the tables' own
 * names and what __complete prints, which is letters, digits and ._:- and nothing else.
 */

#include <string.h>

#include "gen_docs.h"

/* The parts of the script that do not depend on the tables. */
static const char s_prologue[] =
    "# bash completion for anvil(1). Made by anvil-gen-docs from tools/anvil's command and option\n"
    "# tables; do not edit. Install as bash-completion's completions/anvil, or source it.\n"
    "\n"
    "_anvil_reply() {\n"
    "    mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\")\n"
    "}\n"
    "\n"
    "_anvil_files() {\n"
    "    compopt -o filenames 2> /dev/null\n"
    "    mapfile -t COMPREPLY < <(compgen \"${1:--f}\" -- \"$cur\")\n"
    "}\n"
    "\n"
    "# A word of the command line as a path: ~/ expanded, quotes and backslashes dropped.\n"
    "_anvil_path() {\n"
    "    local w=$1\n"
    "    w=${w#[\\\"\\']}\n"
    "    w=${w%[\\\"\\']}\n"
    "    w=${w//\\\\/}\n"
    "    # shellcheck disable=SC2088 # a literal ~/ is what is matched and replaced\n"
    "    [[ $w == '~/'* ]] && w=$HOME/${w#'~/'}\n"
    "    printf '%s' \"$w\"\n"
    "}\n"
    "\n"
    "# Names (waiters, operations, paginated) from the --model, --botocore and --service before the cursor.\n"
    "_anvil_names() {\n"
    "    local -a from=()\n"
    "    local i w\n"
    "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
    "        w=${COMP_WORDS[i]}\n"
    "        case $w in\n"
    "            -m | --model | -b | --botocore | --service)\n"
    "                [[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))\n"
    "                if ((i + 1 < COMP_CWORD)); then\n"
    "                    ((i++))\n"
    "                    # --name=VALUE: a value that looks like an option stays a value.\n"
    "                    case $w in -m) w=--model ;; -b) w=--botocore ;; esac\n"
    "                    from+=(\"$w=$(_anvil_path \"${COMP_WORDS[i]}\")\")\n"
    "                fi\n"
    "                ;;\n"
    "            -x | --exec | --) break ;;\n"
    "        esac\n"
    "    done\n"
    "    ((${#from[@]})) || return 0\n"
    "    \"$(_anvil_path \"${COMP_WORDS[0]}\")\" __complete \"$1\" \"${from[@]}\" 2> /dev/null < /dev/null\n"
    "}\n"
    "\n"
    "# After one of the options $2... (--exec), found past word $1: the rest is a command line of its own.\n"
    "_anvil_rest() {\n"
    "    local start=$1 j o\n"
    "    shift\n"
    "    for ((j = start + 1; j < COMP_CWORD; j++)); do\n"
    "        [[ ${COMP_WORDS[j]} == -- ]] && return 1\n"
    "        for o; do\n"
    "            [[ ${COMP_WORDS[j]} == \"$o\" ]] || continue\n"
    "            if ((j + 1 == COMP_CWORD)); then\n"
    "                _anvil_files -c\n"
    "            elif declare -F _command_offset > /dev/null; then\n"
    "                _command_offset $((j + 1))\n"
    "            else\n"
    "                _anvil_files\n"
    "            fi\n"
    "            return 0\n"
    "        done\n"
    "    done\n"
    "    return 1\n"
    "}\n"
    "\n"
    "_anvil() {\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
    "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
    "    # bash splits --name=VALUE into --name, =, VALUE.\n"
    "    if [[ $cur == = ]]; then\n"
    "        cur=\n"
    "    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
    "        prev=${COMP_WORDS[COMP_CWORD - 2]}\n"
    "    fi\n"
    "    COMPREPLY=()\n"
    "    local i command=\n"
    "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
    "        case ${COMP_WORDS[i]} in\n"
    "            -*) ;;\n"
    "            *)\n"
    "                command=${COMP_WORDS[i]}\n"
    "                break\n"
    "                ;;\n"
    "        esac\n"
    "    done\n";

static const char s_epilogue[] = "    esac\n"
                                 "    return 0\n"
                                 "}\n"
                                 "\n"
                                 "complete -F _anvil anvil\n";

/* "-m --model" for an option; "--help -h" style lists append with a space before. */
static int s_names(struct anvil_buf *out, const struct cli_option *o, const char *sep) {
    int rc = ANVIL_OK;
    if (o->short_name) {
        rc = anvil_buf_appendf(out, "-%c%s", o->short_name, sep);
    }
    return rc == ANVIL_OK ? anvil_buf_appendf(out, "--%s", o->long_name) : rc;
}

/* `_anvil_reply "..."` with every listed option of `options`. */
static int s_option_words(struct anvil_buf *out, const struct cli_option *options) {
    int rc = anvil_buf_append_cstr(out, "_anvil_reply \"");
    bool first = true;
    for (const struct cli_option *o = options; rc == ANVIL_OK && o->long_name; o++) {
        if (cli_option_listed(o)) {
            rc = first ? ANVIL_OK : anvil_buf_append_byte(out, ' ');
            rc = rc == ANVIL_OK ? s_names(out, o, " ") : rc;
            first = false;
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
}

/* The shell code that offers a value of `kind` (after `indent`); ":" for nothing. */
static int s_value(struct anvil_buf *out, enum cli_value_kind kind, const char *choices) {
    switch (kind) {
    case CLI_VALUE_FILE:
        return anvil_buf_append_cstr(out, "_anvil_files");
    case CLI_VALUE_DIR:
        return anvil_buf_append_cstr(out, "_anvil_files -d");
    case CLI_VALUE_CHOICE:
        return anvil_buf_appendf(out, "_anvil_reply \"%s\"", choices);
    case CLI_VALUE_COMMAND:
        return anvil_buf_append_cstr(out, "_anvil_files -c");
    case CLI_VALUE_TOPIC: {
        int rc = anvil_buf_append_cstr(out, "_anvil_reply \"");
        rc = rc == ANVIL_OK ? cli_gen_command_words(out) : rc;
        return rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
    }
    case CLI_VALUE_WAITER:
        return anvil_buf_append_cstr(out, "_anvil_reply \"$(_anvil_names waiters)\"");
    case CLI_VALUE_OPERATION:
        return anvil_buf_append_cstr(out, "_anvil_reply \"$(_anvil_names operations)\"");
    case CLI_VALUE_PAGINATED:
        return anvil_buf_append_cstr(out, "_anvil_reply \"$(_anvil_names paginated)\"");
    case CLI_VALUE_TEXT:
        break;
    }
    return anvil_buf_append_cstr(out, ":");
}

static int s_command(struct anvil_buf *out, const struct cli_command *c) {
    const struct cli_option *options = c->options;
    int rc = anvil_buf_appendf(out, "        %s)\n", c->name);
    /* An option after which the rest of the line is a command (--exec). */
    bool rest = false;
    for (const struct cli_option *o = options; rc == ANVIL_OK && o->long_name; o++) {
        if (o->arg == CLI_ARG_REST) {
            rc = anvil_buf_append_cstr(out, rest ? " " : "            _anvil_rest \"$i\" ");
            rc = rc == ANVIL_OK ? s_names(out, o, " ") : rc;
            rest = true;
        }
    }
    rc = rc == ANVIL_OK && rest ? anvil_buf_append_cstr(out, " && return 0\n") : rc;
    /* The value of the option before the cursor: one branch per option with values to offer, one for the rest. */
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "            case $prev in\n") : rc;
    bool any_text = false;
    for (const struct cli_option *o = options; rc == ANVIL_OK && o->long_name; o++) {
        if (o->arg == CLI_ARG_REQUIRED && o->value_kind != CLI_VALUE_TEXT) {
            rc = anvil_buf_append_cstr(out, "                ");
            rc = rc == ANVIL_OK ? s_names(out, o, " | ") : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ")\n                    ") : rc;
            rc = rc == ANVIL_OK ? s_value(out, o->value_kind, o->choices) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n                    return 0\n                    ;;\n")
                                : rc;
        }
        any_text = any_text || (o->arg == CLI_ARG_REQUIRED && o->value_kind == CLI_VALUE_TEXT);
    }
    if (rc == ANVIL_OK && any_text) {
        rc = anvil_buf_append_cstr(out, "                ");
        bool first = true;
        for (const struct cli_option *o = options; rc == ANVIL_OK && o->long_name; o++) {
            if (o->arg == CLI_ARG_REQUIRED && o->value_kind == CLI_VALUE_TEXT) {
                rc = first ? ANVIL_OK : anvil_buf_append_cstr(out, " | ");
                rc = rc == ANVIL_OK ? s_names(out, o, " | ") : rc;
                first = false;
            }
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ") return 0 ;;\n") : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "            esac\n            if [[ $cur == -* ]]; then\n"
                                                     "                ")
                        : rc;
    rc = rc == ANVIL_OK ? s_option_words(out, options) : rc;
    if (rc == ANVIL_OK && c->operand != CLI_VALUE_TEXT) {
        rc = anvil_buf_append_cstr(out, "\n            else\n                ");
        rc = rc == ANVIL_OK ? s_value(out, c->operand, NULL) : rc;
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n            fi\n            ;;\n") : rc;
}

int cli_gen_bash(struct anvil_buf *out) {
    int rc = anvil_buf_append_cstr(out, s_prologue);
    /* No command yet: the global options, or the commands. */
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "    if [[ -z $command ]]; then\n"
                                                     "        if [[ $cur == -* ]]; then\n            ")
                        : rc;
    rc = rc == ANVIL_OK ? s_option_words(out, cli_global_options) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n        else\n            ") : rc;
    rc = rc == ANVIL_OK ? s_value(out, CLI_VALUE_TOPIC, NULL) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n        fi\n        return 0\n    fi\n    case $command in\n")
                        : rc;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name; c++) {
        if (cli_gen_listed(c)) {
            rc = s_command(out, c);
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, s_epilogue) : rc;
}
