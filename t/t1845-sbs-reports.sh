#!/bin/sh
# Side by side with fio (doc/sidebyside.md): what the reports count
# (unified_rw_reporting, group_reporting, numjobs, groups), I/O log
# replays, the latency/bandwidth/IOPS logs.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table report
sbs_table iolog
sbs_table logs
test_done
