# Sourced by the pts tests (t1990, t1991): zram devices made for the
# test and removed at its end.
#
# zram_add SIZE: a new zram device of SIZE, its path printed; removed at
# exit by zram_remove_all (put it in test_at_exit)
zram_add() {
	za_n=$(cat /sys/class/zram-control/hot_add) || return 1
	echo "$za_n" >>"$TRASH/.zrams"
	echo "$1" >"/sys/block/zram$za_n/disksize" || return 1
	echo "/dev/zram$za_n"
}
zram_remove_all() {
	[ -f "$TRASH/.zrams" ] || return 0
	while read -r za_n; do
		echo "$za_n" >/sys/class/zram-control/hot_remove
	done <"$TRASH/.zrams"
}
