/* SPDX-License-Identifier: MIT */
/* Stub: being written. */
#include <errno.h>
#include "workload/workload.h"

int workload_init(struct workload **out, const struct job_plan *p,
		  const struct engine_file *files, unsigned int nr_files,
		  struct strbuf *err)
{
	*out = NULL;
	strbuf_addstr(err, "workload not implemented yet");
	return -1;
}

void workload_free(struct workload *w)
{
}

int workload_next(struct workload *w, struct io_u *u)
{
	return 1;
}

void workload_rewind(struct workload *w)
{
}

uint64_t workload_pass_bytes(const struct workload *w)
{
	return 0;
}
