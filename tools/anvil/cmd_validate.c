/*
 * anvil validate: load Smithy models and print their events, what assembly
 * found (unknown properties, misplaced doc comments...) and what the
 * validators found, in one sorted list.
 */

#include <stdlib.h>

#include "cli.h"

static int s_by_event(const void *x, const void *y) {
    return anvil_event_compare(*(const struct anvil_event *const *)x, *(const struct anvil_event *const *)y);
}

/* Appends the events of both lists to `out`, one per line, in anvil_event_compare() order. */
static int s_format_merged(const struct anvil_events *a, const struct anvil_events *b, struct anvil_buf *out) {
    size_t na = anvil_events_count(a), nb = anvil_events_count(b);
    const struct anvil_event **all = calloc(na + nb + 1, sizeof(*all));
    if (!all) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < na; i++) {
        all[i] = anvil_events_at(a, i);
    }
    for (size_t i = 0; i < nb; i++) {
        all[na + i] = anvil_events_at(b, i);
    }
    qsort(all, na + nb, sizeof(*all), s_by_event);
    int rc = ANVIL_OK;
    for (size_t i = 0; rc == ANVIL_OK && i < na + nb; i++) {
        rc = anvil_event_format(all[i], out);
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(out, '\n');
        }
    }
    free(all);
    return rc;
}

static int s_validate(const char *path, bool *had_error) {
    struct cli_input input;
    struct anvil_model *model = NULL;
    struct anvil_events *assembly = NULL;
    int code = cli_model_assemble_events(&path, 1, true, &input, &model, &assembly);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_events *events = NULL;
    int rc = anvil_model_validate(model, NULL, &events);
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    if (rc == ANVIL_OK) {
        rc = s_format_merged(assembly, events, &out);
    }
    code = cli_finish_output(&input, rc, &out);
    *had_error |= anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR) > 0 ||
                  anvil_events_count_at_least(assembly, ANVIL_SEVERITY_ERROR) > 0;
    anvil_buf_clean_up(&out);
    anvil_events_destroy(events);
    anvil_events_destroy(assembly);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}

const struct cli_option cli_validate_options[] = {
    CLI_OPTION_HELP,
    CLI_OPTIONS_END,
};

int cli_cmd_validate(int argc, char **argv) {
    struct cli_paths files;
    int code = cli_parse_paths(argc, argv, cli_validate_options, "validate", NULL, NULL, &files);
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
