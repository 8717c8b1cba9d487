#!/bin/sh
# exec: the job runs a program for its runtime (fio's exec engine): the
# arguments split at spaces with %r (runtime in seconds) and %n (job
# name) expanded; stdout and stderr in NAME.stdout and NAME.stderr unless
# std_redirect=0; SIGTERM when the runtime is over, SIGKILL grace_time
# seconds later; the exit status in the notes, not the job's error; I/Os
# of no bytes, about ten a second as fio's (a 50 ms wait, a 50 ms
# pause). Without a runtime the job ends with the program (fio 3.33
# never ends).

. "$(dirname "$0")/test-lib.sh"

test_require PYTHON3

JSONCMP="$TEST_DIR/jsoncmp.py"

# prog: prints its arguments and a line on stderr, exits 3 on SIGTERM,
# else sleeps for ever (at most 30 s)
cat >"$TRASH/prog" <<\EOF
#!/bin/sh
echo "args: $*"
echo "to stderr" >&2
trap 'echo term; exit 3' TERM
sleep 30 &
wait
EOF
# stubborn: ignores SIGTERM
cat >"$TRASH/stubborn" <<\EOF
#!/bin/sh
trap '' TERM
echo started
sleep 30 &
wait
wait
EOF
chmod +x "$TRASH/prog" "$TRASH/stubborn"

# notes JSON: the report's notes, one a line
notes() {
	python3 -c "
import json, sys
t = open(sys.argv[1]).read()
for n in json.loads(t[t.index('{\n'):])['iolite']['notes']: print(n)
" "$1"
}

# ios JSON: "ios=N bytes=N err=N runtime_ms=N"
ios() {
	python3 -c "
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index('{\n'):])['jobs'][0]
print('ios=%d bytes=%d err=%d runtime_ms=%d' % (j['read']['total_ios'],
      j['read']['io_bytes'], j['error'], j['job_runtime']))
" "$1"
}

test_expect_success 'runtime=1: runs the program, SIGTERM at the end, output in NAME.stdout/.stderr' '
	"$IOLITE" --name=ex --ioengine=exec --program="$TRASH/prog" \
		--arguments="a %r  %n b" --runtime=1 --output-format=json \
		>ex.json 2>err &&
	test_must_be_empty err &&
	printf "args: a 1 ex b\nterm\n" >expect &&
	test_cmp expect ex.stdout &&
	echo "to stderr" >expect &&
	test_cmp expect ex.stderr &&
	notes ex.json >n &&
	grep "^exec: .*/prog a 1 ex b. ran 1\.[0-9]s, exit status 3 (SIGTERM at the end of the runtime); output in ex.stdout, ex.stderr$" n &&
	ios ex.json >f &&
	grep "bytes=0 err=0 " f &&
	n=$(sed "s/ios=\([0-9]*\) .*/\1/" f) &&
	test "$n" -ge 2 && test "$n" -le 11
'

test_expect_success_if FIO 'fio runs the same command line, writes the same files, same keys' '
	mkdir -p fio && (cd fio &&
		fio --name=ex --ioengine=exec --program="$TRASH/prog" \
			--arguments="a %r  %n b" --runtime=1 \
			--output-format=json >ex.out 2>/dev/null) &&
	sed -n "/^{\$/,\$p" fio/ex.out >fio.json &&
	# whether fio signals before it kills is a race in fio: the first line
	head -n 1 fio/ex.stdout >expect &&
	head -n 1 ex.stdout >actual &&
	test_cmp expect actual &&
	test_cmp fio/ex.stderr ex.stderr &&
	python3 "$JSONCMP" fio.json ex.json
'

test_expect_success 'a program ignoring SIGTERM gets SIGKILL after grace_time' '
	"$IOLITE" --name=st --ioengine=exec --program="$TRASH/stubborn" \
		--runtime=300ms --grace_time=1 --output-format=json \
		>st.json 2>err &&
	test_must_be_empty err &&
	echo started >expect &&
	test_cmp expect st.stdout &&
	notes st.json | grep "^exec: .*stubborn. ran 1\.[0-9]s, killed by SIGKILL (SIGKILL after a grace time of 1s)"
'

test_expect_success 'without a runtime the job ends with the program' '
	"$IOLITE" --name=sl --ioengine=exec --program=sleep --arguments=0.3 \
		--output-format=json >sl.json 2>err &&
	test_must_be_empty err &&
	notes sl.json | grep "^exec: .sleep 0.3. ran 0\.[3-9]s, exit status 0; output in sl.stdout, sl.stderr$" &&
	ios sl.json | grep "bytes=0 err=0 runtime_ms=[3-9][0-9][0-9]$" &&
	test_must_be_empty sl.stdout
'

test_expect_success 'a failing program fails nothing but its status (as fio)' '
	"$IOLITE" --name=fa --ioengine=exec --program=false \
		--output-format=json >fa.json 2>err &&
	test_must_be_empty err &&
	notes fa.json | grep "^exec: .false. ran 0\.[0-9]s, exit status 1;" &&
	ios fa.json | grep "err=0"
'

test_expect_success 'std_redirect=0: the output goes to stderr, the report stays whole' '
	"$IOLITE" --name=ex --ioengine=exec --program="$TRASH/prog" \
		--arguments=x --runtime=300ms --std_redirect=0 \
		--output-format=json >out.json 2>err &&
	python3 -c "import json; json.load(open(\"out.json\"))" &&
	grep "^args: x$" err &&
	grep "^to stderr$" err &&
	test_path_is_missing ex.stdout.x
'

test_expect_success 'no header line and no group line; a successful run writes nothing to stderr' '
	"$IOLITE" --name=ex --ioengine=exec --program=true >out 2>err &&
	test_must_be_empty err &&
	! grep "^ex: (g=0)" out &&
	! grep "^   READ:" out &&
	grep "^  exec: .true. ran" out
'

test_expect_success 'refused before anything runs: no program, not found, not executable, verify' '
	test_must_fail "$IOLITE" --name=ex --ioengine=exec >out 2>err &&
	grep "option .program.: ioengine .exec. needs program=" err &&
	test_must_fail "$IOLITE" --name=ex --ioengine=exec \
		--program=no-such-program-here >out 2>err &&
	grep "option .program.: .no-such-program-here. is not found on PATH" err &&
	test_must_fail "$IOLITE" --name=ex --ioengine=exec \
		--program="$TRASH/prog.not" >out 2>err &&
	grep "is not an executable file" err &&
	test_must_fail "$IOLITE" --name=ex --ioengine=exec --program=true \
		--verify=crc32c >out 2>err &&
	grep "option .verify.: ioengine .exec. moves no data" err &&
	test_must_fail "$IOLITE" --name=ex --ioengine=psync --size=4k \
		--program=true >out 2>err &&
	grep "option .program. is not valid with ioengine .psync. (only exec)" err &&
	test_path_is_missing ex.0.0
'

# --readonly means no side effects: a program could do anything (fio
# runs it all the same)
test_expect_success '--readonly refuses running a program, before anything runs' '
	printf "[ex]\nruntime=1\nioengine=exec\nprogram=touch\narguments=made\n" >ro.fio &&
	test_must_fail "$IOLITE" --readonly ro.fio >out 2>err &&
	echo "iolite: ro.fio:3: option '\''ioengine'\'': --readonly refuses running '\''touch'\'': a program could change anything" >expect &&
	test_cmp expect err && test_must_be_empty out &&
	test_must_fail "$IOLITE" --readonly --name=r --ioengine=null \
		--size=4k --exec_postrun="touch made" >out 2>err &&
	grep "^iolite: <cmdline>:5: option .exec_postrun.: --readonly refuses running .touch made." err &&
	test_path_is_missing made &&
	test_path_is_missing r.postrun.txt
'

test_done
test_done
