#ifndef ANVIL_IDEMPOTENCY_H
#define ANVIL_IDEMPOTENCY_H

/**
 * Idempotency tokens (`smithy.api#idempotencyToken`): a UUID v4 from the
 * env's random bytes, filled into the input once per logical call, before
 * the retry loop, and only when the member is absent (an explicit value,
 * even "", is kept). Every attempt of the call then carries the same token.
 */

#include "anvil/env.h"
#include "anvil/json.h"
#include "anvil/model.h"
#include "anvil/status.h"

ANVIL_EXTERN_C_BEGIN

#define ANVIL_UUID_LENGTH 36

/**
 * Writes a UUID v4 (lowercase, 8-4-4-4-12) and a NUL into `out` (at least
 * 37 bytes): 16 random bytes with the version (4) and variant (10) bits set,
 * so all-zero randomness gives 00000000-0000-4000-8000-000000000000.
 * ANVIL_OK or the random source's error.
 */
ANVIL_API int anvil_uuid_v4(const struct anvil_env *env, char out[ANVIL_UUID_LENGTH + 1]);

/**
 * Fills the idempotency token of `operation`'s input: when the input lacks
 * the member, stores in `*out` a copy of `input` (NULL = {}) with it set to
 * a new UUID v4 (built in `arena`) and in `*filled` true; otherwise `*out`
 * is `input` itself and `*filled` false. Operations without a token member
 * pass through. ANVIL_EINVAL when the input is not an object, ANVIL_ENOMEM.
 */
ANVIL_API int anvil_idempotency_fill(const struct anvil_shape *operation, const struct anvil_json *input,
                                     const struct anvil_env *env, struct anvil_arena *arena,
                                     const struct anvil_json **out, bool *filled);

ANVIL_EXTERN_C_END

#endif
