/*
 * The command table: one entry per subcommand, in the order help lists them. Each entry's usage,
 * description and exit status, with its option table (in its cmd_*.c), are the one source of its
 * help, its man page, its part of docs/cli.md and its completion (help.c, gen_docs.c).
 */

#include <string.h>

#include "cli.h"

const struct cli_option cli_global_options[] = {
    CLI_OPTION_HELP,
    CLI_FLAG("version", 'V', 'V', "print anvil's version and exit"),
    CLI_FLAG("debug", 0, CLI_OPT_DEBUG,
             "for any command: after an error, where in anvil's source it was first raised (debug builds)"),
    CLI_OPTIONS_END,
};

/* clang-format off */
const struct cli_command cli_commands[] = {
    {"call", "Call one operation of a service over HTTP in its AWS protocol",
     "anvil call (--model FILE | --service NAME) OPERATION [--input JSON|@FILE] [--dry-run]\n"
     "                  [--query EXPR] [HTTP OPTIONS]\n",
     "Calls OPERATION of the model's service in its protocol (awsJson1_0, awsJson1_1,\n"
     "restJson1, awsQuery, ec2Query or restXml) and prints its output as JSON, in the\n"
     "Smithy data model whatever the wire carries: members by name, timestamps as\n"
     "epoch seconds, blobs as base64. The input is written the same way and checked\n"
     "against its shape before anything is sent. Requests are signed with SigV4 using\n"
     "the credentials and region AWS tools use (AWS_ACCESS_KEY_ID, AWS_PROFILE,\n"
     "~/.aws/credentials and config, AWS_REGION); the endpoint is what the service's\n"
     "endpoint rules give for the call (FIPS, dual-stack and S3's settings included;\n"
     "'anvil endpoint' shows it), unless --endpoint-url says otherwise. Every call goes\n"
     "through the retry strategy (standard by default), with idempotency tokens filled\n"
     "and request compression applied. With --dry-run, the signed request is printed\n"
     "as JSON (method, url, headers, body) instead of sent.\n",
     "0 success, 3 the service or the transport failed, 64 usage, 65 bad model or input, 78 configuration "
     "(the endpoint rules' own error among it).",
     cli_call_options, CLI_VALUE_OPERATION, 0u, cli_cmd_call},
    {"credentials", "Show where credentials come from (never the secret)",
     "anvil credentials [--profile P] [--region R] [--output json|text] [--debug]\n",
     "Finds credentials as every command does, through the default chain: the\n"
     "environment's keys (unless --profile), a profile's role (source_profile or\n"
     "credential_source, STS AssumeRole), web identity (AWS_WEB_IDENTITY_TOKEN_FILE),\n"
     "SSO, the profile's keys, its credential_process, the ECS/EKS container\n"
     "endpoint, EC2 instance metadata (IMDSv2). Prints which provider supplied them,\n"
     "from where, the access key id's last 4 characters and when they expire; never\n"
     "the secret or the session token. With --output json: {\"provider\", \"source\",\n"
     "\"access_key_id\", \"expires\"} (expires null for keys that do not).\n",
     "0 found, 64 usage, 78 none found or a source failed (the message names each provider tried and why).",
     cli_credentials_options, CLI_VALUE_TEXT, 0u, cli_cmd_credentials},
    {"endpoint", "Show where a call would go: the service's endpoint rules resolved",
     "anvil endpoint (--model FILE | --service NAME)\n"
     "                      [OPERATION | --operation OP] [--input JSON|@FILE]\n"
     "                      [--region R] [--profile P] [--endpoint-url URL]\n"
     "                      [--endpoint-params JSON|@FILE | --params JSON|@FILE] [--debug]\n",
     "Resolves the service's endpoint rules (the model's smithy.rules#endpointRuleSet,\n"
     "or botocore's endpoint-rule-set-1.json beside its service-2.json) as a call\n"
     "would: the built-ins from the region, the environment and the profile\n"
     "(AWS_USE_FIPS_ENDPOINT, AWS_USE_DUALSTACK_ENDPOINT, the s3 settings, ...), the\n"
     "parameters --endpoint-params gives, and, with OPERATION, what its input binds\n"
     "(context parameters, static ones, JMESPath paths). Prints JSON: the URL, the\n"
     "headers, the properties (authSchemes: how the call is signed) and the rule that\n"
     "matched (\"rules[2].rules[5]\"; null when the service has no rules and the\n"
     "configured endpoint stands). Nothing is sent or signed: no credentials needed.\n"
     "With --params, the parameters are exactly those given (an endpointTests case's\n"
     "params), nothing from the environment; with an OPERATION, its input binds over\n"
     "them.\n",
     "0 resolved, 64 usage, 65 bad model or input, 78 the rules' own error (their message is printed) or "
     "a configuration problem.",
     cli_endpoint_options, CLI_VALUE_OPERATION, 0u, cli_cmd_endpoint},
    {"gen", "Generate C for a model's waiters (JMESPath compiled to C)",
     "anvil gen --model FILE... [--service ID] --prefix NAME --out DIR [--interpret]\n"
     "       anvil gen --service NAME --prefix NAME --out DIR [--interpret]\n",
     "Writes DIR/NAME.h and DIR/NAME.c: per waiter of the service, its description\n"
     "(NAME_waiter_<Waiter>) and NAME_wait_until_<waiter>(client, input, options,\n"
     "result, diag); per operation a waiter polls, a call wrapper; NAME_client_new()\n"
     "over the part of the model those operations need, embedded, so the program\n"
     "needs no model file. Each acceptor's JMESPath path and comparator become a C\n"
     "function over anvil's JSON values (the interpreter where the compiler cannot,\n"
     "said in a comment). The code uses only anvil's public API; the output is the\n"
     "same for the same model. A botocore service-2.json brings the waiters-2.json\n"
     "and paginators-1.json beside it; --service NAME finds all three as wait does.\n"
     "docs/codegen.md.\n",
     "0 written, 64 usage, 65 bad model, 74 the files could not be written.",
     cli_gen_options, CLI_VALUE_TEXT, 0u, cli_cmd_gen},
    {"help", "Show help for anvil or for one command",
     "anvil help [COMMAND]\n",
     "Without COMMAND, lists the commands. With COMMAND, shows its usage and options.\n"
     "'anvil COMMAND --help' does the same.\n",
     NULL,
     cli_help_options, CLI_VALUE_TOPIC, 0u, cli_cmd_help},
    {"json", "Validate a JSON document and print it again",
     "anvil json [--pretty] [--ascii] [--quiet] [--max-depth N] [--max-bytes N] [FILE]\n",
     "Parses FILE (standard input when FILE is absent or '-') as strict RFC 8259 JSON\n"
     "and prints it again, compact by default. Invalid input prints\n"
     "FILE:LINE:COLUMN: MESSAGE on standard error and exits 65.\n",
     NULL,
     cli_json_options, CLI_VALUE_FILE, 0u, cli_cmd_json},
    {"paginate", "Call a paginated operation page after page, printing pages or items",
     "anvil paginate (--model FILE | --botocore FILE | --service NAME) OPERATION\n"
     "                      [--input JSON|@FILE]\n"
     "                      [--page-size N] [--max-items N] [--max-pages N] [--starting-token T]\n"
     "                      [--duplicates stop|error|continue] [--items] [--output text|json]\n"
     "                      [--query EXPR]\n"
     "                      (--exec CMD [ARG...] | [HTTP OPTIONS])\n",
     "Pages through OPERATION as its @paginated trait (merged with the service's\n"
     "defaults) or its botocore paginators-1.json entry describes: each page's input\n"
     "is the input with the tokens set, sent to CMD on standard input (the exec\n"
     "transport, as for 'anvil wait'). Each page is printed as one JSON line, or with\n"
     "--items each item (maps: {\"key\": ..., \"value\": ...}). Paginating ends when the\n"
     "token is missing, null, \"\" or {}, when more_results is false, when a page\n"
     "answers the request's own token or one seen a few pages before, or at a limit.\n"
     "Stopped by --max-items or --max-pages, it prints a resume token on standard\n"
     "error for --starting-token. With --output json a last line says how it ended:\n"
     "{\"anvil_paginate\": {\"reason\": R, \"pages\": N, \"items\": N, \"starting_token\": T}}\n"
     "(T null when there is nothing to resume).\n",
     "0 done, 3 a page failed (or a repeated token with --duplicates error), 64 usage, 65 a bad model or input.",
     cli_paginate_options, CLI_VALUE_PAGINATED, 0u, cli_cmd_paginate},
    {"query", "Evaluate a JMESPath expression against a JSON document",
     "anvil query [-f FILE] [-e EXPR_FILE] [-u] [-p] [-l] [--ast] EXPRESSION [FILE]\n",
     "Evaluates the JMESPath EXPRESSION against the JSON document in FILE (standard\n"
     "input when absent or '-') and prints the result as JSON. Compatible with jp.\n"
     "Errors print \"anvil: query: KIND: MESSAGE\" (KIND is syntax, invalid-type,\n"
     "invalid-arity, invalid-value or unknown-function) and exit 65; syntax errors\n"
     "also show the expression with a caret under the problem. With --lines each\n"
     "non-blank line is a document and gets a result line (anvil paginate ... |\n"
     "anvil query --lines EXPR); the first bad line ends it, named by its number.\n",
     NULL,
     cli_query_options, CLI_VALUE_FILE, 0u, cli_cmd_query},
    {"ast", "Assemble Smithy models (IDL or JSON AST, files or folders) and print the JSON AST",
     "anvil ast [--compact] FILE|FOLDER...\n",
     "Reads every FILE (.smithy IDL 1.0 or 2.0, .json JSON AST, or a botocore\n"
     "service-2.json, gzipped or not) and every .smithy and .json file and\n"
     "service-2.json.gz under each FOLDER (botocore's waiters-2, paginators-1 and\n"
     "other data files left out), assembles them into one model as Smithy does\n"
     "(relative ids resolved across files, apply, metadata and traits merged, IDL\n"
     "1.0 upgraded) and prints its JSON AST, like `smithy ast`. Syntax errors say\n"
     "FILE: Syntax error at line L, column C: ... and exit 65; a model with ERROR\n"
     "events prints them and exits 65. DANGER events go to stderr.\n",
     NULL,
     cli_ast_options, CLI_VALUE_FILE, 0u, cli_cmd_ast},
    {"idl", "Write Smithy models (IDL or JSON AST) as Smithy IDL 2.0",
     "anvil idl [--namespace NS | --output-dir DIR] FILE|FOLDER...\n",
     "Assembles the model as 'anvil ast' does and writes it as IDL 2.0 in the layout\n"
     "Smithy's own serializer uses (sorted shapes and traits, doc comments, inline\n"
     "operation input and output, `use` for other namespaces), so a JSON AST model\n"
     "becomes readable and a model Smithy wrote comes back byte for byte.\n"
     "\n"
     "An IDL file holds one namespace. With no option the model must have at most\n"
     "one (besides the prelude): its file, metadata included, goes to standard\n"
     "output. --namespace prints one namespace's file (no metadata); --output-dir\n"
     "writes DIR/NAMESPACE.smithy for each namespace and DIR/metadata.smithy when\n"
     "there is metadata, as Smithy does, each file replaced whole, and prints the\n"
     "paths written. Reading those files back gives the same model.\n",
     NULL,
     cli_idl_options, CLI_VALUE_FILE, 0u, cli_cmd_idl},
    {"validate", "Validate Smithy models (JSON AST or IDL)",
     "anvil validate FILE...\n",
     "Loads each model (JSON AST, .smithy IDL, botocore service-2.json, or a folder)\n"
     "and prints its events, what assembly and the validators found, sorted, as\n"
     "[SEVERITY] shape-id: message | EventId (`-` when about no shape), with the\n"
     "ids, severities and messages Smithy uses.\n"
     "\n"
     "Rules so far: unresolved member targets (Target); every @paginated rule\n"
     "(PaginatedTrait), including the service merge; the @waitable rules and the\n"
     "waiter-path return types; @requestCompression; @idempotencyToken placement.\n",
     "0 no event is an ERROR, 1 an event is an ERROR, 64 usage, 65 a file is not a readable model "
     "(FILE:LINE:COLUMN: message).",
     cli_validate_options, CLI_VALUE_FILE, 0u, cli_cmd_validate},
    {"wait", "Wait for a resource: poll an operation until a waiter's acceptor decides",
     "anvil wait (--model FILE | --botocore FILE | --service NAME) WAITER\n"
     "                  --max-wait SECONDS\n"
     "                  [--min-delay S] [--max-delay S] [--max-attempts N] [--input JSON|@FILE]\n"
     "                  [--output text|json] [--progress auto|json|none] [--query EXPR]\n"
     "                  (--exec CMD [ARG...] | [HTTP OPTIONS])\n"
     "       anvil wait ... WAITER --max-wait SECONDS --many FILE|- [--max-in-flight N]\n"
     "                  [--max-rps N] [HTTP OPTIONS]\n",
     "Runs WAITER from a Smithy model (--model), a botocore waiters-2.json\n"
     "(--botocore; over HTTP with --model for the service) or a service's botocore\n"
     "data (--service ec2: its waiters-2.json, and its service-2.json over HTTP):\n"
     "calls the operation at once, then again after each delay (the\n"
     "Smithy spec's exponential backoff with jitter), until an acceptor says success\n"
     "or failure, an error no acceptor expects arrives, or SECONDS pass (one last\n"
     "attempt is made at the deadline). The operation is CMD, run without a shell for\n"
     "each attempt with the input JSON on its standard input: exit 0 with JSON (or\n"
     "nothing) on standard output is the output; another exit is an error whose code\n"
     "comes from a JSON standard error {\"code\": ...} or aws-cli's\n"
     "\"An error occurred (Code)\" text. Everything after --exec belongs to CMD.\n"
     "\n"
     "Over HTTP, an error an acceptor expects (errorType, success: false) goes to the\n"
     "waiter at once; other retryable errors are retried inside the poll, never past\n"
     "the deadline. A deprecated waiter still runs, with a warning.\n"
     "\n"
     "With --many, every line of FILE is one input (JSON lines) and every wait runs at\n"
     "once over HTTP, sharing one retry quota and one adaptive rate limiter; each\n"
     "resource's outcome is a JSON line (with its line and input) the moment it ends.\n",
     "0 success, 1 a failure state, 2 timed out (or the attempt limit), 3 an unexpected error, 64 usage, "
     "65 bad model or input, 78 configuration (no region or credentials, unknown profile, no such "
     "--service), 130 SIGINT, 143 SIGTERM.",
     cli_wait_options, CLI_VALUE_WAITER, 0u, cli_cmd_wait},
    {"waiters", "List the waiters a Smithy model or botocore's data defines",
     "anvil waiters [--output text|json] [--tag TAG]\n"
     "                     (FILE|FOLDER... | --botocore FILE | --service NAME)\n",
     "Lists each operation's waiters in the Smithy model (JSON AST or .smithy files\n"
     "and folders, assembled into one model), in a botocore waiters-2.json\n"
     "(--botocore) or in a service's botocore data (--service ec2): name, delays,\n"
     "documentation, tags, whether deprecated, and the acceptors in order, in\n"
     "readable text (the default) or as a JSON array with each waiter's definition.\n",
     NULL,
     cli_waiters_options, CLI_VALUE_FILE, 0u, cli_cmd_waiters},
    {"version", "Print anvil's version",
     "anvil version\n",
     "Prints \"anvil VERSION\" on standard output. 'anvil --version' does the same.\n",
     NULL,
     cli_version_options, CLI_VALUE_TEXT, 0u, cli_cmd_version},
    {"__complete", "Print the names a completion script offers (waiters, operations)",
     "anvil __complete (waiters | operations | paginated) [--model FILE]... [--botocore FILE] [--service NAME]\n",
     "Prints one name per line, taken from the model, botocore file or service the\n"
     "options name; prints nothing, quietly, when they cannot be read. For the bash\n"
     "and zsh completion scripts.\n",
     NULL, cli_complete_options, CLI_VALUE_TEXT, CLI_COMMAND_HIDDEN, cli_cmd_complete},
    {NULL, NULL, NULL, NULL, NULL, NULL, CLI_VALUE_TEXT, 0u, NULL},
};
/* clang-format on */

const struct cli_command *cli_find_command(const char *name) {
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        if (strcmp(c->name, name) == 0) {
            return c;
        }
    }
    return NULL;
}

const char *cli_suggest_command(const char *name) {
    const char *names[32];
    size_t n = 0;
    for (const struct cli_command *c = cli_commands; c->name && n < 31; c++) {
        if (!(c->flags & CLI_COMMAND_HIDDEN)) {
            names[n++] = c->name;
        }
    }
    names[n] = NULL;
    return cli_suggest(name, names);
}
