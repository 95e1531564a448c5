/* libcurl loaded on first use (curl_lib.h). */

#include "transport/curl_lib.h"

#include <stddef.h>

#include "core/lazy_lib.h"

struct anvil__curl_api anvil__curl;

#define S_SYMBOL(field) ANVIL__LAZY_SYMBOL(struct anvil__curl_api, field, "curl_" #field)
static const struct anvil__lazy_symbol s_symbols[] = {
    S_SYMBOL(easy_init),        S_SYMBOL(easy_setopt),
    S_SYMBOL(easy_perform),     S_SYMBOL(easy_getinfo),
    S_SYMBOL(easy_reset),       S_SYMBOL(easy_cleanup),
    S_SYMBOL(easy_strerror),    S_SYMBOL(slist_append),
    S_SYMBOL(slist_free_all),   S_SYMBOL(url),
    S_SYMBOL(url_set),          S_SYMBOL(url_get),
    S_SYMBOL(url_cleanup),      S_SYMBOL(free),
    S_SYMBOL(global_init),      S_SYMBOL(multi_init),
    S_SYMBOL(multi_add_handle), S_SYMBOL(multi_remove_handle),
    S_SYMBOL(multi_perform),    S_SYMBOL(multi_poll),
    S_SYMBOL(multi_info_read),  S_SYMBOL(multi_cleanup),
};

static const char *const s_sonames[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", NULL};

static void s_global_init(void) {
    anvil__curl.global_init(CURL_GLOBAL_DEFAULT);
}

static struct anvil__lazy_lib s_lib =
    ANVIL__LAZY_LIB("libcurl (HTTP)", s_sonames, s_symbols, &anvil__curl, s_global_init);

int anvil__curl_load(struct anvil_diag *diag) {
    return anvil__lazy_load(&s_lib, diag);
}
