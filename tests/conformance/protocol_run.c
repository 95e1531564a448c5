/* One Smithy protocol test case through anvil__request_build() or anvil__response_read(). */

#include <stdio.h>
#include <string.h>

#include "protocol_compare.h"
#include "protocol_tests.h"

/* The most of a body or value a verbose dump shows. */
#define S_DUMP_MAX 4000

/* ---- the environment: no clock, and randomness of zero bytes (the tests' idempotency token) ---- */

static uint64_t s_no_clock(void *ctx) {
    (void)ctx;
    return 0;
}

static int s_no_sleep(void *ctx, uint64_t ms) {
    (void)ctx;
    (void)ms;
    return ANVIL_OK;
}

static int s_zero_bytes(void *ctx, void *out, size_t len) {
    (void)ctx;
    memset(out, 0, len);
    return ANVIL_OK;
}

static const struct anvil_env s_env = {s_no_clock, s_no_clock, s_no_sleep, s_zero_bytes, NULL};

/* ---- params as anvil's data model ---- */

/* RFC 4648 base64 with padding, written here so the expected values do not come from the code under test. */
static int s_base64(struct anvil_buf *out, struct anvil_str_view in) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = (const unsigned char *)in.ptr;
    int rc = ANVIL_OK;
    for (size_t i = 0; i < in.len && rc == ANVIL_OK; i += 3) {
        size_t n = in.len - i < 3 ? in.len - i : 3;
        uint32_t w = (uint32_t)p[i] << 16 | (n > 1 ? (uint32_t)p[i + 1] << 8 : 0) | (n > 2 ? p[i + 2] : 0);
        char quad[4] = {alphabet[w >> 18 & 63], alphabet[w >> 12 & 63], n > 1 ? alphabet[w >> 6 & 63] : '=',
                        n > 2 ? alphabet[w & 63] : '='};
        rc = anvil_buf_append(out, quad, 4);
    }
    return rc;
}

static const struct anvil_shape *s_target(const struct anvil_shape *shape, const char *member) {
    const struct anvil_member *m = shape ? anvil_shape_member(shape, member) : NULL;
    return m ? m->target : NULL;
}

static int s_params_at(struct anvil_json_builder *b, const struct anvil_shape *shape, const struct anvil_json *v) {
    enum anvil_shape_type type = shape ? anvil_shape_type(shape) : ANVIL_SHAPE_DOCUMENT;
    if (type == ANVIL_SHAPE_DOCUMENT) {
        /* A document, or a value the model does not describe: as it is. */
        return anvil_json_builder_value(b, v);
    }
    int rc = ANVIL_OK;
    switch (anvil_json_type(v)) {
    case ANVIL_JSON_OBJECT:
        rc = anvil_json_builder_begin_object(b);
        for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
            const struct anvil_json_member *m = anvil_json_object_at(v, i);
            struct anvil_str_view key = anvil_json_member_key(m);
            const struct anvil_shape *t = NULL;
            if (type == ANVIL_SHAPE_MAP) {
                t = s_target(shape, "value");
            } else if (type == ANVIL_SHAPE_STRUCTURE || type == ANVIL_SHAPE_UNION) {
                if (anvil_json_is_null(&m->value)) {
                    continue; /* a member set to null is a member not set (a sparse map's null is a value) */
                }
                t = s_target(shape, key.ptr);
            }
            rc = anvil_json_builder_key(b, key.ptr, key.len);
            rc = rc == ANVIL_OK ? s_params_at(b, t, &m->value) : rc;
        }
        return rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
    case ANVIL_JSON_ARRAY: {
        const struct anvil_shape *t =
            type == ANVIL_SHAPE_LIST || type == ANVIL_SHAPE_SET ? s_target(shape, "member") : NULL;
        rc = anvil_json_builder_begin_array(b);
        for (size_t i = 0; i < anvil_json_len(v) && rc == ANVIL_OK; i++) {
            rc = s_params_at(b, t, anvil_json_array_at(v, i));
        }
        return rc == ANVIL_OK ? anvil_json_builder_end_array(b) : rc;
    }
    case ANVIL_JSON_STRING:
        if (type == ANVIL_SHAPE_BLOB) {
            struct anvil_buf enc;
            anvil_buf_init(&enc, NULL, 0);
            rc = s_base64(&enc, anvil_json_string(v));
            if (rc == ANVIL_OK) {
                rc = anvil_json_builder_string(b, anvil_buf_view(&enc).ptr, anvil_buf_view(&enc).len);
            }
            anvil_buf_clean_up(&enc);
            return rc;
        }
        return anvil_json_builder_value(b, v);
    default:
        return anvil_json_builder_value(b, v);
    }
}

int ptc_params(struct anvil_arena *arena, const struct anvil_shape *shape, const struct anvil_json *params,
               struct anvil_json *out) {
    struct anvil_json_builder *b = NULL;
    int rc = anvil_json_builder_new(NULL, arena, &b);
    if (rc == ANVIL_OK) {
        rc = s_params_at(b, shape, params);
        int done = anvil_json_builder_finish(b, out);
        rc = rc == ANVIL_OK ? done : rc;
    }
    anvil_json_builder_destroy(b);
    return rc;
}

/* ---- helpers ---- */

static const struct anvil_json *s_get(const struct anvil_json *v, const char *key) {
    return anvil_json_object_get_cstr(v, key);
}

static bool s_is_unit(const struct anvil_shape *shape) {
    return !shape || anvil_sv_eq_cstr(anvil_shape_id(shape), "smithy.api#Unit");
}

/* Starts a new problem in `why`: problems after the first go on lines of their own. */
static void s_problem(struct anvil_buf *why) {
    if (anvil_buf_view(why).len) {
        anvil_buf_append_cstr(why, "\n      ");
    }
}

static void s_add(struct anvil_buf *why, struct anvil_buf *tmp) {
    s_problem(why);
    anvil_buf_append_sv(why, anvil_buf_view(tmp));
    anvil_buf_clear(tmp);
}

static void s_json_dump(struct anvil_buf *why, const char *label, const struct anvil_json *v) {
    struct anvil_buf text;
    anvil_buf_init(&text, NULL, 0);
    anvil_json_write(v, ANVIL_JSON_WRITE_COMPACT, &text);
    struct anvil_str_view s = anvil_buf_view(&text);
    s_problem(why);
    anvil_buf_appendf(why, "%s %.*s%s", label, (int)(s.len > S_DUMP_MAX ? S_DUMP_MAX : s.len), s.ptr,
                      s.len > S_DUMP_MAX ? "..." : "");
    anvil_buf_clean_up(&text);
}

/* "example.com/custom" -> host "example.com", base path "/custom" (no trailing '/'). */
static void s_split_host(struct anvil_str_view host, struct anvil_str_view *name, struct anvil_str_view *path) {
    static const char *const schemes[] = {"https://", "http://"};
    for (size_t i = 0; i < 2; i++) {
        if (anvil_sv_starts_with(host, anvil_sv_from_cstr(schemes[i]))) {
            size_t n = strlen(schemes[i]);
            host = anvil_sv_slice(host, n, host.len - n);
        }
    }
    size_t slash = anvil_sv_find_byte(host, 0, '/');
    *name = slash == SIZE_MAX ? host : anvil_sv_slice(host, 0, slash);
    *path = slash == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(host, slash, host.len - slash);
    while (path->len > 0 && path->ptr[path->len - 1] == '/') {
        path->len--;
    }
}

/* A member of the test's `headers` object by name, case-insensitively (empty when absent). */
static struct anvil_str_view s_test_header(const struct anvil_json *headers, const char *name) {
    for (size_t i = 0; i < anvil_json_len(headers); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(headers, i);
        if (anvil_sv_eq_ascii_nocase(anvil_json_member_key(m), anvil_sv_from_cstr(name))) {
            return anvil_json_string(&m->value);
        }
    }
    return anvil_sv("", 0);
}

static void s_context(const struct ptc_case *c, struct anvil__protocol_context *ctx) {
    memset(ctx, 0, sizeof *ctx);
    ctx->model = c->model;
    ctx->service = c->service;
    ctx->env = &s_env;
}

/* ---- requests ---- */

static void s_request_dump(struct anvil_buf *why, const struct anvil__request *req) {
    struct anvil_str_view target = anvil_buf_view(&req->target), body = anvil_buf_view(&req->body);
    s_problem(why);
    anvil_buf_appendf(why, "request: %s %.*s (host prefix \"%s\", endpoint %s)", req->method ? req->method : "(none)",
                      (int)target.len, target.ptr, req->host_prefix, req->endpoint ? req->endpoint : "the client's");
    for (size_t i = 0; i < req->header_count; i++) {
        s_problem(why);
        anvil_buf_appendf(why, "  %.*s: ", (int)req->headers[i].name.len, req->headers[i].name.ptr);
        ptc_quote(why, req->headers[i].value, S_DUMP_MAX);
    }
    s_problem(why);
    anvil_buf_append_cstr(why, "  body ");
    ptc_quote(why, body, S_DUMP_MAX);
}

/* Whether the case is S3's and names the host its endpoint rules resolve. */
static bool s_s3_case(const struct ptc_case *c) {
    struct anvil_aws_service aws;
    return s_get(c->test, "resolvedHost") && anvil_service_aws(c->service, &aws) && anvil_sv_eq_cstr(aws.sdk_id, "S3");
}

/* Reads an S3 setting of vendorParams' scopedConfig: the operation's over the client's. */
static const struct anvil_json *s_s3_setting(const struct ptc_case *c, const char *name) {
    const struct anvil_json *scoped = s_get(s_get(c->test, "vendorParams"), "scopedConfig");
    const struct anvil_json *v = s_get(s_get(s_get(scoped, "operation"), "s3"), name);
    return v ? v : s_get(s_get(s_get(scoped, "client"), "s3"), name);
}

static const char *s_no_environment(void *ctx, const char *name) {
    (void)ctx;
    return strcmp(name, "HOME") == 0 ? "/nonexistent" : NULL;
}

/*
 * An S3 case: the client (unsigned, no files, no environment) with S3's
 * endpoint rules, the region of vendorParams and its S3 settings as the
 * rules' parameters (addressing_style path -> ForcePathStyle,
 * use_dualstack_endpoint -> UseDualStack, use_accelerate_endpoint ->
 * Accelerate); the input's Bucket is bound by the @contextParam the runner
 * applies as S3's real model has it (protocol_tests.c). What it would send
 * must go to resolvedHost with the case's uri as its path.
 */
static void s_s3_request(const struct ptc_case *c, const struct anvil_json *input, struct anvil_arena *arena,
                         struct anvil_buf *why) {
    const struct anvil_json *scoped = s_get(s_get(c->test, "vendorParams"), "scopedConfig");
    struct anvil_str_view region = anvil_json_string(s_get(s_get(scoped, "client"), "region"));
    struct anvil_json_builder *b = NULL;
    struct anvil_json params;
    int rc = anvil_json_builder_new(NULL, arena, &b);
    rc = rc == ANVIL_OK ? anvil_json_builder_begin_object(b) : rc;
    const struct anvil_json *style = s_s3_setting(c, "addressing_style");
    if (rc == ANVIL_OK && style) {
        rc = anvil_json_builder_key(b, "ForcePathStyle", 14);
        rc = rc == ANVIL_OK ? anvil_json_builder_bool(b, anvil_sv_eq_cstr(anvil_json_string(style), "path")) : rc;
    }
    static const char *const flags[][2] = {{"use_dualstack_endpoint", "UseDualStack"},
                                           {"use_accelerate_endpoint", "Accelerate"}};
    for (size_t i = 0; i < 2 && rc == ANVIL_OK; i++) {
        const struct anvil_json *v = s_s3_setting(c, flags[i][0]);
        if (v) {
            rc = anvil_json_builder_key(b, flags[i][1], strlen(flags[i][1]));
            rc = rc == ANVIL_OK ? anvil_json_builder_value(b, v) : rc;
        }
    }
    rc = rc == ANVIL_OK ? anvil_json_builder_end_object(b) : rc;
    rc = rc == ANVIL_OK ? anvil_json_builder_finish(b, &params) : rc;
    anvil_json_builder_destroy(b);
    char region_text[64], service[256];
    snprintf(region_text, sizeof region_text, "%.*s", (int)region.len, region.ptr);
    struct anvil_str_view id = anvil_shape_id(c->service);
    snprintf(service, sizeof service, "%.*s", (int)id.len, id.ptr);
    struct anvil_client_options o = {.region = region_text,
                                     .env = &s_env,
                                     .getenv = s_no_environment,
                                     .endpoint_rules = c->s3_rules,
                                     .endpoint_params = &params,
                                     .no_sign = true};
    struct anvil_client *client = NULL;
    struct anvil_http_request http;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    rc = rc == ANVIL_OK ? anvil_client_new(NULL, c->model, service, &o, &client, &diag) : rc;
    rc = rc == ANVIL_OK ? anvil_client_prepare(client, c->operation, input, arena, &http, &diag) : rc;
    anvil_client_destroy(client);
    if (rc != ANVIL_OK) {
        s_problem(why);
        anvil_buf_appendf(why, "the client with S3's endpoint rules: %s: %s", anvil_status_name(rc), diag.message);
        return;
    }
    /* The URL: scheme://host/path?query. */
    struct anvil_str_view url = http.url;
    size_t authority = anvil_sv_find_byte(url, 0, ':') + 3;
    size_t slash = anvil_sv_find_byte(url, authority, '/');
    slash = slash == SIZE_MAX ? url.len : slash;
    size_t query = anvil_sv_find_byte(url, slash, '?');
    query = query == SIZE_MAX ? url.len : query;
    struct anvil_str_view host = anvil_sv_slice(url, authority, slash - authority);
    struct anvil_str_view path = anvil_sv_slice(url, slash, query - slash);
    struct anvil_str_view want_host = anvil_json_string(s_get(c->test, "resolvedHost"));
    struct anvil_str_view want_uri = anvil_json_string(s_get(c->test, "uri"));
    if (!anvil_sv_eq(host, want_host)) {
        s_problem(why);
        anvil_buf_appendf(why, "resolved host: expected %.*s, got %.*s (%.*s)", (int)want_host.len, want_host.ptr,
                          (int)host.len, host.ptr, (int)url.len, url.ptr);
    }
    if (!anvil_sv_eq(path, want_uri)) {
        s_problem(why);
        anvil_buf_appendf(why, "uri: expected %.*s, got %.*s (%.*s)", (int)want_uri.len, want_uri.ptr, (int)path.len,
                          path.ptr, (int)url.len, url.ptr);
    }
}

bool ptc_run_request(struct ptc_case *c, struct anvil_buf *why) {
    const struct anvil_json *t = c->test;
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        anvil_buf_append_cstr(why, "out of memory");
        return false;
    }
    struct anvil__request req;
    anvil__request_init(&req, NULL, arena);
    struct anvil_buf tmp;
    anvil_buf_init(&tmp, NULL, 0);

    /* The input: params, else {} for an operation that has input, else none. */
    const struct anvil_json *params = s_get(t, "params");
    const struct anvil_shape *in = anvil_operation_input(c->operation);
    struct anvil_json input;
    const struct anvil_json *input_ptr = NULL;
    int rc = ANVIL_OK;
    if (params) {
        rc = ptc_params(arena, in, params, &input);
        input_ptr = &input;
    } else if (!s_is_unit(in)) {
        rc = anvil_json_parse_into(arena, NULL, "{}", 2, NULL, &input, NULL);
        input_ptr = &input;
    }
    if (rc != ANVIL_OK) {
        anvil_buf_appendf(why, "the runner could not convert params: %s", anvil_status_name(rc));
        goto done;
    }

    struct anvil__protocol_context ctx;
    s_context(c, &ctx);
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    rc = anvil__request_build(c->protocol, &ctx, c->operation, input_ptr, &req, &diag);
    if (rc != ANVIL_OK) {
        anvil_buf_appendf(why, "anvil__request_build returned %s: %s", anvil_status_name(rc), diag.message);
        goto done;
    }

    struct anvil_str_view want_method = anvil_json_string(s_get(t, "method"));
    if (!anvil_sv_eq_cstr(want_method, req.method ? req.method : "")) {
        s_problem(why);
        anvil_buf_appendf(why, "method: expected %.*s, got %s", (int)want_method.len, want_method.ptr,
                          req.method ? req.method : "(none)");
    }

    /* The endpoint: the case's host, or the one the request names for itself (Machine Learning's Predict). */
    struct anvil_str_view host, base;
    s_split_host(req.endpoint ? anvil_sv_from_cstr(req.endpoint) : anvil_json_string(s_get(t, "host")), &host, &base);
    struct anvil_str_view target = anvil_buf_view(&req.target);
    /* S3's host and path are its endpoint rules' (the bucket in the host, or first in the path). */
    bool s3 = s_s3_case(c);
    c->host_left_to_endpoint_rules = s3 && !c->s3_rules;
    if (s3 && c->s3_rules) {
        s_s3_request(c, input_ptr, arena, why);
    }
    anvil_buf_append_sv(&tmp, base);
    anvil_buf_append_sv(&tmp, ptc_target_path(target));
    struct anvil_str_view want_uri = anvil_json_string(s_get(t, "uri"));
    if (!s3 && !anvil_sv_eq(want_uri, anvil_buf_view(&tmp))) {
        struct anvil_str_view got = anvil_buf_view(&tmp);
        s_problem(why);
        anvil_buf_appendf(why, "uri: expected %.*s, got %.*s (target %.*s)", (int)want_uri.len, want_uri.ptr,
                          (int)got.len, got.ptr, (int)target.len, target.ptr);
    }
    anvil_buf_clear(&tmp);

    if (!ptc_query_params(ptc_target_query(target), s_get(t, "queryParams"), s_get(t, "forbidQueryParams"),
                          s_get(t, "requireQueryParams"), &tmp)) {
        s_add(why, &tmp);
    }
    if (!ptc_headers(req.headers, req.header_count, s_get(t, "headers"), s_get(t, "forbidHeaders"),
                     s_get(t, "requireHeaders"), &tmp)) {
        s_add(why, &tmp);
    }

    const struct anvil_json *resolved = s_get(t, "resolvedHost");
    if (resolved && !s3) {
        anvil_buf_append_cstr(&tmp, req.host_prefix);
        anvil_buf_append_sv(&tmp, host);
        struct anvil_str_view got = anvil_buf_view(&tmp), want = anvil_json_string(resolved);
        if (!anvil_sv_eq(got, want)) {
            struct anvil_buf msg;
            anvil_buf_init(&msg, NULL, 0);
            anvil_buf_appendf(&msg, "resolved host: expected %.*s, got %.*s (host prefix \"%s\")", (int)want.len,
                              want.ptr, (int)got.len, got.ptr, req.host_prefix);
            s_add(why, &msg);
            anvil_buf_clean_up(&msg);
        }
        anvil_buf_clear(&tmp);
    }

    const struct anvil_json *body = s_get(t, "body");
    if (body) {
        struct anvil_str_view media = anvil_json_string(s_get(t, "bodyMediaType"));
        if (media.len == 0) {
            media = s_test_header(s_get(t, "headers"), "Content-Type");
        }
        if (media.len == 0) {
            const struct anvil_str_view *ct = anvil__request_header(&req, "Content-Type");
            media = ct ? *ct : media;
        }
        if (!ptc_body(ptc_media_of(media), anvil_json_string(body), anvil_buf_view(&req.body), &tmp)) {
            s_add(why, &tmp);
        }
    }
    if (anvil_buf_view(why).len && c->verbose) {
        s_request_dump(why, &req);
    }
done:
    anvil_buf_clean_up(&tmp);
    anvil__request_clean_up(&req);
    anvil_arena_destroy(arena);
    return anvil_buf_view(why).len == 0;
}

/* ---- responses ---- */

static bool s_query_codes(const struct ptc_case *c) {
    return c->protocol->id == ANVIL_PROTOCOL_AWS_QUERY || c->protocol->id == ANVIL_PROTOCOL_EC2_QUERY ||
           anvil_shape_trait(c->service, "aws.protocols#awsQueryCompatible") != NULL;
}

static void s_reply_dump(struct anvil_buf *why, int rc, const struct anvil_operation_reply *reply,
                         const struct anvil_json *error_data) {
    s_problem(why);
    anvil_buf_appendf(why, "reply: %s, http status %d", anvil_status_name(rc), reply->http_status);
    if (rc == ANVIL_OK) {
        s_json_dump(why, "  output", &reply->output);
    } else {
        s_problem(why);
        anvil_buf_append_cstr(why, "  error code ");
        ptc_quote(why, reply->error.code, S_DUMP_MAX);
        anvil_buf_append_cstr(why, ", message ");
        ptc_quote(why, reply->error.message, S_DUMP_MAX);
        s_json_dump(why, "  error data", error_data);
    }
}

static void s_status_problem(struct anvil_buf *why, int rc, const struct anvil_operation_reply *reply,
                             const char *wanted) {
    s_problem(why);
    anvil_buf_appendf(why, "expected %s, got %s", wanted, anvil_status_name(rc));
    if (rc != ANVIL_OK) {
        anvil_buf_append_cstr(why, " (code ");
        ptc_quote(why, reply->error.code, 200);
        anvil_buf_append_cstr(why, ", message ");
        ptc_quote(why, reply->error.message, 200);
        anvil_buf_append_cstr(why, ")");
    }
}

bool ptc_run_response(const struct ptc_case *c, struct anvil_buf *why) {
    const struct anvil_json *t = c->test;
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        anvil_buf_append_cstr(why, "out of memory");
        return false;
    }
    struct anvil_buf tmp;
    anvil_buf_init(&tmp, NULL, 0);

    const struct anvil_json *headers = s_get(t, "headers");
    size_t n = anvil_json_len(headers);
    struct anvil_http_header *h =
        n ? anvil_arena_alloc(arena, n * sizeof *h, _Alignof(struct anvil_http_header)) : NULL;
    for (size_t i = 0; h && i < n; i++) {
        const struct anvil_json_member *m = anvil_json_object_at(headers, i);
        h[i].name = anvil_json_member_key(m);
        h[i].value = anvil_json_string(&m->value);
    }
    struct anvil_str_view body = anvil_json_string(s_get(t, "body"));
    struct anvil__response res = {(int)anvil_json_int(s_get(t, "code")), h, h ? n : 0, body.ptr, body.len};

    /* What should come: params as the output's or error's data model; none means an empty structure. */
    const struct anvil_shape *shape = c->error ? c->error : anvil_operation_output(c->operation);
    const struct anvil_json *params = s_get(t, "params");
    struct anvil_json expected;
    int rc = params ? ptc_params(arena, shape, params, &expected)
                    : anvil_json_parse_into(arena, NULL, "{}", 2, NULL, &expected, NULL);
    if (rc != ANVIL_OK) {
        anvil_buf_appendf(why, "the runner could not convert params: %s", anvil_status_name(rc));
        goto done;
    }

    struct anvil__protocol_context ctx;
    s_context(c, &ctx);
    struct anvil_operation_reply reply;
    memset(&reply, 0, sizeof reply);
    struct anvil_json error_data = anvil_json_make_null();
    rc = anvil__response_read(c->protocol, &ctx, c->operation, &res, arena, &reply, &error_data);

    if (!c->error) {
        if (rc != ANVIL_OK) {
            s_status_problem(why, rc, &reply, "ANVIL_OK");
        } else if (!params && s_is_unit(shape) &&
                   (anvil_json_is_null(&reply.output) ||
                    (anvil_json_is_object(&reply.output) && anvil_json_len(&reply.output) == 0))) {
            /* No output modelled, none expected: null and {} both say so. */
        } else if (!ptc_json_values(&expected, &reply.output, "output", &tmp)) {
            s_add(why, &tmp);
        }
    } else {
        if (rc != ANVIL_ESERVICE) {
            s_status_problem(why, rc, &reply, "ANVIL_ESERVICE");
        } else {
            const struct anvil_shape *named =
                anvil__error_shape(&ctx, c->operation, reply.error.code, s_query_codes(c));
            if (named != c->error) {
                struct anvil_str_view want = anvil_shape_id(c->error);
                struct anvil_str_view got = named ? anvil_shape_id(named) : anvil_sv_from_cstr("no modelled error");
                s_problem(why);
                anvil_buf_appendf(why, "error: expected %.*s, the code ", (int)want.len, want.ptr);
                ptc_quote(why, reply.error.code, 200);
                anvil_buf_appendf(why, " names %.*s", (int)got.len, got.ptr);
            }
            if (!ptc_json_values(&expected, &error_data, "error", &tmp)) {
                s_add(why, &tmp);
            }
        }
    }
    if (anvil_buf_view(why).len && c->verbose) {
        s_reply_dump(why, rc, &reply, &error_data);
    }
done:
    anvil_buf_clean_up(&tmp);
    anvil_arena_destroy(arena);
    return anvil_buf_view(why).len == 0;
}
