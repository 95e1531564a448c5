/*
 * Request compression: every rule of the decision, the settings' ranges and
 * precedence, the Content-Encoding joiner, gzip round trips through zlib's
 * inflate and through the `gzip` command; and idempotency tokens.
 */

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "harness.h"

static int s_encodings(struct anvil_test *t, const char *json, struct anvil_json_doc **doc) {
    return anvil_json_parse(t->alloc, json, strlen(json), NULL, doc, NULL);
}

TEST(compress_decision_table) {
    struct anvil_json_doc *gzip = NULL, *other = NULL, *upper = NULL, *later = NULL;
    CHECK_OK(s_encodings(t, "[\"gzip\"]", &gzip));
    CHECK_OK(s_encodings(t, "[\"br\", \"zstd\"]", &other));
    CHECK_OK(s_encodings(t, "[\"GZIP\"]", &upper));
    CHECK_OK(s_encodings(t, "[\"br\", \"gzip\"]", &later));
    static const struct {
        const char *encodings; /* "gzip", "other", "upper", "later" or NULL */
        int client_disabled, request_disabled;
        int64_t client_min, request_min;
        size_t size;
        bool streaming, requires_length;
        bool compress;
        const char *reason;
    } cases[] = {
        {"gzip", -1, -1, -1, -1, 10240, false, false, true, "the body (10240 bytes) reaches the minimum (10240)"},
        {"gzip", -1, -1, -1, -1, 10239, false, false, false, "the body (10239 bytes) is below the minimum (10240)"},
        {"gzip", 1, -1, -1, -1, 1 << 20, false, false, false, "compression is disabled"},
        {"gzip", 1, 0, -1, -1, 1 << 20, false, false, true, NULL}, /* the request re-enables it */
        {"gzip", 0, 1, -1, -1, 1 << 20, false, false, false, "compression is disabled"},
        {"gzip", -1, -1, 0, -1, 0, false, false, true, NULL},         /* min size 0: even an empty body */
        {"gzip", -1, -1, 100, 5000, 4000, false, false, false, NULL}, /* the request's min wins */
        {"gzip", -1, -1, 5000, 100, 4000, false, false, true, NULL},
        {"gzip", -1, -1, -1, -1, 1, true, false, true, "a streaming body without @requiresLength is always compressed"},
        {"gzip", -1, -1, -1, -1, 1 << 20, true, true, false,
         "a streaming body with @requiresLength cannot be compressed"},
        {"other", -1, -1, -1, -1, 1 << 20, false, false, false, "no encoding the client supports"},
        {"upper", -1, -1, -1, -1, 1 << 20, false, false, true, NULL},
        {"later", -1, -1, -1, -1, 1 << 20, false, false, true, NULL}, /* the first supported one, in trait order */
        {NULL, -1, -1, -1, -1, 1 << 20, false, false, false, "the operation has no @requestCompression"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *e = cases[i].encodings;
        const struct anvil_json *encodings = !e                        ? NULL
                                             : strcmp(e, "gzip") == 0  ? anvil_json_doc_root(gzip)
                                             : strcmp(e, "other") == 0 ? anvil_json_doc_root(other)
                                             : strcmp(e, "upper") == 0 ? anvil_json_doc_root(upper)
                                                                       : anvil_json_doc_root(later);
        struct anvil_compression_settings client = {cases[i].client_disabled, cases[i].client_min};
        struct anvil_compression_settings request = {cases[i].request_disabled, cases[i].request_min};
        struct anvil_compression_request req = {
            encodings, cases[i].size, cases[i].streaming, cases[i].requires_length, {"", 0}};
        struct anvil_compression_decision d;
        CHECK_OK(anvil_compression_decide(&client, &request, &req, &d, NULL, NULL));
        if (d.compress != cases[i].compress || (cases[i].reason && strcmp(d.reason, cases[i].reason) != 0)) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: compress %d (%s)", i, d.compress, d.reason);
        }
        if (d.compress) {
            CHECK_STR_EQ(d.encoding, "gzip");
        }
    }
done:
    anvil_json_doc_destroy(gzip);
    anvil_json_doc_destroy(other);
    anvil_json_doc_destroy(upper);
    anvil_json_doc_destroy(later);
}

TEST(compress_rejects_min_sizes_out_of_range) {
    struct anvil_compression_settings bad = {-1, 10485761};
    struct anvil_compression_request req = {NULL, 0, false, false, {"", 0}};
    struct anvil_compression_decision d;
    struct anvil_diag diag;
    CHECK_STATUS(anvil_compression_decide(&bad, NULL, &req, &d, NULL, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "invalid client minimum compression size 10485761: must be from 0 to 10485760 bytes");
    bad.min_size = -2;
    CHECK_STATUS(anvil_compression_decide(NULL, &bad, &req, &d, NULL, &diag), ANVIL_EINVAL);
    CHECK(strstr(diag.message, "request minimum compression size -2") != NULL);
    bad.min_size = 10485760;
    CHECK_OK(anvil_compression_decide(&bad, NULL, &req, &d, NULL, &diag));
done:;
}

struct s_vars {
    const char *disabled, *min;
};

static const char *s_lookup(void *ctx, const char *name) {
    const struct s_vars *v = ctx;
    return strcmp(name, "AWS_DISABLE_REQUEST_COMPRESSION") == 0 ? v->disabled : v->min;
}

TEST(compress_settings_from_the_environment) {
    struct anvil_compression_settings s;
    struct anvil_diag diag;
    struct s_vars none = {NULL, NULL}, set = {"TRUE", "0"}, bad_bool = {"yes", NULL}, big = {NULL, "10485761"},
                  neg = {NULL, "-1"};
    CHECK_OK(anvil_compression_settings_from_env(&s, s_lookup, &none, &diag));
    CHECK(s.disabled == -1 && s.min_size == -1);
    CHECK_OK(anvil_compression_settings_from_env(&s, s_lookup, &set, &diag));
    CHECK(s.disabled == 1 && s.min_size == 0);
    CHECK_STATUS(anvil_compression_settings_from_env(&s, s_lookup, &bad_bool, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "invalid value \"yes\" for AWS_DISABLE_REQUEST_COMPRESSION: must be true or false");
    CHECK_STATUS(anvil_compression_settings_from_env(&s, s_lookup, &big, &diag), ANVIL_EINVAL);
    CHECK_STR_EQ(diag.message, "invalid value \"10485761\" for AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES: must be an "
                               "integer from 0 to 10485760");
    CHECK_STATUS(anvil_compression_settings_from_env(&s, s_lookup, &neg, &diag), ANVIL_EINVAL);
done:;
}

TEST(compress_appends_gzip_after_the_callers_encodings) {
    /* Smithy's SDKAppendedGzipAfterProvidedEncoding: "custom" becomes "custom, gzip". */
    struct anvil_json_doc *gzip = NULL;
    struct anvil_buf header;
    anvil_buf_init(&header, t->alloc, 0);
    CHECK_OK(s_encodings(t, "[\"gzip\"]", &gzip));
    struct anvil_compression_request req = {anvil_json_doc_root(gzip), 20000, false, false, ANVIL_SV("custom")};
    struct anvil_compression_decision d;
    CHECK_OK(anvil_compression_decide(NULL, NULL, &req, &d, &header, NULL));
    CHECK_STR_EQ(header.data, "custom, gzip");
    anvil_buf_clear(&header);
    req.content_encoding = ANVIL_SV("");
    CHECK_OK(anvil_compression_decide(NULL, NULL, &req, &d, &header, NULL));
    CHECK_STR_EQ(header.data, "gzip");
done:
    anvil_buf_clean_up(&header);
    anvil_json_doc_destroy(gzip);
}

/* Inflates a gzip member with zlib into `out`. */
static int s_gunzip(const char *in, size_t len, struct anvil_buf *out) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        return ANVIL_ENOMEM;
    }
    z.next_in = (unsigned char *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    int zr = Z_OK, rc = ANVIL_OK;
    while (zr == Z_OK && rc == ANVIL_OK) {
        rc = anvil_buf_reserve(out, 65536);
        if (rc != ANVIL_OK) {
            break;
        }
        z.next_out = (unsigned char *)out->data + out->len;
        z.avail_out = 65536;
        zr = inflate(&z, Z_NO_FLUSH);
        out->len = (size_t)((char *)z.next_out - out->data);
    }
    inflateEnd(&z);
    return rc != ANVIL_OK ? rc : zr == Z_STREAM_END ? ANVIL_OK : ANVIL_ESYNTAX;
}

TEST(compress_gzip_round_trips_through_zlib) {
    struct anvil_buf body, gz, back, streamed;
    anvil_buf_init(&body, t->alloc, 0);
    anvil_buf_init(&gz, t->alloc, 0);
    anvil_buf_init(&back, t->alloc, 0);
    anvil_buf_init(&streamed, t->alloc, 0);
    struct anvil_gzip_stream stream = {0};
    for (int i = 0; i < 20000; i++) {
        CHECK_OK(anvil_buf_appendf(&body, "{\"MetricName\":\"m%d\",\"Value\":%d},", i % 37, i * 7));
    }
    CHECK_OK(anvil_gzip(body.data, body.len, &gz));
    CHECK(gz.len < body.len / 4);
    CHECK((unsigned char)gz.data[0] == 0x1f && (unsigned char)gz.data[1] == 0x8b);
    CHECK_OK(s_gunzip(gz.data, gz.len, &back));
    CHECK(back.len == body.len && memcmp(back.data, body.data, body.len) == 0);
    /* The stream in uneven pieces gives the same bytes back. */
    CHECK_OK(anvil_gzip_stream_init(&stream));
    for (size_t at = 0; at < body.len;) {
        size_t n = body.len - at < 7777 ? body.len - at : 7777;
        CHECK_OK(anvil_gzip_stream_write(&stream, body.data + at, n, &streamed));
        at += n;
    }
    CHECK_OK(anvil_gzip_stream_finish(&stream, &streamed));
    CHECK_STATUS(anvil_gzip_stream_write(&stream, "x", 1, &streamed), ANVIL_EINVAL);
    anvil_buf_clear(&back);
    CHECK_OK(s_gunzip(streamed.data, streamed.len, &back));
    CHECK(back.len == body.len && memcmp(back.data, body.data, body.len) == 0);
    /* An empty body is a valid gzip member too. */
    anvil_buf_clear(&gz);
    anvil_buf_clear(&back);
    CHECK_OK(anvil_gzip("", 0, &gz));
    CHECK_OK(s_gunzip(gz.data, gz.len, &back));
    CHECK_EQ_U64(back.len, 0);
done:
    anvil_gzip_stream_clean_up(&stream);
    anvil_buf_clean_up(&body);
    anvil_buf_clean_up(&gz);
    anvil_buf_clean_up(&back);
    anvil_buf_clean_up(&streamed);
}

TEST(compress_gzip_is_read_by_the_gzip_command) {
    static const char text[] = "{\"Namespace\": \"App\", \"MetricData\": [1, 2, 3]}\n";
    struct anvil_buf gz;
    anvil_buf_init(&gz, t->alloc, 0);
    char path[] = "/tmp/anvil-gzip-XXXXXX";
    int fd = -1;
    CHECK_OK(anvil_gzip(text, sizeof text - 1, &gz));
    fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    CHECK(f != NULL);
    fd = -1;
    CHECK(fwrite(gz.data, 1, gz.len, f) == gz.len);
    fclose(f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "gzip -dc < %s", path);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    char back[256] = "";
    size_t n = fread(back, 1, sizeof back - 1, p);
    CHECK(pclose(p) == 0);
    CHECK_MEM_EQ(back, n, "{\"Namespace\": \"App\", \"MetricData\": [1, 2, 3]}\n");
done:
    remove(path);
    anvil_buf_clean_up(&gz);
}

TEST(idempotency_uuid_v4_from_the_env) {
    struct anvil_fake_env fake;
    anvil_fake_env_init(&fake, 0, 1);
    char uuid[ANVIL_UUID_LENGTH + 1];
    CHECK_OK(anvil_uuid_v4(&fake.env, uuid));
    CHECK_EQ_U64(strlen(uuid), 36);
    CHECK(uuid[14] == '4' && strchr("89ab", uuid[19]) != NULL);
    CHECK(uuid[8] == '-' && uuid[13] == '-' && uuid[18] == '-' && uuid[23] == '-');
    fake.fail_random = true;
    CHECK_STATUS(anvil_uuid_v4(&fake.env, uuid), ANVIL_EIO);
done:;
}

static int s_zero_bytes(void *ctx, void *out, size_t len) {
    (void)ctx;
    memset(out, 0, len);
    return ANVIL_OK;
}

TEST(idempotency_fills_only_an_absent_token) {
    static const char json[] =
        "{\"smithy\": \"2.0\", \"shapes\": {"
        "\"ex#Create\": {\"type\": \"operation\", \"input\": {\"target\": \"ex#CreateInput\"}},"
        "\"ex#CreateInput\": {\"type\": \"structure\", \"members\": {\"Name\": {\"target\": \"smithy.api#String\"},"
        "  \"ClientToken\": {\"target\": \"smithy.api#String\", \"traits\": {\"smithy.api#idempotencyToken\": {}}}}},"
        "\"ex#Get\": {\"type\": \"operation\"}}}";
    struct anvil_model *m = NULL;
    struct anvil_arena *arena = NULL;
    struct anvil_json_doc *input = NULL, *given = NULL;
    struct anvil_buf text;
    anvil_buf_init(&text, t->alloc, 0);
    struct anvil_env zeros = {NULL, NULL, NULL, s_zero_bytes, NULL};
    const struct anvil_json *out = NULL;
    bool filled = false;
    CHECK_OK(anvil_model_load(t->alloc, json, strlen(json), NULL, &m, NULL));
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    CHECK_OK(anvil_json_parse(t->alloc, "{\"Name\": \"n\"}", 13, NULL, &input, NULL));
    const struct anvil_shape *create = anvil_model_find(m, "ex#Create", 9);
    CHECK_OK(anvil_idempotency_fill(create, anvil_json_doc_root(input), &zeros, arena, &out, &filled));
    CHECK(filled);
    CHECK_OK(anvil_json_write(out, 0, &text));
    CHECK_STR_EQ(text.data, "{\"Name\":\"n\",\"ClientToken\":\"00000000-0000-4000-8000-000000000000\"}");
    /* An explicit value, even "", is kept: the same input comes back. */
    CHECK_OK(anvil_json_parse(t->alloc, "{\"ClientToken\": \"\"}", 19, NULL, &given, NULL));
    CHECK_OK(anvil_idempotency_fill(create, anvil_json_doc_root(given), &zeros, arena, &out, &filled));
    CHECK(!filled && out == anvil_json_doc_root(given));
    /* An operation without a token member passes through; so does a NULL input (filled as {}). */
    CHECK_OK(anvil_idempotency_fill(anvil_model_find(m, "ex#Get", 6), NULL, &zeros, arena, &out, &filled));
    CHECK(!filled && out == NULL);
    CHECK_OK(anvil_idempotency_fill(create, NULL, &zeros, arena, &out, &filled));
    CHECK(filled);
done:
    anvil_json_doc_destroy(input);
    anvil_json_doc_destroy(given);
    anvil_arena_destroy(arena);
    anvil_model_destroy(m);
    anvil_buf_clean_up(&text);
}
