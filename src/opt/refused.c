/* SPDX-License-Identifier: MIT */
/*
 * The options of the engines iolite refuses (see refused.h): a job file
 * written for such an engine usually names the engine's own options
 * before or after ioengine=, so each one says which engine it belongs to
 * and why that engine is out of scope, rather than "not supported yet".
 */
#include "opt/refused.h"

#include <stddef.h>
#include <string.h>

#include "util/log.h"

static const struct {
	const char *name;
	const char *engines;
	const char *why;
} refused_opts[] = {
	{ "brick", "ioengine gfapi, gfapi_async", REFUSE_GLUSTER },
	{ "volume", "ioengine gfapi, gfapi_async", REFUSE_GLUSTER },
	{ "single-instance", "ioengine gfapi, gfapi_async", REFUSE_GLUSTER },
	{ "cont", "ioengine dfs", REFUSE_DAOS },
	{ "chunk_size", "ioengine dfs and libhdfs", REFUSE_NETSTORE },
	{ "object_class", "ioengine dfs", REFUSE_DAOS },
	{ "hdfsdirectory", "ioengine libhdfs", REFUSE_HDFS },
	{ "namenode", "ioengine libhdfs", REFUSE_HDFS },
	{ "bindname", "ioengine rdma", REFUSE_RDMA },
	{ "verb", "ioengine rdma", REFUSE_RDMA },
	{ "serverip", "ioengine librpma_*", REFUSE_RDMA },
	{ "busy_wait_polling", "ioengine librpma_*", REFUSE_RDMA },
	{ "direct_write_to_pmem", "ioengine librpma_*", REFUSE_RDMA },
	{ "gpu_dev_ids", "ioengine libcufile", REFUSE_GPU },
	{ "cuda_io", "ioengine libcufile", REFUSE_GPU },
	{ "sg_write_mode", "ioengine sg", REFUSE_SG },
	{ "stream_id", "ioengine sg", REFUSE_SG },
	{ "skip_bad", "ioengine mtd", REFUSE_MTD },
	{ "xnvme_admin", "ioengine xnvme", REFUSE_USERDRV },
	{ "xnvme_async", "ioengine xnvme", REFUSE_USERDRV },
	{ "xnvme_dev_nsid", "ioengine xnvme", REFUSE_USERDRV },
	{ "xnvme_iovec", "ioengine xnvme", REFUSE_USERDRV },
	{ "xnvme_sync", "ioengine xnvme", REFUSE_USERDRV },
};

/* fio's own options iolite does not implement, and why (not an engine's) */
static const struct {
	const char *name;
	const char *why;
} unsup_why[] = {
	{ "block_error_percentiles", REFUSE_BLOCK_INFO },
	/* fio 3.42's, io_uring_cmd's (and xnvme's) */
	{ "dataplacement", REFUSE_FDP },
	{ "dp_scheme", REFUSE_FDP },
	{ "fdp", REFUSE_FDP },
	{ "plid_select", REFUSE_FDP },
	{ "plids", REFUSE_FDP },
	{ "merge_blktrace_file", REFUSE_BLKTRACE },
	{ "merge_blktrace_iters", REFUSE_BLKTRACE },
	{ "merge_blktrace_scalars", REFUSE_BLKTRACE },
};

const char *opt_unsup_why(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(unsup_why); i++)
		if (!strcmp(name, unsup_why[i].name))
			return unsup_why[i].why;
	return NULL;
}

const char *opt_refused_why(const char *name, const char **engines)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(refused_opts); i++)
		if (!strcmp(name, refused_opts[i].name)) {
			*engines = refused_opts[i].engines;
			return refused_opts[i].why;
		}
	return NULL;
}
