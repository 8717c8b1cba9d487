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
 * Not yet: namespaces formatted with metadata (md_per_io_size and end-
 * to-end protection), hipri, I/O priorities, nowait and uncached (they
 * are refused by name: opt/engine_opts.c).
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
#define NVME_WZ_DEAC (1u << 25)		/* CDW12 of Write Zeroes */
#define NVME_DSM_AD (1u << 2)		/* CDW11: attribute deallocate */

struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

struct ucmd_engine {
	struct uring_engine ue;		/* first: to_uring() */
	struct nvme_ns_info *ns;	/* per file, from its open */
	struct nvme_dsm_range *dsm;	/* per io_u: a trim's range */
	uint16_t *status;		/* per io_u: the last NVMe status */
	uint8_t write_op;
	uint32_t read_cdw12, write_cdw12;	/* FUA, DEAC */
	uint64_t nvme_errors;
};

static inline struct ucmd_engine *to_ucmd(struct engine *e)
{
	return (struct ucmd_engine *)e;
}

static void ucmd_status(struct uring_engine *ue, struct io_u *u, long res)
{
	struct ucmd_engine *ce = (struct ucmd_engine *)ue;

	ce->status[u->index] = 0;
	if (!res) {
		engine_io_result(u, (long)u->len);
	} else if (res < 0) {
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
	ce->dsm = xcalloc(depth + 1, sizeof(*ce->dsm));
	ce->status = xcalloc(depth + 1, sizeof(*ce->status));
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
	free(ce->ns);
	free(ce->dsm);
	free(ce->status);
	free(ce);
}

static int ucmd_open_file(struct engine *e, struct engine_file *f,
			  struct strbuf *err)
{
	struct ucmd_engine *ce = to_ucmd(e);
	unsigned int idx = (unsigned int)(f - e->files);
	struct nvme_ns_info *ns;
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
	if (!ce->ns)
		ce->ns = xcalloc(e->nr_files, sizeof(*ce->ns));
	ns = &ce->ns[idx];
	ret = nvme_ns_probe(f->fd, f->path, ns, err);
	if (ret)
		return ret;
	if (ns->ms) {
		strbuf_addf(err, "io_uring_cmd: '%s' is formatted with %u bytes of metadata per block%s: md_per_io_size and protection information are not supported yet",
			    f->path, ns->ms,
			    ns->pi_type ? " (end-to-end protection)" : "");
		return -EOPNOTSUPP;
	}
	/* files_resolve() held the job to whole blocks of this size */
	return 0;
}

/* A read, write or its write_mode's command over u's blocks. */
static void fill_rw(struct ucmd_engine *ce, struct nvme_uring_cmd *c,
		    struct io_uring_sqe *sqe, const struct io_u *u,
		    const struct nvme_ns_info *ns)
{
	struct uring_engine *ue = &ce->ue;
	uint64_t slba = u->offset >> ns->lba_shift;
	uint32_t nlb = u->len >> ns->lba_shift;
	bool rd = u->ddir == DDIR_READ;

	c->opcode = rd ? NVME_CMD_READ : ce->write_op;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (nlb - 1) | (rd ? ce->read_cdw12 : ce->write_cdw12);
	if (c->opcode != NVME_CMD_READ && c->opcode != NVME_CMD_WRITE)
		return;		/* no data moves */
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

static enum engine_q ucmd_queue(struct engine *e, struct io_u *u)
{
	struct ucmd_engine *ce = to_ucmd(e);
	struct uring_engine *ue = &ce->ue;
	const struct nvme_ns_info *ns = &ce->ns[u->file];
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
	c->nsid = ns->nsid;
	switch (u->ddir) {
	case DDIR_READ:
	case DDIR_WRITE:
		fill_rw(ce, c, sqe, u, ns);
		break;
	case DDIR_TRIM: {
		struct nvme_dsm_range *r = &ce->dsm[u->index];

		r->cattr = 0;
		r->nlb = u->len >> ns->lba_shift;
		r->slba = u->offset >> ns->lba_shift;
		c->opcode = NVME_CMD_DSM;
		c->cdw10 = 0;			/* one range (0-based) */
		c->cdw11 = NVME_DSM_AD;
		c->addr = (uint64_t)(uintptr_t)r;
		c->data_len = sizeof(*r);
		break;
	}
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
	unsigned int st = to_ucmd(e)->status[u->index];

	return st ? nvme_status_str(st, buf, n) : NULL;
}

static void ucmd_describe(struct engine *e, struct strbuf *out)
{
	struct ucmd_engine *ce = to_ucmd(e);

	uring_describe(e, out);
	if (ce->ns && e->nr_files)
		strbuf_addf(out, "; nvme nsid %u, %u-byte blocks",
			    ce->ns[0].nsid, ce->ns[0].lba_size);
	if (ce->nvme_errors)
		strbuf_addf(out, "; %llu commands failed with an NVMe status",
			    (unsigned long long)ce->nvme_errors);
}

#endif	/* HAVE_LIBURING */

/* in fio's order (--enghelp=io_uring_cmd), then fio 3.42's and iolite's */
static const char *const ucmd_options[] = {
	"hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio",
	"cmdprio_bssplit", "fixedbufs", "registerfiles", "sqthread_poll",
	"sqthread_poll_cpu", "nonvectored", "uncached", "nowait",
	"force_async", "cmd_type", "readfua", "writefua", "write_mode", "deac",
	"submit_and_wait", NULL,
};

const struct engine_ops engine_io_uring_cmd_ops = {
	.name = "io_uring_cmd",
	.help = "NVMe passthrough through io_uring on /dev/ngXnY (cmd_type=nvme)",
	.flags = ENGINE_F_IOWQ | ENGINE_F_URING | ENGINE_F_NO_ODIRECT |
		 ENGINE_F_NVME_CHAR,
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
