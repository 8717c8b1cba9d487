/* SPDX-License-Identifier: MIT */
/* `iolite plot` on JSON results: see resplot.h. */
#include "plot/resplot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plot/page.h"
#include "plot/repeatplot.h"
#include "plot/runcharts.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "stats/results.h"
#include "plot/sweepplot.h"
#include "util/log.h"

_Static_assert((int)RC_DIR_NR == (int)RIO_DIR_NR, "read, write, trim, mixed");

bool resplot_dir_used(const struct rio_dir_result *d)
{
	return d->present && (d->total_ios || d->io_bytes);
}

bool resplot_flagged(const struct rio_job *j, unsigned int d,
		     struct strbuf *why)
{
	const struct rio_dir_result *r = &j->dir[d];

	strbuf_reset(why);
	if (j->run_delay_pct > RESULT_FLAG_DELAY_PCT)
		strbuf_addf(why, "the tester starved of CPU %.1f%% of its run",
			    j->run_delay_pct);
	if (resplot_dir_used(r) && r->runtime_ms &&
	    r->runtime_ms < RESULT_FLAG_MIN_MS)
		strbuf_addf(why, "%smeasured for %" PRIu64 " ms",
			    why->len ? "; " : "", r->runtime_ms);
	return why->len > 0;
}

/* --- the file's figures into plot/runcharts.h's model ---------------- */

/* The json+ bins back in the buckets they came from (NULL: none). */
static struct hist *bins_hist(const struct rio_lat *l)
{
	struct hist *h;
	unsigned int i;

	if (!l->nr_bins)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	for (i = 0; i < l->nr_bins; i++)
		hist_add_n(h, l->bins[i].v, l->bins[i].n);
	return h;
}

/* clat, slat, lat: rc_lat_kind's order */
static const struct rio_lat *lat_of(const struct rio_dir_result *d,
				    unsigned int kind)
{
	return kind == RC_SLAT ? &d->slat : kind == RC_LAT ? &d->lat : &d->clat;
}

/* The summary; the histogram and percentiles of a direction shown. */
static void fill_lat(struct rc_lat *out, const struct rio_lat *l, bool shown)
{
	struct rc_pct *pc;
	unsigned int i;

	out->n = l->s.n;
	out->min = l->s.min;
	out->max = l->s.max;
	out->mean = l->s.mean;
	if (!shown)
		return;
	out->hist = bins_hist(l);
	out->own_hist = true;
	pc = rc_pct_alloc(out, l->nr_pct);
	for (i = 0; i < l->nr_pct; i++)
		pc[i] = (struct rc_pct){ l->pct[i].p, l->pct[i].v };
}

unsigned int resplot_lat_series(struct chart_series *s, const struct rio_lat *l,
				const char *who, const char *kind, double pmax)
{
	struct rc_lat rl = { 0 };
	unsigned int marks;

	fill_lat(&rl, l, true);
	marks = rc_lat_series(s, &rl, who, kind, -1, pmax);
	rc_lat_release(&rl);
	return marks;
}

/*
 * A report keeps a series' mean spacing, not each time; an interval
 * stream each point's time.
 */
static void fill_time(struct rc_time *t, const struct rio_series *se,
		      double scale)
{
	double p = se->period_ms > 0 ? se->period_ms : 500;
	struct rc_point *pt = rc_time_alloc(t, se->nr);
	unsigned int i;

	for (i = 0; i < se->nr; i++)
		pt[i] = (struct rc_point){ se->t ? se->t[i] :
					   (double)(i + 1) * p,
					   se->v[i] * scale };
	t->period_ms = p;
	t->per_point = 1;
	t->from_reports = se->from_reports;
	t->from_stream = se->from_stream;
}

static void fill_dir(struct rc_dir *rd, const struct rio_dir_result *dr)
{
	unsigned int i;

	rd->shown = resplot_dir_used(dr);
	rd->iops = dr->iops;
	rd->bw = dr->bw_bytes;
	rd->ios = dr->total_ios;
	rd->runtime_ms = dr->runtime_ms;
	for (i = 0; i < RC_LAT_NR; i++)
		fill_lat(&rd->lat[i], lat_of(dr, i), rd->shown);
	/* the samples are KiB/s, as fio keeps them */
	rd->bw_range = dr->bw_samples.n != 0;
	rd->bw_lo = dr->bw_samples.min * 1024.0;
	rd->bw_hi = dr->bw_samples.max * 1024.0;
	fill_time(&rd->time[0], &dr->bw_series, 1024.0);
	fill_time(&rd->time[1], &dr->iops_series, 1.0);
	fill_time(&rd->time[2], &dr->clat_series, 1.0);
	for (i = 0; i < RC_PCT_TIME_NR && i < RIO_PCT_TIME_NR; i++) {
		fill_time(&rd->clat_time[i], &dr->clat_time[i], 1.0);
		rd->clat_time[i].pct = rio_pct_time[i];
	}
}

static void fill_bars(struct rc_group *g, unsigned int k,
		      const struct rio_job *jb)
{
	struct rc_job *b = &g->jobs[k];
	unsigned int i;

	for (i = 0; i < RC_DIST_NR && i < RIO_DIST_NR; i++) {
		b->dist[RC_DEPTH][i] = jb->depth[i];
		b->dist[RC_SUBMIT][i] = jb->submit[i];
		b->dist[RC_COMPLETE][i] = jb->complete[i];
	}
	b->usr = jb->usr_cpu;
	b->sys = jb->sys_cpu;
	b->iowq = jb->run_ms ? jb->iowq_cpu_ms * 100.0 / (double)jb->run_ms : 0;
	g->iowq |= jb->iowq_cpu_ms > 0;
	g->depth |= jb->has_dist;
	/*
	 * The report draws the calls when the engine made submit calls; the
	 * file does not say, but a queue deeper than one does
	 */
	g->calls |= jb->has_dist && jb->depth[0] < 99.999;
}

/* --- the sections ---------------------------------------------------- */

/* Group gid of run r into g (rc_group_release() it). */
static void fill_group(struct rc_group *g, const struct rio_run *r,
		       unsigned int gid)
{
	const char **names = xcalloc(r->nr_jobs + 1, sizeof(*names));
	unsigned int *idx = xcalloc(r->nr_jobs + 1, sizeof(*idx));
	unsigned int j, nr = 0, d;

	for (j = 0; j < r->nr_jobs; j++)
		if (r->jobs[j].groupid == gid) {
			idx[nr] = j;
			names[nr++] = r->jobs[j].name;
		}
	rc_group_init(g, RC_FILE, gid, names, nr);
	for (j = 0; j < nr; j++) {
		g->jobs[j].index = idx[j];
		g->jobs[j].pct_prec = -1;
		for (d = 0; d < RC_DIR_NR; d++)
			fill_dir(&g->jobs[j].dir[d], &r->jobs[idx[j]].dir[d]);
		fill_bars(g, j, &r->jobs[idx[j]]);
	}
	free(names);
	free(idx);
}

static void group_section(struct sink *k, const struct rio_run *r,
			  unsigned int gid)
{
	struct rc_group g;

	fill_group(&g, r, gid);
	if (k->o->format == PLOT_HTML)
		strbuf_addf(k->page, "<h2>Group %u</h2>\n", gid);
	runcharts_dirs(k, &g);
	runcharts_queue_cpu(k, &g);
	rc_group_release(&g);
}

static void run_head(struct sink *k, const struct rio_run *r, const char *path)
{
	struct strbuf *sb = k->page, v = STRBUF_INIT;
	unsigned int i;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<section>\n<h2>");
	xml_text(sb, path);
	if (r->repeat)
		strbuf_addf(sb, ", run %u of %u", r->repeat, r->nr_repeats);
	strbuf_addstr(sb, "</h2>\n<table class=\"kv\">\n");
	page_kv(sb, "made by", *r->version ? r->version : "?");
	if (r->timestamp_ms) {
		time_t t = (time_t)(r->timestamp_ms / 1000);
		struct tm tm;
		char when[64] = "";

		if (localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
		page_kv(sb, "ended", when);
	}
	for (i = 0; i < r->nr_global; i++)
		strbuf_addf(&v, "%s%s%s%s", v.len ? " " : "", r->global[i].key,
			    r->global[i].val ? "=" : "",
			    r->global[i].val ? r->global[i].val : "");
	if (v.len)
		page_kv(sb, "global options", v.buf);
	strbuf_addstr(sb, "</table>\n");
	page_notes(sb, (const char *const *)r->notes, r->nr_notes);
	strbuf_release(&v);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * A run's section; reps (nr_reps runs, r the last) when r ends repeats
 * with their summary: those runs as one result first, then r's charts
 */
static void run_section(struct sink *k, const struct rio_run *r,
			const char *path, const struct rio_run *reps,
			unsigned int nr_reps)
{
	unsigned int *gids = xcalloc(r->nr_jobs + 1, sizeof(*gids));
	unsigned int i, n = 0;

	run_head(k, r, path);
	/*
	 * A sweep's points are its figures against the swept value (a
	 * repeated one's the means with their intervals); the per-run
	 * charts of every point at once would be a tangle (a point's own
	 * page: run that point alone)
	 */
	if (sweepplot_is_sweep(r)) {
		sweepplot_run(k, r);
		if (reps)
			repeatplot_runs(k, reps, nr_reps);
		sink_html(k, "</section>\n");
		free(gids);
		return;
	}
	if (reps) {
		repeatplot_runs(k, reps, nr_reps);
		if (k->o->format == PLOT_HTML)
			strbuf_addf(k->page, "<h2>Run %u of %u: its own "
				    "charts</h2>\n<p class=\"sub\">The last "
				    "run's figures; the runs before it are in "
				    "the table above.</p>\n", r->repeat,
				    r->nr_repeats);
	}
	for (i = 0; i < r->nr_jobs; i++)
		gids[n++] = r->jobs[i].groupid;
	qsort(gids, n, sizeof(*gids), cmp_uint);
	for (i = 0; i < n; i++)
		if (!i || gids[i] != gids[i - 1])
			group_section(k, r, gids[i]);
	sink_html(k, "</section>\n");
	free(gids);
}

/*
 * Is run i of doc one of whole repeats ending in a run with their
 * summary? *first: the first run of them.
 */
static bool repeats_whole(const struct rio_doc *doc, unsigned int i,
			  unsigned int *first)
{
	const struct rio_run *r = &doc->runs[i];
	unsigned int last = i + r->nr_repeats - r->repeat;

	if (!r->repeat || r->repeat > r->nr_repeats || r->repeat > i + 1 ||
	    last >= doc->nr_runs || !repeatplot_is_last(&doc->runs[last]))
		return false;
	*first = i + 1 - r->repeat;
	return true;
}

void resplot_doc(struct sink *k, const struct rio_doc *doc, const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(name, '.');
	struct strbuf base = STRBUF_INIT;
	unsigned int i;

	for (i = 0; i < doc->nr_runs; i++) {
		const struct rio_run *r = &doc->runs[i];
		unsigned int first = 0;

		/* repeats with their summary: one result, at the last run */
		if (repeats_whole(doc, i, &first) && r->repeat < r->nr_repeats)
			continue;
		strbuf_reset(&base);
		strbuf_add(&base, name, dot && dot != name ?
			   (size_t)(dot - name) : strlen(name));
		if (r->repeat)
			strbuf_addf(&base, "-run%u", r->repeat);
		sink_base(k, base.buf);
		if (repeats_whole(doc, i, &first))
			run_section(k, r, path, &doc->runs[first],
				    r->nr_repeats);
		else
			run_section(k, r, path, NULL, 0);
	}
	strbuf_release(&base);
}

/* The distinct group ids of r's jobs, in order, into gids; returns nr. */
static unsigned int run_gids(const struct rio_run *r, unsigned int *gids)
{
	unsigned int i, n = 0, nr = 0;

	for (i = 0; i < r->nr_jobs; i++)
		gids[n++] = r->jobs[i].groupid;
	qsort(gids, n, sizeof(*gids), cmp_uint);
	for (i = 0; i < n; i++)
		if (!i || gids[i] != gids[nr - 1])
			gids[nr++] = gids[i];
	return nr;
}

void resplot_stream(struct strbuf *page, const char *path)
{
	struct plot_opts o = { .format = PLOT_HTML };
	struct strbuf err = STRBUF_INIT;
	struct sink k = { .o = &o, .page = page, .err = &err };
	struct rio_doc doc = { NULL, 0 };
	unsigned int i, n, *gids;

	strbuf_addstr(page, "<section>\n<h2 id=\"stream\">Over time: the "
		      "interval stream</h2>\n<p class=\"sub\">Each "
		      "interval's own figures, from ");
	xml_text(page, path);
	strbuf_addstr(page, " (--interval-output), a point per interval at its "
		      "end: how the run evolved, where the figures above are "
		      "its end.</p>\n");
	if (!rio_available()) {
		strbuf_addstr(page, "<p>The stream's charts need jansson to "
			      "read it back: this iolite was built without it "
			      "(apt install libjansson-dev, then rebuild; or "
			      "iolite plot on the stream).</p>\n</section>\n");
		return;
	}
	if (rio_read_file(&doc, path, &err)) {
		strbuf_addstr(page, "<p class=\"note\">Cannot draw it: ");
		xml_text(page, err.buf ? err.buf : "");
		strbuf_addstr(page, "</p>\n");
	}
	for (i = 0; i < doc.nr_runs; i++) {
		const struct rio_run *r = &doc.runs[i];
		unsigned int g;

		if (doc.nr_runs > 1)
			strbuf_addf(page, "<h3>run %u</h3>\n", i + 1);
		gids = xcalloc(r->nr_jobs + 1, sizeof(*gids));
		n = run_gids(r, gids);
		for (g = 0; g < n; g++) {
			struct rc_group rg;

			fill_group(&rg, r, gids[g]);
			runcharts_over_time(&k, &rg);
			rc_group_release(&rg);
		}
		free(gids);
	}
	strbuf_addstr(page, "</section>\n");
	rio_doc_release(&doc);
	sink_release(&k);
	strbuf_release(&err);
}

void resplot_report(struct strbuf *page, const char *json, size_t len)
{
	struct plot_opts o = { .format = PLOT_HTML };
	struct strbuf err = STRBUF_INIT;
	struct sink k = { .o = &o, .page = page, .err = &err };
	struct rio_doc doc = { NULL, 0 };
	const struct rio_run *last;

	/* most runs are neither: a look at the text before parsing it */
	if (!memmem(json, len, "\"sweep\"", 7) &&
	    !memmem(json, len, "\"repeats\"", 9))
		return;
	if (!rio_available()) {
		strbuf_addstr(page, "<p>The sweep's and the repeats' charts "
			      "need jansson to read the run's JSON back: this "
			      "iolite was built without it (apt install "
			      "libjansson-dev, then rebuild; or iolite plot on "
			      "the JSON report).</p>\n");
		return;
	}
	if (!rio_read_buf(&doc, "the report", json, len, &err) &&
	    doc.nr_runs) {
		last = &doc.runs[doc.nr_runs - 1];
		if (sweepplot_is_sweep(last))
			sweepplot_run(&k, last);
		if (repeatplot_is_last(last) && doc.nr_runs == last->nr_repeats)
			repeatplot_runs(&k, doc.runs, doc.nr_runs);
	}
	rio_doc_release(&doc);
	sink_release(&k);
	strbuf_release(&err);
}
