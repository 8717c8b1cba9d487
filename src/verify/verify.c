/* SPDX-License-Identifier: MIT */
/*
 * Verification: what to write, what to read back, and what is wrong when
 * a block comes back different. See verify.h for the flow and header.h
 * for the block format.
 *
 * The log of written blocks holds (file, offset, length, sequence number)
 * per completed write, in completion order. Without verify_backlog it
 * holds one pass and is read back when the pass is over; with it, it is a
 * ring read back every verify_backlog writes. It is sized at init for a
 * pass (the workload's byte budget over the smallest write) and cannot
 * overflow: should a pass ever write more, a read-back starts early.
 */
#include "verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opt/verify_opts.h"
#include "util/log.h"
#include "util/safefile.h"
#include "util/prng.h"
#include "verify/async.h"
#include "verify/header.h"
#include "verify/state.h"

enum vio_kind {
	VIO_NONE,
	VIO_WRITE,	/* a write to log when it completes */
	VIO_CHECK,	/* a read-back: everything about the block is known */
	VIO_CHECK_ANY,	/* a read of a read-only job, or of verify_only:
			 * the header must be sound and name this offset */
	VIO_ZERO,	/* a read-back of a trimmed block: zeroes */
};

/* What the worker's io_u number i is doing for verification. */
struct vio {
	uint64_t seq;
	uint32_t len;		/* a read-back's length as written; 0: any */
	uint8_t kind;
};

struct vlog_ent {
	uint64_t offset;
	uint64_t seq;
	uint32_t len;		/* | VLOG_DEAD: overwritten, not checked */
	uint32_t file;
};

#define VLOG_DEAD 0x80000000u
#define VLOG_TRIM 0x40000000u	/* trimmed by trim_backlog */
#define VLOG_LEN(e) ((e)->len & ~(VLOG_DEAD | VLOG_TRIM))

/* VP_REPLAY: experimental_verify runs the pass again as reads */
enum vphase { VP_NONE, VP_BACKLOG, VP_FINAL, VP_REPLAY };

struct verify {
	const struct job_plan *p;
	const struct engine_file *files;
	unsigned int nr_files;
	struct workload *wl;

	enum verify_mode mode;
	struct vhash *h;
	unsigned int hdr_len;		/* 0: no header (pattern, null) */
	uint32_t interval;		/* chunk size; 0: the block */
	uint32_t voff;			/* verify_offset */
	uint32_t min_chunk;		/* hdr_len + voff */
	const struct byte_pattern *pat;	/* NULL: none */
	unsigned int rnd_pct;		/* buffer_compress_percentage's rest */
	uint64_t seed;
	uint32_t job;

	bool writes;		/* the job writes */
	bool only;		/* verify_only: replay, do not write */
	bool logging;		/* completed writes go to the log */
	bool final;		/* read the log back at the end of a pass */
	bool check_reads;	/* a read-only job: check every read */
	bool fake;		/* the engine moves no data: no checks */

	/*
	 * experimental_verify: no log; a second workload, in step with
	 * the job's, replays each pass's writes as reads after it
	 */
	struct workload *replay;
	uint64_t pass_seq0;	/* sequence number of the pass's first write */
	uint64_t replay_seq;	/* of the next write replayed */
	bool replayed;		/* a read-back just ended */

	struct vlog_ent *log;
	uint64_t cap;		/* entries */
	size_t log_bytes;
	uint64_t head, tail;	/* next to read back, next to fill */
	uint64_t trigger;	/* read back when this many are pending */
	uint64_t room;		/* ... or when the log holds this many */
	enum vphase phase;
	/*
	 * verify_backlog_batch: reads left in this round (a round goes on
	 * across writes until it is done, as fio's); 0 in vbatch: off
	 */
	uint64_t vbatch, vleft;
	/*
	 * fio's last loop ends on the bytes its workload issued (its earlier
	 * ones run out of I/O): a backlog round due then waits for the
	 * read-back phase
	 */
	bool last_loop;
	bool offset_order;	/* order_pending() sorts the pending blocks */

	/*
	 * trim_backlog (fio's verify trims): the log positions of the
	 * written blocks drawn (trim_percentage) to be trimmed, oldest
	 * first; every trim_backlog blocks pending, trim_backlog_batch of
	 * them are trimmed and marked VLOG_TRIM in the log. Without
	 * trim_verify_zero a trimmed block leaves the blocks pending
	 * ('gone' of them are still in the log, skipped when read back).
	 */
	uint64_t *trim;
	uint64_t trim_cap, trim_head, trim_tail;
	uint64_t trim_every, trim_batch, trim_left, gone;
	uint64_t trim_rnd;
	unsigned int trim_pct;
	bool trim_zero;

	struct verify_async *async;	/* verify_async; NULL: inline */

	struct vio *vio;
	unsigned int nr_ios;
	uint64_t next_seq;
	uint64_t first_failed;	/* lowest seq of a failed write */
	bool limited;		/* a loaded state bounds the replay */
	uint64_t limit;		/* writes below this seq were done */

	char msg[512];
};

/* ---- data ---- */

/* The data of a chunk is a stream of (seed, file, offset, seq). */
static void fill_stream(void *buf, size_t len, uint64_t seed, uint32_t file,
			uint64_t offset, uint64_t seq)
{
	uint64_t x = seed ^ (offset * 0x9E3779B97F4A7C15ULL) ^
		     (seq * 0xC2B2AE3D27D4EB4FULL) ^ ((uint64_t)file << 48);
	uint64_t s = prng_splitmix64(&x) | 1;
	unsigned char *b = buf;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		v = s * 0x2545F4914F6CDD1DULL;
		memcpy(b + i, &v, 8);
	}
	for (; i < len; i++)
		b[i] = (unsigned char)(s >> (8 * (i & 7)));
}

/* Length of the chunk at pos of a len-byte block. */
static inline uint32_t chunk_len(const struct verify *v, uint32_t pos,
				 uint32_t len)
{
	uint32_t left = len - pos, c = v->interval ? v->interval : left;

	/* a tail too short for a header of its own joins this chunk */
	if (c >= left || left - c < v->min_chunk)
		return left;
	return c;
}

static void swap_bytes(unsigned char *a, unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char t = a[i];

		a[i] = b[i];
		b[i] = t;
	}
}

/*
 * Without verify_pattern, as fio: random, and with
 * buffer_compress_percentage that share of the block (not of each
 * buffer_compress_chunk) buffer_pattern or zeroes at its end, so the
 * data compresses as asked for; the headers go on top.
 */
static void fill_data(struct verify *v, unsigned char *buf, uint32_t file,
		      uint64_t offset, uint32_t len, uint64_t seq)
{
	const struct byte_pattern *fixed = &v->p->o.buffer_pattern;
	uint32_t r = (uint32_t)((uint64_t)len * v->rnd_pct / 100);

	fill_stream(buf, r, v->seed, file, offset, seq);
	if (r == len)
		return;
	if (fixed->len)
		pattern_fill(fixed, buf + r, len - r, 0);
	else
		memset(buf + r, 0, len - r);
}

/* Builds the block a write of (file, offset, len, seq) puts on disk. */
static void build_block(struct verify *v, unsigned char *buf, uint32_t file,
			uint64_t offset, uint32_t len, uint64_t seq)
{
	uint32_t pos, c;

	if (v->pat)
		pattern_fill(v->pat, buf, len, offset);
	else
		fill_data(v, buf, file, offset, len, seq);
	if (!v->hdr_len || len < v->min_chunk)
		return;
	for (pos = 0; pos < len; pos += c) {
		struct vexpect e = {
			.offset = offset + pos, .job = v->job, .file = file,
			.seed = v->seed, .seq = seq,
		};

		c = chunk_len(v, pos, len);
		e.len = c;
		vhdr_stamp(v->h, v->mode, v->hdr_len, buf + pos, &e);
		if (v->voff)
			swap_bytes(buf + pos, buf + pos + v->voff, v->hdr_len);
	}
}

void verify_prep_write(struct verify *v, struct io_u *u)
{
	if (v->mode == VERIFY_NULL)
		return;
	build_block(v, u->buf, u->file, u->offset, u->len,
		    v->vio[u->index].seq);
}

/* ---- the log ---- */

/* trim_percentage: whether a block just written is to be trimmed */
static inline bool trim_draw(struct verify *v)
{
	return prng_splitmix64(&v->trim_rnd) % 100 < v->trim_pct;
}

static inline void log_push(struct verify *v, uint32_t file, uint64_t offset,
			    uint32_t len, uint64_t seq)
{
	struct vlog_ent *e;

	if (unlikely(v->tail - v->head >= v->cap))
		BUG("verify log overflow (%llu entries)",
		    (unsigned long long)v->cap);
	if (unlikely(v->trim) && trim_draw(v))
		v->trim[v->trim_tail++ % v->trim_cap] = v->tail;
	e = &v->log[v->tail++ % v->cap];
	e->offset = offset;
	e->seq = seq;
	e->len = len;
	e->file = file;
}

/* Blocks written and still to be read back, as fio counts them. */
static inline uint64_t log_pending(const struct verify *v)
{
	return v->tail - v->head - v->gone;
}

/*
 * trim_backlog: a trim of the oldest block drawn when the round says so
 * (0 with u filled), else 1. The drawn blocks already read back are
 * dropped first: they are no longer pending.
 */
static int trim_next(struct verify *v, struct io_u *u)
{
	struct vlog_ent *e;

	while (v->trim_head < v->trim_tail &&
	       v->trim[v->trim_head % v->trim_cap] < v->head)
		v->trim_head++;
	if (v->trim_head == v->trim_tail)
		return 1;
	if (v->trim_left)
		v->trim_left--;
	else if (!(log_pending(v) % v->trim_every))
		v->trim_left = v->trim_batch;	/* this one is the round's */
	else
		return 1;
	e = &v->log[v->trim[v->trim_head++ % v->trim_cap] % v->cap];
	e->len |= VLOG_TRIM;
	if (!v->trim_zero) {
		v->gone++;
		/* not to be read back: the oldest such leave the log now */
		while (v->head < v->tail &&
		       (v->log[v->head % v->cap].len & VLOG_TRIM)) {
			v->head++;
			v->gone--;
		}
	}
	u->file = e->file;
	u->offset = e->offset;
	u->len = VLOG_LEN(e);
	u->ddir = DDIR_TRIM;
	v->vio[u->index].kind = VIO_NONE;
	return 0;
}

/* ---- the order of the read-backs ---- */

static inline bool ent_less(const struct vlog_ent *a, const struct vlog_ent *b)
{
	if (a->file != b->file)
		return a->file < b->file;
	if (a->offset != b->offset)
		return a->offset < b->offset;
	return a->seq < b->seq;
}

/*
 * Entry i of the n entries from ring position base (base < cap, n <= cap):
 * the sorts below work on a backlog ring's pending entries as on a whole
 * pass's log (base 0).
 */
static inline struct vlog_ent *ring_ent(struct vlog_ent *e, uint64_t cap,
					uint64_t base, uint64_t i)
{
	uint64_t k = base + i;

	return &e[k >= cap ? k - cap : k];
}

static void sift_down(struct vlog_ent *e, uint64_t cap, uint64_t base,
		      uint64_t i, uint64_t n)
{
	for (;;) {
		uint64_t c = 2 * i + 1;
		struct vlog_ent t, *pi, *pc;

		if (c >= n)
			return;
		if (c + 1 < n && ent_less(ring_ent(e, cap, base, c),
					  ring_ent(e, cap, base, c + 1)))
			c++;
		pi = ring_ent(e, cap, base, i);
		pc = ring_ent(e, cap, base, c);
		if (!ent_less(pi, pc))
			return;
		t = *pi;
		*pi = *pc;
		*pc = t;
		i = c;
	}
}

/* In place: qsort may allocate, and this runs inside the I/O loop. */
static void sort_ring(struct vlog_ent *e, uint64_t cap, uint64_t base,
		      uint64_t n)
{
	uint64_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(e, cap, base, i, n);
	for (i = n; i-- > 1;) {
		struct vlog_ent t = *ring_ent(e, cap, base, 0);

		*ring_ent(e, cap, base, 0) = *ring_ent(e, cap, base, i);
		*ring_ent(e, cap, base, i) = t;
		sift_down(e, cap, base, 0, i);
	}
}

/*
 * n entries from ring position base, in offset order: an entry a newer
 * one overlaps is dropped (VLOG_DEAD), as it cannot be checked whole.
 */
static void drop_overwritten(struct vlog_ent *e, uint64_t cap,
			     uint64_t base, uint64_t n)
{
	uint64_t i, j;

	for (i = 0; i < n; i++) {
		struct vlog_ent *a = ring_ent(e, cap, base, i);
		uint64_t end = a->offset + VLOG_LEN(a);

		/* a dropped write still wrote: it spoils older ones too */
		for (j = i + 1; j < n; j++) {
			struct vlog_ent *b = ring_ent(e, cap, base, j);

			if (b->file != a->file || b->offset >= end)
				break;
			if (b->seq > a->seq)
				a->len |= VLOG_DEAD;
			else
				b->len |= VLOG_DEAD;
		}
	}
}

/*
 * fio reads back in offset order (file, then offset) unless no block can
 * be written twice (a random map), where it keeps the write order: a
 * verify_backlog round, or the read-back of what the last round left,
 * takes the smallest pending blocks first. Trims point into the ring by
 * position, so with them the ring stays in write order.
 */
static void order_pending(struct verify *v)
{
	uint64_t n = v->tail - v->head, base = v->head % v->cap, i;

	if (!v->offset_order || v->trim || n < 2)
		return;
	for (i = 1; i < n; i++)
		if (ent_less(ring_ent(v->log, v->cap, base, i),
			     ring_ent(v->log, v->cap, base, i - 1)))
			break;
	if (i < n)
		sort_ring(v->log, v->cap, base, n);
	/*
	 * fio's backlog keeps the newest write of a block (r10k job 4375:
	 * 16 writes of 13 blocks, 13 read back): the older is not read
	 */
	drop_overwritten(v->log, v->cap, base, n);
}

/* ---- choosing I/O ---- */

/* experimental_verify's read-back: the pass's writes again, as reads. */
static int replay_next(struct verify *v, struct io_u *u)
{
	for (;;) {
		struct vio *x;

		if (workload_next(v->replay, u)) {
			/* in step with the job's workload for its next pass */
			workload_rewind(v->replay);
			v->phase = VP_NONE;
			v->pass_seq0 = v->next_seq;
			v->replayed = true;
			return 1;
		}
		if (u->ddir != DDIR_WRITE)
			continue;
		u->ddir = DDIR_READ;
		x = &v->vio[u->index];
		x->seq = v->replay_seq++;
		x->len = u->len;
		x->kind = VIO_CHECK;
		return 0;
	}
}

static bool last_bytes_issued(const struct verify *v)
{
	return v->last_loop && workload_pass_spent(v->wl);
}

/*
 * A backlog round: every trigger blocks pending, the rest of a
 * verify_backlog_batch round (unless the last loop's bytes are issued),
 * or a log full of blocks the trims took out of the count.
 */
static inline bool backlog_full(const struct verify *v)
{
	return v->logging && (log_pending(v) >= v->trigger ||
			      (v->vleft && log_pending(v)));
}

static inline bool round_due(const struct verify *v)
{
	return (backlog_full(v) && !last_bytes_issued(v)) ||
	       (v->logging && unlikely(v->tail - v->head >= v->room));
}

/*
 * fio checks the verify backlog before the trims: a round the last
 * loop's end leaves to the read-back phase still takes its blocks out of
 * the trims (no trims then); without one the trim rounds go on.
 */
static inline bool trims_held(const struct verify *v)
{
	return last_bytes_issued(v) && backlog_full(v);
}

bool verify_round_due(const struct verify *v)
{
	if (v->phase == VP_NONE)
		return round_due(v);
	if (v->phase != VP_BACKLOG)
		return true;	/* the read-back phase, the replay */
	return (v->head < v->tail && (!v->vbatch || v->vleft)) ||
	       round_due(v);
}

void verify_new_loop(struct verify *v, bool last)
{
	v->last_loop = last && !v->p->o.time_based;
}

/*
 * The next logged write to read back, into u: 1 when u is one, 0 when
 * an entry was passed over (overwritten, trimmed), -1 when none is due
 * (the log is read to its end, or the backlog's batch is done).
 */
static inline int next_readback(struct verify *v, struct io_u *u)
{
	const struct vlog_ent *e;
	struct vio *x;

	if (v->head >= v->tail ||
	    (v->phase == VP_BACKLOG && v->vbatch && !v->vleft))
		return -1;
	e = &v->log[v->head++ % v->cap];
	if (e->len & VLOG_DEAD)
		return 0;	/* overwritten */
	if (unlikely(e->len & VLOG_TRIM) && !v->trim_zero) {
		v->gone--;	/* not read back */
		return 0;
	}
	if (v->phase == VP_BACKLOG && v->vleft)
		v->vleft--;
	u->file = e->file;
	u->offset = e->offset;
	u->len = VLOG_LEN(e);
	u->ddir = DDIR_READ;
	x = &v->vio[u->index];
	x->seq = e->seq;
	x->len = u->len;
	if (unlikely(e->len & VLOG_TRIM)) {
		x->kind = VIO_ZERO;
		return 1;
	}
	/*
	 * verify_only cannot know who wrote a block (another job may have,
	 * with the same settings): as fio, it checks the block, not its
	 * writer, unless the writer's state was loaded
	 */
	x->kind = v->only && !v->limited ? VIO_CHECK_ANY : VIO_CHECK;
	return 1;
}

/* verify_only's replay of the writes: logged, not issued. */
static void only_replay(struct verify *v, const struct io_u *u)
{
	uint64_t seq;

	if (u->ddir != DDIR_WRITE)
		return;
	seq = v->next_seq++;
	if (v->logging && (!v->limited || seq < v->limit))
		log_push(v, u->file, u->offset, u->len, seq);
}

int verify_next(struct verify *v, struct io_u *u)
{
	if (unlikely(v->phase == VP_REPLAY))
		return replay_next(v, u);
	for (;;) {
		struct vio *x;
		int ret;

		if (v->phase != VP_NONE) {
			ret = next_readback(v, u);
			if (ret > 0) {
				/* a round inside the pass: number_ios counts it */
				if (v->phase == VP_BACKLOG)
					workload_nios_take(v->wl);
				return 0;
			}
			if (!ret)
				continue;
			if (v->phase == VP_FINAL) {
				v->phase = VP_NONE;
				return 1;
			}
			v->phase = VP_NONE;
		}
		if (round_due(v)) {
			if (!v->vleft)
				v->vleft = v->vbatch;
			v->phase = VP_BACKLOG;
			order_pending(v);
			continue;
		}
		if (unlikely(v->trim) && !trims_held(v) && !trim_next(v, u))
			return 0;
		ret = workload_next(v->wl, u);
		if (ret)
			return ret;
		x = &v->vio[u->index];
		if (v->only && (u->ddir != DDIR_READ || v->writes)) {
			/* replay: what an earlier run wrote is read back */
			only_replay(v, u);
			continue;
		}
		if (u->ddir == DDIR_WRITE) {
			x->seq = v->next_seq++;
			x->kind = VIO_WRITE;
		} else {
			x->kind = u->ddir == DDIR_READ && v->check_reads ?
				  VIO_CHECK_ANY : VIO_NONE;
			x->len = 0;
		}
		return 0;
	}
}

/*
 * A pass that wrote some blocks more than once (random without a map,
 * io_size beyond the region, mixed block sizes) holds only the newest
 * write of each byte: an older entry that a newer one overlaps is dropped
 * (VLOG_DEAD), as it cannot be checked whole. The log is then in offset
 * order. A log already in order and without overlaps is left alone.
 */
static void dedupe_log(struct verify *v)
{
	struct vlog_ent *e = v->log;
	uint64_t n = v->tail, i;
	bool clean = true;

	for (i = 1; i < n && clean; i++)
		clean = e[i].file > e[i - 1].file ||
			(e[i].file == e[i - 1].file &&
			 e[i].offset >= e[i - 1].offset + VLOG_LEN(&e[i - 1]));
	if (clean)
		return;
	sort_ring(e, n, 0, n);
	drop_overwritten(e, n, 0, n);
}

int verify_pass_end(struct verify *v)
{
	if (v->replay) {
		struct io_u t;

		if (v->replayed || !v->final) {
			/* the end of the read-back, or nothing to replay */
			v->replayed = false;
			return 0;
		}
		if (v->next_seq > v->pass_seq0) {
			v->phase = VP_REPLAY;
			v->replay_seq = v->pass_seq0;
			return 1;
		}
		/* a pass that wrote nothing: the replay skips it too */
		memset(&t, 0, sizeof(t));
		while (!workload_next(v->replay, &t))
			;
		workload_rewind(v->replay);
		return 0;
	}
	if (v->phase == VP_NONE && v->final && v->head < v->tail) {
		/* a pass's log from its start, not a backlog ring */
		if (!v->p->o.verify_backlog && !v->head && v->tail <= v->cap)
			dedupe_log(v);
		else if (v->p->o.verify_backlog)
			order_pending(v);
		v->phase = VP_FINAL;
		return 1;
	}
	v->phase = VP_NONE;
	/*
	 * A pass's log is done with: the next pass logs afresh. A backlog
	 * ring goes on across passes (time_based wraps keep their pending
	 * blocks).
	 */
	if (!v->p->o.verify_backlog) {
		v->head = v->tail = v->gone = 0;
		v->trim_head = v->trim_tail = v->trim_left = 0;
	}
	return 0;
}

bool verify_reading(const struct verify *v)
{
	return v->phase != VP_NONE;
}

/* ---- checking ---- */

static void hex(char *out, const unsigned char *b, unsigned int n)
{
	unsigned int i, shown = n > 16 ? 16 : n;

	for (i = 0; i < shown; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	if (shown < n)
		strcpy(out + 2 * shown, "...");
}

static const char *mode_name(unsigned int m)
{
	return m < VERIFY_MODE_NR ? verify_mode_name((enum verify_mode)m) :
	       "unknown";
}

__attribute__((format(printf, 5, 6)))
static void fail_msg(struct verify *v, const struct io_u *u, uint64_t off,
		     uint32_t len, const char *fmt, ...)
{
	const char *path = v->nr_files ? v->files[u->file].path : "";
	int n;
	va_list ap;

	n = snprintf(v->msg, sizeof(v->msg),
		     "job '%s': verify of %u bytes at offset %llu of '%s' failed: ",
		     v->p->o.name, len, (unsigned long long)off, path);
	if (n < 0 || (size_t)n >= sizeof(v->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(v->msg + n, sizeof(v->msg) - (size_t)n, fmt, ap);
	va_end(ap);
}

static void describe(struct verify *v, const struct io_u *u,
		     enum vhdr_result r, const struct vexpect *e,
		     const struct verify_hdr *g, const unsigned char *want,
		     const unsigned char *have)
{
	char a[40], b[40];

	switch (r) {
	case VH_MAGIC:
		fail_msg(v, u, e->offset, e->len,
			 "no verify header: expected magic 0x%08x, received 0x%08x",
			 VERIFY_MAGIC, g->magic);
		break;
	case VH_MODE:
		fail_msg(v, u, e->offset, e->len,
			 "header of verify=%s (version %u), expected verify=%s (version %u)",
			 mode_name(g->mode), g->version, mode_name(v->mode),
			 VERIFY_VERSION);
		break;
	case VH_CSUM:
		hex(a, want, verify_csum_size(v->mode));
		hex(b, have, verify_csum_size(v->mode));
		fail_msg(v, u, e->offset, e->len,
			 "%s mismatch: expected %s, received %s",
			 verify_mode_name(v->mode), a, b);
		break;
	case VH_LEN:
		fail_msg(v, u, e->offset, e->len,
			 "wrong length: expected %u, received %u",
			 e->len, g->len);
		break;
	case VH_OFFSET:
		fail_msg(v, u, e->offset, e->len,
			 "misplaced block: expected offset %llu, received offset %llu",
			 (unsigned long long)e->offset,
			 (unsigned long long)g->offset);
		break;
	case VH_WRITER:
		fail_msg(v, u, e->offset, e->len,
			 "foreign block: expected job %u file %u, received job %u file %u",
			 e->job, e->file, g->job, g->file);
		break;
	case VH_STALE:
		fail_msg(v, u, e->offset, e->len,
			 "stale block: expected write %llu of seed 0x%llx, received write %llu of seed 0x%llx",
			 (unsigned long long)e->seq,
			 (unsigned long long)e->seed,
			 (unsigned long long)g->seq,
			 (unsigned long long)g->seed);
		break;
	case VH_OK:
		break;
	}
}

/* --aux-path: where state files and dumps go; NULL: the cwd, as fio */
static const char *aux_path;

void verify_set_aux_path(const char *dir)
{
	aux_path = dir;
}

/* verify_dump: the block as read and as it should be, in the aux path. */
static void dump_block(struct verify *v, const struct io_u *u,
		       const void *raw, uint64_t seq)
{
	const char *path = v->nr_files ? v->files[u->file].path : "block";
	const char *base = strrchr(path, '/');
	unsigned char *want;
	const char *why;
	char name[4096];
	int k;

	base = base ? base + 1 : path;
	want = xmalloc(u->len);
	if (v->mode == VERIFY_NULL)
		memset(want, 0, u->len);
	else
		build_block(v, want, u->file, u->offset, u->len, seq);
	for (k = 0; k < 2; k++) {
		const void *data = k ? want : raw;
		int fd;

		snprintf(name, sizeof(name), "%s%s%s.%llu.%s",
			 aux_path ? aux_path : "", aux_path ? "/" : "", base,
			 (unsigned long long)u->offset,
			 k ? "expected" : "received");
		/* a name of iolite's own: never through a symlink */
		fd = sf_open(name, O_WRONLY, 0644, SF_CREATE | SF_TRUNC, &why);
		errno = 0;	/* a short write sets none */
		if (fd < 0)
			warn("verify_dump: cannot write '%s': %s", name, why);
		else if (write(fd, data, u->len) != (ssize_t)u->len)
			warn("verify_dump: cannot write '%s': %s", name,
			     strerror(errno ? errno : ENOSPC));
		if (fd >= 0)
			close(fd);
	}
	free(want);
}

/*
 * The pattern: over the whole block, or (with headers, swapped back into
 * place) between the headers.
 */
static int check_pattern(struct verify *v, struct io_u *u)
{
	unsigned char want;
	uint32_t pos, c;
	long i = -1;

	if (!v->hdr_len) {
		i = pattern_check(v->pat, u->buf, u->len, 0, u->offset, &want);
	} else {
		for (pos = 0; pos < u->len && i < 0; pos += c) {
			c = chunk_len(v, pos, u->len);
			i = pattern_check(v->pat, u->buf, pos + c,
					  pos + v->hdr_len, u->offset, &want);
		}
	}
	if (i < 0)
		return 0;
	fail_msg(v, u, u->offset, u->len,
		 "pattern mismatch at offset %llu: expected 0x%02x, received 0x%02x",
		 (unsigned long long)(u->offset + (uint64_t)i), want,
		 ((unsigned char *)u->buf)[i]);
	return EILSEQ;
}

static int check_block(struct verify *v, struct io_u *u, uint64_t want_seq,
		       bool known)
{
	unsigned char *buf = u->buf;
	unsigned char want[VHASH_MAX], have[VHASH_MAX];
	struct verify_hdr g;
	uint32_t pos = 0, c = 0;
	uint64_t seq = want_seq;
	int ret = 0;

	if (v->mode == VERIFY_NULL)
		return 0;
	if (!v->hdr_len) {
		ret = check_pattern(v, u);
		goto out;
	}
	if (u->len < v->min_chunk)
		return 0;
	for (pos = 0; pos < u->len; pos += c) {
		struct vexpect e = {
			.job = v->job, .file = u->file, .seed = v->seed,
			.seq = want_seq, .known = known,
			.any_writer = !v->p->o.verify_header_seed,
			.any_seq = !v->p->o.verify_write_sequence,
		};
		enum vhdr_result r;

		c = chunk_len(v, pos, u->len);
		e.offset = u->offset + pos;
		e.len = c;
		if (v->voff)
			swap_bytes(buf + pos, buf + pos + v->voff, v->hdr_len);
		r = vhdr_check(v->h, v->mode, v->hdr_len, buf + pos, &e, &g,
			       want, have);
		if (r != VH_OK) {
			describe(v, u, r, &e, &g, want, have);
			if (!e.known && r != VH_MAGIC)
				seq = g.seq;
			ret = EILSEQ;
			pos += c;
			goto out;
		}
	}
	if (v->pat)
		ret = check_pattern(v, u);
	pos = u->len;
out:
	if (ret && v->p->o.verify_dump) {
		/* the chunks swapped back so far go back as they were read */
		uint32_t q, cc;

		for (q = 0; v->voff && q < pos; q += cc) {
			cc = chunk_len(v, q, u->len);
			swap_bytes(buf + q, buf + q + v->voff, v->hdr_len);
		}
		dump_block(v, u, buf, seq);
	}
	return ret;
}

/* trim_verify_zero: a trimmed block reads back as zeroes. */
static int check_zero(struct verify *v, struct io_u *u)
{
	const unsigned char *b = u->buf;
	uint32_t i;

	for (i = 0; i < u->len && !b[i]; i++)
		;
	if (i == u->len)
		return 0;
	fail_msg(v, u, u->offset, u->len,
		 "trimmed block not zeroes: received 0x%02x at offset %llu",
		 b[i], (unsigned long long)(u->offset + i));
	return EILSEQ;
}

int verify_checker_run(struct verify *c, struct io_u *u, uint64_t seq,
		       unsigned int kind)
{
	if (kind == VIO_ZERO)
		return check_zero(c, u);
	return check_block(c, u, seq, kind == VIO_CHECK);
}

/* A checker shares v's settings (read only) and has a hash of its own. */
struct verify *verify_checker_new(const struct verify *v)
{
	struct verify *c = xmalloc(sizeof(*c));

	*c = *v;
	c->h = vhash_new(v->mode);
	c->log = NULL;
	c->trim = NULL;
	c->vio = NULL;
	c->replay = NULL;
	c->async = NULL;
	c->msg[0] = 0;
	return c;
}

void verify_checker_free(struct verify *c)
{
	vhash_free(c->h);
	free(c);
}

struct verify_async *verify_async_of(const struct verify *v)
{
	return v ? v->async : NULL;
}

int verify_complete(struct verify *v, struct io_u *u)
{
	struct vio *x = &v->vio[u->index];
	uint8_t kind = x->kind;

	x->kind = VIO_NONE;
	switch (kind) {
	case VIO_WRITE:
		if (v->logging)
			log_push(v, u->file, u->offset, u->len, x->seq);
		return 0;
	case VIO_CHECK:
	case VIO_CHECK_ANY:
	case VIO_ZERO:
		if (unlikely(v->fake))
			return 0;
		/*
		 * a read-back that came back short (0 bytes from /dev/null,
		 * a file cut since) did not read what was written: it fails
		 * (fio fails it too, on the stale buffer)
		 */
		if (unlikely(x->len && u->len != x->len)) {
			fail_msg(v, u, u->offset, x->len,
				 "short read: %u of %u bytes", u->len, x->len);
			return EILSEQ;
		}
		if (v->async) {
			verify_async_submit(v->async, u, x->seq, kind);
			return VERIFY_QUEUED;
		}
		return verify_checker_run(v, u, x->seq, kind);
	default:
		return 0;
	}
}

void verify_fake_io(struct verify *v)
{
	v->fake = true;
}

void verify_failed(struct verify *v, struct io_u *u)
{
	struct vio *x = &v->vio[u->index];

	if (x->kind == VIO_WRITE && x->seq < v->first_failed)
		v->first_failed = x->seq;
	x->kind = VIO_NONE;
}

const char *verify_errmsg(const struct verify *v)
{
	return v->msg;
}

/* ---- setup, state ---- */

char *verify_state_path(const struct job_plan *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (aux_path)
		strbuf_addf(&sb, "%s/", aux_path);
	strbuf_addf(&sb, "local-%s-%u-verify.state", p->o.name ? p->o.name : "",
		    p->job_index);
	return strbuf_detach(&sb);
}

/* The writer's seed: from randseed, whatever randrepeat says. */
static uint64_t verify_seed(const struct job_plan *p)
{
	return prng_derive(p->o.randseed ^ 0x76657269667921ULL, p->job_index);
}

/*
 * Verify trims (fio: trim_percentage of the written blocks, trimmed every
 * trim_backlog): only a job that writes and trims has them (the plan
 * refuses the others); a ring of log positions as long as the log.
 */
static int trim_init(struct verify *v, struct strbuf *err)
{
	const struct job_options *o = &v->p->o;

	if (!o->trim_backlog || !o->trim_percentage || v->only ||
	    !ddir_used(v->p, DDIR_TRIM))
		return 0;
	v->trim_cap = v->cap;
	v->trim = mmap(NULL, v->trim_cap * sizeof(*v->trim),
		       PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (v->trim == MAP_FAILED) {
		v->trim = NULL;
		strbuf_addf(err, "cannot allocate the trim log (%llu blocks): %s",
			    (unsigned long long)v->trim_cap, strerror(errno));
		return -1;
	}
	v->trim_every = o->trim_backlog;
	v->trim_batch = o->trim_backlog_batch ? o->trim_backlog_batch :
			o->trim_backlog;
	v->trim_pct = o->trim_percentage;
	v->trim_zero = o->trim_verify_zero;
	v->trim_rnd = v->seed ^ 0x7472696d5f706374ULL;
	return 0;
}

static int alloc_log(struct verify *v, unsigned int nr_ios,
		     struct strbuf *err)
{
	const struct job_options *o = &v->p->o;
	uint64_t min_bs = v->p->dir_min_bs[DDIR_WRITE];

	if (!min_bs)
		min_bs = v->p->min_bs ? v->p->min_bs : 512;
	if (o->verify_backlog) {
		v->cap = o->verify_backlog + 2ull * nr_ios + 1;
		v->trigger = o->verify_backlog;
	} else {
		v->cap = workload_pass_max(v->wl) / min_bs + v->nr_files +
			 2ull * nr_ios + 2;
		v->trigger = v->cap - nr_ios - 1;
	}
	v->room = v->cap - nr_ios - 1;
	if (o->verify_backlog && o->verify_backlog_batch)
		v->vbatch = o->verify_backlog_batch;
	v->log_bytes = v->cap * sizeof(*v->log);
	/* touched as it fills: a short pass costs little of a long one's */
	v->log = mmap(NULL, v->log_bytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (v->log == MAP_FAILED) {
		v->log = NULL;
		strbuf_addf(err, "cannot allocate the verify log (%llu blocks): %s",
			    (unsigned long long)v->cap, strerror(errno));
		return -1;
	}
	return trim_init(v, err);
}

/* What a block holds: its header, where it sits, the data's pattern */
static void set_block_format(struct verify *v, const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	v->mode = o->verify;
	v->h = vhash_new(v->mode);
	v->hdr_len = verify_hdr_size(v->mode);
	/* fio: by default a header per smallest write block (bsrange) */
	v->interval = (uint32_t)(o->verify_interval ? o->verify_interval :
				 p->dir_min_bs[DDIR_WRITE]);
	v->voff = v->hdr_len ? (uint32_t)o->verify_offset : 0;
	v->min_chunk = v->hdr_len + v->voff;
	v->pat = o->verify_pattern.len ? &o->verify_pattern : NULL;
	/* fio: 100% compressible is zero_buffers, which verify ignores */
	v->rnd_pct = o->buffer_compress_percentage % 100 ?
		     100 - o->buffer_compress_percentage : 100;
	v->seed = verify_seed(p);
	v->job = p->job_index;
}

/* When the job checks: the reads it checks, the final pass, the log */
static void set_checks(struct verify *v, const struct job_plan *p)
{
	const struct job_options *o = &p->o;

	v->writes = ddir_used(p, DDIR_WRITE);
	v->only = o->verify_only;
	v->check_reads = !v->writes && ddir_used(p, DDIR_READ);
	/* fio: do_verify=0 turns the backlog and verify_only's reads off */
	v->final = v->writes && o->do_verify;
	/* fio: time_based jobs are checked by the backlog only */
	if (o->time_based && !o->verify_backlog)
		v->final = false;
	v->logging = v->final || (v->writes && o->do_verify &&
				  o->verify_backlog);
	verify_new_loop(v, o->loops <= 1);
	/*
	 * fio: whenever no random map keeps the blocks apart: a
	 * distribution other than uniform, a blockalign other than the
	 * minimum block size (fin1 job 23: an older 48k write a newer 16k
	 * one overlaps is not read back)
	 */
	v->offset_order = !p->random || o->norandommap ||
			  o->random_generator == RANDGEN_LFSR ||
			  o->random_distribution != RDIST_RANDOM ||
			  p->ba_nomap;
}

/*
 * verify_only with verify_state_load: how many blocks the writing run
 * wrote, from its state file, which must be this job's. 0, or -1 said
 * in err.
 */
static int load_write_count(struct verify *v, const struct job_plan *p,
			    struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct verify_state st;
	char *path = verify_state_path(p);
	int ret = verify_state_load(path, &st, err);

	if (!ret && (strcmp(st.job, o->name ? o->name : "") ||
		     st.index != p->job_index || st.mode != v->mode ||
		     st.seed != v->seed)) {
		strbuf_addf(err, "verify state '%s' was saved by another job or with other options (job '%s', verify=%s)",
			    path, st.job, mode_name(st.mode));
		ret = -1;
	}
	free(path);
	if (ret)
		return -1;
	v->limited = true;
	v->limit = st.writes;
	return 0;
}

int verify_init(struct verify **out, const struct job_plan *p,
		const struct engine_file *files, unsigned int nr_files,
		unsigned int nr_ios, struct workload *wl, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct verify *v;

	*out = NULL;
	if (o->verify == VERIFY_NONE)
		return 0;
	v = xcalloc(1, sizeof(*v));
	v->p = p;
	v->files = files;
	v->nr_files = nr_files;
	v->wl = wl;
	set_block_format(v, p);
	set_checks(v, p);
	/*
	 * experimental_verify keeps no log and ignores verify_backlog, as
	 * fio: the pass is replayed (verify_only has its own replay)
	 */
	if (o->experimental_verify && v->writes && !v->only) {
		v->final = o->do_verify && !o->time_based;
		v->logging = false;
		if (v->final && workload_init(&v->replay, p, files, nr_files,
					      err))
			goto fail;
	}
	v->first_failed = UINT64_MAX;
	v->nr_ios = nr_ios;
	v->vio = xcalloc(nr_ios, sizeof(*v->vio));
	if (v->logging && alloc_log(v, nr_ios, err))
		goto fail;
	if (!v->logging)
		v->trigger = v->room = UINT64_MAX;
	if (verify_async_new(&v->async, v, o->verify_async,
			     o->verify_async_cpus, nr_ios, err))
		goto fail;
	if (v->only && o->verify_state_load && v->writes &&
	    load_write_count(v, p, err))
		goto fail;
	*out = v;
	return 0;
fail:
	verify_free(v);
	return -1;
}

int verify_finish(struct verify *v, struct strbuf *err)
{
	const struct job_options *o = &v->p->o;
	struct verify_state st;
	unsigned int i;
	char *path;
	int ret;

	if (!o->verify_state_save || !v->writes || v->only || !v->next_seq)
		return 0;
	memset(&st, 0, sizeof(st));
	snprintf(st.job, sizeof(st.job), "%s", o->name ? o->name : "");
	st.index = v->p->job_index;
	st.mode = v->mode;
	st.seed = v->seed;
	/*
	 * Every write below this one completed. A write still marked in
	 * its io_u never did: the job stopped (a signal, the runtime)
	 * after it was drawn and before it was issued, as a paced job
	 * does while it waits for its turn.
	 */
	for (i = 0; i < v->nr_ios; i++)
		if (v->vio[i].kind == VIO_WRITE &&
		    v->vio[i].seq < v->first_failed)
			v->first_failed = v->vio[i].seq;
	st.writes = v->first_failed < v->next_seq ? v->first_failed :
		    v->next_seq;
	path = verify_state_path(v->p);
	ret = verify_state_save(path, &st, err);
	free(path);
	/* saving is fio's default: a place it cannot write is no failure */
	if (ret && !opt_is_set(o, "verify_state_save")) {
		strbuf_reset(err);
		ret = 0;
	}
	return ret;
}

void verify_free(struct verify *v)
{
	if (!v)
		return;
	verify_async_free(v->async);
	if (v->log)
		munmap(v->log, v->log_bytes);
	if (v->trim)
		munmap(v->trim, v->trim_cap * sizeof(*v->trim));
	vhash_free(v->h);
	workload_free(v->replay);
	free(v->vio);
	free(v);
}
