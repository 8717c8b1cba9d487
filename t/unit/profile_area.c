/* SPDX-License-Identifier: MIT */
/*
 * The kernel areas of the CPU profile (src/profile/area.c): the specific
 * rules win over the broad ones (a copy under a file system is a copy,
 * io_schedule is the scheduler and io_submit_one aio, not io_uring's
 * "io_"), modules place what their names do not, and what no rule knows
 * is "other".
 */
#include <string.h>

#include "tap.h"
#include "profile/profile.h"

static const struct {
	const char *name, *module;
	enum profile_area area;
} cases[] = {
	{ "copy_user_enhanced_fast_string", NULL, PA_K_COPY },
	{ "_copy_to_iter", NULL, PA_K_COPY },
	{ "rep_movs_alternative", NULL, PA_K_COPY },
	{ "clear_page_erms", NULL, PA_K_COPY },
	{ "io_schedule", NULL, PA_K_SCHED },
	{ "io_submit_one", NULL, PA_K_AIO },
	{ "aio_read", NULL, PA_K_AIO },
	{ "io_issue_sqe", NULL, PA_K_IO_URING },
	{ "__io_queue_sqe", NULL, PA_K_IO_URING },
	{ "__do_sys_io_uring_enter", NULL, PA_K_IO_URING },
	{ "blk_mq_submit_bio", NULL, PA_K_BLOCK },
	{ "submit_bio_noacct", NULL, PA_K_BLOCK },
	{ "nvme_queue_rq", "nvme", PA_K_DRIVER },
	{ "lo_rw_aio", "loop", PA_K_DRIVER },
	{ "some_static_helper", "null_blk", PA_K_DRIVER },
	{ "ext4_file_read_iter", NULL, PA_K_FS },
	{ "shmem_file_read_iter", NULL, PA_K_FS },
	{ "filemap_read", NULL, PA_K_FS },
	{ "__x64_sys_pread64", NULL, PA_K_FS },
	{ "helper_in_xfs", "xfs", PA_K_FS },
	{ "__schedule", NULL, PA_K_SCHED },
	{ "intel_idle", NULL, PA_K_SCHED },
	{ "__do_softirq", NULL, PA_K_IRQ },
	{ "asm_sysvec_apic_timer_interrupt", NULL, PA_K_IRQ },
	{ "entry_SYSCALL_64_after_hwframe", NULL, PA_K_SYSCALL },
	{ "do_syscall_64", NULL, PA_K_SYSCALL },
	{ "_raw_spin_unlock_irqrestore", NULL, PA_K_OTHER },
	{ "kfree", NULL, PA_K_OTHER },
};

int main(void)
{
	unsigned int i, a;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(profile_kernel_area(cases[i].name, cases[i].module) ==
		   cases[i].area, "%s%s%s: %s", cases[i].name,
		   cases[i].module ? " in " : "",
		   cases[i].module ? cases[i].module : "",
		   profile_area_name(cases[i].area));
	for (a = 0; a < PA_NR; a++)
		ok(strcmp(profile_area_name(a), "?") != 0,
		   "area %u has a name: %s", a, profile_area_name(a));
	diag("%u areas", (unsigned int)PA_NR);
	return done_testing();
}
