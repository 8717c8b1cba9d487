/* SPDX-License-Identifier: MIT */
/*
 * iolite-mpi's one report, in every format asked for, shaped as fio's
 * client mode prints it: each rank's own report (its "part", written by
 * the rank itself with the report writers' client mode), in rank order,
 * then the "All clients" jobs merged up the tree (merge.c). The parts go
 * straight to rank 0: they are what rank 0 prints, one per host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mpi/mpi_int.h"
#include "report/report.h"
#include "stats/results.h"
#include "util/json.h"
#include "util/log.h"
#include "util/numfmt.h"

/* fio's order, whatever the order given: terse, json (json+), normal */
enum { F_TERSE, F_JSON, F_NORMAL, F_NR };

struct formats {
	bool on[F_NR];
	bool plus;
	int terse_version;
};

static void formats_of(const struct cli *c, struct formats *f)
{
	bool json = cli_format_listed(c, "json") || cli_format_listed(c, "json+");

	memset(f, 0, sizeof(*f));
	f->on[F_TERSE] = cli_format_listed(c, "terse") ||
			 (c->append_terse && !json &&
			  cli_format_listed(c, "normal"));
	f->on[F_JSON] = json;
	f->plus = cli_format_listed(c, "json+");
	f->on[F_NORMAL] = cli_format_listed(c, "normal");
	f->terse_version = c->terse_version ? c->terse_version : 3;
}

static int write_one(const struct formats *f, int k,
		     const struct run_result *rr, FILE *out)
{
	if (k == F_TERSE)
		return report_terse_write(rr, out, f->terse_version);
	if (k == F_JSON)
		return (f->plus ? report_json_plus : report_json).write(rr, out);
	return report_normal.write(rr, out);
}

/* A rank's jobs summed per direction, for its summary line. */
struct totals {
	uint64_t bytes[DDIR_RWDIR_CNT], ios[DDIR_RWDIR_CNT];
	uint64_t run_ms[DDIR_RWDIR_CNT];
	int error;
	unsigned int jobs;
};

static void totals_of(const struct run_result *rr, struct totals *t)
{
	unsigned int i, d;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < rr->nr_jobs; i++) {
		const struct job_result *j = &rr->jobs[i];

		t->jobs += j->members;
		if (j->error && !t->error)
			t->error = j->error;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			t->bytes[d] += j->dir[d].bytes;
			t->ios[d] += j->dir[d].ios;
			if (j->dir[d].runtime_ms > t->run_ms[d])
				t->run_ms[d] = j->dir[d].runtime_ms;
		}
	}
}

static const char *const dir_name[DDIR_RWDIR_CNT] = { "read", "write",
						      "trim" };

/*
 * IOLITE_MPI_HOSTS=summary (the default past MPI_FULL_RANKS ranks): a
 * line per rank in the normal report, an object per rank in JSON with
 * fio's direction keys (io_bytes, total_ios, runtime, bw_bytes, iops),
 * nothing in terse; "All clients" follows in full as always.
 */
static void summary_part(const struct mpi_run *m, int k,
			 const struct run_result *rr, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;
	struct totals t;
	unsigned int d;

	totals_of(rr, &t);
	if (k == F_NORMAL) {
		fprintf(f, "<%s> rank %d: jobs=%u, err=%2d", m->host, m->rank,
			t.jobs, t.error);
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!t.bytes[d] || !t.run_ms[d])
				continue;
			strbuf_reset(&sb);
			numfmt(&sb, t.ios[d] * 1000 / t.run_ms[d], 3, false,
			       NUMFMT_NONE);
			strbuf_addstr(&sb, ", BW=");
			numfmt(&sb, t.bytes[d] * 1000 / t.run_ms[d], 3, true,
			       NUMFMT_BYTEPERSEC);
			strbuf_addstr(&sb, ", io=");
			numfmt(&sb, t.bytes[d], 4, true, NUMFMT_BYTE);
			fprintf(f, "; %s: IOPS=%s, run=%llumsec", dir_name[d],
				strbuf_str(&sb), (unsigned long long)t.run_ms[d]);
		}
		fputc('\n', f);
	} else if (k == F_JSON) {
		json_init(&w, f);
		w.depth = 2;
		w.started = true;
		w.is_array[1] = true;
		w.has_items[0] = w.has_items[1] = true;
		json_begin_object(&w, NULL);
		json_str(&w, "jobname", "rank summary");
		json_u64(&w, "jobs", t.jobs);
		json_i64(&w, "error", t.error);
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			json_begin_object(&w, dir_name[d]);
			json_u64(&w, "io_bytes", t.bytes[d]);
			json_u64(&w, "total_ios", t.ios[d]);
			json_u64(&w, "runtime", t.run_ms[d]);
			json_u64(&w, "bw_bytes", t.run_ms[d] ?
				 t.bytes[d] * 1000 / t.run_ms[d] : 0);
			json_double(&w, "iops", t.run_ms[d] ?
				    (double)t.ios[d] * 1000.0 /
				    (double)t.run_ms[d] : 0);
			json_end_object(&w);
		}
		json_str(&w, "hostname", m->host);
		json_i64(&w, "rank", m->rank);
		json_end_object(&w);
	}
	strbuf_release(&sb);
}

/*
 * This rank's jobs per group of the whole list, summed per direction:
 * the html page's bars per rank (a block of the part message after the
 * formats' texts: the struct's bytes, one binary on every rank).
 */
static struct client_rank *rank_sums(const struct mpi_run *m,
				     const struct run_result *rr,
				     unsigned int *nr)
{
	struct client_rank *v = xcalloc(m->nr_global_gids ?
					m->nr_global_gids : 1, sizeof(*v));
	unsigned int i, g, d, n = 0;

	for (g = 0; g < m->nr_global_gids; g++) {
		struct client_rank *c = &v[n];

		memset(c, 0, sizeof(*c));
		for (i = 0; i < rr->nr_jobs; i++) {
			const struct job_result *j = &rr->jobs[i];

			if (j->groupid != g || j->not_started)
				continue;
			c->jobs += j->members;
			for (d = 0; d < RES_DIR_NR; d++) {
				c->bytes[d] += j->dir[d].bytes;
				c->ios[d] += j->dir[d].ios;
				if (j->dir[d].runtime_ms > c->runtime_ms[d])
					c->runtime_ms[d] = j->dir[d].runtime_ms;
			}
		}
		if (!c->jobs)
			continue;
		c->rank = m->rank;
		c->groupid = g;
		snprintf(c->host, sizeof(c->host), "%s", m->host);
		n++;
	}
	*nr = n;
	return v;
}

/* This rank's part in each format: [len, text] per format, then sums. */
static char *make_parts(struct mpi_run *m, const struct formats *f,
			struct run_result *rr, size_t *len)
{
	struct client_report cl = { .part = true, .host = m->host,
				    .rank = m->rank };
	char *msg = NULL;
	size_t n = 0;
	FILE *mf = open_memstream(&msg, &n);
	int k;

	if (!mf)
		die("cannot make the report: %s", strerror(errno));
	rr->client = &cl;
	for (k = 0; k < F_NR; k++) {
		char *text = NULL;
		size_t tlen = 0;
		FILE *tf;
		uint32_t l;

		if (f->on[k]) {
			tf = open_memstream(&text, &tlen);
			if (!tf)
				die("cannot make the report: %s",
				    strerror(errno));
			if (m->summary)
				summary_part(m, k, rr, tf);
			else if (write_one(f, k, rr, tf))
				die("cannot make the report: %s",
				    strerror(errno));
			if (fclose(tf))
				die("cannot make the report: %s",
				    strerror(errno));
		}
		l = (uint32_t)tlen;
		fwrite(&l, sizeof(l), 1, mf);
		if (tlen)
			fwrite(text, 1, tlen, mf);
		free(text);
	}
	rr->client = NULL;
	{
		unsigned int nr;
		struct client_rank *v = rank_sums(m, rr, &nr);
		uint32_t l = (uint32_t)(nr * sizeof(*v));

		fwrite(&l, sizeof(l), 1, mf);
		if (l)
			fwrite(v, 1, l, mf);
		free(v);
	}
	if (fclose(mf))
		die("cannot make the report: %s", strerror(errno));
	*len = n;
	return msg;
}

/* The rank sums at the end of a part message, appended to all[]. */
static int take_sums(const char *msg, size_t len, size_t pos,
		     struct client_rank **all, unsigned int *nr)
{
	uint32_t l;

	if (pos + sizeof(l) > len)
		return -1;
	memcpy(&l, msg + pos, sizeof(l));
	pos += sizeof(l);
	if (pos + l > len || l % sizeof(**all))
		return -1;
	*all = xrealloc(*all, *nr * sizeof(**all) + l + sizeof(**all));
	memcpy(*all + *nr, msg + pos, l);
	*nr += l / sizeof(**all);
	return 0;
}

/*
 * Splits a part message into its formats' texts (NUL-terminated) and
 * appends its rank sums to sums[].
 */
static int split_parts(char *msg, size_t len, char **text,
		       struct client_rank **sums, unsigned int *nr_sums)
{
	size_t pos = 0;
	int k;

	for (k = 0; k < F_NR; k++) {
		uint32_t l;

		if (pos + sizeof(l) > len)
			return -1;
		memcpy(&l, msg + pos, sizeof(l));
		pos += sizeof(l);
		if (pos + l > len)
			return -1;
		text[k] = xmalloc(l + 1);
		memcpy(text[k], msg + pos, l);
		text[k][l] = '\0';
		pos += l;
	}
	return take_sums(msg, len, pos, sums, nr_sums);
}

/* Local group ids as the whole job list numbers them (ranks.c). */
static void global_groups(struct mpi_run *m, struct run_result *rr)
{
	unsigned int i;

	for (i = 0; i < rr->nr_jobs; i++)
		if (rr->jobs[i].groupid < m->nr_gid_map)
			rr->jobs[i].groupid = m->gid_map[rr->jobs[i].groupid];
	free(rr->groups);
	rr->nr_groups = m->nr_global_gids;
	rr->groups = xcalloc(rr->nr_groups ? rr->nr_groups : 1,
			     sizeof(*rr->groups));
	results_finish(rr);
}

static int write_documents(struct mpi_run *m, const struct formats *f,
			   struct run_result *all, char ***texts, FILE *out)
{
	const char *notes[1] = { m->note };
	const char **parts = xcalloc((size_t)m->nranks, sizeof(*parts));
	struct client_report cl = { .host = m->host, .parts = parts,
				    .nr_parts = (unsigned int)m->nranks,
				    .clocks = m->clocks,
				    .nr_clocks = m->clocks ?
						 (unsigned int)m->nranks : 0 };
	int k, r, ret = 0;

	all->client = &cl;
	all->notes = notes;
	all->nr_notes = m->note[0] ? 1 : 0;
	for (k = 0; k < F_NR && !ret; k++) {
		if (!f->on[k])
			continue;
		for (r = 0; r < m->nranks; r++)
			parts[r] = texts[r] ? texts[r][k] : NULL;
		ret = write_one(f, k, all, out);
	}
	all->client = NULL;
	all->notes = NULL;
	all->nr_notes = 0;
	free(parts);
	return ret;
}

/*
 * --output-format=html: rank 0's page of the "All clients" jobs, one per
 * group (the ranks' own results stay on their ranks: only their text
 * parts and the merged partial results travel).
 */
static int write_page(struct mpi_run *m, struct run_result *all,
		      const struct run_result *rr,
		      const struct client_rank *sums, unsigned int nr_sums,
		      FILE *html)
{
	const char *notes[1] = { m->note };
	struct client_report cl = { .host = m->host, .ranks = sums,
				    .nr_ranks = nr_sums };
	int ret;

	all->notes = notes;
	all->nr_notes = m->note[0] ? 1 : 0;
	/* the page's header: rank 0's command line, job files, machine */
	all->argv = rr->argv;
	all->argc = rr->argc;
	all->sources = rr->sources;
	all->nr_sources = rr->nr_sources;
	all->host = rr->host;
	all->client = &cl;
	/* the merged stream, closed by now (live.c) */
	all->interval_stream = rr->interval_stream;
	ret = report_html.write(all, html);
	all->interval_stream = NULL;
	all->client = NULL;
	all->argv = NULL;
	all->argc = 0;
	all->sources = NULL;
	all->nr_sources = 0;
	all->host = NULL;
	all->notes = NULL;
	all->nr_notes = 0;
	return ret;
}

/*
 * Rank 0, signalled: the ranks that never answered (killed: mpirun ends
 * the others when one dies) named on stderr and in the report's note;
 * the others' reports and what they merged are printed.
 */
static void say_lost(struct mpi_run *m)
{
	size_t n = strlen(m->note);

	error("lost: %s", m->lost);
	snprintf(m->note + n, sizeof(m->note) - n, "%slost: %s: the report "
		 "holds what the other ranks measured", n ? "; " : "",
		 m->lost);
}

int mpi_report(struct mpi_run *m, const struct cli *c, struct run_result *rr,
	       FILE *out, FILE *html)
{
	struct strbuf err = STRBUF_INIT;
	struct run_result all;
	struct formats f;
	struct client_rank *sums = NULL;
	unsigned int nr_sums = 0;
	char ***texts = NULL;
	char *msg;
	size_t len;
	int r, k, ret = 0;

	memset(&all, 0, sizeof(all));
	formats_of(c, &f);
	global_groups(m, rr);
	mpi_grid_align(m, rr);
	msg = make_parts(m, &f, rr, &len);
	if (m->rank) {
		if (mpi_send(m, 0, TAG_PART, msg, len,
			     mpi_wait_s(m, m->timeout_s, HURRY_PART_TX_S)))
			ret = -1;
	} else {
		texts = xcalloc((size_t)m->nranks, sizeof(*texts));
		texts[0] = xcalloc(F_NR, sizeof(char *));
		if (split_parts(msg, len, texts[0], &sums, &nr_sums))
			BUG("mpi: a part that does not read back");
	}
	free(msg);
	for (r = 1; texts && r < m->nranks; r++) {
		void *in;

		if (mpi_recv(m, r, TAG_PART, &in, &len,
			     mpi_wait_s(m, m->timeout_s, HURRY_PART_S),
			     false)) {
			if (m->hurry_start > 0) {	/* killed, most likely */
				mpi_lost(m, "rank %d sent no report within "
					 "%g s of the stop", r, HURRY_PART_S);
				continue;
			}
			error("rank %d sent no report within %g s", r,
			      m->timeout_s);
			ret = -1;
			continue;
		}
		texts[r] = xcalloc(F_NR, sizeof(char *));
		if (split_parts(in, len, texts[r], &sums, &nr_sums))
			ret = -1;
		free(in);
	}
	/* after the parts: a rank sends its part before its merge */
	if (mpi_merge(m, rr, &all, &err)) {
		error("%s", strbuf_str(&err));
		ret = -1;
	}
	if (texts && m->lost[0])
		say_lost(m);
	if (texts && !ret)
		ret = write_documents(m, &f, &all, texts, out);
	if (texts && !ret && html)
		ret = write_page(m, &all, rr, sums, nr_sums, html);
	free(sums);
	if (texts) {
		mpi_all_release(&all);
		for (r = 0; r < m->nranks; r++) {
			for (k = 0; texts[r] && k < F_NR; k++)
				free(texts[r][k]);
			free(texts[r]);
		}
		free(texts);
	}
	strbuf_release(&err);
	return ret;
}
