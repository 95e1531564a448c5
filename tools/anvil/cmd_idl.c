/* anvil idl: assemble Smithy models and write them as IDL 2.0, one file per namespace. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* One IDL file of the model into `out`: namespace `ns` (empty: none), with or without the metadata. */
static int s_write(const struct cli_input *input, const struct anvil_model *model, struct anvil_str_view ns,
                   bool with_metadata, struct anvil_buf *out) {
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    struct anvil_idl_write_options options = {.with_metadata = with_metadata};
    anvil_buf_clear(out);
    int rc = anvil_model_write_idl(model, ns, &options, out, &diag);
    if (rc != ANVIL_OK) {
        cli_error("%s: %s", input->label, rc == ANVIL_ENOMEM ? "out of memory" : diag.message);
        cli_debug_origin(&diag);
        return cli_exit_for_status(rc);
    }
    return CLI_EXIT_OK;
}

/* Writes DIR/NAME.smithy and prints its path. */
static int s_write_into(const char *dir, struct anvil_str_view name, const struct anvil_buf *text) {
    struct anvil_buf path;
    anvil_buf_init(&path, NULL, 0);
    int rc = anvil_buf_append_cstr(&path, dir);
    if (rc == ANVIL_OK && path.len > 0 && path.data[path.len - 1] != '/') {
        rc = anvil_buf_append_byte(&path, '/');
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_sv(&path, name);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_cstr(&path, ".smithy");
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&path, '\0');
    }
    int code = CLI_EXIT_IO;
    if (rc != ANVIL_OK) {
        cli_error("%s: out of memory", dir);
    } else if ((code = cli_write_file(path.data, text->data ? text->data : "", text->len)) == CLI_EXIT_OK) {
        struct anvil_buf line; /* the path as anything anvil prints: one line, control characters escaped */
        anvil_buf_init(&line, NULL, 0);
        rc = anvil_text_append_escaped(&line, anvil_sv(path.data, path.len - 1));
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(&line, '\n') : rc;
        code = rc == ANVIL_OK ? cli_write_output(line.data, line.len) : CLI_EXIT_INTERNAL;
        anvil_buf_clean_up(&line);
    }
    anvil_buf_clean_up(&path);
    return code;
}

/*
 * --output-dir: NAMESPACE.smithy for each namespace, metadata.smithy when there is metadata, as Smithy
 * names them. A namespace called `metadata` takes the metadata into its own file (Smithy would write one
 * file over the other).
 */
static int s_write_dir(const struct cli_input *input, const struct anvil_model *model, const char *dir,
                       const struct anvil_str_view *namespaces, size_t count) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: cannot make the folder: %s", dir, strerror(errno));
        return CLI_EXIT_IO;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cli_error("%s: not a folder", dir);
        return CLI_EXIT_IO;
    }
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    int code = CLI_EXIT_OK;
    bool metadata = anvil_json_len(anvil_model_metadata(model)) > 0, written = false;
    for (size_t i = 0; code == CLI_EXIT_OK && i < count; i++) {
        bool here = metadata && anvil_sv_eq_cstr(namespaces[i], "metadata");
        written |= here;
        code = s_write(input, model, namespaces[i], here, &text);
        if (code == CLI_EXIT_OK) {
            code = s_write_into(dir, namespaces[i], &text);
        }
    }
    if (code == CLI_EXIT_OK && metadata && !written) {
        code = s_write(input, model, anvil_sv("", 0), true, &text);
        if (code == CLI_EXIT_OK) {
            code = s_write_into(dir, ANVIL_SV("metadata"), &text);
        }
    }
    anvil_buf_clean_up(&text);
    return code;
}

static struct anvil_str_view s_namespace_at(const void *namespaces, size_t index) {
    return ((const struct anvil_str_view *)namespaces)[index];
}

/* Standard output: one namespace's file, or the only namespace's (or none's) with the metadata. */
static int s_print(const struct cli_input *input, const struct anvil_model *model, const char *chosen,
                   const struct anvil_str_view *namespaces, size_t count) {
    struct anvil_str_view ns = anvil_sv("", 0);
    if (chosen) {
        size_t i = 0;
        while (i < count && !anvil_sv_eq_cstr(namespaces[i], chosen)) {
            i++;
        }
        if (i == count) {
            return cli_unknown_name("idl", chosen, count, s_namespace_at, namespaces, "the model has no namespace",
                                    count ? "" : " (it has no shapes)");
        }
        ns = namespaces[i];
    } else if (count > 1) {
        return cli_usage_error("idl",
                               "the model has %zu namespaces and an IDL file holds one: pick one with --namespace "
                               "(%.*s, %.*s%s) or write them all with --output-dir DIR",
                               count, (int)namespaces[0].len, namespaces[0].ptr, (int)namespaces[1].len,
                               namespaces[1].ptr, count > 2 ? ", ..." : "");
    } else if (count == 1) {
        ns = namespaces[0];
    }
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    int code = s_write(input, model, ns, !chosen, &text);
    if (code == CLI_EXIT_OK) {
        code = cli_write_output(text.data ? text.data : "", text.len);
    }
    anvil_buf_clean_up(&text);
    return code;
}

enum { OPT_NAMESPACE = 1, OPT_OUTPUT_DIR };

/* --namespace and --output-dir as given. */
struct s_choice {
    const char *ns, *dir;
};

static int s_on_option(void *ctx, int id, const char *value) {
    struct s_choice *choice = ctx;
    *(id == OPT_NAMESPACE ? &choice->ns : &choice->dir) = value;
    return CLI_EXIT_OK;
}

const struct cli_option cli_idl_options[] = {
    CLI_OPTION_HELP,
    CLI_TEXT("namespace", 'n', OPT_NAMESPACE, "NS", "print the shapes of namespace NS"),
    CLI_VALUE("output-dir", 'o', OPT_OUTPUT_DIR, "DIR", CLI_VALUE_DIR,
              "write one file per namespace into DIR (made if missing)"),
    CLI_OPTIONS_END,
};

int cli_cmd_idl(int argc, char **argv) {
    struct cli_paths files;
    struct s_choice choice = {NULL, NULL};
    int code = cli_parse_paths(argc, argv, cli_idl_options, "idl", s_on_option, &choice, &files);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    const char *chosen = choice.ns, *dir = choice.dir;
    if (chosen && dir) {
        return cli_usage_error("idl", "give --namespace or --output-dir, not both");
    }
    if (dir && !*dir) {
        return cli_usage_error("idl", "--output-dir needs a folder");
    }
    struct cli_input input;
    struct anvil_model *model = NULL;
    code = cli_model_assemble(files.items, files.count, false, &input, &model);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    size_t count = anvil_model_namespaces(model, NULL, 0);
    struct anvil_str_view *namespaces = calloc(count ? count : 1, sizeof(*namespaces));
    if (!namespaces) {
        cli_error("%s: out of memory", input.label);
        code = CLI_EXIT_INTERNAL;
    } else {
        anvil_model_namespaces(model, namespaces, count);
        code = dir ? s_write_dir(&input, model, dir, namespaces, count)
                   : s_print(&input, model, chosen, namespaces, count);
    }
    free(namespaces);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}
