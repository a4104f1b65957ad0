#!/usr/bin/env bash
# run-timeline.sh -- the time axis our Valgrind tool records (--timeline=yes,
# PROFILE.time), checked by timecheck.py's own readers:
# - rec-phases (assembly, every instruction known): three phases of 20,000,002,
#   15,000,002 and 30,000,002 Ir (computed by hand in rec-phases.c) give
#   three runs of intervals, one after the other, whose sums are those
#   counts, the intervals inside each phase all that phase's (plateaus);
# - summed over the intervals, every function's cost equals its self cost
#   in the profile, in every event, and each interval's totals are its
#   functions' sum: on rec-phases, with both simulations, on rec-calls and
#   on python3 (code without a symbol, counted by its context) with a small
#   interval (the 512 kept are merged pairwise many times), with line
#   utilisation (costs added at a line's eviction) and with live snapshots
#   taken every 10 ms (each writes the interval still open);
# - the explorer's time range (V ... V in the timeline) totals the sums of
#   its intervals, read here from the .time file;
# - no .time without --timeline; callgrind_annotate prints the same;
# - the live snapshot and its .ctx/.time are removed once the profile is written.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: run-timeline.sh [--keep]   (CGTUI, VGLIB, CC as run-recorder.sh)

name=timeline
ref=cachegrind
# shellcheck source=tests/recorder/rec-common.sh
. "$(dirname "$0")/rec-common.sh"
[ "$(uname -m)" = x86_64 ] || skip "rec-phases is x86-64 assembly"

mkdir -p "$T/src" "$T/run" "$T/prof" "$T/out"
cp "$here/rec-phases.c" "$here/rec-calls.c" "$here/rec-python.py" "$T/src/"
(cd "$T/src" && $cc -g -O1 -o rec-phases rec-phases.c && $cc -g -O1 -o rec-calls rec-calls.c -pthread) \
	>"$T/out/build.log" 2>&1 || { fail build "$(head -c 300 "$T/out/build.log")"; exit 1; }

export VALGRIND_LIB=$VGLIB
unset VALGRIND_OPTS

# record NAME [options --] PROGRAM ARGS: ours with --timeline=yes, as $T/prof/NAME
record() {
	local n=$1 opts=()
	shift
	rec_options "$@"
	opts=("${REC_OPTS[@]}")
	set -- "${REC_ARGS[@]}"
	rm -f "$T/prof/$n" "$T/prof/$n".*
	(cd "$T/run" && valgrind -q --tool=cgtui --timeline=yes "${opts[@]}" \
		--cgtui-out-file="$T/prof/$n" "$@") >"$T/out/ours-$n.log" 2>&1 ||
		{ fail "record-$n" "$(head -c 400 "$T/out/ours-$n.log")"; return 1; }
	[ -s "$T/prof/$n.time" ] || { fail "record-$n" "no $n.time written"; return 1; }
	pass "record-$n"
}

check() { # name, timecheck.py's arguments
	local n=$1
	shift
	if python3 "$here/timecheck.py" "$@" >"$T/out/check-$n.log" 2>&1; then
		pass "$n: $(tail -1 "$T/out/check-$n.log")"
	else
		fail "$n" "$(head -c 600 "$T/out/check-$n.log")"
	fi
}

hand=(phase1=20000002 phase2=15000002 phase3=30000002)
record phases --timeline-interval=1000000 -- ../src/rec-phases &&
	check phases-hand phases "$T/prof/phases" "${hand[@]}" &&
	check phases-sums sums "$T/prof/phases"
# an interval ends at the first time slice past its length: rec-phases'
# slices (about 100,000 blocks of 2 to 5 instructions) are never 1000 Ir
record fine --timeline-interval=1000 -- ../src/rec-phases && {
	check fine-hand phases "$T/prof/fine" "${hand[@]}"
	check fine-sums sums "$T/prof/fine"
}
record sim --cache-sim=yes --branch-sim=yes -- ../src/rec-phases &&
	check sim-sums sums "$T/prof/sim"
record calls --timeline-interval=10000 -- ../src/rec-calls && check calls-sums sums "$T/prof/calls"
# python3 has more than 512 intervals of 1000 Ir: merged pairwise
record python --timeline-interval=1000 -- /usr/bin/python3 ../src/rec-python.py && {
	check python-sums sums "$T/prof/python"
	n=$(grep -c '^iv:' "$T/prof/python.time")
	len=$(sed -n 's/^length:\t//p' "$T/prof/python.time")
	if [ "$n" -ge 256 ] && [ "$n" -le 513 ] && [ "$len" -gt 1000 ]; then
		pass "merged: $n intervals of $len Ir"
	else
		fail merged "$n intervals of $len Ir (256..512 kept, length doubled)"
	fi
}

# the explorer's time range (V at interval 2, V at 11 in the timeline of
# phase3) on rec-phases' timeline: the range line gives the sums of those
# intervals as this script reads them from phases.time; the whole run (V
# at the first, V at the last) gives phase3's 30,000,002 (by hand) and the
# profile's total
if [ -s "$T/prof/phases.time" ]; then
	printf '%s\n' '/^phase3<Enter>' 7 '<Home>' '<Right>' V '<Right>' '<Right>' '<Right>' \
		'<Right>' '<Right>' '<Right>' '<Right>' '<Right>' '<Right>' V ':dump part.txt' \
		'<Home>' V '<End>' V ':dump all.txt' q >"$T/out/range.keys"
	(cd "$T/out" && TERM=xterm-256color COLUMNS=200 LINES=40 LC_ALL=C CGTUI_SCRIPT=range.keys \
		"$CGTUI" "$T/prof/phases" >range.stdout 2>range.stderr)
	want=$(python3 - "$T/prof/phases.time" "$T/prof/phases" <<'PY'
import sys
ivs = [l.split('\t') for l in open(sys.argv[1]) if l.startswith('iv:')]
part = ivs[1:11]
s, e, ir = int(part[0][1]), int(part[-1][2]), sum(int(v[3]) for v in part)
tot = [int(l.split()[1]) for l in open(sys.argv[2]) if l.startswith('totals:')][0]
print("range 2 to 11, Ir {:,} to {:,}: Ir {:,},".format(s, e, ir))
print("range 1 to {}, Ir 0 to {:,}: Ir {:,},".format(len(ivs), tot, tot))
PY
)
	got1=$(grep -o 'range 2 to 11, [^,]*,[^,]*,[^:]*: Ir [0-9,]*,' "$T/out/part.txt")
	got2=$(grep -o 'range 1 to [0-9]*, [^:]*: Ir [0-9,]*,' "$T/out/all.txt")
	if [ "$got1" = "$(echo "$want" | sed -n 1p)" ] && [ "$got2" = "$(echo "$want" | sed -n 2p)" ] &&
		grep -q 'range 1 to .*; phase3 30,000,002 ' "$T/out/all.txt"; then
		pass "range: the sums of its intervals ($got1), the whole run's phase3 30,000,002"
	else
		fail range "got '$got1' '$got2', want '$want'; $(grep '^range' "$T/out/all.txt")"
	fi
fi

# line utilisation: an evicted line's D1fb/D1ub go to the instruction that
# fetched it, which need not have run in the interval (the last lines at
# the very end): still in the intervals
record use --cache-sim=yes --cache-use=yes --timeline-interval=10000 -- ../src/rec-calls &&
	check use-sums sums "$T/prof/use"
# live snapshots every 10 ms each write the interval still open (which
# goes on): the intervals still add up at the end
record live --cgtui-live="$T/prof/snap" --cgtui-live-ms=10 --timeline-interval=100000 -- \
	/usr/bin/python3 ../src/rec-python.py &&
	check live-sums sums "$T/prof/live"
# the snapshot and the files beside it are gone once the profile is written
left=$(cd "$T/prof" && ls -d snap snap.* snap-* 2>/dev/null | tr '\n' ' ')
[ -z "$left" ] && pass "live snapshot files removed at the end" ||
	fail "live snapshot files removed at the end" "left: $left"

# without the option: no file, and the profile the same
(cd "$T/run" && valgrind -q --tool=cgtui --cgtui-out-file="$T/prof/none" ../src/rec-phases) \
	>"$T/out/none.log" 2>&1
[ ! -e "$T/prof/none.time" ] && pass "no .time without --timeline" ||
	fail "no .time without --timeline" "$T/prof/none.time written"
ann() { callgrind_annotate "$1" 2>&1 | grep -v '^\(Command\|Data file\|Profile data file\|Options:\|Profiled target\)'; }
if [ "$(ann "$T/prof/phases")" = "$(ann "$T/prof/none")" ] && ann "$T/prof/phases" | grep -q phase3; then
	pass "callgrind_annotate: the same with the timeline as without"
else
	fail "callgrind_annotate" "differs: $(diff <(ann "$T/prof/phases") <(ann "$T/prof/none") | head -5)"
fi

echo "$name: $fails failed"
[ "$fails" = 0 ]
