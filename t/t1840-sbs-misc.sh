#!/bin/sh
# Side by side with fio (doc/sidebyside.md): bad input, reporting
# (unified_rw_reporting, group_reporting, numjobs, groups), I/O logs,
# the latency/bandwidth/IOPS logs.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table err
sbs_table report
sbs_table iolog
sbs_table logs
test_done
