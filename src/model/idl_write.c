/* The Smithy IDL writer: being written. */

#include "model/idl_write.h"
