#!/bin/sh
# Headless screen tests: cgtui reads keys from a script (CGTUI_SCRIPT) and
# dumps the screen's text; the dumps must equal expected/.  The numbers on
# the expected screens are the specification's (see spec.keys).
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
: "${CGTUI:=../../cgtui}"
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$CGTUI" ] || { echo "SKIP: $CGTUI not built"; exit 77; }
case "$CGTUI" in /*) ;; *) CGTUI=$(pwd)/$CGTUI ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.out "$here"/*.keys "$here"/*.config "$here"/*.c "$work"/
cd "$work" || exit 99
# the sources older than the profiles, whatever second the copy ended in
# (a source newer than its profile gets a warning on the screen)
touch -d 2020-01-01 ./*.c
pass=0 fail=0
run() { # keys file, locale, expected directory, profiles (spec.out), configuration
	rm -f ./*.txt
	TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=$2 CGTUI_SCRIPT=$1 \
		CGTUI_CONFIG=${5:-/dev/null} "$CGTUI" ${4:-spec.out} \
		>stdout.txt 2>stderr.txt
	rc=$?
	# stderr must be empty, unless the expected directory has its stderr.txt
	if [ $rc != 0 ] || { [ -s stderr.txt ] && [ ! -f "$here/$3/stderr.txt" ]; }; then
		echo "FAIL: $1 ($2): exit status $rc: $(cat stderr.txt)"
		fail=$((fail + 1))
		return
	fi
	[ -s stdout.txt ] && echo "  note: something was written to stdout"
	for exp in "$here/$3"/*.txt; do
		name=$(basename "$exp")
		if diff -u "$exp" "$name" >diff.out 2>&1; then
			echo "PASS: $3/$name"
			pass=$((pass + 1))
		else
			echo "FAIL: $3/$name"
			cat diff.out
			fail=$((fail + 1))
		fi
	done
}
run spec.keys C.UTF-8 expected
run ascii.keys C expected-ascii
run parts.keys C.UTF-8 expected-parts parts.out
run detail.keys C.UTF-8 expected-detail
run search.keys C.UTF-8 expected-search
run trees.keys C.UTF-8 expected-trees
run recursion.keys C expected-recursion recursion.out
run config.keys C.UTF-8 expected-config spec.out test.config
run order.keys C.UTF-8 expected-order
run diff.keys C.UTF-8 expected-diff "--diff diff-a.out diff-b.out"
run same.keys C.UTF-8 expected-same "--diff diff-a.out diff-a.out"
run bigcalls.keys C.UTF-8 expected-bigcalls bigcalls.out
touch -d 2030-01-01 newer.c
run newer.keys C.UTF-8 expected-newer newer.out
run unknown.keys C.UTF-8 expected-unknown unknown.out
run keep.keys C.UTF-8 expected-keep keep.out
run finding.keys C.UTF-8 expected-finding finding.out
run threads.keys C.UTF-8 expected-threads "thread-1.out thread-2.out"
run warn.keys C.UTF-8 expected-warn warn.out
run srcsel.keys C.UTF-8 expected-srcsel srcsel.out
run calls.keys C.UTF-8 expected-calls calls.out
run wide.keys C.UTF-8 expected-wide wide.out
run nocalls.keys C.UTF-8 expected-nocalls nocalls.out
run narrow.keys C.UTF-8 expected-narrow
run resize.keys C.UTF-8 expected-resize
run elsewhere.keys C.UTF-8 expected-elsewhere
run cmdline.keys C.UTF-8 expected-cmdline "--sort=B --show=B --threshold=40 --no-show-percs --context=3 keep.out"
# every key of the key table, in every view (the list comes from --keys):
# no crash, no sanitizer report, and each view still draws
set -f # the keys include '*'
keys=$("$CGTUI" --keys | sed -n 's/^  \([^ ]*\).*/\1/p' | grep -v -x -e q -e Q)
views=$(echo "$keys" | grep -x -e F -e c -e s -e e -e S -e P -e f -e u -e m -e t -e T -e '?')
{
	for view in $views; do
		echo "F"
		echo "$view"
		for k in $keys; do
			case "$k" in
			/) echo "/main<Enter>" ;;
			'|') echo "|file<Enter>"; echo "|<Enter>" ;;
			E) echo "E"; echo "Double = 2 Instructions<Enter>" ;;
			*) echo "$k" ;;
			esac
		done
		echo ":dump allkeys-$(printf '%s' "$view" | od -An -tx1 | tr -d ' \n').txt"
		echo "<Esc><Esc><Esc>"
	done
	echo "q"
} >allkeys.keys
set +f
rm -f allkeys-*.txt
TERM=xterm-256color COLUMNS=100 LINES=40 LC_ALL=C.UTF-8 CGTUI_SCRIPT=allkeys.keys \
	CGTUI_CONFIG=/dev/null "$CGTUI" spec.out >stdout.txt 2>stderr.txt
rc=$?
n=$(ls allkeys-*.txt 2>/dev/null | wc -l)
nv=$(echo "$views" | wc -w)
drawn=$(grep -l '^spec.out ' allkeys-*.txt 2>/dev/null | wc -l)
if [ $rc = 0 ] && [ ! -s stderr.txt ] && [ "$n" = "$nv" ] && [ "$drawn" = "$nv" ]; then
	echo "PASS: every key in every view ($nv views, $(echo "$keys" | wc -w) keys)"
	pass=$((pass + 1))
else
	echo "FAIL: every key in every view: exit $rc, $n of $nv screens: $(head -5 stderr.txt)"
	fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
