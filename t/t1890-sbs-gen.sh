#!/bin/sh
# The side-by-side generator's fixed slice: jobs drawn from the option
# table by t/sbs-gen (doc/sidebyside.md, "The generator"), each run
# through fio and iolite and compared on the I/O, the data, the exit
# status and the runtime a rate fixes. A failing job prints its seed,
# its number and both command lines; `t/sbs-gen --seed=S --only=N
# --work=DIR` keeps its two runs. `make sbs-gen N=10000` runs a long one.
. "$(dirname "$0")/test-lib.sh"

test_have_prereq FIO,PYTHON3 || skip_all "needs $prereq_missing"

# the slice: a fixed seed, and as many jobs as the suite's budget allows
: "${SBS_GEN_SEED:=suite1}"
: "${SBS_GEN_COUNT:=60}"
python3 "$TEST_DIR/sbs-gen" --iolite="$IOLITE" --seed="$SBS_GEN_SEED" \
	--count="$SBS_GEN_COUNT" --work="$TRASH/gen" --tap --jobs=2
rc=$?
exit $rc
