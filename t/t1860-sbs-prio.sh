#!/bin/sh
# Side by side with fio (doc/sidebyside.md): I/O priorities.
. "$(dirname "$0")/test-lib.sh"
# the harness came to main with the sbs merge (issue 13)
[ -f "$TEST_DIR/lib-sbs.sh" ] ||
	skip_all "the side-by-side harness (t/lib-sbs.sh) is not on this branch"
. "$TEST_DIR/lib-sbs.sh"

sbs_table prio
test_done
