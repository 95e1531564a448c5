/*
 * Request compression: the spec's decision (behaviour traits,
 * requestCompression) and gzip, with libdeflate for whole buffers and zlib
 * for streams.
 */

#include <libdeflate.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "anvil/compress.h"

void anvil_compression_settings_init(struct anvil_compression_settings *s) {
    s->disabled = -1;
    s->min_size = -1;
}

static const char *s_getenv(void *ctx, const char *name) {
    (void)ctx;
    return getenv(name);
}

int anvil_compression_settings_from_env(struct anvil_compression_settings *out, anvil_getenv_fn *lookup, void *ctx,
                                        struct anvil_diag *diag) {
    anvil_compression_settings_init(out);
    lookup = lookup ? lookup : s_getenv;
    const char *disabled = lookup(ctx, "AWS_DISABLE_REQUEST_COMPRESSION");
    if (disabled) {
        if (strcasecmp(disabled, "true") == 0) {
            out->disabled = 1;
        } else if (strcasecmp(disabled, "false") == 0) {
            out->disabled = 0;
        } else {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                  "invalid value \"%.64s\" for AWS_DISABLE_REQUEST_COMPRESSION: must be true or false",
                                  disabled);
        }
    }
    const char *min = lookup(ctx, "AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES");
    if (min) {
        uint64_t n;
        if (anvil_sv_parse_u64(anvil_sv_from_cstr(min), ANVIL_COMPRESSION_MAX_MIN_SIZE, &n) != ANVIL_OK) {
            return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                                  "invalid value \"%.64s\" for AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES: must be an "
                                  "integer from 0 to %d",
                                  min, ANVIL_COMPRESSION_MAX_MIN_SIZE);
        }
        out->min_size = (int64_t)n;
    }
    return ANVIL_OK;
}

static int s_check_min(const struct anvil_compression_settings *s, const char *level, struct anvil_diag *diag) {
    if (s && s->min_size != -1 && (s->min_size < 0 || s->min_size > ANVIL_COMPRESSION_MAX_MIN_SIZE)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0,
                              "invalid %s minimum compression size %lld: must be from 0 to %d bytes", level,
                              (long long)s->min_size, ANVIL_COMPRESSION_MAX_MIN_SIZE);
    }
    return ANVIL_OK;
}

ANVIL_PRINTF(2, 3)
static void s_reason(struct anvil_compression_decision *d, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(d->reason, sizeof d->reason, fmt, args);
    va_end(args);
}

int anvil_compression_decide(const struct anvil_compression_settings *client,
                             const struct anvil_compression_settings *req_settings,
                             const struct anvil_compression_request *req, struct anvil_compression_decision *d,
                             struct anvil_buf *content_encoding, struct anvil_diag *diag) {
    memset(d, 0, sizeof *d);
    int rc = s_check_min(client, "client", diag);
    if (rc == ANVIL_OK) {
        rc = s_check_min(req_settings, "request", diag);
    }
    if (rc != ANVIL_OK || !req) {
        return rc != ANVIL_OK ? rc : ANVIL_EINVAL;
    }
    /* The request's settings beat the client's; unset falls through to the default. */
    int disabled = req_settings && req_settings->disabled != -1 ? req_settings->disabled
                   : client && client->disabled != -1           ? client->disabled
                                                                : 0;
    int64_t min = req_settings && req_settings->min_size != -1 ? req_settings->min_size
                  : client && client->min_size != -1           ? client->min_size
                                                               : ANVIL_COMPRESSION_DEFAULT_MIN_SIZE;
    if (disabled) {
        s_reason(d, "compression is disabled");
        return ANVIL_OK;
    }
    if (!anvil_json_is_array(req->encodings)) {
        s_reason(d, "the operation has no @requestCompression");
        return ANVIL_OK;
    }
    /* The first encoding the client supports, in the trait's order: only gzip is defined. */
    for (size_t i = 0; i < anvil_json_len(req->encodings) && !d->encoding; i++) {
        const struct anvil_json *e = anvil_json_array_at(req->encodings, i);
        if (anvil_json_is_string(e) && strcasecmp(anvil_json_string_ptr(e), "gzip") == 0 && anvil_json_len(e) == 4) {
            d->encoding = "gzip";
        }
    }
    if (!d->encoding) {
        s_reason(d, "no encoding the client supports");
        return ANVIL_OK;
    }
    if (req->streaming && !req->requires_length) {
        s_reason(d, "a streaming body without @requiresLength is always compressed");
    } else if (req->streaming) {
        d->encoding = NULL;
        s_reason(d, "a streaming body with @requiresLength cannot be compressed");
        return ANVIL_OK;
    } else if ((int64_t)req->body_size < min || (uint64_t)req->body_size > (uint64_t)INT64_MAX) {
        d->encoding = NULL;
        s_reason(d, "the body (%zu bytes) is below the minimum (%lld)", req->body_size, (long long)min);
        return ANVIL_OK;
    } else {
        s_reason(d, "the body (%zu bytes) reaches the minimum (%lld)", req->body_size, (long long)min);
    }
    d->compress = true;
    if (content_encoding) {
        struct anvil_str_view existing = anvil_sv_trim(req->content_encoding);
        if (existing.len) {
            rc = anvil_buf_append_sv(content_encoding, existing);
            if (rc == ANVIL_OK) {
                rc = anvil_buf_append_cstr(content_encoding, ", ");
            }
        }
        if (rc == ANVIL_OK) {
            rc = anvil_buf_append_cstr(content_encoding, d->encoding);
        }
    }
    return rc;
}

int anvil_gzip(const void *in, size_t len, struct anvil_buf *out) {
    if (!out || (!in && len)) {
        return ANVIL_EINVAL;
    }
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    if (!c) {
        return ANVIL_ENOMEM;
    }
    size_t bound = libdeflate_gzip_compress_bound(c, len);
    int rc = anvil_buf_reserve(out, bound);
    if (rc == ANVIL_OK) {
        size_t n = libdeflate_gzip_compress(c, in ? in : "", len, out->data + out->len, bound);
        if (n == 0) {
            rc = ANVIL_EINTERNAL; /* cannot happen: the bound always fits */
        } else {
            out->len += n;
            out->data[out->len] = '\0';
        }
    }
    libdeflate_free_compressor(c);
    return rc;
}

int anvil_gzip_stream_init(struct anvil_gzip_stream *s) {
    memset(s, 0, sizeof *s);
    z_stream *z = calloc(1, sizeof *z);
    if (!z) {
        return ANVIL_ENOMEM;
    }
    /* windowBits 15 + 16: a gzip wrapper; level 6 as the whole-buffer path. */
    if (deflateInit2(z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(z);
        return ANVIL_ENOMEM;
    }
    s->z = z;
    return ANVIL_OK;
}

static int s_pump(z_stream *z, int flush, struct anvil_buf *out) {
    for (;;) {
        int rc = anvil_buf_reserve(out, 16384);
        if (rc != ANVIL_OK) {
            return rc;
        }
        size_t room = out->capacity - out->len - 1;
        z->next_out = (unsigned char *)out->data + out->len;
        z->avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
        int zr = deflate(z, flush);
        out->len += (size_t)((unsigned char *)z->next_out - ((unsigned char *)out->data + out->len));
        out->data[out->len] = '\0';
        if (zr == Z_STREAM_END) {
            return ANVIL_OK;
        }
        if (zr != Z_OK && zr != Z_BUF_ERROR) {
            return ANVIL_EINTERNAL;
        }
        if (z->avail_out != 0 && (flush == Z_NO_FLUSH ? z->avail_in == 0 : false)) {
            return ANVIL_OK;
        }
    }
}

int anvil_gzip_stream_write(struct anvil_gzip_stream *s, const void *in, size_t len, struct anvil_buf *out) {
    if (!s->z || s->finished) {
        return ANVIL_EINVAL;
    }
    z_stream *z = s->z;
    const unsigned char *p = in;
    while (len > 0) {
        size_t chunk = len > UINT32_MAX ? UINT32_MAX : len;
        z->next_in = (unsigned char *)(uintptr_t)p;
        z->avail_in = (uInt)chunk;
        int rc = s_pump(z, Z_NO_FLUSH, out);
        if (rc != ANVIL_OK) {
            return rc;
        }
        p += chunk;
        len -= chunk;
    }
    return ANVIL_OK;
}

int anvil_gzip_stream_finish(struct anvil_gzip_stream *s, struct anvil_buf *out) {
    if (!s->z || s->finished) {
        return ANVIL_EINVAL;
    }
    z_stream *z = s->z;
    z->next_in = NULL;
    z->avail_in = 0;
    int rc = s_pump(z, Z_FINISH, out);
    s->finished = rc == ANVIL_OK;
    return rc;
}

void anvil_gzip_stream_clean_up(struct anvil_gzip_stream *s) {
    if (s && s->z) {
        deflateEnd(s->z);
        free(s->z);
        s->z = NULL;
    }
}
