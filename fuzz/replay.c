/*
 * Runs a libFuzzer target over files and folders without libFuzzer, so ctest
 * can replay corpora under ASan and UBSan with any compiler.
 * Usage: replay PATH... ; prints how many inputs it ran.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static size_t s_ran;

static int s_run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(data, cap * 2);
            if (!bigger) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data) {
        return 1;
    }
    /* An exact-size copy, so reading past the end is caught by ASan. */
    unsigned char *exact = malloc(n ? n : 1);
    if (!exact) {
        free(data);
        return 1;
    }
    memcpy(exact, data, n);
    free(data);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    s_ran++;
    return 0;
}

static int s_run(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such path %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        return s_run_file(path);
    }
    DIR *dir = opendir(path);
    if (!dir) {
        return 1;
    }
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char child[4096];
        snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
        failed |= s_run(child);
    }
    closedir(dir);
    return failed;
}

int main(int argc, char **argv) {
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        failed |= s_run(argv[i]);
    }
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    printf("replayed %zu inputs through %s\n", s_ran, name);
    return failed || s_ran == 0;
}
