/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_IO_IO_U_H
#define IOLITE_IO_IO_U_H

#include <fcntl.h>
#include <stdint.h>

/*
 * The two types both sides of an I/O share: the I/O unit and the file
 * handle. The workload (what I/O comes next: file, offset, length,
 * direction) and verify fill them, the engine (how the I/O is done)
 * carries them out, and the worker (run/) hands them from one to the
 * other. They live here, below engine/ and workload/, so that neither
 * of those includes the other; engine/engine.h includes this header, so
 * an engine sees them as before.
 */

struct io_u {
	void *buf;
	uint64_t offset;
	uint32_t len;
	uint32_t index;		/* slot in the worker's io_u array */
	uint8_t ddir;		/* enum ddir */
	uint8_t prio_idx;	/* statistics index of ioprio (prio_plan) */
	uint16_t ioprio;	/* class << 13 | level; 0: none */
	uint32_t file;		/* index into engine->files */
	int32_t error;		/* 0 or positive errno, set by the engine */
	uint32_t resid;		/* bytes not transferred (short I/O) */
	uint64_t start_time;	/* worker clock when filled (lat start) */
	uint64_t issue_time;	/* worker clock after submit (clat start) */
	void *engine_data;	/* engine's own per-io_u state */
};

/*
 * A trim of several ranges (num_range > 1, fio 3.42; io_uring_cmd sends
 * it as one Dataset Management command): the workload writes the ranges
 * at the start of u->buf, as many as it takes for their lengths to sum
 * to u->len (num_range at most), and sets u->offset to the last one's,
 * as fio does (its iolog line). The job's buffers hold num_range of
 * them (plan_buf_bs()).
 */
struct io_range {
	uint64_t offset;
	uint64_t len;
};

enum engine_file_flags {
	EF_BLOCKDEV = 1,
	EF_CHARDEV = 2,
	EF_REGULAR = 4,
	EF_DIR = 8,		/* a directory the engine made (dircreate ...):
				 * unlink=1 removes it with rmdir */
	EF_MADE = 16,		/* iolite made the name up (filename_format,
				 * opendir): a symlink there is never followed
				 * (engine_nofollow(), doc/safety.md) */
	EF_CREATE = 32,		/* create_on_open: missing, the job's open
				 * creates it (O_CREAT) */
};

/* What the target is: a file or device looked at, or 0 (names only). */
#define EF_KIND (EF_BLOCKDEV | EF_CHARDEV | EF_REGULAR)

/* O_NOFOLLOW for a name iolite made up, to or into an open's flags. */
#define engine_nofollow(f) ((f)->flags & EF_MADE ? O_NOFOLLOW : 0)

struct engine_file {
	char *path;
	int fd;			/* -1 when closed */
	unsigned int flags;	/* enum engine_file_flags */
	uint64_t real_size;	/* size of the target (file or device) */
	uint64_t io_offset;	/* first byte the job touches */
	uint64_t io_size;	/* bytes of the job's region */
	/*
	 * Where sweeps after the first start (the region's end stays): fio
	 * takes a percentage offset again of the size the first sweep left
	 * the file. io_offset, or 0, when it does not move.
	 */
	uint64_t io_offset_later;
	/*
	 * The regular file's size when fio sets this job up (what is on
	 * disk and what the jobs before it in fio's order and this one
	 * make it), where a fixed-size block may run to past the region;
	 * 0: real_size. A later job sharing the file makes it bigger for
	 * the layout (real_size), not for this job.
	 */
	uint64_t setup_size;
	void *engine_data;
};

#endif
