/* The comparisons of Smithy's protocol compliance tests: protocol_compare.h has the rules. */

#include "protocol_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most of one value a message quotes. */
#define S_QUOTE_MAX 400
/* Deepest XML or JSON a body may nest (the test bodies are a handful deep). */
#define S_MAX_DEPTH 200
/* Most pairs of a form body or query compared (the largest Smithy case has about 30). */
#define S_MAX_PAIRS 4096

static bool s_has_suffix(struct anvil_str_view s, const char *suffix) {
    return anvil_sv_ends_with(s, anvil_sv_from_cstr(suffix));
}

enum ptc_media ptc_media_of(struct anvil_str_view media_type) {
    size_t semi = anvil_sv_find_byte(media_type, 0, ';');
    struct anvil_str_view t = anvil_sv_trim(semi == SIZE_MAX ? media_type : anvil_sv_slice(media_type, 0, semi));
    if (anvil_sv_eq_cstr(t, "application/x-www-form-urlencoded")) {
        return PTC_MEDIA_FORM;
    }
    if (anvil_sv_eq_cstr(t, "application/cbor")) {
        return PTC_MEDIA_CBOR;
    }
    if (s_has_suffix(t, "/json") || s_has_suffix(t, "+json") ||
        anvil_sv_starts_with(t, anvil_sv_from_cstr("application/x-amz-json"))) {
        return PTC_MEDIA_JSON;
    }
    if (s_has_suffix(t, "/xml") || s_has_suffix(t, "+xml")) {
        return PTC_MEDIA_XML;
    }
    return PTC_MEDIA_BYTES;
}

const char *ptc_media_name(enum ptc_media media) {
    switch (media) {
    case PTC_MEDIA_JSON:
        return "JSON";
    case PTC_MEDIA_XML:
        return "XML";
    case PTC_MEDIA_FORM:
        return "form";
    case PTC_MEDIA_CBOR:
        return "CBOR";
    case PTC_MEDIA_BYTES:
        break;
    }
    return "bytes";
}

void ptc_quote(struct anvil_buf *out, struct anvil_str_view s, size_t max) {
    anvil_buf_append_byte(out, '"');
    size_t n = s.len < max ? s.len : max;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\') {
            anvil_buf_appendf(out, "\\%c", c);
        } else if (c == '\n') {
            anvil_buf_append_cstr(out, "\\n");
        } else if (c == '\r') {
            anvil_buf_append_cstr(out, "\\r");
        } else if (c == '\t') {
            anvil_buf_append_cstr(out, "\\t");
        } else if (c < 0x20 || c == 0x7f || c >= 0x80) {
            /* Bytes, not characters: a message shows exactly what differs (a gzip body, a bad UTF-8 byte). */
            anvil_buf_appendf(out, "\\x%02x", c);
        } else {
            anvil_buf_append_byte(out, (char)c);
        }
    }
    anvil_buf_append_byte(out, '"');
    if (n < s.len) {
        anvil_buf_appendf(out, "... (%zu bytes)", s.len);
    }
}

/* ---- JSON ---- */

static void s_json_show(struct anvil_buf *why, const struct anvil_json *v) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    if (!v) {
        anvil_buf_append_cstr(&text, "(absent)");
    } else if (anvil_json_write(v, ANVIL_JSON_WRITE_COMPACT, &text) != ANVIL_OK) {
        anvil_buf_append_cstr(&text, "(unwritable)");
    }
    struct anvil_str_view s = anvil_buf_view(&text);
    if (s.len > S_QUOTE_MAX) {
        anvil_buf_appendf(why, "%.*s... (%zu bytes)", S_QUOTE_MAX, s.ptr, s.len);
    } else {
        anvil_buf_append_sv(why, s);
    }
    anvil_buf_clean_up(&text);
}

static void s_json_differs(struct anvil_buf *why, const char *path, const char *what, const struct anvil_json *expected,
                           const struct anvil_json *actual) {
    anvil_buf_appendf(why, "%s: %s: expected ", path, what);
    s_json_show(why, expected);
    anvil_buf_append_cstr(why, ", got ");
    s_json_show(why, actual);
}

/* `path` extended by a member name or an index, into `out`. */
static void s_path_key(char *out, size_t size, const char *path, struct anvil_str_view key) {
    snprintf(out, size, "%s.%.*s", path, (int)(key.len > 200 ? 200 : key.len), key.ptr);
}

static bool s_json_at(const struct anvil_json *e, const struct anvil_json *a, const char *path, struct anvil_buf *why,
                      int depth) {
    if (depth > S_MAX_DEPTH) {
        return anvil_json_equal(e, a);
    }
    enum anvil_json_type te = anvil_json_type(e), ta = anvil_json_type(a);
    if (te != ta) {
        s_json_differs(why, path, "different types", e, a);
        return false;
    }
    char sub[512];
    switch (te) {
    case ANVIL_JSON_OBJECT: {
        bool ok = true;
        for (size_t i = 0; i < anvil_json_len(e); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(e, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            const struct anvil_json *other = anvil_json_object_get(a, key.ptr, key.len);
            s_path_key(sub, sizeof sub, path, key);
            if (!other) {
                if (!ok) {
                    anvil_buf_append_cstr(why, "; ");
                }
                s_json_differs(why, sub, "missing member", &m->value, NULL);
                ok = false;
            } else if (ok) {
                ok = s_json_at(&m->value, other, sub, why, depth + 1);
            } else if (!anvil_json_equal(&m->value, other)) {
                anvil_buf_appendf(why, "; %s differs too", sub);
            }
        }
        for (size_t i = 0; i < anvil_json_len(a); i++) {
            const struct anvil_json_member *m = anvil_json_object_at(a, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            if (!anvil_json_object_get(e, key.ptr, key.len)) {
                if (!ok) {
                    anvil_buf_append_cstr(why, "; ");
                }
                s_path_key(sub, sizeof sub, path, key);
                s_json_differs(why, sub, "unexpected member", NULL, &m->value);
                ok = false;
            }
        }
        return ok;
    }
    case ANVIL_JSON_ARRAY:
        if (anvil_json_len(e) != anvil_json_len(a)) {
            char what[96];
            snprintf(what, sizeof what, "%zu items expected, %zu came", anvil_json_len(e), anvil_json_len(a));
            s_json_differs(why, path, what, e, a);
            return false;
        }
        for (size_t i = 0; i < anvil_json_len(e); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (!s_json_at(anvil_json_array_at(e, i), anvil_json_array_at(a, i), sub, why, depth + 1)) {
                return false;
            }
        }
        return true;
    case ANVIL_JSON_NUMBER:
        if (anvil_json_compare(e, a) != 0) {
            s_json_differs(why, path, "different numbers", e, a);
            return false;
        }
        return true;
    default:
        if (!anvil_json_equal(e, a)) {
            s_json_differs(why, path, "different values", e, a);
            return false;
        }
        return true;
    }
}

bool ptc_json_values(const struct anvil_json *expected, const struct anvil_json *actual, const char *path,
                     struct anvil_buf *why) {
    return s_json_at(expected, actual, path, why, 0);
}

static bool s_json_parse(struct anvil_str_view text, const char *which, struct anvil_json_doc **doc,
                         struct anvil_buf *why) {
    struct anvil_diag diag;
    if (anvil_json_parse(NULL, text.ptr, text.len, NULL, doc, &diag) != ANVIL_OK) {
        anvil_buf_appendf(why, "the %s body is not JSON (%s): ", which, diag.message);
        ptc_quote(why, text, S_QUOTE_MAX);
        return false;
    }
    return true;
}

bool ptc_json_body(struct anvil_str_view expected, struct anvil_str_view actual, struct anvil_buf *why) {
    struct anvil_json_doc *e = NULL, *a = NULL;
    bool ok = s_json_parse(expected, "expected", &e, why) && s_json_parse(actual, "actual", &a, why) &&
              ptc_json_values(anvil_json_doc_root(e), anvil_json_doc_root(a), "$", why);
    anvil_json_doc_destroy(e);
    anvil_json_doc_destroy(a);
    return ok;
}

/* ---- form bodies and queries: pairs ---- */

struct s_pairs {
    struct anvil_str_view *items;
    size_t count;
    /* Normalised keys (K.N.S) live here, one buffer per pair that needs one. */
    char **owned;
    size_t owned_count;
};

static void s_pairs_free(struct s_pairs *p) {
    for (size_t i = 0; i < p->owned_count; i++) {
        free(p->owned[i]);
    }
    free(p->owned);
    free(p->items);
    memset(p, 0, sizeof *p);
}

/* Splits on '&'; `trim` drops white space around each pair and empty pairs (form bodies, not queries). */
static bool s_pairs_split(struct anvil_str_view text, bool trim, struct s_pairs *p) {
    memset(p, 0, sizeof *p);
    if (text.len == 0) {
        return true;
    }
    size_t n = 1;
    for (size_t i = 0; i < text.len; i++) {
        n += text.ptr[i] == '&';
    }
    if (n > S_MAX_PAIRS) {
        return false;
    }
    p->items = calloc(n, sizeof *p->items);
    p->owned = calloc(n, sizeof *p->owned);
    if (!p->items || !p->owned) {
        s_pairs_free(p);
        return false;
    }
    size_t at = 0;
    while (at <= text.len) {
        size_t amp = anvil_sv_find_byte(text, at, '&');
        size_t end = amp == SIZE_MAX ? text.len : amp;
        struct anvil_str_view pair = anvil_sv_slice(text, at, end - at);
        if (trim) {
            pair = anvil_sv_trim(pair);
        }
        if (!trim || pair.len > 0) {
            p->items[p->count++] = pair;
        }
        at = end + 1;
    }
    return true;
}

static struct anvil_str_view s_pair_key(struct anvil_str_view pair) {
    size_t eq = anvil_sv_find_byte(pair, 0, '=');
    return eq == SIZE_MAX ? pair : anvil_sv_slice(pair, 0, eq);
}

/*
 * urlencoded.rs's `^(.+)\.\d+\.(.+)$` on the key: the last `.<digits>.` with
 * something before and after becomes `.N.`.
 */
static bool s_pair_normalise(struct s_pairs *p, size_t index) {
    struct anvil_str_view pair = p->items[index];
    struct anvil_str_view key = s_pair_key(pair);
    for (size_t dot = key.len; dot-- > 1;) {
        if (key.ptr[dot] != '.' || dot + 1 >= key.len) {
            continue;
        }
        /* `dot` ends the index; find where its digits start. */
        size_t start = dot;
        while (start > 0 && key.ptr[start - 1] >= '0' && key.ptr[start - 1] <= '9') {
            start--;
        }
        if (start == dot || start < 2 || key.ptr[start - 1] != '.') {
            continue;
        }
        size_t len = (start - 1) + 3 + (pair.len - dot - 1);
        char *copy = malloc(len + 1);
        if (!copy) {
            return false;
        }
        memcpy(copy, pair.ptr, start - 1);
        memcpy(copy + start - 1, ".N.", 3);
        memcpy(copy + start + 2, pair.ptr + dot + 1, pair.len - dot - 1);
        copy[len] = '\0';
        p->owned[p->owned_count++] = copy;
        p->items[index] = anvil_sv(copy, len);
        return true;
    }
    return true;
}

static int s_sv_qsort(const void *x, const void *y) {
    return anvil_sv_cmp(*(const struct anvil_str_view *)x, *(const struct anvil_str_view *)y);
}

/*
 * Compares two sorted multisets, appending what is missing from `actual`
 * and what `actual` has more of.
 */
static bool s_multiset_same(const struct anvil_str_view *e, size_t ne, const struct anvil_str_view *a, size_t na,
                            const char *what, struct anvil_buf *why) {
    bool ok = true;
    size_t i = 0, j = 0;
    struct anvil_buf missing, extra;
    anvil_buf_init(&missing, NULL, 0);
    anvil_buf_init(&extra, NULL, 0);
    while (i < ne || j < na) {
        int c = i == ne ? 1 : j == na ? -1 : anvil_sv_cmp(e[i], a[j]);
        if (c == 0) {
            i++;
            j++;
            continue;
        }
        ok = false;
        struct anvil_buf *into = c < 0 ? &missing : &extra;
        anvil_buf_append_cstr(into, anvil_buf_view(into).len ? ", " : "");
        ptc_quote(into, c < 0 ? e[i++] : a[j++], S_QUOTE_MAX);
    }
    if (!ok) {
        anvil_buf_appendf(why, "%s differ:", what);
        if (anvil_buf_view(&missing).len) {
            anvil_buf_append_cstr(why, " missing ");
            anvil_buf_append_sv(why, anvil_buf_view(&missing));
        }
        if (anvil_buf_view(&extra).len) {
            anvil_buf_append_cstr(why, anvil_buf_view(&missing).len ? ";" : "");
            anvil_buf_append_cstr(why, " unexpected ");
            anvil_buf_append_sv(why, anvil_buf_view(&extra));
        }
    }
    anvil_buf_clean_up(&missing);
    anvil_buf_clean_up(&extra);
    return ok;
}

bool ptc_form_body(struct anvil_str_view expected, struct anvil_str_view actual, struct anvil_buf *why) {
    struct s_pairs e, a;
    bool ok = s_pairs_split(expected, true, &e);
    ok = s_pairs_split(actual, true, &a) && ok;
    if (!ok) {
        anvil_buf_append_cstr(why, "a form body has too many pairs to compare");
        goto done;
    }
    /* Action and Version in place. */
    for (size_t i = 0; i < 2 && ok; i++) {
        struct anvil_str_view x = i < e.count ? e.items[i] : anvil_sv("", 0);
        struct anvil_str_view y = i < a.count ? a.items[i] : anvil_sv("", 0);
        if (!anvil_sv_eq(x, y)) {
            anvil_buf_appendf(why, "form pair %zu: expected ", i + 1);
            ptc_quote(why, x, S_QUOTE_MAX);
            anvil_buf_append_cstr(why, ", got ");
            ptc_quote(why, y, S_QUOTE_MAX);
            ok = false;
        }
    }
    for (size_t i = 2; ok && i < e.count; i++) {
        ok = s_pair_normalise(&e, i);
    }
    for (size_t i = 2; ok && i < a.count; i++) {
        ok = s_pair_normalise(&a, i);
    }
    if (ok) {
        size_t ne = e.count > 2 ? e.count - 2 : 0, na = a.count > 2 ? a.count - 2 : 0;
        if (ne) {
            qsort(e.items + 2, ne, sizeof *e.items, s_sv_qsort);
        }
        if (na) {
            qsort(a.items + 2, na, sizeof *a.items, s_sv_qsort);
        }
        ok = s_multiset_same(e.items + 2, ne, a.items + 2, na, "form pairs (map and structure-list indexes as N)", why);
    }
done:
    s_pairs_free(&e);
    s_pairs_free(&a);
    return ok;
}

struct anvil_str_view ptc_target_query(struct anvil_str_view target) {
    size_t q = anvil_sv_find_byte(target, 0, '?');
    return q == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(target, q + 1, target.len - q - 1);
}

struct anvil_str_view ptc_target_path(struct anvil_str_view target) {
    size_t q = anvil_sv_find_byte(target, 0, '?');
    return q == SIZE_MAX ? target : anvil_sv_slice(target, 0, q);
}

static void s_sep(struct anvil_buf *why) {
    if (anvil_buf_view(why).len) {
        anvil_buf_append_cstr(why, "; ");
    }
}

bool ptc_query_params(struct anvil_str_view query, const struct anvil_json *expected,
                      const struct anvil_json *forbidden, const struct anvil_json *required, struct anvil_buf *why) {
    struct s_pairs a;
    if (!s_pairs_split(query, false, &a)) {
        anvil_buf_append_cstr(why, "the query has too many pairs to compare");
        return false;
    }
    bool ok = true;
    bool *used = calloc(a.count + 1, sizeof *used);
    if (!used) {
        s_pairs_free(&a);
        anvil_buf_append_cstr(why, "out of memory");
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(expected); i++) {
        struct anvil_str_view want = anvil_json_string(anvil_json_array_at(expected, i));
        size_t j = 0;
        while (j < a.count && (used[j] || !anvil_sv_eq(a.items[j], want))) {
            j++;
        }
        if (j < a.count) {
            used[j] = true;
            continue;
        }
        s_sep(why);
        anvil_buf_append_cstr(why, "query param ");
        ptc_quote(why, want, S_QUOTE_MAX);
        anvil_buf_append_cstr(why, " missing");
        ok = false;
    }
    for (size_t i = 0; i < anvil_json_len(forbidden); i++) {
        struct anvil_str_view no = anvil_json_string(anvil_json_array_at(forbidden, i));
        bool bare = anvil_sv_find_byte(no, 0, '=') == SIZE_MAX;
        for (size_t j = 0; j < a.count; j++) {
            if (bare ? anvil_sv_eq(s_pair_key(a.items[j]), no) : anvil_sv_eq(a.items[j], no)) {
                s_sep(why);
                anvil_buf_append_cstr(why, "forbidden query param ");
                ptc_quote(why, no, S_QUOTE_MAX);
                anvil_buf_append_cstr(why, " present as ");
                ptc_quote(why, a.items[j], S_QUOTE_MAX);
                ok = false;
                break;
            }
        }
    }
    for (size_t i = 0; i < anvil_json_len(required); i++) {
        struct anvil_str_view key = anvil_json_string(anvil_json_array_at(required, i));
        size_t j = 0;
        while (j < a.count && !anvil_sv_eq(s_pair_key(a.items[j]), key)) {
            j++;
        }
        if (j == a.count) {
            s_sep(why);
            anvil_buf_append_cstr(why, "required query param ");
            ptc_quote(why, key, S_QUOTE_MAX);
            anvil_buf_append_cstr(why, " missing");
            ok = false;
        }
    }
    if (!ok) {
        anvil_buf_append_cstr(why, " (query ");
        ptc_quote(why, query, S_QUOTE_MAX);
        anvil_buf_append_cstr(why, ")");
    }
    free(used);
    s_pairs_free(&a);
    return ok;
}

/* ---- headers ---- */

bool ptc_header_value(const struct anvil_http_header *headers, size_t count, struct anvil_str_view name,
                      struct anvil_buf *scratch, struct anvil_str_view *value) {
    anvil_buf_clear(scratch);
    bool found = false;
    for (size_t i = 0; i < count; i++) {
        if (anvil_sv_eq_ascii_nocase(headers[i].name, name)) {
            if (found) {
                anvil_buf_append_cstr(scratch, ", ");
            }
            anvil_buf_append_sv(scratch, headers[i].value);
            found = true;
        }
    }
    *value = anvil_buf_view(scratch);
    return found;
}

bool ptc_headers(const struct anvil_http_header *headers, size_t count, const struct anvil_json *expected,
                 const struct anvil_json *forbidden, const struct anvil_json *required, struct anvil_buf *why) {
    bool ok = true;
    struct anvil_buf scratch;
    anvil_buf_init(&scratch, NULL, 0);
    struct anvil_str_view got;
    for (size_t i = 0; i < anvil_json_len(expected); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(expected, i);
        struct anvil_str_view name = anvil_json_member_key(m), want = anvil_json_string(&m->value);
        bool present = ptc_header_value(headers, count, name, &scratch, &got);
        if (present && anvil_sv_eq(got, want)) {
            continue;
        }
        s_sep(why);
        anvil_buf_appendf(why, "header %.*s: expected ", (int)name.len, name.ptr);
        ptc_quote(why, want, S_QUOTE_MAX);
        if (present) {
            anvil_buf_append_cstr(why, ", got ");
            ptc_quote(why, got, S_QUOTE_MAX);
        } else {
            anvil_buf_append_cstr(why, ", absent");
        }
        ok = false;
    }
    for (size_t i = 0; i < anvil_json_len(forbidden); i++) {
        struct anvil_str_view name = anvil_json_string(anvil_json_array_at(forbidden, i));
        if (ptc_header_value(headers, count, name, &scratch, &got)) {
            s_sep(why);
            anvil_buf_appendf(why, "forbidden header %.*s present: ", (int)name.len, name.ptr);
            ptc_quote(why, got, S_QUOTE_MAX);
            ok = false;
        }
    }
    for (size_t i = 0; i < anvil_json_len(required); i++) {
        struct anvil_str_view name = anvil_json_string(anvil_json_array_at(required, i));
        if (!ptc_header_value(headers, count, name, &scratch, &got)) {
            s_sep(why);
            anvil_buf_appendf(why, "required header %.*s absent", (int)name.len, name.ptr);
            ok = false;
        }
    }
    anvil_buf_clean_up(&scratch);
    return ok;
}

/* ---- bodies ---- */

bool ptc_body(enum ptc_media media, struct anvil_str_view expected, struct anvil_str_view actual,
              struct anvil_buf *why) {
    if (expected.len == 0 || media == PTC_MEDIA_BYTES || media == PTC_MEDIA_CBOR) {
        /* An empty expected body is no body whatever the type; CBOR bodies are never run (rpcv2Cbor is skipped). */
        if (anvil_sv_eq(expected, actual)) {
            return true;
        }
        size_t at = 0;
        while (at < expected.len && at < actual.len && expected.ptr[at] == actual.ptr[at]) {
            at++;
        }
        anvil_buf_appendf(why, "body (%s) differs at byte %zu: expected ", expected.len ? "bytes" : "none expected",
                          at);
        ptc_quote(why, expected, S_QUOTE_MAX);
        anvil_buf_append_cstr(why, ", got ");
        ptc_quote(why, actual, S_QUOTE_MAX);
        return false;
    }
    switch (media) {
    case PTC_MEDIA_JSON:
        return ptc_json_body(expected, actual, why);
    case PTC_MEDIA_XML:
        return ptc_xml_body(expected, actual, why);
    case PTC_MEDIA_FORM:
        return ptc_form_body(expected, actual, why);
    default:
        return false;
    }
}

/* ---- XML ---- */

static bool s_blank(struct anvil_str_view s) {
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] != ' ' && s.ptr[i] != '\t' && s.ptr[i] != '\n' && s.ptr[i] != '\r') {
            return false;
        }
    }
    return true;
}

static void s_xml_path(char *out, size_t size, const char *path, const struct anvil_xml_node *n, size_t nth) {
    if (nth > 1) {
        snprintf(out, size, "%s/%.*s[%zu]", path, (int)n->name.len, n->name.ptr, nth);
    } else {
        snprintf(out, size, "%s/%.*s", path, (int)n->name.len, n->name.ptr);
    }
}

/* The `nth` (1-based) child of `parent` named `name`, or NULL. */
static const struct anvil_xml_node *s_xml_nth(const struct anvil_xml_node *parent, struct anvil_str_view name,
                                              size_t nth) {
    for (const struct anvil_xml_node *c = parent->first_child; c; c = c->next_sibling) {
        if (anvil_sv_eq(c->name, name) && --nth == 0) {
            return c;
        }
    }
    return NULL;
}

static size_t s_xml_count(const struct anvil_xml_node *parent, struct anvil_str_view name) {
    size_t n = 0;
    for (const struct anvil_xml_node *c = parent->first_child; c; c = c->next_sibling) {
        n += anvil_sv_eq(c->name, name);
    }
    return n;
}

static bool s_xml_at(const struct anvil_xml_node *e, const struct anvil_xml_node *a, const char *path,
                     struct anvil_buf *why, int depth) {
    /* `path` already names this element. */
    if (depth > S_MAX_DEPTH) {
        anvil_buf_appendf(why, "%s: nested too deep to compare", path);
        return false;
    }
    if (!anvil_sv_eq(e->name, a->name)) {
        anvil_buf_appendf(why, "%s: expected element <%.*s>, got <%.*s>", path, (int)e->name.len, e->name.ptr,
                          (int)a->name.len, a->name.ptr);
        return false;
    }
    /* Attributes as a set (a document cannot repeat one). */
    for (size_t i = 0; i < e->attribute_count; i++) {
        const struct anvil_xml_attribute *x = &e->attributes[i];
        const struct anvil_str_view *y = anvil_xml_attribute(a, x->name);
        if (!y || !anvil_sv_eq(*y, x->value)) {
            anvil_buf_appendf(why, "%s: attribute %.*s: expected ", path, (int)x->name.len, x->name.ptr);
            ptc_quote(why, x->value, S_QUOTE_MAX);
            if (y) {
                anvil_buf_append_cstr(why, ", got ");
                ptc_quote(why, *y, S_QUOTE_MAX);
            } else {
                anvil_buf_append_cstr(why, ", absent");
            }
            return false;
        }
    }
    for (size_t i = 0; i < a->attribute_count; i++) {
        const struct anvil_xml_attribute *y = &a->attributes[i];
        if (!anvil_xml_attribute(e, y->name)) {
            anvil_buf_appendf(why, "%s: unexpected attribute %.*s=", path, (int)y->name.len, y->name.ptr);
            ptc_quote(why, y->value, S_QUOTE_MAX);
            return false;
        }
    }
    /* Text: exact in a leaf; beside child elements only when it is more than white space (mixed content). */
    bool leaf = !e->first_child && !a->first_child;
    bool text_counts = leaf || !s_blank(e->text) || !s_blank(a->text);
    if (text_counts && !anvil_sv_eq(e->text, a->text)) {
        anvil_buf_appendf(why, "%s: text: expected ", path);
        ptc_quote(why, e->text, S_QUOTE_MAX);
        anvil_buf_append_cstr(why, ", got ");
        ptc_quote(why, a->text, S_QUOTE_MAX);
        return false;
    }
    /* Children: any order across names; the same name keeps its order (list members, flattened lists). */
    char sub[1024];
    for (const struct anvil_xml_node *c = e->first_child; c; c = c->next_sibling) {
        size_t nth = 0;
        for (const struct anvil_xml_node *p = e->first_child; p != c; p = p->next_sibling) {
            nth += anvil_sv_eq(p->name, c->name);
        }
        nth++;
        s_xml_path(sub, sizeof sub, path, c, nth);
        const struct anvil_xml_node *other = s_xml_nth(a, c->name, nth);
        if (!other) {
            anvil_buf_appendf(why, "%s: missing (%zu <%.*s> expected in %s, %zu came)", sub, s_xml_count(e, c->name),
                              (int)c->name.len, c->name.ptr, path, s_xml_count(a, c->name));
            return false;
        }
        if (!s_xml_at(c, other, sub, why, depth + 1)) {
            return false;
        }
    }
    for (const struct anvil_xml_node *c = a->first_child; c; c = c->next_sibling) {
        size_t want = s_xml_count(e, c->name), got = s_xml_count(a, c->name);
        if (got > want) {
            s_xml_path(sub, sizeof sub, path, c, want + 1);
            anvil_buf_appendf(why, "%s: unexpected (%zu <%.*s> expected in %s, %zu came)", sub, want, (int)c->name.len,
                              c->name.ptr, path, got);
            return false;
        }
    }
    return true;
}

static bool s_xml_parse(struct anvil_arena *arena, struct anvil_str_view text, const char *which,
                        const struct anvil_xml_node **root, struct anvil_buf *why) {
    struct anvil_diag diag;
    if (anvil_xml_parse(arena, NULL, text.ptr, text.len, NULL, ANVIL_XML_BORROW_INPUT, root, &diag) != ANVIL_OK) {
        anvil_buf_appendf(why, "the %s body is not XML (%s): ", which, diag.message);
        ptc_quote(why, text, S_QUOTE_MAX);
        return false;
    }
    return true;
}

bool ptc_xml_body(struct anvil_str_view expected, struct anvil_str_view actual, struct anvil_buf *why) {
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        anvil_buf_append_cstr(why, "out of memory");
        return false;
    }
    const struct anvil_xml_node *e = NULL, *a = NULL;
    bool ok = s_xml_parse(arena, expected, "expected", &e, why) && s_xml_parse(arena, actual, "actual", &a, why);
    if (ok) {
        char path[512];
        s_xml_path(path, sizeof path, "", e, 1);
        ok = s_xml_at(e, a, path, why, 0);
    }
    anvil_arena_destroy(arena);
    return ok;
}
