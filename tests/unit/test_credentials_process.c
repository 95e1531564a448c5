/*
 * credential_process: the command line split as a POSIX shell splits it
 * (tables of lines and their words, and of broken lines and where they
 * break), the output read as Version 1 JSON (a table of every rule, and no
 * secret in any message), and small shell scripts written to a fresh
 * temporary folder run end to end. The one test that waits for a deadline
 * waits a quarter of a second on the real clock; nothing sleeps.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "harness.h"
#include "transport/credentials_internal.h"
#include "transport/credentials_process_internal.h"

/* ---- splitting ---- */

struct s_split_case {
    const char *line;
    /* The words, each ended by '|'. */
    const char *words;
};

static const struct s_split_case s_split_cases[] = {
    {"prog", "prog|"},
    {"  prog   a\tb\r\nc  ", "prog|a|b|c|"},
    {"\"/opt/my tools/get creds\" --profile dev", "/opt/my tools/get creds|--profile|dev|"},
    {"/opt/my\\ tools/get\\ creds x", "/opt/my tools/get creds|x|"},
    {"'single $HOME \"x\" \\n'", "single $HOME \"x\" \\n|"},
    {"\"a\\\"b\\\\c\\$d\\`e\\xf\\'g\"", "a\"b\\c$d`e\\xf\\'g|"},
    {"pre\"mid dle\"post'and more'", "premid dlepostand more|"},
    {"a '' \"\" b", "a|||b|"},
    {"''", "|"},
    {"$HOME ~ ~/x *.txt $(id) `id` a|b c;d e>f", "$HOME|~|~/x|*.txt|$(id)|`id`|a|b|c;d|e>f|"},
    {"a\\\nb", "ab|"},
    {"a \\\n b", "a|b|"},
    {"\\\nprog", "prog|"},
    {"\"a\\\nb\"", "ab|"},
    {"'a\\\nb'", "a\\\nb|"},
    {"\\'x\\\"", "'x\"|"},
    {"\\\\", "\\|"},
    {"\"\\\"", NULL}, /* the backslash escapes the closing quote */
    {"\"caf\xc3\xa9\" \xe2\x82\xac", "caf\xc3\xa9|\xe2\x82\xac|"},
};

TEST(credentials_process_split_table) {
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_split_cases); i++) {
        const struct s_split_case *c = &s_split_cases[i];
        char **argv = NULL;
        size_t argc = 0;
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil__shell_split(arena, c->line, strlen(c->line), &argv, &argc, &diag);
        if (rc == ANVIL_ENOMEM) {
            CHECK_OK(rc); /* the sweep's injected failure: a clean stop */
        }
        if (!c->words) {
            CHECK_STATUS(rc, ANVIL_ESYNTAX);
            continue;
        }
        if (rc != ANVIL_OK) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: %s", i, diag.message);
            goto done;
        }
        char joined[256] = "";
        for (size_t k = 0; k < argc; k++) {
            strcat(joined, argv[k]);
            strcat(joined, "|");
        }
        CHECK(argv[argc] == NULL);
        if (strcmp(joined, c->words) != 0) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: got \"%s\", want \"%s\"", i, joined, c->words);
            goto done;
        }
    }
done:
    anvil_arena_destroy(arena);
}

struct s_split_error {
    const char *line;
    size_t len; /* 0 = strlen(line) */
    int code;
    const char *message;
    size_t offset;
};

static const struct s_split_error s_split_errors[] = {
    {"\"/opt/my tools/x", 0, ANVIL_ESYNTAX, "the double quote at offset 0 is never closed", 0},
    {"prog 'it", 0, ANVIL_ESYNTAX, "the single quote at offset 5 is never closed", 5},
    {"prog it's", 0, ANVIL_ESYNTAX, "the single quote at offset 7 is never closed", 7},
    {"prog \"abc\\\"", 0, ANVIL_ESYNTAX, "the double quote at offset 5 is never closed", 5},
    {"prog \\", 0, ANVIL_ESYNTAX, "a backslash at offset 5 ends the command", 5},
    {"prog a\\", 0, ANVIL_ESYNTAX, "a backslash at offset 6 ends the command", 6},
    {"prog\0x", 6, ANVIL_ESYNTAX, "a NUL byte at offset 4", 4},
    {"'a\0'", 4, ANVIL_ESYNTAX, "a NUL byte at offset 2", 2},
    {"\"a\0\"", 4, ANVIL_ESYNTAX, "a NUL byte at offset 2", 2},
    {"a\\\0", 3, ANVIL_ESYNTAX, "a NUL byte at offset 2", 2},
    {"", 0, ANVIL_ESYNTAX, "no command: the line is empty", 0},
    {" \t\r\n ", 0, ANVIL_ESYNTAX, "no command: the line holds only blanks", 0},
    {"\\\n", 0, ANVIL_ESYNTAX, "no command", 0},
};

TEST(credentials_process_split_errors_name_the_offset) {
    struct anvil_arena *arena = NULL;
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_split_errors); i++) {
        const struct s_split_error *c = &s_split_errors[i];
        char **argv = (char **)1;
        size_t argc = 7;
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil__shell_split(arena, c->line, c->len ? c->len : strlen(c->line), &argv, &argc, &diag);
        if (rc == ANVIL_ENOMEM) {
            CHECK_STATUS(rc, c->code);
        }
        if (rc != c->code || !strstr(diag.message, c->message)) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: %d \"%s\"", i, rc, diag.message);
            goto done;
        }
        CHECK(argv == NULL && argc == 0);
        if (diag.line) {
            CHECK_EQ_U64(diag.offset, c->offset);
        }
    }
done:
    anvil_arena_destroy(arena);
}

TEST(credentials_process_split_limits) {
    struct anvil_arena *arena = NULL;
    char *line = malloc(ANVIL__PROCESS_MAX_COMMAND_BYTES + 2);
    CHECK_ALLOC(line);
    CHECK_OK(anvil_arena_new(t->alloc, NULL, &arena));
    char **argv = NULL;
    size_t argc = 0;
    struct anvil_diag diag;
    /* 256 words split; a 257th is one too many. */
    size_t n = 0;
    for (int i = 0; i < ANVIL__PROCESS_MAX_WORDS; i++) {
        n += (size_t)snprintf(line + n, 8, "w%d ", i);
    }
    CHECK_OK(anvil__shell_split(arena, line, n, &argv, &argc, NULL));
    CHECK_EQ_U64(argc, ANVIL__PROCESS_MAX_WORDS);
    CHECK_STR_EQ(argv[255], "w255");
    line[n] = 'x';
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__shell_split(arena, line, n + 1, &argv, &argc, &diag), ANVIL_ELIMIT);
    CHECK(strstr(diag.message, "more than 256 words") != NULL);
    /* 32 KiB of command line split; one byte more does not. */
    memset(line, 'a', ANVIL__PROCESS_MAX_COMMAND_BYTES + 1);
    CHECK_OK(anvil__shell_split(arena, line, ANVIL__PROCESS_MAX_COMMAND_BYTES, &argv, &argc, NULL));
    CHECK_EQ_U64(argc, 1);
    CHECK_EQ_U64(strlen(argv[0]), ANVIL__PROCESS_MAX_COMMAND_BYTES);
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__shell_split(arena, line, ANVIL__PROCESS_MAX_COMMAND_BYTES + 1, &argv, &argc, &diag),
                 ANVIL_ELIMIT);
    CHECK_STR_EQ(diag.message, "the command is 32769 bytes; anvil takes at most 32768");
    /* The tightest packing of empty words still fits the bytes set aside. */
    n = 0;
    for (int i = 0; i < 100; i++) {
        line[n++] = '\'';
        line[n++] = '\'';
        line[n++] = ' ';
    }
    CHECK_OK(anvil__shell_split(arena, line, n - 1, &argv, &argc, NULL));
    CHECK_EQ_U64(argc, 100);
    CHECK_STR_EQ(argv[99], "");
done:
    anvil_arena_destroy(arena);
    free(line);
}

/* ---- reading the output ---- */

#define S_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY"
#define S_TOKEN "IQoJb3JpZ2luX2VjEXAMPLETOKEN"
#define S_KEYS "\"AccessKeyId\":\"AKIDPROCESS\",\"SecretAccessKey\":\"" S_SECRET "\""

TEST(credentials_process_parse_reads_every_key) {
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    const char *json = "\xEF\xBB\xBF{\"Version\": 1, " S_KEYS ", \"SessionToken\": \"" S_TOKEN "\",\n"
                       "\"Expiration\": \"2030-01-02T03:04:05Z\", \"AccountId\": \"123456789012\",\n"
                       "\"Unknown\": {\"nested\": [1, 2, {\"deep\": null}]}}\n";
    CHECK_OK(anvil__credentials_process_parse(t->alloc, "dev", json, strlen(json), &c, &diag));
    CHECK_STR_EQ(c.access_key_id, "AKIDPROCESS");
    CHECK_STR_EQ(c.secret_access_key, S_SECRET);
    CHECK_STR_EQ(c.session_token, S_TOKEN);
    CHECK_STR_EQ(c.account_id, "123456789012");
    CHECK_EQ_U64(c.expires_ms, UINT64_C(1893553445000));
    CHECK_STR_EQ(c.provider, "process");
    CHECK_STR_EQ(c.source, "profile `dev`: credential_process");
    /* Long-term keys: no token, no expiry; null and "" count as absent; Version 1.0 is 1. */
    json = "{\"Version\":1.0," S_KEYS ",\"SessionToken\":null,\"Expiration\":null,\"AccountId\":\"\"}";
    CHECK_OK(anvil__credentials_process_parse(t->alloc, NULL, json, strlen(json), &c, &diag));
    CHECK_STR_EQ(c.session_token, "");
    CHECK_STR_EQ(c.account_id, "");
    CHECK_EQ_U64(c.expires_ms, 0);
    CHECK_STR_EQ(c.source, "profile `default`: credential_process");
    /* An offset is honoured. */
    json = "{\"Version\":1," S_KEYS ",\"Expiration\":\"2030-01-02T05:04:05.250+02:00\"}";
    CHECK_OK(anvil__credentials_process_parse(t->alloc, "dev", json, strlen(json), &c, &diag));
    CHECK_EQ_U64(c.expires_ms, UINT64_C(1893553445250));
done:
    anvil_credentials_clear(&c);
}

struct s_parse_error {
    const char *json;
    const char *message;
};

static const struct s_parse_error s_parse_errors[] = {
    {"", "profile `dev`: credential_process wrote nothing on its standard output"},
    {" \n\t", "wrote nothing on its standard output"},
    {"AccessKeyId=AKID\nSecretAccessKey=" S_SECRET "\n", "its output is not JSON (line 1, column 1)"},
    {"{\"Version\":1," S_KEYS ",\n\"SessionToken\":\"" S_TOKEN, "its output is not JSON (line 2, column 45)"},
    {"{\"Version\":1," S_KEYS "} " S_SECRET, "its output is not JSON (line 1, column 103)"},
    {"[\"" S_SECRET "\"]", "its output is an array, not a JSON object"},
    {"\"" S_SECRET "\"", "its output is a string, not a JSON object"},
    {"{" S_KEYS "}", "profile `dev`: credential_process gave no Version; anvil reads Version 1"},
    {"{\"Version\":2," S_KEYS "}", "profile `dev`: credential_process gave Version 2; anvil reads Version 1"},
    {"{\"Version\":1.5," S_KEYS "}", "gave Version 1.5; anvil reads Version 1"},
    {"{\"Version\":\"1\"," S_KEYS "}", "gave Version \"1\", a string; anvil reads Version 1 (a number)"},
    {"{\"Version\":\"\\u001b[2J\"," S_KEYS "}", "gave Version \"\\x1b[2J\", a string"},
    {"{\"Version\":null," S_KEYS "}", "gave null as its Version; anvil reads Version 1"},
    {"{\"Version\":[1]," S_KEYS "}", "gave an array as its Version"},
    {"{\"Version\":1,\"SecretAccessKey\":\"" S_SECRET "\"}", "gave no AccessKeyId"},
    {"{\"Version\":1,\"AccessKeyId\":\"\",\"SecretAccessKey\":\"" S_SECRET "\"}", "AccessKeyId is empty"},
    {"{\"Version\":1,\"AccessKeyId\":7,\"SecretAccessKey\":\"" S_SECRET "\"}", "AccessKeyId is a number, not a string"},
    {"{\"Version\":1,\"AccessKeyId\":\"AK\\u0000ID\",\"SecretAccessKey\":\"" S_SECRET "\"}",
     "AccessKeyId holds a NUL character"},
    {"{\"Version\":1,\"AccessKeyId\":\"AK ID\",\"SecretAccessKey\":\"" S_SECRET "\"}",
     "the access key id, session token or account id holds a space"},
    {"{\"Version\":1,\"AccessKeyId\":\"AKID\"}", "gave no SecretAccessKey"},
    {"{\"Version\":1,\"AccessKeyId\":\"AKID\",\"SecretAccessKey\":null}", "gave no SecretAccessKey"},
    {"{\"Version\":1,\"AccessKeyId\":\"AKID\",\"SecretAccessKey\":{\"s\":\"" S_SECRET "\"}}",
     "SecretAccessKey is an object, not a string"},
    {"{\"Version\":1," S_KEYS ",\"SessionToken\":true}", "SessionToken is a boolean, not a string"},
    {"{\"Version\":1," S_KEYS ",\"SessionToken\":\"" S_TOKEN " " S_TOKEN "\"}",
     "the access key id, session token or account id holds a space"},
    {"{\"Version\":1," S_KEYS ",\"Expiration\":\"tomorrow\"}",
     "profile `dev`: credential_process: Expiration `tomorrow` is not an ISO-8601 date"},
    {"{\"Version\":1," S_KEYS ",\"Expiration\":\"2030-02-30T00:00:00Z\"}",
     "Expiration `2030-02-30T00:00:00Z` is not an ISO-8601 date"},
    {"{\"Version\":1," S_KEYS ",\"Expiration\":\"1970-01-01T00:00:00Z\"}",
     "Expiration `1970-01-01T00:00:00Z` is not a date after 1970-01-01T00:00:00Z"},
    {"{\"Version\":1," S_KEYS ",\"Expiration\":\"0123456789012345678901234567890123456789012345678901234567890\"}",
     "Expiration `012345678901234567890123456789012345678901234567...` is not"},
    {"{\"Version\":1," S_KEYS ",\"Expiration\":\"\\u0007\\u202e\"}", "Expiration `\\x07\\u{202e}` is not"},
    {"{\"Version\":1," S_KEYS ",\"Expiration\":1893553445}", "Expiration is a number, not an ISO-8601 string"},
    {"{\"Version\":1," S_KEYS ",\"AccountId\":\"12345\"}", "AccountId `12345` is not 12 digits"},
    {"{\"Version\":1," S_KEYS ",\"AccountId\":\"12345678901x\"}", "AccountId `12345678901x` is not 12 digits"},
    {"{\"Version\":1," S_KEYS ",\"AccountId\":\"1234567890123\"}", "AccountId `1234567890123` is not 12 digits"},
    {"{\"Version\":1," S_KEYS ",\"AccountId\":123456789012}", "AccountId is a number, not a string of 12 digits"},
};

TEST(credentials_process_parse_errors_hold_no_secret) {
    struct anvil_credentials c;
    for (size_t i = 0; i < ANVIL_ARRAY_LEN(s_parse_errors); i++) {
        const struct s_parse_error *e = &s_parse_errors[i];
        struct anvil_diag diag;
        anvil_diag_clear(&diag);
        int rc = anvil__credentials_process_parse(t->alloc, "dev", e->json, strlen(e->json), &c, &diag);
        if (rc == ANVIL_ENOMEM) {
            CHECK_STATUS(rc, ANVIL_ECONFIG);
        }
        if (rc != ANVIL_ECONFIG || !strstr(diag.message, e->message)) {
            anvil_test_fail(t, __FILE__, __LINE__, "case %zu: %d \"%s\"", i, rc, diag.message);
            goto done;
        }
        CHECK(strncmp(diag.message, "profile `dev`: credential_process", 33) == 0);
        CHECK(strstr(diag.message, S_SECRET) == NULL);
        CHECK(strstr(diag.message, "wJalr") == NULL);
        CHECK(strstr(diag.message, S_TOKEN) == NULL);
        CHECK(strstr(diag.message, "IQoJb3") == NULL);
        CHECK(anvil__utf8_valid(diag.message, strlen(diag.message)));
        /* Nothing of a failed read is left behind. */
        CHECK(c.access_key_id[0] == '\0' && c.secret_access_key[0] == '\0' && c.session_token[0] == '\0');
    }
done:
    anvil_credentials_clear(&c);
}

TEST(credentials_process_parse_field_sizes) {
    struct anvil_credentials c;
    char *json = malloc(20000);
    CHECK_ALLOC(json);
    struct anvil_diag diag;
    /* Each value fits its field up to the last byte, and is refused one byte past it, by name. */
    static const struct {
        const char *key;
        size_t max;
    } fields[] = {{"AccessKeyId", 127}, {"SecretAccessKey", 127}, {"SessionToken", 8191}};
    for (size_t f = 0; f < ANVIL_ARRAY_LEN(fields); f++) {
        for (size_t extra = 0; extra < 2; extra++) {
            size_t n = (size_t)snprintf(json, 20000, "{\"Version\":1," S_KEYS ",\"%s\":\"", fields[f].key);
            memset(json + n, 'k', fields[f].max + extra);
            n += fields[f].max + extra;
            snprintf(json + n, 20000 - n, "\"}");
            anvil_diag_clear(&diag);
            int rc = anvil__credentials_process_parse(t->alloc, "dev", json, strlen(json), &c, &diag);
            if (extra == 0) {
                CHECK_OK(rc);
            } else {
                char want[128];
                snprintf(want, sizeof want,
                         "profile `dev`: credential_process: %s is %zu bytes; anvil takes at most %zu", fields[f].key,
                         fields[f].max + 1, fields[f].max);
                CHECK_STATUS(rc, ANVIL_ECONFIG);
                CHECK_STR_EQ(diag.message, want);
            }
        }
    }
done:
    anvil_credentials_clear(&c);
    free(json);
}

TEST(credentials_process_parse_odd_profile_names) {
    struct anvil_credentials c;
    const char *json = "{\"Version\":1," S_KEYS "}";
    char name[600];
    memset(name, 'p', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    CHECK_OK(anvil__credentials_process_parse(t->alloc, name, json, strlen(json), &c, NULL));
    CHECK(strlen(c.source) < sizeof c.source);
    CHECK(strstr(c.source, "...`: credential_process") != NULL);
    /* Controls and bytes that are not UTF-8 are escaped, and a cut never splits a character. */
    memset(name, 0, sizeof name);
    for (size_t i = 0; i + 2 < 300; i += 2) {
        memcpy(name + i, "\xc3\xa9", 2);
    }
    CHECK_OK(anvil__credentials_process_parse(t->alloc, name, json, strlen(json), &c, NULL));
    CHECK(anvil__utf8_valid(c.source, strlen(c.source)));
    CHECK_OK(anvil__credentials_process_parse(t->alloc, "a\x1b[31m\xff", json, strlen(json), &c, NULL));
    CHECK_STR_EQ(c.source, "profile `a\\x1b[31m\\xff`: credential_process");
    /* A name that grows fourfold when escaped is cut further, so the source still ends whole. */
    memset(name, 0, sizeof name);
    memset(name, '\x01', 300);
    CHECK_OK(anvil__credentials_process_parse(t->alloc, name, json, strlen(json), &c, NULL));
    CHECK(strlen(c.source) < sizeof c.source);
    CHECK(strncmp(c.source, "profile `\\x01\\x01", 17) == 0);
    CHECK(strstr(c.source, "...`: credential_process") != NULL);
done:
    anvil_credentials_clear(&c);
}

/* ---- running commands ---- */

struct s_dir {
    char path[256];
    char files[8][320];
    size_t count;
};

static bool s_mkdtemp(struct s_dir *d, const char *sub) {
    memset(d, 0, sizeof *d);
    snprintf(d->path, sizeof d->path, "%s/anvil-cp-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(d->path)) {
        return false;
    }
    if (sub) {
        char base[sizeof d->path]; /* a copy: gcc -O2 cannot tell the two members apart (-Wrestrict) */
        memcpy(base, d->path, sizeof base);
        snprintf(d->files[d->count], sizeof d->files[0], "%s/%s", base, sub);
        if (mkdir(d->files[d->count], 0700) != 0) {
            return false;
        }
        /* Listed as a file to remove: rmdir runs after the files inside it, in reverse order. */
        d->count++;
    }
    return true;
}

/* Writes an executable shell script `name` (under the folder) and returns its path. */
static const char *s_script(struct s_dir *d, const char *name, const char *body) {
    char *path = d->files[d->count];
    char base[sizeof d->path]; /* a copy: gcc -O2 cannot tell the two members apart (-Wrestrict) */
    memcpy(base, d->path, sizeof base);
    snprintf(path, sizeof d->files[0], "%s/%s", base, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        return NULL;
    }
    d->count++;
    bool ok = fputs("#!/bin/sh\n", f) >= 0 && fputs(body, f) >= 0;
    if (fclose(f) != 0 || !ok || chmod(path, 0755) != 0) {
        return NULL;
    }
    return path;
}

static void s_remove(struct s_dir *d) {
    while (d->count > 0) {
        const char *p = d->files[--d->count];
        if (unlink(p) != 0) {
            rmdir(p);
        }
    }
    if (d->path[0]) {
        rmdir(d->path);
    }
}

#define S_PRINT_KEYS "printf '%s' '{\"Version\": 1, " S_KEYS

TEST(credentials_process_runs_a_script) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *temp = s_script(&d, "temp.sh",
                                S_PRINT_KEYS ", \"SessionToken\": \"" S_TOKEN "\", "
                                             "\"Expiration\": \"2030-01-02T03:04:05Z\"}'\n");
    const char *keys = s_script(&d, "keys.sh",
                                "echo 'a warning on standard error' >&2\n"
                                "printf '{\"Version\": 1, \"AccessKeyId\": \"%s\", \"SecretAccessKey\": \"%s\"}\\n' "
                                "\"$1\" \"$2\"\n");
    CHECK(temp && keys);
    char command[512];
    snprintf(command, sizeof command, "'%s'", temp);
    CHECK_OK(anvil__credentials_process(command, "dev", NULL, &c, &diag));
    CHECK_STR_EQ(c.access_key_id, "AKIDPROCESS");
    CHECK_STR_EQ(c.secret_access_key, S_SECRET);
    CHECK_STR_EQ(c.session_token, S_TOKEN);
    CHECK_EQ_U64(c.expires_ms, UINT64_C(1893553445000));
    CHECK_STR_EQ(c.provider, "process");
    CHECK_STR_EQ(c.source, "profile `dev`: credential_process");
    /* Arguments arrive as the shell would pass them: quoted words whole, $ untouched. */
    snprintf(command, sizeof command, "%s AKID\\$ARG \"sec ret\"", keys);
    CHECK_OK(anvil__credentials_process(command, "dev", NULL, &c, &diag));
    CHECK_STR_EQ(c.access_key_id, "AKID$ARG");
    CHECK_STR_EQ(c.secret_access_key, "sec ret");
    CHECK_STR_EQ(c.session_token, "");
    CHECK_EQ_U64(c.expires_ms, 0);
done:
    anvil_credentials_clear(&c);
    s_remove(&d);
}

TEST(credentials_process_path_with_a_space) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, "my tools"));
    const char *script = s_script(&d, "my tools/get creds.sh", S_PRINT_KEYS "}'\n");
    CHECK(script != NULL);
    char command[512];
    snprintf(command, sizeof command, "\"%s\" --profile dev", script);
    CHECK_OK(anvil__credentials_process(command, "dev", NULL, &c, &diag));
    CHECK_STR_EQ(c.access_key_id, "AKIDPROCESS");
    /* Unquoted, the path is two words, and the first is no program. */
    snprintf(command, sizeof command, "%s --profile dev", script);
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(command, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK(strstr(diag.message, "profile `dev`: credential_process: cannot run `") != NULL);
    CHECK(strstr(diag.message, "/my`") != NULL);
done:
    anvil_credentials_clear(&c);
    s_remove(&d);
}

TEST(credentials_process_exit_status_shows_first_line_of_stderr) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *fail =
        s_script(&d, "fail.sh",
                 S_PRINT_KEYS "}'\n"
                              "printf '\\n  \\nError: the SSO session has expired \\r\\nsecond line\\n' >&2\n"
                              "exit 1\n");
    const char *quiet = s_script(&d, "quiet.sh", "exit 3\n");
    CHECK(fail && quiet);
    CHECK_STATUS(anvil__credentials_process(fail, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process exited 1: Error: the SSO session has expired");
    /* What it printed on standard output is not taken, and not shown. */
    CHECK_STR_EQ(c.access_key_id, "");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(quiet, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process exited 3");
done:
    s_remove(&d);
}

TEST(credentials_process_stderr_is_escaped_and_cut) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *odd =
        s_script(&d, "odd.sh", "printf 'bad \\033[31mred\\001\\377\\376 caf\\303\\251 end\\n' >&2\nexit 2\n");
    const char *odd_cut = s_script(&d, "long.sh",
                                   "i=0; s=''; while [ $i -lt 99 ]; do s=\"${s}ab\"; i=$((i+1)); done\n"
                                   "printf 'x%s\\303\\251tail\\n' \"$s\" >&2\nexit 1\n");
    CHECK(odd && odd_cut);
    CHECK_STATUS(anvil__credentials_process(odd, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message,
                 "profile `dev`: credential_process exited 2: bad \\x1b[31mred\\x01\\xff\\xfe caf\xc3\xa9 end");
    CHECK(anvil__utf8_valid(diag.message, strlen(diag.message)));
    /* 199 bytes, then a 2-byte character that would end past 200: the cut comes before it. */
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(odd_cut, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    const char *shown = strstr(diag.message, "exited 1: x");
    CHECK(shown != NULL);
    CHECK_EQ_U64(strlen(shown + 10), 199 + 3);
    CHECK(strcmp(shown + 10 + 199, "...") == 0);
    CHECK(anvil__utf8_valid(diag.message, strlen(diag.message)));
done:
    s_remove(&d);
}

TEST(credentials_process_killed_by_a_signal) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *script = s_script(&d, "term.sh", "echo 'stopping' >&2\nkill -TERM $$\n");
    CHECK(script != NULL);
    CHECK_STATUS(anvil__credentials_process(script, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process was killed by SIGTERM (signal 15): stopping");
done:
    s_remove(&d);
}

TEST(credentials_process_timeout_kills_it) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    /* The sleep is a child of the script: the whole group goes, or the call would wait for it. */
    const char *script = s_script(&d, "hang.sh", "echo 'waiting for the browser login' >&2\nsleep 600\necho done\n");
    CHECK(script != NULL);
    /* The deadline is on the env's clock: the real one, for a quarter of a second. */
    struct anvil_credentials_options o = {.process_timeout_ms = 250};
    CHECK_STATUS(anvil__credentials_process(script, "dev", &o, &c, &diag), ANVIL_ETIMEDOUT);
    CHECK_STR_EQ(diag.message,
                 "profile `dev`: credential_process did not finish in 250 ms (killed): waiting for the browser login");
done:
    s_remove(&d);
}

TEST(credentials_process_cancel) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *script = s_script(&d, "ok.sh", S_PRINT_KEYS "}'\n");
    CHECK(script != NULL);
    volatile sig_atomic_t cancel = 1;
    struct anvil_credentials_options o = {.cancel = &cancel};
    CHECK_STATUS(anvil__credentials_process(script, "dev", &o, &c, &diag), ANVIL_ECANCELED);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process: cancelled (killed)");
done:
    s_remove(&d);
}

TEST(credentials_process_huge_output_is_cut_off) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *out = s_script(&d, "yes.sh", "exec yes '\"" S_SECRET "\"'\n");
    const char *err = s_script(&d, "yes-err.sh", "exec yes 'noise' >&2\n");
    CHECK(out && err);
    CHECK_STATUS(anvil__credentials_process(out, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process wrote more than 1048576 bytes (killed)");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(err, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process wrote more than 1048576 bytes (killed)");
done:
    s_remove(&d);
}

TEST(credentials_process_bad_output) {
    struct s_dir d;
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK(s_mkdtemp(&d, NULL));
    const char *v2 = s_script(&d, "v2.sh", "printf '%s' '{\"Version\": 2, " S_KEYS "}'\n");
    const char *text = s_script(&d, "text.sh", "echo 'AWS_SECRET_ACCESS_KEY=" S_SECRET "'\n");
    const char *none = s_script(&d, "none.sh", "exit 0\n");
    CHECK(v2 && text && none);
    CHECK_STATUS(anvil__credentials_process(v2, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process gave Version 2; anvil reads Version 1");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(text, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process: its output is not JSON (line 1, column 1)");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(none, "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process wrote nothing on its standard output");
done:
    s_remove(&d);
}

TEST(credentials_process_bad_command_lines) {
    struct anvil_credentials c;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process("/nonexistent/anvil-creds --x", "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message,
                 "profile `dev`: credential_process: cannot run `/nonexistent/anvil-creds`: No such file or directory");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process("\"/opt/x y/creds", "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process: the double quote at offset 0 is never closed");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process("  ", "dev", NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `dev`: credential_process: no command: the line holds only blanks");
    anvil_diag_clear(&diag);
    CHECK_STATUS(anvil__credentials_process(NULL, NULL, NULL, &c, &diag), ANVIL_ECONFIG);
    CHECK_STR_EQ(diag.message, "profile `default`: credential_process: no command: the line is empty");
done:
    return;
}
