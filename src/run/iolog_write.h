/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_RUN_IOLOG_WRITE_H
#define IOLITE_RUN_IOLOG_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "util/strbuf.h"

/*
 * write_iolog: every I/O a job issues, in fio's iolog version 3 format
 * (workload/iolog.h), appended to a file as fio does. Times are
 * microseconds since the writer opened (the job's start).
 *
 * The worker owns one writer per job: lines go into a buffer that is
 * written with write(2) when the next line would not fit (whole lines
 * only, so jobs appending to the same file interleave by blocks of
 * lines, never inside one) and at close. No stdio, no allocation after
 * open.
 */
struct iolog_writer;

/*
 * Opens (creating, appending) path and logs the header and an add line
 * for each file (the worker logs the opens: iolog_writer_file()).
 * dbg_io: each I/O also gets a --debug=io line; path NULL: only those.
 * Returns 0 or -1 with a message in err.
 */
int iolog_writer_open(struct iolog_writer **out, const char *path,
		      const struct engine_file *files, unsigned int nr_files,
		      uint64_t start_ns, bool dbg_io, struct strbuf *err);

/* --debug=io's line for u: what ("queue", "complete"), offset, length. */
void iolog_writer_dbg(const struct iolog_writer *w, const char *what,
		      const struct io_u *u);

/* One I/O issued at now_ns (u: file, ddir, offset, len). */
void iolog_writer_io(struct iolog_writer *w, const struct io_u *u,
		     uint64_t now_ns);

/* A file opened or closed (at the start, between loops and phases). */
void iolog_writer_file(struct iolog_writer *w, unsigned int file, bool open,
		       uint64_t now_ns);

/*
 * Logs a close line for each file logged open, writes what is buffered,
 * closes and frees w. Returns 0, or -errno of the first write that
 * failed.
 */
int iolog_writer_close(struct iolog_writer *w, uint64_t now_ns);

#endif
