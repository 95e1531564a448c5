/*
 * anvil call: one operation over HTTP in the service's protocol, its output
 * printed as JSON; with --dry-run, the signed request it would send.
 */

#include <string.h>

#include "cli.h"

enum { OPT_INPUT = 'i', OPT_DRY_RUN = 1000 };

struct s_args {
    struct cli_exec_args exec;
    const char *input;
    bool dry_run;
};

static int s_option(void *ctx, int id, const char *value) {
    struct s_args *a = ctx;
    if (id == OPT_INPUT) {
        a->input = value;
    } else if (id == OPT_DRY_RUN) {
        a->dry_run = true;
    }
    return CLI_EXIT_OK;
}

/*
 * {"method": ..., "url": ..., "headers": {name: value, ...}, "body": ...}:
 * the body as text when it is UTF-8, else as "body_base64".
 */
static int s_write_request(const struct anvil_http_request *r, struct anvil_buf *out) {
    int rc = anvil_buf_append_cstr(out, "{\n  \"method\": ");
    rc = rc == ANVIL_OK ? anvil_json_write_string(r->method, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ",\n  \"url\": ") : rc;
    rc = rc == ANVIL_OK ? anvil_json_write_string(r->url, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ",\n  \"headers\": {") : rc;
    for (size_t i = 0; i < r->header_count && rc == ANVIL_OK; i++) {
        rc = anvil_buf_append_cstr(out, i ? ",\n    " : "\n    ");
        rc = rc == ANVIL_OK ? anvil_json_write_string(r->headers[i].name, 0, out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ": ") : rc;
        if (anvil_sv_eq_ascii_nocase(r->headers[i].name, ANVIL_SV("X-Amz-Security-Token"))) {
            /* A session token is a secret (a role's, an instance's): its size only. */
            rc = rc == ANVIL_OK ? anvil_buf_appendf(out, "\"(%zu bytes, not shown)\"", r->headers[i].value.len) : rc;
            continue;
        }
        rc = rc == ANVIL_OK ? anvil_json_write_string(r->headers[i].value, 0, out) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, r->header_count ? "\n  }" : "}") : rc;
    struct anvil_str_view body = anvil_sv((const char *)r->body, r->body_len);
    struct anvil_json text;
    struct anvil_arena *arena = NULL;
    bool utf8 = rc == ANVIL_OK && anvil_arena_new(NULL, NULL, &arena) == ANVIL_OK &&
                anvil_json_new_string(arena, body.ptr ? body.ptr : "", body.len, &text) == ANVIL_OK;
    anvil_arena_destroy(arena);
    if (rc == ANVIL_OK && utf8) {
        rc = anvil_buf_append_cstr(out, ",\n  \"body\": ");
        rc = rc == ANVIL_OK ? anvil_json_write_string(body, 0, out) : rc;
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_append_cstr(out, ",\n  \"body_base64\": \"");
        rc = rc == ANVIL_OK ? anvil_base64_encode(out, r->body, r->body_len) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n}\n") : rc;
}

/* --dry-run: the request, serialised and signed, printed instead of sent. */
static int s_dry_run(struct anvil_client *client, const struct anvil_shape *op, const struct anvil_json *input,
                     struct anvil_arena *arena, struct anvil_buf *out) {
    struct anvil_http_request request;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_client_prepare(client, op, input, arena, &request, &diag);
    if (rc == ANVIL_EINVAL) {
        cli_error_text("call: the input cannot be sent: ", anvil_sv_from_cstr(diag.message));
        cli_debug_origin(&diag);
        return CLI_EXIT_DATA;
    }
    if (rc != ANVIL_OK && rc != ANVIL_ENOMEM) {
        cli_error_text("call: ", anvil_sv_from_cstr(diag.message[0] ? diag.message : anvil_status_str(rc)));
        cli_debug_origin(&diag);
    }
    if (rc == ANVIL_OK) {
        rc = s_write_request(&request, out);
    }
    return rc == ANVIL_OK ? cli_write_output(out->data, out->len) : cli_exit_for_status(rc);
}

const struct cli_option cli_call_options[] = {
    CLI_OPTION_HELP,
    CLI_MODEL_OPTION,
    CLI_SERVICE_OPTION("the newest botocore service-2.json of NAME (ec2, s3, ...) from ANVIL_MODEL_PATH or where AWS "
                       "tools keep it"),
    CLI_INPUT_OPTION(OPT_INPUT),
    CLI_FLAG("dry-run", 0, OPT_DRY_RUN, "print the signed request instead of sending it"),
    CLI_QUERY_OPTION("print the output through this JMESPath expression"),
    CLI_HTTP_OPTIONS,
    CLI_OPTIONS_END,
};

int cli_cmd_call(int argc, char **argv) {
    static const struct cli_exec_spec spec = {"call", "OPERATION", "operations", cli_call_options,
                                              false,  false,       s_option};
    struct s_args a;
    memset(&a, 0, sizeof a);
    int code = cli_parse_exec_command(argc, argv, &spec, &a, &a.exec);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct cli_target target;
    struct anvil_arena *arena = NULL;
    struct anvil_jmespath *query = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    if ((code = cli_query_compile("call", a.exec.query, &query)) != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_str_view name = anvil_sv_from_cstr(a.exec.name);
    if ((code = cli_target_load(&target, "call", &a.exec)) != CLI_EXIT_OK ||
        (code = cli_target_read_input(&target, "--input", a.input)) != CLI_EXIT_OK ||
        (code = cli_target_connect(&target, &a.exec, &name, CLI_OPERATION_ARGUMENT, true)) != CLI_EXIT_OK) {
        goto done;
    }
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        code = CLI_EXIT_INTERNAL;
        goto done;
    }
    struct anvil_client *client = target.client;
    const struct anvil_shape *op = target.operation;
    const struct anvil_json *input = cli_target_input(&target);
    if (a.dry_run) {
        code = s_dry_run(client, op, input, arena, &out);
        goto done;
    }
    struct anvil_operation_reply reply;
    struct cli_signals signals;
    cli_signals_catch(&signals);
    int rc = anvil_client_call(client, op, input, 0, arena, &reply);
    cli_signals_restore(&signals);
    if (rc == ANVIL_OK) {
        struct anvil_json shown;
        if ((code = cli_query_apply("call", query, &reply.output, arena, &shown)) == CLI_EXIT_OK) {
            rc = anvil_json_write(&shown, ANVIL_JSON_WRITE_PRETTY, &out);
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(&out, '\n') : rc;
            code = rc == ANVIL_OK ? cli_write_output(out.data, out.len) : cli_exit_for_status(rc);
        }
    } else if (rc == ANVIL_ECANCELED) {
        cli_error("call: interrupted");
        code = cli_exit_for_cancel();
    } else if (rc == ANVIL_EINVAL) {
        /* An input the protocol cannot send (a member of the wrong type, a missing label): the caller's data. */
        cli_error_text("call: the input cannot be sent: ", reply.error.message);
        code = CLI_EXIT_DATA;
    } else {
        anvil_buf_clear(&out);
        if (cli_describe_failure(rc, &reply, &out) == ANVIL_OK) {
            cli_error_text("call: ", anvil_buf_view(&out));
        }
        code = rc == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_SERVICE;
    }
done:
    anvil_buf_clean_up(&out);
    anvil_arena_destroy(arena);
    cli_target_clean_up(&target);
    anvil_jmespath_destroy(query);
    return code;
}
