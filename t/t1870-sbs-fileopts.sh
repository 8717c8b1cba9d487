#!/bin/sh
# Side by side with fio (doc/sidebyside.md): the file, offset, block size
# and per-I/O flag options of issue 15.7.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table fileopts
test_done
