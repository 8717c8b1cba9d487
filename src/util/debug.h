/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_UTIL_DEBUG_H
#define IOLITE_UTIL_DEBUG_H

#include <stdio.h>

#include "util/log.h"
#include "util/strbuf.h"

/*
 * fio's --debug: lines "category pid message", printed only when the
 * user asked for the category, where fio prints them: on the report's
 * output (stdout, or the --output file once it is open), not on stderr,
 * which harnesses take for a failure. The categories are the ones that name
 * something iolite does; fio's others are refused with the reason. A
 * call costs one load and one test when its category is off, and none
 * sits in the worker's per-I/O loop: io rides on the hooks write_iolog
 * and the per-I/O logs already have (tested once per job when off).
 */
enum dbg_cat {
	DBG_PROCESS,	/* threads: start, stop, exit status */
	DBG_FILE,	/* files: resolved, created, laid out */
	DBG_MEM,	/* I/O buffers and their sizes */
	DBG_VERIFY,	/* verify: checksum, header, state files */
	DBG_RANDOM,	/* seeds and random generators */
	DBG_PARSE,	/* job files, includes, option values */
	DBG_DISKUTIL,	/* block devices whose stats are reported */
	DBG_JOB,	/* job instances, groups, engines */
	DBG_TIME,	/* the clock: source, calibration */
	DBG_IO,		/* each I/O queued and completed */
	DBG_NR,
};

extern unsigned int dbg_mask;

void dbg_print(enum dbg_cat cat, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The lines from now on go to f (the report's output), or stdout (NULL). */
void dbg_set_output(FILE *f);

#define dbg(cat, ...)							\
	do {								\
		if (unlikely(dbg_mask & (1u << (cat))))			\
			dbg_print(cat, __VA_ARGS__);			\
	} while (0)

static inline int dbg_on(enum dbg_cat cat)
{
	return unlikely(dbg_mask & (1u << cat));
}

/*
 * Turns on the categories of a comma-separated list ("file,parse",
 * "all"). 0, or -1 with the reason in err (an unknown category, or one of
 * fio's that iolite has nothing for).
 */
int dbg_parse(const char *list, struct strbuf *err);

/* --debug=help: every category, what it shows, and fio's refused ones. */
void dbg_help(struct strbuf *out);

#endif
