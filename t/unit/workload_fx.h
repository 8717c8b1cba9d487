/* SPDX-License-Identifier: MIT */
/*
 * The unit tests' workload fixture (t/unit/workload*.c): a workload
 * built from "name=value" options over files of one size.
 */
#ifndef IOLITE_T_UNIT_WORKLOAD_FX_H
#define IOLITE_T_UNIT_WORKLOAD_FX_H

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "opt/opt.h"
#include "opt/plan.h"
#include "workload/workload.h"

#define KB 1024ULL
#define MAX_FILES 8

struct fx {
	struct job_plan p;
	struct engine_file files[MAX_FILES];
	char names[MAX_FILES][8];
	unsigned int nr;
	struct workload *w;
	struct strbuf err;
};

#define FIRST_REGION (1024 * KB + 8 * KB)

/*
 * The plan and files of a workload from "name=value" pairs separated by
 * spaces, over nr files of size bytes each. File i's region starts at
 * first + i MiB (first is FIRST_REGION but where a test needs a region
 * at 0) so that offsets must include the region start; each target ends
 * with its region. Returns 0 or -1 (the message in f->err).
 */
static inline int fx_setup(struct fx *f, const char *spec, uint64_t size,
			   unsigned int nr, unsigned int job_index,
			   uint64_t first)
{
	struct job_options o;
	char *copy = strdup(spec), *tok, *save = NULL;
	unsigned int i;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	opt_defaults(&o);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq++ = '\0';
		if (opt_set(&o, tok, eq, 1024, &f->err)) {
			diag("option %s: %s", tok, strbuf_str(&f->err));
			goto out;
		}
	}
	if (plan_build(&f->p, &o, "t.fio", 1, &f->err)) {
		diag("plan: %s", strbuf_str(&f->err));
		goto out;
	}
	f->p.job_index = job_index;
	f->nr = nr;
	for (i = 0; i < nr; i++) {
		snprintf(f->names[i], sizeof(f->names[i]), "f%u", i);
		f->files[i].path = f->names[i];
		f->files[i].fd = -1;
		f->files[i].io_offset = first + i * 1024 * KB;
		f->files[i].io_size = size;
		f->files[i].real_size = f->files[i].io_offset + size;
	}
	ret = 0;
out:
	job_options_release(&o);
	free(copy);
	return ret;
}

/* The workload of fx_setup()'s plan and files. */
static inline int fx_init(struct fx *f)
{
	int ret = workload_init(&f->w, &f->p, f->files, f->nr, &f->err);

	if (ret)
		plan_release(&f->p);
	return ret;
}

static inline int build_at(struct fx *f, const char *spec, uint64_t size,
			   unsigned int nr, unsigned int job_index,
			   uint64_t first)
{
	if (fx_setup(f, spec, size, nr, job_index, first))
		return -1;
	return fx_init(f);
}

static inline int build_idx(struct fx *f, const char *spec,
			    uint64_t size, unsigned int nr,
			    unsigned int job_index)
{
	return build_at(f, spec, size, nr, job_index, FIRST_REGION);
}

static inline int build(struct fx *f, const char *spec, uint64_t size,
			unsigned int nr)
{
	return build_idx(f, spec, size, nr, 0);
}

static inline void fx_free(struct fx *f)
{
	workload_free(f->w);
	plan_release(&f->p);
	strbuf_release(&f->err);
}

/* Runs one pass into ios (at most max); returns the count, or max + 1. */
static inline size_t drain(struct workload *w, struct io_u *ios,
			   size_t max)
{
	size_t n = 0;
	struct io_u u;

	for (;;) {
		memset(&u, 0, sizeof(u));
		if (workload_next(w, &u))
			return n;
		if (n == max)
			return max + 1;
		if (ios)
			ios[n] = u;
		n++;
	}
}

/* The next I/O, starting a new pass when one ends (like time_based). */
static inline void next_io(struct workload *w, struct io_u *u)
{
	if (workload_next(w, u)) {
		workload_rewind(w);
		workload_next(w, u);
	}
}

static inline uint64_t rel(const struct fx *f, const struct io_u *u)
{
	return u->offset - f->files[u->file].io_offset;
}

/* Every I/O inside its file's region. */
static inline int all_inside(const struct fx *f, const struct io_u *ios,
			     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct engine_file *e = &f->files[ios[i].file];

		if (ios[i].file >= f->nr || ios[i].offset < e->io_offset ||
		    ios[i].offset + ios[i].len > e->io_offset + e->io_size)
			return 0;
	}
	return 1;
}

#endif
