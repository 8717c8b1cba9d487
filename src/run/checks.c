/* SPDX-License-Identifier: MIT */
#include "run/checks.h"
#include "run/steady.h"
#include "target/fileopts.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/capability.h>
#include <linux/magic.h>

#include "engine/engine.h"
#include "machine/cpus.h"
#include "opt/opt.h"
#include "proc/proc.h"
#include "run/pitfall.h"
#include "target/limits.h"
#include "target/numa.h"

const char *notes_job(const struct run_result *rr, const struct job_result *j,
		      struct strbuf *sb)
{
	const struct result_sweep *s = rr->sweep;
	unsigned int k, p;

	strbuf_reset(sb);
	strbuf_addf(sb, "'%s'", j->name);
	if (!s || !j->plan)
		return sb->buf;
	p = result_sweep_point(s, j);
	for (k = 0; k < s->nr_opts; k++)
		strbuf_addf(sb, "%s%s=%s", k ? "," : " at ", s->opts[k],
			    s->vals[p * s->nr_opts + k]);
	return sb->buf;
}

static const char *sysfs_root(void)
{
	const char *r = getenv("IOLITE_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

static long read_long(const char *path, long dflt)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/* Size in bytes of the highest-level cache of cpu0, 0 if unknown. */
static uint64_t llc_bytes(void)
{
	char path[512], buf[64];
	uint64_t best = 0;
	long best_level = 0;
	int i;

	for (i = 0; i < 16; i++) {
		long level;
		FILE *f;
		unsigned long sz;
		char unit = 0;

		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu0/cache/index%d/level",
			 sysfs_root(), i);
		level = read_long(path, -1);
		if (level < 0)
			continue;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu0/cache/index%d/size",
			 sysfs_root(), i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) &&
		    sscanf(buf, "%lu%c", &sz, &unit) >= 1 && level >= best_level) {
			uint64_t b = sz;

			if (unit == 'K')
				b <<= 10;
			else if (unit == 'M')
				b <<= 20;
			best = b;
			best_level = level;
		}
		fclose(f);
	}
	return best;
}

static int memory_speed_target(const struct job_plan *p,
			       const struct job_files *jf)
{
	const struct engine_ops *ops = engine_find(p->o.ioengine);
	unsigned int i;

	if (ops && (ops->flags & ENGINE_F_MAPS))
		return 1;
	for (i = 0; i < jf->nr_files; i++) {
		struct statfs sf;

		if (jf->files[i].flags & EF_CHARDEV)
			return 1;
		if (!statfs(jf->files[i].path, &sf) && sf.f_type == TMPFS_MAGIC)
			return 1;
	}
	return 0;
}

static void check_cache(const struct job_plan *plans,
			const struct job_files *files, unsigned int nr,
			struct notes *out)
{
	uint64_t llc = llc_bytes();
	unsigned int i = 0, j;

	if (!llc)
		return;
	/* jobs between stonewalls run together */
	while (i < nr) {
		uint64_t foot = 0;
		int mem = 0;

		for (j = i; j < nr; j++) {
			const struct job_plan *p = &plans[j];

			if (j > i && p->o.stonewall && p->clone == 0)
				break;
			foot += (uint64_t)(p->o.iodepth ? p->o.iodepth : 1) *
				p->max_bs;
			mem |= memory_speed_target(p, &files[j]);
		}
		if (mem && foot > llc)
			notes_add(out, "the I/O buffers of the jobs running together (%llu KiB) exceed the CPU's last-level cache (%llu KiB): copies to and from memory-speed targets measure DRAM bandwidth",
				  (unsigned long long)(foot >> 10),
				  (unsigned long long)(llc >> 10));
		i = j;
	}
}

static void check_numa(const struct job_plan *plans,
		       const struct job_files *files, unsigned int nr,
		       struct notes *out)
{
	char path[512];
	struct stat st;
	unsigned int i, k;

	snprintf(path, sizeof(path), "%s/devices/system/node/node1",
		 sysfs_root());
	if (stat(path, &st))
		return;	/* one node: nothing is remote */
	for (i = 0; i < nr; i++) {
		struct strbuf err = STRBUF_INIT;
		cpu_set_t set;
		int any, cpu;

		if (plans[i].clone)
			continue;
		if (cpus_for_job(&plans[i], &set, &any, &err) || !any)
			sched_getaffinity(0, sizeof(set), &set);
		strbuf_release(&err);
		for (k = 0; k < files[i].nr_files; k++) {
			long node = numa_file_node(files[i].files[k].path);

			if (node < 0)
				continue;
			for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
				if (!CPU_ISSET(cpu, &set) ||
				    numa_cpu_on_node(cpu, node))
					continue;
				notes_add(out, "job '%s' may run on cpu %d, which is not on numa node %ld of '%s': numa_cpu_nodes=auto (or =%ld) runs it on that node's CPUs",
					  plans[i].o.name, cpu, node,
					  files[i].files[k].path, node);
				break;
			}
		}
	}
}

/*
 * fio's tiobench profile options (threads=, block=, numruns=, dir=) in a
 * job without the profile: fio takes them and does nothing with them,
 * and so does iolite, saying so once per job; number_ios likewise in a
 * time_based job.
 */
void checks_options(const struct job_plan *plans, unsigned int nr,
		    struct notes *out)
{
	static const char *const names[] = {
		"threads", "block", "numruns", "dir",
	};
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		if (plans[i].clone)
			continue;
		/* fio 3.33 and 3.42 run a time_based job for its runtime */
		if (plans[i].o.number_ios && plans[i].o.time_based)
			notes_add(out, "job '%s': number_ios does not end a time_based job: it runs for its runtime (in fio as here)",
				  plans[i].o.name);
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			if (!opt_is_set(&plans[i].o, names[k]))
				continue;
			notes_add(out, "job '%s': option '%s' belongs to fio's tiobench profile and changes nothing without profile=tiobench (in fio as here)",
				  plans[i].o.name, names[k]);
			break;
		}
	}
}

/*
 * Random I/O in strided zones too small for a block (zonerange 16k,
 * bs=64k): fio 3.33 finds no offset and runs the job without I/O, and
 * so does iolite (workload.c); a user should know why nothing moved.
 */
static void check_zones(const struct job_plan *plans, unsigned int nr,
			struct notes *out)
{
	static const char *const dname[DDIR_RWDIR_CNT] = {
		"read", "write", "trim"
	};
	unsigned int i, d;

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = &plans[i];
		uint64_t range = p->o.zonerange ? p->o.zonerange :
				 p->o.zonesize;

		/* fio's HOWTO: ignored on a zoned block device */
		if (!p->clone && p->o.zonemode == ZONE_MODE_ZBD &&
		    p->o.zonecapacity)
			notes_add(out, "job '%s': zonecapacity is for zones emulated on other devices: the zones' capacity is the device's own (as in fio)",
				  p->o.name);
		if (p->clone || !p->random ||
		    p->o.zonemode != ZONE_MODE_STRIDED)
			continue;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t min = p->dir_min_bs[d], a = p->dir_align[d] ?
				       p->dir_align[d] : min;

			/* no aligned offset with room for a block */
			if (!ddir_used(p, (enum ddir)d) ||
			    range >= (min > a ? min : a))
				continue;
			notes_add(out, "job '%s': zones of %llu bytes hold no %s block of %llu bytes: random I/O finds no offset in them, and the job does no %s (as in fio)",
				  p->o.name, (unsigned long long)range, dname[d],
				  (unsigned long long)min, dname[d]);
		}
	}
}

/*
 * invalidate=1 on a block device is BLKFLSBUF, which takes
 * CAP_SYS_ADMIN: without it the device's cached pages stay, and a
 * buffered job may read them from memory (fio says "only root may flush
 * block devices" on stderr).
 */
static void check_flush(const struct job_plan *plans,
			const struct job_files *files, unsigned int nr,
			struct notes *out)
{
	unsigned int i, k;

	if (limits_has_cap(CAP_SYS_ADMIN))
		return;
	for (i = 0; i < nr; i++) {
		if (!plans[i].o.invalidate || plans[i].o.direct)
			continue;
		for (k = 0; k < files[i].nr_files; k++)
			if (files[i].files[k].flags & EF_BLOCKDEV) {
				notes_add(out, "job '%s': invalidate=1 cannot "
					  "drop the page cache of %s without "
					  "CAP_SYS_ADMIN (BLKFLSBUF): buffered "
					  "reads may come from memory",
					  plans[i].o.name,
					  files[i].files[k].path);
				return;
			}
	}
}

void checks_before(const struct job_plan *plans, const struct job_files *files,
		   unsigned int nr, struct notes *out)
{
	check_flush(plans, files, nr, out);
	check_cache(plans, files, nr, out);
	check_numa(plans, files, nr, out);
	checks_options(plans, nr, out);
	check_zones(plans, nr, out);
	proc_notes_options(plans, nr, out);
	fileopts_notes(plans, files, nr, out);
	pitfall_before(plans, files, nr, out);
}

void checks_after(const struct run_result *rr, struct notes *out)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int i, d;

	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];
		uint64_t ms = 0;

		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			if (j->dir[d].ios && j->dir[d].runtime_ms > ms)
				ms = j->dir[d].runtime_ms;
		if (j->ramp_end && !j->running)
			notes_add(out, "job %s ended during its %s: all its I/O is counted and no latency was recorded, as fio does (use a larger size, or time_based)",
				  notes_job(rr, j, &sb),
				  j->plan && j->plan->o.ramp_size ?
				  "ramp_size" : "ramp_time");
		/* a report while the job runs: its run is not over */
		if (!ms || ms >= 1000 || j->error || j->running)
			continue;
		notes_add(out, "job %s was measured for %llu ms: too short for stable figures (use a larger size, or runtime= with time_based)",
			  notes_job(rr, j, &sb), (unsigned long long)ms);
	}
	strbuf_release(&sb);
	steady_notes(rr, out);
	pitfall_after(rr, out);
}
