/* SPDX-License-Identifier: MIT */
/*
 * A client library loaded when a job first needs it (dlopen), not
 * linked: libnbd, libiscsi, libnfs, libcurl, librados and librbd and
 * what they pull in (TLS, Kerberos, LDAP, C++ runtimes) would cost every
 * run of iolite their loading, memory and thread-local storage, network
 * job or not (doc/performance.md).
 *
 * A library is its soname (the Makefile reads it from the -dev
 * package's link, so that it is the one built against) and a table of
 * the functions used, each a name and where its pointer goes in a
 * struct of typed function pointers. dl_load() opens the library
 * once per process (RTLD_NOW | RTLD_LOCAL: every function resolved
 * then, none of its symbols seen by another library) and resolves the
 * table; the answer is kept, so later calls cost a lock. The caller
 * calls through the pointers, which the load sets once and never
 * changes: a thread started after the load sees them set. Each
 * network library has a header in this folder that maps its names
 * onto the pointers (nbd.h, iscsi.h, nfs.h, curl.h; libs.c holds their
 * tables); ceph.c keeps its own.
 *
 * For the tests: IOLITE_DL_REFUSE=lib[,lib...] makes those libraries
 * fail to load, as if not installed: each a soname (libnbd.so.0) or its
 * name before ".so" (libnbd).
 */
#ifndef IOLITE_ENGINE_DL_DL_H
#define IOLITE_ENGINE_DL_DL_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/* One function of a library: its name and its pointer's offset. */
struct dl_sym {
	const char *name;
	size_t off;
};

struct dl_lib {
	const char *soname;		/* e.g. "libnbd.so.0" */
	const struct dl_sym *syms;
	size_t nr_syms;
	void *fns;			/* the struct the pointers go in */
	/* the outcome, set by the first dl_load() (under dl.c's lock) */
	bool tried;
	char why[384];			/* why it did not load, else empty */
};

/*
 * The struct of a library's function pointers and its table: with
 * FNS(X) listing the functions as X(name), DL_FN_PTR declares a pointer
 * of each one's own type and DL_SYM makes its table entry.
 */
#define DL_FN_PTR(f) __typeof__(f) *f;
#define DL_SYM(type, f) { #f, offsetof(type, f) },

#define DL_LIB(so, table, fn_struct) { \
	.soname = (so), .syms = (table), \
	.nr_syms = sizeof(table) / sizeof((table)[0]), .fns = (fn_struct) }

/*
 * Loads lib once: 0, or -1 with "cannot load SONAME (apt-get install
 * PACKAGE): reason" in err (the same answer on every call). PACKAGE is
 * Debian's name for the soname: libnbd.so.0 in libnbd0, libfoo2.so.1
 * in libfoo2-1.
 */
int dl_load(struct dl_lib *lib, struct strbuf *err);

#endif
