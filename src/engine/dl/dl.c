/* SPDX-License-Identifier: MIT */
/* Loading a client library on first use: see dl.h. */
#include "engine/dl/dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every library's load, one at a time: dlerror() is per thread anyway */
static pthread_mutex_t dl_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Whether IOLITE_DL_REFUSE (the tests') names soname, whole or up to its
 * ".so" (libnbd for libnbd.so.0).
 */
static bool dl_refused(const char *soname)
{
	const char *s = getenv("IOLITE_DL_REFUSE");
	size_t n;

	for (; s && *s; s += n + (s[n] == ',')) {
		n = strcspn(s, ",");
		if (!strncmp(s, soname, n) && (!soname[n] ||
		    !strncmp(soname + n, ".so", 3)))
			return true;
	}
	return false;
}

/*
 * Debian's package of a soname in pkg: libX.so.N is in libXN, or in
 * libX-N when X ends in a digit (Debian policy's rule for libraries).
 */
static void dl_package(const char *soname, char *pkg, size_t n)
{
	const char *so = strstr(soname, ".so.");
	int len = so ? (int)(so - soname) : (int)strlen(soname);
	bool digit = len && so && soname[len - 1] >= '0' &&
		     soname[len - 1] <= '9';

	snprintf(pkg, n, "%.*s%s%s", len, soname, digit ? "-" : "",
		 so ? so + 4 : "");
}

/* Opens lib and resolves its table; the reason in lib->why if not. */
static void dl_open(struct dl_lib *lib)
{
	char pkg[64];
	void *h = NULL;
	size_t i;

	dl_package(lib->soname, pkg, sizeof(pkg));
	if (dl_refused(lib->soname))
		snprintf(lib->why, sizeof(lib->why), "cannot load %s (apt-get "
			 "install %s): refused by IOLITE_DL_REFUSE",
			 lib->soname, pkg);
	else if (!(h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL)))
		snprintf(lib->why, sizeof(lib->why), "cannot load %s (apt-get "
			 "install %s): %s", lib->soname, pkg, dlerror());
	for (i = 0; h && i < lib->nr_syms; i++) {
		void *p = dlsym(h, lib->syms[i].name);

		if (!p) {
			/* another version than the one built against */
			snprintf(lib->why, sizeof(lib->why), "%s has no %s "
				 "(apt-get install %s of the version iolite "
				 "was built with)", lib->soname,
				 lib->syms[i].name, pkg);
			return;		/* the library stays: harmless */
		}
		memcpy((char *)lib->fns + lib->syms[i].off, &p, sizeof(p));
	}
}

int dl_load(struct dl_lib *lib, struct strbuf *err)
{
	pthread_mutex_lock(&dl_lock);
	if (!lib->tried) {
		dl_open(lib);
		lib->tried = true;
	}
	pthread_mutex_unlock(&dl_lock);
	if (!lib->why[0])
		return 0;
	strbuf_addstr(err, lib->why);
	return -1;
}
