/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_MAIN_H
#define IOLITE_MAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

struct cli;
struct job_list;
struct live_opts;
struct run_result;

/*
 * How a wrapper around iolite's main (iolite-mpi, src/mpi/) takes part
 * in a run without main knowing what it is. The plain iolite passes
 * NULL. Every hook is optional; arg goes to each. One-way: main calls
 * the hooks, the hooks never call into main.
 */
struct main_hooks {
	void *arg;
	/* this process writes no report (its part goes to another) */
	bool quiet;
	/* may have no job (set by loaded: its jobs are others' to run) */
	bool empty_ok;
	/* the job files are read: the wrapper may drop or mark jobs */
	int (*loaded)(void *arg, const struct cli *c, struct job_list *jl,
		      struct strbuf *err);
	/*
	 * Every check passed, nothing created yet: non-zero stops here
	 * (exit 1, the hook said why) -- another process could not start.
	 */
	int (*ready)(void *arg);
	/* before each stonewall segment (runner_opts.segment_start) */
	int (*segment_start)(void *arg, unsigned int seg);
	/* the reporter thread's tick (runner_opts.sync_poll) */
	int (*sync_poll)(void *arg, bool stopping);
	/* the live intervals' phase (runner_opts.interval_epoch) */
	uint64_t (*interval_epoch)(void *arg);
	/*
	 * The live options, checked, before anything is made: the wrapper
	 * may take the outputs over (src/live/live.h: a tap, and its own
	 * stream and endpoint) by changing lo
	 */
	void (*live)(void *arg, struct live_opts *lo);
	/*
	 * Writes the final reports instead of main: rr is this process's
	 * results (notes and options filled), out where reports go, html
	 * the page's file (or out, or NULL: no html asked, or quiet).
	 */
	int (*report)(void *arg, const struct cli *c, struct run_result *rr,
		      FILE *out, FILE *html);
	/* the run is over; returns the exit status for this process */
	int (*finish)(void *arg, int status);
};

/* iolite's main with hooks (src/main.c); h may be NULL. */
int iolite_main(int argc, char **argv, const struct main_hooks *h);

/*
 * `iolite pts ...` (src/pts/, a layer above main): main hands it
 * iolite_main, which runs each of its phases; argv[0] is "pts".
 */
int pts_main(int argc, char **argv,
	     int (*run)(int argc, char **argv, const struct main_hooks *h));

#endif
