/*
 * IDL text out: Smithy's code writer, string escapes and number format, and
 * the IDL's identifier rules (idl_text.h).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/status.h"
#include "model/idl_text.h"

static bool s_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool s_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Identifier = (1*"_" (ALPHA / DIGIT) / ALPHA) *(ALPHA / DIGIT / "_"), ASCII only. */
bool anvil__idl_is_identifier(struct anvil_str_view s) {
    size_t i = 0;
    while (i < s.len && s.ptr[i] == '_') {
        i++;
    }
    if (i == s.len || !(s_alpha(s.ptr[i]) || (i > 0 && s_digit(s.ptr[i])))) {
        return false;
    }
    for (i++; i < s.len; i++) {
        if (!s_alpha(s.ptr[i]) && !s_digit(s.ptr[i]) && s.ptr[i] != '_') {
            return false;
        }
    }
    return true;
}

bool anvil__idl_is_namespace(struct anvil_str_view s) {
    size_t start = 0;
    for (;;) {
        size_t dot = anvil_sv_find_byte(s, start, '.');
        size_t end = dot == SIZE_MAX ? s.len : dot;
        if (!anvil__idl_is_identifier(anvil_sv(s.ptr + start, end - start))) {
            return false;
        }
        if (dot == SIZE_MAX) {
            return true;
        }
        start = dot + 1;
    }
}

/* ---- output ---- */

void anvil__idl_out_raw(struct anvil__idl_out *o, const char *bytes, size_t len) {
    if (o->rc == ANVIL_OK && len > 0) {
        o->rc = anvil_buf_append(o->buf, bytes, len);
    }
}

/* Before the first byte of a line: the held blank line, the indentation, the doc prefix. */
static void s_begin_line(struct anvil__idl_out *o) {
    if (!o->line_start) {
        return;
    }
    if (o->blank_pending && o->any) {
        anvil__idl_out_raw(o, "\n", 1);
    }
    o->blank_pending = false;
    o->line_start = false;
    o->any = true;
    o->line_begin = o->buf->len;
    for (size_t i = 0; i < o->indent; i++) {
        anvil__idl_out_raw(o, "    ", 4);
    }
    if (o->doc) {
        anvil__idl_out_raw(o, "/// ", 4);
    }
}

/* Text without newlines. */
void anvil__idl_out_text(struct anvil__idl_out *o, const char *bytes, size_t len) {
    if (len > 0) {
        s_begin_line(o);
        anvil__idl_out_raw(o, bytes, len);
    }
}

void anvil__idl_out_cstr(struct anvil__idl_out *o, const char *cstr) {
    anvil__idl_out_text(o, cstr, strlen(cstr));
}

void anvil__idl_out_sv(struct anvil__idl_out *o, struct anvil_str_view sv) {
    anvil__idl_out_text(o, sv.ptr, sv.len);
}

/* Ends the line (Java's write("")): an empty line is a blank line, held until more text comes. */
void anvil__idl_out_nl(struct anvil__idl_out *o) {
    if (o->line_start && !o->doc) {
        o->blank_pending = true;
        return;
    }
    s_begin_line(o);
    if (!o->doc && o->rc == ANVIL_OK) {
        size_t len = o->buf->len;
        while (len > o->line_begin && o->buf->data[len - 1] == ' ') {
            len--;
        }
        anvil_buf_truncate(o->buf, len);
    }
    anvil__idl_out_raw(o, "\n", 1);
    o->line_start = true;
}

void anvil__idl_out_start(struct anvil__idl_out *o, struct anvil_buf *buf) {
    o->buf = buf;
    o->indent = 0;
    o->line_start = true;
    o->blank_pending = false;
    o->any = false;
    o->doc = false;
    o->line_begin = buf->len;
}

/* ---- strings and numbers ---- */

/*
 * The escape for the byte at s[i], or NULL to copy it as it is; `u` holds a
 * \uXXXX made on the spot, `*skip` the further bytes the escape stands for.
 */
typedef const char *s_escape_fn(struct anvil_str_view s, size_t i, char u[8], size_t *skip);

/* Java's StringUtils.escapeJavaString: ISO controls (C0, DEL, C1) as \u00xx. */
static const char *s_java_escape(struct anvil_str_view s, size_t i, char u[8], size_t *skip) {
    unsigned char c = (unsigned char)s.ptr[i];
    switch (c) {
    case '"':
        return "\\\"";
    case '\\':
        return "\\\\";
    case '\b':
        return "\\b";
    case '\t':
        return "\\t";
    case '\n':
        return "\\n";
    case '\f':
        return "\\f";
    case '\r':
        return "\\r";
    default:
        if (c < 0x20 || c == 0x7f) {
            snprintf(u, 8, "\\u%04x", c);
            return u;
        }
        if (c == 0xc2 && i + 1 < s.len && (unsigned char)s.ptr[i + 1] >= 0x80 && (unsigned char)s.ptr[i + 1] <= 0x9f) {
            snprintf(u, 8, "\\u%04x", (unsigned char)s.ptr[i + 1]);
            *skip = 1;
            return u;
        }
        return NULL;
    }
}

/* Smithy's JSON writer (Node.printJson): the JSON escapes, and U+2028/U+2029. */
static const char *s_json_escape(struct anvil_str_view s, size_t i, char u[8], size_t *skip) {
    unsigned char c = (unsigned char)s.ptr[i];
    if (c == '"') {
        return "\\\"";
    }
    if (c == '\\') {
        return "\\\\";
    }
    if (c == '\n') {
        return "\\n";
    }
    if (c == '\r') {
        return "\\r";
    }
    if (c == '\t') {
        return "\\t";
    }
    if (c < 0x20) {
        snprintf(u, 8, "\\u%04x", c);
        return u;
    }
    if (c == 0xe2 && i + 2 < s.len && (unsigned char)s.ptr[i + 1] == 0x80 &&
        ((unsigned char)s.ptr[i + 2] == 0xa8 || (unsigned char)s.ptr[i + 2] == 0xa9)) {
        *skip = 2;
        return (unsigned char)s.ptr[i + 2] == 0xa8 ? "\\u2028" : "\\u2029";
    }
    return NULL;
}

/* `s` in double quotes, escaped by `escape`, runs between escapes copied whole. */
static void s_quote(struct anvil__idl_out *o, struct anvil_str_view s, s_escape_fn *escape) {
    s_begin_line(o);
    anvil__idl_out_raw(o, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < s.len; i++) {
        char u[8];
        size_t skip = 0;
        const char *esc = escape(s, i, u, &skip);
        if (esc) {
            anvil__idl_out_raw(o, s.ptr + run, i - run);
            anvil__idl_out_raw(o, esc, strlen(esc));
            i += skip;
            run = i + 1;
        }
    }
    anvil__idl_out_raw(o, s.ptr + run, s.len - run);
    anvil__idl_out_raw(o, "\"", 1);
}

void anvil__idl_out_quoted(struct anvil__idl_out *o, struct anvil_str_view s) {
    s_quote(o, s, s_java_escape);
}

/*
 * Java's Double.toString: the shortest decimal that reads back as `d`, plain
 * for 1e-3 <= |d| < 1e7 ("100.0", "0.001"), else "1.557128360711E9".
 * `out` holds at least 40 bytes.
 */
size_t anvil__idl_java_double(double d, char *out) {
    if (d == 0) {
        strcpy(out, signbit(d) ? "-0.0" : "0.0");
        return strlen(out);
    }
    char tmp[40];
    for (int prec = 0; prec < 17; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*e", prec, d);
        if (strtod(tmp, NULL) == d) {
            break;
        }
    }
    /* tmp: [-]D[.DDD]e(+|-)XX */
    char digits[24];
    size_t nd = 0;
    const char *p = tmp;
    bool neg = *p == '-';
    if (neg) {
        p++;
    }
    for (; *p && *p != 'e'; p++) {
        if (s_digit(*p) && nd < sizeof(digits) - 1) {
            digits[nd++] = *p;
        }
    }
    int exp = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    size_t n = 0;
    if (neg) {
        out[n++] = '-';
    }
    double a = fabs(d);
    if (a >= 1e-3 && a < 1e7) {
        if (exp >= 0) {
            for (int i = 0; i <= exp; i++) {
                out[n++] = (size_t)i < nd ? digits[i] : '0';
            }
            out[n++] = '.';
            if ((size_t)exp + 1 < nd) {
                for (size_t i = (size_t)exp + 1; i < nd; i++) {
                    out[n++] = digits[i];
                }
            } else {
                out[n++] = '0';
            }
        } else {
            out[n++] = '0';
            out[n++] = '.';
            for (int i = 0; i < -exp - 1; i++) {
                out[n++] = '0';
            }
            for (size_t i = 0; i < nd; i++) {
                out[n++] = digits[i];
            }
        }
    } else {
        out[n++] = digits[0];
        out[n++] = '.';
        if (nd > 1) {
            for (size_t i = 1; i < nd; i++) {
                out[n++] = digits[i];
            }
        } else {
            out[n++] = '0';
        }
        n += (size_t)snprintf(out + n, 8, "E%d", exp);
    }
    out[n] = '\0';
    return n;
}

void anvil__idl_out_number(struct anvil__idl_out *o, const struct anvil_json *v) {
    char text[48];
    size_t n;
    if (anvil_json_is_int(v)) {
        n = (size_t)snprintf(text, sizeof(text), "%lld", (long long)anvil_json_int(v));
    } else {
        double d = anvil_json_double(v);
        if (!isfinite(d)) {
            o->rc = o->rc == ANVIL_OK ? ANVIL_EMODEL : o->rc;
            return;
        }
        n = anvil__idl_java_double(d, text);
    }
    anvil__idl_out_text(o, text, n);
}

/* An object key: bare when it is an identifier, else quoted. */
void anvil__idl_out_key(struct anvil__idl_out *o, struct anvil_str_view key) {
    if (anvil__idl_is_identifier(key)) {
        anvil__idl_out_sv(o, key);
    } else {
        anvil__idl_out_quoted(o, key);
    }
}

/* Compact JSON as Smithy prints it (Node.printJson): `= value` of defaults and enum members. */
void anvil__idl_out_json(struct anvil__idl_out *o, const struct anvil_json *v) {
    if (o->rc != ANVIL_OK) {
        return;
    }
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_NULL:
        anvil__idl_out_cstr(o, "null");
        return;
    case ANVIL_JSON_BOOL:
        anvil__idl_out_cstr(o, anvil_json_bool(v) ? "true" : "false");
        return;
    case ANVIL_JSON_NUMBER:
        anvil__idl_out_number(o, v);
        return;
    case ANVIL_JSON_STRING:
        s_quote(o, anvil_json_string(v), s_json_escape);
        return;
    case ANVIL_JSON_ARRAY:
        anvil__idl_out_cstr(o, "[");
        for (size_t i = 0; i < anvil_json_len(v); i++) {
            if (i > 0) {
                anvil__idl_out_cstr(o, ",");
            }
            anvil__idl_out_json(o, anvil_json_array_at(v, i));
        }
        anvil__idl_out_cstr(o, "]");
        return;
    case ANVIL_JSON_OBJECT:
        anvil__idl_out_cstr(o, "{");
        for (size_t i = 0; i < anvil_json_len(v); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(v, i);
            if (i > 0) {
                anvil__idl_out_cstr(o, ",");
            }
            s_quote(o, anvil_json_member_key(m), s_json_escape);
            anvil__idl_out_cstr(o, ":");
            anvil__idl_out_json(o, &m->value);
        }
        anvil__idl_out_cstr(o, "}");
        return;
    }
}
