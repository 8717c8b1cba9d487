/* SPDX-License-Identifier: MIT */
/* libnfs's functions, loaded on first use: see nfs.h. */
#define DL_NFS_IMPL
#include "engine/dl/nfs.h"

#ifdef HAVE_LIBNFS
#ifndef LIBNFS_SONAME
#define LIBNFS_SONAME "libnfs.so.13"
#endif

struct dl_nfs_fns dl_nfs;

#define NFS_SYM(f) DL_SYM(struct dl_nfs_fns, f)
static const struct dl_sym nfs_syms[] = { DL_NFS_FNS(NFS_SYM) };
static struct dl_lib nfs_lib = DL_LIB(LIBNFS_SONAME, nfs_syms, &dl_nfs);

int dl_nfs_load(struct strbuf *err)
{
	return dl_load(&nfs_lib, err);
}
#else
int dl_nfs_load(struct strbuf *err)
{
	strbuf_addstr(err, "libnfs: not in this build (libnfs-dev)");
	return -1;
}
#endif
