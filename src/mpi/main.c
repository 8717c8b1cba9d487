/* SPDX-License-Identifier: MIT */
/*
 * iolite-mpi's entry: MPI up, the job variables $rank, $nranks and
 * $hostname, then iolite's main with the hooks that keep the ranks in
 * step (src/main.h): they agree to start or none does, start each
 * stonewall segment together on rank 0's clock, stop together, write
 * one report, and agree on the exit status. See mpi_int.h's contract.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "job/job.h"
#include "main.h"
#include "mpi/mpi_int.h"
#include "run/runner.h"
#include "stats/results.h"
#include "util/log.h"

static struct mpi_run run;

/* Rank 0 says which rank and host could not go on, and why. */
static void say_fault(const struct mpi_run *m, const struct mpi_fault *f,
		      const char *what, const char *after)
{
	char more[64] = "";

	if (m->rank || !f->nr)
		return;
	if (f->nr > 1)
		snprintf(more, sizeof(more), " (and %d more rank%s)", f->nr - 1,
			 f->nr > 2 ? "s" : "");
	error("rank %d (host %s) %s: %s%s%s", f->rank, f->host, what, f->msg,
	      more, after);
}

static void set_fault(struct mpi_run *m, const char *msg)
{
	if (m->fault.nr)
		return;
	m->fault.nr = 1;
	m->fault.rank = m->rank;
	snprintf(m->fault.host, sizeof(m->fault.host), "%s", m->host);
	snprintf(m->fault.msg, sizeof(m->fault.msg), "%s", msg);
}

/* Before the agreement to start: the others hear of it there. */
static int agree_start(struct mpi_run *m)
{
	struct mpi_fault f = m->fault;

	if (mpi_allreduce(m, TAG_READY_UP, &f, sizeof(f), mpi_fault_merge,
			  NULL, m->timeout_s, false)) {
		error("rank %d (host %s): no word from rank %d within %g s (IOLITE_MPI_TIMEOUT): the ranks did not all reach the start",
		      m->rank, m->host, m->waiting_on, m->timeout_s);
		return -1;
	}
	say_fault(m, &f, "cannot start", "; no rank started any I/O");
	return f.nr ? -1 : 0;
}

/*
 * MPI_Finalize waits for every rank: after a time-out (a rank that does
 * not answer, maybe stuck) the run is aborted instead, which ends them
 * all (mpirun kills the job). The other ranks time out at about the same
 * moment as rank 0; they wait a little longer before the abort, so that
 * rank 0 has said which rank it waited for (its abort ends them first).
 */
static void mpi_end(struct mpi_run *m, int status)
{
	if (m->timed_out) {
		if (m->rank) {
			double grace = m->timeout_s < 5 ? m->timeout_s : 5;
			struct timespec ts = {
				.tv_sec = (time_t)grace,
				.tv_nsec = (long)((grace - (time_t)grace) * 1e9),
			};

			nanosleep(&ts, NULL);
		}
		MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
	}
	MPI_Finalize();
}

__attribute__((noreturn))
static void on_die(const char *msg)
{
	struct mpi_run *m = &run;

	set_die_routine(NULL);
	if (!m->ready) {
		set_fault(m, msg);
		agree_start(m);
		mpi_end(m, 1);
		exit(1);
	}
	/* mid-run: this rank cannot go on; the others are told */
	error("rank %d (host %s): %s", m->rank, m->host, msg);
	mpi_send_stop(m);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

static int hook_loaded(void *arg, const struct cli *c, struct job_list *jl,
		       struct strbuf *err)
{
	struct mpi_run *m = arg;
	if (c->status_interval_ms) {
		strbuf_addstr(err, "option '--status-interval': not supported by iolite-mpi yet (a report needs every rank)");
		return -1;
	}
	if (c->repeat > 1 || c->nr_sweeps) {
		strbuf_addf(err, "option '%s': not supported by iolite-mpi yet (run iolite-mpi once per point or run)",
			    c->repeat > 1 ? "--repeat" : "--sweep");
		return -1;
	}
	if (c->profile_folded) {
		strbuf_addstr(err, "option '--profile-folded': not supported by iolite-mpi yet (each rank would write the file)");
		return -1;
	}
	return mpi_ranks_filter(m, jl, err);
}

static int hook_ready(void *arg)
{
	struct mpi_run *m = arg;
	struct strbuf err = STRBUF_INIT;

	/* rank 0's stream and endpoint: a busy port stops every rank */
	if (mpi_live_start(m, &err))
		set_fault(m, strbuf_str(&err));
	if (agree_start(m))
		goto fail;
	m->ready = true;
	if (mpi_clock_sync(m, &err)) {
		error("%s", strbuf_str(&err));
		goto fail;
	}
	mpi_live_run(m);
	snprintf(m->rank_note, sizeof(m->rank_note),
		 "iolite-mpi: rank %d of %d on %s; clock offset to rank 0: %+.1f us (round trip %.1f us)",
		 m->rank, m->nranks, m->host, (double)m->offset_ns / 1e3,
		 (double)m->rtt_ns / 1e3);
	mpi_post_stop(m);
	strbuf_release(&err);
	return 0;
fail:
	strbuf_release(&err);
	mpi_end(m, 1);
	return -1;
}

struct seg_msg {
	int64_t start_ns;	/* on rank 0's clock */
	int64_t late_ns;	/* the end barrier: the latest start */
};

static void seg_merge(void *acc, const void *in)
{
	struct seg_msg *a = acc;
	const struct seg_msg *b = in;

	if (b->late_ns > a->late_ns)
		a->late_ns = b->late_ns;
}

/*
 * The common start: a little later than now on rank 0's clock, by
 * enough for the message to reach every rank down the tree (a poll's
 * nap and a few round trips per level).
 */
static void seg_root(struct mpi_run *m, void *buf)
{
	struct seg_msg *s = buf;
	unsigned int levels = 1;
	int n;

	for (n = 1; n < m->nranks; n <<= 1)
		levels++;
	s->start_ns = mpi_realtime_ns() + 2000000 +
		      (int64_t)levels * (MPI_NAP_MAX_NS +
					 4 * (int64_t)m->rtt_max_ns);
}

/* Everyone at segment seg of the whole job list, then its start. */
static int barrier(struct mpi_run *m, unsigned int seg)
{
	struct seg_msg s = { 0, 0 };

	if (mpi_allreduce(m, TAG_SEG + 2 * (int)(seg % 10000), &s, sizeof(s),
			  seg_merge, seg_root, 0, true))
		return -1;
	if (seg < m->nr_global_segs)
		m->seg_start_ns[seg] = s.start_ns;
	mpi_sleep_until(m, s.start_ns);
	return 0;
}

static void hook_live(void *arg, struct live_opts *lo)
{
	mpi_live_opts(arg, lo);
}

static int hook_segment(void *arg, unsigned int seg)
{
	struct mpi_run *m = arg;
	unsigned int g = seg < m->nr_seg_map ? m->seg_map[seg] : m->next_seg;

	while (m->next_seg <= g) {
		if (mpi_stop_test(m) || barrier(m, m->next_seg))
			return -1;
		m->next_seg++;
	}
	return 0;
}

static int hook_poll(void *arg, bool stopping)
{
	struct mpi_run *m = arg;

	/* a rank that stops (an error, a signal) stops all, itself too */
	if (stopping)
		mpi_send_stop(m);
	return mpi_stop_test(m) || stopping;
}

/* This rank's failed jobs, for rank 0 to name. */
static void job_faults(struct mpi_run *m, const struct run_result *rr)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];
		char msg[300];

		if (!j->failed)
			continue;
		snprintf(msg, sizeof(msg), "job '%s' failed: %s (error %d)",
			 j->name, strerror(j->error), j->error);
		set_fault(m, msg);
		return;
	}
}

static void run_note(struct mpi_run *m, int64_t late_ns)
{
	int n = snprintf(m->note, sizeof(m->note),
			 "iolite-mpi: %d ranks on %u host%s; clock offsets to rank 0 from %+.1f to %+.1f us (round trip up to %.1f us); each stonewall group started together on rank 0's clock, the latest rank %.1f us after the common start",
			 m->nranks, m->nr_hosts, m->nr_hosts == 1 ? "" : "s",
			 (double)m->off_min_ns / 1e3,
			 (double)m->off_max_ns / 1e3,
			 (double)m->rtt_max_ns / 1e3, (double)late_ns / 1e3);

	/* grid.c: a group's series are on its longest sampling period */
	if (m->nr_mixed_periods && n > 0 && (size_t)n < sizeof(m->note))
		snprintf(m->note + n, sizeof(m->note) - (size_t)n,
			 "; group %u's jobs sample at different periods (bwavgtime, iopsavgtime): its samples over time are on its longest, %u and %u ms",
			 m->mixed_gid, m->gid_period_ms[0][m->mixed_gid],
			 m->gid_period_ms[1][m->mixed_gid]);
}

static int hook_report(void *arg, const struct cli *c, struct run_result *rr,
		       FILE *out, FILE *html)
{
	struct mpi_run *m = arg;
	const char **notes = xcalloc(rr->nr_notes + 1, sizeof(*notes));
	const char *const *saved = rr->notes;
	struct seg_msg s = { 0, 0 };
	unsigned int nr_saved = rr->nr_notes;
	int ret;

	job_faults(m, rr);
	/* signalled: mpirun's SIGKILL is near, every wait ends in time */
	if (runner_signal() && m->hurry_start <= 0)
		m->hurry_start = mpi_now();
	if (m->fault.nr)
		mpi_send_stop(m);
	/* the segments the others still run (unless all stop) */
	while (m->next_seg < m->nr_global_segs && !mpi_stop_test(m) &&
	       !m->stop_sent && !barrier(m, m->next_seg))
		m->next_seg++;
	/*
	 * Everyone done: no time-out, a rank may run long (doc/mpi.md);
	 * signalled, a rank that does not answer in time is lost and the
	 * report goes on without it.
	 */
	s.late_ns = (int64_t)m->late_ns;
	if (mpi_allreduce(m, TAG_END_UP, &s, sizeof(s), seg_merge, NULL,
			  mpi_wait_s(m, 0, HURRY_END_S), false) &&
	    m->hurry_start <= 0) {
		mpi_live_end(m);
		return -1;
	}
	if (!m->rank)
		run_note(m, s.late_ns);
	/* every rank's last interval sent: rank 0 writes the rest */
	mpi_live_end(m);
	if (rr->nr_notes)	/* rr->notes may be NULL */
		memcpy(notes, rr->notes, rr->nr_notes * sizeof(*notes));
	notes[rr->nr_notes] = m->rank_note;
	rr->notes = notes;
	rr->nr_notes++;
	ret = mpi_report(m, c, rr, out, html);
	rr->notes = saved;
	rr->nr_notes = nr_saved;
	free(notes);
	return ret;
}

static int hook_finish(void *arg, int status)
{
	struct mpi_run *m = arg;
	struct mpi_fault f;
	char msg[64];

	if (status && !m->fault.nr) {
		snprintf(msg, sizeof(msg), status > 128 ?
			 "interrupted by signal %d" : "exit status %d",
			 status > 128 ? status - 128 : status);
		set_fault(m, msg);
	}
	f = m->fault;
	if (mpi_allreduce(m, TAG_STATUS_UP, &f, sizeof(f), mpi_fault_merge,
			  NULL, mpi_wait_s(m, m->timeout_s, HURRY_STATUS_S),
			  false)) {
		error("rank %d (host %s): no word from rank %d within %g s (IOLITE_MPI_TIMEOUT): the ranks did not all end",
		      m->rank, m->host, m->waiting_on, m->timeout_s);
		status = status ? status : 1;
	}
	say_fault(m, &f, "failed", "");
	if (f.nr && !status)
		status = 1;
	return status;
}

static double env_timeout(void)
{
	const char *s = getenv("IOLITE_MPI_TIMEOUT");
	char *end;
	double v;

	if (!s || !*s)
		return 60;
	v = strtod(s, &end);
	if (*end || v < 0)
		die("IOLITE_MPI_TIMEOUT: '%s' is not a number of seconds", s);
	return v;
}

/* IOLITE_MPI_HOSTS: full or summary; unset: full up to MPI_FULL_RANKS */
static bool hosts_summary(int nranks)
{
	const char *s = getenv("IOLITE_MPI_HOSTS");

	if (!s || !*s)
		return nranks > MPI_FULL_RANKS;
	if (!strcmp(s, "summary"))
		return true;
	if (strcmp(s, "full"))
		die("IOLITE_MPI_HOSTS: '%s' is neither full nor summary", s);
	return false;
}

/*
 * A launcher that started N tasks the MPI library does not see as one
 * job (srun --mpi=none, or srun's PMI not the library's; an iolite-mpi
 * built with another MPI than the mpirun): every task is a one-rank run
 * of its own, rank 0, writing rank 0's files and a report each. The
 * launcher's own count, the nearest one first: Open MPI's mpirun, a
 * PMI launcher (MPICH's, srun --mpi=pmi2), srun. Only the first task
 * says it; all exit before any file is read.
 */
static void check_launch(const struct mpi_run *m)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE",
					    "PMI_SIZE",
					    "SLURM_STEP_NUM_TASKS" };
	const char *task = getenv("SLURM_PROCID"), *s = NULL;
	unsigned int i;
	long n;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && !s; i++)
		s = getenv(vars[i]);
	n = s ? strtol(s, NULL, 10) : 0;
	if (m->nranks != 1 || n <= 1)
		return;
	if (!task || !strcmp(task, "0"))
		error("the launcher started %ld tasks (%s), but MPI sees each as a run of one rank: its MPI plugin does not match this MPI library (with srun: srun --mpi=pmix, see srun --mpi=list)",
		      n, vars[i - 1]);
	MPI_Finalize();
	exit(1);
}

int main(int argc, char **argv)
{
	struct mpi_run *m = &run;
	struct main_hooks h;
	char num[32];
	int provided = 0, ret;

	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) !=
	    MPI_SUCCESS)
		die("MPI_Init_thread failed");
	MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m->nranks);
	check_launch(m);
	pthread_mutex_init(&m->lock, NULL);
	if (gethostname(m->host, sizeof(m->host) - 1))
		snprintf(m->host, sizeof(m->host), "rank%d", m->rank);
	set_die_routine(on_die);
	if (provided < MPI_THREAD_SERIALIZED)
		die("this MPI library runs no threads beside MPI calls (MPI_THREAD_SERIALIZED); iolite's reporter thread needs it");
	m->timeout_s = env_timeout();
	m->summary = hosts_summary(m->nranks);

	/* the job files' $rank, $nranks and $hostname (job/vars.c) */
	snprintf(num, sizeof(num), "%d", m->rank);
	setenv("rank", num, 1);
	snprintf(num, sizeof(num), "%d", m->nranks);
	setenv("nranks", num, 1);
	setenv("hostname", m->host, 1);

	memset(&h, 0, sizeof(h));
	h.arg = m;
	h.quiet = m->rank != 0;
	h.empty_ok = true;
	h.loaded = hook_loaded;
	h.ready = hook_ready;
	h.segment_start = hook_segment;
	h.sync_poll = hook_poll;
	h.live = hook_live;
	h.interval_epoch = mpi_live_epoch;
	h.report = hook_report;
	h.finish = hook_finish;
	ret = iolite_main(argc, argv, &h);
	set_die_routine(NULL);
	mpi_end(m, ret);
	return ret;
}
