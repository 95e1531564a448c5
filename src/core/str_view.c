#include "anvil/str_view.h"

#include <string.h>

#include "anvil/status.h"

struct anvil_str_view anvil_sv(const char *ptr, size_t len) {
    return (struct anvil_str_view){ptr ? ptr : "", ptr ? len : 0};
}

struct anvil_str_view anvil_sv_from_cstr(const char *cstr) {
    return cstr ? anvil_sv(cstr, strlen(cstr)) : anvil_sv("", 0);
}

bool anvil_sv_eq(struct anvil_str_view a, struct anvil_str_view b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

bool anvil_sv_eq_cstr(struct anvil_str_view a, const char *cstr) {
    return anvil_sv_eq(a, anvil_sv_from_cstr(cstr));
}

static unsigned char s_lower(unsigned char c) {
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

bool anvil_sv_eq_ascii_nocase(struct anvil_str_view a, struct anvil_str_view b) {
    if (a.len != b.len) {
        return false;
    }
    for (size_t i = 0; i < a.len; i++) {
        if (s_lower((unsigned char)a.ptr[i]) != s_lower((unsigned char)b.ptr[i])) {
            return false;
        }
    }
    return true;
}

int anvil_sv_cmp(struct anvil_str_view a, struct anvil_str_view b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0) {
        return c;
    }
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

bool anvil_sv_starts_with(struct anvil_str_view s, struct anvil_str_view prefix) {
    return s.len >= prefix.len && (prefix.len == 0 || memcmp(s.ptr, prefix.ptr, prefix.len) == 0);
}

bool anvil_sv_ends_with(struct anvil_str_view s, struct anvil_str_view suffix) {
    return s.len >= suffix.len && (suffix.len == 0 || memcmp(s.ptr + s.len - suffix.len, suffix.ptr, suffix.len) == 0);
}

size_t anvil_sv_find_byte(struct anvil_str_view s, size_t from, char c) {
    if (from >= s.len) {
        return SIZE_MAX;
    }
    const char *hit = memchr(s.ptr + from, c, s.len - from);
    return hit ? (size_t)(hit - s.ptr) : SIZE_MAX;
}

struct anvil_str_view anvil_sv_slice(struct anvil_str_view s, size_t start, size_t len) {
    if (start > s.len) {
        start = s.len;
    }
    if (len > s.len - start) {
        len = s.len - start;
    }
    return (struct anvil_str_view){s.ptr + start, len};
}

static bool s_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

struct anvil_str_view anvil_sv_trim(struct anvil_str_view s) {
    while (s.len && s_is_space(s.ptr[0])) {
        s.ptr++;
        s.len--;
    }
    while (s.len && s_is_space(s.ptr[s.len - 1])) {
        s.len--;
    }
    return s;
}

int anvil_sv_parse_u64(struct anvil_str_view s, uint64_t max, uint64_t *out) {
    if (s.len == 0) {
        return ANVIL_ESYNTAX;
    }
    uint64_t value = 0;
    bool over = false;
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        if (c < '0' || c > '9') {
            return ANVIL_ESYNTAX;
        }
        uint64_t digit = (uint64_t)(c - '0');
        if (value > (UINT64_MAX - digit) / 10) {
            over = true; /* keep scanning: a non-digit later is still a syntax error */
        } else {
            value = value * 10 + digit;
        }
    }
    if (over || value > max) {
        return ANVIL_ELIMIT;
    }
    *out = value;
    return ANVIL_OK;
}
