/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_CLI_CLI_DEBUG_H
#define IOLITE_CLI_CLI_DEBUG_H

#include <stdlib.h>
#include <sys/sysmacros.h>

#include "opt/plan.h"
#include "run/worker.h"
#include "target/files.h"

/* --debug: the run's decisions before it starts, and how jobs ended. */
void cli_debug_before(const struct job_plan *plans, unsigned int nr,
		      const struct job_files *files);
void cli_debug_after(const struct run_job *jobs, unsigned int nr);

#endif
