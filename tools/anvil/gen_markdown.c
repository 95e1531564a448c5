/*
 * docs/cli.md's generated blocks: the prose around them is written by hand; each block between
 * "<!-- BEGIN generated: options NAME -->" and "<!-- END generated -->" is a table of a command's
 * options made from its table (NAME "http": the HTTP options; "global": those before the command).
 */

#include <string.h>

#include "gen_docs.h"

#define S_BEGIN "<!-- BEGIN generated: "
#define S_END "<!-- END generated -->"

/*
 * Where `needle` first opens a line of `doc` at or after `from`; SIZE_MAX when it does not. (A
 * marker quoted inside a line, as the prose about them does, is not one.)
 */
static size_t s_find(struct anvil_str_view doc, size_t from, struct anvil_str_view needle) {
    for (size_t i = from; i + needle.len <= doc.len; i++) {
        if ((i == 0 || doc.ptr[i - 1] == '\n') && memcmp(doc.ptr + i, needle.ptr, needle.len) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* Text for a table cell: '|' escaped, and '<', '>', '*' and '\' so Markdown shows them as they are. */
static int s_cell(struct anvil_buf *out, const char *text) {
    int rc = ANVIL_OK;
    for (const char *p = text; rc == ANVIL_OK && *p; p++) {
        switch (*p) {
        case '|':
        case '*':
        case '\\':
            rc = anvil_buf_append_byte(out, '\\');
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, *p) : rc;
            break;
        case '<':
            rc = anvil_buf_append_cstr(out, "&lt;");
            break;
        case '>':
            rc = anvil_buf_append_cstr(out, "&gt;");
            break;
        case '\n':
            rc = anvil_buf_append_byte(out, ' ');
            break;
        default:
            rc = anvil_buf_append_byte(out, *p);
        }
    }
    return rc;
}

/* A table of `options` (the HTTP ones, or the others); --help only when `with_help` (as help lists them). */
static int s_table(struct anvil_buf *out, const struct cli_option *options, bool http, bool with_help) {
    int rc = anvil_buf_append_cstr(out, "| option | meaning |\n|---|---|\n");
    for (const struct cli_option *o = options; rc == ANVIL_OK && o->long_name; o++) {
        if (!cli_gen_option_in(o, http) || (o->id == CLI_OPT_HELP && !with_help)) {
            continue;
        }
        rc = anvil_buf_append_cstr(out, "| ");
        if (rc == ANVIL_OK && o->short_name) {
            rc = anvil_buf_appendf(out, "`-%c`, ", o->short_name);
        }
        rc = rc == ANVIL_OK ? anvil_buf_appendf(out, "`--%s%s", o->long_name, o->value_name ? " " : "") : rc;
        /* Inside a code span only '|' needs escaping (GitHub's tables). */
        for (const char *p = o->value_name; rc == ANVIL_OK && p && *p; p++) {
            rc = *p == '|' ? anvil_buf_append_cstr(out, "\\|") : anvil_buf_append_byte(out, *p);
        }
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "` | ") : rc;
        rc = rc == ANVIL_OK ? s_cell(out, o->help) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " |\n") : rc;
    }
    return rc;
}

/* The block named `name` ("options wait"); ANVIL_EINVAL for a name that is not one. */
static int s_block(struct anvil_str_view name, struct anvil_buf *out) {
    static const char prefix[] = "options ";
    if (name.len <= strlen(prefix) || memcmp(name.ptr, prefix, strlen(prefix)) != 0) {
        return ANVIL_EINVAL;
    }
    struct anvil_str_view what = anvil_sv_slice(name, strlen(prefix), name.len - strlen(prefix));
    if (anvil_sv_eq(what, ANVIL_SV("http"))) {
        return s_table(out, cli_http_options, true, false);
    }
    if (anvil_sv_eq(what, ANVIL_SV("global"))) {
        return s_table(out, cli_global_options, false, true);
    }
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        if (cli_gen_listed(c) && anvil_sv_eq(what, anvil_sv_from_cstr(c->name))) {
            bool http = false, any = false;
            for (const struct cli_option *o = c->options; o->long_name; o++) {
                http = http || cli_gen_option_in(o, true);
                any = any || (cli_gen_option_in(o, false) && o->id != CLI_OPT_HELP);
            }
            int rc = any ? s_table(out, c->options, false, false) : anvil_buf_append_cstr(out, "No options.\n");
            return rc == ANVIL_OK && http ? anvil_buf_append_cstr(out, "\nAlso the HTTP options (above).\n") : rc;
        }
    }
    return ANVIL_EINVAL;
}

int cli_gen_markdown(struct anvil_str_view doc, struct anvil_buf *out, struct anvil_buf *problem) {
    size_t at = 0;
    int rc = ANVIL_OK;
    bool seen[64] = {false};
    while (rc == ANVIL_OK) {
        size_t begin = s_find(doc, at, ANVIL_SV(S_BEGIN));
        if (begin == SIZE_MAX) {
            rc = anvil_buf_append(out, doc.ptr + at, doc.len - at);
            break;
        }
        size_t name_at = begin + strlen(S_BEGIN);
        size_t close = anvil_sv_find_byte(doc, name_at, '\n');
        close = close != SIZE_MAX && close - name_at >= 4 && memcmp(doc.ptr + close - 4, " -->", 4) == 0 ? close - 4
                                                                                                         : SIZE_MAX;
        size_t end = close == SIZE_MAX ? SIZE_MAX : s_find(doc, close, ANVIL_SV(S_END));
        if (end == SIZE_MAX) {
            anvil_buf_appendf(problem, "a block at byte %zu has no \"" S_END "\"", begin);
            return ANVIL_EINVAL;
        }
        struct anvil_str_view name = anvil_sv_slice(doc, name_at, close - name_at);
        size_t body = close + strlen(" -->\n");
        rc = anvil_buf_append(out, doc.ptr + at, body - at);
        if (rc == ANVIL_OK && (rc = s_block(name, out)) == ANVIL_EINVAL) {
            anvil_buf_appendf(problem, "no generated block is named '%.*s'", (int)name.len, name.ptr);
            return rc;
        }
        size_t i = 0;
        for (const struct cli_command *c = cli_commands; c->name && i < 64; c++, i++) {
            char want[64];
            snprintf(want, sizeof want, "options %s", c->name);
            seen[i] = seen[i] || anvil_sv_eq(name, anvil_sv_from_cstr(want));
        }
        at = end;
    }
    size_t i = 0;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name && i < 64; c++, i++) {
        if (cli_gen_listed(c) && !seen[i]) {
            anvil_buf_appendf(problem, "the command '%s' has no block \"" S_BEGIN "options %s -->\"", c->name, c->name);
            return ANVIL_EINVAL;
        }
    }
    return rc;
}
