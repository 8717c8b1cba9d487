#!/bin/sh
# The network engines' client libraries (libnbd, libiscsi, libnfs,
# libcurl, librados, librbd) are loaded when a job first uses them
# (engine/dl/), not linked: iolite does not depend on them, a run that
# does not use them does not load them, a job that does loads its own,
# and one whose library cannot be loaded is refused at its line, naming
# the package, before anything is created. A library "not installed" is
# IOLITE_DL_REFUSE (the loader's test hook: those names fail to load), or
# a stand-in of the same soname without the functions, found first
# through LD_LIBRARY_PATH.

. "$(dirname "$0")/test-lib.sh"

# ENGINE LIBRARY OPTIONS: a job of each network engine this build has.
# No server is asked: --parse-only builds the plans (which load the
# library) and stops; a refused library stops any run there too.
engines() {
	en_built=$("$IOLITE" --enghelp | awk '{ print $1 }') &&
	while read -r e lib args; do
		if echo "$en_built" | grep -qx "$e"; then
			echo "$e $lib $args"
		fi
	done <<-\EOF
	nbd libnbd --uri=nbd://127.0.0.1:1/x
	libiscsi libiscsi --filename=iscsi\://127.0.0.1\:1/iqn.2026-12.t\:x/0
	nfs libnfs --nfs_url=nfs://127.0.0.1:1/x
	http libcurl --filename=/b/o --http_host=127.0.0.1:1
	rados librados --pool=p
	rbd librbd --pool=p --rbdname=i
	EOF
}

# what the dynamic loader loaded while running "$@" (its LD_DEBUG=files
# lines, "file=libnbd.so.0 [0];  dynamically loaded by ..."), in loaded
loaded_by() {
	LD_DEBUG=files "$@" >/dev/null 2>ld.err
	grep "file=" ld.err | sed "s/.*file=//" >loaded
}

test_expect_success 'iolite does not depend on any of the libraries' '
	ldd "$IOLITE" >ldd.out &&
	grep "libc\.so" ldd.out &&
	! grep -E "lib(nbd|iscsi|nfs|curl|rados|rbd)\.so" ldd.out
'

test_expect_success 'a run that does not use them does not load them' '
	loaded_by "$IOLITE" --name=n --ioengine=null --size=64k &&
	grep "^libc\.so" loaded &&
	! grep -E "^lib(nbd|iscsi|nfs|curl|rados|rbd)\.so" loaded
'

# the last tests need a network engine in the build
engines >"$TRASH/list" 2>&1
[ -s "$TRASH/list" ] || test_skip_reason="iolite built without any \
network engine: apt-get install libnbd-dev (or libiscsi-dev, libnfs-dev, \
libcurl4-openssl-dev, librados-dev) and rebuild"

test_expect_success 'a job of a network engine loads its library, at the plan' '
	while read -r e lib args; do
		loaded_by "$IOLITE" --name=x --ioengine=$e $args --parse-only &&
		grep "^$lib\.so\.[0-9]* .*dynamically loaded by" loaded ||
			{ echo "$e did not load $lib"; return 1; }
		# only its own (librbd brings librados: rbd is rados too)
		grep -E "dynamically loaded by" loaded |
			grep -v -e "^$lib\." -e "^librados\." && return 1
		:
	done <list
'

test_expect_success 'a library that cannot be loaded: refused before anything is made' '
	while read -r e lib args; do
		rm -rf d && mkdir d &&
		printf "[global]\nioengine=%s\n[x]\n" $e >d/job.fio &&
		(cd d && IOLITE_DL_REFUSE=$lib test_must_fail "$IOLITE" \
			job.fio $args --write_iolog=iolog --output=out \
			--rw=randwrite --size=1m 2>../err) &&
		grep "^iolite: job.fio:2: option .ioengine.: ioengine .$e.: cannot load $lib\.so\.[0-9]* (apt-get install $lib-*[0-9][0-9]*): refused by IOLITE_DL_REFUSE$" err &&
		test "$(wc -l <err)" = 1 &&
		ls d >files &&
		echo job.fio >expect &&
		test_cmp expect files || { echo "engine $e"; return 1; }
	done <list
'

test_expect_success_if CC,NBD_BUILT 'a library without the functions built against: which one, which package' '
	loaded_by "$IOLITE" --name=x --ioengine=nbd --uri=nbd://127.0.0.1:1/x \
		--parse-only &&
	so=$(sed -n "s/^\(libnbd\.so\.[0-9]*\) .*dynamically loaded.*/\1/p" \
		loaded) &&
	test -n "$so" &&
	mkdir lib &&
	echo "int iolite_stand_in;" >lib/s.c &&
	"${CC:-cc}" -shared -fPIC -Wl,-soname,$so -o lib/$so lib/s.c &&
	LD_LIBRARY_PATH=$PWD/lib test_must_fail "$IOLITE" --name=x \
		--ioengine=nbd --uri=nbd://127.0.0.1:1/x --parse-only 2>err &&
	pkg=$(echo "$so" | sed "s/\.so\.//") &&
	grep "ioengine .nbd.: $so has no nbd_[a-z_]* (apt-get install $pkg of the version iolite was built with)" err
'

test_done
