/* SPDX-License-Identifier: MIT */
/* libiscsi's functions, loaded on first use: see iscsi.h. */
#define DL_ISCSI_IMPL
#include "engine/dl/iscsi.h"

#ifdef HAVE_LIBISCSI
#ifndef LIBISCSI_SONAME
#define LIBISCSI_SONAME "libiscsi.so.7"
#endif

struct dl_iscsi_fns dl_iscsi;

#define ISCSI_SYM(f) DL_SYM(struct dl_iscsi_fns, f)
static const struct dl_sym iscsi_syms[] = { DL_ISCSI_FNS(ISCSI_SYM) };
static struct dl_lib iscsi_lib = DL_LIB(LIBISCSI_SONAME, iscsi_syms, &dl_iscsi);

int dl_iscsi_load(struct strbuf *err)
{
	return dl_load(&iscsi_lib, err);
}
#else
int dl_iscsi_load(struct strbuf *err)
{
	strbuf_addstr(err, "libiscsi: not in this build (libiscsi-dev)");
	return -1;
}
#endif
