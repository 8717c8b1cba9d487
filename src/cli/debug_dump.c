/* SPDX-License-Identifier: MIT */
/*
 * --debug lines about what the checked plans, the resolved files and the
 * clock say, printed once before the jobs start, and about how each job
 * ended: the decisions iolite made, read from the structures that carry
 * them (nothing here is recomputed).
 */
#include "cli/cli_debug.h"

#include <inttypes.h>

#include "machine/clock.h"
#include "opt/verify_opts.h"
#include "util/debug.h"
#include "verify/verify.h"

static void dbg_plan(const struct job_plan *p, const struct job_files *jf)
{
	const struct job_options *o = &p->o;
	unsigned int k;

	dbg(DBG_JOB, "job '%s' instance %u (clone %u of %u): group %u, ioengine=%s, iodepth=%u, %s:%d",
	    o->name, p->job_index, p->clone, o->numjobs ? o->numjobs : 1,
	    p->groupid, o->ioengine, o->iodepth, p->src_file, p->src_line);
	if (o->startdelay_us)
		dbg(DBG_JOB, "job '%s' instance %u: starts %" PRIu64 " us late (startdelay)",
		    o->name, p->job_index, o->startdelay_us);
	dbg(DBG_MEM, "job '%s' instance %u: %u I/O buffers of up to %" PRIu64 " bytes in one page-aligned mapping",
	    o->name, p->job_index, o->iodepth, p->max_bs);
	dbg(DBG_RANDOM, "job '%s' instance %u: randseed=%" PRIu64 ", randrepeat=%d, %s offsets",
	    o->name, p->job_index, o->randseed, o->randrepeat,
	    p->random ? "random" : "sequential");
	if (o->verify != VERIFY_NONE && dbg_on(DBG_VERIFY)) {
		char *state = verify_state_path(p);

		dbg(DBG_VERIFY, "job '%s' instance %u: verify=%s, header %u bytes, state file '%s'",
		    o->name, p->job_index, verify_mode_name(o->verify),
		    verify_hdr_size(o->verify), state);
		free(state);
	}
	for (k = 0; jf && k < jf->nr_files; k++) {
		const struct engine_file *f = &jf->files[k];

		dbg(DBG_FILE, "job '%s' instance %u: file '%s' size %" PRIu64 ", region %" PRIu64 "+%" PRIu64 "%s%s",
		    o->name, p->job_index, f->path, f->real_size, f->io_offset,
		    f->io_size, jf->need_create && jf->need_create[k] ?
		    ", to be created" : "",
		    jf->need_layout && jf->need_layout[k] ?
		    (jf->need_fill[k] ? ", to be laid out with data" :
		     ", to be extended") : "");
	}
	for (k = 0; jf && k < jf->nr_devs; k++)
		dbg(DBG_DISKUTIL, "job '%s' instance %u: block device %u:%u, its statistics are reported",
		    o->name, p->job_index, major(jf->devs[k]),
		    minor(jf->devs[k]));
}

void cli_debug_before(const struct job_plan *plans, unsigned int nr,
		      const struct job_files *files)
{
	unsigned int i;

	if (!dbg_mask)
		return;
	if (clock_state.use_tsc)
		dbg(DBG_TIME, "clock: TSC at %.6f GHz, mult %" PRIu64 " >> %d, calibrated against CLOCK_MONOTONIC",
		    clock_state.tsc_ghz, clock_state.mult, CLOCK_TSC_SHIFT);
	else
		dbg(DBG_TIME, "clock: clock_gettime(CLOCK_MONOTONIC)");
	for (i = 0; i < nr; i++)
		dbg_plan(&plans[i], files ? &files[i] : NULL);
}

void cli_debug_after(const struct run_job *jobs, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr && dbg_on(DBG_PROCESS); i++) {
		const struct worker_result *r = &jobs[i].res;

		dbg(DBG_PROCESS, "job '%s' instance %u: thread %d ran %" PRIu64 " us, error %d%s%s",
		    jobs[i].plan->o.name, jobs[i].plan->job_index, (int)r->tid,
		    r->elapsed_us, r->error, jobs[i].errmsg[0] ? ": " : "",
		    jobs[i].errmsg);
	}
}
