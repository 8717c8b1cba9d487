/* SPDX-License-Identifier: MIT */
/* Histogram logs read back and drawn for `iolite plot`: see histlog.h. */
#include "plot/histlog.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/latseries.h"
#include "plot/logread.h"
#include "plot/svg.h"
#include "stats/results.h"
#include "util/log.h"

static const char *const dir_names[3] = { "read", "write", "trim" };
static const double win_pct[HISTLOG_PCT_NR] = { 50, 90, 99, 99.9 };
/* the table's percentiles */
static const double key_pct[] = { 50, 90, 99, 99.9, 99.99, 99.999 };
#define NR_KEY_PCT (sizeof(key_pct) / sizeof(key_pct[0]))

int hist_log_named(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	bool fz;
	size_t len = log_name_base(name, &fz);

	return len >= 10 && !memcmp(name + len - 10, "_clat_hist", 10);
}

static void grow(struct hist_log *hl)
{
	if (hl->n < hl->alloc)
		return;
	hl->alloc = hl->alloc ? hl->alloc * 2 : 256;
	hl->t_ms = xrealloc(hl->t_ms, hl->alloc * sizeof(*hl->t_ms));
	hl->ios = xrealloc(hl->ios, hl->alloc * sizeof(*hl->ios));
	hl->pct = xrealloc(hl->pct, hl->alloc * sizeof(*hl->pct));
	hl->ddir = xrealloc(hl->ddir, hl->alloc * sizeof(*hl->ddir));
}

/*
 * The bucket a coarse count goes back into: its group's middle (the
 * group itself at coarseness 0).
 */
static unsigned int bucket_of(unsigned int group, unsigned int coarse)
{
	unsigned int step = 1u << coarse, i = group * step + step / 2;

	return i < HIST_NR ? i : HIST_NR - 1;
}

/* One window's percentiles by fio's rule, from its counts. */
static void window_pct(struct hist_log *hl, const uint64_t *c,
		       unsigned int nr, uint64_t total)
{
	uint64_t *out = hl->pct[hl->n], cum = 0;
	unsigned int g = 0, j;

	for (j = 0; j < HISTLOG_PCT_NR; j++) {
		double want = win_pct[j] / 100.0 * (double)total;

		while (g < nr && (double)(cum + c[g]) < want - 1e-9)
			cum += c[g++];
		out[j] = total ? hist_bucket_val(bucket_of(g < nr ? g : nr - 1,
							   hl->coarse)) : 0;
	}
}

/* A decimal field (fio's counts are never hex) */
static int field(const char **p, const char *end, uint64_t *v)
{
	bool hex;

	return log_field(p, end, v, &hex) || hex ? -1 : 0;
}

/* The counts a line holds: 1856 >> coarseness; the coarseness, or -1. */
static int coarse_of(unsigned int nr)
{
	int c;

	for (c = 0; c <= 6; c++)
		if (nr == HIST_NR >> c)
			return c;
	return -1;
}

static int read_line(struct hist_log *hl, const char *s, const char *end,
		     uint64_t *c, unsigned long line, struct strbuf *err)
{
	uint64_t head[3], total = 0;
	unsigned int nr = 0, i;
	int coarse;

	for (i = 0; i < 3; i++)
		if (field(&s, end, &head[i]))
			goto bad;
	while (s < end && nr < HIST_NR)
		if (field(&s, end, &c[nr++]))
			goto bad;
	coarse = coarse_of(nr);
	if (s < end || coarse < 0 || head[1] > 2)
		goto bad;
	if (hl->n && (unsigned int)coarse != hl->coarse) {
		strbuf_addf(err, "%s:%lu: %u counts, where the lines before "
			    "have %u", hl->name, line, nr, HIST_NR >> hl->coarse);
		return -1;
	}
	hl->coarse = (unsigned int)coarse;
	grow(hl);
	if (!hl->h[head[1]])
		hl->h[head[1]] = xcalloc(1, sizeof(struct hist));
	for (i = 0; i < nr; i++) {
		hl->h[head[1]]->bucket[bucket_of(i, hl->coarse)] += c[i];
		total += c[i];
	}
	hl->t_ms[hl->n] = head[0];
	hl->ddir[hl->n] = (uint8_t)head[1];
	hl->ios[hl->n] = total;
	window_pct(hl, c, nr, total);
	hl->n++;
	return 0;
bad:
	strbuf_addf(err, "%s:%lu: not a histogram log line: expected 'time, "
		    "direction, block size' and %u bucket counts (%u >> "
		    "log_hist_coarseness)", hl->name, line, HIST_NR, HIST_NR);
	return -1;
}

int hist_log_read(struct hist_log *hl, const char *path, struct strbuf *err)
{
	const char *slash = strrchr(path, '/');
	struct strbuf buf = STRBUF_INIT;
	uint64_t *c = xcalloc(HIST_NR, sizeof(*c));
	const char *p, *end;
	unsigned long line = 0;
	bool fz;
	int ret = -1;

	memset(hl, 0, sizeof(*hl));
	hl->name = xstrdup(slash ? slash + 1 : path);
	log_name_base(hl->name, &fz);
	if (fz) {
		/* iolite refuses to write them (log_store_compressed) */
		strbuf_addf(err, "'%s': compressed histogram logs are not "
			    "supported yet by iolite plot (iolite "
			    "--inflate-log=FILE makes the text)", hl->name);
		goto out;
	}
	ret = strbuf_read_file(&buf, path);
	if (ret) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(-ret));
		ret = -1;
		goto out;
	}
	ret = -1;
	p = buf.buf ? buf.buf : "";
	end = p + buf.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		line++;
		if (!(e == p || (e == p + 1 && *p == '\r')) &&
		    read_line(hl, p, e, c, line, err))
			goto out;
		p = e + 1;
	}
	ret = 0;
out:
	free(c);
	strbuf_release(&buf);
	if (ret)
		hist_log_release(hl);
	return ret;
}

void hist_log_release(struct hist_log *hl)
{
	unsigned int d;

	free(hl->name);
	free(hl->t_ms);
	free(hl->ios);
	free(hl->pct);
	free(hl->ddir);
	for (d = 0; d < 3; d++)
		free(hl->h[d]);
	memset(hl, 0, sizeof(*hl));
}

/* --- drawing ---------------------------------------------------------- */

/* The sum's range: the lowest and highest buckets with a count. */
static void hist_range(const struct hist *h, uint64_t *lo, uint64_t *hi)
{
	unsigned int i, first = HIST_NR, last = 0;

	for (i = 0; i < HIST_NR; i++) {
		if (!h->bucket[i])
			continue;
		first = first < i ? first : i;
		last = i;
	}
	*lo = first < HIST_NR ? hist_bucket_lo(first) : 0;
	*hi = first < HIST_NR ? hist_bucket_hi(last) : 0;
}

static void td_ns(struct strbuf *sb, double v)
{
	strbuf_addstr(sb, "<td>");
	chart_fmt(sb, v, UNIT_NS, 4);
	strbuf_addstr(sb, "</td>");
}

/* A percentile's cell, its exact value in data-* for tests and tools */
static void pct_td(struct strbuf *sb, double p, uint64_t ns)
{
	strbuf_addf(sb, "<td data-pct=\"%g\" data-ns=\"%" PRIu64 "\">", p, ns);
	chart_fmt(sb, (double)ns, UNIT_NS, 4);
	strbuf_addstr(sb, "</td>");
}

static void table(struct sink *k, const struct hist_log *hl)
{
	struct strbuf *sb = k->page;
	uint64_t v[NR_KEY_PCT], lo, hi, n, windows;
	unsigned int d, i;
	uint64_t l;

	if (k->o->format != PLOT_HTML)
		return;
	strbuf_addstr(sb, "<table><thead><tr><th>direction</th><th>windows</th>"
		      "<th>I/Os</th><th>lowest</th>");
	for (i = 0; i < NR_KEY_PCT; i++)
		strbuf_addf(sb, "<th>p%g</th>", key_pct[i]);
	strbuf_addstr(sb, "<th>highest</th></tr></thead><tbody>\n");
	for (d = 0; d < 3; d++) {
		if (!hl->h[d])
			continue;
		for (l = 0, windows = 0; l < hl->n; l++)
			windows += hl->ddir[l] == d;
		n = lat_hist_total(hl->h[d]);
		hist_range(hl->h[d], &lo, &hi);
		hist_percentiles(hl->h[d], lo, hi, key_pct, NR_KEY_PCT, v);
		strbuf_addf(sb, "<tr data-dir=\"%s\" data-windows=\"%" PRIu64
			    "\" data-n=\"%" PRIu64 "\"><td>%s</td><td>%" PRIu64
			    "</td><td>%" PRIu64 "</td>", dir_names[d], windows,
			    n, dir_names[d], windows, n);
		td_ns(sb, (double)lo);
		for (i = 0; i < NR_KEY_PCT; i++) {
			if (!n || key_pct[i] > 100.0 * (1.0 - 1.0 / (double)n))
				strbuf_addstr(sb, "<td></td>");
			else
				pct_td(sb, key_pct[i], v[i]);
		}
		td_ns(sb, (double)hi);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

static void time_chart(struct sink *k, const struct hist_log *hl,
		       unsigned int d)
{
	struct strbuf t = STRBUF_INIT;
	struct chart_series *s[HISTLOG_PCT_NR];
	struct chart c;
	unsigned int j;
	uint64_t l;

	strbuf_addf(&t, "%s: %s clat percentiles over time", hl->name,
		    dir_names[d]);
	chart_init(&c, "hist-time", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_MS,
				   .title = "time", .zero = true };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	for (j = 0; j < HISTLOG_PCT_NR; j++) {
		strbuf_reset(&t);
		strbuf_addf(&t, "p%g", win_pct[j]);
		s[j] = chart_add(&c, SERIES_LINE, t.buf);
	}
	for (l = 0; l < hl->n; l++) {
		if (hl->ddir[l] != d || !hl->ios[l])
			continue;
		for (j = 0; j < HISTLOG_PCT_NR; j++)
			chart_point(s[j], (double)hl->t_ms[l],
				    (double)hl->pct[l][j]);
	}
	c.legend = true;
	sink_chart(k, &c, "Each window's percentiles (log_hist_msec), from "
		   "its histogram; windows without an I/O are left out.");
	strbuf_release(&t);
}

static void pct_chart(struct sink *k, const struct hist_log *hl)
{
	struct strbuf t = STRBUF_INIT;
	uint64_t nmax = 0, lo, hi;
	struct chart c;
	unsigned int d;

	for (d = 0; d < 3; d++)
		if (hl->h[d] && lat_hist_total(hl->h[d]) > nmax)
			nmax = lat_hist_total(hl->h[d]);
	strbuf_addf(&t, "%s: clat by percentile", hl->name);
	chart_init(&c, "pct", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_PCT, .title = "percentile",
				   .fixed = true, .max = lat_pct_axis_max(nmax) };
	c.y = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	for (d = 0; d < 3; d++) {
		struct chart_series *s;

		if (!hl->h[d] || !lat_hist_total(hl->h[d]))
			continue;
		s = chart_add(&c, SERIES_STEP, dir_names[d]);
		s->colour = d;
		hist_range(hl->h[d], &lo, &hi);
		lat_quantile_series(s, hl->h[d], (double)lo, (double)hi);
	}
	c.legend = true;
	sink_chart(k, &c, "All the windows together, from their histograms "
		   "(values within 0.8%, or the coarser buckets' width).");
	strbuf_release(&t);
}

static void hist_chart(struct sink *k, const struct hist_log *hl)
{
	struct strbuf t = STRBUF_INIT;
	struct chart c;
	unsigned int d, nr = 0;

	for (d = 0; d < 3; d++)
		nr += hl->h[d] != NULL;
	strbuf_addf(&t, "%s: clat histogram", hl->name);
	chart_init(&c, "hist", t.buf);
	c.x = (struct chart_axis){ .scale = AXIS_LOG, .unit = UNIT_NS,
				   .title = "clat" };
	c.y = (struct chart_axis){ .scale = AXIS_LINEAR, .unit = UNIT_PCT,
				   .title = "I/Os", .zero = true };
	for (d = 0; d < 3; d++) {
		struct chart_series *s;

		if (!hl->h[d] || !lat_hist_total(hl->h[d]))
			continue;
		s = chart_add(&c, SERIES_STEP, dir_names[d]);
		s->colour = d;
		s->fill = true;
		lat_hist_series(s, hl->h[d]);
	}
	c.legend = nr > 1;
	sink_chart(k, &c, "Share of the I/Os in each twentieth of a decade.");
	strbuf_release(&t);
}

void hist_log_section(struct sink *k, const struct hist_log *hl)
{
	struct strbuf *sb = k->page;
	uint64_t ios = 0, l;
	unsigned int d;
	bool fz;
	char *base = xstrndup(hl->name, log_name_base(hl->name, &fz));

	sink_base(k, base);
	free(base);
	for (l = 0; l < hl->n; l++)
		ios += hl->ios[l];
	if (k->o->format == PLOT_HTML) {
		strbuf_addstr(sb, "<section>\n<h2>");
		xml_text(sb, hl->name);
		strbuf_addf(sb, "</h2>\n<p class=\"sub\">clat histogram log, %"
			    PRIu64 " window%s, %" PRIu64 " I/Os, %u buckets "
			    "a line (log_hist_coarseness=%u)</p>\n", hl->n,
			    hl->n == 1 ? "" : "s", ios, HIST_NR >> hl->coarse,
			    hl->coarse);
	}
	if (!ios) {
		sink_html(k, "<p>The log counts no I/O: nothing to draw.</p>\n"
			  "</section>\n");
		return;
	}
	table(k, hl);
	sink_html(k, "<div class=\"grid\">\n");
	for (d = 0; d < 3; d++)
		if (hl->h[d] && lat_hist_total(hl->h[d]))
			time_chart(k, hl, d);
	pct_chart(k, hl);
	hist_chart(k, hl);
	sink_html(k, "</div>\n</section>\n");
}
