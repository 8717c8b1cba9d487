/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_PLOT_LOGREAD_H
#define IOLITE_PLOT_LOGREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/log.h"
#include "util/strbuf.h"

/*
 * Reading fio-format log files back for `iolite plot`: iolite's or fio's,
 * text or compressed (.fz, log_store_compressed). What a file logs comes
 * from its name, as fio names them: NAME_lat.N.log, _clat, _slat, _bw,
 * _iops (".N" absent with per_job_logs=0; ".fz" after it when
 * compressed) and agg-DIR_bw.log (--bandwidth-log). A line is "time_ms,
 * value, ddir, bs[, offset], prio" (fio 3.x; older fio wrote no prio:
 * four fields, or five with an offset when every fifth field is above
 * 1 -- fio 3.33's prio is 0 or 1, or "0x..." with log_prio). Every
 * line is kept: the figures come from all of them.
 *
 * Bad input is refused with the file and line: "x_lat.1.log:12: ...".
 */

struct log_data {
	char *path;		/* as given, owned */
	char *name;		/* the file's name without its directory */
	enum log_kind kind;	/* LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_BW, LOG_IOPS */
	bool per_io;		/* a line per I/O (bs set); else windows */
	bool has_offset;
	uint64_t n, alloc;
	/* columns, n entries each (offset only with has_offset) */
	uint64_t *t_ms, *value, *bs, *offset;
	uint8_t *ddir;
};

/*
 * Reads path into ld (zeroed first). Returns 0, or -1 with the reason in
 * err; ld is released on error.
 */
int log_data_read(struct log_data *ld, const char *path, struct strbuf *err);
void log_data_release(struct log_data *ld);

/*
 * The length of a log's name without ".fz", ".log" and a ".N" job
 * number ("x_clat" of "x_clat.2.log.fz"); 0 when it does not end in
 * ".log" (or ".log.fz"). *fz: it ends in ".fz".
 */
size_t log_name_base(const char *name, bool *fz);

/*
 * A field of a log line, decimal or "0x" hex (*hex set); *p moves past
 * it and the ',' after it. Returns 0, or -1 when it is not a number.
 */
int log_field(const char **p, const char *end, uint64_t *v, bool *hex);

/* "lat", "clat", "slat", "bw", "iops" */
const char *log_kind_name(enum log_kind k);

#endif
