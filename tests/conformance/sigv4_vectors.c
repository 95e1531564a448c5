/*
 * The 38 aws-c-auth SigV4 cases in ../shared/testdata/sigv4: each
 * request.txt is signed for the Authorization header and for a presigned
 * query string, and the canonical request, the string to sign and the
 * signature are compared byte for byte with the expected files. Prints
 * `N passed, M failed` (one per case and placement).
 * Usage: sigv4_vectors SIGV4_DIR
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anvil/anvil.h"
#include "read_file.h"

static size_t s_passed, s_failed;

static char *s_read(const char *dir, const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return anvil_test_read_file(path, len);
}

/* A raw HTTP request: request line, headers (continuation lines folded), blank line, body. */
struct s_request {
    struct anvil_sigv4_request req;
    struct anvil_sigv4_header headers[32];
    char folded[32][512];
};

static bool s_parse_request(char *text, size_t len, struct s_request *r) {
    memset(r, 0, sizeof *r);
    struct anvil_str_view all = anvil_sv(text, len);
    size_t eol = anvil_sv_find_byte(all, 0, '\n');
    if (eol == SIZE_MAX) {
        eol = len;
    }
    struct anvil_str_view line = anvil_sv_slice(all, 0, eol);
    size_t sp1 = anvil_sv_find_byte(line, 0, ' ');
    size_t sp2 = line.len;
    while (sp2 > 0 && line.ptr[sp2 - 1] != ' ') {
        sp2--;
    }
    if (sp1 == SIZE_MAX || sp2 <= sp1 + 1) {
        return false;
    }
    r->req.method = anvil_sv_slice(line, 0, sp1);
    struct anvil_str_view target = anvil_sv_slice(line, sp1 + 1, sp2 - 1 - (sp1 + 1));
    size_t q = anvil_sv_find_byte(target, 0, '?');
    r->req.path = q == SIZE_MAX ? target : anvil_sv_slice(target, 0, q);
    r->req.query = q == SIZE_MAX ? anvil_sv("", 0) : anvil_sv_slice(target, q + 1, target.len - q - 1);
    size_t at = eol + 1;
    while (at < len) {
        size_t end = anvil_sv_find_byte(all, at, '\n');
        end = end == SIZE_MAX ? len : end;
        struct anvil_str_view h = anvil_sv_slice(all, at, end - at);
        at = end + 1;
        if (h.len == 0) {
            r->req.body = text + (at < len ? at : len);
            r->req.body_len = at < len ? len - at : 0;
            break;
        }
        if ((h.ptr[0] == ' ' || h.ptr[0] == '\t') && r->req.header_count > 0) {
            /* A folded continuation: the value goes on after one space. */
            size_t i = r->req.header_count - 1;
            struct anvil_str_view more = anvil_sv_trim(h);
            size_t used = strlen(r->folded[i]);
            snprintf(r->folded[i] + used, sizeof r->folded[i] - used, " %.*s", (int)more.len, more.ptr);
            r->headers[i].value = anvil_sv_from_cstr(r->folded[i]);
            continue;
        }
        size_t colon = anvil_sv_find_byte(h, 0, ':');
        if (colon == SIZE_MAX || r->req.header_count == 32) {
            return false;
        }
        size_t i = r->req.header_count++;
        r->headers[i].name = anvil_sv_slice(h, 0, colon);
        snprintf(r->folded[i], sizeof r->folded[i], "%.*s", (int)(h.len - colon - 1), h.ptr + colon + 1);
        r->headers[i].value = anvil_sv_from_cstr(r->folded[i]);
    }
    r->req.headers = r->headers;
    return true;
}

static const char *s_str(const struct anvil_json *o, const char *key) {
    const struct anvil_json *v = anvil_json_object_get_cstr(o, key);
    return anvil_json_is_string(v) ? anvil_json_string_ptr(v) : "";
}

/* "2015-08-30T12:36:00Z" -> milliseconds since the epoch. */
static uint64_t s_time_ms(const char *iso) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (sscanf(iso, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) !=
        6) {
        return 0;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    /* timegm by hand: days from the civil date (Howard Hinnant's algorithm). */
    int y = tm.tm_year + 1900 - (tm.tm_mon < 2);
    int era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (unsigned)((153 * (tm.tm_mon + (tm.tm_mon < 2 ? 10 : -2)) + 2) / 5 + tm.tm_mday - 1);
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long long days = (long long)era * 146097 + (long long)doe - 719468;
    return (uint64_t)((days * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * 1000);
}

static bool s_same(const char *what, const char *name, const char *mode, const char *want, size_t want_len,
                   const char *got, size_t got_len) {
    while (want_len && (want[want_len - 1] == '\n' || want[want_len - 1] == '\r')) {
        want_len--;
    }
    if (want_len == got_len && memcmp(want, got, got_len) == 0) {
        return true;
    }
    printf("FAIL %s (%s): %s differs\n--- want\n%.*s\n--- got\n%.*s\n", name, mode, what, (int)want_len, want,
           (int)got_len, got);
    return false;
}

static void s_case(const char *root, const char *name) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    size_t len = 0, ctx_len = 0;
    char *request_text = s_read(dir, "request.txt", &len);
    char *context_text = s_read(dir, "context.json", &ctx_len);
    struct anvil_json_doc *ctx = NULL;
    struct s_request r;
    if (!request_text || !context_text || anvil_json_parse(NULL, context_text, ctx_len, NULL, &ctx, NULL) != ANVIL_OK ||
        !s_parse_request(request_text, len, &r)) {
        printf("FAIL %s: cannot read the case\n", name);
        s_failed += 2;
        free(request_text);
        free(context_text);
        anvil_json_doc_destroy(ctx);
        return;
    }
    const struct anvil_json *c = anvil_json_doc_root(ctx);
    const struct anvil_json *cred = anvil_json_object_get_cstr(c, "credentials");
    struct anvil_sigv4_credentials credentials = {anvil_sv_from_cstr(s_str(cred, "access_key_id")),
                                                  anvil_sv_from_cstr(s_str(cred, "secret_access_key")),
                                                  anvil_sv_from_cstr(s_str(cred, "token"))};
    const struct anvil_json *normalize = anvil_json_object_get_cstr(c, "normalize");
    for (int mode = 0; mode < 2; mode++) {
        const char *prefix = mode == 0 ? "header" : "query";
        struct anvil_sigv4_config config = {
            .region = anvil_sv_from_cstr(s_str(c, "region")),
            .service = anvil_sv_from_cstr(s_str(c, "service")),
            .time_ms = s_time_ms(s_str(c, "timestamp")),
            .placement = mode == 0 ? ANVIL_SIGV4_HEADER : ANVIL_SIGV4_QUERY,
            .keep_path = normalize && !anvil_json_bool(normalize),
            .sign_body = anvil_json_bool(anvil_json_object_get_cstr(c, "sign_body")),
            .omit_session_token = anvil_json_bool(anvil_json_object_get_cstr(c, "omit_session_token")),
            .expires_s = (uint64_t)anvil_json_int(anvil_json_object_get_cstr(c, "expiration_in_seconds")),
        };
        struct anvil_sigv4_result result;
        anvil_sigv4_result_init(&result, NULL);
        struct anvil_diag diag;
        int rc = anvil_sigv4_sign(&r.req, &credentials, &config, &result, &diag);
        char file[64];
        size_t cr_len = 0, sts_len = 0, sig_len = 0;
        snprintf(file, sizeof file, "%s-canonical-request.txt", prefix);
        char *want_cr = s_read(dir, file, &cr_len);
        snprintf(file, sizeof file, "%s-string-to-sign.txt", prefix);
        char *want_sts = s_read(dir, file, &sts_len);
        snprintf(file, sizeof file, "%s-signature.txt", prefix);
        char *want_sig = s_read(dir, file, &sig_len);
        bool ok = rc == ANVIL_OK && want_cr && want_sts && want_sig;
        if (rc != ANVIL_OK) {
            printf("FAIL %s (%s): %s\n", name, prefix, diag.message);
        }
        ok = ok && s_same("canonical request", name, prefix, want_cr, cr_len, result.canonical_request.data,
                          result.canonical_request.len);
        ok = ok && s_same("string to sign", name, prefix, want_sts, sts_len, result.string_to_sign.data,
                          result.string_to_sign.len);
        ok = ok && s_same("signature", name, prefix, want_sig, sig_len, result.signature, strlen(result.signature));
        /* The secret never appears in what signing gives back. */
        ok = ok && !strstr(result.canonical_request.data, credentials.secret_access_key.ptr) &&
             !(result.authorization.data && strstr(result.authorization.data, credentials.secret_access_key.ptr));
        if (ok) {
            s_passed++;
        } else {
            s_failed++;
        }
        free(want_cr);
        free(want_sts);
        free(want_sig);
        anvil_sigv4_result_clean_up(&result);
    }
    anvil_json_doc_destroy(ctx);
    free(request_text);
    free(context_text);
}

static int s_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s SIGV4_DIR\n", argv[0]);
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && n < 256) {
        if (e->d_name[0] != '.') {
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(dir);
    qsort(names, n, sizeof *names, s_cmp);
    for (size_t i = 0; i < n; i++) {
        s_case(argv[1], names[i]);
        free(names[i]);
    }
    printf("SigV4 vectors (aws-c-auth, %zu cases x header and query): %zu passed, %zu failed\n", n, s_passed, s_failed);
    return s_failed == 0 && s_passed > 0 ? 0 : 1;
}
