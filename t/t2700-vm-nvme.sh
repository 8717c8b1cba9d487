#!/bin/sh
# NVMe (conventional, zoned and protected namespaces, their /dev/ngXnY),
# a zoned null_blk device and a host-aware scsi_debug disk, in a QEMU
# guest (t/vm/, doc/vm.md): one boot runs every row of t/vm/jobs.txt
# through fio 3.33 and iolite, then each row is a test comparing what
# the two did (t/vm/check.sh: counts, bytes, write_iolog sequences, md5
# of the data, zone write pointers; the refusals of what iolite lacks
# today), then iolite pts on the NVMe namespace (t/vm/pts.sh). Not part
# of make test (a boot and the rows under an emulated CPU take about a
# minute): make test-vm.
. "$(dirname "$0")/test-lib.sh"

VM=$TEST_DIR/vm
JOBS=${IOLITE_VM_JOBS:-$VM/jobs.txt}

# ---- the harness itself (no guest): check.sh on made-up results ----

# fake ROW TOOL RC IOS: a run of TOOL in ROW/TOOL with exit status RC and
# total_ios IOS (read,write,trim), writing 4 KiB blocks from 0
fake() {
	mkdir -p "$1/$2" &&
	echo "$3" >"$1/$2/rc" && : >"$1/$2/stderr" &&
	echo "$4" | awk -F, '{ printf "{\"jobs\": [{\"read\": {\"total_ios\": %d, \"io_bytes\": %d}, \"write\": {\"total_ios\": %d, \"io_bytes\": %d}, \"trim\": {\"total_ios\": %d, \"io_bytes\": %d}}]}\n", $1, $1 * 4096, $2, $2 * 4096, $3, $3 * 4096 }' >"$1/$2/out.json" &&
	echo "$4" | awk -F, '{ print "fio version 3 iolog"
		for (i = 0; i < $2; i++) print i, "/dev/x write", i * 4096, 4096 }' \
		>"$1/$2/iolog" &&
	echo a >"$1/$2/md5.before" && echo b >"$1/$2/md5.after"
}

test_expect_success_if JQ 'check.sh: the same runs pass' '
	fake same fio 0 0,4,0 && fake same iolite 0 0,4,0 &&
	"$VM/check.sh" counts,bytes,seq,set,md5,changed same >out &&
	test_must_be_empty out
'

test_expect_success_if JQ 'check.sh: a count, a sequence, data that differ fail' '
	fake diff fio 0 0,4,0 && fake diff iolite 0 0,3,0 &&
	echo c >diff/iolite/md5.after &&
	test_must_fail "$VM/check.sh" counts diff >out &&
	grep "counts: fio 0,4,0, iolite 0,3,0" out &&
	test_must_fail "$VM/check.sh" seq diff &&
	test_must_fail "$VM/check.sh" set diff &&
	test_must_fail "$VM/check.sh" md5 diff &&
	test_must_fail "$VM/check.sh" same diff &&
	test_must_fail "$VM/check.sh" bogus same
'

test_expect_success_if JQ 'check.sh: a refusal names the option and writes nothing' '
	fake ref fio 0 0,4,0 && fake ref iolite 1 0,0,0 &&
	echo "iolite: <cmdline>:3: option '\''zonemode'\'': not supported" \
		>ref/iolite/stderr &&
	test_must_fail "$VM/check.sh" refused=zonemode ref >out &&
	grep "wrote to the device" out &&
	cp ref/iolite/md5.before ref/iolite/md5.after &&
	"$VM/check.sh" refused=zonemode ref &&
	test_must_fail "$VM/check.sh" refused=ioengine ref &&
	echo 0 >ref/iolite/rc &&
	test_must_fail "$VM/check.sh" refused=zonemode ref
'

# solo rows (fio 3.42's options, figures measured by hand): a failed
# job's errno from its report, the zones left full
test_expect_success_if JQ 'check.sh: solo error=E and full=N' '
	fake solo fio 0 0,4,0 && fake solo iolite 1 0,8,0 &&
	echo "{\"jobs\": [{\"error\": 75}]}" >solo/iolite/out.json &&
	printf "%s\n" "  start: 0x0, zcond:14(fu) [type: 2]" \
		"  start: 0x8000, wptr 0x000000 zcond: 1(em) [type: 2]" \
		>solo/iolite/zones.after &&
	"$VM/check.sh" solo,error=75,full=1 solo &&
	test_must_fail "$VM/check.sh" solo,error=5 solo >out &&
	grep "error: iolite 75, the row 5" out &&
	test_must_fail "$VM/check.sh" solo,full=2 solo >out &&
	grep "full: iolite left 1 zones full, the row 2" out &&
	echo 0 >solo/iolite/rc &&
	test_must_fail "$VM/check.sh" solo,error=75 solo
'

test_expect_success 'runjobs.sh overwrites devices only when told to' '
	test_must_fail env -u VM_WIPE "$VM/runjobs.sh" "$JOBS" nowipe 2>err &&
	grep "set VM_WIPE=yes" err &&
	test_path_is_missing nowipe
'

# ---- the guest ----

test_skip_unless QEMU BUSYBOX_STATIC FIO JQ VM_KERNEL
test_expect_success 'the guest boots and runs the job table' '
	"$VM/boot.sh" "$JOBS" "$TRASH/vm" &&
	test "$(cat vm/out/runjobs.rc)" = 0 &&
	grep "^nvme0n1: zoned=host-managed nr_zones=16 " vm/out/info &&
	grep "^nvme0n2: zoned=none " vm/out/info &&
	grep "^nvme0n3: zoned=host-managed nr_zones=16 .*max_open_zones=4 " vm/out/info &&
	grep "^nvme0n4: zoned=none " vm/out/info &&
	grep "^nvme0n6: zoned=none " vm/out/info &&
	grep "^nullb0: zoned=host-managed nr_zones=16 " vm/out/info &&
	grep "^sd[a-z]*: zoned=host-aware nr_zones=8 " vm/out/info
'

# iolite pts on the conventional namespace (t/vm/pts.sh), after the rows
test_expect_success 'pts: NVMe Format as the purge, write cache off and back, SMART temperature, identity' '
	p=vm/out/pts &&
	test "$(cat $p/iops.rc)" = 0 && test_must_be_empty $p/iops.err &&
	jq -e ".device.model == \"QEMU NVMe Ctrl\" and .device.serial != \"\"
		and .device.firmware != \"\"" $p/iops.json &&
	jq -e ".loops[0].purge.purged == 1 and
		(.loops[0].purge.how | startswith(\"NVMe Format NVM of namespace 2\"))" \
		$p/iops.json &&
	jq -e "[.settings[] | select(.name == \"purge\")][0].honoured == 1" \
		$p/iops.json &&
	jq -e "[.loops[0].rounds[].temperature_c] | length == 5 and
		all(. > 0 and . < 100)" $p/iops.json &&
	! cmp -s $p/before.md5 $p/zero.md5 && cmp $p/after.md5 $p/zero.md5 &&
	jq -e "[.settings[] | select(.name == \"write cache\")][0] |
		.honoured == 1 and (.used | startswith(\"off (NVMe Set Features\"))" \
		$p/iops.json &&
	if [ -s $p/vwc.before ]; then cmp $p/vwc.before $p/vwc.after; fi
'

test_expect_success 'pts --purge=sanitize: not supported by the device, said, not purged' '
	p=vm/out/pts &&
	test "$(cat $p/sanitize.rc)" = 0 && test_must_be_empty $p/sanitize.err &&
	jq -e ".loops[0].purge.purged == 0 and .loops[0].purge.method == \"none\" and
		(.loops[0].purge.how | contains(\"no NVMe Sanitize: not supported by the device (SANICAP 0x0\")) and
		(.not_pts_because | index(\"the device was not purged\"))" \
		$p/sanitize.json
'

test_expect_success 'pts on a SATA disk: no ATA security, the cache off through libata and back' '
	p=vm/out/pts-scsi &&
	test "$(cat $p/sata.rc)" = 0 && test_must_be_empty $p/sata.err &&
	jq -e ".loops[0].purge.how |
		startswith(\"no ATA Secure Erase: the drive has no security feature set (not supported by the device)\")" \
		$p/sata.json &&
	jq -e "[.settings[] | select(.name == \"write cache\")][0] |
		.honoured == 1 and (.used | startswith(\"off (SCSI MODE SELECT\"))
		and (.used | contains(\"on before, restored after\"))" $p/sata.json &&
	test "$(cat $p/sata.before)" = "write back" &&
	test "$(cat $p/sata.after)" = "write back"
'

test_expect_success 'pts on scsi_debug killed mid-round: its write cache back' '
	p=vm/out/pts-scsi &&
	printf "%s\n" "write back" "write through" "write back" >want &&
	cat $p/TERM.before $p/TERM.during $p/TERM.after >got &&
	test_cmp want got &&
	cat $p/KILL.before $p/KILL.during $p/KILL.after >got &&
	test_cmp want got &&
	test "$(cat $p/TERM.rc)" = 143 && test "$(cat $p/KILL.rc)" = 137 &&
	jq -e "(.notes | index(\"interrupted: the report covers the rounds done\")) and
		(.loops[0].purge.how | startswith(\"no ATA Secure Erase: not an ATA drive\"))" \
		$p/TERM.json
'

# a row a test (fd 3: a command in a test must not read the rows); a
# row skips when this build of iolite lacks its engine (NO_OPTIONAL=1)
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$JOBS" >"$TRASH/rows"
vm_skip=$test_skip_reason
while IFS='|' read -r name dev _span _prep checks _opts <&3; do
	set -f
	# shellcheck disable=SC2086
	set -- $name $dev $checks
	set +f
	err=$TRASH/vm/out/$1/iolite/stderr
	if [ -z "$vm_skip" ] && grep -qs "not available in this build" "$err"
	then
		test_skip_reason=$(sed -n "1s/^iolite: //p" "$err")
	fi
	test_expect_success "$1 ($2): $3" "
		\"\$VM/check.sh\" '$3' 'vm/out/$1' >'vm/out/$1/check' 2>&1 ||
		{ cat 'vm/out/$1/check'; false; }"
	test_skip_reason=$vm_skip
done 3<"$TRASH/rows"

# a run the guest lost and runjobs.sh ran again (a tool killed by the
# row's timeout, a command interrupted): said, not failed
for r in "$TRASH"/vm/out/*/*/retried; do
	[ -f "$r" ] || continue
	t=${r%/retried} && row=${t%/*}
	echo "# vm row ${row##*/}: ${t##*/} run again after: $(cat "$r")" >&2
done

# CI keeps only the tail of its log: the failed rows again, each tool's
# exit status, counts and first words on stderr (the first cause, where a
# failing row's diff would push it out of sight)
for c in "$TRASH"/vm/out/*/check; do
	[ -s "$c" ] || continue
	d=${c%/check}
	echo "# vm row ${d##*/}: $(head -n 1 "$c")" >&2
	for t in fio iolite; do
		echo "#   $t: rc $(cat "$d/$t/rc" 2>/dev/null)," \
			"ios $(jq -c '[.jobs[0].read.total_ios, .jobs[0].write.total_ios]' \
				"$d/$t/out.json" 2>/dev/null)," \
			"iolog $(grep -c . "$d/$t/iolog" 2>/dev/null) lines," \
			"stderr: $(head -c 200 "$d/$t/stderr" 2>/dev/null | head -n 2)" >&2
	done
done

test_done
