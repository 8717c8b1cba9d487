/* SPDX-License-Identifier: MIT */
/* active_segments' plan rule (seg_opts.h). */
#include "opt/seg_opts.h"

#include <inttypes.h>

#include "opt/internal.h"

/* What would put offsets outside the segments, or none */
static const char *seg_other(const struct job_options *o)
{
	unsigned int d;

	if (o->random_distribution != RDIST_RANDOM)
		return "random_distribution";
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (o->perc_rand[d] < 100)
			return "percentage_random";
	if (o->zonemode != ZONE_MODE_NONE)
		return "zonemode";
	if (o->sprandom)
		return "sprandom";
	return NULL;
}

int seg_plan_check(struct job_plan *p, struct strbuf *err)
{
	struct job_options *o = &p->o;
	const char *other;
	unsigned int d;

	if (!o->act_segs && !o->act_seg_size)
		return 0;
	if (!o->act_segs || !o->act_seg_size)
		return plan_fail(p, err, "option '%s': needs %s as well",
				 o->act_segs ? "active_segments" :
				 "active_segment_size", o->act_segs ?
				 "active_segment_size" : "active_segments");
	if (!p->random)
		return plan_fail(p, err, "option 'active_segments': needs "
				 "random offsets (rw=randread, randwrite, "
				 "randrw or randtrim)");
	other = seg_other(o);
	if (other)
		return plan_fail(p, err, "option '%s': iolite does not run "
				 "it with active_segments", other);
	if (opt_is_set(o, "norandommap") && !o->norandommap)
		return plan_fail(p, err, "option 'norandommap': "
				 "active_segments keeps no random map "
				 "(norandommap=1)");
	o->norandommap = true;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!(p->ddir_mask & 1u << d))
			continue;
		if (o->act_seg_size % p->dir_max_bs[d] ||
		    o->act_seg_size % p->dir_align[d])
			return plan_fail(p, err, "option 'active_segment_size': "
					 "%" PRIu64 " is not a multiple of "
					 "the block size %" PRIu64 " and its "
					 "alignment %" PRIu64, o->act_seg_size,
					 (uint64_t)p->dir_max_bs[d],
					 (uint64_t)p->dir_align[d]);
	}
	return 0;
}
