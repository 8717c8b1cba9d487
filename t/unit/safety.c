/* SPDX-License-Identifier: MIT */
/*
 * target/safety.c without devices: the built-in signature probe on images
 * made by hand (each signature at its place, and near misses), the
 * probe the binary uses (libblkid or built-in) on a real mkfs.ext4 image,
 * the --readonly check and when the device check does not apply. The
 * checks on real loop devices are t/t0900-safety.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/safety.h"
#include "tap.h"

static char dir[TAP_TMP_MAX];
static char img[sizeof(dir) + 16];

/* A zeroed image of size bytes with data written at each offset. */
struct patch {
	long off;
	const char *data;
	size_t len;
};

static int make_image(size_t size, const struct patch *p, size_t n)
{
	int fd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0600);
	size_t i;

	if (fd < 0 || ftruncate(fd, (off_t)size))
		return -1;
	for (i = 0; i < n; i++)
		if (pwrite(fd, p[i].data, p[i].len, p[i].off) !=
		    (ssize_t)p[i].len)
			return -1;
	return fd;
}

/* The built-in probe's answer for an image: 1 + what, 0, or -errno. */
static int probe(size_t size, const struct patch *p, size_t n,
		 struct strbuf *what)
{
	int fd = make_image(size, p, n);
	int ret;

	strbuf_reset(what);
	if (fd < 0)
		return -EIO;
	ret = safety_probe_builtin(fd, what);
	close(fd);
	return ret;
}

#define P(off, s) { (off), (s), sizeof(s) - 1 }
#define MIB (1u << 20)

static void expect(const char *name, size_t size, const struct patch *p,
		   size_t n, const char *want)
{
	struct strbuf what = STRBUF_INIT;
	int ret = probe(size, p, n, &what);

	if (want)
		ok(ret == 1 && !strcmp(strbuf_str(&what), want),
		   "builtin: %s is '%s' (got %d '%s')", name, want, ret,
		   strbuf_str(&what));
	else
		ok(ret == 0 && !what.len, "builtin: %s is nothing "
		   "(got %d '%s')", name, ret, strbuf_str(&what));
	strbuf_release(&what);
}

static void test_builtin(void)
{
	/* ext magic 0xef53 at 1080; feature flags at 1024 + 0x5c / 0x60 */
	static const struct patch ext2[] = { P(1080, "\x53\xef") };
	static const struct patch ext3[] = { P(1080, "\x53\xef"),
					     P(1024 + 0x5c, "\x04") };
	static const struct patch ext4[] = { P(1080, "\x53\xef"),
					     P(1024 + 0x60, "\x40") };
	static const struct patch ext_off[] = { P(1081, "\x53\xef") };
	static const struct patch xfs[] = { P(0, "XFSB") };
	static const struct patch btrfs[] = { P(65600, "_BHRfS_M") };
	static const struct patch btrfs_off[] = { P(65536, "_BHRfS_M") };
	static const struct patch luks[] = { P(0, "LUKS\xba\xbe") };
	static const struct patch lvm[] = { P(512, "LABELONE"),
					    P(536, "LVM2 001") };
	static const struct patch md12[] = { P(4096, "\xfc\x4e\x2b\xa9") };
	static const struct patch md11[] = { P(0, "\xfc\x4e\x2b\xa9") };
	/* 0.90 at the last 64 KiB boundary less 64 KiB; 1.0 at end - 8 KiB */
	static const struct patch md090[] = {
		P(MIB - 65536, "\xfc\x4e\x2b\xa9") };
	static const struct patch md10[] = {
		P(MIB - 8192, "\xfc\x4e\x2b\xa9") };
	static const struct patch gpt[] = { P(512, "EFI PART"),
					    P(510, "\x55\xaa") };
	static const struct patch gpt4k[] = { P(4096, "EFI PART") };
	static const struct patch dos[] = {
		P(446, "\x00\x20\x21\x00\x83\xfe\xff\xff\x00\x08\x00\x00"
		       "\x00\x08\x00\x00"),
		P(510, "\x55\xaa") };
	static const struct patch dos_empty[] = { P(510, "\x55\xaa") };
	static const struct patch dos_badflag[] = {
		P(446, "\x12\x20\x21\x00\x83\xfe\xff\xff\x00\x08\x00\x00"
		       "\x00\x08\x00\x00"),
		P(510, "\x55\xaa") };
	static const struct patch fat[] = { P(82, "FAT32   "),
					    P(510, "\x55\xaa") };
	static const struct patch ntfs[] = { P(3, "NTFS    "),
					     P(510, "\x55\xaa") };
	static const struct patch swap[] = { P(4086, "SWAPSPACE2") };
	static const struct patch swap64k[] = { P(65526, "SWAPSPACE2") };
	static const struct patch swap_off[] = { P(4000, "SWAPSPACE2") };

	expect("zeroes", MIB, NULL, 0, NULL);
	expect("ext2", MIB, ext2, 1, "an ext2 filesystem");
	expect("ext3", MIB, ext3, 2, "an ext3 filesystem");
	expect("ext4", MIB, ext4, 2, "an ext4 filesystem");
	expect("ext magic one byte off", MIB, ext_off, 1, NULL);
	expect("xfs", MIB, xfs, 1, "an xfs filesystem");
	expect("btrfs", MIB, btrfs, 1, "a btrfs filesystem");
	expect("btrfs magic at the superblock start", MIB, btrfs_off, 1,
	       NULL);
	expect("luks", MIB, luks, 1, "an encrypted volume (crypto_LUKS)");
	expect("lvm", MIB, lvm, 2,
	       "a RAID or volume manager signature (LVM2_member)");
	expect("md 1.2", MIB, md12, 1,
	       "a RAID or volume manager signature (linux_raid_member)");
	expect("md 1.1", MIB, md11, 1,
	       "a RAID or volume manager signature (linux_raid_member)");
	expect("md 0.90 at the end", MIB, md090, 1,
	       "a RAID or volume manager signature (linux_raid_member)");
	expect("md 1.0 at the end", MIB, md10, 1,
	       "a RAID or volume manager signature (linux_raid_member)");
	expect("gpt", MIB, gpt, 2, "a gpt partition table");
	expect("gpt, 4k sectors", MIB, gpt4k, 1, "a gpt partition table");
	expect("dos", MIB, dos, 2, "a dos partition table");
	expect("boot signature without partitions", MIB, dos_empty, 1,
	       NULL);
	expect("dos with a bad boot flag", MIB, dos_badflag, 2, NULL);
	expect("fat32", MIB, fat, 2, "a vfat filesystem");
	expect("ntfs", MIB, ntfs, 2, "an ntfs filesystem");
	expect("swap", MIB, swap, 1, "a swap signature");
	expect("swap, 64k pages", MIB, swap64k, 1, "a swap signature");
	expect("swap magic misplaced", MIB, swap_off, 1, NULL);
	expect("an image shorter than the probe", 2048, ext4, 2,
	       "an ext4 filesystem");
	expect("an empty image", 0, NULL, 0, NULL);
}

static void test_probe_mkfs(void)
{
	struct strbuf what = STRBUF_INIT;
	char cmd[sizeof(img) + 64];
	int fd, ret;

	fd = make_image(MIB, NULL, 0);
	if (fd >= 0)
		close(fd);
	ret = safety_probe_signature(img, &what);
	ok(fd >= 0 && ret == 0 && !what.len, "probe: a zeroed image holds "
	   "nothing (%d '%s')", ret, strbuf_str(&what));
	ret = safety_probe_signature("/nonexistent/iolite", &what);
	ok(ret < 0, "probe: a missing file is an error (%d)", ret);

	/* mkfs.ext4 is in /sbin, off a normal user's PATH */
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F %s 4096 >/dev/null 2>&1",
		 img);
	if (system("PATH=$PATH:/usr/sbin:/sbin; command -v mkfs.ext4 >/dev/null 2>&1") ||
	    truncate(img, 4 * MIB) || system(cmd)) {
		skip("missing MKFS_EXT4: no mkfs.ext4: apt-get install e2fsprogs",
		     "probe: mkfs.ext4 makes 'an ext4 filesystem'");
		goto out;
	}
	strbuf_reset(&what);
	ret = safety_probe_signature(img, &what);
	ok(ret == 1 && !strcmp(strbuf_str(&what), "an ext4 filesystem"),
	   "probe: mkfs.ext4 makes 'an ext4 filesystem' (%d '%s')", ret,
	   strbuf_str(&what));
out:
	strbuf_release(&what);
}

static void plan_init(struct job_plan *p, const char *name, bool writes)
{
	memset(p, 0, sizeof(*p));
	p->o.name = (char *)name;
	p->writes = writes;
	p->src_file = "job.fio";
	p->src_line = 7;
}

static void test_readonly(void)
{
	struct strbuf err = STRBUF_INIT;
	struct engine_file files[2] = { { .path = (char *)"a" },
					{ .path = (char *)"b" } };
	bool create[2] = { false, false }, layout[2] = { false, false };
	bool fill[2] = { false, false };
	struct job_files jf = { .files = files, .nr_files = 2,
				.need_create = create,
				.need_layout = layout, .need_fill = fill };
	struct job_plan p;
	int ret;

	plan_init(&p, "r", false);
	ret = safety_check_readonly(&p, 1, &jf, &err);
	ok(ret == 0 && !err.len, "readonly: files that exist at full size "
	   "pass");
	layout[1] = true;
	ret = safety_check_readonly(&p, 1, &jf, &err);
	ok(ret == -1 && !strcmp(strbuf_str(&err), "job.fio:7: job 'r' would "
				"extend 'b', and --readonly refuses writing "
				"anything"),
	   "readonly: a file to lay out is refused: %s", strbuf_str(&err));
	strbuf_reset(&err);
	create[0] = true;
	ret = safety_check_readonly(&p, 1, &jf, &err);
	ok(ret == -1 && strstr(strbuf_str(&err), "would create 'a'"),
	   "readonly: a file to create is refused first: %s",
	   strbuf_str(&err));
	strbuf_release(&err);
}

static void test_blockdev_skips(void)
{
	struct strbuf err = STRBUF_INIT;
	struct job_plan p;

	/* nothing is looked at: a path that does not exist passes */
	plan_init(&p, "r", false);
	ok(safety_check_blockdev(&p, "/nonexistent/dev", 0, &err) == 0 &&
	   !err.len, "blockdev: a job that does not write is not checked");
	plan_init(&p, "w", true);
	p.o.allow_mounted_write = true;
	ok(safety_check_blockdev(&p, "/nonexistent/dev", 0, &err) == 0 &&
	   !err.len, "blockdev: allow_mounted_write=1 skips the checks");
	p.o.allow_mounted_write = false;
	ok(safety_check_blockdev(&p, "/nonexistent/dev", 0, &err) == -1 &&
	   strstr(strbuf_str(&err), "job.fio:7: option 'allow_mounted_write'"
				    ": cannot read '/nonexistent/dev'"),
	   "blockdev: a device that cannot be probed is refused: %s",
	   strbuf_str(&err));
	strbuf_release(&err);
}

int main(void)
{
	if (!mkdtemp(tap_tmp(dir, "iolite-unit-safety.XXXXXX"))) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(img, sizeof(img), "%s/img", dir);
#ifdef HAVE_LIBBLKID
	diag("signatures: libblkid");
#else
	diag("signatures: the built-in probe");
#endif
	test_builtin();
	test_probe_mkfs();
	test_readonly();
	test_blockdev_skips();
	unlink(img);
	rmdir(dir);
	return done_testing();
}
