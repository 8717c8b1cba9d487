/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_CLI_CLI_H
#define IOLITE_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "job/job.h"
#include "util/strbuf.h"

/*
 * iolite's command line (fio's "--" options). One table (cli/options.c)
 * holds every option fio 3.33 knows: its name, argument, help text, group
 * and either a handler or the reason iolite refuses it. cli_parse() and
 * cli_help() both read that table, so --help cannot miss an option the
 * parser takes, and the unit test t/unit/cli.c checks every row.
 *
 * Parsing only records: options that do something and exit (--version,
 * --help, --crctest ...) set c->action and end the parse there, as fio
 * acts on the first of them; main() carries the action out. Arguments
 * that are not tool options are job options (--name=x --rw=read ...,
 * handed to job_cmdline_add) or job files.
 */

enum eta_mode { ETA_AUTO, ETA_ALWAYS, ETA_NEVER };

enum cli_action {
	CLI_RUN,		/* run the jobs (or --parse-only, --showcmd) */
	CLI_VERSION,
	CLI_HELP,
	CLI_CMDHELP,		/* action_arg: option name, "all", NULL */
	CLI_ENGHELP,		/* action_arg: engine name or NULL */
	CLI_INFLATE_LOG,	/* action_arg: the file */
	CLI_CRCTEST,		/* action_arg: list of checksums or NULL */
	CLI_CPUCLOCK_TEST,
	CLI_DEBUG_HELP,
	CLI_IDLE_CALIBRATE,
};

enum idle_prof_mode { IDLE_PROF_OFF, IDLE_PROF_SYSTEM, IDLE_PROF_PERCPU,
		      IDLE_PROF_CALIBRATE };

struct cli {
	enum cli_action action;
	const char *action_arg;

	const char *output;
	const char *formats;	/* NULL: normal */
	int terse_version;	/* 2 to 5; 0 until set: 3 */
	bool append_terse;
	enum eta_mode eta;
	uint64_t eta_newline_ms;
	uint64_t eta_interval_ms;	/* 0: fio's default, a second */
	uint64_t status_interval_ms;
	uint64_t stuck_timeout_ms;	/* 0: run/stuck.h's default */
	/* live numbers (src/live/): the stream, the endpoint, the push */
	const char *interval_output;	/* a path or "-" */
	uint64_t interval_ms;		/* --interval-period; 0: default */
	const char *metrics_listen;	/* ADDR:PORT */
	const char *metrics_push;	/* http://HOST:PORT/PATH */
	uint64_t metrics_linger_ms;
	bool parse_only;
	bool showcmd;
	bool readonly;
	bool warnings_fatal;
	bool bandwidth_log;	/* --bandwidth-log: agg-*_bw.log (stats/log.h) */
	unsigned long max_jobs;
	const char *aux_path;	/* NULL: the current directory */
	const char *trigger_file;
	uint64_t trigger_timeout_us;	/* 0: none */
	const char *trigger_cmd;
	enum idle_prof_mode idle_prof;
	unsigned int repeat;	/* --repeat=N: runs of the job list; 0: one */
	const char **sweeps;	/* --sweep=OPT=VALUES, in order (src/sweep/) */
	size_t nr_sweeps;
	int profile;		/* --profile-folded, --profile-rate: CPU */
	const char *profile_folded;	/* --profile-folded=FILE */
	unsigned int profile_hz;	/* --profile-rate; 0: from the cost */

	const char **sections;	/* NULL-terminated */
	size_t nr_sections;
	const char **jobfiles;
	size_t nr_jobfiles;
};

/*
 * Reads argv into c (zeroed by the caller) and jl. Returns 0, or -1 with
 * the message in err (an unknown or refused option, a bad value).
 */
int cli_parse(int argc, char **argv, struct cli *c, struct job_list *jl,
	      struct strbuf *err);

/* Carries out c->action (not CLI_RUN): the process's exit status. */
int cli_action(const struct cli *c);

/* --showcmd: prints the jobs of jl as one iolite command line. */
void cli_showcmd(const struct job_list *jl);

/* fio's --help: every row of the table, by group. */
void cli_help(FILE *f);

/* Is name one of the comma-separated names of list? */
bool cli_list_has(const char *list, const char *name);

/*
 * For the threads the command line adds (triggers, idle profiling): the
 * run's signals (SIGINT, SIGTERM, SIGUSR1) stay with the runner's threads.
 */
void cli_block_run_signals(void);

/* Is name one of the comma-separated formats of c (normal when unset)? */
bool cli_format_listed(const struct cli *c, const char *name);

void cli_release(struct cli *c);

/*
 * `iolite plot ...` (cli/plot.c): argv from "plot" on. Returns the exit
 * status.
 */
int cli_plot(int argc, char **argv);

/*
 * For the unit test: the table's rows one by one (i from 0; NULL after
 * the last), with an argument each accepted row takes.
 */
struct cli_row_info {
	const char *name;
	const char *example;	/* NULL: takes no argument */
	bool refused;
};
bool cli_row(unsigned int i, struct cli_row_info *out);

/* --crctest[=list] (cli/crctest.c): 0, or 1 on an unknown name. */
int cli_crctest(const char *list, FILE *out);

/* --cpuclock-test (cli/cpuclock.c): 0 when the TSC passes, else 1. */
int cli_cpuclock_test(FILE *out);

/* The CPUs this process may run on, into cpus[CPU_SETSIZE]: how many. */
int cli_cpus(int *cpus);

/*
 * --idle-prof (cli/idleprof.c): idle_prof_start() calibrates a unit of
 * work on every CPU, then leaves a thread of the lowest priority
 * (SCHED_IDLE) on each, counting units; idle_prof_stop() ends them and
 * fills r (its arrays live until idle_prof_free()). NULL when off.
 */
struct idle_prof;
struct idle_result;
struct idle_prof *idle_prof_start(enum idle_prof_mode mode);
void idle_prof_stop(struct idle_prof *ip, struct idle_result *r);
void idle_prof_free(struct idle_prof *ip);
/* --idle-prof=calibrate: the unit of work only, fio's lines; exit 0 */
int cli_idle_calibrate(FILE *out);

/*
 * --trigger-file / --trigger-timeout (cli/trigger.c): a thread that
 * watches for the file (removing it, as fio) or the time, then stops the
 * run; trigger_end() joins it and, when it fired, runs --trigger's
 * command. Both no-ops without a trigger.
 */
struct trigger;
struct trigger *trigger_start(const struct cli *c);
/*
 * 1 when the trigger fired (why in note), 0 when not; -1: the command
 * failed, or SIGINT / SIGTERM stopped it (*sig, else 0: the caller
 * reports, then exits 128 + *sig).
 */
int trigger_end(struct trigger *t, struct strbuf *note, int *sig);

#endif
