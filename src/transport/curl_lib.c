/* libcurl loaded on first use (curl_lib.h). */

#include "transport/curl_lib.h"

#include <stddef.h>

#include "core/lazy_lib.h"

struct anvil__curl_api anvil__curl;

_Static_assert(sizeof(void *) == sizeof anvil__curl.easy_init, "dlsym's addresses fit function pointers");

#define S_SYMBOL(field)                                                                                                \
    { "curl_" #field, offsetof(struct anvil__curl_api, field) }
static const struct anvil__lazy_symbol s_symbols[] = {
    S_SYMBOL(easy_init),      S_SYMBOL(easy_setopt),  S_SYMBOL(easy_perform),  S_SYMBOL(easy_getinfo),
    S_SYMBOL(easy_reset),     S_SYMBOL(easy_cleanup), S_SYMBOL(easy_strerror), S_SYMBOL(slist_append),
    S_SYMBOL(slist_free_all), S_SYMBOL(url),          S_SYMBOL(url_set),       S_SYMBOL(url_get),
    S_SYMBOL(url_cleanup),    S_SYMBOL(free),         S_SYMBOL(global_init),
};

static const char *const s_sonames[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", NULL};

static void s_global_init(void) {
    anvil__curl.global_init(CURL_GLOBAL_DEFAULT);
}

static struct anvil__lazy_lib s_lib = {"libcurl (HTTP)",
                                       s_sonames,
                                       s_symbols,
                                       sizeof s_symbols / sizeof s_symbols[0],
                                       &anvil__curl,
                                       s_global_init,
                                       PTHREAD_MUTEX_INITIALIZER,
                                       0,
                                       ""};

int anvil__curl_load(struct anvil_diag *diag) {
    return anvil__lazy_load(&s_lib, diag);
}
