/* SPDX-License-Identifier: MIT */
/*
 * exec: the job runs a program (a monitor, a load of its own) for its
 * runtime, as fio's exec engine. No I/O (ENGINE_F_NOIO): the program
 * starts with the job (its one file's open), each I/O waits up to 50 ms
 * for it to end, and the job's think time (opt/engine_opts.c: 50 ms after every I/O)
 * paces the rest, so a job does about ten I/Os a second, each of no
 * bytes.
 *
 * program= is run with arguments= split at spaces, %r replaced by the
 * runtime in seconds and %n by the job's name; with std_redirect=1 (the
 * default) its stdout and stderr go to NAME.stdout and NAME.stderr in the
 * current directory (fio's files), otherwise both go to iolite's stderr,
 * so that the report on stdout stays whole. Its stdin is /dev/null.
 *
 * When the runtime is over the program gets SIGTERM, then SIGKILL after
 * grace_time seconds if it is still there; a program that ends early
 * leaves the job waiting out its runtime (fio). Without a runtime the job
 * ends when the program does (ENGINE_ERR_END; fio 3.33 would signal it at
 * once and never end). How the program ended is in the report's notes;
 * its exit status does not fail the job (fio ignores it).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engines.h"
#include "opt/engine_opts.h"
#include "util/log.h"
#include "util/safefile.h"

#define POLL_MS 50

extern char **environ;

struct exec_engine {
	struct engine e;
	char **argv;		/* NULL-terminated, owned */
	char *cmdline;		/* as run, for the notes */
	pid_t pid;		/* 0: not started */
	int pidfd;		/* -1: none (or no pidfd_open) */
	bool ended;		/* reaped */
	int status;		/* wait status once ended */
	bool termed, killed;	/* what iolite sent */
	uint64_t start_ns, end_ns, deadline_ns;	/* deadline 0: none */
};

static inline struct exec_engine *to_exec(struct engine *e)
{
	return (struct exec_engine *)e;
}

/* arguments with %r and %n replaced, as fio */
static void expand(const struct job_options *o, struct strbuf *out)
{
	const char *s;

	for (s = o->arguments ? o->arguments : ""; *s; s++) {
		if (s[0] == '%' && s[1] == 'r') {
			strbuf_addf(out, "%llu",
				    (unsigned long long)(o->runtime_us / 1000000));
			s++;
		} else if (s[0] == '%' && s[1] == 'n') {
			strbuf_addstr(out, o->name ? o->name : "");
			s++;
		} else {
			strbuf_addch(out, *s);
		}
	}
}

/* The command line split at runs of spaces into argv. */
static char **split(const char *line, unsigned int *argc)
{
	char **argv = xcalloc(strlen(line) / 2 + 2, sizeof(*argv));
	unsigned int n = 0;
	const char *p = line;

	for (;;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		argv[n++] = xstrndup(p, len);
		p += len;
	}
	*argc = n;
	return argv;
}

static int exec_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	struct exec_engine *xe = xcalloc(1, sizeof(*xe));
	struct strbuf line = STRBUF_INIT;
	unsigned int argc;
	char **a;

	xe->e.plan = plan;
	xe->e.depth = 1;
	xe->pidfd = -1;
	strbuf_addstr(&line, plan->o.program);
	strbuf_addch(&line, ' ');
	expand(&plan->o, &line);
	xe->argv = split(strbuf_str(&line), &argc);
	strbuf_reset(&line);
	for (a = xe->argv; *a; a++)
		strbuf_addf(&line, "%s%s", a == xe->argv ? "" : " ", *a);
	xe->cmdline = xstrdup(strbuf_str(&line));
	strbuf_release(&line);
	*out = &xe->e;
	if (!argc) {
		strbuf_addstr(err, "exec: program= is empty");
		return -EINVAL;
	}
	return 0;
}

/*
 * The program's stdin, stdout and stderr. std_redirect's JOB.stdout and
 * JOB.stderr are names of iolite's own: opened here (util/safefile.h,
 * never through a symlink) into fds[] (closed by the caller after the
 * spawn), not by the spawn. 0 or an errno.
 */
static int redirect(posix_spawn_file_actions_t *fa, const struct job_options *o,
		    int fds[2])
{
	static const char *const ext[2] = { "stdout", "stderr" };
	struct strbuf path = STRBUF_INIT;
	int k, ret = 0;

	posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (!o->std_redirect)
		/* stdout is the report's: the program talks on stderr */
		return posix_spawn_file_actions_adddup2(fa, 2, 1);
	for (k = 0; k < 2 && !ret; k++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s.%s", o->name, ext[k]);
		fds[k] = sf_open(path.buf, O_WRONLY, 0644, SF_CREATE | SF_TRUNC,
				 NULL);
		ret = fds[k] < 0 ? errno :
		      posix_spawn_file_actions_adddup2(fa, fds[k], k + 1);
	}
	strbuf_release(&path);
	return ret;
}

/* Starts the program: 0 or an errno. */
static int start(struct exec_engine *xe)
{
	const struct job_options *o = &xe->e.plan->o;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int ret, fds[2] = { -1, -1 };

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	/* the worker blocks the run's signals: the program gets none blocked */
	sigemptyset(&none);
	sigfillset(&dfl);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	ret = redirect(&fa, o, fds);
	if (!ret)
		ret = posix_spawnp(&xe->pid, xe->argv[0], &fa, &attr,
				   xe->argv, environ);
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (ret) {
		xe->pid = 0;
		return ret;
	}
	xe->start_ns = engine_mono_ns();
	if (o->runtime_us)
		xe->deadline_ns = xe->start_ns + o->runtime_us * 1000;
	xe->pidfd = (int)syscall(SYS_pidfd_open, xe->pid, 0);
	return 0;
}

/* Reaps the program if it has ended; true once it has. */
static bool reap(struct exec_engine *xe)
{
	int status;

	if (xe->ended)
		return true;
	if (waitpid(xe->pid, &status, WNOHANG) != xe->pid)
		return false;
	xe->ended = true;
	xe->status = status;
	xe->end_ns = engine_mono_ns();
	return true;
}

/* Waits up to ms for the program to end; true once it has. */
static bool wait_end(struct exec_engine *xe, int ms)
{
	if (reap(xe))
		return true;
	if (xe->pidfd >= 0) {
		struct pollfd pfd = { .fd = xe->pidfd, .events = POLLIN };

		poll(&pfd, 1, ms);
	} else {
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
	return reap(xe);
}

/* SIGTERM, grace_time, SIGKILL: the program is gone on return. */
static void stop(struct exec_engine *xe)
{
	int left;

	if (!xe->pid || reap(xe))
		return;
	kill(xe->pid, SIGTERM);
	xe->termed = true;
	for (left = (int)xe->e.plan->o.grace_time_s * 1000; left > 0;
	     left -= POLL_MS)
		if (wait_end(xe, left < POLL_MS ? left : POLL_MS))
			return;
	if (!reap(xe)) {
		kill(xe->pid, SIGKILL);
		xe->killed = true;
		while (!wait_end(xe, POLL_MS))
			;
	}
}

static enum engine_q exec_queue(struct engine *e, struct io_u *u)
{
	struct exec_engine *xe = to_exec(e);
	uint64_t now;
	int ms = POLL_MS;

	u->len = 0;
	u->resid = 0;
	u->error = 0;
	now = engine_mono_ns();
	if (xe->deadline_ns && xe->deadline_ns - now < POLL_MS * 1000000ULL)
		ms = xe->deadline_ns > now ?
		     (int)((xe->deadline_ns - now + 999999) / 1000000) : 0;
	if (wait_end(xe, ms) && !xe->deadline_ns)
		u->error = ENGINE_ERR_END;	/* no runtime: it was the job */
	else if (xe->deadline_ns && engine_mono_ns() >= xe->deadline_ns)
		stop(xe);		/* the runtime is over */
	return ENGINE_Q_DONE;
}

static void exec_cleanup(struct engine *e)
{
	struct exec_engine *xe = to_exec(e);
	char **a;

	stop(xe);
	if (xe->pidfd >= 0)
		close(xe->pidfd);
	for (a = xe->argv; a && *a; a++)
		free(*a);
	free(xe->argv);
	free(xe->cmdline);
	free(xe);
}

/* The job's one (named only) file: the program starts. */
static int exec_open(struct engine *e, struct engine_file *f,
		     struct strbuf *err)
{
	struct exec_engine *xe = to_exec(e);
	int ret;

	if (xe->pid)
		return 0;
	ret = start(xe);
	if (ret)
		strbuf_addf(err, "cannot run '%s': %s", xe->argv[0],
			    strerror(ret));
	return -ret;
}

static int exec_close(struct engine *e, struct engine_file *f)
{
	return 0;
}

/*
 * The notes' line. A program still running here (the job was stopped
 * early: a signal, exitall) is stopped first, so that the line can say
 * how it ended.
 */
static void exec_describe(struct engine *e, struct strbuf *out)
{
	struct exec_engine *xe = to_exec(e);
	const struct job_options *o = &e->plan->o;
	int st;

	if (!xe->pid)
		return;
	stop(xe);
	st = xe->status;
	strbuf_addf(out, "exec: '%s' ran %.1fs", xe->cmdline,
		    (double)(xe->end_ns - xe->start_ns) / 1e9);
	if (WIFEXITED(st))
		strbuf_addf(out, ", exit status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		strbuf_addf(out, ", killed by SIG%s", sigabbrev_np(WTERMSIG(st)) ?
			    sigabbrev_np(WTERMSIG(st)) : "?");
	if (xe->killed)
		strbuf_addf(out, " (SIGKILL after a grace time of %us)",
			    o->grace_time_s);
	else if (xe->termed)
		strbuf_addstr(out, " (SIGTERM at the end of the runtime)");
	if (o->std_redirect)
		strbuf_addf(out, "; output in %s.stdout, %s.stderr", o->name,
			    o->name);
}

static const char *const exec_options[] = {
	"program", "arguments", "grace_time", "std_redirect", NULL,
};

const struct engine_ops engine_exec_ops = {
	.name = "exec",
	.help = "no I/O: runs a program for the job's runtime",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILEIO | ENGINE_F_NOIO,
	.options = exec_options,
	.plan_check = exec_plan_check,
	.init = exec_init,
	.cleanup = exec_cleanup,
	.open_file = exec_open,
	.close_file = exec_close,
	.queue = exec_queue,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.describe = exec_describe,
};
