#!/bin/sh
# A set of parts adds up to the sum of its parts.  Callgrind records a run
# of three threads with --separate-threads=yes and --dump-every-bb, so that
# it is a dozen parts or so (dumps 1-5, each of the threads alive then: a
# file each);
# for sets chosen with --parts and --threads, and in the explorer's parts
# view (P, Space, *, Enter), every event's total is the sum of the parts'
# totals, which awk reads here on its own from the files of the parts chosen
# (their part:, thread:, summary: and totals: lines).  A part's total is its
# summary: line, the run's full cost (format spec 3.1.7.1), where that is
# above its totals: line, the sum of its cost lines: callgrind's summary
# counts a few events no cost line has (a thread's dump here: 17 Ir, its
# cost lines 14, the calls into its start_thread 17), and callgrind_annotate
# prints the summary as PROGRAM TOTALS.  Also: the parts view shows each
# part's own total, marks the parts shown, and says which in the header.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
command -v valgrind >/dev/null || { echo "SKIP: no valgrind"; exit 77; }
export LC_ALL=C TZ=UTC
cc -g -O1 -pthread -o threads "$here/threads.c" || exit 99
valgrind --tool=callgrind --callgrind-out-file=run.out --separate-threads=yes \
	--dump-every-bb=20000 --cache-sim=yes ./threads >/dev/null 2>&1
# each part: its file, part: number, thread: number and total, one number
# per event of its events: line (callgrind leaves out trailing zeros: format
# spec, "cost lines"): the larger of its summary: and totals: lines
awk '/^events:/ { ne = NF - 1 } /^part:/ { p = $2 } /^thread:/ { t = $2 }
	FNR == 1 { split("", s) }
	/^summary:/ { for (i = 2; i <= NF; i++) s[i] = $i }
	/^totals:/ {
		printf "%s %s %s", FILENAME, p, t
		for (i = 2; i <= ne + 1; i++) {
			v = i <= NF ? $i : 0
			printf " %s", (s[i] + 0 > v + 0 ? s[i] : v)
		}
		print ""
	}' run.out-* run.out.* >parts.txt
nparts=$(wc -l <parts.txt)
check "callgrind wrote a run of several dumps of several threads ($nparts parts)" \
	"$([ "$nparts" -ge 8 ] && [ "$(cut -d' ' -f2 parts.txt | sort -u | wc -l)" -ge 3 ] &&
		[ "$(cut -d' ' -f3 parts.txt | sort -u | wc -l)" -ge 3 ]; echo $?)" "$(cat parts.txt)"

# the sum of every event over the parts whose number is in $1 and thread in
# $2 (blank-separated lists; "" any)
sum() {
	awk -v P=" $1 " -v T=" $2 " '
		(P == "  " || index(P, " " $2 " ")) && (T == "  " || index(T, " " $3 " ")) {
			for (i = 4; i <= NF; i++) s[i] += $i
			n = NF
		}
		END { for (i = 4; i <= n; i++) printf("%s%.0f", (i > 4 ? " " : ""), s[i]); print "" }' parts.txt
}
# the report's totals line, without its thousands separators
report_total() {
	"$CGTUI" --batch --show-percs=no --no-annotate "$@" run.out 2>err.txt |
		sed -n 's/ *PROGRAM TOTALS$//p' | tr -d ',' | tr -s ' ' | sed 's/^ //'
}

# 1. the report, for sets of parts named on the command line
check_set() { # --parts list, --threads list (blank-separated; "" none)
	args=
	[ -n "$1" ] && args="--parts=$(echo $1 | tr ' ' ',')"
	[ -n "$2" ] && args="$args --threads=$(echo $2 | tr ' ' ',')"
	want=$(sum "$1" "$2")
	[ -n "$want" ] || { check "report $args: parts in the set" 1 "none in this run"; return; }
	got=$(report_total $args)
	check "report $args: every event's total is its parts' sum ($want)" \
		"$([ "$got" = "$want" ]; echo $?)" "got '$got'$(cat err.txt)"
}
# (the part numbers and threads of this run: the first, second and last)
nums=$(cut -d' ' -f2 parts.txt | sort -nu)
p1=$(echo "$nums" | sed -n 1p) p2=$(echo "$nums" | sed -n 2p) pl=$(echo "$nums" | sed -n '$p')
tl=$(cut -d' ' -f3 parts.txt | sort -nu | sed -n '$p')
rest=$(echo "$nums" | sed 1d | tr '\n' ' ')
check_set "" ""
check_set "$p2" ""
check_set "$p1 $pl" ""
check_set "" "2 3"
check_set "$rest" "1"
check_set "$pl" "$tl"
# --pids: the run's one process (every part), another (none: a usage error)
pid=$(sed -n 's/^pid: *//p' "$(head -1 parts.txt | cut -d' ' -f1)" | head -1)
want=$(sum "" "2") got=$(report_total --pids="$pid" --threads=2)
check "report --pids=$pid --threads=2: as --threads=2 ($want)" "$([ "$got" = "$want" ]; echo $?)" \
	"got '$got'"
"$CGTUI" --batch --pids=$((pid + 1)) --threads=2 run.out >out.txt 2>err.txt
st=$?
check "--pids=$((pid + 1)) (another process): a usage error that says so" \
	"$([ $st = 1 ] && grep -q "^cgtui: --threads, --pids: none of the profile's $nparts parts" err.txt;
		echo $?)" "exit $st: $(cat err.txt)"
# (ranges: 2-N is 2 3 ... N)
want=$(sum "$rest" "") got=$(report_total --parts="$p2-$pl")
check "report --parts=$p2-$pl: as $rest($want)" "$([ "$got" = "$want" ]; echo $?)" "got '$got'"
# (several parts: "N of M parts:" and each as PART.THREAD, in the order they
# ran: here by thread; one part: "part P of M, thread T")
thr=$(awk -v P="$p2" '$2 == P { print $3 }' parts.txt | sort -n)
n=$(echo "$thr" | wc -l)
if [ "$n" = 1 ]; then
	label="part $p2 of $nparts, thread $thr"
else
	label="$n of $nparts parts: $(echo "$thr" | sed "s/^/$p2./" | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
fi
"$CGTUI" --batch --parts="$p2" run.out >out.txt 2>/dev/null
grep -q -x -F "Parts shown:      $label" out.txt
check "report --parts=$p2: the metadata says which parts ($label)" $? "$(grep "^Parts" out.txt)"
# the JSON report: parts_shown lists the parts of the set (their files,
# part and thread numbers as awk read them), the totals are their sum, and
# it is valid against the schema
"$CGTUI" --format=json --parts="$p2" run.out >rep.json 2>err.txt
want=$(awk -v P="$p2" '$2 == P { print $1, $2, $3 }' parts.txt | sort)
got=$(python3 -c 'import json, sys
r = json.load(open("rep.json"))
for p in r["metadata"]["parts_shown"]:
    print(p["file"], p["part"], p["thread"])
print("totals", *[r["totals"][e["name"]] for e in r["events"] if e["formula"] is None])' 2>&1)
check "JSON --parts=$p2: parts_shown and the totals" \
	"$([ "$(echo "$got" | grep -v '^totals' | sort)" = "$want" ] &&
		[ "$(echo "$got" | sed -n 's/^totals //p')" = "$(sum "$p2" "")" ]; echo $?)" "$got"
python3 "$top_srcdir/tests/share/share.py" schema "$top_srcdir/tests/share/report.schema.json" \
	rep.json >schema.log 2>&1
check "JSON --parts=$p2: valid against report.schema.json" $? "$(cat schema.log)"
"$CGTUI" --batch run.out 2>/dev/null | grep -q '^Parts shown:'
check "report of every part: no 'Parts shown' line" "$([ $? = 1 ]; echo $?)" ""
"$CGTUI" --batch --threads=99 run.out >out.txt 2>err.txt
st=$?
check "--threads=99 (no such thread): a usage error that says so" \
	"$([ $st = 1 ] && grep -q "^cgtui: --threads: none of the profile's $nparts parts" err.txt &&
		[ ! -s out.txt ]; echo $?)" "exit $st: $(cat err.txt)"
"$CGTUI" --batch --parts=2-x run.out >out.txt 2>err.txt
st=$?
check "--parts=2-x: a usage error" "$([ $st = 1 ] &&
	grep -q "^cgtui: --parts: '2-x' is not a list of numbers and ranges" err.txt; echo $?)" \
	"exit $st: $(cat err.txt)"

# 2. the explorer's parts view, read off its screens
screens() { # keys file
	rm -f ./s-*.txt
	TERM=xterm-256color COLUMNS=200 LINES=60 LC_ALL=C.UTF-8 CGTUI_SCRIPT=$1 \
		CGTUI_CONFIG=/dev/null "$CGTUI" run.out >/dev/null 2>err.txt
}
# the header's total (the sort event, Ir: the first)
head_total() { sed -n '1s/.* Ir \([0-9,]*\)$/\1/p' "$1" | tr -d ','; }
ir() { sum "$1" "$2" | cut -d' ' -f1; }
printf 'P\n:dump s-parts.txt\nq\n' >view.keys
screens view.keys
# each part's row: its file, and the Ir column before it
awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^run\.out/) print $i, $(i - 1) }' s-parts.txt |
	tr -d ',' >rows.txt
st=0
d=
while read -r f p t rest; do
	want=$(echo $rest | cut -d' ' -f1)
	got=$(awk -v F="$f" '$1 == F { print $2 }' rows.txt)
	[ "$got" = "$want" ] || { st=1; d="$d $f: $got, not $want;"; }
done <parts.txt
check "parts view: each part's Ir is its total ($(wc -l <rows.txt) rows)" \
	"$([ $st = 0 ] && [ "$(wc -l <rows.txt)" = "$nparts" ]; echo $?)" "$d"
# the row (from 0, the row of all parts) of file $1
row() { awk -v F="$1" '/^ [ *] / { n++ } { for (i = 2; i <= NF; i++) if ($i == F) print n - 1 }' s-parts.txt; }
moves() { # from row $1 to row $2
	i=$1
	while [ "$i" -lt "$2" ]; do printf 'j'; i=$((i + 1)); done
	echo
}
# take two parts out with Space, then a third with x; then all again (*);
# then one alone (Enter)
# (how many dumps the threads are in varies from run to run: the parts
# taken are the two costliest and the last one's file in the list)
a=$(sort -k4,4nr parts.txt | sed -n 1p | cut -d' ' -f1)
b=$(sort -k4,4nr parts.txt | sed -n 2p | cut -d' ' -f1)
c=$(sort -k4,4nr parts.txt | sed -n '$p' | cut -d' ' -f1)
ra=$(row "$a") rb=$(row "$b") rc=$(row "$c")
sorted=$(printf '%s\n' "$ra" "$rb" "$rc" | sort -n | tr '\n' ' ')
{
	echo P
	r=0
	for x in $sorted; do
		moves $r "$x"
		echo "<Space>"
		r=$x
	done
	echo ":dump s-three.txt"
	echo "<Esc>"
	echo ":dump s-functions.txt"
	echo "P"
	echo "*"
	echo ":dump s-all.txt"
	moves 0 "$rb"
	echo "<Enter>"
	echo ":dump s-one.txt"
	echo "P"
	moves 0 "$ra"
	echo "x"
	echo ":dump s-two.txt"
	echo q
} >sel.keys
screens sel.keys
# stderr empty but for cgtui's warning that callgrind's file contradicts
# itself: with threads, callgrind's call edges into a function sometimes
# cost more than its inclusive cost (_dl_allocate_tls at thread creation,
# depending on the scheduling); the warning is right to say so
check "explorer: every screen dumped" \
	"$([ -f s-two.txt ] && ! grep -v "the file's own numbers disagree" err.txt | grep -q .; echo $?)" "$(cat err.txt)"
all=$(ir "" "")
out=$(awk -v A="$a" -v B="$b" -v C="$c" '$1 != A && $1 != B && $1 != C { s += $4 } END { print s }' parts.txt)
for s in s-three.txt s-functions.txt; do
	got=$(head_total $s)
	check "$s: $nparts parts less three (Space): Ir $out" "$([ "$got" = "$out" ]; echo $?)" "got $got"
done
grep -q "| $((nparts - 3)) of $nparts parts: " s-three.txt
check "the header says $((nparts - 3)) of $nparts parts" $? "$(sed -n 2p s-three.txt)"
marked=$(grep -c '^ \* *[0-9]' s-three.txt)
grep -q '^ \* *all parts' s-three.txt
allmarked=$?
check "parts view: the $((nparts - 3)) parts shown marked, not the row of all" \
	"$([ "$marked" = $((nparts - 3)) ] && [ $allmarked = 1 ]; echo $?)" "$marked marked"
got=$(head_total s-all.txt)
check "* shows every part again: Ir $all" "$([ "$got" = "$all" ]; echo $?)" "got $got"
grep -q '^ \* *all parts' s-all.txt && [ "$(grep -c '^ \* *[0-9]' s-all.txt)" = 0 ]
check "* : the row of all parts marked, as before" $? "$(sed -n 4,6p s-all.txt)"
one=$(awk -v B="$b" '$1 == B { print $4 }' parts.txt)
got=$(head_total s-one.txt)
check "Enter on one part: that part's Ir $one" "$([ "$got" = "$one" ]; echo $?)" "got $got"
two=$(awk -v A="$a" -v B="$b" '$1 == A || $1 == B { s += $4 } END { print s }' parts.txt)
got=$(head_total s-two.txt)
check "x adds a part to the one shown: Ir $two" "$([ "$got" = "$two" ]; echo $?)" "got $got"

# 3. calling contexts recorded beside each thread's file (PROFILE.ctx): the
# flame graph's paths (--export=folded) are those of the threads chosen,
# exact (no "estimated" note), though the other thread's file names a
# function whose costs were not read.  Thread 1: main 3 calls f 5; thread
# 2: main 4 calls g 6.
for t in 1 2; do
	c=f m=3 v=5
	[ $t = 2 ] && c=g m=4 v=6
	printf '%s\n' "version: 1" "creator: cgtui" "pid: 1" "cmd: ./prog" "part: 1" "thread: $t" \
		"events: Ir" "fl=a.c" "fn=main" "1 $m" "cfn=$c" "calls=1 2" "1 $v" "fn=$c" "2 $v" \
		"totals: $((m + v))" >ctx.out-0$t
	printf 'cgtui-contexts\t1\nevents:\tIr\nfn:\t0\t\ta.c\tmain\nfn:\t1\t\ta.c\t%s\n' $c \
		>ctx.out-0$t.ctx
	printf 'ctx:\t0\t-1\t0\t1\t1\t0\t%d\nctx:\t1\t0\t1\t1\t1\t0\t%d\n' $m $v >>ctx.out-0$t.ctx
done
for t in 1 2; do
	c=f m=3 v=5
	[ $t = 2 ] && c=g m=4 v=6
	"$CGTUI" --export=folded --threads=$t ctx.out >folded.txt 2>err.txt
	check "recorded contexts, --threads=$t: thread $t's paths, exact" \
		"$([ "$(cat folded.txt)" = "$(printf 'main %d\nmain;%s %d' $m $c $v)" ] &&
			[ ! -s err.txt ]; echo $?)" "$(cat folded.txt err.txt)"
done

finish
