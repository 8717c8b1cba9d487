/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "report/report.h"
#include "util/log.h"

/* Every output format, by its --output-format name. */
static const struct report_ops *const writers[] = {
	&report_normal,
	&report_json,
	&report_json_plus,
	&report_terse,
	&report_html,
};

const struct report_ops *report_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(writers); i++)
		if (!strcmp(name, writers[i]->name))
			return writers[i];
	return NULL;
}
