/* SPDX-License-Identifier: MIT */
/*
 * libiscsi, loaded on first use (dl.h): engine/libiscsi.c includes this
 * header instead of <iscsi/iscsi.h> and <iscsi/scsi-lowlevel.h>, and
 * its calls of libiscsi's functions go through the pointers
 * dl_iscsi_load() sets. A function the engine starts to use is added to
 * DL_ISCSI_FNS and to the names below (a missing one is an undefined
 * reference at link time: libiscsi is not linked).
 */
#ifndef IOLITE_ENGINE_DL_ISCSI_H
#define IOLITE_ENGINE_DL_ISCSI_H

#include "engine/dl/dl.h"
#include "util/strbuf.h"

/* Loads libiscsi once: 0, or -1 with the package to install in err. */
int dl_iscsi_load(struct strbuf *err);

#ifdef HAVE_LIBISCSI
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#define DL_ISCSI_FNS(X) X(iscsi_create_context) X(iscsi_destroy_context) \
	X(iscsi_parse_full_url) X(iscsi_destroy_url) X(iscsi_set_targetname) \
	X(iscsi_set_session_type) X(iscsi_set_header_digest) \
	X(iscsi_set_noautoreconnect) X(iscsi_full_connect_sync) \
	X(iscsi_is_logged_in) X(iscsi_logout_sync) X(iscsi_get_error) \
	X(iscsi_get_fd) X(iscsi_which_events) X(iscsi_service) \
	X(iscsi_readcapacity16_sync) X(iscsi_read16_iov_task) \
	X(iscsi_write16_iov_task) X(iscsi_synchronizecache16_task) \
	X(scsi_datain_unmarshall) X(scsi_free_scsi_task)

struct dl_iscsi_fns {
	DL_ISCSI_FNS(DL_FN_PTR)
};
extern struct dl_iscsi_fns dl_iscsi;

#ifndef DL_IMPL
#define iscsi_create_context (*dl_iscsi.iscsi_create_context)
#define iscsi_destroy_context (*dl_iscsi.iscsi_destroy_context)
#define iscsi_parse_full_url (*dl_iscsi.iscsi_parse_full_url)
#define iscsi_destroy_url (*dl_iscsi.iscsi_destroy_url)
#define iscsi_set_targetname (*dl_iscsi.iscsi_set_targetname)
#define iscsi_set_session_type (*dl_iscsi.iscsi_set_session_type)
#define iscsi_set_header_digest (*dl_iscsi.iscsi_set_header_digest)
#define iscsi_set_noautoreconnect (*dl_iscsi.iscsi_set_noautoreconnect)
#define iscsi_full_connect_sync (*dl_iscsi.iscsi_full_connect_sync)
#define iscsi_is_logged_in (*dl_iscsi.iscsi_is_logged_in)
#define iscsi_logout_sync (*dl_iscsi.iscsi_logout_sync)
#define iscsi_get_error (*dl_iscsi.iscsi_get_error)
#define iscsi_get_fd (*dl_iscsi.iscsi_get_fd)
#define iscsi_which_events (*dl_iscsi.iscsi_which_events)
#define iscsi_service (*dl_iscsi.iscsi_service)
#define iscsi_readcapacity16_sync (*dl_iscsi.iscsi_readcapacity16_sync)
#define iscsi_read16_iov_task (*dl_iscsi.iscsi_read16_iov_task)
#define iscsi_write16_iov_task (*dl_iscsi.iscsi_write16_iov_task)
#define iscsi_synchronizecache16_task (*dl_iscsi.iscsi_synchronizecache16_task)
#define scsi_datain_unmarshall (*dl_iscsi.scsi_datain_unmarshall)
#define scsi_free_scsi_task (*dl_iscsi.scsi_free_scsi_task)
#endif
#endif /* HAVE_LIBISCSI */
#endif
