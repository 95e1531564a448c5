/* Writing C text: string literals for any bytes, and the interpreter fallback for an expression. */
#include <stdio.h>
#include <string.h>

#include "codegen/codegen_internal.h"

int anvil__c_string(struct anvil_buf *out, struct anvil_str_view text, int indent) {
    int rc = anvil_buf_append_byte(out, '"');
    int column = indent + 1;
    /* After a \\x escape a following hex digit would join it: the literal is split there ("" ""). */
    bool after_hex = false;
    for (size_t i = 0; i < text.len && rc == ANVIL_OK; i++) {
        unsigned char c = (unsigned char)text.ptr[i];
        char piece[8];
        bool hex_digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (c == '"' || c == '\\') {
            snprintf(piece, sizeof piece, "\\%c", c);
        } else if (c == '\n') {
            snprintf(piece, sizeof piece, "\\n");
        } else if (c == '\t') {
            snprintf(piece, sizeof piece, "\\t");
        } else if (c == '?') {
            snprintf(piece, sizeof piece, "\\?"); /* no trigraphs */
        } else if (c < 0x20 || c >= 0x7f) {
            snprintf(piece, sizeof piece, "\\x%02x", c);
        } else {
            piece[0] = (char)c;
            piece[1] = '\0';
        }
        size_t n = strlen(piece);
        if ((after_hex && hex_digit && piece[0] != '\\') || column + (int)n > 98) {
            rc = anvil_buf_append_cstr(out, column + (int)n > 98 ? "\"\n" : "\" ");
            for (int k = 0; k < indent && rc == ANVIL_OK && column + (int)n > 98; k++) {
                rc = anvil_buf_append_byte(out, ' ');
            }
            rc = rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
            column = (column + (int)n > 98 ? indent : column + 2) + 1;
        }
        rc = rc == ANVIL_OK ? anvil_buf_append(out, piece, n) : rc;
        column += (int)n;
        after_hex = piece[0] == '\\' && piece[1] == 'x';
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
}

int anvil__c_comment(struct anvil_buf *out, struct anvil_str_view text) {
    int rc = ANVIL_OK;
    for (size_t i = 0; i < text.len && rc == ANVIL_OK; i++) {
        char c = text.ptr[i];
        char next = i + 1 < text.len ? text.ptr[i + 1] : '\0';
        rc = anvil_buf_append_byte(out, (unsigned char)c < 0x20 || c == 0x7f ? ' ' : c);
        if (rc == ANVIL_OK && ((c == '*' && next == '/') || (c == '/' && next == '*') || (c == '?' && next == '?'))) {
            /* Neither ends a comment nor (for -Wcomment) opens one, nor makes a trigraph (-std=c11 reads ??/). */
            rc = anvil_buf_append_byte(out, ' ');
        }
    }
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
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out, " */\nstatic const char %s_text[] = ", name) : rc;
    rc = rc == ANVIL_OK ? anvil__c_string(out, text, 4) : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out,
                                            ";\nstatic struct anvil_jmespath *%s_expr;\n"
                                            "static pthread_once_t %s_once = PTHREAD_ONCE_INIT;\n\n"
                                            "static void %s_compile(void) {\n"
                                            "    (void)anvil_jmespath_compile(NULL, %s_text, sizeof %s_text - 1, NULL, "
                                            "&%s_expr, NULL);\n}\n\n",
                                            name, name, name, name, name, name)
                        : rc;
    rc = rc == ANVIL_OK ? anvil_buf_appendf(out,
                                            "static int %s(const struct anvil_json *root, struct anvil_arena *scratch, "
                                            "struct anvil_json *out) {\n"
                                            "    pthread_once(&%s_once, %s_compile);\n"
                                            "    if (!%s_expr) {\n"
                                            "        return ANVIL_ENOMEM;\n"
                                            "    }\n"
                                            "    return anvil_jmespath_search(%s_expr, root, scratch, out, NULL);\n"
                                            "}\n\n",
                                            name, name, name, name, name)
                        : rc;
    return rc;
}
