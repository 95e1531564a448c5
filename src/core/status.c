#include "anvil/status.h"

#include "core/core_internal.h"

/* One table, indexed by -status, so names and texts cannot drift apart. */
static const struct {
    const char *name;
    const char *text;
} s_statuses[] = {
    {"ANVIL_OK", "success"},
    {"ANVIL_ENOMEM", "out of memory"},
    {"ANVIL_EINVAL", "invalid argument"},
    {"ANVIL_ELIMIT", "limit exceeded"},
    {"ANVIL_ESYNTAX", "syntax error"},
    {"ANVIL_ETYPE", "invalid type"},
    {"ANVIL_EARITY", "invalid arity"},
    {"ANVIL_EVALUE", "invalid value"},
    {"ANVIL_ENOTFOUND", "not found"},
    {"ANVIL_EMODEL", "invalid model"},
    {"ANVIL_ECONFIG", "invalid configuration"},
    {"ANVIL_EIO", "input/output error"},
    {"ANVIL_ETRANSPORT", "transport error"},
    {"ANVIL_ESERVICE", "service error"},
    {"ANVIL_ETIMEDOUT", "timed out"},
    {"ANVIL_ECANCELED", "cancelled"},
    {"ANVIL_EQUOTA", "retry quota exhausted"},
    {"ANVIL_EUNSUPPORTED", "not supported"},
    {"ANVIL_EINTERNAL", "internal error"},
};

_Static_assert(ANVIL_ARRAY_LEN(s_statuses) == (size_t)(-ANVIL_STATUS_MIN) + 1,
               "every status code needs a name and a text");

static bool s_known(int status) {
    return status <= 0 && status >= ANVIL_STATUS_MIN;
}

const char *anvil_status_name(int status) {
    return s_known(status) ? s_statuses[-status].name : "ANVIL_E_UNKNOWN";
}

const char *anvil_status_str(int status) {
    return s_known(status) ? s_statuses[-status].text : "unknown status code";
}
