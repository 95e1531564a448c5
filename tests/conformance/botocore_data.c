/*
 * The botocore data Debian's python3-botocore ships: every waiters-2.json
 * must load into waiter descriptions (anvil_waiter_set_from_botocore).
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
            FILE *f = fopen(path, "rb");
            if (f) {
                fclose(f);
                s_waiters(c, path);
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
    if (c.files + c.failed == 0) {
        printf("FAIL: no waiters-2.json under %s (scripts/deps installs python3-botocore)\n", argv[1]);
        c.failed++;
    }
    printf("botocore waiters-2: %zu files, %zu waiters, %zu acceptors\n", c.files, c.waiters, c.acceptors);
    printf("%zu passed, %zu failed\n", c.files, c.failed);
    return c.failed == 0 ? 0 : 1;
}
