/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_LOG_H
#define IOLITE_STATS_LOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "opt/plan.h"
#include "stats/stats.h"
#include "util/strbuf.h"

/*
 * fio's log files, one set per job instance (numbered from 1 by the
 * instance's position among all jobs, as fio), in fio 3.33's format:
 *
 *   write_lat_log=P   P_lat.N.log, P_clat.N.log, P_slat.N.log
 *   write_bw_log=P    P_bw.N.log      write_iops_log=P   P_iops.N.log
 *   write_hist_log=P  P_clat_hist.N.log (needs log_hist_msec)
 *
 * P empty (a bare option) is the job's name; per_job_logs=0 drops ".N"
 * and jobs with the same P share one file. A line is
 * "time_ms, value, ddir, bs[, offset], prio": prio is fio's flag for a
 * real-time priority, always 0, or with log_prio the priority value in
 * hex, always 0x0000 (iolite sets no I/O priority). With
 * log_store_compressed the files are P_lat.N.log.fz etc. in fio's format
 * (binary samples in zlib streams of log_compression bytes each) which
 * log_inflate() turns back into text; a histogram
 * line is "time_ms, ddir, bs, bucket0, bucket1, ..." with the buckets of
 * stats.h's struct hist (fio's layout), 2^log_hist_coarseness merged into
 * one. Times count from the end of ramp_time; nothing is logged during it.
 *
 * Values: latencies in ns; bandwidth in KiB/s (per I/O: bytes * 10^6 /
 * clat_ns, as fio); IOPS (1 per I/O). With log_avg_msec each line covers
 * one window per direction with I/O in it: the mean, or with
 * log_max_value the maximum, and bs and offset 0. A last window shorter
 * than half a window is not logged (its figures rest on too little),
 * unless it is the only one.
 *
 * Who does what, so that the I/O path pays a few stores per I/O:
 *  - The worker appends records (one per I/O without log_avg_msec, one
 *    per latency window with it, one per histogram window) into a chunk
 *    of preallocated memory. A full chunk goes to the reporter thread
 *    through a single-producer single-consumer ring and the worker takes
 *    an empty one from a second ring, which the reporter keeps filled
 *    (and grows when the worker drains it fast). No malloc, lock, stdio
 *    or syscall on the worker's side; when no empty chunk is there the
 *    records are counted as dropped (log_set_dropped(), a report note).
 *  - The reporter thread formats the chunks into the files as they come
 *    (log_set_drain()) and writes the windowed bandwidth and IOPS lines
 *    itself from the live counters (log_sample()).
 */

enum log_kind {
	LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_BW, LOG_IOPS, LOG_HIST,
	LOG_KIND_NR,
};

#define LOG_CHUNK_BYTES (64 * 1024)
#define LOG_RING_SIZE 1024	/* chunks per ring, a power of two */

struct log_chunk {
	size_t used;		/* bytes of data[] holding records (records
				 * are multiples of 8 bytes) */
	uint64_t data[LOG_CHUNK_BYTES / 8];
};

/* Single producer, single consumer; head and tail only grow. */
struct log_ring {
	_Atomic unsigned int head;	/* next slot the producer fills */
	_Atomic unsigned int tail;	/* next slot the consumer takes */
	struct log_chunk *slot[LOG_RING_SIZE];
};

enum { LOGR_IO = 1, LOGR_WIN, LOGR_HIST };

/*
 * One record. LOGR_IO: one I/O; LOGR_WIN: a latency window (v[] mean or
 * max, len 0); LOGR_HIST: followed by HIST_NR uint64_t bucket counts of
 * the window (offset unused). valid bit k: v[k] was measured.
 */
struct log_rec {
	uint8_t type;
	uint8_t ddir;
	uint8_t valid;
	uint8_t pad;
	uint32_t len;
	uint64_t time_ns;	/* since the job's log epoch */
	uint64_t offset;
	uint64_t v[3];		/* lat, clat, slat in ns */
};

enum { LOGV_LAT = 1, LOGV_CLAT = 2, LOGV_SLAT = 4 };

/* A latency window being summed up, per direction. */
struct log_win {
	uint64_t n;
	uint64_t sum[3];
	uint64_t max[3];
};

struct log_file;

/* One job instance's logs. Fields are grouped by the thread writing them. */
struct job_log {
	/* fixed before the run */
	struct log_set *set;
	unsigned int ddir_mask;
	uint64_t bs[DDIR_RWDIR_CNT];	/* histogram lines' block size */
	struct log_file *file[LOG_KIND_NR];	/* NULL: not logged */
	bool per_io;		/* the worker records every I/O */
	bool lat_win;		/* the worker averages latencies per window */
	bool log_max, log_offset;
	unsigned int coarse;	/* log_hist_coarseness */
	uint64_t avg_ns;	/* log_avg_msec */
	uint64_t hist_ns;	/* log_hist_msec, 0: no histogram lines */

	/* the worker's, from log_job_start() */
	struct log_chunk *cur;
	uint8_t valid;
	uint64_t epoch_ns;
	uint64_t win_start, win_end;
	struct log_win win[DDIR_RWDIR_CNT];
	uint64_t hist_start, hist_end;
	bool win_any, hist_any;		/* a window was logged */
	const struct worker_stats *st;
	struct hist *hist_prev;	/* [DDIR_RWDIR_CNT], last window's counts */
	uint64_t hist_prev_ios[DDIR_RWDIR_CNT];
	_Atomic uint64_t dropped;	/* records lost for want of a chunk */
	_Atomic int started;		/* epoch_ns is set */

	struct log_ring full;	/* worker -> reporter */
	struct log_ring empty;	/* reporter -> worker */

	/* the reporter's: bandwidth / IOPS windows, pool size */
	bool sampling;
	bool sample_done;
	bool sample_any;
	uint64_t s_start, s_end;
	uint64_t s_bytes[DDIR_RWDIR_CNT], s_ios[DDIR_RWDIR_CNT];
	unsigned int pool_target;
};

/* Every job's logs and the files they write. */
struct log_set {
	struct job_log **jobs;	/* [nr], NULL for a job that logs nothing */
	unsigned int nr;
	struct log_file **files;
	unsigned int nr_files;
	int error;		/* first write error (errno), 0 if none */
};

/*
 * Works out every job's log files from its options (nothing created) and
 * checks that each can be created: its directory exists and is writable,
 * the name is not a directory. Returns 0, or -1 with
 * "file:line: option 'write_bw_log': cannot create log file 'x': ..." in
 * err. ls is zeroed first; log_set_release() frees it (also on error).
 */
int log_set_init(struct log_set *ls, const struct job_plan *plans,
		 unsigned int nr, struct strbuf *err);

/* True when some job logs something. */
bool log_set_active(const struct log_set *ls);

/*
 * Creates (truncates) the files and preallocates the chunk pools; call
 * after log_set_init(), before the run. Returns 0 or -1 with a message.
 */
int log_set_open(struct log_set *ls, struct strbuf *err);

/*
 * Reporter thread: formats what the workers handed over (at most
 * max_chunks chunks in all, 0: no limit) and tops up the empty rings.
 * final: the workers have exited; their last chunks are taken too.
 */
void log_set_drain(struct log_set *ls, unsigned int max_chunks, bool final);

/*
 * Reporter thread: bandwidth and IOPS window lines (log_avg_msec) from a
 * job's live counters, read at now. done: the job has finished at now
 * (the counters are final; the last window is closed).
 */
void log_sample(struct job_log *jl, uint64_t now, const uint64_t *bytes,
		const uint64_t *ios, bool done);

/* Records dropped over all jobs (no empty chunk was ready). */
uint64_t log_set_dropped(const struct log_set *ls);

/*
 * --inflate-log: writes a compressed log (.fz, ours or fio's) to out as
 * text lines. Returns 0, or -1 with "'path': ..." in err.
 */
int log_inflate(const char *path, FILE *out, struct strbuf *err);

/*
 * Flushes and closes the files (after log_set_drain(final)) and frees
 * everything. Returns 0, or -errno of the first write error.
 */
int log_set_release(struct log_set *ls);

/* --- the worker's side ------------------------------------------------ */

/*
 * Counting starts (after ramp_time) at now: the epoch of the log times.
 * st is the worker's stats (histogram windows read its clat histograms);
 * valid: which of lat, clat, slat the worker measures (LOGV_*).
 */
void log_job_start(struct job_log *jl, uint64_t now,
		   const struct worker_stats *st, unsigned int valid);
/* The job's I/O is over at now: the last windows are closed. */
void log_job_end(struct job_log *jl, uint64_t now);

/* Out of line: a new chunk (NULL when none: the record is dropped). */
struct log_rec *log_reserve_slow(struct job_log *jl, size_t bytes);
void log_win_close(struct job_log *jl, uint64_t now);
void log_hist_close(struct job_log *jl, uint64_t now, unsigned int d,
		    uint64_t clat);

static inline struct log_rec *log_reserve(struct job_log *jl, size_t bytes)
{
	struct log_chunk *c = jl->cur;

	if (__builtin_expect(c && c->used + bytes <= LOG_CHUNK_BYTES, 1)) {
		struct log_rec *r = (struct log_rec *)&c->data[c->used / 8];

		c->used += bytes;
		return r;
	}
	return log_reserve_slow(jl, bytes);
}

/*
 * One completed I/O of direction d (a data direction): issued at start,
 * submitted at issue, completed at now (ns, the worker's clock). Called
 * after the I/O is in the worker's stats.
 */
static inline void log_io(struct job_log *jl, unsigned int d, uint32_t len,
			  uint64_t offset, uint64_t start, uint64_t issue,
			  uint64_t now)
{
	uint64_t lat = now - start, clat = now - issue, slat = issue - start;

	if (jl->per_io) {
		struct log_rec *r = log_reserve(jl, sizeof(*r));

		if (r) {
			r->type = LOGR_IO;
			r->ddir = (uint8_t)d;
			r->valid = jl->valid;
			r->len = len;
			r->time_ns = now - jl->epoch_ns;
			r->offset = offset;
			r->v[0] = lat;
			r->v[1] = clat;
			r->v[2] = slat;
		}
	}
	if (jl->lat_win) {
		struct log_win *w = &jl->win[d];

		/* this I/O belongs to the window that starts at its end */
		if (now >= jl->win_end)
			log_win_close(jl, now);
		w->n++;
		w->sum[0] += lat;
		w->sum[1] += clat;
		w->sum[2] += slat;
		if (lat > w->max[0])
			w->max[0] = lat;
		if (clat > w->max[1])
			w->max[1] = clat;
		if (slat > w->max[2])
			w->max[2] = slat;
	}
	if (jl->hist_ns && now >= jl->hist_end)
		log_hist_close(jl, now, d, clat);
}

#endif
