/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_LIVE_LIVE_H
#define IOLITE_LIVE_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/worker_result.h"
#include "util/strbuf.h"

/*
 * Live numbers while the run goes on (issue #30): the per-interval
 * stream (--interval-output) and the metrics endpoint (--metrics-listen,
 * --metrics-push). Results side: it reads the workers' results the
 * runner's reporter thread hands to live_interval() (consistent copies
 * the workers make between two batches, run/runner.c) and never sees
 * the runner, an engine or a worker; nothing of it is on the I/O path.
 *
 * Each interval is a delta: the job's figures at this snapshot minus
 * those at the last one (counts, bytes, histogram buckets, the integer
 * sums of the latency moments), so the intervals of a job add up to its
 * final report exactly and their histograms merge into the report's,
 * bucket for bucket. The deltas are put through results_build(), so a
 * group_reporting group is merged by the report's own rules.
 *
 * The reporter thread only computes and formats: a writer thread writes
 * the stream (a slow reader stalls it, never the reporter, which queues
 * the lines), and a server thread answers scrapes (non-blocking sockets,
 * a deadline per connection: a scraper that never reads is dropped).
 */

struct live;
struct job_result;

/* One reported job's interval: the figures and their times. */
struct live_rec {
	const struct job_result *j;	/* the delta, as the report builds */
	unsigned int jobid;		/* the reported job's index */
	uint64_t seq;			/* the interval's number, from 1 */
	uint64_t start_ns, end_ns;	/* the run's clock */
	uint64_t t0_ns;			/* the stream's origin */
	uint64_t count_ns;		/* when its counting began */
	int64_t wall_off_ns;		/* CLOCK_REALTIME minus the clock */
	bool last;			/* its members are done: partial */
	unsigned int round;		/* --repeat's run, from 0 */
	uint64_t cpu_ns;		/* the live numbers' CPU so far */
	unsigned int ranks;		/* iolite-mpi: the ranks merged; 0 */
};

/*
 * What live_interval() hands a tap (iolite-mpi's, src/mpi/) each call,
 * valid during the call only: the records of the jobs that have an
 * interval this time (none, between them), and per job instance its
 * group (as the plan numbers it) and whether its last interval is out.
 */
struct live_tap {
	const struct live_rec *rec;
	unsigned int nr_rec;
	const unsigned int *inst_gid;
	const bool *inst_closed;
	unsigned int nr_inst;
	bool final;			/* every job is done */
	uint64_t now_ns;		/* the call's time, the run's clock */
};

struct live_opts {
	const char *stream;	/* --interval-output: a path, "-", or NULL */
	const char *listen;	/* --metrics-listen: ADDR:PORT, or NULL */
	const char *push;	/* --metrics-push: http://HOST:PORT/PATH */
	uint64_t linger_ms;	/* --metrics-linger: serve this long after */
	uint64_t interval_ms;	/* the period */
	/*
	 * A wrapper's tap: when set, every live_interval() call's records
	 * go to it (iolite-mpi merges them at rank 0); it may be the only
	 * thing set
	 */
	void (*tap)(void *arg, const struct live_tap *t);
	void *tap_arg;
};

/*
 * Checks the options before anything is created: the address, the URL.
 * 0, or -1 with "option '--NAME': ..." in err.
 */
int live_check(const struct live_opts *o, struct strbuf *err);

/*
 * Opens the stream and binds the endpoint (after the checks, at the
 * prepare phase), starts the threads. NULL with a message in err.
 */
struct live *live_start(const struct live_opts *o, struct strbuf *err);

/* A new round (--repeat): the jobs' counts start from zero again. */
void live_round(struct live *l, unsigned int round);

/* The runner's interval hook (run/runner.h): see there. */
void live_interval(struct live *l, struct worker_result *wr, unsigned int nr,
		   bool final);

/*
 * The end: the last push, the linger for a final scrape, the stream
 * drained and closed, the threads joined. What the run's report should
 * say (a failed push, a dropped scraper, time spent waiting for the
 * stream's reader) goes to notes, one a line. Returns -1 when the
 * stream could not be written (said in notes), else 0. Frees l.
 */
int live_finish(struct live *l, struct strbuf *notes);

/*
 * Records made elsewhere (iolite-mpi's merge at rank 0) written to the
 * stream and added to the metrics as live_interval()'s own: r->j, jobid,
 * seq, start_ns, end_ns (the run's clock: clock_now_ns()), count_ns and
 * last filled; the rest is l's. final: the run is over (the push).
 */
void live_put(struct live *l, struct live_rec *r, unsigned int nr,
	      bool final);

/* The port the endpoint listens on (--metrics-listen=...:0 picks one). */
unsigned int live_port(const struct live *l);

#endif
