#ifndef ANVIL_CODEGEN_H
#define ANVIL_CODEGEN_H

/**
 * `anvil gen`: a model's waiters turned into C a program compiles in, with
 * each acceptor's JMESPath path and comparator compiled to a C function
 * over anvil's JSON values, the operations they call as wrappers, and the
 * part of the model the client needs embedded, so the program needs no
 * model file. The generated code uses only anvil's public API.
 * docs/codegen.md.
 */

#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/model.h"
#include "anvil/paginator.h"
#include "anvil/waiter.h"

ANVIL_EXTERN_C_BEGIN

struct anvil_codegen_options {
    /** The C prefix of every generated name, a C identifier (e.g. "ddb"). Required. */
    const char *prefix;
    /** The service (an absolute shape id), NULL for the model's only service. */
    const char *service;
    /** How the source includes the header (default "PREFIX.h"). */
    const char *header_name;
    /** Every matcher through the interpreter (compiled at first use), none compiled to C: for comparing. */
    bool interpret;
    /**
     * The waiters to generate instead of the model's own, NULL for the
     * model's: a botocore waiters-2.json's (anvil_waiter_set_from_botocore()),
     * whose operations are named, not identified. Borrowed.
     */
    const struct anvil_waiter_set *waiters;
    /** The paginators likewise (a botocore paginators-1.json's); NULL for the model's. Borrowed. */
    const struct anvil_paginator_set *paginators;
};

/** What was generated. */
struct anvil_codegen_stats {
    size_t waiters;
    size_t acceptors;
    /** Distinct path matchers, and how many of them are compiled (the rest call the interpreter). */
    size_t matchers;
    size_t compiled;
    size_t fallbacks;
    size_t operations;
    size_t paginators;
    /** Bytes of the embedded model (its JSON AST, cut to what the operations need). */
    size_t model_bytes;
};

/**
 * Appends the header and the source to `header` and `source`.
 * Deterministic: the same model and options give the same bytes. ANVIL_OK;
 * ANVIL_EINVAL for a prefix that is not a C identifier or a service the
 * model lacks (diag says which); ANVIL_EMODEL for a waiter the runtime
 * would refuse; ANVIL_ENOMEM. `stats` may be NULL.
 */
ANVIL_API int anvil_codegen_generate(const struct anvil_model *model, const struct anvil_codegen_options *options,
                                     struct anvil_buf *header, struct anvil_buf *source,
                                     struct anvil_codegen_stats *stats, struct anvil_diag *diag);

ANVIL_EXTERN_C_END

#endif
