#!/usr/bin/env bash
# run-live.sh -- `cgtui [options] prog args`: the launcher and the live view.
#
# Every profile the launcher saves is compared with what an independent
# tool writes for the same program run the same way (same directory, same
# environment, stdin /dev/null, output to a file): cachegrind (Ir, or all
# events with the simulations; profdiff.py per file:function:line),
# callgrind for the fallback, cg_annotate/callgrind_annotate per function
# for --instr-at-start=no.  Screens come from the headless mode
# (CGTUI_SCRIPT, :wait-data, :wait-fn, :wait-end, :dump) and from tmux; the numbers on
# them are compared with the totals: line of the file the tool wrote.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Prints "PASS: name" or "FAIL: name: reason" per check; exits 0 when all
# pass, 1 when any fails, 77 (skip) when the tool or a prerequisite is
# missing.  LIVE_KEEP=1 keeps the work directory.

# shellcheck disable=SC2086
# options, finding cgtui and the tool, $T, pass/fail: as the recorder's tests
name=live ref=cachegrind
RECORDER_KEEP=${LIVE_KEEP:-0}
# shellcheck source=../recorder/rec-common.sh
. "$(cd "$(dirname "$0")" && pwd)/../recorder/rec-common.sh"
export LC_ALL=C.UTF-8
for t in cg_annotate; do
	command -v "$t" >/dev/null 2>&1 || skip "$t not found"
done
[ -f /usr/include/valgrind/callgrind.h ] || skip "no valgrind/callgrind.h"
srcdir=${top_srcdir:-$here/../..}
profdiff=$srcdir/tests/recorder/profdiff.py

tmux_socks=""
live_cleanup() {
	for s in $tmux_socks; do tmux -S "$s" kill-server 2>/dev/null; done
	rm -f "$T"/*.run "$T"/*/*.run # a program left running ends (LIVE_KEEP too)
	cleanup
}
trap live_cleanup EXIT
cd "$T" || exit 99
check() { # name, status (0 = pass), detail
	if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi
}

cc -g -O1 -I"$srcdir/src/instrument" -o live-prog "$here/live-prog.c" -pthread 2>build.log &&
	cc -g -O1 -DUSE_CALLGRIND_H -o live-prog-clg "$here/live-prog.c" -pthread 2>>build.log ||
	{ fail build "$(head -c 300 build.log)"; exit 1; }
mkdir empty-vglib in
seq 1 2000 | head -c 12345 >in/input
unset VALGRIND_LIB VALGRIND_OPTS CGTUI_SCRIPT CGTUI_VGLIB CGTUI_STOP_TIMEOUT_MS
export CGTUI_CONFIG=/dev/null COLUMNS=80 LINES=24 TERM=xterm-256color

# address space randomisation off for both sides where counts depend on
# addresses (an ASan build of cgtui turns it off for its children anyway)
norand=""
setarch "$(uname -m)" -R true 2>/dev/null && norand="setarch $(uname -m) -R"

# Programs that must still run when the keys come: live-prog gets a file
# in place of MS and runs while it exists (a fixed time ran out on a loaded
# machine before the keys came).  live.run is there all along: the test
# stops those programs itself (q, Ctrl-C, the end of the keys, a signal).
# run_until DUMP RUN: RUN exists until the keys have dumped DUMP (what the
# check needs is seen by then); a watcher in the background removes it
# (after 120 s at most), end_watch ends the watcher and removes RUN
: >live.run
run_until() { # dump file, run file
	rm -f "$1"
	: >"$2"
	(i=0; while [ ! -e "$1" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done; rm -f "$2") &
	watcher=$!
}
end_watch() { # run file
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	rm -f "$1"
}

# the pid in "profile: callgrind.out.PID" of cgtui's last message
saved() { sed -n 's/.*profile: \([^;]*\);.*/\1/p' "$1" | tail -1; }
totals() { sed -n 's/^totals: *//p' "$1"; }
# the profiles among files (the calling contexts beside them, .ctx, are not)
profiles() { for f in "$@"; do case $f in *.ctx) ;; *) echo "$f" ;; esac; done; }
# cachegrind on the same program, run as the launcher runs it
cachegrind() { # out-file, options and program...
	local out=$1
	shift
	# --log-file as the launcher gives it: Valgrind's log descriptor changes
	# what a program closing all descriptors executes
	# and address space randomisation off on both sides: an ASan build of
	# cgtui turns it off for what it starts, and string functions' counts
	# depend on the alignment of the strings they scan
	(VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=cachegrind --cachegrind-out-file="$out" \
		--log-file="$T/cg-vg.log" "$@" </dev/null >cg-prog.log 2>&1; :) 2>/dev/null
}
# the cost of function $2 in cg_annotate's or callgrind_annotate's summary
fn_cost() { # annotate-output, function
	sed -n "s/^ *\([0-9,]*\) .*:$2 .*/\1/p; s/^ *\([0-9,]*\) .*:$2\$/\1/p" "$1" | head -1 | tr -d ,
}

# --- the command line ---------------------------------------------------------------
"$CGTUI" --help >help.txt 2>&1
missing=""
for o in -o --stdin --log --record --no-open --cache-sim --branch-sim --I1 --D1 --LL \
	--cache-model --cache-config --cache-mrc --cache-use \
	--instr-at-start --trace-children --separate-threads --contexts --max-contexts --timeline --timeline-interval \
	--tool-option --control; do
	grep -q -- "$o" help.txt || missing="$missing $o"
done
check "cgtui --help lists the recording options" "$([ -z "$missing" ]; echo $?)" "missing:$missing"
if [ -n "$srcdir" ] && [ -f "$srcdir/man/cgtui.1.in" ]; then
	missing=""
	for o in output stdin log record no-open cache-sim cache-model cache-config cache-mrc cache-use \
		"LINE UTILISATION" "MISS-RATIO CURVES" instr-at-start contexts max-contexts timeline timeline-interval \
		trace-children tool-option CGTUI_VGLIB CGTUI_STOP_TIMEOUT_MS control "Live control"; do
		sed 's/\\//g' "$srcdir/man/cgtui.1.in" | grep -q -- "$o" || missing="$missing $o"
	done
	check "the man page describes them" "$([ -z "$missing" ]; echo $?)" "missing:$missing"
fi
"$CGTUI" --no-such-option ./live-prog >/dev/null 2>rec.err
check "an unknown option before the program: usage error (1)" "$([ $? = 1 ]; echo $?)" "$(cat rec.err)"
"$CGTUI" --stdin=/nonexistent ./live-prog >/dev/null 2>rec.err
check "--stdin of a missing file: usage error (1), nothing run" \
	"$([ $? = 1 ] && ! ls cgtui.log.* >/dev/null 2>&1; echo $?)" "$(cat rec.err)"
rm -f cgtui.log.*
"$CGTUI" --no-open -o no-such-dir/x.out ./live-prog work 5 >/dev/null 2>rec.err
check "-o in a missing directory: usage error (1) before running anything" \
	"$([ $? = 1 ] && grep -q 'no-such-dir: cannot write the profile there: No such file' rec.err &&
		! ls cgtui.log.* >/dev/null 2>&1; echo $?)" "$(cat rec.err)"
mkdir -p a-dir
"$CGTUI" --no-open --stdin=a-dir ./live-prog stdin >/dev/null 2>rec.err
check "--stdin naming a directory: usage error (1)" \
	"$([ $? = 1 ] && grep -q -- '--stdin: a-dir: a directory' rec.err; echo $?)" "$(cat rec.err)"
"$CGTUI" --no-open -o a-dir ./live-prog work 5 >/dev/null 2>rec.err
check "-o naming a directory: usage error (1) before running anything" \
	"$([ $? = 1 ] && grep -q 'a-dir: a directory' rec.err && ! ls a-dir.* >/dev/null 2>&1; echo $?)" \
	"$(cat rec.err)"
$norand "$CGTUI" --no-open --tool-option=--no-such-tool-option=1 ./live-prog >/dev/null 2>rec.err
rc=$?
grep -q "no profile was written" rec.err && grep -q "no-such-tool-option" rec.err
check "an option Valgrind rejects: exit 2, Valgrind's message shown" \
	"$([ $? = 0 ] && [ $rc = 2 ]; echo $?)" "rc=$rc $(cat rec.err)"
# a #! script that runs the program with exec at once, as pyenv's shims
# do: Valgrind follows no exec by default, so the tool writes nothing; the
# message says why and what to do (an ELF program, above, is not told so)
printf '#!/bin/sh\nexec ./live-prog work 1\n' > shim.sh && chmod +x shim.sh
$norand "$CGTUI" --no-open -o shim.out ./shim.sh >/dev/null 2>shim.err
rc=$?
check "a script that execs its program: exit 2, the script and --trace-children=yes named" \
	"$([ $rc = 2 ] && grep -q '^cgtui: ./shim.sh is a script (#!)' shim.err &&
		grep -q -- '--trace-children=yes' shim.err && ! grep -q 'is a script' rec.err; echo $?)" \
	"rc=$rc $(cat shim.err)"
$norand "$CGTUI" --no-open -o nl.out ./live-prog work "$(printf '5\n0')" >/dev/null 2>&1
grep -qx "cmd: ./live-prog work 5 0" nl.out && "$CGTUI" --batch nl.out >/dev/null 2>&1
check "an argument with a line break: the cmd: line stays one line" "$?" "$(grep -A1 cmd: nl.out)"
# a program named without ./ that is here but not in $PATH: recorded as
# ./live-prog (Valgrind, like a shell, said "command not found")
$norand "$CGTUI" --no-open -o bare.out live-prog work 5 >/dev/null 2>bare.err
grep -qx "cmd: ./live-prog work 5" bare.out && [ "$(sed -n 's/^totals: *//p' bare.out)" -gt 0 ]
check "a program here named without ./: recorded" "$?" "$(cat bare.err)"
printf 'events: Ir\nfl=a.c\nfn=f\n1 5\n' >prof.out
chmod +x prof.out
"$CGTUI" --batch prof.out >batch.txt 2>&1
grep -q "PROGRAM TOTALS" batch.txt
check "an executable profile is still a profile" "$?" "$(head -3 batch.txt)"

# --- the report's and the explorer's options while recording (one session) ------------
# they were refused ("this option does not go with recording a program");
# now the profile recorded is loaded as any profile is.  Expected: the
# totals: line of the file the tool wrote (read here with sed), doubled by
# hand for the formula; the function renamed by the pcre2 rule
$norand "$CGTUI" --batch --threshold=100 --event='Twice = 2 Ir' --show=Twice \
	--mod-funcname='s/^work$/WORK/' -o opts.out ./live-prog work 5 >opts.txt 2>opts.err
rc=$?
want=$(($(totals opts.out) * 2))
got=$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' opts.txt | tr -d ,)
check "--batch PROGRAM: the report of its profile, --event and --show applied (2 x $(totals opts.out))" \
	"$([ $rc = 0 ] && [ "$got" = "$want" ]; echo $?)" "rc=$rc got '$got' $(head -3 opts.err)"
"$CGTUI" --batch --threshold=0 --mod-funcname='s/^work$/WORK/' opts.out >opts-read.txt 2>&1
"$CGTUI" --batch --threshold=0 --mod-funcname='s/^work$/WORK/' -o opts2.out ./live-prog work 5 \
	>opts-rec.txt 2>/dev/null
grep -q '^>.* WORK:' opts-read.txt && grep -q '^>.* WORK:' opts-rec.txt &&
	! grep -q '^>.* work:' opts-read.txt opts-rec.txt
check "--mod-funcname applies to the recording's report as to the file's" "$?" \
	"$(grep -i '^>.* work:' opts-read.txt opts-rec.txt | head -3)"
$norand "$CGTUI" --threshold=1 --record --no-open -o thr.out ./live-prog work 5 >/dev/null 2>thr.err
check "--threshold=1 --record PROGRAM: accepted (it was refused)" "$?" "$(cat thr.err)"
$norand "$CGTUI" -I /tmp --no-open -o inc.out ./live-prog work 5 >/dev/null 2>inc.err
check "-I DIR PROGRAM: accepted (it was refused)" "$?" "$(cat inc.err)"
"$CGTUI" --diff ./live-prog >/dev/null 2>diff.err
check "--diff PROGRAM: a usage error that names the option" \
	"$([ $? = 1 ] && grep -q -- '--diff does not go with recording a program' diff.err; echo $?)" \
	"$(cat diff.err)"
# a run dumped in parts (CALLGRIND_DUMP_STATS): its report adds up every
# part, as the report of the files does (the recorder's explorer loaded the
# last part only); expected: the sum of the files' totals: lines
rm -rf parts && mkdir parts
$norand "$CGTUI" --batch --threshold=100 -o 'parts/d.%p' ./live-prog-clg dump >parts.txt 2>parts.err
sum=0 n=0
for f in $(profiles parts/d.*); do sum=$((sum + $(totals "$f"))) n=$((n + 1)); done
got=$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' parts.txt | tr -d ,)
check "--batch PROGRAM with a dump: the report adds both parts ($n files, $sum)" \
	"$([ "$n" = 2 ] && [ "$got" = "$sum" ]; echo $?)" "got '$got' $(ls parts) $(head -3 parts.err)"
# a program that forks: its report adds up its processes, each profile a
# part (the explorer's too: it loads the same), the child's counted from
# its fork on, so that nothing is counted twice (the fork checks below);
# with -o FILE.%p and with -o FILE (the child's FILE.PID); expected: the
# sum of the two files' totals: lines
rm -rf forkb && mkdir forkb
for o in 'forkb/f.%p' forkb/o.out; do
	$norand "$CGTUI" --batch --threshold=100 -o "$o" ./live-prog fork >forkb.txt 2>forkb.err
	sum=0 n=0
	for f in $(profiles forkb/"$(basename "${o%%.*}")".*); do
		sum=$((sum + $(totals "$f"))) n=$((n + 1))
	done
	got=$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' forkb.txt | tr -d ,)
	check "--batch -o $o PROGRAM that forks: the report adds up both processes ($n files, $sum)" \
		"$([ "$n" = 2 ] && [ "$got" = "$sum" ]; echo $?)" "got '$got' $(ls forkb) $(head -3 forkb.err)"
done
# -I in the explorer of a recording: a program whose DWARF names its source
# relatively (-fdebug-prefix-map), run from elsewhere; the source view finds
# it under -I (the explorer looked in "." only); expected: the source's text
mkdir -p rel && cp "$here/live-prog.c" rel/ && (cd rel && cc -g -O1 -fdebug-prefix-map="$PWD"=. \
	-I"$srcdir/src/instrument" -o prog live-prog.c -pthread 2>/dev/null)
live_keys() { # name, keys, program and arguments...
	local name=$1 keys=$2
	shift 2
	printf "$keys" >"$name.keys"
	CGTUI_SCRIPT=$name.keys timeout 120 "$CGTUI" "$@" >"$name.out" 2>"$name.err"
}
live_keys incl ':wait-end\n/^work$<Enter>\ns\n:dump incl.txt\n' -I rel ./rel/prog work 5
grep -q 'static long work' incl.txt || grep -q 'work(' incl.txt
check "-I DIR: the recording's source view finds a relative source there" "$?" \
	"$(head -12 incl.txt) $(cat incl.err)"

# --- recording without the explorer: the profiles -------------------------------
# --no-open (and stdout not a terminal): record only; Ir per line equal to
# cachegrind's
$norand "$CGTUI" --no-open ./live-prog work 3000 >rec.out 2>rec.err
rc=$?
f=$(saved rec.err)
check "no-open: exit status 0, a message naming the profile" \
	"$([ $rc = 0 ] && [ -n "$f" ] && [ -f "$f" ]; echo $?)" "rc=$rc: $(cat rec.err)"
check "no-open: nothing on stdout" "$([ ! -s rec.out ]; echo $?)" "$(head -3 rec.out)"
pid=${f##*.}
check "no-open: profile callgrind.out.PID and log cgtui.log.PID" \
	"$([ "$f" = "callgrind.out.$pid" ] && [ -f "cgtui.log.$pid" ]; echo $?)" "$f"
cachegrind cg.work --cache-sim=no ./live-prog work 3000
python3 "$profdiff" cg.work "$f" >diff.log 2>&1
check "no-open: Ir per file:function:line equal to cachegrind's" "$?" "$(grep FAIL diff.log | head -5)"

# -o and the simulations: all 13 events equal, options in desc:
SIM="--cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
# (misses depend on addresses, and some, such as the vDSO's, change from
# run to run unless address space randomisation is off: setarch -R)
$norand "$CGTUI" $SIM -o sim.out --no-open ./live-prog work 500 >/dev/null 2>rec.err
check "-o FILE: the profile is FILE" "$([ -f sim.out ] && [ "$(saved rec.err)" = sim.out ]; echo $?)" \
	"$(cat rec.err)"
VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=cachegrind --cachegrind-out-file=cg.sim \
	--log-file="$T/cg-vg.log" $SIM ./live-prog work 500 </dev/null >cg-prog.log 2>&1
python3 "$profdiff" cg.sim sim.out Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim \
	>diff.log 2>&1
check "simulations: 13 events per line equal to cachegrind's" "$?" "$(grep FAIL diff.log | head -5)"
grep -qx "desc: Options: $SIM" sim.out
check "options recorded as desc: Options:" "$?" "$(grep desc: sim.out)"
grep -qx "cmd: ./live-prog work 500" sim.out
check "the command recorded as cmd:" "$?" "$(grep cmd: sim.out)"
printf 'S\n:dump summary.txt\n' >summary.keys
CGTUI_SCRIPT=summary.keys LINES=40 "$CGTUI" sim.out >/dev/null 2>&1
grep -q "Options: --cache-sim=yes --branch-sim=yes --I1=32768,8,64" summary.txt
check "the summary view shows the options" "$?" "$(cat summary.txt)"

# stdin: /dev/null unless --stdin
$norand "$CGTUI" --no-open --log=stdin1.log ./live-prog stdin <in/input >/dev/null 2>&1
grep -qx "stdin: 0 bytes" stdin1.log
check "stdin is /dev/null by default" "$?" "$(tail -3 stdin1.log)"
$norand "$CGTUI" --no-open --stdin=in/input --log=stdin2.log ./live-prog stdin >/dev/null 2>&1
n=$(wc -c <in/input)
grep -qx "stdin: $n bytes" stdin2.log && cmp -s -n "$n" in/input stdin2.log
check "--stdin FILE: the program reads FILE (its output in --log)" "$?" "$(tail -c 200 stdin2.log)"
grep -q "^==== Valgrind ====" stdin2.log
check "Valgrind's messages appended to the log" "$?" "$(tail -3 stdin2.log)"

# exit status, crash, descriptors closed, output flood, threads, fork
for c in "exit 3:exited 3" "segv:killed by SIGSEGV" "closefds:exited 0"; do
	args=${c%%:*}
	$norand "$CGTUI" --no-open ./live-prog $args >/dev/null 2>rec.err
	f=$(saved rec.err)
	grep -q "program ${c#*:};" rec.err
	check "live-prog $args: the end is reported (${c#*:})" "$?" "$(cat rec.err)"
	cachegrind cg.x --cache-sim=no ./live-prog $args
	python3 "$profdiff" cg.x "$f" >diff.log 2>&1
	check "live-prog $args: the profile is kept, equal to cachegrind's" "$?" \
		"$(grep FAIL diff.log | head -3)"
done
timeout 120 $norand "$CGTUI" --no-open --log=flood.log ./live-prog flood 4 >/dev/null 2>rec.err
rc=$?
size=$(stat -c %s flood.log)
check "output flood (4 MiB): no hang, all of it in the log, a profile" \
	"$([ $rc = 0 ] && [ "$size" -ge 4194304 ] && [ -f "$(saved rec.err)" ]; echo $?)" \
	"rc=$rc size=$size"
$norand "$CGTUI" --no-open ./live-prog threads >/dev/null 2>rec.err
f=$(saved rec.err)
cachegrind cg.thr --cache-sim=no ./live-prog threads
python3 "$profdiff" --files 'live-prog\.c' cg.thr "$f" >diff.log 2>&1
check "threads: the program's lines equal to cachegrind's" "$?" "$(grep FAIL diff.log | head -3)"
rm -rf fork && mkdir fork
$norand "$CGTUI" --no-open -o 'fork/ours.%p' ./live-prog fork >/dev/null 2>rec.err
cachegrind 'fork/cg.%p' --cache-sim=no ./live-prog fork
# cachegrind's files by pid: the parent's first (pids grow)
cgp=$(ls fork/cg.* | sort -t. -k2 -n | head -1) cgc=$(ls fork/cg.* | sort -t. -k2 -n | tail -1)
# the child's profile: cachegrind's child repeats the parent's costs before
# the fork (the start, the dynamic linker's rtld.c); ours counts from the
# fork on: work()'s lines (the child's work(300), run after the fork only)
# as cachegrind's, nothing of rtld.c, and a total less by at least
# cachegrind's rtld.c costs
forkchild() { # our child's profile, cachegrind's: "ok" or what differs
	python3 - "$srcdir/tests/recorder" "$1" "$2" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import profdiff
ours = profdiff.read_callgrind(sys.argv[2])
cg = profdiff.read_cachegrind(sys.argv[3])
def lines(costs, pick):
    return {k: v[0] for k, v in costs.items() if v and pick(k)}
work = lambda k: k[1] == 'work' and k[0].endswith('live-prog.c')
rtld = lambda k: k[0].endswith('rtld.c')
ow, cw = lines(ours[1], work), lines(cg[1], work)
start = sum(lines(cg[1], rtld).values())
diff = cg[2][0] - ours[3][0]
if ow == cw and ow and not lines(ours[1], rtld) and start > 0 and diff >= start:
    print('ok')
else:
    print('work: ours %s cachegrind %s; rtld.c ours %s cachegrind %s; totals %s %s' %
          (sum(ow.values()), sum(cw.values()), sum(lines(ours[1], rtld).values()), start,
           ours[3][0], cg[2][0]))
PY
}
ours=$(profiles fork/ours.*)
op=$(for f in $ours; do grep -q '^desc: Forked:' "$f" || echo "$f"; done)
oc=$(for f in $ours; do grep -q '^desc: Forked:' "$f" && echo "$f"; done)
r=$(forkchild "$oc" "$cgc")
check "fork: one profile per process (%p), the parent's total cachegrind's, the child's from the fork on" \
	"$([ "$(echo "$ours" | wc -l)" = 2 ] && [ "$(totals "$op")" = "$(sed -n 's/^summary: *//p' "$cgp")" ] &&
		[ "$r" = ok ]; echo $?)" "parent: $(totals "$op") cachegrind: $(sed -n 's/^summary: *//p' "$cgp"); child: $r"
$norand "$CGTUI" --no-open -o fork/o.out ./live-prog fork >/dev/null 2>rec.err
f=$(profiles fork/o.out.*)
check "fork, -o FILE: the program's profile FILE, the child's FILE.PID" \
	"$([ "$(totals fork/o.out)" = "$(sed -n 's/^summary: *//p' "$cgp")" ] &&
		[ "$(forkchild "$f" "$cgc")" = ok ] &&
		[ "$(saved rec.err)" = fork/o.out ]; echo $?)" "$(ls fork) $(cat rec.err)"
grep -q "profile: fork/o.out; its children's: $f; its output: " rec.err
check "fork: the message names the child's profile too" "$?" "$(cat rec.err)"
[ -s fork/o.out.ctx ] && [ -s "$f.ctx" ]
check "fork, -o FILE: the contexts (on by default) renamed with their profiles" "$?" "$(ls fork)"
rm -rf tc && mkdir tc
$norand "$CGTUI" --no-open --trace-children=yes -o 'tc/ours.%p' /bin/sh -c './live-prog work 20; exit 0' \
	>/dev/null 2>&1
check "--trace-children=yes: the shell and the program, one file each" \
	"$([ "$(profiles tc/ours.* | wc -l)" = 2 ] &&
		grep -lqx 'cmd: ./live-prog work 20' $(profiles tc/ours.*); echo $?)" \
	"$(grep -h cmd: $(profiles tc/ours.*))"

# --instr-at-start=no with cgtui.h's requests, and with callgrind.h's
cachegrind cg.win --cache-sim=no ./live-prog window
cg_annotate --threshold=0 cg.win >cg.ann 2>&1
for prog in live-prog live-prog-clg; do
	$norand "$CGTUI" --no-open --instr-at-start=no -o "win.$prog" ./$prog window >/dev/null 2>&1
	callgrind_annotate --threshold=100 "win.$prog" >ours.ann 2>&1
	m_ours=$(fn_cost ours.ann measured) m_cg=$(fn_cost cg.ann measured)
	check "$prog --instr-at-start=no: measured() as in cachegrind's full run ($m_cg)" \
		"$([ -n "$m_cg" ] && [ "$m_ours" = "$m_cg" ]; echo $?)" "ours: $m_ours"
	check "$prog --instr-at-start=no: before() and after() not counted" \
		"$([ -z "$(fn_cost ours.ann before)$(fn_cost ours.ann after)" ] &&
			[ -n "$(fn_cost cg.ann before)" ]; echo $?)" "$(grep -E ':(before|after)' ours.ann)"
done

# callgrind's requests the tool does not do: said in the log and in the
# profile's desc: lines (they were ignored silently); CALLGRIND_ZERO_STATS
# it does: main calls work() before it and after it, the profile has the
# call after (hand: 1 call; the zero was ignored, 2)
$norand "$CGTUI" --no-open -o zero.out --log=zero.log ./live-prog-clg zero >/dev/null 2>&1
grep -qx "desc: Ignored: CALLGRIND_TOGGLE_COLLECT" zero.out &&
	! grep -q "CALLGRIND_ZERO_STATS" zero.log &&
	[ "$(grep -c "CALLGRIND_TOGGLE_COLLECT is not supported" zero.log)" = 1 ]
check "CALLGRIND_TOGGLE_COLLECT: said once in the log and in desc:" "$?" \
	"$(grep -h -e desc: -e warning: zero.out zero.log)"
calls_of() { # profile, caller, callee: "count incl" of that edge (callsdiff.py's reader)
	python3 - "$srcdir/tests/recorder" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import callsdiff
e = callsdiff.read(sys.argv[2])[0]
v = [sum(x) for x in zip(*[v for k, v in e.items() if k[0][1] == sys.argv[3] and k[1][1] == sys.argv[4]])]
print(' '.join(map(str, v)) if v else '0 0')
PY
}
check "CALLGRIND_ZERO_STATS: the counts before it are gone (main calls work 1 time after it)" \
	"$([ "$(calls_of zero.out main work | cut -d' ' -f1)" = 1 ]; echo $?)" "$(calls_of zero.out main work)"

# --- counting that starts inside calls running, threads ending ------------------------
# live-prog-clg startin (--instr-at-start=no) starts counting in start_now,
# called by main -> outer -> inner; stopstart stops it in main first.  The
# calls running then get what is counted until they return, on their own
# paths: the edges and main's inclusive cost as callgrind's (which makes
# each such call when it sees it return; main's cost with stopstart is
# not compared: callgrind ends main's call at the stop, and drops the
# block that stops), none of the returns taken for calls going back up,
# and in the contexts (.ctx) each function under its caller.
ctx_parents() { # contexts file, function: its contexts' parents' names, "-" for none
	awk -F'\t' -v f="$2" '$1 == "fn:" { name[$2] = $5 }
		$1 == "ctx:" { fn[$2] = $4; par[$2] = $3 }
		END { for (k in fn) if (name[fn[k]] == f) print (par[k] < 0 ? "-" : name[fn[par[k]]]) }' "$1" |
		sort -u | tr '\n' ' '
}
for mode in startin stopstart; do
	opt="" copt=""
	[ $mode = startin ] && opt=--instr-at-start=no copt=--instr-atstart=no
	$norand "$CGTUI" --no-open $opt -o "st.$mode" ./live-prog-clg $mode >/dev/null 2>&1
	(VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=callgrind --dump-instr=yes $copt \
		--callgrind-out-file="clg.$mode" ./live-prog-clg $mode </dev/null >/dev/null 2>&1)
	bad=""
	for e in "main outer" "outer inner" "inner start_now" "inner work" "main work"; do
		# shellcheck disable=SC2086
		[ "$(calls_of st.$mode $e)" = "$(calls_of clg.$mode $e)" ] ||
			bad="$bad $e: $(calls_of st.$mode $e) (callgrind $(calls_of clg.$mode $e));"
	done
	for e in "outer main" "inner outer" "start_now inner"; do
		# shellcheck disable=SC2086
		[ "$(calls_of st.$mode $e)" = "0 0" ] || bad="$bad $e: $(calls_of st.$mode $e);"
	done
	if [ $mode = startin ]; then
		callgrind_annotate --inclusive=yes "st.$mode" >ours.ann 2>&1
		callgrind_annotate --inclusive=yes "clg.$mode" >clg.ann 2>&1
		[ "$(fn_cost ours.ann main)" = "$(fn_cost clg.ann main)" ] ||
			bad="$bad main inclusive $(fn_cost ours.ann main) (callgrind $(fn_cost clg.ann main));"
	fi
	check "$mode: the calls running when counting starts as callgrind's, none going back up" \
		"$([ -z "$bad" ] && [ -s "clg.$mode" ]; echo $?)" "$bad"
	got="$(ctx_parents "st.$mode.ctx" main)/$(ctx_parents "st.$mode.ctx" outer)/$(ctx_parents \
		"st.$mode.ctx" inner)/$(ctx_parents "st.$mode.ctx" start_now)"
	check "$mode: the contexts one path, (below main) -> main -> outer -> inner -> start_now" \
		"$([ "$got" = "(below main) /main /outer /inner " ]; echo $?)" "parents: $got"
done
# two threads one after the other (Valgrind gives both thread id 2): both
# start in clone, which calls start_thread (hand: 2 calls, 1 path; the
# second thread's contexts started in a start_thread of their own)
$norand "$CGTUI" --no-open -o reuse.out ./live-prog reuse >/dev/null 2>&1
got="$(ctx_parents reuse.out.ctx start_thread)/$(calls_of reuse.out clone start_thread | cut -d' ' -f1)"
check "a thread id used again: its thread's contexts start in clone, as the first's" \
	"$([ "$got" = "clone /2" ]; echo $?)" "start_thread's parents / calls from clone: $got"
# a PLT stub run from another object's code (canon-plt.c: the library
# calls lib_work through its GOT, which holds the program's PLT entry, the
# function's canonical address): the stub's cost is lib_loop's, the
# caller's, in the library, as in callgrind's profile (it was listed under
# the program, a second lib_loop with no callers, and lib_loop's callers'
# calls cost more than lib_loop); self Ir per object from callsdiff.py's
# reader, the functions' objects in the contexts
mkdir -p canon
(cd canon && cc -g -O1 -DCANON_LIB -shared -fPIC -fno-plt -o libcanon.so "$here/canon-plt.c" &&
	cc -g -O1 -fno-pie -no-pie -o canon "$here/canon-plt.c" -L. -lcanon -Wl,-rpath,'$ORIGIN') \
	2>>build.log
$norand "$CGTUI" --no-open -o canon/ours ./canon/canon >/dev/null 2>&1
(VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=callgrind --dump-instr=yes \
	--callgrind-out-file=canon/cg ./canon/canon </dev/null >/dev/null 2>&1)
self_by_obj() { # profile, function: "object:self Ir" for each object it is listed in
	python3 - "$srcdir/tests/recorder" "$@" <<'PY'
import os, sys
from collections import defaultdict
sys.path.insert(0, sys.argv[1])
import callsdiff
s = defaultdict(int)
for call, ob, fn, cob, cfn, addr, costs, count, target in callsdiff.records(sys.argv[2]):
    if not call and fn == sys.argv[3]:
        s[os.path.basename(ob)] += costs[0] if costs else 0
print(' '.join('%s:%d' % kv for kv in sorted(s.items())))
PY
}
ours=$(self_by_obj canon/ours lib_loop) cg=$(self_by_obj canon/cg lib_loop)
python3 "$srcdir/tests/recorder/callsdiff.py" --within canon/ours >canon/within.log 2>&1
check "a PLT stub run from another object: its cost the caller's, in the caller's object ($cg)" \
	"$([ -n "$cg" ] && [ "$ours" = "$cg" ] && grep -q ^PASS canon/within.log; echo $?)" \
	"ours: $ours; $(grep FAIL canon/within.log | head -3)"
objs=$(awk -F'\t' '$1 == "fn:" && $5 == "lib_loop" { n = split($3, p, "/"); print p[n] }' canon/ours.ctx |
	tr '\n' ' ')
check "a PLT stub run from another object: its contexts the caller's (lib_loop in libcanon.so)" \
	"$([ "$objs" = "libcanon.so " ]; echo $?)" "lib_loop's objects in the contexts: $objs"

# a function's own file is listed first among its blocks (readers take a
# function's first fl= for its file): f, in own-b.c, inlines mix() from
# own.h, which h (own-c.c, called first) ran before; addr2line names f's
# own file (own.h was listed first: f was shown as own.h's)
mkdir -p own && cd own || exit 99
printf 'static inline __attribute__((always_inline)) int mix(int x) { return x * 7 %% 13; }\n' >own.h
printf 'int f(int n);\nint h(int n);\nint (*volatile fp[2])(int) = { h, f };\n' >own-a.c
printf 'int main(void) { return fp[0](100) + fp[1](5000) == 1; }\n' >>own-a.c
for x in b:0 c:1; do
	printf '#include "own.h"\n__attribute__((noinline)) int %s(int n) { int s = 0;\n' \
		"$([ "${x%:*}" = b ] && echo f || echo h)" >"own-${x%:*}.c"
	printf '  for (int i = 0; i < n; i++) s += mix(i + %s);\n  return s; }\n' "${x#*:}" >>"own-${x%:*}.c"
done
cc -g -gdwarf-4 -O1 -o own own-a.c own-b.c own-c.c 2>>../build.log
cd ..
$norand "$CGTUI" --no-open -o own.out ./own/own >/dev/null 2>&1
ffile=$(addr2line -e own/own "$(nm own/own | awk '$3 == "f" { print $1 }')" | sed 's/:.*//')
# the file in force at f's first fn= line (ids: fl=(N) name, then fl=(N))
first=$(awk '/^(fl|fi|fe|cfl|cfi)=/ { id = $1; sub(/^[a-z]*=/, "", id); if (NF > 1) file[id] = $2
		if ($1 ~ /^fl=/) fl = file[id] }
	/^c?fn=/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) fname[id] = $2 }
	/^fn=/ && fname[id] == "f" { print fl; exit }' own.out)
check "a function's own file first among its blocks (f: ${ffile##*/})" \
	"$([ -n "$ffile" ] && [ "$first" = "$ffile" ]; echo $?)" "f's first file: $first"

# the tool missing: callgrind records, and says so
CGTUI_VGLIB=$T/empty-vglib $norand "$CGTUI" --no-open -o fb.out ./live-prog work 300 >/dev/null 2>rec.err
grep -q "recording with valgrind --tool=callgrind" rec.err && grep -q "^creator: callgrind" fb.out
check "tool missing: callgrind records, with a message" "$?" "$(cat rec.err)"
CGTUI_VGLIB=$T/empty-vglib $norand valgrind -q --tool=callgrind --callgrind-out-file=clg.out \
	./live-prog work 300 </dev/null >/dev/null 2>&1
check "tool missing: totals equal to callgrind's run directly" \
	"$([ "$(totals fb.out)" = "$(totals clg.out)" ]; echo $?)" "$(totals fb.out) vs $(totals clg.out)"

# --- calls running at a dump or a snapshot -------------------------------------------
# inner(), called by outer() from main(), calls CALLGRIND_DUMP_STATS: both
# tools write part 1 (the counts to then, the calls running counted to
# then) and part 2 (the rest, after the zero).  Without chasing, so that
# every inclusive cost is callgrind's.
callsdiff=$srcdir/tests/recorder/callsdiff.py
rm -rf dump && mkdir dump
(VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=cgtui --vex-guest-chase=no --cgtui-out-file=dump/ours \
	./live-prog-clg dump </dev/null >dump/ours.log 2>&1
VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=callgrind --dump-instr=yes --callgrind-out-file=dump/cg \
	./live-prog-clg dump </dev/null >dump/cg.log 2>&1)
python3 "$callsdiff" --dumped-by dump_now dump/cg.1 dump/ours.1 >dump/diff1.log 2>&1
check "CALLGRIND_DUMP_STATS: part 1 equal to callgrind's, the calls running counted to the dump" \
	"$?" "$(grep FAIL dump/diff1.log | head -5)"
grep -q "PASS: 6 calls running at the dump" dump/diff1.log
check "CALLGRIND_DUMP_STATS: main, outer, inner and the calls below main running at the dump" \
	"$?" "$(grep running dump/diff1.log)"
python3 "$callsdiff" dump/cg,dump/cg.1 dump/ours,dump/ours.1 >dump/diff.log 2>&1
check "CALLGRIND_DUMP_STATS: both parts together equal to callgrind's" "$?" \
	"$(grep FAIL dump/diff.log | head -5)"
grep -qx "part: 1" dump/ours.1 && grep -qx "part: 2" dump/ours &&
	grep -q "^desc: Trigger: Client Request" dump/ours.1 && grep -qx "desc: Trigger: Program termination" dump/ours
check "parts numbered and their triggers said, as callgrind's" "$?" "$(grep -h -e part: -e Trigger dump/ours*)"

# --- the live view, headless --------------------------------------------------------
live() { # name, keys (\n-separated), program and arguments...
	local name=$1 keys=$2
	shift 2
	printf "$keys" >"$name.keys"
	CGTUI_SCRIPT=$name.keys timeout 120 "$CGTUI" "$@" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
}
hdr_ir() { sed -n '1s/.* Ir \([0-9,]*\)$/\1/p' "$1" | tr -d ,; }

# (the program runs until the data after the selection is loaded: a
# snapshot while it runs, then the final profile, reload after reload)
run_until run-go.txt run.run
live run ':wait-fn main\n:dump run-1.txt\n-\n-\n-\n/^main<Enter>\n:wait-data\n:dump run-go.txt\n:wait-end\n:dump run-2.txt\n<Enter>\n:dump run-3.txt\nL\n:dump run-4.txt\n' \
	./live-prog spin run.run
end_watch run.run
f=$(saved run.err)
check "live: exit status 0" "$(cat run.rc)" "$(cat run.err)"
grep -q "running [0-9]*s | Ir [0-9,]*$" run-1.txt && [ "$(hdr_ir run-1.txt)" -gt 0 ]
check "live: data while it runs (header: running, Ir > 0)" "$?" "$(head -1 run-1.txt)"
[ "$(hdr_ir run-1.txt)" -lt "$(totals "$f")" ]
check "live: the data then is partial" "$?" "$(head -1 run-1.txt) vs $(totals "$f")"
grep -q "exited 0 after [0-9.]*s | Ir" run-2.txt
check "live: the end in the header" "$?" "$(head -1 run-2.txt)"
check "live: the final profile loaded (header Ir = the file's totals)" \
	"$([ "$(hdr_ir run-2.txt)" = "$(totals "$f")" ]; echo $?)" "$(head -1 run-2.txt) vs $(totals "$f")"
# the tool keeps its records sorted from one snapshot to the next and
# merges in the new ones: the final profile (written after snapshots) must
# still list each function of each file once, its addresses increasing
awk '/^ob=/ { ob = $1 } /^fl=/ { fl = $1 } /^(cob|cfi|cfl|cfn|calls)=/ { next }
	/^fn=/ { k = ob " " fl " " $1; if (k in seen) { print "twice: " k; bad = 1 } seen[k] = 1; next }
	/^-/ { print "address going back: " $0; bad = 1 }
	END { exit bad }' "$f" >order.log
check "live: after snapshots, each function once, its addresses in order" "$?" "$(head -3 order.log)"
grep -q '^ *[0-9,]* *[0-9.]*% .*\* main$' run-3.txt
check "live: the selection (main) kept across reloads" "$?" "$(sed -n 3,6p run-3.txt)"
grep -q "==== the program's output" run-4.txt && grep -q "I refs:" run-4.txt
check "live: L shows the program's output and Valgrind's messages" "$?" "$(head -8 run-4.txt)"

# the timeline (7) while recording with --timeline=yes: each snapshot
# brings its .time, the view reads it again: the timeline covers more of
# the run at each load (its last interval, End, ends later), and each
# time up to the Ir total the header gives (the profile loaded with it),
# at the end the final profile's
# (the program runs until tl-2.txt is dumped: on a loaded machine a
# program of fixed length may end before the first load)
run_until tl-2.txt tl.run
live tl ':wait-fn main\n7\n:wait-data\n<End>\n:dump tl-1.txt\n:wait-data\n:wait-data\n<End>\n:dump tl-2.txt\n:wait-end\n<End>\n:dump tl-3.txt\n' \
	--timeline=yes --timeline-interval=100000 ./live-prog spin tl.run
end_watch tl.run
f=$(saved tl.err)
tl_end() { sed -n '3s/^interval [0-9]* of [0-9]*, Ir [0-9,]* to \([0-9,]*\):.*/\1/p' "$1" | tr -d ,; }
e1=$(tl_end tl-1.txt) e2=$(tl_end tl-2.txt) e3=$(tl_end tl-3.txt)
[ -n "$e1" ] && [ -n "$e2" ] && [ -n "$e3" ] && [ "$e1" -gt 0 ] && [ "$e1" -lt "$e2" ] && [ "$e2" -le "$e3" ]
check "live: the timeline grows as the program runs (to Ir $e1, $e2, $e3)" "$?" \
	"$(sed -n 3p tl-1.txt; sed -n 3p tl-2.txt; sed -n 3p tl-3.txt)"
[ "$e1" = "$(hdr_ir tl-1.txt)" ] && [ "$e2" = "$(hdr_ir tl-2.txt)" ] && [ "$e3" = "$(hdr_ir tl-3.txt)" ] &&
	[ -n "$f" ] && [ "$e3" = "$(totals "$f" | cut -d' ' -f1)" ]
check "live: each timeline up to its profile's Ir total, the last to the final profile's" "$?" \
	"$(head -1 tl-1.txt; head -1 tl-2.txt; head -1 tl-3.txt; totals "$f")"

for c in "segv:killed by SIGSEGV" "exit 3:exited 3"; do
	live end ':wait-end\n:dump end.txt\nS\n:dump end-s.txt\n' ./live-prog ${c%%:*}
	f=$(saved end.err)
	grep -q "${c#*:} after [0-9.]*s | Ir" end.txt && grep -q "Program: *${c#*:} after" end-s.txt &&
		[ "$(hdr_ir end.txt)" = "$(totals "$f")" ]
	check "live: live-prog ${c%%:*}: the header and the summary say ${c#*:}, the profile loaded" "$?" \
		"$(head -1 end.txt) $(grep Program: end-s.txt)"
done

live quit ':wait-fn work\nq\ny\n' ./live-prog spin live.run
f=$(saved quit.err)
grep -q "program killed by SIGINT" quit.err && [ "$(totals "$f")" -gt 0 ] && [ "$(cat quit.rc)" = 0 ]
check "live: q, y stops the program (SIGINT) and keeps its profile" "$?" \
	"rc=$(cat quit.rc) $(cat quit.err)"

live intr ':wait-fn work\n<C-c>\n:dump intr-1.txt\nn\n:dump intr-2.txt\n<C-c>\ny\n:dump intr-3.txt\nq\n' \
	./live-prog spin live.run
grep -q "Stop the program? (y/n)" intr-1.txt
check "live: Ctrl-C asks" "$?" "$(tail -1 intr-1.txt)"
grep -q "running" intr-2.txt
check "live: n: the program goes on" "$?" "$(head -1 intr-2.txt)"
grep -q "killed by SIGINT after" intr-3.txt && grep -q "the profile so far is kept" intr-3.txt
check "live: y: stopped, the explorer stays with the profile so far" "$?" "$(cat intr-3.txt)"
check "live: then q quits without asking" "$(cat intr.rc)" "$(cat intr.err)"

live scriptend ':wait-fn work\n' ./live-prog spin live.run
f=$(saved scriptend.err)
p=${f##*.}
grep -q "program killed by SIGINT" scriptend.err && [ "$(totals "$f")" -gt 0 ] &&
	! kill -0 "$p" 2>/dev/null
check "live: the explorer left otherwise (end of script): the program stopped, profile kept" "$?" \
	"$(cat scriptend.err)"

rm -rf fs && mkdir fs
live forkspin ':wait-fn forked\nq\ny\n' -o 'fs/ours.%p' ./live-prog forkspin live.run
ok=$(for f in $(profiles fs/ours.*); do [ "$(totals "$f")" -gt 0 ] && echo ok; done | wc -l)
left=$(for f in $(profiles fs/ours.*); do kill -0 "${f##*.}" 2>/dev/null && echo "${f##*.}"; done)
check "live: q stops the program and its child; both profiles kept" \
	"$([ "$ok" = 2 ] && [ -z "$left" ]; echo $?)" "$(ls fs) left running: $left"

# the processes it forks, while it runs: each writes its own snapshots
# (the tool's --cgtui-live has a %p) and the explorer adds them as parts, a
# process each (they were added only at the end): child_side(), which only
# the child calls, is in the data while the program runs, and the parts
# view lists both processes, by the pids of the profiles they write at the
# end; at the end, the header's Ir is those two profiles' totals added
rm -rf fk && mkdir fk
run_until fk-2.txt fk.run
live forkkids ':wait-fn child_side\n:dump fk-1.txt\nP\n:dump fk-2.txt\n:wait-end\n:dump fk-3.txt\n' \
	-o 'fk/ours.%p' ./live-prog forkspin fk.run
end_watch fk.run
fk=$(profiles fk/ours.*)
fk1=$(echo $fk | cut -d' ' -f1) fk2=$(echo $fk | cut -d' ' -f2)
pids=$(for f in $fk; do echo "${f##*.}"; done | sort -n | tr '\n' ' ')
shown=$(sed -n '4,$s/^ *[0-9][0-9]* *\([0-9][0-9]*\) .*/\1/p' fk-2.txt | sort -n | tr '\n' ' ')
grep -q "running" fk-1.txt && grep -q "running" fk-2.txt && [ "$(echo $fk | wc -w)" = 2 ] &&
	[ "$shown" = "$pids" ]
check "live: a forked child's snapshots while the program runs: both processes as parts ($shown)" \
	"$?" "$(head -1 fk-1.txt) pids: $pids; $(sed -n 3,6p fk-2.txt)"
sum=$(($(totals "$fk1") + $(totals "$fk2")))
check "live: at the end, the header's Ir is both processes' profiles added ($sum)" \
	"$([ "$(hdr_ir fk-3.txt)" = "$sum" ]; echo $?)" "$(head -1 fk-3.txt) $(cat forkkids.err)"

# a process waiting in a system call runs no client code: the snapshot
# before the wait has its counts (else the view shows them only at its
# end): the parent works, forks and waits in waitpid while its child runs;
# meanwhile work(), which only the parent ran, costs in the view what
# callgrind counts for the same work(2000)
rm -rf fw && mkdir fw
run_until fw-1.txt fw.run
live forkwait ':wait-fn work\n:dump fw-1.txt\n' -o 'fw/ours.%p' ./live-prog forkwait 2000 fw.run
end_watch fw.run
(VALGRIND_LIB=$VGLIB $norand valgrind -q --tool=callgrind --callgrind-out-file=fw/clg.out \
	./live-prog work 2000 </dev/null >/dev/null 2>&1; :) 2>/dev/null
callgrind_annotate fw/clg.out >fw/clg.ann 2>&1
want=$(fn_cost fw/clg.ann work)
got=$(sed -n 's/^ *[0-9,]* *[0-9.]*% [^0-9]* \([0-9,]*\) *[0-9.]*% .* work  .*/\1/p' fw-1.txt | tr -d ,)
grep -q "running" fw-1.txt && [ -n "$want" ] && [ "$got" = "$want" ]
check "live: a process waiting in waitpid: its work before in the view ($want Ir, as callgrind)" \
	"$?" "$(head -1 fw-1.txt); work: $got vs callgrind's $want"

# the tool's warnings reach the terminal (Valgrind's log is kept off it):
# a tree-PLRU cache of 12 ways is simulated as LRU, and the end says so
# (the message is the tool's own, as run-recorder checks it in the log)
printf 'L1I: size=32K assoc=8 line=64\nL1D: size=48K assoc=12 line=64 policy=plru\nL2: size=1M assoc=8 line=64\n' \
	>plru12.cfg
"$CGTUI" --no-open --cache-config=plru12.cfg -o pw.out ./live-prog work 5 >/dev/null 2>rec.err
grep -q "^cgtui: the tool: plru12.cfg:2: warning: L1D: tree-PLRU needs a power-of-two associativity (at most 64), not 12: LRU instead$" rec.err
check "the tool's warnings said at the end (a 12-way tree-PLRU cache: LRU)" "$?" "$(cat rec.err)"

# A once the recording has ended: the difference with an earlier run's
# profile (its name typed: the list's last row), the header saying which
# minus which, its total the two profiles' totals: lines' difference (the
# loads after the end keep the sides: the recording's inputs are final)
"$CGTUI" --no-open -o cmp-1.out ./live-prog work 5 >/dev/null 2>rec.err
live cmpend ':wait-end\nA\nG\n<Enter>\ncmp-1.out<Enter>\n:dump cmpend.txt\n' -o cmp-2.out ./live-prog work 8
d=$(($(totals cmp-2.out) - $(totals cmp-1.out)))
grep -q "^difference: cmp-2.out minus cmp-1.out " cmpend.txt && [ "$(hdr_ir cmpend.txt)" = "$d" ]
check "live: A after the end: the recording minus an earlier run ($d)" "$?" \
	"$(head -1 cmpend.txt) $(tail -1 cmpend.txt)"

# a script that runs the program with exec: Valgrind records only the shell
# (as callgrind does).  Its counts before the exec are those of the last
# snapshot, if one came before it (on a loaded machine), else none: either
# way the screen says what to do rather than "lower the threshold" -- the
# empty list, or the program's state in the header
printf '#!/bin/sh\nexec ./live-prog spin 10\n' >exec.sh && chmod +x exec.sh
live execsh ':wait-end\n:dump execsh.txt\n' ./exec.sh
{ grep -q "Ir 0$" execsh.txt &&
	grep -q "(nothing counted; a script or wrapper needs --trace-children=yes)" execsh.txt; } ||
	head -1 execsh.txt | grep -q "exec? --trace-children=yes"
check "live: a script that execs: nothing counted, --trace-children=yes suggested" "$?" \
	"$(sed -n '1p;4p' execsh.txt)"

# the calls running are in each snapshot: while main -> outer -> inner ->
# spin_ms run, the call tree under the root and the callers of inner have
# their cost so far (they had none: "0 shown"), each running call at least
# its callee's (hand: a call's inclusive cost holds its callees'); the
# end of the keys stops the program
live nest ':wait-fn spin_ms\n:wait-data\nt\n:dump nest-tree.txt\n<Esc>\n/^inner<Enter>\n<Enter>\n:dump nest-calls.txt\n' \
	./live-prog nest live.run
num() { tr -d , | sed -n 's/^ *\([0-9][0-9]*\) .*/\1/p' | head -1; }
root=$(sed -n '4p' nest-tree.txt | num) below=$(sed -n '5p' nest-tree.txt | num)
grep -q "(below main)" nest-tree.txt && [ "${below:-0}" -gt 0 ] && [ "${root:-0}" -ge "$below" ]
check "live: the call tree while it runs: the root and (below main) have their cost so far" "$?" \
	"$(sed -n 3,6p nest-tree.txt)"
caller=$(grep '< outer$' nest-calls.txt | num) callee=$(grep '> spin_ms$' nest-calls.txt | num)
[ "${caller:-0}" -gt 0 ] && [ "${callee:-0}" -gt 0 ] && [ "$caller" -ge "$callee" ]
check "live: callers of inner while it runs: outer -> inner ($caller) >= inner -> spin_ms ($callee) > 0" \
	"$?" "$(sed -n 3,9p nest-calls.txt)"

# the flame graph zoomed into a frame keeps the zoom across snapshots (it
# was shown whole again at each one): zoomed into inner (main -> outer ->
# inner -> spin_ms, running all along) with spin_ms selected under it, two
# snapshots later inner is still the frame at the top and spin_ms the one
# selected, its inclusive cost that of the newer snapshot: grown by as much
# as the header's Ir (hand: once spin_ms runs, nothing runs outside it);
# the callers of spin_ms (T) the same; the end of the keys stops the program
live flamez ':wait-fn spin_ms\n:wait-data\n6\n/^inner<Enter>\n<Enter>\n<Down>\n:dump flamez-1.txt\n:wait-data\n:wait-data\n:dump flamez-2.txt\nT\n:dump flamez-3.txt\n:wait-data\n:wait-data\n:dump flamez-4.txt\n' \
	./live-prog nest live.run
# the number after the text $2 that starts the header line (3) of a dump
incl_of() { sed -n "3s/^$2\([0-9,]*\) .*/\1/p" "$1" | tr -d ,; }
flame_kept() { # first dump, second dump, the header's text before the number, top frame
	local a b ia ib
	a=$(incl_of "$1" "$3") b=$(incl_of "$2" "$3") ia=$(hdr_ir "$1") ib=$(hdr_ir "$2")
	[ "${a:-0}" -gt 0 ] && [ "${b:-0}" -gt "$a" ] && [ $((ib - b)) = $((ia - a)) ] &&
		sed -n 4p "$2" | grep -q "^$4 [0-9.]*% "
}
flame_kept flamez-1.txt flamez-2.txt 'spin_ms: ' inner
check "live flame graph: the zoom into inner and spin_ms selected kept across snapshots, grown" "$?" \
	"$(sed -n '1,5p' flamez-1.txt; sed -n '1,5p' flamez-2.txt)"
# and the search's share in the header after the snapshot as before it
# (it was left out until the next key): inner, zoomed into, is all of it
sed -n 3p flamez-2.txt | grep -q '  /^inner: 100.0%$'
check "live flame graph: the search's share in the header after a snapshot" "$?" "$(sed -n 3p flamez-2.txt)"
flame_kept flamez-3.txt flamez-4.txt 'callers of spin_ms: spin_ms ' spin_ms
check "live flame graph: the callers of spin_ms kept across snapshots, grown" "$?" \
	"$(sed -n '1,5p' flamez-3.txt; sed -n '1,5p' flamez-4.txt)"

# the same estimated from the call edges (--contexts=no), zoomed into the
# cycle of ping and pong calling each other: a cycle's id is found anew in
# each snapshot (it fell back to main, "the path to <cycle 1> has no cost");
# wide enough for the cycle's name in the header
live flamec ':resize 120x24\n:wait-fn spin_ms\n:wait-data\n6\n/^<cycle<Enter>\n<Enter>\n:dump flamec-1.txt\n:wait-data\n:wait-data\n:dump flamec-2.txt\n' \
	--contexts=no ./live-prog cycle live.run
flame_kept flamec-1.txt flamec-2.txt '\[estimated\] <cycle 1>: ' '<cycle 1>'
check "live flame graph, estimated: the zoom into a cycle kept across snapshots, grown" "$?" \
	"$(sed -n '1,5p' flamec-1.txt; sed -n '1,5p;$p' flamec-2.txt)"

# python3 (stripped: its functions named as callgrind names them): the
# whole run happens inside Py_RunMain, which shows it while the script runs
if [ -x /usr/bin/python3 ]; then
	# (it runs until the end of the keys stops it, while live.run exists,
	# at most 10 minutes)
	printf 'import os, time\nt0 = time.time()\ndef f(n):\n    return sum(i * i for i in range(n))\nwhile os.path.exists("live.run") and time.time() - t0 < 600:\n    f(300)\n' >slow.py
	live py ':wait-fn Py_RunMain\n:wait-data\n:wait-data\n/^Py_RunMain<Enter>\n<Enter>\n:dump py-calls.txt\nt\n:dump py-tree.txt\n' \
		/usr/bin/python3 -S -B slow.py
	total=$(hdr_ir py-calls.txt) incl=$(grep '\* Py_RunMain$' py-calls.txt | num)
	grep -q "running" py-calls.txt && [ "${incl:-0}" -gt 0 ] && [ $((incl * 10)) -ge $((total * 9)) ]
	check "live python3: Py_RunMain's inclusive cost while it runs ($incl) is most of the total ($total)" \
		"$?" "$(sed -n '1p;3,8p' py-calls.txt)"
	edge=$(sed -n '/^[0-9]* callers*$/{n;p;q}' py-calls.txt | num)
	[ "${edge:-0}" -gt 0 ]
	check "live python3: the caller edge of Py_RunMain with its cost so far ($edge)" "$?" "$(sed -n 3,8p py-calls.txt)"
	rows=$(sed -n '4,$p' py-tree.txt | grep -c '^ *[1-9][0-9,]* ')
	[ "$rows" -ge 2 ]
	check "live python3: the call tree is not empty ($rows rows)" "$?" "$(sed -n 3,8p py-tree.txt)"
fi

# live control: U with snapshots only when asked (and one at the start,
# before anything ran): Ir grows from one to the next; the end of the keys
# stops the program
live ctl ':dump ctl-0.txt\nU\n:wait-answer\n:dump ctl-1.txt\n' --tool-option=--cgtui-live-ms=3600000 \
	./live-prog nest live.run
a=$(hdr_ir ctl-0.txt) b=$(hdr_ir ctl-1.txt)
[ "${b:-0}" -gt "${a:-0}" ] && tail -1 ctl-1.txt | grep -q "snapshot written"
check "live U: a snapshot now (Ir $a, then $b)" "$?" "$(head -1 ctl-0.txt; head -1 ctl-1.txt; tail -1 ctl-1.txt)"
# p and Z while spin_ms runs (main -> outer -> inner -> spin_ms): the
# snapshots after the pause have the same Ir (hand: nothing counted), the
# one after p again more.  spin_ms runs until the answer to Z has been
# dumped (a fixed 5 s, then 15 s, had ended before the keys under ASan on a
# loaded machine), then returns: inner and outer call work() after it
run_until ctl-5.txt ctl2.run
live ctl2 ':wait-fn spin_ms\np\n:wait-answer\n:wait-data\n:dump ctl-2.txt\n:wait-data\n:dump ctl-3.txt\np\n:wait-answer\n:wait-data\n:dump ctl-4.txt\nZ\ny\n:wait-answer\n:dump ctl-5.txt\n:wait-end\n' \
	./live-prog nest ctl2.run
end_watch ctl2.run
f=$(saved ctl2.err)
c=$(hdr_ir ctl-2.txt) d=$(hdr_ir ctl-3.txt) e=$(hdr_ir ctl-4.txt)
[ -n "$c" ] && [ "$c" = "$d" ] && grep -q "running.*, not counting" ctl-3.txt
check "live p: nothing counted while paused (Ir $c, then $d), the header says so" "$?" \
	"$(head -1 ctl-2.txt; head -1 ctl-3.txt)"
[ "${e:-0}" -gt "${d:-0}" ] && ! grep -q "not counting" ctl-4.txt
check "live p again: counting again (Ir $d, then $e)" "$?" "$(head -1 ctl-4.txt)"
tail -1 ctl-5.txt | grep -q "counts zeroed"
check "live Z: asked, then the counts zeroed" "$?" "$(tail -1 ctl-5.txt)"
# zeroed while spin_ms ran: outer and inner each called work() before it
# and after it: the profile has the calls after (hand: 1 each), and of the
# calls running then, none (main -> outer: 0 calls, its cost since the zero)
[ -n "$f" ] && [ "$(calls_of "$f" outer work | cut -d' ' -f1)" = 1 ] &&
	[ "$(calls_of "$f" inner work | cut -d' ' -f1)" = 1 ] &&
	[ "$(calls_of "$f" main outer | cut -d' ' -f1)" = 0 ] &&
	[ "$(calls_of "$f" main outer | cut -d' ' -f2)" -gt 0 ]
check "live Z: the profile has what ran after the zero" "$?" \
	"outer->work $(calls_of "$f" outer work), inner->work $(calls_of "$f" inner work), main->outer $(calls_of "$f" main outer)"
live ctlend ':wait-end\nU\n:dump ctlend.txt\n' ./live-prog work 5
tail -1 ctlend.txt | grep -q "the program has ended"
check "live U after the end: says the program has ended" "$?" "$(tail -1 ctlend.txt)"

# cgtui --control PID from another terminal (no live view: dump writes
# part files, as callgrind's dumps)
# (spin_ms runs until ctl/nest.run is removed after the controls)
rm -rf ctl && mkdir ctl && : >ctl/nest.run
$norand "$CGTUI" --no-open -o ctl/out ./live-prog nest ctl/nest.run >/dev/null 2>ctl/rec.err &
cg=$!
# (asked until it answers and has counted 10,000,000 Ir: spin_ms runs then,
# start-up and the work before it are about 200,000)
vp=""
for _ in $(seq 600); do
	vp=$(pgrep -P $cg | head -1)
	[ -n "$vp" ] && "$CGTUI" --control "$vp" status >ctl/status.txt 2>&1 &&
		[ "$(sed -n 's/.*; Ir \([0-9]*\)$/\1/p' ctl/status.txt)" -gt 10000000 ] && break
	sleep 0.1
done
grep -q "instrumentation on" ctl/status.txt
check "cgtui --control PID status" "$?" "$(cat ctl/status.txt)"
"$CGTUI" --control "$vp" dump >ctl/dump.txt 2>&1
rc=$?
check "cgtui --control PID dump: part 1 written" \
	"$([ $rc = 0 ] && grep -q "part 1 written: .*ctl/out.$vp.1" ctl/dump.txt; echo $?)" "rc=$rc $(cat ctl/dump.txt)"
"$CGTUI" --control="$vp" off >ctl/off.txt 2>&1 && "$CGTUI" --control "$vp" status >ctl/status2.txt 2>&1 &&
	"$CGTUI" --control "$vp" on >ctl/on.txt 2>&1
grep -q "instrumentation off" ctl/status2.txt && grep -q "instrumentation on" ctl/on.txt
check "cgtui --control PID off, on" "$?" "$(cat ctl/off.txt ctl/status2.txt ctl/on.txt)"
rm -f ctl/nest.run
wait $cg
[ -f ctl/out ] && [ -f ctl/out.1 ] && grep -qx "part: 1" ctl/out.1 && grep -qx "part: 2" ctl/out &&
	[ "$(calls_of ctl/out.1 main outer | cut -d' ' -f1)" = 1 ] &&
	[ "$(calls_of ctl/out.1 main outer | cut -d' ' -f2)" -gt 0 ]
check "cgtui --control: the parts FILE.1 (main -> outer running, counted to the dump) and FILE" "$?" \
	"$(ls ctl) main->outer $(calls_of ctl/out.1 main outer)"
"$CGTUI" --control 1 dump >ctl/bad1.txt 2>&1
rc1=$?
"$CGTUI" --control nope dump >/dev/null 2>ctl/bad2.txt
rc2=$?
"$CGTUI" --control 1 explode >/dev/null 2>ctl/bad3.txt
rc3=$?
[ $rc1 = 2 ] && [ $rc2 = 1 ] && [ $rc3 = 1 ] && grep -q "no program recorded under Valgrind answered" ctl/bad1.txt &&
	grep -q "expected a process id, not 'nope'" ctl/bad2.txt && grep -q "not 'explode'" ctl/bad3.txt
check "cgtui --control: a process that is no recording (2), usage errors (1)" "$?" \
	"$rc1 $rc2 $rc3 $(cat ctl/bad1.txt ctl/bad2.txt ctl/bad3.txt)"

# --- -o FILE: the files of the run beside FILE -------------------------------------
# A run recorded with -o FILE (no %p) is FILE, its dumps FILE.N and its
# threads' FILE-TID, and the forked processes' FILE.PID beside them: the
# explorer after the recording, cgtui FILE and --batch FILE add up the
# program's (they showed FILE, the last part, as the whole run), told from
# the rest by the files' pid: lines.  Expected: the files' totals: lines
# added here, the files picked by their names (what the program writes).
sumtot() { local s=0 f; for f in "$@"; do s=$((s + $(totals "$f"))); done; echo $s; }
batch_total() { # profile or program...: the report's PROGRAM TOTALS
	$norand "$CGTUI" --batch --threshold=100 "$@" 2>/dev/null |
		sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,
}
# the parts view's rows (P): "PID PROFILE" each
parts_rows() { sed -En '4,$s/^ +[0-9]+ +([0-9]+) .* [0-9,]*[0-9] ([^ ]+).*/\1 \2/p' "$1"; }
rm -rf od && mkdir od
# a program that dumps twice: three parts, the explorer's header and P
live od ':wait-end\n:dump od-1.txt\nP\n:dump od-2.txt\n' -o od/d.out ./live-prog-clg dump2
sum=$(sumtot od/d.out od/d.out.1 od/d.out.2)
rows=$(parts_rows od-2.txt | sort | tr '\n' ' ')
pid=$(sed -n 's/^pid: //p' od/d.out)
[ "$(profiles od/d.out* | wc -l)" = 3 ] && [ "$(hdr_ir od-1.txt)" = "$sum" ] &&
	[ "$rows" = "$pid od/d.out $pid od/d.out.1 $pid od/d.out.2 " ]
check "-o FILE, two dumps: the explorer after the recording adds FILE.1, FILE.2, FILE ($sum), P lists them" \
	"$?" "$(ls od) $(head -1 od-1.txt) rows: $rows"
got=$(batch_total od/d.out)
check "-o FILE, two dumps: --batch FILE adds the three ($sum)" "$([ "$got" = "$sum" ]; echo $?)" "got '$got'"
# beside them, a profile of another process of the same program named
# FILE.3 (its pid: not FILE's) and notes named FILE.4: not of the run
$norand "$CGTUI" --no-open -o od/other ./live-prog-clg dump2 >/dev/null 2>&1
cp od/other.1 od/d.out.3 && echo "my notes" >od/d.out.4
live od2 ':dump od-3.txt\nP\n:dump od-4.txt\n' od/d.out
rows=$(parts_rows od-4.txt | sort | tr '\n' ' ')
got=$(batch_total od/d.out)
[ "$(hdr_ir od-3.txt)" = "$sum" ] && [ "$got" = "$sum" ] &&
	[ "$rows" = "$pid od/d.out $pid od/d.out.1 $pid od/d.out.2 " ]
check "-o FILE: cgtui FILE leaves out FILE.3 of another pid and notes in FILE.4 ($sum, 3 parts)" \
	"$?" "$(head -1 od-3.txt) --batch: $got rows: $rows $(grep -h ^pid: od/other.1)"
# a FIFO named FILE.5 beside it is not opened (that waited for a writer);
# the profile read from a pipe, <(cat FILE), is read whole (its header was)
mkfifo od/d.out.5
got=$(timeout 60 "$CGTUI" --batch --threshold=100 od/d.out 2>&1 | sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
piped=$(batch_total <(cat od/d.out)) last=$(totals od/d.out)
rm -f od/d.out.5
[ "$got" = "$sum" ] && [ "$piped" = "$last" ]
check "-o FILE: a FIFO named FILE.5 beside it left alone; <(cat FILE) read whole ($sum, $last)" \
	"$?" "FILE: '$got', <(cat FILE): '$piped'"
# recorded again to the same FILE, dumping once: FILE.2 of the first run
# (its pid: the first's) is not of the second
$norand "$CGTUI" --no-open -o od/s.out ./live-prog-clg dump2 >/dev/null 2>&1
$norand "$CGTUI" --no-open -o od/s.out ./live-prog-clg dump >/dev/null 2>&1
ssum=$(sumtot od/s.out od/s.out.1) got=$(batch_total od/s.out)
check "-o FILE recorded again with one dump: the first run's FILE.2 left out ($ssum)" \
	"$([ -f od/s.out.2 ] && [ "$got" = "$ssum" ]; echo $?)" "got '$got' $(ls od)"
# a program that forks and dumps twice: the recording adds its child's
# FILE.PID too (a process of its own); FILE later adds the program's
$norand "$CGTUI" --batch --threshold=100 -o od/f.out ./live-prog-clg dump2 fork >od/f.txt 2>od/f.err
all=$(sumtot $(profiles od/f.out*)) own=$(sumtot od/f.out od/f.out.1 od/f.out.2)
got=$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' od/f.txt | tr -d ,) later=$(batch_total od/f.out)
[ "$(profiles od/f.out* | wc -l)" = 4 ] && [ "$got" = "$all" ] && [ "$later" = "$own" ]
check "-o FILE, a fork and two dumps: the recording adds all four files ($all), FILE its own three ($own)" \
	"$?" "$(ls od) recording: $got; FILE: $later"
# --separate-threads=yes: FILE-01 and the child's FILE.PID-01 (counted
# twice: FILE named no file, and FILE.PID-01 went for FILE's thread)
$norand "$CGTUI" --batch --threshold=100 --separate-threads=yes -o od/t.out ./live-prog fork >od/t.txt 2>od/t.err
all=$(sumtot $(profiles od/t.out*)) own=$(sumtot od/t.out-01)
got=$(sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' od/t.txt | tr -d ,) later=$(batch_total od/t.out)
[ "$(profiles od/t.out* | wc -l)" = 2 ] && [ "$got" = "$all" ] && [ "$later" = "$own" ]
check "-o FILE --separate-threads=yes, a fork: the child's FILE.PID-01 counted once ($all), FILE its own ($own)" \
	"$?" "$(ls od) recording: $got; FILE: $later"
# cgtui --control PID dump (above): FILE.1 and FILE
sum=$(sumtot ctl/out ctl/out.1) got=$(batch_total ctl/out)
check "-o FILE, cgtui --control PID dump: --batch FILE adds FILE.1 and FILE ($sum)" \
	"$([ "$got" = "$sum" ]; echo $?)" "got '$got' $(ls ctl)"
# while the program runs, the parts it dumped are added to its snapshots
# (which count from the last dump: the explorer showed the counts since
# then alone): before(), which runs only before the dump, has the
# inclusive cost callgrind_annotate gives it in the part's file
run_until odr.txt od/r.run
live odr ':wait-fn measured\n:wait-data\n/^before<Enter>\n:dump odr.txt\n' --threshold=0 \
	-o od/r.out ./live-prog-clg dumpspin od/r.run
end_watch od/r.run
callgrind_annotate --inclusive=yes od/r.out.1 >od/r.ann 2>&1
want=$(fn_cost od/r.ann before) got=$(sed -n 's/^ *\([0-9,]*\) .* before  .*/\1/p' odr.txt | head -1 | tr -d ,)
grep -q "running" odr.txt && [ -n "$want" ] && [ "$got" = "$want" ]
check "-o FILE: while the program runs, the part it dumped is in the data (before(): $want)" "$?" \
	"got '$got' $(head -2 odr.txt) $(grep before odr.txt)"

# a long output: L shows its end from a whole line, and says how many
# bytes are before it (the offset of that line in the log, by grep -b)
seq 1 100000 >in/lines
live tail ':wait-end\nL\ng\n:dump tail.txt\n' --stdin=in/lines --log=tail.log ./live-prog stdin
first=$(sed -n 6p tail.txt) second=$(sed -n 7p tail.txt)
skipped=$(sed -n 's/^(\([0-9]*\) bytes before this line not shown)$/\1/p' tail.txt)
[ -n "$skipped" ] && [ "$((first + 1))" = "$second" ] &&
	[ "$(grep -b -x -m1 "$first" tail.log | cut -d: -f1)" = "$skipped" ]
check "live: L on a long output: its end from a whole line, the bytes before it said" "$?" \
	"$(sed -n 4,7p tail.txt)"

# a program that waits at once: the snapshot (written while it runs code)
# has nothing yet; the list says why rather than "the profile has no costs"
# (it sleeps 10 minutes at most: the end of the keys stops it)
live sleepy ':dump sleepy.txt\n' ./live-prog sleep 600000
grep -q "running [0-9]*s | Ir 0$" sleepy.txt && grep -q "(nothing counted yet, or the program waits" sleepy.txt
check "live: a program waiting from the start: the empty list says why" "$?" "$(sed -n '1p;4p' sleepy.txt)"

# --instr-at-start=no and a program that never starts counting: the
# empty list says so (it suggested --trace-children=yes)
live noinstr ':wait-end\n:dump noinstr.txt\n' --instr-at-start=no ./live-prog work 5
grep -q "(nothing counted: --instr-at-start=no and no CGTUI_START_INSTRUMENTATION)" noinstr.txt
check "live: --instr-at-start=no, never started: the empty list says why" "$?" "$(sed -n '1p;4p' noinstr.txt)"

# the tool missing, --separate-threads=yes: callgrind writes an empty FILE
# beside FILE-01, FILE-02...; the explorer loads the threads' files (it read
# the empty one: no data, "no events: line")
CGTUI_VGLIB=$T/empty-vglib live fbthr ':wait-end\n:dump fbthr.txt\n' --separate-threads=yes \
	-o fbthr.out ./live-prog threads
sum=$(cat fbthr.out-* | sed -n 's/^totals: *//p' | awk '{ s += $1 } END { print s }')
[ -f fbthr.out ] && [ ! -s fbthr.out ] && [ "$(hdr_ir fbthr.txt)" = "$sum" ]
check "live, tool missing, --separate-threads=yes: the threads' files loaded (Ir $sum)" "$?" \
	"$(head -1 fbthr.txt) $(tail -1 fbthr.txt)"

live tty ':wait-end\n' --log=tty.log ./live-prog tty
grep -qx "tty: no" tty.log
check "live: the program has no terminal (/dev/tty)" "$?" "$(head -3 tty.log)"

CGTUI_STOP_TIMEOUT_MS=300 live kill ':wait-fn work\nq\ny\n' ./live-prog nointr live.run
f=$(saved kill.err)
grep -q "program killed by SIGKILL" kill.err && [ "$(totals "$f")" -gt 0 ]
check "live: a program ignoring SIGINT is killed; the last snapshot is kept" "$?" "$(cat kill.err)"

for sig in TERM HUP; do
	printf ':wait-end\n' >sig.keys
	CGTUI_SCRIPT=sig.keys "$CGTUI" ./live-prog spin live.run >/dev/null 2>sig.err &
	cg=$!
	for _ in $(seq 100); do [ -n "$(ls cgtui.log.* 2>/dev/null)" ] && sleep 1 && break; sleep 0.1; done
	kill -$sig $cg
	wait $cg
	rc=$?
	f=$(saved sig.err)
	p=${f##*.}
	sleep 0.2
	ok=1
	[ -n "$f" ] && [ "$(totals "$f")" -gt 0 ] && ! kill -0 "$p" 2>/dev/null &&
		[ "$rc" = $((128 + $(kill -l $sig))) ] && ok=0
	check "SIG$sig to cgtui: the program stopped, its profile kept, exit 128+$sig" \
		"$ok" "rc=$rc $(cat sig.err)"
	rm -f cgtui.log.*
done

CGTUI_VGLIB=$T/empty-vglib live fb ':dump fb-1.txt\n:wait-end\n:dump fb-2.txt\n' ./live-prog work 300
grep -q "tool is missing: recording with callgrind" fb-1.txt
check "live, tool missing: said on the status line" "$?" "$(tail -1 fb-1.txt)"
f=$(saved fb.err)
check "live, tool missing: the final profile is loaded" \
	"$([ "$(hdr_ir fb-2.txt)" = "$(totals "$f")" ]; echo $?)" "$(head -1 fb-2.txt)"

# --- tmux: a real terminal ---------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: live: tmux not found"
	[ $fails = 0 ] && exit 0 || exit 1
fi
n=0
tm() { tmux -S "$T/tmux.$n" "$@"; }
screen() { tm capture-pane -p -t t; }
wait_for() { # pattern [tenths]: polls the screen
	for _ in $(seq "${2:-150}"); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
start() { # cols, lines, command...
	local c=$1 l=$2
	shift 2
	n=$((n + 1))
	tmux_socks="$tmux_socks $T/tmux.$n"
	rm -f "status.$n"
	tm -f /dev/null new-session -d -s t -x "$c" -y "$l" \
		"cd '$T' && sh -c 'echo \$\$ >pid.$n; exec env -u CGTUI_SCRIPT $*'; echo \$? >status.$n; sleep 60"
}
ended() { # waits for cgtui to end; prints its exit status
	for _ in $(seq 150); do
		[ -s "status.$n" ] && cat "status.$n" && return 0
		sleep 0.1
	done
	echo none
}

start 80 24 "$CGTUI" ./live-prog spin live.run
wait_for "running [0-9]*s | Ir"
check "tmux 80x24: the live view" "$?" "$(screen)"
a=$(screen | sed -n '1s/.* Ir \([0-9,]*\)$/\1/p')
sleep 1.3
b=$(screen | sed -n '1s/.* Ir \([0-9,]*\)$/\1/p')
check "tmux: refreshed within 1.3 s ($a, then $b)" "$([ -n "$a" ] && [ "$a" != "$b" ]; echo $?)" "$(screen)"
tm resize-window -t t -x 20 -y 5
sleep 0.6
tm resize-window -t t -x 80 -y 24
wait_for "running [0-9]*s | Ir"
check "tmux: resized to 20x5 and back while it runs" "$?" "$(screen)"
tm send-keys -t t L
wait_for "the program's output"
check "tmux: L shows the log" "$?" "$(screen)"
tm send-keys -t t Escape
tm send-keys -t t C-c
wait_for "Stop the program? (y/n)"
check "tmux: Ctrl-C asks" "$?" "$(screen)"
tm send-keys -t t y
wait_for "killed by SIGINT"
check "tmux: the program stopped, shown in the header" "$?" "$(screen)"
tm send-keys -t t q
st=$(ended)
check "tmux: q quits, exit status 0" "$([ "$st" = 0 ]; echo $?)" "status $st"
screen | grep -q "running\|functions |"
check "tmux: the terminal restored" "$([ $? = 1 ]; echo $?)" "$(screen)"
tm kill-server

start 200 60 "$CGTUI" ./live-prog spin 1500
wait_for "exited 0 after"
f=$(ls -t callgrind.out.* | head -1)
h=$(screen | sed -n '1s/.* Ir \([0-9,]*\)$/\1/p' | tr -d ,)
check "tmux 200x60: the final profile loaded (Ir $h)" "$([ "$h" = "$(totals "$f")" ]; echo $?)" \
	"$(screen | head -2) vs $(totals "$f")"
tm send-keys -t t q
st=$(ended)
check "tmux 200x60: q after the end quits without asking" "$([ "$st" = 0 ]; echo $?)" "status $st"
tm kill-server

start 80 24 "$CGTUI" --record --no-open ./live-prog exit 3
st=$(ended)
screen | grep -qx "exiting with 3" && screen | grep -q "program exited 3; profile: callgrind.out"
check "tmux --record --no-open: the program's output on the terminal" \
	"$([ $? = 0 ] && [ "$st" = 0 ]; echo $?)" "status $st: $(screen)"
tm kill-server
start 80 24 "$CGTUI" --record ./live-prog exit 0
wait_for "functions |"
check "tmux --record: the explorer opens at the end" "$?" "$(screen)"
screen | head -1 | grep -q "exited 0 after [0-9.]*s | Ir"
check "tmux --record: the header says how the program ended" "$?" "$(screen | head -1)"
tm send-keys -t t L
wait_for "the program's output: not kept (it went to the terminal)"
screen | grep -q "I refs:"
check "tmux --record: L shows Valgrind's messages (said: no program recorded here)" "$?" "$(screen)"
tm send-keys -t t q
st=$(ended)
check "tmux --record: q quits" "$([ "$st" = 0 ]; echo $?)" "status $st"
tm kill-server

# Ctrl-Z and fg in a shell with job control: the program goes on meanwhile
n=$((n + 1))
tmux_socks="$tmux_socks $T/tmux.$n"
tm -f /dev/null new-session -d -s t -x 80 -y 24 "cd '$T' && PS1='$ ' exec bash --norc -i"
sleep 0.5
# (it runs until cgtui is stopped, then ends: gone, or a zombie that its
# stopped parent has not reaped; the log's name gives its pid)
rm -f cgtui.log.* && : >ctlz.run
tm send-keys -t t "$CGTUI ./live-prog spin ctlz.run" Enter
wait_for "running [0-9]*s | Ir"
tm send-keys -t t C-z
wait_for "Stopped"
check "tmux: Ctrl-Z suspends cgtui, the terminal restored" "$?" "$(screen)"
for p in cgtui.log.*; do break; done
rm -f ctlz.run
for _ in $(seq 300); do
	case $(ps -o stat= -p "${p##*.}" 2>/dev/null) in Z* | "") break ;; esac
	sleep 0.1
done
tm send-keys -t t fg Enter
wait_for "exited 0 after"
check "tmux: fg: the explorer again, the program ended meanwhile" "$?" "$(screen)"
tm send-keys -t t q
wait_for "program exited 0; profile"
check "tmux: then q quits" "$?" "$(screen)"
tm kill-server

start 80 24 "$CGTUI" ./live-prog spin live.run
wait_for "running [0-9]*s | Ir"
kill -TERM "$(cat "pid.$n")"
st=$(ended)
screen | grep -q "running\|functions |"
check "tmux: SIGTERM stops, exit 143, the terminal restored" \
	"$([ $? = 1 ] && [ "$st" = 143 ]; echo $?)" "status $st: $(screen)"
tm kill-server

# with a prompt open (/): Ctrl-C cancels it (then asks as usual), and
# SIGTERM still stops everything (the prompt went on waiting for keys)
start 80 24 "$CGTUI" ./live-prog spin live.run
wait_for "running [0-9]*s | Ir"
tm send-keys -t t / a b c
wait_for "^/abc"
tm send-keys -t t C-c
wait_for "Enter:callers+callees"
check "tmux: Ctrl-C in the search prompt cancels it" "$?" "$(screen | tail -1)"
tm send-keys -t t C-c
wait_for "Stop the program? (y/n)"
check "tmux: a second Ctrl-C asks to stop the program" "$?" "$(screen | tail -1)"
tm send-keys -t t n /
wait_for "^/$"
kill -TERM "$(cat "pid.$n")"
st=$(ended)
check "tmux: SIGTERM while the prompt is open stops, exit 143" "$([ "$st" = 143 ]; echo $?)" \
	"status $st: $(screen | tail -2)"
tm kill-server

# the terminal goes away (an ssh connection dropped): SIGHUP
rm -f callgrind.out.*
start 80 24 "$CGTUI" ./live-prog spin live.run
wait_for "running [0-9]*s | Ir"
tm kill-server
for _ in $(seq 100); do
	f=$(ls callgrind.out.* 2>/dev/null | head -1)
	[ -n "$f" ] && ! kill -0 "${f##*.}" 2>/dev/null && ! kill -0 "$(cat "pid.$n")" 2>/dev/null &&
		break
	sleep 0.1
done
[ -n "$f" ] && [ "$(totals "$f")" -gt 0 ] && ! kill -0 "${f##*.}" 2>/dev/null &&
	! kill -0 "$(cat "pid.$n")" 2>/dev/null
check "tmux: the terminal closed: cgtui and the program end, the profile is kept" "$?" "${f:-no profile}"

[ $fails = 0 ]
