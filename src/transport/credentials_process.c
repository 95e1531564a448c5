/*
 * credential_process: a profile's command line, split into words as a
 * POSIX shell splits them and run without a shell (botocore does the same
 * with shlex; aws-c-auth's popen would let a shell expand the line, so the
 * two disagree on quoting and metacharacters, and we side with botocore),
 * its standard output read as the Version 1 JSON the AWS tools define.
 *
 * The output holds a secret, so every byte of it anvil keeps (the pipe
 * buffers, the JSON document) comes from an allocator that overwrites
 * memory before releasing it, and no message quotes it: a parse error
 * gives the line and column only.
 */
#include <signal.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "anvil/exec.h"
#include "anvil/json.h"
#include "anvil/text.h"
#include "core/core_internal.h"
#include "core/crypto.h"
#include "protocol/protocol_internal.h"
#include "transport/credentials_internal.h"
#include "transport/credentials_process_internal.h"

/* The most bytes of a profile name shown once escaped (it and the rest fit a source's 256 bytes). */
#define S_NAME_SHOWN_BYTES 200
/* The most bytes shown of a value that is no secret (Version, Expiration, AccountId). */
#define S_VALUE_SHOWN_BYTES 48
/* The most bytes shown of why the command could not be run (it names the program). */
#define S_EXEC_SHOWN_BYTES 400
/* Room for a shown text once escaped (at most 4 bytes per byte, plus "..." and ": "). */
#define S_SHOWN_MAX (4 * S_EXEC_SHOWN_BYTES + 8)

/* ---- showing text that came from elsewhere ---- */

/* How many bytes of `s`, at most `max`, end between characters (a byte that is not UTF-8 counts as one). */
static size_t s_cut(struct anvil_str_view s, size_t max) {
    const unsigned char *p = (const unsigned char *)s.ptr, *end = p + s.len;
    size_t i = 0;
    while (i < s.len) {
        size_t n = anvil__utf8_sequence(p + i, end);
        n = n ? n : 1;
        if (i + n > max) {
            break;
        }
        i += n;
    }
    return i;
}

/*
 * `s` as one line of valid UTF-8 in `buf` (replacing what it held): at most
 * `max` bytes of it, "..." after a cut, controls and bytes that are not
 * UTF-8 escaped. The text is buf->data (never NULL on ANVIL_OK).
 */
static int s_show(struct anvil_buf *buf, struct anvil_str_view s, size_t max) {
    anvil_buf_clear(buf);
    size_t cut = s.ptr ? s_cut(s, max) : 0;
    int rc = anvil_text_append_escaped(buf, anvil_sv(s.ptr, cut));
    if (rc == ANVIL_OK && cut < s.len) {
        rc = anvil_buf_append_cstr(buf, "...");
    }
    if (rc == ANVIL_OK) {
        rc = anvil_buf_reserve(buf, 1); /* so data is never NULL */
    }
    return rc;
}

/*
 * "profile `NAME`: credential_process", naming the profile for messages and
 * the credentials' source: the name is cut until it is at most
 * S_NAME_SHOWN_BYTES escaped, so the end of the text always fits.
 */
static int s_who(struct anvil_buf *scratch, const char *profile, char *out, size_t size) {
    _Static_assert(sizeof "profile ``: credential_process" + S_NAME_SHOWN_BYTES <=
                       sizeof((struct anvil_credentials *)0)->source,
                   "a shown profile name leaves room for the rest of the source");
    struct anvil_str_view name = anvil_sv_from_cstr(profile ? profile : "default");
    int rc = ANVIL_OK;
    for (size_t max = S_NAME_SHOWN_BYTES; rc == ANVIL_OK; max /= 2) {
        rc = s_show(scratch, name, max);
        if (rc == ANVIL_OK && scratch->len <= S_NAME_SHOWN_BYTES) {
            snprintf(out, size, "profile `%s`: credential_process", scratch->data);
            break;
        }
    }
    return rc;
}

/* ---- splitting the command line ---- */

static bool s_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int s_nul(struct anvil_diag *diag, const char *text, size_t len, size_t at) {
    return anvil_diag_set_at(diag, ANVIL_ESYNTAX, text, len, at, "a NUL byte at offset %zu", at);
}

int anvil__shell_split(struct anvil_arena *arena, const char *text, size_t len, char ***argv_out, size_t *argc_out,
                       struct anvil_diag *diag) {
    if (!argv_out || !argc_out) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    *argv_out = NULL;
    *argc_out = 0;
    if (!arena || (!text && len > 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    if (len > ANVIL__PROCESS_MAX_COMMAND_BYTES) {
        return anvil_diag_set(diag, ANVIL_ELIMIT, 0, 0, 0, "the command is %zu bytes; anvil takes at most %zu", len,
                              ANVIL__PROCESS_MAX_COMMAND_BYTES);
    }
    /*
     * Unquoting never lengthens a word, and each word but the last is
     * followed by at least one blank that its NUL can take the place of (an
     * empty word, '' or "", takes two bytes for its NUL alone): the words
     * fit in len + 1 bytes.
     */
    char *bytes = anvil_arena_alloc(arena, len + 1, 1);
    if (!bytes) {
        return ANVIL_ENOMEM;
    }
    size_t starts[ANVIL__PROCESS_MAX_WORDS];
    size_t count = 0, w = 0, i = 0;
    bool in_word = false;
    while (i < len) {
        char c = text[i];
        if (c == '\0') {
            return s_nul(diag, text, len, i);
        }
        if (s_blank(c)) {
            if (in_word) {
                bytes[w++] = '\0';
                in_word = false;
            }
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < len && text[i + 1] == '\n') {
            i += 2; /* a line continuation: neither byte is kept, and no word starts */
            continue;
        }
        if (!in_word) {
            if (count == ANVIL__PROCESS_MAX_WORDS) {
                return anvil_diag_set_at(diag, ANVIL_ELIMIT, text, len, i,
                                         "more than %d words (the word at offset %zu is one too many)",
                                         ANVIL__PROCESS_MAX_WORDS, i);
            }
            starts[count++] = w;
            in_word = true;
        }
        if (c == '\\') {
            if (i + 1 == len) {
                return anvil_diag_set_at(diag, ANVIL_ESYNTAX, text, len, i,
                                         "a backslash at offset %zu ends the command, with nothing to escape", i);
            }
            if (text[i + 1] == '\0') {
                return s_nul(diag, text, len, i + 1);
            }
            bytes[w++] = text[i + 1];
            i += 2;
        } else if (c == '\'') {
            size_t open = i++;
            for (; i < len && text[i] != '\''; i++) {
                if (text[i] == '\0') {
                    return s_nul(diag, text, len, i);
                }
                bytes[w++] = text[i];
            }
            if (i == len) {
                return anvil_diag_set_at(diag, ANVIL_ESYNTAX, text, len, open,
                                         "the single quote at offset %zu is never closed", open);
            }
            i++;
        } else if (c == '"') {
            size_t open = i++;
            while (i < len && text[i] != '"') {
                char e = i + 1 < len ? text[i + 1] : '\0';
                if (text[i] == '\0') {
                    return s_nul(diag, text, len, i);
                }
                if (text[i] == '\\' && e == '\n') {
                    i += 2;
                } else if (text[i] == '\\' && (e == '\\' || e == '"' || e == '$' || e == '`')) {
                    bytes[w++] = e;
                    i += 2;
                } else {
                    bytes[w++] = text[i++]; /* a backslash before anything else is kept */
                }
            }
            if (i == len) {
                return anvil_diag_set_at(diag, ANVIL_ESYNTAX, text, len, open,
                                         "the double quote at offset %zu is never closed", open);
            }
            i++;
        } else {
            bytes[w++] = c;
            i++;
        }
    }
    if (in_word) {
        bytes[w++] = '\0';
    }
    if (count == 0) {
        return anvil_diag_set(diag, ANVIL_ESYNTAX, 0, 0, 0,
                              len ? "no command: the line holds only blanks" : "no command: the line is empty");
    }
    char **argv = anvil_arena_alloc(arena, (count + 1) * sizeof *argv, alignof(char *));
    if (!argv) {
        return ANVIL_ENOMEM;
    }
    for (size_t k = 0; k < count; k++) {
        argv[k] = bytes + starts[k];
    }
    argv[count] = NULL;
    *argv_out = argv;
    *argc_out = count;
    return ANVIL_OK;
}

/* ---- reading the output ---- */

/* "a number", "an object", ... for messages. */
static const char *s_a(const struct anvil_json *v) {
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[anvil_json_type(v)];
}

struct s_reader {
    const char *who;
    struct anvil_buf *scratch;
    const struct anvil_json *root;
    struct anvil_diag *diag;
};

/*
 * Copies the string member `key` into `dst` (`size` bytes). An absent or
 * null member, or an empty string, leaves "" and is an error only when
 * `required`. The value itself never goes into a message.
 */
static int s_string(struct s_reader *r, const char *key, bool required, char *dst, size_t size) {
    const struct anvil_json *v = anvil_json_object_get_cstr(r->root, key);
    if (!v || anvil_json_is_null(v)) {
        return required ? anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s gave no %s", r->who, key) : ANVIL_OK;
    }
    if (!anvil_json_is_string(v)) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s is %s, not a string", r->who, key, s_a(v));
    }
    struct anvil_str_view s = anvil_json_string(v);
    if (s.len == 0) {
        return required ? anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s is empty", r->who, key) : ANVIL_OK;
    }
    if (memchr(s.ptr, '\0', s.len)) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s holds a NUL character", r->who, key);
    }
    if (s.len >= size) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s is %zu bytes; anvil takes at most %zu", r->who,
                              key, s.len, size - 1);
    }
    memcpy(dst, s.ptr, s.len);
    dst[s.len] = '\0';
    return ANVIL_OK;
}

/* Version must be the number 1 (1.0 too: botocore compares with ==). */
static int s_version(struct s_reader *r) {
    const struct anvil_json *v = anvil_json_object_get_cstr(r->root, "Version");
    if (anvil_json_is_number(v) && anvil_json_double(v) == 1.0) {
        return ANVIL_OK;
    }
    if (!v) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s gave no Version; anvil reads Version 1", r->who);
    }
    if (anvil_json_is_int(v)) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s gave Version %lld; anvil reads Version 1", r->who,
                              (long long)anvil_json_int(v));
    }
    if (anvil_json_is_number(v)) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s gave Version %g; anvil reads Version 1", r->who,
                              anvil_json_double(v));
    }
    if (anvil_json_is_string(v)) {
        int rc = s_show(r->scratch, anvil_json_string(v), S_VALUE_SHOWN_BYTES);
        return rc != ANVIL_OK ? rc
                              : anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0,
                                               "%s gave Version \"%s\", a string; anvil reads Version 1 (a number)",
                                               r->who, r->scratch->data);
    }
    return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s gave %s as its Version; anvil reads Version 1", r->who,
                          s_a(v));
}

/* A value that is no secret, shown in a message saying it is wrong. */
static int s_bad_value(struct s_reader *r, const char *key, struct anvil_str_view value, const char *what) {
    int rc = s_show(r->scratch, value, S_VALUE_SHOWN_BYTES);
    return rc != ANVIL_OK ? rc
                          : anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s `%s` is not %s", r->who, key,
                                           r->scratch->data, what);
}

static int s_expiration(struct s_reader *r, uint64_t *expires_ms) {
    const struct anvil_json *v = anvil_json_object_get_cstr(r->root, "Expiration");
    if (!v || anvil_json_is_null(v)) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_string(v)) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: Expiration is %s, not an ISO-8601 string", r->who,
                              s_a(v));
    }
    int64_t ms = 0;
    if (anvil__timestamp_parse_any(anvil_json_string(v), &ms) != ANVIL_OK) {
        return s_bad_value(r, "Expiration", anvil_json_string(v), "an ISO-8601 date such as 2030-01-31T12:00:00Z");
    }
    if (ms <= 0) {
        /* 0 would mean "never expires". */
        return s_bad_value(r, "Expiration", anvil_json_string(v), "a date after 1970-01-01T00:00:00Z");
    }
    *expires_ms = (uint64_t)ms;
    return ANVIL_OK;
}

static int s_account_id(struct s_reader *r, char *dst, size_t size) {
    const struct anvil_json *v = anvil_json_object_get_cstr(r->root, "AccountId");
    if (!v || anvil_json_is_null(v)) {
        return ANVIL_OK;
    }
    if (!anvil_json_is_string(v)) {
        return anvil_diag_set(r->diag, ANVIL_ECONFIG, 0, 0, 0, "%s: AccountId is %s, not a string of 12 digits", r->who,
                              s_a(v));
    }
    struct anvil_str_view s = anvil_json_string(v);
    if (s.len == 0) {
        return ANVIL_OK;
    }
    if (s.len != 12 || strspn(s.ptr, "0123456789") != 12) {
        return s_bad_value(r, "AccountId", s, "12 digits");
    }
    snprintf(dst, size, "%.12s", s.ptr);
    return ANVIL_OK;
}

/* The document's keys, in the order their errors are worth reporting. */
static int s_read(struct s_reader *r, struct anvil_credentials *out) {
    int rc = s_version(r);
    if (rc == ANVIL_OK) {
        rc = s_string(r, "AccessKeyId", true, out->access_key_id, sizeof out->access_key_id);
    }
    if (rc == ANVIL_OK) {
        rc = s_string(r, "SecretAccessKey", true, out->secret_access_key, sizeof out->secret_access_key);
    }
    if (rc == ANVIL_OK) {
        rc = s_string(r, "SessionToken", false, out->session_token, sizeof out->session_token);
    }
    if (rc == ANVIL_OK) {
        rc = s_expiration(r, &out->expires_ms);
    }
    if (rc == ANVIL_OK) {
        rc = s_account_id(r, out->account_id, sizeof out->account_id);
    }
    if (rc == ANVIL_OK) {
        rc = anvil__credentials_check(out, r->who, r->diag);
    }
    return rc;
}

int anvil__credentials_process_parse(struct anvil_allocator *allocator, const char *profile, const char *text,
                                     size_t len, struct anvil_credentials *out, struct anvil_diag *diag) {
    if (!out || (!text && len > 0)) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    anvil_credentials_clear(out);
    struct anvil_allocator scrub = anvil__scrubber(allocator);
    struct anvil_buf scratch;
    anvil_buf_init(&scratch, allocator, S_SHOWN_MAX);
    char who[sizeof out->source];
    int rc = s_who(&scratch, profile, who, sizeof who);
    if (rc != ANVIL_OK) {
        anvil_buf_clean_up(&scratch);
        return rc;
    }
    struct anvil_json_doc *doc = NULL;
    if (anvil_sv_trim(anvil_sv(text, len)).len == 0) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s wrote nothing on its standard output", who);
    } else if (len > ANVIL__PROCESS_MAX_OUTPUT_BYTES) {
        rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: its output is %zu bytes; anvil reads at most %zu", who,
                            len, ANVIL__PROCESS_MAX_OUTPUT_BYTES);
    } else {
        /* The parser's own message may quote a byte of the output: only its position is kept. */
        struct anvil_diag parse_diag;
        anvil_diag_clear(&parse_diag);
        rc = anvil_json_parse(&scrub, text, len, NULL, &doc, &parse_diag);
        if (rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: its output is not %sJSON (line %zu, column %zu)",
                                who, rc == ANVIL_ELIMIT ? "readable " : "", parse_diag.line, parse_diag.column);
        } else if (rc == ANVIL_OK && !anvil_json_is_object(anvil_json_doc_root(doc))) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: its output is %s, not a JSON object", who,
                                s_a(anvil_json_doc_root(doc)));
        } else if (rc == ANVIL_OK) {
            struct s_reader r = {who, &scratch, anvil_json_doc_root(doc), diag};
            rc = s_read(&r, out);
        }
    }
    anvil_json_doc_destroy(doc);
    anvil_buf_clean_up(&scratch);
    if (rc != ANVIL_OK) {
        anvil_credentials_clear(out);
        return rc;
    }
    snprintf(out->provider, sizeof out->provider, "process");
    snprintf(out->source, sizeof out->source, "%s", who);
    return ANVIL_OK;
}

/* ---- running the command ---- */

static const char *s_signal_name(int sig) {
    switch (sig) {
    case SIGHUP:
        return "SIGHUP";
    case SIGINT:
        return "SIGINT";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGILL:
        return "SIGILL";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    case SIGUSR1:
        return "SIGUSR1";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGUSR2:
        return "SIGUSR2";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGALRM:
        return "SIGALRM";
    case SIGTERM:
        return "SIGTERM";
    case SIGXCPU:
        return "SIGXCPU";
    case SIGXFSZ:
        return "SIGXFSZ";
    default:
        return "a signal";
    }
}

/* The first line of `err` that is not blank, shown as ": LINE" in `buf` ("" when there is none). */
static int s_first_line(struct anvil_buf *buf, const struct anvil_buf *err) {
    struct anvil_str_view rest = anvil_buf_view(err);
    struct anvil_str_view line = {rest.ptr, 0};
    while (rest.len > 0) {
        size_t nl = anvil_sv_find_byte(rest, 0, '\n');
        size_t n = nl == SIZE_MAX ? rest.len : nl;
        line = anvil_sv_trim(anvil_sv(rest.ptr, n));
        if (line.len > 0) {
            break;
        }
        rest = anvil_sv_slice(rest, n + 1, SIZE_MAX);
    }
    int rc = s_show(buf, line, ANVIL__PROCESS_STDERR_SHOWN_BYTES);
    if (rc == ANVIL_OK && line.len > 0) {
        /* Put ": " in front: the text is short, so moving it costs nothing. */
        rc = anvil_buf_reserve(buf, 2);
        if (rc == ANVIL_OK) {
            memmove(buf->data + 2, buf->data, buf->len + 1);
            memcpy(buf->data, ": ", 2);
            buf->len += 2;
        }
    }
    return rc;
}

/* "60 s", or "250 ms" when not whole seconds. */
static void s_duration(uint64_t ms, char *out, size_t size) {
    if (ms % 1000 == 0) {
        snprintf(out, size, "%llu s", (unsigned long long)(ms / 1000));
    } else {
        snprintf(out, size, "%llu ms", (unsigned long long)ms);
    }
}

/* What a run that did not end with exit status 0 (or did not run) means, in `diag`. */
static int s_run_failed(int rc, const struct anvil_exec_result *res, const struct anvil_diag *exec_diag,
                        const char *who, uint64_t timeout_ms, struct anvil_buf *scratch, struct anvil_diag *diag) {
    if (rc == ANVIL_ENOMEM) {
        return rc;
    }
    /* What it said on standard error is shown when it said anything (a failure, or why it hung). */
    const char *said = s_first_line(scratch, &res->err) == ANVIL_OK ? scratch->data : "";
    switch (rc) {
    case ANVIL_OK:
        if (res->signal) {
            return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s was killed by %s (signal %d)%s", who,
                                  s_signal_name(res->signal), res->signal, said);
        }
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s exited %d%s", who, res->exit_status, said);
    case ANVIL_ETIMEDOUT: {
        char took[32];
        s_duration(timeout_ms, took, sizeof took);
        return anvil_diag_set(diag, ANVIL_ETIMEDOUT, 0, 0, 0, "%s did not finish in %s (killed)%s", who, took, said);
    }
    case ANVIL_ECANCELED:
        return anvil_diag_set(diag, ANVIL_ECANCELED, 0, 0, 0, "%s: cancelled (killed)", who);
    case ANVIL_ELIMIT:
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s wrote more than %zu bytes (killed)", who,
                              ANVIL__PROCESS_MAX_OUTPUT_BYTES);
    default:
        /* ANVIL_EIO: it could not be started ("cannot run `prog`: reason"), or its exit was lost. */
        if (s_show(scratch, anvil_sv_from_cstr(exec_diag->message), S_EXEC_SHOWN_BYTES) != ANVIL_OK) {
            return ANVIL_ENOMEM;
        }
        return anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s", who, scratch->data);
    }
}

int anvil__credentials_process(const char *command, const char *profile, const struct anvil_credentials_options *o,
                               struct anvil_credentials *out, struct anvil_diag *diag) {
    static const struct anvil_credentials_options defaults = {0};
    o = o ? o : &defaults;
    if (!out) {
        return anvil_diag_set(diag, ANVIL_EINVAL, 0, 0, 0, "invalid argument");
    }
    anvil_credentials_clear(out);
    struct anvil_allocator scrub = anvil__scrubber(NULL);
    struct anvil_buf scratch;
    anvil_buf_init(&scratch, NULL, S_SHOWN_MAX);
    char who[sizeof out->source];
    struct anvil_arena *arena = NULL;
    int rc = s_who(&scratch, profile, who, sizeof who);
    if (rc == ANVIL_OK) {
        rc = anvil_arena_new(NULL, NULL, &arena);
    }
    if (rc != ANVIL_OK) {
        anvil_buf_clean_up(&scratch);
        return rc;
    }
    char **argv = NULL;
    size_t argc = 0;
    struct anvil_diag d;
    anvil_diag_clear(&d);
    rc = anvil__shell_split(arena, command ? command : "", command ? strlen(command) : 0, &argv, &argc, &d);
    if (rc != ANVIL_OK) {
        if (rc != ANVIL_ENOMEM) {
            rc = anvil_diag_set(diag, ANVIL_ECONFIG, 0, 0, 0, "%s: %s", who, d.message);
        }
        anvil_arena_destroy(arena);
        anvil_buf_clean_up(&scratch);
        return rc;
    }
    uint64_t timeout_ms = o->process_timeout_ms ? o->process_timeout_ms : ANVIL__PROCESS_DEFAULT_TIMEOUT_MS;
    struct anvil_exec_options eo = {
        .max_output_bytes = ANVIL__PROCESS_MAX_OUTPUT_BYTES,
        /* A process runs in real time: its timeout is on the real clock, whatever clock the caller's env keeps. */
        .env = NULL,
        .deadline_ms = anvil__u64_add_sat(anvil_env_now_ms(NULL), timeout_ms),
        .cancel = o->cancel,
    };
    struct anvil_exec_result res;
    anvil_diag_clear(&d);
    rc = anvil_exec_run(&scrub, argv, NULL, 0, &eo, &res, &d);
    if (rc != ANVIL_OK || res.exit_status != 0) {
        rc = s_run_failed(rc, &res, &d, who, timeout_ms, &scratch, diag);
    } else {
        rc = anvil__credentials_process_parse(NULL, profile, res.out.data, res.out.len, out, diag);
    }
    /* The scrubbing allocator overwrites the buffers as they go; this says so where the secret is. */
    if (res.out.data) {
        anvil__cleanse(res.out.data, res.out.capacity);
    }
    anvil_exec_result_clean_up(&res);
    anvil_arena_destroy(arena);
    anvil_buf_clean_up(&scratch);
    return rc;
}
