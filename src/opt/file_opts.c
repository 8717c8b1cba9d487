/* SPDX-License-Identifier: MIT */
/*
 * Rules of the file and per-I/O flag options (see file_opts.h).
 */
#include "opt/file_opts.h"

#include <string.h>

#include "opt/engine_decl.h"
#include "opt/internal.h"

/*
 * atomic: RWF_ATOMIC is a flag of each write, which only engines that
 * pass RWF_* flags can give (fio 3.33 opens with its O_ATOMIC, a flag
 * Linux never had, and so writes without any guarantee). Like fio's, it
 * implies direct=1: the kernel has atomic writes for O_DIRECT only.
 */
static int check_atomic(struct job_plan *p, struct strbuf *err)
{
	struct strbuf list = STRBUF_INIT;

	if (!p->o.atomic)
		return 0;
	if (engine_decl_flags(p->o.ioengine) & ENGINE_F_RWFLAGS) {
		p->o.direct = true;
		return 0;
	}
	engine_decl_names(NULL, ENGINE_F_RWFLAGS, NULL, &list);
	plan_fail(p, err, "option 'atomic': not supported with ioengine "
		  "'%s': RWF_ATOMIC is a flag of each write (%s)",
		  p->o.ioengine ? p->o.ioengine : "", strbuf_str(&list));
	strbuf_release(&list);
	return -1;
}

/* Does a random job issue sequential I/Os too (rand*:N, percentage)? */
static bool has_seq_runs(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	unsigned int d;

	if (o->rw_seq_nr > 1)
		return true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (o->perc_rand[d] < 100 && ddir_used(p, (enum ddir)d))
			return true;
	return false;
}

/* The read slot's sizes, kept for a random job's sequential I/Os. */
static int keep_seq_slot(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t lo, hi;

	opt_slot_sizes(o, DDIR_READ, &lo, &hi);
	if (!lo)
		return plan_fail(p, err, "option 'bs_is_seq_rand': the "
				 "sequential block size is 0");
	memcpy(p->seq_bssplit, o->bssplit[DDIR_READ], sizeof(p->seq_bssplit));
	p->nr_seq_bssplit = o->nr_bssplit[DDIR_READ];
	p->seq_min_bs = lo;
	p->seq_max_bs = hi;
	return 0;
}

/*
 * bs_is_seq_rand: the block size settings given for reads serve the
 * sequential I/Os of every direction, those for writes the random ones
 * (fio's HOWTO). A random job's sequential I/Os (rw=randread:N's runs,
 * percentage_random's) keep the read slot's (p->seq_*), as in fio.
 */
int file_plan_bs(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;
	unsigned int d, src = p->random ? DDIR_WRITE : DDIR_READ;

	if (o->allrandrepeat)
		o->randrepeat = true;
	if (!o->bs_is_seq_rand)
		return 0;
	if (p->random && has_seq_runs(p) && keep_seq_slot(p, err))
		return -1;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (d == src)
			continue;
		o->bs[d] = o->bs[src];
		o->bsrange[d] = o->bsrange[src];
		memcpy(o->bssplit[d], o->bssplit[src], sizeof(o->bssplit[d]));
		o->nr_bssplit[d] = o->nr_bssplit[src];
		o->blockalign[d] = o->blockalign[src];
	}
	return 0;
}

/*
 * unlink_each_loop: the next loop finds new, empty files. fio fails a
 * job that reads them (its loop 2 opens a missing file: ENOENT); iolite
 * says so before anything is created.
 */
static int check_files(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;

	if (o->unlink_each_loop && o->loops > 1 && ddir_used(p, DDIR_READ))
		return plan_fail(p, err, "option 'unlink_each_loop': the job "
				 "reads, and its files are deleted after each "
				 "loop: loop 2 would have nothing to read (fio "
				 "fails it with ENOENT)");
	/* pre_read: what was read stays cached (fio's rule) */
	if (o->pre_read)
		o->invalidate = false;
	return 0;
}

int file_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_atomic(p, err) || check_files(p, err);
}
