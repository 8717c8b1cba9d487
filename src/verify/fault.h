/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_VERIFY_FAULT_H
#define IOLITE_VERIFY_FAULT_H

#include <stdbool.h>

#include "opt/options.h"

/*
 * Which errors a job carries on after, as fio decides it: an error of a
 * class (read, write, verify; syncs and trims are writes) is non-fatal
 * when continue_on_error covers the class and the errno is on the
 * class's list. The list is ignore_error's for the class when it gave
 * one (which also turned the class on where it stood among the
 * options), else EIO and EILSEQ (a failed verify is EILSEQ). So
 * continue_on_error=write still stops at ENOSPC, and
 * ignore_error=,ENOSPC carries on past it.
 *
 * An error of a covered class is counted (total_err, first_error)
 * whether it stops the job or not; one of a class continue_on_error does
 * not cover stops the job uncounted (fio: continue_on_error=read, a
 * write fails: total_err=0, first_error=0).
 */

enum fault_class { FAULT_READ = 0, FAULT_WRITE = 1, FAULT_VERIFY = 2 };

struct fault_policy {
	unsigned int mask;		/* 1 << class: may continue */
	int list[3][IGNORE_ERROR_MAX];
	unsigned int nr[3];
};

void fault_policy_init(struct fault_policy *fp, const struct job_options *o);

/* True when errors of class cls are counted (continue_on_error covers it). */
static inline bool fault_counted(const struct fault_policy *fp,
				 enum fault_class cls)
{
	return fp->mask & (1u << cls);
}

/* True when an error err of class cls lets the job go on. */
bool fault_non_fatal(const struct fault_policy *fp, enum fault_class cls,
		     int err);

#endif
