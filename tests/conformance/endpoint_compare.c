/* The endpointTests comparisons (endpoint_compare.h says the rules). */

#include "endpoint_compare.h"

#include <string.h>

void ept_append_json(struct anvil_buf *into, const struct anvil_json *v, size_t max) {
    if (!v) {
        anvil_buf_append_cstr(into, "(none)");
        return;
    }
    size_t start = into->len;
    if (anvil_json_write(v, ANVIL_JSON_WRITE_COMPACT, into) != ANVIL_OK) {
        anvil_buf_truncate(into, start);
        anvil_buf_append_cstr(into, "(not writable as JSON)");
        return;
    }
    if (max > 0 && into->len - start > max) {
        /* Cut on a UTF-8 boundary so the report stays valid text. */
        size_t cut = start + max;
        while (cut > start && ((unsigned char)into->data[cut] & 0xC0) == 0x80) {
            cut--;
        }
        anvil_buf_truncate(into, cut);
        anvil_buf_append_cstr(into, "...");
    }
}

static void s_append_text(struct anvil_buf *into, struct anvil_str_view s) {
    anvil_json_write_string(s, ANVIL_JSON_WRITE_COMPACT, into);
}

static void s_sep(struct anvil_buf *why) {
    if (why->len > 0) {
        anvil_buf_append_cstr(why, "; ");
    }
}

/* ---- headers ---- */

static bool s_all_strings(const struct anvil_json *values) {
    if (!anvil_json_is_array(values)) {
        return false;
    }
    for (size_t i = 0; i < anvil_json_len(values); i++) {
        if (!anvil_json_is_string(anvil_json_array_at(values, i))) {
            return false;
        }
    }
    return true;
}

static bool s_holds(const struct anvil_json *values, const struct anvil_json *value) {
    for (size_t i = 0; i < anvil_json_len(values); i++) {
        if (anvil_sv_eq(anvil_json_string(anvil_json_array_at(values, i)), anvil_json_string(value))) {
            return true;
        }
    }
    return false;
}

/* Every value of `a` is among `b`'s. */
static bool s_subset(const struct anvil_json *a, const struct anvil_json *b) {
    for (size_t i = 0; i < anvil_json_len(a); i++) {
        if (!s_holds(b, anvil_json_array_at(a, i))) {
            return false;
        }
    }
    return true;
}

static void s_header_diff(struct anvil_buf *why, struct anvil_str_view name, const struct anvil_json *expected,
                          const struct anvil_json *got) {
    s_sep(why);
    anvil_buf_appendf(why, "header %.*s: expected ", (int)name.len, name.ptr);
    ept_append_json(why, expected, 0);
    anvil_buf_append_cstr(why, ", got ");
    ept_append_json(why, got, 0);
}

bool ept_headers_match(const struct anvil_json *expected, const struct anvil_json *got, struct anvil_buf *why) {
    if (!anvil_json_is_object(got)) {
        s_sep(why);
        anvil_buf_append_cstr(why, "headers: expected an object, got ");
        ept_append_json(why, got, 200);
        return false;
    }
    bool same = true;
    for (size_t i = 0; i < anvil_json_len(expected); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(expected, i);
        struct anvil_str_view name = anvil_json_member_key(m);
        const struct anvil_json *g = anvil_json_object_get(got, name.ptr, name.len);
        if (anvil_json_len(&m->value) == 0 && anvil_json_len(g) == 0 && (!g || anvil_json_is_array(g))) {
            continue; /* no values either side */
        }
        if (!s_all_strings(g) || !s_subset(&m->value, g) || !s_subset(g, &m->value)) {
            s_header_diff(why, name, &m->value, g);
            same = false;
        }
    }
    for (size_t i = 0; i < anvil_json_len(got); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(got, i);
        struct anvil_str_view name = anvil_json_member_key(m);
        if (anvil_json_object_get(expected, name.ptr, name.len)) {
            continue; /* compared above */
        }
        if (!anvil_json_is_array(&m->value) || anvil_json_len(&m->value) > 0) {
            s_header_diff(why, name, NULL, &m->value);
            same = false;
        }
    }
    return same;
}

/* ---- properties ---- */

bool ept_properties_match(const struct anvil_json *expected, const struct anvil_json *got, struct anvil_buf *why) {
    static const struct anvil_json_member none[1];
    struct anvil_json empty = {ANVIL_JSON_OBJECT, {.members = none}};
    if (!expected) {
        expected = &empty;
    }
    if (anvil_json_is_object(got) && anvil_json_equal(expected, got)) {
        return true;
    }
    s_sep(why);
    anvil_buf_append_cstr(why, "properties: expected ");
    ept_append_json(why, expected, 0);
    anvil_buf_append_cstr(why, ", got ");
    ept_append_json(why, got, 0);
    return false;
}

/* ---- a whole expectation ---- */

static void s_got(struct anvil_buf *why, const struct ept_result *got) {
    if (got->rc == ANVIL_OK) {
        anvil_buf_append_cstr(why, "got endpoint ");
        s_append_text(why, got->endpoint->url);
    } else {
        anvil_buf_appendf(why, "got %s ", anvil_status_name(got->rc));
        s_append_text(why, anvil_sv_from_cstr(got->message ? got->message : ""));
    }
    if (got->rule && got->rule[0]) {
        anvil_buf_appendf(why, " (rule %s)", got->rule);
    }
}

bool ept_check(const struct anvil_json *expect, const struct ept_result *got, struct anvil_buf *why) {
    const struct anvil_json *error = anvil_json_object_get_cstr(expect, "error");
    const struct anvil_json *endpoint = anvil_json_object_get_cstr(expect, "endpoint");
    if (!error == !endpoint || (error && !anvil_json_is_string(error)) ||
        (endpoint && !anvil_json_is_string(anvil_json_object_get_cstr(endpoint, "url")))) {
        s_sep(why);
        anvil_buf_append_cstr(why, "the case's expect is neither {error: text} nor {endpoint: {url: text, ...}}: ");
        ept_append_json(why, expect, 200);
        return false;
    }
    if (error) {
        if (got->rc == ANVIL_ECONFIG && anvil_sv_eq_cstr(anvil_json_string(error), got->message ? got->message : "")) {
            return true;
        }
        s_sep(why);
        anvil_buf_append_cstr(why, "expected error ");
        s_append_text(why, anvil_json_string(error));
        anvil_buf_append_cstr(why, ", ");
        s_got(why, got);
        return false;
    }
    struct anvil_str_view url = anvil_json_string(anvil_json_object_get_cstr(endpoint, "url"));
    if (got->rc != ANVIL_OK) {
        s_sep(why);
        anvil_buf_append_cstr(why, "expected endpoint ");
        s_append_text(why, url);
        anvil_buf_append_cstr(why, ", ");
        s_got(why, got);
        return false;
    }
    bool same = true;
    if (!anvil_sv_eq(url, got->endpoint->url)) {
        s_sep(why);
        anvil_buf_append_cstr(why, "url: expected ");
        s_append_text(why, url);
        anvil_buf_append_cstr(why, ", got ");
        s_append_text(why, got->endpoint->url);
        same = false;
    }
    same = ept_headers_match(anvil_json_object_get_cstr(endpoint, "headers"), &got->endpoint->headers, why) && same;
    same = ept_properties_match(anvil_json_object_get_cstr(endpoint, "properties"), &got->endpoint->properties, why) &&
           same;
    if (!same && got->rule && got->rule[0]) {
        anvil_buf_appendf(why, " (rule %s)", got->rule);
    }
    return same;
}
