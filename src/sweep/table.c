/* SPDX-License-Identifier: MIT */
/*
 * The sweep tables of the normal report (sweep/sweep.h): per job of the
 * job list, one row per point and direction with the swept values, IOPS,
 * bandwidth, completion latency (mean, p50, p99, p99.9), CPU per I/O
 * (the job's user and system time, iolite's own user time) and the
 * io_uring io-wq workers the kernel needed. A point's reported jobs
 * (numjobs clones without group_reporting) are summed: rates add, the
 * latencies are the merged histogram's. Reads the results model only.
 */
#include "sweep/sweep.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* One row: a point's direction, its reported jobs merged. */
struct row {
	uint64_t ios, all_ios;	/* this direction's; every direction's */
	double iops, bw;
	struct welford clat;
	struct hist *h;		/* merged clat histogram */
	uint64_t usr_ms, sys_ms, own_usr_ns, own_ios, iowq_cpu_ns;
	unsigned int iowq_max;
};

static const char *const dir_label[RES_DIR_NR] = {
	"read", "write", "trim", "mixed"
};

void sweep_fmt_ns(char *buf, size_t len, double ns)
{
	double a = ns < 0 ? -ns : ns;

	if (a < 1000)
		snprintf(buf, len, "%.0fns", ns);
	else if (a < 1e6)
		snprintf(buf, len, "%.2fus", ns / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

void sweep_fmt_bw(char *buf, size_t len, double bps)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double a = bps < 0 ? -bps : bps;
	unsigned int u = 0;

	while (a >= 1024 && u < 4) {
		a /= 1024;
		u++;
	}
	snprintf(buf, len, "%s%.*f%s/s", bps < 0 ? "-" : "",
		 a < 10 ? 2 : a < 100 ? 1 : 0, a, unit[u]);
}

static void row_add(struct row *r, const struct job_result *j, unsigned int d)
{
	const struct dir_result *dr = &j->dir[d];
	unsigned int k;

	r->ios += dr->ios;
	r->iops += dr->iops;
	r->bw += (double)dr->bw;
	welford_merge(&r->clat, &dr->clat);
	if (!r->h)
		r->h = xcalloc(1, sizeof(*r->h));
	hist_merge(r->h, &dr->clat_hist);
	for (k = 0; k < RES_DIR_NR - 1; k++)
		r->all_ios += j->dir[k].ios;
	r->all_ios += j->sync_ios;
	r->usr_ms += j->usr_ms;
	r->sys_ms += j->sys_ms;
	r->own_usr_ns += j->own_usr_ns;
	r->own_ios += j->own_ios;
	r->iowq_cpu_ns += j->iowq_cpu_ns;
	r->iowq_max += j->iowq_max_threads;
}

/* The point p row of job i's direction d; false when it moved nothing. */
static bool row_make(const struct run_result *rr, unsigned int i,
		     unsigned int p, unsigned int d, struct row *r)
{
	const struct result_sweep *s = rr->sweep;
	unsigned int k;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < rr->nr_jobs; k++) {
		const struct job_result *j = &rr->jobs[k];

		if (!j->plan || result_sweep_point(s, j) != p ||
		    j->plan->desc_index % s->jobs_per_point != i)
			continue;
		row_add(r, j, d);
	}
	return r->ios > 0;
}

static double per_io(uint64_t ns, uint64_t ios)
{
	return ios ? (double)ns / (double)ios : 0;
}

static void row_print(const struct row *r, FILE *f)
{
	static const double pct[] = { 50, 99, 99.9 };
	uint64_t v[3] = { 0, 0, 0 };
	char b[9][24];
	unsigned int k;

	if (r->clat.n)
		hist_percentiles(r->h, r->clat.min, r->clat.max, pct, 3, v);
	sweep_fmt_bw(b[0], sizeof(b[0]), r->bw);
	sweep_fmt_ns(b[1], sizeof(b[1]), r->clat.mean);
	for (k = 0; k < 3; k++)
		sweep_fmt_ns(b[2 + k], sizeof(b[2 + k]), (double)v[k]);
	if (r->clat.n < SWEEP_MIN_TAIL)
		strcat(b[4], "*");
	sweep_fmt_ns(b[5], sizeof(b[5]), per_io(r->usr_ms * 1000000, r->all_ios));
	sweep_fmt_ns(b[6], sizeof(b[6]), per_io(r->sys_ms * 1000000, r->all_ios));
	sweep_fmt_ns(b[7], sizeof(b[7]), per_io(r->own_usr_ns, r->own_ios));
	sweep_fmt_ns(b[8], sizeof(b[8]), per_io(r->iowq_cpu_ns, r->all_ios));
	fprintf(f, " %10.0f %11s %9s %9s %9s %10s %8s %8s %8s %5u %8s\n",
		r->iops, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
		r->iowq_max, b[8]);
}

static const char *job_name(const struct run_result *rr, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < rr->nr_jobs; k++)
		if (rr->jobs[k].plan && rr->jobs[k].plan->desc_index == i)
			return rr->jobs[k].name;
	return "?";
}

static void table_write(const struct run_result *rr, unsigned int i, FILE *f)
{
	const struct result_sweep *s = rr->sweep;
	bool any = false, ok;
	unsigned int p, d, k, w[8], dirs = 0;
	struct row r;

	for (d = 0; d < RES_DIR_NR; d++)
		for (p = 0; p < s->nr_points; p++) {
			ok = row_make(rr, i, p, d, &r);
			free(r.h);
			if (ok) {
				dirs++;
				break;
			}
		}
	fprintf(f, "\nSweep of job '%s' (%u point%s):\n", job_name(rr, i),
		s->nr_points, s->nr_points == 1 ? "" : "s");
	for (k = 0; k < s->nr_opts && k < 8; k++) {
		w[k] = (unsigned int)strlen(s->opts[k]);
		for (p = 0; p < s->nr_points; p++)
			if (strlen(s->vals[p * s->nr_opts + k]) > w[k])
				w[k] = (unsigned int)strlen(s->vals[p * s->nr_opts + k]);
		fprintf(f, "%s%*s", k ? " " : "  ", (int)w[k], s->opts[k]);
	}
	fprintf(f, "%s %10s %11s %9s %9s %9s %10s %8s %8s %8s %5s %8s\n",
		dirs > 1 ? "  dir  " : "", "IOPS", "BW", "clat", "p50", "p99",
		"p99.9", "usr/IO", "sys/IO", "own/IO", "io-wq", "wq/IO");
	for (p = 0; p < s->nr_points; p++) {
		for (d = 0; d < RES_DIR_NR; d++) {
			if (!row_make(rr, i, p, d, &r)) {
				free(r.h);
				continue;
			}
			for (k = 0; k < s->nr_opts && k < 8; k++)
				fprintf(f, "%s%*s", k ? " " : "  ", (int)w[k],
					s->vals[p * s->nr_opts + k]);
			if (dirs > 1)
				fprintf(f, "  %-5s", dir_label[d]);
			row_print(&r, f);
			any |= r.clat.n < SWEEP_MIN_TAIL;
			free(r.h);
		}
	}
	if (any)
		fprintf(f, "  * fewer than %d latencies behind p99.9: that point "
			"ran too short for it\n", SWEEP_MIN_TAIL);
}

int sweep_table_write(const struct run_result *rr, FILE *f)
{
	unsigned int i;

	if (!rr->sweep)
		return 0;
	for (i = 0; i < rr->sweep->jobs_per_point; i++)
		table_write(rr, i, f);
	return ferror(f) ? -1 : 0;
}

void sweep_notes(const struct run_result *rr, struct notes *out)
{
	const struct result_sweep *s = rr->sweep;
	struct strbuf sb = STRBUF_INIT;
	unsigned int i, p, d, k, shown;
	struct row r;

	if (!s)
		return;
	for (i = 0; i < s->jobs_per_point; i++) {
		strbuf_reset(&sb);
		shown = 0;
		for (p = 0; p < s->nr_points; p++) {
			for (d = 0; d < RES_DIR_NR; d++) {
				bool ok = row_make(rr, i, p, d, &r);

				free(r.h);
				if (!ok || r.clat.n >= SWEEP_MIN_TAIL)
					continue;
				strbuf_addstr(&sb, shown++ ? ", " : "");
				for (k = 0; k < s->nr_opts; k++)
					strbuf_addf(&sb, "%s%s=%s", k ? "," : "",
						    s->opts[k],
						    s->vals[p * s->nr_opts + k]);
				strbuf_addf(&sb, " %s (%" PRIu64 ")",
					    dir_label[d], r.clat.n);
			}
		}
		if (shown)
			notes_add(out, "sweep of job '%s': p99.9 rests on fewer "
				  "than %d latencies at %s: those points ran too "
				  "short for it", job_name(rr, i), SWEEP_MIN_TAIL,
				  sb.buf);
	}
	strbuf_release(&sb);
}
