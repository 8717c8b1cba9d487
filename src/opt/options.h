/* SPDX-License-Identifier: MIT */
#ifndef IOLITE_OPT_OPTIONS_H
#define IOLITE_OPT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/pattern.h"

/*
 * struct job_options: every job option as plain data, filled from the
 * option table (opt/table.c) and nothing else. Adding an option = a field
 * here + a row in the table (+ a rule in validate.c if it interacts).
 * Strings are heap-owned; job_options_release() frees them.
 */

enum ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_RWDIR_CNT = 3,	/* data directions: read, write, trim */
	DDIR_SYNC = 3,		/* fsync */
	DDIR_DATASYNC = 4,	/* fdatasync */
	DDIR_SYNC_FILE_RANGE = 5,	/* sync_file_range(2) of the range written */
	DDIR_CNT = 6,
};

/* rw= : which directions, sequential or random */
enum rw_mode {
	RW_READ, RW_WRITE, RW_TRIM, RW_RW,
	RW_RANDREAD, RW_RANDWRITE, RW_RANDTRIM, RW_RANDRW,
	RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

enum random_generator { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };

enum random_dist {
	RDIST_RANDOM, RDIST_ZIPF, RDIST_PARETO, RDIST_NORMAL,
	RDIST_ZONED,		/* access share per percentage of the region */
	RDIST_ZONED_ABS,	/* access share per absolute size */
};

/*
 * Workload shape (workload/): strided zones, the offset sequencer, how
 * the next file is picked, and the file options laid out by target/files.c.
 */
enum zone_mode { ZONE_MODE_NONE, ZONE_MODE_STRIDED, ZONE_MODE_ZBD };

/* rw_sequencer= : what rw=randread:N does between new random offsets */
enum rw_sequencer { RW_SEQ_SEQUENTIAL, RW_SEQ_IDENTICAL };

enum file_service {
	FSRV_ROUNDROBIN, FSRV_SEQUENTIAL, FSRV_RANDOM,
	FSRV_ZIPF, FSRV_PARETO, FSRV_NORMAL,
};

enum fallocate_mode {
	FALLOCATE_NONE, FALLOCATE_NATIVE, FALLOCATE_POSIX, FALLOCATE_KEEP,
	FALLOCATE_TRUNCATE,
};

enum lockfile_mode { LOCKFILE_NONE, LOCKFILE_EXCLUSIVE, LOCKFILE_READWRITE };

/* fadvise_hint= : the access advice given at each open (run/fcycle.c) */
enum fadvise_hint {
	FADVISE_NONE, FADVISE_AUTO, FADVISE_RANDOM, FADVISE_SEQUENTIAL,
};

/* io_submit_mode= : who calls the engine (engine/offload.c) */
enum io_submit_mode { IO_SUBMIT_INLINE, IO_SUBMIT_OFFLOAD };
/* io_uring_cmd's write_mode: the NVMe command a write issues */
enum ucmd_write_mode { UCMD_WRITE, UCMD_UNCOR, UCMD_ZEROES, UCMD_VERIFY };
/* pi_chk's fields: the PRCHK bits of a Read's or Write's CDW12 */
enum {
	PI_CHK_REFTAG = 1u << 26,
	PI_CHK_APPTAG = 1u << 27,
	PI_CHK_GUARD = 1u << 28,
};

/*
 * One zone of random_distribution=zoned / zoned_abs. The parser resolves
 * blank ranges of zoned ("20/") to an equal share of the percentage the
 * others leave; for zoned_abs a blank range (rest) shares what is left of
 * the region once the workload knows it.
 */
struct rdist_zone {
	uint64_t size;		/* zoned: percent of the region; abs: bytes */
	uint8_t access;		/* percent of the random accesses */
	bool rest;		/* zoned_abs: range left blank */
};

#define RDIST_ZONES_MAX 256

enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };

enum clocksource { CLOCK_SRC_DEFAULT, CLOCK_SRC_GETTIMEOFDAY,
		   CLOCK_SRC_CLOCK_GETTIME, CLOCK_SRC_CPU };

enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };

/*
 * verify= : how written blocks are checked when read back (verify/). Every
 * mode but pattern and null stamps a header with a checksum of this kind.
 */
enum verify_mode {
	VERIFY_NONE, VERIFY_CRC32C, VERIFY_MD5, VERIFY_SHA1, VERIFY_SHA256,
	VERIFY_SHA512, VERIFY_XXHASH, VERIFY_PATTERN, VERIFY_NULL,
	/* later additions: the values are in block headers, keep them */
	VERIFY_CRC64, VERIFY_CRC32, VERIFY_CRC16, VERIFY_CRC7,
	VERIFY_SHA3_224, VERIFY_SHA3_256, VERIFY_SHA3_384, VERIFY_SHA3_512,
	VERIFY_META,
	VERIFY_MODE_NR,
};

/* ignore_error= : errnos per class (read, write, verify) */
#define IGNORE_ERROR_MAX 16

/* continue_on_error= : bit mask of error classes to continue on */
enum {
	COE_READ = 1, COE_WRITE = 2, COE_VERIFY = 4,
	COE_IO = COE_READ | COE_WRITE, COE_ALL = 7,
};

/*
 * mmap engines (mmap, dev-dax, libpmem): how data is copied between the
 * mapping and the I/O buffers, and how written data is pushed to the
 * persistence domain. engine/pmem.h has the routines.
 */
enum mmap_copy {
	MMAP_COPY_AUTO,		/* a fixed choice by CPU features */
	MMAP_COPY_LIBC,		/* memcpy(3) */
	MMAP_COPY_MOVSB,	/* rep movsb */
	MMAP_COPY_AVX2,
	MMAP_COPY_AVX2_NT,	/* non-temporal loads and stores */
	MMAP_COPY_AVX512,
	MMAP_COPY_AVX512_NT,
	MMAP_COPY_SSE2_NT,	/* not an option value: what pmem_flush=nt
				 * writes with on CPUs without AVX2 */
};

enum pmem_flush {
	PMEM_FLUSH_DEFAULT,	/* none for mmap, auto for dev-dax, libpmem */
	PMEM_FLUSH_AUTO,	/* the best the CPU has */
	PMEM_FLUSH_NONE,
	PMEM_FLUSH_CLWB,
	PMEM_FLUSH_CLFLUSHOPT,
	PMEM_FLUSH_CLFLUSH,
	PMEM_FLUSH_NT,		/* non-temporal stores */
};

enum mmap_advise {
	MMAP_ADVISE_AUTO,	/* random or sequential from rw= */
	MMAP_ADVISE_NONE,
	MMAP_ADVISE_NORMAL,
	MMAP_ADVISE_RANDOM,
	MMAP_ADVISE_SEQUENTIAL,
	MMAP_ADVISE_WILLNEED,
	MMAP_ADVISE_HUGEPAGE,
	MMAP_ADVISE_NOHUGEPAGE,
};

/* The kernel-only engines' own option values (opt/engine_opts.c). */
enum stat_type { STAT_TYPE_STAT, STAT_TYPE_LSTAT, STAT_TYPE_STATX };
enum cpu_mode { CPU_MODE_NOOP, CPU_MODE_QSORT };
enum net_proto {
	NET_PROTO_TCP, NET_PROTO_TCPV6, NET_PROTO_UDP, NET_PROTO_UDPV6,
	NET_PROTO_UNIX,
};

/* http: https=, http_mode=, http_object_mode= (opt/http_opts.c) */
enum http_tls { HTTP_TLS_OFF, HTTP_TLS_ON, HTTP_TLS_INSECURE };
enum http_mode { HTTP_MODE_WEBDAV, HTTP_MODE_S3, HTTP_MODE_SWIFT };
enum http_object { HTTP_OBJ_BLOCK, HTTP_OBJ_RANGE };

/* dedupe_mode= : which earlier block a deduplicated write repeats */
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };

/* unified_rw_reporting= : per direction, summed ("mixed"), or both */
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };

/* rate_process= : how the issue times of a rated job are spaced */
enum rate_process { RATE_PROCESS_LINEAR, RATE_PROCESS_POISSON };

/* thinktime_blocks_type= : what thinktime_blocks counts */
enum thinktime_type { THINKTIME_COMPLETE, THINKTIME_ISSUE };

/* steadystate= : what steady state is judged on (run/steady.c) */
enum ss_mode { SS_IOPS_SLOPE, SS_IOPS, SS_BW, SS_BW_SLOPE, SS_LAT, SS_LAT_SLOPE };

/* lat, lat_slope: judged on the window's mean completion latencies */
static inline bool ss_mode_is_lat(enum ss_mode m)
{
	return m == SS_LAT || m == SS_LAT_SLOPE;
}

/* profile= : none, the run's threads, or every task on the CPUs */
enum job_profile { JOB_PROFILE_NONE, JOB_PROFILE_CPU, JOB_PROFILE_SYSTEM };

/* exit_what= : which jobs stop when one finishes and exitall is on */
enum exit_what { EXIT_WHAT_GROUP, EXIT_WHAT_STONEWALL, EXIT_WHAT_ALL };

/* A value given as bytes or as a percentage ("size=50%"). */
struct size_pct {
	uint64_t bytes;
	unsigned int pct;	/* non-zero: percentage 1..100 */
};

struct bs_range {
	uint64_t min, max;
};

/*
 * One bssplit= entry. The parser resolves blank percentages ("4k/") to
 * an equal share of what the others leave, so the entries of a direction
 * always add up to exactly 100 (a rounding remainder goes to the first
 * blank entries). perc 0 is a real 0%.
 */
struct bssplit {
	uint64_t bs;
	unsigned int perc;
};

#define BSSPLIT_MAX 64

/* cmdprio_bssplit, one entry as given: prio -1 takes cmdprio_class/cmdprio */
struct cmdprio_split {
	uint64_t bs;
	uint8_t perc;
	int32_t prio;
};

/* fio allows up to 20 entries in percentile_list */
#define PERCENTILE_LIST_MAX 20
#define OPT_TABLE_MAX 512

/* log_window_value (fio 3.42; log_max_value its older name) */
enum log_window_value { LOGWIN_AVG, LOGWIN_MAX, LOGWIN_BOTH };

struct job_options {
	/* description */
	char *name;
	char *description;

	/* files */
	char *filename;		/* ':'-separated list, '\:' escapes */
	char *directory;
	char *filename_format;
	unsigned int nrfiles;
	/*
	 * nrfiles= was read after filename=: fio then uses only the list's
	 * first nrfiles names (job_build() says when)
	 */
	bool nrfiles_cuts;
	struct size_pct size;
	struct bs_range filesize;
	struct size_pct offset;
	struct size_pct offset_increment;	/* pct: of the file's size */
	uint64_t offset_align;		/* 0: the smallest block size */
	/*
	 * io_size: pct is a share of the job's regions; target/files.c turns
	 * it into bytes once they are known, and only bytes is read after
	 */
	struct size_pct io_size;
	uint64_t number_ios;
	bool allow_file_create;
	bool allow_mounted_write;
	bool create_on_open;
	bool overwrite;
	bool unlink;
	/*
	 * issue 15.7's file options (opt/file_opts.c, target/fileopts.c):
	 * fsync after the layout, lay out and stop, read the files into
	 * the page cache first, start at the file's end, unlink between
	 * loops, the files under a directory (recursively)
	 */
	bool create_fsync;
	bool create_only;
	bool pre_read;
	bool file_append;
	bool unlink_each_loop;
	bool unique_filename;		/* accepted: no client/server */
	char *opendir;
	bool invalidate;
	enum fadvise_hint fadvise_hint;

	/* blocks and directions */
	uint64_t bs[DDIR_RWDIR_CNT];
	struct bs_range bsrange[DDIR_RWDIR_CNT];	/* 0-0: not given */
	struct bssplit bssplit[DDIR_RWDIR_CNT][BSSPLIT_MAX];
	unsigned int nr_bssplit[DDIR_RWDIR_CNT];
	uint64_t blockalign[DDIR_RWDIR_CNT];	/* 0: the block size */
	bool bs_unaligned;	/* bsrange: any size, not multiples of min */
	bool bs_is_seq_rand;	/* bs,: sequential, random (opt/file_opts.c) */
	bool allrandrepeat;	/* every generator from randseed */
	enum rw_mode rw;
	unsigned int rw_seq_nr;	/* random: rw=randread:8 -> 8 I/Os per seek */
	int64_t rw_seq_add;	/* sequential: rw=write:4k -> 4096, read:-8k */
	unsigned int rwmixread;	/* percent; rwmixwrite= sets 100 - N */

	/* engine and queue */
	char *ioengine;
	unsigned int iodepth;
	bool direct;
	enum sync_mode sync;
	unsigned int fsync;
	unsigned int fdatasync;
	/* sync_file_range=flags:N: SYNC_FILE_RANGE_* every N writes (0: off) */
	unsigned int sync_file_range;
	unsigned int sync_file_range_nr;
	bool end_fsync;
	bool end_syncfs;	/* fio 3.42: one syncfs(2) instead */
	bool fsync_on_close;
	bool hipri;		/* pvsync2 */
	bool nowait;		/* pvsync2, io_uring, libaio */
	/*
	 * per-I/O flags and file hints (opt/file_opts.c checks them;
	 * engine/rwflags.c carries them out): RWF_DONTCACHE, RWF_ATOMIC,
	 * the share of pvsync2 I/Os with RWF_HIPRI, the fcntl write hint
	 * (RWH_WRITE_LIFE_*, used when opt_is_set())
	 */
	unsigned int uncached;
	bool atomic;
	unsigned int hipri_percentage;
	unsigned int write_hint;

	/* jobs and time */
	unsigned int numjobs;
	bool thread;
	uint64_t runtime_us;
	bool time_based;
	uint64_t ramp_time_us;
	uint64_t ramp_size;	/* fio 3.42: ramp by bytes; 0: none */
	uint64_t startdelay_us;
	unsigned int job_start_clock_id;	/* fio 3.42: JSON's job_start */
	uint64_t startdelay_hi_us;	/* a range's top (plan_draw_startdelay
					 * picks), 0: one value */
	unsigned int loops;

	/* randomness */
	bool norandommap;
	bool softrandommap;	/* no room for the map: go on without */
	bool serialize_overlap;	/* overlapping I/Os never in flight together */
	bool randrepeat;
	uint64_t randseed;
	enum random_generator random_generator;
	/*
	 * sprandom (fio 3.42): SSD preconditioning by regions
	 * (workload/sprandom.c); spr_op in [0, 1)
	 */
	bool sprandom;
	double spr_op;
	unsigned int spr_num_regions;
	uint64_t spr_cs;		/* bytes; 0: writes not deferred */
	/*
	 * active_segments (iolite; no fio option): random offsets only in
	 * act_segs segments of act_seg_size bytes, spread at random over
	 * the region, no two touching (workload/segments.c): SNIA PTS-C's
	 * ActiveRange segmentation. 0: off.
	 */
	unsigned int act_segs;
	uint64_t act_seg_size;
	enum random_dist random_distribution;
	double rdist_param;	/* zipf theta, pareto h, normal sigma (%) */
	/* zipf, pareto, normal: ":centre" given (0..1, fio's "base") */
	bool rdist_centred;
	double rdist_center;

	/* buffers */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers;
	/*
	 * buffer_pattern given after any refill_buffers: refill when the
	 * job reads or compresses, so reads do not spoil the pattern (fio)
	 */
	bool pattern_refill;

	/* groups */
	bool group_reporting;
	bool stonewall;
	bool new_group;
	char *wait_for;

	/* units */
	unsigned int kb_base;
	unsigned int unit_base;

	/* cpus */
	char *cpus_allowed;
	enum cpus_policy cpus_allowed_policy;
	uint64_t cpumask;

	/* statistics and clock */
	bool gtod_reduce;	/* its row also sets the disable_* below */
	bool disable_lat;
	bool disable_clat;
	bool disable_slat;
	bool disable_bw;
	enum clocksource clocksource;
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	/*
	 * percentile_list: sorted, at most PERCENTILE_LIST_MAX, ends before
	 * the first 0 given (fio's rule; "0" alone means no percentiles).
	 * percentile_precision: decimals of the labels in the normal
	 * report, the most any entry was written with.
	 */
	double percentile_list[PERCENTILE_LIST_MAX];
	unsigned int nr_percentile_list;
	unsigned int percentile_precision;
	unsigned int significant_figures;	/* normal report: 1..10 */
	/* bw / iops sample windows, read by the runner's sampler */
	unsigned int bwavgtime_ms;
	unsigned int iopsavgtime_ms;

	/* profile=: a CPU profile of the group's measured phase (profile/) */
	enum job_profile profile;

	/* errors */
	unsigned int continue_on_error;
	bool exitall;
	bool exitall_on_error;

	/* queue options (libaio, io_uring; 0 = default) */
	unsigned int iodepth_batch_submit;
	unsigned int iodepth_batch_complete_min;
	unsigned int iodepth_batch_complete_max;
	unsigned int iodepth_low;
	bool userspace_reap;	/* libaio */
	bool fixedbufs;		/* io_uring */
	bool registerfiles;
	bool sqthread_poll;
	unsigned int sqthread_poll_cpu;	/* used when set explicitly */
	unsigned int force_async;
	int submit_and_wait;	/* io_uring: a full queue's commit waits */
	/* io_uring_cmd (engine/uring_cmd.c) */
	unsigned int cmd_type;		/* 0: nvme, the only one */
	unsigned int num_range;		/* fio 3.42: ranges per trim (1) */
	int readfua, writefua;
	unsigned int write_mode;	/* enum ucmd_write_mode */
	int deac;
	/* end-to-end protection, metadata (fio 3.35+) */
	uint64_t md_per_io_size;	/* separate metadata buffer per I/O */
	unsigned int pi_act;		/* 1: the controller makes the PI */
	unsigned int pi_chk;		/* PI_CHK_*: the command's PRCHK */
	unsigned int apptag, apptag_mask;
	unsigned int nonvectored;	/* 0: READV/WRITEV */

	/* mmap engines (mmap, dev-dax, libpmem) */
	bool mmap_populate;		/* MAP_POPULATE at open */
	enum mmap_advise mmap_advise;
	enum mmap_copy mmap_copy;
	enum pmem_flush pmem_flush;

	/*
	 * verification and errors (verify/, opt/verify_opts.c): the verify
	 * phase after writing, the block header and its checksum, and which
	 * errors a job carries on after (ignore_error: per class read, write,
	 * verify, a list of errnos; a class with a list continues on those
	 * and only those, as fio).
	 */
	enum verify_mode verify;
	bool do_verify;
	bool verify_only;
	bool verify_fatal;
	bool verify_dump;
	bool verify_header_seed;	/* fio 3.42: check the writer */
	bool verify_write_sequence;	/* fio 3.42: check the write's number */
	bool verify_state_save;
	bool verify_state_load;
	bool experimental_verify;	/* replay the pass, keep no log */
	bool error_dump;		/* print errors continued past */
	uint64_t verify_interval;	/* 0: each block is one chunk */
	uint64_t verify_offset;		/* header swapped to here */
	uint64_t verify_backlog;	/* verify every N written blocks */
	uint64_t verify_backlog_batch;	/* blocks per backlog check; 0: all */
	/* verify trims (fio's trim_*): written blocks trimmed, then checked */
	unsigned int trim_percentage;
	uint64_t trim_backlog;		/* 0: no verify trims */
	uint64_t trim_backlog_batch;	/* 0: trim_backlog */
	bool trim_verify_zero;
	unsigned int verify_async;	/* checker threads; 0: inline */
	char *verify_async_cpus;	/* their CPUs; NULL: any */
	struct byte_pattern verify_pattern;	/* len 0: none */
	int ignore_error[3][IGNORE_ERROR_MAX];
	unsigned int nr_ignore_error[3];

	/* zones, offset sequencing, file service and file layout */
	enum zone_mode zonemode;
	uint64_t zonerange;		/* 0: zonesize */
	uint64_t zonesize;
	uint64_t zoneskip;
	uint64_t zonecapacity;		/* zbd: emulated zones' (unused) */
	unsigned int max_open_zones;	/* zbd: 0: the device's limit */
	unsigned int job_max_open_zones;	/* zbd: 0: none */
	bool ignore_zone_limits;	/* zbd: not the device's limit */
	double zone_reset_threshold;	/* zbd: share of the region written */
	double zone_reset_frequency;	/* zbd: resets per write past it */
	bool read_beyond_wp;		/* zbd: reads past the write pointer */
	bool write_zone_remainder;	/* zbd: a zone's tail under bs written */
	bool recover_zbd_write_error;	/* zbd: wp read again after an error */
	struct rdist_zone rdist_zones[DDIR_RWDIR_CNT][RDIST_ZONES_MAX];
	unsigned int nr_rdist_zones[DDIR_RWDIR_CNT];
	unsigned int perc_rand[DDIR_RWDIR_CNT];	/* percentage_random */
	enum rw_sequencer rw_sequencer;
	enum file_service file_service_type;
	unsigned int file_service_nr;	/* I/Os per file before switching */
	double file_service_param;	/* zipf theta, pareto h, normal sigma */
	unsigned int openfiles;		/* 0: nrfiles */
	enum fallocate_mode fallocate;
	bool fill_device;
	bool create_serialize;
	enum lockfile_mode lockfile;

	/*
	 * log files (stats/log.h): each write_*_log is the file name prefix,
	 * NULL when off and "" for a bare option (the job's name)
	 */
	char *write_lat_log;
	char *write_bw_log;
	char *write_iops_log;
	char *write_hist_log;
	unsigned int log_avg_msec;	/* 0: a line per I/O */
	unsigned int log_hist_msec;	/* 0: no histogram lines */
	unsigned int log_hist_coarseness;
	unsigned int log_entries;	/* sizes the first chunk pool */
	int log_window_value;	/* enum log_window_value */
	bool log_offset;
	bool log_issue_time;	/* fio 3.42: an issue time column (ns) */
	bool per_job_logs;
	bool log_drop_when_behind;	/* iolite: drop, not wait */

	/*
	 * buffer contents (workload/buffer.c) and unified_rw_reporting
	 * (stats/results.c): buffer_pattern has no %o (len 0: none); the
	 * compressible share of each buffer_compress_chunk (0: the block);
	 * the share of writes that repeat an earlier block
	 */
	struct byte_pattern buffer_pattern;
	unsigned int buffer_compress_percentage;
	uint64_t buffer_compress_chunk;
	unsigned int dedupe_percentage;
	enum dedupe_mode dedupe_mode;
	unsigned int dedupe_working_set_percentage;
	bool dedupe_global;		/* one working set for such jobs */
	enum unified_rw unified_rw_reporting;

	/*
	 * latency targets (run/lattarget.c), steady state (run/steady.c)
	 * and exit_what; parsed and checked in opt/steady_opts.c.
	 * latency_target_us 0: no search; max_latency_us 0: no limit.
	 * ss_dur_us 0: no steady state detection; ss_limit is a
	 * percentage of the window's mean when ss_pct.
	 */
	uint64_t latency_target_us;
	uint64_t latency_window_us;
	double latency_percentile;
	bool latency_run;
	uint64_t max_latency_us[DDIR_RWDIR_CNT];
	enum ss_mode ss_mode;
	bool ss_pct;
	double ss_limit;
	uint64_t ss_dur_us;
	uint64_t ss_ramp_us;
	enum exit_what exit_what;

	/*
	 * rate, think time and flows (run/pace.c, run/flow.c, checked in
	 * opt/pace_opts.c): per direction, bytes/s and I/Os per second
	 * (0: none); times in microseconds; flow is a weight (0: no flow)
	 */
	uint64_t rate[DDIR_RWDIR_CNT];
	uint64_t rate_min[DDIR_RWDIR_CNT];
	uint64_t rate_iops[DDIR_RWDIR_CNT];
	uint64_t rate_iops_min[DDIR_RWDIR_CNT];
	enum rate_process rate_process;
	bool rate_ignore_thinktime;
	unsigned int rate_cycle_ms;
	uint64_t thinktime_us;
	uint64_t thinktime_spin_us;
	unsigned int thinkcycles;	/* fio 3.42: busy waits per I/O */
	unsigned int thinktime_blocks;
	enum thinktime_type thinktime_blocks_type;
	uint64_t thinktime_iotime_us;
	unsigned int flow_id;
	unsigned int flow;
	unsigned int flow_sleep_us;

	/*
	 * I/O logs and replay (workload/iolog.c, run/iolog_write.c):
	 * write_iolog records every I/O issued; read_iolog (':' list, one
	 * log per numjobs clone) replays a log instead of the workload.
	 * replay_skip: 1 << DDIR_READ/WRITE/TRIM, 1 << DDIR_SYNC for both
	 * syncs.
	 */
	char *write_iolog;
	char *read_iolog;
	bool read_iolog_chunked;
	bool replay_no_stall;
	char *replay_redirect;
	uint64_t replay_align;		/* 0: offsets as logged */
	uint64_t replay_scale;		/* offsets divided by this */
	unsigned int replay_time_scale;	/* percent of the logged rate */
	unsigned int replay_skip;

	/*
	 * NUMA placement (opt/cpu_opts.c checks, machine/cpus.c applies):
	 * numa_cpu_nodes, a node list ("0-1", "all"); numa_mem_policy,
	 * "mode[:nodes]" with mode default, prefer, bind, interleave, local.
	 * "auto" (iolite's, either): the node of the job's target, found by
	 * target/numa.c before the run (job_plan.numa_node).
	 */
	char *numa_cpu_nodes;
	char *numa_mem_policy;

	/*
	 * Submission by a thread pool (engine/offload.c), the priority
	 * column and compression of the log files (stats/log.c).
	 */
	enum io_submit_mode io_submit_mode;
	bool log_prio;			/* 5th column: priority value */
	uint64_t log_compression;	/* 0: off, else bytes per chunk */
	bool log_store_compressed;	/* .fz files (zlib) */

	/*
	 * I/O priorities (opt/prio_opts.c): the job's (prio, prioclass;
	 * opt_is_set() says whether given), and per I/O on io_uring and
	 * libaio, per direction read, write (trim parsed, not used):
	 * cmdprio_class 0 = not given (real time), cmdprio_bssplit entries
	 */
	unsigned int prio;
	unsigned int prioclass;
	unsigned int priohint;		/* fio 3.42: 0 none, to 1023 */
	unsigned int cmdprio_percentage[DDIR_RWDIR_CNT];
	unsigned int cmdprio_class[DDIR_RWDIR_CNT];
	unsigned int cmdprio[DDIR_RWDIR_CNT];
	unsigned int cmdprio_hint[DDIR_RWDIR_CNT];	/* fio 3.42 */
	struct cmdprio_split cmdprio_bssplit[DDIR_RWDIR_CNT][BSSPLIT_MAX];
	unsigned int nr_cmdprio_bssplit[DDIR_RWDIR_CNT];

	/*
	 * The job's process side (opt/sys_opts.c checks them; proc/proc.c,
	 * proc/mem.c and stats/ carry them out): credentials (uid and gid
	 * count when given: opt_is_set()), the nice increment, the
	 * scheduler of the devices, the blkio cgroup, commands around the
	 * job; the I/O buffers' memory ("type[:file]", NULL: malloc),
	 * their offset from a page, the huge page size, memory pinned;
	 * what is reported (disk_util, stats) and the logs' time column.
	 */
	unsigned int uid, gid;
	int nice;
	char *ioscheduler;
	unsigned int gtod_cpu;		/* accepted: no effect (compat.md) */
	char *mem;
	uint64_t iomem_align;
	uint64_t hugepage_size;
	uint64_t lockmem;
	unsigned int thp;		/* mmap engine: MADV_HUGEPAGE */
	bool no_disk_util;		/* disk_util=0 (stored inverted) */
	bool no_stats;			/* stats=0 (stored inverted) */
	bool log_unix_epoch;
	bool log_alternate_epoch;
	unsigned int log_epoch_clock;	/* log_alternate_epoch_clock_id */
	char *cgroup;
	unsigned int cgroup_weight;	/* 0: leave the weight */
	bool cgroup_nodelete;
	char *exec_prerun;
	char *exec_postrun;
	char *log_compression_cpus;	/* the log writers' CPUs */
	unsigned int write_barrier;	/* accepted: no effect (compat.md) */

	/* fio's tiobench profile options: accepted, noted, no effect */
	unsigned int tb_threads, tb_numruns;
	unsigned int tb_block;
	char *tb_dir;

	/*
	 * The kernel-only engines' own options, checked in
	 * opt/engine_opts.c: filestat and dirstat (stat_type), cpuio,
	 * exec, net and netsplice, e4defrag. 0 / NULL: not given.
	 */
	enum stat_type stat_type;
	unsigned int cpuload;		/* percent */
	unsigned int cpuchunks_us;
	enum cpu_mode cpumode;
	bool exit_on_io_done;
	char *program;
	char *arguments;
	unsigned int grace_time_s;
	bool std_redirect;
	char *hostname;
	unsigned int port;
	enum net_proto protocol;
	bool listen;
	bool pingpong;
	bool nodelay;
	char *interface;
	unsigned int ttl;
	uint64_t window_size;
	unsigned int mss;
	char *donorname;
	unsigned int inplace;
	char *uri;		/* nbd */
	char *initiator;	/* libiscsi */
	char *nfs_url;		/* nfs (engine/nfs.c) */

	/* http (opt/http_opts.c): NULL / 0: not given */
	char *http_host;
	char *http_user;
	char *http_pass;
	enum http_tls https;
	enum http_mode http_mode;
	char *http_s3_key;
	char *http_s3_keyid;
	char *http_s3_security_token;
	char *http_s3_region;
	char *http_s3_sse_customer_key;
	char *http_s3_sse_customer_algorithm;
	char *http_s3_storage_class;
	char *http_swift_auth_token;
	unsigned int http_verbose;
	enum http_object http_object_mode;

	/* rados, rbd (engine/ceph.c) */
	char *clustername;
	char *pool;
	char *clientname;
	char *ceph_conf;		/* conf= */
	char *rbdname;
	bool busy_poll;
	bool touch_objects;

	/* which table rows were given explicitly, by row index */
	unsigned char set[OPT_TABLE_MAX];
};

/* Frees the strings (every OPT_STR row); o stays valid, strings NULL. */
void job_options_release(struct job_options *o);
/* Deep copy: dst (not released first) gets its own strings. */
void job_options_copy(struct job_options *dst, const struct job_options *src);

#endif
