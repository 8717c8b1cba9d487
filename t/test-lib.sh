# Test library for iolite's shell tests: TAP output for prove.
#
#   . ./test-lib.sh   (from a t/tNNNN-name.sh script, run from anywhere)
#   test_expect_success 'description' 'commands'
#   test_expect_failure ... is not provided: a known bug is an issue.
#   test_must_fail cmd...      cmd must exit non-zero (not crash)
#   test_cmp expected actual   files equal, diff shown otherwise
#   test_have_prereq NAME      LIBAIO IO_URING ODIRECT ROOT LOOP FIO
#   test_done
#
# Each script gets its own scratch directory ($TRASH), removed at the end
# unless IOLITE_TEST_KEEP=1. $IOLITE is the binary under test.

TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/.." && pwd)
: "${IOLITE:=$SRC_DIR/iolite}"
export IOLITE
DATA="$TEST_DIR/data"
test_count=0
test_failed=0
test_skipped=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/iolite-test.XXXXXX")
trap 'test_cleanup' EXIT

test_cleanup() {
	eval "${test_at_exit:-:}"
	if [ "${IOLITE_TEST_KEEP:-0}" = 1 ]; then
		echo "# kept $TRASH"
	else
		rm -rf "$TRASH"
	fi
}

# Runs the commands in a subshell with set -e semantics per line via &&.
test_run_() {
	(cd "$TRASH" && eval "$1") >"$TRASH/.out" 2>&1
}

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -n "$test_skip_reason" ]; then
		echo "ok $test_count # skip $1 ($test_skip_reason)"
		test_skipped=$((test_skipped + 1))
		return
	fi
	if test_run_ "$2"; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out"
		test_failed=$((test_failed + 1))
	fi
}

# test_expect_success with a prerequisite: skip unless it holds.
test_expect_success_if() {
	prereq=$1
	shift
	if test_have_prereq "$prereq"; then
		test_expect_success "$@"
	else
		test_count=$((test_count + 1))
		echo "ok $test_count # skip $1 (missing $prereq)"
		test_skipped=$((test_skipped + 1))
	fi
}

test_must_fail() {
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif [ $rc -gt 128 ]; then
		echo "test_must_fail: command died of signal $((rc - 128)): $*" >&2
		return 1
	fi
	return 0
}

test_cmp() {
	diff -u "$1" "$2"
}

# Fails (and shows the file) unless the file is empty.
test_must_be_empty() {
	if [ -s "$1" ]; then
		echo "'$1' is not empty:" >&2
		cat "$1" >&2
		return 1
	fi
}

test_have_prereq() {
	case "$1" in
	ROOT) [ "$(id -u)" = 0 ] ;;
	FIO) command -v fio >/dev/null 2>&1 ;;
	LIBAIO) "$IOLITE" --enghelp 2>/dev/null | grep -qw libaio ;;
	IO_URING) "$IOLITE" --enghelp 2>/dev/null | grep -qw io_uring ;;
	ODIRECT)
		f="$TRASH/.odirect"
		dd if=/dev/zero of="$f" bs=4096 count=1 oflag=direct \
			>/dev/null 2>&1
		;;
	LOOP)
		[ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1 &&
			[ -e /dev/loop-control ]
		;;
	JQ) command -v jq >/dev/null 2>&1 ;;
	SMP) [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] ;;
	TRACEFS) [ "$(id -u)" = 0 ] && grep -qw tracefs /proc/filesystems ;;
	SETPRIV) [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ;;
	*) echo "unknown prerequisite $1" >&2; return 1 ;;
	esac
}

# Skips the whole script (call before any test).
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

test_done() {
	echo "1..$test_count"
	[ $test_failed -eq 0 ]
	exit $?
}

test_path_is_missing() {
	if [ -e "$1" ]; then
		echo "'$1' exists" >&2
		return 1
	fi
}

# ---- report helpers shared by the scripts ----

# issued FILE: the "issued rwts: total=R,W,T,S" counts of a normal report.
issued() {
	sed -n 's/.*issued rwts: total=\([0-9,]*\) .*/\1/p' "$1" | head -n 1
}

# pct FILE LABEL KEY: the KEY=x% figure of the report line LABEL
# ("IO depths", "submit", "complete").
pct() {
	sed -n "s/.*$2 *:.*[ :]$3=\([0-9.]*\)%.*/\1/p" "$1" | head -n 1
}

# at_least A B: A >= B as numbers.
at_least() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'
}

# between V LO HI: LO <= V <= HI (V may be a float); says which when not.
between() {
	awk -v v="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { if (v + 0 >= lo + 0 && v + 0 <= hi + 0) exit 0
			 print v " not in " lo ".." hi; exit 1 }'
}
