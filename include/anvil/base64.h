#ifndef ANVIL_BASE64_H
#define ANVIL_BASE64_H

/**
 * Base64 (RFC 4648, standard alphabet, padded), as blobs travel in JSON
 * bodies, query strings, headers and XML, and as the Smithy data model
 * holds them. Thread-safe.
 */

#include "anvil/buffer.h"
#include "anvil/str_view.h"

ANVIL_EXTERN_C_BEGIN

/** Appends `len` bytes as base64. ANVIL_ENOMEM, ANVIL_ELIMIT (the buffer's cap). */
ANVIL_API int anvil_base64_encode(struct anvil_buf *out, const void *bytes, size_t len);

/**
 * Appends the bytes `text` encodes. Strict: padding required, no white
 * space, no bits left over, so one value has one text. ANVIL_EVALUE when
 * `text` is not such base64 (the buffer may then hold part of it),
 * ANVIL_ENOMEM, ANVIL_ELIMIT.
 */
ANVIL_API int anvil_base64_decode(struct anvil_buf *out, struct anvil_str_view text);

ANVIL_EXTERN_C_END

#endif
