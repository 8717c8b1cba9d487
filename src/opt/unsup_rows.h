/* SPDX-License-Identifier: MIT */
/*
 * Rows of opt/table.c's table: every fio 3.33 option name iolite does
 * not implement (and fio 3.42's data placement family), so that it is refused as "not supported yet" (with
 * opt/refused.c's reason where one is known: another engine, hardware
 * or service) rather than as unknown. Included inside opt_table[] only,
 * after the implemented rows; not a header of its own. Implementing one
 * = its row moves to table.c (or an engine's rows) and leaves this list;
 * t/unit/opt_table checks that every fio 3.33 name still has one row.
 */

#define UNSUP(n, a) { .name = n, .alias = a, .type = OPT_UNSUPPORTED, \
	.category = OPT_CAT_UNSUPPORTED, \
	.help = "fio option; not supported by iolite yet" }

	UNSUP("bindname", NULL),
	UNSUP("block_error_percentiles", NULL),
	UNSUP("brick", NULL),
	UNSUP("busy_wait_polling", NULL),
	UNSUP("chunk_size", NULL),
	UNSUP("cont", NULL),
	UNSUP("cuda_io", NULL),
	UNSUP("dataplacement", "data_placement"),
	UNSUP("device-names", NULL),
	UNSUP("direct_write_to_pmem", NULL),
	UNSUP("dp_scheme", NULL),
	UNSUP("fdp", NULL),
	UNSUP("gpu_dev_ids", NULL),
	UNSUP("hdfsdirectory", NULL),
	UNSUP("large-block-op-kbytes", NULL),
	UNSUP("load", NULL),
	UNSUP("merge_blktrace_file", NULL),
	UNSUP("merge_blktrace_iters", NULL),
	UNSUP("merge_blktrace_scalars", NULL),
	UNSUP("namenode", NULL),
	UNSUP("object_class", NULL),
	UNSUP("plid_select", "fdp_pli_select"),
	UNSUP("plids", "fdp_pli"),
	UNSUP("prep", NULL),
	UNSUP("read-req-num-512-blocks", NULL),
	UNSUP("serverip", NULL),
	UNSUP("sg_write_mode", NULL),
	UNSUP("single-instance", NULL),
	UNSUP("skip_bad", NULL),
	UNSUP("stream_id", NULL),
	UNSUP("test-duration", NULL),
	UNSUP("threads-per-queue", NULL),
	UNSUP("verb", NULL),
	UNSUP("volume", NULL),
	UNSUP("xnvme_admin", NULL),
	UNSUP("xnvme_async", NULL),
	UNSUP("xnvme_dev_nsid", NULL),
	UNSUP("xnvme_iovec", NULL),
	UNSUP("xnvme_sync", NULL),

#undef UNSUP
