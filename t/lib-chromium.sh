# Sourced by the tests that take screenshots (t1960, t1965).
#
# shot PAGE PNG: a headless Chromium screenshot of $TRASH/PAGE into
# $TRASH/PNG, its stderr in PNG.err; no network: every fetch would go
# to a proxy that is not there; its profile, config and cache in $TRASH.
# SHOT_SIZE: the window (1280,2000).
shot() {
	prof=$(mktemp -d "$TRASH/chrome.XXXXXX") &&
	HOME=$prof XDG_CONFIG_HOME=$prof XDG_CACHE_HOME=$prof \
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$prof" --proxy-server=127.0.0.1:9 \
		--host-resolver-rules="MAP * ~NOTFOUND" \
		--enable-logging=stderr --v=0 --hide-scrollbars \
		--window-size="${SHOT_SIZE:-1280,2000}" --virtual-time-budget=3000 \
		--screenshot="$TRASH/$2" "file://$TRASH/$1" >/dev/null 2>"$2.err"
	rc=$?
	rm -rf "$prof"
	test -s "$2" || { cat "$2.err"; return 1; }
	return $rc
}
