/* SPDX-License-Identifier: MIT */
/*
 * The network engines' libraries (dl.h): for each, the struct of
 * pointers its header declares, its table and its loader dl_LIB_load().
 * The sonames come from the Makefile (the libraries built against);
 * the defaults are Debian 12's.
 */
#define DL_IMPL		/* the names below are the functions' own */
#include "engine/dl/curl.h"
#include "engine/dl/iscsi.h"
#include "engine/dl/nbd.h"
#include "engine/dl/nfs.h"

/* lib's pointers, table and loader; syms: its FNS list of DL_SYM()s */
#define DL_DEFINE(lib, soname, syms) \
	struct dl_##lib##_fns dl_##lib; \
	static const struct dl_sym lib##_syms[] = { syms }; \
	static struct dl_lib lib##_lib = DL_LIB(soname, lib##_syms, \
						&dl_##lib); \
	int dl_##lib##_load(struct strbuf *err) \
	{ \
		return dl_load(&lib##_lib, err); \
	}

#ifdef HAVE_LIBNBD
#ifndef LIBNBD_SONAME
#define LIBNBD_SONAME "libnbd.so.0"
#endif
#define NBD_SYM(f) DL_SYM(struct dl_nbd_fns, f)
DL_DEFINE(nbd, LIBNBD_SONAME, DL_NBD_FNS(NBD_SYM))
#endif

#ifdef HAVE_LIBISCSI
#ifndef LIBISCSI_SONAME
#define LIBISCSI_SONAME "libiscsi.so.7"
#endif
#define ISCSI_SYM(f) DL_SYM(struct dl_iscsi_fns, f)
DL_DEFINE(iscsi, LIBISCSI_SONAME, DL_ISCSI_FNS(ISCSI_SYM))
#endif

#ifdef HAVE_LIBNFS
#ifndef LIBNFS_SONAME
#define LIBNFS_SONAME "libnfs.so.13"
#endif
#define NFS_SYM(f) DL_SYM(struct dl_nfs_fns, f)
DL_DEFINE(nfs, LIBNFS_SONAME, DL_NFS_FNS(NFS_SYM))
#endif

#ifdef HAVE_LIBCURL
#ifndef LIBCURL_SONAME
#define LIBCURL_SONAME "libcurl.so.4"
#endif
#define CURL_SYM(f) DL_SYM(struct dl_curl_fns, f)
DL_DEFINE(curl, LIBCURL_SONAME, DL_CURL_FNS(CURL_SYM))
#else
/* http's ops name it in every build; without libcurl it has no init */
int dl_curl_load(struct strbuf *err)
{
	strbuf_addstr(err, "iolite was built without libcurl: install "
		      "libcurl4-openssl-dev and rebuild");
	return -1;
}
#endif
