/* SPDX-License-Identifier: MIT */
/*
 * sprandom (fio 3.42): SSD preconditioning in one pass over the physical
 * capacity. The contract, as measured with fio 3.42's write_iolog (the
 * rule is fio's; the LFSR and the draws of rewrites are iolite's own, so
 * the offsets keep fio's rule, not fio's order):
 *
 * - L blocks of bs in the file's region; the physical capacity is
 *   P = ceil(L x (1 + spr_op)) writes, cut into spr_num_regions (N)
 *   regions of R = floor(P / N) writes. The job issues at most P I/Os.
 * - New blocks come from an LFSR over the L blocks, each once.
 * - Region 0 is R new writes. Region k (k >= 1) rewrites a share of
 *   region k-1's writes, each taken with probability 1 - v[k-1] (an
 *   independent draw per write, in region k-1's order): its first write
 *   is new, then those rewrites, then new writes until it holds R (with
 *   spr_cs: its new writes first, R minus the rewrites, then the
 *   rewrites). A region whose rewrites reach R ends after them.
 * - v[] is the validity a steady random-write workload leaves across
 *   the regions (spr_validity()), from 1 (the newest) down to
 *   alpha = 1 - 1 / (0.5 / op + 0.7), the oldest: a straight line
 *   from 1 to alpha over N points, resampled at N even steps of the
 *   running sum of its inverse (older regions are rewritten more, so
 *   they hold fewer blocks). fio 3.42's --debug=sprandom prints these
 *   figures; the counts of rewrites match them.
 * - The sequence ends at P I/Os, when a new block is needed and all
 *   L are written (with spr_cs: once the rewrites owed are out too), or
 *   where region N+1 would begin (region N, one past the last, is
 *   written as the others). So a job may leave blocks unwritten (100
 *   regions over 256 blocks) or write all of them in fewer than P.
 *
 * rw=randrw (not with spr_cs): rwmixread's draw picks each I/O's
 * direction; a read takes the LFSR's next new block and counts in P, not
 * in the regions, which hold writes only.
 *
 * The job's one pass: io_size does not change it, number_ios cuts it,
 * a later loop writes nothing (fio 3.42). Memory: two regions' lists of
 * block numbers (fio's allocation too is proportional to a region).
 */
#include "workload/sprandom.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "workload/workload_int.h"

enum { SPR_FIRST, SPR_INV, SPR_NEW };

uint64_t spr_phys_blocks(uint64_t nblk, double op)
{
	return (uint64_t)ceil((double)nblk * (1.0 + op));
}

uint64_t spr_region_writes(uint64_t nblk, double op, unsigned int nreg)
{
	return nreg ? spr_phys_blocks(nblk, op) / nreg : 0;
}

/* y at x on the broken line through (xs[i], ys[i]), xs increasing */
static double interp(const double *xs, const double *ys, unsigned int n,
		     double x)
{
	unsigned int i;

	for (i = 1; i < n - 1 && x > xs[i]; i++)
		;
	if (xs[i] == xs[i - 1])
		return ys[i];
	return ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) /
			   (xs[i] - xs[i - 1]);
}

void spr_validity(double op, unsigned int n, double *v)
{
	double alpha = op > 0 ? 1.0 - 1.0 / (0.5 / op + 0.7) : 1.0;
	double *lin, *acc, step;
	unsigned int i;

	if (n < 2) {
		if (n)
			v[0] = 1.0;
		return;
	}
	lin = xcalloc(2 * (size_t)n, sizeof(*lin));
	acc = lin + n;
	for (i = 0; i < n; i++) {
		lin[i] = 1.0 + (alpha - 1.0) * i / (n - 1);
		acc[i] = (i ? acc[i - 1] : 0) + 1.0 / lin[i];
	}
	step = (acc[n - 1] - acc[0]) / (n - 1);
	/* newest first above; the regions go oldest first */
	for (i = 0; i < n; i++)
		v[n - 1 - i] = i == n - 1 ? lin[n - 1] :
			       interp(acc, lin, n, acc[0] + step * i);
	free(lin);
}

int spr_init(struct spr *s, uint64_t nblk, double op, unsigned int nreg,
	     bool defer, uint64_t lfsr_key, uint64_t draw_seed)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->per_region = spr_region_writes(nblk, op, nreg);
	if (!s->per_region || prng_lfsr_init(&s->lfsr, nblk, lfsr_key))
		return -EINVAL;
	s->lfsr_left = nblk;
	prng_taus_seed(&s->draw, draw_seed);
	s->budget = s->phys = spr_phys_blocks(nblk, op);
	s->nreg = nreg;
	s->defer = defer;
	s->phase = SPR_NEW;
	/* a region holds R writes, or one more than its rewrites */
	s->cap = s->per_region + nreg + 2;
	s->p = calloc(nreg, sizeof(*s->p));
	s->cur = calloc(s->cap, sizeof(*s->cur));
	s->inv = calloc(s->cap, sizeof(*s->inv));
	if (!s->p || !s->cur || !s->inv) {
		spr_release(s);
		return -ENOMEM;
	}
	spr_validity(op, nreg, s->p);
	for (i = 0; i < nreg; i++)
		s->p[i] = 1.0 - s->p[i];
	return 0;
}

void spr_release(struct spr *s)
{
	free(s->p);
	free(s->cur);
	free(s->inv);
	s->p = NULL;
	s->cur = s->inv = NULL;
}

/*
 * Region k+1 begins: the writes of region k that it rewrites, each
 * drawn with region k's share; false past region N (fio's end).
 */
static bool next_region(struct spr *s)
{
	double share = s->region < s->nreg ? s->p[s->region] : 0;
	uint32_t thresh = share >= 1.0 ? UINT32_MAX :
			  (uint32_t)(share * 4294967296.0);
	uint64_t i;

	if (s->region >= s->nreg)
		return false;
	s->ninv = s->inv_pos = 0;
	for (i = 0; thresh && i < s->ncur; i++)
		if (prng_taus_next(&s->draw) < thresh)
			s->inv[s->ninv++] = s->cur[i];
	s->ncur = 0;
	s->in_region = 0;
	s->region++;
	s->phase = s->defer ? SPR_NEW : SPR_FIRST;
	return true;
}

static bool new_block(struct spr *s, uint64_t *blk)
{
	if (!s->lfsr_left)
		return false;
	s->lfsr_left--;
	*blk = prng_lfsr_next(&s->lfsr);
	return true;
}

/* The phase's next block: true, or false when the phase is over. */
static bool phase_next(struct spr *s, uint64_t *blk)
{
	switch (s->phase) {
	case SPR_FIRST:
		s->phase = SPR_INV;
		if (new_block(s, blk))
			return true;
		s->done = true;	/* no new block: the rewrites never come */
		return false;
	case SPR_INV:
		if (s->inv_pos < s->ninv) {
			*blk = s->inv[s->inv_pos++];
			return true;
		}
		if (s->defer) {
			s->in_region = s->per_region;	/* the region is over */
			if (!s->lfsr_left)
				s->done = true;
			return false;
		}
		s->phase = SPR_NEW;
		return false;
	default:
		/* spr_cs: the rewrites owed take the region's last writes */
		if (s->defer && s->in_region + (s->ninv - s->inv_pos) >=
				s->per_region) {
			s->phase = SPR_INV;
			return false;
		}
		if (s->in_region >= s->per_region)
			return false;
		if (new_block(s, blk))
			return true;
		if (s->defer)
			s->phase = SPR_INV;
		else
			s->done = true;
		return false;
	}
}

bool spr_next(struct spr *s, uint64_t *blk)
{
	while (!s->done && s->budget) {
		if (phase_next(s, blk)) {
			s->budget--;
			s->in_region++;
			if (s->ncur < s->cap)
				s->cur[s->ncur++] = *blk;
			return true;
		}
		if (s->done)
			break;
		if (s->in_region >= s->per_region &&
		    (s->phase == SPR_NEW || s->defer) && !next_region(s))
			s->done = true;
	}
	s->done = true;
	return false;
}

bool spr_read(struct spr *s, uint64_t *blk)
{
	if (s->done || !s->budget || !new_block(s, blk)) {
		s->done = true;
		return false;
	}
	s->budget--;
	return true;
}

/* ---- the workload's side ---------------------------------------------- */

int wl_spr_check(const struct job_plan *p, const struct engine_file *files,
		 unsigned int nr_files, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t bs = p->dir_min_bs[DDIR_WRITE], nblk, r;

	if (!o->sprandom)
		return 0;
	/* fio 3.42: "SPRandom supports only one file" */
	if (nr_files != 1)
		return wl_fail(p, err, "option 'sprandom': one file only (the "
			       "job has %u)", nr_files);
	nblk = files[0].io_size / bs;
	r = spr_region_writes(nblk, o->spr_op, o->spr_num_regions);
	/* fio 3.42 dies of a division by zero there */
	if (!r)
		return wl_fail(p, err, "option 'spr_num_regions': %u regions "
			       "of a physical capacity of %" PRIu64 " blocks "
			       "of %" PRIu64 " bytes leave none a block",
			       o->spr_num_regions,
			       spr_phys_blocks(nblk, o->spr_op), bs);
	if (o->spr_cs >= r * bs)
		return wl_fail(p, err, "option 'spr_cs': the cache (%" PRIu64
			       " bytes) must be smaller than a region (%"
			       PRIu64 " bytes: the physical capacity over "
			       "spr_num_regions)", o->spr_cs, r * bs);
	return 0;
}

static int next_spr(struct workload *w, struct io_u *u)
{
	enum ddir d = DDIR_WRITE;
	uint64_t blk;

	if (!w->nios_left || w->spr->done)
		return 1;
	/* randrw: rwmixread's draw, then a new block for a read */
	if (w->mixed)
		d = wl_pick_ddir(w);
	if (d == DDIR_READ ? !spr_read(w->spr, &blk) :
			     !spr_next(w->spr, &blk))
		return 1;
	if (w->nios_left != UINT64_MAX)
		w->nios_left--;
	u->file = 0;
	u->offset = w->files[0].start + blk * w->bsz;
	u->len = w->bsz;
	u->ddir = d;
	if (w->mixed)
		w->mix_n[d]++;
	w->cum += w->bsz;
	return 0;
}

bool wl_spr_done(const struct workload *w)
{
	return w->spr->done || !w->nios_left;
}

int wl_spr_init(struct workload *w, const struct job_plan *p,
		struct strbuf *err)
{
	const struct job_options *o = &p->o;
	uint64_t bs = p->dir_min_bs[DDIR_WRITE];

	w->spr = xcalloc(1, sizeof(*w->spr));
	w->bsz = (uint32_t)bs;
	if (spr_init(w->spr, w->files[0].size / bs, o->spr_op,
		     o->spr_num_regions, o->spr_cs != 0, next_key(w),
		     next_key(w)))
		return wl_fail(p, err, "option 'sprandom': no memory for "
			       "two regions' block lists");
	w->next = next_spr;
	/* number_ios: the one pass's (a later loop writes nothing) */
	w->nios_job = o->number_ios ? o->number_ios : UINT64_MAX;
	return 0;
}

void wl_spr_free(struct workload *w)
{
	if (!w->spr)
		return;
	spr_release(w->spr);
	free(w->spr);
}
