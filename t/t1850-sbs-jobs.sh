#!/bin/sh
# Side by side with fio (doc/sidebyside.md): job files, the command line
# and job control.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table jobs
test_done
