#ifndef ANVIL_COMPRESS_H
#define ANVIL_COMPRESS_H

/**
 * Request compression (`smithy.api#requestCompression`): the decision the
 * spec describes (disabled, min size, first supported encoding, streaming
 * members without @requiresLength, `Content-Encoding` appended after the
 * caller's encodings) and gzip itself: libdeflate for whole buffers (the
 * faster: bench/compress, docs/performance.md), zlib for streams.
 * Compress once per operation, before signing, and send the same bytes on
 * every retry attempt. docs/compression.md.
 */

#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/json.h"
#include "anvil/status.h"

ANVIL_EXTERN_C_BEGIN

#define ANVIL_COMPRESSION_DEFAULT_MIN_SIZE 10240
#define ANVIL_COMPRESSION_MAX_MIN_SIZE 10485760

/** Settings at one level (client, or one request); -1 = not set at this level. */
struct anvil_compression_settings {
    /** 1 disables compression, 0 enables it, -1 leaves it to the level below (default: enabled). */
    int disabled;
    /** Bodies smaller than this are sent as they are: 0..10485760, or -1 (default 10240). */
    int64_t min_size;
};

/** Both fields unset. */
ANVIL_API void anvil_compression_settings_init(struct anvil_compression_settings *settings);

/** Looks a variable up (NULL when unset); `ctx` is the caller's. */
typedef const char *anvil_getenv_fn(void *ctx, const char *name);

/**
 * Reads AWS_DISABLE_REQUEST_COMPRESSION ("true"/"false", any case) and
 * AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES (an integer from 0 to 10485760)
 * through `lookup` (NULL = getenv). ANVIL_EINVAL with `diag` naming the
 * variable, the value and the accepted range.
 */
ANVIL_API int anvil_compression_settings_from_env(struct anvil_compression_settings *out, anvil_getenv_fn *lookup,
                                                  void *ctx, struct anvil_diag *diag);

/** What the decision needs to know about one request. */
struct anvil_compression_request {
    /** The operation's `encodings` (a JSON array of strings); NULL when it has no @requestCompression. */
    const struct anvil_json *encodings;
    /** The serialized body's size in bytes (ignored for streaming bodies). */
    size_t body_size;
    /** The body is a @streaming member; `requires_length` when it is also @requiresLength. */
    bool streaming;
    bool requires_length;
    /** The `Content-Encoding` the request already carries (empty when none). */
    struct anvil_str_view content_encoding;
};

struct anvil_compression_decision {
    bool compress;
    /** The encoding chosen ("gzip"), or NULL. */
    const char *encoding;
    /** Why, in words ("compression is disabled", "the body (512 bytes) is below the minimum (10240)", ...). */
    char reason[128];
};

/**
 * Decides for one request. `request_settings` (may be NULL) beats
 * `client_settings` (may be NULL) field by field. When compressing, appends
 * the new `Content-Encoding` value to `content_encoding` (may be NULL): the
 * caller's encodings, then ", gzip". ANVIL_EINVAL (a min size out of
 * range, named in diag), ANVIL_ENOMEM.
 */
ANVIL_API int anvil_compression_decide(const struct anvil_compression_settings *client_settings,
                                       const struct anvil_compression_settings *request_settings,
                                       const struct anvil_compression_request *request,
                                       struct anvil_compression_decision *decision, struct anvil_buf *content_encoding,
                                       struct anvil_diag *diag);

/** Gzips `len` bytes of `in` (level 6) and appends the result to `out`. ANVIL_ENOMEM, ANVIL_ELIMIT. */
ANVIL_API int anvil_gzip(const void *in, size_t len, struct anvil_buf *out);

/** A gzip stream (zlib), for bodies that arrive in pieces. */
struct anvil_gzip_stream {
    void *z;
    bool finished;
};

ANVIL_API int anvil_gzip_stream_init(struct anvil_gzip_stream *stream);

/** Compresses `len` more bytes, appending whatever output is ready to `out`. */
ANVIL_API int anvil_gzip_stream_write(struct anvil_gzip_stream *stream, const void *in, size_t len,
                                      struct anvil_buf *out);

/** Ends the stream, appending the rest and the gzip trailer. */
ANVIL_API int anvil_gzip_stream_finish(struct anvil_gzip_stream *stream, struct anvil_buf *out);

ANVIL_API void anvil_gzip_stream_clean_up(struct anvil_gzip_stream *stream);

ANVIL_EXTERN_C_END

#endif
