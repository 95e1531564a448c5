#include "harness.h"

TEST(buffer_append_and_view) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    CHECK(anvil_buf_view(&buf).len == 0);
    CHECK_OK(anvil_buf_append_cstr(&buf, "hello"));
    CHECK_OK(anvil_buf_append_byte(&buf, ' '));
    CHECK_OK(anvil_buf_append_sv(&buf, ANVIL_SV("world")));
    CHECK_OK(anvil_buf_append(&buf, "\0!", 2));
    CHECK_MEM_EQ(buf.data, buf.len, "hello world\0!");
    CHECK(buf.data[buf.len] == '\0');
done:
    anvil_buf_clean_up(&buf);
}

TEST(buffer_appendf_short_and_long) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    CHECK_OK(anvil_buf_appendf(&buf, "%d-%s", 42, "x"));
    CHECK_STR_EQ(buf.data, "42-x");
    char big[1000];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    CHECK_OK(anvil_buf_appendf(&buf, "[%s]", big));
    CHECK_EQ_U64(buf.len, 4 + 2 + 999);
    CHECK(buf.data[5] == 'a' && buf.data[buf.len - 1] == ']' && buf.data[buf.len] == '\0');
done:
    anvil_buf_clean_up(&buf);
}

TEST(buffer_cap_is_enforced_exactly) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 10);
    CHECK_OK(anvil_buf_append(&buf, "0123456789", 10));
    CHECK_STATUS(anvil_buf_append_byte(&buf, 'x'), ANVIL_ELIMIT);
    CHECK_EQ_U64(buf.len, 10);
    CHECK_MEM_EQ(buf.data, buf.len, "0123456789");
    anvil_buf_truncate(&buf, 4);
    CHECK_STATUS(anvil_buf_appendf(&buf, "%s", "toolong"), ANVIL_ELIMIT);
    CHECK_MEM_EQ(buf.data, buf.len, "0123");
    CHECK_STATUS(anvil_buf_reserve(&buf, SIZE_MAX), ANVIL_ELIMIT);
    CHECK(buf.capacity <= 11);
done:
    anvil_buf_clean_up(&buf);
}

TEST(buffer_growth_keeps_contents) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    for (int i = 0; i < 10000; i++) {
        CHECK_OK(anvil_buf_append_byte(&buf, (char)('a' + i % 26)));
    }
    CHECK_EQ_U64(buf.len, 10000);
    for (int i = 0; i < 10000; i++) {
        CHECK(buf.data[i] == (char)('a' + i % 26));
    }
done:
    anvil_buf_clean_up(&buf);
}

TEST(buffer_steal_hands_over_the_bytes) {
    struct anvil_buf buf;
    char *s = NULL;
    size_t len = 99;
    anvil_buf_init(&buf, t->alloc, 0);
    s = anvil_buf_steal(&buf, &len);
    CHECK_ALLOC(s);
    CHECK_STR_EQ(s, "");
    CHECK_EQ_U64(len, 0);
    anvil_mem_release(t->alloc, s);
    s = NULL;
    CHECK_OK(anvil_buf_append_cstr(&buf, "abc"));
    s = anvil_buf_steal(&buf, &len);
    CHECK_ALLOC(s);
    CHECK_STR_EQ(s, "abc");
    CHECK_EQ_U64(len, 3);
    CHECK(buf.data == NULL && buf.len == 0);
done:
    anvil_mem_release(t->alloc, s);
    anvil_buf_clean_up(&buf);
}

TEST(buffer_clear_and_clean_up_are_reusable) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, 0);
    CHECK_OK(anvil_buf_append_cstr(&buf, "abc"));
    anvil_buf_clear(&buf);
    CHECK_EQ_U64(buf.len, 0);
    CHECK_STR_EQ(buf.data, "");
    anvil_buf_truncate(&buf, 100);
    CHECK_EQ_U64(buf.len, 0);
    anvil_buf_clean_up(&buf);
    anvil_buf_clean_up(&buf);
    CHECK_OK(anvil_buf_append_cstr(&buf, "again"));
    CHECK_STR_EQ(buf.data, "again");
done:
    anvil_buf_clean_up(&buf);
}

TEST(buffer_huge_max_len_does_not_wrap) {
    struct anvil_buf buf;
    anvil_buf_init(&buf, t->alloc, SIZE_MAX);
    CHECK(buf.max_len == SIZE_MAX - 1);
    CHECK_OK(anvil_buf_append_cstr(&buf, "x"));
    CHECK(buf.capacity >= 2);
done:
    anvil_buf_clean_up(&buf);
}
