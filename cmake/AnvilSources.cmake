# Library sources, one list per layer (see DESIGN.md). Lower layers first.
set(ANVIL_CORE_SOURCES
  src/core/allocator.c
  src/core/arena.c
  src/core/buffer.c
  src/core/diag.c
  src/core/env.c
  src/core/env_fake.c
  src/core/log.c
  src/core/status.c
  src/core/str_view.c
  src/core/version.c)

set(ANVIL_SOURCES ${ANVIL_CORE_SOURCES})

# Libraries the library links privately, and their pkg-config spelling.
set(ANVIL_LINK_LIBS)
set(ANVIL_PC_LIBS)
