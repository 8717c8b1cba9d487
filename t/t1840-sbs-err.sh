#!/bin/sh
# Side by side with fio (doc/sidebyside.md): bad input both tools refuse
# (or both take). Every row runs alone.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

sbs_table err
test_done
