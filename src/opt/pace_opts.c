/* SPDX-License-Identifier: MIT */
/*
 * Rate, think time and flow options: value lists and the checks that
 * need more than one option. The rows are in opt/table.c.
 */
#include <inttypes.h>

#include "opt/internal.h"
#include "opt/pace_opts.h"

const struct opt_enum rate_process_enums[] = {
	{ "linear", RATE_PROCESS_LINEAR,
	  "evenly spaced issue times, catching up when behind" },
	{ "poisson", RATE_PROCESS_POISSON,
	  "exponentially distributed gaps with the same mean (a Poisson "
	  "arrival process)" },
	{ NULL, 0, NULL },
};

const struct opt_enum thinktime_type_enums[] = {
	{ "complete", THINKTIME_COMPLETE,
	  "think after thinktime_blocks I/Os have completed" },
	{ "issue", THINKTIME_ISSUE,
	  "think after thinktime_blocks I/Os have been issued" },
	{ NULL, 0, NULL },
};

static const char *const dir_name[DDIR_RWDIR_CNT] = {
	"read", "write", "trim",
};

uint64_t pace_rate_bps(const struct job_plan *p, unsigned int d)
{
	const struct job_options *o = &p->o;

	if (o->rate[d])
		return o->rate[d];
	return o->rate_iops[d] * p->dir_min_bs[d];
}

bool pace_rate_by_count(const struct job_plan *p, unsigned int d)
{
	return p->replay && !p->o.rate[d] && p->o.rate_iops[d];
}

bool pace_wanted(const struct job_plan *p)
{
	const struct job_options *o = &p->o;
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (o->rate[d] || o->rate_iops[d] || o->rate_min[d] ||
		    o->rate_iops_min[d])
			return true;
	return o->thinktime_us || o->flow || o->thinkcycles;
}

/* A cap and its minimum, in one unit: the minimum may not exceed it. */
static int check_min(struct job_plan *p, const uint64_t *cap,
		     const uint64_t *min, const char *cap_name,
		     const char *min_name, const char *unit,
		     struct strbuf *err)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (cap[d] && min[d] > cap[d])
			return plan_fail(p, err, "option '%s': the %s minimum "
					 "(%" PRIu64 " %s) is above '%s' (%"
					 PRIu64 " %s)", min_name, dir_name[d],
					 min[d], unit, cap_name, cap[d], unit);
	return 0;
}

/* The same limit given in bytes and in I/Os: fio would drop one. */
static int check_both(struct job_plan *p, const uint64_t *bytes,
		      const uint64_t *ios, const char *bytes_name,
		      const char *ios_name, struct strbuf *err)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (bytes[d] && ios[d])
			return plan_fail(p, err, "options '%s' and '%s' both "
					 "set the %s limit: give one of them",
					 bytes_name, ios_name, dir_name[d]);
	return 0;
}

int pace_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	if (check_both(p, o->rate, o->rate_iops, "rate", "rate_iops", err) ||
	    check_both(p, o->rate_min, o->rate_iops_min, "rate_min",
		       "rate_iops_min", err) ||
	    check_min(p, o->rate, o->rate_min, "rate", "rate_min", "bytes/s",
		      err) ||
	    check_min(p, o->rate_iops, o->rate_iops_min, "rate_iops",
		      "rate_iops_min", "IOPS", err))
		return -1;
	return 0;
}
