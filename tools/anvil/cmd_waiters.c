/* anvil waiters: list the waiters a Smithy model or a botocore waiters-2.json defines, readably or as JSON. */

#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_OUTPUT = 'o', OPT_TAG = 't', OPT_BOTOCORE = 'b', OPT_SERVICE = 1000 };

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
    struct anvil_buf untagged, plain, cut;
    anvil_buf_init(&untagged, NULL, 0);
    anvil_buf_init(&plain, NULL, 0);
    anvil_buf_init(&cut, NULL, 0);
    int rc = ANVIL_OK;
    bool in_tag = false;
    for (size_t i = 0; i < doc.len && rc == ANVIL_OK; i++) {
        char c = doc.ptr[i];
        in_tag = c == '<' ? true : c == '>' ? false : in_tag;
        rc = !in_tag && c != '>' ? anvil_buf_append_byte(&untagged, c) : ANVIL_OK;
    }
    rc = rc == ANVIL_OK ? anvil_text_append_collapsed(&plain, anvil_buf_view(&untagged)) : rc;
    anvil_buf_clean_up(&untagged);
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

/* ---- botocore's waiters-2.json ---- */

/* A waiters-2 acceptor: matcher path/pathAll/pathAny (argument, expected), status, or error. */
static int s_text_botocore_acceptor(struct anvil_buf *out, size_t index, const struct anvil_json *acceptor) {
    struct anvil_str_view state = anvil_json_string(anvil_json_object_get_cstr(acceptor, "state"));
    struct anvil_str_view matcher = anvil_json_string(anvil_json_object_get_cstr(acceptor, "matcher"));
    const struct anvil_json *expected = anvil_json_object_get_cstr(acceptor, "expected");
    int rc = anvil_buf_appendf(out, "      %zu. ", index + 1);
    rc = rc == ANVIL_OK ? s_text(out, state) : rc;
    for (size_t pad = state.len; rc == ANVIL_OK && pad < 8; pad++) {
        rc = anvil_buf_append_byte(out, ' ');
    }
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (anvil_sv_eq_cstr(matcher, "status")) {
        rc = anvil_buf_appendf(out, "when the HTTP status is %lld", (long long)anvil_json_int(expected));
    } else if (anvil_sv_eq_cstr(matcher, "error") && anvil_json_is_bool(expected)) {
        rc = anvil_buf_append_cstr(out, anvil_json_bool(expected) ? "when the call fails with any error"
                                                                  : "when the call succeeds");
    } else if (anvil_sv_eq_cstr(matcher, "error")) {
        rc = anvil_buf_append_cstr(out, "when the error is ");
        rc = rc == ANVIL_OK ? s_text(out, anvil_json_string(expected)) : rc;
    } else {
        struct anvil_buf value;
        anvil_buf_init(&value, NULL, 0);
        rc = anvil_buf_append_cstr(out, "when ");
        rc = rc == ANVIL_OK ? s_text(out, matcher) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, ' ') : rc;
        rc = rc == ANVIL_OK ? s_text(out, anvil_json_string(anvil_json_object_get_cstr(acceptor, "argument"))) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " == ") : rc;
        rc = rc == ANVIL_OK ? anvil_json_write(expected, 0, &value) : rc;
        rc = rc == ANVIL_OK ? s_text(out, anvil_buf_view(&value)) : rc;
        anvil_buf_clean_up(&value);
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
}

static int s_text_botocore_waiter(struct anvil_buf *out, struct anvil_str_view name, const struct anvil_json *waiter) {
    int rc = anvil_buf_append_cstr(out, "    ");
    rc = rc == ANVIL_OK ? s_text(out, name) : rc;
    rc = rc == ANVIL_OK
             ? anvil_buf_appendf(out, "  (delay %llds, at most %lld attempts)\n",
                                 (long long)s_delay(waiter, "delay", 0), (long long)s_delay(waiter, "maxAttempts", 0))
             : rc;
    const struct anvil_json *doc = anvil_json_object_get_cstr(waiter, "description");
    if (rc == ANVIL_OK && doc) {
        rc = anvil_buf_append_cstr(out, "      ");
        rc = rc == ANVIL_OK ? s_doc_line(out, anvil_json_string(doc)) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
    }
    const struct anvil_json *acceptors = anvil_json_object_get_cstr(waiter, "acceptors");
    for (size_t i = 0; rc == ANVIL_OK && i < anvil_json_len(acceptors); i++) {
        rc = s_text_botocore_acceptor(out, i, anvil_json_array_at(acceptors, i));
    }
    return rc;
}

static int s_json_botocore_waiter(struct anvil_buf *out, struct anvil_str_view operation, struct anvil_str_view name,
                                  const struct anvil_json *waiter, bool first) {
    long long delay = (long long)s_delay(waiter, "delay", 0);
    int rc = anvil_buf_append_cstr(out, first ? "\n  {\"operation\": " : ",\n  {\"operation\": ");
    rc = rc == ANVIL_OK ? anvil_json_write_string(operation, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ", \"waiter\": ") : rc;
    rc = rc == ANVIL_OK ? anvil_json_write_string(name, 0, out) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out,
                                            ", \"minDelay\": %lld, \"maxDelay\": %lld, \"maxAttempts\": %lld, "
                                            "\"definition\": ",
                                            delay, delay, (long long)s_delay(waiter, "maxAttempts", 0))
                        : rc;
    rc = rc == ANVIL_OK ? anvil_json_write(waiter, 0, out) : rc;
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '}') : rc;
}

struct s_entry {
    struct anvil_str_view operation;
    size_t index;
};

static int s_compare_entries(const void *a, const void *b) {
    const struct s_entry *x = a, *y = b;
    size_t n = x->operation.len < y->operation.len ? x->operation.len : y->operation.len;
    int c = memcmp(x->operation.ptr, y->operation.ptr, n);
    if (c == 0 && x->operation.len != y->operation.len) {
        c = x->operation.len < y->operation.len ? -1 : 1;
    }
    return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* The waiters grouped by operation (operations sorted, waiters in file order). botocore waiters have no tags. */
static int s_list_botocore(const struct anvil_json *root, struct s_listing *l) {
    const struct anvil_json *waiters = anvil_json_object_get_cstr(root, "waiters");
    size_t count = l->tag ? 0 : anvil_json_len(waiters);
    struct s_entry *entries = count ? calloc(count, sizeof(*entries)) : NULL;
    if (count && !entries) {
        return ANVIL_ENOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        const struct anvil_json_member *w = anvil_json_object_at(waiters, i);
        entries[i].operation = anvil_json_string(anvil_json_object_get_cstr(&w->value, "operation"));
        entries[i].index = i;
    }
    if (count) {
        qsort(entries, count, sizeof(*entries), s_compare_entries);
    }
    for (size_t i = 0; i < count && l->rc == ANVIL_OK; i++) {
        const struct anvil_json_member *w = anvil_json_object_at(waiters, entries[i].index);
        if (l->json) {
            l->rc = s_json_botocore_waiter(l->out, entries[i].operation, anvil_json_member_key(w), &w->value, i == 0);
        } else {
            if (i == 0 || !anvil_sv_eq(entries[i].operation, entries[i - 1].operation)) {
                l->rc = s_text(l->out, entries[i].operation);
                l->rc = l->rc == ANVIL_OK ? anvil_buf_append_byte(l->out, '\n') : l->rc;
            }
            l->rc = l->rc == ANVIL_OK ? s_text_botocore_waiter(l->out, anvil_json_member_key(w), &w->value) : l->rc;
        }
        l->count++;
    }
    free(entries);
    return l->rc;
}

/* A waiters-2.json (gzipped or not): checked as `anvil wait` would load it, then listed. */
static int s_botocore(const char *path, struct s_listing *l) {
    struct cli_input input;
    int code = cli_input_read_data(path, ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES, &input);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_waiter_set *set = NULL;
    struct anvil_json_doc *doc = NULL;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_waiter_set_from_botocore(NULL, input.data, input.len, &set, &diag);
    if (rc == ANVIL_OK) {
        rc = anvil_json_parse(NULL, input.data, input.len, NULL, &doc, &diag);
    }
    if (rc == ANVIL_ESYNTAX) {
        cli_report_diag(input.label, &diag);
        code = cli_exit_for_status(rc);
    } else if (rc != ANVIL_OK) {
        cli_error("%s: %s", input.label, rc == ANVIL_ENOMEM ? "out of memory" : diag.message);
        cli_debug_origin(&diag);
        code = cli_exit_for_status(rc);
    } else {
        rc = l->json ? anvil_buf_append_byte(l->out, '[') : ANVIL_OK;
        rc = rc == ANVIL_OK ? s_list_botocore(anvil_json_doc_root(doc), l) : rc;
        if (rc == ANVIL_OK && l->json) {
            rc = anvil_buf_append_cstr(l->out, l->count ? "\n]\n" : "]\n");
        }
        code = cli_finish_output(&input, rc, l->out);
    }
    anvil_json_doc_destroy(doc);
    anvil_waiter_set_destroy(set);
    cli_input_release(&input);
    return code;
}

/* ---- the command ---- */

struct s_args {
    const char *tag, *botocore, *service;
    bool json;
    struct cli_paths files;
};

const struct cli_option cli_waiters_options[] = {
    CLI_OPTION_HELP,
    CLI_CHOICE("output", 'o', OPT_OUTPUT, "FORMAT", "text json", "text (default) or json"),
    CLI_TEXT("tag", 't', OPT_TAG, "TAG", "only waiters carrying TAG (botocore waiters have none)"),
    CLI_VALUE("botocore", 'b', OPT_BOTOCORE, "FILE", CLI_VALUE_FILE, "a botocore waiters-2.json (.gz too)"),
    CLI_TEXT("service", 0, OPT_SERVICE, "NAME",
             "the newest botocore waiters-2.json of NAME, found as 'anvil wait --service' finds it"),
    CLI_OPTIONS_END,
};

static int s_parse(int argc, char **argv, struct s_args *a) {
    struct cli_parser parser;
    cli_parser_init(&parser, argc, argv, cli_waiters_options, "waiters");
    int id;
    const char *value;
    enum cli_next next;
    while ((next = cli_parser_next(&parser, &id, &value)) != CLI_NEXT_END) {
        int code = CLI_EXIT_OK;
        if (next == CLI_NEXT_ERROR) {
            return CLI_EXIT_USAGE;
        } else if (next == CLI_NEXT_OPERAND) {
            code = cli_paths_add(&a->files, "waiters", value);
        } else if (id == OPT_TAG) {
            a->tag = value;
        } else if (id == OPT_BOTOCORE) {
            a->botocore = value;
        } else if (id == OPT_SERVICE) {
            a->service = value;
        } else if (id == OPT_OUTPUT && (strcmp(value, "json") == 0 || strcmp(value, "text") == 0)) {
            a->json = strcmp(value, "json") == 0;
        } else if (id == OPT_OUTPUT) {
            code = cli_usage_error("waiters", "--output must be 'text' or 'json', not '%s'", value);
        }
        if (code != CLI_EXIT_OK) {
            return code;
        }
    }
    if ((a->files.count > 0) + (a->botocore != NULL) + (a->service != NULL) != 1) {
        return cli_usage_error("waiters", a->files.count || a->botocore || a->service
                                              ? "give FILE|FOLDER..., --botocore FILE or --service NAME, not more "
                                                "than one of them"
                                              : "no FILE given");
    }
    return CLI_EXIT_OK;
}

int cli_cmd_waiters(int argc, char **argv) {
    struct s_args a;
    memset(&a, 0, sizeof a);
    int code = s_parse(argc, argv, &a);
    if (code != CLI_EXIT_OK) {
        return code;
    }
    struct anvil_buf out;
    anvil_buf_init(&out, NULL, 0);
    struct s_listing listing = {&out, a.json, a.tag, 0, ANVIL_OK};
    if (a.botocore || a.service) {
        struct cli_service_files *found = a.service ? malloc(sizeof(*found)) : NULL;
        if (a.service && !found) {
            cli_error("out of memory");
            code = CLI_EXIT_INTERNAL;
        } else if (a.service && (code = cli_service_find("waiters", a.service, found)) == CLI_EXIT_OK &&
                   !found->waiters[0]) {
            code = cli_usage_error("waiters", "the service '%s' has no waiters (no waiters-2.json in %s)", a.service,
                                   found->dir);
        }
        if (code == CLI_EXIT_OK) {
            code = s_botocore(a.service ? found->waiters : a.botocore, &listing);
        }
        free(found);
        anvil_buf_clean_up(&out);
        return code;
    }
    struct cli_input input;
    struct anvil_model *model = NULL;
    code = cli_model_assemble(a.files.items, a.files.count, false, &input, &model);
    if (code != CLI_EXIT_OK) {
        anvil_buf_clean_up(&out);
        return code;
    }
    int rc = a.json ? anvil_buf_append_byte(&out, '[') : ANVIL_OK;
    if (rc == ANVIL_OK) {
        rc = s_list(model, &listing);
    }
    if (rc == ANVIL_OK && a.json) {
        rc = anvil_buf_append_cstr(&out, listing.count ? "\n]\n" : "]\n");
    }
    code = cli_finish_output(&input, rc, &out);
    anvil_buf_clean_up(&out);
    anvil_model_destroy(model);
    cli_input_release(&input);
    return code;
}
