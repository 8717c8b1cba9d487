/* SPDX-License-Identifier: MIT */
#include "run/safety.h"

#include <errno.h>

int safety_check_blockdev(const struct job_plan *p, const char *path,
			  dev_t rdev, struct strbuf *err)
{
	return 0;
}

int safety_probe_signature(const char *path, struct strbuf *what)
{
	return 0;
}

int safety_probe_builtin(int fd, struct strbuf *what)
{
	return 0;
}

int safety_check_readonly(const struct job_plan *plans, unsigned int nr,
			  const struct job_files *jf, struct strbuf *err)
{
	return 0;
}
