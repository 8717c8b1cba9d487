#!/bin/sh
# What iolite says of itself agrees with what the build has: refusals,
# --debug=help and the command-line section of doc/compat.md must not
# claim a missing engine, program or option the build does have; and
# doc/design.md's table of tests per src/ folder agrees with the tree.
DOCS=$(cd "$(dirname "$0")/../doc" && pwd)
TOP=${DOCS%/doc}
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'engines the build has are not called missing' '
	"$IOLITE" --enghelp >engines &&
	"$IOLITE" --debug=help >dbg 2>&1 &&
	for e in $(awk "{print \$1}" engines); do
		! grep -i "no $e engine" dbg || return 1
	done &&
	if grep -q "^	net " engines; then
		! grep -i "no network engine" dbg &&
		test_must_fail "$IOLITE" --debug=net --name=x --size=4k 2>err &&
		! grep -i "no network engine" err
	fi
'

test_expect_success 'the multi-host refusal points at iolite-mpi, not "not built"' '
	test_must_fail "$IOLITE" --server 2>err &&
	grep "iolite-mpi" err &&
	! grep -i "not built" err
'

test_expect_success_if MPI 'iolite-mpi, which the refusal names, is built' '
	test -x "${IOLITE_MPI:-${IOLITE%/*}/iolite-mpi}"
'

# the options doc/compat.md's "Command line" section names as refused
compat_refused() {
	sed -n "/^## Command line/,/^## /p" "$DOCS/compat.md" |
	sed -n "/with the reason:/,/deprecated by fio/p" |
	sed "s/deprecated by fio.*/deprecated by fio/" |
	grep -o "\`--[a-z-]*\`" | tr -d "\`"
}

test_expect_success 'doc/compat.md lists as refused exactly what is refused' '
	compat_refused >refused &&
	test -s refused &&
	while read -r o; do
		"$IOLITE" $o --name=x --size=4k --ioengine=null >out 2>err
		if grep -q "is not supported" err; then
			echo "$o refused" >>seen
		else
			echo "$o taken" >>seen
		fi
	done <refused &&
	! grep " taken$" seen
'

test_expect_success '--bandwidth-log, which the docs say is there, works' '
	"$IOLITE" --bandwidth-log --name=x --size=64k --ioengine=null \
		--output-format=terse >out 2>err &&
	test_must_be_empty err &&
	test -s agg-read_bw.log
'

# doc/design.md's "| src/FOLDER | unit tests | shell tests |" rows
test_expect_success 'doc/design.md names every src/ folder and only tests that exist' '
	sed -n "/^| folder | unit tests | shell tests |/,/^\$/p" \
		"$DOCS/design.md" | grep "^| src/" >rows &&
	test -s rows &&
	for d in "$TOP"/src/*/; do
		d=${d%/}
		grep -q "^| src/${d##*/} |" rows ||
			{ echo "no row for src/${d##*/}"; return 1; }
	done &&
	awk -F"|" "{ print \$3 }" rows | tr ", " "\n\n" | sed "/^$/d" >units &&
	test -s units &&
	while read -r u; do
		test -f "$TOP/t/unit/$u.c" || { echo "no t/unit/$u.c"; return 1; }
	done <units &&
	awk -F"|" "{ print \$4 }" rows | grep -o "t[0-9][0-9][0-9][0-9]" >scripts &&
	test -s scripts &&
	while read -r t; do
		ls "$TOP"/t/$t-*.sh >/dev/null 2>&1 ||
			{ echo "no t/$t-*.sh"; return 1; }
	done <scripts
'

test_done
