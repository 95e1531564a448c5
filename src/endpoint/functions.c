/*
 * The rules engine's functions on strings: host labels, S3 bucket names,
 * URLs, ARNs, percent-encoding. Each works on views of its input and
 * writes only into buffers its caller sized, so resolving never
 * allocates. Where Smithy's reference implementation, botocore and
 * aws-c-sdkutils disagree, docs/endpoints.md says which one anvil follows.
 */

#include "endpoint/endpoint_internal.h"

static inline bool s_is_digit(char c) {
    return c >= '0' && c <= '9';
}

static inline bool s_is_alnum(char c) {
    return s_is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* One RFC 1123 label: 1-63 of [A-Za-z0-9-], neither starting nor ending with '-'. */
static bool s_is_label(const char *p, size_t len) {
    if (len == 0 || len > 63 || !s_is_alnum(p[0]) || !s_is_alnum(p[len - 1])) {
        return false;
    }
    for (size_t i = 1; i + 1 < len; i++) {
        if (!s_is_alnum(p[i]) && p[i] != '-') {
            return false;
        }
    }
    return true;
}

bool anvil__ep_is_valid_host_label(struct anvil_str_view s, bool allow_subdomains) {
    if (!allow_subdomains) {
        return s_is_label(s.ptr, s.len);
    }
    if (s.len == 0) {
        return false;
    }
    size_t start = 0;
    for (size_t i = 0; i <= s.len; i++) {
        if (i == s.len || s.ptr[i] == '.') {
            if (!s_is_label(s.ptr + start, i - start)) {
                return false;
            }
            start = i + 1;
        }
    }
    return true;
}

bool anvil__ep_is_ipv4(struct anvil_str_view s) {
    size_t parts = 0, i = 0;
    while (parts < 4) {
        size_t start = i;
        unsigned value = 0;
        while (i < s.len && s_is_digit(s.ptr[i]) && i - start < 3) {
            value = value * 10 + (unsigned)(s.ptr[i] - '0');
            i++;
        }
        size_t digits = i - start;
        if (digits == 0 || value > 255 || (digits > 1 && s.ptr[start] == '0')) {
            return false;
        }
        parts++;
        if (parts < 4) {
            if (i >= s.len || s.ptr[i] != '.') {
                return false;
            }
            i++;
        }
    }
    return i == s.len;
}

bool anvil__ep_is_virtual_hostable_s3_bucket(struct anvil_str_view s, bool allow_subdomains) {
    if (s.len < 3 || s.len > 63) {
        return false;
    }
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] >= 'A' && s.ptr[i] <= 'Z') {
            return false;
        }
    }
    return anvil__ep_is_valid_host_label(s, allow_subdomains) && !anvil__ep_is_ipv4(s);
}

/* The host of an authority (no userinfo) is an IPv4 address or a bracketed IPv6 one. */
static bool s_host_is_ip(struct anvil_str_view host) {
    if (host.len >= 2 && host.ptr[0] == '[' && host.ptr[host.len - 1] == ']') {
        return true;
    }
    return anvil__ep_is_ipv4(host);
}

bool anvil__ep_parse_url(struct anvil_str_view s, struct anvil__ep_url *out) {
    size_t scheme_len;
    if (s.len >= 7 && memcmp(s.ptr, "http://", 7) == 0) {
        scheme_len = 4;
    } else if (s.len >= 8 && memcmp(s.ptr, "https://", 8) == 0) {
        scheme_len = 5;
    } else {
        return false;
    }
    size_t at = scheme_len + 3;
    size_t end = s.len;
    for (size_t i = at; i < s.len; i++) {
        if (s.ptr[i] == '?') {
            /* Rule sets may not be given a query (the spec: MUST return none). */
            return false;
        }
        if (s.ptr[i] == '#') {
            /* A fragment is not part of what a request is sent to. */
            end = i;
            break;
        }
    }
    size_t auth_end = at;
    while (auth_end < end && s.ptr[auth_end] != '/') {
        auth_end++;
    }
    struct anvil_str_view authority = anvil_sv(s.ptr + at, auth_end - at);
    /* Userinfo is never part of the authority the rules see. */
    for (size_t i = authority.len; i > 0; i--) {
        if (authority.ptr[i - 1] == '@') {
            authority = anvil_sv(authority.ptr + i, authority.len - i);
            break;
        }
    }
    if (authority.len == 0) {
        return false;
    }
    for (size_t i = 0; i < authority.len; i++) {
        unsigned char c = (unsigned char)authority.ptr[i];
        if (c <= 0x20 || c == 0x7f || c == '\\') {
            return false;
        }
    }
    /* host[:port], the host maybe a bracketed IPv6 address. */
    struct anvil_str_view host = authority;
    size_t colon = SIZE_MAX;
    if (authority.ptr[0] == '[') {
        size_t close = anvil__sv_index(authority, ']');
        if (close == SIZE_MAX) {
            return false;
        }
        if (close + 1 < authority.len) {
            if (authority.ptr[close + 1] != ':') {
                return false;
            }
            colon = close + 1;
        }
    } else {
        for (size_t i = authority.len; i > 0; i--) {
            if (authority.ptr[i - 1] == ':') {
                colon = i - 1;
                break;
            }
        }
    }
    if (colon != SIZE_MAX) {
        host = anvil_sv(authority.ptr, colon);
        size_t digits = authority.len - colon - 1;
        unsigned long port = 0;
        for (size_t i = colon + 1; i < authority.len; i++) {
            if (!s_is_digit(authority.ptr[i]) || digits > 5) {
                return false;
            }
            port = port * 10 + (unsigned long)(authority.ptr[i] - '0');
        }
        if (port > 65535 || host.len == 0) {
            return false;
        }
    }
    out->scheme = anvil_sv(s.ptr, scheme_len);
    out->authority = authority;
    out->path = anvil_sv(s.ptr + auth_end, end - auth_end);
    out->is_ip = s_host_is_ip(host);
    struct anvil_str_view path = out->path;
    if (path.len == 0) {
        out->normalized_path = ANVIL_SV("/");
    } else if (path.ptr[0] == '/' && path.ptr[path.len - 1] == '/') {
        out->normalized_path = path;
    } else {
        /* The path always starts with '/' here: only the trailing one is missing, for the caller to add. */
        out->normalized_path.ptr = NULL;
        out->normalized_path.len = path.len + 1;
    }
    return true;
}

bool anvil__ep_parse_arn(struct anvil_str_view s, struct anvil__ep_arn *out, struct anvil_str_view *resource) {
    if (s.len < 8 || memcmp(s.ptr, "arn:", 4) != 0) {
        return false;
    }
    struct anvil_str_view part[4];
    size_t at = 4;
    for (size_t k = 0; k < 4; k++) {
        size_t colon = anvil__sv_index(anvil_sv(s.ptr + at, s.len - at), ':');
        if (colon == SIZE_MAX) {
            return false;
        }
        part[k] = anvil_sv(s.ptr + at, colon);
        at += colon + 1;
    }
    *resource = anvil_sv(s.ptr + at, s.len - at);
    if (part[0].len == 0 || part[1].len == 0 || resource->len == 0) {
        return false;
    }
    out->partition = part[0];
    out->service = part[1];
    out->region = part[2];
    out->account_id = part[3];
    out->resource_id = NULL;
    out->resource_count = 0;
    return true;
}

static inline bool s_unreserved(unsigned char c) {
    return s_is_alnum((char)c) || c == '-' || c == '_' || c == '.' || c == '~';
}

size_t anvil__ep_uri_encoded_len(struct anvil_str_view s) {
    size_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        n += s_unreserved((unsigned char)s.ptr[i]) ? 1 : 3;
    }
    return n;
}

void anvil__ep_uri_encode(struct anvil_str_view s, char *out) {
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (s_unreserved(c)) {
            *out++ = (char)c;
        } else {
            *out++ = '%';
            *out++ = hex[c >> 4];
            *out++ = hex[c & 15];
        }
    }
}
