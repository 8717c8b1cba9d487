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
 * that share of pvsync2's I/Os, drawn per I/O). rwflags_open() checks
 * each file when it is opened (the kernel and its file system must take
 * the flags) and gives it its write_hint (fcntl), for every fd engine.
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
 * A file just opened (fd, f's): probe that the kernel and the file system
 * take RWF_DONTCACHE (uncached) and RWF_ATOMIC at the job's write sizes
 * (statx STATX_WRITE_ATOMIC), and set write_hint. 0, or -errno with the
 * reason in err.
 */
int rwflags_open(const struct job_plan *p, const struct engine_file *f,
		 int fd, struct strbuf *err);

#endif
