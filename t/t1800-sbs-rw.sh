#!/bin/sh
# Side by side with fio (doc/sidebyside.md): rw modes, block sizes,
# random offsets and distributions.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table rw
sbs_table bs
sbs_table random
test_done
