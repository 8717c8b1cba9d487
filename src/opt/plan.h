/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_PLAN_H
#define IOLITE_OPT_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "opt/options.h"
#include "util/strbuf.h"

struct prio_plan;

/*
 * read_iolog for one instance, filled by workload/iolog.c's iolog_plan()
 * after plan_build(); plan_release() frees it.
 */
struct plan_replay {
	char *log;		/* the log this instance replays */
	char **files;		/* the log's files, or the redirect target */
	uint64_t *ends;		/* per file: end of the furthest I/O */
	unsigned int nr_files;
	uint64_t nr_ios;	/* I/Os per pass, syncs included */
	uint64_t bytes;		/* bytes per pass */
	/*
	 * Deferred (target/iolog_defer.c): an earlier stonewall group writes
	 * the log, so it is read when the job starts. map: the log's file
	 * index -> files index (UINT32_MAX: no I/O); error: why the log
	 * cannot be replayed, for the job to report. Both owned.
	 */
	bool deferred;
	uint32_t *map;
	unsigned int nr_map;
	char *error;
};

/*
 * A job_plan is one job instance (numjobs clones get one each), validated
 * and with the decisions that do not change per I/O made once. It is
 * read-only once the run starts.
 */
struct job_plan {
	struct job_options o;	/* owned copy */
	unsigned int job_index;	/* position among all instances */
	unsigned int clone;	/* 0 .. numjobs-1 */
	unsigned int groupid;
	unsigned int desc_index;	/* its job description's place in the
					 * job list (main; --sweep points) */
	unsigned int ddir_mask;	/* 1 << DDIR_READ | 1 << DDIR_WRITE ... */
	bool random;		/* random offsets */
	bool writes;		/* writes or trims anything */
	bool mixed;		/* more than one data direction */
	bool bs_fixed;		/* one block size for every direction used */
	bool no_io;		/* cpuio, exec: the job does no I/O (fio
				 * prints no header line for it) */
	/*
	 * The option that makes the job run a program (ioengine for exec,
	 * exec_prerun, exec_postrun) and that program, else NULL: a
	 * program can change anything, so --readonly refuses it.
	 */
	const char *runs_opt, *runs;
	uint64_t min_bs, max_bs; /* over the directions used */
	/*
	 * A replay's I/O buffer size: its largest read or write (its trims
	 * move no data: a log of 2 GiB trims needs no 2 GiB buffers), 0
	 * for a log of trims only. Other jobs' buffers are max_bs.
	 */
	uint64_t replay_buf_bs;
	/*
	 * Per direction (all three filled, used or not): the block sizes
	 * from bssplit, else bsrange, else bs; and the offset alignment
	 * (blockalign, default the direction's minimum block size).
	 */
	uint64_t dir_min_bs[DDIR_RWDIR_CNT], dir_max_bs[DDIR_RWDIR_CNT];
	uint64_t dir_align[DDIR_RWDIR_CNT];
	/*
	 * blockalign turns the random map off: some direction's (used or
	 * not) differs from its minimum block size, fio's rule
	 * ("blockalign=512" with bsrange=512-1000 keeps the map)
	 */
	bool ba_nomap;
	/*
	 * bs_is_seq_rand in a random job with sequential I/Os among its
	 * random ones (rw=randread:N, percentage_random): the read slot's
	 * sizes, which those take (bssplit, else seq_min_bs-seq_max_bs);
	 * seq_max_bs 0: none.
	 */
	uint64_t seq_min_bs, seq_max_bs;
	struct bssplit seq_bssplit[BSSPLIT_MAX];
	unsigned int nr_seq_bssplit;
	const char *src_file;	/* owned copy; where the job was defined */
	int src_line;
	struct plan_replay *replay;	/* owned; NULL: no read_iolog */
	/*
	 * dedupe_global with dedupe_mode=working_set: the job's place among
	 * the run's jobs that share working sets, and their number; set by
	 * the runner before the jobs start (workload/buffer.h). 0: not shared.
	 */
	unsigned int dedupe_rank, dedupe_ranks;
	/*
	 * numa_cpu_nodes=auto or numa_mem_policy=auto: the NUMA node of the
	 * job's target, set by target/numa.c before the jobs start.
	 */
	int numa_node;
	struct prio_plan *prio;	/* owned; NULL: no I/O priorities
				 * (opt/prio_opts.h) */
};

/*
 * Checks one job's options against each other (nothing on disk yet) and
 * fills the derived fields; p is overwritten (job_index, clone and
 * groupid are left 0 for the caller). Returns 0, or -1 with
 * "file:line: option 'x': ..." in err and p holding nothing to release.
 * On success plan_release() frees p's copies.
 *
 * Like fio, rwmixread and rwmixwrite do not conflict: the later one wins
 * (the parser applies it), so a job can override its [global] section.
 */
int plan_build(struct job_plan *p, const struct job_options *o,
	       const char *src_file, int src_line, struct strbuf *err);
void plan_release(struct job_plan *p);

/*
 * fio's seed for stream of the job's random streams (util/prng.h):
 * from randseed and the job's number with randrepeat or randseed=, from
 * the job's number alone with allrandrepeat, else a new one every run.
 * The streams are their places in fio's list (opt/seed.c).
 */
#define FIO_STREAM_MIX		4
#define FIO_STREAM_FILE		5	/* file_service_type=random */
#define FIO_STREAM_BLOCK	6
/* randrepeat's seed of the random offsets: this times the job's number */
#define FIO_BLOCK_SEED		0xb1899bedULL
#define FIO_STREAM_FILESIZE	7
#define FIO_STREAM_SEQ_RAND	10	/* percentage_random, all directions */
#define FIO_STREAM_POISSON_READ	15
#define FIO_STREAM_POISSON_WRITE 17
#define FIO_STREAM_POISSON_TRIM	18
uint64_t plan_fio_seed(const struct job_plan *p, unsigned int stream);
/* fio's number of the job instance (1 for the run's first): seeds, logs */
unsigned int plan_fio_jobnr(const struct job_plan *p);

/*
 * startdelay=lo-hi: the instance's delay, drawn uniformly from the range
 * (each numjobs clone its own; the same every run unless randrepeat=0).
 * fio's draw is not reproduced: the stream is iolite's own.
 */
#define STREAM_STARTDELAY	64
void plan_draw_startdelay(struct job_plan *p);

/*
 * The most job instances (numjobs clones included) one run takes: each is
 * a thread with its I/O buffers, its files' state and its statistics (a
 * few pages each), and a report block. fio 3.33 refuses more than this
 * too. --max-jobs may lower it, not raise it. The runner's limit, kept
 * with the plans because the command line and --sweep check it before
 * any plan is built; runner_jobs_check() (run/runner.h) as they are.
 */
#define RUNNER_MAX_JOBS 4096

/*
 * A plan error: "file:line: " then the message, into err; returns -1.
 * For the checks of a job's options against the machine too (run/).
 */
int plan_fail(const struct job_plan *p, struct strbuf *err,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static inline bool ddir_used(const struct job_plan *p, enum ddir d)
{
	return p->ddir_mask & (1u << d);
}

/*
 * The ranges each trim of the job carries: num_range when above 1 and
 * the job trims (fio 3.42, io_uring_cmd: opt/misc_opts.c checks it),
 * else 1. A trim of several has them in its buffer, PLAN_RANGE_BYTES
 * each (io/io_u.h's struct io_range).
 */
#define PLAN_RANGE_BYTES 16
static inline unsigned int plan_nrange(const struct job_plan *p)
{
	return p->o.num_range > 1 && ddir_used(p, DDIR_TRIM) ?
	       p->o.num_range : 1;
}

/* The size of each of a job's I/O buffers (before page rounding). */
static inline uint64_t plan_buf_bs(const struct job_plan *p)
{
	uint64_t ranges = (uint64_t)plan_nrange(p) * PLAN_RANGE_BYTES;

	if (p->replay)
		return p->replay_buf_bs;
	return ranges > 1 * PLAN_RANGE_BYTES && ranges > p->max_bs ?
	       ranges : p->max_bs;
}

#endif
