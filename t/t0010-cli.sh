#!/bin/sh
# The tool options of the command line: every option fio 3.33's --help
# lists is accepted or refused with a reason; --version, --help, --showcmd,
# --enghelp, --output, --output-format, --eta, --max-jobs, --section,
# --readonly, --debug, --crctest, --cpuclock-test, --warnings-fatal,
# --alloc-size, the triggers, --aux-path, and exit codes.
. "$(dirname "$0")/test-lib.sh"

# fio 3.33's `fio --help` options, for machines without fio
FIO_HELP_OPTS="debug parse-only merge-blktrace-only output bandwidth-log
minimal output-format terse-version version help cpuclock-test crctest
cmdhelp enghelp showcmd eta eta-newline status-interval readonly section
alloc-size warnings-fatal max-jobs server daemonize client remote-config
idle-prof inflate-log trigger-file trigger-timeout trigger trigger-remote
aux-path"

# try_opt NAME: runs iolite with --NAME (and a value it takes) on a small
# job; it must run (exit 0) or stop with a message naming the option and
# saying why, never "unknown". Prints "ok" or "refused". Its files are
# try.NAME.out and try.NAME.err.
try_opt() {
	case $1 in
	debug) a=--debug=parse ;;
	output) a=--output=try.out ;;
	output-format) a=--output-format=terse ;;
	terse-version) a=--terse-version=4 ;;
	crctest) a=--crctest=crc32c ;;
	cmdhelp) a=--cmdhelp=bs ;;
	enghelp) a=--enghelp=null ;;
	eta) a=--eta=never ;;
	eta-newline|status-interval) a=--$1=5 ;;
	section) a=--section=a ;;
	alloc-size) a=--alloc-size=1024 ;;
	max-jobs) a=--max-jobs=4 ;;
	inflate-log) a=--inflate-log=nosuch.log.fz ;;
	trigger-file) a=--trigger-file=never-there ;;
	trigger-timeout) a=--trigger-timeout=60 ;;
	trigger) a="--trigger=true --trigger-timeout=60" ;;
	aux-path) a=--aux-path=. ;;
	idle-prof) a=--idle-prof=system ;;
	cpuclock-test) a=--cpuclock-test ;;
	server|client|daemonize|remote-config|trigger-remote) a="--$1=x" ;;
	*) a=--$1 ;;
	esac
	# shellcheck disable=SC2086
	"$IOLITE" $a --name=a --ioengine=null --size=64k >try.$1.out \
		2>try.$1.err
	rc=$?
	if grep -q "unknown\|not a job option\|is a command-line option" try.$1.err
	then
		echo "--$1: $(cat try.$1.err)" >&2
		return 1
	fi
	if test $rc = 0; then
		echo ok
	elif grep -q -- "--$1.* is not supported: ..*" try.$1.err; then
		echo refused
	elif test "$1" = inflate-log && grep -q "nosuch.log.fz" try.$1.err; then
		echo ok		# the option ran: the file is missing
	elif test "$1" = cpuclock-test && grep -q "^cs: Failed" try.$1.out; then
		echo ok		# the test ran; this machine's TSC failed it
	else
		echo "--$1: exit $rc: $(cat try.$1.err)" >&2
		return 1
	fi
}

# try_opts NAME...: try_opt of each NAME, all at once (their runs are
# small; what they cost is mostly start-up), a NAME tried before not
# again; prints "NAME ok|refused" in order, fails if one failed
try_opts() {
	for o in "$@"; do
		test -f try.$o.rc && continue
		{ try_opt $o >try.$o.res 2>try.$o.why; echo $? >try.$o.rc; } &
	done
	wait
	for o in "$@"; do
		read r <try.$o.rc && test "$r" = 0 ||
			{ cat try.$o.why >&2; return 1; }
		read r <try.$o.res && echo "$o $r" || return 1
	done
}

test_expect_success 'every option of fio --help (fixed list) is handled' '
	try_opts $FIO_HELP_OPTS >handled &&
	grep -q "^output-format ok" handled &&
	grep -q "^server refused" handled &&
	grep -q "^merge-blktrace-only refused" handled &&
	test $(wc -l <handled) = 34
'

test_expect_success_if FIO 'every option of this fio'"'"'s --help is handled' '
	fio --help | sed -n "s/^  --\([a-z-]*\).*/\1/p" | sort -u >fio.opts &&
	test -s fio.opts &&
	try_opts $(cat fio.opts) >/dev/null
'

test_expect_success '--help lists every option of fio --help' '
	"$IOLITE" --help >help.out &&
	for o in $FIO_HELP_OPTS; do
		grep -q "^  --$o\b" help.out || { echo "missing --$o"; return 1; }
	done
'

test_expect_success 'refused options say why, and run nothing' '
	test_must_fail "$IOLITE" --client=host1 --name=a --ioengine=psync \
		--size=64k --filename=cl.dat >out 2>err &&
	grep -q "option .--client. is not supported: .*mpirun" err &&
	test_must_be_empty out && test_path_is_missing cl.dat &&
	test_must_fail "$IOLITE" --merge-blktrace-only 2>err &&
	grep -q "blktrace" err &&
	test_must_fail "$IOLITE" --latency-log=x --name=a 2>err &&
	grep -q "write_lat_log" err
'

test_expect_success 'a tool option with a value it does not take fails' '
	test_must_fail "$IOLITE" --readonly=1 --name=a --ioengine=null \
		--size=64k 2>err &&
	grep -q "takes no value" err
'

test_expect_success '--version prints iolite-VERSION' '
	"$IOLITE" --version >out 2>err &&
	test_must_be_empty err &&
	grep -q "^iolite-[0-9]" out
'

test_expect_success '--help prints usage to stdout, exit 0' '
	"$IOLITE" --help >out 2>err &&
	test_must_be_empty err &&
	grep -q "usage: iolite" out
'

test_expect_success '--help lists html output and the commands; each has --help' '
	"$IOLITE" --help >out &&
	grep -q "^  --output-format=LIST .*html" out &&
	sed -n "/^Commands/,/^\$/s/^  iolite \([a-z]*\) .*/\1/p" out >cmds &&
	grep -qx compare cmds && grep -qx plot cmds &&
	while read -r cmd; do
		"$IOLITE" "$cmd" --help >cmd.out 2>cmd.err &&
		test_must_be_empty cmd.err &&
		grep -q "^usage: iolite $cmd " cmd.out || return 1
	done <cmds
'

test_expect_success 'an unknown tool option fails' '
	test_must_fail "$IOLITE" -Z 2>err &&
	grep -q "unknown command-line option" err
'

test_expect_success '--enghelp lists the engines of this build' '
	"$IOLITE" --enghelp >out 2>err &&
	for e in sync psync vsync pvsync pvsync2 null; do
		grep -qw "$e" out || return 1
	done
'

test_expect_success '--enghelp=pvsync2 lists its options' '
	"$IOLITE" --enghelp=pvsync2 >out &&
	grep -qw hipri out && grep -qw nowait out
'

test_expect_success '--enghelp=nosuch fails' '
	test_must_fail "$IOLITE" --enghelp=nosuch 2>err &&
	test -s err
'

test_expect_success '--showcmd turns a job file into a command line' '
	cat >s.fio <<-\EOF &&
	[global]
	ioengine=null
	[a]
	rw=randread
	bs=8k
	EOF
	"$IOLITE" --showcmd s.fio >out &&
	grep -q -- "--name=a" out && grep -q -- "--bs=8k" out &&
	grep -q -- "--ioengine=null" out
'

test_expect_success '--showcmd output runs as the same jobs' '
	"$IOLITE" --parse-only s.fio >expect &&
	cmd=$(cat out | sed "s/^iolite //") &&
	eval "\"\$IOLITE\" --parse-only $cmd" >actual &&
	grep "^bs=" expect >e1 && grep "^bs=" actual >a1 && test_cmp e1 a1
'

test_expect_success '--output writes the report to a file, nothing on stdout' '
	"$IOLITE" --output=rep.txt --name=a --ioengine=null --size=1m >out 2>err &&
	test_must_be_empty out && test_must_be_empty err &&
	grep -q "issued rwts: total=256,0,0,0" rep.txt
'

test_expect_success '--output-format=nosuch is refused before running' '
	test_must_fail "$IOLITE" --output-format=nosuch --name=a \
		--ioengine=null --size=1m >out 2>err &&
	grep -q "nosuch" err
'

for f in "" "json," ",normal" "json,,normal"; do
	test_expect_success "--output-format='$f' is refused before any I/O" "
		test_must_fail \"\$IOLITE\" --output-format='$f' --name=a \\
			--rw=write --size=64k --filename=of.dat >out 2>err &&
		test_must_be_empty out &&
		grep -q 'empty format' err &&
		test_path_is_missing of.dat
	"
done

test_expect_success '--eta is accepted and changes nothing on stdout' '
	"$IOLITE" --eta=never --name=a --ioengine=null --size=1m >out 2>err &&
	test_must_be_empty err && grep -q "Run status group 0" out
'

test_expect_success '--max-jobs refuses more job instances' '
	test_must_fail "$IOLITE" --max-jobs=2 --name=a --ioengine=null \
		--size=1m --numjobs=3 2>err &&
	grep -q "max-jobs" err
'

test_expect_success '--max-jobs allows as many' '
	"$IOLITE" --max-jobs=3 --name=a --ioengine=null --size=1m \
		--numjobs=3 >out 2>err &&
	test_must_be_empty err
'

test_expect_success '--section runs only the named job' '
	cat >two.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	[first]
	rw=read
	[second]
	rw=write
	EOF
	"$IOLITE" --section=second two.fio >out 2>err &&
	test_must_be_empty err &&
	! grep -q "^first:" out && grep -q "^second:" out
'

test_expect_success '--readonly refuses a writing job, creates nothing' '
	test_must_fail "$IOLITE" --readonly --name=w --rw=write --size=64k \
		--filename=ro.dat 2>err &&
	grep -q "readonly" err &&
	test_path_is_missing ro.dat
'

test_expect_success '--readonly refuses trims too' '
	test_must_fail "$IOLITE" --readonly --name=t --rw=randtrim \
		--size=64k --filename=ro.dat 2>err &&
	grep -q "readonly" err
'

test_expect_success '--readonly lets a read job run' '
	"$IOLITE" --name=w --rw=write --size=64k --filename=r.dat >/dev/null &&
	"$IOLITE" --readonly --name=r --rw=read --size=64k \
		--filename=r.dat >out 2>err &&
	test_must_be_empty err
'

test_expect_success '--enghelp=ENGINE,OPTION prints that option' '
	"$IOLITE" --enghelp=pvsync2,hipri >out &&
	test $(wc -l <out) = 1 && grep -q "^hipri *:" out &&
	test_must_fail "$IOLITE" --enghelp=pvsync2,nosuch 2>err &&
	grep -q "no option .nosuch." err
'

test_expect_success '--crctest: one line per checksum, fio'"'"'s layout' '
	"$IOLITE" --crctest >crc.out 2>err &&
	test_must_be_empty err &&
	grep -q "^crc32c:		 *[0-9][0-9]*\.[0-9][0-9] MiB/sec$" crc.out &&
	! grep -v "^[a-z0-9-]*:	\{1,2\} *[0-9][0-9]*\.[0-9][0-9] MiB/sec$" crc.out &&
	"$IOLITE" --crctest=crc32c >one.out &&
	test $(wc -l <one.out) = 1 && grep -q "^crc32c:" one.out
'

test_expect_success '--crctest names the checksums verify= takes' '
	cut -d: -f1 crc.out | while read c; do
		"$IOLITE" --parse-only --name=a --verify=$c --ioengine=null \
			--size=64k >/dev/null || return 1
	done &&
	test_must_fail "$IOLITE" --crctest=nosuch 2>err &&
	grep -q "unknown checksum .nosuch. (available: crc32c" err
'

test_expect_success '--cpuclock-test: fio'"'"'s cs: lines, exit 0 or 1' '
	"$IOLITE" --cpuclock-test >cs.out 2>cs.err
	rc=$? &&
	test_must_be_empty cs.err &&
	grep -q "^cs: reliable_tsc: " cs.out &&
	if test $rc = 0; then
		grep -q "^cs: reliable_tsc: yes" cs.out &&
		grep -q "^cs: Testing [0-9]* CPU" cs.out &&
		tail -1 cs.out | grep -qx "cs: Passed"
	else
		test $rc = 1 && tail -1 cs.out | grep -q "^cs: Failed"
	fi
'

test_expect_success '--debug=help lists the categories' '
	"$IOLITE" --debug=help >out 2>err &&
	test_must_be_empty err &&
	for c in process file mem verify random parse diskutil job time io; do
		grep -q "^  $c " out || return 1
	done
'

test_expect_success '--debug: unknown and empty categories are refused' '
	test_must_fail "$IOLITE" --debug=nosuch --name=a 2>err &&
	grep -q "unknown category .nosuch. (valid: process" err &&
	test_must_fail "$IOLITE" --debug=mutex --name=a 2>err &&
	grep -q "category .mutex. is not supported: " err &&
	test_must_fail "$IOLITE" --debug=file, --name=a 2>err &&
	grep -q "empty category" err
'

test_expect_success '--debug prints the asked categories only, where fio does' '
	"$IOLITE" --debug=file,parse --name=a --ioengine=psync --size=64k \
		--filename=dbg.dat --output-format=terse >out 2>err &&
	test_must_be_empty err &&
	grep -q "^file  *[0-9][0-9]*  *job .a. instance 0: file .dbg.dat. size 65536" out &&
	grep -q "^parse  *[0-9][0-9]*  *<cmdline>:[0-9]*: ioengine=psync" out &&
	test $(grep -v "^file \|^parse " out | wc -l) = 1 &&
	"$IOLITE" --debug=all --name=a --ioengine=null --size=64k \
		--output-format=terse >out 2>err &&
	test_must_be_empty err &&
	grep -q "^time " out && grep -q "^job " out && grep -q "^process " out &&
	# with --output, what comes once it is open goes there (fio: f_out)
	"$IOLITE" --debug=process --name=a --ioengine=null --size=64k \
		--output=rep.txt >out 2>err &&
	test_must_be_empty err && grep -q "^process " rep.txt &&
	! grep -q "^process " out
'

# fio's --debug=io: a line as each I/O is queued and as it completes, on
# every engine path (inline, asynchronous), with or without write_iolog
test_expect_success '--debug=io: each I/O queued and completed, once' '
	for e in psync null; do
		"$IOLITE" --debug=io --name=a --ioengine=$e --filename=dio.dat \
			--size=64k --bs=4k --rw=randwrite --iodepth=4 \
			--write_iolog=w.$e --output-format=terse >out 2>err &&
		test_must_be_empty err &&
		test $(grep -c "^io  *[0-9]*  *queue: io_u [0-9]*: off=0x[0-9a-f]*,len=0x1000,ddir=1,file=dio.dat" out) = 16 &&
		test $(grep -c "^io  *[0-9]*  *complete: " out) = 16 &&
		sed -n "s/.*queue: .*off=0x\([0-9a-f]*\),.*/\1/p" out | sort >q &&
		sed -n "s/.*complete: .*off=0x\([0-9a-f]*\),.*/\1/p" out | sort >c &&
		test_cmp q c &&
		test $(grep -c " write " w.$e) = 16 || return 1
	done
'

test_expect_success '--parse-only with only global options parses them' '
	"$IOLITE" --parse-only --debug=parse --ss_dur=10s --ss=iops:10 \
		--ss_ramp=5 >out 2>err &&
	test_must_be_empty err && grep -q "^parse .*ss=iops:10" out &&
	test_must_fail "$IOLITE" --parse-only --ss=bogus:10 2>err &&
	grep -q "option .ss.: invalid criterion" err
'

test_expect_success '--warnings-fatal makes an option note an error' '
	"$IOLITE" --name=a --ioengine=null --size=64k --threads=2 >out 2>err &&
	test_must_be_empty err && grep -q "tiobench profile" out &&
	test_must_fail "$IOLITE" --warnings-fatal --name=a --ioengine=null \
		--rw=write --size=64k --threads=2 --filename=wf.dat >out 2>err &&
	grep -q "tiobench profile.*(--warnings-fatal)" err &&
	test_path_is_missing wf.dat &&
	"$IOLITE" --warnings-fatal --name=a --ioengine=null --size=64k >out &&
	grep -q "Run status group 0" out
'

test_expect_success '--alloc-size is accepted and changes nothing' '
	"$IOLITE" --alloc-size=4096 --name=a --ioengine=null --size=1m \
		--output-format=terse >out 2>err &&
	test_must_be_empty err && grep -q "^3;iolite-[^;]*;a;0;0;1024;" out &&
	test_must_fail "$IOLITE" --alloc-size=lots --name=a 2>err &&
	grep -q "alloc-size" err
'

test_expect_success_if PYTHON3 '--trigger-file stops the run when the file appears' '
	rm -f trig ran &&
	(sleep 0.3 && : >trig) &
	"$IOLITE" --trigger-file=trig --trigger="echo fired >ran" --name=a \
		--ioengine=null --size=1m --time_based --runtime=60 \
		--output-format=json >out 2>err &&
	wait &&
	test_must_be_empty err &&
	test_path_is_missing trig &&
	grep -qx fired ran &&
	python3 -c "
import json
d = json.load(open(\"out\"))
notes = d[\"iolite\"][\"notes\"]
assert any(\"trigger: .trig. appeared\".replace(\".\", \"\x27\") in n for n in notes), notes
assert d[\"jobs\"][0][\"read\"][\"runtime\"] < 30000, d[\"jobs\"][0][\"read\"][\"runtime\"]
"
'

test_expect_success '--trigger-timeout stops the run, a failing command fails' '
	test_must_fail "$IOLITE" --trigger-timeout=300ms --trigger=false \
		--name=a --ioengine=null --size=1m --time_based --runtime=60 \
		>out 2>err &&
	grep -q "trigger command .false. failed" err &&
	grep -q "trigger: the timeout of 0.300 s passed" out
'

test_expect_success '--aux-path puts the verify state files there' '
	mkdir -p aux &&
	"$IOLITE" --aux-path=aux --name=v --filename=vs.dat --size=64k \
		--bs=4k --rw=write --ioengine=psync --verify=crc32c >out 2>err &&
	test_must_be_empty err &&
	test -f aux/local-v-0-verify.state &&
	test_path_is_missing local-v-0-verify.state &&
	"$IOLITE" --aux-path=aux --name=v --filename=vs.dat --size=64k \
		--bs=4k --rw=write --ioengine=psync --verify=crc32c \
		--verify_only --verify_state_load=1 >out 2>err &&
	test_must_be_empty err &&
	test_must_fail "$IOLITE" --aux-path=nosuch --name=a 2>err &&
	grep -q "aux-path.*nosuch" err
'

ncpus=$(nproc 2>/dev/null || echo 1)

test_expect_success '--idle-prof=percpu: fio'"'"'s block in the normal report' '
	"$IOLITE" --idle-prof=percpu --name=a --ioengine=null --size=1m \
		--rate_iops=500 --number_ios=100 >out 2>err &&
	test_must_be_empty err &&
	sed -n "/^CPU idleness:/,\$p" out >idle &&
	grep -q "^  system: [0-9]*\.[0-9][0-9]%$" idle &&
	grep "^  percpu: " idle | tr "," "\n" | grep -c "%" >n &&
	test "$(cat n)" = "$ncpus" &&
	grep -q "^  unit work: mean=[0-9.]*us, stddev=[0-9.]*$" idle &&
	"$IOLITE" --idle-prof=system --name=a --ioengine=null --size=1m >out &&
	grep -q "^CPU idleness:" out && ! grep -q "^  percpu:" out
'

test_expect_success_if PYTHON3 '--idle-prof: JSON cpu_idleness, figures in range' '
	"$IOLITE" --idle-prof=percpu --output-format=json --name=a \
		--ioengine=null --size=1m --rate_iops=500 --number_ios=100 \
		>idle.json &&
	python3 - "$ncpus" <<-\EOF
	import json, sys
	d = json.load(open("idle.json"))
	keys = list(d.keys())
	assert keys.index("cpu_idleness") == keys.index("jobs") + 1, keys
	c = d["cpu_idleness"]
	cpus = [k for k in c if k.startswith("cpu-")]
	assert len(cpus) == int(sys.argv[1]), c
	for k in ["system"] + cpus:
	    assert 0 <= c[k] <= 100, (k, c[k])
	assert c["unit_mean"] > 0 and c["unit_stddev"] >= 0, c
	EOF
'

test_expect_success_if FIO,PYTHON3 '--idle-prof: the same JSON keys as fio' '
	fio --idle-prof=percpu --output-format=json --name=a \
		--ioengine=null --size=1m >fio.json 2>/dev/null &&
	for f in fio.json idle.json; do
		python3 -c "import json, sys; print(sorted(json.load(open(sys.argv[1]))[\"cpu_idleness\"]))" $f || return 1
	done >keys && test $(sort -u keys | wc -l) = 1
'

test_expect_success '--idle-prof=calibrate prints the unit and runs nothing' '
	"$IOLITE" --idle-prof=calibrate --name=a --rw=write --size=64k \
		--filename=cal.dat >out 2>err &&
	test_must_be_empty err &&
	printf "CPU idleness:\n" >expect && head -1 out >actual &&
	test_cmp expect actual &&
	grep -q "^  unit work: mean=[0-9.]*us, stddev=[0-9.]*$" out &&
	test_path_is_missing cal.dat &&
	test_must_fail "$IOLITE" --idle-prof=nosuch 2>err &&
	grep -q "valid: system, percpu, calibrate" err
'

test_expect_success 'no arguments: nothing to run, exit 1' '
	test_must_fail "$IOLITE" >out 2>err &&
	test -s err
'

test_done
