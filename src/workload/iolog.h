/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_WORKLOAD_IOLOG_H
#define IOLITE_WORKLOAD_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/io_u.h"
#include "opt/plan.h"
#include "util/strbuf.h"

/*
 * fio's I/O logs (read_iolog): version 2 ("fio version 2 iolog", "wait"
 * lines for time) and version 3 ("fio version 3 iolog", a timestamp in
 * microseconds since the start of the run on every line). A line is
 *
 *	[timestamp] filename add|open|close
 *	[timestamp] filename read|write|trim|sync|datasync offset length
 *	filename wait microseconds length		(version 2 only)
 *
 * The file name is everything between the timestamp and the action, so
 * names with spaces read back. A second header line of the same version
 * starts a log appended to the first (write_iolog appends, as fio's
 * does); its times continue after the first's.
 */

/* One I/O of a log. ddir: DDIR_READ .. DDIR_DATASYNC. */
struct iolog_io {
	uint64_t time_us;	/* since the start of the log */
	uint64_t offset;
	uint32_t len;
	uint32_t file;		/* index in the reader's file table */
	uint8_t ddir;
};

/*
 * A streaming reader over a log file (read(2) in blocks, no stdio) or a
 * string (iolog_reader_mem, for tests). Memory: the block buffer and the
 * file table, whatever the log's length.
 */
struct iolog_reader {
	int fd;			/* -1: reading a string */
	char *name;		/* for messages, owned */
	char *buf;		/* owned, unless reading a string */
	size_t pos, len, cap;
	bool eof;
	unsigned int line;	/* of the line last read */
	int version;		/* 2 or 3 */
	uint64_t base_us;	/* appended logs: where this one starts */
	uint64_t last_us;	/* latest time seen */
	uint64_t wait_us;	/* version 2: the waits so far */
	char **files;		/* the table, in the order of 'add' lines */
	uint8_t *state;		/* per file: added, open */
	unsigned int nr_files;
};

/*
 * Opens path, or reads text (len bytes; not copied, must outlive the
 * reader), and checks the header. Returns 0 or -1 with "name:line: ..."
 * in err (a blktrace binary file or a version 1 log are refused).
 * iolog_reader_close() releases everything, also after a failure.
 */
int iolog_reader_open(struct iolog_reader *r, const char *path,
		      struct strbuf *err);
int iolog_reader_mem(struct iolog_reader *r, const char *name,
		     const char *text, size_t len, struct strbuf *err);
void iolog_reader_close(struct iolog_reader *r);

/*
 * The next I/O of the log (read, write, trim, sync, datasync); file
 * lines are checked and kept in the file table. Returns 1, 0 at the end
 * of the log, -1 with "name:line: ..." in err for a line that is not
 * fio's format (unknown action, bad number, I/O to a file not added and
 * opened, 'wait' in a version 3 log, a zero length, offset + length past
 * 2^64).
 */
int iolog_reader_next(struct iolog_reader *r, struct iolog_io *io,
		      struct strbuf *err);

/*
 * read_iolog, resolved for job instance plans[i] once plan_build() is
 * done (plans[0..i) are the instances built before it):
 * picks the instance's log (clone N takes the N-th of a ':' list,
 * wrapping), reads it all once to check every line, and fills p->replay
 * (the files and how far into each the log goes, with replay_redirect
 * one file) and the plan's directions and block sizes from what the log
 * does, as fio takes them from the log. Checks the replay options and
 * write_iolog's directory too. Files a log names must exist: iolite
 * does not create them (a replay_redirect target is the user's own
 * choice, like filename=). Touches nothing. Returns 0 (also without
 * read_iolog) or -1 with "file:line: option '...': ..." in err.
 *
 * When a job of an earlier stonewall group writes the log (write_iolog,
 * the same path), the log is what that job leaves: the plan is marked
 * deferred, takes the writers' directions and block sizes for now, and
 * target/iolog_defer.c gives it the writers' files before the run and
 * calls iolog_plan_start() when the job's group starts.
 */
int iolog_plan(struct job_plan *plans, unsigned int i, struct strbuf *err);

/* plans[k] writes the log plans[i] replays and ends before it starts. */
bool iolog_writes_before(const struct job_plan *plans, unsigned int i,
			 unsigned int k);

/*
 * A deferred read_iolog, when the job starts: reads the log, checking
 * every line, and checks that it keeps within what was checked before
 * the run: I/O only to the job's files (p->replay->files, those of the
 * writers), within sizes[f] bytes of file f, and writes or trims only
 * if the writers write. Then fills the plan from the log as
 * iolog_plan() does. 0 or -1 with "file:line: option 'read_iolog':
 * log:line: ..." in err (the plan is then unchanged).
 */
int iolog_plan_start(struct job_plan *p, const uint64_t *sizes,
		     struct strbuf *err);

/*
 * The region of file i of a replaying job: [0, the end of the log's
 * furthest I/O to it); dev_size is the size of a block device (0 for
 * anything else), which the log must not go past. 0 or -1 with err.
 */
int iolog_region(const struct job_plan *p, unsigned int i, uint64_t dev_size,
		 uint64_t *off, uint64_t *len, struct strbuf *err);

/*
 * The replay source, a workload of its own (workload.c hands its next()
 * calls here when the job has read_iolog).
 *
 * iolog_replay_next() fills u like workload_next() and returns 0, or 1
 * either at the end of the log or to pause: before an I/O whose time has
 * not come (unless replay_no_stall) and before a sync (which, as fio's
 * fsync=, waits for the I/O in flight). The worker then lets what is in
 * flight complete and calls iolog_replay_wait(), which sleeps until the
 * I/O is due (in slices, giving up when *stop is set or max_ns has
 * passed) and returns true, or returns false at the end of the log.
 * iolog_replay_rewind() starts the log over, with its times from now.
 * With read_iolog_chunked the log is read a block of I/Os at a time
 * while the job runs, else all of it at init.
 */
struct iolog_replay;

int iolog_replay_init(struct iolog_replay **out, const struct job_plan *p,
		      struct strbuf *err);
int iolog_replay_next(struct iolog_replay *r, struct io_u *u);
bool iolog_replay_wait(struct iolog_replay *r, volatile int *stop,
		       uint64_t max_ns);
void iolog_replay_rewind(struct iolog_replay *r);
uint64_t iolog_replay_bytes(const struct iolog_replay *r);
void iolog_replay_free(struct iolog_replay *r);

#endif
