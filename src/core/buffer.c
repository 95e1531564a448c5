#include "anvil/buffer.h"

#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "core/core_internal.h"

#define S_MIN_CAPACITY ((size_t)64)

void anvil_buf_init(struct anvil_buf *buf, struct anvil_allocator *allocator, size_t max_len) {
    buf->data = NULL;
    buf->len = 0;
    buf->capacity = 0;
    /* SIZE_MAX - 1 at most, so max_len + 1 (room for the NUL) cannot wrap. */
    buf->max_len = max_len == 0 ? ANVIL_BUF_DEFAULT_MAX_LEN : max_len == SIZE_MAX ? SIZE_MAX - 1 : max_len;
    buf->allocator = allocator;
}

void anvil_buf_clean_up(struct anvil_buf *buf) {
    if (buf->data) {
        anvil_mem_release(buf->allocator, buf->data);
    }
    buf->data = NULL;
    buf->len = 0;
    buf->capacity = 0;
}

int anvil_buf_reserve(struct anvil_buf *buf, size_t extra) {
    size_t want;
    if (anvil__size_add(buf->len, extra, &want) || want > buf->max_len) {
        return ANVIL_ELIMIT;
    }
    if (want < buf->capacity) { /* strictly less: one byte stays for the NUL */
        return ANVIL_OK;
    }
    /* Grow by half again, at least to what is needed, never past the cap + NUL. */
    size_t capacity = buf->capacity < S_MIN_CAPACITY ? S_MIN_CAPACITY : buf->capacity + buf->capacity / 2;
    if (capacity < want + 1) {
        capacity = want + 1;
    }
    if (capacity > buf->max_len + 1 || capacity < buf->capacity) {
        capacity = buf->max_len + 1;
    }
    void *data = buf->data;
    if (anvil_mem_realloc(buf->allocator, &data, capacity) != ANVIL_OK) {
        return ANVIL_ENOMEM;
    }
    buf->data = data;
    buf->capacity = capacity;
    buf->data[buf->len] = '\0';
    return ANVIL_OK;
}

int anvil_buf_append(struct anvil_buf *buf, const void *bytes, size_t len) {
    int rc = anvil_buf_reserve(buf, len);
    if (rc != ANVIL_OK) {
        return rc;
    }
    if (len) {
        memcpy(buf->data + buf->len, bytes, len);
    }
    buf->len += len;
    buf->data[buf->len] = '\0';
    return ANVIL_OK;
}

int anvil_buf_append_byte(struct anvil_buf *buf, char byte) {
    return anvil_buf_append(buf, &byte, 1);
}

int anvil_buf_append_cstr(struct anvil_buf *buf, const char *cstr) {
    return anvil_buf_append(buf, cstr, strlen(cstr));
}

int anvil_buf_append_sv(struct anvil_buf *buf, struct anvil_str_view sv) {
    return anvil_buf_append(buf, sv.ptr, sv.len);
}

int anvil_buf_vappendf(struct anvil_buf *buf, const char *fmt, va_list args) {
    va_list measure;
    va_copy(measure, args);
    char small[256];
    int need = vsnprintf(small, sizeof(small), fmt, measure);
    va_end(measure);
    if (need < 0) {
        return ANVIL_EINVAL;
    }
    if ((size_t)need < sizeof(small)) {
        return anvil_buf_append(buf, small, (size_t)need);
    }
    int rc = anvil_buf_reserve(buf, (size_t)need);
    if (rc != ANVIL_OK) {
        return rc;
    }
    vsnprintf(buf->data + buf->len, (size_t)need + 1, fmt, args);
    buf->len += (size_t)need;
    return ANVIL_OK;
}

int anvil_buf_appendf(struct anvil_buf *buf, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int rc = anvil_buf_vappendf(buf, fmt, args);
    va_end(args);
    return rc;
}

void anvil_buf_clear(struct anvil_buf *buf) {
    anvil_buf_truncate(buf, 0);
}

void anvil_buf_truncate(struct anvil_buf *buf, size_t len) {
    if (len < buf->len) {
        buf->len = len;
        buf->data[len] = '\0';
    }
}

struct anvil_str_view anvil_buf_view(const struct anvil_buf *buf) {
    return anvil_sv(buf->data ? buf->data : "", buf->len);
}

char *anvil_buf_steal(struct anvil_buf *buf, size_t *len_out) {
    if (!buf->data && anvil_buf_reserve(buf, 0) != ANVIL_OK) {
        return NULL;
    }
    char *data = buf->data;
    if (len_out) {
        *len_out = buf->len;
    }
    buf->data = NULL;
    buf->len = 0;
    buf->capacity = 0;
    return data;
}
