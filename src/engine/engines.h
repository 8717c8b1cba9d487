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
#ifdef HAVE_LIBAIO
extern const struct engine_ops engine_libaio_ops;
#endif
#ifdef HAVE_LIBURING
extern const struct engine_ops engine_io_uring_ops;
#endif

/*
 * The I/O that is neither a read nor a write: DDIR_SYNC (fsync),
 * DDIR_DATASYNC (fdatasync) and DDIR_TRIM (BLKDISCARD on a block device,
 * a punched hole on a file). Returns u->len on success, else -errno, the
 * form engine_io_result() takes. One syscall, nothing else: hot path.
 */
long engine_do_other(const struct engine_file *f, const struct io_u *u);

#endif
