/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PTS_PTS_INT_H
#define IOLITE_PTS_PTS_INT_H

/* What pts's files share (pts/pts.h has the contract). */

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pts/pts.h"
#include "pts/steady.h"
#include "util/notes.h"
#include "util/strbuf.h"

/* The IOPS test's matrix: the spec's orders */
#define PTS_NR_MIX 7
#define PTS_NR_BS 8
extern const unsigned int pts_mix_read[PTS_NR_MIX];	/* read % */
extern const unsigned int pts_bs[PTS_NR_BS];		/* bytes */
extern const char *const pts_bs_name[PTS_NR_BS];
#define PTS_MIX_R100 0		/* 100/0 */
#define PTS_MIX_6535 2		/* 65/35 */
#define PTS_MIX_W100 6		/* 0/100: every test's tracked mix */
#define PTS_BS_1M 0
#define PTS_BS_128K 1
#define PTS_BS_8K 5
#define PTS_BS_4K 6		/* 4 KiB: the IOPS and latency tests' */
#define PTS_BS_512 7

enum pts_test { PTS_IOPS, PTS_TP, PTS_LAT, PTS_WSAT, PTS_HIR, PTS_XSR,
		PTS_DIRTH };
/* WSAT and XSR: runs from the purged device, no test loop */
#define PTS_NO_LOOP(t) ((t) == PTS_WSAT || (t) == PTS_XSR)
/*
 * ... and with HIR, the tests without the workload-independent
 * preconditioning: each starts from the purged device (doc/pts.md)
 */
#define PTS_NO_WIPC(t) (PTS_NO_LOOP(t) || (t) == PTS_HIR)
/* HIR's rounds: 30 intervals of 4k random writes, the last measured */
#define PTS_HIR_ROUND_INTERVALS 30
enum pts_precond { PRECOND_SPEC, PRECOND_SPRANDOM, PRECOND_NONE };
/* --purge: the methods pts may try (bits), in its order */
#define PURGE_FORMAT 1u
#define PURGE_SANITIZE 2u
#define PURGE_ERASE 4u		/* ATA Secure Erase */
#define PURGE_DISCARD 8u
#define PURGE_AUTO 15u
/* A cell's figures; the first three are what a loop may track */
enum pts_metric { MET_IOPS, MET_BW, MET_LAT, MET_LAT_MAX, MET_LAT_P5N };

struct pts_cfg {
	enum pts_test test;
	const char *test_name;
	const char *target;
	bool client;		/* --variant=client */
	uint64_t round_ms;	/* one matrix cell (the spec: 60 s) */
	unsigned int max_rounds;
	uint64_t cap_limit;	/* bytes; 0: the whole device */
	enum pts_precond precond;
	bool precond_given;	/* --precondition= on the command line */
	unsigned int purge;	/* PURGE_* bits; 0: none */
	bool destroy;		/* --destroy-data */
	bool allow_mounted;	/* --allow-mounted-write */
	const char *output;	/* the text or JSON report; NULL: stdout */
	bool json;
	const char *html;	/* the page; NULL: none */
	const char *engine;
	unsigned int mix_mask, bs_mask;	/* --mix, --bs (0: the test's) */
	unsigned int threads, qd;	/* the variant's */
	unsigned int range_pct;	/* active range: 100 or 75 */
	uint64_t wsat_ms;	/* WSAT: the run's length */
	unsigned int hir_cycles;	/* HIR: access + wait pairs (360) */
	uint64_t xsr_ms;	/* XSR: the first access group's time (8 h) */
	unsigned int max_threads;	/* DIRTH: --max-threads (32) */
};

struct pts_dev {
	bool blockdev;
	uint64_t size;		/* bytes */
	unsigned int lbs;	/* logical block size */
	char name[64];		/* the kernel's name ("zram1") */
	char model[128], firmware[64], serial[64];
	char cache[32];		/* queue/write_cache: "write back" ... */
	char temp_path[256];	/* an hwmon temp*_input, or "" */
	bool nvme;		/* an NVMe namespace's block device */
	int cache_was;		/* its write cache before: 0, 1; -1 unknown */
	bool cache_set;		/* switched as the variant asks */
	char cache_how[256];	/* what switching it did or why not */
	char cache_type[320];	/* a SCSI disk's scsi_disk/../cache_type */
	char cache_orig[32];	/* its value before: put back after */
	int guard;		/* the guard's pipe (cache.c), or -1 */
	int guard_pid;
};

/* One setting the spec asks for: what was asked, what ran. */
struct pts_setting {
	const char *name;
	char want[64], used[256];
	bool honoured;
};

#define PTS_MAX_SETTINGS 12
/* PTS-C: the ActiveRange Amount, in 2048 segments */
#define PTS_SEGS 2048
#define PTS_SEG_AMOUNT (8ull << 30)
#define PTS_MAX_ROUNDS 100
#define PTS_WSAT_MAX 4096
#define PTS_MAX_LOOPS 2

/*
 * Host idle recovery: after the 4k random write loop's steady state,
 * per wait state W (1, 2, 3, 5, 10) cycles of an access period A of 4k
 * random writes and an idle W x A, then the return to baseline: cycles
 * x A of continuous writes. Its IOPS over time are the WSAT arrays'.
 */
#define PTS_HIR_NR 5
extern const unsigned int pts_hir_wait[PTS_HIR_NR];
struct pts_hir {
	unsigned int wait;	/* the wait state: W */
	uint64_t ios, ms;	/* the access periods' run: I/Os, its time */
	double access_iops;	/* its mean IOPS over the access periods */
	double base_iops;	/* the return to baseline's IOPS */
	double t_start;		/* ms since the first wait state began */
	bool base_done;
};

/*
 * Cross-stimulus recovery: three access groups one after another from
 * the purged device, their throughput sampled each interval (the
 * samples' times are wsat_t's, their bytes/s xsr_bw).
 */
#define PTS_XSR_NR 3
struct pts_xsr {
	const char *name;	/* "128k sequential write" */
	uint64_t ms;		/* its time: 8 h, 6 h, 6 h */
	double t_start;		/* ms since the first group began */
	double bw;		/* bytes/s over the run */
	unsigned int first, nr;	/* its samples */
	bool done;
};

/* One cell of a round: iops < 0 when it did not run. */
struct pts_cell {
	double iops;
	double bw;		/* bytes/s */
	double lat_mean, lat_max, lat_p5n;	/* ns; p5n: 99.999% */
};

/*
 * DIRTH (dirth.c): per round the thread count x queue depth matrix of
 * 4k random 65:35 cells, tracking TC32/QD32's IOPS; then at the maximum,
 * middle and minimum IOPS points of the window's matrix a longer run
 * with its response-time histogram (power-of-two bins of ns).
 */
#define PTS_DIRTH_NR 6		/* 1 2 4 8 16 32 */
#define PTS_DIRTH_PTS 3		/* max, mid, min */
#define PTS_DIRTH_BINS 40	/* [2^k, 2^(k+1)) ns; the last: beyond */
#define PTS_DIRTH_CEIL_NS 5000000.0	/* the response-time ceiling */
#define PTS_DIRTH_HIST_ROUNDS 10	/* a point's run: 10 round times */
extern const unsigned int pts_dirth_n[PTS_DIRTH_NR];
struct pts_dirth_pt {
	const char *name;	/* "maximum IOPS", "middle IOPS", ... */
	unsigned int tc, qd;	/* indexes into pts_dirth_n */
	struct pts_cell c;	/* the point's own run */
	uint64_t ios, ms;
	uint64_t bin[PTS_DIRTH_BINS];
	bool done;
};

/*
 * One test loop: its matrix, what it tracks, its rounds and its window.
 * The IOPS and latency tests have one; the throughput test one per
 * block size (1024k, then 128k), each from its own purge and
 * preconditioning, as the spec runs them.
 */
struct pts_loop {
	const char *name;
	unsigned int mix_mask, bs_mask;
	unsigned int track_mix, track_bs;
	enum pts_metric metric;
	bool seq;
	unsigned int qd, threads;
	char purge[512];	/* what the purge did */
	bool purged;
	bool spec_purge;	/* a format, sanitize or secure erase */
	const char *method;	/* "NVMe Format", ..., "BLKDISCARD", "none" */
	char precond[320];
	uint64_t precond_bytes, precond_ms;
	struct pts_cell (*cell)[PTS_NR_MIX][PTS_NR_BS];	/* per round */
	double track[PTS_MAX_ROUNDS];
	double temp[PTS_MAX_ROUNDS];	/* deg C, NAN: unknown */
	unsigned int nr_rounds;
	struct pts_ss ss;
	bool have_ss;
	struct pts_cell avg[PTS_NR_MIX][PTS_NR_BS];	/* over the window */
	bool dirth;		/* DIRTH's loop: its cells are r->dcell's */
	unsigned int dirth_tc;	/* DIRTH: the tracked thread count */
};

struct pts_run {
	struct pts_cfg cfg;
	struct pts_dev dev;
	uint64_t cap;		/* the capacity tested (--capacity-limit) */
	uint64_t range;		/* active range's bytes */
	/*
	 * The client's ActiveRange segmentation: its random jobs' offsets
	 * in seg_n segments of seg_size bytes over the range (the job
	 * option active_segments); seg_n 0: none (enterprise)
	 */
	unsigned int seg_n;
	uint64_t seg_size;
	struct pts_setting set[PTS_MAX_SETTINGS];
	unsigned int nr_set;
	struct notes scaled;	/* why this is not a PTS result */
	struct notes notes;	/* the runs' notes, pts's own */
	unsigned int later_notes;	/* rounds after the first: a count */
	struct pts_loop loop[PTS_MAX_LOOPS];
	unsigned int nr_loops;
	/* WSAT: IOPS per interval and the bytes written by its end */
	double wsat_t[PTS_WSAT_MAX];	/* ms, the interval's end */
	double wsat_iops[PTS_WSAT_MAX], wsat_tgbw[PTS_WSAT_MAX];
	unsigned int nr_wsat;
	uint64_t wsat_interval_ms;
	/* HIR */
	struct pts_hir hir[PTS_HIR_NR];
	unsigned int nr_hir;
	uint64_t hir_access_ms;	/* A: 5 s at the spec's 60 s rounds */
	double hir_clock;	/* ms of HIR (XSR) runs so far: samples' t */
	/* XSR */
	struct pts_xsr xsr[PTS_XSR_NR];
	unsigned int nr_xsr;
	double xsr_bw[PTS_WSAT_MAX];
	/* DIRTH: per round, then over the window; cells iops < 0: none */
	struct pts_cell (*dcell)[PTS_DIRTH_NR][PTS_DIRTH_NR];
	struct pts_cell davg[PTS_DIRTH_NR][PTS_DIRTH_NR];
	unsigned int dirth_nr_tc;	/* thread counts run (--max-threads) */
	struct pts_dirth_pt dpt[PTS_DIRTH_PTS];
	unsigned int nr_dpt;
	bool interrupted;
	char when[64];		/* the start, UTC */
};

/* A cell's figure m in the reports' units (IOPS, MB/s, ms) */
double pts_cell_val(const struct pts_cell *c, enum pts_metric m);
/* "IOPS", "MB/s", "ms" */
const char *pts_metric_unit(enum pts_metric m);
/* What the loop tracks: "4k random 100% write IOPS" */
void pts_track_name(const struct pts_loop *l, char *buf, size_t len);

/*
 * SIGINT or SIGTERM between runs (pts.c's handler; during a run the
 * runner's handlers stop the run and put pts's back after): the signal.
 */
extern volatile sig_atomic_t pts_stop;

/* device.c */
int pts_dev_open(struct pts_run *r, struct strbuf *err);
int pts_dev_safety(struct pts_run *r, struct strbuf *err);
void pts_purge(struct pts_run *r, struct pts_loop *l);
double pts_temp(const struct pts_run *r);

/*
 * cache.c: the variant's write cache, after each loop's purge (an NVMe
 * namespace's, a SCSI disk's); put back at the end, and by a guard
 * process when pts dies first. probe: the SCSI disk's attribute.
 */
void pts_cache_probe(struct pts_dev *d);
void pts_cache_apply(struct pts_run *r);
void pts_cache_restore(struct pts_run *r);

/*
 * nvme.c: Format NVM with a user data erase on the namespace open at fd:
 * 0 done, 1 not an NVMe namespace, -1 refused or failed (how says
 * which, as it says what was done); the composite temperature (deg C,
 * NAN when none).
 */
int pts_nvme_format(int fd, const char *path, char *how, size_t len);
/*
 * Sanitize (block erase, else crypto erase) of a controller whose one
 * namespace is the target, waited for: 0 done, -1 with how.
 */
int pts_nvme_sanitize(int fd, char *how, size_t len);
/*
 * ata.c: ATA Secure Erase through SG_IO's ATA PASS-THROUGH: 0 done, 1
 * not an ATA drive, -1 refused or failed (how says which, or what was
 * done); never leaves a password set.
 */
int pts_ata_erase(int fd, char *how, size_t len);
double pts_nvme_temp(int fd);
/*
 * The volatile write cache on (1) or off (0), read back: returns its
 * state before (0 or 1), 2 when the controller has none (off asked: so
 * it is), or -1 with the reason in how.
 */
int pts_nvme_cache(int fd, int on, char *how, size_t len);

/* round.c: the phases as iolite runs */
int pts_precondition(struct pts_run *r, struct pts_loop *l, pts_run_fn run,
		     struct strbuf *err);
int pts_round(struct pts_run *r, struct pts_loop *l, pts_run_fn run,
	      unsigned int round, struct strbuf *err);
int pts_wsat(struct pts_run *r, pts_run_fn run, struct strbuf *err);
int pts_check_jobs(struct pts_run *r, pts_run_fn run, struct strbuf *err);
/* HIR's wait states after the loop's steady state (round.c's runs) */
int pts_hir(struct pts_run *r, pts_run_fn run, struct strbuf *err);
/* XSR's three access groups (round.c's runs) */
int pts_xsr(struct pts_run *r, pts_run_fn run, struct strbuf *err);

/*
 * hir.c: a wait state's mean IOPS over its access periods: ios I/Os in
 * a run of ms that was busy access_ms of every access_ms + wait_ms.
 */
double pts_hir_access_iops(uint64_t ios, uint64_t ms, uint64_t access_ms,
			   uint64_t wait_ms);
void pts_hir_text(const struct pts_run *r, FILE *f);
struct json_writer;
struct hist;
void pts_hir_json(const struct pts_run *r, struct json_writer *w);
void pts_hir_html(const struct pts_run *r, struct strbuf *sb);
/* xsr.c: bytes/s over the last fifth of nr samples; the reports */
double pts_xsr_settled(const double *bw, unsigned int nr);
void pts_xsr_text(const struct pts_run *r, FILE *f);
void pts_xsr_json(const struct pts_run *r, struct json_writer *w);
void pts_xsr_html(const struct pts_run *r, struct strbuf *sb);

/* dirth.c: the window's matrix, its points, the reports' sections */
void pts_dirth_avg(struct pts_run *r, const struct pts_loop *l);
void pts_dirth_points(struct pts_run *r);
void pts_dirth_bins(uint64_t *bin, const struct hist *h);
void pts_dirth_text(const struct pts_run *r, FILE *f);
void pts_dirth_json(const struct pts_run *r, struct json_writer *w);
void pts_dirth_html(const struct pts_run *r, struct strbuf *sb);
/* round.c: DIRTH's point runs after the loop's steady state */
int pts_dirth_runs(struct pts_run *r, pts_run_fn run, struct strbuf *err);

/* report.c, html.c */
int pts_report_text(const struct pts_run *r, FILE *f);
int pts_report_json(const struct pts_run *r, FILE *f);
int pts_report_html(const struct pts_run *r, FILE *f);
void pts_window_avg(struct pts_loop *l);
/* the window's first round (from 1): the judged one, or the last five */
unsigned int pts_window_first(const struct pts_loop *l);
/* a cell's average: c added to a unless it did not run; n: how many */
void pts_avg_add(struct pts_cell *a, const struct pts_cell *c,
		 unsigned int *n);
void pts_avg_end(struct pts_cell *a, unsigned int n);

#endif
