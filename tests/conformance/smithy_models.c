/*
 * The AWS Smithy models in ../shared/testdata/smithy-models/aws: every one
 * must load, every operation of each service closure must be reachable,
 * and every waiter acceptor path and message and every paginator path must
 * compile as JMESPath, and every waiter must build into a waiter description
 * (anvil_waiter_set_from_model) and every @paginated operation into a
 * paginator description merged with its service's defaults. Prints what it
 * counted.
 * Usage: smithy_models DIR
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "read_file.h"

struct s_counts {
    size_t models, shapes, services, operations, waiters, acceptors, paginated, expressions, built, paginators, failed;
    /* Waiters whose service speaks a protocol anvil's client speaks (each model has one service). */
    size_t callable;
    size_t protocols[7], sigv4, retryable, readonly, truncated;
};

static void s_compile(struct s_counts *c, const char *file, const struct anvil_shape *op, const struct anvil_json *v,
                      const char *what) {
    if (!v) {
        return;
    }
    struct anvil_str_view text = anvil_json_string(v);
    struct anvil_jmespath *expr = NULL;
    struct anvil_diag diag;
    if (!anvil_json_is_string(v) || anvil_jmespath_compile(NULL, text.ptr, text.len, NULL, &expr, &diag) != ANVIL_OK) {
        struct anvil_str_view id = anvil_shape_id(op);
        printf("FAIL %s: %.*s: %s `%.*s` does not compile: %s\n", file, (int)id.len, id.ptr, what, (int)text.len,
               text.ptr, diag.message);
        c->failed++;
    }
    c->expressions++;
    anvil_jmespath_destroy(expr);
}

static bool s_visit(const struct anvil_shape *op, void *user_data) {
    (void)op;
    ((struct s_counts *)user_data)->operations++;
    return true;
}

static void s_model(struct s_counts *c, const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    size_t len;
    char *text = anvil_test_read_file(path, &len);
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    if (!text || anvil_model_load(NULL, text, len, NULL, &model, &diag) != ANVIL_OK) {
        printf("FAIL %s: does not load: %s\n", name, text ? diag.message : "cannot read");
        c->failed++;
        free(text);
        return;
    }
    c->models++;
    c->shapes += anvil_model_shape_count(model);
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        bool throttling;
        c->retryable += anvil_error_is_retryable(s, &throttling);
        c->readonly += anvil_operation_is_readonly(s);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
            enum anvil_protocol p[7];
            size_t np = anvil_service_protocols(s, p, 7);
            for (size_t k = 0; k < np && k < 7; k++) {
                c->protocols[p[k]]++;
            }
            c->sigv4 += anvil_service_sigv4_name(s).len > 0;
            c->services++;
            size_t visited = 0;
            if (anvil_service_operations(model, s, s_visit, c, &visited) != ANVIL_OK || visited == 0) {
                printf("FAIL %s: service with no operations in its closure\n", name);
                c->failed++;
            }
        }
        if (anvil_shape_type(s) != ANVIL_SHAPE_OPERATION) {
            continue;
        }
        const struct anvil_json *waitable = anvil_shape_trait(s, "smithy.waiters#waitable");
        for (size_t w = 0; waitable && w < anvil_json_len(waitable); w++) {
            const struct anvil_json *waiter = &anvil_json_object_at(waitable, w)->value;
            const struct anvil_json *acceptors = anvil_json_object_get_cstr(waiter, "acceptors");
            c->waiters++;
            for (size_t a = 0; acceptors && a < anvil_json_len(acceptors); a++) {
                const struct anvil_json *acceptor = anvil_json_array_at(acceptors, a);
                const struct anvil_json *matcher = anvil_json_object_get_cstr(acceptor, "matcher");
                c->acceptors++;
                s_compile(c, name, s, anvil_json_object_get_cstr(anvil_json_object_get_cstr(matcher, "output"), "path"),
                          "output path");
                s_compile(c, name, s,
                          anvil_json_object_get_cstr(anvil_json_object_get_cstr(matcher, "inputOutput"), "path"),
                          "inputOutput path");
                s_compile(c, name, s, anvil_json_object_get_cstr(acceptor, "message"), "message");
            }
        }
        const struct anvil_json *paginated = anvil_shape_trait(s, "smithy.api#paginated");
        if (paginated) {
            c->paginated++;
            static const char *const keys[] = {"inputToken", "outputToken", "items", "pageSize"};
            for (size_t k = 0; k < 4; k++) {
                s_compile(c, name, s, anvil_json_object_get_cstr(paginated, keys[k]), keys[k]);
            }
        }
    }
    struct anvil_waiter_set *set = NULL;
    if (anvil_waiter_set_from_model(NULL, model, &set, &diag) != ANVIL_OK) {
        printf("FAIL %s: waiters do not build: %s\n", name, diag.message);
        c->failed++;
    }
    c->built += anvil_waiter_set_count(set);
    for (size_t i = 0; i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE && anvil_client_protocol(s)) {
            c->callable += anvil_waiter_set_count(set);
            break;
        }
    }
    anvil_waiter_set_destroy(set);
    struct anvil_paginator_set *pages = NULL;
    if (anvil_paginator_set_from_model(NULL, model, &pages, &diag) != ANVIL_OK) {
        printf("FAIL %s: paginators do not build: %s\n", name, diag.message);
        c->failed++;
    }
    c->paginators += anvil_paginator_set_count(pages);
    for (size_t i = 0; i < anvil_paginator_set_count(pages); i++) {
        c->truncated += anvil_paginator_set_at(pages, i)->more_results != NULL;
    }
    anvil_paginator_set_destroy(pages);
    anvil_model_destroy(model);
    free(text);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODELS_DIR\n", argv[0]);
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    struct s_counts c = {0};
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
            s_model(&c, argv[1], e->d_name);
        }
    }
    closedir(dir);
    printf(
        "Smithy models: %zu models, %zu shapes, %zu services, %zu operations in service closures, %zu waiters, "
        "%zu acceptors, %zu paginated operations, %zu expressions compiled, %zu waiter and %zu paginator descriptions built (%zu ending on IsTruncated)\n",
        c.models, c.shapes, c.services, c.operations, c.waiters, c.acceptors, c.paginated, c.expressions, c.built,
        c.paginators, c.truncated);
    printf(
        "Smithy models: protocols awsJson1_0 %zu, awsJson1_1 %zu, restJson1 %zu, awsQuery %zu, restXml %zu, ec2Query "
        "%zu; %zu services sign with sigv4; %zu readonly operations, %zu retryable errors\n",
        c.protocols[ANVIL_PROTOCOL_AWS_JSON_1_0], c.protocols[ANVIL_PROTOCOL_AWS_JSON_1_1],
        c.protocols[ANVIL_PROTOCOL_REST_JSON_1], c.protocols[ANVIL_PROTOCOL_AWS_QUERY],
        c.protocols[ANVIL_PROTOCOL_REST_XML], c.protocols[ANVIL_PROTOCOL_EC2_QUERY], c.sigv4, c.readonly, c.retryable);
    if (c.paginators != c.paginated) {
        printf("FAIL: %zu paginated operations but %zu paginator descriptions built\n", c.paginated, c.paginators);
        c.failed++;
    }
    if (c.built != c.waiters) {
        printf("FAIL: %zu waiters in the models but %zu descriptions built\n", c.waiters, c.built);
        c.failed++;
    }
    printf("Smithy models: %zu of %zu waiters' operations can be called over HTTP (their service speaks a protocol "
           "anvil speaks)\n",
           c.callable, c.built);
    if (c.callable != c.built) {
        printf("FAIL: %zu waiters cannot be called\n", c.built - c.callable);
        c.failed++;
    }
    printf("%zu passed, %zu failed\n", c.models, c.failed);
    return c.failed == 0 && c.models > 0 ? 0 : 1;
}
