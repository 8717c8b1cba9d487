/* SPDX-License-Identifier: MIT */
/*
 * fio's local triggers: --trigger-file=F fires when F appears (and is
 * removed, as fio removes it), --trigger-timeout=T fires T after the
 * start. Firing stops every job the way exitall does (in-flight I/O
 * completes, verify state files are saved as the jobs end); once they
 * have stopped, --trigger's command runs through the shell, as fio's
 * does. The watcher polls every TRIGGER_POLL_MS, outside the workers.
 */
#include "cli/cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/clock.h"
#include "run/runner.h"
#include "util/log.h"

#define TRIGGER_POLL_MS 50

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

int trigger_end(struct trigger *t, struct strbuf *note)
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
	if (!fired)
		return 0;
	if (cmd) {
		strbuf_addf(note, "; ran '%s'", cmd);
		fflush(stdout);
		status = system(cmd);
		if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			error("trigger command '%s' failed (status %d)", cmd,
			      status == -1 ? -errno :
			      WIFEXITED(status) ? WEXITSTATUS(status) : status);
			return -1;
		}
	}
	return 1;
}
