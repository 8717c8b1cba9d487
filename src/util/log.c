/* SPDX-License-Identifier: MIT */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((format(printf, 2, 0)))
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fputs("iolite: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, fmt, ap);
	va_end(ap);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

static void (*die_routine)(const char *msg);

void set_die_routine(void (*fn)(const char *msg))
{
	die_routine = fn;
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (die_routine) {
		char msg[1024];

		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		die_routine(msg);
		exit(1);
	}
	vreport(NULL, fmt, ap);
	va_end(ap);
	exit(1);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iolite: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
