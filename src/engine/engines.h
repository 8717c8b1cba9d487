/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_ENGINE_ENGINES_H
#define IOLITE_ENGINE_ENGINES_H

/*
 * Private to src/engine/: the engines engine.c lists, and what the
 * file-based engines share. Nothing outside src/engine/ includes this.
 */

#include "engine/engine.h"

extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_vsync_ops;
extern const struct engine_ops engine_pvsync_ops;
extern const struct engine_ops engine_pvsync2_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_mmap_ops;
extern const struct engine_ops engine_devdax_ops;
extern const struct engine_ops engine_libpmem_ops;
extern const struct engine_ops engine_posixaio_ops;
/* file system metadata (fsmeta.c) */
extern const struct engine_ops engine_filecreate_ops;
extern const struct engine_ops engine_filestat_ops;
extern const struct engine_ops engine_filedelete_ops;
extern const struct engine_ops engine_dircreate_ops;
extern const struct engine_ops engine_dirstat_ops;
extern const struct engine_ops engine_dirdelete_ops;
/* allocation and size (falloc.c) */
extern const struct engine_ops engine_falloc_ops;
extern const struct engine_ops engine_ftruncate_ops;
/* no I/O (cpuio.c, exec.c) */
extern const struct engine_ops engine_cpuio_ops;
extern const struct engine_ops engine_exec_ops;
/* sockets (net.c) */
extern const struct engine_ops engine_net_ops;
extern const struct engine_ops engine_netsplice_ops;
/* extents (e4defrag.c) */
extern const struct engine_ops engine_e4defrag_ops;
/* declared in every build, run with their library (no init without) */
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_io_uring_ops;
extern const struct engine_ops engine_io_uring_cmd_ops;
/* storage on a server, with their library (nbd.c, libiscsi.c) */
extern const struct engine_ops engine_nbd_ops;
extern const struct engine_ops engine_libiscsi_ops;
/* network storage, with their library (no init without) */
extern const struct engine_ops engine_nfs_ops;
/* declared in every build, run with libcurl (engine/http.c) */
extern const struct engine_ops engine_http_ops;
/* Ceph (ceph.c): declared in every build, run with librados / librbd */
extern const struct engine_ops engine_rados_ops;
extern const struct engine_ops engine_rbd_ops;

/*
 * The I/O that is neither a read nor a write: DDIR_SYNC (fsync),
 * DDIR_DATASYNC (fdatasync), DDIR_SYNC_FILE_RANGE (sync_file_range(2) of
 * u's range with the job's flags; length 0: to the end of the file) and
 * DDIR_TRIM (BLKDISCARD on a block device, a punched hole on a file).
 * Returns u->len on success, else -errno, the form engine_io_result()
 * takes. One syscall, nothing else: hot path.
 */
long engine_do_other(const struct engine *e, const struct engine_file *f,
		     const struct io_u *u);

/*
 * getevents and event of an engine whose queue() completes every I/O
 * (ENGINE_F_SYNC): there is never anything to reap.
 */
int engine_sync_getevents(struct engine *e, unsigned int min,
			  unsigned int max, const struct timespec *timeout);
struct io_u *engine_sync_event(struct engine *e, unsigned int i);

/* CLOCK_MONOTONIC in ns: engines that time or pace their own waits. */
static inline uint64_t engine_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
