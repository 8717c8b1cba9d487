/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_HTML_H
#define IOLITE_REPORT_HTML_H

#include <stdbool.h>

#include "stats/results.h"
#include "util/strbuf.h"

/*
 * Inside report/: the HTML report's parts. html.c writes the page, its
 * summary and tables; html_charts.c makes the charts from the results
 * model, each a <figure> appended to sb.
 */

/* The jobs of one group that ran, as indexes into rr->jobs. */
struct group_jobs {
	const struct run_result *rr;
	unsigned int gid;
	unsigned int *idx;	/* owned */
	unsigned int nr;
	char **label;		/* owned: plot/page.h's page_job_labels */
};

static inline const struct job_result *gjob(const struct group_jobs *g,
					    unsigned int k)
{
	return &g->rr->jobs[g->idx[k]];
}

extern const char *const html_dir_name[RES_DIR_NR];

/* Is direction d shown for job j (fio shows it when it moved bytes)? */
bool html_dir_shown(const struct job_result *j, unsigned int d);

/* Latency by percentile: clat, and slat and lat when measured apart. */
void html_pct_charts(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int d);
/* The clat histogram (lat when clat is not measured). */
void html_hist_chart(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int d);
/* Bandwidth and IOPS over time; nothing without samples. */
void html_time_charts(struct strbuf *sb, const struct group_jobs *g,
		      unsigned int d);
/* Each job's bandwidth, whiskers to its lowest and highest sample. */
void html_jobs_chart(struct strbuf *sb, const struct group_jobs *g,
		     unsigned int d);
/* IO depth, submit and complete distributions. */
void html_dist_charts(struct strbuf *sb, const struct group_jobs *g);
/* The group's CPU profile (profile=): split and flame graph; or nothing. */
void html_profile_section(struct strbuf *sb, const struct run_result *rr,
			  unsigned int gid);
/* CPU: usr, sys, io-wq, per job. */
void html_cpu_chart(struct strbuf *sb, const struct group_jobs *g);

#endif
