/* SPDX-License-Identifier: MIT */
#include "engine/engines.h"

static const char *const iscsi_options[] = { "initiator", NULL };

const struct engine_ops engine_libiscsi_ops = {
	.name = "libiscsi",
	.help = "an iSCSI LUN (libiscsi; filename=iscsi://host:port/iqn/lun)",
	.flags = ENGINE_F_NOFILEIO,
	.options = iscsi_options,
};
