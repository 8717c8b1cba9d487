/* SPDX-License-Identifier: MIT */
/* The frame of an HTML page of charts: see page.h. */
#include "plot/page.h"

#include <stdlib.h>
#include <string.h>

#include "plot/chart.h"
#include "plot/svg.h"

static const char page_style[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans',Arial,sans-serif;color:#222;background:#fff;"
	"margin:0 auto;max-width:1360px;padding:12px 24px 32px}"
	"h1{font-size:22px;margin:8px 0 4px}"
	"h2{font-size:18px;margin:28px 0 8px;padding-bottom:3px;"
	"border-bottom:2px solid #0072B2}"
	"h3{font-size:15px;margin:18px 0 6px}"
	"p.sub{color:#555;margin:0 0 12px}"
	"table{border-collapse:collapse;margin:6px 0 12px;"
	"font-variant-numeric:tabular-nums}"
	"th,td{padding:3px 9px;border-bottom:1px solid #e6e6e6;"
	"text-align:right;vertical-align:top}"
	"thead th{border-bottom:1px solid #999;font-weight:600}"
	"th:first-child,td:first-child{text-align:left}"
	"table.pct{font-size:12.5px}table.pct th,table.pct td{padding:3px 5px;"
	"white-space:nowrap}"
	"table.pct tr.ph th{border-bottom:1px solid #999;font-weight:600}"
	"table.pct tbody+tbody tr.ph th{padding-top:12px}"
	"table.kv th{font-weight:normal;color:#555;white-space:nowrap}"
	"table.kv td{text-align:left}"
	"code,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,"
	"Consolas,monospace;font-size:12.5px}"
	"pre{background:#f5f5f5;border:1px solid #e6e6e6;padding:8px 10px;"
	"overflow:auto;margin:4px 0 10px;white-space:pre-wrap;max-height:22em}"
	"ul.notes li{margin:2px 0}"
	"nav.toc ul{columns:3 260px;margin:2px 0 8px;padding-left:20px}"
	"details{margin:8px 0}summary{cursor:pointer}"
	"summary h2.pt{display:inline-block;margin:12px 0 4px;"
	"border-bottom:none;font-size:16px}"
	"td small{color:#555;white-space:nowrap}"
	"table.sweep td{white-space:nowrap}"
	"table.sweep td:last-child{white-space:normal;text-align:left;"
	"min-width:16em}"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,"
	"minmax(560px,1fr));gap:14px 22px;align-items:start}"
	"figure{margin:0;break-inside:avoid}"
	"figcaption{font-size:12px;color:#555;margin:2px 0 0 8px}"
	".wide{overflow-x:auto}"
	"footer{margin-top:32px;color:#777;font-size:12px}"
	"@media print{body{max-width:none;padding:0;font-size:11px}"
	/* a chart a row: half a page's width would shrink its text to 6 px */
	".grid{grid-template-columns:1fr;gap:6px}"
	"figure{max-width:640px}figcaption{font-size:10px}"
	"code,pre{font-size:10px}"
	"h2{break-after:avoid}h3{break-after:avoid}"
	"table,figure{break-inside:avoid}pre{max-height:none}"
	"table.pct{font-size:8.5px}}";

void page_begin(struct strbuf *sb, const char *title)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n"
		      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
		      "<head>\n<meta charset=\"utf-8\"/>\n"
		      "<meta name=\"viewport\" content=\"width=device-width,"
		      " initial-scale=1\"/>\n<title>");
	xml_text(sb, title);
	strbuf_addstr(sb, "</title>\n<style>");
	strbuf_addstr(sb, page_style);
	strbuf_addstr(sb, chart_style);
	strbuf_addstr(sb, "</style>\n</head>\n<body>\n<main>\n");
}

void page_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</main>\n<footer>Made by iolite-" IOLITE_VERSION
		      ": one file, no script, nothing fetched.</footer>\n"
		      "</body>\n</html>\n");
}

void page_kv(struct strbuf *sb, const char *key, const char *value)
{
	strbuf_addstr(sb, "<tr><th>");
	xml_text(sb, key);
	strbuf_addstr(sb, "</th><td>");
	xml_text(sb, value);
	strbuf_addstr(sb, "</td></tr>\n");
}

void page_td_val(struct strbuf *sb, double v, enum axis_unit unit)
{
	strbuf_addstr(sb, "<td>");
	chart_fmt(sb, v, unit, 4);
	strbuf_addstr(sb, "</td>");
}

void page_figure(struct strbuf *sb, const struct chart *c, const char *caption)
{
	strbuf_addstr(sb, "<figure>\n");
	chart_render(c, sb, false);
	if (caption) {
		strbuf_addstr(sb, "<figcaption>");
		xml_text(sb, caption);
		strbuf_addstr(sb, "</figcaption>\n");
	}
	strbuf_addstr(sb, "</figure>\n");
}

char **page_job_labels(const char *const *names, unsigned int nr)
{
	char **l = xcalloc(nr ? nr : 1, sizeof(*l));
	unsigned int i, k, nth, same;

	for (i = 0; i < nr; i++) {
		const char *n = names[i] ? names[i] : "";

		for (k = 0, nth = 0, same = 0; k < nr; k++) {
			if (strcmp(n, names[k] ? names[k] : ""))
				continue;
			same++;
			nth += k <= i;
		}
		if (same > 1) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s #%u", n, nth);
			l[i] = strbuf_detach(&sb);
		} else {
			l[i] = xstrdup(n);
		}
	}
	return l;
}

void page_labels_free(char **labels, unsigned int nr)
{
	unsigned int i;

	for (i = 0; labels && i < nr; i++)
		free(labels[i]);
	free(labels);
}

/*
 * A note's likeness: its text without digits and without the words that
 * name a point ("iodepth=4"), so that the same note of each point of a
 * sweep, with its own figures, is said once
 */
static void note_key(const char *s, struct strbuf *key)
{
	const char *w;

	strbuf_reset(key);
	while (*s) {
		for (w = s; *w && *w != ' '; w++)
			;
		if (!memchr(s, '=', (size_t)(w - s)))
			for (; s < w; s++)
				if (*s < '0' || *s > '9')
					strbuf_addch(key, *s);
		s = w;
		if (*s)
			strbuf_addch(key, *s++);
	}
}

void page_notes(struct strbuf *sb, const char *const *notes, unsigned int nr)
{
	struct strbuf ki = STRBUF_INIT, kk = STRBUF_INIT;
	unsigned int i, k, same, like;

	if (!nr)
		return;
	strbuf_addstr(sb, "<h3>Notes</h3>\n<ul class=\"notes\">\n");
	for (i = 0; i < nr; i++) {
		note_key(notes[i], &ki);
		/* a sweep's points repeat their notes, word for word or with
		 * their own values and figures */
		for (k = 0; k < i; k++) {
			note_key(notes[k], &kk);
			if (!strcmp(kk.buf, ki.buf))
				break;
		}
		if (k < i)
			continue;	/* shown already */
		for (k = i + 1, same = 1, like = 0; k < nr; k++) {
			note_key(notes[k], &kk);
			same += !strcmp(notes[k], notes[i]);
			like += strcmp(notes[k], notes[i]) &&
				!strcmp(kk.buf, ki.buf);
		}
		strbuf_addstr(sb, "<li>");
		xml_text(sb, notes[i]);
		if (same > 1)
			strbuf_addf(sb, " (noted %u times)", same);
		if (like)
			strbuf_addf(sb, " (and %u more like it, at other points "
				    "or with other figures: the normal and "
				    "JSON reports list each)", like);
		strbuf_addstr(sb, "</li>\n");
	}
	strbuf_addstr(sb, "</ul>\n");
	strbuf_release(&ki);
	strbuf_release(&kk);
}
