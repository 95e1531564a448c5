/* anvil credentials: which provider of the default chain supplies credentials, never the secret. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { OPT_PROFILE = 1, OPT_REGION, OPT_OUTPUT, OPT_DEBUG };

static void s_debug(void *ctx, const char *line) {
    (void)ctx;
    cli_error("debug: %s", line);
}

/* The access key id shown as its last 4 characters. */
static void s_key_tail(const char *key, char *out, size_t size) {
    size_t n = strlen(key);
    snprintf(out, size, "...%.4s", n > 4 ? key + n - 4 : key);
}

static void s_iso(uint64_t ms, char *out, size_t size) {
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        snprintf(out, size, "?");
    }
}

const struct cli_option cli_credentials_options[] = {
    CLI_OPTION_HELP,
    CLI_TEXT("profile", 0, OPT_PROFILE, "P", "the profile (outranks the environment's keys)"),
    CLI_TEXT("region", 0, OPT_REGION, "R", "the region of STS calls (default: the profile's)"),
    CLI_CHOICE("output", 'o', OPT_OUTPUT, "FORMAT", "text json", "text (default) or json"),
    CLI_FLAG("debug", 0, OPT_DEBUG,
             "one line per provider tried and request made; after an error, where anvil raised it"),
    CLI_OPTIONS_END,
};

int cli_cmd_credentials(int argc, char **argv) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_credentials_options, "credentials");
    const char *profile = NULL, *region = NULL;
    bool json = false, debug = false;
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPERAND) {
            return cli_usage_error("credentials", "unexpected argument '%s'", value);
        }
        if (id == OPT_PROFILE) {
            profile = value;
        } else if (id == OPT_REGION) {
            region = value;
            if (!*value || strlen(value) > 63 || value[strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789-")]) {
                return cli_usage_error("credentials",
                                       "the region `%s` is not a region name (lower-case letters, "
                                       "digits and '-', like us-east-1)",
                                       value);
            }
        } else if (id == OPT_DEBUG) {
            debug = true;
            cli_debug = true;
        } else if (strcmp(value, "json") == 0 || strcmp(value, "text") == 0) {
            json = strcmp(value, "json") == 0;
        } else {
            return cli_usage_error("credentials", "--output is json or text, not '%s'", value);
        }
    }
    struct anvil_credentials_options o = {
        .profile = profile,
        .region = region,
        .env = cli_env(),
        .cancel = &cli_cancel_signal,
        .debug = debug ? s_debug : NULL,
    };
    struct anvil_credentials_provider *provider = NULL;
    int rc = anvil_credentials_provider_default(NULL, &o, &provider);
    struct anvil_credentials creds;
    anvil_credentials_clear(&creds);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    struct cli_signals signals;
    cli_signals_catch(&signals);
    if (rc == ANVIL_OK) {
        rc = anvil_credentials_get(provider, anvil_env_wall_ms(o.env), &creds, &diag);
    }
    cli_signals_restore(&signals);
    anvil_credentials_provider_release(provider);
    if (rc != ANVIL_OK) {
        cli_error("credentials: %s", diag.message[0] ? diag.message : anvil_status_str(rc));
        cli_debug_origin(&diag);
        anvil_credentials_clear(&creds);
        return rc == ANVIL_ENOMEM || rc == ANVIL_ECANCELED ? cli_exit_for_status(rc) : CLI_EXIT_CONFIG;
    }
    char key[16], expires[40] = "";
    s_key_tail(creds.access_key_id, key, sizeof key);
    if (creds.expires_ms) {
        s_iso(creds.expires_ms, expires, sizeof expires);
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    if (json) {
        rc = anvil_buf_append_cstr(&out, "{\"provider\": ");
        rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_sv_from_cstr(creds.provider), 0, &out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, ", \"source\": ") : rc;
        rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_sv_from_cstr(creds.source), 0, &out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, ", \"access_key_id\": ") : rc;
        rc = rc == ANVIL_OK ? anvil_json_write_string(anvil_sv_from_cstr(key), 0, &out) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, ", \"expires\": ") : rc;
        rc = rc == ANVIL_OK ? (expires[0] ? anvil_json_write_string(anvil_sv_from_cstr(expires), 0, &out)
                                          : anvil_buf_append_cstr(&out, "null"))
                            : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, "}\n") : rc;
    } else {
        rc = anvil_buf_append_cstr(&out, "provider: ");
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(&out, anvil_sv_from_cstr(creds.provider)) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, "\nsource: ") : rc;
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(&out, anvil_sv_from_cstr(creds.source)) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, "\naccess key id: ") : rc;
        rc = rc == ANVIL_OK ? anvil_text_append_escaped(&out, anvil_sv_from_cstr(key)) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, "\nexpires: ") : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, expires[0] ? expires : "never") : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&out, "\n") : rc;
    }
    anvil_credentials_clear(&creds);
    int code = rc == ANVIL_OK ? cli_write_output(out.data, out.len) : cli_exit_for_status(rc);
    anvil_buf_clean_up(&out);
    return code;
}
