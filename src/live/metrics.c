/* SPDX-License-Identifier: MIT */
/*
 * The metrics (--metrics-listen, --metrics-push): the intervals added up
 * per reported job into counters, the last interval's rates as gauges,
 * written as Prometheus' text format (0.0.4), which Prometheus and its
 * Pushgateway read, or as OpenMetrics 1.0 text for a scraper that asks
 * for it: the same samples, a counter's family named without its
 * "_total", "# EOF" at the end. Native histograms are not served: they
 * exist only in Prometheus' protobuf format, and the classic buckets
 * here are already exact (doc/live.md).
 *
 * The latency histogram's bounds are edges of iolite's own histogram
 * (stats/stats.h): four a power of two, 64 ns to 2^34 ns (17 s), so each
 * bucket's count is exact; a bound counts the samples below it.
 * histogram_quantile() interpolates within a quarter of an octave.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/live_int.h"
#include "util/log.h"

#define LB_FIRST 6			/* 2^6 ns */
#define LB_LAST 34			/* 2^34 ns, the histogram's top */
#define LB_NR ((LB_LAST - LB_FIRST) * 4 + 1)

static const char *const dir_label[DDIR_RWDIR_CNT] = {
	"read", "write", "trim",
};

struct m_dir {
	bool used;
	uint64_t ios, bytes;
	uint64_t le[LB_NR + 1];		/* per bound, not cumulative; +Inf */
	uint64_t count;
	double sum_s;
	double iops, bw;		/* the last interval's */
};

struct m_job {
	char *name;
	unsigned int groupid;
	struct m_dir dir[DDIR_RWDIR_CNT];
	uint64_t errors, intervals;
	double usr_s, sys_s;
	double depth, ns_per_io;	/* the last interval's */
	bool done;
};

struct live_metrics {
	struct m_job *j;
	unsigned int nr;
	uint64_t bound_ns[LB_NR];
	unsigned char slot[HIST_NR];	/* a bucket's bound index */
};

struct live_metrics *live_metrics_new(void)
{
	struct live_metrics *m = xcalloc(1, sizeof(*m));
	unsigned int k, q, n = 0, i;

	for (k = LB_FIRST; k < LB_LAST; k++)
		for (q = 0; q < 4; q++)
			m->bound_ns[n++] = (1ull << k) + q * (1ull << (k - 2));
	m->bound_ns[n++] = 1ull << LB_LAST;
	/* the first bound above the bucket's values: buckets never straddle */
	for (i = 0, k = 0; i < HIST_NR; i++) {
		while (k < LB_NR && m->bound_ns[k] <= hist_bucket_hi(i))
			k++;
		m->slot[i] = (unsigned char)k;
	}
	return m;
}

void live_metrics_free(struct live_metrics *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->j[i].name);
	free(m->j);
	free(m);
}

static void add_dir(struct live_metrics *m, struct m_dir *md,
		    const struct dir_result *dr, double dur_s)
{
	unsigned int i;

	md->ios += dr->ios;
	md->bytes += dr->bytes;
	md->iops = dur_s > 0 ? (double)dr->ios / dur_s : 0.0;
	md->bw = dur_s > 0 ? (double)dr->bytes / dur_s : 0.0;
	if (!dr->clat.n)
		return;
	for (i = 0; i < HIST_NR; i++)
		if (dr->clat_hist.bucket[i])
			md->le[m->slot[i]] += dr->clat_hist.bucket[i];
	md->le[LB_NR] += dr->clat_hist.overflow;
	md->count += dr->clat.n;
	md->sum_s += dr->clat.mean * (double)dr->clat.n / 1e9;
}

void live_metrics_add(struct live_metrics *m, const struct live_rec *r)
{
	const struct job_result *j = r->j;
	double dur_s = (double)(r->end_ns - r->start_ns) / 1e9, busy = 0.0;
	struct m_job *mj;
	unsigned int d;

	if (r->jobid >= m->nr) {
		m->j = xrealloc(m->j, (r->jobid + 1) * sizeof(*m->j));
		memset(m->j + m->nr, 0, (r->jobid + 1 - m->nr) * sizeof(*m->j));
		m->nr = r->jobid + 1;
	}
	mj = &m->j[r->jobid];
	if (!mj->name) {
		mj->name = xstrdup(j->name);
		mj->groupid = j->groupid;
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct dir_result *dr = &j->dir[d];

		mj->dir[d].used |= dr->ios ||
				   (j->plan && ddir_used(j->plan, (enum ddir)d));
		add_dir(m, &mj->dir[d], dr, dur_s);
		/* Little's law: the mean number in flight over the interval */
		busy += dr->lat.n ? dr->lat.mean * (double)dr->lat.n :
			dr->clat.mean * (double)dr->clat.n;
	}
	mj->errors += j->total_err;
	mj->intervals++;
	mj->usr_s += (double)j->usr_ms / 1e3;
	mj->sys_s += (double)j->sys_ms / 1e3;
	mj->depth = dur_s > 0 ? busy / 1e9 / dur_s : 0.0;
	mj->ns_per_io = j->usr_ns_per_io;
	mj->done = r->last;
}

/* A label value: backslash, quote and newline escaped. */
static void label(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			strbuf_addch(sb, '\\');
		if (*s == '\n') {
			strbuf_addstr(sb, "\\n");
			continue;
		}
		strbuf_addch(sb, *s);
	}
}

static void labels(struct strbuf *sb, const struct m_job *mj, unsigned int k,
		   const char *dir)
{
	strbuf_addstr(sb, "{jobname=\"");
	label(sb, mj->name);
	strbuf_addf(sb, "\",jobid=\"%u\",groupid=\"%u\"", k, mj->groupid);
	if (dir)
		strbuf_addf(sb, ",ddir=\"%s\"", dir);
}

/*
 * A family's HELP and TYPE. OpenMetrics names a counter's family without
 * the "_total" its samples carry; the help texts have no character
 * either format escapes.
 */
static void head(struct strbuf *sb, const char *name, const char *type,
		 const char *help, bool om)
{
	size_t n = strlen(name);

	if (om && !strcmp(type, "counter") && n > 6 &&
	    !strcmp(name + n - 6, "_total"))
		n -= 6;
	strbuf_addf(sb, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)n, name,
		    help, (int)n, name, type);
}

/* A value: integers as integers, the rest with enough digits. */
static void val_u(struct strbuf *sb, uint64_t v)
{
	strbuf_addf(sb, "} %" PRIu64 "\n", v);
}

static void val_d(struct strbuf *sb, double v)
{
	strbuf_addf(sb, "} %.17g\n", isfinite(v) ? v : 0.0);
}

/* The double or uint64_t field at p (an offset into a struct), copied out */
static void field_val(struct strbuf *sb, const char *p, bool is_double)
{
	double dv;
	uint64_t uv;

	if (is_double) {
		memcpy(&dv, p, sizeof(dv));
		val_d(sb, dv);
	} else {
		memcpy(&uv, p, sizeof(uv));
		val_u(sb, uv);
	}
}

/* One counter or gauge per job and direction, from a field's offset. */
static void per_dir(const struct live_metrics *m, struct strbuf *sb, bool om,
		    const char *name, const char *type, const char *help,
		    size_t off, bool is_double)
{
	unsigned int k, d;

	head(sb, name, type, help, om);
	for (k = 0; k < m->nr; k++) {
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct m_dir *md = &m->j[k].dir[d];
			const char *p = (const char *)md + off;

			if (!m->j[k].name || !md->used)
				continue;
			strbuf_addstr(sb, name);
			labels(sb, &m->j[k], k, dir_label[d]);
			field_val(sb, p, is_double);
		}
	}
}

static void histogram(const struct live_metrics *m, struct strbuf *sb,
		      bool om)
{
	const char *name = "iolite_clat_seconds";
	unsigned int k, d, b;

	head(sb, name, "histogram",
	     "Completion latency (fio's clat) of the completed I/Os.", om);
	for (k = 0; k < m->nr; k++) {
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct m_dir *md = &m->j[k].dir[d];
			uint64_t cum = 0;

			if (!m->j[k].name || !md->used)
				continue;
			for (b = 0; b <= LB_NR; b++) {
				cum += md->le[b];
				strbuf_addf(sb, "%s_bucket", name);
				labels(sb, &m->j[k], k, dir_label[d]);
				if (b < LB_NR)
					strbuf_addf(sb, ",le=\"%.9g\"",
						    (double)m->bound_ns[b] / 1e9);
				else
					strbuf_addstr(sb, ",le=\"+Inf\"");
				val_u(sb, cum);
			}
			strbuf_addf(sb, "%s_sum", name);
			labels(sb, &m->j[k], k, dir_label[d]);
			val_d(sb, md->sum_s);
			strbuf_addf(sb, "%s_count", name);
			labels(sb, &m->j[k], k, dir_label[d]);
			val_u(sb, md->count);
		}
	}
}

/* One series per job; field at off of struct m_job. */
static void per_job(const struct live_metrics *m, struct strbuf *sb, bool om,
		    const char *name, const char *type, const char *help,
		    size_t off, bool is_double)
{
	unsigned int k;

	head(sb, name, type, help, om);
	for (k = 0; k < m->nr; k++) {
		const char *p = (const char *)&m->j[k] + off;

		if (!m->j[k].name)
			continue;
		strbuf_addstr(sb, name);
		labels(sb, &m->j[k], k, NULL);
		field_val(sb, p, is_double);
	}
}

static void cpu(const struct live_metrics *m, struct strbuf *sb, bool om)
{
	unsigned int k;

	head(sb, "iolite_cpu_seconds_total", "counter",
	     "CPU time of the job's worker threads.", om);
	for (k = 0; k < m->nr; k++) {
		if (!m->j[k].name)
			continue;
		strbuf_addstr(sb, "iolite_cpu_seconds_total");
		labels(sb, &m->j[k], k, NULL);
		strbuf_addstr(sb, ",mode=\"user\"");
		val_d(sb, m->j[k].usr_s);
		strbuf_addstr(sb, "iolite_cpu_seconds_total");
		labels(sb, &m->j[k], k, NULL);
		strbuf_addstr(sb, ",mode=\"system\"");
		val_d(sb, m->j[k].sys_s);
	}
}

void live_metrics_text(const struct live_metrics *m, struct strbuf *sb,
		       bool om)
{
	unsigned int k;

	per_dir(m, sb, om, "iolite_ios_total", "counter", "Completed I/Os.",
		offsetof(struct m_dir, ios), false);
	per_dir(m, sb, om, "iolite_bytes_total", "counter", "Completed bytes.",
		offsetof(struct m_dir, bytes), false);
	histogram(m, sb, om);
	per_dir(m, sb, om, "iolite_iops", "gauge",
		"I/Os a second over the last interval.",
		offsetof(struct m_dir, iops), true);
	per_dir(m, sb, om, "iolite_bandwidth_bytes", "gauge",
		"Bytes a second over the last interval.",
		offsetof(struct m_dir, bw), true);
	per_job(m, sb, om, "iolite_errors_total", "counter",
		"I/O errors counted (continue_on_error).",
		offsetof(struct m_job, errors), false);
	per_job(m, sb, om, "iolite_queue_depth", "gauge",
		"Mean I/Os in flight over the last interval (Little's law: the completed I/Os' latency over its length).",
		offsetof(struct m_job, depth), true);
	per_job(m, sb, om, "iolite_cpu_user_seconds_per_io", "gauge",
		"iolite's own user CPU time per I/O over the last interval.",
		offsetof(struct m_job, ns_per_io), true);
	per_job(m, sb, om, "iolite_intervals_total", "counter",
		"Intervals counted.",
		offsetof(struct m_job, intervals), false);
	cpu(m, sb, om);
	head(sb, "iolite_job_done", "gauge", "1 once the job has ended.", om);
	for (k = 0; k < m->nr; k++) {
		if (!m->j[k].name)
			continue;
		strbuf_addstr(sb, "iolite_job_done");
		labels(sb, &m->j[k], k, NULL);
		val_u(sb, m->j[k].done);
	}
	if (om)
		strbuf_addstr(sb, "# EOF\n");
}
