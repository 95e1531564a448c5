#ifndef ANVIL_LOG_H
#define ANVIL_LOG_H

/**
 * Logging hook. anvil is silent unless given a logger: anvil_log() writes
 * through the logger it is handed, NULL meaning the process-wide default
 * set with anvil_logger_set_default(), which itself is "nothing" until set.
 * No object of anvil logs on its own today: a client reports each attempt
 * through its `debug` callback (anvil_client_options), a wait through its
 * observer (anvil_wait_call), and failures through return codes and diags.
 * Secrets (keys, signatures, tokens) are never logged or reported.
 */

#include <stdarg.h>

#include "anvil/common.h"

ANVIL_EXTERN_C_BEGIN

enum anvil_log_level {
    ANVIL_LOG_NONE = 0,
    ANVIL_LOG_ERROR = 1,
    ANVIL_LOG_WARN = 2,
    ANVIL_LOG_INFO = 3,
    ANVIL_LOG_DEBUG = 4,
    ANVIL_LOG_TRACE = 5
};

/**
 * Receives one formatted message. `subject` names the part of anvil speaking
 * ("waiter", "retry", "http"). `message` is NUL-terminated and only valid
 * during the call. May be called from any thread that uses anvil.
 */
typedef void anvil_log_fn(void *user_data, enum anvil_log_level level, const char *subject, const char *message);

struct anvil_logger {
    anvil_log_fn *log;
    void *user_data;
    /** Messages above this level are dropped before they are formatted. */
    enum anvil_log_level level;
};

/** Longest message passed to a log callback; longer ones are cut and end in "...". */
#define ANVIL_LOG_MESSAGE_MAX 1024

/**
 * Sets the process-wide default logger (NULL = silent again). anvil keeps the
 * pointer, not a copy: the logger must stay valid until replaced. The pointer
 * is stored atomically, so this is thread-safe.
 */
ANVIL_API void anvil_logger_set_default(const struct anvil_logger *logger);

/** The default logger, or NULL when none is set. */
ANVIL_API const struct anvil_logger *anvil_logger_get_default(void);

/** True when `logger` (NULL = the default) would pass a message of `level`. */
ANVIL_API bool anvil_log_enabled(const struct anvil_logger *logger, enum anvil_log_level level);

/** Formats and delivers a message when the level is enabled. */
ANVIL_API void anvil_log(const struct anvil_logger *logger, enum anvil_log_level level, const char *subject,
                         const char *fmt, ...) ANVIL_PRINTF(4, 5);

/** anvil_log() with a va_list. */
ANVIL_API void anvil_vlog(const struct anvil_logger *logger, enum anvil_log_level level, const char *subject,
                          const char *fmt, va_list args) ANVIL_PRINTF(4, 0);

/** "error", "warn", "info", "debug", "trace" or "none". */
ANVIL_API const char *anvil_log_level_name(enum anvil_log_level level);

/**
 * A ready-made callback that writes "anvil: LEVEL: SUBJECT: MESSAGE\n" to the
 * FILE * passed as user_data (stderr when NULL), in one write per message.
 */
ANVIL_API void anvil_log_to_stream(void *user_data, enum anvil_log_level level, const char *subject,
                                   const char *message);

ANVIL_EXTERN_C_END

#endif
