/* SPDX-License-Identifier: MIT */
/*
 * plan_build: the checks that need more than one option, and the
 * decisions made once per job instead of once per I/O.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opt/buffer_opts.h"
#include "opt/cpu_opts.h"
#include "opt/engine_decl.h"
#include "opt/internal.h"
#include "opt/misc_opts.h"
#include "opt/opt.h"
#include "opt/pace_opts.h"
#include "opt/plan.h"
#include "opt/prio_opts.h"
#include "opt/seg_opts.h"
#include "opt/spr_opts.h"
#include "opt/steady_opts.h"
#include "opt/sys_opts.h"
#include "opt/file_opts.h"
#include "opt/verify_opts.h"
#include "util/log.h"

static const char *const ddir_names[DDIR_RWDIR_CNT] = {
	"read", "write", "trim",
};

int plan_fail(const struct job_plan *p, struct strbuf *err,
	      const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(err, "%s:%d: ", p->src_file, p->src_line);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

static unsigned int rw_ddir_mask(enum rw_mode rw)
{
	const unsigned int r = 1u << DDIR_READ, w = 1u << DDIR_WRITE,
			   t = 1u << DDIR_TRIM;

	switch (rw) {
	case RW_READ:
	case RW_RANDREAD:
		return r;
	case RW_WRITE:
	case RW_RANDWRITE:
		return w;
	case RW_TRIM:
	case RW_RANDTRIM:
		return t;
	case RW_RW:
	case RW_RANDRW:
		return r | w;
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		return t | w;
	}
	return 0;
}

static bool rw_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDTRIM ||
	       rw == RW_RANDRW || rw == RW_RANDTRIMWRITE;
}

/* Which option decided a direction's block sizes (for messages). */
static const char *bs_source(const struct job_options *o, unsigned int d)
{
	if (o->nr_bssplit[d])
		return "bssplit";
	if (o->bsrange[d].max)
		return "bsrange";
	return "bs";
}

void opt_slot_sizes(const struct job_options *o, unsigned int d,
		    uint64_t *lo, uint64_t *hi)
{
	unsigned int i;

	if (o->nr_bssplit[d]) {
		*lo = UINT64_MAX;
		*hi = 0;
		for (i = 0; i < o->nr_bssplit[d]; i++) {
			uint64_t bs = o->bssplit[d][i].bs;

			if (bs < *lo)
				*lo = bs;
			if (bs > *hi)
				*hi = bs;
		}
	} else if (o->bsrange[d].max) {
		*lo = o->bsrange[d].min;
		*hi = o->bsrange[d].max;
	} else {
		*lo = *hi = o->bs[d];
	}
}

static int derive_block_sizes(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int d;
	bool first = true;

	p->bs_fixed = true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t lo, hi;

		opt_slot_sizes(o, d, &lo, &hi);
		if (!lo)
			return plan_fail(p, err, "option '%s': %s block size is 0",
				    bs_source(o, d), ddir_names[d]);
		p->dir_min_bs[d] = lo;
		p->dir_max_bs[d] = hi;
		p->dir_align[d] = o->blockalign[d] ? o->blockalign[d] : lo;
		if (p->dir_align[d] != lo)
			p->ba_nomap = true;
		if (!ddir_used(p, (enum ddir)d))
			continue;
		if (lo != hi || (!first && (lo != p->min_bs || hi != p->max_bs)))
			p->bs_fixed = false;
		if (first || lo < p->min_bs)
			p->min_bs = lo;
		if (first || hi > p->max_bs)
			p->max_bs = hi;
		first = false;
	}
	/* bs_is_seq_rand: a random job's sequential I/Os have their own */
	if (p->seq_max_bs) {
		if (p->seq_min_bs != p->min_bs || p->seq_max_bs != p->max_bs)
			p->bs_fixed = false;
		if (p->seq_min_bs < p->min_bs)
			p->min_bs = p->seq_min_bs;
		if (p->seq_max_bs > p->max_bs)
			p->max_bs = p->seq_max_bs;
	}
	return 0;
}

/*
 * A job no block of which fits in size= could do no I/O at all. One
 * direction that fits is enough, as in fio: the other one then does
 * nothing (rw=rw bs=4k,16k size=8k reads 8k).
 */
static int check_sizes(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	unsigned int d, small = DDIR_RWDIR_CNT;

	/* a percentage or no size: the target's size is not known yet */
	if (o->size.pct || !o->size.bytes)
		return 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!ddir_used(p, (enum ddir)d))
			continue;
		if (p->dir_min_bs[d] <= o->size.bytes)
			return 0;
		if (small == DDIR_RWDIR_CNT ||
		    p->dir_min_bs[d] < p->dir_min_bs[small])
			small = d;
	}
	if (small == DDIR_RWDIR_CNT)
		return 0;
	return plan_fail(p, err, "option '%s': %sblock size %" PRIu64
		    " is larger than size %" PRIu64, bs_source(o, small),
		    p->dir_min_bs[small] != p->dir_max_bs[small] ?
		    "minimum " : "", p->dir_min_bs[small], o->size.bytes);
}

/*
 * fio only accepts an engine's own options with that engine: the rows
 * flagged OPT_F_ENGINE, owned by the engines that list them in their
 * ops (engine/engine.c's table); the rest belong to every engine. A
 * name iolite has no engine for is refused as such (main.c), not for
 * its options.
 */
const char *opt_engine_owners(const char *opt, const char *engine)
{
	static struct strbuf list = STRBUF_INIT;
	const struct opt_def *def = opt_lookup(opt);

	if (!def || !(def->flags & OPT_F_ENGINE) ||
	    engine_decl_has(engine, opt) ||
	    (engine && !engine_decl_known(engine)))
		return NULL;
	strbuf_reset(&list);
	engine_decl_names(opt, 0, NULL, &list);
	return strbuf_str(&list);
}

static int check_engine_options(struct job_plan *p, struct strbuf *err)
{
	const char *engine = p->o.ioengine;
	size_t i;

	for (i = 0; i < opt_table_size; i++) {
		const struct opt_def *def = &opt_table[i];
		const char *list;

		/*
		 * [global]'s were checked against [global]'s engine
		 * (job_build()) and, as fio, go only to jobs of that engine
		 */
		if (!(def->flags & OPT_F_ENGINE) ||
		    !opt_set_by_job(&p->o, def->name))
			continue;
		list = opt_engine_owners(def->name, engine);
		if (list)
			return plan_fail(p, err, "option '%s' is not valid "
					 "with ioengine '%s' (only %s)",
					 def->name, engine ? engine : "",
					 list);
	}
	/*
	 * io_uring's polled completions exist only for O_DIRECT I/O: without
	 * it the kernel never completes the request and the job would hang.
	 */
	if (p->o.hipri && !p->o.direct &&
	    (engine_decl_flags(engine) & ENGINE_F_URING))
		return plan_fail(p, err, "option 'hipri': io_uring polled completions "
			    "need direct=1 (O_DIRECT); without it no I/O would "
			    "ever complete");
	return 0;
}

static int check_counts(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	/* the parser's minimums, again for options built in code */
	if (!o->iodepth)
		return plan_fail(p, err, "option 'iodepth': 0 is out of range "
			    "(minimum 1)");
	if (!o->numjobs)
		return plan_fail(p, err, "option 'numjobs': 0 is out of range "
			    "(minimum 1)");
	if (o->rwmixread > 100)
		return plan_fail(p, err, "option 'rwmixread': %u is out of range "
			    "(0..100)", o->rwmixread);
	if (o->size.pct > 100 || o->offset.pct > 100)
		return plan_fail(p, err, "option '%s': %u%% is more than 100%%",
			    o->size.pct > 100 ? "size" : "offset",
			    o->size.pct > 100 ? o->size.pct : o->offset.pct);
	return 0;
}

int plan_build(struct job_plan *p, const struct job_options *o,
	       const char *src_file, int src_line, struct strbuf *err)
{
	memset(p, 0, sizeof(*p));
	job_options_copy(&p->o, o);
	p->src_file = xstrdup(src_file ? src_file : "<unknown>");
	p->src_line = src_line;

	p->ddir_mask = rw_ddir_mask(o->rw);
	p->random = rw_random(o->rw);
	p->writes = p->ddir_mask & (1u << DDIR_WRITE | 1u << DDIR_TRIM);
	p->mixed = (p->ddir_mask & (p->ddir_mask - 1)) != 0;

	if (!p->ddir_mask) {
		plan_fail(p, err, "option 'rw': invalid mode %d", (int)o->rw);
		goto fail;
	}
	if (check_counts(p, err) || file_plan_bs(p, err) ||
	    derive_block_sizes(p, err) || spr_plan_check(p, err) ||
	    seg_plan_check(p, err) ||
	    check_sizes(p, err) || check_engine_options(p, err) ||
	    cpu_plan_check(p, err) ||
	    verify_plan_check(p, err) || buffer_plan_check(p, err) ||
	    pace_plan_check(p, err) || steady_plan_check(p, err) ||
	    misc_plan_check(p, err) || engine_decl_plan_check(p, err) ||
	    prio_plan_check(p, err) || sys_plan_check(p, err) ||
	    file_plan_check(p, err))
		goto fail;
	return 0;
fail:
	plan_release(p);
	return -1;
}

void plan_release(struct job_plan *p)
{
	struct plan_replay *r = p->replay;

	if (r) {
		while (r->nr_files)
			free(r->files[--r->nr_files]);
		free(r->files);
		free(r->ends);
		free(r->map);
		free(r->error);
		free(r->log);
		free(r);
	}
	prio_plan_free(p->prio);
	job_options_release(&p->o);
	free((char *)p->src_file);
	memset(p, 0, sizeof(*p));
}
