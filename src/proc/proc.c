/* SPDX-License-Identifier: MIT */
/*
 * The job's process side: credentials, lockmem, cgroup, nice,
 * ioscheduler and the commands before and after a job (see proc.h).
 * Nothing here is on the I/O path: it runs when a job starts and ends.
 */
#include "proc/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "opt/opt.h"
#include "proc/mem.h"
#include "util/log.h"
#include "util/safefile.h"

extern char **environ;

/* --- what the jobs leave for the report and for the end of the run --- */

struct made_cgroup {
	char *path;
	bool keep;		/* some job that used it had cgroup_nodelete */
};

static pthread_mutex_t proc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct notes proc_notes;
static struct made_cgroup *made;
static unsigned int nr_made;

static void job_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void job_note(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&proc_lock);
	notes_add(&proc_notes, "%s", strbuf_str(&sb));
	pthread_mutex_unlock(&proc_lock);
	strbuf_release(&sb);
}

/* --- cgroups ------------------------------------------------------------ */

/*
 * The mount fio would use: the first cgroup v1 mount with the blkio
 * controller, or a cgroup2 mount if that comes first. 0 with the path in
 * dir (*v2 set for cgroup2), -ENOENT when there is neither.
 */
static int cgroup_mount(char *dir, size_t len, bool *v2)
{
	struct mntent ent, *m;
	char buf[4096];
	FILE *f = setmntent("/proc/self/mounts", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while ((m = getmntent_r(f, &ent, buf, sizeof(buf)))) {
		bool blkio = !strcmp(m->mnt_type, "cgroup") &&
			     hasmntopt(m, "blkio");

		if (!blkio && strcmp(m->mnt_type, "cgroup2"))
			continue;
		snprintf(dir, len, "%s", m->mnt_dir);
		*v2 = !blkio;
		ret = 0;
		break;
	}
	endmntent(f);
	return ret;
}

static int check_cgroup(const struct job_plan *p, struct strbuf *err)
{
	char dir[PATH_MAX];
	bool v2 = false;

	if (!p->o.cgroup)
		return 0;
	if (cgroup_mount(dir, sizeof(dir), &v2))
		return plan_fail(p, err, "option 'cgroup': no cgroup mount "
				 "with the blkio controller (mount -t cgroup "
				 "-o blkio none /sys/fs/cgroup/blkio)");
	if (v2)
		return plan_fail(p, err, "option 'cgroup': the cgroup mount "
				 "is cgroup v2 (%s), which moves whole "
				 "processes: iolite runs jobs as threads of one "
				 "process, and v2 takes threads only into "
				 "threaded cgroups, where the io controller "
				 "cannot be enabled", dir);
	if (access(dir, W_OK))
		return plan_fail(p, err, "option 'cgroup': cannot write to "
				 "the blkio mount %s: %s", dir,
				 strerror(errno));
	return 0;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/*
 * Makes the cgroup directory, or finds it: made by this run (by another
 * job) or there before (never removed). 0 or -errno.
 */
static int cgroup_mkdir(const char *path, bool keep)
{
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&proc_lock);
	for (i = 0; i < nr_made; i++)
		if (!strcmp(made[i].path, path))
			break;
	if (i < nr_made) {
		made[i].keep |= keep;
	} else if (!mkdir(path, 0755)) {
		made = xrealloc(made, (nr_made + 1) * sizeof(*made));
		made[nr_made].path = xstrdup(path);
		made[nr_made++].keep = keep;
	} else if (errno != EEXIST) {
		ret = -errno;
	}
	pthread_mutex_unlock(&proc_lock);
	return ret;
}

/* Joins the calling thread to the job's cgroup (fio's order: weight, then
 * the task). */
static int cgroup_join(const struct job_options *o, struct proc_job *pj,
		       struct strbuf *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], tid[32];
	bool v2 = false;
	int ret;

	if (cgroup_mount(dir, sizeof(dir), &v2) || v2) {
		strbuf_addstr(err, "option 'cgroup': the blkio cgroup mount "
			      "is gone");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, o->cgroup);
	ret = cgroup_mkdir(path, o->cgroup_nodelete);
	if (ret)
		goto fail;
	if (o->cgroup_weight) {
		char w[32];

		snprintf(w, sizeof(w), "%u", o->cgroup_weight);
		snprintf(path, sizeof(path), "%s/%s/blkio.weight", dir,
			 o->cgroup);
		if (access(path, F_OK))
			snprintf(path, sizeof(path), "%s/%s/blkio.bfq.weight",
				 dir, o->cgroup);
		ret = write_file(path, w);
		if (ret) {
			strbuf_addf(err, "option 'cgroup_weight': cannot "
				    "write %s to %s: %s", w, path,
				    strerror(-ret));
			return ret;
		}
	}
	snprintf(tid, sizeof(tid), "%d", (int)gettid());
	snprintf(path, sizeof(path), "%s/%s/tasks", dir, o->cgroup);
	ret = write_file(path, tid);
	if (ret)
		goto fail;
	snprintf(path, sizeof(path), "%s/tasks", dir);
	pj->cgroup_root = xstrdup(path);
	return 0;
fail:
	strbuf_addf(err, "option 'cgroup': %s: %s", path, strerror(-ret));
	return ret;
}

/* --- I/O schedulers ----------------------------------------------------- */

/* queue/scheduler of dev, or of its disk for a partition; 0 or -1. */
static int sched_path(dev_t dev, char *path, size_t len)
{
	snprintf(path, len, "/sys/dev/block/%u:%u/queue/scheduler",
		 major(dev), minor(dev));
	if (!access(path, F_OK))
		return 0;
	snprintf(path, len, "/sys/dev/block/%u:%u/../queue/scheduler",
		 major(dev), minor(dev));
	return access(path, F_OK) ? -1 : 0;
}

/* A line of a sysfs file, without the newline and trailing blanks. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	fclose(f);
	n = ret ? 0 : strcspn(buf, "\n");
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return ret;
}

/* The device's kernel name ("loop1", "vda1"), else "major:minor". */
static void dev_label(dev_t d, char *buf, size_t len)
{
	char link[64], real[PATH_MAX], *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(d),
		 minor(d));
	if (realpath(link, real) && (slash = strrchr(real, '/')) && slash[1])
		snprintf(buf, len, "%s", slash + 1);
	else
		snprintf(buf, len, "%u:%u", major(d), minor(d));
}

/* Whether the scheduler list offers name; *cur: it is the one in use. */
static bool sched_offers(const char *list, const char *name, bool *cur)
{
	size_t n = strlen(name);
	const char *s = list;

	*cur = false;
	while (*s) {
		size_t w;
		bool br = *s == '[';

		s += br;
		w = strcspn(s, " ]");
		if (w == n && !strncmp(s, name, n)) {
			*cur = br;
			return true;
		}
		s += w;
		s += strspn(s, " ]");
	}
	return false;
}

static int check_sched(const struct job_plan *p, const struct job_files *jf,
		       struct notes *out, struct strbuf *err)
{
	char path[128], list[512], name[64];
	unsigned int k;
	bool cur;

	if (!p->o.ioscheduler)
		return 0;
	if (!jf->nr_devs && !p->clone)
		notes_add(out, "job '%s': ioscheduler: no block device is "
			  "behind its files, nothing is switched", p->o.name);
	for (k = 0; k < jf->nr_devs; k++) {
		dev_t d = jf->devs[k];

		dev_label(d, name, sizeof(name));
		if (sched_path(d, path, sizeof(path)) ||
		    read_line(path, list, sizeof(list)))
			return plan_fail(p, err, "option 'ioscheduler': "
					 "device '%s' has no I/O scheduler to "
					 "switch", name);
		if (!sched_offers(list, p->o.ioscheduler, &cur))
			return plan_fail(p, err, "option 'ioscheduler': "
					 "device '%s' offers %s, not '%s'",
					 name, list, p->o.ioscheduler);
		if (access(path, W_OK))
			return plan_fail(p, err, "option 'ioscheduler': "
					 "cannot write %s: %s", path,
					 strerror(errno));
	}
	return 0;
}

static int switch_sched(const struct job_options *o,
			const struct job_files *jf, struct strbuf *err)
{
	char path[128], list[512];
	unsigned int k;
	bool cur;
	int ret;

	for (k = 0; k < jf->nr_devs; k++) {
		if (sched_path(jf->devs[k], path, sizeof(path)))
			continue;
		ret = write_file(path, o->ioscheduler);
		if (!ret)
			ret = read_line(path, list, sizeof(list));
		if (!ret && (!sched_offers(list, o->ioscheduler, &cur) || !cur))
			ret = -EINVAL;
		if (ret) {
			strbuf_addf(err, "option 'ioscheduler': cannot switch "
				    "%s to '%s': %s", path, o->ioscheduler,
				    strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* --- lockmem -------------------------------------------------------------- */

static int pin_memory(const struct job_options *o, struct proc_job *pj,
		      struct strbuf *err)
{
	uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) *
			(uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t len = o->lockmem, keep = 128ull << 20;
	struct rlimit rl;
	void *m;

	/* fio leaves the system 128 MiB */
	if (phys > keep && len > phys - keep) {
		len = phys - keep;
		job_note("job '%s': lockmem limited to %llu MiB (the physical "
			 "memory less 128 MiB, as fio)", o->name,
			 (unsigned long long)(len >> 20));
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		int e = errno;

		strbuf_addf(err, "option 'lockmem': cannot map %llu bytes: %s",
			    (unsigned long long)len, strerror(e));
		return -e;
	}
	if (mlock(m, len)) {
		int e = errno;

		munmap(m, len);
		strbuf_addf(err, "option 'lockmem': cannot lock %llu bytes: "
			    "%s", (unsigned long long)len, strerror(e));
		if ((e == ENOMEM || e == EPERM) &&
		    !getrlimit(RLIMIT_MEMLOCK, &rl) &&
		    rl.rlim_cur != RLIM_INFINITY)
			strbuf_addf(err, " (RLIMIT_MEMLOCK is %llu bytes)",
				    (unsigned long long)rl.rlim_cur);
		return -e;
	}
	pj->pinned = m;
	pj->pinned_len = len;
	return 0;
}

/* --- the job's commands ---------------------------------------------------- */

/*
 * Runs "/bin/sh -c cmd" with its output in NAME.WHAT.txt and waits for
 * it. The job's thread blocks the run's signals; the command gets none
 * blocked and the default actions. Returns 0 with the wait status in
 * *status, or -1 with the reason in err.
 */
static int run_cmd(const struct job_options *o, const char *cmd,
		   const char *what, char *out, size_t outlen, int *status,
		   struct strbuf *err)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1, SIGQUIT,
				    SIGPIPE, SIGCHLD };
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	const char *why;
	sigset_t none, def;
	pid_t pid;
	size_t i;
	int ret, fd;

	snprintf(out, outlen, "%s.%s.txt", o->name, what);
	/* the output's name is iolite's own: never through a symlink */
	fd = sf_open(out, O_WRONLY, 0666, SF_CREATE | SF_TRUNC, &why);
	if (fd < 0) {
		strbuf_addf(err, "option 'exec_%s': cannot create %s: %s", what,
			    out, why);
		return -1;
	}
	sigemptyset(&none);
	sigemptyset(&def);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&def, sigs[i]);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	ret = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	if (ret) {
		strbuf_addf(err, "option 'exec_%s': cannot run '%s': %s", what,
			    cmd, strerror(ret));
		return -1;
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			strbuf_addf(err, "option 'exec_%s': waiting for '%s': "
				    "%s", what, cmd, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* "exited with status 3" / "was killed by signal 9"; "" for success. */
static const char *cmd_failure(int status, char *buf, size_t len)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return "";
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "ended with wait status %d", status);
	return buf;
}

int proc_job_prerun(const struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	char out[PATH_MAX], why[64];
	const char *fail;
	int status;

	if (!o->exec_prerun)
		return 0;
	if (run_cmd(o, o->exec_prerun, "prerun", out, sizeof(out), &status,
		    err))
		return -1;
	fail = cmd_failure(status, why, sizeof(why));
	if (*fail) {
		strbuf_addf(err, "exec_prerun '%s' %s (its output is in %s)",
			    o->exec_prerun, fail, out);
		return -1;
	}
	job_note("job '%s': the output of exec_prerun is in %s", o->name, out);
	return 0;
}

static void postrun(const struct job_options *o)
{
	struct strbuf err = STRBUF_INIT;
	char out[PATH_MAX], why[64];
	const char *fail;
	int status;

	if (run_cmd(o, o->exec_postrun, "postrun", out, sizeof(out), &status,
		    &err)) {
		job_note("job '%s': %s", o->name, strbuf_str(&err));
		strbuf_release(&err);
		return;
	}
	fail = cmd_failure(status, why, sizeof(why));
	if (*fail)
		job_note("job '%s': exec_postrun '%s' %s (its output is in %s)",
			 o->name, o->exec_postrun, fail, out);
	else
		job_note("job '%s': the output of exec_postrun is in %s",
			 o->name, out);
}

/* --- the job's thread ------------------------------------------------------ */

static int set_creds(const struct job_options *o, struct strbuf *err)
{
	int e;

	/* the raw calls: glibc's setresuid() would change every thread */
	if (opt_is_set(o, "gid") &&
	    syscall(SYS_setresgid, o->gid, o->gid, o->gid)) {
		e = errno;
		strbuf_addf(err, "option 'gid': cannot switch to group %u: %s",
			    o->gid, strerror(e));
		return -e;
	}
	if (opt_is_set(o, "uid") &&
	    syscall(SYS_setresuid, o->uid, o->uid, o->uid)) {
		e = errno;
		strbuf_addf(err, "option 'uid': cannot switch to user %u: %s",
			    o->uid, strerror(e));
		return -e;
	}
	return 0;
}

int proc_job_begin(const struct job_plan *p, const struct job_files *jf,
		   struct proc_job *pj, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	int ret;

	memset(pj, 0, sizeof(*pj));
	if ((ret = set_creds(o, err)))
		return ret;
	if (o->lockmem && (ret = pin_memory(o, pj, err)))
		return ret;
	if (o->cgroup && (ret = cgroup_join(o, pj, err)))
		return ret;
	if (o->nice) {
		errno = 0;
		if (nice(o->nice) == -1 && errno) {
			ret = -errno;
			strbuf_addf(err, "option 'nice': cannot add %d: %s",
				    o->nice, strerror(-ret));
			return ret;
		}
	}
	if (o->ioscheduler && (ret = switch_sched(o, jf, err)))
		return ret;
	return 0;
}

void proc_job_end(const struct job_plan *p, struct proc_job *pj, int run)
{
	char tid[32];

	if (run && p->o.exec_postrun)
		postrun(&p->o);
	if (pj->pinned) {
		munlock(pj->pinned, pj->pinned_len);
		munmap(pj->pinned, pj->pinned_len);
		pj->pinned = NULL;
	}
	if (pj->cgroup_root) {
		/* back to the root, so that the cgroup can go; after a uid
		 * switch this fails, and the thread's exit does it */
		snprintf(tid, sizeof(tid), "%d", (int)gettid());
		write_file(pj->cgroup_root, tid);
		free(pj->cgroup_root);
		pj->cgroup_root = NULL;
	}
}

/* --- before and after the run ---------------------------------------------- */

int proc_check(const struct job_plan *plans, const struct job_files *files,
	       unsigned int nr, struct notes *out, struct strbuf *err)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (check_cgroup(&plans[i], err) ||
		    check_sched(&plans[i], &files[i], out, err) ||
		    iomem_check(&plans[i], err))
			return -1;
	return 0;
}

/* rmdir, waiting a little for exiting threads to leave the cgroup. */
static int remove_cgroup(const char *path)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int tries;

	for (tries = 0; tries < 50; tries++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return -errno;
}

void proc_finish(struct notes *out)
{
	unsigned int i;
	int ret;

	pthread_mutex_lock(&proc_lock);
	for (i = nr_made; i-- > 0;) {
		if (!made[i].keep && (ret = remove_cgroup(made[i].path)))
			notes_add(out, "cgroup %s could not be removed: %s",
				  made[i].path, strerror(-ret));
		free(made[i].path);
	}
	free(made);
	made = NULL;
	nr_made = 0;
	for (i = 0; i < proc_notes.nr; i++)
		notes_add(out, "%s", proc_notes.v[i]);
	notes_release(&proc_notes);
	pthread_mutex_unlock(&proc_lock);
}

void proc_notes_options(const struct job_plan *plans, unsigned int nr,
			struct notes *out)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct job_options *o = &plans[i].o;

		if (plans[i].clone)
			continue;
		if (opt_is_set(o, "gtod_cpu"))
			notes_add(out, "job '%s': option 'gtod_cpu' changes "
				  "nothing: iolite has no time-keeping thread "
				  "(each job reads its clock itself, a few "
				  "times per batch)", o->name);
		if (o->write_barrier)
			notes_add(out, "job '%s': option 'write_barrier' "
				  "changes nothing: Linux has no barrier "
				  "writes (in fio 3.33 as here)", o->name);
		if (!o->cgroup && (o->cgroup_weight || o->cgroup_nodelete))
			notes_add(out, "job '%s': option '%s' changes nothing "
				  "without cgroup (in fio as here)", o->name,
				  o->cgroup_weight ? "cgroup_weight" :
				  "cgroup_nodelete");
		if (opt_is_set(o, "log_alternate_epoch_clock_id") &&
		    !o->log_unix_epoch && !o->log_alternate_epoch)
			notes_add(out, "job '%s': option "
				  "'log_alternate_epoch_clock_id' changes "
				  "nothing without log_unix_epoch or "
				  "log_alternate_epoch (in fio as here)",
				  o->name);
	}
}
