/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_LOG_H
#define IOLITE_STATS_LOG_H

#include <pthread.h>
#include <sched.h>
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
 *   --bandwidth-log   agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log
 *
 * P empty (a bare option) is the job's name; per_job_logs=0 drops ".N"
 * and jobs with the same P share one file. A line is
 * "time_ms, value, ddir, bs[, offset], prio": prio is fio's flag for a
 * real-time priority (1 for an I/O of class 1, else 0), or with log_prio
 * the I/O's priority value in hex (class << 13 | level: 0x2000, 0x4003;
 * 0x0000 for none); window lines (log_avg_msec) have 0, as fio's.
 * log_issue_time (fio 3.42) adds ", issue": the clat and slat lines'
 * I/O issue time in ns from the epoch (completion time - clat: no
 * record grows), 0 in every other line. With
 * log_store_compressed the files are P_lat.N.log.fz etc. in fio's format
 * (binary samples in zlib streams of log_compression bytes each) which
 * log_inflate() turns back into text; a histogram line is
 * "time_ms, ddir, bs, bucket0, bucket1, ..." with the buckets of
 * stats.h's struct hist (fio's layout), 2^log_hist_coarseness merged into
 * one. Times count from the end of ramp_time (with log_unix_epoch or
 * log_alternate_epoch: plus that moment's reading of the epoch clock,
 * in ms); nothing is logged during it. The slat log has lines only for I/O that was queued: an engine
 * that completes inline has no submission latency (its slat log is
 * empty, as fio's).
 *
 * Values: latencies in ns; bandwidth in KiB/s (per I/O: bytes * 10^6 /
 * clat_ns, as fio); IOPS (1 per I/O). With log_avg_msec each line covers
 * one window per direction with I/O in it: the mean, or with
 * log_window_value=max the maximum (both: the mean, then the maximum;
 * the bandwidth and IOPS lines repeat their value), and bs and offset 0. A last window shorter
 * than half a window is not logged (its figures rest on too little),
 * unless it is the only one. The aggregate logs have a line per
 * direction every bwavgtime (the smallest of the jobs'): the bandwidth
 * of every job together, in KiB/s, bs 0, prio 0.
 *
 * No entry is ever lost. Who does what, so that the I/O path pays a few
 * stores per I/O:
 *  - The worker appends binary records (24 bytes per I/O, 32 with
 *    log_offset; one per latency window with log_avg_msec; one per
 *    histogram window) to a chunk of preallocated memory. A full chunk
 *    goes to the job's log writer thread through a single-producer
 *    single-consumer ring, and the worker takes an empty chunk from a
 *    second ring that the writer keeps filled (and grows, up to
 *    LOG_POOL_MAX chunks, LOG_POOL_ALL over all jobs, while the worker
 *    drains it). No malloc, lock,
 *    stdio or syscall per I/O. When no empty chunk is there the writer
 *    has fallen behind and the worker waits for it (a futex, the only
 *    blocking); the time waited is the job's log_wait_ns, reported,
 *    since it held up the I/O measured. With log_drop_when_behind=1
 *    (an iolite extension) the records are dropped instead and counted.
 *  - Writer threads (log_write.c), one per logging job up to the CPUs
 *    available, pinned to the CPUs log_compression_cpus names (all the
 *    jobs' lists together), else to the CPUs no job's cpus_allowed
 *    includes when there are such: they format the records with a decimal writer of
 *    their own into a 1 MiB buffer per file and write(2) it when full.
 *    Jobs that share a file share a writer.
 *  - The reporter thread (run/runner.c) makes the windowed bandwidth and
 *    IOPS lines (log_avg_msec) from the live counters (log_sample()),
 *    queued to the writers, and the aggregate lines (log_set_tick()),
 *    which it writes itself.
 * A file that cannot be written (ENOSPC, EIO) stops being written; the
 * others go on, and log_set_release() names it.
 */

enum log_kind {
	LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_BW, LOG_IOPS, LOG_HIST,
	LOG_KIND_NR,
};

#define LOG_CHUNK_BYTES (256 * 1024)
#define LOG_POOL_MAX 128	/* chunks per job at most: 32 MiB */
#define LOG_POOL_ALL 1024	/* chunks of all jobs at most: 256 MiB */
#define LOG_RING_SIZE 256	/* > LOG_POOL_MAX, a power of two */

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

/*
 * Records. Every one starts with this 24-byte header; what follows
 * depends on the type:
 *   LOGR_IO       one I/O, clat and slat in the header (both < 2^32 ns);
 *                 then the offset when the job logs offsets
 *   LOGR_IO_LONG  one I/O with a latency of 2^32 ns or more: clat, slat
 *                 (uint64_t each), then the offset as above
 *   LOGR_WIN      a latency window: lat, clat, slat (mean or max), len 0
 *   LOGR_HIST     a histogram window: HIST_NR bucket counts
 *   LOGR_SLAT     a queued I/O that failed: as LOGR_IO, slat only
 * lat is clat + slat (start to issue to completion).
 */
enum { LOGR_IO = 1, LOGR_IO_LONG, LOGR_WIN, LOGR_HIST, LOGR_SLAT };

struct log_rec {
	uint64_t time_ns;	/* since the job's log epoch */
	uint32_t clat;
	uint32_t slat;
	uint32_t len;
	uint8_t ddir;
	uint8_t type;
	uint16_t prio;		/* LOGR_IO*: the I/O's priority value */
};

/*
 * An I/O's direction and priority value in one word, as the log calls
 * take them: the direction in bits 0-7, the priority in bits 16-31 --
 * the layout of the last word of a record (type in bits 8-15), so that
 * a record's is made with one OR and one store.
 */
static inline uint32_t log_dp(unsigned int ddir, uint16_t prio)
{
	return ddir | (uint32_t)prio << 16;
}

static inline void log_rec_tail(struct log_rec *r, unsigned int type,
				uint32_t dp)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t w = dp | type << 8;

	__builtin_memcpy(&r->ddir, &w, sizeof(w));
#else
	r->ddir = (uint8_t)dp;
	r->type = (uint8_t)type;
	r->prio = (uint16_t)(dp >> 16);
#endif
}

/* Which latencies the worker measures: log lines only for those. */
enum { LOGV_LAT = 1, LOGV_CLAT = 2, LOGV_SLAT = 4 };

/* A latency window being summed up, per direction. */
struct log_win {
	uint64_t n;
	uint64_t sum[3];
	uint64_t max[3];
};

/* A bandwidth / IOPS window line, from the reporter to the writer. */
struct log_rate {
	uint64_t t_ms;
	uint64_t bw, iops;
	unsigned int ddir;
};

struct log_file;
struct log_writer;
struct log_agg;

/* One job instance's logs. Fields are grouped by the thread writing them. */
struct job_log {
	/* fixed before the run */
	struct log_set *set;
	struct log_writer *writer;	/* NULL: no records to format */
	unsigned int ddir_mask;
	uint64_t bs[DDIR_RWDIR_CNT];	/* histogram lines' block size */
	struct log_file *file[LOG_KIND_NR];	/* NULL: not logged */
	bool any_file;
	bool per_io;		/* the worker records every I/O */
	bool lat_win;		/* the worker averages latencies per window */
	int win_value;		/* enum log_window_value */
	unsigned int win_vals;	/* values per window record: 3, 6 with both */
	bool log_offset, prio_hex;
	bool issue_time;	/* log_issue_time (its column: log_write.c) */
	bool drop_behind;	/* log_drop_when_behind */
	int epoch_clock;	/* log_unix_epoch: its clock, else -1 */
	unsigned int io_bytes;	/* a LOGR_IO record with its offset */
	unsigned int coarse;	/* log_hist_coarseness */
	uint64_t avg_ns;	/* log_avg_msec */
	uint64_t hist_ns;	/* log_hist_msec, 0: no histogram lines */
	unsigned int pool_first;	/* chunks made before the run */
	unsigned int pool_max;		/* chunks it may grow to */

	/* the worker's, from log_job_start() */
	struct log_chunk *cur;
	uint8_t valid;
	uint64_t epoch_ns;
	uint64_t epoch_add_ms;	/* added to every time: the epoch clock's
				 * reading at epoch_ns (0: none) */
	uint64_t win_start, win_end;
	struct log_win win[DDIR_RWDIR_CNT];
	uint64_t hist_start, hist_end;
	bool win_any, hist_any;		/* a window was logged */
	const struct worker_stats *st;
	struct hist *hist_prev;	/* [DDIR_RWDIR_CNT], last window's counts */
	uint64_t hist_prev_ios[DDIR_RWDIR_CNT];
	uint64_t wait_ns;	/* waited for an empty chunk */
	_Atomic uint64_t waits;	/* times it waited (the writer reads it) */
	_Atomic uint64_t dropped;	/* records lost (log_drop_when_behind) */
	_Atomic int started;		/* epoch_ns is set */

	struct log_ring full;	/* worker -> writer */
	struct log_ring empty;	/* writer -> worker */
	_Atomic uint32_t empty_seq;	/* futex word: bumped on every refill */
	_Atomic int waiting;		/* the worker sleeps on empty_seq */

	/* the reporter's: bandwidth / IOPS windows, aggregate counts */
	bool sampling;
	bool sample_done;
	bool sample_any;
	uint64_t s_start, s_end;
	uint64_t s_bytes[DDIR_RWDIR_CNT], s_ios[DDIR_RWDIR_CNT];
	uint64_t agg_seen[DDIR_RWDIR_CNT];	/* last counters read */
	uint64_t agg_bytes[DDIR_RWDIR_CNT];	/* over counter restarts */

	/* reporter -> writer: window lines, under rate_lock */
	pthread_mutex_t rate_lock;
	struct log_rate *rates;
	unsigned int nr_rates, alloc_rates;

	/* the writer's */
	unsigned int pool;		/* chunks made */
	unsigned int pool_target;	/* chunks to keep ready */
	uint64_t waits_seen;
};

/* Every job's logs and the files they write. */
struct log_set {
	struct job_log **jobs;	/* [nr], NULL for a job that logs nothing */
	unsigned int nr;
	struct log_file **files;
	unsigned int nr_files;
	struct log_agg *agg;	/* --bandwidth-log, or NULL */

	/* CPUs for the writers: the process's, less every job's */
	cpu_set_t spare;
	unsigned int nr_spare, nr_allowed;
	bool shared;		/* some file has several jobs */

	struct log_writer *writers;
	unsigned int nr_writers;
	_Atomic int stop;	/* the workers are done: drain and end */
	_Atomic int hold;	/* tests: writers take no chunk */
	bool finished;
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

/*
 * --bandwidth-log: the aggregate bandwidth logs in the current
 * directory, checked as log_set_init() checks (message: "option
 * '--bandwidth-log': cannot create log file ..."). Every job gets a
 * job_log, so that the reporter counts its bytes. Returns 0 or -1.
 */
int log_set_bandwidth_log(struct log_set *ls, const struct job_plan *plans,
			  unsigned int nr, struct strbuf *err);

/* True when some job logs something. */
bool log_set_active(const struct log_set *ls);

/*
 * How many files the logs keep open (all of them, from start to end of
 * the run), and the first job that logs to one, with its option ("" and
 * 0 when none), for the file descriptor check before the run.
 */
unsigned int log_set_nr_files(const struct log_set *ls, unsigned int *job,
			      const char **opt);

/*
 * Creates (truncates) the files, preallocates the chunk pools and starts
 * the writer threads; call after log_set_init(), before the run.
 * Returns 0 or -1 with a message.
 */
int log_set_open(struct log_set *ls, struct strbuf *err);

/*
 * How often the reporter must sample: dflt, or the shortest bw/iops log
 * window (log_avg_msec) when that is shorter, as fio honours it.
 */
uint64_t log_set_tick_ns(const struct log_set *ls, uint64_t dflt);

/*
 * Reporter thread, once per tick after log_sample() of every job: the
 * aggregate bandwidth lines due at now.
 */
void log_set_tick(struct log_set *ls, uint64_t now);

/*
 * After the run (the workers have exited and the reporter's last
 * log_sample() calls are made): the writers format everything left,
 * flush the files and end. Safe to call twice.
 */
void log_set_finish(struct log_set *ls);

/*
 * Reporter thread: bandwidth and IOPS window lines (log_avg_msec) from a
 * job's live counters, read at now. done: the job has finished at now
 * (the counters are final; the last window is closed).
 */
void log_sample(struct job_log *jl, uint64_t now, const uint64_t *bytes,
		const uint64_t *ios, bool done);

/* Records dropped over all jobs (log_drop_when_behind only). */
uint64_t log_set_dropped(const struct log_set *ls);

/*
 * After log_set_finish(): the report's note on the logs (time the jobs
 * waited for the writers, entries dropped, files that could not be
 * written), appended to sb; nothing when there is nothing to say.
 */
void log_set_notes(const struct log_set *ls, struct strbuf *sb);

/*
 * --inflate-log: writes a compressed log (.fz, ours or fio's) to out as
 * text lines. Returns 0, or -1 with "'path': ..." in err.
 */
int log_inflate(const char *path, FILE *out, struct strbuf *err);

/* One sample of a log file, as fio writes it in a line or a .fz record. */
struct log_entry {
	uint64_t t_ms;
	uint64_t value;
	unsigned int ddir;
	uint64_t bs;
	uint64_t offset;	/* with has_offset (log_offset=1) */
	bool has_offset;
	bool prio_hex;		/* log_prio=1: prio is the priority value */
	unsigned int prio;	/* else fio's real-time flag */
};

/*
 * Calls fn for each sample of a compressed log (.fz, ours or fio's), in
 * order (log_inflate() prints them; `iolite plot` reads them). Returns
 * 0; fn's value when it is not 0 (the walk stops); -1 with "'path':
 * ..." in err when the file cannot be read or inflated.
 */
int log_fz_each(const char *path,
		int (*fn)(void *arg, const struct log_entry *e), void *arg,
		struct strbuf *err);

/*
 * Finishes (log_set_finish()) and closes the files and frees
 * everything. Returns 0, or -1 with "cannot write log file 'x': ..." in
 * err (the first file that failed; how many others did).
 */
int log_set_release(struct log_set *ls, struct strbuf *err);

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

/* After log_job_start(): does the worker call log_io() per I/O at all? */
static inline bool log_job_per_io(const struct job_log *jl)
{
	return jl && (jl->per_io || jl->lat_win || jl->hist_ns);
}

/* ... and nothing but a record per I/O (no windows): log_io_rec() */
static inline bool log_job_rec_only(const struct job_log *jl)
{
	return jl && jl->per_io && !jl->lat_win && !jl->hist_ns;
}

/* Out of line: a new chunk (NULL only with log_drop_when_behind). */
struct log_rec *log_reserve_slow(struct job_log *jl, size_t bytes);
void log_io_long(struct job_log *jl, uint32_t dp, uint32_t len,
		 uint64_t offset, uint64_t clat, uint64_t slat, uint64_t now);
int log_io_rec_slow(struct job_log *jl, uint32_t dp, uint32_t len,
		    uint64_t offset, uint64_t clat, uint64_t slat, uint64_t now);
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

/* Fills a LOGR_IO record (clat and slat below 2^32 ns). */
static inline void log_fill_io(const struct job_log *jl, struct log_rec *r,
			       uint32_t dp, uint32_t len, uint64_t offset,
			       uint64_t clat, uint64_t slat, uint64_t now)
{
	r->time_ns = now - jl->epoch_ns;
	r->clat = (uint32_t)clat;
	r->slat = (uint32_t)slat;
	r->len = len;
	log_rec_tail(r, LOGR_IO, dp);
	if (jl->log_offset)
		*(uint64_t *)(r + 1) = offset;
}

/*
 * A queued I/O that failed (issued at start, submitted at issue): fio
 * logs the submission latency when it submits an I/O and the rest only
 * when it completes without error, so the slat log alone gets its line.
 */
static inline void log_io_failed(struct job_log *jl, uint32_t dp,
				 uint32_t len, uint64_t offset, uint64_t start,
				 uint64_t issue)
{
	uint64_t slat = issue - start;
	struct log_rec *r;

	if (!jl->per_io || !(r = log_reserve(jl, jl->io_bytes)))
		return;
	log_fill_io(jl, r, dp, len, offset, 0,
		    slat > UINT32_MAX ? UINT32_MAX : slat, issue);
	log_rec_tail(r, LOGR_SLAT, dp);
}

/*
 * log_io() for a job with log_job_rec_only(): the record, and the rest
 * as a tail call, so that the caller needs no stack frame. Returns 0.
 */
static inline int log_io_rec(struct job_log *jl, uint32_t dp, uint32_t len,
			     uint64_t offset, uint64_t start, uint64_t issue,
			     uint64_t now)
{
	uint64_t clat = now - issue, slat = issue - start;
	struct log_chunk *c = jl->cur;
	struct log_rec *r;

	if (__builtin_expect(!c || ((clat | slat) >> 32) ||
			     c->used + jl->io_bytes > LOG_CHUNK_BYTES, 0))
		return log_io_rec_slow(jl, dp, len, offset, clat, slat, now);
	r = (struct log_rec *)&c->data[c->used / 8];
	c->used += jl->io_bytes;
	log_fill_io(jl, r, dp, len, offset, clat, slat, now);
	return 0;
}

/*
 * One completed I/O of a data direction, with its priority value (dp:
 * log_dp()): issued at start, submitted at issue, completed at now (ns,
 * the worker's clock). Called after the I/O is in the worker's stats.
 */
static inline void log_io(struct job_log *jl, uint32_t dp, uint32_t len,
			  uint64_t offset, uint64_t start, uint64_t issue,
			  uint64_t now)
{
	uint64_t clat = now - issue, slat = issue - start;
	unsigned int d = dp & 0xff;

	if (jl->per_io) {
		struct log_rec *r;

		if (__builtin_expect((clat | slat) >> 32, 0)) {
			log_io_long(jl, dp, len, offset, clat, slat, now);
		} else if ((r = log_reserve(jl, jl->io_bytes))) {
			log_fill_io(jl, r, dp, len, offset, clat, slat, now);
		}
	}
	if (jl->lat_win) {
		struct log_win *w = &jl->win[d];
		uint64_t lat = clat + slat;

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
