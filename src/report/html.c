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
 * iolite's own cost per I/O). The charts and the figures and percentile
 * tables are plot/runcharts.h's, from the model html_charts.c fills, as
 * `iolite plot` draws the run's JSON; this file writes the rest.
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/runcharts.h"
#include "plot/sink.h"
#include "plot/svg.h"
#include "plot/resplot.h"
#include "report/html.h"
#include "report/report.h"
#include "util/host.h"
#include "util/log.h"

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
		page_kv(sb, g->rc.label[k], strbuf_str(&v));
		strbuf_release(&v);
	}
	strbuf_addstr(sb, "</table>\n");
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
		xml_text(sb, g->rc.label[k]);
		strbuf_addf(sb, "</td><td>%.2f%%</td><td>%.2f%%</td>"
			    "<td>%" PRIu64 "</td>", j->usr_cpu, j->sys_cpu,
			    j->ctx);
		page_td_val(sb, j->usr_ns_per_io, UNIT_NS);
		strbuf_addf(sb, "<td>%.3f ms</td><td>%u</td></tr>\n",
			    (double)j->iowq_cpu_ns / 1e6, j->iowq_threads);
	}
	strbuf_addstr(sb, "</tbody></table></div>\n");
}

/* --- the page -------------------------------------------------------- */

/* A sweep's group: "iodepth=4,force_async=1", its point; else nothing. */
static void point_label(const struct run_result *rr, unsigned int gid,
			struct strbuf *sb)
{
	const struct result_sweep *s = rr->sweep;
	unsigned int i, k, p;

	for (i = 0; s && i < rr->nr_jobs; i++) {
		if (rr->jobs[i].groupid != gid || !rr->jobs[i].plan)
			continue;
		p = result_sweep_point(s, &rr->jobs[i]);
		for (k = 0; k < s->nr_opts && p < s->nr_points; k++)
			strbuf_addf(sb, "%s%s=%s", k ? "," : "", s->opts[k],
				    s->vals[p * s->nr_opts + k]);
		return;
	}
}

/*
 * A group's section. A sweep's groups are its points, drawn against
 * each other above: each point's own block folded (<details>), so that
 * the page is the sweep, not a run's block per point
 */
static void group_section(struct strbuf *sb, const struct run_result *rr,
			  unsigned int gid)
{
	struct plot_opts o = { .format = PLOT_HTML };
	struct sink k = { .o = &o, .page = sb };
	struct strbuf pt = STRBUF_INIT;
	struct group_jobs g;

	html_group_get(rr, gid, &g);
	point_label(rr, gid, &pt);
	if (g.nr) {
		strbuf_addf(sb, "<section id=\"g%u\">\n", gid);
		if (pt.len) {
			strbuf_addf(sb, "<details><summary><h2 class=\"pt\">"
				    "Group %u, point ", gid);
			xml_text(sb, pt.buf);
			strbuf_addstr(sb, ": its own charts</h2></summary>\n");
		} else {
			strbuf_addf(sb, "<h2>Group %u</h2>\n", gid);
		}
		jobs_table(sb, &g);
		html_ranks_section(sb, rr, gid);
		runcharts_dirs(&k, &g.rc);
		runcharts_queue_cpu(&k, &g.rc);
		cpu_table(sb, &g);
		html_profile_section(sb, rr, gid);
		strbuf_addstr(sb, pt.len ? "</details>\n</section>\n" :
			      "</section>\n");
	}
	html_group_release(&g);
	strbuf_release(&pt);
}

/*
 * The page's contents, when it has more than one part to go to: the
 * sweep, the repeats, each group (a sweep's: its point), the disks
 */
static void contents(struct strbuf *sb, const struct run_result *rr)
{
	struct strbuf pt = STRBUF_INIT;
	unsigned int g;

	if (!rr->sweep && rr->nr_repeats < 2 && rr->nr_groups < 3)
		return;
	strbuf_addstr(sb, "<nav class=\"toc\"><h3>Contents</h3><ul>\n");
	if (rr->sweep)
		strbuf_addstr(sb, "<li><a href=\"#sweep\">the sweep: its "
			      "figures against the swept values</a></li>\n");
	if (rr->nr_repeats > 1)
		strbuf_addf(sb, "<li><a href=\"#repeats\">%u runs as one "
			    "result</a></li>\n", rr->nr_repeats);
	for (g = 0; g < rr->nr_groups; g++) {
		strbuf_reset(&pt);
		point_label(rr, g, &pt);
		strbuf_addf(sb, "<li><a href=\"#g%u\">group %u", g, g);
		if (pt.len) {
			strbuf_addstr(sb, ", point ");
			xml_text(sb, pt.buf);
		}
		strbuf_addstr(sb, "</a></li>\n");
	}
	if (rr->interval_stream)
		strbuf_addstr(sb, "<li><a href=\"#stream\">over time: the "
			      "interval stream</a></li>\n");
	if (rr->nr_disks)
		strbuf_addstr(sb, "<li><a href=\"#disks\">disks</a></li>\n");
	strbuf_addstr(sb, "<li><a href=\"#targets\">targets</a></li>\n");
	strbuf_addstr(sb, "</ul></nav>\n");
	strbuf_release(&pt);
}

static void disks_table(struct strbuf *sb, const struct run_result *rr)
{
	unsigned int i;

	if (!rr->nr_disks)
		return;
	strbuf_addstr(sb, "<h2 id=\"disks\">Disks</h2>\n<table><thead><tr>"
		      "<th>device</th>"
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
 * A --repeat or --sweep run: its runs as one result, its figures
 * against the swept value, drawn from the run's JSON report read back
 * (plot/resplot.h), the layout they write and `iolite plot` reads;
 * nothing for other runs
 */
static void sweep_charts(const struct run_result *rr, struct strbuf *sb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (rr->client)		/* iolite-mpi: never a sweep */
		return;
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	if (!report_json.write(rr, m) && !fflush(m))
		resplot_report(sb, buf, len);
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
	contents(&sb, rr);
	sweep_charts(rr, &sb);
	if (rr->nr_repeats > 1)
		strbuf_addf(&sb, "<h2>Run %u of %u: its own charts</h2>\n"
			    "<p class=\"sub\">The last run's figures; every "
			    "run's are in the table above.</p>\n",
			    rr->nr_repeats, rr->nr_repeats);
	for (g = 0; g < rr->nr_groups; g++)
		group_section(&sb, rr, g);
	if (rr->interval_stream)
		resplot_stream(&sb, rr->interval_stream);
	disks_table(&sb, rr);
	html_targets(&sb, rr);
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
