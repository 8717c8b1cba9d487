/* SPDX-License-Identifier: MIT */
/*
 * The status line: its text from a run_status, and drawing successive
 * lines on a terminal (or into a pipe, for --eta=always) as fio does.
 */
#include "report/status.h"

#include <inttypes.h>
#include <string.h>

#include "util/numfmt.h"

static const char dir_letter[DDIR_RWDIR_CNT] = { 'r', 'w', 't' };

/* "R(2),W(1)": runs of one letter condensed. */
static void add_states(const struct run_status *s, struct strbuf *out)
{
	unsigned int i = 0;

	strbuf_addch(out, '[');
	while (i < s->nr_jobs) {
		unsigned int n = 1;

		while (i + n < s->nr_jobs && s->states[i + n] == s->states[i])
			n++;
		if (i)
			strbuf_addch(out, ',');
		strbuf_addf(out, "%c(%u)", s->states[i], n);
		i += n;
	}
	strbuf_addch(out, ']');
}

static void add_eta(int64_t eta, struct strbuf *out)
{
	uint64_t d, h, m, sec;

	if (eta < 0) {
		strbuf_addstr(out, "[eta --m:--s]");
		return;
	}
	sec = (uint64_t)eta % 60;
	m = (uint64_t)eta / 60 % 60;
	h = (uint64_t)eta / 3600 % 24;
	d = (uint64_t)eta / 86400;
	strbuf_addstr(out, "[eta ");
	if (d)
		strbuf_addf(out, "%" PRIu64 "d:%02" PRIu64 "h:", d, h);
	else if (h)
		strbuf_addf(out, "%02" PRIu64 "h:", h);
	strbuf_addf(out, "%02" PRIu64 "m:%02" PRIu64 "s]", m, sec);
}

void status_format(const struct run_status *s, struct strbuf *out)
{
	bool pow2 = s->kb_base != 1000;
	unsigned int d, n;

	strbuf_addf(out, "Jobs: %u (f=%u)", s->running, s->files);
	/* the rate limits: in bytes/s when any is, else in IOPS */
	if (s->rate_lo || s->rate_hi) {
		strbuf_addstr(out, ", ");
		numfmt(out, s->rate_lo, 4, pow2, NUMFMT_BYTEPERSEC);
		strbuf_addch(out, '-');
		numfmt(out, s->rate_hi, 4, pow2, NUMFMT_BYTEPERSEC);
	} else if (s->iops_lo || s->iops_hi) {
		strbuf_addf(out, ", %llu-%llu IOPS",
			    (unsigned long long)s->iops_lo,
			    (unsigned long long)s->iops_hi);
	}
	strbuf_addstr(out, ": ");
	add_states(s, out);
	if (s->pct < 0)
		strbuf_addstr(out, "[-.-%]");
	else
		strbuf_addf(out, "[%.1f%%]", s->pct);
	if (s->running && s->dir_mask) {
		strbuf_addch(out, '[');
		for (d = 0, n = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!(s->dir_mask & (1u << d)))
				continue;
			strbuf_addf(out, "%s%c=", n++ ? "," : "", dir_letter[d]);
			numfmt(out, s->bw[d], 4, pow2, NUMFMT_BYTEPERSEC);
		}
		strbuf_addstr(out, "][");
		for (d = 0, n = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!(s->dir_mask & (1u << d)))
				continue;
			strbuf_addf(out, "%s%c=", n++ ? "," : "", dir_letter[d]);
			numfmt(out, s->iops[d], 4, false, NUMFMT_NONE);
		}
		strbuf_addstr(out, " IOPS]");
	}
	/* iolite's --sweep and --repeat: where in them, and all that is left */
	if (s->nr_points)
		strbuf_addf(out, "[point %u/%u]", s->point, s->nr_points);
	if (s->nr_rounds)
		strbuf_addf(out, "[run %u/%u]", s->round, s->nr_rounds);
	add_eta(s->nr_rounds ? s->eta_all_s : s->eta_s, out);
}

void status_printer_init(struct status_printer *sp, FILE *f,
			 uint64_t newline_ms)
{
	memset(sp, 0, sizeof(*sp));
	sp->f = f;
	sp->newline_ms = newline_ms;
	strbuf_init(&sp->line);
}

void status_print(struct status_printer *sp, const struct run_status *s)
{
	size_t len;

	if (!s) {
		if (sp->up)
			fputc('\n', sp->f);
		sp->up = false;
		sp->last_len = 0;
		fflush(sp->f);
		return;
	}
	if (sp->up && sp->newline_ms &&
	    s->elapsed_ms - sp->last_nl_ms >= sp->newline_ms) {
		fputc('\n', sp->f);
		sp->last_nl_ms = s->elapsed_ms;
		sp->last_len = 0;
	}
	strbuf_reset(&sp->line);
	status_format(s, &sp->line);
	len = sp->line.len;
	/* blank out what is left of a longer line before */
	while (sp->line.len < sp->last_len)
		strbuf_addch(&sp->line, ' ');
	strbuf_addch(&sp->line, '\r');
	fputs(sp->line.buf, sp->f);
	fflush(sp->f);
	sp->last_len = len;
	sp->up = true;
}

void status_printer_release(struct status_printer *sp)
{
	strbuf_release(&sp->line);
}
