/* SPDX-License-Identifier: MIT */
/*
 * The option table: one row per option fio 3.33 knows. Rows iolite
 * implements come first, grouped by category; every other fio option
 * name gets an OPT_UNSUPPORTED row so that it is reported as "not
 * supported yet" rather than "unknown". Help texts are iolite's own.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/buffer_opts.h"
#include "opt/engine_opts.h"
#include "opt/http_opts.h"
#include "opt/internal.h"
#include "opt/misc_opts.h"
#include "opt/mmap_opts.h"
#include "opt/pace_opts.h"
#include "opt/prio_opts.h"
#include "opt/spr_opts.h"
#include "opt/steady_opts.h"
#include "opt/sys_opts.h"
#include "opt/verify_opts.h"
#include "util/num.h"

#define OFF(field) offsetof(struct job_options, field)

/* --- enum value lists: opt/table_enums.h ------------------------------ */

#include "opt/table_enums.h"

/* --- the table ------------------------------------------------------- */

#define SEC 1000000ULL

const struct opt_def opt_table[] = {
	/* job description */
	{ .name = "name", .type = OPT_STR, .off = OFF(name),
	  .category = OPT_CAT_DESC, .flags = OPT_F_NODUMP,
	  .help = "job name (the section name in job files); reports use "
		  "it, and so does the default file name" },
	{ .name = "description", .type = OPT_STR, .off = OFF(description),
	  .category = OPT_CAT_DESC,
	  .help = "free text printed when the job starts" },

	/* files and sizes */
	{ .name = "filename", .type = OPT_STR, .off = OFF(filename),
	  .category = OPT_CAT_FILE,
	  .help = "file or device to use; several separated by ':' (a "
		  "backslash before a ':' keeps it in the name); default: "
		  "files named after filename_format" },
	{ .name = "directory", .type = OPT_STR, .off = OFF(directory),
	  .category = OPT_CAT_FILE,
	  .help = "directory for the job's files (default: current)" },
	{ .name = "nrfiles", .alias = "nr_files", .type = OPT_UINT,
	  .off = OFF(nrfiles), .def = "1", .min = 1,
	  .category = OPT_CAT_FILE,
	  .help = "number of files the job spreads its I/O over (given "
		  "after a filename= list: its first nrfiles names)" },
	{ .name = "filename_format", .type = OPT_STR,
	  .off = OFF(filename_format), .def = "$jobname.$jobnum.$filenum",
	  .category = OPT_CAT_FILE,
	  .help = "pattern for generated file names; $jobname, $jobnum and "
		  "$filenum are replaced" },
	{ .name = "size", .type = OPT_SIZE_PCT, .off = OFF(size),
	  .category = OPT_CAT_FILE,
	  .help = "bytes of I/O per job, spread over its files, or a "
		  "percentage of the existing file or device; default: the "
		  "whole file or device" },
	{ .name = "filesize", .type = OPT_RANGE, .off = OFF(filesize),
	  .min = 1, .flags = OPT_F_ORDERED, .category = OPT_CAT_FILE,
	  .help = "size of each file (a range picks one at random per "
		  "file); overrides the split of size" },
	{ .name = "offset", .alias = "fileoffset", .type = OPT_SIZE_PCT,
	  .off = OFF(offset), .def = "0", .category = OPT_CAT_FILE,
	  .help = "where in each file I/O starts, in bytes or as a "
		  "percentage of the file" },
	{ .name = "offset_increment", .type = OPT_SIZE_PCT,
	  .off = OFF(offset_increment), .def = "0",
	  .category = OPT_CAT_FILE,
	  .help = "with numjobs, clone N starts at offset + N times this "
		  "(bytes, or a percentage of the file)" },
	{ .name = "offset_align", .type = OPT_SIZE, .off = OFF(offset_align),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "round an offset made from a percentage (offset=N%, "
		  "offset_increment=N%) up to a multiple of this (0: the "
		  "smallest block size)" },
	{ .name = "io_size", .alias = "io_limit", .type = OPT_SIZE_PCT,
	  .off = OFF(io_size), .category = OPT_CAT_FILE,
	  .help = "bytes of I/O to issue within the region set by size "
		  "(wrapping around if larger), or a percentage of that "
		  "region; default: size" },
	{ .name = "number_ios", .type = OPT_U64, .off = OFF(number_ios),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "stop after this many I/Os (0: no limit); a "
		  "time_based job ignores it, as fio" },
	{ .name = "allow_file_create", .type = OPT_BOOL,
	  .off = OFF(allow_file_create), .def = "1",
	  .category = OPT_CAT_FILE,
	  .help = "create files that do not exist yet" },
	{ .name = "allow_mounted_write", .type = OPT_BOOL,
	  .off = OFF(allow_mounted_write), .def = "0",
	  .category = OPT_CAT_FILE,
	  .help = "allow writes and trims to a block device that is "
		  "mounted or in use, or holds a filesystem, partition "
		  "table or RAID signature, and to the image file of a "
		  "mounted loop device" },
	{ .name = "create_on_open", .type = OPT_BOOL,
	  .off = OFF(create_on_open), .def = "0", .category = OPT_CAT_FILE,
	  .help = "create files when the job opens them, not beforehand" },
	{ .name = "overwrite", .type = OPT_BOOL, .off = OFF(overwrite),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "lay files out fully before writing, so writes overwrite "
		  "allocated blocks" },
	{ .name = "create_fsync", .type = OPT_BOOL, .off = OFF(create_fsync),
	  .def = "1", .category = OPT_CAT_FILE,
	  .help = "fsync(2) a file after writing its layout" },
	{ .name = "create_only", .type = OPT_BOOL, .off = OFF(create_only),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "create and lay out the job's files, then stop: no I/O" },
	{ .name = "pre_read", .type = OPT_BOOL, .off = OFF(pre_read),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "read the job's region of each file into the page cache "
		  "before the job starts (and do not drop it: invalidate=0)" },
	{ .name = "file_append", .type = OPT_BOOL, .off = OFF(file_append),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "start at the end of each regular file, as offset= its "
		  "size would" },
	{ .name = "unlink_each_loop", .type = OPT_BOOL,
	  .off = OFF(unlink_each_loop), .def = "0", .category = OPT_CAT_FILE,
	  .help = "delete the job's files between loops (the next loop "
		  "writes them anew)" },
	{ .name = "unique_filename", .type = OPT_BOOL,
	  .off = OFF(unique_filename), .def = "1", .category = OPT_CAT_FILE,
	  .help = "accepted for fio compatibility, no effect: fio prefixes "
		  "file names with a client's address in client/server "
		  "runs, which iolite does not have" },
	{ .name = "opendir", .type = OPT_STR, .off = OFF(opendir),
	  .category = OPT_CAT_FILE,
	  .help = "use every regular file below this directory "
		  "(recursively), in the order the directory lists them; "
		  "nrfiles= takes only the first ones" },
	{ .name = "unlink", .type = OPT_BOOL, .off = OFF(unlink),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "delete the job's files when it finishes" },
	{ .name = "invalidate", .type = OPT_BOOL, .off = OFF(invalidate),
	  .def = "1", .category = OPT_CAT_FILE,
	  .help = "drop the files' pages from the page cache before I/O "
		  "starts" },
	{ .name = "fadvise_hint", .type = OPT_ENUM, .off = OFF(fadvise_hint),
	  .def = "1", .enums = fadvise_hint_enums, .category = OPT_CAT_FILE,
	  .help = "posix_fadvise() of the access pattern at each open "
		  "(random jobs: no readahead)" },

	/* block sizes and I/O pattern */
	{ .name = "bs", .alias = "blocksize", .type = OPT_SIZE_DIR,
	  .off = OFF(bs), .def = "4k", .min = 1, .category = OPT_CAT_IO,
	  .help = "size of each I/O; 'r,w,t' gives reads, writes and trims "
		  "their own, a blank part keeps the default" },
	{ .name = "bsrange", .alias = "blocksize_range",
	  .type = OPT_RANGE_DIR, .off = OFF(bsrange), .min = 1,
	  .category = OPT_CAT_IO,
	  .help = "pick each I/O's size from min-max (multiples of min); "
		  "per direction like bs" },
	{ .name = "bssplit", .type = OPT_CALLBACK, .off = OFF(bssplit),
	  .cb = opt_bssplit_cb, .format = opt_bssplit_fmt,
	  .typestr = "bs/pct[:bs/pct...][,...] (read,write,trim)",
	  .category = OPT_CAT_IO,
	  .help = "weighted mix of block sizes, e.g. 4k/10:64k/90; a blank "
		  "percentage shares what is left; per direction like bs" },
	{ .name = "ba", .alias = "blockalign", .type = OPT_SIZE_DIR,
	  .off = OFF(blockalign), .min = 1, .category = OPT_CAT_IO,
	  .help = "align random offsets to this (default: the block size); "
		  "per direction like bs" },
	{ .name = "rw", .alias = "readwrite", .type = OPT_CALLBACK,
	  .off = OFF(rw), .def = "read", .enums = opt_rw_enums,
	  .cb = opt_rw_cb, .format = opt_rw_fmt, .typestr = "mode[:N]",
	  .category = OPT_CAT_IO,
	  .help = "I/O pattern; ':N' after a random mode takes N I/Os per "
		  "new offset, after a sequential one skips N bytes each I/O" },
	{ .name = "rwmixread", .type = OPT_UINT, .off = OFF(rwmixread),
	  .def = "50", .min = 0, .max = 100, .category = OPT_CAT_IO,
	  .help = "percentage of reads in a mixed pattern" },
	{ .name = "rwmixwrite", .type = OPT_CALLBACK, .off = OFF(rwmixread),
	  .def = "50", .min = 0, .max = 100, .cb = opt_rwmixwrite_cb,
	  .format = opt_rwmixwrite_fmt, .typestr = "integer",
	  .category = OPT_CAT_IO,
	  .help = "percentage of writes in a mixed pattern (sets rwmixread "
		  "to 100 minus this; the later of the two wins)" },

	/* I/O engine and queue */
	{ .name = "ioengine", .type = OPT_STR, .off = OFF(ioengine),
	  .def = "psync", .category = OPT_CAT_ENGINE,
	  .help = "how I/O is issued: psync, sync, pvsync, pvsync2, libaio, "
		  "io_uring, null, ... (see --enghelp)" },
	{ .name = "serialize_overlap", .type = OPT_BOOL,
	  .off = OFF(serialize_overlap), .def = "0", .category = OPT_CAT_IO,
	  .help = "with iodepth above 1: an I/O that overlaps one in flight "
		  "on the same file waits until that one completes" },
	{ .name = "iodepth", .type = OPT_UINT, .off = OFF(iodepth),
	  .def = "1", .min = 1, .category = OPT_CAT_ENGINE,
	  .help = "I/Os kept in flight (asynchronous engines)" },
	{ .name = "direct", .type = OPT_BOOL, .off = OFF(direct), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .help = "bypass the page cache (O_DIRECT)" },
	{ .name = "buffered", .type = OPT_BOOL, .off = OFF(direct),
	  .def = "1", .flags = OPT_F_NEGATE, .category = OPT_CAT_ENGINE,
	  .help = "go through the page cache; the opposite of direct" },
	{ .name = "sync", .type = OPT_ENUM, .off = OFF(sync), .def = "none",
	  .enums = sync_enums, .category = OPT_CAT_ENGINE,
	  .help = "open files for synchronous writes" },
	{ .name = "fsync", .type = OPT_UINT, .off = OFF(fsync), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .help = "fsync after every N writes (0: never)" },
	{ .name = "fdatasync", .type = OPT_UINT, .off = OFF(fdatasync),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .help = "fdatasync after every N writes (0: never)" },
	{ .name = "sync_file_range", .type = OPT_CALLBACK,
	  .off = OFF(sync_file_range), .cb = opt_sfr_cb,
	  .format = opt_sfr_fmt, .typestr = "wait_before,write,wait_after[:N]",
	  .category = OPT_CAT_ENGINE,
	  .help = "sync_file_range(2) with these flags over the range "
		  "written since the last sync, every N writes (default 1)" },
	{ .name = "end_fsync", .type = OPT_BOOL, .off = OFF(end_fsync),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .help = "fsync the files when the job's writing ends" },
	{ .name = "end_syncfs", .type = OPT_BOOL, .off = OFF(end_syncfs),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .help = "fio 3.42: one syncfs(2) of the first file's file system "
		  "when the job's writing ends, instead of end_fsync's "
		  "fsyncs" },
	{ .name = "fsync_on_close", .type = OPT_BOOL,
	  .off = OFF(fsync_on_close), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .help = "fsync each written file when it is closed" },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch",
	  .type = OPT_UINT, .off = OFF(iodepth_batch_submit), .def = "1",
	  .category = OPT_CAT_ENGINE,
	  .help = "I/Os queued before they are submitted in one call "
		  "(0: iodepth)" },
	{ .name = "iodepth_batch_complete_min",
	  .alias = "iodepth_batch_complete", .type = OPT_UINT,
	  .off = OFF(iodepth_batch_complete_min), .def = "1",
	  .category = OPT_CAT_ENGINE,
	  .help = "completions to wait for at least per reap (0: poll)" },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT,
	  .off = OFF(iodepth_batch_complete_max), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .help = "completions to take at most per reap (0: iodepth)" },
	{ .name = "iodepth_low", .type = OPT_UINT, .off = OFF(iodepth_low),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .help = "refill the queue once this few I/Os are in flight "
		  "(0: iodepth)" },
	{ .name = "userspace_reap", .type = OPT_BOOL,
	  .off = OFF(userspace_reap), .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "libaio: read completions from the ring without a syscall" },
	{ .name = "fixedbufs", .type = OPT_BOOL, .off = OFF(fixedbufs),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring: register the I/O buffers once (READ/WRITE_FIXED)" },
	{ .name = "registerfiles", .type = OPT_BOOL,
	  .off = OFF(registerfiles), .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring: register the files once (fixed file table)" },
	{ .name = "sqthread_poll", .type = OPT_BOOL,
	  .off = OFF(sqthread_poll), .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring: a kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = OPT_UINT,
	  .off = OFF(sqthread_poll_cpu), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring: CPU for the submission polling thread "
		  "(unset: any)" },
	{ .name = "force_async", .type = OPT_UINT, .off = OFF(force_async),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring: set IOSQE_ASYNC on every Nth request (0: never)" },
	{ .name = "submit_and_wait", .type = OPT_BOOL,
	  .off = OFF(submit_and_wait), .def = "1", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring (iolite): a batch that fills the queue is "
		  "submitted and waited for in one system call, whose time "
		  "then counts in clat, not slat; 0 submits and waits apart, "
		  "as fio" },
	{ .name = "cmd_type", .type = OPT_ENUM, .off = OFF(cmd_type),
	  .def = "nvme", .enums = cmd_type_enums, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: the kind of passthrough command" },
	{ .name = "readfua", .type = OPT_BOOL, .off = OFF(readfua), .def = "0",
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: reads carry Force Unit Access" },
	{ .name = "writefua", .type = OPT_BOOL, .off = OFF(writefua),
	  .def = "0", .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: writes carry Force Unit Access" },
	{ .name = "write_mode", .type = OPT_ENUM, .off = OFF(write_mode),
	  .def = "write", .enums = write_mode_enums,
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: the command a write issues" },
	{ .name = "num_range", .type = OPT_UINT, .off = OFF(num_range),
	  .def = "1", .max = 256, .category = OPT_CAT_IO,
	  .help = "fio 3.42: ranges per trim (each bs, drawn as the next "
		  "trims would be): above 1, io_uring_cmd sends them in one "
		  "Dataset Management command, one I/O of their summed "
		  "length" },
	{ .name = "deac", .type = OPT_BOOL, .off = OFF(deac), .def = "0",
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: write_mode=zeroes sets Deallocate (the "
		  "device may unmap the blocks)" },
	{ .name = "md_per_io_size", .type = OPT_SIZE,
	  .off = OFF(md_per_io_size), .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: bytes of the separate metadata buffer of "
		  "each I/O (a namespace formatted with metadata)" },
	{ .name = "pi_act", .type = OPT_UINT, .off = OFF(pi_act), .def = "1",
	  .max = 1, .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: 1 sets PRACT (the controller makes and "
		  "strips the protection information), 0 iolite makes it "
		  "for writes and checks it on reads" },
	{ .name = "pi_chk", .type = OPT_CALLBACK, .off = OFF(pi_chk),
	  .cb = opt_pi_chk_cb, .format = opt_pi_chk_fmt,
	  .typestr = "GUARD,REFTAG,APPTAG", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: the protection information fields checked "
		  "(none by default)" },
	{ .name = "apptag", .type = OPT_UINT, .off = OFF(apptag),
	  .def = "0x1234", .max = 0xffff, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: the protection information's application "
		  "tag" },
	{ .name = "apptag_mask", .type = OPT_UINT, .off = OFF(apptag_mask),
	  .def = "0xffff", .max = 0xffff, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring_cmd: the application tag's bits checked" },
	{ .name = "nonvectored", .type = OPT_UINT, .off = OFF(nonvectored),
	  .def = "1", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring: 0 uses READV/WRITEV, otherwise READ/WRITE" },
	{ .name = "hipri", .type = OPT_BOOL, .off = OFF(hipri), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "polled completions (pvsync2: RWF_HIPRI; io_uring)" },
	{ .name = "bs_unaligned", .alias = "blocksize_unaligned",
	  .type = OPT_BOOL, .off = OFF(bs_unaligned), .def = "0",
	  .category = OPT_CAT_IO,
	  .help = "bsrange: any size in the range, not only multiples of "
		  "the smallest (direct=1 then usually fails)" },
	{ .name = "bs_is_seq_rand", .type = OPT_BOOL,
	  .off = OFF(bs_is_seq_rand), .def = "0", .category = OPT_CAT_IO,
	  .help = "read the bs, bsrange and bssplit values as sequential,"
		  "random instead of read,write: random I/Os of every "
		  "direction take the second, sequential ones the first" },
	{ .name = "allrandrepeat", .type = OPT_BOOL,
	  .off = OFF(allrandrepeat), .def = "0", .category = OPT_CAT_RANDOM,
	  .help = "seed every random generator from randseed, so a run "
		  "repeats exactly (offsets too, whatever randrepeat says)" },
	{ .name = "hipri_percentage", .type = OPT_UINT,
	  .off = OFF(hipri_percentage), .def = "100", .max = 100,
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "pvsync2 with hipri: the percentage of reads and writes "
		  "that get RWF_HIPRI, drawn per I/O" },
	{ .name = "uncached", .type = OPT_UINT, .off = OFF(uncached),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "pvsync2, io_uring: non-zero sets RWF_DONTCACHE on "
		  "buffered reads and writes (the page cache drops the pages "
		  "once the I/O is done); refused where the kernel or file "
		  "system lacks it" },
	{ .name = "atomic", .type = OPT_BOOL, .off = OFF(atomic), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .help = "untorn writes: O_DIRECT and RWF_ATOMIC on every write "
		  "(pvsync2, io_uring, libaio); refused unless the file "
		  "system and device take the block size (statx "
		  "STATX_WRITE_ATOMIC)" },
	{ .name = "write_hint", .type = OPT_ENUM, .off = OFF(write_hint),
	  .enums = write_hint_enums, .category = OPT_CAT_FILE,
	  .help = "the expected life time of the data written, given to "
		  "the kernel with fcntl(2) when each file is opened "
		  "(F_SET_RW_HINT; with direct=1 F_SET_FILE_RW_HINT)" },
	{ .name = "nowait", .type = OPT_BOOL, .off = OFF(nowait), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "fail rather than block (RWF_NOWAIT; pvsync2, io_uring, "
		  "libaio)" },

	/* mmap engines (mmap, dev-dax, libpmem) */
	{ .name = "mmap_populate", .type = OPT_BOOL,
	  .off = OFF(mmap_populate), .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "mmap engines: prefault the whole mapping when the file is "
		  "opened (MAP_POPULATE), so the run measures copies rather "
		  "than first-touch page faults" },
	{ .name = "mmap_advise", .type = OPT_ENUM, .off = OFF(mmap_advise),
	  .def = "auto", .enums = mmap_advise_enums,
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "mmap engines: madvise(2) hint for each mapping; an "
		  "explicit hint the kernel refuses is an error" },
	{ .name = "mmap_copy", .type = OPT_CALLBACK, .off = OFF(mmap_copy),
	  .def = "auto", .enums = mmap_copy_enums, .cb = mmap_copy_cb,
	  .format = mmap_copy_fmt, .typestr = "str",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "mmap engines: the routine that copies between the mapping "
		  "and the I/O buffers, fixed rather than whatever memcpy the "
		  "C library picks; refused where the CPU lacks it" },
	{ .name = "pmem_flush", .type = OPT_CALLBACK, .off = OFF(pmem_flush),
	  .def = "default", .enums = pmem_flush_enums, .cb = pmem_flush_cb,
	  .format = pmem_flush_fmt, .typestr = "str",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "mmap engines: how each write reaches the persistence "
		  "domain of a DAX target, then a store fence; refused where "
		  "the CPU lacks it" },

#include "opt/engine_rows.h"

	/* time and repetition */
	{ .name = "runtime", .alias = "timeout", .type = OPT_TIME,
	  .off = OFF(runtime_us), .def = "0", .unit_us = SEC,
	  .category = OPT_CAT_TIME,
	  .help = "stop the job after this long (0: no limit; seconds "
		  "without a unit)" },
	{ .name = "time_based", .type = OPT_BOOL, .off = OFF(time_based),
	  .def = "0", .category = OPT_CAT_TIME,
	  .help = "run for the whole runtime, going over the region again "
		  "as often as needed" },
	{ .name = "ramp_time", .type = OPT_TIME, .off = OFF(ramp_time_us),
	  .def = "0", .unit_us = SEC, .category = OPT_CAT_TIME,
	  .help = "run this long before measuring (seconds without a unit)" },
	{ .name = "ramp_size", .type = OPT_SIZE, .off = OFF(ramp_size),
	  .min = 1, .category = OPT_CAT_TIME,
	  .help = "fio 3.42: do this many bytes of I/O before measuring "
		  "(with group_reporting, the group's jobs together); "
		  "runtime counts from then" },
	{ .name = "job_start_clock_id", .type = OPT_UINT,
	  .off = OFF(job_start_clock_id), .def = "0", .max = 11,
	  .category = OPT_CAT_TIME,
	  .help = "fio 3.42: the clock (clock_gettime's id: 0 realtime, 1 "
		  "monotonic, ...) of the JSON report's job_start, which "
		  "is printed when this is set" },
	{ .name = "startdelay", .type = OPT_CALLBACK,
	  .off = OFF(startdelay_us), .def = "0", .unit_us = SEC,
	  .cb = opt_startdelay_cb, .format = opt_startdelay_fmt,
	  .typestr = "time[-time]",
	  .category = OPT_CAT_TIME,
	  .help = "wait this long before starting the job (seconds without "
		  "a unit); a range lo-hi: each instance draws its wait "
		  "from it" },
	{ .name = "loops", .type = OPT_UINT, .off = OFF(loops), .def = "1",
	  .min = 1, .category = OPT_CAT_TIME,
	  .help = "run the workload this many times" },

	/* I/O logs and replay (workload/iolog.c, run/iolog_write.c) */
	{ .name = "write_iolog", .type = OPT_STR, .off = OFF(write_iolog),
	  .category = OPT_CAT_IO,
	  .help = "append every I/O issued to this file, in fio's iolog "
		  "version 3 format (replays with read_iolog)" },
	{ .name = "read_iolog", .type = OPT_STR, .off = OFF(read_iolog),
	  .category = OPT_CAT_IO,
	  .help = "replay the I/O of a fio iolog (version 2 or 3) instead of "
		  "the workload; several separated by ':' go to numjobs "
		  "clones in turn" },
	{ .name = "read_iolog_chunked", .type = OPT_BOOL,
	  .off = OFF(read_iolog_chunked), .def = "0", .category = OPT_CAT_IO,
	  .help = "read the log a block at a time while replaying, not all "
		  "at the start (bounded memory for long logs)" },
	{ .name = "replay_no_stall", .type = OPT_BOOL,
	  .off = OFF(replay_no_stall), .def = "0", .category = OPT_CAT_IO,
	  .help = "replay as fast as possible, ignoring the log's times "
		  "(same order)" },
	{ .name = "replay_redirect", .type = OPT_STR,
	  .off = OFF(replay_redirect), .category = OPT_CAT_IO,
	  .help = "send all of the log's I/O to this file or device instead "
		  "of the files it names" },
	{ .name = "replay_align", .type = OPT_SIZE, .off = OFF(replay_align),
	  .def = "0", .category = OPT_CAT_IO,
	  .help = "align replayed offsets down to this power of 2" },
	{ .name = "replay_scale", .type = OPT_SIZE, .off = OFF(replay_scale),
	  .def = "1", .min = 1, .category = OPT_CAT_IO,
	  .help = "divide replayed offsets by this" },
	{ .name = "replay_time_scale", .type = OPT_UINT,
	  .off = OFF(replay_time_scale), .def = "100", .min = 1,
	  .category = OPT_CAT_IO,
	  .help = "replay at this percentage of the logged rate (200: twice "
		  "as fast)" },
	{ .name = "replay_skip", .type = OPT_CALLBACK,
	  .off = OFF(replay_skip), .cb = opt_replay_skip_cb,
	  .format = opt_replay_skip_fmt, .typestr = "read,write,trim,sync",
	  .category = OPT_CAT_IO,
	  .help = "leave these logged actions out of the replay" },

	/* rate, think time and flows (run/pace.c, run/flow.c) */
	{ .name = "rate", .type = OPT_SIZE_DIR, .off = OFF(rate), .def = "0",
	  .category = OPT_CAT_TIME,
	  .help = "cap bandwidth at this many bytes/s; per direction like "
		  "bs (rate=,500k caps only writes)" },
	{ .name = "rate_iops", .type = OPT_SIZE_DIR, .off = OFF(rate_iops),
	  .def = "0", .category = OPT_CAT_TIME,
	  .help = "cap at this many I/Os per second (counted in the smallest "
		  "block size); per direction like bs" },
	{ .name = "rate_min", .alias = "ratemin", .type = OPT_SIZE_DIR,
	  .off = OFF(rate_min), .def = "0", .category = OPT_CAT_TIME,
	  .help = "fail the job when a rate_cycle moves fewer bytes/s than "
		  "this (after the first 2 seconds); per direction" },
	{ .name = "rate_iops_min", .type = OPT_SIZE_DIR,
	  .off = OFF(rate_iops_min), .def = "0", .category = OPT_CAT_TIME,
	  .help = "fail the job when a rate_cycle completes fewer I/Os per "
		  "second than this; per direction" },
	{ .name = "rate_process", .type = OPT_ENUM, .off = OFF(rate_process),
	  .def = "linear", .enums = rate_process_enums,
	  .category = OPT_CAT_TIME,
	  .help = "how a rated job spaces its I/Os" },
	{ .name = "rate_cycle", .alias = "ratecycle", .type = OPT_UINT,
	  .off = OFF(rate_cycle_ms), .def = "1000", .min = 1,
	  .category = OPT_CAT_TIME,
	  .help = "window of rate_min and rate_iops_min, in milliseconds" },
	{ .name = "rate_ignore_thinktime", .type = OPT_BOOL,
	  .off = OFF(rate_ignore_thinktime), .def = "0",
	  .category = OPT_CAT_TIME,
	  .help = "after thinking, go on at the rate instead of catching up "
		  "on the I/Os the think time held back" },
	{ .name = "thinktime", .type = OPT_TIME, .off = OFF(thinktime_us),
	  .def = "0", .unit_us = 1, .category = OPT_CAT_TIME,
	  .help = "pause this long after I/O completes, before issuing "
		  "more (microseconds without a unit)" },
	{ .name = "thinktime_spin", .type = OPT_TIME,
	  .off = OFF(thinktime_spin_us), .def = "0", .unit_us = 1,
	  .category = OPT_CAT_TIME,
	  .help = "spend this much of each think time busy on the CPU, "
		  "sleep the rest (microseconds without a unit)" },
	{ .name = "thinkcycles", .type = OPT_UINT, .off = OFF(thinkcycles),
	  .def = "0", .category = OPT_CAT_TIME,
	  .help = "fio 3.42: before each I/O, spin this many CPU pause "
		  "instructions (x86), as fio's busy wait between requests" },
	{ .name = "thinktime_blocks", .type = OPT_UINT,
	  .off = OFF(thinktime_blocks), .def = "1",
	  .category = OPT_CAT_TIME,
	  .help = "think once every this many I/Os (0 is 1); in-flight I/O "
		  "completes before each think" },
	{ .name = "thinktime_blocks_type", .type = OPT_ENUM,
	  .off = OFF(thinktime_blocks_type), .def = "complete",
	  .enums = thinktime_type_enums, .category = OPT_CAT_TIME,
	  .help = "whether thinktime_blocks counts completed or issued I/Os" },
	{ .name = "thinktime_iotime", .type = OPT_TIME,
	  .off = OFF(thinktime_iotime_us), .def = "0", .unit_us = SEC,
	  .category = OPT_CAT_TIME,
	  .help = "also think after this long of I/O, whichever of this and "
		  "thinktime_blocks comes first (seconds without a unit)" },
	{ .name = "flow_id", .type = OPT_UINT, .off = OFF(flow_id),
	  .def = "0", .category = OPT_CAT_TIME,
	  .help = "jobs with the same flow_id (and a flow weight) share a "
		  "flow" },
	{ .name = "flow", .type = OPT_UINT, .off = OFF(flow), .def = "0",
	  .min = 0, .max = 1000, .category = OPT_CAT_TIME,
	  .help = "weight in the flow: running jobs of a flow issue I/Os in "
		  "the ratio of their weights (0: not in a flow)" },
	{ .name = "flow_sleep", .type = OPT_UINT, .off = OFF(flow_sleep_us),
	  .def = "0", .category = OPT_CAT_TIME,
	  .help = "microseconds to sleep when the flow holds the job back "
		  "(0: yield the CPU and look again)" },

	/* jobs, groups and ordering */
	{ .name = "numjobs", .type = OPT_UINT, .off = OFF(numjobs),
	  .def = "1", .min = 1, .category = OPT_CAT_GROUP,
	  .help = "run this many copies of the job" },
	{ .name = "thread", .type = OPT_BOOL, .off = OFF(thread), .def = "0",
	  .category = OPT_CAT_GROUP,
	  .help = "accepted for fio compatibility: iolite always runs jobs "
		  "as threads" },
	{ .name = "unified_rw_reporting", .type = OPT_ENUM,
	  .off = OFF(unified_rw_reporting), .def = "none",
	  .enums = unified_rw_enums, .category = OPT_CAT_GROUP,
	  .help = "report reads, writes and trims apart, summed as "
		  "'mixed', or both" },
	{ .name = "group_reporting", .type = OPT_BOOL,
	  .off = OFF(group_reporting), .def = "0",
	  .category = OPT_CAT_GROUP,
	  .help = "report each group as a whole instead of job by job" },
	{ .name = "stonewall", .alias = "wait_for_previous",
	  .type = OPT_BOOL, .off = OFF(stonewall), .def = "0",
	  .category = OPT_CAT_GROUP,
	  .help = "start only after all earlier jobs have finished; also "
		  "starts a new group" },
	{ .name = "new_group", .type = OPT_BOOL, .off = OFF(new_group),
	  .def = "0", .category = OPT_CAT_GROUP,
	  .help = "start a new reporting group with this job" },
	{ .name = "wait_for", .type = OPT_STR, .off = OFF(wait_for),
	  .category = OPT_CAT_GROUP,
	  .help = "start only after the named earlier job has finished" },

	/* randomness */
	{ .name = "norandommap", .type = OPT_BOOL, .off = OFF(norandommap),
	  .def = "0", .category = OPT_CAT_RANDOM,
	  .help = "random offsets may repeat: no map of blocks done" },
	{ .name = "softrandommap", .type = OPT_BOOL,
	  .off = OFF(softrandommap), .def = "0", .category = OPT_CAT_RANDOM,
	  .help = "when the random map of a job with several block sizes "
		  "cannot be allocated, run without one instead of failing" },
	{ .name = "randrepeat", .type = OPT_BOOL, .off = OFF(randrepeat),
	  .def = "1", .category = OPT_CAT_RANDOM,
	  .help = "same random sequence on every run" },
	{ .name = "randseed", .type = OPT_U64, .off = OFF(randseed),
	  .def = "0x89", .category = OPT_CAT_RANDOM,
	  .help = "seed for the random generators" },
	{ .name = "random_generator", .type = OPT_ENUM,
	  .off = OFF(random_generator), .def = "tausworthe",
	  .enums = randgen_enums, .category = OPT_CAT_RANDOM,
	  .help = "pseudo-random generator for offsets" },
	{ .name = "sprandom", .type = OPT_BOOL, .off = OFF(sprandom),
	  .def = "0", .category = OPT_CAT_RANDOM,
	  .help = "SSD preconditioning (fio 3.42): regions of writes, each "
		  "rewriting a share of the one before, so that the whole "
		  "physical capacity is written once with a steady state's "
		  "spread of stale blocks; rw=randwrite or randrw, one file" },
	{ .name = "spr_op", .type = OPT_CALLBACK, .def = "0.15",
	  .cb = spr_op_cb, .format = spr_op_fmt, .typestr = "float",
	  .category = OPT_CAT_RANDOM,
	  .help = "sprandom: the drive's over-provisioning ratio, 0 <= F < "
		  "1: its physical capacity is size x (1 + F)" },
	{ .name = "spr_num_regions", .type = OPT_UINT,
	  .off = OFF(spr_num_regions), .def = "100", .min = 1,
	  .category = OPT_CAT_RANDOM,
	  .help = "sprandom: the regions the physical capacity is split "
		  "into (memory: two regions' worth of block numbers)" },
	{ .name = "spr_cs", .type = OPT_SIZE, .off = OFF(spr_cs), .def = "0",
	  .category = OPT_CAT_RANDOM,
	  .help = "sprandom: the drive's write cache in bytes; non-zero "
		  "moves each region's rewrites of the region before to its "
		  "end, and must be below a region's size" },
	{ .name = "active_segments", .type = OPT_UINT, .off = OFF(act_segs),
	  .def = "0", .max = 1u << 20, .category = OPT_CAT_RANDOM,
	  .help = "(iolite; no fio option) random offsets only in this many "
		  "segments of active_segment_size bytes, placed at random "
		  "over the region, no two touching (SNIA PTS-C's "
		  "ActiveRange segmentation); norandommap, random offsets" },
	{ .name = "active_segment_size", .type = OPT_SIZE,
	  .off = OFF(act_seg_size), .def = "0", .category = OPT_CAT_RANDOM,
	  .help = "(iolite) active_segments: each segment's size, a "
		  "multiple of every block size" },
	{ .name = "random_distribution", .type = OPT_CALLBACK,
	  .off = OFF(random_distribution), .def = "random",
	  .enums = opt_rdist_enums, .cb = opt_rdist_cb, .format = opt_rdist_fmt,
	  .typestr = "name[:value[:centre]]", .category = OPT_CAT_RANDOM,
	  .help = "how random offsets are spread over the region; zipf, "
		  "pareto and normal take a centre from 0 to 1 (zipf:1.2:0.25: "
		  "the hottest block a quarter into the region)" },
	{ .name = "percentage_random", .type = OPT_CALLBACK,
	  .off = OFF(perc_rand), .def = "100", .cb = opt_perc_rand_cb,
	  .format = opt_perc_rand_fmt, .typestr = "int[,int][,int]",
	  .category = OPT_CAT_RANDOM,
	  .help = "random jobs: percentage of I/Os at a random offset, the "
		  "rest continuing sequentially; per direction like bs" },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .off = OFF(rw_sequencer),
	  .def = "sequential", .enums = rw_seq_enums,
	  .category = OPT_CAT_RANDOM,
	  .help = "with rw=randread:N, whether the N-1 I/Os after each "
		  "random one continue from it or repeat its offset" },

	/* zones (strided) */
	{ .name = "zonemode", .type = OPT_ENUM, .off = OFF(zonemode),
	  .def = "none", .enums = zonemode_enums, .category = OPT_CAT_IO,
	  .help = "how zonerange, zonesize and zoneskip split the region" },
	{ .name = "zonerange", .type = OPT_SIZE, .off = OFF(zonerange),
	  .def = "0", .category = OPT_CAT_IO,
	  .help = "strided: size of a zone; I/O starts inside it (default: "
		  "zonesize)" },
	{ .name = "zonesize", .type = OPT_SIZE, .off = OFF(zonesize),
	  .def = "0", .category = OPT_CAT_IO,
	  .help = "strided: bytes of I/O in a zone before moving to the next "
		  "(more than zonerange goes over the zone again); counted "
		  "over the job's files, as fio" },
	{ .name = "zoneskip", .type = OPT_SIZE, .off = OFF(zoneskip),
	  .def = "0", .category = OPT_CAT_IO,
	  .help = "strided: bytes skipped between one zone and the next" },
	{ .name = "zonecapacity", .type = OPT_SIZE, .off = OFF(zonecapacity),
	  .def = "0", .category = OPT_CAT_IO,
	  .help = "zbd: the capacity of zones emulated on other devices; a "
		  "zoned block device's own capacity is used instead, as "
		  "fio" },
	{ .name = "max_open_zones", .type = OPT_UINT,
	  .off = OFF(max_open_zones), .def = "0", .category = OPT_CAT_IO,
	  .help = "zbd: zones written at once on a device (0: the device's "
		  "queue/max_open_zones); writes to another zone go to an "
		  "open one" },
	{ .name = "job_max_open_zones", .type = OPT_UINT,
	  .off = OFF(job_max_open_zones), .def = "0",
	  .category = OPT_CAT_IO,
	  .help = "zbd: zones the job writes at once (0: no limit of its "
		  "own)" },
	{ .name = "ignore_zone_limits", .type = OPT_BOOL,
	  .off = OFF(ignore_zone_limits), .def = "0", .category = OPT_CAT_IO,
	  .help = "zbd: the device's open-zone limit neither caps nor "
		  "defaults max_open_zones" },
	{ .name = "zone_reset_threshold", .type = OPT_CALLBACK,
	  .off = OFF(zone_reset_threshold), .def = "0", .cb = ratio_cb,
	  .format = ratio_fmt, .typestr = "float (0..1)",
	  .category = OPT_CAT_IO,
	  .help = "zbd: the share of the region with data from which "
		  "zone_reset_frequency resets zones" },
	{ .name = "zone_reset_frequency", .type = OPT_CALLBACK,
	  .off = OFF(zone_reset_frequency), .def = "0", .cb = ratio_cb,
	  .format = ratio_fmt, .typestr = "float (0..1)",
	  .category = OPT_CAT_IO,
	  .help = "zbd: past zone_reset_threshold, a write's zone is reset "
		  "first every 1/this writes (0: never)" },
	{ .name = "read_beyond_wp", .type = OPT_BOOL,
	  .off = OFF(read_beyond_wp), .def = "0", .category = OPT_CAT_IO,
	  .help = "zbd: reads may go past a zone's write pointer" },
	{ .name = "write_zone_remainder", .type = OPT_BOOL,
	  .off = OFF(write_zone_remainder), .def = "0",
	  .category = OPT_CAT_IO,
	  .help = "fio 3.42: zbd: a zone's end too small for a block is "
		  "written with a shorter write (norandommap is set)" },
	{ .name = "recover_zbd_write_error", .type = OPT_BOOL,
	  .off = OFF(recover_zbd_write_error), .def = "0",
	  .category = OPT_CAT_IO,
	  .help = "fio 3.42: zbd, with continue_on_error: after a failed "
		  "write its zone's write pointer is read from the device "
		  "again, and the writes go on from there" },

	/* several files, and how they are laid out */
	{ .name = "file_service_type", .type = OPT_CALLBACK,
	  .off = OFF(file_service_type), .def = "roundrobin",
	  .enums = opt_fsrv_enums, .cb = opt_fsrv_cb, .format = opt_fsrv_fmt,
	  .typestr = "name[:N or :value]", .category = OPT_CAT_FILE,
	  .help = "which of the job's files gets the next I/O; ':N' after "
		  "roundrobin or random switches every N I/Os, ':value' "
		  "skews zipf, pareto and normal" },
	{ .name = "openfiles", .type = OPT_UINT, .off = OFF(openfiles),
	  .def = "0", .category = OPT_CAT_FILE,
	  .help = "files kept open at once; the next opens when one is done "
		  "(0: all of them)" },
	{ .name = "fallocate", .type = OPT_ENUM, .off = OFF(fallocate),
	  .def = "native", .enums = fallocate_enums,
	  .category = OPT_CAT_FILE,
	  .help = "how new files of write-only jobs are allocated before "
		  "the run (files a job reads are written out in full)" },
	{ .name = "fill_device", .alias = "fill_fs", .type = OPT_BOOL,
	  .off = OFF(fill_device), .def = "0", .category = OPT_CAT_FILE,
	  .help = "without size=, use all the free space of the filesystem "
		  "(writes end at ENOSPC)" },
	{ .name = "create_serialize", .type = OPT_BOOL,
	  .off = OFF(create_serialize), .def = "1",
	  .category = OPT_CAT_FILE,
	  .help = "lay out the jobs' files one job after the other; 0 lays "
		  "out each job's files in parallel" },
	{ .name = "lockfile", .type = OPT_ENUM, .off = OFF(lockfile),
	  .def = "none", .enums = lockfile_enums, .category = OPT_CAT_FILE,
	  .help = "lock a file shared between jobs around each I/O" },

	/* buffer contents */
	{ .name = "zero_buffers", .type = OPT_BOOL, .off = OFF(zero_buffers),
	  .def = "0", .category = OPT_CAT_BUFFER,
	  .help = "fill write buffers with zeroes instead of random data" },
	{ .name = "refill_buffers", .type = OPT_BOOL,
	  .off = OFF(refill_buffers), .def = "0", .cb = refill_buffers_cb,
	  .category = OPT_CAT_BUFFER,
	  .help = "new buffer contents for every write (else a write sends "
		  "what the buffer holds, scrambled)" },
	{ .name = "scramble_buffers", .type = OPT_BOOL,
	  .off = OFF(scramble_buffers), .def = "1",
	  .category = OPT_CAT_BUFFER,
	  .help = "change a little of each write buffer so blocks do not "
		  "deduplicate" },
	{ .name = "buffer_pattern", .type = OPT_CALLBACK,
	  .cb = buffer_pattern_cb, .format = buffer_pattern_fmt,
	  .category = OPT_CAT_BUFFER,
	  .typestr = "pattern (0x.., number, \"text\", 'file')",
	  .help = "fill write buffers with these bytes, repeated; turns "
		  "scramble_buffers and zero_buffers off, refill_buffers on "
		  "when the job reads or compresses (a later option wins)" },
	{ .name = "buffer_compress_percentage", .type = OPT_UINT,
	  .off = OFF(buffer_compress_percentage), .def = "0", .min = 0,
	  .max = 100, .category = OPT_CAT_BUFFER,
	  .help = "make written data compress by about this percentage: "
		  "each chunk is random, then that share of zeroes (or "
		  "buffer_pattern); refills buffers for every write unless "
		  "refill_buffers is given" },
	{ .name = "buffer_compress_chunk", .type = OPT_SIZE,
	  .off = OFF(buffer_compress_chunk), .def = "512",
	  .category = OPT_CAT_BUFFER,
	  .help = "size of the random-then-fixed regions of "
		  "buffer_compress_percentage, at most the smallest write "
		  "size (0: that size)" },
	{ .name = "dedupe_percentage", .type = OPT_CALLBACK,
	  .off = OFF(dedupe_percentage), .min = 0, .max = 100,
	  .cb = dedupe_percentage_cb, .format = dedupe_percentage_fmt,
	  .typestr = "integer (default 0)", .category = OPT_CAT_BUFFER,
	  .help = "this percentage of writes repeat an earlier block; "
		  "sets refill_buffers (a later refill_buffers=0 wins)" },
	{ .name = "dedupe_mode", .type = OPT_ENUM, .off = OFF(dedupe_mode),
	  .def = "repeat", .enums = dedupe_mode_enums,
	  .category = OPT_CAT_BUFFER,
	  .help = "which earlier block a deduplicated write repeats" },
	{ .name = "dedupe_global", .type = OPT_BOOL, .off = OFF(dedupe_global),
	  .def = "0", .category = OPT_CAT_BUFFER,
	  .help = "dedupe_mode=working_set: the working sets of the jobs "
		  "with this set take an equal share from each such job's "
		  "first blocks" },
	{ .name = "dedupe_working_set_percentage", .type = OPT_UINT,
	  .off = OFF(dedupe_working_set_percentage), .def = "5", .min = 0,
	  .max = 100, .category = OPT_CAT_BUFFER,
	  .help = "dedupe_mode=working_set: the working set's share of "
		  "size, in blocks" },

	/* CPUs */
	{ .name = "cpus_allowed", .type = OPT_STR, .off = OFF(cpus_allowed),
	  .category = OPT_CAT_CPU,
	  .help = "CPUs the job may run on, e.g. 0,2,4-7" },
	{ .name = "cpus_allowed_policy", .type = OPT_ENUM,
	  .off = OFF(cpus_allowed_policy), .def = "shared",
	  .enums = cpus_policy_enums, .category = OPT_CAT_CPU,
	  .help = "how numjobs copies share the allowed CPUs" },
	{ .name = "numa_cpu_nodes", .type = OPT_STR,
	  .off = OFF(numa_cpu_nodes), .category = OPT_CAT_CPU,
	  .help = "run on the CPUs of these NUMA nodes, e.g. 0 or 0-1 or all, "
		  "or auto: the node of the job's device "
		  "(with cpus_allowed: the CPUs in both)" },
	{ .name = "numa_mem_policy", .type = OPT_STR,
	  .off = OFF(numa_mem_policy), .category = OPT_CAT_CPU,
	  .help = "the job's memory policy: default, local, prefer:NODE, "
		  "bind:NODES, interleave:NODES, or auto: bind to the node "
		  "of the job's device" },
	{ .name = "cpumask", .type = OPT_U64, .off = OFF(cpumask),
	  .category = OPT_CAT_CPU,
	  .help = "CPUs the job may run on, as a bit mask (bit N: CPU N)" },

	/* the job's process, memory and reports (opt/sys_opts.c) */
	{ .name = "uid", .type = OPT_UINT, .off = OFF(uid),
	  .category = OPT_CAT_PROC,
	  .help = "run the job's thread as this user (set before it opens "
		  "its files; exec_prerun and exec_postrun run as it too)" },
	{ .name = "gid", .type = OPT_UINT, .off = OFF(gid),
	  .category = OPT_CAT_PROC,
	  .help = "run the job's thread with this group id (as uid)" },
	{ .name = "nice", .type = OPT_CALLBACK, .off = OFF(nice), .def = "0",
	  .cb = sys_nice_cb, .format = sys_nice_fmt,
	  .typestr = "integer (-20..19)", .category = OPT_CAT_PROC,
	  .help = "add this to the nice value of the job's thread" },
	{ .name = "ioscheduler", .type = OPT_STR, .off = OFF(ioscheduler),
	  .category = OPT_CAT_PROC,
	  .help = "switch the devices behind the job's files to this I/O "
		  "scheduler when the job starts (left so afterwards, as "
		  "fio)" },
	{ .name = "cgroup", .type = OPT_STR, .off = OFF(cgroup),
	  .category = OPT_CAT_PROC,
	  .help = "run the job's thread in this blkio cgroup (cgroup v1), "
		  "made when missing and removed after the run" },
	{ .name = "cgroup_weight", .type = OPT_UINT,
	  .off = OFF(cgroup_weight), .min = 100, .max = 1000,
	  .category = OPT_CAT_PROC,
	  .help = "the cgroup's I/O weight (blkio.weight, or blkio.bfq.weight "
		  "where that is the kernel's)" },
	{ .name = "cgroup_nodelete", .type = OPT_BOOL,
	  .off = OFF(cgroup_nodelete), .def = "0", .category = OPT_CAT_PROC,
	  .help = "leave the cgroups the run made in place" },
	{ .name = "exec_prerun", .type = OPT_STR, .off = OFF(exec_prerun),
	  .category = OPT_CAT_PROC,
	  .help = "shell command run before the job's I/O starts, its output "
		  "in NAME.prerun.txt; a failure fails the job" },
	{ .name = "exec_postrun", .type = OPT_STR, .off = OFF(exec_postrun),
	  .category = OPT_CAT_PROC,
	  .help = "shell command run after the job's I/O, its output in "
		  "NAME.postrun.txt" },
	{ .name = "mem", .alias = "iomem", .type = OPT_STR, .off = OFF(mem),
	  .def = "malloc", .enums = sys_mem_enums, .category = OPT_CAT_PROC,
	  .help = "memory of the I/O buffers: type[:file]" },
	{ .name = "iomem_align", .alias = "mem_align", .type = OPT_SIZE,
	  .off = OFF(iomem_align), .def = "0", .category = OPT_CAT_PROC,
	  .help = "start the I/O buffers this many bytes past a page "
		  "boundary, one block apart" },
	{ .name = "hugepage-size", .type = OPT_SIZE,
	  .off = OFF(hugepage_size), .def = "2m", .category = OPT_CAT_PROC,
	  .help = "huge page size: shmhuge and mmaphuge buffers are a "
		  "multiple of it" },
	{ .name = "lockmem", .type = OPT_SIZE, .off = OFF(lockmem),
	  .def = "0", .category = OPT_CAT_PROC,
	  .help = "pin this much memory (mlock) while the job runs, to leave "
		  "the system less" },
	{ .name = "thp", .type = OPT_UINT, .off = OFF(thp), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "mmap engine: ask for transparent huge pages on the "
		  "mapping (MADV_HUGEPAGE; a refusal is ignored, as fio)" },
	{ .name = "disk_util", .type = OPT_BOOL, .off = OFF(no_disk_util),
	  .def = "1", .flags = OPT_F_NEGATE, .category = OPT_CAT_STAT,
	  .help = "report the disk statistics of the devices behind the "
		  "job's files" },
	{ .name = "stats", .type = OPT_BOOL, .off = OFF(no_stats),
	  .def = "1", .flags = OPT_F_NEGATE, .category = OPT_CAT_STAT,
	  .help = "0: run the job, but leave it out of the reports and its "
		  "group's figures" },
	{ .name = "log_unix_epoch", .type = OPT_BOOL,
	  .off = OFF(log_unix_epoch), .def = "0", .category = OPT_CAT_STAT,
	  .help = "log times in ms since the epoch of "
		  "log_alternate_epoch_clock_id (Unix time by default), not "
		  "since the job's start" },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL,
	  .off = OFF(log_alternate_epoch), .def = "0",
	  .category = OPT_CAT_STAT,
	  .help = "same as log_unix_epoch" },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_UINT,
	  .off = OFF(log_epoch_clock), .def = "0", .category = OPT_CAT_STAT,
	  .help = "the clock_gettime(2) clock of the log epochs (0 "
		  "CLOCK_REALTIME, 1 CLOCK_MONOTONIC, ...)" },
	{ .name = "log_compression_cpus", .type = OPT_STR,
	  .off = OFF(log_compression_cpus), .category = OPT_CAT_STAT,
	  .help = "CPUs the log writer threads run on (they format and "
		  "compress the logs), e.g. 0,2-3" },
	{ .name = "gtod_cpu", .type = OPT_UINT, .off = OFF(gtod_cpu),
	  .category = OPT_CAT_STAT,
	  .help = "accepted for fio compatibility, no effect: iolite has no "
		  "time-keeping thread; each job reads the TSC (or "
		  "clock_gettime) itself, a few times per batch" },
	{ .name = "write_barrier", .type = OPT_UINT,
	  .off = OFF(write_barrier), .def = "0", .category = OPT_CAT_ENGINE,
	  .help = "accepted for fio compatibility, no effect: Linux has no "
		  "barrier writes, and fio 3.33's engines here ignore it" },

	/*
	 * fio's tiobench profile options: fio takes them in any job and they
	 * change nothing without profile=tiobench (which iolite refuses), so
	 * job files such as fio's steadystate example carry "threads=1". Kept
	 * for the dump; run/checks.c says in the report that they do nothing.
	 */
	{ .name = "threads", .type = OPT_UINT, .off = OFF(tb_threads),
	  .category = OPT_CAT_DESC,
	  .help = "fio's tiobench profile: its thread count (no effect "
		  "without profile=tiobench, which iolite does not run)" },
	{ .name = "block", .type = OPT_UINT, .off = OFF(tb_block),
	  .category = OPT_CAT_DESC,
	  .help = "fio's tiobench profile: its block size (no effect "
		  "without profile=tiobench, which iolite does not run)" },
	{ .name = "numruns", .type = OPT_UINT, .off = OFF(tb_numruns),
	  .category = OPT_CAT_DESC,
	  .help = "fio's tiobench profile: its number of runs (no effect "
		  "without profile=tiobench, which iolite does not run)" },
	{ .name = "dir", .type = OPT_STR, .off = OFF(tb_dir),
	  .category = OPT_CAT_DESC,
	  .help = "fio's tiobench profile: its directory (no effect "
		  "without profile=tiobench, which iolite does not run)" },

	/* statistics and clocks */
	{ .name = "gtod_reduce", .type = OPT_BOOL, .off = OFF(gtod_reduce),
	  .def = "0", .cb = opt_gtod_reduce_cb, .category = OPT_CAT_STAT,
	  .help = "read the clock as little as possible: sets disable_lat, "
		  "disable_clat, disable_slat and disable_bw_measurement "
		  "and turns all percentiles off (options after it may turn "
		  "one back on); an engine that completes inline (psync, "
		  "mmap, null, ...) then reads it every few I/Os, at most 1 "
		  "in 256, unless a log, rate, think time, sync or "
		  "write_iolog needs each I/O's time" },
	{ .name = "disable_lat", .type = OPT_BOOL, .off = OFF(disable_lat),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "no total latency statistics" },
	{ .name = "disable_clat", .type = OPT_BOOL, .off = OFF(disable_clat),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "no completion latency statistics" },
	{ .name = "disable_slat", .type = OPT_BOOL, .off = OFF(disable_slat),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "no submission latency statistics" },
	{ .name = "disable_bw_measurement", .alias = "disable_bw",
	  .type = OPT_BOOL, .off = OFF(disable_bw), .def = "0",
	  .category = OPT_CAT_STAT,
	  .help = "no bandwidth and IOPS samples" },
	{ .name = "clocksource", .type = OPT_ENUM, .off = OFF(clocksource),
	  .enums = clocksource_enums, .category = OPT_CAT_STAT,
	  .help = "clock for timing (default: the CPU's when it is "
		  "reliable)" },
	{ .name = "clat_percentiles", .type = OPT_BOOL,
	  .off = OFF(clat_percentiles), .def = "1",
	  .category = OPT_CAT_STAT,
	  .help = "report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL,
	  .off = OFF(lat_percentiles), .def = "0", .category = OPT_CAT_STAT,
	  .help = "report total latency (submission + completion) "
		  "percentiles" },
	{ .name = "slat_percentiles", .type = OPT_BOOL,
	  .off = OFF(slat_percentiles), .def = "0",
	  .category = OPT_CAT_STAT,
	  .help = "report submission latency percentiles (none for "
		  "synchronous engines, which have no submission latency)" },
	{ .name = "percentile_list", .type = OPT_CALLBACK,
	  .off = OFF(percentile_list),
	  .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	  .cb = opt_percentile_list_cb, .format = opt_percentile_list_fmt,
	  .typestr = "float[:float...]", .category = OPT_CAT_STAT,
	  .help = "which latency percentiles to report, each in (0, 100], "
		  "':'-separated; sorted, at most 20 (more are ignored), a 0 "
		  "ends the list" },
	{ .name = "significant_figures", .type = OPT_UINT,
	  .off = OFF(significant_figures), .def = "4", .min = 1, .max = 10,
	  .category = OPT_CAT_STAT,
	  .help = "digits of IOPS, bandwidth and sizes in the normal "
		  "report" },
	{ .name = "bwavgtime", .type = OPT_UINT, .off = OFF(bwavgtime_ms),
	  .def = "500", .category = OPT_CAT_STAT,
	  .help = "bandwidth sample window in milliseconds" },
	{ .name = "iopsavgtime", .type = OPT_UINT,
	  .off = OFF(iopsavgtime_ms), .def = "500", .category = OPT_CAT_STAT,
	  .help = "IOPS sample window in milliseconds" },

	/* errors and exit */
	/* verification (opt/verify_opts.c, verify/) */
	{ .name = "verify", .type = OPT_CALLBACK, .def = "0",
	  .cb = verify_mode_cb, .format = verify_mode_fmt,
	  .enums = verify_mode_enums, .category = OPT_CAT_VERIFY,
	  .typestr = "crc32c|crc64|crc32|crc16|crc7|md5|sha1|sha256|sha512|"
		     "sha3-224|sha3-256|sha3-384|sha3-512|xxhash|meta|pattern|null",
	  .help = "check written data when it is read back: a header with "
		  "a checksum of this kind in every block" },
	{ .name = "do_verify", .type = OPT_BOOL, .off = OFF(do_verify),
	  .def = "1", .category = OPT_CAT_VERIFY,
	  .help = "read back and check what a pass wrote, after the pass" },
	{ .name = "verify_only", .type = OPT_BOOL, .off = OFF(verify_only),
	  .def = "0", .category = OPT_CAT_VERIFY,
	  .help = "write nothing: check that the data an earlier run of "
		  "this job wrote is still there" },
	{ .name = "verify_pattern", .type = OPT_CALLBACK,
	  .cb = verify_pattern_cb, .format = verify_pattern_fmt,
	  .category = OPT_CAT_VERIFY,
	  .typestr = "pattern (0x.., number, \"text\", %o)",
	  .help = "fill written blocks with these bytes, repeated (%o is "
		  "the block's offset), and check them" },
	{ .name = "verify_interval", .type = OPT_SIZE,
	  .off = OFF(verify_interval), .def = "0",
	  .category = OPT_CAT_VERIFY,
	  .help = "a header every this many bytes of a block (0: one per "
		  "block)" },
	/* fio refuses an offset inside its 40-byte header (0 is only the
	 * default: the header at the start) */
	{ .name = "verify_offset", .type = OPT_SIZE,
	  .off = OFF(verify_offset), .min = 40,
	  .category = OPT_CAT_VERIFY,
	  .help = "put each header this many bytes into its chunk instead "
		  "of at the start" },
	{ .name = "verify_backlog", .type = OPT_U64,
	  .off = OFF(verify_backlog), .def = "0",
	  .category = OPT_CAT_VERIFY,
	  .help = "check written blocks every this many writes, not only "
		  "after the pass" },
	{ .name = "verify_backlog_batch", .type = OPT_U64,
	  .off = OFF(verify_backlog_batch), .def = "0",
	  .category = OPT_CAT_VERIFY,
	  .help = "with verify_backlog: check this many blocks each time "
		  "(0: verify_backlog); fewer leave some unchecked" },
	{ .name = "trim_percentage", .type = OPT_UINT,
	  .off = OFF(trim_percentage), .def = "0", .max = 100,
	  .category = OPT_CAT_VERIFY,
	  .help = "with verify and trim_backlog: trim this percentage of "
		  "the written blocks before they are read back" },
	{ .name = "trim_backlog", .type = OPT_U64, .off = OFF(trim_backlog),
	  .def = "0", .category = OPT_CAT_VERIFY,
	  .help = "trim the chosen written blocks every this many writes "
		  "(0: never)" },
	{ .name = "trim_backlog_batch", .type = OPT_U64,
	  .off = OFF(trim_backlog_batch), .def = "0",
	  .category = OPT_CAT_VERIFY,
	  .help = "how many blocks each trim_backlog round trims (0: "
		  "trim_backlog)" },
	{ .name = "trim_verify_zero", .type = OPT_BOOL,
	  .off = OFF(trim_verify_zero), .def = "1",
	  .category = OPT_CAT_VERIFY,
	  .help = "read trimmed blocks back and check they are zeroes (0: "
		  "do not read them back)" },
	{ .name = "verify_async", .type = OPT_UINT, .off = OFF(verify_async),
	  .def = "0", .max = 1024, .category = OPT_CAT_VERIFY,
	  .help = "check read-back blocks in this many threads of their "
		  "own while the job goes on (0: in the job's thread)" },
	{ .name = "verify_async_cpus", .type = OPT_STR,
	  .off = OFF(verify_async_cpus), .category = OPT_CAT_VERIFY,
	  .typestr = "cpu list",
	  .help = "the CPUs of the verify_async threads (a list as "
		  "cpus_allowed)" },
	{ .name = "verify_fatal", .type = OPT_BOOL, .off = OFF(verify_fatal),
	  .def = "0", .category = OPT_CAT_VERIFY,
	  .help = "stop the job at the first block that fails, even with "
		  "continue_on_error" },
	{ .name = "verify_header_seed", .type = OPT_BOOL,
	  .off = OFF(verify_header_seed), .def = "1",
	  .category = OPT_CAT_VERIFY,
	  .help = "fio 3.42: a read-back checks that the block's header "
		  "names this job, its file and seed (0: any writer)" },
	{ .name = "verify_write_sequence", .type = OPT_BOOL,
	  .off = OFF(verify_write_sequence), .def = "1",
	  .category = OPT_CAT_VERIFY,
	  .help = "fio 3.42: a read-back checks that the block's header "
		  "holds the expected write or a newer one (0: any)" },
	{ .name = "verify_dump", .type = OPT_BOOL, .off = OFF(verify_dump),
	  .def = "0", .category = OPT_CAT_VERIFY,
	  .help = "write a failed block as read and as expected to "
		  "NAME.OFFSET.received / .expected in the current directory" },
	{ .name = "verify_state_save", .type = OPT_BOOL,
	  .off = OFF(verify_state_save), .def = "1",
	  .category = OPT_CAT_VERIFY,
	  .help = "at the end of a verify job, save how far its writes got "
		  "to local-NAME-INDEX-verify.state" },
	{ .name = "verify_state_load", .type = OPT_BOOL,
	  .off = OFF(verify_state_load), .def = "0",
	  .category = OPT_CAT_VERIFY,
	  .help = "with verify_only: check only what the saved state says "
		  "was written" },
	{ .name = "experimental_verify", .type = OPT_BOOL,
	  .off = OFF(experimental_verify), .def = "0",
	  .category = OPT_CAT_VERIFY,
	  .help = "keep no log of the written blocks: after the pass, run "
		  "it again as reads of what it wrote (verify_backlog is "
		  "ignored, as in fio)" },
	{ .name = "error_dump", .type = OPT_BOOL, .off = OFF(error_dump),
	  .def = "1", .category = OPT_CAT_ERROR,
	  .help = "print every I/O error the job continues past (0: only "
		  "the one that stops it; failed verifies are always "
		  "printed)" },
	{ .name = "ignore_error", .type = OPT_CALLBACK,
	  .cb = ignore_error_cb, .format = ignore_error_fmt,
	  .category = OPT_CAT_ERROR,
	  .typestr = "READ,WRITE,VERIFY errno lists (EIO:ENOSPC:28)",
	  .help = "errors to carry on after, per kind; a kind with a list "
		  "continues on exactly those" },

	{ .name = "continue_on_error", .type = OPT_ENUM,
	  .off = OFF(continue_on_error), .def = "none", .enums = coe_enums,
	  .category = OPT_CAT_ERROR,
	  .help = "keep going after I/O errors of these kinds" },
	{ .name = "exitall", .type = OPT_BOOL, .off = OFF(exitall),
	  .def = "0", .category = OPT_CAT_ERROR,
	  .help = "when a job finishes, stop the jobs exit_what names (as "
		  "fio: set in one job, it holds for every job)" },
	{ .name = "exitall_on_error", .type = OPT_BOOL,
	  .off = OFF(exitall_on_error), .def = "0",
	  .category = OPT_CAT_ERROR,
	  .help = "when this job fails, stop the jobs exit_what names" },
	{ .name = "profile", .type = OPT_CALLBACK, .cb = profile_cb,
	  .format = profile_fmt, .category = OPT_CAT_STAT,
	  .flags = OPT_F_OPTVAL,
	  .typestr = "none, cpu (1, or the bare name), system",
	  .help = "iolite: where the CPU time of the group's measured phase "
		  "went (perf cpu-clock samples of the run's threads; system: "
		  "every task on the jobs' CPUs, as root). fio's workload "
		  "profiles (tiobench, act) are not supported yet" },
	/* exit_what, latency targets, steady state (opt/steady_opts.c) */
	{ .name = "exit_what", .type = OPT_ENUM, .off = OFF(exit_what),
	  .def = "group", .enums = exit_what_enums, .category = OPT_CAT_ERROR,
	  .help = "with exitall: which jobs stop when a job finishes" },
	{ .name = "latency_target", .type = OPT_TIME,
	  .off = OFF(latency_target_us), .def = "0", .unit_us = 1,
	  .category = OPT_CAT_IO,
	  .help = "find the highest queue depth (up to iodepth) whose "
		  "latencies stay below this (microseconds without a unit)" },
	{ .name = "latency_window", .type = OPT_TIME,
	  .off = OFF(latency_window_us), .def = "0", .unit_us = 1,
	  .category = OPT_CAT_IO,
	  .help = "latency_target: how long each queue depth is tried "
		  "(microseconds without a unit)" },
	{ .name = "latency_percentile", .type = OPT_CALLBACK,
	  .def = "100", .cb = steady_latpct_cb, .format = steady_latpct_fmt,
	  .category = OPT_CAT_IO, .typestr = "float (0..100)",
	  .help = "latency_target: the share of I/Os of a window (percent) "
		  "that must meet the target" },
	{ .name = "latency_run", .type = OPT_BOOL, .off = OFF(latency_run),
	  .def = "0", .category = OPT_CAT_IO,
	  .help = "latency_target: keep adjusting the depth until the job "
		  "ends instead of ending once the depth is found" },
	{ .name = "max_latency", .type = OPT_CALLBACK,
	  .cb = steady_maxlat_cb, .format = steady_maxlat_fmt,
	  .category = OPT_CAT_ERROR, .typestr = "time[,time][,time]",
	  .help = "fail the job (ETIMEDOUT) at an I/O slower than this, per "
		  "direction (microseconds without a unit; 0: no limit)" },
	{ .name = "steadystate", .alias = "ss", .type = OPT_CALLBACK,
	  .def = "iops_slope:0.01%", .cb = steady_ss_cb,
	  .format = steady_ss_fmt, .enums = steady_mode_enums,
	  .category = OPT_CAT_TIME, .typestr = "MODE:LIMIT[%]",
	  .help = "end the job once this criterion holds over the "
		  "steadystate_duration window (LIMIT%: a percentage of "
		  "the window's mean)" },
	{ .name = "steadystate_duration", .alias = "ss_dur", .type = OPT_TIME,
	  .off = OFF(ss_dur_us), .def = "0", .unit_us = SEC,
	  .category = OPT_CAT_TIME,
	  .help = "steady state window, whole seconds, one sample a second "
		  "(0: no steady state detection)" },
	{ .name = "steadystate_ramp_time", .alias = "ss_ramp",
	  .type = OPT_TIME, .off = OFF(ss_ramp_us), .def = "0",
	  .unit_us = SEC, .category = OPT_CAT_TIME,
	  .help = "run this long before collecting steady state samples "
		  "(seconds without a unit)" },

	/* units */
	{ .name = "kb_base", .type = OPT_ENUM, .off = OFF(kb_base),
	  .def = "1024", .enums = kb_base_enums, .category = OPT_CAT_UNITS,
	  .help = "what k, m, g mean in sizes (applies to the whole job, "
		  "wherever it is set)" },
	{ .name = "unit_base", .type = OPT_ENUM, .off = OFF(unit_base),
	  .def = "0", .enums = unit_base_enums, .category = OPT_CAT_UNITS,
	  .help = "report bandwidth in bytes or in bits" },

	/* log files (stats/log.c) */
	{ .name = "write_lat_log", .type = OPT_STR, .off = OFF(write_lat_log),
	  .flags = OPT_F_OPTVAL, .category = OPT_CAT_STAT,
	  .help = "write latency logs PREFIX_lat.N.log, PREFIX_clat.N.log "
		  "and PREFIX_slat.N.log (bare: the job name as PREFIX)" },
	{ .name = "write_bw_log", .type = OPT_STR, .off = OFF(write_bw_log),
	  .flags = OPT_F_OPTVAL, .category = OPT_CAT_STAT,
	  .help = "write a bandwidth log PREFIX_bw.N.log in KiB/s (bare: "
		  "the job name as PREFIX)" },
	{ .name = "write_iops_log", .type = OPT_STR,
	  .off = OFF(write_iops_log), .flags = OPT_F_OPTVAL,
	  .category = OPT_CAT_STAT,
	  .help = "write an IOPS log PREFIX_iops.N.log (bare: the job name "
		  "as PREFIX)" },
	{ .name = "write_hist_log", .type = OPT_STR,
	  .off = OFF(write_hist_log), .flags = OPT_F_OPTVAL,
	  .category = OPT_CAT_STAT,
	  .help = "write completion latency histograms to "
		  "PREFIX_clat_hist.N.log every log_hist_msec (bare: the job "
		  "name as PREFIX)" },
	{ .name = "log_avg_msec", .type = OPT_UINT, .off = OFF(log_avg_msec),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "one log line per direction per this many ms, averaged "
		  "(0: a line per I/O)" },
	{ .name = "log_window_value", .alias = "log_max_value",
	  .type = OPT_ENUM, .off = OFF(log_window_value), .def = "avg",
	  .enums = log_window_enums, .category = OPT_CAT_STAT,
	  .help = "with log_avg_msec, what a latency log line holds for its "
		  "window: avg, max, or both (two values; the bandwidth and "
		  "IOPS logs then repeat theirs)" },
	{ .name = "log_offset", .type = OPT_BOOL, .off = OFF(log_offset),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "add each I/O's offset to the log lines" },
	{ .name = "log_issue_time", .type = OPT_BOOL,
	  .off = OFF(log_issue_time), .def = "0", .category = OPT_CAT_STAT,
	  .help = "fio 3.42: a last column, each I/O's issue time in ns "
		  "(clat and slat logs; 0 elsewhere); needs write_lat_log "
		  "and log_offset" },
	{ .name = "log_hist_msec", .type = OPT_UINT, .off = OFF(log_hist_msec),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "histogram log: one line per direction per this many ms "
		  "(0: none)" },
	{ .name = "log_hist_coarseness", .type = OPT_UINT,
	  .off = OFF(log_hist_coarseness), .def = "0", .min = 0, .max = 6,
	  .category = OPT_CAT_STAT,
	  .help = "histogram log: merge 2^N adjacent buckets into one" },
	{ .name = "log_entries", .type = OPT_UINT, .off = OFF(log_entries),
	  .def = "1024", .min = 1, .category = OPT_CAT_STAT,
	  .help = "log entries to preallocate per job (the pool also grows "
		  "while the job runs)" },
	{ .name = "per_job_logs", .type = OPT_BOOL, .off = OFF(per_job_logs),
	  .def = "1", .category = OPT_CAT_STAT,
	  .help = "one log file per job instance (name.N.log); 0: jobs with "
		  "the same prefix share name.log" },
	{ .name = "log_drop_when_behind", .type = OPT_BOOL,
	  .off = OFF(log_drop_when_behind), .def = "0",
	  .category = OPT_CAT_STAT,
	  .help = "iolite extension: when the log writer falls behind, drop "
		  "log entries (counted in the report) instead of holding "
		  "the job's I/O until it catches up" },
	{ .name = "log_prio", .type = OPT_BOOL, .off = OFF(log_prio),
	  .def = "0", .category = OPT_CAT_STAT,
	  .help = "the logs' last column is each I/O's priority value (hex) "
		  "instead of the high-priority flag" },
	{ .name = "log_compression", .type = OPT_SIZE,
	  .off = OFF(log_compression), .def = "0", .category = OPT_CAT_STAT,
	  .help = "bytes of log records per zlib stream of a compressed "
		  "log (at least 1KiB; needs zlib); logs stream to their files "
		  "as the run goes, so memory is bounded without it" },
	{ .name = "log_store_compressed", .type = OPT_BOOL,
	  .off = OFF(log_store_compressed), .def = "0",
	  .category = OPT_CAT_STAT,
	  .help = "write the logs compressed with zlib, as name.log.fz "
		  "(fio's format; read them with --inflate-log)" },
	{ .name = "io_submit_mode", .type = OPT_ENUM,
	  .off = OFF(io_submit_mode), .def = "inline",
	  .enums = submit_mode_enums, .category = OPT_CAT_IO,
	  .help = "who submits I/O: the job's thread (inline) or a pool of "
		  "threads (offload)" },

	/* I/O priorities (opt/prio_opts.c, proc/prio.c, engine/cmdprio.c) */
	{ .name = "prio", .type = OPT_UINT, .off = OFF(prio), .min = 0,
	  .max = 7, .category = OPT_CAT_IO,
	  .help = "the job's I/O priority level, 0 (highest) to 7, in its "
		  "class (best effort without prioclass); see ionice(1)" },
	{ .name = "prioclass", .type = OPT_UINT, .off = OFF(prioclass),
	  .min = 0, .max = 3, .category = OPT_CAT_IO,
	  .help = "the job's I/O priority class: 1 real time (needs "
		  "CAP_SYS_NICE), 2 best effort, 3 idle (0: best effort)" },
	{ .name = "priohint", .type = OPT_UINT, .off = OFF(priohint),
	  .min = 0, .max = 1023, .category = OPT_CAT_IO,
	  .help = "fio 3.42: the job's I/O priority hint (a device's "
		  "command duration limit, CDL); 0: none" },
	{ .name = "cmdprio_percentage", .type = OPT_CALLBACK,
	  .off = OFF(cmdprio_percentage), .min = 0, .max = 100,
	  .cb = prio_cmdprio_cb, .format = prio_cmdprio_fmt,
	  .typestr = "integer[,integer]", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring, libaio: percentage of reads[,writes] issued "
		  "with the cmdprio_class/cmdprio priority" },
	{ .name = "cmdprio_class", .type = OPT_CALLBACK,
	  .off = OFF(cmdprio_class), .min = 1, .max = 3,
	  .cb = prio_cmdprio_cb, .format = prio_cmdprio_fmt,
	  .typestr = "integer[,integer]", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring, libaio: priority class of those reads[,writes] "
		  "(default 1, real time)" },
	{ .name = "cmdprio_hint", .type = OPT_CALLBACK,
	  .off = OFF(cmdprio_hint), .min = 0, .max = 1023,
	  .cb = prio_cmdprio_cb, .format = prio_cmdprio_fmt,
	  .typestr = "integer[,integer]", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring, libaio: priority hint of those reads[,writes] "
		  "(fio 3.42; default 0, none)" },
	{ .name = "cmdprio", .type = OPT_CALLBACK, .off = OFF(cmdprio),
	  .min = 0, .max = 7, .cb = prio_cmdprio_cb,
	  .format = prio_cmdprio_fmt, .typestr = "integer[,integer]",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring, libaio: priority level of those reads[,writes] "
		  "(default 0)" },
	{ .name = "cmdprio_bssplit", .type = OPT_CALLBACK,
	  .off = OFF(cmdprio_bssplit), .cb = prio_bssplit_cb,
	  .format = prio_bssplit_fmt,
	  .typestr = "bs/perc[/class/level[/hint]]:...[,...]",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "io_uring, libaio: per block size, the percentage of "
		  "reads[,writes] given a priority (cmdprio_class/cmdprio's, "
		  "or the entry's class, level and hint)" },

	/* nbd, libiscsi: storage on a server */
	{ .name = "uri", .type = OPT_STR, .off = OFF(uri),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "nbd: the NBD server's URI (nbd://host:port/export, "
		  "nbd+unix:///export?socket=PATH; required)" },
	{ .name = "initiator", .type = OPT_STR, .off = OFF(initiator),
	  .def = "iqn.2019-04.org.fio:fio", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "libiscsi: the initiator's IQN the session logs in with" },
	/* nfs */
	{ .name = "nfs_url", .type = OPT_STR, .off = OFF(nfs_url),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "nfs: the server and export, nfs://SERVER/EXPORT"
		  "[?ARG=VALUE&...] (libnfs's URL: nfsport=, mountport= skip "
		  "the portmapper; uid=, gid=, version=, autoreconnect=)" },
	/* http (opt/http_opts.c, engine/http.c) */
	{ .name = "https", .type = OPT_ENUM, .off = OFF(https), .def = "off",
	  .enums = http_tls_enums, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: HTTPS (insecure: without checking the server's "
		  "certificate)" },
	{ .name = "http_host", .type = OPT_STR, .off = OFF(http_host),
	  .def = "localhost", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: the server, host[:port] (S3: a virtual-hosted "
		  "bucket's host name, or the endpoint for path-style "
		  "/bucket/key filenames)" },
	{ .name = "http_user", .type = OPT_STR, .off = OFF(http_user),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: user name for HTTP authentication" },
	{ .name = "http_pass", .type = OPT_STR, .off = OFF(http_pass),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: password for HTTP authentication" },
	{ .name = "http_s3_key", .type = OPT_STR, .off = OFF(http_s3_key),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 secret key" },
	{ .name = "http_s3_keyid", .type = OPT_STR, .off = OFF(http_s3_keyid),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 access key id" },
	{ .name = "http_s3_security_token", .type = OPT_STR,
	  .off = OFF(http_s3_security_token), .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 session token, sent and signed as "
		  "x-amz-security-token (fio 3.42)" },
	{ .name = "http_swift_auth_token", .type = OPT_STR,
	  .off = OFF(http_swift_auth_token), .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: OpenStack Swift auth token (X-Auth-Token), got "
		  "beforehand (v1 auth at /auth/1.0, Keystone)" },
	{ .name = "http_s3_region", .type = OPT_STR, .off = OFF(http_s3_region),
	  .def = "us-east-1", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 region the requests are signed for" },
	{ .name = "http_s3_sse_customer_key", .type = OPT_STR,
	  .off = OFF(http_s3_sse_customer_key), .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 server-side encryption customer key (SSE-C): "
		  "its first 32 bytes, zeros after a shorter one (fio's); "
		  "sent base64 with its MD5" },
	{ .name = "http_s3_sse_customer_algorithm", .type = OPT_STR,
	  .off = OFF(http_s3_sse_customer_algorithm), .def = "AES256",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 server-side encryption customer algorithm" },
	{ .name = "http_s3_storage_class", .type = OPT_STR,
	  .off = OFF(http_s3_storage_class), .def = "STANDARD",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: S3 storage class of the objects written" },
	{ .name = "http_mode", .type = OPT_ENUM, .off = OFF(http_mode),
	  .def = "webdav", .enums = http_mode_enums,
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: how requests are made: webdav, s3 or swift" },
	{ .name = "http_verbose", .type = OPT_UINT, .off = OFF(http_verbose),
	  .def = "0", .max = 2, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: libcurl's trace on stderr: 1 its messages, 2 the "
		  "headers and data too" },
	{ .name = "http_object_mode", .type = OPT_ENUM,
	  .off = OFF(http_object_mode), .def = "block",
	  .enums = http_object_enums, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "http: an object per block, or one per file read by "
		  "ranges (fio 3.42)" },
	/* rados, rbd (engine/ceph.c), in fio's order */
	{ .name = "clustername", .type = OPT_STR, .off = OFF(clustername),
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rados, rbd: the Ceph cluster's name (default: ceph); "
		  "clientname is then a full TYPE.ID" },
	{ .name = "rbdname", .type = OPT_STR, .off = OFF(rbdname),
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rbd: the RBD image to work on (required); its size is "
		  "the file's" },
	{ .name = "pool", .type = OPT_STR, .off = OFF(pool),
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rados, rbd: the Ceph pool holding the objects or the "
		  "image (required)" },
	{ .name = "clientname", .type = OPT_STR, .off = OFF(clientname),
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rados, rbd: the Ceph user to connect as, without "
		  "\"client.\" (default: admin)" },
	{ .name = "conf", .type = OPT_STR, .off = OFF(ceph_conf),
	  .def = "/etc/ceph/ceph.conf",
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rados: the Ceph configuration file (rbd reads $CEPH_CONF "
		  "or /etc/ceph/ceph.conf)" },
	{ .name = "busy_poll", .type = OPT_BOOL, .off = OFF(busy_poll),
	  .def = "0", .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rados, rbd: spin for completions instead of sleeping" },
	{ .name = "touch_objects", .type = OPT_BOOL,
	  .off = OFF(touch_objects), .def = "1",
	  .category = OPT_CAT_ENGINE, .flags = OPT_F_ENGINE,
	  .help = "rados: create each object (empty) when the job starts" },

	/* fio options iolite does not implement yet (their own file) */
#include "opt/unsup_rows.h"
};

const size_t opt_table_size = sizeof(opt_table) / sizeof(opt_table[0]);

_Static_assert(sizeof(opt_table) / sizeof(opt_table[0]) <= OPT_TABLE_MAX,
	       "opt_table outgrew job_options.set[]: raise OPT_TABLE_MAX");

const char *opt_category_name(enum opt_category c)
{
	static const char *const names[OPT_CAT_NR] = {
		[OPT_CAT_DESC] = "Job description",
		[OPT_CAT_FILE] = "Files and sizes",
		[OPT_CAT_IO] = "Block sizes and I/O pattern",
		[OPT_CAT_ENGINE] = "I/O engine and queue",
		[OPT_CAT_TIME] = "Time and repetition",
		[OPT_CAT_RANDOM] = "Randomness",
		[OPT_CAT_BUFFER] = "Buffer contents",
		[OPT_CAT_GROUP] = "Jobs, groups and ordering",
		[OPT_CAT_CPU] = "CPUs",
		[OPT_CAT_STAT] = "Statistics and clocks",
		[OPT_CAT_ERROR] = "Errors and exit",
		[OPT_CAT_VERIFY] = "Verification",
		[OPT_CAT_UNITS] = "Units",
		[OPT_CAT_PROC] = "Process, memory and cgroups",
		[OPT_CAT_UNSUPPORTED] = "fio options not supported yet",
	};

	if ((unsigned int)c >= OPT_CAT_NR || !names[c])
		return "Other";
	return names[c];
}
