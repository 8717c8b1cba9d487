/* SPDX-License-Identifier: MIT */
/*
 * Safety around devices. A job that writes a block device destroys what
 * is on it; before that happens, look at what is there and at who uses
 * it, and refuse unless the job says allow_mounted_write=1.
 *
 * Everything here only looks: sysfs, /proc/self/mountinfo, /proc/swaps,
 * an O_EXCL read-only open (which the kernel refuses with EBUSY while a
 * filesystem, RAID, device-mapper or swap claims the device) and reads of
 * the few KiB where signatures live.
 */
#include "target/safety.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#ifdef HAVE_LIBBLKID
#include <blkid/blkid.h>
#endif

#include "util/log.h"

#define OVERRIDE "allow_mounted_write"
#define MAX_STACK 64

/* "file:line: option 'allow_mounted_write': " then the message. */
__attribute__((format(printf, 3, 4)))
static int refuse(struct strbuf *err, const struct job_plan *p,
		  const char *fmt, ...)
{
	va_list ap;

	if (p->src_file)
		strbuf_addf(err, "%s:%d: ", p->src_file, p->src_line);
	else if (p->o.name)
		strbuf_addf(err, "job '%s': ", p->o.name);
	strbuf_addstr(err, "option '" OVERRIDE "': ");
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- the devices stacked on a device ---- */

/* How a device joined the stack, for the message. */
enum stack_how { STACK_SELF, STACK_PART, STACK_HOLDER, STACK_LOOP };

struct stack {
	dev_t dev[MAX_STACK];
	enum stack_how how[MAX_STACK];
	unsigned int nr;
};

static bool stack_has(const struct stack *s, dev_t dev)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->dev[i] == dev)
			return true;
	return false;
}

static enum stack_how stack_how(const struct stack *s, dev_t dev)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->dev[i] == dev)
			return s->how[i];
	return STACK_SELF;
}

static void stack_add(struct stack *s, dev_t dev, enum stack_how how)
{
	if (s->nr < MAX_STACK && !stack_has(s, dev)) {
		s->dev[s->nr] = dev;
		s->how[s->nr++] = how;
	}
}

/* Reads "major:minor" from a sysfs "dev" file. */
static int read_devno(const char *path, dev_t *dev)
{
	unsigned int ma, mi;
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%u:%u", &ma, &mi) == 2) {
		*dev = makedev(ma, mi);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * Adds the devices listed under a device's sysfs directory: its
 * partitions (subdirectories with a "partition" file) and its holders
 * (holders/NAME, the device-mapper and md devices built on it).
 */
static void add_children(struct stack *s, dev_t dev)
{
	char dir[64], path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	dev_t c;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	d = opendir(dir);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/partition", dir,
				 de->d_name);
			if (access(path, F_OK))
				continue;
			snprintf(path, sizeof(path), "%s/%s/dev", dir,
				 de->d_name);
			if (!read_devno(path, &c))
				stack_add(s, c, STACK_PART);
		}
		closedir(d);
	}
	snprintf(path, sizeof(path), "%s/holders", dir);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/holders/%s/dev", dir,
				 de->d_name);
			if (!read_devno(path, &c))
				stack_add(s, c, STACK_HOLDER);
		}
		closedir(d);
	}
}

/*
 * Loop devices whose backing file is one of the stack's devices: a loop
 * over a block device does not show up in its holders.
 */

/* The file behind loop device name ("loop3"), into back. 0 or -1. */
static int loop_backing_file(const char *name, char *back, size_t len)
{
	char path[300];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(back, 1, len - 1, f);
	fclose(f);
	back[n] = '\0';
	back[strcspn(back, "\n")] = '\0';
	return 0;
}

static bool add_loops(struct stack *s)
{
	char path[PATH_MAX], back[PATH_MAX];
	unsigned int before = s->nr;
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	if (!d)
		return false;
	while ((de = readdir(d))) {
		struct stat st;
		dev_t loop;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		if (loop_backing_file(de->d_name, back, sizeof(back)))
			continue;
		if (stat(back, &st) || !S_ISBLK(st.st_mode) ||
		    !stack_has(s, st.st_rdev))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dev", de->d_name);
		if (!read_devno(path, &loop))
			stack_add(s, loop, STACK_LOOP);
	}
	closedir(d);
	return s->nr > before;
}

/* The device, its partitions and what is built on them, to a fixed point. */
static void stack_build(struct stack *s, dev_t dev)
{
	unsigned int i = 0;

	s->nr = 0;
	stack_add(s, dev, STACK_SELF);
	do {
		for (; i < s->nr; i++)
			add_children(s, s->dev[i]);
	} while (add_loops(s));
}

/* "/dev/NAME" from sysfs (uevent DEVNAME), else "major:minor". */
static void dev_name(struct strbuf *sb, dev_t dev)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 major(dev), minor(dev));
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, "DEVNAME=", 8))
				continue;
			line[strcspn(line, "\n")] = '\0';
			strbuf_addf(sb, "/dev/%s", line + 8);
			fclose(f);
			return;
		}
		fclose(f);
	}
	strbuf_addf(sb, "%u:%u", major(dev), minor(dev));
}

/* mountinfo escapes blanks and backslashes as \ooo. */
static void unescape(struct strbuf *sb, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' &&
		    s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			strbuf_addch(sb, (char)((s[i + 1] - '0') * 64 +
						(s[i + 2] - '0') * 8 +
						(s[i + 3] - '0')));
			i += 3;
		} else {
			strbuf_addch(sb, s[i]);
		}
	}
}

/* The n-th (0-based) blank-separated field of line: start and length. */
static const char *field(const char *line, unsigned int n, size_t *len)
{
	const char *s = line;

	for (;;) {
		s += strspn(s, " ");
		if (!*s || *s == '\n')
			return NULL;
		*len = strcspn(s, " \n");
		if (!n--)
			return s;
		s += *len;
	}
}

/* A block device node named in /proc (mount source, swap file). */
static bool node_in_stack(const struct stack *s, const char *path,
			  size_t len, dev_t *dev)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	bool in = false;

	unescape(&sb, path, len);
	if (sb.len && sb.buf[0] == '/' && !stat(sb.buf, &st) &&
	    S_ISBLK(st.st_mode) && stack_has(s, st.st_rdev)) {
		*dev = st.st_rdev;
		in = true;
	}
	strbuf_release(&sb);
	return in;
}

/*
 * Is a device of the stack mounted? Matches the major:minor mountinfo
 * gives and, for filesystems that report an anonymous device there
 * (btrfs), the mount source. Fills which device and where.
 */
static bool stack_mounted(const struct stack *s, dev_t *dev,
			  struct strbuf *where)
{
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		unsigned int ma, mi;
		const char *mp, *sep, *src;
		size_t mlen, slen;

		/* "id parent major:minor root mountpoint ... - type source" */
		if (sscanf(line, "%*u %*u %u:%u", &ma, &mi) != 2)
			continue;
		mp = field(line, 4, &mlen);
		if (!mp)
			continue;
		if (stack_has(s, makedev(ma, mi))) {
			*dev = makedev(ma, mi);
			found = true;
		} else if ((sep = strstr(line, " - ")) &&
			   (src = field(sep + 3, 1, &slen)) &&
			   node_in_stack(s, src, slen, dev)) {
			found = true;
		}
		if (found)
			unescape(where, mp, mlen);
	}
	free(line);
	fclose(f);
	return found;
}

/* Is a device of the stack an active swap area? */
static bool stack_swap(const struct stack *s, dev_t *dev)
{
	char *line = NULL;
	size_t cap = 0, len;
	bool found = false;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		const char *name = field(line, 0, &len);

		if (name && node_in_stack(s, name, len, dev))
			found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* ---- signatures ---- */

static bool article_an(const char *name)
{
	static const char *const an[] = { "xfs", "ntfs", "f2fs", "hfs",
					  "hfsplus", "LVM2_member" };
	size_t i;

	if (strchr("aeiouAEIOU", name[0]))
		return true;
	for (i = 0; i < ARRAY_SIZE(an); i++)
		if (!strcmp(name, an[i]))
			return true;
	return false;
}

static void describe(struct strbuf *what, const char *type,
		     const char *usage)
{
	const char *a = article_an(type) ? "an" : "a";

	if (!usage || !strcmp(usage, "filesystem"))
		strbuf_addf(what, "%s %s filesystem", a, type);
	else if (!strcmp(usage, "raid"))
		strbuf_addf(what, "a RAID or volume manager signature (%s)",
			    type);
	else if (!strcmp(usage, "crypto"))
		strbuf_addf(what, "an encrypted volume (%s)", type);
	else
		strbuf_addf(what, "%s %s signature", a, type);
}

static uint16_t le16(const unsigned char *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

#define MD_MAGIC 0xa92b4efcu
#define PROBE_LEN (68u << 10)	/* covers btrfs at 64 KiB */

/* ext2, ext3 or ext4 from the superblock's feature flags. */
static const char *ext_type(const unsigned char *sb)
{
	uint32_t compat = le32(sb + 0x5c), incompat = le32(sb + 0x60);

	/* extents, 64bit, flex_bg: ext4; a journal: ext3 */
	if (incompat & (0x40 | 0x80 | 0x200))
		return "ext4";
	if (compat & 0x4)
		return "ext3";
	return "ext2";
}

/* A dos partition table: the boot signature and a sane entry. */
static bool dos_table(const unsigned char *b)
{
	unsigned int i;
	bool any = false;

	if (b[510] != 0x55 || b[511] != 0xaa)
		return false;
	for (i = 0; i < 4; i++) {
		const unsigned char *e = b + 446 + 16 * i;

		if (e[0] != 0 && e[0] != 0x80)
			return false;
		if (e[4] && le32(e + 12))
			any = true;
	}
	return any;
}

/* Linux RAID superblocks near the end: 0.90 and 1.0. */
static bool md_at_end(int fd, uint64_t size)
{
	unsigned char m[4];
	uint64_t at[2];
	unsigned int i;

	if (size < (128u << 10))
		return false;
	at[0] = (size & ~((64ull << 10) - 1)) - (64u << 10);
	at[1] = ((size - (8u << 10)) & ~4095ull);
	for (i = 0; i < 2; i++)
		if (pread(fd, m, 4, (off_t)at[i]) == 4 && le32(m) == MD_MAGIC)
			return true;
	return false;
}

static uint64_t fd_size(int fd)
{
	struct stat st;
	uint64_t bytes = 0;

	if (fstat(fd, &st))
		return 0;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, &bytes) ? 0 : bytes;
	return (uint64_t)st.st_size;
}

int safety_probe_builtin(int fd, struct strbuf *what)
{
	static const unsigned int swap_at[] = { 4096, 8192, 16384, 65536 };
	unsigned char *b = xcalloc(1, PROBE_LEN);
	ssize_t got = 0, r;
	unsigned int i;
	int ret = 1;

	while ((size_t)got < PROBE_LEN) {
		r = pread(fd, b + got, PROBE_LEN - (size_t)got, got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			goto out;
		}
		if (!r)
			break;
		got += r;
	}
	/* what was not read stays zero and matches nothing */
	if (le16(b + 1024 + 56) == 0xef53) {
		describe(what, ext_type(b + 1024), NULL);
	} else if (!memcmp(b, "XFSB", 4)) {
		describe(what, "xfs", NULL);
	} else if (!memcmp(b + 65536 + 64, "_BHRfS_M", 8)) {
		describe(what, "btrfs", NULL);
	} else if (!memcmp(b, "LUKS\xba\xbe", 6)) {
		describe(what, "crypto_LUKS", "crypto");
	} else if (!memcmp(b + 512, "LABELONE", 8) &&
		   !memcmp(b + 512 + 24, "LVM2 001", 8)) {
		describe(what, "LVM2_member", "raid");
	} else if (le32(b) == MD_MAGIC || le32(b + 4096) == MD_MAGIC ||
		   md_at_end(fd, fd_size(fd))) {
		describe(what, "linux_raid_member", "raid");
	} else if (!memcmp(b + 512, "EFI PART", 8) ||
		   !memcmp(b + 4096, "EFI PART", 8)) {
		strbuf_addstr(what, "a gpt partition table");
	} else if (!memcmp(b + 3, "NTFS    ", 8)) {
		describe(what, "ntfs", NULL);
	} else if (!memcmp(b + 54, "FAT1", 4) || !memcmp(b + 82, "FAT32", 5)) {
		describe(what, "vfat", NULL);
	} else if (dos_table(b)) {
		strbuf_addstr(what, "a dos partition table");
	} else {
		ret = 0;
		for (i = 0; i < ARRAY_SIZE(swap_at); i++)
			if (!memcmp(b + swap_at[i] - 10, "SWAPSPACE2", 10) ||
			    !memcmp(b + swap_at[i] - 10, "SWAP-SPACE", 10)) {
				describe(what, "swap", "other");
				ret = 1;
				break;
			}
	}
out:
	free(b);
	return ret;
}

#ifdef HAVE_LIBBLKID
static int probe_blkid(const char *path, struct strbuf *what)
{
	const char *type = NULL, *usage = NULL;
	blkid_probe pr = blkid_new_probe_from_filename(path);
	int rc;

	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
			strbuf_addf(what, "a %s partition table", type);
		} else if (!blkid_probe_lookup_value(pr, "TYPE", &type,
						     NULL)) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			describe(what, type, usage);
		} else {
			strbuf_addstr(what, "a signature");
		}
	} else if (rc == -2) {
		strbuf_addstr(what, "several conflicting signatures");
	}
	blkid_free_probe(pr);
	if (rc < 0 && rc != -2)
		return -EIO;
	return rc == 1 ? 0 : 1;
}
#endif

int safety_probe_signature(const char *path, struct strbuf *what)
{
#ifdef HAVE_LIBBLKID
	return probe_blkid(path, what);
#else
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = safety_probe_builtin(fd, what);
	close(fd);
	return ret;
#endif
}

/* ---- the checks ---- */

int safety_check_blockdev(const struct job_plan *p, const char *path,
			  dev_t rdev, struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf where = STRBUF_INIT;
	struct stack s;
	dev_t dev = 0;
	unsigned int i;
	int fd, ret = 0;

	if (p->o.allow_mounted_write || !p->writes)
		return 0;
	stack_build(&s, rdev);

	if (stack_mounted(&s, &dev, &where)) {
		if (dev == rdev) {
			ret = refuse(err, p, "'%s' is mounted and the job "
				     "writes to it (mounted on '%s'): set "
				     OVERRIDE "=1 to destroy the filesystem "
				     "on it", path, where.buf);
		} else {
			bool part = stack_how(&s, dev) == STACK_PART;

			dev_name(&name, dev);
			ret = refuse(err, p, "'%s' is mounted and the job "
				     "writes to it (%s '%s'%s is mounted on "
				     "'%s'): set " OVERRIDE "=1 to destroy the "
				     "filesystem on it", path,
				     part ? "its partition" : "the device",
				     name.buf, part ? "" : " built on it",
				     where.buf);
		}
		goto out;
	}
	if (stack_swap(&s, &dev)) {
		dev_name(&name, dev);
		ret = refuse(err, p, "'%s' is in use as swap ('%s') and the "
			     "job writes to it: set " OVERRIDE "=1 to write "
			     "anyway", path, name.buf);
		goto out;
	}
	for (i = 1; i < s.nr; i++) {
		if (s.how[i] == STACK_PART)
			continue;
		dev_name(&name, s.dev[i]);
		ret = refuse(err, p, "'%s' is in use ('%s' is built on it) and "
			     "the job writes to it: set " OVERRIDE "=1 to "
			     "write anyway", path, name.buf);
		goto out;
	}
	/* a filesystem, RAID, device-mapper or swap holding it exclusively */
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY) {
		ret = refuse(err, p, "'%s' is in use (the kernel holds it "
			     "open exclusively) and the job writes to it: set "
			     OVERRIDE "=1 to write anyway", path);
		goto out;
	}
	if (fd >= 0)
		close(fd);

	ret = safety_probe_signature(path, &what);
	if (ret < 0) {
		ret = refuse(err, p, "cannot read '%s' to look for a "
			     "filesystem or partition table: %s; set " OVERRIDE
			     "=1 to write anyway", path, strerror(-ret));
	} else if (ret > 0) {
		ret = refuse(err, p, "'%s' holds %s and the job writes to it: "
			     "set " OVERRIDE "=1 to overwrite it", path,
			     what.buf);
	}
out:
	strbuf_release(&what);
	strbuf_release(&where);
	strbuf_release(&name);
	return ret;
}

/*
 * A loop device over the file, with what is stacked on it, mounted: the
 * job would write under a mounted filesystem. Returns 1 and fills loop,
 * the mounted device and where, else 0.
 */
static int file_under_mount(const struct stat *st, dev_t *loop, dev_t *dev,
			    struct strbuf *where)
{
	char path[PATH_MAX], back[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		struct stack s;
		struct stat bst;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		if (loop_backing_file(de->d_name, back, sizeof(back)))
			continue;
		if (stat(back, &bst) || bst.st_dev != st->st_dev ||
		    bst.st_ino != st->st_ino)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dev", de->d_name);
		if (read_devno(path, loop))
			continue;
		stack_build(&s, *loop);
		found = stack_mounted(&s, dev, where);
	}
	closedir(d);
	return found;
}

int safety_check_file(const struct job_plan *p, const char *path,
		      const struct stat *st, struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT, lname = STRBUF_INIT;
	struct strbuf dname = STRBUF_INIT;
	dev_t loop = 0, dev = 0;
	int ret = 0;

	if (p->o.allow_mounted_write || !p->writes)
		return 0;
	if (file_under_mount(st, &loop, &dev, &where)) {
		dev_name(&lname, loop);
		dev_name(&dname, dev);
		ret = refuse(err, p, "'%s' backs loop device '%s' and the job "
			     "writes to it ('%s' is mounted on '%s'): set "
			     OVERRIDE "=1 to destroy the filesystem on it",
			     path, lname.buf, dname.buf, where.buf);
	}
	strbuf_release(&where);
	strbuf_release(&lname);
	strbuf_release(&dname);
	return ret;
}

int safety_check_readonly(const struct job_plan *plans, unsigned int nr,
			  const struct job_files *jf, struct strbuf *err)
{
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		const struct job_plan *p = &plans[i];

		for (k = 0; k < jf[i].nr_files; k++) {
			const char *path = jf[i].files[k].path;

			if (!jf[i].need_create[k] && !jf[i].need_layout[k])
				continue;
			if (p->src_file)
				strbuf_addf(err, "%s:%d: ", p->src_file,
					    p->src_line);
			strbuf_addf(err, "job '%s' would %s '%s', and "
				    "--readonly refuses writing anything",
				    p->o.name ? p->o.name : "",
				    jf[i].need_create[k] ? "create" :
				    "extend", path);
			return -1;
		}
	}
	return 0;
}
