#!/bin/sh
# Numbers that add up.  With cycle detection on (the default), no number in
# the report or on any screen is above 100% of its total, for every
# consistent profile: the tests' own, the corpus's, and the hard shapes
# recorded here by callgrind (direct and mutual recursion, a cycle through
# a callback, qsort's callbacks, recursion levels and caller contexts,
# three threads, Debian's python3).  A profile whose own numbers disagree
# gets one warning that says so instead.  Also: the call tree's roots add
# up to the total; no node of a callers tree is above its root; with
# --cycles=no the inclusive costs are callgrind_annotate's; folding
# (--fold-recursion) adds up callgrind_annotate's levels.  check.py reads
# the outputs; the expected numbers are callgrind's and
# callgrind_annotate's, or the totals the files themselves state.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
command -v valgrind >/dev/null || { echo "SKIP: no valgrind"; exit 77; }
command -v callgrind_annotate >/dev/null || { echo "SKIP: no callgrind_annotate"; exit 77; }
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
export LC_ALL=C TZ=UTC
# common.sh's check, but with the details (lines of check.py) below the
# FAIL line; check() here runs check.py
ok() { # what, status, details
	if [ "$2" = 0 ]; then
		echo "PASS: $1"
		pass=$((pass + 1))
	else
		echo "FAIL: $1"
		[ -n "${3:-}" ] && printf '%s\n' "$3"
		fail=$((fail + 1))
	fi
}
cg() { # out, valgrind options and program
	out=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
}
check() {
	$PY "$here/check.py" "$@" 2>&1
}

cc -g -O1 -o cyc "$here/cyc.c" || exit 99
cc -g -O1 -pthread -o threads "$here/threads.c" || exit 99
cg cyc.out ./cyc
cg cyc-recs.out --separate-recs=3 ./cyc
cg cyc-callers.out --separate-callers=2 ./cyc
cg cyc-instr.out --dump-instr=yes ./cyc
cg thr.out --separate-threads=yes ./threads
cat >script.py <<'EOF'
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def walk(d, f):
    return 1 if d == 0 else f(d - 1, walk) + f(d - 1, walk)
print(sum(fib(i) for i in range(12)), walk(6, lambda d, w: w(d, lambda e, v: v(e, walk))))
EOF
cg py.out $PY script.py
recorded="cyc.out cyc-recs.out cyc-callers.out cyc-instr.out thr.out py.out"
for f in $recorded; do
	[ -s "$f" ] || [ -s "$f-01" ] || { ok "$f recorded" 1 "callgrind wrote nothing"; exit 1; }
done

# 1. the report, over every profile at hand
profiles=$recorded
for f in "$top_srcdir"/tests/*/*.out "$top_srcdir"/tests/*/*.callgrind \
	"$top_srcdir"/tests/*/*.cgout "${CORPUS_DIR:-/nonexistent}"/*; do
	case "$f" in *.md | */errors/* | *'*'*) continue ;; esac
	[ -f "$f" ] && profiles="$profiles $f"
done
nconsistent=0 corpus=""
for f in $profiles; do
	name=$(basename "$f")
	if ! "$CGTUI" --batch --no-annotate --inclusive=yes --tree=both --threshold=0 "$f" \
		>rep.txt 2>err.txt; then
		continue # not a profile (tests/errors has the bad ones)
	fi
	if grep -q "own numbers disagree\|negative .* costs, .* in all\|summary for .* but the costs add up" err.txt; then
		n=$(grep -c "own numbers disagree" err.txt)
		ok "$name: its own numbers disagree: said once ($n)" "$([ "$n" -le 1 ]; echo $?)" \
			"$(cat err.txt)"
		continue
	fi
	nconsistent=$((nconsistent + 1))
	case "$f" in "${CORPUS_DIR:-/nonexistent}"/*) corpus="$corpus $f" ;; esac
	d=$(check percents rep.txt)
	ok "$name: no number in the report above 100%" $? "$d"
done
ok "consistent profiles checked: $nconsistent" "$([ "$nconsistent" -ge 20 ]; echo $?)"

# 2. the screens: the functions, and for the 14 costliest each its callers
# and callees, its call graph, its callers tree opened four levels deep, its
# source (and its assembly, with instruction addresses), its flame graph
# and call map; the call tree opened down the hottest path.  For the
# profiles recorded here and the corpus's consistent ones
keys() { # assembly too? then r (of the function shown) too?
	[ "$2" = r ] && echo "r"
	echo ":dump functions.txt"
	echo "t"
	i=0
	while [ $i -lt 40 ]; do
		echo "<Tab>j"
		i=$((i + 1))
	done
	echo ":dump calltree.txt"
	k=0
	while [ $k -lt 14 ]; do
		printf 'F\ng'
		j=0
		while [ $j -lt $k ]; do
			printf 'j'
			j=$((j + 1))
		done
		printf '\n<Enter>\n:dump calls-%d.txt\n4\n:dump graph-%d.txt\n<Esc>\nT\n' $k $k
		echo "<Tab>j<Tab>j<Tab>j<Tab>j<Tab>"
		echo ":dump callers-$k.txt"
		printf '<Esc>\ns\n:dump source-%d.txt\n' $k
		printf '6\n:dump flame-%d.txt\n5\n:dump map-%d.txt\n' $k $k
		[ "$1" = asm ] && printf 'a\n:dump asm-%d.txt\n' $k
		k=$((k + 1))
	done
	echo "q"
}
# and again with r: every share of the function a view is about
for f in $recorded $corpus; do for rel in total r; do
	rm -f ./*.txt
	asm=no
	[ "$f" = cyc-instr.out ] && asm=asm
	keys $asm $rel >screens.keys
	TERM=xterm-256color COLUMNS=200 LINES=60 CGTUI_SCRIPT=screens.keys CGTUI_CONFIG=/dev/null \
		"$CGTUI" "$f" >/dev/null 2>err.txt
	n=$(ls calls-*.txt 2>/dev/null | wc -l)
	name=$(basename "$f")
	case " $recorded " in
	*" $f "*) ok "$name ($rel): 14 functions' screens dumped ($n)" "$([ "$n" = 14 ]; echo $?)" \
		"$(cat err.txt)" ;;
	*) ok "$name ($rel): screens dumped ($n functions)" "$([ "$n" -ge 1 ]; echo $?)" "$(cat err.txt)" ;;
	esac
	d=$(check percents ./*.txt)
	ok "$name ($rel): no number on any screen above 100%" $? "$d"
	st=0
	# (the profiles recorded here, named without a directory, all have
	# calls; a corpus profile without any has no callers tree: T says so)
	d=$(for c in callers-*.txt; do
		[ "$name" = "$f" ] || grep -q 'Callers of' "$c" || continue
		check below-root "$c" || echo "$c"
	done)
	[ -z "$d" ] || st=1
	ok "$name ($rel): no node of a callers tree above its root" $st "$d"
done; done

# 3. the roots of the call tree add up to the total the files state
# (every thread's start is a root)
for f in cyc.out thr.out py.out; do
	total=$(cat "$f" "$f"-[0-9]* 2>/dev/null | awk '/^totals:/ { s += $2 } END { print s }')
	printf 'D\nt\n:dump roots.txt\n' >roots.keys
	printf 'set bars = no\n' >plain.config
	TERM=xterm COLUMNS=160 LINES=60 CGTUI_SCRIPT=roots.keys CGTUI_CONFIG=plain.config \
		"$CGTUI" --threshold=0 "$f" >/dev/null 2>&1
	d=$(check roots roots.txt "$total")
	ok "$f: the call tree's roots add up to the total, $total" $? "$d"
done
# the run named with a shell's pattern (thr.out*: the run's empty file,
# then each thread's) is the run once: its files counted twice, the
# roots added up to twice the total
total=$(awk '/^totals:/ { s += $2 } END { print s }' thr.out-[0-9]*)
rm -f roots.txt
TERM=xterm COLUMNS=160 LINES=60 CGTUI_SCRIPT=roots.keys CGTUI_CONFIG=plain.config \
	"$CGTUI" --threshold=0 thr.out* >/dev/null 2>&1
d=$(check roots roots.txt "$total")
ok "thr.out*: the call tree's roots add up to the total, $total" $? "$d"
got=$("$CGTUI" --batch --no-annotate --no-show-percs thr.out* 2>&1 |
	awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
ok "thr.out*: the report's total is the threads' sum, $total" "$([ "$got" = "$total" ]; echo $?)" \
	"got '$got'"
# the run against one of its own threads' files (--diff, --check): the
# second side names its file anew, not left out as the first side's run's
# (the difference is the thread's total minus the run's)
t1=$(awk '/^totals:/ { print $2 }' thr.out-01)
got=$("$CGTUI" --batch --no-annotate --no-show-percs --diff thr.out thr.out-01 2>&1 |
	awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
ok "--diff thr.out thr.out-01: thread 1's total minus the run's, $((t1 - total))" \
	"$([ -n "$t1" ] && [ "$got" = "$((t1 - total))" ]; echo $?)" "got '$got'"
"$CGTUI" --check thr.out thr.out-01 --limit=Ir=0 >check.txt 2>&1
ok "--check thr.out thr.out-01 --limit=Ir=0: a decrease passes (exit 0)" $? "$(cat check.txt)"
# the same run as callgrind names it, in a directory named alone: its
# empty callgrind.out.PID is no profile, its threads are the run
mkdir -p run.d
: >run.d/callgrind.out.7
for t in thr.out-[0-9]*; do cp "$t" "run.d/callgrind.out.7-${t##*-}"; done
got=$("$CGTUI" --batch --no-annotate --no-show-percs run.d 2>&1 |
	awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
ok "a directory with callgrind's empty file beside the threads': the threads' sum, $total" \
	"$([ "$got" = "$total" ]; echo $?)" "got '$got': $("$CGTUI" --batch run.d 2>&1 | head -2)"
grep -q "clone" roots.txt 2>/dev/null
rm -f roots.txt
TERM=xterm COLUMNS=160 LINES=60 CGTUI_SCRIPT=roots.keys CGTUI_CONFIG=plain.config \
	"$CGTUI" --threshold=0 thr.out >/dev/null 2>&1
awk 'NR > 3' roots.txt | grep -q "^ *[0-9,]* *[0-9.]*% *[-+ ] clone"
ok "thr.out: the threads' start (clone) is a root" $? "$(cat roots.txt)"

# 4. cycles off: the inclusive costs callgrind_annotate prints, recursive
# calls counted again (above 100%), and the header says so
for f in cyc.out cyc-recs.out; do
	"$CGTUI" --batch --no-annotate --cycles=no --inclusive=yes --tree=calling --threshold=0 "$f" \
		>ours.txt 2>/dev/null
	callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$f" >ref.txt 2>/dev/null
	d=$(check raw-incl ours.txt ref.txt)
	ok "$f: --cycles=no: inclusive costs are callgrind_annotate's" $? "$d"
done
printf 'C\n:dump raw.txt\nq\n' >raw.keys
TERM=xterm COLUMNS=160 LINES=40 CGTUI_SCRIPT=raw.keys CGTUI_CONFIG=/dev/null \
	"$CGTUI" cyc-recs.out >/dev/null 2>&1
grep -q "cycles off: raw" raw.txt && ! check percents raw.txt >/dev/null
ok "C: raw numbers, labelled, above 100% for the recursive functions" $? "$(head -12 raw.txt)"

# 5. folding recursion levels and caller contexts
for f in cyc-recs.out cyc-callers.out; do
	"$CGTUI" --batch --no-annotate --fold-recursion=yes --threshold=0 "$f" >ours.txt 2>/dev/null
	callgrind_annotate --auto=no --threshold=100 "$f" >ref.txt 2>/dev/null
	d=$(check fold-self ours.txt ref.txt)
	ok "$f: --fold-recursion: f'N and f'caller add up to f" $? "$d"
done

# 6. the folded stacks add up to the total the file states, at the default
# threshold too: a root under it has no caller to be left to (every
# function of a Cachegrind file is a root; so is a small thread's start)
f=$top_srcdir/tests/report/prog.cgout
total=$(awk '/^summary:/ { print $2 }' "$f")
for t in "" --threshold=1; do
	got=$("$CGTUI" --export=folded $t "$f" 2>/dev/null | awk '{ s += $NF } END { print s }')
	ok "prog.cgout: --export=folded${t:+ $t}: the stacks add up to the total, $total" \
		"$([ -n "$total" ] && [ "$got" = "$total" ]; echo $?)" "got $got"
done

finish
