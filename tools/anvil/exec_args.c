/*
 * What `anvil wait`, `anvil paginate` and `anvil call` share: their argument shape (a model from --model, a
 * botocore file from --botocore, or both from --service) and "did you mean" over loaded names.
 */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

const struct cli_option cli_http_options[] = {
    CLI_HTTP_OPTIONS,
    CLI_OPTIONS_END,
};

/*
 * --service NAME: the service's botocore files stand for --model (over HTTP) and --botocore (the waiters-2 or
 * paginators-1 file the command needs).
 */
static int s_service(const struct cli_exec_spec *spec, struct cli_exec_args *out) {
    struct cli_service_files *found = &out->service_files;
    int code = cli_service_find(spec->command, out->service, found);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    const char *data = strcmp(spec->plural, "waiters") == 0      ? found->waiters
                       : strcmp(spec->plural, "paginators") == 0 ? found->paginators
                                                                 : NULL;
    if (data && !data[0]) {
        return cli_usage_error(spec->command, "the service '%s' has no %s (no %s-%s.json in %s)", out->service,
                               spec->plural, spec->plural, strcmp(spec->plural, "waiters") == 0 ? "2" : "1",
                               found->dir);
    }
    out->botocore = data;
    if (!out->command) {
        out->models.items[out->models.count++] = found->model;
    }
    return CLI_EXIT_OK;
}

int cli_parse_exec_command(int argc, char **argv, const struct cli_exec_spec *spec, void *ctx,
                           struct cli_exec_args *out) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, spec->options, spec->command);
    int id;
    const char *value;
    enum cli_next next;
    while (!out->command && (next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPERAND) {
            if (out->name) {
                bool exec = false;
                for (const struct cli_option *o = spec->options; o->long_name; o++) {
                    exec = exec || o->id == CLI_OPT_EXEC;
                }
                return cli_usage_error(spec->command, "'anvil %s' takes one %s%s", spec->command, spec->what,
                                       exec ? " (the command goes after --exec)" : "");
            }
            out->name = value;
        } else if (id == CLI_OPT_EXEC) {
            if (parser.index >= argc) {
                return cli_usage_error(spec->command, "--exec needs a command to run");
            }
            out->command = argv + parser.index; /* everything after --exec is the command */
        } else if (id == CLI_OPT_MODEL) {
            int code = cli_paths_add(&out->models, spec->command, value);
            if (code != CLI_EXIT_OK) {
                return code;
            }
        } else if (id == CLI_OPT_BOTOCORE) {
            out->botocore = value;
        } else if (id == CLI_OPT_SERVICE) {
            out->service = value;
        } else if (id == CLI_OPT_ENDPOINT) {
            out->endpoint_url = value;
        } else if (id == CLI_OPT_REGION) {
            out->region = value;
        } else if (id == CLI_OPT_PROFILE) {
            out->profile = value;
        } else if (id == CLI_OPT_RETRY_MODE) {
            if (strcmp(value, "standard") != 0 && strcmp(value, "adaptive") != 0) {
                return cli_usage_error(spec->command, "--retry-mode takes standard or adaptive, not '%s'", value);
            }
            out->retry_mode = value;
        } else if (id == CLI_OPT_CA_BUNDLE) {
            out->ca_bundle = value;
        } else if (id == CLI_OPT_DEBUG) {
            out->debug = true;
            cli_debug = true;
        } else if (id == CLI_OPT_NO_SIGN) {
            out->no_sign = true;
        } else if (id == CLI_OPT_ENDPOINT_PARAMS) {
            out->endpoint_params = value;
        } else if (id == CLI_OPT_QUERY) {
            out->query = value;
        } else if (id == CLI_OPT_RETRY_MAX_ATTEMPTS) {
            uint64_t n;
            if (anvil_sv_parse_u64(anvil_sv_from_cstr(value), 100, &n) != ANVIL_OK || n == 0) {
                return cli_usage_error(spec->command,
                                       "--retry-max-attempts takes a whole number from 1 to 100, not '%s'", value);
            }
            out->retry_max_attempts = (uint32_t)n;
        } else if (id == CLI_OPT_RETRY_MAX_TIME) {
            if (!cli_parse_seconds(value, UINT64_C(1) << 52, &out->retry_max_total_ms) || !out->retry_max_total_ms) {
                return cli_usage_error(spec->command,
                                       "--retry-max-time takes a number of seconds greater than 0, not '%s'", value);
            }
        } else if (id == CLI_OPT_MAX_RESPONSE) {
            if (anvil_sv_parse_u64(anvil_sv_from_cstr(value), UINT64_C(1) << 40, &out->max_response_bytes) !=
                    ANVIL_OK ||
                out->max_response_bytes < 1024) {
                return cli_usage_error(
                    spec->command, "--max-response-bytes takes a number of bytes from 1024 to 2^40, not '%s'", value);
            }
        } else if (id == CLI_OPT_RETRY_ERROR) {
            if (!value[0] || out->retry_error_count == CLI_MAX_RETRY_ERRORS) {
                return cli_usage_error(spec->command, "--retry-error takes an error code, at most %d times",
                                       CLI_MAX_RETRY_ERRORS);
            }
            out->retry_errors[out->retry_error_count++] = value;
        } else {
            int code = spec->on_option(ctx, id, value);
            if (code != CLI_EXIT_OK) {
                return code;
            }
        }
    }
    if (out->service && (out->models.count || out->botocore)) {
        return cli_usage_error(spec->command, "--service takes the place of --model and --botocore");
    }
    bool has_model = out->models.count > 0;
    bool both_ok = spec->botocore_with_model && !out->command && has_model && out->botocore;
    if (!out->service && !has_model == !out->botocore && !both_ok) {
        return cli_usage_error(spec->command, "give the %s with exactly one of --model, --botocore and --service",
                               spec->plural);
    }
    if (!out->name && !spec->name_optional) {
        return cli_usage_error(spec->command, "no %s given", spec->what);
    }
    if (out->command && (out->endpoint_url || out->region || out->profile || out->retry_mode || out->ca_bundle ||
                         out->retry_max_attempts || out->retry_max_total_ms || out->retry_error_count ||
                         out->max_response_bytes || out->no_sign || out->endpoint_params)) {
        return cli_usage_error(spec->command, "--exec and the HTTP options (--endpoint-url, --region, --profile, "
                                              "--retry-*, --max-response-bytes, --ca-bundle, --no-sign-request, "
                                              "--endpoint-params) do not mix");
    }
    if (out->service) {
        return s_service(spec, out);
    }
    if (!out->command && !has_model) {
        return cli_usage_error(spec->command, "calling the service over HTTP needs --model (or give --exec CMD)");
    }
    return CLI_EXIT_OK;
}

static void s_debug_line(void *ctx, const char *line) {
    (void)ctx;
    cli_error("debug: %s", line); /* escaped there: a debug line quotes the server */
}

/* --retry-error CODE: a retry policy that retries those codes as server errors. */
static void s_retry_errors(void *ctx, const struct anvil_retry_response *r, struct anvil_retry_verdict *v) {
    const struct cli_exec_args *args = ctx;
    struct anvil_str_view code = anvil_error_code_normalize(r->code);
    for (size_t i = 0; !r->success && i < args->retry_error_count; i++) {
        if (anvil_sv_eq(code, anvil_error_code_normalize(anvil_sv_from_cstr(args->retry_errors[i])))) {
            v->directive = ANVIL_RETRY_DIRECTIVE_RETRY;
            v->type = ANVIL_RETRY_ERROR_SERVER;
            v->why = "--retry-error";
            return;
        }
    }
}

/*
 * The retry mode and attempts from the options, else as AWS tools find them
 * (AWS_RETRY_MODE and AWS_MAX_ATTEMPTS, else the profile's retry_mode and
 * max_attempts); the max total time from the options.
 */
static int s_retry_options(const struct cli_exec_args *args, const char *command, struct anvil_retry_options *ro) {
    struct anvil_aws_config aws;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    /* A config file that cannot be read is reported when the client is made. */
    anvil_aws_config_resolve(args->profile, args->region, NULL, NULL, &aws, &diag);
    char found_mode[sizeof aws.retry_mode], found_attempts[sizeof aws.max_attempts];
    memcpy(found_mode, aws.retry_mode, sizeof found_mode);
    memcpy(found_attempts, aws.max_attempts, sizeof found_attempts);
    memset(&aws, 0, sizeof aws); /* no secret left on the stack */
    const char *mode = args->retry_mode                             ? args->retry_mode
                       : found_mode[0] || !args->default_retry_mode ? found_mode
                                                                    : args->default_retry_mode;
    if (*mode && strcmp(mode, "standard") != 0 && strcmp(mode, "adaptive") != 0) {
        if (strcmp(mode, "legacy") != 0) {
            cli_error("%s: the retry mode (AWS_RETRY_MODE or the profile's retry_mode) is '%s'; "
                      "anvil knows standard and adaptive",
                      command, mode);
            return CLI_EXIT_CONFIG;
        }
        cli_error("warning: the retry mode 'legacy' is not implemented; using standard");
    }
    ro->mode = strcmp(mode, "adaptive") == 0 ? ANVIL_RETRY_ADAPTIVE : ANVIL_RETRY_STANDARD;
    ro->max_attempts = args->retry_max_attempts;
    if (!ro->max_attempts && found_attempts[0]) {
        uint64_t n;
        if (anvil_sv_parse_u64(anvil_sv_from_cstr(found_attempts), 100, &n) != ANVIL_OK || n == 0) {
            cli_error("%s: max attempts (AWS_MAX_ATTEMPTS or the profile's max_attempts) is '%s'; "
                      "it takes a whole number from 1 to 100",
                      command, found_attempts);
            return CLI_EXIT_CONFIG;
        }
        ro->max_attempts = (uint32_t)n;
    }
    ro->max_total_ms = args->retry_max_total_ms;
    return CLI_EXIT_OK;
}

/*
 * botocore keeps a service's endpoint rules beside its model: the
 * endpoint-rule-set-1.json[.gz] --service found, or the one beside a --model
 * that is a botocore service-2.json[.gz]. Into `path` ("" when none).
 */
static void s_botocore_rules_path(const struct cli_exec_args *args, char *path, size_t size) {
    path[0] = '\0';
    if (args->service) {
        snprintf(path, size, "%s", args->service_files.endpoint_rules);
        return;
    }
    if (args->models.count != 1) {
        return;
    }
    const char *model = args->models.items[0];
    const char *slash = strrchr(model, '/');
    const char *base = slash ? slash + 1 : model;
    if (strcmp(base, "service-2.json") != 0 && strcmp(base, "service-2.json.gz") != 0) {
        return;
    }
    const char *names[] = {"endpoint-rule-set-1.json", "endpoint-rule-set-1.json.gz"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, size, "%.*s%s", (int)(base - model), model, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            return;
        }
    }
    path[0] = '\0';
}

/*
 * The rule set document a client is given when its model has none of its
 * own (a botocore model's rules are a file of their own). CLI_EXIT_OK with
 * `*doc` NULL when there is none; else the exit code after printing why.
 */
static int s_botocore_rules(const struct cli_exec_args *args, const struct anvil_model *model, const char *command,
                            struct anvil_json_doc **doc) {
    *doc = NULL;
    char path[4864];
    s_botocore_rules_path(args, path, sizeof path);
    for (size_t i = 0; path[0] && i < anvil_model_shape_count(model); i++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, i);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE && anvil_shape_trait(s, "smithy.rules#endpointRuleSet")) {
            return CLI_EXIT_OK; /* the model's own rules */
        }
    }
    if (!path[0]) {
        return CLI_EXIT_OK;
    }
    struct cli_input in;
    int code = cli_input_read_data(path, (size_t)64 << 20, &in);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_json_parse(NULL, in.data, in.len, NULL, doc, &diag);
    if (rc != ANVIL_OK) {
        cli_error("%s: %s", command, in.label);
        cli_report_diag(in.label, &diag);
    }
    cli_input_release(&in);
    return rc == ANVIL_OK ? CLI_EXIT_OK : cli_exit_for_status(rc);
}

int cli_http_client(const struct cli_exec_args *args, const struct anvil_model *model, const char *command,
                    const volatile sig_atomic_t *cancel, struct anvil_client **client) {
    struct anvil_retry_options ro = {0};
    int code = s_retry_options(args, command, &ro);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_json_doc *rules = NULL, *params = NULL;
    if ((code = s_botocore_rules(args, model, command, &rules)) != CLI_EXIT_OK ||
        (args->endpoint_params &&
         (code = cli_json_argument("--endpoint-params", args->endpoint_params, &params)) != CLI_EXIT_OK)) {
        anvil_json_doc_destroy(rules);
        return code;
    }
    struct anvil_retry_strategy *retry = NULL;
    int rc = anvil_retry_strategy_new(NULL, &ro, &retry);
    struct anvil_client_options o = {0};
    o.endpoint_rule_set = rules ? anvil_json_doc_root(rules) : NULL;
    o.endpoint_params = params ? anvil_json_doc_root(params) : NULL;
    o.no_sign = args->no_sign;
    o.profile = args->profile;
    o.region = args->region;
    o.endpoint_url = args->endpoint_url;
    o.retry = retry;
    o.debug = args->debug ? s_debug_line : NULL;
    o.max_response_bytes = (size_t)args->max_response_bytes;
    o.cancel = cancel;
    o.ca_bundle = args->ca_bundle;
    o.env = cli_env();
    if (args->retry_error_count) {
        o.retry_policy = s_retry_errors;
        o.retry_policy_ctx = (void *)args;
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    if (rc == ANVIL_OK) {
        rc = anvil_client_new(NULL, model, NULL, &o, client, &diag);
    }
    anvil_retry_strategy_release(retry);
    anvil_json_doc_destroy(rules);
    anvil_json_doc_destroy(params);
    if (rc != ANVIL_OK) {
        cli_error("%s: %s", command, diag.message[0] ? diag.message : anvil_status_str(rc));
        cli_debug_origin(&diag);
        /*
         * What the options got wrong is usage (64); what the machine's setup lacks is configuration (78);
         * endpoint rules that do not compile are the model's (65).
         */
        return rc == ANVIL_ECANCELED                             ? cli_exit_for_status(rc)
               : rc == ANVIL_ENOMEM                              ? CLI_EXIT_INTERNAL
               : rc == ANVIL_ECONFIG || rc == ANVIL_EUNSUPPORTED ? CLI_EXIT_CONFIG
               : rc == ANVIL_EMODEL                              ? CLI_EXIT_DATA
                                                                 : CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int cli_unknown_name(const char *command, const char *name, size_t count,
                     struct anvil_str_view (*at)(const void *set, size_t index), const void *set, const char *what,
                     const char *fallback) {
    const char **names = calloc(count + 1, sizeof *names);
    char **owned = calloc(count + 1, sizeof *owned);
    const char *hint = NULL;
    for (size_t i = 0; names && owned && i < count; i++) {
        struct anvil_str_view v = at(set, i);
        owned[i] = strndup(v.ptr, v.len);
        names[i] = owned[i] ? owned[i] : "";
    }
    if (names && owned) {
        hint = cli_suggest(name, names);
    }
    int code = hint ? cli_usage_error(command, "%s '%s' (did you mean '%s'?)", what, name, hint)
                    : cli_usage_error(command, "%s '%s'%s", what, name, fallback);
    for (size_t i = 0; owned && i < count; i++) {
        free(owned[i]);
    }
    free(owned);
    free(names);
    return code;
}
