/* SPDX-License-Identifier: MIT */
/*
 * fio's log files: see log.h for the format and for who writes what. The
 * worker's side is log_io() (inline, in log.h) and the slow paths here;
 * everything else runs on the reporter thread or in main.
 */
#include "stats/log.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "opt/opt.h"
#include "util/log.h"
#include "util/numfmt.h"

struct log_file {
	char *path;
	FILE *f;
	const char *opt;	/* option that asked for it, for messages */
	bool prio_hex;		/* log_prio: the priority value, in hex */
	/* log_store_compressed: binary samples, a zlib stream per chunk */
	bool compress;
	unsigned char *raw;
	size_t raw_len, chunk;
	unsigned int streams;	/* written so far */
};

/*
 * fio's compressed logs (.fz) hold its in-memory samples, in host byte
 * order, in zlib streams one after the other: time (ms), value, ddir
 * with flag bits, priority, block size, and with log_offset the offset.
 */
#define FZ_OFFSET_BIT 0x80000000u
#define FZ_PRIO_BIT 0x40000000u
#define FZ_DDIR_MASK 0x1fu
#define FZ_SAMPLE 32u		/* bytes; + 8 with the offset */
#define FZ_CHUNK_DEFAULT (1024 * 1024)

static const char *const kind_suffix[LOG_KIND_NR] = {
	[LOG_LAT] = "lat", [LOG_CLAT] = "clat", [LOG_SLAT] = "slat",
	[LOG_BW] = "bw", [LOG_IOPS] = "iops", [LOG_HIST] = "clat_hist",
};

/* A data-less record header is 48 bytes; keep records 8-byte aligned. */
_Static_assert(sizeof(struct log_rec) == 48, "log_rec layout");

/* --- rings ------------------------------------------------------------ */

static bool ring_push(struct log_ring *r, struct log_chunk *c)
{
	unsigned int head = atomic_load_explicit(&r->head, memory_order_relaxed);
	unsigned int tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= LOG_RING_SIZE)
		return false;
	r->slot[head % LOG_RING_SIZE] = c;
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

static struct log_chunk *ring_pop(struct log_ring *r)
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

static unsigned int ring_count(struct log_ring *r)
{
	return atomic_load_explicit(&r->head, memory_order_acquire) -
	       atomic_load_explicit(&r->tail, memory_order_acquire);
}

static size_t rec_size(const struct log_rec *r)
{
	return sizeof(*r) + (r->type == LOGR_HIST ? HIST_NR * sizeof(uint64_t) : 0);
}

static uint64_t count_recs(const struct log_chunk *c)
{
	size_t off = 0;
	uint64_t n = 0;

	while (off < c->used) {
		off += rec_size((const struct log_rec *)&c->data[off / 8]);
		n++;
	}
	return n;
}

/* --- the worker's side ------------------------------------------------ */

struct log_rec *log_reserve_slow(struct job_log *jl, size_t bytes)
{
	struct log_chunk *c = jl->cur;
	struct log_rec *r;

	if (c) {
		if (ring_push(&jl->full, c)) {
			jl->cur = NULL;
		} else {
			/* the reporter is far behind: these records are lost */
			atomic_fetch_add_explicit(&jl->dropped, count_recs(c),
						  memory_order_relaxed);
			c->used = 0;
		}
	}
	if (!jl->cur) {
		jl->cur = ring_pop(&jl->empty);
		if (!jl->cur) {
			atomic_fetch_add_explicit(&jl->dropped, 1,
						  memory_order_relaxed);
			return NULL;
		}
		jl->cur->used = 0;
	}
	c = jl->cur;
	r = (struct log_rec *)&c->data[c->used / 8];
	c->used += bytes;
	return r;
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

		if (!w->n)
			continue;
		r = log_reserve(jl, sizeof(*r));
		if (r) {
			r->type = LOGR_WIN;
			r->ddir = (uint8_t)d;
			r->valid = jl->valid;
			r->len = 0;
			r->time_ns = t - jl->epoch_ns;
			r->offset = 0;
			for (k = 0; k < 3; k++)
				r->v[k] = jl->log_max ? w->max[k] : w->sum[k] / w->n;
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
		r->type = LOGR_HIST;
		r->ddir = (uint8_t)d;
		r->valid = jl->valid;
		r->len = 0;
		r->time_ns = t - jl->epoch_ns;
		r->offset = 0;
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
	if (!jl->cur) {
		jl->cur = ring_pop(&jl->empty);
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

static const char *const kind_opt[LOG_KIND_NR] = {
	"write_lat_log", "write_lat_log", "write_lat_log", "write_bw_log",
	"write_iops_log", "write_hist_log",
};

/* Can path be created (or truncated)? 0, or -errno. */
static int check_creatable(const char *path)
{
	struct stat sb;
	char *copy, *dir;
	int ret = 0;

	if (!stat(path, &sb)) {
		if (S_ISDIR(sb.st_mode))
			return -EISDIR;
		return access(path, W_OK) ? -errno : 0;
	}
	if (errno != ENOENT)
		return -errno;
	copy = xstrdup(path);
	dir = dirname(copy);
	if (stat(dir, &sb))
		ret = -errno;
	else if (!S_ISDIR(sb.st_mode))
		ret = -ENOTDIR;
	else if (access(dir, W_OK | X_OK))
		ret = -errno;
	free(copy);
	return ret;
}

static struct log_file *find_file(struct log_set *ls, const char *path)
{
	unsigned int i;

	for (i = 0; i < ls->nr_files; i++)
		if (!strcmp(ls->files[i]->path, path))
			return ls->files[i];
	return NULL;
}

/* The job's log of kind k: shared by path, checked when first seen. */
static int add_file(struct log_set *ls, const struct job_plan *p,
		    enum log_kind k, const char *prefix, struct log_file **out,
		    struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct log_file *lf;
	int e;

	strbuf_addf(&path, "%s_%s", prefix, kind_suffix[k]);
	if (p->o.per_job_logs)
		strbuf_addf(&path, ".%u", p->job_index + 1);
	strbuf_addstr(&path, ".log");
	if (p->o.log_store_compressed)
		strbuf_addstr(&path, ".fz");
	lf = find_file(ls, path.buf);
	if (!lf) {
		e = check_creatable(path.buf);
		if (e) {
			strbuf_addf(err, "%s:%d: option '%s': cannot create log file '%s': %s",
				    p->src_file, p->src_line, kind_opt[k],
				    path.buf, strerror(-e));
			strbuf_release(&path);
			return -1;
		}
		lf = xcalloc(1, sizeof(*lf));
		lf->path = strbuf_detach(&path);
		lf->opt = kind_opt[k];
		lf->prio_hex = p->o.log_prio;
		lf->compress = p->o.log_store_compressed;
		lf->chunk = p->o.log_compression ? p->o.log_compression :
			    FZ_CHUNK_DEFAULT;
		ls->files = xrealloc(ls->files,
				     (ls->nr_files + 1) * sizeof(*ls->files));
		ls->files[ls->nr_files++] = lf;
	}
	strbuf_release(&path);
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
	jl->log_max = p->o.log_max_value;
	jl->log_offset = p->o.log_offset;
	jl->coarse = p->o.log_hist_coarseness;
	jl->lat_win = jl->avg_ns && jl->file[LOG_LAT];
	jl->per_io = !jl->avg_ns &&
		     (jl->file[LOG_LAT] || jl->file[LOG_BW] || jl->file[LOG_IOPS]);
	if (jl->hist_ns)
		jl->hist_prev = xcalloc(DDIR_RWDIR_CNT, sizeof(*jl->hist_prev));
	/* per-I/O records: log_entries of them, and room to spare */
	jl->pool_target = 2;
	if (jl->per_io)
		jl->pool_target = (unsigned int)((uint64_t)p->o.log_entries *
						 sizeof(struct log_rec) /
						 LOG_CHUNK_BYTES) + 8;
	if (jl->pool_target > LOG_RING_SIZE / 2)
		jl->pool_target = LOG_RING_SIZE / 2;
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
		ls->jobs[i] = xcalloc(1, sizeof(*ls->jobs[i]));
		ls->jobs[i]->set = ls;
		memcpy(ls->jobs[i]->file, lf, sizeof(lf));
		setup_job(ls->jobs[i], p);
	}
	return 0;
}

bool log_set_active(const struct log_set *ls)
{
	return ls && ls->nr_files > 0;
}

int log_set_open(struct log_set *ls, struct strbuf *err)
{
	unsigned int i, k;

	for (i = 0; i < ls->nr_files; i++) {
		struct log_file *lf = ls->files[i];

		lf->f = fopen(lf->path, "w");
		if (!lf->f) {
			strbuf_addf(err, "option '%s': cannot create log file '%s': %s",
				    lf->opt, lf->path, strerror(errno));
			return -1;
		}
		setvbuf(lf->f, NULL, _IOFBF, 256 * 1024);
	}
	for (i = 0; i < ls->nr; i++) {
		struct job_log *jl = ls->jobs[i];

		if (!jl || (!jl->per_io && !jl->lat_win && !jl->hist_ns))
			continue;
		for (k = 0; k < jl->pool_target; k++)
			ring_push(&jl->empty, xmalloc(sizeof(struct log_chunk)));
	}
	return 0;
}

/* --- formatting ------------------------------------------------------- */

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

static void put_sample(struct log_set *ls, struct log_file *lf,
		       uint64_t t_ms, uint64_t value, unsigned int ddir,
		       uint64_t bs, const uint64_t *offset);

static void put_line(struct log_set *ls, struct log_file *lf, uint64_t t_ms,
		     uint64_t value, unsigned int ddir, uint64_t bs,
		     const uint64_t *offset)
{
	char buf[160], *p = buf;

	if (lf->compress) {
		put_sample(ls, lf, t_ms, value, ddir, bs, offset);
		return;
	}

	p = numfmt_put_u64(p, t_ms);
	p = put_sep(p);
	p = numfmt_put_u64(p, value);
	p = put_sep(p);
	p = numfmt_put_u64(p, ddir);
	p = put_sep(p);
	p = numfmt_put_u64(p, bs);
	p = put_sep(p);
	if (offset) {
		p = numfmt_put_u64(p, *offset);
		p = put_sep(p);
	}
	/* command priority: iolite sets none (prio options are refused) */
	if (lf->prio_hex) {
		memcpy(p, "0x0000", 6);
		p += 6;
	} else {
		*p++ = '0';
	}
	*p++ = '\n';
	if (fwrite(buf, 1, (size_t)(p - buf), lf->f) != (size_t)(p - buf) &&
	    !ls->error)
		ls->error = errno ? errno : EIO;
}

/* --- compressed logs (log_store_compressed) ---------------------------- */

/* One zlib stream of what the chunk holds, appended to the file. */
static void z_flush(struct log_set *ls, struct log_file *lf)
{
#ifdef HAVE_ZLIB
	uLongf n = compressBound((uLong)lf->raw_len);
	unsigned char *out = xmalloc(n);

	if (compress2(out, &n, lf->raw ? lf->raw : out, (uLong)lf->raw_len,
		      Z_DEFAULT_COMPRESSION) != Z_OK) {
		if (!ls->error)
			ls->error = ENOMEM;
	} else if (fwrite(out, 1, n, lf->f) != n && !ls->error) {
		ls->error = errno ? errno : EIO;
	}
	free(out);
#endif
	lf->raw_len = 0;
	lf->streams++;
}

static void put_sample(struct log_set *ls, struct log_file *lf,
		       uint64_t t_ms, uint64_t value, unsigned int ddir,
		       uint64_t bs, const uint64_t *offset)
{
	unsigned char rec[FZ_SAMPLE + 8];
	uint32_t d = ddir | (lf->prio_hex ? FZ_PRIO_BIT : 0);
	uint16_t prio = 0;
	size_t len = FZ_SAMPLE;

	memset(rec, 0, sizeof(rec));
	if (offset) {
		d |= FZ_OFFSET_BIT;
		memcpy(rec + FZ_SAMPLE, offset, 8);
		len += 8;
	}
	memcpy(rec, &t_ms, 8);
	memcpy(rec + 8, &value, 8);
	memcpy(rec + 16, &d, 4);
	memcpy(rec + 20, &prio, 2);
	memcpy(rec + 24, &bs, 8);
	if (!lf->raw)
		lf->raw = xmalloc(lf->chunk + sizeof(rec));
	memcpy(lf->raw + lf->raw_len, rec, len);
	lf->raw_len += len;
	if (lf->raw_len + len > lf->chunk)
		z_flush(ls, lf);
}

static void put_hist_line(struct log_set *ls, struct job_log *jl,
			  const struct log_rec *r, const uint64_t *b,
			  uint64_t bs)
{
	struct log_file *lf = jl->file[LOG_HIST];
	unsigned int step = 1u << jl->coarse, i, k;
	char buf[4096], *p = buf;

	p = numfmt_put_u64(p, r->time_ns / 1000000);
	p = put_sep(p);
	p = numfmt_put_u64(p, r->ddir);
	p = put_sep(p);
	p = numfmt_put_u64(p, bs);
	for (i = 0; i < HIST_NR; i += step) {
		uint64_t sum = 0;

		for (k = 0; k < step && i + k < HIST_NR; k++)
			sum += b[i + k];
		if (p - buf > (long)sizeof(buf) - 32) {
			fwrite(buf, 1, (size_t)(p - buf), lf->f);
			p = buf;
		}
		p = put_sep(p);
		p = numfmt_put_u64(p, sum);
	}
	*p++ = '\n';
	if (fwrite(buf, 1, (size_t)(p - buf), lf->f) != (size_t)(p - buf) &&
	    !ls->error)
		ls->error = errno ? errno : EIO;
}

static const enum log_kind lat_kinds[3] = { LOG_LAT, LOG_CLAT, LOG_SLAT };

static void format_rec(struct log_set *ls, struct job_log *jl,
		       const struct log_rec *r)
{
	uint64_t t_ms = r->time_ns / 1000000;
	const uint64_t *off = jl->log_offset ? &r->offset : NULL;
	static const uint64_t zero;
	unsigned int k;

	switch (r->type) {
	case LOGR_IO:
		for (k = 0; k < 3; k++)
			if (jl->file[lat_kinds[k]] && (r->valid & (1u << k)))
				put_line(ls, jl->file[lat_kinds[k]], t_ms,
					 r->v[k], r->ddir, r->len, off);
		if (jl->file[LOG_BW]) {
			uint64_t clat = r->v[1] ? r->v[1] : 1;

			put_line(ls, jl->file[LOG_BW], t_ms,
				 (uint64_t)r->len * 1000000 / clat, r->ddir,
				 r->len, off);
		}
		if (jl->file[LOG_IOPS])
			put_line(ls, jl->file[LOG_IOPS], t_ms, 1, r->ddir,
				 r->len, off);
		break;
	case LOGR_WIN:
		for (k = 0; k < 3; k++)
			if (jl->file[lat_kinds[k]] && (r->valid & (1u << k)))
				put_line(ls, jl->file[lat_kinds[k]], t_ms,
					 r->v[k], r->ddir, 0,
					 off ? &zero : NULL);
		break;
	case LOGR_HIST:
		put_hist_line(ls, jl, r, (const uint64_t *)(r + 1),
			      jl->bs[r->ddir]);
		break;
	default:
		BUG("log record of unknown type %u", r->type);
	}
}

static void format_chunk(struct log_set *ls, struct job_log *jl,
			 const struct log_chunk *c)
{
	size_t off = 0;

	while (off < c->used) {
		const struct log_rec *r =
			(const struct log_rec *)&c->data[off / 8];

		format_rec(ls, jl, r);
		off += rec_size(r);
	}
}

/* Back to the worker, or freed when the pool is big enough. */
static void recycle(struct job_log *jl, struct log_chunk *c)
{
	if (ring_count(&jl->empty) >= jl->pool_target ||
	    !ring_push(&jl->empty, c))
		free(c);
}

void log_set_drain(struct log_set *ls, unsigned int max_chunks, bool final)
{
	unsigned int i, done = 0;

	for (i = 0; i < ls->nr; i++) {
		struct job_log *jl = ls->jobs[i];
		unsigned int got = 0;
		struct log_chunk *c;

		if (!jl)
			continue;
		while ((final || !max_chunks || done < max_chunks) &&
		       (c = ring_pop(&jl->full))) {
			format_chunk(ls, jl, c);
			recycle(jl, c);
			got++;
			done++;
		}
		if (final) {
			if (jl->cur) {
				format_chunk(ls, jl, jl->cur);
				free(jl->cur);
				jl->cur = NULL;
			}
			continue;
		}
		/* the worker went through half its pool: double it */
		if ((got * 2 >= jl->pool_target ||
		     atomic_load_explicit(&jl->dropped, memory_order_relaxed)) &&
		    jl->pool_target < LOG_RING_SIZE / 2)
			jl->pool_target *= 2;
		if (jl->per_io || jl->lat_win || jl->hist_ns)
			while (ring_count(&jl->empty) < jl->pool_target)
				if (!ring_push(&jl->empty,
					       xmalloc(sizeof(struct log_chunk))))
					break;
	}
}

/* --- bandwidth and IOPS windows (reporter) ---------------------------- */

static void put_rates(struct log_set *ls, struct job_log *jl, uint64_t t,
		      uint64_t dt, const uint64_t *bytes, const uint64_t *ios)
{
	static const uint64_t zero;
	const uint64_t *off = jl->log_offset ? &zero : NULL;
	uint64_t t_ms = (t - jl->epoch_ns) / 1000000;
	unsigned int d;

	if (!dt)
		dt = 1;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t db = bytes[d] - jl->s_bytes[d];
		uint64_t dn = ios[d] - jl->s_ios[d];

		if (!(jl->ddir_mask & (1u << d)))
			continue;
		if (jl->file[LOG_BW])
			put_line(ls, jl->file[LOG_BW], t_ms,
				 (uint64_t)((unsigned __int128)db * 1000000000u /
					    dt / 1024), d, 0, off);
		if (jl->file[LOG_IOPS])
			put_line(ls, jl->file[LOG_IOPS], t_ms,
				 (uint64_t)((unsigned __int128)dn * 1000000000u /
					    dt), d, 0, off);
	}
	memcpy(jl->s_bytes, bytes, sizeof(jl->s_bytes));
	memcpy(jl->s_ios, ios, sizeof(jl->s_ios));
	jl->sample_any = true;
}

void log_sample(struct job_log *jl, uint64_t now, const uint64_t *bytes,
		const uint64_t *ios, bool done)
{
	struct log_set *ls;

	if (!jl || !jl->avg_ns || jl->sample_done ||
	    (!jl->file[LOG_BW] && !jl->file[LOG_IOPS]))
		return;
	ls = jl->set;
	if (!atomic_load_explicit(&jl->started, memory_order_acquire))
		return;
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
		put_rates(ls, jl, jl->s_end, now - jl->s_start, bytes, ios);
		jl->s_start = now;
		jl->s_end = grid_start(jl->epoch_ns, jl->avg_ns, now) +
			    jl->avg_ns;
	}
	if (done) {
		if (now - jl->s_start >= jl->avg_ns / 2 || !jl->sample_any)
			put_rates(ls, jl, now, now - jl->s_start, bytes, ios);
		jl->sample_done = true;
	}
}

uint64_t log_set_dropped(const struct log_set *ls)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; ls && i < ls->nr; i++)
		if (ls->jobs[i])
			n += atomic_load(&ls->jobs[i]->dropped);
	return n;
}

int log_set_release(struct log_set *ls)
{
	unsigned int i;
	int ret = ls->error ? -ls->error : 0;

	for (i = 0; i < ls->nr_files; i++) {
		struct log_file *lf = ls->files[i];

		/* the last chunk; an empty log is one empty stream, as fio */
		if (lf->f && lf->compress && (lf->raw_len || !lf->streams)) {
			z_flush(ls, lf);
			if (ls->error && !ret)
				ret = -ls->error;
		}
		if (lf->f && fclose(lf->f) && !ret)
			ret = -(errno ? errno : EIO);
		free(lf->raw);
		free(lf->path);
		free(lf);
	}
	free(ls->files);
	for (i = 0; i < ls->nr; i++) {
		struct job_log *jl = ls->jobs[i];
		struct log_chunk *c;

		if (!jl)
			continue;
		while ((c = ring_pop(&jl->full)))
			free(c);
		while ((c = ring_pop(&jl->empty)))
			free(c);
		free(jl->cur);
		free(jl->hist_prev);
		free(jl);
	}
	free(ls->jobs);
	memset(ls, 0, sizeof(*ls));
	return ret;
}

/* --- --inflate-log ------------------------------------------------------ */

#ifdef HAVE_ZLIB
/* Every zlib stream of the file, one after the other, into out. */
static int inflate_all(const unsigned char *in, size_t len,
		       struct strbuf *out, struct strbuf *err)
{
	unsigned char buf[64 * 1024];

	while (len) {
		z_stream z;
		int ret;

		memset(&z, 0, sizeof(z));
		if (inflateInit(&z) != Z_OK) {
			strbuf_addstr(err, "zlib: cannot start inflating");
			return -1;
		}
		z.next_in = (unsigned char *)in;
		z.avail_in = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			ret = inflate(&z, Z_NO_FLUSH);
			strbuf_add(out, buf, sizeof(buf) - z.avail_out);
		} while (ret == Z_OK);
		inflateEnd(&z);
		if (ret != Z_STREAM_END) {
			strbuf_addf(err, "not a complete zlib stream at byte %zu",
				    (size_t)(z.next_in - in) + 0);
			return -1;
		}
		len -= (size_t)(z.next_in - in);
		in = z.next_in;
	}
	return 0;
}

static void print_sample(FILE *out, const unsigned char *s, bool with_off)
{
	uint64_t t, v, bs, off = 0;
	uint32_t d;
	uint16_t prio;

	memcpy(&t, s, 8);
	memcpy(&v, s + 8, 8);
	memcpy(&d, s + 16, 4);
	memcpy(&prio, s + 20, 2);
	memcpy(&bs, s + 24, 8);
	fprintf(out, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", ", t, v,
		d & FZ_DDIR_MASK, bs);
	if (with_off) {
		memcpy(&off, s + FZ_SAMPLE, 8);
		fprintf(out, "%" PRIu64 ", ", off);
	}
	if (d & FZ_PRIO_BIT)
		fprintf(out, "0x%04x\n", prio);
	else	/* the flag: real-time class (ioprio class 1) */
		fprintf(out, "%u\n", (prio >> 13) == 1);
}
#endif

int log_inflate(const char *path, FILE *out, struct strbuf *err)
{
#ifdef HAVE_ZLIB
	struct strbuf in = STRBUF_INIT, raw = STRBUF_INIT;
	FILE *f = fopen(path, "rb");
	char buf[64 * 1024];
	size_t n, off = 0;
	int ret = -1;

	if (!f) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&in, buf, n);
	if (ferror(f)) {
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (inflate_all((const unsigned char *)in.buf, in.len, &raw, err)) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "'%s': %s", path, strbuf_str(err));
		strbuf_reset(err);
		strbuf_addstr(err, strbuf_str(&msg));
		strbuf_release(&msg);
		goto out;
	}
	while (off < raw.len) {
		const unsigned char *s = (const unsigned char *)raw.buf + off;
		uint32_t d;
		bool with_off;
		size_t sz;

		if (raw.len - off < FZ_SAMPLE)
			break;
		memcpy(&d, s + 16, 4);
		with_off = d & FZ_OFFSET_BIT;
		sz = FZ_SAMPLE + (with_off ? 8 : 0);
		if (raw.len - off < sz)
			break;
		print_sample(out, s, with_off);
		off += sz;
	}
	if (off != raw.len) {
		strbuf_addf(err, "'%s': %zu bytes at the end are not a whole "
			    "log record", path, raw.len - off);
		goto out;
	}
	ret = 0;
out:
	fclose(f);
	strbuf_release(&in);
	strbuf_release(&raw);
	return ret;
#else
	strbuf_addf(err, "cannot inflate '%s': this build has no zlib: "
		    "install zlib1g-dev (or zlib-devel) and rebuild", path);
	(void)out;
	return -1;
#endif
}
