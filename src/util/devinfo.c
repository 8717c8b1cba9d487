/* SPDX-License-Identifier: MIT */
/* The run's targets as sysfs and mountinfo tell them: see devinfo.h. */
#include "util/devinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "util/strbuf.h"

/* src into dst of len bytes, cut short when it does not fit */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

void devinfo_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	/* sysfs pads some strings (a model) with spaces */
	for (len = strlen(buf); len && buf[len - 1] == ' '; )
		buf[--len] = '\0';
}

/* dir/file's first line */
static void read_at(const char *dir, const char *file, char *buf, size_t len)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", dir, file);
	devinfo_read_line(p.buf, buf, len);
	strbuf_release(&p);
}

static uint64_t read_u64(const char *dir, const char *file)
{
	char buf[64];

	read_at(dir, file, buf, sizeof(buf));
	return strtoull(buf, NULL, 10);
}

/* "mq-deadline kyber [none]": the one in brackets */
static void scheduler(const char *line, char *out, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b && (size_t)(b - a) <= len) {
		memcpy(out, a + 1, (size_t)(b - a - 1));
		out[b - a - 1] = '\0';
	} else {
		copy(out, len, line);
	}
}

/* blk-mq's hardware queues: /sys/block/NAME/mq/0, 1 ... */
static void hw_queues(const char *dir, struct dev_info *out)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	unsigned int q;

	for (q = 0; q < 4096; q++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/mq/%u", dir, q);
		if (stat(p.buf, &st))
			break;
	}
	out->nr_hw_queues = q;
	strbuf_release(&p);
}

/* A device without a model (virtio): its driver's name, "virtio_blk" */
static void driver(const char *dir, char *out, size_t len)
{
	struct strbuf p = STRBUF_INIT;
	char real[PATH_MAX], *base;

	strbuf_addf(&p, "%s/device/driver", dir);
	if (realpath(p.buf, real) && (base = strrchr(real, '/'))) {
		copy(out, len, "driver ");
		copy(out + strlen(out), len - strlen(out), base + 1);
	}
	strbuf_release(&p);
}

void dev_info_get(const char *name, struct dev_info *out)
{
	struct strbuf dir = STRBUF_INIT;
	char buf[256];

	memset(out, 0, sizeof(*out));
	out->rotational = -1;
	if (!*name || strchr(name, '/') || !strcmp(name, "..") ||
	    !strcmp(name, "."))
		return;
	strbuf_addf(&dir, "/sys/block/%s", name);
	read_at(dir.buf, "device/model", out->model, sizeof(out->model));
	if (!*out->model)
		driver(dir.buf, out->model, sizeof(out->model));
	read_at(dir.buf, "queue/scheduler", buf, sizeof(buf));
	scheduler(buf, out->scheduler, sizeof(out->scheduler));
	read_at(dir.buf, "queue/rotational", buf, sizeof(buf));
	if (*buf)
		out->rotational = atoi(buf);
	out->size_bytes = read_u64(dir.buf, "size") * 512;
	out->nr_requests = (unsigned int)read_u64(dir.buf, "queue/nr_requests");
	out->max_sectors_kb = (unsigned int)read_u64(dir.buf,
						      "queue/max_sectors_kb");
	out->read_ahead_kb = (unsigned int)read_u64(dir.buf,
						     "queue/read_ahead_kb");
	out->logical_block = (unsigned int)read_u64(dir.buf,
						     "queue/logical_block_size");
	out->physical_block = (unsigned int)read_u64(dir.buf,
						      "queue/physical_block_size");
	hw_queues(dir.buf, out);
	strbuf_release(&dir);
}

/*
 * The disk (whole device) of major:minor: /sys/dev/block/M:m is a link
 * into /sys/devices/.../block/DISK[/PART]; a partition's parent is the
 * disk. "" when there is none (tmpfs, overlay).
 */
static void disk_of(unsigned int major, unsigned int minor, char *out,
		    size_t len)
{
	char link[64], real[PATH_MAX], *slash, *base;
	struct strbuf part = STRBUF_INIT;
	struct stat st;

	out[0] = '\0';
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major, minor);
	if (!realpath(link, real))
		return;
	strbuf_addf(&part, "%s/partition", real);
	if (!stat(part.buf, &st) && (slash = strrchr(real, '/')))
		*slash = '\0';		/* the partition's disk */
	strbuf_release(&part);
	base = strrchr(real, '/');
	if (base)
		copy(out, len, base + 1);
}

/* mountinfo's octal escapes (\040 for a space) undone in place */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] &&
		    s[3]) {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* The mountinfo line of device dev, the last mounted (the one seen). */
static int mount_of(dev_t dev, struct fs_info *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mnt[1024], opts[512], type[64], src[512];
		unsigned int ma, mi;
		const char *sep;

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s %511s", &ma, &mi,
			   mnt, opts) != 4 || makedev(ma, mi) != dev)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %511s", type, src) != 2)
			continue;
		unescape(mnt);
		unescape(src);
		copy(out->type, sizeof(out->type), type);
		copy(out->mount, sizeof(out->mount), mnt);
		copy(out->source, sizeof(out->source), src);
		copy(out->opts, sizeof(out->opts), opts);
		found = 0;
	}
	fclose(f);
	return found;
}

int fs_info_get(const char *path, struct fs_info *out)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st)) {
		copy(dir, sizeof(dir), path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		else if (slash)
			dir[1] = '\0';
		else
			copy(dir, sizeof(dir), ".");
		if (stat(dir, &st))
			return -1;
	}
	if (S_ISBLK(st.st_mode)) {
		copy(out->type, sizeof(out->type), "block device");
		disk_of(major(st.st_rdev), minor(st.st_rdev), out->dev,
			sizeof(out->dev));
		return 0;
	}
	mount_of(st.st_dev, out);
	disk_of(major(st.st_dev), minor(st.st_dev), out->dev, sizeof(out->dev));
	return 0;
}
