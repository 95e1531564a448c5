/* anvil paginate: run an operation page after page through a command (--exec), printing pages or items. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    OPT_INPUT = 'i',
    OPT_PAGE_SIZE = 1000,
    OPT_MAX_ITEMS,
    OPT_MAX_PAGES,
    OPT_STARTING_TOKEN,
    OPT_DUPLICATES,
    OPT_ITEMS,
    OPT_OUTPUT
};

struct s_args {
    struct cli_exec_args exec; /* model, botocore, operation (exec.name), command */
    const char *input, *starting_token, *duplicates;
    uint64_t page_size, max_items, max_pages;
    bool items;
    bool json; /* --output json: a last line saying how the pagination ended and where to resume */
};

static int s_number(const char *option, const char *text, uint64_t *out) {
    if (anvil_sv_parse_u64(anvil_sv_from_cstr(text), INT32_MAX, out) != ANVIL_OK || *out == 0) {
        return cli_usage_error("paginate", "%s takes a whole number from 1 to %d, not '%s'", option, INT32_MAX, text);
    }
    return CLI_EXIT_OK;
}

static int s_option(void *ctx, int id, const char *value) {
    struct s_args *a = ctx;
    switch (id) {
    case OPT_INPUT:
        a->input = value;
        return CLI_EXIT_OK;
    case OPT_PAGE_SIZE:
        return s_number("--page-size", value, &a->page_size);
    case OPT_MAX_ITEMS:
        return s_number("--max-items", value, &a->max_items);
    case OPT_MAX_PAGES:
        return s_number("--max-pages", value, &a->max_pages);
    case OPT_STARTING_TOKEN:
        a->starting_token = value;
        return CLI_EXIT_OK;
    case OPT_DUPLICATES:
        if (strcmp(value, "stop") != 0 && strcmp(value, "error") != 0 && strcmp(value, "continue") != 0) {
            return cli_usage_error("paginate", "--duplicates takes stop, error or continue, not '%s'", value);
        }
        a->duplicates = value;
        return CLI_EXIT_OK;
    case OPT_ITEMS:
        a->items = true;
        return CLI_EXIT_OK;
    case OPT_OUTPUT:
        if (strcmp(value, "text") != 0 && strcmp(value, "json") != 0) {
            return cli_usage_error("paginate", "--output takes text or json, not '%s'", value);
        }
        a->json = strcmp(value, "json") == 0;
        return CLI_EXIT_OK;
    default:
        return CLI_EXIT_OK;
    }
}

const struct cli_option cli_paginate_options[] = {
    CLI_OPTION_HELP,
    CLI_MODEL_OPTION,
    CLI_VALUE("botocore", 'b', CLI_OPT_BOTOCORE, "FILE", CLI_VALUE_FILE,
              "a botocore paginators-1.json (with --model over HTTP)"),
    CLI_SERVICE_OPTION("the newest botocore data of NAME (ec2, s3, ...): its paginators-1.json and, over HTTP, its "
                       "service-2.json"),
    CLI_INPUT_OPTION(OPT_INPUT),
    CLI_TEXT("page-size", 0, OPT_PAGE_SIZE, "N", "ask for N items a page"),
    CLI_TEXT("max-items", 0, OPT_MAX_ITEMS, "N", "stop after N items (counted on the first items path)"),
    CLI_TEXT("max-pages", 0, OPT_MAX_PAGES, "N", "stop after N pages"),
    CLI_TEXT("starting-token", 0, OPT_STARTING_TOKEN, "T", "resume where an earlier run stopped"),
    CLI_CHOICE("duplicates", 0, OPT_DUPLICATES, "POLICY", "stop error continue",
               "a repeated token: stop (default), error, or continue"),
    CLI_FLAG("items", 0, OPT_ITEMS, "print items, not pages"),
    CLI_CHOICE("output", 'o', OPT_OUTPUT, "FORMAT", "text json",
               "text (default) or json (adds a last line saying how it ended)"),
    CLI_QUERY_OPTION("print each page (each item with --items) through this JMESPath expression"),
    CLI_EXEC_OPTION,
    CLI_HTTP_OPTIONS,
    CLI_OPTIONS_END,
};

static int s_parse(int argc, char **argv, struct s_args *a) {
    static const struct cli_exec_spec spec = {"paginate", "OPERATION", "paginators", cli_paginate_options,
                                              true,       false,       s_option};
    return cli_parse_exec_command(argc, argv, &spec, a, &a->exec);
}

/* A paginator's operation name without its namespace. */
static struct anvil_str_view s_operation_at(const void *set, size_t index) {
    struct anvil_str_view op = anvil_paginator_set_at(set, index)->operation;
    size_t hash = anvil_sv_find_byte(op, 0, '#');
    return hash == SIZE_MAX ? op : anvil_sv_slice(op, hash + 1, op.len - hash - 1);
}

static int s_find(const struct anvil_paginator_set *set, const char *name, const struct anvil_paginator **out) {
    *out = anvil_paginator_set_find(set, name, strlen(name));
    if (*out) {
        return CLI_EXIT_OK;
    }
    return cli_unknown_name("paginate", name, anvil_paginator_set_count(set), s_operation_at, set,
                            "unknown paginated operation", "");
}

/* One JSON line: `value` through --query (in `arena`) when there is one. */
static int s_line(const struct anvil_json *value, const struct anvil_jmespath *query, struct anvil_arena *arena,
                  struct anvil_buf *out, int *code) {
    struct anvil_json shown;
    if ((*code = cli_query_apply("paginate", query, value, arena, &shown)) != CLI_EXIT_OK) {
        return ANVIL_OK;
    }
    int rc = anvil_json_write(&shown, 0, out);
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
}

/*
 * Prints the page (or each of its items: list elements, or {"key", "value"}
 * for map entries) as JSON lines, each through --query when given.
 */
static int s_print(const struct anvil_json *output, const struct anvil_paginate_page *page, bool items,
                   const struct anvil_jmespath *query, struct anvil_arena *arena, struct anvil_buf *out) {
    anvil_buf_clear(out);
    int rc = ANVIL_OK, code = CLI_EXIT_OK;
    if (!items) {
        rc = s_line(output, query, arena, out, &code);
    } else if (anvil_json_is_array(&page->items)) {
        for (size_t i = 0; rc == ANVIL_OK && code == CLI_EXIT_OK && i < anvil_json_len(&page->items); i++) {
            rc = s_line(anvil_json_array_at(&page->items, i), query, arena, out, &code);
        }
    } else if (anvil_json_is_object(&page->items)) {
        struct anvil_buf entry;
        anvil_buf_init(&entry, NULL, 0);
        for (size_t i = 0; rc == ANVIL_OK && code == CLI_EXIT_OK && i < anvil_json_len(&page->items); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(&page->items, i);
            anvil_buf_clear(&entry);
            rc = anvil_buf_append_cstr(&entry, "{\"key\":");
            rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_json_member_key(m), 0, &entry) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&entry, ",\"value\":") : rc;
            rc = rc == ANVIL_OK ? anvil_json_write(&m->value, 0, &entry) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&entry, "}") : rc;
            if (rc == ANVIL_OK && query) {
                /* The entry as a value the query can take. */
                struct anvil_json value;
                rc = anvil_json_parse_into(arena, NULL, entry.data, entry.len, NULL, &value, NULL);
                rc = rc == ANVIL_OK ? s_line(&value, query, arena, out, &code) : rc;
            } else if (rc == ANVIL_OK) {
                rc = anvil_buf_append(out, entry.data, entry.len);
                rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
            }
        }
        anvil_buf_clean_up(&entry);
    }
    if (code != CLI_EXIT_OK) {
        return code;
    }
    if (rc != ANVIL_OK) {
        cli_error("paginate: cannot print a page: %s", anvil_status_str(rc));
        return cli_exit_for_status(rc);
    }
    code = cli_write_output(out->data ? out->data : "", out->len);
    return code == CLI_EXIT_OK ? cli_flush_output() : code; /* a page as it comes, even into a pipe */
}

/*
 * --output json's last line: {"anvil_paginate": {"reason": ..., "pages": N, "items": N,
 * "starting_token": TOKEN or null}}, so a script can tell the end from a stop and resume.
 */
static int s_print_end(const struct anvil_paginate_page *page, uint64_t pages, uint64_t items, struct anvil_buf *out) {
    anvil_buf_clear(out);
    int rc = anvil_buf_appendf(out,
                               "{\"anvil_paginate\":{\"reason\":\"%s\",\"pages\":%llu,\"items\":%llu,"
                               "\"starting_token\":",
                               anvil_paginate_reason_name(page->reason), (unsigned long long)pages,
                               (unsigned long long)items);
    if (rc == ANVIL_OK) {
        rc = page->resume_token.len ? anvil_json_write_string(page->resume_token, 0, out)
                                    : anvil_buf_append_cstr(out, "null");
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "}}\n") : rc;
    if (rc != ANVIL_OK) {
        cli_error("paginate: %s", anvil_status_str(rc));
        return cli_exit_for_status(rc);
    }
    return cli_write_output(out->data, out->len);
}

static int s_run(const struct s_args *a, const struct anvil_paginator *p, const struct anvil_json *input,
                 struct anvil_client *client, const struct anvil_shape *operation, const struct anvil_jmespath *query) {
    struct anvil_paginate_options o = {0};
    o.page_size = (int64_t)a->page_size;
    o.max_items = a->max_items;
    o.max_pages = a->max_pages;
    o.starting_token = anvil_sv_from_cstr(a->starting_token ? a->starting_token : "");
    o.duplicates = !a->duplicates || strcmp(a->duplicates, "stop") == 0 ? ANVIL_PAGINATE_DUP_STOP
                   : strcmp(a->duplicates, "error") == 0                ? ANVIL_PAGINATE_DUP_ERROR
                                                                        : ANVIL_PAGINATE_DUP_CONTINUE;
    struct anvil_paginate_run *run = NULL;
    struct anvil_diag diag;
    int rc = anvil_paginate_start(NULL, p, input, &o, &run, &diag);
    if (rc != ANVIL_OK) {
        cli_error("paginate: %s", rc == ANVIL_EINVAL ? diag.message : anvil_status_str(rc));
        cli_debug_origin(&diag);
        return rc == ANVIL_EINVAL ? CLI_EXIT_USAGE : cli_exit_for_status(rc);
    }
    struct anvil_exec_operation exec = {a->exec.command, {0}, NULL};
    exec.options.cancel = &cli_cancel_signal;
    struct cli_signals signals;
    cli_signals_catch(&signals);
    struct anvil_arena *arena = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    int code = CLI_EXIT_OK;
    rc = anvil_arena_new(NULL, NULL, &arena);
    while (rc == ANVIL_OK && code == CLI_EXIT_OK) {
        const struct anvil_json *page_input = NULL;
        struct anvil_operation_reply reply;
        memset(&reply, 0, sizeof reply);
        anvil_arena_reset(arena);
        if ((rc = anvil_paginate_input(run, &page_input)) != ANVIL_OK) {
            break;
        }
        int call = cli_cancel_signal ? ANVIL_ECANCELED
                   : client          ? anvil_client_call(client, operation, page_input, 0, arena, &reply)
                                     : anvil_exec_operation(&exec, page_input, 0, arena, &reply);
        if (call == ANVIL_ECANCELED) {
            cli_error("paginate: interrupted before page %llu was read",
                      (unsigned long long)anvil_paginate_pages(run) + 1);
            code = cli_exit_for_cancel();
            break;
        }
        if (call != ANVIL_OK) {
            char prefix[64];
            snprintf(prefix, sizeof prefix,
                     "paginate: page %llu failed: ", (unsigned long long)anvil_paginate_pages(run) + 1);
            anvil_buf_clear(&out);
            if (cli_describe_failure(call, &reply, &out) == ANVIL_OK) {
                cli_error_text(prefix, anvil_buf_view(&out));
            }
            code = call == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_SERVICE;
            break;
        }
        struct anvil_paginate_page page;
        int reported = anvil_paginate_report(run, &reply.output, &page);
        if (reported != ANVIL_OK && reported != ANVIL_EVALUE) {
            rc = reported;
            break;
        }
        code = s_print(&reply.output, &page, a->items, query, arena, &out);
        if (reported == ANVIL_EVALUE) {
            cli_error("paginate: page %llu answered the %s token again (--duplicates error)",
                      (unsigned long long)page.number, page.reason == ANVIL_PAGINATE_CYCLE ? "earlier" : "same");
            code = code == CLI_EXIT_OK ? CLI_EXIT_SERVICE : code;
        }
        if (page.reason != ANVIL_PAGINATE_MORE) {
            if (page.resume_token.len) {
                cli_error("paginate: stopped at %s; resume with --starting-token %.*s",
                          anvil_paginate_reason_name(page.reason), (int)page.resume_token.len, page.resume_token.ptr);
            }
            if (a->json && code == CLI_EXIT_OK) {
                code = s_print_end(&page, anvil_paginate_pages(run), anvil_paginate_items(run), &out);
            }
            break;
        }
    }
    if (rc != ANVIL_OK && code == CLI_EXIT_OK) {
        cli_error("paginate: %s", anvil_status_str(rc));
        code = cli_exit_for_status(rc);
    }
    cli_signals_restore(&signals);
    anvil_buf_clean_up(&out);
    anvil_arena_destroy(arena);
    anvil_paginate_destroy(run);
    return code;
}

int cli_cmd_paginate(int argc, char **argv) {
    struct s_args a = {0};
    int code = s_parse(argc, argv, &a);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_paginator_set *set = NULL;
    struct cli_target target;
    const struct anvil_paginator *p = NULL;
    struct anvil_jmespath *query = NULL;
    if ((code = cli_query_compile("paginate", a.exec.query, &query)) != CLI_EXIT_OK) {
        return code;
    }
    if ((code = cli_target_load(&target, "paginate", &a.exec)) != CLI_EXIT_OK ||
        (code = cli_target_paginators(&target, &a.exec, &set)) != CLI_EXIT_OK ||
        (code = s_find(set, a.exec.name, &p)) != CLI_EXIT_OK ||
        (code = cli_target_read_input(&target, "--input", a.input)) != CLI_EXIT_OK ||
        (!a.exec.command &&
         (code = cli_target_connect(&target, &a.exec, &p->operation, CLI_OPERATION_MODEL, true)) != CLI_EXIT_OK)) {
        goto done;
    }
    if (a.items && p->item_count == 0) {
        cli_error("paginate: --items: the paginator of `%.*s` names no items (Smithy's @paginated has no "
                  "`items`); print pages, or give botocore's paginators-1.json (--botocore, --service)",
                  (int)p->operation.len, p->operation.ptr);
        code = CLI_EXIT_USAGE;
        goto done;
    }
    code = s_run(&a, p, cli_target_input(&target), target.client, target.operation, query);
done:
    anvil_jmespath_destroy(query);
    anvil_paginator_set_destroy(set);
    cli_target_clean_up(&target);
    return code;
}
