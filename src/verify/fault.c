/* SPDX-License-Identifier: MIT */
#include "verify/fault.h"

#include <errno.h>
#include <string.h>

void fault_policy_init(struct fault_policy *fp, const struct job_options *o)
{
	unsigned int c;

	memset(fp, 0, sizeof(*fp));
	/*
	 * COE_READ, COE_WRITE, COE_VERIFY are 1 << class. ignore_error set
	 * its classes' bits when it was read, so a continue_on_error= given
	 * after it has the last word, as with fio.
	 */
	fp->mask = o->continue_on_error & COE_ALL;
	for (c = 0; c < 3; c++) {
		if (o->nr_ignore_error[c]) {
			fp->nr[c] = o->nr_ignore_error[c];
			memcpy(fp->list[c], o->ignore_error[c],
			       fp->nr[c] * sizeof(int));
		} else {
			fp->list[c][0] = EIO;
			fp->list[c][1] = EILSEQ;
			fp->nr[c] = 2;
		}
	}
}

bool fault_non_fatal(const struct fault_policy *fp, enum fault_class cls,
		     int err)
{
	unsigned int i;

	if (!(fp->mask & (1u << cls)))
		return false;
	for (i = 0; i < fp->nr[cls]; i++)
		if (fp->list[cls][i] == err)
			return true;
	return false;
}
