/*
 * JMESPath on the command line: `anvil query`'s expression and the --query
 * of call, wait and paginate, compiled and reported one way.
 */

#include <string.h>

#include "cli.h"

int cli_query_report(const char *command, const char *expr, size_t len, int rc, const struct anvil_diag *diag) {
    cli_error("%s: %s: %s", command, anvil_jmespath_error_kind(rc), diag->message);
    if (rc == ANVIL_ESYNTAX && diag->line > 0 && memchr(expr, '\n', len) == NULL) {
        fprintf(stderr, "  %.*s\n  %*s^\n", (int)len, expr, (int)(diag->column - 1), "");
    }
    cli_debug_origin(diag);
    return rc == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_DATA;
}

int cli_query_compile(const char *command, const char *text, struct anvil_jmespath **out) {
    *out = NULL;
    if (!text) {
        return CLI_EXIT_OK;
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_jmespath_compile(NULL, text, strlen(text), NULL, out, &diag);
    if (rc == ANVIL_OK) {
        return CLI_EXIT_OK;
    }
    int code = cli_query_report(command, text, strlen(text), rc, &diag);
    return code == CLI_EXIT_DATA ? CLI_EXIT_USAGE : code; /* --query is an option: a bad one is a usage error */
}

int cli_query_apply(const char *command, const struct anvil_jmespath *expr, const struct anvil_json *value,
                    struct anvil_arena *arena, struct anvil_json *out) {
    if (!expr) {
        *out = value ? *value : anvil_json_make_null();
        return CLI_EXIT_OK;
    }
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_jmespath_search(expr, value, arena, out, &diag);
    if (rc == ANVIL_OK) {
        return CLI_EXIT_OK;
    }
    struct anvil_str_view text = anvil_jmespath_text(expr);
    return cli_query_report(command, text.ptr, text.len, rc, &diag);
}
