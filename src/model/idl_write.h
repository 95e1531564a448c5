#ifndef ANVIL_MODEL_IDL_WRITE_H
#define ANVIL_MODEL_IDL_WRITE_H

/* The Smithy IDL writer: a JSON AST model -> `.smithy` text (internal; see idl_write.c). */

#include "anvil/buffer.h"
#include "anvil/diag.h"
#include "anvil/json.h"

#endif
