/* SPDX-License-Identifier: MIT */
/*
 * libnfs, loaded on first use (dl.h): engine/nfs.c includes this header
 * instead of <nfsc/libnfs.h>, and its calls of libnfs's functions go
 * through the pointers dl_nfs_load() sets. A function the engine starts
 * to use is added to DL_NFS_FNS and to the names below (a missing one
 * is an undefined reference at link time: libnfs is not linked).
 */
#ifndef IOLITE_ENGINE_DL_NFS_H
#define IOLITE_ENGINE_DL_NFS_H

#include "engine/dl/dl.h"
#include "util/strbuf.h"

/* Loads libnfs once: 0, or -1 with the package to install in err. */
int dl_nfs_load(struct strbuf *err);

#ifdef HAVE_LIBNFS
#include <sys/time.h>		/* before libnfs.h, which needs timeval */
#include <nfsc/libnfs.h>

#define DL_NFS_FNS(X) X(nfs_init_context) X(nfs_destroy_context) \
	X(nfs_parse_url_dir) X(nfs_destroy_url) X(nfs_set_autoreconnect) \
	X(nfs_get_error) X(nfs_get_fd) X(nfs_which_events) X(nfs_service) \
	X(nfs_get_readmax) X(nfs_get_writemax) X(nfs_mount_async) \
	X(nfs_umount_async) X(nfs_open2_async) X(nfs_close_async) \
	X(nfs_pread_async) X(nfs_pwrite_async) X(nfs_fsync_async)

struct dl_nfs_fns {
	DL_NFS_FNS(DL_FN_PTR)
};
extern struct dl_nfs_fns dl_nfs;

#ifndef DL_IMPL
#define nfs_init_context (*dl_nfs.nfs_init_context)
#define nfs_destroy_context (*dl_nfs.nfs_destroy_context)
#define nfs_parse_url_dir (*dl_nfs.nfs_parse_url_dir)
#define nfs_destroy_url (*dl_nfs.nfs_destroy_url)
#define nfs_set_autoreconnect (*dl_nfs.nfs_set_autoreconnect)
#define nfs_get_error (*dl_nfs.nfs_get_error)
#define nfs_get_fd (*dl_nfs.nfs_get_fd)
#define nfs_which_events (*dl_nfs.nfs_which_events)
#define nfs_service (*dl_nfs.nfs_service)
#define nfs_get_readmax (*dl_nfs.nfs_get_readmax)
#define nfs_get_writemax (*dl_nfs.nfs_get_writemax)
#define nfs_mount_async (*dl_nfs.nfs_mount_async)
#define nfs_umount_async (*dl_nfs.nfs_umount_async)
#define nfs_open2_async (*dl_nfs.nfs_open2_async)
#define nfs_close_async (*dl_nfs.nfs_close_async)
#define nfs_pread_async (*dl_nfs.nfs_pread_async)
#define nfs_pwrite_async (*dl_nfs.nfs_pwrite_async)
#define nfs_fsync_async (*dl_nfs.nfs_fsync_async)
#endif
#endif /* HAVE_LIBNFS */
#endif
