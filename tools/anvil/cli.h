#ifndef ANVIL_CLI_H
#define ANVIL_CLI_H

/* The anvil command-line tool: shared declarations. Public API only. */

#include <signal.h>
#include <stdio.h>

#include "anvil/anvil.h"

/* The exit-code contract (docs/cli.md). */
enum cli_exit {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE_STATE = 1,
    CLI_EXIT_TIMEOUT = 2,
    CLI_EXIT_SERVICE = 3,
    CLI_EXIT_USAGE = 64,
    CLI_EXIT_DATA = 65,
    CLI_EXIT_NO_INPUT = 66,
    CLI_EXIT_INTERNAL = 70,
    CLI_EXIT_IO = 74,
    CLI_EXIT_CONFIG = 78,
    /* 128 + the signal: 130 SIGINT, 143 SIGTERM, 129 SIGHUP (cli_exit_for_cancel()). */
    CLI_EXIT_CANCELLED = 130
};

/* ---- signals ---- */

#define CLI_CAUGHT_SIGNALS 3

/* 0, or the signal (SIGINT, SIGTERM, SIGHUP) that asked the command to stop; the library's cancel flag. */
extern volatile sig_atomic_t cli_cancel_signal;

struct cli_signals {
    struct sigaction old[CLI_CAUGHT_SIGNALS];
};

/* From now on SIGINT, SIGTERM and SIGHUP set cli_cancel_signal instead of ending the process. */
void cli_signals_catch(struct cli_signals *saved);

void cli_signals_restore(const struct cli_signals *saved);

/* The exit status of a command the signal stopped: 128 + the signal. */
int cli_exit_for_cancel(void);

typedef int cli_command_fn(int argc, char **argv);

struct cli_option;

/* What a value is, so that completion scripts can offer candidates (gen_bash.c, gen_zsh.c). */
enum cli_value_kind {
    CLI_VALUE_TEXT = 0,  /* anything: nothing to offer */
    CLI_VALUE_FILE,      /* a file or folder name */
    CLI_VALUE_DIR,       /* a folder name */
    CLI_VALUE_CHOICE,    /* one of the option's `choices` */
    CLI_VALUE_COMMAND,   /* a program and its arguments (--exec) */
    CLI_VALUE_TOPIC,     /* an anvil command (`anvil help COMMAND`) */
    CLI_VALUE_WAITER,    /* a waiter of the model on the command line */
    CLI_VALUE_OPERATION, /* an operation of the model on the command line */
    CLI_VALUE_PAGINATED  /* a paginated operation of the model or paginators file on the command line */
};

/* The command is accepted but listed nowhere (help, man pages, completion): `anvil __complete`. */
#define CLI_COMMAND_HIDDEN 1u

/*
 * A command and its documentation. `anvil help CMD`, the man pages, docs/cli.md and the completion
 * scripts are all made from these fields and the option table (help.c, gen_docs.c).
 */
struct cli_command {
    const char *name;
    /* One line for the command list (and the man page's NAME). */
    const char *summary;
    /* What follows "Usage: ": one line per form, continuation lines indented to follow "Usage: ". */
    const char *usage;
    /* Paragraphs, wrapped to 80 columns, separated by an empty line. */
    const char *description;
    /* One sentence, unwrapped ("0 success, 64 usage, ..."); NULL when only the general codes apply. */
    const char *exit_status;
    /* The table the command's parser reads (NULL-long_name terminated). */
    const struct cli_option *options;
    /* What the command's operands are, for completion (CLI_VALUE_TEXT: nothing to offer). */
    enum cli_value_kind operand;
    unsigned flags;
    cli_command_fn *run;
};

/* Every command, in the order `anvil --help` lists them; NULL-name terminated. */
extern const struct cli_command cli_commands[];

const struct cli_command *cli_find_command(const char *name);

/* The command name closest to `name`, or NULL if none is close. */
const char *cli_suggest_command(const char *name);

/* Prints "anvil: MESSAGE\n" to stderr, MESSAGE escaped (anvil_text_append_escaped()): one line, safe to show. */
void cli_error(const char *fmt, ...) ANVIL_PRINTF(1, 2);

/* Prints "anvil: PREFIX" and `text` escaped, NULs and all, then a newline. */
void cli_error_text(const char *prefix, struct anvil_str_view text);

/*
 * Prints "anvil: MESSAGE" and a hint line to stderr and returns
 * CLI_EXIT_USAGE. `command` (may be NULL) names the help to point at.
 */
int cli_usage_error(const char *command, const char *fmt, ...) ANVIL_PRINTF(2, 3);

/* The closest of `candidates` (NULL-terminated) to `word`, or NULL if none is close. */
const char *cli_suggest(const char *word, const char *const *candidates);

/* ---- option parsing ---- */

enum cli_arg_kind {
    CLI_ARG_NONE,     /* a flag */
    CLI_ARG_REQUIRED, /* takes a value: --name VALUE, --name=VALUE, -x VALUE, -xVALUE */
    CLI_ARG_REST      /* a flag after which every argument belongs to it (--exec CMD ARG...) */
};

/* Flags of an option. */
#define CLI_OPTION_HIDDEN 1u     /* accepted, but in no help, man page, doc or completion */
#define CLI_OPTION_REPEATABLE 2u /* may be given more than once, each adding to the others */
#define CLI_OPTION_HTTP 4u       /* listed under "HTTP options" (CLI_HTTP_OPTIONS) */

/*
 * One option: what the parser needs (names, whether it takes a value, the id it reports) and what
 * its help, man page, docs/cli.md block and completion say, so each is written once, here.
 */
struct cli_option {
    const char *long_name; /* without the leading "--" */
    char short_name;       /* 0 for none */
    enum cli_arg_kind arg;
    int id;
    /* The value's name in help ("FILE" in --model FILE, "CMD ..." for --exec); NULL for a flag. */
    const char *value_name;
    enum cli_value_kind value_kind;
    /* CLI_VALUE_CHOICE: the values, space-separated ("text json"). */
    const char *choices;
    /* One paragraph, unwrapped (help wraps it); NULL only for a hidden option. */
    const char *help;
    unsigned flags;
};

/* Table entries, by what the option takes. */
#define CLI_FLAG(name, short_name, id, help)                                                                           \
    { (name), (short_name), CLI_ARG_NONE, (id), NULL, CLI_VALUE_TEXT, NULL, (help), 0u }
#define CLI_TEXT(name, short_name, id, value_name, help)                                                               \
    { (name), (short_name), CLI_ARG_REQUIRED, (id), (value_name), CLI_VALUE_TEXT, NULL, (help), 0u }
#define CLI_VALUE(name, short_name, id, value_name, kind, help)                                                        \
    { (name), (short_name), CLI_ARG_REQUIRED, (id), (value_name), (kind), NULL, (help), 0u }
#define CLI_CHOICE(name, short_name, id, value_name, choices, help)                                                    \
    { (name), (short_name), CLI_ARG_REQUIRED, (id), (value_name), CLI_VALUE_CHOICE, (choices), (help), 0u }
#define CLI_OPTIONS_END                                                                                                \
    { NULL, 0, CLI_ARG_NONE, 0, NULL, CLI_VALUE_TEXT, NULL, NULL, 0u }

/*
 * Every command's option table starts with this entry so the parser accepts
 * -h/--help, but only main.c acts on it: it prints a command's help before
 * running the command whenever -h or --help appears before "--". Commands
 * therefore never see CLI_OPT_HELP (except `anvil help` itself). A command's
 * help leaves it out (it is what is being read); man pages and completion list it.
 */
#define CLI_OPT_HELP 'h'
#define CLI_OPTION_HELP CLI_FLAG("help", 'h', CLI_OPT_HELP, "show this help and exit")

struct cli_parser {
    int argc;
    char **argv;
    int index;
    const struct cli_option *options; /* terminated by a NULL long_name */
    const char *command;              /* for error hints; NULL = top level */
    bool options_done;                /* after "--" */
};

enum cli_next {
    CLI_NEXT_END = 0,     /* no arguments left */
    CLI_NEXT_OPTION = 1,  /* *id and *value are set */
    CLI_NEXT_OPERAND = 2, /* *value is a positional argument */
    CLI_NEXT_ERROR = 3    /* an error was printed; exit CLI_EXIT_USAGE */
};

void cli_parser_init(struct cli_parser *parser, int argc, char **argv, const struct cli_option *options,
                     const char *command);

/* Steps through argv: "--name", "--name=value", "--name value", "-x", "-x value", "--". */
enum cli_next cli_parser_next(struct cli_parser *parser, int *id, const char **value);

/* ---- commands that run an operation through a command (--exec) ---- */

/* Option ids the shared parser handles itself. */
#define CLI_OPT_MODEL 'm'
#define CLI_OPT_BOTOCORE 'b'
#define CLI_OPT_EXEC 'x'
#define CLI_OPT_ENDPOINT 2000
#define CLI_OPT_REGION 2001
#define CLI_OPT_PROFILE 2002
#define CLI_OPT_RETRY_MODE 2003
#define CLI_OPT_DEBUG 2004
#define CLI_OPT_RETRY_MAX_ATTEMPTS 2005
#define CLI_OPT_RETRY_MAX_TIME 2006
#define CLI_OPT_RETRY_ERROR 2007
#define CLI_OPT_MAX_RESPONSE 2008
#define CLI_OPT_CA_BUNDLE 2009
#define CLI_OPT_SERVICE 2010
#define CLI_OPT_NO_SIGN 2011
#define CLI_OPT_ENDPOINT_PARAMS 2012
#define CLI_OPT_QUERY 2013

/* The HTTP transport's options, for a command's option table (listed under "HTTP options"). */
#define CLI_HTTP_OPTION(name, id, value_name, kind, choices, flags, help)                                              \
    { (name), 0, CLI_ARG_REQUIRED, (id), (value_name), (kind), (choices), (help), CLI_OPTION_HTTP | (flags) }
#define CLI_HTTP_FLAG(name, id, help)                                                                                  \
    { (name), 0, CLI_ARG_NONE, (id), NULL, CLI_VALUE_TEXT, NULL, (help), CLI_OPTION_HTTP }
/* clang-format off */
#define CLI_HTTP_OPTIONS \
    CLI_HTTP_OPTION("endpoint-url", CLI_OPT_ENDPOINT, "URL", CLI_VALUE_TEXT, NULL, 0u, \
                    "default AWS_ENDPOINT_URL_<SDK ID>, AWS_ENDPOINT_URL, or the service's endpoint rules " \
                    "(docs/endpoints.md)"), \
    CLI_HTTP_OPTION("region", CLI_OPT_REGION, "R", CLI_VALUE_TEXT, NULL, 0u, \
                    "default AWS_REGION, AWS_DEFAULT_REGION or the profile's"), \
    CLI_HTTP_OPTION("profile", CLI_OPT_PROFILE, "P", CLI_VALUE_TEXT, NULL, 0u, \
                    "default AWS_PROFILE, else \"default\""), \
    CLI_HTTP_OPTION("retry-mode", CLI_OPT_RETRY_MODE, "MODE", CLI_VALUE_CHOICE, "standard adaptive", 0u, \
                    "standard (default) or adaptive"), \
    CLI_HTTP_OPTION("retry-max-attempts", CLI_OPT_RETRY_MAX_ATTEMPTS, "N", CLI_VALUE_TEXT, NULL, 0u, \
                    "attempts per call, the first included (1 to 100; default 3)"), \
    CLI_HTTP_OPTION("retry-max-time", CLI_OPT_RETRY_MAX_TIME, "S", CLI_VALUE_TEXT, NULL, 0u, \
                    "the longest one call's retries may take, in seconds"), \
    CLI_HTTP_OPTION("retry-error", CLI_OPT_RETRY_ERROR, "CODE", CLI_VALUE_TEXT, NULL, CLI_OPTION_REPEATABLE, \
                    "retry this error code too, as a server error (repeatable, up to 16)"), \
    CLI_HTTP_OPTION("max-response-bytes", CLI_OPT_MAX_RESPONSE, "N", CLI_VALUE_TEXT, NULL, 0u, \
                    "the largest answer accepted (1024 to 2^40; default 64 MiB)"), \
    CLI_HTTP_OPTION("ca-bundle", CLI_OPT_CA_BUNDLE, "FILE", CLI_VALUE_FILE, NULL, 0u, \
                    "CA certificates for TLS (default AWS_CA_BUNDLE, the profile's)"), \
    CLI_HTTP_FLAG("no-sign-request", CLI_OPT_NO_SIGN, \
                    "send requests unsigned: no credentials needed"), \
    CLI_HTTP_OPTION("endpoint-params", CLI_OPT_ENDPOINT_PARAMS, "JSON", CLI_VALUE_TEXT, NULL, 0u, \
                    "the endpoint rules' parameters by name, or @FILE (e.g. '{\"ForcePathStyle\": true}')"), \
    CLI_HTTP_FLAG("debug", CLI_OPT_DEBUG, \
                    "log each attempt on standard error (never secrets); after an error, where anvil raised it")
/* clang-format on */

/* --model FILE, as every command that loads a model through cli_model_assemble() takes it. */
#define CLI_MODEL_OPTION                                                                                                 \
    {                                                                                                                    \
        "model", 'm', CLI_ARG_REQUIRED, CLI_OPT_MODEL, "FILE", CLI_VALUE_FILE, NULL,                                     \
            "the model: JSON AST, .smithy, botocore service-2.json (.gz too) or a folder; repeat to assemble one model", \
            CLI_OPTION_REPEATABLE                                                                                        \
    }

/* --service NAME (cli_service_find()); `help` says which of the service's files the command takes. */
#define CLI_SERVICE_OPTION(help) CLI_TEXT("service", 0, CLI_OPT_SERVICE, "NAME", help)

/* --input JSON|@FILE, an operation's input. */
#define CLI_INPUT_OPTION(id)                                                                                           \
    CLI_TEXT("input", 'i', (id), "JSON", "the operation's input, or @FILE to read it (default {})")

/* --query EXPR; `help` says what goes through it. */
#define CLI_QUERY_OPTION(help) CLI_TEXT("query", 0, CLI_OPT_QUERY, "EXPR", help)

/* --exec CMD [ARG...]: everything after it is the command. */
#define CLI_EXEC_OPTION                                                                                                \
    {                                                                                                                  \
        "exec", 'x', CLI_ARG_REST, CLI_OPT_EXEC, "CMD ...", CLI_VALUE_COMMAND, NULL,                                   \
            "the command that calls the operation, with its arguments: everything after --exec", 0u                    \
    }

/* The heading of the CLI_HTTP_OPTIONS part of a command's options. */
#define CLI_HTTP_HEADING "HTTP options (instead of --exec; the service is the model's)"

/* ---- JMESPath on the command line (query.c) ---- */

/* "anvil: COMMAND: KIND: MESSAGE", and for a syntax error the expression with a caret. CLI_EXIT_DATA (or INTERNAL). */
int cli_query_report(const char *command, const char *expr, size_t len, int rc, const struct anvil_diag *diag);

/* --query's expression compiled (*out NULL when `text` is NULL); a bad one is reported, CLI_EXIT_USAGE. */
int cli_query_compile(const char *command, const char *text, struct anvil_jmespath **out);

/*
 * `value` through --query into *out (in `arena`), or `value` itself when
 * `expr` is NULL; a runtime error (invalid-type, ...) is reported,
 * CLI_EXIT_DATA.
 */
int cli_query_apply(const char *command, const struct anvil_jmespath *expr, const struct anvil_json *value,
                    struct anvil_arena *arena, struct anvil_json *out);

struct cli_exec_spec {
    const char *command; /* "wait" */
    const char *what;    /* "WAITER" */
    const char *plural;  /* "waiters" */
    const struct cli_option *options;
    /* Over HTTP, --botocore may come with --model (descriptions from botocore, the service from the model). */
    bool botocore_with_model;
    /* The NAME operand may be left out (`anvil endpoint` without an operation). */
    bool name_optional;
    /* Every other option; returns CLI_EXIT_OK or an exit code (after printing). */
    int (*on_option)(void *ctx, int id, const char *value);
};

#define CLI_MAX_RETRY_ERRORS 16

#define CLI_MAX_PATHS 256

/* FILE|FOLDER operands, or the values of a repeated --model, in the order given. */
struct cli_paths {
    const char *items[CLI_MAX_PATHS];
    size_t count;
};

/* Adds `path`; past CLI_MAX_PATHS prints a usage error for `command` and returns CLI_EXIT_USAGE. */
int cli_paths_add(struct cli_paths *paths, const char *command, const char *path);

/*
 * Parses a command whose operands are FILE|FOLDER paths (at least one):
 * operands go to `paths`, options to on_option (NULL when the command has
 * only --help, which main.c handles). CLI_EXIT_OK, or the exit code of a
 * usage error it printed.
 */
int cli_parse_paths(int argc, char **argv, const struct cli_option *options, const char *command,
                    int (*on_option)(void *ctx, int id, const char *value), void *ctx, struct cli_paths *paths);

/* A service's botocore files (cli_service_find); a file the service does not have is "". */
struct cli_service_files {
    char dir[4608]; /* SERVICE/API-VERSION */
    char model[4864];
    char waiters[4864];
    char paginators[4864];
    char endpoint_rules[4864];
};

/*
 * Finds the newest service-2.json[.gz] of service `name` (e.g. "ec2") where
 * AWS tools keep botocore's data: each folder of ANVIL_MODEL_PATH, then
 * AWS_DATA_PATH, ~/.aws/models, Debian's python3-botocore, aws-cli v2's
 * installs and pip's (docs/cli.md), and its waiters-2 and paginators-1 beside
 * it, and its endpoint-rule-set-1. CLI_EXIT_OK; CLI_EXIT_USAGE for a name that cannot be one;
 * CLI_EXIT_CONFIG, after printing where it looked and any close name, when
 * no folder has it.
 */
int cli_service_find(const char *command, const char *name, struct cli_service_files *out);

/*
 * For a botocore model file (MODEL_DIR/service-2.json[.gz]), the files
 * beside it as cli_service_find() names them; false when `model_path` is
 * not named so (or its folder's name is too long).
 */
bool cli_service_companions(const char *model_path, struct cli_service_files *out);

struct cli_exec_args {
    struct cli_paths models; /* --model, any number of times: one model assembled from them all */
    /* --query EXPR (a command that takes it lists CLI_QUERY_OPTION): applied to what it prints. */
    const char *query;
    const char *botocore, *name;
    /* --service NAME: the files it found (models and botocore point into them). */
    const char *service;
    struct cli_service_files service_files;
    char **command;
    /* The HTTP transport, when there is no --exec. */
    const char *endpoint_url, *region, *profile, *retry_mode, *ca_bundle;
    /* The retry mode when neither --retry-mode, AWS_RETRY_MODE nor the profile names one (NULL = standard). */
    const char *default_retry_mode;
    uint32_t retry_max_attempts;
    /* --retry-max-time: the whole retry loop's limit (0 = none). */
    uint64_t retry_max_total_ms;
    /* --retry-error CODE...: codes retried as server errors (a retry policy). */
    const char *retry_errors[CLI_MAX_RETRY_ERRORS];
    size_t retry_error_count;
    /* --max-response-bytes: the largest answer kept (0 = the client's default). */
    uint64_t max_response_bytes;
    /* --no-sign-request, and --endpoint-params JSON|@FILE (the rule set's parameters by name). */
    bool no_sign;
    const char *endpoint_params;
    bool debug;
};

/*
 * Parses `--model FILE | --botocore FILE | --service NAME`, one NAME, and either
 * `--exec CMD [ARG...]` (everything after --exec) or the HTTP options
 * (--endpoint-url, --region, --profile, --retry-mode, --retry-max-attempts,
 * --retry-max-time, --retry-error, --max-response-bytes, --ca-bundle,
 * --no-sign-request, --endpoint-params, --debug; HTTP needs --model),
 * handing other options to spec->on_option. CLI_EXIT_OK, or the exit code
 * of a usage error it printed.
 */
int cli_parse_exec_command(int argc, char **argv, const struct cli_exec_spec *spec, void *ctx,
                           struct cli_exec_args *out);

/*
 * Prints "WHAT 'NAME' (did you mean 'X'?)" over the `count` names `at`
 * gives, or "WHAT 'NAME'FALLBACK" when none is close; returns CLI_EXIT_USAGE.
 */
int cli_unknown_name(const char *command, const char *name, size_t count,
                     struct anvil_str_view (*at)(const void *set, size_t index), const void *set, const char *what,
                     const char *fallback);

/*
 * An HTTP client for the model's service from the parsed options (debug
 * lines to stderr); `cancel` (may be NULL) is the flag a signal handler
 * sets to stop a call in flight. Its endpoint rules: the model's, else a
 * botocore endpoint-rule-set-1.json[.gz] beside the botocore model (from
 * --service, or a --model that is a service-2.json[.gz]). CLI_EXIT_OK, or
 * the exit code after printing why.
 */
int cli_http_client(const struct cli_exec_args *args, const struct anvil_model *model, const char *command,
                    const volatile sig_atomic_t *cancel, struct anvil_client **client);

/* ---- the path call, wait, paginate and endpoint share (target.c) ---- */

struct cli_target {
    const char *command;
    /* --model's (or --service's) model; NULL with only --botocore. */
    struct anvil_model *model;
    /* --input, {} when not given. */
    struct anvil_json_doc *input;
    /* Over HTTP (cli_target_connect()): the client and the operation found. */
    struct anvil_client *client;
    const struct anvil_shape *operation;
};

/* Loads the model of --model/--service, when given. */
int cli_target_load(struct cli_target *t, const char *command, const struct cli_exec_args *exec);

/* Parses `input`, the value of `option` (NULL = {}; @FILE reads a file). */
int cli_target_read_input(struct cli_target *t, const char *option, const char *input);

const struct anvil_json *cli_target_input(const struct cli_target *t);

/* Where an operation's name came from: the command line (a wrong one is a usage error) or a description (data). */
enum cli_operation_source { CLI_OPERATION_ARGUMENT, CLI_OPERATION_MODEL };

/*
 * Over HTTP: makes the client; finds `operation` (NULL: none) by name or
 * shape id; with `check`, makes the input into a request (nothing sent) so a
 * bad one is refused before the first call (cli_check_input()).
 */
int cli_target_connect(struct cli_target *t, const struct cli_exec_args *exec, const struct anvil_str_view *operation,
                       enum cli_operation_source source, bool check);

/* The waiters or paginators the command runs: --botocore's (or --service's), else the model's. */
int cli_target_waiters(const struct cli_target *t, const struct cli_exec_args *exec, struct anvil_waiter_set **set);
int cli_target_paginators(const struct cli_target *t, const struct cli_exec_args *exec,
                          struct anvil_paginator_set **set);

void cli_target_clean_up(struct cli_target *t);

/* A botocore waiters-2.json / paginators-1.json at `path` (NULL or "": an empty set), errors named by path. */
int cli_botocore_waiters(const char *path, struct anvil_waiter_set **set);
int cli_botocore_paginators(const char *path, struct anvil_paginator_set **set);

/* ---- documentation from the tables (help.c) ---- */

/* Prints a command's full help to `out`: usage, description, exit status, and its options from its table. */
void cli_print_command_help(FILE *out, const struct cli_command *command);

/* Prints the top-level help to `out`. */
void cli_print_main_help(FILE *out);

/* Whether the option is shown in a command's documentation (help leaves --help out, man pages keep it). */
bool cli_option_listed(const struct cli_option *option);

/*
 * The option as help shows it: "-m, --model FILE" (or "    --model FILE" without a short name) into
 * `buf`; returns its length.
 */
size_t cli_option_spec(const struct cli_option *option, char *buf, size_t size);

/* The exit codes every command shares, and the environment variables anvil reads; NULL-terminated. */
struct cli_reference {
    const char *name; /* "64", "AWS_REGION" */
    const char *text; /* one unwrapped sentence */
};
extern const struct cli_reference cli_exit_codes[];
extern const struct cli_reference cli_environment[];

/* The one-line description of anvil, and the main help's closing line. */
#define CLI_TAGLINE "Smithy client behaviours: waiters, retries, paginators"

/* A whole input: a read-only mapping of a regular file, or bytes read into a buffer. */
struct cli_input {
    const char *data;
    size_t len;
    /* Names the input in messages: the path, or "<stdin>". */
    const char *label;
    void *mapping;
    size_t mapping_len;
    struct anvil_buf buf;
};

/*
 * Reads all of `path` ("-" or NULL = standard input), refusing more than
 * `max_bytes`. Large regular files are mapped, not copied. Returns
 * CLI_EXIT_OK, or prints the problem and returns the exit code (nothing to
 * release then). Release with cli_input_release().
 */
int cli_input_read(const char *path, size_t max_bytes, struct cli_input *in);

void cli_input_release(struct cli_input *in);

/* An input read line by line as it arrives (tools/anvil/io_lines.c). */
struct cli_lines {
    int fd;
    bool close;
    bool eof;
    /* Names the input in messages: the path, or "<stdin>". */
    const char *label;
    /* The number of the line last returned (1-based). */
    size_t number;
    size_t max_line;
    /* The bytes read so far, and the most the whole input may have (0 = no limit). */
    size_t total, max_total;
    /* Bytes read and not yet returned start at `start`; the first `scanned` of them hold no '\n'. */
    struct anvil_buf buf;
    size_t start;
    size_t scanned;
};

/*
 * Opens `path` ("-" or NULL = standard input) for cli_lines_next(), whose
 * lines may each be up to `max_line` bytes: memory stays within about that,
 * however long the input, which may have at most `max_total` bytes (0 = no
 * limit). Returns CLI_EXIT_OK, or prints the problem and returns the exit
 * code (nothing to close then).
 */
int cli_lines_open(const char *path, size_t max_line, size_t max_total, struct cli_lines *lines);

/*
 * The next line, without its '\n', in `*line` and `*len` (valid until the next
 * call), as soon as the input has it; the last line needs no '\n'. At the end
 * `*line` is NULL. Before a read that may wait for the input, standard output
 * is flushed (cli_flush_output()), so what was printed for the lines already
 * read is out before more input arrives. Returns CLI_EXIT_OK, or prints the
 * problem (a read error, a line over the limit, out of memory, a failed
 * flush) and returns the exit code.
 */
int cli_lines_next(struct cli_lines *lines, const char **line, size_t *len);

void cli_lines_close(struct cli_lines *lines);

/*
 * cli_input_read() that inflates gzip data (a botocore `.json.gz`): at most
 * `max_bytes` once inflated, else CLI_EXIT_DATA.
 */
int cli_input_read_data(const char *path, size_t max_bytes, struct cli_input *in);

/*
 * Reads `path` (a JSON AST file, a .smithy IDL file, a botocore
 * service-2.json[.gz] or a folder of them) and loads the model. On CLI_EXIT_OK the
 * caller releases `*input` and destroys `*model`; otherwise the problem was
 * printed and nothing needs releasing.
 */
int cli_model_read(const char *path, bool allow_unresolved, struct cli_input *input, struct anvil_model **model);

/*
 * Like cli_model_read() for several paths, each a JSON AST file, a .smithy
 * file, a botocore service-2.json[.gz] or a folder (its .smithy and .json
 * files and service-2.json.gz at any depth, botocore's other data files
 * left out): one model
 * assembled from them all. `*input` keeps only the first path as its label.
 * DANGER events go to stderr; ERROR events are printed and give CLI_EXIT_DATA.
 */
int cli_model_assemble(const char *const *paths, size_t path_count, bool allow_unresolved, struct cli_input *input,
                       struct anvil_model **model);

/*
 * From now on a model assembly reads at most `max_files` files and
 * `max_total_bytes` in all, inflated, and one data file at most
 * `max_total_bytes` (__complete's TAB). cli_read_limit(): a data file's limit.
 */
void cli_limit_reads(size_t max_files, size_t max_total_bytes);
size_t cli_read_limit(void);

/*
 * cli_model_assemble() that, on CLI_EXIT_OK, hands the assembly's events to
 * `*keep` (the caller destroys them) instead of printing the DANGER ones.
 */
int cli_model_assemble_events(const char *const *paths, size_t path_count, bool allow_unresolved,
                              struct cli_input *input, struct anvil_model **model, struct anvil_events **keep);

/*
 * A JSON argument: the text itself, or @FILE to read it (NULL = "{}").
 * Errors are printed as LABEL:LINE:COLUMN (the option name or the file).
 */
int cli_json_argument(const char *option, const char *spec, struct anvil_json_doc **doc);

/* Writes `out` when `rc` is ANVIL_OK, else prints "INPUT: what went wrong"; returns the exit code. */
int cli_finish_output(const struct cli_input *input, int rc, const struct anvil_buf *out);

/*
 * Replaces the file at `path` with `len` bytes, whole or not at all: written
 * to a new file beside it, flushed to disk, then renamed over it. Prints
 * "PATH: reason" and returns CLI_EXIT_IO on failure.
 */
int cli_write_file(const char *path, const char *bytes, size_t len);

/* Writes bytes to standard output; CLI_EXIT_IO (with a message) on failure. */
int cli_write_output(const char *bytes, size_t len);

/*
 * Sends what standard output holds on (stdio buffers a pipe's output in 4 KB
 * blocks): for output a reader acts on as it comes (a wait's outcome, a page,
 * a line's answer). CLI_EXIT_IO (with a message) on failure.
 */
int cli_flush_output(void);

/* Says that standard output failed (with errno's reason), once per process however often it is called. */
void cli_output_error(void);

/* Prints "LABEL:LINE:COLUMN: MESSAGE" to standard error. */
void cli_report_diag(const char *label, const struct anvil_diag *diag);

/* --debug (before any command, or a command's own): more on standard error, never secrets. */
extern bool cli_debug;

/*
 * With --debug and a debug build of anvil, "anvil: debug: the error was first
 * raised at src/FILE.c:LINE" (anvil_diag_origin()); else nothing. After each
 * message made from a diag.
 */
void cli_debug_origin(const struct anvil_diag *diag);

/*
 * Appends what a failed call said, for one line of text: "CODE: MESSAGE
 * (HTTP n)", "HTTP 307, a redirect to ..." when there was no error code, or
 * the transport's status and reason. Not escaped (cli_error() does that).
 */
int cli_describe_failure(int status, const struct anvil_operation_reply *reply, struct anvil_buf *out);

/*
 * The env every command runs on: the system's, or in test builds with
 * ANVIL_FAKE_TIME=SEED one fake env (instant sleeps, a seeded random
 * source, the wall clock starting at the real time) shared by the waiter
 * and the client. One per process.
 */
const struct anvil_env *cli_env(void);

/*
 * Whether `input` can be sent to `operation` (serialised against its
 * shape, without sending it): CLI_EXIT_OK, or CLI_EXIT_DATA after printing
 * "COMMAND: the input cannot be sent: ..." naming the member. Waits and
 * paginations check once before they start, so a typo fails at once.
 */
int cli_check_input(struct anvil_client *client, const struct anvil_shape *operation, const struct anvil_json *input,
                    const char *command);

/* The exit code for a library status (docs/cli.md). */
int cli_exit_for_status(int status);

/* "SECONDS" as a whole or decimal number of seconds (600, 0.5, at most 3 decimals) -> milliseconds. */
bool cli_parse_seconds(const char *text, uint64_t max_ms, uint64_t *out_ms);

/* CLI_HTTP_OPTIONS alone, for documentation (exec_args.c). */
extern const struct cli_option cli_http_options[];

/* The options that come before the command: --help, --version (commands.c). */
extern const struct cli_option cli_global_options[];

/* Each command's option table (in its cmd_*.c, beside the parser that reads it). */
extern const struct cli_option cli_call_options[];
extern const struct cli_option cli_credentials_options[];
extern const struct cli_option cli_endpoint_options[];
extern const struct cli_option cli_gen_options[];
extern const struct cli_option cli_help_options[];
extern const struct cli_option cli_json_options[];
extern const struct cli_option cli_paginate_options[];
extern const struct cli_option cli_query_options[];
extern const struct cli_option cli_validate_options[];
extern const struct cli_option cli_ast_options[];
extern const struct cli_option cli_idl_options[];
extern const struct cli_option cli_wait_options[];
extern const struct cli_option cli_waiters_options[];
extern const struct cli_option cli_version_options[];
extern const struct cli_option cli_complete_options[];

int cli_cmd_call(int argc, char **argv);
int cli_cmd_credentials(int argc, char **argv);
int cli_cmd_endpoint(int argc, char **argv);
int cli_cmd_gen(int argc, char **argv);
int cli_cmd_help(int argc, char **argv);
int cli_cmd_json(int argc, char **argv);
int cli_cmd_paginate(int argc, char **argv);
int cli_cmd_query(int argc, char **argv);
int cli_cmd_validate(int argc, char **argv);
int cli_cmd_ast(int argc, char **argv);
int cli_cmd_idl(int argc, char **argv);
int cli_cmd_wait(int argc, char **argv);

/* ---- anvil wait's outcome, shared with --many ---- */

/* The exit code of a wait that ended for `reason`. */
int cli_wait_exit_code(enum anvil_wait_reason reason);

/*
 * The outcome as one JSON line: `lead` (members with their commas, e.g.
 * `"line":3,`) first, then waiter, state, reason, attempts, elapsed_ms,
 * acceptor, output (when `output` is not NULL), error, message.
 */
int cli_wait_outcome_json(const struct anvil_waiter *w, const struct anvil_wait_result *r,
                          const struct anvil_json *output, struct anvil_str_view lead, struct anvil_buf *out);

/*
 * anvil wait --many: `waiter` on every input line of `path` ("-" = standard
 * input) through `client`, all at once; an outcome line per resource as it
 * ends. Returns the exit code.
 */
struct cli_wait_many {
    const char *path;
    const struct anvil_waiter *waiter;
    struct anvil_client *client;
    const struct anvil_shape *operation;
    const struct anvil_jmespath *query;
    struct anvil_wait_options options;
    size_t max_in_flight;
    double max_rps;
    /* A live summary on standard error. */
    bool live;
};
int cli_wait_many_run(const struct cli_wait_many *w);
int cli_cmd_waiters(int argc, char **argv);
int cli_cmd_version(int argc, char **argv);
int cli_cmd_complete(int argc, char **argv);

#endif
