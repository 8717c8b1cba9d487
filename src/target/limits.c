/* SPDX-License-Identifier: MIT */
/* What the kernel would refuse once the jobs start: see limits.h. */
#include "target/limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <linux/capability.h>

#include "engine/engine.h"
#include "util/numfmt.h"

#define FDS_PER_JOB 4u		/* ring, eventfd, write_iolog... */
#define FDS_BASE 16u		/* stdio, output, /proc reads; not logs */
#define URING_MAX_ENTRIES 32768u

__attribute__((format(printf, 4, 5)))
static int refuse(struct strbuf *err, const struct job_plan *p,
		  const char *opt, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(err, "%s:%d: option '%s': ", p->src_file, p->src_line,
		    opt);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* The job's engine takes the kernel resource flag says (not offloaded). */
static bool engine_takes(const struct job_plan *p, unsigned int flag)
{
	const struct engine_ops *ops = engine_find(p->o.ioengine);

	return ops && (ops->flags & flag) &&
	       p->o.io_submit_mode != IO_SUBMIT_OFFLOAD;
}

/* The end of the stonewall group that starts at i. */
static unsigned int group_end(const struct job_plan *plans, unsigned int nr,
			      unsigned int i)
{
	unsigned int j = i + 1;

	while (j < nr && plans[j].groupid == plans[i].groupid)
		j++;
	return j;
}

unsigned long long limits_read_ull(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

bool limits_has_cap(unsigned int bit)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps & (1ULL << bit);
}

/* ---- file descriptors ---- */

/* The files job p keeps open at once. */
static uint64_t job_files(const struct job_plan *p, const struct job_files *jf)
{
	const struct engine_ops *ops = engine_find(p->o.ioengine);
	uint64_t n = jf->nr_files;

	if (ops && (ops->flags & (ENGINE_F_NOFILEIO | ENGINE_F_REMOTE)))
		n = 0;
	else if (p->o.openfiles && p->o.openfiles < n)
		n = p->o.openfiles;
	return n;
}

/*
 * The stonewall group that needs the most descriptors at once: the
 * total, with the log files (the whole run's), its jobs' files and how
 * many jobs it runs (FDS_PER_JOB each).
 */
struct fd_need {
	uint64_t total, files, jobs;
	unsigned int first;	/* the group's first job */
	unsigned int most;	/* its job with the most files */
};

static void worst_group(const struct job_plan *plans, unsigned int nr,
			const struct job_files *jf, unsigned int log_files,
			struct fd_need *w)
{
	unsigned int i, j, end;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < nr; i = end) {
		uint64_t files = 0, most = 0, total;
		unsigned int big = i;

		end = group_end(plans, nr, i);
		for (j = i; j < end; j++) {
			uint64_t n = job_files(&plans[j], &jf[j]);

			files += n;
			if (n > most) {
				most = n;
				big = j;
			}
		}
		total = FDS_BASE + log_files + files +
			(uint64_t)(end - i) * FDS_PER_JOB;
		if (total <= w->total)
			continue;
		w->total = total;
		w->files = files;
		w->jobs = end - i;
		w->first = i;
		w->most = big;
	}
}

/*
 * The part that weighs most is named: the log files (all open for the
 * whole run), the jobs themselves (a few descriptors each, many jobs),
 * or their files (nrfiles, filename, openfiles).
 */
static int fds_refused(const struct job_plan *plans, const struct job_files *jf,
		       const struct limits_logs *logs, const struct fd_need *w,
		       uint64_t limit, struct strbuf *err)
{
	const struct job_plan *p = &plans[w->most];
	const struct job_plan *g = &plans[w->first];
	unsigned long long total = w->total, lim = limit;

	if (logs->nr_files >= w->files &&
	    logs->nr_files >= w->jobs * FDS_PER_JOB)
		return refuse(err, &plans[logs->job], logs->opt, "the run "
			      "keeps its %u log files open from start to end: "
			      "with the jobs running together that is about "
			      "%llu file descriptors, more than the %llu "
			      "RLIMIT_NOFILE allows (ulimit -n): raise the "
			      "limit or log fewer jobs", logs->nr_files, total,
			      lim);
	if (w->jobs * FDS_PER_JOB > w->files) {
		strbuf_addf(err, "%s:%d: ", g->src_file, g->src_line);
		if (g->o.numjobs > 1)
			strbuf_addstr(err, "option 'numjobs': ");
		strbuf_addf(err, "%llu jobs running together need about %llu "
			    "file descriptors (a few each besides their "
			    "files), more than the %llu RLIMIT_NOFILE allows "
			    "(ulimit -n): raise the limit or run fewer at once "
			    "(stonewall)", (unsigned long long)w->jobs, total,
			    lim);
		return -1;
	}
	return refuse(err, p, p->o.openfiles ? "openfiles" :
		      p->o.filename ? "filename" : "nrfiles",
		      "the jobs running together keep about %llu files open "
		      "at once (this one %llu), more than the %llu file "
		      "descriptors RLIMIT_NOFILE allows (ulimit -n): set "
		      "openfiles= lower or raise the limit", total,
		      (unsigned long long)job_files(p, &jf[w->most]), lim);
}

/*
 * fio lowers openfiles as it goes and says "try reducing/setting
 * openfiles" on every EMFILE; here the soft limit is raised when the
 * hard one allows, else the run is refused before it starts.
 */
int limits_check_fds(const struct job_plan *plans, unsigned int nr,
		     const struct job_files *jf, const struct limits_logs *logs,
		     struct strbuf *err)
{
	struct fd_need w;
	struct rlimit rl;

	worst_group(plans, nr, jf, logs->nr_files, &w);
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    w.total <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || w.total <= rl.rlim_max) {
		rl.rlim_cur = w.total;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	return fds_refused(plans, jf, logs, &w, rl.rlim_max, err);
}

/* ---- libaio: fs.aio-max-nr ---- */

static int check_aio(const struct job_plan *plans, unsigned int nr,
		     struct strbuf *err)
{
	unsigned long long max = limits_read_ull("/proc/sys/fs/aio-max-nr");
	unsigned long long used = limits_read_ull("/proc/sys/fs/aio-nr");
	unsigned long long left = max > used ? max - used : 0;
	unsigned int i, j, end;

	if (!max)
		return 0;	/* cannot tell: io_setup() will */
	for (i = 0; i < nr; i = end) {
		unsigned long long need = 0;
		unsigned int big = i, n = 0;

		end = group_end(plans, nr, i);
		for (j = i; j < end; j++) {
			if (!engine_takes(&plans[j], ENGINE_F_AIO_CTX))
				continue;
			/* io_setup(iodepth): the kernel counts what is asked */
			need += plans[j].o.iodepth;
			n++;
			if (plans[j].o.iodepth > plans[big].o.iodepth ||
			    !engine_takes(&plans[big], ENGINE_F_AIO_CTX))
				big = j;
		}
		if (need <= left)
			continue;
		if (n == 1)
			return refuse(err, &plans[big], "iodepth", "libaio "
				      "needs %llu AIO events (io_setup), more "
				      "than the %llu fs.aio-max-nr leaves (%llu "
				      "in use of %llu): lower iodepth or raise "
				      "/proc/sys/fs/aio-max-nr", need, left,
				      used, max);
		return refuse(err, &plans[big], "iodepth", "the %u libaio jobs "
			      "running together need %llu AIO events "
			      "(io_setup, iodepth %u here), more than the %llu "
			      "fs.aio-max-nr leaves (%llu in use of %llu): lower "
			      "iodepth or numjobs, or raise "
			      "/proc/sys/fs/aio-max-nr", n, need,
			      plans[big].o.iodepth, left, used, max);
	}
	return 0;
}

/* ---- io_uring: ring size, RLIMIT_MEMLOCK ---- */

/* Before 5.12 a ring's own memory counts against RLIMIT_MEMLOCK. */
static bool rings_locked(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major < 5 || (major == 5 && minor < 12);
}

static uint64_t pow2_up(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* Locked memory one io_uring job takes: its ring (old kernels), buffers. */
static uint64_t uring_locked(const struct job_plan *p, bool ring)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t entries = pow2_up(p->o.iodepth), bytes = 0;

	if (ring)	/* SQ array + SQEs, a CQ twice the size, in pages */
		bytes += (entries * 4 + page - 1) / page * page +
			 (entries * 64 + page - 1) / page * page +
			 (2 * entries * 16 + page - 1) / page * page;
	if (p->o.fixedbufs)
		bytes += ((uint64_t)p->o.iodepth + 1) *
			 ((plan_buf_bs(p) + page - 1) / page * page);
	return bytes;
}

static int check_uring(const struct job_plan *plans, unsigned int nr,
		       struct strbuf *err)
{
	bool ring = rings_locked(), capped = !limits_has_cap(CAP_IPC_LOCK);
	unsigned int i, j, end;
	struct rlimit rl;

	for (i = 0; i < nr; i++)
		if (engine_takes(&plans[i], ENGINE_F_URING) &&
		    plans[i].o.iodepth > URING_MAX_ENTRIES)
			return refuse(err, &plans[i], "iodepth", "%u: an "
				      "io_uring ring holds at most %u entries",
				      plans[i].o.iodepth, URING_MAX_ENTRIES);
	if (!capped || getrlimit(RLIMIT_MEMLOCK, &rl) ||
	    rl.rlim_cur == RLIM_INFINITY)
		return 0;
	for (i = 0; i < nr; i = end) {
		uint64_t need = 0;
		unsigned int big = nr;

		end = group_end(plans, nr, i);
		for (j = i; j < end; j++) {
			if (!engine_takes(&plans[j], ENGINE_F_URING))
				continue;
			need += uring_locked(&plans[j], ring);
			if (big == nr || uring_locked(&plans[j], ring) >
					 uring_locked(&plans[big], ring))
				big = j;
		}
		if (need > rl.rlim_cur) {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

			numfmt(&a, need, 4, true, NUMFMT_BYTE);
			numfmt(&b, rl.rlim_cur, 4, true, NUMFMT_BYTE);
			refuse(err, &plans[big], plans[big].o.fixedbufs ?
			       "fixedbufs" : "iodepth", "the io_uring jobs "
			       "running together lock %s of memory (%s), more "
			       "than RLIMIT_MEMLOCK allows (%s, ulimit -l) "
			       "without CAP_IPC_LOCK", strbuf_str(&a),
			       ring && plans[big].o.fixedbufs ?
			       "rings and registered buffers" : ring ?
			       "rings, before Linux 5.12" :
			       "registered buffers", strbuf_str(&b));
			strbuf_release(&a);
			strbuf_release(&b);
			return -1;
		}
	}
	return 0;
}

int limits_check(const struct job_plan *plans, unsigned int nr,
		 struct strbuf *err)
{
	if (check_aio(plans, nr, err) || check_uring(plans, nr, err))
		return -1;
	return 0;
}
