#include "harness.h"

struct s_captured {
    int calls;
    enum anvil_log_level level;
    char subject[32];
    char message[ANVIL_LOG_MESSAGE_MAX];
};

static void s_capture(void *user_data, enum anvil_log_level level, const char *subject, const char *message) {
    struct s_captured *c = user_data;
    c->calls++;
    c->level = level;
    snprintf(c->subject, sizeof(c->subject), "%s", subject);
    snprintf(c->message, sizeof(c->message), "%s", message);
}

TEST(log_is_silent_by_default) {
    CHECK(anvil_logger_get_default() == NULL);
    CHECK(!anvil_log_enabled(NULL, ANVIL_LOG_ERROR));
    anvil_log(NULL, ANVIL_LOG_ERROR, "test", "nobody hears this %d", 1);
done:;
}

TEST(log_filters_by_level_and_formats) {
    struct s_captured c = {0};
    struct anvil_logger logger = {s_capture, &c, ANVIL_LOG_INFO};
    CHECK(anvil_log_enabled(&logger, ANVIL_LOG_WARN));
    CHECK(!anvil_log_enabled(&logger, ANVIL_LOG_DEBUG));
    CHECK(!anvil_log_enabled(&logger, ANVIL_LOG_NONE));
    anvil_log(&logger, ANVIL_LOG_DEBUG, "waiter", "dropped");
    CHECK_EQ_INT(c.calls, 0);
    anvil_log(&logger, ANVIL_LOG_INFO, "waiter", "attempt %d", 3);
    CHECK_EQ_INT(c.calls, 1);
    CHECK_EQ_INT(c.level, ANVIL_LOG_INFO);
    CHECK_STR_EQ(c.subject, "waiter");
    CHECK_STR_EQ(c.message, "attempt 3");
    anvil_log(&logger, ANVIL_LOG_ERROR, NULL, "x");
    CHECK_STR_EQ(c.subject, "anvil");
done:;
}

TEST(log_default_logger_is_used_for_null) {
    struct s_captured c = {0};
    struct anvil_logger logger = {s_capture, &c, ANVIL_LOG_TRACE};
    anvil_logger_set_default(&logger);
    anvil_log(NULL, ANVIL_LOG_TRACE, "retry", "via default");
    anvil_logger_set_default(NULL);
    anvil_log(NULL, ANVIL_LOG_TRACE, "retry", "after reset");
    CHECK_EQ_INT(c.calls, 1);
    CHECK_STR_EQ(c.message, "via default");
done:;
}

TEST(log_long_message_is_cut_with_ellipsis) {
    struct s_captured c = {0};
    struct anvil_logger logger = {s_capture, &c, ANVIL_LOG_INFO};
    char big[3000];
    memset(big, 'm', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    anvil_log(&logger, ANVIL_LOG_INFO, "x", "%s", big);
    size_t len = strlen(c.message);
    CHECK_EQ_U64(len, ANVIL_LOG_MESSAGE_MAX - 1);
    CHECK(strcmp(c.message + len - 3, "...") == 0);
done:;
}

TEST(log_level_names) {
    CHECK_STR_EQ(anvil_log_level_name(ANVIL_LOG_ERROR), "error");
    CHECK_STR_EQ(anvil_log_level_name(ANVIL_LOG_WARN), "warn");
    CHECK_STR_EQ(anvil_log_level_name(ANVIL_LOG_INFO), "info");
    CHECK_STR_EQ(anvil_log_level_name(ANVIL_LOG_DEBUG), "debug");
    CHECK_STR_EQ(anvil_log_level_name(ANVIL_LOG_TRACE), "trace");
    CHECK_STR_EQ(anvil_log_level_name(ANVIL_LOG_NONE), "none");
done:;
}

TEST(log_to_stream_writes_one_line) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    anvil_log_to_stream(f, ANVIL_LOG_WARN, "waiter", "deprecated waiter");
    rewind(f);
    char line[128] = {0};
    CHECK(fgets(line, sizeof(line), f) != NULL);
    CHECK_STR_EQ(line, "anvil: warn: waiter: deprecated waiter\n");
done:
    if (f) {
        fclose(f);
    }
}
