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
# a name wider than the header (longname.out: 87 columns) is cut, never
# the numbers after it: at 80 columns the call graph's ": incl
# 1,234,567,890 84.0%, called 1234567x" takes 43 columns, so 36 of the name
# and "~"; the flame graph's "[estimated] " 12 and ": 1,234,567,890 84.0%,
# self 1,234,567,890 84.0%" 47 leave 21 (the calls, 17 more, do not fit);
# the call map's ": 1,234,567,890 84.0%" 21 leaves 59; the timeline's
# sparkline of it (longname.out.time: one interval of all 1,469,135,780 Ir)
# ": Ir per Ir by interval, top 0.84" 33 leaves 47.  (1,234,567,890 of
# 1,469,135,780 is 84.03%.)
rm -f ./*.txt
printf '/a_function<Enter>\n4\n:dump graph.txt\nF\n/a_function<Enter>\n6\n:dump flame.txt\nF\n/a_function<Enter>\n5\n:dump map.txt\n7\n:dump timeline.txt\nq\n' >longname.keys
TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C CGTUI_SCRIPT=longname.keys \
	CGTUI_CONFIG=plain.config "$CGTUI" longname.out >/dev/null 2>&1
# mrc.out's scan so named: its curve's header ": at 64K ... whole run
# 10.00%" (mrc.keys) 67 columns leaves 13; its legend's "* " 2 and " (240
# samples)  . whole run (600)" 33 leave 45
sed 's/\bscan\b/ns::a_function_whose_name_is_long_enough_to_fill_most_of_an_eighty_column_screen(int)/' \
	mrc.out >longmrc.out
printf '/a_function<Enter>\n8\n:dump mrc.txt\nq\n' >longmrc.keys
TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C CGTUI_SCRIPT=longmrc.keys \
	CGTUI_CONFIG=plain.config "$CGTUI" longmrc.out >/dev/null 2>&1
for want in \
	"graph.txt:ns::a_function_whose_name_is_long_en~: incl 1,234,567,890 84.0%, called 1234567x" \
	"flame.txt:[estimated] ns::a_function_whose~: 1,234,567,890 84.0%, self 1,234,567,890 84.0%" \
	"map.txt:ns::a_function_whose_name_is_long_enough_to_fill_most_of_a~: 1,234,567,890 84.0%" \
	"timeline.txt:ns::a_function_whose_name_is_long_enough_to_fi~: Ir per Ir by interval, top 0.84" \
	"mrc.txt:ns::a_functi~: at 64K (2^10 lines) 100.00% misses (400 of 400); whole run 10.00%" \
	"legend.txt:* ns::a_function_whose_name_is_long_enough_to_~ (240 samples)  . whole run (600)"; do
	f=${want%%:*}
	case $f in
	timeline.txt) got=$(grep '^ns::' "$f" 2>/dev/null) ;;
	legend.txt) got=$(sed -n 4p mrc.txt 2>/dev/null) ;;
	*) got=$(sed -n 3p "$f" 2>/dev/null) ;;
	esac
	[ "$got" = "${want#*:}" ]
	check "long name in the header, numbers whole: $f" $? "want '${want#*:}', got '$got'"
done

# an estimated flame graph's frame whose calls under the threshold are no
# frames: its "self" holds them, and says so.  graph.out (its comments):
# at 1%, 9.92 of 992, work's calls of small1 (1) and small2 (1) are
# hidden: 300 + 1 + 1 = 302, 30.4% of 992; hash (500) calls nothing:
# its self is its own; main's calls (50, 902, 30) are all shown
rm -f ./*.txt
printf '6
:dump main.txt
j
j
:dump work.txt
j
:dump hash.txt
q
' >small.keys
TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C CGTUI_SCRIPT=small.keys \
	CGTUI_CONFIG=plain.config "$CGTUI" --threshold=1 graph.out >/dev/null 2>&1
for want in \
	"main.txt:[estimated] main: 992 100.0%, self 10 1.0%" \
	"work.txt:[estimated] work: 802 80.8%, self and calls not shown 302 30.4%, calls 10" \
	"hash.txt:[estimated] hash: 500 50.4%, self 500 50.4%, calls 100"; do
	f=${want%%:*}
	got=$(sed -n 3p "$f" 2>/dev/null)
	[ "$got" = "${want#*:}" ]
	check "flame graph at 1%: the self of a frame with calls not shown says so: $f" $? \
		"want '${want#*:}', got '$got'"
done

# the roots an estimate's bound left out are said, with their cost
# (leftout.out: roots big 50, mid 30, small 20 of 100; the bound lowered
# to two contexts by CGTUI_CTX_NODES, so small is in no frame: 20 Ir,
# 20.0%), and the frames drawn are the two kept
rm -f ./*.txt
printf '6\n:dump flame.txt\nq\n' >left.keys
TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C CGTUI_SCRIPT=left.keys CGTUI_CTX_NODES=2 \
	CGTUI_CONFIG=plain.config "$CGTUI" leftout.out >/dev/null 2>&1
want="1 root left out at 2 contexts, the smallest: 20 Ir (20.0%) in no frame"
got=$(sed -n 24p flame.txt 2>/dev/null)
[ "$got" = "$want" ] && sed -n 4p flame.txt | grep -q '^big 50.0%.*|mid 30.0% *|$'
check "flame graph: the roots left out by the bound said, with their cost" $? \
	"want '$want', got '$got'; frames: $(sed -n 4p flame.txt 2>/dev/null)"
# and the same words in --export's note, the stacks the two kept
got=$(CGTUI_CTX_NODES=2 "$CGTUI" --export=folded leftout.out 2>&1 >stacks.txt)
[ "$got" = "cgtui: --export=folded: ${want%in no frame}in no stack" ] &&
	[ "$(cat stacks.txt)" = "$(printf 'big 50\nmid 30')" ]
check "--export: the roots left out said as in the flame graph" $? "got '$got', $(cat stacks.txt)"

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
	[ $rc = 0 ] && ! grep -q -e 'runtime error' -e Sanitizer stderr.txt &&
		grep -q '^flame graph ' live-2.txt && grep -q 'running' live-2.txt &&
		[ -n "$inc" ] && [ "$inc" = "$slf" ] && [ "${t2:-0}" -gt "${t1:-0}" ]
	check "flame graph while recording: drawn again with newer data ($t1, then $t2 Ir), inner selected" \
		$? "exit $rc, $(head -3 stderr.txt), header: $hdr"
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
