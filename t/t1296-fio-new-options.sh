#!/bin/sh
# Options fio added after 3.33 that job files for current fio use (fio
# 3.33 refuses them, so the expectations come from fio's documentation):
# steadystate's lat and lat_slope criteria (fio 3.36): each second's
# sample is the mean completion latency of the I/Os completed in it (ns,
# every direction); lat:LIMIT takes a time (microseconds without a unit)
# or a percentage of the window's mean; the JSON "steadystate" data gains
# "lat_mean" and "lat_ns", the normal report's line ", lat=...nsec" and
# "lat mean dev" / "lat slope".
. "$(dirname "$0")/test-lib.sh"

test_require JQ

# A null-engine job at a steady 1000 IOPS, time_based for $1 seconds.
steady_job() {
	echo "--name=ss --ioengine=null --size=1g --bs=4k --rw=read
	      --rate_iops=1000 --time_based --runtime=$1"
}

jtrue() {
	jq -e ".jobs[0] as \$j | \$j.steadystate as \$s | $2" "$1" >/dev/null ||
		{ echo "false: $2" >&2; return 1; }
}

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
	"$IOLITE" $(steady_job 20) --ss=lat:1000% --ss_dur=2 \
		--output-format=json,normal >out 2>err &&
	test_must_be_empty err &&
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
	"$IOLITE" $(steady_job 2) --ss=lat_slope:0 --ss_dur=1 \
		--output-format=json,normal >out 2>err &&
	test_must_be_empty err &&
	sed -n "/^{/,/^}/p" out >slope.json &&
	jtrue slope.json "\$s.attained == 0" &&
	jtrue slope.json "\$s.ss == \"lat_slope:0.000000\"" &&
	jtrue slope.json "(\$s.data.lat_ns | length) == 1" &&
	jtrue slope.json "\$j.read.runtime >= 1900" &&
	grep "^  steadystate  : attained=no, .*, lat=[0-9.]*[kMG]*nsec, lat slope=" out
'

test_expect_success 'the iops and bw criteria have no lat keys, as fio' '
	"$IOLITE" $(steady_job 1) --ss=iops:50% --ss_dur=1 \
		--output-format=json,normal >out 2>err &&
	sed -n "/^{/,/^}/p" out >iops.json &&
	jtrue iops.json "\$s.data | has(\"lat_ns\") or has(\"lat_mean\") | not" &&
	! grep "lat=.*nsec" out
'

test_done
