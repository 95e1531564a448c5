/* Reading whole inputs (files or standard input) with a size cap. */

/* MAP_POPULATE is a Linux extension. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Files at least this large are mapped rather than read: no copy, and the
 * pages arrive in one populate call instead of one fault each. */
#define S_MAP_MIN_BYTES ((off_t)1 << 16)

static int s_read_stream(FILE *f, size_t max_bytes, struct anvil_buf *out, const char *const *label);

int cli_input_read(const char *path, size_t max_bytes, struct cli_input *in) {
    memset(in, 0, sizeof(*in));
    bool use_stdin = path == NULL || strcmp(path, "-") == 0;
    in->label = use_stdin ? "<stdin>" : path;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error("cannot open '%s': %s", path, strerror(errno));
        return CLI_EXIT_NO_INPUT;
    }
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (regular && (uintmax_t)st.st_size > max_bytes) {
        cli_error("%s: input is larger than the limit of %zu bytes", in->label, max_bytes);
        if (!use_stdin) {
            fclose(f);
        }
        return CLI_EXIT_DATA;
    }
    if (regular && st.st_size >= S_MAP_MIN_BYTES) {
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE;
#endif
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fileno(f), 0);
        if (map != MAP_FAILED) {
            in->mapping = map;
            in->mapping_len = (size_t)st.st_size;
            in->data = map;
            in->len = (size_t)st.st_size;
            if (!use_stdin) {
                fclose(f);
            }
            return CLI_EXIT_OK;
        }
    }
    anvil_buf_init(&in->buf, NULL, max_bytes);
    if (regular && st.st_size > 0) {
        (void)anvil_buf_reserve(&in->buf, (size_t)st.st_size + 1);
    }
    int code = s_read_stream(f, max_bytes, &in->buf, &in->label);
    if (!use_stdin) {
        fclose(f);
    }
    if (code == CLI_EXIT_OK) {
        in->data = in->buf.data ? in->buf.data : "";
        in->len = in->buf.len;
    }
    return code;
}

void cli_input_release(struct cli_input *in) {
    if (in->mapping) {
        munmap(in->mapping, in->mapping_len);
    }
    anvil_buf_clean_up(&in->buf);
    memset(in, 0, sizeof(*in));
}

static int s_read_stream(FILE *f, size_t max_bytes, struct anvil_buf *out, const char *const *label) {
    int code = CLI_EXIT_OK;
    for (;;) {
        int rc = out->capacity - out->len > 4096 ? ANVIL_OK : anvil_buf_reserve(out, 65536);
        if (rc == ANVIL_ELIMIT) {
            /* Near the cap: read what still fits, then see whether more remains. */
            size_t room = out->max_len - out->len;
            if (room == 0) {
                if (fgetc(f) != EOF) {
                    cli_error("%s: input is larger than the limit of %zu bytes", *label, max_bytes);
                    code = CLI_EXIT_DATA;
                }
                break;
            }
            rc = anvil_buf_reserve(out, room);
        }
        if (rc != ANVIL_OK) {
            cli_error("%s: out of memory reading the input", *label);
            code = CLI_EXIT_INTERNAL;
            break;
        }
        size_t room = out->capacity - out->len - 1;
        size_t n = fread(out->data + out->len, 1, room, f);
        out->len += n;
        out->data[out->len] = '\0';
        if (n < room) {
            if (ferror(f)) {
                cli_error("cannot read '%s': %s", *label, strerror(errno));
                code = CLI_EXIT_NO_INPUT;
            }
            break;
        }
    }
    if (code != CLI_EXIT_OK) {
        anvil_buf_clean_up(out);
    }
    return code;
}

int cli_write_file(const char *path, const char *bytes, size_t len) {
    size_t n = strlen(path);
    char *tmp = malloc(n + sizeof(".anvil-XXXXXX"));
    if (!tmp) {
        cli_error("%s: out of memory", path);
        return CLI_EXIT_IO;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".anvil-XXXXXX", sizeof(".anvil-XXXXXX"));
    const char *step = "cannot create a file beside it";
    int err = 0;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        err = errno;
    } else {
        /* mkstemp makes 0600; a written model is an ordinary file (0666 less the umask). */
        mode_t mask = umask(0);
        umask(mask);
        step = "cannot write it";
        if (fchmod(fd, 0666 & ~mask) != 0) {
            err = errno;
        }
        for (size_t done = 0; !err && done < len;) {
            ssize_t w = write(fd, bytes + done, len - done);
            if (w > 0) {
                done += (size_t)w;
            } else if (w == 0 || errno != EINTR) {
                err = w == 0 ? EIO : errno;
            }
        }
        if (!err && fsync(fd) != 0) {
            err = errno;
        }
        if (close(fd) != 0 && !err) {
            err = errno;
        }
        if (!err && rename(tmp, path) != 0) {
            err = errno;
            step = "cannot replace it";
        }
        if (!err) {
            free(tmp);
            return CLI_EXIT_OK;
        }
        unlink(tmp);
    }
    cli_error("%s: %s: %s", path, step, strerror(err));
    free(tmp);
    return CLI_EXIT_IO;
}

/* Standard output failed and that was said: later failures of the same stream are not said again. */
static bool s_output_failed;

int cli_write_output(const char *bytes, size_t len) {
    size_t done = 0;
    while (done < len) {
        errno = 0;
        done += fwrite(bytes + done, 1, len - done, stdout);
        if (done < len && errno == EINTR) {
            /* A signal the command catches (Ctrl-C ending a wait) interrupted a blocked write: finish it. */
            clearerr(stdout);
            continue;
        }
        if (done < len) {
            cli_output_error();
            return CLI_EXIT_IO;
        }
    }
    return CLI_EXIT_OK;
}

int cli_flush_output(void) {
    for (;;) {
        errno = 0;
        if (fflush(stdout) == 0) {
            return CLI_EXIT_OK;
        }
        if (errno != EINTR) {
            cli_output_error();
            return CLI_EXIT_IO;
        }
        clearerr(stdout);
    }
}

void cli_output_error(void) {
    if (!s_output_failed) {
        s_output_failed = true;
        cli_error("cannot write to standard output: %s", errno ? strerror(errno) : "write error");
    }
}

void cli_report_diag(const char *label, const struct anvil_diag *diag) {
    char line[ANVIL_DIAG_MESSAGE_MAX + 512];
    anvil_diag_format(diag, label, line, sizeof(line));
    struct anvil_buf shown;
    anvil_buf_init(&shown, NULL, 0);
    if (anvil_text_append_escaped(&shown, anvil_sv_from_cstr(line)) == ANVIL_OK &&
        anvil_buf_append_byte(&shown, '\n') == ANVIL_OK) {
        fwrite(shown.data, 1, shown.len, stderr);
    }
    anvil_buf_clean_up(&shown);
    cli_debug_origin(diag);
}

bool cli_debug;

void cli_debug_origin(const struct anvil_diag *diag) {
    const char *origin = anvil_diag_origin(diag);
    if (cli_debug && origin[0]) {
        cli_error("debug: the error was first raised at %s", origin);
    }
}

int cli_exit_for_status(int status) {
    switch (status) {
    case ANVIL_OK:
        return CLI_EXIT_OK;
    case ANVIL_ESYNTAX:
    case ANVIL_ETYPE:
    case ANVIL_EARITY:
    case ANVIL_EVALUE:
    case ANVIL_EMODEL:
    case ANVIL_ELIMIT:
        return CLI_EXIT_DATA;
    case ANVIL_EINVAL:
    case ANVIL_ENOTFOUND:
        return CLI_EXIT_USAGE;
    case ANVIL_ECONFIG:
    case ANVIL_EUNSUPPORTED:
        return CLI_EXIT_CONFIG;
    case ANVIL_EIO:
        return CLI_EXIT_IO;
    case ANVIL_ETIMEDOUT:
        return CLI_EXIT_TIMEOUT;
    case ANVIL_ETRANSPORT:
    case ANVIL_ESERVICE:
    case ANVIL_EQUOTA:
    case ANVIL_ECANCELED:
        return CLI_EXIT_SERVICE;
    default:
        return CLI_EXIT_INTERNAL;
    }
}

int cli_finish_output(const struct cli_input *input, int rc, const struct anvil_buf *out) {
    if (rc == ANVIL_OK) {
        return cli_write_output(out->data ? out->data : "", out->len);
    }
    cli_error("%s: %s", input->label, anvil_status_str(rc));
    return cli_exit_for_status(rc);
}

int cli_json_argument(const char *option, const char *spec, struct anvil_json_doc **doc) {
    struct cli_input input = {0};
    const char *text = spec ? spec : "{}";
    size_t len = strlen(text);
    const char *label = option;
    if (spec && spec[0] == '@') {
        int code = cli_input_read(spec + 1, ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES, &input);
        if (code != CLI_EXIT_OK) {
            return code;
        }
        text = input.data;
        len = input.len;
        label = input.label;
    }
    struct anvil_diag diag;
    int rc = anvil_json_parse(NULL, text, len, NULL, doc, &diag);
    if (rc != ANVIL_OK) {
        cli_report_diag(label, &diag);
    }
    cli_input_release(&input);
    return rc == ANVIL_OK ? CLI_EXIT_OK : cli_exit_for_status(rc);
}

int cli_describe_failure(int status, const struct anvil_operation_reply *reply, struct anvil_buf *out) {
    struct anvil_str_view code = reply->error.code, message = reply->error.message;
    int rc = ANVIL_OK;
    if (status != ANVIL_ESERVICE) {
        /* No answer: what went wrong, in the transport's words. */
        rc = anvil_buf_append_cstr(out, anvil_status_str(status));
        if (rc == ANVIL_OK && message.len) {
            rc = anvil_buf_appendf(out, ": %.*s", (int)message.len, message.ptr);
        }
        return rc;
    }
    if (code.len) {
        rc = anvil_buf_appendf(out, "%.*s%s", (int)code.len, code.ptr, message.len ? ": " : "");
    }
    if (rc == ANVIL_OK && message.len) {
        rc = anvil_buf_append(out, message.ptr, message.len);
    }
    /* The status, unless the message already starts with it (an answer with no error document). */
    bool said = message.len >= 5 && memcmp(message.ptr, "HTTP ", 5) == 0;
    if (rc == ANVIL_OK && reply->error.http_status && !said) {
        rc = anvil_buf_appendf(out, "%s(HTTP %d)", code.len || message.len ? " " : "", reply->error.http_status);
    }
    return rc;
}

const struct anvil_env *cli_env(void) {
#if ANVIL_TEST_HOOKS
    /*
     * ANVIL_FAKE_TIME=SEED (test builds only): a fake clock that sleeps at
     * once and a seeded random source, for waiters and clients alike; its
     * wall clock starts at the real time, so that signatures stay valid.
     */
    static struct anvil_fake_env fake;
    static bool made;
    const char *seed = getenv("ANVIL_FAKE_TIME");
    uint64_t n;
    if (!made && seed && anvil_sv_parse_u64(anvil_sv_from_cstr(seed), UINT64_MAX, &n) == ANVIL_OK) {
        anvil_fake_env_init(&fake, 0, n);
        fake.wall_origin_ms = anvil_env_wall_ms(anvil_env_system());
        made = true;
    }
    if (made) {
        return &fake.env;
    }
#endif
    return anvil_env_system();
}

int cli_check_input(struct anvil_client *client, const struct anvil_shape *operation, const struct anvil_json *input,
                    const char *command) {
    struct anvil_arena *arena = NULL;
    if (anvil_arena_new(NULL, NULL, &arena) != ANVIL_OK) {
        return CLI_EXIT_INTERNAL;
    }
    struct anvil_http_request request;
    struct anvil_diag diag;
    anvil_diag_clear(&diag);
    int rc = anvil_client_prepare(client, operation, input, arena, &request, &diag);
    anvil_arena_destroy(arena);
    if (rc == ANVIL_OK) {
        return CLI_EXIT_OK;
    }
    /*
     * The input (EINVAL, ELIMIT) or the model (EMODEL) cannot make a request: the data's fault, said. The
     * endpoint rules refusing the call (ECONFIG: their own words) or needing a signature anvil cannot make
     * (EUNSUPPORTED) are the configuration's.
     */
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s: %s: ", command,
             rc == ANVIL_EMODEL         ? "the model cannot make this request"
             : rc == ANVIL_ECONFIG      ? "no endpoint for this call"
             : rc == ANVIL_EUNSUPPORTED ? "cannot call"
                                        : "the input cannot be sent");
    cli_error_text(prefix, anvil_sv_from_cstr(diag.message[0] ? diag.message : anvil_status_str(rc)));
    cli_debug_origin(&diag);
    return rc == ANVIL_EINVAL || rc == ANVIL_ELIMIT || rc == ANVIL_EMODEL ? CLI_EXIT_DATA : cli_exit_for_status(rc);
}
