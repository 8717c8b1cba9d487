#!/bin/sh
# Side by side with fio (doc/sidebyside.md): engines and queues, think
# time and rates, zones, buffer contents.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table engines
sbs_table pace
sbs_table zones
sbs_table buffers
test_done
