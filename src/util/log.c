/* SPDX-License-Identifier: MIT */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The line is made first and written at once (stderr is unbuffered: a
 * write per piece), so that processes sharing stderr (iolite-mpi's
 * ranks through mpirun or srun, forked jobs) do not cut into each
 * other's lines.
 */
__attribute__((format(printf, 2, 0)))
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024], *line = buf;
	int head, len;
	va_list aq;

	head = snprintf(buf, sizeof(buf), "iolite: %s", prefix ? prefix : "");
	va_copy(aq, ap);
	len = vsnprintf(buf + head, sizeof(buf) - (size_t)head, fmt, aq);
	va_end(aq);
	if (len < 0)
		len = 0;
	if ((size_t)(head + len) + 1 >= sizeof(buf)) {
		line = malloc((size_t)(head + len) + 2);
		if (!line) {	/* out of memory: the line cut short */
			line = buf;
			len = (int)sizeof(buf) - head - 2;
		} else {
			memcpy(line, buf, (size_t)head);
			vsnprintf(line + head, (size_t)len + 1, fmt, ap);
		}
	}
	line[head + len] = '\n';
	fwrite(line, 1, (size_t)(head + len) + 1, stderr);
	if (line != buf)
		free(line);
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
