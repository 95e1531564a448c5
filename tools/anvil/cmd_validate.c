/* anvil validate: load Smithy JSON AST models and print their validation events. */

#include "cli.h"

static int s_validate(const char *path, bool *had_error) {
    struct cli_input input;
    struct anvil_model *model = NULL;
    int code = cli_model_read(path, true, &input, &model);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_events *events = NULL;
    int rc = anvil_model_validate(model, NULL, &events);
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_events_count(events); i++) {
        rc = anvil_event_format(anvil_events_at(events, i), &out);
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(&out, '\n');
        }
    }
    code = cli_finish_output(&input, rc, &out);
    *had_error |= anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR) > 0;
    anvil_buf_clean_up(&out);
    anvil_events_destroy(events);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}

int cli_cmd_validate(int argc, char **argv) {
    static const struct cli_option options[] = {CLI_OPTION_HELP, {NULL, 0, CLI_ARG_NONE, 0}};
    struct cli_paths files;
    int code = cli_parse_paths(argc, argv, options, "validate", NULL, NULL, &files);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    bool had_error = false;
    int worst = CLI_EXIT_OK;
    for (size_t i = 0; i < files.count; i++) {
        code = s_validate(files.items[i], &had_error);
        if (code != CLI_EXIT_OK && worst == CLI_EXIT_OK) {
            worst = code;
        }
    }
    if (worst != CLI_EXIT_OK) {
        return worst;
    }
    return had_error ? CLI_EXIT_FAILURE_STATE : CLI_EXIT_OK;
}
