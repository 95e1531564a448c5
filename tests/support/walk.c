/* Walking a folder of test data in a stable order. */

#define _DEFAULT_SOURCE

#include "walk.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void anvil_test_walk(const char *dir, const char *suffix, void (*fn)(const char *path, void *user), void *user) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, name);
        struct stat st;
        if (name[0] != '.' && stat(path, &st) == 0) {
            size_t len = strlen(name), sl = strlen(suffix);
            if (S_ISDIR(st.st_mode)) {
                anvil_test_walk(path, suffix, fn, user);
            } else if (len > sl && strcmp(name + len - sl, suffix) == 0) {
                fn(path, user);
            }
        }
        free(names[i]);
    }
    free(names);
}
