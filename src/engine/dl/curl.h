/* SPDX-License-Identifier: MIT */
/*
 * libcurl, loaded on first use (dl.h): engine/http.c includes this
 * header, and its calls of libcurl's functions go through the pointers
 * dl_curl_load() sets. A function the engine starts to use is added to
 * DL_CURL_FNS and to the names below (a missing one is an undefined
 * reference at link time: libcurl is not linked). The list holds what
 * the WebDAV, S3 and Swift requests use or would (a handle reset, an
 * escaped name).
 *
 * curl.h's type-checking wrappers of curl_easy_setopt() and its kind
 * (macros calling the function by name) are dropped: the calls go
 * through the pointers, unchecked.
 */
#ifndef IOLITE_ENGINE_DL_CURL_H
#define IOLITE_ENGINE_DL_CURL_H

#include "engine/dl/dl.h"
#include "util/strbuf.h"

/* Loads libcurl once: 0, or -1 with the package to install in err. */
int dl_curl_load(struct strbuf *err);

#ifdef HAVE_LIBCURL
#include <curl/curl.h>

#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_multi_setopt
#undef curl_share_setopt

#define DL_CURL_FNS(X) X(curl_global_init) X(curl_easy_init) \
	X(curl_easy_cleanup) X(curl_easy_reset) X(curl_easy_setopt) \
	X(curl_easy_getinfo) X(curl_easy_perform) X(curl_easy_strerror) \
	X(curl_easy_escape) X(curl_free) X(curl_slist_append) \
	X(curl_slist_free_all) X(curl_multi_init) X(curl_multi_cleanup) \
	X(curl_multi_setopt) X(curl_multi_add_handle) \
	X(curl_multi_remove_handle) X(curl_multi_perform) \
	X(curl_multi_poll) X(curl_multi_wait) X(curl_multi_info_read) \
	X(curl_multi_strerror)

struct dl_curl_fns {
	DL_CURL_FNS(DL_FN_PTR)
};
extern struct dl_curl_fns dl_curl;

#ifndef DL_IMPL
#define curl_global_init (*dl_curl.curl_global_init)
#define curl_easy_init (*dl_curl.curl_easy_init)
#define curl_easy_cleanup (*dl_curl.curl_easy_cleanup)
#define curl_easy_reset (*dl_curl.curl_easy_reset)
#define curl_easy_setopt (*dl_curl.curl_easy_setopt)
#define curl_easy_getinfo (*dl_curl.curl_easy_getinfo)
#define curl_easy_perform (*dl_curl.curl_easy_perform)
#define curl_easy_strerror (*dl_curl.curl_easy_strerror)
#define curl_easy_escape (*dl_curl.curl_easy_escape)
#define curl_free (*dl_curl.curl_free)
#define curl_slist_append (*dl_curl.curl_slist_append)
#define curl_slist_free_all (*dl_curl.curl_slist_free_all)
#define curl_multi_init (*dl_curl.curl_multi_init)
#define curl_multi_cleanup (*dl_curl.curl_multi_cleanup)
#define curl_multi_setopt (*dl_curl.curl_multi_setopt)
#define curl_multi_add_handle (*dl_curl.curl_multi_add_handle)
#define curl_multi_remove_handle (*dl_curl.curl_multi_remove_handle)
#define curl_multi_perform (*dl_curl.curl_multi_perform)
#define curl_multi_poll (*dl_curl.curl_multi_poll)
#define curl_multi_wait (*dl_curl.curl_multi_wait)
#define curl_multi_info_read (*dl_curl.curl_multi_info_read)
#define curl_multi_strerror (*dl_curl.curl_multi_strerror)
#endif
#endif /* HAVE_LIBCURL */
#endif
