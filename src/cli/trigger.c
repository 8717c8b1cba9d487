/* SPDX-License-Identifier: MIT */
/*
 * fio's local triggers: --trigger-file=F fires when F appears (and is
 * removed, as fio removes it), --trigger-timeout=T fires T after the
 * start. Firing stops every job the way exitall does (in-flight I/O
 * completes, verify state files are saved as the jobs end); once they
 * have stopped, --trigger's command runs through the shell, as fio's
 * does. The watcher polls every TRIGGER_POLL_MS, outside the workers.
 *
 * SIGINT or SIGTERM while the command runs must not lose the run's
 * report nor leave the command behind: the command gets a process group
 * of its own, the signals are held and waited for with it, and one that
 * comes stops the group (SIGTERM, SIGKILL TRIGGER_KILL_MS later or at a
 * second signal); the report follows and the exit status is 128 + it.
 */
#include "cli/cli.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/clock.h"
#include "run/runner.h"
#include "util/log.h"

#define TRIGGER_POLL_MS 50
#define TRIGGER_KILL_MS 5000

extern char **environ;

struct trigger {
	const struct cli *c;
	pthread_t tid;
	int done;		/* main: the run is over */
	int fired;		/* 1: the file, 2: the timeout */
};

static void *watch(void *arg)
{
	struct trigger *t = arg;
	uint64_t start = clock_mono_ns();

	cli_block_run_signals();
	while (!__atomic_load_n(&t->done, __ATOMIC_ACQUIRE)) {
		const struct cli *c = t->c;
		struct timespec ts = { 0, TRIGGER_POLL_MS * 1000000L };

		if (!t->fired) {
			if (c->trigger_file && !access(c->trigger_file, F_OK)) {
				unlink(c->trigger_file);
				t->fired = 1;
			} else if (c->trigger_timeout_us &&
				   clock_mono_ns() - start >=
				   c->trigger_timeout_us * 1000) {
				t->fired = 2;
			}
		}
		/*
		 * Asked again at every poll: a stop between two stonewall
		 * groups, or before the runner is up, must not be lost.
		 */
		if (t->fired)
			runner_stop();
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct trigger *trigger_start(const struct cli *c)
{
	struct trigger *t;

	if (!c->trigger_file && !c->trigger_timeout_us)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->c = c;
	if (pthread_create(&t->tid, NULL, watch, t))
		die("cannot start the trigger thread");
	return t;
}

/* Starts "sh -c cmd" in a process group of its own: its pid, or -1. */
static pid_t spawn_cmd(const char *cmd, const sigset_t *dfl)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	posix_spawnattr_t at;
	sigset_t none;
	pid_t pid;
	int ret;

	sigemptyset(&none);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, dfl);
	posix_spawnattr_setpgroup(&at, 0);
	ret = posix_spawn(&pid, "/bin/sh", NULL, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	if (ret) {
		errno = ret;
		return -1;
	}
	return pid;
}

/*
 * Runs the command and waits for it, SIGINT and SIGTERM held (see the
 * top): its wait status, or -1 with errno; *sig the signal that stopped
 * it, 0 when none came.
 */
static int run_cmd(const char *cmd, int *sig)
{
	struct timespec tick = { 0, 20 * 1000000L }, now = { 0, 0 };
	sigset_t hold, old;
	uint64_t kill_at = 0;
	int status = -1, s, e = 0;
	pid_t pid, w;

	*sig = 0;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &hold, &old);
	pid = spawn_cmd(cmd, &hold);
	while (pid > 0) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR)) {
			e = w < 0 ? errno : 0;
			break;
		}
		s = sigtimedwait(&hold, NULL, &tick);
		if (s == SIGINT || s == SIGTERM) {
			/* the first stops the command, a second kills it */
			kill(-pid, *sig ? SIGKILL : SIGTERM);
			kill_at = clock_mono_ns() + TRIGGER_KILL_MS * 1000000ull;
			*sig = *sig ? *sig : s;
		} else if (kill_at && clock_mono_ns() >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
	}
	if (pid < 0)
		e = errno;
	/* one that came as the command ended counts too */
	while ((s = sigtimedwait(&hold, NULL, &now)) > 0)
		if ((s == SIGINT || s == SIGTERM) && !*sig)
			*sig = s;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return e ? -1 : status;
}

int trigger_end(struct trigger *t, struct strbuf *note, int *sig)
{
	const char *cmd;
	int fired, status;

	if (!t)
		return 0;
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	pthread_join(t->tid, NULL);
	fired = t->fired;
	cmd = t->c->trigger_cmd;
	if (fired == 1)
		strbuf_addf(note, "trigger: '%s' appeared: the jobs were stopped",
			    t->c->trigger_file);
	else if (fired == 2)
		strbuf_addf(note, "trigger: the timeout of %.3f s passed: the jobs were stopped",
			    (double)t->c->trigger_timeout_us / 1e6);
	free(t);
	*sig = 0;
	if (!fired)
		return 0;
	if (cmd) {
		strbuf_addf(note, "; ran '%s'", cmd);
		fflush(stdout);
		status = run_cmd(cmd, sig);
		if (*sig) {
			strbuf_addf(note, ", stopped by %s sent to iolite",
				    *sig == SIGINT ? "SIGINT" : "SIGTERM");
			error("trigger command '%s' stopped: iolite got %s", cmd,
			      *sig == SIGINT ? "SIGINT" : "SIGTERM");
			return -1;
		}
		if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			error("trigger command '%s' failed (status %d)", cmd,
			      status == -1 ? -errno :
			      WIFEXITED(status) ? WEXITSTATUS(status) : status);
			return -1;
		}
	}
	return 1;
}
