#!/bin/sh
# Side by side with fio (doc/sidebyside.md): sizes and offsets, files,
# loops and syncs.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table size
sbs_table files
sbs_table loops
test_done
