#!/bin/sh
# Side by side with fio (doc/sidebyside.md): verify.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table verify
test_done
