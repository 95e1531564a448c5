/*
 * --service NAME: a service's botocore data where AWS tools keep it. botocore
 * lays its data out as ROOT/NAME/API-VERSION/{service-2,waiters-2,paginators-1}.json
 * (loaders.py), sometimes gzipped (.json.gz). The roots are searched in order
 * (docs/cli.md, "--service"); the first that has NAME gives its newest
 * API version, the greatest folder name, as botocore picks it.
 */

#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The most roots searched and service names offered as suggestions. */
#define S_MAX_ROOTS 64
#define S_MAX_NAMES 4096

struct s_roots {
    char *paths[S_MAX_ROOTS];
    const char *why[S_MAX_ROOTS]; /* where the root comes from, for the message */
    size_t count;
};

static void s_add_root(struct s_roots *r, const char *path, const char *why) {
    if (r->count < S_MAX_ROOTS && path[0]) {
        r->paths[r->count] = strdup(path);
        r->why[r->count] = why;
        r->count += r->paths[r->count] != NULL;
    }
}

/* The colon-separated folders of a variable, in order. */
static void s_add_list(struct s_roots *r, const char *list, const char *why) {
    for (const char *p = list; p && *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        char path[4096];
        if (n && n < sizeof path) {
            memcpy(path, p, n);
            path[n] = '\0';
            s_add_root(r, path, why);
        }
        p = colon ? colon + 1 : p + n;
    }
}

/* Folders matching `pattern`, newest Python first (glob sorts them; the list is read backwards). */
static void s_add_glob(struct s_roots *r, const char *pattern, const char *why) {
    glob_t g;
    if (glob(pattern, 0, NULL, &g) == 0) { /* the roots are checked as folders when searched */
        for (size_t i = g.gl_pathc; i > 0; i--) {
            s_add_root(r, g.gl_pathv[i - 1], why);
        }
    }
    globfree(&g);
}

static void s_roots(struct s_roots *r) {
    const char *home = getenv("HOME");
    char path[4096];
    s_add_list(r, getenv("ANVIL_MODEL_PATH"), "ANVIL_MODEL_PATH");
    s_add_list(r, getenv("AWS_DATA_PATH"), "AWS_DATA_PATH");
    if (home && *home) {
        snprintf(path, sizeof path, "%s/.aws/models", home);
        s_add_root(r, path, "botocore's user models");
    }
    s_add_root(r, "/usr/lib/python3/dist-packages/botocore/data", "Debian's python3-botocore");
    s_add_root(r, "/usr/local/aws-cli/v2/current/dist/awscli/botocore/data", "aws-cli v2's installer");
    if (home && *home) {
        snprintf(path, sizeof path, "%s/.local/aws-cli/v2/current/dist/awscli/botocore/data", home);
        s_add_root(r, path, "aws-cli v2 installed for the user");
    }
    s_add_glob(r, "/usr/local/lib/python3*/dist-packages/botocore/data", "pip");
    s_add_glob(r, "/usr/local/lib/python3*/site-packages/botocore/data", "pip");
    if (home && *home) {
        snprintf(path, sizeof path, "%s/.local/lib/python3*/site-packages/botocore/data", home);
        s_add_glob(r, path, "pip --user");
    }
    s_add_glob(r, "/usr/lib/python3*/site-packages/botocore/data", "the system's python3-botocore");
}

static void s_roots_free(struct s_roots *r) {
    for (size_t i = 0; i < r->count; i++) {
        free(r->paths[i]);
    }
    r->count = 0;
}

static bool s_is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool s_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* DIR/BASE.json, else DIR/BASE.json.gz, into `out`; false (out empty) when neither is a file. */
static bool s_data_file(const char *dir, const char *base, char *out, size_t cap) {
    snprintf(out, cap, "%s/%s.json", dir, base);
    if (s_is_file(out)) {
        return true;
    }
    snprintf(out, cap, "%s/%s.json.gz", dir, base);
    if (s_is_file(out)) {
        return true;
    }
    out[0] = '\0';
    return false;
}

/* The newest API-version folder of SERVICE_DIR that has a service model, into `out`; false when none. */
static bool s_newest(const char *service_dir, char *out, size_t cap) {
    DIR *d = opendir(service_dir);
    if (!d) {
        return false;
    }
    char best[256] = "";
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char dir[4096], file[4352];
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof best || strcmp(e->d_name, best) <= 0) {
            continue;
        }
        int n = snprintf(dir, sizeof dir, "%s/%s", service_dir, e->d_name);
        if (n > 0 && (size_t)n < sizeof dir && s_data_file(dir, "service-2", file, sizeof file)) {
            snprintf(best, sizeof best, "%s", e->d_name);
        }
    }
    closedir(d);
    if (best[0]) {
        snprintf(out, cap, "%s/%s", service_dir, best);
    }
    return best[0] != '\0';
}

/* Every service NAME the roots hold, for "did you mean". */
static size_t s_known_names(const struct s_roots *r, char **names, size_t cap) {
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) {
        DIR *d = opendir(r->paths[i]);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL && n + 1 < cap) {
            char dir[4096], version[4352];
            snprintf(dir, sizeof dir, "%s/%s", r->paths[i], e->d_name);
            if (e->d_name[0] != '.' && s_newest(dir, version, sizeof version)) {
                names[n] = strdup(e->d_name);
                n += names[n] != NULL;
            }
        }
        if (d) {
            closedir(d);
        }
    }
    names[n] = NULL;
    return n;
}

static int s_not_found(const char *command, const char *name, const struct s_roots *r) {
    char **names = calloc(S_MAX_NAMES + 1, sizeof(*names));
    const char *hint = NULL;
    size_t n = names ? s_known_names(r, names, S_MAX_NAMES + 1) : 0;
    if (names) {
        hint = cli_suggest(name, (const char *const *)names);
    }
    cli_error("%s: no botocore service '%s'%s%s%s", command, name, hint ? " (did you mean '" : "", hint ? hint : "",
              hint ? "'?)" : "");
    cli_error("looked for %s/API-VERSION/service-2.json (or .json.gz) in:", name);
    if (!getenv("ANVIL_MODEL_PATH") || !*getenv("ANVIL_MODEL_PATH")) {
        cli_error("  ANVIL_MODEL_PATH (not set)");
    }
    for (size_t i = 0; i < r->count; i++) {
        cli_error("  %s (%s%s)", r->paths[i], r->why[i], s_is_dir(r->paths[i]) ? "" : "; not there");
    }
    cli_error("set ANVIL_MODEL_PATH to folders of botocore data, or give the model with --model");
    for (size_t i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
    return CLI_EXIT_CONFIG;
}

int cli_service_find(const char *command, const char *name, struct cli_service_files *out) {
    memset(out, 0, sizeof(*out));
    if (!name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strlen(name) > 200) {
        return cli_usage_error(command, "--service takes a service's name, such as ec2 or dynamodb, not '%s'", name);
    }
    struct s_roots r = {0};
    s_roots(&r);
    int code = CLI_EXIT_OK;
    bool found = false;
    for (size_t i = 0; i < r.count && !found; i++) {
        char service_dir[4352];
        snprintf(service_dir, sizeof service_dir, "%s/%s", r.paths[i], name);
        found = s_newest(service_dir, out->dir, sizeof out->dir);
    }
    if (!found) {
        code = s_not_found(command, name, &r);
    } else {
        s_data_file(out->dir, "service-2", out->model, sizeof out->model);
        s_data_file(out->dir, "waiters-2", out->waiters, sizeof out->waiters);
        s_data_file(out->dir, "paginators-1", out->paginators, sizeof out->paginators);
        s_data_file(out->dir, "endpoint-rule-set-1", out->endpoint_rules, sizeof out->endpoint_rules);
    }
    s_roots_free(&r);
    return code;
}

bool cli_service_companions(const char *model_path, struct cli_service_files *out) {
    memset(out, 0, sizeof(*out));
    const char *slash = strrchr(model_path, '/');
    const char *base = slash ? slash + 1 : model_path;
    if (strcmp(base, "service-2.json") != 0 && strcmp(base, "service-2.json.gz") != 0) {
        return false;
    }
    size_t dir_len = slash ? (size_t)(slash - model_path) : 1;
    if (dir_len >= sizeof out->dir) {
        return false;
    }
    memcpy(out->dir, slash ? model_path : ".", dir_len);
    out->dir[dir_len] = '\0';
    snprintf(out->model, sizeof out->model, "%s", model_path);
    s_data_file(out->dir, "waiters-2", out->waiters, sizeof out->waiters);
    s_data_file(out->dir, "paginators-1", out->paginators, sizeof out->paginators);
    s_data_file(out->dir, "endpoint-rule-set-1", out->endpoint_rules, sizeof out->endpoint_rules);
    return true;
}
