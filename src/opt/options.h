/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_OPTIONS_H
#define IOLITE_OPT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * struct job_options: every job option as plain data, filled from the
 * option table (opt/table.c) and nothing else. Adding an option = a field
 * here + a row in the table (+ a rule in validate.c if it interacts).
 * Strings are heap-owned; job_options_release() frees them.
 */

enum ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_RWDIR_CNT = 3,	/* data directions: read, write, trim */
	DDIR_SYNC = 3,		/* fsync */
	DDIR_DATASYNC = 4,	/* fdatasync */
	DDIR_CNT = 5,
};

/* rw= : which directions, sequential or random */
enum rw_mode {
	RW_READ, RW_WRITE, RW_TRIM, RW_RW,
	RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM, RW_RANDRW,
	RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

enum random_generator { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };

enum random_dist {
	RDIST_RANDOM, RDIST_ZIPF, RDIST_PARETO, RDIST_NORMAL,
};

enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };

enum clocksource { CLOCK_SRC_DEFAULT, CLOCK_SRC_GETTIMEOFDAY,
		   CLOCK_SRC_CLOCK_GETTIME, CLOCK_SRC_CPU };

enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };

/* continue_on_error= : bit mask of error classes to continue on */
enum {
	COE_READ = 1, COE_WRITE = 2, COE_VERIFY = 4,
	COE_IO = COE_READ | COE_WRITE, COE_ALL = 7,
};

/* A value given as bytes or as a percentage ("size=50%"). */
struct size_pct {
	uint64_t bytes;
	unsigned int pct;	/* non-zero: percentage 1..100 */
};

struct bs_range {
	uint64_t min, max;
};

/*
 * One bssplit= entry. The parser resolves blank percentages ("4k/") to
 * an equal share of what the others leave, so the entries of a direction
 * always add up to exactly 100 (a rounding remainder goes to the first
 * blank entries). perc 0 is a real 0%.
 */
struct bssplit {
	uint64_t bs;
	unsigned int perc;
};

#define BSSPLIT_MAX 64
#define OPT_TABLE_MAX 512

struct job_options {
	/* description */
	char *name;
	char *description;

	/* files */
	char *filename;		/* ':'-separated list, '\:' escapes */
	char *directory;
	char *filename_format;
	unsigned int nrfiles;
	struct size_pct size;
	struct bs_range filesize;
	struct size_pct offset;
	uint64_t offset_increment;
	uint64_t io_size;
	uint64_t number_ios;
	bool allow_file_create;
	bool allow_mounted_write;
	bool create_on_open;
	bool overwrite;
	bool unlink;
	bool invalidate;

	/* blocks and directions */
	uint64_t bs[DDIR_RWDIR_CNT];
	struct bs_range bsrange[DDIR_RWDIR_CNT];	/* 0-0: not given */
	struct bssplit bssplit[DDIR_RWDIR_CNT][BSSPLIT_MAX];
	unsigned int nr_bssplit[DDIR_RWDIR_CNT];
	uint64_t blockalign[DDIR_RWDIR_CNT];	/* 0: the block size */
	enum rw_mode rw;
	unsigned int rw_seq_nr;	/* rw=randread:8 -> 8, rw=write:4k -> 4096 */
	unsigned int rwmixread;	/* percent; rwmixwrite= sets 100 - N */

	/* engine and queue */
	char *ioengine;
	unsigned int iodepth;
	bool direct;
	enum sync_mode sync;
	unsigned int fsync;
	unsigned int fdatasync;
	bool end_fsync;
	bool fsync_on_close;
	bool hipri;		/* pvsync2 */
	bool nowait;		/* pvsync2 */

	/* jobs and time */
	unsigned int numjobs;
	bool thread;
	uint64_t runtime_us;
	bool time_based;
	uint64_t ramp_time_us;
	uint64_t startdelay_us;
	unsigned int loops;

	/* randomness */
	bool norandommap;
	bool randrepeat;
	uint64_t randseed;
	enum random_generator random_generator;
	enum random_dist random_distribution;
	double rdist_param;	/* zipf theta, pareto h, normal sigma (%) */

	/* buffers */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers;

	/* groups */
	bool group_reporting;
	bool stonewall;
	bool new_group;
	char *wait_for;

	/* units */
	unsigned int kb_base;
	unsigned int unit_base;

	/* cpus */
	char *cpus_allowed;
	enum cpus_policy cpus_allowed_policy;
	uint64_t cpumask;

	/* statistics and clock */
	bool gtod_reduce;
	bool disable_lat;
	bool disable_clat;
	bool disable_slat;
	bool disable_bw;
	enum clocksource clocksource;

	/* errors */
	unsigned int continue_on_error;
	bool exitall;
	bool exitall_on_error;

	/* queue options (libaio, io_uring; 0 = default) */
	unsigned int iodepth_batch_submit;
	unsigned int iodepth_batch_complete_min;
	unsigned int iodepth_batch_complete_max;
	unsigned int iodepth_low;
	bool userspace_reap;	/* libaio */
	bool fixedbufs;		/* io_uring */
	bool registerfiles;
	bool sqthread_poll;
	unsigned int sqthread_poll_cpu;	/* used when set explicitly */
	unsigned int force_async;
	unsigned int nonvectored;	/* 0: READV/WRITEV */

	/* which table rows were given explicitly, by row index */
	unsigned char set[OPT_TABLE_MAX];
};

/* Frees the strings (every OPT_STR row); o stays valid, strings NULL. */
void job_options_release(struct job_options *o);
/* Deep copy: dst (not released first) gets its own strings. */
void job_options_copy(struct job_options *dst, const struct job_options *src);

#endif
