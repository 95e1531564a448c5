/* anvil waiters: list the waiters a Smithy model defines, readably or as JSON. */

#include <string.h>

#include "cli.h"

enum { OPT_OUTPUT = 'o', OPT_TAG = 't' };

struct s_listing {
    struct anvil_buf *out;
    bool json;
    const char *tag;
    size_t count;
    int rc;
};

static bool s_has_tag(const struct anvil_json *waiter, const char *tag) {
    if (!tag) {
        return true;
    }
    const struct anvil_json *tags = anvil_json_object_get_cstr(waiter, "tags");
    for (size_t i = 0; i < anvil_json_len(tags); i++) {
        if (anvil_sv_eq_cstr(anvil_json_string(anvil_json_array_at(tags, i)), tag)) {
            return true;
        }
    }
    return false;
}

static int64_t s_delay(const struct anvil_json *waiter, const char *key, int64_t fallback) {
    const struct anvil_json *v = anvil_json_object_get_cstr(waiter, key);
    return anvil_json_is_int(v) ? anvil_json_int(v) : fallback;
}

/* The model's text on one line: escaped, so a model cannot add lines or move the cursor. */
static int s_text(struct anvil_buf *out, struct anvil_str_view text) {
    return anvil_text_append_escaped(out, text);
}

/* Documentation on one line: tags stripped, whitespace runs as one space, at most 160 bytes (whole characters). */
static int s_doc_line(struct anvil_buf *out, struct anvil_str_view doc) {
    struct anvil_buf plain, cut;
    anvil_buf_init(&plain, NULL, 0);
    anvil_buf_init(&cut, NULL, 0);
    int rc = ANVIL_OK;
    bool in_tag = false, space = false;
    for (size_t i = 0; i < doc.len && rc == ANVIL_OK; i++) {
        char c = doc.ptr[i];
        if (c == '<') {
            in_tag = true;
        } else if (c == '>') {
            in_tag = false;
        } else if (!in_tag && (c == '\n' || c == '\t' || c == ' ' || c == '\r')) {
            space = plain.len > 0;
        } else if (!in_tag) {
            rc = space ? anvil_buf_append_byte(&plain, ' ') : ANVIL_OK;
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(&plain, c) : rc;
            space = false;
        }
    }
    rc = rc == ANVIL_OK ? anvil_text_append_utf8(&cut, anvil_buf_view(&plain), 160) : rc;
    rc = rc == ANVIL_OK ? s_text(out, anvil_buf_view(&cut)) : rc;
    if (rc == ANVIL_OK && cut.len < plain.len) {
        rc = anvil_buf_append_cstr(out, "...");
    }
    anvil_buf_clean_up(&plain);
    anvil_buf_clean_up(&cut);
    return rc;
}

static int s_text_acceptor(struct anvil_buf *out, size_t index, const struct anvil_json *acceptor) {
    const struct anvil_json *matcher = anvil_json_object_get_cstr(acceptor, "matcher");
    const struct anvil_json_member *kind = anvil_json_object_at(matcher, 0);
    struct anvil_str_view state = anvil_json_string(anvil_json_object_get_cstr(acceptor, "state"));
    /* Numbered from 1, as the outcome of `anvil wait` names them. */
    int rc = anvil_buf_appendf(out, "      %zu. ", index + 1);
    rc = rc == ANVIL_OK ? s_text(out, state) : rc;
    for (size_t pad = state.len; rc == ANVIL_OK && pad < 8; pad++) {
        rc = anvil_buf_append_byte(out, ' ');
    }
    if (rc != ANVIL_OK || !kind) {
        return rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    }
    struct anvil_str_view k = anvil_json_member_key(kind);
    const struct anvil_json *v = &kind->value;
    if (anvil_sv_eq_cstr(k, "errorType")) {
        rc = anvil_buf_append_cstr(out, "when the error is ");
        rc = rc == ANVIL_OK ? s_text(out, anvil_json_string(v)) : rc;
    } else if (anvil_sv_eq_cstr(k, "success")) {
        rc = anvil_buf_appendf(out, "when the call %s", anvil_json_bool(v) ? "succeeds" : "fails with any error");
    } else {
        struct anvil_str_view path = anvil_json_string(anvil_json_object_get_cstr(v, "path"));
        struct anvil_str_view cmp = anvil_json_string(anvil_json_object_get_cstr(v, "comparator"));
        struct anvil_str_view want = anvil_json_string(anvil_json_object_get_cstr(v, "expected"));
        rc = anvil_buf_append_cstr(out, "when ");
        rc = rc == ANVIL_OK ? s_text(out, k) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ' ') : rc;
        rc = rc == ANVIL_OK ? s_text(out, path) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_appendf(out, " %s \"",
                                                anvil_sv_eq_cstr(cmp, "stringEquals")      ? "=="
                                                : anvil_sv_eq_cstr(cmp, "booleanEquals")   ? "is"
                                                : anvil_sv_eq_cstr(cmp, "allStringEquals") ? "all =="
                                                                                           : "any ==")
                            : rc;
        rc = rc == ANVIL_OK ? s_text(out, want) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
    }
    const struct anvil_json *message = anvil_json_object_get_cstr(acceptor, "message");
    if (rc == ANVIL_OK && message) {
        rc = anvil_buf_append_cstr(out, " (message: ");
        rc = rc == ANVIL_OK ? s_text(out, anvil_json_string(message)) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ')') : rc;
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
}

static int s_text_waiter(struct anvil_buf *out, struct anvil_str_view name, const struct anvil_json *waiter) {
    bool deprecated = anvil_json_bool(anvil_json_object_get_cstr(waiter, "deprecated"));
    int rc = anvil_buf_append_cstr(out, "    ");
    rc = rc == ANVIL_OK ? s_text(out, name) : rc;
    rc = rc == ANVIL_OK
             ? anvil_buf_appendf(out, "%s  (delay %llds to %llds)\n", deprecated ? " [deprecated]" : "",
                                 (long long)s_delay(waiter, "minDelay", 2), (long long)s_delay(waiter, "maxDelay", 120))
             : rc;
    const struct anvil_json *doc = anvil_json_object_get_cstr(waiter, "documentation");
    if (rc == ANVIL_OK && doc) {
        rc = anvil_buf_append_cstr(out, "      ");
        if (rc == ANVIL_OK) {
            rc = s_doc_line(out, anvil_json_string(doc));
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(out, '\n');
        }
    }
    const struct anvil_json *tags = anvil_json_object_get_cstr(waiter, "tags");
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(tags); i++) {
        rc = anvil_buf_append_cstr(out, i ? ", " : "      tags: ");
        rc = rc == ANVIL_OK ? s_text(out, anvil_json_string(anvil_json_array_at(tags, i))) : rc;
        rc = rc == ANVIL_OK && i + 1 == anvil_json_len(tags) ? anvil_buf_append_byte(out, '\n') : rc;
    }
    const struct anvil_json *acceptors = anvil_json_object_get_cstr(waiter, "acceptors");
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(acceptors); i++) {
        rc = s_text_acceptor(out, i, anvil_json_array_at(acceptors, i));
    }
    return rc;
}

static int s_json_waiter(struct anvil_buf *out, const struct anvil_shape *op, struct anvil_str_view name,
                         const struct anvil_json *waiter, bool first) {
    struct anvil_str_view id = anvil_shape_id(op);
    int rc = anvil_buf_append_cstr(out, first ? "\n  {\"operation\": " : ",\n  {\"operation\": ");
    if (rc == ANVIL_OK) {
        rc = anvil_json_write_string(id, 0, out);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_cstr(out, ", \"waiter\": ");
    }
    if (rc == ANVIL_OK) {
        rc = anvil_json_write_string(name, 0, out);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(out, ", \"minDelay\": %lld, \"maxDelay\": %lld, \"definition\": ",
                               (long long)s_delay(waiter, "minDelay", 2), (long long)s_delay(waiter, "maxDelay", 120));
    }
    if (rc == ANVIL_OK) {
        rc = anvil_json_write(waiter, 0, out);
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '}') : rc;
}

static int s_list(const struct anvil_model *model, struct s_listing *l) {
    for (size_t i = 0; i < anvil_model_shape_count(model) && l->rc == ANVIL_OK; i++) {
        const struct anvil_shape *op = anvil_model_shape_at(model, i);
        const struct anvil_json *waitable = anvil_shape_trait(op, "smithy.waiters#waitable");
        if (anvil_shape_type(op) != ANVIL_SHAPE_OPERATION || !waitable) {
            continue;
        }
        bool header = false;
        for (size_t w = 0; w < anvil_json_len(waitable) && l->rc == ANVIL_OK; w++) {
            const struct anvil_json_member *m = anvil_json_object_at(waitable, w);
            if (!s_has_tag(&m->value, l->tag)) {
                continue;
            }
            if (l->json) {
                l->rc = s_json_waiter(l->out, op, anvil_json_member_key(m), &m->value, l->count == 0);
            } else {
                if (!header) {
                    l->rc = s_text(l->out, anvil_shape_name(op));
                    l->rc = l->rc == ANVIL_OK ? anvil_buf_append_cstr(l->out, " (") : l->rc;
                    l->rc = l->rc == ANVIL_OK ? s_text(l->out, anvil_shape_id(op)) : l->rc;
                    l->rc = l->rc == ANVIL_OK ? anvil_buf_append_cstr(l->out, ")\n") : l->rc;
                    header = true;
                }
                if (l->rc == ANVIL_OK) {
                    l->rc = s_text_waiter(l->out, anvil_json_member_key(m), &m->value);
                }
            }
            l->count++;
        }
    }
    return l->rc;
}

/* --tag and --output as given. */
struct s_format {
    const char *tag;
    bool json;
};

static int s_on_option(void *ctx, int id, const char *value) {
    struct s_format *format = ctx;
    if (id == OPT_TAG) {
        format->tag = value;
    } else if (strcmp(value, "json") == 0 || strcmp(value, "text") == 0) {
        format->json = strcmp(value, "json") == 0;
    } else {
        return cli_usage_error("waiters", "--output must be 'text' or 'json', not '%s'", value);
    }
    return CLI_EXIT_OK;
}

int cli_cmd_waiters(int argc, char **argv) {
    static const struct cli_option options[] = {
        CLI_OPTION_HELP,
        {"output", 'o', CLI_ARG_REQUIRED, OPT_OUTPUT},
        {"tag", 't', CLI_ARG_REQUIRED, OPT_TAG},
        {NULL, 0, CLI_ARG_NONE, 0},
    };
    struct cli_paths files;
    struct s_format format = {NULL, false};
    int code = cli_parse_paths(argc, argv, options, "waiters", s_on_option, &format, &files);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    const char *tag = format.tag;
    bool json = format.json;
    struct cli_input input;
    struct anvil_model *model = NULL;
    code = cli_model_assemble(files.items, files.count, false, &input, &model);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    struct s_listing listing = {&out, json, tag, 0, ANVIL_OK};
    int rc = json ? anvil_buf_append_byte(&out, '[') : ANVIL_OK;
    if (rc == ANVIL_OK) {
        rc = s_list(model, &listing);
    }
    if (rc == ANVIL_OK && json) {
        rc = anvil_buf_append_cstr(&out, listing.count ? "\n]\n" : "]\n");
    }
    code = cli_finish_output(&input, rc, &out);
    anvil_buf_clean_up(&out);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}
