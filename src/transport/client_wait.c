/* One call to wait or to paginate: the model's waiters and paginators driven through the client. */

#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "transport/client_internal.h"

/* The model's waiters (or paginators), read at the first call that needs them and kept with the client. */
static int s_waiters(struct anvil_client *c, struct anvil_diag *diag) {
    return c->waiters ? ANVIL_OK : anvil_waiter_set_from_model(c->allocator, c->model, &c->waiters, diag);
}

static int s_paginators(struct anvil_client *c, struct anvil_diag *diag) {
    return c->paginators ? ANVIL_OK : anvil_paginator_set_from_model(c->allocator, c->model, &c->paginators, diag);
}

int anvil__client_waiter(struct anvil_client *client, const char *name, const struct anvil_waiter *given,
                         const struct anvil_waiter **waiter, const struct anvil_shape **operation,
                         struct anvil_diag *diag) {
    int rc = ANVIL_OK;
    *waiter = given;
    if (!given) {
        rc = s_waiters(client, diag);
        *waiter = rc == ANVIL_OK ? anvil_waiter_set_find(client->waiters, name, strlen(name)) : NULL;
    }
    *operation = NULL;
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (*waiter && (rc = anvil__client_find_operation(client, (*waiter)->operation, operation)) != ANVIL_OK) {
        return anvil_diag_set(diag, rc, 0, 0, 0, "looking up the waiter's operation: %s", anvil_status_str(rc));
    }
    if (!*waiter || !*operation) {
        struct anvil_str_view shown = given ? given->name : anvil_sv_from_cstr(name);
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "the service has no waiter `%.*s`%s",
                              (int)(shown.len > 100 ? 100 : shown.len), shown.ptr,
                              *waiter ? " (its operation is another service's)" : "");
    }
    return ANVIL_OK;
}

int anvil_client_wait(struct anvil_client *client, const char *waiter_name, const struct anvil_json *input,
                      const struct anvil_wait_options *options, struct anvil_wait_result *result,
                      struct anvil_diag *diag) {
    if (result) {
        memset(result, 0, sizeof *result); /* cleaned up in every case */
    }
    if (!client || !waiter_name || !options || !result) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "anvil_client_wait needs a client, a waiter's name, "
                              "options (max_wait_ms) and a result");
    }
    const struct anvil_waiter *waiter = NULL;
    const struct anvil_shape *operation = NULL;
    int rc = anvil__client_waiter(client, waiter_name, NULL, &waiter, &operation, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_client_operation call_data = {client, operation, waiter};
    struct anvil_wait_call call = {anvil_client_operation_call, &call_data, NULL, NULL, client->options.env, NULL};
    return anvil_wait(waiter, input, options, &call, result, diag);
}

int anvil_client_paginate(struct anvil_client *client, const char *operation_name, const struct anvil_json *input,
                          const struct anvil_paginate_options *options, anvil_client_page_fn *on_page, void *ctx,
                          struct anvil_diag *diag) {
    if (!client || !operation_name || !on_page) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "anvil_client_paginate needs a client, an operation's name and a page callback");
    }
    int rc = s_paginators(client, diag);
    if (rc != ANVIL_OK) {
        return rc;
    }
    const struct anvil_shape *operation = anvil_client_operation(client, operation_name);
    const struct anvil_paginator *paginator =
        operation
            ? anvil_paginator_set_find(client->paginators, anvil_shape_id(operation).ptr, anvil_shape_id(operation).len)
            : NULL;
    if (!paginator) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "the service has no paginated operation `%.100s`",
                              operation_name);
    }
    static const struct anvil_paginate_options none = {0};
    struct anvil_paginate_run *run = NULL;
    rc = anvil_paginate_start(client->allocator, paginator, input, options ? options : &none, &run, diag);
    struct anvil_arena *arena = NULL;
    rc = rc == ANVIL_OK ? anvil_arena_new(client->allocator, NULL, &arena) : rc;
    bool more = true;
    while (rc == ANVIL_OK && more) {
        anvil_arena_reset(arena);
        const struct anvil_json *page_input = NULL;
        struct anvil_operation_reply reply;
        memset(&reply, 0, sizeof reply);
        rc = anvil_paginate_input(run, &page_input);
        rc = rc == ANVIL_OK ? anvil_client_call(client, operation, page_input, 0, arena, &reply) : rc;
        if (rc != ANVIL_OK && reply.error.code.len) {
            anvil_diag_set(diag, rc, 0, 0, 0, "page %llu: %.*s: %.*s",
                           (unsigned long long)anvil_paginate_pages(run) + 1, (int)reply.error.code.len,
                           reply.error.code.ptr, (int)(reply.error.message.len > 300 ? 300 : reply.error.message.len),
                           reply.error.message.ptr);
            break;
        }
        struct anvil_paginate_page page;
        rc = rc == ANVIL_OK ? anvil_paginate_report(run, &reply.output, &page) : rc;
        if (rc == ANVIL_OK) {
            more = page.reason == ANVIL_PAGINATE_MORE;
            int stop = on_page(ctx, &reply.output, &page);
            if (stop) {
                rc = stop;
            }
        }
    }
    if (rc != ANVIL_OK && diag && !diag->message[0]) {
        anvil_diag_set(diag, rc, 0, 0, 0, "paginating %.100s: %s", operation_name, anvil_status_str(rc));
    }
    anvil_arena_destroy(arena);
    anvil_paginate_destroy(run);
    return rc;
}
