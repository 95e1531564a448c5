/* Writing C text: string literals for any bytes, comments, snake_case identifiers, and the interpreter fallback for
 * an expression. Long lines are broken in c_wrap.c. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "anvil/text.h"

#include "codegen/codegen_internal.h"

int anvil__c_string(struct anvil_buf *out, struct anvil_str_view text, int indent) {
    int rc = anvil_buf_append_byte(out, '"');
    int column = indent + 1;
    /* Pieces end by column 98, deep in a nest after 32 columns at least (never one a character). */
    int limit = indent + 1 + 32 > 98 ? indent + 1 + 32 : 98;
    for (size_t i = 0; i < text.len && rc == ANVIL_OK; i++) {
        unsigned char c = (unsigned char)text.ptr[i];
        char piece[8];
        if (c == '"' || c == '\\') {
            snprintf(piece, sizeof piece, "\\%c", c);
        } else if (c == '\n') {
            snprintf(piece, sizeof piece, "\\n");
        } else if (c == '\t') {
            snprintf(piece, sizeof piece, "\\t");
        } else if (c == '?') {
            snprintf(piece, sizeof piece, "\\?"); /* no trigraphs */
        } else if (c < 0x20 || c >= 0x7f) {
            /* Three octal digits: an escape that ends by itself, where a \x escape would take in a following hex
             * digit ("\xc3\xa9" "1" would need a split that clang-format moves to a line of its own). */
            snprintf(piece, sizeof piece, "\\%03o", c);
        } else {
            piece[0] = (char)c;
            piece[1] = '\0';
        }
        size_t n = strlen(piece);
        if (column + (int)n > limit) {
            rc = anvil_buf_append_cstr(out, "\"\n");
            for (int k = 0; k < indent && rc == ANVIL_OK; k++) {
                rc = anvil_buf_append_byte(out, ' ');
            }
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
            column = indent + 1;
        }
        rc = rc == ANVIL_OK ? anvil_buf_append(out, piece, n) : rc;
        column += (int)n;
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
}

int anvil__c_string_decl(struct anvil_buf *out, int indent, const char *name, const char *suffix,
                         struct anvil_str_view text) {
    /* `static const char NAME[] =` too wide for its line: broken before NAME, which goes four columns in (and the
       literal after it, or on the lines after it eight columns in), as clang-format breaks it. */
    size_t head = (size_t)indent + strlen("static const char [] =") + strlen(name) + strlen(suffix);
    bool before_name = head > 120;
    int in = indent + (before_name ? 4 : 0); /* where NAME starts a line, or the type does */
    /* Where `NAME[] =` does not fit there either, the `[]` goes on the next line, four columns further in, with the
       literal after it (its pieces aligned under the first). */
    bool brackets_below = before_name && (size_t)in + strlen(name) + strlen(suffix) + strlen("[] =") > 120;
    struct anvil_buf lit;
    anvil_buf_init(&lit, NULL, 0);
    int rc = anvil__c_string(&lit, text, in + 4 + (brackets_below ? (int)strlen("[] = ") : 0));
    bool one_line = rc == ANVIL_OK && !memchr(lit.data, '\n', lit.len) &&
                    (size_t)in + strlen("[] = ;") + strlen(name) + strlen(suffix) + lit.len +
                            (before_name ? 0 : strlen("static const char ")) <=
                        120;
    if (rc == ANVIL_OK && before_name) {
        rc = anvil_buf_appendf(out, "%*sstatic const char\n%*s", indent, "", in, "");
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(out, "%*sstatic const char ", indent, "");
    }
    if (rc == ANVIL_OK && brackets_below) {
        rc = anvil_buf_appendf(out, "%s%s\n%*s[] = %.*s;\n", name, suffix, in + 4, "", (int)lit.len, lit.data);
    } else if (rc == ANVIL_OK && one_line) {
        rc = anvil_buf_appendf(out, "%s%s[] = %.*s;\n", name, suffix, (int)lit.len, lit.data);
    } else if (rc == ANVIL_OK) {
        rc = anvil_buf_appendf(out, "%s%s[] =\n%*s%.*s;\n", name, suffix, in + 4, "", (int)lit.len, lit.data);
    }
    anvil_buf_clean_up(&lit);
    return rc;
}

/* The length of the character at t[0] to blank out of a comment (a C1 control or a bidirectional control), or 0. */
static size_t s_hidden_char(const unsigned char *t, size_t n) {
    if (n >= 2 && t[0] == 0xc2 && t[1] >= 0x80 && t[1] <= 0x9f) {
        return 2; /* C1 */
    }
    if (n >= 3 && t[0] == 0xe2 &&
        ((t[1] == 0x80 && (t[2] == 0x8e || t[2] == 0x8f || (t[2] >= 0xaa && t[2] <= 0xae))) ||
         (t[1] == 0x81 && t[2] >= 0xa6 && t[2] <= 0xa9))) {
        return 3; /* LRM, RLM, the embeddings and overrides, the isolates: text that reads other than it is */
    }
    return 0;
}

int anvil__c_comment(struct anvil_buf *out, struct anvil_str_view text) {
    /* Valid UTF-8 first (a byte that starts no character becomes U+FFFD). */
    struct anvil_buf valid;
    anvil_buf_init(&valid, NULL, 0);
    int rc = anvil_text_append_utf8(&valid, text, SIZE_MAX);
    const unsigned char *t = (const unsigned char *)valid.data;
    for (size_t i = 0; i < valid.len && rc == ANVIL_OK; i++) {
        unsigned char c = t[i];
        unsigned char next = i + 1 < valid.len ? t[i + 1] : '\0';
        size_t hidden = s_hidden_char(t + i, valid.len - i);
        if (hidden) {
            rc = anvil_buf_append_byte(out, ' ');
            i += hidden - 1;
            continue;
        }
        rc = anvil_buf_append_byte(out, c < 0x20 || c == 0x7f ? ' ' : (char)c);
        if (rc == ANVIL_OK && ((c == '*' && next == '/') || (c == '/' && next == '*') || (c == '?' && next == '?'))) {
            /* Neither ends a comment nor (for -Wcomment) opens one, nor makes a trigraph (-std=c11 reads ??/). */
            rc = anvil_buf_append_byte(out, ' ');
        }
    }
    anvil_buf_clean_up(&valid);
    return rc;
}

void anvil__c_comment_text(struct anvil_str_view text, char *out, size_t size) {
    size_t n = 0;
    for (size_t i = 0; i < text.len && n + 4 < size; i++) {
        unsigned char c = (unsigned char)text.ptr[i];
        out[n++] = c >= 0x20 && c < 0x7f && c != '*' && c != '?' ? (char)c : '.';
    }
    out[n] = '\0';
}

int anvil__jpc_emit_fallback(const struct anvil_jmespath *expr, const char *name, const char *why,
                             struct anvil_buf *out) {
    struct anvil_str_view text = anvil_jmespath_text(expr);
    int rc = anvil_buf_append_cstr(out, "/* ");
    rc = rc == ANVIL_OK ? anvil__c_comment(out, text) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, "\n * Interpreted, not compiled: ") : rc;
    rc = rc == ANVIL_OK ? anvil__c_comment(out, anvil_sv_from_cstr(why)) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_append_cstr(out, " */\n") : rc;
    rc = rc == ANVIL_OK ? anvil__c_string_decl(out, 0, name, "_text", text) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out,
                                            "static struct anvil_jmespath *%s_expr;\n"
                                            "static pthread_once_t %s_once = PTHREAD_ONCE_INIT;\n\n"
                                            "static void %s_compile(void) {\n"
                                            "    (void)anvil_jmespath_compile(NULL, %s_text, sizeof %s_text - 1, NULL, "
                                            "&%s_expr, NULL);\n}\n\n",
                                            name, name, name, name, name, name)
                        : rc;
    /* The head laid out as a declaration (its parameters aligned after the '('), as the compiled functions' are. */
    struct anvil_buf head;
    anvil_buf_init(&head, NULL, 0);
    rc = rc == ANVIL_OK ? anvil_buf_appendf(&head,
                                            "static int %s(const struct anvil_json *root, struct anvil_arena *scratch, "
                                            "struct anvil_json *out) {",
                                            name)
                        : rc;
    rc = rc == ANVIL_OK ? anvil__c_declaration(out, 0, head.data, head.len) : rc;
    anvil_buf_clean_up(&head);
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out,
                                            "    pthread_once(&%s_once, %s_compile);\n"
                                            "    if (!%s_expr) {\n"
                                            "        return ANVIL_ENOMEM;\n"
                                            "    }\n"
                                            "    return anvil_jmespath_search(%s_expr, root, scratch, out, NULL);\n"
                                            "}\n\n",
                                            name, name, name, name)
                        : rc;
    return rc;
}

size_t anvil__c_snake(struct anvil_str_view name, char *out, size_t size) {
    size_t n = 0;
    for (size_t i = 0; i < name.len && n + 2 < size; i++) {
        char c = name.ptr[i];
        bool upper = c >= 'A' && c <= 'Z';
        if (!upper && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')) {
            if (n && out[n - 1] != '_') {
                out[n++] = '_';
            }
            continue;
        }
        if (upper && n && out[n - 1] != '_') {
            char prev = name.ptr[i - 1]; /* i > 0: n is */
            bool prev_lower = (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9');
            bool next_lower = i + 1 < name.len && name.ptr[i + 1] >= 'a' && name.ptr[i + 1] <= 'z';
            if (prev_lower || (prev >= 'A' && prev <= 'Z' && next_lower)) {
                out[n++] = '_';
            }
        }
        out[n++] = upper ? (char)(c - 'A' + 'a') : c;
    }
    if (size) {
        out[n] = '\0';
    }
    return n;
}
