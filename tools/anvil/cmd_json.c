/* anvil json: validate a JSON document and print it again. */

#include "cli.h"

enum { OPT_PRETTY = 'p', OPT_ASCII = 'a', OPT_QUIET = 'q', OPT_MAX_DEPTH = 1000, OPT_MAX_BYTES };

const struct cli_option cli_json_options[] = {
    CLI_OPTION_HELP,
    CLI_FLAG("pretty", 'p', OPT_PRETTY, "indent with two spaces, one member or item per line"),
    CLI_FLAG("ascii", 'a', OPT_ASCII, "escape every non-ASCII character as \\uXXXX"),
    CLI_FLAG("quiet", 'q', OPT_QUIET, "only validate; print nothing on success"),
    CLI_TEXT("max-depth", 0, OPT_MAX_DEPTH, "N", "deepest nesting accepted (default 512)"),
    CLI_TEXT("max-bytes", 0, OPT_MAX_BYTES, "N", "largest input accepted in bytes (default 1 GiB)"),
    CLI_OPTIONS_END,
};

int cli_cmd_json(int argc, char **argv) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_json_options, "json");
    unsigned flags = ANVIL_JSON_WRITE_COMPACT;
    bool quiet = false;
    const char *path = NULL;
    struct anvil_json_parse_options parse_options = {0};
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        if (next == CLI_NEXT_OPERAND) {
            if (path) {
                return cli_usage_error("json", "'anvil json' takes at most one FILE");
            }
            path = value;
            continue;
        }
        uint64_t n;
        switch (id) {
        case OPT_PRETTY:
            flags |= ANVIL_JSON_WRITE_PRETTY;
            break;
        case OPT_ASCII:
            flags |= ANVIL_JSON_WRITE_ASCII;
            break;
        case OPT_QUIET:
            quiet = true;
            break;
        case OPT_MAX_DEPTH:
            if (anvil_sv_parse_u64(anvil_sv_from_cstr(value), ANVIL_JSON_MAX_DEPTH, &n) != ANVIL_OK || n == 0) {
                return cli_usage_error("json", "--max-depth needs a number from 1 to %d, not '%s'",
                                       ANVIL_JSON_MAX_DEPTH, value);
            }
            parse_options.max_depth = (size_t)n;
            break;
        case OPT_MAX_BYTES:
            if (anvil_sv_parse_u64(anvil_sv_from_cstr(value), SIZE_MAX / 2, &n) != ANVIL_OK || n == 0) {
                return cli_usage_error("json", "--max-bytes needs a positive number of bytes, not '%s'", value);
            }
            parse_options.max_document_bytes = (size_t)n;
            break;
        }
    }
    size_t max_bytes =
        parse_options.max_document_bytes ? parse_options.max_document_bytes : ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES;
    struct cli_input input;
    int code = cli_input_read(path, max_bytes, &input);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    int rc = anvil_json_parse(NULL, input.data, input.len, &parse_options, &doc, &diag);
    if (rc != ANVIL_OK) {
        cli_report_diag(input.label, &diag);
        cli_input_release(&input);
        return cli_exit_for_status(rc);
    }
    const char *label = input.label;
    if (!quiet) {
        struct anvil_buf out;
        anvil_buf_init(&out, NULL, 0);
        rc = anvil_json_write(anvil_json_doc_root(doc), flags, &out);
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(&out, '\n');
        }
        if (rc != ANVIL_OK) {
            cli_error("%s: cannot write the document: %s", label, anvil_status_str(rc));
            code = cli_exit_for_status(rc);
        } else {
            code = cli_write_output(out.data, out.len);
        }
        anvil_buf_clean_up(&out);
    }
    anvil_json_doc_destroy(doc);
    cli_input_release(&input);
    return code;
}
