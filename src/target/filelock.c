/* SPDX-License-Identifier: MIT */
/*
 * File locks for lockfile=: see filelock.h. The registry is a short
 * list (a handful of shared files per run) looked up at job setup only;
 * the I/O path touches just the lock of the file.
 */
#include "target/filelock.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/strbuf.h"

struct filelock {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	const void *owner;	/* exclusive holder or writer, or NULL */
	unsigned long depth;	/* holds of owner */
	unsigned long readers;	/* readwrite: holds of readers */

	/* registry */
	struct filelock *next;
	unsigned int refs;
	bool by_inode;
	dev_t dev;
	ino_t ino;
	char *path;
};

static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER;
static struct filelock *registry;

struct filelock *filelock_get(const char *path)
{
	struct filelock *l;
	struct stat st;
	bool by_inode = !stat(path, &st);

	pthread_mutex_lock(&registry_mu);
	for (l = registry; l; l = l->next) {
		if (by_inode ? l->by_inode && l->dev == st.st_dev &&
			       l->ino == st.st_ino :
			       !l->by_inode && !strcmp(l->path, path))
			break;
	}
	if (!l) {
		l = xcalloc(1, sizeof(*l));
		pthread_mutex_init(&l->mu, NULL);
		pthread_cond_init(&l->cond, NULL);
		l->by_inode = by_inode;
		if (by_inode) {
			l->dev = st.st_dev;
			l->ino = st.st_ino;
		}
		l->path = xstrdup(path);
		l->next = registry;
		registry = l;
	}
	l->refs++;
	pthread_mutex_unlock(&registry_mu);
	return l;
}

void filelock_put(struct filelock *l)
{
	struct filelock **pp;

	if (!l)
		return;
	pthread_mutex_lock(&registry_mu);
	if (--l->refs) {
		pthread_mutex_unlock(&registry_mu);
		return;
	}
	for (pp = &registry; *pp; pp = &(*pp)->next)
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	pthread_mutex_unlock(&registry_mu);
	pthread_cond_destroy(&l->cond);
	pthread_mutex_destroy(&l->mu);
	free(l->path);
	free(l);
}

/* Under l->mu: may owner take a hold now? Takes it if so. */
static bool try_hold(struct filelock *l, const void *owner,
		     enum lockfile_mode mode, bool write)
{
	if (l->owner == owner) {
		l->depth++;
		return true;
	}
	if (l->owner)
		return false;
	if (mode == LOCKFILE_READWRITE && !write) {
		l->readers++;
		return true;
	}
	/* exclusive, or a write: nobody else may be in */
	if (l->readers)
		return false;
	l->owner = owner;
	l->depth = 1;
	return true;
}

int filelock_acquire(struct filelock *l, const void *owner,
		     enum lockfile_mode mode, bool write, bool wait)
{
	int ret = 0;

	if (mode == LOCKFILE_NONE)
		return 0;
	pthread_mutex_lock(&l->mu);
	while (!try_hold(l, owner, mode, write)) {
		if (!wait) {
			ret = -EBUSY;
			break;
		}
		pthread_cond_wait(&l->cond, &l->mu);
	}
	pthread_mutex_unlock(&l->mu);
	return ret;
}

void filelock_release(struct filelock *l, const void *owner,
		      enum lockfile_mode mode)
{
	bool wake = false;

	if (mode == LOCKFILE_NONE)
		return;
	pthread_mutex_lock(&l->mu);
	/* while owner holds the file, every hold of its is in depth */
	if (l->owner == owner && l->depth) {
		if (!--l->depth) {
			l->owner = NULL;
			wake = true;
		}
	} else if (l->readers) {
		wake = !--l->readers;
	}
	if (wake)
		pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->mu);
}
