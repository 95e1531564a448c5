/*
 * Reading models for the CLI: `--model` names a JSON AST file, an IDL
 * (.smithy) file, a botocore service-2.json (gzipped or not) or a
 * directory, whose .smithy and .json files and service-2.json.gz (at any
 * depth, in name order) are assembled into one model, as Smithy's build
 * does with its sources. botocore's other data files in such a folder
 * (waiters-2.json, paginators-1.json, ...) are not models and are left out.
 * The prelude is built in.
 */

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "cli.h"

/* The most files one model may be assembled from, and the deepest folder walked. */
#define S_MAX_FILES 10000
#define S_MAX_DEPTH 32

struct s_file_id {
    dev_t dev;
    ino_t ino;
};

struct s_files {
    char **paths;
    struct s_file_id *ids; /* of each path; ino 0 for standard input */
    size_t count, cap;
    size_t seen; /* paths given to s_add, repeats included */
};

static bool s_ends_with(const char *name, const char *suffix) {
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && strcmp(name + n - k, suffix) == 0;
}

/*
 * Whether a folder walk takes the file: .smithy, .json and service-2.json.gz, but none of the files botocore
 * keeps beside its service models (they describe a model; they are not one).
 */
static bool s_model_name(const char *name) {
    static const char *const companions[] = {"waiters-2",  "paginators-1",         "endpoint-rule-set-1",
                                             "examples-1", "completions-1",        "endpoint-tests-1",
                                             "smoke",      "service-2.sdk-extras", NULL};
    for (size_t i = 0; companions[i]; i++) {
        size_t k = strlen(companions[i]);
        if (strncmp(name, companions[i], k) == 0 &&
            (strcmp(name + k, ".json") == 0 || strcmp(name + k, ".json.gz") == 0)) {
            return false;
        }
    }
    return s_ends_with(name, ".smithy") || s_ends_with(name, ".json") || strcmp(name, "service-2.json.gz") == 0;
}

/* Inflates a gzip stream (one member or several) into `out`, at most `max_bytes`. */
static int s_gunzip(const char *label, const unsigned char *data, size_t len, size_t max_bytes, struct anvil_buf *out) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        cli_error("%s: out of memory inflating it", label);
        return CLI_EXIT_INTERNAL;
    }
    int code = CLI_EXIT_OK;
    size_t done = 0;
    while (code == CLI_EXIT_OK) {
        /* `out` may hold max_bytes + 1: one byte more than allowed says the data is too large. */
        int rc = anvil_buf_reserve(out, 1 << 16);
        if (rc == ANVIL_ELIMIT && out->max_len > out->len) {
            rc = anvil_buf_reserve(out, out->max_len - out->len);
        }
        if (rc != ANVIL_OK || out->len > max_bytes) {
            cli_error(rc == ANVIL_ENOMEM ? "%s: out of memory inflating it" : "%s: more than %zu bytes once inflated",
                      label, max_bytes);
            code = rc == ANVIL_ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_DATA;
            break;
        }
        size_t in = len - done > UINT32_MAX ? UINT32_MAX : len - done;
        size_t room = out->capacity - out->len - 1;
        room = room > out->max_len - out->len ? out->max_len - out->len : room;
        room = room > UINT32_MAX ? UINT32_MAX : room;
        z.next_in = (unsigned char *)(uintptr_t)(data + done);
        z.avail_in = (uInt)in;
        z.next_out = (unsigned char *)out->data + out->len;
        z.avail_out = (uInt)room;
        int zrc = inflate(&z, Z_NO_FLUSH);
        done += in - z.avail_in;
        out->len += room - z.avail_out;
        out->data[out->len] = '\0';
        bool stuck = done == len && z.avail_out != 0; /* every byte read, room left, and no end */
        if (zrc == Z_STREAM_END && done < len) {
            inflateReset(&z); /* gzip files may hold several members, one after another */
        } else if (zrc == Z_STREAM_END) {
            break;
        } else if ((zrc != Z_OK && zrc != Z_BUF_ERROR) || stuck) {
            cli_error("%s: not a whole gzip file (%s)", label, zrc == Z_DATA_ERROR && z.msg ? z.msg : "truncated");
            code = CLI_EXIT_DATA;
        }
    }
    if (code == CLI_EXIT_OK && out->len > max_bytes) {
        cli_error("%s: more than %zu bytes once inflated", label, max_bytes);
        code = CLI_EXIT_DATA;
    }
    inflateEnd(&z);
    return code;
}

int cli_input_read_data(const char *path, size_t max_bytes, struct cli_input *in) {
    int code = cli_input_read(path, max_bytes, in);
    if (code != CLI_EXIT_OK || in->len < 2 || (unsigned char)in->data[0] != 0x1f ||
        (unsigned char)in->data[1] != 0x8b) {
        return code;
    }
    struct cli_input inflated = *in;
    inflated.mapping = NULL;
    inflated.mapping_len = 0;
    anvil_buf_init(&inflated.buf, NULL, max_bytes + 1);
    code = s_gunzip(in->label, (const unsigned char *)in->data, in->len, max_bytes, &inflated.buf);
    const char *label = in->label;
    cli_input_release(in);
    if (code != CLI_EXIT_OK) {
        anvil_buf_clean_up(&inflated.buf);
        return code;
    }
    *in = inflated;
    in->label = label;
    in->data = in->buf.data;
    in->len = in->buf.len;
    return CLI_EXIT_OK;
}

/* Adds `path` unless it names a file already there (a folder and a file in it, or one path twice): Smithy
 * imports each file once, and reading one twice would double its metadata arrays. */
/* What one assembly may read: files, and bytes in all (inflated); cli_limit_reads() lowers them. */
static size_t s_max_files = S_MAX_FILES;
static size_t s_max_total = SIZE_MAX;

void cli_limit_reads(size_t max_files, size_t max_total_bytes) {
    s_max_files = max_files < S_MAX_FILES ? max_files : S_MAX_FILES;
    s_max_total = max_total_bytes;
}

size_t cli_read_limit(void) {
    return s_max_total < ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES ? s_max_total : ANVIL_JSON_DEFAULT_MAX_DOCUMENT_BYTES;
}

static int s_add(struct s_files *files, const char *path) {
    struct stat st;
    struct s_file_id id = {0, 0};
    files->seen++;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0) {
        id = (struct s_file_id){st.st_dev, st.st_ino};
        for (size_t i = 0; i < files->count; i++) {
            if (files->ids[i].ino == id.ino && files->ids[i].dev == id.dev && id.ino != 0) {
                return CLI_EXIT_OK;
            }
        }
    }
    if (files->count >= s_max_files) {
        cli_error("%s: more than %zu model files", path, s_max_files);
        return CLI_EXIT_DATA;
    }
    if (files->count == files->cap) {
        size_t cap = files->cap ? files->cap * 2 : 16;
        char **grown = realloc(files->paths, cap * sizeof(*grown));
        if (grown) {
            files->paths = grown;
        }
        struct s_file_id *ids = grown ? realloc(files->ids, cap * sizeof(*ids)) : NULL;
        if (!ids) {
            cli_error("out of memory");
            return CLI_EXIT_INTERNAL;
        }
        files->ids = ids;
        files->cap = cap;
    }
    files->paths[files->count] = strdup(path);
    if (!files->paths[files->count]) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    files->ids[files->count] = id;
    files->count++;
    return CLI_EXIT_OK;
}

static int s_walk(const char *dir, int depth, struct s_files *files) {
    if (depth > S_MAX_DEPTH) {
        cli_error("%s: folders nested deeper than %d", dir, S_MAX_DEPTH);
        return CLI_EXIT_DATA;
    }
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        cli_error("cannot read folder '%s': %s", dir, strerror(errno));
        return CLI_EXIT_NO_INPUT;
    }
    int code = CLI_EXIT_OK;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (code == CLI_EXIT_OK && name[0] != '.') {
            size_t len = strlen(dir) + strlen(name) + 2;
            char *path = malloc(len);
            struct stat st;
            if (!path) {
                cli_error("out of memory");
                code = CLI_EXIT_INTERNAL;
            } else {
                snprintf(path, len, "%s/%s", dir, name);
                if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
                    code = s_walk(path, depth + 1, files);
                } else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && s_model_name(name)) {
                    code = s_add(files, path);
                }
                free(path);
            }
        }
        free(names[i]);
    }
    free(names);
    return code;
}

static void s_print_events(const struct anvil_events *events, enum anvil_severity least) {
    struct anvil_buf line;
    anvil_buf_init(&line, NULL, 1 << 16);
    for (size_t i = 0; events && i < anvil_events_count(events); i++) {
        const struct anvil_event *e = anvil_events_at(events, i);
        if (e->severity < least) {
            continue;
        }
        anvil_buf_clear(&line);
        if (anvil_event_format(e, &line) == ANVIL_OK) {
            cli_error_text("", anvil_buf_view(&line));
        }
    }
    anvil_buf_clean_up(&line);
}

/* The library's message starts with the file's name: printed as FILE:LINE:COLUMN: message, like other inputs. */
static void s_report(const struct anvil_diag *diag, const struct anvil_model_source *sources, size_t count) {
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(sources[i].name);
        if (strncmp(diag->message, sources[i].name, n) == 0 && strncmp(diag->message + n, ": ", 2) == 0) {
            struct anvil_diag rest = *diag;
            memmove(rest.message, diag->message + n + 2, strlen(diag->message + n + 2) + 1);
            cli_report_diag(sources[i].name, &rest);
            return;
        }
    }
    cli_error_text("", anvil_sv_from_cstr(diag->message));
    cli_debug_origin(diag);
}

int cli_model_assemble_events(const char *const *paths, size_t path_count, bool allow_unresolved,
                              struct cli_input *input, struct anvil_model **model, struct anvil_events **keep) {
    if (keep) {
        *keep = NULL;
    }
    memset(input, 0, sizeof(*input));
    input->label = path_count ? paths[0] : "<stdin>";
    struct s_files files = {0};
    int code = CLI_EXIT_OK;
    for (size_t i = 0; i < path_count && code == CLI_EXIT_OK; i++) {
        struct stat st;
        if (paths[i] && strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t before = files.seen;
            code = s_walk(paths[i], 0, &files);
            if (code == CLI_EXIT_OK && files.seen == before) {
                cli_error("%s: no .smithy, .json or service-2.json.gz files in the folder", paths[i]);
                code = CLI_EXIT_NO_INPUT;
            }
        } else {
            code = s_add(&files, paths[i] ? paths[i] : "-");
        }
    }
    struct cli_input *inputs = calloc(files.count + 1, sizeof(*inputs));
    struct anvil_model_source *sources = calloc(files.count + 1, sizeof(*sources));
    if (code == CLI_EXIT_OK && (!inputs || !sources)) {
        cli_error("out of memory");
        code = CLI_EXIT_INTERNAL;
    }
    size_t read = 0, left = s_max_total;
    for (; code == CLI_EXIT_OK && read < files.count; read++) {
        size_t max = left < cli_read_limit() ? left : cli_read_limit();
        code = cli_input_read_data(files.paths[read], max, &inputs[read]);
        if (code == CLI_EXIT_OK) {
            left -= inputs[read].len;
            sources[read].name = inputs[read].label;
            sources[read].text = inputs[read].data;
            sources[read].len = inputs[read].len;
        }
    }
    if (code == CLI_EXIT_OK) {
        struct anvil_model_options options = {.allow_unresolved = allow_unresolved};
        struct anvil_events *events = NULL;
        struct anvil_diag diag;
        int rc = anvil_model_assemble(NULL, sources, files.count, &options, model, &events, &diag);
        if (rc == ANVIL_EMODEL && events && anvil_events_count_at_least(events, ANVIL_SEVERITY_ERROR)) {
            s_print_events(events, ANVIL_SEVERITY_ERROR);
        } else if (rc != ANVIL_OK) {
            s_report(&diag, sources, files.count);
        } else if (keep) {
            *keep = events;
            events = NULL;
        } else {
            s_print_events(events, ANVIL_SEVERITY_DANGER);
        }
        anvil_events_destroy(events);
        /* Not a model is bad input data, like malformed JSON. */
        code = rc == ANVIL_OK ? CLI_EXIT_OK : cli_exit_for_status(rc == ANVIL_EMODEL ? ANVIL_ESYNTAX : rc);
    }
    for (size_t i = 0; i < read; i++) {
        cli_input_release(&inputs[i]);
    }
    for (size_t i = 0; i < files.count; i++) {
        if (i == 0 && path_count && files.paths[i] && strcmp(files.paths[i], paths[0]) == 0) {
            input->label = paths[0]; /* keep the caller's string: ours is freed below */
        }
        free(files.paths[i]);
    }
    free(files.paths);
    free(files.ids);
    free(inputs);
    free(sources);
    return code;
}

int cli_model_assemble(const char *const *paths, size_t path_count, bool allow_unresolved, struct cli_input *input,
                       struct anvil_model **model) {
    return cli_model_assemble_events(paths, path_count, allow_unresolved, input, model, NULL);
}

int cli_model_read(const char *path, bool allow_unresolved, struct cli_input *input, struct anvil_model **model) {
    const char *paths[1] = {path};
    return cli_model_assemble(paths, 1, allow_unresolved, input, model);
}
