/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_STATS_LOG_INT_H
#define IOLITE_STATS_LOG_INT_H

/*
 * Inside the log files module (log.c: set-up, the worker's side, notes;
 * log_write.c: writer threads and formatting; log_fz.c: fio's
 * compressed format). Not for use outside src/stats/log*.c.
 */
#include "stats/log.h"

/*
 * Output: a buffer per file, written with write(2) when full: 1 MiB, or
 * less when there are many files (LOG_OUT_ALL over all of them), never
 * under LOG_OUT_MIN (a histogram line fits).
 */
#define LOG_OUT_BYTES (1024 * 1024)
#define LOG_OUT_ALL (64 * 1024 * 1024)
#define LOG_OUT_MIN (64 * 1024)
/* room for one line past the fill mark: formatters copy fixed sizes */
#define LOG_OUT_SLACK 256
#define LOG_WRITERS_MAX 16

struct log_file {
	char *path;
	int fd;			/* -1 until log_set_open() */
	const char *opt;	/* option that asked for it, for messages */
	bool prio_hex;		/* log_prio: the priority value, in hex */
	bool issue_col;		/* log_issue_time: a last column, the
				 * I/O's issue time in ns (0 but in the
				 * clat and slat logs' I/O lines) */
	unsigned int users;	/* jobs writing it */
	struct log_writer *owner;	/* the thread that writes it */
	char *buf;		/* cap + LOG_OUT_SLACK */
	size_t len, cap;
	int err;		/* first write error (errno), 0 if none */
	uint64_t written;	/* bytes that reached the file */
	/* log_store_compressed: binary samples, a zlib stream per chunk */
	bool compress;
	unsigned char *raw;
	size_t raw_len, chunk;
	unsigned int streams;	/* written so far */
};

struct log_wjob;

struct log_writer {
	struct log_set *ls;
	pthread_t thread;
	bool running;
	struct log_wjob *jobs;	/* the jobs it formats (log_write.c) */
	unsigned int nr_jobs;
	_Atomic uint32_t kick;		/* futex word: bumped to wake it */
	_Atomic int sleeping;
	struct log_rate *spare;		/* swapped with a job's rates */
	unsigned int alloc_spare;
};

/* --bandwidth-log: written by the reporter thread only. */
struct log_agg {
	struct log_file *file[DDIR_RWDIR_CNT];
	uint64_t step_ns;	/* bwavgtime */
	uint64_t epoch_ns;	/* times count from here */
	uint64_t start, end;	/* the window being measured */
	uint64_t bytes[DDIR_RWDIR_CNT];	/* at its start */
	bool any;
};

/* --- output (log_write.c) -------------------------------------------- */

/* Writes out what the buffer holds; after an error, discards it. */
void log_out_flush(struct log_file *lf);
/* Writes len bytes to the file (unbuffered); after an error, nothing. */
void log_out_write(struct log_file *lf, const void *buf, size_t len);

/* Where the next need (at most LOG_OUT_SLACK) bytes go. */
static inline char *log_out_room(struct log_file *lf, size_t need)
{
	if (__builtin_expect(lf->len + need > lf->cap, 0))
		log_out_flush(lf);
	return lf->buf + lf->len;
}

/* One text line (or compressed sample) of fio's per-I/O format. */
void log_put_line(struct log_file *lf, uint64_t t_ms, uint64_t value,
		  unsigned int ddir, uint64_t bs, const uint64_t *offset,
		  bool prio_hex, unsigned int prio);

/* --- writer threads (log_write.c) ------------------------------------ */

int log_writers_start(struct log_set *ls, struct strbuf *err);
/* After ls->stop: wait for them to drain and end. */
void log_writers_join(struct log_set *ls);
/* A chunk is waiting: wake the writer if it sleeps. */
void log_writer_kick(struct log_writer *wr);
/* The worker's wait for an empty chunk. */
void log_futex_wait(_Atomic uint32_t *addr, uint32_t val, uint64_t ns);
void log_futex_wake(_Atomic uint32_t *addr);

/* --- rings (log.c) --------------------------------------------------- */

bool log_ring_push(struct log_ring *r, struct log_chunk *c);
struct log_chunk *log_ring_pop(struct log_ring *r);
unsigned int log_ring_count(struct log_ring *r);

/* --- compressed logs (log_fz.c) -------------------------------------- */

void log_fz_sample(struct log_file *lf, uint64_t t_ms, uint64_t value,
		   unsigned int ddir, uint64_t bs, const uint64_t *offset,
		   bool prio_hex, unsigned int prio);
/* One zlib stream of what is pending, appended to the file. */
void log_fz_flush(struct log_file *lf);

#endif
