/*
 * anvil wait --many FILE: one waiter, one input per line (JSON lines), every
 * wait at once through anvil_client_wait_many(); an outcome line per
 * resource the moment it ends, a live summary on a terminal, and the exit
 * status of the worst outcome.
 */

#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The most input lines one run takes. */
#define S_MAX_LINES 1000000

struct s_run {
    const struct cli_wait_many *w;
    /* Each input's line number; the inputs (values in the run's arena). */
    size_t *line_of;
    struct anvil_json *values;
    const struct anvil_json **inputs;
    size_t count;
    /*
     * The worst outcome's exit code so far: the codes already rank outcomes
     * (success 0 < failure 1 < timed out 2 < unexpected error 3 < cancelled 128+).
     */
    int worst_code;
    size_t reported;
    /* Reused for every outcome line: its leading members, the line, the query's values. */
    struct anvil_buf lead, out;
    struct anvil_arena *scratch;
    /* For the summary's request rate: the count and time of the last summary. */
    uint64_t last_requests, last_ms;
    int write_code;
    bool live_shown;
};

static void s_clear_live(struct s_run *r) {
    if (r->live_shown) {
        fputs("\r\033[K", stderr);
        r->live_shown = false;
    }
}

static void s_on_done(void *ctx, const struct anvil_wait_many_done *done) {
    struct s_run *r = ctx;
    const struct anvil_wait_result *result = done->result;
    r->reported++;
    int code = cli_wait_exit_code(result->outcome.reason);
    r->worst_code = code > r->worst_code ? code : r->worst_code;
    if (r->write_code != CLI_EXIT_OK) {
        return;
    }
    anvil_buf_clear(&r->lead);
    anvil_buf_clear(&r->out);
    int rc = anvil_buf_appendf(&r->lead, "\"line\":%zu,\"input\":", r->line_of[done->index]);
    rc = rc == ANVIL_OK ? anvil_json_write(r->inputs[done->index], 0, &r->lead) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_byte(&r->lead, ',') : rc;
    /* The output shown: the last one through --query, whose values live in the run's scratch arena. */
    const struct anvil_json *output = result->outcome.has_output ? result->outcome.output : NULL;
    struct anvil_json shown;
    if (rc == ANVIL_OK && output && r->w->query) {
        rc = r->scratch ? ANVIL_OK : anvil_arena_new(NULL, NULL, &r->scratch);
        anvil_arena_reset(r->scratch);
        if (rc == ANVIL_OK && cli_query_apply("wait", r->w->query, output, r->scratch, &shown) == CLI_EXIT_OK) {
            output = &shown;
        } else {
            output = NULL;
        }
    }
    rc = rc == ANVIL_OK ? cli_wait_outcome_json(r->w->waiter, result, output, anvil_buf_view(&r->lead), &r->out) : rc;
    s_clear_live(r);
    r->write_code = rc == ANVIL_OK ? cli_write_output(r->out.data, r->out.len) : cli_exit_for_status(rc);
    if (r->write_code == CLI_EXIT_OK) {
        r->write_code = cli_flush_output(); /* the moment it ends, even into a pipe */
    }
}

static void s_on_progress(void *ctx, const struct anvil_wait_many_progress *p) {
    struct s_run *r = ctx;
    if (!r->w->live) {
        return;
    }
    uint64_t now = anvil_env_now_ms(r->w->options.env);
    double rate = now > r->last_ms && r->last_ms
                      ? (double)(p->requests - r->last_requests) * 1000.0 / (double)(now - r->last_ms)
                      : 0.0;
    r->last_requests = p->requests;
    r->last_ms = now;
    fprintf(stderr,
            "\r\033[K%zu waiting \xc2\xb7 %zu success \xc2\xb7 %zu failure \xc2\xb7 %zu timed out \xc2\xb7 %.1f "
            "requests/s (%zu in flight) \xc2\xb7 %llu throttled",
            p->waiting, p->succeeded, p->failed, p->timed_out, rate, p->in_flight, (unsigned long long)p->throttled);
    fflush(stderr);
    r->live_shown = true;
}

/* Room for one more input in the run's growing arrays. */
static int s_grow(struct s_run *r, size_t *cap) {
    if (r->count < *cap) {
        return CLI_EXIT_OK;
    }
    size_t n = *cap ? *cap * 2 : 64;
    struct anvil_json *values = realloc(r->values, n * sizeof *values);
    r->values = values ? values : r->values;
    size_t *line_of = realloc(r->line_of, n * sizeof *line_of);
    r->line_of = line_of ? line_of : r->line_of;
    if (!values || !line_of) {
        cli_error("wait: out of memory");
        return CLI_EXIT_INTERNAL;
    }
    *cap = n;
    return CLI_EXIT_OK;
}

/*
 * Parses and checks every line before the first request, into one arena (a
 * fleet of small inputs costs their size, not a document each): a bad line
 * is named by its number.
 */
static int s_read_lines(struct s_run *r, struct cli_lines *lines, struct anvil_arena *arena) {
    size_t cap = 0;
    for (;;) {
        const char *start = NULL;
        size_t len = 0;
        int code = cli_lines_next(lines, &start, &len);
        if (code != CLI_EXIT_OK || !start) {
            return code;
        }
        struct anvil_str_view text = anvil_sv_trim(anvil_sv(start, len));
        if (!text.len) {
            continue; /* blank lines separate nothing */
        }
        if (r->count == S_MAX_LINES) {
            cli_error("wait: %s: more than %d inputs", lines->label, S_MAX_LINES);
            return CLI_EXIT_DATA;
        }
        if ((code = s_grow(r, &cap)) != CLI_EXIT_OK) {
            return code;
        }
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil_json_parse_into(arena, NULL, text.ptr, text.len, NULL, &r->values[r->count], &diag);
        if (rc != ANVIL_OK) {
            cli_error("wait: %s: line %zu: %s", lines->label, lines->number,
                      rc == ANVIL_ENOMEM ? "out of memory" : diag.message);
            return rc == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_DATA;
        }
        r->line_of[r->count] = lines->number;
        char what[96];
        snprintf(what, sizeof what, "wait: line %zu", lines->number);
        code = cli_check_input(r->w->client, r->w->operation, &r->values[r->count], what);
        if (code != CLI_EXIT_OK) {
            return code;
        }
        r->count++;
    }
}

int cli_wait_many_run(const struct cli_wait_many *w) {
    struct cli_lines lines;
    int code = cli_lines_open(w->path, cli_read_limit(), cli_read_limit(), &lines);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct s_run r = {.w = w, .worst_code = CLI_EXIT_OK, .write_code = CLI_EXIT_OK};
    anvil_buf_init(&r.lead, NULL, 0);
    anvil_buf_init(&r.out, NULL, 0);
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        cli_lines_close(&lines);
        return CLI_EXIT_INTERNAL;
    }
    code = s_read_lines(&r, &lines, arena);
    if (code == CLI_EXIT_OK && r.count == 0) {
        cli_error("wait: %s: no inputs (one JSON input per line)", lines.label);
        code = CLI_EXIT_DATA;
    }
    /* The values are all read (their array no longer moves): the inputs point at them. */
    r.inputs = code == CLI_EXIT_OK ? malloc(r.count * sizeof *r.inputs) : NULL;
    if (code == CLI_EXIT_OK && !r.inputs) {
        cli_error("wait: out of memory");
        code = CLI_EXIT_INTERNAL;
    }
    for (size_t i = 0; r.inputs && i < r.count; i++) {
        r.inputs[i] = &r.values[i];
    }
    if (code == CLI_EXIT_OK) {
        struct anvil_wait_many_options options = {w->options, w->max_in_flight, w->max_rps, s_on_done,
                                                  &r,         s_on_progress,    0,          w->waiter};
        struct cli_signals signals;
        cli_signals_catch(&signals);
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil_client_wait_many(w->client, NULL, r.inputs, r.count, &options, &diag);
        cli_signals_restore(&signals);
        s_clear_live(&r);
        if (rc != ANVIL_OK) {
            /* The waits not reported got no outcome line: say how many did. */
            cli_error("wait: %s (%zu of %zu waits had ended)", diag.message[0] ? diag.message : anvil_status_str(rc),
                      r.reported, r.count);
            cli_debug_origin(&diag);
            code = rc == ANVIL_EINVAL ? CLI_EXIT_USAGE : cli_exit_for_status(rc);
        } else {
            code = r.write_code != CLI_EXIT_OK ? r.write_code : r.worst_code;
        }
    }
    anvil_arena_destroy(arena);
    anvil_arena_destroy(r.scratch);
    anvil_buf_clean_up(&r.lead);
    anvil_buf_clean_up(&r.out);
    free(r.values);
    free(r.inputs);
    free(r.line_of);
    cli_lines_close(&lines);
    return code;
}
