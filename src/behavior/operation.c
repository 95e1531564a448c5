/*
 * What every transport of an operation shares: the error code as waiters
 * and retries compare it.
 */

#include "anvil/operation.h"

struct anvil_str_view anvil_error_code_normalize(struct anvil_str_view code) {
    /* "ns#Code:suffix" -> "Code": the suffix first, since a URL suffix may hold '#'. */
    size_t colon = anvil_sv_find_byte(code, 0, ':');
    if (colon != SIZE_MAX) {
        code.len = colon;
    }
    for (size_t i = code.len; i > 0; i--) {
        if (code.ptr[i - 1] == '#') {
            return anvil_sv_slice(code, i, code.len - i);
        }
    }
    return code;
}
