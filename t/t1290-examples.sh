#!/bin/sh
# Every job file in examples/ parses as written and runs, shrunk so the
# whole script stays quick: sizes become 2 MiB, runtimes 300 ms, ramp
# times 0. Each ${VAR} an example names (the directory it works in, by
# convention) is pointed at a scratch directory of its own.
. "$(dirname "$0")/test-lib.sh"

EXAMPLES="$SRC_DIR/examples"

# Variables used as ${NAME} in file $1, one per line.
example_vars() {
	grep -v '^[;#]' "$1" | grep -o '\${[A-Za-z_][A-Za-z0-9_]*}' |
		sed 's/^\${\(.*\)}$/\1/' | sort -u
}

# The example, small: byte counts (not percentages) and times cut down.
shrink() {
	sed -e 's/^\(size\|io_size\|io_limit\|filesize\)=[0-9][^%]*$/\1=2m/' \
	    -e 's/^\(runtime\|timeout\)=.*/\1=300ms/' \
	    -e 's/^ramp_time=.*/ramp_time=0/' "$1"
}

# Runs example $1 with its variables set to directory $2.
run_example() {
	mkdir -p "$2" &&
	for v in $(example_vars "$1"); do
		eval "$v=\$2; export $v" || return 1
	done &&
	shrink "$1" >"$2.fio" &&
	"$IOLITE" "$2.fio" >"$2.out" 2>"$2.err" &&
	test_must_be_empty "$2.err" &&
	grep -q "^Run status group 0" "$2.out"
}

test_expect_success 'there are examples' '
	ls "$EXAMPLES"/*.fio >list &&
	test -s list
'

# The prerequisites of example $1: the optional engines it names.
example_prereqs() {
	grep -q "^ioengine=libaio" "$1" && echo LIBAIO
	grep -q "^ioengine=io_uring" "$1" && echo IO_URING
	:
}

for ex in "$EXAMPLES"/*.fio; do
	name=$(basename "$ex" .fio)
	pre=$(example_prereqs "$ex" | paste -sd, -)
	test_expect_success_if "$pre" "$name parses as written" '
		for v in $(example_vars "$ex"); do
			eval "$v=\$TRASH/$name.parse; export $v" || return 1
		done &&
		"$IOLITE" --parse-only "$ex" >parse.out 2>parse.err &&
		test_must_be_empty parse.err &&
		test -s parse.out
	'
	test_expect_success_if "$pre" "$name runs" '
		run_example "$ex" "$TRASH/$name"
	'
done

test_done
