#!/bin/sh
# The set-up a newcomer follows cannot drift from the package list:
# README.md's apt-get lines and its table of optional packages are
# .ci/packages (required, then optional, in its order), and every package
# the build, the binary or a test's skip reason tells one to install is
# on that list. A build without an optional library refuses its feature
# naming the package (checked when this build lacks it).
. "$(dirname "$0")/test-lib.sh"

PACKAGES="$SRC_DIR/.ci/packages"
README="$SRC_DIR/README.md"

# packages NEED: the names .ci/packages marks NEED, on one line
packages() {
	awk -v need="$1" '!/^#/ && $2 == need { printf "%s%s", sep, $1; sep = " " }
		END { print "" }' "$PACKAGES"
}

# readme_install PREFIX: the packages of README's indented command line
# starting with PREFIX (continuation lines joined)
readme_install() {
	awk -v pre="    $1" '
		index($0, pre) == 1 { on = 1; line = substr($0, length(pre) + 1) }
		on && index($0, pre) != 1 { line = line " " $0 }
		on && !/\\$/ { print line; exit }
	' "$README" | tr -d '\\' | tr -s ' \t' ' ' | sed 's/^ //; s/ $//'
}

test_expect_success 'the list names each package once, required or optional' '
	grep -v "^#" "$PACKAGES" >list &&
	test -s list &&
	awk "\$2 != \"required\" && \$2 != \"optional\" || NF < 3" list >bad &&
	test_must_be_empty bad &&
	awk "{ print \$1 }" list | sort | uniq -d >dups &&
	test_must_be_empty dups
'

test_expect_success 'README installs exactly the required packages' '
	packages required >want &&
	readme_install "apt-get update && apt-get install -y " >got &&
	test_cmp want got
'

test_expect_success 'README installs exactly the optional packages' '
	packages optional >want &&
	readme_install "apt-get install -y " >got &&
	test_cmp want got
'

test_expect_success 'README lists every optional package with what it brings' '
	awk "!/^#/ && \$2 == \"optional\" {
		d = \$0; sub(/^[^ ]+ +[^ ]+ +/, \"\", d)
		printf \"| \`%s\` | %s |\\n\", \$1, d }" "$PACKAGES" >want &&
	sed -n "/^<!-- made from .ci\/packages/,/^\$/p" "$README" |
		grep "^| \`" >got &&
	test_cmp want got
'

test_expect_success 'every package a message or skip names is on the list' '
	{
		# the binary and the build: "install libfoo-dev"
		grep -rhoE "[a-z0-9][a-z0-9.+-]*-dev\b" "$SRC_DIR/src" \
			"$SRC_DIR/Makefile" "$TEST_DIR/unit/tap.h"
		# the skip reasons: the package argument of each check
		sed -n "s/.*prereq_\(cmd\|py\|engine\|built\|build\)_ [^ ]* \([a-z0-9][a-z0-9.+-]*\).*/\2/p" \
			"$TEST_DIR/test-lib.sh"
		grep -ohE "apt-get install [a-z0-9][a-z0-9.+-]*( [a-z0-9][a-z0-9.+-]*)*" \
			"$TEST_DIR/test-lib.sh" "$TEST_DIR"/t*.sh |
			sed "s/^apt-get install //" | tr " " "\n" |
			grep -v "^and$\|^rebuild$"
	} | sort -u >named &&
	test -s named &&
	awk "!/^#/ { print \$1 }" "$PACKAGES" | sort >listed &&
	comm -23 named listed >unlisted &&
	test_must_be_empty unlisted
'

# What a build without the optional libraries says (NO_OPTIONAL=1 in CI).
test_expect_success_if !LIBAIO_BUILT 'without libaio: the engine is refused, naming libaio-dev' '
	test_must_fail "$IOLITE" --name=x --ioengine=libaio --parse-only 2>err &&
	grep "ioengine .libaio. is not available in this build: install libaio-dev and rebuild" err
'

test_expect_success_if !IO_URING_BUILT 'without liburing: the engine is refused, naming liburing-dev' '
	test_must_fail "$IOLITE" --name=x --ioengine=io_uring --parse-only 2>err &&
	grep "ioengine .io_uring. is not available in this build: install liburing-dev and rebuild" err
'

test_expect_success_if !LIBCRYPTO 'without libcrypto: md5 and the sha modes are refused, naming libssl-dev' '
	for m in md5 sha1 sha256 sha512; do
		test_must_fail "$IOLITE" --name=x --verify=$m --parse-only \
			2>err &&
		grep "option .verify.: .$m. is not available in this build: install libssl-dev and rebuild" err ||
		return 1
	done
'

test_expect_success_if !XXHASH 'without libxxhash: verify=xxhash is refused, naming libxxhash-dev' '
	test_must_fail "$IOLITE" --name=x --verify=xxhash --parse-only 2>err &&
	grep "option .verify.: .xxhash. is not available in this build: install libxxhash-dev and rebuild" err
'

test_expect_success_if !ZLIB 'without zlib: --inflate-log is refused, naming zlib1g-dev' '
	test_must_fail "$IOLITE" --inflate-log=/dev/null 2>err &&
	grep "this build has no zlib: install zlib1g-dev" err
'

test_done
