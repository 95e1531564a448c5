/* Shared libraries loaded on first use (lazy_lib.h). */

#include "core/lazy_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "anvil/status.h"
#include "core/diag_origin.h"

/* Addresses from dlsym() are copied into function pointers (POSIX guarantees they fit). */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "dlsym's addresses fit function pointers");

static void s_load(struct anvil__lazy_lib *lib) {
    void *handle = NULL;
    const char *why = "no library name to try";
    for (const char *const *name = lib->sonames; *name && !handle; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        why = handle ? why : dlerror();
    }
    if (!handle) {
        snprintf(lib->error, sizeof lib->error, "anvil needs %s: %s", lib->what, why ? why : "not found");
        lib->state = -1;
        return;
    }
    for (size_t i = 0; i < lib->symbol_count; i++) {
        void *address = dlsym(handle, lib->symbols[i].name);
        if (!address) {
            snprintf(lib->error, sizeof lib->error, "anvil needs %s, which lacks %s", lib->what, lib->symbols[i].name);
            lib->state = -1;
            return;
        }
        /* POSIX: an object pointer from dlsym() holds a function's address; copied as bytes. */
        memcpy((char *)lib->table + lib->symbols[i].offset, &address, sizeof address);
    }
    if (lib->after_load) {
        lib->after_load();
    }
    lib->state = 1;
}

int anvil__lazy_load(struct anvil__lazy_lib *lib, struct anvil_diag *diag) {
    pthread_mutex_lock(&lib->lock);
    if (lib->state == 0) {
        s_load(lib);
    }
    int state = lib->state;
    pthread_mutex_unlock(&lib->lock);
    return state == 1 ? ANVIL_OK : anvil_diag_set(diag, ANVIL_EUNSUPPORTED, 0, 0, 0, "%s", lib->error);
}
