/* SPDX-License-Identifier: MIT */
/*
 * Pitfall notes: see run/pitfall.h. Everything here runs before the
 * first job starts or after the last one ends.
 */
#include "run/pitfall.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "engine/engine.h"
#include "proc/mem.h"
#include "run/worker.h"

/* The tester's stalls: more than 1% of the run waiting for a CPU. */
static void stall_notes(const struct run_result *rr, struct notes *out)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];
		double pct;

		if (!j->run_delay_known || !j->run_ms || j->not_started)
			continue;
		pct = (double)j->run_delay_ns / 1e4 / (double)j->run_ms;
		if (pct <= 1.0)
			continue;
		notes_add(out, "job %s: the tester was starved of CPU: its worker %s runnable but not running for %.1f ms (%.1f%% of %llu ms run; %llu involuntary context switches): a dip in IOPS may be the tester's, not the device's",
			  notes_job(rr, j, &sb), j->members > 1 ? "threads were" : "thread was",
			  (double)j->run_delay_ns / 1e6, pct,
			  (unsigned long long)j->run_ms,
			  (unsigned long long)j->nivcsw);
	}
	strbuf_release(&sb);
}

/* Whether the job moves data through files a device stands behind. */
static bool data_job(const struct job_plan *p)
{
	const struct engine_ops *e = engine_find(p->o.ioengine);

	return !p->no_io && e && !(e->flags & (ENGINE_F_NOFILEIO |
			ENGINE_F_FILE_OP | ENGINE_F_NOLAYOUT | ENGINE_F_NOIO |
			ENGINE_F_REMOTE));
}

/*
 * Bytes of [off, off + len) of fd that hold no data (holes, unwritten
 * extents), or -1 when the file system cannot say. At most 4096 extents
 * are walked: a file that fragmented is counted as far as that.
 */
static int64_t hole_bytes(int fd, uint64_t off, uint64_t len)
{
	uint64_t pos = off, end = off + len, holes = 0;
	unsigned int n;

	for (n = 0; pos < end && n < 4096; n++) {
		off_t data = lseek(fd, (off_t)pos, SEEK_DATA), hole;

		if (data < 0) {
			if (errno != ENXIO)
				return -1;
			data = (off_t)end;	/* a hole to the end of file */
		}
		if ((uint64_t)data > pos) {
			holes += ((uint64_t)data < end ? (uint64_t)data : end) - pos;
			pos = (uint64_t)data;
		}
		if (pos >= end)
			break;
		hole = lseek(fd, (off_t)pos, SEEK_HOLE);
		if (hole < 0)
			return -1;
		pos = (uint64_t)hole;
	}
	return (int64_t)holes;
}

/* Reads of regions never written: one note per job, its first such file. */
static void check_holes(const struct job_plan *p, const struct job_files *jf,
			struct notes *out)
{
	unsigned int k;

	if (!ddir_used(p, DDIR_READ) || !data_job(p))
		return;
	for (k = 0; k < jf->nr_files; k++) {
		const struct engine_file *f = &jf->files[k];
		struct stat st;
		int64_t holes;
		int fd;

		if (!(f->flags & EF_REGULAR) || !f->io_size)
			continue;
		/*
		 * A file with as many blocks as bytes has no hole (but for
		 * blocks kept past its end), one not there yet has none
		 * either (create_on_open): no open that fio does not make
		 */
		if (stat(f->path, &st) ||
		    (uint64_t)st.st_blocks * 512 >= (uint64_t)st.st_size)
			continue;
		fd = open(f->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		holes = hole_bytes(fd, f->io_offset, f->io_size);
		close(fd);
		/* a few blocks' rounding is not worth a note: 1% is */
		if (holes <= 0 || (uint64_t)holes * 100 < f->io_size)
			continue;
		notes_add(out, "job '%s' reads '%s', where %llu KiB of its %llu KiB region (%.0f%%) were never written (holes of a sparse file): the file system returns zeros for them without touching the device; write the file first%s",
			  p->o.name, f->path,
			  (unsigned long long)holes >> 10,
			  (unsigned long long)f->io_size >> 10,
			  100.0 * (double)holes / (double)f->io_size,
			  p->writes ? " (the job's own writes fill some as it goes)" : "");
		return;
	}
}

/*
 * Files too small for a direction's block get none of its I/O (fio's
 * rule, workload_check()): one note per job, its first such file.
 */
static void check_small(const struct job_plan *p, const struct job_files *jf,
			struct notes *out)
{
	static const char *const name[DDIR_RWDIR_CNT] = {
		"read", "write", "trim"
	};
	unsigned int k, d, n = 0, first = 0, fd = 0;

	if (p->replay)
		return;
	for (k = 0; k < jf->nr_files; k++)
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!ddir_used(p, (enum ddir)d) ||
			    jf->files[k].io_size >= p->dir_min_bs[d])
				continue;
			if (!n++) {
				first = k;
				fd = d;
			}
			break;
		}
	if (!n)
		return;
	notes_add(out, "job '%s': the region of '%s' is %llu bytes, smaller than the %s block size %llu, so no %ss go to it%s",
		  p->o.name, jf->files[first].path,
		  (unsigned long long)jf->files[first].io_size, name[fd],
		  (unsigned long long)p->dir_min_bs[fd], name[fd],
		  n > 1 ? " (nor to the job's other files that small)" : "");
}

static bool tmpfs(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && sf.f_type == TMPFS_MAGIC;
}

/*
 * A buffered job whose region fits in memory: reads of blocks read before
 * (all, with invalidate=0 after a layout) and writes never synced are
 * served by the page cache. With invalidate=1 every pass of a job that
 * reads each block once (sequential, or random with a random map) starts
 * cold, a loop or a time_based wrap alike (worker_pass_uses_files_up()),
 * so only a pass that comes round to its blocks again -- io_size beyond
 * the region, or random offsets without a map -- reads from memory.
 */
static void check_cache(const struct job_plan *p, const struct job_files *jf,
			uint64_t avail, struct notes *out)
{
	const struct job_options *o = &p->o;
	uint64_t region = 0;
	bool reread, unsynced;
	unsigned int k;

	if (o->direct || !data_job(p) || !avail)
		return;
	for (k = 0; k < jf->nr_files; k++) {
		const struct engine_file *f = &jf->files[k];

		/* memory-speed targets have their own note (checks.c) */
		if (!(f->flags & (EF_REGULAR | EF_BLOCKDEV)) || tmpfs(f->path))
			return;
		region += f->io_size;
	}
	if (!region || region > avail)
		return;
	reread = ddir_used(p, DDIR_READ) &&
		 (!o->invalidate || o->io_size.bytes > region ||
		  !worker_pass_uses_files_up(p));
	unsynced = p->writes && o->sync == SYNC_NONE && !o->fsync &&
		   !o->fdatasync && !o->end_fsync && !o->fsync_on_close;
	if (!reread && !unsynced)
		return;
	notes_add(out, "job '%s' is buffered (direct=0) and its %llu MiB region fits in the page cache (%llu MiB available): %s%s%s, so the device is not what is measured; use direct=1%s, or a region larger than memory",
		  o->name, (unsigned long long)(region >> 20),
		  (unsigned long long)(avail >> 20),
		  !reread ? "" : o->invalidate ?
		  "reads of blocks the job read before are served from memory" :
		  "reads of blocks cached already (invalidate=0) are served from memory",
		  reread && unsynced ? " and " : "",
		  unsynced ? "its writes, never synced, need only reach memory" : "",
		  unsynced ? " or end_fsync=1" : "");
}

void pitfall_before(const struct job_plan *plans, const struct job_files *files,
		    unsigned int nr, struct notes *out)
{
	uint64_t avail = mem_info_bytes("MemAvailable");
	unsigned int i;

	for (i = 0; i < nr; i++) {
		/* numjobs clones have their first's note */
		if (plans[i].clone)
			continue;
		check_holes(&plans[i], &files[i], out);
		check_small(&plans[i], &files[i], out);
		check_cache(&plans[i], &files[i], avail, out);
	}
}

/*
 * A disk that moved less than a tenth of the bytes the jobs on disks
 * moved: most of their I/O was served above it (a measured device moves
 * all of it, readahead and metadata more). The disks' figures count all
 * I/O on the machine, so other I/O can hide the case, never make it up.
 */
static void disk_notes(const struct run_result *rr, struct notes *out)
{
	uint64_t jobs = 0;
	unsigned int i, d;

	for (i = 0; i < rr->nr_jobs; i++)
		for (d = 0; rr->jobs[i].on_disk && d < DDIR_RWDIR_CNT; d++)
			jobs += rr->jobs[i].dir[d].bytes;
	if (jobs < (1u << 20))
		return;		/* too little to tell */
	for (i = 0; i < rr->nr_disks; i++) {
		const struct disk_result *dk = &rr->disks[i];
		uint64_t moved = (dk->sectors[0] + dk->sectors[1]) * 512;

		if (moved * 10 >= jobs)
			continue;
		notes_add(out, "disk '%s' moved %llu KiB while the jobs on disks moved %llu KiB (it was busy %.1f%% of the run): the I/O was served above the device (page cache, holes of sparse files, a cache layer), so the figures are not the device's",
			  dk->name, (unsigned long long)(moved >> 10),
			  (unsigned long long)(jobs >> 10), dk->util);
	}
}

void pitfall_after(const struct run_result *rr, struct notes *out)
{
	stall_notes(rr, out);
	disk_notes(rr, out);
}
