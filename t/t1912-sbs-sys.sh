#!/bin/sh
# Side by side with fio (doc/sidebyside.md): the job's process and
# memory (mem=, iomem_align, lockmem, thp, nice, exec_prerun/postrun,
# log epochs, write_barrier, gtod_cpu): the same I/O and files as fio.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table sys
test_done
