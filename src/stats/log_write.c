/* SPDX-License-Identifier: MIT */
/*
 * The log writer threads (see log.h for who does what). A writer owns
 * the jobs given to it and their files: it takes each job's full chunks
 * in order, formats the records into a 1 MiB buffer per file with the
 * decimal writer of util/numfmt.h, writes the buffer with write(2) when
 * it is full, hands the chunk back to the worker and wakes it if it
 * waits. It keeps the worker's pool of empty chunks stocked (touched,
 * so that the worker takes no page fault) and doubles it, up to its
 * share of LOG_POOL_ALL, when the worker had to wait or ran low. Between chunks
 * it sleeps on a futex the worker pokes when it hands over a chunk and
 * finds the writer asleep (one test per chunk), or 20 ms at most.
 *
 * Per-I/O lines are built from two cached pieces and one number: the
 * time prefix "T, " (changes once a millisecond) and the tail
 * ", ddir, bs, prio\n" (changes with the block size, direction or
 * priority; with
 * log_offset it is made for every record), copied with fixed-size
 * copies into the buffer's slack.
 *
 * A write that fails (ENOSPC, EIO) marks the file: it is written no
 * more, its records are skipped, and log_set_release() names it.
 */
#include "stats/log_int.h"

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/numfmt.h"

#define WRITER_NAP_NS (20 * 1000000ull)	/* longest sleep between looks */
#define HIST_LINE_MAX (64 + (HIST_NR + 1) * 22)	/* 20 digits and ", " */
_Static_assert(HIST_LINE_MAX <= LOG_OUT_MIN, "a histogram line fits");
#define CHUNKS_PER_PASS 8	/* of one job, before the next one's */

/* A job as its writer sees it: where its per-I/O lines go, and caches. */
struct log_wjob {
	struct job_log *jl;
	/* lat, clat, slat, bw, iops: NULL when not written */
	struct log_file *out[5];
	bool slow;		/* a compressed file: sample by sample */
	uint64_t t_ms;		/* the time prefix's */
	unsigned int tlen, slen;
	uint32_t s_len;		/* the tail's block size */
	uint32_t s_dp;		/* ... direction and priority: the record's
				 * last word (log_rec_tail()) */
	char tpre[32];		/* "T, " */
	char suf[64];		/* ", ddir, bs[, offset], prio\n" */
};

/* --- futexes ------------------------------------------------------------ */

void log_futex_wait(_Atomic uint32_t *addr, uint32_t val, uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};

	syscall(SYS_futex, (void *)addr, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

void log_futex_wake(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, (void *)addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void log_writer_kick(struct log_writer *wr)
{
	if (!wr)
		return;
	/* pairs with the fence in writer_sleep(): one of us sees the other */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&wr->sleeping, memory_order_relaxed)) {
		atomic_fetch_add(&wr->kick, 1);
		log_futex_wake(&wr->kick);
	}
}

/* --- output ------------------------------------------------------------- */

void log_out_write(struct log_file *lf, const void *buf, size_t len)
{
	const char *p = buf;

	while (len && !lf->err) {
		ssize_t n = write(lf->fd, p, len);

		if (n < 0) {
			if (errno != EINTR)
				lf->err = errno;
			continue;
		}
		if (!n) {
			lf->err = EIO;
			break;
		}
		p += n;
		len -= (size_t)n;
		lf->written += (uint64_t)n;
	}
}

void log_out_flush(struct log_file *lf)
{
	if (lf->len && lf->fd >= 0)
		log_out_write(lf, lf->buf, lf->len);
	lf->len = 0;
}

static char *put_sep(char *p)
{
	p[0] = ',';
	p[1] = ' ';
	return p + 2;
}

/*
 * ", ddir, bs[, offset], prio[, issue]\n". prio: fio 3.33's column, the
 * priority value in hex with log_prio, else 1 for the real-time class,
 * 0 for any other (the "high priority" flag). issue: fio 3.42's
 * log_issue_time column, ns.
 */
static char *put_tail(char *p, unsigned int ddir, uint64_t bs,
		      const uint64_t *offset, bool prio_hex, unsigned int prio,
		      const uint64_t *issue)
{
	static const char hex[] = "0123456789abcdef";

	p = put_sep(p);
	*p++ = (char)('0' + ddir);
	p = put_sep(p);
	p = numfmt_put_u64(p, bs);
	p = put_sep(p);
	if (offset) {
		p = numfmt_put_u64(p, *offset);
		p = put_sep(p);
	}
	if (prio_hex) {
		p[0] = '0';
		p[1] = 'x';
		p[2] = hex[(prio >> 12) & 15];
		p[3] = hex[(prio >> 8) & 15];
		p[4] = hex[(prio >> 4) & 15];
		p[5] = hex[prio & 15];
		p += 6;
	} else {
		*p++ = (prio >> 13) == 1 ? '1' : '0';
	}
	if (issue)
		p = numfmt_put_u64(put_sep(p), *issue);
	*p++ = '\n';
	return p;
}

/* A line; issue: the I/O's issue time, with log_issue_time */
static void put_line(struct log_file *lf, uint64_t t_ms, uint64_t value,
		     unsigned int ddir, uint64_t bs, const uint64_t *offset,
		     bool prio_hex, unsigned int prio, uint64_t issue)
{
	char *p;

	if (lf->err)
		return;
	if (lf->compress) {
		log_fz_sample(lf, t_ms, value, ddir, bs, offset, prio_hex,
			      prio);
		return;
	}
	p = log_out_room(lf, 128);
	p = numfmt_put_u64(p, t_ms);
	p = put_sep(p);
	p = numfmt_put_u64(p, value);
	p = put_tail(p, ddir, bs, offset, prio_hex, prio,
		     lf->issue_col ? &issue : NULL);
	lf->len = (size_t)(p - lf->buf);
}

void log_put_line(struct log_file *lf, uint64_t t_ms, uint64_t value,
		  unsigned int ddir, uint64_t bs, const uint64_t *offset,
		  bool prio_hex, unsigned int prio)
{
	put_line(lf, t_ms, value, ddir, bs, offset, prio_hex, prio, 0);
}

/*
 * log_window_value=both (fio 3.42): a window's line holds the mean and
 * then the maximum. Not with log_compression (refused when the job is
 * checked): its samples hold one value.
 */
static void put_pair(struct log_file *lf, uint64_t t_ms, uint64_t avg,
		     uint64_t max, unsigned int ddir, const uint64_t *offset,
		     bool prio_hex)
{
	static const uint64_t zero;
	char *p;

	if (lf->err)
		return;
	p = log_out_room(lf, 128);
	p = numfmt_put_u64(p, t_ms);
	p = put_sep(p);
	p = numfmt_put_u64(p, avg);
	p = put_sep(p);
	p = numfmt_put_u64(p, max);
	p = put_tail(p, ddir, 0, offset, prio_hex, 0,
		     lf->issue_col ? &zero : NULL);
	lf->len = (size_t)(p - lf->buf);
}

/* --- formatting --------------------------------------------------------- */

/* Where this job's lines go now (a file that failed gets no more). */
static void wjob_refresh(struct log_wjob *wj)
{
	static const enum log_kind kinds[5] = {
		LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_BW, LOG_IOPS,
	};
	struct job_log *jl = wj->jl;
	unsigned int k;

	wj->slow = false;
	for (k = 0; k < 5; k++) {
		struct log_file *lf = jl->file[kinds[k]];

		/* latencies the worker does not measure get no lines */
		if (lf && (lf->err || (k < 3 && !(jl->valid & (1u << k)))))
			lf = NULL;
		wj->out[k] = lf;
		if (lf && (lf->compress || lf->issue_col))
			wj->slow = true;
	}
	wj->t_ms = UINT64_MAX;
	wj->s_len = UINT32_MAX;
}

static inline void emit(struct log_file *lf, const struct log_wjob *wj,
			uint64_t v)
{
	char *p = log_out_room(lf, 128);

	/* fixed sizes: the buffer has slack past its end for them */
	memcpy(p, wj->tpre, sizeof(wj->tpre));
	p = numfmt_put_u64(p + wj->tlen, v);
	memcpy(p, wj->suf, sizeof(wj->suf));
	lf->len = (size_t)(p + wj->slen - lf->buf);
}

static void fmt_io(struct log_wjob *wj, const struct log_rec *r,
		   uint64_t clat, uint64_t slat, const uint64_t *off)
{
	struct job_log *jl = wj->jl;
	uint64_t t_ms = r->time_ns / 1000000 + jl->epoch_add_ms, v[5], issue;
	unsigned int k;
	uint32_t dp;

	if (t_ms != wj->t_ms) {
		char *p = put_sep(numfmt_put_u64(wj->tpre, t_ms));

		wj->tlen = (unsigned int)(p - wj->tpre);
		wj->t_ms = t_ms;
	}
	memcpy(&dp, &r->ddir, sizeof(dp));
	if (off || r->len != wj->s_len || dp != wj->s_dp) {
		char *p = put_tail(wj->suf, r->ddir, r->len, off, jl->prio_hex,
				   r->prio, NULL);

		wj->slen = (unsigned int)(p - wj->suf);
		wj->s_len = off ? UINT32_MAX : r->len;
		wj->s_dp = dp;
	}
	if (__builtin_expect(!wj->slow, 1)) {
		if (wj->out[0])
			emit(wj->out[0], wj, clat + slat);
		if (wj->out[1])
			emit(wj->out[1], wj, clat);
		if (wj->out[2])
			emit(wj->out[2], wj, slat);
		if (wj->out[3])	/* bytes * 10^6 / clat ns: KiB/s, as fio */
			emit(wj->out[3], wj,
			     (uint64_t)r->len * 1000000 / (clat ? clat : 1));
		if (wj->out[4])
			emit(wj->out[4], wj, 1);
		return;
	}
	v[0] = clat + slat;
	v[1] = clat;
	v[2] = slat;
	v[3] = (uint64_t)r->len * 1000000 / (clat ? clat : 1);
	v[4] = 1;
	/* fio 3.42: the issue time in the clat and slat lines, 0 elsewhere */
	issue = r->time_ns > clat ? r->time_ns - clat : 0;
	for (k = 0; k < 5; k++)
		if (wj->out[k])
			put_line(wj->out[k], t_ms, v[k], r->ddir, r->len, off,
				 jl->prio_hex, r->prio,
				 k == 1 || k == 2 ? issue : 0);
}

static void fmt_hist(struct log_wjob *wj, const struct log_rec *r,
		     const uint64_t *b)
{
	struct job_log *jl = wj->jl;
	struct log_file *lf = jl->file[LOG_HIST];
	unsigned int step = 1u << jl->coarse, i, k;
	char *p;

	if (!lf || lf->err)
		return;
	p = log_out_room(lf, HIST_LINE_MAX);
	p = numfmt_put_u64(p, r->time_ns / 1000000 + jl->epoch_add_ms);
	p = put_sep(p);
	p = numfmt_put_u64(p, r->ddir);
	p = put_sep(p);
	p = numfmt_put_u64(p, jl->bs[r->ddir]);
	for (i = 0; i < HIST_NR; i += step) {
		uint64_t sum = 0;

		for (k = 0; k < step && i + k < HIST_NR; k++)
			sum += b[i + k];
		p = put_sep(p);
		p = numfmt_put_u64(p, sum);
	}
	*p++ = '\n';
	lf->len = (size_t)(p - lf->buf);
}

/* A latency window's lines: x holds the 3 values, then with both the maxima */
static void fmt_win(struct log_wjob *wj, const struct log_rec *r,
		    const uint64_t *x)
{
	const struct job_log *jl = wj->jl;
	static const uint64_t zero;
	const uint64_t *off = jl->log_offset ? &zero : NULL;
	uint64_t t = r->time_ns / 1000000 + jl->epoch_add_ms;
	unsigned int k;

	for (k = 0; k < 3; k++) {
		if (!wj->out[k])
			continue;
		if (jl->win_vals > 3)
			put_pair(wj->out[k], t, x[k], x[3 + k], r->ddir, off,
				 jl->prio_hex);
		else
			log_put_line(wj->out[k], t, x[k], r->ddir, 0, off,
				     jl->prio_hex, 0);
	}
}

static void format_chunk(struct log_wjob *wj, const struct log_chunk *c)
{
	struct job_log *jl = wj->jl;
	size_t off = 0;

	wjob_refresh(wj);
	/* records are multiples of 8 bytes: off stays a word index * 8 */
	while (off < c->used) {
		const struct log_rec *r =
			(const struct log_rec *)&c->data[off / 8];
		const uint64_t *x = (const uint64_t *)(r + 1);

		switch (r->type) {
		case LOGR_IO:
			fmt_io(wj, r, r->clat, r->slat,
			       jl->log_offset ? x : NULL);
			off += jl->io_bytes;
			break;
		case LOGR_IO_LONG:
			fmt_io(wj, r, x[0], x[1],
			       jl->log_offset ? x + 2 : NULL);
			off += jl->io_bytes + 2 * sizeof(uint64_t);
			break;
		case LOGR_WIN:
			fmt_win(wj, r, x);
			off += sizeof(*r) + jl->win_vals * sizeof(uint64_t);
			break;
		case LOGR_SLAT:
			/* a failed I/O's record is timed at its issue */
			if (wj->out[2])
				put_line(wj->out[2], r->time_ns / 1000000 +
					 jl->epoch_add_ms, r->slat, r->ddir,
					 r->len, jl->log_offset ? x : NULL,
					 jl->prio_hex, r->prio, r->time_ns);
			off += jl->io_bytes;
			break;
		case LOGR_HIST:
			fmt_hist(wj, r, x);
			off += sizeof(*r) + HIST_NR * sizeof(uint64_t);
			break;
		default:
			BUG("log record of unknown type %u", r->type);
		}
	}
}

/* The bandwidth and IOPS windows the reporter queued for this job. */
static unsigned int format_rates(struct log_writer *wr, struct log_wjob *wj)
{
	struct job_log *jl = wj->jl;
	static const uint64_t zero;
	const uint64_t *off = jl->log_offset ? &zero : NULL;
	struct log_file *bw = jl->file[LOG_BW], *iops = jl->file[LOG_IOPS];
	struct log_rate *r;
	unsigned int i, n, a;

	pthread_mutex_lock(&jl->rate_lock);
	n = jl->nr_rates;
	if (n) {
		r = jl->rates;
		jl->rates = wr->spare;
		wr->spare = r;
		a = jl->alloc_rates;
		jl->alloc_rates = wr->alloc_spare;
		wr->alloc_spare = a;
		jl->nr_rates = 0;
	}
	pthread_mutex_unlock(&jl->rate_lock);
	for (i = 0; i < n; i++) {
		r = &wr->spare[i];
		/* both: fio 3.42 repeats the value (mean and max alike) */
		if (bw && jl->win_vals > 3)
			put_pair(bw, r->t_ms, r->bw, r->bw, r->ddir, off,
				 jl->prio_hex);
		else if (bw)
			log_put_line(bw, r->t_ms, r->bw, r->ddir, 0, off,
				     jl->prio_hex, 0);
		if (iops && jl->win_vals > 3)
			put_pair(iops, r->t_ms, r->iops, r->iops, r->ddir, off,
				 jl->prio_hex);
		else if (iops)
			log_put_line(iops, r->t_ms, r->iops, r->ddir, 0, off,
				     jl->prio_hex, 0);
	}
	return n;
}

/* --- the pool of chunks --------------------------------------------------- */

/* Chunks went back to the worker: wake it if it waits for one. */
static void refilled(struct job_log *jl)
{
	/* a full barrier, paired with the worker's in wait_chunk() */
	atomic_fetch_add(&jl->empty_seq, 1);
	if (atomic_load(&jl->waiting))
		log_futex_wake(&jl->empty_seq);
}

static void top_up(struct job_log *jl)
{
	uint64_t waits = atomic_load_explicit(&jl->waits, memory_order_relaxed);
	unsigned int made = 0;

	if (!jl->pool)
		return;
	/* the worker waited or is running low: a bigger pool */
	if ((waits != jl->waits_seen ||
	     log_ring_count(&jl->empty) * 4 < jl->pool_target) &&
	    jl->pool_target < jl->pool_max)
		jl->pool_target = jl->pool_target * 2 < jl->pool_max ?
				  jl->pool_target * 2 : jl->pool_max;
	jl->waits_seen = waits;
	while (jl->pool < jl->pool_target) {
		struct log_chunk *c = malloc(sizeof(*c));

		if (!c)
			break;
		/* touched here, so that the worker takes no page fault */
		memset(c, 0, sizeof(*c));
		log_ring_push(&jl->empty, c);
		jl->pool++;
		made++;
	}
	if (made)
		refilled(jl);
}

/* --- the threads ---------------------------------------------------------- */

static unsigned int writer_job(struct log_writer *wr, struct log_wjob *wj)
{
	struct job_log *jl = wj->jl;
	struct log_chunk *c;
	unsigned int n = 0;

	while (n < CHUNKS_PER_PASS && (c = log_ring_pop(&jl->full))) {
		format_chunk(wj, c);
		c->used = 0;
		log_ring_push(&jl->empty, c);
		refilled(jl);
		n++;
	}
	n += format_rates(wr, wj);
	top_up(jl);
	return n;
}

static void writer_sleep(struct log_writer *wr)
{
	struct log_set *ls = wr->ls;
	uint32_t k = atomic_load(&wr->kick);
	unsigned int i;
	bool work = atomic_load(&ls->stop);

	atomic_store(&wr->sleeping, 1);
	atomic_thread_fence(memory_order_seq_cst);
	for (i = 0; !work && i < wr->nr_jobs; i++)
		work = log_ring_count(&wr->jobs[i].jl->full) &&
		       !atomic_load_explicit(&ls->hold, memory_order_relaxed);
	if (!work)
		log_futex_wait(&wr->kick, k, WRITER_NAP_NS);
	atomic_store(&wr->sleeping, 0);
}

/* The workers are gone: their last chunks, then the files' buffers. */
static void writer_last(struct log_writer *wr)
{
	unsigned int i, k;

	for (i = 0; i < wr->nr_jobs; i++) {
		struct log_wjob *wj = &wr->jobs[i];
		struct job_log *jl = wj->jl;

		if (jl->cur && jl->cur->used) {
			format_chunk(wj, jl->cur);
			jl->cur->used = 0;
		}
		format_rates(wr, wj);
		for (k = 0; k < LOG_KIND_NR; k++)
			if (jl->file[k] && !jl->file[k]->compress)
				log_out_flush(jl->file[k]);
	}
}

static void *writer_main(void *arg)
{
	struct log_writer *wr = arg;
	struct log_set *ls = wr->ls;

	for (;;) {
		int stop = atomic_load_explicit(&ls->stop, memory_order_acquire);
		unsigned int i, did = 0;

		if (stop || !atomic_load_explicit(&ls->hold, memory_order_relaxed))
			for (i = 0; i < wr->nr_jobs; i++)
				did += writer_job(wr, &wr->jobs[i]);
		if (stop && !did)
			break;
		if (!did)
			writer_sleep(wr);
	}
	writer_last(wr);
	return NULL;
}

static bool needs_writer(const struct job_log *jl)
{
	return jl && (jl->per_io || jl->lat_win || jl->hist_ns ||
		      (jl->avg_ns && (jl->file[LOG_BW] || jl->file[LOG_IOPS])));
}

/* Jobs to writers, round robin; all to one when a file is shared. */
static unsigned int assign(struct log_set *ls)
{
	unsigned int i, k, n = 0, nw, cpus;

	for (i = 0; i < ls->nr; i++)
		n += needs_writer(ls->jobs[i]);
	if (!n)
		return 0;
	cpus = ls->nr_spare ? ls->nr_spare : ls->nr_allowed;
	nw = n < cpus ? n : cpus;
	if (nw > LOG_WRITERS_MAX)
		nw = LOG_WRITERS_MAX;
	if (ls->shared || !nw)
		nw = 1;
	ls->writers = xcalloc(nw, sizeof(*ls->writers));
	ls->nr_writers = nw;
	for (i = 0; i < nw; i++) {
		ls->writers[i].ls = ls;
		ls->writers[i].jobs = xcalloc(n, sizeof(struct log_wjob));
	}
	for (i = 0, n = 0; i < ls->nr; i++) {
		struct job_log *jl = ls->jobs[i];
		struct log_writer *wr;

		if (!needs_writer(jl))
			continue;
		wr = &ls->writers[n++ % nw];
		wr->jobs[wr->nr_jobs++].jl = jl;
		jl->writer = wr;
		for (k = 0; k < LOG_KIND_NR; k++)
			if (jl->file[k])
				jl->file[k]->owner = wr;
	}
	return nw;
}

int log_writers_start(struct log_set *ls, struct strbuf *err)
{
	unsigned int i, nw = assign(ls);
	sigset_t all, old;
	int ret = 0;

	/* the run's signals go to the reporter thread, never here */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < nw && !ret; i++) {
		struct log_writer *wr = &ls->writers[i];
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		/* away from the jobs' CPUs when there are others */
		if (ls->nr_spare)
			pthread_attr_setaffinity_np(&attr, sizeof(ls->spare),
						    &ls->spare);
		ret = pthread_create(&wr->thread, &attr, writer_main, wr);
		if (ret == EINVAL && ls->nr_spare)
			ret = pthread_create(&wr->thread, NULL, writer_main, wr);
		pthread_attr_destroy(&attr);
		if (ret) {
			strbuf_addf(err, "cannot start a log writer thread: %s",
				    strerror(ret));
			break;
		}
		wr->running = true;
		pthread_setname_np(wr->thread, "iolite-log");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret ? -1 : 0;
}

void log_writers_join(struct log_set *ls)
{
	unsigned int i, j;

	for (i = 0; i < ls->nr_writers; i++) {
		atomic_fetch_add(&ls->writers[i].kick, 1);
		log_futex_wake(&ls->writers[i].kick);
	}
	for (i = 0; i < ls->nr_writers; i++) {
		struct log_writer *wr = &ls->writers[i];

		if (wr->running)
			pthread_join(wr->thread, NULL);
		for (j = 0; j < wr->nr_jobs; j++)
			wr->jobs[j].jl->writer = NULL;
		free(wr->jobs);
		free(wr->spare);
	}
	free(ls->writers);
	ls->writers = NULL;
	ls->nr_writers = 0;
}
