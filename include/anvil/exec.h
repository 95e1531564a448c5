#ifndef ANVIL_EXEC_H
#define ANVIL_EXEC_H

/**
 * The exec transport: an operation carried out by running a command, as
 * `anvil wait --exec` does. The command runs without a shell; the request
 * JSON goes to its standard input; exit status 0 with JSON (or nothing) on
 * standard output is the operation's output; any other exit is an error
 * whose code comes from a JSON standard error (`{"code": ..., "message":
 * ..., "status": ...}`) or from aws-cli's text `An error occurred (Code)
 * when calling the Op operation: message`. docs/exec.md has the contract.
 * POSIX only.
 */

#include <signal.h>

#include "anvil/buffer.h"
#include "anvil/env.h"
#include "anvil/waiter.h"

ANVIL_EXTERN_C_BEGIN

#define ANVIL_EXEC_DEFAULT_MAX_OUTPUT ((size_t)64 << 20)

struct anvil_exec_options {
    /** Most bytes kept from each of stdout and stderr; more kills the command (ANVIL_ELIMIT). Default 64 MiB. */
    size_t max_output_bytes;
    /** The clock the deadline is on (NULL = anvil_env_system()). */
    const struct anvil_env *env;
    /** When non-zero: at this time the command is killed and the run ends with ANVIL_ETIMEDOUT. */
    uint64_t deadline_ms;
    /**
     * When set and non-zero (a signal handler may set it), the command is
     * killed within 50 ms and the run ends with ANVIL_ECANCELED. NULL = not
     * cancellable.
     */
    const volatile sig_atomic_t *cancel;
};

struct anvil_exec_result {
    /** The exit status (0-255) when the command exited, else -1. */
    int exit_status;
    /** The signal that ended it, else 0. */
    int signal;
    struct anvil_buf out;
    struct anvil_buf err;
};

/**
 * Runs `argv[0]` (found through PATH) with `argv` in a process group of its
 * own, writing `in_len` bytes of `in` to its standard input, collecting its
 * standard output and error until it exits; what it wrote before exiting is
 * kept, and nothing it leaves running (holding the pipes open or not) delays
 * the return. ANVIL_OK whenever the command ran to its end, whatever its
 * exit status; ANVIL_EIO when it could not be started (diag names the
 * command and the reason) or its exit was lost (SIGCHLD ignored);
 * ANVIL_ETIMEDOUT at the deadline, ANVIL_ECANCELED when the cancel flag is
 * set and ANVIL_ELIMIT past the output cap: in those three cases the
 * command's whole process group is killed (SIGKILL) and the command reaped
 * before the call returns. ANVIL_ENOMEM. SIGPIPE is blocked in the calling
 * thread while writing, never delivered; the command starts with the
 * caller's signal mask and with SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT
 * and SIGCHLD at their defaults. Not async-signal-safe; thread-safe as long
 * as no other thread reaps children it did not start. Release the result
 * with anvil_exec_result_clean_up() in every case.
 */
ANVIL_API int anvil_exec_run(struct anvil_allocator *allocator, char *const argv[], const char *in, size_t in_len,
                             const struct anvil_exec_options *options, struct anvil_exec_result *result,
                             struct anvil_diag *diag);

ANVIL_API void anvil_exec_result_clean_up(struct anvil_exec_result *result);

/**
 * Reads an error out of a failed command's standard error: a JSON object
 * with `code` (or `Code`, `__type`), `message` (or `Message`) and an
 * optional numeric `status`; else aws-cli's `An error occurred (Code)`;
 * else no code and the last non-empty line as the message. Strings are
 * copied into `arena`.
 */
ANVIL_API int anvil_exec_parse_error(struct anvil_str_view text, struct anvil_arena *arena,
                                     struct anvil_operation_error *out);

/** What anvil_exec_operation() needs: the command and its options. */
struct anvil_exec_operation {
    char *const *argv;
    struct anvil_exec_options options;
    struct anvil_allocator *allocator;
};

/**
 * An anvil_operation_fn (user_data = struct anvil_exec_operation *):
 * writes the input as JSON to the command, runs it until it exits or the
 * wait's deadline, and answers its output (exit 0, HTTP status 200) or its
 * error (ANVIL_ESERVICE). A command that cannot start gives ANVIL_EIO,
 * output that is not JSON ANVIL_ESYNTAX, the deadline ANVIL_ETIMEDOUT, the
 * options' cancel flag ANVIL_ECANCELED, each with the reason in
 * `reply->error.message`.
 */
ANVIL_API int anvil_exec_operation(void *user_data, const struct anvil_json *input, uint64_t deadline_ms,
                                   struct anvil_arena *arena, struct anvil_operation_reply *reply);

ANVIL_EXTERN_C_END

#endif
