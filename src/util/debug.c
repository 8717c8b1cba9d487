/* SPDX-License-Identifier: MIT */
#include "util/debug.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

unsigned int dbg_mask;
/* where the lines go: fio's, the report's output (stdout until opened) */
static FILE *dbg_out;

void dbg_set_output(FILE *f)
{
	dbg_out = f;
}

static const struct {
	const char *name;
	const char *help;
} cats[DBG_NR] = {
	[DBG_PROCESS] = { "process", "job threads: start, end, status" },
	[DBG_FILE] = { "file", "files: resolved, created, laid out" },
	[DBG_MEM] = { "mem", "I/O buffers: count, size, alignment" },
	[DBG_VERIFY] = { "verify", "verify: checksum, header size, state files" },
	[DBG_RANDOM] = { "random", "random seeds of each job" },
	[DBG_PARSE] = { "parse", "job files, includes, option values" },
	[DBG_DISKUTIL] = { "diskutil", "block devices whose statistics are reported" },
	[DBG_JOB] = { "job", "job instances, groups, engines, depths" },
	[DBG_TIME] = { "time", "the clock: source and calibration" },
	[DBG_IO] = { "io", "each I/O as queued and as completed (no cost when off: the worker's per-I/O hooks, as write_iolog)" },
};

/* fio's categories with nothing behind them in iolite, and why */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
	{ "blktrace", "iolite has no blktrace support" },
	{ "mutex", "iolite's workers take no locks" },
	{ "profile", "iolite has no job profiles" },
	{ "net", "the net engine has no debug lines yet (its errors name the peer)" },
	{ "rate", "rate limiting has no debug lines yet" },
	{ "compress", "buffer compression has no debug lines yet" },
	{ "steadystate", "steady state has no debug lines yet (its result is in the report's notes)" },
	{ "helperthread", "the reporter thread has no debug lines yet" },
	{ "zbd", "iolite has no zoned block device support" },
};

void dbg_print(enum dbg_cat cat, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* fio's layout: the category in 8 columns, the pid, the message */
	fprintf(dbg_out ? dbg_out : stdout, "%-8s %-5d %s\n", cats[cat].name,
		(int)getpid(), line);
}

static int dbg_one(const char *name, size_t len, struct strbuf *err)
{
	size_t i;

	if (len == 3 && !strncmp(name, "all", 3)) {
		dbg_mask = (1u << DBG_NR) - 1;
		return 0;
	}
	for (i = 0; i < DBG_NR; i++)
		if (strlen(cats[i].name) == len &&
		    !strncmp(name, cats[i].name, len)) {
			dbg_mask |= 1u << i;
			return 0;
		}
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		if (strlen(refused[i].name) == len &&
		    !strncmp(name, refused[i].name, len)) {
			strbuf_addf(err, "option '--debug': category '%s' is not supported: %s",
				    refused[i].name, refused[i].why);
			return -1;
		}
	strbuf_addf(err, "option '--debug': unknown category '%.*s' (valid: ",
		    (int)len, name);
	for (i = 0; i < DBG_NR; i++)
		strbuf_addf(err, "%s, ", cats[i].name);
	strbuf_addstr(err, "all)");
	return -1;
}

int dbg_parse(const char *list, struct strbuf *err)
{
	const char *p = list;

	if (!*p) {
		strbuf_addstr(err, "option '--debug' needs a category (see --debug=help)");
		return -1;
	}
	do {
		size_t n = strcspn(p, ",");

		if (!n) {
			strbuf_addf(err, "option '--debug': empty category in '%s'",
				    list);
			return -1;
		}
		if (dbg_one(p, n, err))
			return -1;
		p += n;
	} while (*p++ == ',');
	return 0;
}

void dbg_help(struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "debug categories (--debug=a,b or all):\n");
	for (i = 0; i < DBG_NR; i++)
		strbuf_addf(out, "  %-13s %s\n", cats[i].name, cats[i].help);
	strbuf_addstr(out, "fio's categories iolite does not have:\n");
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		strbuf_addf(out, "  %-13s %s\n", refused[i].name, refused[i].why);
}
