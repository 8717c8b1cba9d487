/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_REPORT_REPORT_H
#define IOLITE_REPORT_REPORT_H

#include <stdio.h>

#include "opt/plan.h"
#include "stats/results.h"

/*
 * Report writers: one per output format, each reading only the results
 * model. No global output-format flags: main picks the writer by name
 * (--output-format=normal, json, json+, terse, html).
 */
struct report_ops {
	const char *name;
	/* Writes the whole report. 0 or -errno (a write error). */
	int (*write)(const struct run_result *rr, FILE *f);
};

/* Finds a writer by name, or NULL. */
const struct report_ops *report_find(const char *name);

/*
 * What fio prints on stdout before the run in normal output: one line per
 * job ("a: (g=0): rw=read, bs=(R) 4096B-4096B, ..., ioengine=psync,
 * iodepth=1"; "..." for further numjobs clones), then "iolite-<version>",
 * then "Starting N processes" / "Starting 1 thread". main calls it after
 * validation, before any job starts.
 */
void report_normal_preamble(const struct job_plan *plans, unsigned int n,
			    FILE *f);

extern const struct report_ops report_normal;
/* report/json.c, report/terse.c */
extern const struct report_ops report_json;
extern const struct report_ops report_json_plus;
extern const struct report_ops report_terse;
/* report/html.c: one self-contained page with the pictures */
extern const struct report_ops report_html;

/* Terse output of fio's version 2, 3, 4 or 5 (report_terse is 3). */
int report_terse_write(const struct run_result *rr, FILE *f, int version);

#endif
