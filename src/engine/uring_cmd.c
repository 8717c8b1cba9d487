/* SPDX-License-Identifier: MIT */
/*
 * io_uring_cmd: NVMe I/O commands passed through io_uring to a
 * namespace's generic character device (/dev/ngXnY), past the block
 * layer, as fio's engine of that name (cmd_type=nvme, the only type).
 *
 * The ring is io_uring's (engine/uring.h: task-work mode, fixedbufs,
 * registerfiles, sqthread_poll, force_async, submit_and_wait), set up
 * with 128-byte entries (SQE128), which hold a struct nvme_uring_cmd,
 * and 32-byte completions (CQE32). Per I/O: Read (readfua), Write
 * (writefua) or what write_mode names instead (Write Uncorrectable,
 * Write Zeroes with deac, Verify), Dataset Management (deallocate) for
 * a trim, Flush for fsync and fdatasync. Offsets and lengths are in the
 * namespace's logical blocks (Identify Namespace, engine/nvme.c): a job
 * whose sizes or offsets are not whole blocks is refused before the
 * run (target/files.c). A completion is 0 or the command's NVMe status;
 * an I/O that fails with a status is an EIO whose message names the
 * status (error_detail).
 *
 * Namespaces formatted with metadata (fio 3.35's options): a separate
 * metadata buffer of md_per_io_size bytes per I/O goes with each read
 * and write (the command's metadata pointer), or with extended LBAs the
 * metadata is inline and the job's sizes and offsets count it (blocks of
 * data + metadata bytes: target/files.c). With end-to-end protection,
 * pi_act=1 sets PRACT (the controller makes the tuples on writes and
 * strips them on reads; when they are all the metadata, no metadata
 * moves), pi_act=0 has iolite make them (engine/nvme_pi.c) and check
 * them on reads; pi_chk sets PRCHK, the initial reference tag is the
 * LBA (CDW14, and CDW3's low 16 bits with the 64-bit guard's 48-bit
 * tag), apptag and apptag_mask go in CDW15. The 16- and 64-bit guard
 * formats are supported; the 32-bit one and storage tags are refused.
 *
 * Not yet: hipri, I/O priorities, nowait and uncached (they are refused
 * by name: opt/engine_opts.c).
 */
#include "engine/engines.h"
#include "opt/engine_opts.h"

#ifdef HAVE_LIBURING
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/nvme_ioctl.h>

#include "engine/nvme.h"
#include "engine/nvme_pi.h"
#include "engine/uring.h"

enum {
	NVME_CMD_FLUSH = 0x00,
	NVME_CMD_WRITE = 0x01,
	NVME_CMD_READ = 0x02,
	NVME_CMD_WRITE_UNCOR = 0x04,
	NVME_CMD_WRITE_ZEROES = 0x08,
	NVME_CMD_DSM = 0x09,
	NVME_CMD_VERIFY = 0x0c,
};
#define NVME_RW_FUA (1u << 30)		/* CDW12 of Read and Write */
#define NVME_RW_PRACT (1u << 29)	/* ... the controller makes the PI */
#define NVME_WZ_DEAC (1u << 25)		/* CDW12 of Write Zeroes */
#define NVME_DSM_AD (1u << 2)		/* CDW11: attribute deallocate */

struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

/* A namespace as the job's I/O over it needs it (per file, from its open) */
struct ucmd_file {
	struct nvme_ns_info ns;
	uint32_t block;		/* the job's bytes per block (nvme_block_bytes) */
	bool ext;		/* block is not a power of two: divide */
	bool md;		/* reads and writes carry a metadata buffer */
	bool host_pi;		/* pi_act=0: iolite makes and checks the PI */
	uint32_t pi_cdw12;	/* PRACT, PRCHK */
	uint32_t cdw15;		/* apptag_mask << 16 | apptag */
	struct nvme_pi pi;
};

struct ucmd_engine {
	struct uring_engine ue;		/* first: to_uring() */
	struct ucmd_file *uf;		/* per file */
	struct nvme_dsm_range *dsm;	/* per io_u: a trim's nrange ranges */
	unsigned int nrange;		/* num_range: ranges per trim */
	uint16_t *status;		/* per io_u: the last NVMe status */
	uint8_t *md;			/* per io_u: md_per_io_size bytes */
	struct nvme_pi_error *pi_err;	/* per io_u: a host PI check failed */
	uint8_t write_op;
	uint32_t read_cdw12, write_cdw12;	/* FUA, DEAC */
	bool host_pi;			/* some file's reads are checked */
	uint64_t nvme_errors, pi_errors;
};

static inline struct ucmd_engine *to_ucmd(struct engine *e)
{
	return (struct ucmd_engine *)e;
}

/* u's start and length in the namespace's blocks */
static inline void io_blocks(const struct ucmd_file *uf, const struct io_u *u,
			     uint64_t *slba, uint32_t *nlb)
{
	if (uf->ext) {
		*slba = u->offset / uf->block;
		*nlb = (uint32_t)(u->len / uf->block);
	} else {
		*slba = u->offset >> uf->ns.lba_shift;
		*nlb = (uint32_t)(u->len >> uf->ns.lba_shift);
	}
}

static inline uint8_t *io_md(struct ucmd_engine *ce, const struct io_u *u)
{
	return ce->md + (size_t)u->index * ce->ue.e.plan->o.md_per_io_size;
}

/* pi_act=0: a read's tuples, checked as pi_chk says; false on a mismatch */
static bool read_pi_ok(struct ucmd_engine *ce, const struct io_u *u)
{
	const struct ucmd_file *uf = &ce->uf[u->file];
	uint64_t slba;
	uint32_t nlb;

	if (!ce->host_pi || !uf->host_pi || u->ddir != DDIR_READ ||
	    !uf->pi.chk)
		return true;
	io_blocks(uf, u, &slba, &nlb);
	return nvme_pi_verify(&uf->pi, u->buf, io_md(ce, u), nlb, slba,
			      &ce->pi_err[u->index]);
}

static void ucmd_status(struct uring_engine *ue, struct io_u *u, long res)
{
	struct ucmd_engine *ce = (struct ucmd_engine *)ue;

	/* pi_err is written only when a check fails: error_detail() */
	ce->status[u->index] = 0;
	if (!res && read_pi_ok(ce, u)) {
		engine_io_result(u, (long)u->len);
	} else if (!res) {
		ce->pi_errors++;
		u->error = EIO;
		u->resid = u->len;
	} else if (res < 0) {
		ce->pi_err[u->index].field = NULL;
		engine_io_result(u, res);
	} else {
		ce->status[u->index] = (uint16_t)res;
		ce->nvme_errors++;
		u->error = EIO;
		u->resid = u->len;
	}
}

static int ucmd_init(const struct job_plan *plan, unsigned int depth,
		     struct engine **out, struct strbuf *err)
{
	const struct job_options *o = &plan->o;
	struct ucmd_engine *ce = xcalloc(1, sizeof(*ce));
	int ret;

	ce->ue.e.plan = plan;
	ce->ue.e.depth = depth;
	ret = uring_engine_setup(&ce->ue, IORING_SETUP_SQE128 |
				 IORING_SETUP_CQE32, err);
	if (ret < 0) {
		free(ce);
		return ret;
	}
	ce->ue.status_io = ucmd_status;
	ce->nrange = plan_nrange(plan);
	ce->dsm = xcalloc((size_t)(depth + 1) * ce->nrange, sizeof(*ce->dsm));
	ce->status = xcalloc(depth + 1, sizeof(*ce->status));
	ce->pi_err = xcalloc(depth + 1, sizeof(*ce->pi_err));
	if (o->md_per_io_size)
		ce->md = xcalloc(depth + 1, o->md_per_io_size);
	static const uint8_t ops[] = {
		[UCMD_WRITE] = NVME_CMD_WRITE,
		[UCMD_UNCOR] = NVME_CMD_WRITE_UNCOR,
		[UCMD_ZEROES] = NVME_CMD_WRITE_ZEROES,
		[UCMD_VERIFY] = NVME_CMD_VERIFY,
	};
	ce->write_op = ops[o->write_mode];
	ce->read_cdw12 = o->readfua ? NVME_RW_FUA : 0;
	if (o->write_mode == UCMD_WRITE && o->writefua)
		ce->write_cdw12 = NVME_RW_FUA;
	if (o->write_mode == UCMD_ZEROES && o->deac)
		ce->write_cdw12 = NVME_WZ_DEAC;
	*out = &ce->ue.e;
	return 0;
}

static void ucmd_cleanup(struct engine *e)
{
	struct ucmd_engine *ce = to_ucmd(e);

	uring_engine_teardown(&ce->ue);
	free(ce->uf);
	free(ce->dsm);
	free(ce->status);
	free(ce->pi_err);
	free(ce->md);
	free(ce);
}

static const char *const pi_opts[] = {
	"pi_chk", "pi_act", "apptag", "apptag_mask",
};

/*
 * What a job without end-to-end protection on this namespace cannot
 * mean: its options are refused rather than ignored.
 */
static int check_no_pi(const struct job_options *o,
		       const struct nvme_ns_info *ns, const char *path,
		       struct strbuf *err)
{
	if (!ns->ms && o->md_per_io_size) {
		strbuf_addf(err, "option 'md_per_io_size': '%s' is formatted without metadata",
			    path);
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(pi_opts) / sizeof(*pi_opts); i++) {
		if (opt_is_set(o, pi_opts[i])) {
			strbuf_addf(err, "option '%s': '%s' is formatted without end-to-end protection information",
				    pi_opts[i], path);
			return -EINVAL;
		}
	}
	return 0;
}

/* The largest read or write of the job, in bytes */
static uint64_t max_rw_bs(const struct job_plan *p)
{
	uint64_t r = p->dir_max_bs[DDIR_READ], w = p->dir_max_bs[DDIR_WRITE];

	return r > w ? r : w;
}

/* How the job's reads and writes carry uf's metadata and PI (fio's rules) */
static int ucmd_layout(const struct job_plan *p, struct ucmd_file *uf,
		       const char *path, struct strbuf *err)
{
	const struct job_options *o = &p->o;
	const struct nvme_ns_info *ns = &uf->ns;
	uint64_t need;

	uf->block = nvme_block_bytes(ns, o->pi_act);
	uf->ext = uf->block != ns->lba_size;
	if (!ns->pi_type && check_no_pi(o, ns, path, err))
		return -EINVAL;
	if (ns->pi_type && (ns->sts || ns->pif == 1)) {
		strbuf_addf(err, "io_uring_cmd: '%s' is formatted with %s: not supported (the 16- and 64-bit guards without storage tags are)",
			    path, ns->pif == 1 ? "the 32-bit guard" :
			    "a storage tag");
		return -EOPNOTSUPP;
	}
	uf->md = ns->ms && !ns->ext_lba && !nvme_pi_all_md(ns, o->pi_act);
	need = max_rw_bs(p) / ns->lba_size * ns->ms;
	if (uf->md && o->md_per_io_size < need) {
		strbuf_addf(err, "option 'md_per_io_size': '%s' has %u bytes of metadata per %u-byte block, %llu for a %llu-byte I/O: md_per_io_size=%llu is too small",
			    path, ns->ms, ns->lba_size,
			    (unsigned long long)need,
			    (unsigned long long)max_rw_bs(p),
			    (unsigned long long)o->md_per_io_size);
		return -EINVAL;
	}
	if (!ns->pi_type)
		return 0;
	uf->host_pi = !o->pi_act;
	if (uf->ext && o->verify != VERIFY_NONE) {
		strbuf_addf(err, "option 'verify': '%s' has its protection information inline (extended LBAs), inside the blocks verify would check",
			    path);
		return -EINVAL;
	}
	uf->pi_cdw12 = (o->pi_act ? NVME_RW_PRACT : 0) | o->pi_chk;
	uf->cdw15 = o->apptag_mask << 16 | o->apptag;
	uf->pi = (struct nvme_pi){
		.lba_size = ns->lba_size, .ms = ns->ms, .ext = uf->ext,
		.first = ns->pi_first, .type = ns->pi_type, .pif = ns->pif,
		.apptag = (uint16_t)o->apptag,
		.apptag_mask = (uint16_t)o->apptag_mask, .chk = o->pi_chk,
	};
	return 0;
}

static int ucmd_open_file(struct engine *e, struct engine_file *f,
			  struct strbuf *err)
{
	struct ucmd_engine *ce = to_ucmd(e);
	unsigned int idx = (unsigned int)(f - e->files);
	struct ucmd_file *uf;
	struct stat st;
	int ret = uring_open_file(e, f, err);

	if (ret)
		return ret;
	if (fstat(f->fd, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode) || !nvme_is_generic(st.st_rdev)) {
		strbuf_addf(err, "io_uring_cmd: '%s' is not an NVMe namespace's generic character device (/dev/ngXnY)",
			    f->path);
		return -ENODEV;
	}
	if (!ce->uf)
		ce->uf = xcalloc(e->nr_files, sizeof(*ce->uf));
	uf = &ce->uf[idx];
	ret = nvme_ns_probe(f->fd, f->path, &uf->ns, err);
	if (ret)
		return ret;
	/* files_resolve() held the job to whole blocks of this size */
	ret = ucmd_layout(e->plan, uf, f->path, err);
	ce->host_pi |= uf->host_pi;
	return ret;
}

/* A read, write or its write_mode's command over u's blocks. */
/* A read's or write's metadata and protection information */
static void fill_md(struct ucmd_engine *ce, struct nvme_uring_cmd *c,
		    struct io_u *u, const struct ucmd_file *uf,
		    uint64_t slba, uint32_t nlb)
{
	uint8_t *md = uf->md ? io_md(ce, u) : NULL;

	if (md) {
		c->metadata = (uint64_t)(uintptr_t)md;
		c->metadata_len = nlb * uf->ns.ms;
	}
	if (!uf->ns.pi_type)
		return;
	c->cdw12 |= uf->pi_cdw12;
	/* the initial reference tag: 48 bits with the 64-bit guard */
	c->cdw14 = (uint32_t)slba;
	if (uf->ns.pif == NVME_PIF_64)
		c->cdw3 = (uint32_t)(slba >> 32) & 0xffff;
	c->cdw15 = uf->cdw15;
	if (uf->host_pi && u->ddir == DDIR_WRITE)
		nvme_pi_generate(&uf->pi, u->buf, md, nlb, slba);
}

static void fill_rw(struct ucmd_engine *ce, struct nvme_uring_cmd *c,
		    struct io_uring_sqe *sqe, struct io_u *u,
		    const struct ucmd_file *uf)
{
	struct uring_engine *ue = &ce->ue;
	bool rd = u->ddir == DDIR_READ;
	uint64_t slba;
	uint32_t nlb;

	io_blocks(uf, u, &slba, &nlb);
	c->opcode = rd ? NVME_CMD_READ : ce->write_op;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (nlb - 1) | (rd ? ce->read_cdw12 : ce->write_cdw12);
	if (c->opcode != NVME_CMD_READ && c->opcode != NVME_CMD_WRITE)
		return;		/* no data moves */
	if (uf->ns.ms)
		fill_md(ce, c, u, uf, slba, nlb);
	if (ue->vectored) {
		struct iovec *iov = &ue->iovs[u->index];

		iov->iov_base = u->buf;
		iov->iov_len = u->len;
		sqe->cmd_op = NVME_URING_CMD_IO_VEC;
		c->addr = (uint64_t)(uintptr_t)iov;
		c->data_len = 1;
	} else {
		c->addr = (uint64_t)(uintptr_t)u->buf;
		c->data_len = u->len;
	}
	if (ue->fixedbufs) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = (uint16_t)u->index;
	}
}

/*
 * A trim: Dataset Management, deallocate, over u's blocks, or with
 * num_range over the ranges the workload put in u's buffer (io/io_u.h),
 * all in one command, as fio 3.42 sends them
 */
static void fill_dsm(struct ucmd_engine *ce, struct nvme_uring_cmd *c,
		     const struct io_u *u, const struct ucmd_file *uf)
{
	struct nvme_dsm_range *r = &ce->dsm[(size_t)u->index * ce->nrange];
	unsigned int n = 0;
	uint64_t slba;
	uint32_t nlb;

	if (ce->nrange == 1) {
		io_blocks(uf, u, &slba, &nlb);
		r[n++] = (struct nvme_dsm_range){ .nlb = nlb, .slba = slba };
	} else {
		const struct io_range *ir = u->buf;
		uint64_t left = u->len;

		for (; n < ce->nrange && left; n++) {
			struct io_u one = { .offset = ir[n].offset,
					    .len = (uint32_t)ir[n].len };

			io_blocks(uf, &one, &slba, &nlb);
			r[n] = (struct nvme_dsm_range){ .nlb = nlb,
							.slba = slba };
			left -= ir[n].len;
		}
	}
	c->opcode = NVME_CMD_DSM;
	c->cdw10 = n - 1;		/* the ranges, 0-based */
	c->cdw11 = NVME_DSM_AD;
	c->addr = (uint64_t)(uintptr_t)r;
	c->data_len = (uint32_t)(n * sizeof(*r));
}

static enum engine_q ucmd_queue(struct engine *e, struct io_u *u)
{
	struct ucmd_engine *ce = to_ucmd(e);
	struct uring_engine *ue = &ce->ue;
	const struct ucmd_file *uf = &ce->uf[u->file];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ue->ring);
	struct nvme_uring_cmd *c;

	if (!sqe && (ue->ring.flags & IORING_SETUP_SQPOLL)) {
		io_uring_sqring_wait(&ue->ring);
		sqe = io_uring_get_sqe(&ue->ring);
	}
	if (!sqe)
		return ENGINE_Q_BUSY;
	memset(sqe, 0, 2 * sizeof(*sqe));	/* SQE128: the command too */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = ue->registerfiles ? (int)u->file : e->files[u->file].fd;
	if (ue->registerfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (ue->force_async && ++ue->async_count >= ue->force_async) {
		ue->async_count = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	sqe->cmd_op = NVME_URING_CMD_IO;
	io_uring_sqe_set_data(sqe, u);
	c = (struct nvme_uring_cmd *)(void *)sqe->cmd;	/* 8-aligned in the SQE */
	c->nsid = uf->ns.nsid;
	switch (u->ddir) {
	case DDIR_READ:
	case DDIR_WRITE:
		fill_rw(ce, c, sqe, u, uf);
		break;
	case DDIR_TRIM:
		fill_dsm(ce, c, u, uf);
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		c->opcode = NVME_CMD_FLUSH;
		break;
	default:
		/* sync_file_range has no NVMe command */
		memset(sqe, 0, 2 * sizeof(*sqe));
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data(sqe, u);
		break;
	}
	return ENGINE_Q_QUEUED;
}

/* "Unrecovered Read Error (SCT 0x2, SC 0x81)" for u's failed command. */
static const char *ucmd_error_detail(struct engine *e, const struct io_u *u,
				     char *buf, size_t n)
{
	struct ucmd_engine *ce = to_ucmd(e);
	const struct nvme_pi_error *pe = &ce->pi_err[u->index];
	unsigned int st = ce->status[u->index];

	if (st)
		return nvme_status_str(st, buf, n);
	if (pe->field) {
		snprintf(buf, n, "protection information check: the %s of LBA %llu is 0x%llx, not 0x%llx",
			 pe->field, (unsigned long long)pe->lba,
			 (unsigned long long)pe->actual,
			 (unsigned long long)pe->expected);
		return buf;
	}
	return NULL;
}

static void ucmd_describe(struct engine *e, struct strbuf *out)
{
	struct ucmd_engine *ce = to_ucmd(e);

	uring_describe(e, out);
	if (ce->uf && e->nr_files) {
		const struct nvme_ns_info *ns = &ce->uf[0].ns;

		strbuf_addf(out, "; nvme nsid %u, %u-byte blocks",
			    ns->nsid, ns->lba_size);
		if (ns->ms)
			strbuf_addf(out, " + %u bytes of metadata (%s)",
				    ns->ms, ns->ext_lba ? "inline" : "separate");
		if (ns->pi_type)
			strbuf_addf(out, ", protection type %u (%u-bit guard) made by the %s",
				    ns->pi_type, ns->pif ? 64 : 16,
				    ce->uf[0].host_pi ? "host" : "controller");
	}
	if (ce->nvme_errors)
		strbuf_addf(out, "; %llu commands failed with an NVMe status",
			    (unsigned long long)ce->nvme_errors);
	if (ce->pi_errors)
		strbuf_addf(out, "; %llu reads failed iolite's protection information check",
			    (unsigned long long)ce->pi_errors);
}

#endif	/* HAVE_LIBURING */

/* in fio's order (--enghelp=io_uring_cmd), then fio 3.42's and iolite's */
static const char *const ucmd_options[] = {
	"hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio_hint",
	"cmdprio",
	"cmdprio_bssplit", "fixedbufs", "registerfiles", "sqthread_poll",
	"sqthread_poll_cpu", "nonvectored", "uncached", "nowait",
	"force_async", "cmd_type", "readfua", "writefua", "write_mode", "deac",
	"md_per_io_size", "pi_act", "pi_chk", "apptag", "apptag_mask",
	"submit_and_wait", NULL,
};

const struct engine_ops engine_io_uring_cmd_ops = {
	.name = "io_uring_cmd",
	.help = "NVMe passthrough through io_uring on /dev/ngXnY (cmd_type=nvme)",
	.flags = ENGINE_F_IOWQ | ENGINE_F_URING | ENGINE_F_NO_ODIRECT |
		 ENGINE_F_NVME_CHAR | ENGINE_F_MULTI_TRIM,
	.options = ucmd_options,
	.plan_check = ucmd_plan_check,
#ifdef HAVE_LIBURING
	.init = ucmd_init,
	.cleanup = ucmd_cleanup,
	.open_file = ucmd_open_file,
	.close_file = engine_close_fd,
	.prep = uring_prep,
	.queue = ucmd_queue,
	.commit = uring_commit,
	.commit_wait = uring_commit_wait,
	.getevents = uring_getevents,
	.event = uring_event,
	.describe = ucmd_describe,
	.error_detail = ucmd_error_detail,
#endif
};
