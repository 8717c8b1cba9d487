/* SPDX-License-Identifier: MIT */
/*
 * The html report's targets: each job's path with the file system it is
 * on (type, mount point, source, options), and each disk under them or
 * in the disk statistics with what sysfs says of it (model, size,
 * rotational, the I/O scheduler, the queue's settings), read when the
 * report is written (util/devinfo.h), on the machine that ran. Only
 * reading, nothing a user must grant: what cannot be read is left out.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/page.h"
#include "plot/svg.h"
#include "report/html.h"
#include "util/devinfo.h"
#include "util/log.h"

/* The first file a job names (or its directory): where its I/O goes. */
static void job_path(const struct job_result *j, char *buf, size_t len)
{
	const struct job_options *o = &j->plan->o;
	const char *f = o->filename, *dir = o->directory;
	size_t n = 0;

	if (f) {
		/* the first of a ':' list ('\:' is a colon of the name) */
		while (f[n] && (f[n] != ':' || (n && f[n - 1] == '\\')))
			n++;
		if (dir && *dir && f[0] != '/')
			snprintf(buf, len, "%s/%.*s", dir, (int)n, f);
		else
			snprintf(buf, len, "%.*s", (int)n, f);
	} else {
		snprintf(buf, len, "%s", dir && *dir ? dir : ".");
	}
}

struct targets {
	char (*path)[PATH_MAX];
	unsigned int nr;
	char (*disk)[64];
	unsigned int nr_disks;
};

static void add_disk(struct targets *t, const char *name)
{
	unsigned int i;

	if (!*name)
		return;
	for (i = 0; i < t->nr_disks; i++)
		if (!strcmp(t->disk[i], name))
			return;
	t->disk = xrealloc(t->disk, (t->nr_disks + 1) * sizeof(*t->disk));
	snprintf(t->disk[t->nr_disks++], sizeof(*t->disk), "%s", name);
}

static void td_text(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td>");
	xml_text(sb, s);
	strbuf_addstr(sb, "</td>");
}

static void paths_table(struct strbuf *sb, const struct run_result *rr,
			struct targets *t)
{
	char path[PATH_MAX];
	struct fs_info fs;
	unsigned int i, k;

	for (i = 0; i < rr->nr_jobs; i++) {
		if (!rr->jobs[i].plan)
			continue;
		job_path(&rr->jobs[i], path, sizeof(path));
		for (k = 0; k < t->nr && strcmp(t->path[k], path); k++)
			;
		if (k < t->nr)
			continue;
		t->path = xrealloc(t->path, (t->nr + 1) * sizeof(*t->path));
		memcpy(t->path[t->nr++], path, sizeof(path));
	}
	strbuf_addstr(sb, "<table class=\"target\"><thead><tr><th>path</th>"
		      "<th>file system</th><th>mounted on</th><th>from</th>"
		      "<th>options</th><th>disk</th></tr></thead><tbody>\n");
	for (k = 0; k < t->nr; k++) {
		if (fs_info_get(t->path[k], &fs))
			continue;
		add_disk(t, fs.dev);
		strbuf_addstr(sb, "<tr><td><code>");
		xml_text(sb, t->path[k]);
		strbuf_addf(sb, "</code></td><td data-fs=\"");
		xml_attr(sb, fs.type);
		strbuf_addstr(sb, "\">");
		xml_text(sb, fs.type);
		strbuf_addstr(sb, "</td>");
		td_text(sb, fs.mount);
		td_text(sb, fs.source);
		td_text(sb, fs.opts);
		td_text(sb, fs.dev);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

static void td_u(struct strbuf *sb, unsigned int v, const char *unit)
{
	if (v)
		strbuf_addf(sb, "<td>%u%s</td>", v, unit);
	else
		strbuf_addstr(sb, "<td></td>");
}

static void disks_table(struct strbuf *sb, const struct targets *t)
{
	struct dev_info di;
	unsigned int i;

	if (!t->nr_disks)
		return;
	strbuf_addstr(sb, "<table class=\"target\"><thead><tr><th>disk</th>"
		      "<th>model</th><th>size</th><th>kind</th>"
		      "<th>scheduler</th><th>nr_requests</th><th>hw queues</th>"
		      "<th>max_sectors_kb</th><th>read_ahead_kb</th>"
		      "<th>block (logical / physical)</th></tr></thead><tbody>\n");
	for (i = 0; i < t->nr_disks; i++) {
		dev_info_get(t->disk[i], &di);
		strbuf_addstr(sb, "<tr data-disk=\"");
		xml_attr(sb, t->disk[i]);
		strbuf_addstr(sb, "\" data-scheduler=\"");
		xml_attr(sb, di.scheduler);
		strbuf_addstr(sb, "\">");
		td_text(sb, t->disk[i]);
		td_text(sb, di.model);
		strbuf_addstr(sb, "<td>");
		if (di.size_bytes) {
			chart_fmt(sb, (double)di.size_bytes, UNIT_BPS, 3);
			/* a size, not a rate */
			if (sb->len > 2 && !strcmp(sb->buf + sb->len - 2, "/s"))
				sb->len -= 2, sb->buf[sb->len] = '\0';
		}
		strbuf_addf(sb, "</td><td>%s</td><td>", di.rotational == 1 ?
			    "rotational" : di.rotational == 0 ?
			    "non-rotational" : "");
		xml_text(sb, di.scheduler);
		strbuf_addstr(sb, "</td>");
		td_u(sb, di.nr_requests, "");
		td_u(sb, di.nr_hw_queues, "");
		td_u(sb, di.max_sectors_kb, "");
		td_u(sb, di.read_ahead_kb, "");
		if (di.logical_block)
			strbuf_addf(sb, "<td>%u / %u</td>", di.logical_block,
				    di.physical_block);
		else
			strbuf_addstr(sb, "<td></td>");
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

void html_targets(struct strbuf *sb, const struct run_result *rr)
{
	struct targets t = { NULL, 0, NULL, 0 };
	unsigned int i;

	if (!rr->nr_jobs || !rr->jobs[0].plan)
		return;		/* a report of results read back: not here */
	strbuf_addstr(sb, "<h2 id=\"targets\">Targets</h2>\n<p class=\"sub\">"
		      "Where the jobs' I/O went, as this machine's mount table "
		      "and sysfs said when the report was written.</p>\n");
	paths_table(sb, rr, &t);
	for (i = 0; i < rr->nr_disks; i++)
		add_disk(&t, rr->disks[i].name);
	disks_table(sb, &t);
	free(t.path);
	free(t.disk);
}
