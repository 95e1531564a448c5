/* Option parsing, usage errors and "did you mean" suggestions. */

#include <stdarg.h>
#include <string.h>

#include "cli.h"

static void s_vreport(const char *fmt, va_list args) ANVIL_PRINTF(1, 0);

/*
 * One line on standard error. Messages quote what came from elsewhere (a
 * server's error, a model's names, a command's output): everything a
 * terminal would act on is escaped, so the line stays one line.
 */
static void s_vreport(const char *fmt, va_list args) {
    struct anvil_buf said, line;
    anvil_buf_init(&said, NULL, 0);
    anvil_buf_init(&line, NULL, 0);
    int rc = anvil_buf_vappendf(&said, fmt, args);
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(&line, "anvil: ") : rc;
    rc = rc == ANVIL_OK ? anvil_text_append_escaped(&line, anvil_buf_view(&said)) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&line, '\n') : rc;
    if (rc == ANVIL_OK) {
        fwrite(line.data, 1, line.len, stderr);
    } else {
        fputs("anvil: out of memory printing an error\n", stderr);
    }
    anvil_buf_clean_up(&said);
    anvil_buf_clean_up(&line);
}

void cli_error(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    s_vreport(fmt, args);
    va_end(args);
}

void cli_error_text(const char *prefix, struct anvil_str_view text) {
    struct anvil_buf line;
    anvil_buf_init(&line, NULL, 0);
    int rc = anvil_buf_appendf(&line, "anvil: %s", prefix);
    rc = rc == ANVIL_OK ? anvil_text_append_escaped(&line, text) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&line, '\n') : rc;
    if (rc == ANVIL_OK) {
        fwrite(line.data, 1, line.len, stderr);
    }
    anvil_buf_clean_up(&line);
}

int cli_usage_error(const char *command, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    s_vreport(fmt, args);
    va_end(args);
    if (command) {
        fprintf(stderr, "Try 'anvil help %s' for more information.\n", command);
    } else {
        fputs("Try 'anvil --help' for more information.\n", stderr);
    }
    return CLI_EXIT_USAGE;
}

/* Levenshtein distance, capped: words longer than 64 bytes are never "close". */
static size_t s_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) {
        return SIZE_MAX;
    }
    size_t row[65];
    for (size_t j = 0; j <= lb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = diag + cost;
            if (up + 1 < best) {
                best = up + 1;
            }
            if (row[j - 1] + 1 < best) {
                best = row[j - 1] + 1;
            }
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *cli_suggest(const char *word, const char *const *candidates) {
    const char *best = NULL;
    size_t best_distance = SIZE_MAX;
    for (size_t i = 0; candidates[i]; i++) {
        size_t d = s_distance(word, candidates[i]);
        if (d < best_distance) {
            best_distance = d;
            best = candidates[i];
        }
    }
    /* Close means at most a third of the word changed (and at least one edit allowed). */
    size_t allowed = strlen(word) / 3 > 0 ? strlen(word) / 3 : 1;
    return best_distance <= allowed ? best : NULL;
}

void cli_parser_init(struct cli_parser *parser, int argc, char **argv, const struct cli_option *options,
                     const char *command) {
    parser->argc = argc;
    parser->argv = argv;
    parser->index = 0;
    parser->options = options;
    parser->command = command;
    parser->options_done = false;
}

static int s_unknown_option(struct cli_parser *parser, const char *spelled) {
    const char *names[64];
    char dashed[64][48];
    size_t n = 0;
    for (const struct cli_option *o = parser->options; o->long_name && n < 64; o++, n++) {
        snprintf(dashed[n], sizeof(dashed[n]), "--%s", o->long_name);
        names[n] = dashed[n];
    }
    names[n] = NULL;
    const char *hint = spelled[1] == '-' ? cli_suggest(spelled, names) : NULL;
    if (hint) {
        return cli_usage_error(parser->command, "unknown option '%s' (did you mean '%s'?)", spelled, hint);
    }
    return cli_usage_error(parser->command, "unknown option '%s'", spelled);
}

enum cli_next cli_parser_next(struct cli_parser *parser, int *id, const char **value) {
    *value = NULL;
    if (parser->index >= parser->argc) {
        return CLI_NEXT_END;
    }
    char *arg = parser->argv[parser->index++];
    if (parser->options_done || arg[0] != '-' || arg[1] == '\0') {
        *value = arg; /* "-" alone is an operand: standard input */
        return CLI_NEXT_OPERAND;
    }
    if (strcmp(arg, "--") == 0) {
        parser->options_done = true;
        return cli_parser_next(parser, id, value);
    }
    const struct cli_option *match = NULL;
    const char *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        for (const struct cli_option *o = parser->options; o->long_name; o++) {
            if (strlen(o->long_name) == name_len && strncmp(o->long_name, name, name_len) == 0) {
                match = o;
                break;
            }
        }
        if (!match) {
            char spelled[64];
            snprintf(spelled, sizeof(spelled), "--%.*s", (int)(name_len < 50 ? name_len : 50), name);
            s_unknown_option(parser, spelled);
            return CLI_NEXT_ERROR;
        }
        inline_value = eq ? eq + 1 : NULL;
    } else {
        for (const struct cli_option *o = parser->options; o->long_name; o++) {
            if (o->short_name && o->short_name == arg[1]) {
                match = o;
                break;
            }
        }
        if (!match || (arg[2] != '\0' && match->arg != CLI_ARG_REQUIRED)) {
            char spelled[3] = {'-', arg[1], '\0'};
            s_unknown_option(parser, spelled);
            return CLI_NEXT_ERROR;
        }
        inline_value = arg[2] ? arg + 2 : NULL;
    }
    *id = match->id;
    if (match->arg != CLI_ARG_REQUIRED) {
        if (inline_value) {
            cli_usage_error(parser->command, "option '--%s' takes no value", match->long_name);
            return CLI_NEXT_ERROR;
        }
        return CLI_NEXT_OPTION;
    }
    if (inline_value) {
        *value = inline_value;
    } else if (parser->index < parser->argc) {
        *value = parser->argv[parser->index++];
    } else {
        cli_usage_error(parser->command, "option '--%s' needs a value", match->long_name);
        return CLI_NEXT_ERROR;
    }
    return CLI_NEXT_OPTION;
}

/* "SECONDS" as a whole or decimal number of seconds (e.g. 600, 0.5) -> milliseconds. */
bool cli_parse_seconds(const char *text, uint64_t max_ms, uint64_t *out_ms) {
    struct anvil_str_view s = anvil_sv_from_cstr(text);
    size_t dot = anvil_sv_find_byte(s, 0, '.');
    struct anvil_str_view whole = anvil_sv_slice(s, 0, dot == SIZE_MAX ? s.len : dot);
    uint64_t secs = 0, ms = 0;
    if (whole.len == 0 || anvil_sv_parse_u64(whole, max_ms / 1000, &secs) != ANVIL_OK) {
        return false;
    }
    if (dot != SIZE_MAX) {
        struct anvil_str_view frac = anvil_sv_slice(s, dot + 1, s.len - dot - 1);
        if (frac.len == 0 || frac.len > 3 || anvil_sv_parse_u64(frac, 999, &ms) != ANVIL_OK) {
            return false;
        }
        for (size_t i = frac.len; i < 3; i++) {
            ms *= 10;
        }
    }
    *out_ms = secs * 1000 + ms;
    return true;
}

int cli_paths_add(struct cli_paths *paths, const char *command, const char *path) {
    if (paths->count == CLI_MAX_PATHS) {
        return cli_usage_error(command, "at most %d files or folders at once", CLI_MAX_PATHS);
    }
    paths->items[paths->count++] = path;
    return CLI_EXIT_OK;
}

int cli_parse_paths(int argc, char **argv, const struct cli_option *options, const char *command,
                    int (*on_option)(void *ctx, int id, const char *value), void *ctx, struct cli_paths *paths) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, options, command);
    paths->count = 0;
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        }
        int code = next == CLI_NEXT_OPERAND ? cli_paths_add(paths, command, value)
                   : on_option              ? on_option(ctx, id, value)
                                            : CLI_EXIT_OK; /* only --help, which main.c handles */
        if (code != CLI_EXIT_OK) {
            return code;
        }
    }
    return paths->count ? CLI_EXIT_OK : cli_usage_error(command, "no FILE given");
}
