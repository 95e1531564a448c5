/*
 * anvil __complete KIND [--model FILE]... [--botocore FILE] [--service NAME]: the names the
 * completion scripts offer (waiters for `wait`, operations for `call` and `endpoint`, paginated
 * operations for `paginate`), one per line, from the model, botocore file or service named.
 *
 * It runs while someone presses TAB, on whatever is on their command line: it prints nothing but
 * names, never a message (standard error goes nowhere), reads only regular files and folders (never
 * standard input, a FIFO or a device), and any problem just ends it with nothing printed.
 */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* At most this many names are offered; a name is at most this long. */
#define S_MAX_NAMES 100000
#define S_MAX_NAME 255
/* What one TAB may read: model files, and bytes in all once inflated (EC2's model is about 6 MB). */
#define S_MAX_FILES 64
#define S_MAX_BYTES ((size_t)64 << 20)

enum s_kind { S_WAITERS, S_OPERATIONS, S_PAGINATED };

const struct cli_option cli_complete_options[] = {
    CLI_OPTION_HELP,
    CLI_MODEL_OPTION,
    CLI_VALUE("botocore", 'b', CLI_OPT_BOTOCORE, "FILE", CLI_VALUE_FILE,
              "a botocore waiters-2.json or paginators-1.json"),
    CLI_TEXT("service", 0, CLI_OPT_SERVICE, "NAME", "the newest botocore data of NAME"),
    CLI_OPTIONS_END,
};

struct s_names {
    char **items;
    size_t count, cap;
};

/* Only names a shell word can hold as they are: letters, digits and ._:- (Smithy's and botocore's names are). */
static bool s_plain(struct anvil_str_view name) {
    if (name.len == 0 || name.len > S_MAX_NAME) {
        return false;
    }
    for (size_t i = 0; i < name.len; i++) {
        char c = name.ptr[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                  c == ':' || c == '-';
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool s_add(struct s_names *names, struct anvil_str_view name) {
    if (!s_plain(name)) {
        return true; /* left out, not an error */
    }
    if (names->count == S_MAX_NAMES) {
        return false;
    }
    if (names->count == names->cap) {
        size_t cap = names->cap ? names->cap * 2 : 64;
        char **items = realloc(names->items, cap * sizeof *items);
        if (!items) {
            return false;
        }
        names->items = items;
        names->cap = cap;
    }
    names->items[names->count] = strndup(name.ptr, name.len);
    return names->items[names->count++] != NULL;
}

/* The part of a shape id after '#' ("Op" of "ns#Op"). */
static struct anvil_str_view s_local(struct anvil_str_view id) {
    size_t hash = anvil_sv_find_byte(id, 0, '#');
    return hash == SIZE_MAX ? id : anvil_sv_slice(id, hash + 1, id.len - hash - 1);
}

/* A file or folder by name: never "-" (standard input), a FIFO or a device. */
static bool s_readable(const char *path) {
    struct stat st;
    return path && path[0] && strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
           (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
}

/* The names of a set's waiters, or its paginators' operations. */
static bool s_add_set(enum s_kind kind, const struct anvil_waiter_set *waiters,
                      const struct anvil_paginator_set *paginators, struct s_names *names) {
    bool ok = true;
    if (kind == S_WAITERS) {
        for (size_t i = 0; ok && i < anvil_waiter_set_count(waiters); i++) {
            ok = s_add(names, anvil_waiter_set_at(waiters, i)->name);
        }
    } else {
        for (size_t i = 0; ok && i < anvil_paginator_set_count(paginators); i++) {
            ok = s_add(names, s_local(anvil_paginator_set_at(paginators, i)->operation));
        }
    }
    return ok;
}

static bool s_from_botocore(enum s_kind kind, const char *path, struct s_names *names) {
    struct anvil_waiter_set *waiters = NULL;
    struct anvil_paginator_set *paginators = NULL;
    bool ok = s_readable(path) && (kind == S_WAITERS ? cli_botocore_waiters(path, &waiters)
                                                     : cli_botocore_paginators(path, &paginators)) == CLI_EXIT_OK;
    ok = ok && s_add_set(kind, waiters, paginators, names);
    anvil_waiter_set_destroy(waiters);
    anvil_paginator_set_destroy(paginators);
    return ok;
}

static bool s_from_model(enum s_kind kind, const struct cli_paths *models, struct s_names *names) {
    for (size_t i = 0; i < models->count; i++) {
        if (!s_readable(models->items[i])) {
            return false;
        }
    }
    struct cli_input in;
    struct anvil_model *model = NULL;
    if (cli_model_assemble(models->items, models->count, false, &in, &model) != CLI_EXIT_OK) {
        return false;
    }
    cli_input_release(&in);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    bool ok = true;
    if (kind != S_OPERATIONS) {
        struct anvil_waiter_set *waiters = NULL;
        struct anvil_paginator_set *paginators = NULL;
        ok = (kind == S_WAITERS ? anvil_waiter_set_from_model(NULL, model, &waiters, &diag)
                                : anvil_paginator_set_from_model(NULL, model, &paginators, &diag)) == ANVIL_OK &&
             s_add_set(kind, waiters, paginators, names);
        anvil_waiter_set_destroy(waiters);
        anvil_paginator_set_destroy(paginators);
    } else {
        for (size_t i = 0; ok && i < anvil_model_shape_count(model); i++) {
            const struct anvil_shape *shape = anvil_model_shape_at(model, i);
            if (anvil_shape_type(shape) == ANVIL_SHAPE_OPERATION) {
                ok = s_add(names, anvil_shape_name(shape));
            }
        }
    }
    anvil_model_destroy(model);
    return ok;
}

static int s_compare(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct s_args {
    struct cli_paths models;
    const char *botocore, *service, *kind;
};

static bool s_parse(int argc, char **argv, struct s_args *a) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_complete_options, "__complete");
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR || (next == CLI_NEXT_OPERAND && a->kind)) {
            return false;
        }
        if (next == CLI_NEXT_OPERAND) {
            a->kind = value;
        } else if (id == CLI_OPT_MODEL && cli_paths_add(&a->models, "__complete", value) != CLI_EXIT_OK) {
            return false;
        } else if (id == CLI_OPT_BOTOCORE) {
            a->botocore = value;
        } else if (id == CLI_OPT_SERVICE) {
            a->service = value;
        }
    }
    return a->kind != NULL;
}

/* Gathers the names; false when nothing can be offered. */
static bool s_gather(struct s_args *a, enum s_kind kind, struct s_names *names) {
    struct cli_service_files found;
    if (a->service) {
        if (cli_service_find("__complete", a->service, &found) != CLI_EXIT_OK) {
            return false;
        }
        a->botocore = kind == S_WAITERS ? found.waiters : kind == S_PAGINATED ? found.paginators : NULL;
        a->models.count = 0;
        if (kind == S_OPERATIONS) {
            a->models.items[a->models.count++] = found.model;
        }
    }
    /* As wait and paginate do: the waiters or paginators from --botocore when it is given, else the model's. */
    if (a->botocore && a->botocore[0] && kind != S_OPERATIONS) {
        return s_from_botocore(kind, a->botocore, names);
    }
    return a->models.count > 0 && s_from_model(kind, &a->models, names);
}

int cli_cmd_complete(int argc, char **argv) {
    /* Nothing but names: whatever goes wrong says nothing on the terminal being completed on. */
    if (!freopen("/dev/null", "w", stderr)) {
        return 1;
    }
    /* One TAB reads little: a hostile folder of gzipped files cannot make it take seconds and gigabytes. */
    cli_limit_reads(S_MAX_FILES, S_MAX_BYTES);
    struct s_args a;
    memset(&a, 0, sizeof a);
    if (!s_parse(argc, argv, &a)) {
        return 1;
    }
    enum s_kind kind;
    if (strcmp(a.kind, "waiters") == 0) {
        kind = S_WAITERS;
    } else if (strcmp(a.kind, "operations") == 0) {
        kind = S_OPERATIONS;
    } else if (strcmp(a.kind, "paginated") == 0) {
        kind = S_PAGINATED;
    } else {
        return 1;
    }
    struct s_names names = {NULL, 0, 0};
    bool ok = s_gather(&a, kind, &names);
    if (ok && names.count) {
        qsort(names.items, names.count, sizeof *names.items, s_compare);
        for (size_t i = 0; i < names.count; i++) {
            if (i == 0 || strcmp(names.items[i], names.items[i - 1]) != 0) {
                printf("%s\n", names.items[i]);
            }
        }
    }
    for (size_t i = 0; i < names.count; i++) {
        free(names.items[i]);
    }
    free(names.items);
    return ok ? CLI_EXIT_OK : 1;
}
