/* SPDX-License-Identifier: MIT */
/*
 * The command-line option table: every option fio 3.33 takes on its
 * command line (those `fio --help` lists, and the few it takes without
 * listing them), each either handled or refused with the reason. The
 * parser and --help read only this table; t/unit/cli.c parses every row
 * and checks --help shows each one.
 */
#include "cli/cli.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opt/opt.h"
#include "opt/plan.h"
#include "report/report.h"
#include "util/debug.h"
#include "util/log.h"
#include "util/num.h"

enum cli_arg { ARG_NONE, ARG_REQ, ARG_OPT };

/* --help's groups, in the order of fio's --help page */
enum cli_group {
	G_RUN, G_OUTPUT, G_INFO, G_STATUS, G_JOBS, G_REMOTE, G_PROFILE,
	G_TRIGGER, G_NR,
};

static const char *const group_title[G_NR] = {
	[G_RUN] = "Running",
	[G_OUTPUT] = "Output",
	[G_INFO] = "Information (print and exit)",
	[G_STATUS] = "Status while running",
	[G_JOBS] = "Jobs and safety",
	[G_REMOTE] = "Client and server (fio's multi-host runs)",
	[G_PROFILE] = "Profiling and logs",
	[G_TRIGGER] = "Triggers and state files",
};

typedef int (*cli_set_fn)(struct cli *c, const char *val, struct strbuf *err);

struct cli_opt {
	const char *name;
	enum cli_arg arg;
	const char *argname;	/* shown in --help: "=FILE", "[=LIST]" */
	enum cli_group group;
	cli_set_fn set;		/* NULL: refused */
	const char *refuse;	/* why, when refused */
	const char *example;	/* a value the row takes (unit test) */
	const char *help;
};

#define MULTI_HOST "iolite runs on one host; for several hosts run " \
		   "iolite-mpi under mpirun (doc/mpi.md)"

/* ---- handlers ---------------------------------------------------------- */

static int set_time_ms(const char *key, const char *val, uint64_t *ms,
		       struct strbuf *err)
{
	uint64_t us;

	if (!*val) {
		strbuf_addf(err, "option '--%s' needs a time", key);
		return -1;
	}
	if (num_parse_time_us(val, 1000000, &us)) {
		strbuf_addf(err, "option '--%s': invalid time '%s'", key, val);
		return -1;
	}
	*ms = us / 1000;
	return 0;
}

static int set_debug(struct cli *c, const char *val, struct strbuf *err)
{
	if (!strcmp(val, "help")) {
		c->action = CLI_DEBUG_HELP;
		return 0;
	}
	return dbg_parse(val, err);
}

static int set_parse_only(struct cli *c, const char *val, struct strbuf *err)
{
	(void)val, (void)err;
	c->parse_only = true;
	return 0;
}

static int set_output(struct cli *c, const char *val, struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--output' needs a file name");
		return -1;
	}
	c->output = val;
	return 0;
}

static int set_minimal(struct cli *c, const char *val, struct strbuf *err)
{
	(void)val, (void)err;
	c->formats = "terse";
	return 0;
}

/*
 * Every name must be a writer's: an empty one ("", "json,", ",normal")
 * would leave nothing to print after the whole run, so it is refused
 * here, before any I/O, as fio refuses it.
 */
static int set_output_format(struct cli *c, const char *val,
			     struct strbuf *err)
{
	const char *p = val;

	do {
		size_t n = strcspn(p, ",");
		char name[16];

		if (!n) {
			strbuf_addf(err, "option '--output-format': empty format in '%s' (valid: terse, json, json+, normal, html)",
				    val);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n >= sizeof(name) || !report_find(name)) {
			strbuf_addf(err, "option '--output-format': unknown format '%.*s' (valid: terse, json, json+, normal, html)",
				    (int)n, p);
			return -1;
		}
		p += n;
	} while (*p++ == ',');
	c->formats = val;
	return 0;
}

static int set_terse_version(struct cli *c, const char *val,
			     struct strbuf *err)
{
	if (strlen(val) != 1 || val[0] < '2' || val[0] > '5') {
		strbuf_addf(err, "option '--terse-version': invalid version '%s' (valid: 2, 3, 4, 5)",
			    val);
		return -1;
	}
	c->terse_version = val[0] - '0';
	return 0;
}

static int set_append_terse(struct cli *c, const char *val,
			    struct strbuf *err)
{
	(void)val, (void)err;
	c->append_terse = true;
	return 0;
}

static int set_action(struct cli *c, enum cli_action a, const char *val)
{
	c->action = a;
	c->action_arg = val;
	return 0;
}

static int set_version(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	return set_action(c, CLI_VERSION, val);
}

static int set_help(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	return set_action(c, CLI_HELP, val);
}

static int set_cpuclock_test(struct cli *c, const char *val,
			     struct strbuf *err)
{
	(void)err;
	return set_action(c, CLI_CPUCLOCK_TEST, val);
}

static int set_crctest(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	return set_action(c, CLI_CRCTEST, val);
}

static int set_cmdhelp(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	return set_action(c, CLI_CMDHELP, val);
}

static int set_enghelp(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	return set_action(c, CLI_ENGHELP, val);
}

static int set_inflate_log(struct cli *c, const char *val, struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--inflate-log' needs a file");
		return -1;
	}
	return set_action(c, CLI_INFLATE_LOG, val);
}

static int set_showcmd(struct cli *c, const char *val, struct strbuf *err)
{
	(void)val, (void)err;
	c->showcmd = true;
	return 0;
}

static int set_eta(struct cli *c, const char *val, struct strbuf *err)
{
	if (!strcmp(val, "auto")) {
		c->eta = ETA_AUTO;
	} else if (!strcmp(val, "always")) {
		c->eta = ETA_ALWAYS;
	} else if (!strcmp(val, "never")) {
		c->eta = ETA_NEVER;
	} else {
		strbuf_addf(err, "option '--eta': invalid value '%s' (valid: auto, always, never)",
			    val);
		return -1;
	}
	return 0;
}

static int set_eta_newline(struct cli *c, const char *val, struct strbuf *err)
{
	return set_time_ms("eta-newline", val, &c->eta_newline_ms, err);
}

static int set_eta_interval(struct cli *c, const char *val,
			    struct strbuf *err)
{
	if (set_time_ms("eta-interval", val, &c->eta_interval_ms, err))
		return -1;
	/* as fio: a faster status line would flood the terminal */
	if (c->eta_interval_ms < 250) {
		strbuf_addf(err, "option '--eta-interval': '%s' is too short (250ms at least)",
			    val);
		return -1;
	}
	return 0;
}

static int set_status_interval(struct cli *c, const char *val,
			       struct strbuf *err)
{
	if (set_time_ms("status-interval", val, &c->status_interval_ms, err))
		return -1;
	if (!c->status_interval_ms) {
		strbuf_addf(err, "option '--status-interval': '%s' is too short (1ms at least)",
			    val);
		return -1;
	}
	return 0;
}

/* --- live numbers (src/live/) --- */

static int set_interval_output(struct cli *c, const char *val,
			       struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--interval-output' needs a file name (or - for stdout)");
		return -1;
	}
	c->interval_output = val;
	return 0;
}

static int set_interval_period(struct cli *c, const char *val,
			       struct strbuf *err)
{
	if (set_time_ms("interval-period", val, &c->interval_ms, err))
		return -1;
	if (c->interval_ms < 10) {
		strbuf_addf(err, "option '--interval-period': '%s' is too short (10ms at least)",
			    val);
		return -1;
	}
	return 0;
}

static int set_metrics_listen(struct cli *c, const char *val,
			      struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--metrics-listen' needs ADDR:PORT");
		return -1;
	}
	c->metrics_listen = val;
	return 0;
}

static int set_metrics_push(struct cli *c, const char *val,
			    struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--metrics-push' needs a URL");
		return -1;
	}
	c->metrics_push = val;
	return 0;
}

static int set_metrics_linger(struct cli *c, const char *val,
			      struct strbuf *err)
{
	return set_time_ms("metrics-linger", val, &c->metrics_linger_ms, err);
}

static int set_stuck_timeout(struct cli *c, const char *val,
			     struct strbuf *err)
{
	if (set_time_ms("stuck-timeout", val, &c->stuck_timeout_ms, err))
		return -1;
	if (!c->stuck_timeout_ms) {
		strbuf_addstr(err, "option '--stuck-timeout': it must be more "
			      "than 0 (a job is given up once its I/O has not "
			      "moved this long after it was told to stop)");
		return -1;
	}
	return 0;
}

static int set_readonly(struct cli *c, const char *val, struct strbuf *err)
{
	(void)val, (void)err;
	c->readonly = true;
	return 0;
}

static int set_section(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	c->sections = xrealloc(c->sections,
			       (c->nr_sections + 2) * sizeof(char *));
	c->sections[c->nr_sections++] = val;
	c->sections[c->nr_sections] = NULL;
	return 0;
}

/* fio sizes its shared-memory pool with it; iolite has no such pool */
static int set_alloc_size(struct cli *c, const char *val, struct strbuf *err)
{
	uint64_t kb;

	(void)c;
	if (num_parse_u64(val, &kb) || !kb) {
		strbuf_addf(err, "option '--alloc-size': invalid size '%s' (KiB)",
			    val);
		return -1;
	}
	return 0;
}

static int set_warnings_fatal(struct cli *c, const char *val,
			      struct strbuf *err)
{
	(void)val, (void)err;
	c->warnings_fatal = true;
	return 0;
}

static int set_bandwidth_log(struct cli *c, const char *val,
			     struct strbuf *err)
{
	(void)val, (void)err;
	c->bandwidth_log = true;
	return 0;
}

static int set_max_jobs(struct cli *c, const char *val, struct strbuf *err)
{
	char *end;

	errno = 0;
	c->max_jobs = strtoul(val, &end, 10);
	if (!*val || *end || !c->max_jobs || errno || val[0] == '-') {
		strbuf_addf(err, "option '--max-jobs': invalid number '%s'", val);
		return -1;
	}
	if (c->max_jobs > RUNNER_MAX_JOBS) {
		strbuf_addf(err, "option '--max-jobs': %lu is over the limit of %d job instances",
			    c->max_jobs, RUNNER_MAX_JOBS);
		return -1;
	}
	return 0;
}

/* --repeat=N: main runs the job list N times (src/sweep/repeat.c) */
static int set_repeat(struct cli *c, const char *val, struct strbuf *err)
{
	uint64_t n;

	if (num_parse_u64(val, &n) || n < 1 || n > 10000) {
		strbuf_addf(err, "option '--repeat': invalid count '%s' (1..10000)",
			    val);
		return -1;
	}
	c->repeat = (unsigned int)n;
	return 0;
}

/* --sweep=OPT=VALUES: checked by sweep_parse() (src/sweep/sweep.c) */
static int set_sweep(struct cli *c, const char *val, struct strbuf *err)
{
	(void)err;
	c->sweeps = xrealloc(c->sweeps, (c->nr_sweeps + 1) * sizeof(char *));
	c->sweeps[c->nr_sweeps++] = val;
	return 0;
}

static int set_aux_path(struct cli *c, const char *val, struct strbuf *err)
{
	struct stat st;

	if (!*val) {
		strbuf_addstr(err, "option '--aux-path' needs a directory");
		return -1;
	}
	if (stat(val, &st)) {
		strbuf_addf(err, "option '--aux-path': '%s': %s", val,
			    strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "option '--aux-path': '%s' is not a directory",
			    val);
		return -1;
	}
	c->aux_path = val;
	return 0;
}

static int set_trigger_file(struct cli *c, const char *val, struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--trigger-file' needs a file name");
		return -1;
	}
	c->trigger_file = val;
	return 0;
}

static int set_trigger_timeout(struct cli *c, const char *val,
			       struct strbuf *err)
{
	if (!*val || num_parse_time_us(val, 1000000, &c->trigger_timeout_us) ||
	    !c->trigger_timeout_us) {
		strbuf_addf(err, "option '--trigger-timeout': invalid time '%s'",
			    val);
		return -1;
	}
	return 0;
}

static int set_trigger(struct cli *c, const char *val, struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--trigger' needs a command");
		return -1;
	}
	c->trigger_cmd = val;
	return 0;
}

static int set_idle_prof(struct cli *c, const char *val, struct strbuf *err)
{
	if (!strcmp(val, "system")) {
		c->idle_prof = IDLE_PROF_SYSTEM;
	} else if (!strcmp(val, "percpu")) {
		c->idle_prof = IDLE_PROF_PERCPU;
	} else if (!strcmp(val, "calibrate")) {
		c->idle_prof = IDLE_PROF_CALIBRATE;
		return set_action(c, CLI_IDLE_CALIBRATE, val);
	} else {
		strbuf_addf(err, "option '--idle-prof': invalid value '%s' (valid: system, percpu, calibrate)",
			    val);
		return -1;
	}
	return 0;
}

static int set_profile_folded(struct cli *c, const char *val,
			      struct strbuf *err)
{
	if (!*val) {
		strbuf_addstr(err, "option '--profile-folded' needs a file name");
		return -1;
	}
	c->profile_folded = val;
	if (!c->profile)
		c->profile = JOB_PROFILE_CPU;
	return 0;
}

static int set_profile_rate(struct cli *c, const char *val,
			    struct strbuf *err)
{
	char *end;
	unsigned long hz = strtoul(val, &end, 10);

	if (!*val || *end || hz < 1 || hz > 10000) {
		strbuf_addf(err, "option '--profile-rate': invalid rate '%s' (samples a second of CPU, 1 to 10000)",
			    val);
		return -1;
	}
	c->profile_hz = (unsigned int)hz;
	if (!c->profile)
		c->profile = JOB_PROFILE_CPU;
	return 0;
}

/* ---- the table ---------------------------------------------------------- */

static const struct cli_opt cli_opts[] = {
	/* Running */
	{ "debug", ARG_REQ, "=LIST", G_RUN, set_debug, NULL, "file,parse",
	  "debug lines on stderr for these categories (--debug=help)" },
	{ "parse-only", ARG_NONE, NULL, G_RUN, set_parse_only, NULL, NULL,
	  "parse and check the jobs, print them, run nothing" },
	{ "merge-blktrace-only", ARG_NONE, NULL, G_RUN, NULL,
	  "iolite has no blktrace support", NULL,
	  "merge blktraces only (fio)" },
	/* Output */
	{ "output", ARG_REQ, "=FILE", G_OUTPUT, set_output, NULL, "rep.txt",
	  "write the report to FILE" },
	{ "bandwidth-log", ARG_NONE, NULL, G_OUTPUT, set_bandwidth_log, NULL,
	  NULL, "write the aggregate bandwidth logs agg-{read,write,trim}_bw.log" },
	{ "latency-log", ARG_REQ, "=NAME", G_OUTPUT, NULL,
	  "fio has deprecated it: use write_lat_log= in the jobs", NULL,
	  "latency log (deprecated in fio)" },
	{ "minimal", ARG_NONE, NULL, G_OUTPUT, set_minimal, NULL, NULL,
	  "terse output, as --output-format=terse" },
	{ "output-format", ARG_REQ, "=LIST", G_OUTPUT, set_output_format, NULL,
	  "json,normal", "formats to print: normal, json, json+, terse, html" },
	{ "terse-version", ARG_REQ, "=N", G_OUTPUT, set_terse_version, NULL,
	  "5", "terse format version: 2, 3 (default), 4 or 5" },
	{ "append-terse", ARG_OPT, NULL, G_OUTPUT, set_append_terse, NULL,
	  NULL, "with normal output, print the terse lines too" },
	/* Information */
	{ "version", ARG_NONE, NULL, G_INFO, set_version, NULL, NULL,
	  "print the version" },
	{ "help", ARG_NONE, NULL, G_INFO, set_help, NULL, NULL,
	  "print this page" },
	{ "cpuclock-test", ARG_NONE, NULL, G_INFO, set_cpuclock_test, NULL,
	  NULL, "check the TSC clock on every CPU (exit 1 when it fails)" },
	{ "crctest", ARG_OPT, "[=LIST]", G_INFO, set_crctest, NULL, "crc32c",
	  "measure the speed of the checksums verify= has" },
	{ "cmdhelp", ARG_OPT, "[=OPTION]", G_INFO, set_cmdhelp, NULL, "bs",
	  "job options, or one option in detail (\"all\": every one)" },
	{ "enghelp", ARG_OPT, "[=ENGINE[,OPTION]]", G_INFO, set_enghelp, NULL,
	  "pvsync2,hipri", "I/O engines, one engine's options, or one option" },
	{ "showcmd", ARG_NONE, NULL, G_INFO, set_showcmd, NULL, NULL,
	  "print each job file as a command line" },
	/* Status while running */
	{ "eta", ARG_REQ, "=WHEN", G_STATUS, set_eta, NULL, "never",
	  "status line: auto (on a terminal), always, never" },
	{ "eta-newline", ARG_REQ, "=TIME", G_STATUS, set_eta_newline, NULL,
	  "2", "start a new status line every TIME (seconds)" },
	{ "eta-interval", ARG_REQ, "=TIME", G_STATUS, set_eta_interval, NULL,
	  "500ms", "status line period (default 1s, at least 250ms)" },
	{ "status-interval", ARG_REQ, "=TIME", G_STATUS, set_status_interval,
	  NULL, "10", "print the full report every TIME (seconds)" },
	{ "interval-output", ARG_REQ, "=FILE", G_STATUS, set_interval_output,
	  NULL, "run.jsonl", "write each interval's own figures to FILE (- for stdout), one JSON line per interval and job" },
	{ "interval-period", ARG_REQ, "=TIME", G_STATUS, set_interval_period,
	  NULL, "1", "the live interval (default: --status-interval, else 1s)" },
	{ "metrics-listen", ARG_REQ, "=ADDR:PORT", G_STATUS,
	  set_metrics_listen, NULL, "127.0.0.1:9615",
	  "serve Prometheus metrics on http://ADDR:PORT/metrics (:PORT: the loopback)" },
	{ "metrics-push", ARG_REQ, "=URL", G_STATUS, set_metrics_push, NULL,
	  "http://127.0.0.1:9091/metrics/job/iolite",
	  "push the final metrics to a Prometheus Pushgateway" },
	{ "metrics-linger", ARG_REQ, "=TIME", G_STATUS, set_metrics_linger,
	  NULL, "5", "keep serving the final metrics TIME (seconds) after the run" },
	/* Jobs and safety */
	{ "readonly", ARG_NONE, NULL, G_JOBS, set_readonly, NULL, NULL,
	  "refuse any job that writes or trims" },
	{ "section", ARG_REQ, "=NAME", G_JOBS, set_section, NULL, "a",
	  "run only job NAME of the job files (may be repeated)" },
	{ "alloc-size", ARG_REQ, "=KB", G_JOBS, set_alloc_size, NULL, "16384",
	  "accepted, changes nothing: iolite has no shared memory pool to size" },
	{ "warnings-fatal", ARG_NONE, NULL, G_JOBS, set_warnings_fatal, NULL,
	  NULL, "parse-stage warnings (notes about job options) are errors" },
	{ "stuck-timeout", ARG_REQ, "=TIME", G_JOBS, set_stuck_timeout, NULL,
	  "60", "give up a job told to stop whose I/O has not moved for TIME, and report (default 300s, as fio)" },
	{ "max-jobs", ARG_REQ, "=N", G_JOBS, set_max_jobs, NULL, "8",
	  "refuse more than N job instances" },
	{ "repeat", ARG_REQ, "=N", G_JOBS, set_repeat, NULL, "5",
	  "run the job list N times: each run's figures, mean and 95% interval" },
	{ "sweep", ARG_REQ, "=OPT=LIST", G_JOBS, set_sweep, NULL,
	  "iodepth=1..128*2", "run the job list once per value of a job option (may be repeated: cross product)" },
	/* Client and server */
	{ "server", ARG_OPT, "[=ARGS]", G_REMOTE, NULL, MULTI_HOST, NULL,
	  "start a backend server (fio)" },
	{ "daemonize", ARG_REQ, "=PIDFILE", G_REMOTE, NULL, MULTI_HOST, NULL,
	  "run the server in the background (fio)" },
	{ "client", ARG_REQ, "=HOST", G_REMOTE, NULL, MULTI_HOST, NULL,
	  "run the jobs on a remote server (fio)" },
	{ "remote-config", ARG_REQ, "=FILE", G_REMOTE, NULL, MULTI_HOST, NULL,
	  "have the server load a job file of its own (fio)" },
	/* Profiling and logs */
	{ "idle-prof", ARG_REQ, "=MODE", G_PROFILE, set_idle_prof, NULL,
	  "percpu", "CPU idleness during the run: system, percpu, or calibrate (print the unit of work, exit)" },
	{ "profile-folded", ARG_REQ, "=FILE", G_PROFILE, set_profile_folded,
	  NULL, "run.folded", "folded stacks of the CPU profile (profile=, which this turns on) to FILE, for flame graph tools" },
	{ "profile-rate", ARG_REQ, "=HZ", G_PROFILE, set_profile_rate, NULL,
	  "997", "CPU profile (profile=, which this turns on): samples a second of CPU (default: from the measured cost of a sample, for at most 0.5%)" },
	{ "inflate-log", ARG_REQ, "=FILE", G_PROFILE, set_inflate_log, NULL,
	  "x.log.fz", "print a compressed log (.fz) as text" },
	/* Triggers and state files */
	{ "trigger-file", ARG_REQ, "=FILE", G_TRIGGER, set_trigger_file, NULL,
	  "trig", "when FILE appears: remove it, stop the jobs, run the trigger" },
	{ "trigger-timeout", ARG_REQ, "=TIME", G_TRIGGER, set_trigger_timeout,
	  NULL, "10", "after TIME (seconds): stop the jobs, run the trigger" },
	{ "trigger", ARG_REQ, "=CMD", G_TRIGGER, set_trigger, NULL, "true",
	  "shell command the trigger runs once the jobs stopped" },
	{ "trigger-remote", ARG_REQ, "=CMD", G_TRIGGER, NULL, MULTI_HOST, NULL,
	  "trigger command for a remote server (fio)" },
	{ "aux-path", ARG_REQ, "=DIR", G_TRIGGER, set_aux_path, NULL, ".",
	  "where verify state files go (default: the current directory)" },
};

static const struct cli_opt *cli_lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cli_opts); i++)
		if (strlen(cli_opts[i].name) == len &&
		    !strncmp(cli_opts[i].name, name, len))
			return &cli_opts[i];
	return NULL;
}

bool cli_row(unsigned int i, struct cli_row_info *out)
{
	if (i >= ARRAY_SIZE(cli_opts))
		return false;
	out->name = cli_opts[i].name;
	out->example = cli_opts[i].example;
	out->refused = !cli_opts[i].set;
	return true;
}

/* ---- parsing ------------------------------------------------------------ */

/*
 * A job option given as "--key value": 1 takes the next argument, 2 only
 * when it is not an option itself ("--write_bw_log --name=x": a bare log
 * name).
 */
static int job_needs_value(const char *key)
{
	const struct opt_def *def = opt_lookup(key);

	if (def && (def->flags & OPT_F_OPTVAL))
		return 2;
	return def && def->type != OPT_BOOL && def->type != OPT_TOOL;
}

static void add_jobfile(struct cli *c, const char *arg)
{
	c->jobfiles = xrealloc(c->jobfiles,
			       (c->nr_jobfiles + 1) * sizeof(char *));
	c->jobfiles[c->nr_jobfiles++] = arg;
}

/* One tool option: *i moves past a value taken from the next argument. */
static int tool_option(const struct cli_opt *o, const char *eq, int argc,
		       char **argv, int *i, struct cli *c, struct strbuf *err)
{
	const char *val = eq ? eq + 1 : NULL;

	if (!o->set) {
		strbuf_addf(err, "option '--%s' is not supported: %s", o->name,
			    o->refuse);
		return -1;
	}
	if (o->arg == ARG_NONE && val) {
		strbuf_addf(err, "option '--%s' takes no value", o->name);
		return -1;
	}
	if (o->arg == ARG_REQ && !val) {
		if (*i + 1 >= argc) {
			strbuf_addf(err, "option '--%s' needs a value", o->name);
			return -1;
		}
		val = argv[++*i];
	}
	if (o->set(c, val ? val : "", err))
		return -1;
	/* an optional value left out stays NULL for the action */
	if (o->arg == ARG_OPT && !val && c->action != CLI_RUN)
		c->action_arg = NULL;
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *c, struct job_list *jl,
	      struct strbuf *err)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *eq, *name = arg + 2;
		const struct cli_opt *o;
		const char *val = NULL;
		char *key;
		int ret;

		if (arg[0] != '-' || arg[1] != '-' || !arg[2]) {
			if (arg[0] == '-' && arg[1] && arg[1] != '-') {
				strbuf_addf(err, "unknown command-line option '%s' (see --help)",
					    arg);
				return -1;
			}
			add_jobfile(c, arg);
			continue;
		}
		eq = strchr(name, '=');
		o = cli_lookup(name, eq ? (size_t)(eq - name) : strlen(name));
		if (o) {
			if (tool_option(o, eq, argc, argv, &i, c, err))
				return -1;
			if (c->action != CLI_RUN)
				return 0;	/* as fio: the first action wins */
			continue;
		}
		if (eq) {
			key = xstrndup(name, (size_t)(eq - name));
			val = eq + 1;
		} else {
			int nv;

			key = xstrdup(name);
			nv = job_needs_value(key);
			if (nv && i + 1 < argc &&
			    (nv == 1 || argv[i + 1][0] != '-'))
				val = argv[++i];
		}
		dbg(DBG_PARSE, "<cmdline>:%d: %s%s%s", i, key, val ? "=" : "",
		    val ? val : "");
		ret = job_cmdline_add(jl, key, val, i, err);
		free(key);
		if (ret)
			return -1;
	}
	if (c->trigger_cmd && !c->trigger_file && !c->trigger_timeout_us) {
		strbuf_addstr(err, "option '--trigger': nothing fires it (add --trigger-file or --trigger-timeout)");
		return -1;
	}
	return 0;
}

bool cli_list_has(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, name, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

bool cli_format_listed(const struct cli *c, const char *name)
{
	return cli_list_has(c->formats ? c->formats : "normal", name);
}

void cli_block_run_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

void cli_release(struct cli *c)
{
	free(c->sections);
	free(c->jobfiles);
	free(c->sweeps);
}

/* ---- --help --------------------------------------------------------------- */

/*
 * The commands main() hands argv to instead of running jobs, for --help
 * (t/t0010-cli.sh runs `iolite NAME --help` for each one listed).
 */
static const struct {
	const char *name, *args, *help;
} cli_commands[] = {
	{ "compare", "A.json B.json",
	  "results side by side: changes, intervals, verdicts; --run runs job files in turns" },
	{ "plot", "FILE...",
	  "draw latency, bandwidth and IOPS logs: an html page or svg files" },
	{ "pts", "TEST TARGET",
	  "SNIA PTS drive qualification: purge, precondition, rounds to steady state (doc/pts.md)" },
};

void cli_help(FILE *f)
{
	unsigned int g;
	size_t i;

	fprintf(f, "iolite-%s: fio-compatible storage I/O benchmark\n"
		"usage: iolite [options] [job options] [jobfile]...\n",
		IOLITE_VERSION);
	for (g = 0; g < G_NR; g++) {
		fprintf(f, "\n%s:\n", group_title[g]);
		for (i = 0; i < ARRAY_SIZE(cli_opts); i++) {
			const struct cli_opt *o = &cli_opts[i];
			char left[48];

			if (o->group != g)
				continue;
			snprintf(left, sizeof(left), "--%s%s", o->name,
				 o->argname ? o->argname : "");
			if (o->set)
				fprintf(f, "  %-30s%s\n", left, o->help);
			else
				fprintf(f, "  %-30s%s\n  %-30srefused: %s\n",
					left, o->help, "", o->refuse);
		}
	}
	fputs("\nCommands (iolite COMMAND --help for each one's options):\n", f);
	for (i = 0; i < ARRAY_SIZE(cli_commands); i++) {
		char left[48];

		snprintf(left, sizeof(left), "iolite %s %s",
			 cli_commands[i].name, cli_commands[i].args);
		fprintf(f, "  %-30s%s\n", left, cli_commands[i].help);
	}
	fputs("\n"
"Job options go on the command line as --name=job --rw=randread ...;\n"
"options before the first --name apply to every job (--cmdhelp lists them).\n"
"\n"
"SIGINT or SIGTERM stops the jobs and reports what ran (exit status 128 +\n"
"the signal); a second one ends iolite at once. SIGUSR1 prints the report\n"
"so far.\n", f);
}
