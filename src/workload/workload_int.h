/* SPDX-License-Identifier: MIT */
/*
 * The workload's own state, shared by workload.c (the next() functions,
 * passes, files in use: everything per I/O) and workload_init.c (what
 * workload_init() works out once: seeds, block sizes, the random mode,
 * the files' regions and random state, zones, file service). Private to
 * those two files.
 */
#ifndef IOLITE_WORKLOAD_WORKLOAD_INT_H
#define IOLITE_WORKLOAD_WORKLOAD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/prng.h"
#include "util/strbuf.h"
#include "workload/blkmap.h"
#include "workload/dist.h"
#include "workload/fsrv.h"
#include "workload/randmap.h"
#include "workload/sprandom.h"
#include "workload/workload.h"

#define NO_BLOCK UINT64_MAX
#define SPLIT_SLOTS 100
#define ZONE_SLOTS 100
/* skewed file picks tried before taking the next file in use */
#define SKEW_TRIES 64

enum wl_bs_kind { BS_FIXED, BS_RANGE, BS_SPLIT };

/* Block sizes of one direction. */
struct wl_bs {
	enum wl_bs_kind kind;
	uint32_t min, max;
	uint32_t nmult;			/* range: min * (1 .. nmult) */
	bool ragged;			/* range: max not a multiple of min */
	bool unaligned;			/* range: bs_unaligned, any size */
	uint32_t nsplit;		/* split: slots used (percents) */
	uint32_t split[SPLIT_SLOTS];	/* split: the size of each percent */
};

enum wl_rand_mode {
	RM_MAP, RM_BITMAP, RM_LFSR, RM_DIST, RM_ZONED, RM_UNIFORM32,
	RM_UNIFORM64, RM_SEGS,
};

/* active_segments (segments.c): n segments of len positions each */
struct wl_segs {
	uint64_t n, len, total;		/* total: n x len */
	uint64_t first[];		/* each one's first position */
};

/* One zone of random_distribution=zoned, in blocks of the window. */
struct wl_zone {
	uint64_t first, n;
};

/* The zone table of one window: a slot per percent of the accesses. */
struct wl_zoned {
	unsigned int nslots;
	uint16_t slot[ZONE_SLOTS];	/* index into z[] */
	unsigned int nz;
	struct wl_zone z[];
};

/* Random state of one file for one block grid (shared by directions). */
struct wl_rand {
	uint64_t nblk;			/* valid random positions */
	struct randmap map;		/* RM_MAP: the map */
	struct blkmap bm;		/* RM_BITMAP: the blocks done */
	struct blkmap *bmp;		/* the map used: bm, or the file's xbm */
	struct prng_lfsr lfsr;
	uint64_t lfsr_left;		/* LFSR outputs left in this cycle */
	struct dist dist;
	uint64_t dist_off;		/* RM_DIST: the centre's rotation */
	uint64_t dist_n;		/* RM_DIST: ranges drawn (>= nblk) */
	struct wl_zoned *zt;		/* RM_ZONED, owned */
	enum ddir zdir;			/* RM_ZONED, RM_SEGS: whose */
	struct wl_segs *segs;		/* RM_SEGS, owned */
};

/*
 * Offsets inside a file are relative to its region start. I/O goes to
 * the window [wlo, whi): the whole region, or with strided zones from
 * the current zone's start to the region end (random offsets are drawn
 * in the zone, a block may run past its end).
 */
struct wl_file {
	uint64_t start, size;		/* region */
	uint64_t start2;		/* where later sweeps start (fio) */
	uint64_t real;			/* end of the target (absolute) */
	uint64_t wlo, whi;		/* window */
	uint64_t pos[DDIR_RWDIR_CNT];	/* end of the last I/O */
	uint64_t last[DDIR_RWDIR_CNT];	/* last offset (identical) */
	struct wl_rand rnd[DDIR_RWDIR_CNT];
	struct wl_rand *rp[DDIR_RWDIR_CNT]; /* the state a direction uses */
	struct blkmap xbm;		/* xmap: the directions' one map */
	unsigned int slot;		/* openfiles: slot in act[] */
	bool done;
	bool fresh;			/* this pass started it over */
	bool open;			/* in use (openfiles) */
	bool later;			/* a first sweep is over: start2 */
};

/* openfiles: what the worker must do before the next I/O. */
struct wl_event {
	unsigned int file;
	bool open;
};

struct workload {
	int (*next)(struct workload *w, struct io_u *u);	/* first: workload.h */
	struct iolog_replay *replay;	/* read_iolog: the log is the source */
	struct spr *spr;		/* sprandom: the source (sprandom.c) */

	/* fast paths: one file, one direction, one block size */
	uint64_t ios_left;	/* I/Os left in this pass */
	uint64_t ios_pass;	/* I/Os per pass */
	bool runs_out;		/* the file ends before the budget (ragged) */
	uint64_t start, size, pos;
	uint64_t unit;		/* random alignment */
	uint64_t nblk;		/* random positions */
	uint32_t bsz;
	uint8_t ddir;
	struct randmap *map0;
	struct blkmap *bm0;
	struct prng_lfsr *lfsr0;

	/* general path */
	uint64_t budget;	/* bytes per pass */
	uint64_t bytes_left;
	/*
	 * number_ios x loops, or UINT64_MAX: fio counts number_ios over the
	 * job, as loops times as many (nios_left is not filled again)
	 */
	uint64_t nios_job;
	uint64_t nios_left;
	bool wrap;		/* io_size beyond the regions: start over */
	/*
	 * io_size with loops, or beyond the regions (not time_based): fio
	 * 3.33's passes. Loop k ends when the job's bytes (cum, over the
	 * loops) reach k x io_size or its files are used up; only the last
	 * loop starts used-up files over, while the job is short of io_size
	 * by at least the largest block (max_bs).
	 */
	bool io_loops;
	/*
	 * io_size in a job that verifies (not time_based, not
	 * experimental_verify): no pass starts used-up files over, and the
	 * job's bytes (cum) end its passes at loops x io_size (fio)
	 */
	bool vcap;
	uint64_t vpass;		/* vcap: the most a pass writes */
	/*
	 * loops without io_size (not time_based, ramp_time), as fio 3.33
	 * runs them: the job's bytes (cum) end its loops at loops x budget,
	 * so a loop goes on past the budget until its files are used up,
	 * and each loop starts every file over (and replays the first's
	 * draws). With a queueing engine (loop_queued) a loop also ends at
	 * budget bytes of its own: fio counts the bytes it queued.
	 */
	bool plain_loops;
	bool loop_queued;
	bool restarts;		/* a later pass starts used-up files over */
	/*
	 * time_based random offsets: a file whose map or sequence is used
	 * up starts over at once (fio resets it and drops its cache), and
	 * dropped names it for the worker (workload_take_dropped())
	 */
	bool tb_random;
	/*
	 * the file's last draw ended it rather than used it up (a block
	 * of another direction's units past this one's last, an LFSR
	 * output that does not fit): fio does not start such a file over
	 * in place, even time_based; it is done until the next pass
	 */
	bool drew_past;
	/*
	 * tb_random with randrepeat and no randseed: a pass that ends with
	 * every file ended that way is a new loop in fio, which replays
	 * the first loop's draws (bs=4k,8k nrfiles=2: 29 and 78 I/Os,
	 * again and again)
	 */
	bool tb_replays;
	unsigned int dropped;
	/*
	 * the last workload_next() started used-up files over (io_size
	 * beyond the regions), where fio's loop ends and another begins:
	 * for the worker (workload_take_wrap())
	 */
	bool wrapped;
	unsigned int loop_k, loops;
	uint64_t cum, io_size, max_bs;
	bool random;
	bool mixed;		/* rwmixread picks the direction */
	int8_t want_ddir;	/* run/pace.c's pick for mixed jobs, or -1 */
	/* zonemode=zbd: a read drawn becomes a write when this says no */
	bool (*read_ok)(void *arg);
	void *read_ok_arg;
	bool trimwrite;		/* every block trimmed, then written */
	unsigned int nrange;	/* ranges per trim (num_range: ranges.c) */
	bool pending;		/* the write half of a trimwrite pair */
	uint32_t pending_len, pending_file;
	uint64_t pending_off;
	/*
	 * Sequential trimwrite with write bs != trim bs, as fio: writes
	 * (write bs, their own sequence from the first trim) follow a trim
	 * until one starts where the last trim started; then the next trim.
	 */
	bool tw_seq;
	uint32_t tw_file;
	uint64_t tw_wpos, tw_lastw;
	uint64_t mix_thresh;	/* read when a 32-bit draw is below this */
	/*
	 * fio's rule for when a mixed job draws: only while the direction
	 * it is on has issued at least mix_issues I/Os (mix_n: the job's,
	 * by direction, never reset); a draw that changes direction sets
	 * mix_issues to the old direction's count x the new one's share
	 */
	uint64_t mix_n[2], mix_issues;
	uint8_t mix_dir, mix_pct[2];
	uint32_t split_slot;	/* bssplit: the slot last drawn */
	int64_t add;		/* sequential: rw=write:4k, rw=read:-8k */
	unsigned int seq_nr;	/* random: I/Os per new random offset */
	unsigned int seq_left;
	bool identical;		/* rw_sequencer=identical */
	bool perc_on;		/* percentage_random below 100 somewhere */
	uint64_t perc_thresh[DDIR_RWDIR_CNT];	/* random when below */
	enum wl_rand_mode rmode;
	/*
	 * fio 3.33's random map when the directions' block sizes differ
	 * (bs=8k,512): one bitmap per file, in units of the smallest
	 * block, that each direction reads and marks in units of its own
	 * (read block 3 is bit 3, so is write block 3); a direction whose
	 * next free block lies past the region ends the file.
	 */
	bool xmap;
	/*
	 * fio's lfsr in the same case: one LFSR per file over the region
	 * in units of the smallest block, its outputs shared by the
	 * directions, each placing one in its own units; one whose block
	 * does not fit ends the file.
	 */
	bool xlfsr;
	uint64_t xunit;		/* xmap, xlfsr: the smallest block */
	uint64_t dunit;		/* a distribution's range: dist_ranges() */
	unsigned int dmask;	/* directions used: 1 << DDIR_READ ... */
	uint64_t align[DDIR_RWDIR_CNT];
	struct wl_bs bs[DDIR_RWDIR_CNT];
	/* bs_is_seq_rand: a random job's sequential I/Os' sizes */
	bool seq_sizes;
	struct wl_bs bs_seq;
	const struct job_options *o;	/* the plan's, for zone tables */

	/*
	 * strided zones; zone_bytes is the job's, not a file's (fio's
	 * count): whichever file takes the I/O after zsize bytes moves on
	 */
	bool zones;
	bool zbd;			/* zonemode=zbd: the general path */
	uint64_t zrange, zsize, zskip;
	uint64_t zone_bytes;	/* issued since the last zone change */

	/* files and file service */
	unsigned int nr_files, nr_done;
	struct wl_file *files;
	enum file_service fsrv;
	unsigned int fs_nr;		/* I/Os per turn */
	unsigned int fs_left;		/* I/Os left in this turn */
	unsigned int *act;		/* files in use, by slot */
	unsigned int nact, cur_slot;
	unsigned int max_open;		/* openfiles, or nr_files */
	bool limited;			/* max_open < nr_files */
	unsigned int next_unused;	/* openfiles: next file to bring in */
	struct fsrv_skew fskew;		/* zipf, pareto, normal over files */
	bool skewed;			/* one of those: files never end */
	bool skew_redraw;		/* a used-up file: draw anew (fio) */
	struct wl_event *ev;		/* ring of events for the worker */
	unsigned int ev_head, ev_nr, ev_cap;

	struct prng_taus r_off, r_ddir, r_file, r_zone;
	/*
	 * percentage_random's choice: fio's streams, one per direction,
	 * all three seeded alike (a struct, so the replay copies it)
	 */
	struct wl_seq_streams {
		struct prng_taus t[DDIR_RWDIR_CNT];
	} r_seq;
	struct prng_taus64 r_off64, r_dist, r_file64;
	uint64_t key_state;	/* map keys: one splitmix64 stream */
	/*
	 * Block sizes: fio's streams, one per direction seeded as fio
	 * seeds them (so trimwrite's trims and writes, and a mixed job's
	 * reads and writes, get fio's sizes), 64-bit with tausworthe64
	 */
	struct wl_bs_streams {
		struct prng_taus t[DDIR_RWDIR_CNT];
		struct prng_taus64 t64[DDIR_RWDIR_CNT];
	} r_bs;
	bool bs64;
	uint64_t bs_r;		/* the last size draw (bssplit's fit) */

	/*
	 * fio 3.33 (randrepeat, no randseed, not time_based): a pass that
	 * starts after the files were used up draws what the first pass
	 * drew (offsets, sizes, directions, file picks, map keys): the
	 * streams as they were when the first pass began.
	 */
	bool replays;
	struct wl_streams {
		struct prng_taus r_off, r_ddir, r_file, r_zone;
		struct wl_seq_streams r_seq;
		struct wl_bs_streams r_bs;
		struct prng_taus64 r_off64, r_dist, r_file64;
		uint64_t key_state;
	} first;
};

static inline uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

static inline uint64_t next_key(struct workload *w)
{
	return prng_splitmix64(&w->key_state);
}

/* workload_init.c */
__attribute__((format(printf, 3, 4)))
int wl_fail(const struct job_plan *p, struct strbuf *err, const char *fmt,
	    ...);
int wl_bs_seq_init(struct wl_bs *b, const struct job_plan *p,
		       struct strbuf *err);
int wl_bs_init(struct wl_bs *b, const struct job_plan *p, enum ddir d,
	       struct strbuf *err);
void wl_seed_streams(struct workload *w, const struct job_plan *p);
enum wl_rand_mode wl_rand_mode(const struct workload *w,
			       const struct job_plan *p);
/* the files' random state and the files (workload_free()) */
void wl_files_free(struct workload *w);
int wl_files_init(struct workload *w, const struct job_plan *p,
		  const struct engine_file *files, struct strbuf *err);
int wl_zones_init(struct workload *w, const struct job_plan *p,
		  struct strbuf *err);
void wl_fsrv_init(struct workload *w, const struct job_plan *p);

/* workload.c */
int wl_next_general(struct workload *w, struct io_u *u);
/*
 * ranges.c's share of workload.c: another range of a trim of several in
 * file fi (0, or -1: the file has none left), the file used up, the I/O
 * drawn into u and the pass's counts
 */
int wl_range_next(struct workload *w, unsigned int fi, uint32_t *len,
		  uint64_t *off);
void wl_file_done(struct workload *w, unsigned int fi);
void wl_issue(struct workload *w, struct io_u *u, unsigned int fi,
	      uint64_t off, uint32_t len, enum ddir d);
/* ranges.c: num_range's trim of several ranges, its first drawn */
int wl_next_ranges(struct workload *w, struct io_u *u, unsigned int fi,
		   uint64_t off, uint32_t len);
/* the next I/O's direction: rwmixread's draw in a mixed job (fio's) */
enum ddir wl_pick_ddir(struct workload *w);
void wl_replay_first_pass(struct workload *w);
/* f starts over from its beginning: a fresh sweep */
void wl_file_reset(struct workload *w, struct wl_file *f);
/*
 * fileserve.c: the file for the next I/O (only while some file is not
 * done; wl_file_done() above retires one), openfiles' slots at a pass's
 * start, a skewed service's used-up file started over
 */
unsigned int wl_pick_file(struct workload *w);
void wl_act_refill(struct workload *w);
void wl_skew_restart(struct workload *w, unsigned int fi);
void wl_streams_save(struct workload *w);
void wl_pass_start(struct workload *w, bool first);
uint64_t wl_seq_fit(const struct workload *w, const struct wl_file *f,
		    enum ddir d);
int wl_rand_setup(struct workload *w, struct wl_rand *q, uint64_t nblk,
		  uint64_t wsize, uint64_t align);
uint64_t wl_rand_blocks(const struct workload *w, enum ddir d,
			uint64_t wsize);
uint64_t wl_window_blocks(const struct workload *w, enum ddir d,
			  uint64_t wsize);
uint64_t wl_zone_blocks(const struct workload *w, enum ddir d);

/*
 * sprandom.c: sprandom's next() over the job's one file, its checks
 * before anything is created (workload_check()), whether its one pass is
 * over
 */
int wl_spr_check(const struct job_plan *p, const struct engine_file *files,
		 unsigned int nr_files, struct strbuf *err);
int wl_spr_init(struct workload *w, const struct job_plan *p,
		struct strbuf *err);
bool wl_spr_done(const struct workload *w);
void wl_spr_free(struct workload *w);

/* fast.c: a fast path for w->next where the job allows one */
void wl_pick_fast_path(struct workload *w);
/* whether next() is the fast path of uniform draws without a map */
bool wl_fast_nomap(const struct workload *w);

/*
 * segments.c: active_segments. fit: n segments of size apart in region
 * bytes; build: q's segments over a window of wsize bytes (q->zdir's
 * block sizes, positions of align), -ERANGE when they do not fit; check:
 * every file's region has room (workload_check()).
 */
bool wl_segs_fit(uint64_t region, uint64_t n, uint64_t size);
/* a random position in g's segments: one draw over them all */
static inline uint64_t wl_segs_block(struct workload *w,
				     const struct wl_segs *g)
{
	uint64_t b = prng_scale64(prng_taus64_next(&w->r_off64), g->total);

	return g->first[b / g->len] + b % g->len;
}
int wl_segs_build(struct workload *w, struct wl_rand *q, uint64_t wsize,
		  uint64_t align);
int wl_segs_check(const struct job_plan *p, const struct engine_file *files,
		  unsigned int nr_files, struct strbuf *err);

/* zoned.c: the zone table of q over a window of wsize bytes */
void zoned_build(struct workload *w, struct wl_rand *q, uint64_t wsize,
		 uint64_t align);

#endif
