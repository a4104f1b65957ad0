#!/bin/sh
# The command line: choosing profiles (none = the newest here; a run's
# per-thread and per-dump files together), gzip, --diff, --event, usage
# errors, and the report when standard output is not a terminal.
# Expected totals are sums of the hand-written cost lines below.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
totals() { grep 'PROGRAM TOTALS' | sed -e 's/([^)]*)//g' -e 's/,//g' -e 's/PROGRAM TOTALS//' | tr -s ' ' | sed -e 's/^ //' -e 's/ $//'; }
prof() { # file, Ir of main, Ir of f
	printf 'events: Ir\nfl=a.c\nfn=main\n1 %s\ncfn=f\ncalls=1 5\n1 %s\nfn=f\n5 %s\n' "$2" "$3" "$3" >"$1"
}

# no argument: the newest callgrind.out.* here
prof callgrind.out.100 10 1
sleep 1
prof callgrind.out.200 20 2
touch -d '2020-01-01' callgrind.out.100
got=$("$CGTUI" 2>&1 | totals)
check "no argument opens the newest profile" "$([ "$got" = 22 ]; echo $?)" "totals '$got', want 22 (callgrind.out.200)"

# a profile's calling contexts and timeline beside it (PROFILE.ctx,
# PROFILE.time, as the recorder writes them) are not profiles: named by a
# glob with it they are left out; named alone, or as a side of a diff,
# they are a usage error naming the profile
mkdir beside && cd beside
prof callgrind.out.400 10 1
echo 'cgtui-contexts	1' >callgrind.out.400.ctx
echo 'cgtui-timeline	1' >callgrind.out.400.time
got=$("$CGTUI" --batch callgrind.out.* 2>&1 | totals)
check "callgrind.out.* with a .ctx and .time beside: the profile once" "$([ "$got" = 11 ]; echo $?)" \
	"totals '$got', want 11"
"$CGTUI" --batch callgrind.out.400.ctx >out.txt 2>err.txt
check "a .ctx alone: a usage error naming its profile" \
	"$([ $? = 1 ] && grep -q 'callgrind.out.400.ctx: the calling contexts of the profile callgrind.out.400, not a profile' err.txt; echo $?)" "$(cat err.txt)"
"$CGTUI" --batch --diff callgrind.out.400 callgrind.out.400.time >out.txt 2>err.txt
check "a .time as a side of a diff: a usage error" \
	"$([ $? = 1 ] && grep -q 'the timeline of the profile callgrind.out.400' err.txt; echo $?)" "$(cat err.txt)"
cd ..

# a run with one file per thread: callgrind.out.PID-TID
mkdir threads && cd threads
prof callgrind.out.300-01 100 10
prof callgrind.out.300-02 200 20
prof callgrind.out.301-01 1000 100
got=$("$CGTUI" --batch callgrind.out.300 | totals)
check "PID names load every thread's file" "$([ "$got" = 330 ]; echo $?)" "totals '$got', want 110 + 220"
got=$("$CGTUI" --batch | totals)
check "no argument: the newest file's whole run" "$([ -n "$got" ]; echo $?)" "no report"
got=$("$CGTUI" --batch callgrind.out.300-02 | totals)
check "a thread's own file alone" "$([ "$got" = 220 ]; echo $?)" "totals '$got', want 220"
# any other name (cgtui -o NAME --separate-threads=yes, callgrind
# --callgrind-out-file=NAME) that is not a file: NAME-TID
prof my.prof-01 100 10
prof my.prof-02 200 20
prof my.prof-extra 1000 100
got=$("$CGTUI" --batch my.prof 2>&1 | totals)
check "-o NAME's per-thread files load as NAME" "$([ "$got" = 330 ]; echo $?)" "totals '$got', want 110 + 220"
cd ..
# a directory: the profiles in it (as --check's sides took it; reading
# said "Is a directory"); my.prof-* are no callgrind.out.* names
got=$("$CGTUI" --batch threads 2>&1 | totals)
check "a directory stands for the callgrind.out.* in it" "$([ "$got" = 1430 ]; echo $?)" \
	"totals '$got', want 110 + 220 + 1100"
got=$("$CGTUI" --batch --diff threads/callgrind.out.300 threads 2>&1 | totals)
check "--diff of a run and a directory" "$([ "$got" = 1100 ]; echo $?)" "totals '$got', want 1430 - 330"

# callgrind --separate-threads=yes also writes an empty base file: left out
# (it was read alone: "no events: line"); no argument: the newest file's
# whole run (it was that thread's file alone)
mkdir sep && cd sep
: >callgrind.out.500
prof callgrind.out.500-01 100 10
prof callgrind.out.500-02 200 20
touch -d '2020-01-01' callgrind.out.500 callgrind.out.500-01
got=$("$CGTUI" --batch callgrind.out.500 2>&1 | totals)
check "an empty callgrind.out.PID beside its thread files is left out" \
	"$([ "$got" = 330 ]; echo $?)" "totals '$got', want 110 + 220"
got=$("$CGTUI" --batch 2>&1 | totals)
check "no argument, the newest file a thread's: the whole run" \
	"$([ "$got" = 330 ]; echo $?)" "totals '$got', want 110 + 220"
: >named.out
prof named.out-01 1 1
prof named.out-02 2 2
got=$("$CGTUI" --batch named.out 2>&1 | totals)
check "an empty NAME beside NAME-01, NAME-02 (--callgrind-out-file=NAME): the threads" \
	"$([ "$got" = 6 ]; echo $?)" "totals '$got', want 2 + 4"
cd ..

# per-dump files: callgrind.out.PID.N, and the final callgrind.out.PID
mkdir dumps && cd dumps
prof callgrind.out.400.1 1 1
prof callgrind.out.400.2 2 2
prof callgrind.out.400 4 4
got=$("$CGTUI" --batch callgrind.out.400 | totals)
check "dumps of a run load together" "$([ "$got" = 14 ]; echo $?)" "totals '$got', want 2 + 4 + 8"
# one of them named alone: the note counts the run's three files (the run's
# own name is one of them; it said two)
"$CGTUI" --batch callgrind.out.400.2 >/dev/null 2>err.txt
grep -q "callgrind.out.400.2 is one of 3 files of the run callgrind.out.400" err.txt
check "a dump named alone: one of the run's 3 files" "$?" "$(cat err.txt)"
cd ..

# gzip
prof plain.out 7 3
gzip -c plain.out >packed.out.gz
got=$("$CGTUI" --batch packed.out.gz | totals)
check "gzip-compressed profile" "$([ "$got" = 10 ]; echo $?)" "totals '$got', want 10"

# merge and diff
prof a.out 10 5
prof b.out 30 1
got=$("$CGTUI" --batch a.out b.out | totals)
check "several profiles add up" "$([ "$got" = 46 ]; echo $?)" "totals '$got', want 15 + 31"
got=$("$CGTUI" --batch --diff a.out b.out | totals)
check "--diff is second minus first" "$([ "$got" = 16 ]; echo $?)" "totals '$got', want 31 - 15"
out=$("$CGTUI" --batch --diff a.out b.out --show=Ir --no-annotate)
echo "$out" | grep -q '^> *-4 .*f:a.c$'
check "--diff shows negative counts" "$?" "no '-4' row for f: $out"
# each side of --diff can be a run of several files, as a profile named
# alone: NAME-01, NAME-02 (cgtui -o NAME --separate-threads=yes)
prof run1-01 10 5
prof run1-02 20 1
prof run2-01 40 2
got=$("$CGTUI" --batch --diff run1 run2 2>&1 | totals)
check "--diff of two runs of per-thread files" "$([ "$got" = 6 ]; echo $?)" \
	"totals '$got', want 42 - (15 + 21)"
"$CGTUI" --batch --diff a.out >/dev/null 2>err.txt
check "--diff needs two profiles" "$([ $? = 1 ] && grep -q 'exactly two' err.txt; echo $?)" "$(cat err.txt)"

# derived events
printf 'events: Ir Bcm Bim\nfl=a.c\nfn=main\n1 100 3 4\n' >br.out
out=$("$CGTUI" --batch --show=Bm,CEst --sort=CEst br.out)
echo "$out" | grep -q '^ *7 (100.0%) *170 (100.0%)  PROGRAM TOTALS'
check "standard derived events Bm = Bim + Bcm, CEst = Ir + 10 Bm" "$?" "$(echo "$out" | grep TOTALS)"
# --help's example of --event works on a profile with cache events (it
# named CEst, defined already there: "event 'CEst' is already defined"):
# cacheev.out's totals, by hand, Cycles = Ir + 10 L1m + 100 LLm = 100 + 10
# (1 + 2 + 1) + 100 (1 + 1 + 1) = 440
ex=$("$CGTUI" --help | sed -n "s/.*--event=.*e\.g\. '\(.*\)'\$/\1/p")
name=${ex%% *}
out=$("$CGTUI" --batch --event="$ex" --show="$name" "$top_srcdir/tests/tui/cacheev.out" 2>&1)
echo "$out" | grep -q '^ *440 (100.0%)  PROGRAM TOTALS'
check "--help's --event example ($ex) on Cachegrind's events: 440" "$?" "$(echo "$out" | tail -3)"
# the formula as written, without the blanks around it (the summary drew
# "=  Ir + 2 Ir")
out=$("$CGTUI" --batch --format=json --event='Cyc =  Ir + 2 Ir ' br.out | grep -o '"formula": "[^"]*"' |
	grep ' 2 ')
[ "$out" = '"formula": "Ir + 2 Ir"' ]
check "--event's formula kept without its blanks" "$?" "$out"
# negative costs outside a difference are said (by hand: -5 and -2, 7 in
# all); a difference's are not
printf 'events: Ir\nfl=a.c\nfn=f\n1 10\n2 -5\nfn=g\n3 -2\n' >neg.out
out=$("$CGTUI" --batch neg.out 2>&1 >/dev/null)
echo "$out" | grep -q 'neg.out: negative Ir costs, 7 in all'
check "negative costs: a warning" "$?" "$out"
printf 'events: Ir\nfl=a.c\nfn=f\n1 4\n' >neg2.out
out=$("$CGTUI" --batch --diff neg2.out br.out 2>&1 >/dev/null)
! echo "$out" | grep -q 'negative'
check "a difference's negative costs: no warning" "$?" "$out"
# the file:function and function:file rows, by hand: a.c:main Ir 100 Bm 7,
# a.c:g 10 and 1, b.c:g 50 and 2; CEst = Ir + 10 Bm.  Shown with derived
# events the report works on expanded copies of the costs, without them on
# the aggregated costs themselves: both must give the same rows.
printf 'events: Ir Bcm Bim\nfl=a.c\nfn=main\n1 100 3 4\nfn=g\n2 10 1 0\nfl=b.c\nfn=g\n3 50 0 2\n' >br2.out
out=$("$CGTUI" --batch --show=Bm,CEst --sort=CEst --no-annotate br2.out | tr -s ' ' | sed 's/ ([^)]*)//g')
want='< 8 190 a.c:
 7 170 main
 1 20 g
< 2 70 b.c:g
> 7 170 main:a.c
> 3 90 g:
 2 70 b.c
 1 20 a.c'
got=$(echo "$out" | grep -E '^(<|>| [0-9])' | grep -v TOTALS)
check "derived events in the file:function and function:file rows" \
	"$([ "$got" = "$want" ]; echo $?)" "got: $got"
# threshold 30% of CEst 260 = 78: only a.c:main (170) is above it; g's
# entries (20, 70) are not, and neither is g (90) in function:file
out=$("$CGTUI" --batch --show=Bm,CEst --sort=CEst --threshold=30 --no-annotate br2.out |
	tr -s ' ' | sed 's/ ([^)]*)//g')
want='< 8 190 a.c:
 7 170 main
> 7 170 main:a.c'
got=$(echo "$out" | grep -E '^(<|>| [0-9])' | grep -v TOTALS)
check "a threshold on a derived event keeps only the rows above it" \
	"$([ "$got" = "$want" ]; echo $?)" "got: $got"
out=$("$CGTUI" --batch --show=Ir --no-annotate br2.out | tr -s ' ' | sed 's/ ([^)]*)//g')
want='< 110 a.c:
 100 main
 10 g
< 50 b.c:g
> 100 main:a.c
> 60 g:
 50 b.c
 10 a.c'
got=$(echo "$out" | grep -E '^(<|>| [0-9])' | grep -v TOTALS)
check "real events in the file:function and function:file rows" \
	"$([ "$got" = "$want" ]; echo $?)" "got: $got"
out=$("$CGTUI" --batch --event='Twice = 2 Ir' --show=Twice br.out)
echo "$out" | grep -q '^200 (100.0%)  PROGRAM TOTALS'
check "--event defines a formula" "$?" "$(echo "$out" | grep TOTALS)"

# usage errors and information
"$CGTUI" --threshold=abc a.out >/dev/null 2>err.txt
check "bad --threshold is a usage error (exit 1)" "$([ $? = 1 ]; echo $?)" "$(cat err.txt)"
"$CGTUI" --show=Nope a.out >/dev/null 2>err.txt
check "unknown --show event (exit 1)" "$([ $? = 1 ] && grep -q 'Nope' err.txt; echo $?)" "$(cat err.txt)"
"$CGTUI" --help | grep -q -- '--inclusive=yes|no'
check "--help lists the options" "$?" ""
# --help is made from the option table; the man page is written by hand:
# every long option --help names is described there
man=${abs_top_builddir:-$(dirname "$CGTUI")}/man/cgtui.1
if [ -f "$man" ]; then
	missing=""
	for o in $("$CGTUI" --help | grep -o -- '--[A-Za-z0-9][A-Za-z0-9-]*' | sort -u); do
		sed 's/\\-/-/g' "$man" | grep -q -- "$o" || missing="$missing $o"
	done
	check "the man page describes every option of --help" "$([ -z "$missing" ]; echo $?)" "missing:$missing"
fi
"$CGTUI" --version | grep -q '^cgtui [0-9]'
check "--version" "$?" ""
# recording options before a name that is no program to record: why, in
# one line (it said "unrecognized option '--no-open'" and the whole usage)
"$CGTUI" --no-open ./no-such-prog >/dev/null 2>err.txt
check "--no-open with a missing program: exit 1, says it" \
	"$([ $? = 1 ] && grep -q '^cgtui: ./no-such-prog: cannot record it: No such file' err.txt &&
		[ "$(wc -l <err.txt)" = 1 ]; echo $?)" "$(head -3 err.txt)"
"$CGTUI" -o x.out no-such-command-here >/dev/null 2>err.txt
check "-o with a name not in PATH: exit 1, says it" \
	"$([ $? = 1 ] && grep -q 'no-such-command-here: cannot record it: no such program here or in PATH' err.txt; echo $?)" \
	"$(head -3 err.txt)"
cp "$CGTUI" notexec && chmod -x notexec
"$CGTUI" ./notexec >/dev/null 2>err.txt
check "a program without execute permission: exit 1, says so (not 'binary data')" \
	"$([ $? = 1 ] && grep -q 'notexec: cannot record it: a program, but not executable' err.txt; echo $?)" \
	"$(head -3 err.txt)"
"$CGTUI" --cache-sim=yes >/dev/null 2>err.txt
check "a recording option without a program: exit 1, says so" \
	"$([ $? = 1 ] && grep -q -- '--cache-sim=yes: no program to record' err.txt; echo $?)" "$(head -3 err.txt)"
"$CGTUI" --record a.out >/dev/null 2>err.txt
check "a recording option before a profile: exit 1, not a program" \
	"$([ $? = 1 ] && grep -q 'a.out: cannot record it: not executable' err.txt; echo $?)" "$(head -3 err.txt)"

mkdir empty && cd empty
"$CGTUI" >/dev/null 2>err.txt
check "no argument and no profile: usage, exit 1" "$([ $? = 1 ] && grep -q 'no profile given' err.txt; echo $?)" "$(cat err.txt)"
cd ..

# functions that callgrind could only name by address (a stripped binary)
# get their ELF symbol back in the explorer, from the unstripped binary;
# the expected name is nm's for that address
if command -v valgrind >/dev/null && command -v cc >/dev/null && command -v nm >/dev/null; then
	mkdir strip && cd strip
	printf 'static int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i %% 7; return s; }\nint main(void) { return work(300000) == 1 ? 1 : 0; }\n' >p.c
	cc -g -O0 -o p p.c && cp p p.full && strip p
	valgrind --tool=callgrind --callgrind-out-file=cg.out ./p >/dev/null 2>&1
	cp p.full p
	hot=0x$(nm p.full | awk '$3 == "main" { print $1 }')
	printf '/main<Enter>\n:dump rec.txt\nq\n' >rec.keys
	CGTUI_CONFIG=/dev/null CGTUI_SCRIPT=rec.keys COLUMNS=120 "$CGTUI" cg.out >/dev/null 2>&1
	[ -n "$hot" ] && grep -q "main \[recovered from $hot\]" rec.txt
	check "stripped binary: main recovered from its address (nm: ${hot:-none})" "$?" "$(grep -i recovered rec.txt)"
	cd ..
fi

# --control gives up when vgdb gets no answer (it waits for ever when the
# program ended while being asked: a hang seen in run-live.sh on a loaded
# host); a vgdb that never answers stands in for it
mkdir fakevgdb
printf '#!/bin/sh\nexec sleep 600\n' >fakevgdb/vgdb
chmod +x fakevgdb/vgdb
start=$(date +%s)
PATH=$(pwd)/fakevgdb:$PATH CGTUI_CONTROL_TIMEOUT_MS=700 "$CGTUI" --control 4242 status \
	>ctl.out 2>ctl.err
rc=$? took=$(($(date +%s) - start))
[ $rc = 2 ] && [ $took -lt 60 ] && grep -q "no answer within 0.7 s" ctl.err
check "--control: no answer within CGTUI_CONTROL_TIMEOUT_MS: exit 2, said (${took}s)" "$?" \
	"rc $rc: $(cat ctl.err)"

# the man page made in the build lists every key of the key table (its
# list is made from the table), in the place the page keeps for it
man=${abs_top_builddir:-$(dirname "$CGTUI")}/man/cgtui.1
if [ -f "$man" ]; then
	sed 's/\\//g' "$man" >man.txt
	missing=$("$CGTUI" --keys | sed -n 's/^  .\{27\}//p' | while IFS= read -r h; do
		grep -qF -- "$h" man.txt || echo "$h"
	done)
	check "the man page lists every key, in its Keys section" \
		"$([ -z "$missing" ] && ! grep -q '@KEYS@' man.txt; echo $?)" "missing: $missing"
fi

finish
