#ifndef ANVIL_TRANSPORT_CURL_LIB_H
#define ANVIL_TRANSPORT_CURL_LIB_H

/*
 * libcurl, loaded on first use (core/lazy_lib.h): `anvil json`, `anvil
 * query` or a program that only parses never maps libcurl and its two
 * dozen dependencies. The transport includes this instead of <curl/curl.h>
 * and calls curl_* as usual: each name below is the loaded function. Call
 * anvil__curl_load() before the first (a client's construction does; so
 * does each credential request). Not installed.
 *
 * curl's compile-time option type checks (typecheck-gcc.h) call the linked
 * function by name, so they are off here.
 */

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#include "anvil/diag.h"

struct anvil__curl_api {
    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_setopt) easy_setopt;
    __typeof__(&curl_easy_perform) easy_perform;
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_easy_reset) easy_reset;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;
    __typeof__(&curl_url) url;
    __typeof__(&curl_url_set) url_set;
    __typeof__(&curl_url_get) url_get;
    __typeof__(&curl_url_cleanup) url_cleanup;
    __typeof__(&curl_free) free;
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_multi_init) multi_init;
    __typeof__(&curl_multi_add_handle) multi_add_handle;
    __typeof__(&curl_multi_remove_handle) multi_remove_handle;
    __typeof__(&curl_multi_perform) multi_perform;
    __typeof__(&curl_multi_poll) multi_poll;
    __typeof__(&curl_multi_info_read) multi_info_read;
    __typeof__(&curl_multi_cleanup) multi_cleanup;
};

/* Filled by anvil__curl_load(); read only after it returned ANVIL_OK. */
extern struct anvil__curl_api anvil__curl;

/*
 * Loads libcurl (libcurl.so.4) and runs curl_global_init() once per
 * process: ANVIL_OK, or ANVIL_EUNSUPPORTED with `diag` naming what is
 * missing. Thread-safe.
 */
int anvil__curl_load(struct anvil_diag *diag);

#define curl_easy_init anvil__curl.easy_init
#undef curl_easy_setopt /* curl.h's pass-through macro */
#define curl_easy_setopt anvil__curl.easy_setopt
#define curl_easy_perform anvil__curl.easy_perform
#undef curl_easy_getinfo
#define curl_easy_getinfo anvil__curl.easy_getinfo
#define curl_easy_reset anvil__curl.easy_reset
#define curl_easy_cleanup anvil__curl.easy_cleanup
#define curl_easy_strerror anvil__curl.easy_strerror
#define curl_slist_append anvil__curl.slist_append
#define curl_slist_free_all anvil__curl.slist_free_all
#define curl_url anvil__curl.url
#define curl_url_set anvil__curl.url_set
#define curl_url_get anvil__curl.url_get
#define curl_url_cleanup anvil__curl.url_cleanup
#define curl_free anvil__curl.free
#define curl_multi_init anvil__curl.multi_init
#define curl_multi_add_handle anvil__curl.multi_add_handle
#define curl_multi_remove_handle anvil__curl.multi_remove_handle
#define curl_multi_perform anvil__curl.multi_perform
#define curl_multi_poll anvil__curl.multi_poll
#define curl_multi_info_read anvil__curl.multi_info_read
#define curl_multi_cleanup anvil__curl.multi_cleanup

#endif
