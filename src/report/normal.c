/* SPDX-License-Identifier: MIT */
/*
 * fio's "normal" output format, laid out as fio 3.33 prints it: per job a
 * header, per direction the rate line, latency lines, percentiles and
 * sample lines, then the job's distributions; then one "Run status group"
 * block per group and the disk stats. Everything comes from the results
 * model; the layout rules (units, widths, which lines appear) were worked
 * out from fio's output and are noted where they are not obvious.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/profile.h"
#include "report/report.h"
#include "report/reqs.h"
#include "report/steady.h"
#include "util/log.h"
#include "util/numfmt.h"

static const char *const ddir_name[RES_DIR_NR] = {
	"read", "write", "trim", "mixed",
};
static const char *const ddir_upper[RES_DIR_NR] = {
	"   READ", "  WRITE", "   TRIM", "  MIXED",
};

static const char *const lat_label[LAT_MS_NR] = {
	"2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=", "750=",
	"1000=", "2000=", ">=2000=",
};

/* A number as fio's num2str() would show it; the string lives in sb. */
static const char *fmt_num(struct strbuf *sb, uint64_t v, unsigned int digits,
			   bool pow2, enum numfmt_unit unit)
{
	strbuf_reset(sb);
	numfmt(sb, v, digits, pow2, unit);
	return strbuf_str(sb);
}

static unsigned int ndigits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * fio shows a latency line in usec or msec only when the values are
 * clearly that large: min, max and stdev all past a threshold.
 */
static const char *lat_scale(uint64_t *min, uint64_t *max, double *mean,
			     double *dev)
{
	unsigned int div = 1;
	const char *unit = "nsec";

	if (*min > 2000000 && *max > 99999999 && *dev > 1000000.0) {
		div = 1000000;
		unit = "msec";
	} else if (*min > 2000 && *max > 99999 && *dev > 1000.0) {
		div = 1000;
		unit = "usec";
	}
	*min /= div;
	*max /= div;
	*mean /= div;
	*dev /= div;
	return unit;
}

static void show_lat_line(FILE *f, const char *label, const struct welford *w,
			  struct strbuf *a, struct strbuf *b)
{
	uint64_t min = w->min, max = w->max;
	double mean = w->mean, dev = welford_stdev(w);
	const char *unit;

	if (!w->n)
		return;
	unit = lat_scale(&min, &max, &mean, &dev);
	fprintf(f, "%s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		label, unit, fmt_num(a, min, 6, false, NUMFMT_NONE),
		fmt_num(b, max, 6, false, NUMFMT_NONE), mean, dev);
}

/*
 * The percentiles block. The unit follows the range of the values shown
 * (not of min/max), values are rounded up when scaled, the value column
 * is as wide as the largest value (at least 5) and as many entries fit
 * in 80 columns go on a line.
 */
static void show_percentiles(FILE *f, const char *label, const double *pct,
			     const uint64_t *val, unsigned int nr,
			     unsigned int precision)
{
	uint64_t minv = UINT64_MAX, maxv = 0, v;
	unsigned int i, k, scale, div, width, per_line;
	const char *unit;

	if (!nr)
		return;
	for (i = 0; i < nr; i++) {
		if (val[i] < minv)
			minv = val[i];
		if (val[i] > maxv)
			maxv = val[i];
	}
	if (minv > 2000000 && maxv > 99999999) {
		scale = 2;
		div = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		div = 1000;
		unit = "usec";
	} else {
		scale = 0;
		div = 1;
		unit = "nsec";
	}
	width = ndigits(maxv / div);
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / (precision + 10 + width);
	if (!per_line)
		per_line = 1;

	fprintf(f, "%s percentiles (%s):\n     |", label, unit);
	for (i = 0; i < nr; i++) {
		bool last = i == nr - 1;

		if (i && i % per_line == 0)
			fputs("     |", f);
		v = val[i];
		for (k = 0; k < scale; k++)
			v = (v + 999) / 1000;
		fprintf(f, " %*.*fth=[%*llu]%c", (int)precision + 3,
			(int)precision, pct[i], (int)width,
			(unsigned long long)v, last ? '\n' : ',');
		if (!last && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

/*
 * A priority as the blocks name it: fio 3.33's "C/L", or with a hint in
 * the list fio 3.42's "C/L/H".
 */
static const char *prio_name(const struct prio_results *pr, uint16_t v,
			     char buf[32])
{
	if (prio_results_hinted(pr))
		snprintf(buf, 32, "%u/%u/%u", v >> 13u, v & 7u,
			 (v >> 3) & 0x3ffu);
	else
		snprintf(buf, 32, "%u/%u", v >> 13u, v & 0x1fffu);
	return buf;
}

/*
 * Per-priority blocks (fio 3.33, when two or more priorities have
 * samples): "    clat prio C/L (unit): min=..." after the latency lines,
 * "    clat prio C/L (P% of IOs) percentiles (unit):" after the others'
 * percentiles; "lat prio" with lat_percentiles.
 */
static void show_prio_lat(FILE *f, const struct job_result *j, unsigned int d,
			  struct strbuf *s1, struct strbuf *s2)
{
	const struct prio_results *pr = &j->prio[d];
	char label[64], name[32];
	unsigned int i;

	if (prio_results_shown(pr) < 2)
		return;
	for (i = 0; i < pr->nr; i++) {
		snprintf(label, sizeof(label), "    %s prio %s",
			 j->prio_total ? "lat" : "clat",
			 prio_name(pr, pr->v[i].ioprio, name));
		show_lat_line(f, label, &pr->v[i].lat, s1, s2);
	}
}

static void show_prio_pct(FILE *f, const struct job_result *j, unsigned int d)
{
	const struct prio_results *pr = &j->prio[d];
	const struct dir_result *dr = &j->dir[d];
	char name[32];
	uint64_t all = j->prio_total ? dr->lat.n : dr->clat.n;
	char label[96];
	unsigned int i;

	if (prio_results_shown(pr) < 2 || !(j->clat_pct_opt || j->lat_pct_opt))
		return;
	for (i = 0; i < pr->nr; i++) {
		const struct prio_result *e = &pr->v[i];

		if (!e->pct.on)
			continue;
		snprintf(label, sizeof(label), "    %s prio %s (%.2f%% of IOs)",
			 j->prio_total ? "lat" : "clat",
			 prio_name(pr, e->ioprio, name),
			 all ? 100.0 * (double)e->lat.n / (double)all : 0.0);
		show_percentiles(f, label, j->pct_list, e->pct.val, j->nr_pct,
				 j->pct_precision);
	}
}

static void show_samples(FILE *f, const struct job_result *j,
			 const struct dir_result *dr)
{
	const struct welford *w = &dr->bw_samples;
	double kb = (double)j->kb_base, mean, dev;
	uint64_t min, max;
	const char *unit;

	if (w->n) {
		min = w->min;
		max = w->max;
		mean = w->mean;
		dev = welford_stdev(w);
		unit = j->kb_base == 1024 ? "KiB" : "kB";
		/* samples are KiB/s; fio's label says MiB past kb_base^2 */
		if (mean > kb * kb) {
			min = (uint64_t)((double)min / kb);
			max = (uint64_t)((double)max / kb);
			mean /= kb;
			dev /= kb;
			unit = "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%llu\n", unit,
			(unsigned long long)min, (unsigned long long)max,
			dr->bw_agg_pct, mean, dev, (unsigned long long)w->n);
	}
	w = &dr->iops_samples;
	if (w->n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n",
			(unsigned long long)w->min, (unsigned long long)w->max,
			w->mean, welford_stdev(w), (unsigned long long)w->n);
}

static void show_ddir(FILE *f, const struct job_result *j, unsigned int d,
		      struct strbuf *s1, struct strbuf *s2)
{
	const struct dir_result *dr = &j->dir[d];
	bool pow2 = j->kb_base == 1024;
	enum numfmt_unit bwu = j->unit_base == 1 ? NUMFMT_BITPERSEC :
						   NUMFMT_BYTEPERSEC;
	struct strbuf s3 = STRBUF_INIT, s4 = STRBUF_INIT;

	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)", ddir_name[d],
		fmt_num(s1, (uint64_t)dr->iops, j->sig_figs, false,
			NUMFMT_NONE),
		fmt_num(s2, dr->bw, j->sig_figs, pow2, bwu),
		fmt_num(&s3, dr->bw, j->sig_figs, !pow2, bwu),
		fmt_num(&s4, dr->bytes, j->sig_figs, pow2, NUMFMT_BYTE),
		(unsigned long long)dr->runtime_ms);
	if (d == DDIR_WRITE)
		fprintf(f, "; %llu zone resets",
			(unsigned long long)j->zone_resets);
	fputc('\n', f);
	strbuf_release(&s3);
	strbuf_release(&s4);

	show_lat_line(f, "    slat", &dr->slat, s1, s2);
	show_lat_line(f, "    clat", &dr->clat, s1, s2);
	show_lat_line(f, "     lat", &dr->lat, s1, s2);
	show_prio_lat(f, j, d, s1, s2);
	/* iolite: rated jobs, from each I/O's intended issue time */
	show_lat_line(f, "  co-lat", &dr->co_lat, s1, s2);
	/* fio's order: slat, clat, lat, each when on */
	if (dr->slat_pct.on)
		show_percentiles(f, "    slat", j->pct_list, dr->slat_pct.val,
				 j->nr_pct, j->pct_precision);
	if (dr->clat_pct.on)
		show_percentiles(f, "    clat", j->pct_list, dr->clat_pct.val,
				 j->nr_pct, j->pct_precision);
	if (dr->lat_pct.on)
		show_percentiles(f, "    lat", j->pct_list, dr->lat_pct.val,
				 j->nr_pct, j->pct_precision);
	show_prio_pct(f, j, d);
	show_samples(f, j, dr);
}

/* "  lat (usec)   : 4=25.72%, 10=23.66%": non-zero buckets, 5 a line */
static void show_lat_buckets(FILE *f, const struct job_result *j,
			     const uint64_t *cnt, unsigned int nr,
			     const char *unit)
{
	double pct[LAT_MS_NR];
	unsigned int i, on_line = 0;
	bool any = false;

	results_lat_pct(j, cnt, nr, pct);
	for (i = 0; i < nr; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 5) {
			fputc('\n', f);
			on_line = 0;
		}
		if (!on_line)
			fprintf(f, "  lat (%s)   : ", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s%3.2f%%", lat_label[i], pct[i]);
		on_line++;
		any = true;
	}
	if (any)
		fputc('\n', f);
}

static void show_dist(FILE *f, const char *label, const char *const *cols,
		      const double *pct)
{
	unsigned int i;

	fputs(label, f);
	for (i = 0; i < DIST_NR; i++)
		fprintf(f, "%s%s=%3.1f%%", i ? ", " : "", cols[i], pct[i]);
	fputc('\n', f);
}

/*
 * iolite's own lines, not fio's: what the tool itself cost per I/O (user
 * CPU of the worker thread) and the clock it read; then, only when
 * io_uring punted work to io-wq threads, how many there were and the CPU
 * they used, which the cpu line above does not include.
 */
static void show_own_cost(FILE *f, const struct run_result *rr,
			  const struct job_result *j)
{
	fprintf(f, "  iolite       : usr=%.1fns/IO", j->usr_ns_per_io);
	if (rr->clock)
		fprintf(f, ", clock=%s", rr->clock);
	fputc('\n', f);
	if (!j->iowq_threads)
		return;
	fprintf(f, "  io_uring wq  : threads=%u (max %u at once), "
		"cpu=%.1fms (usr+sys)\n", j->iowq_threads,
		j->iowq_max_threads, (double)j->iowq_cpu_ns / 1e6);
}

/* The job's first line: name, group, error, pid and when it started */
static void show_job_head(FILE *f, const struct job_result *j)
{
	char when[64] = "";
	struct tm tm;
	time_t t = j->start_wall.tv_sec;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", j->name, j->groupid,
		j->members, j->error);
	if (j->error)
		fprintf(f, " (error=%s)", strerror(j->error));
	fprintf(f, ": pid=%d: %s\n", (int)j->pid, when);
	if (j->description)
		fprintf(f, "  Description  : [%s]\n", j->description);
}

/* The I/O depths, and how many I/Os each submit and reap call took */
static void show_depths(FILE *f, const struct job_result *j)
{
	static const char *const depth_cols[DIST_NR] = {
		"1", "2", "4", "8", "16", "32", ">=64",
	};
	static const char *const sc_cols[DIST_NR] = {
		"0", "4", "8", "16", "32", "64", ">=64",
	};
	double pct[DIST_NR];

	results_depth_pct(j, pct);
	show_dist(f, "  IO depths    : ", depth_cols, pct);
	results_submit_pct(j, pct);
	show_dist(f, "     submit    : ", sc_cols, pct);
	results_complete_pct(j, pct);
	show_dist(f, "     complete  : ", sc_cols, pct);
}

/* The I/Os issued per direction, the errors gone past, latency_target */
static void show_issued(FILE *f, const struct job_result *j)
{
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu "
		"short=%llu,%llu,%llu,%llu dropped=%llu,%llu,%llu,%llu\n",
		(unsigned long long)j->issued[0], (unsigned long long)j->issued[1],
		(unsigned long long)j->issued[2], (unsigned long long)j->issued[3],
		(unsigned long long)j->issued_short[0],
		(unsigned long long)j->issued_short[1],
		(unsigned long long)j->issued_short[2],
		(unsigned long long)j->issued_short[3],
		(unsigned long long)j->issued_drop[0],
		(unsigned long long)j->issued_drop[1],
		(unsigned long long)j->issued_drop[2],
		(unsigned long long)j->issued_drop[3]);
	/* as fio: with continue_on_error, the errors the job went past */
	if (j->plan && j->plan->o.continue_on_error)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)j->total_err, j->first_error,
			strerror(j->first_error));
	fprintf(f, "     latency   : target=%llu, window=%llu, "
		"percentile=%.2f%%, depth=%u\n",
		(unsigned long long)j->latency_target,
		(unsigned long long)j->latency_window, j->latency_percentile,
		j->latency_depth);
}

static void show_job(FILE *f, const struct run_result *rr,
		     const struct job_result *j)
{
	struct strbuf s1 = STRBUF_INIT, s2 = STRBUF_INIT;
	unsigned int d;

	show_job_head(f, j);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (j->ddir_mask & (1u << d) && j->unified != UNIFIED_MIXED)
			show_ddir(f, j, d, &s1, &s2);
	if (j->unified)
		show_ddir(f, j, RES_MIXED, &s1, &s2);

	report_reqs_normal(f, j);
	show_lat_buckets(f, j, j->lat_ns, LAT_NS_NR, "nsec");
	show_lat_buckets(f, j, j->lat_us, LAT_US_NR, "usec");
	show_lat_buckets(f, j, j->lat_ms, LAT_MS_NR, "msec");

	if (j->sync_lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		show_lat_line(f, "    sync", &j->sync_lat, &s1, &s2);
		if (j->sync_pct.on)
			show_percentiles(f, "    sync", j->pct_list,
					 j->sync_pct.val, j->nr_pct,
					 j->pct_precision);
	}

	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, "
		"majf=%llu, minf=%llu\n", j->usr_cpu, j->sys_cpu,
		(unsigned long long)j->ctx, (unsigned long long)j->majf,
		(unsigned long long)j->minf);
	show_own_cost(f, rr, j);
	show_depths(f, j);
	show_issued(f, j);
	report_steady_normal(f, j);

	strbuf_release(&s1);
	strbuf_release(&s2);
}

static void show_group(FILE *f, const struct group_result *g)
{
	struct strbuf s[8] = {
		STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
		STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
	};
	bool pow2 = g->kb_base == 1024;
	enum numfmt_unit bwu = g->unit_base == 1 ? NUMFMT_BITPERSEC :
						   NUMFMT_BYTEPERSEC;
	unsigned int d, i, sf = g->sig_figs;

	fprintf(f, "\nRun status group %u (all jobs):\n", g->groupid);
	for (d = 0; d < RES_DIR_NR; d++) {
		/* unified_rw_reporting=mixed: only the MIXED line */
		if (!g->max_run_ms[d] ||
		    (g->unified == UNIFIED_MIXED && d != RES_MIXED))
			continue;
		fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
			"run=%llu-%llumsec\n", ddir_upper[d],
			fmt_num(&s[0], g->agg_bw[d], sf, pow2, bwu),
			fmt_num(&s[1], g->agg_bw[d], sf, !pow2, bwu),
			fmt_num(&s[2], g->min_bw[d], sf, pow2, bwu),
			fmt_num(&s[3], g->max_bw[d], sf, pow2, bwu),
			fmt_num(&s[4], g->min_bw[d], sf, !pow2, bwu),
			fmt_num(&s[5], g->max_bw[d], sf, !pow2, bwu),
			fmt_num(&s[6], g->io_bytes[d], sf, pow2, NUMFMT_BYTE),
			fmt_num(&s[7], g->io_bytes[d], sf, !pow2, NUMFMT_BYTE),
			(unsigned long long)g->min_run_ms[d],
			(unsigned long long)g->max_run_ms[d]);
	}
	for (i = 0; i < ARRAY_SIZE(s); i++)
		strbuf_release(&s[i]);
}

static void show_disks(FILE *f, const struct run_result *rr)
{
	unsigned int i;

	if (!rr->nr_disks)
		return;
	fputs("\nDisk stats (read/write):\n", f);
	for (i = 0; i < rr->nr_disks; i++) {
		const struct disk_result *dk = &rr->disks[i];

		fprintf(f, "  %s: ios=%llu/%llu, merge=%llu/%llu, "
			"ticks=%llu/%llu, in_queue=%llu, util=%3.2f%%\n",
			dk->name, (unsigned long long)dk->ios[0],
			(unsigned long long)dk->ios[1],
			(unsigned long long)dk->merges[0],
			(unsigned long long)dk->merges[1],
			(unsigned long long)dk->ticks[0],
			(unsigned long long)dk->ticks[1],
			(unsigned long long)dk->time_in_queue, dk->util);
	}
}

/* --idle-prof, in fio's layout, after the disks */
static void show_idle(FILE *f, const struct run_result *rr)
{
	const struct idle_result *id = rr->idle;
	unsigned int i;

	if (!id)
		return;
	fprintf(f, "\nCPU idleness:\n  system: %3.2f%%\n", id->system);
	if (id->percpu) {
		fputs("  percpu: ", f);
		for (i = 0; i < id->nr_cpus; i++)
			fprintf(f, "%s%3.2f%%", i ? ", " : "", id->pct[i]);
		fputc('\n', f);
	}
	fprintf(f, "  unit work: mean=%3.2fus, stddev=%3.2f\n",
		id->unit_mean_us, id->unit_stddev_us);
}

/* The run's notes (clock fallback and the like), once, at the end. */
static void show_notes(FILE *f, const struct run_result *rr)
{
	unsigned int i;

	if (!rr->nr_notes)
		return;
	fputs("\nNotes:\n", f);
	for (i = 0; i < rr->nr_notes; i++)
		fprintf(f, "  %s\n", rr->notes[i]);
}

static int normal_write(const struct run_result *rr, FILE *f)
{
	unsigned int i, g;
	bool *seen;

	/*
	 * iolite-mpi (fio's client mode): a rank's part under its host's
	 * name; the document is the parts, then the "All clients" jobs.
	 */
	if (rr->client && rr->client->part)
		fprintf(f, "\n<%s> rank %d:", rr->client->host,
			rr->client->rank);
	for (i = 0; rr->client && i < rr->client->nr_parts; i++)
		if (rr->client->parts[i])
			fputs(rr->client->parts[i], f);
	/* fio separates the report from the preamble with a blank line */
	fputc('\n', f);
	for (i = 0; i < rr->nr_jobs; i++)
		if (!rr->jobs[i].not_started)
			show_job(f, rr, &rr->jobs[i]);

	/* groups with at least one job, in group order */
	seen = xcalloc(rr->nr_groups ? rr->nr_groups : 1, sizeof(*seen));
	for (i = 0; i < rr->nr_jobs; i++)
		if (rr->jobs[i].groupid < rr->nr_groups)
			seen[rr->jobs[i].groupid] = true;
	for (g = 0; g < rr->nr_groups; g++)
		if (seen[g])
			show_group(f, &rr->groups[g]);
	free(seen);

	show_disks(f, rr);
	show_idle(f, rr);
	report_profile_normal(f, rr);
	show_notes(f, rr);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

const struct report_ops report_normal = {
	.name = "normal",
	.write = normal_write,
};

static const char *const rw_name[] = {
	[RW_READ] = "read", [RW_WRITE] = "write", [RW_TRIM] = "trim",
	[RW_RW] = "rw", [RW_RANDREAD] = "randread",
	[RW_RANDWRITE] = "randwrite", [RW_RANDTRIM] = "randtrim",
	[RW_RANDRW] = "randrw", [RW_TRIMWRITE] = "trimwrite",
	[RW_RANDTRIMWRITE] = "randtrimwrite",
};

/* The job's block size range for direction d, as the preamble shows it. */
static void bs_range(const struct job_options *o, unsigned int d,
		     uint64_t *min, uint64_t *max)
{
	*min = o->bsrange[d].min;
	*max = o->bsrange[d].max;
	if (!*min || !*max)
		*min = *max = o->bs[d];
}

void report_normal_preamble(const struct job_plan *plans, unsigned int n,
			    FILE *f)
{
	struct strbuf a = STRBUF_INIT;
	unsigned int i, d, threads = 0, procs = 0;

	for (i = 0; i < n; i++) {
		const struct job_options *o = &plans[i].o;
		bool pow2 = o->kb_base != 1000;

		if (o->thread)
			threads++;
		else
			procs++;
		if (plans[i].no_io)	/* as fio: cpuio, exec */
			continue;
		if (plans[i].clone == 1)
			fputs("...\n", f);
		if (plans[i].clone)
			continue;

		fprintf(f, "%s: (g=%u): rw=%s, ", o->name ? o->name : "",
			plans[i].groupid,
			(unsigned int)o->rw < ARRAY_SIZE(rw_name) ?
				rw_name[o->rw] : "?");
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t lo, hi;

			bs_range(o, d, &lo, &hi);
			fprintf(f, "%s(%c) ", d ? ", " : "bs=", "RWT"[d]);
			fputs(fmt_num(&a, lo, 4, pow2, NUMFMT_BYTE), f);
			fprintf(f, "-%s", fmt_num(&a, hi, 4, pow2, NUMFMT_BYTE));
		}
		fprintf(f, ", ioengine=%s, iodepth=%u\n",
			o->ioengine ? o->ioengine : "psync", o->iodepth);
	}
	fprintf(f, "iolite-%s\n", IOLITE_VERSION);
	fputs("Starting ", f);
	if (threads)
		fprintf(f, "%u thread%s", threads, threads > 1 ? "s" : "");
	if (threads && procs)
		fputs(" and ", f);
	if (procs)
		fprintf(f, "%u process%s", procs, procs > 1 ? "es" : "");
	fputc('\n', f);
	strbuf_release(&a);
}
