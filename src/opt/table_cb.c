/* SPDX-License-Identifier: MIT */
/*
 * Option callbacks for rw (with its offset modifiers), rwmixwrite,
 * bssplit, startdelay, gtod_reduce and percentile_list: split out of
 * table.c, which lists the rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"
#include "util/num.h"

/*
 * The count of rw=randread:N: its leading decimal digits, as fio reads it
 * (randread:8k is 8 I/Os per seek in fio 3.33, not 8192).
 */
static int rw_count(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/*
 * rw=randread:8 -- the ':N' part is a count of I/Os per new random offset
 * for the random modes, and a size added to each next offset for the
 * sequential ones: rw=write:4k leaves 4k holes, rw=read:-8k steps back
 * 8k after each read (reading backwards). A negative count means nothing
 * for the random modes (fio silently turns them sequential): refused.
 */
int opt_rw_cb(const struct opt_def *def, struct job_options *o,
	      const char *val, struct strbuf *err)
{
	const char *colon = strchr(val, ':'), *arg;
	char *mode = colon ? xstrndup(val, (size_t)(colon - val)) : xstrdup(val);
	bool neg = false, rnd;
	uint64_t nr = 0;
	int v;

	if (opt_enum_lookup(opt_rw_enums, mode, &v)) {
		strbuf_addf(err, "invalid value '%s' (valid: ", mode);
		opt_enum_list(opt_rw_enums, err);
		strbuf_addch(err, ')');
		free(mode);
		return -1;
	}
	free(mode);
	rnd = v == RW_RANDREAD || v == RW_RANDWRITE || v == RW_RANDTRIM ||
	      v == RW_RANDRW || v == RW_RANDTRIMWRITE;
	/* fio reads an empty "read:" as no modifier */
	if (colon && colon[1]) {
		arg = colon + 1;
		if (*arg == '-') {
			neg = true;
			arg++;
		}
		if (neg && rnd) {
			strbuf_addf(err, "modifier '%s': a negative offset "
				    "modifier needs a sequential mode (read, "
				    "write, rw, trim, trimwrite)", colon + 1);
			return -1;
		}
		if (rnd && rw_count(arg, &nr)) {
			strbuf_addf(err, "modifier '%s': not a count of I/Os",
				    colon + 1);
			return -1;
		}
		if (!rnd && opt_parse_size_msg(arg, o->kb_base, &nr, err))
			return -1;
		if (nr > (rnd ? UINT32_MAX : (uint64_t)INT64_MAX)) {
			strbuf_addf(err, "modifier '%s' is too large",
				    colon + 1);
			return -1;
		}
	}
	o->rw = (enum rw_mode)v;
	o->rw_seq_nr = rnd ? (unsigned int)nr : 0;
	o->rw_seq_add = rnd ? 0 : neg ? -(int64_t)nr : (int64_t)nr;
	return 0;
}

void opt_rw_fmt(const struct opt_def *def, const struct job_options *o,
		struct strbuf *out)
{
	strbuf_addstr(out, opt_enum_name(opt_rw_enums, (int)o->rw));
	if (o->rw_seq_nr)
		strbuf_addf(out, ":%u", o->rw_seq_nr);
	else if (o->rw_seq_add)
		strbuf_addf(out, ":%" PRId64, o->rw_seq_add);
}

/* As fio: whichever of rwmixread/rwmixwrite comes last wins. */
int opt_rwmixwrite_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	uint64_t v;

	if (opt_parse_size_msg(val, o->kb_base, &v, err) ||
	    opt_check_range(def, v, 0, err))
		return -1;
	o->rwmixread = 100 - (unsigned int)v;
	return 0;
}

void opt_rwmixwrite_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out)
{
	strbuf_addf(out, "%u", 100 - o->rwmixread);
}

struct bssplit_ctx {
	struct job_options *o;
};

/* One direction: "4k/10:64k/50:32k/" (blank shares the remainder). */
static int bssplit_one(const char *part, unsigned int d, void *vctx,
		       struct strbuf *err)
{
	struct job_options *o = ((struct bssplit_ctx *)vctx)->o;
	struct bssplit tmp[BSSPLIT_MAX];
	bool blank[BSSPLIT_MAX];
	char *copy = xstrdup(part), *p = copy, *next;
	unsigned int n = 0, nblank = 0, sum = 0, i;
	int ret = -1;

	for (; p; p = next) {
		char *slash;
		uint64_t v;

		next = strchr(p, ':');
		if (next)
			*next++ = '\0';
		if (!*p)
			continue;
		if (n == BSSPLIT_MAX) {
			strbuf_addf(err, "more than %d block sizes",
				    BSSPLIT_MAX);
			goto out;
		}
		slash = strchr(p, '/');
		if (slash)
			*slash++ = '\0';
		if (opt_parse_size_msg(p, o->kb_base, &v, err))
			goto out;
		if (!v) {
			strbuf_addstr(err, "block size 0 is not allowed");
			goto out;
		}
		tmp[n].bs = v;
		blank[n] = !slash || !*slash;
		tmp[n].perc = 0;
		if (blank[n]) {
			nblank++;
		} else {
			if (num_parse_u64(slash, &v) || v > 100) {
				strbuf_addf(err, "invalid percentage '%s' "
					    "(0..100)", slash);
				goto out;
			}
			tmp[n].perc = (unsigned int)v;
			sum += (unsigned int)v;
		}
		n++;
	}
	if (!n) {
		strbuf_addf(err, "no block sizes in '%s'", part);
		goto out;
	}
	if (sum > 100 || (!nblank && sum != 100)) {
		strbuf_addf(err, "percentages in '%s' add up to %u, not 100",
			    part, sum);
		goto out;
	}
	for (i = 0; i < n; i++) {
		unsigned int left = 100 - sum;

		if (!blank[i])
			continue;
		/* the rounding remainder goes to the first blanks */
		tmp[i].perc = left / nblank + (left % nblank ? 1 : 0);
		sum += tmp[i].perc;
		nblank--;
	}
	memcpy(o->bssplit[d], tmp, n * sizeof(tmp[0]));
	o->nr_bssplit[d] = n;
	ret = 0;
out:
	free(copy);
	return ret;
}

int opt_bssplit_cb(const struct opt_def *def, struct job_options *o,
		   const char *val, struct strbuf *err)
{
	struct bssplit_ctx c = { o };

	return opt_parse_dirs(val, bssplit_one, &c, err);
}

static void bssplit_fmt_one(unsigned int d, const void *vo,
			    struct strbuf *out)
{
	const struct job_options *o = vo;
	unsigned int i;

	for (i = 0; i < o->nr_bssplit[d]; i++)
		strbuf_addf(out, "%s%" PRIu64 "/%u", i ? ":" : "",
			    o->bssplit[d][i].bs, o->bssplit[d][i].perc);
}

void opt_bssplit_fmt(const struct opt_def *def,
		     const struct job_options *o, struct strbuf *out)
{
	opt_format_dirs(bssplit_fmt_one, o, out);
}

static int startdelay_one(const struct opt_def *def, const char *s,
			  uint64_t *v, struct strbuf *err)
{
	int ret = num_parse_time_us(s, def->unit_us, v);

	if (ret)
		strbuf_addf(err, ret == -ERANGE ? "'%s' is too large" :
			    "invalid time '%s'", s);
	return ret ? -1 : 0;
}

/*
 * startdelay=time, or a range lo-hi (lo:hi) that each job instance
 * picks its delay from (plan_draw_startdelay()), as fio's HOWTO says.
 */
int opt_startdelay_cb(const struct opt_def *def, struct job_options *o,
		      const char *val, struct strbuf *err)
{
	const char *sep = strpbrk(val, "-:");
	uint64_t lo, hi = 0;
	char *first;
	int ret;

	first = sep ? xstrndup(val, (size_t)(sep - val)) : xstrdup(val);
	ret = startdelay_one(def, first, &lo, err);
	free(first);
	if (ret || (sep && startdelay_one(def, sep + 1, &hi, err)))
		return -1;
	/* fio 3.33 waits for ever on such a range */
	if (sep && hi < lo) {
		strbuf_addf(err, "range '%s' ends below its start", val);
		return -1;
	}
	o->startdelay_us = lo;
	o->startdelay_hi_us = hi > lo ? hi : 0;
	return 0;
}

void opt_startdelay_fmt(const struct opt_def *def,
			const struct job_options *o, struct strbuf *out)
{
	opt_format_time(o->startdelay_us, out);
	if (o->startdelay_hi_us) {
		strbuf_addch(out, '-');
		opt_format_time(o->startdelay_hi_us, out);
	}
}

/*
 * gtod_reduce=1 turns off, at this point of the job, every measurement
 * that needs clock reads per I/O and every percentile report, as fio
 * does; an option after it can turn one back on ("gtod_reduce=1" then
 * "disable_clat=0"). An earlier explicit value is overridden, so its
 * row no longer counts as given (the --parse-only dump must read back
 * the same). gtod_reduce=0 changes nothing else.
 */
int opt_gtod_reduce_cb(const struct opt_def *def, struct job_options *o,
		       const char *val, struct strbuf *err)
{
	static const char *const rows[] = {
		"disable_lat", "disable_clat", "disable_slat",
		"disable_bw_measurement", "clat_percentiles",
		"lat_percentiles", "slat_percentiles",
	};
	size_t i;

	if (!o->gtod_reduce)
		return 0;
	o->disable_lat = o->disable_clat = o->disable_slat = true;
	o->disable_bw = true;
	o->clat_percentiles = o->lat_percentiles = false;
	o->slat_percentiles = false;
	if (!opt_in_table(def))
		return 0;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct opt_def *r = opt_lookup(rows[i]);

		if (r)
			o->set[opt_index(r)] = 0;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * percentile_list=99:99.9:50 -- fio's rules: at most 20 entries (more
 * are ignored), an entry of 0 (or an empty one) ends the list, the list
 * is sorted, and the labels get as many decimals as the entry written
 * with the most ("99.90" -> 2), counted over every entry given.
 */
int opt_percentile_list_cb(const struct opt_def *def,
			   struct job_options *o, const char *val,
			   struct strbuf *err)
{
	double v[PERCENTILE_LIST_MAX];
	unsigned int n = 0, prec = 0;
	bool ended = false;
	const char *p = val;

	for (;;) {
		size_t len = strcspn(p, ":");
		char *tok = xstrndup(p, len);
		const char *dot = strchr(tok, '.');
		double d = 0;

		if (*tok && (num_parse_double(tok, &d) ||
			     !(d >= 0.0 && d <= 100.0))) {
			strbuf_addf(err, "invalid percentile '%s' (a number "
				    "in 0..100)", tok);
			free(tok);
			return -1;
		}
		if (dot && strspn(dot + 1, "0123456789") > prec)
			prec = (unsigned int)strspn(dot + 1, "0123456789");
		free(tok);
		if (d == 0.0)
			ended = true;
		if (!ended && n < PERCENTILE_LIST_MAX)
			v[n++] = d;
		if (!p[len])
			break;
		p += len + 1;
	}
	qsort(v, n, sizeof(v[0]), cmp_double);
	memcpy(o->percentile_list, v, n * sizeof(v[0]));
	o->nr_percentile_list = n;
	o->percentile_precision = prec;
	return 0;
}

/* Entries with the list's precision; "0" for an empty list. */
void opt_percentile_list_fmt(const struct opt_def *def,
			     const struct job_options *o,
			     struct strbuf *out)
{
	unsigned int i;
	char buf[400];

	if (!o->nr_percentile_list)
		strbuf_addch(out, '0');
	for (i = 0; i < o->nr_percentile_list; i++) {
		double v = o->percentile_list[i];

		snprintf(buf, sizeof(buf), "%.*f",
			 (int)o->percentile_precision, v);
		/* a value the precision cannot show: its exact digits */
		if (strtod(buf, NULL) != v)
			snprintf(buf, sizeof(buf), "%.17g", v);
		strbuf_addf(out, "%s%s", i ? ":" : "", buf);
	}
}
