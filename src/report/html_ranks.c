/* SPDX-License-Identifier: MIT */
/*
 * iolite-mpi's page: each rank's share of a group (the results model's
 * client_report.ranks, which rank 0 gathers: a rank's jobs of the group
 * summed per direction), so that an imbalance between ranks shows where
 * "All clients" hides it. Per direction: the spread in one line (the
 * lowest and highest rank, their ratio, the mean and the coefficient of
 * variation), a bar per rank of its IOPS, and a table of every rank's
 * figures. A rank's IOPS and bandwidth are its I/Os and bytes over its
 * longest job's runtime, as the rank summary of the normal report and
 * JSON (IOLITE_MPI_HOSTS=summary) computes them; each table row carries
 * them exactly in data attributes (data-rank, data-dir, data-iops,
 * data-bw, data-ios, data-runtime) for tests and scripts, and the
 * spread line data-min, data-max and data-ratio.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/svg.h"
#include "report/html.h"
#include "util/log.h"

static const char *const dir_names[RES_DIR_NR] = { "read", "write", "trim",
						   "mixed" };

static double rate(uint64_t n, uint64_t ms)
{
	return ms ? (double)n * 1000.0 / (double)ms : 0.0;
}

/* The group's ranks (indexes into cl->ranks), in rank order. */
static unsigned int group_ranks(const struct client_report *cl,
				unsigned int gid, unsigned int *idx)
{
	unsigned int i, n = 0, k;

	for (i = 0; i < cl->nr_ranks; i++) {
		if (cl->ranks[i].groupid != gid)
			continue;
		for (k = n; k > 0 && cl->ranks[idx[k - 1]].rank >
				     cl->ranks[i].rank; k--)
			idx[k] = idx[k - 1];
		idx[k] = i;
		n++;
	}
	return n;
}

static void spread_line(struct strbuf *sb, const struct client_report *cl,
			const unsigned int *idx, unsigned int n, unsigned int d)
{
	const struct client_rank *lo = NULL, *hi = NULL;
	double sum = 0, sq = 0, mean, cv, vlo = 0, vhi = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct client_rank *r = &cl->ranks[idx[i]];
		double v = rate(r->ios[d], r->runtime_ms[d]);

		sum += v;
		sq += v * v;
		if (!lo || v < vlo)
			lo = r, vlo = v;
		if (!hi || v > vhi)
			hi = r, vhi = v;
	}
	mean = sum / n;
	cv = n > 1 && mean > 0 ? sqrt(fmax(0, (sq - n * mean * mean) /
					   (n - 1))) / mean : 0;
	strbuf_addf(sb, "<p class=\"spread\" data-dir=\"%s\" data-min=\"%f\" "
		    "data-max=\"%f\" data-ratio=\"%f\"><b>%s IOPS per rank</b>: "
		    "lowest ", dir_names[d], vlo, vhi, vlo > 0 ? vhi / vlo : 0,
		    dir_names[d]);
	chart_fmt(sb, vlo, UNIT_NONE, 3);
	strbuf_addf(sb, " (rank %d), highest ", lo->rank);
	chart_fmt(sb, vhi, UNIT_NONE, 3);
	strbuf_addf(sb, " (rank %d): ", hi->rank);
	if (vlo > 0)
		strbuf_addf(sb, "%.2fx", vhi / vlo);
	else
		strbuf_addstr(sb, "a rank did none");
	strbuf_addstr(sb, "; mean ");
	chart_fmt(sb, mean, UNIT_NONE, 3);
	strbuf_addf(sb, ", coefficient of variation %.1f%%</p>\n", 100 * cv);
}

static void bars(struct strbuf *sb, const struct client_report *cl,
		 const unsigned int *idx, unsigned int n, unsigned int d,
		 unsigned int gid)
{
	struct chart c;
	struct chart_series *s;
	char **cats = xcalloc(n, sizeof(*cats));
	struct strbuf id = STRBUF_INIT, t = STRBUF_INIT;
	unsigned int i;

	strbuf_addf(&id, "g%u-rank-iops-%s", gid, dir_names[d]);
	strbuf_addf(&t, "%s IOPS per rank", dir_names[d]);
	chart_init(&c, id.buf, t.buf);
	strbuf_release(&id);
	strbuf_reset(&t);
	for (i = 0; i < n; i++) {
		strbuf_addf(&t, "rank %d", cl->ranks[idx[i]].rank);
		cats[i] = strbuf_detach(&t);
	}
	c.x.scale = AXIS_CAT;
	c.x.title = "rank";
	c.x.cats = (const char *const *)cats;
	c.x.nr_cats = n;
	c.y.title = "IOPS";
	c.y.zero = true;
	s = chart_add(&c, SERIES_BAR, dir_names[d]);
	for (i = 0; i < n; i++) {
		const struct client_rank *r = &cl->ranks[idx[i]];

		chart_point(s, i, rate(r->ios[d], r->runtime_ms[d]));
	}
	chart_render(&c, sb, false);
	chart_release(&c);
	for (i = 0; i < n; i++)
		free(cats[i]);
	free(cats);
}

static void table(struct strbuf *sb, const struct client_report *cl,
		  const unsigned int *idx, unsigned int n, unsigned int d)
{
	unsigned int i;

	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"ranks\"><thead>"
		      "<tr><th>rank</th><th>host</th><th>jobs</th><th>IOPS</th>"
		      "<th>bandwidth</th><th>I/Os</th><th>runtime</th></tr>"
		      "</thead><tbody>\n");
	for (i = 0; i < n; i++) {
		const struct client_rank *r = &cl->ranks[idx[i]];
		double iops = rate(r->ios[d], r->runtime_ms[d]);
		uint64_t bw = r->runtime_ms[d] ? r->bytes[d] * 1000 /
			      r->runtime_ms[d] : 0;

		strbuf_addf(sb, "<tr data-rank=\"%d\" data-dir=\"%s\" "
			    "data-iops=\"%f\" data-bw=\"%" PRIu64 "\" "
			    "data-ios=\"%" PRIu64 "\" data-runtime=\"%" PRIu64
			    "\"><td>%d</td><td>", r->rank, dir_names[d], iops,
			    bw, r->ios[d], r->runtime_ms[d], r->rank);
		xml_text(sb, r->host);
		strbuf_addf(sb, "</td><td>%u</td>", r->jobs);
		page_td_val(sb, iops, UNIT_NONE);
		page_td_val(sb, (double)bw, UNIT_BPS);
		strbuf_addf(sb, "<td>%" PRIu64 "</td><td>%" PRIu64 " ms</td>"
			    "</tr>\n", r->ios[d], r->runtime_ms[d]);
	}
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

void html_ranks_section(struct strbuf *sb, const struct run_result *rr,
			unsigned int gid)
{
	const struct client_report *cl = rr->client;
	unsigned int *idx, n, i, d;

	if (!cl || !cl->nr_ranks)
		return;
	idx = xcalloc(cl->nr_ranks, sizeof(*idx));
	n = group_ranks(cl, gid, idx);
	if (n)
		strbuf_addf(sb, "<h3>Ranks</h3>\n<p class=\"sub\">Each rank's "
			    "jobs of the group, summed: %u rank%s</p>\n", n,
			    n == 1 ? "" : "s");
	for (d = 0; n && d < RES_DIR_NR; d++) {
		bool any = false;

		for (i = 0; i < n; i++)
			any = any || cl->ranks[idx[i]].ios[d];
		if (!any)
			continue;
		spread_line(sb, cl, idx, n, d);
		bars(sb, cl, idx, n, d, gid);
		table(sb, cl, idx, n, d);
	}
	free(idx);
}
