/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PTS_PTS_INT_H
#define IOLITE_PTS_PTS_INT_H

/* What pts's files share (pts/pts.h has the contract). */

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
#define PTS_MIX_W100 6		/* 0/100: the tracked mix */
#define PTS_BS_4K 6		/* 4 KiB: the tracked size */

enum pts_test { PTS_IOPS, PTS_WSAT };
enum pts_precond { PRECOND_SPEC, PRECOND_SPRANDOM, PRECOND_NONE };

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
	bool destroy;		/* --destroy-data */
	bool allow_mounted;	/* --allow-mounted-write */
	const char *output;	/* the text or JSON report; NULL: stdout */
	bool json;
	const char *html;	/* the page; NULL: none */
	const char *engine;
	unsigned int mix_mask, bs_mask;	/* cells run (bit per index) */
	unsigned int threads, qd;
	unsigned int range_pct;	/* active range: 100 or 75 */
	uint64_t wsat_ms;	/* WSAT: the run's length */
};

struct pts_dev {
	bool blockdev;
	uint64_t size;		/* bytes */
	unsigned int lbs;	/* logical block size */
	char name[64];		/* the kernel's name ("zram1") */
	char model[128], firmware[64], serial[64];
	char cache[32];		/* queue/write_cache: "write back" ... */
	char temp_path[256];	/* an hwmon temp*_input, or "" */
};

/* One setting the spec asks for: what was asked, what ran. */
struct pts_setting {
	const char *name;
	char want[64], used[96];
	bool honoured;
};

#define PTS_MAX_SETTINGS 12
#define PTS_MAX_ROUNDS 100
#define PTS_WSAT_MAX 4096

struct pts_run {
	struct pts_cfg cfg;
	struct pts_dev dev;
	uint64_t cap;		/* the capacity tested (--capacity-limit) */
	uint64_t range;		/* active range's bytes */
	char purge[256];	/* what the purge did */
	bool purged;
	char precond[256];
	uint64_t precond_bytes, precond_ms;
	struct pts_setting set[PTS_MAX_SETTINGS];
	unsigned int nr_set;
	struct notes scaled;	/* why this is not a PTS result */
	struct notes notes;	/* the runs' notes, pts's own */
	unsigned int later_notes;	/* rounds after the first: a count */
	/* the IOPS loop: [round][mix][bs], -1: not run */
	double (*iops)[PTS_NR_MIX][PTS_NR_BS];
	double track[PTS_MAX_ROUNDS];
	double temp[PTS_MAX_ROUNDS];	/* deg C, NAN: unknown */
	unsigned int nr_rounds;
	struct pts_ss ss;
	bool have_ss;
	double avg[PTS_NR_MIX][PTS_NR_BS];	/* over the window */
	/* WSAT: IOPS per interval and the bytes written by its end */
	double wsat_t[PTS_WSAT_MAX];	/* ms, the interval's end */
	double wsat_iops[PTS_WSAT_MAX], wsat_tgbw[PTS_WSAT_MAX];
	unsigned int nr_wsat;
	uint64_t wsat_interval_ms;
	bool interrupted;
	char when[64];		/* the start, UTC */
};

/* device.c */
int pts_dev_open(struct pts_run *r, struct strbuf *err);
int pts_dev_safety(struct pts_run *r, struct strbuf *err);
void pts_purge(struct pts_run *r);
double pts_temp(const struct pts_run *r);

/* round.c: the phases as iolite runs */
int pts_precondition(struct pts_run *r, pts_run_fn run, struct strbuf *err);
int pts_iops_round(struct pts_run *r, pts_run_fn run, unsigned int round,
		   struct strbuf *err);
int pts_wsat(struct pts_run *r, pts_run_fn run, struct strbuf *err);
int pts_check_jobs(struct pts_run *r, pts_run_fn run, struct strbuf *err);

/* report.c, html.c */
int pts_report_text(const struct pts_run *r, FILE *f);
int pts_report_json(const struct pts_run *r, FILE *f);
int pts_report_html(const struct pts_run *r, FILE *f);
void pts_window_avg(struct pts_run *r);

#endif
