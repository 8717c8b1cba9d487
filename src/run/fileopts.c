/* SPDX-License-Identifier: MIT */
/*
 * File options around the I/O (see fileopts.h).
 */
#include "run/fileopts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

static const char *sysfs_root(void)
{
	const char *r = getenv("IOLITE_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

/* queue/io_poll of a disk (or of the disk a partition is on): 1 or 0 */
static int dev_polls(dev_t dev)
{
	char path[256];
	FILE *fp;
	int v = 0;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/queue/io_poll",
		 sysfs_root(), major(dev), minor(dev));
	fp = fopen(path, "r");
	if (!fp) {
		snprintf(path, sizeof(path),
			 "%s/dev/block/%u:%u/../queue/io_poll", sysfs_root(),
			 major(dev), minor(dev));
		fp = fopen(path, "r");
	}
	if (!fp)
		return 0;
	if (fscanf(fp, "%d", &v) != 1)
		v = 0;
	fclose(fp);
	return v == 1;
}

void fileopts_notes(const struct job_plan *plans,
		    const struct job_files *files, unsigned int nr,
		    struct notes *out)
{
	unsigned int i, k;

	for (i = 0; i < nr; i++) {
		const struct job_options *o = &plans[i].o;

		if (!o->hipri || !o->hipri_percentage || !o->ioengine ||
		    strcmp(o->ioengine, "pvsync2") || plans[i].clone)
			continue;
		if (!o->direct) {
			notes_add(out, "job '%s': hipri on buffered I/O: the kernel polls only O_DIRECT I/O (direct=1), so RWF_HIPRI changes nothing here",
				  o->name);
			continue;
		}
		for (k = 0; k < files[i].nr_devs; k++)
			if (!dev_polls(files[i].devs[k]))
				notes_add(out, "job '%s': hipri: device %u:%u has no poll queues (queue/io_poll is not 1; NVMe needs nvme.poll_queues): RWF_HIPRI I/Os complete by interrupt, as without hipri",
					  o->name, major(files[i].devs[k]),
					  minor(files[i].devs[k]));
	}
}
