/* SPDX-License-Identifier: MIT */
/*
 * The sampling grid all ranks share. A rank's bandwidth and IOPS samples
 * (stats/series.h) are timed from its job's own start on its own clock;
 * here they are moved onto intervals of the sampling period counted from
 * the common start of the job's stonewall segment on rank 0's clock
 * (the barrier's, main.c), using this rank's measured clock offset. Each
 * sample's amount (rate times length) is shared out among the grid
 * intervals it overlaps, so a grid point is the rate over exactly that
 * interval, and point k of every rank is the same interval of rank 0's
 * time: the merge (series_sum, point by point) then adds up the ranks'
 * samples for the same interval, whenever each rank started.
 *
 * A point before the job's first sample (startdelay, ramp_time, a late
 * start) is 0: the job did no counted I/O in that interval. The job's
 * stretch after its last sample is a sample of its own (add_tail). The
 * last interval, which the samples cover in part (they end a few ms past
 * a multiple of the period: the job started that much after the common
 * start), is left out. The period
 * is the group's (ranks.c): the longest of its jobs' on any rank, so
 * that jobs sampled at different periods (bwavgtime=500 on some ranks,
 * 1000 on others) still add up over the same intervals; a finer series
 * is shared out onto the coarser grid as any sample is.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_int.h"
#include "opt/plan.h"
#include "stats/results.h"
#include "util/strbuf.h"

/*
 * s (points timed in ms from the job's start, shift_ms later than the
 * grid's origin) onto the grid of period_ms, coarsened (doubled) until
 * it fits SERIES_MAX points.
 */
static void rebin(struct series *s, double shift_ms, unsigned int period_ms)
{
	unsigned int pp = s->per_point ? s->per_point : 1, nb, i, k;
	struct series_point *out;
	bool *seen;
	double g, a = 0, end;

	if (!s->nr)
		return;
	end = shift_ms + (double)s->pt[s->nr - 1].t_ms;
	for (;;) {
		g = (double)period_ms * pp;
		nb = (unsigned int)(end / g) + (end / g > (unsigned int)(end / g));
		if (nb <= SERIES_MAX)
			break;
		pp *= 2;
	}
	if (!nb)
		nb = 1;
	out = xcalloc(nb, sizeof(*out));
	seen = xcalloc(nb, sizeof(*seen));
	for (k = 0; k < nb; k++) {
		out[k].t_ms = (uint64_t)((k + 1) * g + 0.5);
		out[k].n = pp;
	}
	for (i = 0; i < s->nr; i++) {
		const struct series_point *p = &s->pt[i];
		double lo = shift_ms + a, hi = shift_ms + (double)p->t_ms;

		a = (double)p->t_ms;
		if (lo < 0)	/* a clock error of a few us: the first interval */
			lo = 0;
		for (k = (unsigned int)(lo / g); k < nb && k * g < hi; k++) {
			double from = lo > k * g ? lo : k * g;
			double to = hi < (k + 1) * g ? hi : (k + 1) * g;
			struct series_point *o = &out[k];

			if (to <= from)
				continue;
			o->v += p->v * (to - from) / g;
			if (!seen[k] || p->lo < o->lo)
				o->lo = p->lo;
			if (!seen[k] || p->hi > o->hi)
				o->hi = p->hi;
			seen[k] = true;
		}
	}
	free(seen);
	/*
	 * The last interval, when the samples end inside it: dropped, as
	 * the sampler drops a job's last, partial period (a sliver of an
	 * interval, as a rate over the whole, was a collapse to a few per
	 * cent at every run's end)
	 */
	if (nb > 1 && end + 0.5 < nb * g)
		nb--;
	free(s->pt);
	s->pt = out;
	s->nr = nb;
	s->alloc = nb + 1;
	s->per_point = pp;
}

/*
 * The job's last stretch, which the sampler leaves out (it samples whole
 * periods: a 2 s job has samples at 0.5, 1 and 1.5 s), as one more
 * point: what the job did (amount: its I/Os or bytes) less what the
 * samples hold, over the time from the last sample to the job's end
 * (end_ms). Without it the sum over ranks dipped where one rank's
 * series ended a period before its job did and the others ran on.
 */
static void add_tail(struct series *s, uint64_t amount, uint64_t end_ms)
{
	double held = 0, rest;
	uint64_t a = 0;
	unsigned int i;

	if (!s->nr || end_ms <= s->pt[s->nr - 1].t_ms)
		return;
	for (i = 0; i < s->nr; i++) {
		held += s->pt[i].v * (double)(s->pt[i].t_ms - a) / 1000.0;
		a = s->pt[i].t_ms;
	}
	rest = (double)amount - held;
	if (rest < 0)
		return;
	if (s->nr == s->alloc) {
		s->alloc = s->nr + 1;
		s->pt = xrealloc(s->pt, s->alloc * sizeof(*s->pt));
	}
	s->pt[s->nr].t_ms = end_ms;
	s->pt[s->nr].v = rest * 1000.0 / (double)(end_ms - a);
	s->pt[s->nr].lo = s->pt[s->nr].hi = s->pt[s->nr].v;
	s->pt[s->nr].n = 1;
	s->nr++;
}

void mpi_grid_align(struct mpi_run *m, struct run_result *rr)
{
	unsigned int i, d;

	for (i = 0; i < rr->nr_jobs; i++) {
		struct job_result *j = &rr->jobs[i];
		const struct job_options *o;
		int64_t origin, t0;
		double shift_ms;

		if (j->not_started || !j->plan ||
		    j->groupid >= m->nr_global_gids)
			continue;
		origin = m->seg_start_ns[m->gid_seg[j->groupid]];
		if (!origin)
			continue;
		o = &j->plan->o;
		/* the samples' time 0: the end of ramp_time, on rank 0's clock */
		t0 = (int64_t)j->start_wall.tv_sec * 1000000000 +
		     j->start_wall.tv_nsec + (int64_t)o->ramp_time_us * 1000 -
		     m->offset_ns;
		shift_ms = (double)(t0 - origin) / 1e6;
		for (d = 0; d < RES_DIR_NR; d++) {
			const struct dir_result *dr = &j->dir[d];

			add_tail(&j->dir[d].bw_series, dr->bytes, dr->runtime_ms);
			add_tail(&j->dir[d].iops_series, dr->ios, dr->runtime_ms);
			rebin(&j->dir[d].bw_series, shift_ms,
			      m->gid_period_ms[0][j->groupid]);
			rebin(&j->dir[d].iops_series, shift_ms,
			      m->gid_period_ms[1][j->groupid]);
		}
	}
}
