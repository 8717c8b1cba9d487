/* SPDX-License-Identifier: MIT */
/*
 * Option callbacks and plan rules for latency_target and friends,
 * max_latency, steadystate and exit_what (rows in opt/table.c).
 */
#include "opt/steady_opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"
#include "util/num.h"

const struct opt_enum steady_mode_enums[] = {
	{ "iops", SS_IOPS, "every IOPS sample of the window within LIMIT "
	  "of the window's mean" },
	{ "iops_slope", SS_IOPS_SLOPE, "the least-squares slope of the "
	  "window's IOPS samples below LIMIT" },
	{ "bw", SS_BW, "every bandwidth sample of the window within LIMIT "
	  "of the window's mean" },
	{ "bw_slope", SS_BW_SLOPE, "the least-squares slope of the window's "
	  "bandwidth samples below LIMIT" },
	{ "lat", SS_LAT, "(fio 3.36) every mean completion latency sample of "
	  "the window within LIMIT (a time) of the window's mean" },
	{ "lat_slope", SS_LAT_SLOPE, "(fio 3.36) the least-squares slope of "
	  "the window's mean completion latencies below LIMIT" },
	{ NULL, 0, NULL },
};

const struct opt_enum exit_what_enums[] = {
	{ "group", EXIT_WHAT_GROUP, "the jobs of the finished job's group" },
	{ "stonewall", EXIT_WHAT_STONEWALL, "every running job; the next "
	  "stonewall group still starts" },
	{ "all", EXIT_WHAT_ALL, "every job; later groups do not start" },
	{ NULL, 0, NULL },
};

/* steadystate=MODE:LIMIT, LIMIT a number >= 0 or a percentage "N%" */
int steady_ss_cb(const struct opt_def *def, struct job_options *o,
		 const char *val, struct strbuf *err)
{
	const char *colon = strchr(val, ':');
	char *name, *lim = NULL;
	size_t n;
	double v;
	int mode, ret = -1;
	bool pct = false;

	if (!colon) {
		strbuf_addf(err, "'%s' has no threshold (MODE:LIMIT, e.g. "
			    "iops_slope:0.1%%)", val);
		return -1;
	}
	name = xstrndup(val, (size_t)(colon - val));
	if (opt_enum_lookup(steady_mode_enums, name, &mode)) {
		strbuf_addf(err, "invalid criterion '%s' (valid: ", name);
		opt_enum_list(steady_mode_enums, err);
		strbuf_addch(err, ')');
		goto out;
	}
	lim = xstrdup(colon + 1);
	n = strlen(lim);
	if (n && lim[n - 1] == '%') {
		pct = true;
		lim[n - 1] = '\0';
	}
	if (!pct && ss_mode_is_lat((enum ss_mode)mode)) {
		uint64_t us;

		/* a time, microseconds without a unit; kept in ns */
		if (num_parse_time_us(lim, 1, &us)) {
			strbuf_addf(err, "invalid threshold '%s' (a time, e.g. "
				    "50us, or a percentage of the mean with %%)",
				    colon + 1);
			goto out;
		}
		v = (double)us * 1000.0;
	} else if (num_parse_double(lim, &v) || !isfinite(v) || v < 0) {
		strbuf_addf(err, "invalid threshold '%s' (a number >= 0, or a "
			    "percentage of the mean with %%)", colon + 1);
		goto out;
	}
	o->ss_mode = (enum ss_mode)mode;
	o->ss_limit = v;
	o->ss_pct = pct;
	ret = 0;
out:
	free(name);
	free(lim);
	return ret;
}

void steady_ss_fmt(const struct opt_def *def, const struct job_options *o,
		   struct strbuf *out)
{
	strbuf_addf(out, "%s:",
		    opt_enum_name(steady_mode_enums, (int)o->ss_mode));
	if (ss_mode_is_lat(o->ss_mode) && !o->ss_pct)
		opt_format_time((uint64_t)(o->ss_limit / 1000.0), out);
	else
		strbuf_addf(out, "%.17g%s", o->ss_limit, o->ss_pct ? "%" : "");
}

static int maxlat_one(const char *part, unsigned int d, void *vctx,
		      struct strbuf *err)
{
	struct job_options *o = vctx;
	uint64_t us;

	if (num_parse_time_us(part, 1, &us)) {
		strbuf_addf(err, "invalid time '%s'", part);
		return -1;
	}
	o->max_latency_us[d] = us;
	return 0;
}

int steady_maxlat_cb(const struct opt_def *def, struct job_options *o,
		     const char *val, struct strbuf *err)
{
	return opt_parse_dirs(val, maxlat_one, o, err);
}

static void maxlat_fmt_one(unsigned int d, const void *vo, struct strbuf *out)
{
	opt_format_time(((const struct job_options *)vo)->max_latency_us[d],
			out);
}

void steady_maxlat_fmt(const struct opt_def *def,
		       const struct job_options *o, struct strbuf *out)
{
	opt_format_dirs(maxlat_fmt_one, o, out);
}

int steady_latpct_cb(const struct opt_def *def, struct job_options *o,
		     const char *val, struct strbuf *err)
{
	double v;

	if (num_parse_double(val, &v) || !(v >= 0 && v <= 100)) {
		strbuf_addf(err, "invalid percentile '%s' (0..100)", val);
		return -1;
	}
	o->latency_percentile = v;
	return 0;
}

void steady_latpct_fmt(const struct opt_def *def,
		       const struct job_options *o, struct strbuf *out)
{
	strbuf_addf(out, "%.17g", o->latency_percentile);
}

int steady_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;

	/* 500ns reads as 0us: a target that would silently be off */
	if (opt_is_set(o, "latency_target") && !o->latency_target_us)
		return plan_fail(p, err, "option 'latency_target': the target "
				 "must be at least 1us");
	if (o->latency_target_us && o->disable_lat && o->disable_clat)
		return plan_fail(p, err, "option 'latency_target' needs "
				 "latencies measured (not with gtod_reduce, or "
				 "both disable_lat and disable_clat)");
	if (o->disable_lat && o->disable_clat &&
	    (o->max_latency_us[0] || o->max_latency_us[1] ||
	     o->max_latency_us[2]))
		return plan_fail(p, err, "option 'max_latency' needs "
				 "latencies measured (not with gtod_reduce, or "
				 "both disable_lat and disable_clat)");
	if (o->ss_dur_us && ss_mode_is_lat(o->ss_mode) && o->disable_clat)
		return plan_fail(p, err, "option 'steadystate': criterion '%s' "
				 "needs completion latencies measured (not with "
				 "gtod_reduce or disable_clat)",
				 o->ss_mode == SS_LAT ? "lat" : "lat_slope");
	if (o->ss_dur_us % 1000000)
		return plan_fail(p, err, "option 'steadystate_duration': "
				 "%llu.%06llus is not a whole number of "
				 "seconds (the window holds one sample a "
				 "second)",
				 (unsigned long long)(o->ss_dur_us / 1000000),
				 (unsigned long long)(o->ss_dur_us % 1000000));
	return 0;
}

static bool ss_same(const struct job_options *a, const struct job_options *b)
{
	return a->ss_dur_us == b->ss_dur_us && a->ss_ramp_us == b->ss_ramp_us &&
	       a->ss_mode == b->ss_mode && a->ss_pct == b->ss_pct &&
	       a->ss_limit == b->ss_limit;
}

int steady_plans_check(const struct job_plan *plans, unsigned int nr,
		       struct strbuf *err)
{
	unsigned int i, first = 0;

	/* results.c's rule for who is reported (and judged) together */
	for (i = 1; i < nr; i++) {
		const struct job_plan *p = &plans[i];

		if (!p->o.group_reporting || p->groupid != plans[i - 1].groupid) {
			first = i;
			continue;
		}
		if (ss_same(&plans[first].o, &p->o))
			continue;
		strbuf_addf(err, "%s:%d: job '%s': steady state options differ "
			    "from those of job '%s', reported with it "
			    "(group_reporting judges the group as one)",
			    p->src_file, p->src_line, p->o.name,
			    plans[first].o.name);
		return -1;
	}
	return 0;
}
