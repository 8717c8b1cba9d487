/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_STATUS_H
#define IOLITE_REPORT_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/run_status.h"
#include "util/strbuf.h"

/*
 * fio's status line, drawn from a struct run_status (stats/run_status.h):
 *
 *   Jobs: 2 (f=2): [R(1),W(1)][45.5%][r=1234MiB/s,w=99.0MiB/s][r=316k,w=25.3k IOPS][eta 00m:06s]
 *
 * Jobs: the jobs issuing I/O and their open files; one state letter per
 * job, runs of the same letter condensed as L(n); the percentage of the
 * run done ("-.-%" when unknown); bandwidth and IOPS per direction since
 * the last line (left out while no job runs); the ETA as MMm:SSs,
 * HHh:MMm:SSs or Dd:HHh:MMm:SSs ("--m:--s" when unknown). iolite's
 * --sweep adds [point 3/12] before the ETA (every point's time is in
 * it: the points are the run's groups), --repeat [run 2/3], and its ETA
 * is then of every run left.
 */

/* Appends the line (no line ending) to out. */
void status_format(const struct run_status *s, struct strbuf *out);

/*
 * Draws successive lines on one terminal line, fio's way: each line ends
 * with '\r' and is padded with spaces over a longer previous one; with
 * newline_ms, a '\n' goes before a line once that much time has passed
 * since the last one, so a log of the output keeps a line per period.
 */
struct status_printer {
	FILE *f;
	uint64_t newline_ms;	/* --eta-newline; 0: never */
	uint64_t last_nl_ms;
	size_t last_len;
	bool up;		/* a line is drawn and not ended */
	struct strbuf line;
};

void status_printer_init(struct status_printer *sp, FILE *f,
			 uint64_t newline_ms);
/* Draws s, or with s == NULL ends the current line ('\n') if one is up. */
void status_print(struct status_printer *sp, const struct run_status *s);
void status_printer_release(struct status_printer *sp);

#endif
