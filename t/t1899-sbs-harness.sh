#!/bin/sh
# The side-by-side harness itself (t/lib-sbs.sh): it must report a
# difference, a pending row that differs (skip) or no longer does
# (failure), fixed figures that disagree with fio, a malformed row, and
# keep one bad row from failing its batch. "fio" here is iolite with one
# twist: a job whose description is "halve" does half the I/O.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-sbs.sh"

mkdir -p "$TRASH/tables"
cat >"$TRASH/tables/t.txt" <<'TABLE'
# a comment, then a blank line

same       | counts,bytes,seq | ios=0,16,0 bytes=0,65536,0 | --size=64k --bs=4k --rw=write
differ     | counts | - | --description=halve --size=64k --bs=4k --rw=write
pend-differ | counts,pending=X1 | - | --description=halve --size=64k --bs=4k --rw=write
pend-same  | counts,pending=X2 | - | --size=64k --bs=4k --rw=write
bad-expect | counts | ios=0,15,0 | --size=64k --bs=4k --rw=write
seqdiff    | seq | - | --description=halve --size=64k --bs=4k --rw=write
random     | counts,set | cover=65536 twice=0 | --size=64k --bs=4k --rw=randwrite
refused    | counts | - | --size=64k --no_such_option=1
err-both   | err | rc=1 | --bs=foo
tol-in     | counts~60 | - | --description=halve --size=64k --bs=4k --rw=write
tol-out    | counts~40 | - | --description=halve --size=64k --bs=4k --rw=write
needy      | counts,needs=NO_SUCH_PREREQ | - | --size=64k --bs=4k --rw=write
malformed  | counts
TABLE

cat >"$TRASH/fakefio" <<'FAKE'
#!/bin/sh
# iolite, but a job with description=halve writes 32k instead of 64k
halve='/^\[/ { h = 0 } /^-*description=halve$/ { h = 1 }
	h && /^-*size=64k$/ { sub(/64k/, "32k") } { print }'
for a; do last=$a; done
case "$last" in
*.fio)
	awk "$halve" "$last" >"$last.fake" &&
	for a; do
		shift
		[ "$a" = "$last" ] && a=$last.fake
		set -- "$@" "$a"
	done ;;
*)
	h=0
	for a; do
		shift
		case $a in
		--description=halve) h=1 ;;
		--size=64k) [ $h = 1 ] && a=--size=32k ;;
		esac
		set -- "$@" "$a"
	done ;;
esac
exec "$IOLITE" "$@"
FAKE
chmod +x "$TRASH/fakefio"
# for the generator: iolite with every size= halved
cat >"$TRASH/halfgen" <<'FAKE'
#!/bin/sh
for a; do
	shift
	case $a in
	--size=*) a=--size=$(( $("$IOLITE" --parse-only --name=x "$a" |
		sed -n "s/^size=//p") / 2 )) ;;
	esac
	set -- "$@" "$a"
done
exec "$IOLITE" "$@"
FAKE
chmod +x "$TRASH/halfgen"

run_table() {
	(SBS_TABLES="$TRASH/tables" && sbs_table t && echo "counts: $test_count $test_failed $test_skipped") >"$1"
}

SBS_FIO="$TRASH/fakefio" run_table "$TRASH/with.out"
SBS_HAVE=
SBS_FIO=/nonexistent/fio run_table "$TRASH/without.out"

test_expect_success 'a row that matches passes' '
	grep "^ok [0-9]* - t.txt: same$" with.out
'

test_expect_success 'a difference fails and shows both figures' '
	grep "^not ok [0-9]* - t.txt: differ$" with.out &&
	grep "^#   ios: fio=0,8,0 iolite=0,16,0$" with.out
'

test_expect_success 'pending: a difference skips, a match fails' '
	grep "^ok [0-9]* # skip t.txt: pend-differ: pending fix X1 (ios: fio=0,8,0 iolite=0,16,0)$" with.out &&
	grep "^not ok [0-9]* - t.txt: pend-same # fixed: remove pending=X2$" with.out
'

test_expect_success 'fixed figures fio disagrees with are a table error' '
	grep "^not ok [0-9]* - t.txt: bad-expect # table error$" with.out &&
	grep "fixed figure ios=0,15,0 but fio gives 0,16,0" with.out
'

test_expect_success 'a sequence difference names the first differing line' '
	grep "^not ok [0-9]* - t.txt: seqdiff$" with.out &&
	grep "first difference at I/O line 9: fio \"(end)\" iolite \"seqdiff.0.0 write 32768 4096\"" with.out
'

test_expect_success 'a random row compares its set; err rows compare exits' '
	grep "^ok [0-9]* - t.txt: random$" with.out &&
	grep "^ok [0-9]* - t.txt: err-both$" with.out
'

test_expect_success 'a row both tools refuse fails alone, not its batch' '
	grep "^not ok [0-9]* - t.txt: refused # table error$" with.out &&
	grep "fio said: iolite: .*no_such_option" with.out
'

test_expect_success 'a malformed line is a failure naming its line' '
	grep "^not ok [0-9]* - t.txt: line 15 # table error$" with.out &&
	grep "expected 4 fields" with.out
'

test_expect_success 'a tolerance in percent: 8 I/Os for 16 is within 60, not 40' '
	grep "^ok [0-9]* - t.txt: tol-in$" with.out &&
	grep "^not ok [0-9]* - t.txt: tol-out$" with.out
'

test_expect_success 'a prerequisite test-lib does not know is a table error' '
	grep "^not ok [0-9]* - t.txt: needy # table error$" with.out &&
	grep "^#   unknown NO_SUCH_PREREQ$" with.out
'

test_expect_success 'every row is one test: thirteen lines, four pass' '
	grep -c "^ok [0-9]* - " with.out >n && test "$(cat n)" = 4 &&
	grep "^counts: 13 8 1$" with.out
'

test_expect_success 'without fio: fixed figures are checked, the rest skips' '
	grep "^ok [0-9]* - t.txt: same$" without.out &&
	grep "^ok [0-9]* # skip t.txt: differ (no fixed figures: needs fio)$" without.out &&
	grep "^not ok [0-9]* - t.txt: bad-expect$" without.out &&
	grep "^#   ios: expected=0,15,0 iolite=0,16,0$" without.out
'

# --- the generator (t/sbs-gen) ------------------------------------------

test_expect_success_if PYTHON3 'sbs-gen: the same seed draws the same jobs, every family among them' '
	python3 "$TEST_DIR/sbs-gen" --iolite="$IOLITE" --seed=h --count=300 \
		--print >jobs1 &&
	python3 "$TEST_DIR/sbs-gen" --iolite="$IOLITE" --seed=h --count=300 \
		--print >jobs2 &&
	test_cmp jobs1 jobs2 &&
	python3 "$TEST_DIR/sbs-gen" --iolite="$IOLITE" --seed=h2 --count=300 \
		--print >jobs3 &&
	! cmp -s jobs1 jobs3 &&
	for f in size rw bs random zones loops rate fsync buffers filesvc \
		 create errors verify logs queue engines jobs; do
		grep -q "^[0-9]* \[\([a-z]*,\)*$f[],]" jobs1 ||
			{ echo "no $f job" >&2; return 1; }
	done
'

# iolite beside itself: whatever the job, two identical tools must not
# differ (a tolerance that is too tight shows here, without fio)
test_expect_success_if PYTHON3 'sbs-gen: iolite beside itself shows no difference' '
	python3 "$TEST_DIR/sbs-gen" --iolite="$IOLITE" --fio="$IOLITE" \
		--seed=self --count=40 --jobs=2 --work="$TRASH/self" >self.out ||
		{ cat self.out >&2; return 1; }
	grep "^sbs-gen summary: seed self, 40 jobs, 0 with an unexplained" self.out
'

test_expect_success_if PYTHON3 'sbs-gen: a "fio" that does half the I/O is caught, with both commands' '
	test_must_fail python3 "$TEST_DIR/sbs-gen" --iolite="$IOLITE" \
		--fio="$TRASH/halfgen" --seed=half --count=12 --jobs=2 \
		--family=size >half.out &&
	grep "^seed half job [0-9]* (families: " half.out &&
	grep "^  fio:    $TRASH/halfgen --name=g " half.out &&
	grep "^  again:  t/sbs-gen --seed=half --family=size --only=" half.out &&
	grep -E "^  (total|ios\.[rw]|iolog\.n|cover|files): fio=" half.out &&
	n=$(sed -n "s/^sbs-gen summary: seed half, 12 jobs, \([0-9]*\) with.*/\1/p" half.out) &&
	test "$n" -ge 6
'

test_done
