/* SPDX-License-Identifier: MIT */
/*
 * pts's phases as iolite runs: each is a command line of jobs handed to
 * the run function main gave pts (iolite_main), with hooks that keep the
 * run quiet and pass its results model to a callback here, which keeps
 * the figures pts needs. Every check of an ordinary run holds for them.
 *
 * A round of a test loop is one run: a stonewalled group per matrix
 * cell (the loop's threads as numjobs, group_reporting), named
 * pts_mM_bB (the cell's indexes), in the spec's order: each mix
 * outermost, its block sizes from 1024k down.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "main.h"
#include "pts/pts_int.h"
#include "stats/results.h"

const unsigned int pts_mix_read[PTS_NR_MIX] = { 100, 95, 65, 50, 35, 5, 0 };
const unsigned int pts_bs[PTS_NR_BS] = {
	1024 * 1024, 128 * 1024, 64 * 1024, 32 * 1024, 16 * 1024, 8192,
	4096, 512
};
const char *const pts_bs_name[PTS_NR_BS] = {
	"1024k", "128k", "64k", "32k", "16k", "8k", "4k", "0.5k"
};

struct argl {
	char **v;
	int n, alloc;
};

__attribute__((format(printf, 2, 3)))
static void arg(struct argl *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 64;
		a->v = xrealloc(a->v, a->alloc * sizeof(*a->v));
	}
	a->v[a->n++] = strbuf_detach(&sb);
	a->v[a->n] = NULL;
}

static void argl_free(struct argl *a)
{
	int k;

	for (k = 0; k < a->n; k++)
		free(a->v[k]);
	free(a->v);
}

/* What every phase's run shares: quiet JSON, the target, direct I/O. */
static void args_common(const struct pts_run *r, struct argl *a)
{
	arg(a, "iolite");
	arg(a, "--output-format=json");
	arg(a, "--eta=never");
	arg(a, "--filename=%s", r->cfg.target);
	arg(a, "--direct=1");
	arg(a, "--ioengine=%s", r->cfg.engine);
	arg(a, "--thread");
	if (r->cfg.allow_mounted)
		arg(a, "--allow_mounted_write=1");
}

/* The client's random jobs: the ActiveRange segments (pts.c) */
static void args_segments(const struct pts_run *r, struct argl *a)
{
	if (!r->seg_n)
		return;
	arg(a, "--active_segments=%u", r->seg_n);
	arg(a, "--active_segment_size=%" PRIu64, r->seg_size);
}

struct phase {
	struct pts_run *r;
	struct pts_loop *l;	/* a round's loop, or NULL */
	unsigned int round;	/* the loop's, from 1 */
	bool wsat;
	uint64_t bytes, ms;	/* the precondition's */
	struct pts_hir *hir;	/* HIR: the wait state's run, or NULL */
	bool base;		/* HIR: its return to baseline */
	struct pts_xsr *xsr;	/* XSR: the access group's run, or NULL */
	struct pts_dirth_pt *dpt;	/* DIRTH: a point's run, or NULL */
};

/*
 * The runs' notes: the preconditioning's and the first round's in full;
 * the later rounds' run the same jobs and mostly say the same of each,
 * so those are counted.
 */
static void keep_notes(struct pts_run *r, const struct run_result *rr,
		       unsigned int round)
{
	unsigned int k;

	if (round > 1) {
		r->later_notes += rr->nr_notes;
		return;
	}
	for (k = 0; k < rr->nr_notes; k++)
		notes_add(&r->notes, "%s", rr->notes[k]);
}

/*
 * IOPS samples t0 ms on (WSAT: 0; HIR: its runs so far); returns the
 * last one's t from the run's start
 */
static double keep_wsat(struct pts_run *r, const struct dir_result *d,
			double t0)
{
	const struct series *s = &d->iops_series;
	double written = 0, last_t = 0;
	unsigned int k;

	for (k = 0; k < s->nr && r->nr_wsat < PTS_WSAT_MAX; k++) {
		double dt = (s->pt[k].t_ms - last_t) / 1000.0;

		written += s->pt[k].v * dt * 4096;
		last_t = s->pt[k].t_ms;
		r->wsat_t[r->nr_wsat] = t0 + s->pt[k].t_ms;
		r->wsat_iops[r->nr_wsat] = s->pt[k].v;
		r->wsat_tgbw[r->nr_wsat++] = written;
	}
	return last_t;
}

/*
 * A cell's figures: IOPS and bandwidth add over the directions; the
 * latency (total: submission to completion) is the mean over every I/O
 * of both, the highest, and the higher direction's 99.999th percentile
 * (the spec's "five nines" of a mixed cell is over all its I/Os; the
 * higher of the two is at or above it).
 */
static void keep_cell(struct pts_cell *c, const struct job_result *jr)
{
	const struct dir_result *rd = &jr->dir[DDIR_READ];
	const struct dir_result *wr = &jr->dir[DDIR_WRITE];
	uint64_t n = rd->lat.n + wr->lat.n;

	c->iops = rd->iops + wr->iops;
	c->bw = (double)rd->bw + wr->bw;
	c->lat_mean = n ? (rd->lat.mean * rd->lat.n +
			   wr->lat.mean * wr->lat.n) / n : 0;
	c->lat_max = rd->lat.max > wr->lat.max ? rd->lat.max : wr->lat.max;
	c->lat_p5n = 0;
	if (rd->lat_pct.on)
		c->lat_p5n = rd->lat_pct.val[0];
	if (wr->lat_pct.on && wr->lat_pct.val[0] > c->lat_p5n)
		c->lat_p5n = wr->lat_pct.val[0];
}

/* HIR: a wait state's access run, or its return to baseline */
static void keep_hir(struct pts_run *r, const struct phase *ph,
		     const struct job_result *jr)
{
	const struct dir_result *w = &jr->dir[DDIR_WRITE];
	struct pts_hir *h = ph->hir;
	double last = keep_wsat(r, w, r->hir_clock);

	/* the next run's samples after this one's */
	r->hir_clock += last > jr->elapsed_ms ? last : jr->elapsed_ms;
	if (ph->base) {
		h->base_iops = w->iops;
		h->base_done = true;
	} else {
		h->ios = w->ios;
		h->ms = w->runtime_ms;
		h->access_iops = pts_hir_access_iops(w->ios, w->runtime_ms,
						     r->hir_access_ms,
						     h->wait * r->hir_access_ms);
	}
}

/* XSR: an access group's throughput samples, after the earlier's */
static void keep_xsr(struct pts_run *r, struct pts_xsr *x,
		     const struct job_result *jr)
{
	const struct dir_result *w = &jr->dir[DDIR_WRITE];
	const struct series *s = &w->bw_series;
	double last = 0;
	unsigned int k;

	x->first = r->nr_wsat;
	for (k = 0; k < s->nr && r->nr_wsat < PTS_WSAT_MAX; k++) {
		r->wsat_t[r->nr_wsat] = r->hir_clock + s->pt[k].t_ms;
		r->xsr_bw[r->nr_wsat++] = s->pt[k].v;
		if (s->pt[k].t_ms > last)
			last = s->pt[k].t_ms;
	}
	x->nr = r->nr_wsat - x->first;
	x->bw = (double)w->bw;
	x->done = true;
	r->hir_clock += last > jr->elapsed_ms ? last : jr->elapsed_ms;
}

/* DIRTH: a thread count or depth to its index; false: none */
static bool dirth_index(unsigned int *v)
{
	unsigned int k;

	for (k = 0; k < PTS_DIRTH_NR; k++)
		if (pts_dirth_n[k] == *v) {
			*v = k;
			return true;
		}
	return false;
}

/* DIRTH: a point's run, its response-time histogram in bins */
static void keep_dirth_pt(struct pts_dirth_pt *p, const struct job_result *jr)
{
	unsigned int d;

	keep_cell(&p->c, jr);
	p->ios = jr->dir[DDIR_READ].ios + jr->dir[DDIR_WRITE].ios;
	p->ms = jr->elapsed_ms;
	memset(p->bin, 0, sizeof(p->bin));
	for (d = DDIR_READ; d <= DDIR_WRITE; d++) {
		const struct dir_result *dr = &jr->dir[d];

		pts_dirth_bins(p->bin, dr->lat.n ? &dr->lat_hist :
			       &dr->clat_hist);
	}
	p->done = true;
}

static int hook_report(void *arg, const struct cli *c, struct run_result *rr,
		       FILE *out, FILE *html)
{
	struct phase *ph = arg;
	struct pts_run *r = ph->r;
	unsigned int j, m, b;

	keep_notes(r, rr, ph->round);
	for (j = 0; j < rr->nr_jobs; j++) {
		const struct job_result *jr = &rr->jobs[j];

		if (ph->wsat) {
			keep_wsat(r, &jr->dir[DDIR_WRITE], 0);
		} else if (ph->hir) {
			keep_hir(r, ph, jr);
		} else if (ph->xsr) {
			keep_xsr(r, ph->xsr, jr);
		} else if (ph->dpt) {
			keep_dirth_pt(ph->dpt, jr);
		} else if (ph->l && sscanf(jr->name, "pts_tc%u_qd%u", &m,
					   &b) == 2 && r->dcell &&
			   dirth_index(&m) && dirth_index(&b)) {
			keep_cell(&r->dcell[ph->round - 1][m][b], jr);
		} else if (ph->l && sscanf(jr->name, "pts_m%u_b%u", &m,
					   &b) == 2 &&
			   m < PTS_NR_MIX && b < PTS_NR_BS) {
			keep_cell(&ph->l->cell[ph->round - 1][m][b], jr);
		} else {
			ph->bytes += jr->dir[DDIR_WRITE].bytes;
			if (jr->elapsed_ms > ph->ms)
				ph->ms = jr->elapsed_ms;
		}
	}
	return 0;
}

/* One run of a's jobs; 0, or -1 with err (128 + a signal: interrupted). */
static int run_jobs(struct pts_run *r, pts_run_fn run, struct argl *a,
		    struct phase *ph, struct strbuf *err)
{
	struct main_hooks h;
	int ret;

	if (pts_stop) {
		r->interrupted = true;
		strbuf_addf(err, "pts: interrupted (signal %d)", (int)pts_stop);
		return -1;
	}
	memset(&h, 0, sizeof(h));
	h.arg = ph;
	h.quiet = true;
	h.report = hook_report;
	ret = run(a->n, a->v, &h);
	if (ret >= 128) {
		r->interrupted = true;
		pts_stop = ret - 128;
		strbuf_addf(err, "pts: interrupted (signal %d)", ret - 128);
	} else if (ret) {
		strbuf_addstr(err, "pts: a run failed (its error is above)");
	}
	return ret ? -1 : 0;
}

static void args_precondition(const struct pts_run *r, struct argl *a)
{
	args_common(r, a);
	arg(a, "--name=pts_precondition");
	arg(a, "--size=%" PRIu64, r->cap);
	arg(a, "--iodepth=32");
	if (r->cfg.precond == PRECOND_SPRANDOM) {
		arg(a, "--rw=randwrite");
		arg(a, "--bs=4k");
		arg(a, "--sprandom=1");
	} else {
		arg(a, "--rw=write");
		arg(a, "--bs=128k");
		arg(a, "--loops=2");
	}
}

int pts_precondition(struct pts_run *r, struct pts_loop *l, pts_run_fn run,
		     struct strbuf *err)
{
	struct argl a = { NULL, 0, 0 };
	struct phase ph = { .r = r };
	int ret;

	if (r->cfg.precond == PRECOND_NONE) {
		snprintf(l->precond, sizeof(l->precond),
			 PTS_NO_WIPC(r->cfg.test) && !r->cfg.precond_given ?
			 "none (the test starts from the purged device)" :
			 "none (--precondition="
			 "none): the spec's workload-independent "
			 "preconditioning was left out");
		return 0;
	}
	args_precondition(r, &a);
	ret = run_jobs(r, run, &a, &ph, err);
	argl_free(&a);
	l->precond_bytes = ph.bytes;
	l->precond_ms = ph.ms;
	if (r->cfg.precond == PRECOND_SPRANDOM && ph.bytes)
		snprintf(l->precond, sizeof(l->precond), "sprandom (4 KiB "
			 "random writes over the physical capacity once, with "
			 "a steady state's spread of stale blocks): deviates "
			 "from the spec's twice the capacity of 128 KiB "
			 "sequential writes; wrote %.0f%% of their bytes, "
			 "about %.1f s less at its rate", 100.0 * ph.bytes /
			 (2.0 * r->cap), ph.ms / 1000.0 *
			 (2.0 * r->cap / ph.bytes - 1));
	else if (r->cfg.precond == PRECOND_SPRANDOM)
		snprintf(l->precond, sizeof(l->precond), "sprandom: wrote "
			 "nothing");
	else
		snprintf(l->precond, sizeof(l->precond), "twice the capacity "
			 "of 128 KiB sequential writes (the spec's "
			 "workload-independent preconditioning)");
	return ret;
}

/* DIRTH's job at TC x QD: 4k random 65:35, the threads reported as one */
static void args_dirth_cell(struct argl *a, unsigned int t, unsigned int q)
{
	arg(a, "--name=pts_tc%u_qd%u", pts_dirth_n[t], pts_dirth_n[q]);
	arg(a, "--stonewall");
	arg(a, "--numjobs=%u", pts_dirth_n[t]);
	arg(a, "--iodepth=%u", pts_dirth_n[q]);
	arg(a, "--bs=4k");
	arg(a, "--rw=randrw");
	arg(a, "--rwmixread=65");
}

/* A loop's jobs of one round, in the spec's order. */
static void args_round(const struct pts_run *r, const struct pts_loop *l,
		       struct argl *a)
{
	unsigned int m, b;

	args_common(r, a);
	arg(a, "--size=%" PRIu64, r->range);
	arg(a, "--iodepth=%u", l->qd);
	arg(a, "--numjobs=%u", l->threads);
	arg(a, "--group_reporting");
	arg(a, "--time_based");
	arg(a, "--runtime=%" PRIu64 "ms", r->cfg.round_ms);
	arg(a, "--norandommap");
	arg(a, "--randrepeat=0");
	if (!l->seq)
		args_segments(r, a);
	if (l->metric == MET_LAT) {
		arg(a, "--lat_percentiles=1");
		arg(a, "--percentile_list=99.999");
	}
	/*
	 * HIR's round: 29 intervals of the cell's writes before the one
	 * measured (the published PTS-E implementations' 30-minute rounds)
	 */
	if (r->cfg.test == PTS_HIR) {
		arg(a, "--name=pts_hir_round");
		arg(a, "--rw=randwrite");
		arg(a, "--bs=4k");
		arg(a, "--runtime=%" PRIu64 "ms", (PTS_HIR_ROUND_INTERVALS -
			1) * r->cfg.round_ms);
	}
	/* DIRTH: the most threads and the deepest queue first */
	for (m = r->dirth_nr_tc; l->dirth && m-- > 0;)
		for (b = PTS_DIRTH_NR; b-- > 0;)
			args_dirth_cell(a, m, b);
	for (m = 0; m < PTS_NR_MIX && !l->dirth; m++) {
		for (b = 0; b < PTS_NR_BS; b++) {
			const char *kind = l->seq ? "" : "rand";

			if (!(l->mix_mask & 1u << m) ||
			    !(l->bs_mask & 1u << b) || pts_bs[b] < r->dev.lbs)
				continue;
			arg(a, "--name=pts_m%u_b%u", m, b);
			arg(a, "--stonewall");
			arg(a, "--bs=%u", pts_bs[b]);
			if (pts_mix_read[m] == 100) {
				arg(a, "--rw=%sread", kind);
			} else if (pts_mix_read[m] == 0) {
				arg(a, "--rw=%swrite", kind);
			} else {
				arg(a, "--rw=%srw", l->seq ? "" : "rand");
				arg(a, "--rwmixread=%u", pts_mix_read[m]);
			}
		}
	}
}

int pts_round(struct pts_run *r, struct pts_loop *l, pts_run_fn run,
	      unsigned int round, struct strbuf *err)
{
	struct argl a = { NULL, 0, 0 };
	struct phase ph = { .r = r, .l = l, .round = round };
	struct pts_cell *t;
	unsigned int m, b;
	int ret;

	for (m = 0; m < PTS_NR_MIX; m++)
		for (b = 0; b < PTS_NR_BS; b++)
			l->cell[round - 1][m][b].iops = -1;
	for (m = 0; l->dirth && m < PTS_DIRTH_NR; m++)
		for (b = 0; b < PTS_DIRTH_NR; b++)
			r->dcell[round - 1][m][b].iops = -1;
	l->temp[round - 1] = pts_temp(r);
	args_round(r, l, &a);
	ret = run_jobs(r, run, &a, &ph, err);
	argl_free(&a);
	t = &l->cell[round - 1][l->track_mix][l->track_bs];
	/* DIRTH tracks its most threads at QD32: the loop's one cell */
	if (l->dirth)
		*t = r->dcell[round - 1][r->dirth_nr_tc - 1][PTS_DIRTH_NR - 1];
	l->track[round - 1] = pts_cell_val(t, l->metric);
	l->nr_rounds = round;
	return ret;
}

static void args_wsat(const struct pts_run *r, struct argl *a)
{
	args_common(r, a);
	arg(a, "--name=pts_wsat");
	arg(a, "--size=%" PRIu64, r->range);
	arg(a, "--io_size=%" PRIu64, 4 * r->range / r->cfg.threads);
	arg(a, "--iodepth=%u", r->cfg.qd);
	arg(a, "--numjobs=%u", r->cfg.threads);
	arg(a, "--group_reporting");
	arg(a, "--rw=randwrite");
	arg(a, "--bs=4k");
	arg(a, "--norandommap");
	arg(a, "--randrepeat=0");
	arg(a, "--runtime=%" PRIu64 "ms", r->cfg.wsat_ms);
	arg(a, "--iopsavgtime=%" PRIu64, r->wsat_interval_ms);
	args_segments(r, a);
}

/*
 * WSAT: 4 KiB random writes, the variant's threads and depth, until four
 * times the active range is written or the time is up; the IOPS samples
 * every interval (iopsavgtime) are the curve.
 */
int pts_wsat(struct pts_run *r, pts_run_fn run, struct strbuf *err)
{
	struct argl a = { NULL, 0, 0 };
	struct phase ph = { .r = r, .wsat = true };
	int ret;

	args_wsat(r, &a);
	ret = run_jobs(r, run, &a, &ph, err);
	argl_free(&a);
	return ret;
}

const unsigned int pts_hir_wait[PTS_HIR_NR] = { 1, 2, 3, 5, 10 };

/*
 * HIR's run: 4k random writes with the variant's threads and depth for
 * ms; wait: idle wait x A after each A of I/O (thinktime_iotime; the
 * block count never comes first), else continuous. IOPS sampled each A.
 */
/* A recovery test's job: name, over the range, for ms, the variant's depth */
static void args_timed(const struct pts_run *r, struct argl *a,
		       const char *name, uint64_t ms)
{
	args_common(r, a);
	arg(a, "--name=%s", name);
	arg(a, "--size=%" PRIu64, r->range);
	arg(a, "--iodepth=%u", r->cfg.qd);
	arg(a, "--norandommap");
	arg(a, "--randrepeat=0");
	arg(a, "--time_based");
	arg(a, "--runtime=%" PRIu64 "ms", ms);
}

static void args_hir(const struct pts_run *r, struct argl *a,
		     unsigned int wait, uint64_t ms)
{
	args_timed(r, a, "pts_hir", ms);
	arg(a, "--numjobs=%u", r->cfg.threads);
	arg(a, "--group_reporting");
	arg(a, "--rw=randwrite");
	arg(a, "--bs=4k");
	arg(a, "--iopsavgtime=%" PRIu64, r->hir_access_ms);
	args_segments(r, a);
	if (wait) {
		arg(a, "--thinktime=%" PRIu64 "ms", wait * r->hir_access_ms);
		arg(a, "--thinktime_iotime=%" PRIu64 "ms", r->hir_access_ms);
		arg(a, "--thinktime_blocks=1000000000");
	}
}

int pts_hir(struct pts_run *r, pts_run_fn run, struct strbuf *err)
{
	uint64_t a_ms = r->hir_access_ms, n = r->cfg.hir_cycles;
	unsigned int k;
	int ret = 0;

	for (k = 0; k < PTS_HIR_NR && !ret; k++) {
		struct pts_hir *h = &r->hir[k];
		/* round 2: its notes are counted, as a later round's */
		struct phase ph = { .r = r, .round = 2, .hir = h };
		struct argl a = { NULL, 0, 0 };

		h->wait = pts_hir_wait[k];
		h->t_start = r->hir_clock;
		r->nr_hir = k + 1;
		args_hir(r, &a, h->wait, n * (1 + h->wait) * a_ms);
		ret = run_jobs(r, run, &a, &ph, err);
		argl_free(&a);
		if (ret)
			break;
		ph.base = true;
		memset(&a, 0, sizeof(a));
		args_hir(r, &a, 0, n * a_ms);
		ret = run_jobs(r, run, &a, &ph, err);
		argl_free(&a);
	}
	return ret;
}

/*
 * XSR's access groups: 1024k sequential writes (8 h), 8k random writes
 * (6 h), 1024k sequential writes again (8 h), each one thread at the
 * variant's depth (as the throughput test), the throughput sampled
 * each interval (doc/pts.md says where the figures come from).
 */
static const struct {
	const char *name, *rw;
	unsigned int bs, share;	/* its time: share/4 of the first's */
} xsr_group[PTS_XSR_NR] = {
	{ "1024k sequential write", "write", 1024 * 1024, 4 },
	{ "8k random write", "randwrite", 8192, 3 },
	{ "1024k sequential write", "write", 1024 * 1024, 4 },
};

static void args_xsr(const struct pts_run *r, struct argl *a, unsigned int g,
		     uint64_t ms)
{
	args_timed(r, a, "pts_xsr", ms);
	arg(a, "--rw=%s", xsr_group[g].rw);
	arg(a, "--bs=%u", xsr_group[g].bs);
	arg(a, "--bwavgtime=%" PRIu64, r->wsat_interval_ms);
	if (strcmp(xsr_group[g].rw, "write"))
		args_segments(r, a);
}

int pts_xsr(struct pts_run *r, pts_run_fn run, struct strbuf *err)
{
	unsigned int g;
	int ret = 0;

	for (g = 0; g < PTS_XSR_NR && !ret; g++) {
		struct pts_xsr *x = &r->xsr[g];
		struct phase ph = { .r = r, .round = 2, .xsr = x };
		struct argl a = { NULL, 0, 0 };

		x->name = xsr_group[g].name;
		x->ms = r->cfg.xsr_ms * xsr_group[g].share / 4;
		x->t_start = r->hir_clock;
		r->nr_xsr = g + 1;
		args_xsr(r, &a, g, x->ms);
		ret = run_jobs(r, run, &a, &ph, err);
		argl_free(&a);
	}
	return ret;
}

/* DIRTH's point run: 4k random 65:35 at its TC x QD, ms long */
static void args_dirth_pt(const struct pts_run *r, struct argl *a,
			  const struct pts_dirth_pt *p, uint64_t ms)
{
	args_timed(r, a, "pts_dirth_point", ms);
	arg(a, "--numjobs=%u", pts_dirth_n[p->tc]);
	arg(a, "--group_reporting");
	arg(a, "--iodepth=%u", pts_dirth_n[p->qd]);
	arg(a, "--bs=4k");
	arg(a, "--rw=randrw");
	arg(a, "--rwmixread=65");
	arg(a, "--lat_percentiles=1");
	args_segments(r, a);
}

/*
 * DIRTH's points (dirth.c chose them from the window's matrix): each a
 * run of 10 round times with its response-time histogram.
 */
int pts_dirth_runs(struct pts_run *r, pts_run_fn run, struct strbuf *err)
{
	unsigned int k;
	int ret = 0;

	pts_dirth_points(r);
	for (k = 0; k < r->nr_dpt && !ret; k++) {
		struct phase ph = { .r = r, .round = 2, .dpt = &r->dpt[k] };
		struct argl a = { NULL, 0, 0 };

		args_dirth_pt(r, &a, &r->dpt[k], PTS_DIRTH_HIST_ROUNDS *
			      r->cfg.round_ms);
		ret = run_jobs(r, run, &a, &ph, err);
		argl_free(&a);
	}
	return ret;
}

/* a's jobs checked (--parse-only), a emptied */
static int parse_only(pts_run_fn run, struct argl *a)
{
	int ret;

	arg(a, "--parse-only");
	ret = run(a->n, a->v, NULL) ? -1 : 0;
	argl_free(a);
	memset(a, 0, sizeof(*a));
	return ret;
}

/*
 * Every job pts will run, parsed and planned (--parse-only) before the
 * purge: a bad engine or size is refused before anything is written.
 * --parse-only prints the jobs; that goes to /dev/null.
 */
int pts_check_jobs(struct pts_run *r, pts_run_fn run, struct strbuf *err)
{
	struct argl a = { NULL, 0, 0 };
	unsigned int k;
	int saved, null, ret = 0;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		strbuf_addstr(err, "pts: cannot open /dev/null");
		ret = -1;
		goto out;
	}
	if (r->cfg.test == PTS_WSAT) {
		args_wsat(r, &a);
		ret = parse_only(run, &a);
	}
	if (r->cfg.test == PTS_XSR && !ret) {
		args_xsr(r, &a, 1, r->cfg.xsr_ms);
		ret = parse_only(run, &a);
	}
	if (r->cfg.test == PTS_HIR && !ret) {
		args_hir(r, &a, 10, 11 * r->hir_access_ms);
		ret = parse_only(run, &a);
	}
	if (r->cfg.test == PTS_DIRTH && !ret) {
		struct pts_dirth_pt p = { .tc = r->dirth_nr_tc - 1,
					  .qd = PTS_DIRTH_NR - 1 };

		args_dirth_pt(r, &a, &p, PTS_DIRTH_HIST_ROUNDS *
			      r->cfg.round_ms);
		ret = parse_only(run, &a);
	}
	for (k = 0; !PTS_NO_LOOP(r->cfg.test) && k < r->nr_loops && !ret;
	     k++) {
		args_round(r, &r->loop[k], &a);
		ret = parse_only(run, &a);
	}
	if (!ret && r->cfg.precond != PRECOND_NONE) {
		args_precondition(r, &a);
		ret = parse_only(run, &a);
	}
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
out:
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	argl_free(&a);
	if (ret && !err->len)
		strbuf_addstr(err, "pts: the jobs were refused (above)");
	return ret;
}
