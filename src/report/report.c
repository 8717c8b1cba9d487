/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "report/report.h"

const struct report_ops *report_find(const char *name)
{
	if (!strcmp(name, "normal"))
		return &report_normal;
	return NULL;
}
