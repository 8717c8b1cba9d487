/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_HTML_H
#define IOLITE_REPORT_HTML_H

#include <stdbool.h>

#include "plot/runcharts.h"
#include "stats/results.h"
#include "util/strbuf.h"

/*
 * Inside report/: the HTML report's parts. html.c writes the page, its
 * summary and tables; html_charts.c puts a group's jobs into
 * plot/runcharts.h's model, which draws the charts and the figures and
 * percentile tables; html_profile.c the CPU profile; html_ranks.c iolite-mpi's ranks.
 */

/* The jobs of one group that ran, as indexes into rr->jobs. */
struct group_jobs {
	const struct run_result *rr;
	unsigned int *idx;	/* owned */
	unsigned int nr;
	struct rc_group rc;	/* their charts; rc.label: what they are called */
};

static inline const struct job_result *gjob(const struct group_jobs *g,
					    unsigned int k)
{
	return &g->rr->jobs[g->idx[k]];
}

/* Group gid's jobs that ran, with their charts' model. */
void html_group_get(const struct run_result *rr, unsigned int gid,
		    struct group_jobs *g);
void html_group_release(struct group_jobs *g);

/*
 * The run's targets (html_target.c): each job's path and its file
 * system, the disks under them and what sysfs says of them.
 */
void html_targets(struct strbuf *sb, const struct run_result *rr);

/* The group's CPU profile (profile=): split and flame graph; or nothing. */
void html_profile_section(struct strbuf *sb, const struct run_result *rr,
			  unsigned int gid);

/* iolite-mpi: the group's ranks, their spread and bars; or nothing. */
void html_ranks_section(struct strbuf *sb, const struct run_result *rr,
			unsigned int gid);

#endif
