#ifndef ANVIL_CORE_LAZY_LIB_H
#define ANVIL_CORE_LAZY_LIB_H

/*
 * A shared library loaded on first use (dlopen), so that commands and
 * programs that never make an HTTP call or a signature do not map libcurl
 * and OpenSSL (and libcurl's two dozen dependencies) at start-up. Not
 * installed.
 */

#include <pthread.h>
#include <stddef.h>

#include "anvil/diag.h"

struct anvil__lazy_symbol {
    const char *name;
    /* Where in the caller's table of function pointers its address goes. */
    size_t offset;
};

struct anvil__lazy_lib {
    /* For messages: "libcurl (HTTP)". */
    const char *what;
    /* Tried in order; NULL-terminated. */
    const char *const *sonames;
    const struct anvil__lazy_symbol *symbols;
    size_t symbol_count;
    /* The table the addresses go into (a struct of function pointers). */
    void *table;
    /* Run once after a load succeeds (libcurl's global init), or NULL. */
    void (*after_load)(void);
    pthread_mutex_t lock;
    /* 0 not tried yet, 1 loaded, -1 failed (error says why; never retried). */
    int state;
    char error[256];
};

/* A symbol table's entry: function `name` into member `field` of the table's type `type`. */
#define ANVIL__LAZY_SYMBOL(type, field, name)                                                                          \
    { name, offsetof(type, field) }

/* A library not loaded yet: `symbols` is an array of ANVIL__LAZY_SYMBOL entries, `table` their struct. */
#define ANVIL__LAZY_LIB(what, sonames, symbols, table, after_load)                                                     \
    {                                                                                                                  \
        what, sonames, symbols, sizeof(symbols) / sizeof((symbols)[0]), table, after_load, PTHREAD_MUTEX_INITIALIZER,  \
            0, ""                                                                                                      \
    }

/*
 * Loads `lib` once (thread-safe; later calls cost one lock): ANVIL_OK, or
 * ANVIL_EUNSUPPORTED with `diag` naming the library and the loader's reason
 * ("anvil needs libcurl (HTTP): libcurl.so.4: cannot open shared object
 * file"). The handle is never closed.
 */
int anvil__lazy_load(struct anvil__lazy_lib *lib, struct anvil_diag *diag);

#endif
