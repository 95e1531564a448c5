/* Idempotency tokens: UUID v4 from the env, filled once when the member is absent. */

#include <string.h>

#include "anvil/idempotency.h"
#include "anvil/traits.h"

int anvil_uuid_v4(const struct anvil_env *env, char out[ANVIL_UUID_LENGTH + 1]) {
    unsigned char b[16];
    int rc = anvil_env_random_bytes(env, b, sizeof b);
    if (rc != ANVIL_OK) {
        return rc;
    }
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80); /* variant 10 */
    static const char hex[] = "0123456789abcdef";
    size_t at = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            out[at++] = '-';
        }
        out[at++] = hex[b[i] >> 4];
        out[at++] = hex[b[i] & 0x0F];
    }
    out[at] = '\0';
    return ANVIL_OK;
}

int anvil_idempotency_fill(const struct anvil_shape *operation, const struct anvil_json *input,
                           const struct anvil_env *env, struct anvil_arena *arena, const struct anvil_json **out,
                           bool *filled) {
    *filled = false;
    *out = input;
    if (input && !anvil_json_is_object(input)) {
        return ANVIL_EINVAL;
    }
    const struct anvil_member *token = anvil_operation_idempotency_token(operation);
    if (!token || anvil_json_object_get(input, token->name.ptr, token->name.len)) {
        return ANVIL_OK; /* no token member, or the caller gave one (even "") */
    }
    char uuid[ANVIL_UUID_LENGTH + 1];
    int rc = anvil_uuid_v4(env, uuid);
    if (rc != ANVIL_OK) {
        return rc;
    }
    struct anvil_json_builder *b = NULL;
    rc = anvil_json_builder_new(NULL, arena, &b);
    if (rc != ANVIL_OK) {
        return rc;
    }
    anvil_json_builder_begin_object(b);
    for (size_t i = 0; input && i < anvil_json_len(input); i++) {
        const struct anvil_json_member *m = anvil_json_object_at(input, i);
        struct anvil_str_view key = anvil_json_member_key(m);
        anvil_json_builder_key(b, key.ptr, key.len);
        anvil_json_builder_value(b, &m->value);
    }
    anvil_json_builder_key(b, token->name.ptr, token->name.len);
    anvil_json_builder_string(b, uuid, ANVIL_UUID_LENGTH);
    anvil_json_builder_end_object(b);
    struct anvil_json *value = anvil_arena_alloc(arena, sizeof *value, 0);
    rc = value ? anvil_json_builder_finish(b, value) : ANVIL_ENOMEM;
    anvil_json_builder_destroy(b);
    if (rc == ANVIL_OK) {
        *out = value;
        *filled = true;
    }
    return rc;
}
