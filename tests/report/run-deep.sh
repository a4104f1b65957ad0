#!/bin/sh
# Call chains a million functions deep through the batch report with
# --inclusive=yes --tree=both: a plain chain and one closed into a single
# cycle (cycle detection over a million members); and a function with a
# million callees.  It guards against a hang
# (the report was quadratic in the chain's length: 160,000 functions took
# 16 s, so a million would take hours) and against recursion on the C
# stack over the call depth (it runs with a 1 MB stack: a recursion a
# million deep needs far more).  Not a timing test: the benchmark is
# bench/chain-bench.py.
#
# The chain comes from bench/gen-callgrind --chain=N (GEN): f0 calls f1 ...
# calls f<N-1>, 3 Ir of self cost each, so by hand: total 3N, the inclusive
# cost of fi is 3 (N - i), and a call fi -> f(i+1) costs 3 (N - i - 1).  In
# the cycle every call stays inside the cycle, so each function's inclusive
# cost is its self cost, 3 (KCachegrind's rule); f0's callers are its
# cycle (at f0's 3, none of its calls from outside) and f999999 inside the
# cycle, its callee f1 inside the cycle: counts, no cost ("."), marked.
# SPDX-License-Identifier: GPL-2.0-or-later
[ -x "${GEN:-}" ] || { echo "SKIP: no chain generator (GEN)"; exit 77; }
command -v timeout >/dev/null || { echo "SKIP: no timeout(1)"; exit 77; }
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
has() { grep -Fxq -- "$1" out.txt; }
N=1000000

# The report, with a small stack and a generous time limit (a normal run
# takes seconds; the limit only turns a hang into a failure).
report() { # options and profile
	# shellcheck disable=SC3045 # dash and bash have ulimit -s
	(ulimit -s 1024 && exec timeout 300 "$CGTUI" --batch --inclusive=yes --tree=both "$@") \
		>out.txt 2>err.txt
}

"$GEN" --chain=$N chain.out 2>/dev/null || { echo "FAIL: gen-callgrind --chain"; exit 1; }
report chain.out
rc=$?
check "a chain of $N: the report completes" "$rc" "exit $rc: $(head -c 300 err.txt)"
# Widths: the widest count is 3,000,000 (9 characters), the widest
# percentage " (100.0%)" (9).
has '3,000,000 (100.0%)  PROGRAM TOTALS'
check "chain: the total is 3N" $? "no '3,000,000 (100.0%)  PROGRAM TOTALS'"
# Function lines: a function's one file is not listed below it, its self
# cost (3) being under the threshold.  The threshold is 0.1% of 3,000,000,
# computed as cg_annotate does in doubles: 0.1 * 3000000 rounds to
# 300000.0 exactly (Python prints 300000.0), / 100 is 3000.0, so the last
# function shown is f999000 (3 x 1000 = 3,000) and not f999001 (2,997).
has '> 3,000,000 (100.0%)  f0:'
check "chain: f0's inclusive cost is everything" $? "no f0 line"
has '>     3,000   (0.1%)  f999000:' && ! grep -q '  f999001:' out.txt
check "chain: the last function above the threshold" $? "no f999000 line, or f999001"
# f500000: called by f499999 (the call costs f500000's inclusive 1,500,000,
# 50.0%), calls f500001 (1,499,997, 49.9999% -> 50.0%)
grep -A2 -Fx -- '  1,500,000  (50.0%)  < chain.c:f499999 (1x)' out.txt >blk.txt
printf '%s\n' '  1,500,000  (50.0%)  < chain.c:f499999 (1x)' \
	'  1,500,000  (50.0%)  * chain.c:f500000' \
	'  1,499,997  (50.0%)  > chain.c:f500001 (1x)' >want.txt
cmp -s want.txt blk.txt
check "chain: callers and callees in the middle" $? "$(diff want.txt blk.txt | head -8)"
n=$(grep -c '^  .*  \* chain\.c:f' out.txt)
check "chain: every function shown in the tree" "$([ "$n" = 999001 ]; echo $?)" "$n functions, want 999001"

"$GEN" --chain=$N --cycle cycle.out 2>/dev/null || { echo "FAIL: gen-callgrind --cycle"; exit 1; }
# threshold 0: every function's inclusive cost, 3, is under 0.1%
report --threshold=0 cycle.out
rc=$?
check "a cycle of $N: the report completes" "$rc" "exit $rc: $(head -c 300 err.txt)"
# f0's block: called by f999999 with cost 0, inclusive 3 (its self), calls
# f1 inside the cycle (the section's widest number is the cycle's 3N,
# 3,000,000, below)
grep -B2 -A1 -Fx -- '          3   (0.0%)  * chain.c:f0 <cycle 1>' out.txt >blk.txt
printf '%s\n' '          3   (0.0%)  < <cycle 1> (0x)' \
	'          .           < chain.c:f999999 <cycle 1> (1x) (in cycle 1)' \
	'          3   (0.0%)  * chain.c:f0 <cycle 1>' \
	'          .           > chain.c:f1 <cycle 1> (1x) (in cycle 1)' >want.txt
cmp -s want.txt blk.txt
check "cycle: one cycle of every function" $? "$(diff want.txt blk.txt | head -8)"
# the cycle's own block: its inclusive cost, its members' self 3N (no call
# leaves it), no caller (no call enters it), its N members as callees at
# their 3 each, none called from outside
grep -B1 -A1 -Fx -- '  3,000,000 (100.0%)  * <cycle 1>' out.txt >blk.txt
printf '%s\n' '' '  3,000,000 (100.0%)  * <cycle 1>' \
	'          3   (0.0%)  > chain.c:f999999 <cycle 1> (0x)' >want.txt
cmp -s want.txt blk.txt
check "cycle: its block, 3N, no caller" $? "$(diff want.txt blk.txt | head -8)"
n=$(grep -c '^          3   (0\.0%)  > chain\.c:f[0-9]* <cycle 1> (0x)$' out.txt)
check "cycle: its $N members as its callees" "$([ "$n" = $N ]; echo $?)" "$n members"

# A wide graph: f0 calls a million functions (a callee list was merged one
# call record at a time against the edges found so far: quadratic).  Only
# f0 passes the threshold (the others' 3 Ir are under 0.1%); its callees
# cost 3 each, so they are listed by name, greatest first.
"$GEN" --star=$N star.out 2>/dev/null || { echo "FAIL: gen-callgrind --star"; exit 1; }
report star.out
rc=$?
check "a function calling $((N - 1)) others: the report completes" "$rc" "exit $rc: $(head -c 300 err.txt)"
grep -A2 -Fx -- '  3,000,000 (100.0%)  * chain.c:f0' out.txt >blk.txt
printf '%s\n' '  3,000,000 (100.0%)  * chain.c:f0' \
	'          3   (0.0%)  > chain.c:f999999 (1x)' \
	'          3   (0.0%)  > chain.c:f999998 (1x)' >want.txt
cmp -s want.txt blk.txt
check "star: f0 and its first callees" $? "$(diff want.txt blk.txt | head -8)"
n=$(grep -c '  > chain\.c:f[0-9]* (1x)$' out.txt)
check "star: every callee listed once" "$([ "$n" = $((N - 1)) ]; echo $?)" "$n callees, want $((N - 1))"

finish
