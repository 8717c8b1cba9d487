/* SPDX-License-Identifier: MIT */
/*
 * num_range (fio 3.42): a trim of several ranges, which io_uring_cmd
 * sends as one NVMe Dataset Management command. The workload draws
 * them as fio does: the first as any I/O (its file, by the file
 * service), the others one after the other in the same file, each as
 * the next trim's offset and size would be (the random map marks
 * each), without a look at the budget in between; the I/O is one, of
 * their summed length, counted once (number_ios, the pass's bytes).
 * A file with no range left ends the list early (a shorter trim).
 *
 * The ranges go at the start of u->buf (io/io_u.h's struct io_range),
 * u->offset is the last one's and u->len their sum: fio's io_u, which
 * its iolog line shows. fio then holds that offset and length to the
 * target's end: past it the file is done, and the drawn ranges are not
 * trimmed (a sequential trim of the last blocks of a device ends
 * short of them); that is kept, so that the I/O is fio's.
 */
#include "workload/workload_int.h"

_Static_assert(sizeof(struct io_range) == PLAN_RANGE_BYTES,
	       "plan_buf_bs() sizes the buffers for struct io_range");

int wl_next_ranges(struct workload *w, struct io_u *u, unsigned int fi,
		   uint64_t off, uint32_t len)
{
	struct io_range *r = u->buf;
	uint64_t total = len;
	unsigned int n = 1;

	r[0] = (struct io_range){ .offset = off, .len = len };
	while (n < w->nrange) {
		if (wl_range_next(w, fi, &len, &off))
			break;
		r[n++] = (struct io_range){ .offset = off, .len = len };
		total += len;
	}
	if (off + total > w->files[fi].real) {
		/* fio: the file is done; the next one's I/O, or the end */
		wl_file_done(w, fi);
		return wl_next_general(w, u);
	}
	wl_issue(w, u, fi, off, (uint32_t)total, DDIR_TRIM);
	return 0;
}
