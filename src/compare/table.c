/* SPDX-License-Identifier: MIT */
/*
 * One job compared between two sides: per direction and metric, each
 * side's figure, the relative change, its interval and a verdict, with
 * the method behind each interval as a footnote (compare/internal.h).
 *
 * Which interval a metric gets:
 * - several runs on both sides: Welch's t over the runs' figures;
 * - one run per side, IOPS and bandwidth: batch means over the run's own
 *   per-interval samples, which only iolite's JSON carries (fio's keeps
 *   their mean and spread, and neighbouring intervals are correlated, so
 *   no valid interval follows from those);
 * - otherwise none, and the row says why.
 * Latencies: lower is better; rates: higher is better.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare/internal.h"
#include "compare/stats.h"

enum mkind { M_IOPS, M_BW, M_MEAN, M_PCT };
enum mlat { L_CLAT, L_LAT };

struct metric {
	const char *name;
	enum mkind kind;
	enum mlat lat;
	double p;
};

static const struct metric metrics[] = {
	{ "IOPS", M_IOPS, L_CLAT, 0 },
	{ "bw", M_BW, L_CLAT, 0 },
	{ "clat mean", M_MEAN, L_CLAT, 0 },
	{ "clat p50", M_PCT, L_CLAT, 50 },
	{ "clat p90", M_PCT, L_CLAT, 90 },
	{ "clat p99", M_PCT, L_CLAT, 99 },
	{ "clat p99.9", M_PCT, L_CLAT, 99.9 },
	{ "clat p99.99", M_PCT, L_CLAT, 99.99 },
	{ "lat mean", M_MEAN, L_LAT, 0 },
	{ "lat p50", M_PCT, L_LAT, 50 },
	{ "lat p90", M_PCT, L_LAT, 90 },
	{ "lat p99", M_PCT, L_LAT, 99 },
	{ "lat p99.9", M_PCT, L_LAT, 99.9 },
	{ "lat p99.99", M_PCT, L_LAT, 99.99 },
};

#define NR_METRICS (sizeof(metrics) / sizeof(metrics[0]))

/* A metric's figures on one side: one per run that has the job. */
struct side_vals {
	double *v;
	unsigned int n;
	unsigned int runs;	/* runs with the job and the direction */
	unsigned int left_out;	/* of them, left out: flagged by iolite */
	const struct rio_dir_result *first;
	const struct rio_run *first_run;
	bool has_bins;
	bool not_number;	/* a run gives the figure as no number */
};

enum method { MT_RUNS, MT_BATCHES, MT_NONE };

struct row {
	const struct metric *m;
	struct side_vals a, b;
	enum method method;
	struct cmp_est ea, eb;
	struct cmp_ci ci;
	struct strbuf why;	/* the method's footnote */
};

int cmp_metric_index(const char *name)
{
	unsigned int i;
	size_t k, n = strlen(name);

	for (i = 0; i < NR_METRICS; i++) {
		const char *m = metrics[i].name;

		if (strlen(m) != n)
			continue;
		/* "clat-p99" or "clat p99", any case */
		for (k = 0; k < n; k++)
			if (tolower((unsigned char)name[k]) !=
			    tolower((unsigned char)m[k]) &&
			    !(name[k] == '-' && m[k] == ' '))
				break;
		if (k == n)
			return (int)i;
	}
	return -1;
}

static bool dir_used(const struct rio_dir_result *d)
{
	return d->present && (d->total_ios || d->io_bytes);
}

static bool metric_value(const struct metric *m,
			 const struct rio_dir_result *d, double *out)
{
	const struct rio_lat *l = m->lat == L_CLAT ? &d->clat : &d->lat;
	uint64_t v;
	int ret;

	switch (m->kind) {
	case M_IOPS:
		*out = d->iops;
		return true;
	case M_BW:
		*out = d->bw_bytes;
		return true;
	case M_MEAN:
		*out = l->s.mean;
		return l->s.n > 0;
	case M_PCT:
		ret = rio_percentile(l, m->p, &v);
		if (ret < 0)
			return false;
		*out = (double)v;
		return true;
	}
	return false;
}

/* internal.h; the file's "repeat_summary" says so */
bool cmp_left_out(const struct cmp_side *s, unsigned int r, const char *name,
		  unsigned int dup, unsigned int dir)
{
	const struct rio_run *run = &s->doc.runs[r], *last;
	const struct rio_job *j;
	unsigned int k, l = r + run->nr_repeats - run->repeat;

	if (!run->repeat || run->repeat > run->nr_repeats ||
	    l >= s->doc.nr_runs)
		return false;
	last = &s->doc.runs[l];
	j = rio_find_job(last, name, dup);
	if (last->repeat != last->nr_repeats || !j || !j->rep)
		return false;
	for (k = 0; k < j->rep->dir[dir].nr_left_out; k++)
		if (j->rep->dir[dir].left_out[k] == run->repeat)
			return true;
	return false;
}

static void gather(struct side_vals *sv, const struct cmp_side *s,
		   const char *name, unsigned int dup, unsigned int dir,
		   const struct metric *m)
{
	unsigned int r;

	memset(sv, 0, sizeof(*sv));
	sv->v = xcalloc(s->doc.nr_runs + 1, sizeof(*sv->v));
	for (r = 0; r < s->doc.nr_runs; r++) {
		const struct rio_run *run = &s->doc.runs[r];
		const struct rio_job *j = rio_find_job(run, name, dup);
		const struct rio_dir_result *d;

		if (!j || !dir_used(&j->dir[dir]))
			continue;
		if (cmp_left_out(s, r, name, dup, dir)) {
			sv->left_out++;
			continue;
		}
		d = &j->dir[dir];
		sv->runs++;
		sv->has_bins |= (m->lat == L_CLAT ? d->clat : d->lat).nr_bins > 0;
		if (!metric_value(m, d, &sv->v[sv->n]))
			continue;
		if (isnan(sv->v[sv->n])) {
			sv->not_number = true;
			continue;
		}
		if (!sv->n++) {
			sv->first = d;
			sv->first_run = run;
		}
	}
}

static double mean_of(const struct side_vals *sv)
{
	double s = 0;
	unsigned int i;

	for (i = 0; i < sv->n; i++)
		s += sv->v[i];
	return sv->n ? s / sv->n : NAN;
}

/*
 * One run's estimate from its own samples (batch means), its mean the
 * report's figure; false, with the reason in why, when it has too few.
 */
static bool batch_est(const struct side_vals *sv, char label,
		      const struct metric *m, struct cmp_est *e,
		      unsigned int *points, double *lag1, struct strbuf *why)
{
	const struct rio_series *sr = m->kind == M_IOPS ?
				      &sv->first->iops_series :
				      &sv->first->bw_series;
	double scale = m->kind == M_IOPS ? 1.0 : 1024.0;
	unsigned int k = cmp_batches_for(sr->nr);

	*points = sr->nr;
	if (!sr->nr) {
		strbuf_addf(why, "%c's report (%s) has no per-interval samples, "
			    "only their summary (n, mean, stdev: all fio's JSON "
			    "keeps), and neighbouring intervals are correlated, "
			    "so no valid interval follows from that (with "
			    "--status-interval=1s the reports between give the "
			    "samples)", label, *sv->first_run->version ?
			    sv->first_run->version : "unknown tool");
		return false;
	}
	if (!k) {
		strbuf_addf(why, "%c's run has %u per-interval samples where "
			    "batch means need 20 (a lower iopsavgtime/"
			    "bwavgtime or a longer run gives more)", label,
			    sr->nr);
		return false;
	}
	cmp_est_batches(sr->v, sr->nr, k, e, lag1);
	e->mean = sv->v[0];
	e->se2 *= scale * scale;
	return true;
}

static void estimate(struct row *r, char la, char lb)
{
	const struct metric *m = r->m;
	struct strbuf why = STRBUF_INIT;
	unsigned int pa = 0, pb = 0;
	double ra = 0, rb = 0;

	r->method = MT_NONE;
	if (r->a.not_number || r->b.not_number) {
		strbuf_addf(&r->why, "not comparable: %c's report gives %s as "
			    "something that is not a number",
			    r->a.not_number ? la : lb, m->name);
	} else if (!r->a.n || !r->b.n) {
		strbuf_addf(&r->why, "not comparable: %c's report%s no %s%s",
			    r->a.n ? lb : la,
			    (r->a.n ? r->b.runs : r->a.runs) > 1 ? "s have" :
			    " has", m->name, m->kind == M_PCT ?
			    " (not in its percentile list, and no json+ "
			    "histogram)" : "");
	} else if (r->a.n >= 2 && r->b.n >= 2) {
		cmp_est_runs(r->a.v, r->a.n, &r->ea);
		cmp_est_runs(r->b.v, r->b.n, &r->eb);
		r->method = MT_RUNS;
		strbuf_addf(&r->why, "Welch's t over the runs (%c: %u, %c: %u)",
			    la, r->a.n, lb, r->b.n);
		if (r->a.left_out || r->b.left_out)
			strbuf_addf(&r->why, "; left out, as iolite's repeat "
				    "summary did (flagged by iolite): %c: %u, "
				    "%c: %u", la, r->a.left_out, lb,
				    r->b.left_out);
	} else if (r->a.n != 1 || r->b.n != 1) {
		strbuf_addf(&r->why, "no interval: %c has %u runs, %c %u; an "
			    "interval needs at least 2 on each side", la,
			    r->a.n, lb, r->b.n);
	} else if (m->kind != M_IOPS && m->kind != M_BW) {
		strbuf_addstr(&r->why, "no interval: one run per side; latency "
			      "means and percentiles need several runs per "
			      "side for an interval");
	} else if (batch_est(&r->a, la, m, &r->ea, &pa, &ra, &why) &&
		   batch_est(&r->b, lb, m, &r->eb, &pb, &rb, &why)) {
		bool fa = r->a.first->iops_series.from_reports;
		bool fb = r->b.first->iops_series.from_reports;

		r->method = MT_BATCHES;
		strbuf_addf(&r->why, "batch means: each side's one run cut into "
			    "10 batches of its per-interval samples (%c: %u, "
			    "%c: %u samples); one run per side: repeats would "
			    "be better", la, pa, lb, pb);
		if (fa || fb)
			strbuf_addf(&r->why, "; %c%s samples are the rates "
				    "between successive --status-interval "
				    "reports", fa ? la : lb, fa && fb ?
				    "'s and the other side's" : "'s");
		if (ra > 0.5 || rb > 0.5)
			strbuf_addf(&r->why, "; the batch means are still "
				    "correlated (lag-1 %.2f): the interval may "
				    "be too narrow", ra > rb ? ra : rb);
	} else {
		strbuf_addf(&r->why, "no interval: one run per side, and %s; "
			    "give each side several runs", strbuf_str(&why));
	}
	strbuf_release(&why);
}

/* --- printing ------------------------------------------------------- */

static const char *const rate_units[] = { "B/s", "KiB/s", "MiB/s", "GiB/s",
					  "TiB/s" };
static const char *const time_units[] = { "ns", "us", "ms", "s" };

/* The unit a row shows its figures in, and the divisor for it. */
static const char *row_unit(const struct metric *m, double ref, double *div)
{
	unsigned int i = 0;

	*div = 1;
	if (m->kind == M_IOPS)
		return NULL;
	if (m->kind == M_BW) {
		while (ref / *div >= 1024 && i + 1 < 5) {
			*div *= 1024;
			i++;
		}
		return rate_units[i];
	}
	while (ref / *div >= 1000 && i + 1 < 4) {
		*div *= 1000;
		i++;
	}
	return time_units[i];
}

/* About four significant figures, never an exponent. */
static void fmt_num(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, n, "-");
	else if (a >= 1000)
		snprintf(buf, n, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3f", v);
}

static bool higher_better(const struct metric *m)
{
	return m->kind == M_IOPS || m->kind == M_BW;
}

const char *cmp_vrow_verdict(const struct cmp_vrow *v, double conf)
{
	struct cmp_ci ci;

	if (!v->has_ci)
		return "no-interval";
	if (cmp_interval(&v->ea, &v->eb, conf, &ci) || !ci.significant)
		return "no-difference";
	return (ci.diff > 0) == v->higher_better ? "faster" : "slower";
}

static bool differs(const char *w)
{
	return !strcmp(w, "faster") || !strcmp(w, "slower");
}

void cmp_tests_count(const struct cmp_tally *t, double conf,
		     struct cmp_tests *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->nr_vrows; i++)
		out->m += t->vrows[i].has_ci;
	out->conf_all = out->m > 1 ? 1 - (1 - conf) / out->m : conf;
	for (i = 0; i < t->nr_vrows; i++) {
		if (!differs(cmp_vrow_verdict(&t->vrows[i], conf)))
			continue;
		out->found++;
		out->hold += differs(cmp_vrow_verdict(&t->vrows[i],
						      out->conf_all));
	}
}

/* Keeps row r for the page and the summary's count. */
static void keep_vrow(struct cmp_tally *t, const struct row *r,
		      const char *job, unsigned int dir, char lb)
{
	struct cmp_vrow *v;

	if (t->nr_vrows == t->alloc_vrows) {
		t->alloc_vrows = t->alloc_vrows ? 2 * t->alloc_vrows : 32;
		t->vrows = xrealloc(t->vrows, t->alloc_vrows *
				    sizeof(*t->vrows));
	}
	v = &t->vrows[t->nr_vrows++];
	memset(v, 0, sizeof(*v));
	snprintf(v->job, sizeof(v->job), "%s", job);
	v->dir = dir;
	v->metric = r->m->name;
	v->side = lb;
	v->higher_better = r->m->kind == M_IOPS || r->m->kind == M_BW;
	v->a = mean_of(&r->a);
	v->b = mean_of(&r->b);
	v->has_ci = r->method != MT_NONE;
	v->ea = r->ea;
	v->eb = r->eb;
	v->ci = r->ci;
}

/* "faster", "slower", "no-difference", "no-interval" */
static const char *verdict(const struct row *r)
{
	if (r->method == MT_NONE)
		return "no-interval";
	if (!r->ci.significant)
		return "no-difference";
	return (r->ci.diff > 0) == higher_better(r->m) ? "faster" : "slower";
}

static void print_row_normal(FILE *out, const struct row *r, char lb,
			     unsigned int note)
{
	double a = mean_of(&r->a), b = mean_of(&r->b), div;
	const char *unit = row_unit(r->m, fmax(fabs(a), fabs(b)), &div);
	const char *v = verdict(r);
	char name[48], sa[24], sb[24], ch[24], iv[48], vd[48];

	snprintf(name, sizeof(name), unit ? "%s (%s)" : "%s", r->m->name,
		 unit);
	fmt_num(sa, sizeof(sa), a / div);
	fmt_num(sb, sizeof(sb), b / div);
	if (a != 0 && r->a.n && r->b.n)
		snprintf(ch, sizeof(ch), "%+.2f%%", (b / a - 1) * 100);
	else
		snprintf(ch, sizeof(ch), "-");
	if (r->method == MT_NONE)
		snprintf(iv, sizeof(iv), "-");
	else if (!r->ci.ratio_bounded)
		snprintf(iv, sizeof(iv), "unbounded");
	else
		snprintf(iv, sizeof(iv), "%+.2f%% .. %+.2f%%",
			 (r->ci.ratio_lo - 1) * 100, (r->ci.ratio_hi - 1) * 100);
	if (!strcmp(v, "faster") || !strcmp(v, "slower"))
		snprintf(vd, sizeof(vd), "%c %s", lb, v);
	else if (!strcmp(v, "no-difference"))
		snprintf(vd, sizeof(vd), "no significant difference");
	else
		snprintf(vd, sizeof(vd), "no interval");
	fprintf(out, "  %-18s %11s %11s %9s  %-20s %s [%u]\n", name, sa, sb, ch,
		iv, vd, note);
}

static void print_row_tsv(FILE *out, const struct row *r, char lb,
			  const char *name, unsigned int dup, unsigned int dir)
{
	static const char *const mname[] = { "runs", "batches", "none" };
	double a = mean_of(&r->a), b = mean_of(&r->b);

	fprintf(out, "%c\t%s\t%u\t%s\t%s\t%.3f\t%.3f\t", lb, name, dup + 1,
		rio_dir_name[dir], r->m->name, a, b);
	if (a != 0 && r->a.n && r->b.n)
		fprintf(out, "%.4f\t", (b / a - 1) * 100);
	else
		fprintf(out, "-\t");
	if (r->method != MT_NONE && r->ci.ratio_bounded)
		fprintf(out, "%.4f\t%.4f\t", (r->ci.ratio_lo - 1) * 100,
			(r->ci.ratio_hi - 1) * 100);
	else
		fprintf(out, "-\t-\t");
	fprintf(out, "%s\t%s\n", verdict(r), mname[r->method]);
}

void cmp_tsv_header(FILE *out)
{
	fprintf(out, "side\tjob\tinstance\tdir\tmetric\ta\tb\tchange_pct\t"
		"lo_pct\thi_pct\tverdict\tmethod\n");
}

void cmp_unjudged(struct cmp_tally *t, const char *fmt, ...)
{
	va_list ap;

	t->unjudged++;
	strbuf_addstr(&t->unjudgeable, "  ");
	va_start(ap, fmt);
	strbuf_vaddf(&t->unjudgeable, fmt, ap);
	va_end(ap);
	strbuf_addch(&t->unjudgeable, '\n');
}

/*
 * Slower beyond --fail-if-slower: counted and described for the end. A
 * gate fails closed: a figure one side lacks or gives as no number
 * cannot be judged, and is counted as such (a row without an interval
 * is stated, as before: one run per side has none for latencies).
 */
static void judge(const struct cmp_args *args, const struct row *r, char lb,
		  const char *job, unsigned int dir, struct cmp_tally *t)
{
	double a = mean_of(&r->a), b = mean_of(&r->b), change;

	t->rows++;
	if (args->fail_if_slower >= 0 &&
	    (r->a.not_number || r->b.not_number || !r->a.n || !r->b.n))
		cmp_unjudged(t, "%s, %s, %s: %s", job, rio_dir_name[dir],
			     r->m->name, strbuf_str(&r->why));
	if (r->method == MT_NONE) {
		t->no_interval++;
		return;
	}
	if (args->fail_if_slower < 0 || strcmp(verdict(r), "slower") || a == 0)
		return;
	change = fabs(b / a - 1);
	if (change <= args->fail_if_slower)
		return;
	t->regressions++;
	strbuf_addf(&t->regressed, "  %s, %s, %s: %c slower by %.2f%% (%s)",
		    job, rio_dir_name[dir], r->m->name, lb, change * 100,
		    r->method == MT_RUNS ? "runs" : "batch means");
	if (r->ci.ratio_bounded)
		strbuf_addf(&t->regressed, ", interval %+.2f%% .. %+.2f%%",
			    (r->ci.ratio_lo - 1) * 100,
			    (r->ci.ratio_hi - 1) * 100);
	strbuf_addch(&t->regressed, '\n');
}

/* --- a job ---------------------------------------------------------- */

static bool side_has_dir(const struct cmp_side *s, const char *name,
			 unsigned int dup, unsigned int dir)
{
	unsigned int r;

	for (r = 0; r < s->doc.nr_runs; r++) {
		const struct rio_job *j = rio_find_job(&s->doc.runs[r], name, dup);

		if (j && dir_used(&j->dir[dir]))
			return true;
	}
	return false;
}

static bool side_has_job(const struct cmp_side *s, const char *name,
			 unsigned int dup)
{
	unsigned int r;

	for (r = 0; r < s->doc.nr_runs; r++)
		if (rio_find_job(&s->doc.runs[r], name, dup))
			return true;
	return false;
}

/* text after prefix, wrapped at 79 columns under its first line */
static void print_wrapped(FILE *out, const char *prefix, const char *text)
{
	size_t indent = strlen(prefix), col = indent, w;
	const char *p = text;

	fputs(prefix, out);
	while (*p) {
		while (*p == ' ')
			p++;
		w = strcspn(p, " ");
		if (!w)
			break;
		if (col > indent && col + 1 + w > 79) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += w;
		p += w;
	}
	fputc('\n', out);
}

/* Footnote number of text among notes (added when new), from 1. */
static unsigned int note_of(char **notes, unsigned int *nr, const char *text)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(notes[i], text))
			return i + 1;
	notes[(*nr)++] = xstrdup(text);
	return *nr;
}

/*
 * A sweep point's values after the job's label (" at iodepth=4"), from
 * side s's first run; empty when the job is no sweep point.
 */
static void sweep_label(struct strbuf *sb, const struct cmp_side *s,
			const char *name, unsigned int dup)
{
	const struct rio_job *j = rio_find_job(&s->doc.runs[0], name, dup);
	unsigned int k;

	for (k = 0; j && k < j->nr_sweep; k++)
		strbuf_addf(sb, "%s%s=%s", k ? "," : " at ", j->sweep[k].key,
			    j->sweep[k].val);
}

/*
 * "x#2 at iodepth=2": the job as the table names it. Sweep points are
 * paired by their swept values (compare.c renumbers them); where a side
 * is no sweep, both are named.
 */
static void job_title(char *buf, size_t n, const struct cmp_side *a,
		      const struct cmp_side *b, const char *name,
		      unsigned int dup)
{
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	const struct rio_job *ja = rio_find_job(&a->doc.runs[0], name, dup);
	const struct rio_job *jb = rio_find_job(&b->doc.runs[0], name, dup);

	sweep_label(&sa, a, name, dup);
	sweep_label(&sb, b, name, dup);
	if (dup)
		snprintf(buf, n, "%s#%u", name, dup + 1);
	else
		snprintf(buf, n, "%s", name);
	if (!strcmp(strbuf_str(&sa), strbuf_str(&sb)) ||
	    (ja && jb && ja->nr_sweep && cmp_same_point(ja, jb)))
		snprintf(buf + strlen(buf), n - strlen(buf), "%s",
			 strbuf_str(&sa));
	else
		snprintf(buf + strlen(buf), n - strlen(buf), " (%c%s, %c%s)",
			 a->label, *strbuf_str(&sa) ? strbuf_str(&sa) : ": no sweep",
			 b->label, *strbuf_str(&sb) ? strbuf_str(&sb) : ": no sweep");
	strbuf_release(&sa);
	strbuf_release(&sb);
}

static void compare_dir(const struct cmp_args *args, const struct cmp_side *a,
			const struct cmp_side *b, const char *name,
			unsigned int dup, unsigned int dir, FILE *out,
			struct cmp_tally *t)
{
	char *notes[NR_METRICS + 1], job[512];
	unsigned int nr_notes = 0, i;
	bool pct = false, bins_a = true, bins_b = true;
	struct row r;

	if (args->tsv) {
		if (dup)
			snprintf(job, sizeof(job), "%s#%u", name, dup + 1);
		else
			snprintf(job, sizeof(job), "%s", name);
	} else {
		job_title(job, sizeof(job), a, b, name, dup);
	}
	if (!args->tsv) {
		char vs[16], iv[32];

		snprintf(vs, sizeof(vs), "%c vs %c", b->label, a->label);
		snprintf(iv, sizeof(iv), "%g%% interval", args->conf * 100);
		fprintf(out, "\n%s, %s:\n  %-18s %11c %11c %9s  %-20s %s\n",
			job, rio_dir_name[dir], "metric", a->label, b->label,
			vs, iv, "verdict");
	}
	for (i = 0; i < NR_METRICS; i++) {
		if (args->metrics && !(args->metrics & (1ul << i)))
			continue;
		memset(&r, 0, sizeof(r));
		r.m = &metrics[i];
		gather(&r.a, a, name, dup, dir, r.m);
		gather(&r.b, b, name, dup, dir, r.m);
		if (r.a.n || r.b.n) {
			estimate(&r, a->label, b->label);
			if (r.method != MT_NONE)
				cmp_interval(&r.ea, &r.eb, args->conf, &r.ci);
			if (args->tsv)
				print_row_tsv(out, &r, b->label, name, dup, dir);
			else
				print_row_normal(out, &r, b->label,
						 note_of(notes, &nr_notes,
							 strbuf_str(&r.why)));
			judge(args, &r, b->label, job, dir, t);
			keep_vrow(t, &r, job, dir, b->label);
			if (r.m->kind == M_PCT) {
				pct = true;
				bins_a &= r.a.has_bins;
				bins_b &= r.b.has_bins;
			}
		}
		free(r.a.v);
		free(r.b.v);
		strbuf_release(&r.why);
	}
	for (i = 0; i < nr_notes; i++) {
		char pre[16];

		snprintf(pre, sizeof(pre), "  [%u] ", i + 1);
		print_wrapped(out, pre, notes[i]);
		free(notes[i]);
	}
	if (pct && !args->tsv) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "percentiles are histogram figures, exact to "
			    "one bucket (under 1.6%% of the value); %s",
			    bins_a && bins_b ? "json+ histograms give those "
			    "a report's list lacks" : "");
		if (!bins_a && !bins_b)
			strbuf_addstr(&sb, "both reports are plain JSON: only "
				      "the percentiles of their lists (json+ "
				      "would give any)");
		else if (!bins_a || !bins_b)
			strbuf_addf(&sb, "%c's report is plain JSON: only the "
				    "percentiles of its list (json+ would give "
				    "any)", bins_a ? b->label : a->label);
		print_wrapped(out, "  ", sb.buf);
		strbuf_release(&sb);
	}
}

int cmp_job_table(const struct cmp_args *args, const struct cmp_side *a,
		  const struct cmp_side *b, const char *name, unsigned int dup,
		  FILE *out, struct cmp_tally *t)
{
	unsigned int dir;

	if (!side_has_job(b, name, dup))
		return -ENOENT;
	for (dir = 0; dir < RIO_DIR_NR; dir++) {
		bool ha = side_has_dir(a, name, dup, dir);
		bool hb = side_has_dir(b, name, dup, dir);

		if (ha && hb)
			compare_dir(args, a, b, name, dup, dir, out, t);
		else if ((ha || hb) && !args->tsv)
			fprintf(out, "\n%s, %s: only %c has I/O in this "
				"direction\n", name, rio_dir_name[dir],
				ha ? a->label : b->label);
		if (ha && !hb && args->fail_if_slower >= 0)
			cmp_unjudged(t, "%s, %s: %c has no I/O in this "
				     "direction", name, rio_dir_name[dir],
				     b->label);
	}
	return 0;
}
