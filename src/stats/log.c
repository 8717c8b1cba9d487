/* SPDX-License-Identifier: MIT */
/*
 * fio's log files: see log.h for the format and for who writes what.
 * Here: the rings, the worker's side (log_io() is inline in log.h; its
 * slow paths and the windows are here), setting up (names, checks,
 * files, CPUs for the writers), the reporter's bandwidth windows, the
 * notes and the end. The writer threads are in log_write.c, fio's
 * compressed format in log_fz.c.
 */
#include "stats/log_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "machine/clock.h"
#include "machine/cpus.h"
#include "opt/opt.h"
#include "util/cpulist.h"
#include "util/log.h"
#include "util/safefile.h"

#define FZ_CHUNK_DEFAULT (1024 * 1024)

static const char *const kind_suffix[LOG_KIND_NR] = {
	[LOG_LAT] = "lat", [LOG_CLAT] = "clat", [LOG_SLAT] = "slat",
	[LOG_BW] = "bw", [LOG_IOPS] = "iops", [LOG_HIST] = "clat_hist",
};

static const char *const kind_opt[LOG_KIND_NR] = {
	"write_lat_log", "write_lat_log", "write_lat_log", "write_bw_log",
	"write_iops_log", "write_hist_log",
};

/* A record header is 24 bytes: records stay 8-byte aligned. */
_Static_assert(sizeof(struct log_rec) == 24, "log_rec layout");
_Static_assert(LOG_POOL_MAX < LOG_RING_SIZE, "a ring holds every chunk");

/* --- rings ------------------------------------------------------------ */

bool log_ring_push(struct log_ring *r, struct log_chunk *c)
{
	unsigned int head = atomic_load_explicit(&r->head, memory_order_relaxed);
	unsigned int tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= LOG_RING_SIZE)
		return false;
	r->slot[head % LOG_RING_SIZE] = c;
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

struct log_chunk *log_ring_pop(struct log_ring *r)
{
	unsigned int tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	unsigned int head = atomic_load_explicit(&r->head, memory_order_acquire);
	struct log_chunk *c;

	if (head == tail)
		return NULL;
	c = r->slot[tail % LOG_RING_SIZE];
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return c;
}

unsigned int log_ring_count(struct log_ring *r)
{
	return atomic_load_explicit(&r->head, memory_order_acquire) -
	       atomic_load_explicit(&r->tail, memory_order_acquire);
}

/* --- the worker's side ------------------------------------------------ */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The writer has fallen behind: every chunk is full or being formatted.
 * Wait until it hands one back (it bumps empty_seq and wakes us when it
 * sees waiting set), and count the time: it held up the job's I/O.
 */
static struct log_chunk *wait_chunk(struct job_log *jl)
{
	uint64_t t0 = mono_ns();
	struct log_chunk *c;

	for (;;) {
		uint32_t seq = atomic_load(&jl->empty_seq);

		atomic_store(&jl->waiting, 1);
		atomic_thread_fence(memory_order_seq_cst);
		c = log_ring_pop(&jl->empty);
		if (c)
			break;
		log_writer_kick(jl->writer);
		/* a bounded sleep: a lost wake-up costs time, not the run */
		log_futex_wait(&jl->empty_seq, seq, 2000000);
	}
	atomic_store(&jl->waiting, 0);
	jl->wait_ns += mono_ns() - t0;
	atomic_fetch_add_explicit(&jl->waits, 1, memory_order_relaxed);
	return c;
}

struct log_rec *log_reserve_slow(struct job_log *jl, size_t bytes)
{
	struct log_chunk *c = jl->cur;

	if (c) {
		/* the ring has a slot for every chunk there is */
		log_ring_push(&jl->full, c);
		jl->cur = NULL;
		log_writer_kick(jl->writer);
	}
	c = log_ring_pop(&jl->empty);
	if (!c) {
		if (jl->drop_behind) {
			atomic_fetch_add_explicit(&jl->dropped, 1,
						  memory_order_relaxed);
			return NULL;
		}
		c = wait_chunk(jl);
	}
	c->used = bytes;
	jl->cur = c;
	return (struct log_rec *)c->data;
}

void log_io_long(struct job_log *jl, uint32_t dp, uint32_t len,
		 uint64_t offset, uint64_t clat, uint64_t slat, uint64_t now)
{
	struct log_rec *r = log_reserve(jl, jl->io_bytes + 16);
	uint64_t *x;

	if (!r)
		return;
	r->time_ns = now - jl->epoch_ns;
	r->clat = 0;
	r->slat = 0;
	r->len = len;
	log_rec_tail(r, LOGR_IO_LONG, dp);
	x = (uint64_t *)(r + 1);
	x[0] = clat;
	x[1] = slat;
	if (jl->log_offset)
		x[2] = offset;
}

int log_io_rec_slow(struct job_log *jl, uint32_t dp, uint32_t len,
		    uint64_t offset, uint64_t clat, uint64_t slat, uint64_t now)
{
	struct log_rec *r;

	if ((clat | slat) >> 32) {
		log_io_long(jl, dp, len, offset, clat, slat, now);
		return 0;
	}
	r = log_reserve_slow(jl, jl->io_bytes);
	if (r)
		log_fill_io(jl, r, dp, len, offset, clat, slat, now);
	return 0;
}

/* The start of the grid window (from the epoch) that holds t. */
static uint64_t grid_start(uint64_t epoch, uint64_t step, uint64_t t)
{
	return epoch + (t - epoch) / step * step;
}

static void put_win(struct job_log *jl, uint64_t t)
{
	unsigned int d, k;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct log_win *w = &jl->win[d];
		struct log_rec *r;
		uint64_t *v;

		if (!w->n)
			continue;
		r = log_reserve(jl, sizeof(*r) + jl->win_vals * sizeof(uint64_t));
		if (r) {
			r->time_ns = t - jl->epoch_ns;
			r->clat = 0;
			r->slat = 0;
			r->len = 0;
			log_rec_tail(r, LOGR_WIN, d);
			v = (uint64_t *)(r + 1);
			/* both: the means, then the maxima */
			for (k = 0; k < 3; k++) {
				v[k] = jl->win_value == LOGWIN_MAX ?
				       w->max[k] : w->sum[k] / w->n;
				if (jl->win_vals > 3)
					v[3 + k] = w->max[k];
			}
		}
		memset(w, 0, sizeof(*w));
		jl->win_any = true;
	}
}

void log_win_close(struct job_log *jl, uint64_t now)
{
	put_win(jl, jl->win_end);
	jl->win_start = grid_start(jl->epoch_ns, jl->avg_ns, now);
	jl->win_end = jl->win_start + jl->avg_ns;
}

/*
 * Histogram lines for the window ending at t: what each direction's
 * completion latency histogram gained since the last window. The I/O
 * being completed (direction cd, latency clat; cd DDIR_RWDIR_CNT: none)
 * is already in the stats but belongs to the next window: held back.
 */
static void put_hist(struct job_log *jl, uint64_t t, unsigned int cd,
		     uint64_t clat)
{
	unsigned int d, i, held = cd < DDIR_RWDIR_CNT ? hist_index(clat) : 0;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct dir_stats *ds = &jl->st->dir[d];
		struct hist *prev = &jl->hist_prev[d];
		uint64_t ios = ds->ios - (d == cd);
		struct log_rec *r;
		uint64_t *b;

		if (!(jl->ddir_mask & (1u << d)) || ios == jl->hist_prev_ios[d])
			continue;
		jl->hist_prev_ios[d] = ios;
		r = log_reserve(jl, sizeof(*r) + HIST_NR * sizeof(uint64_t));
		if (!r) {
			memcpy(prev->bucket, ds->clat_hist.bucket,
			       sizeof(prev->bucket));
			if (d == cd && held < HIST_NR)
				prev->bucket[held]--;
			continue;
		}
		r->time_ns = t - jl->epoch_ns;
		r->clat = 0;
		r->slat = 0;
		r->len = 0;
		log_rec_tail(r, LOGR_HIST, d);
		b = (uint64_t *)(r + 1);
		for (i = 0; i < HIST_NR; i++) {
			b[i] = ds->clat_hist.bucket[i] - prev->bucket[i];
			prev->bucket[i] = ds->clat_hist.bucket[i];
		}
		if (d == cd && held < HIST_NR) {
			b[held]--;
			prev->bucket[held]--;
		}
		jl->hist_any = true;
	}
}

void log_hist_close(struct job_log *jl, uint64_t now, unsigned int d,
		    uint64_t clat)
{
	put_hist(jl, jl->hist_end, d, clat);
	jl->hist_start = grid_start(jl->epoch_ns, jl->hist_ns, now);
	jl->hist_end = jl->hist_start + jl->hist_ns;
}

void log_job_start(struct job_log *jl, uint64_t now,
		   const struct worker_stats *st, unsigned int valid)
{
	jl->epoch_ns = now;
	jl->epoch_add_ms = 0;
	if (jl->epoch_clock >= 0) {
		struct timespec ts;

		/* checked by the plan (opt/sys_opts.c) */
		if (!clock_gettime((clockid_t)jl->epoch_clock, &ts))
			jl->epoch_add_ms = (uint64_t)ts.tv_sec * 1000 +
					   (uint64_t)ts.tv_nsec / 1000000;
	}
	jl->st = st;
	jl->valid = (uint8_t)valid;
	memset(jl->win, 0, sizeof(jl->win));
	jl->win_any = jl->hist_any = false;
	jl->win_start = now;
	jl->win_end = now + jl->avg_ns;
	jl->hist_start = now;
	jl->hist_end = now + jl->hist_ns;
	if (jl->hist_prev) {
		memset(jl->hist_prev, 0, DDIR_RWDIR_CNT * sizeof(*jl->hist_prev));
		memset(jl->hist_prev_ios, 0, sizeof(jl->hist_prev_ios));
	}
	/* histogram lines need completion latencies */
	if (!(valid & LOGV_CLAT))
		jl->hist_ns = 0;
	if (!jl->cur && jl->writer) {
		jl->cur = log_ring_pop(&jl->empty);
		if (jl->cur)
			jl->cur->used = 0;
	}
	atomic_store_explicit(&jl->started, 1, memory_order_release);
}

void log_job_end(struct job_log *jl, uint64_t now)
{
	if (!atomic_load_explicit(&jl->started, memory_order_relaxed))
		return;
	if (jl->lat_win) {
		if (now >= jl->win_end)
			log_win_close(jl, now);
		/* a short last window rests on too few I/Os: left out */
		if (now - jl->win_start >= jl->avg_ns / 2 || !jl->win_any)
			put_win(jl, now);
	}
	if (jl->hist_ns) {
		if (now >= jl->hist_end)
			log_hist_close(jl, now, DDIR_RWDIR_CNT, 0);
		if (now - jl->hist_start >= jl->hist_ns / 2 || !jl->hist_any)
			put_hist(jl, now, DDIR_RWDIR_CNT, 0);
	}
}

/* --- setting up ------------------------------------------------------- */

static const char *log_prefix(const struct job_plan *p, enum log_kind k)
{
	const struct job_options *o = &p->o;
	const char *v;

	switch (k) {
	case LOG_LAT:
	case LOG_CLAT:
	case LOG_SLAT:
		v = o->write_lat_log;
		break;
	case LOG_BW:
		v = o->write_bw_log;
		break;
	case LOG_IOPS:
		v = o->write_iops_log;
		break;
	default:
		v = o->write_hist_log;
		break;
	}
	if (!v)
		return NULL;
	return *v ? v : o->name;
}

/*
 * Can path be created (or truncated)? 0, or -1 with the reason in *why.
 * A log's name is iolite's own (a prefix and a suffix): a symlink or
 * anything but a regular file there is refused (util/safefile.h).
 */
static int check_creatable(const char *path, const char **why)
{
	struct stat sb;
	char *copy, *dir;
	int e = 0;

	if (sf_check(path, true, 0, why))
		return -1;
	if (!stat(path, &sb)) {
		e = access(path, W_OK) ? errno : 0;
	} else if (errno != ENOENT) {
		e = errno;
	} else {
		copy = xstrdup(path);
		dir = dirname(copy);
		if (stat(dir, &sb))
			e = errno;
		else if (!S_ISDIR(sb.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK))
			e = errno;
		free(copy);
	}
	*why = e ? strerror(e) : NULL;
	return e ? -1 : 0;
}

static struct log_file *find_file(struct log_set *ls, const char *path)
{
	unsigned int i;

	for (i = 0; i < ls->nr_files; i++)
		if (!strcmp(ls->files[i]->path, path))
			return ls->files[i];
	return NULL;
}

static struct log_file *new_file(struct log_set *ls, char *path,
				 const char *opt)
{
	struct log_file *lf = xcalloc(1, sizeof(*lf));

	lf->path = path;
	lf->opt = opt;
	lf->fd = -1;
	ls->files = xrealloc(ls->files, (ls->nr_files + 1) * sizeof(*ls->files));
	ls->files[ls->nr_files++] = lf;
	return lf;
}

/* The job's log of kind k: shared by path, checked when first seen. */
static int add_file(struct log_set *ls, const struct job_plan *p,
		    enum log_kind k, const char *prefix, struct log_file **out,
		    struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct log_file *lf;
	const char *why;

	strbuf_addf(&path, "%s_%s", prefix, kind_suffix[k]);
	if (p->o.per_job_logs)
		strbuf_addf(&path, ".%u", plan_fio_jobnr(p));
	strbuf_addstr(&path, ".log");
	if (p->o.log_store_compressed)
		strbuf_addstr(&path, ".fz");
	lf = find_file(ls, path.buf);
	if (!lf) {
		if (check_creatable(path.buf, &why)) {
			strbuf_addf(err, "%s:%d: option '%s': cannot create log file '%s': %s",
				    p->src_file, p->src_line, kind_opt[k],
				    path.buf, why);
			strbuf_release(&path);
			return -1;
		}
		lf = new_file(ls, strbuf_detach(&path), kind_opt[k]);
		lf->prio_hex = p->o.log_prio;
		lf->issue_col = p->o.log_issue_time;
		lf->compress = p->o.log_store_compressed;
		lf->chunk = p->o.log_compression ? p->o.log_compression :
			    FZ_CHUNK_DEFAULT;
	}
	strbuf_release(&path);
	if (lf->users++)
		ls->shared = true;
	*out = lf;
	return 0;
}

static void setup_job(struct job_log *jl, const struct job_plan *p)
{
	unsigned int d;

	jl->ddir_mask = p->ddir_mask;
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		jl->bs[d] = p->dir_min_bs[d];
	jl->avg_ns = (uint64_t)p->o.log_avg_msec * 1000000;
	jl->hist_ns = jl->file[LOG_HIST] ?
		      (uint64_t)p->o.log_hist_msec * 1000000 : 0;
	jl->win_value = p->o.log_window_value;
	jl->win_vals = jl->win_value == LOGWIN_BOTH ? 6 : 3;
	jl->log_offset = p->o.log_offset;
	jl->prio_hex = p->o.log_prio;
	jl->issue_time = p->o.log_issue_time;
	jl->drop_behind = p->o.log_drop_when_behind;
	jl->epoch_clock = p->o.log_unix_epoch || p->o.log_alternate_epoch ?
			  (int)p->o.log_epoch_clock : -1;
	jl->io_bytes = sizeof(struct log_rec) + (jl->log_offset ? 8 : 0);
	jl->coarse = p->o.log_hist_coarseness;
	jl->lat_win = jl->avg_ns && jl->file[LOG_LAT];
	jl->per_io = !jl->avg_ns &&
		     (jl->file[LOG_LAT] || jl->file[LOG_BW] || jl->file[LOG_IOPS]);
	if (jl->hist_ns)
		jl->hist_prev = xcalloc(DDIR_RWDIR_CNT, sizeof(*jl->hist_prev));
	/* per-I/O records: log_entries of them, and room to spare */
	jl->pool_first = 2;
	if (jl->per_io) {
		uint64_t n = (uint64_t)p->o.log_entries * jl->io_bytes /
			     LOG_CHUNK_BYTES;

		jl->pool_first = n + 4 < LOG_POOL_MAX / 4 ?
				 (unsigned int)n + 4 : LOG_POOL_MAX / 4;
	}
	pthread_mutex_init(&jl->rate_lock, NULL);
}

static struct job_log *new_job_log(struct log_set *ls, unsigned int i)
{
	struct job_log *jl = xcalloc(1, sizeof(*jl));

	jl->set = ls;
	ls->jobs[i] = jl;
	return jl;
}

/*
 * log_compression_cpus: the writers (which format and compress the logs)
 * run on the CPUs the jobs name, all of them together. False when no
 * job names any.
 */
static bool named_cpus(struct log_set *ls, const struct job_plan *plans,
		       unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct strbuf e = STRBUF_INIT;
		cpu_set_t s;

		/* the list was checked by the plan (opt/sys_opts.c) */
		if (plans[i].o.log_compression_cpus &&
		    !cpulist_parse(plans[i].o.log_compression_cpus, "cpu",
				   CPU_SETSIZE, 0, &s, &e))
			CPU_OR(&ls->spare, &ls->spare, &s);
		strbuf_release(&e);
	}
	ls->nr_spare = (unsigned int)CPU_COUNT(&ls->spare);
	return ls->nr_spare;
}

/*
 * The CPUs the writers may use: those log_compression_cpus names, else
 * the process's, less those any job is placed on; none when some job
 * may run anywhere.
 */
static void find_spare_cpus(struct log_set *ls, const struct job_plan *plans,
			    unsigned int nr)
{
	cpu_set_t allowed, used;
	unsigned int i;
	int c;

	CPU_ZERO(&ls->spare);
	CPU_ZERO(&used);
	ls->nr_spare = 0;
	ls->nr_allowed = 1;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	ls->nr_allowed = (unsigned int)CPU_COUNT(&allowed);
	if (named_cpus(ls, plans, nr))
		return;
	for (i = 0; i < nr; i++) {
		struct strbuf e = STRBUF_INIT;
		cpu_set_t s;
		int any = 0, ret = cpus_for_job(&plans[i], &s, &any, &e);

		strbuf_release(&e);
		if (ret || !any)
			return;
		CPU_OR(&used, &used, &s);
	}
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed) && !CPU_ISSET(c, &used))
			CPU_SET(c, &ls->spare);
	ls->nr_spare = (unsigned int)CPU_COUNT(&ls->spare);
}

int log_set_init(struct log_set *ls, const struct job_plan *plans,
		 unsigned int nr, struct strbuf *err)
{
	unsigned int i, k;

	memset(ls, 0, sizeof(*ls));
	ls->nr = nr;
	ls->jobs = xcalloc(nr ? nr : 1, sizeof(*ls->jobs));
	for (i = 0; i < nr; i++) {
		const struct job_plan *p = &plans[i];
		struct log_file *lf[LOG_KIND_NR] = { NULL };
		struct job_log *jl;
		bool any = false;

		for (k = 0; k < LOG_KIND_NR; k++) {
			const char *prefix = log_prefix(p, (enum log_kind)k);

			if (!prefix)
				continue;
			if (add_file(ls, p, (enum log_kind)k, prefix, &lf[k], err))
				return -1;
			any = true;
		}
		if (!any)
			continue;
		jl = new_job_log(ls, i);
		memcpy(jl->file, lf, sizeof(lf));
		jl->any_file = true;
		setup_job(jl, p);
	}
	if (ls->nr_files)
		find_spare_cpus(ls, plans, nr);
	return 0;
}

int log_set_bandwidth_log(struct log_set *ls, const struct job_plan *plans,
			  unsigned int nr, struct strbuf *err)
{
	static const char *const names[DDIR_RWDIR_CNT] = {
		"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log",
	};
	struct log_agg *a;
	unsigned int i, d;

	if (ls->agg)
		return 0;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const char *why = "a job's log has that name";

		if (find_file(ls, names[d]) || check_creatable(names[d], &why)) {
			strbuf_addf(err, "option '--bandwidth-log': cannot create log file '%s': %s",
				    names[d], why);
			return -1;
		}
	}
	a = xcalloc(1, sizeof(*a));
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		a->file[d] = new_file(ls, xstrdup(names[d]), "--bandwidth-log");
	/* fio samples every job's rate at the shortest bwavgtime */
	a->step_ns = 500 * 1000000ull;
	for (i = 0; i < nr; i++) {
		uint64_t s = (uint64_t)plans[i].o.bwavgtime_ms * 1000000;

		if (s && (i == 0 || s < a->step_ns))
			a->step_ns = s;
	}
	ls->agg = a;
	/* every job: the reporter hands its counters to log_sample() */
	for (i = 0; i < nr; i++) {
		if (ls->jobs[i])
			continue;
		pthread_mutex_init(&new_job_log(ls, i)->rate_lock, NULL);
	}
	return 0;
}

bool log_set_active(const struct log_set *ls)
{
	return ls && ls->nr_files > 0;
}

unsigned int log_set_nr_files(const struct log_set *ls, unsigned int *job,
			      const char **opt)
{
	unsigned int i, k;

	*job = 0;
	*opt = ls->nr_files ? ls->files[0]->opt : "";
	for (i = 0; i < ls->nr; i++) {
		const struct job_log *jl = ls->jobs[i];

		for (k = 0; jl && jl->any_file && k < LOG_KIND_NR; k++)
			if (jl->file[k]) {
				*job = i;
				*opt = jl->file[k]->opt;
				return ls->nr_files;
			}
	}
	return ls->nr_files;
}

int log_set_open(struct log_set *ls, struct strbuf *err)
{
	unsigned int i, k, nr_pools = 0;

	for (i = 0; i < ls->nr_files; i++) {
		struct log_file *lf = ls->files[i];
		const char *why;

		lf->fd = sf_open(lf->path, O_WRONLY, 0644, SF_CREATE | SF_TRUNC,
				 &why);
		if (lf->fd < 0) {
			strbuf_addf(err, "option '%s': cannot create log file '%s': %s",
				    lf->opt, lf->path, why);
			return -1;
		}
		lf->cap = LOG_OUT_ALL / ls->nr_files;
		if (lf->cap > LOG_OUT_BYTES)
			lf->cap = LOG_OUT_BYTES;
		if (lf->cap < LOG_OUT_MIN)
			lf->cap = LOG_OUT_MIN;
		lf->buf = xmalloc(lf->cap + LOG_OUT_SLACK);
	}
	if (ls->agg) {
		struct log_agg *a = ls->agg;

		a->epoch_ns = a->start = clock_now_ns();
		a->end = a->start + a->step_ns;
	}
	for (i = 0; i < ls->nr; i++)
		nr_pools += log_job_per_io(ls->jobs[i]);
	for (i = 0; i < ls->nr; i++) {
		struct job_log *jl = ls->jobs[i];

		if (!log_job_per_io(jl))
			continue;
		/* a share of LOG_POOL_ALL, between 8 and LOG_POOL_MAX */
		jl->pool_max = LOG_POOL_ALL / nr_pools;
		if (jl->pool_max > LOG_POOL_MAX)
			jl->pool_max = LOG_POOL_MAX;
		if (jl->pool_max < 8)
			jl->pool_max = 8;
		if (jl->pool_first > jl->pool_max)
			jl->pool_first = jl->pool_max;
		for (k = 0; k < jl->pool_first; k++)
			log_ring_push(&jl->empty,
				      xcalloc(1, sizeof(struct log_chunk)));
		jl->pool = jl->pool_target = jl->pool_first;
	}
	return log_writers_start(ls, err);
}

/* --- bandwidth and IOPS windows (reporter) ---------------------------- */

static void queue_rate(struct job_log *jl, uint64_t t_ms, unsigned int d,
		       uint64_t bw, uint64_t iops)
{
	struct log_rate *r;

	pthread_mutex_lock(&jl->rate_lock);
	if (jl->nr_rates == jl->alloc_rates) {
		jl->alloc_rates = jl->alloc_rates ? 2 * jl->alloc_rates : 16;
		jl->rates = xrealloc(jl->rates,
				     jl->alloc_rates * sizeof(*jl->rates));
	}
	r = &jl->rates[jl->nr_rates++];
	r->t_ms = t_ms;
	r->ddir = d;
	r->bw = bw;
	r->iops = iops;
	pthread_mutex_unlock(&jl->rate_lock);
}

static void put_rates(struct job_log *jl, uint64_t t, uint64_t dt,
		      const uint64_t *bytes, const uint64_t *ios)
{
	uint64_t t_ms = (t - jl->epoch_ns) / 1000000 + jl->epoch_add_ms;
	unsigned int d;

	if (!dt)
		dt = 1;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t db = bytes[d] - jl->s_bytes[d];
		uint64_t dn = ios[d] - jl->s_ios[d];

		if (!(jl->ddir_mask & (1u << d)))
			continue;
		queue_rate(jl, t_ms, d,
			   (uint64_t)((unsigned __int128)db * 1000000000u /
				      dt / 1024),
			   (uint64_t)((unsigned __int128)dn * 1000000000u / dt));
	}
	memcpy(jl->s_bytes, bytes, sizeof(jl->s_bytes));
	memcpy(jl->s_ios, ios, sizeof(jl->s_ios));
	jl->sample_any = true;
}

/* --bandwidth-log: the job's bytes, over restarts of its counters */
static void agg_count(struct job_log *jl, const uint64_t *bytes)
{
	unsigned int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t seen = jl->agg_seen[d];

		/* ramp_time's end and latency_target restart the counters */
		jl->agg_bytes[d] += bytes[d] >= seen ? bytes[d] - seen : bytes[d];
		jl->agg_seen[d] = bytes[d];
	}
}

void log_sample(struct job_log *jl, uint64_t now, const uint64_t *bytes,
		const uint64_t *ios, bool done)
{
	if (!jl || jl->sample_done)
		return;
	if (!atomic_load_explicit(&jl->started, memory_order_acquire))
		return;
	if (jl->set->agg)
		agg_count(jl, bytes);
	if (!jl->avg_ns || (!jl->file[LOG_BW] && !jl->file[LOG_IOPS])) {
		jl->sample_done = done;
		return;
	}
	if (!jl->sampling) {
		jl->sampling = true;
		jl->s_start = jl->epoch_ns;
		jl->s_end = jl->epoch_ns + jl->avg_ns;
		memset(jl->s_bytes, 0, sizeof(jl->s_bytes));
		memset(jl->s_ios, 0, sizeof(jl->s_ios));
	}
	if (now < jl->s_start)
		now = jl->s_start;
	if (now >= jl->s_end) {
		put_rates(jl, jl->s_end, now - jl->s_start, bytes, ios);
		jl->s_start = now;
		jl->s_end = grid_start(jl->epoch_ns, jl->avg_ns, now) +
			    jl->avg_ns;
	}
	if (done) {
		if (now - jl->s_start >= jl->avg_ns / 2 || !jl->sample_any)
			put_rates(jl, now, now - jl->s_start, bytes, ios);
		jl->sample_done = true;
	}
}

/* --- --bandwidth-log: every job's bandwidth together (reporter) -------- */

static void agg_put(struct log_set *ls, uint64_t t, uint64_t now)
{
	struct log_agg *a = ls->agg;
	uint64_t sum[DDIR_RWDIR_CNT] = { 0 }, dt = now - a->start;
	unsigned int i, d;

	for (i = 0; i < ls->nr; i++)
		for (d = 0; ls->jobs[i] && d < DDIR_RWDIR_CNT; d++)
			sum[d] += ls->jobs[i]->agg_bytes[d];
	if (!dt)
		dt = 1;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t kib = (uint64_t)((unsigned __int128)(sum[d] - a->bytes[d]) *
					  1000000000u / dt / 1024);

		log_put_line(a->file[d], (t - a->epoch_ns) / 1000000, kib, d,
			     0, NULL, false, 0);
		a->bytes[d] = sum[d];
	}
	a->any = true;
}

uint64_t log_set_tick_ns(const struct log_set *ls, uint64_t dflt)
{
	uint64_t t = dflt;
	unsigned int i;

	for (i = 0; ls && i < ls->nr; i++) {
		const struct job_log *jl = ls->jobs[i];

		if (jl && jl->avg_ns && jl->avg_ns < t &&
		    (jl->file[LOG_BW] || jl->file[LOG_IOPS]))
			t = jl->avg_ns;
	}
	return t;
}

void log_set_tick(struct log_set *ls, uint64_t now)
{
	struct log_agg *a = ls ? ls->agg : NULL;

	if (!a || now < a->end)
		return;
	agg_put(ls, a->end, now);
	a->start = now;
	a->end = grid_start(a->epoch_ns, a->step_ns, now) + a->step_ns;
}

void log_set_finish(struct log_set *ls)
{
	unsigned int d;

	if (!ls || ls->finished)
		return;
	ls->finished = true;
	if (ls->agg && ls->agg->file[0]->fd >= 0) {
		struct log_agg *a = ls->agg;
		uint64_t now = clock_now_ns();

		if (now >= a->end)
			log_set_tick(ls, now);
		if (now >= a->start &&
		    (now - a->start >= a->step_ns / 2 || !a->any))
			agg_put(ls, now, now);
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			log_out_flush(a->file[d]);
	}
	atomic_store_explicit(&ls->stop, 1, memory_order_release);
	log_writers_join(ls);
}

/* --- the end ------------------------------------------------------------ */

uint64_t log_set_dropped(const struct log_set *ls)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; ls && i < ls->nr; i++)
		if (ls->jobs[i])
			n += atomic_load(&ls->jobs[i]->dropped);
	return n;
}

/*
 * The files that could not be written: "'a' (No space left on device)",
 * a few of them and how many more; with where each one ends.
 */
static unsigned int bad_files(const struct log_set *ls, struct strbuf *sb,
			      bool sizes)
{
	unsigned int i, n = 0;

	for (i = 0; i < ls->nr_files; i++) {
		const struct log_file *lf = ls->files[i];

		if (!lf->err)
			continue;
		if (n++ >= 3)
			continue;
		strbuf_addf(sb, "%s'%s' (%s", n > 1 ? ", " : "", lf->path,
			    strerror(lf->err));
		if (sizes)
			strbuf_addf(sb, ": it ends after %llu bytes",
				    (unsigned long long)lf->written);
		strbuf_addch(sb, ')');
	}
	if (n > 3)
		strbuf_addf(sb, " and %u more", n - 3);
	return n;
}

void log_set_notes(const struct log_set *ls, struct strbuf *sb)
{
	uint64_t wait_ns = 0, waits = 0, dropped = log_set_dropped(ls);
	struct strbuf bad = STRBUF_INIT;
	const char *sep = "log files: ";
	unsigned int i;

	for (i = 0; ls && i < ls->nr; i++) {
		if (!ls->jobs[i])
			continue;
		wait_ns += ls->jobs[i]->wait_ns;
		waits += atomic_load(&ls->jobs[i]->waits);
	}
	if (waits) {
		strbuf_addf(sb, "%sthe jobs waited %.1f ms for the log writer "
			    "(%llu times): their I/O was held up meanwhile",
			    sep, (double)wait_ns / 1e6, (unsigned long long)waits);
		sep = "; ";
	}
	if (dropped) {
		strbuf_addf(sb, "%s%llu entries dropped (log_drop_when_behind: "
			    "the log writer fell behind)", sep,
			    (unsigned long long)dropped);
		sep = "; ";
	}
	if (ls && bad_files(ls, &bad, true))
		strbuf_addf(sb, "%snot written in full: %s", sep, bad.buf);
	strbuf_release(&bad);
}

static void free_job(struct job_log *jl)
{
	struct log_chunk *c;

	while ((c = log_ring_pop(&jl->full)))
		free(c);
	while ((c = log_ring_pop(&jl->empty)))
		free(c);
	free(jl->cur);
	free(jl->hist_prev);
	free(jl->rates);
	pthread_mutex_destroy(&jl->rate_lock);
	free(jl);
}

int log_set_release(struct log_set *ls, struct strbuf *err)
{
	struct strbuf bad = STRBUF_INIT;
	unsigned int i, nr_bad;

	log_set_finish(ls);
	for (i = 0; i < ls->nr_files; i++) {
		struct log_file *lf = ls->files[i];

		if (lf->fd >= 0) {
			/* the last chunk; an empty log is one empty stream */
			if (lf->compress && (lf->raw_len || !lf->streams))
				log_fz_flush(lf);
			log_out_flush(lf);
			if (close(lf->fd) && !lf->err)
				lf->err = errno ? errno : EIO;
		}
	}
	nr_bad = bad_files(ls, &bad, false);
	if (nr_bad)
		strbuf_addf(err, "cannot write log file%s %s",
			    nr_bad > 1 ? "s" : "", bad.buf);
	strbuf_release(&bad);
	for (i = 0; i < ls->nr_files; i++) {
		free(ls->files[i]->raw);
		free(ls->files[i]->buf);
		free(ls->files[i]->path);
		free(ls->files[i]);
	}
	free(ls->files);
	for (i = 0; i < ls->nr; i++)
		if (ls->jobs[i])
			free_job(ls->jobs[i]);
	free(ls->jobs);
	free(ls->agg);
	memset(ls, 0, sizeof(*ls));
	return nr_bad ? -1 : 0;
}
