/* SPDX-License-Identifier: MIT */
/*
 * The process-side options (see sys_opts.h): value callbacks and the plan
 * rules. Nothing here changes the machine; proc/proc.c and proc/mem.c do.
 */
#include "opt/sys_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "opt/internal.h"
#include "util/cpulist.h"
#include "util/num.h"

const struct opt_enum sys_mem_enums[] = {
	{ "malloc", MEM_MALLOC, "private anonymous memory (the default)" },
	{ "shm", MEM_SHM, "a System V shared memory segment (shmget)" },
	{ "shmhuge", MEM_SHMHUGE, "the same, of huge pages" },
	{ "mmap", MEM_MMAP, "mmap(2), anonymous or of the file given after "
	  "a colon (mmap:/path), private" },
	{ "mmaphuge", MEM_MMAPHUGE, "huge pages: anonymous, or of a file "
	  "on hugetlbfs (mmaphuge:/hugetlbfs/file)" },
	{ "mmapshared", MEM_MMAPSHARED, "like mmap, a shared mapping" },
	{ NULL, 0, NULL },
};

int sys_mem_parse(const char *s, enum mem_type *type, const char **file,
		  struct strbuf *err)
{
	const char *colon;
	size_t len;
	int v;
	char *name;

	*type = MEM_MALLOC;
	*file = NULL;
	if (!s || !*s)
		return 0;
	colon = strchr(s, ':');
	len = colon ? (size_t)(colon - s) : strlen(s);
	name = xstrndup(s, len);
	if (!strcmp(name, "cudamalloc")) {
		strbuf_addstr(err, "'cudamalloc' is GPU memory for fio's rdma "
			      "engine, which iolite does not have");
		free(name);
		return -1;
	}
	if (opt_enum_lookup(sys_mem_enums, name, &v)) {
		strbuf_addf(err, "unknown type '%s' (valid: ", name);
		opt_enum_list(sys_mem_enums, err);
		strbuf_addch(err, ')');
		free(name);
		return -1;
	}
	free(name);
	*type = (enum mem_type)v;
	if (!colon)
		return 0;
	if (*type != MEM_MMAP && *type != MEM_MMAPHUGE &&
	    *type != MEM_MMAPSHARED) {
		strbuf_addf(err, "'%.*s' takes no file (only mmap, mmaphuge "
			    "and mmapshared do)", (int)len, s);
		return -1;
	}
	if (!colon[1]) {
		strbuf_addf(err, "'%s': no file after the colon", s);
		return -1;
	}
	*file = colon + 1;
	return 0;
}

int sys_nice_cb(const struct opt_def *def, struct job_options *o,
		const char *val, struct strbuf *err)
{
	const char *s = val;
	uint64_t v;
	bool neg = *s == '-';

	if (neg || *s == '+')
		s++;
	if (num_parse_u64(s, &v) || v > 20 || (!neg && v > 19)) {
		strbuf_addf(err, "'%s' is not a nice value (-20..19)", val);
		return -1;
	}
	o->nice = neg ? -(int)v : (int)v;
	return 0;
}

void sys_nice_fmt(const struct opt_def *def, const struct job_options *o,
		  struct strbuf *out)
{
	strbuf_addf(out, "%d", o->nice);
}

static unsigned int nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (unsigned int)n : 1;
}

static int check_mem(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct strbuf why = STRBUF_INIT;
	enum mem_type t;
	const char *file;

	if (sys_mem_parse(o->mem, &t, &file, &why)) {
		plan_fail(p, err, "option 'mem': %s", strbuf_str(&why));
		strbuf_release(&why);
		return -1;
	}
	if ((t == MEM_SHMHUGE || t == MEM_MMAPHUGE) && !o->hugepage_size)
		return plan_fail(p, err, "option 'hugepage-size': 0 cannot "
				 "size huge pages");
	return 0;
}

/* A cgroup name is a path under the blkio mount: no way out of it. */
static int check_cgroup(struct job_plan *p, struct strbuf *err)
{
	const char *s = p->o.cgroup, *c;

	if (!s)
		return 0;
	if (!*s || *s == '/')
		return plan_fail(p, err, "option 'cgroup': '%s' is not a "
				 "cgroup name (a path under the blkio mount, "
				 "such as 'fio' or 'a/b')", s);
	for (c = s; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || !c[2]))
			return plan_fail(p, err, "option 'cgroup': '%s' leaves "
					 "the cgroup mount", s);
	return 0;
}

static int check_cpus(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct strbuf why = STRBUF_INIT;
	cpu_set_t set;

	if (opt_is_set(o, "gtod_cpu") && o->gtod_cpu >= nr_cpus())
		return plan_fail(p, err, "option 'gtod_cpu': cpu %u does not "
				 "exist (this machine has cpus 0-%u)",
				 o->gtod_cpu, nr_cpus() - 1);
	if (!o->log_compression_cpus)
		return 0;
	if (cpulist_parse(o->log_compression_cpus, "cpu", nr_cpus(), 0, &set,
			  &why)) {
		plan_fail(p, err, "option 'log_compression_cpus': %s",
			  strbuf_str(&why));
		strbuf_release(&why);
		return -1;
	}
	return 0;
}

int sys_plan_check(struct job_plan *p, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	struct timespec ts;

	if (check_mem(p, err) || check_cgroup(p, err) || check_cpus(p, err))
		return -1;
	if ((o->log_unix_epoch || o->log_alternate_epoch) &&
	    clock_getres((clockid_t)o->log_epoch_clock, &ts))
		return plan_fail(p, err, "option "
				 "'log_alternate_epoch_clock_id': %u is not a "
				 "clock this kernel has (0 is CLOCK_REALTIME)",
				 o->log_epoch_clock);
	if (o->exec_prerun && !*o->exec_prerun)
		return plan_fail(p, err, "option 'exec_prerun': no command");
	if (o->exec_postrun && !*o->exec_postrun)
		return plan_fail(p, err, "option 'exec_postrun': no command");
	if (!p->runs && (o->exec_prerun || o->exec_postrun)) {
		p->runs_opt = o->exec_prerun ? "exec_prerun" : "exec_postrun";
		p->runs = o->exec_prerun ? o->exec_prerun : o->exec_postrun;
	}
	if (o->ioscheduler && !*o->ioscheduler)
		return plan_fail(p, err, "option 'ioscheduler': no scheduler "
				 "name");
	return 0;
}
