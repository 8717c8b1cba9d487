/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's CPU profile of a group (profile=): the split by
 * area and a flame graph of the measured phase, drawn from the results
 * model's call tree (profile_result.node) as plain SVG: a bar per
 * function on its caller's, as wide as its share of the samples, the
 * root at the bottom, a tooltip (<title>) on each bar, no script. Bars
 * narrower than half a pixel are left out; so are frames past
 * FG_DEPTH. Colours by area, so that the kernel's parts stand apart.
 */
#include <inttypes.h>
#include <string.h>

#include "plot/svg.h"
#include "profile/profile.h"
#include "report/html.h"
#include "report/profile.h"
#include "util/log.h"

#define FG_W 1200
#define FG_ROW 16
#define FG_DEPTH 64
#define FG_CHAR_PX 7.0		/* a label character, roughly */

static const char *const area_fill[PA_NR + 1] = {
	[PA_IOLITE] = "#0072b2",
	[PA_LIBS] = "#56b4e9",
	[PA_K_IO_URING] = "#e69f00",
	[PA_K_AIO] = "#f0e442",
	[PA_K_BLOCK] = "#009e73",
	[PA_K_DRIVER] = "#d55e00",
	[PA_K_FS] = "#cc79a7",
	[PA_K_COPY] = "#e41a1c",
	[PA_K_SCHED] = "#999999",
	[PA_K_IRQ] = "#b3b3b3",
	[PA_K_SYSCALL] = "#c8a2c8",
	[PA_K_OTHER] = "#ddcc77",
	[PA_K_HIDDEN] = "#eeeeee",
	[PA_OTHER_PROC] = "#777777",
	[PA_NR] = "#d9d9d9",	/* the root and the threads */
};

static unsigned int depth_of(const struct profile_result *p, unsigned int n,
			     unsigned int d)
{
	unsigned int c, most = d;

	if (d >= FG_DEPTH)
		return d;
	for (c = p->node[n].child; c; c = p->node[c].sibling) {
		unsigned int k = depth_of(p, c, d + 1);

		if (k > most)
			most = k;
	}
	return most;
}

static void bar(struct strbuf *sb, const struct profile_result *p,
		unsigned int n, double x, double w, double y)
{
	const struct profile_node *nd = &p->node[n];
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s%s%s%s: %" PRIu64 " sample%s, %.2f%%", nd->name,
		    nd->module ? " (" : "", nd->module ? nd->module : "",
		    nd->module ? ")" : "", nd->count, nd->count == 1 ? "" : "s",
		    p->node[0].count ? 100.0 * (double)nd->count /
		    (double)p->node[0].count : 0.0);
	strbuf_addstr(sb, "<g>");
	svg_title(sb, t.buf);
	strbuf_addstr(sb, "<rect x=\"");
	svg_num(sb, x);
	strbuf_addstr(sb, "\" y=\"");
	svg_num(sb, y);
	strbuf_addstr(sb, "\" width=\"");
	svg_num(sb, w);
	strbuf_addf(sb, "\" height=\"%d\" fill=\"%s\"/>", FG_ROW - 1,
		    area_fill[nd->area <= PA_NR ? nd->area : PA_NR]);
	if (w >= 3 * FG_CHAR_PX) {
		struct strbuf l = STRBUF_INIT;

		text_cut(&l, nd->name, (unsigned int)(w / FG_CHAR_PX) - 1);
		svg_text(sb, x + 2, y + FG_ROW - 4, "start", "fg", l.buf);
		strbuf_release(&l);
	}
	strbuf_addstr(sb, "</g>\n");
	strbuf_release(&t);
}

static void bars(struct strbuf *sb, const struct profile_result *p,
		 unsigned int n, double x, double w, unsigned int d,
		 unsigned int rows)
{
	unsigned int c;

	if (d >= rows || w < 0.5)
		return;
	bar(sb, p, n, x, w, (double)(rows - 1 - d) * FG_ROW);
	for (c = p->node[n].child; c; c = p->node[c].sibling) {
		double cw = p->node[n].count ? w * (double)p->node[c].count /
				(double)p->node[n].count : 0;

		bars(sb, p, c, x, cw, d + 1, rows);
		x += cw;
	}
}

static void legend(struct strbuf *sb, const struct profile_result *p)
{
	uint64_t all = p->samples + p->area[PA_K_HIDDEN];
	unsigned int a;

	strbuf_addstr(sb, "<p class=\"legend\">");
	for (a = 0; a < PA_NR; a++) {
		if (!p->area[a])
			continue;
		strbuf_addf(sb, "<span style=\"background:%s\">&#160;&#160;</span> ",
			    area_fill[a]);
		xml_text(sb, profile_area_name(a));
		strbuf_addf(sb, " %.1f%% &#160; ", all ? 100.0 *
			    (double)p->area[a] / (double)all : 0.0);
	}
	strbuf_addstr(sb, "</p>\n");
}

void html_profile_section(struct strbuf *sb, const struct run_result *rr,
			  unsigned int gid)
{
	const struct profile_result *p = NULL;
	unsigned int i, rows;

	for (i = 0; i < rr->nr_profiles; i++)
		if (rr->profiles[i].groupid == gid)
			p = &rr->profiles[i];
	if (!p)
		return;
	strbuf_addf(sb, "<h3>CPU profile</h3>\n<p class=\"profile\" "
		    "data-samples=\"%" PRIu64 "\">%s, measured phase %.2f s, "
		    "%" PRIu64 " samples at %.0f Hz, profiler cost %.2f%%</p>\n",
		    p->samples, p->mode, (double)p->wall_ns / 1e9, p->samples,
		    p->period_ns ? 1e9 / (double)p->period_ns : 0.0, p->cost_pct);
	legend(sb, p);
	if (!strcmp(p->mode, "system") && p->nr_node && p->node[0].count) {
		struct strbuf t = STRBUF_INIT;

		report_profile_tasks(&t, p, 12);
		strbuf_addstr(sb, "<p class=\"tasks\">tasks: ");
		xml_text(sb, strbuf_str(&t));
		strbuf_addstr(sb, "</p>\n");
		strbuf_release(&t);
	}
	if (!p->nr_node || !p->node[0].count)
		return;
	rows = depth_of(p, 0, 0) + 1;
	svg_begin(sb, FG_W, rows * FG_ROW, " class=\"flame\"", NULL);
	bars(sb, p, 0, 0, FG_W, 0, rows);
	svg_end(sb);
}
