/*
 * Smithy's HTTP binding traits, shared by restJson1 and restXml: the
 * request line from `@http` (labels, greedy labels, a literal query),
 * `@httpQuery`/`@httpQueryParams`, `@httpHeader`/`@httpPrefixHeaders`,
 * and on the way back the bound headers and `@httpResponseCode`. The body
 * (unbound members, or the `@httpPayload` member) is the protocol's.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "protocol/protocol_internal.h"
#include "json/json_internal.h"

/* The traits that take a member out of a request's body, and out of a response's (labels and query do not exist there).
 */
static struct anvil__trait_id *const s_request_bindings[] = {
    &anvil__t_http_label,  &anvil__t_http_query,          &anvil__t_http_query_params,
    &anvil__t_http_header, &anvil__t_http_prefix_headers, &anvil__t_http_payload,
};
static struct anvil__trait_id *const s_response_bindings[] = {
    &anvil__t_http_header,
    &anvil__t_http_prefix_headers,
    &anvil__t_http_payload,
    &anvil__t_http_response_code,
};

static bool s_has_any(const struct anvil_member *m, struct anvil__trait_id *const *traits, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (anvil__trait(&m->traits, traits[i])) {
            return true;
        }
    }
    return false;
}

bool anvil__http_unbound(const struct anvil_member *m) {
    return !s_has_any(m, s_request_bindings, ANVIL_ARRAY_LEN(s_request_bindings));
}

bool anvil__http_unbound_response(const struct anvil_member *m) {
    return !s_has_any(m, s_response_bindings, ANVIL_ARRAY_LEN(s_response_bindings));
}

const struct anvil_member *anvil__http_payload_member(const struct anvil_shape *shape) {
    for (size_t i = 0; shape && i < anvil_shape_member_count(shape); i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        if (anvil__member_trait(m, "smithy.api#httpPayload")) {
            return m;
        }
    }
    return NULL;
}

bool anvil__http_has_body_members(const struct anvil_shape *shape) {
    for (size_t i = 0; shape && i < anvil_shape_member_count(shape); i++) {
        if (anvil__http_unbound(anvil_shape_member_at(shape, i))) {
            return true;
        }
    }
    return false;
}

int anvil__percent_encode(struct anvil_buf *out, struct anvil_str_view s, bool keep_slash) {
    static const char hex[] = "0123456789ABCDEF";
    int rc = anvil_buf_reserve(out, s.len);
    for (size_t i = 0; i < s.len && rc == ANVIL_OK; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                     c == '.' || c == '_' || c == '~' || (keep_slash && c == '/');
        if (plain) {
            rc = anvil_buf_append_byte(out, (char)c);
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            rc = anvil_buf_append(out, esc, 3);
        }
    }
    return rc;
}

/* ---- values as text (labels, query values, headers) ---- */

static bool s_number_type(enum anvil_shape_type t) {
    return t == ANVIL_SHAPE_BYTE || t == ANVIL_SHAPE_SHORT || t == ANVIL_SHAPE_INTEGER || t == ANVIL_SHAPE_LONG ||
           t == ANVIL_SHAPE_INT_ENUM || t == ANVIL_SHAPE_BIG_INTEGER || t == ANVIL_SHAPE_FLOAT ||
           t == ANVIL_SHAPE_DOUBLE || t == ANVIL_SHAPE_BIG_DECIMAL;
}

int anvil__scalar_text(const struct anvil_member *m, const struct anvil_json *v, enum anvil__ts_format ts_default,
                       struct anvil_buf *out, const char **why) {
    const struct anvil_shape *target = m ? m->target : NULL;
    enum anvil_shape_type t = target ? anvil_shape_type(target) : ANVIL_SHAPE_STRING;
    if (t == ANVIL_SHAPE_TIMESTAMP) {
        int64_t ms;
        if (anvil__timestamp_from_json(v, &ms) != ANVIL_OK) {
            *why = "expected a timestamp (epoch seconds, or an RFC 3339 date-time)";
            return ANVIL_EINVAL;
        }
        return anvil__timestamp_write(out, ms, anvil__timestamp_format_of(m, ts_default));
    }
    if (t == ANVIL_SHAPE_BOOLEAN) {
        if (!anvil_json_is_bool(v)) {
            *why = "expected true or false";
            return ANVIL_EINVAL;
        }
        return anvil_buf_append_cstr(out, anvil_json_bool(v) ? "true" : "false");
    }
    if (s_number_type(t)) {
        if (anvil_json_is_string(v) && (t == ANVIL_SHAPE_FLOAT || t == ANVIL_SHAPE_DOUBLE)) {
            struct anvil_str_view s = anvil_json_string(v);
            if (anvil_sv_eq_cstr(s, "NaN") || anvil_sv_eq_cstr(s, "Infinity") || anvil_sv_eq_cstr(s, "-Infinity")) {
                return anvil_buf_append_sv(out, s);
            }
        }
        if (!anvil_json_is_number(v)) {
            *why = "expected a number";
            return ANVIL_EINVAL;
        }
        if (anvil_json_is_int(v)) {
            return anvil_buf_appendf(out, "%lld", (long long)anvil_json_int(v));
        }
        bool integer = t != ANVIL_SHAPE_FLOAT && t != ANVIL_SHAPE_DOUBLE && t != ANVIL_SHAPE_BIG_DECIMAL;
        double d = anvil_json_double(v);
        if (integer) {
            /* An integer member as body members are checked: 1e2 is 100, 1.5 is refused. */
            if (!(d == floor(d) && fabs(d) < 9.2e18)) {
                *why = "expected an integer";
                return ANVIL_EINVAL;
            }
            return anvil_buf_appendf(out, "%lld", (long long)d);
        }
        char text[40];
        size_t n = anvil__json_format_double(anvil_json_double(v), text);
        /* "2.0" is "2" on the wire as every SDK writes it. */
        if (n > 2 && text[n - 2] == '.' && text[n - 1] == '0') {
            n -= 2;
        }
        return anvil_buf_append(out, text, n);
    }
    if (t == ANVIL_SHAPE_BLOB) {
        if (!anvil_json_is_string(v) || !anvil__base64_valid(anvil_json_string(v))) {
            *why = "expected a blob as base64 text";
            return ANVIL_EINVAL;
        }
        return anvil_buf_append_sv(out, anvil_json_string(v));
    }
    if (!anvil_json_is_string(v)) {
        *why = "expected a string";
        return ANVIL_EINVAL;
    }
    return anvil_buf_append_sv(out, anvil_json_string(v));
}

/* ---- the request ---- */

struct s_req {
    const struct anvil_shape *input_shape;
    const struct anvil_json *input;
    struct anvil__request *req;
    struct anvil_diag *diag;
    struct anvil_buf text;
    bool has_query;
};

static int s_fail(struct s_req *r, const struct anvil_member *m, const char *why) {
    return anvil_diag_set(r->diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: %s", (int)m->name.len, m->name.ptr, why);
}

/* The input's value of member `m`, or NULL when absent or null. */
static const struct anvil_json *s_value(const struct s_req *r, const struct anvil_member *m) {
    const struct anvil_json *v = anvil_json_object_get(r->input, m->name.ptr, m->name.len);
    return anvil_json_is_null(v) ? NULL : v;
}

/* One label: `{name}` or `{name+}` of the URI template, percent-encoded (a greedy one keeps its slashes). */
static int s_label(struct s_req *r, struct anvil_str_view name, bool greedy) {
    const struct anvil_member *m = anvil_shape_member_sv(r->input_shape, name);
    if (!m || !anvil__member_trait(m, "smithy.api#httpLabel")) {
        return anvil_diag_set(r->diag, ANVIL_EINVAL, 0, 0, 0,
                              "the operation's URI names the label `%.*s`, which no input member binds", (int)name.len,
                              name.ptr);
    }
    const struct anvil_json *v = s_value(r, m);
    if (!v) {
        return s_fail(r, m, "required: it goes in the request's path");
    }
    anvil_buf_clear(&r->text);
    const char *why = "";
    int rc = anvil__scalar_text(m, v, ANVIL__TS_DATE_TIME, &r->text, &why);
    if (rc == ANVIL_EINVAL) {
        return s_fail(r, m, why);
    }
    if (rc == ANVIL_OK && r->text.len == 0) {
        return s_fail(r, m, "must not be empty: it goes in the request's path");
    }
    return rc == ANVIL_OK ? anvil__percent_encode(&r->req->target, anvil_buf_view(&r->text), greedy) : rc;
}

static int s_path(struct s_req *r, struct anvil_str_view uri) {
    int rc = ANVIL_OK;
    size_t i = 0;
    static const char bucket[] = "/{Bucket}";
    size_t n = sizeof bucket - 1;
    if (r->req->bucket_in_endpoint && anvil_sv_starts_with(uri, anvil_sv(bucket, n)) &&
        (uri.len == n || uri.ptr[n] == '/' || uri.ptr[n] == '?')) {
        /*
         * The endpoint holds the bucket (S3's rules put it in the host, or in
         * the path for path style), so the label is left out of the target;
         * but it is checked as if it went there, and a blank one (which the
         * rules' binding leaves out) is refused too: without it the rules give
         * an endpoint with no bucket, and the key's first segment would be
         * taken for one.
         */
        size_t mark = r->req->target.len;
        int rc_label = s_label(r, anvil_sv(bucket + 2, n - 3), false);
        if (rc_label != ANVIL_OK) {
            return rc_label;
        }
        anvil_buf_truncate(&r->req->target, mark);
        struct anvil_str_view text = anvil_buf_view(&r->text);
        size_t blank = 0;
        while (blank < text.len && (text.ptr[blank] == ' ' || text.ptr[blank] == '\t' || text.ptr[blank] == '\n' ||
                                    text.ptr[blank] == '\r')) {
            blank++;
        }
        if (blank == text.len) {
            return s_fail(r, anvil_shape_member_sv(r->input_shape, anvil_sv(bucket + 2, n - 3)),
                          "must not be blank: it names the bucket the request goes to");
        }
        if (anvil_sv_eq_cstr(text, ".") || anvil_sv_eq_cstr(text, "..")) {
            /* By path, "/../key" would name another bucket to whatever normalises the path. */
            return s_fail(r, anvil_shape_member_sv(r->input_shape, anvil_sv(bucket + 2, n - 3)),
                          "`.` and `..` are not bucket names");
        }
        i = n;
    }
    while (i < uri.len && rc == ANVIL_OK) {
        unsigned char c = (unsigned char)uri.ptr[i];
        if (c <= ' ' || c >= 0x7f || c == '#' || c == '}') {
            /* The URI's own text goes into the request line as it is: it must be able to. */
            return anvil_diag_set(r->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "the operation's URI has a byte a request line cannot hold (0x%02X at %zu)", c, i);
        }
        if (c == '?') {
            /* A literal query ("?list-type=2", "?tagging") goes out as written. */
            for (size_t k = i; k < uri.len; k++) {
                unsigned char q = (unsigned char)uri.ptr[k];
                if (q <= ' ' || q >= 0x7f || q == '#' || q == '{' || q == '}') {
                    return anvil_diag_set(r->diag, ANVIL_EMODEL, 0, 0, 0,
                                          "the operation's URI has a query a request line cannot hold");
                }
            }
            rc = anvil_buf_append(&r->req->target, uri.ptr + i, uri.len - i);
            r->has_query = uri.len - i > 1;
            break;
        }
        if (c != '{') {
            rc = anvil_buf_append_byte(&r->req->target, uri.ptr[i++]);
            continue;
        }
        size_t close = anvil_sv_find_byte(uri, i, '}');
        size_t reopen = anvil_sv_find_byte(uri, i + 1, '{');
        if (close == SIZE_MAX || (reopen != SIZE_MAX && reopen < close) || close == i + 1) {
            return anvil_diag_set(r->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "the operation's URI has a label that is not `{name}`");
        }
        struct anvil_str_view name = anvil_sv_slice(uri, i + 1, close - i - 1);
        bool greedy = name.len && name.ptr[name.len - 1] == '+';
        name.len -= greedy;
        rc = s_label(r, name, greedy);
        i = close + 1;
    }
    return rc;
}

static int s_query_pair(struct s_req *r, struct anvil_str_view key, struct anvil_str_view value) {
    int rc = anvil_buf_append_byte(&r->req->target, r->has_query ? '&' : '?');
    r->has_query = true;
    if (rc == ANVIL_OK) {
        rc = anvil__percent_encode(&r->req->target, key, false);
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&r->req->target, '=');
    }
    return rc == ANVIL_OK ? anvil__percent_encode(&r->req->target, value, false) : rc;
}

/* A scalar or a list of them, as one query pair per value. */
static int s_query_values(struct s_req *r, const struct anvil_member *m, struct anvil_str_view key,
                          const struct anvil_json *v) {
    const struct anvil_member *item = m;
    size_t n = 1;
    enum anvil_shape_type t = m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    bool list = t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET;
    if (list) {
        if (!anvil_json_is_array(v)) {
            return s_fail(r, m, "expected an array");
        }
        item = anvil_shape_member(m->target, "member");
        n = anvil_json_len(v);
    }
    int rc = ANVIL_OK;
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_json *x = list ? anvil_json_array_at(v, i) : v;
        if (anvil_json_is_null(x)) {
            continue;
        }
        anvil_buf_clear(&r->text);
        const char *why = "";
        rc = anvil__scalar_text(item, x, ANVIL__TS_DATE_TIME, &r->text, &why);
        if (rc == ANVIL_EINVAL) {
            return s_fail(r, m, why);
        }
        if (rc == ANVIL_OK) {
            rc = s_query_pair(r, key, anvil_buf_view(&r->text));
        }
    }
    return rc;
}

/* Whether an @httpQuery member of the input names `key` and has a value (it then wins over @httpQueryParams). */
static bool s_query_named(const struct s_req *r, struct anvil_str_view key) {
    for (size_t i = 0; i < anvil_shape_member_count(r->input_shape); i++) {
        const struct anvil_member *m = anvil_shape_member_at(r->input_shape, i);
        const struct anvil_json *name = anvil__member_trait(m, "smithy.api#httpQuery");
        if (name && anvil_sv_eq(anvil_json_string(name), key) && s_value(r, m)) {
            return true;
        }
    }
    return false;
}

static int s_query(struct s_req *r) {
    int rc = ANVIL_OK;
    size_t n = anvil_shape_member_count(r->input_shape);
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(r->input_shape, i);
        const struct anvil_json *name = anvil__member_trait(m, "smithy.api#httpQuery");
        const struct anvil_json *v = name ? s_value(r, m) : NULL;
        if (v) {
            rc = s_query_values(r, m, anvil_json_string(name), v);
        }
    }
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(r->input_shape, i);
        const struct anvil_json *v = anvil__member_trait(m, "smithy.api#httpQueryParams") ? s_value(r, m) : NULL;
        if (!v) {
            continue;
        }
        if (!anvil_json_is_object(v)) {
            return s_fail(r, m, "expected an object (a map of query parameters)");
        }
        const struct anvil_member *value = m->target ? anvil_shape_member(m->target, "value") : NULL;
        for (size_t k = 0; k < anvil_json_len(v) && rc == ANVIL_OK; k++) {
            const struct anvil_json_member *jm = anvil_json_object_at(v, k);
            struct anvil_str_view key = anvil_json_member_key(jm);
            if (!anvil_json_is_null(&jm->value) && !s_query_named(r, key)) {
                rc = s_query_values(r, value ? value : m, key, &jm->value);
            }
        }
    }
    return rc;
}

/* A header list element, quoted when it holds a comma or a double quote (RFC 9110 quoted-string). */
static int s_header_item(struct anvil_buf *out, struct anvil_str_view s, bool quote_ok) {
    bool quote = quote_ok && (anvil_sv_find_byte(s, 0, ',') != SIZE_MAX || anvil_sv_find_byte(s, 0, '"') != SIZE_MAX);
    if (!quote) {
        return anvil_buf_append_sv(out, s);
    }
    int rc = anvil_buf_append_byte(out, '"');
    for (size_t i = 0; i < s.len && rc == ANVIL_OK; i++) {
        if (s.ptr[i] == '"' || s.ptr[i] == '\\') {
            rc = anvil_buf_append_byte(out, '\\');
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(out, s.ptr[i]);
        }
    }
    return rc == ANVIL_OK ? anvil_buf_append_byte(out, '"') : rc;
}

/* A header's value: a scalar, or a list joined with ", "; a @mediaType string as base64. Messages name `named`. */
static int s_header_text(struct s_req *r, const struct anvil_member *m, const struct anvil_json *v,
                         const struct anvil_member *named) {
    anvil_buf_clear(&r->text);
    enum anvil_shape_type t = m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    const char *why = "";
    int rc = ANVIL_OK;
    if (t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET) {
        if (!anvil_json_is_array(v)) {
            return s_fail(r, named, "expected an array");
        }
        const struct anvil_member *item = anvil_shape_member(m->target, "member");
        bool quote_ok = !item || !item->target || anvil_shape_type(item->target) != ANVIL_SHAPE_TIMESTAMP;
        struct anvil_buf one;
        anvil_buf_init(&one, NULL, 0);
        for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
            anvil_buf_clear(&one);
            rc = anvil__scalar_text(item, anvil_json_array_at(v, i), ANVIL__TS_HTTP_DATE, &one, &why);
            if (rc == ANVIL_OK && i) {
                rc = anvil_buf_append_cstr(&r->text, ", ");
            }
            if (rc == ANVIL_OK) {
                rc = s_header_item(&r->text, anvil_buf_view(&one), quote_ok);
            }
        }
        anvil_buf_clean_up(&one);
    } else if (t == ANVIL_SHAPE_STRING && anvil_shape_trait(m->target, "smithy.api#mediaType")) {
        if (!anvil_json_is_string(v)) {
            return s_fail(r, named, "expected a string");
        }
        struct anvil_str_view s = anvil_json_string(v);
        rc = anvil_base64_encode(&r->text, s.ptr, s.len);
    } else {
        rc = anvil__scalar_text(m, v, ANVIL__TS_HTTP_DATE, &r->text, &why);
    }
    return rc == ANVIL_EINVAL ? s_fail(r, named, why) : rc;
}

/* Sets a bound header, refusing what would split the request (CR, LF, NUL) or is no header name. */
static int s_set_header(struct s_req *r, const struct anvil_member *m, struct anvil_str_view name,
                        struct anvil_str_view value) {
    for (size_t i = 0; i < value.len; i++) {
        if (value.ptr[i] == '\r' || value.ptr[i] == '\n' || value.ptr[i] == '\0') {
            return s_fail(r, m, "a header value cannot hold CR, LF or NUL");
        }
    }
    bool ok = name.len > 0;
    for (size_t i = 0; ok && i < name.len; i++) {
        unsigned char c = (unsigned char)name.ptr[i];
        ok = c > ' ' && c < 0x7f && c != ':';
    }
    if (!ok) {
        return anvil_diag_set(r->diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: `%.*s` cannot be a header name",
                              (int)m->name.len, m->name.ptr, (int)(name.len > 64 ? 64 : name.len), name.ptr);
    }
    /* The headers anvil sets itself (the host, the signature, the framing) are no input's to set. */
    static const char *const own[] = {
        "Host",   "Authorization", "X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-Sha256", "Transfer-Encoding",
        "Expect", "Connection"};
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(own); i++) {
        if (anvil_sv_eq_ascii_nocase(name, anvil_sv_from_cstr(own[i]))) {
            return anvil_diag_set(r->diag, ANVIL_EINVAL, 0, 0, 0, "`%.*s`: the header `%s` is anvil's own to set",
                                  (int)m->name.len, m->name.ptr, own[i]);
        }
    }
    return anvil__request_set_header(r->req, name, value);
}

static int s_headers(struct s_req *r) {
    int rc = ANVIL_OK;
    size_t n = anvil_shape_member_count(r->input_shape);
    /* Prefix headers first, so that an @httpHeader of the same name replaces one. */
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(r->input_shape, i);
        const struct anvil_json *prefix = anvil__member_trait(m, "smithy.api#httpPrefixHeaders");
        const struct anvil_json *v = prefix ? s_value(r, m) : NULL;
        if (!v) {
            continue;
        }
        if (!m->target || anvil_shape_type(m->target) != ANVIL_SHAPE_MAP) {
            return anvil_diag_set(r->diag, ANVIL_EMODEL, 0, 0, 0,
                                  "`%.*s`: @httpPrefixHeaders on a member that is not a map", (int)m->name.len,
                                  m->name.ptr);
        }
        if (!anvil_json_is_object(v)) {
            return s_fail(r, m, "expected an object (a map of headers)");
        }
        const struct anvil_member *value = m->target ? anvil_shape_member(m->target, "value") : NULL;
        for (size_t k = 0; k < anvil_json_len(v) && rc == ANVIL_OK; k++) {
            const struct anvil_json_member *jm = anvil_json_object_at(v, k);
            if (anvil_json_is_null(&jm->value)) {
                continue;
            }
            struct anvil_buf name;
            anvil_buf_init(&name, NULL, 0);
            rc = anvil_buf_append_sv(&name, anvil_json_string(prefix));
            if (rc == ANVIL_OK) {
                rc = anvil_buf_append_sv(&name, anvil_json_member_key(jm));
            }
            if (rc == ANVIL_OK) {
                rc = s_header_text(r, value, &jm->value, m);
            }
            if (rc == ANVIL_OK) {
                rc = s_set_header(r, m, anvil_buf_view(&name), anvil_buf_view(&r->text));
            }
            anvil_buf_clean_up(&name);
        }
    }
    for (size_t i = 0; i < n && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(r->input_shape, i);
        const struct anvil_json *name = anvil__member_trait(m, "smithy.api#httpHeader");
        const struct anvil_json *v = name ? s_value(r, m) : NULL;
        if (v) {
            rc = s_header_text(r, m, v, m);
            if (rc == ANVIL_OK) {
                rc = s_set_header(r, m, anvil_json_string(name), anvil_buf_view(&r->text));
            }
        }
    }
    return rc;
}

int anvil__http_bind_request(const struct anvil_shape *op, const struct anvil_json *input, struct anvil__request *req,
                             struct anvil_diag *diag) {
    const struct anvil_json *http = anvil_shape_trait(op, "smithy.api#http");
    struct anvil_str_view method = anvil_json_string(anvil_json_object_get_cstr(http, "method"));
    struct anvil_str_view uri = anvil_json_string(anvil_json_object_get_cstr(http, "uri"));
    if (!method.len || !uri.len || uri.ptr[0] != '/') {
        struct anvil_str_view id = anvil_shape_id(op);
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "`%.*s` has no @http trait with a method and a URI",
                              (int)id.len, id.ptr);
    }
    bool token = method.len <= 16;
    for (size_t i = 0; token && i < method.len; i++) {
        token = method.ptr[i] >= 'A' && method.ptr[i] <= 'Z';
    }
    if (!token) {
        /* It goes into the request line: upper-case letters only, as every HTTP method is. */
        struct anvil_str_view id = anvil_shape_id(op);
        return anvil_diag_set(diag, ANVIL_EMODEL, 0, 0, 0, "`%.*s` has an @http method that is not an HTTP method",
                              (int)id.len, id.ptr);
    }
    char *m = anvil_arena_strndup(req->arena, method.ptr, method.len);
    if (!m) {
        return ANVIL_ENOMEM;
    }
    req->method = m;
    struct s_req r = {anvil_operation_input(op), input, req, diag, {0}, false};
    anvil_buf_init(&r.text, NULL, 0);
    int rc = s_path(&r, uri);
    if (rc == ANVIL_OK && r.input_shape && input) {
        rc = s_query(&r);
    }
    if (rc == ANVIL_OK && r.input_shape && input) {
        rc = s_headers(&r);
    }
    anvil_buf_clean_up(&r.text);
    return rc;
}

/* ---- the response ---- */

/* Splits a header's value into list items: commas outside quotes; quoted items unescaped. */
static int s_split_list(struct anvil_str_view value, bool http_dates, struct anvil_buf *items, size_t *count) {
    *count = 0;
    size_t i = 0;
    int rc = ANVIL_OK;
    while (i <= value.len && rc == ANVIL_OK) {
        while (i < value.len && (value.ptr[i] == ' ' || value.ptr[i] == '\t')) {
            i++;
        }
        if (i == value.len) {
            break;
        }
        size_t start = items->len;
        if (value.ptr[i] == '"') {
            for (i++; i < value.len && value.ptr[i] != '"' && rc == ANVIL_OK; i++) {
                if (value.ptr[i] == '\\' && i + 1 < value.len) {
                    i++;
                }
                rc = anvil_buf_append_byte(items, value.ptr[i]);
            }
            i++; /* the closing quote */
            while (i < value.len && value.ptr[i] != ',') {
                i++;
            }
        } else {
            /* An http-date holds one comma of its own ("Mon, 16 Dec 2019 ..."): items end at every second one. */
            size_t commas = 0;
            size_t end = i;
            while (end < value.len && !(value.ptr[end] == ',' && (!http_dates || commas++ == 1))) {
                end++;
            }
            struct anvil_str_view item = anvil_sv_trim(anvil_sv_slice(value, i, end - i));
            rc = anvil_buf_append_sv(items, item);
            i = end;
        }
        (void)start;
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_byte(items, '\0');
            (*count)++;
        }
        i++; /* the comma */
    }
    return rc;
}

/*
 * One header item as the data model holds it, for member `m` (timestamps
 * default to http-date). ANVIL_EVALUE when the text is not of its type.
 */
static int s_header_value(struct anvil__values *values, const struct anvil_member *m, struct anvil_str_view text,
                          struct anvil_json *out) {
    enum anvil_shape_type t = m && m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    int rc = anvil__text_value(values, m, text, ANVIL__TS_HTTP_DATE, out);
    if (rc == ANVIL_OK && t == ANVIL_SHAPE_STRING &&
        anvil__trait(anvil_shape_traits(m->target), &anvil__t_media_type)) {
        struct anvil_buf raw;
        anvil_buf_init(&raw, NULL, 0);
        rc = anvil_base64_decode(&raw, text);
        if (rc == ANVIL_OK) {
            rc = anvil__values_string(values, anvil_buf_view(&raw), out);
        }
        anvil_buf_clean_up(&raw);
    }
    return rc;
}

static bool s_is_list(const struct anvil_member *m) {
    enum anvil_shape_type t = m && m->target ? anvil_shape_type(m->target) : ANVIL_SHAPE_STRING;
    return t == ANVIL_SHAPE_LIST || t == ANVIL_SHAPE_SET;
}

/*
 * A bound header as the member's value: a scalar, or a list split as it
 * was joined. ANVIL_EVALUE when it is not of the member's type.
 */
static int s_header_member(struct anvil__values *values, const struct anvil_member *m, struct anvil_str_view text,
                           struct anvil_json *out) {
    if (!s_is_list(m)) {
        return s_header_value(values, m, text, out);
    }
    const struct anvil_member *item = anvil_shape_member(m->target, "member");
    bool dates = item && item->target && anvil_shape_type(item->target) == ANVIL_SHAPE_TIMESTAMP &&
                 anvil__timestamp_format_of(item, ANVIL__TS_HTTP_DATE) == ANVIL__TS_HTTP_DATE;
    struct anvil_buf items;
    anvil_buf_init(&items, NULL, 0);
    size_t count = 0;
    int rc = s_split_list(text, dates, &items, &count);
    size_t base = values->item_count;
    const char *p = items.data;
    for (size_t i = 0; i < count && rc == ANVIL_OK; i++) {
        struct anvil_json v;
        size_t len = strlen(p);
        rc = s_header_value(values, item, anvil_sv(p, len), &v);
        if (rc == ANVIL_OK) {
            rc = anvil__values_item(values, v);
        }
        p += len + 1;
    }
    anvil_buf_clean_up(&items);
    if (rc != ANVIL_OK) {
        values->item_count = base;
        return rc;
    }
    return anvil__values_array(values, base, out);
}

/*
 * The value of the header named `name`: for a list, every such header
 * joined with ", " as RFC 9110 allows; for a scalar, the first (a repeated
 * Content-Length is not "5, 5").
 */
static bool s_response_header(const struct anvil__response *res, struct anvil_str_view name, bool list,
                              struct anvil_buf *joined) {
    bool found = false;
    anvil_buf_clear(joined);
    for (size_t i = 0; i < res->header_count && (list || !found); i++) {
        if (anvil_sv_eq_ascii_nocase(res->headers[i].name, name)) {
            if (found) {
                anvil_buf_append_cstr(joined, ", ");
            }
            anvil_buf_append_sv(joined, res->headers[i].value);
            found = true;
        }
    }
    return found;
}

/* The map of an @httpPrefixHeaders member; an entry whose value is not of the map's type is left out. */
static int s_prefix_headers(struct anvil__values *values, const struct anvil_member *m,
                            const struct anvil__response *res, struct anvil_json *out) {
    struct anvil_str_view prefix = anvil_json_string(anvil__trait(&m->traits, &anvil__t_http_prefix_headers));
    const struct anvil_member *value = anvil_shape_member(m->target, "value");
    size_t base = values->member_count;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < res->header_count && rc == ANVIL_OK; i++) {
        struct anvil_str_view name = res->headers[i].name;
        if (name.len < prefix.len || !anvil_sv_eq_ascii_nocase(anvil_sv_slice(name, 0, prefix.len), prefix)) {
            continue;
        }
        struct anvil_json v;
        rc = s_header_member(values, value, res->headers[i].value, &v);
        if (rc == ANVIL_OK) {
            rc = anvil__values_member_named(values, anvil_sv_slice(name, prefix.len, name.len - prefix.len), v);
        }
        rc = rc == ANVIL_EVALUE ? ANVIL_OK : rc;
    }
    if (rc != ANVIL_OK) {
        values->member_count = base;
        return rc;
    }
    return anvil__values_object(values, base, out);
}

int anvil__http_bind_response(const struct anvil_shape *shape, const struct anvil__response *res,
                              struct anvil__values *values, struct anvil_buf *why) {
    (void)why;
    struct anvil_buf joined;
    anvil_buf_init(&joined, NULL, 0);
    int rc = ANVIL_OK;
    for (size_t i = 0; shape && i < anvil_shape_member_count(shape) && rc == ANVIL_OK; i++) {
        const struct anvil_member *m = anvil_shape_member_at(shape, i);
        struct anvil_json v;
        bool has = false;
        const struct anvil_json *header = anvil__trait(&m->traits, &anvil__t_http_header);
        bool map = m->target && anvil_shape_type(m->target) == ANVIL_SHAPE_MAP;
        if (header && s_response_header(res, anvil_json_string(header), s_is_list(m), &joined)) {
            rc = s_header_member(values, m, anvil_buf_view(&joined), &v);
            has = true;
        } else if (map && anvil__trait(&m->traits, &anvil__t_http_prefix_headers)) {
            /* An empty map when no header has the prefix (Smithy's HttpPrefixHeadersAreNotPresent). */
            rc = s_prefix_headers(values, m, res, &v);
            has = true;
        } else if (anvil__trait(&m->traits, &anvil__t_http_response_code)) {
            v = anvil_json_make_int(res->status);
            has = true;
        }
        if (rc == ANVIL_EVALUE) {
            /*
             * A header that is not of its member's type (S3's `Expires: 0`,
             * a proxy's odd date) leaves the member out: the rest of the
             * answer still counts, as the SDKs have come to treat it.
             */
            rc = ANVIL_OK;
            has = false;
        }
        if (rc == ANVIL_OK && has) {
            rc = anvil__values_member_named(values, m->name, v);
        }
    }
    anvil_buf_clean_up(&joined);
    return rc;
}
