#!/usr/bin/env bash
# run-calls.sh -- the call graph of our Valgrind tool against callgrind's:
# call counts and inclusive Ir per caller->callee edge and per call site
# (callgrind run with the same VALGRIND_LIB directory, from the same
# directory, --dump-instr=yes; its recursion levels f'2 folded into f), on
# programs with recursion, mutual recursion, function pointers, qsort
# calling back, longjmp, a signal handler, a C++ exception, threads and a
# fork.  Then: callgrind_annotate reads our calls (--inclusive=yes,
# --tree=both) and cgtui's loader too.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: run-calls.sh [--keep]   (CGTUI, VGLIB, CC, CXX as run-recorder.sh)
# Prints "PASS: name" or "FAIL: name: reason" per check; exit 0 when all
# pass, 1 when any fails, 77 (skip) when the tool or a prerequisite is
# missing.
#
# Differences from callgrind that remain, and how they are compared:
# - Callgrind counts a block's instructions when the next block starts, so
#   it never counts the last block (the exit system call): each call still
#   active at exit has that block's Ir (2 here) less in callgrind's file.
#   callsdiff.py accepts exactly that difference, measured on the call of
#   _Exit, on the edges whose counts are equal.
# - VEX may translate on at the target of a direct call or jump (chasing),
#   and when it merges two conditional branches into one it runs the
#   instructions of the second test even when the first branch leaves:
#   cachegrind counts those instructions (and so do we, self costs equal
#   cachegrind's); callgrind turns chasing off and does not.  Call counts
#   are the same either way, but a call whose callee runs such merged
#   tests (the dynamic linker, the ifunc resolvers it calls: 3 Ir per
#   call; the C++ unwinder) has that much more inclusive cost in our file.
#   So: with chasing (our default), call counts are compared on all edges
#   and inclusive Ir on the edges between the test program's own functions
#   (--incl-objs); with --vex-guest-chase=no, which gives both tools the
#   same code, counts and inclusive Ir on every edge.
# - Threads: the C library's thread code (locks, pthread_create) runs
#   differently from run to run under either tool, so only the edges
#   between the program's own functions are compared (rec-calls thread),
#   or what runs in the threads themselves (rec-threads: callsdiff.py
#   --thread-root): callgrind never counts a thread's last block, and when
#   the core gives a new thread the id of one that ended it runs it inside
#   the old one's frames (rec-threads seq: start_thread calling itself), so
#   the inclusive cost of the calls of start_thread is checked against its
#   self cost (cachegrind's) plus the calls it makes (callgrind's).
# - Code without a symbol (a stripped program, python3): the same function
#   names as callgrind's (0x... by the address it was entered at) with the
#   same self Ir and calls, except the code a signal handler returns to,
#   whose last block callgrind never counts.
# - Callgrind gives the cost of a PLT stub (--skip-plt=yes) to the caller's
#   self cost; we keep it where cachegrind does (self cost equal to
#   cachegrind's) and give no call to the stub.  Edges compare equal either
#   way: the stub's own cost is in neither tool's inclusive cost of the call
#   made through it.
# - A direct jump from one function's code into another's, not to its entry
#   (the dynamic linker's mempcpy jumping into memcpy, gcc's foo.cold
#   jumping back into foo): callgrind keeps the code after it in the
#   jumping function's context; ours counts it where it is (cachegrind's
#   self costs), so the jump is a call of ours (or, back into a function
#   whose frame it came from, a return to it).  callsdiff.py leaves those
#   calls out (and says so).  On every file of ours: the calls into each
#   function outside a cycle cost no more than its inclusive cost
#   (callsdiff.py --within); rec-jump's such calls by hand.

name=calls
ref=callgrind
# shellcheck source=tests/recorder/rec-common.sh
. "$(dirname "$0")/rec-common.sh"
cxx=${CXX:-c++}

mkdir -p "$T/src" "$T/run" "$T/prof" "$T/out"
cp "$here/rec-calls.c" "$here/rec-threads.c" "$here/rec-python.py" "$here/rec-exc.cc" \
	"$here/rec-jump.c" "$here/rec-same-a.c" "$here/rec-same-b.c" "$T/src/"
(cd "$T/src" && $cc -g -O1 -o rec-calls rec-calls.c -pthread) >"$T/out/build.log" 2>&1 ||
	{ fail build "$(head -c 300 "$T/out/build.log")"; exit 1; }
# (rec-threads bound at start: which thread resolves read() first varies)
(cd "$T/src" && $cc -g -O1 -Wl,-z,now -o rec-threads rec-threads.c -pthread &&
	strip -o rec-calls-stripped rec-calls) >>"$T/out/build.log" 2>&1 ||
	{ fail build-threads-stripped "$(head -c 300 "$T/out/build.log")"; exit 1; }
(cd "$T/src" && $cc -g -O0 -o rec-calls-O0 rec-calls.c -pthread) >>"$T/out/build.log" 2>&1 ||
	{ fail build-O0 "$(head -c 300 "$T/out/build.log")"; exit 1; }
(cd "$T/src" && $cc -g -O1 -o rec-jump rec-jump.c) >>"$T/out/build.log" 2>&1 ||
	{ fail build-jump "$(head -c 300 "$T/out/build.log")"; exit 1; }
(cd "$T/src" && $cc -g -O1 -o rec-same rec-same-a.c rec-same-b.c) >>"$T/out/build.log" 2>&1 ||
	{ fail build-same "$(head -c 300 "$T/out/build.log")"; exit 1; }
have_cxx=0
if command -v "${cxx%% *}" >/dev/null 2>&1 &&
	(cd "$T/src" && $cxx -g -O1 -o rec-exc rec-exc.cc) >>"$T/out/build.log" 2>&1; then
	have_cxx=1
fi

export VALGRIND_LIB=$VGLIB
unset VALGRIND_OPTS

# record NAME [our options --] PROGRAM ARGS: both tools, same directory
record() {
	local name=$1 opts=()
	shift
	rec_options "$@"
	opts=("${REC_OPTS[@]}")
	set -- "${REC_ARGS[@]}"
	rm -rf "$T/prof/$name" && mkdir -p "$T/prof/$name"
	(cd "$T/run" && valgrind -q --tool=cgtui "${opts[@]}" \
		--cgtui-out-file="$T/prof/$name/ours.%p" "$@") >"$T/out/ours-$name.log" 2>&1 ||
		{ fail "record-$name" "$(head -c 400 "$T/out/ours-$name.log")"; return 1; }
	(cd "$T/run" && valgrind -q --tool=callgrind --dump-instr=yes \
		--callgrind-out-file="$T/prof/$name/cg.%p" "$@") >"$T/out/cg-$name.log" 2>&1 ||
		{ fail "record-callgrind-$name" "$(head -c 400 "$T/out/cg-$name.log")"; return 1; }
	pass "record-$name"
}

compare() {  # name callgrind-file our-file [callsdiff options]
	local name=$1 cg=$2 ours=$3
	shift 3
	callsdiff "$name" "$@" "$cg" "$ours"
	[ "${within:-yes}" = no ] || callsdiff "$name-within" --within "$ours"
}

callsdiff() {  # name, callsdiff.py's arguments: its PASS/FAIL lines as ours
	local name=$1 line
	shift
	python3 "$here/callsdiff.py" "$@" >"$T/out/callsdiff-$name.log" 2>&1
	relay "$name" "$T/out/callsdiff-$name.log"
}

# the first file of a run: DIR, name prefix (ours, cg)
one() {
	local f
	for f in "$1"/"$2".*; do
		[ -f "$f" ] && echo "$f" && return
	done
}

record calls -- ../src/rec-calls &&
	compare calls "$(one "$T/prof/calls" cg)" "$(one "$T/prof/calls" ours)" --incl-objs '^rec-calls$'
record calls-O0 -- ../src/rec-calls-O0 &&
	compare calls-O0 "$(one "$T/prof/calls-O0" cg)" "$(one "$T/prof/calls-O0" ours)" \
		--incl-objs '^rec-calls-O0$'
# without VEX following calls, every inclusive cost is callgrind's
record calls-nochase --vex-guest-chase=no -- ../src/rec-calls &&
	compare calls-nochase "$(one "$T/prof/calls-nochase" cg)" "$(one "$T/prof/calls-nochase" ours)"
# with the simulators on, the calls and their Ir are the same; the other
# events' inclusive costs are checked on the functions that call nothing
# else, whose self costs run-recorder.sh finds equal to cachegrind's
record calls-sim --cache-sim=yes --branch-sim=yes -- ../src/rec-calls &&
	compare calls-sim "$(one "$T/prof/calls-sim" cg)" "$(one "$T/prof/calls-sim" ours)" \
		--incl-objs '^rec-calls$' &&
	callsdiff calls-sim-leaves --leaves '^(cmp_int|leaf|square|cube|fib)$' \
		"$(one "$T/prof/calls-sim" ours)"
if [ "$have_cxx" = 1 ]; then
	record exception --vex-guest-chase=no -- ../src/rec-exc &&
		compare exception "$(one "$T/prof/exception" cg)" "$(one "$T/prof/exception" ours)"
	record exception-chase -- ../src/rec-exc &&
		compare exception-chase "$(one "$T/prof/exception-chase" cg)" \
			"$(one "$T/prof/exception-chase" ours)" --incl-objs '^nothing$'
else
	echo "SKIP: exception: no C++ compiler"
fi
# jumps into another function's code (rec-jump.c), by hand: into_mid's 5
# jumps into body (add, ret: 2 Ir each), hot's and hot2's 100 trips to the
# cold code and back (add, jmp: 2 Ir each), and the cold code's jumps back
# are returns (no call of hot or hot2 but main's, no recursion); tail's 7
# and tail8's 4 jumps to the next function's entry are calls (as
# callgrind's: a jump to a function's first instruction), each call of
# tail costing its lea and jump and next_fn's lea and ret
jump_hand() { # name, our file
	local r
	r=$(python3 - "$here" "$2" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import callsdiff
edges = callsdiff.read(sys.argv[2])[0]
want = {('main', 'into_mid'): [5, 20], ('into_mid', 'body'): [5, 10], ('main', 'hot'): [1, 602],
        ('hot', 'hot_cold'): [100, 200], ('main', 'hot2'): [1, 602], ('hot2', 'cold2'): [100, 200],
        ('main', 'body'): [1, 3], ('main', 'tail'): [7, 28], ('tail', 'next_fn'): [7, 14],
        ('main', 'tail8'): [4, 16], ('tail8', 'next8'): [4, 8]}
fns = {f for k in want for f in k} - {'main'}
got = {(a[1], b[1]): v for (a, b), v in edges.items() if a[1] in fns or b[1] in fns}
print('ok' if got == want else 'got %s' % sorted(got.items()))
PY
)
	if [ "$r" = ok ]; then
		pass "$1-hand: rec-jump's calls and their inclusive Ir as computed by hand"
	else
		fail "$1-hand" "$r"
	fi
}
for chase in yes no; do
	record "jump-$chase" --vex-guest-chase=$chase -- ../src/rec-jump || continue
	o=$(one "$T/prof/jump-$chase" ours)
	jump_hand "jump-$chase" "$o"
	# main's calls as callgrind's (into_mid's, hot's, hot2's inclusive Ir
	# too: callgrind's frames end at the same return)
	compare "jump-$chase" "$(one "$T/prof/jump-$chase" cg)" "$o" --fns '^main$'
done
# two static functions named helper, in two files of the program: two
# functions with their own files, self costs and callers, as callgrind's
# (read by callgrind_annotate: file:function, self Ir, and the calls of
# fa and fb with --tree=calling); they were one, in the first file seen
same_fns() { # profile: the tree's lines of rec-same's functions
	callgrind_annotate --threshold=100 --tree=calling "$1" 2>/dev/null | python3 -c '
import re, sys, os
rx = re.compile(r"^ *([0-9,]+) \( *[0-9.]+%\) +([*>]) +(\S+):(\w+)( \(\d+x\))?")
out = set()
for line in sys.stdin:
    m = rx.match(line)
    if m and os.path.basename(m.group(3)).startswith("rec-same-"):
        out.add("%s %s:%s %s%s" % (m.group(2), os.path.basename(m.group(3)), m.group(4),
                                   m.group(1), m.group(5) or ""))
print("\n".join(sorted(out)))'
}
if record same -- ../src/rec-same; then
	want=$(same_fns "$(one "$T/prof/same" cg)")
	got=$(same_fns "$(one "$T/prof/same" ours)")
	if [ -n "$want" ] && [ "$got" = "$want" ] &&
		[ "$(echo "$want" | grep -c ':helper ')" -ge 2 ]; then
		pass "same: two static helper functions, each with its file and costs: as callgrind's"
	else
		fail same "callgrind: $(echo "$want" | tr '\n' ';') ours: $(echo "$got" | tr '\n' ';')"
	fi
fi
record thread -- ../src/rec-calls thread &&
	compare thread "$(one "$T/prof/thread" cg)" "$(one "$T/prof/thread" ours)" --objs '^rec-calls$'
# one file per thread (FILE-01, -02, -03), each thread's calls its own
# (without chasing, so that the self costs of the program's functions are
# callgrind's too, thread by thread; those that call through a PLT stub,
# worker and deep, are left out: callgrind adds the stub's cost to them)
if record threads-separate --separate-threads=yes --vex-guest-chase=no -- ../src/rec-calls thread; then
	d=$T/prof/threads-separate
	# callgrind's options came after ours: run it again with its own
	(cd "$T/run" && valgrind -q --tool=callgrind --dump-instr=yes --separate-threads=yes \
		--callgrind-out-file="$d/sep.cg" ../src/rec-calls thread) >"$T/out/cg-sep.log" 2>&1
	n_cg=$(find "$d" -name 'sep.cg-*' | wc -l)
	n_ours=$(find "$d" -name 'ours.*-*' ! -name '*.ctx' | wc -l)
	if [ "$n_cg" = 3 ] && [ "$n_ours" = 3 ]; then
		pass "threads-separate: three files, as callgrind writes"
	else
		fail "threads-separate" "callgrind wrote $n_cg files, we $n_ours"
	fi
	# and with the simulators on (their helpers count per thread)
	(cd "$T/run" && valgrind -q --tool=cgtui --separate-threads=yes --vex-guest-chase=no \
		--cache-sim=yes --branch-sim=yes --cgtui-out-file="$d/sim" ../src/rec-calls thread) \
		>"$T/out/ours-sep-sim.log" 2>&1 || fail "threads-separate-sim" "$(head -c 300 "$T/out/ours-sep-sim.log")"
	for nn in 01 02 03; do
		for v in ours sim; do
			o=$(find "$d" -name "$v*-$nn" | head -n 1)
			if [ -n "$o" ] && [ -f "$d/sep.cg-$nn" ] && grep -q "^thread: ${nn#0}$" "$o"; then
				compare "threads-separate-$v-$nn" "$d/sep.cg-$nn" "$o" --objs '^rec-calls$' \
					--self-fns '^(step|leaf|square|cube|fib|is_even|is_odd|on_signal)$'
			else
				fail "threads-separate-$v-$nn" "no file for thread $nn"
			fi
		done
	done
fi

# --- threads: what runs in each thread (rec-threads), calls and inclusive Ir
# of the calls of start_thread (three threads, one call each); without
# chasing, so that cachegrind's self cost of start_thread is callgrind's
# program (par: ids 2, 3, 4; seq: each thread the id and the stack of the
# one before; up: the id, on a stack above the one before's frames, where
# the tool lost the call of start_thread: "Called 2" for 3 threads)
for mode in par seq up; do
	record "threads-$mode" --vex-guest-chase=no -- ../src/rec-threads $mode || continue
	d=$T/prof/threads-$mode
	(cd "$T/run" && valgrind -q --tool=cachegrind --cache-sim=no --vex-guest-chase=no \
		--cachegrind-out-file="$d/cachegrind" ../src/rec-threads $mode) >"$T/out/cachegrind-$mode.log" 2>&1
	compare "threads-$mode" "$(one "$d" cg)" "$(one "$d" ours)" --thread-root start_thread \
		--calls 3 --self "$d/cachegrind"
	# one file per thread: each thread's call of start_thread its own
	(cd "$T/run" && valgrind -q --tool=cgtui --vex-guest-chase=no --separate-threads=yes \
		--cgtui-out-file="$d/sep" ../src/rec-threads $mode &&
		valgrind -q --tool=callgrind --dump-instr=yes --separate-threads=yes \
			--callgrind-out-file="$d/sep.cg" ../src/rec-threads $mode) >"$T/out/sep-$mode.log" 2>&1
	# (par: threads 2, 3, 4 one each; seq and up: thread 2 all three)
	if [ $mode = par ]; then files="02:1 03:1 04:1"; else files="02:3"; fi
	for fc in $files; do
		f=${fc%:*}
		if [ -f "$d/sep-$f" ] && [ -f "$d/sep.cg-$f" ]; then
			compare "threads-$mode-separate-$f" "$d/sep.cg-$f" "$d/sep-$f" \
				--thread-root start_thread --calls "${fc#*:}"
		else
			fail "threads-$mode-separate-$f" "no file for thread $f: $(ls "$d")"
		fi
	done
	# start_thread's self cost in the threads' files adds up to cachegrind's
	s=$(python3 - "$here" "$d/cachegrind" "$d"/sep-?? <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import callsdiff
ours = sum(v for f in sys.argv[3:] for k, v in callsdiff.read(f)[2].items() if k[1] == 'start_thread')
print(ours, callsdiff.cachegrind_self(sys.argv[2], 'start_thread'))
PY
)
	if [ -n "$s" ] && [ "${s% *}" = "${s#* }" ]; then
		pass "threads-$mode-separate: start_thread's self Ir in the threads' files add up to cachegrind's (${s% *})"
	else
		fail "threads-$mode-separate" "start_thread's self Ir: ours, cachegrind's: $s"
	fi
done

# --- code without a symbol: a stripped program, python3 -------------------------------
# The code the signal handler returns to has no symbol: callgrind never
# counts it (the handler's last block); the program says where it is.
lost=$("$T/src/rec-calls-stripped" restorer | cut -d' ' -f2)
# without chasing: every name, self Ir, call count and inclusive Ir
if record stripped --vex-guest-chase=no -- ../src/rec-calls-stripped; then
	compare stripped "$(one "$T/prof/stripped" cg)" "$(one "$T/prof/stripped" ours)"
	compare stripped-names "$(one "$T/prof/stripped" cg)" "$(one "$T/prof/stripped" ours)" \
		--names '^0x' --lost "$lost"
fi
# with chasing (the default): the names and self Ir too, and the counts
if record stripped-chase -- ../src/rec-calls-stripped; then
	compare stripped-chase "$(one "$T/prof/stripped-chase" cg)" "$(one "$T/prof/stripped-chase" ours)" \
		--incl-objs '^rec-calls-stripped$'
	compare stripped-chase-names "$(one "$T/prof/stripped-chase" cg)" \
		"$(one "$T/prof/stripped-chase" ours)" --names '^0x' --lost "$lost"
fi
# --unnamed=cachegrind: all of it "???", as cachegrind names it (the names
# and the calls of the functions with a symbol as callgrind's)
if record stripped-cachegrind --vex-guest-chase=no --unnamed=cachegrind -- ../src/rec-calls-stripped; then
	o=$(one "$T/prof/stripped-cachegrind" ours)
	if ! grep -q '^c\?fn=([0-9]*) 0x' "$o" && grep -q '^c\?fn=([0-9]*) ???$' "$o"; then
		pass "stripped --unnamed=cachegrind: no address names, ??? as cachegrind's"
	else
		fail "stripped --unnamed=cachegrind" "$(grep -m3 '^c\?fn=([0-9]*) 0x' "$o")"
	fi
	# (not --within: "???" is all code without a symbol, its calls of
	# everything from everywhere, and the PLT stubs' cost in it, not in
	# the inclusive cost of the function that called through them)
	within=no compare stripped-cachegrind "$(one "$T/prof/stripped-cachegrind" cg)" "$o" --fns '^[^0?]' \
		--ignore '^(0x|\?\?\?)'
fi
# Debian's python3 is stripped: most of the interpreter has no symbol.  Its
# work is the same from run to run with a fixed hash seed, no site module,
# no bytecode written and the address space not randomised.
py=/usr/bin/python3
norand=""
setarch "$(uname -m)" -R true 2>/dev/null && norand="setarch $(uname -m) -R"
if [ -x "$py" ] && [ "$(head -c 4 "$py" | tail -c 3)" = ELF ] && [ -n "$norand" ]; then
	d=$T/prof/python
	mkdir -p "$d"
	# (each run's output a file of its own: python's start-up differs when
	# its standard output is not at offset 0)
	(cd "$T/run" && PYTHONHASHSEED=0 $norand valgrind -q --tool=cgtui --vex-guest-chase=no \
		--cgtui-out-file="$d/ours" $py -S -B ../src/rec-python.py) >"$T/out/python.log" 2>&1
	(cd "$T/run" && PYTHONHASHSEED=0 $norand valgrind -q --tool=callgrind --dump-instr=yes \
		--callgrind-out-file="$d/cg" $py -S -B ../src/rec-python.py) >"$T/out/python-cg.log" 2>&1
	if [ -s "$d/ours" ] && [ -s "$d/cg" ]; then
		# (not --within: two functions in "???", code without an
		# object, whose calls into cost up to 1.4 % more than their
		# inclusive cost, before the jumps into the middle became calls too)
		within=no compare python "$d/cg" "$d/ours"
		within=no compare python-names "$d/cg" "$d/ours" --names '^0x'
	else
		fail python "$(head -c 300 "$T/out/python.log")"
	fi
else
	echo "SKIP: python: no ELF $py (or no setarch -R)"
fi

# a fork: each tool writes two files; the parent's is the one that waits.
# Callgrind's child file repeats the parent's costs before the fork (the
# dynamic linker's start, main's call of fork), so that the two files
# loaded together count them twice; ours counts from the fork on and says
# so.  The parent's calls are callgrind's; the child's, those of work()
# (called after the fork only), and none of the start
if record fork --vex-guest-chase=no -- ../src/rec-calls fork; then
	for who in parent child; do
		c="" o=""
		for f in "$T/prof/fork"/cg.* "$T/prof/fork"/ours.*; do
			case $f in *.ctx) continue ;; esac # (the contexts beside)
			if grep -q 'waitpid' "$f"; then w=parent; else w=child; fi
			[ "$w" = "$who" ] || continue
			case ${f##*/} in cg.*) c=$f ;; ours.*) o=$f ;; esac
			[ "$who" = parent ] && parent_pid=$(sed -n 's/^pid: //p' "$f")
		done
		if [ -z "$c" ] || [ -z "$o" ]; then
			fail "fork-$who" "no file for the $who (callgrind '$c', ours '$o')"
		elif [ "$who" = parent ]; then
			compare fork-parent "$c" "$o"
		else
			compare fork-child "$c" "$o" --fns '^work$'
			want="desc: Forked: from process ${parent_pid:-?}, counted from the fork on"
			if grep -q '^fn=.* dl_main$' "$c" && ! grep -q 'dl_main$' "$o" &&
				grep -q "^$want" "$o"; then
				pass "fork-child: counted from the fork on (callgrind's file has the start, dl_main), as its header says"
			else
				fail fork-child "dl_main in callgrind's: $(grep -c 'dl_main$' "$c"), in ours: $(grep -c 'dl_main$' "$o"); header: $(grep '^desc: Forked' "$o")"
			fi
		fi
	done
fi

# --- readers ---------------------------------------------------------------------
ours=$(one "$T/prof/calls" ours)
if [ -n "$ours" ]; then
	# callgrind_annotate reads our calls without a warning; with
	# --inclusive=yes, main's inclusive cost is the cost on the calls= line
	# that calls main in our file (read here by callsdiff.py's reader)
	(cd "$T/out" && callgrind_annotate --inclusive=yes --tree=both --threshold=100 "$ours") \
		>"$T/out/ann-ours.txt" 2>"$T/out/ann-ours.err"
	a=$(sed -n 's/^ *\([0-9,]*\) .*:main \[.*rec-calls\]$/\1/p' "$T/out/ann-ours.txt" | head -n 1 | tr -d ,)
	b=$(python3 - "$here" "$ours" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import callsdiff
edges = callsdiff.read(sys.argv[2])[0]
print(sum(v[1] for k, v in edges.items() if k[1][1] == 'main'))
PY
)
	if [ ! -s "$T/out/ann-ours.err" ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
		pass "callgrind_annotate --inclusive=yes --tree=both: main's inclusive Ir $a, as our calls= line says"
	else
		fail "callgrind_annotate" "main inclusive '$a', our calls= line '$b'; $(head -c 200 "$T/out/ann-ours.err")"
	fi
	if grep -q '\* .*rec-calls.c:fib \[' "$T/out/ann-ours.txt" &&
		grep -q '< .*rec-calls.c:work ' "$T/out/ann-ours.txt"; then
		pass "callgrind_annotate --tree=both lists callers and callees"
	else
		fail "callgrind_annotate --tree=both" "no caller/callee lines for fib"
	fi
	# cgtui's loader: the calls of main are those callgrind_annotate lists
	if "$CGTUI" --batch --threshold=0 "$ours" >"$T/out/cgtui.txt" 2>&1; then
		pass "cgtui --batch reads our calls"
	else
		fail "cgtui --batch" "$(head -c 300 "$T/out/cgtui.txt")"
	fi
fi

[ "$fails" = 0 ]
