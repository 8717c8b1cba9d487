/* SPDX-License-Identifier: MIT */
/*
 * The "html" output format: one self-contained page (plot/page.h) with
 * the run's pictures, from the results model alone, like every writer.
 *
 * Layout: the summary (command line, job files, machine, kernel,
 * iolite's version, the notes), then per group of jobs (jobs that ran
 * side by side share their charts, a series per job), per direction:
 * the figures, latency by percentile (clat, and slat and lat when the
 * engine queues, so that they differ from clat) on a log latency axis
 * against a percentile axis stretched toward the tail, the latency
 * histogram, bandwidth and IOPS over time from the sampler's series, the
 * percentiles as a table; per group: the IO depth, submit and complete
 * distributions and the CPU (usr, sys, io_uring's io-wq workers, and
 * iolite's own cost per I/O).
 *
 * Every number printed is one the JSON report prints for the same run,
 * and carries it exactly in a data attribute, as JSON writes it, so that
 * a test (or a script) can compare: on a figures row data-jobi (the
 * job's index in JSON's "jobs"), data-dir, data-iops, data-bw (bytes/s),
 * data-ios, data-runtime, data-clat-mean; on a percentile cell data-jobi,
 * data-dir, data-lat (clat, slat, lat), data-pct (JSON's key) and
 * data-ns.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/svg.h"
#include "plot/sweepplot.h"
#include "report/html.h"
#include "report/report.h"
#include "util/host.h"
#include "util/log.h"

const char *const html_dir_name[RES_DIR_NR] = {
	"read", "write", "trim", "mixed",
};

static void group_jobs_get(const struct run_result *rr, unsigned int gid,
			   struct group_jobs *g)
{
	unsigned int i;

	const char **names;

	g->rr = rr;
	g->gid = gid;
	g->nr = 0;
	g->idx = xcalloc(rr->nr_jobs ? rr->nr_jobs : 1, sizeof(*g->idx));
	for (i = 0; i < rr->nr_jobs; i++)
		if (rr->jobs[i].groupid == gid && !rr->jobs[i].not_started)
			g->idx[g->nr++] = i;
	names = xcalloc(g->nr ? g->nr : 1, sizeof(*names));
	for (i = 0; i < g->nr; i++)
		names[i] = rr->jobs[g->idx[i]].name;
	g->label = page_job_labels(names, g->nr);
	free(names);
}

/* Is direction d shown for job j (fio shows it when it moved bytes)? */
bool html_dir_shown(const struct job_result *j, unsigned int d)
{
	if (d == RES_MIXED)
		return j->unified && (j->dir[d].ios || j->dir[d].bytes);
	if (j->unified == UNIFIED_MIXED)
		return false;
	return j->dir[d].ios || j->dir[d].bytes;
}

static void fmt(struct strbuf *sb, double v, enum axis_unit u)
{
	chart_fmt(sb, v, u, 4);
}

/* A <td> with text; cls may be NULL. */
static void td_val(struct strbuf *sb, double v, enum axis_unit u)
{
	strbuf_addstr(sb, "<td>");
	fmt(sb, v, u);
	strbuf_addstr(sb, "</td>");
}

/* --- the summary ----------------------------------------------------- */

/* argv as one shell line: words with specials in single quotes */
static void command_line(const struct run_result *rr, struct strbuf *sb)
{
	unsigned int i;

	for (i = 0; i < rr->argc; i++) {
		const char *a = rr->argv[i], *p;

		if (i)
			strbuf_addch(sb, ' ');
		if (*a && !a[strcspn(a, " \t\n'\"\\$`!*?[](){};&|<>#~")]) {
			strbuf_addstr(sb, i ? a : "iolite");
			continue;
		}
		strbuf_addch(sb, '\'');
		for (p = a; *p; p++) {
			if (*p == '\'')
				strbuf_addstr(sb, "'\\''");
			else
				strbuf_addch(sb, *p);
		}
		strbuf_addch(sb, '\'');
	}
}

static void machine_line(const struct host_info *h, struct strbuf *sb)
{
	strbuf_addstr(sb, *h->hostname ? h->hostname : "?");
	if (*h->cpu_model)
		strbuf_addf(sb, ", %s", h->cpu_model);
	if (h->cpus)
		strbuf_addf(sb, ", %u CPU%s", h->cpus, h->cpus == 1 ? "" : "s");
	if (h->mem_bytes) {
		strbuf_addstr(sb, ", ");
		chart_fmt(sb, (double)h->mem_bytes, UNIT_BPS, 3);
		/* a size, not a rate */
		if (sb->len > 2 && !strcmp(sb->buf + sb->len - 2, "/s"))
			sb->len -= 2, sb->buf[sb->len] = '\0';
		strbuf_addstr(sb, " memory");
	}
}

static void summary(const struct run_result *rr, struct strbuf *sb)
{
	struct strbuf v = STRBUF_INIT;
	char when[64] = "";
	struct tm tm;
	unsigned int i;

	if (localtime_r(&rr->timestamp, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
	strbuf_addstr(sb, "<h1>iolite report</h1>\n<p class=\"sub\">");
	xml_text(sb, when);
	strbuf_addstr(sb, "</p>\n<table class=\"kv\">\n");
	if (rr->argc) {
		command_line(rr, &v);
		strbuf_addstr(sb, "<tr><th>command</th><td><code>");
		xml_text(sb, strbuf_str(&v));
		strbuf_addstr(sb, "</code></td></tr>\n");
		strbuf_reset(&v);
	}
	if (rr->host) {
		machine_line(rr->host, &v);
		page_kv(sb, "machine", strbuf_str(&v));
		page_kv(sb, "kernel", rr->host->kernel);
		strbuf_reset(&v);
	}
	strbuf_addf(&v, "iolite-%s, clock %s", IOLITE_VERSION,
		    rr->clock ? rr->clock : "?");
	page_kv(sb, "version", strbuf_str(&v));
	strbuf_addstr(sb, "</table>\n");
	for (i = 0; i < rr->nr_sources; i++) {
		strbuf_addstr(sb, "<h3>job file <code>");
		xml_text(sb, rr->sources[i].path);
		strbuf_addstr(sb, "</code></h3>\n<pre>");
		xml_text(sb, rr->sources[i].text ? rr->sources[i].text :
			 "(could not be read again for the report)");
		strbuf_addstr(sb, "</pre>\n");
	}
	page_notes(sb, rr->notes, rr->nr_notes);
	strbuf_release(&v);
}


/* --- tables ---------------------------------------------------------- */

static void jobs_table(struct strbuf *sb, const struct group_jobs *g)
{
	unsigned int k, i;

	strbuf_addstr(sb, "<table class=\"kv\">\n");
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);
		struct strbuf v = STRBUF_INIT;

		for (i = 0; i < j->nr_opts; i++) {
			if (!j->opts[i].key || !strcmp(j->opts[i].key, "name"))
				continue;
			strbuf_addf(&v, "%s%s%s%s", v.len ? " " : "",
				    j->opts[i].key, j->opts[i].val ? "=" : "",
				    j->opts[i].val ? j->opts[i].val : "");
		}
		if (j->members > 1)
			strbuf_addf(&v, "%s(%u jobs reported as one)",
				    v.len ? " " : "", j->members);
		page_kv(sb, g->label[k], strbuf_str(&v));
		strbuf_release(&v);
	}
	strbuf_addstr(sb, "</table>\n");
}

static uint64_t total_ios(const struct job_result *j, unsigned int d)
{
	return d == RES_MIXED ? j->mixed_issued[0] : j->issued[d];
}

/* One job's row of a direction's figures, JSON's values in data-*. */
static void figures_row(struct strbuf *sb, const struct group_jobs *g,
			unsigned int k, unsigned int d, bool slat)
{
	const struct job_result *j = gjob(g, k);
	const struct dir_result *dr = &j->dir[d];

	strbuf_addf(sb, "<tr data-jobi=\"%u\" data-dir=\"%s\" data-iops=\"%f\" "
		    "data-bw=\"%" PRIu64 "\" data-ios=\"%" PRIu64 "\" "
		    "data-runtime=\"%" PRIu64 "\" data-clat-mean=\"%f\"><td>",
		    g->idx[k], html_dir_name[d], dr->iops, dr->bw,
		    total_ios(j, d), dr->runtime_ms,
		    dr->clat.n ? dr->clat.mean : 0.0);
	xml_text(sb, g->label[k]);
	strbuf_addstr(sb, "</td>");
	td_val(sb, dr->iops, UNIT_NONE);
	td_val(sb, (double)dr->bw, UNIT_BPS);
	strbuf_addf(sb, "<td>%" PRIu64 "</td>", total_ios(j, d));
	strbuf_addf(sb, "<td>%" PRIu64 " ms</td>", dr->runtime_ms);
	td_val(sb, (double)dr->clat.min, UNIT_NS);
	td_val(sb, dr->clat.mean, UNIT_NS);
	td_val(sb, (double)dr->clat.max, UNIT_NS);
	if (slat) {
		td_val(sb, dr->slat.mean, UNIT_NS);
		td_val(sb, dr->lat.mean, UNIT_NS);
	}
	strbuf_addstr(sb, "</tr>\n");
}

static void figures_table(struct strbuf *sb, const struct group_jobs *g,
			  unsigned int d)
{
	bool slat = false;
	unsigned int k;

	for (k = 0; k < g->nr; k++)
		slat |= gjob(g, k)->dir[d].slat.n != 0;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"fig\"><thead><tr>"
		      "<th>job</th><th>IOPS</th><th>bandwidth</th><th>I/Os</th>"
		      "<th>runtime</th><th>clat min</th><th>clat mean</th>"
		      "<th>clat max</th>");
	if (slat)
		strbuf_addstr(sb, "<th>slat mean</th><th>lat mean</th>");
	strbuf_addstr(sb, "</tr></thead><tbody>\n");
	for (k = 0; k < g->nr; k++)
		if (html_dir_shown(gjob(g, k), d))
			figures_row(sb, g, k, d, slat);
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

static const struct pct_result *pct_of(const struct dir_result *dr,
				       const char *kind)
{
	if (!strcmp(kind, "slat"))
		return &dr->slat_pct;
	if (!strcmp(kind, "lat"))
		return &dr->lat_pct;
	return &dr->clat_pct;
}

/* Job j's value at percentile p (its own list), or -1 when not listed. */
static int pct_index(const struct job_result *j, double p)
{
	unsigned int i;

	for (i = 0; i < j->nr_pct; i++)
		if (j->pct_list[i] == p)
			return (int)i;
	return -1;
}

static void pct_cell(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int k, unsigned int d, const char *kind,
		     double p)
{
	const struct job_result *j = gjob(g, k);
	const struct pct_result *pr = pct_of(&j->dir[d], kind);
	int i = pct_index(j, p);

	if (!pr->on || i < 0 || !html_dir_shown(j, d)) {
		strbuf_addstr(sb, "<td></td>");
		return;
	}
	strbuf_addf(sb, "<td data-jobi=\"%u\" data-dir=\"%s\" data-lat=\"%s\" "
		    "data-pct=\"%f\" data-ns=\"%" PRIu64 "\">", g->idx[k],
		    html_dir_name[d], kind, p, pr->val[i]);
	fmt(sb, (double)pr->val[i], UNIT_NS);
	strbuf_addstr(sb, "</td>");
}

/* The percentiles of one latency kind: a row per job, a column each. */
static void pct_table(struct strbuf *sb, const struct group_jobs *g,
		      unsigned int d, const char *kind)
{
	const struct job_result *first = NULL;
	unsigned int k, i, b;

	for (k = 0; k < g->nr && !first; k++)
		if (pct_of(&gjob(g, k)->dir[d], kind)->on)
			first = gjob(g, k);
	if (!first || !first->nr_pct)
		return;
	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"pct\">\n");
	/* a block of columns at a time: 17 columns fit no page */
	for (b = 0; b < first->nr_pct; b += PAGE_PCT_COLS) {
		unsigned int e = b + PAGE_PCT_COLS < first->nr_pct ?
				 b + PAGE_PCT_COLS : first->nr_pct;

		strbuf_addf(sb, "<tbody><tr class=\"ph\"><th>%s percentiles</th>",
			    kind);
		for (i = b; i < e; i++)
			strbuf_addf(sb, "<th>%.*f</th>", first->pct_precision,
				    first->pct_list[i]);
		strbuf_addstr(sb, "</tr>\n");
		for (k = 0; k < g->nr; k++) {
			if (!pct_of(&gjob(g, k)->dir[d], kind)->on)
				continue;
			strbuf_addstr(sb, "<tr><td>");
			xml_text(sb, g->label[k]);
			strbuf_addstr(sb, "</td>");
			for (i = b; i < e; i++)
				pct_cell(sb, g, k, d, kind, first->pct_list[i]);
			strbuf_addstr(sb, "</tr>\n");
		}
		strbuf_addstr(sb, "</tbody>\n");
	}
	strbuf_addstr(sb, "</table></div>\n");
}

static void cpu_table(struct strbuf *sb, const struct group_jobs *g)
{
	unsigned int k;

	strbuf_addstr(sb, "<div class=\"wide\"><table class=\"cpu\"><thead><tr>"
		      "<th>job</th><th>usr</th><th>sys</th><th>ctx</th>"
		      "<th>iolite usr per I/O</th><th>io-wq CPU</th>"
		      "<th>io-wq threads</th></tr></thead><tbody>\n");
	for (k = 0; k < g->nr; k++) {
		const struct job_result *j = gjob(g, k);

		strbuf_addf(sb, "<tr data-jobi=\"%u\" data-usr-cpu=\"%f\" "
			    "data-sys-cpu=\"%f\" data-usr-ns-per-io=\"%f\"><td>",
			    g->idx[k], j->usr_cpu, j->sys_cpu, j->usr_ns_per_io);
		xml_text(sb, g->label[k]);
		strbuf_addf(sb, "</td><td>%.2f%%</td><td>%.2f%%</td>"
			    "<td>%" PRIu64 "</td>", j->usr_cpu, j->sys_cpu,
			    j->ctx);
		td_val(sb, j->usr_ns_per_io, UNIT_NS);
		strbuf_addf(sb, "<td>%.3f ms</td><td>%u</td></tr>\n",
			    (double)j->iowq_cpu_ns / 1e6, j->iowq_threads);
	}
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

/* --- the page -------------------------------------------------------- */

static void dir_section(struct strbuf *sb, const struct group_jobs *g,
			unsigned int d)
{
	static const char *const kinds[] = { "clat", "slat", "lat" };
	unsigned int i, k;

	strbuf_addf(sb, "<h3 id=\"g%u-%s\">%s</h3>\n", g->gid, html_dir_name[d],
		    html_dir_name[d]);
	figures_table(sb, g, d);
	strbuf_addstr(sb, "<div class=\"grid\">\n");
	html_pct_charts(sb, g, d);
	html_hist_chart(sb, g, d);
	html_time_charts(sb, g, d);
	/* side by side jobs compared */
	for (i = 0, k = 0; i < g->nr; i++)
		k += html_dir_shown(gjob(g, i), d);
	if (k > 1)
		html_jobs_chart(sb, g, d);
	strbuf_addstr(sb, "</div>\n");
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		pct_table(sb, g, d, kinds[i]);
}

static void group_section(struct strbuf *sb, const struct run_result *rr,
			  unsigned int gid)
{
	struct group_jobs g;
	unsigned int d, k;

	group_jobs_get(rr, gid, &g);
	if (!g.nr) {
		free(g.idx);
		page_labels_free(g.label, g.nr);
		return;
	}
	strbuf_addf(sb, "<section id=\"g%u\">\n<h2>Group %u</h2>\n", gid, gid);
	jobs_table(sb, &g);
	for (d = 0; d < RES_DIR_NR; d++) {
		bool any = false;

		for (k = 0; k < g.nr; k++)
			any |= html_dir_shown(gjob(&g, k), d);
		if (any)
			dir_section(sb, &g, d);
	}
	strbuf_addstr(sb, "<h3>Queue and CPU</h3>\n<div class=\"grid\">\n");
	html_dist_charts(sb, &g);
	html_cpu_chart(sb, &g);
	strbuf_addstr(sb, "</div>\n");
	cpu_table(sb, &g);
	html_profile_section(sb, rr, gid);
	strbuf_addstr(sb, "</section>\n");
	free(g.idx);
	page_labels_free(g.label, g.nr);
}

static void disks_table(struct strbuf *sb, const struct run_result *rr)
{
	unsigned int i;

	if (!rr->nr_disks)
		return;
	strbuf_addstr(sb, "<h2>Disks</h2>\n<table><thead><tr><th>device</th>"
		      "<th>read I/Os</th><th>write I/Os</th><th>read merges</th>"
		      "<th>write merges</th><th>in queue</th><th>util</th>"
		      "</tr></thead><tbody>\n");
	for (i = 0; i < rr->nr_disks; i++) {
		const struct disk_result *dk = &rr->disks[i];

		strbuf_addstr(sb, "<tr><td>");
		xml_text(sb, dk->name);
		strbuf_addf(sb, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td>"
			    "<td>%" PRIu64 "</td><td>%" PRIu64 "</td>"
			    "<td>%" PRIu64 " ms</td><td>%.2f%%</td></tr>\n",
			    dk->ios[0], dk->ios[1], dk->merges[0],
			    dk->merges[1], dk->time_in_queue, dk->util);
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

/*
 * A --sweep run: its figures against the swept value, drawn from the
 * run's JSON report read back (plot/sweepplot.h), the layout --sweep
 * writes and `iolite plot` reads; nothing for other runs
 */
static void sweep_charts(const struct run_result *rr, struct strbuf *sb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	if (!report_json.write(rr, m) && !fflush(m))
		sweepplot_report(sb, buf, len);
	fclose(m);
	free(buf);
}

static int html_write(const struct run_result *rr, FILE *f)
{
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT;
	unsigned int g;
	int ret = 0;

	strbuf_addstr(&title, "iolite");
	if (rr->nr_jobs)
		strbuf_addf(&title, ": %s%s", rr->jobs[0].name,
			    rr->nr_jobs > 1 ? " ..." : "");
	page_begin(&sb, strbuf_str(&title));
	summary(rr, &sb);
	sweep_charts(rr, &sb);
	for (g = 0; g < rr->nr_groups; g++)
		group_section(&sb, rr, g);
	disks_table(&sb, rr);
	page_end(&sb);
	if (fwrite(sb.buf, 1, sb.len, f) != sb.len || fflush(f))
		ret = -EIO;
	strbuf_release(&sb);
	strbuf_release(&title);
	return ret;
}

const struct report_ops report_html = {
	.name = "html",
	.write = html_write,
};
