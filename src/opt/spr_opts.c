/* SPDX-License-Identifier: MIT */
/* sprandom's options: spr_op's parser and the plan rule (spr_opts.h). */
#include "opt/spr_opts.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "opt/internal.h"
#include "util/num.h"

int spr_op_cb(const struct opt_def *def, struct job_options *o,
	      const char *val, struct strbuf *err)
{
	double v;

	(void)def;
	/*
	 * fio 3.42 takes any number and fails later: an assertion at a
	 * negative one, a crash at 0.99 over 100 regions of a small file
	 */
	if (num_parse_double(val, &v) || !isfinite(v) || v < 0 || v >= 1) {
		strbuf_addf(err, "invalid value '%s' (an over-provisioning "
			    "ratio, 0 <= F < 1)", val);
		return -1;
	}
	o->spr_op = v;
	return 0;
}

void spr_op_fmt(const struct opt_def *def, const struct job_options *o,
		struct strbuf *out)
{
	char buf[32];

	(void)def;
	/* the shortest text that reads back the same: 0.21, not 0.2099.. */
	snprintf(buf, sizeof(buf), "%.15g", o->spr_op);
	if (strtod(buf, NULL) != o->spr_op)
		snprintf(buf, sizeof(buf), "%.17g", o->spr_op);
	strbuf_addstr(out, buf);
}

/* The block sizes: one, the same for every direction (used or not). */
static int spr_check_bs(struct job_plan *p, struct strbuf *err)
{
	unsigned int d;
	uint64_t bs = p->dir_min_bs[DDIR_WRITE];

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (p->dir_min_bs[d] != bs || p->dir_max_bs[d] != bs)
			return plan_fail(p, err, "option 'sprandom': iolite "
					 "runs it with one block size for "
					 "every direction (bs=N; not bsrange, "
					 "bssplit or bs=r,w: fio 3.42 writes "
					 "nothing with bs=4k,8k)");
	if (p->dir_align[DDIR_WRITE] != bs)
		return plan_fail(p, err, "option 'blockalign': sprandom "
				 "writes whole blocks of bs (blockalign=bs "
				 "or unset)");
	return 0;
}

/*
 * What moves offsets other than sprandom's own order: fio 3.42 takes
 * these and does odd things (zipf: one write; percentage_random=50:
 * blocks left unwritten); iolite refuses them.
 */
static const char *spr_other(const struct job_options *o)
{
	if (o->random_distribution != RDIST_RANDOM)
		return "random_distribution";
	if (o->perc_rand[DDIR_WRITE] < 100)
		return "percentage_random";
	if (o->rw_seq_nr > 1)
		return "rw";
	if (o->zonemode != ZONE_MODE_NONE)
		return "zonemode";
	if (o->verify != VERIFY_NONE)
		return "verify";
	return NULL;
}

int spr_plan_check(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;
	const char *other;

	if (!o->sprandom)
		return 0;
	if (o->rw != RW_RANDWRITE && o->rw != RW_RANDRW)
		return plan_fail(p, err, "option 'sprandom': needs "
				 "rw=randwrite or randrw (not '%s'), "
				 "random_generator=lfsr and norandommap=1",
				 opt_enum_name(opt_rw_enums, (int)o->rw));
	/* fio 3.42 then forces the rewrites to be writes, and more */
	if (o->rw == RW_RANDRW && o->spr_cs)
		return plan_fail(p, err, "option 'spr_cs': iolite does not "
				 "run it with rw=randrw");
	if (opt_is_set(o, "random_generator") &&
	    o->random_generator != RANDGEN_LFSR)
		return plan_fail(p, err, "option 'random_generator': sprandom "
				 "needs random_generator=lfsr");
	if (opt_is_set(o, "norandommap") && !o->norandommap)
		return plan_fail(p, err, "option 'norandommap': sprandom "
				 "needs norandommap=1");
	other = spr_other(o);
	if (other)
		return plan_fail(p, err, "option '%s': iolite does not run "
				 "it with sprandom", other);
	/* fio 3.42 sets both (and says so on stdout) */
	o->random_generator = RANDGEN_LFSR;
	o->norandommap = true;
	return spr_check_bs(p, err);
}
