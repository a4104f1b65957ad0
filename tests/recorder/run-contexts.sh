#!/usr/bin/env bash
# run-contexts.sh -- the calling contexts our Valgrind tool records
# (--contexts=yes, PROFILE.ctx), checked by ctxcheck.py's own readers:
# - rec-paths (assembly, every instruction known): a function reached by
#   several paths, by recursion and by jumps into its middle, each
#   context's calls, recursion depth and self Ir as computed by hand (in
#   rec-paths.c), with and without VEX following jumps;
# - rec-fold (main -> worker -> rec, 300 calls of rec(20)): the context
#   main;worker;rec called 300 times from worker and 6,000 times by the
#   recursion folded into it (by hand, and callgrind's call counts of
#   worker -> rec and rec -> rec), 21 frames deep;
# - on every recorder test program (and python3), summed over contexts,
#   each function's self cost equals the profile's, in every event;
# - per context of depth <= 3 without recursion, self Ir equals callgrind
#   --separate-callers=3's, except where a function jumps into another's
#   code: callgrind keeps such code in the jumping function's context, we
#   give it to the function whose code it is (cachegrind's attribution,
#   and the profile's self costs);
# - --max-contexts small: paths are cut, the sums still hold, the file
#   says how much cost is on cut paths, and the explorer's summary says it
#   with its share of the total;
# - the profile is the same with contexts as without: callgrind_annotate
#   prints the same (and never reads the .ctx file);
# - the explorer's callers tree gives a function's cost under its callers'
#   callers as callgrind --separate-callers=2 counts it (rec-callers.c);
# - cgtui --export=folded of the profile gives each path its context's
#   self cost (the paths come from the .ctx file, not estimated).
#
# With the simulators every event is compared too: a miss or a
# misprediction of code without a symbol that two translations hold (a
# PLT's first entry VEX followed from two stubs: rec-calls' deep and work
# around its longjmp, the dynamic linker's _dl_catch_error and
# _dl_map_object_deps) was given to the context of whichever translation
# was folded first, one off from the contexts (fails without
# cgt_count_direct's copies).
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: run-contexts.sh [--keep]   (CGTUI, VGLIB, CC, CXX as run-recorder.sh)

name=contexts
ref=callgrind
# shellcheck source=tests/recorder/rec-common.sh
. "$(dirname "$0")/rec-common.sh"
cxx=${CXX:-c++}
[ "$(uname -m)" = x86_64 ] || skip "rec-paths is x86-64 assembly"

mkdir -p "$T/src" "$T/run" "$T/prof" "$T/out"
cp "$here/rec-paths.c" "$here/rec-calls.c" "$here/rec-threads.c" "$here/rec-prog.c" \
	"$here/rec-prog.h" "$here/rec-branch.c" "$here/rec-python.py" "$here/rec-exc.cc" "$T/src/"
(cd "$T/src" && $cc -g -O1 -o rec-paths rec-paths.c && $cc -g -O1 -o rec-calls rec-calls.c -pthread &&
	$cc -g -O1 -Wl,-z,now -o rec-threads rec-threads.c -pthread &&
	$cc -g -O1 -o rec-prog rec-prog.c -pthread && $cc -g -O1 -o rec-branch rec-branch.c &&
	strip -o rec-calls-stripped rec-calls) >"$T/out/build.log" 2>&1 ||
	{ fail build "$(head -c 300 "$T/out/build.log")"; exit 1; }
have_cxx=0
if command -v "${cxx%% *}" >/dev/null 2>&1 &&
	(cd "$T/src" && $cxx -g -O1 -o rec-exc rec-exc.cc) >>"$T/out/build.log" 2>&1; then
	have_cxx=1
fi

export VALGRIND_LIB=$VGLIB
unset VALGRIND_OPTS

# record NAME [options --] PROGRAM ARGS: ours with --contexts=yes, as $T/prof/NAME
record() {
	local n=$1 opts=()
	shift
	rec_options "$@"
	opts=("${REC_OPTS[@]}")
	set -- "${REC_ARGS[@]}"
	rm -f "$T/prof/$n" "$T/prof/$n"-* "$T/prof/$n".*
	(cd "$T/run" && valgrind -q --tool=cgtui --contexts=yes "${opts[@]}" \
		--cgtui-out-file="$T/prof/$n" "$@") >"$T/out/ours-$n.log" 2>&1 ||
		{ fail "record-$n" "$(head -c 400 "$T/out/ours-$n.log")"; return 1; }
	[ -s "$T/prof/$n.ctx" ] || [ -s "$T/prof/$n-01.ctx" ] ||
		{ fail "record-$n" "no $n.ctx written"; return 1; }
	pass "record-$n"
}

check() { # name, ctxcheck.py's arguments
	local n=$1
	shift
	python3 "$here/ctxcheck.py" "$@" >"$T/out/check-$n.log" 2>&1
	relay "$n" "$T/out/check-$n.log"
}

# rec-fold.c: a direct recursion reached from one path.  main calls worker
# once, worker calls rec(20) 300 times, rec(d) calls rec(d - 1) down to
# rec(0): rec's context main;worker;rec is entered 300 times from worker
# and 300 * 20 = 6,000 times by the recursion, 21 frames of it deep at
# most; callgrind counts the same calls on its edges worker -> rec (300)
# and rec -> rec (6,000)
cat >"$T/src/rec-fold.c" <<'EOF'
volatile int sink;

__attribute__((noinline, noclone)) int rec(int d)
{
	if (d == 0)
		return 0;
	int r = rec(d - 1);
	/* (not a tail call: the compiler keeps the recursion) */
	__asm__ volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline, noclone)) void worker(void)
{
	for (int i = 0; i < 300; i++)
		sink += rec(20);
}

int main(void)
{
	worker();
	return sink == 300 * 20 ? 0 : 1;
}
EOF
(cd "$T/src" && $cc -g -O1 -o rec-fold rec-fold.c) >>"$T/out/build.log" 2>&1 ||
	fail build-fold "$(tail -c 300 "$T/out/build.log")"

# the hand-computed contexts (rec-paths.c; a jump into leaf's loop is a
# call of leaf, as run-calls.sh's rec-jump checks; rec called once from
# main, 3 times by itself)
hand=('main;viaA=3,1,9' 'main;viaA;leaf=3,1,6006' 'main;viaB=3,1,15'
	'main;viaB;leaf=6,1,132' 'main;rec=1+3,4,27' 'main;rec;leaf=3,1,18'
	'main;jumper=1,1,2' 'main;jumper;leaf=1,1,11' 'main;jumper2=1,1,3'
	'main;jumper2;leaf=1,1,11')
record paths -- ../src/rec-paths &&
	check paths-hand expect "$T/prof/paths" "${hand[@]}" &&
	check paths-sums sums "$T/prof/paths"
record paths-nochase --vex-guest-chase=no -- ../src/rec-paths &&
	check paths-nochase-hand expect "$T/prof/paths-nochase" "${hand[@]}"

# a recursion's calls from its parent and its recursive ones, apart: by
# hand (rec-fold.c, above), and callgrind's counts of the two edges
record fold -- ../src/rec-fold &&
	check fold-hand expect "$T/prof/fold" 'main;worker=1+0,1,-' 'main;worker;rec=300+6000,21,-' &&
	check fold-sums sums "$T/prof/fold"
(cd "$T/run" && valgrind -q --tool=callgrind --separate-recs=1 \
	--callgrind-out-file="$T/prof/cg-fold" ../src/rec-fold) >"$T/out/cg-fold.log" 2>&1 &&
	check fold-callgrind recursion "$T/prof/cg-fold" "$T/prof/fold" 'main;worker;rec'

# the sums, on every program, in every event: Ir only and with both
# simulators (whose helpers count misses and mispredictions directly)
sums() { # NAME [options --] PROGRAM ARGS: recorded twice, checked
	local n=$1
	shift
	record "$n" "$@" && check "$n" sums "$T/prof/$n"
	rec_options "$@"
	local o=("${REC_OPTS[@]}") a=("${REC_ARGS[@]}")
	record "$n-sim" --cache-sim=yes --branch-sim=yes "${o[@]}" -- "${a[@]}" &&
		check "$n-sim" sums "$T/prof/$n-sim"
}
record paths-sim --cache-sim=yes --branch-sim=yes -- ../src/rec-paths &&
	check paths-sim sums "$T/prof/paths-sim"
sums calls -- ../src/rec-calls
sums calls-restorer -- ../src/rec-calls restorer
sums calls-thread -- ../src/rec-calls thread
sums stripped -- ../src/rec-calls-stripped
sums threads -- ../src/rec-threads
sums threads-seq -- ../src/rec-threads seq
sums prog -- ../src/rec-prog
sums prog-thread -- ../src/rec-prog thread
sums branch -- ../src/rec-branch
if [ "$have_cxx" = 1 ]; then
	sums exc -- ../src/rec-exc
fi
record separate --separate-threads=yes -- ../src/rec-threads &&
	check separate sums "$T/prof/separate"-??
record separate-sim --separate-threads=yes --cache-sim=yes --branch-sim=yes -- ../src/rec-calls thread &&
	check separate-sim sums "$T/prof/separate-sim"-??
sums python -- /usr/bin/python3 ../src/rec-python.py

# the bound: paths cut, sums exact, the cut cost said
record cut --max-contexts=20 -- ../src/rec-calls && {
	check cut sums "$T/prof/cut"
	check cut-depth depth "$T/prof/calls" 7
	if python3 "$here/ctxcheck.py" depth "$T/prof/cut" 7 >/dev/null; then
		fail cut-shorter "paths longer than 7 with --max-contexts=20"
	else
		pass cut-shorter
	fi
	if grep -q '^cut:	0$' "$T/prof/cut.ctx"; then
		fail cut-cost "no cost on cut paths: $(grep '^cut:' "$T/prof/cut.ctx")"
	else
		pass cut-cost
	fi
	# the explorer's summary says it: the cut: line's Ir and its share
	# of the profile's total, worked out here from the two files
	want=$(awk -F'\t' '/^cut:/ { c += $2 } END { print c }' "$T/prof/cut.ctx" |
		python3 -c 'import sys; c = int(sys.stdin.read()); t = int(sys.argv[1]);
print("Contexts:  recorded, {:,} Ir ({:.1f}%) on paths cut short".format(c, c * 100 / t))' \
			"$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$T/prof/cut" | head -1)")
	printf 'S\n:dump sum.txt\nq\n' >"$T/out/sum.keys"
	(cd "$T/out" && TERM=xterm-256color COLUMNS=120 LINES=40 CGTUI_CONFIG=/dev/null \
		CGTUI_SCRIPT=sum.keys "$CGTUI" "$T/prof/cut") >"$T/out/sum.log" 2>&1
	if grep -qxF "$want" "$T/out/sum.txt" 2>/dev/null; then
		pass cut-summary
	else
		fail cut-summary "want '$want', got '$(grep Contexts "$T/out/sum.txt" 2>/dev/null)'"
	fi
}

# the callers tree (T) from the recorded paths, against callgrind
# --separate-callers=2: rec-callers.c's h is reached through main;pathA;work
# (h(50000)) and main;pathB;work (h(5000), after a loop of work's own), so
# h's cost under work's callers is callgrind's h'work'pathA and
# h'work'pathB (h calls nothing: its self cost is all of it).  From the
# call edges alone it would be split as work's calls cost, about half each.
cat >"$T/src/rec-callers.c" <<'EOF'
static volatile long sink;

__attribute__((noinline, noclone)) long h(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += i ^ 3;
	return s;
}

__attribute__((noinline, noclone)) long work(int n, int heavy)
{
	long s = 0;
	if (heavy)
		return h(n);
	for (int i = 0; i < n; i++)
		s += i * i;
	return s + h(n / 10);
}

__attribute__((noinline, noclone)) void pathA(void)
{
	sink += work(50000, 1);
}

__attribute__((noinline, noclone)) void pathB(void)
{
	sink += work(50000, 0);
}

int main(void)
{
	pathA();
	pathB();
	return 0;
}
EOF
# the Ir of row NAME (its first field) on the screen $T/out/callers.txt
row_ir() { sed -n "s/^ *\([0-9,]*\) .* [-+] $1\( .*\)\{0,1\}\$/\1/p" "$T/out/callers.txt" | tr -d , | head -1; }
if (cd "$T/src" && $cc -g -O1 -o rec-callers rec-callers.c) >>"$T/out/build.log" 2>&1; then
	record callers-tree -- ../src/rec-callers &&
		(cd "$T/run" && valgrind -q --tool=callgrind --separate-callers=2 \
			--callgrind-out-file="$T/prof/cg-callers" ../src/rec-callers) >"$T/out/cg-callers.log" 2>&1 && {
		printf '/^h$<Enter>\nT\n*\n:dump callers.txt\nq\n' >"$T/out/callers.keys"
		(cd "$T/out" && TERM=xterm-256color COLUMNS=120 LINES=30 CGTUI_CONFIG=/dev/null \
			CGTUI_SCRIPT=callers.keys "$CGTUI" "$T/prof/callers-tree") >"$T/out/callers.log" 2>&1
		for p in pathA pathB; do
			want=$(callgrind_annotate --threshold=100 "$T/prof/cg-callers" 2>/dev/null |
				sed -n "s/^ *\([0-9,]*\) .*:h'work'$p .*/\1/p" | tr -d , | head -1)
			got=$(row_ir "$p")
			if [ -n "$want" ] && [ "$got" = "$want" ]; then
				pass "callers-tree $p"
			else
				fail "callers-tree $p" "h under work under $p: callgrind $want, ours '$got'"
			fi
		done
		grep -q 'Callers of h, bottom-up, recorded paths' "$T/out/callers.txt" &&
			pass "callers-tree title" || fail "callers-tree title" "$(sed -n 3p "$T/out/callers.txt")"
	}
else
	fail build-callers "$(tail -c 300 "$T/out/build.log")"
fi

# callgrind --separate-callers=3, per context
(cd "$T/run" && valgrind -q --tool=callgrind --separate-callers=3 \
	--callgrind-out-file="$T/prof/cg3" ../src/rec-paths) >"$T/out/cg3.log" 2>&1 &&
	check callers callers "$T/prof/cg3" "$T/prof/paths" '^(main|viaA|viaB|leaf)$' '^jumper'

# on by default; the profile is the same with contexts as without
(cd "$T/run" && valgrind -q --tool=cgtui --cgtui-out-file="$T/prof/default" ../src/rec-paths) \
	>"$T/out/default.log" 2>&1
[ -s "$T/prof/default.ctx" ] && pass "contexts by default" ||
	fail "contexts by default" "no $T/prof/default.ctx"
(cd "$T/run" && valgrind -q --tool=cgtui --contexts=no --cgtui-out-file="$T/prof/noctx" \
	../src/rec-paths) >"$T/out/noctx.log" 2>&1
[ ! -e "$T/prof/noctx.ctx" ] && pass "no .ctx with --contexts=no" ||
	fail "no .ctx with --contexts=no" "$T/prof/noctx.ctx written"
ann() { callgrind_annotate --inclusive=yes "$1" 2>&1 | grep -v '^\(Command\|Data file\|Profile data file\|Options:\|Profiled target\)'; }
if [ "$(ann "$T/prof/paths")" = "$(ann "$T/prof/noctx")" ] && ann "$T/prof/paths" | grep -q leaf; then
	pass "callgrind_annotate: the same with contexts as without"
else
	fail "callgrind_annotate" "differs: $(diff <(ann "$T/prof/paths") <(ann "$T/prof/noctx") | head -5)"
fi

# the explorer's paths come from the file
"$CGTUI" --export=folded "$T/prof/paths" >"$T/out/paths.folded" 2>"$T/out/folded.err" &&
	check folded folded "$T/prof/paths" "$T/out/paths.folded"

echo "$name: $fails failed"
[ "$fails" = 0 ]
