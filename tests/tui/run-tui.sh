#!/bin/sh
# Headless screen tests: cgtui reads keys from a script (CGTUI_SCRIPT) and
# dumps the screen's text; the dumps must equal expected/.  The numbers on
# the expected screens are the specification's (see spec.keys).
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
cp "$here"/*.out "$here"/*.ctx "$here"/*.time "$here"/*.keys "$here"/*.config "$here"/*.c .
# the sources older than the profiles, whatever second the copy ended in
# (a source newer than its profile gets a warning on the screen)
touch -d 2020-01-01 ./*.c
run() { # keys file, locale, expected directory, profiles (spec.out), configuration
	rm -f ./*.txt
	TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=$2 CGTUI_SCRIPT=$1 \
		CGTUI_CONFIG=${5:-plain.config} "$CGTUI" ${4:-spec.out} \
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
	# the call graph's, call map's and miss-ratio curve's screens read as a
	# person would, and checked against numbers worked out by hand
	# (check-picture.py, check-curve.py); the flame graph's against the one
	# check-flame.py works out from the profile named in NAME.flame
	for chk in "$here/$3"/*.graph "$here/$3"/*.map "$here/$3"/*.curve "$here/$3"/*.flame; do
		[ -f "$chk" ] || continue
		name=$(basename "$chk")
		case $name in
		*.flame) out=$(python3 "$here/check-flame.py" "${name%.*}.txt" "$(cat "$chk")" 2>&1) ;;
		*.curve) out=$(python3 "$here/check-curve.py" "${name%.*}.txt" "$chk" 2>&1) ;;
		*) out=$(python3 "$here/check-picture.py" "${name%.*}.txt" "$chk" 2>&1) ;;
		esac
		if [ $? = 0 ]; then
			echo "PASS: $3/$name: $(echo "$out" | tail -1)"
			pass=$((pass + 1))
		else
			echo "FAIL: $3/$name"
			echo "$out"
			fail=$((fail + 1))
		fi
	done
}
# every NAME.keys here, its first lines saying how it runs: "#run: LOCALE
# [PROFILES...] [config=FILE]" (PROFILES default spec.out) and optionally
# "#before: COMMAND"; its screens are expected in expected-NAME (spec's in
# expected)
for k in *.keys; do
	[ "$k" = allkeys.keys ] && continue
	name=${k%.keys}
	how=$(sed -n 's/^#run: *//p' "$k" | head -1)
	if [ -z "$how" ]; then
		echo "FAIL: $k: no #run: line"
		fail=$((fail + 1))
		continue
	fi
	before=$(sed -n 's/^#before: *//p' "$k" | head -1)
	[ -n "$before" ] && sh -c "$before"
	loc=${how%% *}
	args=${how#"$loc"}
	cfg=$(printf '%s\n' $args | sed -n 's/^config=//p')
	profs=$(printf '%s\n' $args | grep -v '^config=' | tr '\n' ' ' | sed 's/ *$//')
	exp=expected-$name
	[ "$name" = spec ] && exp=expected
	run "$k" "$loc" "$exp" "$profs" "$cfg"
done
# every heat bar as long as its percentage (bars.keys' screens, UTF-8 and
# ASCII)
for loc in C.UTF-8 C; do
	rm -f ./*.txt
	TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=$loc CGTUI_SCRIPT=bars.keys \
		CGTUI_CONFIG=/dev/null "$CGTUI" spec.out >/dev/null 2>&1
	if out=$(python3 "$here/check-bars.py" functions.txt calltree.txt 2>&1); then
		echo "PASS: heat bars ($loc): $(echo "$out" | tail -1)"
		pass=$((pass + 1))
	else
		echo "FAIL: heat bars ($loc)"
		echo "$out"
		fail=$((fail + 1))
	fi
done
# the flame graph open while a program is recorded (spin.c: main calls
# outer, outer calls inner, which calls nothing): a newer snapshot draws it
# again, inner still selected, its self cost its inclusive cost (it
# crashed: the view, made anew for the new data, asked itself for its
# selection before it had any frames)
if command -v valgrind >/dev/null && cc -g -O0 -o spin "$here/spin.c" 2>/dev/null; then
	rm -f ./*.txt
	printf ':wait-fn inner\n/^inner$<Enter>\n6\n:dump live-1.txt\n:wait-data\n:dump live-2.txt\nq\n' >live.keys
	TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C CGTUI_SCRIPT=live.keys \
		CGTUI_CONFIG=plain.config "$CGTUI" ./spin >stdout.txt 2>stderr.txt
	rc=$?
	# the status line's total (Ir) and the header's numbers, as read
	total() { sed -n '1s/.*| Ir //p' "$1" | tr -d ,; }
	hdr=$(sed -n 3p live-2.txt 2>/dev/null)
	inc=$(echo "$hdr" | sed -n 's/^inner: \([0-9,]*\) .*/\1/p')
	slf=$(echo "$hdr" | sed -n 's/.*, self \([0-9,]*\) .*/\1/p')
	t1=$(total live-1.txt 2>/dev/null) t2=$(total live-2.txt 2>/dev/null)
	if [ $rc = 0 ] && ! grep -q -e 'runtime error' -e Sanitizer stderr.txt &&
		grep -q '^flame graph ' live-2.txt && grep -q 'running' live-2.txt &&
		[ -n "$inc" ] && [ "$inc" = "$slf" ] && [ "${t2:-0}" -gt "${t1:-0}" ]; then
		echo "PASS: flame graph while recording: drawn again with newer data ($t1, then $t2 Ir), inner selected"
		pass=$((pass + 1))
	else
		echo "FAIL: flame graph while recording: exit $rc, $(head -3 stderr.txt)"
		cat live-2.txt 2>/dev/null
		fail=$((fail + 1))
	fi
else
	echo "SKIP: flame graph while recording (no valgrind or cc)"
fi

# every key of the key table, in every view (the list comes from --keys):
# no crash, no sanitizer report, and each view still draws
set -f # the keys include '*'
keys=$("$CGTUI" --keys | sed -n 's/^  \([^ ]*\).*/\1/p' | grep -v -x -e q -e Q)
views=$("$CGTUI" --keys=views)
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
	CGTUI_CONFIG=plain.config "$CGTUI" spec.out >stdout.txt 2>stderr.txt
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

finish
