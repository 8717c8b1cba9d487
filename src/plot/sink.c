/* SPDX-License-Identifier: MIT */
/* Where `iolite plot`'s charts go: see sink.h. */
#include "plot/sink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/page.h"
#include "util/log.h"
#include "util/safefile.h"

int plot_write_file(const char *path, bool named, const struct strbuf *sb,
		    struct strbuf *err)
{
	const char *why;
	FILE *f = sf_fopen_w(path, named ? SF_NAMED : 0, &why);
	bool bad;
	int e;

	if (!f) {
		strbuf_addf(err, "cannot create '%s': %s", path, why);
		return -1;
	}
	bad = fwrite(sb->buf, 1, sb->len, f) != sb->len || fflush(f);
	e = errno;
	if (fclose(f) && !bad) {
		bad = true;
		e = errno;
	}
	if (bad)
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(e));
	return bad ? -1 : 0;
}

static bool name_taken(const struct sink *k, const char *name)
{
	unsigned int i;

	for (i = 0; i < k->nr_names; i++)
		if (!strcmp(k->names[i], name))
			return true;
	return false;
}

void sink_chart(struct sink *k, struct chart *c, const char *caption)
{
	struct strbuf svg = STRBUF_INIT, path = STRBUF_INIT;
	unsigned int n = 1;

	if (k->o->format == PLOT_HTML) {
		page_figure(k->page, c, caption);
	} else if (!k->failed) {
		if (caption)
			chart_set_note(c, caption);
		chart_render(c, &svg, true);
		do {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s-%s", k->o->out,
				    k->base ? k->base : "chart", c->id);
			if (n > 1)
				strbuf_addf(&path, "-%u", n);
			strbuf_addstr(&path, ".svg");
			n++;
		} while (name_taken(k, path.buf));
		k->names = xrealloc(k->names, (k->nr_names + 1) *
				    sizeof(*k->names));
		k->names[k->nr_names++] = xstrdup(path.buf);
		if (plot_write_file(path.buf, false, &svg, k->err))
			k->failed = 1;
		else
			printf("%s\n", path.buf);
	}
	chart_release(c);
	strbuf_release(&svg);
	strbuf_release(&path);
}

void sink_html(struct sink *k, const char *s)
{
	if (k->o->format == PLOT_HTML)
		strbuf_addstr(k->page, s);
}

void sink_base(struct sink *k, const char *base)
{
	free(k->base);
	k->base = xstrdup(base);
}

void sink_release(struct sink *k)
{
	unsigned int i;

	for (i = 0; i < k->nr_names; i++)
		free(k->names[i]);
	free(k->names);
	free(k->base);
	k->names = NULL;
	k->base = NULL;
	k->nr_names = 0;
}
