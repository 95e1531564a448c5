/*
 * anvil-gen-docs: writes the man pages, the bash and zsh completion scripts, and docs/cli.md's
 * generated blocks from the CLI's command and option tables. The build runs it (tools/anvil's
 * CMakeLists.txt); it is not installed. It is a program of its own rather than a hidden anvil
 * command so that the installed anvil carries no troff or shell writers, and it links the same
 * command and option tables the anvil binary is made of, so both always agree.
 *
 *   anvil-gen-docs man DIR           DIR/anvil.1 and DIR/anvil-COMMAND.1 for every command
 *   anvil-gen-docs bash FILE         the bash completion script
 *   anvil-gen-docs zsh FILE          the zsh completion function
 *   anvil-gen-docs markdown IN OUT   IN (docs/cli.md) with its generated blocks written anew
 */

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_docs.h"

static int s_write(const char *path, int rc, const struct anvil_buf *out) {
    if (rc != ANVIL_OK) {
        fprintf(stderr, "anvil-gen-docs: %s: %s\n", path, anvil_status_str(rc));
        return 1;
    }
    return cli_write_file(path, out->data ? out->data : "", out->len) == CLI_EXIT_OK ? 0 : 1;
}

static int s_man(const char *dir) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "anvil-gen-docs: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/anvil.1", dir);
    int code = s_write(path, cli_gen_man_main(&out), &out);
    for (const struct cli_command *c = cli_commands; code == 0 && c->name; c++) {
        if (cli_gen_listed(c)) {
            anvil_buf_clear(&out);
            snprintf(path, sizeof path, "%s/anvil-%s.1", dir, c->name);
            code = s_write(path, cli_gen_man_command(c, &out), &out);
        }
    }
    anvil_buf_clean_up(&out);
    return code;
}

static int s_markdown(const char *in_path, const char *out_path) {
    struct cli_input in;
    if (cli_input_read(in_path, (size_t)16 << 20, &in) != CLI_EXIT_OK) {
        return 1;
    }
    struct anvil_buf out, problem;
    anvil_buf_init(&out, NULL, 0);
    anvil_buf_init(&problem, NULL, 0);
    int rc = cli_gen_markdown(anvil_sv(in.data, in.len), &out, &problem);
    int code = 0;
    if (rc == ANVIL_EINVAL) {
        fprintf(stderr, "anvil-gen-docs: %s: %.*s\n", in_path, (int)problem.len, problem.data ? problem.data : "");
        code = 1;
    } else {
        code = s_write(out_path, rc, &out);
    }
    anvil_buf_clean_up(&out);
    anvil_buf_clean_up(&problem);
    cli_input_release(&in);
    return code;
}

/*
 * What every generated file relies on, checked before any is written so that a table entry
 * missing its help fails the build: each listed option has help, a value name when it takes a
 * value and its values when it takes one of a few; no two options of a command share a name; each
 * listed command has a summary, usage and description.
 */
static bool s_options_ok(const char *command, const struct cli_option *options) {
    bool ok = true;
    for (const struct cli_option *o = options; o->long_name; o++) {
        const char *problem = !cli_option_listed(o)                                         ? NULL
                              : !o->help || !o->help[0]                                     ? "has no help"
                              : (o->arg != CLI_ARG_NONE) != (o->value_name != NULL)         ? "value name does not fit"
                              : (o->value_kind == CLI_VALUE_CHOICE) != (o->choices != NULL) ? "choices do not fit"
                                                                                            : NULL;
        for (const struct cli_option *p = options; !problem && p != o; p++) {
            problem = strcmp(p->long_name, o->long_name) == 0 || (o->short_name && p->short_name == o->short_name)
                          ? "shares a name with an earlier option"
                          : NULL;
        }
        if (problem) {
            fprintf(stderr, "anvil-gen-docs: %s --%s: %s\n", command, o->long_name, problem);
            ok = false;
        }
    }
    return ok;
}

static bool s_tables_ok(void) {
    bool ok = s_options_ok("anvil", cli_global_options) && s_options_ok("HTTP", cli_http_options);
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        if (cli_gen_listed(c) && (!c->summary || !c->usage || !c->description)) {
            fprintf(stderr, "anvil-gen-docs: %s: no summary, usage or description\n", c->name);
            ok = false;
        }
        ok = s_options_ok(c->name, c->options) && ok;
    }
    return ok;
}

int main(int argc, char **argv) {
    if (!s_tables_ok()) {
        return 1;
    }
    if (argc == 3 && strcmp(argv[1], "man") == 0) {
        return s_man(argv[2]);
    }
    if (argc == 3 && (strcmp(argv[1], "bash") == 0 || strcmp(argv[1], "zsh") == 0)) {
        struct anvil_buf out;
        anvil_buf_init(&out, NULL, 0);
        int code = s_write(argv[2], argv[1][0] == 'b' ? cli_gen_bash(&out) : cli_gen_zsh(&out), &out);
        anvil_buf_clean_up(&out);
        return code;
    }
    if (argc == 4 && strcmp(argv[1], "markdown") == 0) {
        return s_markdown(argv[2], argv[3]);
    }
    fputs("usage: anvil-gen-docs man DIR | bash FILE | zsh FILE | markdown IN OUT\n", stderr);
    return 64;
}
