#ifndef ANVIL_ANVIL_H
#define ANVIL_ANVIL_H

/**
 * anvil: Smithy client behaviours for C — waiters, retries, paginators,
 * request compression and idempotency tokens, with the JSON, JMESPath, model
 * and transport layers they stand on. Include this for everything, or the
 * one header per concept you need.
 */

#include "anvil/allocator.h"
#include "anvil/arena.h"
#include "anvil/base64.h"
#include "anvil/buffer.h"
#include "anvil/client.h"
#include "anvil/codegen.h"
#include "anvil/common.h"
#include "anvil/compress.h"
#include "anvil/credentials.h"
#include "anvil/diag.h"
#include "anvil/endpoint.h"
#include "anvil/env.h"
#include "anvil/exec.h"
#include "anvil/idempotency.h"
#include "anvil/jmespath.h"
#include "anvil/json.h"
#include "anvil/log.h"
#include "anvil/model.h"
#include "anvil/operation.h"
#include "anvil/paginator.h"
#include "anvil/retry.h"
#include "anvil/sigv4.h"
#include "anvil/status.h"
#include "anvil/str_view.h"
#include "anvil/text.h"
#include "anvil/traits.h"
#include "anvil/validate.h"
#include "anvil/version.h"
#include "anvil/waiter.h"
#include "anvil/xml.h"

#endif
