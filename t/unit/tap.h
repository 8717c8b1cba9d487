/* SPDX-License-Identifier: MIT */
/*
 * Minimal TAP for C unit tests: ok(cond, fmt...), skip(why, fmt...),
 * done_testing(). A test of an optional library the build lacks skips
 * with the WITHOUT_* reason (the words of t/test-lib.sh's table).
 * Scratch files go under $TMPDIR (tap_tmp), as the shell tests' do.
 */
#ifndef IOLITE_T_TAP_H
#define IOLITE_T_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

/*
 * A failure is also written to stderr, which prove shows without -v (a
 * CI log has it), as t/test-lib.sh does for the scripts.
 */
__attribute__((format(printf, 2, 3)))
static int ok(int cond, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	tap_n++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, msg);
	if (!cond) {
		fflush(stdout);
		fprintf(stderr, "# failed: not ok %d - %s\n", tap_n, msg);
		tap_failed++;
	}
	return cond;
}

/* A test this build or machine cannot run: "ok N # skip WHAT (why)". */
__attribute__((format(printf, 2, 3), unused))
static void skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # skip ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (%s)\n", why);
}

#define WITHOUT_LIBCRYPTO "missing LIBCRYPTO: iolite built without " \
	"libcrypto: apt-get install libssl-dev and rebuild"
#define WITHOUT_XXHASH "missing XXHASH: iolite built without libxxhash: " \
	"apt-get install libxxhash-dev and rebuild"
#define WITHOUT_ISAL "missing ISAL: iolite built without ISA-L: " \
	"apt-get install libisal-dev and rebuild"

/* tap_tmp(buf, "name.XXXXXX"): "$TMPDIR/name.XXXXXX" (TMPDIR or /tmp) in
 * buf of TAP_TMP_MAX bytes, for mkstemp() and mkdtemp(). */
#define TAP_TMP_MAX 256
__attribute__((unused))
static char *tap_tmp(char *buf, const char *name)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(buf, TAP_TMP_MAX, "%s/%s", tmp, name) >= TAP_TMP_MAX) {
		printf("Bail out! TMPDIR is too long: %s\n", tmp);
		exit(1);
	}
	return buf;
}

__attribute__((format(printf, 1, 2)))
static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
