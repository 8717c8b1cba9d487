/* SPDX-License-Identifier: MIT */
/*
 * ATA Secure Erase as the purge of an ATA drive (SATA, through the
 * kernel's SCSI layer: libata translates SCSI's ATA PASS-THROUGH (16),
 * sent by SG_IO on the disk's block device, as SAT defines it). The
 * commands' bytes are erase.c's.
 *
 *   IDENTIFY DEVICE: the security feature set supported, not enabled (a
 *   password of the user's is never touched), not frozen (the BIOS
 *   freezes it at boot on many machines), not locked;
 *   SECURITY SET PASSWORD (a user password of pts's own), SECURITY ERASE
 *   PREPARE, SECURITY ERASE UNIT (normal mode), which clears the
 *   password when it completes;
 *   IDENTIFY again: security not enabled. When the erase fails or the
 *   password is still set, SECURITY DISABLE PASSWORD with pts's own:
 *   the drive is never left with a password set.
 *
 * A device that takes no ATA PASS-THROUGH (not ATA: a SAS or virtual
 * disk) answers CHECK CONDITION: "not an ATA drive".
 */
#include <errno.h>
#include <scsi/sg.h>
#include <string.h>
#include <sys/ioctl.h>

#include "pts/erase.h"
#include "pts/pts_int.h"

#define PTS_PASSWORD "iolite-pts"

/*
 * One ATA command through SG_IO: 0, or -1 with the reason in how (a
 * SCSI status other than GOOD, a host or driver error, errno).
 */
static int ata_cmd(int fd, uint8_t cmd, enum ata_proto p, uint8_t *buf,
		   unsigned int timeout_ms, char *how, size_t len)
{
	uint8_t cdb[16], sense[32];
	struct sg_io_hdr h;

	ata_cdb(cdb, cmd, p);
	memset(&h, 0, sizeof(h));
	memset(sense, 0, sizeof(sense));
	h.interface_id = 'S';
	h.cmd_len = sizeof(cdb);
	h.cmdp = cdb;
	h.mx_sb_len = sizeof(sense);
	h.sbp = sense;
	h.dxfer_direction = p == ATA_PIO_IN ? SG_DXFER_FROM_DEV :
			    p == ATA_PIO_OUT ? SG_DXFER_TO_DEV : SG_DXFER_NONE;
	h.dxfer_len = p == ATA_NODATA ? 0 : 512;
	h.dxferp = p == ATA_NODATA ? NULL : buf;
	h.timeout = timeout_ms;
	if (ioctl(fd, SG_IO, &h)) {
		snprintf(how, len, "SG_IO: %s", strerror(errno));
		return -1;
	}
	if (h.status || h.host_status || h.driver_status) {
		/* fixed or descriptor sense: the key and ASC */
		unsigned int key = sense[0] >= 0x72 ? sense[1] & 0xf :
				   sense[2] & 0xf;
		unsigned int asc = sense[0] >= 0x72 ? sense[2] : sense[12];

		snprintf(how, len, "status 0x%x, sense key 0x%x, ASC 0x%02x",
			 h.status, key, asc);
		return -1;
	}
	return 0;
}

static int identify(int fd, struct ata_sec *s, char *how, size_t len)
{
	uint8_t id[512];

	size_t k;

	memset(id, 0, sizeof(id));
	if (ata_cmd(fd, ATA_IDENTIFY, ATA_PIO_IN, id, 10000, how, len))
		return -1;
	for (k = 0; k < sizeof(id) && !id[k]; k++)
		;
	if (k == sizeof(id)) {	/* "done", but nothing came back */
		snprintf(how, len, "IDENTIFY DEVICE returned no data");
		return -1;
	}
	ata_sec_parse(id, s);
	return 0;
}

/* The drive's state: why it cannot be erased, or NULL */
static const char *refusal(const struct ata_sec *s)
{
	if (!s->supported)
		return "the drive has no security feature set (not supported "
		       "by the device)";
	if (s->enabled)
		return "a password is set on the drive (security enabled): "
		       "pts never touches a password it did not set";
	if (s->locked)
		return "the drive is locked";
	if (s->frozen)
		return "the drive's security is frozen (the BIOS froze it "
		       "at boot; a suspend and resume unfreezes many)";
	if (s->expired)
		return "the drive's password attempt counter expired";
	return NULL;
}

/* SECURITY DISABLE PASSWORD with pts's: never leave it set */
static void drop_password(int fd, char *how, size_t len)
{
	uint8_t sec[512];
	struct ata_sec s;
	char why[96];

	ata_pw_sector(sec, PTS_PASSWORD, false);
	if (!identify(fd, &s, why, sizeof(why)) && !s.enabled)
		return;
	if (ata_cmd(fd, ATA_SEC_DISABLE_PASSWORD, ATA_PIO_OUT, sec, 30000,
		    why, sizeof(why)) ||
	    identify(fd, &s, why, sizeof(why)) || s.enabled) {
		size_t n = strlen(how);

		snprintf(how + n, len - n, "; THE DRIVE MAY STILL HAVE THE "
			 "USER PASSWORD '%s' SET (hdparm --security-disable "
			 "%s)", PTS_PASSWORD, PTS_PASSWORD);
	}
}

int pts_ata_erase(int fd, char *how, size_t len)
{
	uint8_t sec[512];
	struct ata_sec s;
	const char *why;
	char err[96];
	unsigned int tmo;

	if (identify(fd, &s, err, sizeof(err))) {
		snprintf(how, len, "no ATA Secure Erase: not an ATA drive (ATA "
			 "PASS-THROUGH: %s)", err);
		return 1;
	}
	why = refusal(&s);
	if (why) {
		snprintf(how, len, "no ATA Secure Erase: %s", why);
		return -1;
	}
	/* twice the drive's estimate, else a day */
	tmo = s.erase_min ? 2 * s.erase_min * 60000u : 24u * 3600 * 1000;
	ata_pw_sector(sec, PTS_PASSWORD, false);
	if (ata_cmd(fd, ATA_SEC_SET_PASSWORD, ATA_PIO_OUT, sec, 30000, err,
		    sizeof(err))) {
		snprintf(how, len, "no ATA Secure Erase: SECURITY SET "
			 "PASSWORD failed (%s)", err);
		drop_password(fd, how, len);
		return -1;
	}
	if (ata_cmd(fd, ATA_SEC_ERASE_PREPARE, ATA_NODATA, NULL, 30000, err,
		    sizeof(err)) ||
	    ata_cmd(fd, ATA_SEC_ERASE_UNIT, ATA_PIO_OUT, sec, tmo, err,
		    sizeof(err))) {
		snprintf(how, len, "ATA Secure Erase failed (%s)", err);
		drop_password(fd, how, len);
		return -1;
	}
	snprintf(how, len, "ATA SECURITY ERASE UNIT (normal erase%s)",
		 s.erase_min ? "" : ", the drive gives no time estimate");
	drop_password(fd, how, len);
	return 0;
}
