# Library sources, one list per layer (see DESIGN.md). Lower layers first.
set(ANVIL_CORE_SOURCES
  src/core/allocator.c
  src/core/arena.c
  src/core/arena_cache.c
  src/core/base64.c
  src/core/buffer.c
  src/core/diag.c
  src/core/crypto.c
  src/core/env.c
  src/core/env_fake.c
  src/core/file.c
  src/core/lazy_lib.c
  src/core/log.c
  src/core/status.c
  src/core/str_view.c
  src/core/text.c
  src/core/utf8.c
  src/core/version.c)

set(ANVIL_JSON_SOURCES
  src/json/json_build.c
  src/json/json_builder.c
  src/json/json_number.c
  src/json/json_parse.c
  src/json/json_value.c
  src/json/json_write.c)

set(ANVIL_XML_SOURCES
  src/xml/xml_reader.c
  src/xml/xml_scan.c
  src/xml/xml_tree.c
  src/xml/xml_write.c)

set(ANVIL_JMESPATH_SOURCES
  src/jmespath/ast.c
  src/jmespath/eval.c
  src/jmespath/functions.c
  src/jmespath/lexer.c
  src/jmespath/lint.c
  src/jmespath/parser.c)

set(ANVIL_MODEL_SOURCES
  src/model/assemble.c
  src/model/assemble_idl.c
  src/model/assemble_json.c
  src/model/assemble_ast.c
  src/model/assemble_mixins.c
  src/model/assemble_model.c
  src/model/assemble_rules.c
  src/model/botocore_model.c
  src/model/botocore_operations.c
  src/model/botocore_shapes.c
  src/model/idl_lex.c
  src/model/idl_parse.c
  src/model/idl_text.c
  src/model/idl_write.c
  src/model/idl_write_model.c
  src/model/load.c
  src/model/load_file.c
  src/model/prelude.c
  src/model/sample.c
  src/model/shapes.c
  src/model/traits.c
  src/model/validate.c
  src/model/validate_paginated.c
  src/model/validate_traits.c
  src/model/validate_waitable.c)

set(ANVIL_BEHAVIOR_SOURCES
  src/behavior/compress.c
  src/behavior/desc_store.c
  src/behavior/idempotency.c
  src/behavior/operation.c
  src/behavior/paginate.c
  src/behavior/paginator_load.c
  src/behavior/retry_classify.c
  src/behavior/retry_limiter.c
  src/behavior/retry_strategy.c
  src/behavior/waiter_check.c
  src/behavior/waiter_drive.c
  src/behavior/waiter_group.c
  src/behavior/waiter_load.c
  src/behavior/waiter_match.c
  src/behavior/waiter_state.c)

set(ANVIL_ENDPOINT_SOURCES
  src/endpoint/bind.c
  src/endpoint/functions.c
  src/endpoint/partitions.c
  src/endpoint/partitions_data.c
  src/endpoint/rules_compile.c
  src/endpoint/rules_expr.c
  src/endpoint/rules_resolve.c)

set(ANVIL_PROTOCOL_SOURCES
  src/protocol/aws_json.c
  src/protocol/customize.c
  src/protocol/http_bind.c
  src/protocol/json_codec.c
  src/protocol/protocol.c
  src/protocol/query.c
  src/protocol/rest_json.c
  src/protocol/rest_xml.c
  src/protocol/timestamp.c
  src/protocol/trait.c
  src/protocol/value_stack.c
  src/protocol/xml_codec.c)

set(ANVIL_CODEGEN_SOURCES
  src/codegen/c_text.c
  src/codegen/c_rewrap.c
  src/codegen/c_wrap.c
  src/codegen/gen.c
  src/codegen/jmespath_c.c
  src/codegen/jmespath_c_helpers.c)

set(ANVIL_TRANSPORT_SOURCES
  src/transport/auth_call.c
  src/transport/auth_services_data.c
  src/transport/aws_config.c
  src/transport/call_run.c
  src/transport/client.c
  src/transport/client_call.c
  src/transport/client_wait.c
  src/transport/client_wait_many.c
  src/transport/client_endpoint.c
  src/transport/client_http.c
  src/transport/credentials.c
  src/transport/credentials_default.c
  src/transport/credentials_http.c
  src/transport/credentials_process.c
  src/transport/credentials_profile.c
  src/transport/credentials_sso.c
  src/transport/curl_lib.c
  src/transport/exec.c
  src/transport/http1.c
  src/transport/http_conn.c
  src/transport/ssl_lib.c
  src/transport/exec_operation.c
  src/transport/sigv4.c
  src/transport/tls_trust.c)

set(ANVIL_SOURCES ${ANVIL_CORE_SOURCES} ${ANVIL_JSON_SOURCES} ${ANVIL_XML_SOURCES} ${ANVIL_JMESPATH_SOURCES} ${ANVIL_MODEL_SOURCES}
  ${ANVIL_BEHAVIOR_SOURCES} ${ANVIL_ENDPOINT_SOURCES} ${ANVIL_PROTOCOL_SOURCES} ${ANVIL_TRANSPORT_SOURCES} ${ANVIL_CODEGEN_SOURCES})

# Libraries the library links privately, and their pkg-config spelling.
find_package(Threads REQUIRED)
# zlib (gzip streams), libdeflate (whole-buffer gzip) and OpenSSL's libcrypto (SigV4):
# zlib1g-dev, libdeflate-dev and libssl-dev (scripts/deps).
foreach(_dep IN ITEMS z deflate crypto curl)
  find_library(ANVIL_LIB_${_dep} ${_dep})
  if(NOT ANVIL_LIB_${_dep})
    message(FATAL_ERROR "anvil: lib${_dep} not found; scripts/deps installs zlib1g-dev, libdeflate-dev, libssl-dev and libcurl4-openssl-dev")
  endif()
endforeach()
find_path(ANVIL_LIBDEFLATE_INCLUDE libdeflate.h REQUIRED)
find_path(ANVIL_ZLIB_INCLUDE zlib.h REQUIRED)
find_path(ANVIL_OPENSSL_INCLUDE openssl/hmac.h REQUIRED)
find_path(ANVIL_CURL_INCLUDE curl/curl.h REQUIRED)
# libcurl and libcrypto are not linked: the library loads them on first use (src/core/lazy_lib.c), so a
# program that makes no HTTP call or signature never maps them. Their headers and libraries are still
# needed to build (the headers) and to run HTTP calls (libcurl4, libssl3).
include(CheckSymbolExists)
check_symbol_exists(dlopen dlfcn.h ANVIL_DLOPEN_IN_LIBC)
set(_anvil_dl)
if(NOT ANVIL_DLOPEN_IN_LIBC)
  set(_anvil_dl ${CMAKE_DL_LIBS})
endif()
set(ANVIL_LINK_LIBS Threads::Threads m z deflate ${_anvil_dl})
set(ANVIL_PC_LIBS -lpthread -lm -lz -ldeflate)
if(_anvil_dl)
  list(APPEND ANVIL_PC_LIBS -l${_anvil_dl})
endif()
