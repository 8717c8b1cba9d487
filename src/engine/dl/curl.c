/* SPDX-License-Identifier: MIT */
/* libcurl's functions, loaded on first use: see curl.h. */
#define DL_CURL_IMPL
#include "engine/dl/curl.h"

#ifdef HAVE_LIBCURL
#ifndef LIBCURL_SONAME
#define LIBCURL_SONAME "libcurl.so.4"
#endif

struct dl_curl_fns dl_curl;

#define CURL_SYM(f) DL_SYM(struct dl_curl_fns, f)
static const struct dl_sym curl_syms[] = { DL_CURL_FNS(CURL_SYM) };
static struct dl_lib curl_lib = DL_LIB(LIBCURL_SONAME, curl_syms, &dl_curl);

int dl_curl_load(struct strbuf *err)
{
	return dl_load(&curl_lib, err);
}
#else
int dl_curl_load(struct strbuf *err)
{
	strbuf_addstr(err, "libcurl: not in this build (libcurl4-openssl-dev)");
	return -1;
}
#endif
