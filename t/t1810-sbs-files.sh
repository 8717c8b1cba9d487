#!/bin/sh
# Side by side with fio (doc/sidebyside.md): sizes and offsets, files.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table size
test_done
