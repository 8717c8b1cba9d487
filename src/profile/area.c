/* SPDX-License-Identifier: MIT */
/*
 * Which part of the kernel a function belongs to, from its name (and its
 * module, for driver and file system modules). The kernel's functions
 * follow their subsystem's prefix closely enough for a split of where
 * the time went; the first rule that matches wins, so the specific ones
 * (copies, io_schedule, aio's io_submit_one) come before the broad ones.
 */
#include "profile/profile.h"

#include <string.h>

#include "util/log.h"

static const char *const area_names[PA_NR] = {
	[PA_IOLITE] = "iolite",
	[PA_LIBS] = "libraries",
	[PA_K_IO_URING] = "io_uring",
	[PA_K_AIO] = "aio",
	[PA_K_BLOCK] = "block layer",
	[PA_K_DRIVER] = "driver",
	[PA_K_FS] = "file system",
	[PA_K_COPY] = "memory copy",
	[PA_K_SCHED] = "scheduler, idle",
	[PA_K_IRQ] = "interrupts",
	[PA_K_SYSCALL] = "syscall entry",
	[PA_K_OTHER] = "other",
	[PA_K_HIDDEN] = "not sampled",
	[PA_OTHER_PROC] = "other processes",
};

const char *profile_area_name(enum profile_area a)
{
	return a < PA_NR ? area_names[a] : "?";
}

struct rule {
	const char *prefix;
	enum profile_area area;
};

static const struct rule rules[] = {
	/* copies and clears, wherever they are called from */
	{ "copy_user", PA_K_COPY }, { "__copy_user", PA_K_COPY },
	{ "_copy_to_", PA_K_COPY }, { "_copy_from_", PA_K_COPY },
	{ "copy_to_user", PA_K_COPY }, { "copy_from_user", PA_K_COPY },
	{ "copy_page", PA_K_COPY }, { "copy_mc_", PA_K_COPY },
	{ "copyout", PA_K_COPY }, { "copyin", PA_K_COPY },
	{ "rep_movs", PA_K_COPY }, { "rep_stos", PA_K_COPY },
	{ "memcpy", PA_K_COPY }, { "__memcpy", PA_K_COPY },
	{ "memmove", PA_K_COPY }, { "__memmove", PA_K_COPY },
	{ "memset", PA_K_COPY }, { "__memset", PA_K_COPY },
	{ "clear_page", PA_K_COPY }, { "clear_user", PA_K_COPY },
	{ "__clear_user", PA_K_COPY }, { "csum_partial_copy", PA_K_COPY },
	/* before io_uring's broad "io_" */
	{ "io_schedule", PA_K_SCHED },
	{ "aio_", PA_K_AIO }, { "__x64_sys_io_submit", PA_K_AIO },
	{ "__x64_sys_io_getevents", PA_K_AIO },
	{ "__x64_sys_io_pgetevents", PA_K_AIO }, { "io_submit_one", PA_K_AIO },
	{ "__io_submit_one", PA_K_AIO }, { "lookup_ioctx", PA_K_AIO },
	{ "do_io_getevents", PA_K_AIO }, { "read_events", PA_K_AIO },
	{ "ioctx_", PA_K_AIO }, { "user_refill_reqs", PA_K_AIO },
	{ "io_", PA_K_IO_URING }, { "__io_", PA_K_IO_URING },
	{ "__x64_sys_io_uring", PA_K_IO_URING }, { "iou_", PA_K_IO_URING },
	{ "__do_sys_io_uring", PA_K_IO_URING },
	/* interrupts, softirqs, timers */
	{ "irq", PA_K_IRQ }, { "__irq", PA_K_IRQ }, { "handle_irq", PA_K_IRQ },
	{ "handle_edge_irq", PA_K_IRQ }, { "handle_fasteoi", PA_K_IRQ },
	{ "do_IRQ", PA_K_IRQ }, { "common_interrupt", PA_K_IRQ },
	{ "asm_common_interrupt", PA_K_IRQ }, { "asm_sysvec", PA_K_IRQ },
	{ "sysvec_", PA_K_IRQ }, { "__sysvec", PA_K_IRQ },
	{ "__do_softirq", PA_K_IRQ }, { "do_softirq", PA_K_IRQ },
	{ "handle_softirqs", PA_K_IRQ }, { "__irq_exit", PA_K_IRQ },
	{ "run_timer_softirq", PA_K_IRQ }, { "__run_timers", PA_K_IRQ },
	{ "hrtimer_interrupt", PA_K_IRQ }, { "__hrtimer_run_queues", PA_K_IRQ },
	{ "tick_", PA_K_IRQ }, { "apic_timer_interrupt", PA_K_IRQ },
	{ "smp_apic_timer_interrupt", PA_K_IRQ },
	{ "local_apic_timer_interrupt", PA_K_IRQ }, { "net_rx_action", PA_K_IRQ },
	{ "tasklet", PA_K_IRQ }, { "rcu_core", PA_K_IRQ },
	/* the block layer and its schedulers */
	{ "blk_", PA_K_BLOCK }, { "__blk_", PA_K_BLOCK }, { "bio_", PA_K_BLOCK },
	{ "__bio_", PA_K_BLOCK }, { "submit_bio", PA_K_BLOCK },
	{ "__submit_bio", PA_K_BLOCK }, { "bdev_", PA_K_BLOCK },
	{ "blkdev_", PA_K_BLOCK }, { "__blkdev_", PA_K_BLOCK },
	{ "elv_", PA_K_BLOCK }, { "dd_", PA_K_BLOCK }, { "bfq_", PA_K_BLOCK },
	{ "kyber_", PA_K_BLOCK }, { "sbitmap", PA_K_BLOCK },
	{ "__sbitmap", PA_K_BLOCK }, { "bvec_", PA_K_BLOCK },
	{ "part_", PA_K_BLOCK }, { "blkcg_", PA_K_BLOCK },
	{ "rq_qos", PA_K_BLOCK }, { "__rq_qos", PA_K_BLOCK },
	{ "wbt_", PA_K_BLOCK }, { "bio", PA_K_BLOCK },
	/* drivers */
	{ "nvme_", PA_K_DRIVER }, { "scsi_", PA_K_DRIVER }, { "sd_", PA_K_DRIVER },
	{ "loop_", PA_K_DRIVER }, { "lo_", PA_K_DRIVER }, { "null_", PA_K_DRIVER },
	{ "virtblk_", PA_K_DRIVER }, { "virtqueue_", PA_K_DRIVER },
	{ "vring_", PA_K_DRIVER }, { "vp_", PA_K_DRIVER },
	{ "virtio_", PA_K_DRIVER }, { "ahci_", PA_K_DRIVER },
	{ "ata_", PA_K_DRIVER }, { "dm_", PA_K_DRIVER }, { "md_", PA_K_DRIVER },
	{ "pmem_", PA_K_DRIVER }, { "nd_", PA_K_DRIVER }, { "brd_", PA_K_DRIVER },
	{ "zram_", PA_K_DRIVER }, { "dma_", PA_K_DRIVER },
	{ "iommu_", PA_K_DRIVER }, { "ublk_", PA_K_DRIVER },
	{ "nbd_", PA_K_DRIVER }, { "arch_wb_cache_pmem", PA_K_DRIVER },
	/* file systems and the VFS, the page cache */
	{ "ext4_", PA_K_FS }, { "__ext4", PA_K_FS }, { "xfs_", PA_K_FS },
	{ "btrfs_", PA_K_FS }, { "f2fs_", PA_K_FS }, { "jbd2_", PA_K_FS },
	{ "__jbd2", PA_K_FS }, { "shmem_", PA_K_FS }, { "vfs_", PA_K_FS },
	{ "__vfs_", PA_K_FS }, { "generic_file_", PA_K_FS },
	{ "generic_perform_write", PA_K_FS }, { "generic_write_", PA_K_FS },
	{ "filemap_", PA_K_FS }, { "__filemap_", PA_K_FS },
	{ "page_cache_", PA_K_FS }, { "iomap_", PA_K_FS },
	{ "fsnotify", PA_K_FS }, { "__fsnotify", PA_K_FS },
	{ "touch_atime", PA_K_FS }, { "atime_needs_update", PA_K_FS },
	{ "file_", PA_K_FS }, { "fdget", PA_K_FS }, { "__fdget", PA_K_FS },
	{ "__fget", PA_K_FS }, { "fget", PA_K_FS }, { "fput", PA_K_FS },
	{ "__fput", PA_K_FS }, { "ksys_read", PA_K_FS },
	{ "ksys_write", PA_K_FS }, { "ksys_pread", PA_K_FS },
	{ "ksys_pwrite", PA_K_FS }, { "__x64_sys_read", PA_K_FS },
	{ "__x64_sys_write", PA_K_FS }, { "__x64_sys_pread", PA_K_FS },
	{ "__x64_sys_pwrite", PA_K_FS }, { "do_iter_", PA_K_FS },
	{ "rw_verify_area", PA_K_FS }, { "new_sync_", PA_K_FS },
	{ "security_file", PA_K_FS }, { "apparmor_file", PA_K_FS },
	{ "selinux_file", PA_K_FS }, { "do_sys_open", PA_K_FS },
	{ "do_filp_open", PA_K_FS }, { "path_", PA_K_FS }, { "dput", PA_K_FS },
	{ "inode_", PA_K_FS }, { "folio_mark_accessed", PA_K_FS },
	{ "mark_page_accessed", PA_K_FS }, { "do_fsync", PA_K_FS },
	{ "noop_fsync", PA_K_FS }, { "simple_", PA_K_FS }, { "nfs_", PA_K_FS },
	{ "fuse_", PA_K_FS }, { "ovl_", PA_K_FS }, { "fsync", PA_K_FS },
	/* the scheduler and idle */
	{ "schedule", PA_K_SCHED }, { "__schedule", PA_K_SCHED },
	{ "pick_next", PA_K_SCHED }, { "do_idle", PA_K_SCHED },
	{ "cpuidle", PA_K_SCHED }, { "intel_idle", PA_K_SCHED },
	{ "acpi_idle", PA_K_SCHED }, { "default_idle", PA_K_SCHED },
	{ "native_safe_halt", PA_K_SCHED }, { "poll_idle", PA_K_SCHED },
	{ "mwait", PA_K_SCHED }, { "finish_task_switch", PA_K_SCHED },
	{ "__switch_to", PA_K_SCHED }, { "psi_", PA_K_SCHED },
	{ "update_curr", PA_K_SCHED }, { "enqueue_", PA_K_SCHED },
	{ "dequeue_", PA_K_SCHED }, { "try_to_wake_up", PA_K_SCHED },
	{ "wake_up", PA_K_SCHED }, { "__wake_up", PA_K_SCHED },
	{ "ttwu_", PA_K_SCHED }, { "cpu_startup_entry", PA_K_SCHED },
	{ "arch_cpu_idle", PA_K_SCHED }, { "do_sched_yield", PA_K_SCHED },
	{ "__x64_sys_sched_yield", PA_K_SCHED }, { "sched_", PA_K_SCHED },
	{ "__sched", PA_K_SCHED }, { "update_rq_clock", PA_K_SCHED },
	{ "load_balance", PA_K_SCHED }, { "newidle_balance", PA_K_SCHED },
	{ "set_next_entity", PA_K_SCHED }, { "put_prev", PA_K_SCHED },
	{ "check_preempt", PA_K_SCHED }, { "resched", PA_K_SCHED },
	{ "hrtimer_nanosleep", PA_K_SCHED }, { "do_nanosleep", PA_K_SCHED },
	{ "update_load_avg", PA_K_SCHED }, { "reweight_", PA_K_SCHED },
	/* system call entry and exit */
	{ "entry_SYSCALL", PA_K_SYSCALL }, { "do_syscall_64", PA_K_SYSCALL },
	{ "syscall_", PA_K_SYSCALL }, { "x64_sys_call", PA_K_SYSCALL },
	{ "__x64_sys_", PA_K_SYSCALL }, { "exit_to_user_mode", PA_K_SYSCALL },
	{ "__entry_text", PA_K_SYSCALL }, { "entry_", PA_K_SYSCALL },
	{ "fpregs_", PA_K_SYSCALL }, { "restore_fpregs", PA_K_SYSCALL },
	{ "switch_fpu", PA_K_SYSCALL }, { "__rseq", PA_K_SYSCALL },
	{ "rseq_", PA_K_SYSCALL }, { "__x86_return_thunk", PA_K_SYSCALL },
	{ "srso_", PA_K_SYSCALL }, { "__x86_indirect", PA_K_SYSCALL },
};

static const char *const driver_mods[] = {
	"nvme", "nvme_core", "null_blk", "loop", "virtio_blk", "brd",
	"dm_mod", "scsi_mod", "sd_mod", "nd_pmem", "libnvdimm", "ublk_drv",
	"nbd", "zram", "ahci", "libata", "virtio_scsi", "md_mod", "raid0",
	"raid1", "raid456",
};

static const char *const fs_mods[] = {
	"ext4", "xfs", "btrfs", "f2fs", "jbd2", "nfs", "fuse", "overlay",
};

static bool listed(const char *m, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(m, v[i]))
			return true;
	return false;
}

enum profile_area profile_kernel_area(const char *name, const char *module)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rules); i++)
		if (!strncmp(name, rules[i].prefix, strlen(rules[i].prefix)))
			return rules[i].area;
	if (module && listed(module, driver_mods, ARRAY_SIZE(driver_mods)))
		return PA_K_DRIVER;
	if (module && listed(module, fs_mods, ARRAY_SIZE(fs_mods)))
		return PA_K_FS;
	return PA_K_OTHER;
}
