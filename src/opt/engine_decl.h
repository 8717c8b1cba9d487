/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_ENGINE_DECL_H
#define IOLITE_OPT_ENGINE_DECL_H

#include <stdbool.h>

#include "util/strbuf.h"

struct job_plan;

/*
 * What an engine declares about itself in its ops table (engine/engine.h's
 * struct engine_ops: flags, the options it owns, its plan rule), as the
 * option checks ask it. opt/ sits below engine/ (an engine reads the
 * plan) and never includes it: engine/engine.c answers the calls below
 * from its table, which stays the one place that says which engine does
 * what. An engine a build lacks (libaio, io_uring without their library)
 * still answers: its options stay its own, and ioengine= refuses it with
 * the package to install (engine_missing_hint()).
 */

enum engine_flags {
	ENGINE_F_SYNC = 1,	/* queue() always completes inline */
	ENGINE_F_NOFILEIO = 2,	/* no real files (null) */
	ENGINE_F_NEEDS_DEPTH1 = 4, /* depth > 1 makes no sense */
	ENGINE_F_INLINE_DEPTH1 = 8, /* at depth 1, queue() always completes */
	ENGINE_F_NO_ODIRECT = 16, /* never opens with O_DIRECT (mmap engines:
				  * direct= has another meaning or none), so
				  * files need no O_DIRECT support */
	/*
	 * The operation measured is open_file's: a create, stat, unlink,
	 * mkdir or rmdir of the file (filecreate ... dirdelete, fio's
	 * FIO_FAKEIO | FIO_NOSTATS). queue() does nothing; the I/Os are
	 * counted with their bytes but carry no latency. The engine times
	 * each open_file and hands the durations out through take_lat();
	 * the worker adds them to the completion latencies of the job's
	 * first direction (read when it reads, else write), unless
	 * disable_lat. Every pass over the files opens them again (fio).
	 */
	ENGINE_F_FILE_OP = 32,
	/*
	 * The engine makes its files itself (filecreate, dircreate,
	 * dirstat, dirdelete): files.c checks the directory and names the
	 * files but neither looks at nor creates them.
	 */
	ENGINE_F_NOLAYOUT = 64,
	/*
	 * No I/O at all (cpuio, exec; fio's FIO_NOIO): no files, every I/O
	 * is counted with no bytes (queue() sets u->len to 0), the job runs
	 * until its runtime, and it does not count as an I/O job for
	 * exit_on_io_done.
	 */
	ENGINE_F_NOIO = 128,
	/*
	 * The engine maps its files (mmap, dev-dax, libpmem): a file is
	 * laid out with written data whatever the job does, as fio lays
	 * them out, so it has its size before it is mapped; the pitfall
	 * notes take it for a target at memory speed.
	 */
	ENGINE_F_MAPS = 256,
	/*
	 * The engine moves no data (null; fio's FIO_FAKEIO): a verify job's
	 * read-backs are issued and counted but not checked, as in fio.
	 */
	ENGINE_F_FAKEIO = 512,
	/*
	 * One of fio's synchronous engines that still queues (vsync, to
	 * gather adjacent I/Os): no submission latency, in the JSON or
	 * the slat log, at any depth, as fio records none for them.
	 */
	ENGINE_F_NOSLAT = 1024,
	/*
	 * The engine gives each I/O the job's RWF_* flags
	 * (engine/rwflags.h: pvsync2, io_uring, libaio), so it can write
	 * with atomic=1 (RWF_ATOMIC).
	 */
	ENGINE_F_RWFLAGS = 2048,
	/*
	 * io_submit_mode=offload can wrap the engine (engine/offload.c):
	 * OFFLOAD_SHARED, one instance for every submission thread (it
	 * completes inline and keeps no state between calls: psync,
	 * pvsync, pvsync2, null), or OFFLOAD_OWN, one instance per thread,
	 * each doing one I/O at a time (a queueing engine: libaio,
	 * io_uring, posixaio). Neither: offload refuses it.
	 */
	ENGINE_F_OFFLOAD_SHARED = 4096,
	ENGINE_F_OFFLOAD_OWN = 8192,
	/*
	 * Blocking I/O may go to the kernel's io-wq workers (io_uring): the
	 * sampler follows their CPU time for the job (run/iowq.c).
	 */
	ENGINE_F_IOWQ = 16384,
	/*
	 * Each job has an io_uring ring of its own (io_uring): at most
	 * URING_MAX_ENTRIES entries, memory locked against RLIMIT_MEMLOCK
	 * (target/limits.c), and hipri makes it a polled ring
	 * (IORING_SETUP_IOPOLL), which completes O_DIRECT I/O only.
	 */
	ENGINE_F_URING = 32768,
	/*
	 * Each job asks io_setup() for an AIO context of iodepth events
	 * (libaio), counted against fs.aio-max-nr (target/limits.c).
	 */
	ENGINE_F_AIO_CTX = 65536,
	/*
	 * Works on NVMe namespaces' generic character devices only
	 * (io_uring_cmd): files_resolve() refuses any other target, before
	 * anything is created, and sizes it from Identify Namespace.
	 */
	ENGINE_F_NVME_CHAR = 131072,
	/*
	 * A trim of several ranges is one command (io_uring_cmd's Dataset
	 * Management): num_range above 1 (fio 3.42's FIO_MULTI_RANGE_TRIM).
	 * queue() finds the ranges in the trim's buffer (io/io_u.h).
	 */
	ENGINE_F_MULTI_TRIM = 262144,
	/*
	 * The files are a server's (nfs): files.c names them and sizes
	 * their regions from the options, as for null, but looks at
	 * nothing local, directory= included (a directory on the
	 * server); the worker opens and closes them through the engine
	 * as any files, whose fd is not a local descriptor.
	 */
	ENGINE_F_REMOTE = 524288,
};

/* Whether iolite has an engine of that name (fio's names and aliases). */
bool engine_decl_known(const char *name);

/*
 * The flags of the engine named name ("aio" is libaio's), or 0 when
 * iolite has no engine of that name.
 */
unsigned int engine_decl_flags(const char *name);

/* Whether engine name owns option opt (its row's name, not an alias). */
bool engine_decl_has(const char *name, const char *opt);

/*
 * Appends the names of the engines, in the table's order, that own
 * option opt, or with opt NULL that have one of flags: "a, b, c", or
 * with last "a, b or c". Returns how many it named.
 */
unsigned int engine_decl_names(const char *opt, unsigned int flags,
			       const char *last, struct strbuf *out);

/*
 * The rule of the job's engine (p->o.ioengine) on its plan, for
 * plan_build(): 0 when it has none, else its result (-1 with the
 * message in err).
 */
int engine_decl_plan_check(struct job_plan *p, struct strbuf *err);

#endif
