/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PROC_PROC_H
#define IOLITE_PROC_PROC_H

#include <stddef.h>

#include "opt/plan.h"
#include "target/files.h"
#include "util/notes.h"
#include "util/strbuf.h"

/*
 * The job's process side, fio's uid, gid, nice, cgroup, cgroup_weight,
 * cgroup_nodelete, ioscheduler, lockmem, exec_prerun and exec_postrun.
 *
 * fio forks a process per job; iolite runs a job as a thread, and does
 * to that thread what fio does to its process, in fio's order:
 *  - credentials: setresgid then setresuid, the raw system calls, which
 *    on Linux change the calling thread only (glibc's wrappers would
 *    change every thread of the process: the reporter, the log writers
 *    and the other jobs). Supplementary groups are kept, as fio keeps
 *    them. Threads the job starts later (offload, io_uring's workers)
 *    and its commands inherit them;
 *  - lockmem: an anonymous mapping of that size, mlock(2)ed until the
 *    job ends (limited to the physical memory less 128 MiB, as fio);
 *  - cgroup: the blkio controller's cgroup v1 mount (the first cgroup
 *    mount with blkio, as fio looks for it): the directory is made when
 *    missing, the weight written (blkio.weight, or blkio.bfq.weight on
 *    kernels without the former, where fio 3.33 fails), and the thread's
 *    id written to its tasks file (v1 moves one thread). cgroup v2 moves
 *    a whole process (threads only inside a threaded subtree, where the
 *    io controller cannot be): refused before the run, with that reason;
 *  - nice: added to the thread's value (Linux keeps one per thread);
 *  - ioscheduler: written to each device's queue/scheduler and read back
 *    (not restored afterwards, as fio does not);
 *  - exec_prerun after the job's files are open, exec_postrun after its
 *    I/O: "/bin/sh -c CMD" with stdout and stderr in NAME.prerun.txt /
 *    NAME.postrun.txt of the current directory, the job's thread waiting.
 *    A prerun that fails fails the job (fio silently skips its I/O);
 *    a postrun that fails is a note.
 * proc_check() checks before anything runs what can be checked.
 */

/* What a job holds while it runs (a worker_main() local). */
struct proc_job {
	void *pinned;		/* lockmem's mapping, or NULL */
	size_t pinned_len;
	char *cgroup_root;	/* joined: the mount's tasks file, else NULL */
};

/*
 * Before the run, after files_resolve() (nothing is changed): the blkio
 * mount for cgroup (and write access to it), the I/O schedulers the
 * jobs' devices offer and whether their files can be written, the
 * memory options (proc/mem.h). Notes for what changes nothing go to out.
 * Returns 0, or -1 with "file:line: option 'x': ..." in err.
 */
int proc_check(const struct job_plan *plans, const struct job_files *files,
	       unsigned int nr, struct notes *out, struct strbuf *err);

/*
 * In the job's thread, before it sets up its engine, buffers and files:
 * credentials, lockmem, cgroup, nice, ioscheduler. Returns 0, or
 * -errno with the reason in err (pj is then still to be ended).
 */
int proc_job_begin(const struct job_plan *p, const struct job_files *jf,
		   struct proc_job *pj, struct strbuf *err);
/* exec_prerun, once the files are open. 0, or -1 with the reason. */
int proc_job_prerun(const struct job_plan *p, struct strbuf *err);
/* exec_postrun (when run is set: the job ran), then lockmem, cgroup. */
void proc_job_end(const struct job_plan *p, struct proc_job *pj, int run);

/*
 * After the run: removes the cgroups the run made (unless
 * cgroup_nodelete) and hands over the notes the jobs left (commands'
 * output files, a postrun that failed, cgroups left behind).
 */
void proc_finish(struct notes *out);

/*
 * Notes about options that change nothing (gtod_cpu, write_barrier,
 * cgroup_weight without cgroup ...), as checks_options() gives them.
 */
void proc_notes_options(const struct job_plan *plans, unsigned int nr,
			struct notes *out);

#endif
