/* SPDX-License-Identifier: MIT */
/*
 * ranks=LIST (iolite-mpi's own job option, "0-3,8"): the job runs on
 * those ranks only, so that ranks can run different sections (writers
 * on some, readers on the others). The entries are taken out before
 * the option table sees them; the plain iolite refuses the option.
 *
 * Stonewall segments must stay in step on every rank: segment k of the
 * whole job list starts everywhere together, whichever jobs a rank
 * keeps. So the whole list's segments (and group ids) are worked out
 * here; a kept job that follows a dropped stonewall job gets a
 * stonewall of its own, and the maps say which segment and group of
 * the whole list each local one is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "mpi/mpi_int.h"
#include "opt/options.h"
#include "util/log.h"

/* Is rank in "0-3,8"? -1 on a malformed list. */
static int rank_listed(const char *s, int rank, int nranks)
{
	const char *p = s;
	int hit = 0;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -1;
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
		if (a >= nranks)
			continue;	/* fewer ranks than the list names */
		if (rank >= a && rank <= b)
			hit = 1;
	}
	return hit;
}

/* Takes the "ranks" entries out of jd; the last one's value, or NULL. */
static char *take_ranks(struct job_desc *jd, char **file, int *line)
{
	char *val = NULL;
	size_t i, n = 0, inh = jd->inherited;

	for (i = 0; i < jd->nr; i++) {
		struct job_entry *e = &jd->ents[i];

		if (strcmp(e->key, "ranks")) {
			jd->ents[n++] = *e;
			continue;
		}
		free(val);
		free(*file);
		val = e->val ? e->val : xstrdup("");
		*file = e->file;
		*line = e->line;
		free(e->key);
		if (i < jd->inherited)
			inh--;
	}
	jd->nr = n;
	jd->inherited = inh;
	return val;
}

struct job_flags {
	bool stonewall, new_group;
	unsigned int period_ms[2];	/* bwavgtime, iopsavgtime */
};

static int job_flags(const struct job_desc *jd, struct job_flags *f,
		     struct strbuf *err)
{
	struct job_options o;
	int ret = job_build(jd, &o, err);

	f->stonewall = o.stonewall;
	f->new_group = o.new_group;
	f->period_ms[0] = o.bwavgtime_ms ? o.bwavgtime_ms : 500;
	f->period_ms[1] = o.iopsavgtime_ms ? o.iopsavgtime_ms : 500;
	job_options_release(&o);
	return ret;
}

/*
 * The sampling grid of a group (grid.c): the longest bwavgtime (and
 * iopsavgtime) of its jobs on any rank, so that the series of jobs
 * sampled at different periods add up interval by interval; the first
 * group whose jobs differ is kept for the run's note.
 */
static void group_period(struct mpi_run *m, unsigned int ggid,
			 const struct job_flags *f, bool first)
{
	unsigned int k;

	for (k = 0; k < 2; k++) {
		unsigned int *p = &m->gid_period_ms[k][ggid];

		if (!first && *p != f->period_ms[k] && !m->nr_mixed_periods++)
			m->mixed_gid = ggid;
		if (first || f->period_ms[k] > *p)
			*p = f->period_ms[k];
	}
}

int mpi_ranks_filter(struct mpi_run *m, struct job_list *jl,
		     struct strbuf *err)
{
	unsigned int gseg = 0, ggid = 0, lseg = 0, lgid = 0;
	unsigned int prev_gseg = 0, prev_ggid = 0;
	size_t i, kept = 0;

	m->seg_map = xcalloc(jl->nr + 1, sizeof(*m->seg_map));
	m->gid_map = xcalloc(jl->nr + 1, sizeof(*m->gid_map));
	m->gid_seg = xcalloc(jl->nr + 1, sizeof(*m->gid_seg));
	m->gid_period_ms[0] = xcalloc(jl->nr + 1, sizeof(unsigned int));
	m->gid_period_ms[1] = xcalloc(jl->nr + 1, sizeof(unsigned int));
	for (i = 0; i < jl->nr; i++) {
		struct job_desc *jd = &jl->jobs[i];
		char *file = NULL, *val;
		int line = 0, on = 1;
		struct job_flags f;
		bool sw, ng;

		val = take_ranks(jd, &file, &line);
		if (val) {
			on = rank_listed(val, m->rank, m->nranks);
			if (on < 0) {
				strbuf_addf(err, "%s:%d: option 'ranks': invalid rank list '%s' (want e.g. 0-3,8)",
					    file, line, val);
				free(val);
				free(file);
				return -EINVAL;
			}
		}
		free(val);
		free(file);
		if (job_flags(jd, &f, err))
			return -EINVAL;
		sw = f.stonewall;
		ng = f.new_group;
		if (i && sw)
			gseg++;
		if (i && (sw || ng))
			ggid++;
		m->gid_seg[ggid] = gseg;
		group_period(m, ggid, &f, !i || sw || ng);
		if (!on) {
			job_desc_release(jd);
			continue;
		}
		/* a new segment (group) of the whole list is one here too */
		if (kept && gseg != prev_gseg) {
			if (!sw)
				job_desc_add(jd, "stonewall", NULL, jd->file,
					     jd->line);
			m->seg_map[++lseg] = gseg;
		} else if (!kept) {
			m->seg_map[0] = gseg;
		}
		if (kept && ggid != prev_ggid) {
			/* as main numbers groups: a stonewall or new_group */
			if (!sw && !ng && gseg == prev_gseg)
				job_desc_add(jd, "new_group", NULL, jd->file,
					     jd->line);
			lgid++;
		}
		m->gid_map[lgid] = ggid;
		prev_gseg = gseg;
		prev_ggid = ggid;
		jl->jobs[kept++] = *jd;
	}
	m->nr_seg_map = kept ? lseg + 1 : 0;
	m->nr_gid_map = kept ? lgid + 1 : 0;
	m->nr_global_segs = jl->nr ? gseg + 1 : 0;
	m->nr_global_gids = jl->nr ? ggid + 1 : 0;
	m->seg_start_ns = xcalloc(m->nr_global_segs + 1,
				  sizeof(*m->seg_start_ns));
	jl->nr = kept;
	return 0;
}
