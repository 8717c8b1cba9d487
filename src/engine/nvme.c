/* SPDX-License-Identifier: MIT */
/*
 * NVMe namespaces, looked at (engine/nvme.h): Identify Namespace through
 * the admin passthrough ioctl, the generic node's sysfs entry, and the
 * names of command statuses from the NVMe base and ZNS specifications.
 */
#include "engine/nvme.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/nvme_ioctl.h>

#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ID_CNS_NS 0x00
#define NVME_ID_CNS_CTRL 0x01
#define NVME_ID_CNS_CS_NS 0x05	/* I/O command set specific namespace */
#define NVME_ID_SIZE 4096

bool nvme_is_generic(dev_t rdev)
{
	const char *root = getenv("IOLITE_SYSFS_ROOT");
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/dev/char/%u:%u/subsystem",
		 root ? root : "/sys", major(rdev), minor(rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	n = (ssize_t)strlen(link);
	return n >= 12 && !strcmp(link + n - 12, "nvme-generic");
}

static uint64_t le64_at(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

int nvme_admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10,
	       uint32_t cdw11, void *buf, uint32_t len, uint32_t timeout_ms,
	       uint32_t *result)
{
	struct nvme_passthru_cmd cmd;
	int ret;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = opcode;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = len;
	cmd.cdw10 = cdw10;
	cmd.cdw11 = cdw11;
	cmd.timeout_ms = timeout_ms;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (!ret && result)
		*result = cmd.result;
	return ret;
}

static int identify(int fd, uint32_t nsid, uint32_t cdw10, uint32_t cdw11,
		    uint8_t *id)
{
	return nvme_admin(fd, NVME_ADMIN_IDENTIFY, nsid, cdw10, cdw11, id,
			  NVME_ID_SIZE, 0, NULL);
}

/*
 * The guard format and storage tag size of LBA format fmt: PIF and STS
 * in the NVM command set's extended LBA format (Identify, CNS 05h, CSI
 * 0: ELBAF at byte 12), which a controller has when its CTRATT says
 * ELBAS (Identify Controller, byte 96, bit 15); without it, the 16-bit
 * guard and no storage tag (as the kernel and fio read them).
 */
static void guard_format(int fd, struct nvme_ns_info *ns)
{
	uint8_t *id = calloc(1, NVME_ID_SIZE);
	const uint8_t *elbaf;

	if (!id)
		return;
	if (!identify(fd, 0, NVME_ID_CNS_CTRL, 0, id) && id[97] & 0x80 &&
	    !identify(fd, ns->nsid, NVME_ID_CNS_CS_NS, 0, id)) {
		elbaf = id + 12 + 4 * ns->lbaf;
		ns->sts = elbaf[0] & 0x7f;
		ns->pif = (elbaf[0] >> 7 | elbaf[1] << 1) & 3;
	}
	free(id);
}

int nvme_ns_probe(int fd, const char *path, struct nvme_ns_info *ns,
		  struct strbuf *err)
{
	uint8_t *id;
	unsigned int fmt, lbads;
	int nsid, ret;

	memset(ns, 0, sizeof(*ns));
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0) {
		ret = nsid < 0 ? -errno : -EINVAL;
		strbuf_addf(err, "'%s' is not an NVMe namespace (NVME_IOCTL_ID: %s)",
			    path, strerror(-ret));
		return ret;
	}
	id = calloc(1, NVME_ID_SIZE);
	if (!id)
		return -ENOMEM;
	ret = identify(fd, (uint32_t)nsid, NVME_ID_CNS_NS, 0, id);
	if (ret) {
		ret = ret < 0 ? -errno : -EIO;
		strbuf_addf(err, "'%s': Identify Namespace failed: %s", path,
			    ret == -EIO ? "the controller returned an error status" :
			    strerror(-ret));
		free(id);
		return ret;
	}
	/* Identify Namespace: NSZE at 0, FLBAS at 26, DPS at 29, LBAF at 128 */
	fmt = id[26] & 0x0f;
	if (id[25] > 15)	/* NLBAF: more than 16 formats (FLBAS bits 5-6) */
		fmt |= (unsigned int)(id[26] >> 5 & 3) << 4;
	if (fmt > 63) {
		free(id);
		return -EINVAL;
	}
	ns->nsid = (uint32_t)nsid;
	ns->nsze = le64_at(id);
	ns->lbaf = fmt;
	ns->ms = (uint16_t)(id[128 + 4 * fmt] | id[129 + 4 * fmt] << 8);
	lbads = id[130 + 4 * fmt];
	ns->ext_lba = id[26] & 0x10;
	ns->pi_type = id[29] & 7;
	ns->pi_first = id[29] & 8;
	free(id);
	if (ns->pi_type)
		guard_format(fd, ns);
	if (lbads < 9 || lbads > 30) {
		strbuf_addf(err, "'%s': Identify Namespace gives a block size of 2^%u bytes",
			    path, lbads);
		return -EINVAL;
	}
	ns->lba_shift = lbads;
	ns->lba_size = 1u << lbads;
	return 0;
}

int nvme_blockdev_of(const char *path, char *out, size_t n)
{
	const char *base = strrchr(path, '/');
	unsigned int c, ns;
	struct stat st;

	base = base ? base + 1 : path;
	if (sscanf(base, "ng%un%u", &c, &ns) != 2)
		return -1;
	snprintf(out, n, "/dev/nvme%un%u", c, ns);
	return stat(out, &st) || !S_ISBLK(st.st_mode) ? -1 : 0;
}

static const struct {
	unsigned short code;	/* SCT << 8 | SC */
	const char *name;
} statuses[] = {
	{ 0x001, "Invalid Command Opcode" },
	{ 0x002, "Invalid Field in Command" },
	{ 0x004, "Data Transfer Error" },
	{ 0x006, "Internal Error" },
	{ 0x007, "Command Abort Requested" },
	{ 0x00b, "Invalid Namespace or Format" },
	{ 0x080, "LBA Out of Range" },
	{ 0x081, "Capacity Exceeded" },
	{ 0x082, "Namespace Not Ready" },
	{ 0x1b8, "Zone Boundary Error" },
	{ 0x1b9, "Zone Is Full" },
	{ 0x1ba, "Zone Is Read Only" },
	{ 0x1bb, "Zone Is Offline" },
	{ 0x1bc, "Zone Invalid Write" },
	{ 0x1bd, "Too Many Active Zones" },
	{ 0x1be, "Too Many Open Zones" },
	{ 0x1bf, "Invalid Zone State Transition" },
	{ 0x280, "Write Fault" },
	{ 0x281, "Unrecovered Read Error" },
	{ 0x282, "End-to-end Guard Check Error" },
	{ 0x283, "End-to-end Application Tag Check Error" },
	{ 0x284, "End-to-end Reference Tag Check Error" },
	{ 0x285, "Compare Failure" },
	{ 0x286, "Access Denied" },
	{ 0x287, "Deallocated or Unwritten Logical Block" },
};

const char *nvme_status_str(unsigned int status, char *buf, size_t n)
{
	unsigned int code = status & 0x7ff;

	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		if (statuses[i].code == code) {
			snprintf(buf, n, "%s (SCT 0x%x, SC 0x%02x)",
				 statuses[i].name, code >> 8, code & 0xff);
			return buf;
		}
	}
	snprintf(buf, n, "NVMe status SCT 0x%x, SC 0x%02x", code >> 8,
		 code & 0xff);
	return buf;
}
