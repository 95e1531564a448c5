/* The command table: one entry per subcommand, in the order help lists them. */

#include <string.h>

#include "cli.h"

/* The HTTP options call, wait and paginate share. */
#define S_HTTP_HELP                                                                                                    \
    "HTTP options (instead of --exec; the service is the model's):\n"                                                  \
    "      --endpoint-url URL      default AWS_ENDPOINT_URL_<SDK ID>, AWS_ENDPOINT_URL, or\n"                          \
    "                              the service's endpoint rules (docs/endpoints.md)\n"                                 \
    "      --region R              default AWS_REGION, AWS_DEFAULT_REGION or the profile's\n"                          \
    "      --profile P             default AWS_PROFILE, else \"default\"\n"                                            \
    "      --retry-mode MODE       standard (default) or adaptive\n"                                                   \
    "      --retry-max-attempts N  attempts per call, the first included (default 3)\n"                                \
    "      --retry-max-time S      the longest one call's retries may take, in seconds\n"                              \
    "      --retry-error CODE      retry this error code too (repeatable)\n"                                           \
    "      --max-response-bytes N  the largest answer accepted (default 64 MiB)\n"                                     \
    "      --ca-bundle FILE        CA certificates for TLS (default AWS_CA_BUNDLE, the profile's)\n"                   \
    "      --no-sign-request       send requests unsigned: no credentials needed\n"                                    \
    "      --endpoint-params JSON  the endpoint rules' parameters by name, or @FILE\n"                                 \
    "                              (e.g. '{\"ForcePathStyle\": true}')\n"                                              \
    "      --debug                 log each attempt on standard error (never secrets)\n"

const struct cli_command cli_commands[] = {
    {"call", "Call one operation of a service over HTTP in its AWS protocol",
     "Usage: anvil call (--model FILE | --service NAME) OPERATION [--input JSON|@FILE] [--dry-run]\n"
     "                  [--query EXPR] [HTTP OPTIONS]\n"
     "\n"
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
     "as JSON (method, url, headers, body) instead of sent.\n"
     "\n"
     "Exit status: 0 success, 3 the service or the transport failed, 64 usage, 65 bad\n"
     "model or input, 78 configuration (the endpoint rules' own error among it).\n"
     "\n"
     "Options:\n"
     "  -m, --model FILE            the model: JSON AST, .smithy, botocore service-2.json\n"
     "                              (.gz too) or a folder; repeat to assemble one model\n"
     "      --service NAME          the newest botocore service-2.json of NAME (ec2, s3, ...)\n"
     "                              from ANVIL_MODEL_PATH or where AWS tools keep it\n"
     "  -i, --input JSON            the operation's input, or @FILE (default {})\n"
     "      --dry-run               print the signed request instead of sending it\n"
     "      --query EXPR            print the output through this JMESPath expression\n"
     "\n" S_HTTP_HELP,
     cli_cmd_call},
    {"credentials", "Show where credentials come from (never the secret)",
     "Usage: anvil credentials [--profile P] [--region R] [--output json|text] [--debug]\n"
     "\n"
     "Finds credentials as every command does, through the default chain: the\n"
     "environment's keys (unless --profile), a profile's role (source_profile or\n"
     "credential_source, STS AssumeRole), web identity (AWS_WEB_IDENTITY_TOKEN_FILE),\n"
     "SSO, the profile's keys, its credential_process, the ECS/EKS container\n"
     "endpoint, EC2 instance metadata (IMDSv2). Prints which provider supplied them,\n"
     "from where, the access key id's last 4 characters and when they expire; never\n"
     "the secret or the session token. With --output json: {\"provider\", \"source\",\n"
     "\"access_key_id\", \"expires\"} (expires null for keys that do not).\n"
     "\n"
     "Exit status: 0 found, 64 usage, 78 none found or a source failed (the message\n"
     "names each provider tried and why).\n"
     "\n"
     "Options:\n"
     "      --profile P             the profile (outranks the environment's keys)\n"
     "      --region R              the region of STS calls (default: the profile's)\n"
     "  -o, --output FORMAT         text (default) or json\n"
     "      --debug                 one line per provider tried and request made\n",
     cli_cmd_credentials},
    {"endpoint", "Show where a call would go: the service's endpoint rules resolved",
     "Usage: anvil endpoint (--model FILE | --service NAME)\n"
     "                      [OPERATION | --operation OP] [--input JSON|@FILE]\n"
     "                      [--region R] [--profile P] [--endpoint-url URL]\n"
     "                      [--endpoint-params JSON|@FILE | --params JSON|@FILE] [--debug]\n"
     "\n"
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
     "them.\n"
     "\n"
     "Exit status: 0 resolved, 64 usage, 65 bad model or input, 78 the rules' own\n"
     "error (their message is printed) or a configuration problem.\n"
     "\n"
     "Options:\n"
     "  -m, --model FILE            the model: JSON AST, .smithy, botocore service-2.json\n"
     "                              (.gz too) or a folder; repeat to assemble one model\n"
     "      --service NAME          the newest botocore data of NAME (s3, ec2, ...)\n"
     "      --operation OP          the operation (or give it as an operand)\n"
     "  -i, --input JSON            OPERATION's input, or @FILE (default {})\n"
     "      --params JSON           the rule set's parameters by name, exactly, or @FILE\n"
     "\n" S_HTTP_HELP,
     cli_cmd_endpoint},
    {"gen", "Generate C for a model's waiters (JMESPath compiled to C)",
     "Usage: anvil gen --model FILE... [--service ID] --prefix NAME --out DIR [--interpret]\n"
     "       anvil gen --service NAME --prefix NAME --out DIR [--interpret]\n"
     "\n"
     "Writes DIR/NAME.h and DIR/NAME.c: per waiter of the service, its description\n"
     "(NAME_waiter_<Waiter>) and NAME_wait_until_<waiter>(client, input, options,\n"
     "result, diag); per operation a waiter polls, a call wrapper; NAME_client_new()\n"
     "over the part of the model those operations need, embedded, so the program\n"
     "needs no model file. Each acceptor's JMESPath path and comparator become a C\n"
     "function over anvil's JSON values (the interpreter where the compiler cannot,\n"
     "said in a comment). The code uses only anvil's public API; the output is the\n"
     "same for the same model. A botocore service-2.json brings the waiters-2.json\n"
     "and paginators-1.json beside it; --service NAME finds all three as wait does.\n"
     "docs/codegen.md.\n"
     "\n"
     "Exit status: 0 written, 64 usage, 65 bad model, 74 the files could not be written.\n"
     "\n"
     "Options:\n"
     "  -m, --model FILE            the model: JSON AST, .smithy, botocore service-2.json\n"
     "                              (.gz too) or a folder; repeat to assemble one model\n"
     "      --service ID|NAME       the service (an absolute shape id) when the model has\n"
     "                              several; a NAME (ec2, dynamodb): botocore's newest data\n"
     "      --prefix NAME           the C prefix of every generated name (a C identifier)\n"
     "  -o, --out DIR               the folder to write NAME.h and NAME.c into\n"
     "      --interpret             every matcher through the interpreter (to compare)\n",
     cli_cmd_gen},
    {"help", "Show help for anvil or for one command",
     "Usage: anvil help [COMMAND]\n"
     "\n"
     "Without COMMAND, lists the commands. With COMMAND, shows its usage and options.\n"
     "'anvil COMMAND --help' does the same.\n",
     cli_cmd_help},
    {"json", "Validate a JSON document and print it again",
     "Usage: anvil json [--pretty] [--ascii] [--quiet] [--max-depth N] [--max-bytes N] [FILE]\n"
     "\n"
     "Parses FILE (standard input when FILE is absent or '-') as strict RFC 8259 JSON\n"
     "and prints it again, compact by default. Invalid input prints\n"
     "FILE:LINE:COLUMN: MESSAGE on standard error and exits 65.\n"
     "\n"
     "Options:\n"
     "  -p, --pretty       indent with two spaces, one member or item per line\n"
     "  -a, --ascii        escape every non-ASCII character as \\uXXXX\n"
     "  -q, --quiet        only validate; print nothing on success\n"
     "      --max-depth N  deepest nesting accepted (default 512)\n"
     "      --max-bytes N  largest input accepted in bytes (default 1 GiB)\n",
     cli_cmd_json},
    {"paginate", "Call a paginated operation page after page, printing pages or items",
     "Usage: anvil paginate (--model FILE | --botocore FILE | --service NAME) OPERATION\n"
     "                      [--input JSON|@FILE]\n"
     "                      [--page-size N] [--max-items N] [--max-pages N] [--starting-token T]\n"
     "                      [--duplicates stop|error|continue] [--items] [--output text|json]\n"
     "                      [--query EXPR]\n"
     "                      (--exec CMD [ARG...] | [HTTP OPTIONS])\n"
     "\n"
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
     "(T null when there is nothing to resume).\n"
     "\n"
     "Exit status: 0 done, 3 a page failed (or a repeated token with --duplicates\n"
     "error), 64 usage, 65 a bad model or input.\n"
     "\n"
     "Options:\n"
     "  -m, --model FILE          the model: JSON AST, .smithy, botocore service-2.json\n"
     "                            (.gz too) or a folder; repeat to assemble one model\n"
     "  -b, --botocore FILE       a botocore paginators-1.json (with --model over HTTP)\n"
     "      --service NAME        the newest botocore data of NAME (ec2, s3, ...): its\n"
     "                            paginators-1.json and, over HTTP, its service-2.json\n"
     "  -i, --input JSON          the operation's input, or @FILE (default {})\n"
     "      --page-size N         ask for N items a page\n"
     "      --max-items N         stop after N items (counted on the first items path)\n"
     "      --max-pages N         stop after N pages\n"
     "      --starting-token T    resume where an earlier run stopped\n"
     "      --duplicates POLICY   a repeated token: stop (default), error, or continue\n"
     "      --items               print items, not pages\n"
     "  -o, --output FORMAT       text (default) or json (adds the last line above)\n"
     "      --query EXPR          print each page (each item with --items) through this\n"
     "                            JMESPath expression\n"
     "  -x, --exec CMD ...        the command that calls the operation\n"
     "\n" S_HTTP_HELP,
     cli_cmd_paginate},
    {"query", "Evaluate a JMESPath expression against a JSON document",
     "Usage: anvil query [-f FILE] [-e EXPR_FILE] [-u] [-p] [-l] [--ast] EXPRESSION [FILE]\n"
     "\n"
     "Evaluates the JMESPath EXPRESSION against the JSON document in FILE (standard\n"
     "input when absent or '-') and prints the result as JSON. Compatible with jp.\n"
     "Errors print \"anvil: query: KIND: MESSAGE\" (KIND is syntax, invalid-type,\n"
     "invalid-arity, invalid-value or unknown-function) and exit 65; syntax errors\n"
     "also show the expression with a caret under the problem. With --lines each\n"
     "non-blank line is a document and gets a result line (anvil paginate ... |\n"
     "anvil query --lines EXPR); the first bad line ends it, named by its number.\n"
     "\n"
     "Options:\n"
     "  -f, --filename FILE   read the document from FILE\n"
     "  -e, --expr-file FILE  read the expression from FILE\n"
     "  -u, --unquoted        print a string result without quotes\n"
     "  -p, --pretty          indent the result\n"
     "  -l, --lines           JSON lines: a result per document, one per line\n"
     "      --ast             print the parsed expression tree instead of evaluating\n",
     cli_cmd_query},
    {"ast", "Assemble Smithy models (IDL or JSON AST, files or folders) and print the JSON AST",
     "Usage: anvil ast [--compact] FILE|FOLDER...\n"
     "\n"
     "Reads every FILE (.smithy IDL 1.0 or 2.0, .json JSON AST, or a botocore\n"
     "service-2.json, gzipped or not) and every .smithy and .json file and\n"
     "service-2.json.gz under each FOLDER (botocore's waiters-2, paginators-1 and\n"
     "other data files left out), assembles them into one model as Smithy does\n"
     "(relative ids resolved across files, apply, metadata and traits merged, IDL\n"
     "1.0 upgraded) and prints its JSON AST, like `smithy ast`. Syntax errors say\n"
     "FILE: Syntax error at line L, column C: ... and exit 65; a model with ERROR\n"
     "events prints them and exits 65. DANGER events go to stderr.\n"
     "\n"
     "Options:\n"
     "  -c, --compact   print the JSON on one line\n",
     cli_cmd_ast},
    {"idl", "Write Smithy models (IDL or JSON AST) as Smithy IDL 2.0",
     "Usage: anvil idl [--namespace NS | --output-dir DIR] FILE|FOLDER...\n"
     "\n"
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
     "paths written. Reading those files back gives the same model.\n"
     "\n"
     "Options:\n"
     "  -n, --namespace NS      print the shapes of namespace NS\n"
     "  -o, --output-dir DIR    write one file per namespace into DIR (made if missing)\n",
     cli_cmd_idl},
    {"validate", "Validate Smithy models (JSON AST or IDL)",
     "Usage: anvil validate FILE...\n"
     "\n"
     "Loads each model (JSON AST, .smithy IDL, botocore service-2.json, or a folder)\n"
     "and prints its\n"
     "events, what assembly and the validators found, sorted, as\n"
     "[SEVERITY] shape-id: message | EventId (`-` when about no shape), with the\n"
     "ids, severities and messages Smithy uses. Exits 0 when no event is an ERROR, 1 when one is, and 65 when a\n"
     "file is not a readable model (FILE:LINE:COLUMN: message).\n"
     "\n"
     "Rules so far: unresolved member targets (Target); every @paginated rule\n"
     "(PaginatedTrait), including the service merge; the @waitable rules and the\n"
     "waiter-path return types; @requestCompression; @idempotencyToken placement.\n",
     cli_cmd_validate},
    {"wait", "Wait for a resource: poll an operation until a waiter's acceptor decides",
     "Usage: anvil wait (--model FILE | --botocore FILE | --service NAME) WAITER\n"
     "                  --max-wait SECONDS\n"
     "                  [--min-delay S] [--max-delay S] [--max-attempts N] [--input JSON|@FILE]\n"
     "                  [--output text|json] [--progress auto|json|none] [--query EXPR]\n"
     "                  (--exec CMD [ARG...] | [HTTP OPTIONS])\n"
     "\n"
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
     "Exit status: 0 success, 1 a failure state, 2 timed out (or the attempt limit),\n"
     "3 an unexpected error, 64 usage, 65 bad model or input, 78 configuration\n"
     "(no region or credentials, unknown profile, no such --service), 130 SIGINT,\n"
     "143 SIGTERM.\n"
     "\n"
     "Options:\n"
     "  -m, --model FILE      the model (JSON AST, .smithy, botocore service-2.json\n"
     "                        [.gz], folder); repeat to assemble one model\n"
     "  -b, --botocore FILE   a botocore waiters-2.json that defines WAITER\n"
     "      --service NAME    the newest botocore data of NAME (ec2, s3, ...) from\n"
     "                        ANVIL_MODEL_PATH, ~/.aws/models, python3-botocore or\n"
     "                        aws-cli v2's and pip's copies (docs/cli.md lists them)\n"
     "  -w, --max-wait S      the most time to wait, in seconds (required; e.g. 600 or 0.5)\n"
     "      --min-delay S     override the waiter's minimum delay (whole seconds)\n"
     "      --max-delay S     override the waiter's maximum delay (whole seconds)\n"
     "      --max-attempts N  stop after N calls (botocore waiters default to theirs)\n"
     "  -i, --input JSON      the operation's input, or @FILE to read it (default {})\n"
     "  -o, --output FORMAT   text (default: one line) or json (the whole outcome)\n"
     "      --query EXPR      the last output through this JMESPath expression: json's\n"
     "                        \"output\", or a JSON line after text's\n"
     "  -p, --progress MODE   auto (a live line on a terminal), json (a JSON line per\n"
     "                        attempt on standard error) or none\n"
     "  -x, --exec CMD ...    the command that calls the operation\n"
     "\n"
     "Over HTTP, an error an acceptor expects (errorType, success: false) goes to the\n"
     "waiter at once; other retryable errors are retried inside the poll, never past\n"
     "the deadline. A deprecated waiter still runs, with a warning.\n"
     "\n" S_HTTP_HELP,
     cli_cmd_wait},
    {"waiters", "List the waiters a Smithy model or botocore's data defines",
     "Usage: anvil waiters [--output text|json] [--tag TAG]\n"
     "                     (FILE|FOLDER... | --botocore FILE | --service NAME)\n"
     "\n"
     "Lists each operation's waiters in the Smithy model (JSON AST or .smithy files\n"
     "and folders, assembled into one model), in a botocore waiters-2.json\n"
     "(--botocore) or in a service's botocore data (--service ec2): name, delays,\n"
     "documentation, tags, whether deprecated, and the acceptors in order, in\n"
     "readable text (the default) or as a JSON array with each waiter's definition.\n"
     "\n"
     "Options:\n"
     "  -o, --output FORMAT  text (default) or json\n"
     "  -t, --tag TAG        only waiters carrying TAG (botocore waiters have none)\n"
     "  -b, --botocore FILE  a botocore waiters-2.json (.gz too)\n"
     "      --service NAME   the newest botocore waiters-2.json of NAME, found as\n"
     "                       'anvil wait --service' finds it\n",
     cli_cmd_waiters},
    {"version", "Print anvil's version",
     "Usage: anvil version\n"
     "\n"
     "Prints \"anvil VERSION\" on standard output. 'anvil --version' does the same.\n",
     cli_cmd_version},
    {NULL, NULL, NULL, NULL},
};

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
        names[n++] = c->name;
    }
    names[n] = NULL;
    return cli_suggest(name, names);
}
