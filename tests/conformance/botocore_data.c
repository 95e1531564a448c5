/*
 * The botocore data Debian's python3-botocore ships: every waiters-2.json
 * must load into waiter descriptions (anvil_waiter_set_from_botocore),
 * every paginators-1.json into paginator descriptions, and every
 * endpoint-rule-set-1.json must compile and resolve for us-east-1 (to an
 * endpoint, or to an error of the rule set's own: a rule set may need a
 * parameter an operation binds). Prints what it counted.
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
    size_t rule_files, rule_params, resolved, rule_errors;
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

static void s_endpoint_rules(struct s_counts *c, const char *path) {
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_json_doc *doc = NULL;
    struct anvil_endpoint_rules *rules = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = text ? anvil_json_parse(NULL, text, len, NULL, &doc, &diag) : ANVIL_EIO;
    rc = rc == ANVIL_OK ? anvil_endpoint_rules_compile(NULL, anvil_json_doc_root(doc), NULL, &rules, &diag) : rc;
    rc = rc == ANVIL_OK ? anvil_arena_new(NULL, NULL, &arena) : rc;
    struct anvil_json params;
    static const char region[] = "{\"Region\": \"us-east-1\"}";
    rc = rc == ANVIL_OK ? anvil_json_parse_into(arena, NULL, region, sizeof region - 1, NULL, &params, NULL) : rc;
    struct anvil_endpoint e;
    int resolved = rc == ANVIL_OK ? anvil_endpoint_resolve_object(rules, &params, arena, &e, &diag) : rc;
    if (rc != ANVIL_OK || (resolved != ANVIL_OK && resolved != ANVIL_ECONFIG)) {
        printf("FAIL %s: %s: %s\n", path, anvil_status_name(rc != ANVIL_OK ? rc : resolved),
               text ? diag.message : "cannot read");
        c->failed++;
    } else {
        c->rule_files++;
        c->rule_params += anvil_endpoint_rules_param_count(rules);
        c->resolved += resolved == ANVIL_OK;
        c->rule_errors += resolved == ANVIL_ECONFIG;
    }
    anvil_arena_destroy(arena);
    anvil_endpoint_rules_destroy(rules);
    anvil_json_doc_destroy(doc);
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
            snprintf(path, sizeof path, "%s/%s/endpoint-rule-set-1.json", service, v->d_name);
            if (s_exists(path)) {
                s_endpoint_rules(c, path);
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
    if (c.files + c.failed == 0 || c.page_files == 0 || c.rule_files == 0) {
        printf("FAIL: no waiters-2.json, paginators-1.json or endpoint-rule-set-1.json under %s (scripts/deps "
               "installs python3-botocore)\n",
               argv[1]);
        c.failed++;
    }
    printf("botocore waiters-2: %zu files, %zu waiters, %zu acceptors\n", c.files, c.waiters, c.acceptors);
    printf("botocore paginators-1: %zu files, %zu paginators (%zu with several tokens, %zu with more_results)\n",
           c.page_files, c.paginators, c.multi_token, c.more_results);
    printf("botocore endpoint-rule-set-1: %zu files (%zu parameters) compile; for us-east-1, %zu resolve to an "
           "endpoint and %zu to an error of their own\n",
           c.rule_files, c.rule_params, c.resolved, c.rule_errors);
    printf("%zu passed, %zu failed\n", c.files + c.page_files + c.rule_files, c.failed);
    return c.failed == 0 ? 0 : 1;
}
