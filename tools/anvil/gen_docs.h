#ifndef ANVIL_GEN_DOCS_H
#define ANVIL_GEN_DOCS_H

/*
 * anvil-gen-docs: the man pages, the completion scripts and docs/cli.md's option blocks, made
 * from the CLI's command and option tables (cli.h). Each writer appends to `out` and returns
 * ANVIL_OK or ANVIL_ENOMEM.
 */

#include "cli.h"

/* anvil(1): the overview, the commands, the exit codes and the environment. */
int cli_gen_man_main(struct anvil_buf *out);

/* anvil-COMMAND(1). */
int cli_gen_man_command(const struct cli_command *command, struct anvil_buf *out);

/* The bash completion script (bash-completion's completions/anvil). */
int cli_gen_bash(struct anvil_buf *out);

/* The zsh completion function (site-functions/_anvil). */
int cli_gen_zsh(struct anvil_buf *out);

/*
 * `doc` (docs/cli.md) with each block between "<!-- BEGIN generated: options NAME -->" and
 * "<!-- END generated -->" written anew: NAME is a command, or "http" for the HTTP options.
 * ANVIL_EINVAL, with `problem` saying why, for an unknown NAME, an unclosed block or a command
 * without a block.
 */
int cli_gen_markdown(struct anvil_str_view doc, struct anvil_buf *out, struct anvil_buf *problem);

/* Whether the command is documented (not CLI_COMMAND_HIDDEN). */
bool cli_gen_listed(const struct cli_command *command);

/* The listed commands' names, separated by spaces (completion's word lists). */
int cli_gen_command_words(struct anvil_buf *out);

/* Whether an option is one of `http` (CLI_OPTION_HTTP) and listed in documentation (not hidden). */
bool cli_gen_option_in(const struct cli_option *option, bool http);

#endif
