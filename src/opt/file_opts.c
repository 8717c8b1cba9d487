/* SPDX-License-Identifier: MIT */
/*
 * Rules of the file and per-I/O flag options (see file_opts.h).
 */
#include "opt/file_opts.h"

#include <string.h>

#include "opt/internal.h"

static bool engine_is(const struct job_plan *p, const char *const *names)
{
	for (; *names; names++)
		if (p->o.ioengine && !strcmp(p->o.ioengine, *names))
			return true;
	return false;
}

/*
 * atomic: RWF_ATOMIC is a flag of each write, which only engines that
 * pass RWF_* flags can give (fio 3.33 opens with its O_ATOMIC, a flag
 * Linux never had, and so writes without any guarantee). Like fio's, it
 * implies direct=1: the kernel has atomic writes for O_DIRECT only.
 */
static int check_atomic(struct job_plan *p, struct strbuf *err)
{
	static const char *const rwf_engines[] = {
		"pvsync2", "io_uring", "libaio", NULL,
	};

	if (!p->o.atomic)
		return 0;
	if (!engine_is(p, rwf_engines))
		return plan_fail(p, err, "option 'atomic': not supported with "
				 "ioengine '%s': RWF_ATOMIC is a flag of each "
				 "write (pvsync2, io_uring, libaio)",
				 p->o.ioengine ? p->o.ioengine : "");
	p->o.direct = true;
	return 0;
}

int file_plan_check(struct job_plan *p, struct strbuf *err)
{
	return check_atomic(p, err);
}
