/*
 * credential_process's pure parts (credentials_process.c), exposed for the
 * unit tests and the fuzz target: the command line split into words as a
 * POSIX shell splits them, and the command's output read into credentials.
 */
#ifndef ANVIL_TRANSPORT_CREDENTIALS_PROCESS_INTERNAL_H
#define ANVIL_TRANSPORT_CREDENTIALS_PROCESS_INTERNAL_H

#include "anvil/arena.h"
#include "anvil/credentials.h"

/* The longest command line, in bytes. */
#define ANVIL__PROCESS_MAX_COMMAND_BYTES ((size_t)32 << 10)
/* The most words a command line may split into (the program and its arguments). */
#define ANVIL__PROCESS_MAX_WORDS 256
/* The most bytes kept of each of the command's standard output and error; more kills it. */
#define ANVIL__PROCESS_MAX_OUTPUT_BYTES ((size_t)1 << 20)
/* How long the command may run when the options do not say (it is killed then). */
#define ANVIL__PROCESS_DEFAULT_TIMEOUT_MS ((uint64_t)60 * 1000)
/* The most bytes of the command's first line of standard error a message shows. */
#define ANVIL__PROCESS_STDERR_SHOWN_BYTES 200

/*
 * Splits `len` bytes of `text` into words as a POSIX shell does, without
 * any expansion: blanks (space, tab, newline, carriage return) separate
 * words; a backslash outside quotes keeps the next byte (a backslash before
 * a newline removes both); single quotes keep everything up to the next
 * single quote; inside double quotes a backslash escapes only \ " $ ` and
 * newline (removed with it) and is kept before anything else. `$VAR`,
 * `~`, globs, `$(...)`, backquotes and operators such as `|` and `;` are
 * ordinary characters.
 *
 * On success `*argv` holds `*argc` (1 to ANVIL__PROCESS_MAX_WORDS) words
 * followed by NULL, array and words alike in `arena` (they live as long as
 * it does). ANVIL_OK; ANVIL_ESYNTAX for an unterminated quote, a trailing
 * backslash, a NUL byte or no word at all (diag: the position, and the
 * message names the byte offset); ANVIL_ELIMIT for more than
 * ANVIL__PROCESS_MAX_COMMAND_BYTES bytes or ANVIL__PROCESS_MAX_WORDS
 * words; ANVIL_ENOMEM; ANVIL_EINVAL for a NULL argument. Thread-safe.
 */
int anvil__shell_split(struct anvil_arena *arena, const char *text, size_t len, char ***argv, size_t *argc,
                       struct anvil_diag *diag);

/*
 * Reads `len` bytes of a credential_process's standard output into `out`
 * (cleared first, and again on failure): a JSON object with "Version" the
 * number 1, "AccessKeyId" and "SecretAccessKey" non-empty strings, and the
 * optional "SessionToken" string, "Expiration" (an ISO-8601 date after
 * 1970; epoch seconds and HTTP dates as text are taken too, as
 * anvil__timestamp_parse_any() reads them) and "AccountId" (12 digits);
 * other keys are ignored, and an optional key that is null counts as
 * absent, as does an empty SessionToken or AccountId. Provider "process", source "profile `NAME`:
 * credential_process" (`profile` NULL = "default"; a long or odd name is
 * cut and escaped). Temporary memory comes from `allocator` (NULL =
 * default) and is overwritten before it is released, since it held the
 * secrets.
 *
 * ANVIL_OK; ANVIL_ECONFIG (diag: why, naming the profile and the key,
 * never a secret, a session token or the output's text; a value that is
 * not secret — Version, Expiration, AccountId — may be shown escaped and
 * shortened); ANVIL_ENOMEM; ANVIL_EINVAL for a NULL `out` or NULL `text`
 * with `len` > 0. Thread-safe.
 */
int anvil__credentials_process_parse(struct anvil_allocator *allocator, const char *profile, const char *text,
                                     size_t len, struct anvil_credentials *out, struct anvil_diag *diag);

#endif
