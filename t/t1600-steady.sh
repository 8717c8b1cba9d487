#!/bin/sh
# Steady state (steadystate / ss, ss_dur, ss_ramp): a job at a steady
# rate stops once the criterion holds over the window and says so (JSON
# "steadystate" with attained 1, the normal report's line, a note); one
# that cannot reach it runs to its runtime with attained 0; group_reporting
# judges the group as one; bad values are refused; the JSON object has
# fio 3.33's keys and types; fio 3.36's lat and lat_slope criteria.
. "$(dirname "$0")/test-lib.sh"

test_require JQ

# A null-engine job at a steady 1000 IOPS, time_based for $1 seconds.
steady_job() {
	echo "--name=ss --ioengine=null --size=1g --bs=4k --rw=read
	      --rate_iops=1000 --time_based --runtime=$1"
}

# jtrue FILE EXPR: the jq boolean EXPR holds with $j = the first job and
# $s = its "steadystate" object (jq -e: false, null or an error fail).
jtrue() {
	jq -e ".jobs[0] as \$j | \$j.steadystate as \$s | $2" "$1" >/dev/null ||
		{ echo "false: $2" >&2; return 1; }
}

# The runs hold a rate for seconds, mostly waiting: they run together,
# each test checks its own.
. "$TEST_DIR/lib-bg.sh"
bg_run reached '"$IOLITE" $(steady_job 20) --ss=iops:20% --ss_dur=2 \
	--output-format=json,normal >reached.out 2>reached.err'
bg_run ns '"$IOLITE" $(steady_job 2) --ss=iops_slope:0 --ss_dur=1 \
	--output-format=json >ns.json 2>ns.err'
bg_run short '"$IOLITE" $(steady_job 1) --ss=bw_slope:5% --ss_dur=5 \
	--output-format=json,normal >short.out 2>short.err'
bg_run g '"$IOLITE" $(steady_job 20) --numjobs=2 --group_reporting \
	--ss=iops:20% --ss_dur=2 --output-format=json >g.json 2>g.err'
bg_run interim '"$IOLITE" $(steady_job 4) --ss=iops:50% --ss_dur=2 \
	--status-interval=1 --output-format=json >interim.out 2>interim.err'
if test_have_prereq FIO,PYTHON3; then
	bg_run f.json 'fio $(steady_job 2) --ss=iops:30% --ss_dur=1 \
		--output-format=json >f.json 2>/dev/null'
	bg_run i.json '"$IOLITE" $(steady_job 2) --ss=iops:30% --ss_dur=1 \
		--output-format=json >i.json 2>i.err'
fi
bg_run lat '"$IOLITE" $(steady_job 20) --ss=lat:1000% --ss_dur=2 \
	--output-format=json,normal >lat.out 2>lat.err'
bg_run slope '"$IOLITE" $(steady_job 2) --ss=lat_slope:0 --ss_dur=1 \
	--output-format=json,normal >slope.out 2>slope.err'
bg_run iops '"$IOLITE" $(steady_job 1) --ss=iops:50% --ss_dur=1 \
	--output-format=json,normal >iops.out 2>iops.err'

test_expect_success 'steady state reached: the job stops early and says so' '
	bg_wait reached &&
	test_must_be_empty reached.err &&
	mv reached.out out &&
	sed -n "/^{/,/^}/p" out >ss.json &&
	jtrue ss.json "\$s.attained == 1" &&
	jtrue ss.json "\$s.ss == \"iops:20.000000%\"" &&
	jtrue ss.json "\$s.duration == 2 and (\$s.data.iops | length) == 2" &&
	jtrue ss.json "\$s.criterion | endswith(\"%\")" &&
	jtrue ss.json "\$s.criterion | rtrimstr(\"%\") | tonumber <= 20" &&
	jtrue ss.json "\$s.max_deviation >= 0 and \$s.slope == 0" &&
	jtrue ss.json "\$s.data.iops_mean > 500 and \$s.data.iops_mean < 2000" &&
	jtrue ss.json "(\$s.data.bw_mean - 4096 * \$s.data.iops_mean) | fabs < 4096 * 20" &&
	# far less than the 20 s asked for
	jtrue ss.json "\$j.read.runtime < 12000" &&
	jtrue ss.json "[.iolite.notes[] | select(contains(\"steady state reached\"))] | length == 1" &&
	grep "^  steadystate  : attained=yes, bw=.*iops=.*, iops mean dev=[0-9.]*%$" out &&
	grep "steady state reached (iops deviation within 20% over 2s)" out
'

test_expect_success 'steady state not reached: the job runs its runtime' '
	bg_wait ns &&
	test_must_be_empty ns.err &&
	jtrue ns.json "\$s.attained == 0" &&
	jtrue ns.json "\$s.ss == \"iops_slope:0.000000\"" &&
	jtrue ns.json "\$s.criterion | endswith(\"%\") | not" &&
	jtrue ns.json "\$j.read.runtime >= 1900" &&
	jtrue ns.json "[.iolite.notes[] | select(contains(\"steady state\"))] | length == 0"
'

test_expect_success 'a window never filled: zeros at its end, as fio' '
	bg_wait short &&
	test_must_be_empty short.err &&
	mv short.out out &&
	sed -n "/^{/,/^}/p" out >short.json &&
	jtrue short.json "\$s.attained == 0" &&
	jtrue short.json "(\$s.data.bw | length) == 5 and (\$s.data.iops | length) == 5" &&
	jtrue short.json "\$s.data.bw[4] == 0 and \$s.data.iops[4] == 0" &&
	jtrue short.json "\$s.criterion == \"0.000000%\"" &&
	grep "^  steadystate  : attained=no, .*, bw slope=0.000%$" out
'

test_expect_success 'group_reporting: the group is judged and stopped as one' '
	bg_wait g &&
	test_must_be_empty g.err &&
	jtrue g.json "(.jobs | length) == 1" &&
	jtrue g.json "\$s.attained == 1" &&
	# the rates of both jobs add up
	jtrue g.json "\$s.data.iops_mean > 1200" &&
	jtrue g.json "\$j.read.runtime < 12000"
'

test_expect_success 'reports made while the run goes on carry the block too' '
	bg_wait interim &&
	test_must_be_empty interim.err &&
	mv interim.out out &&
	# one JSON document per report: the interim ones and the final one
	awk "/^{/ { n++ } { print > (\"r\" n \".json\") }" out &&
	test -f r2.json &&
	for f in r*.json; do
		jtrue $f "\$s.duration == 2 and (\$s.data.iops | length) == 2" ||
			exit 1
	done &&
	jtrue r1.json "\$s.attained == 0"
'

test_expect_success 'without ss_dur there is no steadystate block' '
	"$IOLITE" --name=n --ioengine=null --size=1m --ss=iops:1% \
		--output-format=json >n.json 2>err &&
	jtrue n.json "\$j | has(\"steadystate\") | not"
'

test_expect_success 'bad steady state options are refused' '
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--ss=iops --ss_dur=2 2>err &&
	grep "option .ss.: .iops. has no threshold" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--ss=speed:1 --ss_dur=2 2>err &&
	grep "invalid criterion .speed." err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--ss=iops:-1 --ss_dur=2 2>err &&
	grep "invalid threshold" err &&
	test_must_fail "$IOLITE" --name=b --ioengine=null --size=1m \
		--ss=iops:1 --ss_dur=1500ms 2>err &&
	grep "not a whole number of seconds" err &&
	cat >mixed.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1m
	group_reporting
	ss_dur=2
	[a]
	ss=iops:1%
	[b]
	ss=bw:1%
	EOF
	test_must_fail "$IOLITE" mixed.fio 2>err &&
	grep "steady state options differ" err
'

test_expect_success 'the parse-only dump shows the options back' '
	"$IOLITE" --parse-only --name=p --ss=bw_slope:0.5% --ss_dur=30 \
		--ss_ramp=5 >p.out &&
	grep "^steadystate=bw_slope:0.5%$" p.out &&
	grep "^steadystate_duration=30s$" p.out &&
	grep "^steadystate_ramp_time=5s$" p.out
'

if test_have_prereq FIO,PYTHON3; then
	test_expect_success 'the steadystate object has fio 3.33'"'"'s keys and types' '
		bg_wait f.json && bg_wait i.json &&
		python3 - f.json i.json <<-\EOF
		import json, sys
		def shape(v):
		    if isinstance(v, dict):
		        return [(k, shape(x)) for k, x in v.items()]
		    if isinstance(v, list):
		        return ["list"] + sorted({type(x).__name__ for x in v})
		    return type(v).__name__
		f, i = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
		assert shape(f["steadystate"]) == shape(i["steadystate"]), \
		    (shape(f["steadystate"]), shape(i["steadystate"]))
		# where fio puts it: after the latency keys
		fk, ik = list(f), list(i)
		assert fk.index("steadystate") == fk.index("latency_window") + 1
		assert ik.index("steadystate") == ik.index("latency_window") + 1
		EOF
	'
else
	test_expect_success_if FIO,PYTHON3 'the steadystate object has fio 3.33'"'"'s keys and types' :
fi

# fio 3.36's lat and lat_slope criteria (fio 3.33 refuses them, so the
# expectations come from fio's documentation): each second's sample is the
# mean completion latency of the I/Os completed in it (ns, every
# direction); lat:LIMIT takes a time (microseconds without a unit) or a
# percentage of the window's mean; the JSON "steadystate" data gains
# "lat_mean" and "lat_ns", the normal report's line ", lat=...nsec" and
# "lat mean dev" / "lat slope".

test_expect_success 'lat and lat_slope parse, a time or a percentage' '
	"$IOLITE" --parse-only --name=a --ss=lat:100us --ss_dur=2 \
		--name=b --ss=lat:2ms --ss_dur=2 \
		--name=c --ss=lat:250 --ss_dur=2 \
		--name=d --ss=lat_slope:0.5% --ss_dur=2 >out 2>err &&
	test_must_be_empty err &&
	grep "^steadystate=" out >got &&
	printf "steadystate=lat:%s\n" 100us 2ms 250us >want &&
	echo "steadystate=lat_slope:0.5%" >>want &&
	test_cmp want got
'

test_expect_success 'a lat threshold that is not a time is refused' '
	test_must_fail "$IOLITE" --parse-only --name=x --ss=lat:fast \
		--ss_dur=2 2>err &&
	grep "option .ss.: invalid threshold .fast. (a time" err
'

test_expect_success 'lat needs completion latencies measured' '
	test_must_fail "$IOLITE" --parse-only --name=x --ss=lat:10% \
		--ss_dur=2 --disable_clat=1 2>err &&
	grep "criterion .lat. needs completion latencies measured" err
'

test_expect_success 'lat reached: the job stops, the samples are latencies' '
	bg_wait lat &&
	test_must_be_empty lat.err &&
	mv lat.out out &&
	sed -n "/^{/,/^}/p" out >lat.json &&
	jtrue lat.json "\$s.attained == 1" &&
	jtrue lat.json "\$s.ss == \"lat:1000.000000%\"" &&
	jtrue lat.json "(\$s.data.lat_ns | length) == 2" &&
	jtrue lat.json "\$s.data.lat_ns | all(. > 0)" &&
	jtrue lat.json "\$s.data.lat_mean == ((\$s.data.lat_ns | add) / 2 | floor)" &&
	jtrue lat.json "\$s.criterion | rtrimstr(\"%\") | tonumber <= 1000" &&
	jtrue lat.json "\$s.slope == 0 and \$s.max_deviation >= 0" &&
	jtrue lat.json "(\$s.data.iops | length) == 2 and (\$s.data.bw | length) == 2" &&
	jtrue lat.json "\$j.read.runtime < 12000" &&
	grep "^  steadystate  : attained=yes, bw=.*, iops=[0-9.]*k*, lat=[0-9.]*[kMG]*nsec, lat mean dev=[0-9.]*%$" out &&
	grep "steady state reached (lat deviation within 1000% over 2s)" out
'

test_expect_success 'lat_slope never below 0: the job runs its runtime' '
	bg_wait slope &&
	test_must_be_empty slope.err &&
	mv slope.out out &&
	sed -n "/^{/,/^}/p" out >slope.json &&
	jtrue slope.json "\$s.attained == 0" &&
	jtrue slope.json "\$s.ss == \"lat_slope:0.000000\"" &&
	jtrue slope.json "(\$s.data.lat_ns | length) == 1" &&
	jtrue slope.json "\$j.read.runtime >= 1900" &&
	grep "^  steadystate  : attained=no, .*, lat=[0-9.]*[kMG]*nsec, lat slope=" out
'

test_expect_success 'the iops and bw criteria have no lat keys, as fio' '
	bg_wait iops &&
	mv iops.out out &&
	sed -n "/^{/,/^}/p" out >iops.json &&
	jtrue iops.json "\$s.data | has(\"lat_ns\") or has(\"lat_mean\") | not" &&
	! grep "lat=.*nsec" out
'

test_done
