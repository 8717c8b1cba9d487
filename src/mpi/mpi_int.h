/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_MPI_MPI_INT_H
#define IOLITE_MPI_MPI_INT_H

/*
 * iolite-mpi: iolite run by mpirun or srun, one process (rank) per slot,
 * every rank running the job list (doc/mpi.md).
 *
 * Contract: this folder WRAPS iolite; nothing outside it includes it or
 * links MPI. It takes part in a run only through main's hooks
 * (src/main.h: job list, ready, segment start, the reporter's poll, the
 * reports, the exit status) and die()'s routine; it reads the results
 * model (stats/results.h) and merges it with the model's own merge
 * (results_job_merge), and writes reports with the report writers in
 * their client mode. The plain iolite never depends on it.
 *
 * Every MPI call goes through the lock here (MPI_THREAD_SERIALIZED is
 * enough: the runner's thread and the reporter thread both talk) and
 * every wait is a loop of non-blocking tests, so that a wait can time
 * out, or end when another rank asks all to stop. Messages are point to
 * point along a binomial tree rooted at rank 0 (comm.c), never a
 * collective a stopped rank could leave unmatched.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

/* the longest nap between two polls of a wait (comm.c) */
#define MPI_NAP_MAX_NS 1000000L
/* more ranks than this: a summary line per rank (IOLITE_MPI_HOSTS) */
#define MPI_FULL_RANKS 64
/*
 * Signalled, a rank has under a second for the end of the run: mpirun
 * sends SIGTERM when a rank dies (or is signalled itself) and SIGKILL
 * odls_base_sigkill_timeout (1 s) later, so rank 0 must have written the
 * report by then, without the ranks that never answer. Each step ends
 * this long after the stop; a sender waits longer than its receiver, so
 * that the receiver, not the sender, is the one to give up.
 */
#define HURRY_END_S	0.15	/* the ranks' "all done" */
#define HURRY_PART_S	0.35	/* rank 0 has the ranks' parts */
#define HURRY_PART_TX_S	0.45
#define HURRY_MERGE_S	0.6	/* rank 0 has its children's results */
#define HURRY_MERGE_TX_S 0.7	/* (an inner rank waits HURRY_PART_TX_S
				 * for its own children) */
#define HURRY_STATUS_S	0.8

struct job_list;
struct run_result;
struct cli;

enum mpi_tag {
	TAG_READY_UP = 1,
	TAG_READY_DOWN,
	TAG_STOP,
	TAG_CLOCK,
	TAG_RESULT,
	TAG_PART,
	TAG_END_UP,
	TAG_END_DOWN,
	TAG_STATUS_UP,
	TAG_STATUS_DOWN,
	TAG_SEG = 100,		/* + 2 * segment (up), + 1 (down) */
};

/* Why a rank stopped or failed, carried up the tree to rank 0. */
struct mpi_fault {
	int32_t nr;		/* ranks with a fault */
	int32_t rank;		/* the lowest of them */
	char host[64];
	char msg[400];
};

struct mpi_run {
	int rank, nranks;
	char host[64];
	pthread_mutex_t lock;		/* held around every MPI call */
	double timeout_s;		/* bounded steps; 0: none */
	bool ready;			/* past the start agreement */
	int waiting_on;			/* the rank a failed wait was for */
	bool timed_out;			/* a wait timed out: abort, as
					 * MPI_Finalize waits for every rank */
	bool summary;			/* a line per rank, not its report */

	/* the clock: this rank's CLOCK_REALTIME minus rank 0's */
	int64_t offset_ns;
	uint64_t rtt_ns;
	/* rank 0: the spread over the ranks */
	int64_t off_min_ns, off_max_ns;
	uint64_t rtt_max_ns;
	unsigned int nr_hosts;
	uint64_t skew_max_ns;		/* rank 0: latest start - target */
	uint64_t late_ns;		/* this rank's latest start */

	/* stopping together */
	void *stop_req;			/* MPI_Request *, posted once */
	int32_t stop_buf;
	bool stop_sent, stop_seen;
	int stop_from;

	/* ranks=: the segments and groups of the whole job list */
	unsigned int *seg_map;		/* local segment -> global */
	unsigned int nr_seg_map;
	unsigned int nr_global_segs;
	unsigned int next_seg;		/* global segments not yet passed */
	unsigned int *gid_map;		/* local group id -> global */
	unsigned int nr_gid_map;
	unsigned int nr_global_gids;
	unsigned int *gid_seg;		/* global group -> global segment */
	/* global group -> its grid's period: bw [0] and IOPS [1] (ranks.c) */
	unsigned int *gid_period_ms[2];
	unsigned int nr_mixed_periods;	/* jobs sampled unlike their group */
	unsigned int mixed_gid;		/* the first such group */
	int64_t *seg_start_ns;		/* global segment's common start
					 * on rank 0's clock (0: not run) */

	/* rank 0: every rank's clock as measured (for the JSON report) */
	struct client_clock *clocks;

	struct mpi_fault fault;		/* this rank's (nr 0: none) */
	double hurry_start;		/* > 0: a signal stopped this rank
					 * then: every wait is short (HURRY_*) */
	char lost[256];			/* rank 0: ranks that never answered */
	char note[768];			/* rank 0: the run's, for the report */
	char rank_note[320];		/* this rank's clock */

	/* live.c: the merged interval stream and endpoint; NULL: none */
	struct mpi_live *live;
};

/* comm.c */
void mpi_lock(struct mpi_run *m);
void mpi_unlock(struct mpi_run *m);
double mpi_now(void);			/* CLOCK_MONOTONIC, seconds */
int64_t mpi_realtime_ns(void);
int mpi_parent(const struct mpi_run *m);	/* -1 at the root */
/* the children of a rank in the binomial tree, in order; returns nr */
unsigned int mpi_children(const struct mpi_run *m, int *out, unsigned int max);
int mpi_send(struct mpi_run *m, int to, int tag, const void *buf, size_t len,
	     double timeout);
/* a message of any length from rank from; *buf malloc'd; -1 on time-out */
int mpi_recv(struct mpi_run *m, int from, int tag, void **buf, size_t *len,
	     double timeout, bool stoppable);
void mpi_post_stop(struct mpi_run *m);
bool mpi_stop_test(struct mpi_run *m);
void mpi_send_stop(struct mpi_run *m);
/*
 * Up the tree: each rank's fixed-size record combined with its
 * children's by fn, root (optional) at rank 0 on the result, then down:
 * the root's result to every rank (in buf).
 * 0, or -1 (time-out, or a stop when stoppable).
 */
int mpi_allreduce(struct mpi_run *m, int tag_up, void *buf, size_t len,
		  void (*fn)(void *acc, const void *in),
		  void (*root)(struct mpi_run *m, void *buf), double timeout,
		  bool stoppable);
int mpi_clock_sync(struct mpi_run *m, struct strbuf *err);
/* waits until rank 0's clock reads t_ns (converted with the offset) */
void mpi_sleep_until(struct mpi_run *m, int64_t t_ns);
void mpi_fault_merge(void *acc, const void *in);
/* A wait's time-out: dflt, or what is left until at s after the stop. */
double mpi_wait_s(struct mpi_run *m, double dflt, double at);
/* rank 0: what never came, for the report's note and stderr */
void mpi_lost(struct mpi_run *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* ranks.c */
int mpi_ranks_filter(struct mpi_run *m, struct job_list *jl,
		     struct strbuf *err);

/*
 * merge.c's messages: bytes appended and read back (get: -1 past the
 * end), a job's figures as bytes (what it points to left out), and the
 * exact merge of src into dst (*have: dst holds a job, else a copy).
 */
struct job_result;
struct mpi_buf {
	char *p;
	size_t len, alloc, pos;
};
void mpi_buf_put(struct mpi_buf *b, const void *v, size_t n);
int mpi_buf_get(struct mpi_buf *b, void *v, size_t n);
void mpi_job_put(struct mpi_buf *b, const struct job_result *j);
int mpi_job_get(struct mpi_buf *b, struct job_result *j);
void mpi_job_release(struct job_result *j);
void mpi_job_merge(struct job_result *dst, bool *have,
		   const struct job_result *src);

/* merge.c: the "All clients" jobs of every group, at rank 0 */
int mpi_merge(struct mpi_run *m, const struct run_result *rr,
	      struct run_result *all, struct strbuf *err);
/* frees what mpi_merge made at rank 0 */
void mpi_all_release(struct run_result *all);

/*
 * grid.c: this rank's bandwidth and IOPS samples moved onto the grid all
 * ranks share (doc/mpi.md), before the rank's report and the merge.
 */
void mpi_grid_align(struct mpi_run *m, struct run_result *rr);

/*
 * live.c: the live numbers of all ranks, merged at rank 0 (main's live
 * hook: mpi_live_opts; the runner's interval epoch: mpi_live_epoch; its
 * tap: mpi_live_tap). mpi_live_start opens rank 0's outputs before the
 * start agreement (-1 said in err); mpi_live_run starts rank 0's thread
 * that takes the ranks' intervals; mpi_live_end, after every rank's run,
 * writes the rest, closes the outputs and adds their notes to m->note.
 */
struct live_opts;
struct live_tap;
void mpi_live_opts(struct mpi_run *m, struct live_opts *lo);
uint64_t mpi_live_epoch(void *arg);
void mpi_live_tap(void *arg, const struct live_tap *t);
int mpi_live_start(struct mpi_run *m, struct strbuf *err);
void mpi_live_run(struct mpi_run *m);
void mpi_live_end(struct mpi_run *m);

/* report.c */
int mpi_report(struct mpi_run *m, const struct cli *c, struct run_result *rr,
	       FILE *out, FILE *html);

#endif
