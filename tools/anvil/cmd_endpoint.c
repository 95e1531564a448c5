/*
 * anvil endpoint: where a call would go. The service's endpoint rules
 * resolved as a call resolves them (the built-ins from the region, the
 * environment and the profile; --endpoint-params; what OPERATION's input
 * binds), printed as JSON: {"url", "headers", "properties", "rule"}. Nothing
 * is sent and nothing is signed, so no credentials are needed.
 */

#include <stdio.h>
#include <string.h>

#include "cli.h"

enum { OPT_INPUT = 'i' };

struct s_args {
    struct cli_exec_args exec;
    const char *input;
};

static int s_option(void *ctx, int id, const char *value) {
    struct s_args *a = ctx;
    if (id == OPT_INPUT) {
        a->input = value;
    }
    return CLI_EXIT_OK;
}

/* The resolution as JSON; `rules` NULL when the service has none (its configured endpoint, "rule": null). */
static int s_write(const struct anvil_endpoint *e, const char *rule, struct anvil_buf *out) {
    int rc = anvil_buf_append_cstr(out, "{\n  \"url\": ");
    rc = rc == ANVIL_OK ? anvil_json_write_string(e->url, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ",\n  \"headers\": ") : rc;
    rc = rc == ANVIL_OK ? anvil_json_write(&e->headers, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ",\n  \"properties\": ") : rc;
    rc = rc == ANVIL_OK ? anvil_json_write(&e->properties, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ",\n  \"rule\": ") : rc;
    rc = rc == ANVIL_OK
             ? (rule ? anvil_json_write_string(anvil_sv_from_cstr(rule), 0, out) : anvil_buf_append_cstr(out, "null"))
             : rc;
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n}\n") : rc;
}

int cli_cmd_endpoint(int argc, char **argv) {
    static const struct cli_option options[] = {
        CLI_OPTION_HELP,
        {"model", 'm', CLI_ARG_REQUIRED, CLI_OPT_MODEL},
        {"input", 'i', CLI_ARG_REQUIRED, OPT_INPUT},
        CLI_HTTP_OPTIONS,
        {NULL, 0, CLI_ARG_NONE, 0},
    };
    static const struct cli_exec_spec spec = {"endpoint", "OPERATION", "operations", options, false, true, s_option};
    struct s_args a;
    memset(&a, 0, sizeof a);
    int code = cli_parse_exec_command(argc, argv, &spec, &a, &a.exec);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    if (a.input && !a.exec.name) {
        return cli_usage_error("endpoint", "--input goes with an OPERATION");
    }
    /* Nothing is signed: resolving needs the region, not credentials. */
    a.exec.no_sign = true;
    struct cli_input file;
    struct anvil_model *model = NULL;
    struct anvil_client *client = NULL;
    struct anvil_json_doc *input = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    if ((code = cli_model_assemble(a.exec.models.items, a.exec.models.count, false, &file, &model)) != CLI_EXIT_OK) {
        return code;
    }
    cli_input_release(&file);
    if ((code = cli_json_argument("--input", a.input, &input)) != CLI_EXIT_OK ||
        (code = cli_http_client(&a.exec, model, "endpoint", NULL, &client)) != CLI_EXIT_OK) {
        goto done;
    }
    const struct anvil_shape *op = a.exec.name ? anvil_client_operation(client, a.exec.name) : NULL;
    if (a.exec.name && !op) {
        code = cli_usage_error("endpoint", "'%s' is not an operation of the service", a.exec.name);
        goto done;
    }
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        code = CLI_EXIT_INTERNAL;
        goto done;
    }
    struct anvil_endpoint e;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_client_endpoint(client, op, op ? anvil_json_doc_root(input) : NULL, arena, &e, &diag);
    if (rc == ANVIL_ECONFIG && e.error.len) {
        /* The rules' own error (78), whole, and the rule that said it. */
        char prefix[320] = "endpoint: the endpoint rules say: ";
        const struct anvil_endpoint_rules *said = anvil_client_endpoint_rules(client);
        if (said && e.rule != SIZE_MAX) {
            char where[256];
            anvil_endpoint_rule_path(said, e.rule, where, sizeof where);
            snprintf(prefix, sizeof prefix, "endpoint: the endpoint rules say (%s): ", where);
        }
        cli_error_text(prefix, e.error);
        code = CLI_EXIT_CONFIG;
        goto done;
    }
    if (rc != ANVIL_OK) {
        /* An input value of the wrong type (65), rules that give what cannot be sent (65), no rule matching (78). */
        cli_error_text(rc == ANVIL_ECONFIG ? "endpoint: the endpoint rules say: " : "endpoint: ",
                       anvil_sv_from_cstr(diag.message[0] ? diag.message : anvil_status_str(rc)));
        code = rc == ANVIL_EINVAL ? CLI_EXIT_DATA : cli_exit_for_status(rc);
        goto done;
    }
    char rule[256];
    const struct anvil_endpoint_rules *rules = e.rule != SIZE_MAX ? anvil_client_endpoint_rules(client) : NULL;
    if (rules) {
        anvil_endpoint_rule_path(rules, e.rule, rule, sizeof rule);
    }
    rc = s_write(&e, rules ? rule : NULL, &out);
    code = rc == ANVIL_OK ? cli_write_output(out.data, out.len) : cli_exit_for_status(rc);
done:
    anvil_buf_clean_up(&out);
    anvil_arena_destroy(arena);
    anvil_client_destroy(client);
    anvil_json_doc_destroy(input);
    anvil_model_destroy(model);
    return code;
}
