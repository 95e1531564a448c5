#include "anvil/version.h"

const char *anvil_version_string(void) {
    return ANVIL_VERSION_STRING;
}

int anvil_version_number(void) {
    return ANVIL_VERSION_MAJOR * 10000 + ANVIL_VERSION_MINOR * 100 + ANVIL_VERSION_PATCH;
}
