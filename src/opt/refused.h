/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_REFUSED_H
#define IOLITE_OPT_REFUSED_H

/*
 * What iolite refuses on purpose, and why: fio's engines that need
 * something outside the machine (a storage cluster, a network service,
 * RDMA or GPU hardware, SCSI, MTD or zoned devices, NVMe passthrough,
 * user-space drivers), and the options only those engines read. The
 * reasons are string literals so that engine/engine.c's table of missing
 * engines quotes the same words; doc/compat.md lists the same families.
 */

#define REFUSE_GLUSTER "a GlusterFS client (libgfapi): iolite measures " \
	"local kernel I/O, not network storage services"
#define REFUSE_HDFS "a Hadoop HDFS client (libhdfs, a JVM): iolite " \
	"measures local kernel I/O, not network storage services"
#define REFUSE_DAOS "a DAOS file-system client (libdfs): iolite " \
	"measures local kernel I/O, not network storage services"
#define REFUSE_IME "DDN's IME burst-buffer client (libim_client): " \
	"iolite measures local kernel I/O"
#define REFUSE_RDMA "RDMA transfers (librdmacm/ibverbs, librpma) need " \
	"RDMA hardware and a peer; out of iolite's scope"
#define REFUSE_GPU "GPU transfers (cuFile/GPUDirect, hipFile) need a " \
	"GPU and its vendor runtime; out of iolite's scope"
#define REFUSE_SG "SCSI generic (SG_IO) commands; iolite issues block " \
	"I/O through the kernel's block layer only"
#define REFUSE_MTD "raw MTD flash (libmtd); iolite measures block " \
	"devices and files"
#define REFUSE_NVME_PT "NVMe passthrough commands (io_uring_cmd, " \
	"/dev/ngXnY); iolite issues block I/O through the block layer"
#define REFUSE_ZONED "zonemode=zbd drives zoned block devices " \
	"through the kernel (write pointers, resets, open-zone limits)"
#define REFUSE_USERDRV "a user-space driver stack (SPDK, xNVMe, " \
	"libblkio) takes the device from the kernel; iolite measures " \
	"the kernel's I/O paths"
#define REFUSE_PMEMBLK "libpmemblk was removed from PMDK (and Debian); " \
	"use ioengine=libpmem or dev-dax"
#define REFUSE_NETSTORE "network storage clients: iolite measures " \
	"local kernel I/O, not network storage services"
#define REFUSE_CPP "fio's C++ example engine, built separately; it is " \
	"a null engine: use ioengine=null"
#define REFUSE_OTHER_OS "an engine of another operating system"
#define REFUSE_REMOVED "an engine fio itself removed long ago"
#define REFUSE_EXTERNAL "fio's external engines are shared objects " \
	"built against fio's internals; iolite cannot load them"

#define REFUSE_BLOCK_INFO "fio's per-block record of trims and write " \
	"failures (its block lifetime percentiles, for wearing flash out " \
	"with trims on a block device) is not implemented"
#define REFUSE_BLKTRACE "merging blktrace replays needs blktrace binary " \
	"logs, which iolite does not read (read_iolog replays fio's text " \
	"logs)"
#define REFUSE_FDP "NVMe data placement (Flexible Data Placement or " \
	"Streams directives on io_uring_cmd's writes) needs an NVMe " \
	"device with FDP; QEMU 7.2's emulated NVMe, the only NVMe device " \
	"iolite is tested on, lacks it, so it is not implemented"

/*
 * For a fio option iolite does not implement yet that is no engine's
 * (block_error_percentiles, merge_blktrace_*): the reason, or NULL.
 */
const char *opt_unsup_why(const char *name);

/*
 * For an option fio has only for engines iolite refuses (volume,
 * bindname, serverip ...): the engines ("gfapi, gfapi_async") in
 * *engines and the reason, or NULL for any other option.
 */
const char *opt_refused_why(const char *name, const char **engines);

#endif
