/* SPDX-License-Identifier: MIT */
/*
 * A histogram as json+'s "bins": the one form the report (report/json.c)
 * and the live stream (live/stream.c) write, so that the stream's
 * intervals merge into the report's bins key for key.
 */
#include <inttypes.h>
#include <stdio.h>

#include "stats/results.h"
#include "util/json.h"

void hist_json_bins(struct json_writer *w, const struct hist *h)
{
	char key[24];
	unsigned int i;

	json_begin_object(w, "bins");
	for (i = 0; i < HIST_NR; i++) {
		uint64_t n = h->bucket[i];

		/*
		 * Samples beyond the top bucket go with it, as in fio's
		 * histogram: the bins must add up to the samples taken.
		 */
		if (i == HIST_NR - 1)
			n += h->overflow;
		if (!n)
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_val(i));
		json_u64(w, key, n);
	}
	json_end_object(w);
}
