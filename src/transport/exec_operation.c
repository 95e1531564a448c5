/*
 * The exec transport as a waiter operation: the input as JSON on stdin,
 * stdout's JSON as the output, and the error read from stderr.
 */

#include <stdio.h>
#include <string.h>

#include "anvil/exec.h"
#include "anvil/text.h"
#include "core/core_internal.h"

/* The most kept of an error's code and message: the command is anyone's, and may write megabytes. */
#define S_CODE_MAX 256
#define S_MESSAGE_MAX 4096

/* Copies the command's bytes (not to be trusted) into the arena: valid UTF-8, at most a message's worth. */
static int s_copy(struct anvil_arena *arena, struct anvil_str_view in, struct anvil_str_view *out) {
    return anvil__text_keep(arena, in, S_MESSAGE_MAX, out);
}

static const struct anvil_json *s_first_string(const struct anvil_json *object, const char *const *keys) {
    for (; *keys; keys++) {
        const struct anvil_json *v = anvil_json_object_get_cstr(object, *keys);
        if (anvil_json_is_string(v)) {
            return v;
        }
    }
    return NULL;
}

/* `{"code": ..., "message": ..., "status": ...}` on stderr (the whole text, trimmed). */
static int s_json_error(struct anvil_str_view text, struct anvil_arena *arena, struct anvil_operation_error *out,
                        bool *found) {
    *found = false;
    if (text.len == 0 || text.ptr[0] != '{') {
        return ANVIL_OK;
    }
    struct anvil_json value;
    int rc = anvil_json_parse_into(arena, NULL, text.ptr, text.len, NULL, &value, NULL);
    if (rc == ANVIL_ENOMEM) {
        return rc;
    }
    static const char *const code_keys[] = {"code", "Code", "__type", NULL};
    static const char *const message_keys[] = {"message", "Message", NULL};
    const struct anvil_json *code = rc == ANVIL_OK ? s_first_string(&value, code_keys) : NULL;
    if (!code) {
        return ANVIL_OK;
    }
    const struct anvil_json *message = s_first_string(&value, message_keys);
    const struct anvil_json *status = anvil_json_object_get_cstr(&value, "status");
    out->code = anvil_json_string(code);
    out->message = message ? anvil_json_string(message) : anvil_sv("", 0);
    if (anvil_json_is_int(status) && anvil_json_int(status) >= 100 && anvil_json_int(status) <= 999) {
        out->http_status = (int)anvil_json_int(status);
    }
    /* Strings of the parsed value may sit inline in `value`, which is on this stack: copy them. */
    *found = true;
    rc = anvil__text_keep(arena, out->code, S_CODE_MAX, &out->code);
    return rc == ANVIL_OK ? s_copy(arena, out->message, &out->message) : rc;
}

/* aws-cli: "An error occurred (Code) when calling the Op operation: message". */
static bool s_cli_error(struct anvil_str_view text, struct anvil_operation_error *out) {
    static const char marker[] = "An error occurred (";
    size_t m = sizeof marker - 1;
    for (size_t i = 0; i + m <= text.len; i++) {
        if (memcmp(text.ptr + i, marker, m) != 0) {
            continue;
        }
        size_t start = i + m;
        size_t close = anvil_sv_find_byte(text, start, ')');
        if (close == SIZE_MAX || close == start) {
            return false;
        }
        out->code = anvil_sv_slice(text, start, close - start);
        size_t colon = anvil_sv_find_byte(text, close, ':');
        size_t end = anvil_sv_find_byte(text, close, '\n');
        if (end == SIZE_MAX) {
            end = text.len;
        }
        out->message = colon != SIZE_MAX && colon < end
                           ? anvil_sv_trim(anvil_sv_slice(text, colon + 1, end - colon - 1))
                           : anvil_sv("", 0);
        return true;
    }
    return false;
}

/* The last non-empty line, trimmed. */
static struct anvil_str_view s_last_line(struct anvil_str_view text) {
    text = anvil_sv_trim(text);
    size_t start = text.len;
    while (start > 0 && text.ptr[start - 1] != '\n') {
        start--;
    }
    return anvil_sv_trim(anvil_sv_slice(text, start, text.len - start));
}

int anvil_exec_parse_error(struct anvil_str_view text, struct anvil_arena *arena, struct anvil_operation_error *out) {
    memset(out, 0, sizeof *out);
    text = anvil_sv_trim(text);
    bool found;
    int rc = s_json_error(text, arena, out, &found);
    if (rc != ANVIL_OK || found) {
        return rc;
    }
    if (!s_cli_error(text, out)) {
        out->message = s_last_line(text);
    }
    rc = anvil__text_keep(arena, out->code, S_CODE_MAX, &out->code);
    return rc == ANVIL_OK ? s_copy(arena, out->message, &out->message) : rc;
}

/* Puts `what` (formatted by the transport) in the reply's message and returns `status`. */
static int s_fail(struct anvil_arena *arena, struct anvil_operation_reply *reply, int status, const char *what) {
    int rc = s_copy(arena, anvil_sv_from_cstr(what), &reply->error.message);
    return rc == ANVIL_OK ? status : rc;
}

int anvil_exec_operation(void *user_data, const struct anvil_json *input, uint64_t deadline_ms,
                         struct anvil_arena *arena, struct anvil_operation_reply *reply) {
    const struct anvil_exec_operation *op = user_data;
    struct anvil_buf in;
    anvil_buf_init(&in, op->allocator, 0);
    struct anvil_json null_input = anvil_json_make_null();
    int rc = anvil_json_write(input ? input : &null_input, 0, &in);
    if (rc == ANVIL_OK) {
        rc = anvil_buf_append_byte(&in, '\n');
    }
    if (rc != ANVIL_OK) {
        anvil_buf_clean_up(&in);
        return rc;
    }
    struct anvil_exec_options options = op->options;
    if (deadline_ms && (!options.deadline_ms || deadline_ms < options.deadline_ms)) {
        options.deadline_ms = deadline_ms;
    }
    struct anvil_exec_result result;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    rc = anvil_exec_run(op->allocator, op->argv, in.data, in.len, &options, &result, &diag);
    anvil_buf_clean_up(&in);
    if (rc == ANVIL_OK && result.exit_status == 0) {
        struct anvil_str_view out = anvil_sv_trim(anvil_buf_view(&result.out));
        reply->http_status = 200;
        if (out.len == 0) {
            reply->output = anvil_json_make_null();
        } else {
            rc = anvil_json_parse_into(arena, op->allocator, out.ptr, out.len, NULL, &reply->output, &diag);
            if (rc == ANVIL_ESYNTAX || rc == ANVIL_ELIMIT) {
                char what[ANVIL_DIAG_MESSAGE_MAX + 64];
                snprintf(what, sizeof what, "the output of `%s` is not JSON: %zu:%zu: %s", op->argv[0], diag.line,
                         diag.column, diag.message);
                rc = s_fail(arena, reply, rc, what);
            }
        }
    } else if (rc == ANVIL_OK) {
        rc = anvil_exec_parse_error(anvil_buf_view(&result.err), arena, &reply->error);
        if (rc == ANVIL_OK && reply->error.code.len == 0) {
            struct anvil_buf what;
            anvil_buf_init(&what, NULL, 0);
            struct anvil_str_view m = reply->error.message;
            if (result.signal) {
                rc = anvil_buf_appendf(&what, "`%s` was killed by signal %d", op->argv[0], result.signal);
            } else {
                rc = anvil_buf_appendf(&what, "`%s` exited with status %d%s", op->argv[0], result.exit_status,
                                       m.len ? ": " : "");
                rc = rc == ANVIL_OK ? anvil_text_append_utf8(&what, m, 400) : rc;
            }
            if (rc == ANVIL_OK) {
                rc = s_copy(arena, anvil_buf_view(&what), &reply->error.message);
            }
            anvil_buf_clean_up(&what);
        }
        rc = rc == ANVIL_OK ? ANVIL_ESERVICE : rc;
    } else if (rc != ANVIL_ENOMEM) {
        rc = s_fail(arena, reply, rc, diag.message);
    }
    anvil_exec_result_clean_up(&result);
    return rc;
}
