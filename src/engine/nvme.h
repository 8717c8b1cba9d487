/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_NVME_H
#define IOLITE_ENGINE_NVME_H

/*
 * NVMe namespaces as the passthrough engine (io_uring_cmd) and the
 * target layer (sizes, safety) see them: what Identify Namespace says
 * (size, block size, metadata), whether a character device is a
 * namespace's generic node (/dev/ngXnY), the block device beside it, and
 * the name of a command status. Looks only: ioctls that read, sysfs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

struct nvme_ns_info {
	uint32_t nsid;
	uint32_t lba_size;	/* bytes per logical block */
	unsigned int lba_shift;
	uint16_t ms;		/* metadata bytes per block (0: none) */
	bool ext_lba;		/* metadata inline, after each block's data */
	unsigned int pi_type;	/* end-to-end protection type, 0: none */
	bool pi_first;		/* the PI starts the metadata (else ends it) */
	unsigned int pif;	/* guard format: 0 16-bit, 1 32-bit, 2 64-bit */
	unsigned int sts;	/* storage tag bits (in the reference tag's) */
	uint64_t nsze;		/* size in logical blocks */
	unsigned int lbaf;	/* the LBA format in use (FLBAS) */
};

/*
 * Whether rdev is a namespace's generic character device (sysfs: its
 * subsystem is nvme-generic). $IOLITE_SYSFS_ROOT replaces /sys.
 */
bool nvme_is_generic(dev_t rdev);

/*
 * One admin command through fd (a namespace's block or generic device;
 * NVME_IOCTL_ADMIN_CMD, root): the ioctl's return, 0, the completion's
 * status (> 0), or -1 with errno; *result (when given) gets the
 * completion's DW0. buf: len bytes to or from the controller, or NULL.
 */
int nvme_admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10,
	       uint32_t cdw11, void *buf, uint32_t len, uint32_t timeout_ms,
	       uint32_t *result);

/*
 * Identify Namespace through fd, an open generic character device (or
 * namespace block device). 0, or -errno with the reason in err.
 */
int nvme_ns_probe(int fd, const char *path, struct nvme_ns_info *ns,
		  struct strbuf *err);

/*
 * Whether the controller inserts and strips all of ns's metadata: pi_act
 * (PRACT) on a namespace whose metadata is only its protection
 * information tuple (8 bytes with the 16-bit guard, 16 with the others):
 * then no metadata moves (fio's rule)
 */
static inline bool nvme_pi_all_md(const struct nvme_ns_info *ns, bool pi_act)
{
	return pi_act && ns->pi_type && ns->ms == (ns->pif ? 16 : 8);
}

/*
 * The bytes of one block in a job's sizes and offsets over the generic
 * node: the data, and the metadata too when it is inline (extended LBAs)
 * and the host moves it (not nvme_pi_all_md)
 */
static inline uint32_t nvme_block_bytes(const struct nvme_ns_info *ns,
					bool pi_act)
{
	if (!ns->ext_lba || !ns->ms || nvme_pi_all_md(ns, pi_act))
		return ns->lba_size;
	return ns->lba_size + ns->ms;
}

/*
 * The block device of the namespace whose generic node is path
 * (/dev/ngXnY: /dev/nvmeXnY), in out; 0, or -1 when there is none.
 */
int nvme_blockdev_of(const char *path, char *out, size_t n);

/*
 * A completion's status as the kernel returns it for a passthrough
 * command (status code type << 8 | status code, with the More and Do
 * Not Retry bits above): e.g. "Unrecovered Read Error (SCT 0x2, SC
 * 0x81)", or the codes alone for another status; written in buf.
 */
const char *nvme_status_str(unsigned int status, char *buf, size_t n);

#endif
