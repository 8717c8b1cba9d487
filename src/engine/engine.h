/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_ENGINE_H
#define IOLITE_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <time.h>

#include "io/io_u.h"
#include "opt/engine_decl.h"
#include "opt/plan.h"
#include "util/reqstat.h"
#include "util/strbuf.h"

/*
 * The engine contract. The worker (run/) decides WHAT to do (offset,
 * length, direction) and fills an io_u; the engine decides HOW: queue
 * returns DONE (completed inline), QUEUED (complete later via getevents /
 * event) or BUSY (retry after reaping). Engines never see the runner, the
 * stats or other jobs: only the plan, the depth and their files.
 *
 * An engine's private struct embeds struct engine as its first member.
 * Engines are listed in one explicit table in engine.c. The I/O unit
 * (struct io_u) and the file handle (struct engine_file) are in
 * io/io_u.h, shared with the workload and verify, which fill them.
 */

struct engine {
	const struct engine_ops *ops;
	const struct job_plan *plan;
	unsigned int depth;
	struct engine_file *files;
	unsigned int nr_files;
	/*
	 * Set by the worker after init (NULL before): non-zero when the run
	 * or this job is to stop. An engine that waits for something outside
	 * the machine's control (a network peer, a program) waits in slices
	 * and gives up when engine_stopping() says so.
	 */
	const volatile int *run_stop;
	const volatile int *job_stop;
	/*
	 * Set by getevents(): how many of the completions it returned, the
	 * first ones, are I/Os the kernel refused at submission (libaio's
	 * EINVAL for a file without AIO). Their error is counted as one
	 * from queue() (fio's synchronous path), not as a completion's.
	 */
	unsigned int nr_refused;
};

static inline int engine_stopping(const struct engine *e)
{
	return (e->run_stop && *e->run_stop) || (e->job_stop && *e->job_stop);
}

/* A target on a server, as engine_ops.remote_probe finds it. */
struct engine_remote {
	uint64_t size;		/* bytes */
	unsigned int lbs;	/* I/O in whole blocks of it; 0: any */
	const char *what;	/* "NBD export", "iSCSI LUN", "RBD image" */
	const char *opt;	/* the option that named it: "uri" */
	const char *name;	/* its name in messages (the URI): a string
				 * of the plan's or the name probed */
	/*
	 * set with a failed probe: the server could not be reached or
	 * logged in to (refused, no such export): the job runs and fails
	 * at its setup, its report kept (as fio's), rather than refused
	 */
	bool unreachable;
};

enum engine_q {
	ENGINE_Q_DONE = 0,	/* completed; result in io_u->error/resid */
	ENGINE_Q_QUEUED = 1,	/* will complete through getevents/event */
	ENGINE_Q_BUSY = 2,	/* not accepted now; reap, then retry */
};

/*
 * u->error = ENGINE_ERR_END: there is nothing more to do and the job ends
 * here, without an error (the network peer closed the link; the program
 * of an exec job without a runtime has exited). That I/O is not counted.
 * Never an errno (those are positive).
 */
#define ENGINE_ERR_END (-1)

/*
 * Call sequence, as the worker drives it: init, then open_file for every
 * file (e->files and e->nr_files set first), prep for every io_u, then
 * queue. An io_u for which queue() returned QUEUED is submitted by
 * commit() (when the engine has one), which the worker calls after a
 * batch of queue() calls and before getevents(); getevents() returns how
 * many have completed (at least min; at most max, but null hands back its
 * whole batch, as fio's) and event(0..n-1) hands them back (valid until
 * the next commit() or getevents()). BUSY means
 * "commit and reap, then queue this io_u again". Engines flagged
 * ENGINE_F_SYNC never return anything but DONE, and then the depth is 1.
 * DDIR_SYNC / DDIR_DATASYNC io_us (len 0) fsync / fdatasync u->file;
 * DDIR_SYNC_FILE_RANGE ones sync_file_range(2) u's range of it.
 */
struct engine_ops {
	/*
	 * What the engine is, read before any job runs (the option checks
	 * read it through opt/engine_decl.h): its name and one line for
	 * --enghelp, its flags (enum engine_flags, opt/engine_decl.h: what
	 * it can do, how offload wraps it, the kernel resources it takes),
	 * the options it owns (rows of opt/table.c, in fio's order: their
	 * help is --enghelp=NAME's; a row flagged OPT_F_ENGINE is refused
	 * with an engine that does not own it) and its rule on a job's
	 * plan (opt/engine_opts.c, opt/mmap_opts.c), which plan_build()
	 * runs among the option checks.
	 */
	const char *name;
	const char *help;
	unsigned int flags;
	const char *const *options;	/* NULL-terminated, or NULL */
	int (*plan_check)(struct job_plan *p, struct strbuf *err);
	/*
	 * Optional: loads the client library the engine calls (dl/dl.h),
	 * once per process; run/plans.c calls it for each job of the
	 * engine before anything is created or run. 0, or -1 with the
	 * library and the package to install in err.
	 */
	int (*load)(struct strbuf *err);

	/*
	 * Allocates the engine (embedding struct engine). 0 or -errno.
	 * NULL for an engine this build lacks (libaio, io_uring without
	 * their library): it is declared all the same, for its options,
	 * but engine_find() does not find it.
	 */
	int (*init)(const struct job_plan *plan, unsigned int depth,
		    struct engine **out, struct strbuf *err);
	void (*cleanup)(struct engine *e);
	int (*open_file)(struct engine *e, struct engine_file *f,
			 struct strbuf *err);
	int (*close_file)(struct engine *e, struct engine_file *f);
	/* Optional: per-io_u setup at start (buffers registered etc). */
	int (*prep)(struct engine *e, struct io_u *u);
	enum engine_q (*queue)(struct engine *e, struct io_u *u);
	/* Optional: submits what queue() batched. Returns 0 or -errno. */
	int (*commit)(struct engine *e);
	/*
	 * Optional: submits what queue() batched and waits for at least min
	 * completions in the same system call (0 if the engine cannot for
	 * this job: the worker then commits and waits apart). Returns 0 or
	 * -errno; getevents() then takes the completions.
	 */
	int (*commit_wait)(struct engine *e, unsigned int min);
	/* Waits for at least min completions (up to max); returns count. */
	int (*getevents)(struct engine *e, unsigned int min, unsigned int max,
			 const struct timespec *timeout);
	struct io_u *(*event)(struct engine *e, unsigned int i);

	/*
	 * Optional: appends one line (no newline) saying how the engine did
	 * its I/O, for the report's notes, e.g. "mmap: 4.0GiB mapped in 1
	 * file, 2MiB pages, copy=avx2, flush=clwb". The worker calls it once
	 * per job, after the I/O loop (and end_fsync) and before
	 * close_file(), when the run has shown what it can show (which pages
	 * were used). It may read /proc; it issues no I/O. Appends nothing
	 * when there is nothing to say.
	 */
	void (*describe)(struct engine *e, struct strbuf *out);

	/*
	 * Optional: what the device said about u's failure, when it said
	 * more than an errno (an NVMe status), in buf; NULL for nothing
	 * more. The worker's message then gives it instead of strerror().
	 */
	const char *(*error_detail)(struct engine *e, const struct io_u *u,
				    char *buf, size_t n);

	/*
	 * ENGINE_F_FILE_OP engines: *ns points at the durations (ns) of the
	 * file operations done since the last call, which are the caller's
	 * to read until the next call to the engine; returns how many.
	 */
	unsigned int (*take_lat)(struct engine *e, const uint64_t **ns);

	/*
	 * Optional: I/Os the engine knows were lost on the way (UDP
	 * datagrams missing from the sequence). The worker adds them to
	 * the job's dropped count of reads once, after the I/O loop.
	 */
	uint64_t (*dropped)(struct engine *e);

	/*
	 * Optional, engines whose targets are on a server and have a size
	 * there (nbd's export, libiscsi's LUN, rbd's image;
	 * ENGINE_F_NOFILEIO): files_resolve() asks it, before anything is
	 * created or run, what the job's file name (as named, e.g. the
	 * iscsi:// URL) is on the server: r->size, its block size (0:
	 * any), what it is and the option that named it, for the
	 * messages. The engine refuses what the server cannot do for the
	 * job (a read-only export a job writes). 0, or -1 with the
	 * message in err (no location prefix); r->unreachable set when it
	 * could not ask and the job should run all the same (open_file()
	 * then fails as the job starts, and checks the size the region
	 * was drawn from), else the job is refused.
	 */
	int (*remote_probe)(const struct job_plan *p, const char *name,
			    struct engine_remote *r, struct strbuf *err);

	/*
	 * Optional: the requests the engine sent to its server by kind
	 * (util/reqstat.h: http's methods) since the last call, which it
	 * then counts again from zero; a copy the caller frees. The worker
	 * takes it at ramp_time's end (what the ramp sent is dropped) and
	 * once after the I/O loop, for the results.
	 */
	struct reqstats *(*reqstats)(struct engine *e);
};

/*
 * Every engine iolite has, those this build lacks too (init NULL), in
 * the order --enghelp and the messages that name engines list them;
 * NULL-terminated.
 */
extern const struct engine_ops *const engine_table[];

/*
 * Finds an engine of this build by name (fio names and aliases), or
 * NULL.
 */
const struct engine_ops *engine_find(const char *name);
/*
 * Loads what the engine needs (ops->load: its client library): 0, or -1
 * with "ioengine 'NAME': " and the reason in err.
 */
int engine_load(const struct engine_ops *ops, struct strbuf *err);
/* Whether ops owns option opt (its row's name). */
bool engine_has_option(const struct engine_ops *ops, const char *opt);
/*
 * The engine a job's worker drives: the one ioengine names, or with
 * io_submit_mode=offload that one wrapped by engine/offload.c (a pool of
 * submission threads calls it; ENGINE_F_OFFLOAD_SHARED and _OWN say
 * which engines can be). NULL when ioengine names none.
 */
const struct engine_ops *engine_for_plan(const struct job_plan *p);

/*
 * For a name fio knows but this build lacks: the whole message, e.g.
 * "ioengine 'io_uring' is not available in this build: install
 * liburing-dev and rebuild" or "ioengine 'mmap' is not supported"
 * (static storage, no location prefix), else NULL: the name is in the
 * table, or no fio engine has it.
 */
const char *engine_missing_hint(const char *name);

/*
 * --enghelp: engine_list() appends one line per engine of this build,
 * "\tNAME<spaces>HELP\n". engine_help() appends the engine's own
 * options, one "name : help" line each (the help of the option's row),
 * or a line saying it has none, and returns 0; for an engine this build
 * lacks it appends the error message (no newline: the missing hint or
 * "unknown ioengine 'x'") and returns -1. engine_help_option() appends
 * the line of one option of ops, or returns false when ops has no such
 * option.
 */
void engine_list(struct strbuf *out);
int engine_help(const char *name, struct strbuf *out);
bool engine_help_option(const struct engine_ops *ops, const char *opt,
			struct strbuf *out);

/*
 * Opens f->path with the plan's flags (O_DIRECT, O_SYNC/O_DSYNC, read-only
 * for jobs that only read). Shared by the file-based engines.
 */
int engine_open_fd(struct engine *e, struct engine_file *f,
		   struct strbuf *err);
int engine_close_fd(struct engine *e, struct engine_file *f);

/* Fills a sync-style completion from a syscall result. */
static inline void engine_io_result(struct io_u *u, long ret)
{
	if (ret < 0) {
		u->error = (int32_t)-ret;
		u->resid = u->len;
	} else {
		u->error = 0;
		u->resid = u->len - (uint32_t)ret;
	}
}

#endif
