/*
 * The botocore data Debian's python3-botocore ships: every waiters-2.json
 * must load into waiter descriptions (anvil_waiter_set_from_botocore), and
 * every paginators-1.json into paginator descriptions.
 * Prints what it counted.
 * Usage: botocore_data DATA_DIR   (e.g. /usr/lib/python3/dist-packages/botocore/data)
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "read_file.h"

struct s_counts {
    size_t files, waiters, acceptors, failed;
    size_t page_files, paginators, multi_token, more_results;
};

static void s_waiters(struct s_counts *c, const char *path) {
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_waiter_set *set = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    if (!text || anvil_waiter_set_from_botocore(NULL, text, len, &set, &diag) != ANVIL_OK) {
        printf("FAIL %s: %s\n", path, text ? diag.message : "cannot read");
        c->failed++;
    } else {
        c->files++;
        for (size_t i = 0; i < anvil_waiter_set_count(set); i++) {
            c->waiters++;
            c->acceptors += anvil_waiter_set_at(set, i)->acceptor_count;
        }
    }
    anvil_waiter_set_destroy(set);
    free(text);
}

static void s_paginators(struct s_counts *c, const char *path) {
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_paginator_set *set = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    if (!text || anvil_paginator_set_from_botocore(NULL, text, len, &set, &diag) != ANVIL_OK) {
        printf("FAIL %s: %s\n", path, text ? diag.message : "cannot read");
        c->failed++;
    } else {
        c->page_files++;
        for (size_t i = 0; i < anvil_paginator_set_count(set); i++) {
            const struct anvil_paginator *p = anvil_paginator_set_at(set, i);
            c->paginators++;
            c->multi_token += p->token_count > 1;
            c->more_results += p->more_results != NULL;
        }
    }
    anvil_paginator_set_destroy(set);
    free(text);
}

static bool s_exists(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
    }
    return f != NULL;
}

/* DATA_DIR/SERVICE/VERSION/FILE for each of the two levels of directories. */
static void s_walk(struct s_counts *c, const char *root) {
    DIR *services = opendir(root);
    if (!services) {
        return;
    }
    struct dirent *s;
    while ((s = readdir(services)) != NULL) {
        if (s->d_name[0] == '.') {
            continue;
        }
        char service[4096];
        snprintf(service, sizeof service, "%s/%s", root, s->d_name);
        DIR *versions = opendir(service);
        struct dirent *v;
        while (versions && (v = readdir(versions)) != NULL) {
            if (v->d_name[0] == '.') {
                continue;
            }
            char path[8192];
            snprintf(path, sizeof path, "%s/%s/waiters-2.json", service, v->d_name);
            if (s_exists(path)) {
                s_waiters(c, path);
            }
            snprintf(path, sizeof path, "%s/%s/paginators-1.json", service, v->d_name);
            if (s_exists(path)) {
                s_paginators(c, path);
            }
        }
        if (versions) {
            closedir(versions);
        }
    }
    closedir(services);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s BOTOCORE_DATA_DIR\n", argv[0]);
        return 2;
    }
    struct s_counts c = {0};
    s_walk(&c, argv[1]);
    if (c.files + c.failed == 0 || c.page_files == 0) {
        printf("FAIL: no waiters-2.json or paginators-1.json under %s (scripts/deps installs python3-botocore)\n",
               argv[1]);
        c.failed++;
    }
    printf("botocore waiters-2: %zu files, %zu waiters, %zu acceptors\n", c.files, c.waiters, c.acceptors);
    printf("botocore paginators-1: %zu files, %zu paginators (%zu with several tokens, %zu with more_results)\n",
           c.page_files, c.paginators, c.multi_token, c.more_results);
    printf("%zu passed, %zu failed\n", c.files + c.page_files, c.failed);
    return c.failed == 0 ? 0 : 1;
}
