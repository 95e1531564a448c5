#ifndef ANVIL_TEST_MODEL_SAME_H
#define ANVIL_TEST_MODEL_SAME_H

/*
 * An assembled model is built straight from the assembler's records; the
 * JSON AST loader builds one from an AST. Both must give the same model:
 * anvil_test_model_same_as_ast() loads `model`'s own AST (written as text)
 * with anvil_model_load() and compares the two through the public API:
 * shapes by id (type, traits), members (name, target, traits),
 * operation input, output and errors, each service's operation closure,
 * and the metadata. False with the first difference in `why`.
 */

#include <stdbool.h>
#include <stddef.h>

#include "anvil/anvil.h"

/* Whether two models are the same, compared as above; false with the first difference in `why`. */
bool anvil_test_models_same(const struct anvil_model *x, const struct anvil_model *y, char *why, size_t cap);

bool anvil_test_model_same_as_ast(const struct anvil_model *model, const struct anvil_model_options *options, char *why,
                                  size_t cap);

#endif
