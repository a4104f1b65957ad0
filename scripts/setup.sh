#!/bin/sh
# scripts/setup.sh -- set up a Debian/Ubuntu machine, build cgtui, and then
#   example: open the bundled example profile
#   test:    run the whole test suite (what CI runs); the last line printed
#            is "N passed, N failed"
# Installs what is missing with apt-get (as root, or through sudo).
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
what=${1:-example}
cd "$(dirname "$0")/.."

packages="build-essential autoconf automake pkg-config libncurses-dev libpcre2-dev
libelf-dev libdwarf-dev zlib1g-dev libzstd-dev libcapstone-dev valgrind perl python3 tmux
clang libclang-rt-14-dev cppcheck procps binutils libiberty-dev libprotobuf-c-dev
protobuf-c-compiler golang-github-google-pprof-dev protobuf-compiler python3-jsonschema"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	$sudo apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

[ -x configure ] || autoreconf -fi
# build out of the source tree: build/ (and build-asan/ for the tests)
build() { # dir, configure options...
	d=$1
	shift
	mkdir -p "$d"
	[ -f "$d/Makefile" ] || (cd "$d" && ../configure -q --enable-werror "$@")
	make -C "$d" -j"$(nproc)" -s
}
build build

case "$what" in
example)
	exec build/cgtui examples/callgrind.out.wordfreq
	;;
test)
	# the whole suite, then again with AddressSanitizer and UBSan
	pass=0 fail=0 status=0
	: >failed.log
	for d in build build-asan; do
		if [ "$d" = build-asan ]; then
			build build-asan --enable-sanitizers ||
				{ status=1; echo "FAIL: the build-asan build" >>failed.log; break; }
		fi
		st=0
		make -C "$d" -j"$(nproc)" -s check >/dev/null 2>&1 || st=$?
		# every check of every test: PASS:/FAIL: lines of the scripts, ok/not ok of TAP
		for log in $(find "$d/tests" -name '*.log' | sort); do
			p=$(grep -c -E '^(PASS: |ok )' "$log" || true)
			f=$(grep -c -E '^(FAIL: |not ok )' "$log" || true)
			echo "${log%.log}: $p passed, $f failed"
			# the failing checks themselves (a TAP log's tail may not hold them)
			[ "$f" = 0 ] || grep -E '^(FAIL: |not ok )' "$log" | head -20 | sed 's/^/    /'
			[ "$f" = 0 ] || grep -E '^(FAIL: |not ok )' "$log" | head -20 | sed "s|^|${log%.log}: |" >>failed.log
			pass=$((pass + p))
			fail=$((fail + f))
		done
		if [ "$st" != 0 ]; then
			tail -60 "$d/test-suite.log" 2>/dev/null || true
			status=$st
			echo "FAIL: make check in $d ended with status $st (its test-suite.log: above)" >>failed.log
		fi
	done
	# the fuzzer, for a minute (libFuzzer with ASan+UBSan)
	if BUILDDIR=build sh tests/fuzz/run.sh 60 >fuzz.log 2>&1; then
		echo "PASS: $(tail -1 fuzz.log)"
		pass=$((pass + 1))
	else
		echo "FAIL: fuzzing" | tee -a failed.log
		tail -40 fuzz.log
		fail=$((fail + 1))
	fi
	# warnings as errors with clang too, and cppcheck clean
	st=0
	mkdir -p build-clang
	if [ ! -f build-clang/Makefile ]; then
		(cd build-clang && CC=clang ../configure -q --enable-werror) || st=1
	fi
	if [ $st = 0 ] && make -C build-clang -j"$(nproc)" -s >build-clang.log 2>&1; then
		echo "PASS: clang -Werror build"
		pass=$((pass + 1))
	else
		echo "FAIL: clang -Werror build" | tee -a failed.log
		tail -30 build-clang.log
		fail=$((fail + 1))
	fi
	# src/instrument is Valgrind tool code: its VG_ macros are not C cppcheck knows
	if cppcheck -q --error-exitcode=1 --enable=warning,portability,performance --std=c11 -i src/instrument \
		-I build -I src src/ >cppcheck.log 2>&1; then
		echo "PASS: cppcheck on src/"
		pass=$((pass + 1))
	else
		echo "FAIL: cppcheck on src/" | tee -a failed.log
		cat cppcheck.log
		fail=$((fail + 1))
	fi
	[ "$status" != 0 ] && [ "$fail" = 0 ] && fail=1
	# the failing checks again, last: a reader of the output's tail sees them
	if [ -s failed.log ]; then
		echo "failing checks (also above):"
		head -40 failed.log | sed 's/^/    /'
	fi
	echo "$pass passed, $fail failed"
	[ "$status" = 0 ] && [ "$fail" = 0 ]
	;;
*)
	echo "usage: $0 example|test" >&2
	exit 1
	;;
esac
