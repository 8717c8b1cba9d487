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

struct live_opts {
	const char *stream;	/* --interval-output: a path, "-", or NULL */
	const char *listen;	/* --metrics-listen: ADDR:PORT, or NULL */
	const char *push;	/* --metrics-push: http://HOST:PORT/PATH */
	uint64_t linger_ms;	/* --metrics-linger: serve this long after */
	uint64_t interval_ms;	/* the period */
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

/* The port the endpoint listens on (--metrics-listen=...:0 picks one). */
unsigned int live_port(const struct live *l);

#endif
