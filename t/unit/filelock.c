/* SPDX-License-Identifier: MIT */
/* lockfile= locks (src/target/filelock.c): who may hold a shared file. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "target/filelock.h"

static int a, b, c;	/* owners */

struct waiter {
	struct filelock *l;
	enum lockfile_mode mode;
	bool write;
	volatile int held;
};

static void *wait_for_lock(void *arg)
{
	struct waiter *wt = arg;

	filelock_acquire(wt->l, &c, wt->mode, wt->write, true);
	wt->held = 1;
	filelock_release(wt->l, &c, wt->mode);
	return NULL;
}

static void test_registry(void)
{
	char path[TAP_TMP_MAX];
	char link[sizeof(path) + 8];
	int fd = mkstemp(tap_tmp(path, "iolite-filelock.XXXXXX"));
	struct filelock *l1, *l2, *l3, *l4;

	snprintf(link, sizeof(link), "%s.ln", path);
	if (!ok(fd >= 0 && !symlink(path, link), "scratch file and a symlink"))
		diag("%s: %s", path, strerror(errno));
	l1 = filelock_get(path);
	l2 = filelock_get(link);
	l3 = filelock_get("/nonexistent/iolite-filelock");
	l4 = filelock_get("/nonexistent/iolite-filelock");
	ok(l1 == l2, "two paths of one file share its lock");
	ok(l3 == l4 && l3 != l1, "a missing file is known by its path");
	filelock_put(l1);
	filelock_put(l2);
	filelock_put(l3);
	filelock_put(l4);
	unlink(link);
	unlink(path);
	close(fd);
}

static void test_exclusive(void)
{
	struct filelock *l = filelock_get("/nonexistent/iolite-excl");
	enum lockfile_mode m = LOCKFILE_EXCLUSIVE;
	struct waiter wt = { l, m, false, 0 };
	pthread_t th;

	ok(!filelock_acquire(l, &a, m, false, false) &&
	   !filelock_acquire(l, &a, m, true, false),
	   "exclusive: an owner holds it twice (I/O in flight)");
	ok(filelock_acquire(l, &b, m, false, false) == -EBUSY,
	   "exclusive: a read of another job is refused");
	filelock_release(l, &a, m);
	ok(filelock_acquire(l, &b, m, false, false) == -EBUSY,
	   "exclusive: still held after one of two releases");
	pthread_create(&th, NULL, wait_for_lock, &wt);
	usleep(20000);
	ok(!wt.held, "exclusive: a waiting job blocks");
	filelock_release(l, &a, m);
	pthread_join(th, NULL);
	ok(wt.held, "exclusive: the last release wakes it");
	ok(!filelock_acquire(l, &b, m, true, false),
	   "exclusive: free again for another job");
	filelock_release(l, &b, m);
	filelock_put(l);
}

static void test_readwrite(void)
{
	struct filelock *l = filelock_get("/nonexistent/iolite-rw");
	enum lockfile_mode m = LOCKFILE_READWRITE;

	ok(!filelock_acquire(l, &a, m, false, false) &&
	   !filelock_acquire(l, &b, m, false, false),
	   "readwrite: two jobs read at once");
	ok(filelock_acquire(l, &c, m, true, false) == -EBUSY,
	   "readwrite: a write waits for the readers");
	filelock_release(l, &a, m);
	filelock_release(l, &b, m);
	ok(!filelock_acquire(l, &c, m, true, false),
	   "readwrite: the write goes once they are done");
	ok(!filelock_acquire(l, &c, m, false, false),
	   "readwrite: the writer's own reads count as its holds");
	ok(filelock_acquire(l, &a, m, false, false) == -EBUSY,
	   "readwrite: other readers wait for the writer");
	filelock_release(l, &c, m);
	filelock_release(l, &c, m);
	ok(!filelock_acquire(l, &a, m, false, false),
	   "readwrite: readers again after the writer");
	filelock_release(l, &a, m);
	ok(!filelock_acquire(l, &a, LOCKFILE_NONE, true, false) &&
	   !filelock_acquire(l, &b, LOCKFILE_NONE, true, false),
	   "lockfile=none never blocks");
	filelock_put(l);
}

int main(void)
{
	test_registry();
	test_exclusive();
	test_readwrite();
	return done_testing();
}
