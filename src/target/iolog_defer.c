/* SPDX-License-Identifier: MIT */
/*
 * read_iolog of a log written earlier in the same run: the files from
 * the writers before the run, the log itself when the job starts.
 */
#include "target/iolog_defer.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "workload/iolog.h"

/* File name's slot in pr, added when new. */
static unsigned int slot_of(struct plan_replay *pr, const char *name)
{
	unsigned int f;

	for (f = 0; f < pr->nr_files; f++)
		if (!strcmp(pr->files[f], name))
			return f;
	pr->files = xrealloc(pr->files, (f + 1) * sizeof(*pr->files));
	pr->ends = xrealloc(pr->ends, (f + 1) * sizeof(*pr->ends));
	pr->files[f] = xstrdup(name);
	pr->ends[f] = 0;
	pr->nr_files++;
	return f;
}

int iolog_defer_files(const struct job_plan *plans, unsigned int i,
		      const struct job_files *out, struct strbuf *err)
{
	const struct job_plan *p = &plans[i];
	const char *redirect = p->o.replay_redirect;
	bool redir = redirect && *redirect;
	struct plan_replay *pr = p->replay;
	unsigned int k, n;

	if (!pr || !pr->deferred || pr->nr_files)
		return 0;
	if (redir)
		slot_of(pr, redirect);
	for (k = 0; k < i; k++) {
		if (!iolog_writes_before(plans, i, k))
			continue;
		for (n = 0; n < out[k].nr_files; n++) {
			const struct engine_file *f = &out[k].files[n];
			uint64_t end = f->io_offset + f->io_size;
			unsigned int s = redir ? 0 : slot_of(pr, f->path);

			if (end > pr->ends[s])
				pr->ends[s] = end;
		}
	}
	if (!pr->nr_files) {
		strbuf_addf(err, "%s:%d: option 'read_iolog': the jobs that "
			    "write '%s' have no files", p->src_file,
			    p->src_line, pr->log);
		return -1;
	}
	return 0;
}

void iolog_defer_start(struct job_plan *p, const struct job_files *jf)
{
	struct plan_replay *pr = p->replay;
	struct strbuf err = STRBUF_INIT;
	uint64_t *sizes;
	unsigned int f;

	if (!pr || !pr->deferred || pr->error)
		return;
	/* how far the I/O may go: to the end of what is there */
	sizes = xcalloc(jf->nr_files + 1, sizeof(*sizes));
	for (f = 0; f < jf->nr_files; f++) {
		const struct engine_file *ef = &jf->files[f];

		sizes[f] = (ef->flags & EF_KIND) == EF_REGULAR ||
			   (ef->flags & EF_KIND) == EF_BLOCKDEV ?
			   ef->real_size : UINT64_MAX;
	}
	if (iolog_plan_start(p, sizes, &err))
		pr->error = strbuf_detach(&err);
	free(sizes);
	strbuf_release(&err);
}
