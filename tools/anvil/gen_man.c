/*
 * The man pages, in troff with the man macros: anvil(1) and anvil-COMMAND(1), from the command
 * and option tables. Every piece of text goes through s_text(), which escapes what troff would
 * act on: a backslash, a '.' or '\'' opening a line, and '-' (written \- so that option names
 * copy as the ASCII hyphen-minus they are); other than ASCII is written as \[uXXXX].
 */

#include <string.h>

#include "gen_docs.h"

bool cli_gen_listed(const struct cli_command *command) {
    return !(command->flags & CLI_COMMAND_HIDDEN);
}

int cli_gen_command_words(struct anvil_buf *out) {
    int rc = ANVIL_OK;
    bool first = true;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name; c++) {
        if (cli_gen_listed(c)) {
            rc = anvil_buf_appendf(out, "%s%s", first ? "" : " ", c->name);
            first = false;
        }
    }
    return rc;
}

bool cli_gen_option_in(const struct cli_option *option, bool http) {
    return cli_option_listed(option) && !(option->flags & CLI_OPTION_HTTP) == !http;
}

/* The length of the UTF-8 sequence at `p` and its code point; 0 when it is not one. */
static size_t s_utf8(const unsigned char *p, size_t left, uint32_t *cp) {
    size_t n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
    if (n == 0 || n > left) {
        return 0;
    }
    uint32_t c = p[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return 0;
        }
        c = (c << 6) | (p[i] & 0x3f);
    }
    *cp = c;
    return n;
}

/*
 * Appends `len` bytes of text, escaped for troff. Lines of `text` stay lines (troff fills them);
 * spaces opening a line are dropped (they would break the filling), and an empty line starts a
 * new paragraph.
 */
static int s_text_n(struct anvil_buf *out, const char *text, size_t len) {
    int rc = ANVIL_OK;
    bool line_start = true;
    for (size_t i = 0; rc == ANVIL_OK && i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (line_start && c == ' ') {
            continue;
        }
        if (line_start && c == '\n') {
            rc = anvil_buf_append_cstr(out, ".PP\n");
            continue;
        }
        if (line_start && (c == '.' || c == '\'')) {
            rc = anvil_buf_append_cstr(out, "\\&");
        }
        line_start = c == '\n';
        if (rc != ANVIL_OK) {
            break;
        }
        if (c == '\\') {
            rc = anvil_buf_append_cstr(out, "\\e");
        } else if (c == '-') {
            rc = anvil_buf_append_cstr(out, "\\-");
        } else if (c >= 0x80) {
            uint32_t cp = 0;
            size_t n = s_utf8((const unsigned char *)text + i, len - i, &cp);
            rc = n ? anvil_buf_appendf(out, "\\[u%04X]", (unsigned)cp) : anvil_buf_append_cstr(out, "\\[uFFFD]");
            i += n ? n - 1 : 0;
        } else if (c < 0x20 && c != '\n') {
            rc = anvil_buf_append_byte(out, ' ');
        } else {
            rc = anvil_buf_append_byte(out, (char)c);
        }
    }
    return rc;
}

static int s_text(struct anvil_buf *out, const char *text) {
    return s_text_n(out, text, strlen(text));
}

/* Text that must end its line (before a request). */
static int s_line(struct anvil_buf *out, const char *text) {
    int rc = s_text(out, text);
    return rc == ANVIL_OK && (out->len == 0 || out->data[out->len - 1] != '\n') ? anvil_buf_append_byte(out, '\n') : rc;
}

static int s_header(struct anvil_buf *out, const char *page) {
    int rc = anvil_buf_append_cstr(out, ".\\\" Made by anvil-gen-docs from tools/anvil's command and option tables; "
                                        "do not edit.\n.TH ");
    for (const char *p = page; rc == ANVIL_OK && *p; p++) {
        rc = *p == '-' ? anvil_buf_append_cstr(out, "\\-")
                       : anvil_buf_append_byte(out, (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p));
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " 1 \"\" \"anvil ") : rc;
    rc = rc == ANVIL_OK ? s_text(out, anvil_version_string()) : rc;
    /* Left-aligned and unhyphenated: the text is full of names and paths that must copy as they are. */
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\" \"anvil manual\"\n.nh\n.ad l\n") : rc;
}

/* An option's tag: \fB\-m\fR, \fB\-\-model\fR \fIFILE\fR */
static int s_option_tag(struct anvil_buf *out, const struct cli_option *o) {
    int rc = ANVIL_OK;
    if (o->short_name) {
        rc = anvil_buf_appendf(out, "\\fB\\-%c\\fR, ", o->short_name);
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\\fB\\-\\-") : rc;
    rc = rc == ANVIL_OK ? s_text(out, o->long_name) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\\fR") : rc;
    if (rc == ANVIL_OK && o->value_name) {
        rc = anvil_buf_append_cstr(out, " \\fI");
        rc = rc == ANVIL_OK ? s_text(out, o->value_name) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\\fR") : rc;
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
}

static int s_options(struct anvil_buf *out, const struct cli_option *options, bool http) {
    int rc = ANVIL_OK;
    for (const struct cli_option *o = options; rc == ANVIL_OK && o->long_name; o++) {
        if (!cli_gen_option_in(o, http)) {
            continue;
        }
        rc = anvil_buf_append_cstr(out, ".TP\n");
        rc = rc == ANVIL_OK ? s_option_tag(out, o) : rc;
        rc = rc == ANVIL_OK ? s_line(out, o->help) : rc;
    }
    return rc;
}

static int s_reference(struct anvil_buf *out, const struct cli_reference *items, bool bold) {
    int rc = ANVIL_OK;
    for (const struct cli_reference *e = items; rc == ANVIL_OK && e->name; e++) {
        rc = anvil_buf_append_cstr(out, bold ? ".TP\n\\fB" : ".TP\n");
        rc = rc == ANVIL_OK ? s_text(out, e->name) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, bold ? "\\fR\n" : "\n") : rc;
        rc = rc == ANVIL_OK ? s_line(out, e->text) : rc;
    }
    return rc;
}

int cli_gen_man_command(const struct cli_command *command, struct anvil_buf *out) {
    char page[64];
    snprintf(page, sizeof page, "anvil-%s", command->name);
    int rc = s_header(out, page);
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH NAME\nanvil\\-") : rc;
    rc = rc == ANVIL_OK ? s_text(out, command->name) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " \\- ") : rc;
    rc = rc == ANVIL_OK ? s_line(out, command->summary) : rc;
    /* The usage's continuation lines are indented to follow "Usage: ", which the synopsis has not. */
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH SYNOPSIS\n.nf\n") : rc;
    for (const char *p = command->usage; rc == ANVIL_OK && *p;) {
        size_t len = strcspn(p, "\n");
        size_t skip = strspn(p, " ") >= 7 ? 7 : 0;
        rc = anvil_buf_append_cstr(out, skip ? "\\&" : "");
        rc = rc == ANVIL_OK ? anvil_buf_appendf(out, "%*s", (int)(strspn(p, " ") - skip), "") : rc;
        rc = rc == ANVIL_OK ? s_text_n(out, p, len) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '\n') : rc;
        p += len + (p[len] == '\n');
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".fi\n.SH DESCRIPTION\n") : rc;
    rc = rc == ANVIL_OK ? s_line(out, command->description) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH OPTIONS\n") : rc;
    rc = rc == ANVIL_OK ? s_options(out, command->options, false) : rc;
    bool http = false;
    for (const struct cli_option *o = command->options; o->long_name; o++) {
        http = http || cli_gen_option_in(o, true);
    }
    if (rc == ANVIL_OK && http) {
        rc = anvil_buf_append_cstr(out, ".SS \"");
        rc = rc == ANVIL_OK ? s_text(out, CLI_HTTP_HEADING) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\"\n") : rc;
        rc = rc == ANVIL_OK ? s_options(out, command->options, true) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH \"EXIT STATUS\"\n") : rc;
    if (command->exit_status) {
        rc = rc == ANVIL_OK ? s_line(out, command->exit_status) : rc;
        rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".PP\nEvery exit code is listed in \\fBanvil\\fR(1).\n") : rc;
    } else {
        rc = rc == ANVIL_OK ? s_reference(out, cli_exit_codes, false) : rc;
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH \"SEE ALSO\"\n\\fBanvil\\fR(1), \\fBanvil help ") : rc;
    rc = rc == ANVIL_OK ? s_text(out, command->name) : rc;
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\\fR, docs/cli.md in anvil's sources\n") : rc;
}

int cli_gen_man_main(struct anvil_buf *out) {
    int rc = s_header(out, "anvil");
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH NAME\nanvil \\- ") : rc;
    rc = rc == ANVIL_OK ? s_line(out, CLI_TAGLINE) : rc;
    rc = rc == ANVIL_OK
             ? anvil_buf_append_cstr(out, ".SH SYNOPSIS\n.nf\n\\fBanvil\\fR [\\-\\-help] [\\-\\-version] [\\-\\-debug] "
                                          "\\fICOMMAND\\fR [\\fIARGS\\fR...]\n.fi\n.SH DESCRIPTION\n")
             : rc;
    rc = rc == ANVIL_OK
             ? s_line(out, "anvil runs Smithy waiters and paginators, calls AWS services in their protocols and works "
                           "with Smithy models, JSON and JMESPath from the command line. Each command has its page, "
                           "anvil-COMMAND(1), and its help: 'anvil help COMMAND' or 'anvil COMMAND --help'.\n"
                           "\n"
                           "Global options come before the command. Long options take values as --name value or "
                           "--name=value; short ones as -x value or -xvalue. -- ends the options: everything after "
                           "it is an operand. A lone - is an operand (standard input).")
             : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH OPTIONS\n") : rc;
    rc = rc == ANVIL_OK ? s_options(out, cli_global_options, false) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH COMMANDS\n") : rc;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name; c++) {
        if (cli_gen_listed(c)) {
            rc = anvil_buf_append_cstr(out, ".TP\n\\fBanvil\\-");
            rc = rc == ANVIL_OK ? s_text(out, c->name) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\\fR(1)\n") : rc;
            rc = rc == ANVIL_OK ? s_line(out, c->summary) : rc;
        }
    }
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH \"EXIT STATUS\"\n") : rc;
    rc = rc == ANVIL_OK ? s_reference(out, cli_exit_codes, false) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH ENVIRONMENT\n") : rc;
    rc = rc == ANVIL_OK ? s_reference(out, cli_environment, true) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, ".SH \"SEE ALSO\"\n") : rc;
    bool first = true;
    for (const struct cli_command *c = cli_commands; rc == ANVIL_OK && c->name; c++) {
        if (cli_gen_listed(c)) {
            rc = anvil_buf_append_cstr(out, first ? "\\fBanvil\\-" : ",\n\\fBanvil\\-");
            rc = rc == ANVIL_OK ? s_text(out, c->name) : rc;
            rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\\fR(1)") : rc;
            first = false;
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n") : rc;
}
