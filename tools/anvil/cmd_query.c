/* anvil query: evaluate a JMESPath expression against a JSON document (like jp). */

#include <string.h>

#include "cli.h"

enum { OPT_FILE = 'f', OPT_UNQUOTED = 'u', OPT_PRETTY = 'p', OPT_AST = 1000, OPT_EXPR_FILE = 'e', OPT_LINES = 'l' };

/* The result as a line: JSON (compact or `flags`), or with --unquoted a string's bytes as they are. */
static int s_write_result(const struct anvil_json *result, bool unquoted, unsigned flags, struct anvil_buf *out) {
    anvil_buf_clear(out);
    int rc = unquoted && anvil_json_is_string(result) ? anvil_buf_append_sv(out, anvil_json_string(result))
                                                      : anvil_json_write(result, flags, out);
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    if (rc != ANVIL_OK) {
        cli_error("query: cannot print the result: %s", anvil_status_str(rc));
        return cli_exit_for_status(rc);
    }
    return cli_write_output(out->data, out->len);
}

/*
 * --lines: each non-blank line of the input a JSON document, its result a line written as soon as
 * the line has arrived; the first bad line ends it.
 */
static int s_lines(const struct anvil_jmespath *expr, const char *file, bool unquoted, unsigned flags,
                   struct anvil_buf *out) {
    struct cli_lines lines;
    int code = cli_lines_open(file, ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES, 0, &lines);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        cli_lines_close(&lines);
        cli_error("query: out of memory");
        return CLI_EXIT_INTERNAL;
    }
    for (;;) {
        const char *line = NULL;
        size_t len = 0;
        if ((code = cli_lines_next(&lines, &line, &len)) != CLI_EXIT_OK || !line) {
            break;
        }
        size_t blank = 0;
        while (blank < len && (line[blank] == ' ' || line[blank] == '\t' || line[blank] == '\r')) {
            blank++;
        }
        if (blank == len) {
            continue;
        }
        anvil_arena_reset(arena);
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        struct anvil_json doc, result;
        int rc = anvil_json_parse_into(arena, NULL, line, len, NULL, &doc, &diag);
        if (rc != ANVIL_OK) {
            cli_error("query: %s: line %zu: %s", lines.label, lines.number, diag.message);
            cli_debug_origin(&diag);
            code = cli_exit_for_status(rc);
        } else if ((rc = anvil_jmespath_search(expr, &doc, arena, &result, &diag)) != ANVIL_OK) {
            cli_error("query: %s: line %zu: %s: %s", lines.label, lines.number, anvil_jmespath_error_kind(rc),
                      diag.message);
            cli_debug_origin(&diag);
            code = rc == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_DATA;
        } else {
            code = s_write_result(&result, unquoted, flags, out);
        }
        if (code != CLI_EXIT_OK) {
            break;
        }
    }
    anvil_arena_destroy(arena);
    cli_lines_close(&lines);
    return code;
}

const struct cli_option cli_query_options[] = {
    CLI_OPTION_HELP,
    CLI_VALUE("filename", 'f', OPT_FILE, "FILE", CLI_VALUE_FILE, "read the document from FILE"),
    CLI_VALUE("expr-file", 'e', OPT_EXPR_FILE, "FILE", CLI_VALUE_FILE, "read the expression from FILE"),
    CLI_FLAG("unquoted", 'u', OPT_UNQUOTED, "print a string result without quotes"),
    CLI_FLAG("pretty", 'p', OPT_PRETTY, "indent the result"),
    CLI_FLAG("lines", 'l', OPT_LINES, "JSON lines: a result per document, one per line"),
    CLI_FLAG("ast", 0, OPT_AST, "print the parsed expression tree instead of evaluating"),
    CLI_OPTIONS_END,
};

int cli_cmd_query(int argc, char **argv) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_query_options, "query");
    const char *file = NULL, *expr_file = NULL, *expression = NULL;
    bool unquoted = false, ast = false, lines = false;
    unsigned flags = ANVIL_JSON_WRITE_COMPACT;
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPERAND) {
            if (!expression && !expr_file) {
                expression = value;
            } else if (!file) {
                file = value;
            } else {
                return cli_usage_error("query", "'anvil query' takes one EXPRESSION and at most one FILE");
            }
            continue;
        }
        switch (id) {
        case OPT_FILE:
            file = value;
            break;
        case OPT_EXPR_FILE:
            expr_file = value;
            break;
        case OPT_UNQUOTED:
            unquoted = true;
            break;
        case OPT_PRETTY:
            flags |= ANVIL_JSON_WRITE_PRETTY;
            break;
        case OPT_AST:
            ast = true;
            break;
        case OPT_LINES:
            lines = true;
            break;
        }
    }
    /* With --expr-file, the single operand is the input file. */
    if (expr_file && expression) {
        if (file) {
            return cli_usage_error("query", "give the expression either as an argument or with --expr-file");
        }
        file = expression;
        expression = NULL;
    }
    struct cli_input expr_text = {0};
    size_t expr_len = 0;
    if (expr_file) {
        int code = cli_input_read(expr_file, ANVIL_JMESPATH_DEFAULT_MAX_LENGTH + 1, &expr_text);
        if (code != CLI_EXIT_OK) {
            return code;
        }
        expr_len = expr_text.len;
        while (expr_len && (expr_text.data[expr_len - 1] == '\n' || expr_text.data[expr_len - 1] == '\r')) {
            expr_len--;
        }
        expression = expr_text.data;
    } else if (!expression) {
        return cli_usage_error("query", "no EXPRESSION given");
    } else {
        expr_len = strlen(expression);
    }

    struct anvil_jmespath *expr = NULL;
    struct anvil_diag diag;
    int rc = anvil_jmespath_compile(NULL, expression, expr_len, NULL, &expr, &diag);
    if (rc != ANVIL_OK) {
        int code = cli_query_report("query", expression, expr_len, rc, &diag);
        cli_input_release(&expr_text);
        return code;
    }
    int code = CLI_EXIT_OK;
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    if (ast) {
        rc = anvil_jmespath_write_ast(expr, flags | ANVIL_JSON_WRITE_PRETTY, &out);
        if (rc == ANVIL_OK && (rc = anvil_buf_append_byte(&out, '\n')) == ANVIL_OK) {
            code = cli_write_output(out.data, out.len);
        } else {
            cli_error("query: cannot print the tree: %s", anvil_status_str(rc));
            code = cli_exit_for_status(rc);
        }
        goto done;
    }
    if (lines) {
        code = s_lines(expr, file, unquoted, flags, &out);
        goto done;
    }
    struct cli_input input;
    code = cli_input_read(file, ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES, &input);
    if (code != CLI_EXIT_OK) {
        goto done;
    }
    struct anvil_json_doc *doc = NULL;
    rc = anvil_json_parse(NULL, input.data, input.len, NULL, &doc, &diag);
    if (rc != ANVIL_OK) {
        cli_report_diag(input.label, &diag);
        cli_input_release(&input);
        code = cli_exit_for_status(rc);
        goto done;
    }
    cli_input_release(&input); /* the document copied what it needs */
    struct anvil_arena *arena = NULL;
    struct anvil_json result;
    rc = anvil_arena_new(NULL, NULL, &arena);
    if (rc == ANVIL_OK) {
        rc = anvil_jmespath_search(expr, anvil_json_doc_root(doc), arena, &result, &diag);
        code = rc != ANVIL_OK ? cli_query_report("query", expression, expr_len, rc, &diag)
                              : s_write_result(&result, unquoted, flags, &out);
    } else {
        cli_error("query: out of memory");
        code = CLI_EXIT_INTERNAL;
    }
    anvil_arena_destroy(arena);
    anvil_json_doc_destroy(doc);
done:
    anvil_buf_clean_up(&out);
    cli_input_release(&expr_text);
    anvil_jmespath_destroy(expr);
    return code;
}
