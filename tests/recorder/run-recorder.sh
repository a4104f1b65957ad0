#!/usr/bin/env bash
# run-recorder.sh -- tests of our Valgrind tool (src/instrument): its counts
# against cachegrind's, run with the same environment (the same VALGRIND_LIB
# directory), and its Callgrind-format file read by callgrind_annotate and
# by cgtui.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: run-recorder.sh [--keep]
#   CGTUI=path    the cgtui binary (default: $abs_top_builddir/cgtui, ./cgtui,
#                 ../../cgtui); the tool is looked for in vglib/ beside it
#   VGLIB=dir     the VALGRIND_LIB directory holding cgtui-PLATFORM (and a
#                 link to cachegrind-PLATFORM)
#   CC=compiler   C compiler (default: cc)
# Prints "PASS: name" or "FAIL: name: reason" per check.  Exits 0 when all
# pass, 1 when any fails, 77 (skip) when the tool is not built or a
# prerequisite is missing.

# Option strings such as $SIM and $SHOW are split into words on purpose:
# shellcheck disable=SC2086

name=recorder
ref=cachegrind
# shellcheck source=tests/recorder/rec-common.sh
. "$(dirname "$0")/rec-common.sh"
SHOW=""

# --- build ------------------------------------------------------------------
mkdir -p "$T/src" "$T/run" "$T/prof" "$T/out"
cp "$here"/rec-*.c "$here"/rec-*.h "$T/src/"
build() {  # name, compiler arguments...
	local name=$1
	shift
	if (cd "$T/src" && $cc "$@") >"$T/out/build-$name.log" 2>&1; then
		return 0
	fi
	fail "build-$name" "$(head -c 300 "$T/out/build-$name.log")"
	return 1
}
build rec-prog -g -O1 -o rec-prog rec-prog.c -pthread || exit 1
build rec-prog-O0 -g -O0 -o rec-prog-O0 rec-prog.c -pthread || exit 1
build rec-plug -g -O1 -fPIC -shared -o librec-plug.so rec-plug.c || exit 1
build rec-dl -g -O1 -o rec-dl rec-dl.c -ldl || exit 1
build rec-branch -g -O1 -o rec-branch rec-branch.c || exit 1

# --- record -----------------------------------------------------------------
# Both tools run from the same directory with the same environment: what
# ld.so executes depends on it.
export VALGRIND_LIB=$VGLIB
unset VALGRIND_OPTS
# SIM: the simulation options given to both tools (cachegrind's cache
# simulation is on by default, ours off: both are always told)
SIM="--cache-sim=no"
# OURS_SIM: when set, our tool gets these options instead of SIM (models)
OURS_SIM=""
record() {  # name, program and arguments...
	local name=$1
	shift
	(cd "$T/run" && valgrind -q --tool=cgtui ${OURS_SIM:-$SIM} --cgtui-out-file="$T/prof/ours.$name" "$@") \
		>"$T/out/ours-$name.log" 2>&1 ||
		{ fail "record-$name" "$(head -c 400 "$T/out/ours-$name.log")"; return 1; }
	(cd "$T/run" && valgrind -q --tool=cachegrind $SIM \
		--cachegrind-out-file="$T/prof/cg.$name" "$@") >"$T/out/cg-$name.log" 2>&1 ||
		{ fail "record-cachegrind-$name" "$(head -c 400 "$T/out/cg-$name.log")"; return 1; }
	pass "record-$name"
}

total_of() {  # the summary: line of a profile
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$1" | head -n 1
}

compare() {  # name [profdiff options]: our profile against cachegrind's
	local name=$1 ours=$T/prof/ours.$1 cg=$T/prof/cg.$1 line
	shift
	# our own readers: totals and every (file, function, line)
	python3 "$here/profdiff.py" "$@" "$cg" "$ours" >"$T/out/profdiff-$name.log" 2>&1
	relay "$name" "$T/out/profdiff-$name.log"
	# cgtui's report of both files, from the summary on, is the same
	if [ $# != 0 ]; then
		if "$CGTUI" --batch --threshold=0 "$ours" >"$T/out/cgtui-ours-$name.txt" 2>&1; then
			pass "$name: cgtui --batch reads our file"
		else
			fail "$name: cgtui --batch" "$(head -c 400 "$T/out/cgtui-ours-$name.txt")"
		fi
	elif python3 "$here/profdiff.py" --fold-unnamed "$ours" "$T/prof/folded-ours.$name" &&
		python3 "$here/profdiff.py" --fold-unnamed "$cg" "$T/prof/folded-cg.$name" &&
		"$CGTUI" --batch --threshold=0 --context=0 $SHOW "$T/prof/folded-ours.$name" \
			>"$T/out/cgtui-ours-$name.txt" 2>&1 &&
		"$CGTUI" --batch --threshold=0 --context=0 $SHOW "$T/prof/folded-cg.$name" \
			>"$T/out/cgtui-cg-$name.txt" 2>&1; then
		# (code without a source file: its functions named "???" in both,
		# as cachegrind names them; see profdiff.py)
		if diff <(sed -n '/^-- Summary/,$p' "$T/out/cgtui-cg-$name.txt") \
			<(sed -n '/^-- Summary/,$p' "$T/out/cgtui-ours-$name.txt") >"$T/out/cgtui-diff-$name.txt"; then
			pass "$name: cgtui --batch reports the same for both files"
		else
			fail "$name: cgtui --batch differs" "$(head -c 400 "$T/out/cgtui-diff-$name.txt")"
		fi
	else
		fail "$name: cgtui --batch" "$(head -c 400 "$T/out/cgtui-ours-$name.txt" "$T/out/cgtui-cg-$name.txt")"
	fi
	# callgrind_annotate reads our file unchanged and finds our total
	local ours_total ann_total
	ours_total=$(total_of "$ours")
	ann_total=$(cd "$T/out" && callgrind_annotate "$ours" 2>"$T/out/ann-$name.err" |
		sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
	if [ -n "$ours_total" ] && [ "$ann_total" = "$ours_total" ] && [ ! -s "$T/out/ann-$name.err" ]; then
		pass "$name: callgrind_annotate's PROGRAM TOTALS = ours ($ours_total)"
	else
		fail "$name: callgrind_annotate" "PROGRAM TOTALS '$ann_total', ours '$ours_total'; $(head -c 200 "$T/out/ann-$name.err")"
	fi
}

record prog ../src/rec-prog && compare prog
record prog-O0 ../src/rec-prog-O0 && compare prog-O0
record dl ../src/rec-dl "$T/src/librec-plug.so" && compare dl
# with a thread, only our own code runs the same way every time
record thread ../src/rec-prog thread && compare thread --files 'rec-prog'

# the simulators: every event equal to cachegrind's, with caches given and
# with the caches both tools detect on this machine.  The two files list
# their events in different orders: cgtui is told which to show.
SHOW="--show=Ir,Dr,Dw,I1mr,D1mr,D1mw,ILmr,DLmr,DLmw,Bc,Bcm,Bi,Bim --sort=Ir"
SIM="--cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
record sim-prog ../src/rec-prog && compare sim-prog
SIM="--cache-sim=yes --branch-sim=yes"
record sim-dl ../src/rec-dl "$T/src/librec-plug.so" && compare sim-dl
SIM="--cache-sim=yes --branch-sim=no --I1=16384,4,32 --D1=8192,2,64 --LL=262144,8,128"
SHOW="--show=Ir,Dr,Dw,I1mr,D1mr,D1mw,ILmr,DLmr,DLmw --sort=Ir"
record cache-prog-O0 ../src/rec-prog-O0 && compare cache-prog-O0
SIM="--cache-sim=no --branch-sim=yes"
SHOW="--show=Ir,Bc,Bcm,Bi,Bim --sort=Ir"
record branch-prog ../src/rec-prog && compare branch-prog
# the predictors, inline in our translations, on 1024 indirect call sites
# sharing cachegrind's 512 slots and on branches whose history matters
# (a predictor indexed with one address or history bit less, or a table of
# 256 slots, fails here); caches of a single set (fetches checked inline
# against a set of 64 ways, data accesses through the helpers)
SIM="--cache-sim=yes --branch-sim=yes --I1=4096,64,64 --D1=4096,64,64 --LL=262144,8,64"
SHOW="--show=Ir,Dr,Dw,I1mr,D1mr,D1mw,ILmr,DLmr,DLmw,Bc,Bcm,Bi,Bim --sort=Ir"
record sim-branch ../src/rec-branch && compare sim-branch
# the same with --separate-threads=yes: the inline predictors count into
# the running thread's table (one thread: its file equals cachegrind's)
if (cd "$T/run" && valgrind -q --tool=cgtui $SIM --separate-threads=yes \
	--cgtui-out-file="$T/prof/ours.sim-branch-sep" ../src/rec-branch) >"$T/out/ours-sim-branch-sep.log" 2>&1 &&
	[ -f "$T/prof/ours.sim-branch-sep-01" ]; then
	python3 "$here/profdiff.py" "$T/prof/cg.sim-branch" "$T/prof/ours.sim-branch-sep-01" \
		>"$T/out/profdiff-sim-branch-sep.log" 2>&1
	relay sim-branch-sep "$T/out/profdiff-sim-branch-sep.log"
else
	fail "record-sim-branch-sep" "$(head -c 400 "$T/out/ours-sim-branch-sep.log")"
fi
SIM="--cache-sim=no --branch-sim=yes"
SHOW="--show=Ir,Bc,Bcm,Bi,Bim --sort=Ir"
record branch-only ../src/rec-branch && compare branch-only
SIM="--cache-sim=no"
SHOW=""

# --- cache models (--cache-config, --cache-model) --------------------------------
# Two models in one run take the general helpers (every model, inline checks
# of each): the first, cachegrind's caches written as a model file, keeps
# cachegrind's event names and must give exactly its counts; the second runs
# on the same accesses beside it.  odd's L1s (FIFO, LRU write-back: a write
# checked inline against a dirty line) let the translation check both
# models' L1s inline, calling the helper when either misses (a helper called
# only when both missed, tried, fails here); odd2's (tree-PLRU, SRRIP) do
# not, so the helper is always called.
cat >"$T/run/cg.cfg" <<'CFG'
# cachegrind's caches as a model
L1I: size=32K assoc=8 line=64
L1D: size=32K assoc=8 line=64
L2: size=8M assoc=16 line=64
CFG
cat >"$T/run/odd.cfg" <<'CFG'
name = odd
L1I: size=8K assoc=2 line=32 policy=fifo
L1D: size=16K assoc=4 line=64 write=back prefetch=next
L2: size=128K assoc=8 line=64 inclusion=inclusive write=back policy=brrip prefetch=stride
L3: size=1M assoc=16 line=64 inclusion=exclusive write=back policy=random
CFG
cat >"$T/run/odd2.cfg" <<'CFG'
name = odd2
L1I: size=8K assoc=2 line=32 policy=plru
L1D: size=16K assoc=4 line=64 policy=srrip write=through prefetch=next+stride
L2: size=1M assoc=16 line=64 write=back
CFG
# (cachegrind gets SIM, our tool the models, the first of them those caches)
SIM="--cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
# (cgtui's report of the events cachegrind counts is the same for both)
SHOW="--show=Ir,Dr,Dw,I1mr,D1mr,D1mw,ILmr,DLmr,DLmw,Bc,Bcm,Bi,Bim --sort=Ir"
for second in odd odd2; do
	OURS_SIM="--branch-sim=yes --cache-config=cg.cfg --cache-config=$second.cfg"
	record models-$second ../src/rec-prog-O0 && compare models-$second
done
f=$T/prof/ours.models-odd
for want in '^desc: Cache model format: 1$' \
	'^desc: L1D@odd cache: 16384 B, 64 B, 4-way associative, LRU, non-inclusive, write-back, next-line prefetch (model odd)$' \
	'^desc: L1D@odd cache: [1-9][0-9]* lines written back, [1-9][0-9]* prefetched$' \
	'^event: L2mr@odd : L2 read misses (fetches and loads) (odd)$' \
	'^event: DLdmw@odd : LL data write misses evicting a dirty line (odd)$' \
	'^events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw I1mr@odd D1mr@odd D1mw@odd L2mr@odd L2mw@odd ILmr@odd DLmr@odd DLmw@odd D1dmr@odd D1dmw@odd L2dmr@odd L2dmw@odd ILdmr@odd DLdmr@odd DLdmw@odd Bc Bcm Bi Bim$'; do
	if grep -q -e "$want" "$f"; then
		pass "models: a line matching $want"
	else
		fail "models" "no line matching $want"
	fi
done
# the second model's misses are its own (its L1D is half the first's), and
# callgrind_annotate shows them by name
got=$(cd "$T/out" && callgrind_annotate --show=D1mr,D1mr@odd "$f" 2>&1 |
	sed -n 's/^ *\([0-9,]*\) ([^)]*) *\([0-9,]*\) .*PROGRAM TOTALS.*/\1 \2/p' | tr -d ,)
set -- $got
if [ $# = 2 ] && [ "$2" -gt "$1" ]; then
	pass "models: callgrind_annotate --show=D1mr,D1mr@odd: $1 < $2"
else
	fail "models" "callgrind_annotate --show=D1mr,D1mr@odd gave '$got'"
fi
# cachegrind's caches as a model file alone: its own helpers again
OURS_SIM="--branch-sim=yes --cache-config=cg.cfg"
record model-cg ../src/rec-prog && compare model-cg
SHOW=""

# --cache-model=host from a sysfs directory made here: three levels, an L3
# of 3 MB 16-way (3072 sets) simulated with 2048 sets of 24 ways, an L1D of
# 64 KB that --D1 replaces with 32 KB.  Non-inclusive LRU levels see
# exactly the misses of the level above, so the L1s equal cachegrind's I1/D1
# and the L2 cachegrind's LL of the same geometry: L2mr = ILmr + DLmr,
# L2mw = DLmw, per line.
mkcache() {  # index level type size ways line
	mkdir -p "$T/sys/index$1"
	echo "$2" >"$T/sys/index$1/level"
	echo "$3" >"$T/sys/index$1/type"
	echo "$4" >"$T/sys/index$1/size"
	echo "$5" >"$T/sys/index$1/ways_of_associativity"
	echo "$6" >"$T/sys/index$1/coherency_line_size"
}
mkcache 0 1 Data 64K 8 64
mkcache 1 1 Instruction 16K 4 64
mkcache 2 2 Unified 256K 4 64
mkcache 3 3 Unified 3072K 16 64
SIM="--cache-sim=yes --branch-sim=no --I1=16384,4,64 --D1=32768,8,64 --LL=262144,4,64"
OURS_SIM="--cache-model=host --cache-host-dir=$T/sys --D1=32768,8,64"
record host ../src/rec-prog && {
	python3 "$here/profdiff.py" "$T/prof/cg.host" "$T/prof/ours.host" Ir Dr Dw I1mr D1mr D1mw \
		L2mr=ILmr+DLmr L2mw=DLmw >"$T/out/profdiff-host.log" 2>&1
	relay host "$T/out/profdiff-host.log"
	for want in '^desc: L3 cache: 3145728 B, 64 B, 24-way associative, LRU, non-inclusive, writes as reads, no prefetch (model host)$' \
		'^desc: L1D cache: 32768 B, 64 B, 8-way associative, LRU, ' \
		'^events: Ir Dr Dw I1mr D1mr D1mw L2mr L2mw ILmr DLmr DLmw$'; do
		if grep -q -e "$want" "$T/prof/ours.host"; then
			pass "host: a line matching $want"
		else
			fail "host" "no line matching $want"
		fi
	done
	if grep -q "L3: 3145728 B 16-way has no power-of-two set count: simulated as 3145728 B 24-way" \
		"$T/out/ours-host.log"; then
		pass "host: the L3 adjusted, with a warning"
	else
		fail "host" "no warning of the L3 adjusted: $(head -c 300 "$T/out/ours-host.log")"
	fi
}
# Several models in one run simulate each on the same accesses: with
# cachegrind's caches, the host's model (whose L1s are the same, simulated
# once for both) gives exactly what it gives alone, per line.
mkcache 1 1 Instruction 32K 8 64
OURS_SIM="--cache-model=host --cache-host-dir=$T/sys --D1=32768,8,64"
record host-alone ../src/rec-prog && {
	OURS_SIM="--cache-config=cg.cfg --cache-model=host --cache-host-dir=$T/sys --D1=32768,8,64"
	record host-with-cg ../src/rec-prog && {
		python3 "$here/profdiff.py" "$T/prof/ours.host-alone" "$T/prof/ours.host-with-cg" \
			I1mr@host=I1mr D1mr@host=D1mr D1mw@host=D1mw L2mr@host=L2mr L2mw@host=L2mw \
			ILmr@host=ILmr DLmr@host=DLmr DLmw@host=DLmw >"$T/out/profdiff-host-with-cg.log" 2>&1
		relay host-with-cg "$T/out/profdiff-host-with-cg.log"
	}
}
# a model file on the host's: 'base = host', then its L2 changed (a
# comment naming cachegrind asks for nothing)
printf '# not cachegrind\nname = hostplru\nbase = host\nL2: policy=plru\n' >"$T/run/hostplru.cfg"
if (cd "$T/run" && valgrind -q --tool=cgtui --cache-config=hostplru.cfg --cache-host-dir="$T/sys" \
	--cgtui-out-file="$T/prof/ours.hostplru" /bin/true) >"$T/out/hostplru.log" 2>&1 &&
	grep -q '^desc: L2 cache: 262144 B, 64 B, 4-way associative, tree-PLRU, .* (model hostplru)$' \
		"$T/prof/ours.hostplru" &&
	grep -q '^desc: L3 cache: 3145728 B, 64 B, 24-way associative, LRU, ' "$T/prof/ours.hostplru" &&
	! grep -q 'warning: L3 cache found' "$T/out/hostplru.log"; then
	pass "models: base = host, its L2 made tree-PLRU"
else
	fail "models: base = host" "$(grep '^desc: L' "$T/prof/ours.hostplru" 2>&1; head -c 300 "$T/out/hostplru.log")"
fi
# Without sysfs, the host's caches come from CPUID, as Valgrind reads them:
# its L1s are cachegrind's (the same CPUID, in cachegrind's desc: lines)
SIM="--cache-sim=yes --branch-sim=no"
OURS_SIM="--cache-model=host --cache-host-dir=$T/nothing"
record host-cpuid ../src/rec-prog && {
	for c in I1:L1I D1:L1D; do
		geom=$(sed -n "s/^desc: ${c%:*} cache: *\(.*\)$/\1/p" "$T/prof/cg.host-cpuid")
		if [ -n "$geom" ] && grep -q "^desc: ${c#*:} cache: $geom, LRU" "$T/prof/ours.host-cpuid"; then
			pass "host from CPUID: ${c#*:} is cachegrind's ${c%:*}: $geom"
		else
			fail "host from CPUID" "${c#*:}: $(grep "^desc: ${c#*:}" "$T/prof/ours.host-cpuid"), cachegrind's '$geom'"
		fi
	done
}
SIM="--cache-sim=no"
OURS_SIM=""

# --- miss-ratio curves (--cache-mrc): sampled against exact -----------------------
# The exact curve samples every line (enough room for all); the default
# keeps at most 65536 lines (these programs touch fewer: exact too); 1%
# sampling; at most 4096 lines (the rate halved until they fit): each
# within 0.01 mean absolute error at 2^9 .. 2^16 lines.
mrc_run() {  # name, options, program and arguments
	local name=$1 opts=$2
	shift 2
	(cd "$T/run" && valgrind -q --tool=cgtui --cache-mrc=yes $opts \
		--cgtui-out-file="$T/prof/mrc.$name" "$@") >"$T/out/mrc-$name.log" 2>&1 ||
		{ fail "mrc-$name" "$(head -c 300 "$T/out/mrc-$name.log")"; return 1; }
}
# bzip2's input: 400 KB of words, the same every run
python3 - "$T/run/bz.in" <<'PY'
import random, sys
r = random.Random(1)
words = [''.join(r.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 9)))
         for _ in range(5000)]
text = ' '.join(r.choice(words) for _ in range(70000))
open(sys.argv[1], 'w').write(text[:400000])
PY
for prog in prog bzip2; do
	case $prog in
	prog) set -- ../src/rec-prog ;;
	bzip2) set -- bzip2 -9 -c bz.in ;;
	esac
	mrc_run "$prog-exact" "--cache-mrc-lines=1048576" "$@" || continue
	for mode in default 1pct 4096; do
		case $mode in
		default) opts="" ;;
		1pct) opts="--cache-mrc-rate=1" ;;
		4096) opts="--cache-mrc-lines=4096" ;;
		esac
		mrc_run "$prog-$mode" "$opts" "$@" &&
			python3 "$here/mrcdiff.py" "mrc $prog $mode" "$T/prof/mrc.$prog-exact" \
				"$T/prof/mrc.$prog-$mode" >"$T/out/mrcdiff-$prog-$mode.log" 2>&1
		relay "mrc-$prog-$mode" "$T/out/mrcdiff-$prog-$mode.log"
	done
done
# CALLGRIND_ZERO_STATS zeroes the curves with the costs: every line sampled,
# the samples are then exactly the data accesses counted after it (Dr + Dw)
cat >"$T/src/rec-zero.c" <<'C'
#include <valgrind/callgrind.h>
static char buf[1 << 16];
static void touch(int step)
{
	for (unsigned i = 0; i < sizeof(buf); i += step)
		buf[i]++;
}
int main(void)
{
	touch(8);
	CALLGRIND_ZERO_STATS;
	touch(64);
	return 0;
}
C
if build rec-zero -g -O1 -o rec-zero rec-zero.c && mrc_run zero "" ../src/rec-zero; then
	got=$(python3 - "$T/prof/mrc.zero" <<'PY'
import sys
events = summary = total = None
for line in open(sys.argv[1]):
    if line.startswith('events:'):
        events = line.split()[1:]
    elif line.startswith('summary:'):
        summary = [int(x) for x in line.split()[1:]]
    elif line.startswith('# mrc-total:'):
        total = [int(x) for x in line.split()[2:]]
d = summary[events.index('Dr')] + summary[events.index('Dw')]
print('%d %d %d' % (total[0], total[1], d))
PY
)
	set -- $got
	if [ $# = 3 ] && [ "$1" = "$3" ] && [ "$2" = "$3" ]; then
		pass "mrc: zeroed with the costs ($1 samples, $3 data accesses after the zero)"
	else
		fail "mrc" "after CALLGRIND_ZERO_STATS: samples, accesses, Dr + Dw: '$got'"
	fi
fi
if grep -q '^# mrc-few: [0-9]* functions with fewer than 64 samples$' "$T/prof/mrc.prog-1pct"; then
	pass "mrc: functions with too few samples are said, not drawn"
else
	fail "mrc" "no '# mrc-few:' line in the 1% profile of rec-prog"
fi
if (cd "$T/out" && callgrind_annotate "$T/prof/mrc.bzip2-default" >/dev/null 2>"$T/out/ann-mrc.err") &&
	[ ! -s "$T/out/ann-mrc.err" ]; then
	pass "mrc: callgrind_annotate reads a profile with curves without a warning"
else
	fail "mrc" "callgrind_annotate: $(head -c 300 "$T/out/ann-mrc.err")"
fi

# The curve the explorer shows (key 8, its header line at each size)
# against the exact fully associative LRU curve computed independently
# (lruexact.py: stack distances of every data access of a lackey trace):
# the whole run sampled at 1% within 0.01 mean absolute error at 2^9 ..
# 2^16 lines (the issue's bound); fib's and cmp_int's, every line sampled,
# equal at every size 2^0 .. 2^16.  rec-prog without PIE: nm's addresses
# are lackey's.
mrc_keys() {  # dump name, how to select, first size dumped
	echo "$2"; echo 8; echo "<Home>"
	for k in $(seq 0 16); do
		[ "$k" -ge "$3" ] && echo ":dump $1-$k.txt"
		echo "<Right>"
	done
	echo "<Esc>"
}
lackey=$(dirname "$(readlink -f "$VGLIB/cachegrind-$plat")")/lackey-$plat
if [ ! -f "$lackey" ]; then
	echo "SKIP: mrc shown: no lackey tool beside cachegrind ($lackey)"
elif build rec-prog-np -g -O1 -no-pie -fno-pie -o rec-prog-np rec-prog.c -pthread; then
	mkdir -p "$T/lackey" "$T/mrcview"
	for f in "$VGLIB"/*; do ln -sf "$(readlink -f "$f")" "$T/lackey/"; done
	ln -sf "$lackey" "$T/lackey/"
	nm -n "$T/src/rec-prog-np" >"$T/out/rec-prog-np.nm"
	(cd "$T/run" && VALGRIND_LIB=$T/lackey valgrind -q --tool=lackey --trace-mem=yes \
		--log-file="$T/out/lackey.trace" ../src/rec-prog-np) >/dev/null 2>&1
	{ mrc_keys all S 9; echo q; } >"$T/mrcview/all.keys"
	{ mrc_keys fib '/^fib$<Enter>' 0; echo F; mrc_keys cmp_int '/^cmp_int$<Enter>' 0; echo q; } \
		>"$T/mrcview/fns.keys"
	# the same environment as lackey's (its length moves the stack: which
	# lines a frame straddles)
	if VALGRIND_LIB=$T/lackey mrc_run np-1pct "--cache-mrc-rate=1" ../src/rec-prog-np &&
		VALGRIND_LIB=$T/lackey mrc_run np-all "" ../src/rec-prog-np; then
		if (cd "$T/mrcview" && TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C.UTF-8 \
			CGTUI_CONFIG=/dev/null CGTUI_SCRIPT=all.keys "$CGTUI" "$T/prof/mrc.np-1pct" &&
			TERM=xterm-256color COLUMNS=80 LINES=24 LC_ALL=C.UTF-8 CGTUI_CONFIG=/dev/null \
			CGTUI_SCRIPT=fns.keys "$CGTUI" "$T/prof/mrc.np-all") >"$T/out/mrcview.log" 2>&1 &&
			[ -s "$T/out/lackey.trace" ]; then
			python3 "$here/lruexact.py" "$T/out/lackey.trace" "$T/out/rec-prog-np.nm" 64 0.01 \
				fib=exact,cmp_int=exact "$T"/mrcview/*.txt >"$T/out/lruexact.log" 2>&1
			relay "mrc shown" "$T/out/lruexact.log"
		else
			fail "mrc shown" "explorer or lackey: $(head -c 300 "$T/out/mrcview.log")"
		fi
	fi
fi

# Line utilisation (--cache-use=yes): the cachegrind events unchanged (all
# 9 equal to cachegrind's per line, as without it), and D1fb/D1ub against
# simref.py's model of src/sim/use.h run on the lackey trace above
# (usecheck.py): the whole run within 1%, main's and cmp_int's within 1%
# or two lines.
if [ -s "$T/out/lackey.trace" ]; then
	OURS_SIM="--cache-sim=yes --cache-use=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
	SIM="--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
	if VALGRIND_LIB=$T/lackey record use ../src/rec-prog-np; then
		python3 "$here/profdiff.py" "$T/prof/cg.use" "$T/prof/ours.use" \
			Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw >"$T/out/profdiff-use.log" 2>&1
		relay "use" "$T/out/profdiff-use.log"
		python3 "$here/usecheck.py" "$T/out/lackey.trace" "$T/out/rec-prog-np.nm" \
			"$T/prof/ours.use" 32768 8 64 0.01 main,cmp_int >"$T/out/usecheck.log" 2>&1
		relay "cache-use" "$T/out/usecheck.log"
	fi
	SIM="--cache-sim=no"
	OURS_SIM=""
fi

# --- cache models: what is wrong is said, with its file and line ----------------
printf 'name = bad\nL1: size=1K assoc=2 line=16\nL2: size=4K assoc=4 line=16 policy=lfu\n' \
	>"$T/run/bad.cfg"
printf 'L1I: size=32K assoc=8 line=64\nL1D: size=48K assoc=12 line=64 policy=plru\nL2: size=1M assoc=8 line=64\n' \
	>"$T/run/plru12.cfg"
check_msg() {  # name, expected exit (0 or 1), message pattern, options...
	local what=$1 want_rc=$2 pat=$3 rc=0
	shift 3
	(cd "$T/run" && valgrind -q --tool=cgtui "$@" --cgtui-out-file="$T/out/msg.out" /bin/true) \
		>"$T/out/msg.log" 2>&1 || rc=1
	if [ "$rc" = "$want_rc" ] && grep -q -e "$pat" "$T/out/msg.log"; then
		pass "models: $what"
	else
		fail "models: $what" "exit $rc, $(head -c 300 "$T/out/msg.log")"
	fi
}
# (Valgrind's messages begin with ==PID==)
check_msg "an unknown policy: FILE:LINE" 1 "= bad.cfg:3: policy 'lfu' is not one of" --cache-config=bad.cfg
check_msg "a missing file" 1 "= nothere.cfg: cannot read the cache model" --cache-config=nothere.cfg
check_msg "--cache-model=bogus" 1 "expected --cache-model=host or --cache-model=cachegrind" \
	--cache-model=bogus
check_msg "tree-PLRU on 12 ways: LRU, with a warning" 0 \
	"= plru12.cfg:2: warning: L1D: tree-PLRU needs a power-of-two associativity (at most 64), not 12: LRU instead" \
	--cache-config=plru12.cfg
if grep -q '^desc: L1D cache: 49152 B, 64 B, 12-way associative, LRU,' "$T/out/msg.out"; then
	pass "models: the 12-way L1D simulated as LRU"
else
	fail "models" "the 12-way L1D: $(grep '^desc: L1D' "$T/out/msg.out")"
fi
check_msg "two models of one name" 1 "two cache models are named 'plru12'" \
	--cache-config=plru12.cfg --cache-config=plru12.cfg
if valgrind --tool=cgtui --help 2>&1 | grep -q -e '--cache-config=<file>' &&
	valgrind --tool=cgtui --help 2>&1 | grep -q -e '--cache-model=host|cachegrind'; then
	pass "models: --help lists --cache-model and --cache-config"
else
	fail "models" "--help does not list --cache-model and --cache-config"
fi

# --- the file's form ----------------------------------------------------------
f=$T/prof/ours.prog
if [ -f "$f" ]; then
	for want in '^version: 1$' '^creator: cgtui' '^pid: [0-9][0-9]*$' '^cmd: .*rec-prog$' \
		'^positions: instr line$' '^events: Ir$' '^summary: [0-9]' '^totals: [0-9]' \
		'^fn=([0-9]*)$' '^\(c\?fl\|fi\)=([0-9]*) .*rec-prog\.h$' '^c\?ob=([0-9]*) .*rec-prog$' \
		'^+[0-9]* [-+*]'; do
		if grep -q -e "$want" "$f"; then
			pass "form: a line matching $want"
		else
			fail "form" "no line matching $want"
		fi
	done
	# instruction addresses are relative to the load bias: main's lowest
	# address in its own file is main's symbol value in the file on disk
	# (the PLT stubs main calls through are listed under main too, after
	# fi=???, as callgrind counts them)
	sym=$(nm "$T/src/rec-prog" 2>/dev/null | sed -n 's/^0*\([0-9a-f]*\) T main$/\1/p')
	got=$(python3 - "$f" <<'EOF'
import re, sys
names, fls, fn, fl, cur, prev, low = {}, {}, None, None, None, 0, None
for line in open(sys.argv[1]):
    m = re.match(r'^(c?)fn=\((\d+)\)(?: (.*))?$', line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3)
        if not m.group(1):
            fn = names[m.group(2)]
            cur = fl
        continue
    m = re.match(r'^(c?fl|cfi|fi|fe)=\((\d+)\)(?: (.*))?$', line)
    if m:
        if m.group(3):
            fls[m.group(2)] = m.group(3)
        if m.group(1) == 'fl':
            fl = cur = fls[m.group(2)]
        elif m.group(1) in ('fi', 'fe'):
            cur = fls[m.group(2)]
        continue
    if not line[:1] in '0123456789+-*' or not line.strip():
        continue
    a = line.split()[0]
    if a == '*':
        addr = prev
    elif a[0] in '+-':
        addr = prev + int(a)
    else:
        addr = int(a, 0)
    prev = addr
    if fn == 'main' and cur != '???' and (low is None or addr < low):
        low = addr
print('%x' % low if low is not None else '')
EOF
)
	if [ -n "$sym" ] && [ "$got" = "$sym" ]; then
		pass "form: main at 0x$got, its address in the file on disk"
	else
		fail "form" "main's lowest address in our file is 0x$got, nm says 0x$sym"
	fi
fi

# --- %p in the file name, and a forked child writes its own file ---------------
rm -rf "$T/fork" && mkdir -p "$T/fork"
if (cd "$T/run" && valgrind -q --tool=cgtui --cgtui-out-file="$T/fork/out.%p" ../src/rec-prog fork) \
	>"$T/out/fork.log" 2>&1; then
	n=0 bad=""
	for p in "$T"/fork/out.*; do
		[ -f "$p" ] || continue
		# the contexts (on by default) beside each profile, named as it
		case $p in *.ctx) continue ;; esac
		[ -s "$p.ctx" ] || bad="$bad no ${p##*/}.ctx;"
		n=$((n + 1))
		pid=$(sed -n 's/^pid: //p' "$p")
		[ "${p##*.}" = "$pid" ] || bad="$bad ${p##*/} has pid: $pid;"
		"$CGTUI" --batch "$p" >/dev/null 2>&1 || bad="$bad cgtui cannot read ${p##*/};"
	done
	if [ "$n" = 2 ] && [ -z "$bad" ]; then
		pass "fork: parent and child each write callgrind.out.%p with their pid"
	else
		fail "fork" "$n files;$bad"
	fi
else
	fail "fork" "$(head -c 300 "$T/out/fork.log")"
fi

# --- options --------------------------------------------------------------------
if valgrind -q --tool=cgtui --cache-sim=yes --I1=1000,3,64 --cgtui-out-file="$T/out/bad" \
	/bin/true >"$T/out/bad.log" 2>&1; then
	fail "options" "--I1=1000,3,64 accepted"
elif grep -q 'power of two' "$T/out/bad.log"; then
	pass "options: a cache whose set count is not a power of two is refused"
else
	fail "options" "--I1=1000,3,64: $(head -c 300 "$T/out/bad.log")"
fi
if valgrind --tool=cgtui --help 2>&1 | grep -q -e '--cgtui-out-file'; then
	pass "options: --help lists --cgtui-out-file"
else
	fail "options" "--help does not list --cgtui-out-file"
fi

[ "$fails" = 0 ]
