/* SPDX-License-Identifier: MIT */
/*
 * libnbd, loaded on first use (dl.h): engine/nbd.c includes this header
 * instead of <libnbd.h>, and its calls of libnbd's functions go through
 * the pointers dl_nbd_load() sets. A function the engine starts to use
 * is added to DL_NBD_FNS and to the names below (a missing one is an
 * undefined reference at link time: libnbd is not linked).
 */
#ifndef IOLITE_ENGINE_DL_NBD_H
#define IOLITE_ENGINE_DL_NBD_H

#include "engine/dl/dl.h"
#include "util/strbuf.h"

/* Loads libnbd once: 0, or -1 with the package to install in err. */
int dl_nbd_load(struct strbuf *err);

#ifdef HAVE_LIBNBD
#include <libnbd.h>

#define DL_NBD_FNS(X) X(nbd_create) X(nbd_close) X(nbd_connect_uri) \
	X(nbd_shutdown) X(nbd_get_error) X(nbd_get_errno) X(nbd_get_size) \
	X(nbd_get_block_size) X(nbd_is_read_only) X(nbd_can_trim) \
	X(nbd_aio_pread) X(nbd_aio_pwrite) X(nbd_aio_trim) X(nbd_aio_flush) \
	X(nbd_aio_is_dead) X(nbd_aio_is_closed) X(nbd_poll)

struct dl_nbd_fns {
	DL_NBD_FNS(DL_FN_PTR)
};
extern struct dl_nbd_fns dl_nbd;

#ifndef DL_IMPL
#define nbd_create (*dl_nbd.nbd_create)
#define nbd_close (*dl_nbd.nbd_close)
#define nbd_connect_uri (*dl_nbd.nbd_connect_uri)
#define nbd_shutdown (*dl_nbd.nbd_shutdown)
#define nbd_get_error (*dl_nbd.nbd_get_error)
#define nbd_get_errno (*dl_nbd.nbd_get_errno)
#define nbd_get_size (*dl_nbd.nbd_get_size)
#define nbd_get_block_size (*dl_nbd.nbd_get_block_size)
#define nbd_is_read_only (*dl_nbd.nbd_is_read_only)
#define nbd_can_trim (*dl_nbd.nbd_can_trim)
#define nbd_aio_pread (*dl_nbd.nbd_aio_pread)
#define nbd_aio_pwrite (*dl_nbd.nbd_aio_pwrite)
#define nbd_aio_trim (*dl_nbd.nbd_aio_trim)
#define nbd_aio_flush (*dl_nbd.nbd_aio_flush)
#define nbd_aio_is_dead (*dl_nbd.nbd_aio_is_dead)
#define nbd_aio_is_closed (*dl_nbd.nbd_aio_is_closed)
#define nbd_poll (*dl_nbd.nbd_poll)
#endif
#endif /* HAVE_LIBNBD */
#endif
