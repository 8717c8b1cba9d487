/* SPDX-License-Identifier: MIT */
/*
 * An NVMe namespace under test, through the admin passthrough ioctl
 * (root): Format NVM with a user data erase as the purge, the volatile
 * write cache switched as the variant asks (Set Features, read back by
 * Get Features), and the composite temperature from the SMART / Health
 * Information log.
 *
 * Format NVM keeps the namespace's format (its LBA format, metadata
 * placement, protection information) and asks for a user data erase
 * (SES 1). It is refused here when the controller says a format (or a
 * secure erase) applies to all its namespaces (Identify Controller's
 * FNA): pts was given one namespace, and never touches the others.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "engine/nvme.h"
#include "pts/erase.h"
#include "pts/pts_int.h"

#define ADMIN_GET_LOG 0x02
#define ADMIN_IDENTIFY 0x06
#define ADMIN_SET_FEATURES 0x09
#define ADMIN_GET_FEATURES 0x0a
#define ADMIN_FORMAT 0x80
#define ADMIN_SANITIZE 0x84
#define CNS_ACTIVE_NS 0x02
#define LOG_SANITIZE 0x81
#define FEAT_VWC 0x06
#define CNS_CTRL 0x01
#define LOG_SMART 0x02
#define ID_SIZE 4096
/* a format with an erase may take long on a large drive */
#define FORMAT_TIMEOUT_MS (3600u * 1000)

/* an admin command without a result */
static int admin(int fd, uint8_t op, uint32_t nsid, uint32_t cdw10,
		 void *buf, uint32_t len, uint32_t timeout_ms)
{
	return nvme_admin(fd, op, nsid, cdw10, 0, buf, len, timeout_ms, NULL);
}

/* The controller's active namespaces (Identify's list), 0 unknown */
static unsigned int active_namespaces(int fd)
{
	uint32_t *list = calloc(1, ID_SIZE);
	unsigned int k, n = 0;

	if (list && !admin(fd, ADMIN_IDENTIFY, 0, CNS_ACTIVE_NS, list,
			   ID_SIZE, 0))
		for (k = 0; k < ID_SIZE / 4 && list[k]; k++)
			n++;
	free(list);
	return n;
}

/*
 * Why the controller cannot format this one namespace, or NULL. A
 * format that takes all the namespaces (FNA) is one namespace's when
 * the controller has only that one.
 */
static const char *format_refusal(int fd)
{
	uint8_t *id = calloc(1, ID_SIZE);
	const char *why = NULL;

	if (!id || admin(fd, ADMIN_IDENTIFY, 0, CNS_CTRL, id, ID_SIZE, 0))
		why = "Identify Controller failed";
	else if (!(id[256] & 2))	/* OACS bit 1: Format NVM */
		why = "the controller has no Format NVM";
	else if ((id[524] & 3) && active_namespaces(fd) != 1)
		why = "the controller formats or erases all its namespaces "
		      "at once (FNA), and pts was given one";
	free(id);
	return why;
}

int pts_nvme_format(int fd, const char *path, char *how, size_t len)
{
	struct strbuf err = STRBUF_INIT;
	struct nvme_ns_info ns;
	const char *why;
	uint32_t cdw10;
	int ret;

	if (nvme_ns_probe(fd, path, &ns, &err)) {
		strbuf_release(&err);
		return 1;	/* not NVMe: nothing to say */
	}
	strbuf_release(&err);
	why = format_refusal(fd);
	if (why) {
		snprintf(how, len, "no NVMe Format: %s", why);
		return -1;
	}
	/* the format in use, its metadata and PI, a user data erase */
	cdw10 = (ns.lbaf & 0xf) | (ns.ext_lba ? 1u << 4 : 0) |
		ns.pi_type << 5 | (ns.pi_first ? 1u << 8 : 0) | 1u << 9 |
		(ns.lbaf >> 4 & 3) << 12;
	ret = admin(fd, ADMIN_FORMAT, ns.nsid, cdw10, NULL, 0,
		    FORMAT_TIMEOUT_MS);
	if (ret) {
		snprintf(how, len, "NVMe Format failed (%s)", ret < 0 ?
			 strerror(errno) : "the controller returned an error "
			 "status");
		return -1;
	}
	snprintf(how, len, "NVMe Format NVM of namespace %u with a user data "
		 "erase (SES 1), its format kept (LBA format %u)", ns.nsid,
		 ns.lbaf);
	return 0;
}

double pts_nvme_temp(int fd)
{
	uint8_t log[512];
	unsigned int kelvin;

	/* NUMD - 1 in bits 16-31: 128 dwords; the controller's log */
	if (admin(fd, ADMIN_GET_LOG, 0xffffffffu,
		  (sizeof(log) / 4 - 1) << 16 | LOG_SMART, log, sizeof(log), 0))
		return NAN;
	kelvin = log[1] | log[2] << 8;
	return kelvin ? kelvin - 273.15 : NAN;
}

int pts_nvme_cache(int fd, int on, char *how, size_t len)
{
	uint8_t *id = calloc(1, ID_SIZE);
	uint32_t now = 0, was = 0;
	int ret = -1;

	if (!id || admin(fd, ADMIN_IDENTIFY, 0, CNS_CTRL, id, ID_SIZE, 0)) {
		snprintf(how, len, "Identify Controller failed");
		goto out;
	}
	if (!(id[525] & 1)) {	/* VWC bit 0: a volatile write cache */
		snprintf(how, len, "the controller has no volatile write "
			 "cache");
		ret = on ? -1 : 2;	/* off is what it has */
		goto out;
	}
	ret = nvme_admin(fd, ADMIN_GET_FEATURES, 0, FEAT_VWC, 0, NULL, 0, 0,
			 &was);
	if (!ret)
		ret = nvme_admin(fd, ADMIN_SET_FEATURES, 0, FEAT_VWC,
				 on ? 1 : 0, NULL, 0, 0, NULL);
	if (!ret)
		ret = nvme_admin(fd, ADMIN_GET_FEATURES, 0, FEAT_VWC, 0, NULL,
				 0, 0, &now);
	if (ret) {
		snprintf(how, len, "Set Features (volatile write cache) "
			 "failed: %s", ret < 0 ? strerror(errno) : "an error "
			 "status");
		ret = -1;
		goto out;
	}
	ret = -1;
	if ((now & 1) != (on ? 1u : 0u)) {
		snprintf(how, len, "the controller kept its volatile write "
			 "cache %s", now & 1 ? "on" : "off");
		goto out;
	}
	ret = (int)(was & 1);
out:
	free(id);
	return ret;
}

/*
 * Sanitize (block erase, else crypto erase, as SANICAP offers): it
 * erases the whole NVM subsystem's user data, so only a controller whose
 * one active namespace is the target gets it. The command returns at
 * once; the Sanitize Status log is polled each second until the
 * operation ends (twice the log's estimate, else a day).
 */
int pts_nvme_sanitize(int fd, char *how, size_t len)
{
	uint8_t *id = calloc(1, ID_SIZE), log[512];
	unsigned int act = 0, prog = 0, nsn, waited = 0, limit = 24 * 3600;
	uint32_t sanicap;
	int ret = -1, st;

	if (!id || admin(fd, ADMIN_IDENTIFY, 0, CNS_CTRL, id, ID_SIZE, 0)) {
		snprintf(how, len, "no NVMe Sanitize: Identify Controller "
			 "failed");
		goto out;
	}
	sanicap = id[328] | id[329] << 8 | id[330] << 16 |
		  (uint32_t)id[331] << 24;
	act = nvme_sanact(sanicap);
	nsn = active_namespaces(fd);
	if (!act) {
		snprintf(how, len, "no NVMe Sanitize: not supported by the "
			 "device (SANICAP 0x%x: no block or crypto erase)",
			 sanicap);
		goto out;
	}
	if (nsn != 1) {
		snprintf(how, len, "no NVMe Sanitize: it erases every "
			 "namespace, and the controller has %u", nsn);
		goto out;
	}
	if (!admin(fd, ADMIN_GET_LOG, 0xffffffffu, (sizeof(log) / 4 - 1) <<
		   16 | LOG_SANITIZE, log, sizeof(log), 0) &&
	    nvme_sanitize_estimate(log, act))
		limit = 2 * nvme_sanitize_estimate(log, act) + 60;
	ret = nvme_admin(fd, ADMIN_SANITIZE, 0, nvme_sanitize_cdw10(act), 0,
			 NULL, 0, 0, NULL);
	if (ret) {
		snprintf(how, len, "NVMe Sanitize failed (%s)", ret < 0 ?
			 strerror(errno) : "the controller returned an error "
			 "status");
		ret = -1;
		goto out;
	}
	do {
		sleep(1);
		if (admin(fd, ADMIN_GET_LOG, 0xffffffffu, (sizeof(log) / 4 - 1)
			  << 16 | LOG_SANITIZE, log, sizeof(log), 0))
			st = -2;
		else
			st = nvme_sanitize_state(log, &prog);
	} while (st == 1 && ++waited < limit);
	if (st) {
		snprintf(how, len, "NVMe Sanitize (%s erase) %s", act ==
			 SANACT_BLOCK ? "block" : "crypto", st == 1 ? "still "
			 "running after the time allowed" : st == -2 ? "status "
			 "unreadable" : "failed (the Sanitize Status log)");
		ret = -1;
		goto out;
	}
	snprintf(how, len, "NVMe Sanitize, %s erase, of the controller's one "
		 "namespace (%u s)", act == SANACT_BLOCK ? "block" : "crypto",
		 waited + 1);
	ret = 0;
out:
	free(id);
	return ret;
}
