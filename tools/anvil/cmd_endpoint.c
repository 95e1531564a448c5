/*
 * anvil endpoint: where a call would go. The service's endpoint rules
 * resolved as a call resolves them (the built-ins from the region, the
 * environment and the profile; --endpoint-params; what OPERATION's input
 * binds), or from --params alone as an endpointTests case gives them,
 * printed as JSON: {"url", "headers", "properties", "rule"}. Nothing is
 * sent and nothing is signed, so no credentials are needed.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_INPUT = 'i', OPT_OPERATION = 1000, OPT_PARAMS };

struct s_args {
    struct cli_exec_args exec;
    const char *input, *operation, *params;
};

static int s_option(void *ctx, int id, const char *value) {
    struct s_args *a = ctx;
    if (id == OPT_INPUT) {
        a->input = value;
    } else if (id == OPT_OPERATION) {
        a->operation = value;
    } else if (id == OPT_PARAMS) {
        a->params = value;
    }
    return CLI_EXIT_OK;
}

/*
 * --params: the rule set's parameters by name, exactly as an endpointTests
 * case's `params` gives them, and nothing from the environment (no
 * built-ins); with an operation, what its input binds goes over them, as
 * an operationInputs case binds. Every name must be one of the rule set's.
 * The status, with `diag` saying why.
 */
static int s_resolve_params(struct anvil_client *client, const struct anvil_model *model, const struct anvil_shape *op,
                            const struct anvil_json *input, const struct anvil_json *params, struct anvil_arena *arena,
                            struct anvil_endpoint *e, struct anvil_diag *diag) {
    /* What --params asks that cannot be: the caller's (ANVIL_ENOTFOUND, exit 64). */
    const struct anvil_endpoint_rules *rules = anvil_client_endpoint_rules(client);
    if (!rules) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "the service has no endpoint rules to give --params to");
    }
    if (!anvil_json_is_object(params)) {
        return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "--params takes an object of parameter name: value");
    }
    for (size_t i = 0; i < anvil_json_len(params); i++) {
        struct anvil_str_view name = anvil_json_member_key(anvil_json_object_at(params, i));
        long index = anvil_endpoint_rules_param_index(rules, name);
        if (index < 0) {
            return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "the endpoint rules have no parameter `%.*s`",
                                  (int)(name.len > 80 ? 80 : name.len), name.ptr);
        }
        const struct anvil_json *v = &anvil_json_object_at(params, i)->value;
        enum anvil_endpoint_param_type type = anvil_endpoint_rules_param_at(rules, (size_t)index)->type;
        bool fits = type == ANVIL_ENDPOINT_PARAM_BOOLEAN  ? anvil_json_is_bool(v)
                    : type == ANVIL_ENDPOINT_PARAM_STRING ? anvil_json_is_string(v)
                                                          : anvil_json_is_array(v);
        for (size_t k = 0; fits && type == ANVIL_ENDPOINT_PARAM_STRING_ARRAY && k < anvil_json_len(v); k++) {
            fits = anvil_json_is_string(anvil_json_array_at(v, k));
        }
        if (!fits && !anvil_json_is_null(v)) {
            return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0, "the endpoint parameter `%.*s` takes %s",
                                  (int)name.len, name.ptr,
                                  type == ANVIL_ENDPOINT_PARAM_BOOLEAN  ? "a boolean"
                                  : type == ANVIL_ENDPOINT_PARAM_STRING ? "a string"
                                                                        : "an array of strings");
        }
        /* The region goes into host names unchecked by most rule sets: it is checked as the client checks it. */
        struct anvil_str_view region = anvil_json_string(&anvil_json_object_at(params, i)->value);
        bool is_region = anvil_sv_eq_cstr(anvil_endpoint_rules_param_at(rules, (size_t)index)->builtin, "AWS::Region");
        bool ok = region.len > 0 && region.len < 64;
        for (size_t k = 0; is_region && ok && k < region.len; k++) {
            char ch = region.ptr[k];
            ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
        }
        if (is_region && anvil_json_is_string(&anvil_json_object_at(params, i)->value) && !ok) {
            return anvil_diag_set(diag, ANVIL_ENOTFOUND, 0, 0, 0,
                                  "the region `%.*s` is not a region name (lower-case letters, digits and '-', like "
                                  "us-east-1)",
                                  (int)(region.len > 80 ? 80 : region.len), region.ptr);
        }
    }
    size_t count = anvil_endpoint_rules_param_count(rules);
    struct anvil_json *values =
        anvil_arena_alloc(arena, (count ? count : 1) * sizeof *values, _Alignof(struct anvil_json));
    if (!values) {
        return ANVIL_ENOMEM;
    }
    int rc = anvil_endpoint_bind(rules, model, anvil_client_service(client), op, input, params, NULL, arena, values,
                                 count, diag);
    return rc == ANVIL_OK ? anvil_endpoint_resolve(rules, values, count, arena, e, diag) : rc;
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

const struct cli_option cli_endpoint_options[] = {
    CLI_OPTION_HELP,
    CLI_MODEL_OPTION,
    CLI_SERVICE_OPTION("the newest botocore data of NAME (s3, ec2, ...): its service-2.json and endpoint rules"),
    CLI_VALUE("operation", 0, OPT_OPERATION, "OP", CLI_VALUE_OPERATION, "the operation (or give it as an operand)"),
    CLI_TEXT("input", 'i', OPT_INPUT, "JSON", "OPERATION's input, or @FILE (default {})"),
    CLI_TEXT("params", 0, OPT_PARAMS, "JSON", "the rule set's parameters by name, exactly, or @FILE"),
    CLI_HTTP_OPTIONS,
    CLI_OPTIONS_END,
};

int cli_cmd_endpoint(int argc, char **argv) {
    static const struct cli_exec_spec spec = {"endpoint", "OPERATION", "operations", cli_endpoint_options,
                                              false,      true,        s_option};
    struct s_args a;
    memset(&a, 0, sizeof a);
    int code = cli_parse_exec_command(argc, argv, &spec, &a, &a.exec);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    if (a.operation && a.exec.name) {
        return cli_usage_error("endpoint", "give the OPERATION once (as an operand or with --operation)");
    }
    a.exec.name = a.exec.name ? a.exec.name : a.operation;
    if (a.input && !a.exec.name) {
        return cli_usage_error("endpoint", "--input goes with an OPERATION");
    }
    if (a.params && (a.exec.endpoint_params || a.exec.region || a.exec.endpoint_url)) {
        return cli_usage_error("endpoint", "--params gives every parameter (Region and Endpoint among them); "
                                           "--endpoint-params, --region and --endpoint-url do not go with it");
    }
    /* Nothing is signed: resolving needs the region, not credentials (and --params not even that). */
    a.exec.no_sign = true;
    a.exec.region = a.params && !a.exec.region ? "us-east-1" : a.exec.region;
    struct cli_target target;
    struct anvil_json_doc *params = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    /* An input a call would refuse (a blank bucket, a member of the wrong type) is refused here too; not with --params.
     */
    struct anvil_str_view name = anvil_sv_from_cstr(a.exec.name ? a.exec.name : "");
    if ((code = cli_target_load(&target, "endpoint", &a.exec)) != CLI_EXIT_OK ||
        (a.params && (code = cli_json_argument("--params", a.params, &params)) != CLI_EXIT_OK) ||
        (code = cli_target_read_input(&target, "--input", a.input)) != CLI_EXIT_OK ||
        (code = cli_target_connect(&target, &a.exec, a.exec.name ? &name : NULL, CLI_OPERATION_ARGUMENT, !params)) !=
            CLI_EXIT_OK) {
        goto done;
    }
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        code = CLI_EXIT_INTERNAL;
        goto done;
    }
    struct anvil_client *client = target.client;
    struct anvil_model *model = target.model;
    const struct anvil_shape *op = target.operation;
    const struct anvil_json *input = op ? cli_target_input(&target) : NULL;
    struct anvil_endpoint e;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    memset(&e, 0, sizeof e);
    e.rule = SIZE_MAX;
    int rc = params ? s_resolve_params(client, model, op, input, anvil_json_doc_root(params), arena, &e, &diag)
                    : anvil_client_endpoint(client, op, input, arena, &e, &diag);
    if (rc == ANVIL_ENOTFOUND) {
        code = cli_usage_error("endpoint", "%s", diag.message);
        cli_debug_origin(&diag);
        goto done;
    }
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
        cli_debug_origin(&diag);
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
    anvil_json_doc_destroy(params);
    cli_target_clean_up(&target);
    return code;
}
