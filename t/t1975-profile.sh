#!/bin/sh
# profile= / --profile (issue 19): perf cpu-clock samples of each
# stonewall group's measured phase, the "CPU profile" block in the
# normal report, the whole table in JSON under "iolite", folded stacks,
# and the refusals (perf_event_paranoid, a container) as notes with a
# normal report, exit 0 and nothing on stderr. The runs are short (a
# second or less); --profile-rate=997 gives them enough samples where a
# sample is costly (virtual machines) and the default rate is low.
. "$(dirname "$0")/test-lib.sh"

# pj FILE EXPR: a Python expression over the JSON document d and the
# first group's profile p (None when there is none), printed
pj() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
pr = d["iolite"].get("cpu_profile", [])
p = pr[0] if pr else None
def area(p, name):
    return [a for a in p["areas"] if a["area"] == name][0]["pct"]
def kernel(p):
    return sum(a["pct"] for a in p["areas"] if a["side"] == "kernel")
# what the sampled thread did itself: the interrupts area is the work of
# whatever the CPU was interrupted for (the I/O of another test completing, a
# timer), charged to the thread it lands on
def irq(p):
    return area(p, "interrupts")
def own(p, x):
    return 100 * x / (100 - irq(p)) if irq(p) < 100 else 0
print(eval(sys.argv[2]))
' "$@"
}

NULLJOB="--name=n --ioengine=null --size=1g --time_based"

test_expect_success 'profile= values parse and dump; fio'"'"'s workload profiles are refused' '
	"$IOLITE" --name=a --profile --size=1m --parse-only >out &&
	grep -qx "profile=cpu" out &&
	"$IOLITE" --name=a --profile=system --size=1m --parse-only >out &&
	grep -qx "profile=system" out &&
	"$IOLITE" --name=a --profile=0 --size=1m --parse-only >out &&
	grep -qx "profile=none" out &&
	test_must_fail "$IOLITE" --name=a --profile=tiobench --size=1m 2>err &&
	grep -q "option .profile.: fio.s workload profile .tiobench. is not supported yet" err &&
	test_must_fail "$IOLITE" --name=a --profile=bogus --size=1m 2>err &&
	grep -q "option .profile.: invalid value .bogus. (valid: none, cpu, system)" err &&
	test_must_fail "$IOLITE" --profile-rate=0 --name=a --size=1m 2>err &&
	grep -q "option .--profile-rate.: invalid rate .0." err
'

test_expect_success_if PERF,PYTHON3 'null engine: iolite'"'"'s own code is the profile, the kernel near zero' '
	"$IOLITE" $NULLJOB --runtime=1s --profile-rate=997 \
		--output-format=json >null.json 2>err &&
	test_must_be_empty err &&
	test "$(pj null.json "len(pr)")" = 1 &&
	test "$(pj null.json "p[\"mode\"]")" = threads &&
	pj null.json "(area(p, \"iolite\"), kernel(p), irq(p))" >split &&
	echo "iolite, kernel, interrupts: $(cat split)" &&
	pj null.json "[(f[\"name\"], f[\"module\"]) for f in p[\"functions\"][:5]]" &&
	test "$(pj null.json "p[\"functions\"][0][\"module\"]")" = iolite &&
	# the shares are a normal build'"'"'s: under a sanitizer and the suite'"'"'s
	# load the kernel took 12.9% of its own (CI); a normal build beside
	# the suite'"'"'s other tests 11.1%, its second function the scheduler'"'"'s
	# finish_task_switch (preempted, not system calls): 20% bounds both
	{ test -n "${IOLITE_SANITIZE:-}" ||
	  { test "$(pj null.json "own(p, area(p, \"iolite\")) >= 75")" = True &&
	    test "$(pj null.json "own(p, kernel(p) - irq(p)) <= 20")" = True; }; } &&
	if ! grep -q "built without elfutils" null.json
	then
		# named by libdwfl: the worker loop and what it calls per I/O
		pj null.json "[f[\"name\"] for f in p[\"functions\"][:3]]" >top &&
		grep -q "worker\|null_queue\|next_" top
	fi
'

# The sample count: the event counts the CPU time of the sampled threads;
# every period of it is one sample (taken, or lost by a full ring: none
# here), within 15% (the phase's edges, a sample in flight). That CPU
# time is the worker's, as getrusage counts it (usr_cpu + sys_cpu of the
# job's runtime: the busy threads), within 30% plus 50 ms for the other
# threads (the reporter, the main thread) and the edges of the phase. So
# samples = runtime x rate x busy threads, within those bounds.
test_expect_success_if PERF,PYTHON3 'the sample count is runtime x rate x busy threads' '
	test "$(pj null.json "p[\"lost\"]")" = 0 &&
	test "$(pj null.json "abs(p[\"samples\"] * p[\"period_ns\"] - p[\"cpu_ns\"]) <= 0.15 * p[\"cpu_ns\"]")" = True &&
	pj null.json "(d[\"jobs\"][0][\"usr_cpu\"] + d[\"jobs\"][0][\"sys_cpu\"]) / 100 * d[\"jobs\"][0][\"job_runtime\"] * 1e6" >busy_ns &&
	test "$(pj null.json "abs(p[\"cpu_ns\"] - $(cat busy_ns)) <= 0.3 * $(cat busy_ns) + 50e6")" = True &&
	test "$(pj null.json "p[\"samples\"] <= 1.1 * p[\"wall_ns\"] / p[\"period_ns\"] * p[\"threads\"]")" = True
'

# Call chains (issue 29): the frames a sample was called through are
# there, so worker_run holds (inclusive, "total") nearly every sample of
# iolite's own code, the work it calls under it; before frame pointers
# and the first frame's CFI it held 72% beside next_rand_bitmap_fixed.
test_expect_success_if PERF,LIBDW,PYTHON3 'null engine: call chains, worker_run total near the iolite share' '
	"$IOLITE" $NULLJOB --runtime=1s --rw=randread --profile-rate=997 \
		--profile-folded=deep.folded --output-format=json \
		>deep.json 2>err &&
	test_must_be_empty err &&
	pj deep.json "[f for f in p[\"functions\"] if f[\"name\"] == \"worker_run\"][0][\"total_pct\"]" >wr &&
	pj deep.json "area(p, \"iolite\")" >io &&
	echo "worker_run total $(cat wr)%, iolite $(cat io)%" &&
	test "$(pj deep.json "$(cat wr) >= 0.9 * $(cat io)")" = True &&
	test "$(pj deep.json "all(f[\"total\"] >= f[\"self\"] for f in p[\"functions\"])")" = True &&
	grep -q ";worker_main;worker_run;[a-z_]*[a-z] [0-9]*\$" deep.folded &&
	# libc named too (start_thread under every worker sample): the
	# stack unwinding must not move libc'"'"'s module for the symbols
	test "$(pj deep.json "[f[\"name\"] for f in p[\"functions\"] if f[\"name\"].startswith(\"libc.so.6+\")]")" = "[]"
'

test_expect_success_if PERF_KERNEL,PYTHON3 'psync 4k reads of a tmpfs file: the kernel dominates, a copy is in the top 15' '
	"$IOLITE" --name=p --ioengine=psync --rw=randread --bs=4k \
		--filename="$TRASH_SHM/p.dat" --size=16m --time_based \
		--runtime=1s --profile-rate=997 --output-format=json \
		>psync.json 2>err &&
	test_must_be_empty err &&
	test "$(pj psync.json "kernel(p) >= 50")" = True &&
	test "$(pj psync.json "area(p, \"memory copy\") > 0")" = True &&
	pj psync.json "\" \".join(f[\"name\"] for f in p[\"functions\"][:15])" >top &&
	grep -E -q "copy_user|_copy_to_iter|copy_to_user|rep_movs|memcpy" top
'

test_expect_success_if PERF 'normal report: a CPU profile block per stonewall group, ramp_time left out' '
	cat >two.fio <<-\EOF &&
	[global]
	ioengine=null
	size=1g
	time_based
	profile
	[a]
	ramp_time=300ms
	runtime=400ms
	[b]
	stonewall
	runtime=300ms
	EOF
	"$IOLITE" two.fio --profile-folded=two.folded >out 2>err &&
	test_must_be_empty err &&
	test "$(grep -c "^CPU profile, group" out)" = 2 &&
	grep -q "^CPU profile, group 0 (measured phase 0\.[345][0-9]s, threads" out &&
	grep -q "^CPU profile, group 1 (measured phase 0\.[234][0-9]s, threads" out &&
	grep -q "^  samples=[0-9]*, lost=0, cpu=[0-9.]*s, profiler cost=[0-9.]*%" out &&
	grep -q "^  split: iolite [0-9.]*%, libraries [0-9.]*%, kernel [0-9.]*%" out &&
	sed -n "/^CPU profile, group 0/,/^\$/p" out | grep -c "^ *[0-9.]*%  *[0-9.]*%  " >rows &&
	test "$(cat rows)" -ge 1 && test "$(cat rows)" -le 15
'

test_expect_success_if PERF 'folded stacks: one group root per group, counts add up to the samples' '
	grep -v -E "^group [01];[^ ]+ [0-9]+\$" two.folded >bad ;
	test_must_be_empty bad &&
	grep "^group 0;" two.folded | awk "{ n += \$NF } END { print n }" >sum0 &&
	sed -n "s/^  samples=\([0-9]*\),.*/\1/p" out | head -1 >want0 &&
	test_cmp want0 sum0
'

test_expect_success_if PERF,PYTHON3 '--repeat: each run'"'"'s profile says which run it is' '
	"$IOLITE" $NULLJOB --runtime=150ms --profile --repeat=2 \
		--profile-folded=rep.folded --output-format=json,normal \
		--output=rep.out 2>err &&
	test_must_be_empty err &&
	sed -n "/^{\$/,/^}\$/p" rep.out >rep.json &&
	test "$(pj rep.json "[(q[\"groupid\"], q[\"run\"]) for q in pr]")" = "[(0, 1), (0, 2)]" &&
	grep -q "^CPU profile, group 0, run 1 (" rep.out &&
	grep -q "^CPU profile, group 0, run 2 (" rep.out &&
	sed "s/;.*//" rep.folded | sort -u >roots &&
	printf "group 0 run 1\ngroup 0 run 2\n" >want &&
	test_cmp want roots
'

test_expect_success_if PERF,PYTHON3,XMLLINT 'html: the profile and its flame graph, the JSON'"'"'s figures' '
	"$IOLITE" $NULLJOB --runtime=300ms --profile-rate=997 \
		--output-format=json,html --output=h.json 2>err &&
	test_must_be_empty err &&
	xmllint --noout h.html &&
	grep -q "<h3>CPU profile</h3>" h.html &&
	grep -q "<svg [^>]*class=\"flame\"" h.html &&
	sed -n "s/.*class=\"profile\" data-samples=\"\([0-9]*\)\".*/\1/p" h.html >got &&
	pj h.json "p[\"samples\"]" >want &&
	test_cmp want got &&
	grep -q "<title>all: $(cat want) samples\?, 100.00%</title>" h.html
'

test_expect_success 'refused perf events: a note naming the setting, the normal report, exit 0' '
	IOLITE_PERF_REFUSE=all "$IOLITE" $NULLJOB --runtime=200ms --profile \
		>out 2>err &&
	test_must_be_empty err &&
	grep -q "^Run status group 0" out &&
	! grep -q "^CPU profile, group" out &&
	grep -q "^  CPU profile not taken: perf events are refused (kernel.perf_event_paranoid=[0-9-]*, perf_event_open: Permission denied); " out &&
	IOLITE_PERF_REFUSE=all "$IOLITE" $NULLJOB --runtime=200ms --profile \
		--output-format=json >out.json 2>err &&
	test_must_be_empty err &&
	test "$(head -1 out.json)" = "{" && test "$(tail -1 out.json)" = "}" &&
	grep -q "CPU profile not taken" out.json &&
	! grep -q "\"cpu_profile\"" out.json
'

test_expect_success_if PERF,PYTHON3 'kernel side refused: user space sampled, the kernel time a share of its own' '
	IOLITE_PERF_REFUSE=kernel "$IOLITE" --name=p --ioengine=psync \
		--rw=randread --bs=4k --filename="$TRASH_SHM/p.dat" \
		--size=16m --time_based --runtime=500ms --profile-rate=997 \
		--output-format=json >k.json 2>err &&
	test_must_be_empty err &&
	grep -q "CPU profile: the kernel side is not sampled (kernel.perf_event_paranoid=" k.json &&
	{
		test "$(pj k.json "area(p, \"not sampled\") >= 30")" = True &&
		test "$(pj k.json "[f for f in p[\"functions\"] if f[\"module\"] == \"kernel\"]")" = "[]" ||
		{ pj k.json "{k: v for k, v in p.items() if k != \"functions\"}, p[\"functions\"][:8]"; false; }
	}
'

test_expect_success_if PERF_KERNEL,PYTHON3 'hidden kernel symbols (kptr_restrict): a note, the frames as [kernel]' '
	printf "0000000000000000 T _stext\n0000000000000000 t copy_user_generic\n" >zeros &&
	IOLITE_KALLSYMS=zeros "$IOLITE" --name=p --ioengine=psync \
		--rw=randread --bs=4k --filename="$TRASH_SHM/p.dat" \
		--size=16m --time_based --runtime=1s --profile-rate=997 \
		--output-format=json >hid.json 2>err &&
	test_must_be_empty err &&
	{
		grep -q "CPU profile: kernel symbols are hidden (kernel.kptr_restrict=[0-9]*): kernel frames show as \[kernel\]; .sysctl kernel.kptr_restrict=0." hid.json ||
		{ grep "CPU profile\|\"samples\"\|wall_ns" hid.json; false; }
	} &&
	pj hid.json "\" \".join(sorted(set(f[\"name\"] for f in p[\"functions\"] if f[\"module\"] == \"kernel\")))" >names &&
	echo "[kernel]" >want &&
	test_cmp want names
'

# The real thing: a normal user under this machine's perf_event_paranoid.
test_expect_success_if SETPRIV 'as a normal user: the note the paranoid setting predicts, the report, exit 0' '
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid) &&
	(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$IOLITE" $NULLJOB --runtime=200ms --profile) >out 2>err &&
	test_must_be_empty err &&
	grep -q "^Run status group 0" out &&
	if test "$paranoid" -ge 3
	then
		grep -q "CPU profile not taken: perf events are refused (kernel.perf_event_paranoid=$paranoid" out
	elif test "$paranoid" = 2
	then
		grep -q "CPU profile: the kernel side is not sampled (kernel.perf_event_paranoid=2" out &&
		grep -q "^CPU profile, group 0" out
	else
		grep -q "^CPU profile, group 0" out
	fi
'

test_expect_success_if ROOT,PERF_KERNEL,PYTHON3 'profile=system: every task of the CPUs' '
	"$IOLITE" $NULLJOB --runtime=300ms --profile=system --profile-rate=997 \
		--output-format=json >sys.json 2>err &&
	test_must_be_empty err &&
	test "$(pj sys.json "p[\"mode\"]")" = system &&
	test "$(pj sys.json "p[\"threads\"]")" = "$(getconf _NPROCESSORS_ONLN)" &&
	# the tasks counted, by name, this run'"'"'s among them, adding up
	test "$(pj sys.json "sum(t[\"samples\"] for t in p[\"tasks\"]) == p[\"samples\"]")" = True &&
	test "$(pj sys.json "\"iolite\" in [t[\"name\"] for t in p[\"tasks\"]]")" = True &&
	test "$(pj sys.json "[f[\"module\"] for f in p[\"functions\"] if f[\"area\"] == \"other processes\" and f[\"module\"] not in [t[\"name\"] for t in p[\"tasks\"]]]")" = "[]" &&
	"$IOLITE" $NULLJOB --runtime=300ms --profile=system >sys.out 2>err &&
	test_must_be_empty err &&
	# (this run among the busiest 8 only on a quiet machine)
	grep -q "^  tasks: [^ ][^,]* [0-9.]*%" sys.out
'

test_done
