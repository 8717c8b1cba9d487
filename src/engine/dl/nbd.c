/* SPDX-License-Identifier: MIT */
/* libnbd's functions, loaded on first use: see nbd.h. */
#define DL_NBD_IMPL
#include "engine/dl/nbd.h"

#ifdef HAVE_LIBNBD
#ifndef LIBNBD_SONAME
#define LIBNBD_SONAME "libnbd.so.0"
#endif

struct dl_nbd_fns dl_nbd;

#define NBD_SYM(f) DL_SYM(struct dl_nbd_fns, f)
static const struct dl_sym nbd_syms[] = { DL_NBD_FNS(NBD_SYM) };
static struct dl_lib nbd_lib = DL_LIB(LIBNBD_SONAME, nbd_syms,
				      &dl_nbd);

int dl_nbd_load(struct strbuf *err)
{
	return dl_load(&nbd_lib, err);
}
#else
int dl_nbd_load(struct strbuf *err)
{
	strbuf_addstr(err, "libnbd: not in this build (libnbd-dev)");
	return -1;
}
#endif
