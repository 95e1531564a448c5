#ifndef ANVIL_STATUS_H
#define ANVIL_STATUS_H

/**
 * Status codes. Every fallible anvil function returns an int: ANVIL_OK (0) on
 * success or one of the negative ANVIL_E* codes below. There is no hidden
 * "last error": the code is the return value, and parsers and validators say
 * where with a struct anvil_diag (see diag.h). Values are stable across
 * releases; new codes are only ever appended.
 */

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

enum anvil_status {
    ANVIL_OK = 0,
    /** An allocation failed (the allocator returned NULL). */
    ANVIL_ENOMEM = -1,
    /** An argument broke the function's contract (NULL where not allowed, bad flag). */
    ANVIL_EINVAL = -2,
    /** A configured limit was crossed: size, depth, length, count, attempts. */
    ANVIL_ELIMIT = -3,
    /** Input text is malformed: JSON, JMESPath or model syntax. */
    ANVIL_ESYNTAX = -4,
    /** A value had the wrong type (JMESPath invalid-type, a trait of the wrong shape). */
    ANVIL_ETYPE = -5,
    /** A function was called with the wrong number of arguments (JMESPath invalid-arity). */
    ANVIL_EARITY = -6,
    /** A value was of the right type but not allowed (JMESPath invalid-value, out of range). */
    ANVIL_EVALUE = -7,
    /** A name does not exist: unknown function, shape, waiter, operation, profile. */
    ANVIL_ENOTFOUND = -8,
    /** A Smithy or botocore model is invalid. */
    ANVIL_EMODEL = -9,
    /**
     * The machine's configuration is missing or wrong: no region or
     * credentials, a profile no file defines, a credentials or config file
     * that cannot be read, a bad setting in the environment.
     */
    ANVIL_ECONFIG = -10,
    /** Reading or writing a file or stream failed. */
    ANVIL_EIO = -11,
    /** A connection could not be made, or broke, or the peer spoke nonsense. */
    ANVIL_ETRANSPORT = -12,
    /** The service answered with an error. */
    ANVIL_ESERVICE = -13,
    /** A deadline passed. */
    ANVIL_ETIMEDOUT = -14,
    /** The caller cancelled the operation. */
    ANVIL_ECANCELED = -15,
    /** The retry quota has no capacity left for another attempt. */
    ANVIL_EQUOTA = -16,
    /** The request is valid but anvil does not support it (e.g. a protocol not implemented). */
    ANVIL_EUNSUPPORTED = -17,
    /** An internal invariant broke: a bug in anvil. Please report it. */
    ANVIL_EINTERNAL = -18
};

/** The smallest (most negative) status code this version defines. */
#define ANVIL_STATUS_MIN ANVIL_EINTERNAL

/**
 * The code's symbolic name, e.g. "ANVIL_ENOMEM". Unknown codes give
 * "ANVIL_E_UNKNOWN". Static storage, never NULL. Thread-safe.
 */
ANVIL_API const char *anvil_status_name(int status);

/**
 * A short human description, e.g. "out of memory". Unknown codes give
 * "unknown status code". Static storage, never NULL. Thread-safe.
 */
ANVIL_API const char *anvil_status_str(int status);

ANVIL_EXTERN_C_END

#endif
