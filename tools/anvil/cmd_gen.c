/* anvil gen: a model's waiters as C (anvil_codegen_generate()), written to DIR/PREFIX.h and DIR/PREFIX.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

enum { OPT_SERVICE = 1000, OPT_PREFIX, OPT_OUT, OPT_INTERPRET };

/* Writes `len` bytes to `path`.tmp whole; CLI_EXIT_IO naming it when it cannot. */
static int s_write_tmp(const char *path, const char *data, size_t len) {
    char tmp[4300]; /* `path` is at most 4,199 bytes */
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        cli_error("gen: cannot write %s: %s", tmp, strerror(errno));
        return CLI_EXIT_IO;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        cli_error("gen: cannot write %s: %s", tmp, strerror(errno));
        remove(tmp);
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* Moves `path`.tmp over `path`. */
static int s_commit(const char *path) {
    char tmp[4300]; /* `path` is at most 4,199 bytes */
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (rename(tmp, path) != 0) {
        cli_error("gen: cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* A botocore service's waiters-2.json and paginators-1.json (either may be missing: an empty set). */
static int s_load_botocore(const struct cli_service_files *files, struct anvil_waiter_set **waiters,
                           struct anvil_paginator_set **paginators) {
    int code = cli_botocore_waiters(files->waiters, waiters);
    return code == CLI_EXIT_OK ? cli_botocore_paginators(files->paginators, paginators) : code;
}

const struct cli_option cli_gen_options[] = {
    CLI_OPTION_HELP,
    CLI_MODEL_OPTION,
    CLI_TEXT("service", 0, OPT_SERVICE, "ID|NAME",
             "the service (an absolute shape id) when the model has several; a NAME (ec2, dynamodb): botocore's "
             "newest data"),
    CLI_TEXT("prefix", 0, OPT_PREFIX, "NAME", "the C prefix of every generated name (a C identifier)"),
    CLI_VALUE("out", 'o', OPT_OUT, "DIR", CLI_VALUE_DIR, "the folder to write NAME.h and NAME.c into"),
    CLI_FLAG("interpret", 0, OPT_INTERPRET, "every matcher through the interpreter (to compare)"),
    CLI_OPTIONS_END,
};

int cli_cmd_gen(int argc, char **argv) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_gen_options, "gen");
    struct cli_paths models = {{NULL}, 0};
    const char *service = NULL, *prefix = NULL, *out_dir = NULL;
    bool interpret = false;
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPERAND) {
            return cli_usage_error("gen", "unexpected argument '%s' (models go with --model)", value);
        }
        if (id == CLI_OPT_MODEL) {
            int code = cli_paths_add(&models, "gen", value);
            if (code != CLI_EXIT_OK) {
                return code;
            }
        } else if (id == OPT_SERVICE) {
            service = value;
        } else if (id == OPT_INTERPRET) {
            interpret = true;
        } else if (id == OPT_PREFIX) {
            prefix = value;
        } else {
            out_dir = value;
        }
    }
    /* --service NAME (no '#'): botocore's files of the service; a botocore --model: the files beside it. */
    static struct cli_service_files botocore;
    bool from_botocore = false;
    if (service && !strchr(service, '#')) {
        if (models.count) {
            return cli_usage_error("gen", "give --model FILE or --service NAME (botocore's data), not both");
        }
        int code = cli_service_find("gen", service, &botocore);
        if (code != CLI_EXIT_OK) {
            return code;
        }
        service = NULL;
        from_botocore = true;
        models.items[models.count++] = botocore.model;
    } else if (models.count == 1) {
        from_botocore = cli_service_companions(models.items[0], &botocore);
    }
    if (!models.count || !prefix || !out_dir) {
        return cli_usage_error("gen", "give --model (or --service NAME), --prefix and --out");
    }
    if (strlen(out_dir) + strlen(prefix) + 3 >= 4200) {
        return cli_usage_error("gen", "the files under --out would have paths longer than 4,199 bytes");
    }
    struct stat st;
    if (stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cli_error("gen: %s is not a folder", out_dir);
        return CLI_EXIT_IO;
    }
    struct cli_input input;
    struct anvil_model *model = NULL;
    int code = cli_model_assemble(models.items, models.count, false, &input, &model);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_waiter_set *waiters = NULL;
    struct anvil_paginator_set *paginators = NULL;
    if (from_botocore) {
        code = s_load_botocore(&botocore, &waiters, &paginators);
    }
    struct anvil_buf header, source;
    anvil_buf_init(&header, NULL, 0);
    anvil_buf_init(&source, NULL, 0);
    struct anvil_codegen_options o = {prefix, service, NULL, interpret, waiters, paginators};
    struct anvil_codegen_stats stats;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = code == CLI_EXIT_OK ? anvil_codegen_generate(model, &o, &header, &source, &stats, &diag) : ANVIL_OK;
    if (rc != ANVIL_OK) {
        cli_error("gen: %s", diag.message[0] ? diag.message : anvil_status_str(rc));
        cli_debug_origin(&diag);
        code = rc == ANVIL_EINVAL ? CLI_EXIT_USAGE : rc == ANVIL_EMODEL ? CLI_EXIT_DATA : cli_exit_for_status(rc);
    }
    /* Both files written before either replaces an old one: never a new header beside an old source. */
    char h_path[4200], c_path[4200]; /* checked to fit above */
    snprintf(h_path, sizeof h_path, "%s/%s.h", out_dir, prefix);
    snprintf(c_path, sizeof c_path, "%s/%s.c", out_dir, prefix);
    code = code == CLI_EXIT_OK ? s_write_tmp(h_path, header.data, header.len) : code;
    if (code == CLI_EXIT_OK && (code = s_write_tmp(c_path, source.data, source.len)) != CLI_EXIT_OK) {
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.tmp", h_path);
        remove(tmp);
    }
    code = code == CLI_EXIT_OK ? s_commit(h_path) : code;
    code = code == CLI_EXIT_OK ? s_commit(c_path) : code;
    if (code == CLI_EXIT_OK) {
        fprintf(stderr,
                "anvil: gen: %zu waiters (%zu acceptors), %zu matchers: %zu compiled, %zu interpreted; %zu "
                "paginators; %zu operations; model %zu bytes\n",
                stats.waiters, stats.acceptors, stats.matchers, stats.compiled, stats.fallbacks, stats.paginators,
                stats.operations, stats.model_bytes);
    }
    anvil_buf_clean_up(&header);
    anvil_buf_clean_up(&source);
    anvil_model_destroy(model);
    anvil_waiter_set_destroy(waiters);
    anvil_paginator_set_destroy(paginators);
    cli_input_release(&input);
    return code;
}
