/* SPDX-License-Identifier: MIT */
/* Steady state in the reports: see report/steady.h. */
#include "report/steady.h"

#include "util/numfmt.h"
#include "util/strbuf.h"

static bool ss_slope(const struct ss_result *r)
{
	return r->mode == SS_IOPS_SLOPE || r->mode == SS_BW_SLOPE ||
	       r->mode == SS_LAT_SLOPE;
}

/* The criterion's word in the normal report: "iops", "bw" or "lat". */
static const char *ss_what(const struct ss_result *r)
{
	if (r->mode == SS_IOPS || r->mode == SS_IOPS_SLOPE)
		return "iops";
	return ss_mode_is_lat(r->mode) ? "lat" : "bw";
}

void report_steady_json(struct json_writer *w, const struct job_result *j)
{
	const struct ss_result *r = j->ss;
	struct strbuf sb = STRBUF_INIT;
	unsigned int k;

	if (!r)
		return;
	json_begin_object(w, "steadystate");
	/* fio's texts: "iops_slope:0.010000%", the criterion alike */
	strbuf_addf(&sb, "%s:%f%s", ss_mode_name(r->mode), r->limit,
		    r->pct ? "%" : "");
	json_str(w, "ss", strbuf_str(&sb));
	json_u64(w, "duration", r->nr);
	json_u64(w, "attained", r->attained);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%f%s", r->criterion, r->pct ? "%" : "");
	json_str(w, "criterion", strbuf_str(&sb));
	json_double(w, "max_deviation", r->max_dev);
	json_double(w, "slope", r->slope);
	json_begin_object(w, "data");
	json_u64(w, "bw_mean", r->bw_mean);
	json_u64(w, "iops_mean", r->iops_mean);
	if (ss_mode_is_lat(r->mode)) {
		/* fio 3.36's keys: the mean and the samples, in ns */
		json_u64(w, "lat_mean", r->lat_mean);
		json_begin_array(w, "lat_ns");
		for (k = 0; k < r->nr; k++)
			json_u64(w, NULL, ss_result_lat(r)[k]);
		json_end_array(w);
	}
	json_begin_array(w, "iops");
	for (k = 0; k < r->nr; k++)
		json_u64(w, NULL, ss_result_iops(r)[k]);
	json_end_array(w);
	json_begin_array(w, "bw");
	for (k = 0; k < r->nr; k++)
		json_u64(w, NULL, ss_result_bw(r)[k]);
	json_end_array(w);
	json_end_object(w);
	json_end_object(w);
	strbuf_release(&sb);
}

void report_steady_normal(FILE *f, const struct job_result *j)
{
	const struct ss_result *r = j->ss;
	struct strbuf b1 = STRBUF_INIT, b2 = STRBUF_INIT, io = STRBUF_INIT;
	struct strbuf lat = STRBUF_INIT;
	enum numfmt_unit bwu = j->unit_base == 1 ? NUMFMT_BITPERSEC :
						   NUMFMT_BYTEPERSEC;
	bool pow2 = j->kb_base == 1024;

	if (!r)
		return;
	numfmt(&b1, r->bw_mean, j->sig_figs, pow2, bwu);
	numfmt(&b2, r->bw_mean, j->sig_figs, !pow2, bwu);
	numfmt(&io, r->iops_mean, j->sig_figs, false, NUMFMT_NONE);
	if (ss_mode_is_lat(r->mode)) {
		/*
		 * fio 3.36 picks the unit as for the clat line with a
		 * deviation of 0, which never scales: always nsec
		 */
		strbuf_addstr(&lat, ", lat=");
		numfmt(&lat, r->lat_mean, j->sig_figs, false, NUMFMT_NONE);
		strbuf_addstr(&lat, "nsec");
	}
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s, "
		"%s%s=%.3f%s\n", r->attained ? "yes" : "no", strbuf_str(&b1),
		strbuf_str(&b2), strbuf_str(&io), strbuf_str(&lat), ss_what(r),
		ss_slope(r) ? " slope" : " mean dev", r->criterion,
		r->pct ? "%" : "");
	strbuf_release(&lat);
	strbuf_release(&b1);
	strbuf_release(&b2);
	strbuf_release(&io);
}
