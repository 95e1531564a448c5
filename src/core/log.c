#include "anvil/log.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static _Atomic(const struct anvil_logger *) s_default_logger;

void anvil_logger_set_default(const struct anvil_logger *logger) {
    atomic_store_explicit(&s_default_logger, logger, memory_order_release);
}

const struct anvil_logger *anvil_logger_get_default(void) {
    return atomic_load_explicit(&s_default_logger, memory_order_acquire);
}

static const struct anvil_logger *s_resolve(const struct anvil_logger *logger) {
    return logger ? logger : anvil_logger_get_default();
}

bool anvil_log_enabled(const struct anvil_logger *logger, enum anvil_log_level level) {
    logger = s_resolve(logger);
    return logger && logger->log && level != ANVIL_LOG_NONE && level <= logger->level;
}

void anvil_vlog(const struct anvil_logger *logger, enum anvil_log_level level, const char *subject, const char *fmt,
                va_list args) {
    logger = s_resolve(logger);
    if (!anvil_log_enabled(logger, level)) {
        return;
    }
    char message[ANVIL_LOG_MESSAGE_MAX];
    int n = vsnprintf(message, sizeof(message), fmt, args);
    if (n < 0) {
        strcpy(message, "(unformattable log message)");
    } else if ((size_t)n >= sizeof(message)) {
        memcpy(message + sizeof(message) - 4, "...", 4);
    }
    logger->log(logger->user_data, level, subject ? subject : "anvil", message);
}

void anvil_log(const struct anvil_logger *logger, enum anvil_log_level level, const char *subject, const char *fmt,
               ...) {
    va_list args;
    va_start(args, fmt);
    anvil_vlog(logger, level, subject, fmt, args);
    va_end(args);
}

const char *anvil_log_level_name(enum anvil_log_level level) {
    switch (level) {
    case ANVIL_LOG_ERROR:
        return "error";
    case ANVIL_LOG_WARN:
        return "warn";
    case ANVIL_LOG_INFO:
        return "info";
    case ANVIL_LOG_DEBUG:
        return "debug";
    case ANVIL_LOG_TRACE:
        return "trace";
    case ANVIL_LOG_NONE:
        break;
    }
    return "none";
}

void anvil_log_to_stream(void *user_data, enum anvil_log_level level, const char *subject, const char *message) {
    FILE *stream = user_data ? user_data : stderr;
    char line[ANVIL_LOG_MESSAGE_MAX + 128];
    int n = snprintf(line, sizeof(line), "anvil: %s: %s: %s\n", anvil_log_level_name(level), subject, message);
    if (n > 0) {
        size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
        fwrite(line, 1, len, stream);
        fflush(stream);
    }
}
