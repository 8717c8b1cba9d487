/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "opt/internal.h"

/*
 * The heap strings of a job_options are exactly the OPT_STR rows' fields,
 * so release and copy walk the table: a new string option needs no code
 * here. Aliased rows sharing a field would be visited twice, so a field
 * is only handled at the first row that names its offset.
 */
static bool first_row_for_field(size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (opt_table[j].type == OPT_STR &&
		    opt_table[j].off == opt_table[i].off)
			return false;
	return true;
}

void job_options_release(struct job_options *o)
{
	size_t i;

	for (i = 0; i < opt_table_size; i++) {
		char **field;

		if (opt_table[i].type != OPT_STR || !first_row_for_field(i))
			continue;
		field = OPT_PTR(o, &opt_table[i], char *);
		free(*field);
		*field = NULL;
	}
}

void job_options_copy(struct job_options *dst, const struct job_options *src)
{
	size_t i;

	if (dst != src)
		memcpy(dst, src, sizeof(*dst));
	for (i = 0; i < opt_table_size; i++) {
		char **field;

		if (opt_table[i].type != OPT_STR || !first_row_for_field(i))
			continue;
		field = OPT_PTR(dst, &opt_table[i], char *);
		if (*field)
			*field = xstrdup(*field);
	}
}
