/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_RWFLAGS_H
#define IOLITE_ENGINE_RWFLAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "util/prng.h"
#include "util/strbuf.h"

/*
 * The per-I/O RWF_* flags and per-file hints a job asks for, worked out
 * once (rwflags_init) and applied by the engines with one load per I/O:
 * nowait (RWF_NOWAIT: pvsync2, io_uring, libaio), uncached
 * (RWF_DONTCACHE: pvsync2, io_uring), atomic (RWF_ATOMIC on writes:
 * pvsync2, io_uring, libaio), hipri with hipri_percentage (RWF_HIPRI on
 * that share of pvsync2's I/Os, drawn per I/O). rwflags_check() says
 * whether the kernel and a file's file system take the flags (before the
 * layout: target/files.c); rwflags_open() gives each file
 * its write_hint (fcntl), for every fd engine.
 */
#ifndef RWF_HIPRI
#define RWF_HIPRI	0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT	0x00000008
#endif
#ifndef RWF_ATOMIC
#define RWF_ATOMIC	0x00000040	/* Linux 6.11 */
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE	0x00000080	/* Linux 6.14 */
#endif

struct rwflags {
	int rwf[2];			/* by ddir: read, write */
	uint32_t hipri_cut;		/* draws below it get RWF_HIPRI */
	bool hipri_draw;		/* 0 < hipri_percentage < 100 */
	struct prng_taus rnd;
};

/* The job's flags; with_hipri: the engine takes RWF_HIPRI per I/O. */
void rwflags_init(struct rwflags *r, const struct job_plan *p,
		  bool with_hipri);

/* The flags of one read (0) or write (1). */
static inline int rwflags_get(struct rwflags *r, unsigned int ddir)
{
	int f = r->rwf[ddir];

	if (__builtin_expect(r->hipri_draw, 0) &&
	    prng_taus_next(&r->rnd) < r->hipri_cut)
		f |= RWF_HIPRI;
	return f;
}

/*
 * Do the kernel and the file system of fd (path: for the messages) take
 * RWF_DONTCACHE (uncached: one read of 0 bytes at the end of the file)
 * and RWF_ATOMIC at the job's write sizes (atomic: statx
 * STATX_WRITE_ATOMIC)? fd may be an O_TMPFILE standing for a file still
 * to be made. 0, or -errno with "option 'x': ..." in err. target/files.c
 * asks before any file is laid out.
 */
int rwflags_check(const struct job_plan *p, const char *path, int fd,
		  struct strbuf *err);

/*
 * A file just opened (fd, f's): its write_hint set. 0, or -errno with the
 * reason in err.
 */
int rwflags_open(const struct job_plan *p, const struct engine_file *f,
		 int fd, struct strbuf *err);

#endif
