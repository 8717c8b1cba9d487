/* SPDX-License-Identifier: MIT */
/*
 * The device under test: what it is (size, identity from sysfs, its
 * write cache's state, a temperature sensor), whether pts may write it
 * (target/safety.h's checks, as for any job that writes a device, and
 * --destroy-data), and the purge.
 *
 * The purge: the spec asks for a secure erase, sanitize or format. An
 * NVMe namespace gets Format NVM with a user data erase (nvme.c) where
 * the controller formats one namespace alone, else Sanitize where the
 * target is the controller's one namespace; another block device ATA
 * Secure Erase where it is an ATA drive that allows it (ata.c). Failing
 * those, BLKDISCARD over the whole capacity (every logical block
 * unmapped, what blkdiscard(8) does). The report says what was tried
 * and what was done. A file is not purged, and the report says so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#include "opt/plan.h"
#include "pts/pts_int.h"
#include "target/safety.h"
#include "util/cpulist.h"
#include "util/devinfo.h"

/* The first hwmon temp1_input under dir/hwmon*, into out. */
static int find_hwmon(const char *dir, char *out, size_t len)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "%s/hwmon", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "hwmon", 5))
			continue;
		if (snprintf(out, len, "%s/%s/temp1_input", path,
			     de->d_name) >= (int)len)
			continue;
		found = !access(out, R_OK);
	}
	closedir(d);
	if (!found)
		out[0] = '\0';
	return found;
}

static void dev_identity(struct pts_dev *d)
{
	char path[512], dir[256];

	snprintf(dir, sizeof(dir), "%s/class/block/%s", cpulist_sysfs_root(),
		 d->name);
	snprintf(path, sizeof(path), "%s/device/model", dir);
	devinfo_read_line(path, d->model, sizeof(d->model));
	snprintf(path, sizeof(path), "%s/device/firmware_rev", dir);
	devinfo_read_line(path, d->firmware, sizeof(d->firmware));
	if (!d->firmware[0]) {
		snprintf(path, sizeof(path), "%s/device/rev", dir);
		devinfo_read_line(path, d->firmware, sizeof(d->firmware));
	}
	snprintf(path, sizeof(path), "%s/device/serial", dir);
	devinfo_read_line(path, d->serial, sizeof(d->serial));
	if (!d->model[0]) {	/* zram, loop, null_blk: the driver's name */
		snprintf(d->model, sizeof(d->model), "%.*s",
			 (int)strcspn(d->name, "0123456789"), d->name);
	}
	snprintf(path, sizeof(path), "%s/queue/write_cache", dir);
	devinfo_read_line(path, d->cache, sizeof(d->cache));
	/* NVMe: the controller's hwmon; SCSI/ATA: the device's */
	snprintf(path, sizeof(path), "%s/device", dir);
	if (!find_hwmon(path, d->temp_path, sizeof(d->temp_path))) {
		snprintf(path, sizeof(path), "%s/device/device", dir);
		find_hwmon(path, d->temp_path, sizeof(d->temp_path));
	}
}

/* The kernel's name of block device rdev ("zram1"), from sysfs. */
static void dev_name(dev_t rdev, char *out, size_t len)
{
	char path[128], link[256];
	ssize_t n;
	const char *base;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		snprintf(out, len, "%u:%u", major(rdev), minor(rdev));
		return;
	}
	link[n] = '\0';
	base = strrchr(link, '/');
	if (snprintf(out, len, "%s", base ? base + 1 : link) >= (int)len)
		out[0] = '\0';
}

int pts_dev_open(struct pts_run *r, struct strbuf *err)
{
	struct pts_dev *d = &r->dev;
	const char *t = r->cfg.target;
	struct stat st;
	int fd;

	if (stat(t, &st)) {
		if (errno == ENOENT && r->cfg.cap_limit && strncmp(t, "/dev/", 5))
			return 0;	/* a file the first run makes */
		strbuf_addf(err, "pts: cannot use '%s': %s", t, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		d->size = st.st_size;
		d->lbs = 512;
		snprintf(d->model, sizeof(d->model), "a regular file");
		if (!d->size && !r->cfg.cap_limit) {
			strbuf_addf(err, "pts: '%s' is an empty file: give "
				    "--capacity-limit=SIZE to test that much "
				    "of it", t);
			return -1;
		}
		return 0;
	}
	if (!S_ISBLK(st.st_mode)) {
		strbuf_addf(err, "pts: '%s' is neither a block device nor a "
			    "regular file", t);
		return -1;
	}
	d->blockdev = true;
	fd = open(t, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &d->size) ||
	    ioctl(fd, BLKSSZGET, &d->lbs)) {
		strbuf_addf(err, "pts: cannot read the size of '%s': %s", t,
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	d->nvme = ioctl(fd, NVME_IOCTL_ID) > 0;
	close(fd);
	dev_name(st.st_rdev, d->name, sizeof(d->name));
	dev_identity(d);
	pts_cache_probe(d);
	return 0;
}

int pts_dev_safety(struct pts_run *r, struct strbuf *err)
{
	static char name[] = "pts";
	struct job_plan p;
	struct stat st;
	int fd, ret;

	if (stat(r->cfg.target, &st))
		return 0;	/* a file still to be made */
	memset(&p, 0, sizeof(p));
	p.writes = true;
	p.o.name = name;
	p.o.allow_mounted_write = r->cfg.allow_mounted;
	if (S_ISREG(st.st_mode))
		return safety_check_file(&p, r->cfg.target, &st, err);
	/*
	 * Mounted, or held by the kernel (a file system, RAID, swap,
	 * device-mapper): refused whatever --allow-mounted-write says, as
	 * pts writes every block. O_EXCL on a block device fails with
	 * EBUSY then, and takes no lock that outlives the close.
	 */
	fd = open(r->cfg.target, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "pts: '%s' is in use (mounted, or held by a "
			    "file system, RAID, swap or device-mapper: %s): pts "
			    "overwrites all of it and never writes a device in "
			    "use", r->cfg.target, strerror(errno));
		return -1;
	}
	close(fd);
	ret = safety_check_blockdev(&p, r->cfg.target, st.st_rdev, err);
	if (ret)
		return ret;
	if (!r->cfg.destroy) {
		strbuf_addf(err, "pts: option '--destroy-data': '%s' is a block "
			    "device and pts overwrites all of it (purge, "
			    "preconditioning, the tests): give --destroy-data "
			    "to agree", r->cfg.target);
		return -1;
	}
	return 0;
}

/* how += what (each attempt's account, "; " between) */
static void say(char *how, size_t len, const char *what)
{
	size_t n = strlen(how);

	if (what[0] && n + 3 < len)
		snprintf(how + n, len - n, "%s%s", n ? "; " : "", what);
}

/*
 * The spec's purges, in the order tried: an NVMe namespace's Format
 * (one namespace's data), then Sanitize (the controller's, when the
 * target is its one namespace); an ATA drive's Secure Erase. 1 when one
 * was done; each attempt's account (done, or why not) into how.
 */
static int spec_purge(struct pts_run *r, struct pts_loop *l, int fd,
		      char *how, size_t len)
{
	unsigned int p = r->cfg.purge;
	char one[320] = "";

	if (r->dev.nvme) {
		if ((p & PURGE_FORMAT) &&
		    !pts_nvme_format(fd, r->cfg.target, one, sizeof(one))) {
			l->method = "NVMe Format";
			say(how, len, one);
			return 1;
		}
		say(how, len, one);
		one[0] = '\0';
		if ((p & PURGE_SANITIZE) &&
		    !pts_nvme_sanitize(fd, one, sizeof(one))) {
			l->method = "NVMe Sanitize";
			say(how, len, one);
			return 1;
		}
		say(how, len, one);
		if (p != PURGE_AUTO && (p & PURGE_ERASE))
			say(how, len, "no ATA Secure Erase: an NVMe namespace");
		return 0;
	}
	if (p != PURGE_AUTO && (p & (PURGE_FORMAT | PURGE_SANITIZE)))
		say(how, len, "no NVMe Format or Sanitize: not an NVMe "
		    "namespace");
	if ((p & PURGE_ERASE) && !pts_ata_erase(fd, one, sizeof(one))) {
		l->method = "ATA Secure Erase";
		say(how, len, one);
		return 1;
	}
	say(how, len, one);
	return 0;
}

void pts_purge(struct pts_run *r, struct pts_loop *l)
{
	uint64_t range[2] = { 0, r->dev.size };
	char how[sizeof(l->purge)] = "", one[160];
	int fd;

	l->method = "none";
	if (!r->dev.blockdev) {
		snprintf(l->purge, sizeof(l->purge), "not purged: '%s' is a "
			 "file, which has no purge", r->cfg.target);
		return;
	}
	/* O_EXCL: no file system or other user may hold it meanwhile */
	fd = open(r->cfg.target, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		snprintf(l->purge, sizeof(l->purge), "not purged: cannot open "
			 "'%s' exclusively: %s", r->cfg.target,
			 strerror(errno));
		return;
	}
	if (spec_purge(r, l, fd, how, sizeof(how))) {
		l->purged = l->spec_purge = true;
	} else if (!(r->cfg.purge & PURGE_DISCARD)) {
		say(how, sizeof(how), r->cfg.purge ? "not purged (--purge "
		    "left out the discard)" : "not purged (--purge=none)");
	} else if (ioctl(fd, BLKDISCARD, range)) {
		snprintf(one, sizeof(one), "not purged: the device takes no "
			 "discard (BLKDISCARD: %s)", strerror(errno));
		say(how, sizeof(how), one);
	} else {
		l->purged = true;
		l->method = "BLKDISCARD";
		snprintf(one, sizeof(one), "BLKDISCARD over the whole device "
			 "(%llu bytes), as blkdiscard(8): not the spec's "
			 "purge", (unsigned long long)r->dev.size);
		say(how, sizeof(how), one);
	}
	snprintf(l->purge, sizeof(l->purge), "%s", how);
	close(fd);
}

/*
 * The device's temperature: an NVMe namespace's SMART log (the
 * controller's composite temperature), else an hwmon sensor of the
 * device's (nvme, drivetemp), else NAN.
 */
double pts_temp(const struct pts_run *r)
{
	char buf[32];

	if (r->dev.nvme) {
		int fd = open(r->cfg.target, O_RDONLY | O_CLOEXEC);
		double t = fd < 0 ? NAN : pts_nvme_temp(fd);

		if (fd >= 0)
			close(fd);
		if (!isnan(t))
			return t;
	}
	if (!r->dev.temp_path[0])
		return NAN;
	devinfo_read_line(r->dev.temp_path, buf, sizeof(buf));
	return buf[0] ? strtod(buf, NULL) / 1000.0 : NAN;
}
