/* SPDX-License-Identifier: MIT */
/*
 * The variant's write cache (enterprise: off; client: on), switched on
 * the device after each loop's purge, read back, and put back as it was
 * when pts ends, however it ends.
 *
 *  - An NVMe namespace: Set Features (volatile write cache), read back
 *    by Get Features (nvme.c).
 *  - A SCSI disk (SAS; SATA behind libata, which turns it into ATA SET
 *    FEATURES): the sd driver's scsi_disk/H:C:T:L/cache_type ("write
 *    back", "write through"), which the kernel sends to the device as a
 *    MODE SELECT of the caching page (WCE) and reads back with MODE
 *    SENSE. Where the page is savable the device keeps the setting over
 *    a power cycle: restoring it matters.
 *  - Any other device keeps its own; the settings table says which
 *    state the test ran with.
 *
 * Put back: pts_cache_restore() on every way out pts takes itself (the
 * end, a signal's stop, a failed run). For the ways it cannot (killed,
 * a second signal's immediate exit, an error's exit), the first switch
 * forks a guard: a process that holds nothing but a pipe from pts and
 * waits on it. pts_cache_restore() tells it the cache is back; the pipe
 * closing without that (pts gone) makes the guard put it back itself.
 *
 * sysfs is $IOLITE_SYSFS_ROOT when set (tests stand in a fake tree).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pts/pts_int.h"
#include "util/cpulist.h"
#include "util/devinfo.h"

#define CACHE_ON "write back"
#define CACHE_OFF "write through"

/* The disk's scsi_disk/H:C:T:L/cache_type, into d->cache_type (or ""). */
void pts_cache_probe(struct pts_dev *d)
{
	char dir[256];
	struct dirent *de;
	DIR *dh;

	d->cache_type[0] = '\0';
	d->guard = -1;
	snprintf(dir, sizeof(dir), "%s/class/block/%s/device/scsi_disk",
		 cpulist_sysfs_root(), d->name);
	dh = opendir(dir);
	if (!dh)
		return;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(d->cache_type, sizeof(d->cache_type),
			     "%s/%s/cache_type", dir, de->d_name) >=
		    (int)sizeof(d->cache_type) || access(d->cache_type, W_OK))
			d->cache_type[0] = '\0';
		else
			break;
	}
	closedir(dh);
}

/* val into a sysfs attribute: 0, or an errno (async-signal-safe) */
static int put_attr(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(val);
	int e;

	if (fd < 0)
		return errno;
	n = write(fd, val, len);
	e = n == len ? 0 : n < 0 ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	return e;
}

/* a SCSI disk's cache to want; the state before (0, 1) or -1, in how */
static int scsi_cache(struct pts_dev *d, int on, char *how, size_t len)
{
	const char *want = on ? CACHE_ON : CACHE_OFF;
	char now[32];
	int e, was;

	devinfo_read_line(d->cache_type, now, sizeof(now));
	if (!now[0]) {
		snprintf(how, len, "cannot read the disk's cache_type");
		return -1;
	}
	was = !strncmp(now, CACHE_ON, strlen(CACHE_ON));
	if (!d->cache_orig[0])
		snprintf(d->cache_orig, sizeof(d->cache_orig), "%s", now);
	if (was == on)
		return was;
	e = put_attr(d->cache_type, want);
	devinfo_read_line(d->cache_type, now, sizeof(now));
	if (e || strcmp(now, want)) {
		snprintf(how, len, "the disk kept its write cache (%s): "
			 "writing '%s' to its cache_type: %s", now, want,
			 e ? strerror(e) : "read back otherwise");
		return -1;
	}
	return was;
}

/* Puts the cache back as it was; 0, or -1 with the reason in how. */
static int put_back(const char *target, struct pts_dev *d, char *how,
		    size_t len)
{
	int fd, e;

	if (d->cache_type[0]) {
		e = put_attr(d->cache_type, d->cache_orig);
		if (e)
			snprintf(how, len, "writing '%s' to the disk's "
				 "cache_type: %s", d->cache_orig, strerror(e));
		return e ? -1 : 0;
	}
	fd = open(target, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(how, len, "%s", strerror(errno));
		return -1;
	}
	e = pts_nvme_cache(fd, d->cache_was, how, len) < 0;
	close(fd);
	return e ? -1 : 0;
}

/*
 * The guard: a child that waits for pts's word ("R": restored) or the
 * pipe's end, and puts the cache back on the latter. It ignores the
 * terminal's signals (a Ctrl-C reaches the whole process group) and
 * keeps no descriptor but its end of the pipe.
 */
static void guard_start(const char *target, struct pts_dev *d)
{
	int p[2], fd;
	char c = 0, how[160];
	pid_t pid;

	if (d->guard >= 0 || pipe2(p, O_CLOEXEC))
		return;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid) {
		close(p[0]);
		d->guard = p[1];
		d->guard_pid = pid;
		return;
	}
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (fd = 0; fd < 1024; fd++)
		if (fd != p[0])
			close(fd);
	while (read(p[0], &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'R')
		put_back(target, d, how, sizeof(how));
	_exit(0);
}

/* pts puts the cache back itself: the guard ends */
static void guard_end(struct pts_dev *d)
{
	if (d->guard < 0)
		return;
	/* a failed write: the guard puts it back too, no harm */
	(void)!write(d->guard, "R", 1);
	close(d->guard);
	d->guard = -1;
	while (waitpid(d->guard_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void pts_cache_apply(struct pts_run *r)
{
	struct pts_dev *d = &r->dev;
	const char *how_set;
	int fd, ret;

	if (d->cache_type[0]) {
		ret = scsi_cache(d, r->cfg.client, d->cache_how,
				 sizeof(d->cache_how));
		how_set = "SCSI MODE SELECT of the caching page through the "
			  "sd driver's cache_type, read back";
	} else if (d->nvme) {
		fd = open(r->cfg.target, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		ret = pts_nvme_cache(fd, r->cfg.client, d->cache_how,
				     sizeof(d->cache_how));
		close(fd);
		how_set = "NVMe Set Features, read back";
	} else {
		return;
	}
	if (ret < 0)
		return;
	d->cache_set = true;
	if (ret == 2) {
		snprintf(d->cache_how, sizeof(d->cache_how), "off (the "
			 "controller has no volatile write cache)");
		return;
	}
	if (d->cache_was < 0)	/* the first loop's: the user's setting */
		d->cache_was = ret;
	if (d->cache_was != r->cfg.client)
		guard_start(r->cfg.target, d);
	snprintf(d->cache_how, sizeof(d->cache_how), "%s (%s; %s before%s)",
		 r->cfg.client ? "on" : "off", how_set,
		 d->cache_was ? "on" : "off", d->cache_was != r->cfg.client ?
		 ", restored after" : "");
}

void pts_cache_restore(struct pts_run *r)
{
	char how[160];

	if (r->dev.cache_was < 0 || r->dev.cache_was == r->cfg.client)
		return;
	if (put_back(r->cfg.target, &r->dev, how, sizeof(how)))
		notes_add(&r->notes, "the write cache could not be switched "
			  "back %s: %s", r->dev.cache_was ? "on" : "off", how);
	guard_end(&r->dev);
}
