/*
 * libFuzzer target: the input as a credential_process command line and as
 * the command's output.
 *
 * The splitter must answer ANVIL_OK, ANVIL_ESYNTAX or ANVIL_ELIMIT; its
 * words must fit the bytes it set aside, and must split back to the same
 * words once each is single-quoted (a round trip through the quoting a
 * shell user would write).
 *
 * The reader must answer ANVIL_OK or ANVIL_ECONFIG; a message names the
 * profile and is valid UTF-8, credentials it gives have their keys, an
 * account id of 12 digits or none, and every field ends inside itself; and
 * no message holds the SecretAccessKey or SessionToken the input carries.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "core/core_internal.h"
#include "transport/credentials_process_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "credentials_process fuzz: %s\n", what);
        abort();
    }
}

static bool s_ends_inside(const char *field, size_t size) {
    return memchr(field, '\0', size) != NULL;
}

/* Each word single-quoted (a ' as '\''), separated by spaces, into `out`; false when it does not fit. */
static bool s_requote(char **argv, size_t argc, char *out, size_t size, size_t *len) {
    size_t n = 0;
    for (size_t i = 0; i < argc; i++) {
        const char *w = argv[i];
        if (n + 2 > size) {
            return false;
        }
        out[n++] = i ? ' ' : '\'';
        if (i) {
            out[n++] = '\'';
        }
        for (; *w; w++) {
            if (n + 5 > size) {
                return false;
            }
            if (*w == '\'') {
                memcpy(out + n, "'\\''", 4);
                n += 4;
            } else {
                out[n++] = *w;
            }
        }
        if (n + 1 > size) {
            return false;
        }
        out[n++] = '\'';
    }
    *len = n;
    return true;
}

static void s_split(const char *text, size_t size) {
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        return;
    }
    char **argv = NULL;
    size_t argc = 0;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil__shell_split(arena, text, size, &argv, &argc, &diag);
    s_check(rc == ANVIL_OK || rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT, "split: unexpected status");
    if (rc != ANVIL_OK) {
        s_check(argv == NULL && argc == 0, "split: words after an error");
        s_check(diag.message[0] != '\0', "split: an error without a message");
        s_check(diag.line == 0 || diag.offset <= size, "split: an error past the end");
        anvil_arena_destroy(arena);
        return;
    }
    s_check(argc >= 1 && argc <= ANVIL__PROCESS_MAX_WORDS && argv[argc] == NULL, "split: a bad word count");
    size_t total = 0;
    for (size_t i = 0; i < argc; i++) {
        total += strlen(argv[i]) + 1;
    }
    s_check(total <= size + 1, "split: words longer than the line");
    static char quoted[ANVIL__PROCESS_MAX_COMMAND_BYTES];
    size_t qlen = 0;
    if (s_requote(argv, argc, quoted, sizeof quoted, &qlen)) {
        char **again = NULL;
        size_t again_count = 0;
        rc = anvil__shell_split(arena, quoted, qlen, &again, &again_count, NULL);
        s_check(rc == ANVIL_OK && again_count == argc, "split: the quoted words do not split back");
        for (size_t i = 0; i < argc; i++) {
            s_check(strcmp(argv[i], again[i]) == 0, "split: a quoted word changed");
        }
    }
    anvil_arena_destroy(arena);
}

/* The string member `key` of `root`, when it is one of at least 4 bytes holding a byte no message template uses. */
static const char *s_marked(const struct anvil_json *root, const char *key) {
    const struct anvil_json *v = anvil_json_object_get_cstr(root, key);
    const char *s = anvil_json_string_ptr(v);
    if (anvil_json_len(v) < 4 || strlen(s) != anvil_json_len(v) || strpbrk(s, "#%@!~^|") == NULL) {
        return NULL;
    }
    return s;
}

/* True when `secret` is part of a value a message may show (they are not secret). */
static bool s_shown_elsewhere(const struct anvil_json *root, const char *secret) {
    static const char *const shown[] = {"Version", "Expiration", "AccountId"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        const char *s = anvil_json_string_ptr(anvil_json_object_get_cstr(root, shown[i]));
        if (strstr(s, secret)) {
            return true;
        }
    }
    return false;
}

static void s_parse(const char *text, size_t size) {
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil__credentials_process_parse(NULL, "fuzz", text, size, &c, &diag);
    s_check(rc == ANVIL_OK || rc == ANVIL_ECONFIG, "parse: unexpected status");
    s_check(s_ends_inside(c.access_key_id, sizeof c.access_key_id) &&
                s_ends_inside(c.secret_access_key, sizeof c.secret_access_key) &&
                s_ends_inside(c.session_token, sizeof c.session_token) &&
                s_ends_inside(c.account_id, sizeof c.account_id) && s_ends_inside(c.provider, sizeof c.provider) &&
                s_ends_inside(c.source, sizeof c.source),
            "parse: a field without its end");
    if (rc == ANVIL_OK) {
        s_check(c.access_key_id[0] && c.secret_access_key[0], "parse: credentials without their keys");
        s_check(!c.account_id[0] || (strlen(c.account_id) == 12 && strspn(c.account_id, "0123456789") == 12),
                "parse: an account id that is not 12 digits");
        s_check(strcmp(c.provider, "process") == 0 && strcmp(c.source, "profile `fuzz`: credential_process") == 0,
                "parse: the wrong provider or source");
        anvil_credentials_clear(&c);
        return;
    }
    s_check(strncmp(diag.message, "profile `fuzz`: credential_process", 34) == 0,
            "parse: a message without the profile");
    s_check(anvil__utf8_valid(diag.message, strlen(diag.message)), "parse: a message that is not UTF-8");
    s_check(!c.access_key_id[0] && !c.secret_access_key[0] && !c.session_token[0], "parse: keys left after an error");
    struct anvil_json_doc *doc = NULL;
    if (anvil_json_parse(NULL, text, size, NULL, &doc, NULL) == ANVIL_OK) {
        const struct anvil_json *root = anvil_json_doc_root(doc);
        static const char *const secrets[] = {"SecretAccessKey", "SessionToken"};
        for (size_t i = 0; i < 2; i++) {
            const char *secret = s_marked(root, secrets[i]);
            s_check(!secret || s_shown_elsewhere(root, secret) || !strstr(diag.message, secret),
                    "parse: a message holds a secret");
        }
        anvil_json_doc_destroy(doc);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    s_split((const char *)data, size);
    s_parse((const char *)data, size);
    return 0;
}
