#ifndef ANVIL_VERSION_H
#define ANVIL_VERSION_H

/**
 * Version of the anvil headers. anvil_version_string() gives the version of
 * the library actually linked, which may differ when the library is shared.
 * CMakeLists.txt reads these three lines, so keep their shape.
 */
#define ANVIL_VERSION_MAJOR 0
#define ANVIL_VERSION_MINOR 1
#define ANVIL_VERSION_PATCH 0

#define ANVIL_VERSION_STRING "0.1.0"

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

/** The linked library's version as "MAJOR.MINOR.PATCH"; static storage. Thread-safe. */
ANVIL_API const char *anvil_version_string(void);

/** The linked library's version as MAJOR * 10000 + MINOR * 100 + PATCH. Thread-safe. */
ANVIL_API int anvil_version_number(void);

ANVIL_EXTERN_C_END

#endif
