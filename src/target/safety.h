/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_TARGET_SAFETY_H
#define IOLITE_TARGET_SAFETY_H

#include <sys/stat.h>
#include <sys/types.h>

#include "opt/plan.h"
#include "target/files.h"
#include "util/strbuf.h"

/*
 * Safety around devices: a storage tester is pointed at devices that hold
 * data, and must not destroy what it was not meant to. These checks run
 * in files_resolve(), before any file is created or I/O issued.
 */

/*
 * May job p write (or trim) the block device at path, device number
 * rdev? Refused, unless allow_mounted_write=1, when the device:
 *  - or one of its partitions, or a device-mapper or loop device stacked
 *    on any of those, is mounted or in use as swap;
 *  - is held open exclusively by the kernel (a filesystem, RAID,
 *    device-mapper or swap claims it);
 *  - holds a filesystem, partition table, RAID or other signature
 *    (libblkid where iolite was built with it, else a built-in probe of
 *    the common ones).
 * Looks only (a read-only open, reads of the first and last few KiB).
 * Returns 0, or -1 with "file:line: option 'allow_mounted_write': ..."
 * naming the device and what was found in err.
 */
int safety_check_blockdev(const struct job_plan *p, const char *path,
			  dev_t rdev, struct strbuf *err);

/*
 * May job p write the existing regular file at path? Refused, unless
 * allow_mounted_write=1, when the file backs a loop device that (or
 * whose partitions or stacked devices) is mounted: the writes would land
 * under a mounted filesystem. Files are not probed for signatures: images
 * are ordinary things to benchmark. Returns 0, or -1 with a message.
 */
int safety_check_file(const struct job_plan *p, const char *path,
		      const struct stat *st, struct strbuf *err);

/*
 * What signature the device or image file at path holds: returns 1 with
 * a description such as "an ext4 filesystem" or "a gpt partition table"
 * appended to what, 0 when there is none, or -errno when it cannot be
 * read. Uses libblkid when built with it (HAVE_LIBBLKID).
 */
int safety_probe_signature(const char *path, struct strbuf *what);

/*
 * The probe used without libblkid, on an open file or device: ext2/3/4,
 * xfs, btrfs, swap, Linux RAID (md) superblocks, gpt and dos partition
 * tables. Same returns as safety_probe_signature(). Always built, so the
 * unit tests exercise it whichever probe the binary uses.
 */
int safety_probe_builtin(int fd, struct strbuf *what);

/*
 * --readonly: a run may not write anything, not even the layout of a
 * file a read job needs. Returns 0, or -1 naming the first job and file
 * files_resolve() marked to create or lay out.
 */
int safety_check_readonly(const struct job_plan *plans, unsigned int nr,
			  const struct job_files *jf, struct strbuf *err);

#endif
