/* SPDX-License-Identifier: MIT */
/*
 * fio's terse output, versions 2 to 5 (3 is the default, also what
 * --minimal prints): one line of semicolon-separated fields per reported
 * job, in the order of the field list in fio's HOWTO ("Terse output"),
 * with fio 3.33's number formats. Version 3:
 *
 *   3;version;jobname;groupid;error;
 *   read: kb;bw kb/s;iops;runtime ms; slat, clat min;max;mean;stdev in us
 *         (min and max truncated to whole us); 20 percentile fields
 *         "p%=us" (unused slots "0%=0"); lat min;max;mean;stdev;
 *         bw min;max;agg%;mean;stdev (KiB/s)
 *   write: the same (version 3 has no trim fields)
 *   cpu usr%;sys%;ctx;majf;minf; 7 io depths "%.1f%%";
 *   10 us latency buckets (the ns buckets folded into the first) and 12 ms
 *   ones "%.2f%%"; per disk name;ios r;ios w;merges r;merges w;ticks r;
 *   ticks w;in_queue;util%; with continue_on_error total_err;first_error;
 *   the description when there is one.
 *
 * The other versions, as fio 3.33 writes them:
 *   2: no version field ("2;jobname;..."), trim fields after write, no
 *      disk fields, the description on a line of its own (";text");
 *   4: version 3 with the trim fields after write;
 *   5: version 4 with, per direction, the bw sample count after bw stdev
 *      and the iops samples: min;max;mean;stdev;count.
 *
 * A job without I/O in a direction still prints its fields (zeros, and
 * the percentile list with zero values), so every line of a run has the
 * same fields.
 */
#include <errno.h>
#include <inttypes.h>

#include "report/report.h"
#include "util/log.h"

#define TERSE_PCT_FIELDS 20

static void terse_lat(FILE *f, const struct welford *w)
{
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f",
		w->n ? w->min / 1000 : 0, w->n ? w->max / 1000 : 0,
		w->n ? w->mean / 1000.0 : 0.0, welford_stdev(w) / 1000.0);
}

/*
 * The clat section's 20 percentile fields: lat percentiles when
 * lat_percentiles=1, else clat ones when on, else only fillers. A
 * direction without samples still lists the percentiles, with zeros.
 */
static void terse_pct(FILE *f, const struct job_result *j,
		      const struct dir_result *dr)
{
	const struct pct_result *pr = NULL;
	unsigned int nr = 0, i;

	if (j->lat_pct_opt)
		pr = &dr->lat_pct;
	else if (j->clat_pct_opt)
		pr = &dr->clat_pct;
	if (pr)
		nr = j->nr_pct;
	for (i = 0; i < TERSE_PCT_FIELDS; i++) {
		if (i >= nr) {
			fputs(";0%=0", f);
			continue;
		}
		fprintf(f, ";%f%%=%" PRIu64, j->pct_list[i],
			pr->on ? pr->val[i] / 1000 : 0);
	}
}

static void terse_ddir(FILE *f, const struct job_result *j, unsigned int d,
		       int ver)
{
	const struct dir_result *dr = &j->dir[d];
	const struct welford *bw = &dr->bw_samples, *io = &dr->iops_samples;

	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		dr->bytes >> 10, dr->bw >> 10, (uint64_t)dr->iops,
		dr->runtime_ms);
	terse_lat(f, &dr->slat);
	terse_lat(f, &dr->clat);
	terse_pct(f, j, dr);
	terse_lat(f, &dr->lat);
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f",
		bw->n ? bw->min : 0, bw->n ? bw->max : 0,
		bw->n ? dr->bw_agg_pct : 0.0, bw->n ? bw->mean : 0.0,
		welford_stdev(bw));
	if (ver < 5)
		return;
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64,
		bw->n, io->n ? io->min : 0, io->n ? io->max : 0,
		io->n ? io->mean : 0.0, welford_stdev(io), io->n);
}

static void terse_job(FILE *f, const struct job_result *j,
		      const struct run_result *rr, int ver)
{
	double dist[DIST_NR], lat[LAT_MS_NR], ns[LAT_NS_NR];
	unsigned int i;

	if (ver == 2)
		fprintf(f, "2;%s;%u;%d", j->name, j->groupid, j->error);
	else
		fprintf(f, "%d;iolite-%s;%s;%u;%d", ver, IOLITE_VERSION,
			j->name, j->groupid, j->error);
	/*
	 * unified_rw_reporting as fio: mixed alone, or after read, write
	 * (and trim, in every version but 3)
	 */
	if (j->unified != UNIFIED_MIXED) {
		terse_ddir(f, j, DDIR_READ, ver);
		terse_ddir(f, j, DDIR_WRITE, ver);
		if (ver != 3)
			terse_ddir(f, j, DDIR_TRIM, ver);
	}
	if (j->unified)
		terse_ddir(f, j, RES_MIXED, ver);
	fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		j->usr_cpu, j->sys_cpu, j->ctx, j->majf, j->minf);

	results_depth_pct(j, dist);
	for (i = 0; i < DIST_NR; i++)
		fprintf(f, ";%.1f%%", dist[i]);

	/* version 3 has no ns buckets: they count as "<= 2us" */
	results_lat_pct(j, j->lat_us, LAT_US_NR, lat);
	results_lat_pct(j, j->lat_ns, LAT_NS_NR, ns);
	for (i = 0; i < LAT_NS_NR; i++)
		lat[0] += ns[i];
	for (i = 0; i < LAT_US_NR; i++)
		fprintf(f, ";%.2f%%", lat[i]);
	results_lat_pct(j, j->lat_ms, LAT_MS_NR, lat);
	for (i = 0; i < LAT_MS_NR; i++)
		fprintf(f, ";%.2f%%", lat[i]);

	for (i = 0; ver >= 3 && i < rr->nr_disks; i++) {
		const struct disk_result *dk = &rr->disks[i];

		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%.2f%%",
			dk->name, dk->ios[0], dk->ios[1], dk->merges[0],
			dk->merges[1], dk->ticks[0], dk->ticks[1],
			dk->time_in_queue, dk->util);
	}
	if (j->plan && j->plan->o.continue_on_error)
		fprintf(f, ";%" PRIu64 ";%d", j->total_err, j->first_error);
	if (j->description)
		fprintf(f, "%s;%s", ver == 2 ? "\n" : "", j->description);
	fputc('\n', f);
}

int report_terse_write(const struct run_result *rr, FILE *f, int version)
{
	unsigned int i;

	if (version < 2 || version > 5)
		return -EINVAL;
	/* iolite-mpi: the ranks' lines, then the "All clients" ones */
	for (i = 0; rr->client && i < rr->client->nr_parts; i++)
		if (rr->client->parts[i])
			fputs(rr->client->parts[i], f);
	for (i = 0; i < rr->nr_jobs; i++)
		terse_job(f, &rr->jobs[i], rr, version);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

static int terse_write(const struct run_result *rr, FILE *f)
{
	return report_terse_write(rr, f, 3);
}

const struct report_ops report_terse = {
	.name = "terse",
	.write = terse_write,
};
