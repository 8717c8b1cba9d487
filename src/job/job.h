/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_JOB_JOB_H
#define IOLITE_JOB_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "opt/options.h"
#include "util/strbuf.h"

/*
 * Jobs as text: what the job files and the command line said, in order,
 * with where each line came from. Turning the text into struct job_options
 * (job_build) happens after all jobs are read, so kb_base applies to every
 * size in a job wherever it appears.
 */

struct job_entry {
	char *key;
	char *val;		/* NULL for a bare flag ("norandommap") */
	char *file;		/* "job.fio", or "<cmdline>" */
	int line;		/* 1-based; for the command line, the argv index */
};

struct job_desc {
	char *name;		/* section name */
	char *file;
	int line;
	struct job_entry *ents;	/* inherited [global] entries first */
	size_t nr, alloc;
	size_t inherited;	/* how many of ents came from [global] */
};

struct job_list {
	struct job_desc *jobs;
	size_t nr, alloc;
	/*
	 * Global entries: the command line's global options (the first
	 * cmdline_nr entries), then the [global] sections of the job files
	 * read so far. Reported as "global options" by the JSON writer.
	 * Each job file starts from the command line's part only: as in fio,
	 * a [global] section does not reach into another job file.
	 */
	struct job_desc global;
	size_t cmdline_nr;
	/* the job that command-line options go to: jobs[n - 1]; 0 = global */
	size_t cmdline_job;
};

void job_list_init(struct job_list *jl);
void job_list_release(struct job_list *jl);

/*
 * Reads a job file and appends its jobs. Jobs inherit the command line's
 * global options (already in jl->global) and the [global] sections of
 * this file that precede them. sections: NULL, or a NULL-terminated list
 * of job names (--section); other jobs are skipped, [global] still
 * applies. Returns 0 or -1 with "file:line: message" in err.
 *
 * The file format is fio's: "[name]" starts a job ("[global]" the
 * defaults for the jobs below it), "key=value" or a bare "flag" sets an
 * option, ';' or '#' starts a comment anywhere on a line, whitespace
 * around keys and values is dropped, "include path" reads another file
 * (relative to the including file; no sections allowed in it) into the
 * current section, values are expanded with job_expand_vars().
 *
 * As in fio, call job_cmdline_add() for every command-line option before
 * reading the job files, wherever the files appear in argv: the command
 * line's global options then apply to every job file.
 *
 * [global] entries no job of the file takes (after its last job) are
 * parsed as a job of their own, so that a bad one is refused. A file
 * that goes past 16 MiB or a million lines with its includes (a device,
 * a log) is refused, naming it.
 */
int job_file_read(struct job_list *jl, const char *path,
		  const char *const *sections, struct strbuf *err);

/* Frees jd's name, file and entries; jd is left empty. */
void job_desc_release(struct job_desc *jd);

/* Appends one entry to a job (used by the file reader and command line). */
void job_desc_add(struct job_desc *jd, const char *key, const char *val,
		  const char *file, int line);

/*
 * Builds a job's options: defaults, then kb_base (the last kb_base entry,
 * so it applies to sizes given before it), then every entry in order.
 * o->name is the job's name but does not count as explicitly set (the
 * dump shows it as "[name]"). Errors read "file:line: ..." and name the
 * option. o need not be initialised; the caller releases it with
 * job_options_release(), also after an error.
 */
int job_build(const struct job_desc *jd, struct job_options *o,
	      struct strbuf *err);

/*
 * plan_build() for job jd: the checks of the job as a whole. Where an
 * error names an option the job's entries set ("option 'bs': ..."), its
 * location is that entry's file:line, not the section's.
 */
struct job_plan;
int job_plan_build(struct job_plan *p, const struct job_options *o,
		   const struct job_desc *jd, struct strbuf *err);

/*
 * The same for an error raised later (files, devices, logs) with the
 * section's "FILE:LINE: option 'NAME': ": msg is rewritten in place to
 * the line in jl that set NAME, if one did.
 */
void job_list_relocate(const struct job_list *jl, struct strbuf *msg);

/*
 * Expands a value as fio does: ${VAR} from the environment (empty when
 * unset; a bare $VAR is left as written, as fio leaves it), and the
 * reserved $ncpus, $pagesize and $mb_memory; when one of those was
 * replaced and the result is an integer expression ("8*$mb_memory"), it
 * is evaluated. Returns NULL when a "${" is not closed. The caller frees
 * the result.
 */
char *job_expand_vars(const char *val);

/*
 * One job option from the command line ("--bs=4k" -> key "bs", val "4k";
 * a bare "--norandommap" has val NULL). "--name=x" starts job x (it
 * inherits the global options given so far); "--name=global" and the
 * options before the first --name go to jl->global. Entries carry file
 * "<cmdline>" and line argi (the argv index). Command-line jobs come
 * before job-file jobs, as in fio. Returns 0, or -1 with a message in err
 * (a --name without a value).
 */
int job_cmdline_add(struct job_list *jl, const char *key, const char *val,
		    int argi, struct strbuf *err);

/*
 * The command line's global options when no job took them all (given
 * after the last --name, or with no job at all), built as a job of
 * their own: otherwise nothing would parse them. The [global] sections
 * of job files are checked so by job_file_read(). Returns 0, or -1 with
 * "<cmdline>:N: option 'x': ..." in err.
 */
int job_list_check_globals(const struct job_list *jl, struct strbuf *err);

/*
 * wait_for=NAME must name a job defined before the waiting one, as fio
 * requires: a later job (two could wait for each other for ever), the
 * job itself or a name no job has is refused. Checked on the list as
 * read (before a wrapper drops jobs: iolite-mpi's ranks=). Returns 0, or
 * -1 with "file:line: option 'wait_for': ..." in err.
 */
int job_list_check_wait_for(const struct job_list *jl, struct strbuf *err);

/*
 * --parse-only: builds every job and appends "[name]" and its explicitly
 * set options (opt_dump) per job, a blank line between jobs. Returns 0, or
 * -1 with the first error in err.
 */
int job_list_dump(const struct job_list *jl, struct strbuf *out,
		  struct strbuf *err);

#endif
