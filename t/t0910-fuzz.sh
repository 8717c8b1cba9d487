#!/bin/sh
# The fuzz harnesses (fuzz/, libFuzzer) build with clang and run: a short
# `make fuzz`, then every seed and every past finding (fuzz/regress/)
# replayed through its harness. Skipped without clang's libFuzzer.
# The build goes to $IOLITE_FUZZ_BUILD (make test sets it inside the
# build directory, so it is incremental), else the scratch directory.

. "$(dirname "$0")/test-lib.sh"

# a make above us must not hand its variables (BUILD, SANITIZE) down
unset MAKEFLAGS MFLAGS MAKELEVEL
FB=${IOLITE_FUZZ_BUILD:-$TRASH/fuzz}
HARNESSES="fuzz_cmdline fuzz_iolog fuzz_jobfile fuzz_num"
JOBS=$(nproc 2>/dev/null || echo 2)

command -v make >/dev/null 2>&1 || skip_all "no make: apt-get install make"
test_require LIBFUZZER

test_expect_success 'make fuzz builds every harness and runs each' '
	make -C "$SRC_DIR" -j"$JOBS" --no-print-directory fuzz \
		FUZZ_TIME=4 FUZZ_BUILD="$FB" >out 2>err &&
	for h in $HARNESSES; do
		grep "^  FUZZ    $h (1s)$" out &&
		grep "^Done [0-9]* runs in" "$FB/$h.log" || exit 1
	done
'

test_expect_success 'the seeds come from examples/, t/data/ and fuzz/seeds/' '
	n=$(find "$SRC_DIR/examples" "$SRC_DIR/t/data" -name "*.fio" |
		wc -l) &&
	test "$n" -gt 0 &&
	test "$(ls "$FB/seeds/fuzz_jobfile" | wc -l)" = "$n" &&
	test "$(ls "$FB/seeds/fuzz_cmdline" | wc -l)" = "$n" &&
	test "$(ls "$FB/seeds/fuzz_num" | wc -l)" -gt "$n" &&
	grep -l "^--name=" "$FB/seeds/fuzz_cmdline"/* >/dev/null &&
	# the I/O logs: kept in fuzz/seeds/, every action among them
	ls "$SRC_DIR/fuzz/seeds/fuzz_iolog" >want &&
	ls "$FB/seeds/fuzz_iolog" >got && test_cmp want got &&
	for a in add open close read write trim sync datasync wait; do
		grep -l " $a\( \|$\)" "$FB/seeds/fuzz_iolog"/* >/dev/null ||
			exit 1
	done
'

test_expect_success 'every seed and past finding replays clean' '
	for h in $HARNESSES; do
		set -- "$FB/seeds/$h"/*
		[ -d "$SRC_DIR/fuzz/regress/$h" ] &&
			set -- "$@" "$SRC_DIR/fuzz/regress/$h"/*
		"$FB/fuzz/$h" "$@" >"$h.replay" 2>&1 || {
			tail -n 30 "$h.replay"
			exit 1
		}
		grep "^Executed .* in [0-9]* ms$" "$h.replay" >/dev/null ||
			exit 1
	done
'

test_expect_success 'a finding stops make fuzz and keeps the input' '
	mkdir -p sf/fuzz sf/corpus/fuzz_num &&
	ln -s "$FB/fuzz/fuzz_num" sf/fuzz/fuzz_num &&
	printf "iolite-fuzz-selftest" >sf/corpus/fuzz_num/finding &&
	export IOLITE_FUZZ_SELFTEST=1 &&
	test_must_fail "$SRC_DIR/fuzz/run.sh" \
		"$PWD/sf" 1 fuzz_num >out 2>err &&
	grep "^fuzz: fuzz_num found a problem" err &&
	grep "self-test finding" sf/fuzz_num.log &&
	cmp sf/corpus/fuzz_num/finding sf/fuzz_num-crash-* &&
	unset IOLITE_FUZZ_SELFTEST &&
	"$FB/fuzz/fuzz_num" sf/corpus/fuzz_num/finding >out 2>&1
'

test_done
