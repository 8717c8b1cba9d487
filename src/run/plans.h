/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_PLANS_H
#define IOLITE_RUN_PLANS_H

#include <stdbool.h>

#include "job/job.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * From the job list to the run's plans: each job description built and
 * checked (job_build, job_plan_build), its numjobs clones expanded in
 * order, group ids counted from stonewall/new_group, its engine found
 * (or named with the package a build lacks), read_iolog's files and
 * directions taken from the log, --readonly's refusals, and the checks
 * across jobs (steady state). Nothing is created or opened but the
 * read_iolog files read.
 *
 * Returns 0 with the plans in *out (*nr of them, NULL for none;
 * release each with plan_release(), then free the array), or -1 with
 * err set, its location on the option's own line where one names it
 * (job_list_relocate()).
 */
int plans_build(const struct job_list *jl, unsigned long max_jobs,
		bool readonly, struct job_plan **out, unsigned int *nr,
		struct strbuf *err);

/*
 * One clock for the run (machine/clock.h's clock_init): the TSC unless
 * a job asks for clock_gettime or gettimeofday; clocksource=cpu makes
 * the TSC a requirement. Returns -1 with the reason in note; else note
 * may say what was chosen.
 */
int plans_clock_init(const struct job_plan *plans, unsigned int nr,
		     struct strbuf *note);

#endif
