/* SPDX-License-Identifier: MIT */
#include "verify/header.h"

#include <endian.h>
#include <string.h>

#include "opt/verify_opts.h"

_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR_FIXED,
	       "struct verify_hdr must be its on-disk size");

static void encode(const struct verify_hdr *h, unsigned char *out)
{
	struct verify_hdr d;

	d.magic = htole32(h->magic);
	d.version = h->version;
	d.mode = h->mode;
	d.hdr_len = htole16(h->hdr_len);
	d.len = htole32(h->len);
	d.job = htole32(h->job);
	d.file = htole32(h->file);
	d.pad = 0;
	d.offset = htole64(h->offset);
	d.seed = htole64(h->seed);
	d.seq = htole64(h->seq);
	memcpy(out, &d, sizeof(d));
}

void vhdr_decode(const void *chunk, struct verify_hdr *out)
{
	struct verify_hdr d;

	memcpy(&d, chunk, sizeof(d));
	out->magic = le32toh(d.magic);
	out->version = d.version;
	out->mode = d.mode;
	out->hdr_len = le16toh(d.hdr_len);
	out->len = le32toh(d.len);
	out->job = le32toh(d.job);
	out->file = le32toh(d.file);
	out->pad = le32toh(d.pad);
	out->offset = le64toh(d.offset);
	out->seed = le64toh(d.seed);
	out->seq = le64toh(d.seq);
}

void vhdr_stamp(struct vhash *h, enum verify_mode m, unsigned int hdr_len,
		void *chunk, const struct vexpect *e)
{
	unsigned char *c = chunk;
	struct verify_hdr hd = {
		.magic = VERIFY_MAGIC,
		.version = VERIFY_VERSION,
		.mode = (uint8_t)m,
		.hdr_len = (uint16_t)hdr_len,
		.len = e->len,
		.job = e->job,
		.file = e->file,
		.offset = e->offset,
		.seed = e->seed,
		.seq = e->seq,
	};

	encode(&hd, c);
	memset(c + VERIFY_HDR_FIXED, 0, hdr_len - VERIFY_HDR_FIXED);
	vhash_sum(h, c, VERIFY_HDR_FIXED, c + hdr_len, e->len - hdr_len,
		  c + VERIFY_HDR_FIXED);
}

enum vhdr_result vhdr_check(struct vhash *h, enum verify_mode m,
			    unsigned int hdr_len, const void *chunk,
			    const struct vexpect *e, struct verify_hdr *got,
			    unsigned char *want, unsigned char *have)
{
	const unsigned char *c = chunk;
	unsigned int cs = verify_csum_size(m);

	vhdr_decode(c, got);
	if (got->magic != VERIFY_MAGIC)
		return VH_MAGIC;
	if (got->version != VERIFY_VERSION || got->mode != m ||
	    got->hdr_len != hdr_len)
		return VH_MODE;
	/* a length we cannot trust must not steer the checksum's range */
	if (got->len != e->len)
		return VH_LEN;
	vhash_sum(h, c, VERIFY_HDR_FIXED, c + hdr_len, e->len - hdr_len, have);
	if (memcmp(have, c + VERIFY_HDR_FIXED, cs)) {
		memcpy(want, c + VERIFY_HDR_FIXED, cs);
		return VH_CSUM;
	}
	if (got->offset != e->offset)
		return VH_OFFSET;
	if (!e->known)
		return VH_OK;
	if (!e->any_writer && (got->job != e->job || got->file != e->file))
		return VH_WRITER;
	/*
	 * A newer write of this job to the same chunk superseded the one
	 * expected: the log checks that write in its turn. An older one
	 * is a lost write.
	 */
	if ((!e->any_writer && got->seed != e->seed) ||
	    (!e->any_seq && got->seq < e->seq))
		return VH_STALE;
	return VH_OK;
}
