/* SPDX-License-Identifier: MIT */
/*
 * I/O priorities at run time: the capability check, the job thread's
 * priority and the notes on targets that ignore priorities (see prio.h).
 */
#include "proc/prio.h"

#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <linux/ioprio.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/engine.h"
#include "opt/prio_opts.h"
#include "util/debug.h"

/* --- capabilities --------------------------------------------------------- */

static bool cap_effective(unsigned int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

/*
 * Whether this kernel takes priority hints (Linux 6.10+; before, a
 * value with one is EINVAL): set a best-effort value with a hint on
 * this thread, then put its own back.
 */
static bool kernel_takes_hints(void)
{
	long old = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
	int v = PRIO_CLASS_BE << PRIO_CLASS_SHIFT | 1 << PRIO_HINT_SHIFT | 4;

	if (old < 0 || syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, v))
		return false;
	syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)old);
	return true;
}

/* fio 3.42 leaves the refusal to the kernel, I/O by I/O: here, before */
static int check_hints(const struct job_plan *plans, unsigned int nr,
		       struct strbuf *err)
{
	const char *opt;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = &plans[i];

		if (!(opt = prio_plan_hint_opt(p)) || kernel_takes_hints())
			continue;
		strbuf_addf(err, "%s:%d: option '%s': this kernel does not "
			    "take I/O priority hints (Linux 6.10 or later "
			    "does; ioprio_set refused one: EINVAL)",
			    p->src_file, p->src_line, opt);
		return -1;
	}
	return 0;
}

int prio_check_caps(const struct job_plan *plans, unsigned int nr,
		    struct strbuf *err)
{
	const char *opt = NULL;
	unsigned int i;

	if (check_hints(plans, nr, err))
		return -1;
	for (i = 0; i < nr; i++) {
		const struct job_plan *p = &plans[i];

		if (!prio_plan_uses_rt(p, &opt) ||
		    cap_effective(CAP_SYS_NICE) || cap_effective(CAP_SYS_ADMIN))
			continue;
		strbuf_addf(err, "%s:%d: option '%s': the real-time I/O priority "
			    "class (1%s) needs CAP_SYS_NICE or CAP_SYS_ADMIN, "
			    "which this process lacks (the kernel would refuse "
			    "every such I/O with EPERM): run as root, or use "
			    "class 2 (best effort)", p->src_file, p->src_line,
			    opt, strcmp(opt, "cmdprio_percentage") ? "" :
			    ", cmdprio_class's default");
		return -1;
	}
	return 0;
}

/* --- the job's thread ----------------------------------------------------- */

int prio_place_thread(const struct job_plan *p, struct strbuf *err)
{
	const struct prio_plan *pp = p->prio;
	pid_t tid = gettid();
	long got;

	if (!pp || !pp->thread)
		return 0;
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, tid, (int)pp->def)) {
		int e = errno;

		strbuf_addf(err, "ioprio_set(class %u, level %u, hint %u): %s",
			    prio_class_of(pp->def), prio_level_of(pp->def),
			    prio_hint_of(pp->def), strerror(e));
		return -e;
	}
	got = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, tid);
	dbg(DBG_PROCESS, "job '%s' thread %d: ioprio_set 0x%04x (class %u, level %u), ioprio_get 0x%04lx",
	    p->o.name, (int)tid, pp->def, prio_class_of(pp->def),
	    prio_level_of(pp->def), got);
	return 0;
}

/* --- notes ---------------------------------------------------------------- */

static const char *sysfs_root(void)
{
	const char *r = getenv("IOLITE_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

/*
 * The active scheduler of the queue behind dev ("none", "mq-deadline"
 * ...) into buf and the disk's name into name; false when sysfs does
 * not say (a partition's queue is its disk's).
 */
static bool dev_scheduler(dev_t dev, char *buf, size_t len, char *name,
			  size_t nlen)
{
	static const char *const where[] = { "queue", "../queue" };
	char path[512], line[256], *l, *r;
	FILE *f = NULL;
	size_t k;
	ssize_t n;

	for (k = 0; k < 2 && !f; k++) {
		snprintf(path, sizeof(path), "%s/dev/block/%u:%u/%s/scheduler",
			 sysfs_root(), major(dev), minor(dev), where[k]);
		f = fopen(path, "r");
	}
	if (!f)
		return false;
	l = fgets(line, sizeof(line), f);
	fclose(f);
	if (!l)
		return false;
	/* "[none] mq-deadline kyber bfq", or a queue without choice: "none" */
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		l++;
	} else {
		l = line;
		l[strcspn(l, " \n")] = '\0';
	}
	snprintf(buf, len, "%.*s", (int)(len - 1), l);
	/* the disk's name: the link target's last component */
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs_root(),
		 major(dev), minor(dev));
	n = readlink(path, line, sizeof(line) - 1);
	if (n > 0) {
		line[n] = '\0';
		l = strrchr(line, '/');
		snprintf(name, nlen, "%.*s", (int)(nlen - 1), l ? l + 1 : line);
	} else {
		snprintf(name, nlen, "%u:%u", major(dev), minor(dev));
	}
	return true;
}

/* Whether the device is stacked (dm, md): the devices below decide. */
static bool dev_stacked(dev_t dev)
{
	char path[512];
	struct dirent *e;
	bool any = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/slaves",
		 sysfs_root(), major(dev), minor(dev));
	d = opendir(path);
	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

/* stat and statfs of the path, or of its directory while it is not made */
static int target_stat(const char *path, struct stat *st, struct statfs *sf)
{
	char *dir;
	int ret;

	if (!stat(path, st))
		return statfs(path, sf);
	dir = xstrdup(path);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	else
		strcpy(dir, ".");
	ret = stat(*dir ? dir : "/", st) || statfs(*dir ? dir : "/", sf);
	free(dir);
	return ret ? -1 : 0;
}

/* A note when the target ignores priorities; true when it may not. */
static bool note_file(const struct job_plan *p, const char *path,
		      struct notes *out)
{
	char sched[256], name[256];
	struct statfs sf;
	struct stat st;
	dev_t dev;

	if (target_stat(path, &st, &sf))
		return false;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!S_ISBLK(st.st_mode) && sf.f_type == TMPFS_MAGIC) {
		notes_add(out, "job '%s': I/O priorities have no effect on '%s': "
			  "it is on tmpfs, with no block device or I/O "
			  "scheduler to order requests by them", p->o.name,
			  path);
		return false;
	}
	if (!major(dev) || !dev_scheduler(dev, sched, sizeof(sched), name,
					  sizeof(name)))
		return false;
	if (!strcmp(sched, "mq-deadline") || !strcmp(sched, "bfq") ||
	    dev_stacked(dev))
		return true;
	notes_add(out, "job '%s': I/O priorities have no effect on '%s': the "
		  "I/O scheduler of %s is '%s', which ignores them (mq-deadline "
		  "and bfq honour them: /sys/block/%s/queue/scheduler)",
		  p->o.name, path, name, sched, name);
	return false;
}

void prio_notes(const struct job_plan *plans, const struct job_files *files,
		unsigned int nr, struct notes *out)
{
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = &plans[i];
		const struct engine_ops *ops = engine_for_plan(p);
		bool may = false;

		/* one note per job, not per clone; none without files */
		if (!p->prio || p->clone || !ops ||
		    (ops->flags & ENGINE_F_NOFILEIO))
			continue;
		for (k = 0; k < files[i].nr_files; k++)
			may |= note_file(p, files[i].files[k].path, out);
		/* said only where the target could honour them at all */
		if (may && !p->o.direct && p->writes)
			notes_add(out, "job '%s': buffered writes (direct=0) "
				  "reach the device from the kernel's "
				  "writeback, without the job's I/O "
				  "priorities", p->o.name);
	}
}
