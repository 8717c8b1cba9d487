/* SPDX-License-Identifier: MIT */
/*
 * The enum value lists of opt/table.c's options (a value, its number, its
 * help), split out of table.c for its length. Included by table.c only,
 * before opt_table[]: not a header of its own.
 */

const struct opt_enum opt_rw_enums[] = {
	{ "read", RW_READ, "sequential reads" },
	{ "write", RW_WRITE, "sequential writes" },
	{ "trim", RW_TRIM, "sequential trims (block devices)" },
	{ "randread", RW_RANDREAD, "random reads" },
	{ "randwrite", RW_RANDWRITE, "random writes" },
	{ "randtrim", RW_RANDTRIM, "random trims (block devices)" },
	{ "rw", RW_RW, "sequential mix of reads and writes" },
	{ "readwrite", RW_RW, "same as rw" },
	{ "randrw", RW_RANDRW, "random mix of reads and writes" },
	{ "trimwrite", RW_TRIMWRITE,
	  "sequential: trim each block, then write it" },
	{ "randtrimwrite", RW_RANDTRIMWRITE,
	  "random: trim each block, then write it" },
	{ NULL, 0, NULL },
};

static const struct opt_enum sync_enums[] = {
	{ "none", SYNC_NONE, "no synchronous writes" },
	{ "0", SYNC_NONE, "same as none" },
	{ "sync", SYNC_SYNC, "open with O_SYNC" },
	{ "1", SYNC_SYNC, "same as sync" },
	{ "dsync", SYNC_DSYNC, "open with O_DSYNC" },
	{ NULL, 0, NULL },
};

static const struct opt_enum dedupe_mode_enums[] = {
	{ "repeat", DEDUPE_REPEAT, "repeat the last unique block" },
	{ "working_set", DEDUPE_WORKING_SET,
	  "repeat a random block of a working set" },
	{ NULL, 0, NULL },
};

static const struct opt_enum unified_rw_enums[] = {
	{ "none", UNIFIED_NONE, "read, write and trim apart" },
	{ "0", UNIFIED_NONE, "same as none" },
	{ "mixed", UNIFIED_MIXED, "one 'mixed' block, the directions summed" },
	{ "1", UNIFIED_MIXED, "same as mixed" },
	{ "both", UNIFIED_BOTH, "the directions, then the 'mixed' block" },
	{ "2", UNIFIED_BOTH, "same as both" },
	{ NULL, 0, NULL },
};

static const struct opt_enum log_window_enums[] = {
	{ "avg", LOGWIN_AVG, "the window's mean" },
	{ "0", LOGWIN_AVG, "same as avg" },
	{ "max", LOGWIN_MAX, "the window's maximum" },
	{ "1", LOGWIN_MAX, "same as max" },
	{ "both", LOGWIN_BOTH, "the mean, then the maximum (fio 3.42)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum randgen_enums[] = {
	{ "tausworthe", RANDGEN_TAUSWORTHE, "32-bit Tausworthe generator" },
	{ "lfsr", RANDGEN_LFSR,
	  "linear feedback shift register: every block once, no map" },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64, "64-bit Tausworthe generator" },
	{ NULL, 0, NULL },
};


static const struct opt_enum kb_base_enums[] = {
	{ "1024", 1024, "k, m, g are powers of 2; KiB, MiB powers of 10 "
	  "(fio's compatibility mode)" },
	{ "1000", 1000, "k, m, g are powers of 10; KiB, MiB powers of 2" },
	{ NULL, 0, NULL },
};

static const struct opt_enum unit_base_enums[] = {
	{ "0", 0, "pick automatically (bytes)" },
	{ "8", 8, "report bytes" },
	{ "1", 1, "report bits" },
	{ NULL, 0, NULL },
};

static const struct opt_enum cpus_policy_enums[] = {
	{ "shared", CPUS_SHARED, "every job may run on every allowed CPU" },
	{ "split", CPUS_SPLIT, "each job gets its own CPU of the set" },
	{ NULL, 0, NULL },
};

static const struct opt_enum clocksource_enums[] = {
	{ "gettimeofday", CLOCK_SRC_GETTIMEOFDAY, "gettimeofday(2)" },
	{ "clock_gettime", CLOCK_SRC_CLOCK_GETTIME, "clock_gettime(2)" },
	{ "cpu", CLOCK_SRC_CPU, "the CPU's time stamp counter" },
	{ NULL, 0, NULL },
};

static const struct opt_enum coe_enums[] = {
	{ "none", 0, "stop the job on the first error" },
	{ "read", COE_READ, "continue on read errors" },
	{ "write", COE_WRITE, "continue on write errors" },
	{ "io", COE_IO, "continue on read and write errors" },
	{ "verify", COE_VERIFY, "continue on verify errors" },
	{ "all", COE_ALL, "continue on every error" },
	{ "0", 0, "same as none" },
	{ "1", COE_ALL, "same as all" },
	{ NULL, 0, NULL },
};

static const struct opt_enum zonemode_enums[] = {
	{ "none", ZONE_MODE_NONE, "no zones: zonerange, zonesize and "
	  "zoneskip must not be set" },
	{ "strided", ZONE_MODE_STRIDED, "zonesize bytes of I/O in each zone "
	  "of zonerange bytes, then zoneskip bytes further on" },
	{ "zbd", ZONE_MODE_ZBD, "zoned block devices: writes at each zone's "
	  "write pointer, reads below it" },
	{ NULL, 0, NULL },
};

static const struct opt_enum rw_seq_enums[] = {
	{ "sequential", RW_SEQ_SEQUENTIAL,
	  "the I/Os after a random one continue sequentially" },
	{ "identical", RW_SEQ_IDENTICAL,
	  "the I/Os after a random one repeat its offset" },
	{ NULL, 0, NULL },
};

static const struct opt_enum cmd_type_enums[] = {
	{ "nvme", 0, "NVMe I/O commands on a namespace's generic node "
	  "(/dev/ngXnY)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum write_mode_enums[] = {
	{ "write", UCMD_WRITE, "Write commands" },
	{ "uncor", UCMD_UNCOR, "Write Uncorrectable commands (no data: the "
	  "blocks read back as errors until written again)" },
	{ "zeroes", UCMD_ZEROES, "Write Zeroes commands (no data moves)" },
	{ "verify", UCMD_VERIFY, "Verify commands (the device reads and "
	  "checks the blocks; no data moves)" },
	{ NULL, 0, NULL },
};

static const struct opt_enum submit_mode_enums[] = {
	{ "inline", IO_SUBMIT_INLINE, "the job's thread calls the engine" },
	{ "offload", IO_SUBMIT_OFFLOAD, "a pool of iodepth threads calls the "
	  "engine; the job's thread hands them I/O and reaps" },
	{ NULL, 0, NULL },
};

static const struct opt_enum fadvise_hint_enums[] = {
	{ "1", FADVISE_AUTO, "FADV_RANDOM for random jobs, FADV_SEQUENTIAL "
	  "for the others" },
	{ "0", FADVISE_NONE, "no advice" },
	{ "random", FADVISE_RANDOM, "FADV_RANDOM" },
	{ "sequential", FADVISE_SEQUENTIAL, "FADV_SEQUENTIAL" },
	{ NULL, 0, NULL },
};

static const struct opt_enum fallocate_enums[] = {
	{ "native", FALLOCATE_NATIVE, "fallocate(2), or nothing where the "
	  "filesystem cannot" },
	{ "none", FALLOCATE_NONE, "no preallocation: a sparse file" },
	{ "posix", FALLOCATE_POSIX, "posix_fallocate(3)" },
	{ "keep", FALLOCATE_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE, "
	  "then the size set" },
	{ "truncate", FALLOCATE_TRUNCATE, "only ftruncate(2) to the size" },
	{ "0", FALLOCATE_NONE, "same as none" },
	{ "1", FALLOCATE_POSIX, "same as posix" },
	{ NULL, 0, NULL },
};

static const struct opt_enum lockfile_enums[] = {
	{ "none", LOCKFILE_NONE, "no locking" },
	{ "exclusive", LOCKFILE_EXCLUSIVE,
	  "one job at a time does I/O to a shared file" },
	{ "readwrite", LOCKFILE_READWRITE,
	  "many readers or one writer at a time" },
	{ NULL, 0, NULL },
};

static const struct opt_enum write_hint_enums[] = {
	{ "none", 1, "no particular life time" },
	{ "short", 2, "data with a short life time" },
	{ "medium", 3, "a medium life time" },
	{ "long", 4, "a long life time" },
	{ "extreme", 5, "a very long life time" },
	{ NULL, 0, NULL },
};
