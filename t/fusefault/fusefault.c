/* SPDX-License-Identifier: MIT */
/*
 * fusefault: a FUSE file system of one file, /data, that fails on
 * purpose, for iolite's fault tests (t/t1110-faults.sh).
 *
 *   fusefault MOUNTPOINT --size=N [--eio-read=OFF] [--eio-write=OFF]
 *             [--short-read=OFF] [--short-write=OFF] [--zero-read=OFF]
 *             [--zero-write=OFF] [--hang-read=OFF] [--hang-write=OFF]
 *             [fuse options]
 *
 * The file lives in memory (zeroed). A read or write request that covers
 * byte OFF of an --eio-* option fails with EIO; one that starts exactly
 * at OFF of a --short-* option moves half its bytes (so the rest, issued
 * again at another offset, succeeds), of a --zero-* option none; one
 * that covers OFF of a --hang-* option never completes (a stuck device:
 * the thread serving it sleeps until the file system goes away). Each
 * option may be given several times (up to 16 offsets each). Requests
 * reach the file system as issued: the file is opened with direct_io,
 * so the page cache neither merges nor splits them.
 *
 * Mounts and goes to the background (fuse_main); unmount with
 * `umount MOUNTPOINT` or `fusermount3 -u MOUNTPOINT`.
 */
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_NAME "data"
#define MAX_OFFS 16

enum fault { F_EIO_R, F_EIO_W, F_SHORT_R, F_SHORT_W, F_ZERO_R, F_ZERO_W,
	     F_HANG_R, F_HANG_W, F_NR };

static const char *const fault_opt[F_NR] = {
	"--eio-read=", "--eio-write=", "--short-read=", "--short-write=",
	"--zero-read=", "--zero-write=", "--hang-read=", "--hang-write=",
};

static struct {
	unsigned char *data;
	uint64_t size;
	uint64_t off[F_NR][MAX_OFFS];
	unsigned int nr[F_NR];
} fs;

static int is_file(const char *path)
{
	return !strcmp(path, "/" FILE_NAME);
}

static int ff_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (!is_file(path))
		return -ENOENT;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = (off_t)fs.size;
	st->st_blksize = 4096;
	st->st_blocks = (blkcnt_t)(fs.size / 512);
	return 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, FILE_NAME, NULL, 0, 0);
	return 0;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	if (!is_file(path))
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

/* The file's size is fixed: truncating to it (a layout) is fine. */
static int ff_truncate(const char *path, off_t size,
		       struct fuse_file_info *fi)
{
	(void)fi;
	if (!is_file(path))
		return -ENOENT;
	return (uint64_t)size == fs.size ? 0 : -EFBIG;
}

static int covers(enum fault f, uint64_t off, size_t len)
{
	unsigned int i;

	for (i = 0; i < fs.nr[f]; i++)
		if (fs.off[f][i] >= off && fs.off[f][i] < off + len)
			return 1;
	return 0;
}

static int starts(enum fault f, uint64_t off)
{
	unsigned int i;

	for (i = 0; i < fs.nr[f]; i++)
		if (fs.off[f][i] == off)
			return 1;
	return 0;
}

/* How many of len bytes at off to move, or -errno. */
static long plan_io(int wr, uint64_t off, size_t len)
{
	if (off >= fs.size)
		return 0;
	if (len > fs.size - off)
		len = (size_t)(fs.size - off);
	while (covers(wr ? F_HANG_W : F_HANG_R, off, len))
		pause();	/* the request is never answered */
	if (covers(wr ? F_EIO_W : F_EIO_R, off, len))
		return -EIO;
	if (starts(wr ? F_ZERO_W : F_ZERO_R, off))
		return 0;
	if (starts(wr ? F_SHORT_W : F_SHORT_R, off) && len > 1)
		return (long)(len / 2);
	return (long)len;
}

static int ff_read(const char *path, char *buf, size_t len, off_t off,
		   struct fuse_file_info *fi)
{
	long n;

	(void)fi;
	if (!is_file(path))
		return -ENOENT;
	n = plan_io(0, (uint64_t)off, len);
	if (n > 0)
		memcpy(buf, fs.data + off, (size_t)n);
	return (int)n;
}

static int ff_write(const char *path, const char *buf, size_t len,
		    off_t off, struct fuse_file_info *fi)
{
	long n;

	(void)fi;
	if (!is_file(path))
		return -ENOENT;
	if ((uint64_t)off >= fs.size)
		return -ENOSPC;
	n = plan_io(1, (uint64_t)off, len);
	if (n > 0)
		memcpy(fs.data + off, buf, (size_t)n);
	return (int)n;
}

static int ff_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	(void)datasync;
	(void)fi;
	return 0;
}

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	return NULL;
}

static const struct fuse_operations ff_ops = {
	.init = ff_init,
	.getattr = ff_getattr,
	.readdir = ff_readdir,
	.open = ff_open,
	.truncate = ff_truncate,
	.read = ff_read,
	.write = ff_write,
	.fsync = ff_fsync,
};

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (end == s)
		return -1;
	switch (*end) {
	case 'k':
		v <<= 10;
		end++;
		break;
	case 'm':
		v <<= 20;
		end++;
		break;
	default:
		break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	char **fargv = calloc((size_t)argc + 1, sizeof(char *));
	int fargc = 0, i, f;

	if (!fargv)
		return 1;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int mine = 0;

		if (!strncmp(a, "--size=", 7)) {
			if (parse_u64(a + 7, &fs.size))
				goto bad;
			mine = 1;
		}
		for (f = 0; f < F_NR && !mine; f++) {
			size_t n = strlen(fault_opt[f]);

			if (strncmp(a, fault_opt[f], n))
				continue;
			if (fs.nr[f] == MAX_OFFS ||
			    parse_u64(a + n, &fs.off[f][fs.nr[f]]))
				goto bad;
			fs.nr[f]++;
			mine = 1;
		}
		if (!mine)
			fargv[fargc++] = argv[i];
		continue;
bad:
		fprintf(stderr, "fusefault: bad option '%s'\n", a);
		return 2;
	}
	if (!fs.size) {
		fprintf(stderr, "usage: fusefault MOUNTPOINT --size=N [--eio-read=OFF] ...\n");
		return 2;
	}
	fs.data = calloc(1, (size_t)fs.size);
	if (!fs.data) {
		fprintf(stderr, "fusefault: out of memory\n");
		return 1;
	}
	return fuse_main(fargc, fargv, &ff_ops, NULL);
}
