/* SPDX-License-Identifier: MIT */
/*
 * Reads fio 3.x's and iolite's JSON / json+ reports into the plain model
 * of resultsio.h, with jansson. Only the keys the model has are read;
 * anything else in the file is ignored, so newer fio versions with more
 * keys read fine. Missing numbers read as 0 (a block fio left out is a
 * block with nothing in it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resultsio/resultsio.h"
#include "util/log.h"

const double rio_pct_time[RIO_PCT_TIME_NR] = { 50.0, 99.0, 99.9 };

const char *const rio_dir_name[RIO_DIR_NR] = {
	"read", "write", "trim", "mixed",
};

static void opts_free(struct rio_opt *o, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		free(o[i].key);
		free(o[i].val);
	}
	free(o);
}

static void lat_free(struct rio_lat *l)
{
	free(l->pct);
	free(l->bins);
}

const char *const rio_rep_key[RIO_REP_NR] = {
	"iops", "bw_bytes", "lat_mean_ns", "clat_p50_ns", "clat_p99_ns",
	"clat_p99.9_ns",
};

static void rep_free(struct rio_rep *rep)
{
	unsigned int d;

	if (!rep)
		return;
	for (d = 0; d < RIO_DIR_NR; d++)
		free(rep->dir[d].left_out);
	free(rep);
}

static void series_free(struct rio_series *s)
{
	free(s->v);
	free(s->t);
}

static void run_free(struct rio_run *r)
{
	unsigned int i, d, k;

	for (i = 0; i < r->nr_jobs; i++) {
		struct rio_job *j = &r->jobs[i];

		rep_free(j->rep);
		free(j->name);
		opts_free(j->opts, j->nr_opts);
		opts_free(j->sweep, j->nr_sweep);
		for (d = 0; d < RIO_DIR_NR; d++) {
			lat_free(&j->dir[d].slat);
			lat_free(&j->dir[d].clat);
			lat_free(&j->dir[d].lat);
			series_free(&j->dir[d].bw_series);
			series_free(&j->dir[d].iops_series);
			series_free(&j->dir[d].clat_series);
			for (k = 0; k < RIO_PCT_TIME_NR; k++)
				series_free(&j->dir[d].clat_time[k]);
		}
	}
	free(r->jobs);
	opts_free(r->global, r->nr_global);
	for (i = 0; i < r->nr_sweep_opts; i++)
		free(r->sweep_opts[i]);
	free(r->sweep_opts);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->source);
	free(r->version);
}

void rio_doc_release(struct rio_doc *doc)
{
	unsigned int i;

	for (i = 0; i < doc->nr_runs; i++)
		run_free(&doc->runs[i]);
	free(doc->runs);
	doc->runs = NULL;
	doc->nr_runs = 0;
}

const struct rio_job *rio_find_job(const struct rio_run *r, const char *name,
				   unsigned int dup)
{
	unsigned int i;

	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].dup == dup && !strcmp(r->jobs[i].name, name))
			return &r->jobs[i];
	return NULL;
}

int rio_bins_percentile(const struct rio_lat *l, double p, uint64_t *out)
{
	uint64_t total = 0, sum = 0;
	unsigned int i;

	if (!l->nr_bins)
		return -ENOENT;
	for (i = 0; i < l->nr_bins; i++)
		total += l->bins[i].n;
	for (i = 0; i < l->nr_bins; i++) {
		sum += l->bins[i].n;
		if ((double)sum >= p / 100.0 * (double)total) {
			*out = l->bins[i].v;
			return 0;
		}
	}
	*out = l->bins[l->nr_bins - 1].v;
	return 0;
}

int rio_percentile(const struct rio_lat *l, double p, uint64_t *out)
{
	unsigned int i;

	if (!l->s.n)
		return -ENOENT;
	for (i = 0; i < l->nr_pct; i++) {
		if (l->pct[i].p > p - 1e-9 && l->pct[i].p < p + 1e-9) {
			*out = l->pct[i].v;
			return 0;
		}
	}
	return rio_bins_percentile(l, p, out) ? -ENOENT : 1;
}

#ifndef HAVE_LIBJANSSON

bool rio_available(void)
{
	return false;
}

int rio_read_buf(struct rio_doc *doc, const char *name, const char *buf,
		 size_t len, struct strbuf *err)
{
	strbuf_addf(err, "%s: reading JSON needs jansson: this iolite was "
		    "built without it (apt install libjansson-dev, then "
		    "rebuild)", name);
	return -ENOSYS;
}

#else

#include <jansson.h>

bool rio_available(void)
{
	return true;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

/*
 * A figure a comparison judges: NAN when the key is missing or holds
 * something other than a number, so that a reader can tell "not a
 * number" from 0 (a regression gate must not pass on a broken report).
 */
static double fig(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static uint64_t unum(const json_t *o, const char *key)
{
	double v = num(o, key);

	return v > 0 ? (uint64_t)v : 0;
}

/* A JSON value as option text: strings as they are, others compact. */
static char *value_text(const json_t *v)
{
	const char *s;

	if (json_is_null(v))
		return NULL;
	s = json_string_value(v);
	if (s)
		return xstrdup(s);
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

static void read_opts(const json_t *o, struct rio_opt **out, unsigned int *nr)
{
	const char *key;
	json_t *v;
	unsigned int n = 0;

	*out = NULL;
	*nr = 0;
	if (!json_is_object(o) || !json_object_size(o))
		return;
	*out = xcalloc(json_object_size(o), sizeof(**out));
	json_object_foreach((json_t *)o, key, v) {
		(*out)[n].key = xstrdup(key);
		(*out)[n].val = value_text(v);
		n++;
	}
	*nr = n;
}

static int cmp_pct(const void *a, const void *b)
{
	const struct rio_pct *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p;
}

static int cmp_bin(const void *a, const void *b)
{
	const struct rio_bin *x = a, *y = b;

	return x->v < y->v ? -1 : x->v > y->v;
}

static void read_stat(const json_t *o, struct rio_stat *s)
{
	s->n = unum(o, "N");
	s->min = num(o, "min");
	s->max = num(o, "max");
	s->mean = s->n ? fig(o, "mean") : 0;
	s->stdev = num(o, "stddev");
}

static void read_lat(const json_t *o, struct rio_lat *l)
{
	const json_t *m;
	const char *key;
	json_t *v;
	unsigned int n;

	memset(l, 0, sizeof(*l));
	if (!json_is_object(o))
		return;
	read_stat(o, &l->s);
	m = json_object_get(o, "percentile");
	if (json_is_object(m) && json_object_size(m)) {
		l->pct = xcalloc(json_object_size(m), sizeof(*l->pct));
		n = 0;
		json_object_foreach((json_t *)m, key, v) {
			if (!json_is_number(v))
				continue;
			l->pct[n].p = strtod(key, NULL);
			l->pct[n++].v = (uint64_t)json_number_value(v);
		}
		l->nr_pct = n;
		qsort(l->pct, n, sizeof(*l->pct), cmp_pct);
	}
	m = json_object_get(o, "bins");
	if (json_is_object(m) && json_object_size(m)) {
		l->bins = xcalloc(json_object_size(m), sizeof(*l->bins));
		n = 0;
		json_object_foreach((json_t *)m, key, v) {
			if (!json_is_number(v))
				continue;
			l->bins[n].v = strtoull(key, NULL, 10);
			l->bins[n++].n = (uint64_t)json_number_value(v);
		}
		l->nr_bins = n;
		qsort(l->bins, n, sizeof(*l->bins), cmp_bin);
	}
}

static void read_series(const json_t *o, const char *key,
			struct rio_series *s)
{
	const json_t *a = json_object_get(o, key);
	char pkey[32];
	size_t i;

	if (!json_is_array(a) || !json_array_size(a))
		return;
	snprintf(pkey, sizeof(pkey), "%s_period_ms", key);
	s->period_ms = num(o, pkey);
	s->v = xcalloc(json_array_size(a), sizeof(*s->v));
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);

		if (json_is_number(v))
			s->v[s->nr++] = json_number_value(v);
	}
}

static void read_dir(const json_t *o, struct rio_dir_result *d)
{
	d->present = true;
	d->io_bytes = json_object_get(o, "io_bytes") ? unum(o, "io_bytes") :
		      unum(o, "io_kbytes") * 1024;
	d->total_ios = unum(o, "total_ios");
	d->runtime_ms = unum(o, "runtime");
	d->iops = fig(o, "iops");
	/* fio 2.x had "bw" (KiB/s) only */
	d->bw_bytes = json_object_get(o, "bw_bytes") ? fig(o, "bw_bytes") :
		      fig(o, "bw") * 1024.0;
	read_lat(json_object_get(o, "slat_ns"), &d->slat);
	read_lat(json_object_get(o, "clat_ns"), &d->clat);
	read_lat(json_object_get(o, "lat_ns"), &d->lat);
	d->bw_samples.n = unum(o, "bw_samples");
	d->bw_samples.min = num(o, "bw_min");
	d->bw_samples.max = num(o, "bw_max");
	d->bw_samples.mean = num(o, "bw_mean");
	d->bw_samples.stdev = num(o, "bw_dev");
	d->iops_samples.n = unum(o, "iops_samples");
	d->iops_samples.min = num(o, "iops_min");
	d->iops_samples.max = num(o, "iops_max");
	d->iops_samples.mean = num(o, "iops_mean");
	d->iops_samples.stdev = num(o, "iops_stddev");
}

/* fio's 7-bucket distributions, in file order; false when absent */
static bool read_dist(const json_t *o, double *out)
{
	const char *key;
	json_t *v;
	unsigned int n = 0;

	if (!json_is_object(o))
		return false;
	json_object_foreach((json_t *)o, key, v) {
		if (n < RIO_DIST_NR && json_is_number(v))
			out[n++] = json_number_value(v);
	}
	return n > 0;
}

static void read_job_extra(const json_t *o, const json_t *own,
			   struct rio_job *j)
{
	j->usr_cpu = num(o, "usr_cpu");
	j->sys_cpu = num(o, "sys_cpu");
	j->ctx = unum(o, "ctx");
	j->run_ms = unum(o, "job_runtime");
	j->usr_ns_per_io = num(own, "usr_ns_per_io");
	j->iowq_cpu_ms = num(own, "iowq_cpu_ms");
	j->iowq_max_threads = (unsigned int)num(own, "iowq_max_threads");
	j->run_delay_pct = num(own, "run_delay_pct");
	j->has_dist = read_dist(json_object_get(o, "iodepth_level"), j->depth);
	read_dist(json_object_get(o, "iodepth_submit"), j->submit);
	read_dist(json_object_get(o, "iodepth_complete"), j->complete);
	read_opts(json_object_get(o, "sweep"), &j->sweep, &j->nr_sweep);
}

/* An array of strings (others skipped), copied. */
static char **read_strings(const json_t *a, unsigned int *nr)
{
	char **out;
	size_t i;

	*nr = 0;
	if (!json_is_array(a) || !json_array_size(a))
		return NULL;
	out = xcalloc(json_array_size(a), sizeof(*out));
	for (i = 0; i < json_array_size(a); i++) {
		const char *s = json_string_value(json_array_get(a, i));

		if (s)
			out[(*nr)++] = xstrdup(s);
	}
	return out;
}

static int read_job(const json_t *o, struct rio_job *j, unsigned int index,
		    const char *name, struct strbuf *err)
{
	const json_t *own, *samples;
	const char *jobname;
	unsigned int d;

	jobname = json_string_value(json_object_get(o, "jobname"));
	if (!json_is_object(o) || !jobname) {
		strbuf_addf(err, "%s: job %u has no \"jobname\"", name,
			    index + 1);
		return -EINVAL;
	}
	j->name = xstrdup(jobname);
	j->index = index;
	j->groupid = (unsigned int)unum(o, "groupid");
	j->error = (long)num(o, "error");
	read_opts(json_object_get(o, "job options"), &j->opts, &j->nr_opts);
	own = json_object_get(o, "iolite");
	read_job_extra(o, own, j);
	samples = json_object_get(own, "samples");
	for (d = 0; d < RIO_DIR_NR; d++) {
		const json_t *dir = json_object_get(o, rio_dir_name[d]);
		const json_t *s = json_object_get(samples, rio_dir_name[d]);

		if (!json_is_object(dir))
			continue;
		read_dir(dir, &j->dir[d]);
		if (json_is_object(s)) {
			read_series(s, "bw", &j->dir[d].bw_series);
			read_series(s, "iops", &j->dir[d].iops_series);
			read_series(s, "clat_mean_ns", &j->dir[d].clat_series);
			/* at the IOPS points */
			j->dir[d].clat_series.period_ms =
				j->dir[d].iops_series.period_ms;
		}
	}
	return 0;
}

/*
 * One run from a report object; top: the document, whose version, time
 * and global options a repeat without its own inherits.
 */
static int read_run(struct rio_doc *doc, const json_t *o, const json_t *top,
		    const char *name, unsigned int repeat, struct strbuf *err)
{
	const json_t *jobs = json_object_get(o, "jobs");
	const json_t *g = json_object_get(o, "global options");
	const char *ver = json_string_value(json_object_get(o, "fio version"));
	const json_t *own;
	struct rio_run *r;
	size_t i, k;

	if (!json_is_array(jobs)) {
		if (repeat)
			strbuf_addf(err, "%s: repeat %u has no \"jobs\" array",
				    name, repeat);
		else
			strbuf_addf(err, "%s: \"jobs\" is not an array", name);
		return -EINVAL;
	}
	doc->runs = xrealloc(doc->runs, (doc->nr_runs + 1) * sizeof(*doc->runs));
	r = &doc->runs[doc->nr_runs++];
	memset(r, 0, sizeof(*r));
	r->source = xstrdup(name);
	r->repeat = repeat;
	if (!ver)
		ver = json_string_value(json_object_get(top, "fio version"));
	r->version = xstrdup(ver ? ver : "");
	r->timestamp_ms = (int64_t)num(o, "timestamp_ms");
	if (!r->timestamp_ms)
		r->timestamp_ms = (int64_t)(num(o, "timestamp") * 1000);
	if (!r->timestamp_ms && o != top)
		r->timestamp_ms = (int64_t)num(top, "timestamp_ms");
	read_opts(g ? g : json_object_get(top, "global options"), &r->global,
		  &r->nr_global);
	own = json_object_get(top, "iolite");
	r->sweep_opts = read_strings(json_object_get(json_object_get(own,
				     "sweep"), "options"), &r->nr_sweep_opts);
	r->notes = read_strings(json_object_get(o == top ? own :
				json_object_get(o, "iolite"), "notes"),
				&r->nr_notes);
	r->jobs = xcalloc(json_array_size(jobs) + 1, sizeof(*r->jobs));
	for (i = 0; i < json_array_size(jobs); i++) {
		struct rio_job *j = &r->jobs[i];

		if (read_job(json_array_get(jobs, i), j, (unsigned int)i,
			     name, err)) {
			r->nr_jobs = (unsigned int)i;
			run_free(r);
			doc->nr_runs--;
			return -EINVAL;
		}
		r->nr_jobs = (unsigned int)i + 1;
		for (k = 0; k < i; k++)
			if (!strcmp(r->jobs[k].name, j->name))
				j->dup++;
	}
	return 0;
}

/* One job's "repeat_summary" entry; NULL when it has no direction. */
static struct rio_rep *read_rep_job(const json_t *o, double runs, double conf)
{
	struct rio_rep *rep = xcalloc(1, sizeof(*rep));
	unsigned int d, m, k;
	bool any = false;

	rep->runs = (unsigned int)runs;
	rep->confidence = conf;
	for (d = 0; d < RIO_DIR_NR; d++) {
		const json_t *dj = json_object_get(o, rio_dir_name[d]);
		const json_t *lj = json_object_get(json_object_get(o,
						   "left_out"), rio_dir_name[d]);
		const json_t *lo = json_object_get(lj, "runs");
		struct rio_rep_dir *rd = &rep->dir[d];

		if (!json_is_object(dj))
			continue;
		any = rd->present = true;
		for (m = 0; m < RIO_REP_NR; m++) {
			const json_t *mj = json_object_get(dj, rio_rep_key[m]);

			rd->m[m] = (struct rio_ci){ num(mj, "mean"),
						    num(mj, "ci_lo"),
						    num(mj, "ci_hi") };
		}
		rd->left_out = xcalloc(json_array_size(lo) + 1,
				       sizeof(*rd->left_out));
		for (k = 0; k < json_array_size(lo); k++)
			rd->left_out[rd->nr_left_out++] = (unsigned int)
				json_number_value(json_array_get(lo, k));
		rd->flagged_kept = num(lj, "flagged_kept") != 0;
	}
	if (!any) {
		rep_free(rep);
		return NULL;
	}
	return rep;
}

/*
 * "repeat_summary": its jobs are the last run's, in order, each entry
 * hung on its job (r: the last run) when the name agrees
 */
static void read_rep_sum(struct rio_run *r, const json_t *sum)
{
	const json_t *jobs = json_object_get(sum, "jobs");
	size_t i;

	for (i = 0; i < json_array_size(jobs) && i < r->nr_jobs; i++) {
		const json_t *o = json_array_get(jobs, i);
		const char *n = json_string_value(json_object_get(o, "jobname"));

		if (n && !strcmp(n, r->jobs[i].name))
			r->jobs[i].rep = read_rep_job(o, num(sum, "runs"),
						      num(sum, "confidence"));
	}
}

static int read_doc(struct rio_doc *doc, const json_t *top, const char *name,
		    struct strbuf *err)
{
	const json_t *rep = json_object_get(json_object_get(top, "iolite"),
					    "repeats");
	unsigned int before = doc->nr_runs;
	size_t i;

	if (!rep)
		return read_run(doc, top, top, name, 0, err);
	if (!json_is_array(rep) || !json_array_size(rep)) {
		strbuf_addf(err, "%s: \"repeats\" is not an array of runs", name);
		return -EINVAL;
	}
	for (i = 0; i < json_array_size(rep); i++) {
		if (read_run(doc, json_array_get(rep, i), top, name,
			     (unsigned int)i + 1, err)) {
			while (doc->nr_runs > before)
				run_free(&doc->runs[--doc->nr_runs]);
			return -EINVAL;
		}
		doc->runs[doc->nr_runs - 1].nr_repeats =
			(unsigned int)json_array_size(rep);
	}
	read_rep_sum(&doc->runs[doc->nr_runs - 1],
		     json_object_get(json_object_get(top, "iolite"),
				     "repeat_summary"));
	return 0;
}

/*
 * --status-interval: the cumulative counts each report gives of each job
 * and direction, [report][job][dir], for per-interval rates.
 */
struct snap_dir {
	uint64_t ios, bytes, runtime_ms;
};

struct snaps {
	unsigned int nr, alloc;
	unsigned int nr_jobs;	/* every report must have as many */
	bool broken;
	struct snap_dir *v;
};

static void snap_add(struct snaps *s, const json_t *doc)
{
	const json_t *jobs = json_object_get(doc, "jobs");
	unsigned int n = (unsigned int)json_array_size(jobs), i, d;
	struct snap_dir *row;

	if (!s->nr)
		s->nr_jobs = n;
	if (n != s->nr_jobs || !n || s->broken) {
		s->broken = true;
		return;
	}
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->v = xrealloc(s->v, (size_t)s->alloc * n * RIO_DIR_NR *
				sizeof(*s->v));
	}
	row = s->v + (size_t)s->nr++ * n * RIO_DIR_NR;
	for (i = 0; i < n; i++) {
		for (d = 0; d < RIO_DIR_NR; d++) {
			const json_t *o = json_object_get(json_array_get(jobs, i),
							  rio_dir_name[d]);

			row[i * RIO_DIR_NR + d].ios = unum(o, "total_ios");
			row[i * RIO_DIR_NR + d].bytes = unum(o, "io_bytes");
			row[i * RIO_DIR_NR + d].runtime_ms = unum(o, "runtime");
		}
	}
}

/*
 * A run without series of its own (fio's) that came with earlier
 * --status-interval reports: the rates between successive reports are
 * its per-interval samples.
 */
static void snaps_series(const struct snaps *s, struct rio_run *r)
{
	unsigned int i, d, k, n = s->nr_jobs;

	if (s->broken || s->nr < 2 || n != r->nr_jobs)
		return;
	for (i = 0; i < n; i++) {
		for (d = 0; d < RIO_DIR_NR; d++) {
			struct rio_dir_result *dr = &r->jobs[i].dir[d];
			struct snap_dir prev = { 0, 0, 0 };
			uint64_t total = 0;

			if (!dr->present || dr->iops_series.nr)
				continue;
			dr->iops_series.v = xcalloc(s->nr, sizeof(double));
			dr->bw_series.v = xcalloc(s->nr, sizeof(double));
			for (k = 0; k < s->nr; k++) {
				const struct snap_dir *c =
					&s->v[((size_t)k * n + i) * RIO_DIR_NR + d];
				double dt = (double)(c->runtime_ms -
						     prev.runtime_ms);

				if (c->runtime_ms <= prev.runtime_ms ||
				    c->ios < prev.ios || c->bytes < prev.bytes)
					continue;
				dr->iops_series.v[dr->iops_series.nr++] =
					(double)(c->ios - prev.ios) * 1000 / dt;
				dr->bw_series.v[dr->bw_series.nr++] =
					(double)(c->bytes - prev.bytes) * 1000 /
					1024 / dt;
				total += c->runtime_ms - prev.runtime_ms;
				prev = *c;
			}
			if (dr->iops_series.nr) {
				dr->iops_series.period_ms =
					(double)total / dr->iops_series.nr;
				dr->bw_series.period_ms =
					dr->iops_series.period_ms;
				dr->iops_series.from_reports = true;
				dr->bw_series.from_reports = true;
			}
		}
	}
}

/* The next line of buf at or after p that starts with '{', or NULL. */
static const char *next_doc(const char *buf, size_t len, const char *p)
{
	const char *end = buf + len;

	for (; p < end; p++) {
		if (*p == '{' && (p == buf || p[-1] == '\n'))
			return p;
	}
	return NULL;
}

static unsigned int lines_before(const char *buf, const char *p)
{
	unsigned int n = 0;

	for (; buf < p; buf++)
		n += *buf == '\n';
	return n;
}

/* --- the interval stream (--interval-output, doc/live.md) ------------- */

/* fio's default percentile list, which the stream's summary is given */
static const double stream_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
	99.99,
};

/* A latency block summed over intervals: Chan's merge of the moments. */
struct acc_lat {
	uint64_t n;
	double mean, m2, min, max;
	struct rio_bin *bins;
	unsigned int nr, alloc;
};

struct acc_job {
	struct acc_lat lat[RIO_DIR_NR][3];	/* slat, clat, lat */
	double usr, sys, dur;			/* CPU % x ms, ms */
	double own_ns, own_ios;			/* usr_ns_per_io x I/Os */
	uint64_t last_seq;
	unsigned int round, id;			/* the line's */
	unsigned int run;			/* its run in the doc */
};

struct stream_rd {
	struct rio_doc *doc;
	unsigned int first_run;
	struct acc_job *acc;		/* by round * ids + jobid */
	unsigned int nr_acc;
	unsigned int *round_run;	/* a round's run, or UINT_MAX */
	unsigned int nr_rounds;
};

static bool is_stream(const char *buf, size_t len)
{
	static const char head[] = "{\"type\":\"interval\"";
	size_t i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t'))
		i++;
	return len - i >= sizeof(head) - 1 &&
	       !memcmp(buf + i, head, sizeof(head) - 1);
}

static void acc_add(struct acc_lat *a, const json_t *o)
{
	struct rio_lat l;
	double d;
	uint64_t n;
	unsigned int i;

	read_lat(o, &l);
	n = l.s.n;
	if (n) {
		d = l.s.mean - a->mean;
		if (!a->n || l.s.min < a->min)
			a->min = l.s.min;
		if (l.s.max > a->max)
			a->max = l.s.max;
		a->m2 += l.s.stdev * l.s.stdev * (double)(n - 1) +
			 d * d * (double)a->n * (double)n / (double)(a->n + n);
		a->mean += d * (double)n / (double)(a->n + n);
		a->n += n;
	}
	for (i = 0; i < l.nr_bins; i++) {
		if (a->nr == a->alloc) {
			a->alloc = a->alloc ? 2 * a->alloc : 256;
			a->bins = xrealloc(a->bins, a->alloc * sizeof(*a->bins));
		}
		a->bins[a->nr++] = l.bins[i];
	}
	lat_free(&l);
}

/* The summed block: its bins sorted and merged, fio's percentiles. */
static void acc_finish(struct acc_lat *a, struct rio_lat *l)
{
	unsigned int i, n = 0;

	memset(l, 0, sizeof(*l));
	l->s.n = a->n;
	l->s.min = a->min;
	l->s.max = a->max;
	l->s.mean = a->mean;
	l->s.stdev = a->n > 1 ? sqrt(a->m2 / (double)(a->n - 1)) : 0;
	if (a->nr)	/* (no bins: no array, and qsort wants one) */
		qsort(a->bins, a->nr, sizeof(*a->bins), cmp_bin);
	for (i = 0; i < a->nr; i++) {
		if (n && a->bins[n - 1].v == a->bins[i].v)
			a->bins[n - 1].n += a->bins[i].n;
		else
			a->bins[n++] = a->bins[i];
	}
	l->bins = a->bins;
	l->nr_bins = n;
	a->bins = NULL;
	if (!a->n)
		return;
	l->pct = xcalloc(ARRAY_SIZE(stream_pcts), sizeof(*l->pct));
	for (i = 0; i < ARRAY_SIZE(stream_pcts); i++) {
		l->pct[l->nr_pct].p = stream_pcts[i];
		if (!rio_bins_percentile(l, stream_pcts[i],
					 &l->pct[l->nr_pct].v))
			l->nr_pct++;
	}
}

static void series_add(struct rio_series *s, double t, double v)
{
	s->v = xrealloc(s->v, (s->nr + 1) * sizeof(*s->v));
	s->t = xrealloc(s->t, (s->nr + 1) * sizeof(*s->t));
	s->t[s->nr] = t;
	s->v[s->nr++] = v;
	s->from_stream = true;
}

/* The job of a line: its run (one per --repeat round) and its place. */
static struct acc_job *stream_job(struct stream_rd *sr, unsigned int round,
				  unsigned int id, const char *name)
{
	struct rio_doc *doc = sr->doc;
	struct rio_run *r;
	struct acc_job *a;

	if (round >= sr->nr_rounds) {
		sr->round_run = xrealloc(sr->round_run,
					 (round + 1) * sizeof(*sr->round_run));
		while (sr->nr_rounds <= round)
			sr->round_run[sr->nr_rounds++] = UINT_MAX;
	}
	if (sr->round_run[round] == UINT_MAX) {
		doc->runs = xrealloc(doc->runs,
				     (doc->nr_runs + 1) * sizeof(*doc->runs));
		memset(&doc->runs[doc->nr_runs], 0, sizeof(*doc->runs));
		sr->round_run[round] = doc->nr_runs++;
	}
	r = &doc->runs[sr->round_run[round]];
	for (a = sr->acc; a < sr->acc + sr->nr_acc; a++)
		if (a->round == round && a->id == id)
			return a;
	sr->acc = xrealloc(sr->acc, (sr->nr_acc + 1) * sizeof(*sr->acc));
	a = &sr->acc[sr->nr_acc++];
	memset(a, 0, sizeof(*a));
	a->run = sr->round_run[round];
	a->round = round;
	a->id = id;
	r->jobs = xrealloc(r->jobs, (r->nr_jobs + 1) * sizeof(*r->jobs));
	memset(&r->jobs[r->nr_jobs], 0, sizeof(*r->jobs));
	r->jobs[r->nr_jobs].name = xstrdup(name);
	r->jobs[r->nr_jobs].index = id;
	r->nr_jobs++;
	return a;
}

static struct rio_job *acc_rio_job(struct stream_rd *sr, struct acc_job *a)
{
	struct rio_run *r = &sr->doc->runs[a->run];
	unsigned int i, k = 0;

	/* the acc's rank among its run's is the job's place */
	for (i = 0; i < sr->nr_acc && &sr->acc[i] != a; i++)
		k += sr->acc[i].run == a->run;
	return &r->jobs[k];
}

static void stream_dir(struct rio_dir_result *d, struct acc_job *a,
		       unsigned int k, const json_t *o, double end, double dur)
{
	static const char *const lk[3] = { "slat_ns", "clat_ns", "lat_ns" };
	struct rio_lat l;
	unsigned int i;
	uint64_t v;

	d->present = true;
	d->io_bytes += unum(o, "io_bytes");
	d->total_ios += unum(o, "total_ios");
	d->runtime_ms += (uint64_t)(dur + 0.5);
	for (i = 0; i < 3; i++)
		acc_add(&a->lat[k][i], json_object_get(o, lk[i]));
	series_add(&d->bw_series, end, num(o, "bw"));
	series_add(&d->iops_series, end, num(o, "iops"));
	read_lat(json_object_get(o, "clat_ns"), &l);
	for (i = 0; l.s.n && i < RIO_PCT_TIME_NR; i++)
		if (!rio_percentile(&l, rio_pct_time[i], &v))
			series_add(&d->clat_time[i], end, (double)v);
	lat_free(&l);
}

/* One line: 0, or -EINVAL with "name:line: ..." in err. */
static int stream_line(struct stream_rd *sr, const json_t *o, const char *name,
		       unsigned int line, struct strbuf *err)
{
	static const char *const need[] = { "jobid", "seq", "start_ms",
					    "end_ms" };
	const char *type = json_string_value(json_object_get(o, "type"));
	const char *job = json_string_value(json_object_get(o, "jobname"));
	struct acc_job *a;
	struct rio_job *j;
	double end, dur;
	unsigned int i, k;

	if (!json_is_object(o) || !type || strcmp(type, "interval")) {
		strbuf_addf(err, "%s:%u: not a line of an interval stream (no \"type\":\"interval\")",
			    name, line);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(need) || !job; i++) {
		if (i == ARRAY_SIZE(need) || !json_is_number(json_object_get(o, need[i]))) {
			strbuf_addf(err, "%s:%u: an interval without \"%s\"",
				    name, line, i < ARRAY_SIZE(need) ? need[i] :
				    "jobname");
			return -EINVAL;
		}
	}
	a = stream_job(sr, (unsigned int)unum(o, "round"),
		       (unsigned int)unum(o, "jobid"), job);
	if (unum(o, "seq") != a->last_seq + 1) {
		strbuf_addf(err, "%s:%u: job %u's interval %llu follows %llu: the stream lacks lines",
			    name, line, (unsigned int)unum(o, "jobid"),
			    (unsigned long long)unum(o, "seq"),
			    (unsigned long long)a->last_seq);
		return -EINVAL;
	}
	a->last_seq++;
	j = acc_rio_job(sr, a);
	j->groupid = (unsigned int)unum(o, "groupid");
	end = num(o, "end_ms");
	dur = end - num(o, "start_ms");
	for (k = 0; k < RIO_DIR_NR; k++) {
		const json_t *d = json_object_get(o, rio_dir_name[k]);

		if (json_is_object(d))
			stream_dir(&j->dir[k], a, k, d, end, dur);
	}
	a->usr += num(o, "usr_cpu") * dur;
	a->sys += num(o, "sys_cpu") * dur;
	a->dur += dur;
	j->ctx += unum(o, "ctx");
	{
		const json_t *own = json_object_get(o, "iolite");
		double ios = 0;

		for (k = 0; k < RIO_DIR_NR - 1; k++)
			ios += num(json_object_get(o, rio_dir_name[k]),
				   "total_ios");
		a->own_ns += num(own, "usr_ns_per_io") * ios;
		a->own_ios += ios;
		j->iowq_cpu_ms += num(own, "iowq_cpu_ms");
	}
	if ((int64_t)unum(o, "timestamp_ms") >
	    sr->doc->runs[a->run].timestamp_ms)
		sr->doc->runs[a->run].timestamp_ms =
			(int64_t)unum(o, "timestamp_ms");
	return 0;
}

/* The jobs' sums made figures; the runs named. */
static void stream_finish(struct stream_rd *sr, const char *name)
{
	unsigned int i, k, n, p;

	for (i = 0; i < sr->nr_acc; i++) {
		struct acc_job *a = &sr->acc[i];
		struct rio_job *j = acc_rio_job(sr, a);

		for (k = 0; k < RIO_DIR_NR; k++) {
			struct rio_dir_result *d = &j->dir[k];

			acc_finish(&a->lat[k][0], &d->slat);
			acc_finish(&a->lat[k][1], &d->clat);
			acc_finish(&a->lat[k][2], &d->lat);
			d->iops = d->runtime_ms ? (double)d->total_ios * 1000.0 /
				  (double)d->runtime_ms : 0;
			d->bw_bytes = d->runtime_ms ? (double)d->io_bytes *
				      1000.0 / (double)d->runtime_ms : 0;
			n = d->bw_series.nr;
			d->bw_series.period_ms = n ? (double)d->runtime_ms / n : 0;
			d->iops_series.period_ms = d->bw_series.period_ms;
			for (p = 0; p < RIO_PCT_TIME_NR; p++)
				d->clat_time[p].period_ms = d->bw_series.period_ms;
		}
		j->run_ms = (uint64_t)(a->dur + 0.5);
		j->usr_cpu = a->dur > 0 ? a->usr / a->dur : 0;
		j->sys_cpu = a->dur > 0 ? a->sys / a->dur : 0;
		j->usr_ns_per_io = a->own_ios > 0 ? a->own_ns / a->own_ios : 0;
		j->run_delay_pct = NAN;
	}
	for (i = sr->first_run; i < sr->doc->nr_runs; i++) {
		struct rio_run *r = &sr->doc->runs[i];

		r->source = xstrdup(name);
		r->version = xstrdup("iolite interval stream");
		if (sr->doc->nr_runs - sr->first_run > 1)
			r->repeat = i - sr->first_run + 1;
		for (k = 0; k < r->nr_jobs; k++)
			for (n = 0; n < k; n++)
				r->jobs[k].dup += !strcmp(r->jobs[n].name,
							  r->jobs[k].name);
	}
}

static int read_stream(struct rio_doc *doc, const char *name, const char *buf,
		       size_t len, struct strbuf *err)
{
	struct stream_rd sr = { doc, doc->nr_runs, NULL, 0, NULL, 0 };
	const char *p = buf, *end = buf + len, *nl;
	unsigned int line = 0, i, k, l;
	json_error_t je;
	int ret = 0;

	for (; p < end && !ret; p = nl + 1) {
		json_t *o;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		line++;
		if (strspn(p, " \t\r") >= (size_t)(nl - p))
			continue;
		o = json_loadb(p, (size_t)(nl - p), JSON_DECODE_INT_AS_REAL, &je);
		if (!o && nl == end) {
			strbuf_addf(err, "%s:%u: the last line is cut short (a stream still being written, or truncated): %s",
				    name, line, je.text);
			ret = -EINVAL;
		} else if (!o) {
			strbuf_addf(err, "%s:%u: not valid JSON: %s", name,
				    line, je.text);
			ret = -EINVAL;
		} else {
			ret = stream_line(&sr, o, name, line, err);
			json_decref(o);
		}
	}
	if (!ret)
		stream_finish(&sr, name);
	for (i = 0; i < sr.nr_acc; i++)
		for (k = 0; k < RIO_DIR_NR; k++)
			for (l = 0; l < 3; l++)
				free(sr.acc[i].lat[k][l].bins);
	free(sr.acc);
	free(sr.round_run);
	if (ret) {
		/* the runs begun here go: a clear error, no half a plot */
		for (i = sr.first_run; i < doc->nr_runs; i++)
			run_free(&doc->runs[i]);
		doc->nr_runs = sr.first_run;
	}
	return ret;
}

int rio_read_buf(struct rio_doc *doc, const char *name, const char *buf,
		 size_t len, struct strbuf *err)
{
	json_t *best = NULL, *v;
	json_error_t je, first;
	struct snaps snaps = { 0, 0, 0, false, NULL };
	const char *p = buf;
	bool failed = false;
	unsigned int line0 = 0, before = doc->nr_runs;
	int ret;

	if (is_stream(buf, len))
		return read_stream(doc, name, buf, len, err);
	/*
	 * Each line starting with '{' may open a report: fio's notes may
	 * come before it, a normal report after it, and --status-interval
	 * writes one report per interval (the last is the run's).
	 */
	while ((p = next_doc(buf, len, p))) {
		v = json_loadb(p, len - (size_t)(p - buf),
			       JSON_DISABLE_EOF_CHECK | JSON_DECODE_INT_AS_REAL,
			       &je);
		if (!v) {
			if (!failed && !best) {
				first = je;
				line0 = lines_before(buf, p);
				failed = true;
			}
			p++;
			continue;
		}
		if (json_is_object(v) &&
		    (json_object_get(v, "jobs") ||
		     json_object_get(json_object_get(v, "iolite"), "repeats"))) {
			snap_add(&snaps, v);
			json_decref(best);
			best = v;
		} else {
			json_decref(v);
		}
		p += je.position ? je.position : 1;
	}
	if (!best) {
		if (failed)
			strbuf_addf(err, "%s:%u: not valid JSON: %s", name,
				    line0 + (first.line > 0 ? first.line : 1),
				    first.text);
		else
			strbuf_addf(err, "%s: not a fio or iolite JSON report "
				    "(no \"jobs\" in it)", name);
		free(snaps.v);
		return -EINVAL;
	}
	ret = read_doc(doc, best, name, err);
	if (!ret && doc->nr_runs == before + 1 && !doc->runs[before].repeat)
		snaps_series(&snaps, &doc->runs[before]);
	free(snaps.v);
	json_decref(best);
	return ret;
}

#endif

int rio_read_file(struct rio_doc *doc, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	int ret = 0;
	ssize_t n;

	if (fd < 0) {
		ret = -errno;
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return ret;
	}
	for (;;) {
		strbuf_grow(&sb, 65536);
		n = read(fd, sb.buf + sb.len, sb.alloc - sb.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			strbuf_addf(err, "cannot read '%s': %s", path,
				    strerror(errno));
			break;
		}
		if (!n)
			break;
		sb.len += (size_t)n;
		sb.buf[sb.len] = '\0';
	}
	if (fd)
		close(fd);
	if (!ret)
		ret = rio_read_buf(doc, path, strbuf_str(&sb), sb.len, err);
	strbuf_release(&sb);
	return ret;
}
